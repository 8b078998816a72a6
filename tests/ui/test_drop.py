"""Dropping a folder or photos on the window, with a real XDND drag from another X client."""

import re
import sys
from pathlib import Path

import pytest

from harness import COLOURS, open_folder, photo_fills_view_check, tiles_check, wait_for_screen

DRAG_SOURCE = Path(__file__).resolve().parent / "drag_source.py"


@pytest.fixture
def folders(photo_folder):
    first = photo_folder("first-folder", {"1-red.png": "red", "2-green.png": "green"})
    dropped = photo_folder("dropped-folder", {"1-blue.png": "blue", "2-yellow.png": "yellow",
                                              "3-magenta.png": "magenta"})
    return first, dropped


def drag_onto(app, spawn, xserver, *paths):
    """Starts a drag source offering `paths` (or URIs, as strings), as a file manager or a
    web browser offers them, then drags from it onto the app's window."""
    source = spawn([sys.executable, DRAG_SOURCE, "Drag source", *(p if isinstance(p, str) else p.as_uri() for p in paths)])
    source.wait_for_line(r"^ready$")
    source.wait_for_window(r"^Drag source$")
    xserver.move_window(source.window, 1400, 300)
    target = app.geometry()
    xserver.drag(source.geometry().centre, (target.x + target.width // 2, target.y + target.height // 2))
    source.wait_for_line(r"^drag-(end|cancel)", timeout=10)
    return source


def test_dropping_a_folder_opens_it(launch, spawn, xserver, folders):
    first, dropped = folders
    app = open_folder(launch, first, count=2)
    mark = app.mark()
    drag_onto(app, spawn, xserver, dropped)
    app.wait_for_title(re.escape(dropped.name))
    app.wait_for_line(r"^trace enumerated 3 \d+$", since=mark)
    wanted = {k: COLOURS[k] for k in ("blue", "yellow", "magenta")}
    shot = wait_for_screen(app, tiles_check(wanted), what="the dropped folder's tiles")
    assert "red" not in shot.blobs({"red": COLOURS["red"]}), "the first folder's red tile is still shown"


def test_dropping_a_photo_opens_the_viewer_at_it(launch, spawn, xserver, folders):
    first, dropped = folders
    app = open_folder(launch, first, count=2)
    mark = app.mark()
    drag_onto(app, spawn, xserver, dropped / "2-yellow.png", dropped / "3-magenta.png")
    app.wait_for_title(r"2-yellow\.png")
    app.wait_for_line(r"^trace full-image 1 \d+$", since=mark)
    wait_for_screen(app, photo_fills_view_check(COLOURS["yellow"], "yellow"), what="the yellow photo")
