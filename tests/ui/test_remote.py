"""A folder on another machine, reached through GIO's GVfs: a real sshd on a loopback port,
GVfs's sftp backend in the app's session bus, the app connecting by itself (the key in an
ssh-agent, as a desktop session has one) and listing, thumbnailing and showing photos as
it does a local folder; and a server that refuses, said plainly on the page."""

import getpass
import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest

from harness import COLOURS, tiles_check, wait_for_screen

# Under a heavy load (the whole suite beside other builds), GVfs's sftp backend was seen to
# end its ssh connection right after the server accepted the key ("Connection failed"), about
# one run in three; alone these tests pass every time. Until that is understood they run when
# asked for: GPHOTOBROWSE_REMOTE_TESTS=1.
pytestmark = pytest.mark.skipif(os.environ.get("GPHOTOBROWSE_REMOTE_TESTS") != "1",
                                reason="the sftp tests run with GPHOTOBROWSE_REMOTE_TESTS=1 "
                                       "(GVfs's sftp connection was seen to fail under heavy load)")

PHOTOS = {"a-red.png": "red", "b-green.png": "green", "c-blue.png": "blue"}
SFTP_BACKEND = Path("/usr/libexec/gvfsd-sftp")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, process: subprocess.Popen, log: Path, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"sshd ended with {process.returncode}: {log.read_text(errors='replace')}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError(f"sshd did not listen on {port} within {timeout} s")


@pytest.fixture
def sftp_server(tmp_path):
    """An sshd on a loopback port accepting the user's login with a key held by an
    ssh-agent; yields (host part of the URI, the agent's socket)."""
    sshd = shutil.which("sshd") or "/usr/sbin/sshd"
    missing = [name for name, path in (("sshd (openssh-server)", sshd), ("ssh-agent", shutil.which("ssh-agent")),
                                       ("gvfsd-sftp (gvfs-backends)", str(SFTP_BACKEND)))
               if not path or not os.path.exists(path)]
    if missing:
        pytest.skip("needs " + ", ".join(missing) + " (build-aux/install-deps.sh test installs them)")
    keys = tmp_path / "ssh"
    keys.mkdir()
    for name in ("host", "client"):
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(keys / name)], check=True)
    authorized = keys / "authorized_keys"
    authorized.write_text((keys / "client.pub").read_text())
    authorized.chmod(0o600)
    port = free_port()
    config = keys / "sshd_config"
    config.write_text("\n".join([
        f"Port {port}", "ListenAddress 127.0.0.1", f"HostKey {keys / 'host'}",
        f"AuthorizedKeysFile {authorized}", "PasswordAuthentication no", "KbdInteractiveAuthentication no",
        "PermitRootLogin prohibit-password", "StrictModes no", "UsePAM no", "Subsystem sftp internal-sftp",
        f"PidFile {keys / 'sshd.pid'}", "",
    ]))
    if os.geteuid() == 0:
        Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)  # sshd's privilege separation
    log = keys / "sshd.log"
    server = subprocess.Popen([sshd, "-D", "-e", "-f", str(config)], stdout=subprocess.DEVNULL,
                              stderr=log.open("w"))
    agent_socket = keys / "agent.sock"
    agent = subprocess.Popen(["ssh-agent", "-D", "-a", str(agent_socket)], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port, server, log)
        for _ in range(100):
            if agent_socket.exists():
                break
            time.sleep(0.05)
        subprocess.run(["ssh-add", "-q", str(keys / "client")], check=True,
                       env={**os.environ, "SSH_AUTH_SOCK": str(agent_socket)}, stderr=subprocess.DEVNULL)
        yield f"{getpass.getuser()}@127.0.0.1:{port}", str(agent_socket)
    finally:
        # Shown with a failed test's output: what the server saw of the app's connections.
        print(f"[sshd] {log.read_text(errors='replace')}")
        for process in (server, agent):
            process.terminate()
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                process.kill()


def test_a_folder_over_sftp_is_connected_to_listed_and_shown(launch, photo_folder, sftp_server):
    host, agent = sftp_server
    folder = photo_folder("on-the-server", PHOTOS)
    uri = f"sftp://{host}{folder}"
    app = launch(uri, extra_env={"SSH_AUTH_SOCK": agent})
    # Not mounted in this fresh session: the app connects (GIO's mount), then lists.
    m = app.wait_for_line(r"^trace enumerated (\d+) \d+$", timeout=60)
    assert int(m.group(1)) == len(PHOTOS), f"listed {m.group(1)} photos over sftp, expected {len(PHOTOS)}"
    app.wait_for_window(r"^on-the-server$", timeout=30)
    app.wait_for_line(r"^trace visible-thumbnails 3 \d+$", timeout=60)
    wait_for_screen(app, tiles_check({name: COLOURS[name] for name in PHOTOS.values()}),
                    what="the three photos on the server as tiles")
    assert app.quit() == 0


def test_a_server_that_refuses_is_said_plainly(launch, tmp_path, sftp_server):
    # The same setup, but a port where nothing listens.
    uri = f"sftp://{getpass.getuser()}@127.0.0.1:{free_port()}{tmp_path}"
    app = launch(uri, extra_env={"SSH_AUTH_SOCK": sftp_server[1]})
    app.wait_for_line(r"^gphotobrowse: Could not connect to “sftp://.*”: .+", timeout=60)
    app.wait_for_window(r"^sftp://.*127\.0\.0\.1", timeout=10)

    def shows_a_message(image):
        colours = image.distinct_colours()
        return colours >= 3, f"{colours} distinct colours in the window"

    wait_for_screen(app, shows_a_message, what="the message (the window is blank)")
    assert app.quit() > 0, "a location named on the command line that cannot be opened exits non-zero"
