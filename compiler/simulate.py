"""Many seeded games of one mode, and what their reports add up to.

In:  an interpreter, a mode, a number of players, the seeds, an agent factory.
Out: ``Summary``: for each report of the mode, an aggregate by what the report holds:
  - a number per seat (``report score for p in players = ...``): mean, least and most
    per seat;
  - seats (``report winners = ...``): the share of games each seat is among them, and
    the share of games where several are;
  - a number (``report margin = ...``): mean, least and most;
  - any other value (``report result = ...``): how many games ended with each.
Nothing here knows a game: the spec's reports say what a game ends with.
"""
from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from . import runtime as rt
from .checks import invariant_watcher
from .diagnostics import RulesError


@dataclass
class Summary:
    games: int
    seeds: list[int]
    seats: list[Any]                               # the seats of the games (rt.Seat)
    reports: dict[str, dict] = field(default_factory=dict)
    seconds: float = 0.0


def _number(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _stats(values: list[int]) -> dict:
    values = [int(v) for v in values]         # a scoring's total is an int that keeps its steps
    return {"mean": round(statistics.fmean(values), 2), "least": min(values), "most": max(values)}


def aggregate(games: list[dict], seats: list) -> dict[str, dict]:
    """Each report's aggregate over the games' reports (name -> value, as played)."""
    names = list(dict.fromkeys(n for g in games for n in g))
    out: dict[str, dict] = {}
    for name in names:
        values = [g[name] for g in games if name in g]
        if all(isinstance(v, dict) and all(_number(x) for x in v.values()) for v in values):
            keys = list(dict.fromkeys(k for v in values for k in v))
            out[name] = {"kind": "per seat", "values": {k: _stats([v[k] for v in values if k in v]) for k in keys}}
        elif all(isinstance(v, dict) for v in values):          # another value per seat: counts
            keys = list(dict.fromkeys(k for v in values for k in v))
            out[name] = {"kind": "per seat counts",
                         "values": {k: _counts([v[k] for v in values if k in v]) for k in keys}}
        elif all(isinstance(v, (set, frozenset, tuple, list)) and all(isinstance(x, rt.Seat) for x in v)
                 for v in values):
            # the seats that can be among them: players, and any other seat that is
            among = [s for s in seats if s.kind == "player" or any(s in v for v in values)]
            shares = {s: round(sum(1 for v in values if s in v) / len(values), 4) for s in among}
            out[name] = {"kind": "seats", "values": shares,
                         "several": round(sum(1 for v in values if len(v) > 1) / len(values), 4),
                         "none": round(sum(1 for v in values if len(v) == 0) / len(values), 4)}
        elif all(_number(v) for v in values):
            out[name] = {"kind": "number", "values": _stats(values)}
        else:
            out[name] = {"kind": "counts", "values": _counts(values)}
    return out


def _counts(values: list) -> dict:
    """How many times each value occurs (a value shown as text when it cannot be a key)."""
    counts: dict = {}
    for v in values:
        key = v.title if isinstance(v, rt.Seat) else v
        try:
            hash(key)
        except TypeError:
            key = repr(key)
        counts[key] = counts.get(key, 0) + 1
    return counts


def simulate(interp, mode: str, players: int, seeds: list[int], agent_factory=None,
             on_game=None) -> Summary:
    """Play one game per seed (invariants checked at every checkpoint, as ``play``
    does) and aggregate their reports. ``on_game(index, state)`` is called after each."""
    started = time.perf_counter()
    games, seats = [], []
    for i, seed in enumerate(seeds):
        watch = invariant_watcher(interp)
        try:
            state = interp.play(mode, players, seed, agent_factory=agent_factory, watchers=[watch])
            watch(state, "end")
        except RulesError as exc:
            exc.seed = seed             # the game to replay with 'play --seed'
            raise
        seats = list(state.seats)
        games.append(dict(state.reports))
        if on_game is not None:
            on_game(i, state)
    return Summary(len(games), list(seeds), seats, aggregate(games, seats), time.perf_counter() - started)
