"""Drive the real gphotobrowse under Xvfb with real X input, and read its pixels.

Everything here talks to real programs: Xvfb for the display, xdotool for input and window
lookup (XTEST events, the same path a mouse and keyboard take), ImageMagick's `import` for
screenshots and `convert` for test images. Screenshots are read as binary PPM, so no Python
imaging library is needed.

Every wait has a deadline and watches something the app shows: a line on its stderr, a
window title, or the screen's pixels.
"""

from __future__ import annotations

import os
import re
import select
import shutil
import signal
import subprocess
import threading
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
CORPUS = REPO.parent / "shared" / "corpus"   # present in CI, absent on a user's machine

SCREEN_WIDTH, SCREEN_HEIGHT = 1920, 1080

# Saturated colours that nothing in the GTK theme uses, so a cluster of one is a photo.
COLOURS: dict[str, tuple[int, int, int]] = {
    "red": (255, 0, 0),
    "green": (0, 255, 0),
    "blue": (0, 0, 255),
    "yellow": (255, 255, 0),
    "magenta": (255, 0, 255),
    "cyan": (0, 255, 255),
}


def convert_tool() -> str:
    """ImageMagick's convert: Debian's own binary when present, else whatever is on PATH."""
    if os.access("/usr/bin/convert", os.X_OK):
        return "/usr/bin/convert"
    found = shutil.which("convert")
    if not found:
        raise RuntimeError("ImageMagick's convert is missing (apt-get install imagemagick)")
    return found


