#!/usr/bin/env python3
"""An HTTP(S) server of photos on loopback for the web client's tests, with the faults a real
server or network has, chosen per request by its query.

    photo_server.py --root DIR --stats FILE [--cert CERT --key KEY] [--latency MS]

Serves the files under DIR on 127.0.0.1, on a free port it prints as `port N` (the first line
on stdout). Every file has an ETag and a Last-Modified date, and a conditional request that
matches gets a 304 without a body. A folder is answered as servers answer one: asked without
its trailing slash, a 301 to the address with it; with it, its index.html, else a listing page
of its files (as Python's http.server writes one, links relative to the folder). With --latency, every request is answered MS milliseconds
after it was read, whatever the answer (a network's round trip). A file NAME.status beside
NAME holds a status that every request for NAME gets instead (a server failing for an address
that worked before). The query of a request changes how it is answered:

    status=CODE        that status, with a short text body
    reason=TEXT        with status=CODE: TEXT as the status line's reason phrase (a hostile
                       server's, e.g. Pango markup), instead of the standard one
    type=MIME          that Content-Type instead of the one the name suggests
    etag=0             no ETag (Last-Modified only)
    gzip=1             the body gzip-compressed (Content-Encoding: gzip)
    chunked=1          chunked transfer, no Content-Length
    throttle=N         the body in chunks of N bytes, a short pause between them
    truncate=N         the whole length announced, N bytes sent, then the connection closed
    stall=1            the request read, nothing answered, the connection kept open
    stall-after=N      the headers and N bytes sent, then nothing more, the connection kept open
    huge=1             a 2 GiB body announced, zeros sent for as long as the client reads
    huge-headers=N     N bytes of headers (lines of filler) before the answer's own
    endless=1          a chunked body of zeros for as long as the client reads (no length)
    trickle=S          the headers at once, then the body a byte every S seconds (a host
                       that is slow, not silent)
    redirect=PATH      a 302 to PATH
    redirect-loop=1    a 302 to the same address, for ever

Before any byte of an answer goes out, the server counts it in the stats FILE (JSON, replaced
atomically): per request target (path and query), the requests, their statuses, the
conditional ones, the body bytes sent, and each request's User-Agent and client port (the
same port twice: a connection kept alive). A client that has received something can therefore
read its count there. Standard library only.
"""

import argparse
import email.utils
import gzip
import hashlib
import http.server
import json
import mimetypes
import os
import socket
import ssl
import sys
import threading
import time
import urllib.parse


class Stats:
    """Per request target: requests, statuses, conditional requests, body bytes sent, and
    responses the client broke off (closed its connection before the body's end)."""

    def __init__(self, path):
        self.path = path
        self.lock = threading.Lock()
        self.targets = {}
        self._write()

    def _entry(self, target):
        return self.targets.setdefault(
            target, {"requests": 0, "statuses": [], "conditional": 0, "body_bytes": 0,
                     "agents": [], "ports": [], "broken_off": 0})

    def request(self, handler, target, status, conditional):
        with self.lock:
            entry = self._entry(target)
            entry["requests"] += 1
            entry["statuses"].append(status)
            if conditional:
                entry["conditional"] += 1
            entry["agents"].append(handler.headers.get("User-Agent", ""))
            entry["ports"].append(handler.client_address[1])
            self._write()

    def broken_off(self, target):
        with self.lock:
            self._entry(target)["broken_off"] += 1
            self._write()

    def sent(self, target, count):
        with self.lock:
            self._entry(target)["body_bytes"] += count
            self._write()

    def _write(self):
        temporary = self.path + ".tmp"
        with open(temporary, "w") as out:
            # dumps, not dump: one write, and CPython's C encoder rather than its Python one,
            # which took about 2 ms a request with a stats file of 75 KB.
            out.write(json.dumps(self.targets))
        os.replace(temporary, self.path)


