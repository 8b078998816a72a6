"""Web albums: photos published over HTTP, from a real server on loopback
(tests/servers/photo_server.py) that can throttle, fail and stop. A list in JSON with its
albums, a directory listing page, one photo on its own with the viewer's progress ring, the
download cache standing in when the server is gone, and a failing list said on the page with
Retry."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from test_drop import drag_onto
from harness import COLOURS, Rect, make_solid, tiles_check, wait_for_screen, wait_for_still_screen

SERVER = Path(__file__).resolve().parent.parent / "servers" / "photo_server.py"
PHOTOS = {"a-red.png": "red", "b-green.png": "green", "c-blue.png": "blue"}


class PhotoServer:
    """photo_server.py serving `root` on a free loopback port."""

    def __init__(self, root: Path, stats: Path):
        self.root, self.stats = root, stats
        self.process = subprocess.Popen([sys.executable, str(SERVER), "--root", str(root), "--stats", str(stats)],
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.process.stdout.readline().split()
        assert line[:1] == ["port"], f"the photo server did not start: {line}"
        self.url = f"http://127.0.0.1:{line[1]}"

    def requests(self, target: str) -> int:
        targets = json.loads(self.stats.read_text())
        return targets.get(target, {}).get("requests", 0)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


@pytest.fixture
def web_root(tmp_path):
    """A served folder: the three photos (1600×1200, solid colours), small thumbnails of
    them under t/, and lists of them."""
    root = tmp_path / "www"
    (root / "t").mkdir(parents=True)
    for name, colour in PHOTOS.items():
        make_solid(root / name, colour, size="1600x1200")
        make_solid(root / "t" / name, colour, size="160x120")
    (root / "kyoto.json").write_text(json.dumps({
        "title": "Kyoto",
        "photos": [{"url": "a-red.png", "thumbnail": "t/a-red.png", "title": "Gate",
                    "taken": "2024-05-01T10:00:00+09:00"}, "b-green.png"],
        "albums": [{"title": "Day 1", "photos": [{"url": "c-blue.png", "thumbnail": "t/c-blue.png"}]}],
    }))
    # A directory listing as Apache writes one (with its sorting links and a parent link).
    links = "".join(f'<tr><td><a href="{name}">{name}</a></td><td>2024-05-01 10:00</td></tr>\n' for name in PHOTOS)
    (root / "index.html").write_text(
        "<!DOCTYPE HTML><html><head><title>Index of /holiday</title></head><body><h1>Index of /holiday</h1>"
        '<table><tr><th><a href="?C=N;O=D">Name</a></th><th><a href="?C=M;O=A">Last modified</a></th></tr>'
        f'<tr><td><a href="/">Parent Directory</a></td></tr>\n{links}</table></body></html>')
    return root


@pytest.fixture
def web_server(web_root, tmp_path):
    server = PhotoServer(web_root, tmp_path / "stats.json")
    yield server
    server.stop()


def album_tiles(app):
    """The three photos as tiles of the grid (the header's chips show covers of them too)."""
    return tiles_check({name: COLOURS[name] for name in PHOTOS.values()}, area=app.content_area())


def test_a_json_list_is_an_album_with_its_albums_and_thumbnails(launch, web_server):
    app = launch(f"{web_server.url}/kyoto.json")
    app.wait_for_line(r"^trace web-list 3 \d+$", timeout=30)
    m = app.wait_for_line(r"^trace enumerated (\d+) \d+$", timeout=30)
    assert int(m.group(1)) == 3
    # The window is titled by the list, as a folder's by its name.
    app.wait_for_title("Kyoto")
    app.wait_for_line(r"^trace visible-thumbnails 3 \d+$", timeout=30)
    wait_for_screen(app, album_tiles(app),
                    what="the list's three photos as tiles")
    # The list's thumbnails were downloaded, not the photos they stand for (b has none).
    assert web_server.requests("/t/a-red.png") == 1 and web_server.requests("/t/c-blue.png") == 1
    assert web_server.requests("/a-red.png") == 0 and web_server.requests("/c-blue.png") == 0
    assert web_server.requests("/b-green.png") == 1
    # "Day 1" is an album of the switcher, as a subfolder is.
    app.wait_for_line(r"^trace albums 1 \d+$", timeout=10)
    assert app.quit() == 0


def test_a_directory_listing_is_an_album(launch, web_server):
    app = launch(f"{web_server.url}/index.html")
    m = app.wait_for_line(r"^trace web-list (\d+) \d+$", timeout=30)
    assert int(m.group(1)) == 3, "the listing's three photo links (not its sorting and parent links)"
    app.wait_for_title("Index of /holiday")
    wait_for_screen(app, album_tiles(app),
                    what="the listing's three photos as tiles")
    assert app.quit() == 0


def test_a_photo_downloading_shows_a_ring_then_the_photo(launch, web_server, tmp_path):
    # A photo of 1600×1200 with noise, so it is large enough to take a while at 4 KiB a pause.
    big = web_server.root / "big-red.png"
    subprocess.run(["convert", "-size", "1600x1200", "xc:red", "-attenuate", "0.3", "+noise", "Uniform", str(big)],
                   check=True)
    app = launch(f"{web_server.url}/big-red.png?throttle=4096")
    app.wait_for_window("big-red.png", timeout=30)
    app.wait_for_line(r"^trace page 0 \d+$", timeout=30)

    def ring_and_words(image):
        # The middle of the viewer (the toolbar's white icons are at the bottom): the white
        # ring and the words under it, over the dark viewer (the photo has no thumbnail yet).
        area = app.content_area()
        dark = image.crop(area).fraction_of((30, 30, 30), tolerance=20)
        middle = image.crop(Rect(area.width // 2 - 160, area.y + area.height // 2 - 110, 320, 220))
        white = middle.fraction_of((255, 255, 255), tolerance=30, step=1)
        return dark > 0.8 and 0.01 < white < 0.2, (f"{dark:.0%} of the viewer is its dark backdrop, {white:.2%} of its "
                                                   "middle is white (the ring and its words)")

    shot = wait_for_screen(app, ring_and_words, timeout=20, what="the download's ring and percentage")
    shot.save(tmp_path / "downloading.png")
    app.wait_for_line(r"^trace download-complete 0 \d+$", timeout=120)
    app.wait_for_line(r"^trace full-image 0 \d+$", timeout=30)

    def mostly_red(image):
        share = image.crop(app.content_area()).fraction_of((230, 20, 20), tolerance=80)
        return share > 0.3, f"{share:.0%} of the viewer is red"

    wait_for_screen(app, mostly_red, what="the downloaded photo")
    assert app.quit() == 0


def test_a_web_album_is_shown_from_the_cache_when_the_server_is_gone(launch, web_server, tmp_path):
    cache = tmp_path / "cache"
    url = f"{web_server.url}/kyoto.json"
    first = launch(url, extra_env={"XDG_CACHE_HOME": str(cache)})
    first.wait_for_line(r"^trace visible-thumbnails 3 \d+$", timeout=30)
    assert first.quit() == 0
    web_server.stop()

    second = launch(url, extra_env={"XDG_CACHE_HOME": str(cache)})
    second.wait_for_line(r"^trace enumerated 3 \d+$", timeout=30)
    second.wait_for_title("Kyoto")
    second.wait_for_line(r"^trace visible-thumbnails 3 \d+$", timeout=30)

    def tiles_and_banner(image):
        ok, detail = album_tiles(second)(image)
        # The offline banner: a bar of the accent colour under the header bar.
        bar = image.crop(second.content_area()).fraction_of((53, 132, 228), tolerance=40)
        return ok and bar > 0.01, f"{detail}; accent bar {bar:.1%}"

    wait_for_screen(second, tiles_and_banner, what="the cached album with the offline banner")
    second.wait_for_line(r"^gphotobrowse: offline: ", timeout=5)
    assert second.quit() == 0


def test_a_failing_list_is_said_with_retry_which_then_works(launch, web_server):
    status = web_server.root / "kyoto.json.status"
    status.write_text("503")
    app = launch(f"{web_server.url}/kyoto.json")
    app.wait_for_line(r"^gphotobrowse: .*503.*", timeout=30)
    app.wait_for_window(None, timeout=30)

    def retry_button(image):
        blobs = image.crop(app.content_area()).blobs({"accent": (53, 132, 228)}, tolerance=40)
        blob = blobs.get("accent")
        return blob is not None and blob.width > 40, f"the suggested Retry button: {blob}"

    image = wait_for_still_screen(app, retry_button, what="the error page with Retry")
    blob = image.crop(app.content_area()).blobs({"accent": (53, 132, 228)}, tolerance=40)["accent"]
    status.unlink()
    area = app.content_area()
    app.click(area.x + round(blob.cx), area.y + round(blob.cy))
    app.wait_for_line(r"^trace enumerated 3 \d+$", timeout=30)
    wait_for_screen(app, album_tiles(app),
                    what="the album after Retry")
    app.quit()


def test_an_address_dropped_from_a_browser_opens_its_album(launch, spawn, xserver, web_server, photo_folder):
    folder = photo_folder("local", {"1-yellow.png": "yellow"})
    app = launch(folder)
    app.wait_for_line(r"^trace visible-thumbnails 1 \d+$", timeout=30)
    app.wait_for_window(None)
    mark = app.mark()
    # A web browser offers a dragged link as text/uri-list.
    drag_onto(app, spawn, xserver, f"{web_server.url}/kyoto.json")
    app.wait_for_line(r"^trace enumerated 3 \d+$", since=mark, timeout=30)
    app.wait_for_title("Kyoto")
    wait_for_screen(app, album_tiles(app),
                    what="the dropped album's tiles")


def test_a_photo_the_server_fails_is_said_in_the_viewer_with_retry(launch, web_server):
    status = web_server.root / "a-red.png.status"
    status.write_text("503")
    app = launch(f"{web_server.url}/a-red.png")
    app.wait_for_window("a-red.png", timeout=30)

    def retry_button(image):
        viewer = image.crop(app.content_area())
        dark = viewer.fraction_of((30, 30, 30), tolerance=20)
        blob = viewer.blobs({"accent": (53, 132, 228)}, tolerance=40).get("accent")
        return dark > 0.8 and blob is not None and blob.width > 40, f"the viewer ({dark:.0%} dark)'s Retry button: {blob}"

    image = wait_for_still_screen(app, retry_button, timeout=30, what="the viewer's message with Retry")
    blob = image.crop(app.content_area()).blobs({"accent": (53, 132, 228)}, tolerance=40)["accent"]
    status.unlink()
    area = app.content_area()
    app.click(area.x + round(blob.cx), area.y + round(blob.cy))
    app.wait_for_line(r"^trace download-complete 0 \d+$", timeout=30)

    def mostly_red(image):
        share = image.crop(app.content_area()).fraction_of(COLOURS["red"], tolerance=60)
        return share > 0.3, f"{share:.0%} of the viewer is red"

    wait_for_screen(app, mostly_red, what="the photo after Retry")
    assert app.quit() == 0


def test_photos_the_server_fails_on_are_broken_tiles_and_nothing_else_is_disturbed(launch, web_server):
    (web_server.root / "faults.json").write_text(json.dumps({"title": "Faults", "photos": [
        "a-red.png",
        "missing.png",                       # 404
        "c-blue.png?type=text/html",         # a web page where a photo was promised
        "b-green.png?truncate=100",          # cut short
        "b-green.png?redirect-loop=1",       # redirections for ever
        "b-green.png?status=500",            # the server fails
    ]}))
    app = launch(f"{web_server.url}/faults.json")
    app.wait_for_line(r"^trace web-list 6 \d+$", timeout=30)
    app.wait_for_title("Faults")
    # Every tile told: five failed, and the good photo loaded (in whichever order they come).
    app.wait_for_line(r"^trace visible-thumbnails 6 \d+$", timeout=60)
    failed = sorted(int(m.group(1)) for m in app.lines_matching(r"^trace tile-failed (\d+) \d+$"))
    loaded = [int(m.group(1)) for m in app.lines_matching(r"^trace tile-loaded (\d+) \d+$")]
    assert len(failed) >= 5 and len(loaded) == 1, f"tiles failed {failed}, loaded {loaded}: 5 faults and 1 photo"
    wait_for_screen(app, tiles_check({"red": COLOURS["red"]}, area=app.content_area()), what="the one good photo among the broken tiles")
    # No thumbnail of a fault was kept as if complete.
    cache = Path(app.environment["XDG_CACHE_HOME"]) / "gphotobrowse" / "http"
    kept = sorted(p.name for p in cache.glob("*.entry"))
    assert len(kept) == 2, f"the cache holds the list and the one photo only, not {kept}"
    assert app.quit() == 0
