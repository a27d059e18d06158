"""Many seeded games of one mode, and what their reports add up to.

In:  an interpreter, a mode, a number of players, the seeds, an agent factory.
Out: ``Summary``: for each report of the mode, an aggregate by what the report holds:
  - a number per seat (``report score for p in players = ...``): mean, least and most
    per seat;
  - seats (``report winners = ...``): the share of games each seat is among them, and
    the share of games where several are;
  - a number (``report margin = ...``): mean, least and most;
  - any other value (``report result = ...``): how many games ended with each.
Means and shares carry a 95% confidence interval over the games (Student's t for a
mean, Wilson's for a share). ``compare`` pairs two summaries played on the same seeds
(a house rule against its base game) game by game: the mean of the per-seed
differences with its own interval, and whether that interval leaves out 0.
Nothing here knows a game: the spec's reports say what a game ends with.
"""
from __future__ import annotations

import math
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from rulewright.compiler.semantics import runtime as rt
from rulewright.compiler.play.checks import invariant_watcher
from rulewright.compiler.diagnostics import RulesError
from rulewright.compiler.play.resume import play_from


@dataclass
class Summary:
    games: int
    seeds: list[int]
    seats: list[Any]                               # the seats of the games (rt.Seat)
    reports: dict[str, dict] = field(default_factory=dict)
    seconds: float = 0.0
    games_reports: list[dict] = field(default_factory=list)   # each game's reports, in seed order


def _number(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


# Student's t at 97.5% (a two-sided 95% interval) by degrees of freedom; between the
# rows of the table it is interpolated in 1/df, which is exact enough past 30.
_T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262,
         10: 2.228, 11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131, 16: 2.120, 17: 2.110,
         18: 2.101, 19: 2.093, 20: 2.086, 21: 2.080, 22: 2.074, 23: 2.069, 24: 2.064, 25: 2.060,
         26: 2.056, 27: 2.052, 28: 2.048, 29: 2.045, 30: 2.042, 40: 2.021, 60: 2.000, 120: 1.980}


def t975(df: int) -> float:
    """Student's t quantile at 0.975 for ``df`` degrees of freedom (df >= 1)."""
    if df in _T975:
        return _T975[df]
    if df > 120:                 # toward the normal quantile, 1.960, linearly in 1/df
        return 1.960 + (1.980 - 1.960) * 120 / df
    lo = max(k for k in _T975 if k < df)
    hi = min(k for k in _T975 if k > df)
    w = (1 / df - 1 / hi) / (1 / lo - 1 / hi)
    return _T975[hi] + w * (_T975[lo] - _T975[hi])


def mean_interval(values: list[float], digits: int | None = 2) -> tuple[float, float] | None:
    """A 95% confidence interval of the mean of ``values`` (Student's t), rounded to
    ``digits`` (None: not rounded); None with fewer than two values."""
    n = len(values)
    if n < 2:
        return None
    mean = statistics.fmean(values)
    half = t975(n - 1) * statistics.stdev(values) / math.sqrt(n)
    if digits is None:
        return (mean - half, mean + half)
    return (round(mean - half, digits), round(mean + half, digits))


def share_interval(hits: int, n: int) -> tuple[float, float] | None:
    """Wilson's 95% interval of a share of ``hits`` in ``n`` (None with no games): it
    stays within 0..1 and is not empty at 0 or n hits."""
    if n == 0:
        return None
    z = 1.96
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4))


def _stats(values: list[int]) -> dict:
    values = [int(v) for v in values]         # a scoring's total is an int that keeps its steps
    return {"mean": round(statistics.fmean(values), 2), "least": min(values), "most": max(values),
            "ci95": mean_interval(values)}


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
            n = len(values)
            hits = {s: sum(1 for v in values if s in v) for s in among}
            several = sum(1 for v in values if len(v) > 1)
            out[name] = {"kind": "seats", "values": {s: round(h / n, 4) for s, h in hits.items()},
                         "ci95": {s: share_interval(h, n) for s, h in hits.items()},
                         "several": round(several / n, 4), "several_ci95": share_interval(several, n),
                         "none": round(sum(1 for v in values if len(v) == 0) / n, 4)}
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


