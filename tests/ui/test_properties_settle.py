"""The properties panel reads the shown photo's details once paging rests, not at every page
turn: paging through six photos with the panel open, keys in quick succession, reads the
details of the photo stopped at, and of fewer photos than were turned past."""

from harness import make_solid, set_times
from test_viewer import open_viewer

COLOURS = ["red", "green", "blue", "yellow", "magenta", "cyan", "white"]


def test_paging_with_the_panel_open_reads_only_where_paging_rests(launch, tmp_path):
    folder = tmp_path / "seven"
    for n, colour in enumerate(COLOURS):
        make_solid(folder / f"photo-{n + 1}.png", colour)
    set_times(folder, [f"photo-{n + 1}.png" for n in range(len(COLOURS))])
    app = open_viewer(launch, folder / "photo-1.png")
    mark = app.mark()
    app.key("alt+Return")
    app.wait_for_line(r"^trace properties-requested \d+$", since=mark)

    mark = app.mark()
    app.focus()
    app.x.key(*["Right"] * 6, delay_ms=20)
    last_page = app.wait_for_line(r"^trace page 6 \d+$", since=mark)
    turned = int(last_page.group(0).split()[-1])
    # Once paging rests, the photo stopped at is read.
    rested = app.wait_for_line(r"^trace properties-requested \d+$", since=app.lines.index(last_page.string) + 1)
    assert int(rested.group(0).split()[-1]) >= turned + 140, "read before paging had rested 150 ms"
    requested = app.lines_matching(r"^trace properties-requested \d+$", since=mark)
    pages = app.lines_matching(r"^trace page \d+ \d+$", since=mark)
    assert len(pages) == 6, f"{len(pages)} page turns traced, expected 6"
    assert len(requested) < len(pages), f"{len(requested)} reads of details for {len(pages)} page turns: one per turn"
    assert app.quit() == 0
