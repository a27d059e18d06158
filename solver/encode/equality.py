"""Equality in the encoder: two values the same, each compared as the interpreter compares
it: numbers, enums and truth values as they are; sets by their members; records field by
field (a pile a record holds in order, a set by its members); lists and tuples item by
item, in order, whether their items are known or chosen.

In:  the encoder (``E``), the node being encoded (``n``, for its place) and two operands.
Out: a literal or a truth value; ``NotSupportedError`` at the node for what the solver
     cannot compare.
"""
from __future__ import annotations

from rulewright.compiler.semantics import runtime as _rt
from rulewright.compiler.diagnostics import NotSupportedError
from rulewright.solver.symbolic import BoolV, CaseV, EnumV, ListV, RecordV, SetV, Sym


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


def guarded_list(v) -> bool:
    """A list whose elements are chosen (some element's presence depends on a choice)."""
    return isinstance(v, ListV) and any(g is not True for g, _ in v.items)


def _chosen_list_eq(E, n, a, b):
    """A list whose elements are chosen equal to a list whose elements are not: the
    chosen elements, in order, are the other list's. ``at[j]``: the items walked so far
    keep exactly the first j elements of the other list."""
    if not guarded_list(a):
        a, b = b, a
    if guarded_list(b) or not is_tuple(b):
        raise NotSupportedError("the solver cannot compare two lists whose elements both depend on "
                                "a choice", n.span)
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
    return E.boolv(E.and_(parts))


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
    sets = _set_fields(E, a) | _set_fields(E, b)
    parts = []
    for name, va in fa.items():
        vb = fb.get(name)
        if name in sets:
            if not isinstance(va, Sym) and not isinstance(vb, Sym):
                if set(_rt.as_tuple(va)) != set(_rt.as_tuple(vb)):
                    return False
                continue
            parts.append(_set_eq(E, _members(E, n, va), _members(E, n, vb)))
        elif not isinstance(va, Sym) and not isinstance(vb, Sym):
            if va != vb:
                return False
        elif isinstance(va, ListV) or isinstance(vb, ListV):
            parts.append(E.lit(_in_order_eq(E, n, va, vb)))
        else:
            parts.append(E.lit(enc_eq(E, n, va, vb)))
    return E.and_(parts)


def _set_fields(E, rec) -> set:
    """The names of a record's fields that are sets."""
    cls = E.program.records[rec.name].cls if isinstance(rec, RecordV) else type(rec)
    return {cls.rw_fields[i - 1] for i in getattr(cls, "rw_sets", ())}


def _members(E, n, v) -> SetV:
    """A set's members, each under the literal that it is one, from a set or a list."""
    if isinstance(v, SetV):
        return v
    if isinstance(v, ListV):
        members: dict = {}
        for g, x in v.items:
            if isinstance(x, Sym):
                raise NotSupportedError("the solver compares sets of known values only", n.span)
            members.setdefault(x, []).append(g)
        return SetV({x: E.or_(gs) for x, gs in members.items()})
    if isinstance(v, Sym):
        raise NotSupportedError("the solver compares sets of known values only", n.span)
    return SetV({x: True for x in _rt.as_tuple(v)})


def _in_order_eq(E, n, a, b):
    """Two lists (a pile a record holds) equal item by item, in order."""
    if guarded_list(a) and guarded_list(b):
        return _both_chosen_eq(E, n, a, b)
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
