"""rulewright verify: each check on a small game written for it, the statuses and exit codes,
the JSON and the witness files read back by score and show; properties and domains in the
language, with their mistakes located."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import TILES, TILES_PLAY, run_command

from rulewright.compiler import load
from rulewright.compiler.diagnostics import RulesError
from rulewright.compiler.interpret import Interpreter
from rulewright.compiler.play.inputs import read_grid
from rulewright.solver.verify.run import CHECKS, verify

ROOT = Path(__file__).resolve().parents[1]
while not (ROOT / "pyproject.toml").is_file():
    ROOT = ROOT.parent

GAME = """
game tiles "Tiles"
enum colour { red, green, blue }
grid board: 2 by 2 of colour

/// A tile may go anywhere but blue.
rule allowed(c: colour) [T-01] = c != blue
/// No colour is both red and green.
rule impossible(c: colour) [T-02] = c == red and c == green
/// Every colour is a colour.
rule trivial(c: colour) [T-03] = c == red or c != red
def unread_thing(c: colour) = 1
switch unread_switch: bool = true

/// Two points per red tile, one per green, minus one per blue.
def worth(c: colour) = if c == red then 2 else if c == green then 1 else -1
scoring points(g: board) {
  step tiles = sum(worth(g[x]) for x in cells(g) if g[x] != none)
}

state { placed: int }
procedure turn(p: seat) {
  choose c in colour where allowed(c) by p
  set placed = placed + 1
  checkpoint turn_end
}
invariant few_tiles: placed <= 8 else "no more than 8 tiles"
mode standard "Standard" players 1..2 {
  seats players
  repeat 2 { for p in players { do turn(p) } }
  report placed = placed
}
"""


def write(tmp_path: Path, text: str, name: str = "tiles.rules") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def run(*args, cwd=ROOT):
    """The command run in this process, as it runs in its own (``helpers.run_command``)."""
    return run_command(*args, cwd=cwd)


def findings(report, check=None, name=None):
    return [f for f in report.findings if (check is None or f.check == check) and
            (name is None or f.definition == name)]


def test_rules_that_never_or_always_hold(tmp_path):
    report = verify(load(write(tmp_path, GAME)), "tiles", {"never_holds", "always_holds"}, games=0)
    [never] = findings(report, "never_holds", "impossible")
    assert (never.status, never.severity) == ("PROVED", "warning")
    [always] = findings(report, "always_holds", "trivial")
    assert (always.status, always.severity) == ("PROVED", "warning")
    [both] = findings(report, "never_holds", "allowed")
    assert both.severity == "info"
    assert both.witness["holds"]["c"] != "blue" and both.witness["fails"]["c"] == "blue"
    assert never.rule_ids == ("T-02",) and never.span.line == 9


def test_unused_definitions(tmp_path):
    report = verify(load(write(tmp_path, GAME)), "tiles", {"unused"}, games=0)
    assert {f.definition for f in findings(report, "unused")} == {"unread_thing", "unread_switch", "impossible",
                                                                   "trivial"}      # (allowed is read by turn)
    assert all(f.status == "PROVED" and f.severity == "warning" for f in report.findings)


WEATHER = """
game weather "Weather"
enum sky { sunny, rainy, snowy }
enum season { spring, autumn }
table bonus (season: season, points: int) {
  early | spring | 2
  late  | autumn | 1
}
state {
  today: sky = sunny
  turns: int = 0
}
procedure turn(p: seat) {
  if today == sunny { set today = rainy } else { set today = sunny }
  set turns = turns + early.points
}
mode standard "Standard" players 1..2 {
  seats players
  repeat 2 { for p in players { do turn(p) } }
  report turns = turns
}
"""


def test_unused_values_and_rows(tmp_path):
    """A value nothing names, of an enum nothing goes over, is reported; a table only looked up
    by one row leaves the others unread; a value carried by a read row's column is read."""
    report = verify(load(write(tmp_path, WEATHER, "weather.rules")), "weather", {"unused"}, games=0)
    values = {f.definition: f for f in findings(report, "unused") if "." in f.definition}
    assert set(values) == {"sky.snowy", "bonus.late"}
    assert values["sky.snowy"].span.line == 3 and "value 'snowy' of sky" in values["sky.snowy"].message
    assert "row 'late' of bonus" in values["bonus.late"].message
    # going over the table reads every row
    looped = WEATHER.replace("early.points", "sum(b.points for b in bonus)")
    report = verify(load(write(tmp_path, looped, "weather.rules")), "weather", {"unused"}, games=0)
    assert {f.definition for f in findings(report, "unused") if "." in f.definition} == {"sky.snowy"}


