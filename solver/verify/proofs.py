"""The checks CP-SAT proves: every question is a query the checks write (never spec text),
encoded by the same encoder as the spec's own queries and answered by ``run_query``, which
replays every witness through the interpreter before it returns it.

In:  a checked program, the time limit and workers of each question.
Out: findings (``findings.Finding``) of the kinds ``never_holds``, ``always_holds``,
     ``property``, ``range`` and ``choosable`` (``differs``: differing.py), and the
     domains every check ranges over.

The domain of a definition's parameter: every value of an enum or table, both truth
values, every cell of a grid, every filling of a grid (``choose g: GRID``); for any
other type, the spec's own ``domain`` for that type (the first one declared). A
definition with a parameter outside these is not checked, and the report says so.
"""
from __future__ import annotations

import dataclasses
import time
from typing import Any, Callable

from rulewright.compiler import ir as I
from rulewright.compiler.interpret import interpreter_for
from rulewright.compiler.diagnostics import NotSupportedError, RulesError, Span, reason_of
from rulewright.compiler.semantics import render, runtime as rt
from rulewright.compiler.types import BOOL, INT, BoardT, BoolT, CellT, CollT, EnumT, ScoreT, SeatT, Type
from rulewright.solver.answer import Answer
from rulewright.solver.queries import run_query
from rulewright.solver.replay import ConcreteWalk
from rulewright.solver.verify import kept
from rulewright.solver.verify.findings import Finding
from rulewright.solver.verify.positions import positions as sample_positions


class Prover:
    """Questions to CP-SAT about one program: each one a query written here, added to a
    copy of the program's queries and answered (and its witness replayed) by run_query."""

    def __init__(self, program: I.Program, time_limit: float, workers: int, positions: int = 0,
                 fresh: bool = False):
        self.program = dataclasses.replace(program, queries=dict(program.queries))
        self.time_limit, self.workers = time_limit, workers
        self.count = 0
        self.wanted_positions = positions
        self._positions: list | None = None
        self.only: set[str] | None = None      # the definitions, scorings and properties to check (None: all)
        self.asked = kept.Asked(fresh)     # the questions of this run (shared with differs)

    def wants(self, name: str) -> bool:
        """Whether a definition, scoring or property is among those to check."""
        return self.only is None or name in self.only

    @property
    def positions(self) -> list:
        """Positions the rules reach in seeded games (made when first needed)."""
        if self._positions is None:
            self._positions = sample_positions(self.program, self.wanted_positions, time_limit=self.time_limit)
        return self._positions

    def ask(self, body: list[I.Stmt], node, limit: float | None = None, state: Any = None) -> Answer:
        self.count += 1
        name = f"verify_{self.count}"
        seconds = limit or self.time_limit

        def solve() -> Answer:
            self.program.queries[name] = I.QueryDef(name, None, body, [], node)
            try:
                return run_query(self.program, name, {}, time_limit=seconds, workers=self.workers,
                                 reasons=False, hint_seconds=0, state=state)
            finally:
                del self.program.queries[name]
        key = kept.keys_of(self.program).key(body, state, seconds, self.workers)
        return dataclasses.replace(self.asked.answer(key, solve, seconds), query=name)


# ---------------------------------------------------------------- domains
def declared_domain(program: I.Program, t: Type, owner: str | None) -> I.DomainDef | None:
    """The spec's own domain for values of type ``t`` taken by ``owner``: one written
    "for" it first, then one for every definition."""
    mine = [d for d in program.domains.values() if d.type == t and owner in d.only]
    every = [d for d in program.domains.values() if d.type == t and not d.only]
    return (mine or every or [None])[0]


def domain_of(program: I.Program, name: str, t: Type, span: Span, owner: str | None = None,
              on_position: bool = False) -> list[I.Stmt] | None:
    """Statements that bind ``name`` to every value of type ``t`` in turn (None: no domain).
    The spec's own ``domain`` of the type (for ``owner``) first; else, built in, every value
    of an enum or a table, both truth values, every cell of a grid, every filling of a grid
    (cells free or not), and on a position every player."""
    declared = declared_domain(program, t, owner)
    if declared is not None:
        own = {st.name for st in I.statements(declared.body) if isinstance(st, (I.Choose, I.Let))}
        body = renamed(declared.body, {n: f"{name}__{n}" for n in own})
        return body + [I.Let(span, name, I.Local(t, span, f"{name}__{declared.var}"))]
    builtin = _builtin_domain(program, name, t, span)
    if builtin is None and on_position and isinstance(t, SeatT):
        builtin = [I.Choose(span, name, "element", I.Global(CollT("list", t), span, "players"), None, None, None, None)]
    return builtin


