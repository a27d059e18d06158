"""Games per second with random seats, against the same games played as before the speed-ups;
and what a copy of a game in progress costs against a whole game.

For each game and player count (Darwin's Choice with 3, 4 and 6 players; Ecosystem: Savanna
with 4 players, its two-player version and solo), the same seeded games are played in this
process by two interpreters: one with the speed-ups off (``Interpreter(program, fast=False)``:
the baseline: no memo of definitions, the runtime's functions as they were, the options of a
choice made before it is asked) and one with them on (the default). Each seed is played by
both, one after the other, so both meet the same load, each side first on every other seed
(the second of two games in a row runs a few per cent faster). The table gives the games per second
of each on one core, the ratio, and whether every game ended the same (its log of events and
its reports).

Then for each case a game is played with its first seat driven from outside
(``compiler/interpret/live.py``), copied at every fifth choice: the table gives the mean
time of a copy and how many copies cost one game. A copy resumes the game's procedures
where they wait (``compiler/interpret/resumable.py``); the functions it resumes them in
are made the first time a game of the program is copied: that once-per-program time is
given under the table, not counted in the copies'.

    .venv/bin/python benchmarks/play.py [--games 20] [--only darwin|savanna]
"""
from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulewright.compiler import load  # noqa: E402
from rulewright.compiler.interpret import RandomAgent  # noqa: E402
from rulewright.compiler.interpret.interpreter import Interpreter  # noqa: E402
from rulewright.compiler.interpret.live import Live  # noqa: E402

CASES = [("Darwin's Choice", "spec/darwins_choice", 3),
         ("Darwin's Choice", "spec/darwins_choice", 4),
         ("Darwin's Choice", "spec/darwins_choice", 6),
         ("Ecosystem: Savanna, 2 players", "spec/ecosystem_savanna/variants/two_player.rules", 2),
         ("Ecosystem: Savanna", "spec/ecosystem_savanna", 4),
         ("Ecosystem: Savanna, solo", "spec/ecosystem_savanna/variants/solo.rules", 1)]


def random_seats(seat, seed):
    return RandomAgent(seed * 1_000_003 + seat.index)


def game(interp: Interpreter, mode: str, players: int, seed: int) -> tuple[float, tuple]:
    """(seconds, what the game did) for one seeded game."""
    start = time.perf_counter()
    st = interp.play(mode, players, seed, agent_factory=random_seats)
    took = time.perf_counter() - start
    return took, (repr(st.reports), [(e.kind, e.seat, repr(e.detail)) for e in st.log])


def copies(interp: Interpreter, mode: str, players: int, seed: int) -> tuple[float, int]:
    """(total seconds, number) of copies of a game taken at every fifth choice of its first seat."""
    live = Live(interp, mode, players, seed)        # (its first seat played from here)
    rng = random.Random(seed)
    spent, n, made = 0.0, 0, 0
    while not live.finished:
        if made % 5 == 0:
            start = time.perf_counter()
            live.copy()
            spent += time.perf_counter() - start
            n += 1
        live.apply(live.options[rng.randrange(len(live.options))])
        made += 1
    return spent, n


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20, help="games per case (default 20)")
    ap.add_argument("--only", choices=("darwin", "savanna"), help="one game's cases only")
    args = ap.parse_args()
    print(f"{'game':30} {'players':>7} {'before g/s':>11} {'now g/s':>9} {'ratio':>6}  {'same games':10} "
          f"{'copy ms':>8} {'copies/game':>12}")
    once = {}
    for title, spec, players in CASES:
        if args.only and args.only not in spec:
            continue
        gc.collect()            # (the last case's interpreters and memos go now, not during a timed game)
        program = load(ROOT / spec)
        mode = next(m for m, info in program.modes.items() if info.min_players <= players <= info.max_players)
        sides = {False: Interpreter(program, fast=False), True: Interpreter(program, fast=True)}
        for interp in sides.values():         # warm up: first calls, the memos' trials
            for seed in range(1000, 1003):
                game(interp, mode, players, seed)
        seconds = {False: 0.0, True: 0.0}
        same = True
        for seed in range(args.games):
            played = {}
            # in turn, each side first on every other seed: the second of two games in a row
            # runs 3% to 6% faster (two identical interpreters measured so)
            for fast in ((False, True) if seed % 2 == 0 else (True, False)):
                took, played[fast] = game(sides[fast], mode, players, seed)
                seconds[fast] += took
            same = same and played[False] == played[True]
        n = args.games
        start = time.perf_counter()
        sides[True].resumable()
        once.setdefault(spec, time.perf_counter() - start)
        gc.collect()            # (the games' garbage goes now, not during a timed copy)
        spent, made = 0.0, 0
        for seed in range(max(1, n // 2)):
            s, m = copies(sides[True], mode, players, seed)
            spent, made = spent + s, made + m
        per_copy = spent / made
        print(f"{title:30} {players:>7} {n / seconds[False]:>11.1f} {n / seconds[True]:>9.1f} "
              f"{seconds[False] / seconds[True]:>5.2f}x  {'yes' if same else 'NO':10} "
              f"{per_copy * 1000:>8.2f} {seconds[True] / n / per_copy:>12.1f}")
        if not same:
            return 1
    for spec, took in once.items():
        print(f"{spec}: the functions copies resume in made in {took * 1000:.0f} ms, once per program")
    return 0


if __name__ == "__main__":
    sys.exit(main())
