"""The grid follows the folder on disk and the app remembers the order a person chose."""

import os
import re
import shutil
import signal
import time
from pathlib import Path

import pytest
from harness import (COLOURS, Deadline, make_solid, open_folder, row_major_order, set_times, setting, tiles_check,
                     wait_for_screen)


def shows(*names):
    """A wait_for_screen check: exactly these colours are on screen, as tiles."""
    wanted = {name: COLOURS[name] for name in names}
    others = {name: rgb for name, rgb in COLOURS.items() if name not in names}

    def check(image):
        found, extra = image.blobs(wanted), image.blobs(others)
        missing = [name for name in names if name not in found]
        return not missing and not extra, f"missing {missing}, unexpected {list(extra)}"
    return check


def test_files_created_removed_and_replaced_by_another_program_show_in_the_grid(launch, tmp_path):
    folder = tmp_path / "changing"
    for name, colour in {"a.png": "red", "b.png": "green"}.items():
        make_solid(folder / name, colour)
    set_times(folder, ["a.png", "b.png"])
    app = open_folder(launch, folder, count=2, sort_by="name")
    wait_for_screen(app, shows("red", "green"), what="the red and green tiles")

    make_solid(folder / "c.png", "blue")                     # created
    wait_for_screen(app, shows("red", "green", "blue"), what="the new blue photo's tile")

    (folder / "a.png").unlink()                              # removed
    wait_for_screen(app, shows("green", "blue"), what="the red tile gone")

    # Replaced while on screen, as an editor saves: a new file renamed over the old one.
    replacement = make_solid(tmp_path / "b-edited.png", "yellow")
    later = time.time() + 5
    os.utime(replacement, (later, later))
    os.rename(replacement, folder / "b.png")
    wait_for_screen(app, shows("yellow", "blue"), what="the replaced photo's new picture")
    assert app.quit() == 0


def test_the_order_chosen_in_the_sort_menu_is_remembered(launch, photo_folder, tmp_path):
    photos = {"img-1-red.png": "red", "img-2-green.png": "green", "img-10-blue.png": "blue"}
    folder = photo_folder("sorted", photos, newest_first=False)
    config = {"XDG_CONFIG_HOME": str(tmp_path / "config")}   # shared by both runs
    by_name = ["red", "green", "blue"]
    by_age = [photos[n] for n in sorted(photos, key=lambda n: (folder / n).stat().st_mtime, reverse=True)]
    assert by_name != by_age

    app = launch(folder, extra_env=config)
    app.wait_for_window(r"^sorted$")
    app.wait_for_line(r"^trace visible-thumbnails \d+ \d+$")
    first = row_major_order(wait_for_screen(app, tiles_check({c: COLOURS[c] for c in by_name})).blobs(COLOURS).values())
    assert first == by_age, "the default order is newest first"

    # The sort button sits left of the main menu button; its menu lists Date Taken, Name, …
    g = app.geometry()
    app.until_shown(lambda: app.click(g.width - 196, 26), "GtkPopoverMenu")
    app.key("Down")
    app.key("Return")
    wait_for_screen(app, lambda image: (row_major_order(image.blobs({c: COLOURS[c] for c in by_name}).values()) == by_name,
                                        "tiles not yet in name order"), what="the tiles in name order")
    assert setting(app, "sort-by") == "'name'", "the order chosen is in the app's settings"
    assert setting(app, "sort-reversed") == "false"
    assert app.quit() == 0

    again = launch(folder, extra_env=config)
    again.wait_for_window(r"^sorted$")
    again.wait_for_line(r"^trace visible-thumbnails \d+ \d+$")
    shown = row_major_order(wait_for_screen(again, tiles_check({c: COLOURS[c] for c in by_name})).blobs(COLOURS).values())
    assert shown == by_name, "the next run shows the order chosen before"
    assert again.quit() == 0


