"""`check` definitions and players' own tables (`--cards FILE`, `--table NAME=FILE`).

A check is a fact the spec's data must satisfy; it runs whenever the spec is loaded,
on the tables the spec ships and on tables a player brings. A failing row is reported
at its own line, in whichever file it came from.
"""
import csv
import json
import re

import pytest

from rulewright.compiler import load
from rulewright.compiler.diagnostics import BadInputError, ResolveError
from helpers import ROOT, run_command

DARWIN = ROOT / "spec" / "darwins_choice"
CATALOGUE = DARWIN / "animal_cards.csv"

MINI = """
game mini "Mini"
enum colour { red, blue }
table gem (colour: colour, worth: int) from "gems.csv" option gems

/// Every gem is worth something, and the red ones at least 2.
check worth_something for g in gem: g.worth > 0 else "a gem is worth something"
check red_worth for g in gem if g.colour == red: g.worth >= 2 else "red gems are worth 2 or more"
check three_gems: size(gem) == 3 else "there are three gems"
"""


def mini(tmp_path, rows, spec=MINI):
    (tmp_path / "mini.rules").write_text(spec)
    (tmp_path / "gems.csv").write_text("name,colour,worth\n" + "\n".join(rows) + "\n")
    return tmp_path / "mini.rules"


def test_checks_pass_silently(tmp_path):
    program = load(mini(tmp_path, ["ruby,red,3", "sapphire,blue,1", "garnet,red,2"]))
    assert set(program.checks) == {"worth_something", "red_worth", "three_gems"}


def test_failing_rows_are_reported_at_their_line(tmp_path):
    path = mini(tmp_path, ["ruby,red,1", "sapphire,blue,0", "garnet,red,2"])
    with pytest.raises(ResolveError) as info:
        load(path)
    text = info.value.render()
    assert "gems.csv:2:1: error: red gems are worth 2 or more: ruby (found 1, needs >= 2)" in text
    assert "gems.csv:3:1: error: a gem is worth something: sapphire (found 0, needs > 0)" in text
    assert "hint: check 'red_worth' at " in text and "three gems" not in text
    assert len(info.value.diagnostics) == 2


def test_a_check_message_computes_its_braces(tmp_path):
    """A check's message may show values as a rule's sentence does ({expression}, with
    the loop variable bound); it then says what it means and nothing is added to it."""
    spec = MINI.replace('else "red gems are worth 2 or more"',
                        'else "{g} is red and worth {g.worth}; red gems are worth 2 or more"')
    spec = spec.replace('else "there are three gems"', 'else "there are three gems, not {size(gem)}"')
    with pytest.raises(ResolveError) as info:
        load(mini(tmp_path, ["ruby,red,1", "sapphire,blue,1"], spec))
    text = info.value.render()
    assert "gems.csv:2:1: error: ruby is red and worth 1; red gems are worth 2 or more\n" in text
    assert "error: there are three gems, not 2\n" in text


def test_a_check_message_brace_is_checked_like_any_expression(tmp_path):
    spec = MINI.replace('else "a gem is worth something"', 'else "{g.wroth} is nothing"')
    with pytest.raises(ResolveError) as info:
        load(mini(tmp_path, ["ruby,red,3", "sapphire,blue,1", "garnet,red,2"], spec))
    text = info.value.render()
    assert "mini.rules:7:58: error" in text and "wroth" in text and "did you mean 'worth'?" in text


def test_whole_table_check_names_the_file(tmp_path):
    path = mini(tmp_path, ["ruby,red,3", "sapphire,blue,1"])
    with pytest.raises(ResolveError) as info:
        load(path)
    text = info.value.render()
    assert "mini.rules:9:7: error: there are three gems: found 2, needs == 3" in text
    assert "computed over gem from" in text and "gems.csv" in text


def test_a_players_table_replaces_the_spec_one(tmp_path):
    path = mini(tmp_path, ["ruby,red,3", "sapphire,blue,1", "garnet,red,2"])
    own = tmp_path / "mine.csv"
    own.write_text("name,colour,worth\nopal,blue,5\njade,red,1\npearl,blue,2\n")
    with pytest.raises(ResolveError, match=r"mine\.csv:3:1: error: red gems are worth 2 or more: jade"):
        load(path, options={"gems": str(own)})
    own.write_text("name,colour,worth\nopal,blue,5\njade,red,4\npearl,blue,2\n")
    program = load(path, tables={"gem": str(own)})
    assert program.enums["gem"].values == ["opal", "jade", "pearl"]
    assert program.own_tables == {"gem": str(own)}


