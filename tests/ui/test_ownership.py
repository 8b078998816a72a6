"""Nothing the app makes outlives its use: after opening and closing folders, viewers,
dialogs and context menus fifty times, as many of the app's objects are alive as after
the first few times.

The app counts its live objects (GObjects it made and Swift objects that own them) and
prints the total on SIGUSR1 (`trace live-objects N`, with a `live KIND COUNT` line per kind
before it under GPHOTOBROWSE_TRACE=all).
"""

import os
import re
import signal
import sys
import time
from pathlib import Path

from harness import COLOURS, Deadline, open_folder, tiles_check, wait_for_screen

DRAG_SOURCE = Path(__file__).resolve().parent / "drag_source.py"
ROUNDS = int(os.environ.get("GPHOTOBROWSE_TEST_ROUNDS", "50"))  # fewer when debugging by hand


def live_objects(app) -> tuple[int, dict[str, int]]:
    """Asks the app for its live objects: the total and the count of each kind."""
    mark = app.mark()
    os.kill(app.process.pid, signal.SIGUSR1)
    total = int(app.wait_for_line(r"^trace live-objects (\d+) \d+$", since=mark).group(1))
    kinds = {m.group(1): int(m.group(2))
             for m in app.lines_matching(r"^gphotobrowse: live (\S+) (-?\d+)$", since=mark)}
    return total, kinds


def live_objects_at_most(app, limit: int, timeout: float = 10) -> tuple[int, dict[str, int]]:
    """Asks until the app has at most `limit` live objects (what closing things releases may
    still be on its way), or the deadline passes; the last answer."""
    deadline = Deadline(timeout)
    while True:
        total, kinds = live_objects(app)
        if total <= limit or deadline.expired():
            return total, kinds
        time.sleep(0.1)


def steady_live_objects(app, timeout: float = 10) -> tuple[int, dict[str, int]]:
    """Asks until two answers in a row agree (nothing is being released any more)."""
    deadline = Deadline(timeout)
    last = live_objects(app)
    while True:
        now = live_objects(app)
        if now[0] == last[0] or deadline.expired():
            return now
        last = now


def dialog_count(app) -> int:
    return len(app.x.windows_of(app.process.pid))


def wait_for_windows(app, count: int, what: str, timeout: float = 10):
    deadline = Deadline(timeout)
    while dialog_count(app) != count:
        assert not deadline.expired(), f"{what}: {dialog_count(app)} windows, expected {count}"
        time.sleep(0.05)


