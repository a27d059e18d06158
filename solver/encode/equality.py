"""Equality in the encoder: two values the same, each compared as the interpreter compares
it: numbers, enums and truth values as they are; sets by their members; records field by
field (a pile a record holds in order, a set by its members); lists and tuples item by
item, in order, whether their items are known or chosen; a set held inside a list or
a tuple by its members (``same``, ``same_in``: the resolver's choice, by the types).

In:  the encoder (``E``), the node being encoded (``n``, for its place) and two operands.
Out: a literal or a truth value; ``NotSupportedError`` at the node for what the solver
     cannot compare.
"""
from __future__ import annotations

from rulewright.compiler.semantics import runtime as _rt
from rulewright.compiler.diagnostics import NotSupportedError
from rulewright.solver.encode.base import is_symbolic
from rulewright.solver.symbolic import BoolV, CaseV, CountsV, EnumV, ListV, RecordV, SetV, Sym


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
        return E.boolv(_set_eq(E, a, b, n))
    if isinstance(a, RecordV) or isinstance(b, RecordV):
        if a is None or b is None:          # (a record is never none)
            return False
        return E.boolv(_record_eq(E, n, a, b))
    if guarded_list(a) or guarded_list(b):
        return E.boolv(_chosen_list_eq(E, n, a, b))
    if is_tuple(a) or is_tuple(b):
        ia, ib = tuple_items(a, n), tuple_items(b, n)
        if len(ia) != len(ib):      # (lists of different lengths)
            return False
        return E.boolv(E.lex(ia, "==", ib, n.span))
    if isinstance(a, (BoolV, bool)) and isinstance(b, (BoolV, bool)):
        la, lb = E.lit(a), E.lit(b)
        return E.boolv(E.or_([E.and_([la, lb]), E.and_([E.not_(la), E.not_(lb)])]))
    return E.boolv(E.cmp(a, "==", b, n.span))


def _set_eq(E, a, b, n=None):
    """Two sets (or a set and a list) with the same members."""
    if a is None or b is None:
        return is_none(E, b if a is None else a)
    ma, mb = _members(E, n, a).members, _members(E, n, b).members
    parts = []
    for x in set(ma) | set(mb):
        la, lb = ma.get(x, False), mb.get(x, False)
        parts.append(E.or_([E.and_([la, lb]), E.and_([E.not_(la), E.not_(lb)])]))
    return E.and_(parts)


def enc_ne(E, n, a, b):
    return E.boolv(E.not_(E.lit(enc_eq(E, n, a, b))))


def guarded_list(v) -> bool:
    """A list whose elements are chosen (some element's presence depends on a choice)."""
    return isinstance(v, ListV) and any(g is not True for g, _ in v.items)


def _chosen_list_eq(E, n, a, b):
    """A list whose elements are chosen equal to another list: the chosen elements, in
    order, are the other list's (``_both_chosen_eq`` when the other's are chosen too).
    ``at[j]``: the items walked so far keep exactly the first j elements of the other list."""
    if not guarded_list(a):
        a, b = b, a
    if guarded_list(b) and isinstance(b, ListV):
        return _both_chosen_eq(E, n, a, b)
    if not is_tuple(b):
        raise NotSupportedError("the solver compares a list with a list only", n.span)
    other = tuple_items(b, n)
    at = [True] + [False] * len(other)
    for g, x in a.items:
        nxt = [E.and_([E.not_(g), at[0]])]
        for j, y in enumerate(other, 1):
            same = E.lit(enc_eq(E, n, x, y)) if isinstance(x, Sym) or isinstance(y, Sym) else x == y
            nxt.append(E.or_([E.and_([E.not_(g), at[j]]), E.and_([g, same, at[j - 1]])]))
        at = nxt
    return at[-1]


def _both_chosen_eq(E, n, a, b):
    """Two lists whose elements are both chosen, equal in order: as many kept on each
    side, and the k-th kept of one is the k-th kept of the other (an item's place among
    the kept ones is the number of kept items before it)."""
    def places(v):
        out, before = [], []
        for g, x in v.items:
            out.append((g, x, E.linear(list(before)) if before else 0))
            before.append((1, E.boolv(g)))
        return out, E.linear(before) if before else 0
    pa, na = places(a)
    pb, nb = places(b)
    parts = [E.cmp(na, "==", nb, n.span)]
    for ga, x, ra in pa:
        if ga is False:
            continue
        for gb, y, rb in pb:
            if gb is False:
                continue
            same = E.lit(enc_eq(E, n, x, y)) if isinstance(x, Sym) or isinstance(y, Sym) else x == y
            if same is True:
                continue
            at = E.cmp(ra, "==", rb, n.span)
            if at is False:
                continue
            parts.append(E.or_([E.not_(ga), E.not_(gb), E.not_(at), same]))
    return E.and_(parts)


