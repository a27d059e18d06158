"""Constraints a value needs only where it is computed.

The encoder encodes both branches of an ``if``, every operand of an ``and``, every
path of a query split and every element of an aggregate, while the interpreter
only computes what it reaches. A constraint a value needs (a table's key within
the table, a choice inside a scoring made, a ``where`` or ``sized`` choice on a
path) must hold only where that value is reached; a bound or a cap must hold
wherever it is added. Each spec below once gave a wrong optimum (or a crash); the
witness of that optimum replayed to its own value, so only a comparison with every
option through the interpreter shows it. Every query is answered with and without
a game state (with one, definitions are memoised and known parts computed by the
interpreter).
"""
import itertools

import pytest

from rulewright.compiler import load
from rulewright.compiler.semantics import runtime as rt
from rulewright.compiler.diagnostics import RulesError
from rulewright.compiler.interpret import Interpreter
from rulewright.solver.queries import interpret_query, run_query

HERD = "def zoo = [1, 2, 3]\n"
PICK = """
scoring pick(xs: list of int) {
  step s {
    choose p in xs
    points p
  }
}
"""
BOARD = "enum card { a, b }\ngrid board: 1 by 3 of card\n"


def subsets(xs):
    return [c for n in range(len(xs) + 1) for c in itertools.combinations(xs, n)]


def boards(interp):
    return [interp.board([list(row)]) for row in itertools.product("ab", repeat=3)]


# name, spec (after the game line), query, inputs, the domains of its choices
CASES = [
    ("a table's range only where the lookup is reached (if)",
     "def table = {1: 1, 2: 2, 3: 3}\n" + HERD + """
query best "q" {
  choose herd subset of zoo
  maximize (if size(herd) > 0 then table[size(herd)] else 0) - 2 * size(herd)
}""", "best", {}, lambda it: {"herd": subsets((1, 2, 3))}),
    ("a table's range only where the lookup is reached (and)",
     "def table = {1: 1, 2: 2, 3: 3}\n" + HERD + """
query best "q" {
  choose herd subset of zoo
  maximize sum(1 for x in [1] if size(herd) > 0 and table[size(herd)] > 2) + 3 - size(herd)
}""", "best", {}, lambda it: {"herd": subsets((1, 2, 3))}),
    ("a table's range only on its path",
     "def table = {1: 1, 2: 2, 3: 3}\n" + HERD + """
query best "q" {
  choose herd subset of zoo
  choose mode in [1, 2]
  if mode == 1 {
    maximize table[size(herd)]
  } else {
    maximize 5 - size(herd)
  }
}""", "best", {}, lambda it: {"herd": subsets((1, 2, 3)), "mode": (1, 2)}),
    ("a table with a hole",
     "def table = {0: 4, 1: 1, 3: 9}\n" + HERD + """
query best "q" {
  choose herd subset of zoo
  maximize (if size(herd) != 2 then table[size(herd)] else 0) + size(herd)
}""", "best", {}, lambda it: {"herd": subsets((1, 2, 3))}),
    ("a negative table's bound under its guard",
     "def table = {0: 0, 1: -1, 2: -2, 3: -3}\n" + HERD + """
query best "q" {
  choose herd subset of zoo
  maximize sum(table[size(herd)] for x in herd) + 3 * size(herd)
}""", "best", {}, lambda it: {"herd": subsets((1, 2, 3))}),
    ("a grid's value caps only from a require on every path",
     BOARD + """
query best "q" {
  choose g: board
  choose mode in [1, 2]
  if mode == 1 {
    require contents(g) == [a]
    maximize 0
  } else {
    maximize count(c in cells(g) if g[c] == a)
  }
}""", "best", {}, lambda it: {"g": boards(it), "mode": (1, 2)}),
    ("a grid's value caps and a cell counted twice",
     BOARD + """
query best "q" {
  choose g: board
  require contents(g) == [a, b, b]
  maximize count(c in [(0, 0), (0, 0), (0, 1)] if g[c] == a)
}""", "best", {}, lambda it: {"g": boards(it)}),
    # the order an allocation's 'by' gives reads positions that no other part of the
    # query reads: no mirror image of the grid may stand for the answer (written both
    # ways round, so whichever value the mirror breaking takes as the smaller, one of
    # the two optima is a grid it would cut away)
] + [
    (f"an allocation's key that reads positions keeps the grid's mirror images ({first} first)",
     BOARD + f"""
def firsts(g: board, k: card, sign: int) =
  sum(allocate(1 for d in cells(g) by sign * column(d) from 1)[c] for c in cells(g) if g[c] == k)
query best "q" {{
  choose g: board
  require contents(g) == [a, b, b]
  maximize firsts(g, {first}, -1) + firsts(g, {last}, 1)
}}""", "best", {}, lambda it: {"g": boards(it)}) for first, last in (("b", "a"), ("a", "b"))
] + [
    ("a scoring's choice made only where the scoring is reached",
     HERD + PICK + """
query best "q" {
  choose herd subset of zoo
  maximize sum(pick(herd) for i in [1] if size(herd) > 0) + 5 - 4 * size(herd)
}""", "best", {}, lambda it: {"herd": subsets((1, 2, 3))}),
    ("an element choice after a split",
     HERD + """
query best "q" {
  choose herd subset of zoo
  choose mode in [1, 2]
  choose x in herd
  maximize x + mode - size(herd)
}""", "best", {}, lambda it: {"herd": subsets((1, 2, 3)), "mode": (1, 2), "x": (1, 2, 3)}),
    ("a 'where' choice after a split",
     HERD + """
query best "q" {
  choose mode in [1, 2]
  choose pick subset of zoo where size(pick) >= mode
  maximize 10 - size(pick)
}""", "best", {}, lambda it: {"mode": (1, 2), "pick": subsets((1, 2, 3))}),
    ("a 'sized' choice after a split",
     HERD + """
query best "q" {
  choose mode in [1, 2]
  choose pick subset of zoo sized mode
  maximize sum(pick)
}""", "best", {}, lambda it: {"mode": (1, 2), "pick": subsets((1, 2, 3))}),
    ("a scoring called twice, and one on each branch",
     HERD + PICK + """
query best "q" {
  choose mode in [1, 2]
  choose herd subset of zoo
  maximize pick([1, 2]) + pick([5, 6]) + (if mode == 1 then pick([7, 8]) else pick([1, 2])) - size(herd)
}""", "best", {}, lambda it: {"mode": (1, 2), "herd": subsets((1, 2, 3))}),
    ("a scoring inside an 'if' of a choice",
     HERD + PICK + """
query best "q" {
  choose herd subset of zoo
  maximize (if size(herd) > 1 then pick([1, 2]) else 0) - size(herd)
}""", "best", {}, lambda it: {"herd": subsets((1, 2, 3))}),
    ("a grid whose condition fails on a path not taken",
     BOARD + """
query best "q" {
  choose mode in [1, 2]
  choose g: board where count(c in cells(g) if g[c] == a) == mode + 2
  maximize count(c in cells(g) if g[c] == a) + mode
}""", "best", {}, lambda it: {"mode": (1, 2), "g": boards(it)}),
    ("no mirror image of the grid with a cell from an input",
     BOARD + """
query best "q" {
  input spot: cell
  choose g: board where full(g) and count(c in cells(g) if g[c] == b) == 1
  maximize count(c in [spot] if g[c] == b)
}""", "best", {"spot": (0, 0)}, lambda it: {"g": boards(it)}),
    ("no mirror image of the grid with a cell built from a number",
     BOARD + """
query best "q" {
  input col: int
  choose g: board where full(g) and count(c in cells(g) if g[c] == b) == 1
  maximize count(c in cells(g) if g[c] == b and c == (0, col))
}""", "best", {"col": 0}, lambda it: {"g": boards(it)}),
]


