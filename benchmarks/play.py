"""Games per second with random seats, against the same games played as before the speed-ups;
and what a copy of a game in progress costs against a whole game.

For each game and player count (Darwin's Choice with 3, 4 and 6 players; Ecosystem: Savanna
with 4 players, its two-player version and solo), the same seeded games are played in this
process by two interpreters: one with the speed-ups off (``Interpreter(program, fast=False)``:
the baseline: no memo of definitions, the runtime's functions as they were, the options of a
choice made before it is asked) and one with them on (the default). The seeds are played in
four blocks, each by both sides in turn (ABBA BAAB), so both meet the same games and much the
same load; within a block the games run one after the other, as a study plays them (the side
with the speed-ups in one batch, ``Interpreter.batch``, as a study's games are; ``--one-by-one``:
each game on its own). A side's time is its games' own and what the cycle collector took
between them (a game leaves young values the next thing made may find and walk: they are
the game's cost too). The table gives the games per second of each on one core, the ratio,
and whether every game ended the same (its log of events and its reports); the ratio's 95%
interval comes from the same games drawn again with replacement (each game timed on both
sides: how much the figure depends on which games were played and the load they met).

Then for each case a game is played with its first seat driven from outside
(``compiler/interpret/live.py``), copied at every fifth choice: the table gives the mean
time of a copy and how many copies cost one game. A copy resumes the game's procedures
where they wait (``compiler/interpret/resumable.py``); the functions it resumes them in
are made the first time a game of the program is copied: that once-per-program time is
given under the table, not counted in the copies'.

    .venv/bin/python benchmarks/play.py [--games N] [--only darwin|savanna] [--one-by-one]
"""
from __future__ import annotations

import argparse
import contextlib
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

# (title, spec, players, games a case by default: a Savanna game takes a tenth of a Darwin's
# Choice one, so it plays more for a steady figure)
CASES = [("Darwin's Choice", "spec/darwins_choice", 3, 20),
         ("Darwin's Choice", "spec/darwins_choice", 4, 20),
         ("Darwin's Choice", "spec/darwins_choice", 6, 20),
         ("Ecosystem: Savanna, 2 players", "spec/ecosystem_savanna/variants/two_player.rules", 2, 100),
         ("Ecosystem: Savanna", "spec/ecosystem_savanna", 4, 100),
         ("Ecosystem: Savanna, solo", "spec/ecosystem_savanna/variants/solo.rules", 1, 100)]


def random_seats(seat, seed):
    return RandomAgent(seed * 1_000_003 + seat.index)


class Collections:
    """The time the cycle collector takes outside the timed games (``outside``): a game
    leaves young values that the next thing the process makes may find and walk, so a
    game's collections are not all inside its own timing. A block of games adds what was
    collected between its games to its own time."""

    def __init__(self):
        self.outside = 0.0
        self.in_game = False
        self._began = 0.0

    def __call__(self, phase, info):
        if phase == "start":
            self._began = time.perf_counter()
        elif not self.in_game:
            self.outside += time.perf_counter() - self._began


COLLECTIONS = Collections()


def game(interp: Interpreter, mode: str, players: int, seed: int) -> tuple[float, tuple]:
    """(seconds, what the game did) for one seeded game."""
    COLLECTIONS.in_game = True
    start = time.perf_counter()
    try:
        st = interp.play(mode, players, seed, agent_factory=random_seats)
        took = time.perf_counter() - start
    finally:
        COLLECTIONS.in_game = False
    return took, (repr(st.reports), [(e.kind, e.seat, repr(e.detail)) for e in st.log])


def block(interp: Interpreter, mode: str, players: int, seeds, batch: bool) -> tuple[dict, dict]:
    """(seconds of each game, what each game did) for games played one after the other, as
    a study plays them (in one batch, unless ``batch`` is false): each game's own time and
    its share of what the cycle collector took between them."""
    COLLECTIONS.outside = 0.0
    seconds, played = {}, {}
    with interp.batch() if batch else contextlib.nullcontext():
        for seed in seeds:
            seconds[seed], played[seed] = game(interp, mode, players, seed)
    share = COLLECTIONS.outside / max(1, len(seconds))
    return {seed: took + share for seed, took in seconds.items()}, played


