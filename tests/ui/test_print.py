"""Printing (Ctrl+P): a page per photo, turned to the photo's shape, the photo fitted to the
page, centred, keeping its aspect. The test hook GPHOTOBROWSE_PRINT_TO (read only with
tracing on) sends the print operation's pages to a PDF instead of the dialog; poppler's
pdfinfo and pdftoppm read that PDF back as a printer would print it."""

import re
import shutil
import subprocess

import pytest

from harness import COLOURS, Image, close_to, convert_tool, run, set_times

WHITE = (255, 255, 255)

pytestmark = pytest.mark.skipif(not shutil.which("pdftoppm") or not shutil.which("pdfinfo"),
                                reason="poppler-utils (pdftoppm, pdfinfo) is not installed")


def two_colour_photo(path, size: str, first: str, second: str, across: bool):
    """A photo of SIZE in two halves: FIRST left (across) or on top, SECOND right or below."""
    w, h = (int(n) for n in size.split("x"))
    half = f"{w // 2}x{h}" if across else f"{w}x{h // 2}"
    hexes = ["#%02x%02x%02x" % COLOURS[c] for c in (first, second)]
    run([convert_tool(), "-size", half, f"xc:{hexes[0]}", "-size", half, f"xc:{hexes[1]}",
         "+append" if across else "-append", str(path)])
    return path


@pytest.fixture
def print_folder(tmp_path):
    folder = tmp_path / "prints"
    folder.mkdir()
    two_colour_photo(folder / "1-wide.png", "1600x1000", "red", "blue", across=True)
    two_colour_photo(folder / "2-tall.png", "1000x1600", "green", "magenta", across=False)
    set_times(folder, ["1-wide.png", "2-tall.png"])
    return folder


def pdf_pages(pdf):
    info = run(["pdfinfo", "-f", "1", "-l", "99", str(pdf)]).stdout.decode()
    pages = int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))
    sizes = [(float(w), float(h)) for w, h in re.findall(r"^Page\s+\d+ size:\s+([\d.]+) x ([\d.]+)", info, re.M)]
    rotations = [int(r) for r in re.findall(r"^Page\s+\d+ rot:\s+(\d+)", info, re.M)]
    return pages, sizes, rotations


def pdf_images(pdf):
    """(page, width, height) of each image in the PDF, as pdfimages lists them."""
    listing = run(["pdfimages", "-list", str(pdf)]).stdout.decode().splitlines()[2:]
    return [(int(f[0]), int(f[3]), int(f[4])) for f in (line.split() for line in listing)]


def rendered(pdf, tmp_path, page: int = 1) -> Image:
    """The page as a printer draws it (rotation included), at 30 dpi."""
    prefix = tmp_path / f"page-{page}"
    subprocess.run(["pdftoppm", "-r", "30", "-f", str(page), "-l", str(page), "-singlefile", str(pdf), str(prefix)],
                   check=True, timeout=60)
    return Image.from_ppm(prefix.with_suffix(".ppm").read_bytes())


def ink_box(image: Image):
    """The box of pixels that are not white paper."""
    xs, ys = [], []
    for x, y, p in image.samples(step=1):
        if not close_to(p, WHITE, 24):
            xs.append(x)
            ys.append(y)
    assert xs, "the page is blank"
    return min(xs), min(ys), max(xs), max(ys)


def print_photo(launch, folder, name, tmp_path):
    pdf = tmp_path / f"{name}.pdf"
    app = launch(folder / name, sort_by="name", extra_env={"GPHOTOBROWSE_PRINT_TO": str(pdf)})
    app.wait_for_window(rf"^{re.escape(name)}$")
    app.wait_for_line(r"^trace full-image \d+ \d+$")
    mark = app.mark()
    app.key("ctrl+p")
    app.wait_for_line(r"^trace printed 1 \d+$", since=mark, timeout=60)
    assert pdf.is_file() and pdf.stat().st_size > 0, "no PDF was written"
    return app, pdf


