"""Formats beyond gdk-pixbuf's, decoded in the decoder processes: RAW (LibRaw), HEIC and AVIF
(libheif), JPEG XL (libjxl), and colour profiles converted to sRGB (lcms2). Each photo is a
real file from tests/data/formats (tests/README.md says where each comes from) or a file
made by made_formats.py, shown in the viewer, and checked by the pixels on screen."""

import shutil
from pathlib import Path

import pytest

import made_formats
from harness import REPO, Rect, close_to, wait_for_screen, wait_for_still_screen

DATA = REPO / "tests" / "data" / "formats"
BACKGROUND = (0x1E, 0x1E, 0x1E)  # the viewer's backdrop


def photo_bounds(image, area: Rect):
    """The box of non-backdrop pixels inside `area`: the photo's rows on the middle column,
    then its columns on the middle of those rows (a photo only a few rows high is found too)."""
    mid_x = area.x + area.width // 2
    ys = [y for y in range(area.y, area.y + area.height) if not close_to(image.pixel(mid_x, y), BACKGROUND, 6)]
    assert ys, "no photo on screen"
    mid_y = (min(ys) + max(ys)) // 2
    xs = [x for x in range(area.x, area.x + area.width) if not close_to(image.pixel(x, mid_y), BACKGROUND, 6)]
    assert xs, "no photo on screen"
    return Rect(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)


MADE = {"no-preview.dng": made_formats.dng_without_preview}


