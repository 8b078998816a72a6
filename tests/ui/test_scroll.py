"""A folder longer than the window: keys scroll the grid, and Escape brings the photo back."""

import pytest

from harness import COLOURS, Deadline, make_solid, open_folder, set_times, tiles_check, wait_for_screen

COUNT = 60  # ten rows of six: more than twice the window's height
GREY = (128, 128, 128)
MARKED = {0: "red", 35: "magenta", COUNT - 1: "cyan"}   # every other photo is grey


def only(name):
    return {name: COLOURS[name]}


def absent(name):
    def check(image):
        found = image.blobs(only(name))
        return not found, f"still on screen: {list(found.values())}"
    return check


@pytest.fixture
def long_folder(tmp_path):
    folder = tmp_path / "long-folder"
    grey = make_solid(folder / "grey.png", GREY).read_bytes()
    (folder / "grey.png").unlink()
    for i in range(COUNT):
        path = folder / f"photo-{i:02d}.png"
        if i in MARKED:
            make_solid(path, MARKED[i])
        else:
            path.write_bytes(grey)
    set_times(folder, [f"photo-{i:02d}.png" for i in range(COUNT)])   # name order = newest first
    return folder


def view_the_first_photo(launch, folder):
    """Opens the long folder and clicks its first (red) photo's tile: the viewer shows it."""
    app = open_folder(launch, folder, count=COUNT)
    red = wait_for_screen(app, tiles_check(only("red"))).blobs(only("red"))["red"]
    app.click(round(red.cx), round(red.cy))
    app.wait_for_title(r"photo-00\.png")
    return app


def escape_to_the_grid(app, colour):
    """Escape closes the viewer: the grid comes back showing the viewed photo's tile."""
    app.key("Escape")
    app.wait_for_title("long-folder")
    wait_for_screen(app, tiles_check(only(colour)), what=f"the viewed ({colour}) photo's tile in the grid")


def test_page_down_scrolls_and_end_shows_the_last_tile(launch, long_folder):
    app = open_folder(launch, long_folder, count=COUNT)
    wait_for_screen(app, tiles_check(only("red")), what="the first (red) tile")
    wait_for_screen(app, absent("cyan"), timeout=1, what="no last (cyan) tile before scrolling")

    app.key("Page_Down", "Page_Down")
    wait_for_screen(app, absent("red"), what="the grid scrolled past the first tile")

    app.key("End")
    wait_for_screen(app, tiles_check(only("cyan")), what="the last (cyan) tile after End")


def test_visible_thumbnails_is_printed_again_after_a_scroll(launch, long_folder):
    app = open_folder(launch, long_folder, count=COUNT)
    mark = app.mark()
    app.key("End")
    wait_for_screen(app, tiles_check(only("cyan")), what="the last (cyan) tile after End")
    app.wait_for_line(r"^trace visible-thumbnails \d+ \d+$", since=mark, timeout=10)


def test_escape_scrolls_the_grid_to_the_photo_paged_to(launch, long_folder):
    app = view_the_first_photo(launch, long_folder)
    mark = app.mark()
    app.key(*["Right"] * 35)
    app.wait_for_title(r"photo-35\.png")
    app.wait_for_line(r"^trace page 35 \d+$", since=mark)

    escape_to_the_grid(app, "magenta")
    app.key("Right", "Return")          # the focus is on that tile: its right neighbour opens
    app.wait_for_title(r"photo-36\.png")


def test_escape_scrolls_to_the_photo_paged_to_after_a_photo_arrived_meanwhile(launch, long_folder):
    """A photo another program adds while the viewer shows the first one goes in above it
    (the newest first): the grid, at the top when the viewer opened, still scrolls to the
    photo paged to when the viewer closes."""
    app = view_the_first_photo(launch, long_folder)
    make_solid(long_folder / "photo-new.png", GREY)
    # Paged once to the right until the new photo is in: the red one's neighbour at place 2.
    deadline = Deadline(20)
    while True:
        mark = app.mark()
        app.key("Right")
        page = int(app.wait_for_line(r"^trace page (\d+) \d+$", since=mark).group(1))
        if page == 2 or deadline.expired():
            break
        mark = app.mark()
        app.key("Left")                  # back to the red photo, at 0, or at 1 if the new one came
        app.wait_for_line(r"^trace page \d+ \d+$", since=mark)
    assert page == 2, "the new photo never reached the viewer's album"
    app.wait_for_title(r"photo-01\.png")
    mark = app.mark()
    app.key(*["Right"] * 34)
    app.wait_for_title(r"photo-35\.png")
    app.wait_for_line(r"^trace page 36 \d+$", since=mark)

    escape_to_the_grid(app, "magenta")
    assert app.quit() == 0


def test_escape_after_a_file_argument_scrolls_the_grid_to_that_photo(launch, long_folder):
    app = launch(long_folder / f"photo-{COUNT - 1:02d}.png")
    app.wait_for_window(rf"^photo-{COUNT - 1:02d}\.png$")
    app.wait_for_line(rf"^trace full-image {COUNT - 1} \d+$")
    escape_to_the_grid(app, "cyan")
    app.key("Left", "Return")          # the focus is on that tile: its left neighbour opens
    app.wait_for_title(rf"photo-{COUNT - 2:02d}\.png")


def test_a_folder_listed_after_its_first_screen_shows_from_its_first_photo(launch, tmp_path):
    """The first screen shows the photos listed first (in the order the disk gives them);
    the rest, sorted in among them, arrive after: the grid still starts at the folder's first
    photo, not at the one that happened to be at the top of the first screen."""
    folder = tmp_path / "listed-late"
    folder.mkdir()
    blue = make_solid(tmp_path / "blue.jpg", "blue", size="64x48").read_bytes()
    for i in range(1, 8000):
        (folder / f"photo-{i:05d}.jpg").write_bytes(blue)
    make_solid(folder / "photo-00000.jpg", "red", size="64x48")
    app = open_folder(launch, folder, count=8000, sort_by="name")

    def first_at_top(image):
        found = image.blobs(only("red"))
        red = found.get("red")
        return red is not None and red.top < 100 and red.left < 40, f"the first photo: {red}"
    wait_for_screen(app, first_at_top, what="the first photo at the top left")
    assert app.quit() == 0
