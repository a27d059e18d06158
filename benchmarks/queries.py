"""Time to prove the solver queries of Ecosystem: Savanna, against local search.

For each instance the CP-SAT query runs with a time limit; the table gives its
status, the best score found, the proven bound and the seconds. The baseline is
what a user without a solver would do: simulated annealing through the
interpreter for the same wall time (it finds scores, never proves them).

    python benchmarks/queries.py [--arrangement-limit 10] [--max-limit 60] [--workers 2]
"""
from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

from rulewright.compiler import load
from rulewright.compiler.semantics import runtime as rt
from rulewright.compiler.interpret import Interpreter
from rulewright.solver.queries import run_query

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "spec" / "ecosystem_savanna"


def instances(program):
    deck = [k for k in program.enums["card"].values for _ in range(program.enums["card"].attrs["count"][k])]
    out = [("rulebook (Margot's cards)", tuple((ROOT / "examples" / "margot.cards").read_text().split()))]
    for seed in (1, 2, 3):
        out.append((f"random draw, seed {seed}", tuple(random.Random(seed).sample(deck, 20))))
    rich = ["gazelle"] * 5 + ["cheetah"] * 3 + ["vulture"] * 3 + ["hyena"] * 3 + ["lion"] * 2 + \
        ["prairie"] * 4
    out.append(("predators and prey", tuple(rich)))
    return out


def anneal(interp, cards, seconds, seed=0, box=None):
    """Simulated annealing over arrangements (swaps; with ``box``, also card changes)."""
    rng = random.Random(seed)
    cells = [(r, c) for r in range(4) for c in range(5)]
    pool = list(cards)
    rng.shuffle(pool)
    grid = dict(zip(cells, pool))
    counts = {}
    if box:
        for k in box:
            counts[k] = counts.get(k, 0) + 1

    def value(g):
        return int(interp.call("score", rt.Board("ecosystem", 4, 5, True, g), ()))

    cur = best = value(grid)
    temp, end = 4.0, time.perf_counter() + seconds
    kinds = sorted(counts)
    while time.perf_counter() < end:
        new = dict(grid)
        if box and rng.random() < 0.3:
            cell, card = rng.choice(cells), rng.choice(kinds)
            new[cell] = card
            if sum(1 for v in new.values() if v == card) > counts[card]:
                continue
        else:
            a, b = rng.sample(cells, 2)
            new[a], new[b] = grid[b], grid[a]
        v = value(new)
        if v >= cur or rng.random() < math.exp((v - cur) / temp):
            grid, cur = new, v
            best = max(best, v)
        temp = max(0.3, temp * 0.9997)
    return best


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--arrangement-limit", type=float, default=10.0)
    ap.add_argument("--max-limit", type=float, default=60.0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--skip-max", action="store_true")
    args = ap.parse_args(argv)
    program = load(SPEC)
    interp = Interpreter(program)
    rows = []
    for name, cards in instances(program):
        a = run_query(program, "best_arrangement", {"cards": cards}, time_limit=args.arrangement_limit,
                      workers=args.workers)
        base = anneal(interp, cards, a.seconds)
        rows.append(("best-arrangement", name, a, base))
        print_row(rows[-1], flush=True)
    if not args.skip_max:
        box = [k for k in program.enums["card"].values for _ in range(program.enums["card"].attrs["count"][k])]
        a = run_query(program, "max_score", {}, time_limit=args.max_limit, workers=args.workers)
        base = anneal(interp, random.Random(0).sample(box, 20), a.seconds, box=box)
        rows.append(("max-score", "the whole box", a, base))
        print_row(rows[-1], flush=True)
    print()
    print("| query | instance | status | best score | proven bound | seconds | local search, same time |")
    print("|---|---|---|---|---|---|---|")
    for q, name, a, base in rows:
        print(f"| {q} | {name} | {a.status} | {a.objective} | {a.bound} | {a.seconds:.1f} | {base} |")
    return 0


def print_row(row, flush=False):
    q, name, a, base = row
    print(f"{q:17} {name:28} {a.status:9} score {a.objective} bound {a.bound} {a.seconds:6.1f}s "
          f"(local search: {base})", flush=flush)


if __name__ == "__main__":
    sys.exit(main())
