"""Constructs an author writing a new game from the docs asked for: swap, tuple types
as parameters and state, relations computed from a collection of steps, tuple
indexing. Each is run by the interpreter and, where a query can read it, by the solver
(the answer replayed)."""
from __future__ import annotations

import pytest

from rulewright.compiler import load
from rulewright.compiler.diagnostics import RulesError
from rulewright.compiler.interpret import interpreter_for
from rulewright.solver.queries import run_query
from helpers import spec

SWAP = '''game g "G"
enum card { a, b, c }
state { top: card = a  other: card = c  n: int = 0 }
per seat { hand: pile of card }
procedure deal_out(p: seat, q: seat) {
  set hand(p) = [a, a]
  set hand(q) = [b]
  swap hand(p), hand(q)
  swap top, other
  let x = 1
  let y = 2
  swap x, y
  set n = 10 * x + y
}
mode standard players 2 { seats players do deal_out(first(players), next_seat(first(players), left)) }
'''


def test_swap_exchanges_locals_shared_and_per_seat_state(tmp_path):
    it = interpreter_for(load(spec(tmp_path, SWAP)))
    st = it.play("standard", 2, 0)
    p1, p2 = st.seats
    assert st.per["hand"][p1].cards == ["b"] and st.per["hand"][p2].cards == ["a", "a"]
    assert (st.shared["top"], st.shared["other"]) == ("c", "a")
    assert st.shared["n"] == 21


@pytest.mark.parametrize("body, message", [
    ("swap top, n", "swap exchanges two values of one type: top is card, n is int"),
    ("swap top, nothing", "unknown name 'nothing'"),
])
def test_a_bad_swap_is_located(tmp_path, body, message):
    path = spec(tmp_path, f'game g "G"\nenum card {{ a }}\nstate {{ top: card = a  n: int = 0 }}\n'
                          f'procedure p1 {{ {body} }}\nmode standard players 1 {{ seats players do p1() }}\n')
    with pytest.raises(RulesError) as info:
        load(path)
    assert message in info.value.render()


def test_swap_is_a_keyword_only_where_a_statement_begins(tmp_path):
    """A spec that names a value 'swap' (Darwin's Choice's examples do) still loads."""
    prog = load(spec(tmp_path, 'game g "G"\ndef f(x: int) = x\ndef g2 = f(3)\n'
                               'procedure pr { let swap = 2 let y = swap + 1 }\n'))
    assert "pr" in prog.procedures


TUPLES = '''game g "G"
enum card { a, b }
grid board: 2 by 3 of card
state { last: (card, int) }
/// A move: a card and the cell it goes to.
def lands(m: (card, cell)) = m[1]
def value(m: (card, cell)) = if m[0] == a then 2 + row(lands(m)) else 1
def moves(g: board) = [(k, c) for k in card for c in cells(g) if free(g, c)]
query q "Q" {
  input g: board
  choose m in moves(g)
  maximize value(m)
}
procedure remember { set last = (b, 7) }
mode standard players 1 { seats players do remember() }
'''


def test_tuple_types_as_parameters_and_state(tmp_path):
    program = load(spec(tmp_path, TUPLES))
    it = interpreter_for(program)
    assert it.call("value", ("a", (1, 2))) == 3 and it.call("value", ("b", (1, 2))) == 1
    g = it.board([["a", None, None], [None, None, "b"]])
    every = [it.call("value", m) for m in it.call("moves", g)]
    answer = run_query(program, "q", {"g": g}, time_limit=30)
    assert answer.status == "OPTIMAL" and answer.replayed and answer.objective == max(every) == 3
    assert it.play("standard", 1, 0).shared["last"] == ("b", 7)


def test_a_tuple_parameter_of_the_wrong_shape_is_refused(tmp_path):
    path = spec(tmp_path, 'game g "G"\nenum card { a }\ndef f(m: (card, int)) = m[1]\ndef g2 = f((a, a))\n')
    with pytest.raises(RulesError) as info:
        load(path)
    assert "argument 'm' of 'f' is (card, int), not (card, card)" in info.value.render()


