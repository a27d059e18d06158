"""Checked program -> the rules graph (a networkx ``DiGraph``).

In:  an ``ir.Program`` (or, for the cycle check, its list of edges).
Out: a graph whose nodes are definitions (the steps of scorings, procedures and
     modes are nodes of their own, ``score.water``) with their kind, span, rule
     IDs and first doc line, and whose edges say ``reads`` (a definition uses
     another), ``calls`` (a procedure runs another), ``contains`` (a scoring,
     procedure or mode owns its steps),
     ``precedes`` (step order) or ``feeds`` (a step reads a layer an earlier step
     marks), each with the span that created it.

It gives the execution order of steps, cycle errors printed edge by edge
(``a -> b -> a`` with a location per edge), what a change can affect
(``downstream``), and the JSON and Graphviz dumps of ``rulewright graph``.

networkx loads when a graph is built, or a cycle is found: the check that there is
none, which every spec's resolution runs, needs nothing of it.
"""
from __future__ import annotations

import json
import weakref
from typing import TYPE_CHECKING

from rulewright.compiler.syntax import ast as A
from rulewright.compiler.diagnostics import Diagnostic, GraphError, Span

if TYPE_CHECKING:
    import networkx as nx


def check_cycles(edges, defs: dict[str, A.Definition]) -> None:
    spans: dict[tuple[str, str], Span] = {}         # each edge once, with the span that made it first
    after: dict[str, list[str]] = {}
    for src, dst, kind, span in edges:
        if src == dst:
            raise GraphError(Diagnostic(span, f"'{src}' uses itself: {src} -> {src}",
                                        "a definition cannot refer to itself; "
                                        "use an aggregate (sum, count, ...) to go over a collection"))
        if (src, dst) not in spans:
            spans[src, dst] = span
            after.setdefault(src, []).append(dst)
            after.setdefault(dst, [])
    if _acyclic(after):
        return
    import networkx as nx       # a cycle: networkx finds it (the same one, whatever the run)
    g = nx.DiGraph()
    for (src, dst), span in spans.items():
        g.add_edge(src, dst, span=span)
    try:
        cycle = nx.find_cycle(g)
    except nx.NetworkXNoCycle:
        return
    names = [u for u, _ in cycle] + [cycle[0][0]]
    notes = tuple((g.edges[u, v]["span"], f"{u} -> {v}") for u, v in cycle)
    first_span = g.edges[cycle[0][0], cycle[0][1]]["span"]
    raise GraphError(Diagnostic(first_span, "definitions depend on each other in a cycle: " +
                                " -> ".join(names), "break the cycle: one of these must not use the next",
                                notes=notes))


def _acyclic(after: dict[str, list[str]]) -> bool:
    """Whether the graph (each node -> the nodes its edges lead to) has no cycle: a
    topological sort (Kahn's) that reaches every node."""
    before = dict.fromkeys(after, 0)
    for targets in after.values():
        for m in targets:
            before[m] += 1
    ready = [n for n, count in before.items() if count == 0]
    sorted_ = 0
    while ready:
        n = ready.pop()
        sorted_ += 1
        for m in after[n]:
            before[m] -= 1
            if before[m] == 0:
                ready.append(m)
    return sorted_ == len(before)


def _span_text(span: Span) -> str:
    return f"{span.file}:{span.line}:{span.col}"


# the graphs of programs alive, by the program's id (a program is not hashable); each
# leaves with its program
_GRAPHS: dict[int, tuple] = {}


def shared(program) -> nx.DiGraph:
    """The rules graph of ``program``, built once for as long as the program lives, for
    readers that do not change it (the rulebook of each language and version, the diff of
    a variant against its base)."""
    kept = _GRAPHS.get(id(program))
    if kept is not None and kept[0]() is program:
        return kept[1]
    g = build(program)
    try:
        ref = weakref.ref(program, lambda _, key=id(program): _GRAPHS.pop(key, None))
    except TypeError:               # (a program that cannot be weakly referenced: built each time)
        return g
    _GRAPHS[id(program)] = (ref, g)
    return g


