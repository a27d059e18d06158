"""Values that hold a set or a pile: '==' and 'in' compare a set held inside a list or
a tuple by its members, and a pile at the top whatever its order (a pile held inside, in
order); a record keeps its sets in one order of its own. What would count or key such
values as they are (a set of them, within, '-', allocate...) is an error where it is
written, not an answer that disagrees with '=='. The solver's side of the same values is
in tests/semantics/test_agreement.py."""
from __future__ import annotations

import pytest

from rulewright.compiler import load
from rulewright.compiler.diagnostics import ResolveError
from rulewright.compiler.interpret import Interpreter
from helpers import spec

HEAD = '''game m "M"
enum colour { red, green, blue }
record flock { colours: set of colour, size: int }
record herd { colours: pile of colour }
'''


@pytest.mark.parametrize("expr, want", [
    ("[{red, green}] == [{green, red}]", True),
    ("[{red, green}] == [{green, blue}]", False),
    ("({red, green}, 1) == ({green, red}, 1)", True),
    ("({red, green}, 1) != ({green, red}, 2)", True),
    ("[[red, green]] == [[green, red]]", False),             # a list in a list: in order
    ("{red, green} in [{blue}, {green, red}]", True),
    ("[red, green] in [[green, red]]", False),               # lists: in order
    ("new flock(colours = {red, green}, size = 1) == new flock(colours = {green, red}, size = 1)", True),
    ("first((new flock(colours = {green, red}, size = 1)).colours) == "
     "first((new flock(colours = {red, green}, size = 1)).colours)", True),
    ("new herd(colours = [red, green]) == new herd(colours = [green, red])", False),
    ("(new herd(colours = [red, green])).colours == (new herd(colours = [green, red])).colours", True),
    ("size({new flock(colours = {red, green}, size = 1), new flock(colours = {green, red}, size = 1)}) == 1",
     True),
])
def test_equal_as_held(tmp_path, expr, want):
    program = load(spec(tmp_path, HEAD + f"def x = {expr}\ndef y(n: int) = if n > 0 then {expr} else false\n"))
    interp = Interpreter(program)
    assert program.constants.get("x", interp.call("x")) is want        # folded while compiling
    assert interp.call("y", 1) is want                                   # and computed in play


@pytest.mark.parametrize("expr, what", [
    ("size({s for s in [{red}, {green, red}]})", "a set"),
    ("distinct(s for s in [{red}, {red}])", "distinct()"),
    ("within([{red}], [{red}, {green}])", "within()"),
    ("size([{red}] - [{red}])", "'-' on collections"),
    ("size({{red}, {green}})", "a set"),
    ("size(subsets([{red}, {green}]))", "subsets()"),
    ("allocate(1 for s in [{red}] by 1 from 2)[{red}]", "allocate()"),
    ("{{red, green}: 1, else: 0}[{green, red}]", "a table of values"),
    ("size(sort([{red}, {green}]))", "sort()"),
])
def test_counting_or_keying_values_that_hold_a_set_is_refused_where_written(tmp_path, expr, what):
    text = HEAD + f"def x(n: int) =\n  n + {expr}\n"
    with pytest.raises(ResolveError) as info:
        load(spec(tmp_path, text))
    d = next(d for d in info.value.diagnostics if "cannot tell apart" in d.message)
    assert d.message.startswith(what) and d.span.line == 6 and d.hint
    assert "'==' or 'in'" in d.hint


def test_records_holding_sets_can_be_counted_and_keyed(tmp_path):
    program = load(spec(tmp_path, HEAD + '''def fs(n: int) = [new flock(colours = {red, green}, size = n), new flock(colours = {green, red}, size = n)]
def x(n: int) = size({f for f in fs(n)}) * 10 + distinct(f for f in fs(n)) + size(fs(n) - [first(fs(n))])
'''))
    assert Interpreter(program).call("x", 1) == 12


def test_a_pile_is_in_a_list_of_piles_whatever_its_order(tmp_path):
    program = load(spec(tmp_path, HEAD + '''def has(p: pile of colour, ps: list of pile of colour) = p in ps
def lacks(p: pile of colour, ps: list of pile of colour) = p not in ps
'''))
    interp = Interpreter(program)
    assert interp.call("has", ("red", "green", "red"), (("blue",), ("red", "red", "green")))
    assert not interp.call("has", ("red", "green"), (("red", "green", "green"),))
    assert interp.call("lacks", ("red", "green"), (("green", "green"),))


@pytest.mark.parametrize("expr, want", [
    ("s == none", False), ("s != none", True), ("p == none", False), ("[s] != none", True),
    ("{red} != none", True),
])
def test_a_set_or_a_pile_is_never_none(tmp_path, expr, want):
    program = load(spec(tmp_path, HEAD + f"def x(s: set of colour, p: pile of colour) = {expr}\n"))
    assert Interpreter(program).call("x", ("red",), ("red", "red")) is want


def test_a_set_a_record_holds_has_each_member_once_and_numbers_in_their_order(tmp_path):
    program = load(spec(tmp_path, HEAD + '''record bag { groups: list of set of colour }
record totals { s: set of int }
scoring sc(n: int) { step a = n }
def repeats(n: int) = new flock(colours = [red, red, green], size = n) == new flock(colours = {green, red}, size = 1)
def held(n: int) = new bag(groups = [{red, green}, {blue}]) == new bag(groups = [{green, red}, {blue}]) and n > 0
def scored(n: int) = new totals(s = {sc(n), 5}) == new totals(s = {3, 5}) and {sc(n), 5} == {5, 3}
'''))
    interp = Interpreter(program)
    assert interp.call("repeats", 1) and not interp.call("repeats", 2)
    assert interp.call("held", 1)
    assert interp.call("scored", 3) and not interp.call("scored", 4)


def test_a_record_given_a_pile_of_the_state_keeps_its_cards_as_they_were(tmp_path):
    program = load(spec(tmp_path, HEAD + '''record hold { cards: pile of colour, n: int }
state { hand: pile of colour = [red, blue] }
def q = new hold(cards = hand, n = 1) == new hold(cards = [red, blue], n = 1)
def kept = size({new hold(cards = hand, n = 1), new hold(cards = [red, blue], n = 1)})
def changed = (new hold(cards = [green], n = 1)) with (cards = hand) == new hold(cards = [red, blue], n = 1)
mode play "Play" players 1 {
  seats you: player "You"
}
'''))
    for fast in (True, False):
        interp = Interpreter(program, fast=fast)
        state = interp.new_state(interp.seats_for(program.modes["play"], 1), seed=0)
        assert [interp.call(d, state=state) for d in ("q", "kept", "changed")] == [True, 1, True]


def test_a_record_is_copied_as_a_value(tmp_path):
    import copy
    program = load(spec(tmp_path, HEAD))
    flock = program.records["flock"].cls(("red", "green"), 2)
    assert copy.copy(flock) == flock == copy.deepcopy(flock) and copy.deepcopy(flock).f_colours == ("green", "red")
