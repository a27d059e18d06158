"""Queries: a spec's ``query`` blocks answered with CP-SAT, every answer replayed.

In:  a checked program, a query name, its inputs, a time limit and a worker count.
Out: an ``Answer``: status (OPTIMAL, FEASIBLE, INFEASIBLE, UNKNOWN), objective,
     best bound, the witness (every choice of the query and of the scorings it
     calls), the seconds spent and the replay verdict.

Before an answer is returned its witness is replayed through the interpreter:
every ``where`` and ``require`` must hold and the interpreter's objective for
the witness must equal the solver's; otherwise the answer is an error, never a
silently wrong number.

Ctrl-C during a solve stops the search cleanly (``solve_stoppably``): the answer is
what the solver had found by then (FEASIBLE with its bound, or UNKNOWN), marked
``interrupted``; no later phase (local search, a longer solve, reasons) runs.
"""
from __future__ import annotations

import time
from typing import Any

from ortools.sat.python import cp_model

from rulewright.compiler import ir as I
from rulewright.compiler.diagnostics import NO_SPAN, BadInputError, Diagnostic, NotSupportedError, source_line
from rulewright.compiler.interpret import interpreter_for
from rulewright.compiler.types import CellT, CollT, SeatT

from rulewright.solver.answer import Answer, objective_text  # noqa: F401 (objective_text: what callers take from here)
from rulewright.solver.build import Lexicographic, build, solver_settings  # noqa: F401
from rulewright.compiler.ir import statements
from rulewright.solver.encode import BuildTimeout, choice_literals, is_symbolic
from rulewright.solver.explain import Reason, explain, reason_lines, render_message  # noqa: F401
from rulewright.solver.hints import local_search_hint
from rulewright.solver.replay import ReplayError, _sense, interpret_query, replay  # noqa: F401 (what callers take from here)
from rulewright.solver.solving import STATUS, _true, read_int, read_value, solve_or_stop, solve_stoppably  # noqa: F401
from rulewright.solver.solving import limit, plan
from rulewright.solver.symbolic import CaseV, IntV, ListV, SetV


