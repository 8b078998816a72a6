"""A folder's subfolders as albums: the switcher in the header bar, moving between albums,
All Photos, and albums that follow the disk.

Each album's photos have a colour of their own, so a screenshot says which album's photos
are in the grid: tiles are counted as tile-sized patches of one colour. Which albums the
switcher lists, and their counts, come from `trace switcher-album INDEX COUNT` (with
GPHOTOBROWSE_TRACE=all, after every change of the switcher's list); their titles from the
window's title after Alt+INDEX.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from harness import COLOURS, Deadline, Image, Rect, close_to, make_solid, photo_fills_view_check, trash_files, wait_for_screen, wait_until

# The harness's colours and two more, so that up to eight albums each have their own.
PALETTE: dict[str, tuple[int, int, int]] = {**COLOURS, "orange": (255, 128, 0), "purple": (128, 0, 255)}

SWITCHER_LINE = re.compile(r"^trace switcher-album (\d+) (\d+) \d+$")
HOUR = 3600


# --------------------------------------------------------------------------------------------
# Trees of photos


def photos(folder: Path, colour: str, count: int, age_hours: float, prefix: str | None = None) -> list[Path]:
    """`count` solid photos of `colour` in `folder`, the newest `age_hours` old, a minute apart."""
    prefix = prefix or colour
    made = []
    for n in range(count):
        path = make_solid(folder / f"{prefix}-{n + 1}.png", PALETTE[colour])
        stamp = time.time() - age_hours * HOUR - n * 60
        os.utime(path, (stamp, stamp))
        made.append(path)
    return made


def make_trip(tmp_path: Path) -> Path:
    """The main tree: nested albums, photos at the top, an empty subfolder, a hidden one,
    symbolic link loops and a second path (a link) to an album.

    Expected switcher (newest album first by its newest photo's modification time; none of
    these PNGs has a date taken), see TRIP_ALBUMS.
    """
    trip = tmp_path / "trip"
    photos(trip, "yellow", 2, age_hours=5, prefix="own")                        # the folder's own, oldest
    photos(trip / "2024" / "2024-05 Kyoto", "red", 3, age_hours=3, prefix="kyoto")
    photos(trip / "2024" / "2024-08 Oslo", "blue", 2, age_hours=1, prefix="oslo")  # newest
    photos(trip / "2023" / "deep" / "nested", "green", 1, age_hours=2, prefix="nested")
    (trip / "empty").mkdir()
    (trip / "notes").mkdir()
    (trip / "notes" / "readme.txt").write_text("not a photo\n")
    photos(trip / ".hidden", "magenta", 2, age_hours=0.1, prefix="hidden")     # never shown
    os.symlink("..", trip / "2024" / "loop")                                    # back to trip
    os.symlink(".", trip / "2023" / "deep" / "nested" / "self")                 # to itself
    os.symlink("2024/2024-05 Kyoto", trip / "kyoto-again")                     # inside the tree
    return trip


# (title, count, colour) in switcher order.
TRIP_ALBUMS = [
    ("All Photos", 8, None),
    ("trip", 2, "yellow"),
    ("2024 / 2024-08 Oslo", 2, "blue"),
    ("2023 / deep / nested", 1, "green"),
    ("2024 / 2024-05 Kyoto", 3, "red"),
]
TRIP_ALL = {"yellow": 2, "blue": 2, "green": 1, "red": 3}


# --------------------------------------------------------------------------------------------
# The switcher, as the traces and the window's title tell it


def switcher_lists(app, since: int = 0) -> list[list[int]]:
    """Every switcher list printed since `since`, each as its albums' counts in order."""
    lists: list[list[int]] = []
    for match in app.lines_matching(SWITCHER_LINE.pattern, since=since):
        index, count = int(match.group(1)), int(match.group(2))
        if index == 1 or not lists:
            lists.append([])
        lists[-1].append(count)
    return lists


def wait_for_switcher(app, counts: list[int], since: int = 0, timeout: float = 30) -> None:
    """Waits until the switcher's latest list has exactly these counts, in this order."""
    deadline = Deadline(timeout)
    while True:
        lists = switcher_lists(app, since)
        if lists and lists[-1] == counts:
            return
        if app.process.poll() is not None or deadline.expired():
            raise AssertionError(f"the switcher lists albums of {lists[-1] if lists else 'no'} photos, "
                                 f"expected {counts}, after {timeout} s (lists printed: {lists[-5:]}); "
                                 f"stderr ends:\n{app.tail()}")
        time.sleep(0.1)


