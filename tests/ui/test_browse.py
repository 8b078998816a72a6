"""Browsing a folder as a person does: the grid, opening a photo, paging, going back."""

import os
import signal

import pytest

from harness import (COLOURS, open_folder, photo_fills_view_check, row_major_order,
                     tiles_check, wait_for_screen)

# File name → colour, in natural name order. Plain string order differs (img-10 < img-2).
PHOTOS = {
    "img-1-red.png": "red",
    "img-2-green.png": "green",
    "img-3-blue.png": "blue",
    "img-10-yellow.png": "yellow",
    "img-11-magenta.png": "magenta",
    "img-20-cyan.png": "cyan",
}
NAMES = list(PHOTOS)
FOLDER = "holiday-2024"


@pytest.fixture
def folder(photo_folder):
    assert sorted(NAMES) != NAMES, "the names must sort differently as strings and naturally"
    return photo_folder(FOLDER, PHOTOS)


@pytest.fixture
def folder_by_name_only(photo_folder):
    """The same photos, with modification times in neither name order nor its reverse."""
    return photo_folder(FOLDER, PHOTOS, newest_first=False)


# Adwaita's accent colour: a status page's suggested action ("Open Folder…").
ACCENT = (53, 132, 228)


def expect_viewer_at(app, index, since, timeout=15):
    """The viewer shows photo `index`: title, page and full-image traces, its colour on screen."""
    name = NAMES[index]
    app.wait_for_title(name.replace(".", r"\."), timeout=timeout)
    app.wait_for_line(rf"^trace page {index} \d+$", since=since, timeout=timeout)
    app.wait_for_line(rf"^trace full-image {index} \d+$", since=since, timeout=timeout)
    colour = PHOTOS[name]
    wait_for_screen(app, photo_fills_view_check(COLOURS[colour], colour), timeout=5,
                    what=f"{name} filling the view")


def expect_grid(app, timeout=10):
    app.wait_for_title(FOLDER, timeout=timeout)
    return wait_for_screen(app, tiles_check(COLOURS), timeout=timeout, what="the six colour tiles")


def test_grid_shows_every_photo_as_a_tile_in_natural_name_order(launch, folder_by_name_only):
    app = open_folder(launch, folder_by_name_only, count=len(PHOTOS), sort_by="name")
    g = app.geometry()
    assert (g.width, g.height) == (1024, 768), f"default window size is {g.width}x{g.height}"
    shot = wait_for_screen(app, tiles_check(COLOURS), what="six tile-sized colour patches")
    blobs = shot.blobs(COLOURS)
    shown = row_major_order(blobs.values())
    expected = list(PHOTOS.values())
    assert shown == expected, (
        f"tiles show {shown}, expected natural name order {expected} ({NAMES}); "
        f"tiles: {sorted(blobs.values(), key=lambda b: (b.cy, b.cx))}")
    header = min(b.top for b in blobs.values())
    assert header >= 30, f"tiles start at y={header}: is the header bar at the top?"


def test_by_default_the_newest_photo_comes_first(launch, folder_by_name_only):
    # These PNGs have no EXIF date: date-taken order falls back to the modification time,
    # which folder_by_name_only sets in neither name order nor its reverse.
    app = open_folder(launch, folder_by_name_only, count=len(PHOTOS))
    shown = row_major_order(wait_for_screen(app, tiles_check(COLOURS)).blobs(COLOURS).values())
    by_age = sorted(NAMES, key=lambda name: (folder_by_name_only / name).stat().st_mtime, reverse=True)
    assert shown == [PHOTOS[name] for name in by_age], f"tiles show {shown}, expected newest first {by_age}"
    assert app.quit() == 0


def test_click_opens_the_photo_and_arrows_page_and_escape_returns_to_the_grid(launch, folder):
    app = open_folder(launch, folder, count=len(PHOTOS))
    red = wait_for_screen(app, tiles_check(COLOURS)).blobs(COLOURS)["red"]

    mark = app.mark()
    app.click(round(red.cx), round(red.cy))
    expect_viewer_at(app, 0, since=mark)

    mark = app.mark()
    app.key("Right")
    expect_viewer_at(app, 1, since=mark)

    mark = app.mark()
    app.key("Left")
    expect_viewer_at(app, 0, since=mark)

    app.key("Escape")
    expect_grid(app)
    assert app.quit() == 0


def test_end_then_enter_opens_the_last_photo(launch, folder):
    app = open_folder(launch, folder, count=len(PHOTOS))
    mark = app.mark()
    app.key("End", "Return")
    expect_viewer_at(app, len(NAMES) - 1, since=mark)


def test_arrow_keys_move_the_focus_and_enter_opens_the_focused_photo(launch, folder):
    app = open_folder(launch, folder, count=len(PHOTOS))
    mark = app.mark()
    app.key("End", "Left", "Left", "Return")
    expect_viewer_at(app, len(NAMES) - 3, since=mark)


def test_escape_leaves_the_last_viewed_photo_focused_in_the_grid(launch, folder):
    app = open_folder(launch, folder, count=len(PHOTOS))
    red = wait_for_screen(app, tiles_check(COLOURS)).blobs(COLOURS)["red"]
    mark = app.mark()
    app.click(round(red.cx), round(red.cy))
    expect_viewer_at(app, 0, since=mark)
    mark = app.mark()
    app.key("Right", "Right")
    expect_viewer_at(app, 2, since=mark)

    app.key("Escape")
    expect_grid(app)
    mark = app.mark()
    app.key("Right", "Return")   # from the focused tile 2 to tile 3
    expect_viewer_at(app, 3, since=mark)


def test_a_file_argument_opens_the_viewer_at_that_file(launch, folder):
    app = launch(folder / "img-3-blue.png")
    app.wait_for_window(r"^img-3-blue\.png$")
    expect_viewer_at(app, 2, since=0)
    mark = app.mark()
    app.key("Right")
    expect_viewer_at(app, 3, since=mark)
    app.key("Escape")
    expect_grid(app)
    assert app.quit() == 0


def test_the_folder_given_is_what_the_first_frame_shows(launch, folder):
    """A window opened on a folder shows it from its first frame: not the blank page it has
    while the folder is looked up with a lone "Open Folder…" on it, nor a fade from that page
    (its first two frames were that page, then a 120 ms fade into the grid). The app is
    stopped as soon as it has drawn its first frame, and that frame looked at."""
    app = launch(folder)
    app.wait_for_line(r"^trace first-frame \d+$", timeout=30)
    os.kill(app.process.pid, signal.SIGSTOP)
    try:
        app.wait_for_window(None)
        first = app.screenshot()
    finally:
        os.kill(app.process.pid, signal.SIGCONT)
    accent = first.crop(app.content_area()).fraction_of(ACCENT, tolerance=40, step=2)
    assert accent < 0.001, f"the first frame shows a button in the accent colour ({accent:.2%} of the window)"
    expect_grid(app)
    assert app.quit() == 0
