"""Folders on another machine, reached through GIO's GVfs: a real sshd on a loopback port
(tests/servers/sftp_server.py), GVfs's sftp backend in the app's session bus, the app
connecting by itself (the key in an ssh-agent, as a desktop session has one) and listing,
thumbnailing and showing photos, and a tree's albums, as it does for a local folder; and a
server that refuses, said plainly on the page.

These are the suite's real GVfs backend: they run wherever their packages are (build-aux/
install-deps.sh test installs them), and in CI a missing one fails the run instead of
skipping.
"""

import os
import shutil
import signal
import time
from pathlib import Path

import pytest

from exif_photos import camera_jpeg
from harness import COLOURS, Deadline, tiles_check, wait_for_screen, wait_until
from sftp_server import SftpServer, client_runtime_dir_problem, free_port, missing_tools
from test_albums import expect_tiles, photos, show_album, wait_for_albums, wait_for_switcher

PHOTOS = {"a-red.png": "red", "b-green.png": "green", "c-blue.png": "blue"}
GVFS_PROGRAMS = {"gvfsd-sftp (gvfs-backends)": "/usr/libexec/gvfsd-sftp", "gvfsd (gvfs-daemons)": "/usr/libexec/gvfsd",
                 "dbus-daemon (dbus)": shutil.which("dbus-daemon") or "/usr/bin/dbus-daemon"}


@pytest.fixture
def sftp_server(tmp_path):
    """An sshd on a loopback port accepting this user's key, held by an ssh-agent."""
    yield from serve_sftp(tmp_path)


def serve_sftp(tmp_path, stalls: bool = False):
    """The sftp server fixtures' body (`stalls`: see SftpServer)."""
    missing = missing_tools() + [name for name, path in GVFS_PROGRAMS.items() if not os.access(path, os.X_OK)]
    if missing:
        reason = "needs " + ", ".join(missing) + " (build-aux/install-deps.sh test installs them)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason + ": CI must run a real GVfs backend", pytrace=False)
        pytest.skip(reason)
    server = SftpServer(tmp_path / "ssh", stalls=stalls).start()
    try:
        yield server
    finally:
        # Shown with a failed test's output: what the server saw of the app's connections.
        print(f"[sshd] {server.log()}")
        server.stop()


def launch_over_sftp(launch, server: SftpServer, uri: str, sort_by: str | None = None):
    """gphotobrowse URI with the server's agent, as a desktop session would start it."""
    app = launch(uri, extra_env={"SSH_AUTH_SOCK": server.agent_socket}, sort_by=sort_by)
    problem = client_runtime_dir_problem(app.environment.get("XDG_RUNTIME_DIR"))
    assert problem is None, problem
    return app


def test_a_folder_over_sftp_is_connected_to_listed_and_shown(launch, photo_folder, sftp_server):
    folder = photo_folder("on-the-server", PHOTOS)
    app = launch_over_sftp(launch, sftp_server, sftp_server.uri(folder))
    # Not mounted in this fresh session: the app connects (GIO's mount), then lists.
    m = app.wait_for_line(r"^trace enumerated (\d+) \d+$", timeout=60)
    assert int(m.group(1)) == len(PHOTOS), f"listed {m.group(1)} photos over sftp, expected {len(PHOTOS)}"
    app.wait_for_window(r"^on-the-server$", timeout=30)
    app.wait_for_line(r"^trace visible-thumbnails 3 \d+$", timeout=60)
    wait_for_screen(app, tiles_check({name: COLOURS[name] for name in PHOTOS.values()}),
                    what="the three photos on the server as tiles")
    assert app.quit() == 0


def test_albums_work_on_remote_trees_too(launch, tmp_path, sftp_server):
    # Photos at the top and in two subfolders: two subfolder albums, and the folder's own.
    tree = tmp_path / "remote-trip"
    photos(tree, "yellow", 2, age_hours=5, prefix="own")
    photos(tree / "kyoto", "red", 3, age_hours=3)
    photos(tree / "oslo", "blue", 2, age_hours=1)
    app = launch_over_sftp(launch, sftp_server, sftp_server.uri(tree))
    wait_for_albums(app, 2, timeout=60)
    app.wait_for_window(None, timeout=30)
    # As for a local tree: All Photos, the folder's own photos, then the newest album first.
    wait_for_switcher(app, [7, 2, 2, 3], timeout=60)
    app.key("alt+1")
    app.wait_for_title("All Photos")
    expect_tiles(app, {"yellow": 2, "red": 3, "blue": 2}, what="every photo of the tree over sftp", timeout=60)
    for title, count, colour in (("remote-trip", 2, "yellow"), ("oslo", 2, "blue"), ("kyoto", 3, "red")):
        show_album(app, "ctrl+Next", title, count)
        expect_tiles(app, {colour: count}, what=f"only the {count} {colour} tiles of “{title}” after Ctrl+Page Down",
                     timeout=30)
    assert app.quit() == 0


def test_a_server_that_refuses_is_said_plainly(launch, tmp_path, sftp_server):
    # The same setup, but a port where nothing listens.
    uri = f"sftp://{sftp_server.user}@127.0.0.1:{free_port()}{tmp_path}"
    app = launch_over_sftp(launch, sftp_server, uri)
    app.wait_for_line(r"^gphotobrowse: Could not connect to “sftp://.*”: .+", timeout=60)
    app.wait_for_window(r"^sftp://.*127\.0\.0\.1", timeout=10)

    def shows_a_message(image):
        colours = image.distinct_colours()
        return colours >= 3, f"{colours} distinct colours in the window"

    wait_for_screen(app, shows_a_message, what="the message (the window is blank)")
    assert app.quit() > 0, "a location named on the command line that cannot be opened exits non-zero"


