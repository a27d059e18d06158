"""Balance studies: the games played (every rule set, every seed, main and skill games), the
same records on one process or two, a study stopped and resumed, what a game measures
(lead changes, the leader at half time, the options taken, the rules run), the figures'
intervals, effects that name their rules with a witness game that replays as recorded,
the report (no script) and the command line's mistakes."""
from __future__ import annotations

import json
import math

import pytest
from helpers import ROOT, run_command

from rulewright.app import study_figures as F
from rulewright.app import studying as S
from rulewright.app.opening import Request, open_spec
from rulewright.compiler.diagnostics import BadInputError
from rulewright.compiler.play import measure as M

BASE = str(ROOT / "spec" / "ecosystem_savanna")
ONE_WAY = str(ROOT / "spec" / "house_rules" / "savanna_one_direction.rules")


@pytest.fixture(scope="module")
def sides():
    return [S.Side(ONE_WAY, open_spec(Request(ONE_WAY))), S.Side(BASE, open_spec(Request(BASE)))]


# the tests that read the study below, on one worker: it is played once
ONE_STUDY = pytest.mark.xdist_group("study")


@pytest.fixture(scope="module")
def study(sides):
    """24 four-player games under each rule set, 2 skill games (greedy among random)."""
    return S.run_study(sides, S.Plan("standard", 4, 24, 1, skill_games=2), workers=1)


def test_every_game_once_the_rule_sets_in_step():
    plan = S.Plan("standard", 3, 10, 5, skill_games=4)
    games = S.tasks(plan, 2)
    assert len(games) == len(set(games)) == 2 * (10 + 4)
    assert {g[2] for g in games if g[1] == "main"} == set(range(5, 15))
    assert {(g[2], g[3]) for g in games if g[1] == "skill"} == {(5 + i, i % 3) for i in range(4)}
    for a, b in zip(games[::2], games[1::2]):       # each seed under both rule sets, one after the other
        assert (a[0], b[0]) == (0, 1) and a[1:] == b[1:]
    first_skill = next(i for i, g in enumerate(games) if g[1] == "skill")
    assert first_skill < len(games) // 2           # interleaved: a study stopped early has both kinds


@ONE_STUDY
def test_two_processes_play_the_same_games_as_one(sides, study):
    plan = S.Plan("standard", 4, 6, 1)
    one = S.run_study(sides, plan, workers=1)
    two = S.run_study(sides, plan, workers=2)
    assert two.workers == 2
    assert [r.as_data() for r in one.records] == [r.as_data() for r in two.records]
    assert [r.as_data() for r in one.records] == [r.as_data() for r in study.records if r.kind == "main"
                                                  and r.seed <= 6]


@ONE_STUDY
def test_what_a_game_measures(study):
    r = study.of(1)[3]
    assert len(r.m.scores) == 4 and r.m.winners and set(r.m.winners) <= {0, 1, 2, 3}
    top = max(r.m.scores)
    assert all(r.m.scores[i] == top for i in r.m.winners)
    assert r.m.choices == 160 and r.m.checkpoints == {"pick": 20}
    assert all(any(o.startswith("k=") for o in taken) for taken in r.m.taken)
    assert r.m.fired["ES-DRAFT-01"] > 0


def test_options_are_shown_in_words(sides):
    from rulewright.app.study_report import option_words
    said = option_words(sides[1].program)
    assert said("k=hyena") == "card: hyena" and said("made>asia") == "made with asia"
    assert said("no_mark") == "no_mark"


def test_lead_changes_and_the_leader_at_half_time():
    class Game:
        players, reports, log, checkpoints, tally = (), {}, [], {}, None
        history = [None] * 10
    watch = M.Watch.__new__(M.Watch)
    watch.seen = [(1, 0), (3, None), (4, 1), (5, 1), (7, 0), (9, 2)]
    m = M.measures(Game(), watch)
    assert m.lead_changes == 3                  # 0 -> 1 -> 0 -> 2 (a tie in between is no change)
    assert m.half_leader == 1                   # the first reading at 5 of 10 choices or later
    watch.seen = [(2, 0), (6, None)]
    assert M.measures(Game(), watch).half_leader is None    # tied at half time: nobody led


