"""Statements that change the game state: set, while, state kept per key, records in state,
turn order. A tiny game is played and its reports checked."""
from rulewright.compiler import load
from rulewright.compiler.interpret import Interpreter

SPEC = """
game mini "Mini"
enum place { north, south }
record token { owner: seat, place: place, power: int }
per place { stock: int = 3 }
per seat { score: int }
state { tokens: list of token   rounds: int }

procedure round {
  for p in seats_from(first(players), right) {
    choose where in place where stock(where) > 0 by p
    set stock(where) = stock(where) - 1
    set tokens = tokens + [new token(owner = p, place = where, power = size(tokens) + 1)]
  }
  set rounds = rounds + 1
  checkpoint round_end
}

mode play "Play" players 2..3 {
  seats players
  let left = sum(stock(x) for x in place)
  while left > 0 {
    do round()
    set left = sum(stock(x) for x in place)
  }
  for p in players { set score(p) = sum(t.power for t in tokens if t.owner == p) }
  report rounds = rounds
  report placed = size(tokens)
  report score for p in players = score(p)
  report order = seats_from(first(players), right)
  report strongest = [t.power for t in first(ranked(t for t in tokens by t.power))]
}
"""


def test_mini_game(tmp_path):
    path = tmp_path / "mini.rules"
    path.write_text(SPEC)
    interp = Interpreter(load(path))
    state = interp.play("play", 3, 5)
    r = state.reports
    assert r["placed"] == 6 and r["rounds"] == 2
    assert sorted(r["score"].values()) == sorted([1 + 4, 2 + 5, 3 + 6])
    assert [s.name for s in r["order"]] == ["p1", "p3", "p2"]        # counter-clockwise from p1
    assert r["strongest"] == (6,)
    assert all(v == 0 for v in state.per["stock"].values())
    assert sum(1 for t in state.shared["tokens"] if t.f_place == "north") == 3


def test_checkpoints_watch_and_stop(tmp_path):
    path = tmp_path / "mini.rules"
    path.write_text(SPEC)
    interp = Interpreter(load(path))
    seen = []
    state = interp.play("play", 2, 5, watchers=[lambda st, label: seen.append((label, len(st.shared["tokens"])))])
    assert seen == [("round_end:1", 2), ("round_end:2", 4), ("round_end:3", 6)]
    assert state.stopped is None
    stopped = interp.play("play", 2, 5, stop_at="round_end:2")
    assert stopped.stopped == "round_end:2" and len(stopped.shared["tokens"]) == 4
    assert stopped.reports == {}
    assert interp.play("play", 2, 5, stop_at="round_end").stopped == "round_end:1"


NOTES = """
game notes "Notes"
switch bonus: 0 | 10 = 0
switch rounds_played: 1 | 2 | 3 = 2
per seat { score: int }

mode play "Play" players 2..2 {
  seats players
  for r in 1..rounds_played {
    section round = r
    for p in players {
      choose n in 1..3 by p
      set score(p) = score(p) + n
      note scored = (p, n)
    }
  }
  note bonus = bonus
  report score for p in players = score(p) + bonus
}
"""


def notes_of(state):
    return [(e.detail["name"], e.detail["value"], e.detail["heading"]) for e in state.log if e.kind == "note"]


def test_notes_and_sections_are_logged_in_order(tmp_path):
    path = tmp_path / "notes.rules"
    path.write_text(NOTES)
    state = Interpreter(load(path)).play("play", 2, 3)
    notes = notes_of(state)
    assert [(n, h) for n, _, h in notes] == [("round", True), ("scored", False), ("scored", False),
                                             ("round", True), ("scored", False), ("scored", False),
                                             ("bonus", False)]
    assert [v for n, v, _ in notes if n == "round"] == [1, 2]
    picks = [e.detail["value"] for e in state.log if e.kind == "choose"]
    assert [v[1] for n, v, _ in notes if n == "scored"] == picks
    assert {p.name: s for p, s in state.reports["score"].items()} == {
        "p1": picks[0] + picks[2], "p2": picks[1] + picks[3]}


def test_numeric_switches(tmp_path):
    import pytest
    from rulewright.compiler.diagnostics import BadInputError
    path = tmp_path / "notes.rules"
    path.write_text(NOTES)
    program = load(path, {"bonus": "10", "rounds_played": "3"})
    assert program.switch_options("bonus") == [0, 10] and program.switches["rounds_played"] == 3
    state = Interpreter(program).play("play", 2, 3)
    assert sum(1 for n, _, _ in notes_of(state) if n == "round") == 3
    assert all(s >= 13 for s in state.reports["score"].values())
    with pytest.raises(BadInputError, match=r"'5' is not an option of 'bonus' \(options: 0 \| 10\)"):
        load(path, {"bonus": "5"})