def test_a_re_sort_keeps_the_thumbnails_under_way_for_the_photos_it_moves(launch, tmp_path):
    # Each photo takes its decoder two seconds (a test mode), so that every thumbnail is still
    # under way when the folder changes, however fast the machine; the newest first (the
    # default order).
    folder = tmp_path / "resorted"
    folder.mkdir()
    names = [f"photo-{n}.png" for n in range(8)]
    for name in names:
        (folder / name).write_bytes(b"GPHOTOBROWSE-TEST-SLOW\n")
    set_times(folder, names)
    app = launch(folder, extra_env={"GPHOTOBROWSE_DECODER_TEST_MODES": "1"})
    deadline = Deadline(30)
    while len(app.lines_matching(r"^trace tile-requested ")) < len(names):
        assert not deadline.expired(), f"not every tile asked for its thumbnail\n{app.tail()}"
        time.sleep(0.05)
    mark = app.mark()

    # The oldest photo is rewritten: it moves to the front, and every other tile moves one
    # place on, rebound to the same photo. Their thumbnails are under way: none is asked again.
    os.utime(folder / names[-1], None)
    again = app.wait_for_line(r"^trace tile-requested (\d+) \d+$", since=mark, timeout=30)
    assert again.group(1) == "0", "the rewritten photo, now the newest, is asked for again"
    lines = list(app.lines)
    at = next(i for i in range(mark, len(lines)) if lines[i].startswith("trace tile-requested "))
    finished = sum(1 for line in lines[:at] if re.match(r"^trace tile-(loaded|failed) ", line))
    assert finished < len(names) - 1, "the thumbnails were ready before the re-sort: none was under way"
    # Every tile ends (these photos are not photos: each tile says so); only then is the
    # count of requests final.
    deadline = Deadline(60)
    while len(app.lines_matching(r"^trace tile-(loaded|failed) ")) < len(names):
        assert not deadline.expired(), f"not every tile ended\n{app.tail()}"
        time.sleep(0.05)
    requested = [m.string for m in app.lines_matching(r"^trace tile-requested ", since=mark)]
    assert len(requested) == 1, f"thumbnails asked for again after the re-sort: {requested}"
    assert app.quit() == 0


def test_what_changed_before_the_folder_was_followed_shows_too(launch, tmp_path):
    """The folder is followed from the window's first frame on; what another program changed
    after the walk read it and before then (a busy machine) is found by reading it again."""
    folder = tmp_path / "busy"
    for name, colour in {"a.png": "red", "b.png": "green"}.items():
        make_solid(folder / name, colour)
    set_times(folder, ["a.png", "b.png"])
    app = launch(folder, sort_by="name", extra_env={"GPHOTOBROWSE_STOP_AFTER_WALK": "1"})
    app.wait_for_line(r"^trace walk-stopped \d+$")
    try:
        deadline = Deadline(20)
        while "\nState:\tT" not in Path(f"/proc/{app.process.pid}/status").read_text():
            assert not deadline.expired(), "the app did not stop after its walk"
            time.sleep(0.01)
        # Every line written before the stop has been read by now, in the order written.
        if app.lines_matching(r"^trace (first-frame|walk-stopped) ")[0].group(1) == "first-frame":
            pytest.skip("the window drew its first frame before the walk ended: no change could fall between")
        make_solid(folder / "c.png", "blue")                     # created
        (folder / "a.png").unlink()                              # removed
        make_solid(folder / "later" / "d.png", "yellow")         # a new subfolder with a photo
    finally:
        os.kill(app.process.pid, signal.SIGCONT)
    app.wait_for_window(r"^busy$")
    wait_for_screen(app, shows("green", "blue", "yellow"), what="the photos as they are after the walk")
    # Found by reading the folder again (its monitor started after the changes): one new photo,
    # one gone, one new folder.
    app.wait_for_line(r"^trace folder-reread 1 1 1 \d+$")
    assert app.quit() == 0


def test_a_photo_listed_while_it_was_written_shows_once_it_is_whole(launch, tmp_path):
    """A camera import's file listed before it is whole fails; finished within the same second
    (the same modification time to the second, which is all the thumbnail cache's failure
    record kept), it is made a thumbnail of again."""
    folder = tmp_path / "import"
    make_solid(folder / "a.png", "red")
    whole = make_solid(tmp_path / "b.png", "blue").read_bytes()
    (folder / "b.png").write_bytes(whole[:40])                  # cut short, as while copied
    stamp = int(time.time()) - 5
    os.utime(folder / "b.png", (stamp, stamp))
    app = open_folder(launch, folder, count=2, sort_by="name")
    app.wait_for_line(r"^trace tile-failed 1 \d+$")
    mark = app.mark()
    (folder / "b.png").write_bytes(whole)                       # whole, in the same second
    os.utime(folder / "b.png", (stamp + 0.5, stamp + 0.5))
    app.wait_for_line(r"^trace tile-loaded 1 \d+$", since=mark)
    wait_for_screen(app, shows("red", "blue"), what="the photo's own picture once it is whole")
    assert app.quit() == 0
