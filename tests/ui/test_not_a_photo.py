"""A path to a file that is not a photo is said to be one (a page, a message, a non-zero
exit status), instead of opening its folder as if the file were not there; a folder whose
photos are all in subfolders shows its albums, not "No Photos"."""

from harness import COLOURS, make_solid, wait_for_screen
from test_albums import open_tree, wait_for_switcher


def shows_a_page(image):
    colours = image.distinct_colours()
    return colours >= 3, f"{colours} distinct colours in the window"


def no_photo_tiles(image):
    blobs = image.blobs({"red": COLOURS["red"], "blue": COLOURS["blue"]})
    return not blobs, f"photo tiles shown: {sorted(blobs)}"


def folder_with_albums_only(tmp_path):
    root = tmp_path / "holiday"
    make_solid(root / "beach" / "a.png", "red")
    make_solid(root / "hills" / "b.png", "blue")
    (root / "notes.txt").write_text("not a photo\n")
    (root / "README").write_text("no extension, and not a photo either\n")
    return root


def test_a_text_file_is_said_not_to_be_a_photo(launch, tmp_path):
    root = folder_with_albums_only(tmp_path)
    for name in ("notes.txt", "README"):
        app = launch(root / name)
        # The name isolated as text from outside (U+2068…U+2069).
        app.wait_for_line(rf"^gphotobrowse: “\u2068?{name}\u2069?” is not a photo", timeout=30)
        app.wait_for_window(None, timeout=30)
        image = wait_for_screen(app, shows_a_page, what="a page saying why")
        # Its folder is not opened in its place: no listing, none of its photos.
        assert not app.lines_matching(r"^trace enumerated "), "the file's folder was opened"
        assert no_photo_tiles(image)[0], no_photo_tiles(image)[1]
        assert app.quit() == 1, "what the command line named could not be shown: exit status 1"


def test_a_folder_whose_photos_are_all_in_subfolders_shows_its_albums(launch, tmp_path):
    root = folder_with_albums_only(tmp_path)
    app = open_tree(launch, root, albums=2)
    wait_for_switcher(app, [2, 1, 1])  # All Photos, then each album
    app.wait_for_line(r"^trace enumerated 2 \d+$", timeout=30)
    wait_for_screen(app, lambda image: (set(image.blobs({"red": COLOURS["red"], "blue": COLOURS["blue"]})) == {"red", "blue"},
                                        "both albums' photos"), what="every photo of the albums")
    assert app.quit() == 0