REQUIRE_SPEC = """
game gate "Gate"
param tokens: int = 4
param spaces: int = 6
def laid = 2 * (tokens - 1)
per seat { kept: int }

procedure fill(p: seat) {
  require room [MINI-01]: laid <= spaces
    else "{p} places {laid} tokens and the board has {spaces} spaces (tokens, spaces)"
  repeat laid { set kept(p) = kept(p) + 1 }
}

mode play "Play" players 2 {
  seats players
  for p in players { do fill(p) }
  report kept for p in players = kept(p)
}
"""


def test_a_requirement_of_a_procedure_stops_the_game_where_it_is_written(tmp_path):
    """``require NAME [IDs]: cond else "..."`` in a procedure: the game goes on when it
    holds; otherwise it stops at the require, with its message (values computed, in
    the scope of the procedure) and the requirement's name and IDs in the hint."""
    import pytest

    from rulewright.compiler.diagnostics import RuntimeRulesError
    path = tmp_path / "gate.rules"
    path.write_text(REQUIRE_SPEC)
    state = Interpreter(load(path)).play("play", 2, 1)
    assert state.reports["kept"] == {s: 6 for s in state.seats}
    program = load(path, {"tokens": "5"})
    interp = Interpreter(program)
    with pytest.raises(RuntimeRulesError) as info:
        interp.play("play", 2, 1)
    d = info.value.diagnostics[0]
    assert d.message == "Player 1 places 8 tokens and the board has 6 spaces (tokens, spaces)"
    assert (d.span.line, d.span.col) == (9, 3)
    assert "requirement 'room' (MINI-01)" in d.hint


def test_a_documented_statement_is_located_at_its_first_word(tmp_path):
    """A statement with a doc comment (and a '#' comment after it) spans from its first
    word: messages about it point at it, not at its comments."""
    from rulewright.compiler.syntax.build_ast import build
    from rulewright.compiler.syntax.parse import parse_text
    text = ('game g "G"\n'
            "procedure p {\n"
            "  /// The total.\n"
            "  # counted once\n"
            "\n"
            "  let total = 1\n"
            "  /// A step.\n"
            "  step s { let x = total }\n"
            "}\n")
    path = str(tmp_path / "game.rules")
    spec = build(parse_text(text, path), path)
    proc = next(d for d in spec.definitions if d.name == "p")
    let, step = proc.body
    assert (let.span.line, let.span.col, let.doc) == (6, 3, "The total.")
    assert (step.span.line, step.span.col) == (8, 3)


def test_a_pile_set_then_dealt_from_stays_a_pile(tmp_path):
    """`set` of a pile of the state, then `deal`, `take` and `move` from it: the pile set is
    a pile of its own (it was a bare list, and dealing from it was an internal error)."""
    path = tmp_path / "piles.rules"
    path.write_text("""
game piles "Piles"
enum colour { red, green, blue }
state {
  deck: pile of colour
  spare: pile of colour
}
per seat { hand: pile of colour }
mode standard "Standard" players 1..2 {
  seats players
  set deck = [red, green, blue, red]
  set spare = deck
  for p in players { deal 2 from deck to hand(p) }
  take red from spare
  report left = size(deck)
  report spare = size(spare)
  report held = sum(size(hand(p)) for p in players)
}
""")
    state = Interpreter(load(path)).play("standard", 2, 1)
    assert (state.reports["left"], state.reports["spare"], state.reports["held"]) == (0, 3, 4)


def test_evaluations_on_a_state_held_unchanged_share_what_definitions_remember(tmp_path):
    """``Interpreter.unchanged``: inside it, evaluations on the one state share what the
    definitions that read the state remember (so a change the caller promised not to make
    is not seen: the proof that they share); entering it starts afresh, so a state changed
    outside the procedures (a position read or edited) is never read through values
    remembered before; outside it each evaluation starts afresh."""
    path = tmp_path / "mini.rules"
    path.write_text(SPEC + "\ndef placed_power = sum(t.power for t in tokens)\n")
    interp = Interpreter(load(path))
    state = interp.play("play", 2, 5)
    tokens = state.shared["tokens"]
    whole, first = sum(t.f_power for t in tokens), tokens[0].f_power
    assert whole != first
    assert interp.call("placed_power", state=state) == whole
    state.shared["tokens"] = tokens[:1]
    assert interp.call("placed_power", state=state) == first          # afresh
    state.shared["tokens"] = tokens
    with interp.unchanged(state):
        assert interp.call("placed_power", state=state) == whole      # afresh on entry
        state.shared["tokens"] = tokens[:1]                            # (against the promise)
        assert interp.call("placed_power", state=state) == whole      # remembered
    with interp.unchanged(state):
        assert interp.call("placed_power", state=state) == first      # afresh on entry
    state.shared["tokens"] = tokens
    assert interp.call("placed_power", state=state) == whole
