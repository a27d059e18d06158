"""What a bot's branch costs: the game copied at the choice its rules ask the bot's seat,
resumed where its procedures run, against the same branch rolled forward along the
game's history (the way before), in the same process.

For each case, seeded games are played with random seats; at every third choice of the
first seat, the branch a bot looks ahead from (``compiler/play/branching.at_choice``:
the seat's view dealt again) is made both ways, one after the other. The table gives
the mean time of each, their ratio, and how many resumed branches cost one game. Every
pair is checked to stand at the same choice of the same seat, with as many options
(tests/interpret/test_resumable.py checks branches value by value).

    .venv/bin/python benchmarks/branching.py [--games 6]
"""
from __future__ import annotations

import argparse
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
from rulewright.compiler.play.branching import at_choice  # noqa: E402

CASES = [("Darwin's Choice", "spec/darwins_choice", 3),
         ("Darwin's Choice", "spec/darwins_choice", 4),
         ("Ecosystem: Savanna", "spec/ecosystem_savanna", 4),
         ("Ecosystem: Savanna, solo", "spec/ecosystem_savanna/variants/solo.rules", 1)]

_RESUMED = Live.branched


def _replayed(cls, *args):
    return None             # (at_choice then rolls a new game forward along the history)


class Prober(RandomAgent):
    """A random seat that, at every third choice, makes the branch a bot would, both ways."""

    def __init__(self, seed: int):
        super().__init__(seed)
        self.n = 0
        self.took = {True: 0.0, False: 0.0}
        self.made = 0

    def choose(self, name, options, state, seat):
        self.n += 1
        if self.n % 3 == 0 and len(options) > 1:
            stood = []
            for resumed in (True, False):
                Live.branched = _RESUMED if resumed else classmethod(_replayed)
                deal = random.Random(self.n)
                start = time.perf_counter()
                b = at_choice(state, name, seat, options, deal)
                self.took[resumed] += time.perf_counter() - start
                stood.append(None if b is None else (b.asked.name, b.seat, len(b.options)))
            Live.branched = _RESUMED
            state.interp.use(state)
            if stood[0] != stood[1] or stood[0] is None:
                raise SystemExit(f"the two branches differ: {stood}")
            self.made += 1
        return super().choose(name, options, state, seat)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=6, help="games per case (default 6)")
    args = ap.parse_args()
    print(f"{'game':26} {'players':>7} {'rolled forward ms':>18} {'resumed ms':>11} {'ratio':>7} "
          f"{'branches/game':>14}")
    for title, spec, players in CASES:
        program = load(ROOT / spec)
        mode = next(m for m, info in program.modes.items() if info.min_players <= players <= info.max_players)
        interp = Interpreter(program)
        interp.resumable()          # (made once per program)
        probers, plain = [], 0.0
        for seed in range(args.games):
            start = time.perf_counter()
            interp.play(mode, players, seed)
            plain += time.perf_counter() - start

            def seats(seat, s):
                if seat.index == 0:
                    probers.append(Prober(s))
                    return probers[-1]
                return RandomAgent(s * 1_000_003 + seat.index)
            interp.play(mode, players, seed, agent_factory=seats)
        made = sum(p.made for p in probers)
        took = {k: sum(p.took[k] for p in probers) / made for k in (True, False)}
        print(f"{title:26} {players:>7} {took[False] * 1000:>18.2f} {took[True] * 1000:>11.2f} "
              f"{took[False] / took[True]:>6.1f}x {plain / args.games / took[True]:>14.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