def test_tiles_show_embedded_previews_first_and_each_file_is_read_once(launch, tmp_path, sftp_server):
    # Photos of red, green and blue whose embedded previews are yellow, magenta and cyan.
    folder = tmp_path / "camera"
    folder.mkdir()
    for name, colour, preview in [("a.jpg", "red", "yellow"), ("b.jpg", "green", "magenta"), ("c.jpg", "blue", "cyan")]:
        camera_jpeg(folder / name, colour, preview)
    sizes = sum(p.stat().st_size for p in folder.iterdir())
    assert sizes > 3 * 256 * 1024, "photos larger than the first read of each"
    # In name order: tiles keep their index (dates taken read meanwhile would re-sort them,
    # and a tile's index in the trace would then name another photo).
    app = launch_over_sftp(launch, sftp_server, sftp_server.uri(folder), sort_by="name")
    app.wait_for_line(r"^trace enumerated 3 \d+$", timeout=60)
    app.wait_for_window(r"^camera$", timeout=30)
    app.wait_for_line(r"^trace visible-thumbnails 3 \d+$", timeout=60)
    deadline = Deadline(60)
    while len(app.lines_matching(r"^trace tile-loaded \d+ \d+$")) < 3 and not deadline.expired():
        time.sleep(0.1)
    # Each tile showed its photo's preview (read from the first bytes) before its thumbnail.
    for index in range(3):
        preview = app.lines_matching(rf"^trace tile-preview {index} \d+$")
        loaded = app.lines_matching(rf"^trace tile-loaded {index} \d+$")
        assert preview and loaded, f"tile {index}: preview {bool(preview)}, thumbnail {bool(loaded)}"
        assert int(preview[0].group(0).split()[-1]) <= int(loaded[0].group(0).split()[-1])
    wait_for_screen(app, tiles_check({c: COLOURS[c] for c in ("red", "green", "blue")}, area=app.content_area()),
                    what="the photos' thumbnails in place of their previews")
    # The viewer shows the first photo from the copy already read.
    app.focus()
    app.key("Home", "Return")
    app.wait_for_line(r"^trace full-image 0 \d+$", timeout=60)
    mark = app.mark()
    os.kill(app.process.pid, signal.SIGUSR1)
    read, files = (int(v) for v in app.wait_for_line(r"^trace remote-read (\d+) (\d+) \d+$", since=mark).groups())
    assert read == sizes, f"{read} bytes read over sftp for {sizes} bytes of photos: each byte once"
    assert files <= 6, f"{files} files opened on the server for 3 photos: the first bytes, then the rest"
    assert app.quit() == 0


def test_retry_connects_again_once_the_server_is_back(launch, tmp_path, sftp_server):
    # Thumbnails made in a first run and kept: the second run reads only the photos' first
    # bytes, so the viewer has to bring the whole photo over when it opens it.
    folder = tmp_path / "gone-and-back"
    folder.mkdir()
    for name, colour, preview in [("a.jpg", "red", "yellow"), ("b.jpg", "red", "magenta")]:
        camera_jpeg(folder / name, colour, preview)
    cache = {"XDG_CACHE_HOME": str(tmp_path / "cache"), "SSH_AUTH_SOCK": sftp_server.agent_socket}
    first = launch(sftp_server.uri(folder), extra_env=cache)
    first.wait_for_line(r"^trace visible-thumbnails 2 \d+$", timeout=60)
    # The thumbnails are shown before they are written: quitting earlier would leave the
    # second run to make them again from whole copies of the photos.
    thumbnails = tmp_path / "cache" / "thumbnails" / "large"
    wait_until(lambda: len(list(thumbnails.glob("*.png"))) == 2, "both thumbnails in the cache")
    assert first.quit() == 0

    app = launch(sftp_server.uri(folder), extra_env=cache)
    app.wait_for_line(r"^trace visible-thumbnails 2 \d+$", timeout=60)
    assert not app.lines_matching(r"^trace tile-preview "), "the second run made thumbnails again"
    app.wait_for_window(r"^gone-and-back$", timeout=30)
    sftp_server.stop_sshd()
    app.focus()
    app.key("Home", "Return")
    app.wait_for_line(r"^trace download-failed 0 \d+$", timeout=60)

    def retry_button(image):
        blobs = image.crop(app.content_area()).blobs({"accent": (53, 132, 228)}, tolerance=40)
        blob = blobs.get("accent")
        return blob is not None and blob.width > 40, f"the suggested Retry button: {blob}"

    image = wait_for_screen(app, retry_button, what="the viewer's Retry")
    blob = image.crop(app.content_area()).blobs({"accent": (53, 132, 228)}, tolerance=40)["accent"]
    area = app.content_area()

    # Retry while the server is still away fails again, and says so.
    mark = app.mark()
    app.click(area.x + round(blob.cx), area.y + round(blob.cy))
    app.wait_for_line(r"^trace download-failed 0 \d+$", since=mark, timeout=60)

    # The server is back: Retry connects again and shows the photo.
    sftp_server.start_sshd_again()
    wait_for_screen(app, retry_button, what="the viewer's Retry again")
    mark = app.mark()
    app.click(area.x + round(blob.cx), area.y + round(blob.cy))
    app.wait_for_line(r"^trace download-complete 0 \d+$", since=mark, timeout=60)
    app.wait_for_line(r"^trace full-image 0 \d+$", since=mark, timeout=60)

    def mostly_red(image):
        share = image.crop(app.content_area()).fraction_of(COLOURS["red"], tolerance=80)
        return share > 0.3, f"{share:.0%} of the viewer is red"

    wait_for_screen(app, mostly_red, what="the photo after Retry")
    assert app.quit() == 0
