"""The statistics of a tournament between bots: Wilson intervals against published figures
and their defining equation, shares of wins split among tied winners, each pair's share of
finishing ahead, and Bradley-Terry ratings on the Elo scale (known gaps, the order of
synthetic bots, intervals, the anchor, finite ratings for a bot that always wins)."""
from __future__ import annotations

import math

import pytest

from rulewright.app import ratings as R
from rulewright.app.ratings import (Z95, Z99, Rating, Result, Share, head_to_head, ratings, share,
                                    wilson, win_shares)

ELO_3_TO_1 = 400 * math.log10(3)   # about 191: finishing ahead 3 times in 4


def game(*finish, winners=None):
    """A game whose seats finish in the order given (best first): scores fall from the
    first seat, and the first seat wins unless ``winners`` says otherwise."""
    return Result(tuple(finish), tuple(float(len(finish) - i) for i in range(len(finish))),
                  frozenset({0} if winners is None else winners))


def duel(winner, loser, times):
    """``times`` two-seat games that ``winner`` wins, half with it in each seat."""
    out = []
    for k in range(times):
        out.append(game(winner, loser) if k % 2 == 0 else
                   Result((loser, winner), (0.0, 1.0), frozenset({1})))
    return out


def by_bot(rated):
    return {r.bot: r for r in rated}


def wilson_by_bisection(successes, trials, z):
    """The Wilson interval from its definition: the proportions q whose distance from the
    observed proportion is z standard errors at q, found by bisection on each side."""
    p = successes / trials

    def gap(q):
        return (p - q) ** 2 - z * z * q * (1 - q) / trials

    def root(lo, hi):   # gap(lo) and gap(hi) of opposite signs
        for _ in range(200):
            mid = (lo + hi) / 2
            if (gap(mid) > 0) == (gap(lo) > 0):
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2

    low = 0.0 if p == 0 else root(0.0, p)
    high = 1.0 if p == 1 else root(p, 1.0)
    return low, high


# Wilson intervals and shares

@pytest.mark.parametrize("successes, trials, low, high", [
    (5, 10, 0.2366, 0.7634),
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
    (1, 10, 0.0179, 0.4042),
])
def test_wilson_matches_published_figures(successes, trials, low, high):
    got = wilson(successes, trials)
    assert got == pytest.approx((low, high), abs=1e-4)


@pytest.mark.parametrize("successes, trials", [(0, 10), (5, 10), (10, 10), (3, 7), (2.5, 9), (37.5, 120), (1, 1)])
@pytest.mark.parametrize("z", [Z95, Z99])
def test_wilson_solves_its_defining_equation(successes, trials, z):
    assert wilson(successes, trials, z) == pytest.approx(wilson_by_bisection(successes, trials, z), abs=1e-9)


def test_wilson_edges():
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    low95, high95 = wilson(5, 10)
    low99, high99 = wilson(5, 10, Z99)
    assert low99 < low95 < 0.5 < high95 < high99
    assert wilson(5, 10)[1] - wilson(5, 10)[0] > wilson(50, 100)[1] - wilson(50, 100)[0]
    with pytest.raises(ValueError):
        wilson(11, 10)


def test_share():
    assert share(0, 0) == Share(None, 0, 0.0, 1.0, 0.0, 1.0)
    s = share(3, 4)
    assert s.value == 0.75 and s.trials == 4
    assert (s.low95, s.high95) == wilson(3, 4, Z95)
    assert (s.low99, s.high99) == wilson(3, 4, Z99)


def test_result_keeps_tuples_and_checks_its_seats():
    r = Result(["a", "b"], [1, 2], {1})
    assert r.bots == ("a", "b") and r.scores == (1, 2) and r.winners == frozenset({1})
    with pytest.raises(ValueError):
        Result(("a", "b"), (1.0,), frozenset({0}))
    with pytest.raises(ValueError):
        Result(("a", "b"), (1.0, 0.0), frozenset({2}))


# win shares