def wait_for_albums(app, count: int, since: int = 0, timeout: float = 30) -> None:
    """Waits for `trace albums COUNT` (the walk found every album, or their number changed)."""
    app.wait_for_line(rf"^trace albums {count} \d+$", since=since, timeout=timeout)


def open_tree(launch, folder: Path, albums: int, timeout: float = 30):
    """Starts gphotobrowse on a folder with subfolder albums and waits for the walk and the
    switcher's first albums."""
    app = launch(folder)
    app.wait_for_line(r"^trace albums-first \d+ \d+$", timeout=timeout)
    wait_for_albums(app, albums, timeout=timeout)
    app.wait_for_window(None, timeout=timeout)
    return app


def title_pattern(title: str) -> str:
    return re.escape(title)


def show_album(app, keys: str, title: str, count: int, expect_shown: bool = True):
    """Presses `keys`, then waits for the album's title and, when it was switched to, its
    first screen of thumbnails (`trace album-shown COUNT`)."""
    mark = app.mark()
    app.key(keys)
    app.wait_for_title(title_pattern(title))
    if expect_shown:
        app.wait_for_line(rf"^trace album-shown {count} \d+$", since=mark)


# --------------------------------------------------------------------------------------------
# Tiles on screen


def count_tiles(image: Image, colours: dict[str, tuple[int, int, int]] = PALETTE, top: int = 0,
                step: int = 4, min_side: int = 64, tolerance: int = 40) -> dict[str, list[tuple[int, int, int, int]]]:
    """Tile-sized, solid patches of each colour below `top`: colour → [(x, y, width, height)].

    Pixels are sampled every `step` px and grouped into 4-connected patches; a patch counts
    as a tile when it is at least `min_side` px a side (the switcher's 24 px covers do not)
    and fills most of its box.
    """
    names = list(colours)
    values = [colours[n] for n in names]
    columns, rows = image.width // step, (image.height - top) // step
    label = [[-1] * columns for _ in range(rows)]
    for gy in range(rows):
        y = top + gy * step
        row = label[gy]
        for gx in range(columns):
            pixel = image.pixel(gx * step, y)
            for i, value in enumerate(values):
                if close_to(pixel, value, tolerance):
                    row[gx] = i
                    break
    found: dict[str, list[tuple[int, int, int, int]]] = {}
    seen = [[False] * columns for _ in range(rows)]
    for gy in range(rows):
        for gx in range(columns):
            colour = label[gy][gx]
            if colour < 0 or seen[gy][gx]:
                continue
            stack, cells = [(gx, gy)], 0
            seen[gy][gx] = True
            left = right = gx
            upper = lower = gy
            while stack:
                cx, cy = stack.pop()
                cells += 1
                left, right, upper, lower = min(left, cx), max(right, cx), min(upper, cy), max(lower, cy)
                for nx, ny in ((cx + 1, cy), (cx - 1, cy), (cx, cy + 1), (cx, cy - 1)):
                    if 0 <= nx < columns and 0 <= ny < rows and not seen[ny][nx] and label[ny][nx] == colour:
                        seen[ny][nx] = True
                        stack.append((nx, ny))
            width, height = (right - left + 1) * step, (lower - upper + 1) * step
            if width >= min_side and height >= min_side and cells * step * step >= 0.7 * width * height:
                found.setdefault(names[colour], []).append((left * step, top + upper * step, width, height))
    return found


def tiles_exactly(expected: dict[str, int], top: int = 60):
    """A wait_for_screen check: the grid shows exactly these numbers of tiles of each colour,
    and no tile of any other colour of the palette."""

    def check(image: Image):
        found = count_tiles(image, top=top)
        counts = {name: len(tiles) for name, tiles in found.items()}
        wanted = {name: n for name, n in expected.items() if n}
        return counts == wanted, f"tiles on screen {counts}, expected {wanted}"

    return check


def expect_tiles(app, expected: dict[str, int], what: str, timeout: float = 15) -> Image:
    return wait_for_screen(app, tiles_exactly(expected), timeout=timeout, what=what)


