"""Ratings: the finished games of a tournament between bots, as the statistics a designer
reads: how often each bot won, how often each bot finished ahead of each other one, and a
rating for each on the Elo scale, all with their intervals.

In:  ``Result``s, one per finished game: the bot at each seat in seat order (one bot may
     hold several seats of a game), each seat's final score, and the seats that won (several
     when they tie).
Out: ``win_shares`` and ``head_to_head``: proportions as ``Share``s, with Wilson intervals
     at 95% and 99%; ``ratings``: each bot's Bradley-Terry strength on the Elo scale with
     its 95% interval, strongest first. Nothing is random and every output has a fixed
     order: the same games give the same numbers.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations

__all__ = ["Z95", "Z99", "Result", "wilson", "Share", "share", "win_shares", "head_to_head",
           "Rating", "ratings"]

Z95 = 1.959963984540054
Z99 = 2.5758293035489004

_ELO = 400.0 / math.log(10.0)   # Elo points per unit of natural log-strength
_TOLERANCE = 1e-9               # the largest Newton step (log-strength) that ends the fit
_MAX_STEPS = 10_000


@dataclass(frozen=True)
class Result:
    """One finished game: the bot at each seat (in seat order), each seat's final score (in
    the same order), and the indices of the winning seats (several when they tie, none when
    nobody won). Any sequences given are kept as tuples and the winners as a frozenset; a
    score missing for a seat, or a winner that is no seat, is a ``ValueError``."""
    bots: tuple[str, ...]
    scores: tuple[float, ...]
    winners: frozenset[int]

    def __post_init__(self):
        bots, scores, winners = tuple(self.bots), tuple(self.scores), frozenset(self.winners)
        if len(bots) != len(scores):
            raise ValueError(f"{len(bots)} seats but {len(scores)} scores")
        if any(not 0 <= w < len(bots) for w in winners):
            raise ValueError(f"winning seats {sorted(winners)} of a game of {len(bots)} seats")
        object.__setattr__(self, "bots", bots)
        object.__setattr__(self, "scores", scores)
        object.__setattr__(self, "winners", winners)


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion: successes out of trials, at the normal
    quantile ``z`` (``Z95``, ``Z99``). Successes may be fractional (a tie counts a half).
    With no trials nothing is known: (0.0, 1.0)."""
    if trials <= 0:
        return (0.0, 1.0)
    if not -1e-9 <= successes <= trials + 1e-9:
        raise ValueError(f"{successes} successes out of {trials} trials")
    p = min(1.0, max(0.0, successes / trials))
    z2n = z * z / trials
    centre = (p + z2n / 2) / (1 + z2n)
    half = z * math.sqrt(p * (1 - p) / trials + z2n / (4 * trials)) / (1 + z2n)
    low = 0.0 if p == 0.0 else max(0.0, centre - half)
    return (low, 1.0 if p == 1.0 else min(1.0, centre + half))


@dataclass(frozen=True)
class Share:
    """A proportion (None when there were no trials), the number of trials it counts, and
    its Wilson intervals at 95% and 99%."""
    value: float | None
    trials: int
    low95: float
    high95: float
    low99: float
    high99: float


def share(successes: float, trials: int) -> Share:
    """Successes out of trials as a ``Share``."""
    low95, high95 = wilson(successes, trials, Z95)
    low99, high99 = wilson(successes, trials, Z99)
    return Share(successes / trials if trials > 0 else None, trials, low95, high95, low99, high99)


def win_shares(results) -> dict[str, Share]:
    """For each bot (in name order), the share of its seats that won: a seat among several
    winners of its game counts the part of a win it shares (a half of two, a third of
    three). Its trials are the seats it held, so a bot holding two seats of one game counts
    twice."""
    won: dict[str, float] = {}
    seats: dict[str, int] = {}
    for r in results:
        for i, bot in enumerate(r.bots):
            seats[bot] = seats.get(bot, 0) + 1
            won[bot] = won.get(bot, 0.0) + (1.0 / len(r.winners) if i in r.winners else 0.0)
    return {bot: share(won[bot], seats[bot]) for bot in sorted(seats)}


def _ahead(r: Result, i: int, j: int) -> float:
    """How far seat i of a game finished ahead of seat j: 1 or 0 when only one of them won;
    otherwise 1 for the higher score, 0.5 for equal scores, 0 for the lower."""
    wi, wj = i in r.winners, j in r.winners
    if wi != wj:
        return 1.0 if wi else 0.0
    si, sj = r.scores[i], r.scores[j]
    return 1.0 if si > sj else 0.0 if si < sj else 0.5