def best_by_interpreter(program, query, inputs, domains, state):
    """The best objective over every combination of the choices' values (None when no
    combination meets the query's conditions), the interpreter making the choices
    inside scorings. A combination the rules cannot evaluate (a key with no entry in
    a table) is no option, as for the solver."""
    interp = Interpreter(program)
    names = list(domains)
    values = []
    for combo in itertools.product(*(domains[n] for n in names)):
        try:
            value, _, _ = interpret_query(interp, program.queries[query], inputs, dict(zip(names, combo)),
                                          state=state)
        except RulesError:
            continue
        if value is not None:
            values.append(value)
    return max(values) if values else None


@pytest.mark.parametrize("with_state", [False, True], ids=["no state", "state"])
@pytest.mark.parametrize("name,spec,query,inputs,domains", CASES, ids=[c[0] for c in CASES])
def test_optimum_equals_every_option_through_the_interpreter(tmp_path, name, spec, query, inputs,
                                                             domains, with_state):
    path = tmp_path / "t.rules"
    path.write_text('game t "Test"\n' + spec + "\n")
    program = load(path)
    interp = Interpreter(program)
    state = interp.new_state([rt.Seat(0, "p1", "player", "Player 1")]) if with_state else None
    expected = best_by_interpreter(program, query, inputs, domains(interp), state)
    answer = run_query(program, query, inputs, time_limit=30, workers=1, state=state)
    if expected is None:
        assert answer.status == "INFEASIBLE", (name, answer.status, answer.objective, answer.witness)
    else:
        assert answer.status == "OPTIMAL" and answer.replayed, (name, answer.status)
        assert answer.objective == expected, (name, answer.objective, answer.witness)