def album_colours(colour: str | None, all_photos: dict[str, int], count: int) -> dict[str, int]:
    return dict(all_photos) if colour is None else {colour: count}


# --------------------------------------------------------------------------------------------
# The tests


def test_the_switcher_lists_exactly_the_trees_albums_newest_first_with_their_counts(launch, tmp_path):
    trip = make_trip(tmp_path)
    app = open_tree(launch, trip, albums=3)
    wait_for_switcher(app, [count for _, count, _ in TRIP_ALBUMS])
    # Titles, in the switcher's order: Alt+1…5.
    for index, (title, count, colour) in enumerate(TRIP_ALBUMS, start=1):
        app.key(f"alt+{index}")
        app.wait_for_title(title_pattern(title))
        expect_tiles(app, album_colours(colour, TRIP_ALL, count), what=f"the tiles of “{title}” (Alt+{index})")
    assert len(app.lines_matching(r"^trace albums-first \d+ \d+$")) == 1, "albums-first is printed once"
    assert app.quit() == 0


def test_all_photos_shows_every_photo_once(launch, tmp_path):
    trip = make_trip(tmp_path)
    app = open_tree(launch, trip, albums=3)
    wait_for_switcher(app, [count for _, count, _ in TRIP_ALBUMS])
    # All Photos' count (the list's first) is 8: Kyoto is reachable twice, through kyoto-again.
    app.key("alt+1")
    app.wait_for_title("All Photos")
    shot = expect_tiles(app, TRIP_ALL, what="every album's colour, each photo once, no hidden photo")
    shot.save(tmp_path / "all-photos.png")
    assert app.quit() == 0


def test_ctrl_page_down_and_up_move_through_the_albums_in_switcher_order(launch, tmp_path):
    trip = make_trip(tmp_path)
    app = open_tree(launch, trip, albums=3)
    wait_for_switcher(app, [count for _, count, _ in TRIP_ALBUMS])
    app.key("alt+1")
    app.wait_for_title("All Photos")
    expect_tiles(app, TRIP_ALL, what="All Photos")

    for title, count, colour in TRIP_ALBUMS[1:]:
        show_album(app, "ctrl+Next", title, count)
        expect_tiles(app, {colour: count}, what=f"only the {count} {colour} tiles of “{title}” after Ctrl+Page Down")

    for title, count, colour in reversed(TRIP_ALBUMS[:-1]):
        show_album(app, "ctrl+Prior", title, count)
        expect_tiles(app, album_colours(colour, TRIP_ALL, count),
                     what=f"the tiles of “{title}” after Ctrl+Page Up")
    assert app.quit() == 0


def test_ctrl_page_down_from_three_red_photos_shows_only_the_two_blue_ones(launch, tmp_path):
    top = tmp_path / "colours"
    photos(top / "red", "red", 3, age_hours=1)
    photos(top / "blue", "blue", 2, age_hours=2)
    app = open_tree(launch, top, albums=2)
    wait_for_switcher(app, [5, 3, 2])        # All Photos, red (newer), blue
    show_album(app, "alt+2", "red", 3, expect_shown=False)
    expect_tiles(app, {"red": 3}, what="the three red tiles")
    show_album(app, "ctrl+Next", "blue", 2)
    shot = expect_tiles(app, {"blue": 2}, what="exactly two blue tiles and no red one")
    shot.save(tmp_path / "blue-album.png")
    assert app.quit() == 0


def test_a_folder_without_subfolder_albums_has_no_switcher(launch, tmp_path):
    plain = tmp_path / "plain"
    photos(plain, "red", 1, age_hours=1)
    photos(plain, "green", 1, age_hours=2)
    (plain / "empty").mkdir()
    photos(plain / ".hidden", "blue", 1, age_hours=0)
    app = launch(plain)
    wait_for_albums(app, 0)
    app.wait_for_window(r"^plain$")
    shot = expect_tiles(app, {"red": 1, "green": 1}, what="the folder's two photos as before")
    # No switcher in the header bar: none of its chips' covers (the photos' colours).
    header = shot.crop(Rect(0, 0, shot.width, 50)).blobs({c: PALETTE[c] for c in ("red", "green")})
    assert not header, f"the header bar shows photo colours, as a switcher's covers: {list(header.values())}"
    # Alt+2 and Ctrl+Page Down have no album to go to: the grid stays the folder's.
    app.key("alt+2", "ctrl+Next")
    mark = app.mark()
    app.key("Home", "Return")
    app.wait_for_line(r"^trace page 0 \d+$", since=mark)    # the keys were handled
    app.key("Escape")
    app.wait_for_title("plain")
    assert not app.lines_matching(r"^trace albums-first "), "albums-first for a folder without albums"
    assert not app.lines_matching(r"^trace album-shown "), "an album was shown for a folder without albums"
    assert not [m for m in app.lines_matching(r"^trace albums (\d+) ") if m.group(1) != "0"]
    assert app.quit() == 0


