"""Web albums as a person works with them: Open Location (Ctrl+L), tiles that show their
downloads, the viewer letting go of a download it paged away from, and export, which saves
the downloaded originals. The server is tests/servers/photo_server.py on loopback."""

import json
import subprocess
import time

from harness import COLOURS, Deadline, Rect, choose_folder, make_solid, tiles_check, wait_for_screen
from test_web_album import PHOTOS, PhotoServer, album_tiles, web_root, web_server  # noqa: F401 (fixtures)


def noisy(path, colour: str, size: str = "1600x1200"):
    """A photo of `colour` (a name of COLOURS) with noise: large enough to take seconds when
    throttled."""
    subprocess.run(["convert", "-size", size, "xc:#%02x%02x%02x" % COLOURS[colour], "-attenuate", "0.3", "+noise", "Uniform", str(path)],
                   check=True)
    return path


def served(server: PhotoServer, target: str) -> dict:
    return json.loads(server.stats.read_text()).get(target, {})


def test_open_location_opens_a_web_album(launch, photo_folder, web_server):
    app = launch(photo_folder("local", {"1-yellow.png": "yellow"}))
    app.wait_for_line(r"^trace visible-thumbnails 1 \d+$", timeout=30)
    app.wait_for_window(r"^local$")
    mark = app.mark()
    app.focus()
    app.key("ctrl+l")
    deadline = Deadline(10)
    while not app.x.windows_named(r"^Open Location$") and not deadline.expired():
        time.sleep(0.1)
    app.wait_for_line(r"^trace shown AdwMessageDialog \d+$", since=mark)   # its entry has the focus
    app.x.xdotool("type", "--delay", "15", f"{web_server.url}/kyoto.json")
    app.x.key("Return")
    app.wait_for_line(r"^trace enumerated 3 \d+$", since=mark, timeout=30)
    app.wait_for_title("Kyoto")
    wait_for_screen(app, album_tiles(app), what="the album opened from Open Location")
    assert app.quit() == 0


def test_tiles_show_a_ring_while_their_photos_download(launch, web_server):
    # No thumbnails in the list: each tile downloads its photo, slowly.
    for name, colour in PHOTOS.items():
        noisy(web_server.root / f"big-{name}", colour)
    (web_server.root / "slow.json").write_text(json.dumps({"title": "Slow", "photos": [
        f"big-{name}?throttle=4096" for name in PHOTOS]}))
    app = launch(f"{web_server.url}/slow.json")
    app.wait_for_line(r"^trace enumerated 3 \d+$", timeout=30)
    app.wait_for_title("Slow")

    def rings(image):
        # The ring's dark disc (40 px across, black at 65% over the light placeholder) in each
        # of the first three tiles (about 160 px each, from 14 px in).
        area = app.content_area(header_height=50)
        found = 0
        for column in range(3):
            tile = image.crop(Rect(area.x + 14 + column * 167, area.y, 161, 175))
            found += tile.fraction_of((84, 84, 84), tolerance=30, step=1) > 0.02
        return found == 3, f"{found} of 3 tiles show a ring"

    shot = wait_for_screen(app, rings, timeout=20, what="a download ring on each tile")
    shot.save(web_server.stats.with_name("rings.png"))
    # Then the photos.
    wait_for_screen(app, album_tiles(app), timeout=90, what="the downloaded photos as tiles")
    assert app.quit() == 0


