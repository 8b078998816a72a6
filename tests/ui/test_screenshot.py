"""The grid screenshot for the README.

Written to docs/screenshots/grid.png only with GPHOTOBROWSE_UPDATE_SCREENSHOTS=1; otherwise
into the test's temporary folder, so a normal run never touches the work tree.
"""

import os

from harness import REPO, make_with, open_folder, wait_for_screen

# Pleasant, reproducible pictures: ImageMagick gradients and seeded plasma.
PICTURES = [
    ("01-dawn.png", ["-size", "640x480", "gradient:#ff9a8b-#ff6a88"]),
    ("02-lagoon.png", ["-seed", "1", "-size", "640x480", "plasma:#4facfe-#00f2fe", "-blur", "0x2"]),
    ("03-meadow.png", ["-size", "640x480", "radial-gradient:#d4fc79-#96e6a1"]),
    ("04-dusk.png", ["-size", "640x480", "gradient:#30cfd0-#330867"]),
    ("05-ember.png", ["-seed", "1", "-size", "640x480", "plasma:#f83600-#f9d423", "-blur", "0x2"]),
    ("06-mist.png", ["-size", "640x480", "gradient:#e0c3fc-#8ec5fc"]),
    ("07-forest.png", ["-seed", "1", "-size", "640x480", "plasma:#134e5e-#71b280", "-blur", "0x2"]),
    ("08-sunset.png", ["-size", "640x480", "radial-gradient:#fddb92-#d1fdff"]),
    ("09-berry.png", ["-size", "640x480", "gradient:#8e2de2-#4a00e0"]),
    ("10-sand.png", ["-seed", "1", "-size", "640x480", "plasma:#e6dada-#c9a66b", "-blur", "0x2"]),
    ("11-ocean.png", ["-size", "640x480", "radial-gradient:#2193b0-#6dd5ed"]),
    ("12-aurora.png", ["-seed", "1", "-size", "640x480", "plasma:#00c9ff-#92fe9d", "-blur", "0x2"]),
]


def test_grid_screenshot_for_the_readme(launch, tmp_path):
    folder = tmp_path / "Pictures"
    for name, args in PICTURES:
        make_with(folder / name, *args)
    app = open_folder(launch, folder, count=len(PICTURES))

    def colourful(image):
        n = image.distinct_colours()
        return n >= 24, f"{n} distinct colours"

    shot = wait_for_screen(app, colourful, what="a colourful grid (the screenshot is blank)")
    if os.environ.get("GPHOTOBROWSE_UPDATE_SCREENSHOTS") == "1":
        target = REPO / "docs" / "screenshots" / "grid.png"
    else:
        target = tmp_path / "grid.png"
    shot.save(target)
    print(f"grid screenshot: {target}")
    assert target.stat().st_size > 10_000
