"""Set as Background… (Ctrl+F8, the photo's menu): through the desktop portal's Wallpaper
interface where it runs, else GNOME's background settings.

The app's session bus is the test's own: with nothing else on it there is no portal, and the
app writes GNOME's keys (gsettings-desktop-schemas), here through GLib's keyfile backend so
that `gsettings` reads them back from the test's own folders. With the stand-in portal of
tests/servers/wallpaper_portal.py on that bus, the app asks it instead, and the stand-in
records what it was asked."""

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

from harness import Deadline, make_solid
from test_web_album import web_root, web_server  # noqa: F401 (fixtures)

PORTAL = Path(__file__).resolve().parent.parent / "servers" / "wallpaper_portal.py"
SCHEMAS = Path("/usr/share/glib-2.0/schemas/org.gnome.desktop.background.gschema.xml")

pytestmark = pytest.mark.skipif(not SCHEMAS.is_file() or not shutil.which("gsettings"),
                                reason="GNOME's background schemas (gsettings-desktop-schemas) or gsettings are missing")

KEYFILE = {"GSETTINGS_BACKEND": "keyfile"}


def gsettings(app, schema: str, key: str) -> str:
    """What `gsettings get` reads in the app's settings (its backend and folders)."""
    result = subprocess.run(["gsettings", "get", schema, key], env=app.environment, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, timeout=20, check=True)
    return result.stdout.decode().strip()


def wait_for_setting(app, schema: str, key: str, value: str, timeout: float = 20) -> None:
    deadline = Deadline(timeout)
    while True:
        now = gsettings(app, schema, key)
        if now == value:
            return
        if deadline.expired():
            raise AssertionError(f"{schema} {key} is {now}, not {value}, after {timeout} s; stderr ends:\n{app.tail()}")
        time.sleep(0.2)


def answer_dialog(app, *keys: str) -> None:
    """Waits for the app's second window (the question) to be shown, focuses it and presses keys."""
    app.wait_for_line(r"^trace shown AdwMessageDialog \d+$")
    deadline = Deadline(10)
    while True:
        others = [w for w in app.x.windows_of(app.process.pid) if w != app.window]
        if others:
            break
        assert not deadline.expired(), "no Set as Background dialog within 10 s"
        time.sleep(0.1)
    app.x.focus(others[0])
    app.x.key(*keys)


def open_photo(launch, path, extra_env):
    app = launch(path, extra_env=extra_env)
    app.wait_for_window(rf"^{re.escape(path.name)}$")
    app.wait_for_line(r"^trace full-image 0 \d+$")
    return app


def test_without_a_portal_gnomes_background_keys_are_set(launch, tmp_path):
    photo = make_solid(tmp_path / "photos" / "beach.png", "cyan", size="1600x1000")
    app = open_photo(launch, photo, KEYFILE)
    lock_before = gsettings(app, "org.gnome.desktop.screensaver", "picture-uri")
    app.key("ctrl+F8")
    answer_dialog(app, "Return")  # the default: the background
    uri = f"'{photo.as_uri()}'"
    wait_for_setting(app, "org.gnome.desktop.background", "picture-uri", uri)
    app.wait_for_line(r"^trace background-set-settings \d+$")
    assert gsettings(app, "org.gnome.desktop.background", "picture-uri-dark") == uri
    assert gsettings(app, "org.gnome.desktop.screensaver", "picture-uri") == lock_before, "the lock screen was not asked for"
    assert app.quit() == 0


def test_the_lock_screen_is_a_choice(launch, tmp_path):
    photo = make_solid(tmp_path / "photos" / "hill.png", "green", size="1600x1000")
    app = open_photo(launch, photo, KEYFILE)
    background_before = gsettings(app, "org.gnome.desktop.background", "picture-uri")
    app.key("ctrl+F8")
    answer_dialog(app, "alt+l")  # _Lock Screen
    wait_for_setting(app, "org.gnome.desktop.screensaver", "picture-uri", f"'{photo.as_uri()}'")
    assert gsettings(app, "org.gnome.desktop.background", "picture-uri") == background_before
    assert app.quit() == 0


