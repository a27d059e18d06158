"""Two checked programs -> what differs between them, and what that can affect.

In:  the ``ir.Program`` of a base spec and of a variant (or of any two specs).
Out: a ``SpecDiff``: the definitions changed, added and removed (steps and
     state variables count as definitions of their own), each with its rule IDs
     and the text of both sides; and everything downstream of them in the rules
     graph (``graph.downstream``): what the change can affect.

Two definitions are the same when their source texts are equal up to spacing and
doc comments, wherever they are written.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from rulewright.compiler.syntax import ast as A
from rulewright.compiler import graph as rules_graph
from rulewright.compiler.diagnostics import Span, source_line
from rulewright.compiler.variants.names import KEPT, kept_base, word


@dataclass
class Side:
    text: str
    span: Span
    rule_ids: list[str]
    doc: str


@dataclass
class Entry:
    name: str
    kind: str
    before: Side | None = None
    after: Side | None = None
    removal_doc: str = ""       # the doc comment a variant writes above a removal
    removal_ids: tuple = ()     # and the rule IDs it names

    @property
    def doc(self) -> str:
        """The doc comment the variant writes for what it adds, changes or removes (""
        when it writes none, or keeps the base's)."""
        if self.after is None:
            return self.removal_doc
        if not self.after.doc:
            return ""
        return "" if self.before is not None and self.before.doc == self.after.doc else self.after.doc

    @property
    def rule_ids(self) -> list[str]:
        out: list[str] = []
        for ids in (self.before.rule_ids if self.before else (), self.after.rule_ids if self.after else (),
                    self.removal_ids):
            for t in ids:
                if t not in out:
                    out.append(t)
        return out


@dataclass
class SpecDiff:
    base: str
    variant: str
    changed: list[Entry] = field(default_factory=list)
    added: list[Entry] = field(default_factory=list)
    removed: list[Entry] = field(default_factory=list)
    downstream: list[dict] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.changed or self.added or self.removed)


def source_text(span: Span) -> str:
    """The text a span covers (the whole lines from its first to its last)."""
    lines = []
    for n in range(span.line, span.end_line + 1):
        text = source_line(span.file, n)
        if text is None:
            break
        if n == span.line == span.end_line:
            text = text[span.col - 1:span.end_col - 1]
        elif n == span.line:
            text = text[span.col - 1:]
        elif n == span.end_line:
            text = text[:span.end_col - 1]
        lines.append(text)
    return "\n".join(lines).rstrip()


def _norm(text: str) -> str:
    text = re.sub(r"^\s*(override|add)\s+", "", text)
    text = re.sub(r"#[^\n\"]*$", "", text, flags=re.M)
    return re.sub(r"\s+", " ", text).strip()


def items(program) -> dict[str, tuple[str, Side, object]]:
    """name -> (kind, side, node) for every definition, step and state variable."""
    out = {}
    for f in program.files:
        for d in f.definitions:
            if kept_base(d.name):            # an override wraps it: its steps still run, as its owner's
                owner = d.name.split(KEPT)[0]
                for st in A.steps_of(d):
                    out.setdefault(f"{owner}.{st.name}", ("step", Side(source_text(st.span), st.span,
                                                                       [t for t, _ in st.tags], st.doc), st))
                continue
            if isinstance(d, A.Game):
                continue
            if isinstance(d, A.State):
                for v in d.vars:
                    out[v.name] = ("state", Side(source_text(v.span), v.span,
                                                 [t for t, _ in v.tags] + list(d.rule_ids), v.doc), v)
                continue
            # the rows and values variants add, and the rows they change (a row added
            # then changed: the row with its changes, in the order they apply)
            edits: dict[str, list] = {}
            for e in getattr(d, "edits", ()):
                edits.setdefault(e.key, []).append(e)
            if isinstance(d, (A.Table, A.Enum)):
                for r in d.added:
                    parts = [r] + edits.pop(r.key, [])
                    out[f"{d.name}.{r.key}"] = ("row", _row_side(parts), r)
            for key, parts in edits.items():
                out[f"{d.name}.{key}"] = ("row", _row_side(parts), parts[-1])
            if isinstance(d, A.Record):          # the fields a variant adds
                for f in d.fields:
                    if f.span.file != d.span.file:
                        out[f"{d.name}.{f.name}"] = ("field", Side(source_text(f.span), f.span,
                                                                   [t for t, _ in f.tags], f.doc), f)
            for st in A.steps_of(d):
                out[f"{d.name}.{st.name}"] = ("step", Side(source_text(st.span), st.span,
                                                           [t for t, _ in st.tags], st.doc), st)
            if isinstance(d, A.Scoring):
                head = d.span
                text = source_text(head).split("{", 1)[0].rstrip()
                out[d.name] = ("scoring", Side(text, head, list(d.rule_ids), d.doc), d)
                continue
            out[d.name] = (word(d), Side(source_text(d.span), d.span, list(d.rule_ids), d.doc), d)
    return out


