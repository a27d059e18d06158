"""Table-driven expression tests: (source, expected) rows, where expected may be an error.

Each row is compiled inside a small spec (an enum, a table, a 3 x 3 grid and a
few relations) and evaluated by the interpreter; error rows must fail to
compile with the given message.
"""
import pytest

from rulewright.compiler import load
from rulewright.compiler.diagnostics import RulesError
from rulewright.compiler.interpret import Interpreter

PRELUDE = """
game t "Test"
enum colour { red, green, blue }
table piece (colour: colour, points: int) {
  pawn | red   | 1
  rook | green | 5
  king | blue  | 9
}
switch reach: near | far = near
grid board: 3 by 3 of piece
relation adjacent = offsets((-1, 0), (1, 0), (0, -1), (0, 1))
relation diagonal = offsets((-1, -1), (-1, 1), (1, -1), (1, 1))
relation down = rays((1, 0))
def sample = {1: 10, 2: 20, else: 0}
record animal { name: text, strength: int, hearts: int }
def herd = [new animal(name = "a", strength = 3, hearts = 2), new animal(name = "b", strength = 5, hearts = 1),
            new animal(name = "c", strength = 3, hearts = 2), new animal(name = "d", strength = 1, hearts = 4)]
"""

ROWS = [
    # arithmetic and comparisons
    ("1 + 2 * 3", 7),
    ("(1 + 2) * 3", 9),
    ("7 // 2", 3),
    ("7 % 3", 1),
    ("-3 + 1", -2),
    ("min(4, 9) + max(4, 9)", 13),
    ("abs(2 - 7)", 5),
    ("3 <= 3 and 2 < 3 and 4 > 1 and (5 >= 6) == false", True),
    ("1 != 2", True),
    ("not (1 == 1) or 2 == 2", True),
    ("if 1 > 2 then 10 else 20", 20),
    # collections
    ("size([1, 2, 3])", 3),
    ("sum([1, 2, 3, 4])", 10),
    ("sum(x * x for x in 1..4)", 30),
    ("count(x in 1..10 if x % 3 == 0)", 3),
    ("any(x > 3 for x in [1, 5])", True),
    ("all(x > 3 for x in [1, 5])", False),
    ("distinct([1, 2, 2, 3, 3, 3])", 3),
    ("max(x for x in [4, 8, 1])", 8),
    ("min(x for x in [4, 8, 1])", 1),
    ("[x + 1 for x in 1..3]", (2, 3, 4)),
    ("{x % 2 for x in 1..5}", (1, 0)),
    ("{x in 1..6 if x > 4}", (5, 6)),
    ("[a * 10 + b for a in 1..2 for b in 1..2]", (11, 12, 21, 22)),
    ("2 in [1, 2]", True),
    ("3 not in [1, 2]", True),
    ("[1] + [2, 3]", (1, 2, 3)),
    ("within([1, 1], [1, 2, 1])", True),
    ("within([1, 1, 1], [1, 2, 1])", False),
    ("first([7, 8])", 7),
    ("take([7, 8, 9], 2)", (7, 8)),
    # tables, enums, maps
    ("rook.points + king.points", 14),
    ("pawn.colour == red", True),
    ("count(p in piece if p.colour != red)", 2),
    ("sample[2]", 20),
    ("sample[5]", 0),
    ("{1: 3}[1]", 3),
    # switches decide at compile time
    ("if reach == far then 1 else 2", 2),
    # grids and relations on the 3 x 3 board
    ("size(adjacent((1, 1)))", 4),
    ("size(adjacent((0, 0)))", 2),
    ("diagonal((0, 0))", ((1, 1),)),
    ("down((0, 2))", ((1, 2), (2, 2))),
    ("size(cells(empty_board))", 9),
    ("size(rows(empty_board))", 3),
    ("row((2, 1)) * 10 + column((2, 1))", 21),
    ("empty(empty_board)", True),
    ("full(empty_board)", False),
    ("size(placements(empty_board))", 9),
    ("size(groups({(0, 0), (0, 1), (2, 2)}, adjacent))", 2),
    # grids built from grids: one more card, another card on a taken cell, a card taken away
    ("contents(placed(placed(empty_board, rook, (1, 1)), pawn, (0, 2)))", ("pawn", "rook")),
    ("exchanged(placed(empty_board, rook, (1, 1)), king, (1, 1))[(1, 1)]", "king"),
    ("size(contents(cleared(placed(placed(empty_board, rook, (1, 1)), pawn, (0, 2)), (1, 1))))", 1),
    ("cleared(placed(empty_board, rook, (1, 1)), (1, 1))[(1, 1)] == none", True),
    ("[size(g) for g in groups({(0, 0), (1, 0), (1, 1), (2, 2)}, adjacent)]", (3, 1)),
    # records
    ("new animal(name = \"x\", strength = 2, hearts = 1).strength", 2),
    ("(new animal(name = \"x\", strength = 2, hearts = 1) with (hearts = 7)).hearts", 7),
    ("(new animal(name = \"x\", strength = 2, hearts = 1) with (hearts = 7)).strength", 2),
    ("new animal(name = \"x\", strength = 2, hearts = 1) == new animal(name = \"x\", strength = 2, hearts = 1)", True),
    ("sum(a.hearts for a in herd)", 9),
    # rankings and allocation (largest key first; equal keys form a group)
    ("[size(g) for g in ranked(a for a in herd by a.strength)]", (1, 2, 1)),
    ("[a.name for a in first(ranked(a for a in herd by (a.strength, a.hearts)))]", ("b",)),
    ("[a.name for a in sorted(a for a in herd by -a.strength)]", ("d", "a", "c", "b")),
    ("rank(first(herd), ranked(a for a in herd by a.strength))", 2),
    ("[allocate(a.hearts for a in herd by a.strength from 5)[a] for a in herd]", (2, 1, 2, 0)),
    ("[allocate(a.hearts for a in herd by a.strength from 4)[a] for a in herd]", (1, 1, 1, 0)),
    ("[allocate(a.hearts for a in herd by a.strength from 2)[a] for a in herd]", (0, 1, 0, 0)),
    ("[allocate_skipping(a.hearts for a in herd by a.strength from 6)[a] for a in herd]", (2, 1, 2, 0)),
    ("[allocate_skipping(a.hearts for a in herd by -a.strength from 5)[a] for a in herd]", (0, 1, 0, 4)),
    # a, b, c tied (strength 3 or more: needs 2, 1, 2), then d (needs 4), from 4: skipping passes
    # the short group over and serves d; skipping evenly serves b (its share 4 // 3 = 1 covers
    # its 1), skips a and c, and d (4 > 3 left) gets nothing; evenly and stopping, each gets 1
    ("[allocate_skipping(a.hearts for a in herd by (if a.strength >= 3 then 1 else 0) from 4)[a] for a in herd]",
     (0, 0, 0, 4)),
    ("[allocate_skipping_even(a.hearts for a in herd by (if a.strength >= 3 then 1 else 0) from 4)[a] for a in herd]",
     (0, 1, 0, 0)),
    ("[allocate_even(a.hearts for a in herd by (if a.strength >= 3 then 1 else 0) from 4)[a] for a in herd]",
     (1, 1, 1, 0)),
    ("[allocate_skipping_even(a.hearts for a in herd by a.strength from 5)[a] for a in herd]", (2, 1, 2, 0)),
    ("[3, 1, 3, 2] - [3, 2]", (1, 3)),
    # errors: (source, message fragment)
    ("1 + true", "error: expected a number, found bool"),
    ("pawn.size", "error: 'piece' has no column 'size'"),
    ("paw.points", "did you mean 'pawn'?"),
    ("count(1 if true)", "expected 'NAME in COLLECTION' before 'if'"),
    ("sample[pawn]", "indexed by int, not piece"),
    ("if 1 then 2 else 3", "the condition must be true or false"),
    ("if true then 1 else pawn", "the two branches differ"),
    ("red == 1", "cannot compare colour with int"),
    ("adjacent(3)", "relation 'adjacent' takes a cell, not int"),
    ("sizes([1])", "unknown function 'sizes'"),
    ("min(1, 2, 3)", "min() takes two numbers or one collection, not 3 arguments"),
    ("{1: 2, 1: 3}[1]", "key 1 appears twice"),
    ("1 // 0", "cannot divide 1 by 0 (the divisor is 0 here)"),
    ("new animal(name = \"x\", strength = 2)", "new animal needs a value for hearts"),
    ("new animal(name = \"x\", strength = 2, hearts = 1, legs = 4)", "record 'animal' has no field 'legs'"),
    ("first(herd).strenght", "did you mean 'strength'?"),
    ("ranked(a for a in herd)", "ranked() needs a 'by' key"),
    ("allocate(a.hearts for a in herd by a.strength)", "needs 'from' a supply"),
    ("sum(a.hearts for a in herd by a.strength)", "sum() takes no 'by' key"),
    ("new beast(name = \"x\")", "unknown record 'beast'"),
]