def test_a_subfolder_made_while_open_becomes_an_album_and_photos_moved_follow(launch, tmp_path):
    live = tmp_path / "live"
    photos(live, "yellow", 1, age_hours=3, prefix="own")
    photos(live / "older", "red", 2, age_hours=2)
    app = open_tree(launch, live, albums=1)
    wait_for_switcher(app, [3, 1, 2])

    mark = app.mark()
    newer = live / "newer"
    newer.mkdir()
    photos(newer, "blue", 2, age_hours=0)
    wait_for_albums(app, 2, since=mark)
    wait_for_switcher(app, [5, 1, 2, 2], since=mark)        # the new album is the newest
    show_album(app, "alt+3", "newer", 2)
    expect_tiles(app, {"blue": 2}, what="the new album's two blue tiles")
    show_album(app, "alt+4", "older", 2)
    expect_tiles(app, {"red": 2}, what="the older album's tiles")

    # A photo moved from one album to the other moves between them.
    mark = app.mark()
    os.rename(live / "older" / "red-1.png", newer / "red-1.png")
    wait_for_switcher(app, [5, 1, 3, 1], since=mark)
    expect_tiles(app, {"red": 1}, what="one red tile left in “older”")
    show_album(app, "alt+3", "newer", 3)
    expect_tiles(app, {"blue": 2, "red": 1}, what="the moved red photo in “newer”")
    show_album(app, "alt+1", "All Photos", 5)
    expect_tiles(app, {"yellow": 1, "red": 2, "blue": 2}, what="All Photos unchanged by the move")
    assert app.quit() == 0


def test_a_deleted_album_folder_disappears(launch, tmp_path):
    top = tmp_path / "shrinking"
    photos(top, "yellow", 1, age_hours=3, prefix="own")
    photos(top / "first", "red", 2, age_hours=1)
    photos(top / "second", "blue", 2, age_hours=2)
    photos(top / "third", "green", 1, age_hours=2.5)
    app = open_tree(launch, top, albums=3)
    wait_for_switcher(app, [6, 1, 2, 2, 1])
    show_album(app, "alt+1", "All Photos", 6, expect_shown=False)
    expect_tiles(app, {"yellow": 1, "red": 2, "blue": 2, "green": 1}, what="All Photos")

    # Deleted while All Photos is shown: its photos leave it and its album goes.
    mark = app.mark()
    shutil.rmtree(top / "second")
    wait_for_albums(app, 2, since=mark)
    wait_for_switcher(app, [4, 1, 2, 1], since=mark)
    expect_tiles(app, {"yellow": 1, "red": 2, "green": 1}, what="All Photos without the deleted folder's photos")

    # Deleted while shown: the window shows an album that is there, with its photos.
    show_album(app, "alt+3", "first", 2)
    expect_tiles(app, {"red": 2}, what="the album about to be deleted")
    mark = app.mark()
    shutil.rmtree(top / "first")
    wait_for_albums(app, 1, since=mark)
    wait_for_switcher(app, [2, 1, 1], since=mark)
    remaining = {"All Photos": {"yellow": 1, "green": 1}, "shrinking": {"yellow": 1}, "third": {"green": 1}}
    title = app.wait_for_title("|".join(remaining))
    expect_tiles(app, remaining[title], what=f"the photos of “{title}”, shown once the album shown was deleted")

    # The last subfolder album deleted while shown: the folder looks as it does without
    # subfolders, titled by its name, its own photo in the grid.
    show_album(app, "alt+3", "third", 1)
    mark = app.mark()
    shutil.rmtree(top / "third")
    wait_for_albums(app, 0, since=mark)
    app.wait_for_title("shrinking")
    expect_tiles(app, {"yellow": 1}, what="the folder's own photo once its albums are gone")
    assert app.quit() == 0


