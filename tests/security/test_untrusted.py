"""Untrusted input: each class of crash or hang found by fuzzing, reproduced from its
input, now a located error (exit 1 or 2) or a bounded answer; files read only where
the user pointed; the generated Python never holds a spec's text."""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from rulewright.compiler import files, load
from rulewright.compiler.interpret import Interpreter
from rulewright.compiler.interpret.codegen import vetted as _vetted
from rulewright.cli import main
from helpers import ROOT, rel, run_main as run, separate_cache

DARWIN = ROOT / "spec" / "darwins_choice"
SAVANNA = ROOT / "spec" / "ecosystem_savanna"


@pytest.fixture(autouse=True)
def _separate_cache(monkeypatch):
    monkeypatch.setenv("RULEWRIGHT_CACHE", separate_cache())




def game(tmp_path: Path, body: str, name: str = "g") -> Path:
    folder = tmp_path / name
    folder.mkdir(exist_ok=True)
    (folder / "game.rules").write_text(f'game {name} "G"\n' + body, encoding="utf-8")
    return folder


def looping_game(tmp_path: Path, state: str, body: str) -> Path:
    """A game whose one mode runs ``procedure loop { BODY }`` (line 3 of its file) on ``state``."""
    return game(tmp_path, f"state {{ {state} }}\nprocedure loop {{ {body} }}\n"
                          'mode m "M" players 1..2 {\n  seats players\n  do loop()\n}\n')


# ------------------------------------------------------------ no text becomes code
PROBES = [
    # the text of an 'if' branch filled into an operator's template, then read again as a place
    'def x(n: int) = if n > 0 then "{2}" else "\'+str(open(\'CANARY\',\'w\').write(\'x\'))+\'"\n'
    'check c for n in 1..2: x(n) != "" else "never"\n',
    # an aggregate's element and its filter
    'def x = count("{fors}" for n in 1..3 if "\'+str(open(\'CANARY\',\'w\').write(\'x\'))+\'" != "")\n'
    'check c: x == 3 else "never"\n',
    'def x = sum(len("{elem}{key}{var}{supply}{S}{D}{*}{0}") for n in 1..2)\ncheck c: x >= 0 else "never"\n',
]


@pytest.mark.parametrize("body", PROBES, ids=["if", "aggregate", "places"])
def test_a_text_constant_never_runs(tmp_path, monkeypatch, capsys, body):
    monkeypatch.chdir(tmp_path)
    g = game(tmp_path, body)
    code, out, err = run(capsys, "check", g)
    assert not (tmp_path / "CANARY").exists()
    assert code in (0, 1), err