def test_a_shared_win_is_split_among_the_winners():
    results = [
        Result(("a", "b", "c"), (5.0, 5.0, 1.0), frozenset({0, 1})),   # a and b share the win
        Result(("c", "a"), (3.0, 2.0), frozenset({0})),
        Result(("b", "c", "a"), (2.0, 2.0, 2.0), frozenset({0, 1, 2})),   # three share it
    ]
    shares = win_shares(results)
    assert list(shares) == ["a", "b", "c"]
    assert shares["a"].trials == 3 and shares["a"].value == pytest.approx((0.5 + 0 + 1 / 3) / 3)
    assert shares["b"].trials == 2 and shares["b"].value == pytest.approx((0.5 + 1 / 3) / 2)
    assert shares["c"].trials == 3 and shares["c"].value == pytest.approx((0 + 1 + 1 / 3) / 3)
    total_wins = sum(s.value * s.trials for s in shares.values())
    assert total_wins == pytest.approx(len(results))


def test_a_game_nobody_won_counts_no_win():
    shares = win_shares([Result(("a", "b"), (0.0, 0.0), frozenset())])
    assert shares["a"].value == 0.0 and shares["b"].value == 0.0


def test_a_bot_holding_several_seats_counts_each_seat():
    results = [Result(("a", "a", "b"), (3.0, 1.0, 2.0), frozenset({0})),
               Result(("b", "a", "a"), (3.0, 2.0, 1.0), frozenset({0}))]
    shares = win_shares(results)
    assert shares["a"].trials == 4 and shares["a"].value == 0.25
    assert shares["b"].trials == 2 and shares["b"].value == 0.5
    h = head_to_head(results)
    assert set(h) == {("a", "b"), ("b", "a")}   # a's seats are not compared with each other
    # game 1: a's winning seat ahead of b, a's second seat behind; game 2: b ahead of both
    assert h[("a", "b")].trials == 4 and h[("a", "b")].value == 0.25
    assert h[("b", "a")].trials == 4 and h[("b", "a")].value == 0.75
    assert [r.games for r in sorted(ratings(results), key=lambda r: r.bot)] == [2, 2]


# head to head

def test_head_to_head_winners_then_scores_then_ties():
    results = [
        # c won with the lowest score: ahead of both; a and b, neither winning, by score
        Result(("a", "b", "c"), (9.0, 4.0, 1.0), frozenset({2})),
        # a and b both won with equal scores: a half each way
        Result(("a", "b"), (6.0, 6.0), frozenset({0, 1})),
        # both won, a with the higher score: a ahead
        Result(("b", "a"), (6.0, 7.0), frozenset({0, 1})),
        # nobody won, equal scores: a half
        Result(("a", "c"), (0.0, 0.0), frozenset()),
    ]
    h = head_to_head(results)
    assert list(h) == [("a", "b"), ("a", "c"), ("b", "a"), ("b", "c"), ("c", "a"), ("c", "b")]
    assert h[("a", "b")].trials == 3 and h[("a", "b")].value == pytest.approx((1 + 0.5 + 1) / 3)
    assert h[("a", "c")].trials == 2 and h[("a", "c")].value == pytest.approx((0 + 0.5) / 2)
    assert h[("c", "b")].trials == 1 and h[("c", "b")].value == 1.0


def test_head_to_head_is_symmetric():
    results = [game("x", "y", "z"), game("z", "y"), game("y", "x", "z", winners={0, 1}),
               Result(("x", "z", "y"), (2.0, 2.0, 5.0), frozenset()), game("w", "x")]
    h = head_to_head(results)
    for (a, b), s in h.items():
        assert a != b
        back = h[(b, a)]
        assert s.trials == back.trials
        assert s.value + back.value == pytest.approx(1.0)
        assert s.low95 == pytest.approx(1 - back.high95) and s.low99 == pytest.approx(1 - back.high99)
    assert ("w", "y") not in h and ("w", "z") not in h   # w never met them


# ratings

def test_equal_bots_get_equal_ratings():
    results = duel("a", "b", 20) + duel("b", "a", 20) + [game("a", "b", "c"), game("c", "a", "b"),
                                                       game("b", "c", "a")]
    rated = by_bot(ratings(results))
    assert rated["a"].rating == pytest.approx(rated["b"].rating, abs=1e-6)
    assert rated["b"].rating == pytest.approx(rated["c"].rating, abs=1e-6)
    assert rated["a"].rating == pytest.approx(1500.0, abs=1e-6)


