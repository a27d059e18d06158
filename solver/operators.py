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

import re
from dataclasses import dataclass
from typing import Any, Callable

from compiler import runtime as _rt
from compiler.types import (ANY, BOOL, INT, RELATION, SEAT, AnyT, BoardT, BoolT, CellT, CollT, EnumT,
                            IntT, LayerT, MapT, NoneT, RecordT, SeatT, TupleT, Type, TextT, is_bool,
                            is_cell, is_coll, is_int, same)


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
            fn = eval(src, {"_rt": _rt})  # noqa: S307 - our own templates
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


def op(name, arity, typing, py, doc="", encode=None):
    OPERATORS[name] = Operator(name, arity, typing, py, encode, doc)


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
# Each entry: name, arity, typing, concrete meaning (py), doc, CP-SAT encoding.
# Encodings receive the encoder ``E`` (helpers in ``solver.encode``), the node
# (for its span and data) and the operand values, at least one of them symbolic.
from .symbolic import (BoardV, BoolV, CaseV, CountsV, EnumV, GroupsV, IntV, LayerV, ListV,  # noqa: E402
                       MapV, RecordV, SetV, Sym)
from compiler.diagnostics import NotSupportedError  # noqa: E402


def _lin(sign):
    return lambda E, n, a, b: E.linear([(1, a), (sign, b)])


op("add", 2, t_int2, "({0} + {1})", "sum of two numbers", _lin(1))
op("sub", 2, t_int2, "({0} - {1})", "difference", _lin(-1))
op("mul", 2, t_int2, "({0} * {1})", "product", lambda E, n, a, b: E.mul(a, b, n.span))


def _nonlinear(what):
    def enc(E, n, *args):
        raise NotSupportedError(f"the solver cannot take the {what} of a value that depends on a choice",
                                n.span)
    return enc


op("floordiv", 2, t_int2, "_rt.floordiv({0}, {1}, {S})", "division rounded down (a query leaves out the options that divide by 0)",
   lambda E, n, a, b: E.floor_divmod(a, b, n.span)[0])
op("mod", 2, t_int2, "_rt.mod({0}, {1}, {S})", "remainder, of the divisor's sign",
   lambda E, n, a, b: E.floor_divmod(a, b, n.span)[1])
op("neg", 1, t_int1, "(-{0})", "minus", lambda E, n, a: E.linear([(-1, a)]))
op("min2", 2, t_int2, "min({0}, {1})", "the smaller of two numbers",
   lambda E, n, a, b: E.minmax("min", [a, b], n.span))
op("max2", 2, t_int2, "max({0}, {1})", "the larger of two numbers",
   lambda E, n, a, b: E.minmax("max", [a, b], n.span))
op("abs", 1, t_int1, "abs({0})", "absolute value",
   lambda E, n, a: E.minmax("max", [a, E.linear([(-1, a)])], n.span))


def enc_eq(E, n, a, b):
    """Equality of numbers (linear), of enum values (one literal per value) or of sets."""
    if isinstance(a, CaseV) or isinstance(b, CaseV):
        # one of several values a choice selects: compared alternative by alternative
        if not isinstance(a, CaseV):
            a, b = b, a
        return E.case_map(a, lambda x: enc_eq(E, n, x, b) if isinstance(x, Sym) or isinstance(b, Sym)
                          else x == b, n.span)
    if isinstance(b, EnumV) and not isinstance(a, EnumV):
        a, b = b, a
    if isinstance(a, EnumV):
        if isinstance(b, EnumV):
            return E.boolv(E.or_([E.and_([la, b.lits[v]]) for v, la in a.lits.items() if v in b.lits]))
        return E.boolv(a.lits.get(b, False))
    if isinstance(a, SetV) or isinstance(b, SetV):
        return E.boolv(_set_eq(E, a, b))
    if isinstance(a, RecordV) or isinstance(b, RecordV):
        return E.boolv(_record_eq(E, n, a, b))
    if _guarded_list(a) or _guarded_list(b):
        return E.boolv(_chosen_list_eq(E, n, a, b))
    if _is_tuple(a) or _is_tuple(b):
        return E.boolv(E.lex(_tuple_items(a, n), "==", _tuple_items(b, n), n.span))
    if isinstance(a, (BoolV, bool)) and isinstance(b, (BoolV, bool)):
        la, lb = E.lit(a), E.lit(b)
        return E.boolv(E.or_([E.and_([la, lb]), E.and_([E.not_(la), E.not_(lb)])]))
    return E.boolv(E.cmp(a, "==", b, n.span))


def _set_eq(E, a, b):
    ma = a.members if isinstance(a, SetV) else {x: True for x in a}
    mb = b.members if isinstance(b, SetV) else {x: True for x in b}
    parts = []
    for x in set(ma) | set(mb):
        la, lb = ma.get(x, False), mb.get(x, False)
        parts.append(E.or_([E.and_([la, lb]), E.and_([E.not_(la), E.not_(lb)])]))
    return E.and_(parts)