def domain_words(program: I.Program, params, owner: str | None = None) -> str:
    """How the domain of parameters reads: "over g: every ecosystem the box allows, ...". """
    parts = []
    for p, t in params:
        declared = declared_domain(program, t, owner)
        parts.append(f"{p}: {declared.title or declared.name}" if declared is not None else f"{p}: every {t}")
    return "over " + ", ".join(parts)


def _builtin_domain(program: I.Program, name: str, t: Type, span: Span) -> list[I.Stmt] | None:
    coll = None
    if isinstance(t, EnumT) and t.name in program.enums:
        coll = tuple(program.enums[t.name].values)
    elif isinstance(t, BoolT):
        coll = (True, False)
    elif isinstance(t, CellT) and (t.grid in program.grids or len(program.grids) == 1):
        coll = cells_named(program.grid(t.grid))
    if coll is not None:
        return [I.Choose(span, name, "element", I.Const(CollT("list", t), span, coll), None, None, None, None)]
    if isinstance(t, BoardT) and t.grid in program.grids:
        return [I.Choose(span, name, "value", None, None, t, None, None)]
    return None


def cells_named(grid) -> tuple:
    """Every cell a rule over a cell of ``grid`` can be asked about in play: the frame's
    cells; for a floating grid also those around it that a placement can name (a grid
    floats while it grows: its cards are kept from row and column 0, and a card may go
    above or left of them, as far as the frame's size allows: rows -(rows - 1) to
    rows - 1, and the same for columns; ``runtime.placements``)."""
    if not grid.floating:
        return grid.cells
    return tuple((r, c) for r in range(1 - grid.rows, grid.rows) for c in range(1 - grid.cols, grid.cols))


def renamed(nodes, names: dict[str, str]):
    """A copy of IR statements or expressions with the names of ``names`` renamed where they
    are bound (choose, let) and read (a local). No inner block hides a name (the resolver
    refuses it), so every read of a name is of the binding renamed."""
    if isinstance(nodes, list):
        return [renamed(x, names) for x in nodes]
    if isinstance(nodes, tuple):
        return tuple(renamed(x, names) for x in nodes)
    if not isinstance(nodes, (I.Expr, I.Stmt, I.Binder)):
        return nodes
    changes = {}
    for f in dataclasses.fields(nodes):
        value = getattr(nodes, f.name)
        if f.name == "name" and isinstance(nodes, (I.Local, I.Choose, I.Let)) and value in names:
            changes["name"] = names[value]
        elif isinstance(value, (I.Expr, I.Stmt, I.Binder, list, tuple)):
            changes[f.name] = renamed(value, names)
    return dataclasses.replace(nodes, **changes)


def _local(name: str, t: Type, span: Span) -> I.Local:
    return I.Local(t, span, name)


def _not(e: I.Expr) -> I.Expr:
    return I.Op(BOOL, e.span, "not", [e])


def reads_state(program: I.Program, e_or_body) -> bool:
    """Whether an expression or statements (or a definition's body), or a definition they
    call, read the game's state: such a rule has a value only on a position."""
    seen: set[str] = set()
    todo = list(e_or_body) if isinstance(e_or_body, list) else [e_or_body]
    while todo:
        node = todo.pop()
        for x in I.descendants([node]):
            if isinstance(x, I.SeatVar) or (isinstance(x, I.Global) and (x.name in program.state or
                                                                        x.name in ("players", "seats"))):
                return True
            if isinstance(x, (I.Call, I.Global)) and x.name in program.funcs and x.name not in seen:
                # (a definition without parameters is read as a global)
                seen.add(x.name)
                body = program.funcs[x.name].body
                if body is not None:
                    todo.append(body)
    return False


