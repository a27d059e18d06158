"""Game states as JSON: written by a game, read back checked, shown readably.

A state saved at a checkpoint round-trips exactly; every kind of mistake a person
can make writing one by hand is reported at its line and column with a hint.
"""
import json
import re

import pytest

from rulewright.compiler import load
from rulewright.compiler.play import state_io
from rulewright.compiler.semantics import render
from rulewright.compiler.diagnostics import BadInputError
from rulewright.compiler.interpret import Interpreter
from helpers import ROOT, rel, run_command

DARWIN = ROOT / "spec" / "darwins_choice"


@pytest.fixture(scope="module")
def darwin():
    return Interpreter(load(DARWIN))


@pytest.fixture(scope="module")
def saved(darwin, tmp_path_factory):
    state = darwin.play("standard", 4, 7, stop_at="evaluation:2")
    path = tmp_path_factory.mktemp("state") / "era2.json"
    doc = state_io.dump(state, seed=7)
    path.write_text(json.dumps(doc, indent=1, ensure_ascii=False))
    return state, doc, path


def test_stops_where_asked(saved):
    state, doc, _ = saved
    assert state.stopped == "evaluation:2" and doc["checkpoint"] == "evaluation:2"
    assert doc["checkpoints"]["evaluation"] == 2 and doc["state"]["era"] == 2
    assert doc["format"] == state_io.FORMAT and doc["spec"] == "darwins_choice"


def test_round_trip_is_exact(darwin, saved):
    state, doc, path = saved
    again = state_io.load(darwin, str(path))
    assert state_io.dump(again, seed=7) == doc
    for var in darwin.program.state.values():
        if not var.keyed:
            assert render.jsonable(again.shared[var.name], state=True) == render.jsonable(state.shared[var.name], state=True), var.name


def test_loaded_state_answers_the_rules(darwin, saved):
    """A loaded position is a position: the spec's definitions evaluate on it as on the original."""
    state, _, path = saved
    again = state_io.load(darwin, str(path))
    original = render.jsonable(darwin.call("species_lines", state=state), state=True)
    assert original and render.jsonable(darwin.call("species_lines", state=again), state=True) == original


def test_show_is_readable(darwin, saved):
    _, _, path = saved
    lines = state_io.show(state_io.load(darwin, str(path)))
    text = "\n".join(lines)
    assert lines[0] == "Darwin's Choice, mode standard, stopped at evaluation:2"
    assert "Player 1" in text and "trade zone (6)" in text and "per continent" in text


def edited(path, tmp_path, change):
    text = change(path.read_text())
    out = tmp_path / "edited.json"
    out.write_text(text)
    return out


def rewritten(path, tmp_path, change):
    """A copy of the saved state with its JSON changed by a function."""
    data = json.loads(path.read_text())
    change(data)
    out = tmp_path / "rewritten.json"
    out.write_text(json.dumps(data, indent=1))
    return out


def error_of(darwin, path):
    with pytest.raises(BadInputError) as info:
        state_io.load(darwin, str(path))
    return str(info.value)


def located(message, path, text):
    """The line:col the message names holds the text it complains about."""
    m = re.search(re.escape(str(path)) + r":(\d+):(\d+)", message)
    assert m, message
    line = path.read_text().splitlines()[int(m.group(1)) - 1]
    assert line[int(m.group(2)) - 1:].startswith(text), (line, message)
    assert "^" in message


def test_bad_json_is_located(darwin, saved, tmp_path):
    _, _, path = saved
    bad = edited(path, tmp_path, lambda t: t.replace('"era": 2', '"era": 2,,', 1))
    message = error_of(darwin, bad)
    assert "not valid JSON" in message and "docs/state.md" in message
    assert re.search(r"edited\.json:\d+:\d+", message)


def test_unknown_card_has_did_you_mean(darwin, saved, tmp_path):
    _, doc, path = saved
    card = doc["state"]["trade_zone"][0]
    typo = card[:-2]
    bad = edited(path, tmp_path, lambda t: t.replace(f'"{card}"', f'"{typo}"', 1))
    message = error_of(darwin, bad)
    assert f'"{typo}" is not an animal_card' in message
    assert f"did you mean '{card}'?" in message
    located(message, bad, f'"{typo}"')


