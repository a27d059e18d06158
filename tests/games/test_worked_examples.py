"""Worked examples written in the specs (``example``): every shipped one holds with the
rulebook's numbers; a wrong number fails, located; the language's mistakes are located;
an example can read a position from a state file beside the spec."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from helpers import ROOT, run_command
from rulewright.compiler import load
from rulewright.compiler.diagnostics import RulesError
from rulewright.compiler.interpret import Interpreter
from rulewright.compiler.play.examples import run_examples

GAMES = [ROOT / "spec" / "ecosystem_savanna"] + sorted((ROOT / "spec" / "ecosystem_savanna" / "variants").glob("*.rules"))
DARWIN = [ROOT / "spec" / "darwins_choice"] + sorted((ROOT / "spec" / "darwins_choice" / "variants").glob("*.rules"))


def run(*args, cwd=ROOT):
    """The command run in this process, as it runs in its own (``helpers.run_command``)."""
    return run_command(*args, cwd=cwd)


@pytest.mark.parametrize("spec", GAMES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_shipped_example_holds(spec):
    runs = run_examples(Interpreter(load(spec)))
    assert {r.name for r in runs} >= {"water_hole", "prairie_tree_zebra", "cheetah_lion", "hyena_vulture", "margot"}
    failing = [(r.name, r.error, [(e.text, e.got, e.wanted) for e in r.expectations if not e.holds])
               for r in runs if not r.holds]
    assert not failing


@pytest.mark.parametrize("spec", DARWIN, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_shipped_darwin_example_holds(spec):
    """DC-EX-1 to 3, on positions written as state files; the versions where an example does
    not apply (no food for children, free mutations for beginners) remove it."""
    runs = run_examples(Interpreter(load(spec)))
    if spec.name not in ("kids.rules",):
        assert "coast_and_high_mountains" in {r.name for r in runs}
    failing = [(r.name, r.error, [(e.text, e.got, e.wanted) for e in r.expectations if not e.holds])
               for r in runs if not r.holds]
    assert not failing


def test_margot_example_gives_the_rulebook_numbers():
    [margot] = [r for r in run_examples(Interpreter(load(ROOT / "spec" / "ecosystem_savanna"))) if r.name == "margot"]
    shown = {e.text: (e.got, e.wanted) for e in margot.expectations}
    assert shown["s == 86"] == (86, 86) and shown["s.water == 12"] == (12, 12)
    assert len(margot.expectations) == 12


GAME = """
game tiles "Tiles"
enum colour { red, green, blue }
grid board: 2 by 2 of colour
scoring points(g: board) {
  step reds = sum(2 for x in cells(g) if g[x] == red)
  step blues = sum(-1 for x in cells(g) if g[x] == blue)
}
state { placed: int }
procedure turn(p: seat) {
  set placed = placed + 1
  checkpoint turn_end
}
mode standard "Standard" players 1..2 {
  seats players
  repeat 2 { for p in players { do turn(p) } }
}
"""


def write(tmp_path: Path, text: str, name: str = "tiles.rules") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_wrong_number_fails_with_both_numbers_and_its_place(tmp_path):
    spec = write(tmp_path, GAME + """
/// Two reds and a blue.
example mixed [T-1] "Two reds and a blue" {
  let g = grid board { red . blue red }
  let s = points(g)
  expect s == 3
  expect s.blues == -2
}
""")
    code, out, _ = run("examples", spec)
    assert code == 1
    assert "ok   s == 3" in out
    assert f"FAIL s.blues == -2 (the rules give -1, the example says -2)  at {spec}:24:3" in out
    code, out, _ = run("examples", spec, "--json")
    [entry] = json.loads(out)
    assert entry["holds"] is False and entry["expectations"][1]["got"] == -1


def test_an_example_on_a_position(tmp_path):
    spec = write(tmp_path, GAME)
    code, _, err = run("play", spec, "--players", "2", "--stop-at", "turn_end:3", "--save-state",
                       tmp_path / "third.json")
    assert code == 0, err
    write(tmp_path, GAME + """
example third_turn "After three turns" on "third.json" {
  expect placed == 3
}
""")
    [r] = run_examples(Interpreter(load(spec)))
    assert r.holds and r.expectations[0].got == 3
    # a procedure run on the position: what follows reads the position it leaves
    write(tmp_path, GAME + """
example one_more "A turn more" on "third.json" {
  do turn(first(players))
  expect placed == 4
}
""")
    [r] = run_examples(Interpreter(load(spec)))
    assert r.holds and r.expectations[0].got == 4


@pytest.mark.parametrize("text, message", [
    ('example e { let g = grid board { red blue }\n expect 1 == 1 }', "grid board is 2 x 2: 4 cells, written 2"),
    ('example e { let g = grid board { red blue pink red }\n expect 1 == 1 }', "'pink' is not a colour"),
    ('example e { let g = grid nowhere { red }\n expect 1 == 1 }', "'nowhere' is no grid"),
    ('example e { expect 3 }', "'expect' takes a condition, found int"),
    ('example e { let x = 1 }', "example 'e' expects nothing"),
    ('example e { choose c in colour\n expect c == red }', "'choose' cannot be used in an example"),
    ('example e on "missing.json" { expect 1 == 1 }', "no state file missing.json beside the spec"),
    ('example e on "../../outside.json" { expect 1 == 1 }', "leads outside the allowed folders"),
    ('procedure q { expect 1 == 1 }', "'expect' cannot be used here"),
    ('example e { do turn(first(players))\n expect placed == 1 }', "an example runs a procedure on a position"),
])
def test_example_mistakes_are_located(tmp_path, text, message):
    with pytest.raises(RulesError) as info:
        load(write(tmp_path, GAME + "\n" + text + "\n"))
    assert message in info.value.render()


def test_a_variant_leaves_out_the_examples_it_breaks(tmp_path):
    """An example of the game that a variant's changes break (a step it removes) is left out
    of the variant with its reason, not an error; the variant's own examples must compile."""
    savanna = ROOT / "spec" / "ecosystem_savanna"
    v = write(tmp_path, f'variant no_trees "No trees" extends "{os.path.relpath(savanna, tmp_path)}"\n'
                        "remove step score.tree\n", "v.rules")
    program = load(savanna, variants=[v])
    assert {"prairie_tree_zebra", "margot"} <= set(program.examples_left_out)
    assert "has no step 'tree'" in program.examples_left_out["margot"].message
    assert "water_hole" in program.examples and "margot" not in program.examples
    code, out, _ = run("examples", savanna, "--variant", v)
    assert "example margot of the game it changes is left out: scoring 'score' has no step 'tree'" in out
    broken = write(tmp_path, v.read_text() + 'example mine "Mine" { expect score(grid ecosystem { '
                   + "water " * 20 + "}, []).tree == 0 }\n", "v.rules")
    with pytest.raises(RulesError, match="has no step 'tree'"):
        load(savanna, variants=[broken])
