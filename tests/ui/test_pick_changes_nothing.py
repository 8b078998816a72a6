"""A window choosing photos for a script (`--pick`) changes nothing: in its preview, every key
that writes in a browser window (R then Ctrl+S, Delete, Shift+Delete, F2, Ctrl+D, Ctrl+E,
Ctrl+M, Ctrl+F8, Ctrl+T, Ctrl+period, Ctrl+4) does nothing, and Escape leaves with exit status 1. Checked on the disk: every
file byte for byte, nothing in the trash, no album, no new window."""

import os
from pathlib import Path

from harness import COLOURS, convert_tool, run, set_times, wait_for_screen

RED = COLOURS["red"]


def red_shape(wider: bool):
    """A screen check: the red photo shows in the viewer, wider than tall or taller than wide."""
    def check(image):
        blob = image.blobs({"red": RED}).get("red")
        if blob is None or blob.width < 150 or blob.height < 150:
            return False, f"red: {blob}"
        return (blob.width > blob.height * 1.3) if wider else (blob.height > blob.width * 1.3), f"red: {blob}"
    return check


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_a_picking_preview_writes_nothing_whatever_is_pressed(launch, tmp_path):
    folder = tmp_path / "choose-from"
    folder.mkdir()
    # JPEGs: the one format whose rotation a browser window saves (Ctrl+S).
    run([convert_tool(), "-size", "1600x800", "xc:red", "-quality", "90", str(folder / "a-wide.jpg")])
    run([convert_tool(), "-size", "800x800", "xc:blue", "-quality", "90", str(folder / "b-square.jpg")])
    set_times(folder, ["a-wide.jpg", "b-square.jpg"])
    before = snapshot(folder)

    app = launch("--pick", folder)
    app.wait_for_line(r"^trace enumerated 2 \d+$", timeout=30)
    app.wait_for_window(r"^choose-from$", timeout=30)
    app.wait_for_line(r"^trace dates-read 2 \d+$", timeout=30)
    app.wait_for_line(r"^trace visible-thumbnails \d+ \d+$", timeout=30)
    area = app.content_area()
    grid = wait_for_screen(app, lambda image: ("red" in image.crop(area).blobs({"red": RED}), "no red tile"),
                           what="the red photo's tile")
    tile = grid.crop(area).blobs({"red": RED})["red"]
    # A click previews in a picking window.
    mark = app.mark()
    app.click(area.x + round(tile.cx), area.y + round(tile.cy))
    app.wait_for_line(r"^trace page 0 \d+$", since=mark)
    app.wait_for_title("a-wide.jpg")
    wait_for_screen(app, red_shape(wider=True), what="the wide red photo previewed")

    app.key("r")
    # The view turns (a view setting, allowed): the key reached the preview.
    wait_for_screen(app, red_shape(wider=False), what="the preview turned a quarter")
    for key in ["ctrl+s", "Delete", "shift+Delete", "F2", "ctrl+d", "ctrl+e", "ctrl+m", "ctrl+F8", "ctrl+t", "ctrl+period", "ctrl+4"]:
        app.key(key)
    # Escape goes back to the grid, after every key above was handled, in order.
    app.key("Escape")
    app.wait_for_title("choose-from")
    app.key("Escape")
    status = app.process.wait(30)
    for reader in app._readers:
        reader.join(5)

    assert status == 1, f"exit status {status}"
    assert bytes(app.stdout_bytes) == b""
    assert snapshot(folder) == before, "a file in the folder changed"
    trash = Path(app.environment["XDG_DATA_HOME"]) / "Trash"
    assert not trash.exists() or not any(trash.rglob("*.jpg")), f"something went to the trash: {list(trash.rglob('*'))}"
    albums = Path(app.environment["XDG_DATA_HOME"]) / "gphotobrowse" / "albums"
    assert not albums.exists() or not any(albums.iterdir()), "an album was made"
    for line in ("rotation-saved", "renamed", "toast", "board-ready", "saved"):
        assert not app.lines_matching(rf"^trace {line} "), f"trace {line}: {app.tail()}"
    assert sorted(os.listdir(folder)) == sorted(before), "a file was added or renamed"