def _witness(prover: "Prover", body: list[I.Stmt], answer: Answer, names: list[str]) -> dict[str, Any]:
    """The values of ``names`` in an answer: its choices walked again through the
    interpreter (a domain may bind a parameter with a ``let``)."""
    walk = ConcreteWalk(interpreter_for(prover.program), {}, answer.witness, None, None)
    env: dict[str, Any] = {}
    walk.block([st for st in body if isinstance(st, (I.Choose, I.Let))], env)
    return {n: env.get(n, answer.witness.get(n)) for n in names}


def _grid_files(witness: dict[str, Any], prefix: str = "") -> list[tuple[str, str, Any]]:
    return [(f"-{prefix}{k}.grid", "grid", render.jsonable(v)) for k, v in witness.items() if isinstance(v, rt.Board)]


def _span(d) -> Span | None:
    return getattr(d, "name_span", None) or getattr(d, "span", None)


def _ids(node) -> tuple[str, ...]:
    return tuple(t for t, _ in getattr(node, "tags", ()) or ())


# ---------------------------------------------------------------- never_holds / always_holds
def rules_hold(prover: Prover, skip: Callable[[str, str, str], None], progress=None) -> list[Finding]:
    """For every rule over finite domains: whether some input makes it true and some makes it
    false. A side no input reaches is a warning (``never_holds`` / ``always_holds``, PROVED
    when CP-SAT closed the search); a rule that can be both is shown with both witnesses."""
    program = prover.program
    out = []
    rules = [fd for fd in program.funcs.values() if fd.kind == "rule" and fd.body is not None
             and "__before_" not in fd.name and prover.wants(fd.name)]
    for fd in rules:
        if progress:
            progress(f"rule {fd.name}")
        if not fd.params:
            skip("never_holds", fd.name, "no parameters: its value is fixed by the settings")
            continue
        span = fd.node.name_span
        choices: list[I.Stmt] = []
        for p, t in fd.params:
            d = domain_of(program, p, t, span, fd.name, on_position=True)
            if d is None:
                choices = None
                skip("never_holds", fd.name, f"parameter '{p}' is a {t}: no domain to range over "
                                             f"(declare one: domain NAME: {t} {{ choose ... }})")
                break
            choices += d
        if choices is None:
            continue
        on_positions = reads_state(program, fd.body) or reads_state(program, choices)
        if on_positions and not prover.positions:
            skip("never_holds", fd.name, "reads the game's state: it has a value on a position only, and no "
                                         "position was sampled (--positions)")
            continue
        call = I.Call(BOOL, span, fd.name, [_local(p, t, span) for p, t in fd.params])
        names = [p for p, _ in fd.params]
        started = time.perf_counter()
        try:
            if on_positions:
                out.append(_rule_on_positions(prover, fd, choices, call, names, started))
                continue
            yes = prover.ask(choices + [I.Require(span, call)], fd.node)
            no = prover.ask(choices + [I.Require(span, _not(call))], fd.node)
        except (NotSupportedError, RulesError) as exc:
            skip("never_holds", fd.name, f"the solver cannot express it: {reason_of(exc)}")
            continue
        seconds = time.perf_counter() - started
        common = dict(definition=fd.name, span=span, rule_ids=_ids(fd.node), seconds=seconds)
        if "UNKNOWN" in (yes.status, no.status):
            out.append(Finding("never_holds", status="UNKNOWN", severity="warning",
                               message=f"rule '{fd.name}': the search did not close within the time limit",
                               **common))
            continue
        if yes.status == "INFEASIBLE":
            out.append(Finding("never_holds", status="PROVED", severity="warning",
                               message=f"rule '{fd.name}' never holds: no input can make it true "
                                       f"({domain_words(program, fd.params, fd.name)})", **common))
            continue
        w_yes = _witness(prover, choices, yes, names)
        if no.status == "INFEASIBLE":
            out.append(Finding("always_holds", status="PROVED", severity="warning",
                               message=f"rule '{fd.name}' always holds: no input can make it false"
                                       + (", so its message can never be shown" if fd.message else "")
                                       + f" ({domain_words(program, fd.params, fd.name)})",
                               witness={"holds": w_yes}, witness_files=_grid_files(w_yes, "holds-"), **common))
            continue
        w_no = _witness(prover, choices, no, names)
        out.append(Finding("never_holds", status="PROVED", severity="info",
                           message=f"rule '{fd.name}' can hold and can fail (both witnesses replayed)",
                           witness={"holds": w_yes, "fails": w_no},
                           witness_files=_grid_files(w_yes, "holds-") + _grid_files(w_no, "fails-"), **common))
    return out


