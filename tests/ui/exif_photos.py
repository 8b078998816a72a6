"""JPEGs as cameras write them: an EXIF block (APP1) with an orientation, a date taken, and
an embedded preview (IFD1's JPEG), made here byte by byte so a test knows what is in it."""

import struct
import subprocess
from pathlib import Path

from harness import COLOURS, convert_tool


def exif_segment(preview: bytes, orientation: int = 1, taken: str = "2024:05:01 10:00:00") -> bytes:
    """An APP1 segment: IFD0 (orientation, date), then IFD1 pointing at `preview`."""
    date = taken.encode() + b"\0"
    # Big-endian TIFF: header, IFD0 (2 entries), its date value, IFD1 (2 entries), the preview.
    ifd0_at = 8
    ifd0_size = 2 + 2 * 12 + 4
    date_at = ifd0_at + ifd0_size
    ifd1_at = date_at + len(date) + (len(date) % 2)
    preview_at = ifd1_at + 2 + 2 * 12 + 4
    tiff = b"MM" + struct.pack(">HI", 42, ifd0_at)
    tiff += struct.pack(">H", 2)
    tiff += struct.pack(">HHIHH", 0x0112, 3, 1, orientation, 0)          # Orientation
    tiff += struct.pack(">HHII", 0x0132, 2, len(date), date_at)          # DateTime
    tiff += struct.pack(">I", ifd1_at)
    tiff += date + b"\0" * (len(date) % 2)
    tiff += struct.pack(">H", 2)
    tiff += struct.pack(">HHII", 0x0201, 4, 1, preview_at)              # JPEGInterchangeFormat
    tiff += struct.pack(">HHII", 0x0202, 4, 1, len(preview))            # its length
    tiff += struct.pack(">I", 0)
    payload = b"Exif\0\0" + tiff + preview
    assert len(payload) + 2 <= 0xFFFF, "an APP1 segment holds at most 64 KiB"
    return b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload


def camera_jpeg(path: Path, colour: str, preview_colour: str, size: str = "3000x2000") -> Path:
    """A noisy photo of `colour` (large: more than a first read) whose embedded preview, of
    160×120, is `preview_colour`, so what a tile shows tells which one it is."""
    hex_of = lambda name: "#%02x%02x%02x" % COLOURS[name]
    main = path.with_suffix(".main.jpg")
    preview = path.with_suffix(".preview.jpg")
    subprocess.run([convert_tool(), "-size", size, f"xc:{hex_of(colour)}", "-attenuate", "1.0", "+noise", "Uniform",
                    "-quality", "95", str(main)], check=True)
    subprocess.run([convert_tool(), "-size", "160x120", f"xc:{hex_of(preview_colour)}", "-strip", str(preview)], check=True)
    photo = main.read_bytes()
    assert photo[:2] == b"\xff\xd8"
    path.write_bytes(photo[:2] + exif_segment(preview.read_bytes()) + photo[2:])
    main.unlink()
    preview.unlink()
    return path