def compile_expr(tmp_path, source: str):
    spec = tmp_path / "t.rules"
    spec.write_text(PRELUDE + f"state {{ empty_board: board }}\ndef value = {source}\n")
    program = load(spec)
    return program, Interpreter(program)


@pytest.mark.parametrize("source,expected", ROWS, ids=[r[0] for r in ROWS])
def test_expression(tmp_path, source, expected):
    if isinstance(expected, str) and ("error" in expected or " " in expected):
        with pytest.raises(RulesError) as info:
            compile_expr(tmp_path, source)
        assert expected in info.value.render()
        return
    program, interp = compile_expr(tmp_path, source)
    state = interp.new_state([])
    assert interp.call("value", state=state) == expected


def test_subsets_bounded_and_too_many():
    """subsets(C, n): the sub-collections of at most n elements, in the order subsets(C)
    lists them; an enumeration too large to list is an error that says so."""
    from rulewright.compiler.semantics import runtime as rt
    from rulewright.compiler.diagnostics import RuntimeRulesError
    items = ("b", "a", "b", "c")
    assert rt.subsets_of(items, 2) == tuple(s for s in rt.subsets_of(items) if len(s) <= 2)
    assert rt.subsets_of(items, 0) == ((),)
    with pytest.raises(RuntimeRulesError, match="subsets\\(\\) of 21 elements lists up to 2,097,152 sub-collections"):
        rt.subsets_of(tuple(str(i) for i in range(21)))
    assert len(rt.subsets_of(tuple(str(i) for i in range(20)), 3)) == 1 + 20 + 190 + 1140
    with pytest.raises(RuntimeRulesError, match="sub-collection of 24 elements has 16,777,216 options"):
        rt.sublists_of(tuple(range(24)))


@pytest.mark.parametrize("source, message", [
    ("cleared(empty_board, (1, 1))", "cell (1, 1) holds no card to take away"),
    ("exchanged(empty_board, rook, (0, 0))", "cell (0, 0) holds no card to exchange"),
    ("placed(placed(empty_board, rook, (1, 1)), pawn, (1, 1))", "cell (1, 1) is already taken"),
])
def test_grid_builders_refuse_a_cell_they_cannot_change(tmp_path, source, message):
    from rulewright.compiler.diagnostics import RuntimeRulesError
    program, interp = compile_expr(tmp_path, source)
    with pytest.raises(RuntimeRulesError, match=message.replace("(", "\\(").replace(")", "\\)")):
        interp.call("value", state=interp.new_state([]))
