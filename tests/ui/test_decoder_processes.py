"""Photos are decoded in decoder processes: a file that crashes its decoder, hangs it or makes
it allocate without bound costs its own tile and nothing else.

The app runs with its decoder's test modes on (files that start with a marker misbehave), a
3 s decode time limit and a 512 MiB memory limit per decoder process.
"""

import hashlib
import shutil
import subprocess
import time
from pathlib import Path
from urllib.parse import quote

from harness import COLOURS, Deadline, make_solid, tiles_check, wait_for_screen

MARKERS = {
    "c-crash.jpg": "GPHOTOBROWSE-TEST-CRASH",
    "d-hang.jpg": "GPHOTOBROWSE-TEST-HANG",
    "e-hog.jpg": "GPHOTOBROWSE-TEST-ALLOCATE",
}
TEST_MODES = {
    "GPHOTOBROWSE_DECODER_TEST_MODES": "1",
    "GPHOTOBROWSE_DECODE_TIMEOUT": "3",
    "GPHOTOBROWSE_DECODER_MEMORY": "512",
}


def failure_record(app, path: Path) -> Path:
    """Where the app records that `path` could not be thumbnailed (freedesktop fail folder)."""
    uri = "file://" + quote(str(path))
    cache = Path(app.environment["XDG_CACHE_HOME"]) / "thumbnails" / "fail"
    digest = hashlib.md5(uri.encode()).hexdigest()
    found = list(cache.glob(f"*/{digest}.png"))
    assert found, f"no failure record for {uri} under {cache}"
    return found[0]


def test_a_decoder_that_crashes_hangs_or_hogs_costs_only_its_tile(launch, photo_folder):
    folder = photo_folder("hostile", {"a-red.png": "red", "b-blue.png": "blue", "f-green.png": "green"})
    for name, marker in MARKERS.items():
        (folder / name).write_text(marker)
    app = launch(folder, sort_by="name", extra_env=TEST_MODES)
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
    app.wait_for_line(r"^gphotobrowse: Decoding runs in separate processes, confined by: ", timeout=5)

    # The other photos show; the misbehaving files are remembered as failures, with the reason.
    wanted = {k: COLOURS[k] for k in ("red", "blue", "green")}
    wait_for_screen(app, tiles_check(wanted), what="the red, blue and green tiles")
    for name in MARKERS:
        record = failure_record(app, folder / name).read_bytes()
        assert b"Could not be decoded safely." in record, f"{name}: {record[:200]!r}"

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
    app = launch(folder)
    line = app.wait_for_line(r"^gphotobrowse: Decoding runs in separate processes, confined by: (.*)$", timeout=30)
    print(line.group(0))
    assert "seccomp" in line.group(1) and "limits" in line.group(1)
    if bubblewrap_runs_here():
        assert line.group(1).startswith("bubblewrap"), "bubblewrap runs on this machine, yet the decoders ran without it"
    else:
        print("bubblewrap cannot make a sandbox here (a chroot, or no user namespaces): not required")
    app.wait_for_line(r"^trace tile-loaded 0 ", timeout=30)
    assert app.quit() == 0
