"""The abstract syntax tree: frozen dataclasses, every node with its ``Span``.

In:  nothing (built by ``build_ast`` from the Lark tree).
Out: ``SpecFile`` (one per ``.rules`` file) holding ``Definition`` nodes.

Names are still plain strings here; ``resolve`` binds them and checks types.
``dump`` prints any node as a stable indented text used by the golden tests.
"""
from __future__ import annotations

from dataclasses import fields
from typing import Any

from rulewright.compiler.diagnostics import Span
from rulewright.compiler.classcode import dataclass   # (its methods' code kept between runs)


@dataclass(frozen=True)
class Node:
    span: Span


# ---------------------------------------------------------------------- types
@dataclass(frozen=True)
class TypeExpr(Node):
    pass


@dataclass(frozen=True)
class TypeName(TypeExpr):
    name: str


@dataclass(frozen=True)
class TypeOf(TypeExpr):
    """``pile of T``, ``set of T``, ``list of T``."""
    kind: str
    elem: TypeExpr


@dataclass(frozen=True)
class TypeTuple(TypeExpr):
    """``(card, cell)``: a tuple of values of these types, in order."""
    items: tuple[TypeExpr, ...]


# ---------------------------------------------------------------- expressions
@dataclass(frozen=True)
class Expr(Node):
    pass


@dataclass(frozen=True)
class IntLit(Expr):
    value: int


@dataclass(frozen=True)
class TextLit(Expr):
    value: str


@dataclass(frozen=True)
class Name(Expr):
    id: str


@dataclass(frozen=True)
class Binder(Node):
    """``for VAR in COLL if COND`` inside an aggregate or comprehension."""
    var: str
    coll: Expr
    cond: Expr | None


@dataclass(frozen=True)
class Call(Expr):
    func: str
    func_span: Span
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Aggregate(Expr):
    """``sum(e for x in C if p)``; ``count(x in C if p)`` has ``elem = Name(x)``;
    ``ranked(x for x in C by key)`` and ``allocate(need for x in C by key from supply)``
    carry a key and a supply."""
    func: str
    func_span: Span
    elem: Expr
    binders: tuple[Binder, ...]
    key: Expr | None = None
    supply: Expr | None = None


@dataclass(frozen=True)
class FieldInit(Node):
    name: str
    value: Expr


@dataclass(frozen=True)
class GridLit(Expr):
    """``grid ecosystem { water . tree ... }``: a grid written out row by row, a value of
    its cells or ``.`` (none) for each cell."""
    grid: str
    grid_span: Span
    cells: tuple[tuple[str | None, Span], ...]


@dataclass(frozen=True)
class New(Expr):
    """``new token(owner = p, power = 0)``: a record value."""
    record: str
    record_span: Span
    fields: tuple[FieldInit, ...]


@dataclass(frozen=True)
class With(Expr):
    """``s with (dp = s.dp + 1)``: the same record with some fields changed."""
    base: Expr
    fields: tuple[FieldInit, ...]


@dataclass(frozen=True)
class Comprehension(Expr):
    """``[e for x in C if p]`` (kind 'list') or ``{e for x in C if p}`` (kind 'set')."""
    kind: str
    elem: Expr
    binders: tuple[Binder, ...]


@dataclass(frozen=True)
class Literal(Expr):
    """``[a, b]`` (kind 'list'), ``{a, b}`` (kind 'set') or ``(a, b)`` (kind 'tuple')."""
    kind: str
    items: tuple[Expr, ...]


@dataclass(frozen=True)
class MapLit(Expr):
    pairs: tuple[tuple[Expr, Expr], ...]
    default: Expr | None


@dataclass(frozen=True)
class Index(Expr):
    base: Expr
    index: Expr


@dataclass(frozen=True)
class Attr(Expr):
    base: Expr
    name: str
    name_span: Span


@dataclass(frozen=True)
class Unary(Expr):
    op: str
    operand: Expr


@dataclass(frozen=True)
class Binary(Expr):
    """Arithmetic, comparison, ``and``/``or``, ``in``/``not in`` and ``..``."""
    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True)
class IfExpr(Expr):
    cond: Expr
    then: Expr
    other: Expr


# ----------------------------------------------------------------- statements
@dataclass(frozen=True)
class Stmt(Node):
    pass


@dataclass(frozen=True)
class Let(Stmt):
    name: str
    name_span: Span
    value: Expr
    doc: str