def _pairwise(results) -> dict[tuple[str, str], tuple[float, int]]:
    """For each ordered pair of different bots that met: how often the first finished ahead
    of the second, and over how many pairs of seats (one of each bot, in the same game).
    Two seats of the same bot are not compared."""
    tally: dict[tuple[str, str], list] = {}
    for r in results:
        for i, j in combinations(range(len(r.bots)), 2):
            a, b = r.bots[i], r.bots[j]
            if a == b:
                continue
            x = _ahead(r, i, j)
            for key, won in (((a, b), x), ((b, a), 1.0 - x)):
                t = tally.setdefault(key, [0.0, 0])
                t[0] += won
                t[1] += 1
    return {key: (t[0], t[1]) for key, t in sorted(tally.items())}


def head_to_head(results) -> dict[tuple[str, str], Share]:
    """For each ordered pair of different bots that met in at least one game (in name
    order), the share of the pairs of seats, one held by each in the same game, in which the
    first finished ahead of the second: a winner is ahead of a seat that did not win; when
    both or neither won, the higher score is ahead and equal scores count a half. The
    shares of a pair both ways add up to 1 over the same trials."""
    return {key: share(won, n) for key, (won, n) in _pairwise(results).items()}


@dataclass(frozen=True)
class Rating:
    """A bot's rating on the Elo scale, its 95% interval (the rating give or take ``Z95``
    standard errors), and the number of games it played (in which it held any seat)."""
    bot: str
    rating: float
    low95: float
    high95: float
    games: int


def ratings(results, anchor: str | None = None, base: float = 1500.0) -> list[Rating]:
    """The bots' Bradley-Terry ratings on the Elo scale, strongest first (equal ratings in
    name order).

    Each pair of seats that ``head_to_head`` counts is one comparison between their bots;
    a comparison worth a half (equal scores) is half a win for each. The strengths are
    fitted by maximum likelihood and shown as base + 400 * log10(strength): a gap of 400
    points means odds of 10 to 1, and one of 191 points a bot that finishes ahead 3 times
    in 4. So that a bot which won (or lost) every comparison still gets a finite rating,
    the fit adds a prior: one virtual comparison between each two bots that met, counted
    as a draw (half a win each way). With many games it hardly moves the ratings; with few
    it pulls them towards each other.

    The scale has one free point: the ``anchor`` bot, when it is given and played, is fixed
    at ``base`` exactly (its interval is just that point); an anchor that played no game is
    ignored, and without one the ratings' mean is ``base``. The fit is Newton's method on
    the log-strengths, each step halved until the likelihood does not fall (beyond
    rounding), stopped when no log-strength moves by more than 1e-9 or after 10,000 steps.
    The standard errors come from the inverse of the Fisher information on the
    log-strength scale (the prior's comparisons included), with the anchor (or the mean)
    taking out the free point.

    Bots that no game links, even through other bots, cannot be compared: each group of
    bots linked by games is fitted on its own, around the anchor if it is in the group and
    otherwise around a mean of ``base``, so ratings of different groups do not compare. A
    bot that never met another bot (a single bot, or one that only played itself) is rated
    ``base`` with an interval from minus to plus infinity: nothing is known of it, unless
    it is the anchor, which is ``base`` by definition.
    """
    results = list(results)
    games: dict[str, int] = {}
    for r in results:
        for bot in set(r.bots):
            games[bot] = games.get(bot, 0) + 1
    tally = _pairwise(results)
    met: dict[str, set[str]] = {bot: set() for bot in games}
    for a, b in tally:
        met[a].add(b)
    out = []
    for group in _groups(sorted(games), met):
        fixed = anchor if anchor in group else None
        for bot, strength, error in _fit(group, tally, fixed):
            rating = base + _ELO * strength
            spread = Z95 * _ELO * error
            out.append(Rating(bot, rating, rating - spread, rating + spread, games[bot]))
    return sorted(out, key=lambda x: (-x.rating, x.bot))


def _groups(bots: list[str], met: dict[str, set[str]]) -> list[list[str]]:
    """The bots in groups linked by games (directly or through other bots), each group in
    name order, the groups in the order of their first bot."""
    seen: set[str] = set()
    groups = []
    for bot in bots:
        if bot in seen:
            continue
        group, todo = set(), [bot]
        while todo:
            b = todo.pop()
            if b not in group:
                group.add(b)
                todo.extend(met[b] - group)
        seen |= group
        groups.append(sorted(group))
    return groups


