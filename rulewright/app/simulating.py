"""Simulating: many seeded games of one mode, each seat's results summed up with their
intervals; with another spec of the same game (a house rule's base game), the same seeds
played under it and the two compared game by game.

In:  a checked program and the spec it came from, a mode and a number of players, the
     seeds, the agents of the seats (a factory per program, or random ones), a position
     every game goes on from (or none), another program to compare with (or none), a
     ``progress(what, fraction)`` callback, the face's spelling.
Out: ``Simulated``: each spec's ``Summary`` (``compiler/play/simulate.py``) and what its
     solver seats did; the summaries as lines of text (``summary_lines``) and as data
     (``simulation_data``), which both faces show. A game that fails raises its error with
     the game's ``seed`` and the index of the spec it was played under (``run``).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable

from rulewright.app.opening import Request, open_spec
from rulewright.app.playing import solver_agents
from rulewright.compiler.diagnostics import NEUTRAL, BadInputError, RulesError, Spelling
from rulewright.compiler.interpret import Interpreter
from rulewright.compiler.play.simulate import Summary, compare, simulate
from rulewright.compiler.semantics import runtime as rt


@dataclass
class Run:
    """One spec's games: its program, the spec as named, the summary of its games, and
    each solver seat's doings summed over them (``asked``, ``answered``,
    ``from_answers``, ``at_random``)."""
    program: Any
    spec: str
    summary: Summary
    solver_agents: dict = field(default_factory=dict)


@dataclass
class Simulated:
    """The games of a simulation: the mode, the players, the seeds, the runs (this spec's,
    then the one compared against, when there is one) and the position the games went
    on from (a ``resume.Start``, or None)."""
    mode: Any
    players: int
    seeds: list[int]
    runs: list[Run]
    start: Any = None

    @property
    def mine(self) -> Run:
        return self.runs[0]

    @property
    def theirs(self) -> Run | None:
        return self.runs[1] if len(self.runs) > 1 else None

    def differences(self) -> dict:
        """This spec's reports less the other's, game by game (``compare``); none alone."""
        return compare(self.mine.summary, self.theirs.summary) if self.theirs else {}


def open_against(req: Request, spec: str):
    """The spec to compare with, opened with the request's settings and tables but
    without its variants (those are what is compared)."""
    return open_spec(replace(req, spec=spec, variants=()))


def check_against(program, other, mode, players: int, against: str, sp: Spelling = NEUTRAL) -> None:
    """The spec compared against is a version of the same game with the mode played, for
    as many players: else a bad input naming it as the face takes it."""
    named = sp.of_option("against", against)
    if other.name != program.name:
        raise BadInputError(f"{named}: a spec of another game ({other.title}), not of {program.title}")
    if mode.name not in other.modes:
        hint = "its modes: " + ", ".join(other.modes) if other.modes else "it has no mode"
        raise BadInputError(f"{named}: no mode '{mode.name}' to compare ({hint})")
    theirs = other.modes[mode.name]
    if not theirs.min_players <= players <= theirs.max_players:
        n, m = theirs.min_players, theirs.max_players
        shown = f"{n} player{'s' if n != 1 else ''}" if n == m else f"{n}..{m} players"
        raise BadInputError(f"{named}: mode '{mode.name}' there is for {shown}, not {players}")


def simulate_games(program, spec: str, mode, players: int, seeds: list[int], *, against=None,
                   against_spec: str = "", start=None,
                   agents: Callable[[Any, list], Any] | None = None,
                   progress: Callable[[str, float], None] | None = None,
                   spelling: Spelling = NEUTRAL) -> Simulated:
    """One game per seed under ``program`` (and under ``against``, the same seeds, when
    given), invariants checked as ``play`` checks them. ``agents(program, seats)`` gives
    the agent factory of a program's games (None, or no ``agents``: random agents).
    ``start``: a position every game goes on from. ``progress(what, fraction)`` is told
    after each game. A game that fails raises its error, with ``seed`` and ``run`` (0:
    this spec, 1: the other) set on it."""
    if against is not None:
        check_against(program, against, mode, players, against_spec, spelling)
    sides = [(program, spec)] + ([(against, against_spec)] if against is not None else [])
    total = len(seeds) * len(sides)
    runs = []
    for index, (prog, path) in enumerate(sides):
        interp = start.position.interp if start is not None else Interpreter(prog)
        seats = list(start.position.seats) if start is not None else interp.seats_for(mode, players)
        factory = agents(prog, seats) if agents is not None else None
        done: dict = {}         # solver seat -> what its agents did, summed over the games

        def tally(i, state, done=done, index=index, path=path):
            for seat, a in solver_agents(state).items():
                t = done.setdefault(seat, {"asked": 0, "answered": 0, "from_answers": 0, "at_random": 0})
                for k in ("asked", "answered", "from_answers"):
                    t[k] += a[k]
                t["at_random"] += sum(a["at_random"].values())
            if progress is not None:
                progress(f"{path}: game {i + 1} of {len(seeds)}", (index * len(seeds) + i + 1) / total)
        try:
            summary = simulate(interp, mode.name, players, seeds, agent_factory=factory, on_game=tally, start=start)
        except RulesError as exc:
            exc.run = index         # (the seed is set by simulate)
            raise
        runs.append(Run(prog, path, summary, done))
    return Simulated(mode, players, list(seeds), runs, start)


# ------------------------------------------------------------------ what both faces show
def _json_key(k) -> str:
    return k.name if isinstance(k, rt.Seat) else str(k)


def summary_data(summary: Summary) -> dict:
    """Each report's aggregate as data (seats by name)."""
    def keyed(v):
        return {_json_key(k): x for k, x in v.items()} if isinstance(v, dict) else v
    return {name: {k: keyed(v) if k in ("values", "ci95") and agg["kind"] != "number" else v
                   for k, v in agg.items()}
            for name, agg in summary.reports.items()}


