"""Values that hold a set or a pile, compared as the language says: each set by its
members, a pile at the top whatever its order (``types.equality_shape`` reads the shape
from the operands' types; a record keeps what it holds in one order: ``held_shape``).

In:  values of the run time (``runtime``'s tuples, piles and records) and their shape.
Out: ``canon`` (a value with each set it holds in one order, once each member),
     ``in_order`` (values in one order of their own, by value), ``same`` and ``same_in``
     (``==`` and ``in`` for such values). The generated code reads them as ``rt.NAME``.
"""
from __future__ import annotations

from rulewright.compiler.semantics.subsets import plain_texts


def _items(value) -> tuple:
    """A collection's items: a tuple as it is, a pile of the state its cards (it iterates
    them), a set or a list made otherwise as a tuple."""
    return value if type(value) is tuple else tuple(value)


def canon(value, shape):
    """``value`` with every set it holds in one order of its own (``in_order``), once each
    member, and, at a ``bag``, its items too: two values are equal under
    ``types.equality_shape`` when these are."""
    if shape is None or value is None:
        return value
    kind, inner = shape
    if kind == "set" or kind == "bag":
        items = _items(value) if inner is None else [canon(x, inner) for x in _items(value)]
        if kind == "set":
            items = dict.fromkeys(items)
        return in_order(items)
    if kind == "list":
        return tuple(canon(x, inner) for x in _items(value))
    return tuple(canon(x, s) for x, s in zip(value, inner))


def in_order(items) -> tuple:
    """``items`` in one order of their own, whatever the order given: by value, numbers
    before texts before tuples (a total's score is its number)."""
    items = tuple(items)
    if plain_texts(items):
        return tuple(sorted(items))
    return tuple(sorted(items, key=_order_key))


def _order_key(x):
    if isinstance(x, int):              # (a truth value, a number, a score: its number)
        return (0, int(x), "")
    if isinstance(x, str):
        return (1, 0, x)
    if x is None:
        return (3, 0, "")
    if isinstance(x, tuple):
        name = getattr(x, "rw_name", "")
        return (2, 0, name, tuple(map(_order_key, x[1:] if name else x)))
    return (4, 0, repr(x))


def same(a, b, shape) -> bool:
    """``a == b`` where a set or a pile is held inside them (``shape``: see ``canon``)."""
    return a == b or canon(a, shape) == canon(b, shape)


def same_in(x, items, shape) -> bool:
    """``x in items`` where a set or a pile is held inside the elements (see ``same``)."""
    if x in items:
        return True
    cx = canon(x, shape)
    return any(canon(y, shape) == cx for y in _items(items))