def test_unknown_variable_is_named(darwin, saved, tmp_path):
    _, _, path = saved
    bad = edited(path, tmp_path, lambda t: t.replace('"trade_zone"', '"trade_zon"', 1))
    message = error_of(darwin, bad)
    assert "no state variable 'trade_zon'" in message and "did you mean 'trade_zone'?" in message
    located(message, bad, '"trade_zon"')


def test_variable_in_the_wrong_section(darwin, saved, tmp_path):
    _, doc, path = saved
    bad = rewritten(path, tmp_path, lambda d: d["state"].update(hand=d["per_seat"].pop("hand")))
    message = error_of(darwin, bad)
    assert "'hand' belongs under \"per_seat\"" in message


def test_wrong_type_and_unknown_seat(darwin, saved, tmp_path):
    _, _, path = saved
    message = error_of(darwin, edited(path, tmp_path, lambda t: t.replace('"era": 2', '"era": "two"', 1)))
    assert 'state.era: expected a whole number, not "two"' in message
    bad = rewritten(path, tmp_path, lambda d: d["per_seat"]["banked"].update(p9=0))
    message = error_of(darwin, bad)
    assert "'p9' is not a seat" in message


def test_record_field_mistakes(darwin, saved, tmp_path):
    _, _, path = saved
    first = lambda d: d["state"]["world"][0]                                     # noqa: E731
    bad = rewritten(path, tmp_path, lambda d: first(d).update(food=first(d).pop("plants")))
    message = error_of(darwin, bad)
    assert "has no field 'food'" in message


def test_state_of_another_spec_is_refused(darwin, saved, tmp_path):
    _, _, path = saved
    message = error_of(darwin, edited(path, tmp_path,
                                      lambda t: t.replace('"darwins_choice"', '"ecosystem_savanna"', 1)))
    assert "of the spec 'ecosystem_savanna', not 'darwins_choice'" in message


def test_hand_written_minimal_state(darwin, tmp_path):
    """A hand-written state may give only what matters; the rest keeps its initial value."""
    doc = {"format": state_io.FORMAT, "spec": "darwins_choice",
           "seats": ["p1", "p2", "p3"],
           "per_seat": {"hand": {"p1": ["bongo_head", "chimpanzee_body"]}},
           "state": {"era": 1}}
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(doc))
    state = state_io.load(darwin, str(path))
    assert [s.name for s in state.seats] == ["p1", "p2", "p3"]
    hand = state.per["hand"][state.seats[0]]
    assert list(getattr(hand, "cards", hand)) == ["bongo_head", "chimpanzee_body"]


def test_end_of_game_reports_round_trip(darwin, tmp_path):
    state = darwin.play("standard", 3, 2)
    doc = state_io.dump(state, seed=2)
    assert set(doc["reports"]) >= {"score", "winners"}
    path = tmp_path / "end.json"
    path.write_text(json.dumps(doc))
    again = state_io.load(darwin, str(path))
    assert state_io.dump(again, seed=2) == doc
    assert "reports" in state_io.show(again)


def test_bad_bookkeeping_entries_are_located(darwin, saved, tmp_path):
    _, _, path = saved
    message = error_of(darwin, rewritten(path, tmp_path, lambda d: d.update(checkpoints=[1])))
    assert "checkpoints is an object of checkpoint names and counts" in message
    message = error_of(darwin, rewritten(path, tmp_path, lambda d: d.update(seed="seven")))
    assert "the seed is a whole number or null" in message


def test_saved_settings_are_checked(darwin, saved, tmp_path):
    _, _, path = saved
    program = darwin.program
    bad = rewritten(path, tmp_path, lambda d: d["switches"].update(omnivore_meet="before_carnivores"))
    with pytest.raises(BadInputError) as info:
        state_io.saved_settings(program, str(bad), json.loads(bad.read_text()), bad.read_text())
    assert "this spec has no switch 'omnivore_meet'" in str(info.value) and "did you mean 'omnivore_meat'?" in str(info.value)
    bad = rewritten(path, tmp_path, lambda d: d["switches"].update(markers_per_colour=10))
    with pytest.raises(BadInputError, match=r'"10" is not an option|10 is not an option'):
        state_io.saved_settings(program, str(bad), json.loads(bad.read_text()), bad.read_text())
    good = rewritten(path, tmp_path, lambda d: d.update(params={"hand_size": 8}))
    assert state_io.saved_settings(program, str(good), json.loads(good.read_text()), good.read_text())[
        "hand_size"] == "8"


