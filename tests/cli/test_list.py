"""``rulewright list``: the shipped games, their versions, house rules and queries with
their titles, as text and JSON; and "did you mean" for a shipped name mistyped."""
from __future__ import annotations

import json

import pytest

from rulewright.cli import listing
from rulewright.compiler import files
from helpers import run_main as run


def test_the_list_names_the_games_versions_house_rules_and_queries(capsys):
    code, out, err = run(capsys, "list")
    assert code == 0 and err == ""
    assert "darwins_choice  Darwin's Choice" in out
    assert "ecosystem_savanna  Ecosystem: Savanna" in out
    for line in ("darwins_choice/variants/short_game  Short game (3 Eras)",
                 "house_rules/darwin_drought", "Drought",
                 "ecosystem_savanna/variants/solo", "Solo against Jhay",
                 "best-move", "Best main action"):
        assert line in out, line


def test_every_shipped_spec_is_listed_once():
    games, others = listing.library()
    listed = [g.path for g in games] + [s.path for g in games for s in g.versions + g.house_rules] + \
        [s.path for s in others]
    on_disk = [str(f) for f in files.LIBRARY.rglob("*.rules") if f.parent.name in ("variants", "house_rules")]
    assert sorted(p for p in listed if p.endswith(".rules")) == sorted(on_disk)
    assert len(listed) == len(set(listed))
    assert others == []         # (every house rule shipped is of a shipped game)


def test_titles_over_two_lines_and_without_quotes_elsewhere():
    """A variant line over two lines (``variant NAME [IDs]`` then ``"Title" extends``)
    gives its title; each house rule is filed under the game it extends."""
    games, _ = listing.library()
    by_name = {s.name: (g.name, s.title) for g in games for s in g.versions + g.house_rules}
    assert by_name["house_rules/darwin_no_degeneration"] == ("darwins_choice", "No Degeneration")
    assert by_name["darwins_choice/variants/coop_2v2"] == ("darwins_choice", "2 vs 2 Co-op Version")
    assert by_name["house_rules/savanna_elephant_floor"][0] == "ecosystem_savanna"
    assert all(title for _, title in by_name.values())


def test_the_titles_are_those_the_loaded_specs_have():
    from rulewright.compiler import load
    games, _ = listing.library()
    savanna = next(g for g in games if g.name == "ecosystem_savanna")
    program = load(savanna.path)
    assert savanna.title == program.title
    assert [q.name for q in savanna.queries] == [q.replace("_", "-") for q in program.queries]


def test_the_list_as_json(capsys):
    code, out, err = run(capsys, "list", "--json")
    assert code == 0
    data = json.loads(out)
    games = {g["name"]: g for g in data["games"]}
    assert games["darwins_choice"]["title"] == "Darwin's Choice"
    assert {"name": "best-move", "title": "Best main action"} in [
        {k: q[k] for k in ("name", "title")} for q in games["darwins_choice"]["queries"]]
    assert any(h["name"] == "house_rules/savanna_rhinos" for h in games["ecosystem_savanna"]["house_rules"])
    assert data["other_house_rules"] == []


def test_each_listed_name_is_a_spec_the_commands_take():
    for name in listing.names():
        assert files.spec_path(name) != name, name


def test_a_library_of_ones_own(tmp_path):
    """Another library: a game, a version, a house rule of it and one of no game there."""
    (tmp_path / "gem" / "variants").mkdir(parents=True)
    (tmp_path / "gem" / "game.rules").write_text('# game not_this "No"\ngame gem [G-1] "Gems \\"deluxe\\""\n'
                                                 'query best_gem "The best gem" {\n}\nquery plain {\n}\n')
    (tmp_path / "gem" / "variants" / "small.rules").write_text('variant small "Small" extends ".."\n')
    (tmp_path / "house_rules").mkdir()
    (tmp_path / "house_rules" / "more.rules").write_text('/// More.\nvariant more [H-1]\n  extends "../gem"\n')
    (tmp_path / "house_rules" / "lost.rules").write_text('variant lost "Lost" extends "../nowhere"\n')
    games, others = listing.library(tmp_path)
    [gem] = games
    assert (gem.name, gem.title) == ("gem", 'Gems "deluxe"')
    assert [(s.name, s.title) for s in gem.versions] == [("gem/variants/small", "Small")]
    assert [(s.name, s.title) for s in gem.house_rules] == [("house_rules/more", None)]
    assert [(q.name, q.title) for q in gem.queries] == [("best-gem", "The best gem"), ("plain", None)]
    assert [s.name for s in others] == ["house_rules/lost"]
    assert "house rules of other games:" in listing.listed(games, others)


@pytest.mark.parametrize("given, near", [("darwins_chioce", "darwins_choice"),
                                         ("spec/darwins_chioce", "darwins_choice"),
                                         ("ecosystem_savana", "ecosystem_savanna"),
                                         ("house_rules/darwin_drougth.rules", "house_rules/darwin_drought"),
                                         ("darwin_drougth", "house_rules/darwin_drought")])
def test_a_close_name(given, near):
    assert f"did you mean '{near}'?" in listing.near_name(given)


@pytest.mark.parametrize("given", ["my_own_game", "darwins_choice", "/tmp/nothing/here", ""])
def test_no_close_name(given):
    assert listing.near_name(given) is None


@pytest.mark.parametrize("argv", [["play", "darwins_chioce", "--players", "4"],
                                  ["simulate", "ecosystem_savana", "--players", "2"],
                                  ["verify", "house_rules/darwin_drought", "--against", "darwins_chioce"]])
def test_a_mistyped_game_is_said_with_its_close_name(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2 and "no such spec file or directory" in err
    assert "did you mean '" in err and "rulewright list" in err, err
