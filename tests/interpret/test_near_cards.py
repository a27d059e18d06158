"""A choice of a cell filtered by "a cell its relation reaches holds a card" (the options of a
placement) is made as sets, from the cards' side (``rt.near_cards``, ``codegen.near_cards``):
the same options in the same order as the interpreter without the speed-ups, which tests
each cell in turn; the same steps counted, the same errors where it locates them."""
import itertools
import random

import pytest

from rulewright.compiler import load
from rulewright.compiler.diagnostics import IllegalMoveError, RuntimeRulesError
from rulewright.compiler.interpret import Interpreter, RandomAgent, codegen
from rulewright.compiler.semantics import runtime as rt

from helpers import spec

GAME = """
game g "G"
enum tile { a, b, c }
grid plot: 3 by 4 of tile floating
relation adjacent "Adjacent cells" = offsets((-1, 0), (1, 0), (0, -1), (0, 1))
relation leap "A knight's leap, one way" = offsets((1, 2), (2, -1), (0, 2))
relation sight "Lines" = rays((1, 1), (0, -1))
state { pool: pile of tile = [a, b, c, a, b, c, a, b, c, a, b, c, a, b, c, a, b, c, a, b, c, a, b, c] }
per seat { grown: plot  fixed: plot  hand: pile of tile }
def can_grow(g: plot, spot: cell) = empty(g) or any(occupied(g, n) for n in adjacent(spot))
def leaps(g: plot, spot: cell) = empty(g) or any(occupied(g, n) for n in leap(spot))
mode play "Play" players 1..3 {
  seats players
  for s in seats { deal 8 from pool to hand(s) }
  repeat 4 {
    for s in seats {
      choose k in hand(s) by s
      choose spot in placements(grown(s)) where can_grow(grown(s), spot) by s
      place k from hand(s) on grown(s) at spot
      choose j in hand(s) by s
      choose there in placements(fixed(s)) where empty(fixed(s)) or any(occupied(fixed(s), n) for n in sight(there)) by s
      place j from hand(s) on fixed(s) at there
    }
  }
  for s in seats {
    choose far in placements(grown(s)) where leaps(grown(s), far) by s
    report reached = far
  }
}
"""


@pytest.fixture(scope="module", params=["floating", "fixed"])
def both(tmp_path_factory, request):
    text = GAME if request.param == "floating" else GAME.replace(" of tile floating", " of tile")
    program = load(spec(tmp_path_factory.mktemp("near"), text))
    return Interpreter(program), Interpreter(program, fast=False)


def _played(interp, players, seed):
    """What the game did: its reports and log, or the error it stopped with (a one-way leap
    can leave no cell to choose)."""
    try:
        st = interp.play("play", players, seed, agent_factory=lambda seat, s: RandomAgent(s * 7 + seat.index))
    except IllegalMoveError as e:
        return str(e)
    return repr(st.reports), [(e.kind, e.seat, repr(e.detail)) for e in st.log]


def _within(interp, limit, seed):
    """A two-seat game under a budget of ``limit`` steps: what it did, or where it stopped."""
    try:
        with rt.bounded("the game", limit):
            return _played(interp, 2, seed)
    except RuntimeRulesError as e:
        return str(e)


def test_the_options_are_made_as_sets_in_the_fast_code_only(both):
    fast, slow = both
    assert fast.source.count("_rt.near_cards(") == 3 and "near_cards" not in slow.source


@pytest.mark.parametrize("players", [1, 2, 3])
def test_every_game_is_the_baseline_s(both, players):
    """A floating grid and a fixed one, a relation of steps both ways, one of steps one way only, one
    of rays (tested cell by cell, in C): every option list as the baseline's, so every
    random pick (an index into them) and every game the same."""
    fast, slow = both
    for seed in range(12):
        assert _played(fast, players, seed) == _played(slow, players, seed)


@pytest.mark.parametrize("offsets, rays", [
    (((-1, 0), (1, 0), (0, -1), (0, 1)), ()),
    (((1, 2), (2, -1), (0, 2)), ()),
    ((), ((1, 1), (0, -1))),
])
def test_near_cards_keeps_what_the_filter_keeps_on_every_board(offsets, rays):
    """Every set of up to three cards on a 3 x 3 grid (and cards beyond it: the cell-by-cell
    way), the cells in and around the grid, in a shuffled order: the cells kept, in order."""
    table = rt.RelationTable(rt.Relation(offsets=offsets, rays=rays), 3, 3)
    table.inverse = None if rays else {
        (r, c): tuple((r - dr, c - dc) for dr, dc in offsets) for r, c in rt.frame(3, 3)}
    cells = [(r, c) for r in range(-2, 5) for c in range(-2, 5)]
    random.Random(1).shuffle(cells)
    grid = list(rt.frame(3, 3))
    for n in range(4):
        for taken in itertools.combinations(grid, n):
            for cards in ({p: "a" for p in taken}, {**{p: "a" for p in taken}, (3, 5): "b"}):
                assert rt.near_cards(cells, cards, table, rt.Board("plot", 3, 3, False)) == \
                    [x for x in cells if not cards.keys().isdisjoint(table[x])]