def build(program) -> nx.DiGraph:
    import networkx as nx       # (lazy: loaded when a graph is asked for)
    g = nx.DiGraph(name=program.name)
    for name, d in program.definitions.items():
        if isinstance(d, A.Game):
            continue
        key = d.name if not isinstance(d, A.State) else d.name
        g.add_node(key, kind=_kind(d), span=_span_text(d.name_span), rules=list(d.rule_ids),
                   doc=d.doc.splitlines()[0] if d.doc else "")
        for step in A.steps_of(d):
            g.add_node(f"{d.name}.{step.name}", kind="step", span=_span_text(step.name_span),
                       rules=[t for t, _ in step.tags],
                       doc=step.doc.splitlines()[0] if step.doc else "")
        if isinstance(d, A.State):
            for var in d.vars:
                g.add_node(var.name, kind="state", span=_span_text(var.span),
                           rules=[t for t, _ in var.tags] + list(d.rule_ids),
                           doc=var.doc.splitlines()[0] if var.doc else "")
    state_owner = {}
    for name, d in program.definitions.items():
        if isinstance(d, A.State):
            for var in d.vars:
                state_owner[name] = var.name
    for src, dst, kind, span in program.reads:
        if src not in g:
            src = state_owner.get(src, src)
        if src not in g or dst not in g:
            continue
        if g.has_edge(src, dst):
            if kind == "feeds":              # a step right after one whose layer it reads
                g.edges[src, dst]["kind"] = "feeds"
            continue
        g.add_edge(src, dst, kind=kind, span=_span_text(span))
    return g


def _kind(d: A.Definition) -> str:
    return {A.Constant: "param", A.Def: "def"}.get(type(d), type(d).__name__.lower())


def step_order(g: nx.DiGraph, scoring: str) -> list[str]:
    import networkx as nx       # (lazy: loaded when a graph is asked for)
    steps = [n for n in g.successors(scoring) if g.edges[scoring, n]["kind"] == "contains"]
    sub = g.subgraph(steps)
    return list(nx.topological_sort(sub))


def downstream(g: nx.DiGraph, names: list[str]) -> list[str]:
    """What a change to ``names`` can affect: every definition that reads or calls
    an affected one, the scoring owning an affected step, and the later steps that
    read a layer it marks."""
    affected = set(n for n in names if n in g)
    todo = list(affected)
    while todo:
        n = todo.pop()
        nxt = [u for u in g.predecessors(n) if g.edges[u, n]["kind"] in ("reads", "calls", "contains")]
        nxt += [v for v in g.successors(n) if g.edges[n, v]["kind"] == "feeds"]
        for m in nxt:
            if m not in affected:
                affected.add(m)
                todo.append(m)
    return sorted(affected - set(names))


def to_json(g: nx.DiGraph) -> str:
    data = {
        "name": g.graph.get("name"),
        "nodes": [{"id": n, **g.nodes[n]} for n in sorted(g.nodes)],
        "edges": [{"from": u, "to": v, **g.edges[u, v]} for u, v in sorted(g.edges)],
    }
    return json.dumps(data, indent=2, ensure_ascii=False)


def to_dot(g: nx.DiGraph) -> str:
    shapes = {"step": "box", "scoring": "box3d", "table": "folder", "enum": "folder", "switch": "diamond",
              "param": "diamond", "rule": "hexagon", "procedure": "cds", "mode": "tab", "query": "note", "property": "note", "domain": "note",
              "state": "cylinder", "grid": "component", "relation": "septagon", "outcome": "doubleoctagon",
              "estimate": "doubleoctagon"}
    styles = {"reads": "solid", "calls": "bold", "contains": "dotted", "precedes": "dashed", "feeds": "dashed"}
    lines = [f'digraph "{g.graph.get("name")}" {{', "  rankdir=LR;", "  node [fontname=Helvetica];"]
    for n in sorted(g.nodes):
        attrs = g.nodes[n]
        label = n + ("\\n" + " ".join(attrs["rules"][:3]) if attrs.get("rules") else "")
        lines.append(f'  "{n}" [shape={shapes.get(attrs.get("kind"), "ellipse")}, label="{label}"];')
    for u, v in sorted(g.edges):
        kind = g.edges[u, v]["kind"]
        lines.append(f'  "{u}" -> "{v}" [style={styles.get(kind, "solid")}, label="{kind}"];')
    lines.append("}")
    return "\n".join(lines)
