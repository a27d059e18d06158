"""A query's CP-SAT model: the encoder run over its statements, its objective (a
number or a tuple ranked left to right), symmetry breaking, and the solver settings
measured for the kind of model it is.

In:  a checked program, a query name, its inputs, maybe a game position.
Out: the encoder (with its model), the environment, the objective; ``BuildTimeout``
     past the deadline.
"""
from __future__ import annotations

import math
from typing import Any


from rulewright.compiler import ir as I
from rulewright.compiler.diagnostics import NotSupportedError
from rulewright.compiler.interpret import interpreter_for

from rulewright.solver.encode import Encoder
from rulewright.solver.solving import read_int
from rulewright.solver.symbolic import IntV
from rulewright.solver.symmetry import break_symmetries

def build(program: I.Program, name: str, inputs: dict[str, Any], symmetry: bool = True,
          options: dict | None = None, state: Any = None, explain: bool = False,
          deadline: float | None = None):
    """The CP-SAT model of a query; ``BuildTimeout`` past ``deadline`` (a perf_counter time)."""
    query = program.queries[name]
    enc = Encoder(program, state=state)
    enc.deadline = deadline
    enc.inputs = dict(inputs)
    enc.explain = explain
    if state is not None:
        enc.interp = interpreter_for(program)
        enc.product_terms = 2
        enc.relaxation = False          # POSITION_PARAMS: linearization_level 0
    for key, value in (options or {}).items():
        setattr(enc, key, value)
    env, objective, sense = enc.run_query(query, inputs)
    if objective is None:
        return enc, env, None, None, 0
    obj = Lexicographic([enc.intv(c) for c in objective]) if isinstance(objective, tuple) \
        else enc.intv(objective)
    if isinstance(obj, IntV) or (isinstance(obj, Lexicographic) and obj.symbolic):
        if sense == "maximize":
            enc.model.maximize(obj.expr())
        else:
            enc.model.minimize(obj.expr())
    sym_count = break_symmetries(enc, query) if symmetry else 0
    enc.add_pair_marginals()
    return enc, env, objective, obj, sym_count


# Measured with benchmarks/queries.py: CP-SAT's presolve rewrites the model's
# inequalities into clauses its default linear relaxation then leaves out; without
# presolve and with the full linearization, the "max_lp" worker keeps the relaxation
# (a bound of 117 instead of 471 on the first benchmark instance).
SOLVER_PARAMS = {"cp_model_presolve": False, "linearization_level": 2}


SUBSOLVERS = ["max_lp", "quick_restart"]


# Measured with benchmarks/darwin_queries.py: queries about a game position are small
# models whose decisions (a few cards, an option per branch) propagate well; CP-SAT's
# presolve, probing and linear relaxation cost more than they save there (median
# 35 ms against 190 ms with the settings above, one worker, 36 positions). The SAT
# inprocessing (vivification, clause cleanup between restarts) costs most of what is
# left on these searches of a few hundred branches (solving alone, on two positions
# of the position benchmark: 10 against 29 ms, 28 against 143 ms).
POSITION_PARAMS = {"cp_model_presolve": False, "linearization_level": 0, "cp_model_probing_level": 0,
                   "use_sat_inprocessing": False}


POSITION_SUBSOLVERS = ["no_lp", "quick_restart_no_lp"]


def solver_settings(enc, state) -> tuple[dict, list]:
    """The CP-SAT parameters and workers for a model: those measured for a position, for
    a grid chosen whole (the settings above), and CP-SAT's own for any other query
    without a position. (Those grid settings left a query of nested sums over a chosen
    herd, 1,710 variables, UNKNOWN after 5 s; CP-SAT's defaults prove it optimal in
    0.5 s: tests/solver/test_fuzz_queries.py.)"""
    if state is not None:
        return POSITION_PARAMS, POSITION_SUBSOLVERS
    if enc.boards:
        return SOLVER_PARAMS, SUBSOLVERS
    return {}, []


class Lexicographic:
    """A tuple of numbers optimised left to right (the first, then the next among
    the answers equal on the first...): one weighted sum for CP-SAT, each place's
    weight above what all the places after it can span, so the sum orders answers as
    the tuples do."""

    def __init__(self, parts: list):
        self.parts = parts
        self.symbolic = any(not isinstance(p, int) for p in parts)   # else known whatever the choices
        self.lows = [p if isinstance(p, int) else p.lb for p in parts]
        spans = [(p if isinstance(p, int) else p.ub) - lo + 1 for p, lo in zip(parts, self.lows)]
        self.weights = [1] * len(parts)
        for i in range(len(parts) - 2, -1, -1):
            self.weights[i] = self.weights[i + 1] * spans[i + 1]
        if self.weights[0] * spans[0] > 2 ** 53:
            raise NotSupportedError(f"the numbers of this tuple objective span {' x '.join(map(str, spans))} "
                                    "values: too many for one weighted sum; optimise fewer or narrower numbers")

    def expr(self):
        return sum(w * (p if isinstance(p, int) else p.expr()) for w, p in zip(self.weights, self.parts))

    def read(self, solver) -> tuple:
        return tuple(read_int(solver, p) for p in self.parts)

    def bound(self, solver, sense: str) -> tuple:
        """CP-SAT's bound on the sum, as the tuple it stands for: no answer is better."""
        raw = solver.best_objective_bound
        left = (math.floor(raw) if sense == "maximize" else math.ceil(raw)) - \
            sum(w * lo for w, lo in zip(self.weights, self.lows))
        out = []
        for i, (w, lo) in enumerate(zip(self.weights, self.lows)):
            digit = left // w if i < len(self.weights) - 1 else left
            out.append(lo + digit)
            left -= digit * w
        return tuple(out)
