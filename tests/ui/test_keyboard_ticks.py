"""Choosing several photos with the keyboard alone: arrow keys move the focus, Space ticks
the focused photo, in the picker's --multiple mode and in edit mode. (Arrow keys ticked the
photo they reached in GTK's own selection, so Space then unticked it: nothing chosen.)"""

import os
import time

from harness import open_folder, set_times, wait_for_still_screen

PHOTOS = {"a-red.png": "red", "b-green.png": "green", "c-blue.png": "blue",
          "d-yellow.png": "yellow", "e-magenta.png": "magenta"}


def finished(app, timeout: float = 30) -> tuple[int, bytes]:
    status = app.process.wait(timeout)
    for reader in app._readers:
        reader.join(5)
    return status, bytes(app.stdout_bytes)


def test_arrows_and_space_tick_photos_to_pick(launch, photo_folder):
    folder = photo_folder("keyboard-pick", PHOTOS)
    set_times(folder, list(PHOTOS))  # a-red newest: the order shown is the names'
    app = launch("--pick", "--multiple", folder)
    app.wait_for_window(r"^keyboard-pick$", timeout=30)
    app.wait_for_line(r"^trace dates-read 5 \d+$", timeout=30)
    app.wait_for_line(r"^trace visible-thumbnails \d+ \d+$", timeout=30)
    wait_for_still_screen(app, lambda image: (True, ""), what="the grid drawn")
    app.focus()
    # Red has the focus; green and yellow ticked by keys alone.
    for key in ["Right", "space", "Right", "Right", "space"]:
        app.key(key)
    app.key("Return")
    status, out = finished(app)
    assert (status, out) == (0, b"".join(os.fsencode(folder / n) + b"\n" for n in ["b-green.png", "d-yellow.png"]))


def test_arrows_and_space_tick_photos_in_edit_mode(launch, photo_folder):
    folder = photo_folder("keyboard-edit", PHOTOS)
    app = open_folder(launch, folder, count=5, sort_by="name")
    wait_for_still_screen(app, lambda image: (True, ""), what="the grid drawn")
    app.focus()
    # Edit mode by keys: everything selected, then nothing; the focus on red.
    # The keys reach the window in order: each is handled before the next.
    app.key("ctrl+a")
    app.key("ctrl+shift+a")
    for key in ["Right", "space", "Right", "Right", "space", "Left"]:
        app.key(key)
    app.key("Delete")
    trash = app.environment["XDG_DATA_HOME"] + "/Trash/files/"
    deadline = time.time() + 10
    while time.time() < deadline and not (os.path.exists(trash + "b-green.png") and os.path.exists(trash + "d-yellow.png")):
        time.sleep(0.1)
    assert sorted(os.listdir(trash)) == ["b-green.png", "d-yellow.png"]
    assert sorted(os.listdir(folder)) == ["a-red.png", "c-blue.png", "e-magenta.png"]
