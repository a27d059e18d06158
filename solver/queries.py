"""Queries: a spec's ``query`` blocks answered with CP-SAT, every answer replayed.

In:  a checked program, a query name, its inputs, a time limit and a worker count.
Out: an ``Answer``: status (OPTIMAL, FEASIBLE, INFEASIBLE, UNKNOWN), objective,
     best bound, the witness (every choice of the query and of the scorings it
     calls), the seconds spent and the replay verdict.

Before an answer is returned its witness is replayed through the interpreter:
every ``where`` and ``require`` must hold and the interpreter's objective for
the witness must equal the solver's; otherwise the answer is an error, never a
silently wrong number.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from ortools.sat.python import cp_model

from compiler import ir as I
from compiler import runtime as rt
from compiler.diagnostics import NotSupportedError, RulesError

from .encode import Encoder
from .symbolic import BoardV, BoolV, CaseV, EnumV, IntV, ScoreV, SetV, Sym
from .symmetry import break_symmetries

STATUS = {cp_model.OPTIMAL: "OPTIMAL", cp_model.FEASIBLE: "FEASIBLE",
          cp_model.INFEASIBLE: "INFEASIBLE", cp_model.UNKNOWN: "UNKNOWN",
          cp_model.MODEL_INVALID: "MODEL_INVALID"}


class ReplayError(RulesError):
    """The interpreter disagrees with a solver answer (a bug, reported rather than returned)."""


@dataclass
class Answer:
    query: str
    status: str
    objective: int | None
    bound: int | None
    witness: dict[str, Any]
    breakdown: dict[str, Any]
    seconds: float
    replayed: bool
    time_limit: float
    workers: int
    stats: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        from .cli import jsonable
        return {"query": self.query, "status": self.status, "objective": self.objective,
                "bound": self.bound, "witness": {k: jsonable(v) for k, v in self.witness.items()},
                "breakdown": jsonable(self.breakdown), "seconds": round(self.seconds, 3),
                "replayed": self.replayed, "time_limit": self.time_limit, "workers": self.workers,
                **({"model": self.stats} if self.stats else {})}

    def to_text(self) -> str:
        from .cli import board_lines, text_value
        lines = [f"{self.query}: {self.status}"]
        if self.status == "INFEASIBLE":
            lines.append("  no choice satisfies the query's conditions")
        if self.status == "UNKNOWN":
            lines.append(f"  no answer within the time limit ({self.time_limit:g} s); "
                         f"best bound {self.bound}")
        if self.objective is not None:
            proof = "proven optimal" if self.status == "OPTIMAL" else f"best bound {self.bound}"
            lines.append(f"  objective: {self.objective} ({proof})")
        for name, value in self.witness.items():
            if isinstance(value, rt.Board):
                marked = set()
                for v in self.witness.values():
                    if isinstance(v, tuple):
                        marked |= {x for x in v if isinstance(x, tuple) and len(x) == 2}
                lines.append(f"  {name}:")
                lines.extend("  " + ln for ln in board_lines(value, marked))
            else:
                lines.append(f"  {name.replace('_', ' ')}: {text_value(value)}")
        for name, steps in self.breakdown.items():
            if isinstance(steps, dict):
                lines.append(f"  {name}: " + ", ".join(f"{k} {v}" for k, v in steps.items()))
        lines.append(f"  {self.seconds:.2f} s, {self.workers} worker(s)"
                     + (", witness replayed by the interpreter" if self.replayed else ""))
        return "\n".join(lines)


def build(program: I.Program, name: str, inputs: dict[str, Any], symmetry: bool = True,
          options: dict | None = None):
    query = program.queries[name]
    enc = Encoder(program)
    for key, value in (options or {}).items():
        setattr(enc, key, value)
    env, objective, sense = enc.run_query(query, inputs)
    if objective is None:
        raise NotSupportedError(f"query '{name}' has no objective", query.node.span)
    obj = enc.intv(objective)
    if isinstance(obj, IntV):
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


def run_query(program: I.Program, name: str, inputs: dict[str, Any], time_limit: float = 60.0,
              workers: int = 2, symmetry: bool = True, hint_seconds: float | None = None,
              log: bool = False, params: dict | None = None) -> Answer:
    started = time.perf_counter()
    enc, env, objective, obj, sym_count = build(program, name, inputs, symmetry)

    def solve(seconds: float):
        solver = cp_model.CpSolver()
        solver.parameters.max_time_in_seconds = max(0.1, seconds)
        solver.parameters.num_workers = int(workers)
        solver.parameters.log_search_progress = log
        for key, value in SOLVER_PARAMS.items():
            setattr(solver.parameters, key, value)
        if 1 < workers <= len(SUBSOLVERS):
            solver.parameters.subsolvers.extend(SUBSOLVERS[:workers])
        for key, value in (params or {}).items():
            setattr(solver.parameters, key, value)
        return solver, solver.solve(enc.model)

    def left() -> float:
        return float(time_limit) - (time.perf_counter() - started)

    # A short solve settles small questions; only then is local search worth it.
    solver, status_code = solve(min(1.0, 0.1 * time_limit))
    hinted = None
    if status_code not in (cp_model.OPTIMAL, cp_model.INFEASIBLE) and left() > 0.5:
        if hint_seconds is None:
            hint_seconds = min(20.0, 0.5 * left())
        if isinstance(obj, IntV) and hint_seconds > 0:
            from .hints import local_search_hint
            hinted = local_search_hint(enc, program, program.queries[name], inputs, hint_seconds)
        solver, status_code = solve(left())
    seconds = time.perf_counter() - started
    status = STATUS.get(status_code, "UNKNOWN")
    if status == "MODEL_INVALID":
        raise NotSupportedError(f"internal: the CP-SAT model of '{name}' is invalid: "
                                f"{enc.model.validate()}")
    stats = {"variables": len(enc.model.proto.variables), "constraints": len(enc.model.proto.constraints),
             "symmetries_broken": sym_count, "hint_objective": hinted}
    witness: dict[str, Any] = {}
    breakdown: dict[str, Any] = {}
    objective_value = bound = None
    replayed = False
    if status in ("OPTIMAL", "FEASIBLE"):
        for choice in enc.choices:
            if choice.scoring is None:
                witness[choice.name] = read_value(solver, choice.value)
        for score in enc.scorings:
            if score.steps:
                breakdown[score.name] = {k: read_int(solver, v) for k, v in score.steps.items()}
                for cname, cval in score.choices.items():
                    witness[cname] = read_value(solver, cval)
        objective_value = read_int(solver, obj)
        bound = int(round(solver.best_objective_bound)) if isinstance(obj, IntV) else objective_value
        replay(program, name, inputs, witness, objective_value)
        replayed = True
    elif status == "UNKNOWN" and isinstance(obj, IntV):
        bound = int(round(solver.best_objective_bound))
    return Answer(name, status, objective_value, bound, witness, breakdown, seconds, replayed,
                  float(time_limit), int(workers), stats)


# ---------------------------------------------------------------- reading values
def read_int(solver: cp_model.CpSolver, v) -> int:
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int):
        return v
    if isinstance(v, ScoreV):
        return read_int(solver, v.total)
    if isinstance(v, BoolV):
        return int(solver.boolean_value(v.lit))
    return int(solver.value(v.expr()))


def _true(solver, lit) -> bool:
    return lit if isinstance(lit, bool) else solver.boolean_value(lit)


def read_value(solver: cp_model.CpSolver, v):
    if isinstance(v, BoardV):
        cards = {}
        for cell, e in v.cells.items():
            value = next(k for k, lit in e.lits.items() if _true(solver, lit))
            if value is not None:
                cards[cell] = value
        return rt.Board(v.grid.name, v.grid.rows, v.grid.cols, v.grid.floating, cards)
    if isinstance(v, CaseV):
        for lit, value in v.cases:
            if _true(solver, lit):
                return value
        return None
    if isinstance(v, SetV):
        return tuple(x for x, lit in v.members.items() if _true(solver, lit))
    if isinstance(v, EnumV):
        return next((k for k, lit in v.lits.items() if _true(solver, lit)), None)
    if isinstance(v, (IntV, BoolV)):
        return read_int(solver, v)
    return v


# ---------------------------------------------------------------- replay
def interpret_query(interp, query: I.QueryDef, inputs: dict[str, Any], values: dict[str, Any],
                    forced: dict | None = None) -> tuple[int | None, str | None, Any]:
    """Walk a query's statements with the interpreter for given choices.

    Returns (objective, problem, span): the objective's value when every choice is an
    option and every ``where`` and ``require`` holds, else None and what failed."""
    env: dict[str, Any] = {}
    for st in query.body:
        if isinstance(st, I.Input):
            env[st.name] = inputs[st.name]
        elif isinstance(st, I.Let):
            env[st.name] = interp.evaluate(st.value, env)
        elif isinstance(st, I.Choose):
            value = values.get(st.name)
            if st.domain == "element" and value not in rt.as_tuple(interp.evaluate(st.coll, env)):
                return None, f"{st.name} {value!r} is not an option", st.span
            env[st.name] = value
            if st.where is not None and not interp.evaluate(st.where, env):
                return None, f"{st.name} breaks its 'where' condition", st.span
        elif isinstance(st, I.Require):
            if not interp.evaluate(st.cond, env):
                return None, "the answer breaks a 'require'", st.span
        elif isinstance(st, I.Objective):
            return int(interp.evaluate(st.value, env, forced=forced)), None, st.span
    return None, "the query has no objective", query.node.span


def replay(program: I.Program, name: str, inputs: dict[str, Any], witness: dict[str, Any],
           claimed: int) -> None:
    """Check a solver witness with the interpreter; raise ``ReplayError`` on any disagreement."""
    from compiler.interpret import Interpreter
    interp = Interpreter(program)
    query = program.queries[name]
    chosen = {c.name for c in query.body if isinstance(c, I.Choose)}
    forced = {k: v for k, v in witness.items() if k not in chosen}
    with_witness, problem, span = interpret_query(interp, query, inputs, witness, forced)
    if problem is not None:
        raise ReplayError(f"replay: the solver's {problem}", span)
    if with_witness != claimed:
        raise ReplayError(f"replay: the interpreter scores the solver's witness {with_witness}, "
                          f"the solver claims {claimed}", span)
    best_inner, _, _ = interpret_query(interp, query, inputs, witness)
    sense = next(s.sense for s in query.body if isinstance(s, I.Objective))
    if (sense == "maximize" and best_inner > claimed) or (sense == "minimize" and best_inner < claimed):
        raise ReplayError(f"replay: with better choices inside the score the witness scores "
                          f"{best_inner}, not {claimed}", span)
