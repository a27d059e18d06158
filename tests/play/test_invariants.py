"""Invariants: facts of every position, written in the spec and checked on positions.

A position read from a file must satisfy every invariant of its spec, or it is refused
at the entry of the file that breaks one; a game the rules play must never reach a
position that breaks one (else the rules and the invariant disagree, an error at the
invariant). Both directions are tested: hand-edited positions that broke queries deep
inside a rule are now refused at their line, and seeded games of every spec, mode and
version keep every invariant at every checkpoint.
"""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from rulewright.compiler import load
from rulewright.compiler.play import state_io
from rulewright.compiler.play.checks import broken_invariants
from rulewright.compiler.play.checks import invariant_watcher
from rulewright.compiler.diagnostics import BadInputError, RuntimeRulesError
from rulewright.solver.queries import interpreter_for
from helpers import ROOT, run_command

DARWIN = ROOT / "spec" / "darwins_choice"
_PROGRAMS: dict = {}


def program(path: Path):
    if path not in _PROGRAMS:
        _PROGRAMS[path] = load(path)
    return _PROGRAMS[path]


def saved(path: Path = DARWIN, mode: str = "standard", players: int = 4, seed: int = 3,
          stop: str = "evaluation:2") -> dict:
    prog = program(path)
    st = interpreter_for(prog).play(mode, players, seed, stop_at=stop)
    assert st.stopped == stop
    return json.loads(json.dumps(state_io.dump(st, seed=seed)))


def refused(doc: dict, path: Path = DARWIN) -> str:
    """The error of reading ``doc`` as a position (it must be refused)."""
    text = json.dumps(doc, indent=1)
    with pytest.raises(BadInputError) as info:
        state_io.load(interpreter_for(program(path)), "pos.json", doc, text)
    return info.value.render()


# ------------------------------------------------------------------ hand-edited positions
def test_a_saved_position_keeps_every_invariant():
    doc = saved()
    st = state_io.load(interpreter_for(program(DARWIN)), "pos.json", doc, json.dumps(doc))
    assert broken_invariants(interpreter_for(program(DARWIN)), st) == []


def test_a_species_without_a_continent_is_refused_at_its_home():
    doc = saved()
    doc["state"]["world"][0]["home"] = None
    err = refused(doc)
    assert "state.world[0].home: species 1 lives on none, which is not a continent in play" in err
    assert "invariant 'species_in_a_biome' [DC-ACT-CREATE-01]" in err
    assert "positions.rules:" in err and "hint: a position must be one the rules allow" in err


def test_a_continent_without_its_biome_card_is_refused_at_that_entry():
    doc = saved()
    home = doc["state"]["world"][0]["home"]
    doc["per_key"]["biome_card"][home] = None
    err = refused(doc)
    assert f"per_key.biome_card.{home}: {home} is in play but shows no Biome Card" in err
    assert "invariant 'biome_on_every_continent'" in err


def test_keyed_state_left_out_names_the_continents_three_at_most():
    doc = saved()
    del doc["per_key"]
    err = refused(doc)
    in_play = doc["state"]["in_play"]
    assert len(in_play) == 4
    shown = [c for c in in_play if f"{c} is in play but shows no Biome Card" in err]
    assert len(shown) == 3
    assert "(4 places in this file break it, 3 are shown)" in err
    assert f"state.in_play[{in_play.index(shown[0])}]" in err


def test_a_species_without_cards_is_refused_at_its_cards():
    doc = saved()
    doc["state"]["world"][0]["cards"] = []
    err = refused(doc)
    assert "state.world[0].cards: species 1 is not a well-formed species" in err


def test_a_species_with_two_heads_is_refused():
    doc = saved()
    prog = program(DARWIN)
    heads = [k for k in prog.enums["animal_card"].values if k.endswith("_head")]
    doc["state"]["world"][0]["cards"] += heads[:1]
    err = refused(doc)
    assert "state.world[0].cards: species 1 is not a well-formed species" in err


def test_two_species_with_one_id_and_negative_chips_are_refused():
    doc = saved()
    world = doc["state"]["world"]
    assert len(world) >= 2
    world[1]["id"] = world[0]["id"]
    world[0]["plants"] = -1
    err = refused(doc)
    assert "two species have the same id" in err
    assert "has a negative number of Darwin Points or Food Chips (dp" in err and "plants -1" in err


