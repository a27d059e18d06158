"""The API does what the command line does, through the same jobs: simulate, verify,
diff and examples from Python give the numbers the commands print (run in this process,
with --json), and each value shows itself in a notebook (HTML) and in a terminal."""
from __future__ import annotations

import html
import json

import pytest

import rulewright
from helpers import ROOT, run_main

TWO_PLAYER = "ecosystem_savanna/variants/two_player.rules"
RARE_LIONS = "house_rules/savanna_rare_lions.rules"
NO_CANNIBALS = "house_rules/darwin_no_cannibals.rules"


def as_data(value):
    """A value as JSON reads it back (intervals as lists)."""
    return json.loads(json.dumps(value))


@pytest.fixture(scope="module")
def two_player():
    return rulewright.load(TWO_PLAYER)


def test_simulate_gives_the_numbers_of_the_command(two_player, capsys):
    told = []
    sim = two_player.simulate(games=6, seed=3, progress=lambda what, fraction: told.append(fraction))
    code, out, err = run_main(capsys, "simulate", ROOT / "spec" / TWO_PLAYER, "--games", "6", "--seed", "3", "--json")
    assert code == 0, err
    shown = json.loads(out)
    assert sim.games == 6 and sim.seeds == list(range(3, 9))
    assert as_data(sim.reports) == shown["reports"]
    assert set(sim.reports["score"]["values"]) == {"p1", "p2"}
    assert all(v["ci95"] for v in sim.reports["score"]["values"].values())      # means carry intervals
    assert set(sim.reports["winners"]["ci95"]) == {"p1", "p2"}                 # and so do shares
    assert told == sorted(told) and len(told) == 6 and told[-1] == 1.0
    text = repr(sim)
    assert "score: mean ±95% (least..most)" in text and "winners: share of games (95%)" in text
    assert "Player 1" in text and "6 game(s)" in text
    page = sim._repr_html_()
    assert "<table>" in page and "±" in page and "Player 2" in page


def test_simulate_against_the_base_game_compares_as_the_command_does(capsys):
    game = rulewright.load(RARE_LIONS)
    sim = game.simulate(3, games=5, against="ecosystem_savanna")
    code, out, err = run_main(capsys, "simulate", ROOT / "spec" / RARE_LIONS, "--players", "3", "--games", "5",
                              "--against", ROOT / "spec" / "ecosystem_savanna", "--json")
    assert code == 0, err
    shown = json.loads(out)
    assert as_data(sim.reports) == shown["reports"]
    assert as_data(sim.against) == shown["against"]["reports"]
    assert as_data(sim.differences) == shown["against"]["differences"]
    assert "(each line: this spec, the one compared against" in repr(sim)
    assert "difference" in sim._repr_html_()


def test_simulate_mistakes_are_named_as_python_takes_them():
    game = rulewright.load("ecosystem_savanna")
    with pytest.raises(rulewright.RulesError) as caught:
        game.simulate(3, games=2, against="darwins_choice")
    said = caught.value.render()
    assert "against=" in said and "a spec of another game (Darwin's Choice)" in said and "--against" not in said
    with pytest.raises(rulewright.RulesError):
        game.simulate(3, games=0)


def test_verify_gives_the_findings_of_the_command(capsys):
    game = rulewright.load(RARE_LIONS)
    found = game.verify(checks="unused,never_holds", games=0, time_limit=5)
    code, out, err = run_main(capsys, "verify", ROOT / "spec" / RARE_LIONS, "--check", "unused,never_holds",
                              "--games", "0", "--time-limit", "5", "--json", "--no-progress")
    assert code == 0, err
    shown = json.loads(out)

    def key(f):
        return f["check"], f["definition"], f["status"], f["severity"], f["message"]
    assert sorted(key(f) for f in found.to_json()["findings"]) == sorted(key(f) for f in shown["findings"])
    assert found.counts["COUNTEREXAMPLE"] == 0 and not found.refuted
    assert sum(found.counts.values()) == len(shown["findings"])
    text = repr(found)
    assert text.splitlines()[-1].startswith(f"{game.path}: {len(shown['findings'])} findings: ")
    assert "--" not in text                 # (its hints name the API's parameters, not the options)
    page = found._repr_html_()
    assert "<table>" in page and "status" in page and "could not tell" in page


def test_verify_mistakes_are_named_as_python_takes_them():
    game = rulewright.load("ecosystem_savanna")
    with pytest.raises(rulewright.RulesError) as caught:
        game.verify(checks=["nonsense"])
    assert "checks=: no check 'nonsense'" in caught.value.render()
    with pytest.raises(rulewright.RulesError) as caught:
        game.verify(checks="differs")
    assert "name the base with against= BASE" in caught.value.render()
    with pytest.raises(rulewright.RulesError) as caught:
        game.verify(against="darwins_choice")
    assert "against= " in caught.value.render() and "another game" in caught.value.render()


def test_diff_gives_the_changes_of_the_command(capsys):
    diff = rulewright.load("darwins_choice").diff(NO_CANNIBALS)
    code, out, err = run_main(capsys, "diff", ROOT / "spec" / "darwins_choice", ROOT / "spec" / NO_CANNIBALS,
                              "--json")
    assert code == 0, err
    shown = json.loads(out)
    assert diff.to_json() == shown
    assert diff.changed == [e["name"] for e in shown["changed"]] == ["can_eat"]
    assert not diff.empty and "changed (1):" in repr(diff)
    assert "can_eat" in diff._repr_html_() and "HR-DC-NO-OWN-PREY" in diff._repr_html_()
    # two different games: refused, as the command refuses them
    with pytest.raises(rulewright.RulesError) as caught:
        rulewright.load("darwins_choice").diff("ecosystem_savanna")
    assert "diff compares versions of one game" in caught.value.render()


