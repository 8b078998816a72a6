"""The search bar as a person uses it on what the photos' files say: a camera model from a
photo's EXIF is found by typing it; the date taken and photos-or-videos choices filter."""

import shutil
import subprocess
import time
from pathlib import Path

import pytest

from harness import make_solid, open_folder, set_times
from made_videos import GST_LAUNCH, make_video

pytestmark = pytest.mark.skipif(shutil.which("exiftool") is None, reason="exiftool is not installed")


def exiftool(*args: str) -> str:
    return subprocess.run(["exiftool", *args], check=True, capture_output=True, text=True).stdout.strip()


def folder_of_jpegs(tmp_path: Path, name: str, photos: list[str]) -> Path:
    folder = tmp_path / name
    folder.mkdir()
    for photo in photos:
        make_solid(folder / photo, "blue")
    set_times(folder, photos)
    return folder


def search_for(app, text: str, count: int) -> None:
    """Types `text` into the search bar and waits for its count."""
    mark = app.mark()
    app.x.xdotool("type", "--delay", "30", text)
    app.wait_for_line(rf"^trace filtered {count} \d+$", since=mark)


def test_a_camera_model_is_found_by_searching(launch, tmp_path):
    folder = folder_of_jpegs(tmp_path, "cameras", ["a.jpg", "b.jpg", "c.jpg"])
    exiftool("-overwrite_original", "-Make=Panasonic", "-Model=DC-GX9", str(folder / "b.jpg"))
    exiftool("-overwrite_original", "-Make=Canon", "-Model=Canon EOS R5", str(folder / "c.jpg"))
    app = open_folder(launch, folder, count=3, sort_by="name")
    app.key("ctrl+f")
    app.wait_for_line(r"^trace shown GtkSearchBar search \d+$")
    # "Panasonic DC-GX9": the make and the model, as Properties names the camera.
    search_for(app, "panasonic gx9", 1)
    mark = app.mark()
    app.key("Escape")
    app.wait_for_line(r"^trace filtered 3 \d+$", since=mark)
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
    app.key("ctrl+f")
    app.wait_for_line(r"^trace shown GtkSearchBar search \d+$")
    # The last period, before last year: the old photo and the video.
    mark = app.mark()
    choose(app, 3, ["End"])
    app.wait_for_line(r"^trace filtered 2 \d+$", since=mark)
    mark = app.mark()
    app.key("Escape")
    app.wait_for_line(r"^trace filtered 4 \d+$", since=mark)
    # Videos only, then photos only.
    app.key("ctrl+f")
    mark = app.mark()
    choose(app, 4, ["End"])
    app.wait_for_line(r"^trace filtered 1 \d+$", since=mark)
    mark = app.mark()
    choose(app, 0, ["Up"])
    app.wait_for_line(r"^trace filtered 3 \d+$", since=mark)
    assert app.quit() == 0