def test_the_viewer_lets_go_of_a_download_it_paged_away_from(launch, web_server):
    names = [noisy(web_server.root / f"p{i}.png", colour).name for i, colour in enumerate(["red", "green", "blue"])]
    thumbnails = [make_solid(web_server.root / "t" / name, colour, size="160x120").name
                  for name, colour in zip(names, ["red", "green", "blue"])]
    (web_server.root / "pages.json").write_text(json.dumps({"title": "Pages", "photos": [
        {"url": f"{name}?throttle=4096", "thumbnail": f"t/{thumbnail}"} for name, thumbnail in zip(names, thumbnails)]}))
    app = launch(f"{web_server.url}/pages.json")
    app.wait_for_line(r"^trace visible-thumbnails 3 \d+$", timeout=30)
    app.wait_for_title("Pages")
    image = wait_for_screen(app, tiles_check({"red": COLOURS["red"]}, area=app.content_area()), what="the first tile")
    blob = image.crop(app.content_area()).blobs({"red": COLOURS["red"]})["red"]
    area = app.content_area()
    app.click(area.x + round(blob.cx), area.y + round(blob.cy))
    first = f"/{names[0]}?throttle=4096"
    deadline = Deadline(30)
    while served(web_server, first).get("body_bytes", 0) == 0 and not deadline.expired():
        time.sleep(0.05)
    assert served(web_server, first).get("body_bytes", 0) > 0, "the viewer did not start downloading the photo shown"
    app.key("End")  # the last photo: the first is no longer a neighbour
    app.wait_for_line(r"^trace page 2 \d+$", timeout=10)
    size = (web_server.root / names[0]).stat().st_size
    # The app closes the connection: the server's next write fails. (A download left running
    # sends 4 KiB every 5 ms, the whole photo in about 3 s.)
    deadline = Deadline(30)
    while served(web_server, first).get("broken_off", 0) == 0 and not deadline.expired():
        time.sleep(0.05)
    sent = served(web_server, first)["body_bytes"]
    assert served(web_server, first)["broken_off"] == 1 and sent < size, \
        f"the first photo's download went on after paging away ({sent} of {size} bytes sent)"
    assert not app.lines_matching(r"^trace download-complete 0 \d+$")
    app.wait_for_line(r"^trace download-complete 2 \d+$", timeout=90)
    assert app.quit() == 0


def test_export_saves_the_downloaded_originals(launch, web_server, tmp_path):
    target = tmp_path / "exported"
    target.mkdir()
    app = launch(f"{web_server.url}/kyoto.json")
    app.wait_for_line(r"^trace visible-thumbnails 3 \d+$", timeout=30)
    app.wait_for_title("Kyoto")
    image = wait_for_screen(app, album_tiles(app), what="the album's tiles")
    blob = image.crop(app.content_area()).blobs({"green": COLOURS["green"]})["green"]
    area = app.content_area()
    app.ctrl_click(area.x + blob.cx, area.y + blob.cy)
    app.focus()
    app.key("ctrl+e")
    choose_folder(app, "Export to Folder", target)
    exported = target / "b-green.png"
    deadline = Deadline(20)
    while not exported.exists() and not deadline.expired():
        time.sleep(0.1)
    assert exported.read_bytes() == (web_server.root / "b-green.png").read_bytes(), "the export is not the served photo"
    assert sorted(p.name for p in target.iterdir()) == ["b-green.png"]
    assert app.quit() == 0


def test_a_list_of_more_than_the_most_photos_is_cut_and_said(launch, web_server):
    # 100,005 entries: the app shows the first 100,000, says so, and stays responsive; the
    # photos do not exist, so the tiles in view fail (404) and nothing else does.
    entries = [f"p/{i}.jpg" for i in range(100_005)]
    (web_server.root / "huge.json").write_text(json.dumps({"title": "Huge", "photos": entries}))
    app = launch(f"{web_server.url}/huge.json")
    app.wait_for_line(r"^trace web-list 100000 \d+$", timeout=60)
    app.wait_for_line(r"^trace enumerated 100000 \d+$", timeout=60)
    app.wait_for_title("Huge")
    app.wait_for_line(r"^trace visible-thumbnails \d+ \d+$", timeout=60)
    requested = json.loads(web_server.stats.read_text())
    asked = [target for target in requested if target.startswith("/p/")]
    assert 0 < len(asked) < 200, f"{len(asked)} photos asked for: only those in view and the next screenful should be"
    assert app.quit() == 0
