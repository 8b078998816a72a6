"""The slideshow as a person uses it: F5 or the viewer's button, a photo every interval
(the window's title is the photo's name), each one shown full from its first frame, Space
to pause, any other key or a click to end it on the photo shown, looping or stopping after
the last photo. Intervals come from the settings file, as chosen in the button's menu."""

import re

import pytest

from harness import COLOURS, Deadline, close_to, make_solid, set_times, preset_settings, wait_for_screen

PHOTOS = {"1-red.png": "red", "2-green.png": "green", "3-blue.png": "blue", "4-yellow.png": "yellow"}


@pytest.fixture
def slideshow_folder(tmp_path):
    folder = tmp_path / "show"
    for name, colour in PHOTOS.items():
        make_solid(folder / name, colour, size="1600x1200")
    set_times(folder, list(PHOTOS))
    return folder


def settings_home(tmp_path, interval: int = 2, ending: str = "loop"):
    """An XDG_CONFIG_HOME whose settings say: by name, INTERVAL seconds, ENDING."""
    config = tmp_path / "config"
    preset_settings(config, {"sort-by": "'name'", "sort-reversed": "false",
                             "slideshow-interval": str(interval), "slideshow-ending": f"'{ending}'"})
    return {"XDG_CONFIG_HOME": str(config)}


def open_photo(launch, path, extra_env):
    app = launch(path, extra_env=extra_env)
    app.wait_for_window(rf"^{re.escape(path.name)}$")
    app.wait_for_line(rf"^trace full-image {list(PHOTOS).index(path.name)} \d+$")
    return app


def shown_full_at_once(app, index: int, since: int = 0) -> None:
    """The slideshow showed photo INDEX with its decoded image from the first frame: between
    the page turn to it and the slideshow's line, the viewer painted its full image."""
    lines = app.lines[since:]
    shown = next(i for i, line in enumerate(lines) if re.match(rf"^trace slideshow-photo {index} \d+$", line))
    page = max((i for i, line in enumerate(lines[:shown]) if re.match(rf"^trace page {index} \d+$", line)), default=None)
    assert page is not None, f"no page turn to {index} before the slideshow showed it"
    between = lines[page:shown]
    assert any(re.match(rf"^trace full-image {index} \d+$", line) for line in between), \
        f"photo {index} was not shown full at once (only its thumbnail): {between}"


def test_titles_advance_and_a_key_ends_the_slideshow_where_it_is(launch, slideshow_folder, tmp_path):
    app = open_photo(launch, slideshow_folder / "1-red.png", settings_home(tmp_path))
    mark = app.mark()
    app.key("F5")
    app.wait_for_line(r"^trace slideshow-photo 0 \d+$", since=mark)
    for index, name in enumerate(list(PHOTOS)[1:3], start=1):
        app.wait_for_title(re.escape(name), timeout=15)
        app.wait_for_line(rf"^trace slideshow-photo {index} \d+$", since=mark)
        shown_full_at_once(app, index, since=mark)
    # A key that would turn the page ends the slideshow instead, on the photo shown.
    ended = app.mark()
    app.key("Right")
    m = app.wait_for_line(r"^trace slideshow-ended (\d+) \d+$", since=ended)
    assert int(m.group(1)) == 2
    assert app.title() == "3-blue.png"
    # The viewer is itself again: Right pages, and Escape (not in fullscreen) goes back to the grid.
    app.key("Right")
    app.wait_for_title(r"4-yellow\.png")
    app.wait_for_line(r"^trace page 3 \d+$", since=ended)
    turns = app.lines_matching(r"^trace page \d+ \d+$", since=ended)
    assert len(turns) == 1, f"the key that ended the slideshow also turned the page: {[m.string for m in turns]}"
    app.key("Escape")
    app.wait_for_title(re.escape(slideshow_folder.name))
    assert app.quit() == 0


def test_space_pauses_and_goes_on(launch, slideshow_folder, tmp_path):
    app = open_photo(launch, slideshow_folder / "1-red.png", settings_home(tmp_path))
    mark = app.mark()
    app.key("F5")
    app.wait_for_line(r"^trace slideshow-photo 1 \d+$", since=mark, timeout=15)
    paused = app.mark()
    app.key("space")
    m = app.wait_for_line(r"^trace slideshow-paused (\d+) \d+$", since=paused)
    at = int(m.group(1))
    # Three intervals go by with no new photo: a photo that came would be a failure.
    with pytest.raises(AssertionError, match="no stderr line"):
        app.wait_for_line(r"^trace slideshow-photo \d+ \d+$", since=paused, timeout=6)
    assert app.title() == list(PHOTOS)[at]
    app.key("space")
    app.wait_for_line(rf"^trace slideshow-resumed {at} \d+$", since=paused)
    app.wait_for_line(rf"^trace slideshow-photo {at + 1} \d+$", since=paused, timeout=15)
    app.wait_for_title(re.escape(list(PHOTOS)[at + 1]))
    app.key("Escape")
    app.wait_for_line(r"^trace slideshow-ended \d+ \d+$", since=paused)
    assert app.quit() == 0