@pytest.mark.parametrize("change, message", [
    (lambda d: d.update(mode=[0, 0]), "the mode is a name, not [0, 0]"),
    (lambda d: d["seats"][0].update(title={"x": 1}), "a seat's title is a text"),
    (lambda d: d["state"].update(to_move={"p1": 1}), 'is not a seat of this game'),
    (lambda d: d["state"]["trade_zone"].__setitem__(0, {"card": 1}), "is not an animal_card"),
    (lambda d: d["seats"][1].update(name="p\ud800"), 'holds an escape (\\ud800 to \\udfff)'),
])
def test_values_of_the_wrong_kind_are_refused(darwin, saved, tmp_path, change, message):
    """Hand edits found by fuzzing the state files, each once a crash: a value of the
    wrong kind (a list, an object, a text that is no text) is refused with a message."""
    _, _, path = saved
    assert message in error_of(darwin, rewritten(path, tmp_path, change))


def test_json_nested_too_deeply_is_refused(darwin, tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000)
    assert f"{deep}:1:33: error: JSON nested more than 32 levels deep" in error_of(darwin, deep)


# ------------------------------------------------------------------ mistakes found by fuzzing positions
def test_a_number_beyond_a_positions_range_is_refused(darwin, saved, tmp_path):
    _, _, path = saved
    bad = rewritten(path, tmp_path, lambda d: d["state"]["world"][0].update(dp=10 ** 20))
    message = error_of(darwin, bad)
    assert "state.world[0].dp: 100000000000000000000 is beyond the numbers a position holds" in message
    located(message, bad, "100000000000000000000")
    fine = rewritten(path, tmp_path, lambda d: d["state"]["world"][0].update(dp=state_io.MOST_NUMBER))
    assert state_io.load(darwin, str(fine)).shared["world"][0].f_dp == state_io.MOST_NUMBER


def test_checkpoint_counts_and_names_are_checked_at_their_entry(darwin, saved, tmp_path):
    _, _, path = saved
    bad = rewritten(path, tmp_path, lambda d: d["checkpoints"].update(era=-5))
    message = error_of(darwin, bad)
    assert "checkpoints.era: the count of a checkpoint is a whole number, 0 or more, not -5" in message
    located(message, bad, "-5")
    bad = rewritten(path, tmp_path, lambda d: d["checkpoints"].update(evaluaton=1))
    message = error_of(darwin, bad)
    assert "no checkpoint 'evaluaton' in this spec" in message and "did you mean 'evaluation'?" in message
    bad = rewritten(path, tmp_path, lambda d: d.update(checkpoint="bogus:1"))
    assert '"bogus:1" is not a checkpoint NAME:N of this spec' in error_of(darwin, bad)
    for wrong in ("turn:0", "turn", "turn: 9"):
        bad = rewritten(path, tmp_path, lambda d: d.update(checkpoint=wrong))
        assert "N counts the times 'turn' is reached: 1, 2, ..." in error_of(darwin, bad)
    for wrong in ([], 0, "era"):
        bad = rewritten(path, tmp_path, lambda d: d.update(checkpoints=wrong))
        assert "checkpoints is an object of checkpoint names and counts" in error_of(darwin, bad)
    # where the game stopped and how often it had reached that checkpoint agree
    bad = rewritten(path, tmp_path, lambda d: d["checkpoints"].update(evaluation=3))
    message = error_of(darwin, bad)
    assert ("checkpoints.evaluation: the game stopped at evaluation:2, the 2nd time it reached 'evaluation', "
            "and checkpoints counts 3") in message
    assert "set checkpoints.evaluation to 2" in message
    located(message, bad, "3")
    # a count left out, or no checkpoint named: nothing to disagree with
    state_io.load(darwin, str(rewritten(path, tmp_path, lambda d: d["checkpoints"].pop("evaluation"))))
    state_io.load(darwin, str(rewritten(path, tmp_path, lambda d: d.update(checkpoint=None))))


