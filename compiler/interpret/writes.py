"""What a statement of the procedures may change: the state variables whose readers' memo
it clears (``memo.StateMemo``).

In:  a checked program (its state variables and their types) and one of its statements.
Out: ``Changes(program)(st)``: the names of the state variables the statement may change,
     or None when it may change anything (or changes a pile not named by its variable).

A pile of the state is an object its statements change in place (``deal``, ``take``,
``move``, ``shuffle``, ``place``, ``pass``); a value set to a variable of another type may
hold that very pile (``set drawn = hand(p)``, a record with a pile in a field), so a change
of a pile is also a change of every variable whose type could hold one: all but those
of plain values (numbers, truths, texts, symbols, cells, seats, grids, and tuples and maps
of them).
"""
from __future__ import annotations

from rulewright.compiler import ir as I
from rulewright.compiler.types import (BoardT, BoolT, CellT, CollT, EnumT, IntT, MapT, NoneT, RecordT, SeatT,
                                       TextT, TupleT, Type)

_PLAIN = (IntT, BoolT, TextT, NoneT, EnumT, CellT, SeatT, BoardT)
# the piles each statement that changes piles names (a field of the statement)
_PILES = {I.Shuffle: ("zone",), I.Deal: ("source", "target"), I.Take: ("source",), I.Place: ("source", "board")}


def plain(t: Type | None) -> bool:
    """A type whose values never hold a pile of the state."""
    if isinstance(t, TupleT):
        return all(plain(x) for x in t.items)
    if isinstance(t, MapT):
        return plain(t.key) and plain(t.value)
    return isinstance(t, _PLAIN)


class Changes:
    def __init__(self, program: I.Program):
        self.program = program
        # the variables a pile changed in place may be held by
        self.holding = frozenset(name for name, var in program.state.items() if not plain(var.type))

    def __call__(self, st: I.Stmt) -> frozenset | None:
        if isinstance(st, I.Require):
            return frozenset()          # (it changes nothing: it holds, or the game stops)
        if isinstance(st, I.SetVar):
            return frozenset((st.name,))
        if isinstance(st, I.Pass):
            return frozenset((st.zone,)) | self.holding
        piles = _PILES.get(type(st))
        if isinstance(st, I.Move):
            piles = ("target",) if st.source == "values" else ("what", "target") if st.source is None \
                else ("source", "target")
        if piles is None:
            return None
        names = set()
        for name in piles:
            e = getattr(st, name)
            if not (isinstance(e, (I.Global, I.SeatVar)) and e.name in self.program.state):
                return None
            names.add(e.name)
        return frozenset(names) | self.holding


def held_by_identity(fd: I.FuncDef) -> tuple[int, ...]:
    """The parameters of a definition that its memo in the state's memo keys by which value
    they are (``memo._remembered_by_identity``): collections of records, tuples,
    collections or maps, which cost the most to hash (every field of every record)."""
    return tuple(i for i, (_, t) in enumerate(fd.params)
                 if isinstance(t, CollT) and isinstance(t.elem, (RecordT, TupleT, CollT, MapT)))
