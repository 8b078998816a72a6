"""Renaming a photo (F2) and saving the viewer's rotation into a JPEG (Ctrl+S, Save
Rotation), as a person does them with the keyboard, each undone with Ctrl+Z. What is
checked is the files on the disk: names, bytes, the EXIF orientation exiftool reads."""

import fcntl
import shutil
import subprocess
from pathlib import Path

import pytest

from harness import (COLOURS, close_to, convert_tool, open_folder, run, tiles_check, trash_files, wait_for_screen,
                     wait_moved_to_trash, wait_until)

PHOTOS = {"a-red.png": "red", "b-green.png": "green", "c-blue.png": "blue"}
# The rename popover's refusal is in libadwaita's error colour (light style).
ERROR_RED = (0xC0, 0x1C, 0x28)


def open_rename(app) -> None:
    """F2, and wait until the rename popover is shown (its field has the focus then)."""
    mark = app.mark()
    app.key("F2")
    app.wait_for_line(RENAME_SHOWN, since=mark)


RENAME_SHOWN = r"^trace shown GtkPopover rename \d+$"
RENAME_HIDDEN = r"^trace hidden GtkPopover rename \d+$"


def error_pixels(image) -> int:
    return sum(1 for _, _, pixel in image.samples(step=1) if close_to(pixel, ERROR_RED, 24))


def test_f2_renames_the_focused_photo_and_ctrl_z_names_it_back(launch, photo_folder):
    folder = photo_folder("renaming", PHOTOS)
    original = (folder / "a-red.png").read_bytes()
    app = open_folder(launch, folder, count=3, sort_by="name")
    wait_for_screen(app, tiles_check({c: COLOURS[c] for c in PHOTOS.values()}), what="the three tiles")

    app.key("Home")          # the first tile (red) focused
    open_rename(app)
    app.screenshot().save(app.log_path.with_name("rename-popover.png"))
    # The name before ".png" is selected: Delete clears it in the field, and only there
    # (Delete is also Move to Trash); then the new name is typed.
    app.key("Delete")
    app.x.xdotool("type", "--delay", "30", "sunset")
    app.key("Return")

    wait_until(lambda: (folder / "sunset.png").exists() and not (folder / "a-red.png").exists(), "the file renamed")
    assert (folder / "sunset.png").read_bytes() == original
    assert not (trash_files(app) / "a-red.png").exists()
    assert sorted(p.name for p in folder.iterdir()) == ["b-green.png", "c-blue.png", "sunset.png"]
    app.wait_for_line(r"^trace renamed .*sunset\.png \d+ \d+$")
    app.wait_for_line(r"^trace toast Renamed to “\u2068?sunset\.png\u2069?” \d+$")
    app.wait_for_line(RENAME_HIDDEN)
    # The renamed photo keeps the focus: Enter opens it in the viewer, under its new name.
    wait_for_screen(app, tiles_check({c: COLOURS[c] for c in PHOTOS.values()}), what="the three tiles after the rename")
    app.key("Return")
    app.wait_for_title("sunset.png")
    app.key("Escape")

    app.key("ctrl+z")
    wait_until(lambda: (folder / "a-red.png").exists() and not (folder / "sunset.png").exists(), "the old name back")
    assert (folder / "a-red.png").read_bytes() == original
    assert app.quit() == 0