def _measures(name: str, agg: dict, game: dict) -> dict:
    """What a game adds to the report's means and shares: key -> a number (a seat's
    or the game's number; 1 or 0 for a seat among the seats, and for "several")."""
    value = game.get(name)
    if value is None:
        return {}
    if agg["kind"] == "per seat":
        return {k: int(v) for k, v in value.items()}
    if agg["kind"] == "number":
        return {None: int(value)}
    if agg["kind"] == "seats":
        return {**{s: int(s in value) for s in agg["values"]}, "several": int(len(value) > 1)}
    return {}


MIN_CLEAR = 5       # games a difference needs before it is marked as more than chance


def compare(mine: Summary, theirs: Summary) -> dict[str, dict]:
    """Report -> key -> the difference of ``mine`` less ``theirs`` over the seeds both
    played, game by game (paired by seed): {"mean", "ci95", "clear"}, ``clear`` when the
    interval leaves out 0 (a difference chance alone would rarely give). Keys: a seat,
    None for a number, "several" for games won by several; shares as fractions. Only
    means and shares are compared (not counts)."""
    theirs_by_seed = dict(zip(theirs.seeds, theirs.games_reports))
    out: dict[str, dict] = {}
    for name, agg in mine.reports.items():
        other = theirs.reports.get(name)
        if other is None or other["kind"] != agg["kind"] or agg["kind"] not in ("per seat", "number", "seats"):
            continue
        diffs: dict = {}
        for seed, game in zip(mine.seeds, mine.games_reports):
            if seed not in theirs_by_seed:
                continue
            a, b = _measures(name, agg, game), _measures(name, other, theirs_by_seed[seed])
            for k in a:
                if k in b:
                    diffs.setdefault(k, []).append(a[k] - b[k])
        out[name] = {}
        for k, d in diffs.items():
            exact = mean_interval(d, digits=None)
            ci = None if exact is None else (round(exact[0], 4), round(exact[1], 4))
            if ci is not None and agg["kind"] == "seats":       # a share moves by -100% to +100%
                ci = (max(-1.0, ci[0]), min(1.0, ci[1]))
            # a few games that happen to differ alike give a narrow interval: not yet a finding
            clear = exact is not None and len(d) >= MIN_CLEAR and (exact[0] > 0 or exact[1] < 0)
            out[name][k] = {"mean": round(statistics.fmean(d), 4), "ci95": ci, "clear": clear, "games": len(d)}
    return out


def simulate(interp, mode: str, players: int, seeds: list[int], agent_factory=None,
             on_game=None, start=None) -> Summary:
    """Play one game per seed (invariants checked at every checkpoint, as ``play``
    does) and aggregate their reports. ``on_game(index, state)`` is called after each.
    ``start``: a position (``resume.Start``) every game goes on from, the seed playing
    the rest."""
    started = time.perf_counter()
    games, seats = [], []
    with interp.batch():        # (games one after the other: the cycle collector rare between them too)
        for i, seed in enumerate(seeds):
            watch = invariant_watcher(interp)
            try:
                if start is not None:
                    state = play_from(interp, start, seed=seed, agent_factory=agent_factory, watchers=[watch])
                else:
                    state = interp.play(mode, players, seed, agent_factory=agent_factory, watchers=[watch])
                watch(state, "end")
            except RulesError as exc:
                exc.seed = seed             # the game to replay with 'play --seed'
                raise
            seats = list(state.seats)
            games.append(dict(state.reports))
            if on_game is not None:
                on_game(i, state)
    return Summary(len(games), list(seeds), seats, aggregate(games, seats), time.perf_counter() - started, games)
