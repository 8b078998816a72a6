"""The drawing board with real X input: strokes drawn with the mouse are found in the saved
file, in their colour and at the place (in the photo's pixels) where they were drawn."""

import hashlib
import math
import re
import sys
import time
from pathlib import Path

import pytest

from harness import COLOURS, Deadline, Image, close_to, make_solid, open_folder, wait_for_screen

RED = (0xFC, 0x5C, 0x46)      # the document's red: the pen's colour when a board opens
BACKGROUND = (40, 90, 160)    # the photo marked up
PHOTO_SIZE = (6000, 4000)
# The pen's width on a 6000×4000 photo: the board's suggested one, a 250th of the shorter side.
HALF_WIDTH = 4000 / 250 / 2

VIEW = r"^trace board-view (-?\d+) (-?\d+) (\d+) (\d+) (-?\d+) (-?\d+) (-?\d+) (-?\d+) \d+$"
DRAG_SOURCE = Path(__file__).resolve().parent / "drag_source.py"


class View:
    """The board's place in the window and the board pixels at its corners (board-view)."""

    def __init__(self, match: re.Match):
        (self.left, self.top, self.width, self.height,
         self.bx0, self.by0, self.bx1, self.by1) = (int(v) for v in match.groups())

    @property
    def scale(self) -> float:
        """Screen pixels per board pixel."""
        return self.width / (self.bx1 - self.bx0)

    def window_point(self, bx: float, by: float) -> tuple[int, int]:
        """The window pixel over the board pixel (bx, by)."""
        return (round(self.left + (bx - self.bx0) * self.scale), round(self.top + (by - self.by0) * self.scale))

    def board_point(self, x: int, y: int) -> tuple[float, float]:
        """The board pixel under the window point (x, y)."""
        return (self.bx0 + (x - self.left) / self.scale, self.by0 + (y - self.top) / self.scale)


def latest_view(app, since: int = 0) -> View:
    app.wait_for_line(VIEW, since=since)
    return View(app.lines_matching(VIEW, since=since)[-1])


def open_board(launch, photo: Path, *args: str):
    app = launch("--draw", photo, *args)
    app.wait_for_line(r"^trace board-ready \d+ \d+ \d+$", timeout=60)
    app.wait_for_window(r"Mark Up", timeout=30)
    return app


def draw(app, start: tuple[int, int], end: tuple[int, int]) -> None:
    """A mouse drag in window coordinates, in small real moves, button 1 held: every move
    lands on whole pixels of the straight line from start to end, so the line is where the
    pointer went."""
    common = math.gcd(end[0] - start[0], end[1] - start[1])
    steps = max(d for d in range(1, 31) if common % d == 0)
    assert steps >= 5, f"choose a line from {start} to {end} with more whole-pixel points on it"
    g = app.geometry()
    app.focus()
    app.x.mouse_move(g.x + start[0], g.y + start[1])
    app.x.xdotool("mousedown", "1")
    for i in range(1, steps + 1):
        app.x.mouse_move(g.x + round(start[0] + (end[0] - start[0]) * i / steps),
                         g.y + round(start[1] + (end[1] - start[1]) * i / steps))
        time.sleep(0.02)
    app.x.xdotool("mouseup", "1")


def save(app, keys: str = "ctrl+s") -> Path:
    mark = app.mark()
    app.key(keys)
    match = app.wait_for_line(r"^trace saved (.+) (\d+)$", since=mark, timeout=90)
    return Path(match.group(1))


def is_red(pixel) -> bool:
    return close_to(pixel, RED, 40)