def run(cmd: Sequence[str], *, env: dict | None = None, timeout: float = 20, check: bool = True,
        input: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(list(cmd), env=env, timeout=timeout, check=check, input=input,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)


class Deadline:
    def __init__(self, seconds: float):
        self.seconds = seconds
        self.end = time.monotonic() + seconds

    def remaining(self) -> float:
        return max(0.0, self.end - time.monotonic())

    def expired(self) -> bool:
        return time.monotonic() >= self.end


# --------------------------------------------------------------------------------------------
# The display


class XServer:
    """One Xvfb with a free display number (chosen by Xvfb itself through -displayfd)."""

    def __init__(self, width: int = SCREEN_WIDTH, height: int = SCREEN_HEIGHT):
        if not shutil.which("Xvfb"):
            raise RuntimeError("Xvfb is missing (apt-get install xvfb xauth)")
        read_end, write_end = os.pipe()
        self.process = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write_end), "-screen", "0", f"{width}x{height}x24",
             "-nolisten", "tcp", "-noreset"],
            pass_fds=(write_end,), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        os.close(write_end)
        number = b""
        deadline = Deadline(20)
        while not number.endswith(b"\n"):
            ready, _, _ = select.select([read_end], [], [], deadline.remaining())
            chunk = os.read(read_end, 64) if ready else b""
            if not chunk:
                self.process.kill()
                err = self.process.stderr.read().decode(errors="replace") if self.process.stderr else ""
                raise RuntimeError(f"Xvfb did not report a display number within 20 s: {err}")
            number += chunk
        os.close(read_end)
        self.display = f":{int(number)}"
        self.width, self.height = width, height

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env["DISPLAY"] = self.display
        env.pop("WAYLAND_DISPLAY", None)
        env.pop("XAUTHORITY", None)
        return env

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)

    # -- X input and queries, all through xdotool ----------------------------------------

    def xdotool(self, *args: str, timeout: float = 10, check: bool = True) -> str:
        result = run(["xdotool", *args], env=self.env(), timeout=timeout, check=False)
        if check and result.returncode != 0:
            raise RuntimeError(f"xdotool {' '.join(args)} failed ({result.returncode}): "
                               f"{result.stderr.decode(errors='replace').strip()}")
        return result.stdout.decode(errors="replace")

    def windows_of(self, pid: int) -> list[int]:
        out = self.xdotool("search", "--onlyvisible", "--pid", str(pid), check=False)
        return [int(w) for w in out.split()]

    def windows_named(self, pattern: str) -> list[int]:
        out = self.xdotool("search", "--onlyvisible", "--name", pattern, check=False)
        return [int(w) for w in out.split()]

    def window_name(self, window: int) -> str | None:
        result = run(["xdotool", "getwindowname", str(window)], env=self.env(), check=False)
        if result.returncode != 0:
            return None
        return result.stdout.decode(errors="replace").rstrip("\n")

    def geometry(self, window: int) -> "Rect":
        out = self.xdotool("getwindowgeometry", "--shell", str(window))
        values = dict(line.split("=", 1) for line in out.split() if "=" in line)
        return Rect(int(values["X"]), int(values["Y"]), int(values["WIDTH"]), int(values["HEIGHT"]))

    def move_window(self, window: int, x: int, y: int) -> None:
        self.xdotool("windowmove", "--sync", str(window), str(x), str(y))

    def focus(self, window: int) -> None:
        """Give the window the X input focus (there is no window manager to do it)."""
        self.xdotool("windowfocus", "--sync", str(window), timeout=10)

    def pointer(self) -> tuple[int, int]:
        """Where the pointer is, in screen coordinates."""
        fields = dict(line.split("=", 1) for line in self.xdotool("getmouselocation", "--shell").split())
        return int(fields["X"]), int(fields["Y"])

    def _move_arguments(self, x: int, y: int) -> list[str]:
        """`mousemove` to (x, y), waiting for the move unless the pointer is there already:
        xdotool's --sync then waits, now and then, for a motion that never comes (the
        previous test clicked the same spot)."""
        sync = [] if self.pointer() == (x, y) else ["--sync"]
        return ["mousemove", *sync, str(x), str(y)]

    def mouse_move(self, x: int, y: int) -> None:
        self.xdotool(*self._move_arguments(x, y))

    def click(self, x: int, y: int, button: int = 1, repeat: int = 1) -> None:
        """A real click (XTEST) at screen coordinates."""
        self.xdotool(*self._move_arguments(x, y),
                     "click", "--repeat", str(repeat), "--delay", "80", str(button))

    def long_press(self, x: int, y: int, hold: float = 1.2) -> None:
        """Presses the first button at (x, y) and holds it `hold` seconds: a long press is
        made of time, as a person makes it (GTK's threshold is well under a second)."""
        self.mouse_move(x, y)
        self.xdotool("mousedown", "1")
        time.sleep(hold)
        self.xdotool("mouseup", "1")

    def key(self, *names: str, delay_ms: int = 40) -> None:
        """Real key presses (XTEST) to whatever window has the focus."""
        self.xdotool("key", "--delay", str(delay_ms), *names)

    def drag(self, start: tuple[int, int], end: tuple[int, int], steps: int = 24,
             step_pause: float = 0.04) -> None:
        """Press button 1 at start, move in small steps to end, release: a real XDND drag."""
        self.mouse_move(*start)
        self.xdotool("mousedown", "1")
        time.sleep(0.1)
        (x0, y0), (x1, y1) = start, end
        # A few small moves first, past GTK's drag threshold, then the way across.
        for dx in (2, 4, 8, 12, 16):
            self.mouse_move(x0 + dx, y0 + dx // 2)
            time.sleep(step_pause)
        for i in range(1, steps + 1):
            self.mouse_move(round(x0 + (x1 - x0) * i / steps), round(y0 + (y1 - y0) * i / steps))
            time.sleep(step_pause)
        # Hover a moment so the target answers the last XdndPosition before the drop.
        for wiggle in (1, -1, 0):
            self.mouse_move(x1 + wiggle, y1)
            time.sleep(0.15)
        self.xdotool("mouseup", "1")

    def screenshot(self) -> "Image":
        """The whole screen, as the X server has it (ImageMagick `import -window root`)."""
        result = run(["import", "-display", self.display, "-window", "root", "-depth", "8", "ppm:-"],
                     env=self.env(), timeout=30)
        return Image.from_ppm(result.stdout)


# --------------------------------------------------------------------------------------------
# Pixels


@dataclass(frozen=True)
class Rect:
    x: int
    y: int
    width: int
    height: int

    @property
    def centre(self) -> tuple[int, int]:
        return self.x + self.width // 2, self.y + self.height // 2


@dataclass
class Blob:
    """The pixels of one colour in a region: how many, where, how big."""

    colour: str
    count: int          # sampled pixels that matched
    area: int           # estimated pixel area (count × step²)
    left: int
    top: int
    right: int
    bottom: int
    cx: float
    cy: float

    @property
    def width(self) -> int:
        return self.right - self.left + 1

    @property
    def height(self) -> int:
        return self.bottom - self.top + 1

    def __repr__(self) -> str:
        return (f"<{self.colour} area≈{self.area} box=({self.left},{self.top})-({self.right},{self.bottom}) "
                f"{self.width}x{self.height} centre=({self.cx:.0f},{self.cy:.0f})>")


def wait_until(condition, what: str, timeout: float = 10) -> None:
    """Waits until `condition()` holds (a file on disk, a setting), polling, or fails naming `what`."""
    deadline = Deadline(timeout)
    while not condition():
        if deadline.expired():
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def trash_files(app) -> Path:
    """The files folder of the app's trash (its XDG_DATA_HOME's)."""
    return Path(app.environment["XDG_DATA_HOME"]) / "Trash" / "files"


def wait_moved_to_trash(app, folder: Path, originals: dict[str, bytes], what: str) -> None:
    """Waits until every file named in `originals` is in the app's trash, then checks each
    is there whole, with its .trashinfo, and gone from `folder`."""
    files = trash_files(app)
    wait_until(lambda: all((files / name).exists() for name in originals), f"{what} in the trash")
    for name, data in originals.items():
        assert (files / name).read_bytes() == data, f"{name} is not in the trash whole"
        assert (files.parent / "info" / (name + ".trashinfo")).exists(), f"{name} has no .trashinfo"
        assert not (folder / name).exists(), f"{name} is still in the folder"


def wait_put_back(app, folder: Path, originals: dict[str, bytes], what: str) -> None:
    """Waits until every file named in `originals` is back in `folder`, then checks each is
    there byte for byte and no longer in the app's trash."""
    wait_until(lambda: all((folder / name).exists() for name in originals), f"{what} back in the folder")
    for name, data in originals.items():
        assert (folder / name).read_bytes() == data, f"{name} is not back byte for byte"
        assert not (trash_files(app) / name).exists(), f"{name} is still in the trash"


def close_to(pixel: tuple[int, int, int], colour: tuple[int, int, int], tolerance: int) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour))


