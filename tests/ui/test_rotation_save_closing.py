"""Closing a window while Save Rotation is writing into a JPEG: the save is a job of the
window, and the photo is left whole, either untouched byte for byte or fully rotated, never a
partial file, and no temporary file stays in its folder; the app goes on with its other
window and its count of running jobs (`live Job N`) comes back to what it was before.

The save is held in the middle: its decoder processes are stopped (SIGSTOP) as soon as the
checked copy appears beside the photo, so the save waits for the copy's check when the window
closes; they go on (SIGCONT) once it has closed."""

import os
import shutil
import signal
from pathlib import Path

import pytest

from harness import Deadline, convert_tool, open_folder, run, wait_until
from test_remote_jobs import jobs_until, running_jobs
from test_rename_rotation import after_exif, orientation

# Bytes after the image's end, kept as they are by a saved rotation: a photo this large takes
# the save long enough to write and read back its copy that the copy is there to be seen.
TRAILING_BYTES = 160 << 20


def signal_all(pids: list[int], sig: int) -> None:
    for pid in pids:
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            pass


def temporaries(folder: Path) -> list[str]:
    return [name for name in os.listdir(folder) if name != "portrait.jpg"]


@pytest.mark.skipif(shutil.which("exiftool") is None, reason="exiftool (libimage-exiftool-perl) is not installed")
def test_closing_the_window_during_a_rotation_save_leaves_the_photo_whole(launch, launch_beside, photo_folder, tmp_path):
    folder = tmp_path / "turning"
    folder.mkdir()
    photo = folder / "portrait.jpg"
    run([convert_tool(), "-size", "800x1200", "xc:red", "-size", "800x1200", "xc:blue", "+append",
         "-quality", "90", str(photo)])
    run(["exiftool", "-q", "-overwrite_original", "-Orientation=1", "-n", str(photo)])
    with open(photo, "ab") as file:
        file.write(os.urandom(1 << 20) * (TRAILING_BYTES >> 20))
    original = photo.read_bytes()

    here = photo_folder("here", {"a-red.png": "red"})
    app = open_folder(launch, here, count=1)
    last = running_jobs(app)
    before = jobs_until(app, lambda n: n == last or n == 0, "the first window's jobs settling")

    mark = app.mark()
    other = launch_beside(app, folder)
    app.wait_for_window(r"^turning$", timeout=30)
    app.wait_for_line(r"^trace visible-thumbnails 1 \d+$", since=mark, timeout=30)
    assert other.wait_exit(30) == 0, f"the second invocation {other.describe_exit()}"
    mark = app.mark()
    app.key("Home", "Return")
    app.wait_for_line(r"^trace full-image 0 \d+$", since=mark, timeout=30)
    app.key("r")

    stopped: list[int] = []
    try:
        app.key("ctrl+s")
        deadline = Deadline(30)
        while not temporaries(folder):
            assert not app.lines_matching(r"^trace rotation-saved ", since=mark), "the save ended before its copy was seen"
            assert not deadline.expired(), "no copy of the photo was written beside it"
        stopped = list(app.decoder_processes())
        signal_all(stopped, signal.SIGSTOP)
        assert stopped, "no decoder process to hold the save"
        # Held in the middle: the copy is there, the photo not yet replaced.
        assert temporaries(folder), "the save ended before its decoder processes were stopped"
        assert not app.lines_matching(r"^trace rotation-saved ", since=mark)
        during = running_jobs(app)
        assert during > before, f"{during} jobs while the save runs, {before} before the window opened"

        app.key("ctrl+w")
        app.wait_for_window(r"^here$", timeout=10)
    finally:
        signal_all(stopped, signal.SIGCONT)

    jobs_until(app, lambda n: n == before, f"the closed window's save ended ({before} jobs before it opened)")
    wait_until(lambda: not temporaries(folder), "no temporary file left in the folder")
    saved = photo.read_bytes()
    if saved != original:
        assert orientation(photo) == "6", "the photo changed without being turned"
        assert after_exif(saved) == after_exif(original), "the photo was rewritten beyond its EXIF segment"
    assert app.process.poll() is None, f"the app {app.describe_exit()}"
    assert app.quit() == 0
