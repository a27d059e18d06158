"""Scoring: finished grids scored as the players of one game, each with the spec's outcome.

In:  a checked program, the grids (boards already read) and a title for each player.
Out: ``Scored``: the state the grids were set into, the seats, each seat's result (a
     ``runtime.Score`` with its steps and choices, or a number) and the invariants written
     "else warn" that the grids break together (the faces say them their own way).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rulewright.compiler.diagnostics import BadInputError
from rulewright.compiler.interpret import Interpreter
from rulewright.compiler.play.checks import broken_invariants
from rulewright.compiler.semantics import runtime as rt
from rulewright.compiler.types import BoardT


def grid_variable(program) -> str:
    """The state's one grid per seat, which grid files are read into."""
    names = [v.name for v in program.state.values() if v.per_seat and isinstance(v.type, BoardT)]
    if len(names) != 1:
        raise BadInputError(f"{program.root}: the spec needs exactly one grid per seat to score grid files")
    return names[0]


def grid_type(program) -> str:
    """The name of the grid the seats' grids are (to read a grid file as); a spec with no
    outcome scores no grid."""
    if program.outcome is None:
        raise BadInputError(f"{program.root}: the spec has no 'outcome' to score with")
    return program.state[grid_variable(program)].type.grid


@dataclass
class Scored:
    interp: Any
    state: Any
    seats: list
    results: list
    broken: list = field(default_factory=list)      # invariants "else warn" the grids break together


def score_grids(program, boards: list, titles: list[str], interp=None, warned: bool = True) -> Scored:
    """``boards`` scored as the players of one game (titled ``titles``): each set into the
    seat's grid of a new state, then the outcome called for each seat; with ``warned``, the
    invariants written "else warn" that the grids break together are looked for too."""
    if program.outcome is None:
        raise BadInputError(f"{program.root}: the spec has no 'outcome' to score with")
    var = grid_variable(program)
    interp = interp or Interpreter(program)
    seats = [rt.Seat(i, f"p{i + 1}", "player", title) for i, title in enumerate(titles)]
    state = interp.new_state(seats)
    for seat, board in zip(seats, boards):
        state.per[var][seat] = board
    # (the invariants that describe a whole game's position are not the grids': only "else warn" ones)
    broken = [b for b in broken_invariants(interp, state, only=lambda inv: getattr(inv.node, "warn", False))
              if not b.unevaluable] if warned else []
    results = [interp.call(program.outcome, seat, state=state) for seat in seats]
    return Scored(interp, state, seats, results, broken)


def score_data(res) -> dict:
    """A score as data: its steps, its choices and its total (what ``--json`` prints)."""
    from rulewright.compiler.semantics.render import jsonable      # (lazy: only for data out)
    entry: dict[str, Any] = {}
    if isinstance(res, rt.Score):
        entry["scores"] = dict(res.steps)
        for k, v in res.choices.items():
            entry[k] = jsonable(v)
    entry["total"] = int(res)
    return entry
