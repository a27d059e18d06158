"""Branching from a choice a seat is asked: the positions a bot looks ahead from, and
how it weighs where they lead.

In:  a game's state at a choice its rules ask a seat's agent (``agent.choose``), that
     seat, a random generator of the agent's own.
Out: ``at_choice``: a ``Live`` game standing at the same choice, as the seat may know it
     (the cards it has not seen dealt again from the agent's generator, chance's future
     drawn from it too), every seat of it played from outside; ``Standing``: how a seat
     stands in a position (the spec's ``estimate``, else its ``outcome``, else the
     mode's ``score`` report) and each seat's margin over the best of the others.

A branch is the true game copied where its rules ask the choice, its procedures
resumed where they run (``Live.branched``, compiler/interpret/resumable.py: no rule runs
again); a game whose procedures cannot be resumed is rolled forward along the true
game's history of choices to the choice being asked instead (and gives no branch when
it does not roll forward to the same choice: a position read from a file, resumed
without its history). Then every value of its position is set to those of a
determinization (compiler/play/views.py: the seat's view with the hidden cards dealt
again), in place (the running procedures hold the same piles), and its random
generator is replaced. What the running procedures computed before the choice from a
hidden pile (a ``let``) is not dealt again; a branch where it contradicts the dealt
cards fails and is dropped by the bots.
"""
from __future__ import annotations

import random
from typing import Any

from rulewright.compiler import ir as I
from rulewright.compiler.semantics import runtime as rt
from rulewright.compiler.interpret.codegen import fname
from rulewright.compiler.interpret.live import Live
from rulewright.compiler.play.views import blind


def at_choice(state, name: str, seat, options: list, rng: random.Random, sights: dict | None = None,
              key=None) -> Live | None:
    """A game standing at the choice ``name`` that ``state`` asks ``seat`` now (its
    ``options``, the same objects), as the seat may know it; None when its procedures
    cannot be resumed there and the game cannot be rolled forward to it (no seed, or a
    saved history still being replayed). ``sights``: where the position the seat may
    know (a deal of what it does not see, ``blind``, from ``rng``) is kept under ``key``
    (the deal's seed), with the draw the branch's generator is made from: a bot that
    branches once per option from one deal (a new ``rng`` of one seed each time) makes it
    once, and each branch is what it would have been."""
    interp = state.interp
    mode = interp.program.modes.get(state.mode or "")
    if mode is None:
        return None
    outside = frozenset(s.index for s in state.seats if s.kind == "player")
    live = Live.branched(state, options, outside)
    if live is None:
        if state.seed is None or state.replay is not None:
            return None
        live = Live.__new__(Live)
        live.interp, live.mode = interp, mode
        try:
            live._begin(state.seats, state.seed, {}, outside, list(state.history), ready=list(options))
        except Exception:               # noqa: BLE001 (a game that does not replay: no branch)
            return None
    asked = live.asked
    if asked is None or asked.name != name or asked.seat.name != seat.name \
            or len(live.state.history) != len(state.history):
        return None
    kept = sights.get(key) if sights is not None else None
    if kept is not None and kept[0] is state and kept[1] == len(state.history):
        seen, drawn = kept[2], kept[3]
    else:
        seen = blind(state, seat.name, rng)
        drawn = rng.getrandbits(64)     # (the branch's own generator, from what the deal left)
        if sights is not None:
            sights.clear()          # (one position at a time; the branches copy its piles, never change it)
            sights[key] = (state, len(state.history), seen, drawn)
    _set_values(live.state, seen)
    live.state.rng = random.Random(drawn)
    live.state.lazy = True          # (a choice's options are made only when the bot reads them)
    return live


def _set_values(target, source) -> None:
    """Every value of ``source``'s position into ``target``'s, piles in place."""
    for name, value in source.shared.items():
        target.shared[name] = _into(target.shared.get(name), value)
    for name, by_key in source.per.items():
        mine = target.per.setdefault(name, {})
        for key, value in by_key.items():
            mine[key] = _into(mine.get(key), value)
    target.checkpoints = dict(source.checkpoints)


def _into(old, value):
    if isinstance(value, rt.Zone) and isinstance(old, rt.Zone):
        old.cards[:] = value.cards
        return old
    if isinstance(value, rt.Zone):
        return rt.Zone(value.name, list(value.cards))
    return value


class Standing:
    """How each seat stands in a position of a game, the higher the better: the spec's
    ``estimate``, else its ``outcome``, else the ``score`` its mode reports; and each
    seat's margin over the best of the others."""

    def __init__(self, program: I.Program, mode: str | None):
        self.program = program
        self.report = None
        if program.estimate is not None:
            self.name, self.source = program.estimate, f"the estimate '{program.estimate}'"
        elif program.outcome is not None:
            self.name, self.source = program.outcome, f"the outcome '{program.outcome}'"
        else:
            self.name = None
            m = program.modes.get(mode or "")
            self.report = next((st for st in (m.body if m else ()) if isinstance(st, I.Report)
                                and st.name == "score" and st.var is not None), None)
            self.source = "the 'score' its mode reports" if self.report else None

    def of(self, state, seat) -> float:
        """How ``seat`` stands in ``state`` (0 when the spec says nothing of it)."""
        return self.all(state, (seat,))[seat.index]

    def all(self, state, seats) -> dict[int, float]:
        """Seat index -> how it stands in ``state``, the state's definitions worked out once
        for them all."""
        interp = state.interp
        if self.name is None and self.report is None:
            return {s.index: 0.0 for s in seats}
        interp.use(state)
        if self.name is not None:
            fn = interp.ns[fname(self.name)]
        else:
            fn = interp.compiled(self.report.value, (self.report.var,))
        with rt.bounded(self.source):
            return {s.index: _number(fn(s)) for s in seats}

    def margins(self, state, players) -> dict[int, float]:
        """Seat index -> how far it stands ahead of the best of the others (behind: below
        0; alone at the table: how it stands). A finished game is measured by the
        ``score`` it reports, when it reports one."""
        scores = state.reports.get("score") if state.reports else None
        if isinstance(scores, dict) and scores:
            values = {s.index: _number(scores.get(s, 0)) for s in players}
        else:
            values = self.all(state, players)
        if len(values) == 1:
            return values
        out = {}
        for i, v in values.items():
            out[i] = v - max(w for j, w in values.items() if j != i)
        return out


def _number(value: Any) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return float(int(value))
