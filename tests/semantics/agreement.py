"""Operands for the agreement test of the two evaluators (``test_agreement.py``).

In:  a compiled program and a type of its language.
Out: ``values(program, type)``: a hypothesis strategy of concrete values of that type (what
     the interpreter takes); ``lift(enc, program, type, value, draw)``: the same value as the encoder
     sees an operand that depends on a choice (CP-SAT variables pinned to the value by
     constraints, so no encoding can fold it away; a list keeps present items and absent
     ones under literals); ``read(val, sym)``: a symbolic result read back from a solution;
     ``same(expected, got, type)``: the interpreter's value and that reading compared.

The generators are keyed by type, not by operator: a definition of the test spec whose
parameters are of a type here is generated without more code.
"""
from __future__ import annotations

from collections import Counter

from hypothesis import strategies as st

from rulewright.compiler.semantics import runtime as rt
from rulewright.compiler.types import (BoardT, CellT, CollT, EnumT, MapT, RecordT, ScoreT, TupleT, is_bool,
                                      is_int)
from rulewright.solver.symbolic import (BoardV, BoolV, CaseV, CountsV, EnumV, GroupsV, IntV, ListV, MapV,
                                        RecordV, ScoreV, SetV, Sym)

LOW, HIGH = -6, 6           # the numbers drawn (negative ones, 0, ties)
SPREAD = 3                  # a number's variable ranges this far beyond its value (or 0 or 1)


def values(program, t):
    """A strategy of concrete values of type ``t``."""
    if is_bool(t):
        return st.booleans()
    if is_int(t):
        return st.integers(LOW, HIGH)
    if isinstance(t, EnumT):
        return st.sampled_from(list(program.enums[t.name].values))
    if isinstance(t, CellT):
        grid = next(iter(program.grids.values()))
        return st.sampled_from(list(grid.cells))
    if isinstance(t, TupleT):
        return st.tuples(*[values(program, x) for x in t.items])
    if isinstance(t, RecordT):
        info = program.records[t.name]
        return st.tuples(*[values(program, ft) for _, ft in info.fields]).map(lambda vs: info.cls(*vs))
    if isinstance(t, BoardT):
        grid = program.grids[t.grid]
        kinds = list(program.enums[grid.cell_enum].values) + [None]
        return st.lists(st.sampled_from(kinds), min_size=len(grid.cells), max_size=len(grid.cells)).map(
            lambda cs: rt.Board(grid.name, grid.rows, grid.cols, grid.floating,
                                {c: k for c, k in zip(grid.cells, cs) if k is not None}))
    if isinstance(t, CollT):
        elems = values(program, t.elem)
        if t.kind == "set":
            return st.lists(elems, max_size=4, unique=True).map(lambda xs: rt.oset(xs))
        return st.lists(elems, max_size=4).map(tuple)
    raise TypeError(f"no generator for {t}: add one to tests/semantics/agreement.py")


def pinned_int(enc, v: int, spread: int = SPREAD) -> IntV:
    """A number's variable, its domain ``spread`` beyond the value on each side (0: the
    bounds alone say the value, and the encoder's shortcuts on bounds are taken)."""
    var = enc.new_int(v - spread, v + spread, "x")
    enc.model.add(var == v)
    return IntV({var.index: (var, 1)}, 0, v - spread, v + spread)


def pinned_bool(enc, v: bool):
    var = enc.new_bool("b")
    enc.model.add(var == int(v))
    return var


def _one_of(enc, options: list, chosen) -> dict:
    lits = {o: enc.new_bool(f"is {o}") for o in options}
    enc.model.add_exactly_one(list(lits.values()))
    enc.model.add(lits[chosen] == 1)
    enc.register_onehot(lits)
    return lits


def lift(enc, program, t, v, draw):
    """``v`` as an operand that depends on a choice. ``draw`` picks the free parts: the
    absent items a list carries, where they go, and which values they hold."""
    if is_bool(t):
        return BoolV(pinned_bool(enc, v))
    if is_int(t):
        spread = draw(st.sampled_from([SPREAD, 0, 1, None]))
        if spread is None:      # one of a few known numbers, selected by a choice
            others = draw(st.lists(st.integers(LOW, HIGH).filter(lambda x: x != v), min_size=1, max_size=2,
                                   unique=True))
            lits = _one_of(enc, [v] + others, v)
            return CaseV([(lits[x], x) for x in draw(st.permutations([v] + others))])
        return pinned_int(enc, v, spread)
    if isinstance(t, EnumT):
        return EnumV(_one_of(enc, list(program.enums[t.name].values), v))
    if isinstance(t, CellT):
        grid = next(iter(program.grids.values()))
        lits = _one_of(enc, list(grid.cells), v)
        return CaseV([(lit, c) for c, lit in lits.items()])
    if isinstance(t, TupleT):
        return tuple(lift(enc, program, x, y, draw) for x, y in zip(t.items, v))
    if isinstance(t, RecordT):
        info = program.records[t.name]
        return enc.record(t.name, {f: lift(enc, program, ft, x, draw) for (f, ft), x in zip(info.fields, v[1:])})
    if isinstance(t, BoardT):
        board = enc.new_board(program.grids[t.grid], "g", allow_free=True)
        for cell, e in board.cells.items():
            enc.model.add(e.lits[v.cards.get(cell)] == 1)
        return board
    if isinstance(t, CollT) and t.kind == "set" and isinstance(t.elem, (EnumT, CellT)):
        universe = list(program.enums[t.elem.name].values) if isinstance(t.elem, EnumT) else \
            list(next(iter(program.grids.values())).cells)
        # (its members first, in the order the interpreter holds them)
        return SetV({x: pinned_bool(enc, x in v) for x in [*v, *(u for u in universe if u not in v)]})
    if isinstance(t, CollT):
        # the items themselves chosen, or known items kept or left out by a choice (a
        # subset of a known hand)
        chosen = draw(st.booleans())

        def item(x):
            return lift(enc, program, t.elem, x, draw) if chosen else x
        items = [(pinned_bool(enc, True), item(x)) for x in v]
        for _ in range(draw(st.integers(0, 2))):
            at = draw(st.integers(0, len(items)))
            items.insert(at, (pinned_bool(enc, False), item(draw(values(program, t.elem)))))
        return ListV(items)
    raise TypeError(f"no lifting for {t}: add one to tests/semantics/agreement.py")


