"""The effects on the house rules' pages (``app.house_effects``): one study of several house
rules against their base game gives each the figures a study of that house rule alone gives,
in the shape ``effects.json`` keeps and ``docs`` reads, drawn on the page."""
from __future__ import annotations

import json
from collections import Counter

import pytest
from helpers import ROOT

from rulewright.app import house_effects, study_figures as F, studying as S
from rulewright.app.opening import Request, open_spec
from rulewright.compiler.docgen import house

GAMES = 12
HOUSES = ("savanna_rhinos.rules", "savanna_oasis.rules")


@pytest.fixture(scope="module")
def measured():
    base_path = str(ROOT / "spec" / "ecosystem_savanna")
    base = open_spec(Request(base_path))
    houses = [(name, open_spec(Request(str(ROOT / "spec" / "house_rules" / name))), base_path, base)
              for name in HOUSES]
    effects = house_effects.measure(houses, GAMES, 1, house.effect_mode, house.fingerprint, workers=1)
    return houses, base, effects


def test_each_house_rule_is_measured_as_a_study_of_it_alone(measured):
    """The base game's games played once for both house rules give each the same figures as
    a study of that house rule against its base game: the same seeds, the same games."""
    houses, base, effects = measured
    name, program, base_path, _ = houses[1]
    alone = S.run_study([S.Side(name, program), S.Side(base_path, base)], S.Plan("standard", 4, GAMES, 1, skill_games=1),
                        workers=1)
    figs = F.figures(alone)
    e = effects[name]
    rows = {(f["figure"], f["seat"]): f for f in e["figures"]}
    for key, diff in (("score", "score"), ("margin", "margin"), ("lead_changes", "lead changes")):
        want = figs["differences"]["figures"][diff]
        assert rows[key, 0]["difference"] == [want["mean"], *want["interval99"]], key
        assert rows[key, 0]["house"][0] == figs["sides"][0][key]["mean"]
        assert rows[key, 0]["base"][0] == figs["sides"][1][key]["mean"]
    for seat in range(1, 5):
        w = figs["sides"][0]["seat_wins"][seat - 1]
        assert rows["seat_wins", seat]["house"] == [w["value"], *w["interval99"]]
    assert sum(e["scores"]["house"].values()) == GAMES * 4
    counts = Counter(int(x) for r in alone.of(0).values() for x in r.m.scores)
    assert e["scores"]["house"] == {str(k): n for k, n in sorted(counts.items())}


def test_the_effect_is_what_the_effects_file_holds_and_the_page_draws(measured, tmp_path):
    houses, base, effects = measured
    for name, program, _, _ in houses:
        e = effects[name]
        assert (e["base"], e["house"]) == (house.fingerprint(base), house.fingerprint(program))
        assert (e["games"], e["skill_games"], e["strong"], e["weak"]) == (GAMES, 1, "greedy", "random")
        assert [f["figure"] for f in e["figures"]] == ["seat_wins"] * 4 + ["seat_score"] * 4 + list(house.FIGURES[2:])
    path = tmp_path / "effects.json"
    path.write_text(json.dumps(effects), encoding="utf-8")
    assert house.read_effects(path) == effects              # what docs --measure writes, docs reads
    name, program, _, _ = houses[0]
    from rulewright.compiler.docgen.translations import Translator
    page = house.house_page(program, base, "en", Translator.for_files([], "en"), effects[name])
    score = next(f for f in effects[name]["figures"] if f["figure"] == "score")
    row = next(line for line in page.splitlines() if line.startswith("| score, every seat |"))
    assert f"{score['base'][0]:.1f} ({score['base'][1]:.1f} to {score['base'][2]:.1f})" in row
    assert f"{score['difference'][0]:+.1f}" in row
    assert page.count('class="interval"') == 8          # each seat's share of wins, both rule sets
    assert "skill: a greedy seat wins among random seats" in page
    fr = house.house_page(program, base, "fr", Translator.for_files([], "fr"), effects[name])
    assert "victoires de la place 1" in fr and "wins from seat" not in fr
