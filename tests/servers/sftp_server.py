#!/usr/bin/env python3
"""A real sshd on loopback for GVfs's sftp backend, and an ssh-agent holding the one key it
accepts, as a desktop session has one.

    from sftp_server import SftpServer
    with SftpServer(workdir) as server:       # workdir: a new, empty folder of the caller's
        uri = server.uri("/some/folder")      # sftp://USER@127.0.0.1:PORT/some/folder
        env["SSH_AUTH_SOCK"] = server.agent_socket

or, from another program (a benchmark):

    sftp_server.py --dir WORKDIR

which prints `port N`, `agent PATH` and `user NAME` (a line each) and serves until it is
terminated or the process that started it ends.

The server logs in the user running it (root included, by key only) to the sftp subsystem
only: the key is `restrict`ed and every session is internal-sftp. Its log (sshd -e) is in
WORKDIR/sshd.log; `log()` reads it.

The client's side has one trap, which MAX_CLIENT_RUNTIME_DIR is about: GVfs's sftp backend
runs `ssh -oControlMaster auto -oControlPath=$XDG_RUNTIME_DIR/gvfsd-sftp/%C`, and ssh, once
logged in, listens on that path plus ".<16 random characters>". A Unix socket's path has at
most 107 characters, so an XDG_RUNTIME_DIR longer than MAX_CLIENT_RUNTIME_DIR makes ssh end
right after the server accepted the key (its stderr: "unix_listener: path … too long for Unix
domain socket"; this server's log: "Accepted publickey …" then "ssh_packet_send_debug: …
Broken pipe"), and the mount fails with "Connection failed". /run/user/UID fits; a folder
deep in a test's temporary tree does not.

Standard library only; needs sshd, ssh-keygen, ssh-agent and ssh-add (openssh-server,
openssh-client).
"""

from __future__ import annotations

import argparse
import getpass
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

MAX_CLIENT_RUNTIME_DIR = 107 - len("/gvfsd-sftp/") - 40 - len(".") - 16  # 38

SSHD = shutil.which("sshd") or "/usr/sbin/sshd"
SFTP_SERVER = "/usr/lib/openssh/sftp-server"
TOOLS = {"sshd (openssh-server)": SSHD, "ssh-keygen (openssh-client)": shutil.which("ssh-keygen"),
         "ssh-agent (openssh-client)": shutil.which("ssh-agent"), "ssh-add (openssh-client)": shutil.which("ssh-add")}


def missing_tools() -> list[str]:
    """The programs the server needs that this machine lacks, by name and package."""
    return [name for name, path in TOOLS.items() if not path or not os.access(path, os.X_OK)]


def client_runtime_dir_problem(runtime_dir: str | None) -> str | None:
    """Why GVfs's sftp backend would fail with this XDG_RUNTIME_DIR, or None if it fits."""
    if runtime_dir and len(runtime_dir) > MAX_CLIENT_RUNTIME_DIR:
        return (f"XDG_RUNTIME_DIR {runtime_dir} has {len(runtime_dir)} characters; ssh's ControlPath in it "
                f"fits a Unix socket only up to {MAX_CLIENT_RUNTIME_DIR}")
    return None