@dataclass(frozen=True)
class Choose(Stmt):
    """``choose NAME in C`` / ``subset of C sized N`` / ``: TYPE``, ``where``, chooser."""
    name: str
    name_span: Span
    tags: tuple[tuple[str, Span], ...]
    domain: str                       # 'element' | 'subset' | 'value'
    coll: Expr | None
    size: Expr | None
    type: TypeExpr | None
    where: Expr | None
    chooser: Expr | str | None        # None (owner), 'random', or a seat expression
    doc: str


@dataclass(frozen=True)
class Points(Stmt):
    value: Expr


@dataclass(frozen=True)
class Mark(Stmt):
    layer: str
    layer_span: Span
    cells: Expr


@dataclass(frozen=True)
class Shuffle(Stmt):
    zone: Expr


@dataclass(frozen=True)
class Deal(Stmt):
    count: Expr
    source: Expr
    target: Expr


@dataclass(frozen=True)
class Move(Stmt):
    what: Expr
    source: Expr | None
    target: Expr


@dataclass(frozen=True)
class Place(Stmt):
    card: Expr
    source: Expr
    board: Expr
    at: Expr


@dataclass(frozen=True)
class Pass(Stmt):
    zone: str
    zone_span: Span
    direction: Expr


@dataclass(frozen=True)
class Repeat(Stmt):
    count: Expr
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class For(Stmt):
    var: str
    var_span: Span
    coll: Expr
    body: tuple[Stmt, ...]
    simultaneous: bool


@dataclass(frozen=True)
class If(Stmt):
    cond: Expr
    then: tuple[Stmt, ...]
    other: tuple[Stmt, ...]


@dataclass(frozen=True)
class Do(Stmt):
    proc: str
    proc_span: Span
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Report(Stmt):
    name: str
    var: str | None
    coll: Expr | None
    value: Expr


@dataclass(frozen=True)
class SetVar(Stmt):
    """``set x = e`` (a local, or shared state) or ``set hand(p) = e`` (state kept per key)."""
    name: str
    name_span: Span
    key: Expr | None
    value: Expr


@dataclass(frozen=True)
class Swap(Stmt):
    """``swap a, b`` (``swap hand(p), hand(q)``): two values exchanged; each side is a
    local, shared state, or state kept per key, as ``set`` takes them."""
    first: tuple[str, Span, Expr | None]
    second: tuple[str, Span, Expr | None]


@dataclass(frozen=True)
class Checkpoint(Stmt):
    """``checkpoint NAME``: a named moment of play where a game can be stopped and saved."""
    name: str


@dataclass(frozen=True)
class Note(Stmt):
    """``note NAME = e``: a line of the game's narrative (what a played game shows);
    ``section NAME = e`` starts a part of it ("Era 2")."""
    name: str
    value: Expr
    heading: bool = False


@dataclass(frozen=True)
class Take(Stmt):
    """``take X from Z``: cards leave a pile for nowhere in particular (into a record's field, for example)."""
    what: Expr
    source: Expr


@dataclass(frozen=True)
class Reveal(Stmt):
    """``reveal PILE [to SEAT]``: the cards now in a pile shown to one seat, or to every
    seat; ``reveal CARDS from PILE [to SEAT]``: some of its cards."""
    pile: Expr
    to: Expr | None
    cards: Expr | None = None


@dataclass(frozen=True)
class While(Stmt):
    cond: Expr
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class Input(Stmt):
    name: str
    name_span: Span
    type: TypeExpr
    tags: tuple[tuple[str, Span], ...]
    doc: str
    default: Expr | None = None


@dataclass(frozen=True)
class Expect(Stmt):
    """In an example ``expect cond``: what the rules give for its values; ``says``: the
    sentence that says it for players (``expect s.water == 12 "the water holes score 12"``)."""
    cond: Expr
    says: str | None = None


@dataclass(frozen=True)
class Holds(Stmt):
    """In a property ``holds cond``: what must hold for every choice made before it."""
    cond: Expr


@dataclass(frozen=True)
class Require(Stmt):
    """In a query ``require cond``: a condition every answer meets. In a procedure or
    mode ``require NAME [IDs]: cond else "message"``: a condition the game needs to go
    on; the message, with its ``{expression}`` parts, says what is wrong when it does
    not hold."""
    cond: Expr
    tags: tuple[tuple[str, Span], ...]
    name: str | None = None
    name_span: Span | None = None
    message: tuple | None = None


@dataclass(frozen=True)
class Play(Stmt):
    """``play NAME = e`` in a query: the answer, at the game's choice NAME, is e."""
    name: str
    name_span: Span
    value: Expr


@dataclass(frozen=True)
class Objective(Stmt):
    sense: str        # 'maximize' | 'minimize'
    value: Expr
    names: Expr | None = None     # ``named e``: what the number (each number of a tuple) is


