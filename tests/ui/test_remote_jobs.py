"""Every job a window starts ends with the window, even one waiting on a server that stopped
answering: an sftp server whose sessions are stopped (SIGSTOP, their connections left open,
as a machine gone to sleep) holds the viewer's reads, and closing the window brings the
app's count of running jobs (`live Job N` in the live-objects trace) back to what it was
before the window opened. The process stays, with a window on a local folder."""

import os
import signal
from pathlib import Path

from exif_photos import camera_jpeg
from harness import Deadline, open_folder, wait_until
from test_remote import sftp_server  # noqa: F401 (the fixture)


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


def test_closing_a_window_on_a_stalled_server_ends_its_jobs(launch, launch_beside, photo_folder, tmp_path, sftp_server):
    folder = tmp_path / "stalled"
    folder.mkdir()
    for name, colour, preview in [("a.jpg", "red", "yellow"), ("b.jpg", "green", "magenta"), ("c.jpg", "blue", "cyan")]:
        camera_jpeg(folder / name, colour, preview)
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache"), "SSH_AUTH_SOCK": sftp_server.agent_socket}
    # A first run makes the thumbnails: the second reads only the photos' first bytes, so its
    # viewer has to read the whole photos from the server.
    first = launch(sftp_server.uri(folder), extra_env=env)
    first.wait_for_line(r"^trace visible-thumbnails 3 \d+$", timeout=60)
    thumbnails = tmp_path / "cache" / "thumbnails" / "large"
    wait_until(lambda: len(list(thumbnails.glob("*.png"))) == 3, "the three thumbnails in the cache", timeout=30)
    assert first.quit() == 0

    local = photo_folder("here", {"a-red.png": "red"})
    app = open_folder(launch, local, count=1, extra_env=env)
    # Steady: the local window's own work has ended (two answers alike).
    last = running_jobs(app)
    before = jobs_until(app, lambda n: n == last or n == 0, "the local window's jobs settling")

    mark = app.mark()
    other = launch_beside(app, sftp_server.uri(folder))
    app.wait_for_window(r"^stalled$", timeout=60)
    app.wait_for_line(r"^trace visible-thumbnails 3 \d+$", since=mark, timeout=60)
    assert other.wait_exit(30) == 0, f"the second invocation {other.describe_exit()}"
    try:
        sftp_server.pause_sessions()
        mark = app.mark()
        app.key("Home", "Return")
        app.wait_for_line(r"^trace page 0 \d+$", since=mark, timeout=30)
        # The viewer's reads wait on the server that does not answer: jobs of this window.
        jobs_until(app, lambda n: n > before, "the viewer's reads from the stopped server")
        assert not app.lines_matching(r"^trace full-image ", since=mark), "the viewer read a photo from a stopped server"

        app.key("ctrl+w")
        jobs_until(app, lambda n: n == before,
                   f"closing the window on the stopped server ends its jobs ({before} before it opened)", timeout=20)
        app.wait_for_window(r"^here$", timeout=10)
    finally:
        sftp_server.resume_sessions()
    assert app.quit() == 0