def _rule_on_positions(prover: Prover, fd: I.FuncDef, choices, call, names, started: float) -> Finding:
    """A rule that reads the state, on the sampled positions: a witness each side (the
    position and the values, replayed) where one exists; a side no position reaches is
    evidence only (SAMPLED)."""
    span = fd.node.name_span
    found: dict[str, Any] = {}
    files: list = []
    tried = 0
    for pos in prover.positions:
        state = pos.state_for(prover.program)
        if state is None:
            continue
        tried += 1
        for side, cond in (("holds", call), ("fails", _not(call))):
            if side in found:
                continue
            answer = prover.ask(choices + [I.Require(span, cond)], fd.node, state=state)
            if answer.status in ("OPTIMAL", "FEASIBLE"):
                found[side] = {"position": pos.label, **_witness(prover, choices, answer, names)}
                files.append((f"-{side}.state.json", "state", pos.doc))
        if len(found) == 2:
            break
    common = dict(definition=fd.name, span=span, rule_ids=_ids(fd.node), seconds=time.perf_counter() - started,
                  witness=found or {"positions": tried}, witness_files=files)
    if len(found) == 2:
        return Finding("never_holds", status="PROVED", severity="info",
                       message=f"rule '{fd.name}' can hold and can fail on positions the rules reach "
                               "(both witnesses replayed)", **common)
    side = "never_holds" if "holds" not in found else "always_holds"
    return Finding(side, status="SAMPLED", severity="info",
                   message=f"rule '{fd.name}' " + ("never held" if side == "never_holds" else "never failed")
                           + f" on any input at {tried} sampled positions (evidence, not proof)", **common)


# ---------------------------------------------------------------- property
def as_counterexample_query(prop: I.PropertyDef) -> list[I.Stmt]:
    """A property's body with its ``holds`` turned into the requirement that it fails: a
    solution is a counterexample; none over the whole domain proves the property."""
    body = list(prop.body)
    last = body[-1]
    return body[:-1] + [I.Require(last.span, _not(last.cond))]


def properties(prover: Prover, skip, progress=None) -> list[Finding]:
    """Every property of the spec: PROVED when no choice breaks it over the whole domain,
    else a COUNTEREXAMPLE (replayed). A property that reads the game's state is asked on
    the sampled positions: a counterexample there is real; none is SAMPLED evidence."""
    program = prover.program
    out = []
    for prop in (p for p in program.properties.values() if prover.wants(p.name)):
        if progress:
            progress(f"property {prop.name}")
        node = prop.node
        common = dict(definition=prop.name, span=node.name_span, rule_ids=_ids(node))
        sentence = prop.title or prop.name
        started = time.perf_counter()
        body = as_counterexample_query(prop)
        on_positions = reads_state(program, body)
        states = [(pos, pos.state_for(program)) for pos in prover.positions] if on_positions else [(None, None)]
        states = [(pos, st) for pos, st in states if pos is None or st is not None]
        if not states:
            skip("property", prop.name, "reads the game's state, and no position was sampled (--positions)")
            continue
        found = unknown = None
        try:
            for pos, state in states:
                answer = prover.ask(body, node, state=state)
                if answer.status in ("OPTIMAL", "FEASIBLE"):
                    found = (pos, answer)
                    break
                if answer.status != "INFEASIBLE":
                    unknown = answer
        except (NotSupportedError, RulesError) as exc:
            skip("property", prop.name, f"the solver cannot express it: {reason_of(exc)}")
            continue
        seconds = time.perf_counter() - started
        if found is not None:
            pos, answer = found
            w = dict(answer.witness)
            files = _grid_files(w)
            if pos is not None:
                w = {"position": pos.label, **w}
                files.append((".state.json", "state", pos.doc))
            out.append(Finding("property", status="COUNTEREXAMPLE", severity="error", seconds=seconds,
                               message=f"'{sentence}' does not hold: the witness breaks it (replayed)",
                               witness=w, witness_files=files, **common))
        elif unknown is not None:
            out.append(Finding("property", status="UNKNOWN", severity="warning", seconds=seconds,
                               message=f"'{sentence}': no counterexample found before the time limit "
                                       f"({prover.time_limit:g} s), none ruled out", **common))
        elif on_positions:
            out.append(Finding("property", status="SAMPLED", severity="info", seconds=seconds,
                               witness={"positions": len(states)},
                               message=f"'{sentence}' holds for every choice at each of {len(states)} sampled "
                                       "positions (proved there; evidence, not proof, for other positions)",
                               **common))
        else:
            out.append(Finding("property", status="PROVED", severity="info", seconds=seconds,
                               message=f"'{sentence}' holds for every choice", **common))
    return out


