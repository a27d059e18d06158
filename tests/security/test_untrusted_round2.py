"""Untrusted input, the second round of an outside audit: each crash, hang or unreadable
error it found, reproduced from its input, now a located error (exit 1 or 2), a bounded
run or a message cut to a readable length (see docs/security.md)."""
from __future__ import annotations

import io
import json
import sys
import time
from pathlib import Path

import pytest

from rulewright.cli import main
from helpers import ROOT, run_main as run, separate_cache

DARWIN = ROOT / "spec" / "darwins_choice"
TWO_PLAYER_SAVANNA = ROOT / "spec" / "ecosystem_savanna" / "variants" / "two_player.rules"


@pytest.fixture(autouse=True)
def _separate_cache(monkeypatch):
    monkeypatch.setenv("RULEWRIGHT_CACHE", separate_cache())




def game(tmp_path: Path, body: str, name: str = "g") -> Path:
    folder = tmp_path / name
    folder.mkdir(exist_ok=True)
    (folder / "game.rules").write_text(f'game {name} "G"\n' + body, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def saved_game(tmp_path_factory) -> dict:
    """A saved game of Darwin's Choice at turn:9 (its document, with its resume entry)."""
    folder = tmp_path_factory.mktemp("saved")
    state = folder / "x.json"
    assert main(["play", str(DARWIN), "--players", "4", "--seed", "7", "--stop-at", "turn:9",
                 "--save-state", str(state)]) == 0
    return json.loads(state.read_text())


def saved(tmp_path: Path, doc: dict, **dumps) -> Path:
    state = tmp_path / "s.json"
    state.write_text(json.dumps(doc, **dumps))
    return state


# ------------------------------------------------------------ a saved game's position
def test_a_saved_position_without_its_checkpoint_counts_goes_on(tmp_path, monkeypatch, capsys, saved_game):
    """(Was a KeyError in the game state: the checkpoint it stands at was not counted.)
    The count of the checkpoint a position stands at may be left out: it is N of NAME:N."""
    monkeypatch.chdir(tmp_path)
    doc = json.loads(json.dumps(saved_game))
    del doc["checkpoints"]
    code, out, err = run(capsys, "play", DARWIN, "--from", saved(tmp_path, doc))
    assert code == 0 and "winners:" in out, err
    del doc["resume"]                   # a position written by hand, from its checkpoint
    code, out, err = run(capsys, "play", DARWIN, "--from", saved(tmp_path, doc), "--seed", "3")
    assert code == 0 and "winners:" in out, err


def test_a_nearly_empty_saved_position_is_a_located_error(tmp_path, monkeypatch, capsys, saved_game):
    """A saved game whose position is left nearly empty: what the rules then meet (no
    seat where a seat is due) is an error at the rule, naming the position."""
    monkeypatch.chdir(tmp_path)
    doc = {k: v for k, v in saved_game.items() if k not in ("state", "per_seat", "per_key", "checkpoints")}
    code, out, err = run(capsys, "play", DARWIN, "--from", saved(tmp_path, doc))
    assert code == 2 and "actions.rules:" in err, err
    assert "error: the game cannot go on from the position of" in err and "s.json" in err, err
    assert "hint: the position holds a value no game has at turn:9" in err, err


def test_the_position_a_saved_game_began_from_may_leave_its_counts_out(tmp_path, monkeypatch, capsys,
                                                                          saved_game):
    """(The position of a resume entry's "from" had no checkpoint counts: a KeyError.)"""
    monkeypatch.chdir(tmp_path)
    hand = {k: v for k, v in saved_game.items() if k not in ("resume", "checkpoints")}
    start = saved(tmp_path, hand)
    later = tmp_path / "later.json"
    code, out, err = run(capsys, "play", DARWIN, "--from", start, "--seed", "3", "--stop-at", "turn:12",
                         "--save-state", later)
    assert code == 0, err
    assert "checkpoints" not in json.loads(later.read_text())["resume"]["from"]["position"]
    code, out, err = run(capsys, "play", DARWIN, "--from", later)
    assert code == 0 and "winners:" in out, err


# ------------------------------------------------------------ random generators
@pytest.mark.parametrize("entry, change", [
    ("rng", lambda r: r[1].__setitem__(624, 700)),          # its place past the 624 words: "invalid state"
    ("rng", lambda r: r.__setitem__(0, 4)),                 # a version Python does not take
    ("rng", lambda r: r.__setitem__(2, "x")),               # the gauss value
    ("agents", lambda r: r["p2"][1].__setitem__(624, 1000)),
])
def test_a_random_state_python_refuses_is_a_located_error(tmp_path, monkeypatch, capsys, saved_game,
                                                         entry, change):
    """(Was a ValueError of random.setstate.)"""
    monkeypatch.chdir(tmp_path)
    doc = json.loads(json.dumps(saved_game))
    change(doc["resume"][entry])
    code, out, err = run(capsys, "play", DARWIN, "--from", saved(tmp_path, doc, indent=1))
    assert code == 2 and "s.json:" in err and f"error: {entry} " in err and "hint:" in err, err


# ------------------------------------------------------------ choices files
@pytest.mark.parametrize("value", ["[" * 990 + "]" * 990, '{"a": ' * 990 + "1" + "}" * 990])
def test_a_choice_nested_deeply_is_a_located_error(tmp_path, monkeypatch, capsys, value):
    """(Was a RecursionError while the value was compared and quoted.)"""
    monkeypatch.chdir(tmp_path)
    choices = tmp_path / "c.log"
    choices.write_text('{"seat": "p1", "choice": "sz", "value": ' + value + "}\n")
    code, out, err = run(capsys, "play", DARWIN, "--players", "3", "--seed", "1", "--choices", choices)
    assert code == 2 and "c.log:1:" in err and "JSON nested more than 32 levels deep" in err, err
    assert len(err) < 1500, len(err)


def test_a_choice_given_to_the_api_nested_deeply_is_refused():
    from rulewright.compiler.diagnostics import BadInputError
    from rulewright.compiler.play.script import entries_of
    value: list = []
    for _ in range(990):
        value = [value]
    with pytest.raises(BadInputError, match="nests more than 32 levels deep"):
        entries_of([{"seat": "p1", "choice": "sz", "value": value}])


# ------------------------------------------------------------ the human seat
def test_the_human_seat_answers_bad_input_in_words(tmp_path, monkeypatch, capsys):
    """'²' is a digit to Python and no number to int(); 5,000 digits are more than int()
    reads; a NUL cannot be in a file name: each is answered, and the prompt asked again."""
    monkeypatch.chdir(tmp_path)
    typed = ["²", "9" * 5000, "s", "a\0b.json", "12", "\x1b[31m", "q"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(line + "\n" for line in typed)))
    code, out, err = run(capsys, "play", TWO_PLAYER_SAVANNA, "--players", "2", "--seed", "1",
                         "--seat", "p1=human")
    assert code == 0, err
    assert "card [1-7]> '²' is not an option: type a number from 1 to 7" in out
    assert "card [1-7]> '" + "9" * 40 + "...' (5,000 characters) is not an option" in out
    assert "save to [game.json]: not saved: a file name cannot hold a NUL character" in out
    assert "card [1-7]> '12' is not an option: type a number from 1 to 7" in out
    assert "'\\x1b[31m' is not an option" in out and "\x1b" not in out
    assert out.count("card [1-7]> ") == len(typed) - 1       # asked again after each (the file name: "save to")
    assert "game left unsaved" in out and not list(tmp_path.iterdir())


