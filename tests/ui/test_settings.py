"""What the app remembers, in GSettings: the tile size Ctrl+plus, Ctrl+minus and Ctrl+scroll
change (seen in the grid's pixels, read back with `gsettings` after a restart), the settings
file of earlier versions read once and removed, and the folders opened before listed on the
welcome page (GTK's recent files), which open when clicked.

Each app keeps its settings in GLib's key file backend under its own XDG_CONFIG_HOME
(conftest.app_environment); tests that restart the app give both runs the same one."""

from __future__ import annotations

import time
from pathlib import Path

from harness import (COLOURS, SCHEMA_ID, Deadline, close_to, gsettings, Image, Rect, open_folder, row_major_order, setting, settings_key_file, tiles_check,
                     wait_for_screen, wait_for_still_screen)

PHOTOS = {f"photo-{n}-{colour}.png": colour for n, colour in enumerate(COLOURS, 1)}


def tile_sides(image: Image) -> list[int]:
    """The sides of the photos' tiles on screen (each photo a solid colour)."""
    return [max(blob.width, blob.height) for blob in image.blobs(COLOURS).values()]


def tiles_of(edge: int, tolerance: int = 8):
    """A wait_for_screen check: every photo shows as a square tile about `edge` pixels a side."""
    return tiles_check(COLOURS, min_side=edge - tolerance, max_side=edge + tolerance)


def tiles_as_wide_as(edge: int, tolerance: int = 8):
    """A wait_for_screen check for tiles too large for all to show: every tile seen is about
    `edge` pixels wide, and one at least is whole (as high)."""

    def check(image: Image):
        blobs = list(image.blobs(COLOURS).values())
        wide = all(abs(blob.width - edge) <= tolerance for blob in blobs)
        whole = any(abs(blob.height - edge) <= tolerance for blob in blobs)
        return bool(blobs) and wide and whole, f"tiles {blobs}"

    return check


def shared_settings(tmp_path: Path) -> dict[str, str]:
    """The settings and recent files of one person across runs of the app."""
    return {"XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_DATA_HOME": str(tmp_path / "data")}


def cached_thumbnails(app, size: str) -> list[Path]:
    folder = Path(app.environment["XDG_CACHE_HOME"]) / "thumbnails" / size
    return sorted(folder.glob("*.png")) if folder.is_dir() else []


def step_tile_size(app, keys: str, edge: int) -> None:
    """Presses `keys` in the grid and waits until its tiles are laid out at `edge` pixels."""
    mark = app.mark()
    app.key(keys)
    app.wait_for_line(rf"^trace tile-size {edge} \d+$", since=mark)


def test_ctrl_plus_makes_the_tiles_larger_and_the_next_run_remembers(launch, photo_folder, tmp_path):
    folder = photo_folder("tiles", PHOTOS)
    env = shared_settings(tmp_path)
    app = open_folder(launch, folder, count=len(PHOTOS), extra_env=env)
    before = tile_sides(wait_for_screen(app, tiles_of(160), what="tiles of 160 px, the default"))
    assert cached_thumbnails(app, "large"), "160 px tiles show the cache's large (256 px) thumbnails"
    assert setting(app, "tile-size") == "160"

    step_tile_size(app, "ctrl+plus", 192)
    after = tile_sides(wait_for_screen(app, tiles_of(192), what="tiles of 192 px after Ctrl+plus"))
    assert min(after) >= max(before) + 24, f"tiles of {before} px became {after} px"
    assert setting(app, "tile-size") == "192", "Ctrl+plus is kept in GSettings"

    # Two steps more: 256, then 320, larger than the large thumbnails: the x-large ones (512 px).
    step_tile_size(app, "ctrl+plus", 256)
    step_tile_size(app, "ctrl+plus", 320)
    image = wait_for_screen(app, tiles_of(320), what="tiles of 320 px")
    image.save(tmp_path / "tiles-320.png")
    deadline = Deadline(20)
    while len(cached_thumbnails(app, "x-large")) < len(PHOTOS):
        assert not deadline.expired(), f"x-large thumbnails made: {cached_thumbnails(app, 'x-large')}"
        time.sleep(0.1)
    assert setting(app, "tile-size") == "320"
    assert app.quit() == 0

    again = open_folder(launch, folder, count=len(PHOTOS), extra_env=env)
    wait_for_screen(again, tiles_of(320), what="the next run's tiles at 320 px")
    step_tile_size(again, "ctrl+minus", 256)
    wait_for_screen(again, tiles_of(256), what="tiles of 256 px after Ctrl+minus")
    assert setting(again, "tile-size") == "256"
    assert again.quit() == 0