# ---------------------------------------------------------------- definitions
@dataclass(frozen=True)
class Definition(Node):
    name: str
    name_span: Span
    tags: tuple[tuple[str, Span], ...]
    doc: str

    @property
    def kind(self) -> str:
        return type(self).__name__.lower()

    @property
    def rule_ids(self) -> tuple[str, ...]:
        return tuple(t for t, _ in self.tags)


@dataclass(frozen=True)
class Param(Node):
    name: str
    type: TypeExpr


@dataclass(frozen=True)
class Game(Definition):
    title: str


@dataclass(frozen=True)
class Switch(Definition):
    options: tuple                   # ('bool',) / ('int',), the named options or the numbers
    default: Any                      # int, str (option or true/false)
    default_span: Span
    title: str | None = None          # the rules pages' name for it


@dataclass(frozen=True)
class Constant(Definition):
    """``param NAME: T = e``: a named value a variant may override."""
    type: TypeExpr | None
    value: Expr


@dataclass(frozen=True)
class Row(Node):
    key: str
    cells: tuple[tuple[Any, Span], ...]
    tags: tuple[tuple[str, Span], ...] = ()     # a row a variant adds may name rule IDs
    doc: str = ""                               # and have a doc comment


@dataclass(frozen=True)
class RowEdit(Node):
    """Values of one row a variant changes: (column, its span, value, its span) each."""
    key: str
    cells: tuple[tuple[str, Span, Any, Span], ...]
    tags: tuple[tuple[str, Span], ...] = ()
    target_span: Span | None = None    # TABLE.NAME as written
    doc: str = ""


@dataclass(frozen=True)
class RowRemoval(Node):
    """``remove row TABLE.NAME``: a row of a table (or a value of an enum) a variant
    takes away, once every row is read."""
    key: str
    target_span: Span | None = None    # TABLE.NAME as written
    doc: str = ""


@dataclass(frozen=True)
class Enum(Definition):
    values: tuple[tuple[str, Span], ...]
    added: tuple[Row, ...] = ()        # values variants add (rows without columns), with their IDs
    removed: tuple[RowRemoval, ...] = ()   # values variants take away
    title: str | None = None          # the rules pages' name for it


@dataclass(frozen=True)
class Column(Node):
    name: str
    type: TypeExpr


@dataclass(frozen=True)
class Table(Definition):
    columns: tuple[Column, ...]
    rows: tuple[Row, ...]
    source: str | None                 # CSV file the rows came from
    option: str | None = None          # command-line option that loads another file: --NAME
    added: tuple[Row, ...] = ()        # rows variants add, after those of the spec or its file
    edits: tuple[RowEdit, ...] = ()    # values of rows variants change, once every row is read
    removed: tuple[RowRemoval, ...] = ()   # rows variants take away, once every row is read
    title: str | None = None          # the rules pages' name for it


@dataclass(frozen=True)
class Grid(Definition):
    rows: Expr
    cols: Expr
    cell_type: TypeExpr
    floating: bool


@dataclass(frozen=True)
class Relation(Definition):
    value: Expr
    title: str | None = None          # the rules pages' name for it


@dataclass(frozen=True)
class Def(Definition):
    params: tuple[Param, ...] | None
    type: TypeExpr | None
    value: Expr
    title: str | None = None          # the rules pages' name for it


@dataclass(frozen=True)
class Rule(Definition):
    params: tuple[Param, ...] | None
    value: Expr
    # ``else "..."``: the sentence that explains the rule when it fails, as text parts
    # and interpolated expressions over the parameters.
    message: tuple | None = None
    title: str | None = None          # the rules pages' name for it


@dataclass(frozen=True)
class Outcome(Definition):
    params: tuple[Param, ...]
    value: Expr
    title: str | None = None          # the rules pages' name for it


@dataclass(frozen=True)
class Estimate(Outcome):
    """How a seat stands during a game (``estimate NAME(p: seat) = ...``): the value bots
    that look ahead compare. A definition like an outcome, called like one."""


@dataclass(frozen=True)
class Layer(Node):
    name: str
    tags: tuple[tuple[str, Span], ...]
    doc: str


@dataclass(frozen=True)
class Step(Stmt):
    """A step of a scoring, or a named part of a procedure or mode (``step NAME {...}``)."""
    name: str
    name_span: Span
    tags: tuple[tuple[str, Span], ...]
    doc: str
    body: tuple[Stmt, ...]
    expr_form: bool = False            # written '= expression' (points), not as a block
    title: str | None = None            # the rules pages' name for it


