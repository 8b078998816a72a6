"""Every hostile or unusual file in the shared corpus gets a tile, and nothing hangs or crashes.

Skipped with a printed reason where ../shared/corpus is absent (a user's machine).
"""

import os
import re
import stat
import time
from pathlib import Path

import pytest

from harness import COLOURS, Deadline, open_folder, tiles_check, wait_for_screen

from harness import CORPUS

IMAGE_SUFFIXES = {
    ".png", ".jpg", ".jpeg", ".jpe", ".gif", ".webp", ".avif", ".heic", ".heif", ".tif", ".tiff",
    ".bmp", ".ico", ".cur", ".svg", ".svgz", ".tga", ".ppm", ".pgm", ".pbm", ".pnm", ".xpm",
    ".xbm", ".apng", ".jxl", ".ani", ".icns", ".qtif", ".jp2",
}


# The browser's own peak resident memory (decoding happens in decoder processes, each under
# its own memory limit): a decoded bomb never reaches it.
PEAK_MEMORY_MB = 300


def folders_with_files(*parts):
    found = []
    for part in parts:
        root = CORPUS / part
        if not root.is_dir():
            continue
        for folder, _dirs, files in os.walk(root):
            if any((Path(folder) / f).is_file() for f in files):
                found.append(Path(folder))
    return sorted(found)


CORPUS_FOLDERS = folders_with_files("bad", "formats")
PARAMS = ([pytest.param(f, id=str(f.relative_to(CORPUS))) for f in CORPUS_FOLDERS] or
          [pytest.param(None, id="no-corpus",
                        marks=pytest.mark.skip(reason=f"the shared corpus is absent ({CORPUS})"))])


def regular_files(folder: Path) -> list[Path]:
    """The regular files in `folder` and the folders below it (All Photos shows them all),
    hidden folders and links to folders left out as the app leaves them out."""
    found = []
    for parent, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        found += [Path(parent) / f for f in files if stat.S_ISREG((Path(parent) / f).lstat().st_mode)]
    return found


def visit_every_tile(app, count: int, timeout: float = 60) -> dict[int, str]:
    """Scrolls with Page_Down (and End when stuck) until every index 0..count-1 has printed
    tile-loaded or tile-failed; returns index → outcome."""
    deadline = Deadline(timeout)
    stuck = 0
    while True:
        done = app.tiles_accounted()
        missing = [i for i in range(count) if i not in done]
        if not missing:
            return done
        if deadline.expired():
            raise AssertionError(
                f"after {timeout} s, {len(missing)} of {count} tiles never loaded or failed: "
                f"{missing[:20]}{'…' if len(missing) > 20 else ''}; stderr ends:\n{app.tail()}")
        mark = app.mark()
        app.key("End" if stuck >= 2 else "Page_Down")
        try:
            app.wait_for_line(r"^trace (visible-thumbnails|tile-(loaded|failed)) ", since=mark,
                              timeout=min(3, deadline.remaining()) or 0.1)
            stuck = 0
        except AssertionError:
            if app.process.poll() is not None:
                raise
            stuck += 1


@pytest.mark.corpus
@pytest.mark.parametrize("folder", PARAMS)
def test_corpus_folder_opens_every_tile_and_quits_cleanly(launch, folder):
    files = regular_files(folder)
    by_name = [p for p in files if p.suffix.lower() in IMAGE_SUFFIXES]
    app = launch(folder, sort_by="name")  # indexes stay put: no re-sort as dates arrive
    count = int(app.wait_for_line(r"^trace enumerated (\d+) \d+$", timeout=30).group(1))
    assert count <= len(files), f"{count} tiles for {len(files)} regular files"
    if by_name:
        assert count >= 1, f"no tiles, yet {len(by_name)} files are named as images"
    # A folder with subfolder albums opens on All Photos.
    app.wait_for_window(rf"^({re.escape(folder.name)}|All Photos)$")
    if count:
        app.wait_for_line(r"^trace visible-thumbnails \d+ \d+$", timeout=60)
        done = visit_every_tile(app, count)
        loaded = sum(1 for outcome in done.values() if outcome == "loaded")
        print(f"{folder.relative_to(CORPUS)}: {count} tiles ({len(files)} files), {loaded} loaded, "
              f"{count - loaded} failed")
    peak = app.peak_memory_mb()
    print(f"peak memory {peak} MB")
    rc = app.quit(timeout=20)
    assert rc == 0, f"exit status {rc} after Ctrl+Q"
    assert peak is not None and peak <= PEAK_MEMORY_MB, (
        f"peak resident memory {peak} MB > {PEAK_MEMORY_MB} MB: a hostile file is decoded at full size")


def test_special_files_are_skipped_without_hanging(launch, photo_folder):
    folder = photo_folder("special-files", {"a-red.png": "red", "b-blue.png": "blue"})
    os.mkfifo(folder / "x.jpg")
    (folder / "loop.jpg").symlink_to("loop.jpg")
    (folder / "y.jpg").mkdir()
    started = time.monotonic()
    app = open_folder(launch, folder, count=2)
    print(f"visible-thumbnails after {time.monotonic() - started:.1f} s")
    app.wait_for_line(r"^gphotobrowse: skipped “x\.jpg”: ")
    app.wait_for_line(r"^gphotobrowse: skipped “loop\.jpg”: ")
    wanted = {k: COLOURS[k] for k in ("red", "blue")}
    wait_for_screen(app, tiles_check(wanted), what="the red and blue tiles")
    assert app.quit() == 0


def test_an_empty_file_named_as_a_photo_gets_a_broken_tile(launch, photo_folder):
    folder = photo_folder("with-empty-file", {"a-red.png": "red"})
    (folder / "b-empty.jpg").write_bytes(b"")
    app = open_folder(launch, folder, sort_by="name")
    count = int(app.wait_for_line(r"^trace enumerated (\d+) \d+$").group(1))
    assert count == 2, "the empty b-empty.jpg is left out of the grid instead of shown as a broken tile"
    app.wait_for_line(r"^trace tile-failed 1 \d+$")
    assert app.quit() == 0