def enc_ne(E, n, a, b):
    return E.boolv(E.not_(E.lit(enc_eq(E, n, a, b))))


def _guarded_list(v) -> bool:
    """A list whose elements are chosen (some element's presence depends on a choice)."""
    return isinstance(v, ListV) and any(g is not True for g, _ in v.items)


def _chosen_list_eq(E, n, a, b):
    """A list whose elements are chosen equal to a list whose elements are not: the
    chosen elements, in order, are the other list's. ``at[j]``: the items walked so far
    keep exactly the first j elements of the other list."""
    if not _guarded_list(a):
        a, b = b, a
    if _guarded_list(b) or not _is_tuple(b):
        raise NotSupportedError("the solver cannot compare two lists whose elements both depend on "
                                "a choice", n.span)
    other = _tuple_items(b, n)
    at = [True] + [False] * len(other)
    for g, x in a.items:
        nxt = [E.and_([E.not_(g), at[0]])]
        for j, y in enumerate(other, 1):
            same = E.lit(enc_eq(E, n, x, y)) if isinstance(x, Sym) or isinstance(y, Sym) else x == y
            nxt.append(E.or_([E.and_([E.not_(g), at[j]]), E.and_([g, same, at[j - 1]])]))
        at = nxt
    return at[-1]


def _is_tuple(v) -> bool:
    return (isinstance(v, tuple) and not hasattr(v, "rw_fields")) or \
        (isinstance(v, ListV) and all(g is True for g, _ in v.items))


def _tuple_items(v, n) -> list:
    if isinstance(v, ListV):
        return [x for _, x in v.items]
    if isinstance(v, tuple):
        return list(v)
    raise NotSupportedError("the solver compares tuples with tuples only", n.span)


def _record_eq(E, n, a, b):
    """Records are equal when every field is: compared field by field."""
    fa = a.fields if isinstance(a, RecordV) else _known_fields(a)
    fb = b.fields if isinstance(b, RecordV) else _known_fields(b)
    if a is b:
        return True
    parts = []
    for name, va in fa.items():
        vb = fb.get(name)
        if not isinstance(va, Sym) and not isinstance(vb, Sym):
            if va != vb:
                return False
            continue
        if isinstance(va, (ListV, SetV)) or isinstance(vb, (ListV, SetV)):
            parts.append(E.lit(enc_multiset_eq(E, n, va, vb)))
        else:
            parts.append(E.lit(enc_eq(E, n, va, vb)))
    return E.and_(parts)


def _known_fields(rec) -> dict:
    return {f: getattr(rec, "f_" + f) for f in rec.rw_fields}


def _cmp(opname):
    def enc(E, n, a, b):
        if _guarded_list(a) or _guarded_list(b):
            raise NotSupportedError(f"the solver cannot order ({opname}) a list whose elements depend on "
                                    f"a choice", n.span)
        if _is_tuple(a) or _is_tuple(b):
            return E.boolv(E.lex(_tuple_items(a, n), opname, _tuple_items(b, n), n.span))
        return E.boolv(E.cmp(a, opname, b, n.span))
    return enc


op("eq", 2, t_eq, "({0} == {1})", "equal", enc_eq)
op("ne", 2, t_eq, "({0} != {1})", "different", enc_ne)


def _list_counts(E, v) -> dict:
    """value -> count (int or IntV) of a guarded list of known values."""
    out: dict = {}
    for g, x in v.items:
        if isinstance(x, Sym):
            return None
        out.setdefault(x, []).append((1, E.boolv(g)))
    return {x: E.linear(parts) for x, parts in out.items()}


def _known_counts(v) -> dict:
    out: dict = {}
    for x in _rt.as_tuple(v):
        out[x] = out.get(x, 0) + 1
    return out


def _counts_of(E, v):
    if isinstance(v, ListV):
        return _list_counts(E, v)
    if isinstance(v, SetV):
        return {x: E.intv(E.boolv(l)) if not isinstance(l, bool) else int(l) for x, l in v.members.items()}
    if isinstance(v, CountsV):
        return dict(v.counts)
    if isinstance(v, Sym):
        return None
    return _known_counts(v)


def enc_multiset_eq(E, n, a, b):
    if isinstance(a, (ListV, SetV)) or isinstance(b, (ListV, SetV)):
        ca, cb = _counts_of(E, a), _counts_of(E, b)
        if ca is None or cb is None:
            raise NotSupportedError("the solver compares collections of known values only", n.span)
        return E.boolv(E.and_([E.cmp(ca.get(x, 0), "==", cb.get(x, 0)) for x in set(ca) | set(cb)]))
    if isinstance(b, CountsV) and not isinstance(a, CountsV):
        a, b = b, a
    if not isinstance(a, CountsV) or isinstance(b, Sym):
        raise NotSupportedError("the solver compares the cards of a grid with a known list only", n.span)
    want: dict = {}
    for x in b:
        want[x] = want.get(x, 0) + 1
    parts = [E.cmp(cnt, "==", want.get(v, 0)) for v, cnt in a.counts.items()]
    if any(v not in a.counts for v in want):
        return False
    return E.boolv(E.and_(parts))


