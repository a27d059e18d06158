"""A base spec and its variants composed into one list of spec files, in loading order.

In:  the parsed files of a base spec and the parsed variant files to apply.
Out: the spec files with every change applied and what each variant changed (``Applied``).
"""
from __future__ import annotations


import functools
import re
from dataclasses import replace
from pathlib import Path

from rulewright.compiler.syntax import ast as A
from rulewright.compiler.diagnostics import Diagnostic, DiagnosticBag, ResolveError, Span, a_or_an, did_you_mean, source_line
from rulewright.compiler.variants.names import Applied, BASE, ChangeRecord, KEPT, EditTable, map_names, span_of, targets_of, uses_base, variant_name, word
from rulewright.compiler.variants.parts import PART_ADDS, ROW_CHANGES, near_step, overlaps, step_form_ok, step_hint, overridden


def compose(base: list[A.SpecFile], variants: list[A.SpecFile],
            ancestors: dict[str, set[str]], extends: dict[str, str]) -> tuple[list[A.SpecFile], list[Applied]]:
    """Apply ``variants`` (ordered: each after those it extends) to ``base``.
    ``ancestors`` maps a variant file's path to the paths of the variants it extends,
    directly or not; ``extends`` to the resolved path it extends."""
    table = EditTable(base)
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
            targets = targets_of(ch)
            for target, node, span in targets:
                if target in seen_here:
                    bag.error(span, f"'{target}' is changed twice in this variant",
                              "keep one change", notes=((seen_here[target], "the first change"),))
                    continue
                part = next((n for n in seen_here if overlaps(n, target)
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
                clash = [(n, prev) for n, prev in last.items() if (n == target or overlaps(n, target))
                         and prev[0] != vf.path
                         and prev[0] not in ancestors.get(vf.path, set())]
                if clash:
                    name, prev = clash[0]
                    other = variant_name(variants, prev[0])
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
                near = near_step(ch, target)
                dep = removed_by.get(near) if near else None
                if dep is None and ch.action == "remove":
                    dep = placed_near.get(target)
                if dep is not None and near and (dep[0] == vf.path or dep[0] in ancestors.get(vf.path, set())):
                    bag.error(ch.place[2], f"the step '{near}' to put '{target}' {ch.place[0]} is removed by "
                                           f"variant '{variant_name(variants, dep[0])}'",
                              "put the new step beside another step", notes=((dep[1], "removed here"),))
                    continue
                if dep is not None and dep[0] != vf.path and dep[0] not in ancestors.get(vf.path, set()):
                    other = variant_name(variants, dep[0])
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
                    if near_step(ch, target):
                        placed_near[near_step(ch, target)] = (vf.path, span)
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
                                  notes=((span_of(old), "defined here"),))
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
                        hint = step_hint(target, named)
                    if hint is None and want == "state":
                        hint = "a new state variable is declared in a 'state { ... }' block without 'override'"
                    elif hint is None and ch.action == "override":
                        hint = "a new definition is written without 'override'"
                    bag.error(span, f"cannot {ch.action} '{target}': the base has no {what} of that name",
                              hint)
                    continue
                kind, old, loc = named[target]
                if kind == "step" and ch.action == "override" and not step_form_ok(ch, named, bag):
                    continue
                if want is not None and want != kind:
                    bag.error(span, f"'{target}' is {a_or_an(kind)} in the base, not {a_or_an(want)}",
                              f"write '{ch.action} {kind} {target}'",
                              notes=((span_of(old), "defined here"),))
                    continue
                if ch.action == "remove":
                    table.put(loc, None)
                    info.changes.append(ChangeRecord("remove", kind, target, v.name, span, old, None, ch.doc,
                                                     tuple(t for t, _ in ch.tags)))
                    removed_by[target] = (vf.path, span)
                else:
                    new = overridden(old, node, bag, span)
                    if new is None:
                        continue
                    if isinstance(new, A.Definition) and uses_base(new):
                        # ``base`` in the override is the definition it replaces, kept
                        # under a name of its own
                        kept = f"{target}{KEPT}{v.name}"
                        new = map_names(new, {BASE: kept})
                        added.append(replace(old, name=kept))
                    elif uses_base(new) and not isinstance(new, A.Step):
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


@functools.lru_cache(maxsize=1024)       # (the same few files, for each of thousands of errors)
def _resolved(path: str) -> str:
    return str(Path(path).resolve())


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
    theirs = {_resolved(info.path) for info in applied}
    if _resolved(diag.span.file) in theirs:
        return diag
    gone = re.match(r"no procedure of this spec makes a choice '(\w+)'", diag.message)
    if gone:            # a query's play of a choice a variant's procedure no longer makes
        def chooses(node) -> bool:
            return node is not None and any(isinstance(n, A.Choose) and n.name == gone[1] for n in A.nodes_in(node))
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
