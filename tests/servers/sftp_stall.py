#!/usr/bin/env python3
"""The sftp subsystem behind a relay that stops answering at one folder: a server that stops
in the middle of a walk, at a place a test chooses.

    sftp_stall.py SFTP_SERVER ARMED STALLED

relays the session between the client (standard input and output) and SFTP_SERVER, packet
by packet. Once the file ARMED exists, the first request to open the folder it names creates
STALLED and stops the relay (SIGSTOP, every thread of it: nothing more is answered, the
connection stays open); SIGCONT lets it go on. Standard library only.
"""

import os
import signal
import struct
import subprocess
import sys
import threading

SSH_FXP_OPENDIR = 11


def read_exactly(stream, count: int) -> bytes:
    data = b""
    while len(data) < count:
        chunk = stream.read(count - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return data


def opened_folder(packet: bytes) -> str | None:
    """The folder an SSH_FXP_OPENDIR packet (type, id, path) opens, else None."""
    if len(packet) < 9 or packet[0] != SSH_FXP_OPENDIR:
        return None
    (length,) = struct.unpack(">I", packet[5:9])
    return packet[9:9 + length].decode("utf-8", "replace")


def main() -> None:
    server_program, armed, stalled = sys.argv[1:4]
    server = subprocess.Popen([server_program], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    client_in, client_out = sys.stdin.buffer, sys.stdout.buffer

    def answers() -> None:
        try:
            while True:
                chunk = server.stdout.read1(65536)
                if not chunk:
                    break
                client_out.write(chunk)
                client_out.flush()
        finally:
            os._exit(0)

    threading.Thread(target=answers, daemon=True).start()
    try:
        while True:
            header = read_exactly(client_in, 4)
            packet = read_exactly(client_in, struct.unpack(">I", header)[0])
            folder = opened_folder(packet)
            if folder is not None and os.path.exists(armed) and not os.path.exists(stalled) \
                    and folder.rstrip("/") == open(armed).read().rstrip("/"):
                with open(stalled, "w") as marker:
                    marker.write(folder)
                os.kill(os.getpid(), signal.SIGSTOP)
            server.stdin.write(header + packet)
            server.stdin.flush()
    except (EOFError, BrokenPipeError):
        pass
    server.stdin.close()
    server.wait()


if __name__ == "__main__":
    main()
