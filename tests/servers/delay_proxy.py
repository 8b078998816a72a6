#!/usr/bin/env python3
"""A TCP proxy on loopback that adds a network's latency, and counts what it carries.

    delay_proxy.py --target PORT [--latency MS]

Listens on 127.0.0.1, on a free port, and forwards each connection to 127.0.0.1:PORT. Every
chunk read from one side is written to the other MS milliseconds after it was read (default
10), in both directions, so a round trip takes twice MS more than without the proxy; chunks
read later are not held up by earlier ones (a link's latency, not a narrow pipe): a reader
thread stamps each chunk and a writer thread sends it when it is due.

A second port answers each connection with one line of JSON and closes it: the counts so far,
`{"connections": N, "to_client": BYTES, "to_server": BYTES}`, bytes counted as they are
written on (to the client: what the server sent). The first line on stdout is
`port N stats M`. Ends when the process that started it is gone, or on SIGTERM. Standard
library only.
"""

import argparse
import collections
import json
import os
import signal
import socket
import sys
import threading
import time

CHUNK = 256 * 1024


class Counts:
    def __init__(self):
        self.lock = threading.Lock()
        self.connections = 0
        self.to_client = 0
        self.to_server = 0

    def add(self, direction, count):
        with self.lock:
            setattr(self, direction, getattr(self, direction) + count)

    def line(self):
        with self.lock:
            values = {"connections": self.connections, "to_client": self.to_client, "to_server": self.to_server}
        return (json.dumps(values) + "\n").encode()


class Direction:
    """One direction of one connection: chunks read from `source`, each written to `sink`
    `latency` seconds after it was read."""

    def __init__(self, source, sink, latency, counts, name, finished):
        self.source, self.sink, self.latency = source, sink, latency
        self.counts, self.name, self.finished = counts, name, finished
        self.queue = collections.deque()
        self.ready = threading.Condition()
        threading.Thread(target=self.read, daemon=True).start()
        threading.Thread(target=self.write, daemon=True).start()

    def read(self):
        while True:
            try:
                chunk = self.source.recv(CHUNK)
            except OSError:
                chunk = b""
            with self.ready:
                self.queue.append((time.monotonic() + self.latency, chunk))
                self.ready.notify()
            if not chunk:
                return

    def write(self):
        self.forward()
        self.finished()

    def forward(self):
        while True:
            with self.ready:
                while not self.queue:
                    self.ready.wait()
                due, chunk = self.queue.popleft()
            delay = due - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            if not chunk:
                # The source ended: pass the end on.
                try:
                    self.sink.shutdown(socket.SHUT_WR)
                except OSError:
                    pass
                return
            try:
                self.sink.sendall(chunk)
            except OSError:
                # The sink is gone: stop reading from the source too.
                try:
                    self.source.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                return
            self.counts.add(self.name, len(chunk))


def serve(listener, target, latency, counts):
    while True:
        client, _ = listener.accept()
        try:
            server = socket.create_connection(("127.0.0.1", target))
        except OSError:
            client.close()
            continue
        for s in (client, server):
            s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        with counts.lock:
            counts.connections += 1
        ended = []

        def finished(client=client, server=server, ended=ended):
            # Both directions over: the connection's sockets go.
            ended.append(True)
            if len(ended) == 2:
                client.close()
                server.close()

        Direction(client, server, latency, counts, "to_server", finished)
        Direction(server, client, latency, counts, "to_client", finished)


def answer_stats(listener, counts):
    while True:
        connection, _ = listener.accept()
        try:
            connection.sendall(counts.line())
        except OSError:
            pass
        connection.close()


def exit_with_parent(parent):
    """Ends the proxy when the process that started it is gone, so that none outlives it."""
    while True:
        time.sleep(0.5)
        if os.getppid() != parent:
            os._exit(0)


def listen():
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    return listener


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", type=int, required=True, metavar="PORT")
    parser.add_argument("--latency", type=float, default=10, metavar="MS",
                        help="milliseconds each chunk waits, in each direction")
    args = parser.parse_args()
    threading.Thread(target=exit_with_parent, args=(os.getppid(),), daemon=True).start()
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    counts = Counts()
    proxy, stats = listen(), listen()
    threading.Thread(target=answer_stats, args=(stats, counts), daemon=True).start()
    print(f"port {proxy.getsockname()[1]} stats {stats.getsockname()[1]}", flush=True)
    serve(proxy, args.target, args.latency / 1000, counts)


if __name__ == "__main__":
    sys.exit(main())
