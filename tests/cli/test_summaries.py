"""The commands that sum up say no more than they know: ``examples`` counts every example
that fails (and exits 1), ``simulate --against`` claims no difference that chance could
give, ``check`` says "ok" only of what compiled. (``verify``'s summary: tests/verify/
test_honest_summary.py.)"""
from __future__ import annotations

import re

from helpers import TILES as HELPER_TILES, TILES_PLAY, run_command, spec as write

TILES = HELPER_TILES + TILES_PLAY + """
example all_red "Four reds" {
  let g = grid board { red red red red }
  expect points(g) == 8
}
example all_green "Four greens, as a misprint says" {
  let g = grid board { green green green green }
  expect points(g) == 5
}
"""


def test_examples_count_the_one_that_fails(tmp_path):
    spec = write(tmp_path, TILES, "tiles.rules")
    code, out, err = run_command("examples", spec)
    assert code == 1, err
    assert f"{spec}: examples" in out           # (a table of the spec's examples, a row each)
    assert re.search(r"^all_red +Four reds +ok +1 of 1$", out, re.M), out
    assert re.search(r"^all_green +Four greens, as a misprint says +FAILS +0 of 1$", out, re.M), out
    assert f"{spec}: example all_green (Four greens, as a misprint says): FAILS" in out
    assert "(the rules give 4, the example says 5)" in out
    assert out.rstrip().splitlines()[-1] == "2 examples, 1 failing"


def test_simulate_against_the_same_rules_claims_no_difference(tmp_path):
    spec = write(tmp_path, TILES, "tiles.rules")
    same = write(tmp_path, TILES, "same.rules")
    code, out, err = run_command("simulate", spec, "--against", same, "--games", "6", "--players", "2")
    assert code == 0, err
    assert "No difference here is told apart from chance at 95%" in out
    assert " *" not in out and "* marks" not in out
    assert out.rstrip().splitlines()[-1].startswith("6 game(s) in ") and "; 6 against in " in out


def test_check_says_ok_only_of_what_compiled(tmp_path):
    good = write(tmp_path, TILES, "tiles.rules")
    bad = write(tmp_path, TILES.replace("def worth(c: colour) =", "def worth(c: colour) = nowhere +"), "bad.rules")
    code, out, err = run_command("check", good, bad)
    assert code != 0
    assert out.startswith(f"ok: {good}: Tiles:") and f"ok: {bad}" not in out
    assert str(bad) in err
