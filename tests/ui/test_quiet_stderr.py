"""Standard error carries errors only: a run that goes well writes nothing there but the
trace lines the tests ask for (GPHOTOBROWSE_TRACE), whether it browses, picks a photo or
decodes in its confined decoder processes; how decoding is confined is GLib's info log
(G_MESSAGES_DEBUG) and About's system information; an error is said once."""

import os

from test_pick import PHOTOS, finished, ready


def said(app) -> list[str]:
    """What the app wrote on stderr, the trace lines and blank lines left out."""
    return [line for line in app.lines if line.strip() and not line.startswith("trace ")]


def browse(launch, folder, extra_env=None):
    # A text file named like a photo: the decoder sniffs it and says what it holds (GIO's
    # MIME database, which looked for a home the sandbox has not).
    (folder / "notes.jpg").write_text("not a photo\n")
    app = launch(folder, extra_env=extra_env)
    app.wait_for_line(r"^trace enumerated 5 \d+$", timeout=30)
    app.wait_for_window(rf"^{folder.name}$", timeout=30)
    # Every tile decoded, or refused, in a decoder process.
    app.wait_for_line(r"^trace visible-thumbnails 5 \d+$", timeout=30)
    app.wait_for_line(r"^trace tile-failed \d+ \d+$", timeout=30)
    return app


def test_the_confinement_report_is_in_the_info_log(launch, photo_folder):
    folder = photo_folder("asked", PHOTOS)
    app = browse(launch, folder, extra_env={"G_MESSAGES_DEBUG": "gphotobrowse"})
    app.wait_for_line(r"^gphotobrowse-INFO: .*Decoding runs in separate processes, confined by", timeout=10)
    assert app.quit() == 0
    assert app.stdout_lines == [], f"log lines went to standard output: {app.stdout_lines}"


def test_browsing_writes_nothing_on_stderr(launch, photo_folder):
    folder = photo_folder("quiet", PHOTOS)
    app = browse(launch, folder)
    app.wait_for_line(r"^trace decoder-started 1 \d+$", timeout=10)
    assert app.quit() == 0
    assert said(app) == [], f"stderr: {said(app)}"


def test_a_pick_writes_only_its_answer(launch, photo_folder):
    folder = photo_folder("pick-quiet", PHOTOS)
    app = launch("--pick", folder)
    ready(app, "pick-quiet", 4)
    app.focus()
    app.key("Return")
    status, out = finished(app)
    assert status == 0 and out.startswith(os.fsencode(folder)), (status, out)
    assert said(app) == [], f"stderr: {said(app)}"


def test_a_missing_folder_is_said_once(launch, tmp_path):
    missing = tmp_path / "not-here"
    app = launch("--pick", missing)
    status, out = finished(app)
    assert (status, out) == (2, b"")
    assert said(app) == [f"gphotobrowse: “{missing}” does not exist."], f"stderr: {said(app)}"


# An entity expansion libxml2 stops ("Detected an entity reference loop"), and an SVG a
# million pixels wide, whose loader says so and is refused.
BILLION_LAUGHS = ('<?xml version="1.0"?>\n<!DOCTYPE svg [\n <!ENTITY a "aaaaaaaaaaaaaaaaaaaa">\n'
                  + "".join(f' <!ENTITY {n} "{("&" + p + ";") * 10}">\n' for p, n in zip("abcdefgh", "bcdefghi"))
                  + ']>\n<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><text x="0" y="20">&i;</text></svg>\n')
HUGE_SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="1000000" height="1000000" viewBox="0 0 10 10">'
            '<rect width="10" height="10" fill="teal"/></svg>\n')


def test_hostile_svgs_fail_their_tiles_without_a_word_on_stderr(launch, photo_folder):
    """What libxml2 says of a hostile SVG stays in the decoder process, and an SVG too large
    to show is the file's failure: its process answers it, and is not replaced."""
    folder = photo_folder("svgs", {"a-red.png": "red"})
    (folder / "b-laughs.svg").write_text(BILLION_LAUGHS)
    (folder / "c-huge.svg").write_text(HUGE_SVG)
    app = launch(folder, sort_by="name")
    app.wait_for_line(r"^trace enumerated 3 \d+$", timeout=30)
    app.wait_for_line(r"^trace visible-thumbnails 3 \d+$", timeout=30)
    app.wait_for_line(r"^trace tile-failed 1 \d+$", timeout=30)
    app.wait_for_line(r"^trace tile-failed 2 \d+$", timeout=30)
    assert app.quit() == 0
    assert said(app) == [], f"stderr: {said(app)}"
