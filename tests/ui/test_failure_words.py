"""A file that cannot be shown is said in a person's words: "Not a photo: the file is a text
file.", not "plain text document (text/plain)"; a JPEG whose data a loader refuses is
"damaged, or is no photo", not "Improper call to JPEG library in state 201". A broken tile
stands out from the grid."""

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