def test_range_of_a_scoring_over_every_grid(tmp_path):
    report = verify(load(write(tmp_path, GAME)), "tiles", {"range"}, games=0)
    [points] = findings(report, "range", "points")
    assert points.status == "PROVED"
    assert (points.witness["least"], points.witness["most"]) == (-4, 8)     # four blue tiles, four red
    assert points.severity == "warning"                                     # it can go below 0
    [worth] = findings(report, "range", "worth")
    assert (worth.witness["least"], worth.witness["most"]) == (-1, 2)


def test_range_of_each_step_and_a_step_read_by_name(tmp_path):
    two_steps = GAME.replace("step tiles = sum(worth(g[x]) for x in cells(g) if g[x] != none)",
                             "step reds = sum(2 for x in cells(g) if g[x] == red)\n"
                             "  step others = sum(worth(g[x]) for x in cells(g) if g[x] != none and g[x] != red)")
    two_steps += "def blue_loss(g: board) = points(g).others\n"
    program = load(write(tmp_path, two_steps))
    report = verify(program, "tiles", {"range"}, games=0)
    ranges = {f.definition: (f.witness["least"], f.witness["most"], f.status) for f in findings(report, "range")}
    assert ranges["points"] == (-4, 8, "PROVED")
    assert ranges["points.reds"] == (0, 8, "PROVED") and ranges["points.others"] == (-4, 4, "PROVED")
    assert ranges["blue_loss"] == (-4, 4, "PROVED")
    [reds] = findings(report, "range", "points.reds")
    assert reds.severity == "info" and reds.span.line == 18 and "step 'points.reds'" in reds.message
    # the interpreter reads the same step
    path = write(tmp_path, "blue green\nred blue\n", "g.grid")
    grid = read_grid(str(path), program, "board", allow_free=False)
    assert Interpreter(program).call("blue_loss", grid) == -1
    bad = write(tmp_path, two_steps.replace("points(g).others", "points(g).other"))
    with pytest.raises(RulesError, match="scoring 'points' has no step 'other'"):
        load(bad)


def test_choosable_values(tmp_path):
    report = verify(load(write(tmp_path, GAME)), "tiles", {"choosable"}, games=0)
    [allowed] = findings(report, "choosable", "allowed(c)")
    assert allowed.status == "PROVED" and allowed.witness["never"] == ["blue"]
    [impossible] = findings(report, "choosable", "impossible(c)")
    assert sorted(impossible.witness["never"]) == ["blue", "green", "red"]


def test_property_proved_and_refuted_with_a_replayed_witness(tmp_path):
    text = GAME + """
property red_pays "A board of red tiles scores 8" {
  choose g: board where all(g[x] == red for x in cells(g))
  holds points(g) == 8
}
property never_negative "No board scores below 0" {
  choose g: board where full(g)
  holds points(g) >= 0
}
"""
    report = verify(load(write(tmp_path, text)), "tiles", {"property"}, games=0)
    [ok] = findings(report, "property", "red_pays")
    assert (ok.status, ok.severity) == ("PROVED", "info")
    [bad] = findings(report, "property", "never_negative")
    assert (bad.status, bad.severity) == ("COUNTEREXAMPLE", "error")
    assert report.refuted()


