"""Why not: the rules that leave an INFEASIBLE query without an answer.

In:  the query encoded with one assumption literal per rule it checks (``Leaf``).
Out: ``Reason`` values: each rule of a minimal unsatisfiable core with its rule IDs,
     its place in the spec and its sentence, said for the values at hand; one choice
     with nothing to choose from on a branch is a reason on that branch.
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Any

from ortools.sat.python import cp_model

from rulewright.compiler import ir as I
from rulewright.compiler.semantics import render
from rulewright.compiler.diagnostics import reason_of
from rulewright.compiler.variants.diffing import source_text
from rulewright.compiler.interpret import interpreter_for
from rulewright.compiler.semantics.render import jsonable, text_value

from rulewright.solver.build import build
from rulewright.compiler.ir import statements
from rulewright.solver.encode import BuildTimeout, Encoder, Leaf, free_locals, is_symbolic
from rulewright.solver.solving import _true, limit, read_value, solve_or_stop
from rulewright.solver.symbolic import RecordV, Sym

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


class Reasons(list):
    """The reasons ``explain`` found; ``cut_short``: the time it had ran out before it was
    done (the reasons are those found by then, maybe none)."""
    cut_short = False


def explain(program: I.Program, name: str, inputs: dict[str, Any], state: Any,
            deadline: float, most: int = 24) -> Reasons:
    """Why a query's conditions cannot be met: the model again with one assumption
    literal per checked rule; each unsatisfiable core CP-SAT returns is a reason (its
    rules together), then left out, until the rest can be met. Everything it does
    (building the model again, each solve, the sentences) stops at ``deadline`` (a
    ``time.perf_counter()`` time): the reasons found by then, marked ``cut_short``."""
    out = Reasons()
    try:
        out.extend(_explain(program, name, inputs, state, deadline, most, out))
    except BuildTimeout:
        out.cut_short = True
    return out


def _explain(program, name, inputs, state, deadline: float, most: int, out: Reasons) -> list[Reason]:
    if time.perf_counter() >= deadline:
        raise BuildTimeout()
    enc, env, objective, obj, _ = build(program, name, inputs, symmetry=False, state=state, explain=True,
                                        options={"hard_grid_wheres": False}, deadline=deadline)
    leaves = [l for l in enc.leaves if l.assumption is not None]
    active = {enc.key(l.assumption): l for l in leaves}
    reasons = out           # (a reason found is kept when the time runs out after it)
    cores = 0
    interp = interpreter_for(program)

    def left() -> float:
        """The seconds left to a solve looking for more (none: the explanation stops there)."""
        remaining = deadline - time.perf_counter()
        if remaining <= 0:
            raise BuildTimeout()
        return remaining

    def late() -> bool:
        """Whether the time is over: a core found is still said, as far as it was made
        minimal, without an example's values (and the explanation is marked cut short)."""
        if time.perf_counter() < deadline:
            return False
        out.cut_short = True
        return True

    while active and len(reasons) < most:
        solver, code = _solve_assuming(enc, active.values(), left())
        if code != cp_model.INFEASIBLE:
            if code == cp_model.UNKNOWN:
                out.cut_short = True        # stopped by the time it had, not by an answer
            break
        core = [active[k] for k in solver.sufficient_assumptions_for_infeasibility() if k in active]
        # the rules that fail whatever the choices, when they are enough on their own,
        # say it best ("the volcano erupts there", not "it requires running")
        certain = [l for l in active.values() if l.lit is False]
        if certain and any(l.lit is not False for l in core) and \
                _solve_assuming(enc, certain, left())[1] == cp_model.INFEASIBLE:
            core = certain
        if not core and certain:
            # infeasible whatever the rules (a choice with no option left), and yet some
            # fail whatever the choices: each of those is a reason on its own (the rules
            # rather than the choices they leave with nothing to choose, when there are)
            for leaf in [l for l in certain if l.empty is None] or certain:
                reason = _reason(program, interp, leaf, state, 1, None if late() else enc, None, deadline)
                reason.core = cores
                reasons.append(reason)
                cores += 1
            break
        if not core:
            break
        core, whole = _minimal(enc, core, max(0.0, deadline - time.perf_counter()))
        if not whole:
            out.cut_short = True        # (a core, not shown minimal)
        if not core:
            break           # infeasible with no checked rule at all: the choices' own conditions
        if reasons and all(l.empty is not None for l in core):
            break           # choices left with nothing to choose by the rules already given
        for leaf in core:
            del active[enc.key(leaf.assumption)]
        # An example: every other rule met, so the sentences can show the values
        # the core's rules fail on.
        example = None
        if not late():
            example, code = _solve_assuming(enc, active.values(), deadline - time.perf_counter())
            if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                example = None
        for leaf in core:
            known = not late()
            reason = _reason(program, interp, leaf, state, len(core), enc if known else None,
                             example if known else None, deadline)
            reason.core = cores
            reasons.append(reason)
        cores += 1
    if not reasons:
        return _nothing_to_choose(program, name, enc)
    return []           # (all in ``out`` already)


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
    limit(solver, seconds, clock=seconds, least=0.0)
    return solver, solve_or_stop(solver, enc.model)


