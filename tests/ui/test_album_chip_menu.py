"""The menu of a chip of one's own album in the switcher: a right click on the chip of an album
that is not the one shown offers Rename… and Delete for that album; the new name is in the
switcher, and a deleted album leaves it and comes back with the toast's Undo. The chips are
found by their covers (each album's photo has a colour of its own)."""

import time

from harness import COLOURS, Deadline, Image, Rect, close_to, open_folder, wait_for_screen, wait_for_still_screen
from your_albums import (HEADER, albums_folder, click_toast_button, park_pointer, wait_for_albums,
                         wait_for_named_window, write_album)

FOLDER_PHOTOS = {"d-yellow.png": "yellow", "e-magenta.png": "magenta", "f-cyan.png": "cyan"}
ALBUM_PHOTOS = {"a-red.png": "red", "b-green.png": "green"}


def covers(image: Image) -> dict[str, tuple[int, int]]:
    """Where the switcher's covers of each colour are, in window coordinates."""
    header = image.crop(Rect(0, 0, image.width, HEADER))
    blobs = header.blobs({name: COLOURS[name] for name in ("red", "green", "yellow")})
    return {name: (round(blob.cx), round(blob.cy)) for name, blob in blobs.items()}


def covers_check(expected: set[str]):
    def check(image):
        shown = set(covers(image))
        return shown == expected, f"covers of {sorted(shown)} in the header, expected {sorted(expected)}"
    return check


def menu_under(app, point, before: Image):
    """Waits until a popover shows under `point` (a chip): the window below it differs from
    `before`."""
    x, y = point
    region = [(x + dx, y + dy) for dx in range(-40, 41, 2) for dy in range(30, 90, 2)]

    def check(image):
        # Its items' text at least (its background may be the same white as the grid's).
        changed = sum(1 for p in region if not close_to(image.pixel(*p), before.pixel(*p), 8))
        return changed >= 40, f"{changed} of {len(region)} pixels under the chip changed"

    return wait_for_screen(app, check, what="the chip's menu")


def open_chip_menu(app, colour: str) -> Image:
    park_pointer(app)
    before = app.screenshot()
    chip = covers(before)[colour]
    app.click(*chip, button=3)
    return menu_under(app, chip, before)


def test_a_chip_renames_and_deletes_its_album(launch, photo_folder, tmp_path):
    folder = photo_folder("home-photos", FOLDER_PHOTOS)
    elsewhere = photo_folder("elsewhere", ALBUM_PHOTOS)
    data_home = tmp_path / "data"
    write_album(data_home, "Kyoto", [(elsewhere / "a-red.png").as_uri()], album_id="0000000000000001")
    write_album(data_home, "Oslo", [(elsewhere / "b-green.png").as_uri()], album_id="0000000000000002")
    app = open_folder(launch, folder, count=3, sort_by="name", extra_env={"XDG_DATA_HOME": str(data_home)})
    # The folder's chip (its newest photo, yellow) and the two albums' (red, green).
    wait_for_screen(app, covers_check({"yellow", "red", "green"}), what="the switcher's three covers")

    # Rename… on Kyoto's chip, while the folder is shown.
    shot = open_chip_menu(app, "red")
    shot.save(app.log_path.with_name("chip-menu.png"))
    app.key("Return")  # the first item
    dialog = wait_for_named_window(app, r"^Rename Album$")
    app.x.focus(dialog)
    app.x.key("ctrl+a")
    app.x.xdotool("type", "--delay", "30", "Kyoto in Spring")
    app.x.key("Return")
    wait_for_albums(data_home, lambda docs: sorted(d["title"] for d in docs) == ["Kyoto in Spring", "Oslo"], "Kyoto renamed")
    app.wait_for_title("home-photos")  # still the folder
    # The switcher's chip says the new name: clicking it shows the album under that title.
    park_pointer(app)
    app.screenshot().save(app.log_path.with_name("chip-renamed.png"))
    app.click(*covers(app.screenshot())["red"])
    app.wait_for_title("Kyoto in Spring")

    # Delete on Oslo's chip, while Kyoto is shown: Oslo leaves the switcher; Undo brings it back.
    open_chip_menu(app, "green")
    app.key("Down", "Return")  # the second item
    wait_for_albums(data_home, lambda docs: [d["title"] for d in docs] == ["Kyoto in Spring"], "Oslo deleted")
    assert (albums_folder(data_home) / "deleted" / "0000000000000002.json").exists()
    park_pointer(app)
    wait_for_screen(app, covers_check({"yellow", "red"}), what="Oslo's chip gone from the switcher")
    app.wait_for_title("Kyoto in Spring")  # the album shown stays
    click_toast_button(app)
    wait_for_albums(data_home, lambda docs: sorted(d["title"] for d in docs) == ["Kyoto in Spring", "Oslo"], "Oslo back")
    wait_for_screen(app, covers_check({"yellow", "red", "green"}), what="Oslo's chip back in the switcher")
    app.wait_for_title("Kyoto in Spring")

    # Ctrl+Z takes a chip's Delete back too.
    open_chip_menu(app, "green")
    app.key("Down", "Return")
    wait_for_albums(data_home, lambda docs: [d["title"] for d in docs] == ["Kyoto in Spring"], "Oslo deleted again")
    app.key("ctrl+z")
    wait_for_albums(data_home, lambda docs: sorted(d["title"] for d in docs) == ["Kyoto in Spring", "Oslo"], "Oslo back by Ctrl+Z")
    wait_for_screen(app, covers_check({"yellow", "red", "green"}), what="Oslo's chip back after Ctrl+Z")
    assert app.quit() == 0


