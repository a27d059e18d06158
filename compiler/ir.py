"""The checked program: typed expression and statement nodes with resolved names.

In:  nothing (built by ``resolve``).
Out: ``Program``, which the interpreter (``interpret``), the CP-SAT encoder
     (``solver.encode``), the rules graph (``graph``) and the docs all read.

Every expression node has a ``type`` and a ``span``. Names are resolved:
``Local`` (parameter, ``let``, binder, choice, seat name), ``Global`` (a
definition without parameters, a constant, a shared state variable), ``Call``
(a definition with parameters), ``Op`` (a built-in operator from
``semantics.operators``), ``Agg`` (sum/count/any/all/min/max/distinct and
comprehensions).
"""
from __future__ import annotations

from dataclasses import field
from typing import Any, Iterator

from rulewright.compiler.syntax import ast as A
from rulewright.compiler.diagnostics import Span, one_of
from rulewright.compiler.types import Type
from rulewright.compiler.classcode import dataclass   # (its methods' code kept between runs)


# ---------------------------------------------------------------- expressions
@dataclass(eq=False)
class Expr:
    type: Type
    span: Span


@dataclass(eq=False)
class Const(Expr):
    value: Any


@dataclass(eq=False)
class Local(Expr):
    name: str


@dataclass(eq=False)
class Global(Expr):
    """A definition without parameters, a shared state variable, or a built-in
    collection such as ``seats``."""
    name: str


@dataclass(eq=False)
class SeatVar(Expr):
    """Per-seat state: ``hand(p)``."""
    name: str
    seat: Expr


@dataclass(eq=False)
class Call(Expr):
    name: str
    args: list[Expr]
    mode: int = 1           # scorings: +1 choices maximise the total, -1 minimise


@dataclass(eq=False)
class Op(Expr):
    op: str
    args: list[Expr]
    data: Any = None        # operator-specific constant data (grid info, map, ...)


@dataclass(eq=False)
class Binder:
    var: str
    coll: Expr
    cond: Expr | None
    span: Span


@dataclass(eq=False)
class Agg(Expr):
    func: str               # sum count any all min max distinct list set ranked sorted allocate...
    elem: Expr
    binders: list[Binder]
    key: Expr | None = None       # ``by`` key (ranked, sorted, allocate)
    supply: Expr | None = None    # ``from`` supply (allocate)


# ----------------------------------------------------------------- statements
@dataclass(eq=False)
class Stmt:
    span: Span


@dataclass(eq=False)
class Let(Stmt):
    name: str
    value: Expr


@dataclass(eq=False)
class Choose(Stmt):
    name: str
    domain: str                    # element | subset | value
    coll: Expr | None
    size: Expr | None
    type: Type | None
    where: Expr | None
    chooser: Expr | str | None     # None: owner of a scoring / query solver; 'random'; seat expr
    tags: tuple[str, ...] = ()


@dataclass(eq=False)
class Points(Stmt):
    value: Expr


@dataclass(eq=False)
class Mark(Stmt):
    layer: str
    cells: Expr


@dataclass(eq=False)
class Shuffle(Stmt):
    zone: Expr


@dataclass(eq=False)
class Deal(Stmt):
    count: Expr
    source: Expr
    target: Expr


@dataclass(eq=False)
class Move(Stmt):
    what: Expr
    source: Expr | None
    target: Expr


@dataclass(eq=False)
class Place(Stmt):
    card: Expr
    source: Expr
    board: Expr
    at: Expr


@dataclass(eq=False)
class Pass(Stmt):
    zone: str
    direction: Expr


@dataclass(eq=False)
class Repeat(Stmt):
    count: Expr
    body: list[Stmt]


@dataclass(eq=False)
class For(Stmt):
    var: str
    coll: Expr
    body: list[Stmt]
    simultaneous: bool


@dataclass(eq=False)
class If(Stmt):
    cond: Expr
    then: list[Stmt]
    other: list[Stmt]


@dataclass(eq=False)
class Do(Stmt):
    proc: str
    args: list[Expr]