# ---------------------------------------------------------------- range
def _params_domain(program: I.Program, params, span: Span, skip, check: str, name: str,
                   on_position: bool = False, owner: str | None = None) -> list | None:
    body: list[I.Stmt] = []
    for p, t in params:
        d = domain_of(program, p, t, span, owner or name, on_position=on_position)
        if d is None:
            skip(check, name, f"parameter '{p}' is a {t}: no domain to range over "
                              f"(declare one: domain NAME: {t} {{ choose ... }})")
            return None
        body += d
    return body


def ranges(prover: Prover, skip, progress=None) -> list[Finding]:
    """The least and the most of every scoring, and of every number a definition with
    parameters computes, over the domains of their parameters: each bound PROVED (with
    its witness) when CP-SAT closed the search, else UNKNOWN with the bound reached."""
    program = prover.program
    # (what, the definition, its params, its node, its type, the step: a scoring's steps each have a range)
    targets = []
    for sd in program.scorings.values():
        targets.append((sd.name, sd.name, sd.params, sd.node, ScoreT(sd.name), None))
        if len(sd.steps) > 1:
            targets += [(f"{sd.name}.{st.name}", sd.name, sd.params, st.node, ScoreT(sd.name), st.name)
                        for st in sd.steps]
    targets += [(fd.name, fd.name, fd.params, fd.node, fd.type, None) for fd in program.funcs.values()
                if fd.kind == "def" and fd.params and fd.body is not None and fd.type == INT
                and "__before_" not in fd.name]
    targets = [t for t in targets if "__before_" not in t[0] and prover.wants(t[1])]
    names = {t[0] for t in targets}
    # a definition whose value is another's (its body calls it with its own parameters) has
    # its range: asked once, for the other
    same = {t[0]: base for t in targets if t[5] is None
            for base in [same_as(program, t[0])] if base is not None and base in names}
    found: dict[str, list[Finding]] = {}
    for target in sorted(targets, key=lambda t: t[0] in same):      # (the others first)
        name = target[0]
        if progress:
            progress(f"range {name}")
        base = same.get(name)
        if base is not None and found.get(base):
            found[name] = [_same_range(found[base][0], name, target[3])]
        else:
            found[name] = _range(prover, target, skip)
    return [f for t in targets for f in found[t[0]]]


def range_share(time_limit: float) -> float:
    """The work each bound of a range is given: a share of the time limit, 3 seconds' at
    the default 10 (a bound CP-SAT closes at all closes within it on the shipped games;
    one that does not stays UNKNOWN with the bound reached, and a longer ``--time-limit``
    gives every bound more)."""
    return min(time_limit, max(3.0, 0.3 * time_limit))