def test_a_species_numbered_past_next_id_is_refused():
    doc = saved()
    doc["state"]["world"][0]["id"] = doc["state"]["next_id"]
    err = refused(doc)
    assert f"state.next_id: next_id is {doc['state']['next_id']}, not past every species' id " \
           f"(the largest is {doc['state']['next_id']})" in err
    doc["state"]["world"][0]["id"] = 0
    assert "state.world[0].id: species 0 has an id below 1" in refused(doc)


def test_a_turn_going_on_after_an_action_needs_per_species():
    doc = saved(stop="turn:9")
    doc["state"]["acted_this_turn"] = True
    assert "state.acted_this_turn: acted_this_turn holds only within a turn under main_actions = " \
           "per_species, and this position is played with per_turn" in refused(doc)
    doc["state"]["acted_this_turn"] = False
    doc["state"]["created_this_turn"] = True
    assert "state.created_this_turn: created_this_turn is set but acted_this_turn is not" in refused(doc)


def test_queries_on_broken_positions_are_errors_of_the_file_not_internal_errors(tmp_path):
    """The three hand edits that used to end in an internal error, through the command
    line: exit 2, the file's line, the invariant, no traceback."""
    doc = saved()
    cases = []
    a = copy.deepcopy(doc)
    a["state"]["world"][0]["home"] = None
    cases.append((a, ["best-move"], "state.world[0].home"))
    b = copy.deepcopy(doc)
    b["per_key"]["biome_card"][b["state"]["world"][0]["home"]] = None
    cases.append((b, ["explain", "--species", str(b["state"]["world"][0]["id"])], "per_key.biome_card."))
    c = copy.deepcopy(doc)
    del c["per_key"]
    cases.append((c, ["best-create"], "state.in_play["))
    for i, (d, query, where) in enumerate(cases):
        path = tmp_path / f"pos{i}.json"
        path.write_text(json.dumps(d, indent=1))
        proc = run_command("query", "spec/darwins_choice", *query,
                           "--state", str(path), cwd=ROOT)
        assert proc.returncode == 2, proc.stderr
        assert f"{path}:" in proc.stderr and where in proc.stderr, proc.stderr
        assert "internal error" not in proc.stderr and "Traceback" not in proc.stderr


def test_the_kids_version_needs_no_biome_card_on_the_chip_place():
    kids = DARWIN / "variants" / "kids.rules"
    doc = saved(kids, "kids", 3, 1, "era:1")
    chip = doc["state"]["chip_place"][0]
    assert doc["per_key"]["biome_card"][chip] is None          # the Competition Chip's place
    others = [c for c in doc["state"]["in_play"] if c != chip]
    assert all(doc["per_key"]["biome_card"][c] for c in others)  # laid out before the first turn
    st = state_io.load(interpreter_for(program(kids)), "pos.json", doc, json.dumps(doc))
    assert st.shared["chip_place"] == (chip,)
    doc["per_key"]["biome_card"][others[0]] = None
    err = refused(doc, kids)
    assert "and it is not the place of the Competition Chip" in err


# ------------------------------------------------------------------ games keep them
def every_mode() -> list[tuple[Path, str, int]]:
    """Every mode of every spec with invariants, at its fewest and most players."""
    specs = [DARWIN, *sorted((DARWIN / "variants").glob("*.rules")), ROOT / "spec" / "ecosystem_savanna",
             *sorted((ROOT / "spec" / "ecosystem_savanna" / "variants").glob("*.rules")),
             *sorted((ROOT / "spec" / "house_rules").glob("*.rules"))]
    out = []
    for path in specs:
        if not program(path).invariants:
            continue
        for name, mode in program(path).modes.items():
            out.append((path, name, mode.min_players))
            if mode.max_players != mode.min_players:
                out.append((path, name, mode.max_players))
    return out


@pytest.mark.parametrize("path,mode,players", every_mode(),
                         ids=lambda x: x.stem if isinstance(x, Path) else str(x))
def test_games_of_every_spec_and_mode_keep_the_invariants(path, mode, players):
    it = interpreter_for(program(path))
    watch = invariant_watcher(it)
    for seed in range(3):
        st = it.play(mode, players, seed, watchers=[watch])
        watch(st, "end")
        assert st.checkpoints, "the watcher saw no checkpoint"


def test_games_under_per_species_keep_the_invariants():
    """The turn's own state (acted_this_turn, created_this_turn) is back to false at
    every checkpoint of a game where players act with several species in a turn."""
    it = interpreter_for(load(DARWIN, {"main_actions": "per_species"}))
    watch = invariant_watcher(it)
    for seed in range(2):
        st = it.play("standard", 4, seed, watchers=[watch])
        watch(st, "end")
        assert not st.shared["acted_this_turn"] and not st.shared["created_this_turn"]


