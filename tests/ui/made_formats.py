"""Test files made by the tests themselves, so that where each comes from is this code: ICC
profiles (a ProPhoto RGB one, a CMYK one), photos carrying them, and a DNG without a preview.
Pillow (and through it Little CMS) gives the sRGB each photo's pixels should show as."""

import io
import struct
from pathlib import Path

from PIL import Image, ImageCms

D50 = (0.9642, 1.0, 0.8249)


def _s15(value: float) -> bytes:
    return struct.pack(">i", round(value * 65536))


def _xyz(x: float, y: float, z: float) -> bytes:
    return b"XYZ " + bytes(4) + _s15(x) + _s15(y) + _s15(z)


def _desc(text: str) -> bytes:
    ascii_ = text.encode() + b"\0"
    return b"desc" + bytes(4) + struct.pack(">I", len(ascii_)) + ascii_ + bytes(4 + 4 + 2 + 1 + 67)


def _text(text: str) -> bytes:
    return b"text" + bytes(4) + text.encode() + b"\0"


def icc_profile(device_class: bytes, colour_space: bytes, pcs: bytes, tags: dict[bytes, bytes]) -> bytes:
    """An ICC version 2.1 profile holding `tags` (signature: data)."""
    table, data = b"", b""
    offset = 128 + 4 + 12 * len(tags)
    for signature, body in tags.items():
        body += bytes(-len(body) % 4)
        table += signature + struct.pack(">II", offset + len(data), len(body))
        data += body
    size = offset + len(data)
    header = (struct.pack(">I", size) + b"lcms" + struct.pack(">I", 0x02100000) + device_class + colour_space + pcs
              + struct.pack(">6H", 2026, 1, 1, 0, 0, 0) + b"acsp" + bytes(4 + 4 + 4 + 4 + 8 + 4)
              + _s15(D50[0]) + _s15(D50[1]) + _s15(D50[2]) + bytes(4 + 16 + 28))
    assert len(header) == 128
    return header + struct.pack(">I", len(tags)) + table + data


def prophoto_profile() -> bytes:
    """ProPhoto RGB (ROMM RGB): its D50 colorants and a gamma of 1.8."""
    gamma = b"curv" + bytes(4) + struct.pack(">IH", 1, round(1.8 * 256))
    return icc_profile(b"mntr", b"RGB ", b"XYZ ", {
        b"desc": _desc("ProPhoto RGB (made by gphotobrowse's tests)"),
        b"cprt": _text("No copyright, use freely"),
        b"wtpt": _xyz(*D50),
        b"rXYZ": _xyz(0.7977, 0.2880, 0.0000),
        b"gXYZ": _xyz(0.1352, 0.7119, 0.0000),
        b"bXYZ": _xyz(0.0313, 0.0001, 0.8249),
        b"rTRC": gamma, b"gTRC": gamma, b"bTRC": gamma,
    })


def _lab(r: float, g: float, b: float) -> tuple[float, float, float]:
    """Lab (D50) of linear sRGB-primaries light, adapted to D50 with Bradford's matrix."""
    x = 0.4360747 * r + 0.3850649 * g + 0.1430804 * b
    y = 0.2225045 * r + 0.7168786 * g + 0.0606169 * b
    z = 0.0139322 * r + 0.0971045 * g + 0.7141733 * b

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x / D50[0]), f(y / D50[1]), f(z / D50[2])
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def cmyk_profile() -> bytes:
    """A CMYK input profile: inks to Lab through a 2-point grid (lut8Type), a simple model
    of subtractive inks that is not the naive formula (the yellow ink is a little red)."""
    grid = b""
    for c in (0, 1):
        for m in (0, 1):
            for y in (0, 1):
                for k in (0, 1):
                    r = (1 - 0.9 * c) * (1 - 0.85 * k)
                    g = (1 - 0.8 * m) * (1 - 0.85 * k)
                    b = (1 - 0.95 * y) * (1 - 0.1 * m) * (1 - 0.85 * k)
                    lab = _lab(r, g * (1 - 0.15 * y), b)
                    grid += bytes([max(0, min(255, round(lab[0] * 255 / 100))),
                                   max(0, min(255, round(lab[1] + 128))), max(0, min(255, round(lab[2] + 128)))])
    ramp = bytes(range(256))
    lut = (b"mft1" + bytes(4) + bytes([4, 3, 2, 0]) + b"".join(_s15(v) for v in (1, 0, 0, 0, 1, 0, 0, 0, 1))
           + ramp * 4 + grid + ramp * 3)
    return icc_profile(b"scnr", b"CMYK", b"Lab ", {
        b"desc": _desc("Simple CMYK (made by gphotobrowse's tests)"),
        b"cprt": _text("No copyright, use freely"),
        b"wtpt": _xyz(*D50),
        b"A2B0": lut,
    })