def test_opening_and_closing_fifty_times_leaves_nothing_behind(launch, spawn, xserver, photo_folder):
    folders = [photo_folder("alpha", {"1-red.png": "red", "2-green.png": "green"}),
               photo_folder("beta", {"1-blue.png": "blue", "2-yellow.png": "yellow", "3-cyan.png": "cyan"})]
    wanted = [{c: COLOURS[c] for c in ("red", "green")}, {c: COLOURS[c] for c in ("blue", "yellow", "cyan")}]
    app = open_folder(launch, folders[1], count=3)
    sources = []
    for n, folder in enumerate(folders):
        source = spawn([sys.executable, DRAG_SOURCE, f"Drag source {n}", folder.as_uri()])
        source.wait_for_line(r"^ready$")
        source.wait_for_window(rf"^Drag source {n}$")
        xserver.move_window(source.window, 1400, 100 + 300 * n)
        sources.append(source)
    windows = dialog_count(app)

    def one_round(n: int):
        which = n % 2
        mark = app.mark()
        target = app.geometry()
        xserver.drag(sources[which].geometry().centre, (target.x + target.width // 2, target.y + target.height // 2),
                     steps=8, step_pause=0.02)
        app.wait_for_title(re.escape(folders[which].name))
        app.wait_for_line(r"^trace visible-thumbnails \d+ \d+$", since=mark)
        shot = wait_for_screen(app, tiles_check(wanted[which]), what=f"round {n}: the tiles of {folders[which].name}")
        tile = shot.blobs(wanted[which])[next(iter(wanted[which]))]
        x, y = round(tile.cx), round(tile.cy)

        # A context menu over a tile, closed again.
        app.until_shown(lambda: app.click(x, y, button=3), "GtkPopoverMenu context-menu")
        app.until_hidden(lambda: app.key("Escape"), "GtkPopoverMenu context-menu")

        # The viewer, a dialog in it (Shift+Delete asks first), cancelled, and back. The
        # pointer moves first, as a hand does: GTK 4.8 on X11 may not take a click from a
        # pointer that has not moved since a popover's grab ended.
        # Under load a click right after the grab may still be lost: as a person would,
        # click again when the viewer did not open (twice at most).
        g = app.geometry()
        mark = app.mark()
        for attempt in range(3):
            xserver.mouse_move(g.x + x + 4 + attempt, g.y + y + 4)
            app.click(x, y)
            try:
                app.wait_for_line(r"^trace page \d+ \d+$", since=mark, timeout=5)
                break
            except AssertionError:
                if attempt == 2:
                    raise
        app.wait_for_line(r"^trace full-image \d+ \d+$", since=mark)
        app.key("shift+Delete")
        wait_for_windows(app, windows + 1, f"round {n}: the permanent-delete question")
        app.key("Escape")
        wait_for_windows(app, windows, f"round {n}: the question closed")
        app.key("Escape")
        app.wait_for_title(re.escape(folders[which].name))

    for n in range(4):
        one_round(n)
    before, kinds_before = steady_live_objects(app)
    for n in range(4, ROUNDS):
        one_round(n)
    after, kinds_after = live_objects_at_most(app, before)

    grown = {k: (kinds_before.get(k, 0), v) for k, v in kinds_after.items() if v > kinds_before.get(k, 0)}
    assert after <= before, (f"{after - before} more live objects after {ROUNDS - 4} more rounds "
                             f"({before} → {after}); grown (before, after): {grown}")
    # Every kind of object the rounds make was counted, so a leak of any of them would show.
    for kind in ("OpenFolder", "PhotoViewer", "ThumbnailGrid", "GtkGridView", "ThumbnailTile", "GSimpleAction"):
        assert kinds_after.get(kind, 0) > 0, f"no live {kind} counted: {kinds_after}"
    assert app.quit() == 0


ALBUMS = 20
SWITCH_ROUNDS = 4


def test_switching_through_twenty_albums_four_times_leaves_nothing_behind(launch, tmp_path):
    """Each switch past the six album pages kept lets one go: its grid, viewer, tiles, their
    observers of the folder's shared thumbnails and their signal connections must go with it."""
    from test_albums import open_tree, photos, show_album

    tree = tmp_path / "twenty"
    names = [f"album-{n:02}" for n in range(1, ALBUMS + 1)]
    # album-01 the newest: the switcher lists them in this order, after All Photos.
    for n, name in enumerate(names):
        photos(tree / name, ("red", "green", "blue", "yellow")[n % 4], 1, age_hours=n + 1, prefix=name)
    app = open_tree(launch, tree, albums=ALBUMS)
    app.wait_for_title(re.escape("All Photos"))
    app.wait_for_line(r"^trace visible-thumbnails \d+ \d+$")

    def one_round():
        for name in names:
            show_album(app, "ctrl+Next", name, 1)
        show_album(app, "alt+1", "All Photos", ALBUMS)

    one_round()
    before, kinds_before = steady_live_objects(app)
    for _ in range(SWITCH_ROUNDS - 1):
        one_round()
    after, kinds_after = live_objects_at_most(app, before)

    grown = {k: (kinds_before.get(k, 0), v) for k, v in kinds_after.items() if v > kinds_before.get(k, 0)}
    assert after <= before, (f"{after - before} more live objects after {SWITCH_ROUNDS - 1} more rounds of "
                             f"{ALBUMS + 1} album switches ({before} → {after}); grown (before, after): {grown}")
    # Observers and signal connections are counted, so a page that kept either would show.
    for kind in ("Observer", "SignalConnection", "AlbumPage", "ThumbnailGrid"):
        assert kinds_after.get(kind, 0) > 0, f"no live {kind} counted: {kinds_after}"
    assert app.quit() == 0
