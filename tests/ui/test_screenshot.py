"""The app in the light and the dark style, on real photos: the screenshots in docs/.

Each style is checked as a person would look at it: the header bar follows the style, the
grid shows the photos, and the edit bar's Move to Trash button is a red button with a light
label in both styles. The screenshots are written to docs/screenshots/ only with
GPHOTOBROWSE_UPDATE_SCREENSHOTS=1; otherwise into the test's temporary folder, so a normal
run never touches the work tree.
"""

import os
import shutil

import pytest

from harness import REPO, Rect, open_folder, wait_for_screen

# Real photos from the shared corpus, of several cameras and formats.
PHOTOS = [
    "cameras/exif-samples/hdr/canon_hdr_YES.jpg",
    "cameras/exif-samples/hdr/iphone_hdr_YES.jpg",
    "cameras/exif-samples/mobile/jolla.jpg",
    "cameras/exif-samples/mobile/HMD_Nokia_8.3_5G.jpg",
    "cameras/exif-samples/exif-org/fujifilm-dx10.jpg",
    "cameras/exif-samples/exif-org/nikon-e950.jpg",
    "cameras/exif-samples/exif-org/sony-powershota5.jpg",
    "cameras/exif-samples/Reconyx_HC500_Hyperfire.jpg",
    "cameras/libavif/dog_exif_extended_xmp_icc.jpg",
    "cameras/exif-samples/tests/45-gps_ifd.jpg",
    "formats/png/libavif/weld_16bit.png",
    "formats/heic/exif-samples/IMG_5195.HEIC",
]

STYLES = {"light": "prefer-light", "dark": "prefer-dark"}


def luminance(pixel):
    r, g, b = pixel
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def destination(name, tmp_path):
    if os.environ.get("GPHOTOBROWSE_UPDATE_SCREENSHOTS") == "1":
        return REPO / "docs" / "screenshots" / name
    return tmp_path / name


@pytest.fixture
def photos(corpus, tmp_path):
    folder = tmp_path / "Photos"
    folder.mkdir()
    for n, path in enumerate(PHOTOS):
        target = folder / os.path.basename(path)
        shutil.copyfile(corpus / path, target)
        os.utime(target, (1_700_000_000 + n * 60, 1_700_000_000 + n * 60))
    return folder


@pytest.mark.parametrize("style", STYLES)
def test_screenshots_in_the_light_and_dark_style(launch, photos, tmp_path, style):
    app = open_folder(launch, photos, count=len(PHOTOS), extra_env={"ADW_DEBUG_COLOR_SCHEME": STYLES[style]})

    def colourful(image, at_least=200):
        n = image.distinct_colours()
        return n >= at_least, f"{n} distinct colours"

    grid = wait_for_screen(app, colourful, what="a grid of photos")
    header = luminance(grid.pixel(grid.width // 2 + 150, 12))
    if style == "dark":
        assert header < 80, f"the header bar is not dark in the dark style (luminance {header:.0f})"
    else:
        assert header > 200, f"the header bar is not light in the light style (luminance {header:.0f})"
    grid.save(destination(f"grid-{style}.png", tmp_path))

    # Edit mode with everything selected: the bar's Move to Trash is red, its label light.
    app.key("ctrl+a")
    red = {"destructive": (0xE0, 0x1B, 0x24) if style == "light" else (0xC0, 0x1C, 0x28)}

    def trash_button(image):
        bar = image.crop(Rect(0, image.height - 70, image.width, 70))
        blobs = bar.blobs(red, tolerance=40, step=2)
        if "destructive" not in blobs:
            return False, "no red button in the edit bar"
        b = blobs["destructive"]
        inside = [bar.pixel(x, y) for x in range(b.left, b.right + 1, 2) for y in range(b.top, b.bottom + 1, 2)]
        light = sum(1 for p in inside if luminance(p) > 200)
        return light >= 20, f"{light} light label pixels on the red button {b}"

    edit = wait_for_screen(app, trash_button, what="a legible Move to Trash button")
    edit.save(destination(f"edit-{style}.png", tmp_path))
    app.key("Escape")

    # The viewer, on the first photo (the grid's first tile, top left).
    mark = app.mark()
    app.click(94, 141)
    app.wait_for_line(r"^trace full-image 0 \d+$", since=mark)
    previous = [grid]

    def settled_viewer(image):
        # The page has changed from the grid and stopped changing (the crossfade is over).
        changed = image.data != grid.data and image.data == previous[0].data
        previous[0] = image
        ok, colours = colourful(image, at_least=50)  # one photo, less varied than a grid of twelve
        return changed and ok, f"the viewer is still fading in, or shows no photo ({colours})"

    viewer = wait_for_screen(app, settled_viewer, what="a photo in the viewer")
    viewer.save(destination(f"viewer-{style}.png", tmp_path))
    assert app.quit() == 0
