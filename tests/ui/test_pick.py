"""Choosing photos for another program, as a script runs `gphotobrowse --pick`: Enter on the
newest photo, three chosen with --multiple in the order shown, a name holding a newline with
--null, Escape, a folder that does not exist, and a pick answered by a browser already
running. What is checked is what the caller gets: its standard output, byte for byte, and
its exit status."""

import os
import time

from harness import COLOURS, Deadline, make_solid, set_times, tiles_check, wait_for_screen, wait_for_still_screen

PHOTOS = {"a-red.png": "red", "b-green.png": "green", "c-blue.png": "blue", "d-yellow.png": "yellow"}


def finished(app, timeout: float = 30) -> tuple[int, bytes]:
    """The picker's exit status and everything it wrote on standard output."""
    status = app.process.wait(timeout)
    for reader in app._readers:
        reader.join(5)
    return status, bytes(app.stdout_bytes)


def newest_first(folder, names):
    set_times(folder, names)  # names[0] newest, a minute apart


def ready(app, title: str, count: int):
    """The picking window listed, its dates read (it sorts by them) and drawn."""
    app.wait_for_line(rf"^trace enumerated {count} \d+$", timeout=30)
    app.wait_for_window(rf"^{title}$", timeout=30)
    app.wait_for_line(rf"^trace dates-read {count} \d+$", timeout=30)
    app.wait_for_line(r"^trace visible-thumbnails \d+ \d+$", timeout=30)
    wait_for_still_screen(app, lambda image: (True, ""), what="the grid drawn")


def test_enter_alone_chooses_the_newest_photo(launch, photo_folder):
    folder = photo_folder("pick-me", PHOTOS)
    newest_first(folder, ["c-blue.png", "a-red.png", "d-yellow.png", "b-green.png"])
    app = launch("--pick", folder)
    ready(app, "pick-me", 4)
    app.focus()
    app.key("Return")
    status, out = finished(app)
    assert (status, out) == (0, os.fsencode(folder / "c-blue.png") + b"\n")


def test_three_chosen_come_out_in_the_order_shown(launch, photo_folder):
    folder = photo_folder("pick-three", PHOTOS)
    newest_first(folder, ["d-yellow.png", "b-green.png", "a-red.png", "c-blue.png"])
    app = launch("--pick", "--multiple", "--title", "Choose Photos", folder)
    ready(app, "Choose Photos", 4)
    image = wait_for_screen(app, tiles_check({c: COLOURS[c] for c in PHOTOS.values()}, area=app.content_area()),
                            what="the four tiles")
    blobs = image.crop(app.content_area()).blobs({c: COLOURS[c] for c in PHOTOS.values()})
    area = app.content_area()
    # Clicked in another order than shown; each click ticks its tile.
    for colour in ["red", "yellow", "blue"]:
        app.click(area.x + round(blobs[colour].cx), area.y + round(blobs[colour].cy))
    app.focus()
    app.key("Return")
    status, out = finished(app)
    expected = b"".join(os.fsencode(folder / name) + b"\n" for name in ["d-yellow.png", "a-red.png", "c-blue.png"])
    assert (status, out) == (0, expected)


def test_null_after_each_for_names_holding_a_newline(launch, tmp_path):
    folder = tmp_path / "odd-names"
    odd = folder / "two\nlines.png"
    make_solid(odd, "red", size="800x600")
    make_solid(folder / "plain.png", "green", size="800x600")
    newest_first(folder, [odd.name, "plain.png"])
    app = launch("--pick", "--null", folder)
    ready(app, "odd-names", 2)
    app.focus()
    app.key("Return")
    status, out = finished(app)
    assert (status, out) == (0, os.fsencode(odd) + b"\0")


def test_escape_chooses_nothing(launch, photo_folder):
    folder = photo_folder("not-these", PHOTOS)
    app = launch("--pick", "--uri", folder)
    ready(app, "not-these", 4)
    app.focus()
    app.key("Escape")
    assert finished(app) == (1, b"")


def test_a_folder_that_does_not_exist_is_said_and_exits_2(launch, tmp_path):
    app = launch("--pick", tmp_path / "nowhere")
    status, out = finished(app)
    assert (status, out) == (2, b"")
    assert any("nowhere" in line for line in app.lines), f"no message naming the folder: {app.tail()}"
    # A bad option too, before any window.
    app = launch("--pick", "--frobnicate")
    assert finished(app) == (2, b"")


