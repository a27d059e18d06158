"""What a statement of the procedures may change: the state variables whose readers' memo
it clears (``memo.StateMemo``).

In:  a checked program (its state variables and their types) and one of its statements.
Out: ``Changes(program)(st)``: the names of the state variables the statement may change,
     or None when it may change anything (or changes a pile not named by its variable).

A pile of the state is an object its statements change in place (``deal``, ``take``,
``move``, ``shuffle``, ``place``, ``pass``). What a statement stores (in a variable, a
local, a report, a procedure's parameter) never holds that very object: ``unpiled`` puts the
pile's cards there as they are when the statement runs (``set drawn = hand(p)`` keeps what
the hand held then, as any value of the language keeps what it was). So a change of a pile
changes that pile's variable and no other.
"""
from __future__ import annotations

from rulewright.compiler import ir as I
from rulewright.compiler.semantics.runtime import Zone
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

    def __call__(self, st: I.Stmt) -> frozenset | None:
        if isinstance(st, I.Require):
            return frozenset()          # (it changes nothing: it holds, or the game stops)
        if isinstance(st, I.SetVar):
            return frozenset((st.name,))
        if isinstance(st, I.Pass):
            return frozenset((st.zone,))
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
        return frozenset(names)


class PileReads:
    """Which values a statement stores may hold a pile of the state (``may_hold``): those
    whose expression reads one as a value, itself or through the definitions it calls (at
    any depth). Nothing else can: a variable, a local, a procedure's parameter, a loop's or
    a choice's variable hold no pile (``unpiled`` made sure as each was stored). Only those
    are ``unpiled`` as they are stored: the others (a collection of records updated each
    turn) are stored as they are, unread."""

    def __init__(self, program: I.Program):
        self.program = program
        self.piles = frozenset(name for name, var in program.state.items()
                               if isinstance(var.type, CollT) and var.type.kind == "pile")
        self._defs: dict[str, bool] = {}

    def may_hold(self, e: I.Expr) -> bool:
        return bool(self.piles) and any(self._direct(node) or isinstance(node, (I.Call, I.Global))
                                        and self._def_reads(node.name) for node in I.descendants([e]))

    def _direct(self, node) -> bool:
        """The node is a pile read as a value, or a call of a scoring (not followed: as if it read one)."""
        return isinstance(node, (I.Global, I.SeatVar)) and node.name in self.piles \
            or isinstance(node, (I.Call, I.Global)) and node.name in self.program.scorings

    def _def_reads(self, name: str) -> bool:
        """A definition of the spec reads a pile: itself or one it calls, at any depth (every
        definition it reaches looked at, so a definition that calls itself is no trouble)."""
        funcs = self.program.funcs
        if name not in self._defs and name in funcs:
            seen, todo, found = {name}, [name], False
            while todo and not found:
                fd = funcs[todo.pop()]
                for node in I.descendants([fd.body] if fd.body is not None else []):
                    if self._direct(node):
                        found = True
                        break
                    if isinstance(node, (I.Call, I.Global)) and node.name in funcs and node.name not in seen:
                        seen.add(node.name)
                        todo.append(node.name)
            self._defs[name] = found
        return self._defs.get(name, False)


def unpiled_flat(value):
    """``unpiled`` of a collection of plain values (cards, numbers, cells): a pile of the
    state is its cards as they are now, anything else is given back as it is."""
    return tuple(value.cards) if type(value) is Zone else value


def unpiled(value):
    """``value`` as a statement stores it: each pile of the state it holds (itself, or in a
    list, tuple, map or record, at any depth) replaced by the pile's cards as they are now
    (a tuple). A value that holds no pile is given back as it is, the same object."""
    kind = type(value)
    if kind is Zone:
        return tuple(value.cards)
    if kind in _ATOMS:
        return value
    if isinstance(value, (tuple, list)):
        if _ATOMS.issuperset(map(type, value)):     # (in C: a pile's cards, a cell, numbers)
            return value
        items = [unpiled(x) for x in value]
        if all(a is b for a, b in zip(items, value)):
            return value
        return items if kind is list else tuple(items) if kind is tuple else tuple.__new__(kind, items)
    if kind is dict:             # (its keys are hashable: no pile among them)
        items = {k: unpiled(v) for k, v in value.items()}
        return value if all(a is b for a, b in zip(items.values(), value.values())) else items
    return value


_ATOMS = frozenset((int, bool, str, type(None), frozenset))      # (a frozenset holds no pile: a pile is not hashable)


def held_by_identity(fd: I.FuncDef) -> tuple[int, ...]:
    """The parameters of a definition that its memo in the state's memo keys by which value
    they are (``memo._remembered_by_identity``): collections of records, tuples,
    collections or maps, which cost the most to hash (every field of every record)."""
    return tuple(i for i, (_, t) in enumerate(fd.params)
                 if isinstance(t, CollT) and isinstance(t.elem, (RecordT, TupleT, CollT, MapT)))