op("multiset_eq", 2, t_eq, "_rt.multiset_eq({0}, {1})", "the same cards, whatever the order", enc_multiset_eq)
op("lt", 2, t_order, "({0} < {1})", "less than", _cmp("<"))
op("le", 2, t_order, "({0} <= {1})", "at most", _cmp("<="))
op("gt", 2, t_order, "({0} > {1})", "more than", _cmp(">"))
op("ge", 2, t_order, "({0} >= {1})", "at least", _cmp(">="))
op("and", 2, t_bool2, "({0} and {1})", "both",
   lambda E, n, a, b: E.boolv(E.and_([E.lit(a, n.span), E.lit(b, n.span)])))
op("or", 2, t_bool2, "({0} or {1})", "either",
   lambda E, n, a, b: E.boolv(E.or_([E.lit(a, n.span), E.lit(b, n.span)])))
op("not", 1, t_bool1, "(not {0})", "negation", lambda E, n, a: E.boolv(E.not_(E.lit(a, n.span))))


def enc_if(E, n, c, t, o):
    c = E.lit(c, n.span)
    if isinstance(c, bool):
        return t if c else o
    return E.merge_cases([(c, t), (E.not_(c), o)], n.span)


op("if", 3, t_if, "({1} if {0} else {2})", "conditional", enc_if)


def enc_in(E, n, x, coll):
    if isinstance(coll, SetV):
        if isinstance(x, Sym):
            raise NotSupportedError("the solver checks a known element against a set", n.span)
        return E.boolv(coll.members.get(x, False))
    if isinstance(coll, ListV):
        parts = []
        for g, v in coll.items:
            if g is False:
                continue
            if isinstance(v, Sym) or isinstance(x, Sym):
                parts.append(E.and_([g, E.lit(enc_eq(E, n, x, v))]))
            elif v == x:
                parts.append(g)
        return E.boolv(E.or_(parts))
    if isinstance(coll, Sym):
        raise NotSupportedError("the solver cannot test membership in this collection", n.span)
    values = set(_rt.as_tuple(coll))
    if isinstance(x, EnumV):
        return E.boolv(E.or_([lit for v, lit in x.lits.items() if v in values]))
    if isinstance(x, CaseV):
        return E.boolv(E.or_([lit for lit, v in x.cases if v in values]))
    return E.boolv(E.or_([E.cmp(x, "==", v) for v in values]))


op("in", 2, t_in, "({0} in {1})", "membership", enc_in)
op("not_in", 2, t_in, "({0} not in {1})", "non-membership",
   lambda E, n, x, c: E.boolv(E.not_(E.lit(enc_in(E, n, x, c)))))


def enc_concat(E, n, a, b):
    def items(v):
        if isinstance(v, ListV):
            return list(v.items)
        if isinstance(v, Sym):
            raise NotSupportedError("the solver joins lists of known length only", n.span)
        return [(True, x) for x in _rt.as_tuple(v)]
    return ListV(items(a) + items(b))


op("concat", 2, t_concat, "(tuple({0}) + tuple({1}))", "one collection after the other", enc_concat)
op("range", 2, t_range, "_rt.numbers({0}, {1}, {S})", "the numbers from a to b", _nonlinear("range"))


def enc_size(E, n, coll):
    if isinstance(coll, SetV):
        return E.linear([(1, E.boolv(l)) for l in coll.members.values()])
    if isinstance(coll, ListV):
        return E.linear([(1, E.boolv(g)) for g, _ in coll.items])
    if isinstance(coll, CountsV):
        return E.linear([(1, c) for c in coll.counts.values()])
    raise NotSupportedError("the solver cannot count this collection", n.span)


op("size", 1, t_size, "len({0})", "number of elements", enc_size)


def enc_within(E, n, a, b):
    if isinstance(a, (ListV, SetV)) and not isinstance(b, Sym):
        ca, have = _counts_of(E, a), _known_counts(b)
        if ca is None:
            raise NotSupportedError("the solver checks collections of known values only", n.span)
        return E.boolv(E.and_([E.cmp(cnt, "<=", have.get(v, 0)) for v, cnt in ca.items()]))
    if not isinstance(a, CountsV) or isinstance(b, Sym):
        raise NotSupportedError("the solver checks the cards of a grid against a known list only", n.span)
    have: dict = {}
    for x in _rt.as_tuple(b):
        have[x] = have.get(x, 0) + 1
    return E.boolv(E.and_([E.cmp(cnt, "<=", have.get(v, 0)) for v, cnt in a.counts.items()]))


op("within", 2, t_within, "_rt.within({0}, {1})",
   "every element of a, counted with multiplicity, is in b", enc_within)
