"""Running CP-SAT and reading its answer.

In:  a ``cp_model.CpSolver`` and a model (the encoder's); after solving, symbolic
     values (``solver.symbolic``).
Out: CP-SAT's status (``STATUS`` names it) with whether Ctrl-C stopped the search;
     the values the solver chose (``read_value``, ``read_int``).
"""
from __future__ import annotations

import threading

from ortools.sat.python import cp_model

from rulewright.compiler.semantics import runtime as rt

from rulewright.solver.symbolic import BoardV, BoolV, CaseV, EnumV, IntV, ListV, ScoreV, SetV

STATUS = {cp_model.OPTIMAL: "OPTIMAL", cp_model.FEASIBLE: "FEASIBLE",
          cp_model.INFEASIBLE: "INFEASIBLE", cp_model.UNKNOWN: "UNKNOWN",
          cp_model.MODEL_INVALID: "MODEL_INVALID"}


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