def run_query(program: I.Program, name: str, inputs: dict[str, Any], time_limit: float = 60.0,
              workers: int = 2, symmetry: bool = True, hint_seconds: float | None = None,
              log: bool = False, params: dict | None = None, state: Any = None,
              reasons: bool = True) -> Answer:
    started = time.perf_counter()
    outer = plan().outer        # (the clock's bound: the limit, or a multiple of it under a steady plan)
    inputs = with_defaults(program, name, inputs, state)

    def out_of_time() -> Answer:
        """The time limit covers building the model too: past it, no answer and no bound."""
        seconds = time.perf_counter() - started
        return Answer(name, "UNKNOWN", None, None, {}, {}, seconds, False, float(time_limit), int(workers),
                      {"build_seconds": round(seconds, 4)})
    try:
        enc, env, objective, obj, sym_count = build(program, name, inputs, symmetry, state=state,
                                                    deadline=started + float(time_limit) * outer)
    except BuildTimeout:
        return out_of_time()
    built = time.perf_counter() - started
    sense = _sense(program.queries[name])
    stopped = False         # Ctrl-C: no later phase

    def solve(seconds: float, clock: float):
        nonlocal stopped
        solver = cp_model.CpSolver()
        limit(solver, seconds, clock)       # (the solve plan: solving.plan)
        solver.parameters.num_workers = int(workers)
        solver.parameters.log_search_progress = log
        chosen, subsolvers = solver_settings(enc, state)
        for key, value in chosen.items():
            setattr(solver.parameters, key, value)
        if 1 < workers <= len(subsolvers):
            solver.parameters.subsolvers.extend(subsolvers[:workers])
        for key, value in (params or {}).items():
            setattr(solver.parameters, key, value)
        code, hit = solve_stoppably(solver, enc.model)
        stopped |= hit
        return solver, code

    def left() -> float:
        return float(time_limit) * outer - (time.perf_counter() - started)

    # The phases' shares of the time limit: what is left of it on the clock (the wall
    # plan), or the limit less the shares of the phases before (the deterministic plan:
    # the same every run; a phase before the last stops at half of what is left on the
    # clock, so the last keeps the rest however slow the machine is).
    deterministic = plan().deterministic
    given = [0.0]

    def share() -> float:
        return float(time_limit) - given[0] if deterministic else left()

    # A short solve settles small questions; only then is local search worth it.
    probe = min(1.0, 0.1 * time_limit)
    given[0] += probe
    solver, status_code = solve(probe, 0.5 * left())
    if status_code == cp_model.INFEASIBLE and enc.hardened and not stopped:
        # a grid's condition required everywhere may fail on a path not taken: encode
        # the query again with it required on its own path only
        try:
            enc, env, objective, obj, sym_count = build(program, name, inputs, symmetry, state=state,
                                                        options={"hard_grid_wheres": False},
                                                        deadline=started + float(time_limit) * outer)
        except BuildTimeout:
            return out_of_time()
        solver, status_code = solve(probe, 0.5 * left())
    hinted = None
    if status_code not in (cp_model.OPTIMAL, cp_model.INFEASIBLE) and min(share(), left()) > 0.5 and not stopped:
        if hint_seconds is None:
            hint_seconds = min(20.0, 0.5 * share())
        if isinstance(obj, IntV) and hint_seconds > 0:     # (a number: the hints compare numbers)
            given[0] += hint_seconds
            try:
                hinted = local_search_hint(enc, program, program.queries[name], inputs, hint_seconds,
                                           clock=0.5 * left())
            except KeyboardInterrupt:       # the first solve's answer stands
                stopped = True
        if not stopped:
            solver, status_code = solve(share(), left())
    seconds = time.perf_counter() - started
    solved = seconds - built
    status = STATUS.get(status_code, "UNKNOWN")
    if stopped and status == "INFEASIBLE" and enc.hardened:
        status = "UNKNOWN"      # the stricter model's verdict, not checked with the looser one
    if status == "MODEL_INVALID":
        problem = enc.model.validate()
        if "overflow" in problem.lower():
            raise NotSupportedError(f"the numbers of '{name}' are too large for CP-SAT, whose sums stay "
                                    f"within 64 bits ({problem})")
        raise NotSupportedError(f"internal: the CP-SAT model of '{name}' is invalid: {problem}")
    stats = {"variables": len(enc.model.proto.variables), "constraints": len(enc.model.proto.constraints),
             "symmetries_broken": sym_count, "hint_objective": hinted, "build_seconds": round(built, 4),
             "solve_seconds": round(solved, 4)}
    witness: dict[str, Any] = {}
    breakdown: dict[str, Any] = {}
    objective_value = bound = None
    replayed = False
    if status in ("OPTIMAL", "FEASIBLE"):
        for choice in enc.choices:
            if choice.scoring is None and _true(solver, choice.extra.get("guard", True)):
                witness[choice.name] = read_value(solver, choice.value)
        # the scorings the answer reaches; one reached more than once (or two setting a
        # choice of the same name) has no single breakdown or choice to show or force:
        # the replay then lets the interpreter make those choices
        active = [score for score in enc.scorings if score.steps and _true(solver, score.reach)]
        names = [score.name for score in active]
        # a scoring computed whole (least of known arguments) has no breakdown; its
        # choices, of the same names, are its own: the replay forces none of them
        whole = {n for n, ctx in enc.worst if all(_true(solver, c) for c in ctx)}
        cnames = [c for score in active for c in score.choices]
        unforced = set()
        for score in active:
            if names.count(score.name) == 1:
                breakdown[score.name] = {k: read_int(solver, v) for k, v in score.steps.items()}
                for cname, cval in score.choices.items():
                    if cnames.count(cname) == 1:
                        witness[cname] = read_value(solver, cval)
                        if score.name in whole:
                            unforced.add(cname)
        if isinstance(obj, Lexicographic):
            objective_value = obj.read(solver)
            bound = objective_value if status == "OPTIMAL" or not obj.symbolic else obj.bound(solver, sense)
        elif obj is not None:
            objective_value = read_int(solver, obj)
            bound = int(round(solver.best_objective_bound)) if isinstance(obj, IntV) else objective_value
        if obj is None and status == "OPTIMAL":
            status = "FEASIBLE"       # a question without an objective: its conditions can be met
        plays: list = []
        named: list = []
        before_replay = time.perf_counter()
        shown = replay(program, name, inputs, witness, objective_value, state=state, plays=plays, named=named,
                       unforced=unforced)
        replayed = True
        stats["replay_seconds"] = round(time.perf_counter() - before_replay, 4)
    elif status == "UNKNOWN" and not _bound_known(solver):
        bound = None        # stopped before CP-SAT had any bound (its 0 would be a claim)
    elif status == "UNKNOWN" and isinstance(obj, IntV):
        bound = int(round(solver.best_objective_bound))
    elif status == "UNKNOWN" and isinstance(obj, Lexicographic) and obj.symbolic:
        bound = obj.bound(solver, sense)
    answer = Answer(name, status, objective_value, bound, witness, breakdown, time.perf_counter() - started,
                    replayed, float(time_limit), int(workers), stats, interrupted=stopped)
    # a name is left out when every choice of that name (on every branch) had one value
    # the query's choices, and those of the scorings whose choices the witness shows, that may hold cells
    inner = [st for n in breakdown for step in program.scorings[n].steps for st in statements(step.body)]
    answer.cell_choices = tuple(st.name for st in [*statements(program.queries[name].body), *inner]
                                if isinstance(st, I.Choose) and _may_hold_cells(st))
    chosen = {c.name for c in enc.choices if c.name in witness}
    answer.settled = tuple(n for n in chosen if all(_settled(c.value) for c in enc.choices if c.name == n))
    if replayed:
        answer.reports = shown
        answer.plays = plays
        answer.objective_names = named[0] if named else None
    elif enc.objective_names and all(n == enc.objective_names[0] for n in enc.objective_names):
        answer.objective_names = enc.objective_names[0]     # the same on every path: the bound's
    if status == "INFEASIBLE" and reasons and not stopped:
        # (within the time limit too: what is left of it after the solve)
        try:
            found = explain(program, name, inputs, state, deadline=started + float(time_limit) * outer)
            answer.reasons, answer.reasons_cut_short = list(found), found.cut_short
        except KeyboardInterrupt:           # proven infeasible; the reasons were cut short
            answer.interrupted = True
        answer.seconds = time.perf_counter() - started
    return answer


