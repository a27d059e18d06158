"""Variants: a base spec plus the changes of variant files -> one list of spec files.

In:  the parsed files of a base spec and the parsed variant files to apply, in an
     order where each variant comes after the one it extends.
Out: the spec files with every change applied (``compose``), and what each
     variant changed (``Applied``), for ``diff``, the docs and the coverage of
     rule IDs.

A variant file starts with ``variant NAME [IDs] "title" extends "PATH"``; PATH is
the base spec directory or another variant file, relative to the variant's own
file. Its items then

* ``override`` a definition of the base by name (the whole definition; a
  switch's default only, ``override switch NAME = value``; a param's value
  keeping its type; one state variable inside ``override state {...}``; one step
  of a scoring, ``override step SCORING.STEP = ...``),
* ``remove`` one (``remove [KIND] NAME``, ``remove step SCORING.STEP``),
* or add new definitions (written as in any spec, ``add`` in front optional).

Inside an override of a whole definition, ``base`` names the definition it
replaces: ``override rule legal(a: item, b: item) = base(a, b) and a.owner != b.owner``;
``do base()`` in a procedure. The replaced definition is kept under a name of its
own (``legal__before_VARIANT``), which diff and the docs leave out.

An overridden definition keeps the base's rule IDs and adds the variant's own,
and keeps the base's doc comment unless the variant writes its own.

Two variants applied together that change the same definition, when neither
extends the other, conflict: the error names both changes. A name the base
lacks is an error with a "did you mean".
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from . import ast as A
from .diagnostics import Diagnostic, DiagnosticBag, ResolveError, Span, a_or_an, did_you_mean


def word(d) -> str:
    """The keyword that introduces a definition (``param`` for a constant)."""
    if isinstance(d, A.Constant):
        return "param"
    if isinstance(d, A.Step):
        return "step"
    if isinstance(d, A.StateVar):
        return "state"
    return type(d).__name__.lower()


@dataclass
class ChangeRecord:
    """One change as applied: the definition before (None when added) and after
    (None when removed)."""
    action: str                 # 'override' | 'remove' | 'add'
    kind: str                   # keyword of the definition
    name: str                   # NAME, SCORING.STEP, or a state variable's name
    variant: str
    span: Span                  # where the variant makes the change
    before: object = None
    after: object = None


@dataclass
class Applied:
    """A variant as applied: its head and its changes, in file order."""
    name: str
    title: str | None
    doc: str
    path: str
    rule_ids: tuple[str, ...]
    span: Span
    extends: str                # the resolved path of what it extends
    changes: list[ChangeRecord] = field(default_factory=list)


def _merge_tags(base, new):
    seen = {t for t, _ in base}
    return tuple(base) + tuple((t, s) for t, s in new if t not in seen)


class _Table:
    """The definitions of the composed spec, addressable by name."""

    def __init__(self, files: list[A.SpecFile]):
        self.files = [list(f.definitions) for f in files]
        self.paths = [f.path for f in files]

    def named(self):
        """name -> (kind keyword, node, location) for every changeable thing."""
        out = {}
        for fi, defs in enumerate(self.files):
            for di, d in enumerate(defs):
                if d is None:
                    continue
                if isinstance(d, A.State):
                    for vi, v in enumerate(d.vars):
                        out[v.name] = ("state", v, (fi, di, "vars", vi))
                    continue
                if isinstance(d, A.Game):
                    continue
                out[d.name] = (word(d), d, (fi, di))
                if isinstance(d, A.Scoring):
                    for si, st in enumerate(d.steps):
                        out[f"{d.name}.{st.name}"] = ("step", st, (fi, di, "steps", si))
        return out

    def put(self, loc, node):
        """Replace what ``loc`` names by ``node`` (None: remove it): a definition
        (file, index), or a step or state variable (file, index, field, position)."""
        fi, di = loc[0], loc[1]
        if len(loc) == 2:
            self.files[fi][di] = node
            return
        d = self.files[fi][di]
        items = list(getattr(d, loc[2]))
        if node is None:
            del items[loc[3]]
        else:
            items[loc[3]] = node
        self.files[fi][di] = replace(d, **{loc[2]: tuple(items)})

    def result(self) -> list[A.SpecFile]:
        return [A.SpecFile(p, tuple(d for d in defs if d is not None))
                for p, defs in zip(self.paths, self.files)]


def compose(base: list[A.SpecFile], variants: list[A.SpecFile],
            ancestors: dict[str, set[str]], extends: dict[str, str]) -> tuple[list[A.SpecFile], list[Applied]]:
    """Apply ``variants`` (ordered: each after those it extends) to ``base``.
    ``ancestors`` maps a variant file's path to the paths of the variants it extends,
    directly or not; ``extends`` to the resolved path it extends."""
    table = _Table(base)
    bag = DiagnosticBag()
    applied: list[Applied] = []
    last: dict[str, tuple[str, Span]] = {}      # name -> (variant path, span) of its last change
    for vf in variants:
        v = vf.variant
        info = Applied(v.name, v.title, v.doc, vf.path, v.rule_ids, v.span, extends.get(vf.path, ""))
        applied.append(info)
        added: list[A.Definition] = []
        seen_here: dict[str, Span] = {}
        for ch in vf.changes:
            named = table.named()
            for d in added:                       # what this variant has added so far
                if isinstance(d, A.State):
                    for var in d.vars:
                        named.setdefault(var.name, ("state", var, None))
                elif not isinstance(d, A.Game):
                    named.setdefault(d.name, (word(d), d, None))
            targets = _targets(ch)
            for target, node, span in targets:
                if target in seen_here:
                    bag.error(span, f"'{target}' is changed twice in this variant",
                              "keep one change", notes=((seen_here[target], "the first change"),))
                    continue
                seen_here[target] = span
                prev = last.get(target)
                if prev is not None and prev[0] != vf.path and prev[0] not in ancestors.get(vf.path, set()):
                    bag.error(span, f"variants '{_vname(variants, prev[0])}' and '{v.name}' both change "
                                    f"'{target}', and neither extends the other",
                              "apply one of them, or make one variant extend the other to order them",
                              notes=((prev[1], f"'{_vname(variants, prev[0])}' changes it here"),))
                    continue
                if ch.action == "add":
                    if target in named:
                        kind, old, _ = named[target]
                        bag.error(span, f"'{target}' is already defined by the base ({kind})",
                                  f"write 'override {kind} {target} ...' to change it",
                                  notes=((_span_of(old), "defined here"),))
                        continue
                    info.changes.append(ChangeRecord("add", word(node), target, v.name, span, None, node))
                    last[target] = (vf.path, span)
                    continue
                want = ch.kind if ch.action == "remove" else word(node) if node is not None else None
                if target not in named or named[target][2] is None:
                    known = {n: k for n, (k, _, loc) in named.items() if loc is not None}
                    what = "state variable" if want == "state" else (want or "definition")
                    pool = [n for n, k in known.items() if want in (None, k)]
                    hint = did_you_mean(target, pool if pool else known)
                    if hint is None and want == "step":
                        hint = ("its steps: " + ", ".join(pool)) if pool else "the base has no scoring steps"
                    if hint is None and want == "state":
                        hint = "a new state variable is declared in a 'state { ... }' block without 'override'"
                    elif hint is None and ch.action == "override":
                        hint = "a new definition is written without 'override'"
                    bag.error(span, f"cannot {ch.action} '{target}': the base has no {what} of that name",
                              hint)
                    continue
                kind, old, loc = named[target]
                if want is not None and want != kind:
                    bag.error(span, f"'{target}' is {a_or_an(kind)} in the base, not {a_or_an(want)}",
                              f"write '{ch.action} {kind} {target}'",
                              notes=((_span_of(old), "defined here"),))
                    continue
                if ch.action == "remove":
                    table.put(loc, None)
                    info.changes.append(ChangeRecord("remove", kind, target, v.name, span, old, None))
                else:
                    new = _overridden(old, node, bag, span)
                    if new is None:
                        continue
                    if isinstance(new, A.Definition) and _uses_base(new):
                        # ``base`` in the override is the definition it replaces, kept
                        # under a name of its own
                        kept = f"{target}{KEPT}{v.name}"
                        new = _map_names(new, {BASE: kept})
                        added.append(replace(old, name=kept))
                    elif _uses_base(new):
                        bag.error(span, "'base' is only for an override of a whole definition",
                                  "write the step or state variable out in full")
                        continue
                    table.put(loc, new)
                    info.changes.append(ChangeRecord("override", kind, target, v.name, span, old, new))
                last[target] = (vf.path, span)
            if ch.action == "add" and ch.node is not None:
                added.append(ch.node)
        if added:
            table.files.append(list(added))
            table.paths.append(vf.path)
    bag.raise_if_any(ResolveError)
    return table.result(), applied


BASE = "base"
KEPT = "__before_"


def kept_base(name: str) -> bool:
    """Whether a definition is the base one an override calls ``base``."""
    return KEPT in name


def _walk(node):
    """Every AST node under ``node`` (itself included)."""
    yield node
    if isinstance(node, tuple):
        for x in node:
            yield from _walk(x)
        return
    if not isinstance(node, A.Node):
        return
    for f in node.__dataclass_fields__:
        value = getattr(node, f)
        if isinstance(value, (A.Node, tuple)):
            yield from _walk(value)


def _uses_base(d) -> bool:
    return any((isinstance(n, A.Call) and n.func == BASE) or (isinstance(n, A.Name) and n.id == BASE)
               or (isinstance(n, A.Do) and n.proc == BASE) for n in _walk(d))


def _map_names(node, names: dict[str, str]):
    """``node`` with the calls, names and procedures of ``names`` renamed."""
    if isinstance(node, tuple):
        return tuple(_map_names(x, names) for x in node)
    if not isinstance(node, A.Node):
        return node
    changes = {}
    for f in node.__dataclass_fields__:
        value = getattr(node, f)
        if isinstance(value, (A.Node, tuple)):
            new = _map_names(value, names)
            if new is not value:
                changes[f] = new
    if isinstance(node, A.Call) and node.func in names:
        changes["func"] = names[node.func]
    elif isinstance(node, A.Name) and node.id in names:
        changes["id"] = names[node.id]
    elif isinstance(node, A.Do) and node.proc in names:
        changes["proc"] = names[node.proc]
    return replace(node, **changes) if changes else node


def _vname(variants: list[A.SpecFile], path: str) -> str:
    for vf in variants:
        if vf.path == path:
            return vf.variant.name
    return path


def _span_of(node) -> Span:
    return getattr(node, "name_span", None) or node.span


def _targets(ch: A.Change):
    """(name, new node, span) for each thing a change touches: one per state variable
    of an ``override state {...}`` or of a new state block, one otherwise."""
    node = ch.node
    if isinstance(node, A.State):
        return [(v.name, v, v.span) for v in node.vars]
    return [(ch.target, node, ch.target_span)]


def _overridden(old, new, bag: DiagnosticBag, span: Span):
    """The definition that replaces ``old``: the variant's, with the base's rule IDs
    first, the base's doc when it has none, a switch keeping its options and a param
    its type."""
    doc = new.doc or old.doc
    if isinstance(new, A.StateVar):
        return replace(new, tags=_merge_tags(old.tags, new.tags), doc=doc)
    if isinstance(new, A.Step):
        return replace(new, tags=_merge_tags(old.tags, new.tags), doc=doc)
    tags = _merge_tags(old.tags, new.tags)
    if isinstance(new, A.Switch) and new.options is None:
        value = new.default
        ok = (old.options == ("bool",) and value in (("name", "true"), ("name", "false"))) or \
             (old.options == ("int",) and isinstance(value, int)) or \
             (isinstance(value, tuple) and value[1] in old.options) or \
             (isinstance(value, int) and value in old.options)
        if not ok:
            shown = value[1] if isinstance(value, tuple) else value
            opts = "true, false" if old.options == ("bool",) else \
                "a number" if old.options == ("int",) else ", ".join(str(o) for o in old.options)
            bag.error(new.default_span, f"'{shown}' is not an option of switch '{old.name}'",
                      did_you_mean(str(shown), [str(o) for o in old.options]) or f"its options: {opts}",
                      notes=((old.name_span, "the switch"),))
            return None
        return replace(old, span=new.span, name_span=new.name_span, tags=tags, doc=doc,
                       default=value, default_span=new.default_span)
    if isinstance(new, A.Constant) and new.type is None:
        return replace(new, tags=tags, doc=doc, type=old.type)
    return replace(new, tags=tags, doc=doc)


# ------------------------------------------------------------------ loading order
def order(chains: list[list[str]]) -> list[str]:
    """One order of the variant files of several chains (each listed from the one
    nearest the base to the one named), every variant after those it extends."""
    out: list[str] = []
    for chain in chains:
        for p in chain:
            if p not in out:
                out.append(p)
    return out


def removed_note(diag: Diagnostic, applied: list[Applied]) -> Diagnostic:
    """A reference to a removed definition: say which variant removed it. An error in
    a file the variants do not own that names a definition a variant overrides: point
    at the override (the base's use may no longer fit what the variant made of it)."""
    for info in applied:
        for ch in info.changes:
            if ch.action == "remove" and f"'{ch.name.split('.')[-1]}'" in diag.message:
                return replace(diag, notes=tuple(diag.notes) + ((ch.span, f"variant '{info.name}' removes "
                                                                          f"'{ch.name}' here"),),
                               hint="remove or override what uses it too")
    own = {str(Path(info.path).resolve()) for info in applied}
    if str(Path(diag.span.file).resolve()) in own:
        return diag
    for info in applied:
        for ch in info.changes:
            if ch.action == "override" and f"'{ch.name.split('.')[-1]}'" in diag.message:
                return replace(diag, notes=tuple(diag.notes) + ((ch.span, f"variant '{info.name}' overrides "
                                                                          f"'{ch.name}' here"),))
    return diag
