"""Semantic types of the language.

In:  nothing (plain values).
Out: the ``Type`` classes the resolver assigns to every IR node and the
     operator table uses for its signatures.
"""
from __future__ import annotations

from rulewright.compiler.classcode import dataclass   # (its methods' code kept between runs)


@dataclass(frozen=True)
class Type:
    def __str__(self) -> str:  # pragma: no cover - overridden
        return type(self).__name__.lower()


@dataclass(frozen=True)
class IntT(Type):
    def __str__(self):
        return "int"


@dataclass(frozen=True)
class BoolT(Type):
    def __str__(self):
        return "bool"


@dataclass(frozen=True)
class TextT(Type):
    def __str__(self):
        return "text"


@dataclass(frozen=True)
class NoneT(Type):
    def __str__(self):
        return "none"


@dataclass(frozen=True)
class AnyT(Type):
    """Placeholder after an error, so one mistake is reported once."""

    def __str__(self):
        return "?"


@dataclass(frozen=True)
class EnumT(Type):
    name: str

    def __str__(self):
        return self.name


@dataclass(frozen=True)
class CellT(Type):
    grid: str | None

    def __str__(self):
        return "cell"


@dataclass(frozen=True)
class BoardT(Type):
    grid: str

    def __str__(self):
        return self.grid


@dataclass(frozen=True)
class SeatT(Type):
    def __str__(self):
        return "seat"


@dataclass(frozen=True)
class RelationT(Type):
    def __str__(self):
        return "relation"


@dataclass(frozen=True)
class ScoreT(Type):
    """What a ``scoring`` block returns: a total that also remembers its steps and choices."""

    scoring: str

    def __str__(self):
        return "score"


@dataclass(frozen=True)
class LayerT(Type):
    grid: str | None

    def __str__(self):
        return "layer"


@dataclass(frozen=True)
class RecordT(Type):
    name: str

    def __str__(self):
        return self.name


@dataclass(frozen=True)
class CollT(Type):
    """``pile of T`` (ordered, duplicates), ``list of T`` (ordered), ``set of T`` (no duplicates)."""

    kind: str
    elem: Type

    def __str__(self):
        return f"{self.kind} of {self.elem}"


@dataclass(frozen=True)
class MapT(Type):
    key: Type
    value: Type

    def __str__(self):
        return f"map of {self.key} to {self.value}"


@dataclass(frozen=True)
class TupleT(Type):
    items: tuple[Type, ...]

    def __str__(self):
        return "(" + ", ".join(str(t) for t in self.items) + ")"


INT, BOOL, TEXT, NONE, ANY, SEAT, RELATION = IntT(), BoolT(), TextT(), NoneT(), AnyT(), SeatT(), RelationT()


def is_int(t: Type) -> bool:
    return isinstance(t, (IntT, ScoreT, AnyT))


def is_bool(t: Type) -> bool:
    return isinstance(t, (BoolT, AnyT))


def is_cell(t: Type) -> bool:
    """A cell, or a (row, column) pair of numbers written as a literal."""
    return isinstance(t, (CellT, AnyT)) or (isinstance(t, TupleT) and len(t.items) == 2
                                           and all(is_int(x) for x in t.items))


def is_coll(t: Type) -> bool:
    return isinstance(t, (CollT, AnyT))


def same(a: Type, b: Type) -> bool:
    """Whether values of a and b can be compared with ``==``."""
    if isinstance(a, AnyT) or isinstance(b, AnyT) or isinstance(a, NoneT) or isinstance(b, NoneT):
        return True
    if is_int(a) and is_int(b):
        return True
    if is_cell(a) and is_cell(b):
        return True
    if isinstance(a, CollT) and isinstance(b, CollT):
        return same(a.elem, b.elem)
    if isinstance(a, TupleT) and isinstance(b, TupleT):
        return len(a.items) == len(b.items) and all(same(x, y) for x, y in zip(a.items, b.items))
    return a == b


def assignable(value: Type, target: Type) -> bool:
    if isinstance(value, AnyT) or isinstance(target, AnyT):
        return True
    if isinstance(target, IntT):
        return is_int(value)
    if isinstance(target, CellT) and isinstance(value, CellT):
        return target.grid is None or value.grid is None or target.grid == value.grid
    if isinstance(target, CellT):
        return is_cell(value)
    if isinstance(target, CollT) and isinstance(value, CollT):
        # An empty literal has element type ?; a set or list can stand for a pile.
        return assignable(value.elem, target.elem)
    if isinstance(target, EnumT) and isinstance(value, NoneT):
        return True
    return value == target


def join(a: Type, b: Type) -> Type | None:
    """The common type of two branches (if/else, list items), or None."""
    if isinstance(a, AnyT):
        return b
    if isinstance(b, AnyT):
        return a
    if isinstance(a, NoneT):
        return b
    if isinstance(b, NoneT):
        return a
    if is_int(a) and is_int(b):
        return a if a == b else INT
    if isinstance(a, CellT) and isinstance(b, CellT):
        return a if a.grid == b.grid else CellT(a.grid or b.grid)
    if isinstance(a, CollT) and isinstance(b, CollT):
        elem = join(a.elem, b.elem)
        if elem is None:
            return None
        return CollT(a.kind if a.kind == b.kind else "list", elem)
    if a == b:
        return a
    return None


def equality_shape(a: Type, b: Type):
    """How two values of types ``a`` and ``b`` are compared when a set or a pile is held
    inside them, as the run time's ``same`` and ``canon`` read it; None when ``==`` on the
    values as they are says it. ``("set", inner)``: sets on both sides, compared by their
    members; ``("bag", inner)``: a pile at the top, or a set against a list or a pile,
    compared as multisets (a set equals a list holding each of its members once); inside a
    list, a pile or a tuple, a pile or a list is compared in order (``("list", inner)``), a
    tuple item by item (``("tuple", items)``). A record keeps what it holds in one order of
    its own (``held_shape``, ``runtime.record_class``): it is compared as it is."""
    return _shape(a, b, top=True)


def held_shape(t: Type):
    """The order a record keeps a field of type ``t`` in: each set it holds (itself, or
    inside a list, a pile or a tuple) in one order of its own, once each member; a pile or
    a list as it is. None: the field as it is."""
    return _shape(t, t, top=False)


def _shape(a: Type, b: Type, top: bool):
    if isinstance(a, NoneT) or isinstance(b, NoneT):
        return None
    if isinstance(a, CollT) or isinstance(b, CollT):
        kinds = {t.kind for t in (a, b) if isinstance(t, CollT)}
        inner = _shape(getattr(a, "elem", ANY), getattr(b, "elem", ANY), top=False)
        if kinds == {"set"}:
            return ("set", inner)
        if "set" in kinds or (top and "pile" in kinds):
            return ("bag", inner)
        return ("list", inner) if inner is not None else None
    if isinstance(a, TupleT) and isinstance(b, TupleT) and len(a.items) == len(b.items):
        items = tuple(_shape(x, y, top=False) for x, y in zip(a.items, b.items))
        return ("tuple", items) if any(s is not None for s in items) else None
    return None
