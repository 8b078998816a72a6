"""Stars and favourites as a person sets them from the keyboard, kept in XMP sidecars that
other photo apps read: Ctrl+4 writes NAME.jpg.xmp (exiftool reads the rating, the photo is
left byte for byte), Ctrl+Z takes it back, marks other apps wrote (a sidecar made by
exiftool, keywords embedded in a photo) are read, a favourite is still one after a restart,
and a picking window changes nothing."""

import os
import re
import shutil
import time

import pytest

from harness import clear_search, exiftool, folder_of_jpegs, make_solid, open_folder, open_search, search_for

pytestmark = pytest.mark.skipif(shutil.which("exiftool") is None, reason="exiftool is not installed")


def test_ctrl_4_writes_a_sidecar_exiftool_reads_and_ctrl_z_takes_it_back(launch, tmp_path):
    folder = folder_of_jpegs(tmp_path, "stars", ["a.jpg", "b.jpg"])
    original = (folder / "a.jpg").read_bytes()
    app = open_folder(launch, folder, count=2, sort_by="name")
    app.key("Home")
    mark = app.mark()
    app.key("ctrl+4")
    app.wait_for_line(r"^trace rated file://.*/a\.jpg 4 \d+$", since=mark)
    sidecar = folder / "a.jpg.xmp"
    assert sidecar.exists()
    assert exiftool("-s3", "-XMP:Rating", str(sidecar)) == "4"
    assert (folder / "a.jpg").read_bytes() == original
    assert sorted(p.name for p in folder.iterdir()) == ["a.jpg", "a.jpg.xmp", "b.jpg"]

    mark = app.mark()
    app.key("ctrl+z")
    app.wait_for_line(r"^trace rated file://.*/a\.jpg 0 \d+$", since=mark)
    assert exiftool("-s3", "-XMP:Rating", str(sidecar)) in ("", "0")
    assert (folder / "a.jpg").read_bytes() == original
    assert app.quit() == 0


def test_marks_other_apps_wrote_are_read(launch, tmp_path):
    folder = folder_of_jpegs(tmp_path, "others", ["sidecar.jpg", "embedded.jpg", "plain.jpg"])
    # A sidecar made by exiftool, and keywords written into a photo's own XMP.
    exiftool("-o", str(folder / "sidecar.jpg.xmp"), "-XMP:Rating=5", "-XMP:Subject=harbour", str(folder / "sidecar.jpg"))
    exiftool("-overwrite_original", "-XMP:Subject=lighthouse", "-XMP:Rating=2", str(folder / "embedded.jpg"))
    app = open_folder(launch, folder, count=3, sort_by="name")
    app.wait_for_line(r"^trace marks-read file://.*/sidecar\.jpg 0 5 1 \d+$")
    app.wait_for_line(r"^trace marks-read file://.*/embedded\.jpg 0 2 1 \d+$")
    assert app.quit() == 0


def test_a_favourite_is_one_after_a_restart(launch, tmp_path):
    folder = folder_of_jpegs(tmp_path, "hearts", ["a.jpg", "b.jpg"])
    app = open_folder(launch, folder, count=2, sort_by="name")
    app.key("Home")
    mark = app.mark()
    app.key("ctrl+period")
    app.wait_for_line(r"^trace favourite file://.*/a\.jpg 1 \d+$", since=mark)
    assert app.quit() == 0
    assert exiftool("-s3", "-XMP-digiKam:PickLabel", str(folder / "a.jpg.xmp")) == "3"

    app = open_folder(launch, folder, count=2, sort_by="name")
    app.wait_for_line(r"^trace marks-read file://.*/a\.jpg 1 0 0 \d+$")
    assert app.quit() == 0