def free_port() -> int:
    """A loopback port nothing listens on (at the moment of asking)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class SftpServer:
    """sshd on a free loopback port and an ssh-agent with the key it accepts, in `workdir`."""

    def __init__(self, workdir: Path, timeout: float = 20, stalls: bool = False):
        """`stalls`: sessions go through a relay (sftp_stall.py) that `stall_at` stops at a folder."""
        self.workdir = Path(workdir)
        self.timeout = timeout
        self.stalls = stalls
        self.user = getpass.getuser()
        self.port = 0
        self.agent_socket = str(self.workdir / "agent.sock")
        self.log_path = self.workdir / "sshd.log"
        self.sshd: subprocess.Popen | None = None
        self.agent: subprocess.Popen | None = None

    # -- starting and stopping -------------------------------------------------------------

    def start(self) -> "SftpServer":
        missing = missing_tools()
        if missing:
            raise RuntimeError("needs " + ", ".join(missing))
        self.workdir.mkdir(parents=True, exist_ok=True)
        for name in ("host", "client"):
            subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", f"gphotobrowse-test-{name}",
                            "-f", str(self.workdir / name)], check=True, timeout=self.timeout)
        authorized = self.workdir / "authorized_keys"
        authorized.write_text("restrict " + (self.workdir / "client.pub").read_text())
        authorized.chmod(0o600)
        if os.geteuid() == 0:
            Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)  # sshd's privilege separation
        try:
            self._start_sshd()
            self._start_agent()
        except BaseException:
            self.stop()
            raise
        return self

    def _config(self) -> Path:
        config = self.workdir / "sshd_config"
        config.write_text("\n".join([
            f"Port {self.port}", "ListenAddress 127.0.0.1", f"HostKey {self.workdir / 'host'}",
            f"AuthorizedKeysFile {self.workdir / 'authorized_keys'}", "AuthenticationMethods publickey",
            "PasswordAuthentication no", "KbdInteractiveAuthentication no", "PermitRootLogin prohibit-password",
            "StrictModes no", "UsePAM no", "Subsystem sftp internal-sftp", f"ForceCommand {self._session_command()}",
            "AllowTcpForwarding no", "X11Forwarding no", "PermitTTY no",
            f"PidFile {self.workdir / 'sshd.pid'}", "",
        ]))
        return config

    def _session_command(self) -> str:
        if not self.stalls:
            return "internal-sftp"
        relay = Path(__file__).resolve().parent / "sftp_stall.py"
        return " ".join(shlex.quote(str(part)) for part in (
            sys.executable, relay, SFTP_SERVER, self.workdir / "stall-armed", self.workdir / "stalled"))

    def stall_at(self, folder: Path) -> None:
        """With `stalls`: the next request to open `folder` stops the session that asks it, as
        a server that stopped answering in the middle of a walk (`wait_for_stall`)."""
        assert self.stalls, "SftpServer(stalls=True) relays the sessions that stall"
        (self.workdir / "stall-armed").write_text(str(folder))

    def wait_for_stall(self, timeout: float = 60) -> None:
        """Until a session has stopped at the folder `stall_at` named."""
        deadline = time.monotonic() + timeout
        while not (self.workdir / "stalled").exists():
            if time.monotonic() > deadline:
                raise AssertionError(f"no session asked for the folder to stall at within {timeout} s")
            time.sleep(0.05)

    def _start_sshd(self) -> None:
        """sshd on a free port; another one if something took that port in between."""
        for _ in range(5):
            self.port = free_port()
            config = self._config()
            with self.log_path.open("w") as log:
                self.sshd = subprocess.Popen([SSHD, "-D", "-e", "-f", str(config)], stdin=subprocess.DEVNULL,
                                             stdout=subprocess.DEVNULL, stderr=log)
            if self._wait_for_listening():
                return
        raise RuntimeError(f"sshd did not start: {self.log()}")

    def _wait_for_listening(self) -> bool:
        """True once sshd says it listens; False if it ended because the port was taken."""
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            text = self.log()
            if f"Server listening on 127.0.0.1 port {self.port}." in text:
                return True
            if self.sshd.poll() is not None:
                if "Address already in use" in text:
                    return False
                raise RuntimeError(f"sshd ended with {self.sshd.returncode}: {text}")
            time.sleep(0.05)
        raise RuntimeError(f"sshd did not listen on {self.port} within {self.timeout} s: {self.log()}")

    def _start_agent(self) -> None:
        self.agent = subprocess.Popen(["ssh-agent", "-D", "-a", self.agent_socket], stdin=subprocess.DEVNULL,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + self.timeout
        while not os.path.exists(self.agent_socket):
            if self.agent.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"ssh-agent did not make {self.agent_socket}")
            time.sleep(0.05)
        subprocess.run(["ssh-add", "-q", str(self.workdir / "client")], check=True, timeout=self.timeout,
                       env={**os.environ, "SSH_AUTH_SOCK": self.agent_socket},
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def stop_sshd(self) -> None:
        """The server goes away: sshd and the sessions it serves end (the agent stays)."""
        if not self.sshd or self.sshd.poll() is not None:
            return
        sessions = self._descendants(self.sshd.pid)
        self.sshd.terminate()
        self.sshd.wait(5)
        for pid in sessions:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        # Gone means gone before the caller goes on: a session still alive for a few
        # milliseconds would serve one more read and the server would not have gone away.
        deadline = time.monotonic() + self.timeout
        while any(self._alive(pid) for pid in sessions):
            if time.monotonic() > deadline:
                raise RuntimeError(f"sshd's sessions {sessions} did not end")
            time.sleep(0.01)

    def start_sshd_again(self) -> None:
        """The server comes back, on the same port."""
        assert self.sshd is not None and self.sshd.poll() is not None, "stop_sshd first"
        config = self._config()
        with self.log_path.open("a") as log:
            self.sshd = subprocess.Popen([SSHD, "-D", "-e", "-f", str(config)], stdin=subprocess.DEVNULL,
                                         stdout=subprocess.DEVNULL, stderr=log)
        deadline = time.monotonic() + self.timeout
        while f"Server listening on 127.0.0.1 port {self.port}." not in self.log().split("Received signal")[-1]:
            if self.sshd.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"sshd did not listen again on {self.port}: {self.log()}")
            time.sleep(0.05)

    def pause_sessions(self) -> list[int]:
        """The server stops answering: its sessions are stopped (SIGSTOP), their connections
        left open, as a machine asleep or a network gone without a word. Returns them."""
        assert self.sshd is not None and self.sshd.poll() is None, "sshd is not running"
        self.paused = self._descendants(self.sshd.pid)
        assert self.paused, "no session to stop: nothing is connected"
        for pid in self.paused:
            os.kill(pid, signal.SIGSTOP)
        return self.paused

    def resume_sessions(self) -> None:
        """The stopped sessions go on (SIGCONT)."""
        for pid in getattr(self, "paused", []):
            try:
                os.kill(pid, signal.SIGCONT)
            except ProcessLookupError:
                pass
        self.paused = []

    @staticmethod
    def _alive(pid: int) -> bool:
        """Whether `pid` still runs (a zombie, ended but not yet reaped, does not)."""
        try:
            with open(f"/proc/{pid}/stat") as f:
                return f.read().rsplit(")", 1)[1].split()[0] != "Z"
        except (OSError, IndexError):
            return False

    @staticmethod
    def _descendants(pid: int) -> list[int]:
        """The processes below `pid` (sshd's sessions), read from /proc."""
        children: dict[int, list[int]] = {}
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            children.setdefault(ppid, []).append(int(entry))
        found, queue = [], [pid]
        while queue:
            for child in children.get(queue.pop(), []):
                found.append(child)
                queue.append(child)
        return found

    def stop(self) -> None:
        self.resume_sessions()
        for process in (self.sshd, self.agent):
            if process and process.poll() is None:
                process.terminate()
                try:
                    process.wait(5)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(5)

    def __enter__(self) -> "SftpServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    # -- what a client needs ---------------------------------------------------------------

    @property
    def authority(self) -> str:
        return f"{self.user}@127.0.0.1:{self.port}"

    def uri(self, path: str | Path) -> str:
        """The sftp:// URI of an absolute path on this machine, through this server."""
        return f"sftp://{self.authority}{path}"

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", required=True, help="a new, empty folder for the keys, config and log")
    args = parser.parse_args()
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    parent = os.getppid()
    with SftpServer(Path(args.dir)) as server:
        print(f"port {server.port}\nagent {server.agent_socket}\nuser {server.user}", flush=True)
        # Until terminated, or until the process that started it is gone (a run killed).
        while not stop.wait(0.5) and os.getppid() == parent:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