def test_a_seat_title_must_tell_the_seat_apart(darwin, saved, tmp_path):
    _, _, path = saved
    bad = rewritten(path, tmp_path, lambda d: d["seats"][1].update(title=d["seats"][0]["title"]))
    message = error_of(darwin, bad)
    assert "seats[1].title: the seat 'p2' has the title \"Player 1\", which is also the title of the seat 'p1'" \
        in message
    bad = rewritten(path, tmp_path, lambda d: d["seats"][0].update(title="p2"))
    assert "seats[0].title: the seat 'p1' has the title \"p2\", which is the name of the seat 'p2'" \
        in error_of(darwin, bad)


def test_an_invariant_points_at_the_field_its_false_part_reads(darwin, saved, tmp_path):
    _, _, path = saved
    bad = rewritten(path, tmp_path, lambda d: d["state"]["world"][0].update(meat=-1))
    message = error_of(darwin, bad)
    assert "state.world[0].meat: species" in message and "meat -1" in message
    located(message, bad, "-1")


def run_cli(*args):
    """The command run in this process, as it runs in its own (``helpers.run_command``)."""
    code, _, err = run_command(*args, cwd=ROOT)
    return code, err


def test_a_seat_is_found_by_its_name_before_its_title_and_number(darwin, saved, tmp_path):
    """Seats named "2" and "1": --player 1 is the seat named 1 (the second), not the
    first seat; a title finds its seat, and so does a number no seat is named."""
    from rulewright.app.asking import seat_named
    _, _, path = saved

    def rename(d):
        text = json.dumps(d)
        for old, new in (('"p1"', '"@A"'), ('"p2"', '"@B"'), ('"@A"', '"2"'), ('"@B"', '"1"')):
            text = text.replace(old, new)
        d.clear()
        d.update(json.loads(text))
    state = state_io.load(darwin, str(rewritten(path, tmp_path, rename)))
    assert [s.name for s in state.seats[:2]] == ["2", "1"]
    assert seat_named("1", state, "--player") is state.seats[1]
    assert seat_named("2", state, "--player") is state.seats[0]
    assert seat_named("Player 2", state, "--player") is state.seats[1]
    assert seat_named("3", state, "--player") is state.seats[2]        # p3: no seat is named 3


def test_settings_variants_and_tables_of_a_position_are_the_files_mistakes(saved, tmp_path):
    """A position naming settings, variants or tables the spec cannot be loaded with:
    exit 2 at the entry of the position, the spec's own error as a note."""
    _, _, path = saved
    cases = [
        (lambda d: d.setdefault("params", {}).update(food_units=0), "params.food_units",
         "more than the 0 Food Chips in the box"),
        (lambda d: d.update(variants=[str(DARWIN / "variants" / "beginners.rules"),
                                      str(DARWIN / "variants" / "short_game.rules")]), "variants[1]",
         "both change 'eras'"),
        (lambda d: d.update(variants=[str(DARWIN / "play.rules")]), "variants[0]", "not a variant file"),
        (lambda d: d.update(tables={"animal_card": str(DARWIN / "biomes.csv")}), "tables.animal_card",
         "the header of this table file does not match the table"),
    ]
    for change, entry, inner in cases:
        bad = rewritten(path, tmp_path, change)
        code, err = run_cli("show", "spec/darwins_choice", "--state", str(bad))
        assert code == 2, err
        assert f"{bad}:" in err and f"error: {entry}: the spec cannot be loaded with the" in err, err
        assert inner in err and "--variant " not in err.split("\n")[0]


