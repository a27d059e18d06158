"""Shared fixtures: the compiled Savanna spec and its interpreter, the docs site built
once (strictly) for the tests that read it, the --update-golden option. The helpers
(ROOT, savanna, grid, score, rel, ...) are in helpers.py."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import ROOT, savanna


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true", help="rewrite golden files")


def pytest_configure(config):
    # Queries follow the deterministic solve plan (rulewright.solver.solving.plan): each
    # phase of a search has a budget of work, not of seconds, so a test's query costs
    # the same and takes the same path whatever the machine's load; the time limits
    # the tests give still bound each query as a whole. (Set before the workers start:
    # the commands the tests run as processes follow it too.)
    os.environ.setdefault("RULEWRIGHT_SOLVE_PLAN", "deterministic")


@pytest.fixture(autouse=True)
def _one_cache_folder():
    """The front end's cache folder (``compiler.cache.directory``, found once per process)
    is the same for every test, whatever an earlier test set in the environment: a test
    that sets ``RULEWRIGHT_CACHE`` and finds the folder again (``cache_clear``) leaves it
    as it was, so no test turns the cache off for the tests after it."""
    from rulewright.compiler import cache
    before = cache.directory()
    yield
    if cache.directory() != before:
        cache.directory.cache_clear()


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
