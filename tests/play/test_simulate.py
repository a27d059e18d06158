"""rulewright simulate: many seeded games and what their reports add up to.

The aggregates are checked against the same games played one by one through the
interpreter, and the comparison (--against) against the other spec's own games.
"""
from __future__ import annotations

import json
import statistics

import pytest

from rulewright.compiler import load
from rulewright.compiler.semantics import runtime as rt
from rulewright.compiler.interpret import Interpreter
from rulewright.compiler.play.simulate import aggregate
from rulewright.compiler.play.simulate import mean_interval
from rulewright.compiler.play.simulate import share_interval
from rulewright.compiler.play.simulate import simulate
from helpers import ROOT, run_command

SAVANNA = ROOT / "spec" / "ecosystem_savanna"
RARE_LIONS = ROOT / "spec" / "house_rules" / "savanna_rare_lions.rules"


def run(*args):
    """The command run in this process, as it runs in its own (``helpers.run_command``)."""
    return run_command(*args, cwd=ROOT)


def one_by_one(path, players, seeds):
    """Each game's final scores and winners, played alone."""
    it = Interpreter(load(path))
    games = [it.play("standard", players, seed) for seed in seeds]
    return [({s.name: int(v) for s, v in g.reports["score"].items()}, {s.name for s in g.reports["winners"]})
            for g in games]


def test_the_aggregates_are_those_of_the_games_one_by_one():
    seeds = [3, 4, 5, 6, 7]
    summary = simulate(Interpreter(load(SAVANNA)), "standard", 3, seeds)
    games = one_by_one(SAVANNA, 3, seeds)
    assert summary.games == 5 and summary.seeds == seeds
    score, winners = summary.reports["score"], summary.reports["winners"]
    assert score["kind"] == "per seat" and winners["kind"] == "seats"
    for seat in summary.seats:
        values = [g[0][seat.name] for g in games]
        assert score["values"][seat] == {"mean": round(statistics.fmean(values), 2), "least": min(values),
                                         "most": max(values), "ci95": mean_interval(values)}
        assert winners["values"][seat] == round(sum(seat.name in g[1] for g in games) / 5, 4)
    assert winners["several"] == round(sum(len(g[1]) > 1 for g in games) / 5, 4)


def test_every_kind_of_report_is_summed_up():
    a, b = rt.Seat(0, "p1", "player", "P1"), rt.Seat(1, "p2", "player", "P2")
    games = [{"score": {a: 3, b: 5}, "winners": frozenset({b}), "margin": -2, "result": "no win"},
             {"score": {a: 7, b: 7}, "winners": frozenset({a, b}), "margin": 4, "result": "easy win"},
             {"score": {a: 2, b: 1}, "winners": frozenset(), "margin": 1, "result": "no win"}]
    out = aggregate(games, [a, b])
    assert out["score"] == {"kind": "per seat",
                            "values": {a: {"mean": 4.0, "least": 2, "most": 7, "ci95": mean_interval([3, 7, 2])},
                                       b: {"mean": 4.33, "least": 1, "most": 7, "ci95": mean_interval([5, 7, 1])}}}
    assert out["winners"] == {"kind": "seats", "values": {a: 0.3333, b: 0.6667},
                              "ci95": {a: share_interval(1, 3), b: share_interval(2, 3)},
                              "several": 0.3333, "several_ci95": share_interval(1, 3), "none": 0.3333}
    assert out["margin"] == {"kind": "number", "values": {"mean": 1.0, "least": -2, "most": 4,
                                                          "ci95": mean_interval([-2, 4, 1])}}
    assert out["result"] == {"kind": "counts", "values": {"no win": 2, "easy win": 1}}


