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

import math
import time
from dataclasses import dataclass, field
from typing import Any

from ortools.sat.python import cp_model

from rulewright.compiler import ir as I
from rulewright.compiler import render
from rulewright.compiler.render import board_lines, jsonable, text_value
from rulewright.compiler import runtime as rt
from rulewright.compiler.diagnostics import NotSupportedError, RulesError, reason_of, shown_names

from rulewright.compiler.interpret import interpreter_for

from .encode import BuildTimeout, Encoder, Leaf, _choice_literals, _symbolic, free_locals, statements
from .symbolic import BoardV, BoolV, CaseV, EnumV, IntV, ListV, ScoreV, SetV, Sym
from .hints import local_search_hint
from .replay import ReplayError, _sense, interpret_query, replay  # noqa: F401 (what callers take from here)
from .solving import STATUS, _true, read_int, read_value, solve_or_stop, solve_stoppably
from .symmetry import break_symmetries
from .symbolic import RecordV
from rulewright.compiler.diagnostics import NO_SPAN, BadInputError, Diagnostic
from rulewright.compiler.diagnostics import source_line
from rulewright.compiler.diffing import source_text
from rulewright.compiler.types import CellT, CollT
from rulewright.compiler.types import SeatT
import re











@dataclass
class Answer:
    query: str
    status: str
    objective: int | tuple | None     # a tuple: optimised left to right (see Lexicographic)
    bound: int | tuple | None
    witness: dict[str, Any]
    breakdown: dict[str, Any]
    seconds: float
    replayed: bool
    time_limit: float
    workers: int
    stats: dict[str, Any] = field(default_factory=dict)
    reasons: list = field(default_factory=list)      # why not, when INFEASIBLE (see explain)
    reports: list = field(default_factory=list)      # (name, value, (definition, IDs, span))
    plays: list = field(default_factory=list)        # (choice name, expression, env): how to play it
    objective_names: Any = None                      # 'maximize e named n': what the numbers are
    settled: tuple = ()         # choices with one possible value: no decision, left out of the text
    cell_choices: tuple = ()    # choices that may hold grid cells (shown as "(r, c)")
    interrupted: bool = False   # Ctrl-C stopped the search: the best found by then

    def to_json(self) -> dict[str, Any]:
        return {"query": self.query, "status": self.status, "objective": self.objective,
                **({"objective_names": _names_list(self.objective_names)}
                   if self.objective_names is not None else {}),
                "bound": self.bound, "witness": {k: jsonable(v) for k, v in self.witness.items()},
                "breakdown": jsonable(self.breakdown), "seconds": round(self.seconds, 3),
                "replayed": self.replayed, "time_limit": self.time_limit, "workers": self.workers,
                **({"interrupted": True} if self.interrupted else {}),
                **({"reasons": [r.to_json() for r in self.reasons]} if self.status == "INFEASIBLE" else {}),
                **({"reports": [{"name": n, "value": jsonable(v),
                                 **({"definition": d[0], "ids": list(d[1]), "at": f"{d[2].file}:{d[2].line}"}
                                    if d else {})} for n, v, d in self.reports]} if self.reports else {}),
                **({"model": self.stats} if self.stats else {})}

    def to_text(self) -> str:
        lines = [f"{self.query}: {self.status}"]
        if self.status == "INFEASIBLE" and not self.reasons:
            lines.append("  no choice satisfies the query's conditions")
        if self.status == "INFEASIBLE" and self.reasons:
            lines.append("  why not:")
            lines.extend(reason_lines(self.reasons))
        if self.interrupted and self.status == "INFEASIBLE":
            lines.append(f"  interrupted (Ctrl-C) after {self.seconds:.1f} s: proven infeasible; "
                         "its reasons were cut short")
        elif self.interrupted:
            lines.append(f"  interrupted (Ctrl-C) after {self.seconds:.1f} s: "
                         + ("the best answer found by then" if self.objective is not None or
                            self.status == "FEASIBLE" else "no answer found by then")
                         + (f"; best bound {objective_text(self.bound, self.objective_names)}"
                            if self.status == "UNKNOWN" and self.bound is not None else ""))
        elif self.status == "UNKNOWN":
            built = self.stats.get("build_seconds", 0)
            lines.append(f"  no answer within the time limit ({self.time_limit:g} s"
                         + (f"; building the model alone took {built:.1f} s" if built > 0.5 * self.time_limit else "")
                         + "); " + (f"best bound {objective_text(self.bound, self.objective_names)}"
                                    if self.bound is not None else "no bound proven yet"))
        if self.objective is not None:
            proof = "proven optimal" if self.status == "OPTIMAL" else \
                f"best bound {objective_text(self.bound, self.objective_names)}" if self.bound is not None else \
                "no bound proven yet"
            lines.append(f"  objective: {objective_text(self.objective, self.objective_names)} ({proof})")
        for name, value in self.witness.items():
            if name in self.settled:
                continue
            if isinstance(value, rt.Board):
                marked = set()
                for v in self.witness.values():
                    if isinstance(v, tuple):
                        marked |= {x for x in v if isinstance(x, tuple) and len(x) == 2}
                lines.append(f"  {name}:")
                lines.extend("  " + ln for ln in board_lines(value, marked))
            else:
                lines.append(f"  {name.replace('_', ' ')}: {text_value(value, name in self.cell_choices)}")
        for name, steps in self.breakdown.items():
            if isinstance(steps, dict):
                lines.append(f"  {shown_names(name)}: " + ", ".join(f"{k} {v}" for k, v in steps.items()))
        for name, value, d in self.reports:
            where = f"   ({d[0]}{_ids_text(d[1])} {d[2].file}:{d[2].line})" if d else ""
            if isinstance(value, rt.Board):         # a grid the query shows: drawn, as a chosen one is
                lines.append(f"  {name.replace('_', ' ')}:{where}")
                lines.extend("  " + ln for ln in board_lines(value, set()))
            else:
                lines.append(f"  {name.replace('_', ' ')}: {text_value(value)}{where}")
        lines.append(f"  {self.seconds:.2f} s, {self.workers} worker(s)"
                     + (", witness replayed by the interpreter" if self.replayed else ""))
        return "\n".join(lines)



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
    0.5 s: tests/test_fuzz_queries.py.)"""
    if state is not None:
        return POSITION_PARAMS, POSITION_SUBSOLVERS
    if enc.boards:
        return SOLVER_PARAMS, SUBSOLVERS
    return {}, []


def run_query(program: I.Program, name: str, inputs: dict[str, Any], time_limit: float = 60.0,
              workers: int = 2, symmetry: bool = True, hint_seconds: float | None = None,
              log: bool = False, params: dict | None = None, state: Any = None,
              reasons: bool = True) -> Answer:
    started = time.perf_counter()
    inputs = with_defaults(program, name, inputs, state)

    def out_of_time() -> Answer:
        """The time limit covers building the model too: past it, no answer and no bound."""
        seconds = time.perf_counter() - started
        return Answer(name, "UNKNOWN", None, None, {}, {}, seconds, False, float(time_limit), int(workers),
                      {"build_seconds": round(seconds, 4)})
    try:
        enc, env, objective, obj, sym_count = build(program, name, inputs, symmetry, state=state,
                                                    deadline=started + float(time_limit))
    except BuildTimeout:
        return out_of_time()
    built = time.perf_counter() - started
    sense = _sense(program.queries[name])
    stopped = False         # Ctrl-C: no later phase

    def solve(seconds: float):
        nonlocal stopped
        solver = cp_model.CpSolver()
        solver.parameters.max_time_in_seconds = max(0.1, seconds)
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
        return float(time_limit) - (time.perf_counter() - started)

    # A short solve settles small questions; only then is local search worth it.
    solver, status_code = solve(min(1.0, 0.1 * time_limit))
    if status_code == cp_model.INFEASIBLE and enc.hardened and not stopped:
        # a grid's condition required everywhere may fail on a path not taken: encode
        # the query again with it required on its own path only
        try:
            enc, env, objective, obj, sym_count = build(program, name, inputs, symmetry, state=state,
                                                        options={"hard_grid_wheres": False},
                                                        deadline=started + float(time_limit))
        except BuildTimeout:
            return out_of_time()
        solver, status_code = solve(min(1.0, 0.1 * time_limit))
    hinted = None
    if status_code not in (cp_model.OPTIMAL, cp_model.INFEASIBLE) and left() > 0.5 and not stopped:
        if hint_seconds is None:
            hint_seconds = min(20.0, 0.5 * left())
        if isinstance(obj, IntV) and hint_seconds > 0:     # (a number: the hints compare numbers)
            try:
                hinted = local_search_hint(enc, program, program.queries[name], inputs, hint_seconds)
            except KeyboardInterrupt:       # the first solve's answer stands
                stopped = True
        if not stopped:
            solver, status_code = solve(left())
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
        try:
            answer.reasons = explain(program, name, inputs, state, max(1.0, left()))
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
        return not _choice_literals(value)
    return not _symbolic(value)


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


# ---------------------------------------------------------------- reasons
@dataclass
class Reason:
    """A rule that makes a query's conditions impossible: its rule IDs, where it is
    written, the sentence that explains it (rendered with its values when known) and
    the choices of the path it is on."""
    rule: str
    ids: tuple
    span: Any
    sentence: str
    path: dict
    together: int = 1
    core: int = 0           # the reasons of one core together rule out every option

    def to_json(self) -> dict:
        return {"rule": self.rule, "ids": list(self.ids), "at": f"{self.span.file}:{self.span.line}",
                "sentence": self.sentence, "path": {k: jsonable(v) for k, v in self.path.items()},
                "together": self.together, "core": self.core}


def reason_lines(reasons: list[Reason], most: int = 12) -> list[str]:
    """Reasons as text: one entry per core (the rules that together rule out every
    option), one rule of it a line with the paths it fails on merged ("place europe,
    africa or tundra"), at most ``most`` entries."""

    def shown(v) -> str:
        return text_value(v)

    cores: dict[int, list[Reason]] = {}
    for r in reasons:
        cores.setdefault(r.core, []).append(r)
    out: list[str] = []
    for n, (_, members) in enumerate(cores.items()):
        if n == most:
            out.append(f"  ... and {len(cores) - most} more (--json lists them all)")
            break
        # one rule saying one thing on several paths is one entry; a sentence with a
        # value left open ("…") joins one that shows a value it allows
        groups: list[tuple[str, list[Reason]]] = []
        for r in sorted(members, key=lambda r: r.sentence.count("…")):
            for sentence, rs in groups:
                if (rs[0].rule, rs[0].span.line, rs[0].span.file) == (r.rule, r.span.line, r.span.file) \
                        and _fits(r.sentence, sentence):
                    rs.append(r)
                    break
            else:
                groups.append((r.sentence, [r]))
        groups.sort(key=lambda g: min(members.index(r) for r in g[1]))
        entries = []
        for sentence, rs in groups:
            rs.sort(key=members.index)
            where = _merged_paths([r.path for r in rs], shown)
            entries.append((sentence + (f" (with {where})" if where else ""),
                            f"{rs[0].rule}{_ids_text(rs[0].ids)} at {rs[0].span.file}:{rs[0].span.line}"))
        if len(entries) == 1:
            out.append(f"  - {entries[0][0]}")
            out.append(f"    {entries[0][1]}")
        else:
            out.append("  - every option breaks one of these:")
            for text, at in entries:
                out.append(f"    - {text}")
                out.append(f"      {at}")
    return out


def _ids_text(ids) -> str:
    return f" [{' '.join(ids)}]" if ids else ""


def _fits(open_sentence: str, sentence: str) -> bool:
    """Whether a sentence with values left open ("…") reads as ``sentence`` with them
    filled in."""
    if open_sentence == sentence:
        return True
    if "…" not in open_sentence:
        return False
    pattern = ".+".join(re.escape(part) for part in open_sentence.split("…"))
    return re.fullmatch(pattern, sentence, flags=re.S) is not None


def _merged_paths(paths: list[dict], shown) -> str:
    """Paths as text: the choices they share once, then the values of the one choice
    in which they differ ("action create, place europe or tundra"); paths differing in
    more than one choice are listed one by one, separated by ';'."""
    if not paths:
        return ""
    if len(paths) > 1:      # the choices on every path (an example's are shown on one only)
        keys = [k for k in paths[0] if all(k in p for p in paths)]
        paths = [{k: p[k] for k in keys} for p in paths]
    keys = list(paths[0])
    if len(paths) == 1:
        return ", ".join(f"{k.replace('_', ' ')} {shown(v)}" for k, v in paths[0].items())
    differ = [k for k in keys if len({repr(p[k]) for p in paths}) > 1]
    if len(differ) != 1:
        return "; ".join(", ".join(f"{k.replace('_', ' ')} {shown(v)}" for k, v in p.items()) for p in paths)
    parts = []
    for k in keys:
        if k == differ[0]:
            values = []
            for p in paths:
                if shown(p[k]) not in values:
                    values.append(shown(p[k]))
            listed = values[0] if len(values) == 1 else ", ".join(values[:-1]) + " or " + values[-1]
            parts.append(f"{k.replace('_', ' ')} {listed}")
        else:
            parts.append(f"{k.replace('_', ' ')} {shown(paths[0][k])}")
    return ", ".join(parts)


def explain(program: I.Program, name: str, inputs: dict[str, Any], state: Any,
            seconds: float, most: int = 24) -> list[Reason]:
    """Why a query's conditions cannot be met: the model again with one assumption
    literal per checked rule; each unsatisfiable core CP-SAT returns is a reason (its
    rules together), then left out, until the rest can be met."""
    enc, env, objective, obj, _ = build(program, name, inputs, symmetry=False, state=state, explain=True,
                                        options={"hard_grid_wheres": False})
    leaves = [l for l in enc.leaves if l.assumption is not None]
    active = {enc.key(l.assumption): l for l in leaves}
    reasons: list[Reason] = []
    cores = 0
    interp = interpreter_for(program)
    started = time.perf_counter()

    def left(least: float) -> float:
        return max(least, seconds - (time.perf_counter() - started))

    while active and len(reasons) < most:
        solver, code = _solve_assuming(enc, active.values(), left(0.5))
        if code != cp_model.INFEASIBLE:
            break
        core = [active[k] for k in solver.sufficient_assumptions_for_infeasibility() if k in active]
        # the rules that fail whatever the choices, when they are enough on their own,
        # say it best ("the volcano erupts there", not "it requires running")
        certain = [l for l in active.values() if l.lit is False]
        if certain and any(l.lit is not False for l in core) and \
                _solve_assuming(enc, certain, left(0.2))[1] == cp_model.INFEASIBLE:
            core = certain
        if not core and certain:
            # infeasible whatever the rules (a choice with no option left), and yet some
            # fail whatever the choices: each of those is a reason on its own (the rules
            # rather than the choices they leave with nothing to choose, when there are)
            for leaf in [l for l in certain if l.empty is None] or certain:
                reason = _reason(program, interp, leaf, state, 1, enc, None)
                reason.core = cores
                reasons.append(reason)
                cores += 1
            break
        if not core:
            break
        core = _minimal(enc, core, left(0.5))
        if not core:
            break           # infeasible with no checked rule at all: the choices' own conditions
        if reasons and all(l.empty is not None for l in core):
            break           # choices left with nothing to choose by the rules already given
        for leaf in core:
            del active[enc.key(leaf.assumption)]
        # An example: every other rule met, so the sentences can show the values
        # the core's rules fail on.
        example, code = _solve_assuming(enc, active.values(), left(0.2))
        if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            example = None
        for leaf in core:
            reason = _reason(program, interp, leaf, state, len(core), enc, example)
            reason.core = cores
            reasons.append(reason)
        cores += 1
    if not reasons:
        reasons = _nothing_to_choose(program, name, enc)
    return reasons


def _nothing_to_choose(program: I.Program, name: str, enc) -> list[Reason]:
    """A choice of the query with no option at all on its path (its collection empty,
    or no element meeting its condition): the reason, when no rule is one."""
    ids = tuple(program.queries[name].node.rule_ids)
    return [Reason(st.name, ids, st.span, _empty_sentence(st, had_elements), {}, 1, n)
            for n, (st, had_elements) in enumerate(enc.empty_choices)]


def _empty_sentence(st: I.Choose, had_elements: bool) -> str:
    coll = source_text(st.coll.span) or "its collection"
    return (f"there is nothing to choose {st.name} from: no element of {coll} meets its condition"
            if had_elements else f"there is nothing to choose {st.name} from: {coll} is empty here")


def _query_ids(program: I.Program, leaf) -> tuple:
    """The rule IDs of the query, or of the scoring's step (else the scoring), whose
    statement a leaf comes from."""
    for q in program.queries.values():
        if any(st is leaf.stmt for st in statements(q.body)):
            return tuple(q.node.rule_ids)
    for sd in program.scorings.values():
        for step in sd.steps:
            if any(st is leaf.stmt for st in statements(step.body)):
                return tuple(t for t, _ in step.node.tags) or tuple(sd.node.rule_ids)
    return ()


def _solve_assuming(enc, leaves, seconds: float):
    """The explanation model solved with the rules of ``leaves`` assumed to hold."""
    enc.model.clear_assumptions()
    enc.model.add_assumptions([l.assumption for l in leaves])
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = seconds
    return solver, solve_or_stop(solver, enc.model)


def _minimal(enc, core: list, seconds: float) -> list:
    """A core with no rule to spare: each rule is left out in turn and kept only if
    the others can then be met, within the time given. Rules that fail whatever the
    choices (their condition is known false on their path) are tried last, so a core
    keeps them rather than a rule that fails only for the choices left; within each
    kind the later rules are tried first, so a path keeps the first rule it fails
    (no Head Card, before the food it would need). A choice with nothing to choose from
    on its path is tried first: a rule that closes the same path says more."""
    if len(core) <= 1:
        return core
    keep = list(core)
    started = time.perf_counter()
    index = {id(leaf): i for i, leaf in enumerate(enc.leaves)}
    order = sorted(core, key=lambda leaf: (leaf.empty is None, leaf.lit is False, -index.get(id(leaf), 0)))
    for leaf in order:
        spent = time.perf_counter() - started
        if spent > seconds:
            break
        trial = [l for l in keep if l is not leaf]
        if _solve_assuming(enc, trial, max(0.2, seconds - spent))[1] == cp_model.INFEASIBLE:
            keep = trial
    return keep


def _concrete(solver, v, program):
    """A symbolic value as the example solution has it (records field by field)."""
    if isinstance(v, RecordV):
        info = program.records[v.name]
        return info.cls(*[_concrete(solver, v.fields[f], program) for f, _ in info.fields])
    if isinstance(v, Sym):
        return read_value(solver, v)
    return v


def _reason(program, interp, leaf, state, together: int, enc=None, example=None) -> Reason:
    if leaf.sentence is not None:           # an expression the interpreter cannot compute there
        return Reason("undefined", (), leaf.expr.span, leaf.sentence, dict(leaf.path), together)
    if leaf.empty is not None:              # a choice with nothing to choose from on its path
        st, had_elements = leaf.empty
        return Reason(st.name, _query_ids(program, leaf), st.span, _empty_sentence(st, had_elements),
                      dict(leaf.path), together)
    rule = leaf.rule
    env = leaf.env
    if example is not None and any(_symbolic(v) for v in env.values()) and _true(example, leaf.guard):
        concrete = {k: _concrete(example, v, program) for k, v in env.items()}
        fails = False
        try:
            free = free_locals(leaf.expr, program) or ()
            fails = not interp.evaluate(leaf.expr, {n: concrete[n] for n in free}, state=state)
        except Exception:       # the example leaves the rule undefined (no head...): no values
            fails = False
        if fails:               # the example's values show how the rule fails
            leaf = Leaf(leaf.expr, concrete, leaf.guard, dict(leaf.path), leaf.rule, leaf.stmt, leaf.lit)
            for choice in enc.choices:
                if choice.scoring is None and choice.name not in leaf.path and \
                        _true(example, choice.extra.get("guard", True)):
                    leaf.path[choice.name] = read_value(example, choice.value)
    call = leaf.expr if isinstance(leaf.expr, I.Call) and leaf.expr.name in program.funcs else None
    if call is not None and program.funcs[call.name].kind == "rule":
        rule = program.funcs[call.name]
    elif isinstance(leaf.expr, I.Global) and getattr(program.funcs.get(leaf.expr.name), "kind", None) == "rule":
        rule = program.funcs[leaf.expr.name]            # a rule without parameters
    sentence = None
    if rule is not None and rule.message is not None:
        params = leaf.env
        chosen: dict = {}       # a parameter that depends on a choice: ("expr", e, env) or ("value", v)
        if call is not None and rule.name == call.name:
            params = {}
            for (p, _), a in zip(rule.params, call.args):
                free = free_locals(a, program)
                if free is not None and all(n in leaf.env and not _symbolic(leaf.env[n]) for n in free):
                    params[p] = interp.evaluate(a, {n: leaf.env[n] for n in free}, state=state)
                else:
                    params[p] = _UNKNOWN    # depends on a choice: no value to show, unless
                    chosen[p] = ("expr", a, leaf.env)   # every option gives it the same one
        else:
            chosen = {k: ("value", v) for k, v in (params or {}).items() if _symbolic(v)}
            params = {k: (_UNKNOWN if _symbolic(v) else v) for k, v in (params or {}).items()}
        sentence = render_message(interp, rule, params, state, program,
                                  same_for_all=_same_for_all(program, state, enc, params, chosen))
        if sentence is not None and not sentence.replace("…", "").strip():
            sentence = None
    if sentence is None:
        source = leaf.expr.span
        sentence = (rule.node.doc.split("\n")[0] if rule is not None and rule.node.doc
                    else f"the condition at {source.file}:{source.line}:{source.col} cannot hold")
    target = rule if rule is not None else None
    ids = tuple(t for t, _ in target.node.tags) if target is not None else tuple(getattr(leaf.stmt, "tags", ()))
    span = target.node.name_span if target is not None else leaf.expr.span
    path = {k: v for k, v in leaf.path.items()}
    return Reason(target.name if target is not None else "require", ids, span, sentence, path, together)


_UNKNOWN = object()


def _same_for_all(program, state, enc, params: dict, chosen: dict):
    """For a sentence's {expression} over parameters that depend on a choice: its value
    when every option gives it the same one (the encoder works it out to a number or a
    text: "these cards have 0 Head Cards" whatever cards are taken from a hand with no
    head), else ``_UNKNOWN``. It is encoded on a model of its own, thrown away, so
    nothing it adds touches the query's."""
    if enc is None or not chosen:
        return None
    scratch = None

    def value(part):
        nonlocal scratch
        if scratch is None:
            scratch = Encoder(program, state=state)
            scratch.interp, scratch.product_terms, scratch.relaxation = enc.interp, enc.product_terms, enc.relaxation
        env = {}
        try:
            for n in free_locals(part, program) or ():
                if params.get(n, _UNKNOWN) is not _UNKNOWN:
                    env[n] = params[n]
                elif n in chosen:
                    kind, *held = chosen[n]
                    env[n] = scratch.encode(*held) if kind == "expr" else held[0]
                else:
                    return _UNKNOWN
            v = scratch.encode(part, env)
        except Exception:       # what the solver cannot work out is shown as "…"
            return _UNKNOWN
        return _UNKNOWN if _symbolic(v) else v
    return value


def render_message(interp, rule, params, state, program=None, same_for_all=None) -> str | None:
    """A rule's sentence with its {expressions} computed; "…" for a value that depends
    on a choice (``same_for_all``, when given, may still know it)."""
    out = []
    for part in rule.message:
        if isinstance(part, str):
            out.append(part)
            continue
        free = free_locals(part, program) if program is not None else None
        if params is None or free is None or any(params.get(n, _UNKNOWN) is _UNKNOWN for n in free):
            known = same_for_all(part) if same_for_all is not None and free is not None else _UNKNOWN
            if known is _UNKNOWN:
                out.append("…")
            else:
                out.append(render.text(known))
            continue
        try:
            out.append(render.text(interp.evaluate(part, params, state=state)))
        except Exception as exc:        # noqa: BLE001 (an error of the spec's sentence: shown, not hidden)
            reason = reason_of(exc)
            out.append(f"[this part of the rule's sentence cannot be computed: {reason}]")
    return "".join(out)


# ---------------------------------------------------------------- reading values
def objective_text(v, names=None) -> str:
    """An objective's value as text: a tuple as its first number, then the ones that
    break its ties ("6, then 4"); with the objective's names, each number after its
    name ("points 6, then adaptation 4")."""
    values = list(v) if isinstance(v, tuple) else [v]
    if names is not None:
        labels = _names_list(names) if isinstance(v, tuple) else [render.text(names)]
        values = [f"{label} {x}" for label, x in zip(labels, values)]
    return ", then ".join(str(x) for x in values)


def _names_list(names) -> list[str]:
    """An objective's names as texts, one per number."""
    return [render.text(n) for n in names] if isinstance(names, tuple) else [render.text(names)]


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













