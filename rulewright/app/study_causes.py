"""What two rule sets of a study differ in, as rules: the causes a study's effects are
traced back to.

Counting the rules that run (``measure``) finds a house rule that makes a step run more
or less often; a house rule that changes a value (a table of points, a definition, a
scoring step) runs the same steps as its base and shows only in the figures. So each
effect also names what the rules say differently: the definitions the house rule
changes, adds or removes (``compiler/variants/diffing.py``: as ``rulewright diff`` finds
them), or the setting a sweep varies, and for each, the parts of the game as played
that read it, directly or through other definitions (the nearest procedure, step,
mode, scoring or outcome on each path of the rules graph).

In:  the two sides of a study (``studying.Side``: a program and the settings it was
     opened with).
Out: a list of changes, each ``{"name", "kind", "how" (changed, added, removed or set),
     "rule_ids", "read_by": [{"name", "kind", "rule_ids"}]}``; ``rule_ids`` of a change
     are those of both sides (a house rule's own ID beside the base's).
"""
from __future__ import annotations

PLAYED = ("procedure", "step", "mode", "scoring", "outcome")


def _played_readers(g, name: str) -> list[dict]:
    """The nearest played parts reading ``name``: readers followed through definitions,
    stopping at each procedure, step, mode, scoring or outcome met."""
    if name not in g:
        return []
    seen, todo, found = {name}, [name], []
    while todo:
        n = todo.pop()
        for u in g.predecessors(n):
            if u in seen or g.edges[u, n]["kind"] not in ("reads", "calls", "contains"):
                continue
            seen.add(u)
            if g.nodes[u].get("kind") in PLAYED:
                found.append(u)
            else:
                todo.append(u)
    return [{"name": u, "kind": g.nodes[u].get("kind"), "rule_ids": list(g.nodes[u].get("rules", []))}
            for u in sorted(found)]


def _said(value) -> str:
    """A setting's value as it is written (an enum value by its name)."""
    return str(getattr(value, "name", value))


def changes(side, other) -> list[dict]:
    """What ``side`` says differently from ``other`` (see the module docstring); empty
    when they are not versions of one game."""
    from rulewright.compiler import graph as rules_graph                 # (the rules graph and the diff:
    from rulewright.compiler.variants import diffing                     #  once a study is summed up)
    a, b = other.program, side.program
    if a.name != b.name:
        return []
    ga, gb = rules_graph.shared(a), rules_graph.shared(b)
    out = []
    set_a, set_b = dict(other.sets), dict(side.sets)
    for name in sorted(set(set_a) | set(set_b)):
        va, vb = a.constants.get(name, set_a.get(name)), b.constants.get(name, set_b.get(name))
        if va != vb and name in gb:
            out.append({"name": name, "kind": gb.nodes[name].get("kind"), "how": "set",
                        "values": [_said(vb), _said(va)],
                        "rule_ids": list(gb.nodes[name].get("rules", [])), "read_by": _played_readers(gb, name)})
    if a is not b:
        d = diffing.diff(a, b)
        for how, entries in (("changed", d.changed), ("added", d.added), ("removed", d.removed)):
            for e in entries:
                g, key = (ga, e.name) if how == "removed" else (gb, e.name)
                if e.kind in ("row", "field"):
                    key = e.name.split(".")[0]          # (a row or field changes its table, enum or record)
                out.append({"name": e.name, "kind": e.kind, "how": how, "rule_ids": list(e.rule_ids),
                            "read_by": _played_readers(g, key)})
    return out


def rule_ids(found: list[dict]) -> list[str]:
    """Every rule ID the changes name, theirs and their readers', each once, in order."""
    ids: dict[str, None] = {}
    for c in found:
        ids.update(dict.fromkeys(c["rule_ids"]))
        for r in c["read_by"]:
            ids.update(dict.fromkeys(r["rule_ids"]))
    return list(ids)


def lines(found: list[dict], most: int = 6) -> list[str]:
    """The changes in words, one line each (the terminal's and the report's): each with its
    rule IDs and the first ``most`` parts of the game that read it, by name."""
    out = []
    for c in found:
        ids = f" [{' '.join(c['rule_ids'])}]" if c["rule_ids"] else ""
        what = (f"{c['name']} set to {c['values'][0]} (against {c['values'][1]})" if c["how"] == "set"
                else f"{c['kind']} {c['name']} {c['how']}")
        names = [f"{r['kind']} {r['name']}" for r in c["read_by"]]
        if len(names) > most:
            names = names[:most] + [f"{len(names) - most} more"]
        out.append(what + ids + (f"; played through {', '.join(names)}" if names
                                 else "; read by no part of the game as played"))
    return out


__all__ = ["PLAYED", "changes", "lines", "rule_ids"]
