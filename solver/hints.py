"""Good first answers for the solver: local search through the interpreter.

In:  an encoded query (its encoder, the chosen grids and other choices) and a
     time budget.
Out: a complete solution hint for the CP-SAT model, or nothing.

Generic: a first feasible answer comes from CP-SAT itself (no objective, a short
limit); then the grids the query chooses whole are improved by simulated
annealing, each candidate checked and scored by the interpreter (swap two cells,
or put another card on one cell; a candidate that breaks a ``where`` or a
``require`` is rejected). The best grid found is fixed and the model solved to
complete every other variable, and that full assignment becomes the hint.
"""
from __future__ import annotations

import math
import random
import time
from typing import Any

from ortools.sat.python import cp_model

from rulewright.compiler import ir as I
from rulewright.compiler.semantics import runtime as rt

from rulewright.compiler.interpret import Interpreter

from rulewright.solver.replay import interpret_query
from rulewright.solver.solving import limit, plan, read_value, solve_or_stop
from rulewright.solver.symbolic import BoardV
from rulewright.solver.symmetry import canonical


def _read(solver, value):
    return read_value(solver, value)


def local_search_hint(enc, program: I.Program, query: I.QueryDef, inputs: dict[str, Any],
                      seconds: float, seed: int = 0, clock: float | None = None) -> int | None:
    """Add a hint to ``enc.model``; return the interpreter's objective of it (or None).
    ``seconds``: the search's budget; ``clock``: the seconds left of the whole query (the
    bound of the deterministic solve plan, ``solving.plan``: its budget is grids tried)."""
    if seconds <= 0:
        return None
    started = time.perf_counter()
    deadline = started + (seconds if clock is None else max(seconds, clock))

    def clock_left() -> float:
        return deadline - time.perf_counter()
    boards = [c for c in enc.choices if c.scoring is None and isinstance(c.value, BoardV)]
    if not boards:
        return None
    objective = next((s for s in query.body if isinstance(s, I.Objective)), None)
    if objective is None:
        return None
    sign = 1 if objective.sense == "maximize" else -1
    # a first feasible answer
    feas = enc.model.clone()
    feas.clear_objective()
    solver = cp_model.CpSolver()
    limit(solver, max(2.0, seconds * 0.2), clock=clock_left())   # stops at the first answer
    solver.parameters.num_workers = 2
    if solve_or_stop(solver, feas) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    values = {c.name: _read(solver, c.value) for c in enc.choices if c.scoring is None}

    interp = Interpreter(program)

    def ok_and_score(vals) -> int | None:
        try:
            value, _, _ = interpret_query(interp, query, inputs, vals)
        except ZeroDivisionError:       # a grid that divides by 0: no option (as the model has it)
            return None
        return None if value is None else sign * value

    current = ok_and_score(values)
    if current is None:
        return None
    best, best_vals = current, dict(values)
    rng = random.Random(seed)
    name = boards[0].name
    grid = boards[0].value.grid
    cards = list(program.enums[grid.cell_enum].values)
    cells = list(grid.cells)
    t_start, t_end = 4.0, 0.3
    # the search's progress: seconds on the clock (the wall plan), or grids tried (the
    # deterministic plan: as many each second of its budget as a small machine tries)
    chosen = plan()
    begin = time.perf_counter()
    if chosen.deterministic:
        rate = chosen.steps_per_second
        span = max(1.0, seconds * 0.85 * rate)
        tried = [0]

        def progress() -> float:
            return tried[0]
    else:
        rate = 1.0
        span = max(1e-3, started + seconds * 0.85 - begin)

        def progress() -> float:
            return time.perf_counter() - begin
    temp = t_start
    last_gain = 0.0
    while progress() < span and (not chosen.deterministic or clock_left() > 0.15 * (deadline - started)):
        now = progress()
        if now - last_gain > max(2.0 * rate, 0.5 * now) and now > 0.4 * span:
            break               # no better grid for a while: stop searching
        if chosen.deterministic:
            tried[0] += 1
        board: rt.Board = values[name]
        new = dict(board.cards)
        if rng.random() < 0.7:
            a, b = rng.sample(cells, 2)
            new[a], new[b] = board.cards.get(b), board.cards.get(a)
            new = {k: v for k, v in new.items() if v is not None}
        else:
            new[rng.choice(cells)] = rng.choice(cards)
        cand = dict(values)
        cand[name] = rt.Board(board.grid, board.rows, board.cols, board.floating, new)
        score = ok_and_score(cand)
        if score is None:
            continue
        if score >= current or rng.random() < math.exp((score - current) / temp):
            values, current = cand, score
            if score > best:
                best, best_vals = score, dict(cand)
                last_gain = progress()
        temp = t_start * (t_end / t_start) ** min(1.0, progress() / span)
    # complete the hint: fix the best grid and solve for everything else
    fixed = enc.model.clone()
    for choice in boards:
        cards = canonical(enc, choice.value, best_vals[choice.name].cards)
        for cell, e in choice.value.cells.items():
            card = cards.get(cell)
            lit = e.lits.get(card)
            if lit is None or isinstance(lit, bool):
                continue
            fixed.add_bool_or([lit])
    solver = cp_model.CpSolver()
    limit(solver, max(1.0, seconds * 0.5), clock=clock_left())
    solver.parameters.num_workers = 2
    if solve_or_stop(solver, fixed) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    for i in range(len(enc.model.proto.variables)):
        var = enc.model.get_int_var_from_proto_index(i)
        enc.model.add_hint(var, solver.value(var))
    return sign * best
