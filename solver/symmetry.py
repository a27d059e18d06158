"""Symmetry breaking for grids chosen whole by a query.

In:  the encoder after a query is encoded, and the query.
Out: lex-leader constraints (a grid is never larger, cell by cell in reading
     order, than its own mirror image) for every mirror image of the grid that
     maps every relation the query's rules use onto itself; the count added.

The check is made on the compiled relations, not assumed: for instance the
left-right mirror keeps "adjacent", the diagonals, "two away" and "below in the
same column", while the top-bottom mirror breaks "below", so a spec that reads
"below" gets only the left-right mirror. Queries that read positions (``row``,
``column``, ``first``, ``take``, ``extends``, ``placed``...) or cells the check
cannot see (an input or the game state holding cells, a cell built from values
that are not constants) get no symmetry breaking.
"""
from __future__ import annotations

from rulewright.compiler import ir as I
from rulewright.compiler.resolve import RelData
from rulewright.compiler.types import BoardT, CellT, CollT, TupleT

from rulewright.compiler.semantics.operators import GRID_POSITIONS
from rulewright.solver.symbolic import BoardV

POSITIONAL = {"row", "column", "first", "take"} | GRID_POSITIONS


def _mirrors(rows: int, cols: int):
    out = {
        "left-right": lambda r, c: (r, cols - 1 - c),
        "top-bottom": lambda r, c: (rows - 1 - r, c),
        "half-turn": lambda r, c: (rows - 1 - r, cols - 1 - c),
    }
    if rows == cols:
        out["transpose"] = lambda r, c: (c, r)
        out["anti-transpose"] = lambda r, c: (cols - 1 - c, rows - 1 - r)
    return out


def _walk(program: I.Program, roots, seen_defs: set[str]):
    """Every expression node reachable from ``roots`` (expressions or statements),
    through every part of every node (``ir.children``: an aggregate's key and supply
    too) and through calls into definitions and scorings."""
    stack = list(roots)
    while stack:
        node = stack.pop()
        if isinstance(node, I.Expr):
            yield node
            if isinstance(node, (I.Call, I.Global)) and node.name not in seen_defs:
                seen_defs.add(node.name)
                if node.name in program.funcs and program.funcs[node.name].body is not None:
                    stack.append(program.funcs[node.name].body)
                elif node.name in program.scorings:
                    for step in program.scorings[node.name].steps:
                        stack.extend(step.body)
        stack.extend(I.children(node))


def _cells_in(value):
    if isinstance(value, tuple):
        if len(value) == 2 and all(isinstance(x, int) and not isinstance(x, bool) for x in value):
            return True
        return any(_cells_in(v) for v in value)
    return False


def _canon(value, sigma):
    """A set-of-sets normal form of a constant holding cells, after mapping by sigma."""
    if isinstance(value, tuple) and len(value) == 2 and all(isinstance(x, int) and not isinstance(x, bool)
                                                             for x in value):
        return sigma(*value)
    if isinstance(value, tuple):
        return frozenset(_canon(v, sigma) for v in value)
    return value


def _holds_cells(t) -> bool:
    """Whether values of a type hold cells or grids."""
    if isinstance(t, (CellT, BoardT)):
        return True
    if isinstance(t, CollT):
        return _holds_cells(t.elem)
    if isinstance(t, TupleT):
        return any(_holds_cells(x) for x in t.items)
    return False


def _maybe_cell(t) -> bool:
    """A cell, or a pair of numbers that may be compared with one."""
    return isinstance(t, CellT) or (isinstance(t, TupleT) and len(t.items) == 2
                                     and all(str(x) == "int" for x in t.items))


def _unseen_cells(query: I.QueryDef, nodes) -> bool:
    """Whether the query reads cells the check cannot see: from an input, from the
    game state, or a cell built from values that are not constants (``(0, col)``)."""
    if any(_holds_cells(t) for _, t, _ in query.inputs):
        return True
    for n in nodes:
        if isinstance(n, I.SeatVar) and _holds_cells(n.type):
            return True
        if isinstance(n, I.Global) and _holds_cells(n.type):
            return True
        if isinstance(n, I.Op) and n.op == "make_tuple" and _maybe_cell(n.type) \
                and not all(isinstance(a, I.Const) for a in n.args):
            return True
    return False


def grid_symmetries(program: I.Program, query: I.QueryDef, grid: I.GridInfo):
    """Mirror images of ``grid`` under which everything the query reads is unchanged."""
    nodes = list(_walk(program, query.body, set()))
    if any(isinstance(n, I.Op) and n.op in POSITIONAL for n in nodes) or _unseen_cells(query, nodes):
        return []
    cells = grid.cells
    found = []
    for name, sigma in _mirrors(grid.rows, grid.cols).items():
        ok = True
        for n in nodes:
            if isinstance(n, I.Op) and isinstance(n.data, RelData):
                table = n.data.table
                for c in cells:
                    if {sigma(*x) for x in table[c]} != set(table[sigma(*c)]):
                        ok = False
                        break
            elif isinstance(n, I.Const) and _cells_in(n.value):
                ident = _canon(n.value, lambda r, c: (r, c))
                if _canon(n.value, sigma) != ident:
                    ok = False
            if not ok:
                break
        if ok:
            found.append((name, sigma))
    return found


def break_symmetries(enc, query: I.QueryDef) -> int:
    added = 0
    for board in enc.boards:
        if not isinstance(board, BoardV):
            continue
        sigmas = grid_symmetries(enc.program, query, board.grid)
        if not sigmas:
            continue
        values = list(next(iter(board.cells.values())).lits)
        index = {}
        for cell, e in board.cells.items():
            index[cell] = enc.linear([(values.index(v), enc.boolv(lit)) for v, lit in e.lits.items()
                                      if not isinstance(lit, bool)])
        order = list(board.cells)
        enc.symmetries.append((board, values, [sigma for _, sigma in sigmas]))
        for name, sigma in sigmas:
            prefix = True
            for cell in order:
                image = sigma(*cell)
                if order.index(image) <= order.index(cell):
                    continue
                a, b = index[cell], index[image]
                le = enc.cmp(a, "<=", b)
                enc.implies(prefix, le)
                prefix = enc.and_([prefix, enc.cmp(a, "==", b)])
                if prefix is False:
                    break
            added += 1
    return added


def canonical(enc, board_sym, cards: dict) -> dict:
    """The image of a concrete grid (cell -> value) that the lex-leader constraints accept."""
    for sym, values, sigmas in getattr(enc, "symmetries", []):
        if sym is not board_sym:
            continue
        order = list(sym.cells)

        def key(cs):
            return [values.index(cs.get(c)) for c in order]
        images = [cards] + [{sigma(*c): v for c, v in cards.items()} for sigma in sigmas]
        return min(images, key=key)
    return cards
