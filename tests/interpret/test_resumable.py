"""A game in progress copied without playing it again (compiler/interpret/resumable.py):
its procedures resumed where they wait, over a copy of its state. Every copy is checked
against a copy made the old way (a new game rolled forward along the history)."""
import copy as _copy
import random

import pytest

from rulewright.compiler import load
from rulewright.compiler.diagnostics import RuntimeRulesError
from rulewright.compiler.interpret import Interpreter, RandomAgent
from rulewright.compiler.interpret.live import Live, agents_copied
from rulewright.compiler.interpret.resumable import fork
from rulewright.compiler.semantics import runtime as rt

from helpers import ROOT, spec

# a pile read through a local across choices (the local holds the pile itself); choices in a repeat, an if, a for, a while, a call
BRANCHY = """
game branchy "Branchy"
enum card { a, b, c, d }
per seat { hand: pile of card   kept: int }
state { deck: pile of card = [a, b, c, d, a, b, c, d, a, b]   turns: int }

procedure turn(p: seat, round: int) {
  let h = hand(p)
  repeat 2 {
    if size(hand(p)) > 0 {
      choose x in hand(p) by p
      move [x] from hand(p) to deck
      set kept(p) = kept(p) + round + size(h)
    } else {
      choose y in [1, 2, 3] by p
      set turns = turns + y
      if y == 3 { deal 1 from deck to hand(p) }
    }
  }
}

mode play "Play" players 2..3 {
  seats players
  shuffle deck
  for p in players { deal 2 from deck to hand(p) }
  let n = 0
  while n < 3 {
    for p in players { do turn(p, n + 1) }
    set n = n + 1
    checkpoint round_end
  }
  report kept for p in players = kept(p)
  report left = size(deck)
  report turns = turns
}
"""

# choices two loops deep in a procedure called from a loop; a local set across choices; a
# while that waits inside a procedure called from a while; a local made after the wait
NESTED = """
game nested "Nested"
enum card { a, b, c }
per seat { hand: pile of card   gain: int }
state { deck: pile of card = [a, b, c, a, b, c, a, b, c, a, b, c]   trail: list of int }

procedure inner(p: seat, k: int) {
  let total = 0
  for q in players {
    for i in 1..k {
      choose m in [0, i] by q
      set total = total + m
    }
  }
  set gain(p) = gain(p) + total
}

procedure pick(p: seat, depth: int) {
  let before = size(hand(p))
  choose k in [1, 2] by p
  do inner(p, k)
  let after = gain(p) + before
  if depth > 0 {
    let j = 0
    while j < depth {
      choose w in [j, j + 1] by p
      set j = j + 1
      set gain(p) = gain(p) + w
    }
  }
  set trail = trail + [after]
}

mode play "Play" players 2..3 {
  seats players
  shuffle deck
  let round = 0
  while round < 2 {
    set round = round + 1
    for p in players {
      deal 1 from deck to hand(p)
      do pick(p, round - 1)
      set trail = trail + [gain(p) * round]
    }
  }
  report gain for p in players = gain(p)
  report trail = trail
}
"""


def _trace(st):
    return repr(st.reports), [(e.kind, e.seat, repr(e.detail)) for e in st.log], repr(st.history), \
        repr(st.shared), repr(st.per), st.rng.getstate()


def _replayed(live):
    """A copy made the old way: a new game rolled forward along the history."""
    old = Live.__new__(Live)
    old.interp, old.mode = live.interp, live.mode
    st = live.state
    old._begin(st.seats, st.seed, _copy.deepcopy(st.agents), st.outside, list(st.history))
    return old


def _play_on(live, seed):
    rng = random.Random(seed)
    while not live.finished:
        live.apply(live.options[rng.randrange(len(live.options))])
    return live


def _check_copies(interp, mode, players, seed, every=4, most=6):
    live = Live(interp, mode, players, seed, outside=tuple(s.name for s in interp.seats_for(
        interp.program.modes[mode], players) if s.kind == "player"))
    rng = random.Random(seed)
    made = checked = 0
    while not live.finished and checked < most:
        if made % every == 0:
            before = _trace(live.state)
            copy, old = live.copy(), _replayed(live)
            assert copy.asked.name == old.asked.name and copy.seat == old.seat
            assert copy.options == old.options
            assert _trace(copy.state) == _trace(old.state) == before
            branch = copy.copy()                        # a copy of a copy
            assert _trace(_play_on(copy, made).state) == _trace(_play_on(old, made).state)
            assert _trace(live.state) == before          # the original untouched
            assert _trace(_play_on(branch, made).state) == _trace(copy.state)
            checked += 1
        live.apply(live.options[rng.randrange(len(live.options))])
        made += 1
    assert checked > 0


def test_a_pile_held_across_choices_in_loops_and_calls_is_the_copy_s_own(tmp_path):
    interp = Interpreter(load(spec(tmp_path, BRANCHY)))
    for seed in range(6):
        _check_copies(interp, "play", 2 + seed % 2, seed, every=1, most=40)
    assert interp.resumable() is not None


