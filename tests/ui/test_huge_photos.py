"""A photo far larger than the screen (16000×10000, 160 MP: a JPEG, a PNG, a TIFF) at 100%:
the viewer shows its real pixels (decoded a tile at a time), after panning too, with the
browser and its decoder processes within their memory limits."""

import re
from pathlib import Path

import pytest

from harness import Rect, close_to, wait_for_screen

WIDTH, HEIGHT, BLOCK = 16000, 10000, 8
BROWSER_LIMIT_MB = 200
DECODER_LIMIT_MB = 300


def block_colour(bx: int, by: int) -> tuple[int, int, int]:
    """Each 8-pixel square its own colour, far from its neighbours' (fine detail that the
    fit-size image, an eighth of the size, cannot hold)."""
    return (((bx * 37) % 32) * 8 + 4, ((by * 41) % 32) * 8 + 4, (((bx // 32) * 11 + (by // 32) * 7) % 32) * 8 + 4)


# How each format is written: a JPEG without chroma subsampling, a PNG quickly compressed,
# a TIFF in deflate strips (Pillow's 64 KB strips, as scanners write them).
SAVED = {"jpg": dict(quality=95, subsampling=0), "png": dict(compress_level=1), "tif": dict(compression="tiff_deflate")}


def make_huge(path: Path) -> Path:
    from PIL import Image
    bw, bh = WIDTH // BLOCK, HEIGHT // BLOCK
    data = bytearray()
    for by in range(bh):
        for bx in range(bw):
            data += bytes(block_colour(bx, by))
    small = Image.frombytes("RGB", (bw, bh), bytes(data))
    small.resize((WIDTH, HEIGHT), Image.NEAREST).save(path, **SAVED[path.suffix[1:]])
    return path


def decoder_peaks_mb(app) -> dict[int, int]:
    """Each decoder process's peak resident memory (VmHWM), in MB."""
    peaks = {}
    for pid, status in app.decoder_processes().items():
        peak = re.search(r"^VmHWM:\s+(\d+) kB", status, re.M)
        if peak:
            peaks[pid] = int(peak.group(1)) // 1024
    return peaks


def canvas_rect(image) -> Rect:
    """The photo's area under the header bar: from the first row that is not the header's."""
    header = image.pixel(image.width // 3, 12)
    top = next(y for y in range(12, image.height) if not close_to(image.pixel(image.width // 3, y), header, 10)) + 1
    return Rect(6, top, image.width - 12, image.height - top - 6)


def locate(image, x: int, y: int, near: tuple[int, int]) -> tuple[int, int] | None:
    """The photo pixel shown at screen pixel (x, y), found from the colours of the squares
    around it (each says its column and row modulo 32) and where it should be (`near`, within
    a hundred pixels)."""
    # The squares' edges: where the colour changes along the row and the column.
    def edge(step_x: int, step_y: int) -> int | None:
        for n in range(1, 12):
            a = image.pixel(x + (n - 1) * step_x, y + (n - 1) * step_y)
            b = image.pixel(x + n * step_x, y + n * step_y)
            if max(abs(a[i] - b[i]) for i in range(3)) > 6:
                return n
        return None
    right, down = edge(1, 0), edge(0, 1)
    if right is None or down is None:
        return None
    r, g, _ = image.pixel(x, y)
    column_mod = ((r - 4 + 4) // 8 % 32) * 13 % 32    # 37 ≡ 5 and 5·13 ≡ 1 (mod 32)
    row_mod = ((g - 4 + 4) // 8 % 32) * 25 % 32       # 41 ≡ 9 and 9·25 ≡ 1 (mod 32)
    best = None
    for column in range((near[0] - 400) // BLOCK, (near[0] + 400) // BLOCK + 1):
        if column % 32 != column_mod:
            continue
        for row in range((near[1] - 400) // BLOCK, (near[1] + 400) // BLOCK + 1):
            if row % 32 != row_mod:
                continue
            candidate = (column * BLOCK + BLOCK - right, row * BLOCK + BLOCK - down)
            distance = abs(candidate[0] - near[0]) + abs(candidate[1] - near[1])
            if best is None or distance < best[0]:
                best = (distance, candidate)
    return best[1] if best else None


def compare_with_file(reference, image, area: Rect, near: tuple[int, int]) -> tuple[bool, str]:
    """Whether `area` of the screenshot shows the photo's own pixels (decoded by Pillow) of
    the place near `near`: every pixel within a few levels."""
    origin = locate(image, area.x, area.y, near)
    if origin is None:
        return False, "no squares at the area's corner"
    crop = reference.crop((origin[0], origin[1], origin[0] + area.width, origin[1] + area.height))
    shown = crop.tobytes()
    differences = 0
    total = 0
    for dy in range(area.height):
        row = image.data[((area.y + dy) * image.width + area.x) * 3:((area.y + dy) * image.width + area.x + area.width) * 3]
        want = shown[dy * area.width * 3:(dy + 1) * area.width * 3]
        for i in range(0, len(row), 3):
            total += 1
            if max(abs(row[i] - want[i]), abs(row[i + 1] - want[i + 1]), abs(row[i + 2] - want[i + 2])) > 12:
                differences += 1
    return differences <= total // 200, f"{differences} of {total} pixels differ from the file's at {origin}"


@pytest.fixture(scope="module", params=sorted(SAVED))
def huge_photo(request, tmp_path_factory):
    return make_huge(tmp_path_factory.mktemp("huge") / f"panorama.{request.param}")


def test_a_160_megapixel_photo_shows_its_own_pixels_at_100_percent_within_memory_limits(launch, huge_photo):
    from PIL import Image
    Image.MAX_IMAGE_PIXELS = None  # the test's own photo
    reference = Image.open(huge_photo).convert("RGB")

    app = launch(huge_photo)
    app.wait_for_window()
    app.wait_for_line(r"^trace full-image 0 \d+$", timeout=60)
    mark = app.mark()
    app.key("1")
    app.wait_for_line(r"^trace tiles-sharp \d+ \d+$", since=mark, timeout=60)

    # At 100% around the middle: the photo's centre shows at the view's centre.
    area = canvas_rect(app.screenshot())
    probe = Rect(area.x + area.width // 2 - 150, area.y + area.height // 2 - 150, 300, 200)
    near = (WIDTH // 2 - 150, HEIGHT // 2 - 150 - 30)
    wait_for_screen(app, lambda image: compare_with_file(reference, image, probe, near), timeout=15,
                    what="the photo's own pixels at 100%")

    # Panned right and down with the arrow keys (a tenth of the view a press): the next
    # tiles come, sharp.
    mark = app.mark()
    app.key(*["Right"] * 6, *["Down"] * 4)
    app.wait_for_line(r"^trace tiles-sharp \d+ \d+$", since=mark, timeout=60)
    image = app.screenshot()
    moved = locate(image, probe.x, probe.y, (near[0] + 6 * area.width // 10, near[1] + 4 * (area.height - 50) // 10))
    assert moved is not None and moved[0] > near[0] + 200 and moved[1] > near[1] + 100, f"not panned: {moved}"
    wait_for_screen(app, lambda image: compare_with_file(reference, image, probe, moved), timeout=15,
                    what="the photo's own pixels after panning")

    browser = app.peak_memory_mb()
    decoders = decoder_peaks_mb(app)
    assert browser is not None and browser <= BROWSER_LIMIT_MB, f"browser peak {browser} MB"
    assert decoders, "no decoder process found"
    assert max(decoders.values()) <= DECODER_LIMIT_MB, f"decoder peaks {decoders} MB"
    print(f"[huge] {huge_photo.suffix}: browser peak {browser} MB, decoders {decoders} MB")