def differences_data(diffs: dict) -> dict:
    """compare()'s differences as data: a number's directly, else by seat (and
    "several")."""
    return {name: by[None] if list(by) == [None] else {_json_key(k): d for k, d in by.items()}
            for name, by in diffs.items()}


def simulation_data(sim: Simulated, agent: str = "random", start_path: str | None = None) -> dict:
    """The simulation as data (what ``simulate --json`` prints)."""
    mine, theirs = sim.mine, sim.theirs
    out = {"spec": mine.program.name, "title": mine.program.title, "mode": sim.mode.name, "players": sim.players,
           "games": len(sim.seeds), "seeds": [sim.seeds[0], sim.seeds[-1]], "agent": agent,
           **({"from": start_path, "checkpoint": sim.start.checkpoint} if sim.start is not None else {}),
           "reports": summary_data(mine.summary), "seconds": round(mine.summary.seconds, 3),
           **({"solver_agents": mine.solver_agents} if mine.solver_agents else {})}
    if theirs is not None:
        out["against"] = {"spec": theirs.spec, "title": theirs.program.title,
                          "reports": summary_data(theirs.summary), "seconds": round(theirs.summary.seconds, 3),
                          "differences": differences_data(sim.differences()),
                          **({"solver_agents": theirs.solver_agents} if theirs.solver_agents else {})}
    return out


def _plus_minus(ci, scale=1.0, fmt="g") -> str:
    return f" ±{(ci[1] - ci[0]) / 2 * scale:{fmt}}" if ci else ""


def cell(agg: dict, k) -> str:
    """One aggregate's value for a key (a seat, "several"), as the tables write it: a
    mean with its ±95% and range, a share with its interval, counts."""
    v = agg["values"].get(k)
    if v is None:
        return "0" if agg["kind"] == "counts" else "-"
    if agg["kind"] in ("per seat", "number"):
        return f"{v['mean']:g}{_plus_minus(v.get('ci95'), fmt='.1f')} ({v['least']}..{v['most']})"
    if agg["kind"] == "seats":
        ci = (agg.get("several_ci95") if k == "several" else agg.get("ci95", {}).get(k))
        return f"{v:.0%}" + (f" ({ci[0]:.0%}..{ci[1]:.0%})" if ci else "")
    if agg["kind"] == "per seat counts":
        return ", ".join(f"{x} {n}" for x, n in v.items())
    return str(v)


WHAT = {"per seat": "mean ±95% (least..most)", "number": "mean ±95% (least..most)",
        "seats": "share of games (95%)", "counts": "games", "per seat counts": "games"}


