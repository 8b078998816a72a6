"""A JPEG cut short (a copy that stopped half way) decodes without an error: gdk-pixbuf gives
its upper rows and grey below. What there is shows, and both the tile and the viewer say
that the end of the photo is missing: the tile with a sign in its corner, the viewer with
its words on a dark card at the photo's bottom. A whole photo beside it has neither."""

from __future__ import annotations

from harness import Image, Rect, make_solid, wait_for_screen, wait_for_still_screen

RED = (230, 20, 20)
BLUE = (20, 20, 230)


def reddish(p) -> bool:
    return p[0] > 180 and p[1] < 80 and p[2] < 80


def bluish(p) -> bool:
    return p[2] > 180 and p[0] < 80 and p[1] < 80


def extent(image: Image, area: Rect, test) -> Rect | None:
    """The box of the pixels in `area` that pass `test` (sampled every 2 pixels)."""
    xs, ys = [], []
    for y in range(area.y, area.y + area.height, 2):
        for x in range(area.x, area.x + area.width, 2):
            if test(image.pixel(x, y)):
                xs.append(x)
                ys.append(y)
    if not xs:
        return None
    return Rect(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)


def corner_sign(image: Image, tile: Rect) -> tuple[int, int]:
    """Dark and white pixels in the tile's bottom right corner (where the sign sits)."""
    corner = [image.pixel(x, y) for x in range(tile.x + tile.width - 36, tile.x + tile.width - 2)
              for y in range(tile.y + tile.height - 36, tile.y + tile.height - 2)]
    return sum(1 for p in corner if max(p) < 90), sum(1 for p in corner if min(p) > 220)


def test_a_jpeg_cut_short_shows_what_there_is_and_says_its_end_is_missing(launch, tmp_path):
    folder = tmp_path / "copied"
    whole = make_solid(tmp_path / "whole-red.jpg", RED, size="800x600").read_bytes()
    folder.mkdir()
    (folder / "a-cut.jpg").write_bytes(whole[: len(whole) // 2])
    make_solid(folder / "b-whole.jpg", BLUE, size="800x600")
    app = launch(folder, sort_by="name")
    app.wait_for_window(r"^copied$", timeout=30)
    for index in (0, 1):
        app.wait_for_line(rf"^trace tile-loaded {index} \d+$", timeout=30)
    area = app.content_area()

    def both_tiles(image: Image):
        cut, blue = extent(image, area, reddish), extent(image, area, bluish)
        if not cut or not blue:
            return False, f"tiles: cut {cut}, whole {blue}"
        # The cut photo's tile: its upper part red, the rest what the loader filled in; as
        # square as the whole photo's tile.
        tile = Rect(cut.x, cut.y, cut.width, blue.height)
        dark, white = corner_sign(image, tile)
        return dark >= 30 and white >= 5, f"the cut photo's tile corner has {dark} dark and {white} white pixels"

    image = wait_for_still_screen(app, both_tiles, what="a sign on the cut photo's tile")
    blue = extent(image, area, bluish)
    dark, white = corner_sign(image, blue)
    assert dark < 5 and white < 5, f"the whole photo's tile has a sign too ({dark} dark, {white} white pixels)"

    # The viewer: the red part, and below it the words on their card above the toolbar.
    cut = extent(image, area, reddish)
    mark = app.mark()
    app.click(cut.x + cut.width // 2, cut.y + 10)
    app.wait_for_line(r"^trace full-image 0 \d+$", since=mark, timeout=30)

    def words_below_the_red(image: Image):
        red = extent(image, area, reddish)
        if not red or red.width < 300:
            return False, f"no photo in the viewer (red {red})"
        # Under the red rows, across the photo's width, down to the photo's bottom (the toolbar
        # below it has white signs of its own): the rows the loader filled in, grey, and the
        # card, dark with white words on it.
        edge = [y for y in range(red.y + red.height, area.y + area.height) if all(100 <= c <= 160 for c in image.pixel(red.x + 4, y))]
        if not edge:
            return False, "no grey rows under the red part"
        below = Rect(red.x + 20, red.y + red.height + 4, red.width - 40, max(edge) - (red.y + red.height) - 4)
        pixels = [image.pixel(x, y) for x in range(below.x, below.x + below.width, 2)
                  for y in range(below.y, below.y + below.height, 2)]
        rows_with_words = {y for y in range(below.y, below.y + below.height, 2)
                           if any(min(image.pixel(x, y)) > 220 for x in range(below.x, below.x + below.width, 2))}
        dark = sum(1 for p in pixels if max(p) < 90)
        return len(rows_with_words) >= 4 and dark >= 200, \
            f"{len(rows_with_words)} rows with white words, {dark} dark pixels under the red part"

    wait_for_still_screen(app, words_below_the_red, timeout=20, what="the words on a card under the cut photo")
    assert app.quit() == 0