def srgb_of(image: Image.Image, icc: bytes) -> tuple[int, int, int]:
    """The centre of `image` (in the colours of profile `icc`) converted to sRGB by Little CMS,
    perceptual, as the decoder processes convert it."""
    converted = ImageCms.profileToProfile(image, ImageCms.ImageCmsProfile(io.BytesIO(icc)), ImageCms.createProfile("sRGB"),
                                          renderingIntent=ImageCms.Intent.PERCEPTUAL, outputMode="RGB")
    return converted.getpixel((image.width // 2, image.height // 2))


def prophoto_png(path: Path, colour=(190, 110, 50), size=(96, 64)) -> tuple[int, int, int]:
    """A flat PNG in ProPhoto RGB with its profile embedded; returns lcms's sRGB of it."""
    icc = prophoto_profile()
    image = Image.new("RGB", size, colour)
    image.save(path, icc_profile=icc)
    return srgb_of(Image.open(path).convert("RGB"), icc)


def cmyk_jpeg(path: Path, inks=(30, 160, 220, 40), size=(96, 64)) -> tuple[int, int, int]:
    """A flat CMYK JPEG (Adobe's inverted inks, as Photoshop writes them) with its CMYK profile
    embedded; returns lcms's sRGB of the inks as stored."""
    icc = cmyk_profile()
    Image.new("CMYK", size, inks).save(path, quality=100, icc_profile=icc)
    return srgb_of(Image.open(path), icc)


def dng_without_preview(path: Path, width: int = 384, height: int = 256) -> None:
    """A DNG holding only raw data (16-bit, uncompressed, an RGGB Bayer mosaic), no preview:
    the left half orange-red, the right half blue, each darkening from top to bottom. Its
    colour matrix makes the camera's channels linear sRGB."""
    def channel(x: int, y: int) -> int:
        red, blue = (0.8, 0.25, 0.05), (0.05, 0.15, 0.7)
        base = red if x < width // 2 else blue
        shade = 1 - 0.6 * y / height
        # RGGB: red at even columns of even rows, blue at odd columns of odd rows, else green.
        colour = 0 if (x % 2, y % 2) == (0, 0) else 2 if (x % 2, y % 2) == (1, 1) else 1
        return round(base[colour] * shade * 65535)

    pixels = b"".join(struct.pack(f"<{width}H", *(channel(x, y) for x in range(width))) for y in range(height))
    inverse_srgb = (3.2406, -1.5372, -0.4986, -0.9689, 1.8758, 0.0415, 0.0557, -0.2040, 1.0570)
    model = b"gphotobrowse test DNG\0"
    # (tag, type, count, value bytes); types: 1 BYTE, 2 ASCII, 3 SHORT, 4 LONG, 5 RATIONAL, 10 SRATIONAL
    entries = [
        (254, 4, 1, struct.pack("<I", 0)),
        (256, 4, 1, struct.pack("<I", width)),
        (257, 4, 1, struct.pack("<I", height)),
        (258, 3, 1, struct.pack("<H", 16)),
        (259, 3, 1, struct.pack("<H", 1)),
        (262, 3, 1, struct.pack("<H", 32803)),
        (271, 2, 13, b"gphotobrowse\0"),
        (272, 2, 5, b"Test\0"),
        (273, 4, 1, None),  # the strip's offset, filled in below
        (274, 3, 1, struct.pack("<H", 1)),
        (277, 3, 1, struct.pack("<H", 1)),
        (278, 4, 1, struct.pack("<I", height)),
        (279, 4, 1, struct.pack("<I", len(pixels))),
        (284, 3, 1, struct.pack("<H", 1)),
        (33421, 3, 2, struct.pack("<2H", 2, 2)),
        (33422, 1, 4, bytes([0, 1, 1, 2])),
        (50706, 1, 4, bytes([1, 4, 0, 0])),
        (50707, 1, 4, bytes([1, 1, 0, 0])),
        (50708, 2, len(model), model),
        (50717, 4, 1, struct.pack("<I", 65535)),
        (50721, 10, 9, b"".join(struct.pack("<ii", round(v * 10000), 10000) for v in inverse_srgb)),
        (50728, 5, 3, struct.pack("<6I", 1, 1, 1, 1, 1, 1)),
        (50778, 3, 1, struct.pack("<H", 21)),
    ]
    ifd_size = 2 + 12 * len(entries) + 4
    extra_at = 8 + ifd_size
    extra = b""
    # Values over four bytes go after the directory, then the strip.
    sizes = {1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 10: 8}
    laid = []
    for tag, kind, count, value in entries:
        if value is not None and len(value) > 4:
            laid.append((tag, kind, count, struct.pack("<I", extra_at + len(extra))))
            extra += value + bytes(len(value) % 2)
        else:
            laid.append((tag, kind, count, value))
    strip_at = extra_at + len(extra)
    ifd = struct.pack("<H", len(laid))
    for tag, kind, count, value in laid:
        if value is None:
            value = struct.pack("<I", strip_at)
        assert sizes[kind] * count <= 4 or len(value) == 4
        ifd += struct.pack("<HHI", tag, kind, count) + value.ljust(4, b"\0")
    ifd += struct.pack("<I", 0)
    path.write_bytes(b"II*\0" + struct.pack("<I", 8) + ifd + extra + pixels)
