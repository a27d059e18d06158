"""The figures of a balance study, each with its 99% interval: for each rule set, and for
the rule set studied against the one it is compared with, game by game.

In:  a ``studying.Study``.
Out: ``figures(study)``: JSON-ready data (docs/json.md): for each rule set, the share of
     wins of each seat position, the scores (mean, spread), the margin of victory, ties,
     the game's length (choices, checkpoints), lead changes, how often the leader at half
     time wins, the skill figure (how often the strong bot wins), the options whose takers
     win more (or less) often, how often each rule ran; then the differences, what the
     rules of one say differently from the other's (``study_causes``), and the effects
     that are more than chance, each with a witness game. In a sweep (more than two
     rule sets: the values of a switch or param), each against the reference.

Intervals are at 99%: a mean's by Student's t, a share's by Wilson's score interval, a
difference between the rule sets over the seeds both played, paired by seed (the same
seed deals the same start under both). An effect is "clear" when its interval leaves out
0; among the many rules and options compared, the Holm-Bonferroni method keeps the chance
of one false finding among them all below 1%.
"""
from __future__ import annotations

import math
import statistics
from collections import Counter

from rulewright.app import study_causes
from rulewright.app.ratings import Z99, wilson

MIN_GAMES = 10          # games a difference needs before it can be clear
MIN_SEATS = 20          # seats that took an option (and that did not) before it is compared
TOP = 8                 # the options and rules listed


