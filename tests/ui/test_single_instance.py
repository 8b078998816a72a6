"""A second `gphotobrowse FOLDER` while one runs: the running instance opens the folder, and
the second process, which only handed its command line over, started nothing of its own
(no decoder process, no walk of the folder)."""

from harness import open_folder


def test_a_second_invocation_hands_over_and_starts_nothing(launch, launch_beside, photo_folder):
    first = photo_folder("first", {"a-red.png": "red"})
    second = photo_folder("second", {"a-green.png": "green", "b-blue.png": "blue"})
    app = open_folder(launch, first, count=1)
    # The first instance started its own: what the second must not.
    app.wait_for_line(r"^trace walk-prestarted .*/first \d+$")
    app.wait_for_line(r"^trace decoder-started \d+ \d+$")

    mark = app.mark()
    other = launch_beside(app, second)
    app.wait_for_line(r"^trace enumerated 2 \d+$", since=mark, timeout=30)
    app.wait_for_window(r"^second$")
    assert other.wait_exit(30) == 0, f"the second invocation {other.describe_exit()}"
    other._finish()   # everything it wrote read
    started = [line for line in other.lines if line.startswith(("trace decoder-started", "trace walk-prestarted"))]
    assert not started, f"the second invocation started work of its own: {started}"
    assert app.quit() == 0