@dataclass(frozen=True)
class Scoring(Definition):
    params: tuple[Param, ...]
    layers: tuple[Layer, ...]
    steps: tuple[Step, ...]
    title: str | None = None          # the rules pages' name for it


@dataclass(frozen=True)
class Seen(Node):
    """Who sees a pile (``seen by owner showing size, remembered``)."""
    by: str                           # 'all', 'owner' or 'nobody'
    showing: str | None = None        # the field of its cards the others see (their back)
    remembered: bool = False          # a seat that saw cards go in keeps knowing them


@dataclass(frozen=True)
class StateVar(Node):
    name: str
    tags: tuple[tuple[str, Span], ...]
    doc: str
    type: TypeExpr
    init: Expr | None
    seen: Seen | None = None


@dataclass(frozen=True)
class State(Definition):
    per: str | None                    # None: shared; 'seat' or an enum/table: one copy per key
    vars: tuple[StateVar, ...]

    @property
    def per_seat(self) -> bool:
        return self.per == "seat"


@dataclass(frozen=True)
class Field(Node):
    name: str
    tags: tuple[tuple[str, Span], ...]
    doc: str
    type: TypeExpr
    default: Expr | None = None       # the value of a record built without it


@dataclass(frozen=True)
class Record(Definition):
    fields: tuple[Field, ...]


@dataclass(frozen=True)
class Procedure(Definition):
    params: tuple[Param, ...]
    body: tuple[Stmt, ...]
    title: str | None = None          # the rules pages' name for it


@dataclass(frozen=True)
class SeatEntry(Node):
    name: str | None                  # None: one seat per player
    kind: str
    title: str | None


@dataclass(frozen=True)
class Mode(Definition):
    title: str | None
    players: Expr
    seats: tuple[SeatEntry, ...]
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class Check(Definition):
    """``check NAME [for x in C if p]: cond else "message"``; the message's text parts
    and ``{expression}`` parts, as a rule's."""
    var: str | None
    domain: Expr | None
    filter: Expr | None
    cond: Expr
    message: tuple


@dataclass(frozen=True)
class Invariant(Check):
    """``invariant NAME [for x in C if p]: cond else "message"``: a fact every position
    of a game satisfies. Unlike a check it may read the game state; it is checked when
    a position is read from a file (a hand-edited one included), never at load. With
    ``else warn "message"`` (``warn``) a position read from a file may break it, with
    a warning: a question about a position that cannot arise ("what if I held these
    cards") is still asked; the rules themselves never break it."""
    warn: bool = False


@dataclass(frozen=True)
class Query(Definition):
    title: str | None
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class Property(Definition):
    """``property NAME [IDs] "sentence" { choose ... holds EXPR }``: a guarantee."""
    title: str | None
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class Example(Definition):
    """``example NAME [IDs] "title" [on "position.json"] { let ... expect ... }``: a worked
    example of the rulebook, run by ``rulewright examples`` and shown in the rules pages."""
    title: str | None
    body: tuple[Stmt, ...]
    position: str | None = None        # a state file, relative to the spec file
    position_span: Span | None = None


@dataclass(frozen=True)
class Section(Definition):
    """``section NAME [IDs] "title" { NAME, ... }``: a chapter of the rulebook pages showing
    those definitions, in that order."""
    title: str | None
    names: tuple[tuple[str, Span], ...]


@dataclass(frozen=True)
class Domain(Definition):
    """``domain NAME [IDs]: TYPE "sentence" { choose ... }``: values verification ranges over."""
    type: "TypeExpr"
    title: str | None
    body: tuple[Stmt, ...]
    only: tuple[tuple[str, Span], ...] = ()     # "for NAME, ...": the definitions it is for


@dataclass(frozen=True)
class Variant(Definition):
    """``variant NAME [IDs] "title" extends "PATH"``: the head of a variant file."""
    title: str | None
    extends: str
    extends_span: Span


@dataclass(frozen=True)
class Change(Node):
    """One change a variant makes to its base: ``override`` a definition (a whole
    definition, a switch's default, one state variable, one step of a scoring),
    ``remove`` one, or ``add`` a new one. ``target`` is the name changed
    (``scoring.step`` for a step); ``node`` the new definition (None for remove);
    ``place`` where an added step goes."""
    action: str                        # 'override' | 'remove' | 'add'
    kind: str | None                   # the kind written (remove) or of the node
    target: str
    target_span: Span
    doc: str
    node: Any = None
    place: tuple[str, str, Span] | None = None   # an added step: ('after' | 'before', STEP, span)
    tags: tuple[tuple[str, Span], ...] = ()      # the rule IDs a removal names


