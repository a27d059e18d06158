"""Tournaments: bots against each other, round-robin with the seats rotated, rated.

In:  a checked program and the spec it came from, a mode and a number of players, the
     bots as written (``random``, ``greedy``, ``solver``, ``mcts:time=0.5``...), a number
     of games, the first seed, how many processes play (every core by default), a
     ``progress(what, fraction)`` callback, the face's spelling (``Words``).
Out: ``Tournament``: every game's ``ratings.Result``, what each bot did (its longest
     move), the statistics (``win_shares``, ``head_to_head``, ``ratings``), as lines a
     face prints (``tournament_lines``) and as data (``tournament_data``, docs/json.md).

The table of games: every line-up of ``players`` seats holding at least two different
bots (every multiset of the bots; with as many bots as seats or more, those of distinct
bots first), each in every rotation of its seats, in a fixed order; game ``i`` plays
line-up ``i`` of that table (round and round) with seed ``seed + i``. A game that fails
raises its error with the game's ``seed``.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from itertools import combinations_with_replacement
from typing import Any, Callable

from rulewright.app import playing, ratings, workers as workers_
from rulewright.app.bots import bot_named
from rulewright.compiler.diagnostics import BadInputError, RulesError
from rulewright.compiler.interpret import Interpreter
from rulewright.compiler.play import measure

MOST_BOTS = 12
DEFAULT_BOTS = ("random", "greedy")


def bots_named(text: str | list, option: str) -> list[str]:
    """The bots of a tournament, as written (``random,greedy,mcts:time=0.5``: a setting list
    of mcts goes on after its colon, so a comma starts a new bot only before a bot's name)."""
    items = text if isinstance(text, (list, tuple)) else _split(str(text))
    out: list[str] = []
    for item in items:
        bot = bot_named(item, option, kinds=("random", "greedy", "solver", "mcts")).text
        if bot in out:
            raise BadInputError(f"{option}: {bot} is named twice (a bot plays several seats of a game by itself)")
        out.append(bot)
    if len(out) < 2:
        raise BadInputError(f"{option}: a tournament needs two bots at least, e.g. random,greedy")
    if len(out) > MOST_BOTS:
        raise BadInputError(f"{option}: {len(out)} bots, more than the {MOST_BOTS} a tournament takes")
    return out


def _split(text: str) -> list[str]:
    parts: list[str] = []
    for piece in text.split(","):
        name = piece.strip().split("=")[0].split(":")[0].strip().lower()
        if parts and "=" in piece and ":" not in piece and name not in ("random", "greedy", "solver", "mcts"):
            parts[-1] += "," + piece.strip()         # a setting of the bot before
        elif piece.strip():
            parts.append(piece.strip())
    return parts


def lineups(bots: list[str], players: int) -> list[tuple[str, ...]]:
    """Every line-up of ``players`` seats with two different bots at least, each in every
    rotation of its seats (see the module docstring)."""
    sets = [c for c in combinations_with_replacement(range(len(bots)), players) if len(set(c)) > 1]
    sets.sort(key=lambda c: (-len(set(c)), c))
    out: list[tuple[str, ...]] = []
    for c in sets:
        seen = set()
        for r in range(players):
            turned = c[r:] + c[:r]
            if turned not in seen:
                seen.add(turned)
                out.append(tuple(bots[i] for i in turned))
    return out


@dataclass
class Tournament:
    """The games of a tournament and what they add up to."""
    spec: str
    mode: Any
    players: int
    bots: list[str]
    seeds: list[int]
    results: list[ratings.Result] = field(default_factory=list)
    longest: dict[str, float] = field(default_factory=dict)     # bot -> its longest move, seconds
    seconds: float = 0.0
    workers: int = 1

    @property
    def wins(self) -> dict:
        return ratings.win_shares(self.results)

    @property
    def head_to_head(self) -> dict:
        return ratings.head_to_head(self.results)

    @property
    def ratings(self) -> list:
        return ratings.ratings(self.results, anchor="random" if "random" in self.bots else None)


def _play(task: tuple[int, tuple[str, ...]]) -> tuple[int, tuple, tuple, frozenset, dict]:
    """One game of the table: its seed, the bot at each seat; the scores, the winners and
    each bot's longest move."""
    seed, lineup = task
    game = workers_.context()
    program, interp, mode, players = game["program"], game["interp"], game["mode"], game["players"]
    seats = interp.seats_for(mode, players)
    names = [s.name for s in seats if s.kind == "player"]
    kinds = dict(zip(names, lineup))
    factory = playing.agent_factory(program, kinds, playing.Seating(), playing.COMMAND_LINE_WORDS)
    try:
        state = playing.play_game(interp, mode.name, players, seed, factory)
    except RulesError as exc:
        exc.seed = seed
        raise
    score, winners = measure.final(state)
    players_ = state.players
    longest: dict[str, float] = {}
    for s, bot in zip(players_, lineup):
        agent = state.agents.get(s.index)
        took = getattr(agent, "longest", 0.0)
        longest[bot] = max(longest.get(bot, 0.0), took)
    return seed, lineup, score, winners, longest


def _made(kit: dict) -> dict:
    return {**kit, "interp": Interpreter(kit["program"])}


def run_tournament(program, spec: str, mode, players: int, bots: list[str], games: int, seed: int = 1,
                   workers: int | None = None, progress: Callable | None = None) -> Tournament:
    """The tournament's games played, ``workers`` processes at once (every core of the
    machine by default; 1: in this process)."""
    table = lineups(bots, players)
    if not table:
        raise BadInputError("the bots named make no line-up of two different bots")
    seeds = list(range(seed, seed + games))
    tasks = [(s, table[i % len(table)]) for i, s in enumerate(seeds)]
    t = Tournament(spec, mode, players, bots, seeds)
    workers = max(1, min(workers or workers_.cores(), games))
    t.workers = workers
    began = time.perf_counter()
    kit = dict(program=program, mode=mode, players=players)
    for _, lineup, score, winners, longest in workers_.results(_play, tasks, workers, kit, _made):
        t.results.append(ratings.Result(lineup, score, winners))
        for bot, took in longest.items():
            t.longest[bot] = max(t.longest.get(bot, 0.0), took)
        if progress:
            progress(f"game {len(t.results)} of {games}", len(t.results) / games)
    t.seconds = time.perf_counter() - began
    return t


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.0f}%"