def _fit(group: list[str], tally, fixed: str | None) -> list[tuple[str, float, float]]:
    """Each bot of a linked group with its fitted log-strength and standard error: the
    anchor ``fixed`` at 0 if given, else the log-strengths' mean at 0."""
    n = len(group)
    if n == 1:
        return [(group[0], 0.0, 0.0 if group[0] == fixed else math.inf)]
    index = {bot: i for i, bot in enumerate(group)}
    wins = [0.0] * n                       # each bot's wins, the prior's halves included
    count = [[0.0] * n for _ in range(n)]  # comparisons of each two bots, the prior's included
    for (a, b), (won, m) in tally.items():
        if a in index:
            i, j = index[a], index[b]
            wins[i] += won + 0.5
            count[i][j] += m + 1
    ref = index[fixed] if fixed is not None else 0
    free = [i for i in range(n) if i != ref]
    theta = [0.0] * n
    for _ in range(_MAX_STEPS):
        grad, info = _slope(theta, wins, count)
        step = [row[0] for row in _solve(_minor(info, free), [[grad[i]] for i in free])]
        if max(abs(s) for s in step) < _TOLERANCE:
            for i, s in zip(free, step):
                theta[i] += s
            break
        before, t = _likelihood(theta, wins, count), 1.0
        while True:
            tried = list(theta)
            for i, s in zip(free, step):
                tried[i] += t * s
            if _likelihood(tried, wins, count) >= before - 1e-12 * (1 + abs(before)) or t < 1e-12:
                break
            t /= 2
        theta = tried
    _, info = _slope(theta, wins, count)
    identity = [[float(i == j) for j in range(n - 1)] for i in range(n - 1)]
    inverse = _solve(_minor(info, free), identity)
    cov = [[0.0] * n for _ in range(n)]
    for a, i in enumerate(free):
        for b, j in enumerate(free):
            cov[i][j] = inverse[a][b]
    if fixed is None:   # the covariance of the log-strengths less their mean
        mean = sum(theta) / n
        theta = [x - mean for x in theta]
        rows = [sum(row) / n for row in cov]
        total = sum(rows) / n
        var = [cov[i][i] - 2 * rows[i] + total for i in range(n)]
    else:
        var = [cov[i][i] for i in range(n)]
    return [(bot, theta[i], math.sqrt(max(var[i], 0.0))) for i, bot in enumerate(group)]


def _chance_ahead(x: float, y: float) -> float:
    """The chance that log-strength x finishes ahead of y (without overflow)."""
    d = x - y
    if d >= 0:
        return 1.0 / (1.0 + math.exp(-d))
    e = math.exp(d)
    return e / (1.0 + e)


def _likelihood(theta, wins, count) -> float:
    """The log-likelihood of the comparisons (the prior's included) at these log-strengths."""
    total = sum(w * t for w, t in zip(wins, theta))
    for i, j in combinations(range(len(theta)), 2):
        if count[i][j]:
            top = max(theta[i], theta[j])
            total -= count[i][j] * (top + math.log1p(math.exp(-abs(theta[i] - theta[j]))))
    return total


def _slope(theta, wins, count):
    """The log-likelihood's gradient and the Fisher information at these log-strengths."""
    n = len(theta)
    grad = list(wins)
    info = [[0.0] * n for _ in range(n)]
    for i, j in combinations(range(n), 2):
        if count[i][j]:
            p, q = _chance_ahead(theta[i], theta[j]), _chance_ahead(theta[j], theta[i])
            grad[i] -= count[i][j] * p
            grad[j] -= count[i][j] * q
            v = count[i][j] * p * q
            info[i][i] += v
            info[j][j] += v
            info[i][j] -= v
            info[j][i] -= v
    return grad, info


def _minor(matrix, keep: list[int]):
    """The rows and columns ``keep`` of a square matrix."""
    return [[matrix[i][j] for j in keep] for i in keep]


def _solve(a, b):
    """The matrix x with a x = b, by Gauss-Jordan elimination with partial pivoting (b has
    one column per right-hand side; the identity gives the inverse of a)."""
    n = len(a)
    m = [list(row) + list(rhs) for row, rhs in zip(a, b)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        if m[p][c] == 0.0:
            raise ZeroDivisionError("a singular matrix")
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            f = m[r][c] / m[c][c] if r != c else 0.0
            if f:
                m[r] = [x - f * y for x, y in zip(m[r], m[c])]
    return [[x / m[r][r] for x in m[r][n:]] for r in range(n)]
