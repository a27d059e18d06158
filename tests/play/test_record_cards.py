"""Cards that are records (``pile of tile``, a tile a record): one card moved, taken, put or
revealed is that card, not its fields; a pile ``showing`` a field of them shows and keeps
each card's back, to a seat's view and when what it does not see is dealt again."""
from __future__ import annotations

import random

import pytest
from helpers import spec

from rulewright.api import load
from rulewright.compiler.interpret import RandomAgent
from rulewright.compiler.interpret.interpreter import Interpreter
from rulewright.compiler.play import views
from rulewright.compiler.play.bots import GreedyAgent

TILES = """
game rec "Records"
enum colour { red, blue }
record tile { colour: colour, size: int }
def box = [new tile(colour = c, size = n) for c in colour for n in 1..3 for i in 1..2]
state {
  deck: pile of tile = box seen by nobody showing colour
  discard: pile of tile seen by nobody, remembered
}
per seat {
  hand: pile of tile seen by owner showing colour, remembered
  points: int
}
estimate standing(p: seat) = points(p)
procedure play_it {
  shuffle deck
  for s in seats { deal 3 from deck to hand(s) }
  repeat 2 {
    for s in seats {
      choose x in hand(s) by s
      move x from hand(s) to discard
      set points(s) = points(s) + x.size
      choose t in hand(s) by s
      reveal t from hand(s)
    }
    pass hand to left
  }
  take first(discard) from discard
  move [new tile(colour = red, size = 9)] to discard
}
mode m "M" players 3 {
  seats players
  do play_it()
  report score for p in players = points(p)
}
"""


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return load(spec(tmp_path_factory.mktemp("tiles"), TILES))


def test_a_game_of_record_cards_plays_the_same_in_both_interpreters(game):
    program = game.interpreter.program
    for seed in range(6):
        played = [Interpreter(program, fast=fast).play("m", 3, seed) for fast in (True, False)]
        assert repr(played[0].reports) == repr(played[1].reports) and len(played[0].log) == len(played[1].log)
        st = played[0]
        assert all(type(c).__name__ != "str" for c in st.shared["discard"].cards)    # (cards, not fields)
        assert len(st.shared["discard"].cards) == 3 * 2 - 1 + 1
        moved = [e.detail["cards"] for e in st.log if e.kind == "move"]
        assert moved and all(len(cards) == 1 for cards in moved)


def test_a_seat_sees_the_backs_of_record_cards_and_a_deal_keeps_them(game):
    table = game.start(3, seed=0)
    state = table._live.state
    other = state.seats[1]
    colours = sorted(c.f_colour for c in state.per["hand"][other].cards)
    shown = views.view(state, "p1")["per_seat"]["hand"]["p2"]
    assert shown["showing"] == "colour" and sorted(shown["backs"]) == sorted(set(colours))
    assert sum(shown["backs"].values()) == 3
    for k in range(40):
        dealt = views.determinize(state, "p1", random.Random(k))
        assert sorted(c.f_colour for c in dealt.per["hand"][dealt.seats[1]].cards) == colours


def test_a_greedy_seat_plays_record_cards(game):
    def seats(seat, seed):
        return GreedyAgent(seed) if seat.index == 0 else RandomAgent(seed * 7 + seat.index)
    st = game.interpreter.play("m", 3, 2, agent_factory=seats)
    assert st.agents[0].choices > 0 and st.agents[0].blind == 0