def test_simulate_a_house_rule_against_its_base_game():
    code, out, err = run("simulate", str(RARE_LIONS), "--players", "3", "--games", "4", "--seed", "10",
                         "--against", str(SAVANNA), "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert (doc["games"], doc["seeds"], doc["mode"], doc["players"]) == (4, [10, 13], "standard", 3)
    for key, path in (("reports", RARE_LIONS), (None, SAVANNA)):
        reports = doc["reports"] if key else doc["against"]["reports"]
        games = one_by_one(path, 3, range(10, 14))
        assert reports["score"]["values"]["p2"]["mean"] == round(statistics.fmean(g[0]["p2"] for g in games), 2)
    code, out, err = run("simulate", str(RARE_LIONS), "--players", "3", "--games", "4", "--seed", "10",
                         "--against", str(SAVANNA))
    assert code == 0, err
    assert out.startswith("Ecosystem: Savanna: Rare lions: Base game, 3 player(s), 4 game(s) (seeds 10..13), "
                          "random agents\nagainst Ecosystem: Savanna")
    assert "winners: share of games" in out and "\nseveral " in out


def test_every_shipped_mode_is_summed_up():
    """The 2 vs 2 mode reports each player's team (a text per seat): counted per seat;
    the solo game's margin and result: a number and counts."""
    code, out, err = run("simulate", "spec/darwins_choice/variants/coop_2v2.rules", "--players", "4", "--games", "2",
                         "--json")
    assert code == 0, err
    team = json.loads(out)["reports"]["team"]
    assert team["kind"] == "per seat counts" and sum(team["values"]["p1"].values()) == 2
    code, out, err = run("simulate", "spec/ecosystem_savanna/variants/solo.rules", "--games", "3")
    assert code == 0, err
    assert "margin: mean ±95% (least..most)\nall games " in out and "result: games" in out


def test_the_solver_seats_say_what_they_did():
    code, out, err = run("simulate", "spec/ecosystem_savanna", "--players", "3", "--games", "2", "--agent", "solver",
                         "--agent-seats", "p2")
    assert code == 0, err
    assert "solver agents (p2), the other seats random" in out
    assert "solver agent p2: asked 40 time(s), 40 answered; 80 choice(s) from the answers, 0 at random" in out


def test_a_game_that_fails_names_its_seed(tmp_path):
    spec = tmp_path / "g.rules"
    spec.write_text('game g "G"\nstate { n: int }\n'
                    'invariant small: n < 3 else "n is {n}"\n'
                    "procedure p { checkpoint step  choose k in [1, 3] by first(players)  set n = k  checkpoint step }\n"
                    'mode standard "S" players 1 { seats players  do p()  report n = n }\n')
    code, out, err = run("simulate", str(spec), "--players", "1", "--games", "8")
    assert code == 1, err           # a spec error: the rules reach a position the invariant excludes
    seed = int(err.split("in the game of seed ")[1].split(",")[0])
    code, _, perr = run("play", str(spec), "--players", "1", "--seed", str(seed))
    assert code == 1 and "n is 3" in perr


@pytest.mark.parametrize("args, message", [
    (["simulate", "spec/ecosystem_savanna", "--players", "3", "--against", "spec/darwins_choice"],
     "--against spec/darwins_choice: a spec of another game (Darwin's Choice), not of Ecosystem: Savanna"),
    (["simulate", "spec/ecosystem_savanna", "--players", "3", "--games", "0"], "'0' is not a whole number of games"),
    (["simulate", "spec/darwins_choice/variants/two_player.rules", "--against", "spec/darwins_choice"],
     "--against spec/darwins_choice: no mode 'two_player' to compare"),
    (["simulate", "spec/ecosystem_savanna", "--players", "6", "--against", "spec/house_rules/savanna_rare_lions.rules"],
     "mode 'standard' there is for 3..5 players, not 6"),
    (["simulate", "spec/ecosystem_savanna", "--players", "3", "--agent", "solver", "--agent-seats", "p7"],
     "--agent-seats: 'p7' is not a player's seat of this game"),
])
def test_simulate_mistakes_exit_2(args, message):
    code, out, err = run(*args)
    assert code == 2, err
    assert message in err and "Traceback" not in err


def test_intervals_match_the_textbook():
    from rulewright.compiler.play.simulate import t975
    # 1..5: mean 3, standard deviation sqrt(2.5), t(4) = 2.776: 3 -+ 1.963
    assert mean_interval([1, 2, 3, 4, 5]) == (1.04, 4.96)
    assert mean_interval([7]) is None and share_interval(0, 0) is None
    # Wilson's interval of 0 in 20 reaches 16.1%, of 20 in 20 down to 83.9%
    assert share_interval(0, 20) == (0.0, 0.1611)
    assert share_interval(20, 20) == (0.8389, 1.0)
    # t between the rows of the table: t(50) = 2.009, t(1000) = 1.962
    assert abs(t975(50) - 2.009) < 0.002 and abs(t975(1000) - 1.962) < 0.001


def test_the_intervals_hold_the_true_mean_95_times_in_100():
    """Drawn samples of a known mean: the mean's interval (Student's t) and a share's
    (Wilson's) hold it in about 95% of the samples, also for small samples."""
    import random
    rng = random.Random(7)
    for n in (5, 12, 40):
        held = sum(lo <= 10 <= hi for lo, hi in
                   (mean_interval([rng.gauss(10, 3) for _ in range(n)], digits=None) for _ in range(4000)))
        assert 0.935 <= held / 4000 <= 0.965, (n, held)
    held = sum(lo <= 0.3 <= hi for lo, hi in
               (share_interval(sum(rng.random() < 0.3 for _ in range(30)), 30) for _ in range(4000)))
    assert 0.93 <= held / 4000 <= 0.97, held


def test_differences_are_paired_by_seed():
    from rulewright.compiler.play.simulate import Summary
    from rulewright.compiler.play.simulate import compare
    a, b = rt.Seat(0, "p1", "player", "P1"), rt.Seat(1, "p2", "player", "P2")
    mine = [{"score": {a: 11, b: 4}, "winners": frozenset({a}), "margin": 3},
            {"score": {a: 12, b: 9}, "winners": frozenset({a}), "margin": 5},
            {"score": {a: 10, b: 8}, "winners": frozenset({a, b}), "margin": 1}]
    theirs = [{"score": {a: 9, b: 5}, "winners": frozenset({a}), "margin": 3},
              {"score": {a: 3, b: 3}, "winners": frozenset({a, b}), "margin": 0},   # seed 11: not in mine
              {"score": {a: 10, b: 9}, "winners": frozenset({b}), "margin": 4},
              {"score": {a: 7, b: 7}, "winners": frozenset({a, b}), "margin": 2}]
    s1 = Summary(3, [10, 12, 13], [a, b], aggregate(mine, [a, b]), 0.0, mine)
    s2 = Summary(4, [10, 11, 12, 13], [a, b], aggregate(theirs, [a, b]), 0.0, theirs)
    d = compare(s1, s2)
    # the interval leaves out 0, but three games are too few to mark it (MIN_CLEAR)
    assert d["score"][a] == {"mean": round((2 + 2 + 3) / 3, 4), "ci95": mean_interval([2, 2, 3], digits=4),
                             "clear": False, "games": 3}
    assert mean_interval([2, 2, 3], digits=4)[0] > 0
    assert d["score"][b]["mean"] == round((-1 + 0 + 1) / 3, 4) and not d["score"][b]["clear"]
    assert d["winners"][a]["mean"] == round(1 / 3, 4)           # seed 12: a won here, not there
    assert d["winners"]["several"]["mean"] == 0.0
    assert d["margin"][None]["mean"] == 0.0 and d["margin"][None]["games"] == 3


def test_the_differences_of_a_house_rule_are_those_of_its_games_seed_by_seed():
    code, out, err = run("simulate", str(RARE_LIONS), "--players", "3", "--games", "5", "--seed", "20",
                         "--against", str(SAVANNA), "--json")
    assert code == 0, err
    diffs = json.loads(out)["against"]["differences"]["score"]
    mine, theirs = one_by_one(RARE_LIONS, 3, range(20, 25)), one_by_one(SAVANNA, 3, range(20, 25))
    for seat in ("p1", "p2", "p3"):
        paired = [m[0][seat] - t[0][seat] for m, t in zip(mine, theirs)]
        assert diffs[seat]["mean"] == round(statistics.fmean(paired), 4)
        lo, hi = diffs[seat]["ci95"]
        assert diffs[seat]["clear"] == (lo > 0 or hi < 0)


def test_a_few_games_that_differ_alike_are_not_marked():
    from rulewright.compiler.play.simulate import MIN_CLEAR
    from rulewright.compiler.play.simulate import Summary
    from rulewright.compiler.play.simulate import compare
    a = rt.Seat(0, "p1", "player", "P1")
    for n, marked in ((MIN_CLEAR - 1, False), (MIN_CLEAR, True)):
        mine = [{"score": {a: 10}, "winners": frozenset({a})} for _ in range(n)]
        theirs = [{"score": {a: 6}, "winners": frozenset()} for _ in range(n)]
        d = compare(Summary(n, list(range(n)), [a], aggregate(mine, [a]), 0.0, mine),
                    Summary(n, list(range(n)), [a], aggregate(theirs, [a]), 0.0, theirs))
        assert d["score"][a]["clear"] is marked and d["winners"][a]["clear"] is marked
        assert d["winners"][a]["ci95"] == (1.0, 1.0)
    mixed = [{"winners": frozenset({a})}, {"winners": frozenset()}]
    none = [{"winners": frozenset()}, {"winners": frozenset({a})}]
    d = compare(Summary(2, [0, 1], [a], aggregate(mixed, [a]), 0.0, mixed),
                Summary(2, [0, 1], [a], aggregate(none, [a]), 0.0, none))
    lo, hi = d["winners"][a]["ci95"]
    assert -1.0 <= lo and hi <= 1.0          # a share moves by 100 points at most