def interval(before: dict, now: dict, rounds: int = 2000, seed: int = 0) -> tuple[float, float]:
    """The 95% interval of the ratio (the games' time before / now), from the same games
    drawn again with replacement (a bootstrap over the seeds: each game is timed on both
    sides, so the pairs stay together). It tells how much the figure depends on which
    games were played and on the moments of load they met."""
    seeds = list(before)
    rng = random.Random(seed)
    ratios = sorted(sum(before[s] for s in drawn) / sum(now[s] for s in drawn)
                    for drawn in ([rng.choice(seeds) for _ in seeds] for _ in range(rounds)))
    return ratios[int(0.025 * rounds)], ratios[int(0.975 * rounds) - 1]


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
    ap.add_argument("--games", type=int, help="games per case (default: 20 of Darwin's Choice, 100 of Savanna)")
    ap.add_argument("--only", choices=("darwin", "savanna"), help="one game's cases only")
    ap.add_argument("--one-by-one", action="store_true",
                    help="each game on its own, not in a batch as a study plays them (Interpreter.batch)")
    args = ap.parse_args()
    gc.callbacks.append(COLLECTIONS)
    print(f"{'game':30} {'players':>7} {'before g/s':>11} {'now g/s':>9} {'ratio':>6} {'95% interval':>12}  "
          f"{'same games':10} {'copy ms':>8} {'copies/game':>12}")
    once = {}
    for title, spec, players, games in CASES:
        n = args.games or games
        if args.only and args.only not in spec:
            continue
        gc.collect()            # (the last case's interpreters and memos go now, not during a timed game)
        program = load(ROOT / spec)
        mode = next(m for m, info in program.modes.items() if info.min_players <= players <= info.max_players)
        sides = {False: Interpreter(program, fast=False), True: Interpreter(program, fast=True)}
        for interp in sides.values():         # warm up: first calls, the memos' trials
            for seed in range(1000, 1003):
                game(interp, mode, players, seed)
        seconds: dict = {False: {}, True: {}}     # side -> seed -> seconds
        played = {False: {}, True: {}}
        # four blocks of games a side, in turn (ABBA BAAB): the same seeds for both, so both
        # meet the same games and much the same load; within a block the games run one after
        # the other, as a study's do
        cut = [n * k // 4 for k in range(5)]
        for r, seeds in enumerate(range(a, b) for a, b in zip(cut, cut[1:]) if b > a):
            for fast in ((False, True) if r in (0, 3) else (True, False)):
                took, games = block(sides[fast], mode, players, seeds, not args.one_by_one)
                seconds[fast].update(took)
                played[fast].update(games)
        same = played[False] == played[True]
        start = time.perf_counter()
        sides[True].resumable()
        once.setdefault(spec, time.perf_counter() - start)
        gc.collect()            # (the games' garbage goes now, not during a timed copy)
        spent, made = 0.0, 0
        for seed in range(max(1, n // 2)):
            s, m = copies(sides[True], mode, players, seed)
            spent, made = spent + s, made + m
        per_copy = spent / made
        before, now = sum(seconds[False].values()), sum(seconds[True].values())
        low, high = interval(seconds[False], seconds[True])
        print(f"{title:30} {players:>7} {n / before:>11.1f} {n / now:>9.1f} "
              f"{before / now:>5.2f}x {f'{low:.2f}-{high:.2f}x':>12}  {'yes' if same else 'NO':10} "
              f"{per_copy * 1000:>8.2f} {now / n / per_copy:>12.1f}")
        if not same:
            return 1
    for spec, took in once.items():
        print(f"{spec}: the functions copies resume in made in {took * 1000:.0f} ms, once per program")
    return 0


if __name__ == "__main__":
    sys.exit(main())