def test_a_web_photo_is_copied_here_first_never_over_another(launch, web_server, tmp_path):
    app = launch(f"{web_server.url}/a-red.png", extra_env=KEYFILE)
    app.wait_for_window(r"a-red\.png", timeout=30)
    app.wait_for_line(r"^trace full-image 0 \d+$", timeout=30)
    backgrounds = Path(app.environment["XDG_DATA_HOME"]) / "gphotobrowse" / "backgrounds"
    backgrounds.mkdir(parents=True)
    (backgrounds / "a-red.png").write_bytes(b"someone else's file")
    app.focus()
    app.key("ctrl+F8")
    answer_dialog(app, "alt+o")  # B_oth
    deadline = Deadline(30)
    while True:
        value = gsettings(app, "org.gnome.desktop.background", "picture-uri")
        if str(backgrounds) in value:  # not the desktop's own (/usr/share/backgrounds/…)
            break
        assert not deadline.expired(), f"picture-uri is {value}; stderr ends:\n{app.tail()}"
        time.sleep(0.2)
    copy = Path(unquote(urlparse(value.strip("'")).path))
    assert copy.parent == backgrounds and copy.name != "a-red.png", f"the copy is {copy}"
    assert copy.read_bytes() == (web_server.root / "a-red.png").read_bytes(), "the copy is not the photo"
    assert (backgrounds / "a-red.png").read_bytes() == b"someone else's file", "a file in the way was overwritten"
    wait_for_setting(app, "org.gnome.desktop.screensaver", "picture-uri", value)
    assert app.quit() == 0


