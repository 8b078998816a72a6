"""`gphotobrowse --help` and `--version` answer on standard output and exit 0, as every
command-line tool does: alone, with other options, and while an instance of the app runs
(which must not take them over, open a window, or refuse them)."""

import re

from harness import App


def answered(app: App, timeout: float = 20) -> tuple[int, str]:
    status = app.process.wait(timeout)
    for reader in app._readers:
        reader.join(5)
    return status, bytes(app.stdout_bytes).decode()


def check_help(status: int, out: str) -> None:
    assert status == 0, out
    assert out.startswith("Usage:\n"), out
    for option in ("--pick", "--multiple", "--null", "--uri", "--title", "--draw", "--size", "--help", "--version"):
        assert option in out, f"{option} not in the help:\n{out}"


def check_version(status: int, out: str) -> None:
    assert status == 0, out
    assert re.fullmatch(r"gphotobrowse \d+\.\d+\.\d+\n", out), repr(out)


def test_help_and_version_on_standard_output(launch):
    check_help(*answered(launch("--help")))
    check_help(*answered(launch("-h")))
    check_help(*answered(launch("--pick", "--help")))
    check_version(*answered(launch("--version")))
    # A title that reads like an option is a title.
    app = launch("--pick", "--title", "--version", "--frobnicate")
    assert answered(app)[0] == 2


def test_help_and_version_while_the_app_runs(launch, launch_beside, photo_folder):
    browsing = photo_folder("browsing", {"a-red.png": "red"})
    browser = launch(browsing)
    browser.wait_for_window(r"^browsing$", timeout=30)
    browser.wait_for_line(r"^trace visible-thumbnails 1 \d+$", timeout=30)
    check_help(*answered(launch_beside(browser, "--help")))
    check_version(*answered(launch_beside(browser, "--version")))
    # Nothing opened in the running app: still its one window.
    assert len(browser.x.windows_of(browser.process.pid)) == 1
    assert browser.quit() == 0
