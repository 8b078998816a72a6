"""Videos are listed with the photos, in the order of the dates their containers give; a
video's tile shows a frame near its start, turned upright as its container says, with its
length in a badge; the viewer plays it, and paging away stops it."""

import os

from exif_photos import exif_segment
from harness import COLOURS, close_to, make_solid, open_folder, wait_for_screen
from made_videos import make_video
from test_viewer import open_viewer, viewer_area

TILES = {name: COLOURS[name] for name in ("red", "blue", "green", "yellow")}


def badge_pixels(image, blob) -> int:
    """White pixels (the duration's digits) in the bottom right corner of a tile."""
    count = 0
    for y in range(max(blob.top, blob.bottom - 34), blob.bottom - 4):
        for x in range(max(blob.left, blob.right - 80), blob.right - 4):
            r, g, b = image.pixel(x, y)
            if r > 200 and g > 200 and b > 200:
                count += 1
    return count


def dated_photo(path, colour: str, taken: str):
    """A JPEG of `colour` whose EXIF says it was taken at `taken`."""
    make_solid(path, colour, size="640x480")
    preview = path.with_suffix(".preview.jpg")
    make_solid(preview, colour, size="160x120")
    data = path.read_bytes()
    path.write_bytes(data[:2] + exif_segment(preview.read_bytes(), taken=taken) + data[2:])
    preview.unlink()
    return path


def grid_check(image):
    blobs = image.blobs(TILES)
    if set(blobs) != set(TILES) or any(b.width < 40 for b in blobs.values()):
        return False, f"four colours expected, found {blobs}"
    red, blue, green, yellow = (blobs[name] for name in ("red", "blue", "green", "yellow"))
    # The turned video: red above blue (as recorded, red was left of blue), one tile.
    if not (red.cy < blue.cy and abs(red.cx - blue.cx) < 20):
        return False, f"the turned video's frame is not upright: red {red}, blue {blue}"
    # Newest first: the video of 2021, the photo of 2020, the video of 2019.
    if not (red.cx < green.cx < yellow.cx):
        return False, f"not in date order: video 2021 at {red.cx}, photo 2020 at {green.cx}, video 2019 at {yellow.cx}"
    badges = {"turned": badge_pixels(image, blue), "photo": badge_pixels(image, green), "old": badge_pixels(image, yellow)}
    if badges["turned"] < 8 or badges["old"] < 8 or badges["photo"] != 0:
        return False, f"duration badges (white pixels): {badges}"
    return True, ""


def test_videos_are_listed_by_their_dates_upright_with_their_length(launch, tmp_path):
    folder = tmp_path / "phone"
    old = make_video(folder / "a-clip.mp4", ("yellow",), seconds=4, created="2019-03-02T10:00:00Z")
    dated_photo(folder / "b-photo.jpg", "green", taken="2020:07:01 12:00:00")
    turned = make_video(folder / "c-turned.mp4", ("red", "blue"), seconds=3, rotate=90, created="2021-05-06T07:08:09Z")
    # Modification times in the other order: only the containers' dates give the order tested.
    os.utime(old, (1_700_000_000, 1_700_000_000))
    os.utime(turned, (1_500_000_000, 1_500_000_000))

    app = open_folder(launch, folder, count=3, sort_by="dateTaken")
    wait_for_screen(app, grid_check, timeout=30, what="three tiles in date order, the videos upright with their lengths")
    assert app.quit() == 0


def test_the_viewer_plays_a_video_muted_space_pauses_it_and_paging_away_stops_it(launch, tmp_path):
    folder = tmp_path / "clips"
    make_video(folder / "a-clip.mp4", ("magenta",), seconds=20)
    make_solid(folder / "b-photo.png", "green")
    app = open_viewer(launch, folder / "a-clip.mp4")
    app.wait_for_line(r"^trace video-playing 0 \d+$", timeout=30)
    area = viewer_area(app)
    wait_for_screen(app, lambda image: (close_to(image.pixel(area.x + area.width // 2, area.y + area.height // 2), COLOURS["magenta"], 40),
                                        "the video's picture is not in the middle"), what="the video playing")

    mark = app.mark()
    app.key("space")
    app.wait_for_line(r"^trace video-paused 0 \d+$", since=mark)
    mark = app.mark()
    app.key("space")
    app.wait_for_line(r"^trace video-resumed 0 \d+$", since=mark)

    mark = app.mark()
    app.key("Right")
    app.wait_for_line(r"^trace page 1 \d+$", since=mark)
    app.wait_for_line(r"^trace video-stopped 0 \d+$", since=mark)
    wait_for_screen(app, lambda image: (close_to(image.pixel(area.x + area.width // 2, area.y + area.height // 2), COLOURS["green"], 30),
                                        "the photo after the video is not shown"), what="the photo paged to")
    assert app.quit() == 0


def test_the_viewer_plays_a_turned_video_upright(launch, tmp_path):
    # Stored with red left of blue, turned 90° clockwise by its container: upright, red is
    # above blue. GTK's player shows frames as stored, sideways, unless the viewer turns them.
    folder = tmp_path / "portrait"
    make_video(folder / "a-portrait.mp4", ("red", "blue"), seconds=20, rotate=90)
    app = open_viewer(launch, folder / "a-portrait.mp4")
    app.wait_for_line(r"^trace video-playing 0 \d+$", timeout=30)

    def upright(image):
        blobs = image.blobs({"red": COLOURS["red"], "blue": COLOURS["blue"]})
        if set(blobs) != {"red", "blue"}:
            return False, f"red and blue expected, found {blobs}"
        red, blue = blobs["red"], blobs["blue"]
        return red.cy < blue.cy and abs(red.cx - blue.cx) < 20, f"red {red}, blue {blue}"

    wait_for_screen(app, upright, what="the video upright, red above blue")
    assert app.quit() == 0
