"""Darwin's Choice queries: CP-SAT against brute force through the interpreter.

For hands of 10, 14 and 20 cards, 4 and 5 biomes in play and 0, 6 and 12 species
already on the table (positions taken from a seeded five-player game at its third
Evaluation; with 4 biomes the species of the fifth move to the others; player 1's
hand drawn at random from the catalogue), each query is answered by the solver
(median of the runs, model building, solving and the witness replay included) and
by the baseline in the same process (the median of as many runs when it takes under
a second): every option the play rules offer (the spec's creations,
single_mutations, changes / double_seconds, destinations), each valued through the
interpreter (tests/darwin_brute.py). Both must find the same optimum. The summary
gives medians per hand size, and the medians at 10 cards and 5 biomes, where the
absolute target is stated.

Where the solver's time goes: the share spent building the model, and, measured on
one more build and solve of the same model outside the timed runs, "CP-SAT alone":
the time spent inside OR-Tools' model calls while building (new variables and
constraints) plus CP-SAT's solve. No encoder, however fast, can answer in less, so
brute force / CP-SAT alone is the most any encoder of these models could reach (the
"ceiling" column); the rest of the solver's time is the encoder's own Python.

    .venv/bin/python benchmarks/darwin_queries.py [--runs 3] [--quick]

--quick leaves out the 20-card hands (their brute force takes minutes).
"""
from __future__ import annotations

import argparse
import collections
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import darwin_brute as B  # noqa: E402
from rulewright.compiler import load  # noqa: E402
from rulewright.compiler.play import state_io
from rulewright.solver.queries import interpreter_for, objective_text, run_query  # noqa: E402


def base_position(prog, seed: int = 2) -> dict:
    """A five-player game at its third Evaluation: 12 species on the 5 biomes."""
    played = interpreter_for(prog).play("standard", 5, seed, stop_at="evaluation:3")
    return state_io.dump(played, seed=seed)


def position(prog, doc: dict, cards: int, biomes: int, species: int, rng: random.Random):
    doc = json.loads(json.dumps(doc))
    s = doc["state"]
    s["in_play"] = s["in_play"][:biomes]
    for i, w in enumerate(s["world"]):          # species of a biome left out move to the others
        if w["home"] not in s["in_play"]:
            w["home"] = s["in_play"][i % biomes]
    s["world"] = s["world"][:species]
    for w in s["world"]:
        w["acted"] = False
    if s["world"]:
        s["world"][0]["owner"] = "p1"          # a species of the player, for best-mutation
    s["current_event"] = None
    # at an Evaluation every player has passed; player 1, asked about, is given the
    # Era's next turn (a main action, not mid-turn)
    doc["per_seat"]["passed"]["p1"] = False
    s["to_move"] = "p1"
    s["acted_this_turn"] = s["created_this_turn"] = False
    names = list(prog.enums["animal_card"].values)
    doc["per_seat"]["hand"]["p1"] = rng.sample(names, cards)
    return state_io.load(interpreter_for(prog), "<bench>", doc, json.dumps(doc)), len(s["world"])


def position_solver():
    """A CP-SAT solver with the settings of queries on a position, one worker."""
    from ortools.sat.python import cp_model

    from rulewright.solver.build import POSITION_PARAMS
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    for key, value in POSITION_PARAMS.items():
        setattr(solver.parameters, key, value)
    return solver


def cp_sat_floor(runs: int = 50) -> float:
    """The least a query can cost: a model of one variable built and solved with the
    position settings, one worker (median seconds)."""
    from ortools.sat.python import cp_model
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        model = cp_model.CpModel()
        model.maximize(model.new_bool_var("x"))
        position_solver().solve(model)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


class ModelCallTimer:
    """Times what is spent inside OR-Tools' model-building calls (CpModel.new_*,
    add*, maximize/minimize, Constraint.only_enforce_if) while it is entered, less
    the cost of the timing wrapper itself. Restores the methods on exit."""

    def __enter__(self):
        from ortools.sat.python import cp_model
        self.seconds = 0.0
        self.calls = 0
        self.saved = []
        targets = [(cp_model.CpModel, m) for m in dir(cp_model.CpModel)
                   if m.startswith(("new_", "add", "maximize", "minimize"))]
        targets.append((cp_model.Constraint, "only_enforce_if"))
        for cls, name in targets:
            original = cls.__dict__.get(name)
            if original is None or not callable(original):
                continue
            self.saved.append((cls, name, original))
            setattr(cls, name, self._timed(original))
        self.overhead = self._wrapper_cost()
        return self

    def _timed(self, fn):
        def call(*args, **kwargs):
            t = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.seconds += time.perf_counter() - t
                self.calls += 1
        return call

    def _wrapper_cost(self, n: int = 20000) -> float:
        """What the wrapper itself adds inside the timed part, per call (measured
        around a function that does nothing; subtracting it errs toward a smaller
        OR-Tools time, so toward a higher ceiling)."""
        empty = self._timed(lambda: None)
        for _ in range(n):
            empty()
        per_call = self.seconds / n
        self.seconds, self.calls = 0.0, 0
        return per_call

    def inside(self) -> float:
        return max(0.0, self.seconds - self.calls * self.overhead)

    def __exit__(self, *exc):
        for cls, name, original in self.saved:
            setattr(cls, name, original)
        return False


def cp_sat_alone(prog, name: str, inputs: dict, pos, runs: int) -> float:
    """Median over runs of: the time inside OR-Tools' model calls while the query's
    model is built, plus CP-SAT's solve of that model (one worker, the position
    settings)."""
    from rulewright.solver.queries import build, with_defaults
    inputs = with_defaults(prog, name, inputs, pos)
    times = []
    for _ in range(runs):
        with ModelCallTimer() as calls:
            enc, *_ = build(prog, name, inputs, state=pos)
        solver = position_solver()
        t = time.perf_counter()
        solver.solve(enc.model)
        times.append(calls.inside() + time.perf_counter() - t)
    return statistics.median(times)