@dataclass(frozen=True)
class SpecFile:
    path: str
    definitions: tuple[Definition, ...]
    variant: Variant | None = None
    changes: tuple[Change, ...] = ()


# ----------------------------------------------------------------------- dump
def dump(node: Any, indent: int = 0, played: bool = False) -> str:
    """A stable, readable text form of an AST (spans as line:col). ``played``: only what
    plays, without places, doc comments, titles and the sentences of examples (what a
    balance study's measures depend on)."""
    pad = "  " * indent
    if isinstance(node, SpecFile):
        lines = [f"{pad}SpecFile {node.path}"]
        lines += [dump(d, indent + 1, played) for d in node.definitions]
        return "\n".join(lines)
    if isinstance(node, Node):
        head = f"{pad}{type(node).__name__}" + ("" if played else f" @{node.span.line}:{node.span.col}")
        simple, nested = [], []
        for f in fields(node):
            if f.name in ("span", "name_span", "func_span", "var_span", "layer_span",
                          "zone_span", "proc_span", "default_span", "record_span"):
                continue
            if played and f.name in _NOT_PLAYED_FIELDS:
                continue
            value = getattr(node, f.name)
            if isinstance(value, Node) or (isinstance(value, tuple) and value and
                                           any(isinstance(v, Node) for v in value)):
                nested.append((f.name, value))
            elif f.name == "tags":
                if value:
                    simple.append("tags=" + ",".join(t for t, _ in value))
            elif f.name == "values" and isinstance(node, Enum):
                simple.append("values=" + ",".join(v for v, _ in value))
            elif f.name == "cells" and isinstance(node, Row):
                simple.append("cells=" + ",".join(repr(v) for v, _ in value))
            elif f.name == "pairs":
                nested.append((f.name, value))
            elif value not in (None, "", ()):
                simple.append(f"{f.name}=" + (_placeless(value) if played else repr(value)))
        lines = [head + (" " + " ".join(simple) if simple else "")]
        for name, value in nested:
            lines.append(f"{pad}  .{name}")
            items = value if isinstance(value, tuple) else (value,)
            for item in items:
                if isinstance(item, tuple):
                    for sub in item:
                        lines.append(dump(sub, indent + 2, played))
                else:
                    lines.append(dump(item, indent + 2, played))
        return "\n".join(lines)
    return f"{pad}{_placeless(node) if played else repr(node)}"


# what a played dump leaves out: the texts players read, not the rules they play by
_NOT_PLAYED_FIELDS = ("doc", "title", "says")


def _placeless(value) -> str:
    """``repr(value)`` without the places (spans) it holds."""
    if isinstance(value, Span):
        return "_"
    if isinstance(value, tuple):
        return "(" + ", ".join(_placeless(v) for v in value) + ("," if len(value) == 1 else "") + ")"
    return repr(value)


def blocks(st: Stmt) -> list[tuple[str, tuple]]:
    """(field, statements) for each block of statements a statement holds (an if's
    branches, a loop's or a step's body)."""
    out = []
    for f in st.__dataclass_fields__:
        value = getattr(st, f)
        if isinstance(value, tuple) and value and isinstance(value[0], Stmt):
            out.append((f, value))
    return out


def body_steps(body) -> list[Step]:
    """The steps of a procedure's or mode's body, at any depth, in order."""
    out: list[Step] = []
    for st in body:
        if isinstance(st, Step):
            out.append(st)
        for _, block in blocks(st):
            out.extend(body_steps(block))
    return out


def steps_of(d) -> list[Step]:
    """The steps of a definition: a scoring's, or the named parts of a procedure or mode."""
    if isinstance(d, Scoring):
        return list(d.steps)
    if isinstance(d, (Procedure, Mode)):
        return body_steps(d.body)
    return []


def tagged_ids(node) -> set[str]:
    """Every rule ID written in a definition: its own and those of its steps, fields,
    state variables, choices, requirements and inputs."""
    ids: set[str] = set()
    for n in nodes_in(node):
        tags = getattr(n, "tags", None) if isinstance(n, Node) else None
        if isinstance(tags, tuple):
            ids.update(t for t, _ in tags)
    return ids


def nodes_in(node):
    """Every AST node under ``node`` (itself included)."""
    yield node
    if isinstance(node, tuple):
        for x in node:
            yield from nodes_in(x)
        return
    if not isinstance(node, Node):
        return
    for f in node.__dataclass_fields__:
        value = getattr(node, f)
        if isinstance(value, (Node, tuple)):
            yield from nodes_in(value)