@pytest.mark.parametrize("floating", [True, False])
def test_the_cells_near_a_growing_grid_are_carried_from_card_to_card(floating):
    """A grid grown card by card (``rt.placed``), asked at each card by two relations in
    turn: the cells kept on each grid and carried to the next (or gathered again where the
    grid was moved back into its frame) are those the filter keeps, at every card."""
    tables = []
    for offsets in (((-1, 0), (1, 0), (0, -1), (0, 1)), ((1, 2), (2, -1), (0, 2))):
        table = rt.RelationTable(rt.Relation(offsets=offsets), 3, 4)
        table.inverse = {(r, c): tuple((r - dr, c - dc) for dr, dc in offsets) for r, c in rt.frame(3, 4)}
        tables.append(table)
    rng, carried = random.Random(5), 0
    for run in range(30):
        # (every other floating grid starts with a card off its corner, as no placement
        # leaves it: the next card moves every card back into place)
        board = rt.Board("plot", 3, 4, floating, {(1, 1): "b"} if floating and run % 2 else {})
        for n in range(12):
            cells = rt.placements(board)
            for table in tables[n % 2:] + tables[:n % 2]:
                got = rt.near_cards(cells, board.cards, table, board)
                assert got == [x for x in cells if not board.cards.keys().isdisjoint(table[x])]
            if not cells:
                break
            before = board
            board = rt.placed(board, "a", rng.choice(cells))
            carried += board._near is not None and before._near is not None
    assert carried > 100        # (most grids had their near cells carried, not gathered again)


def test_a_grid_read_with_a_call_or_a_filter_reading_the_cell_twice_stays_a_loop(tmp_path):
    """Only a grid and a first test made of no call and no loop are read once for all the
    cells (reading them once would count a call's steps once); the others stay the loop."""
    text = GAME.replace("where can_grow(grown(s), spot)",
                        "where empty(grown(s)) or any(occupied(mine(s), n) for n in adjacent(spot))") \
        .replace("def can_grow", "def mine(s: seat) = grown(s)\ndef can_grow")
    program = load(spec(tmp_path, text))
    fast, slow = Interpreter(program), Interpreter(program, fast=False)
    assert fast.source.count("_rt.near_cards(") == 2
    for seed in range(4):
        assert _played(fast, 2, seed) == _played(slow, 2, seed)


def test_steps_and_running_out_are_those_of_the_cell_by_cell_test(both, monkeypatch):
    """The cells are counted as the loop counts them: a budget runs out at the same place,
    with the same message, as with each cell tested in turn (the fast code's any-occupied
    test, which counts no step for the test, as ``special_agg`` says; the baseline, which
    calls the definition and loops, counts more), for every budget up to a whole game's."""
    fast = both[0]
    monkeypatch.setattr(codegen.ExprCompiler, "near_cards", lambda self, var, where: None)
    cell_by_cell = Interpreter(fast.program)
    assert "near_cards" not in cell_by_cell.source and ".isdisjoint(" in cell_by_cell.source
    outcomes = {repr(_within(fast, limit, 3)) for limit in range(1, 2000, 9)}
    for limit in range(1, 2000, 9):
        assert _within(fast, limit, 3) == _within(cell_by_cell, limit, 3), limit
    assert len(outcomes) > 20        # (budgets that run out at many places, and some that do not)


def test_an_error_in_the_filter_is_located_at_its_rule_as_the_baseline_locates_it(tmp_path):
    """The filter's first test and grid, read once for all the cells, keep the marks of the
    definition written in: an error there (a none read: a free cell's tile) is located at
    the definition's rule, as a call's would be; one with a place of its own (a division
    by 0) at that place."""
    said = []
    for first in ("g[(0, 0)].n > 5", "12 // zero > 1"):
        text = GAME.replace("enum tile { a, b, c }", "table tile (n: int) { a | 1  b | 2  c | 3 }") \
            .replace("def can_grow(g: plot, spot: cell) = empty(g) or",
                     f"state {{ zero: int = 0 }}\ndef can_grow(g: plot, spot: cell) = {first} or")
        program = load(spec(tmp_path, text))
        fast, slow = Interpreter(program), Interpreter(program, fast=False)
        assert fast.source.count("_rt.near_cards(") == 3
        for interp in (fast, slow):
            with pytest.raises(RuntimeRulesError) as caught:
                interp.play("play", 2, 0)
            said.append(str(caught.value).splitlines()[0])
    assert said[0] == said[1] and "t.rules:11:37: error: a value that is none" in said[0], said
    assert said[2] == said[3] and "t.rules:11:37: error: cannot divide" in said[2], said


@pytest.mark.parametrize("first", ["size(1..lim) > 100", "busy"])
def test_a_first_test_that_counts_steps_stays_the_loop(tmp_path, monkeypatch, first):
    """A first test that counts steps (a range, counted by its numbers; a definition of no
    parameter, a call) is evaluated for each cell, as before: so a budget runs out where
    the cell-by-cell code's does, not later."""
    text = GAME.replace("def can_grow(g: plot, spot: cell) = empty(g) or",
                        "state { lim: int = 40 }\ndef busy = size(1..lim) > 100\n"
                        f"def can_grow(g: plot, spot: cell) = {first} or empty(g) or")
    program = load(spec(tmp_path, text))
    fast = Interpreter(program)
    assert fast.source.count("_rt.near_cards(") == 2
    monkeypatch.setattr(codegen.ExprCompiler, "near_cards", lambda self, var, where: None)
    cell_by_cell = Interpreter(program)
    for limit in range(1, 8000, 97):
        assert _within(fast, limit, 0) == _within(cell_by_cell, limit, 0), limit
