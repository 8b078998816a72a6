"""Test videos made by the tests themselves with GStreamer's gst-launch-1.0 (gstreamer1.0-tools):
each frame a still picture made with ImageMagick (a colour, or two colours side by side, so
that a rotation shows), encoded as MPEG-4 Part 2 in MP4 (avenc_mpeg4 and mp4mux: Debian's
GStreamer has no H.264 encoder without gstreamer1.0-plugins-ugly) or VP8 in WebM. Debian 12's
avenc_mpeg4 leaves its frames without timestamps, so mp4mux writes every frame but the last
as lasting nothing: the frames' durations are written into the sample table (stts) and the
lengths (mdhd, mvhd, tkhd, elst) here. mp4mux writes neither a rotation nor a creation date
from tags either, so both are written into the file's boxes too: the video track's matrix
(tkhd) and the movie's creation time (mvhd).

Run as a program (`python3 made_videos.py OUT.mp4 --colours red,blue --rotate 90
--created 2021-05-06T07:08:09Z --seconds 3`) for the Swift tests."""

import argparse
import calendar
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GST_LAUNCH = shutil.which("gst-launch-1.0")
MP4_EPOCH = 2082844800  # seconds from 1904-01-01 to 1970-01-01


def convert_tool() -> str:
    return shutil.which("magick") or shutil.which("convert") or "convert"


def make_video(path: Path, colours: tuple[str, ...] = ("red",), width: int = 320, height: int = 192,
               seconds: int = 3, rotate: int = 0, created: str | None = None, fourcc: str | None = None) -> Path:
    """A video of `seconds` at 10 frames a second showing `colours` side by side (left to
    right), stored `width`×`height`; `rotate` (0, 90, 180, 270: clockwise, as phones record)
    and `created` (ISO 8601 in UTC, MP4 only) written into its boxes; `fourcc` (MP4 only)
    names another codec in its sample description than the MPEG-4 its frames are in (a
    codec no decoder is installed for)."""
    assert GST_LAUNCH, "gst-launch-1.0 is missing (apt-get install gstreamer1.0-tools)"
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        frame = Path(folder) / "frame.png"
        stripe = width // len(colours)
        command = [convert_tool(), "-size", f"{width}x{height}", "xc:black"]
        for index, colour in enumerate(colours):
            command += ["-fill", colour, "-draw", f"rectangle {index * stripe},0 {(index + 1) * stripe - 1},{height - 1}"]
        subprocess.run(command + [f"PNG24:{frame}"], check=True)
        webm = path.suffix.lower() in (".webm", ".mkv")
        encode = ["vp8enc", "deadline=1", "!", "webmmux" if path.suffix.lower() == ".webm" else "matroskamux"] if webm else \
            ["avenc_mpeg4", "bitrate=400000", "!", "mp4mux"]
        subprocess.run([GST_LAUNCH, "-q", "filesrc", f"location={frame}", "!", "pngdec", "!", "imagefreeze",
                        f"num-buffers={seconds * 10}", "!", "video/x-raw,framerate=10/1", "!", "videoconvert", "!",
                        "video/x-raw,format=I420", "!", *encode, "!", "filesink", f"location={path}"],
                       check=True, stdout=subprocess.DEVNULL)
    assert not (webm and (rotate or created)), "rotation and dates are written into MP4 files only"
    if not webm:
        data = bytearray(path.read_bytes())
        set_timing(data, frames=seconds * 10, fps=10)
        if rotate:
            set_rotation(data, rotate)
        if created:
            set_created(data, calendar.timegm(time.strptime(created, "%Y-%m-%dT%H:%M:%SZ")))
        if fourcc:
            at = data.find(b"mp4v")
            assert at > 0 and len(fourcc) == 4, "no MPEG-4 sample description"
            data[at:at + 4] = fourcc.encode()
        path.write_bytes(bytes(data))
    return path


def _box(data: bytearray, name: bytes) -> int:
    at = data.find(name)
    assert at >= 4, f"no {name!r} box"
    return at + 4  # the box's version byte


def _u32(data: bytearray, at: int) -> int:
    return struct.unpack(">I", data[at:at + 4])[0]


def _set_u32(data: bytearray, at: int, value: int) -> None:
    data[at:at + 4] = struct.pack(">I", value)


def set_timing(data: bytearray, frames: int, fps: int) -> None:
    """Each of the `frames` samples lasting 1/`fps` s (stts), and the track's and the movie's
    lengths saying so (mdhd, tkhd, mvhd, elst; all version 0, as mp4mux writes them)."""
    mdhd = _box(data, b"mdhd")
    media_scale = _u32(data, mdhd + 12)
    _set_u32(data, mdhd + 16, media_scale * frames // fps)
    stts = _box(data, b"stts")
    delta = media_scale // fps
    for entry in range(_u32(data, stts + 4)):
        _set_u32(data, stts + 8 + entry * 8 + 4, delta)
    mvhd = _box(data, b"mvhd")
    movie_scale = _u32(data, mvhd + 12)
    length = movie_scale * frames // fps
    _set_u32(data, mvhd + 16, length)
    _set_u32(data, _box(data, b"tkhd") + 20, length)
    if data.find(b"elst") >= 0:
        _set_u32(data, _box(data, b"elst") + 8, length)


def set_rotation(data: bytearray, degrees: int) -> None:
    """The video track's matrix (tkhd, version 0): a clockwise turn by `degrees`."""
    at = _box(data, b"tkhd")
    assert data[at] == 0, "a version 1 tkhd"
    matrix = at + 4 + 4 + 4 + 4 + 4 + 4 + 8 + 2 + 2 + 2 + 2
    one = 0x10000
    a, b, c, d = {0: (one, 0, 0, one), 90: (0, one, -one, 0), 180: (-one, 0, 0, -one), 270: (0, -one, one, 0)}[degrees]
    data[matrix:matrix + 36] = struct.pack(">9i", a, b, 0, c, d, 0, 0, 0, 0x40000000)


def set_created(data: bytearray, unix_seconds: int) -> None:
    """The movie's creation and modification times (mvhd, version 0)."""
    at = _box(data, b"mvhd")
    assert data[at] == 0, "a version 1 mvhd"
    data[at + 4:at + 12] = struct.pack(">II", unix_seconds + MP4_EPOCH, unix_seconds + MP4_EPOCH)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("output", type=Path)
    parser.add_argument("--colours", default="red")
    parser.add_argument("--size", default="320x192")
    parser.add_argument("--seconds", type=int, default=3)
    parser.add_argument("--rotate", type=int, default=0)
    parser.add_argument("--created")
    parser.add_argument("--fourcc")
    arguments = parser.parse_args()
    width, height = (int(n) for n in arguments.size.split("x"))
    make_video(arguments.output, tuple(arguments.colours.split(",")), width, height, arguments.seconds,
               arguments.rotate, arguments.created, arguments.fourcc)
    sys.exit(0)