def enc_first(E, n, coll):
    """The first present item of a guarded list: item i when its guard holds and no
    earlier guard does (a case split over the items)."""
    if not isinstance(coll, ListV):
        raise NotSupportedError("the solver takes the first element of a list only", n.span)
    cases = []
    earlier = []
    for g, v in coll.items:
        if g is False:
            continue
        lit = E.and_([g] + [E.not_(x) for x in earlier])
        if lit is not False:
            cases.append((lit, v))
        earlier.append(g)
        if g is True:
            break
    if not cases:
        raise NotSupportedError("first() of a list that is always empty", n.span)
    if len(cases) == 1 and cases[0][0] is True:
        return cases[0][1]
    if any(c is True for c, _ in cases):
        return CaseV(cases)
    # No item present: the interpreter stops with an error there, so no option may
    # reach this expression with the list empty (as for a division by 0).
    none = E.and_([E.not_(g) for g, _ in coll.items if g is not False])
    E.never_reached_with(none, n.span, "takes first() of an empty collection")
    return CaseV(cases)


op("first", 1, t_first, "_rt.first({0}, {S})", "the first element", enc_first)
op("take", 2, lambda ts, data: (t_size(ts[:1], data) and ts[0]), "_rt.take_first({0}, {1}, {S})", "the first n elements")


def enc_attr(E, n, x):
    """A table column of a symbolic enum value: an enum over the column's values, or a number."""
    mapping = n.data.mapping
    if isinstance(x, CaseV):
        return E.case_map(x, lambda v: mapping.get(v), n.span)
    groups: dict = {}
    for v, lit in x.lits.items():
        groups.setdefault(mapping.get(v), []).append(lit)
    if all(isinstance(k, int) and not isinstance(k, bool) or k is None for k in groups):
        return E.linear([(k or 0, E.boolv(E.or_(ls))) for k, ls in groups.items()])
    return EnumV({k: E.or_(ls, f"{n.data}={k}") for k, ls in groups.items()})


op("attr", 1, t_attr, "{D}.get({0})", "a table column", enc_attr)
op("seat_attr", 1, t_seat_attr, "getattr({0}, {D})", "a seat's kind or title")


def enc_map_get(E, n, k):
    """A table of values at a symbolic key, as thresholds: f(lo) plus, for each k,
    (f(k) - f(k-1)) when key >= k. When the value only matters under a guard that
    the key counts (a group's size counts its own root), the key's lower bound under
    that guard is used, and value <= alpha * key is offered to the gate."""
    mv = n.data
    k = E.intv(k, n.span)
    if isinstance(k, int):
        return mv[k]
    lo, hi = k.lb, k.ub
    guard = None
    if all(coef > 0 for _, coef in k.terms.values()) and \
            all(E.var_bounds(var) and E.var_bounds(var)[0] >= 0 for var, _ in k.terms.values()):
        for g in reversed(E.guards):
            if not isinstance(g, bool) and E.key(g) in k.terms:
                guard = g
                lo = max(lo, k.const + k.terms[E.key(g)][1])
                E.relied.append(g)        # the value below is right only where g holds
                break

    def f(x):
        if x in mv.mapping:
            return mv.mapping[x]
        if mv.has_default:
            return mv.default
        return None

    top = max([x for x in mv.mapping if isinstance(x, int)] + [lo]) + 1
    hi_eff = min(hi, top)
    if any(f(x) is None for x in range(lo, hi_eff + 1)):
        allowed = [x for x in range(lo, hi + 1) if f(x) is not None]
        if not allowed:
            raise NotSupportedError("no entry of this table of values can be reached", n.span)
        # where the lookup is reached (the interpreter looks the key up there only)
        holes = [E.cmp(k, "!=", x) for x in range(min(allowed), max(allowed) + 1) if f(x) is None]
        E.holds_where_reached(E.and_([E.cmp(k, ">=", min(allowed)), E.cmp(k, "<=", max(allowed))] + holes))
        lo, hi_eff = min(allowed), min(max(allowed), hi_eff)
        known = f

        def f(x):     # a key with no entry (never taken) counts as the one below it
            while known(x) is None:
                x -= 1
            return known(x)
    parts = []
    for x in range(lo + 1, hi_eff + 1):
        delta = f(x) - f(x - 1)
        if delta:
            parts.append((delta, E.boolv(E.cmp(k, ">=", x))))
    value = E.linear(parts, f(lo))
    if isinstance(value, IntV) and guard is not None and lo >= 1:
        from fractions import Fraction
        alpha = max(Fraction(f(x), x) for x in range(lo, hi_eff + 1))
        # (offered as a bound on the gated value, 0 where the guard is false: only
        # valid for a ratio of at least 0)
        # (and where the guard is false the key, then at least its own lower bound,
        # must not be negative)
        if alpha >= 0 and k.lb >= 0 and all(f(x) <= alpha * x for x in range(lo, hi + 1) if f(x) is not None):
            value.cond_bound = (guard, alpha.numerator, alpha.denominator, k)
    return value


op("map_get", 1, t_map_get, "{D}[{0}]", "a value from a table of values", enc_map_get)
op("row", 1, t_rowcol, "{0}[0]", "a cell's row, from 0 at the top")
op("column", 1, t_rowcol, "{0}[1]", "a cell's column, from 0 at the left")


