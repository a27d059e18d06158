"""How strong the bots are: fixed seeds, each case's games on every core.

Cases (each line of the table: games, the share the bot under test won with its 95%
interval, the share a seat would win by chance, its longest move against its budget):

- Darwin's Choice, two players (the Two-player Version): ``mcts`` against ``random``,
  then against ``greedy``;
- Darwin's Choice, four players: ``mcts`` against three ``greedy`` seats;
- Ecosystem: Savanna, four players: ``mcts`` against three ``greedy`` seats;
- Ecosystem: Savanna solo: the margin over Jhay of ``mcts`` and of the ``solver`` seat,
  seed by seed;
- the ladder: a tournament of ``random``, ``greedy``, ``solver`` and ``mcts`` in each game
  (three players), its ratings with their intervals.

The bot under test sits at each seat in turn (game ``i`` puts it at seat ``i mod
players``). ``--quick`` plays fewer games and a smaller budget (a few minutes).

    .venv/bin/python benchmarks/bots.py [--quick] [--only darwin|savanna] [--workers N]
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulewright.api import load  # noqa: E402
from rulewright.app import playing, ratings, tournament  # noqa: E402
from rulewright.app.bots import bot_named, make_agent  # noqa: E402
from rulewright.compiler.interpret import RandomAgent  # noqa: E402
from rulewright.solver.agent import SolverAgent, playing_queries  # noqa: E402

DARWIN = "spec/darwins_choice"
DARWIN_TWO = "spec/darwins_choice/variants/two_player.rules"
SAVANNA = "spec/ecosystem_savanna"
SAVANNA_SOLO = "spec/ecosystem_savanna/variants/solo.rules"

_GAMES: dict = {}


def _game(spec: str):
    if spec not in _GAMES:
        _GAMES[spec] = load(spec)
    return _GAMES[spec]


def _agent(program, bot: str, seed: int):
    b = bot_named(bot, "bot")
    if b.kind == "solver":
        return SolverAgent(program, playing_queries(program)[0], seed, time_limit=10.0, workers=1)
    if b.kind == "random":
        return RandomAgent(seed)
    return make_agent(b, seed)


def one_game(task):
    """(spec, players, seed, bots by seat) -> (bots, scores, winner seats, longest move of each seat)."""
    spec, players, seed, lineup = task
    game = _game(spec)
    mode = next(m for m in game.program.modes.values() if m.min_players <= players <= m.max_players)

    def factory(seat, s):
        return _agent(game.program, lineup[seat.index], s * 1_000_003 + seat.index)
    state = playing.play_game(game.interpreter, mode.name, players, seed, factory)
    seats = state.players
    score = state.reports.get("score") or {}
    scores = tuple(float(int(score.get(s, 0))) for s in seats)
    won = state.reports.get("winners") or ()
    winners = frozenset(i for i, s in enumerate(seats) if s in won)
    longest = tuple(getattr(state.agents.get(s.index), "longest", 0.0) for s in seats)
    extra = {}
    if players == 1:            # solo: the margin over the automaton
        auto = [s for s in state.seats if s.kind != "player"]
        extra["margin"] = scores[0] - max(float(int(score.get(a, 0))) for a in auto) if auto else scores[0]
    return lineup, scores, winners, longest, extra


def _run(pool, tasks):
    if pool is None:
        return [one_game(t) for t in tasks]
    return pool.map(one_game, tasks, chunksize=1)


def against(pool, title: str, spec: str, players: int, bot: str, others: str, games: int, budget: float | None):
    tasks = []
    for i in range(games):
        lineup = [others] * players
        lineup[i % players] = bot
        tasks.append((spec, players, 1000 + i, tuple(lineup)))
    began = time.perf_counter()
    out = _run(pool, tasks)
    won = 0.0
    longest = 0.0
    for lineup, scores, winners, moves, _ in out:
        i = lineup.index(bot)
        won += (1.0 / len(winners)) if i in winners else 0.0
        longest = max(longest, moves[i])
    s = ratings.share(won, games)
    over = f"{longest:.2f} s" + (f" ({longest / budget:.0%} of {budget} s)" if budget else "")
    print(f"| {title} | {games} | {s.value:.0%} ({s.low95:.0%} to {s.high95:.0%}) | {1 / players:.0%} | {over} | "
          f"{time.perf_counter() - began:.0f} s |", flush=True)


def solo(pool, bots: list[str], games: int):
    for bot in bots:
        tasks = [(SAVANNA_SOLO, 1, 2000 + i, (bot,)) for i in range(games)]
        out = _run(pool, tasks)
        margins = [extra["margin"] for *_, extra in out]
        mean = sum(margins) / len(margins)
        sd = (sum((m - mean) ** 2 for m in margins) / max(1, len(margins) - 1)) ** 0.5
        half = 1.96 * sd / len(margins) ** 0.5
        print(f"| Ecosystem: Savanna solo, {bot} | {games} | margin over Jhay {mean:+.1f} "
              f"({mean - half:+.1f} to {mean + half:+.1f}) | | | |", flush=True)


def ladder(spec: str, bots: list[str], players: int, games: int, workers: int):
    game = _game(spec)
    mode = next(m for m in game.program.modes.values() if m.min_players <= players <= m.max_players)
    t = tournament.run_tournament(game.program, spec, mode, players, bots, games, seed=3000, workers=workers)
    print(f"\n{spec}, {players} players, {games} games, {t.seconds:.0f} s:")
    print("| bot | rating (95% interval) | share of wins (95% interval) | longest move |")
    print("|---|---|---|---|")
    wins = t.wins
    for r in t.ratings:
        w = wins[r.bot]
        print(f"| {r.bot} | {r.rating:.0f} ({r.low95:.0f} to {r.high95:.0f}) | {w.value:.0%} "
              f"({w.low95:.0%} to {w.high95:.0%}) | {t.longest.get(r.bot, 0.0):.2f} s |", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer games, a smaller budget")
    ap.add_argument("--only", choices=["darwin", "savanna"])
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()
    q = args.quick
    dt, st = (0.2, 0.1) if q else (1.0, 0.5)
    dmcts, smcts = f"mcts:time={dt}", f"mcts:time={st}"
    n = (lambda full, quick: quick if q else full)
    print(f"bots.py: {'quick' if q else 'full'} run, {args.workers} process(es)\n")
    print("| case | games | won by the bot (95% interval) | by chance | its longest move | took |")
    print("|---|---|---|---|---|---|")
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(args.workers) if args.workers > 1 else _Nothing() as pool:
        if args.only != "darwin":
            against(pool, f"Ecosystem: Savanna, 4 players: {smcts} against 3 greedy", SAVANNA, 4, smcts, "greedy",
                    n(12, 4), st)
            against(pool, f"Ecosystem: Savanna, 4 players: {smcts} against 3 random", SAVANNA, 4, smcts, "random",
                    n(8, 4), st)
            solo(pool, [smcts, "solver", "greedy"], n(6, 3))
        if args.only != "savanna":
            against(pool, f"Darwin's Choice, 2 players: {dmcts} against random", DARWIN_TWO, 2, dmcts, "random",
                    n(6, 2), dt)
            against(pool, f"Darwin's Choice, 2 players: {dmcts} against greedy", DARWIN_TWO, 2, dmcts, "greedy",
                    n(6, 2), dt)
            against(pool, f"Darwin's Choice, 4 players: {dmcts} against 3 greedy", DARWIN, 4, dmcts, "greedy",
                    n(4, 2), dt)
    if args.only != "darwin":
        ladder(SAVANNA, ["random", "greedy", "solver", smcts], 3, n(24, 8), args.workers)
    if args.only != "savanna":
        ladder(DARWIN, ["random", "greedy", "solver", dmcts], 3, n(8, 4), args.workers)


class _Nothing:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


if __name__ == "__main__":
    main()
