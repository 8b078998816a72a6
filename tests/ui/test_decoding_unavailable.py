"""Decoding fails closed: when no decoder process can start (here: a memory limit of 1 MiB, in
which none does), nothing is decoded in the browser instead. No tile shows a thumbnail, each
says "Could not be decoded safely", and the window says why, with Retry."""

import pytest

from harness import COLOURS, open_folder, wait_for_screen
from test_accessibility import SPEAKING, have_atspi, nodes, tree, wait_for

PHOTOS = {"1-red.png": "red", "2-green.png": "green", "3-blue.png": "blue"}


@pytest.mark.skipif(not have_atspi(), reason="needs gir1.2-atspi-2.0 (build-aux/install-deps.sh test)")
def test_no_tile_shows_a_thumbnail_and_the_window_says_why(launch, photo_folder):
    folder = photo_folder("no-decoder", PHOTOS)
    app = open_folder(launch, folder, count=3, sort_by="name",
                      extra_env={**SPEAKING, "GPHOTOBROWSE_DECODER_MEMORY": "1"})
    app.wait_for_line(r"^trace decoding-unavailable \d+$")
    # Every tile got its answer: a failure.
    for index in range(3):
        app.wait_for_line(rf"^trace tile-failed {index} \d+$")
    area = app.content_area()
    image = wait_for_screen(app, lambda image: (True, ""), what="the grid")
    shown = image.crop(area).blobs({c: COLOURS[c] for c in PHOTOS.values()})
    assert not {name: blob for name, blob in shown.items() if blob.width > 20 and blob.height > 20}, \
        f"tiles show photos decoded: {shown}"
    tiles = [n for n in nodes(tree(app)) if "Could not be decoded safely" in n["description"] + n["name"]]
    assert tiles, "no tile says it could not be decoded safely"
    wait_for(app, "the banner saying why", lambda n: n["role"] == "label" and "does not start" in n["name"])
    wait_for(app, "Retry", lambda n: n["role"] == "push button" and n["name"] == "Retry")
    assert not app.lines_matching(r"^trace decoding-available ")
    assert not app.lines_matching(r"^trace tile-loaded ")
