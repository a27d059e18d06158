"""What the rules graph shows without solving: definitions nothing reachable reads.

In:  a checked program and its rules graph (``compiler.graph``).
Out: ``unused`` findings (warnings, PROVED: a fact of the graph) for definitions,
     switches, params, tables, enums, state variables and procedures that nothing
     reachable from a mode, a scoring, a query or a property reads; and the values of
     an enum (the rows of a table) that nothing reachable names, when nothing reachable
     goes over the enum's values either (a loop, a choice, a collection, a grid of them).
"""
from __future__ import annotations

import networkx as nx

from rulewright.compiler import graph as rules_graph
from rulewright.compiler import ir as I
from rulewright.compiler import types as T
from rulewright.compiler.syntax import ast as A
from rulewright.solver.verify.findings import Finding

_ROOTS = (A.Mode, A.Scoring, A.Query, A.Property, A.Domain, A.Check, A.Invariant, A.Example, A.Estimate)
# types are read by being written as types: not reported
_TYPES = (A.Grid, A.Record, A.Enum, A.Table)
_WORDS = {A.Def: "definition", A.Rule: "rule", A.Relation: "relation", A.Switch: "switch",
          A.Constant: "param", A.Table: "table", A.Enum: "enum", A.Procedure: "procedure",
          A.Outcome: "outcome", A.Estimate: "estimate", A.Grid: "grid", A.Record: "record"}


def reachable(program: I.Program, g: nx.DiGraph) -> set[str]:
    """Every node a mode, a scoring, a query, a property, a check or an invariant reaches (through reads, calls,
    contains and the steps' reads), the roots included."""
    roots = [n for n, d in program.definitions.items() if isinstance(d, _ROOTS) and n in g]
    seen: set[str] = set(roots)
    todo = list(roots)
    while todo:
        n = todo.pop()
        for m in g.successors(n):
            if g.edges[n, m]["kind"] in ("reads", "calls", "contains", "feeds") and m not in seen:
                seen.add(m)
                todo.append(m)
    return seen


def unused(program: I.Program) -> list[Finding]:
    g = rules_graph.build(program)
    seen = reachable(program, g)
    out = []
    for name, d in program.definitions.items():
        if isinstance(d, _ROOTS) or isinstance(d, (A.Game, A.Variant, A.Section) + _TYPES):
            continue            # (a section groups definitions for the rulebook: it is read by people)
        if "__before_" in name or name not in g:
            continue
        if isinstance(d, A.State):
            for var in d.vars:
                if var.name in g and var.name not in seen:
                    out.append(_finding(var.name, "state variable", var.span, d))
            continue
        if name in seen:
            continue
        out.append(_finding(name, _WORDS.get(type(d), type(d).__name__.lower()), d.name_span, d))
    out += unused_values(program, seen)
    # a variant leaves parts of its base unread on purpose: only its own files' are warnings
    # (the variants nothing else applied extends: those named on the command line)
    extended = {str(v.extends) for v in program.variants}
    own = {v.path for v in program.variants if v.path not in extended}
    if own:
        for f in out:
            if f.span is not None and f.span.file not in own:
                f.severity = "info"
                f.message += " (a part of the base game this variant leaves out)"
    return out


def _bodies(program: I.Program):
    """(definition, its IR nodes) for every definition with a body."""
    for name, f in program.funcs.items():
        yield name, [f.body] + [x for x in (f.message or ()) if isinstance(x, I.Expr)]
    for name, s in program.scorings.items():
        yield name, [st for step in s.steps for st in step.body]
    for name, v in program.state.items():
        yield v.node.name if hasattr(v.node, "name") else name, [v.init]
    for table in (program.procedures, program.modes, program.queries, program.properties, program.domains):
        for name, d in table.items():
            yield name, d.body
    for table in (program.checks, program.invariants):
        for name, c in table.items():
            yield name, [c.domain, c.filter, c.cond] + [x for x in c.message if isinstance(x, I.Expr)]


def _enums_in(t: T.Type, program: I.Program, out: set[str], seen_records: set[str]) -> None:
    """The enums whose values a value of type ``t`` can hold many of (a collection, a map,
    a grid, a record holding one): going over them reaches every value."""
    if isinstance(t, T.CollT):
        _scalar_enums(t.elem, program, out, seen_records)
    elif isinstance(t, T.MapT):
        _scalar_enums(t.key, program, out, seen_records)
        _scalar_enums(t.value, program, out, seen_records)
    elif isinstance(t, T.BoardT) and t.grid in program.grids:
        out.add(program.grids[t.grid].cell_enum)
    elif isinstance(t, T.TupleT):
        for x in t.items:
            _enums_in(x, program, out, seen_records)
    elif isinstance(t, T.RecordT) and t.name in program.records and t.name not in seen_records:
        seen_records.add(t.name)
        for _, ft in program.records[t.name].fields:
            _enums_in(ft, program, out, seen_records)


