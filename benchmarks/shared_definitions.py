"""A repeated part of a rule written out twice against written once as a definition.

Two scorings of a chosen 3 x 4 grid of three card types score the square of every
connected group of each type, in two steps (the second doubles the first). The
baseline writes the groups out in both steps; the other calls one definition,
``squares(g, k)``, from both, which the encoder encodes once per argument (the same
chosen grid, the same card). Both queries must find the same optimum; the model
sizes and the median times (model building, solving and the replay) are printed,
with the ratio baseline / definition, measured in this process.

    .venv/bin/python benchmarks/shared_definitions.py [--runs 3]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulewright.compiler import load  # noqa: E402
from rulewright.solver.queries import run_query  # noqa: E402

SPEC = '''game g "G"
enum card { a, b, c }
grid board: 3 by 4 of card
relation adjacent = offsets((-1, 0), (1, 0), (0, -1), (0, 1))
def squares(g: board, k: card) = sum(size(h) * size(h) for h in groups({x in cells(g) if g[x] == k}, adjacent))
scoring written_out(g: board) {
  step all = sum(sum(size(h) * size(h) for h in groups({x in cells(g) if g[x] == k}, adjacent)) for k in card)
  step again = sum(2 * sum(size(h) * size(h) for h in groups({x in cells(g) if g[x] == k}, adjacent)) for k in card)
}
scoring named(g: board) {
  step all = sum(squares(g, k) for k in card)
  step again = sum(2 * squares(g, k) for k in card)
}
query baseline "Written out" { choose g: board where full(g)  maximize written_out(g) }
query shared "As a definition" { choose g: board where full(g)  maximize named(g) }
'''


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "g.rules"
        path.write_text(SPEC)
        program = load(path)
        rows = {}
        for query in ("baseline", "shared"):
            times, answer = [], None
            for _ in range(args.runs):
                started = time.perf_counter()
                answer = run_query(program, query, {}, time_limit=120, workers=2)
                times.append(time.perf_counter() - started)
            assert answer.status == "OPTIMAL" and answer.replayed, (query, answer.status)
            rows[query] = (answer.objective, answer.stats["variables"], answer.stats["constraints"],
                           statistics.median(times))
    if rows["baseline"][0] != rows["shared"][0]:
        print(f"the two optima differ: {rows['baseline'][0]} and {rows['shared'][0]}")
        return 1
    print(f"{'':14} {'optimum':>8} {'variables':>10} {'constraints':>12} {'median s':>9}")
    for name, (obj, var, con, sec) in rows.items():
        print(f"{name:14} {obj:>8} {var:>10,} {con:>12,} {sec:>9.2f}")
    b, s = rows["baseline"], rows["shared"]
    print(f"ratio written out / definition: variables {b[1] / s[1]:.2f}x, time {b[3] / s[3]:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