def test_a_running_browser_answers_a_pick(launch, launch_beside, photo_folder):
    browsing = photo_folder("browsing", {"e-magenta.png": "magenta"})
    folder = photo_folder("picked-from", PHOTOS)
    newest_first(folder, ["b-green.png", "a-red.png", "c-blue.png", "d-yellow.png"])
    browser = launch(browsing)
    browser.wait_for_window(r"^browsing$", timeout=30)
    browser.wait_for_line(r"^trace visible-thumbnails 1 \d+$", timeout=30)
    mark = browser.mark()
    picker = launch_beside(browser, "--pick", "--uri", folder)
    # The browser's process opens the picking window; its traces are the browser's.
    browser.wait_for_line(r"^trace dates-read 4 \d+$", since=mark, timeout=30)
    deadline = Deadline(30)
    while not browser.x.windows_named(r"^picked-from$") and not deadline.expired():
        time.sleep(0.1)
    window = browser.x.windows_named(r"^picked-from$")
    assert window, "no picking window in the running browser"
    assert picker.process.poll() is None, "the caller waits for the answer"
    browser.wait_for_line(r"^trace visible-thumbnails 4 \d+$", since=mark, timeout=30)
    browser.x.focus(window[0])
    browser.x.key("Return")
    status, out = finished(picker)
    assert (status, out) == (0, (folder / "b-green.png").as_uri().encode() + b"\n")
    # The browser's own window goes on.
    assert browser.process.poll() is None and browser.x.windows_named(r"^browsing$")
    assert browser.quit() == 0


def test_ctrl_a_chooses_all_and_space_unticks_the_focused_one(launch, photo_folder):
    folder = photo_folder("pick-all", PHOTOS)
    newest_first(folder, ["a-red.png", "b-green.png", "c-blue.png", "d-yellow.png"])
    app = launch("--pick", "--multiple", folder)
    ready(app, "pick-all", 4)
    app.focus()
    app.key("ctrl+a")
    app.key("space")  # the newest, which has the focus, unticked
    app.key("Return")
    status, out = finished(app)
    assert (status, out) == (0, b"".join(os.fsencode(folder / n) + b"\n" for n in ["b-green.png", "c-blue.png", "d-yellow.png"]))


def test_a_long_press_in_the_preview_chooses_the_photo(launch, photo_folder):
    folder = photo_folder("press-long", PHOTOS)
    newest_first(folder, ["a-red.png", "b-green.png", "c-blue.png", "d-yellow.png"])
    app = launch("--pick", folder)
    ready(app, "press-long", 4)
    image = wait_for_screen(app, tiles_check({c: COLOURS[c] for c in PHOTOS.values()}, area=app.content_area()),
                            what="the four tiles")
    blue = image.crop(app.content_area()).blobs({"blue": COLOURS["blue"]})["blue"]
    area = app.content_area()
    app.click(area.x + round(blue.cx), area.y + round(blue.cy))  # a click previews
    app.wait_for_title("c-blue.png")
    app.wait_for_line(r"^trace full-image 2 \d+$", timeout=30)
    # The mouse held still over the photo: a long press.
    geometry = app.geometry()
    app.x.long_press(geometry.x + geometry.width // 2, geometry.y + geometry.height // 2)
    status, out = finished(app)
    assert (status, out) == (0, os.fsencode(folder / "c-blue.png") + b"\n")


def test_a_web_photo_chosen_is_written_as_its_downloaded_copy(launch, tmp_path):
    from test_web_album import PhotoServer
    root = tmp_path / "www"
    make_solid(root / "a.png", "red", size="800x600")
    (root / "list.json").write_text('{"title": "Web", "photos": ["a.png"]}')
    server = PhotoServer(root, tmp_path / "stats.json")
    try:
        app = launch("--pick", f"{server.url}/list.json")
        app.wait_for_line(r"^trace enumerated 1 \d+$", timeout=30)
        app.wait_for_window(r"^Web$", timeout=30)
        app.wait_for_line(r"^trace visible-thumbnails 1 \d+$", timeout=30)
        app.focus()
        app.key("Return")
        status, out = finished(app)
        assert status == 0 and out.endswith(b"\n") and out.count(b"\n") == 1
        copy = os.fsdecode(out[:-1])
        assert copy.startswith(app.environment["XDG_CACHE_HOME"]), f"{copy} is not a copy in the cache"
        assert open(copy, "rb").read() == (root / "a.png").read_bytes()
    finally:
        server.stop()


def test_a_second_command_line_opens_a_window_in_the_running_browser(launch, launch_beside, photo_folder):
    first = photo_folder("first", {"a-red.png": "red"})
    second = photo_folder("second", {"b-green.png": "green"})
    browser = launch(first)
    browser.wait_for_window(r"^first$", timeout=30)
    other = launch_beside(browser, second)
    assert other.process.wait(30) == 0, "the second command line is answered at once"
    deadline = Deadline(30)
    while not browser.x.windows_named(r"^second$") and not deadline.expired():
        time.sleep(0.1)
    assert browser.x.windows_named(r"^second$"), "no window on the second folder in the running browser"
    assert browser.quit() == 0