def test_darwin_has_invariants_and_a_variant_can_flip_them():
    base = program(DARWIN)
    kids = program(DARWIN / "variants" / "kids.rules")
    assert len(base.invariants) >= 8
    assert base.invariants["biome_on_every_continent"].filter is None
    assert kids.invariants["biome_on_every_continent"].filter is not None


SPEC = '''
game g "G"
state { score: int = 0 }
invariant score_small [X-1]: score < 3 else "the score is {score}"
procedure add { set score = score + 1 checkpoint added }
mode standard players 1 { seats players repeat 5 { do add() } }
'''


def spec_in(tmp_path: Path, text: str):
    (tmp_path / "g.rules").write_text(text)
    return load(tmp_path / "g.rules")


def test_an_invariant_the_rules_break_is_an_error_at_the_invariant(tmp_path):
    prog = spec_in(tmp_path, SPEC)
    it = interpreter_for(prog)
    with pytest.raises(RuntimeRulesError) as info:
        it.play("standard", 1, 0, watchers=[invariant_watcher(it)])
    text = info.value.render()
    assert "g.rules:4:11: error: at checkpoint added:3 the rules reached a position that breaks " \
           "this invariant: the score is 3" in text
    assert "with this seed, the game reaches that position at checkpoint added:3" in text


def test_invariants_are_not_evaluated_when_the_spec_is_loaded(tmp_path):
    """Unlike a check, an invariant reads the state: loading evaluates none (an
    invariant false of the initial state loads fine and fails on positions only)."""
    prog = spec_in(tmp_path, SPEC.replace("score < 3", "score > 0"))
    assert "score_small" in prog.invariants and not prog.checks
    it = interpreter_for(prog)
    st = it.play("standard", 1, 0, stop_at="added:1")
    assert broken_invariants(it, st) == []
    doc = state_io.dump(st)
    doc["state"]["score"] = 0
    with pytest.raises(BadInputError) as info:
        state_io.load(it, "pos.json", doc, json.dumps(doc, indent=1))
    assert "the score is 0" in info.value.render()


def test_a_variant_can_override_and_remove_an_invariant(tmp_path):
    (tmp_path / "base").mkdir()
    (tmp_path / "base" / "g.rules").write_text(SPEC)
    (tmp_path / "looser.rules").write_text(
        'variant looser "Looser" extends "base"\n'
        'override invariant score_small: score < 10 else "the score is {score}, 10 or more"\n')
    (tmp_path / "none.rules").write_text('variant none "None" extends "base"\nremove invariant score_small\n')
    looser = load(tmp_path / "looser.rules")
    it = interpreter_for(looser)
    st = it.play("standard", 1, 0, watchers=[invariant_watcher(it)])
    assert st.shared["score"] == 5
    assert "score_small" not in load(tmp_path / "none.rules").invariants


def test_the_hand_written_position_of_the_docs_loads_and_needs_a_player(tmp_path):
    """docs/state.md's hand-written position is a position the rules allow; a query on
    it without --player says which players there are (its default, to_move, is unset)."""
    text = (ROOT / "docs" / "state.md").read_text()
    block = text.split("### A hand-written position", 1)[1].split("```json", 1)[1].split("```", 1)[0]
    doc = json.loads(block)
    st = state_io.load(interpreter_for(program(DARWIN)), "pos.json", doc, block)
    assert broken_invariants(interpreter_for(program(DARWIN)), st) == []
    path = tmp_path / "pos.json"
    path.write_text(block)
    proc = run_command("query", "spec/darwins_choice", "best-move",
                       "--state", str(path), cwd=ROOT)
    assert proc.returncode == 2
    assert "--player is needed" in proc.stderr
    assert "hint: give --player ann (the players: ann, bo, cy), or set in the position what its default " \
           "reads (to_move)" in proc.stderr


def test_an_invariant_that_cannot_be_evaluated_on_a_position_says_why(tmp_path):
    prog = spec_in(tmp_path, SPEC.replace('invariant score_small [X-1]: score < 3 else "the score is {score}"',
                                          'invariant share [X-2]: first([x for x in 1..score]) >= 1 else "the first point is below 1"'))
    it = interpreter_for(prog)
    doc = state_io.dump(it.play("standard", 1, 0, stop_at="added:2"))
    doc["state"]["score"] = 0
    with pytest.raises(BadInputError) as info:
        state_io.load(it, "pos.json", doc, json.dumps(doc, indent=1))
    text = info.value.render()
    assert "state.score: cannot be checked on this position (" in text
    assert "first() of an empty collection" in text
    assert "the first point is below 1" in text and "invariant 'share' [X-2]" in text