def test_cli_exit_codes_json_and_witness_files(tmp_path):
    spec = write(tmp_path, GAME + """
property never_negative "No board scores below 0" {
  choose g: board where full(g)
  holds points(g) >= 0
}
""")
    out_dir = tmp_path / "witnesses"
    code, out, err = run("verify", spec, "--check", "property,never_holds", "--json", "--games", "0",
                         "--out", out_dir)
    assert code == 1, err
    data = json.loads(out)
    assert set(data) == {"spec", "findings", "summary"}
    for f in data["findings"]:
        assert {"check", "definition", "status", "rule_ids", "at", "message", "witness", "seconds"} <= set(f)
        assert f["check"] in CHECKS and f["status"] in ("PROVED", "COUNTEREXAMPLE", "SAMPLED", "UNKNOWN")
    [bad] = [f for f in data["findings"] if f["status"] == "COUNTEREXAMPLE"]
    grid = next(p for p in bad["files"] if p.endswith(".grid"))
    program = load(spec)
    board = read_grid(grid, program, "board", allow_free=True)
    assert int(Interpreter(program).call("points", board)) < 0     # read back, it does break the property


def test_cli_refuses_what_it_cannot_do(tmp_path):
    spec = write(tmp_path, GAME)
    code, _, err = run("verify", spec, "--check", "nonsense")
    assert code == 2 and "no check 'nonsense'" in err
    code, _, err = run("verify", spec, "--check", "differs")
    assert code == 2 and "--against" in err
    code, out, err = run("verify", spec, "--games", "3", "--no-progress")
    assert code == 0, err
    last = out.rstrip().splitlines()[-1]
    assert last.startswith(f"{spec}: ") and " sampled, 0 refuted, could not tell: 0" in last, out


BROKEN_GAME = GAME.replace("repeat 2 { for p in players { do turn(p) } }",
                           "repeat 5 { for p in players { do turn(p) } }")


def test_sampled_invariant_broken_with_a_position_show_reads(tmp_path):
    spec = write(tmp_path, BROKEN_GAME)
    report = verify(load(spec), "tiles", {"invariant"}, games=3)
    [broken] = findings(report, "invariant", "few_tiles")
    assert broken.status == "COUNTEREXAMPLE" and broken.witness["mode"] == "standard"
    report.write_witnesses(str(tmp_path / "w"))
    state = next(p for p in broken.files if p.endswith(".state.json"))
    code, out, err = run("show", spec, "--state", state)
    # read back, the position is the one that breaks the invariant: show refuses it, naming it
    assert code == 2 and "few_tiles" in err and "found 9" in err


def test_sampled_checks_hold_on_a_sound_game(tmp_path):
    report = verify(load(write(tmp_path, GAME)), "tiles", {"invariant", "playable", "terminates", "runtime"},
                    games=4)
    # the tile chosen always has an option (red is always allowed): proved; placed <= 8 is
    # kept by the games, not by every step (from 8 tiles, one more is 9): sampled, with the step
    assert {(f.check, f.status) for f in report.findings} == {
        ("invariant", "SAMPLED"), ("playable", "PROVED"), ("terminates", "SAMPLED"), ("runtime", "SAMPLED")}
    [inv] = findings(report, "invariant")
    assert "not proved by induction: the step at tiles.rules:" in inv.message and "(placed = 8)" in inv.message
    assert all("evidence" in f.message or "seeded games" in f.message for f in report.findings if f.status == "SAMPLED")


def test_a_choice_with_no_option_and_a_game_that_never_ends(tmp_path):
    stuck = GAME.replace("rule allowed(c: colour) [T-01] = c != blue", "rule allowed(c: colour) [T-01] = false")
    report = verify(load(write(tmp_path, stuck)), "tiles", {"playable"}, games=2)
    [f] = findings(report, "playable")
    assert f.status == "COUNTEREXAMPLE" and "seed" in f.message
    endless = GAME.replace("repeat 2 { for p in players { do turn(p) } }",
                           "while placed >= 0 { set placed = placed + 0 }")
    report = verify(load(write(tmp_path, endless, "endless.rules")), "tiles", {"terminates"}, games=1)
    [f] = findings(report, "terminates")
    assert f.status == "COUNTEREXAMPLE"