def tournament_lines(t: Tournament) -> dict[str, list]:
    """The tournament as tables for people: ``ratings`` (rows: bot, rating, 95% interval,
    games, share of wins with its 95% interval, longest move) and ``matrix`` (how often the
    row's bot finished ahead of the column's, with its 95% and 99% intervals)."""
    wins = t.wins
    rows = []
    for r in t.ratings:
        w = wins[r.bot]
        low = "-inf" if math.isinf(r.low95) else f"{r.low95:.0f}"
        high = "+inf" if math.isinf(r.high95) else f"{r.high95:.0f}"
        rows.append([r.bot, f"{r.rating:.0f}", f"{low} to {high}", str(w.trials),
                     f"{_pct(w.value)} ({_pct(w.low95)} to {_pct(w.high95)})",
                     f"{t.longest.get(r.bot, 0.0):.2f} s" if r.bot.startswith("mcts") else "-"])
    h2h = t.head_to_head
    matrix = []
    for a in t.bots:
        line = [a]
        for b in t.bots:
            s = h2h.get((a, b))
            line.append("" if a == b else "-" if s is None or s.value is None else
                        f"{_pct(s.value)} ({_pct(s.low95)}-{_pct(s.high95)} | {_pct(s.low99)}-{_pct(s.high99)})")
        matrix.append(line)
    return {"ratings": rows, "matrix": matrix}


def tournament_data(t: Tournament) -> dict:
    """The tournament as JSON-ready data (docs/json.md)."""
    def share(s: ratings.Share) -> dict:
        return {"value": s.value, "trials": s.trials, "interval95": [s.low95, s.high95],
                "interval99": [s.low99, s.high99]}
    h2h = t.head_to_head
    return {"spec": t.spec, "mode": t.mode.name, "players": t.players, "games": len(t.results),
            "seeds": [t.seeds[0], t.seeds[-1]] if t.seeds else [], "bots": list(t.bots),
            "seconds": round(t.seconds, 2), "workers": t.workers,
            "ratings": [{"bot": r.bot, "rating": round(r.rating, 1),
                         "interval95": [None if math.isinf(r.low95) else round(r.low95, 1),
                                        None if math.isinf(r.high95) else round(r.high95, 1)],
                         "games": r.games} for r in t.ratings],
            "wins": {b: share(s) for b, s in t.wins.items()},
            "ahead": {a: {b: share(s) for (x, b), s in h2h.items() if x == a} for a in t.bots},
            "longest_move": {b: round(v, 3) for b, v in t.longest.items() if v},
            "games_played": [{"seed": s, "bots": list(r.bots), "scores": list(r.scores),
                              "winners": sorted(r.winners)} for s, r in zip(t.seeds, t.results)]}


__all__ = ["DEFAULT_BOTS", "Tournament", "bots_named", "lineups", "run_tournament", "tournament_data",
           "tournament_lines"]
