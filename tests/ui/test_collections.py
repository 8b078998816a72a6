"""Albums of the person's own as a person uses them: photos selected in edit mode go to a new
album with Add to Album…, the album is in the switcher and survives a restart; a photo
deleted outside the app shows as not found and is removed from the album; a photo moved to
the trash leaves the album and comes back with Undo; the album is renamed, deleted and
brought back with Undo; the viewer adds its photo to a new album or to one of that title."""

import json
import time
from pathlib import Path

from harness import COLOURS, Deadline, Rect, close_to, open_folder, tiles_check, wait_for_screen

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


def start(launch, folder, data_home):
    return open_folder(launch, folder, count=6, sort_by="name", extra_env={"XDG_DATA_HOME": str(data_home)})


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


def test_an_album_made_from_a_selection_survives_a_restart(launch, photo_folder, tmp_path):
    folder = photo_folder("trip-photos", PHOTOS)
    data_home = tmp_path / "data"
    data_home.mkdir()
    app = start(launch, folder, data_home)
    shot = wait_for_screen(app, shows_only(list(COLOURS)), what="the six tiles")
    by_colour = tile_centres(shot, COLOURS)
    centres = {name: by_colour[colour] for name, colour in PHOTOS.items()}

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
    app.x.screenshot().save(app.log_path.with_name("add-to-album.png"))
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


def write_album(data_home: Path, title: str, uris: list[str], album_id: str = "0123456789abcdef") -> Path:
    """An album's document as the app writes it (a person may write one by hand, too)."""
    folder = albums_folder(data_home)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{album_id}.json"
    path.write_text(json.dumps({"version": 1, "title": title, "created": "2026-05-01T09:30:00.000000Z",
                                "modified": "2026-05-01T09:30:00.000000Z", "photos": uris}, indent=2))
    return path


def test_delete_with_undo_not_found_photos_and_the_trash(launch, photo_folder, tmp_path):
    folder = photo_folder("kyoto-photos", PHOTOS)
    data_home = tmp_path / "data"
    document = write_album(data_home, "Kyoto", [(folder / name).as_uri() for name in CHOSEN])
    (folder / "c-blue.png").unlink()  # deleted outside the app
    app = open_folder(launch, folder, count=5, sort_by="name", extra_env={"XDG_DATA_HOME": str(data_home)})
    show_second_album(app, "Kyoto")
    shot = wait_for_screen(app, shows_only(["red", "green"]), what="the album's two photos found")
    shot.save(app.log_path.with_name("not-found.png"))
    centres = tile_centres(shot, ["red", "green"])
    (red_x, _), (green_x, green_y) = centres["red"], centres["green"]
    missing_tile = (2 * green_x - red_x, green_y)
    # Once the grids' crossfade is over: a plain tile, not a photo, where the third one is.
    wait_for_screen(app, lambda image: (close_to(image.pixel(*missing_tile), (246, 246, 246), 12),
                                        f"{image.pixel(*missing_tile)} where the not-found tile is"),
                    what="a plain not-found tile")

    # Remove from Album, from the not-found tile's context menu (its sixth item here).
    app.click(*missing_tile, button=3)
    time.sleep(0.8)
    park_pointer(app)
    app.key(*["Down"] * 5, "Return")
    wait_for_albums(data_home, lambda docs: [d["photos"] for d in docs] == [[(folder / n).as_uri() for n in CHOSEN[:2]]],
                    "the album without the photo not found")
    wait_for_screen(app, lambda image: (close_to(image.pixel(*missing_tile), image.pixel(missing_tile[0], 600), 4),
                                        f"{image.pixel(*missing_tile)} where the not-found tile was"),
                    what="no tile where the not-found one was")

    # A photo moved to the trash leaves the album; Undo puts it back in its place.
    app.x.xdotool("keydown", "ctrl")
    app.click(*centres["red"])
    app.x.xdotool("keyup", "ctrl")
    time.sleep(0.3)
    app.key("Delete")
    wait_for_albums(data_home, lambda docs: [d["photos"] for d in docs] == [[(folder / "b-green.png").as_uri()]],
                    "the album without the trashed photo")
    assert not (folder / "a-red.png").exists()
    wait_for_screen(app, shows_only(["green"]), what="the album without the trashed photo")
    app.key("ctrl+z")
    wait_for_albums(data_home, lambda docs: [d["photos"] for d in docs] == [[(folder / n).as_uri() for n in CHOSEN[:2]]],
                    "the trashed photo back in the album, first")
    assert (folder / "a-red.png").exists()
    wait_for_screen(app, shows_only(["red", "green"]), what="the album with the photo back")
    app.key("Escape")

    # Rename Album…, the main menu's first item (F10) when an album of one's own is shown.
    app.key("F10")
    time.sleep(0.8)
    app.key("Return")
    dialog = wait_for_named_window(app, r"^Rename Album$")
    app.x.focus(dialog)
    app.x.key("ctrl+a")
    app.x.xdotool("type", "--delay", "30", "Kyoto 2024")
    time.sleep(0.3)
    app.x.key("Return")
    wait_for_albums(data_home, lambda docs: [d["title"] for d in docs] == ["Kyoto 2024"], "the album renamed")
    app.wait_for_title("Kyoto 2024")

    # Delete Album, the menu's second item; the window goes back to the folder; the toast's
    # Undo brings the album back.
    app.key("F10")
    time.sleep(0.8)
    app.key("Down", "Return")
    app.wait_for_title("kyoto-photos")
    assert not document.exists() and (albums_folder(data_home) / "deleted" / document.name).exists()
    park_pointer(app)
    click_toast_button(app)
    wait_for_albums(data_home, lambda docs: len(docs) == 1 and docs[0]["title"] == "Kyoto 2024", "the album back")
    app.wait_for_title("Kyoto 2024")
    wait_for_screen(app, shows_only(["red", "green"]), what="the album back with its photos")
    assert app.quit() == 0