@dataclass(eq=False)
class Report(Stmt):
    name: str
    var: str | None
    coll: Expr | None
    value: Expr


@dataclass(eq=False)
class SetVar(Stmt):
    """Assign a local (``scope='local'``), shared state (``'shared'``) or state kept per
    key (``'keyed'``, with ``key``)."""
    name: str
    scope: str
    key: Expr | None
    value: Expr


@dataclass(eq=False)
class Checkpoint(Stmt):
    name: str


@dataclass(eq=False)
class Block(Stmt):
    """A named step of a procedure or mode: its statements, run in place; the IDs of the
    rules it carries out (counted when it runs, for studies: ``GameState.tally``)."""
    name: str
    body: list[Stmt]
    tags: tuple[str, ...] = ()


@dataclass(eq=False)
class Note(Stmt):
    name: str
    value: Expr
    heading: bool = False


@dataclass(eq=False)
class Take(Stmt):
    what: Expr
    source: Expr


@dataclass(eq=False)
class Reveal(Stmt):
    pile: Expr
    to: Expr | None        # a seat; None: every seat
    cards: Expr | None = None   # some cards of the pile; None: all of them


@dataclass(eq=False)
class While(Stmt):
    cond: Expr
    body: list[Stmt]


@dataclass(eq=False)
class Input(Stmt):
    name: str
    type: Type
    default: Expr | None = None


@dataclass(eq=False)
class Expect(Stmt):
    """In an example: what the rules give for its values."""
    cond: Expr


@dataclass(eq=False)
class Holds(Stmt):
    """In a property: what must hold for every choice made before it."""
    cond: Expr


@dataclass(eq=False)
class Require(Stmt):
    cond: Expr
    tags: tuple[str, ...] = ()
    name: str | None = None         # in a procedure: its name, and its message's text
    message: tuple | None = None    # parts and expressions


@dataclass(eq=False)
class Play(Stmt):
    name: str
    value: Expr


@dataclass(eq=False)
class Objective(Stmt):
    sense: str
    value: Expr
    names: Expr | None = None


# ---------------------------------------------------------------- definitions
@dataclass
class EnumInfo:
    name: str
    values: list[str]
    spans: dict[str, Span] = field(default_factory=dict)             # value -> where it is defined
    columns: dict[str, Type] = field(default_factory=dict)
    attrs: dict[str, dict[str, Any]] = field(default_factory=dict)   # column -> value -> attr
    sources: dict[str, str] = field(default_factory=dict)            # value -> row source note
    node: A.Definition | None = None
    removed: dict[str, Span] = field(default_factory=dict)           # value a variant removes -> where

    def not_a_value_hint(self, name: str, what: str) -> str:
        """The hint for a name that is none of the values: that a variant removes it,
        else the close ones (see ``one_of``)."""
        if name in self.removed:
            where = self.removed[name]
            return f"a variant removes it from {self.name} ({where.file}:{where.line})"
        return one_of(name, list(self.values), what)


@dataclass
class GridInfo:
    name: str
    rows: int
    cols: int
    cell_enum: str
    floating: bool
    node: A.Grid | None = None

    @property
    def cells(self) -> tuple[tuple[int, int], ...]:
        return tuple((r, c) for r in range(self.rows) for c in range(self.cols))


@dataclass
class FuncDef:
    name: str
    kind: str                       # def | rule | relation | outcome | estimate | param | switch
    params: list[tuple[str, Type]]
    type: Type
    body: Expr | None
    node: A.Definition
    message: tuple | None = None    # a rule's explanation: text parts and expressions


@dataclass
class StepDef:
    name: str
    body: list[Stmt]
    node: A.Step


@dataclass
class ScoringDef:
    name: str
    params: list[tuple[str, Type]]
    layers: list[str]
    steps: list[StepDef]
    node: A.Scoring