# ------------------------------------------------------------ errors cut to a readable length
def test_a_bad_number_in_a_one_line_resume_entry_is_a_short_error(tmp_path, monkeypatch, capsys, saved_game):
    """(One bad number in the resume entry, a line of tens of thousands of characters,
    printed the whole line: 38 KB.) The line is shown around the column."""
    monkeypatch.chdir(tmp_path)
    doc = json.loads(json.dumps(saved_game))
    doc["resume"]["rng"][1][0] = 10 ** 40
    code, out, err = run(capsys, "play", DARWIN, "--from", saved(tmp_path, doc))
    assert code == 2 and "s.json:1:" in err and "error: rng is the state" in err, err
    assert len(err) < 1000, len(err)
    assert '"rng": [3, [' in err            # the place shown, with a caret under it


def test_every_message_is_cut_to_a_readable_length():
    from rulewright.compiler.diagnostics import BadInputError, Diagnostic, Span, quoted
    exc = BadInputError(Diagnostic(Span("f.json", 3, 7, 3, 9), "the value " + "x" * 50_000 + " is wrong",
                                   "hint " + "y" * 50_000))
    text = str(exc)
    assert text.startswith("f.json:3:7: error: the value xxx") and "characters left out" in text
    assert len(text) < 2500 and text.rstrip().endswith("y")
    assert len(quoted("z" * 100_000)) < 250 and quoted(10 ** 5000) == "a number of about 5,000 digits"


