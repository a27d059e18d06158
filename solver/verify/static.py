"""What the rules graph shows without solving: definitions nothing reachable reads.

In:  a checked program and its rules graph (``compiler.graph``).
Out: ``unused`` findings (warnings, PROVED: a fact of the graph) for definitions,
     switches, params, tables, enums, state variables and procedures that nothing
     reachable from a mode, a scoring, a query or a property reads.
"""
from __future__ import annotations

import networkx as nx

from rulewright.compiler import graph as rules_graph
from rulewright.compiler import ir as I
from rulewright.compiler.syntax import ast as A
from rulewright.solver.verify.findings import Finding

_ROOTS = (A.Mode, A.Scoring, A.Query, A.Property, A.Domain, A.Check, A.Invariant)
# types are read by being written as types: not reported
_TYPES = (A.Grid, A.Record, A.Enum, A.Table)
_WORDS = {A.Def: "definition", A.Rule: "rule", A.Relation: "relation", A.Switch: "switch",
          A.Constant: "param", A.Table: "table", A.Enum: "enum", A.Procedure: "procedure",
          A.Outcome: "outcome", A.Grid: "grid", A.Record: "record"}


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
        if isinstance(d, _ROOTS) or isinstance(d, (A.Game, A.Variant) + _TYPES):
            continue
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


def _finding(name: str, word: str, span, d) -> Finding:
    return Finding("unused", definition=name, status="PROVED", severity="warning", span=span,
                   rule_ids=tuple(t for t, _ in getattr(d, "tags", ()) or ()),
                   message=f"{word} '{name}' is read by nothing a mode, a scoring, a query or a "
                           "property reaches: it changes no game")
