"""What every phase of the resolver shares: the built-in names, the scopes of local names,
the resolved values of tables, maps and relations, and the limits on what a spec may declare.
"""
from __future__ import annotations


import re
from typing import Any

from rulewright.compiler.semantics.operators import AGGREGATES, BUILTIN_CALLS

from rulewright.compiler.syntax import ast as A
from rulewright.compiler import ir as I
from rulewright.compiler.semantics import runtime as rt
from rulewright.compiler.diagnostics import Span, source_line
from rulewright.compiler.types import TupleT, Type


BUILTIN_ENUMS = {
    "direction": ["left", "right"],
    "seat_kind": ["player", "neutral", "automaton"],
}
BUILTIN_COLLECTIONS = {"seats", "players"}
BUILTIN_FUNCS = {name for name, _ in BUILTIN_CALLS} | {"cells", "rows", "columns", "groups",
                                                       "least", "most"} | set(AGGREGATES)
KEYED_AGGREGATES = {"ranked", "sorted", "allocate", "allocate_skipping", "allocate_even", "allocate_skipping_even"}
TYPE_NAMES = {"int", "bool", "text", "cell", "seat", "relation"}


def span_within(span: Span, m: "re.Match") -> Span:
    """The span of a word matched inside a one-line cell."""
    if span.line != span.end_line:
        return span
    start = span.col + m.start() + (len(m.group()) - len(m.group().lstrip()))
    return Span(span.file, span.line, start, span.line, start + max(1, len(m.group().strip())))


def named_options(node: A.Switch) -> bool:
    """A switch between named options (an enum of its own), not bool, int or numbers."""
    return len(node.options) >= 2 and all(isinstance(o, str) for o in node.options)


def rt_oset(items):
    return rt.oset(items)


class AttrData(dict):
    """Constant data of a table-column read (``card.family``): value -> column value."""

    def __init__(self, enum: str, column: str, type_: Type, mapping: dict):
        super().__init__(mapping)
        self.enum, self.column, self.type, self.mapping = enum, column, type_, mapping

    def __repr__(self):
        return f"{self.enum}.{self.column}"

    __hash__ = object.__hash__


class MapValue(dict):
    """A constant table of values: ``{1: 1, 2: 4, 3: 9, else: 16}``."""

    def __init__(self, mapping: dict, default: Any, has_default: bool, key_type: Type, value_type: Type):
        super().__init__(mapping)
        self.mapping, self.default, self.has_default = mapping, default, has_default
        self.key_type, self.value_type = key_type, value_type

    def __missing__(self, key):
        return rt.map_get(self.mapping, key, self.default, self.has_default)

    def __repr__(self):
        items = ", ".join(f"{k}: {v}" for k, v in self.mapping.items())
        if self.has_default:
            items += f", else: {self.default}"
        return "{" + items + "}"

    __hash__ = object.__hash__


class RelData(rt.RelationTable):
    """A relation applied on one grid: its lookup table, with the relation and grid."""

    def __init__(self, relation: rt.Relation, grid: I.GridInfo, name: str):
        super().__init__(relation, grid.rows, grid.cols)
        self.grid, self.name = grid, name
        # the same cells as frozensets, for set operations (no order needed)
        self.sets = {pos: frozenset(cells) for pos, cells in self.items()}
        # for each cell of the grid, the cells the relation reaches it from (offsets only: a
        # ray reaches in from cells any distance beyond the frame), for ``rt.near_cards``
        self.inverse = None if relation.rays else {
            (r, c): tuple((r - dr, c - dc) for dr, dc in relation.offsets) for r, c in self.sets}

    @property
    def table(self):
        return self

    def __repr__(self):
        return f"{self.name} on {self.grid.name}"

    __hash__ = object.__hash__


class Scope:
    def __init__(self, parent: "Scope | None" = None, kind: str | None = None):
        self.parent = parent
        self.names: dict[str, Type] = {}
        self.kind = kind or (parent.kind if parent else "def")

    def lookup(self, name: str) -> Type | None:
        s: Scope | None = self
        while s is not None:
            if name in s.names:
                return s.names[name]
            s = s.parent
        return None

    def all_names(self) -> set[str]:
        out: set[str] = set()
        s: Scope | None = self
        while s is not None:
            out |= set(s.names)
            s = s.parent
        return out

    def child(self, kind: str | None = None) -> "Scope":
        return Scope(self, kind)


MOST_ROWS = 20_000         # the most rows a table file may have
MOST_PLAYERS = 100         # the most players a mode may seat
NAME_RE = re.compile(r"[a-z_][a-z0-9_]*")      # a name of the language (the grammar's NAME)


def written_at(span: Span, text: str) -> Span:
    """The place of the quoted ``text`` inside ``span`` (a path a definition writes), else ``span``."""
    for line in range(span.line, span.end_line + 1):
        found = (source_line(span.file, line) or "").find(f'"{text}"')
        if found >= 0:
            return Span(span.file, line, found + 1, line, found + len(text) + 3)
    return span


# The most cells of a grid (a board game's: Go has 361; its relations go over pairs of cells).
MOST_GRID_CELLS = 1_000


def arity(t) -> int:
    """How many numbers an objective of this type compares: 1, or a tuple's length."""
    return len(t.items) if isinstance(t, TupleT) else 1
