"""rulewright simulate: many seeded games and what their reports add up to.

The aggregates are checked against the same games played one by one through the
interpreter, and the comparison (--against) against the other spec's own games.
"""
from __future__ import annotations

import json
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

from compiler import load
from compiler import runtime as rt
from compiler.interpret import Interpreter
from compiler.simulate import aggregate, simulate

ROOT = Path(__file__).resolve().parent.parent
SAVANNA = ROOT / "spec" / "ecosystem_savanna"
RARE_LIONS = ROOT / "spec" / "house_rules" / "savanna_rare_lions.rules"


def run(*args):
    out = subprocess.run([sys.executable, "-m", "solver.cli", *args], capture_output=True, text=True, cwd=ROOT)
    return out.returncode, out.stdout, out.stderr


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
                                         "most": max(values)}
        assert winners["values"][seat] == round(sum(seat.name in g[1] for g in games) / 5, 4)
    assert winners["several"] == round(sum(len(g[1]) > 1 for g in games) / 5, 4)


def test_every_kind_of_report_is_summed_up():
    a, b = rt.Seat(0, "p1", "player", "P1"), rt.Seat(1, "p2", "player", "P2")
    games = [{"score": {a: 3, b: 5}, "winners": frozenset({b}), "margin": -2, "result": "no win"},
             {"score": {a: 7, b: 7}, "winners": frozenset({a, b}), "margin": 4, "result": "easy win"},
             {"score": {a: 2, b: 1}, "winners": frozenset(), "margin": 1, "result": "no win"}]
    out = aggregate(games, [a, b])
    assert out["score"] == {"kind": "per seat", "values": {a: {"mean": 4.0, "least": 2, "most": 7},
                                                           b: {"mean": 4.33, "least": 1, "most": 7}}}
    assert out["winners"] == {"kind": "seats", "values": {a: 0.3333, b: 0.6667}, "several": 0.3333,
                              "none": 0.3333}
    assert out["margin"] == {"kind": "number", "values": {"mean": 1.0, "least": -2, "most": 4}}
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
    assert "winners: share of games" in out and "  several" in out


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
    assert "margin: mean (least..most)\n  all games" in out and "result: games" in out


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
