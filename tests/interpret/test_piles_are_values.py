"""What a statement keeps of a pile is its cards as they are then: a later change of the
pile leaves a variable, a local, a report, a note, a procedure's parameter, a loop's or a
choice's variable and a record made from it as they were (``writes.unpiled``), with the
speed-ups on and off. And only the values that may hold a pile pay for it."""
import pytest

from rulewright.compiler import load
from rulewright.compiler.interpret import Interpreter, writes
from rulewright.compiler.semantics.runtime import Zone

from helpers import spec

KEPT = """
game g "G"
enum colour { red, blue }
record bag { cards: pile of colour   n: int }
state { hand: pile of colour = [red, blue, red, red]   held: list of colour   b: bag
        all: list of list of colour   looked: list of colour   chosen: list of colour
        plain: list of colour }
def reds(cs: list of colour) = size([c for c in cs if c == red])
procedure tidy(cs: list of colour) {
  take [red] from hand
  report in_procedure = reds(cs)
}
mode play "Play" players 1 {
  seats you: player "You"
  set held = hand
  set plain = held
  let before = hand
  let via = current
  report early = hand
  note told = hand
  set b = new bag(cards = hand, n = 1)
  set all = [hand, hand]
  for h in [hand] {
    take [red] from hand
    set looked = h
  }
  choose c in [hand] by you
  take [red] from hand
  set chosen = c
  do tidy(hand)
  report kept = [reds(held), reds(before), reds(early_cards), reds(b.cards), reds(first(all)), reds(looked), reds(chosen), reds(via)]
  report now = size(hand)
}
def early_cards = [red, blue, red, red]
def current = the_hand
def the_hand = hand
"""


@pytest.mark.parametrize("fast", [True, False])
def test_what_a_statement_kept_of_a_pile_does_not_change_with_the_pile(tmp_path, fast):
    program = load(spec(tmp_path, KEPT))
    result = Interpreter(program, fast=fast).play("play", 1, 0)
    got = result.reports
    assert got["early"] == ("red", "blue", "red", "red")
    # the hand's reds: 3, then 2 in the loop (its variable: the hand as the loop began), 1
    # after the choice (the choice: the hand as it was chosen), 0 in the procedure (its
    # parameter: the hand as it was called)
    assert got["kept"] == (3, 3, 3, 3, 3, 3, 2, 3)    # (via: read through two definitions)
    assert got["in_procedure"] == 1
    assert got["now"] == 1
    assert not any(isinstance(v, Zone) for v in got.values())


def test_unpiled_copies_piles_at_any_depth_and_gives_back_what_holds_none():
    hand = Zone("hand", ["red", "blue"])
    plain = (1, ("a", "b"), {"k": (2, 3)})
    assert writes.unpiled(plain) is plain
    assert writes.unpiled(hand) == ("red", "blue")
    nested = [1, (hand, {"k": hand})]
    got = writes.unpiled(nested)
    hand.cards.clear()
    assert got == [1, (("red", "blue"), {"k": ("red", "blue")})] and type(got) is list


def test_only_values_that_may_hold_a_pile_are_unpiled(tmp_path):
    """A value that reads no pile (itself or through what it calls) is stored as it is: no
    call for it in the code (a collection of records a game updates each turn)."""
    program = load(spec(tmp_path, KEPT))
    reads = writes.PileReads(program)
    assert reads.piles == {"hand"}
    assert reads._def_reads("reds") is False and reads._def_reads("early_cards") is False
    assert reads._def_reads("current") is True          # (through the_hand)
    interp = Interpreter(program)
    const = {v: k for k, v in interp.em.values.items() if isinstance(v, str)}
    stored = {name: next(line.strip() for line in interp.source.splitlines()
                         if line.strip().startswith(f"ST.shared[{const[name]}] = "))
              for name in ("held", "plain")}
    assert "_UP(" in stored["held"]                     # (set held = hand)
    assert "_UP(" not in stored["plain"]                # (set plain = held: a variable, no pile)