def read(val, sym):
    """The concrete value of a symbolic result in a solution (``val`` reads a
    variable or literal)."""
    if isinstance(sym, bool) or sym is None:
        return sym
    if isinstance(sym, int):
        return sym
    if isinstance(sym, BoolV):
        return truth(val, sym.lit)
    if isinstance(sym, IntV):
        return sym.const + sum(c * val(v) for v, c in sym.terms.values())
    if isinstance(sym, EnumV):
        chosen = [k for k, lit in sym.lits.items() if truth(val, lit)]
        assert len(chosen) == 1, f"an enum value with {len(chosen)} values at once: {chosen}"
        return chosen[0]
    if isinstance(sym, CaseV):
        chosen = [x for lit, x in sym.cases if truth(val, lit)]
        assert len(chosen) == 1, f"a case value with {len(chosen)} cases at once"
        return read(val, chosen[0])
    if isinstance(sym, SetV):
        return frozenset(x for x, lit in sym.members.items() if truth(val, lit))
    if isinstance(sym, ListV):
        return tuple(read(val, x) for g, x in sym.items if truth(val, g))
    if isinstance(sym, CountsV):
        counts = Counter({k: read(val, n) for k, n in sym.counts.items()})
        return +counts
    if isinstance(sym, BoardV):
        return {c: read(val, e) for c, e in sym.cells.items() if read(val, e) is not None}
    if isinstance(sym, RecordV):
        return (sym.name,) + tuple(read(val, x) for x in sym.fields.values())
    if isinstance(sym, GroupsV):
        return frozenset(frozenset(c for c, lit in sym.members[r].items() if truth(val, lit))
                         for r, lit in sym.roots.items() if truth(val, lit))
    if isinstance(sym, MapV):
        out: dict = {}
        for g, k, v in sym.entries:
            if truth(val, g):
                key = read(val, k)
                out[key] = out.get(key, 0) + read(val, v)
        return {k: v for k, v in out.items() if v}
    if isinstance(sym, ScoreV):
        return read(val, sym.total)
    if isinstance(sym, tuple) and hasattr(sym, "rw_fields"):
        return sym
    if isinstance(sym, tuple):
        return tuple(read(val, x) for x in sym)
    if isinstance(sym, Sym):
        raise TypeError(f"no reading of {type(sym).__name__}: add one to tests/semantics/agreement.py")
    return sym


def settle(sym):
    """A computed table's shares that are encoded when first read, encoded now (before the
    model is solved: a reading must not add to it)."""
    if isinstance(sym, MapV):
        sym.entries = [(g, k, v() if callable(v) else v) for g, k, v in sym.entries]
    return sym


def truth(val, lit) -> bool:
    if isinstance(lit, bool):
        return lit
    return bool(val(lit))


def shape(v, t):
    """A value in a shape both evaluators' results take: sets as frozensets, lists and
    tuples as tuples, records as their fields, a grid as its cards, a computed table
    without its zero entries."""
    if isinstance(v, Counter):
        return v
    if isinstance(v, frozenset) and isinstance(t, CollT):
        return frozenset(shape(x, t.elem) for x in v)
    if isinstance(t, CollT) and t.kind == "set":
        return frozenset(shape(x, t.elem) for x in v)
    if isinstance(t, CollT):
        return tuple(shape(x, t.elem) for x in v)
    if isinstance(t, TupleT):
        return tuple(shape(x, u) for x, u in zip(v, t.items))
    if isinstance(t, RecordT):
        return tuple(v)
    if isinstance(t, BoardT):
        return dict(v.cards) if isinstance(v, rt.Board) else dict(v)
    if isinstance(t, MapT):
        return {k: x for k, x in dict(v).items() if x}
    if isinstance(t, ScoreT):
        return int(v)
    return v


def same(expected, got, t) -> bool:
    """The interpreter's value and the encoder's reading are one value. A multiset read
    back (the cards of a grid, counted) and groups read back (a set of sets) are compared
    as such."""
    if isinstance(got, Counter):
        return +Counter(expected) == got
    if isinstance(got, frozenset) and isinstance(t, CollT) and isinstance(t.elem, CollT):
        return frozenset(frozenset(g) for g in expected) == got     # (groups)
    return shape(expected, t) == shape(got, t)
