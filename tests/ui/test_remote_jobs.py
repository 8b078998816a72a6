"""Every job a window starts ends with the window, even one waiting on a server that stopped
answering: an sftp server that stops in the middle of the folder's walk (its session stopped
at a subfolder, then every session stopped with SIGSTOP, their connections left open, as a
machine gone to sleep) holds the walk, the viewer's reads and a look-up of another folder
(Open Location), and closing the window brings the app's count of running jobs (`live Job
N` in the live-objects trace) back to what it was before the window opened. GVfs's calls
wait for such a server whatever is cancelled: the jobs end without waiting for them. The
process stays, with a window on a local folder."""

import os
import signal

import pytest

from exif_photos import camera_jpeg
from harness import Deadline, open_folder, wait_until
from test_remote import serve_sftp


@pytest.fixture
def stalling_sftp_server(tmp_path):
    """An sftp server whose sessions can be stopped at a folder (`SftpServer.stall_at`)."""
    yield from serve_sftp(tmp_path, stalls=True)


def running_jobs(app) -> int:
    """The app's running jobs, from its live-objects trace."""
    mark = app.mark()
    os.kill(app.process.pid, signal.SIGUSR1)
    app.wait_for_line(r"^trace live-objects \d+ \d+$", since=mark)
    jobs = app.lines_matching(r"^gphotobrowse: live Job (-?\d+)$", since=mark)
    return int(jobs[-1].group(1)) if jobs else 0


def jobs_until(app, wanted, what: str, timeout: float = 30) -> int:
    """Asks for the running jobs until `wanted(count)`, or fails after `timeout`."""
    deadline = Deadline(timeout)
    while True:
        count = running_jobs(app)
        if wanted(count):
            return count
        assert not deadline.expired(), f"{what}: {count} jobs running after {timeout} s"


def open_location(app, uri: str) -> None:
    """Open Location (Ctrl+L) in the focused window, `uri` typed and opened."""
    mark = app.mark()
    app.key("ctrl+l")
    app.wait_for_line(r"^trace shown AdwMessageDialog \d+$", since=mark)   # its entry has the focus
    app.x.xdotool("type", "--delay", "15", uri)
    app.x.key("Return")


def test_closing_a_window_on_a_stalled_server_ends_its_jobs(launch, launch_beside, photo_folder, tmp_path,
                                                            stalling_sftp_server):
    server = stalling_sftp_server
    folder = tmp_path / "stalled"
    folder.mkdir()
    for name, colour, preview in [("a.jpg", "red", "yellow"), ("b.jpg", "green", "magenta"), ("c.jpg", "blue", "cyan")]:
        camera_jpeg(folder / name, colour, preview)
    # The walk reads the folder's photos, then its subfolders: it stops at "hold".
    (folder / "hold").mkdir()
    (tmp_path / "elsewhere").mkdir()
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache"), "SSH_AUTH_SOCK": server.agent_socket}
    # A first run makes the thumbnails: the second reads only the photos' first bytes, so its
    # viewer has to read the whole photos from the server.
    first = launch(server.uri(folder), extra_env=env)
    first.wait_for_line(r"^trace visible-thumbnails 3 \d+$", timeout=60)
    thumbnails = tmp_path / "cache" / "thumbnails" / "large"
    wait_until(lambda: len(list(thumbnails.glob("*.png"))) == 3, "the three thumbnails in the cache", timeout=30)
    assert first.quit() == 0

    local = photo_folder("here", {"a-red.png": "red"})
    app = open_folder(launch, local, count=1, extra_env=env)
    # Steady: the local window's own work has ended (two answers alike).
    last = running_jobs(app)
    before = jobs_until(app, lambda n: n == last or n == 0, "the local window's jobs settling")

    server.stall_at(folder / "hold")
    mark = app.mark()
    other = launch_beside(app, server.uri(folder))
    app.wait_for_window(r"^stalled$", timeout=60)
    # Listed, not walked: the grid waits for the rest of the tree, its tiles are there.
    wait_until(lambda: len({m.group(1) for m in app.lines_matching(r"^trace tile-loaded (\d+) \d+$", since=mark)}) == 3,
               "the three tiles of the folder whose walk stopped", timeout=60)
    assert other.wait_exit(30) == 0, f"the second invocation {other.describe_exit()}"
    try:
        # The walk asked for "hold" and waits for the answer: a job of this window.
        server.wait_for_stall()
        server.pause_sessions()
        jobs_until(app, lambda n: n > before, "the walk waiting on the stopped server")

        mark = app.mark()
        app.key("Home", "Return")
        app.wait_for_line(r"^trace page 0 \d+$", since=mark, timeout=30)
        # The viewer's reads wait on the server that does not answer: jobs of this window.
        walk_and_reads = jobs_until(app, lambda n: n > before + 1, "the viewer's reads from the stopped server")
        assert not app.lines_matching(r"^trace full-image ", since=mark), "the viewer read a photo from a stopped server"

        # What another folder on the server is: a look-up, which waits on it too.
        open_location(app, server.uri(tmp_path / "elsewhere"))
        jobs_until(app, lambda n: n > walk_and_reads, "the look-up of another folder on the stopped server")

        app.key("ctrl+w")
        jobs_until(app, lambda n: n == before,
                   f"closing the window on the stopped server ends its jobs ({before} before it opened)", timeout=20)
        app.wait_for_window(r"^here$", timeout=10)
    finally:
        server.resume_sessions()
    assert app.quit() == 0
