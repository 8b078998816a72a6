"""Shared fixtures for the integration tests: the benchmark executable, which runs the app's
thumbnail pipeline from the command line (`gphotobrowse-bench make-thumbnails`)."""
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT.parent / "shared" / "corpus"


@pytest.fixture(scope="session")
def bench():
    path = os.environ.get("GPHOTOBROWSE_BENCH")
    if not path:
        bin_dir = subprocess.run(
            ["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
        path = os.path.join(bin_dir, "gphotobrowse-bench")
    if not os.access(path, os.X_OK):
        pytest.fail(f"{path} not found: run `swift build --product gphotobrowse-bench` or set GPHOTOBROWSE_BENCH")
    return path


@pytest.fixture(scope="session")
def corpus():
    if not CORPUS.is_dir():
        pytest.skip(f"the shared corpus is absent ({CORPUS}): it holds the real photos and hostile files")
    return CORPUS