def test_a_favourite_set_here_is_in_its_folder_opened_again_without_reading_it_again(launch, launch_beside, tmp_path):
    """A folder opened again in the running app has the favourites it knows at once, from
    what it read or wrote before: their sidecars are not read again."""
    folder = folder_of_jpegs(tmp_path, "again", ["a.jpg", "b.jpg"])
    other = folder_of_jpegs(tmp_path, "other", ["c.jpg"])
    app = open_folder(launch, folder, count=2, sort_by="name")
    app.key("Home")
    mark = app.mark()
    app.key("ctrl+period")
    app.wait_for_line(r"^trace favourite file://.*/a\.jpg 1 \d+$", since=mark)
    app.wait_for_line(r"^trace favourites 1 \d+$", since=mark)
    for opened, count in [(other, 1), (folder, 2)]:
        mark = app.mark()
        assert launch_beside(app, opened).wait_exit(30) == 0
        app.wait_for_line(rf"^trace enumerated {count} \d+$", since=mark, timeout=30)
    app.wait_for_line(r"^trace favourites 1 \d+$", since=mark)
    app.wait_for_line(r"^trace marks-indexed \d+ \d+$", since=mark)
    assert not app.lines_matching(r"^trace marks-read ", since=mark)
    assert app.quit() == 0


def test_a_picking_window_changes_nothing(launch, tmp_path):
    folder = folder_of_jpegs(tmp_path, "pick", ["a.jpg", "b.jpg"])
    app = launch("--pick", folder)
    app.wait_for_line(r"^trace enumerated 2 \d+$", timeout=30)
    app.wait_for_window(r"^pick$", timeout=30)
    app.wait_for_line(r"^trace visible-thumbnails \d+ \d+$", timeout=30)
    app.focus()
    app.key("Home")
    app.key("ctrl+4")
    app.key("ctrl+period")
    app.key("ctrl+t")
    app.key("Escape")
    # The keys are taken in order: the Escape that ended the picker came after them.
    assert app.process.wait(30) == 1
    assert sorted(p.name for p in folder.iterdir()) == ["a.jpg", "b.jpg"]
    assert not any("trace rated" in line or "trace favourite" in line or "trace tagged" in line for line in app.lines)
    assert not app.lines_matching(r"^trace shown GtkPopover tags ")


def test_keywords_other_apps_wrote_are_found_by_searching(launch, tmp_path):
    folder = folder_of_jpegs(tmp_path, "found", ["sidecar.jpg", "embedded.jpg", "plain.jpg"])
    exiftool("-o", str(folder / "sidecar.jpg.xmp"), "-XMP:Rating=5", "-XMP:Subject=harbour", str(folder / "sidecar.jpg"))
    exiftool("-overwrite_original", "-XMP:Subject=lighthouse", str(folder / "embedded.jpg"))
    app = open_folder(launch, folder, count=3, sort_by="name")
    app.wait_for_line(r"^trace marks-read file://.*/embedded\.jpg 0 0 1 \d+$")
    app.key("ctrl+f")
    search_for(app, "harbour", 1)
    clear_search(app, 3)
    app.key("ctrl+f")
    search_for(app, "lighthouse", 1)
    assert app.quit() == 0


def test_the_filter_count_is_right_on_a_tree_of_albums(launch, tmp_path):
    root = tmp_path / "tree"
    (root / "trip").mkdir(parents=True)
    (root / "home").mkdir()
    names = ["x1.jpg", "trip/y1.jpg", "trip/y2.jpg", "trip/y3.jpg", "home/z1.jpg"]
    for name in names:
        make_solid(root / name, "green")
    for name in ["trip/y1.jpg", "trip/y2.jpg", "home/z1.jpg"]:
        exiftool("-o", str(root / (name + ".xmp")), "-XMP:Subject=seaside", str(root / name))
    # The trip is the newest album: the switcher shows All Photos, the folder's own photo,
    # the trip, then home.
    now = time.time()
    for name, age in [("x1.jpg", 3), ("home/z1.jpg", 2), ("trip/y1.jpg", 1), ("trip/y2.jpg", 1), ("trip/y3.jpg", 1)]:
        os.utime(root / name, (now - age * 3600, now - age * 3600))
    app = launch(root, sort_by="name")
    app.wait_for_line(r"^trace albums 2 \d+$", timeout=30)
    app.wait_for_window(r"^All Photos$", timeout=30)
    app.wait_for_line(r"^trace visible-thumbnails \d+ \d+$", timeout=30)
    open_search(app)
    # All Photos: the three photos tagged, wherever they are; then a word of a folder's name.
    search_for(app, "seaside", 3)
    mark = app.mark()
    app.key("ctrl+a")
    app.x.xdotool("type", "--delay", "30", "trip")
    app.wait_for_line(r"^trace filtered 3 \d+$", since=mark)
    mark = app.mark()
    app.key("BackSpace", "BackSpace", "BackSpace", "BackSpace")
    app.x.xdotool("type", "--delay", "30", "y2")
    app.wait_for_line(r"^trace filtered 1 \d+$", since=mark)
    # Another album, the search still open: filtered there.
    mark = app.mark()
    app.key("ctrl+a", "BackSpace")
    app.wait_for_line(r"^trace filtered 5 \d+$", since=mark)
    app.x.xdotool("type", "--delay", "30", "seaside")
    app.wait_for_line(r"^trace filtered 3 \d+$", since=mark)
    mark = app.mark()
    app.key("alt+3")
    app.wait_for_title(r"^trip$")
    app.wait_for_line(r"^trace filtered 2 \d+$", since=mark)
    # Escape clears the search and closes the bar: every photo of the album again.
    mark = app.mark()
    app.key("ctrl+f")
    app.key("Escape")
    app.wait_for_line(r"^trace filtered 3 \d+$", since=mark)
    app.wait_for_line(r"^trace hidden GtkSearchBar search \d+$", since=mark)
    assert app.quit() == 0


