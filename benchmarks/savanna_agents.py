"""Ecosystem: Savanna with the solver agent: how a seat taking best-pick at every pick
scores, against the same games played by random agents only.

For each seed the same game is played twice in this process: every seat random
(the baseline), then with seat 1 taking the answer of best-pick at every pick (the
other seats random, with the same seeds). The table gives seat 1's score in both, the
best score of the other seats, and the seconds the solver seat spent asking; the
summary gives the medians, seat 1's wins, and the median seconds per question. The
solo game is played the same way (the margin over Jhay instead of a score).

    .venv/bin/python benchmarks/savanna_agents.py [--games 10] [--players 4]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulewright.compiler import load  # noqa: E402
from rulewright.compiler.interpret import RandomAgent  # noqa: E402
from rulewright.solver.agent import SolverAgent  # noqa: E402
from rulewright.solver.queries import interpreter_for  # noqa: E402


class TimedAgent(SolverAgent):
    """The solver agent, timing its questions."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.seconds: list[float] = []

    def ask(self, state, seat):
        t = time.perf_counter()
        try:
            return super().ask(state, seat)
        finally:
            self.seconds.append(time.perf_counter() - t)


def play(prog, mode: str, players: int, seed: int, solver_seat: bool):
    agents: list[TimedAgent] = []

    def factory(seat, s):
        if solver_seat and seat.index == 0:
            agents.append(TimedAgent(prog, "best_pick", s, time_limit=30))
            return agents[-1]
        return RandomAgent(s)

    st = interpreter_for(prog).play(mode, players, seed, agent_factory=factory)
    return st, (agents[0].seconds if agents else [])


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--players", type=int, default=4)
    args = ap.parse_args()
    spec = ROOT / "spec" / "ecosystem_savanna"
    runs = [("standard", load(spec), args.players), ("solo", load(spec / "variants" / "solo.rules"), 1)]
    for mode, prog, players in runs:
        it = interpreter_for(prog)
        rows, asked = [], []
        what = "margin over Jhay" if mode == "solo" else "score"
        print(f"{mode}, {players} player(s): seat 1's {what}, every seat random, then seat 1 by best-pick")
        print()
        if mode == "solo":
            print("| seed | all random | seat 1 by best-pick | seconds asking |")
            print("|---|---|---|---|")
        else:
            print("| seed | all random: seat 1 | best other | seat 1 by best-pick | best other | seconds asking |")
            print("|---|---|---|---|---|---|")
        for seed in range(1, args.games + 1):
            results = []
            for solver_seat in (False, True):
                st, seconds = play(prog, mode, players, seed, solver_seat)
                if mode == "solo":
                    results.append((int(st.reports["margin"]), None))
                else:
                    scores = {s: int(it.call("final_score", s, state=st)) for s in st.seats}
                    me = scores[st.seats[0]]
                    results.append((me, max(v for s, v in scores.items() if s != st.seats[0])))
                if solver_seat:
                    asked.extend(seconds)
                    spent = sum(seconds)
            rows.append(results)
            if mode == "solo":
                print(f"| {seed} | {results[0][0]} | {results[1][0]} | {spent:.1f} |", flush=True)
            else:
                print(f"| {seed} | {results[0][0]} | {results[0][1]} | {results[1][0]} | {results[1][1]} | "
                      f"{spent:.1f} |", flush=True)
        print()
        random_med = statistics.median(r[0][0] for r in rows)
        solver_med = statistics.median(r[1][0] for r in rows)
        if mode == "solo":
            wins = sum(1 for r in rows if r[1][0] >= 55)
            print(f"median margin: all random {random_med}, seat 1 by best-pick {solver_med}; "
                  f"wins (55 or more) by best-pick: {wins} of {len(rows)}")
        else:
            wins = sum(1 for r in rows if r[1][0] > r[1][1])
            print(f"median score of seat 1: all random {random_med}, by best-pick {solver_med}; "
                  f"seat 1 by best-pick won {wins} of {len(rows)} games outright")
        print(f"best-pick: {len(asked)} questions, median {statistics.median(asked) * 1000:.0f} ms, "
              f"longest {max(asked) * 1000:.0f} ms")
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