def test_finishing_ahead_three_times_in_four_is_191_points():
    rated = by_bot(ratings(duel("strong", "weak", 3000) + duel("weak", "strong", 1000)))
    assert rated["strong"].rating - rated["weak"].rating == pytest.approx(ELO_3_TO_1, abs=0.5)
    assert (rated["strong"].rating + rated["weak"].rating) / 2 == pytest.approx(1500.0)
    anchored = by_bot(ratings(duel("strong", "weak", 3000) + duel("weak", "strong", 1000), anchor="weak"))
    assert anchored["strong"].rating == pytest.approx(1500.0 + ELO_3_TO_1, abs=0.5)


def test_the_standard_error_of_two_bots_is_the_inverse_information():
    # 30 to 10 and the prior's draw: 30.5 of 41 comparisons; the information of the gap
    # in log-strength is 41 p (1 - p), shared half and half by the two around their mean
    results = duel("a", "b", 30) + duel("b", "a", 10)
    n, p = 41, 30.5 / 41
    gap_error = 400 / math.log(10) / math.sqrt(n * p * (1 - p))
    rated = by_bot(ratings(results))
    assert rated["a"].rating - rated["b"].rating == pytest.approx(400 * math.log10(30.5 / 10.5))
    assert rated["a"].high95 - rated["a"].rating == pytest.approx(Z95 * gap_error / 2)
    anchored = by_bot(ratings(results, anchor="b"))
    assert anchored["a"].rating - anchored["a"].low95 == pytest.approx(Z95 * gap_error)


def test_a_game_of_several_seats_counts_as_its_pairs():
    several = [game("a", "b", "c")] * 6 + [game("c", "a", "b")] * 3 + [game("b", "c", "a")] * 2
    pairs = []
    for g in several:
        for i in range(3):
            for j in range(i + 1, 3):
                pairs.append(game(g.bots[i], g.bots[j]))
    got, want = ratings(several), ratings(pairs)
    assert [r.bot for r in got] == [r.bot for r in want]
    for g, w in zip(got, want):
        assert g.rating == pytest.approx(w.rating) and g.low95 == pytest.approx(w.low95)


def synthetic_tournament(rounds):
    """Three bots in games of three seats, each seat order in turn: 'strong' finishes first
    most often and 'random' last, with every order of finish appearing."""
    finishes = [(("strong", "greedy", "random"), 5), (("greedy", "strong", "random"), 3),
                (("strong", "random", "greedy"), 2), (("greedy", "random", "strong"), 1),
                (("random", "strong", "greedy"), 1), (("random", "greedy", "strong"), 1)]
    seatings = [(0, 1, 2), (1, 2, 0), (2, 0, 1), (0, 2, 1), (2, 1, 0), (1, 0, 2)]
    results = []
    for k in range(rounds):
        for finish, times in finishes:
            for t in range(times):
                seats = seatings[(k + t) % len(seatings)]
                bots = tuple(finish[s] for s in seats)
                scores = tuple(float(3 - s) for s in seats)
                results.append(Result(bots, scores, frozenset({seats.index(0)})))
    return results


def test_the_order_of_synthetic_bots_is_recovered():
    rated = ratings(synthetic_tournament(20))
    assert [r.bot for r in rated] == ["strong", "greedy", "random"]
    assert all(a.low95 > b.high95 for a, b in zip(rated, rated[1:]))
    assert [r.games for r in rated] == [13 * 20] * 3
    assert sum(r.rating for r in rated) / 3 == pytest.approx(1500.0)
    shares = win_shares(synthetic_tournament(20))
    assert shares["strong"].value > shares["greedy"].value > shares["random"].value


def test_the_interval_narrows_as_games_grow():
    widths = []
    for rounds in (1, 4, 16, 64):
        rated = by_bot(ratings(synthetic_tournament(rounds)))
        widths.append(rated["greedy"].high95 - rated["greedy"].low95)
        assert rated["greedy"].low95 < rated["greedy"].rating < rated["greedy"].high95
    assert widths == sorted(widths, reverse=True) and widths[-1] < widths[0] / 4