def test_an_era_outside_the_game_is_refused_and_a_game_has_eras():
    doc = saved()
    doc["state"]["era"] = 7
    assert "state.era: the Era is 7, outside 0 to 5 in a game of 4 Eras (eras)" in refused(doc)
    from rulewright.compiler.diagnostics import ResolveError
    with pytest.raises(ResolveError, match="a game has at least one Era, not 0"):
        load(DARWIN, {"eras": "0"})


def test_keyed_state_read_at_a_fixed_or_computed_key_is_located_there(tmp_path):
    prog = spec_in(tmp_path, '''game g "G"
enum colour { red, blue }
per colour { owner: seat }
state { picked: list of colour }
invariant red_owned: owner(red) != none else "red has no owner"
invariant picked_owned for c in picked: owner(c) != none else "{c} is picked but has no owner"
mode standard players 2 { seats players }
''')
    doc = {"seats": ["a", "b"], "state": {"picked": ["blue"]},
           "per_key": {"owner": {"red": None, "blue": None}}}
    with pytest.raises(BadInputError) as info:
        state_io.load(interpreter_for(prog), "pos.json", doc, json.dumps(doc, indent=1))
    text = info.value.render()
    assert "error: per_key.owner.red: red has no owner" in text
    assert "error: per_key.owner.blue: blue is picked but has no owner" in text


# ------------------------------------------------------------------ Ecosystem: Savanna
SAVANNA = ROOT / "spec" / "ecosystem_savanna"


def test_a_savanna_position_saved_mid_draft_loads_and_keeps_every_invariant():
    doc = saved(SAVANNA, players=3, seed=1, stop="pick:7")
    st = state_io.load(interpreter_for(program(SAVANNA)), "pos.json", doc, json.dumps(doc))
    assert broken_invariants(interpreter_for(program(SAVANNA)), st) == []
    placed = [sum(c is not None for row in doc["per_seat"]["board"][p] for c in row) for p in ("p1", "p2", "p3")]
    assert placed == [6, 6, 6] and all(len(doc["per_seat"]["hand"][p]) == 5 for p in ("p1", "p2", "p3"))


def test_a_card_the_box_does_not_have_is_refused_with_where_the_copies_are():
    doc = saved(SAVANNA, players=3, seed=1, stop="pick:7")
    in_deck = doc["state"]["deck"].count("lion")
    held = [doc["per_seat"]["hand"][p].count("lion") + sum(row.count("lion") for row in doc["per_seat"]["board"][p])
            for p in ("p1", "p2", "p3")]
    doc["per_seat"]["hand"]["p2"].append("lion")
    held[1] += 1
    err = refused(doc, SAVANNA)
    assert (f"the game holds 11 lion cards, and the box has 10: {in_deck} in the deck, 0 in the discard pile, "
            f"and held by Player 1, Player 2, Player 3: {', '.join(map(str, held))}") in err
    assert "invariant 'cards_accounted_for'" in err


@pytest.mark.parametrize("seat, title", [("p3", "Player 3"), ("p1", "Player 1")])
def test_a_savanna_ecosystem_behind_the_others_is_refused(seat, title):
    """The ecosystem that broke ranks is the one named, the first player's too (the
    others are measured against what most players' picks have placed)."""
    doc = saved(SAVANNA, players=3, seed=1, stop="pick:7")
    board = doc["per_seat"]["board"][seat]
    r, c = next((r, c) for r, row in enumerate(board) for c, x in enumerate(row) if x is not None)
    doc["state"]["discard"].append(board[r][c])           # the card still accounted for
    board[r][c] = None
    err = refused(doc, SAVANNA)
    assert f"{title}'s picks have placed 5 cards, and most players' 6: every pick places one card in each" in err
    assert err.count("picks have placed") == 1            # the other two seats are not blamed


