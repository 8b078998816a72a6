"""Photos are decoded in decoder processes: a file that crashes its decoder, hangs it or makes
it allocate without bound costs its own tile and nothing else.

The app runs with its decoder's test modes on (files that start with a marker misbehave), a
3 s decode time limit and a 512 MiB memory limit per decoder process.
"""

import hashlib
import os
import shutil
import subprocess
import time
from pathlib import Path
from urllib.parse import quote

from harness import COLOURS, Deadline, make_solid, tiles_check, wait_for_screen

class Markers:
    CRASH = "GPHOTOBROWSE-TEST-CRASH"
    HANG = "GPHOTOBROWSE-TEST-HANG"
    ALLOCATE = "GPHOTOBROWSE-TEST-ALLOCATE"


MARKERS = {
    "c-crash.jpg": Markers.CRASH,
    "d-hang.jpg": Markers.HANG,
    "e-hog.jpg": Markers.ALLOCATE,
}
TEST_MODES = {
    "GPHOTOBROWSE_DECODER_TEST_MODES": "1",
    "GPHOTOBROWSE_DECODE_TIMEOUT": "3",
    "GPHOTOBROWSE_DECODER_MEMORY": "512",
}


def failure_records(app, path: Path) -> list[Path]:
    """Where the app recorded that `path` could not be thumbnailed (freedesktop fail folder)."""
    uri = "file://" + quote(str(path))
    cache = Path(app.environment["XDG_CACHE_HOME"]) / "thumbnails" / "fail"
    digest = hashlib.md5(uri.encode()).hexdigest()
    return list(cache.glob(f"*/{digest}.png"))


def failure_record(app, path: Path) -> Path:
    found = failure_records(app, path)
    assert found, f"no failure record for {path}"
    return found[0]


def test_a_decoder_that_crashes_hangs_or_hogs_costs_only_its_tile(launch, photo_folder):
    folder = photo_folder("hostile", {"a-red.png": "red", "b-blue.png": "blue", "f-green.png": "green"})
    for name, marker in MARKERS.items():
        (folder / name).write_text(marker)
    app = launch(folder, sort_by="name", extra_env={**TEST_MODES, "G_MESSAGES_DEBUG": "gphotobrowse"})
    count = int(app.wait_for_line(r"^trace enumerated (\d+) \d+$", timeout=30).group(1))
    assert count == 6
    app.wait_for_window("hostile")

    deadline = Deadline(60)
    while len(app.tiles_accounted()) < count and not deadline.expired():
        assert app.process.poll() is None, f"the browser died: {app.describe_exit()}\n{app.tail()}"
        time.sleep(0.2)
    outcomes = app.tiles_accounted()
    assert outcomes == {0: "loaded", 1: "loaded", 2: "failed", 3: "failed", 4: "failed", 5: "loaded"}, app.tail()

    # Each misbehaving decoder was ended and replaced, and said why in the log.
    for name in MARKERS:
        app.wait_for_line(rf"^gphotobrowse: .*{name}: the decoder .*; decoding goes on in a new process$", timeout=5)
    app.wait_for_line(r"^gphotobrowse-INFO: [\d:.]+: Decoding runs in separate processes, confined by: ", timeout=5)

    # The other photos show; the files that crashed or exhausted their decoder are remembered
    # as failures, with the reason; the one that ran out of time is not (a busy machine could
    # be the cause), so it will be tried again.
    wanted = {k: COLOURS[k] for k in ("red", "blue", "green")}
    wait_for_screen(app, tiles_check(wanted), what="the red, blue and green tiles")
    for name in ("c-crash.jpg", "e-hog.jpg"):
        record = failure_record(app, folder / name).read_bytes()
        assert b"Could not be decoded safely." in record, f"{name}: {record[:200]!r}"
    assert not failure_records(app, folder / "d-hang.jpg"), "a timeout was recorded as a lasting failure"

    # The browser is unharmed: a photo added now is decoded by the recovered pool.
    make_solid(folder / "g-yellow.png", "yellow", size="1600x1200")
    app.wait_for_line(r"^trace tile-loaded 6 \d+$", timeout=30)
    assert app.quit() == 0, app.describe_exit()


