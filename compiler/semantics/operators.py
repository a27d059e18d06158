"""The operators of the expression language, each defined once: its meaning.

In:  operand types (for the resolver), operand code (for the interpreter).
Out: for every operator and aggregate, by name:

  * ``typing``: its signature (argument types -> result type);
  * ``py``: its concrete meaning, a Python expression template over the
    operands' code (``{0}``, ``{1}``, ``{*}`` for all, ``{D}`` for the
    operator's constant data, ``{S}`` for its place); ``evaluate`` is derived
    from it;
  * ``constant_only``: an operator the CP-SAT encoder folds when its operands are
    known and refuses otherwise. Every other operator has its CP-SAT encoding,
    keyed by the same name, in ``solver.encode.operators``; ``tests/semantics/test_operators.py``
    checks that each one has both and that they agree.

The compiler (resolver, interpreter, docs) reads this table; the solver adds the
encodings on top of it. Nothing here imports the solver.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable

from rulewright.compiler.semantics import render as _show
from rulewright.compiler.semantics import runtime as _rt
from rulewright.compiler.types import (ANY, BOOL, INT, RELATION, SEAT, AnyT, BoardT, CellT, CollT, EnumT,
                            LayerT, MapT, NoneT, RecordT, SeatT, TupleT, Type, TextT, is_bool,
                            is_cell, is_coll, is_int, same)
from rulewright.compiler.types import TEXT, ScoreT, join
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
    doc: str = ""
    constant_only: bool = False       # no CP-SAT encoding: folded on known operands only

    def emit(self, args: list[str], data_name: str | None = None, span_name: str | None = None) -> str:
        """The ``py`` template filled in: ``{0}``... the operands, ``{*}`` all of them,
        ``{D}`` the node's data, ``{S}`` its place in the spec (for the run-time error
        of an operator that can fail: None where there is none to give)."""
        fill = {"*": ", ".join(args), "S": span_name or "None"}
        if data_name is not None:
            fill["D"] = data_name
        fill.update((str(i), a) for i, a in enumerate(args))
        return fill_template(self.py, fill)

    def evaluate(self, *args, data=None):
        """Concrete value of the operator on concrete operands (from ``py``)."""
        fn = _CACHE.get((self.name, len(args)))
        if fn is None:
            names = [f"_a{i}" for i in range(len(args))]
            src = f"lambda _D, {', '.join(names)}: {self.emit(names, '_D')}" if names else \
                f"lambda _D: {self.emit([], '_D')}"
            fn = eval(src, {"_rt": _rt, "_show": _show})  # noqa: S307 - our own templates
            _CACHE[(self.name, len(args))] = fn
        return fn(data, *args)


_CACHE: dict = {}

_PLACE = re.compile(r"\{(\*|[0-9]+|[A-Za-z]+)\}")


def fill_template(template: str, fill: dict[str, str]) -> str:
    """A template's places (``{0}``, ``{*}``, ``{D}``, ``{elem}``...) filled in one pass
    over the template alone: what is put in a place is never read again, so code of
    an operand (whatever it holds) cannot become a place of the template. A place
    with nothing to put in it is left as it is (a template's own braces: ``{}``)."""
    return _PLACE.sub(lambda m: fill.get(m.group(1), m.group(0)), template)


OPERATORS: dict[str, Operator] = {}


def op(name, arity, typing, py, doc="", constant_only=False):
    OPERATORS[name] = Operator(name, arity, typing, py, doc, constant_only)


def need(cond: bool, message: str, arg: int | None = None):
    if not cond:
        raise OpTypeError(message, arg)


# ------------------------------------------------------------------ typing
def _every(check, what: str, result):
    """The typing of an operator whose operands are all of one kind (numbers, truth
    values): each operand checked, the error at the first one of another kind."""
    def typing(ts, data):
        for i, t in enumerate(ts):
            need(check(t), f"expected {what}, found {t}", i)
        return result
    return typing


t_int2 = t_int1 = _every(is_int, "a number", INT)
t_bool2 = t_bool1 = _every(is_bool, "true or false", BOOL)


def t_eq(ts, data):
    need(same(ts[0], ts[1]), f"cannot compare {ts[0]} with {ts[1]}", 1)
    return BOOL


def t_order(ts, data):
    if isinstance(ts[0], TupleT) or isinstance(ts[1], TupleT):
        need(isinstance(ts[0], (TupleT, AnyT)) and isinstance(ts[1], (TupleT, AnyT)),
             f"cannot compare {ts[0]} with {ts[1]}", 1)
        if isinstance(ts[0], TupleT) and isinstance(ts[1], TupleT):
            need(len(ts[0].items) == len(ts[1].items), f"cannot compare {ts[0]} with {ts[1]}", 1)
            for i, (a, b) in enumerate(zip(ts[0].items, ts[1].items)):
                need(is_int(a) and is_int(b), f"tuples are compared by their numbers, found {ts[0]}", 0)
        return BOOL
    return t_int2(ts, data) and BOOL


def t_if(ts, data):
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
        need(is_cell(ts[i]), f"expected a cell, found {ts[i]}", i)
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


def t_cleared(ts, data):
    t_board(0)(ts, data)
    t_cell(1)(ts, data)
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
    return CollT("set", ts[0] if isinstance(ts[0], CellT) else CellT(data.grid.name if data else None))


def t_groups(ts, data):
    need(is_coll(ts[0]) and is_cell(getattr(ts[0], "elem", ANY)),
         f"groups() needs a set of cells, found {ts[0]}", 0)
    elem = ts[0].elem if isinstance(ts[0], CollT) and isinstance(ts[0].elem, CellT) else \
        CellT(data.grid.name if data else None)
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
    def a_step(t) -> bool:
        return isinstance(t, AnyT) or (isinstance(t, TupleT) and len(t.items) == 2
                                       and all(is_int(x) for x in t.items))
    for i, t in enumerate(ts):
        # steps written out, (-1, 0), or computed: a collection of them
        need(a_step(t) or (isinstance(t, CollT) and a_step(t.elem)),
             "expected a (row, column) step such as (-1, 0), or a collection of steps "
             "([(r, c) for r in -2..2 for c in -2..2 if ...])", i)
    return RELATION


def t_rel_union(ts, data):
    need(ts[0] == RELATION, f"expected a relation, found {ts[0]}", 0)
    need(ts[1] == RELATION, f"expected a relation, found {ts[1]}", 1)
    return RELATION


def t_range(ts, data):
    t_int2(ts, data)
    return CollT("list", INT)


op("add", 2, t_int2, "({0} + {1})", "sum of two numbers")

op("sub", 2, t_int2, "({0} - {1})", "difference")

op("mul", 2, t_int2, "({0} * {1})", "product")


op("floordiv", 2, t_int2, "_rt.floordiv({0}, {1}, {S})", "division rounded down (a query leaves out the options that divide by 0)")

op("mod", 2, t_int2, "_rt.mod({0}, {1}, {S})", "remainder, of the divisor's sign")

op("neg", 1, t_int1, "(-{0})", "minus")

op("min2", 2, t_int2, "min({0}, {1})", "the smaller of two numbers")

op("max2", 2, t_int2, "max({0}, {1})", "the larger of two numbers")

op("abs", 1, t_int1, "abs({0})", "absolute value")


op("eq", 2, t_eq, "({0} == {1})", "equal")

op("ne", 2, t_eq, "({0} != {1})", "different")


op("multiset_eq", 2, t_eq, "_rt.multiset_eq({0}, {1})", "the same cards, whatever the order")

op("same", 2, t_eq, "_rt.same({0}, {1}, {D})", "equal, each set held inside by its members (and piles at the top in any order)")

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

op("same_in", 2, t_in, "_rt.same_in({0}, {1}, {D})", "membership where the elements hold sets or piles (compared as 'same' compares)")


op("concat", 2, t_concat, "(tuple({0}) + tuple({1}))", "one collection after the other")

op("range", 2, t_range, "_rt.numbers({0}, {1}, {S})", "the numbers from a to b")


op("size", 1, t_size, "len({0})", "number of elements")


op("within", 2, t_within, "_rt.within({0}, {1})", "every element of a, counted with multiplicity, is in b")


op("first", 1, t_first, "_rt.first({0}, {S})", "the first element")

op("take", 2, lambda ts, data: (t_size(ts[:1], data) and ts[0]), "_rt.take_first({0}, {1}, {S})", "the first n elements", constant_only=True)


op("attr", 1, t_attr, "{D}.get({0})", "a table column")

def t_step_points(ts, data):
    need(isinstance(ts[0], (ScoreT, AnyT)), f"expected a score, found {ts[0]}", 0)
    return INT


op("step_points", 1, t_step_points, "_rt.step_points({0}, {D})", "the points one step of a score gave")

op("seat_attr", 1, t_seat_attr, "getattr({0}, {D})", "a seat's kind or title", constant_only=True)


op("map_get", 1, t_map_get, "{D}[{0}]", "a value from a table of values")

op("row", 1, t_rowcol, "{0}[0]", "a cell's row, from 0 at the top", constant_only=True)

op("column", 1, t_rowcol, "{0}[1]", "a cell's column, from 0 at the left", constant_only=True)


op("board_get", 2, t_board_get, "{0}.cards.get({1})", "the card on a cell (none if free)")


op("layer_get", 2, t_layer_get, "({1} in {0})", "whether a cell is marked on a layer")


op("occupied", 2, t_board_cell_bool, "({1} in {0}.cards)", "a card is on the cell")

op("free", 2, t_board_cell_bool, "({1} not in {0}.cards)", "no card on the cell")

op("empty", 1, t_board_bool, "(not {0}.cards)", "no card on the grid")

op("full", 1, t_board_bool, "(len({0}.cards) == {0}.rows * {0}.cols)", "every cell has a card")


op("contents", 1, t_contents, "_rt.contents({0})", "the cards on a grid, in reading order")

op("placements", 1, t_placements, "_rt.placements({0})", "free cells a card may go to within the frame", constant_only=True)

op("placed", 3, t_placed, "_rt.placed({0}, {1}, {2})", "the grid with one more card", constant_only=True)

op("exchanged", 3, t_placed, "_rt.exchanged({0}, {1}, {2})", "the grid with another card on a taken cell", constant_only=True)

op("cleared", 2, t_cleared, "_rt.cleared({0}, {1})", "the grid without the card on a cell", constant_only=True)


op("extends", 2, t_extends, "_rt.extends({0}, {1})", "the second grid appears in the first")


op("rel_apply", 1, t_rel_apply, "{D}[{0}]", "the cells a relation reaches from a cell")


op("groups", 1, t_groups, "_rt.groups({0}, {D})", "connected groups of cells under a relation")

op("offsets", None, t_relation_build, "_rt.relation_of('offsets', {*})", "cells at fixed steps", constant_only=True)

op("rays", None, t_relation_build, "_rt.relation_of('rays', {*})", "cells along repeated steps", constant_only=True)

op("rel_union", 2, t_rel_union, "({0} + {1})", "cells reached by either relation", constant_only=True)


op("make_tuple", None, lambda ts, data: data, "({*},)", "a tuple of values")

op("make_list", None, lambda ts, data: data, "({*},)", "a list of values")

op("make_set", None, lambda ts, data: data, "_rt.oset(({*},))", "a set of values", constant_only=True)


def t_field(ts, data):
    need(isinstance(ts[0], (RecordT, AnyT)), f"expected a record, found {ts[0]}", 0)
    return data.type


def t_with(ts, data):
    need(isinstance(ts[0], (RecordT, AnyT)), f"expected a record, found {ts[0]}", 0)
    return ts[0]


def t_dict_get(ts, data):
    need(isinstance(ts[0], (MapT, AnyT)), f"expected a table, found {ts[0]}", 0)
    return ts[0].value if isinstance(ts[0], MapT) else ANY


def t_minus(ts, data):
    need(is_coll(ts[0]) and is_coll(ts[1]), f"'-' takes two collections here, found {ts[0]} and {ts[1]}", 1)
    return ts[0]


def t_group_rank(ts, data):
    need(is_coll(ts[1]), f"rank() takes an element and ranked groups, found {ts[1]}", 1)
    return INT


def t_seats_from(ts, data):
    need(isinstance(ts[0], (SeatT, AnyT)), f"expected a seat, found {ts[0]}", 0)
    need(ts[1] == EnumT("direction") or isinstance(ts[1], AnyT), f"expected left or right, found {ts[1]}", 1)
    return CollT("list", SEAT)


def t_next_seat(ts, data):
    t_seats_from(ts, data)
    return SEAT


op("field", 1, t_field, "getattr({0}, {D})", "a field of a record")

op("new_record", None, lambda ts, data: RecordT(data.rw_name), "{D}({*})", "a new record")

op("with", None, t_with, "_rt.with_fields({D}, {*})", "a record with some fields changed")

op("tuple_get", 2, lambda ts, data: data, "{0}[{1}]", "an element of a tuple (counted from 0)")

op("subsets", 1, lambda ts, data: (t_size(ts, data) and CollT("list", ts[0])), "_rt.subsets_of({0})", "every distinct sub-collection, with multiplicity", constant_only=True)


def t_subsets_at_most(ts, data):
    need(is_int(ts[1]), f"expected a number of elements, found {ts[1]}", 1)
    t_size(ts[:1], data)
    return CollT("list", ts[0])


op("subsets_at_most", 2, t_subsets_at_most, "_rt.subsets_of({0}, {1})", "subsets(C, n): the distinct sub-collections of at most n elements, in the order subsets(C) lists them", constant_only=True)

op("sort", 1, lambda ts, data: (t_size(ts, data) and ts[0]), "_rt.sort_values({0})", "the elements in a fixed order (by name)", constant_only=True)


op("dict_get", 2, t_dict_get, "{0}.get({1}, 0)", "a value of a computed table (0 when absent)")

op("minus", 2, t_minus, "_rt.minus({0}, {1})", "a collection without the elements of another (with multiplicity)", constant_only=True)

op("group_rank", 2, t_group_rank, "_rt.group_rank({0}, {1})", "the 1-based place of the group holding an element (0 when absent)", constant_only=True)

def t_join(ts, data):
    need(is_coll(ts[0]), f"join() takes a collection, found {ts[0]}", 0)
    need(isinstance(ts[1], (TextT, AnyT)), f"join() takes a separator text, found {ts[1]}", 1)
    return TEXT


def t_text_concat(ts, data):
    return TEXT


op("text_concat", 2, t_text_concat, "(_show.join_text(({0},), '') + _show.join_text(({1},), ''))", "a text followed by a value as words (for messages)", constant_only=True)

op("join", 2, t_join, "_show.join_text({0}, {1})", "the elements as words joined by a separator (a text, for messages)", constant_only=True)

op("seats_from", 2, t_seats_from, "_rt.seats_from(ST.seats, {0}, {1})", "every seat in turn from one seat, to the left (clockwise) or to the right", constant_only=True)

op("next_seat", 2, t_next_seat, "_rt.next_seat(ST.seats, {0}, {1})", "the next seat to the left or right", constant_only=True)


# ------------------------------------------------------------ aggregates
@dataclass
class Aggregate:
    name: str
    typing: Callable[[Type], Type]
    py: str                    # template over {elem} and {fors}
    doc: str = ""
    constant_only: bool = False

    def emit(self, elem: str, fors: str, key: str = "", supply: str = "", var: str = "",
             span_name: str | None = None) -> str:
        return fill_template(self.py, {"elem": elem, "fors": fors, "key": key, "supply": supply, "var": var,
                                       "S": span_name or "None"})


AGGREGATES: dict[str, Aggregate] = {}


def agg(name, typing, py, doc, constant_only=False):
    AGGREGATES[name] = Aggregate(name, typing, py, doc, constant_only)


def ta_int(t):
    need(is_int(t), f"expected numbers, found {t}")
    return INT


def ta_bool(t):
    need(is_bool(t), f"expected true or false, found {t}")
    return BOOL


# Aggregate encodings receive (E, node, items) where items are (guard, element):
# the element counts only when its guard literal holds.
agg("sum", ta_int, "sum([{elem} {fors}])", "total")


agg("count", lambda t: INT, "len([1 {fors}])", "how many")

agg("any", ta_bool, "any({elem} {fors})", "at least one")

agg("all", ta_bool, "all({elem} {fors})", "every one")


agg("min", ta_int, "_rt.agg_min(({elem} {fors}), {S})", "smallest (error when empty)")

agg("max", ta_int, "_rt.agg_max(({elem} {fors}), {S})", "largest (error when empty)")


agg("distinct", lambda t: INT, "len({{elem} {fors}})", "number of different values")


agg("ranked", lambda t: CollT("list", CollT("list", t)), "_rt.ranked([({key}, {elem}) {fors}])", "the elements in groups of equal keys, the largest key first", constant_only=True)

agg("sorted", lambda t: CollT("list", t), "_rt.sorted_by([({key}, {elem}) {fors}])", "the elements by key, the largest first (ties keep their order)", constant_only=True)


agg("allocate", lambda t: MapT(t, INT), "_rt.allocate({supply}, [({key}, {var}, {elem}) {fors}], True)", "a supply served to claimants by key, the largest first; ties are served together when the "
    "supply covers them all, else they share what is left; after the first claimant short of its "
    "need nobody else is served (a supply or a need below 0 counts as 0)")

agg("allocate_skipping", lambda t: MapT(t, INT), "_rt.allocate({supply}, [({key}, {var}, {elem}) {fors}], False)", "like allocate, but claimants the rest of the supply cannot cover are skipped and the next ones "
    "are still served")

agg("allocate_even", lambda t: MapT(t, INT), "_rt.allocate({supply}, [({key}, {var}, {elem}) {fors}], True, True)", "like allocate, but claimants tied when the supply runs short split what is left evenly")

agg("allocate_skipping_even", lambda t: MapT(t, INT), "_rt.allocate({supply}, [({key}, {var}, {elem}) {fors}], False, True)", "like allocate_skipping, but claimants tied when the supply runs short split what is left "
    "evenly: each whose even share covers its need is served, the others are skipped, and the next ones are "
    "still served")

agg("list", lambda t: CollT("list", t), "tuple({elem} {fors})", "list comprehension")

agg("set", lambda t: CollT("set", t), "_rt.oset({elem} {fors})", "set comprehension")


# Grid operators whose results depend on where the cards lie (not folded into
# constants while resolving; not invariant under the grid's symmetries).
GRID_POSITIONS = frozenset({"placements", "placed", "exchanged", "cleared", "extends"})

# Surface names of built-in functions -> operator (by argument count).
BUILTIN_CALLS: dict[tuple[str, int | None], str] = {
    ("min", 2): "min2", ("max", 2): "max2", ("abs", 1): "abs", ("size", 1): "size",
    ("within", 2): "within", ("first", 1): "first", ("take", 2): "take", ("row", 1): "row",
    ("column", 1): "column", ("occupied", 2): "occupied", ("free", 2): "free", ("empty", 1): "empty",
    ("full", 1): "full", ("contents", 1): "contents", ("placements", 1): "placements",
    ("placed", 3): "placed", ("exchanged", 3): "exchanged", ("cleared", 2): "cleared",
    ("extends", 2): "extends", ("offsets", None): "offsets",
    ("rays", None): "rays", ("rank", 2): "group_rank", ("seats_from", 2): "seats_from",
    ("subsets", 1): "subsets", ("subsets", 2): "subsets_at_most", ("sort", 1): "sort",
    ("next_seat", 2): "next_seat", ("join", 2): "join",
}