def test_choices_nested_in_loops_of_called_procedures_go_on_from_where_they_were(tmp_path):
    interp = Interpreter(load(spec(tmp_path, NESTED)))
    for seed in range(4):
        _check_copies(interp, "play", 2 + seed % 2, seed, every=1, most=60)
    assert interp.resumable() is not None


@pytest.mark.parametrize("path,players", [("spec/darwins_choice", 3), ("spec/ecosystem_savanna", 4),
                                          ("spec/ecosystem_savanna/variants/two_player.rules", 2),
                                          ("spec/ecosystem_savanna/variants/solo.rules", 1)])
def test_copies_of_the_shipped_games_go_on_as_copies_made_by_replaying(path, players):
    program = load(ROOT / path)
    interp = Interpreter(program)
    mode = next(m for m, info in program.modes.items() if info.min_players <= players <= info.max_players)
    _check_copies(interp, mode, players, 7, every=7, most=4)
    assert interp.resumable() is not None


# a choice whose filter has a definition written in (its code spans several lines) before
# other choices of the same procedure
WRITTEN = """
game written "Written"
enum card { a, b, c }
per seat { hand: pile of card   kept: pile of card }
state { deck: pile of card = [a, b, c, a, b, c, a, b, c, a, b, c, a, b, c] }
def fits(cards: pile of card, k: card) = any(x == k for x in cards)
procedure turn(p: seat) {
  choose k in hand(p) where fits(hand(p), k) by p
  move [k] from hand(p) to kept(p)
  choose j in [1, 2] by p
  if j == 2 { deal 1 from deck to hand(p) }
  choose m in hand(p) where fits(hand(p), m) by p
  move [m] from hand(p) to deck
}
mode play "Play" players 2 {
  seats players
  shuffle deck
  for p in players { deal 4 from deck to hand(p) }
  repeat 2 { for p in players { do turn(p) } }
  report kept for p in players = kept(p)
}
"""


def test_a_choice_after_one_whose_filter_spans_several_lines_is_resumed(tmp_path):
    interp = Interpreter(load(spec(tmp_path, WRITTEN)))
    options = interp.source.split("v_k = yield from")[1].split("lambda v_k:")[0]
    assert "f_fits(" not in options and "\n# at " in options         # (written in, its lines marked)
    for seed in range(3):
        _check_copies(interp, "play", 2, seed, every=1, most=20)
        live = Live(interp, "play", 2, seed, outside=("p1", "p2"))
        while not live.finished:          # every choice is one a copy resumes from
            assert interp.resumable().waiting(live._gen) is not None, live.asked.name
            live.apply(live.options[0])


def test_every_shipped_spec_and_house_rule_can_be_resumed():
    """No spec falls back to replaying: every local of every procedure is one its resuming
    functions take."""
    paths = [ROOT / "spec/darwins_choice", ROOT / "spec/ecosystem_savanna"] + \
        sorted((ROOT / "spec").glob("*/variants/*.rules")) + sorted((ROOT / "spec").glob("house_rules/*.rules"))
    for path in paths:
        interp = Interpreter(load(path))
        assert interp.resumable() is not None, path


def test_the_baseline_copies_by_replaying(tmp_path):
    interp = Interpreter(load(spec(tmp_path, BRANCHY)), fast=False)
    assert interp.resumable() is None
    live = Live(interp, "play", 2, 1)
    copy = live.copy()
    assert _trace(copy.state) == _trace(live.state)
    assert _trace(_play_on(copy, 3).state) == _trace(_play_on(live, 3).state)


def test_an_error_after_a_copy_points_at_its_rule(tmp_path):
    text = BRANCHY.replace("set turns = turns + y", "set turns = turns + y + max([t for t in [1] if t > y])")
    interp = Interpreter(load(spec(tmp_path, text)))
    live = Live(interp, "play", 2, 0, outside=("p1", "p2"))
    while "y" != live.asked.name:
        live.apply(live.options[0])
    copy = live.copy()
    with pytest.raises(RuntimeRulesError) as err:
        copy.apply(copy.options[0])
    assert err.value.diagnostics[0].span.line == text.splitlines().index(
        next(ln for ln in text.splitlines() if "max([t" in ln)) + 1


def test_fork_copies_what_changes_and_shares_what_does_not():
    zone = rt.Zone("hand", ["a", "b"])
    board = rt.Board("g", 2, 2, False, {(0, 0): "a"})
    it = iter((zone, "x", "y"))
    next(it)
    memo = {}
    got = fork({"z": zone, "l": [zone, board], "t": ("a", 1), "it": it, "s": {1, 2}}, memo)
    assert got["z"] is not zone and got["z"] == zone and got["l"][0] is got["z"]
    assert type(got["z"]) is rt.Zone and vars(got["z"]) == vars(zone)  # (every field: made without __init__)
    assert got["l"][1] is board and got["t"] == ("a", 1)
    assert list(got["it"]) == ["x", "y"] and next(it) == "x"        # goes on from where it was
    got["z"].cards.append("c")
    assert zone.cards == ["a", "b"]
    assert fork(zone, memo) is got["z"]                              # once per object


