"""The edits of a variant below a whole definition: a step of a scoring, procedure or mode
(override, remove, add before/after), a record's field, a table's row (add, override, remove).

In:  the table of definitions being edited and one ``ast.Change``.
Out: the table edited, or diagnostics with a hint naming what is there.
"""
from __future__ import annotations


from dataclasses import replace

from rulewright.compiler.syntax import ast as A
from rulewright.compiler.ir import checkpoint_names
from rulewright.compiler.diagnostics import DiagnosticBag, Span, a_or_an, did_you_mean
from rulewright.compiler.variants.names import BASE, ChangeRecord, KEPT, EditTable, map_names, span_of, uses_base, binders_of, merge_tags


# ------------------------------------------------------------------ steps
def near_step(ch: A.Change, target: str) -> str | None:
    """The step an added step is put after or before (OWNER.STEP), if any."""
    if ch.action == "add" and ch.kind == "step" and ch.place is not None:
        return f"{target.partition('.')[0]}.{ch.place[1]}"
    return None


def overlaps(a: str, b: str) -> bool:
    """Whether two changed names overlap: the same, or one a part (a step, a field, a
    row) of the other."""
    return a != b and (a.startswith(b + ".") or b.startswith(a + "."))


def step_hint(target: str, named: dict, full: bool = True) -> str:
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


def _add_step(table: EditTable, named: dict, ch: A.Change, bag: DiagnosticBag) -> bool:
    """Put the step an ``add step OWNER.NAME [after|before STEP]`` adds in its place;
    False (with an error) when the owner or the place is missing or the name taken."""
    owner, _, name = ch.target.partition(".")
    if ch.target in named:
        old = named[ch.target][1]
        bag.error(ch.target_span, f"'{owner}' already has a step '{name}'",
                  f"write 'override step {ch.target} ...' to change it",
                  notes=((span_of(old), "defined here"),))
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
    if uses_base(ch.node):
        bag.error(ch.target_span, f"'base' is the base's step in an override, and '{name}' is a new step",
                  f"to build on a step of the base, write 'override step {owner}.STEP = base + ...'"
                  if ch.node.expr_form else
                  f"to build on a step of the base, write 'override step {owner}.STEP {{ do base() ... }}'")
        return False
    if not step_form_ok(ch, named, bag):
        return False
    if ch.place is not None:
        where, place, pspan = ch.place
        if f"{owner}.{place}" not in named:
            bag.error(pspan, f"the {kind} '{owner}' has no step '{place}' to put '{name}' {where}",
                      step_hint(f"{owner}.{place}", named, full=False))
            return False
        loc = named[f"{owner}.{place}"][2][:2]      # the body that holds it (a wrapped base's too)
    table.insert(loc, ch.node, ch.place)
    return True


def step_form_ok(ch: A.Change, named: dict, bag: DiagnosticBag) -> bool:
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


def _add_field(table: EditTable, named: dict, ch: A.Change, bag: DiagnosticBag) -> bool:
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


def _add_row(table: EditTable, named: dict, ch: A.Change, bag: DiagnosticBag) -> bool:
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


def _remove_row(table: EditTable, named: dict, ch: A.Change, bag: DiagnosticBag) -> bool:
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


def _edit_row(table: EditTable, named: dict, ch: A.Change, bag: DiagnosticBag) -> bool:
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


def spliced(body, old: A.Step, bag: DiagnosticBag):
    """An overriding step's statements with the base step in them: ``do base()``
    becomes the base step's statements; ``base`` as a value, the points of a base
    step written ``= expression``. None (with an error) where that cannot be."""
    value = old.body[0].value if len(old.body) == 1 and isinstance(old.body[0], A.Points) else None
    hidden = f"{BASE}{KEPT}{old.name}"           # the base step's points, computed once
    # the base step's own lets, under names of their own where they are spliced in
    inner = map_names(old.body, {x.name: f"{x.name}{KEPT}{old.name}" for x in A.nodes_in(old.body)
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
    bases = [n for n in A.nodes_in(body) if isinstance(n, A.Do) and n.proc == BASE]
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
        return {n.name for n in A.nodes_in(node) if isinstance(n, A.Checkpoint)} - still if node is not None else set()
    out = []
    for info in program.variants:
        for ch in info.changes:
            if ch.kind in ("step", "procedure", "mode") and ch.action in ("remove", "override"):
                for name in sorted(names(ch.before) - names(ch.after)):
                    out.append((name, info.name, ch))
    return out


PART_ADDS = {"step": _add_step, "field": _add_field, "row": _add_row}
ROW_CHANGES = {"override": _edit_row, "remove": _remove_row}


def overridden(old, new, bag: DiagnosticBag, span: Span):
    """The definition that replaces ``old``: the variant's, with the base's rule IDs
    first, the base's doc and title when it has none, a switch keeping its options, a
    param its type and a state variable who sees it."""
    doc = new.doc or old.doc
    if isinstance(new, A.StateVar):     # (who sees it stays the base's unless it says)
        return replace(new, tags=merge_tags(old.tags, new.tags), doc=doc,
                       seen=new.seen if new.seen is not None else old.seen)
    if isinstance(new, A.Step):
        taken = [sp for n, sp in binders_of(new.body) if n == BASE]
        if taken:
            bag.error(taken[0], "'base' is the base's step in an override of a step: no let, loop or "
                                "choice can take the name", "give the value another name")
            return None
        body = new.body
        if uses_base(new):
            body = spliced(new.body, old, bag)
            if body is None:
                return None
        return replace(new, body=body, tags=merge_tags(old.tags, new.tags), doc=doc, title=new.title or old.title)
    tags = merge_tags(old.tags, new.tags)
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
    if getattr(new, "title", "") is None and getattr(old, "title", None):      # (the base's title, unless it gives one)
        return replace(new, tags=tags, doc=doc, title=old.title)
    return replace(new, tags=tags, doc=doc)