def _bound_known(solver) -> bool:
    """Whether CP-SAT computed an objective bound before it stopped: stopped before
    its presolve had run, it reports 0, which is no bound at all."""
    r = solver.response_proto
    return bool(r.num_booleans or r.num_integers or r.inner_objective_lower_bound or r.best_objective_bound)


def _may_hold_cells(st: I.Choose) -> bool:
    """Whether a choice's value may be (or hold) grid cells, from its types."""
    types = [st.type] + ([st.coll.type] if st.coll is not None else [])
    for t in types:
        while isinstance(t, CollT):
            t = t.elem
        if isinstance(t, CellT):
            return True
    return False


def _settled(value) -> bool:
    """Whether a choice had one possible value (a sub-collection of nothing, an element
    of a single one): no literal of the model decides it."""
    if isinstance(value, (CaseV, SetV, ListV)):
        return not choice_literals(value)
    return not is_symbolic(value)


def with_defaults(program: I.Program, name: str, inputs: dict[str, Any], state: Any) -> dict[str, Any]:
    """The inputs with the defaults the query declares for those not given."""
    query = program.queries[name]
    out = dict(inputs)
    env: dict[str, Any] = {}
    for st in query.body:
        if isinstance(st, I.Input):
            if st.name not in out:
                if st.default is None:
                    raise NotSupportedError(f"the query '{name}' needs its input '{st.name}'", st.span)
                out[st.name] = interpreter_for(program).evaluate(st.default, env, state=state)
                if out[st.name] is None:
                    flag = f"--{st.name.replace('_', '-')}"
                    seats = [x.name for x in getattr(state, "seats", ()) if x.kind == "player"]
                    sp = st.default.span
                    line = source_line(sp.file, sp.line) if sp.line == sp.end_line else None
                    default = f" ({line[sp.col - 1:sp.end_col - 1]})" if line else ""
                    hint = f"give {flag}" + (f" {seats[0]} (the players: {', '.join(seats)})"
                                             if isinstance(st.type, SeatT) and seats else "") + \
                        f", or set in the position what its default reads{default}"
                    raise BadInputError(Diagnostic(NO_SPAN, f"{flag} is needed: its default has no value "
                                                            f"in this position", hint))
            env[st.name] = out[st.name]
    return out