def test_differs_finds_an_input_where_a_house_rule_changes_a_rule(tmp_path):
    base = write(tmp_path, GAME)
    house = write(tmp_path, 'variant greens_too [H-01] "No green either" extends "tiles.rules"\n'
                            "override rule allowed(c: colour) [H-01] = c == red\n", "house.rules")
    report = verify(load(house), "house", {"differs"}, base=load(base), games=0)
    [f] = findings(report, "differs", "allowed")
    assert f.status == "PROVED" and f.witness["c"] == "green"
    assert (f.witness["base"], f.witness["variant"]) == (True, False)
    same = write(tmp_path, 'variant same [H-02] "Said another way" extends "tiles.rules"\n'
                           "override rule allowed(c: colour) [H-02] = c == red or c == green\n", "same.rules")
    report = verify(load(same), "same", {"differs"}, base=load(base), games=0)
    assert any(f.definition == "allowed" and f.severity == "warning" for f in report.findings)
    assert any("changes nothing" in f.message for f in report.findings)



def test_differs_compares_a_change_of_play_in_whole_seeded_games(tmp_path):
    """A house rule that changes a procedure (how the game is played) changes no definition an
    input shows: verify --against said nothing at all (0 findings). The same seeded games
    are now played under both rule sets: a game that ends otherwise is the witness (its
    seed replays it), games that end alike are evidence."""
    base = write(tmp_path, TILES + TILES_PLAY)
    doubled = write(tmp_path, 'variant doubled [H-01] "Double pay" extends "tiles.rules"\n'
                              "override procedure turn(p: seat) [H-01] {\n  choose c in colour by p\n"
                              "  set placed = placed + 2 * worth(c)\n  checkpoint turn_end\n}\n", "doubled.rules")
    report = verify(load(doubled), "doubled", {"differs"}, base=load(base), games=0)
    [f] = [f for f in report.findings if "seeded game" in f.message]
    assert f.status == "PROVED" and f.definition == "turn" and f.rule_ids == ("H-01",), f
    w = f.witness
    ends = [Interpreter(load(p)).play(w["mode"], w["players"], w["seed"]).reports["placed"] for p in (base, doubled)]
    assert ends[0] != ends[1] and (w["base"], w["variant"]) == tuple(str(e) for e in ends), (w, ends)
    same = write(tmp_path, 'variant same [H-02] "Said another way" extends "tiles.rules"\n'
                           "override procedure turn(p: seat) [H-02] {\n  choose c in colour by p\n"
                           "  set placed = worth(c) + placed\n  checkpoint turn_end\n}\n", "same.rules")
    report = verify(load(same), "same", {"differs"}, base=load(base), games=0)
    [f] = [f for f in report.findings if "seeded games" in f.message]
    assert f.status == "SAMPLED" and "end alike" in f.message and f.witness["games"] == 20, f
    assert not any(x.status == "PROVED" and "changes nothing" in x.message for x in report.findings)

CHOOSY = """
game choosy "Choosy"
enum colour { red, green, blue }
grid board: 2 by 2 of colour
scoring points(g: board) {
  step reds = sum(2 for x in cells(g) if g[x] == red)
  step pick {
    choose best in cells(g) where g[best] != none
    points if g[best] == blue then 3 else 1
  }
}
"""