def test_examples_give_the_runs_of_the_command(capsys):
    ran = rulewright.load("ecosystem_savanna").examples()
    code, out, err = run_main(capsys, "examples", ROOT / "spec" / "ecosystem_savanna", "--json")
    assert code == 0, err
    # (the command runs the examples of the variants below the folder too: the game's own here)
    shown = [e for e in json.loads(out) if e["spec"] == str(ROOT / "spec" / "ecosystem_savanna")]
    assert shown
    mine = ran.to_json()
    assert [(e["example"], e["holds"], [x["got"] for x in e["expectations"]]) for e in mine] == \
        [(e["example"], e["holds"], [x["got"] for x in e["expectations"]]) for e in shown]
    assert ran.ok and ran.failing == 0 and len(ran.runs) == len(shown)
    assert repr(ran).splitlines()[-1] == f"{len(shown)} examples, 0 failing"
    assert ran._repr_html_().count("<td") >= 4 * len(shown)


def test_a_position_and_a_played_game_draw_themselves(two_player):
    played = two_player.play(seed=2)
    page = played._repr_html_()
    assert "<table>" in page and "Player 1" in page and "score" in page
    chart = page[page.index("<svg"):]       # the scores as bars, a bar a seat
    scores = played.reports["score"]
    assert all(f">{int(v)}<" in chart for v in scores.values()) and "Player 2" in chart
    position = two_player.play(seed=2, stop_at="pick:3").position
    shown = position._repr_html_()
    assert shown.startswith("<pre>") and shown.endswith("</pre>")
    assert position.text().splitlines()[0] in shown.replace("&#x27;", "'")


def test_a_position_is_escaped_in_html(two_player):
    position = two_player.play(seed=2, stop_at="pick:3").position
    position.text = lambda: "<script>alert(1)</script> & more"
    assert position._repr_html_() == "<pre>&lt;script&gt;alert(1)&lt;/script&gt; &amp; more</pre>"


def test_the_new_values_are_exported_lazily():
    for name in ("Simulation", "Verification", "Diff", "Examples"):
        assert name in rulewright.__all__ and getattr(rulewright, name).__name__ == name


def test_seats_played_by_the_solver_give_the_games_of_the_command(two_player, capsys):
    """simulate with a solver seat: Python's agents are the command line's (the same seeds
    give the same reports, the same questions asked), and a mistake names Python's words.
    (Each question has a long time limit: the tests' solve plan bounds its work, so the same
    question gets the same answer however loaded the machine is.)"""
    sim = two_player.simulate(games=2, seed=5, agent="solver", agent_seats="p2", agent_time_limit=60)
    code, out, err = run_main(capsys, "simulate", ROOT / "spec" / TWO_PLAYER, "--games", "2", "--seed", "5",
                              "--agent", "solver", "--agent-seats", "p2", "--agent-time-limit", "60", "--json")
    assert code == 0, err
    shown = json.loads(out)
    assert as_data(sim.reports) == shown["reports"]
    assert set(sim.agents) == {"p2"} and sim.agents["p2"]["asked"] > 0
    assert as_data(sim.agents) == shown["solver_agents"]
    assert "solver agents (p2)" in repr(sim)
    played = two_player.play(seed=5, seat_agents={"p1": "solver"}, agent_time_limit=60)
    code, out, err = run_main(capsys, "play", ROOT / "spec" / TWO_PLAYER, "--seed", "5", "--seat", "p1=solver",
                              "--agent-time-limit", "60", "--json")
    assert code == 0, err
    assert as_data(jsonable_reports(played)) == json.loads(out)["reports"]
    with pytest.raises(rulewright.RulesError) as bad:
        two_player.play(agent="solver", agent_seats=["p9"])
    assert "agent_seats=: 'p9' is not a player's seat" in bad.value.render()
    with pytest.raises(rulewright.RulesError) as bad:
        two_player.play(agent="solver", agent_query="best_nothing")
    assert "there is no query 'best_nothing'" in bad.value.render()


def jsonable_reports(played) -> dict:
    from rulewright.compiler.semantics.render import jsonable
    return {k: jsonable(v, state=True) for k, v in played.reports.items()}


def test_a_position_played_on_many_times_gives_the_numbers_of_simulate_from(tmp_path, capsys):
    game = rulewright.load("darwins_choice")
    saved = tmp_path / "turn9.json"
    game.play(4, seed=7, stop_at="turn:9").position.save(saved)
    sim = game.position(saved).simulate(games=3, seed=2)
    code, out, err = run_main(capsys, "simulate", ROOT / "spec" / "darwins_choice", "--from", saved, "--games", "3",
                              "--seed", "2", "--json")
    assert code == 0, err
    shown = json.loads(out)
    assert as_data(sim.reports) == shown["reports"] and sim.to_json()["from"] == shown["from"] == str(saved)
    assert f"from {saved}: each game plays on from there" in repr(sim)


def test_a_game_an_answer_and_a_finding_draw_themselves(two_player):
    page = two_player._repr_html_()
    assert "Ecosystem: Savanna" in page and "two_player" in page and "2..2 players" in page
    assert "best-pick" in page
    answer = rulewright.load("ecosystem_savanna").ask("best-placement", state=rulewright.load(
        "ecosystem_savanna").grid(ROOT / "examples" / "partial.grid", partial=True), card="hyena", time_limit=5,
        workers=1)
    shown = answer._repr_html_()
    assert shown.startswith("<pre>best_placement: ") and html.unescape(shown[5:-6]) == answer.to_text()
    found = rulewright.load(RARE_LIONS).verify(checks="never_holds", games=0, time_limit=5).findings[0]
    page = found._repr_html_()
    assert found.status in page and found.definition in page and html.escape(found.message) in page
