"""A folder of a few thousand photos: the grid streams, re-sorts as dates arrive, and
survives it (GTK 4.8 aborts if the grid's columns change during its own layout)."""

import os

from harness import make_solid


def test_a_folder_of_two_thousand_photos_opens_twice_without_a_crash(launch, tmp_path):
    folder = tmp_path / "two-thousand"
    sources = [make_solid(tmp_path / f"source-{n}.jpg", colour, size="320x240")
               for n, colour in enumerate(["red", "green", "blue", "yellow"])]
    folder.mkdir()
    for i in range(2000):
        os.link(sources[i % len(sources)], folder / f"photo-{i:05d}.jpg")
    cache = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    for _ in range(2):  # the second run finds the thumbnails and dates in the cache
        app = launch(folder, extra_env=cache)
        app.wait_for_line(r"^trace enumerated 2000 \d+$", timeout=60)
        app.wait_for_window(r"^two-thousand$")
        app.wait_for_line(r"^trace visible-thumbnails \d+ \d+$", timeout=60)
        mark = app.mark()
        app.key("End")
        app.wait_for_line(r"^trace visible-thumbnails \d+ \d+$", since=mark, timeout=60)
        assert app.quit() == 0
