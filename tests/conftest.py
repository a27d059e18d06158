"""Shared fixtures: the compiled Savanna spec and its interpreter, the --update-golden
option. The helpers (ROOT, savanna, grid, score, rel, ...) are in helpers.py."""
from __future__ import annotations

import pytest

from helpers import savanna


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