def stroke_line(saved: Image, a: tuple[float, float], b: tuple[float, float]) -> None:
    """Asserts that the saved image has a red stroke of the pen's width from a to b: across
    it at three places its middle is within 2 px of the line, and its round ends stop
    within 2 px of half the width beyond a and b."""
    (ax, ay), (bx, by) = a, b
    length = math.hypot(bx - ax, by - ay)
    ux, uy = (bx - ax) / length, (by - ay) / length          # along the stroke
    nx, ny = -uy, ux                                          # across it
    for t in (0.25, 0.5, 0.75):
        cx, cy = ax + (bx - ax) * t, ay + (by - ay) * t
        across = [s / 2 for s in range(-80, 81)
                  if is_red(saved.pixel(round(cx + nx * s / 2), round(cy + ny * s / 2)))]
        assert across, f"no red stroke at ({cx:.0f}, {cy:.0f}) of the photo"
        middle = (min(across) + max(across)) / 2
        assert abs(middle) <= 2, f"at ({cx:.0f}, {cy:.0f}) the stroke's middle is {middle:+.1f} px off"
        assert abs((max(across) - min(across)) - 2 * HALF_WIDTH) <= 3, f"the stroke is {max(across) - min(across):.1f} px wide"
        centre = saved.pixel(round(cx), round(cy))
        assert close_to(centre, RED, 3), f"the stroke's colour is {centre}, not #FC5C46"
    for (px, py), (dx, dy) in (((ax, ay), (-ux, -uy)), ((bx, by), (ux, uy))):
        beyond = [s / 2 for s in range(0, 80)
                  if is_red(saved.pixel(round(px + dx * s / 2), round(py + dy * s / 2)))]
        reach = max(beyond, default=-1)
        assert abs(reach - HALF_WIDTH) <= 2, f"the stroke ends {reach:.1f} px beyond ({px:.0f}, {py:.0f}), not {HALF_WIDTH}"


def no_red_near(saved: Image, a: tuple[float, float], b: tuple[float, float]) -> bool:
    return not any(is_red(saved.pixel(round(a[0] + (b[0] - a[0]) * t / 20), round(a[1] + (b[1] - a[1]) * t / 20)))
                   for t in range(21))


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def big_photo(tmp_path):
    return make_solid(tmp_path / "IMG_0042.png", BACKGROUND, size="%dx%d" % PHOTO_SIZE)