RELATIONS = '''game g "G"
enum card { a, b }
grid board: 4 by 5 of card
/// Every cell within two steps, counted along rows and columns: 12 around a cell.
relation sight = offsets([(r, c) for r in -2..2 for c in -2..2 if abs(r) + abs(c) >= 1 and abs(r) + abs(c) <= 2])
relation mixed = offsets((0, 1), [(1, 0), (2, 0)]) + rays([(1, 1)])
def seen(g: board, x: cell) = count(y in sight(x) if g[y] == b)
query q "Q" {
  choose g: board where full(g)
  maximize sum(1 for x in cells(g) if g[x] == a and seen(g, x) >= 3)
}
'''


def test_a_relation_computed_from_a_collection_of_steps(tmp_path):
    program = load(spec(tmp_path, RELATIONS))
    it = interpreter_for(program)
    sight = program.funcs["sight"].body.value
    assert len(sight.offsets) == 12 and (0, 0) not in sight.offsets and (2, 0) in sight.offsets
    assert (1, 1) in sight.offsets and (2, 1) not in sight.offsets
    mixed = program.funcs["mixed"].body.value
    assert mixed.offsets == ((0, 1), (1, 0), (2, 0)) and mixed.rays == ((1, 1),)
    # from (1, 2) of a 4 x 5 grid: 4 cells at distance 1; at distance 2, (3, 2), (1, 0),
    # (1, 4), (0, 1), (0, 3), (2, 1), (2, 3) (row -1 is outside): 11 in all
    g = it.board([["b"] * 5 for _ in range(4)])
    inside = {(r, c) for r in range(4) for c in range(5) if 1 <= abs(r - 1) + abs(c - 2) <= 2}
    assert it.call("seen", g, (1, 2)) == len(inside) == 11
    answer = run_query(program, "q", {}, time_limit=60)
    assert answer.status in ("OPTIMAL", "FEASIBLE") and answer.replayed


def test_a_relation_from_steps_that_are_not_steps_is_refused(tmp_path):
    path = spec(tmp_path, 'game g "G"\nenum card { a }\ngrid board: 2 by 2 of card\n'
                          'relation r = offsets([1, 2])\n')
    with pytest.raises(RulesError) as info:
        load(path)
    assert "a collection of steps" in info.value.render()


SHARED = '''game g "G"
enum card { a, b, c }
grid board: 3 by 4 of card
relation adjacent = offsets((-1, 0), (1, 0), (0, -1), (0, 1))
def squares(g: board, k: card) = sum(size(h) * size(h) for h in groups({x in cells(g) if g[x] == k}, adjacent))
scoring once(g: board) {
  step all = sum(squares(g, k) for k in card)
}
scoring twice(g: board) {
  step all = sum(squares(g, k) for k in card)
  step again = sum(2 * squares(g, k) for k in card)
}
query q_once "Once" { choose g: board where full(g)  maximize once(g) }
query q_twice "Twice" { choose g: board where full(g)  maximize twice(g) }
'''


def test_a_definition_called_again_with_the_same_arguments_is_encoded_once(tmp_path):
    """The second step calls the same definitions on the same chosen grid: the model
    grows by the few variables of the new sum only, not by a second copy of the groups.
    The answers are replayed by the interpreter and equal (the second total is 3 times
    the first: 432 = 3 x 144 on a grid of one type)."""
    program = load(spec(tmp_path, SHARED))
    once = run_query(program, "q_once", {}, time_limit=60)
    twice = run_query(program, "q_twice", {}, time_limit=60)
    assert once.status == twice.status == "OPTIMAL" and once.replayed and twice.replayed
    assert (once.objective, twice.objective) == (144, 432)
    assert twice.stats["variables"] < 1.1 * once.stats["variables"]
