"""Helpers shared by the tests, imported as ``from helpers import ...`` (pytest puts
``tests/`` on the path; fixtures stay in ``conftest.py``).

The repository root, the Savanna spec with its interpreter, boards written as rows of
letters, paths as a spec or state file writes them, the Darwin's Choice spec and
tables built like the rulebook's examples, small spec files written to a folder.
"""
from __future__ import annotations

import copy
import json
import os
from pathlib import Path

from rulewright.cli import main
from rulewright.compiler import load
from rulewright.compiler.interpret import Interpreter
from rulewright.compiler.semantics import runtime as rt

ROOT = Path(__file__).resolve().parent.parent
SAVANNA = ROOT / "spec" / "ecosystem_savanna"

LETTERS = {"W": "water", "P": "prairie", "T": "tree", "G": "gazelle", "Z": "zebra", "F": "giraffe",
           "C": "cheetah", "L": "lion", "E": "elephant", "H": "hyena", "V": "vulture", ".": None,
           "R": "rhino"}            # the card spec/house_rules/savanna_rhinos.rules adds


def run_main(capsys, *argv) -> tuple[int, str, str]:
    """The command line run in this process: (exit code, standard output, standard error);
    an internal error or a traceback fails the test."""
    capsys.readouterr()
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "internal error" not in err and "Traceback" not in err, err
    return code, out, err


def rel(target, folder) -> str:
    """How a file in ``folder`` names ``target`` (relative to the checkout when not
    absolute): a relative path, as paths written in specs and state files are."""
    t = Path(target)
    t = t if t.is_absolute() else ROOT / t
    return os.path.relpath(t.resolve(), Path(folder).resolve())


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


def grid(interp, text: str):
    """A board from rows of letters (W P T G Z F C L E H V, '.' for a free cell)."""
    rows = [[LETTERS[x] for x in line.split()] for line in text.strip().splitlines()]
    return interp.board(rows)


def score(interp, text_or_board, rivals=(), **kw):
    board = grid(interp, text_or_board) if isinstance(text_or_board, str) else text_or_board
    return interp.call("score", board, tuple(rivals), **kw)


# ---------------------------------------------------------------- Darwin's Choice

_DC_CACHE: dict = {}


def dc(**overrides):
    """The Darwin's Choice interpreter, with switches and params set."""
    key = tuple(sorted(overrides.items()))
    if key not in _DC_CACHE:
        program = load(ROOT / "spec" / "darwins_choice", {k: str(v) for k, v in overrides.items()})
        _DC_CACHE[key] = Interpreter(program)
    return _DC_CACHE[key]


def table_state(interp, biomes: dict, species: list[dict], players=2, event=None):
    """A Darwin's Choice table like the rulebook examples: biomes in play and species on them."""
    seats = [rt.Seat(i, f"p{i + 1}", "player", f"Player {i + 1}") for i in range(players)]
    st = interp.new_state(seats, seed=1)
    st.shared["in_play"] = tuple(biomes)
    for c, b in biomes.items():
        st.per["biome_card"][c] = b
    st.shared["current_event"] = event
    world = []
    for i, sp in enumerate(species, start=1):
        world.append(interp.record("species", id=i, owner=seats[sp.get("owner", 0)], home=sp["home"],
                                   cards=tuple(sp["cards"]), dp=sp.get("dp", 0), acted=False, plants=0,
                                   meat=0, prey=0))
    st.shared["world"] = tuple(world)
    st.shared["next_id"] = len(world) + 1
    return st


_DC_PROGRAMS: dict = {}
_DC_BASES: dict = {}


def darwin_program(**overrides):
    """The Darwin's Choice program, with switches and params set."""
    key = tuple(sorted(overrides.items()))
    if key not in _DC_PROGRAMS:
        _DC_PROGRAMS[key] = load(ROOT / "spec" / "darwins_choice", {k: str(v) for k, v in overrides.items()})
    return _DC_PROGRAMS[key]


def darwin_base(seed: int, turn: int) -> dict:
    """The state document of a seeded four-player game at its turn-th turn, where
    player 1, whom the tests ask about, has not passed."""
    from rulewright.compiler.play import state_io
    from rulewright.solver.queries import interpreter_for      # OR-Tools, loaded late
    if (seed, turn) not in _DC_BASES:
        prog = darwin_program()
        played = interpreter_for(prog).play("standard", 4, seed, stop_at=f"turn:{turn}")
        _DC_BASES[seed, turn] = state_io.dump(played, seed=seed)
        _DC_BASES[seed, turn]["per_seat"]["passed"]["p1"] = False
    return copy.deepcopy(_DC_BASES[seed, turn])


def darwin_position(doc: dict, prog=None):
    """A Darwin's Choice position read from its state document (under ``prog``)."""
    from rulewright.compiler.play import state_io
    from rulewright.solver.queries import interpreter_for
    prog = prog or darwin_program()
    return state_io.load(interpreter_for(prog), "<test>", doc, json.dumps(doc))


# ---------------------------------------------------------------- small specs

def spec(tmp_path: Path, text: str, name: str = "t.rules") -> Path:
    """A spec (or variant) file ``name`` with ``text``, written in ``tmp_path``."""
    path = tmp_path / name
    path.write_text(text)
    return path


def check_golden(stage: str, name: str, text: str, update: bool) -> None:
    """``text`` is the golden file ``tests/golden/STAGE/NAME`` (rewritten with --update-golden)."""
    path = ROOT / "tests" / "golden" / stage / name
    if update or not path.exists():
        path.write_text(text)
    assert text == path.read_text(), f"{name} changed; rerun with --update-golden and review"