# ------------------------------------------------------------ folded constants
def _doubled(first: str, op: str, times: int, name: str = "t") -> str:
    """``def t0 = FIRST``, then each definition the last one OP itself, ``times`` times."""
    return "".join([f"def {name}0 = {first}\n"] + [f"def {name}{i} = {name}{i - 1} {op} {name}{i - 1}\n"
                                                   for i in range(1, times + 1)])


@pytest.mark.parametrize("first, times, line, message", [
    # (a text doubled 40 times was a MemoryError; it is refused before it is computed)
    ('"ab"', 40, 21, "this computes a text of more than the 1,000,000 characters a spec may hold"),
    ("[1, 2]", 40, 25, "this computes a collection of more than 10,000,000 values"),
    # (squared 22 times, 3 took 65 s to check and was said ok)
    ("3", 22, 8, "this computes a number beyond 64 bits (102 bits)"),
])
def test_folded_constants_stay_within_the_limits_of_values(tmp_path, monkeypatch, capsys, first, times, line,
                                                           message):
    monkeypatch.chdir(tmp_path)
    op = "*" if first == "3" else "+"
    g = game(tmp_path, _doubled(first, op, times) + f'check c: t{times} != t0 else "never"\n')
    started = time.perf_counter()
    code, out, err = run(capsys, "check", g)
    assert code == 1 and f"game.rules:{line}:" in err and f"error: {message}" in err, err
    assert err.count("error:") == 1 and "the definitions keep" in err, err
    assert time.perf_counter() - started < 60       # a bound against a hang, not a timing claim


