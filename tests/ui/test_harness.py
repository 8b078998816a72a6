"""The harness itself, proven on a small GTK 4 window of our own (no gphotobrowse needed).

If these fail, the display, xdotool, screenshots or pixel reading are broken, and no
gphotobrowse test result means anything.
"""

import sys
from pathlib import Path

from harness import COLOURS, row_major_order

HERE = Path(__file__).resolve().parent
PROBE = HERE / "probe_window.py"
DRAG_SOURCE = HERE / "drag_source.py"


def start_probe(spawn, title):
    probe = spawn([sys.executable, PROBE, title])
    probe.wait_for_line(r"^ready$")
    probe.wait_for_window(rf"^{title}$")
    return probe


def test_screenshot_shows_the_probe_window_colours_where_it_drew_them(spawn):
    probe = start_probe(spawn, "Probe colours")
    g = probe.geometry()
    assert (g.width, g.height) == (400, 300)
    shot = probe.screenshot()
    blobs = shot.blobs({k: COLOURS[k] for k in ("red", "green", "blue", "yellow")}, tolerance=10)
    assert set(blobs) == {"red", "green", "blue", "yellow"}, blobs
    for blob in blobs.values():
        assert 190 <= blob.width <= 210 and 140 <= blob.height <= 160, blob
        assert 0.9 <= blob.area / (200 * 150) <= 1.1, blob
    assert row_major_order(blobs.values()) == ["red", "green", "blue", "yellow"]
    assert shot.pixel(100, 75) == COLOURS["red"]
    assert shot.pixel(300, 225) == COLOURS["yellow"]


def test_click_lands_at_window_relative_coordinates(spawn):
    probe = start_probe(spawn, "Probe clicks")
    mark = probe.mark()
    probe.click(123, 45)
    probe.wait_for_line(r"^click 123 45$", since=mark)


def test_keys_reach_the_window_and_ctrl_q_quits_with_status_0(spawn):
    probe = start_probe(spawn, "Probe keys")
    probe.key("Right", "Escape")
    probe.wait_for_line(r"^key Right$")
    probe.wait_for_line(r"^key Escape$")
    assert probe.quit() == 0


def test_a_real_xdnd_drag_from_another_client_drops_a_folder(spawn, xserver, tmp_path):
    folder = tmp_path / "dropped-folder"
    folder.mkdir()
    probe = start_probe(spawn, "Probe drop")
    source = spawn([sys.executable, DRAG_SOURCE, "Drag source", folder.as_uri()])
    source.wait_for_line(r"^ready$")
    source.wait_for_window(r"^Drag source$")
    xserver.move_window(source.window, 1200, 100)
    xserver.move_window(probe.window, 100, 100)
    start = source.geometry().centre
    end = probe.geometry().centre
    xserver.drag(start, end)
    probe.wait_for_line(rf"^drop {folder}$")
    probe.wait_for_title(r"dropped-folder")
    source.wait_for_line(r"^drag-end$")