@dataclass
class StateVarDef:
    name: str
    type: Type
    init: Expr | None
    per: str | None             # None: shared; 'seat' or an enum/table name: one value per key
    node: A.StateVar
    key_type: Type | None = None
    seen: str = "all"               # who sees it: 'all', 'owner' (the seat it is kept for), 'nobody'
    showing: str | None = None      # the field of its cards every seat sees (their back)
    remembered: bool = False        # a seat that saw cards go in keeps knowing they are there

    @property
    def public(self) -> bool:
        return self.seen == "all"

    @property
    def is_pile(self) -> bool:
        return getattr(self.type, "kind", None) == "pile"

    @property
    def per_seat(self) -> bool:
        return self.per == "seat"

    @property
    def keyed(self) -> bool:
        return self.per is not None


@dataclass
class RecordInfo:
    name: str
    fields: list[tuple[str, Type]]
    node: A.Record
    cls: Any = None             # the run-time tuple class (runtime.record_class)
    defaults: dict[str, Const] = field(default_factory=dict)   # a field's value when not given


@dataclass
class ProcDef:
    name: str
    params: list[tuple[str, Type]]
    body: list[Stmt]
    node: A.Procedure


@dataclass
class SeatSpec:
    name: str | None     # None: one per player
    kind: str
    title: str | None


@dataclass
class ModeDef:
    name: str
    title: str | None
    min_players: int
    max_players: int
    seats: list[SeatSpec]
    body: list[Stmt]
    node: A.Mode


@dataclass
class CheckDef:
    """A fact about the spec's data, evaluated when the spec is loaded (a ``check``), or
    about every position of a game, evaluated when one is read (an ``invariant``). With a loop
    variable, every element of ``domain`` passing ``filter`` must satisfy ``cond``.
    ``sides`` are the two operands when ``cond`` is a comparison (shown on failure).
    ``message``: text parts and expressions (``{...}`` in the spec), read with the
    loop variable bound."""
    name: str
    var: str | None
    domain: Expr | None
    filter: Expr | None
    cond: Expr
    message: tuple
    sides: tuple[Expr, str, Expr] | None
    node: A.Check


@dataclass
class QueryDef:
    name: str
    title: str | None
    body: list[Stmt]
    inputs: list[tuple[str, Type, str]]      # name, type, doc
    node: A.Query


@dataclass
class PropertyDef:
    """A guarantee of the rules: for every choice of ``body`` (the choose forms of a
    query, with its ``let``, ``require`` and ``if``), every ``holds`` reached holds."""
    name: str
    title: str | None
    body: list[Stmt]
    node: A.Property


@dataclass
class ExampleDef:
    """A worked example: ``body`` (lets and expects) evaluated concretely, on the position
    read from ``position`` (a state file) when it names one."""
    name: str
    title: str | None
    body: list[Stmt]
    node: A.Example
    position: str | None = None     # the state file's path, resolved against the spec file


@dataclass
class DomainDef:
    """Values of ``type`` that verification ranges over: those ``body`` can choose, the
    value being the name ``var`` its last choose or let binds."""
    name: str
    title: str | None
    type: Type
    body: list[Stmt]
    var: str
    node: A.Domain
    only: tuple[str, ...] = ()      # the definitions it is for (all when empty)


@dataclass
class Program:
    name: str
    title: str
    root: str                                  # the spec directory
    files: list[A.SpecFile]
    definitions: dict[str, A.Definition]       # every named definition, for graph and docs
    switches: dict[str, Any]
    constants: dict[str, Any]                  # folded values of params and switches
    enums: dict[str, EnumInfo]
    enum_of_value: dict[str, str]
    grids: dict[str, GridInfo]
    funcs: dict[str, FuncDef]
    scorings: dict[str, ScoringDef]
    state: dict[str, StateVarDef]
    procedures: dict[str, ProcDef]
    modes: dict[str, ModeDef]
    queries: dict[str, QueryDef]
    records: dict[str, RecordInfo]
    outcome: str | None
    reads: list[tuple[str, str, str, Span]]    # (from, to, kind: reads|contains|precedes|calls, span)
    overrides: dict[str, Any] = field(default_factory=dict)
    checks: dict[str, CheckDef] = field(default_factory=dict)
    invariants: dict[str, CheckDef] = field(default_factory=dict)
    table_files: dict[str, str] = field(default_factory=dict)   # table -> file it was read from
    own_tables: dict[str, str] = field(default_factory=dict)    # tables read from a player's files
    variants: list = field(default_factory=list)                # variants.Applied, base first
    estimate: str | None = None     # how a seat stands during a game, for bots that look ahead
    properties: dict[str, PropertyDef] = field(default_factory=dict)
    domains: dict[str, DomainDef] = field(default_factory=dict)
    examples: dict[str, ExampleDef] = field(default_factory=dict)
    examples_left_out: dict[str, Any] = field(default_factory=dict)   # name -> the Diagnostic why

    def switch_options(self, name: str) -> list:
        """Every value a switch can take (for 'int' switches: the default only is known)."""
        opts = self.definitions[name].options
        if opts == ("bool",):
            return [True, False]
        if opts == ("int",):
            return [self.switches[name]]
        return list(opts)

    def grid(self, name: str | None) -> GridInfo:
        if name is None:
            if len(self.grids) == 1:
                return next(iter(self.grids.values()))
            raise KeyError("which grid?")
        return self.grids[name]