FOCUS_RING = (126, 168, 220)  # libadwaita's focus outline, over the header bar or a selected chip


def settled_screenshot(app, before: Image) -> Image:
    """The window once it differs from `before` (a key's effect is drawn) and two looks a
    moment apart are the same (the drawing is over)."""
    return wait_for_still_screen(app, lambda image: (image.data != before.data, "the window is unchanged"),
                                 what="the focus moved")


def switcher_has_focus(image: Image, first_cover: tuple[int, int], last_cover: tuple[int, int]) -> bool:
    """Whether a chip of the switcher (from the first cover to the last chip's end) is drawn
    with the focus outline."""
    x0, x1 = first_cover[0] - 16, last_cover[0] + 120
    header = image.crop(Rect(x0, 4, x1 - x0, HEADER - 12))  # not the grid's outline
    ring = sum(1 for _, _, p in header.samples(step=1) if close_to(p, FOCUS_RING, 16))
    return ring >= 40


def test_the_keyboard_reaches_a_chips_menu(launch, photo_folder, tmp_path):
    folder = photo_folder("home-photos", FOLDER_PHOTOS)
    elsewhere = photo_folder("elsewhere", ALBUM_PHOTOS)
    data_home = tmp_path / "data"
    write_album(data_home, "Kyoto", [(elsewhere / "a-red.png").as_uri()], album_id="0000000000000001")
    app = open_folder(launch, folder, count=3, sort_by="name", extra_env={"XDG_DATA_HOME": str(data_home)})
    shot = wait_for_screen(app, covers_check({"yellow", "red"}), what="the switcher's two covers")
    first, last = covers(shot)["yellow"], covers(shot)["red"]

    # Shift+Tab from the grid until a chip has the focus (the folder's: the one shown).
    shot = app.screenshot()
    for _ in range(10):
        app.key("shift+Tab")
        shot = settled_screenshot(app, shot)
        if switcher_has_focus(shot, first, last):
            break
    else:
        raise AssertionError("Shift+Tab never put the focus on the switcher's chips")
    # The arrow keys move past the heading to Kyoto, which shows; the focus stays on its chip.
    app.key("Right", "Right")
    app.wait_for_title("Kyoto")
    before = app.screenshot()
    app.key("shift+F10")
    menu_under(app, covers(before)["red"], before)
    app.key("Down", "Return")  # Delete
    wait_for_albums(data_home, lambda docs: docs == [], "Kyoto deleted")
    app.wait_for_title("home-photos")  # the window leaves the album it showed
    app.key("ctrl+z")
    wait_for_albums(data_home, lambda docs: [d["title"] for d in docs] == ["Kyoto"], "Kyoto back by Ctrl+Z")
    app.wait_for_title("Kyoto")  # and shows it again
    assert app.quit() == 0