def _cell(E, n, board, cell):
    if isinstance(cell, Sym):
        raise NotSupportedError("the solver reads a grid at known cells only", n.span)
    if not isinstance(board, BoardV):
        raise NotSupportedError("the solver reads a grid that depends on a choice only", n.span)
    return board.cells.get(cell)


def enc_board_get(E, n, board, cell):
    if isinstance(board, BoardV) and isinstance(cell, CaseV):
        return EnumV(_case_cell_lits(E, board, cell))
    e = _cell(E, n, board, cell)
    if e is None:
        return None
    return e


def _case_cell_lits(E, board, cell):
    out: dict = {}
    for lit, c in cell.cases:
        for v, l in board.cells[c].lits.items():
            out.setdefault(v, []).append(E.and_([lit, l]))
    return {v: E.or_(ls) for v, ls in out.items()}


op("board_get", 2, t_board_get, "{0}.cards.get({1})", "the card on a cell (none if free)", enc_board_get)


def enc_layer_get(E, n, layer, cell):
    if isinstance(cell, Sym):
        raise NotSupportedError("the solver reads a layer at known cells only", n.span)
    return E.boolv(layer.marks.get(cell, False))


op("layer_get", 2, t_layer_get, "({1} in {0})", "whether a cell is marked on a layer", enc_layer_get)


def enc_occupied(E, n, board, cell):
    e = _cell(E, n, board, cell)
    return E.boolv(E.not_(e.lits.get(None, False))) if e is not None else False


op("occupied", 2, t_board_cell_bool, "({1} in {0}.cards)", "a card is on the cell", enc_occupied)
op("free", 2, t_board_cell_bool, "({1} not in {0}.cards)", "no card on the cell",
   lambda E, n, b, c: E.boolv(E.not_(E.lit(enc_occupied(E, n, b, c)))))
op("empty", 1, t_board_bool, "(not {0}.cards)", "no card on the grid",
   lambda E, n, b: E.boolv(E.and_([e.lits.get(None, False) for e in b.cells.values()])))
op("full", 1, t_board_bool, "(len({0}.cards) == {0}.rows * {0}.cols)", "every cell has a card",
   lambda E, n, b: E.boolv(E.and_([E.not_(e.lits.get(None, False)) for e in b.cells.values()])))


def enc_contents(E, n, board):
    counts: dict = {}
    for e in board.cells.values():
        for v, lit in e.lits.items():
            if v is not None:
                counts.setdefault(v, []).append((1, E.boolv(lit)))
    return CountsV({v: E.linear(parts) for v, parts in counts.items()})


op("contents", 1, t_contents, "_rt.contents({0})", "the cards on a grid, in reading order", enc_contents)
op("placements", 1, t_placements, "_rt.placements({0})", "free cells a card may go to within the frame")
op("placed", 3, t_placed, "_rt.placed({0}, {1}, {2})", "the grid with one more card")
op("exchanged", 3, t_placed, "_rt.exchanged({0}, {1}, {2})", "the grid with another card on a taken cell")
op("cleared", 2, t_cleared, "_rt.cleared({0}, {1})", "the grid without the card on a cell")


def enc_extends(E, n, full, part):
    """The known grid ``part`` appears in the chosen grid ``full`` at one of its translations."""
    if isinstance(full, BoardV) and isinstance(part, CaseV):
        # one known partial grid per alternative (for instance per place of the new card)
        return E.boolv(E.or_([E.and_([lit, E.lit(enc_extends(E, n, full, p))]) for lit, p in part.cases]))
    if not isinstance(full, BoardV) or isinstance(part, Sym):
        raise NotSupportedError("the solver checks a known partial grid inside a chosen grid", n.span)
    if not part.cards:
        return True
    r0, c0, r1, c1 = part.bbox()
    options = []
    for dr in range(-r0, full.grid.rows - r1):
        for dc in range(-c0, full.grid.cols - c1):
            lits = [full.cells[(r + dr, c + dc)].lits.get(k, False) for (r, c), k in part.cards.items()]
            options.append(E.and_(lits, f"at+{dr},{dc}"))
    return E.boolv(E.or_(options))


op("extends", 2, t_extends, "_rt.extends({0}, {1})", "the second grid appears in the first", enc_extends)


def enc_rel_apply(E, n, cell):
    if isinstance(cell, CaseV):
        return E.case_map(cell, lambda c: n.data[c], n.span)
    raise NotSupportedError("the solver applies relations to known cells only", n.span)


op("rel_apply", 1, t_rel_apply, "{D}[{0}]", "the cells a relation reaches from a cell", enc_rel_apply)


