"""Photos of an album of one's own that another program moves or deletes while the album is
shown: the tile turns "Not Found" at once, with no key pressed, and back into the photo when
the file comes back; activating a Not Found tile opens no viewer but says what happened and
offers Remove from Album, which Ctrl+Z takes back.

The album's photos are in a folder of their own, not the one the app opened: nothing but the
album's following of its photos' folders can notice their changes."""

from harness import close_to, open_folder, wait_for_screen
from your_albums import park_pointer, show_second_album, shows_only, tile_centres, wait_for_albums, write_album

FOLDER_PHOTOS = {"d-yellow.png": "yellow", "e-magenta.png": "magenta", "f-cyan.png": "cyan"}
ALBUM_PHOTOS = {"a-red.png": "red", "b-green.png": "green", "c-blue.png": "blue"}
# A Not Found tile: no photo, a plain light patch at its centre (between its sign and name).
NOT_FOUND_TILE = (246, 246, 246)
# libadwaita's accent colour: the suggested button of the Not Found popover.
ACCENT = (53, 132, 228)


def open_album(launch, photo_folder, tmp_path, title: str, missing: tuple[str, ...] = ()):
    """The app on a folder of its own photos, showing an album of the photos in `lisbon/`
    (`missing` deleted before it starts)."""
    folder = photo_folder("home-photos", FOLDER_PHOTOS)
    elsewhere = photo_folder("lisbon", ALBUM_PHOTOS)
    data_home = tmp_path / "data"
    write_album(data_home, title, [(elsewhere / name).as_uri() for name in ALBUM_PHOTOS])
    for name in missing:
        (elsewhere / name).unlink()
    app = open_folder(launch, folder, count=3, sort_by="name", extra_env={"XDG_DATA_HOME": str(data_home)})
    show_second_album(app, title)
    return app, elsewhere, data_home


def not_found_at(point, others: list[str]):
    """A wait_for_screen check: the tiles of `others`, and a Not Found tile at `point`."""
    tiles = shows_only(others)

    def check(image):
        ok, detail = tiles(image)
        pixel = image.pixel(*point)
        return ok and close_to(pixel, NOT_FOUND_TILE, 12), f"{detail}; {pixel} where the Not Found tile should be"

    return check


def test_an_album_shown_follows_its_photos_deleted_moved_and_put_back(launch, photo_folder, tmp_path):
    app, elsewhere, _ = open_album(launch, photo_folder, tmp_path, "Lisbon")
    shot = wait_for_screen(app, shows_only(["red", "green", "blue"]), what="the album's three photos")
    centres = tile_centres(shot, ["red", "green", "blue"])

    # Deleted by another program: Not Found, without a key pressed or the album shown again.
    blue = elsewhere / "c-blue.png"
    kept = blue.read_bytes()
    blue.unlink()
    wait_for_screen(app, not_found_at(centres["blue"], ["red", "green"]), what="a Not Found tile for the deleted photo")
    app.screenshot().save(app.log_path.with_name("not-found-followed.png"))
    # Put back: the photo again.
    blue.write_bytes(kept)
    wait_for_screen(app, shows_only(["red", "green", "blue"]), what="the photo put back, shown again")

    # Moved to another folder, then moved back (a file manager's Undo).
    green = elsewhere / "b-green.png"
    aside = tmp_path / "b-green.png"
    green.rename(aside)
    wait_for_screen(app, not_found_at(centres["green"], ["red", "blue"]), what="a Not Found tile for the moved photo")
    aside.rename(green)
    wait_for_screen(app, shows_only(["red", "green", "blue"]), what="the photo moved back, shown again")

    # Its folder moved away and back: all of its photos go and come back.
    away = tmp_path / "lisbon-away"
    elsewhere.rename(away)
    wait_for_screen(app, lambda image: (not below_header_colours(image), f"photos still shown: {below_header_colours(image)}"),
                    what="no photo once their folder is gone", timeout=15)
    away.rename(elsewhere)
    wait_for_screen(app, shows_only(["red", "green", "blue"]), what="the photos back with their folder", timeout=15)
    assert app.quit() == 0


def below_header_colours(image) -> list[str]:
    return sorted(tile_centres(image, ["red", "green", "blue"]))


def accent_button(image):
    """The Not Found popover's Remove from Album button (the suggested action, in the accent
    colour), as (centre, detail)."""
    blob = image.blobs({"accent": ACCENT}, tolerance=30).get("accent")
    if blob is None or blob.width < 60 or blob.height < 20:
        return None, f"no accent-coloured button ({blob})"
    return (round(blob.cx), round(blob.cy)), f"button at {blob}"


def shows_button(image):
    centre, detail = accent_button(image)
    return centre is not None, detail


def test_a_not_found_photo_opens_no_viewer_and_offers_to_leave_the_album(launch, photo_folder, tmp_path):
    app, elsewhere, data_home = open_album(launch, photo_folder, tmp_path, "Porto", missing=("c-blue.png",))
    shot = wait_for_screen(app, shows_only(["red", "green"]), what="the album's two photos found")
    centres = tile_centres(shot, ["red", "green"])
    (red_x, _), (green_x, green_y) = centres["red"], centres["green"]
    missing_tile = (2 * green_x - red_x, green_y)
    wait_for_screen(app, not_found_at(missing_tile, ["red", "green"]), what="a Not Found tile")

    # A double click: no viewer, but a popover saying what happened, with Remove from Album.
    mark = app.mark()
    app.focus()
    app.x.click(app.geometry().x + missing_tile[0], app.geometry().y + missing_tile[1], repeat=2)
    shot = wait_for_screen(app, shows_button, what="the Remove from Album button")
    shot.save(app.log_path.with_name("not-found-popover.png"))
    app.key("Escape")
    wait_for_screen(app, lambda image: (accent_button(image)[0] is None, "the popover still shows"),
                    what="the popover closed by Escape")
    # A single click, the same.
    app.click(*missing_tile)
    shot = wait_for_screen(app, shows_button, what="the Remove from Album button")
    assert app.title() == "Porto", f"the window is titled {app.title()!r}, not the album's"
    assert not app.lines_matching(r"^trace page \d+ \d+$", since=mark), "the viewer opened on a photo not found"

    # Remove from Album takes it out of the album; Ctrl+Z puts it back.
    button, _ = accent_button(shot)
    app.click(*button)
    wait_for_albums(data_home, lambda docs: [d["photos"] for d in docs] == [[(elsewhere / n).as_uri() for n in ("a-red.png", "b-green.png")]],
                    "the album without the photo not found")
    park_pointer(app)
    wait_for_screen(app, lambda image: (close_to(image.pixel(*missing_tile), image.pixel(missing_tile[0], 600), 4),
                                        f"{image.pixel(*missing_tile)} where the Not Found tile was"),
                    what="no tile where the Not Found one was")
    app.key("ctrl+z")
    wait_for_albums(data_home, lambda docs: [d["photos"] for d in docs] == [[(elsewhere / n).as_uri() for n in ALBUM_PHOTOS]],
                    "the photo back in the album")
    wait_for_screen(app, not_found_at(missing_tile, ["red", "green"]), what="the Not Found tile back")
    assert not app.lines_matching(r"^trace page \d+ \d+$", since=mark), "the viewer opened on a photo not found"
    assert app.quit() == 0
