"""A photo inserted on the drawing board (Insert Photo…, the toolbar's button) floats until
placed: Enter places it (the focus is on the board, not on the button, which would open the
chooser again), Escape drops it, and while it floats the board counts as unsaved, so
closing asks."""

import time

from harness import COLOURS, Image, close_to, make_solid
from test_board import BACKGROUND, latest_view, open_board, save


def insert_photo(app, photo) -> None:
    """Insert Photo… from the toolbar's button, the file typed into the chooser."""
    g = app.geometry()
    # The button at the toolbar's right end, left of Clear.
    app.click(g.width - 80, g.height - 30)
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        chooser = [w for w in app.x.windows_of(app.process.pid) if app.x.window_name(w) == "Insert Photo"]
        if chooser:
            break
        time.sleep(0.1)
    assert chooser, "Insert Photo… opened no chooser"
    mark = app.mark()
    app.x.focus(chooser[0])
    app.x.key("ctrl+l")
    app.x.xdotool("type", "--delay", "20", str(photo))
    app.x.key("Return")
    app.wait_for_line(r"^trace board-floating \d+$", since=mark, timeout=30)
    deadline = time.monotonic() + 10
    while any(app.x.window_name(w) == "Insert Photo" for w in app.x.windows_of(app.process.pid)):
        assert time.monotonic() < deadline, "the chooser stayed open"
        time.sleep(0.1)


def board_windows(app) -> list[int]:
    return app.x.windows_of(app.process.pid)


def test_enter_after_insert_photo_places_the_photo(launch, tmp_path):
    photo = make_solid(tmp_path / "IMG_0042.png", BACKGROUND, size="1200x800")
    sticker = make_solid(tmp_path / "sticker.png", COLOURS["yellow"], size="400x300")
    app = open_board(launch, photo)
    latest_view(app)
    insert_photo(app, sticker)
    mark = app.mark()
    app.key("Return")
    # The board took the Enter: the photo is placed, and that Enter opened no chooser.
    app.wait_for_line(r"^trace board-placed \d+$", since=mark, timeout=10)
    assert board_windows(app) == [app.window], "Enter opened the chooser again"
    saved = Image.from_file(save(app))
    assert close_to(saved.pixel(600, 400), COLOURS["yellow"], 8), "the inserted photo was not placed"
    assert close_to(saved.pixel(20, 20), BACKGROUND, 3)


def test_escape_drops_the_floating_photo(launch, tmp_path):
    photo = make_solid(tmp_path / "IMG_0042.png", BACKGROUND, size="1200x800")
    sticker = make_solid(tmp_path / "sticker.png", COLOURS["yellow"], size="400x300")
    app = open_board(launch, photo)
    view = latest_view(app)
    insert_photo(app, sticker)
    # Moved a little with the mouse first, as a person places it.
    g = app.geometry()
    centre = (g.x + view.left + view.width // 2, g.y + view.top + view.height // 2)
    app.x.mouse_move(*centre)
    app.x.xdotool("mousedown", "1")
    for step in range(1, 6):
        app.x.mouse_move(centre[0] + 8 * step, centre[1])
        time.sleep(0.03)
    app.x.xdotool("mouseup", "1")
    app.key("Escape")
    # Nothing floats, nothing is unsaved: closing does not ask.
    app.key("ctrl+w")
    assert app.wait_exit(15) == 0, "the board asked before closing, or did not close"


def test_closing_with_a_floating_photo_asks(launch, tmp_path):
    photo = make_solid(tmp_path / "IMG_0042.png", BACKGROUND, size="1200x800")
    sticker = make_solid(tmp_path / "sticker.png", COLOURS["yellow"], size="400x300")
    app = open_board(launch, photo)
    latest_view(app)
    board_window = app.window
    insert_photo(app, sticker)
    app.key("ctrl+w")
    deadline = time.monotonic() + 10
    while len(board_windows(app)) < 2 and time.monotonic() < deadline:
        assert app.process.poll() is None, "the board closed without asking, its floating photo lost"
        time.sleep(0.1)
    windows = board_windows(app)
    assert board_window in windows and len(windows) == 2, "closing with a floating photo did not ask"
    dialog = next(w for w in windows if w != board_window)
    app.x.focus(dialog)
    mark = app.mark()
    app.x.key("Return")                      # Save, the default: the photo placed and saved
    saved = app.wait_for_line(r"^trace saved (.+) (\d+)$", since=mark, timeout=90).group(1)
    assert close_to(Image.from_file(saved).pixel(600, 400), COLOURS["yellow"], 8)
    assert app.wait_exit(15) == 0