def _minimal(enc, core: list, seconds: float) -> tuple[list, bool]:
    """A core with no rule to spare: each rule is left out in turn and kept only if
    the others can then be met, within the time given. Rules that fail whatever the
    choices (their condition is known false on their path) are tried last, so a core
    keeps them rather than a rule that fails only for the choices left; within each
    kind the later rules are tried first, so a path keeps the first rule it fails
    (no Head Card, before the food it would need). A choice with nothing to choose from
    on its path is tried first: a rule that closes the same path says more."""
    if len(core) <= 1:
        return core, True
    keep = list(core)
    started = time.perf_counter()
    index = {id(leaf): i for i, leaf in enumerate(enc.leaves)}
    order = sorted(core, key=lambda leaf: (leaf.empty is None, leaf.lit is False, -index.get(id(leaf), 0)))
    for leaf in order:
        spent = time.perf_counter() - started
        if spent > seconds:
            return keep, False      # the time given ran out: a core, maybe with a rule to spare
        trial = [l for l in keep if l is not leaf]
        if _solve_assuming(enc, trial, seconds - spent)[1] == cp_model.INFEASIBLE:
            keep = trial
    return keep, True


def _concrete(solver, v, program):
    """A symbolic value as the example solution has it (records field by field)."""
    if isinstance(v, RecordV):
        info = program.records[v.name]
        return info.cls(*[_concrete(solver, v.fields[f], program) for f, _ in info.fields])
    if isinstance(v, Sym):
        return read_value(solver, v)
    return v


def _reason(program, interp, leaf, state, together: int, enc=None, example=None,
            deadline: float | None = None) -> Reason:
    if leaf.sentence is not None:           # an expression the interpreter cannot compute there
        return Reason("undefined", (), leaf.expr.span, leaf.sentence, dict(leaf.path), together)
    if leaf.empty is not None:              # a choice with nothing to choose from on its path
        st, had_elements = leaf.empty
        return Reason(st.name, _query_ids(program, leaf), st.span, _empty_sentence(st, had_elements),
                      dict(leaf.path), together)
    rule = leaf.rule
    env = leaf.env
    if example is not None and any(is_symbolic(v) for v in env.values()) and _true(example, leaf.guard):
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
                if free is not None and all(n in leaf.env and not is_symbolic(leaf.env[n]) for n in free):
                    params[p] = interp.evaluate(a, {n: leaf.env[n] for n in free}, state=state)
                else:
                    params[p] = _UNKNOWN    # depends on a choice: no value to show, unless
                    chosen[p] = ("expr", a, leaf.env)   # every option gives it the same one
        else:
            chosen = {k: ("value", v) for k, v in (params or {}).items() if is_symbolic(v)}
            params = {k: (_UNKNOWN if is_symbolic(v) else v) for k, v in (params or {}).items()}
        sentence = render_message(interp, rule, params, state, program,
                                  same_for_all=_same_for_all(program, state, enc, params, chosen, deadline))
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


def _same_for_all(program, state, enc, params: dict, chosen: dict, deadline: float | None = None):
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
            scratch.deadline = deadline         # (past it, the value is shown as "…")
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
        return _UNKNOWN if is_symbolic(v) else v
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