def test_a_name_taken_is_refused_and_both_files_are_left_as_they_are(launch, photo_folder):
    photos = {"a-green.png": "green", "b-blue.png": "blue", "c-yellow.png": "yellow"}
    folder = photo_folder("taken", photos)
    before = {name: (folder / name).read_bytes() for name in photos}
    app = open_folder(launch, folder, count=3, sort_by="name")
    wait_for_screen(app, tiles_check({c: COLOURS[c] for c in photos.values()}), what="the three tiles")

    app.key("Home")
    open_rename(app)
    assert error_pixels(app.screenshot()) == 0, "a refusal shows before anything was typed"
    app.x.xdotool("type", "--delay", "30", "b-blue")
    app.key("Return")
    shot = wait_for_screen(app, lambda image: (error_pixels(image) > 20, "no refusal shown"), what="the popover's refusal")
    shot.save(app.log_path.with_name("rename-refused.png"))
    # Still open: a slash is refused too, before the disk is asked.
    app.key("ctrl+a")
    app.x.xdotool("type", "--delay", "30", "a/b.png")
    app.key("Return")
    wait_for_screen(app, lambda image: (error_pixels(image) > 20, "no refusal shown"), what="the refusal of a slash")
    assert not app.lines_matching(RENAME_HIDDEN), "the popover closed on a name with a slash"
    mark = app.mark()
    app.key("Escape")
    app.wait_for_line(RENAME_HIDDEN, since=mark)
    assert sorted(p.name for p in folder.iterdir()) == sorted(photos)
    for name, data in before.items():
        assert (folder / name).read_bytes() == data, f"{name} changed"
    assert not app.lines_matching(r"^trace renamed ")
    assert app.quit() == 0


def jpeg_segments(data: bytes) -> list[tuple[int, int, int]]:
    """(marker, start, end) of each segment before the image data."""
    assert data[:2] == b"\xff\xd8"
    i, segments = 2, []
    while data[i + 1] != 0xDA:
        length = int.from_bytes(data[i + 2:i + 4], "big")
        segments.append((data[i + 1], i, i + 2 + length))
        i += 2 + length
    return segments


def after_exif(data: bytes) -> bytes:
    """The file's bytes after its EXIF segment (all its segments when it has none but a JFIF)."""
    segments = jpeg_segments(data)
    exif = [s for s in segments if s[0] == 0xE1 and data[s[1] + 4:s[1] + 10] == b"Exif\0\0"]
    if exif:
        return data[exif[0][2]:]
    jfif = [s for s in segments if s[0] == 0xE0 and s[1] == 2]
    return data[jfif[0][2] if jfif else 2:]