class Image:
    """An RGB image in memory (8 bits per channel), read from a binary PPM."""

    def __init__(self, width: int, height: int, data: bytes):
        assert len(data) == width * height * 3, (len(data), width, height)
        self.width, self.height, self.data = width, height, data

    @classmethod
    def from_ppm(cls, ppm: bytes) -> "Image":
        # Header: P6 <ws> width <ws> height <ws> maxval <one ws> data; comments start with #.
        fields: list[bytes] = []
        pos = 0
        while len(fields) < 4:
            while ppm[pos:pos + 1].isspace():
                pos += 1
            if ppm[pos:pos + 1] == b"#":
                pos = ppm.index(b"\n", pos) + 1
                continue
            end = pos
            while not ppm[end:end + 1].isspace():
                end += 1
            fields.append(ppm[pos:end])
            pos = end
        pos += 1
        magic, width, height, maxval = fields[0], int(fields[1]), int(fields[2]), int(fields[3])
        if magic != b"P6" or maxval != 255:
            raise ValueError(f"expected an 8-bit binary PPM, got {magic!r} maxval {maxval}")
        return cls(width, height, ppm[pos:pos + width * height * 3])

    @classmethod
    def from_file(cls, path: Path) -> "Image":
        result = run([convert_tool(), str(path), "-depth", "8", "ppm:-"])
        return cls.from_ppm(result.stdout)

    def pixel(self, x: int, y: int) -> tuple[int, int, int]:
        i = (y * self.width + x) * 3
        return self.data[i], self.data[i + 1], self.data[i + 2]

    def crop(self, rect: Rect) -> "Image":
        x0, y0 = max(0, rect.x), max(0, rect.y)
        x1, y1 = min(self.width, rect.x + rect.width), min(self.height, rect.y + rect.height)
        rows = [self.data[(y * self.width + x0) * 3:(y * self.width + x1) * 3] for y in range(y0, y1)]
        return Image(x1 - x0, y1 - y0, b"".join(rows))

    def save(self, path: Path) -> Path:
        """Writes the image; the format follows the file name (PNG through ImageMagick)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        ppm = b"P6\n%d %d\n255\n" % (self.width, self.height) + self.data
        if path.suffix.lower() == ".ppm":
            path.write_bytes(ppm)
        else:
            run([convert_tool(), "ppm:-", str(path)], input=ppm)
        return path

    def samples(self, step: int = 2) -> Iterable[tuple[int, int, tuple[int, int, int]]]:
        data, width = self.data, self.width
        for y in range(0, self.height, step):
            row = y * width * 3
            for x in range(0, width, step):
                i = row + x * 3
                yield x, y, (data[i], data[i + 1], data[i + 2])

    def fraction_of(self, colour: tuple[int, int, int], tolerance: int = 40, step: int = 4) -> float:
        total = matched = 0
        for _, _, p in self.samples(step):
            total += 1
            if close_to(p, colour, tolerance):
                matched += 1
        return matched / total if total else 0.0

    def blobs(self, colours: dict[str, tuple[int, int, int]], tolerance: int = 40,
              step: int = 2) -> dict[str, Blob]:
        """For each named colour, the extent and centroid of all pixels close to it."""
        acc = {name: [0, self.width, self.height, -1, -1, 0, 0] for name in colours}
        items = list(colours.items())
        for x, y, p in self.samples(step):
            for name, c in items:
                if close_to(p, c, tolerance):
                    a = acc[name]
                    a[0] += 1
                    a[1] = min(a[1], x); a[2] = min(a[2], y)
                    a[3] = max(a[3], x); a[4] = max(a[4], y)
                    a[5] += x; a[6] += y
                    break
        found = {}
        for name, (n, left, top, right, bottom, sx, sy) in acc.items():
            if n:
                found[name] = Blob(name, n, n * step * step, left, top, right + step - 1,
                                   bottom + step - 1, sx / n, sy / n)
        return found

    def distinct_colours(self, step: int = 4, quantum: int = 32) -> int:
        """How many different colours (quantised to `quantum` levels per channel) appear."""
        seen = set()
        for _, _, (r, g, b) in self.samples(step):
            seen.add((r // quantum, g // quantum, b // quantum))
        return len(seen)


def row_major_order(blobs: Iterable[Blob], row_tolerance: float = 40) -> list[str]:
    """Colour names sorted by row (centroids within row_tolerance px share a row), then x."""
    rows: list[list[Blob]] = []
    for blob in sorted(blobs, key=lambda b: b.cy):
        if rows and abs(rows[-1][0].cy - blob.cy) <= row_tolerance:
            rows[-1].append(blob)
        else:
            rows.append([blob])
    return [b.colour for row in rows for b in sorted(row, key=lambda b: b.cx)]


# --------------------------------------------------------------------------------------------
# Test images


def make_solid(path: Path, colour: str | tuple[int, int, int], size: str = "640x480") -> Path:
    if isinstance(colour, tuple):
        colour = "#%02x%02x%02x" % colour
    elif colour in COLOURS:
        colour = "#%02x%02x%02x" % COLOURS[colour]
    path.parent.mkdir(parents=True, exist_ok=True)
    run([convert_tool(), "-size", size, f"xc:{colour}", str(path)])
    return path


def set_times(folder: Path, names: Sequence[str], newest_first: bool = True) -> None:
    """Sets modification times a minute apart: names[0] newest when newest_first, otherwise
    in an order that is neither the names' order nor its reverse."""
    count = len(names)
    ages = list(range(count))
    if not newest_first and count >= 3:
        ages = ages[1::2] + ages[0::2]          # 0..5 -> 1 3 5 0 2 4
    base = time.time() - 3600
    for age, name in zip(ages, names):
        stamp = base - age * 60
        os.utime(folder / name, (stamp, stamp))