def test_a_stroke_drawn_at_the_fit_is_saved_where_it_was_drawn(launch, big_photo):
    before = sha(big_photo)
    app = open_board(launch, big_photo)
    view = latest_view(app)
    assert view.scale < 0.3, f"a 6000×4000 photo opens zoomed to fit, not at {view.scale:.2f}"
    start, end = (view.left + 200, view.top + 150), (view.left + 680, view.top + 422)
    draw(app, start, end)
    shot = app.screenshot()
    g = app.geometry()
    mid = ((start[0] + end[0]) // 2 + g.x, (start[1] + end[1]) // 2 + g.y)
    assert any(is_red(shot.pixel(mid[0], mid[1] + d)) for d in range(-2, 3)), "the stroke is not on the screen"

    saved = save(app)
    assert saved == big_photo.with_name("IMG_0042 (marked up).png")
    image = Image.from_file(saved)
    assert (image.width, image.height) == PHOTO_SIZE, "the saved file has the photo's full resolution"
    stroke_line(image, view.board_point(*start), view.board_point(*end))
    assert close_to(image.pixel(3000, 3800), BACKGROUND, 3), "the photo is not under the marks"
    assert sha(big_photo) == before, "the original was changed"
    assert "•" not in (app.title() or ""), "the board still says it has unsaved changes"


def test_at_100_percent_and_panned_a_stroke_lands_on_the_photo_pixels_under_it(launch, big_photo):
    app = open_board(launch, big_photo)
    latest_view(app)
    mark = app.mark()
    app.key("1")
    view = latest_view(app, since=mark)
    for _ in range(20):
        if abs(view.scale - 1) < 0.01:
            break
        time.sleep(0.1)
        view = latest_view(app, since=mark)
    assert abs(view.scale - 1) < 0.01, f"1 zooms to 100%, not {view.scale:.3f}"
    # Pan with the middle button: the view moves by the drag.
    g = app.geometry()
    mark = app.mark()
    app.x.mouse_move(g.x + view.left + 600, g.y + view.top + 500)
    app.x.xdotool("mousedown", "2")
    for i in range(1, 11):
        app.x.mouse_move(g.x + view.left + 600 - 40 * i, g.y + view.top + 500 - 25 * i)
        time.sleep(0.02)
    app.x.xdotool("mouseup", "2")
    # The view the last move made: the drag's moves are handled in order, the last one last.
    deadline = Deadline(10)
    panned = latest_view(app, since=mark)
    while not (abs(panned.bx0 - view.bx0 - 400) <= 1 and abs(panned.by0 - view.by0 - 250) <= 1) and not deadline.expired():
        time.sleep(0.05)
        panned = latest_view(app, since=mark)
    moved = (panned.bx0 - view.bx0, panned.by0 - view.by0)
    assert abs(moved[0] - 400) <= 1 and abs(moved[1] - 250) <= 1, \
        f"a middle-button drag of (−400, −250) moved the view to ({panned.bx0}, {panned.by0}) from ({view.bx0}, {view.by0})"
    start, end = (panned.left + 100, panned.top + 400), (panned.left + 500, panned.top + 150)
    draw(app, start, end)
    image = Image.from_file(save(app))
    a, b = panned.board_point(*start), panned.board_point(*end)
    stroke_line(image, a, b)


def test_undo_takes_a_stroke_out_of_what_is_saved_and_redo_brings_it_back(launch, big_photo):
    app = open_board(launch, big_photo)
    view = latest_view(app)
    first = ((view.left + 150, view.top + 120), (view.left + 600, view.top + 120))
    second = ((view.left + 150, view.top + 400), (view.left + 600, view.top + 500))
    draw(app, *first)
    draw(app, *second)
    app.key("ctrl+z")
    image = Image.from_file(save(app))
    stroke_line(image, view.board_point(*first[0]), view.board_point(*first[1]))
    assert no_red_near(image, view.board_point(*second[0]), view.board_point(*second[1])), "the undone stroke was saved"

    app.key("ctrl+shift+z")
    image = Image.from_file(save(app))
    assert image.width == PHOTO_SIZE[0]
    stroke_line(image, view.board_point(*second[0]), view.board_point(*second[1]))


def test_clear_then_undo_restores_everything(launch, big_photo):
    app = open_board(launch, big_photo)
    view = latest_view(app)
    strokes = [((view.left + 150, view.top + 120), (view.left + 600, view.top + 200)),
               ((view.left + 200, view.top + 450), (view.left + 700, view.top + 380))]
    for stroke in strokes:
        draw(app, *stroke)
    app.key("ctrl+Delete")
    content = app.geometry()

    def board_clear(image: Image):
        red = sum(is_red(image.pixel(content.x + view.left + x, content.y + view.top + y))
                  for x in range(100, 750, 5) for y in range(100, 500, 5))
        return red == 0, f"{red} red samples left"

    wait_for_screen(app, board_clear, what="a cleared board")
    app.key("ctrl+z")
    image = Image.from_file(save(app))
    for a, b in strokes:
        stroke_line(image, view.board_point(*a), view.board_point(*b))


def test_a_taken_name_gets_a_number_and_nothing_is_overwritten(launch, big_photo):
    taken = big_photo.with_name("IMG_0042 (marked up).png")
    taken.write_bytes(b"somebody's file")
    before = sha(big_photo)
    app = open_board(launch, big_photo)
    view = latest_view(app)
    draw(app, (view.left + 200, view.top + 200), (view.left + 500, view.top + 300))
    saved = save(app)
    assert saved.name == "IMG_0042 (marked up 2).png"
    assert taken.read_bytes() == b"somebody's file"
    assert sha(big_photo) == before
    draw(app, (view.left + 200, view.top + 400), (view.left + 500, view.top + 460))
    assert save(app).name == "IMG_0042 (marked up 3).png", "a second save writes a third file, never over the second"


def test_mark_up_in_the_viewer_opens_the_shown_photo_on_a_board(launch, photo_folder):
    folder = photo_folder("trip", {"1-green.png": "green", "2-yellow.png": "yellow"})
    app = launch(folder / "1-green.png", sort_by="name")
    app.wait_for_window(r"^1-green\.png$")
    app.wait_for_line(r"^trace full-image 0 \d+$")
    mark = app.mark()
    app.key("ctrl+m")
    app.wait_for_line(r"^trace board-ready 1600 1200 \d+$", since=mark, timeout=60)
    view = latest_view(app, since=mark)
    board = app.x.windows_named(r"^Mark Up")
    assert board, "no Mark Up window"
    app.window = board[-1]
    draw(app, (view.left + 100, view.top + 100), (view.left + 400, view.top + 200))
    saved = save(app)
    assert saved == folder / "1-green (marked up).png"
    image = Image.from_file(saved)
    assert (image.width, image.height) == (1600, 1200)
    assert close_to(image.pixel(1500, 1100), COLOURS["green"], 3)
    a, b = view.board_point(view.left + 100, view.top + 100), view.board_point(view.left + 400, view.top + 200)
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    assert is_red(image.pixel(round(mid[0]), round(mid[1])))


def test_a_blank_board_of_a_chosen_size_is_saved_in_pictures(launch):
    app = launch("--draw", "--size", "800x600")
    app.wait_for_line(r"^trace board-ready 800 600 \d+$", timeout=60)
    app.wait_for_window(r"Mark Up", timeout=30)
    view = latest_view(app)
    start, end = view.window_point(100, 100), view.window_point(100, 100)
    end = (start[0] + 250, start[1] + 150)
    draw(app, start, end)
    saved = save(app)
    assert saved.parent.name == "Pictures" and saved.suffix == ".png", saved
    image = Image.from_file(saved)
    assert (image.width, image.height) == (800, 600)
    a, b = view.board_point(*start), view.board_point(*end)
    assert is_red(image.pixel(round((a[0] + b[0]) / 2), round((a[1] + b[1]) / 2)))
    assert close_to(image.pixel(700, 550), (255, 255, 255), 3), "a blank board is white"


def test_a_photo_dropped_on_the_board_floats_until_enter_fixes_it(launch, spawn, xserver, big_photo, tmp_path):
    inserted = make_solid(tmp_path / "sticker.png", COLOURS["yellow"], size="800x600")
    app = open_board(launch, big_photo)
    view = latest_view(app)
    source = spawn([sys.executable, DRAG_SOURCE, "Drag source", inserted.as_uri()])
    source.wait_for_line(r"^ready$")
    source.wait_for_window(r"^Drag source$")
    xserver.move_window(source.window, 1400, 300)
    g = app.geometry()
    drop = (g.x + view.left + view.width // 2, g.y + view.top + view.height // 2)
    xserver.drag(source.geometry().centre, drop)
    source.wait_for_line(r"^drag-(end|cancel)", timeout=10)
    app.wait_for_line(r"^trace board-floating \d+$", timeout=30)
    app.key("Return")
    image = Image.from_file(save(app))
    # It floats where it was dropped, centred there.
    x, y = view.board_point(drop[0] - g.x, drop[1] - g.y)
    assert close_to(image.pixel(round(x), round(y)), COLOURS["yellow"], 8), "the dropped photo is not fixed where it was dropped"
    assert close_to(image.pixel(100, 100), BACKGROUND, 3)


def test_closing_with_unsaved_marks_asks_and_enter_saves_them(launch, big_photo):
    app = open_board(launch, big_photo)
    view = latest_view(app)
    board_window = app.window
    draw(app, (view.left + 200, view.top + 200), (view.left + 500, view.top + 300))
    app.key("ctrl+w")
    deadline = time.monotonic() + 10
    while len(app.x.windows_of(app.process.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    windows = app.x.windows_of(app.process.pid)
    assert board_window in windows and len(windows) >= 2, "closing with unsaved marks did not ask"
    dialog = next(w for w in windows if w != board_window)
    app.x.focus(dialog)
    mark = app.mark()
    app.until_hidden(lambda: app.x.key("Escape"), "AdwMessageDialog")   # Cancel: the board stays, marks and all
    assert board_window in app.x.windows_of(app.process.pid) and app.process.poll() is None
    app.key("ctrl+w")
    deadline = time.monotonic() + 10
    while len(app.x.windows_of(app.process.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    dialog = next(w for w in app.x.windows_of(app.process.pid) if w != board_window)
    app.x.focus(dialog)
    app.x.key("Return")                      # Save, the default: saved, then closed
    saved = Path(app.wait_for_line(r"^trace saved (.+) (\d+)$", since=mark, timeout=90).group(1))
    assert saved.name == "IMG_0042 (marked up).png" and saved.exists()
    assert app.wait_exit(15) == 0, "the app did not end with its only window closed"