def check_page(image: Image, first: str, second: str, across: bool, aspect: float):
    left, top, right, bottom = ink_box(image)
    width, height = right - left + 1, bottom - top + 1
    # Fitted: it fills the printable area along one side (the page less its margins).
    long_side = width if across else height
    page_side = image.width if across else image.height
    assert long_side >= 0.85 * page_side, f"the photo is {width}x{height} on a {image.width}x{image.height} page: not fitted"
    assert abs(width / height - aspect) < 0.05, f"the photo printed {width}x{height}, not in its aspect {aspect}"
    # Centred on the page.
    assert abs(left - (image.width - 1 - right)) <= 3, f"not centred across: {left} px left, {image.width - 1 - right} px right"
    assert abs(top - (image.height - 1 - bottom)) <= 3, f"not centred down: {top} px above, {image.height - 1 - bottom} px below"
    # Its halves where they are in the photo.
    cx, cy = (left + right) // 2, (top + bottom) // 2
    if across:
        a, b = image.pixel(left + width // 4, cy), image.pixel(right - width // 4, cy)
    else:
        a, b = image.pixel(cx, top + height // 4), image.pixel(cx, bottom - height // 4)
    assert close_to(a, COLOURS[first], 40), f"the {first} half printed as {a}"
    assert close_to(b, COLOURS[second], 40), f"the {second} half printed as {b}"


def test_a_wide_photo_prints_on_a_landscape_page(launch, print_folder, tmp_path):
    app, pdf = print_photo(launch, print_folder, "1-wide.png", tmp_path)
    pages, sizes, rotations = pdf_pages(pdf)
    assert pages == 1
    # The photo itself, whole: one image of its pixels (it is smaller than 300 dpi needs).
    assert pdf_images(pdf) == [(1, 1600, 1000)]
    image = rendered(pdf, tmp_path)
    assert image.width > image.height, f"the page is {image.width}x{image.height} as printed ({sizes}, rotated {rotations}): not landscape"
    check_page(image, "red", "blue", across=True, aspect=1.6)
    assert app.quit() == 0


def test_a_tall_photo_prints_on_a_portrait_page(launch, print_folder, tmp_path):
    app, pdf = print_photo(launch, print_folder, "2-tall.png", tmp_path)
    pages, sizes, rotations = pdf_pages(pdf)
    assert pages == 1
    assert pdf_images(pdf) == [(1, 1000, 1600)]
    image = rendered(pdf, tmp_path)
    assert image.height > image.width, f"the page is {image.width}x{image.height} as printed ({sizes}, rotated {rotations}): not portrait"
    check_page(image, "green", "magenta", across=False, aspect=1000 / 1600)
    assert app.quit() == 0


def test_the_grid_prints_the_selection_a_page_each(launch, print_folder, tmp_path):
    pdf = tmp_path / "both.pdf"
    app = launch(print_folder, sort_by="name", extra_env={"GPHOTOBROWSE_PRINT_TO": str(pdf)})
    app.wait_for_window(rf"^{re.escape(print_folder.name)}$")
    app.wait_for_line(r"^trace visible-thumbnails 2 \d+$")
    mark = app.mark()
    app.key("ctrl+a")  # edit mode, everything chosen
    app.key("ctrl+p")
    app.wait_for_line(r"^trace printed 2 \d+$", since=mark, timeout=60)
    pages, _, _ = pdf_pages(pdf)
    assert pages == 2
    assert pdf_images(pdf) == [(1, 1600, 1000), (2, 1000, 1600)]
    wide, tall = rendered(pdf, tmp_path, 1), rendered(pdf, tmp_path, 2)
    assert wide.width > wide.height and tall.height > tall.width, "each page is turned to its photo"
    check_page(wide, "red", "blue", across=True, aspect=1.6)
    check_page(tall, "green", "magenta", across=False, aspect=1000 / 1600)
    assert app.quit() == 0