def folder_of_jpegs(tmp_path: Path, name: str, photos: list[str]) -> Path:
    """tmp_path/NAME holding a blue JPEG of each name in `photos`, photos[0] the newest."""
    folder = tmp_path / name
    folder.mkdir()
    for photo in photos:
        make_solid(folder / photo, "blue")
    set_times(folder, photos)
    return folder


def exiftool(*args: str) -> str:
    """`exiftool ARGS`' output (it writes marks and tags as other photo apps do)."""
    return subprocess.run(["exiftool", *args], check=True, capture_output=True, text=True).stdout.strip()


def make_with(path: Path, *args: str) -> Path:
    """convert ARGS PATH, for gradients and plasma (pass -seed for a fixed picture)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    run([convert_tool(), *args, str(path)], timeout=60)
    return path


# --------------------------------------------------------------------------------------------
# The app


TRACE_TILE = re.compile(r"^trace tile-(loaded|failed) (\d+) \d+$")


class App:
    """One running gphotobrowse: its stderr, its window, and real input into it."""

    def __init__(self, x: XServer, argv: Sequence[str], env: dict[str, str], log_path: Path,
                 cwd: Path | None = None):
        self.x = x
        self.argv = list(argv)
        program = self.argv[1] if "python" in Path(self.argv[0]).name and len(self.argv) > 1 else self.argv[0]
        self.name = Path(program).name
        self.environment = env
        self.log_path = log_path
        self.lines: list[str] = []
        self._cond = threading.Condition()
        self._log = open(log_path, "w", encoding="utf-8")
        self._log.write("$ " + " ".join(self.argv) + "\n")
        self._log.flush()
        self.started = time.monotonic()
        self.process = subprocess.Popen(self.argv, env=env, cwd=cwd, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        start_new_session=True)
        self.stdout_lines: list[str] = []
        # Standard output as the bytes written (names need not be UTF-8; --pick --null).
        self.stdout_bytes = bytearray()
        self._readers = [
            threading.Thread(target=self._read, args=(self.process.stderr, self.lines, "stderr"), daemon=True),
            threading.Thread(target=self._read, args=(self.process.stdout, self.stdout_lines, "stdout"), daemon=True),
        ]
        for reader in self._readers:
            reader.start()
        self.window: int | None = None
        self.killed = False

    # -- output ----------------------------------------------------------------------------

    def _read(self, stream, into: list[str], label: str) -> None:
        for raw in iter(stream.readline, b""):
            line = raw.decode("utf-8", errors="replace").rstrip("\n")
            with self._cond:
                if label == "stdout":
                    self.stdout_bytes += raw
                into.append(line)
                self._log.write(("" if label == "stderr" else "[stdout] ") + line + "\n")
                self._log.flush()
                self._cond.notify_all()
        with self._cond:
            self._cond.notify_all()

    def mark(self) -> int:
        """A position in stderr: wait_for_line(..., since=mark) only looks at later lines."""
        with self._cond:
            return len(self.lines)

    def until_shown(self, act, what: str = r"\S+", timeout: float = 10) -> re.Match:
        """Does `act()` (a key, a click) and waits until a popover, menu or window whose type
        and name match `what` is shown (`trace shown TYPE [NAME] MS`): input goes to it then."""
        mark = self.mark()
        act()
        return self.wait_for_line(rf"^trace shown (?:{what})(?: \S+)? \d+$", timeout=timeout, since=mark)

    def until_hidden(self, act, what: str = r"\S+", timeout: float = 10) -> re.Match:
        """Does `act()` and waits until a popover, menu or window matching `what` is hidden."""
        mark = self.mark()
        act()
        return self.wait_for_line(rf"^trace hidden (?:{what})(?: \S+)? \d+$", timeout=timeout, since=mark)

    def tail(self, n: int = 40) -> str:
        with self._cond:
            return "\n".join(self.lines[-n:])

    def wait_for_line(self, pattern: str, timeout: float = 20, since: int = 0) -> re.Match:
        regex = re.compile(pattern)
        deadline = Deadline(timeout)
        checked = since
        with self._cond:
            while True:
                for i in range(checked, len(self.lines)):
                    m = regex.search(self.lines[i])
                    if m:
                        return m
                checked = len(self.lines)
                if self.process.poll() is not None and not any(r.is_alive() for r in self._readers):
                    raise AssertionError(
                        f"{self.name} exited ({self.describe_exit()}) before printing /{pattern}/; "
                        f"stderr ends:\n{self.tail()}")
                if deadline.expired():
                    raise AssertionError(f"no stderr line matching /{pattern}/ within {timeout} s; "
                                         f"stderr ends:\n{self.tail()}")
                self._cond.wait(min(0.2, deadline.remaining()) or 0.01)

    def lines_matching(self, pattern: str, since: int = 0) -> list[re.Match]:
        regex = re.compile(pattern)
        with self._cond:
            return [m for m in (regex.search(l) for l in self.lines[since:]) if m]

    def tiles_accounted(self) -> dict[int, str]:
        """Index → 'loaded' / 'failed' for every tile-loaded / tile-failed line so far."""
        done: dict[int, str] = {}
        for m in self.lines_matching(TRACE_TILE.pattern):
            done.setdefault(int(m.group(2)), m.group(1))
        return done

    # -- window ----------------------------------------------------------------------------

    def wait_for_window(self, title: str | None = None, timeout: float = 30) -> int:
        """The app's visible toplevel, waiting until one exists (and its title matches)."""
        regex = re.compile(title) if title is not None else None
        deadline = Deadline(timeout)
        seen: list[str] = []
        while True:
            for window in self.x.windows_of(self.process.pid):
                name = self.x.window_name(window)
                if name is None:
                    continue
                seen.append(name)
                if regex is None or regex.search(name):
                    self.window = window
                    return window
            if self.process.poll() is not None:
                raise AssertionError(f"{self.name} exited ({self.describe_exit()}) before showing a "
                                     f"window; stderr ends:\n{self.tail()}")
            if deadline.expired():
                raise AssertionError(
                    f"no window of {self.name} titled /{title}/ within {timeout} s "
                    f"(titles seen: {sorted(set(seen))}); stderr ends:\n{self.tail()}")
            time.sleep(0.05)

    def title(self) -> str | None:
        assert self.window is not None, "wait_for_window first"
        return self.x.window_name(self.window)

    def wait_for_title(self, title: str, timeout: float = 15) -> str:
        """Waits until the app's window title matches the regex `title` exactly (fullmatch)."""
        regex = re.compile(title)
        deadline = Deadline(timeout)
        current = None
        while True:
            if self.window is None:
                self.wait_for_window(None, timeout=deadline.remaining() or 0.1)
            current = self.title()
            if current is not None and regex.fullmatch(current):
                return current
            if current is None:
                # The window went away (for example the app replaced it); look again.
                self.window = None
                windows = self.x.windows_of(self.process.pid)
                if windows:
                    self.window = windows[0]
                    continue
            if self.process.poll() is not None:
                raise AssertionError(f"{self.name} exited ({self.describe_exit()}) while waiting for "
                                     f"title /{title}/; stderr ends:\n{self.tail()}")
            if deadline.expired():
                raise AssertionError(f"window title is {current!r}, not /{title}/, after {timeout} s; "
                                     f"stderr ends:\n{self.tail()}")
            time.sleep(0.05)

    def geometry(self) -> Rect:
        assert self.window is not None, "wait_for_window first"
        try:
            return self.x.geometry(self.window)
        except RuntimeError as error:
            # The X window went away: find the app's window again, once, and say so in the log.
            self._log.write(f"[harness] window {self.window} is gone ({error}); looking again\n")
            self.window = None
            self.wait_for_window(None, timeout=5)
            return self.x.geometry(self.window)

    def screenshot(self) -> Image:
        """The app's window as it is on screen, cropped from a root-window screenshot."""
        return self.x.screenshot().crop(self.geometry())

    def content_area(self, header_height: int = 60) -> Rect:
        """The window below the header bar, in window coordinates (header bar ≤ 60 px)."""
        g = self.geometry()
        return Rect(0, header_height, g.width, g.height - header_height)

    # -- input -----------------------------------------------------------------------------

    def click(self, x: int, y: int, button: int = 1) -> None:
        """A real click at (x, y) relative to the window's top-left corner."""
        g = self.geometry()
        self.x.click(g.x + x, g.y + y, button)

    def ctrl_click(self, x: float, y: float) -> None:
        """A click with Ctrl held at (x, y) relative to the window's top-left corner: on a
        tile, edit mode with that photo selected (or its selection toggled)."""
        self.x.xdotool("keydown", "ctrl")
        self.click(round(x), round(y))
        self.x.xdotool("keyup", "ctrl")

    def focus(self) -> None:
        assert self.window is not None, "wait_for_window first"
        self.x.focus(self.window)

    def key(self, *names: str) -> None:
        """Real key presses to the app's window (focused first: no window manager does it)."""
        self.focus()
        self.x.key(*names)

    def peak_memory_mb(self) -> int | None:
        """The process's peak resident memory so far (VmHWM), while it runs."""
        try:
            status = Path(f"/proc/{self.process.pid}/status").read_text()
        except OSError:
            return None
        m = re.search(r"^VmHWM:\s+(\d+) kB", status, re.M)
        return int(m.group(1)) // 1024 if m else None

    def decoder_processes(self) -> dict[int, str]:
        """The app's decoder processes running now: each one's /proc status, by pid."""
        found = {}
        for pid in descendants(self.process.pid):
            try:
                status = Path(f"/proc/{pid}/status").read_text()
            except OSError:
                continue
            name = re.search(r"^Name:\s+(\S+)", status, re.M)
            if name and name.group(1).startswith("gphotobrowse-de"):
                found[pid] = status
        return found

    # -- end -------------------------------------------------------------------------------

    def describe_exit(self) -> str:
        rc = self.process.returncode
        if rc is None:
            return "still running"
        if rc < 0:
            try:
                return f"killed by signal {signal.Signals(-rc).name}"
            except ValueError:
                return f"killed by signal {-rc}"
        return f"exit status {rc}"

    def wait_exit(self, timeout: float) -> int | None:
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    def quit(self, timeout: float = 15) -> int:
        """Ctrl+Q, then the exit status; kills the app (and fails) if it does not exit."""
        if self.process.poll() is None:
            try:
                if self.window is None or self.title() is None:
                    self.wait_for_window(None, timeout=5)
                self.key("ctrl+q")
            except (AssertionError, RuntimeError, subprocess.TimeoutExpired) as error:
                self._log.write(f"[harness] could not send Ctrl+Q: {error}\n")
        rc = self.wait_exit(timeout)
        if rc is None:
            self.kill()
            raise AssertionError(f"{self.name} did not exit within {timeout} s of Ctrl+Q (killed it); "
                                 f"stderr ends:\n{self.tail()}")
        self._finish()
        return rc

    def kill(self) -> None:
        if self.process.poll() is None:
            self.killed = True
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            if self.wait_exit(5) is None:
                try:
                    os.killpg(self.process.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                self.process.wait(5)
        self._finish()

    def _finish(self) -> None:
        for reader in self._readers:
            reader.join(5)
        with self._cond:
            if not self._log.closed:
                self._log.write(f"[harness] {self.describe_exit()}\n")
                self._log.close()


def descendants(pid: int) -> list[int]:
    """The processes below `pid`: its children, theirs, and so on."""
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat[stat.rindex(")") + 2:].split()[1])
    found, frontier = [], [pid]
    while frontier:
        parent = frontier.pop()
        children = [child for child, p in parents.items() if p == parent]
        found += children
        frontier += children
    return found