def timed(fn):
    t = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - t


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args()
    prog = load(ROOT / "spec" / "darwins_choice")
    it = interpreter_for(prog)
    doc = base_position(prog)
    rng = random.Random(2026)
    rows = []
    rules_times: dict = collections.defaultdict(list)   # cards -> (play rules' list, solver) per best-create
    most = it.call("most_species_cards")
    print(f"CP-SAT floor (a one-variable model built and solved, one worker): {cp_sat_floor() * 1000:.2f} ms")
    print()
    print("| cards | biomes | species | query | optimum | solver (median) | of which building | CP-SAT alone "
          "| brute force | speed-up | ceiling |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for cards in ([10, 14] if args.quick else [10, 14, 20]):
        for biomes in (4, 5):
            for species in (0, 6, 12):
                pos, n = position(prog, doc, cards, biomes, species, rng)
                p = pos.seats[0]
                queries = [("best-create", "best_create", {}, lambda: B.best(B.create_options(it, pos, p, "points")))]
                if n:
                    sid = pos.shared["world"][0].f_id
                    queries.append(("best-mutation", "best_mutation", {"species": sid},
                                    lambda sid=sid: B.best(B.mutation_options(it, pos, p, sid, "points"))))
                queries.append(("best-move", "best_move", {}, lambda: B.best_move(it, pos, p, "points")))
                for label, name, extra, brute in queries:
                    times, builds = [], []
                    answer = None
                    for _ in range(args.runs):
                        answer, sec = timed(lambda: run_query(prog, name, {"player": p, "objective": "points", **extra},
                                                              state=pos, time_limit=60, workers=args.workers,
                                                              reasons=False))
                        times.append(sec)
                        builds.append(answer.stats["build_seconds"] / sec)
                    best, brute_sec = timed(brute)
                    if brute_sec < 1.0:         # short: its median over the runs, like the solver's
                        brute_sec = statistics.median([brute_sec] + [timed(brute)[1] for _ in range(args.runs - 1)])
                    solver_value = answer.objective if answer.status == "OPTIMAL" else None
                    if best is None:            # a position with nothing to play measures nothing
                        print(f"NO MOVE {label} {cards}/{biomes}/{n}: the position offers player 1 no option "
                              f"({answer.status})", file=sys.stderr)
                        return 1
                    if label == "best-create":
                        # the play rules' own list (groups of at most most_species_cards), for comparison
                        listed = lambda: B.best(B.create_options(it, pos, p, "points", rules_list=True))  # noqa: E731
                        same, rules_sec = timed(listed)
                        if rules_sec < 1.0:
                            rules_sec = statistics.median([rules_sec] + [timed(listed)[1] for _ in range(args.runs - 1)])
                        if same != best:
                            print(f"MISMATCH {label} {cards}/{biomes}/{n}: the play rules' list gives {same}, "
                                  f"every sub-collection {best}", file=sys.stderr)
                            return 1
                        rules_times[cards].append((rules_sec, statistics.median(times)))
                    if solver_value != best:
                        print(f"MISMATCH {label} {cards}/{biomes}/{n}: solver {solver_value} ({answer.status}), "
                              f"brute force {best}", file=sys.stderr)
                        return 1
                    med = statistics.median(times)
                    share = statistics.median(builds)
                    alone = cp_sat_alone(prog, name, {"player": p, "objective": "points", **extra}, pos, args.runs)
                    rows.append((cards, biomes, n, label, med, brute_sec, share, alone))
                    print(f"| {cards} | {biomes} | {n} | {label} | {objective_text(best)} | {med * 1000:.0f} ms | {share:.0%} | "
                          f"{alone * 1000:.1f} ms | {brute_sec * 1000:.0f} ms | {brute_sec / med:.1f}x | "
                          f"{brute_sec / alone:.0f}x |", flush=True)
    print()
    for label in ("best-create", "best-mutation", "best-move"):
        for cards in sorted({r[0] for r in rows}):
            sel = [r for r in rows if r[3] == label and r[0] == cards]
            if sel:
                print(f"{label} at {cards} cards: solver median {statistics.median(r[4] for r in sel) * 1000:.0f} ms, "
                      f"brute force median {statistics.median(r[5] for r in sel) * 1000:.0f} ms, "
                      f"speed-up median {statistics.median(r[5] / r[4] for r in sel):.1f}x, "
                      f"building the model {statistics.median(r[6] for r in sel):.0%} of the solver's time, "
                      f"CP-SAT alone median {statistics.median(r[7] for r in sel) * 1000:.1f} ms, "
                      f"ceiling median {statistics.median(r[5] / r[7] for r in sel):.0f}x")
    for cards, pairs in rules_times.items():
        if pairs:
            print(f"best-create at {cards} cards from the play rules' own list (creations: groups of at most "
                  f"{most} cards) instead of every sub-collection: median {statistics.median(r for r, _ in pairs) * 1000:.0f} ms, "
                  f"solver speed-up over it median {statistics.median(r / s for r, s in pairs):.1f}x")
    print()
    # the absolute target is stated at 10 cards and 5 biomes
    for label in ("best-create", "best-mutation", "best-move"):
        sel = [r for r in rows if r[3] == label and r[0] == 10 and r[1] == 5]
        if sel:
            print(f"{label} at 10 cards and 5 biomes: solver median {statistics.median(r[4] for r in sel) * 1000:.0f} ms "
                  f"over {len(sel)} positions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