def test_options_are_named_by_choice_and_value():
    class Seat:
        def __init__(self, name):
            self.name = name

    class Event:
        def __init__(self, seat, choice, value):
            self.kind, self.seat, self.detail = "choose", seat, {"choice": choice, "value": value}

    class Game:
        players = (Seat("p1"), Seat("p2"))
        log = [Event("p1", "act", "create"), Event("p2", "again", True), Event(None, "pick", "desert"),
               Event("p1", "made", [["a_head", "b_body"], "asia"]), Event("p2", "s", {"id": 1})]
    assert M.options_taken(Game()) == [["act=create", "made>a_head", "made>asia", "made>b_body"], ["again=true"]]


@ONE_STUDY
def test_a_rule_run_only_under_the_house_rule_is_its_effect(study):
    figs = F.figures(study)
    rule = figs["differences"]["rules"]["HR-ES-ONE-DIRECTION"]
    assert rule["clear"] and rule["mean"] > 0 and rule["interval99"][0] > 0
    assert figs["sides"][1]["rules"].get("HR-ES-ONE-DIRECTION", 0) == 0
    assert figs["differences"]["rules"]["ES-DRAFT-01"]["clear"] is False      # the same under both


@ONE_STUDY
def test_each_effect_names_what_the_rules_say_differently(study):
    """A house rule's change is traced to the parts of the game played that read it, and
    each effect of a figure names the rule IDs of the change beside the rules run more."""
    from rulewright.app import study_report
    figs = F.figures(study)
    changes = figs["differences"]["changes"]
    names = {c["name"]: c for c in changes}
    assert "HR-ES-ONE-DIRECTION" in [i for c in changes for i in c["rule_ids"]]
    assert all(r["kind"] in ("procedure", "step", "mode", "scoring", "outcome") for c in changes for r in c["read_by"])
    assert names and all(c["how"] in ("changed", "added", "removed") for c in changes)
    found = study_report.effects(study, figs)
    rule_effect = next(e for e in found if e["what"] == "rule HR-ES-ONE-DIRECTION runs a game")
    assert rule_effect["rules"] == ["HR-ES-ONE-DIRECTION"]
    for e in found:
        if not e["what"].startswith("rule "):
            assert "HR-ES-ONE-DIRECTION" in e["rules"]


def test_a_changed_value_is_traced_to_the_step_that_reads_it():
    """Competition pays 5/3/1: no step runs more often, the definition it changes is named
    with the procedure that pays the chips; a sweep's setting with the step reading it; the
    base game against itself: nothing."""
    from rulewright.app import study_causes as C
    house = str(ROOT / "spec" / "house_rules" / "darwin_cs_5_3_1.rules")
    darwin = str(ROOT / "spec" / "darwins_choice")
    a, b = S.Side(house, open_spec(Request(house))), S.Side(darwin, open_spec(Request(darwin)))
    found = C.changes(a, b)
    assert [(c["name"], c["how"]) for c in found] == [("competition_points", "changed")]
    assert "HR-DC-CS531" in found[0]["rule_ids"] and "DC-COMP-07" in found[0]["rule_ids"]
    assert [r["name"] for r in found[0]["read_by"]] == ["strength_award"]
    assert C.lines(found) == ["def competition_points changed [DC-COMP-07 DC-EVAL-COMP-02 DC-EVAL-COMP-03 "
                              "HR-DC-CS531]; played through procedure strength_award"]
    assert C.changes(b, b) == []

    def swept(value):
        return S.Side(BASE, open_spec(Request(BASE, settings={"hyena_range": value})), (("hyena_range", value),))
    base = S.Side(BASE, open_spec(Request(BASE)))
    assert C.changes(swept("straight"), base) == []                 # the spec's own value
    [hyena] = C.changes(swept("manhattan"), base)
    assert hyena["values"] == ["manhattan", "straight"] and [r["name"] for r in hyena["read_by"]] == ["score.hyena"]


@ONE_STUDY
def test_a_witness_game_replays_as_the_study_recorded_it(study, tmp_path):
    from rulewright.app import study_report
    found = study_report.effects(study, F.figures(study))
    effect = next(e for e in found if e["what"] == "rule HR-ES-ONE-DIRECTION runs a game")
    words = effect["play"].split()[2:]
    assert words[0] == ONE_WAY and "--seed" in words
    code, out, err = run_command("play", *[w for w in words if w not in ("--log", "game.jsonl")], "--json",
                                 cwd=tmp_path)
    assert code == 0, err
    scores = json.loads(out)["reports"]["score"]
    assert [scores[f"p{i + 1}"] for i in range(4)] == study.of(0)[effect["witness"]].m.scores


