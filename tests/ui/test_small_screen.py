"""Windows that fit a laptop's 1366×768 screen and show what they say: the Keyboard
Shortcuts window is narrower than 1366 px, Preferences has no search button for its four
settings, and Add to Album… shows a new album's whole name."""

import time

from harness import Deadline, open_folder
from your_albums import wait_for_named_window

PHOTOS = {"a-red.png": "red", "b-green.png": "green"}


def test_the_keyboard_shortcuts_window_fits_a_1366_by_768_screen(launch, photo_folder):
    app = open_folder(launch, photo_folder("keys", PHOTOS), count=2)
    app.key("ctrl+question")
    window = wait_for_named_window(app, r"^Keyboard Shortcuts$")
    # Its size once laid out (it grows to its natural size as it is mapped).
    g = app.x.geometry(window)
    deadline = Deadline(10)
    while not deadline.expired():
        time.sleep(0.2)
        settled, g = g, app.x.geometry(window)
        if settled == g:
            break
    assert g.width <= 1366 and g.height <= 768, f"the Keyboard Shortcuts window is {g.width}×{g.height}"


def test_preferences_has_no_search_button(launch, photo_folder):
    app = open_folder(launch, photo_folder("preferred", PHOTOS), count=2)
    app.key("ctrl+comma")
    window = wait_for_named_window(app, r"^Preferences$")
    g = app.x.geometry(window)
    deadline = Deadline(10)
    while True:
        image = app.x.screenshot()
        # The header bar, drawn: its title in dark pixels in the middle.
        middle = [x for x in range(g.x + g.width // 3, g.x + 2 * g.width // 3) for y in range(g.y + 10, g.y + 36)
                  if sum(image.pixel(x, y)) < 300]
        if middle or deadline.expired():
            break
        time.sleep(0.2)
    assert middle, "the Preferences window's title is not drawn"
    # Nothing left of the title: the search button would be there (an icon of dark pixels).
    left = [(x, y) for x in range(g.x + 4, g.x + g.width // 3) for y in range(g.y + 6, g.y + 42)
            if sum(image.pixel(x, y)) < 300]
    assert not left, f"{len(left)} dark pixels left of the title: a button there"
    app.x.key("Escape")


def band_rows(before, after, area) -> list[tuple[int, int]]:
    """The horizontal bands (first and last row) of `area` where two screenshots differ."""
    rows = [y for y in range(area.y, area.y + area.height)
            if any(before.pixel(x, y) != after.pixel(x, y) for x in range(area.x, area.x + area.width, 1))]
    bands: list[tuple[int, int]] = []
    for y in rows:
        if bands and y - bands[-1][1] <= 4:
            bands[-1] = (bands[-1][0], y)
        else:
            bands.append((y, y))
    return bands


def test_add_to_album_shows_a_new_albums_whole_name(launch, photo_folder):
    app = open_folder(launch, photo_folder("family", PHOTOS), count=2)
    app.key("ctrl+a")
    app.key("ctrl+d")
    dialog = wait_for_named_window(app, r"^Add to Album$")
    app.x.focus(dialog)
    app.x.xdotool("type", "--delay", "30", "Best Of Family")
    area = app.x.geometry(dialog)
    # Drawn: two looks apart differ at most in one band, the field's (its cursor blinks).
    deadline = Deadline(10)
    before = app.x.screenshot()
    while True:
        time.sleep(0.2)
        now = app.x.screenshot()
        if len(band_rows(before, now, area)) <= 1:
            break
        assert not deadline.expired(), "the dialog did not settle"
        before = now
    # The last letter changed: if the row shows the whole name, the row changes too, not
    # only the field (a name cut at "Best Of Fami…" looks the same).
    app.x.key("BackSpace")
    app.x.xdotool("type", "x")
    deadline = Deadline(5)
    while True:
        bands = band_rows(before, app.x.screenshot(), area)
        if len(bands) >= 2:
            break
        assert not deadline.expired(), f"only the field changed ({bands}): the new album's name is cut"
        time.sleep(0.2)
    app.x.key("Escape")
