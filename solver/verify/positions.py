"""Positions to check the definitions that read the game's state on: the positions the
rules reach at the checkpoints of seeded games.

In:  a checked program, how many positions, the first seed.
Out: ``Position`` objects: where they come from (mode, players, seed, checkpoint), the
     state document (a state file ``show`` and ``query --state`` read) and the state
     loaded for a program (its own, or a variant's or base's that reads the same file).

A definition that reads the state has a value only on a position, so what CP-SAT proves
about it holds on the positions given: a witness found there is a real input (the
position and the values), and no witness on N positions is evidence, not proof (the
finding is SAMPLED and says N).
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from rulewright.compiler import ir as I
from rulewright.compiler.diagnostics import RulesError
from rulewright.compiler.interpret import interpreter_for
from rulewright.compiler.play import state_io
from rulewright.compiler.semantics import runtime as rt
from rulewright.solver.verify.sampled import OutOfTime, play_within


@dataclass
class Position:
    label: str                      # "standard, 2 players, seed 1, at turn:3"
    doc: dict                       # the state document
    states: dict = field(default_factory=dict)      # id of a program -> its loaded GameState (or None)

    def state_for(self, program: I.Program) -> Any:
        """The position as a state of ``program`` (None when that program cannot read it)."""
        key = id(program)
        if key not in self.states:
            try:
                self.states[key] = state_io.load(interpreter_for(program), f"<{self.label}>", self.doc,
                                                 json.dumps(self.doc))
            except (RulesError, rt.OutOfSteps):
                self.states[key] = None
        return self.states[key]


def positions(program: I.Program, count: int, seed: int = 1, time_limit: float | None = None) -> list[Position]:
    """``count`` positions spread over the checkpoints of seeded games of the first mode
    (its least number of players), one game after another until there are enough, all
    the games within ``time_limit`` seconds (a game stopped by it gives the positions
    it reached by then, and no other game is played)."""
    if not program.modes or count <= 0:
        return []
    mode = next(iter(program.modes.values()))
    players = mode.min_players
    interp = interpreter_for(program)
    found: list[Position] = []
    deadline = None if time_limit is None else time.monotonic() + time_limit
    for s in range(seed, seed + 10):
        snaps: list[Position] = []

        def watch(state, label: str, _s=s):
            snaps.append(Position(f"{mode.name}, {players} players, seed {_s}, at {label}",
                                  state_io.dump(state, seed=_s)))
        out_of_time = False
        try:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                break
            play_within(interp, mode.name, players, s, left, watchers=[watch])
        except (RulesError, rt.OutOfSteps):
            pass                    # the positions up to the error are positions the rules reached
        except OutOfTime:
            out_of_time = True      # the same, up to where the time ran out
        if snaps:
            step = max(1, len(snaps) // max(1, count - len(found)))
            found += snaps[::step][:count - len(found)]
        if len(found) >= count or out_of_time:
            break
    return found