def _range(prover: Prover, target: tuple, skip) -> list[Finding]:
    """The range finding of one target of ``ranges`` (none when it is skipped)."""
    program = prover.program
    out: list[Finding] = []
    name, owner, params, node, typ, step = target
    span = node.name_span
    body = _params_domain(program, params, span, skip, "range", name, on_position=bool(prover.positions),
                          owner=owner)
    if body is None:
        return out
    stateful = (owner in program.funcs and reads_state(program, program.funcs[owner].body)) or \
        (owner in program.scorings and reads_state(program, [st for s in program.scorings[owner].steps
                                                              for st in s.body])) or \
        reads_state(program, body)
    states = [(pos, pos.state_for(program)) for pos in prover.positions] if stateful else [(None, None)]
    states = [(pos, st) for pos, st in states if pos is None or st is not None]
    if not states:
        skip("range", name, "reads the game's state, and no position was sampled (--positions)")
        return out
    call = I.Call(typ, span, owner, [_local(p, t, span) for p, t in params])
    if step is not None:
        call = I.Op(INT, span, "step_points", [call], step)
    names = [p for p, _ in params]
    started = time.perf_counter()
    ends: dict[str, list] = {"minimize": [], "maximize": []}
    try:
        for pos, state in states:
            if any(a.status not in ("OPTIMAL", "INFEASIBLE") for side in ends.values() for _, a in side):
                # a bound not settled at a position leaves the range UNKNOWN whatever the
                # other positions give: they are not asked (the range says how many were;
                # the work, not the clock, decides, so a busy machine asks the same)
                break
            for sense in ("minimize", "maximize"):
                # a range is information: each bound gets a share of the time limit
                # (``range_share``: 3 s of work at the default 10 s)
                answer = prover.ask(body + [I.Objective(span, sense, call)], node, state=state,
                                    limit=range_share(prover.time_limit))
                if answer.status != "INFEASIBLE":
                    ends[sense].append((pos, answer))
    except (NotSupportedError, RulesError) as exc:
        skip("range", name, f"the solver cannot express it: {reason_of(exc)}")
        return out
    seconds = time.perf_counter() - started
    if not ends["minimize"] or not ends["maximize"]:
        skip("range", name, "its domain is empty: no value of its parameters exists")
        return out

    def value(a):
        return a.objective if a.status == "OPTIMAL" else a.bound
    known = [(p, a) for p, a in ends["minimize"] if value(a) is not None]
    lo_pos, lo = min(known, key=lambda x: value(x[1])) if known else ends["minimize"][0]
    known = [(p, a) for p, a in ends["maximize"] if value(a) is not None]
    hi_pos, hi = max(known, key=lambda x: value(x[1])) if known else ends["maximize"][0]
    closed = all(a.status == "OPTIMAL" for side in ends.values() for _, a in side)
    low, high = value(lo), value(hi)
    words = "step" if step is not None else "scoring" if name in program.scorings else "definition"
    w = {}
    for key, pos, a in (("least", lo_pos, lo), ("most", hi_pos, hi)):
        if a.objective is not None:
            w[key] = ({"position": pos.label} if pos is not None else {}) | _witness(prover, body, a, names)
    files = _grid_files(w.get("least", {}), "least-") + _grid_files(w.get("most", {}), "most-")
    for key, pos in (("least", lo_pos), ("most", hi_pos)):
        if pos is not None and key in w:
            files.append((f"-{key}.state.json", "state", pos.doc))
    negative = owner in program.scorings and step is None and low is not None and low < 0
    asked = len(ends["minimize"])
    status = ("SAMPLED" if stateful else "PROVED") if closed else "UNKNOWN"
    where = f" at {asked} sampled positions (each bound proved there)" if stateful else ""
    out.append(Finding("range", definition=name, status=status,
                       severity="warning" if negative else "info", span=span, rule_ids=_ids(node),
                       seconds=seconds,
                       message=f"{words} '{name}' gives from {_num(low)} to {_num(high)} "
                               f"{domain_words(program, params, owner)}{where}"
                               + (" (it can go below 0)" if negative else "")
                               + ("" if closed else f" (bounds reached when the time ran out: not closed; the "
                                                    f"witnesses found give {_num(lo.objective)} and "
                                                    f"{_num(hi.objective)})"),
                       witness={"least": low, "most": high, **{f"{k}_at": v for k, v in w.items()},
                                **({} if closed else {"least_found": lo.objective, "most_found": hi.objective})},
                       witness_files=files))
    return out


def same_as(program: I.Program, name: str) -> str | None:
    """The definition whose value a definition's always is: its body calls that one with its
    own parameters, in order, of the same names and types (followed through such calls);
    None when there is none."""
    fd, seen = program.funcs.get(name), {name}
    while fd is not None and isinstance(fd.body, I.Call) and fd.body.name in program.funcs \
            and fd.body.name not in seen:
        callee = program.funcs[fd.body.name]
        if callee.kind != "def" or callee.params != fd.params or callee.type != fd.type or \
                [a.name if isinstance(a, I.Local) else None for a in fd.body.args] != [p for p, _ in fd.params]:
            break
        seen.add(callee.name)
        fd = callee
    return fd.name if fd is not None and fd.name != name else None


