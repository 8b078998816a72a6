"""The search bar as a person uses it on what the photos' files say: a camera model from a
photo's EXIF is found by typing it; the date taken and photos-or-videos choices filter; marks
come from the photo index after a restart, and deleting the index loses nothing."""

import os
import shutil
import sqlite3
import time
from pathlib import Path

import pytest

from harness import clear_search, exiftool, folder_of_jpegs, make_solid, open_folder, open_search, search_for, wait_until
from made_videos import GST_LAUNCH, make_video

pytestmark = pytest.mark.skipif(shutil.which("exiftool") is None, reason="exiftool is not installed")


def test_a_camera_model_is_found_by_searching(launch, tmp_path):
    folder = folder_of_jpegs(tmp_path, "cameras", ["a.jpg", "b.jpg", "c.jpg"])
    exiftool("-overwrite_original", "-Make=Panasonic", "-Model=DC-GX9", str(folder / "b.jpg"))
    exiftool("-overwrite_original", "-Make=Canon", "-Model=Canon EOS R5", str(folder / "c.jpg"))
    app = open_folder(launch, folder, count=3, sort_by="name")
    open_search(app)
    # "Panasonic DC-GX9": the make and the model, as Properties names the camera.
    search_for(app, "panasonic gx9", 1)
    clear_search(app, 3)
    app.key("ctrl+f")
    search_for(app, "eos", 1)
    assert app.quit() == 0


def choose(app, tabs: int, moves: list[str]) -> None:
    """Tabs from the search field to a drop-down of the bar, opens it and picks a choice."""
    for _ in range(tabs):
        app.key("Tab")
    mark = app.mark()
    app.key("space")
    app.wait_for_line(r"^trace shown GtkPopover \d+$", since=mark)
    app.key(*moves, "Return")


@pytest.mark.skipif(GST_LAUNCH is None, reason="gst-launch-1.0 is not installed")
def test_the_date_taken_and_kind_choices_filter(launch, tmp_path):
    folder = folder_of_jpegs(tmp_path, "dates", ["a.jpg", "b.jpg", "c.jpg"])
    # a.jpg taken years ago, b.jpg this year, c.jpg says nothing; a video made years ago.
    exiftool("-overwrite_original", "-DateTimeOriginal=2019:06:01 12:00:00", str(folder / "a.jpg"))
    exiftool("-overwrite_original", f"-DateTimeOriginal={time.strftime('%Y')}:01:01 12:00:00", str(folder / "b.jpg"))
    make_video(folder / "clip.mp4", seconds=1, created="2018-05-06T07:08:09Z")
    app = open_folder(launch, folder, count=4, sort_by="name")
    open_search(app)
    # The last period, before last year: the old photo and the video.
    mark = app.mark()
    choose(app, 3, ["End"])
    app.wait_for_line(r"^trace filtered 2 \d+$", since=mark)
    clear_search(app, 4)
    # Videos only, then photos only.
    app.key("ctrl+f")
    mark = app.mark()
    choose(app, 4, ["End"])
    app.wait_for_line(r"^trace filtered 1 \d+$", since=mark)
    mark = app.mark()
    choose(app, 0, ["Up"])
    app.wait_for_line(r"^trace filtered 3 \d+$", since=mark)
    assert app.quit() == 0


def index_rows(cache: Path) -> int:
    database = cache / "gphotobrowse" / "index-v1.sqlite"
    if not database.exists():
        return 0
    with sqlite3.connect(database) as connection:
        return connection.execute("SELECT count(*) FROM photos WHERE sidecar IS NOT NULL").fetchone()[0]