# --------------------------------------------------------------------------------------------
# The app's settings: GSettings on GLib's key file backend (GSETTINGS_BACKEND=keyfile), a file
# in each app's own XDG_CONFIG_HOME, read and written by the real `gsettings` tool.

SCHEMA_ID = "io.github.gphotobrowse.Gphotobrowse"
SCHEMA_GROUP = "io/github/gphotobrowse/Gphotobrowse"   # the key file's group: the schema's path


def schema_dir(app_binary: str | Path) -> Path:
    """The folder holding the compiled schema the app reads, found as the app finds it
    (SettingsSchema.directory): beside it in schemas/ or data/, or ../share/glib-2.0/schemas."""
    folder = Path(app_binary).resolve().parent
    for candidate in (folder / "schemas", folder / "data", folder.parent / "share" / "glib-2.0" / "schemas"):
        if (candidate / "gschemas.compiled").is_file():
            return candidate
    raise AssertionError(f"no compiled settings schema beside {app_binary} (schemas/, data/ or "
                         "../share/glib-2.0/schemas): meson compile, or build-aux/run.sh, compiles it")


def settings_key_file(config_home: str | Path) -> Path:
    """Where the key file backend keeps the settings under XDG_CONFIG_HOME."""
    return Path(config_home) / "glib-2.0" / "settings" / "keyfile"