def enc_groups(E, n, cells):
    """Connected groups of a symbolic set of cells.

    Every member belongs to exactly one group, named by its first cell in reading
    order (its root). Members next to each other share their group; each member
    other than the root has a neighbour in its group one step closer to the root,
    so a group is connected and no two separate groups can pose as one.
    """
    if not isinstance(cells, SetV):
        raise NotSupportedError("connected groups of this collection", n.span)
    rel = n.data
    order = list(cells.members)
    index = {c: i for i, c in enumerate(order)}
    member = cells.members
    size = len(order)
    roots = {}
    belong: dict = {}        # root -> {cell: literal}
    for r in order:
        if member[r] is False:
            continue
        for c in order[index[r]:]:
            if member[c] is False:
                continue
            lit = E.new_bool(f"group[{_cname(r)}]∋{_cname(c)}")
            E.implies(lit, member[c])
            belong.setdefault(r, {})[c] = lit
    for r, cs in belong.items():
        roots[r] = cs[r]
    # every member is in exactly one group
    for c in order:
        if member[c] is False:
            continue
        lits = [belong[r][c] for r in belong if c in belong[r]]
        E.model.add(sum(lits) == E.intv(E.boolv(member[c])).expr()
                    if not isinstance(member[c], bool) else sum(lits) == int(member[c]))
    depth = {}
    for c in order:
        if member[c] is not False:
            depth[c] = E.new_int(0, size, f"depth[{_cname(c)}]")
    for r, cs in belong.items():
        for c, lit in cs.items():
            # neighbours in the set are in the same group; an earlier neighbour
            # would contradict the root being the first cell.
            for d in rel[c]:
                if d not in member or member[d] is False:
                    continue
                both = E.and_([lit, member[d]])
                if d in cs:
                    E.implies(both, cs[d])
                else:
                    E.implies(both, False)
            if c == r:
                E.model.add(depth[c] == 0).only_enforce_if(lit)
                continue
            E.implies(lit, roots[r])
            # a parent: a neighbour in the same group, one step closer to the root
            parents = []
            for d in rel[c]:
                if d in cs:
                    p = E.new_bool(f"parent[{_cname(c)}]={_cname(d)}")
                    E.implies(p, cs[d])
                    E.model.add(depth[c] == depth[d] + 1).only_enforce_if(p)
                    parents.append(p)
            E.model.add_bool_or(parents + [E.not_(lit)])
    return GroupsV(roots, belong)


def _cname(c):
    return f"{c[0]},{c[1]}" if isinstance(c, tuple) else str(c)


op("groups", 1, t_groups, "_rt.groups({0}, {D})", "connected groups of cells under a relation", enc_groups)
op("offsets", None, t_relation_build, "_rt.Relation(offsets=({*},))", "cells at fixed steps")
op("rays", None, t_relation_build, "_rt.Relation(rays=({*},))", "cells along repeated steps")
op("rel_union", 2, t_rel_union, "({0} + {1})", "cells reached by either relation")


def _enc_make(kind):
    def enc(E, n, *items):
        return ListV([(True, x) for x in items])
    return enc


op("make_tuple", None, lambda ts, data: data, "({*},)", "a tuple of values", _enc_make("tuple"))
op("make_list", None, lambda ts, data: data, "({*},)", "a list of values", _enc_make("list"))
op("make_set", None, lambda ts, data: data, "_rt.oset(({*},))", "a set of values")


# ------------------------------------------------------------ records and game state
def enc_field(E, n, rec):
    name = str(n.data)
    name = name[2:] if name.startswith("f_") else name
    if isinstance(rec, RecordV):
        return rec.fields[name]
    if isinstance(rec, CaseV):
        return E.case_map(rec, lambda r: enc_field(E, n, r) if isinstance(r, RecordV)
                          else (None if r is None else getattr(r, "f_" + name)), n.span)
    raise NotSupportedError("the solver reads fields of records only", n.span)


def enc_new_record(E, n, *values):
    return E.record(n.data.rw_name, dict(zip(n.data.rw_fields, values)))


def enc_with(E, n, base, *values):
    if isinstance(base, RecordV):
        fields = dict(base.fields)
        name = base.name
    elif hasattr(base, "rw_fields"):
        fields = _known_fields(base)
        name = base.rw_name
    else:
        raise NotSupportedError("the solver changes fields of records only", n.span)
    fields.update({f[2:]: v for f, v in zip(n.data, values)})
    return E.record(name, fields, like=base)


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


op("field", 1, t_field, "getattr({0}, {D})", "a field of a record", enc_field)
op("new_record", None, lambda ts, data: RecordT(data.rw_name), "{D}({*})", "a new record", enc_new_record)
op("with", None, t_with, "_rt.with_fields({D}, {*})", "a record with some fields changed", enc_with)
op("tuple_get", 2, lambda ts, data: data, "{0}[{1}]", "an element of a tuple (counted from 0)",
   lambda E, n, t, i: t[i] if not isinstance(t, Sym) else _nonlinear("tuple element")(E, n))
op("subsets", 1, lambda ts, data: (t_size(ts, data) and CollT("list", ts[0])),
   "_rt.subsets_of({0})", "every distinct sub-collection, with multiplicity")


def t_subsets_at_most(ts, data):
    need(is_int(ts[1]), f"expected a number of elements, found {ts[1]}", 1)
    t_size(ts[:1], data)
    return CollT("list", ts[0])