def test_tags_typed_completed_and_undone_go_to_the_sidecar(launch, tmp_path):
    folder = folder_of_jpegs(tmp_path, "tags", ["a.jpg", "b.jpg", "c.jpg"])
    original = (folder / "a.jpg").read_bytes()
    # b's tag, from another app, is offered to complete; a's sidecar has a rating to keep.
    exiftool("-o", str(folder / "b.jpg.xmp"), "-XMP:Subject=harbour", str(folder / "b.jpg"))
    exiftool("-o", str(folder / "a.jpg.xmp"), "-XMP:Rating=3", "-XMP:Subject=old", str(folder / "a.jpg"))
    app = open_folder(launch, folder, count=3, sort_by="name")
    app.wait_for_line(r"^trace marks-read file://.*/b\.jpg 0 0 1 \d+$")
    app.wait_for_line(r"^trace marks-read file://.*/a\.jpg 0 3 1 \d+$")
    app.key("Home")
    mark = app.mark()
    app.key("ctrl+t")
    app.wait_for_line(r"^trace shown GtkPopover tags \d+$", since=mark)
    # The field holds "old, ": "old" removed, "beach" typed, "har" completed by Tab.
    app.key("ctrl+a", "BackSpace")
    app.x.xdotool("type", "--delay", "30", "beach, har")
    app.key("Tab", "Return")
    app.wait_for_line(r"^trace tagged file://.*/a\.jpg 2 \d+$", since=mark)
    sidecar = folder / "a.jpg.xmp"
    assert exiftool("-s3", "-sep", "|", "-XMP:Subject", str(sidecar)) == "beach|harbour"
    assert exiftool("-s3", "-XMP:Rating", str(sidecar)) == "3"
    assert (folder / "a.jpg").read_bytes() == original

    # Edit mode: a tag added to two photos keeps each one's own.
    mark = app.mark()
    app.key("ctrl+a")
    app.key("ctrl+t")
    app.wait_for_line(r"^trace shown GtkPopover tags \d+$", since=mark)
    app.x.xdotool("type", "--delay", "30", "sea")
    app.key("Return")
    for name, count in [("a", 3), ("b", 2), ("c", 1)]:
        app.wait_for_line(rf"^trace tagged file://.*/{name}\.jpg {count} \d+$", since=mark)
    assert exiftool("-s3", "-sep", "|", "-XMP:Subject", str(folder / "b.jpg.xmp")) == "harbour|sea"
    assert exiftool("-s3", "-sep", "|", "-XMP:Subject", str(folder / "c.jpg.xmp")) == "sea"

    # Undo puts back the tags each photo had.
    mark = app.mark()
    app.key("Escape")
    app.key("ctrl+z")
    app.wait_for_line(r"^trace tagged file://.*/b\.jpg 1 \d+$", since=mark)
    app.wait_for_line(r"^trace tagged file://.*/a\.jpg 2 \d+$", since=mark)
    assert exiftool("-s3", "-sep", "|", "-XMP:Subject", str(folder / "b.jpg.xmp")) == "harbour"
    # And the search finds the tags written.
    app.key("ctrl+f")
    search_for(app, "beach", 1)
    assert app.quit() == 0


