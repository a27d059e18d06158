"""The runtime as it was before the speed-ups: what ``Interpreter(program, fast=False)``
puts in place of the runtime's faster functions (the baseline ``benchmarks/play.py``
measures the games against, and the tests check the same games against).
"""
from __future__ import annotations

import collections
from typing import Iterable

from rulewright.compiler.semantics import runtime as rt


def _placements(board: rt.Board) -> tuple:
    """``placements`` as it was: computed each time, the frame measured for each cell."""
    if not board.floating:
        return tuple(p for p in rt.frame(board.rows, board.cols) if p not in board.cards)
    if not board.cards:
        return ((0, 0),)
    r0, c0, r1, c1 = board.bbox()
    out = []
    for r in range(r1 - board.rows + 1, r0 + board.rows):
        for c in range(c1 - board.cols + 1, c0 + board.cols):
            if (r, c) not in board.cards and board.fits_with((r, c)):
                out.append((r, c))
    return tuple(out)


def _placed(board: rt.Board, card: str, pos, free: bool = False) -> rt.Board:
    """``placed`` as it was: the new grid's bounding box measured again from its cards, the
    cell checked again even where ``free_at`` had (``free``)."""
    return rt.normalised(rt.with_card(board, card, pos))


def _sort_values(items) -> tuple:
    return tuple(sorted(rt.as_tuple(items), key=repr))


def _multiset_eq(a: Iterable, b: Iterable) -> bool:
    return sorted(map(repr, a)) == sorted(map(repr, b))


def _ranked(pairs) -> tuple:
    """``ranked`` as it was: indices sorted by a key read in Python, groups made in a loop."""
    order = sorted(range(len(pairs)), key=lambda i: pairs[i][0], reverse=True)
    groups: list = []
    last = object()
    for i in order:
        key, elem = pairs[i]
        if groups and key == last:
            groups[-1].append(elem)
        else:
            groups.append([elem])
            last = key
    return tuple(tuple(g) for g in groups)


def _allocate(supply: int, claims, stop: bool, even: bool = False) -> dict:
    """``allocate`` as it was: the groups ``_ranked`` makes, served as now."""
    return rt.served(max(0, supply), _ranked([(key, (who, max(0, need))) for key, who, need in claims]),
                     stop, even)


class Seat(rt.Seat):
    """A seat as it was: compared by its index and name, hashed by its index, in Python
    (the baseline's games are played with these; ``Interpreter.seats_for``)."""

    def __eq__(self, other):
        return isinstance(other, rt.Seat) and other.index == self.index and other.name == self.name

    def __hash__(self):
        return self.index


# what the generated code calls, by name
BASELINE = {"subsets_of": lambda items, most=None: rt._subsets(items, most, typed=False),
            "sort_values": _sort_values, "multiset_eq": _multiset_eq, "placements": _placements,
            "placed": _placed, "ranked": _ranked, "allocate": _allocate,
            "free_at": lambda board, pos: pos in _placements(board),
            "contents": lambda board: tuple(board.cards[p] for p in sorted(board.cards)),
            "within": lambda small, big: not collections.Counter(small) - collections.Counter(big),
            # (taking nothing off copied the values, as it did)
            "minus": lambda a, b: rt.minus(a, b) if len(b) else tuple(list(rt.as_tuple(a)))}