def test_the_anchor_is_fixed_at_base_exactly():
    results = synthetic_tournament(3)
    for anchor in ("random", "greedy", "strong"):
        rated = by_bot(ratings(results, anchor=anchor, base=1000.0))
        assert rated[anchor] == Rating(anchor, 1000.0, 1000.0, 1000.0, 39)
    free = by_bot(ratings(results))
    anchored = by_bot(ratings(results, anchor="random"))
    # an anchor moves the scale, not the gaps
    for bot in ("greedy", "strong"):
        gap = anchored[bot].rating - anchored["random"].rating
        assert gap == pytest.approx(free[bot].rating - free["random"].rating)
    # an anchor that played no game leaves the mean at base
    assert ratings(results, anchor="nobody") == ratings(results)


def test_a_bot_that_wins_every_game_gets_a_finite_rating():
    results = duel("perfect", "random", 50) + duel("perfect", "greedy", 50) + duel("greedy", "random", 30)
    rated = ratings(results)
    assert [r.bot for r in rated] == ["perfect", "greedy", "random"]
    for r in rated:
        assert all(math.isfinite(x) for x in (r.rating, r.low95, r.high95))
        assert r.low95 < r.rating < r.high95
    # with only the prior's draw against it: 50.5 to 0.5 against random
    alone = by_bot(ratings(duel("perfect", "random", 50)))
    assert alone["perfect"].rating - alone["random"].rating == pytest.approx(400 * math.log10(101))


def test_the_same_games_give_the_same_ratings():
    results = synthetic_tournament(5) + duel("greedy", "mcts:time=0.5", 7)
    first = ratings(results)
    assert ratings(list(results)) == first
    assert ratings(tuple(results)) == first
    assert head_to_head(results) == head_to_head(results)
    assert list(win_shares(results)) == sorted(win_shares(results))


def test_bots_that_met_nobody():
    assert ratings([]) == []
    alone = ratings([Result(("solo", "solo"), (2.0, 1.0), frozenset({0}))])
    assert alone == [Rating("solo", 1500.0, -math.inf, math.inf, 1)]
    assert ratings([Result(("solo",), (2.0,), frozenset({0}))], anchor="solo") == [
        Rating("solo", 1500.0, 1500.0, 1500.0, 1)]


def test_groups_no_game_links_are_fitted_apart():
    results = duel("a", "b", 30) + duel("b", "a", 10) + duel("c", "d", 10) + duel("d", "c", 10)
    rated = by_bot(ratings(results, anchor="a"))
    assert rated["a"].rating == 1500.0 and rated["b"].rating < 1500.0
    assert rated["c"].rating == pytest.approx(1500.0) and rated["d"].rating == pytest.approx(1500.0)
    assert math.isfinite(rated["c"].low95)


def test_everything_is_exported():
    assert set(R.__all__) == {"Z95", "Z99", "Result", "wilson", "Share", "share", "win_shares",
                              "head_to_head", "Rating", "ratings"}


def test_the_ratings_solve_the_likelihood_equations():
    # at the maximum each bot's expected comparisons won (from the ratings' odds) equal
    # those it won, the prior's halves included
    results = synthetic_tournament(2) + duel("greedy", "mcts:time=0.5", 9) + duel("mcts:time=0.5", "random", 4)
    rated = by_bot(ratings(results))
    won = {bot: 0.0 for bot in rated}
    expected = {bot: 0.0 for bot in rated}
    for (a, b), s in head_to_head(results).items():
        won[a] += s.value * s.trials + 0.5
        expected[a] += (s.trials + 1) / (1 + 10 ** ((rated[b].rating - rated[a].rating) / 400))
    for bot in rated:
        assert expected[bot] == pytest.approx(won[bot], abs=1e-6)


def test_a_long_one_sided_chain_converges_in_few_steps(monkeypatch):
    # each bot beats every bot after it in every game: the likelihood is nearly flat at
    # the top of a 3700-point range, where rounding must not stall the fit
    bots = [f"bot{i:02d}" for i in range(20)]
    results = [game(a, b) for i, a in enumerate(bots) for b in bots[i + 1:] for _ in range(50)]
    steps = []
    slope = R._slope
    monkeypatch.setattr(R, "_slope", lambda *a: steps.append(1) or slope(*a))
    rated = ratings(results)
    assert [r.bot for r in rated] == bots
    assert len(steps) < 100
    assert rated[0].rating - rated[-1].rating > 3500
