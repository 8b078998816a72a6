"""The app's thumbnail pipeline on real photos and hostile files, run as the app runs it
(`gphotobrowse-bench make-thumbnails`, which calls ThumbnailProvider).

- EXIF orientation: every thumbnail of corpus/orientation matches ImageMagick's
  `convert IN -auto-orient`, by image difference.
- Hostile files: every file of corpus/bad gets a thumbnail or a failure, with no crash, no
  hang, and peak memory under 1 GB (decompression bombs included); special files made here
  (a FIFO, a symbolic-link loop, a folder named like a photo, an unreadable file) fail fast.
"""
import hashlib
import os
import shutil
import subprocess

import pytest

import gi

gi.require_version("Gio", "2.0")
from gi.repository import Gio  # noqa: E402


def make_thumbnails(bench, cache, *targets, timeout=300):
    """Runs make-thumbnails in a cache of its own; returns (exit status, {uri: line})."""
    env = dict(os.environ, XDG_CACHE_HOME=str(cache))
    done = subprocess.run([bench, "make-thumbnails", "--size", "large", *map(str, targets)],
                          env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode in (0, 1), f"make-thumbnails crashed ({done.returncode}):\n{done.stderr[-3000:]}"
    lines = {}
    for line in done.stdout.splitlines():
        word, _, rest = line.partition(" ")
        lines[rest.split(": ")[0] if word == "failed" else rest] = line
    return done.returncode, lines


def thumbnail_path(cache, path):
    uri = Gio.File.new_for_path(str(path)).get_uri()
    return cache / "thumbnails" / "large" / (hashlib.md5(uri.encode()).hexdigest() + ".png")


def difference(a, b, size=64):
    """Normalised RMSE between two images, each turned upright by its own EXIF tag (a PNG
    has none) and fitted into size×size by ImageMagick."""
    def pixels(path):
        ppm = subprocess.run(["convert", str(path), "-auto-orient", "-resize", f"{size}x{size}!",
                              "-colorspace", "sRGB", "-type", "TrueColor", "-depth", "8", "ppm:-"],
                             capture_output=True, check=True).stdout
        return ppm.split(b"\n", 3)[3]  # binary PPM: P6, size, maximum, then the samples
    x, y = pixels(a), pixels(b)
    assert len(x) == len(y)
    return (sum((p - q) * (p - q) for p, q in zip(x, y)) / len(x)) ** 0.5 / 255


@pytest.mark.parametrize("name", [f"{kind}_{n}.jpg" for kind in ("Landscape", "Portrait") for n in range(9)])
def test_thumbnails_are_upright_for_every_exif_orientation(bench, corpus, tmp_path, name):
    photo = corpus / "orientation" / name
    cache = tmp_path / "cache"
    status, lines = make_thumbnails(bench, cache, photo)
    assert status == 0, lines
    ours = thumbnail_path(cache, photo)
    assert ours.is_file()
    reference = tmp_path / "reference.png"
    subprocess.run(["convert", str(photo), "-auto-orient", "-thumbnail", "256x256", str(reference)], check=True)
    assert difference(ours, reference) < 0.06, f"{name}: our thumbnail differs from convert -auto-orient"
    if not name.endswith(("_0.jpg", "_1.jpg")):
        # The check can fail: the photo as stored, not turned upright, does differ.
        raw = tmp_path / "raw.png"
        subprocess.run(["convert", str(photo), "-strip", "-thumbnail", "256x256", str(raw)], check=True)
        assert difference(raw, reference) > 0.06


def test_every_hostile_file_gets_a_thumbnail_or_a_failure_within_memory(bench, corpus, tmp_path):
    folders = sorted({p.parent for p in (corpus / "bad").rglob("*") if p.is_file()})
    cache = tmp_path / "cache"
    env = dict(os.environ, XDG_CACHE_HOME=str(cache))
    # Run under /usr/bin/time -v for the child's peak resident memory.
    done = subprocess.run(["/usr/bin/time", "-v", bench, "make-thumbnails", "--size", "large", *map(str, folders)],
                          env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode in (0, 1), f"make-thumbnails died ({done.returncode}):\n{done.stderr[-3000:]}"
    peak_kib = int(next(line for line in done.stderr.splitlines() if "Maximum resident set size" in line).split()[-1])
    assert peak_kib < 1024 * 1024, f"peak resident memory {peak_kib} KiB while thumbnailing corpus/bad"
    outcomes = [line.split(" ", 1)[0] for line in done.stdout.splitlines()]
    assert outcomes and set(outcomes) <= {"ok", "cached", "failed"}
    assert "failed" in outcomes and "ok" in outcomes
    # The decompression bombs are refused, not decoded.
    bombs = [line for line in done.stdout.splitlines() if "png-bomb" in line or "16000x16000" in line]
    assert bombs, "the corpus's bombs were not listed"
    for line in bombs:
        assert line.startswith(("failed", "ok")), line


def test_special_files_fail_fast(bench, tmp_path):
    folder = tmp_path / "special"
    folder.mkdir()
    subprocess.run(["convert", "-size", "64x48", "xc:#336699", str(folder / "real.png")], check=True)
    os.mkfifo(folder / "x.jpg")
    os.symlink("loop.jpg", folder / "loop.jpg")
    (folder / "y.jpg").mkdir()
    locked = folder / "locked.jpg"
    shutil.copy(folder / "real.png", locked)
    os.chmod(locked, 0)
    cache = tmp_path / "cache"
    targets = [folder / "x.jpg", folder / "loop.jpg", folder / "y.jpg", locked, folder / "real.png"]
    status, lines = make_thumbnails(bench, cache, *targets, timeout=60)  # a hang fails here
    uri = lambda p: Gio.File.new_for_path(str(p)).get_uri()
    assert lines[uri(folder / "real.png")].startswith(("ok", "cached"))
    assert lines[uri(folder / "x.jpg")].startswith("failed")
    assert lines[uri(folder / "loop.jpg")].startswith("failed")
    if os.geteuid() != 0:
        assert lines[uri(locked)].startswith("failed")
    else:
        print("running as root, which reads a mode-000 file: its failure is not checked")
    assert status == 1
