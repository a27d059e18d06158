"""``count(x in C if x == v)``, v a name or a constant, counted in C (``runtime.count_equal``)
and a grid's cards in reading order made once per grid (``runtime.contents``): the values
those of the interpreter without them, the steps counted as the loop counted them, and a
runaway still stopped at its place; and a collection asked again by ``within`` counted once."""
import pytest

from rulewright.compiler import load
from rulewright.compiler.diagnostics import RuntimeRulesError
from rulewright.compiler.interpret import Interpreter
from rulewright.compiler.interpret.codegen import fname
from rulewright.compiler.semantics import runtime as rt

from helpers import same_as_baseline, spec

COUNTS = """
game g "G"
enum colour { red, blue, green }
record tile { colour: colour, size: int }
grid board: 2 by 3 of colour
def of(cards: list of colour, c: colour) = count(x in cards if x == c)
def of_turned(cards: list of colour, c: colour) = count(x in cards if c == x)
def reds(cards: list of colour) = count(x in cards if x == red)
def in_set(cards: set of colour, c: colour) = count(x in cards if x == c)
def tiles(ts: list of tile, t: tile) = count(x in ts if x == t)
def numbers(ns: list of int, n: int) = count(x in ns if x == n)
def on_grid(g: board, c: colour) = count(x in contents(g) if x == c)
def each(cards: list of colour) = sum(count(x in cards if x == c) for c in cards)
def not_a_name(cards: list of colour) = count(x in cards if x == first(cards))
record hold { g: board, n: int }
def held_cards(h: hold) = contents(h.g)
def held_cells(h: hold) = placements(h.g)
def spin(n: int, c: colour) = count(x in [red, blue, green, red, blue, green, red, blue] if x == c)
  + sum(count(x in [y for y in 1..n] if x == i) for i in 1..n)
"""

HANDS = [(), ("red",), ("red", "blue"), ("red", "red", "green"), ("blue", "green", "red", "red")]


@pytest.fixture(scope="module")
def both(tmp_path_factory):
    program = load(spec(tmp_path_factory.mktemp("counts"), COUNTS))
    return Interpreter(program), Interpreter(program, fast=False)


def test_counts_are_those_of_the_loop(both):
    fast, plain = both
    for hand in HANDS:
        for c in ("red", "blue", "green"):
            for name in ("of", "of_turned", "in_set"):
                same_as_baseline(fast, plain, name, tuple(dict.fromkeys(hand)) if name == "in_set" else hand, c)
        same_as_baseline(fast, plain, "reds", hand)
        same_as_baseline(fast, plain, "not_a_name", hand)       # (no first card to read: 0 cards)
        same_as_baseline(fast, plain, "each", hand)
    tile = fast.record("tile", colour="red", size=2)
    others = (tile, fast.record("tile", colour="red", size=3), fast.record("tile", colour="red", size=2))
    assert fast.call("tiles", others, tile) == plain.call("tiles", others, tile) == 2
    assert fast.call("numbers", (1, 2, 1, 3, 1), 1) == plain.call("numbers", (1, 2, 1, 3, 1), 1) == 3
    assert fast.call("numbers", (True, 1, 0), 1) == plain.call("numbers", (True, 1, 0), 1)


def test_only_a_name_or_a_constant_is_counted_so(both):
    fast, _ = both
    for name in ("of", "of_turned", "reds", "in_set", "tiles", "numbers", "on_grid", "each"):
        assert "_rt.count_equal(" in fast._func_src[fname(name)], name
    assert "_rt.count_equal(" not in fast._func_src[fname("not_a_name")]


def test_a_pile_is_counted_as_its_cards():
    pile = rt.Zone("deck", ["red", "blue", "red"])
    assert rt.count_equal(pile, "red") == 2 and rt.count_equal(pile, "green") == 0
    assert rt.count_equal(iter(["red", "red"]), "red") == 2       # (any other collection: one by one)
    made = [tuple([1, 2]), tuple([1, 2]), tuple([2, 1])]           # (equal, not the same objects)
    assert rt.count_equal(iter(made), tuple([1, 2])) == 2 and rt.count_equal(tuple(made), tuple([2, 1])) == 1


def test_the_steps_are_counted_as_the_loop_counted_them(both):
    fast, plain = (Interpreter(both[0].program), Interpreter(both[0].program, fast=False))   # (nothing remembered)
    left = []
    for interp in (fast, plain):
        with rt.bounded("the test", 1_000):
            interp.ns[fname("of")](("red",) * 40, "red")
            interp.ns[fname("on_grid")](interp.board([["red", "blue", "red"], ["green", None, "red"]]), "red")
            left.append(rt._BUDGET.left)
    assert left[0] == left[1] == 1_000 - 41 - 6
    said = []
    for interp in (fast, plain):
        with pytest.raises(RuntimeRulesError) as caught:
            with rt.bounded("the count", 30):
                interp.ns[fname("of")](("blue",) * 40, "red")
        said.append(str(caught.value))
    assert said[0] == said[1] and "the count did not finish within 30 steps" in said[0] and ":6:" in said[0]


def test_a_runaway_count_is_stopped_at_its_place(both):
    said = []
    for interp in both:
        with pytest.raises(RuntimeRulesError) as caught:
            interp.call("spin", 6_000, "red")
        said.append(str(caught.value))
    assert said[0] == said[1] and "did not finish within 20,000,000 steps" in said[0]
    assert ":19:" in said[0]


def test_a_grids_cards_are_made_once_and_are_its_own(both):
    fast, plain = both
    g = fast.board([["red", "blue", None], [None, "green", "red"]])
    first = rt.contents(g)
    assert first == ("red", "blue", "green", "red") and rt.contents(g) is first
    h = rt.placed(g, "blue", (0, 2))
    assert rt.contents(h) == ("red", "blue", "blue", "green", "red") and rt.contents(g) == first
    for c in ("red", "blue", "green"):
        same_as_baseline(fast, plain, "on_grid", h, c)


def test_the_cards_and_cells_of_no_grid_are_the_same_error_in_both(both):
    """(none: the rules' error at its rule, its words the baseline's, no internal name)"""
    fast, plain = both
    for name in ("held_cards", "held_cells"):
        said = []
        for interp in both:
            with pytest.raises(RuntimeRulesError) as caught:
                interp.call(name, interp.record("hold", g=None, n=1))
            said.append(str(caught.value))
        assert said[0] == said[1] and "a value that is none was used" in said[0], said
        assert "_contents" not in said[0] and "_free" not in said[0]


def test_a_collection_asked_again_by_within_is_counted_once_and_only_for_itself(monkeypatch):
    import collections

    box = ("lion", "lion", "zebra")
    made = []
    real = collections.Counter

    class Counting(real):
        def __init__(self, items=()):
            made.append(items)
            super().__init__(items)
    monkeypatch.setattr(rt.collections, "Counter", Counting)
    assert rt.within(("lion", "lion"), box) and not rt.within(("zebra", "zebra"), box)
    assert sum(m is box for m in made) <= 1
    other = ("zebra", "zebra")
    assert rt.within(("zebra", "zebra"), other) and not rt.within(("lion",), other)
    assert rt.within(["lion"], ["lion"]) and not rt.within(["lion"], ["zebra"])   # (not a tuple: counted each time)
    assert rt.within(("lion", "lion"), box)
    long = tuple(range(rt.MOST_COUNTED + 1))
    assert rt.within((5,), long) and rt._COUNTED[0] is not long     # (a long one is not held after)
