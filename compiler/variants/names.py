"""What the edits of a variant share: the record of each change, the table of a spec's
definitions being edited, the names kept for a replaced definition (``NAME__before_VARIANT``)
and the walks that rename the names a definition uses.
"""
from __future__ import annotations


from dataclasses import dataclass, field, replace

from rulewright.compiler.syntax import ast as A
from rulewright.compiler.diagnostics import Span


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


def merge_tags(base, new):
    seen = {t for t, _ in base}
    return tuple(base) + tuple((t, s) for t, s in new if t not in seen)


class EditTable:
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
            self.files[fi][di] = with_steps(d, lambda body: around_step(body, loc[3], lambda st: (node,) if node else ()))
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
            self.files[fi][di] = with_steps(d, at_end)
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
        self.files[fi][di] = with_steps(d, lambda body: around_step(body, name, pair))

    def result(self) -> list[A.SpecFile]:
        return [A.SpecFile(p, tuple(d for d in defs if d is not None))
                for p, defs in zip(self.paths, self.files)]


BASE = "base"
KEPT = "__before_"


def kept_base(name: str) -> bool:
    """Whether a definition is the base one an override calls ``base``."""
    return KEPT in name


def uses_base(d) -> bool:
    return any((isinstance(n, A.Call) and n.func == BASE) or (isinstance(n, A.Name) and n.id == BASE)
               or (isinstance(n, A.Do) and n.proc == BASE) for n in A.nodes_in(d))


def map_names(node, names: dict[str, str], lets: bool = False):
    """``node`` with the calls, names and procedures of ``names`` renamed (and the
    ``let``s that bind them, with ``lets``)."""
    if isinstance(node, tuple):
        return tuple(map_names(x, names, lets) for x in node)
    if not isinstance(node, A.Node):
        return node
    changes = {}
    for f in node.__dataclass_fields__:
        value = getattr(node, f)
        if isinstance(value, (A.Node, tuple)):
            new = map_names(value, names, lets)
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


def binders_of(node) -> list[tuple[str, Span]]:
    """The names a piece of a spec binds (lets, loops, choices, comprehensions), with
    where."""
    out = []
    for n in A.nodes_in(node):
        if isinstance(n, A.Let):
            out.append((n.name, n.name_span))
        elif isinstance(n, A.For):
            out.append((n.var, n.var_span))
        elif isinstance(n, A.Choose):
            out.append((n.name, n.name_span))
        elif isinstance(n, A.Binder):
            out.append((n.var, n.span))
    return out


def variant_name(variants: list[A.SpecFile], path: str) -> str:
    for vf in variants:
        if vf.path == path:
            return vf.variant.name
    return path


def span_of(node) -> Span:
    return getattr(node, "name_span", None) or node.span


def targets_of(ch: A.Change):
    """(name, new node, span) for each thing a change touches: one per state variable
    of an ``override state {...}`` or of a new state block, one otherwise."""
    node = ch.node
    if isinstance(node, A.State):
        return [(v.name, v, v.span) for v in node.vars]
    return [(ch.target, node, ch.target_span)]


def with_steps(d, change):
    """``d`` with its steps' block changed by ``change``: a scoring's steps, the body
    of a procedure or mode."""
    if isinstance(d, A.Scoring):
        return replace(d, steps=tuple(change(d.steps)))
    return replace(d, body=tuple(change(d.body)))


def around_step(body, name: str, make) -> tuple:
    """``body`` with the step ``name``, at any depth, replaced by ``make(step)`` (a tuple
    of statements: none removes it, two put a new step beside it)."""
    out = []
    for st in body:
        if isinstance(st, A.Step) and st.name == name:
            out.extend(make(st))
            continue
        changes = {f: around_step(block, name, make) for f, block in A.blocks(st)}
        changes = {f: new for f, new in changes.items() if new != getattr(st, f)}
        out.append(replace(st, **changes) if changes else st)
    return tuple(out)
