"""Fixtures for the UI tests: one Xvfb per session, the real app per test.

Run with Debian's Python (it has python3-gi for the drag source):
    /usr/bin/python3 -m pytest -q tests/ui
GPHOTOBROWSE_BIN=/path/to/gphotobrowse skips the `swift build`.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
for path in (HERE, HERE.parent / "servers"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

import harness  # noqa: E402
from harness import CORPUS, REPO, App, SessionBus, XServer, preset_settings  # noqa: E402
from sftp_server import MAX_CLIENT_RUNTIME_DIR  # noqa: E402


def pytest_configure(config):
    config.addinivalue_line("markers", "corpus: needs the shared corpus (../shared/corpus)")
    config.addinivalue_line("markers", "normal_user: needs a user without root's powers "
                            "(build-aux/test.sh runs these as a throwaway user when run as root)")
    config.addinivalue_line("markers", "root: needs root (mounting a file system)")


def pytest_collection_modifyitems(config, items):
    root = os.geteuid() == 0
    for item in items:
        if root and item.get_closest_marker("normal_user"):
            item.add_marker(pytest.mark.skip(reason="needs a normal user: root reads a mode-000 "
                                             "folder anyway (build-aux/test.sh runs it as one)"))
        if not root and item.get_closest_marker("root"):
            item.add_marker(pytest.mark.skip(reason="needs root (build-aux/test.sh run as root runs it)"))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, "rep_" + report.when, report)


@pytest.fixture(scope="session")
def app_binary() -> Path:
    """The gphotobrowse executable: $GPHOTOBROWSE_BIN, else a fresh `swift build`."""
    given = os.environ.get("GPHOTOBROWSE_BIN")
    if given:
        path = Path(given)
        assert path.is_file() and os.access(path, os.X_OK), f"GPHOTOBROWSE_BIN={given} is not an executable"
        return path
    build = subprocess.run(["swift", "build", "--product", "gphotobrowse"], cwd=REPO,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=1800)
    if build.returncode != 0:
        pytest.fail("swift build --product gphotobrowse failed:\n" +
                    build.stdout.decode(errors="replace")[-4000:], pytrace=False)
    bin_path = subprocess.run(["swift", "build", "--show-bin-path"], cwd=REPO, check=True,
                              stdout=subprocess.PIPE, timeout=600).stdout.decode().strip()
    path = Path(bin_path) / "gphotobrowse"
    assert path.is_file(), f"swift build succeeded but {path} is missing"
    # The translations and the settings schema beside it, as build-aux/run.sh puts them.
    subprocess.run([str(REPO / "build-aux" / "compile-catalogs.sh"), str(Path(bin_path) / "locale")], check=True, timeout=120)
    (Path(bin_path) / "schemas").mkdir(exist_ok=True)
    subprocess.run(["glib-compile-schemas", "--strict", "--targetdir", str(Path(bin_path) / "schemas"), str(REPO / "data")],
                   check=True, timeout=120)
    return path


@pytest.fixture(scope="session")
def xserver():
    server = XServer()
    yield server
    server.stop()


def short_runtime_dir() -> Path:
    """A new private folder for one app's XDG_RUNTIME_DIR, under /tmp rather than the test's
    temporary folder: sockets are made in it, and a Unix socket's path has at most 107
    characters. GVfs's sftp backend has ssh listen on XDG_RUNTIME_DIR/gvfsd-sftp/ and 57
    characters more, so a deeper folder makes every sftp mount fail (tests/servers/sftp_server.py
    tells how). A desktop's /run/user/UID is as short."""
    runtime = Path(tempfile.mkdtemp(prefix="gpb-run-", dir="/tmp" if os.path.isdir("/tmp") else None))
    if len(str(runtime)) > MAX_CLIENT_RUNTIME_DIR:
        shutil.rmtree(runtime, ignore_errors=True)
        raise RuntimeError(f"{runtime} is too long for an app's XDG_RUNTIME_DIR (at most "
                           f"{MAX_CLIENT_RUNTIME_DIR} characters)")
    return runtime


def app_environment(base: dict[str, str], root: Path, runtime: Path) -> dict[str, str]:
    """A clean environment for one app: fresh HOME and XDG folders, X11 + cairo, tracing,
    and settings in a file of its own (GLib's key file backend, in its XDG_CONFIG_HOME)."""
    home = root / "home"
    env = dict(base)
    for name in ("LC_ALL", "LANGUAGE", "DBUS_SESSION_BUS_ADDRESS", "GTK_THEME", "GDK_SCALE",
                 "GDK_DPI_SCALE", "GTK_MODULES", "GSETTINGS_SCHEMA_DIR", "GPHOTOBROWSE_TRACE"):
        env.pop(name, None)
    for d in (home, home / ".cache", home / ".config", home / ".local" / "share", runtime):
        d.mkdir(parents=True, exist_ok=True)
    runtime.chmod(0o700)
    env.update({
        "HOME": str(home),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_RUNTIME_DIR": str(runtime),
        "GSK_RENDERER": "cairo",
        "GDK_BACKEND": "x11",
        "GSETTINGS_BACKEND": "keyfile",
        "NO_AT_BRIDGE": "1",
        "GTK_A11Y": "none",
        "LANG": "C.UTF-8",
        "GPHOTOBROWSE_TRACE": "all",
    })
    return env