def test_a_favourite_is_in_the_favourites_album_after_a_restart(launch, tmp_path):
    root = tmp_path / "trips"
    for name in ["own.jpg", "sea/a.jpg", "sea/b.jpg", "hills/c.jpg"]:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        make_solid(root / name, "blue")
    # Folders dated so that the switcher reads: All Photos, the folder's own, sea, hills.
    now = time.time()
    for name, age in [("own.jpg", 3), ("hills/c.jpg", 2), ("sea/a.jpg", 1), ("sea/b.jpg", 1)]:
        os.utime(root / name, (now - age * 3600, now - age * 3600))

    def start():
        app = launch(root, sort_by="name")
        app.wait_for_line(r"^trace albums 2 \d+$", timeout=30)
        app.wait_for_window(r"^All Photos$", timeout=30)
        app.wait_for_line(r"^trace visible-thumbnails \d+ \d+$", timeout=30)
        return app

    app = start()
    # No favourite yet: no Favourites album (four albums in the switcher).
    app.wait_for_line(r"^trace switcher-album 4 1 \d+$")
    assert not app.lines_matching(r"^trace switcher-album 5 ")
    # The second photo by name in the sea album ("b.jpg").
    mark = app.mark()
    app.key("alt+3")
    app.wait_for_title(r"^sea$")
    app.wait_for_line(r"^trace album-shown 2 \d+$", since=mark)
    app.key("Home", "Right")
    app.key("ctrl+period")
    app.wait_for_line(r"^trace favourite file://.*/sea/b\.jpg 1 \d+$", since=mark)
    app.wait_for_line(r"^trace favourites 1 \d+$", since=mark)
    app.wait_for_line(r"^trace switcher-album 5 1 \d+$", since=mark)
    assert app.quit() == 0

    # Again: the favourite is read from its sidecar, and its album lists it alone.
    app = start()
    app.wait_for_line(r"^trace favourites 1 \d+$")
    app.wait_for_line(r"^trace switcher-album 5 1 \d+$")
    mark = app.mark()
    app.key("alt+5")
    app.wait_for_title(r"^Favourites$")
    app.wait_for_line(r"^trace album-shown 1 \d+$", since=mark)
    # Searching within Favourites finds favourites only.
    app.key("ctrl+f")
    app.wait_for_line(r"^trace shown GtkSearchBar search \d+$", since=mark)
    search_for(app, "sea", 1)
    assert app.quit() == 0


def test_marks_another_app_changes_in_a_photo_shown_are_read_again(launch, tmp_path):
    folder = folder_of_jpegs(tmp_path, "changed", ["embedded.jpg", "plain.jpg"])
    exiftool("-overwrite_original", "-XMP:Subject=lighthouse", "-XMP:Rating=2", str(folder / "embedded.jpg"))
    app = open_folder(launch, folder, count=2, sort_by="name")
    app.wait_for_line(r"^trace marks-read file://.*/embedded\.jpg 0 2 1 \d+$")
    # Another app rewrites the photo with other marks while it is shown.
    mark = app.mark()
    exiftool("-overwrite_original", "-XMP:Subject=harbour", "-XMP:Rating=4", str(folder / "embedded.jpg"))
    app.wait_for_line(r"^trace marks-read file://.*/embedded\.jpg 0 4 1 \d+$", since=mark)
    app.key("ctrl+f")
    search_for(app, "harbour", 1)
    clear_search(app, 2)
    app.key("ctrl+f")
    search_for(app, "lighthouse", 0)
    assert app.quit() == 0


