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
  of a scoring, procedure or mode, ``override step OWNER.STEP ...``),
* ``remove`` one (``remove [KIND] NAME``, ``remove step OWNER.STEP``),
* add a step in its place (``add step OWNER.NAME after|before STEP ...``, at the
  end without a place), or a field to a record with its default (``add field
  RECORD.NAME: T = value``: the base's ``new RECORD(...)`` and saved positions
  then give it that value), or a row to a table or a value to an enum (``add row
  TABLE: NAME | value | ...``, after the rows of the table's file),
* or add new definitions (written as in any spec, ``add`` in front optional).

Inside an override of a whole definition, ``base`` names the definition it
replaces: ``override rule legal(a: item, b: item) = base(a, b) and a.owner != b.owner``;
``do base()`` in a procedure. The replaced definition is kept under a name of its
own (``legal__before_VARIANT``), which diff and the docs leave out. Inside an
override of a step, ``do base()`` is replaced by the base step's statements and
``base`` as a value by the points of a step written ``= expression``.

An overridden definition keeps the base's rule IDs and adds the variant's own,
and keeps the base's doc comment unless the variant writes its own.

Two variants applied together that change the same definition, when neither
extends the other, conflict: the error names both changes. A name the base
lacks is an error with a "did you mean".
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from rulewright.compiler.syntax import ast as A
from rulewright.compiler.ir import checkpoint_names
from rulewright.compiler.diagnostics import Diagnostic, DiagnosticBag, ResolveError, Span, a_or_an, did_you_mean, source_line


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
    doc: str = ""               # a removal's doc comment (what is added or changed carries its own)
    rule_ids: tuple = ()        # and the rule IDs it names


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
        self.after: dict[tuple, str] = {}     # (file, index, step) -> the last step added after it

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
                for st in A.steps_of(d):
                    out[f"{d.name}.{st.name}"] = ("step", st, (fi, di, "step", st.name))
        # the steps of a definition an override wraps ('do base()') are still its steps
        for name, entry in list(out.items()):
            if KEPT in name and "." in name:
                owner, _, step = name.partition(".")
                out.setdefault(f"{owner.split(KEPT)[0]}.{step}", entry)
        return out

    def put(self, loc, node):
        """Replace what ``loc`` names by ``node`` (None: remove it): a definition
        (file, index), a step (file, index, 'step', name) or a state variable (file,
        index, field, position)."""
        fi, di = loc[0], loc[1]
        if len(loc) == 2:
            self.files[fi][di] = node
            self.after = {k: v for k, v in self.after.items() if k[:2] != (fi, di)}
            return
        d = self.files[fi][di]
        if loc[2] == "step":
            self.files[fi][di] = _with_steps(d, lambda body: _around_step(body, loc[3], lambda st: (node,) if node else ()))
            return
        items = list(getattr(d, loc[2]))
        if node is None:
            del items[loc[3]]
        else:
            items[loc[3]] = node
        self.files[fi][di] = replace(d, **{loc[2]: tuple(items)})

    def insert(self, loc, node: A.Step, place):
        """Put a new step in the scoring, procedure or mode at ``loc`` (file, index):
        after or before the step ``place`` names (after the steps earlier changes put
        after it, so that steps keep the order they were added in), or at the end (in
        a mode, before the reports it ends with)."""
        fi, di = loc
        d = self.files[fi][di]
        if place is None:
            def at_end(body):
                body = tuple(body)
                cut = len(body)
                while cut > 0 and isinstance(body[cut - 1], A.Report):
                    cut -= 1
                return body[:cut] + (node,) + body[cut:]
            self.files[fi][di] = _with_steps(d, at_end)
            return
        where, name, _ = place
        if where == "after":
            key = (fi, di, name)
            anchor = self.after.get(key, name)
            if not any(st.name == anchor for st in A.steps_of(d)):
                anchor = name
            self.after[key] = node.name
            name = anchor
        pair = (lambda st: (st, node)) if where == "after" else (lambda st: (node, st))
        self.files[fi][di] = _with_steps(d, lambda body: _around_step(body, name, pair))

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
    removed_by: dict[str, tuple[str, Span]] = {}   # a step removed -> (variant path, span)
    placed_near: dict[str, tuple[str, Span]] = {}  # a step another step was put beside -> (path, span)
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
                part = next((n for n in seen_here if _overlaps(n, target)
                             and last.get(n, ("", None))[1] == seen_here[n]), None)
                if part is not None:
                    whole, piece = (target, part) if len(target) < len(part) else (part, target)
                    if whole in named and named[whole][2] is None:      # the variant's own definition
                        bag.error(span, f"'{whole}' is defined by this variant: write '{piece}' in its "
                                        f"definition", notes=((seen_here[part], "the definition"),))
                        continue
                    bag.error(span, f"this variant changes '{piece}' and also the whole of '{whole}'",
                              f"change the whole of '{whole}' once (the part's change would be lost), "
                              f"or only its parts", notes=((seen_here[part], "the other change"),))
                    continue
                seen_here[target] = span
                clash = [(n, prev) for n, prev in last.items() if (n == target or _overlaps(n, target))
                         and prev[0] != vf.path
                         and prev[0] not in ancestors.get(vf.path, set())]
                if clash:
                    name, prev = clash[0]
                    other = _vname(variants, prev[0])
                    if name == target:
                        what = f"variants '{other}' and '{v.name}' both change '{target}'"
                    elif len(name) < len(target):
                        what = f"variant '{other}' changes '{name}' whole and variant '{v.name}' its part '{target}'"
                    else:
                        what = f"variant '{other}' changes '{name}' and variant '{v.name}' the whole of '{target}'"
                    bag.error(span, what + ", and neither extends the other",
                              "apply one of them, or make one variant extend the other to order them",
                              notes=((prev[1], f"'{other}' changes '{name}' here"),))
                    continue
                # a step placed after or before a step another variant removes, in either order
                near = _near(ch, target)
                dep = removed_by.get(near) if near else None
                if dep is None and ch.action == "remove":
                    dep = placed_near.get(target)
                if dep is not None and near and (dep[0] == vf.path or dep[0] in ancestors.get(vf.path, set())):
                    bag.error(ch.place[2], f"the step '{near}' to put '{target}' {ch.place[0]} is removed by "
                                           f"variant '{_vname(variants, dep[0])}'",
                              "put the new step beside another step", notes=((dep[1], "removed here"),))
                    continue
                if dep is not None and dep[0] != vf.path and dep[0] not in ancestors.get(vf.path, set()):
                    other = _vname(variants, dep[0])
                    bag.error(span, f"variant '{other}' and variant '{v.name}' disagree on the step "
                                    f"'{near or target}': one removes it, the other puts a step beside it; "
                                    "neither extends the other",
                              "apply one of them, or make one variant extend the other to order them",
                              notes=((dep[1], f"'{other}' here"),))
                    continue
                if ch.action == "add" and ch.kind in PART_ADDS:
                    if not PART_ADDS[ch.kind](table, named, ch, bag):
                        continue
                    info.changes.append(ChangeRecord("add", ch.kind, target, v.name, span, None, node))
                    last[target] = (vf.path, span)
                    if _near(ch, target):
                        placed_near[_near(ch, target)] = (vf.path, span)
                    continue
                if ch.kind == "row" and ch.action in ROW_CHANGES:    # override row, remove row
                    if not ROW_CHANGES[ch.action](table, named, ch, bag):
                        continue
                    info.changes.append(ChangeRecord(ch.action, "row", target, v.name, span, None, node,
                                                     ch.doc if ch.action == "remove" else "",
                                                     tuple(t for t, _ in ch.tags)))
                    last[target] = (vf.path, span)
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
                    if want == "step":
                        hint = _step_hint(target, named)
                    if hint is None and want == "state":
                        hint = "a new state variable is declared in a 'state { ... }' block without 'override'"
                    elif hint is None and ch.action == "override":
                        hint = "a new definition is written without 'override'"
                    bag.error(span, f"cannot {ch.action} '{target}': the base has no {what} of that name",
                              hint)
                    continue
                kind, old, loc = named[target]
                if kind == "step" and ch.action == "override" and not _step_form_ok(ch, named, bag):
                    continue
                if want is not None and want != kind:
                    bag.error(span, f"'{target}' is {a_or_an(kind)} in the base, not {a_or_an(want)}",
                              f"write '{ch.action} {kind} {target}'",
                              notes=((_span_of(old), "defined here"),))
                    continue
                if ch.action == "remove":
                    table.put(loc, None)
                    info.changes.append(ChangeRecord("remove", kind, target, v.name, span, old, None, ch.doc,
                                                     tuple(t for t, _ in ch.tags)))
                    removed_by[target] = (vf.path, span)
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
                    elif _uses_base(new) and not isinstance(new, A.Step):
                        bag.error(span, "'base' is only for an override of a whole definition or of a step",
                                  "write the state variable out in full")
                        continue
                    table.put(loc, new)
                    info.changes.append(ChangeRecord("override", kind, target, v.name, span, old, new))
                last[target] = (vf.path, span)
            if ch.action == "add" and ch.node is not None and ch.kind not in PART_ADDS:
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


def _map_names(node, names: dict[str, str], lets: bool = False):
    """``node`` with the calls, names and procedures of ``names`` renamed (and the
    ``let``s that bind them, with ``lets``)."""
    if isinstance(node, tuple):
        return tuple(_map_names(x, names, lets) for x in node)
    if not isinstance(node, A.Node):
        return node
    changes = {}
    for f in node.__dataclass_fields__:
        value = getattr(node, f)
        if isinstance(value, (A.Node, tuple)):
            new = _map_names(value, names, lets)
            if new is not value:
                changes[f] = new
    if isinstance(node, A.Call) and node.func in names:
        changes["func"] = names[node.func]
    elif isinstance(node, A.Name) and node.id in names:
        changes["id"] = names[node.id]
    elif isinstance(node, A.Do) and node.proc in names:
        changes["proc"] = names[node.proc]
    elif lets and isinstance(node, A.Let) and node.name in names:
        changes["name"] = names[node.name]
    return replace(node, **changes) if changes else node


def _binders(node) -> list[tuple[str, Span]]:
    """The names a piece of a spec binds (lets, loops, choices, comprehensions), with
    where."""
    out = []
    for n in _walk(node):
        if isinstance(n, A.Let):
            out.append((n.name, n.name_span))
        elif isinstance(n, A.For):
            out.append((n.var, n.var_span))
        elif isinstance(n, A.Choose):
            out.append((n.name, n.name_span))
        elif isinstance(n, A.Binder):
            out.append((n.var, n.span))
    return out


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
        taken = [sp for n, sp in _binders(new.body) if n == BASE]
        if taken:
            bag.error(taken[0], "'base' is the base's step in an override of a step: no let, loop or "
                                "choice can take the name", "give the value another name")
            return None
        body = new.body
        if _uses_base(new):
            body = _spliced(new.body, old, bag)
            if body is None:
                return None
        return replace(new, body=body, tags=_merge_tags(old.tags, new.tags), doc=doc)
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


# ------------------------------------------------------------------ steps
def _near(ch: A.Change, target: str) -> str | None:
    """The step an added step is put after or before (OWNER.STEP), if any."""
    if ch.action == "add" and ch.kind == "step" and ch.place is not None:
        return f"{target.partition('.')[0]}.{ch.place[1]}"
    return None


def _overlaps(a: str, b: str) -> bool:
    """Whether two changed names overlap: the same, or one a part (a step, a field, a
    row) of the other."""
    return a != b and (a.startswith(b + ".") or b.startswith(a + "."))


def _with_steps(d, change):
    """``d`` with its steps' block changed by ``change``: a scoring's steps, the body
    of a procedure or mode."""
    if isinstance(d, A.Scoring):
        return replace(d, steps=tuple(change(d.steps)))
    return replace(d, body=tuple(change(d.body)))


def _around_step(body, name: str, make) -> tuple:
    """``body`` with the step ``name``, at any depth, replaced by ``make(step)`` (a tuple
    of statements: none removes it, two put a new step beside it)."""
    out = []
    for st in body:
        if isinstance(st, A.Step) and st.name == name:
            out.extend(make(st))
            continue
        changes = {f: _around_step(block, name, make) for f, block in A.blocks(st)}
        changes = {f: new for f, new in changes.items() if new != getattr(st, f)}
        out.append(replace(st, **changes) if changes else st)
    return tuple(out)


def _step_hint(target: str, named: dict, full: bool = True) -> str:
    """What to say of a step the base lacks: the steps its owner has (written
    OWNER.STEP when ``full``), or that the owner has none or does not exist."""
    owner, _, name = target.partition(".")
    if owner in named and named[owner][2] is None:
        return f"'{owner}' is defined by this variant: write the step in its body"
    if owner not in named:
        return f"the base has no scoring, procedure or mode '{owner}'"
    if named[owner][0] not in ("scoring", "procedure", "mode"):
        return f"'{owner}' is {a_or_an(named[owner][0])}: steps belong to scorings, procedures and modes"
    mine = [n.partition(".")[2] for n, (k, _, loc) in named.items()
            if k == "step" and loc is not None and n.startswith(owner + ".")]
    if not mine:
        return (f"the {named[owner][0]} '{owner}' has no steps: name a part of its body "
                f"with 'step NAME {{ ... }}' in the base, or override the whole {named[owner][0]}")
    if full:
        return did_you_mean(target, [f"{owner}.{n}" for n in mine]) or ("its steps: " + ", ".join(mine))
    return did_you_mean(name, mine) or ("its steps: " + ", ".join(mine))


def _owner_hint(owner: str, entry, named: dict, kinds: tuple[str, ...], otherwise: str) -> str:
    """A "did you mean" among the base's definitions of ``kinds`` when ``owner`` names
    none of the base's, else what such a change belongs to."""
    if entry is None or entry[2] is None:
        near = did_you_mean(owner, [n for n, (k, _, loc) in named.items() if k in kinds and loc is not None])
        if near:
            return near
    return otherwise


def _add_step(table: _Table, named: dict, ch: A.Change, bag: DiagnosticBag) -> bool:
    """Put the step an ``add step OWNER.NAME [after|before STEP]`` adds in its place;
    False (with an error) when the owner or the place is missing or the name taken."""
    owner, _, name = ch.target.partition(".")
    if ch.target in named:
        old = named[ch.target][1]
        bag.error(ch.target_span, f"'{owner}' already has a step '{name}'",
                  f"write 'override step {ch.target} ...' to change it",
                  notes=((_span_of(old), "defined here"),))
        return False
    entry = named.get(owner)
    if entry is None or entry[2] is None or entry[0] not in ("scoring", "procedure", "mode"):
        what = f"'{owner}' is {a_or_an(entry[0])}" if entry and entry[2] is not None else \
            f"'{owner}' is defined by this variant: write the step in its body" if entry else \
            f"the base has no scoring, procedure or mode '{owner}'"
        bag.error(ch.target_span, f"cannot add step '{ch.target}': {what}",
                  _owner_hint(owner, entry, named, ("scoring", "procedure", "mode"),
                              "a step belongs to a scoring, a procedure or a mode"))
        return False
    kind, d, loc = entry
    if _uses_base(ch.node):
        bag.error(ch.target_span, f"'base' is the base's step in an override, and '{name}' is a new step",
                  f"to build on a step of the base, write 'override step {owner}.STEP = base + ...'"
                  if ch.node.expr_form else
                  f"to build on a step of the base, write 'override step {owner}.STEP {{ do base() ... }}'")
        return False
    if not _step_form_ok(ch, named, bag):
        return False
    if ch.place is not None:
        where, place, pspan = ch.place
        if f"{owner}.{place}" not in named:
            bag.error(pspan, f"the {kind} '{owner}' has no step '{place}' to put '{name}' {where}",
                      _step_hint(f"{owner}.{place}", named, full=False))
            return False
        loc = named[f"{owner}.{place}"][2][:2]      # the body that holds it (a wrapped base's too)
    table.insert(loc, ch.node, ch.place)
    return True


def _step_form_ok(ch: A.Change, named: dict, bag: DiagnosticBag) -> bool:
    """A step of a procedure or mode is a block: '= expression' is for scoring steps."""
    owner = ch.target.partition(".")[0]
    entry = named.get(owner)
    if ch.node.expr_form and entry is not None and entry[0] in ("procedure", "mode"):
        bag.error(ch.node.body[0].span, f"a step of {a_or_an(entry[0])} is a block of statements: "
                                        f"'= expression' is for the steps of a scoring",
                  f"write '{ch.action} step {ch.target}"
                  + (f" {ch.place[0]} {ch.place[1]}" if ch.place else "") + " { ... }'")
        return False
    return True


def _add_field(table: _Table, named: dict, ch: A.Change, bag: DiagnosticBag) -> bool:
    """Give the record of an ``add field RECORD.NAME: T = default`` one more field, at
    its end; False (with an error) when the record is missing or has the field."""
    rec, _, name = ch.target.partition(".")
    entry = named.get(rec)
    if entry is None or entry[2] is None or entry[0] != "record":
        what = f"'{rec}' is {a_or_an(entry[0])}" if entry and entry[2] is not None else \
            f"the base has no record '{rec}'"
        bag.error(ch.target_span, f"cannot add field '{ch.target}': {what}",
                  _owner_hint(rec, entry, named, ("record",), "a field belongs to a record"))
        return False
    _, d, loc = entry
    old = next((f for f in d.fields if f.name == name), None)
    if old is not None:
        bag.error(ch.target_span, f"record '{rec}' already has a field '{name}'",
                  "a variant adds new fields; to change what a record holds, override the record",
                  notes=((old.span, "defined here"),))
        return False
    table.put(loc, replace(d, fields=tuple(d.fields) + (ch.node,)))
    return True


def _row_owner(named: dict, ch: A.Change, action: str, bag: DiagnosticBag):
    """The base's (kind, table or enum, place) whose row ``add row`` or ``remove row``
    names; None (with an error) when the base has no table or enum of that name."""
    owner = ch.target.partition(".")[0]
    entry = named.get(owner)
    if entry is None or entry[2] is None or entry[0] not in ("table", "enum"):
        what = f"'{owner}' is {a_or_an(entry[0])}" if entry and entry[2] is not None else \
            f"the base has no table or enum '{owner}'"
        bag.error(ch.target_span, f"cannot {action} row '{ch.target}': {what}",
                  _owner_hint(owner, entry, named, ("table", "enum"),
                              "a row belongs to a table (or, with no values, to an enum)"))
        return None
    return entry


def _add_row(table: _Table, named: dict, ch: A.Change, bag: DiagnosticBag) -> bool:
    """Give the table of an ``add row TABLE: NAME | ...`` one more row (after those of
    its file, whichever file a player loads), or an enum one more value; False (with
    an error) when there is no such table or enum, or it has the name already."""
    owner, _, key = ch.target.partition(".")
    entry = _row_owner(named, ch, "add", bag)
    if entry is None:
        return False
    kind, d, loc = entry
    if isinstance(d, A.Enum):
        old = next((sp for v, sp in d.values if v == key), None) or \
            next((r.span for r in d.added if r.key == key), None)
        if ch.node.cells:
            bag.error(ch.node.span, f"'{owner}' is an enum: a new value has no columns",
                      f"write 'add row {owner}: {key}'")
            return False
    else:
        old = next((r.span for r in d.rows + d.added if r.key == key), None)
    if old is not None:
        what = "value" if isinstance(d, A.Enum) else "row"
        bag.error(ch.target_span, f"{kind} '{owner}' already has a {what} '{key}'",
                  f"a variant adds new {what}s; to change one, override the {kind}" if kind == "enum" else
                  f"a variant adds new rows; to change this one, write 'override row {owner}.{key}: "
                  f"column = value, ...'",
                  notes=((old, "defined here"),))
        return False
    table.put(loc, replace(d, added=tuple(d.added) + (ch.node,)))
    return True


def _remove_row(table: _Table, named: dict, ch: A.Change, bag: DiagnosticBag) -> bool:
    """Take one row away from a table, or one value from an enum (``remove row
    TABLE.NAME``), once every row is read (the resolver says when there is no such
    row, and where a rule still names it); False (with an error) when there is no
    such table or enum."""
    owner, dot, key = ch.target.partition(".")
    if not dot:
        bag.error(ch.target_span, f"'remove row {owner}' names no row",
                  f"a row is named with its table (or a value with its enum): 'remove row {owner}.NAME'")
        return False
    entry = _row_owner(named, ch, "remove", bag)
    if entry is None:
        return False
    kind, d, loc = entry
    removal = A.RowRemoval(ch.span, key, ch.target_span, ch.doc)
    table.put(loc, replace(d, removed=tuple(d.removed) + (removal,)))
    return True


def _edit_row(table: _Table, named: dict, ch: A.Change, bag: DiagnosticBag) -> bool:
    """Change values of one row of a table (``override row TABLE.NAME: column = value``),
    applied once every row is read (a row of the table's file, whichever file a player
    loads, or one a variant adds: the resolver says when there is no such row); False
    (with an error) when there is no such table or column."""
    owner, _, key = ch.target.partition(".")
    entry = named.get(owner)
    if entry is None or entry[2] is None or entry[0] != "table":
        what = f"'{owner}' is {a_or_an(entry[0])}" if entry and entry[2] is not None else \
            f"the base has no table '{owner}'"
        hint = "an enum's values have no columns to change" if entry and entry[0] == "enum" else \
            _owner_hint(owner, entry, named, ("table",), "a row belongs to a table")
        bag.error(ch.target_span, f"cannot override row '{ch.target}': {what}", hint)
        return False
    kind, d, loc = entry
    columns = [c.name for c in d.columns]
    for column, cspan, _, _ in ch.node.cells:
        if column not in columns:
            bag.error(cspan, f"table '{owner}' has no column '{column}'",
                      did_you_mean(column, columns) or "its columns: " + ", ".join(columns))
            return False
    seen: dict[str, Span] = {}
    for column, cspan, _, _ in ch.node.cells:
        if column in seen:
            bag.error(cspan, f"the column '{column}' is set twice", "set it once",
                      notes=((seen[column], "the first"),))
            return False
        seen[column] = cspan
    table.put(loc, replace(d, edits=tuple(d.edits) + (ch.node,)))
    return True


def _spliced(body, old: A.Step, bag: DiagnosticBag):
    """An overriding step's statements with the base step in them: ``do base()``
    becomes the base step's statements; ``base`` as a value, the points of a base
    step written ``= expression``. None (with an error) where that cannot be."""
    value = old.body[0].value if len(old.body) == 1 and isinstance(old.body[0], A.Points) else None
    hidden = f"{BASE}{KEPT}{old.name}"           # the base step's points, computed once
    # the base step's own lets, under names of their own where they are spliced in
    inner = _map_names(old.body, {x.name: f"{x.name}{KEPT}{old.name}" for x in _walk(old.body)
                                  if isinstance(x, A.Let)}, lets=True)
    uses_value = False
    ok = True

    def expr(node):
        nonlocal ok
        if isinstance(node, tuple):
            return tuple(expr(x) for x in node)
        if not isinstance(node, A.Node):
            return node
        if isinstance(node, A.Name) and node.id == BASE:
            if value is None:
                bag.error(node.span, f"'base' as a value is the points of a step written "
                                     f"'= expression', and the base's step '{old.name}' is a block",
                          "write 'do base()' among the step's statements to run the base's step")
                ok = False
                return node
            nonlocal uses_value
            uses_value = True
            return replace(node, id=hidden)
        if isinstance(node, A.Call) and node.func == BASE:
            bag.error(node.span, "'base' in a step is a value, not a call",
                      "write 'base' for the base step's points, or 'do base()' to run its statements")
            ok = False
            return node
        changes = {f: expr(getattr(node, f)) for f in node.__dataclass_fields__
                   if isinstance(getattr(node, f), (A.Node, tuple))}
        changes = {f: v for f, v in changes.items() if v is not getattr(node, f)}
        return replace(node, **changes) if changes else node

    def stmts(seq):
        nonlocal ok
        out = []
        for st in seq:
            if isinstance(st, A.Do) and st.proc == BASE:
                if st.args:
                    bag.error(st.span, "'do base()' in a step takes no arguments",
                              f"the base's step '{old.name}' runs with the names it sees where it is")
                    ok = False
                out.extend(inner)
                continue
            held = dict(A.blocks(st))
            changes = {f: stmts(held[f]) if f in held else expr(getattr(st, f)) for f in st.__dataclass_fields__
                       if f in held or isinstance(getattr(st, f), (A.Node, tuple))}
            changes = {f: v for f, v in changes.items() if v != getattr(st, f)}
            out.append(replace(st, **changes) if changes else st)
        return tuple(out)

    result = stmts(body)
    if uses_value:
        result = (A.Let(value.span, hidden, value.span, value, ""),) + result
    bases = [n for n in _walk(body) if isinstance(n, A.Do) and n.proc == BASE]
    nested = A.body_steps(old.body)
    if ok and len(bases) > 1 and nested:
        bag.error(bases[1].span, f"the base's step '{old.name}' holds the step '{nested[0].name}': running it "
                                 f"twice would name that step twice",
                  "run the base's step once, or write its statements out")
        ok = False
    return result if ok else None


def lost_checkpoints(program) -> list[tuple[str, str, ChangeRecord]]:
    """(checkpoint, variant, change) for each checkpoint a variant's removal or
    override of a step, procedure or mode takes away, and the program no longer has anywhere:
    positions saved there, ``--stop-at`` and the tests' watchers no longer find it."""
    still = set(checkpoint_names(program))

    def names(node) -> set[str]:
        return {n.name for n in _walk(node) if isinstance(n, A.Checkpoint)} - still if node is not None else set()
    out = []
    for info in program.variants:
        for ch in info.changes:
            if ch.kind in ("step", "procedure", "mode") and ch.action in ("remove", "override"):
                for name in sorted(names(ch.before) - names(ch.after)):
                    out.append((name, info.name, ch))
    return out


PART_ADDS = {"step": _add_step, "field": _add_field, "row": _add_row}
ROW_CHANGES = {"override": _edit_row, "remove": _remove_row}


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
    def shown(ch) -> str:
        # a step is named by nothing in a spec but a variant: only its full name counts
        return f"'{ch.name}'" if ch.kind == "step" else f"'{ch.name.split('.')[-1]}'"
    for info in applied:
        for ch in info.changes:
            if ch.action == "remove" and shown(ch) in diag.message and diag.span != ch.span:
                return replace(diag, notes=tuple(diag.notes) + ((ch.span, f"variant '{info.name}' removes "
                                                                          f"'{ch.name}' here"),),
                               hint="remove or override what uses it too")
    theirs = {str(Path(info.path).resolve()) for info in applied}
    if str(Path(diag.span.file).resolve()) in theirs:
        return diag
    gone = re.match(r"no procedure of this spec makes a choice '(\w+)'", diag.message)
    if gone:            # a query's play of a choice a variant's procedure no longer makes
        def chooses(node) -> bool:
            return node is not None and any(isinstance(n, A.Choose) and n.name == gone[1] for n in _walk(node))
        for info in applied:
            for ch in info.changes:
                if ch.kind in ("procedure", "mode", "step") and chooses(ch.before) and not chooses(ch.after):
                    return replace(diag, notes=tuple(diag.notes) + ((ch.span, f"variant '{info.name}' "
                                                                              f"{ch.action}s '{ch.name}' here, "
                                                                              f"which made it"),),
                                   hint="override or remove the query that plays it too")
    for info in applied:
        for ch in info.changes:
            if ch.action == "override" and shown(ch) in diag.message:
                return replace(diag, notes=tuple(diag.notes) + ((ch.span, f"variant '{info.name}' overrides "
                                                                          f"'{ch.name}' here"),))
    # the line names what a variant overrides (a state variable given another type:
    # the base's uses of it fail with messages about values, not names)
    line = source_line(diag.span.file, diag.span.line) or ""
    pointed = line[diag.span.col - 1:diag.span.end_col - 1] if diag.span.end_line == diag.span.line else line
    for text in (pointed, line):             # the words the error points at first, then its line's
        words = _names_in(text)
        for info in applied:
            for ch in info.changes:
                if ch.action == "override" and ch.kind in ("state", "def", "param", "record", "table", "enum") \
                        and ch.name in words:
                    return replace(diag, notes=tuple(diag.notes) + ((ch.span, f"variant '{info.name}' overrides "
                                                                              f"'{ch.name}', which this line "
                                                                              f"uses, here"),))
    return diag


def _names_in(text: str) -> set[str]:
    """The names a piece of a spec line reads: not inside texts (but inside their
    {expressions}) or comments, not field names after a dot."""
    text = re.sub(r'"(\\.|[^"\\])*"|#.*',
                  lambda m: " " + " ".join(re.findall(r"\{([^{}]*)\}", m.group(0))) + " "
                  if m.group(0).startswith('"') else " ", text)
    return set(re.findall(r"(?<![.\w])[a-z_][a-z0-9_]*", text))
