"""The operators of the expression language, each defined once.

In:  operand types (for the resolver), operand source code (for the
     interpreter), symbolic operand values (for the CP-SAT encoder).
Out: for every operator, side by side:

  * ``typing``: its signature (argument types -> result type);
  * ``py``: its concrete meaning, a Python expression template over the
    operands' code (``{0}``, ``{1}``, ``{*}`` for all, ``{D}`` for the
    operator's constant data); ``evaluate`` is derived from it;
  * ``encode``: its CP-SAT encoding over symbolic values (see ``encode``),
    or ``None`` when it can only be evaluated on constants (the encoder then
    folds it when its operands are constants and raises ``NotSupportedError``
    with the node's span otherwise).

A new operator lands with all three and a row in ``tests/test_operators.py``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from compiler import runtime as _rt
from compiler.types import (ANY, BOOL, INT, RELATION, AnyT, BoardT, BoolT, CellT, CollT, EnumT,
                            IntT, LayerT, NoneT, SeatT, TupleT, Type, TextT, is_bool, is_coll,
                            is_int, same)


class OpTypeError(Exception):
    def __init__(self, message: str, arg: int | None = None):
        super().__init__(message)
        self.message = message
        self.arg = arg


@dataclass
class Operator:
    name: str
    arity: int | None                                   # None: variadic
    typing: Callable[[list[Type], Any], Type]
    py: str
    encode: Callable | None = None
    doc: str = ""

    def emit(self, args: list[str], data_name: str | None = None) -> str:
        text = self.py.replace("{*}", ", ".join(args))
        if data_name is not None:
            text = text.replace("{D}", data_name)
        for i, a in enumerate(args):
            text = text.replace("{%d}" % i, a)
        return text

    def evaluate(self, *args, data=None):
        """Concrete value of the operator on concrete operands (from ``py``)."""
        names = [f"_a{i}" for i in range(len(args))]
        env = {"_rt": _rt, "_D": data}
        env.update(zip(names, args))
        return eval(self.emit(names, "_D"), env)  # noqa: S307 - our own templates


OPERATORS: dict[str, Operator] = {}


def op(name, arity, typing, py, doc=""):
    OPERATORS[name] = Operator(name, arity, typing, py, None, doc)


def need(cond: bool, message: str, arg: int | None = None):
    if not cond:
        raise OpTypeError(message, arg)


# ------------------------------------------------------------------ typing
def t_int2(ts, data):
    for i, t in enumerate(ts):
        need(is_int(t), f"expected a number, found {t}", i)
    return INT


def t_int1(ts, data):
    need(is_int(ts[0]), f"expected a number, found {ts[0]}", 0)
    return INT


def t_bool2(ts, data):
    for i, t in enumerate(ts):
        need(is_bool(t), f"expected true or false, found {t}", i)
    return BOOL


def t_bool1(ts, data):
    need(is_bool(ts[0]), f"expected true or false, found {ts[0]}", 0)
    return BOOL


def t_eq(ts, data):
    need(same(ts[0], ts[1]), f"cannot compare {ts[0]} with {ts[1]}", 1)
    return BOOL


def t_order(ts, data):
    return t_int2(ts, data) and BOOL


def t_if(ts, data):
    from compiler.types import join
    need(is_bool(ts[0]), f"the condition must be true or false, found {ts[0]}", 0)
    j = join(ts[1], ts[2])
    need(j is not None, f"the two branches differ: {ts[1]} and {ts[2]}", 2)
    return j


def t_in(ts, data):
    need(is_coll(ts[1]), f"'in' needs a collection on its right, found {ts[1]}", 1)
    if isinstance(ts[1], CollT):
        need(same(ts[0], ts[1].elem), f"a {ts[0]} is never in a {ts[1]}", 0)
    return BOOL


def t_concat(ts, data):
    need(is_coll(ts[0]), f"expected a collection, found {ts[0]}", 0)
    need(is_coll(ts[1]), f"expected a collection, found {ts[1]}", 1)
    if isinstance(ts[0], CollT) and isinstance(ts[1], CollT):
        need(same(ts[0].elem, ts[1].elem), f"cannot join a {ts[0]} and a {ts[1]}", 1)
        return CollT("list" if ts[0].kind != ts[1].kind else ts[0].kind,
                     ts[0].elem if not isinstance(ts[0].elem, AnyT) else ts[1].elem)
    return ANY


def t_size(ts, data):
    need(is_coll(ts[0]), f"size() needs a collection, found {ts[0]}", 0)
    return INT


def t_board(i):
    def check(ts, data):
        need(isinstance(ts[i], (BoardT, AnyT)), f"expected a grid, found {ts[i]}", i)
    return check


def t_cell(i):
    def check(ts, data):
        need(isinstance(ts[i], (CellT, AnyT)), f"expected a cell, found {ts[i]}", i)
    return check


def _grid_of(t):
    return t.grid if isinstance(t, BoardT) else None


def t_board_bool(ts, data):
    t_board(0)(ts, data)
    return BOOL


def t_board_cell_bool(ts, data):
    t_board(0)(ts, data)
    t_cell(1)(ts, data)
    return BOOL


def t_contents(ts, data):
    t_board(0)(ts, data)
    return CollT("pile", EnumT(data) if data else ANY)


def t_placements(ts, data):
    t_board(0)(ts, data)
    return CollT("set", CellT(_grid_of(ts[0])))


def t_placed(ts, data):
    t_board(0)(ts, data)
    t_cell(2)(ts, data)
    return ts[0]


def t_extends(ts, data):
    t_board(0)(ts, data)
    t_board(1)(ts, data)
    return BOOL


def t_within(ts, data):
    need(is_coll(ts[0]), f"expected a collection, found {ts[0]}", 0)
    need(is_coll(ts[1]), f"expected a collection, found {ts[1]}", 1)
    return BOOL


def t_first(ts, data):
    need(is_coll(ts[0]), f"first() needs a collection, found {ts[0]}", 0)
    return ts[0].elem if isinstance(ts[0], CollT) else ANY


def t_rowcol(ts, data):
    t_cell(0)(ts, data)
    return INT


def t_board_get(ts, data):
    t_board(0)(ts, data)
    t_cell(1)(ts, data)
    return EnumT(data) if data else ANY


def t_layer_get(ts, data):
    need(isinstance(ts[0], (LayerT, AnyT)), f"expected a layer, found {ts[0]}", 0)
    t_cell(1)(ts, data)
    return BOOL


def t_rel_apply(ts, data):
    t_cell(0)(ts, data)
    return CollT("set", ts[0] if isinstance(ts[0], CellT) else CellT(None))


def t_groups(ts, data):
    need(is_coll(ts[0]) and isinstance(getattr(ts[0], "elem", ANY), (CellT, AnyT)),
         f"groups() needs a set of cells, found {ts[0]}", 0)
    elem = ts[0].elem if isinstance(ts[0], CollT) else CellT(None)
    return CollT("list", CollT("set", elem))


def t_attr(ts, data):
    need(isinstance(ts[0], (EnumT, AnyT, NoneT)), f"expected a {data.enum}, found {ts[0]}", 0)
    return data.type


def t_seat_attr(ts, data):
    need(isinstance(ts[0], (SeatT, AnyT)), f"expected a seat, found {ts[0]}", 0)
    return EnumT("seat_kind") if data == "kind" else TextT()


def t_map_get(ts, data):
    mapping = data
    return mapping.value_type


def t_relation_build(ts, data):
    for i, t in enumerate(ts):
        need(isinstance(t, (TupleT, AnyT)) and (not isinstance(t, TupleT) or
                                                (len(t.items) == 2 and all(is_int(x) for x in t.items))),
             "expected a (row, column) step such as (-1, 0)", i)
    return RELATION


def t_rel_union(ts, data):
    need(ts[0] == RELATION, f"expected a relation, found {ts[0]}", 0)
    need(ts[1] == RELATION, f"expected a relation, found {ts[1]}", 1)
    return RELATION


def t_range(ts, data):
    t_int2(ts, data)
    return CollT("list", INT)


# ------------------------------------------------------------------ the table
op("add", 2, t_int2, "({0} + {1})", "sum of two numbers")
op("sub", 2, t_int2, "({0} - {1})", "difference")
op("mul", 2, t_int2, "({0} * {1})", "product")
op("floordiv", 2, t_int2, "({0} // {1})", "division rounded down")
op("mod", 2, t_int2, "({0} % {1})", "remainder")
op("neg", 1, t_int1, "(-{0})", "minus")
op("min2", 2, t_int2, "min({0}, {1})", "the smaller of two numbers")
op("max2", 2, t_int2, "max({0}, {1})", "the larger of two numbers")
op("abs", 1, t_int1, "abs({0})", "absolute value")
op("eq", 2, t_eq, "({0} == {1})", "equal")
op("ne", 2, t_eq, "({0} != {1})", "different")
op("multiset_eq", 2, t_eq, "_rt.multiset_eq({0}, {1})", "the same cards, whatever the order")
op("lt", 2, t_order, "({0} < {1})", "less than")
op("le", 2, t_order, "({0} <= {1})", "at most")
op("gt", 2, t_order, "({0} > {1})", "more than")
op("ge", 2, t_order, "({0} >= {1})", "at least")
op("and", 2, t_bool2, "({0} and {1})", "both")
op("or", 2, t_bool2, "({0} or {1})", "either")
op("not", 1, t_bool1, "(not {0})", "negation")
op("if", 3, t_if, "({1} if {0} else {2})", "conditional")
op("in", 2, t_in, "({0} in {1})", "membership")
op("not_in", 2, t_in, "({0} not in {1})", "non-membership")
op("concat", 2, t_concat, "(tuple({0}) + tuple({1}))", "one collection after the other")
op("range", 2, t_range, "tuple(range({0}, {1} + 1))", "the numbers from a to b")
op("size", 1, t_size, "len({0})", "number of elements")
op("within", 2, t_within, "_rt.within({0}, {1})", "every element of a, counted with multiplicity, is in b")
op("first", 1, t_first, "_rt.first({0})", "the first element")
op("take", 2, lambda ts, data: (t_size(ts[:1], data) and ts[0]), "tuple({0})[:{1}]", "the first n elements")
op("attr", 1, t_attr, "{D}.get({0})", "a table column")
op("seat_attr", 1, t_seat_attr, "getattr({0}, {D})", "a seat's kind or title")
op("map_get", 1, t_map_get, "{D}[{0}]", "a value from a table of values")
op("row", 1, t_rowcol, "{0}[0]", "a cell's row, from 0 at the top")
op("column", 1, t_rowcol, "{0}[1]", "a cell's column, from 0 at the left")
op("board_get", 2, t_board_get, "{0}.cards.get({1})", "the card on a cell (none if free)")
op("layer_get", 2, t_layer_get, "({1} in {0})", "whether a cell is marked on a layer")
op("occupied", 2, t_board_cell_bool, "({1} in {0}.cards)", "a card is on the cell")
op("free", 2, t_board_cell_bool, "({1} not in {0}.cards)", "no card on the cell")
op("empty", 1, t_board_bool, "(not {0}.cards)", "no card on the grid")
op("full", 1, t_board_bool, "(len({0}.cards) == {0}.rows * {0}.cols)", "every cell has a card")
op("contents", 1, t_contents, "_rt.contents({0})", "the cards on a grid, in reading order")
op("placements", 1, t_placements, "_rt.placements({0})", "free cells a card may go to within the frame")
op("placed", 3, t_placed, "_rt.placed({0}, {1}, {2})", "the grid with one more card")
op("extends", 2, t_extends, "_rt.extends({0}, {1})", "the second grid appears in the first")
op("rel_apply", 1, t_rel_apply, "{D}[{0}]", "the cells a relation reaches from a cell")
op("groups", 1, t_groups, "_rt.groups({0}, {D})", "connected groups of cells under a relation")
op("offsets", None, t_relation_build, "_rt.Relation(offsets=({*},))", "cells at fixed steps")
op("rays", None, t_relation_build, "_rt.Relation(rays=({*},))", "cells along repeated steps")
op("rel_union", 2, t_rel_union, "({0} + {1})", "cells reached by either relation")
op("make_tuple", None, lambda ts, data: data, "({*},)", "a tuple of values")
op("make_list", None, lambda ts, data: data, "({*},)", "a list of values")
op("make_set", None, lambda ts, data: data, "_rt.oset(({*},))", "a set of values")


# ------------------------------------------------------------ aggregates
@dataclass
class Aggregate:
    name: str
    typing: Callable[[Type], Type]
    py: str                    # template over {elem} and {fors}
    encode: Callable | None = None
    doc: str = ""

    def emit(self, elem: str, fors: str) -> str:
        return self.py.replace("{elem}", elem).replace("{fors}", fors)


AGGREGATES: dict[str, Aggregate] = {}


def agg(name, typing, py, doc):
    AGGREGATES[name] = Aggregate(name, typing, py, None, doc)


def ta_int(t):
    need(is_int(t), f"expected numbers, found {t}")
    return INT


def ta_bool(t):
    need(is_bool(t), f"expected true or false, found {t}")
    return BOOL


agg("sum", ta_int, "sum({elem} {fors})", "total")
agg("count", lambda t: INT, "sum(1 {fors})", "how many")
agg("any", ta_bool, "any({elem} {fors})", "at least one")
agg("all", ta_bool, "all({elem} {fors})", "every one")
agg("min", ta_int, "_rt.agg_min({elem} {fors})", "smallest (error when empty)")
agg("max", ta_int, "_rt.agg_max({elem} {fors})", "largest (error when empty)")
agg("distinct", lambda t: INT, "len(set({elem} {fors}))", "number of different values")
agg("list", lambda t: CollT("list", t), "tuple({elem} {fors})", "list comprehension")
agg("set", lambda t: CollT("set", t), "_rt.oset({elem} {fors})", "set comprehension")


# Surface names of built-in functions -> operator (by argument count).
BUILTIN_CALLS: dict[tuple[str, int | None], str] = {
    ("min", 2): "min2", ("max", 2): "max2", ("abs", 1): "abs", ("size", 1): "size",
    ("within", 2): "within", ("first", 1): "first", ("take", 2): "take", ("row", 1): "row", ("column", 1): "column",
    ("occupied", 2): "occupied", ("free", 2): "free", ("empty", 1): "empty", ("full", 1): "full",
    ("contents", 1): "contents", ("placements", 1): "placements", ("placed", 3): "placed",
    ("extends", 2): "extends", ("offsets", None): "offsets", ("rays", None): "rays",
}
# Built-ins the resolver handles itself (they need grid or relation data).
SPECIAL_CALLS = {"cells", "rows", "columns", "groups", "least", "most"}