def test_texts_with_braces_are_read_as_data(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    g = game(tmp_path, 'def a = if 1 > 0 then "{2}" else "{0}{1}"\n'
                       'check c: a == "{2}" else "a is {a}"\n'
                       'check d: count(x for x in ["{fors}", "{elem}"] if x != "{2}") == 2 else "no"\n')
    code, out, err = run(capsys, "check", g)
    assert code == 0, err


def test_the_generated_code_holds_no_text_of_a_spec():
    """Every text the spec holds is in the table of constants, every name mangled."""
    program = load(DARWIN)
    interp = Interpreter(program)
    source = interp.python_source()
    for text in ("lion", "giraffe_head", "tundra", "evaluation"):      # values and names of the spec
        assert f"'{text}'" not in source and f'"{text}"' not in source
    _vetted(source, "<test>")


@pytest.mark.parametrize("code", [
    "v_x = open('CANARY', 'w')",            # a builtin outside the list
    "x = 'a text'",                         # a text in the code
    "v_x = _rt.__class__",                  # a dunder attribute
    "import os",
])
def test_the_vetting_refuses_code_no_generator_writes(code):
    with pytest.raises(RuntimeError, match="generated code refused"):
        _vetted(code, "<test>")


# ------------------------------------------------------------ numbers and texts
@pytest.mark.parametrize("literal, where", [
    ("99999999999999999999999999999", "2:9"),
    ("9" * 5000, "2:9"),                    # Python's int() refuses this many digits
    ("9223372036854775808", "2:9"),         # 2**63
])
@pytest.mark.parametrize("command", ["check", "graph", "dump"])
def test_numbers_beyond_64_bits_are_refused_where_written(tmp_path, monkeypatch, capsys, literal, where, command):
    monkeypatch.chdir(tmp_path)
    g = game(tmp_path, f"def x = {literal}\ncheck c: x > 0 else \"never\"\n")
    code, out, err = run(capsys, command, g)
    assert code == 1 and f"game.rules:{where}: error: the number" in err and "beyond 64 bits" in err, err


def test_the_largest_64_bit_number_is_read(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    g = game(tmp_path, "def x = 9223372036854775807\ncheck c: x > 0 else \"never\"\n")
    assert run(capsys, "check", g)[0] == 0


@pytest.mark.parametrize("escape, message", [
    (r"\ud800", "is not a character (a surrogate"),
    (r"\udfff", "is not a character (a surrogate"),
    (r"\q", "unknown escape '\\q'"),
    (r"\xZZ", "'\\x' takes 2 hexadecimal digits"),
    (r"\U00110000", "is not a character"),
])
def test_bad_escapes_are_refused_at_their_place(tmp_path, monkeypatch, capsys, escape, message):
    monkeypatch.chdir(tmp_path)
    g = game(tmp_path, f'def x = "ab{escape}"\ncheck c: x != "" else "never"\n')
    code, out, err = run(capsys, "check", g)
    assert code == 1 and "game.rules:2:12: error: " in err and message in err, err


def test_escapes_give_their_characters(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    g = game(tmp_path, r'check c: "\u00e9\x41\"\\\n" == "éA\"\\' + '\\n" else "escapes"\n')
    assert run(capsys, "check", g)[0] == 0


# ------------------------------------------------------------ nesting
@pytest.mark.parametrize("text", ["-" * 3000 + "1", "(1 + " * 3000 + "1" + ")" * 3000, " + ".join(["1"] * 5000),
                                  "if true then " * 500 + "1" + " else 0" * 500, "not " * 3000 + "true"])
def test_deep_nesting_is_a_located_error(tmp_path, monkeypatch, capsys, text):
    """(Brackets alone do not nest: ((((1)))) is 1.)"""
    monkeypatch.chdir(tmp_path)
    g = game(tmp_path, f"def x = {text}\n")
    code, out, err = run(capsys, "check", g)
    assert code == 1 and "error: an expression nested more than 80 levels deep" in err, err
    assert "game.rules:2:" in err


def test_nesting_up_to_the_limit_compiles_and_runs(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    deep = "(" * 60 + "1" + " + 1)" * 60
    g = game(tmp_path, f"def x = {deep}\ncheck c: x == 61 else \"x is {{x}}\"\n")
    assert run(capsys, "check", g)[0] == 0


def test_deep_json_in_a_state_file_is_located(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    state = tmp_path / "s.json"
    state.write_text('{"format": 1, "state": ' + "[" * 50_000 + "]" * 50_000 + "}")
    code, out, err = run(capsys, "show", SAVANNA, "--state", state)
    assert code == 2 and "s.json:1:" in err and "JSON nested more than 32 levels deep" in err, err


# ------------------------------------------------------------ budgets
@pytest.mark.parametrize("body, what, at", [
    ("def big = sum(i * j for i in 1..9000000 for j in 1..9000000)\ncheck c: big > 0 else \"never\"\n",
     "'big'", "2:"),
    ("check c for n in 1..9000000: n > 0 else \"never\"\n", "the check 'c'", "2:18"),
    ("def f(n: int) = count(m for m in 1..n for k in 1..n)\ncheck c for n in 1..5000: f(n) >= 0 else \"x\"\n",
     "the check 'c'", "2:"),
])
def test_a_runaway_evaluation_stops_with_its_definition_named(tmp_path, monkeypatch, capsys, body, what, at):
    monkeypatch.chdir(tmp_path)
    g = game(tmp_path, body)
    started = time.perf_counter()
    code, out, err = run(capsys, "check", g)
    assert code == 1 and f"{what} did not finish within 20,000,000 steps" in err, err
    assert f"game.rules:{at}" in err
    assert time.perf_counter() - started < 120      # a bound against a hang, not a timing claim


def test_a_range_too_long_to_build_is_refused(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    g = game(tmp_path, "def n = 80000000000000\ndef x = count(i for i in 1..n)\ncheck c: x > 0 else \"never\"\n")
    code, out, err = run(capsys, "check", g)
    assert code == 1 and "the range 1..80000000000000 holds 80,000,000,000,000 numbers" in err, err


def test_a_number_doubled_in_a_loop_stops_at_64_bits(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    g = looping_game(tmp_path, "n: int = 1", "repeat 100000 { set n = n * n + 2 }")
    code, out, err = run(capsys, "play", g, "--players", "2")
    assert code == 1 and "a number beyond 64 bits" in err and "game.rules:3:" in err, err


def test_a_game_that_never_ends_stops_with_a_located_error(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    g = looping_game(tmp_path, "n: int = 0", "while n >= 0 { set n = (n + 1) % 7 }")
    code, out, err = run(capsys, "play", g, "--players", "2")
    assert code == 1 and "game.rules:3:" in err, err
    assert "a while loop went round a million times" in err or "did not finish within" in err


# ------------------------------------------------------------ files
def test_a_table_from_a_fifo_is_refused(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    g = game(tmp_path, 'enum kind { a }\ntable t (n: int) from "t.csv"\n')
    os.mkfifo(g / "t.csv")
    code, out, err = run(capsys, "check", g)
    assert code in (1, 2) and "a named pipe (FIFO), not a file" in err, err


def test_a_grid_that_is_a_fifo_is_refused(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    os.mkfifo(tmp_path / "g.grid")
    code, out, err = run(capsys, "score", SAVANNA, tmp_path / "g.grid")
    assert code == 2 and "a named pipe (FIFO), not a file" in err, err


def test_a_device_and_a_folder_are_not_state_files(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "show", SAVANNA, "--state", "/dev/zero")
    assert code == 2 and "a device, not a file" in err, err
    code, out, err = run(capsys, "show", SAVANNA, "--state", tmp_path)
    assert code == 2 and "a folder, not a file" in err, err


def test_input_files_have_a_size_limit(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    big = tmp_path / "big.grid"
    with open(big, "wb") as f:
        f.truncate(files.MOST_BYTES + 1)
    code, out, err = run(capsys, "score", SAVANNA, big)
    assert code == 2 and "more than the 8,388,608 an input file may have" in err, err


def test_a_table_file_has_a_row_limit(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    g = game(tmp_path, 'table t (n: int) from "t.csv"\n')
    (g / "t.csv").write_text("name,n\n" + "".join(f"r{i},1\n" for i in range(25_000)))
    code, out, err = run(capsys, "check", g)
    assert code == 1 and "t.csv:20002:1: error: this table file has more than 20,000 rows" in err, err


@pytest.mark.parametrize("written, message", [
    ("/etc/passwd", "'/etc/passwd' is an absolute path"),
    ("../outside.csv", "'../outside.csv' leads outside the allowed folders"),
    ("link.csv", "'link.csv' leads outside the allowed folders through a symbolic link"),
])
def test_a_table_is_read_only_inside_the_spec_tree(tmp_path, monkeypatch, capsys, written, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "outside.csv").write_text("name,n\nsecret,1\n")
    g = game(tmp_path, f'table t (n: int) from "{written}"\n')
    (g / "link.csv").symlink_to(tmp_path / "outside.csv")
    code, out, err = run(capsys, "check", g)
    assert code == 1 and f"game.rules:2:" in err and message in err, err
    assert "secret" not in err
    # allowed when the user names the folder
    if not written.startswith("/"):
        assert run(capsys, "check", g, "--root", tmp_path)[0] == 0


def test_a_variant_extends_only_inside_the_allowed_folders(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "v").mkdir()
    mine = game(tmp_path, "def x = 1\n", name="mine")
    v = tmp_path / "v" / "v.rules"
    v.write_text('variant v "V" extends "../mine"\noverride def x = 2\n')
    code, out, err = run(capsys, "check", v)
    assert code == 1 and "v.rules:1:23: error: '../mine' leads outside the allowed folders" in err, err
    assert "--root FOLDER" in err
    assert run(capsys, "check", v, "--root", mine)[0] == 0
    v.write_text(f'variant v "V" extends "{mine}"\noverride def x = 2\n')
    code, out, err = run(capsys, "check", v, "--root", mine)
    assert code == 1 and "is an absolute path" in err, err
    # the games rulewright ships are always allowed (the house rules extend them)
    v.write_text(f'variant v "V" extends "{rel(SAVANNA, v.parent)}"\n')
    assert run(capsys, "check", v)[0] == 0


def test_a_spec_folder_holding_a_link_out_of_it_is_refused(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "secret.txt").write_text("game s \"the secret\"\n")
    g = game(tmp_path, "def x = 1\n")
    (g / "more.rules").symlink_to(tmp_path / "secret.txt")
    code, out, err = run(capsys, "check", g)
    assert code == 2 and "a symbolic link that leads outside the allowed folders" in err, err
    assert "the secret" not in err


def test_a_state_file_names_files_only_inside_the_allowed_folders(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    state = tmp_path / "pos" / "s.json"
    state.parent.mkdir()
    assert run(capsys, "play", DARWIN, "--players", "3", "--seed", "1", "--stop-at", "turn:2",
               "--save-state", state)[0] == 0
    doc = json.loads(state.read_text())
    doc["tables"] = {"animal_card": "/etc/passwd"}
    state.write_text(json.dumps(doc))
    code, out, err = run(capsys, "show", DARWIN, "--state", state)
    assert code == 2 and "s.json:1:" in err and "'/etc/passwd' leads outside the allowed folders" in err, err
    doc["tables"] = {}
    doc["variants"] = ["../../elsewhere/v.rules"]
    state.write_text(json.dumps(doc, indent=1))
    code, out, err = run(capsys, "show", DARWIN, "--state", state)
    assert code == 2 and "leads outside the allowed folders" in err, err


def test_a_saved_state_names_its_files_relative_to_itself(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    variant = ROOT / "spec" / "house_rules" / "darwin_no_cannibals.rules"
    state = tmp_path / "s.json"
    assert run(capsys, "play", variant, "--players", "3", "--seed", "1", "--stop-at", "turn:2",
               "--save-state", state)[0] == 0
    written = json.loads(state.read_text())["variants"]
    assert written == [rel(variant, tmp_path)] and not Path(written[0]).is_absolute()
    assert run(capsys, "show", DARWIN, "--state", state)[0] == 0


# ------------------------------------------------------------ queries
def test_a_query_time_limit_covers_building_the_model(tmp_path, monkeypatch, capsys):
    """5,000 cards in a hand: building the model alone would take minutes. (On the clock:
    the wall plan, where the time limit is seconds, the building of the model included.)"""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("RULEWRIGHT_SOLVE_PLAN", "wall")
    state = tmp_path / "s.json"
    assert run(capsys, "play", DARWIN, "--players", "4", "--seed", "7", "--stop-at", "turn:9",
               "--save-state", state)[0] == 0
    doc = json.loads(state.read_text())
    hand = doc["per_seat"]["hand"]["p1"]
    doc["per_seat"]["hand"]["p1"] = (hand * (5000 // max(1, len(hand)) + 1))[:5000]
    state.write_text(json.dumps(doc))
    started = time.perf_counter()
    code, out, err = run(capsys, "query", DARWIN, "best-move", "--state", state, "--player", "p1",
                         "--time-limit", "2")
    took = time.perf_counter() - started
    assert code == 0 and "UNKNOWN" in out and "building the model alone took" in out, out + err
    assert took < 60, took        # reading the position and the warnings included; not a timing claim


def test_a_text_doubled_in_a_loop_stops(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    g = looping_game(tmp_path, 's: text = "ab"', "repeat 100 { set s = s + s }")
    code, out, err = run(capsys, "play", g, "--players", "2")
    assert code == 1 and "more than the 1,000,000 a rule may keep" in err and "game.rules:3:" in err, err


def test_a_switch_in_error_read_by_a_definition_is_said_once(tmp_path, monkeypatch, capsys):
    """(Was an AssertionError in the resolver's constants, found by the fuzzer.)"""
    monkeypatch.chdir(tmp_path)
    g = game(tmp_path, "switch s: a | b = c\ndef x = s\n")
    code, out, err = run(capsys, "check", g)
    assert code == 1 and "game.rules:2:19: error: 'c' is not an option of switch 's'" in err, err


def test_a_mode_seats_at_most_100_players(tmp_path, monkeypatch, capsys):
    """(A mode for 1,000,000 players made a MemoryError while seating them.)"""
    monkeypatch.chdir(tmp_path)
    g = game(tmp_path, 'mode m "M" players 1000000 {\n  seats players\n}\n')
    code, out, err = run(capsys, "play", g)
    assert code == 1 and "game.rules:2:20: error: the mode 'm' is for up to 1,000,000 players" in err, err


def test_a_card_table_of_thousands_of_bad_rows_is_refused_quickly(tmp_path, monkeypatch, capsys):
    """(Each quoted line split the whole file again: 50,000 rows hung; now the lines are
    split once, and one message shows the first 50 errors and counts the rest.)"""
    monkeypatch.chdir(tmp_path)
    lines = (DARWIN / "animal_cards.csv").read_text().splitlines()
    (tmp_path / "cards.csv").write_text("\n".join(lines + lines[1:] * 19) + "\n")
    started = time.perf_counter()
    code, out, err = run(capsys, "check", DARWIN, "--cards", "cards.csv")
    assert code == 2 and "more error(s) like these (the first 50 are shown)" in err, err[-500:]
    assert err.split("... and")[0].count("error:") == 50     # (then one line per version of the game)
    assert time.perf_counter() - started < 120      # a bound against a hang, not a timing claim