def test_unknown_option_and_table(tmp_path):
    path = mini(tmp_path, ["ruby,red,3", "sapphire,blue,1", "garnet,red,2"])
    # the library's own words (each face spells what was given its own way: tests/app)
    with pytest.raises(BadInputError, match=r"the cards option: .* declares no table loaded with the cards option"):
        load(path, options={"cards": "x.csv"})
    with pytest.raises(BadInputError, match=r"no table 'gems' read from a file .*did you mean 'gem'"):
        load(path, tables={"gems": "x.csv"})


@pytest.mark.parametrize("check,message", [
    ("check c for g in gem: g.worth else \"m\"", "a check is true or false"),
    ("check c for g in 3: true else \"m\"", "a check runs over a collection"),
])
def test_ill_typed_checks(tmp_path, check, message):
    path = mini(tmp_path, ["ruby,red,3", "sapphire,blue,1", "garnet,red,2"], MINI + check + "\n")
    with pytest.raises(ResolveError, match=message):
        load(path)


# ---------------------------------------------------------------- Darwin's Choice
def catalogue_rows():
    with CATALOGUE.open(encoding="utf-8", newline="") as f:
        return list(csv.reader(f))


def write(rows, path):
    with path.open("w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows(rows)
    return path


def edit(rows, part, column, value):
    head = rows[0]
    row = next(r for r in rows[1:] if r[head.index("part")] == part)
    row[head.index(column)] = value
    return row[0]


def test_shipped_catalogue_passes_every_check():
    program = load(DARWIN)
    assert {"cards_in_box", "small_cards_in_box", "large_cards_in_box", "bodies_have_sites",
            "sized_by_part", "head_diet", "diet_on_heads", "biomes_in_box"} <= set(program.checks)


@pytest.mark.parametrize("part,column,value,message", [
    ("body", "sites", "-", "a Body Card needs docking sites"),
    ("tail", "diet", "carnivore", "only Head Cards show a nutrition symbol"),
    ("head", "diet", "none", "a Head Card shows its nutrition symbol"),
    ("wing", "size", "large", "heads, wings, single legs and tails are small cards"),
    ("legs", "sites", "tail_site", "only Body Cards have docking sites"),
])
def test_own_catalogue_row_mistakes(tmp_path, part, column, value, message):
    rows = catalogue_rows()
    name = edit(rows, part, column, value)
    own = write(rows, tmp_path / "mine.csv")
    with pytest.raises(ResolveError) as info:
        load(DARWIN, options={"cards": str(own)})
    text = info.value.render()
    assert re.search(r"mine\.csv:\d+:1: error: " + re.escape(message) + r"[^\n]*: " + name, text), text


def test_own_catalogue_counts_and_symbols(tmp_path):
    rows = catalogue_rows()
    rows.pop()                                        # one card short
    own = write(rows, tmp_path / "short.csv")
    with pytest.raises(ResolveError, match=r"the box holds 237 Animal Cards: found 236, needs == 237"):
        load(DARWIN, options={"cards": str(own)})
    rows = catalogue_rows()
    i = rows[0].index("abilities")
    row = next(r for r in rows[1:] if "climbing" in r[i])
    row[i] = row[i].replace("climbing", "climbin", 1)
    own = write(rows, tmp_path / "typo.csv")
    with pytest.raises(ResolveError) as info:
        load(DARWIN, options={"cards": str(own)})
    text = info.value.render()
    assert "'climbin' is not an ability (column 'abilities')" in text and "did you mean 'climbing'?" in text
    rows = catalogue_rows()
    rows.append(list(rows[1]))                        # the same name twice
    own = write(rows, tmp_path / "twice.csv")
    with pytest.raises(ResolveError, match=f"'{rows[1][0]}' appears twice in table 'animal_card'"):
        load(DARWIN, options={"cards": str(own)})


def test_play_with_own_catalogue(tmp_path):
    """A player's table with other printed values plays, and the saved state remembers it."""
    rows = catalogue_rows()
    s = rows[0].index("strength")
    for r in rows[1:]:
        r[s] = str(int(r[s]) + 1)
        r[rows[0].index("source")] = "printed"
    own = write(rows, tmp_path / "printed.csv")
    state = tmp_path / "s.json"
    proc = run_command("play", "spec/darwins_choice", "--players", "3", "--seed", "5",
                       "--cards", str(own), "--stop-at", "evaluation", "--save-state", str(state), cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    # written relative to the state file, as paths in shared files are
    assert json.loads(state.read_text())["tables"] == {"animal_card": "printed.csv"}
    proc = run_command("show", "spec/darwins_choice", "--state", str(state), cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    program = load(DARWIN, options={"cards": str(own)})
    shipped = load(DARWIN)
    some = program.enums["animal_card"].values[0]
    assert program.enums["animal_card"].attrs["strength"][some] == \
        shipped.enums["animal_card"].attrs["strength"][some] + 1


def test_own_biome_table_against_the_food_chips(tmp_path):
    """DC-COMP-10: the five richest biomes, each under the event that makes it richest,
    must fit in the box's Food Chips; a player's biome table that does not is refused,
    and the shipped one does under either reading of the boom events."""
    assert "food_chips_suffice" in load(DARWIN).checks
    load(DARWIN, {"boom_effect": "add_supply"})       # 18 + 18 + 17 + 17 + 17 = 87 <= 90
    with pytest.raises(ResolveError, match=r"could supply 87 units of food at once, more than the 86 Food Chips"):
        load(DARWIN, {"boom_effect": "add_supply", "food_units": 86})
    with open(DARWIN / "biomes.csv", newline="") as f:
        rows = list(csv.reader(f))
    head = rows[0]
    rich = next(r for r in rows[1:] if r[head.index("points")] == "3")
    rich[head.index("plants")] = "60"                 # no event changes a 3-point biome's supply
    own = write(rows, tmp_path / "my_biomes.csv")
    with pytest.raises(ResolveError) as info:
        load(DARWIN, tables={"biome": str(own)})
    text = info.value.render()
    assert "more than the 90 Food Chips in the box" in text
    assert "my_biomes.csv" in text                    # the player's table, not the shipped one


def test_a_table_file_that_is_not_text_is_refused(tmp_path):
    own = tmp_path / "biomes.csv"
    own.write_bytes(b"\xff\xfe" + "name,title\n".encode("utf-16-le"))
    with pytest.raises(BadInputError) as info:      # the player's own file: a bad input, at its first byte
        load(DARWIN, tables={"biome": str(own)})
    text = info.value.render()
    assert f"{own}:1:1: error: not UTF-8 text (the byte 0xff)" in text
    assert "hint: this file is UTF-16: save it as UTF-8" in text


def test_a_folder_given_as_a_table_file_is_named_a_folder(tmp_path):
    with pytest.raises(BadInputError, match=r"a folder, not a table file \(the table 'biome'"):
        load(DARWIN, tables={"biome": str(tmp_path)})


def test_a_bad_own_table_is_a_bad_input_file_exit_2(tmp_path):
    """A player's table the spec's checks refuse is a bad input file (exit 2); a spec
    that fails whatever the table stays a spec error; a --set value they refuse is the command's (exit 2)."""
    rows = catalogue_rows()
    c = rows[0].index("copies")
    rows[1][c] = str(int(rows[1][c]) + 4)
    own = write(rows, tmp_path / "more.csv")
    good = write(catalogue_rows(), tmp_path / "good.csv")

    def check(*extra):
        return run_command("check", "spec/darwins_choice", *extra, cwd=ROOT)
    bad = check("--cards", str(own))
    assert bad.returncode == 2 and "the box holds 237 Animal Cards: found 241" in bad.stderr, bad.stderr
    # located at the player's file (its header), the check as a note
    assert bad.stderr.startswith(f"{own}:1:1: error: the box holds 237 Animal Cards: found 241"), bad.stderr
    assert "components.rules:47:7: note: the check 'cards_in_box' [DC-COMP-02]" in bad.stderr
    spec_error = check("--cards", str(good), "--set", "food_units=46")
    # a --set value the spec's checks refuse is the command's mistake too
    assert spec_error.returncode == 2 and "more than the 46 Food Chips" in spec_error.stderr
    assert check("--cards", str(good)).returncode == 0


SAVANNA = ROOT / "spec" / "ecosystem_savanna"


@pytest.mark.parametrize("spec, settings, message", [
    ("", {"hand_size": "20"}, "6 seats need 2 x 6 x 20 = 240 cards over two rounds, and the box has 132"),
    ("", {"max_players": "8"}, "8 seats need 2 x 8 x 11 = 176 cards over two rounds, and the box has 132"),
    ("variants/solo.rules", {"solo_hand": "3"}, "after 2 turns your hand holds 1 card(s), and a turn needs 2"),
    ("variants/solo.rules", {"solo_row_draw": "1"}, "after 9 turns your hand holds 1 card(s)"),
    # 10 in hand, then 9 a turn for 16 turns and 5 after each of the first 3 rows: 10 + 144 + 15
    ("variants/solo.rules", {"solo_draw": "9"}, "a solo game draws 169 cards, and the box has 132"),
])
def test_savanna_settings_that_cannot_be_played_are_refused_at_load(spec, settings, message):
    """A box too small for the hands, a solo hand that runs out: refused when the spec
    loads, not halfway through a game."""
    with pytest.raises(ResolveError, match=re.escape(message)):
        load(SAVANNA / spec if spec else SAVANNA, settings)


def test_savanna_settings_the_rulebook_uses_are_accepted():
    for spec in ("", "variants/two_player.rules", "variants/solo.rules"):
        load(SAVANNA / spec if spec else SAVANNA)
    load(SAVANNA, {"max_players": "4", "hand_size": "16"})      # 2 x 4 x 16 = 128 <= 132


@pytest.mark.parametrize("spec, settings, players, message", [
    ("", {"grid_rows": "3"}, "3", "the draft places 20 cards in each ecosystem, and a 3 x 5 grid holds 15"),
    ("variants/two_player.rules", {"grid_columns": "4"}, "2",
     "the draft places 20 cards in each ecosystem, and a 4 x 4 grid holds 16"),
])
def test_savanna_grid_too_small_for_the_draft_stops_before_the_first_card(spec, settings, players, message):
    """Small grids stay loadable (scoring and queries use them), but a game on one is
    refused by the draft's requirement before a card is dealt, at the require, rather
    than partway through with no cell left for a card."""
    load(SAVANNA / spec if spec else SAVANNA, settings)       # small grids load
    sets = [a for k, v in settings.items() for a in ("--set", f"{k}={v}")]
    proc = run_command("play", str(SAVANNA / spec if spec else SAVANNA),
                       "--players", players, "--seed", "1", *sets, cwd=ROOT)
    # the command's setting is what the game cannot be played with: a bad command line
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    first = proc.stderr.splitlines()[0]
    assert first.endswith(f"error: {message} (grid_rows, grid_columns, hand_size)"), proc.stderr
    assert f"(with {' '.join(sets)}: a setting the game cannot be played with)" in proc.stderr
    assert "play.rules:" in first and "requirement 'draft_fits_grid' (ES-PLACE-03 ES-DRAFT-04)" in proc.stderr
    # a grid as large as the draft plays to the end
    ok = run_command("play", str(SAVANNA / spec if spec else SAVANNA),
                     "--players", players, "--seed", "1", "--set", "grid_rows=2", "--set", "grid_columns=10", cwd=ROOT)
    assert ok.returncode == 0, ok.stderr


DARWIN = ROOT / "spec" / "darwins_choice"


@pytest.mark.parametrize("spec, players, settings, message", [
    (SAVANNA, 3, {"hand_size": "1"}, "a hand of 1 card(s) leaves nothing to pick"),
    (SAVANNA, 3, {"hand_size": "-1"}, "a hand of -1 card(s) leaves nothing to pick"),
    (SAVANNA / "variants" / "two_player.rules", 2, {"hand_size": "0"}, "a hand of 0 card(s) leaves nothing to pick"),
    (DARWIN, 3, {"hand_size": "0"}, "3 hands of 0 cards need 0 Animal Cards, and the stacks hold 237; a hand holds 1"),
    (DARWIN, 3, {"hand_size": "200"}, "3 hands of 200 cards need 600 Animal Cards, and the stacks hold 237"),
    (DARWIN, 3, {"eras": "18"}, "a game of 18 Eras has 17 Transition Phases, each revealing an Event Card, "
                                "and the stack holds 16 (eras)"),
    (DARWIN / "variants" / "beginners.rules", 3, {"eras": "40"}, "a game of 40 Eras has 39 Transition Phases"),
    (DARWIN / "variants" / "kids.rules", 3, {"hand_size": "0"}, "3 hands of 0 cards need 0 Animal Cards"),
    (DARWIN / "variants" / "kids.rules", 6, {"eras": "5"},
     "5 Eras lay out 3 Biome Cards each, 15 in all, and the stack holds 13 (eras)"),
])
def test_settings_a_game_runs_out_with_are_refused_before_play(spec, players, settings, message):
    """A hand too small to pick from, hands or Eras the supplies cannot feed: the game
    stops at the requirement, before the first choice, with the param named."""
    from rulewright.compiler.diagnostics import RuntimeRulesError
    from rulewright.compiler.interpret import Interpreter
    program = load(spec, settings)
    mode = next(iter(program.modes))
    log = []
    with pytest.raises(RuntimeRulesError) as info:
        st = Interpreter(program)
        st.play(mode, players, 1, watchers=[lambda state, label: log.append(label)])
    assert message in info.value.diagnostics[0].message
    assert "requirement '" in info.value.diagnostics[0].hint
    assert not log, "the game went on past a checkpoint"
    # the limits themselves are playable
    limit = {"eras": {"18": "17", "40": "16", "5": "4"}, "hand_size": {}}
    name, value = next(iter(settings.items()))
    if value in limit.get(name, {}):
        Interpreter(load(spec, {name: limit[name][value]})).play(mode, players, 1)


def test_settings_from_the_command_line_that_break_the_spec_are_usage_errors():
    """--set of an unknown name, or of a value that leaves a mode no player count, is the
    command's mistake (exit 2), said once for a base and its variants."""
    def check(*extra):
        return run_command("check", *extra, cwd=ROOT)
    unknown = check("spec/darwins_choice", "--set", "nosuch=1")
    assert unknown.returncode == 2 and unknown.stderr.count("cannot set 'nosuch'") == 1, unknown.stderr
    assert "variants/kids.rules: the same error as spec/darwins_choice, above" in unknown.stderr
    empty = check("spec/ecosystem_savanna", "--set", "max_players=2")
    assert empty.returncode == 2, empty.stderr
    assert "play.rules:" in empty.stderr and \
        "error: the mode 'standard' is for no number of players: this range is empty" in empty.stderr
    assert check("spec/darwins_choice", "--set", "eras=0").returncode == 2


def test_a_quote_never_closed_in_a_table_file_is_located_at_its_row(tmp_path):
    """Found by a sweep: the rest of the file became one cell, and the error was the
    box's card count at the spec's check."""
    lines = CATALOGUE.read_text(encoding="utf-8").splitlines()
    lines[5] = lines[5].replace(",", ',"', 1)
    own = tmp_path / "quote.csv"
    own.write_text("\n".join(lines) + "\n", encoding="utf-8")
    proc = run_command("check", "spec/darwins_choice", "--cards", str(own), cwd=ROOT)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith(f"{own}:6:1: error: a quote (\") opened in this row is never closed"), proc.stderr
    # a quoted cell over two lines is still one cell, and the rows after it keep their lines
    rows = catalogue_rows()
    rows[1][rows[0].index("note")] = "two\nlines"
    rows[3][rows[0].index("part")] = "tial"
    bad = write(rows, tmp_path / "multi.csv")
    proc = run_command("check", "spec/darwins_choice", "--cards", str(bad), cwd=ROOT)
    assert proc.returncode == 2 and f"{bad}:5:" in proc.stderr and "'tial'" in proc.stderr, proc.stderr