def preset_settings(config_home: str | Path, values: dict[str, str]) -> None:
    """Writes settings before the app starts, as if the person had chosen them in an earlier
    run: values in GVariant text ("'name'", "true", "192")."""
    path = settings_key_file(config_home)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"[{SCHEMA_GROUP}]\n" + "".join(f"{key}={value}\n" for key, value in values.items()))


def gsettings(app: "App", *args: str) -> str:
    """Runs `gsettings ARGS` on the app's settings (its backend, config folder and schema)."""
    env = {k: v for k, v in app.environment.items() if k != "DBUS_SESSION_BUS_ADDRESS"}
    result = run(["gsettings", "--schemadir", str(schema_dir(app.argv[0])), *args], env=env)
    return result.stdout.decode().strip()


def setting(app: "App", key: str) -> str:
    """A key's value as `gsettings get` prints it ('name', true, 192)."""
    return gsettings(app, "get", SCHEMA_ID, key)


# --------------------------------------------------------------------------------------------
# A private session bus per app, so GtkApplication's uniqueness never reaches another test.


class SessionBus:
    """A private session bus for one app; what it and the services it starts (gvfsd and its
    backends) write goes to log_path, when given."""

    def __init__(self, env: dict[str, str], log_path: Path | None = None):
        self.process = None
        self.address = None
        self.log_path = log_path
        if not shutil.which("dbus-daemon"):
            return
        # The address comes on a pipe of its own; stdout and stderr (the bus's, and those of the
        # services it starts, which inherit them) go to the log, never to a pipe nobody reads.
        read_end, write_end = os.pipe()
        log = log_path.open("wb") if log_path else subprocess.DEVNULL
        folder = log_path.with_name(log_path.name + ".bus") if log_path else Path(tempfile.mkdtemp(prefix="gpb-bus-"))
        folder.mkdir(exist_ok=True)
        config = self.config(folder, env)
        try:
            self.process = subprocess.Popen(["dbus-daemon", f"--config-file={config}", "--nofork", f"--print-address={write_end}"],
                                            env=env, stdout=log, stderr=log, pass_fds=(write_end,))
        finally:
            os.close(write_end)
            if log_path:
                log.close()
        with os.fdopen(read_end, "rb") as address:
            ready, _, _ = select.select([address], [], [], 10)
            line = address.readline().decode().strip() if ready else ""
        if not line:
            self.stop()
            raise RuntimeError("dbus-daemon did not print its address within 10 s")
        self.address = line

    # The desktop's portals are the tests' own stand-ins, or none: a machine with
    # xdg-desktop-portal installed would otherwise start it on the first call to it (libadwaita
    # asks it for the style at start-up), and the stand-in could not take its name.
    LEFT_OUT = ("org.freedesktop.portal.", "org.freedesktop.impl.portal.")

    @classmethod
    def config(cls, folder: Path, env: dict[str, str]) -> Path:
        """A session bus's configuration whose services are the machine's, but the portals."""
        services = folder / "services"
        services.mkdir(exist_ok=True)
        data_dirs = [env.get("XDG_DATA_HOME", "")] + env.get("XDG_DATA_DIRS", "").split(":") + ["/usr/local/share", "/usr/share"]
        for directory in [Path(d) / "dbus-1" / "services" for d in data_dirs if d]:
            for service in sorted(directory.glob("*.service")) if directory.is_dir() else []:
                link = services / service.name
                if not service.name.startswith(cls.LEFT_OUT) and not link.exists():
                    link.symlink_to(service)
        config = folder / "session.conf"
        config.write_text(f"""<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <keep_umask/>
  <listen>unix:tmpdir={tempfile.gettempdir()}</listen>
  <auth>EXTERNAL</auth>
  <servicedir>{services}</servicedir>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
""")
        return config

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)