def test_a_positions_tables_error_is_at_the_table_it_comes_from(saved, tmp_path):
    """Two saved tables, the second one broken: the error is at the second entry."""
    import csv
    _, _, path = saved
    cards = tmp_path / "cards.csv"
    rows = list(csv.reader((DARWIN / "animal_cards.csv").open(encoding="utf-8", newline="")))
    rows[1][rows[0].index("strength")] = "-1"
    with cards.open("w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows(rows)
    bad = rewritten(path, tmp_path, lambda d: d.update(
        tables={"biome": str(DARWIN / "biomes.csv"), "animal_card": str(cards)}))
    code, err = run_cli("show", "spec/darwins_choice", "--state", str(bad))
    assert code == 2, err
    assert "error: tables.animal_card: the spec cannot be loaded with the tables" in err, err


def test_a_saved_variant_that_does_not_compile_stays_a_spec_error(saved, tmp_path):
    """A variant file with a mistake of its own is exit 1 at its line, as with --variant;
    two good variants that conflict are the position's error, at the later one."""
    _, _, path = saved
    broken = tmp_path / "broken.rules"
    broken.write_text(f'variant broken "Broken" extends "{rel(DARWIN, broken.parent)}"\noverride param eras [X-1] = 3 +\n')
    bad = rewritten(path, tmp_path, lambda d: d.update(variants=[str(broken)]))
    code, err = run_cli("show", "spec/darwins_choice", "--state", str(bad))
    assert code == 1 and f"{broken}:2:" in err and "mend the file" not in err, err
    both = rewritten(path, tmp_path, lambda d: d.update(variants=[str(DARWIN / "variants" / "beginners.rules"),
                                                                  str(DARWIN / "variants" / "short_game.rules")]))
    code, err = run_cli("show", "spec/darwins_choice", "--state", str(both))
    assert code == 2 and "error: variants[1]: the spec cannot be loaded with the variants" in err, err


@pytest.mark.parametrize("section", ["state", "per_seat", "per_key", "switches", "params", "tables",
                                     "checkpoints", "reports"])
@pytest.mark.parametrize("value", [None, []])
def test_a_section_that_is_null_or_a_list_is_refused_not_emptied(darwin, saved, tmp_path, section, value):
    """Left out, a section keeps the initial values (or the spec's settings); written as
    null or [] it is a mistake, refused at its entry, never read as 'empty'."""
    from rulewright.cli import main
    _, _, path = saved
    bad = rewritten(path, tmp_path, lambda d: d.update({section: value}))
    if section in ("switches", "params", "tables"):
        with pytest.raises(BadInputError, match=f"{section} is an object of"):
            state_io.saved_settings(darwin.program, str(bad), json.loads(bad.read_text()), bad.read_text())
        assert main(["show", str(DARWIN), "--state", str(bad)]) == 2
        return
    message = error_of(darwin, bad)
    assert f"{section}:" in message and ("expected an object" in message or "is an object of" in message), message
    located(message, bad, json.dumps(value))


def test_a_null_item_of_a_list_and_a_key_written_twice_are_refused_at_their_place(darwin, saved, tmp_path):
    _, _, path = saved
    bad = rewritten(path, tmp_path, lambda d: d["state"]["world"].__setitem__(0, None))
    message = error_of(darwin, bad)
    assert "state.world[0]: null where a species is needed" in message
    located(message, bad, "null")
    twice = edited(path, tmp_path, lambda t: t.replace('"era": 2', '"era": 2, "era": 3', 1))
    message = error_of(darwin, twice)
    assert "the entry 'era' is written twice in one object" in message
    m = re.search(r":(\d+):(\d+): error", message)
    line = twice.read_text().splitlines()[int(m.group(1)) - 1]
    assert line[int(m.group(2)) - 1:].startswith('"era": 3'), line


def test_a_number_of_thousands_of_digits_is_an_input_error(darwin, saved, tmp_path):
    _, _, path = saved
    bad = edited(path, tmp_path, lambda t: t.replace('"era": 2', '"era": ' + "9" * 5000, 1))
    assert "a number of thousands of digits" in error_of(darwin, bad)


def test_the_seats_of_a_position_fit_its_mode(darwin, saved, tmp_path):
    _, _, path = saved
    two = rewritten(path, tmp_path, lambda d: d.update(seats=d["seats"][:2]))
    message = error_of(darwin, two)
    assert "seats: the mode 'standard' is for 3 to 6 players, and this position has 2" in message
    from rulewright.compiler.interpret import Interpreter
    savanna_2p = Interpreter(load(ROOT / "spec" / "ecosystem_savanna" / "variants" / "two_player.rules"))
    st = savanna_2p.play("two_player", 2, 1, stop_at="pick:3")
    doc = state_io.dump(st, seed=1)
    doc["seats"] = [s for s in doc["seats"] if s["kind"] != "neutral"]
    for per in doc["per_seat"].values():
        per.pop("neutral_player", None)
    lacking = tmp_path / "lacking.json"
    lacking.write_text(json.dumps(doc, indent=1))
    with pytest.raises(BadInputError, match="has the seat 'neutral_player' \\(neutral\\), which this position lacks"):
        state_io.load(savanna_2p, str(lacking))


def test_a_position_read_under_other_variants_than_it_was_played_with_says_so(saved, tmp_path):
    """Named with the base spec, a position is read under the variants it was played
    with; named with another variant, it is read under that one, with a warning that
    names both, never silently. ``"variants": null`` is a mistake, not 'none'."""
    _, _, path = saved
    short = str(DARWIN / "variants" / "short_game.rules")
    under = rewritten(path, tmp_path, lambda d: d.update(variants=[short]))
    code, err = run_cli("show", "spec/darwins_choice", "--state", str(under))
    assert code == 0 and "warning" not in err, err
    code, err = run_cli("show", short, "--state", str(under))
    assert code == 0 and "warning" not in err, err
    code, err = run_cli("show", str(DARWIN / "variants" / "beginners.rules"), "--state", str(under))
    assert code == 0, err
    # each variant file shown once, relative to the working directory (saved absolute)
    assert (f"warning: {under}: the game was played under spec/darwins_choice/variants/short_game.rules, and this "
            "command applies spec/darwins_choice/variants/beginners.rules instead") in err
    null = rewritten(path, tmp_path, lambda d: d.update(variants=None))
    code, err = run_cli("show", "spec/darwins_choice", "--state", str(null))
    assert code == 2 and "error: variants is a list of variant files (leave it out for none)" in err, err


def test_more_position_mistakes_found_by_a_sweep(darwin, saved, tmp_path):
    """A spec named by a list, a seat without a name, a Savanna card not connected to
    the others (grid files refuse it; a position did not)."""
    _, _, path = saved
    listed = rewritten(path, tmp_path, lambda d: d.update(spec=["darwins_choice"]))
    assert 'spec: the spec is named by a text, not ["darwins_choice"]' in error_of(darwin, listed)
    nameless = rewritten(path, tmp_path, lambda d: d["seats"][0].update(name=""))
    located(error_of(darwin, nameless), nameless, '""')
    savanna = Interpreter(load(ROOT / "spec" / "ecosystem_savanna"))
    doc = state_io.dump(savanna.play("standard", 3, 1, stop_at="pick:7"), seed=1)
    board = doc["per_seat"]["board"]["p1"]
    r, c = next((r, c) for r in range(4) for c in range(5) if board[r][c] is None
                and all(board[q][k] is None for q, k in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                        if 0 <= q < 4 and 0 <= k < 5))
    board[r][c] = doc["state"]["deck"].pop()      # every card still accounted for
    lone = tmp_path / "lone.json"
    lone.write_text(json.dumps(doc, indent=1))
    message = error_of(savanna, lone)
    assert f"per_seat.board.p1[{r}][{c}]: this card is not connected to the others" in message


def test_a_negative_darwin_point_stock_or_banked_points_are_refused(saved, tmp_path):
    _, _, path = saved
    for change, entry in ((lambda d: d["state"].update(dp_stock=-50), '"dp_stock": -50'),
                          (lambda d: d["per_seat"]["banked"].update(p2=-1), '"p2": -1')):
        bad = rewritten(path, tmp_path, change)
        code, err = run_cli("show", "spec/darwins_choice", "--state", str(bad))
        assert code == 2 and "cannot be negative" in err and entry in err, err
    # an unlimited stock may run below 0
    code, err = run_cli("show", "spec/darwins_choice", "--state", str(bad), "--set", "darwin_point_stock=unlimited")
    assert code == 2 and '"p2": -1' in err
    fine = rewritten(path, tmp_path, lambda d: d["state"].update(dp_stock=-50))
    code, err = run_cli("show", "spec/darwins_choice", "--state", str(fine), "--set", "darwin_point_stock=unlimited")
    assert code == 0, err


def test_a_table_path_written_relative_is_relative_to_the_state_file(saved, tmp_path):
    _, _, path = saved
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "cards.csv").write_text((DARWIN / "animal_cards.csv").read_text())
    rel = rewritten(path, tmp_path, lambda d: d.update(tables={"animal_card": "mine/cards.csv"}))
    code, err = run_cli("show", "spec/darwins_choice", "--state", str(rel))     # run from the repository
    assert code == 0, err


def test_a_seat_with_an_entry_it_does_not_have_is_refused(saved, tmp_path):
    _, _, path = saved
    bad = rewritten(path, tmp_path, lambda d: d["seats"][0].update(colour="red"))
    code, err = run_cli("show", "spec/darwins_choice", "--state", str(bad))
    assert code == 2 and "seats[0].colour: a seat has no entry 'colour'" in err, err