def test_a_favourite_set_while_a_search_reads_every_photos_marks_is_written_before_they_all_are(launch, tmp_path):
    """A search asks for the marks of the whole folder (8,000 photos here, read from the
    files: no index yet); a photo made a favourite meanwhile is written between two of those
    reads, not after the last of them (the marks of the last photo, named last)."""
    folder = tmp_path / "many"
    folder.mkdir()
    source = make_solid(tmp_path / "source.jpg", "blue", size="64x48")
    names = [f"photo-{n:05d}.jpg" for n in range(8000)]
    for name in names:
        shutil.copy(source, folder / name)
    exiftool("-overwrite_original", "-XMP:Rating=3", str(folder / names[-1]))
    app = open_folder(launch, folder, count=len(names), sort_by="name")
    app.key("ctrl+f")
    search_for(app, "p", len(names))
    mark = app.mark()
    clear_search(app, len(names))
    app.wait_for_line(r"^trace hidden GtkSearchBar search \d+$", since=mark)
    app.key("Home")
    app.key("ctrl+period")
    favourite = r"^trace favourite file://.*/photo-00000\.jpg 1 \d+$"
    last = r"^trace marks-read file://.*/photo-07999\.jpg 0 3 0 \d+$"
    app.wait_for_line(favourite, since=mark, timeout=60)
    app.wait_for_line(last, since=mark, timeout=60)
    lines = list(app.lines)
    place = {pattern: next(n for n in range(mark, len(lines)) if re.search(pattern, lines[n])) for pattern in (favourite, last)}
    assert place[favourite] < place[last], "the favourite was written after every photo's marks were read"
    assert app.quit() == 0


def test_sidecars_another_app_writes_beside_photos_shown_are_read(launch, tmp_path):
    """While the folder is shown, another app makes `a.jpg.xmp` (darktable's and digiKam's
    name) and `b.xmp` (Lightroom's) beside two photos, changes one and removes the other: the
    photos' marks follow (tiles, search). A sidecar the app writes itself (a temporary name,
    then renamed) is not read again."""
    folder = folder_of_jpegs(tmp_path, "beside", ["a.jpg", "b.jpg", "c.jpg"])
    # Their own stars first, read before any sidecar is there.
    for name in ("a.jpg", "b.jpg"):
        exiftool("-overwrite_original", "-XMP:Rating=1", str(folder / name))
    app = open_folder(launch, folder, count=3, sort_by="name")
    app.wait_for_line(r"^trace marks-read file://.*/a\.jpg 0 1 0 \d+$")
    app.wait_for_line(r"^trace marks-read file://.*/b\.jpg 0 1 0 \d+$")
    # Made from a photo without marks: exiftool's -o copies the source's own over those given.
    plain = make_solid(tmp_path / "plain.jpg", "blue")
    mark = app.mark()
    exiftool("-o", str(folder / "a.jpg.xmp"), "-XMP:Rating=3", "-XMP:Subject=seagull", str(plain))
    app.wait_for_line(r"^trace marks-read file://.*/a\.jpg 0 3 1 \d+$", since=mark)
    exiftool("-o", str(folder / "b.xmp"), "-XMP:Rating=2", str(plain))
    app.wait_for_line(r"^trace marks-read file://.*/b\.jpg 0 2 0 \d+$", since=mark)
    exiftool("-overwrite_original", "-XMP:Rating=4", str(folder / "b.xmp"))
    app.wait_for_line(r"^trace marks-read file://.*/b\.jpg 0 4 0 \d+$", since=mark)

    # The app's own write: its monitor sees the sidecar renamed into place, and reads nothing.
    mark = app.mark()
    app.key("End")
    app.key("ctrl+5")
    app.wait_for_line(r"^trace rated file://.*/c\.jpg 5 \d+$", since=mark)
    # Another app's change after it, read as it comes: by then the app's own was seen.
    exiftool("-overwrite_original", "-XMP:Subject+=gannet", str(folder / "a.jpg.xmp"))
    app.wait_for_line(r"^trace marks-read file://.*/a\.jpg 0 3 2 \d+$", since=mark)
    assert not app.lines_matching(r"^trace marks-read file://.*/c\.jpg ", since=mark), "the app read its own sidecar again"
    assert exiftool("-s3", "-XMP:Rating", str(folder / "c.jpg.xmp")) == "5"

    app.key("ctrl+f")
    search_for(app, "seagull", 1)
    clear_search(app, 3)
    mark = app.mark()
    (folder / "a.jpg.xmp").unlink()
    app.wait_for_line(r"^trace marks-read file://.*/a\.jpg 0 1 0 \d+$", since=mark)
    app.key("ctrl+f")
    search_for(app, "seagull", 0)
    assert app.quit() == 0


