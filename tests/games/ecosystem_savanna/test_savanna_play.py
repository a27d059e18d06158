"""Whole games with random legal agents: invariants that must hold for every seed.

Every game ends with full 4 x 5 grids (Jhay's too in the solo game), and no
card is lost or duplicated: deck, hands, grids, the neutral pile and the
discard pile together always hold exactly the 132 cards of the box. The
two-player and solo games are the variants of spec/ecosystem_savanna/variants.
"""
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import savanna
from rulewright.compiler.semantics import runtime as rt


def all_cards(state) -> Counter:
    total: Counter = Counter()
    for value in state.shared.values():
        total.update(rt.as_tuple(value))
    for values in state.per.values():
        for value in values.values():
            total.update(rt.as_tuple(value))
    return total


def box(program) -> Counter:
    return Counter({k: program.enums["card"].attrs["count"][k] for k in program.enums["card"].values})


def check_game(mode: str, players: int, seed: int, variant: str | None = None):
    program, interp = savanna(variant)
    state = interp.play(mode, players, seed)
    assert all_cards(state) == box(program)
    for seat in state.seats:
        board = state.per["board"][seat]
        if seat.kind == "neutral":
            assert not board.cards
            assert len(state.per["pile"][seat]) == 20
        else:
            assert len(board.cards) == 20
            assert set(board.cards) == set(rt.frame(4, 5))
        assert not state.per["hand"][seat].cards
    return state


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(3, 6), seed=st.integers(0, 2**31))
def test_standard_games(players, seed):
    state = check_game("standard", players, seed)
    scores = state.reports["score"]
    assert set(scores) == set(state.players)
    best = max(int(s) for s in scores.values())
    assert set(state.reports["winners"]) == {p for p, s in scores.items() if int(s) == best}
    # 11 cards dealt per seat and round, 10 placed, the last one discarded
    assert len(state.shared["discard"]) == 2 * players


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_two_player_games(seed):
    state = check_game("two_player", 2, seed, variant="two_player")
    assert len(state.shared["discard"]) == 2 * 3     # the neutral hand also leaves a card


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_solo_games(seed):
    state = check_game("solo", 1, seed, variant="solo")
    # 10 + 16 x 1 + 3 x 5 cards drawn: 40 placed, 1 discarded (ES-SOLO-06)
    assert len(state.shared["discard"]) == 1
    assert len(state.shared["deck"]) == 132 - 41
    assert state.reports["margin"] == int(state.reports["score"][state.seats[0]]) - \
        int(state.reports["score"][state.seats[1]])


def test_same_seed_same_game():
    _, interp = savanna()
    a = interp.play("standard", 4, 123)
    b = interp.play("standard", 4, 123)
    assert [x.cards for x in a.per["board"].values()] == [x.cards for x in b.per["board"].values()]
    c = interp.play("standard", 4, 124)
    assert [x.cards for x in a.per["board"].values()] != [x.cards for x in c.per["board"].values()]


def test_every_placement_is_next_to_an_earlier_card():
    _, interp = savanna()
    state = interp.play("standard", 3, 9)
    placed = [e for e in state.log if e.kind == "place" and e.seat == "p1"]
    assert len(placed) == 20
    # replay p1's placements on a floating board: each must be legal when made
    board = rt.Board("ecosystem", 4, 5, True)
    for event in placed:
        pos = tuple(event.detail["at"])
        assert pos in rt.placements(board)
        if board.cards:
            r, c = pos
            assert any(q in board.cards for q in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)))
        board = rt.placed(board, event.detail["card"], pos)
    assert board == state.per["board"][state.seats[0]]
