"""Albums of the person's own as a person uses them: photos selected in edit mode go to a new
album with Add to Album…, the album is in the switcher and survives a restart, it is deleted
and brought back with Undo, and a photo deleted outside the app shows as not found and can
be removed from the album."""

import json
import time
from pathlib import Path

from harness import COLOURS, Deadline, open_folder, tiles_check, wait_for_screen

PHOTOS = {"a-red.png": "red", "b-green.png": "green", "c-blue.png": "blue",
          "d-yellow.png": "yellow", "e-magenta.png": "magenta", "f-cyan.png": "cyan"}
CHOSEN = ["a-red.png", "b-green.png", "c-blue.png"]


def albums_folder(data_home: Path) -> Path:
    return data_home / "gphotobrowse" / "albums"


def album_documents(data_home: Path) -> list[dict]:
    folder = albums_folder(data_home)
    if not folder.is_dir():
        return []
    return [json.loads(path.read_text()) for path in sorted(folder.glob("*.json"))]


def wait_for_albums(data_home: Path, check, what: str, timeout: float = 10) -> list[dict]:
    deadline = Deadline(timeout)
    while True:
        documents = album_documents(data_home)
        if check(documents):
            return documents
        if deadline.expired():
            raise AssertionError(f"the albums folder does not hold {what} within {timeout} s: {documents}")
        time.sleep(0.1)


def wait_for_named_window(app, pattern, timeout=10):
    deadline = Deadline(timeout)
    while True:
        found = app.x.windows_named(pattern)
        if found:
            return found[0]
        if deadline.expired():
            raise AssertionError(f"no window named /{pattern}/ within {timeout} s")
        time.sleep(0.1)


def shows_only(colours: list[str]):
    """A wait_for_screen check: these photos' tiles, and none of the other photos'."""
    shown = tiles_check({c: COLOURS[c] for c in colours})
    others = {c: rgb for c, rgb in COLOURS.items() if c not in colours}

    def check(image):
        ok, detail = shown(image)
        extra = sorted(image.blobs(others))
        if extra:
            return False, f"{detail}; tiles of {extra} shown too"
        return ok, detail

    return check


def start(launch, folder, data_home):
    return open_folder(launch, folder, count=6, sort_by="name", extra_env={"XDG_DATA_HOME": str(data_home)})


def show_second_album(app, title):
    """Alt+2: the folder's photos are the first album in the switcher, the person's own next."""
    app.key("alt+2")
    app.wait_for_title(title)


def click_toast_button(app):
    """Clicks the button at the right end of the toast at the bottom of the window."""
    def find(image):
        y0 = image.height - 120
        for y in range(image.height - 20, y0, -2):
            dark = [x for x in range(0, image.width, 2) if max(image.pixel(x, y)) < 90]
            if len(dark) > 100:
                return (max(dark) - 40, y), f"toast row {y}"
        return None, "no toast"
    deadline = Deadline(5)
    while True:
        found, detail = find(app.screenshot())
        if found:
            app.click(*found)
            return
        if deadline.expired():
            raise AssertionError(f"no toast within 5 s: {detail}")
        time.sleep(0.1)


def test_an_album_made_from_a_selection_survives_a_restart(launch, photo_folder, tmp_path):
    folder = photo_folder("trip-photos", PHOTOS)
    data_home = tmp_path / "data"
    data_home.mkdir()
    app = start(launch, folder, data_home)
    blobs = wait_for_screen(app, tiles_check(COLOURS), what="the six tiles").blobs(COLOURS)
    centres = {name: (round(blobs[colour].cx), round(blobs[colour].cy)) for name, colour in PHOTOS.items()}

    # Ctrl+click enters edit mode with red selected; clicks add green and blue.
    app.x.xdotool("keydown", "ctrl")
    app.click(*centres["a-red.png"])
    app.x.xdotool("keyup", "ctrl")
    app.click(*centres["b-green.png"])
    app.click(*centres["c-blue.png"])
    time.sleep(0.3)

    # Add to Album… (Ctrl+D), a new album named in its field.
    app.key("ctrl+d")
    dialog = wait_for_named_window(app, r"^Add to Album$")
    app.x.focus(dialog)
    app.x.xdotool("type", "--delay", "30", "Trip")
    time.sleep(0.3)
    app.x.key("Return")
    documents = wait_for_albums(data_home, lambda docs: len(docs) == 1 and len(docs[0]["photos"]) == 3,
                                "one album of three photos")
    assert documents[0]["title"] == "Trip"
    assert documents[0]["photos"] == [(folder / name).as_uri() for name in CHOSEN]
    assert not app.x.windows_named(r"^Add to Album$"), "the dialog is still open"

    # The switcher lists it: Alt+2 shows it, with the three photos only.
    app.key("Escape")
    show_second_album(app, "Trip")
    wait_for_screen(app, shows_only(["red", "green", "blue"]), what="the album's three photos")
    app.screenshot().save(app.log_path.with_name("album.png"))
    assert app.quit() == 0

    # After a restart it is there, with the same photos.
    app = start(launch, folder, data_home)
    show_second_album(app, "Trip")
    wait_for_screen(app, shows_only(["red", "green", "blue"]), what="the album's three photos after a restart")
    assert app.quit() == 0