class StandInPortal:
    """tests/servers/wallpaper_portal.py on the app's session bus: it answers `response`
    (0 done, 1 cancelled, 2 refused), or never when `silent`, and records every call."""

    def __init__(self, address: str, record: Path, response: int = 0, silent: bool = False):
        self.record = record
        self.process = subprocess.Popen(["/usr/bin/python3", str(PORTAL), address, str(record), "--response", str(response),
                                         *(["--silent"] if silent else [])],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline().strip()
        assert line == "ready", f"the stand-in portal did not start: {line!r} {self.process.stderr.read() if self.process.poll() is not None else ''}"

    def calls(self) -> list:
        return json.loads(self.record.read_text()) if self.record.exists() else []

    def wait_for_calls(self, app, count: int = 1) -> list:
        """The calls, once there are `count` of them."""
        deadline = Deadline(20)
        while len(self.calls()) < count:
            assert not deadline.expired(), f"the portal was called {len(self.calls())} times, not {count}; stderr ends:\n{app.tail()}"
            time.sleep(0.1)
        return self.calls()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


@pytest.fixture
def stand_in_portal(tmp_path):
    """stand_in_portal(app, response=…, silent=…) starts a stand-in portal on `app`'s session
    bus; it is stopped after the test."""
    started: list[StandInPortal] = []

    def start(app, **options) -> StandInPortal:
        address = app.environment["DBUS_SESSION_BUS_ADDRESS"]
        assert not address.startswith("disabled"), "no session bus for the app"
        portal = StandInPortal(address, tmp_path / f"portal-calls-{len(started)}.json", **options)
        started.append(portal)
        return portal

    yield start
    for portal in started:
        portal.stop()


def test_the_desktop_portal_is_asked_where_it_runs(launch, stand_in_portal, tmp_path):
    photo = make_solid(tmp_path / "photos" / "lake.png", "blue", size="1600x1000")
    app = open_photo(launch, photo, KEYFILE)
    portal = stand_in_portal(app)
    background_before = gsettings(app, "org.gnome.desktop.background", "picture-uri")
    app.key("ctrl+F8")
    answer_dialog(app, "alt+o")  # B_oth
    call, = portal.wait_for_calls(app)
    # The photo itself, handed over open for reading only.
    assert call["path"] == str(photo), f"the portal was handed {call['path']}"
    assert call["writable"] is False
    assert bytes.fromhex(call["content"]) == photo.read_bytes()
    assert call["options"]["set-on"] == "both"
    assert call["options"].get("show-preview") is False
    assert call["options"]["handle_token"], "a handle token, so the response cannot be missed"
    # The window the portal's own dialog would belong to.
    assert call["parent_window"] == f"x11:{app.window:x}", f"the portal's parent is {call['parent_window']!r}"
    # The portal's answer came back, and GNOME's keys were left to it.
    app.wait_for_line(r"^trace background-set-portal \d+$")
    assert not app.lines_matching(r"^trace background-set-settings \d+$")
    assert gsettings(app, "org.gnome.desktop.background", "picture-uri") == background_before
    assert app.quit() == 0


def test_a_web_photo_goes_to_the_portal_as_a_copy_here(launch, stand_in_portal, web_server, tmp_path):
    app = launch(f"{web_server.url}/a-red.png", extra_env=KEYFILE)
    app.wait_for_window(r"a-red\.png", timeout=30)
    app.wait_for_line(r"^trace full-image 0 \d+$", timeout=30)
    portal = stand_in_portal(app)
    app.focus()
    app.key("ctrl+F8")
    answer_dialog(app, "alt+l")  # _Lock Screen
    app.wait_for_line(r"^trace background-set-portal \d+$", timeout=30)
    call, = portal.calls()
    backgrounds = Path(app.environment["XDG_DATA_HOME"]) / "gphotobrowse" / "backgrounds"
    assert call["path"] == str(backgrounds / "a-red.png"), f"the portal was handed {call['path']}"
    assert bytes.fromhex(call["content"]) == (web_server.root / "a-red.png").read_bytes()
    assert call["options"]["set-on"] == "lockscreen"
    assert app.quit() == 0


@pytest.mark.parametrize("response, toast", [(2, "The desktop did not set the background."), (1, None)])
def test_a_portal_that_refuses_or_is_cancelled_leaves_gnomes_keys_alone(launch, stand_in_portal, tmp_path, response, toast):
    """The portal answers 2 (it could not) or 1 (the person cancelled in its dialog): the first
    is said, the second not; neither is taken for a missing portal (GNOME's keys untouched)."""
    photo = make_solid(tmp_path / "photos" / "dune.png", "yellow", size="1600x1000")
    app = open_photo(launch, photo, KEYFILE)
    portal = stand_in_portal(app, response=response)
    background_before = gsettings(app, "org.gnome.desktop.background", "picture-uri")
    mark = app.mark()
    app.key("ctrl+F8")
    answer_dialog(app, "Return")
    portal.wait_for_calls(app)
    if toast:
        app.wait_for_line(rf"^trace toast {re.escape(toast)} \d+$", since=mark)
    else:
        # Nothing to see for a cancel: a second Set as Background, which asks the portal
        # again, comes after the first answer was taken (the stand-in answers at once).
        app.key("ctrl+F8")
        answer_dialog(app, "Return")
        portal.wait_for_calls(app, 2)
        assert not app.lines_matching(r"^trace toast ", since=mark), "a toast after a cancelled portal dialog"
    assert not app.lines_matching(r"^trace background-set-(portal|settings) \d+$", since=mark)
    assert gsettings(app, "org.gnome.desktop.background", "picture-uri") == background_before
    assert app.quit() == 0


def test_a_portal_that_never_answers_is_given_up_for_gnomes_keys(launch, stand_in_portal, tmp_path):
    """The portal takes the call and never answers: after the app's patience (shortened here
    from 40 s), the call is given up and GNOME's keys are set instead."""
    photo = make_solid(tmp_path / "photos" / "fog.png", "magenta", size="1600x1000")
    app = open_photo(launch, photo, {**KEYFILE, "GPHOTOBROWSE_PORTAL_PATIENCE": "1500"})
    portal = stand_in_portal(app, silent=True)
    mark = app.mark()
    app.key("ctrl+F8")
    answer_dialog(app, "Return")
    portal.wait_for_calls(app)
    app.wait_for_line(r"^trace background-set-settings \d+$", since=mark, timeout=20)
    assert not app.lines_matching(r"^trace background-set-portal \d+$", since=mark)
    wait_for_setting(app, "org.gnome.desktop.background", "picture-uri", f"'{photo.as_uri()}'")
    assert app.quit() == 0
