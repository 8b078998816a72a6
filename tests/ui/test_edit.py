"""Edit mode as a person uses it: select with clicks and a Shift+click range, delete to the
trash, undo, and export into a folder that already holds a file of the same name."""

from urllib.parse import unquote

from harness import (COLOURS, choose_folder, open_folder, tiles_check, trash_files, wait_for_screen, wait_moved_to_trash,
                     wait_put_back, wait_until)

PHOTOS = {"a-red.png": "red", "b-green.png": "green", "c-blue.png": "blue",
          "d-yellow.png": "yellow", "e-magenta.png": "magenta", "f-cyan.png": "cyan"}


def tile_centres(app):
    blobs = wait_for_screen(app, tiles_check(COLOURS), what="the six tiles").blobs(COLOURS)
    return {name: (round(blobs[colour].cx), round(blobs[colour].cy)) for name, colour in PHOTOS.items()}


def test_select_three_delete_to_the_trash_and_undo(launch, photo_folder):
    folder = photo_folder("culling", PHOTOS)
    originals = {name: (folder / name).read_bytes() for name in PHOTOS}
    app = open_folder(launch, folder, count=6, sort_by="name")
    centres = tile_centres(app)

    # Ctrl+click starts edit mode on red; a click toggles green; Shift+click on yellow
    # selects the range from the anchor (green) to yellow: green, blue, yellow.
    g = app.geometry()
    app.ctrl_click(*centres["a-red.png"])
    x, y = centres["a-red.png"]
    app.click(x + 6, y + 6)                    # toggles red off again (a move: xdotool waits for one)
    app.click(*centres["b-green.png"])
    app.x.xdotool("keydown", "shift")
    app.click(*centres["d-yellow.png"])
    app.x.xdotool("keyup", "shift")
    app.key("Delete")

    chosen = {name: originals[name] for name in ("b-green.png", "c-blue.png", "d-yellow.png")}
    wait_moved_to_trash(app, folder, chosen, "the three photos selected")
    for name in chosen:
        info = (trash_files(app).parent / "info" / (name + ".trashinfo")).read_text()
        path = next(line.split("=", 1)[1] for line in info.splitlines() if line.startswith("Path="))
        assert unquote(path) == str(folder / name)
    for name in set(PHOTOS) - set(chosen):
        assert (folder / name).exists(), f"{name} was not selected but is gone"
    wait_for_screen(app, lambda image: (not image.blobs({c: COLOURS[c] for c in ("green", "blue", "yellow")}),
                                        "deleted tiles still shown"), what="the grid without the deleted photos")

    app.key("ctrl+z")
    wait_put_back(app, folder, chosen, "the three photos")
    wait_for_screen(app, tiles_check(COLOURS), what="all six tiles again")
    assert app.quit() == 0


def test_export_keeps_both_files_when_the_name_is_taken(launch, photo_folder, tmp_path):
    folder = photo_folder("to-export", PHOTOS)
    target = tmp_path / "export-target"
    target.mkdir()
    (target / "b-green.png").write_bytes(b"an older, different file")
    app = open_folder(launch, folder, count=6, sort_by="name")
    centres = tile_centres(app)
    app.ctrl_click(*centres["b-green.png"])

    # Export… opens GTK's folder chooser: type the folder's path and choose it.
    app.x.xdotool("search", "--name", "^to-export$", "windowfocus", "--sync")
    app.key("ctrl+e")
    choose_folder(app, "Export to Folder", target)

    exported = target / "b-green (2).png"
    wait_until(exported.exists, "the export", timeout=15)
    assert exported.read_bytes() == (folder / "b-green.png").read_bytes(), "the export is not byte-identical"
    assert (target / "b-green.png").read_bytes() == b"an older, different file", "the existing file was overwritten"
    assert sorted(p.name for p in target.iterdir()) == ["b-green (2).png", "b-green.png"], "partial or extra files left"
    assert app.quit() == 0
