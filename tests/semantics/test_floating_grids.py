"""A floating grid (``grid g: R by C of card floating``): not anchored until full, its cards
only have to fit in one R x C window. Checked against that definition on random grids:
where a card may go (``placements``) and where ``placed`` puts one or refuses it."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulewright.compiler.diagnostics import RuntimeRulesError
from rulewright.compiler.semantics import runtime as rt

ROWS, COLS = 3, 4


def fits(cells) -> bool:
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    return max(rows) - min(rows) < ROWS and max(cols) - min(cols) < COLS


@st.composite
def floating(draw):
    """A floating grid grown card by card, each card where it fits."""
    cards: dict = {}
    for _ in range(draw(st.integers(1, ROWS * COLS - 1))):
        pos = (draw(st.integers(-ROWS, 2 * ROWS)), draw(st.integers(-COLS, 2 * COLS)))
        if pos not in cards and fits(list(cards) + [pos]):
            cards[pos] = draw(st.sampled_from(["a", "b"]))
    return rt.normalised(rt.Board("g", ROWS, COLS, True, cards))


@settings(max_examples=150, deadline=None)
@given(floating())
def test_a_card_may_go_where_every_card_still_fits_one_window(board):
    near = {(r, c) for r in range(-ROWS, 2 * ROWS) for c in range(-COLS, 2 * COLS)}
    expected = {p for p in near if p not in board.cards and fits(list(board.cards) + [p])}
    assert list(rt.placements(board)) == sorted(expected)        # (in reading order: a choice's options)
    for p in sorted(near - set(board.cards)):
        if p in expected:
            grown = rt.placed(board, "a", p)
            assert len(grown.cards) == len(board.cards) + 1 and fits(list(grown.cards))
            assert min(r for r, _ in grown.cards) == 0 and min(c for _, c in grown.cards) == 0   # normalised
        else:
            with pytest.raises(RuntimeRulesError, match="would not fit"):
                rt.placed(board, "a", p)


@settings(max_examples=50, deadline=None)
@given(st.sets(st.tuples(st.integers(0, ROWS - 1), st.integers(0, COLS - 1))))
def test_a_fixed_grid_offers_its_free_cells_in_reading_order(taken):
    board = rt.Board("g", ROWS, COLS, False, {p: "a" for p in taken})
    assert rt.placements(board) == tuple(sorted({(r, c) for r in range(ROWS) for c in range(COLS)} - taken))


def test_a_card_one_row_beyond_the_window_is_refused():
    """Three rows of cards: a fourth row above or below does not fit a 3-row grid."""
    board = rt.normalised(rt.Board("g", ROWS, COLS, True, {(0, 0): "a", (2, 0): "b"}))
    for pos in ((3, 0), (-1, 0), (3, 1)):
        with pytest.raises(RuntimeRulesError, match="would not fit the 3 x 4 grid"):
            rt.placed(board, "a", pos)
    assert set(rt.placed(board, "a", (1, 3)).cards) == {(0, 0), (2, 0), (1, 3)}


def test_a_placement_known_free_is_not_checked_again():
    """``placed(..., free=True)`` (the game asked ``free_at`` already) runs none of the
    checks: a cell that would be refused is taken as given, where the checked call refuses
    it; a free cell gives the same grid either way."""
    board = rt.normalised(rt.Board("g", ROWS, COLS, True, {(0, 0): "a", (2, 0): "b"}))
    for pos in ((3, 0), (0, 0)):
        with pytest.raises(RuntimeRulesError):
            rt.placed(board, "a", pos)
        assert rt.placed(board, "a", pos, True).cards[pos] == "a"
    fixed = rt.Board("g", ROWS, COLS, False, {(0, 0): "a"})
    assert rt.placed(fixed, "a", (5, 5), True).cards[(5, 5)] == "a"
    assert rt.placed(board, "a", (1, 3), True).cards == rt.placed(board, "a", (1, 3)).cards


def reached(pos, steps, rays: bool) -> tuple:
    """The definition: the frame's cells one step away (offsets), or any number of steps
    along each direction (rays), in the order of the steps, each cell once."""
    out: list = []
    for dr, dc in steps:
        for k in range(1, 30 if rays else 2):
            q = (pos[0] + k * dr, pos[1] + k * dc)
            if 0 <= q[0] < ROWS and 0 <= q[1] < COLS and q not in out:
                out.append(q)
    return tuple(out)


STEPS = st.lists(st.tuples(st.integers(-2, 2), st.integers(-2, 2)).filter(lambda d: d != (0, 0)),
                 min_size=1, max_size=4, unique=True)


@settings(max_examples=300, deadline=None)
@given(STEPS, st.integers(-ROWS, 2 * ROWS), st.integers(-COLS, 2 * COLS), st.booleans())
def test_a_relation_reaches_the_cells_of_its_definition_from_inside_the_frame_and_outside(steps, r, c, rays):
    """From any position, a placement candidate of a floating grid up to a frame's height
    or width outside included: offsets one step, rays any number of steps."""
    relation = rt.Relation(rays=tuple(steps)) if rays else rt.Relation(offsets=tuple(steps))
    assert relation.apply((r, c), ROWS, COLS) == reached((r, c), steps, rays)


@st.composite
def grown(draw):
    """A floating grid grown as a game grows it, each card beside one already there, and
    sometimes one card put anywhere it fits."""
    cards = {(0, 0): "a"}
    for _ in range(draw(st.integers(1, ROWS * COLS - 2))):
        r, c = draw(st.sampled_from(sorted(cards)))
        dr, dc = draw(st.sampled_from([(-1, 0), (1, 0), (0, -1), (0, 1)]))
        pos = (r + dr, c + dc)
        if pos not in cards and fits(list(cards) + [pos]):
            cards[pos] = "b"
    if draw(st.booleans()):
        pos = (draw(st.integers(-ROWS, 2 * ROWS)), draw(st.integers(-COLS, 2 * COLS)))
        if pos not in cards and fits(list(cards) + [pos]):
            cards[pos] = "c"
    return rt.normalised(rt.Board("g", ROWS, COLS, True, cards))


@settings(max_examples=200, deadline=None)
@given(st.one_of(floating(), grown()))
def test_a_lone_card_is_one_not_connected_side_by_side_to_the_first(board):
    cards = set(board.cards)
    start = min(cards)
    seen, todo = {start}, [start]
    while todo:
        r, c = todo.pop()
        for q in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if q in cards and q not in seen:
                seen.add(q)
                todo.append(q)
    lone = rt.lone_card(board)
    assert (lone is None) == (seen == cards)
    assert lone is None or lone in cards - seen


@settings(max_examples=100, deadline=None)
@given(floating(), st.booleans())
def test_a_card_placed_where_it_is_known_free_is_placed_as_when_checked(board, fixed):
    """``placed(g, k, p, free=True)`` (a game's placement, ``free_at`` having said yes) is
    the grid ``placed`` makes with its checks: the same cards, the same places, the same
    bounding box, on a floating grid and on a fixed one."""
    if fixed:
        board = rt.Board("g", ROWS, COLS, False, {p: k for p, k in board.cards.items()
                                                  if 0 <= p[0] < ROWS and 0 <= p[1] < COLS})
    for p in rt.placements(board):
        assert rt.free_at(board, p)
        quick, checked = rt.placed(board, "b", p, free=True), rt.placed(board, "b", p)
        assert quick == checked and quick.cards == checked.cards and quick.bbox() == checked.bbox()


def test_a_game_placing_where_no_card_may_go_is_refused_before_and_after_the_speed_ups(tmp_path):
    """A game's placement is checked (``free_at``) before it is made unchecked: a cell taken,
    or one off the grid, is refused with the same words by both interpreters."""
    from rulewright.compiler import load
    from rulewright.compiler.diagnostics import IllegalMoveError
    from rulewright.compiler.interpret import Interpreter
    from helpers import spec
    for at, floating_grid in (("(0, 0)", True), ("(0, 0)", False), ("(5, 5)", False), ("(0, 4)", True)):
        text = f"""
game g "G"
enum tile {{ a, b }}
grid plot: 2 by 2 of tile{' floating' if floating_grid else ''}
state {{ pool: pile of tile = [a, b, a] }}
per seat {{ grown: plot }}
mode play "Play" players 1 {{
  seats players
  for s in seats {{
    place a from pool on grown(s) at (0, 0)
    place b from pool on grown(s) at {at}
  }}
}}
"""
        program = load(spec(tmp_path, text))
        said = []
        for interp in (Interpreter(program), Interpreter(program, fast=False)):
            with pytest.raises(IllegalMoveError) as caught:
                interp.play("play", 1, 0)
            said.append(str(caught.value).splitlines()[0])
        assert said[0] == said[1] and "cannot place 'b'" in said[0], said


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 10_000), min_size=1, max_size=ROWS * COLS), st.booleans(), st.booleans())
def test_the_free_cells_carried_from_grid_to_grid_are_those_made_anew(picks, fixed, offside):
    """A grid grown card by card where its placements allow: a grid made from one whose free
    cells were made, with its cards in the same places and the same frame of cells, takes
    those cells but the new card's (``placed``); they are the cells made anew, in order, at
    every card (floating and fixed grids; one starting with a card off its corner, moved
    back at the next card)."""
    board = rt.Board("g", ROWS, COLS, not fixed, {(1, 1): "a"} if offside and not fixed else {})
    for n, pick in enumerate(picks):
        cells = rt.placements(board) if n % 3 else rt._free_cells(board)      # (sometimes not made)
        if not cells:
            break
        board = rt.placed(board, "a", cells[pick % len(cells)], free=bool(n % 2))
        assert rt.placements(board) == rt._free_cells(board)


def test_free_cells_are_carried_where_the_frame_stays():
    """(What the test above checks is carried at all: a fixed grid's free cells at each card,
    a floating grid's when its card lands inside its box.)"""
    board = rt.Board("g", ROWS, COLS, False)
    for pos in ((0, 0), (1, 1), (2, 3)):
        rt.placements(board)
        board = rt.placed(board, "a", pos)
        assert board._free is not None and (0, 0) not in board._free
    grown = rt.Board("g", ROWS, COLS, True, {(0, 0): "a", (2, 2): "a"})
    rt.placements(grown)
    inside = rt.placed(grown, "b", (1, 1))
    outside = rt.placed(inside, "b", (0, 3))
    assert inside._free is not None and outside._free is None