def test_differs_compares_a_score_that_is_the_best_of_a_choice(tmp_path):
    """A scoring with a choice of its own: the best choice on each side, replayed; a change
    proved the same on every input makes everything reading it the same."""
    base = write(tmp_path, CHOOSY, "choosy.rules")
    greens = write(tmp_path, 'variant greens [H-01] "Greens count" extends "choosy.rules"\n'
                             "override step points.reds [H-01] = sum(2 for x in cells(g) if g[x] == red or "
                             "g[x] == green)\n", "greens.rules")
    program = load(greens)
    report = verify(program, "greens", {"differs"}, base=load(base), games=0)
    [f] = findings(report, "differs", "points")
    assert f.status == "PROVED" and f.witness["base"] != f.witness["variant"]
    # the interpreters, each choosing its best, give the witness's values
    grid = f.witness["g"]
    assert Interpreter(program).call("points", grid) == f.witness["variant"]
    assert Interpreter(load(base)).call("points", grid) == f.witness["base"]
    same = write(tmp_path, CHOOSY + "def doubled(g: board) = 2 * points(g)\n", "choosy.rules")
    said = write(tmp_path, 'variant said [H-02] "Said another way" extends "choosy.rules"\n'
                           "override step points.reds [H-02] = sum(1 + 1 for x in cells(g) if g[x] == red)\n",
                 "said.rules")
    report = verify(load(said), "said", {"differs"}, base=load(same), games=0)
    assert {(f.definition, f.status) for f in findings(report, "differs")} >= {("points", "PROVED"),
                                                                               ("doubled", "PROVED")}
    assert any("changes nothing" in f.message for f in report.findings)


@pytest.mark.parametrize("text, message", [
    ('property p "x" { choose c in colour }', "does not end with what holds"),
    ('property p "x" { choose c in colour\n holds c == red\n holds c != red }', "once, at its end"),
    ('property p "x" { input n: int\n holds n > 0 }', "'input' cannot be used in a property"),
    ('procedure q { holds 1 == 1 }', "'holds' cannot be used here"),
    ('domain d: colour { let n = 3 }', "its last value 'n' is a int"),
    ('domain d: colour { require 1 == 1 }', "does not end with the value it ranges over"),
])
def test_property_and_domain_mistakes_are_located(tmp_path, text, message):
    with pytest.raises(RulesError) as info:
        load(write(tmp_path, GAME + "\n" + text + "\n"))
    assert message in info.value.render()


def test_shipped_guarantees_are_proved():
    report = verify(load(ROOT / "spec" / "ecosystem_savanna"), "savanna", {"property"}, games=0, time_limit=60)
    assert findings(report) and all(f.status == "PROVED" for f in report.findings)
    floor = load(ROOT / "spec" / "house_rules" / "savanna_elephant_floor.rules")
    report = verify(floor, "floor", {"property"}, games=0, time_limit=60)
    [f] = findings(report, "property", "never_below_zero")
    assert f.status == "PROVED"


def test_no_ecosystem_below_zero_is_refuted_under_the_default_reading():
    """The rulebook's elephants go below zero (ES-AMB-03's default): the same property,
    asked of the base game, has a counterexample: an elephant amid four animals."""
    spec = load(ROOT / "spec" / "ecosystem_savanna")
    floor = load(ROOT / "spec" / "house_rules" / "savanna_elephant_floor.rules")
    spec.properties["never_below_zero"] = floor.properties["never_below_zero"]
    report = verify(spec, "savanna", {"property"}, games=0, time_limit=60)
    [f] = findings(report, "property", "never_below_zero")
    assert f.status == "COUNTEREXAMPLE"
    grid = f.witness["g"]
    assert any(v == "elephant" for v in grid.cards.values())


def test_a_section_is_never_unused():
    """A section groups definitions for the rulebook (people read it): no false alarm."""
    from rulewright.solver.verify.static import unused
    for spec in ("spec/darwins_choice", "spec/ecosystem_savanna"):
        program = load(ROOT / spec)
        sections = [n for n, d in program.definitions.items() if type(d).__name__ == "Section"]
        assert sections, spec
        assert not [f for f in unused(program) if f.definition in sections], spec