def test_a_windows_reading_of_every_photos_marks_stops_when_it_closes(launch, launch_beside, tmp_path):
    """A window searching a folder of 8,000 photos reads every photo's marks (and cameras and
    dates) a step at a time; closed mid-way, its reading stops (the step under way may end),
    while the app's other window goes on: marks set there are written with no more steps
    between them, not every photo's marks are read, and the app's jobs go back to what they
    were before the window opened."""
    from test_remote_jobs import jobs_until, running_jobs
    here = folder_of_jpegs(tmp_path, "here", ["a.jpg"])
    app = open_folder(launch, here, count=1)
    last = running_jobs(app)
    before = jobs_until(app, lambda n: n == last or n == 0, "the first window's jobs settling")
    folder = tmp_path / "many"
    folder.mkdir()
    source = make_solid(tmp_path / "source.jpg", "blue", size="64x48")
    names = [f"photo-{n:05d}.jpg" for n in range(8000)]
    for name in names:
        shutil.copy(source, folder / name)
    mark = app.mark()
    other = launch_beside(app, folder)
    app.wait_for_window(r"^many$", timeout=30)
    app.wait_for_line(rf"^trace enumerated {len(names)} \d+$", since=mark, timeout=60)
    app.wait_for_line(r"^trace visible-thumbnails \d+ \d+$", since=mark, timeout=60)
    assert other.wait_exit(30) == 0, f"the second invocation {other.describe_exit()}"
    app.key("ctrl+f")
    search_for(app, "p", len(names))
    mark = app.mark()
    # A step of the search's reading (500 photos), not a tile's photo.
    app.wait_for_line(r"^trace marks-step 500 \d+$", since=mark, timeout=60)
    app.key("ctrl+w")
    app.wait_for_window(r"^here$", timeout=10)

    # Two marks written in the other window, each behind the step then under way.
    closed = app.mark()
    app.key("Home")
    app.key("ctrl+4")
    four = r"^trace rated file://.*/a\.jpg 4 \d+$"
    app.wait_for_line(four, since=closed, timeout=60)
    app.key("ctrl+5")
    five = r"^trace rated file://.*/a\.jpg 5 \d+$"
    app.wait_for_line(five, since=closed, timeout=60)
    lines = list(app.lines)
    place = {pattern: next(n for n in range(closed, len(lines)) if re.search(pattern, lines[n])) for pattern in (four, five)}
    steps = [line for line in lines[place[four]:place[five]] if re.search(r"^trace (marks|facts)-step ", line)]
    assert not steps, f"the closed window's reading went on: {steps}"
    jobs_until(app, lambda n: n == before, f"the closed window's reading ended ({before} jobs before it opened)")
    read = sum(int(m.group(1)) for m in app.lines_matching(r"^trace marks-step (\d+) \d+$", since=mark))
    assert read < len(names), f"the closed window's reading read every photo's marks ({read})"
    assert exiftool("-s3", "-XMP:Rating", str(here / "a.jpg.xmp")) == "5"
    assert app.quit() == 0


def test_the_properties_panel_follows_the_marks_of_the_photo_shown(launch, tmp_path):
    """The viewer's properties panel shows the photo's marks, and shows them anew when
    another app writes its sidecar, or when they are set here, while it is open."""
    folder = folder_of_jpegs(tmp_path, "panel", ["a.jpg", "b.jpg"])
    app = open_folder(launch, folder, count=2, sort_by="name")
    mark = app.mark()
    app.key("Home", "Return")
    app.wait_for_line(r"^trace page 0 \d+$", since=mark)
    app.key("alt+Return")
    app.wait_for_line(r"^trace properties-marks file://.*/a\.jpg 0 0 0 \d+$", since=mark)
    plain = make_solid(tmp_path / "plain.jpg", "blue")
    exiftool("-o", str(folder / "a.jpg.xmp"), "-XMP:Rating=3", "-XMP:Subject=seagull", str(plain))
    app.wait_for_line(r"^trace properties-marks file://.*/a\.jpg 0 3 1 \d+$", since=mark)
    app.key("ctrl+5")
    app.wait_for_line(r"^trace properties-marks file://.*/a\.jpg 0 5 1 \d+$", since=mark)
    assert app.quit() == 0