def shown(launch, tmp_path, name: str, make=None):
    """Opens the viewer on a copy of tests/data/formats/NAME (or a file `make(path)` or
    made_formats makes), alone in a folder; returns the app and the photo's box on screen
    once its full image shows and the screen is still."""
    folder = tmp_path / "formats"
    folder.mkdir()
    photo = folder / name
    if make or name in MADE:
        (make or MADE[name])(photo)
    else:
        shutil.copy(DATA / name, photo)
    app = launch(photo)
    app.wait_for_window(rf"^{photo.name}$")
    app.wait_for_line(r"^trace full-image 0 \d+$", timeout=60)
    g = app.geometry()
    image = wait_for_still_screen(app, lambda image: (True, ""), what="the viewer")
    # The canvas starts below the header bar and its border line: found by the header bar's
    # colour, not by the first backdrop pixel, which a dark photo touching the header bar
    # has too.
    header = image.pixel(g.width // 3, 12)
    top = next(y for y in range(12, g.height) if not close_to(image.pixel(g.width // 3, y), header, 10)) + 1
    toolbar = 70  # the toolbar floats over the bottom of the canvas
    area = Rect(6, top, g.width - 12, g.height - top - 6 - toolbar)
    return app, image, photo_bounds(image, area)


def test_a_raw_with_a_preview_shows_it_upright_by_the_files_orientation(launch, tmp_path):
    # A FinePix S5Pro RAF whose raw data is stripped: only its 160×120 preview can show, and
    # its orientation (a quarter turn clockwise) stands it up: 120×160 on screen.
    app, image, box = shown(launch, tmp_path, "fujifilm-s5pro-rotated.raf")
    assert box.height > box.width * 1.2, f"the RAF's preview is not turned upright: {box}"
    assert image.crop(box).distinct_colours() >= 8, "the preview's picture is not on screen"
    assert app.quit() == 0


def test_a_raw_without_a_preview_is_developed(launch, tmp_path):
    # A DNG of raw data alone, made by the test (made_formats.dng_without_preview): 384×256,
    # its left half orange-red and its right half blue; only LibRaw's development shows it.
    app, image, box = shown(launch, tmp_path, "no-preview.dng")
    assert box.width > 300 and 1.3 < box.width / box.height < 1.7, f"not the developed 3:2 photo: {box}"
    assert image.crop(box).distinct_colours() >= 8, "the developed picture is not on screen"
    y = box.y + box.height // 4
    left, right = image.pixel(box.x + box.width // 4, y), image.pixel(box.x + 3 * box.width // 4, y)
    assert left[0] > left[2] + 80, f"the left half is {left}, not orange-red"
    assert right[2] > right[0] + 80, f"the right half is {right}, not blue"
    assert app.quit() == 0


def test_a_raw_libraw_cannot_read_gets_a_broken_tile_and_nothing_crashes(launch, tmp_path):
    folder = tmp_path / "unreadable-raw"
    folder.mkdir()
    shutil.copy(DATA / "canon-unreadable.cr2", folder / "canon-unreadable.cr2")
    app = launch(folder)
    count = int(app.wait_for_line(r"^trace enumerated (\d+) \d+$", timeout=30).group(1))
    assert count == 1, "the CR2 is not listed as a photo"
    app.wait_for_line(r"^trace tile-failed 0 \d+$", timeout=60)
    assert app.quit() == 0


def test_an_iphone_heic_stands_upright_by_its_rotation(launch, tmp_path):
    # 4032×3024 as stored, a quarter turn (irot) to 3024×4032: portrait, 3:4.
    app, _image, box = shown(launch, tmp_path, "iphone-13-pro-max.heic")
    assert 0.7 < box.width / box.height < 0.8, f"the HEIC is not upright (3:4): {box}"
    assert app.quit() == 0


def test_an_avif_with_irot_is_turned(launch, tmp_path):
    # libavif's test image: 512×256 stored, irot makes it 256×512.
    app, _image, box = shown(launch, tmp_path, "abc_color_irot_alpha_irot.avif")
    assert 0.4 < box.width / box.height < 0.6, f"the AVIF is not turned by its irot: {box}"
    assert app.quit() == 0


def test_a_jpeg_xl_shows_its_pixels(launch, tmp_path):
    # A JPEG reconstruction container (cjxl of a JPEG): left half red, right half blue.
    app, image, box = shown(launch, tmp_path, "halves-jpeg-reconstruction.jxl")
    y = box.y + box.height // 2
    left, right = image.pixel(box.x + box.width // 4, y), image.pixel(box.x + 3 * box.width // 4, y)
    assert close_to(left, (220, 40, 40), 12), f"the left half is {left}, not red"
    assert close_to(right, (40, 60, 220), 12), f"the right half is {right}, not blue"
    assert app.quit() == 0


def centre_of(image, box):
    return image.pixel(box.x + box.width // 2, box.y + box.height // 2)


# Flat-colour photos whose centre on screen must be what Little CMS makes of them in sRGB
# (the maker's answer for the photos made here), far from what reading their numbers as sRGB,
# or gdk-pixbuf's own CMYK formula, would show.
COLOUR_PHOTOS = [
    # P3 (231, 60, 40); lcms2's sRGB conversion (perceptual, as Pillow's ImageCms computes
    # it) is (251, 31, 13): read as sRGB it would be 20 levels off in red.
    pytest.param("display-p3-flat.jpg", None, (251, 31, 13), (231, 60, 40), id="display-p3"),
    # ImageMagick's CMYK JPEG (Adobe's inverted CMYK) of sRGB (30, 140, 200); ImageMagick
    # reads it back as (30, 141, 200).
    pytest.param("cmyk-flat.jpg", None, (30, 141, 200), None, id="cmyk"),
    # ProPhoto RGB (190, 110, 50), an orange, with its profile embedded in a PNG.
    pytest.param("prophoto-flat.png", made_formats.prophoto_png, None, (190, 110, 50), id="prophoto"),
    # Inks (30, 160, 220, 40) of 255, Adobe's inverted CMYK, with a CMYK profile embedded that
    # is not the formula gdk-pixbuf applies (which would show about (190, 80, 29)).
    pytest.param("cmyk-profile-flat.jpg", made_formats.cmyk_jpeg, None, (190, 80, 29), id="cmyk-with-profile"),
]


@pytest.mark.parametrize("name, make, srgb, unconverted", COLOUR_PHOTOS)
def test_a_photos_colours_are_shown_as_its_profile_means_them(launch, tmp_path, name, make, srgb, unconverted):
    truth = {"srgb": srgb}
    app, image, box = shown(launch, tmp_path, name,
                            make=make and (lambda path: truth.__setitem__("srgb", make(path))))
    if unconverted:
        assert not close_to(truth["srgb"], unconverted, 20), f"the test's colour {truth['srgb']} proves nothing"
    pixel = centre_of(image, box)
    assert close_to(pixel, truth["srgb"], 4), f"{name}'s centre is {pixel}, not lcms's sRGB {truth['srgb']}"
    assert app.quit() == 0
