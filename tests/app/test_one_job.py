"""The application layer under both faces: the command line and the Python API open a
saved game through the same job, so they read the same position; each face names what
the user gave in its own words."""
from __future__ import annotations

import json

import pytest

import rulewright
from helpers import ROOT, rel, run_main

DARWIN = ROOT / "spec" / "darwins_choice"


@pytest.fixture(scope="module")
def saved_with_a_setting(tmp_path_factory):
    """A Darwin's Choice game saved at turn 3, played with --set markers_per_colour=12."""
    folder = tmp_path_factory.mktemp("one_job")
    path = folder / "pos.json"
    from rulewright.cli import main
    assert main(["play", str(DARWIN), "--players", "3", "--seed", "4", "--set", "markers_per_colour=12",
                 "--stop-at", "turn:3", "--save-state", str(path)]) == 0
    return path


def test_a_saved_game_reads_the_same_through_both_faces(saved_with_a_setting, capsys):
    code, out, err = run_main(capsys, "show", DARWIN, "--state", saved_with_a_setting, "--json")
    assert code == 0, err
    shown = json.loads(out)
    position = rulewright.load("darwins_choice").position(saved_with_a_setting)
    assert position.game.settings["markers_per_colour"] == 12
    assert position.to_json()["switches"]["markers_per_colour"] == 12
    assert json.dumps(shown).count('"markers_per_colour": 12') >= 1
    # what the API writes back is the game as it was played
    again = saved_with_a_setting.parent / "again.json"
    position.save(again)
    assert json.loads(again.read_text())["switches"]["markers_per_colour"] == 12
    # and both faces see the same state, value for value
    code, out2, err = run_main(capsys, "show", DARWIN, "--state", again, "--json")
    assert code == 0, err
    assert json.loads(out2)["state"] == shown["state"]


def test_a_loaded_game_named_with_other_settings_keeps_the_game_given(saved_with_a_setting):
    game = rulewright.load("darwins_choice", settings={"markers_per_colour": 9})
    position = game.position(saved_with_a_setting)
    assert position.game is game and position.game.settings["markers_per_colour"] == 9


@pytest.mark.parametrize("face", ["api", "cli"])
def test_each_face_names_a_setting_its_own_way(face, capsys, tmp_path):
    if face == "api":
        with pytest.raises(rulewright.RulesError) as caught:
            rulewright.load("ecosystem_savanna", tables={"nope": str(tmp_path / "x.csv")})
        said = caught.value.render()
        assert "tables: no table 'nope'" in said and "--table" not in said
    else:
        code, out, err = run_main(capsys, "check", ROOT / "spec" / "ecosystem_savanna", "--table",
                                  f"nope={tmp_path / 'x.csv'}")
        assert code == 2 and "--table: no table 'nope'" in err


def test_the_api_names_a_setting_no_rule_reads_as_the_api_takes_it(tmp_path):
    # a variant replaces the only rule that read the switch hyena_range
    v = tmp_path / "v.rules"
    v.write_text(f'variant short_hyenas "Hyenas reach two cells away" extends "{rel(ROOT / "spec" / "ecosystem_savanna", tmp_path)}"\n'
                 "override relation hyena_reach = two_away\n", encoding="utf-8")
    with pytest.raises(rulewright.RulesError) as caught:
        rulewright.load(v, settings={"hyena_range": "manhattan"})
    said = caught.value.render()
    assert "settings['hyena_range']: no rule of" in said and "--set" not in said


def test_check_says_each_spec_as_data_with_its_errors(capsys, tmp_path):
    good = ROOT / "spec" / "ecosystem_savanna" / "variants" / "two_player.rules"
    bad = tmp_path / "bad.rules"
    bad.write_text('game bad "Bad"\ndef x = y + 1\n', encoding="utf-8")
    code, out, err = run_main(capsys, "check", good, bad, "--json")
    data = json.loads(out)
    assert code == 1 and data["ok"] is False and not err
    first, second = data["specs"]
    assert first["ok"] and first["definitions"] > 0 and first["title"].startswith("Ecosystem: Savanna")
    assert not second["ok"] and second["errors"][0]["at"].startswith(str(bad))
    assert "'y'" in second["errors"][0]["message"]


TALLY = """game tally "Tally"
state { n: int }
/// The count never passes 3.
invariant small: n <= 3 else "the count passed 3"
mode m "Counting" players 1..1 {
  seats players
  repeat 5 {
    checkpoint tick
    set n = n + 1
  }
  report n = n
}
"""


def test_a_game_whose_rules_break_an_invariant_fails_through_both_faces(tmp_path, capsys):
    """Playing is one job (``app.playing.play_game``): the invariants are checked at every
    checkpoint whichever face plays (the API used to return the game)."""
    path = tmp_path / "tally.rules"
    path.write_text(TALLY, encoding="utf-8")
    code, out, err = run_main(capsys, "play", path, "--players", "1")
    assert code == 1 and "at checkpoint tick:5 the rules reached a position that breaks this invariant" in err
    with pytest.raises(rulewright.RulesError) as failed:
        rulewright.load(path).play(1)
    assert failed.value.render() == err.strip()