# --------------------------------------------------------------------------------------------
# Waiting on the screen, and gphotobrowse's own milestones


def wait_for_screen(app: App, check, timeout: float = 10, what: str = "the expected pixels",
                    save_to: Path | None = None) -> Image:
    """Screenshots the app's window until check(image) returns a true first value.

    check returns (ok, detail); the detail of the last try is in the failure message, and the
    last screenshot is saved (to save_to, or next to the app's stderr log) for a look.
    """
    deadline = Deadline(timeout)
    while True:
        image = app.screenshot()
        ok, detail = check(image)
        if ok:
            return image
        if deadline.expired():
            path = save_to or app.log_path.with_name("last-screenshot.png")
            image.save(path)
            raise AssertionError(f"the window did not show {what} within {timeout} s: {detail}\n"
                                 f"(last screenshot: {path})")
        time.sleep(0.2)


def open_folder(launch, folder: Path, count: int | None = None, timeout: float = 30,
                sort_by: str | None = None, extra_env: dict[str, str] | None = None) -> App:
    """Starts `gphotobrowse FOLDER` and waits until its grid is listed, titled and filled."""
    app = launch(folder, sort_by=sort_by, extra_env=extra_env)
    m = app.wait_for_line(r"^trace enumerated (\d+) \d+$", timeout=timeout)
    if count is not None:
        assert int(m.group(1)) == count, f"enumerated {m.group(1)} photos in {folder}, expected {count}"
    app.wait_for_window(rf"^{re.escape(folder.name)}$", timeout=timeout)
    app.wait_for_line(r"^trace visible-thumbnails \d+ \d+$", timeout=timeout)
    return app