def test_photos_arriving_in_an_album_not_in_view_show_when_it_is_shown_again(launch, tmp_path):
    top = tmp_path / "arriving"
    photos(top / "newer", "blue", 2, age_hours=1)
    photos(top / "older", "red", 2, age_hours=2)
    app = open_tree(launch, top, albums=2)
    wait_for_switcher(app, [4, 2, 2])
    show_album(app, "alt+2", "newer", 2, expect_shown=False)
    expect_tiles(app, {"blue": 2}, what="the album's two blue tiles")
    show_album(app, "alt+3", "older", 2)
    expect_tiles(app, {"red": 2}, what="the other album")

    mark = app.mark()
    photos(top / "newer", "cyan", 1, age_hours=1.5)          # while “older” is shown
    wait_for_switcher(app, [5, 3, 2], since=mark)
    show_album(app, "alt+2", "newer", 3)
    expect_tiles(app, {"blue": 2, "cyan": 1}, what="the photo that arrived while the album was not in view")
    show_album(app, "alt+1", "All Photos", 5)
    expect_tiles(app, {"blue": 2, "cyan": 1, "red": 2}, what="All Photos with the photo that arrived")
    assert app.quit() == 0


def test_the_viewer_opened_from_an_album_pages_only_within_it(launch, tmp_path):
    top = tmp_path / "paging"
    photos(top / "two", "blue", 1, age_hours=1, prefix="two-a")
    photos(top / "two", "cyan", 1, age_hours=1.5, prefix="two-b")
    photos(top / "three", "red", 3, age_hours=2)
    app = open_tree(launch, top, albums=2)
    wait_for_switcher(app, [5, 2, 3])
    show_album(app, "alt+2", "two", 2, expect_shown=False)
    expect_tiles(app, {"blue": 1, "cyan": 1}, what="the two photos of “two”")

    mark = app.mark()
    app.key("Home", "Return")
    app.wait_for_title(r"two-a-1\.png")
    app.wait_for_line(r"^trace page 0 \d+$", since=mark)
    app.key("Right")
    app.wait_for_title(r"two-b-1\.png")
    app.key("Right")               # past the album's last photo: nowhere to go
    app.key("Left")
    # Pages shown since Enter (a page announced twice in a row counted once): Enter, Right,
    # Left make three; a Right that left the album makes them 0, 1, 2, 1.
    deadline = Deadline(15)
    while True:
        pages = [int(m.group(1)) for m in app.lines_matching(r"^trace page (\d+) \d+$", since=mark)]
        pages = [p for i, p in enumerate(pages) if i == 0 or pages[i - 1] != p]
        if len(pages) >= 3 or deadline.expired():
            break
        time.sleep(0.1)
    assert pages == [0, 1, 0], f"the viewer paged through {pages}, expected [0, 1, 0] (only within “two”)"
    app.wait_for_title(r"two-a-1\.png")
    # 640×480 at 100 % in the 1024×768 window: 39 % of it.
    wait_for_screen(app, photo_fills_view_check(PALETTE["blue"], "blue", min_fraction=0.3),
                    what="the album's first photo")
    app.key("Escape")
    app.wait_for_title("two")
    assert app.quit() == 0


def test_a_link_to_a_folder_outside_the_tree_is_followed_once(launch, tmp_path):
    top = tmp_path / "linked"
    photos(top / "here", "red", 2, age_hours=2)
    photos(tmp_path / "outside", "cyan", 1, age_hours=1)
    os.symlink("../outside", top / "there")
    os.symlink(str(tmp_path / "outside"), top / "there-too")     # the same folder, a second time
    os.symlink("../linked", tmp_path / "outside" / "back")       # leads into the tree again
    app = open_tree(launch, top, albums=2)
    wait_for_switcher(app, [3, 1, 2])
    app.key("alt+2")
    app.wait_for_title(r"there|there-too")
    expect_tiles(app, {"cyan": 1}, what="the linked folder's photo")
    show_album(app, "alt+3", "here", 2)
    show_album(app, "alt+1", "All Photos", 3)
    expect_tiles(app, {"red": 2, "cyan": 1}, what="each photo once")
    assert app.quit() == 0