def is_tuple(v) -> bool:
    return (isinstance(v, tuple) and not hasattr(v, "rw_fields")) or \
        (isinstance(v, ListV) and all(g is True for g, _ in v.items))


def tuple_items(v, n) -> list:
    if isinstance(v, ListV):
        return [x for _, x in v.items]
    if isinstance(v, tuple):
        return list(v)
    raise NotSupportedError("the solver compares tuples with tuples only", n.span)


def _record_eq(E, n, a, b):
    """Records are equal when every field is, each compared as the interpreter compares
    it: a pile or a list in order, a set by its members (the interpreter keeps a set a
    record holds in one order of its own), anything else as itself."""
    fa = a.fields if isinstance(a, RecordV) else known_fields(a)
    fb = b.fields if isinstance(b, RecordV) else known_fields(b)
    if a is b:
        return True
    shapes = {**_held_shapes(E, a), **_held_shapes(E, b)}
    parts = []
    for name, va in fa.items():
        vb = fb.get(name)
        if va is None or vb is None:        # (a field that is none equals none only)
            parts.append(is_none(E, vb if va is None else va))
            continue
        shape = shapes.get(name)
        if shape is not None:               # (what the record keeps in its order, chosen parts too)
            va, vb = canon(E, n, va, shape), canon(E, n, vb, shape)
        if not is_symbolic(va) and not is_symbolic(vb):
            if va != vb:
                return False
        elif shape is not None and shape[0] == "set":
            parts.append(_set_eq(E, va, vb, n))
        elif isinstance(va, ListV) or isinstance(vb, ListV):
            parts.append(E.lit(_in_order_eq(E, n, va, vb)))
        else:
            parts.append(E.lit(enc_eq(E, n, va, vb)))
    return E.and_(parts)


def is_none(E, v):
    """``v == none``: a literal or a truth value (a value one of several may be none)."""
    if v is None:
        return True
    if isinstance(v, CaseV):
        return E.or_([lit for lit, x in v.cases if x is None])
    return False        # (a known value, or a chosen one that is never none)


def _held_shapes(E, rec) -> dict:
    """A record's fields that hold a set, by name: the order it keeps them in."""
    cls = E.program.records[rec.name].cls if isinstance(rec, RecordV) else type(rec)
    return {cls.rw_fields[i - 1]: shape for i, shape in getattr(cls, "rw_shapes", {}).items()}


def _members(E, n, v) -> SetV:
    """A set's members, each under the literal that it is one, from a set or a list."""
    if isinstance(v, SetV):
        return v
    span = getattr(n, "span", None)
    if isinstance(v, ListV):
        members: dict = {}
        for g, x in v.items:
            if is_symbolic(x):
                raise NotSupportedError("the solver compares sets of known values only", span)
            members.setdefault(x, []).append(g)
        return SetV({x: E.or_(gs) for x, gs in members.items()})
    if is_symbolic(v):
        raise NotSupportedError("the solver compares sets of known values only", span)
    return SetV({x: True for x in _rt.as_tuple(v)})


def _in_order_eq(E, n, a, b):
    """Two lists (a pile a record holds) equal item by item, in order."""
    if guarded_list(a) or guarded_list(b):
        return E.boolv(_chosen_list_eq(E, n, a, b))
    ia, ib = tuple_items(a, n), tuple_items(b, n)
    if len(ia) != len(ib):
        return False
    parts = []
    for x, y in zip(ia, ib):
        if isinstance(x, Sym) or isinstance(y, Sym):
            parts.append(E.lit(enc_eq(E, n, x, y)))
        elif x != y:
            return False
    return E.boolv(E.and_(parts))


def known_fields(rec) -> dict:
    return {f: getattr(rec, "f_" + f) for f in rec.rw_fields}


def _list_counts(E, v) -> dict:
    """value -> count (int or IntV) of a guarded list of known values."""
    out: dict = {}
    for g, x in v.items:
        if isinstance(x, Sym):
            return None
        out.setdefault(x, []).append((1, E.boolv(g)))
    return {x: E.linear(parts) for x, parts in out.items()}


