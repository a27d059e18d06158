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


@pytest.mark.parametrize("args, message", [
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
