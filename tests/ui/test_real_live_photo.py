"""A real iPhone Live Photo (tests/README.md says where it comes from): a HEIC still and its
H.264 movie, named IMG_7943.HEIC and IMG_7943_HEVC.MOV as published, so that they pair by the
content identifier both carry (the still's Apple maker note, the movie's QuickTime metadata),
not by their names. They are one tile with the "Live" badge; the viewer plays the movie on a
long press; moving the photo to the trash takes both files, and Undo brings both back."""

import shutil
from pathlib import Path

from harness import COLOURS, REPO, Rect, close_to, make_solid, open_folder, wait_for_screen, wait_moved_to_trash, wait_put_back
from test_viewer import long_press_plays, open_viewer, viewer_area

DATA = REPO / "tests" / "data" / "formats"
STILL, MOVIE = "IMG_7943.HEIC", "IMG_7943_HEVC.MOV"
# The same picture without a movie: a copy of the still whose maker note is no longer
# Apple's (its signature changed in place), so it holds no identifier.
COPY = "IMG_7944.HEIC"
MARKER = {"green": COLOURS["green"]}


def live_photo_folder(tmp_path: Path) -> Path:
    """By name: a flat green photo (it shows where the tiles are), the Live Photo's still and
    movie, and the copy of the still without an identifier."""
    folder = tmp_path / "iPhone"
    folder.mkdir()
    make_solid(folder / "A-marker.png", "green")
    shutil.copy(DATA / "live-photo-iphone-13-pro.heic", folder / STILL)
    shutil.copy(DATA / "live-photo-iphone-13-pro.mov", folder / MOVIE)
    still = (DATA / "live-photo-iphone-13-pro.heic").read_bytes()
    signature = b"Apple iOS\0"
    assert still.count(signature) == 1, "the still's Apple maker note is not where it was"
    (folder / COPY).write_bytes(still.replace(signature, b"Apple iOZ\0"))
    return folder


def tiles(image) -> list[Rect] | None:
    """The first row's four tile places, from the green marker's tile and the gap after it;
    None until the marker shows as a tile."""
    marker = image.blobs(MARKER).get("green")
    if marker is None or marker.width < 80 or marker.height < 80:
        return None
    y = round(marker.cy)
    background = image.pixel(marker.right + 2, y)
    x = marker.right + 2
    while x < image.width and close_to(image.pixel(x, y), background, 8):
        x += 1
    pitch = x - marker.left
    if x >= image.width or pitch > 2 * marker.width:
        return None
    return [Rect(marker.left + n * pitch, marker.top, marker.width, marker.height) for n in range(4)]


def differences(image, live: Rect, plain: Rect, rows: range, columns: range) -> tuple[int, int, int, int]:
    """Over `rows` and `columns` of two tiles: pixels alike (every channel within 24 levels);
    pixels of `live` darker than `plain`'s by a quarter or more (under the badge's dark box);
    white pixels of `live` brighter than `plain`'s (the badge's letters); and all compared."""
    alike = darker = lighter = total = 0
    for dy in rows:
        for dx in columns:
            a = image.pixel(live.x + dx, live.y + dy)
            b = image.pixel(plain.x + dx, plain.y + dy)
            total += 1
            if close_to(a, b, 24):
                alike += 1
            elif sum(a) < 0.75 * sum(b):
                darker += 1
            elif min(a) > 200 and sum(a) > sum(b) + 60:
                lighter += 1
    return alike, darker, lighter, total


def one_badged_tile_check(image):
    places = tiles(image)
    if places is None:
        return False, "the green marker's tile and the gap after it are not on screen"
    marker, live, plain, fourth = places
    background = image.pixel(marker.x + marker.width + 2, marker.y + marker.height // 2)
    if any(not close_to(image.pixel(*point), background, 8) for point in
           (fourth.centre, (fourth.x + 10, fourth.y + 10), (fourth.x + fourth.width - 10, fourth.y + fourth.height - 10))):
        return False, f"a fourth tile shows at {fourth}: the movie is a tile of its own"
    if close_to(image.pixel(*plain.centre), background, 8):
        return False, f"no third tile at {plain}"
    # The tiles' lower halves are the same picture; the top right corner (the badge's) of the
    # Live Photo's is darkened where the copy's is not, with white letters on it.
    alike, _, _, total = differences(image, live, plain, range(live.height // 2, live.height - 4, 2), range(0, live.width, 2))
    if alike < 0.95 * total:
        return False, f"the two tiles do not show the same picture: {alike} of {total} pixels alike"
    _, darker, lighter, _ = differences(image, live, plain, range(6, 34), range(live.width - 70, live.width - 6))
    return darker >= 40 and lighter >= 8, f"the Live Photo's corner against the copy's: {darker} pixels darkened, {lighter} lighter and white"


def test_a_real_live_photo_is_one_tile_with_the_live_badge(launch, tmp_path):
    folder = live_photo_folder(tmp_path)
    app = open_folder(launch, folder, sort_by="name")
    app.wait_for_line(r"^trace live-identifiers 2 \d+$", timeout=30)
    wait_for_screen(app, one_badged_tile_check, timeout=30,
                    what="the marker, the Live Photo's tile with its badge, the copy's without, and no tile of the movie")
    assert app.quit() == 0


def test_a_real_live_photo_plays_its_movie_on_a_long_press(launch, tmp_path):
    folder = live_photo_folder(tmp_path)
    # By name the still is the second photo.
    app = open_viewer(launch, folder / STILL, index=1)
    app.wait_for_line(r"^trace live-identifiers 2 \d+$", timeout=30)
    # The trace comes when the movie's first frame shows.
    long_press_plays(app, viewer_area(app), 1)
    assert app.quit() == 0


def test_moving_a_real_live_photo_to_the_trash_takes_its_movie_and_undo_brings_both_back(launch, tmp_path):
    folder = live_photo_folder(tmp_path)
    originals = {name: (folder / name).read_bytes() for name in (STILL, MOVIE)}
    app = open_folder(launch, folder, sort_by="name")
    app.wait_for_line(r"^trace live-identifiers 2 \d+$", timeout=30)
    image = wait_for_screen(app, one_badged_tile_check, timeout=30, what="the Live Photo's tile with its badge")
    live = tiles(image)[1]

    app.ctrl_click(*live.centre)
    app.key("Delete")

    wait_moved_to_trash(app, folder, originals, "both files of the Live Photo")
    assert (folder / COPY).exists() and (folder / "A-marker.png").exists(), "a photo not selected went too"

    app.key("ctrl+z")
    wait_put_back(app, folder, originals, "both files of the Live Photo")
    # The pointer off the tiles: no name shown over the Live Photo's.
    app.x.mouse_move(live.x, live.y + live.height + 120)
    wait_for_screen(app, one_badged_tile_check, timeout=30, what="the Live Photo's tile back, with its badge")
    assert app.quit() == 0