class PhotoHandler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "photo_server/1"
    # Headers and body go out in separate writes: with Nagle's algorithm on, a kept-alive
    # connection's next answer waits for the client's delayed ACK (40 ms), as no real server's does.
    disable_nagle_algorithm = True

    def log_message(self, format, *args):
        pass

    # -- answering

    def do_GET(self):
        if self.server.latency:
            time.sleep(self.server.latency)
        url = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(url.query))
        target = self.path
        conditional = "If-None-Match" in self.headers or "If-Modified-Since" in self.headers

        if query.get("stall") == "1":
            self.server.stats.request(self, target, 0, conditional)
            self._hold()
            return
        if "status" in query:
            status = int(query["status"])
            self.server.stats.request(self, target, status, conditional)
            self._send_text(status, target, f"status {status}\n", reason=query.get("reason"))
            return
        if query.get("redirect-loop") == "1":
            self.server.stats.request(self, target, 302, conditional)
            self._redirect(target, self.path)
            return
        if "redirect" in query:
            self.server.stats.request(self, target, 302, conditional)
            self._redirect(target, query["redirect"])
            return
        if query.get("huge") == "1":
            self.server.stats.request(self, target, 200, conditional)
            self._send_huge(target)
            return
        if query.get("endless") == "1":
            self.server.stats.request(self, target, 200, conditional)
            self._send_endless(target)
            return

        folder = self._folder_path(url.path)
        if folder is not None:
            if not url.path.endswith("/"):
                self.server.stats.request(self, target, 301, conditional)
                self._redirect(target, url.path + "/" + ("?" + url.query if url.query else ""), status=301)
                return
            if not os.path.isfile(os.path.join(folder, "index.html")):
                self.server.stats.request(self, target, 200, conditional)
                self._send_listing(target, folder, url.path)
                return
            url = url._replace(path=url.path + "index.html")

        path = self._file_path(url.path)
        if path is not None and os.path.isfile(path + ".status"):
            with open(path + ".status") as f:
                status = int(f.read().strip())
            self.server.stats.request(self, target, status, conditional)
            self._send_text(status, target, f"status {status}\n")
            return
        if path is None:
            self.server.stats.request(self, target, 404, conditional)
            self._send_text(404, target, "not found\n")
            return
        with open(path, "rb") as f:
            body = f.read()
        mtime = int(os.stat(path).st_mtime)
        etag = '"' + hashlib.sha1(body).hexdigest()[:16] + '"'
        last_modified = email.utils.formatdate(mtime, usegmt=True)
        send_etag = query.get("etag") != "0"

        if self._not_modified(etag if send_etag else None, mtime):
            self.server.stats.request(self, target, 304, conditional)
            self.send_response(304)
            if send_etag:
                self.send_header("ETag", etag)
            self.send_header("Last-Modified", last_modified)
            self.end_headers()
            return

        content_type = query.get("type") or mimetypes.guess_type(path)[0] or "application/octet-stream"
        encoded = gzip.compress(body) if query.get("gzip") == "1" else body
        self.server.stats.request(self, target, 200, conditional)
        self.send_response(200)
        if "huge-headers" in query:
            self._send_filler_headers(int(query["huge-headers"]))
        self.send_header("Content-Type", content_type)
        if send_etag:
            self.send_header("ETag", etag)
        self.send_header("Last-Modified", last_modified)
        if query.get("gzip") == "1":
            self.send_header("Content-Encoding", "gzip")
        chunked = query.get("chunked") == "1"
        if chunked:
            self.send_header("Transfer-Encoding", "chunked")
        else:
            self.send_header("Content-Length", str(len(encoded)))
        self.end_headers()

        if "truncate" in query:
            part = encoded[: int(query["truncate"])]
            self._write(target, part)
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        if "stall-after" in query:
            self._write(target, encoded[: int(query["stall-after"])])
            self._hold()
            return
        if "trickle" in query:
            pause = float(query["trickle"])
            try:
                for start in range(len(encoded)):
                    self._write(target, encoded[start:start + 1])
                    self.wfile.flush()
                    time.sleep(pause)
            except OSError:
                pass
            self.close_connection = True
            return
        step = int(query.get("throttle", "0")) or 65536
        for start in range(0, len(encoded), step):
            piece = encoded[start:start + step]
            if chunked:
                self.wfile.write(f"{len(piece):x}\r\n".encode())
            self._write(target, piece)
            if chunked:
                self.wfile.write(b"\r\n")
            if "throttle" in query:
                self.wfile.flush()
                time.sleep(0.005)
        if chunked:
            self.wfile.write(b"0\r\n\r\n")

    # -- pieces

    def _file_path(self, url_path):
        """The file under the root that `url_path` names, or None."""
        relative = urllib.parse.unquote(url_path).lstrip("/")
        root = os.path.realpath(self.server.root)
        path = os.path.realpath(os.path.join(root, relative))
        if not path.startswith(root + os.sep) or not os.path.isfile(path):
            return None
        return path

    def _folder_path(self, url_path):
        """The folder under the root that `url_path` names, or None."""
        relative = urllib.parse.unquote(url_path).strip("/")
        root = os.path.realpath(self.server.root)
        path = os.path.realpath(os.path.join(root, relative))
        if not (path == root or path.startswith(root + os.sep)) or not os.path.isdir(path):
            return None
        return path

    def _send_listing(self, target, folder, url_path):
        names = sorted(n for n in os.listdir(folder) if not n.endswith(".status"))
        links = "".join(f'<li><a href="{urllib.parse.quote(n)}">{n}</a></li>\n' for n in names)
        body = (f"<!DOCTYPE HTML><html><head><title>Directory listing for {url_path}</title></head>"
                f"<body><h1>Directory listing for {url_path}</h1><hr><ul>\n{links}</ul><hr></body></html>").encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self._write(target, body)

    def _not_modified(self, etag, mtime):
        match = self.headers.get("If-None-Match")
        if match is not None:
            return etag is not None and (match.strip() == "*" or etag in [m.strip() for m in match.split(",")])
        since = self.headers.get("If-Modified-Since")
        if since is not None:
            try:
                return mtime <= email.utils.parsedate_to_datetime(since).timestamp()
            except (TypeError, ValueError):
                return False
        return False

    def _write(self, target, data):
        try:
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            self.server.stats.broken_off(target)
            raise
        self.server.stats.sent(target, len(data))

    def _send_text(self, status, target, text, reason=None):
        body = text.encode()
        self.send_response(status, reason)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self._write(target, body)

    def _redirect(self, target, location, status=302):
        self.send_response(status)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def _send_filler_headers(self, count):
        line = "X-Filler: " + "f" * 990
        for _ in range(max(1, count // (len(line) + 2))):
            self.send_header("X-Filler", line[len("X-Filler: "):])

    def _send_huge(self, target):
        size = 2 * 1024 * 1024 * 1024
        self.send_response(200)
        self.send_header("Content-Type", "image/jpeg")
        self.send_header("Content-Length", str(size))
        self.end_headers()
        zeros = bytes(1024 * 1024)
        try:
            for _ in range(size // len(zeros)):
                self._write(target, zeros)
        except OSError:
            pass
        self.close_connection = True

    def _send_endless(self, target):
        self.send_response(200)
        self.send_header("Content-Type", "image/jpeg")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        zeros = bytes(1024 * 1024)
        try:
            while True:
                self.wfile.write(f"{len(zeros):x}\r\n".encode())
                self._write(target, zeros)
                self.wfile.write(b"\r\n")
        except OSError:
            pass
        self.close_connection = True

    def _hold(self):
        """Keeps the connection open and silent until the client goes or the server ends."""
        self.wfile.flush()
        self.close_connection = True
        while True:
            time.sleep(0.2)
            try:
                if self.connection.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b"":
                    return
            except BlockingIOError:
                continue
            except (OSError, ssl.SSLError):
                return


class PhotoServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # A client that hangs up mid-answer, or refuses the certificate, is part of the tests.
        pass


def exit_with_parent(parent):
    """Ends the server when the process that started it is gone (a test run killed or
    crashed), so that no server outlives its tests."""
    while True:
        time.sleep(0.5)
        if os.getppid() != parent:
            os._exit(0)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", required=True)
    parser.add_argument("--stats", required=True)
    parser.add_argument("--cert")
    parser.add_argument("--key")
    parser.add_argument("--latency", type=float, default=0, metavar="MS",
                        help="milliseconds added before answering each request")
    args = parser.parse_args()
    threading.Thread(target=exit_with_parent, args=(os.getppid(),), daemon=True).start()

    server = PhotoServer(("127.0.0.1", 0), PhotoHandler)
    server.root = args.root
    server.stats = Stats(args.stats)
    server.latency = args.latency / 1000
    if args.cert:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(args.cert, args.key)
        server.socket = context.wrap_socket(server.socket, server_side=True)
    print(f"port {server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
