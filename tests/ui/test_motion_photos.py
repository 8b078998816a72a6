"""Motion photos (Google's and Samsung's: a movie inside the JPEG) and Live Photos (a still
and a MOV of the same name) are one tile each with a "Live" badge; the viewer shows the still
and plays the movie on a long press; moving a Live Photo to the trash takes both files, and
Undo brings both back; a motion photo whose tags point at no movie is a plain still."""

import shutil
from pathlib import Path

from harness import COLOURS, REPO, close_to, make_solid, open_folder, wait_for_screen, wait_for_still_screen, wait_moved_to_trash, wait_put_back
from made_motion_photos import make_live_photo, make_motion_photo
from test_raw_pairs import badge_pixels
from test_viewer import long_press_plays, open_viewer, viewer_area

STILLS = {name: COLOURS[name] for name in ("red", "blue", "yellow", "green")}


def phone_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "DCIM"
    # Movies of 4 seconds: long enough for a screenshot under load to see them play.
    make_motion_photo(folder / "a-google.jpg", "red", ("magenta",), kind="google", seconds=4)
    make_motion_photo(folder / "b-samsung.jpg", "blue", ("cyan",), kind="samsung", seconds=4)
    make_live_photo(folder, "c-live", "yellow", ("magenta",), seconds=4)
    make_motion_photo(folder / "d-broken.jpg", "green", kind="broken")
    return folder


def badges_check(image):
    blobs = image.blobs(STILLS)
    if set(blobs) != set(STILLS) or any(b.width < 80 or b.height < 80 for b in blobs.values()):
        return False, f"four tiles expected, found {blobs}"
    badges = {name: badge_pixels(image, blob) for name, blob in blobs.items()}
    live = all(badges[name] >= 8 for name in ("red", "blue", "yellow"))
    return live and badges["green"] == 0, f"badge pixels: {badges}"


def test_motion_and_live_photos_are_one_tile_each_with_a_badge_and_a_broken_one_is_a_still(launch, tmp_path):
    folder = phone_folder(tmp_path)
    # Five files, four photos: the MOV goes with its still.
    app = open_folder(launch, folder, count=4, sort_by="name")
    wait_for_screen(app, badges_check, timeout=30, what="three tiles with a Live badge, the broken one without")
    assert app.quit() == 0


