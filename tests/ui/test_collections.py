"""Albums of the person's own as a person uses them: photos selected in edit mode go to a new
album with Add to Album…, the album is in the switcher and survives a restart; a photo
deleted outside the app shows as not found and is removed from the album; a photo moved to
the trash leaves the album and comes back with Undo; the album is renamed, deleted and
brought back with Undo; the viewer adds its photo to a new album or to one of that title."""

from harness import COLOURS, close_to, open_folder, wait_for_screen
from your_albums import (albums_folder, click_toast_button, park_pointer, show_second_album, shows_only, tile_centres,
                         wait_for_albums, wait_for_named_window, write_album)

PHOTOS = {"a-red.png": "red", "b-green.png": "green", "c-blue.png": "blue",
          "d-yellow.png": "yellow", "e-magenta.png": "magenta", "f-cyan.png": "cyan"}
CHOSEN = ["a-red.png", "b-green.png", "c-blue.png"]


def start(launch, folder, data_home):
    return open_folder(launch, folder, count=6, sort_by="name", extra_env={"XDG_DATA_HOME": str(data_home)})


def test_an_album_made_from_a_selection_survives_a_restart(launch, photo_folder, tmp_path):
    folder = photo_folder("trip-photos", PHOTOS)
    data_home = tmp_path / "data"
    data_home.mkdir()
    app = start(launch, folder, data_home)
    shot = wait_for_screen(app, shows_only(list(COLOURS)), what="the six tiles")
    by_colour = tile_centres(shot, COLOURS)
    centres = {name: by_colour[colour] for name, colour in PHOTOS.items()}

    # Ctrl+click enters edit mode with red selected; clicks add green and blue.
    app.ctrl_click(*centres["a-red.png"])
    app.click(*centres["b-green.png"])
    app.click(*centres["c-blue.png"])

    # Add to Album… (Ctrl+D), a new album named in its field.
    app.key("ctrl+d")
    dialog = wait_for_named_window(app, r"^Add to Album$")
    app.x.focus(dialog)
    app.x.xdotool("type", "--delay", "30", "Trip")
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

    # Remove from Album, from the not-found tile's context menu: the one item enabled for a
    # photo whose file is gone, so the one the menu's focus starts on.
    app.until_shown(lambda: app.click(*missing_tile, button=3), "GtkPopoverMenu context-menu")
    park_pointer(app)
    app.key("Return")
    wait_for_albums(data_home, lambda docs: [d["photos"] for d in docs] == [[(folder / n).as_uri() for n in CHOSEN[:2]]],
                    "the album without the photo not found")
    wait_for_screen(app, lambda image: (close_to(image.pixel(*missing_tile), image.pixel(missing_tile[0], 600), 4),
                                        f"{image.pixel(*missing_tile)} where the not-found tile was"),
                    what="no tile where the not-found one was")

    # A photo moved to the trash leaves the album; Undo puts it back in its place.
    app.ctrl_click(*centres["red"])
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
    app.until_shown(lambda: app.key("F10"), "GtkPopoverMenu")
    app.key("Return")
    dialog = wait_for_named_window(app, r"^Rename Album$")
    app.x.focus(dialog)
    app.x.key("ctrl+a")
    app.x.xdotool("type", "--delay", "30", "Kyoto 2024")
    app.x.key("Return")
    wait_for_albums(data_home, lambda docs: [d["title"] for d in docs] == ["Kyoto 2024"], "the album renamed")
    app.wait_for_title("Kyoto 2024")

    # Delete Album, the menu's second item; the window goes back to the folder; the toast's
    # Undo brings the album back.
    app.until_shown(lambda: app.key("F10"), "GtkPopoverMenu")
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
    app.x.key("Return")
    wait_for_albums(data_home, lambda docs: sorted((d["title"], tuple(d["photos"])) for d in docs) ==
                    [("Kyo", ((folder / "b-green.png").as_uri(),)), ("Kyoto", ((folder / "a-red.png").as_uri(),))],
                    "a new album “Kyo” with the photo shown")

    # Again, with the exact title of an album: the photo goes to that album.
    app.key("ctrl+d")
    dialog = wait_for_named_window(app, r"^Add to Album$")
    app.x.focus(dialog)
    app.x.xdotool("type", "--delay", "30", "Kyoto")
    app.x.key("Return")
    wait_for_albums(data_home, lambda docs: [d["photos"] for d in docs if d["title"] == "Kyoto"] ==
                    [[(folder / n).as_uri() for n in ("a-red.png", "b-green.png")]],
                    "the photo shown added to “Kyoto”")
    assert app.quit() == 0
