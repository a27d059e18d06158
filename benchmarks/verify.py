"""rulewright verify on both games with the defaults: the time of each check and the total,
against a baseline run in the same process (loading and compiling the spec, and playing
one seeded game of its first mode: what any command does before it can answer).

Each game is verified twice: every question asked afresh (``fresh=True``: the time a
designer waits the first time), then again with nothing changed (the answers kept by the
first run: the time of a second run). Targets: Darwin's Choice within 60 s and Ecosystem:
Savanna within 20 s with the defaults on a 2-core machine (earlier: each under 2 minutes);
a property proved over Ecosystem: Savanna's whole box within 60 s.

    .venv/bin/python benchmarks/verify.py [--games 50] [--positions 3] [--time-limit 10]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulewright.compiler import load                          # noqa: E402
from rulewright.compiler.interpret import Interpreter         # noqa: E402
from rulewright.solver.verify.run import verify               # noqa: E402

SPECS = ["spec/ecosystem_savanna", "spec/darwins_choice"]
TARGETS = {"spec/ecosystem_savanna": 20, "spec/darwins_choice": 60}        # seconds


def baseline(spec: str) -> float:
    started = time.perf_counter()
    program = load(ROOT / spec)
    mode = next(iter(program.modes.values()))
    Interpreter(program).play(mode.name, mode.min_players, 1)
    return time.perf_counter() - started


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--positions", type=int, default=3)
    ap.add_argument("--time-limit", type=float, default=10.0)
    args = ap.parse_args()
    for spec in SPECS:
        base = baseline(spec)
        started = time.perf_counter()
        program = load(ROOT / spec)
        report = verify(program, spec, time_limit=args.time_limit, games=args.games, positions=args.positions,
                        fresh=True)
        total = time.perf_counter() - started
        s = report.summary()
        target = TARGETS[spec]
        print(f"{spec}: verify {total:.1f} s ({total / base:.0f}x the baseline of {base:.2f} s: load and one game); "
              f"target {target} s: {'met' if total < target else 'NOT met'}")
        for check, seconds in s["seconds_by_check"].items():
            print(f"  {check:12} {seconds:7.1f} s")
        print("  findings: " + ", ".join(f"{n} {k}" for k, n in s["by_status"].items() if n))
        for f in report.findings:
            if f.check == "property":
                print(f"  property {f.definition}: {f.status} in {f.seconds:.1f} s")
        started = time.perf_counter()
        again = verify(load(ROOT / spec), spec, time_limit=args.time_limit, games=args.games,
                       positions=args.positions)
        took = time.perf_counter() - started
        print(f"  again, nothing changed: {took:.1f} s ({total / took:.1f}x faster; {again.recalled} of "
              f"{again.asked} questions answered as the first run answered them, games "
              f"{'not played again' if again.games_recalled else 'played again'})")


if __name__ == "__main__":
    main()
