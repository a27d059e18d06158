"""Scoring throughput: the spec's interpreter against a hand-written Python scorer.

Three scorers score the same 1,000 random grids (20 cards drawn from the 132-card box,
seeded) in the same process, in turn round by round: the spec's generated code, the
hand-written scorer (the baseline, handwritten_scorer.py), and the spec's own way of
scoring written by hand with nothing general about it (indexed_scorer.py: the most that
way can give in Python, no step budget). The table gives each one's median time per
grid over the rounds and its ratio against the baseline, with the least and the most of
the rounds' own ratios. Every grid's total and breakdown are checked to agree before
timing.

    python benchmarks/scoring.py [--grids N] [--rounds R] [--seed S]
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import handwritten_scorer  # noqa: E402
import indexed_scorer  # noqa: E402

from rulewright.compiler import load  # noqa: E402
from rulewright.compiler.semantics import runtime as rt  # noqa: E402
from rulewright.compiler.interpret import Interpreter  # noqa: E402

SPEC = Path(__file__).resolve().parent.parent / "spec" / "ecosystem_savanna"


def random_grids(program, n: int, seed: int):
    rng = random.Random(seed)
    deck = [k for k in program.enums["card"].values for _ in range(program.enums["card"].attrs["count"][k])]
    grids = []
    for _ in range(n):
        cards = rng.sample(deck, 20)
        grids.append([cards[r * 5:(r + 1) * 5] for r in range(4)])
    return grids


def per_grid(fn, make_items) -> float:
    """Time per item of one round; the items are made afresh for every round (outside the
    timing), so nothing one round computes on them helps the next."""
    items = make_items()
    start = time.perf_counter()
    for item in items:
        fn(item)
    return (time.perf_counter() - start) / len(items)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--grids", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args(argv)
    program = load(SPEC)
    interp = Interpreter(program)
    grids = random_grids(program, args.grids, args.seed)
    def make_boards():
        return [rt.Board("ecosystem", 4, 5, True, {(r, c): g[r][c] for r in range(4) for c in range(5)})
                for g in grids]

    def make_grids():
        return [[list(row) for row in g] for g in grids]

    def make_cards():
        return [{(r, c): g[r][c] for r in range(4) for c in range(5)} for g in grids]

    boards = make_boards()
    for g, b, cards in zip(grids, boards, make_cards()):
        total, parts, _ = handwritten_scorer.score(g)
        s = interp.call("score", b, ())
        assert int(s) == total and dict(s.steps) == parts, (g, dict(s.steps), parts)
        assert indexed_scorer.score(cards) == (total, parts), (g, parts)
    score_fn = interp.ns["s_score"]
    scorers = [("rulewright interpreter (spec)", lambda b: score_fn(1, None, b, ()), make_boards),
               ("hand-written Python (baseline)", handwritten_scorer.score, make_grids),
               ("the spec's way, by hand", indexed_scorer.score, make_cards)]
    # the scorers in turn, round by round, each round in another order (each round's
    # scorers meet much the same load)
    times: list[list[float]] = [[] for _ in scorers]
    for r in range(args.rounds):
        order = list(range(len(scorers)))
        order = order[r % len(order):] + order[:r % len(order)]
        for side in order:
            _, fn, make = scorers[side]
            times[side].append(per_grid(fn, make))
    base = times[1]
    base_t = statistics.median(base)
    print(f"Scoring {args.grids} random grids, median of {args.rounds} rounds (all totals agree)")
    print(f"{'scorer':32} {'per grid':>10} {'grids/s':>9}  ratio (baseline time / its time)")
    for (name, _, _), ts in zip(scorers, times):
        t = statistics.median(ts)
        ratios = sorted(h / x for h, x in zip(base, ts))
        ratio = "" if ts is base else (f"  {base_t / t:.2f}x (round by round, "
                                       f"from {ratios[0]:.2f}x to {ratios[-1]:.2f}x)")
        print(f"{name:32} {t * 1e6:8.1f}us {1 / t:9.0f}{ratio}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
