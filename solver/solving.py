"""Running CP-SAT and reading its answer.

In:  a ``cp_model.CpSolver`` and a model (the encoder's); after solving, symbolic
     values (``solver.symbolic``).
Out: CP-SAT's status (``STATUS`` names it) with whether Ctrl-C stopped the search;
     the values the solver chose (``read_value``, ``read_int``).

The solve plan (``plan``, ``limit``): how the phases of a query (a short first solve,
the local search for a good grid, the solve with what is left) spend their budgets.
``wall``, the default: each phase has seconds on the clock, so what a phase reaches
depends on the machine and its load. ``deterministic`` (``RULEWRIGHT_SOLVE_PLAN=
deterministic``; the test suite sets it): each phase has a budget of work that no load
changes: CP-SAT's deterministic time (its own count of work, in units meant to be
about a second) with a fixed random seed, and the local search a number of grids
tried; the clock then only bounds the whole query, the user's time limit. ``steady``
(what ``verify`` uses unless ``RULEWRIGHT_SOLVE_PLAN`` says otherwise): the deterministic
plan with the clock's bound at four times the limit, so that a busy machine still does
the same work and reaches the same verdict, only later. Neither
plan changes what an answer means: OPTIMAL and INFEASIBLE only when the search
closed, else the best found with its bound.
"""
from __future__ import annotations

import contextlib
import contextvars
import os
import threading
from dataclasses import dataclass

from ortools.sat.python import cp_model

from rulewright.compiler.semantics import runtime as rt

from rulewright.solver.symbolic import BoardV, BoolV, CaseV, EnumV, IntV, ListV, ScoreV, SetV

STATUS = {cp_model.OPTIMAL: "OPTIMAL", cp_model.FEASIBLE: "FEASIBLE",
          cp_model.INFEASIBLE: "INFEASIBLE", cp_model.UNKNOWN: "UNKNOWN",
          cp_model.MODEL_INVALID: "MODEL_INVALID"}

PLAN_VARIABLE = "RULEWRIGHT_SOLVE_PLAN"


@dataclass(frozen=True)
class Plan:
    """A solve plan (see the module's docstring). Under the deterministic plan a phase of
    S seconds has ``work_per_second`` x S units of CP-SAT's deterministic time (each
    worker), and the local search tries ``steps_per_second`` x S grids: about what an
    unloaded two-core machine does in S seconds (measured on the shipped games' queries:
    half a unit a second a worker; 7,000 to 9,000 grids a second), so a phase takes about
    the time the wall plan gives it there, and the same work anywhere. ``seed``:
    CP-SAT's random seed (its own default: the plans differ only in their budgets)."""
    name: str
    deterministic: bool
    seed: int = 1
    work_per_second: float = 0.5
    steps_per_second: int = 5000
    outer: float = 1.0          # the clock's bound: the time limit times this (a slow machine's margin)


WALL = Plan("wall", False)
DETERMINISTIC = Plan("deterministic", True)
# verify's plan: its verdicts do not change with the machine's load; the work of the time
# limit is done however busy the machine is, the clock stopping it at 4 times the limit only
STEADY = Plan("steady", True, outer=4.0)

_CHOSEN: contextvars.ContextVar = contextvars.ContextVar("solve_plan", default=None)


def plan() -> Plan:
    """The solve plan in force: ``RULEWRIGHT_SOLVE_PLAN`` (``wall``, ``deterministic`` or
    ``steady``; read at each query, so a test may set it), else the one a caller chose
    (``using``), else ``wall``."""
    name = os.environ.get(PLAN_VARIABLE, "").strip().lower()
    named = {"wall": WALL, "deterministic": DETERMINISTIC, "steady": STEADY}.get(name)
    return named or _CHOSEN.get() or WALL


@contextlib.contextmanager
def using(chosen: Plan):
    """``with using(plan):`` the questions asked inside follow ``plan`` (unless
    ``RULEWRIGHT_SOLVE_PLAN`` names another)."""
    token = _CHOSEN.set(chosen)
    try:
        yield chosen
    finally:
        _CHOSEN.reset(token)


def limit(solver, seconds: float, clock: float | None = None, least: float = 0.1) -> None:
    """Sets the budget of one CP-SAT phase: ``seconds``, the phase's share of the query's
    time; ``clock``, the seconds on the clock past which it may not go (None: its
    ``seconds``); ``least``, the fewest seconds on the clock it is given. Under the wall
    plan the phase stops after ``seconds`` on the clock; under the deterministic plan
    after the work of ``seconds`` (``Plan``), with a fixed random seed, or at ``clock`` on
    the clock if the machine is that much slower."""
    chosen = plan()
    if not chosen.deterministic:
        solver.parameters.max_time_in_seconds = max(least, seconds)
        return
    solver.parameters.max_deterministic_time = max(0.01, seconds * chosen.work_per_second)
    solver.parameters.max_time_in_seconds = max(least, (seconds if clock is None else clock) * chosen.outer)
    solver.parameters.random_seed = chosen.seed


def solve_stoppably(solver, model) -> tuple[int, bool]:
    """CP-SAT's status for ``model``, and whether Ctrl-C stopped the search. CP-SAT's
    own catching of SIGINT is turned off: it takes the signal from Python for the rest
    of the process (a later Ctrl-C is then lost, or worse). Instead, in the main thread,
    the search runs on a thread of its own while the main thread waits, where Python
    sees Ctrl-C; the search is then stopped and its best answer kept."""
    solver.parameters.catch_sigint_signal = False
    if threading.current_thread() is not threading.main_thread():
        return solver.solve(model), False
    out: list = []
    done = threading.Event()    # (not Thread.join: Ctrl-C inside it can mark a running thread ended)

    def run():
        try:
            out.append(solver.solve(model))
        except BaseException as exc:            # given back to the caller's thread
            out.append(exc)
        finally:
            done.set()
    threading.Thread(target=run, name="cp-sat", daemon=True).start()
    interrupted = False
    while not done.is_set():
        try:
            done.wait(0.1 if interrupted else 0.5)
        except KeyboardInterrupt:
            interrupted = True
        if interrupted:                 # again until it ends: a search not yet set up ignores it
            solver.stop_search()
    if isinstance(out[0], BaseException):
        raise out[0]
    return out[0], interrupted


def solve_or_stop(solver, model) -> int:
    """``solve_stoppably`` for a phase that Ctrl-C ends (KeyboardInterrupt once the
    search has stopped): explanations and the local search's own solves."""
    code, interrupted = solve_stoppably(solver, model)
    if interrupted:
        raise KeyboardInterrupt
    return code


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
    if isinstance(v, ListV):
        return tuple(read_value(solver, x) for g, x in v.items if _true(solver, g))
    if isinstance(v, EnumV):
        return next((k for k, lit in v.lits.items() if _true(solver, lit)), None)
    if isinstance(v, (IntV, BoolV)):
        return read_int(solver, v)
    return v