def test_the_viewer_adds_its_photo_to_an_album(launch, photo_folder, tmp_path):
    folder = photo_folder("viewer-photos", {"a-red.png": "red", "b-green.png": "green"})
    data_home = tmp_path / "data"
    write_album(data_home, "Kyoto", [(folder / "a-red.png").as_uri()])
    app = open_folder(launch, folder, count=2, sort_by="name", extra_env={"XDG_DATA_HOME": str(data_home)})
    shot = wait_for_screen(app, shows_only(["red", "green"]), what="the two tiles")
    app.click(*tile_centres(shot, ["green"])["green"])
    app.wait_for_title("b-green.png")

    # Ctrl+D in the viewer; "Kyo" and Enter: a new album "Kyo", not "Kyoto" that matches it.
    app.key("ctrl+d")
    dialog = wait_for_named_window(app, r"^Add to Album$")
    app.x.focus(dialog)
    app.x.xdotool("type", "--delay", "30", "Kyo")
    time.sleep(0.3)
    app.x.key("Return")
    wait_for_albums(data_home, lambda docs: sorted((d["title"], tuple(d["photos"])) for d in docs) ==
                    [("Kyo", ((folder / "b-green.png").as_uri(),)), ("Kyoto", ((folder / "a-red.png").as_uri(),))],
                    "a new album “Kyo” with the photo shown")

    # Again, with the exact title of an album: the photo goes to that album.
    app.key("ctrl+d")
    dialog = wait_for_named_window(app, r"^Add to Album$")
    app.x.focus(dialog)
    app.x.xdotool("type", "--delay", "30", "Kyoto")
    time.sleep(0.3)
    app.x.key("Return")
    wait_for_albums(data_home, lambda docs: [d["photos"] for d in docs if d["title"] == "Kyoto"] ==
                    [[(folder / n).as_uri() for n in ("a-red.png", "b-green.png")]],
                    "the photo shown added to “Kyoto”")
    assert app.quit() == 0
