"""The viewer as a person uses it: paging, double-click zoom at a point, fit and 100% from
the keyboard, rotation, and chrome that a single click hides."""

import os
import time

import pytest

from harness import COLOURS, Rect, close_to, make_solid, open_folder, photo_fills_view_check, run, set_times, wait_for_screen, wait_for_still_screen

BACKGROUND = (0x1E, 0x1E, 0x1E)   # the viewer's backdrop
WIDTH, HEIGHT = 2400, 1600          # the pattern photo, larger than the window


def make_pattern(path):
    """A PNG whose every pixel says where it is: red = x mod 256, green = y mod 256, blue
    = which 256-pixel block. At 100% one screen pixel is one image pixel, so ten pixels to
    the right on screen is exactly ten more red."""
    rows = []
    red = bytes(x % 256 for x in range(WIDTH))
    for y in range(HEIGHT):
        row = bytearray(WIDTH * 3)
        row[0::3] = red
        row[1::3] = bytes([y % 256]) * WIDTH
        row[2::3] = bytes(((x // 256) * 37 + (y // 256) * 91) % 256 for x in range(0, WIDTH, 256) for _ in range(256))[:WIDTH]
        rows.append(bytes(row))
    ppm = path.with_suffix(".ppm")
    ppm.write_bytes(b"P6\n%d %d\n255\n" % (WIDTH, HEIGHT) + b"".join(rows))
    run(["convert", str(ppm), str(path)], timeout=60)
    ppm.unlink()
    return path


def photo_bounds(image, area: Rect):
    """The box of non-backdrop pixels inside `area` (the photo as drawn), scanning rows and
    columns through the middle of the area."""
    mid_y = area.y + area.height // 2
    mid_x = area.x + area.width // 2
    xs = [x for x in range(area.x, area.x + area.width) if not close_to(image.pixel(x, mid_y), BACKGROUND, 6)]
    ys = [y for y in range(area.y, area.y + area.height) if not close_to(image.pixel(mid_x, y), BACKGROUND, 6)]
    assert xs and ys, "no photo on screen"
    return Rect(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1)


def viewer_area(app):
    """The viewer's canvas in window coordinates: from the first row below the header bar
    (and its border line) to the bottom of the window (a zoomed photo goes on under the
    toolbar; a fitted one stays above it, and may touch the header bar)."""
    g = app.geometry()
    image = app.screenshot()
    header = image.pixel(g.width // 3, 12)
    top = next(y for y in range(12, g.height) if not close_to(image.pixel(g.width // 3, y), header, 10)) + 1
    frame = 6  # the window's own border, drawn by GTK without a window manager
    return Rect(frame, top, g.width - 2 * frame, g.height - top - frame)


def long_press_plays(app, area, index):
    """Long-presses the middle of the viewer's canvas `area` and waits until the movie of the
    photo at `index` (a motion photo's, a Live Photo's) shows its first frame."""
    mark = app.mark()
    app.x.long_press(area.x + area.width // 2, area.y + area.height // 2)
    app.wait_for_line(rf"^trace motion-playing {index} \d+$", since=mark, timeout=30)


@pytest.fixture
def pattern_folder(tmp_path):
    folder = tmp_path / "pattern"
    folder.mkdir()
    make_pattern(folder / "a-pattern.png")
    make_solid(folder / "b-red.png", "red", size="1600x1000")
    set_times(folder, ["a-pattern.png", "b-red.png"])
    return folder


def open_viewer(launch, path, index=0):
    app = launch(path, sort_by="name")
    app.wait_for_window(rf"^{path.name}$")
    app.wait_for_line(rf"^trace full-image {index} \d+$")
    # The page's crossfade over: what is on screen is where input goes.
    wait_for_still_screen(app, lambda image: (True, ""), what="the viewer")
    return app


def test_right_three_times_lands_on_the_fourth_photo(launch, tmp_path):
    folder = tmp_path / "four"
    colours = ["red", "green", "blue", "yellow", "magenta"]
    for n, colour in enumerate(colours):
        make_solid(folder / f"photo-{n + 1}.png", colour)
    set_times(folder, [f"photo-{n + 1}.png" for n in range(len(colours))])
    app = open_viewer(launch, folder / "photo-1.png")
    for n in range(3):
        mark = app.mark()
        app.key("Right")
        app.wait_for_line(rf"^trace page {n + 1} \d+$", since=mark)
    app.wait_for_title(r"^photo-4\.png$")
    app.wait_for_line(r"^trace full-image 3 \d+$")
    area = viewer_area(app)
    wait_for_screen(app, lambda image: (close_to(image.pixel(area.x + area.width // 2, area.y + area.height // 2), COLOURS["yellow"], 30),
                                        "the fourth photo (yellow) is not in the middle"), what="the fourth photo")
    assert app.quit() == 0


def test_double_click_shows_the_pixels_at_100_percent_around_the_clicked_point(launch, pattern_folder):
    app = open_viewer(launch, pattern_folder / "a-pattern.png")
    area = viewer_area(app)
    fitted = photo_bounds(app.screenshot(), area)
    assert fitted.width < WIDTH, "the photo is fitted: smaller than its own size"

    # A point in the photo's upper left quarter, and the image pixel under it at fit.
    px, py = fitted.x + fitted.width // 4, fitted.y + fitted.height // 3
    ix = (px - fitted.x) * WIDTH / fitted.width
    iy = (py - fitted.y) * HEIGHT / fitted.height

    g = app.geometry()
    app.x.click(g.x + px, g.y + py, 1, repeat=2)
    app.wait_for_line(r"^trace full-image 0 \d+$")

    def at_actual_size(image):
        here, right, below = image.pixel(px, py), image.pixel(px + 10, py), image.pixel(px, py + 10)
        dr = (right[0] - here[0]) % 256
        dg = (below[1] - here[1]) % 256
        near_x = min(abs(here[0] - ix % 256), 256 - abs(here[0] - ix % 256)) <= 6
        near_y = min(abs(here[1] - iy % 256), 256 - abs(here[1] - iy % 256)) <= 6
        ok = dr in (9, 10, 11) and dg in (9, 10, 11) and near_x and near_y
        return ok, f"at ({px},{py}) {here}, +10 px right {right}, +10 px down {below}; expected image point ({ix:.0f},{iy:.0f})"

    wait_for_screen(app, at_actual_size, timeout=10, what="the photo at 100% around the clicked point")
    assert app.quit() == 0


def test_one_then_zero_returns_to_fit(launch, pattern_folder):
    app = open_viewer(launch, pattern_folder / "a-pattern.png")
    area = viewer_area(app)
    fitted = photo_bounds(app.screenshot(), area)
    app.key("1")
    wait_for_screen(app, lambda image: (photo_bounds(image, area).width >= area.width - 2, "not at 100%"),
                    what="the photo filling the width at 100%")
    app.key("0")
    wait_for_screen(app, lambda image: (photo_bounds(image, area) == fitted, f"bounds {photo_bounds(image, area)} vs {fitted}"),
                    what="the photo fitted again")
    assert app.quit() == 0


def test_r_turns_a_landscape_photo_to_portrait_on_screen(launch, pattern_folder):
    app = open_viewer(launch, pattern_folder / "b-red.png", index=1)
    area = viewer_area(app)
    before = photo_bounds(app.screenshot(), area)
    assert before.width > before.height
    app.key("r")
    wait_for_screen(app, lambda image: (photo_bounds(image, area).height > photo_bounds(image, area).width, "still landscape"),
                    what="the photo turned to portrait")
    assert app.quit() == 0


def test_a_single_click_hides_the_header_bar_and_a_second_shows_it(launch, pattern_folder):
    app = open_viewer(launch, pattern_folder / "b-red.png", index=1)
    header_pixel = (app.geometry().width // 3, 12)
    shown = app.screenshot().pixel(*header_pixel)
    assert not close_to(shown, COLOURS["red"], 40) and not close_to(shown, BACKGROUND, 10), "the header bar is showing"
    middle = viewer_area(app)
    app.click(middle.width // 2, middle.y + middle.height // 2)
    wait_for_screen(app, lambda image: (close_to(image.pixel(*header_pixel), BACKGROUND, 10) or close_to(image.pixel(*header_pixel), COLOURS["red"], 40),
                                        f"top of the window is {image.pixel(*header_pixel)}"), what="the header bar hidden")
    app.click(middle.width // 2 + 7, middle.y + middle.height // 2 + 5)  # a real move: xdotool waits for one
    wait_for_screen(app, lambda image: (close_to(image.pixel(*header_pixel), shown, 10), f"top of the window is {image.pixel(*header_pixel)}"),
                    what="the header bar back")
    assert app.quit() == 0


def test_alt_enter_opens_the_properties_panel_beside_the_photo(launch, pattern_folder):
    app = open_viewer(launch, pattern_folder / "b-red.png", index=1)
    g = app.geometry()
    side = (g.width - 60, g.height // 2)
    before = app.screenshot().pixel(*side)
    assert close_to(before, BACKGROUND, 10) or close_to(before, COLOURS["red"], 40), "the photo or its backdrop is at the right"
    app.key("alt+Return")
    wait_for_screen(app, lambda image: (sum(image.pixel(*side)) > 3 * 200, f"right edge is {image.pixel(*side)}"),
                    what="the light properties panel at the right")
    app.key("alt+Return")
    wait_for_screen(app, lambda image: (close_to(image.pixel(*side), BACKGROUND, 10) or close_to(image.pixel(*side), COLOURS["red"], 40),
                                        f"right edge is {image.pixel(*side)}"), what="the panel closed")
    assert app.quit() == 0


def test_an_animated_gif_plays(launch, tmp_path):
    folder = tmp_path / "animated"
    folder.mkdir()
    run(["convert", "-size", "600x400", "-delay", "30", "xc:#ff0000", "xc:#0000ff", "xc:#00ff00",
         "-loop", "0", str(folder / "anim.gif")], timeout=60)
    app = open_viewer(launch, folder / "anim.gif")
    area = viewer_area(app)
    middle = (area.x + area.width // 2, area.y + area.height // 2)
    seen = set()
    deadline = time.time() + 5
    while time.time() < deadline and len(seen) < 3:
        pixel = app.screenshot().pixel(*middle)
        seen |= {name for name in ("red", "blue", "green") if close_to(pixel, COLOURS[name], 40)}
        time.sleep(0.05)
    assert seen == {"red", "blue", "green"}, f"only {seen} shown: the animation does not play"
    assert app.quit() == 0


def test_a_photo_rewritten_on_disk_while_shown_shows_its_new_pixels(launch, tmp_path):
    folder = tmp_path / "rewritten"
    for name, colour in {"a.png": "red", "b.png": "green"}.items():
        make_solid(folder / name, colour, size="1600x1000")
    set_times(folder, ["a.png", "b.png"])
    app = open_viewer(launch, folder / "a.png")
    wait_for_screen(app, photo_fills_view_check(COLOURS["red"], "red"), what="the red photo")

    # An editor saves over it in place (same name, new bytes, a newer time).
    make_solid(tmp_path / "new.png", "blue", size="1600x1000")
    later = time.time() + 5
    os.utime(tmp_path / "new.png", (later, later))
    os.rename(tmp_path / "new.png", folder / "a.png")
    wait_for_screen(app, photo_fills_view_check(COLOURS["blue"], "blue"), timeout=15,
                    what="the rewritten photo's new pixels in the viewer")
    assert app.title() == "a.png", "the viewer still shows the same photo"
    assert app.quit() == 0


def test_alt_left_and_the_mouse_back_button_go_back_to_the_grid(launch, photo_folder):
    folder = photo_folder("back", {"1-red.png": "red", "2-green.png": "green", "3-blue.png": "blue"})
    app = open_folder(launch, folder, count=3)
    app.focus()
    for back in (lambda: app.key("alt+Left"), lambda: app.click(app.geometry().width // 2, app.geometry().height // 2, button=8)):
        app.key("Home", "Right", "Return")
        app.wait_for_title("2-green.png")
        back()
        app.wait_for_title("back")
    assert app.quit() == 0
