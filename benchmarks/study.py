"""How fast a balance study plays: games a second per core, the speed-up of two processes
over one, and a Ray cluster against this machine, in the same run.

Cases (each a study of a house rule against its base game, both rule sets counted):

- Darwin's Choice, four players (``darwin_cs_5_3_1`` against ``darwins_choice``) and
  Ecosystem: Savanna, four players (``savanna_one_direction`` against
  ``ecosystem_savanna``): random seats on one process, then the same games on two
  processes (the ratio: the speed-up), then greedy seats (skill games) on one process;
- the Savanna study on a Ray cluster started here (``--ray local``, when Ray is installed)
  against the same study on two local processes.

Then the sizes the targets ask for: 10,000 four-player Darwin's Choice games with random
seats on this machine, and a 1,000,000-game study on 16 cores, from the measured rates.
Every figure is measured in this run; the machine's other load moves them.

    .venv/bin/python benchmarks/study.py [--games N] [--no-ray]
"""
from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulewright.app import studying  # noqa: E402
from rulewright.app.opening import Request, open_spec  # noqa: E402

CASES = {
    "Darwin's Choice": ("spec/house_rules/darwin_cs_5_3_1.rules", "spec/darwins_choice"),
    "Ecosystem: Savanna": ("spec/house_rules/savanna_one_direction.rules", "spec/ecosystem_savanna"),
}


def _sides(house: str, base: str) -> list:
    return [studying.Side(p, open_spec(Request(str(ROOT / p)))) for p in (house, base)]


def _rate(sides, plan, **how) -> tuple[float, float]:
    """(games a second, seconds) of one study."""
    began = time.perf_counter()
    study = studying.run_study(sides, plan, **how)
    took = time.perf_counter() - began
    return len(study.records) / took, took


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=60, help="random games a rule set (default 60)")
    ap.add_argument("--greedy", type=int, default=2, help="greedy (skill) games a rule set (default 2)")
    ap.add_argument("--no-ray", action="store_true", help="leave out the Ray case")
    args = ap.parse_args()
    print(f"{'case':<34} {'games':>6} {'seconds':>8} {'games/s':>8}  ratio")
    rates, pair = {}, {}            # games/s: one process, two processes
    for title, (house, base) in CASES.items():
        sides = _sides(house, base)
        plan = studying.Plan("standard", 4, args.games, 1)
        one, t1 = _rate(sides, plan, workers=1)
        two, t2 = _rate(sides, plan, workers=2)
        rates[title] = one
        pair[title] = two
        n = 2 * args.games
        print(f"{title + ', random, 1 process':<34} {n:>6} {t1:>8.1f} {one:>8.1f}  1.00")
        print(f"{title + ', random, 2 processes':<34} {n:>6} {t2:>8.1f} {two:>8.1f}  {two / one:.2f} (speed-up)")
        skill = studying.Plan("standard", 4, 0, 1, skill_games=args.greedy)
        g, tg = _rate(sides, skill, workers=1)
        print(f"{title + ', greedy seat, 1 process':<34} {2 * args.greedy:>6} {tg:>8.1f} {g:>8.2f}  "
              f"{g / one:.3f} (of random)")
    if not args.no_ray:
        try:
            import ray  # noqa: F401  (the Ray case only where Ray is installed)
        except ImportError:
            print("Ray: not installed (pip install 'rulewright[ray]'): no Ray case")
        else:
            sides = _sides(*CASES["Ecosystem: Savanna"])
            plan = studying.Plan("standard", 4, args.games, 1)
            local, tl = _rate(sides, plan, workers=2)
            on_ray, tr = _rate(sides, plan, ray="local")
            print(f"{'Savanna, 2 local processes':<34} {2 * args.games:>6} {tl:>8.1f} {local:>8.1f}  1.00")
            print(f"{'Savanna, Ray (local cluster)':<34} {2 * args.games:>6} {tr:>8.1f} {on_ray:>8.1f}  "
                  f"{on_ray / local:.2f} (start-up included)")
    print()
    both = pair["Darwin's Choice"]
    print(f"10,000 four-player Darwin's Choice games, random seats, 2 cores: about {10_000 / both / 60:.1f} min "
          f"(measured {both:.1f} games/s on two processes; target 10 min)")
    for title, rate in rates.items():       # (cores as fast as this one, each playing as one process does)
        print(f"1,000,000 {title} games: about {1_000_000 / (16 * rate) / 60:.0f} min on 16 cores; "
              f"{math.ceil(1_000_000 / (rate * 3600))} cores for an hour (target: within an hour)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