def test_marks_come_from_the_index_after_a_restart_and_deleting_it_loses_nothing(launch, tmp_path):
    folder = folder_of_jpegs(tmp_path, "indexed", ["a.jpg", "b.jpg", "c.jpg"])
    exiftool("-o", str(folder / "a.jpg.xmp"), "-XMP:Rating=5", "-XMP:Subject=harbour", str(folder / "a.jpg"))
    exiftool("-overwrite_original", "-XMP:Subject=lighthouse", str(folder / "b.jpg"))
    cache = tmp_path / "cache"
    env = {"XDG_CACHE_HOME": str(cache)}

    def start_and_find(indexed: int):
        app = open_folder(launch, folder, count=3, sort_by="name", extra_env=env)
        app.wait_for_line(rf"^trace marks-indexed {indexed} \d+$")
        open_search(app)
        search_for(app, "lighthouse", 1)
        clear_search(app, 3)
        app.key("ctrl+f")
        search_for(app, "harbour", 1)
        return app

    # The first run reads the marks (b's from the photo itself) and keeps them in the index.
    app = start_and_find(0)
    app.wait_for_line(r"^trace marks-read file://.*/b\.jpg 0 0 1 \d+$")
    wait_until(lambda: index_rows(cache) == 3, timeout=10, what="the three photos' marks in the index")
    assert app.quit() == 0

    # Again: every photo's marks from the index, none read from a file.
    app = start_and_find(3)
    assert not app.lines_matching(r"^trace marks-read ")
    assert app.quit() == 0

    # The index deleted: the marks are read from the sidecar and the photo again, as before.
    for path in (cache / "gphotobrowse").glob("index-v1.sqlite*"):
        path.unlink()
    app = start_and_find(0)
    app.wait_for_line(r"^trace marks-read file://.*/b\.jpg 0 0 1 \d+$")
    assert app.quit() == 0


def test_the_cameras_of_thousands_of_photos_come_from_the_index_after_a_restart(launch, tmp_path):
    """A folder opened again takes its photos' cameras from the photo index, a slice of 4,096
    at a time: a search finds every one of its 5,000 photos by its camera, none read again."""
    count = 5000
    source = make_solid(tmp_path / "source.jpg", "blue", size="64x48")
    exiftool("-overwrite_original", "-Make=Hasselblad", "-Model=X2D 100C", str(source))
    folder = tmp_path / "thousands"
    folder.mkdir()
    for n in range(count):
        os.link(source, folder / f"photo-{n:05d}.jpg")
    cache = tmp_path / "cache"
    env = {"XDG_CACHE_HOME": str(cache)}

    def cameras_indexed() -> int:
        database = cache / "gphotobrowse" / "index-v1.sqlite"
        if not database.exists():
            return 0
        with sqlite3.connect(database) as connection:
            return connection.execute("SELECT count(*) FROM photos WHERE facts = 1 AND camera LIKE '%X2D%'").fetchone()[0]

    # The first run reads every photo's camera as the search asks for it, and keeps it.
    app = open_folder(launch, folder, count=count, sort_by="name", extra_env=env, timeout=60)
    open_search(app)
    search_for(app, "hasselblad", count)
    wait_until(lambda: cameras_indexed() == count, timeout=60, what="every photo's camera in the index")
    assert app.quit() == 0

    app = open_folder(launch, folder, count=count, sort_by="name", extra_env=env, timeout=60)
    app.wait_for_line(r"^trace marks-indexed \d+ \d+$", timeout=60)
    open_search(app)
    search_for(app, "hasselblad", count)
    assert not app.lines_matching(r"^trace facts-step "), "cameras the index held were read again"
    assert app.quit() == 0


def test_a_place_the_xmp_names_is_found_by_searching(launch, tmp_path):
    folder = folder_of_jpegs(tmp_path, "places", ["a.jpg", "b.jpg", "c.jpg"])
    # b names its city and country in its own XMP, c a place within a city in a sidecar
    # exiftool made; a names none.
    exiftool("-overwrite_original", "-XMP:City=Reykjavík", "-XMP:Country=Iceland", str(folder / "b.jpg"))
    exiftool("-o", str(folder / "c.jpg.xmp"), "-XMP:City=Porto", "-XMP:Location=Ribeira", str(folder / "c.jpg"))
    app = open_folder(launch, folder, count=3, sort_by="name")
    open_search(app)
    # Without its accent, as the city is typed on most keyboards.
    search_for(app, "reykjavik", 1)
    clear_search(app, 3)
    app.key("ctrl+f")
    search_for(app, "ribeira porto", 1)
    assert app.quit() == 0
