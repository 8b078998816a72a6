"""A folder that cannot be shown gets a window with a clear message, not a blank grid."""

import os

import pytest

from harness import wait_for_screen


def shows_something(image):
    colours = image.distinct_colours()
    return colours >= 3, f"{colours} distinct colours in the window"


def test_a_missing_folder_says_so_and_exits_non_zero(launch, tmp_path):
    missing = tmp_path / "does-not-exist"
    app = launch(missing)
    app.wait_for_line(r"^gphotobrowse: .*does not exist")
    app.wait_for_window(r"^(Photo Browser|does-not-exist)$")
    g = app.geometry()
    assert g.width >= 300 and g.height >= 200, f"the window is only {g.width}x{g.height}"
    wait_for_screen(app, shows_something, what="a message (the window is blank)")
    rc = app.quit()
    assert rc > 0, f"exit status after Ctrl+Q is {rc}, expected non-zero for a missing folder"


@pytest.mark.normal_user
def test_an_unreadable_folder_says_so_and_exits_non_zero(launch, tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "photo.png").write_bytes(b"")
    locked.chmod(0)
    try:
        app = launch(locked)
        app.wait_for_line(r"^gphotobrowse: .*locked")
        app.wait_for_window(r"^(Photo Browser|locked)$")
        wait_for_screen(app, shows_something, what="a message (the window is blank)")
        rc = app.quit()
        assert rc > 0, f"exit status after Ctrl+Q is {rc}, expected non-zero for an unreadable folder"
    finally:
        locked.chmod(0o755)
