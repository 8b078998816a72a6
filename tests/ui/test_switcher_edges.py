"""The album switcher's ends fade where more albums lie beyond them, on both sides: at the
start only its right end fades; scrolled with the wheel, its left end fades too, so that a
chip cut at the left edge does not look like a whole one.

Every album's photo is one red, so the chips' covers are red squares in the header bar.
How red a cover's column is, against the header bar's own colour, says how much of the
fade lies over it: a cover under no fade is as red as the photo.
"""

from __future__ import annotations

import pytest

from harness import Image, make_solid, wait_for_screen, wait_for_still_screen
from test_albums import wait_for_albums

RED = (220, 30, 30)
ALBUMS = 16
WHEEL_STEP = 80          # pixels the switcher scrolls for a wheel click (AlbumSwitcher)
HEADER_ROWS = range(6, 46)
STYLES = {"light": "prefer-light", "dark": "prefer-dark"}


def redness(pixel: tuple[int, int, int]) -> int:
    r, g, b = pixel
    return r - max(g, b)


def covers(image: Image, row: int) -> list[tuple[int, int]]:
    """The covers along `row`: runs of clearly red columns, as (first, last) x."""
    runs: list[tuple[int, int]] = []
    for x in range(image.width):
        if redness(image.pixel(x, row)) > 60:
            if runs and runs[-1][1] == x - 1:
                runs[-1] = (runs[-1][0], x)
            else:
                runs.append((x, x))
    return [run for run in runs if run[1] - run[0] >= 12]


def cover_row(image: Image) -> int | None:
    """The header bar's row through the middle of the covers."""
    rows = [y for y in HEADER_ROWS if len(covers(image, y)) >= 3]
    return rows[len(rows) // 2] if rows else None


@pytest.mark.parametrize("style", STYLES)
def test_both_ends_of_the_album_switcher_fade_when_albums_lie_beyond_them(launch, tmp_path, style):
    top = tmp_path / "many"
    for n in range(ALBUMS):
        make_solid(top / f"album-{n:02d}" / "photo.png", RED, size="64x64")
    make_solid(top / "own.png", RED, size="64x64")
    app = launch(top, extra_env={"ADW_DEBUG_COLOR_SCHEME": STYLES[style]})
    wait_for_albums(app, ALBUMS)
    app.wait_for_window(None)

    def covers_shown(image: Image):
        row = cover_row(image)
        return row is not None, "no row of red covers in the header bar"

    start = wait_for_still_screen(app, covers_shown, what="the album switcher's covers")
    row = cover_row(start)
    full = max(redness(start.pixel(x, row)) for x in range(start.width))
    at_start = covers(start, row)
    first_left, first_right = at_start[0]
    last_left, last_right = at_start[-1]

    def strength(image: Image, x: int) -> float:
        return redness(image.pixel(x, row)) / full

    # The right end fades (albums lie beyond it): the last cover shown pales towards the edge,
    # or lies wholly under the fade, paler than a cover in the middle.
    right_end = min(strength(start, x) for x in range(last_left, last_right + 1))
    assert right_end < 0.75, f"the switcher's right end does not fade at the start (a cover there at {right_end:.2f} of full red)"
    # The left end does not: nothing lies before the first album. Its cover is red throughout.
    first_cover = [round(strength(start, x), 2) for x in range(first_left + 2, first_right - 1)]
    assert min(first_cover) > 0.9, f"the switcher's left end fades at the start: its first cover is {first_cover}"

    # Wheel clicks scroll the row; covers that were whole at the start reach the left end.
    centre = app.geometry().x + (first_left + last_right) // 2
    app.x.mouse_move(centre, app.geometry().y + row)
    seen: list[str] = []
    for clicks in range(1, 5):
        before = app.screenshot()
        app.x.xdotool("click", "5")
        moved = wait_for_screen(app, lambda image: (image.data != before.data, "the switcher did not scroll"),
                                what="the switcher scrolled by the wheel")
        shot = wait_for_still_screen(app, lambda image: (True, ""), what="the scrolled switcher")
        del moved
        shift = WHEEL_STEP * clicks
        # Where the covers of the start are now, and which of them lie over the left end
        # (its first 14 columns from where the first cover began).
        for left, right in at_start:
            now_left, now_right = left - shift, right - shift
            columns = [x for x in range(max(now_left + 1, first_left), min(now_right - 1, first_left + 14))]
            if len(columns) < 3:
                continue
            strengths = [round(strength(shot, x), 2) for x in columns]
            seen.append(f"after {clicks} clicks, a cover over x {columns[0]}..{columns[-1]}: {strengths}")
            assert max(strengths) < 0.75, ("a cover cut at the switcher's left end is drawn at full red "
                                           f"(no fade): {seen[-1]}")
    assert seen, "no cover reached the switcher's left end after four wheel clicks"
    assert app.quit() == 0
