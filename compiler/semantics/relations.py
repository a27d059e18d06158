"""A relation between the cells of a grid, as a spec writes it: fixed steps
(``offsets(...)``) and repeated steps (``rays(...)``).

In:  the steps written, or collections of them.
Out: ``Relation`` (``apply``: the cells it reaches from a cell, inside a frame; ``+``: two
     relations as one), ``relation_of``. The generated code reads them as ``rt.Relation``
     and ``rt.relation_of``; ``runtime.RelationTable`` keeps what one reaches on one grid.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Relation:
    """Cells reached from a cell: fixed ``offsets`` and ``rays`` (repeated steps)."""

    offsets: tuple[tuple[int, int], ...] = ()
    rays: tuple[tuple[int, int], ...] = ()

    def __add__(self, other: "Relation") -> "Relation":
        return Relation(tuple(dict.fromkeys(self.offsets + other.offsets)),
                        tuple(dict.fromkeys(self.rays + other.rays)))

    def apply(self, pos, rows: int, cols: int) -> tuple:
        r, c = pos
        out = []
        for dr, dc in self.offsets:
            q = (r + dr, c + dc)
            if 0 <= q[0] < rows and 0 <= q[1] < cols and q not in out:
                out.append(q)
        # A ray from a position outside the frame (a placement candidate of a floating
        # grid, up to a grid's height or width beyond it) still sees in: it is followed
        # until it has crossed the frame, or far enough that it never will.
        reach = rows + cols + abs(r) + abs(c) + 2
        for dr, dc in self.rays:
            qr, qc = r + dr, c + dc
            entered = False
            for _ in range(reach):
                inside = 0 <= qr < rows and 0 <= qc < cols
                if inside and (qr, qc) not in out:
                    out.append((qr, qc))
                elif entered and not inside:
                    break
                entered = entered or inside
                qr += dr
                qc += dc
        return tuple(out)

    def describe(self) -> str:
        parts = []
        if self.offsets:
            parts.append("offsets " + " ".join(f"({a},{b})" for a, b in self.offsets))
        if self.rays:
            parts.append("rays " + " ".join(f"({a},{b})" for a, b in self.rays))
        return "; ".join(parts) or "nothing"


def relation_of(kind: str, *given) -> Relation:
    """``offsets(...)`` or ``rays(...)``: steps written out, or collections of steps
    (computed: every step within a distance), in order, each once."""
    offsets_ = []
    for g in given:
        if isinstance(g, tuple) and len(g) == 2 and all(isinstance(x, int) for x in g):
            offsets_.append(g)                             # a step: (row, column)
        else:
            offsets_.extend(tuple(x) for x in g)           # a collection of steps
    offsets_ = tuple(dict.fromkeys(offsets_))
    return Relation(offsets=offsets_) if kind == "offsets" else Relation(rays=offsets_)