def test_two_ecosystems_at_odds_are_not_blamed_on_either():
    """With two players there is no majority: the message gives both counts and does
    not say which one broke ranks."""
    two = SAVANNA / "variants" / "two_player.rules"
    doc = saved(two, mode="two_player", players=2, seed=2, stop="pick:9")
    cells = [(r, c) for r, row in enumerate(doc["per_seat"]["board"]["p2"]) for c, x in enumerate(row) if x is not None]
    errors = []
    for r, c in cells:                  # a card whose removal leaves the grid connected
        edited = json.loads(json.dumps(doc))
        edited["state"]["discard"].append(edited["per_seat"]["board"]["p2"][r][c])
        edited["per_seat"]["board"]["p2"][r][c] = None
        errors.append(refused(edited, two))
    err = next(e for e in errors if "not connected" not in e)
    assert "Player 2's picks have placed 7 cards, and another player's 8: every pick places one card" in err


def test_the_neutral_pile_and_the_solo_turns_keep_every_card():
    """Two players: the neutral seat's face-up pile counts among the cards held; solo:
    a position saved at a turn loads."""
    two = SAVANNA / "variants" / "two_player.rules"
    doc = saved(two, mode="two_player", players=2, seed=2, stop="pick:9")
    assert doc["per_seat"]["pile"]["neutral_player"]
    state_io.load(interpreter_for(program(two)), "pos.json", doc, json.dumps(doc))
    doc["per_seat"]["pile"]["neutral_player"].append("elephant")
    assert "elephant cards, and the box has" in refused(doc, two)
    solo = SAVANNA / "variants" / "solo.rules"
    doc = saved(solo, mode="solo", players=1, seed=2, stop="turn:12")
    state_io.load(interpreter_for(program(solo)), "pos.json", doc, json.dumps(doc))


# ------------------------------------------------------------------ messages that cannot be computed
# SPEC, its message dividing by zero where its condition fails
MESSAGES = SPEC.replace('invariant score_small [X-1]: score < 3 else "the score is {score}"',
                        'invariant small [X-1]: score < 3 else "the score is {score // (score - score)}"')
assert MESSAGES != SPEC


def test_an_invariant_message_that_cannot_be_computed_is_the_specs_error_at_that_part(tmp_path):
    """Found by a sweep: it blamed the position ("cannot be checked on this position")."""
    from rulewright.compiler.play.checks import MessageError
    program = spec_in(tmp_path, MESSAGES)
    it = interpreter_for(program)
    with pytest.raises(MessageError) as info:
        it.play("standard", 1, 1, watchers=[invariant_watcher(it)])
    d = info.value.diagnostics[0]
    assert d.message.startswith("the message of invariant 'small' cannot be computed where its condition fails:")
    assert "cannot divide 3 by 0" in d.message and (d.span.line, d.span.col) == (4, 54)     # at {score // ...}


def test_an_invariant_that_cannot_be_evaluated_where_the_rules_lead_is_the_specs_error(tmp_path):
    program = spec_in(tmp_path, MESSAGES.replace("score < 3 else", "score // (score - score) == 0 else"))
    it = interpreter_for(program)
    with pytest.raises(RuntimeRulesError) as info:
        it.play("standard", 1, 1, watchers=[invariant_watcher(it)])
    d = info.value.diagnostics[0]
    assert d.message.startswith("at checkpoint added:1 this invariant cannot be evaluated on the position "
                                "the rules reached: (cannot divide 1 by 0 (the divisor is 0 here))"), d.message
    assert d.hint.startswith("an error of the spec")


def test_a_requirement_whose_message_cannot_be_computed_still_says_which_failed(tmp_path):
    program = spec_in(tmp_path, SPEC.replace("invariant score_small [X-1]: score < 3 else \"the score is "
                                             "{score}\"\n", "").replace(
        "seats players ", 'seats players require started [X-2]: score > 0 else "{first([x for x in [score] if x > 1])}" '))
    with pytest.raises(RuntimeRulesError) as info:
        interpreter_for(program).play("standard", 1, 1)
    d = info.value.diagnostics[0]
    assert d.message.startswith("requirement 'started' (X-2) does not hold, and its message cannot be computed:")
    assert d.span.line == 5


def test_a_rule_sentence_that_cannot_be_computed_is_shown_as_such_in_a_reason(tmp_path):
    from rulewright.solver.queries import run_query
    program = spec_in(tmp_path, '''
game g "G"
rule big(n: int) [X-3] = n > 5 else "{n} is not above {first([x for x in [1] if x > n])}"
query q "Q" { choose n in 1..3  require big(n)  maximize n }
''')
    answer = run_query(program, "q", {})
    assert answer.status == "INFEASIBLE"
    sentence = answer.reasons[0].sentence
    assert "[this part of the rule's sentence cannot be computed: " in sentence, sentence