def known_counts(v) -> dict:
    out: dict = {}
    for x in _rt.as_tuple(v):
        out[x] = out.get(x, 0) + 1
    return out


def counts_of(E, v):
    if isinstance(v, ListV):
        return _list_counts(E, v)
    if isinstance(v, SetV):
        return {x: E.intv(E.boolv(l)) if not isinstance(l, bool) else int(l) for x, l in v.members.items()}
    if isinstance(v, CountsV):
        return dict(v.counts)
    if isinstance(v, Sym):
        return None
    return known_counts(v)


def enc_multiset_eq(E, n, a, b):
    if isinstance(a, (ListV, SetV)) or isinstance(b, (ListV, SetV)):
        ca, cb = counts_of(E, a), counts_of(E, b)
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


# ------------------------------------------------- sets held inside lists and tuples
def canon(E, n, v, shape):
    """``v`` with each set it holds (and, at a "bag", its items) as ``runtime.canon`` puts
    them, known parts in their one order: then ``==`` item by item compares a held set by
    its members (the encoder already compares a chosen set so)."""
    if shape is None or v is None:
        return v
    if not is_symbolic(v):
        return _rt.canon(v, shape)
    kind, inner = shape
    if isinstance(v, CaseV):
        return CaseV([(lit, canon(E, n, x, shape)) for lit, x in v.cases])
    if kind == "tuple":
        if not isinstance(v, tuple):
            raise NotSupportedError("the solver compares tuples with tuples only", getattr(n, "span", None))
        return tuple(canon(E, n, x, s) for x, s in zip(v, inner))
    if isinstance(v, SetV):
        if inner is None:
            return v
        members: dict = {}
        for x, lit in v.members.items():
            members.setdefault(_rt.canon(x, inner), []).append(lit)
        return SetV({x: E.or_(lits) for x, lits in members.items()})
    if isinstance(v, ListV):
        items = [(g, canon(E, n, x, inner)) for g, x in v.items]
        if kind == "set":       # (a list made a set: its members, as the interpreter keeps them)
            return _members(E, n, ListV(items))
        return ListV(items)
    if isinstance(v, tuple):
        return tuple(canon(E, n, x, inner) for x in v)
    return v


def _same_items(E, n, x, y, shape):
    """Two items (already in their one order) equal under ``shape``."""
    if shape is not None and shape[0] in ("bag", "set"):
        return enc_multiset_eq(E, n, x, y)
    return enc_eq(E, n, x, y)


def _nested_bag(shape, top=True) -> bool:
    """Whether a set is compared with a list or a pile inside the values (as multisets)."""
    if shape is None:
        return False
    kind, inner = shape
    if kind == "bag" and not top:
        return True
    return any(_nested_bag(s, False) for s in inner) if kind == "tuple" else _nested_bag(inner, False)


def _refuse_nested_bag(n) -> None:
    if _nested_bag(n.data):
        raise NotSupportedError("the solver compares a set with a list held inside other values only "
                                "when both are known", n.span)


def enc_same(E, n, a, b):
    _refuse_nested_bag(n)
    if a is None or b is None:
        return E.boolv(is_none(E, b if a is None else a))
    return _same_items(E, n, canon(E, n, a, n.data), canon(E, n, b, n.data), n.data)


def enc_same_in(E, n, x, coll):
    _refuse_nested_bag(n)
    x = canon(E, n, x, n.data)
    if isinstance(coll, SetV):
        items = [(lit, k) for k, lit in coll.members.items()]
    elif isinstance(coll, ListV):
        items = list(coll.items)
    elif isinstance(coll, Sym):
        raise NotSupportedError("the solver cannot test membership in this collection", n.span)
    else:
        items = [(True, k) for k in _rt.as_tuple(coll)]
    parts = []
    for g, y in items:
        if g is False:
            continue
        y = canon(E, n, y, n.data)
        if x is None or y is None:          # (none equals none only)
            parts.append(E.and_([g, is_none(E, y if x is None else x)]))
            continue
        if not is_symbolic(x) and not is_symbolic(y):
            if x == y:
                parts.append(g)
            continue
        parts.append(E.and_([g, E.lit(_same_items(E, n, x, y, n.data))]))
    return E.boolv(E.or_(parts))