def playing_check(area, colour):
    def check(image):
        pixel = image.pixel(area.x + area.width // 2, area.y + area.height // 2)
        return close_to(pixel, COLOURS[colour], 40), f"the centre is {pixel}, not the {colour} movie"
    return check


def still_check(area, colour):
    def check(image):
        pixel = image.pixel(area.x + area.width // 2, area.y + area.height // 2)
        return close_to(pixel, COLOURS[colour], 30), f"the centre is {pixel}, not the {colour} still"
    return check


def test_a_long_press_plays_the_movie_of_a_motion_photo_and_of_a_live_photo(launch, tmp_path):
    folder = phone_folder(tmp_path)
    app = open_viewer(launch, folder / "a-google.jpg")
    area = viewer_area(app)
    wait_for_screen(app, still_check(area, "red"), what="the motion photo's still")

    long_press_plays(app, area, 0)
    wait_for_screen(app, playing_check(area, "magenta"), what="the motion photo's movie playing")
    # Played once through, the still shows again.
    wait_for_screen(app, still_check(area, "red"), timeout=20, what="the still again after the movie")

    # The Samsung motion photo, then the Live Photo: its MOV beside it.
    for index, (still, movie) in enumerate([("blue", "cyan"), ("yellow", "magenta")], start=1):
        mark = app.mark()
        app.key("Right")
        app.wait_for_line(rf"^trace full-image {index} \d+$", since=mark)
        wait_for_screen(app, still_check(area, still), what=f"photo {index}'s still")
        long_press_plays(app, area, index)
        wait_for_screen(app, playing_check(area, movie), what=f"photo {index}'s movie playing")
    assert app.quit() == 0


def test_moving_a_live_photo_to_the_trash_takes_its_movie_and_undo_brings_both_back(launch, tmp_path):
    folder = phone_folder(tmp_path)
    originals = {p.name: p.read_bytes() for p in folder.iterdir()}
    app = open_folder(launch, folder, count=4, sort_by="name")
    image = wait_for_screen(app, badges_check, timeout=30, what="the tiles with their badges")
    live = image.blobs(STILLS)["yellow"]

    app.ctrl_click(live.cx, live.cy)
    app.key("Delete")

    pair = {name: originals[name] for name in ("c-live.JPG", "c-live.MOV")}
    wait_moved_to_trash(app, folder, pair, "both files of the Live Photo")
    wait_for_screen(app, lambda image: ("yellow" not in image.blobs(STILLS), "the Live Photo's tile is still shown"),
                    what="the grid without the Live Photo")

    app.key("ctrl+z")
    wait_put_back(app, folder, pair, "both files of the Live Photo")
    wait_for_screen(app, badges_check, what="the Live Photo's tile back, with its badge")
    assert app.quit() == 0


def foreign_thumbnails(photo: Path, cache: Path, rgb: tuple[int, int, int]) -> None:
    """Thumbnails of `photo` in the cache under `cache` as GNOME's thumbnail factory writes
    them (Files, gThumb): a colour of their own, nothing said of a movie."""
    import hashlib
    import os

    from PIL import Image, PngImagePlugin

    uri = photo.resolve().as_uri()
    info = PngImagePlugin.PngInfo()
    info.add_text("Thumb::URI", uri)
    info.add_text("Thumb::MTime", str(int(os.stat(photo).st_mtime)))
    info.add_text("Software", "GNOME::ThumbnailFactory")
    for size, edge in (("normal", 128), ("large", 256), ("x-large", 512)):
        (cache / "thumbnails" / size).mkdir(parents=True, exist_ok=True)
        Image.new("RGB", (edge, edge * 3 // 4), rgb).save(
            cache / "thumbnails" / size / (hashlib.md5(uri.encode()).hexdigest() + ".png"), pnginfo=info)


def test_a_motion_photo_whose_thumbnail_another_program_made_has_its_badge(launch, tmp_path):
    folder = tmp_path / "phone"
    photo = make_motion_photo(folder / "a-google.jpg", "red", ("magenta",), kind="google", seconds=4)
    make_solid(folder / "b-plain.jpg", "green")
    cache = tmp_path / "cache"
    # Blue: the tile shows the other program's thumbnail, not one made again from the red photo.
    foreign_thumbnails(photo, cache, COLOURS["blue"])
    tiles = {name: COLOURS[name] for name in ("blue", "green")}

    def check(image):
        blobs = image.blobs(tiles)
        if set(blobs) != set(tiles) or any(b.width < 80 or b.height < 80 for b in blobs.values()):
            return False, f"the other program's blue thumbnail and the plain green photo expected, found {blobs}"
        badges = {name: badge_pixels(image, blob) for name, blob in blobs.items()}
        return badges["blue"] >= 8 and badges["green"] == 0, f"badge pixels: {badges}"

    app = open_folder(launch, folder, count=2, sort_by="name", extra_env={"XDG_CACHE_HOME": str(cache)})
    wait_for_screen(app, check, timeout=30, what="the motion photo's tile with its Live badge over another program's thumbnail")
    assert app.quit() == 0


def test_a_motion_photo_whose_thumbnail_another_program_made_still_plays(launch, tmp_path):
    # Files or gThumb made the thumbnail first: it says nothing of the movie. The viewer's
    # own decode of the photo finds it.
    folder = tmp_path / "phone"
    photo = make_motion_photo(folder / "a-google.jpg", "red", ("magenta",), kind="google", seconds=4)
    cache = tmp_path / "cache"
    foreign_thumbnails(photo, cache, (255, 0, 0))

    app = launch(photo, sort_by="name", extra_env={"XDG_CACHE_HOME": str(cache)})
    app.wait_for_window(r"^a-google\.jpg$")
    app.wait_for_line(r"^trace full-image 0 \d+$")
    # The page's crossfade over, as open_viewer waits for it.
    wait_for_still_screen(app, lambda image: (True, ""), what="the viewer")
    area = viewer_area(app)
    wait_for_screen(app, still_check(area, "red"), what="the motion photo's still")
    long_press_plays(app, area, 0)
    wait_for_screen(app, playing_check(area, "magenta"), what="the motion photo's movie playing")
    assert app.quit() == 0


PAIRED = {name: COLOURS[name] for name in ("yellow", "blue", "red", "green", "magenta", "cyan")}


def identity_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "Exported"
    # The same name, two identifiers: a still and a video of their own.
    make_live_photo(folder, "IMG_0001", "yellow", ("magenta",), seconds=4, identifier="11111111-AAAA-4BBC-AF47-38B1A3D845E3",
                    movie_identifier="22222222-AAAA-4BBC-AF47-38B1A3D845E3")
    # One identifier, two names (an export renamed them), the still a HEIC.
    make_live_photo(folder, "Beach", "blue", ("cyan",), seconds=4, identifier="33333333-AAAA-4BBC-AF47-38B1A3D845E3",
                    movie_stem="IMG_E0042", heic=True)
    # A HEIC Live Photo of one name and one identifier.
    make_live_photo(folder, "IMG_0003", "red", ("cyan",), seconds=4, identifier="44444444-AAAA-4BBC-AF47-38B1A3D845E3", heic=True)
    # Samsung's HEIC motion photo: its movie inside.
    make_motion_photo(folder / "IMG_0004.jpg", "green", ("magenta",), kind="samsung-heic", seconds=4)
    return folder


def identity_check(image):
    blobs = image.blobs(PAIRED)
    expected = {"yellow", "blue", "red", "green", "magenta"}
    if set(blobs) != expected or any(blobs[name].width < 80 or blobs[name].height < 80 for name in expected):
        return False, f"the tiles {sorted(expected)} expected (no cyan movie of its own), found {blobs}"
    badges = {name: badge_pixels(image, blobs[name]) for name in ("yellow", "blue", "red", "green")}
    live = all(badges[name] >= 8 for name in ("blue", "red", "green"))
    return live and badges["yellow"] == 0, f"badge pixels: {badges}"


def test_live_photos_pair_by_their_identifier_whatever_their_names(launch, tmp_path):
    folder = identity_folder(tmp_path)
    app = open_folder(launch, folder, sort_by="name")
    app.wait_for_line(r"^trace live-identifiers 6 \d+$", timeout=30)
    wait_for_screen(app, identity_check, timeout=30,
                    what="IMG_0001's still and movie apart, Beach.HEIC with IMG_E0042.MOV, two HEIC Live Photos")
    assert app.quit() == 0


def test_a_heic_live_photo_renamed_and_a_heic_motion_photo_play_their_movies(launch, tmp_path):
    folder = identity_folder(tmp_path)
    # By name: Beach.HEIC, IMG_0001.JPG, IMG_0001.MOV, IMG_0003.HEIC, IMG_0004.heic.
    app = open_viewer(launch, folder / "Beach.HEIC")
    app.wait_for_line(r"^trace live-identifiers 6 \d+$", timeout=30)
    area = viewer_area(app)
    wait_for_screen(app, still_check(area, "blue"), what="Beach.HEIC's still")
    long_press_plays(app, area, 0)
    wait_for_screen(app, playing_check(area, "cyan"), what="IMG_E0042.MOV playing over Beach.HEIC")
    mark = app.mark()
    app.key("End")
    app.wait_for_line(r"^trace full-image 4 \d+$", since=mark)
    wait_for_screen(app, still_check(area, "green"), what="the HEIC motion photo's still")
    long_press_plays(app, area, 4)
    wait_for_screen(app, playing_check(area, "magenta"), what="the HEIC motion photo's movie playing")
    assert app.quit() == 0


def test_a_real_phones_heic_motion_photo_plays_its_movie(launch, tmp_path):
    # A phone's own file (tests/README.md says where it comes from): a HEIC whose movie
    # follows the image in an `mpvd` box.
    folder = tmp_path / "DCIM"
    folder.mkdir()
    photo = folder / "motion-photo.heic"
    shutil.copy(REPO / "tests" / "data" / "formats" / "motion-photo.heic", photo)
    app = launch(photo)
    app.wait_for_window(r"^motion-photo\.heic$")
    app.wait_for_line(r"^trace full-image 0 \d+$")
    wait_for_still_screen(app, lambda image: (True, ""), what="the viewer")
    area = viewer_area(app)
    long_press_plays(app, area, 0)
    assert app.quit() == 0
