"""Large folders: the grid streams, re-sorts as dates arrive, and survives it (GTK 4.8
aborts if the grid's columns change during its own layout); End fills the last screenful
even while 100,000 photos are still being listed."""

import os

import pytest

from harness import COLOURS, Rect, exiftool, make_solid, wait_for_screen


def test_a_folder_of_two_thousand_photos_opens_twice_without_a_crash(launch, tmp_path):
    folder = tmp_path / "two-thousand"
    sources = [make_solid(tmp_path / f"source-{n}.jpg", colour, size="320x240")
               for n, colour in enumerate(["red", "green", "blue", "yellow"])]
    folder.mkdir()
    for i in range(2000):
        os.link(sources[i % len(sources)], folder / f"photo-{i:05d}.jpg")
    cache = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    for _ in range(2):  # the second run finds the thumbnails and dates in the cache
        app = launch(folder, extra_env=cache)
        app.wait_for_line(r"^trace enumerated 2000 \d+$", timeout=60)
        # The main thread's work after the listing told once it is done.
        app.wait_for_line(r"^trace listed-idle \d+ \d+$", timeout=60)
        app.wait_for_window(r"^two-thousand$")
        app.wait_for_line(r"^trace visible-thumbnails \d+ \d+$", timeout=60)
        mark = app.mark()
        app.key("End")
        app.wait_for_line(r"^trace visible-thumbnails \d+ \d+$", since=mark, timeout=60)
        assert app.quit() == 0


def test_a_folder_opened_again_is_in_the_order_of_the_dates_in_its_cache(launch, tmp_path):
    """6,000 photos (hard links to four), the yellow one taken last but its file the oldest:
    newest first, only its date taken puts it at the top. Opened a second time, every date
    comes from the cache at once and is applied away from the main thread (a batch of
    thousands); the top must be yellow both times."""
    sources = []
    for n, (colour, year) in enumerate([("red", 2001), ("green", 2002), ("blue", 2003), ("yellow", 2020)]):
        path = make_solid(tmp_path / f"source-{n}.jpg", colour, size="320x240")
        exiftool("-overwrite_original", f"-DateTimeOriginal={year}:06:01 12:00:00", str(path))
        os.utime(path, (1_000_000_000, 1_000_000_000) if colour == "yellow" else (1_500_000_000, 1_500_000_000))
        sources.append(path)
    folder = tmp_path / "six-thousand"
    folder.mkdir()
    for i in range(6000):
        os.link(sources[i % len(sources)], folder / f"photo-{i:05d}.jpg")

    def top_is_yellow(image):
        grid = image.crop(Rect(0, 60, image.width, image.height - 60))
        yellow = grid.fraction_of(COLOURS["yellow"], tolerance=60, step=8)
        return yellow >= 0.5, f"yellow covers {yellow:.0%} of the grid"

    cache = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    for dates in ["read from the files", "from the cache"]:
        app = launch(folder, extra_env=cache)
        app.wait_for_window(r"^six-thousand$", timeout=60)
        app.wait_for_line(r"^trace enumerated 6000 \d+$", timeout=60)
        wait_for_screen(app, top_is_yellow, timeout=30, what=f"the photos taken last at the top (dates {dates})")
        assert app.quit() == 0


# A folder of 100,000 photos (hard links), and End pressed at several moments: while the
# listing still streams in (each batch changes the whole grid) and after it. Each time the
# last screenful must fill: a `visible-thumbnails` line after the key, and tiles of the
# photos' colours covering the grid on screen; then Ctrl+Q must still quit. GTK 4.8's grid
# view lost its place when End came between a batch and the next layout (a blank window
# until the next key), and keys pressed after a batch removed the focused tile were lost.
LARGE = 100_000
LARGE_COLOURS = ["red", "green", "blue", "yellow"]


@pytest.fixture(scope="module")
def hundred_thousand(tmp_path_factory):
    root = tmp_path_factory.mktemp("large")
    sources = [make_solid(root / f"source-{n}.jpg", colour, size="320x240")
               for n, colour in enumerate(LARGE_COLOURS)]
    folder = root / "hundred-thousand"
    folder.mkdir()
    for i in range(LARGE):
        os.link(sources[i % len(sources)], folder / f"photo-{i:06d}.jpg")
    return folder


def grid_filled(image):
    """Whether the grid (below the header bar) is mostly photo tiles, not an empty view."""
    grid = image.crop(Rect(0, 60, image.width, image.height - 60))
    covered = sum(grid.fraction_of(COLOURS[name], tolerance=60, step=8) for name in LARGE_COLOURS)
    return covered >= 0.5, f"photo colours cover {covered:.0%} of the grid"


# When to press End: right after the first frame, right after the first screenful filled
# (both while the folder is still being listed, on this project's machines), and once the
# listing has ended.
END_MOMENTS = {
    "first-frame": r"^trace first-frame \d+$",
    "first-screenful": r"^trace visible-thumbnails \d+ \d+$",
    "listed": rf"^trace enumerated {LARGE} \d+$",
}


def test_end_fills_the_last_screenful_of_a_hundred_thousand_photos(launch, hundred_thousand, tmp_path):
    cache = {"XDG_CACHE_HOME": str(tmp_path / "cache")}   # shared: later runs find thumbnails
    pressed_while_listing = 0
    for moment in ["first-frame", "first-screenful", "first-frame", "first-screenful", "listed"]:
        app = launch(hundred_thousand, extra_env=cache)
        app.wait_for_window(r"^hundred-thousand$", timeout=60)
        app.wait_for_line(END_MOMENTS[moment], timeout=60)
        mark = app.mark()
        listing = not app.lines_matching(r"^trace enumerated \d+ \d+$")
        app.key("End")
        pressed_while_listing += listing
        where = f"End pressed at {moment} ({'while listing' if listing else 'after listing'})"
        try:
            app.wait_for_line(r"^trace visible-thumbnails \d+ \d+$", since=mark, timeout=45)
        except AssertionError as error:
            raise AssertionError(f"{where}: the grid showed no thumbnails\n{error}") from None
        wait_for_screen(app, grid_filled, timeout=20, what=f"a full grid after {where}")
        app.wait_for_line(rf"^trace enumerated {LARGE} \d+$", timeout=60)
        try:
            assert app.quit() == 0
        except AssertionError as error:
            raise AssertionError(f"Ctrl+Q after {where}: {error}") from None
    assert pressed_while_listing > 0, "the folder was always listed before End: nothing tested End while streaming"


def test_a_grid_kept_at_the_top_asks_for_no_thumbnail_where_the_listing_pushed_its_first_screen(launch, hundred_thousand, tmp_path):
    """The listing's photos, sorted in among the first screen's, push its top photo hundreds
    or thousands of places down at each splice, where GTK lays the grid out once before it
    goes back to the top: the tiles there ask for no thumbnail, only the top's do."""
    app = launch(hundred_thousand, extra_env={"XDG_CACHE_HOME": str(tmp_path / "cache")})
    app.wait_for_window(r"^hundred-thousand$", timeout=60)
    app.wait_for_line(rf"^trace enumerated {LARGE} \d+$", timeout=60)
    app.wait_for_line(r"^trace listed-idle \d+ \d+$", timeout=60)
    wait_for_screen(app, grid_filled, timeout=20, what="the top of the grid filled")
    # The top's tiles, and a few rows below them at most (a screen shows 30).
    far = [m.string for m in app.lines_matching(r"^trace tile-requested (\d+) \d+$") if int(m.group(1)) >= 120]
    assert not far, f"tiles away from the top asked for thumbnails: {far[:5]}"
    assert app.quit() == 0