@pytest.mark.normal_user
def test_an_unreadable_subfolder_is_skipped(launch, tmp_path):
    top = tmp_path / "guarded"
    photos(top / "open", "red", 2, age_hours=2)
    locked = top / "locked"
    photos(locked, "blue", 1, age_hours=1)
    photos(locked / "inner", "green", 1, age_hours=1)
    locked.chmod(0)
    try:
        app = open_tree(launch, top, albums=1)
        wait_for_switcher(app, [2, 2])
        show_album(app, "alt+2", "open", 2)
        expect_tiles(app, {"red": 2}, what="the readable album")
        show_album(app, "alt+1", "All Photos", 2)
        expect_tiles(app, {"red": 2}, what="no photo of the unreadable folder")
        assert app.quit() == 0
    finally:
        locked.chmod(0o755)


@pytest.mark.root
def test_a_mount_point_inside_the_tree_is_not_crossed(launch, tmp_path):
    top = tmp_path / "mounted"
    photos(top / "here", "red", 2, age_hours=2)
    point = top / "media"
    point.mkdir()
    result = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "none", str(point)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if result.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {result.stdout.decode(errors='replace').strip()}")
    try:
        photos(point / "card", "blue", 2, age_hours=1)
        app = open_tree(launch, top, albums=1)
        wait_for_switcher(app, [2, 2])
        show_album(app, "alt+1", "All Photos", 2, expect_shown=False)
        expect_tiles(app, {"red": 2}, what="no photo from the mounted file system")
        assert app.quit() == 0
    finally:
        subprocess.run(["umount", "-l", str(point)])


def test_an_album_shown_again_keeps_its_scroll_position_and_selection(launch, tmp_path):
    """Back to an album, kept or let go meanwhile (the window keeps a few albums' pages),
    the grid is where it was and what was selected still is: Delete trashes it."""
    top = tmp_path / "keeping"
    long_album = top / "long"
    grey = make_solid(tmp_path / "grey.png", (128, 128, 128)).read_bytes()
    names = [f"photo-{n:02d}.png" for n in range(48)]       # eight rows of six: two screens
    for n, name in enumerate(names):
        path = long_album / name
        if n == 0:
            make_solid(path, PALETTE["red"])
        elif n == len(names) - 1:
            make_solid(path, PALETTE["cyan"])
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(grey)
        stamp = time.time() - HOUR - n * 60                  # newest first: red first, cyan last
        os.utime(path, (stamp, stamp))
    others = [f"other-{n}" for n in range(1, 7)]
    for n, name in enumerate(others):
        photos(top / name, "green", 1, age_hours=2 + n)
    app = open_tree(launch, top, albums=7)
    wait_for_switcher(app, [54, 48] + [1] * 6)

    def at_the_end(image: Image):
        found = count_tiles(image, {"red": PALETTE["red"], "cyan": PALETTE["cyan"]}, top=60, min_side=48)
        return "cyan" in found and "red" not in found, f"tiles on screen {found}: expected cyan, no red"

    show_album(app, "alt+2", "long", 48, expect_shown=False)
    wait_for_screen(app, lambda image: ("red" in count_tiles(image, top=60), "no red tile"), what="the album's first tile")
    app.key("End")
    cyan = wait_for_screen(app, at_the_end, what="the album's last tile after End")
    (left, y, width, height), = count_tiles(cyan, top=60)["cyan"]
    app.ctrl_click(left + width // 2, y + height // 2)       # edit mode, the last photo selected

    # Kept: the next album and back.
    show_album(app, "ctrl+Next", "other-1", 1)
    show_album(app, "ctrl+Prior", "long", 48)
    wait_for_screen(app, at_the_end, what="the last tile still in view after Ctrl+Page Down, Ctrl+Page Up")
    # Let go: six other albums shown since.
    for index, name in enumerate(others, start=3):
        show_album(app, f"alt+{index}", name, 1)
    show_album(app, "alt+2", "long", 48)
    wait_for_screen(app, at_the_end, what="the last tile still in view after six other albums")

    app.key("Delete")
    wait_until(lambda: (trash_files(app) / names[-1]).exists(), "Delete to trash the photo selected before leaving the album", timeout=15)
    assert sorted(p.name for p in long_album.iterdir()) == names[:-1], "only the selected photo is trashed"
    assert app.quit() == 0
