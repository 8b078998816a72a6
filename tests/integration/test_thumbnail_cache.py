"""The thumbnail cache shared with GNOME, checked against GNOME's own client.

gphotobrowse writes thumbnails where GNOME's file manager looks, as it expects them, and
uses the thumbnails GNOME made instead of decoding the photo again. Our side runs through
`gphotobrowse-bench make-thumbnails` (the app's ThumbnailProvider); GNOME's side is
libgnome-desktop's GnomeDesktopThumbnailFactory (Debian: gir1.2-gnomedesktop-3.0), run in a
subprocess by gnome_thumbnail_factory.py. Both get a temporary XDG_CACHE_HOME: nothing
touches the real ~/.cache.

Run with Debian's python: /usr/bin/python3 -m pytest tests/integration
The bench binary comes from $GPHOTOBROWSE_BENCH, else from `swift build --show-bin-path`
(build it first: swift build --product gphotobrowse-bench).
"""
import hashlib
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

import gi

gi.require_version("GdkPixbuf", "2.0")
gi.require_version("Gio", "2.0")
from gi.repository import GdkPixbuf, Gio  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
FACTORY = Path(__file__).with_name("gnome_thumbnail_factory.py")
EDGES = {"normal": 128, "large": 256, "x-large": 512, "xx-large": 1024}
VERSION = "0.1.0"


def _has_gnome_desktop():
    try:
        gi.require_version("GnomeDesktop", "3.0")
        return True
    except ValueError:
        return False


pytestmark = pytest.mark.skipif(
    not _has_gnome_desktop(), reason="GNOME's thumbnail client is missing: install gir1.2-gnomedesktop-3.0"
)


