"""The cells of a collection next to a grid's cards, as sets rather than cell by cell: what
a choice of a cell filtered by "a cell its relation reaches holds a card" keeps (the
options of a placement: ``choose spot in placements(g) where any(occupied(g, n) for n in
adjacent(spot))``). The generated code calls it as ``rt.near_cards`` (``codegen.near_cards``
says when)."""
from __future__ import annotations

from itertools import compress
from operator import not_


def near_cards(cells, cards: dict, table) -> list:
    """The values of ``cells``, in their order, from which ``table`` (a relation's table on
    a grid: cell -> the cells it reaches) reaches a key of ``cards``: what ``[x for x in cells
    if not cards.keys().isdisjoint(table[x])]`` keeps. Found from the cards' side, in C: the
    cells each card is reached from (``table.inverse``), gathered into one set the cells are
    then looked up in; where a card lies outside the table's grid, or the relation has rays,
    the cells are tested one by one (in C too), as the filter would."""
    inverse = table.inverse
    if inverse is not None:
        try:
            near = set().union(*map(inverse.__getitem__, cards))
        except KeyError:
            pass
        else:
            return [*filter(near.__contains__, cells)]
    return list(compress(cells, map(not_, map(cards.keys().isdisjoint, map(table.__getitem__, cells)))))