# ------------------------------------------------------------------ invariants "else warn"
WARN_SPEC = SPEC.replace('else "the score is {score}"', 'else warn "the score is {score}"')


def test_a_warning_invariant_reads_the_position_with_a_warning_and_the_rules_still_keep_it(tmp_path):
    prog = spec_in(tmp_path, WARN_SPEC)
    assert prog.invariants["score_small"].node.warn
    it = interpreter_for(prog)
    doc = state_io.dump(it.play("standard", 1, 0, stop_at="added:1"))
    doc["state"]["score"] = 7
    text = json.dumps(doc, indent=1)
    st = state_io.load(it, "pos.json", doc, text)           # read, not refused
    assert st.shared["score"] == 7
    (warning,) = st.warnings
    shown = warning.render()
    assert shown.startswith("pos.json:") and ": warning: state.score: the score is 7" in shown
    assert "a position reached in play satisfies the invariant 'score_small' [X-1]" in shown
    # the rules reaching such a position are still an error at the invariant
    with pytest.raises(RuntimeRulesError) as info:
        it.play("standard", 1, 0, watchers=[invariant_watcher(it)])
    assert "the rules reached a position that breaks this invariant: the score is 3" in info.value.render()


def test_warn_is_for_invariants_only(tmp_path):
    from rulewright.compiler.diagnostics import RulesError
    with pytest.raises(RulesError) as info:
        spec_in(tmp_path, WARN_SPEC.replace("invariant score_small", "check score_small"))
    assert "g.rules:4:" in info.value.render()


def hand_with(doc: dict, seat: str, cards: list) -> dict:
    doc = copy.deepcopy(doc)
    doc["per_seat"]["hand"][seat] = list(doc["per_seat"]["hand"][seat]) + cards
    return doc


def test_darwin_cards_beyond_the_box_are_read_with_a_warning_at_a_hand_holding_them():
    import csv
    doc = saved()
    it = interpreter_for(program(DARWIN))
    assert state_io.load(it, "pos.json", doc, json.dumps(doc, indent=1)).warnings == []
    # a card still in a stack, given twice more to player 2
    card = doc["state"]["small_stack"][0]
    with open(DARWIN / "animal_cards.csv", encoding="utf-8") as f:
        box = next(int(r["copies"]) for r in csv.DictReader(f) if r["name"] == card)
    out = it.call("copies_out", card, state=state_io.load(it, "pos.json", doc, json.dumps(doc, indent=1)))
    extra = box - out + 1           # one more than the box has
    edited = hand_with(doc, "p2", [card] * extra)
    text = json.dumps(edited, indent=1)
    st = state_io.load(it, "pos.json", edited, text)
    assert it.call("copies_out", card, state=st) == box + 1
    (warning,) = st.warnings
    shown = warning.render()
    assert "warning: per_seat.hand.p2[" in shown
    assert f"{box + 1} copies of {card} are out of the draw stacks" in shown and f"the box has {box}" in shown
    # at the hand's entry, not at the stack that comes first in the file
    line = text.splitlines()[warning.span.line - 1]
    assert line[warning.span.col - 1:].startswith(f'"{card}"')
    # as many as the box has: no warning
    fits = hand_with(doc, "p2", [card] * (extra - 1))
    assert state_io.load(it, "pos.json", fits, json.dumps(fits, indent=1)).warnings == []


def test_a_query_on_a_position_beyond_the_box_answers_after_the_warning(tmp_path):
    doc = saved(stop="turn:5")
    hand = doc["per_seat"]["hand"]["p1"]
    path = tmp_path / "many.json"
    path.write_text(json.dumps(hand_with(doc, "p1", [hand[0]] * 6), indent=1))
    done = run_command("query", str(DARWIN), "best-create",
                       "--state", str(path), "--player", "p1", "--time-limit", "20", cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert f"warning: per_seat.hand.p1[0]: 7 copies of {hand[0]} are out of the draw stacks" in done.stderr
    assert "best_create:" in done.stdout
    # --json: the answer carries them too
    done = run_command("query", str(DARWIN), "best-create",
                       "--state", str(path), "--player", "p1", "--time-limit", "20", "--json", cwd=ROOT)
    (warning,) = json.loads(done.stdout)["warnings"]
    assert warning["at"].startswith(f"{path}:") and warning["message"].startswith("per_seat.hand.p1[0]: 7 copies")
