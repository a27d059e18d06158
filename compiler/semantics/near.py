"""The cells of a collection next to a grid's cards, as sets rather than cell by cell: what
a choice of a cell filtered by "a cell its relation reaches holds a card" keeps (the
options of a placement: ``choose spot in placements(g) where any(occupied(g, n) for n in
adjacent(spot))``). The generated code calls it as ``rt.near_cards`` (``codegen.near_cards``
says when).

The cells near a grid's cards are kept on the grid (grids never change once made), and
carried to the grid made from it with one more card in the same places (``carried``: the
cells near the new card added), so a grid that grows card by card is not gathered anew at
each of its choices."""
from __future__ import annotations

from itertools import compress
from operator import not_


def near_cards(cells, cards: dict, table, board) -> list:
    """The values of ``cells``, in their order, from which ``table`` (a relation's table on
    a grid: cell -> the cells it reaches) reaches a key of ``cards`` (``board``'s cards):
    what ``[x for x in cells if not cards.keys().isdisjoint(table[x])]`` keeps. Found from
    the cards' side, in C: the cells each card is reached from (``table.inverse``), gathered
    into one set (kept on ``board``) that the cells are then looked up in; where a card
    lies outside the table's grid, or the relation has rays, the cells are tested one by
    one (in C too), as the filter would."""
    inverse = table.inverse
    if inverse is not None:
        kept = board._near
        got = kept.get(id(table)) if kept is not None else None
        if got is not None and got[0] is table:
            near = got[1]
        else:
            try:
                near = set().union(*map(inverse.__getitem__, cards))
            except KeyError:
                near = None
            else:
                if kept is None:
                    kept = board._near = {}
                kept[id(table)] = (table, near)       # (the table held: its id is no other's)
        if near is not None:
            return [*filter(near.__contains__, cells)]
    return list(compress(cells, map(not_, map(cards.keys().isdisjoint, map(table.__getitem__, cells)))))


def carried(before, after, pos) -> None:
    """``after`` holds the cards of the grid ``before`` in the same places and one more on
    ``pos``: the cells near ``before``'s cards kept for a table are kept for ``after`` with
    those the table reaches ``pos`` from (none where ``pos`` lies outside the table's grid:
    gathered again if asked)."""
    kept = before._near
    if kept:
        made = {}
        for key, (table, near) in kept.items():
            more = table.inverse.get(pos)
            if more is not None:
                made[key] = (table, near.union(more))
        after._near = made or None
