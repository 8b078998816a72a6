"""What the tests of the person's own albums share: their documents on disk, the grid's
tiles by colour, the switcher, toasts."""

import json
import time
from pathlib import Path

from harness import COLOURS, Deadline, Rect, close_to, tiles_check


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


HEADER = 60  # the header bar's height at most: the switcher's covers are photos too


def below_header(image):
    return image.crop(Rect(0, HEADER, image.width, image.height - HEADER))


def tile_centres(image, colours) -> dict[str, tuple[int, int]]:
    """Where the tiles of these colours are, in window coordinates."""
    blobs = below_header(image).blobs({c: COLOURS[c] for c in colours})
    return {c: (round(blob.cx), round(blob.cy) + HEADER) for c, blob in blobs.items()}


def shows_only(colours: list[str]):
    """A wait_for_screen check: these photos' tiles, and none of the other photos', in the grid."""
    shown = tiles_check({c: COLOURS[c] for c in colours})
    others = {c: rgb for c, rgb in COLOURS.items() if c not in colours}

    def check(image):
        image = below_header(image)
        ok, detail = shown(image)
        extra = sorted(image.blobs(others))
        if extra:
            return False, f"{detail}; tiles of {extra} shown too"
        return ok, detail

    return check


def show_second_album(app, title):
    """Alt+2: the folder's photos are the first album in the switcher, the person's own next."""
    app.key("alt+2")
    app.wait_for_title(title)
    park_pointer(app)


def park_pointer(app):
    """Moves the pointer to the window's bottom right corner, where no tooltip covers a tile."""
    g = app.geometry()
    app.x.mouse_move(g.x + g.width - 8, g.y + g.height - 8)


def click_toast_button(app):
    """Clicks the toast's button (Undo): the toast is a dark pill at the bottom of the window,
    its button a lighter patch left of its close button."""
    def find(image):
        for y in range(image.height - 20, image.height - 120, -1):
            dark = [x for x in range(image.width) if max(image.pixel(x, y)) < 90]
            if len(dark) < 200:
                continue
            left, right = min(dark), max(dark)
            background = image.pixel(left + 6, y)
            button = [x for x in range(left + 6, right - 34) if not close_to(image.pixel(x, y), background, 12)
                      and max(image.pixel(x, y)) < 140]
            if button:
                # The button's own background, right of its label: its rightmost run.
                end = max(button)
                start = end
                while start - 1 in button:
                    start -= 1
                return ((start + end) // 2, y), f"toast row {y}, button {start}..{end}"
        return None, "no toast"
    # The toast slides in: click once two looks a moment apart find the button in one place.
    deadline = Deadline(10)
    last = None
    while True:
        found, detail = find(app.screenshot())
        if found and found == last:
            app.click(*found)
            return
        last = found
        if deadline.expired():
            raise AssertionError(f"no toast at rest within 10 s: {detail}")
        time.sleep(0.25)


def write_album(data_home: Path, title: str, uris: list[str], album_id: str = "0123456789abcdef") -> Path:
    """An album's document as the app writes it (a person may write one by hand, too)."""
    folder = albums_folder(data_home)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{album_id}.json"
    path.write_text(json.dumps({"version": 1, "title": title, "created": "2026-05-01T09:30:00.000000Z",
                                "modified": "2026-05-01T09:30:00.000000Z", "photos": uris}, indent=2))
    return path
