"""What the windows offer is what can be done there: Save Rotation only after a rotation,
the viewer's Properties once, its "Selected" check only in edit mode, a fitted photo clear of
the viewer's toolbar, and no Save, Undo or Redo on a drawing board that could not open its
photo. Read as a screen reader reads the windows (AT-SPI), and in pixels."""

import pytest

from harness import COLOURS, Image, make_solid, open_folder, wait_for_screen
from test_accessibility import SPEAKING, have_atspi, nodes, tree, wait_for

needs_atspi = pytest.mark.skipif(not have_atspi(), reason="needs gir1.2-atspi-2.0 (build-aux/install-deps.sh test)")


def showing(app, role: str) -> list[str]:
    """The names of the accessible objects of `role`: GTK leaves hidden widgets (and the items
    of a menu that hides them) out of the accessible tree."""
    return [n["name"] for n in nodes(tree(app)) if n["role"] == role]


def wait_showing(app, role: str, name: str, timeout: float = 15):
    return wait_for(app, f"{role} {name!r}", lambda n: n["role"] == role and n["name"] == name, timeout)


@pytest.fixture
def folder(photo_folder):
    return photo_folder("offered", {"1-red.png": "red", "2-green.png": "green"})


@needs_atspi
def test_the_grid_menu_offers_save_rotation_only_after_a_rotation(launch, folder):
    app = open_folder(launch, folder, count=2, sort_by="name", extra_env=SPEAKING)
    app.until_shown(lambda: app.key("Home", "Menu"), "GtkPopoverMenu")
    wait_showing(app, "menu item", "Move to Trash")
    assert "Save Rotation" not in showing(app, "menu item"), "the grid's menu offers Save Rotation before any rotation"
    app.until_hidden(lambda: app.key("Escape"), "GtkPopoverMenu")
    app.key("Home", "Return")
    app.wait_for_title("1-red.png")
    app.key("r")
    wait_showing(app, "push button", "Save Rotation")
    app.until_shown(lambda: app.key("Menu"), "GtkPopoverMenu")
    wait_showing(app, "menu item", "Save Rotation")
    app.until_hidden(lambda: app.key("Escape"), "GtkPopoverMenu")
    assert app.quit() == 0


@needs_atspi
def test_the_viewer_shows_properties_once_and_selected_only_in_edit_mode(launch, folder):
    app = open_folder(launch, folder, count=2, sort_by="name", extra_env=SPEAKING)
    app.key("Home", "Return")
    app.wait_for_title("1-red.png")
    wait_showing(app, "push button", "Rotate Right")
    buttons = showing(app, "push button") + showing(app, "toggle button")
    assert len([b for b in buttons if b.startswith("Properties")]) == 1, f"Properties shown as {buttons}"
    assert not [n for n in showing(app, "check box") if n == "Selected"], "a Selected check outside edit mode"

    # In edit mode the viewer's check says whether the photo shown is selected.
    app.key("Escape")
    app.wait_for_title("offered")
    app.key("ctrl+a")
    wait_showing(app, "push button", "Done")
    app.key("Home", "Return")
    app.wait_for_title("1-red.png")
    wait_showing(app, "check box", "Selected")


def test_a_fitted_photo_is_clear_of_the_viewer_toolbar(launch, photo_folder, tmp_path):
    folder = tmp_path / "tall"
    folder.mkdir()
    make_solid(folder / "tall.png", "red", size="600x2400")
    app = open_folder(launch, folder, count=1)
    app.key("Home", "Return")
    app.wait_for_title("tall.png")

    def clear_of_the_toolbar(image: Image):
        red = image.blobs({"red": COLOURS["red"]}).get("red")
        if red is None or red.height < 300:
            return False, f"the photo is not shown: {red}"
        # Just above the window's bottom edge, under the toolbar, at the photo's middle.
        r, g, b = image.pixel(round(red.cx), image.height - 4)
        return r - max(g, b) < 15, f"the toolbar's middle is {(r, g, b)}, the photo {red}"

    wait_for_screen(app, clear_of_the_toolbar, what="the fitted photo above the toolbar")


@needs_atspi
def test_a_board_that_could_not_open_its_photo_offers_no_save_undo_or_redo(launch, tmp_path):
    bad = tmp_path / "not-a-photo.jpg"
    bad.write_text("plain text, not a photo\n")
    app = launch("--draw", bad, extra_env=SPEAKING)
    app.wait_for_window(r"^Mark Up.*$", timeout=30)
    wait_showing(app, "label", "Cannot Open the Photo")
    buttons = showing(app, "push button") + showing(app, "toggle button")
    offered = [b for b in buttons if b.startswith(("Save", "Undo", "Redo"))]
    assert not offered, f"the error page offers {offered}"
