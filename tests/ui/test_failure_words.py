"""A file that cannot be shown is said in a person's words: "Not a photo: the file is a text
file.", not "plain text document (text/plain)"; a JPEG whose data a loader refuses is
"damaged, or is no photo", not "Improper call to JPEG library in state 201". A broken tile
stands out from the grid, and its broken-image sign from the tile, in the light and the dark style."""

import pytest

from harness import wait_for_screen
from test_decoder_processes import failure_record


def test_failures_are_said_in_words_and_broken_tiles_are_readable(launch, tmp_path):
    folder = tmp_path / "words"
    folder.mkdir()
    (folder / "a-notes.jpg").write_text("shopping list\n")
    # A JPEG's first bytes, then nothing libjpeg can read.
    (folder / "b-broken.jpg").write_bytes(b"\xff\xd8\xff\xe0" + bytes(range(256)) * 64)
    app = launch(folder, sort_by="name")
    app.wait_for_line(r"^trace enumerated 2 \d+$", timeout=30)
    app.wait_for_window(r"^words$", timeout=30)
    for index in (0, 1):
        app.wait_for_line(rf"^trace tile-failed {index} \d+$", timeout=30)

    notes = failure_record(app, folder / "a-notes.jpg").read_bytes()
    assert b"Not a photo: the file is a text file." in notes, notes[-300:]
    assert b"text/plain" not in notes and b"document" not in notes, notes[-300:]
    broken = failure_record(app, folder / "b-broken.jpg").read_bytes()
    assert b"The file is damaged, or is no photo this computer can read." in broken, broken[-300:]
    assert b"JPEG library" not in broken, broken[-300:]

    def broken_tiles_stand_out(image):
        area = app.content_area()
        # Inside the first tile (top left of the grid), and the grid's background beside it.
        tile = image.pixel(area.x + 25, area.y + 25)
        grid = image.pixel(area.x + area.width // 2, area.y + area.height // 2)
        step = min(grid) - max(tile)
        return step >= 15, f"the broken tile {tile} on the grid's {grid}: {step} levels apart"

    wait_for_screen(app, broken_tiles_stand_out, what="broken tiles that stand out from the grid")


@pytest.mark.parametrize("style", ["prefer-light", "prefer-dark"])
def test_the_broken_image_sign_is_clearly_visible_in_the_light_and_dark_style(launch, tmp_path, style):
    folder = tmp_path / "broken"
    folder.mkdir()
    (folder / "broken.jpg").write_bytes(b"\xff\xd8\xff\xe0" + bytes(range(256)) * 64)
    app = launch(folder, extra_env={"ADW_DEBUG_COLOR_SCHEME": style})
    app.wait_for_line(r"^trace tile-failed 0 \d+$", timeout=30)
    app.wait_for_window(r"^broken$", timeout=30)
    area = app.content_area()

    def sign_stands_out(image):
        # The tile (top left of the grid) and its sign in the middle: the sign's strongest
        # pixels against the tile's own colour beside them.
        tile = image.pixel(area.x + 25, area.y + 25)
        sign = [image.pixel(x, y) for x in range(area.x + 40, area.x + 150) for y in range(area.y + 40, area.y + 150)]
        if not any(p != tile for p in sign):
            return False, "no sign on the broken tile"
        step = max(max(abs(a - b) for a, b in zip(p, tile)) for p in sign)
        return step >= 100, f"the sign's strongest pixel is {step} levels from the tile's {tile}"

    wait_for_screen(app, sign_stands_out, what="a broken-image sign that stands out from its tile")
    assert app.quit() == 0
