"""Web albums from servers that are slow, silent or huge (tests/servers/photo_server.py): the
window says it is loading while a list or a photo is asked for, one host trickling its photos
does not hold up another host's tiles nor the viewer, and a list of 100,000 photos goes into
the grid without stopping the main loop."""

import json
from pathlib import Path

from harness import COLOURS, Rect, make_solid, wait_for_screen
from test_web_album import PhotoServer


def header_changes(app):
    """A check that passes once the header bar looks different from the last time it was
    looked at while the rest of the window does not: something there moves (a spinner)."""
    last = {}

    def check(image):
        geometry = app.geometry()
        header = image.crop(Rect(0, 0, geometry.width, 48)).data
        body = image.crop(app.content_area()).data
        moved = "header" in last and header != last["header"] and body == last["body"]
        last["header"], last["body"] = header, body
        return moved, "the header bar stayed still" if not moved else "the header bar moves"

    return check


def test_a_list_and_a_photo_that_take_long_show_that_they_load(launch, tmp_path):
    root = tmp_path / "www"
    root.mkdir()
    make_solid(root / "red.png", "red", size="1600x1200")
    (root / "slow.json").write_text(json.dumps({"title": "Slow", "photos": ["red.png"]}))
    server = PhotoServer(root, tmp_path / "stats.json")
    try:
        # The server reads the request and says nothing: the window says it is connecting.
        app = launch(f"{server.url}/slow.json?stall=1")
        app.wait_for_line(r"^trace busy 1 \d+$", timeout=30)
        app.wait_for_window(None, timeout=30)
        wait_for_screen(app, header_changes(app), timeout=20, what="a spinner turning in the header bar")
        assert app.quit() == 0

        # A photo the server is silent about: the viewer's ring shows from the request on.
        viewer = launch(f"{server.url}/red.png?stall=1")
        viewer.wait_for_window("red.png", timeout=30)
        viewer.wait_for_line(r"^trace page 0 \d+$", timeout=30)

        def ring_and_words(image):
            area = viewer.content_area()
            middle = image.crop(Rect(area.width // 2 - 160, area.y + area.height // 2 - 110, 320, 220))
            white = middle.fraction_of((255, 255, 255), tolerance=30, step=1)
            return 0.002 < white < 0.2, f"{white:.2%} of the viewer's middle is white (the ring and its words)"

        wait_for_screen(viewer, ring_and_words, timeout=20, what="the ring while the server has not answered")
        assert server.requests("/red.png?stall=1") == 1
        assert viewer.quit() == 0
    finally:
        server.stop()


def test_a_trickling_host_holds_up_neither_another_hosts_tiles_nor_the_viewer(launch, tmp_path):
    slow_root, quick_root = tmp_path / "slow", tmp_path / "quick"
    slow_root.mkdir()
    quick_root.mkdir()
    make_solid(slow_root / "grey.png", (128, 128, 128), size="800x600")
    for i in range(6):
        make_solid(quick_root / f"green-{i}.png", "green", size="1600x1200")
    slow = PhotoServer(slow_root, tmp_path / "slow-stats.json")
    quick = PhotoServer(quick_root, tmp_path / "quick-stats.json")
    try:
        # 30 photos on a host that sends a byte every 3 seconds, listed (and shown) before 6 on
        # a quick host: newest first, the slow ones are newer.
        photos = [{"url": f"{slow.url}/grey.png?trickle=3&n={i}", "taken": f"2024-05-02T10:{i:02d}:00Z"} for i in range(30)]
        photos += [{"url": f"{quick.url}/green-{i}.png", "taken": f"2024-05-01T10:{i:02d}:00Z"} for i in range(6)]
        (quick_root / "mixed.json").write_text(json.dumps({"title": "Mixed", "photos": photos}))
        app = launch(f"{quick.url}/mixed.json", sort_by="dateTaken")
        app.wait_for_line(r"^trace enumerated 36 \d+$", timeout=30)
        app.wait_for_window(None, timeout=30)
        # The quick host's six thumbnails arrive while the slow host still trickles (its
        # downloads give up only after 20 s with too little progress).
        for index in range(30, 36):
            app.wait_for_line(rf"^trace tile-loaded {index} \d+$", timeout=15)
        assert len(app.lines_matching(r"^trace tile-loaded ")) == 6
        assert not app.lines_matching(r"^trace tile-failed "), "no slow download gave up yet"
        assert all(quick.requests(f"/green-{i}.png") == 1 for i in range(6))
        # The last photo (the quick host's oldest) opens in the viewer at once, though the
        # slow host holds every tile download it is allowed.
        app.key("End")
        app.key("Return")
        app.wait_for_line(r"^trace download-complete 35 \d+$", timeout=15)
        app.wait_for_line(r"^trace full-image 35 \d+$", timeout=15)

        def mostly_green(image):
            share = image.crop(app.content_area()).fraction_of(COLOURS["green"], tolerance=80)
            return share > 0.3, f"{share:.0%} of the viewer is green"

        wait_for_screen(app, mostly_green, what="the quick host's photo in the viewer")
        assert app.quit() == 0
    finally:
        slow.stop()
        quick.stop()


def test_a_list_of_100000_photos_goes_in_while_the_main_loop_keeps_turning(launch, tmp_path):
    root = tmp_path / "www"
    root.mkdir()
    (root / "huge.json").write_text(json.dumps({"title": "Huge", "photos": [f"p/{i}.jpg" for i in range(100_000)]}))
    server = PhotoServer(root, tmp_path / "stats.json")
    try:
        # A heartbeat due every millisecond: wherever the main loop turns, one is printed.
        app = launch(f"{server.url}/huge.json", extra_env={"GPHOTOBROWSE_HEARTBEAT": "1"})
        app.wait_for_line(r"^trace enumerated 100000 \d+$", timeout=60)
        lines = app.lines_matching(r"^trace (merged|heartbeat)\b")
        merges = [i for i, m in enumerate(lines) if m.group(1) == "merged"]
        assert len(merges) >= 2, f"the list went in {len(merges)} slice(s)"
        # The main loop turned between slices: a heartbeat came between most of them.
        turns = sum(1 for a, b in zip(merges, merges[1:]) if b > a + 1)
        assert turns >= (len(merges) - 1) // 2, f"the main loop turned between {turns} of {len(merges)} slices"
        assert app.quit() == 0
    finally:
        server.stop()