def bubblewrap_runs_here() -> bool:
    """Whether bubblewrap can make a sandbox on this machine (not in a chroot, user
    namespaces allowed)."""
    if not shutil.which("bwrap"):
        return False
    done = subprocess.run(["bwrap", "--unshare-all", "--ro-bind", "/usr", "/usr", "--symlink", "usr/bin", "/bin",
                           "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64", "/usr/bin/true"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=20)
    return done.returncode == 0


def test_the_browser_reports_how_decoding_is_confined(launch, photo_folder):
    folder = photo_folder("plain", {"a-red.png": "red"})
    # The report is GLib's info log, written when asked for (G_MESSAGES_DEBUG).
    app = launch(folder, extra_env={"G_MESSAGES_DEBUG": "gphotobrowse"})
    line = app.wait_for_line(r"^gphotobrowse-INFO: [\d:.]+: Decoding runs in separate processes, confined by: (.*)$", timeout=30)
    print(line.group(0))
    assert "seccomp" in line.group(1) and "limits" in line.group(1)
    if bubblewrap_runs_here():
        assert line.group(1).startswith("bubblewrap"), "bubblewrap runs on this machine, yet the decoders ran without it"
    else:
        print("bubblewrap cannot make a sandbox here (a chroot, or no user namespaces): not required")
    app.wait_for_line(r"^trace tile-loaded 0 ", timeout=30)
    assert app.quit() == 0


def test_a_thumbnail_that_ran_out_of_time_is_asked_for_again(launch, tmp_path):
    """A decode stopped at the time limit fails its tile for now only: once the photo's tile
    is bound again (scrolled away and back) after the loader's retry delay, it is decoded
    anew (and here runs out of time again), and no failure is ever recorded for it."""
    folder = tmp_path / "slow"
    folder.mkdir()
    grey = make_solid(tmp_path / "grey.png", (128, 128, 128)).read_bytes()
    count = 600  # a hundred rows: far more than GTK keeps bound, so End unbinds the first tile
    for i in range(1, count):
        (folder / f"photo-{i:03d}.png").write_bytes(grey)
    slow = folder / "photo-000.png"
    slow.write_text(Markers.HANG)
    app = launch(folder, sort_by="name", extra_env=TEST_MODES)
    assert int(app.wait_for_line(r"^trace enumerated (\d+) \d+$", timeout=30).group(1)) == count
    app.wait_for_window("slow")
    app.wait_for_line(r"^trace tile-failed 0 \d+$", timeout=60)
    assert not failure_records(app, slow), "a timeout was recorded as a lasting failure"

    # Scroll away and back until the first tile, bound again after the retry delay, asks anew
    # (the key presses are paced: GTK must lay the grid out at the end before it goes back).
    def attempts() -> int:
        return len(app.lines_matching(r"^trace tile-failed 0 \d+$"))

    deadline = Deadline(60)
    while attempts() < 2 and not deadline.expired():
        app.key("End")
        time.sleep(0.5)
        mark = app.mark()
        app.key("Home")
        try:
            app.wait_for_line(r"^trace tile-failed 0 \d+$", since=mark, timeout=10)
        except AssertionError:
            pass
    assert attempts() >= 2, f"the timed-out thumbnail was not asked for again\n{app.tail()}"
    app.wait_for_line(r"^gphotobrowse: .*photo-000.png: the decoder did not finish within 3 s", timeout=5)
    assert len(app.lines_matching(r"photo-000.png: the decoder did not finish")) >= 2
    assert not failure_records(app, slow), "a timeout was recorded as a lasting failure"
    assert app.quit() == 0, app.describe_exit()