def _scalar_enums(t: T.Type, program: I.Program, out: set[str], seen_records: set[str]) -> None:
    if isinstance(t, T.EnumT):
        out.add(t.name)
    else:
        _enums_in(t, program, out, seen_records)


def unused_values(program: I.Program, seen: set[str]) -> list[Finding]:
    """Values of an enum (rows of a table) that nothing reachable names, in an enum whose
    values nothing reachable goes over. A conservative test: a value reached only through a
    computation (a row chosen by its columns) counts as read whenever the enum is gone over."""
    named: set[tuple[str, str]] = set()
    gone_over: set[str] = set()
    records: set[str] = set()
    for owner, nodes in _bodies(program):
        if owner not in seen:
            continue
        for n in I.descendants([x for x in nodes if x is not None]):
            if isinstance(n, I.Const) and isinstance(n.type, T.EnumT):
                for v in (n.value if isinstance(n.value, (list, tuple, set, frozenset)) else (n.value,)):
                    named.add((n.type.name, str(v)))
            if isinstance(n, I.Global) and n.name in program.enums:
                gone_over.add(n.name)
            if isinstance(n, (I.Expr,)):
                _enums_in(n.type, program, gone_over, records)
            if isinstance(n, (I.Choose, I.Input)):
                for t in (getattr(n, "type", None),):
                    if t is not None:
                        _scalar_enums(t, program, gone_over, records)
    # names as written: a constant the resolver folded (``early.points``) leaves no trace in the IR
    for name, d in program.definitions.items():
        if name in seen and not isinstance(d, (A.Enum, A.Table)):
            for n in A.nodes_in(d):
                if isinstance(n, A.Name) and n.id in program.enum_of_value:
                    named.add((program.enum_of_value[n.id], n.id))
                elif isinstance(n, A.Name) and n.id in program.enums:
                    gone_over.add(n.id)
    for v in program.state.values():
        if v.name in seen:
            _enums_in(v.type, program, gone_over, records)
            if v.per not in (None, "seat"):
                gone_over.add(v.per)
    for name in program.switches:       # a variant or the command line sets any of its values
        if name in seen and name in program.enums:
            gone_over.add(name)
    for name, s in program.scorings.items():
        if name in seen:
            for _, t in s.params:
                _scalar_enums(t, program, gone_over, records)
    # values held by the data: a param's value, a reachable table's columns
    for name, value in program.constants.items():
        if name in seen:
            for v in (value if isinstance(value, (list, tuple, set, frozenset)) else (value,)):
                if isinstance(v, str) and v in program.enum_of_value:
                    named.add((program.enum_of_value[v], v))
    for name, info in program.enums.items():
        if name in seen and name in gone_over:
            for column, t in info.columns.items():
                for v in info.attrs.get(column, {}).values():
                    for x in (v if isinstance(v, (list, tuple, set, frozenset)) else (v,)):
                        if isinstance(x, str):
                            for e in _column_enums(t, program):
                                named.add((e, x))
    out = []
    for name, info in program.enums.items():
        d = program.definitions.get(name)
        if name not in seen or name in gone_over or d is None:
            continue
        word = "row" if info.columns else "value"
        for v in info.values:
            if (name, v) in named:
                continue
            f = Finding("unused", definition=f"{name}.{v}", status="PROVED", severity="warning",
                        span=info.spans.get(v, d.name_span),
                        rule_ids=tuple(t for t, _ in getattr(d, "tags", ()) or ()),
                        message=f"{word} '{v}' of {name} is named by nothing a mode, a scoring, a query or a "
                                f"property reaches, and nothing goes over every {word} of {name}: it changes "
                                "no game")
            out.append(f)
    return out


def _column_enums(t: T.Type, program: I.Program) -> set[str]:
    out: set[str] = set()
    _scalar_enums(t, program, out, set())
    return out


def _finding(name: str, word: str, span, d) -> Finding:
    return Finding("unused", definition=name, status="PROVED", severity="warning", span=span,
                   rule_ids=tuple(t for t, _ in getattr(d, "tags", ()) or ()),
                   message=f"{word} '{name}' is read by nothing a mode, a scoring, a query or a "
                           "property reaches: it changes no game")