def test_a_text_joined_past_the_limit_is_not_computed(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    g = game(tmp_path, _doubled('"ab"', "+", 18) + 'def joined = join([t18, t18, t18, t18], ", ")\n'
                                                   'check c: joined != "" else "never"\n')
    code, out, err = run(capsys, "check", g)
    assert code == 1 and "game.rules:21:14: error: this computes a text of more than the 1,000,000" in err, err


def test_the_largest_constants_within_the_limits_fold(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    g = game(tmp_path, _doubled('"ab"', "+", 17) + _doubled("2", "*", 5, "n")
             + "def big = n5 * 2147483647\n"
             + 'check c: big > 0 and t17 != "" else "never"\n')
    assert run(capsys, "check", g)[0] == 0


def test_definitions_nesting_a_value_deeper_and_deeper_are_one_error(tmp_path, monkeypatch, capsys):
    """(1,500 definitions each putting the last in a list: a RecursionError writing its type.)"""
    monkeypatch.chdir(tmp_path)
    g = game(tmp_path, "def l0 = [1]\n" + "".join(f"def l{i} = [l{i - 1}]\n" for i in range(1, 1500))
             + 'check c: size(l1499) > 0 else "never"\n')
    code, out, err = run(capsys, "check", g)
    assert code == 1 and "game.rules:81:11: error: 'l79' is a value nested more than 80 levels deep" in err, err
    assert err.count("error:") == 1, err


# ------------------------------------------------------------ time limits
def test_a_query_time_limit_covers_explaining_an_infeasible_answer(tmp_path, monkeypatch, capsys, saved_game):
    """30,000 cards in the hand of a player who has passed: INFEASIBLE at once, and the
    explanation (the model built again with a literal per rule, its cores made minimal)
    took 28 s past a --time-limit of 2. It stops at the limit and says so. (Under the
    clock's plan, the user's: the suite's steady plan gives a query four times its limit.)"""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("RULEWRIGHT_SOLVE_PLAN", "wall")
    doc = {k: v for k, v in json.loads(json.dumps(saved_game)).items() if k != "resume"}
    hand = doc["per_seat"]["hand"]["p1"]
    doc["per_seat"]["hand"]["p1"] = (hand * (30_000 // len(hand) + 1))[:30_000]
    doc["per_seat"]["passed"]["p1"] = True
    state = saved(tmp_path, doc)
    started = time.perf_counter()
    code, out, err = run(capsys, "query", DARWIN, "best-create", "--state", state, "--player", "p1",
                         "--time-limit", "2")
    assert code == 0 and "best_create: INFEASIBLE" in out, out + err[-2000:]
    assert "the time limit (2 s) ran out while the reasons were looked for" in out, out
    assert time.perf_counter() - started < 90      # reading the position included; not a timing claim
    code, out, err = run(capsys, "query", DARWIN, "best-create", "--state", state, "--player", "p1",
                         "--time-limit", "2", "--json")
    assert json.loads(out)["reasons_cut_short"] is True


def test_an_explanation_within_the_time_limit_is_whole(tmp_path, monkeypatch, capsys, saved_game):
    monkeypatch.chdir(tmp_path)
    doc = {k: v for k, v in json.loads(json.dumps(saved_game)).items() if k != "resume"}
    doc["per_seat"]["passed"]["p1"] = True
    code, out, err = run(capsys, "query", DARWIN, "best-create", "--state", saved(tmp_path, doc), "--player", "p1",
                         "--json")
    answer = json.loads(out)
    assert code == 0 and answer["status"] == "INFEASIBLE" and "reasons_cut_short" not in answer, out
    assert [r["rule"] for r in answer["reasons"]] == ["not_passed"]


SLOW_GAMES = """state { n: int = 0 }
procedure loop { repeat 9000 { set n = count(i for i in 1..10000 if i > n) } }
invariant small: n != 5000 else "n is {n}"
mode m "M" players 1..2 {
  seats players
  do loop()
}
"""


def test_verify_time_limit_bounds_the_games_it_plays(tmp_path, monkeypatch, capsys):
    """Games of some ten seconds each (90,000,000 steps, within the budget of a game):
    verify --time-limit 1 played 50 of them for each player count. A game still running
    at the limit is stopped, and what the games were to show is UNKNOWN, not "all well".
    (The clock at the time limit itself: the deterministic plan, no margin.)"""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("RULEWRIGHT_SOLVE_PLAN", "deterministic")
    g = game(tmp_path, SLOW_GAMES)
    started = time.perf_counter()
    code, out, err = run(capsys, "verify", g, "--time-limit", "1", "--json", "--no-progress",
                         "--check", "invariant,playable,terminates,runtime")
    assert time.perf_counter() - started < 60       # a bound against a hang, not a timing claim
    assert code == 0, err
    findings = {(f["check"], f["definition"]): f for f in json.loads(out)["findings"]}
    assert {k: f["status"] for k, f in findings.items()} == {
        ("invariant", "small"): "UNKNOWN", ("playable", "m"): "PROVED", ("terminates", "m"): "UNKNOWN",
        ("runtime", "m"): "UNKNOWN"}
    # (a mode with no choice to make: proved without a game)
    assert findings[("playable", "m")]["message"].startswith("mode 'm' has no choice to make")
    words = findings[("terminates", "m")]["message"]
    assert words.startswith("could not tell whether every game of mode 'm' ends: a game was still running when "
                            "the time limit (1 s) ran out (mode 'm', 1 players, seed 1;"), words
    assert findings[("terminates", "m")]["witness"]["cut"][0]["replay"] == \
        "rulewright play SPEC --mode m --players 1 --seed 1"


def test_a_game_stopped_by_the_time_limit_leaves_no_step_budget_counting(tmp_path, monkeypatch):
    """(The timer may stop a game anywhere, inside an evaluation's budget too.)"""
    from rulewright.compiler import load
    from rulewright.compiler.interpret import Interpreter
    from rulewright.compiler.semantics import runtime as rt
    from rulewright.solver.verify.sampled import OutOfTime, play_within
    monkeypatch.chdir(tmp_path)
    interp = Interpreter(load(game(tmp_path, SLOW_GAMES)))
    with pytest.raises(OutOfTime):
        play_within(interp, "m", 1, 1, 0.3)
    assert not rt._BUDGET.counting
    rt.charge(10 ** 9)          # (no budget counting: nothing to run out of)
