"""The runtime as it was before the speed-ups: what ``Interpreter(program, fast=False)``
puts in place of the runtime's faster functions (the baseline ``benchmarks/play.py``
measures the games against, and the tests check the same games against).
"""
from __future__ import annotations

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


def _placed(board: rt.Board, card: str, pos) -> rt.Board:
    """``placed`` as it was: the new grid's bounding box measured again from its cards."""
    if pos in board.cards:
        raise rt.RuntimeRulesError(f"cell {rt.pos_text(pos)} is already taken")
    if board.floating:
        if not board.fits_with(pos):
            raise rt.RuntimeRulesError(f"a card at {rt.pos_text(pos)} would not fit the {board.rows} x "
                                       f"{board.cols} grid")
    elif not (0 <= pos[0] < board.rows and 0 <= pos[1] < board.cols):
        raise rt.RuntimeRulesError(f"cell {rt.pos_text(pos)} is outside the {board.rows} x {board.cols} grid")
    new = rt.Board(board.grid, board.rows, board.cols, board.floating, board.cards)
    new.cards[pos] = card
    box = new.bbox()
    if box is None or not new.floating or box[:2] == (0, 0):
        return new
    return rt.Board(new.grid, new.rows, new.cols, new.floating,
                    {(r - box[0], c - box[1]): k for (r, c), k in new.cards.items()})


def _sort_values(items) -> tuple:
    return tuple(sorted(rt.as_tuple(items), key=repr))


def _multiset_eq(a: Iterable, b: Iterable) -> bool:
    return sorted(map(repr, a)) == sorted(map(repr, b))


# what the generated code calls, by name
BASELINE = {"subsets_of": lambda items, most=None: rt._subsets(items, most, typed=False),
            "sort_values": _sort_values, "multiset_eq": _multiset_eq, "placements": _placements,
            "placed": _placed}