@ONE_STUDY
def test_the_figures_carry_99_percent_intervals(study):
    side = F.figures(study)["sides"][0]
    assert side["games"] == 24 and len(side["seat_wins"]) == 4
    assert math.isclose(sum(w["value"] for w in side["seat_wins"]) - side["ties"]["value"], 1.0, abs_tol=0.2)
    low, high = side["score"]["interval99"]
    assert low < side["score"]["mean"] < high
    assert side["skill"]["n"] == 2 and side["skill"]["fair"] == 0.25


def test_t_and_the_paired_difference():
    assert F.t99(10) == pytest.approx(3.169, abs=0.005)
    assert F.t99(30) == pytest.approx(2.750, abs=0.005)
    assert F.t99(1000) == pytest.approx(2.581, abs=0.002)
    same = F.paired({s: 1.0 for s in range(20)}, {s: 1.0 for s in range(20)})
    assert same["mean"] == 0 and not same["clear"]
    up = F.paired({s: s % 3 + 2.0 for s in range(30)}, {s: s % 3 + 0.0 for s in range(30)})
    assert up["clear"] and up["mean"] == 2 and up["witness"] == 0
    noisy = F.paired({s: (s * 7919) % 11 for s in range(30)}, {s: (s * 104729) % 11 for s in range(30)})
    assert not noisy["clear"]
    assert F.paired({1: 3.0}, {1: 1.0})["interval99"] is None     # one game: no interval


def test_a_share_differs_by_100_points_at_most(sides):
    few = S.run_study(sides, S.Plan("standard", 3, 4, 1), workers=1)
    for name, d in F.differences(few)["figures"].items():
        if name.endswith("wins") or name in ("ties", "skill"):
            assert d["interval99"] is None or -1.0 <= d["interval99"][0] <= d["interval99"][1] <= 1.0, name


def test_stopped_and_resumed_is_the_whole_study(sides, tmp_path):
    plan = S.Plan("standard", 4, 5, 1)
    whole = S.conduct(sides, plan, out=str(tmp_path / "a"), report=False, workers=1)
    lines = (tmp_path / "a" / "games.jsonl").read_text().splitlines()
    assert len(lines) == 1 + 10 and json.loads(lines[0])["study"]["specs"] == [ONE_WAY, BASE]
    part = tmp_path / "b"
    part.mkdir()
    (part / "games.jsonl").write_text("\n".join(lines[:5]) + "\n" + lines[5][:20])     # cut mid-line
    again = S.conduct(sides, plan, out=str(part), resume=True, report=False, workers=1)
    assert again.study.resumed == 4
    assert [r.as_data() for r in again.study.records] == [r.as_data() for r in whole.study.records]
    assert again.figures == whole.figures
    with pytest.raises(BadInputError, match="played with players 4, not 3"):
        S.conduct(sides, S.Plan("standard", 3, 5, 1), out=str(part), resume=True, report=False)


def test_the_report_runs_no_script(sides, tmp_path):
    done = S.conduct(sides, S.Plan("standard", 4, 12, 1), out=str(tmp_path), workers=1)
    page = (tmp_path / "report.html").read_text()
    lower = page.lower()
    assert "<script" not in lower and "src=" not in lower and 'href="http' not in lower
    assert not any(a.startswith("on") for tag in lower.split("<")[1:] for a in tag.split(">")[0].split()[1:])
    assert "Content-Security-Policy" in page and page.count("<svg") >= 2
    assert "savanna_one_direction" in page and "Key figures" in page
    data = json.loads((tmp_path / "study.json").read_text())
    assert data["played"] == 24 and data["files"]["report"] == done.written["report"]


def test_mistakes_are_one_message(tmp_path):
    code, _, err = run_command("study", "ecosystem_savanna", "--players", "4", "--skill", "greedy", cwd=tmp_path)
    assert code == 2 and "--skill takes STRONG,WEAK" in err
    code, _, err = run_command("study", "ecosystem_savanna", "--players", "4", "--seat", "p9=greedy", cwd=tmp_path)
    assert code == 2 and "p9" in err and "Traceback" not in err
    code, _, err = run_command("study", "ecosystem_savanna", "--players", "4", "--skill", "greedy,human",
                               cwd=tmp_path)
    assert code == 2 and "human" in err and "Traceback" not in err
    code, _, err = run_command("study", "ecosystem_savanna", "--players", "4", "--against", "darwins_choice",
                               cwd=tmp_path)
    assert code == 2 and "--against" in err and "another game" in err


