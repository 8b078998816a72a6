"""`gphotobrowse --pick DIR` answered by a browser already running, on a folder whose file
dates and dates taken disagree: the grid first shows the photos in a cheap order, then
re-sorts them by date taken as the dates are read. Enter must choose what the grid shows
first and focused, whatever arrived before the key, every time (it chose the photo newest
by file date in about half the runs)."""

import os
import subprocess
import time

from exif_photos import exif_segment
from harness import COLOURS, Deadline, convert_tool, row_major_order, wait_for_still_screen

# Newest by date taken first; their files' modification times say the reverse.
TAKEN = [("a-red.jpg", "red", "2024:05:04 10:00:00"), ("b-green.jpg", "green", "2024:05:03 10:00:00"),
         ("c-blue.jpg", "blue", "2024:05:02 10:00:00"), ("d-yellow.jpg", "yellow", "2024:05:01 10:00:00")]


def photo_with_date(path, colour: str, taken: str) -> None:
    """A small JPEG of `colour` whose EXIF says when it was taken."""
    hex_colour = "#%02x%02x%02x" % COLOURS[colour]
    plain = path.with_suffix(".plain.jpg")
    preview = path.with_suffix(".preview.jpg")
    subprocess.run([convert_tool(), "-size", "800x600", f"xc:{hex_colour}", str(plain)], check=True)
    subprocess.run([convert_tool(), "-size", "160x120", f"xc:{hex_colour}", "-strip", str(preview)], check=True)
    body = plain.read_bytes()
    path.write_bytes(body[:2] + exif_segment(preview.read_bytes(), taken=taken) + body[2:])
    plain.unlink()
    preview.unlink()


def dated_folder(root, name: str):
    folder = root / name
    folder.mkdir()
    now = time.time()
    for i, (file_name, colour, taken) in enumerate(TAKEN):
        photo_with_date(folder / file_name, colour, taken)
        # The oldest taken has the newest file.
        stamp = now - 3600 * (len(TAKEN) - i)
        os.utime(folder / file_name, (stamp, stamp))
    return folder


def shown_first(image) -> str | None:
    """The colour of the top-left tile in `image`, a picking window's."""
    blobs = image.blobs({colour: COLOURS[colour] for _, colour, _ in TAKEN})
    if len(blobs) < len(TAKEN):
        return None
    return row_major_order(blobs.values())[0]


def answered(app, timeout: float = 30) -> tuple[int, bytes]:
    status = app.process.wait(timeout)
    for reader in app._readers:
        reader.join(5)
    return status, bytes(app.stdout_bytes)


def test_enter_chooses_the_photo_shown_first_in_a_running_browser(launch, launch_beside, photo_folder, tmp_path):
    browsing = photo_folder("browsing", {"e-magenta.png": "magenta"})
    browser = launch(browsing)
    browser.wait_for_window(r"^browsing$", timeout=30)
    browser.wait_for_line(r"^trace visible-thumbnails 1 \d+$", timeout=30)
    for run in range(8):
        folder = dated_folder(tmp_path, f"dated-{run}")
        mark = browser.mark()
        picker = launch_beside(browser, "--pick", folder)
        # The browser's process opens the picking window; its traces are the browser's.
        browser.wait_for_line(r"^trace dates-read 4 \d+$", since=mark, timeout=30)
        deadline = Deadline(30)
        while not browser.x.windows_named(rf"^dated-{run}$") and not deadline.expired():
            time.sleep(0.05)
        window = browser.x.windows_named(rf"^dated-{run}$")
        assert window, "no picking window in the running browser"
        # What the grid shows first: red, taken last.
        area = browser.x.geometry(window[0])
        wait_for_still_screen(browser, lambda image: (shown_first(image.crop(area)) == "red",
                                                      f"first: {shown_first(image.crop(area))}"), timeout=20,
                              what="the photos in the order taken, red first")
        browser.x.focus(window[0])
        browser.x.key("Return")
        status, out = answered(picker)
        assert (status, out) == (0, os.fsencode(folder / "a-red.jpg") + b"\n"), f"run {run}"
    assert browser.quit() == 0
