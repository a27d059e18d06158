"""Tables fitted to the width, and a progress bar on a terminal only: the score of several
grids side by side names the winner; in a pipe no line is wider than COLUMNS and no escape
sequence is written; on a terminal simulate's tables are coloured and its bar draws on
standard error, and with NO_COLOR the bar draws without a colour."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from helpers import ROOT, run_command
from test_colour import _through_a_terminal

SAVANNA = ROOT / "spec" / "ecosystem_savanna"
TWO_PLAYER = SAVANNA / "variants" / "two_player.rules"
MARGOT = ROOT / "examples" / "margot.grid"
ESCAPE = re.compile(r"\x1b")
SGR = re.compile(rb"\x1b\[[0-9;]*m")

# Margot's grid with its hyena made a tree: 73 points (zebra 3, tree 12, water 8...)
OTHER = """prairie  prairie prairie zebra    lion
giraffe  lion    gazelle tree     zebra
tree     cheetah gazelle giraffe  water
elephant elephant gazelle water   tree
"""


@pytest.fixture
def other(tmp_path) -> Path:
    path = tmp_path / "other.grid"
    path.write_text(OTHER, encoding="utf-8")
    return path


def test_the_score_of_two_grids_is_a_table_that_names_the_winner(other):
    code, out, err = run_command("score", SAVANNA, MARGOT, other, env={"COLUMNS": "100"})
    assert code == 0, err
    assert out.rstrip().splitlines()[-1] == f"Winner: {MARGOT} with 86 points"
    # a row per step, a column per grid: Margot's value, then the other grid's
    assert re.search(r"^total +86 +73$", out, re.M), out
    assert re.search(r"^hyena +6 +0$", out, re.M), out
    assert re.search(r"^lion prey +\(1, 4\) +\(0, 3\)$", out, re.M), out


def test_the_same_totals_are_a_tie(tmp_path):
    code, out, err = run_command("score", SAVANNA, MARGOT, MARGOT)
    assert code == 0, err
    # (the line fitted to the width: broken between words)
    assert " ".join(out.split()).endswith(f"Tie: {MARGOT} and {MARGOT} with 86 points each"), out


def test_one_grid_is_scored_as_before():
    code, out, err = run_command("score", SAVANNA, MARGOT)
    assert code == 0, err
    assert "Winner" not in out and re.search(r"^  total +86$", out, re.M), out


@pytest.mark.parametrize("args", [
    ["score", SAVANNA, MARGOT, "other.grid"],
    ["simulate", TWO_PLAYER, "--games", "3"],
    ["simulate", ROOT / "spec" / "house_rules" / "savanna_rare_lions.rules", "--players", "3", "--games", "3",
     "--against", SAVANNA],
], ids=["score", "simulate", "simulate --against"])
def test_in_a_pipe_no_line_is_wider_than_the_columns_and_nothing_escapes(args, other):
    code, out, err = run_command(*args, env={"COLUMNS": "60"}, cwd=other.parent)
    assert code == 0, err
    assert not ESCAPE.search(out) and not ESCAPE.search(err), (out, err)
    tables = out.split("\n\n", 1)[1] if args[0] == "simulate" else out      # (the heading lines: titles)
    wide = [line for line in tables.splitlines() if len(line) > 60]
    assert not wide, wide


def test_the_examples_are_a_row_each():
    code, out, err = run_command("examples", SAVANNA, env={"COLUMNS": "100"})
    assert code == 0, err
    assert re.search(r"^margot +Margot's ecosystem: 86 points +ok +12 of 12$", out, re.M), out
    assert out.rstrip().splitlines()[-1] == "15 examples, 0 failing"


# ------------------------------------------------------------------ a real terminal
# (_through_a_terminal: every byte written to a pseudo-terminal, NO_COLOR left out unless given)
def test_simulate_draws_a_bar_and_colours_its_tables_on_a_terminal():
    seen = _through_a_terminal(["simulate", str(TWO_PLAYER), "--games", "6"], ROOT)
    assert b"game 6 of 6" in seen and b"\x1b[2K" in seen, seen[-2000:]       # the bar, redrawn in place
    assert SGR.search(seen), seen[-2000:]
    assert b"\x1b[1mscore: mean" in seen, seen[-2000:]                       # a table's title, in bold
    assert b"6 game(s) in " in seen


def test_no_colour_with_NO_COLOR_but_the_bar_still_draws():
    seen = _through_a_terminal(["simulate", str(TWO_PLAYER), "--games", "6"], ROOT, env={"NO_COLOR": "1"})
    assert b"game 6 of 6" in seen, seen[-2000:]
    assert not SGR.search(seen), SGR.search(seen)
    assert b"score: mean" in seen and b"6 game(s) in " in seen


def test_no_bar_with_quiet():
    seen = _through_a_terminal(["simulate", str(TWO_PLAYER), "--games", "6", "--quiet"], ROOT)
    assert b"game 6 of 6" not in seen and b"6 game(s) in " in seen, seen[-2000:]


def test_diff_lists_the_changed_rules_a_row_each():
    code, out, err = run_command("diff", ROOT / "spec" / "darwins_choice",
                                 ROOT / "spec" / "house_rules" / "darwin_no_cannibals.rules", env={"COLUMNS": "100"})
    assert code == 0, err
    assert "the definitions that differ (1 changed)" in out
    assert re.search(r"^changed +rule +can_eat +DC-NUTR-14 ", out, re.M), out
    assert "+   rule can_eat(h: species, t: species) [HR-DC-NO-OWN-PREY] =" in out      # (the texts, as they are)


def test_show_lists_the_seats_values_in_a_table(tmp_path):
    state = tmp_path / "pick2.json"
    code, out, err = run_command("play", SAVANNA, "--players", "3", "--seed", "1", "--stop-at", "pick:2",
                                 "--save-state", state)
    assert code == 0, err
    code, out, err = run_command("show", SAVANNA, "--state", state, env={"COLUMNS": "60"})
    assert code == 0, err
    assert re.search(r"^Player 2 \(p2\) +\d+$", out, re.M), out         # a row per seat: the size of the hand
    assert "\nPlayer 2\n  board:" in out and "  hand (" in out                   # the grid and the cards below
