"""Shared fixtures: the compiled Savanna spec, its interpreter, grid helpers."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from rulewright.compiler import load
from rulewright.compiler.interpret import Interpreter

ROOT = Path(__file__).resolve().parent.parent
SAVANNA = ROOT / "spec" / "ecosystem_savanna"

LETTERS = {"W": "water", "P": "prairie", "T": "tree", "G": "gazelle", "Z": "zebra", "F": "giraffe",
           "C": "cheetah", "L": "lion", "E": "elephant", "H": "hyena", "V": "vulture", ".": None,
           "R": "rhino"}            # the card spec/house_rules/savanna_rhinos.rules adds


def rel(target, folder) -> str:
    """How a file in ``folder`` names ``target`` (relative to the checkout when not
    absolute): a relative path, as paths written in specs and state files are."""
    t = Path(target)
    t = t if t.is_absolute() else ROOT / t
    return os.path.relpath(t.resolve(), Path(folder).resolve())


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true", help="rewrite golden files")


@pytest.fixture
def update_golden(request):
    return request.config.getoption("--update-golden")


_CACHE: dict = {}


def savanna(variant: str | None = None, **overrides):
    """The Savanna spec (or one of its variants, by name) with switches set."""
    key = (variant,) + tuple(sorted(overrides.items()))
    if key not in _CACHE:
        path = SAVANNA / "variants" / f"{variant}.rules" if variant else SAVANNA
        program = load(path, {k: str(v).lower() if isinstance(v, bool) else str(v)
                              for k, v in overrides.items()})
        _CACHE[key] = (program, Interpreter(program))
    return _CACHE[key]


@pytest.fixture(scope="session")
def program():
    return savanna()[0]


@pytest.fixture(scope="session")
def interp():
    return savanna()[1]


def grid(interp, text: str):
    """A board from rows of letters (W P T G Z F C L E H V, '.' for a free cell)."""
    rows = [[LETTERS[x] for x in line.split()] for line in text.strip().splitlines()]
    return interp.board(rows)


def score(interp, text_or_board, rivals=(), **kw):
    board = grid(interp, text_or_board) if isinstance(text_or_board, str) else text_or_board
    return interp.call("score", board, tuple(rivals), **kw)