_NODES = (Expr, Binder, Stmt)


def children(x) -> list:
    """The expressions, binders and statements directly inside any node of the
    program, read from its fields (a field holding a list or tuple of them
    included), so a walk over them misses no part of a node, whatever its kind."""
    if not isinstance(x, _NODES):
        return []
    out = []
    for v in vars(x).values():
        if isinstance(v, _NODES):
            out.append(v)
        elif isinstance(v, (list, tuple)):
            out += [y for y in v if isinstance(y, _NODES)]
    return out


def descendants(nodes) -> Iterator:
    """Every node inside ``nodes`` (and they themselves), in the order written, each
    node before its parts (``children``)."""
    stack = list(reversed(list(nodes)))
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(children(node)))


def checkpoint_names(program: "Program") -> list[str]:
    """The checkpoints the spec's procedures and modes declare, in order."""
    bodies = [p.body for p in program.procedures.values()] + [m.body for m in program.modes.values()]
    found = (n.name for body in bodies for n in descendants(body or ()) if isinstance(n, Checkpoint))
    return list(dict.fromkeys(found))


def parts(x) -> list:
    """The expressions and binders directly inside an expression or a binder."""
    if not isinstance(x, (Expr, Binder)):
        return []
    return children(x)


def scoped_children(x, bound: frozenset = frozenset()) -> list[tuple[Any, frozenset]]:
    """``children(x)``, each with the local names bound where it is read (``bound`` are
    those bound around ``x``): an aggregate's binder binds its variable for the binders
    after it, their conditions, the element and the key, not for the supply."""
    if not isinstance(x, Agg):
        return [(c, bound) for c in children(x)]
    out: list = []
    inner = set(bound)
    for b in x.binders:
        out.append((b.coll, frozenset(inner)))
        inner.add(b.var)
        if b.cond is not None:
            out.append((b.cond, frozenset(inner)))
    for y in (x.elem, x.key):
        if y is not None:
            out.append((y, frozenset(inner)))
    if x.supply is not None:
        out.append((x.supply, bound))
    return out


def free_locals(e, opaque=None) -> frozenset | None:
    """The local names an expression reads: those its own aggregates bind are left
    out, within their scope. None when ``opaque(node)`` holds for a node inside it (a
    call the caller cannot see through)."""
    if isinstance(e, Local):
        return frozenset([e.name])
    if opaque is not None and opaque(e):
        return None
    out = frozenset()
    for child, inner in scoped_children(e):
        f = free_locals(child, opaque)
        if f is None:
            return None
        out |= f - inner
    return out


def statements(stmts):
    """Every statement of a block, those of its branches included."""
    for st in stmts:
        yield st
        if isinstance(st, If):
            yield from statements(st.then)
            yield from statements(st.other)
        elif isinstance(st, Block):
            yield from statements(st.body)


def points_local(step: str) -> str:
    """The local holding the points of a finished step of a scoring (``SCORING.STEP``):
    a name no spec can write, bound by the interpreter and the encoder once the step is
    done."""
    return f"points of {step}"