def open_search(app: App) -> None:
    """Ctrl+F, and waits for the search bar to show."""
    app.key("ctrl+f")
    app.wait_for_line(r"^trace shown GtkSearchBar search \d+$")


def search_for(app: App, text: str, count: int) -> None:
    """Types `text` into the search bar (Ctrl+F opens it) and waits for its count."""
    mark = app.mark()
    app.x.xdotool("type", "--delay", "30", text)
    app.wait_for_line(rf"^trace filtered {count} \d+$", since=mark)


def clear_search(app: App, count: int) -> None:
    """Escape clears the search and closes its bar; waits until the `count` photos show again."""
    mark = app.mark()
    app.key("Escape")
    app.wait_for_line(rf"^trace filtered {count} \d+$", since=mark)


def choose_folder(app: App, title: str, folder: Path) -> None:
    """In GTK's folder chooser titled `title` (opened by the app), types `folder`'s path and
    chooses it."""
    deadline = Deadline(10)
    while not app.x.windows_named(rf"^{re.escape(title)}$"):
        if deadline.expired():
            raise AssertionError(f"no window named {title} within 10 s")
        time.sleep(0.1)
    app.x.focus(app.x.windows_named(rf"^{re.escape(title)}$")[0])
    app.x.key("ctrl+l")
    time.sleep(0.3)
    app.x.xdotool("type", "--delay", "20", str(folder) + "/")
    time.sleep(0.5)
    app.x.key("Return")
    time.sleep(0.5)
    if app.x.windows_named(rf"^{re.escape(title)}$"):
        app.x.key("Return")  # the first Return went into the folder; this one chooses it


def wait_for_still_screen(app: App, check, timeout: float = 10, what: str = "the expected pixels") -> Image:
    """As wait_for_screen, and then until two looks 0.2 s apart are the same (a page's
    crossfade is over, so what is seen is also where input goes)."""
    last = wait_for_screen(app, check, timeout=timeout, what=what)
    deadline = Deadline(10)
    while True:
        time.sleep(0.2)
        image = app.screenshot()
        if image.data == last.data or deadline.expired():
            return image
        last = image


def tiles_check(colours: dict[str, tuple[int, int, int]], min_side: int = 100, max_side: int = 200,
                area: "Rect | None" = None):
    """A wait_for_screen check: each colour shows as one solid, square, tile-sized patch
    (within area, when given: below the header bar, whose album chips show covers)."""

    def check(image: Image):
        blobs = (image.crop(area) if area else image).blobs(colours)
        problems = []
        for name in colours:
            blob = blobs.get(name)
            if blob is None:
                problems.append(f"no {name} pixels")
                continue
            if not (min_side <= blob.width <= max_side and min_side <= blob.height <= max_side):
                problems.append(f"{blob} is not tile-sized ({min_side}..{max_side} px a side)")
            elif not 0.8 <= blob.width / blob.height <= 1.25:
                problems.append(f"{blob} is not square")
            elif blob.area < 0.8 * blob.width * blob.height:
                problems.append(f"{blob} is not one solid patch")
        return not problems, "; ".join(problems) or "ok"

    return check


def photo_fills_view_check(colour: tuple[int, int, int], name: str, header: int = 60,
                           min_fraction: float = 0.4):
    """A wait_for_screen check: the content area's centre and ≥ min_fraction of the window
    are the photo's colour."""

    def check(image: Image):
        centre = (image.width // 2, header + (image.height - header) // 2)
        pixel = image.pixel(*centre)
        fraction = image.fraction_of(colour)
        ok = close_to(pixel, colour, 40) and fraction >= min_fraction
        return ok, f"centre pixel {centre} is {pixel}, {fraction:.0%} of the window is {name}"

    return check
