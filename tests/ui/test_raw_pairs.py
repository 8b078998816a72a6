"""A camera's RAW+JPEG pair (IMG_0042.RAF beside IMG_0042.JPG) is one photo: one tile, the
JPEG's, with a "RAW" badge; moving it to the trash takes both files, and Undo brings both
back."""

import os
import shutil

from harness import COLOURS, REPO, make_solid, open_folder, wait_for_screen, wait_moved_to_trash, wait_put_back

DATA = REPO / "tests" / "data" / "formats"
TILES = {"red": COLOURS["red"], "green": COLOURS["green"]}


def badge_pixels(image, blob) -> int:
    """White pixels (the badge's letters) in the top right corner of a tile, inside its
    rounded corner (the grid's white background is outside)."""
    count = 0
    for y in range(blob.top + 6, min(blob.top + 34, blob.bottom)):
        for x in range(max(blob.left, blob.right - 70), blob.right - 6):
            r, g, b = image.pixel(x, y)
            if r > 200 and g > 200 and b > 200:
                count += 1
    return count


def badges_check(image):
    blobs = image.blobs(TILES)
    if set(blobs) != set(TILES) or any(b.width < 80 or b.height < 80 for b in blobs.values()):
        return False, f"two tiles expected, found {blobs}"
    red, green = badge_pixels(image, blobs["red"]), badge_pixels(image, blobs["green"])
    return red >= 8 and green == 0, f"badge pixels: red tile {red}, green tile {green}"


def test_a_raw_beside_its_jpeg_is_one_tile_with_a_badge_and_trashed_and_restored_with_it(launch, tmp_path):
    folder = tmp_path / "card"
    folder.mkdir()
    make_solid(folder / "IMG_0042.JPG", "red", size="1600x1200")
    shutil.copy(DATA / "fujifilm-s5pro-rotated.raf", folder / "IMG_0042.RAF")
    make_solid(folder / "IMG_0043.png", "green", size="1600x1200")
    originals = {p.name: p.read_bytes() for p in folder.iterdir()}
    os.utime(folder)                    # modified as the app starts: read again once followed

    # Two photos, not three: the RAF goes with its JPEG, whose tile has the badge.
    app = open_folder(launch, folder, count=2, sort_by="name")
    image = wait_for_screen(app, badges_check, what="the JPEG's tile with a RAW badge, the PNG's without")
    # Read again, the folder is as the tree holds it: the RAF shown with its JPEG is no new file.
    app.wait_for_line(r"^trace folder-reread 0 0 0 \d+$")
    red = image.blobs(TILES)["red"]

    app.ctrl_click(red.cx, red.cy)
    app.key("Delete")

    pair = {name: originals[name] for name in ("IMG_0042.JPG", "IMG_0042.RAF")}
    wait_moved_to_trash(app, folder, pair, "both files of the pair")
    assert (folder / "IMG_0043.png").exists(), "the photo not selected went too"
    wait_for_screen(app, lambda image: ("red" not in image.blobs(TILES), "the pair's tile is still shown"),
                    what="the grid without the pair")

    app.key("ctrl+z")
    wait_put_back(app, folder, pair, "both files of the pair")
    wait_for_screen(app, badges_check, what="the pair's tile back, with its badge")
    assert app.quit() == 0