@pytest.fixture
def spawn(request, xserver, tmp_path_factory):
    """spawn(argv) starts a GUI program on the test display in a clean environment.

    At teardown every program still running gets Ctrl+Q; the test fails if one was killed by
    a signal (a crash) or did not exit after Ctrl+Q. On a failed test, a screenshot of the
    whole screen is kept; the paths of it and of each program's stderr log are printed.
    """
    started: list[tuple[App, SessionBus, Path]] = []

    def start(argv, cwd: Path | None = None, extra_env: dict[str, str] | None = None,
              sort_by: str | None = None) -> App:
        root = tmp_path_factory.mktemp("app-env")
        runtime = short_runtime_dir()
        env = app_environment(xserver.env(), root, runtime)
        if extra_env:
            env.update(extra_env)
        if sort_by:
            # As if the person had chosen this order before (a SortKey: name, modified,
            # dateTaken), in the app's settings.
            names = {"dateTaken": "date-taken", "name": "name", "modified": "modified"}
            reversed_ = "true" if sort_by in ("dateTaken", "modified") else "false"
            preset_settings(env["XDG_CONFIG_HOME"], {"sort-by": f"'{names[sort_by]}'", "sort-reversed": reversed_})
        try:
            bus = SessionBus(env, root / "session-bus.log")
        except BaseException:
            shutil.rmtree(runtime, ignore_errors=True)
            raise
        if bus.address:
            env["DBUS_SESSION_BUS_ADDRESS"] = bus.address
        else:
            env["DBUS_SESSION_BUS_ADDRESS"] = "disabled:"
        # The pointer waits in the screen's corner, away from where windows open: left over a
        # tile by the test before, it would bring up that tile's tooltip over the next window.
        xserver.mouse_move(xserver.width - 1, xserver.height - 1)
        app = App(xserver, [str(a) for a in argv], env, root / "stderr.log", cwd=cwd)
        started.append((app, bus, runtime))
        return app

    yield start

    failed = getattr(request.node, "rep_call", None) is not None and request.node.rep_call.failed
    problems = []
    if failed and started:
        shot = tmp_path_factory.mktemp("failure") / "screen.png"
        try:
            xserver.screenshot().save(shot)
            print(f"\n[ui] screenshot at failure: {shot}")
        except Exception as error:  # the screenshot is a courtesy; the failure is the news
            print(f"\n[ui] could not take a screenshot: {error}")
    for app, bus, runtime in started:
        try:
            if app.process.poll() is None:
                try:
                    app.quit()
                except AssertionError as error:
                    problems.append(str(error))
            else:
                app._finish()
            if app.process.returncode is not None and app.process.returncode < 0 and not app.killed:
                problems.append(f"{' '.join(app.argv)} was {app.describe_exit()}; "
                                f"stderr ends:\n{app.tail()}")
        finally:
            bus.stop()
            shutil.rmtree(runtime, ignore_errors=True)
            print(f"[ui] stderr of {' '.join(app.argv)}: {app.log_path}")
            if bus.log_path:
                print(f"[ui] its session bus (gvfsd and its backends): {bus.log_path}")
    if problems:
        pytest.fail("\n\n".join(problems), pytrace=False)


@pytest.fixture
def launch_beside(app_binary, xserver, tmp_path_factory):
    """launch_beside(app, *args) starts gphotobrowse with args in the session of a running
    `app` (its bus, home and display): a second command line, which the running instance
    takes over (GApplication)."""
    started: list[App] = []

    def start(app: App, *args: str | Path, cwd: Path | None = None) -> App:
        log = tmp_path_factory.mktemp("beside") / "stderr.log"
        second = App(xserver, [str(app_binary), *(str(a) for a in args)], dict(app.environment), log, cwd=cwd)
        started.append(second)
        return second

    yield start
    for second in started:
        if second.process.poll() is None:
            second.process.kill()
            second.process.wait(10)
        print(f"[ui] stderr of {' '.join(second.argv)}: {second.log_path}")


@pytest.fixture
def launch(spawn, app_binary):
    """launch(*args) starts gphotobrowse with args and returns an App (see `spawn`)."""

    def start(*args: str | Path, cwd: Path | None = None, extra_env: dict[str, str] | None = None,
              sort_by: str | None = None) -> App:
        return spawn([app_binary, *args], cwd=cwd, extra_env=extra_env, sort_by=sort_by)

    return start


@pytest.fixture
def photo_folder(tmp_path):
    """photo_folder(name, {file name: colour}) makes solid-colour 640×480 photos in a new folder.

    The photos are given in natural name order, and their modification times make that the
    newest-first order too, so tests of paging and keys hold whichever of the two the app
    sorts by; `newest_first=False` shuffles the times instead (for the sort order test).
    """

    def make(name: str, photos: dict[str, str], newest_first: bool = True) -> Path:
        folder = tmp_path / name
        folder.mkdir(parents=True)
        for file_name, colour in photos.items():
            # Larger than the window, so that the viewer fits them to it (smaller ones show at 100%).
            harness.make_solid(folder / file_name, colour, size="1600x1200")
        harness.set_times(folder, list(photos), newest_first)
        return folder

    return make


@pytest.fixture
def corpus() -> Path:
    if not CORPUS.is_dir():
        pytest.skip(f"the shared corpus is absent ({CORPUS} does not exist)")
    return CORPUS
