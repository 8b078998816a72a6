"""Text from outside the app, shown as written: a hostile server's reason phrase and a web
list's title are never drawn as Pango markup (no huge red line, no link), a folder named
"A & B" is said, and a title holding a right-to-left override, a BEL and an ESC reaches the
window's title without them. The server is tests/servers/photo_server.py on loopback."""

import json
import urllib.parse

from harness import Rect, wait_for_still_screen
from test_web_album import PhotoServer, web_root  # noqa: F401 (fixture)

import pytest

HOSTILE = ('<span size="xx-large" foreground="red">Your account is locked.</span> '
           '<a href="https://example.invalid/verify">Verify</a>')
RED = (255, 0, 0)
# Adwaita's link colour (light style), and its accent, which links are drawn in too.
LINKS = [(27, 106, 203), (53, 132, 228)]


@pytest.fixture
def server(web_root, tmp_path):  # noqa: F811 (the fixture's own name)
    server = PhotoServer(web_root, tmp_path / "stats.json")
    yield server
    server.stop()


def page_area(app) -> Rect:
    """The window below the header bar, without its buttons' row at the bottom edge."""
    area = app.content_area()
    return Rect(area.x, area.y, area.width, area.height)


def dark_rows(image, threshold: int = 120) -> list[int]:
    """The pixel rows that hold dark text (the status page's title and description)."""
    return [y for y in range(image.height)
            if any(max(image.pixel(x, y)) < threshold for x in range(0, image.width, 2))]


def text_lines(image) -> int:
    """How many lines of dark text: runs of dark rows apart from each other."""
    rows = dark_rows(image)
    return sum(1 for i, y in enumerate(rows) if i == 0 or y - rows[i - 1] > 2)


def text_block(image):
    """The page's text, from the title's first row to the description's last (the Open
    Folder button below, drawn in the accent colour, left out)."""
    rows = dark_rows(image)
    return image.crop(Rect(0, rows[0], image.width, rows[-1] - rows[0] + 1))


def page_said(app, least_lines: int):
    """A check: the page shows its title and a description of at least least_lines - 1 lines."""
    def check(image):
        lines = text_lines(image.crop(page_area(app)))
        return lines >= least_lines, f"{lines} lines of dark text on the page"
    return check


def no_markup_drawn(image) -> tuple[float, float]:
    red = image.fraction_of(RED, tolerance=60, step=1)
    link = max(image.fraction_of(colour, tolerance=25, step=1) for colour in LINKS)
    return red, link


def test_a_reason_phrase_with_markup_is_shown_as_text(launch, server):
    reason = urllib.parse.quote(HOSTILE)
    app = launch(f"{server.url}/kyoto.json?status=299&reason={reason}")
    app.wait_for_line(r"^gphotobrowse: .*299.*Your account is locked", timeout=30)
    app.wait_for_window(None, timeout=30)
    # The description is several lines of text: the markup's characters written out.
    image = wait_for_still_screen(app, page_said(app, 3), what="the error page and its description", timeout=15)
    red, link = no_markup_drawn(text_block(image.crop(page_area(app))))
    assert red < 0.0005, f"{red:.2%} of the page is red: the reason phrase was drawn as markup"
    assert link < 0.002, f"{link:.2%} of the page is link-coloured: the reason phrase's link was drawn"
    assert not app.lines_matching(r"from markup"), "GTK parsed the text as markup"


def test_a_web_list_title_with_markup_is_shown_as_text(launch, server):
    (server.root / "empty.json").write_text(json.dumps({"title": HOSTILE, "photos": []}))
    app = launch(f"{server.url}/empty.json")
    app.wait_for_line(r"^trace enumerated 0 \d+$", timeout=30)
    app.wait_for_window(None, timeout=30)
    image = wait_for_still_screen(app, page_said(app, 2), what="the No Photos page and its description", timeout=15)
    red, link = no_markup_drawn(text_block(image.crop(page_area(app))))
    assert red < 0.0005, f"{red:.2%} of the page is red: the list's title was drawn as markup"
    assert link < 0.002, f"{link:.2%} of the page is link-coloured: the title's link was drawn"
    assert not app.lines_matching(r"from markup"), "GTK parsed the text as markup"


def test_an_empty_folder_named_with_an_ampersand_is_said(launch, tmp_path):
    folder = tmp_path / "A & B"
    folder.mkdir()
    app = launch(folder)
    app.wait_for_line(r"^trace enumerated 0 \d+$", timeout=30)
    app.wait_for_window(r"^A & B$", timeout=30)
    # "No Photos" and below it "“A & B” has no images in it." (markup that does not parse
    # leaves the description blank).
    wait_for_still_screen(app, page_said(app, 2), what="the No Photos page saying why", timeout=15)
    assert not app.lines_matching(r"from markup"), "GTK parsed the folder's name as markup"


def test_a_title_with_an_override_and_control_characters_is_cleaned(launch, server):
    title = "Trip \u202egpj.exe\u0007\u001b[31m"
    (server.root / "spoof.json").write_text(json.dumps({"title": title, "photos": ["a-red.png"]}))
    app = launch(f"{server.url}/spoof.json")
    app.wait_for_line(r"^trace enumerated 1 \d+$", timeout=30)
    shown = app.wait_for_title(r"Trip .*", timeout=30)
    assert "\u202e" not in shown, f"the window title keeps the override: {shown!r}"
    assert "\u0007" not in shown and "\u001b" not in shown, f"the window title keeps control characters: {shown!r}"
    assert shown.replace("\u2068", "").replace("\u2069", "") == "Trip gpj.exe[31m", shown