def test_ctrl_scroll_over_the_grid_steps_the_tile_size_from_smallest_to_largest(launch, photo_folder, tmp_path):
    folder = photo_folder("scrolled", PHOTOS)
    app = open_folder(launch, folder, count=len(PHOTOS))
    wait_for_screen(app, tiles_of(160), what="tiles of 160 px")
    g = app.geometry()
    app.x.mouse_move(g.x + g.width // 2, g.y + g.height // 2)

    def scroll(button: int, edge: int) -> None:
        mark = app.mark()
        app.focus()
        app.x.xdotool("keydown", "ctrl", "click", str(button), "keyup", "ctrl")
        app.wait_for_line(rf"^trace tile-size {edge} \d+$", since=mark)

    for edge in (128, 96):          # wheel down: smaller, to the smallest
        scroll(5, edge)
    wait_for_screen(app, tiles_of(96, tolerance=6), what="tiles of 96 px, the smallest")
    assert setting(app, "tile-size") == "96"
    mark = app.mark()
    app.x.xdotool("keydown", "ctrl", "click", "5", "keyup", "ctrl")   # no smaller size
    for edge in (128, 160, 192, 256, 320, 384):   # wheel up: larger, to the largest
        scroll(4, edge)
    assert not app.lines_matching(r"^trace tile-size 96 ", since=mark), "a step below the smallest size"
    # Two columns of 384 px tiles, the photo under the pointer kept in view: some rows are cut.
    wait_for_screen(app, tiles_as_wide_as(384), what="tiles of 384 px, the largest")
    assert setting(app, "tile-size") == "384"
    assert app.quit() == 0


def test_the_settings_file_of_earlier_versions_is_read_once_then_removed(launch, photo_folder, tmp_path):
    folder = photo_folder("migrated", {"img-1-red.png": "red", "img-2-green.png": "green", "img-10-blue.png": "blue"},
                          newest_first=False)
    by_name = ["red", "green", "blue"]
    by_age = [c for n, c in sorted({"img-1-red.png": "red", "img-2-green.png": "green", "img-10-blue.png": "blue"}.items(),
                                   key=lambda item: (folder / item[0]).stat().st_mtime, reverse=True)]
    assert by_name != by_age
    env = shared_settings(tmp_path)
    old = Path(env["XDG_CONFIG_HOME"]) / "gphotobrowse" / "settings.ini"
    old.parent.mkdir(parents=True)
    old.write_text("[browser]\nsort-by=name\nsort-reversed=false\n")

    def order(image: Image) -> list[str]:
        return row_major_order(image.blobs({c: COLOURS[c] for c in by_name}).values())

    app = open_folder(launch, folder, count=3, extra_env=env)
    wait_for_screen(app, lambda image: (order(image) == by_name, f"tiles in the order {order(image)}"),
                    what="the tiles in name order, as the old settings file said")
    deadline = Deadline(10)
    while old.exists() or old.parent.exists():
        assert not deadline.expired(), f"{old} (or its folder) is still there after the migration"
        time.sleep(0.1)
    assert setting(app, "sort-by") == "'name'"
    assert setting(app, "sort-reversed") == "false"
    assert setting(app, "settings-file-migrated") == "true"
    assert "sort-by='name'" in settings_key_file(env["XDG_CONFIG_HOME"]).read_text()
    assert app.quit() == 0

    # A file of an earlier version that turns up again is not read again: GSettings holds the settings.
    old.parent.mkdir()
    old.write_text("[browser]\nsort-by=modified\nsort-reversed=true\n")
    again = open_folder(launch, folder, count=3, extra_env=env)
    wait_for_screen(again, lambda image: (order(image) == by_name, f"tiles in the order {order(image)}"),
                    what="the tiles still in name order")
    assert old.exists(), "the file was taken for settings again"
    assert setting(again, "sort-by") == "'name'"
    assert again.quit() == 0


def welcome_rows(image: Image) -> list[Rect]:
    """The rows of the welcome page's list of recent folders: white bands (a boxed list, in
    the light style) on the page's grey, under the Open Folder button, as wide as the list."""
    rows: list[Rect] = []
    top = None
    for y in range(80, image.height):
        white = sum(1 for x in range(0, image.width, 4) if image.pixel(x, y) == (255, 255, 255))
        # More than 200 px of white (the folder's path, in grey, takes some of it).
        if white * 4 >= 200 and top is None:
            top = y
        elif white * 4 < 200 and top is not None:
            if y - top >= 40:
                xs = [x for x in range(image.width) if image.pixel(x, (top + y) // 2) == (255, 255, 255)]
                rows.append(Rect(xs[0], top, xs[-1] - xs[0] + 1, y - top))
            top = None
    return rows


def test_an_opened_folder_is_in_the_recent_files_and_opens_from_the_welcome_page(launch, photo_folder, tmp_path):
    folder = photo_folder("Holiday", {"a-red.png": "red", "b-green.png": "green"})
    env = shared_settings(tmp_path)
    app = open_folder(launch, folder, count=2, extra_env=env)
    recent = Path(env["XDG_DATA_HOME"]) / "recently-used.xbel"
    deadline = Deadline(10)
    while not (recent.exists() and folder.as_uri() in recent.read_text()):
        assert not deadline.expired(), f"{folder.as_uri()} is not in {recent}"
        time.sleep(0.1)
    text = recent.read_text()
    assert '<mime:mime-type type="inode/directory"/>' in text, text
    assert app.quit() == 0

    # No folder given and no Pictures folder: the welcome page, listing the folder.
    welcome = launch(extra_env=env)
    welcome.wait_for_window(r"^Photo Browser$")
    welcome.wait_for_line(r"^trace recent-folders 1 \d+$")
    image = wait_for_still_screen(welcome, lambda image: (len(welcome_rows(image)) == 1, f"rows {welcome_rows(image)}"),
                                  what="one row of recent folders")
    image.save(tmp_path / "welcome.png")
    [row] = welcome_rows(image)
    assert 300 <= row.width <= 500, f"the row {row} is not the list's width"
    mark = welcome.mark()
    welcome.click(row.x + row.width // 2, row.y + row.height // 2)
    welcome.wait_for_title(r"Holiday", timeout=20)
    welcome.wait_for_line(r"^trace enumerated 2 \d+$", since=mark)
    wait_for_screen(welcome, tiles_check({"red": COLOURS["red"], "green": COLOURS["green"]}),
                    what="the recent folder's photos")
    assert welcome.quit() == 0


def test_a_folder_gone_is_left_off_the_welcome_page(launch, photo_folder, tmp_path):
    folder = photo_folder("Gone", {"a-red.png": "red"})
    env = shared_settings(tmp_path)
    app = open_folder(launch, folder, count=1, extra_env=env)
    recent = Path(env["XDG_DATA_HOME"]) / "recently-used.xbel"
    deadline = Deadline(10)
    while not (recent.exists() and folder.as_uri() in recent.read_text()):
        assert not deadline.expired(), f"{folder.as_uri()} is not in {recent}"
        time.sleep(0.1)
    assert app.quit() == 0
    (folder / "a-red.png").unlink()
    folder.rmdir()

    welcome = launch(extra_env=env)
    welcome.wait_for_window(r"^Photo Browser$")
    welcome.wait_for_line(r"^trace recent-folders 0 \d+$")
    image = wait_for_still_screen(welcome, lambda image: (True, ""))
    assert welcome_rows(image) == [], "a row for a folder that is gone"
    assert welcome.quit() == 0


def test_open_folder_starts_in_the_folder_opened_last(launch, photo_folder, tmp_path):
    folder = photo_folder("Last", {"a-red.png": "red"})
    env = shared_settings(tmp_path)
    app = open_folder(launch, folder, count=1, extra_env=env)
    assert setting(app, "last-folder") == f"'{folder.as_uri()}'"
    assert app.quit() == 0

    welcome = launch(extra_env=env)
    welcome.wait_for_window(r"^Photo Browser$")
    welcome.key("ctrl+o")
    deadline = Deadline(10)
    while not welcome.x.windows_named(r"^Open Folder$"):
        assert not deadline.expired(), "no Open Folder window"
        time.sleep(0.1)
    chooser = welcome.x.windows_named(r"^Open Folder$")[0]
    welcome.x.focus(chooser)
    # Open with nothing chosen: the folder the chooser shows, the one opened last.
    mark = welcome.mark()
    welcome.x.key("alt+o")
    welcome.wait_for_title(r"Last", timeout=20)
    welcome.wait_for_line(r"^trace enumerated 1 \d+$", since=mark)
    assert welcome.quit() == 0


def test_a_tile_size_set_with_gsettings_while_the_app_runs_shows_in_the_grid(launch, photo_folder, tmp_path):
    folder = photo_folder("outside", PHOTOS)
    app = open_folder(launch, folder, count=len(PHOTOS))
    wait_for_screen(app, tiles_of(160), what="tiles of 160 px")
    mark = app.mark()
    gsettings(app, "set", SCHEMA_ID, "tile-size", "256")
    app.wait_for_line(r"^trace tile-size 256 \d+$", since=mark)
    wait_for_screen(app, tiles_of(256), what="tiles of 256 px, as set from outside")
    assert app.quit() == 0


def test_the_preferences_window_shows_the_settings_and_changes_them(launch, photo_folder, tmp_path):
    folder = photo_folder("preferred", PHOTOS)
    app = open_folder(launch, folder, count=len(PHOTOS))
    wait_for_screen(app, tiles_of(160), what="tiles of 160 px")
    app.key("ctrl+comma")
    deadline = Deadline(10)
    while not app.x.windows_named(r"^Preferences$"):
        assert not deadline.expired(), "no Preferences window after Ctrl+comma"
        time.sleep(0.1)
    preferences = app.x.windows_named(r"^Preferences$")[0]
    g = app.x.geometry(preferences)

    def shown(image: Image):
        # The tile size's slider, blue up to its handle (the window is drawn).
        blue = [x for x in range(g.width // 2, g.width) if close_to(image.pixel(x, 316), (53, 132, 228), 40)]
        return bool(blue), f"no blue slider in the row at y=316"

    image = wait_for_screen_region(app, g, shown, what="the Preferences window")
    image.save(tmp_path / "preferences.png")
    # The slider's handle: a click takes the focus, Right twice steps 160 → 192 → 256.
    mark = app.mark()
    app.x.click(g.x + 428, g.y + 316)
    app.x.key("Right", "Right")
    app.wait_for_line(r"^trace tile-size 256 \d+$", since=mark)
    assert setting(app, "tile-size") == "256"
    # The interval's + button.
    app.x.click(g.x + 553, g.y + 433)
    deadline = Deadline(10)
    while setting(app, "slideshow-interval") != "6":
        assert not deadline.expired(), f"slideshow-interval is {setting(app, 'slideshow-interval')} after +"
        time.sleep(0.1)
    app.x.key("Escape")
    deadline = Deadline(10)
    while app.x.windows_named(r"^Preferences$"):
        assert not deadline.expired(), "Escape did not close the Preferences window"
        time.sleep(0.1)
    wait_for_screen(app, tiles_of(256), what="tiles of 256 px, chosen in Preferences")
    assert app.quit() == 0


def wait_for_screen_region(app, rect: Rect, check, what: str, timeout: float = 10) -> Image:
    """As wait_for_screen, for another window of the app (at `rect` on the screen)."""
    deadline = Deadline(timeout)
    while True:
        image = app.x.screenshot().crop(rect)
        ok, detail = check(image)
        if ok:
            return image
        if deadline.expired():
            path = app.log_path.with_name("last-screenshot.png")
            image.save(path)
            raise AssertionError(f"{what} did not show within {timeout} s: {detail} (last screenshot: {path})")
        time.sleep(0.2)


def test_the_next_window_opens_at_the_size_the_last_one_closed_at(launch, photo_folder, tmp_path):
    folder = photo_folder("sized", {"a-red.png": "red"})
    env = shared_settings(tmp_path)
    app = open_folder(launch, folder, count=1, extra_env=env)
    assert (app.geometry().width, app.geometry().height) == (1024, 768), "the first window's size, the default"
    app.x.xdotool("windowsize", "--sync", str(app.window), "900", "640")
    deadline = Deadline(10)
    while (app.geometry().width, app.geometry().height) != (900, 640):
        assert not deadline.expired(), f"the window is {app.geometry()}, not 900×640"
        time.sleep(0.1)
    assert app.quit() == 0
    # Read after the app is gone: what it wrote when its window closed.
    assert (setting(app, "window-width"), setting(app, "window-height")) == ("900", "640")

    again = open_folder(launch, folder, count=1, extra_env=env)
    g = again.geometry()
    assert (g.width, g.height) == (900, 640), f"the next window opened at {g.width}×{g.height}"
    assert again.quit() == 0