def diff(base, variant) -> SpecDiff:
    a, b = items(base), items(variant)
    out = SpecDiff(base.title, variant.title)
    for name, (kind, side, node) in b.items():
        if name not in a and isinstance(node, A.RowEdit) and _base_row(base, name) is not None:
            out.changed.append(Entry(name, kind, _base_row(base, name), side))
        elif name not in a:
            out.added.append(Entry(name, kind, None, side))
        else:
            akind, aside, anode = a[name]
            if _norm(aside.text) != _norm(side.text) or _value_changed(anode, node):
                out.changed.append(Entry(name, kind, aside, side))
    for name, (kind, side, node) in a.items():
        if name not in b:
            out.removed.append(Entry(name, kind, side, None))
    # the rows and values variants take away (remove row TABLE.NAME)
    for info in variant.enums.values():
        for rm in getattr(info.node, "removed", ()):
            name = f"{info.name}.{rm.key}"
            if name not in a and _base_row(base, name) is not None:
                out.removed.append(Entry(name, "row", _base_row(base, name), None))
    # what the variants say of what they remove
    said = {c.name: c for info in variant.variants for c in info.changes if c.action == "remove"}
    for e in out.removed:
        if e.name in said:
            e.removal_doc, e.removal_ids = said[e.name].doc, said[e.name].rule_ids
    gb, ga = rules_graph.shared(variant), rules_graph.shared(base)
    touched = [e.name for e in out.changed + out.added]
    # a row removed changes its table or enum for what reads them
    touched += [e.name.split(".")[0] for e in out.removed if e.kind == "row"]
    # a row or field added changes its table, enum or record for what reads them
    touched += [e.name.split(".")[0] for e in out.added + out.changed if e.kind in ("row", "field")]
    names = set(rules_graph.downstream(gb, touched))
    # what read the old versions too (a step that no longer marks a layer still
    # changes the steps that read it), and what read the removed definitions
    gone = [e.name for e in out.removed] + [e.name for e in out.changed]
    for n in _readers(ga, gone):
        if n in gb:
            names.add(n)
    names -= set(touched)
    for n in sorted(names):
        attrs = gb.nodes[n]
        out.downstream.append({"name": n, "kind": attrs.get("kind"), "rule_ids": list(attrs.get("rules", [])),
                               "at": attrs.get("span"), "doc": attrs.get("doc", "")})
    return out


def _row_side(parts: list) -> Side:
    """A row as variants leave it: the row added or changed, then each later change."""
    tags = [t for p in parts for t, _ in p.tags]
    docs = [p.doc for p in parts if p.doc]
    return Side("\n".join(source_text(p.span) for p in parts), parts[-1].span, list(dict.fromkeys(tags)),
                "\n".join(dict.fromkeys(docs)))


def _base_row(base, name: str) -> Side | None:
    """The base's row TABLE.NAME (a line of the spec or of its table file), if any."""
    table, _, key = name.partition(".")
    info = base.enums.get(table)
    span = info.spans.get(key) if info is not None else None
    if span is None:
        return None
    line = source_line(span.file, span.line) or source_text(span)      # the whole row, of a file too
    return Side(line.strip(), span, [], "")


def _value_changed(old, new) -> bool:
    """A switch whose default changed while its text did not (``override switch x = v``
    keeps the base's options)."""
    return isinstance(old, A.Switch) and isinstance(new, A.Switch) and old.default != new.default


def _readers(g, names: list[str]) -> list[str]:
    """What read the removed definitions in the base, and what reads those."""
    start = [n for n in names if n in g]
    return rules_graph.downstream(g, start)


def to_json(d: SpecDiff) -> dict:
    def side(s: Side | None):
        return None if s is None else {"text": s.text, "at": str(s.span), "rule_ids": s.rule_ids, "doc": s.doc}

    def entry(e: Entry):
        return {"name": e.name, "kind": e.kind, "rule_ids": e.rule_ids, "doc": e.doc,
                "before": side(e.before), "after": side(e.after)}

    return {"base": d.base, "variant": d.variant,
            "changed": [entry(e) for e in d.changed], "added": [entry(e) for e in d.added],
            "removed": [entry(e) for e in d.removed], "downstream": d.downstream}


def to_text(d: SpecDiff) -> list[str]:
    lines = [f"{d.base}  ->  {d.variant}"]
    if d.empty:
        lines.append("no definition differs")
        return lines
    for title, entries in (("changed", d.changed), ("added", d.added), ("removed", d.removed)):
        if not entries:
            continue
        lines.append("")
        lines.append(f"{title} ({len(entries)}):")
        for e in entries:
            ids = " [" + " ".join(e.rule_ids) + "]" if e.rule_ids else ""
            lines.append(f"  {e.kind} {e.name}{ids}")
            lines += [f"    /// {t}".rstrip() for t in e.doc.splitlines()]
            for mark, s in (("-", e.before), ("+", e.after)):
                if s is None:
                    continue
                lines.append(f"    {mark} {s.span}")
                for t in s.text.splitlines():
                    lines.append(f"    {mark}   {t}")
    lines.append("")
    if d.downstream:
        lines.append(f"downstream: what the changes can affect ({len(d.downstream)}):")
        for n in d.downstream:
            ids = " [" + " ".join(n["rule_ids"][:4]) + (" ..." if len(n["rule_ids"]) > 4 else "") + "]" \
                if n["rule_ids"] else ""
            lines.append(f"  {n['kind']} {n['name']}{ids}  {n['at']}")
    else:
        lines.append("downstream: nothing else reads what changed")
    return lines
