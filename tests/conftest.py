"""Shared fixtures: the compiled Savanna spec and its interpreter, the docs site built
once (strictly) for the tests that read it, the --update-golden option. The helpers
(ROOT, savanna, grid, score, rel, ...) are in helpers.py."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import ROOT, savanna


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true", help="rewrite golden files")


@pytest.fixture
def update_golden(request):
    return request.config.getoption("--update-golden")


@pytest.fixture(scope="session")
def program():
    return savanna()[0]


@pytest.fixture(scope="session")
def interp():
    return savanna()[1]


@pytest.fixture(scope="session")
def built_site(tmp_path_factory):
    """``mkdocs build --strict`` of the docs, once for every test that reads the site:
    (the folder built, the completed process); skipped without mkdocs."""
    mkdocs = shutil.which("mkdocs") or str(Path(sys.executable).parent / "mkdocs")
    if not Path(mkdocs).exists():
        pytest.skip("mkdocs not installed")
    out = tmp_path_factory.mktemp("site")
    proc = subprocess.run([mkdocs, "build", "--strict", "-q", "-d", str(out)], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    return out, proc