op("subsets_at_most", 2, t_subsets_at_most, "_rt.subsets_of({0}, {1})",
   "subsets(C, n): the distinct sub-collections of at most n elements, in the order subsets(C) lists them")
op("sort", 1, lambda ts, data: (t_size(ts, data) and ts[0]), "_rt.sort_values({0})",
   "the elements in a fixed order (by name)")
def enc_dict_get(E, n, table, key):
    """A computed table at a key: the entry of that key (a record built by the query is
    found by identity), else 0."""
    if not isinstance(table, MapV):
        if isinstance(key, Sym):
            return E.linear([(1, E.gate(E.lit(enc_eq(E, n, k, key)), v, n.span)) for k, v in table.items()])
        return table.get(key, 0)
    parts = []
    for g, k, v in table.entries:
        if k is key:
            same = True
        elif isinstance(k, Sym) or isinstance(key, Sym):
            same = E.lit(enc_eq(E, n, k, key))
        else:
            same = k == key
        if same is not False:
            if callable(v):
                v = v()                   # a share encoded when first read
            parts.append((1, E.gate(E.and_([g, same]), v, n.span)))
    return E.linear(parts)


op("dict_get", 2, t_dict_get, "{0}.get({1}, 0)", "a value of a computed table (0 when absent)",
   enc_dict_get)
op("minus", 2, t_minus, "_rt.minus({0}, {1})", "a collection without the elements of another (with multiplicity)")
op("group_rank", 2, t_group_rank, "_rt.group_rank({0}, {1})",
   "the 1-based place of the group holding an element (0 when absent)")
def t_join(ts, data):
    need(is_coll(ts[0]), f"join() takes a collection, found {ts[0]}", 0)
    need(isinstance(ts[1], (TextT, AnyT)), f"join() takes a separator text, found {ts[1]}", 1)
    from compiler.types import TEXT
    return TEXT


def t_text_concat(ts, data):
    from compiler.types import TEXT
    return TEXT


op("text_concat", 2, t_text_concat, "(_rt.join_text(({0},), '') + _rt.join_text(({1},), ''))",
   "a text followed by a value as words (for messages)")
op("join", 2, t_join, "_rt.join_text({0}, {1})",
   "the elements as words joined by a separator (a text, for messages)")
op("seats_from", 2, t_seats_from, "_rt.seats_from(ST.seats, {0}, {1})",
   "every seat in turn from one seat, to the left (clockwise) or to the right")
op("next_seat", 2, t_next_seat, "_rt.next_seat(ST.seats, {0}, {1})", "the next seat to the left or right")


# ------------------------------------------------------------ aggregates
@dataclass
class Aggregate:
    name: str
    typing: Callable[[Type], Type]
    py: str                    # template over {elem} and {fors}
    encode: Callable | None = None
    doc: str = ""

    def emit(self, elem: str, fors: str, key: str = "", supply: str = "", var: str = "",
             span_name: str | None = None) -> str:
        return fill_template(self.py, {"elem": elem, "fors": fors, "key": key, "supply": supply, "var": var,
                                       "S": span_name or "None"})


AGGREGATES: dict[str, Aggregate] = {}


def agg(name, typing, py, doc, encode=None):
    AGGREGATES[name] = Aggregate(name, typing, py, encode, doc)


def ta_int(t):
    need(is_int(t), f"expected numbers, found {t}")
    return INT


def ta_bool(t):
    need(is_bool(t), f"expected true or false, found {t}")
    return BOOL


# Aggregate encodings receive (E, node, items) where items are (guard, element):
# the element counts only when its guard literal holds.
agg("sum", ta_int, "sum([{elem} {fors}])", "total",
    lambda E, n, items: E.linear([(1, E.gate(g, E.under(g, n.elem, env), n.span)) for g, env in items]))
def enc_count(E, n, items):
    result = E.linear([(1, E.boolv(g)) for g, _ in items])
    cap = E.count_cap([g for g, _ in items])
    if isinstance(result, IntV) and cap is not None and cap < result.ub:
        E.model.add(result.expr() <= cap)
        result.ub = cap
    return result


agg("count", lambda t: INT, "len([1 {fors}])", "how many", enc_count)
agg("any", ta_bool, "any({elem} {fors})", "at least one",
    lambda E, n, items: E.boolv(E.or_([E.and_([g, E.lit(E.under(g, n.elem, env), n.span)])
                                       for g, env in items])))
agg("all", ta_bool, "all({elem} {fors})", "every one",
    lambda E, n, items: E.boolv(E.and_([E.or_([E.not_(g), E.lit(E.under(g, n.elem, env), n.span)])
                                        for g, env in items])))


