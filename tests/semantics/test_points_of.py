"""``SCORING.STEP``: a scoring step reads the points of a step before it. The
interpreter and the encoder bind the same local once a step is done; the solver's
best grid is the best of every grid scored by the interpreter."""
from __future__ import annotations

import itertools

import pytest

from rulewright.compiler import load
from rulewright.compiler.diagnostics import RulesError
from rulewright.compiler.interpret import interpreter_for
from rulewright.solver.queries import run_query
from helpers import spec

DIVERSITY = '''game g "G"
enum card { a, b, c }
grid board: 2 by 2 of card
/// Points per card type, then a bonus for each type that scored nothing.
scoring score(g: board) {
  step a_cards = 2 * count(x in cells(g) if g[x] == a)
  step b_cards = 3 * count(x in cells(g) if g[x] == b) - 4
  step c_cards = count(x in cells(g) if g[x] == c)
  /// Diversity: 5 for each type that scored 0 or less.
  step diversity = 5 * count(p for p in [score.a_cards, score.b_cards, score.c_cards] if p <= 0)
  step again = if score.diversity >= 10 then 1 else 0
}
query best "Best" {
  choose g: board where full(g)
  maximize score(g)
}
query worst "Worst" {
  choose g: board where full(g)
  minimize score(g)
}
'''


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    return load(spec(tmp_path_factory.mktemp("pts"), DIVERSITY))


def test_a_step_reads_the_points_of_the_steps_before_it(program):
    it = interpreter_for(program)
    s = it.call("score", it.board([["a", "a"], ["a", "c"]]))
    # a: 2*3 = 6; b: 3*0 - 4 = -4; c: 1; diversity: b only (-4 <= 0) = 5; again: 5 < 10 = 0
    assert dict(s.steps) == {"a_cards": 6, "b_cards": -4, "c_cards": 1, "diversity": 5, "again": 0}
    s = it.call("score", it.board([["b", "b"], ["b", "b"]]))
    # a: 0; b: 12 - 4 = 8; c: 0; diversity: a and c = 10; again: 1
    assert dict(s.steps) == {"a_cards": 0, "b_cards": 8, "c_cards": 0, "diversity": 10, "again": 1}


@pytest.mark.parametrize("query, pick", [("best", max), ("worst", min)])
def test_the_solver_agrees_with_the_interpreter_on_every_grid(program, query, pick):
    it = interpreter_for(program)
    every = [int(it.call("score", it.board([list(cards[:2]), list(cards[2:])])))
             for cards in itertools.product("abc", repeat=4)]
    answer = run_query(program, query, {}, time_limit=60)
    assert answer.status == "OPTIMAL" and answer.replayed
    assert answer.objective == pick(every)


@pytest.mark.parametrize("body, message", [
    ("step x = sc.y\n  step y = 1", "step 'y' comes after 'x' in 'sc': its points are not counted yet"),
    ("step x = 1\n  step y = sc.y", "step 'y' cannot read its own points: they are still being counted"),
    ("step x = 1\n  step y = sc.xx", "'sc' has no step 'xx'"),
])
def test_a_step_that_is_not_before_is_refused(tmp_path, body, message):
    path = spec(tmp_path, f'game g "G"\nscoring sc() {{\n  {body}\n}}\n')
    with pytest.raises(RulesError) as info:
        load(path)
    assert message in info.value.render()


def test_a_local_of_the_scoring_s_name_is_read_as_itself(tmp_path):
    """A parameter named as the scoring is the parameter: sc.x reads its field."""
    path = spec(tmp_path, 'game g "G"\nrecord r { x: int }\nscoring sc(sc: r) {\n  step x = 1\n  step y = sc.x * 10\n}\n')
    program = load(path)
    it = interpreter_for(program)
    s = it.call("sc", it.record("r", x=4))
    assert dict(s.steps) == {"x": 1, "y": 40}