def key_title(k) -> str:
    return k.title if isinstance(k, rt.Seat) else str(k)


def report_rows(mine: Summary, theirs: Summary | None = None, diffs: dict | None = None,
                seen: list | None = None) -> list[tuple[str, str, list[tuple[str, str, str, str]]]]:
    """Each report as (name, what its cells hold, rows): a row is (seat or "all games",
    this spec's cell, the other's, the difference game by game). ``seen`` gets True when
    a difference is marked as more than chance."""
    diffs = diffs or {}

    def delta(name, agg, other, k) -> str:
        a, b = agg["values"].get(k), other["values"].get(k) if other else None
        if agg["kind"] == "counts" and other and other["kind"] == "counts":
            a, b = a or 0, b or 0          # a value one side never ended with: 0 games
        if a is None or b is None or agg["kind"] != other["kind"] or agg["kind"] == "per seat counts":
            return ""
        if agg["kind"] == "counts":
            return f"{a - b:+d}"
        d = diffs.get(name, {}).get(None if agg["kind"] == "number" else k)
        if d is None:
            return ""
        if d["clear"] and seen is not None:
            seen.append(True)
        mark = " *" if d["clear"] else ""
        if agg["kind"] == "seats":
            return f"{d['mean'] * 100:+.0f}{_plus_minus(d['ci95'], 100, '.0f')} pts{mark}"
        return f"{round(d['mean'], 2):+g}{_plus_minus(d['ci95'], fmt='.1f')}{mark}"

    out = []
    for name, agg in mine.reports.items():
        other = theirs.reports.get(name) if theirs else None
        keys = list(agg["values"])
        if agg["kind"] == "number":         # one row: the report over all games
            keys = [None]
            agg = {**agg, "values": {None: agg["values"]}}
            other = {**other, "values": {None: other["values"]}} if other and other["kind"] == "number" else None
        elif other and other["kind"] == agg["kind"]:
            keys += [k for k in other["values"] if k not in agg["values"]]
        if not (other and other["kind"] == agg["kind"]):
            other = None
        rows = [("all games" if k is None else key_title(k), cell(agg, k), cell(other, k) if other else "",
                 delta(name, agg, other, k) if other else "") for k in keys]
        if agg["kind"] == "seats":
            several = {**agg, "values": {"several": agg["several"]}}
            other_several = {**other, "values": {"several": other["several"]}} if other else None
            rows.append(("several", cell(several, "several"), cell(other_several, "several") if other else "",
                         delta(name, several, other_several, "several") if other else ""))
        out.append((name, WHAT[agg["kind"]], rows))
    return out


def summary_lines(mine: Summary, theirs: Summary | None = None, spelling: Spelling = NEUTRAL) -> list[str]:
    """Each report's aggregate as a table; with ``theirs``, its column and the
    difference (paired by seed, with its interval); more games asked for as the face
    takes them (``spelling``)."""
    seen: list = []
    reports = report_rows(mine, theirs, compare(mine, theirs) if theirs is not None else {}, seen)
    out = []
    for name, what, rows in reports:
        out.append(f"{name.replace('_', ' ')}: {what}")
        widths = [max(len(r[i]) for r in rows) for i in range(4)]
        for r in rows:
            line = f"  {r[0].ljust(widths[0])}  {r[1].rjust(widths[1])}"
            if theirs is not None:
                line += f"   {r[2].rjust(widths[2])}   {r[3].ljust(widths[3])}"
            out.append(line.rstrip())
        out.append("")
    if theirs is not None:
        out.insert(0, "(each line: this spec, the one compared against, the difference game by game)")
        out.insert(1, "")
        out.append("±: half of a 95% confidence interval (a difference: over the games of the same seed). "
                   + ("* marks a difference whose interval leaves out 0: chance alone would rarely give it."
                      if seen else f"No difference here is told apart from chance at 95%: more games ({spelling.of_option('games')}) "
                      "narrow the intervals."))
    out.append(f"{mine.games} game(s) in {mine.seconds:.1f} s"
               + (f"; {theirs.games} against in {theirs.seconds:.1f} s" if theirs else ""))
    return out