def test_the_command_line_study(tmp_path):
    code, out, err = run_command("study", ONE_WAY, "--against", BASE, "--players", "3", "--games", "8",
                                 "--skill-games", "0", "--workers", "1", "--out", "s", "--json", cwd=tmp_path)
    assert code == 0, err
    data = json.loads(out)
    assert data["players"] == 3 and data["played"] == 16 and len(data["sides"]) == 2
    assert (tmp_path / "s" / "report.html").exists() and (tmp_path / "s" / "study.json").exists()
    code, out, err = run_command("study", ONE_WAY, "--against", BASE, "--players", "3", "--games", "8",
                                 "--skill-games", "0", "--workers", "1", "--out", "s", "--resume", cwd=tmp_path)
    assert code == 0, err
    assert "16 read back" in out and "Key figures" in out


def test_a_sweep_studies_each_value_against_the_reference(tmp_path):
    code, out, err = run_command("study", BASE, "--sweep", "hyena_range=straight,manhattan", "--against", BASE,
                                 "--players", "3", "--games", "12", "--skill-games", "0", "--workers", "1",
                                 "--out", "s", "--json", "--no-report", cwd=tmp_path)
    assert code == 0, err
    data = json.loads(out)
    assert data["specs"] == [f"{BASE} --set hyena_range=straight", f"{BASE} --set hyena_range=manhattan", BASE]
    assert data["reference"] == 2 and [d["side"] for d in data["sweep"]] == [0, 1]
    same = data["sweep"][0]["figures"]            # straight is the spec's own value: the same games
    assert all(d["mean"] in (0, None) and not d["clear"] for d in same.values())     # (None: no skill games)
    assert data["sides"][0] == data["sides"][2]
    code, _, err = run_command("study", BASE, "--sweep", "hyena_range=straight,diagonal", "--players", "3",
                               cwd=tmp_path)
    assert code == 2 and "--sweep hyena_range=diagonal" in err and "straight | manhattan" in err
    code, _, err = run_command("study", BASE, "--sweep", "hyena_range=straight", cwd=tmp_path)
    assert code == 2 and "--sweep takes NAME=V1,V2" in err


def test_the_api_studies_as_the_command_line(tmp_path):
    import rulewright
    study = rulewright.load(ONE_WAY).study(3, against=BASE, games=6, skill_games=0, workers=1)
    code, out, err = run_command("study", ONE_WAY, "--against", BASE, "--players", "3", "--games", "6",
                                 "--skill-games", "0", "--workers", "1", "--no-report", "--json", cwd=tmp_path)
    assert code == 0, err
    mine, theirs = study.to_json(), json.loads(out)
    for key in ("specs", "sides", "differences", "effects", "played"):
        assert mine[key] == theirs[key], key
    assert study.written == {} and "wins from seat 1" in repr(study) and "<table" in study._repr_html_()
    with pytest.raises(BadInputError, match="skill= takes STRONG,WEAK"):
        rulewright.load(ONE_WAY).study(3, skill="greedy")


@ONE_STUDY
def test_the_report_opens_in_a_browser(study, tmp_path):
    """The report of a study in headless Chromium: every plot drawn, no console error,
    nothing asked of the network (skipped where no Chromium or no Playwright is installed).
    (The report as ``conduct`` writes it, of the study the other tests read.)"""
    from browser import CHROMIUM, FLAGS
    from rulewright.app import study_report
    sync = pytest.importorskip("playwright.sync_api")
    if CHROMIUM is None:
        pytest.skip("no Chromium on this machine")
    (tmp_path / "report.html").write_text(study_report.report_html(study, F.figures(study), "a study"),
                                          encoding="utf-8")
    asked, errors = [], []
    with sync.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            page = browser.new_page(viewport={"width": 1100, "height": 900})
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("request", lambda r: asked.append(r.url))
            page.goto((tmp_path / "report.html").as_uri())
            drawn = page.eval_on_selector_all("figure svg", "els => els.map(e => e.getBoundingClientRect().height)")
            headings = page.eval_on_selector_all("h2", "els => els.map(e => e.textContent)")
        finally:
            browser.close()
    assert not errors, errors
    assert [u for u in asked if not u.startswith("file:")] == []
    assert len(drawn) >= 2 and all(h > 100 for h in drawn)
    assert "Key figures" in headings and "Effects" in headings