def test_it_loops_back_to_the_first_photo(launch, slideshow_folder, tmp_path):
    app = open_photo(launch, slideshow_folder / "3-blue.png", settings_home(tmp_path, ending="loop"))
    mark = app.mark()
    app.key("F5")
    app.wait_for_line(r"^trace slideshow-photo 2 \d+$", since=mark)
    app.wait_for_line(r"^trace slideshow-photo 3 \d+$", since=mark, timeout=15)
    app.wait_for_title(r"1-red\.png", timeout=15)
    app.wait_for_line(r"^trace slideshow-photo 0 \d+$", since=mark)
    # The first photo, decoded ahead though it is not the last one's neighbour.
    shown_full_at_once(app, 0, since=mark)
    app.key("Escape")
    app.wait_for_line(r"^trace slideshow-ended 0 \d+$", since=mark)
    assert app.quit() == 0


def test_it_stops_after_the_last_photo(launch, slideshow_folder, tmp_path):
    app = open_photo(launch, slideshow_folder / "3-blue.png", settings_home(tmp_path, ending="stop"))
    mark = app.mark()
    app.key("F5")
    app.wait_for_line(r"^trace slideshow-photo 3 \d+$", since=mark, timeout=15)
    m = app.wait_for_line(r"^trace slideshow-ended (\d+) \d+$", since=mark, timeout=15)
    assert int(m.group(1)) == 3
    assert app.title() == "4-yellow.png"
    assert not app.lines_matching(r"^trace slideshow-photo 0 \d+$", since=mark)
    assert app.quit() == 0


def test_f5_in_the_grid_starts_from_the_focused_photo_and_a_click_ends_it(launch, slideshow_folder, tmp_path):
    app = launch(slideshow_folder, extra_env=settings_home(tmp_path))
    app.wait_for_window(rf"^{re.escape(slideshow_folder.name)}$")
    app.wait_for_line(r"^trace visible-thumbnails \d+ \d+$")
    mark = app.mark()
    app.key("Right")  # the focus moves to the second tile
    app.key("F5")
    app.wait_for_line(r"^trace slideshow-photo 1 \d+$", since=mark)
    app.wait_for_title(r"2-green\.png")
    app.wait_for_line(r"^trace slideshow-photo 2 \d+$", since=mark, timeout=15)
    ended = app.mark()
    g = app.geometry()
    app.click(g.width // 2, g.height // 2)
    m = app.wait_for_line(r"^trace slideshow-ended (\d+) \d+$", since=ended)
    assert int(m.group(1)) == 2
    assert app.title() == "3-blue.png"
    # Out of the slideshow the chrome is back (the click that ended it did not hide it):
    # the viewer's toolbar is drawn over the bottom of the photo.
    def toolbar_shown(image):
        bottom = image.pixel(image.width // 2, image.height - 20)
        return not close_to(bottom, COLOURS["blue"], 30), f"bottom middle pixel {bottom}"
    wait_for_screen(app, toolbar_shown, what="the viewer's toolbar after the slideshow")
    assert app.quit() == 0


def test_a_video_plays_through_before_the_next_photo(launch, tmp_path):
    # As in a phone's photos app: a video is not cut after the interval (2 s here), nor left
    # on its last frame; it plays to its end (4 s), then the next photo shows.
    from made_videos import make_video

    folder = tmp_path / "show"
    make_solid(folder / "1-red.png", "red", size="1600x1200")
    make_video(folder / "2-clip.mp4", ("green",), seconds=4)
    make_solid(folder / "3-blue.png", "blue", size="1600x1200")
    set_times(folder, ["1-red.png", "2-clip.mp4", "3-blue.png"])
    app = launch(folder / "1-red.png", extra_env=settings_home(tmp_path, interval=2, ending="stop"))
    app.wait_for_window(r"^1-red\.png$")
    app.wait_for_line(r"^trace full-image 0 \d+$")
    mark = app.mark()
    app.key("F5")
    app.wait_for_line(r"^trace slideshow-photo 1 \d+$", since=mark, timeout=15)
    started = int(app.wait_for_line(r"^trace video-playing 1 (\d+)$", since=mark, timeout=15).group(1))
    shown = int(app.wait_for_line(r"^trace slideshow-photo 2 (\d+)$", since=mark, timeout=20).group(1))
    assert shown - started >= 3900, f"the next photo came {shown - started} ms after the 4 s video started"
    app.wait_for_line(r"^trace slideshow-ended 2 \d+$", since=mark, timeout=15)
    assert app.quit() == 0
