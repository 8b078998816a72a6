"""The viewer's message, when a photo cannot be shown, is readable whatever lies under it: a
dark card behind the white words, over the bright thumbnail the viewer shows meanwhile. The
server is tests/servers/photo_server.py on loopback."""

import json

from harness import Rect, make_solid, wait_for_still_screen
from test_web_album import PhotoServer, web_root  # noqa: F401 (fixture)


def test_the_message_over_a_bright_thumbnail_is_readable(launch, web_root, tmp_path):  # noqa: F811
    make_solid(web_root / "t" / "white.png", (255, 255, 255), size="480x360")
    # A JPEG's first bytes, then nothing a decoder can read.
    (web_root / "broken.jpg").write_bytes(b"\xff\xd8\xff\xe0" + bytes(range(256)) * 64)
    (web_root / "broken.json").write_text(json.dumps(
        {"title": "Broken", "photos": [{"url": "broken.jpg", "thumbnail": "t/white.png"}]}))
    server = PhotoServer(web_root, tmp_path / "stats.json")
    try:
        app = launch(f"{server.url}/broken.json")
        app.wait_for_title("Broken", timeout=30)
        app.wait_for_line(r"^trace visible-thumbnails 1 \d+$", timeout=30)
        app.focus()
        app.key("Return")
        app.wait_for_line(r"^trace page 0 \d+$", timeout=15)
        app.wait_for_line(r"^trace download-complete 0 \d+$", timeout=30)

        def message_on_a_card(image):
            viewer = image.crop(app.content_area())
            # Down the middle of the viewer: the thumbnail shown while the photo is read (256
            # pixels by 192, centred in the photo's area, above the toolbar), and the message
            # centred on it. Its top and bottom edges are the first and last white pixels.
            x = viewer.width // 2
            white = [y for y in range(viewer.height) if min(viewer.pixel(x, y)) >= 235]
            if not white or white[-1] - white[0] < 150:
                return False, f"no white thumbnail in the middle: white rows {white[:1]}…{white[-1:]}"
            top, bottom = white[0] + 4, white[-1] - 4
            column = [viewer.pixel(x + dx, y) for y in range(top, bottom + 1) for dx in (-8, 0, 8)]
            dark = sum(1 for p in column if max(p) < 110) / len(column)
            # White words on white would leave it all white: a dark card across it, behind them.
            return dark > 0.08, f"{dark:.0%} of the thumbnail's middle under a dark card"

        wait_for_still_screen(app, message_on_a_card, timeout=20, what="the message on a dark card over the white thumbnail")
    finally:
        server.stop()