def _enc_minmax(kind):
    def enc(E, n, items):
        items = [(g, env) for g, env in items if g is not False]
        if not items:
            raise NotSupportedError(f"{kind}() of an empty collection", n.span)
        if all(g is True for g, _ in items):
            return E.minmax(kind, [E.encode(n.elem, env) for _, env in items], n.span)
        # Members present or not by a choice: an absent member counts as the bound that
        # never wins (the largest value for min, the smallest for max); no option may
        # reach this with no member present (the interpreter stops with an error there).
        values = [(g, E.intv(E.under(g, n.elem, env), n.span)) for g, env in items]
        lows = [v if isinstance(v, int) else v.lb for _, v in values]
        highs = [v if isinstance(v, int) else v.ub for _, v in values]
        never = max(highs) if kind == "min" else min(lows)
        gated = [v if g is True else E.linear([(1, E.gate(g, E.linear([(1, v), (-1, never)]), n.span)), (1, never)])
                 for g, v in values]
        if not any(g is True for g, _ in items):
            E.never_reached_with(E.and_([E.not_(g) for g, _ in items]), n.span,
                                 f"takes {kind}() of an empty collection")
        return E.minmax(kind, gated, n.span)
    return enc


agg("min", ta_int, "_rt.agg_min(({elem} {fors}), {S})", "smallest (error when empty)", _enc_minmax("min"))
agg("max", ta_int, "_rt.agg_max(({elem} {fors}), {S})", "largest (error when empty)", _enc_minmax("max"))


def enc_distinct(E, n, items):
    """One "seen" literal per possible value; there are never more values than elements."""
    by_value: dict = {}
    for g, env in items:
        v = E.under(g, n.elem, env)
        if isinstance(v, EnumV):
            for value, lit in v.lits.items():
                by_value.setdefault(value, []).append(E.and_([g, lit]))
        elif isinstance(v, Sym):
            raise NotSupportedError("the solver counts distinct known or enum values only", n.span)
        else:
            by_value.setdefault(v, []).append(g)
    result = E.linear([(1, E.boolv(E.or_(ls, "seen"))) for ls in by_value.values()])
    elements = E.linear([(1, E.boolv(g)) for g, _ in items])
    if isinstance(result, IntV):
        cap = elements if isinstance(elements, int) else elements.ub
        if cap < result.ub:
            E.model.add(result.expr() <= (elements if isinstance(elements, int) else elements.expr()))
            result.ub = cap
    return result


agg("distinct", lambda t: INT, "len({{elem} {fors}})", "number of different values", enc_distinct)


def enc_list(E, n, items):
    # an element is computed only for the combinations there (as the interpreter does)
    values = [(g, E.encode(n.elem, env) if g is True else E.under(g, n.elem, env)) for g, env in items]
    if all(g is True and not isinstance(v, Sym) for g, v in values):
        return tuple(v for _, v in values)
    return ListV(values)


def enc_set(E, n, items):
    values = [(g, E.encode(n.elem, env) if g is True else E.under(g, n.elem, env)) for g, env in items]
    if all(g is True and not isinstance(v, Sym) for g, v in values):
        return _rt.oset(v for _, v in values)
    if any(isinstance(v, Sym) for _, v in values):
        raise NotSupportedError("the solver builds sets of known elements only", n.span)
    members: dict = {}
    for g, v in values:
        members.setdefault(v, []).append(g)
    return SetV({v: E.or_(gs) for v, gs in members.items()})


agg("ranked", lambda t: CollT("list", CollT("list", t)), "_rt.ranked([({key}, {elem}) {fors}])",
    "the elements in groups of equal keys, the largest key first")
agg("sorted", lambda t: CollT("list", t), "_rt.sorted_by([({key}, {elem}) {fors}])",
    "the elements by key, the largest first (ties keep their order)")
def _enc_allocate(stop: bool, even: bool):
    def enc(E, n, items):
        supply = E.encode(n.supply, E.agg_env)
        var = n.binders[0].var
        claims = [(g, E.under(g, n.key, env), E.under(g, n.elem, env), env[var]) for g, env in items]
        if all(g is True and not any(isinstance(x, Sym) for x in (k, need, who)) for g, k, need, who in claims) \
                and not isinstance(supply, Sym):
            return _rt.allocate(supply, [(k, who, need) for _, k, need, who in claims], stop, even)
        return E.allocate(claims, supply, stop, even, n.span)
    return enc


agg("allocate", lambda t: MapT(t, INT), "_rt.allocate({supply}, [({key}, {var}, {elem}) {fors}], True)",
    "a supply served to claimants by key, the largest first; ties are served together when the "
    "supply covers them all, else they share what is left; after the first claimant short of its "
    "need nobody else is served", _enc_allocate(True, False))
agg("allocate_skipping", lambda t: MapT(t, INT), "_rt.allocate({supply}, [({key}, {var}, {elem}) {fors}], False)",
    "like allocate, but claimants the rest of the supply cannot cover are skipped and the next ones "
    "are still served", _enc_allocate(False, False))
agg("allocate_even", lambda t: MapT(t, INT), "_rt.allocate({supply}, [({key}, {var}, {elem}) {fors}], True, True)",
    "like allocate, but claimants tied when the supply runs short split what is left evenly",
    _enc_allocate(True, True))
agg("list", lambda t: CollT("list", t), "tuple({elem} {fors})", "list comprehension", enc_list)
agg("set", lambda t: CollT("set", t), "_rt.oset({elem} {fors})", "set comprehension", enc_set)


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
