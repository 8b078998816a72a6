"""What a screen reader says: the app's accessible tree read over AT-SPI, as Orca reads it,
from the app's own session bus (at-spi2-core's bus launcher, started by D-Bus activation)."""

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from harness import COLOURS, open_folder, tiles_check, wait_for_screen

READER = Path(__file__).resolve().parent / "accessible_tree.py"
SPEAKING = {"GTK_A11Y": "atspi", "NO_AT_BRIDGE": "0"}


def have_atspi() -> bool:
    result = subprocess.run([sys.executable, "-c", "import gi; gi.require_version('Atspi', '2.0')"],
                            capture_output=True)
    return result.returncode == 0


pytestmark = pytest.mark.skipif(not have_atspi(), reason="needs gir1.2-atspi-2.0 (build-aux/install-deps.sh test)")


def tree(app) -> list[dict]:
    env = dict(app.environment)
    result = subprocess.run([sys.executable, READER, "gphotobrowse"], env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def nodes(entries):
    for entry in entries:
        yield entry
        yield from nodes(entry["children"])


def wait_for(app, what: str, check, timeout: float = 15):
    deadline = time.monotonic() + timeout
    while True:
        found = [n for n in nodes(tree(app)) if check(n)]
        if found:
            return found
        if time.monotonic() > deadline:
            entries = list(nodes(tree(app)))
            names = sorted({f"{n['role']}: {n['name']}" for n in entries if n["name"]})
            focus = [f"{n['role']}: {n['name']}" for n in entries if "focused" in n["states"]]
            raise AssertionError(f"no accessible {what} within {timeout} s; focused: {focus}; named objects:\n" + "\n".join(names))
        time.sleep(0.3)


def focused(app, timeout: float = 15) -> dict:
    return wait_for(app, "focused object", lambda n: "focused" in n["states"], timeout)[-1]


@pytest.fixture
def folder(photo_folder):
    return photo_folder("trip", {"1-red.png": "red", "2-green.png": "green", "3-blue.png": "blue"})


def test_icon_buttons_are_named_as_their_tooltips_say(launch, folder):
    app = open_folder(launch, folder, count=3, sort_by="name", extra_env=SPEAKING)
    buttons = {n["name"] for n in nodes(tree(app)) if n["role"] in ("push button", "toggle button")}
    for name in ("Open Folder…", "Select Photos", "Sort", "Main Menu"):
        assert name in buttons, f"no button named {name!r}: {sorted(buttons)}"
    assert not [b for b in buttons if b.startswith("Gtk")], f"buttons named after their widget type: {sorted(buttons)}"
    assert not [b for b in buttons if "_" in b], f"buttons named with their mnemonic's underscore: {sorted(buttons)}"
    doubled = [b for b in buttons if len(b) % 2 == 1 and b[:len(b) // 2] == b[len(b) // 2 + 1:]]
    assert not doubled, f"buttons named twice over: {doubled}"


def test_tiles_say_the_photo_and_whether_it_is_selected(launch, folder):
    app = open_folder(launch, folder, count=3, sort_by="name", extra_env=SPEAKING)
    cells = wait_for(app, "tiles", lambda n: n["role"] == "table cell" and n["name"].startswith(("1-red", "2-green", "3-blue")))
    assert sorted(c["name"].split(",")[0] for c in cells) == ["1-red.png", "2-green.png", "3-blue.png"]
    app.key("Right")
    assert focused(app)["name"].startswith("2-green.png"), "the focus is not on the second tile after Right"
    # Ctrl+A enters edit mode with every photo selected; each tile then says so.
    app.key("ctrl+a")
    wait_for(app, "selected tiles", lambda n: n["role"] == "table cell" and n["name"].endswith("selected")
             and "selected" in n["states"])


def test_the_viewer_says_the_photo_shown_and_the_focus_follows_a_page_turn(launch, folder):
    app = launch(folder / "1-red.png", extra_env=SPEAKING, sort_by="name")
    app.wait_for_window(r"^1-red\.png$")
    app.wait_for_line(r"^trace full-image 0 \d+$")
    assert focused(app)["name"] == "1-red.png, photo 1 of 3"
    app.key("Right")
    app.wait_for_title(r"2-green\.png")
    wait_for(app, "viewer on the second photo", lambda n: "focused" in n["states"] and n["name"] == "2-green.png, photo 2 of 3")
    buttons = {n["name"] for n in nodes(tree(app)) if n["role"] in ("push button", "toggle button")}
    for name in ("Previous Photo", "Next Photo", "Mark Up", "Properties"):
        assert name in buttons, f"no button named {name!r}: {sorted(buttons)}"


def test_after_a_delete_the_focus_is_on_a_photo_still_there(launch, folder):
    app = open_folder(launch, folder, count=3, sort_by="name", extra_env=SPEAKING)
    wanted = {c: COLOURS[c] for c in ("red", "green", "blue")}
    blobs = wait_for_screen(app, tiles_check(wanted), what="the three tiles").blobs(wanted)
    green = (round(blobs["green"].cx), round(blobs["green"].cy))
    app.ctrl_click(*green)
    wait_for(app, "the green tile selected", lambda n: n["name"].startswith("2-green.png") and "selected" in n["states"])
    app.key("Delete")
    deadline = time.monotonic() + 15
    while (folder / "2-green.png").exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not (folder / "2-green.png").exists(), "Delete did not move the photo to the trash"
    wait_for(app, "focus on a tile still there", lambda n: "focused" in n["states"] and n["role"] == "table cell"
             and n["name"].startswith(("1-red.png", "3-blue.png")))


def test_in_the_viewer_a_delete_leaves_the_focus_on_the_next_photo(launch, folder):
    app = launch(folder / "2-green.png", extra_env=SPEAKING, sort_by="name")
    app.wait_for_window(r"^2-green\.png$")
    app.wait_for_line(r"^trace full-image 1 \d+$")
    assert focused(app)["name"] == "2-green.png, photo 2 of 3"
    app.key("Delete")
    app.wait_for_title(r"3-blue\.png")
    assert not (folder / "2-green.png").exists()
    wait_for(app, "viewer on the next photo", lambda n: "focused" in n["states"] and n["name"] == "3-blue.png, photo 2 of 2")


def test_ctrl_question_lists_the_shortcuts_grouped_as_the_readme(launch, folder):
    app = open_folder(launch, folder, count=3, sort_by="name", extra_env=SPEAKING)
    app.key("ctrl+question")
    wanted = {"General", "Grid", "Edit Mode", "Viewer", "Drawing Board",
              "Open a folder", "Move to the trash", "Mark up the photo", "Clear the board", "Keyboard shortcuts"}
    found = wait_for(app, "shortcuts window", lambda n: n["name"] == "Mark up the photo")
    assert found
    labels = {n["name"] for n in nodes(tree(app))}
    assert wanted <= labels, f"the shortcuts window lacks {sorted(wanted - labels)}"
    windows = [app.x.window_name(w) for w in app.x.windows_of(app.process.pid)]
    assert "Keyboard Shortcuts" in windows, f"no window titled Keyboard Shortcuts: {windows}"
    app.key("Escape")


def test_a_not_found_tile_shows_its_name_cleaned(launch, photo_folder, tmp_path):
    """The name a Not Found tile shows comes from the album's file: cleaned as every name
    from outside is, its line break a space and its bidirectional isolate gone."""
    from your_albums import show_second_album, write_album
    folder = photo_folder("home-photos", {"d-yellow.png": "yellow"})
    elsewhere = photo_folder("lisbon", {"a-red.png": "red", "b-\u2067blue\nharbour.png": "blue"})
    data_home = tmp_path / "data"
    write_album(data_home, "Lisbon", [(elsewhere / name).as_uri() for name in ("a-red.png", "b-\u2067blue\nharbour.png")])
    (elsewhere / "b-\u2067blue\nharbour.png").unlink()
    app = open_folder(launch, folder, count=1, sort_by="name", extra_env={**SPEAKING, "XDG_DATA_HOME": str(data_home)})
    show_second_album(app, "Lisbon")
    labels = wait_for(app, "Not Found tile's name", lambda n: n["role"] == "label" and "harbour" in n["name"])
    assert [label["name"] for label in labels] == ["b-blue harbour.png"]
    assert app.quit() == 0