def shown_as(way: str):
    """A screen check: the red and blue photo in the viewer, as a portrait with red on top,
    or as a landscape with red on the left."""
    red, blue = COLOURS["red"], COLOURS["blue"]

    def check(image):
        w, h = image.width, image.height
        if way == "portrait":
            points = {"top": ((w // 2, int(h * 0.3)), red), "bottom": ((w // 2, int(h * 0.75)), blue)}
        else:
            points = {"left": ((int(w * 0.3), h // 2), red), "right": ((int(w * 0.7), h // 2), blue)}
        wrong = [f"{name} is {image.pixel(*xy)}" for name, (xy, colour) in points.items()
                 if not close_to(image.pixel(*xy), colour, 60)]
        return not wrong, ", ".join(wrong)
    return check


def orientation(path: Path) -> str:
    return run(["exiftool", "-s3", "-Orientation", "-n", str(path)]).stdout.decode().strip()


@pytest.mark.skipif(shutil.which("exiftool") is None, reason="exiftool (libimage-exiftool-perl) is not installed")
@pytest.mark.parametrize("with_exif", [True, False], ids=["with-exif", "without-exif"])
def test_save_rotation_writes_the_orientation_and_ctrl_z_takes_it_back(launch, tmp_path, with_exif):
    folder = tmp_path / "turning"
    folder.mkdir()
    photo = folder / "portrait.jpg"
    # Red on the left, blue on the right: which way the viewer shows it is plain to see.
    run([convert_tool(), "-size", "800x1200", "xc:red", "-size", "800x1200", "xc:blue", "+append",
         "-quality", "90", str(photo)])
    if with_exif:
        run(["exiftool", "-q", "-overwrite_original", "-Orientation=1", "-n", "-Make=Test Camera", str(photo)])
    photo.chmod(0o640)
    original = photo.read_bytes()
    assert orientation(photo) == ("1" if with_exif else "")

    app = open_folder(launch, folder, count=1, sort_by="name")
    app.key("Home", "Return")
    app.wait_for_title("portrait.jpg")
    wait_for_screen(app, shown_as("landscape"), what="the photo upright, red on the left")
    app.key("r")
    wait_for_screen(app, shown_as("portrait"), what="the photo turned in the view, red on top").save(
        app.log_path.with_name("turned.png"))
    app.key("ctrl+s")
    app.wait_for_line(r"^trace rotation-saved .*portrait\.jpg \d+ \d+$")
    saved = photo.read_bytes()
    assert orientation(photo) == "6"
    assert after_exif(saved) == after_exif(original), "bytes other than the EXIF segment changed"
    assert photo.stat().st_mode & 0o777 == 0o640, "the photo's permissions changed"
    assert sorted(p.name for p in folder.iterdir()) == ["portrait.jpg"], "a temporary file was left"
    # The viewer shows it turned once, as before saving: red on top (the view's rotation
    # gave way to the file's, not added to it).
    wait_for_screen(app, shown_as("portrait"), what="the photo turned once, red on top")

    app.key("ctrl+z")
    app.wait_for_line(r"^trace rotation-restored .*portrait\.jpg \d+$")
    assert orientation(photo) == "1"
    wait_for_screen(app, shown_as("landscape"), what="the photo upright again, red on the left")
    assert after_exif(photo.read_bytes()) == after_exif(original)
    if with_exif:
        assert photo.read_bytes() == original, "undo did not give the original's bytes back"
    assert app.quit() == 0


def test_the_rotation_of_a_png_is_not_saved_and_the_toast_says_why(launch, photo_folder):
    folder = photo_folder("png", {"a-red.png": "red"})
    original = (folder / "a-red.png").read_bytes()
    app = open_folder(launch, folder, count=1, sort_by="name")
    app.key("Home", "Return")
    app.wait_for_title("a-red.png")
    app.wait_for_line(r"^trace full-image \d+ \d+$")
    app.key("r")
    app.key("ctrl+s")
    toast = app.wait_for_line(r"^trace toast (.*) \d+$")
    assert "JPEG" in toast.group(1) and "re-encoding" in toast.group(1), toast.group(1)
    assert (folder / "a-red.png").read_bytes() == original
    assert not app.lines_matching(r"^trace rotation-saved ")
    assert sorted(p.name for p in folder.iterdir()) == ["a-red.png"]
    assert app.quit() == 0


def test_f2_in_the_viewer_renames_the_photo_shown_and_the_viewer_follows_it(launch, photo_folder):
    folder = photo_folder("viewer-rename", PHOTOS)
    original = (folder / "b-green.png").read_bytes()
    app = open_folder(launch, folder, count=3, sort_by="name")
    app.key("Home", "Right", "Return")
    app.wait_for_title("b-green.png")
    app.wait_for_line(r"^trace full-image \d+ \d+$")
    open_rename(app)
    app.screenshot().save(app.log_path.with_name("rename-in-viewer.png"))
    app.x.xdotool("type", "--delay", "30", "meadow")
    app.key("Return")
    wait_until(lambda: (folder / "meadow.png").exists() and not (folder / "b-green.png").exists(), "the file renamed")
    assert (folder / "meadow.png").read_bytes() == original
    # Still in the viewer, on the same photo under its new name ("meadow" sorts last now).
    app.wait_for_title("meadow.png")
    app.key("ctrl+z")
    wait_until(lambda: (folder / "b-green.png").exists() and not (folder / "meadow.png").exists(), "the old name back")
    app.wait_for_title("b-green.png")
    assert app.quit() == 0


def test_the_viewer_follows_a_rename_the_folder_monitor_told_of_first(launch, photo_folder):
    """The folder's monitor may report the rename before the rename's own answer comes
    back: the viewer then shows the photo that took the old name's place for a moment, and
    goes on to the renamed photo once the answer is there. The answer is held back by
    holding the albums folder's lock, which the rename takes to follow the photo in the
    albums of the person's own, after the file is renamed."""
    folder = photo_folder("viewer-rename-late", PHOTOS)
    app = open_folder(launch, folder, count=3, sort_by="name")
    albums = Path(app.environment["XDG_DATA_HOME"]) / "gphotobrowse" / "albums"
    albums.mkdir(parents=True, exist_ok=True)
    app.key("Home", "Right", "Return")
    app.wait_for_title("b-green.png")
    app.wait_for_line(r"^trace full-image \d+ \d+$")
    open_rename(app)
    app.x.xdotool("type", "--delay", "30", "meadow")
    with open(albums / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        app.key("Return")
        wait_until(lambda: (folder / "meadow.png").exists() and not (folder / "b-green.png").exists(), "the file renamed")
        # The monitor's report: b-green.png left the album, c-blue.png took its place.
        app.wait_for_title("c-blue.png")
        fcntl.flock(lock, fcntl.LOCK_UN)
    app.wait_for_line(r"^trace renamed .*meadow\.png \d+ \d+$")
    app.wait_for_title("meadow.png")
    assert app.quit() == 0


def rename_told_by_the_monitor_first(app, folder, new_name: str) -> None:
    """Types `new_name` in the open rename popover and renames b-green.png with the rename's
    answer held back (the albums folder's lock, which the rename takes after the file is
    renamed) until the folder's monitor has told the grid: the green tile then sorts last,
    under its new name. Returns once the rename's answer is in (`trace renamed`)."""
    albums = Path(app.environment["XDG_DATA_HOME"]) / "gphotobrowse" / "albums"
    albums.mkdir(parents=True, exist_ok=True)
    app.x.xdotool("type", "--delay", "30", new_name)
    with open(albums / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        app.key("Return")
        wait_until(lambda: (folder / f"{new_name}.png").exists() and not (folder / "b-green.png").exists(), "the file renamed")

        def green_last(image):
            blobs = image.blobs({c: COLOURS[c] for c in PHOTOS.values()})
            if len(blobs) < 3:
                return False, f"{len(blobs)} tiles"
            return blobs["green"].cx > blobs["blue"].cx, "green still before blue"
        wait_for_screen(app, green_last, what="the green tile last, as the monitor told of the rename")
        fcntl.flock(lock, fcntl.LOCK_UN)
    app.wait_for_line(rf"^trace renamed .*{new_name}\.png \d+ \d+$")


def test_the_focus_follows_a_rename_the_folder_monitor_told_of_first(launch, photo_folder):
    """The folder's monitor may report the rename before the rename's own answer: the tile of
    the old name is gone then, and GTK has moved the focus to a neighbour; the renamed photo
    gets the focus back once the answer comes, so Enter opens it."""
    folder = photo_folder("grid-rename-late", PHOTOS)
    app = open_folder(launch, folder, count=3, sort_by="name")
    wait_for_screen(app, tiles_check({c: COLOURS[c] for c in PHOTOS.values()}), what="the three tiles")
    app.key("Home", "Right")
    open_rename(app)
    rename_told_by_the_monitor_first(app, folder, "meadow")
    app.key("Return")
    app.wait_for_title("meadow.png")
    assert app.quit() == 0


def test_the_selection_follows_a_rename_the_folder_monitor_told_of_first(launch, photo_folder):
    """In edit mode, F2 renames the one photo selected; when the monitor reports the rename
    first, the photo is still selected under its new name once the answer comes: Delete
    moves it, and only it, to the trash."""
    folder = photo_folder("selection-rename-late", PHOTOS)
    app = open_folder(launch, folder, count=3, sort_by="name")
    blobs = wait_for_screen(app, tiles_check({c: COLOURS[c] for c in PHOTOS.values()}), what="the three tiles").blobs(COLOURS)
    app.key("Home")              # the focus on red: F2 must rename the selected photo all the same
    app.ctrl_click(blobs["green"].cx, blobs["green"].cy)
    app.key("Home")
    open_rename(app)
    rename_told_by_the_monitor_first(app, folder, "meadow")
    original = {"meadow.png": (folder / "meadow.png").read_bytes()}
    app.key("Delete")
    wait_moved_to_trash(app, folder, original, "the renamed photo")
    assert sorted(p.name for p in folder.iterdir()) == ["a-red.png", "c-blue.png"]
    assert app.quit() == 0


def test_a_photo_renamed_keeps_its_place_in_the_albums_of_your_own_and_undo_too(launch, photo_folder):
    import json
    folder = photo_folder("renaming", PHOTOS)
    red, green = (folder / "a-red.png").as_uri(), (folder / "b-green.png").as_uri()
    app_env = {}
    data_home = folder.parent / "data"
    albums = data_home / "gphotobrowse" / "albums"
    albums.mkdir(parents=True)
    document = {"version": 1, "title": "Best", "created": "2026-05-01T09:30:00.000000Z",
                "modified": "2026-05-01T09:30:00.000000Z", "photos": [green, red]}
    (albums / "0123456789abcdef0123456789abcdef.json").write_text(json.dumps(document))
    app_env["XDG_DATA_HOME"] = str(data_home)
    app = open_folder(launch, folder, count=3, sort_by="name", extra_env=app_env)
    # The album of the person's own is read: its tile in the switcher counts its two photos.
    app.wait_for_line(r"^trace switcher-album \d+ 2 \d+$")

    def album_photos():
        return json.loads(next(albums.glob("*.json")).read_text())["photos"]

    app.key("Home")
    open_rename(app)
    app.key("Delete")
    app.x.xdotool("type", "--delay", "30", "sunset")
    app.key("Return")
    sunset = (folder / "sunset.png").as_uri()
    wait_until(lambda: album_photos() == [green, sunset], "the album holding the new name, in the old one's place")

    app.key("ctrl+z")
    wait_until(lambda: (folder / "a-red.png").exists(), "the old name back")
    wait_until(lambda: album_photos() == [green, red], "the album holding the old name again")


def test_a_rename_is_a_job_of_its_window_and_ends_with_it(launch, launch_beside, photo_folder):
    """A rename runs as a job of its window (`live Job N` counts it): closing the window
    while the rename waits for the albums folder's lock leaves the count where it was
    before the window opened, once the rename is done; the file is renamed all the same."""
    from test_remote_jobs import jobs_until, running_jobs
    here = photo_folder("here", {"a-red.png": "red"})
    app = open_folder(launch, here, count=1)
    last = running_jobs(app)
    before = jobs_until(app, lambda n: n == last or n == 0, "the first window's jobs settling")
    folder = photo_folder("renamed-while-closing", PHOTOS)
    albums = Path(app.environment["XDG_DATA_HOME"]) / "gphotobrowse" / "albums"
    albums.mkdir(parents=True, exist_ok=True)
    mark = app.mark()
    other = launch_beside(app, folder)
    app.wait_for_window(r"^renamed-while-closing$", timeout=30)
    app.wait_for_line(r"^trace visible-thumbnails 3 \d+$", since=mark, timeout=30)
    assert other.wait_exit(30) == 0, f"the second invocation {other.describe_exit()}"
    last = running_jobs(app)
    steady = jobs_until(app, lambda n: n == last, "the second window's jobs settling")
    app.key("Home")
    open_rename(app)
    app.x.xdotool("type", "--delay", "30", "meadow")
    with open(albums / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        app.key("Return")
        wait_until(lambda: (folder / "meadow.png").exists(), "the file renamed")
        # The rename waits for the lock, to follow the photo in the albums: a job of the window,
        # counted once the work the new name brings (its thumbnail) is done.
        counts = [running_jobs(app)]
        while len(counts) < 2 or counts[-1] != counts[-2]:
            counts.append(running_jobs(app))
        assert counts[-1] == steady + 1, f"{counts[-1]} jobs while the rename waits, {steady} before it: {counts}"
        app.key("ctrl+w")
        app.wait_for_window(r"^here$", timeout=10)
        fcntl.flock(lock, fcntl.LOCK_UN)
    jobs_until(app, lambda n: n == before, f"the closed window's rename ended ({before} jobs before it opened)")
    assert sorted(p.name for p in folder.iterdir()) == ["b-green.png", "c-blue.png", "meadow.png"]
    assert app.quit() == 0