@pytest.fixture
def env(tmp_path):
    """The environment for both sides: a cache home of this test's own."""
    environment = dict(os.environ)
    environment["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    return environment


def uri_of(path):
    """The URI as GIO spells it: the cache is keyed by its exact bytes."""
    return Gio.File.new_for_path(str(path)).get_uri()


def mtime_of(path):
    return int(os.stat(path).st_mtime)


def make_photo(path, width=1200, height=800):
    """A JPEG with some detail (a gradient and a square), so thumbnails are not flat."""
    pixbuf = GdkPixbuf.Pixbuf.new(GdkPixbuf.Colorspace.RGB, False, 8, width, height)
    pixbuf.fill(0x336699FF)
    GdkPixbuf.Pixbuf.new_subpixbuf(pixbuf, width // 4, height // 4, width // 2, height // 2).fill(0xFFCC00FF)
    pixbuf.savev(str(path), "jpeg", ["quality"], ["90"])
    return path


def make_thumbnails(bench, env, *args):
    """Runs our pipeline; returns its output lines."""
    result = subprocess.run([bench, "make-thumbnails", *map(str, args)], env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode in (0, 1), result.stderr
    return result.stdout.splitlines()


def gnome(env, *args):
    """Runs GNOME's thumbnail factory in a process of its own, with this test's cache home."""
    result = subprocess.run(
        [sys.executable, str(FACTORY), *map(str, args)], env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def text_keys(path):
    return GdkPixbuf.Pixbuf.new_from_file(str(path)).get_options()


@pytest.mark.parametrize("size", ["normal", "large", "x-large", "xx-large"])
def test_gnome_finds_and_accepts_our_thumbnails(bench, env, tmp_path, size):
    photo = make_photo(tmp_path / "photo.jpg")
    uri, mtime = uri_of(photo), mtime_of(photo)

    assert make_thumbnails(bench, env, "--size", size, photo) == [f"ok {uri}"]

    cache = Path(env["XDG_CACHE_HOME"])
    expected = cache / "thumbnails" / size / (hashlib.md5(uri.encode()).hexdigest() + ".png")
    assert gnome(env, "lookup", size, uri, mtime) == str(expected)
    # Valid for this version of the file only.
    assert gnome(env, "lookup", size, uri, mtime + 1) is None

    keys = text_keys(expected)
    assert keys["tEXt::Thumb::URI"] == uri
    assert keys["tEXt::Thumb::MTime"] == str(mtime)
    assert keys["tEXt::Thumb::Size"] == str(os.stat(photo).st_size)
    assert keys["tEXt::Thumb::Image::Width"] == "1200"
    assert keys["tEXt::Thumb::Image::Height"] == "800"
    assert keys["tEXt::Software"] == f"gphotobrowse {VERSION}"
    thumbnail = GdkPixbuf.Pixbuf.new_from_file(str(expected))
    edge = min(EDGES[size], 1200)
    assert (thumbnail.get_width(), thumbnail.get_height()) == (edge, round(edge * 800 / 1200))

    assert stat.S_IMODE(os.stat(expected).st_mode) == 0o600
    for folder in (cache / "thumbnails", expected.parent):
        assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700
    assert sorted(p.name for p in expected.parent.iterdir()) == [expected.name]  # no temporary file left

    # And run again, ours finds its own thumbnail.
    assert make_thumbnails(bench, env, "--size", size, photo) == [f"cached {uri}"]


def test_failures_are_recorded_for_us_and_retried_when_the_file_changes(bench, env, tmp_path):
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"\xff\xd8 this is not a JPEG" * 10)
    uri, mtime = uri_of(broken), mtime_of(broken)

    [line] = make_thumbnails(bench, env, broken)
    assert line.startswith(f"failed {uri}: ")
    entry = Path(env["XDG_CACHE_HOME"]) / "thumbnails" / "fail" / f"gphotobrowse-{VERSION}" / (
        hashlib.md5(uri.encode()).hexdigest() + ".png"
    )
    keys = text_keys(entry)
    assert keys["tEXt::Thumb::URI"] == uri and keys["tEXt::Thumb::MTime"] == str(mtime)
    failed = GdkPixbuf.Pixbuf.new_from_file(str(entry))
    assert (failed.get_width(), failed.get_height()) == (1, 1)
    assert stat.S_IMODE(os.stat(entry).st_mode) == 0o600

    # Our failure folder is our own (the standard gives each program one): GNOME looks in
    # fail/gnome-thumbnail-factory, so it does not see this entry, and must not.
    assert gnome(env, "has-failed", "large", uri, mtime) is False

    # Respected: not tried again while the file is unchanged.
    [again] = make_thumbnails(bench, env, broken)
    assert again.startswith(f"failed {uri}: Could not be decoded earlier")

    # The file changes: tried again (and, still broken, recorded again).
    os.utime(broken, (mtime + 10, mtime + 10))
    [retried] = make_thumbnails(bench, env, broken)
    assert retried.startswith(f"failed {uri}: ") and "earlier" not in retried
    assert text_keys(entry)["tEXt::Thumb::MTime"] == str(mtime + 10)


def test_we_use_gnomes_thumbnails_without_decoding_the_photo(bench, env, tmp_path):
    photo = make_photo(tmp_path / "photo.jpg")
    uri, mtime = uri_of(photo), mtime_of(photo)

    made = gnome(env, "generate", "large", uri, "image/jpeg", mtime)
    assert made and Path(made).is_file()
    assert text_keys(made)["tEXt::Software"] != f"gphotobrowse {VERSION}"

    # Garbage in place of the photo, same length, same modification time: only a cache hit
    # can produce a thumbnail now.
    before = os.stat(photo)
    photo.write_bytes(b"\x00garbage" * (before.st_size // 8) + b"\x00" * (before.st_size % 8))
    os.utime(photo, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert os.stat(photo).st_size == before.st_size

    assert make_thumbnails(bench, env, "--size", "large", photo) == [f"cached {uri}"]
    # A smaller size is shrunk from GNOME's large one, still without reading the photo.
    assert make_thumbnails(bench, env, "--size", "normal", photo) == [f"cached {uri}"]
    # Where GNOME made nothing (no larger size to shrink), the garbage is read, and fails:
    # the hits above came from the cache.
    [line] = make_thumbnails(bench, env, "--size", "xx-large", photo)
    assert line.startswith(f"failed {uri}: ")
    # GNOME's thumbnail is left as it was.
    assert text_keys(made)["tEXt::Thumb::MTime"] == str(mtime)


def test_folders_are_done_photo_by_photo_in_name_order(bench, env, tmp_path):
    folder = tmp_path / "photos"
    folder.mkdir()
    make_photo(folder / "IMG_10.jpg", 300, 200)
    make_photo(folder / "IMG_2.jpg", 200, 300)
    (folder / "notes.txt").write_text("not a photo")
    lines = make_thumbnails(bench, env, folder)
    assert lines == [f"ok {uri_of(folder / 'IMG_2.jpg')}", f"ok {uri_of(folder / 'IMG_10.jpg')}"]
    assert make_thumbnails(bench, env, folder) == [line.replace("ok ", "cached ", 1) for line in lines]