def _same_range(base: Finding, name: str, node) -> Finding:
    """The range of ``name``, a definition whose value is always ``base``'s definition's."""
    words = f"definition '{base.definition}'"
    return dataclasses.replace(
        base, definition=name, span=node.name_span, rule_ids=_ids(node), seconds=0.0,
        message=base.message.replace(words, f"definition '{name}'", 1)
        + f" (the same as '{base.definition}': its value is always that definition's, so its range was not asked again)")


def _num(v) -> str:
    return "?" if v is None else str(v)


# ---------------------------------------------------------------- choosable
def choosable(prover: Prover, skip, progress=None, budget: float = 60.0) -> list[Finding]:
    """For every rule over finite domains and each parameter of an enum or table type:
    every value that can make the rule true with some choice of the other parameters.
    A value none can is a warning, PROVED when CP-SAT closed the search. Each question excludes the
    values already shown choosable, so a rule costs one question per value it admits."""
    program = prover.program
    out = []
    for fd in program.funcs.values():
        if fd.kind != "rule" or fd.body is None or "__before_" in fd.name or not fd.params or not prover.wants(fd.name):
            continue
        enum_params = [(i, p, t) for i, (p, t) in enumerate(fd.params)
                       if isinstance(t, EnumT) and t.name in program.enums]
        if not enum_params or reads_state(program, fd.body):
            continue
        span = fd.node.name_span
        quiet = []
        body = _params_domain(program, fd.params, span, lambda *a: quiet.append(a), "choosable", fd.name)
        if body is None or reads_state(program, body):
            continue
        call = I.Call(BOOL, span, fd.name, [_local(p, t, span) for p, t in fd.params])
        for _, p, t in enum_params:
            if progress:
                progress(f"choosable {fd.name}({p})")
            values = list(program.enums[t.name].values)
            shown: list = []
            started = time.perf_counter()
            status = "PROVED"
            try:
                while len(shown) < len(values):
                    if time.perf_counter() - started > budget:
                        status = "UNKNOWN"
                        break
                    cond = [I.Require(span, call)]
                    if shown:
                        cond.append(I.Require(span, I.Op(BOOL, span, "not_in", [
                            _local(p, t, span), I.Const(CollT("list", t), span, tuple(shown))])))
                    answer = prover.ask(body + cond, fd.node)
                    if answer.status == "INFEASIBLE":
                        break
                    if answer.status not in ("OPTIMAL", "FEASIBLE"):
                        status = "UNKNOWN"
                        break
                    shown.append(answer.witness[p])
            except (NotSupportedError, RulesError) as exc:
                skip("choosable", fd.name, f"the solver cannot express it: {reason_of(exc)}")
                break
            seconds = time.perf_counter() - started
            never = [v for v in values if v not in shown]
            common = dict(definition=f"{fd.name}({p})", span=span, rule_ids=_ids(fd.node), seconds=seconds)
            if status == "UNKNOWN":
                out.append(Finding("choosable", status="UNKNOWN", severity="warning",
                                   message=f"rule '{fd.name}': {len(shown)} of {len(values)} values of '{p}' shown "
                                           f"choosable before the time ran out; the others not ruled out",
                                   witness={"choosable": shown}, **common))
            elif never:
                out.append(Finding("choosable", status="PROVED", severity="warning",
                                   message=f"rule '{fd.name}' can never hold with {p} = "
                                           + ", ".join(map(str, never[:8])) + (" ..." if len(never) > 8 else "")
                                           + f" ({len(never)} of {len(values)} values of {t}): no choice of the "
                                             "other parameters makes it true",
                                   witness={"never": never, "choosable": shown}, **common))
            else:
                out.append(Finding("choosable", status="PROVED", severity="info",
                                   message=f"every value of '{p}' ({len(values)}) can make rule '{fd.name}' "
                                           "true (each with a replayed witness)", **common))
    return out


# ---------------------------------------------------------------- differs