def test_fork_copies_a_pile_a_dict_holds_twice_once():
    """A dict of piles (a seat's piles) has its piles copied in its own loop: one held
    under two keys, or met before elsewhere, is still copied once."""
    deck, hand = rt.Zone("deck", ["a"]), rt.Zone("hand", ["b", "c"])
    memo = {}
    got = fork({"first": deck, "again": deck, "hand": hand}, memo)
    assert got["first"] is got["again"] and got["first"] is not deck and got["hand"] is not hand
    assert vars(got["hand"]) == vars(hand) and type(got["hand"]) is rt.Zone
    assert fork({"h": hand}, memo)["h"] is got["hand"]
    got["hand"].cards.pop()
    assert hand.cards == ["b", "c"]


class _Counter:
    """An agent copied by ``copy.deepcopy``'s own way (no ``__deepcopy__``)."""

    def __init__(self):
        self.seen = [1]


def test_agents_are_copied_once_each_and_draw_as_the_originals_would():
    shared, own, plain = RandomAgent(7), RandomAgent(8), _Counter()
    agents = {0: shared, 1: own, 2: shared, 3: plain}
    got = agents_copied(agents)
    assert got[0] is got[2] and got[0] is not shared and got[1] is not own
    assert got[3] is not plain and got[3].seen == [1] and got[3].seen is not plain.seen
    options = list(range(100))
    drawn = [got[0].choose("x", options, None, None) for _ in range(5)]
    assert drawn == [shared.choose("x", options, None, None) for _ in range(5)]
    assert got[1].choose("x", options, None, None) == own.choose("x", options, None, None)


def test_fork_copies_containers_of_values_alone_and_looks_into_the_others():
    """Containers holding values only are copied as they are (a tuple shared); one holding
    a pile, list, dict, set or iterator, however deep, has that copied too."""
    points, names = [1, 2], ("a", "b")
    inner = [3]
    state = {"points": points, "names": names, "nested": ("x", inner), "twice": [inner, inner],
             "plain": {"k": 1}, "deep": {"k": {"j": [4]}}}
    memo = {}
    got = fork(state, memo)
    assert got == state
    assert got["points"] is not points and got["names"] is names and got["plain"] is not state["plain"]
    assert got["nested"][1] is not inner and got["twice"][0] is got["twice"][1] is got["nested"][1]
    got["points"].append(9)
    got["nested"][1].append(9)
    got["plain"]["k"] = 2
    got["deep"]["k"]["j"].append(9)
    assert state == {"points": [1, 2], "names": ("a", "b"), "nested": ("x", [3]), "twice": [[3], [3]],
                     "plain": {"k": 1}, "deep": {"k": {"j": [4]}}}
    assert fork(points, memo) is got["points"] and fork(state["plain"], memo) is got["plain"]


class _Brancher:
    """A random agent that, at each of its choices, branches the game twice: resumed where
    its rules run (``Live.branched``) and rolled forward along its history; both are
    played on with the same choices and must end the same."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.checked = 0

    def choose(self, name, options, state, seat):
        if self.rng.random() < 0.3:
            outside = frozenset(s.index for s in state.seats if s.kind == "player")
            live = Live.branched(state, options, outside)
            assert live is not None
            old = Live.__new__(Live)
            old.interp, old.mode = live.interp, live.mode
            old._begin(state.seats, state.seed, {}, outside, list(state.history), ready=list(options))
            assert live.asked.name == old.asked.name == name and live.seat == old.seat == seat.name
            assert live.options == old.options and all(a is b for a, b in zip(live.options, options))
            assert _trace(live.state) == _trace(old.state)
            assert _trace(_play_on(live, 1).state) == _trace(_play_on(old, 1).state)
            state.interp.use(state)         # (the branches were the interpreter's)
            self.checked += 1
        return options[self.rng.randrange(len(options))]


class _Plain(_Brancher):
    """The same choices, and no branch."""

    def choose(self, name, options, state, seat):
        self.rng.random()
        return options[self.rng.randrange(len(options))]


@pytest.mark.parametrize("path,players", [("spec/darwins_choice", 3), ("spec/ecosystem_savanna", 3), (None, 2)])
def test_a_game_branched_where_its_rules_run_is_the_one_rolled_forward(path, players, tmp_path):
    program = load(ROOT / path if path else spec(tmp_path, BRANCHY))
    interp = Interpreter(program)
    mode = next(m for m, info in program.modes.items() if info.min_players <= players <= info.max_players)
    agents = {}

    def seats(kind):
        def factory(seat, seed):
            agents[seat.index] = kind(seed * 31) if seat.index == 0 else RandomAgent(seed + seat.index)
            return agents[seat.index]
        return factory
    played = interp.play(mode, players, 4, agent_factory=seats(_Brancher))
    assert agents[0].checked > 0
    # the game itself goes on as if nothing had branched from it
    assert _trace(played) == _trace(interp.play(mode, players, 4, agent_factory=seats(_Plain)))