def t99(df: int) -> float:
    """Student's t quantile at 0.995 for ``df`` degrees of freedom (Cornish-Fisher, within
    0.3% from 3 degrees up; exact enough below)."""
    z = Z99
    if df < 1:
        return math.inf
    small = {1: 63.657, 2: 9.925, 3: 5.841, 4: 4.604, 5: 4.032}
    if df in small:
        return small[df]
    g1 = (z ** 3 + z) / 4
    g2 = (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96
    g3 = (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384
    return z + g1 / df + g2 / df ** 2 + g3 / df ** 3


def mean_ci(values: list[float]) -> dict:
    """Mean, spread (standard deviation), 99% interval of the mean, count."""
    n = len(values)
    if n == 0:
        return {"mean": None, "sd": None, "interval99": None, "n": 0}
    mean = statistics.fmean(values)
    if n < 2:
        return {"mean": _r(mean), "sd": None, "interval99": None, "n": n}
    sd = statistics.stdev(values)
    half = t99(n - 1) * sd / math.sqrt(n)
    return {"mean": _r(mean), "sd": _r(sd), "interval99": [_r(mean - half), _r(mean + half)], "n": n}


def share_ci(hits: int, n: int) -> dict:
    """A share with its 99% Wilson interval."""
    if n == 0:
        return {"value": None, "interval99": None, "n": 0}
    low, high = wilson(hits, n, Z99)
    return {"value": _r(hits / n), "interval99": [_r(low), _r(high)], "n": n}


def paired(a: dict[int, float], b: dict[int, float]) -> dict:
    """The mean of ``a - b`` over the seeds both have, its 99% interval, whether that leaves
    out 0 (``clear``), the chance of so large a difference were there none (``p``), and the
    seed where ``a - b`` is largest in the direction of the mean (``witness``)."""
    seeds = sorted(set(a) & set(b))
    d = [a[s] - b[s] for s in seeds]
    n = len(d)
    if n < 2:
        return {"mean": _r(d[0]) if d else None, "interval99": None, "n": n, "clear": False, "p": None,
                "witness": None}
    mean, sd = statistics.fmean(d), statistics.stdev(d)
    half = t99(n - 1) * sd / math.sqrt(n)
    # (the same difference in every game: no spread, and clear unless it is none)
    clear = n >= MIN_GAMES and (mean - half > 0 or mean + half < 0)
    p = (1.0 if mean == 0 else 0.0) if sd == 0 else math.erfc(abs(mean) / (sd / math.sqrt(n)) / math.sqrt(2))
    sign = 1 if mean >= 0 else -1
    witness = max(seeds, key=lambda s: (sign * (a[s] - b[s]), -s)) if mean != 0 else None
    return {"mean": _r(mean), "interval99": [_r(mean - half), _r(mean + half)], "n": n, "clear": clear,
            "p": p, "witness": witness}


def _r(x: float) -> float:
    return round(x, 4)


def _holm(items: list[dict], key: str = "p") -> None:
    """Marks ``clear`` False where Holm-Bonferroni at 1% does not keep the finding."""
    ranked = sorted((i for i in items if i.get(key) is not None), key=lambda i: i[key])
    m = len(ranked)
    still = True
    for k, item in enumerate(ranked):
        still = still and item[key] <= 0.01 / (m - k)
        if not still:
            item["clear"] = False


# ------------------------------------------------------------------ one rule set
def _per_game(records, fn) -> dict[int, float]:
    return {seed: fn(r.m) for seed, r in records.items()}


def _margin(m) -> float:
    s = sorted(m.scores, reverse=True)
    return s[0] - s[1] if len(s) > 1 else s[0] if s else 0.0


def one_side(study, side: int) -> dict:
    """The figures of one rule set."""
    main = study.of(side)
    games = list(main.values())
    players = study.plan.players
    out: dict = {"games": len(games)}
    out["seat_wins"] = [share_ci(sum(1 for r in games if i in r.m.winners), len(games)) for i in range(players)]
    out["scores"] = [mean_ci([r.m.scores[i] for r in games]) for i in range(players)]
    out["score"] = mean_ci([x for r in games for x in r.m.scores])
    out["margin"] = mean_ci([_margin(r.m) for r in games])
    out["ties"] = share_ci(sum(1 for r in games if len(r.m.winners) > 1), len(games))
    out["choices"] = mean_ci([r.m.choices for r in games])
    names = sorted({k for r in games for k in r.m.checkpoints})
    out["checkpoints"] = {k: mean_ci([r.m.checkpoints.get(k, 0) for r in games]) for k in names}
    out["lead_changes"] = mean_ci([r.m.lead_changes for r in games])
    led = [r for r in games if r.m.half_leader is not None]
    out["half_leader_wins"] = share_ci(sum(1 for r in led if r.m.half_leader in r.m.winners), len(led))
    skill = list(study.of(side, "skill").values())
    out["skill"] = {"strong": study.plan.strong, "weak": study.plan.weak, "fair": _r(1 / players),
                    **share_ci(sum(1 for r in skill if r.strong in r.m.winners), len(skill))}
    out["options"] = options(games)
    fired = Counter()
    for r in games:
        fired.update(r.m.fired)
    out["rules"] = {k: _r(v / len(games)) for k, v in sorted(fired.items())} if games else {}
    return out


def options(games) -> list[dict]:
    """The options whose takers won more or less often than the seats that did not take
    them: taken / not taken, the share of wins of each, the difference with its 99%
    interval (normal), clear after Holm-Bonferroni; the strongest few, clear ones first."""
    seats = [(set(t), i in r.m.winners) for r in games for i, t in enumerate(r.m.taken)]
    n = len(seats)
    names = Counter(o for taken, _ in seats for o in taken)
    out = []
    for name, took in names.items():
        if took < MIN_SEATS or n - took < MIN_SEATS:
            continue
        won_took = sum(1 for taken, won in seats if won and name in taken)
        won_all = sum(1 for _, won in seats if won)
        p1, p0 = won_took / took, (won_all - won_took) / (n - took)
        se = math.sqrt(p1 * (1 - p1) / took + p0 * (1 - p0) / (n - took))
        diff = p1 - p0
        p = 1.0 if se == 0 else math.erfc(abs(diff) / se / math.sqrt(2))
        out.append({"option": name, "taken": took, "not_taken": n - took, "wins_taken": _r(p1),
                    "wins_not_taken": _r(p0), "difference": _r(diff),
                    "interval99": [_r(diff - Z99 * se), _r(diff + Z99 * se)],
                    "p": p, "clear": se > 0 and abs(diff) > Z99 * se})
    _holm(out)
    out.sort(key=lambda o: (not o["clear"], -abs(o["difference"]), o["option"]))
    return out[:TOP]


# ------------------------------------------------------------------ two rule sets
def differences(study, side: int = 0, other: int = 1) -> dict:
    """The rule set ``side`` less ``other``, game by game over the seeds both played."""
    a, b = study.of(side), study.of(other)
    players = study.plan.players
    out: dict = {}
    for i in range(players):
        out[f"seat {i + 1} wins"] = paired(_per_game(a, lambda m, i=i: float(i in m.winners)),
                                           _per_game(b, lambda m, i=i: float(i in m.winners)))
    for i in range(players):
        out[f"seat {i + 1} score"] = paired(_per_game(a, lambda m, i=i: m.scores[i]),
                                            _per_game(b, lambda m, i=i: m.scores[i]))
    out["score"] = paired(_per_game(a, lambda m: statistics.fmean(m.scores)),
                          _per_game(b, lambda m: statistics.fmean(m.scores)))
    out["margin"] = paired(_per_game(a, _margin), _per_game(b, _margin))
    out["ties"] = paired(_per_game(a, lambda m: float(len(m.winners) > 1)),
                         _per_game(b, lambda m: float(len(m.winners) > 1)))
    out["choices"] = paired(_per_game(a, lambda m: m.choices), _per_game(b, lambda m: m.choices))
    out["lead changes"] = paired(_per_game(a, lambda m: m.lead_changes), _per_game(b, lambda m: m.lead_changes))
    sa, sb = study.of(side, "skill"), study.of(other, "skill")
    out["skill"] = paired({s: float(r.strong in r.m.winners) for s, r in sa.items()},
                          {s: float(r.strong in r.m.winners) for s, r in sb.items()})
    for k, v in out.items():       # a share moves by -100% to +100% at most
        if v["interval99"] and (k.endswith("wins") or k in ("ties", "skill")):
            v["interval99"] = [max(-1.0, v["interval99"][0]), min(1.0, v["interval99"][1])]
    _holm([v for k, v in out.items()])
    rules = sorted({k for r in list(a.values()) + list(b.values()) for k in r.m.fired})
    by_rule = {k: paired(_per_game(a, lambda m, k=k: m.fired.get(k, 0)), _per_game(b, lambda m, k=k: m.fired.get(k, 0)))
               for k in rules}
    _holm(list(by_rule.values()))
    return {"figures": out, "rules": by_rule, "changes": study_causes.changes(study.sides[side], study.sides[other])}


def figures(study) -> dict:
    """Every figure of the study (see the module docstring)."""
    sides = [one_side(study, i) for i in range(len(study.sides))]
    out: dict = {"sides": sides}
    if len(study.sides) == 2:
        out["differences"] = differences(study)
    elif len(study.sides) > 2:         # a sweep: each value against the reference
        ref = study.reference
        out["reference"] = ref
        out["sweep"] = [{"side": i, **differences(study, i, ref)} for i in range(len(study.sides)) if i != ref]
    return out


# ------------------------------------------------------------------ the key figures
def key_figures(players: int, skill: bool) -> list[tuple[str, int, bool, object, str | None]]:
    """The key figures of a study, in the order they are shown: (figure, seat (0: of no one
    seat), whether it is a share, how to read it from ``one_side``'s figures, its key in
    ``differences``'s figures or None). The terminal's table, the report and the house
    rules' pages all list these."""
    out = [("seat_wins", i + 1, True, lambda s, i=i: s["seat_wins"][i], f"seat {i + 1} wins") for i in range(players)]
    out += [("seat_score", i + 1, False, lambda s, i=i: s["scores"][i], f"seat {i + 1} score") for i in range(players)]
    out += [("score", 0, False, lambda s: s["score"], "score"),
            ("margin", 0, False, lambda s: s["margin"], "margin"),
            ("ties", 0, True, lambda s: s["ties"], "ties"),
            ("choices", 0, False, lambda s: s["choices"], "choices"),
            ("lead_changes", 0, False, lambda s: s["lead_changes"], "lead changes"),
            ("half_leader_wins", 0, True, lambda s: s["half_leader_wins"], None)]
    if skill:
        out.append(("skill", 0, True, lambda s: s["skill"], "skill"))
    return out


__all__ = ["figures", "key_figures", "mean_ci", "one_side", "options", "paired", "share_ci", "t99"]
