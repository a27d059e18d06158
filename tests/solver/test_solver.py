"""The solver against the interpreter: optima equal brute force, bounds are sound.

On small grids (the spec with ``grid_rows``/``grid_columns`` overridden) every
arrangement can be enumerated and scored by the interpreter: the solver's proven
optimum must equal the brute-force maximum. On the real 4 x 5 grid the solver's
answer must never be beaten by random arrangements, and neither may its proven
bound.
"""
import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import ONE_FREE_GRID, ROOT, savanna
from rulewright.compiler.semantics import runtime as rt
from rulewright.compiler.diagnostics import NotSupportedError
from rulewright.solver.queries import run_query

CARDS = ["water", "prairie", "tree", "gazelle", "zebra", "giraffe", "cheetah", "lion", "elephant",
         "hyena", "vulture"]


def brute_force_best(interp, cards, rows, cols):
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    best = None
    for perm in set(itertools.permutations(cards)):
        board = rt.Board("ecosystem", rows, cols, True, dict(zip(cells, perm)))
        value = int(interp.call("score", board, ()))
        best = value if best is None else max(best, value)
    return best


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cards=st.lists(st.sampled_from(CARDS), min_size=6, max_size=6))
def test_best_arrangement_equals_brute_force_on_2x3(cards):
    program, interp = savanna(grid_rows=2, grid_columns=3)
    answer = run_query(program, "best_arrangement", {"cards": tuple(cards)}, time_limit=60, workers=2)
    assert answer.status == "OPTIMAL"
    assert answer.replayed
    assert answer.objective == brute_force_best(interp, cards, 2, 3)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cards=st.lists(st.sampled_from(CARDS), min_size=6, max_size=6))
def test_brute_force_agrees_under_other_readings(cards):
    program, interp = savanna(grid_rows=2, grid_columns=3, hyena_range="manhattan",
                              cheetah_range="lines", vulture_range="just_below")
    answer = run_query(program, "best_arrangement", {"cards": tuple(cards)}, time_limit=60, workers=2)
    assert answer.status == "OPTIMAL"
    assert answer.objective == brute_force_best(interp, cards, 2, 3)


def test_max_score_equals_brute_force_on_2x2():
    program, interp = savanna(grid_rows=2, grid_columns=2)
    answer = run_query(program, "max_score", {}, time_limit=60, workers=2)
    assert answer.status == "OPTIMAL"
    cells = [(0, 0), (0, 1), (1, 0), (1, 1)]
    best = max(int(interp.call("score", rt.Board("ecosystem", 2, 2, True, dict(zip(cells, combo))), ()))
               for combo in itertools.product(CARDS, repeat=4))
    assert answer.objective == best


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_full_grid_answer_and_bound_are_never_beaten(seed):
    program, interp = savanna()
    deck = [k for k in CARDS for _ in range(program.enums["card"].attrs["count"][k])]
    rng = random.Random(seed)
    cards = tuple(rng.sample(deck, 20))
    answer = run_query(program, "best_arrangement", {"cards": cards}, time_limit=3, workers=2)
    assert answer.status in ("OPTIMAL", "FEASIBLE")
    assert answer.replayed
    witness = answer.witness["g"]
    assert sorted(witness.cards.values()) == sorted(cards)
    cells = list(rt.frame(4, 5))
    for _ in range(300):
        perm = list(cards)
        rng.shuffle(perm)
        value = int(interp.call("score", rt.Board("ecosystem", 4, 5, True, dict(zip(cells, perm))), ()))
        assert value <= answer.objective <= answer.bound


def test_infeasible_and_unsupported_are_reported():
    program, _ = savanna(grid_rows=2, grid_columns=3)
    answer = run_query(program, "best_arrangement", {"cards": ("water",) * 5}, time_limit=10)
    assert answer.status == "INFEASIBLE" and answer.objective is None
    auto, _ = savanna(grid_rows=2, grid_columns=3, lion_prey_chooser="reading_order")
    with pytest.raises(NotSupportedError) as info:
        run_query(auto, "best_arrangement", {"cards": ("lion", "prairie", "gazelle") * 2}, time_limit=10)
    assert "take" in info.value.render() or "first n elements" in info.value.render()


@pytest.fixture(scope="module")
def placed_hyena(tmp_path_factory):
    """best_placement of a hyena on Margot's grid with two cells free (time limit 60): the
    partial grid and the answer, asked once for the tests that read it (on the four free
    cells of examples/partial.grid, proving the best takes the solver many seconds)."""
    program, _ = savanna()
    from rulewright.compiler.play.inputs import read_grid
    grid = tmp_path_factory.mktemp("two_free") / "two_free.grid"
    grid.write_text(ONE_FREE_GRID.replace("giraffe  water", "giraffe  ."), encoding="utf-8")
    state = read_grid(str(grid), program, "ecosystem", allow_free=True)
    assert len(rt.placements(state)) == 2
    return state, run_query(program, "best_placement", {"state": state, "card": "hyena"}, time_limit=60)


def test_best_placement_keeps_the_partial_grid(placed_hyena):
    state, answer = placed_hyena
    assert answer.status == "OPTIMAL" and answer.replayed
    spot, final = answer.witness["spot"], answer.witness["g"]
    assert spot in rt.placements(state)
    assert rt.extends(final, rt.placed(state, "hyena", spot))


def test_a_tuple_objective_bound_reads_back_as_the_tuple_it_stands_for():
    """A tuple objective is one weighted sum; CP-SAT's bound on the sum is read back in
    the same mixed radix, so it bounds the tuples as the sum bounds the sums."""
    from types import SimpleNamespace

    from rulewright.solver.queries import Lexicographic
    a, b = SimpleNamespace(lb=-2, ub=3), SimpleNamespace(lb=1, ub=4)
    lex = Lexicographic([a, b])
    assert lex.weights == [4, 1]            # b spans 4 values: a's weight is 4
    for x in range(-2, 4):
        for y in range(1, 5):
            total = 4 * x + y
            assert lex.bound(SimpleNamespace(best_objective_bound=total + 0.5), "maximize") == (x, y)
            assert lex.bound(SimpleNamespace(best_objective_bound=total - 0.5), "minimize") == (x, y)
    # a known first number takes no weight range of its own
    assert Lexicographic([5, b]).weights == [4, 1]


TUPLE_OBJECTIVES = """game t "Tuples"
def zoo = [1, 2, 3, 4]
query split "A tuple chosen by a condition on the choice" {
  choose herd subset of zoo
  maximize if 2 in herd then (1, -size(herd)) else (0, size(herd))
}
query known "A tuple known whatever the choice" {
  choose herd subset of zoo where size(herd) == 2
  maximize (1, 2)
}
"""


@pytest.mark.parametrize("with_state", [False, True])
def test_tuple_objectives_of_cases_and_of_constants(tmp_path, with_state):
    """A tuple objective whose value is a case split (an 'if' on the choice) takes the
    best case's tuple; a tuple known whatever the choice is its own optimum."""
    from rulewright.compiler import load
    from rulewright.compiler.interpret import Interpreter
    spec = tmp_path / "t.rules"
    spec.write_text(TUPLE_OBJECTIVES)
    program = load(spec)
    state = Interpreter(program).new_state([rt.Seat(0, "p1", "player", "Player 1")]) if with_state else None
    split = run_query(program, "split", {}, time_limit=30, workers=1, state=state)
    assert (split.status, split.objective, split.witness["herd"]) == ("OPTIMAL", (1, -1), (2,))
    known = run_query(program, "known", {}, time_limit=30, workers=1, state=state)
    assert known.status == "OPTIMAL" and known.objective == (1, 2) and len(known.witness["herd"]) == 2


def test_a_tuple_objective_too_wide_for_one_sum_is_refused():
    from types import SimpleNamespace

    from rulewright.solver.queries import Lexicographic
    wide = SimpleNamespace(lb=0, ub=10 ** 6)
    with pytest.raises(NotSupportedError, match="too many for one weighted sum"):
        Lexicographic([wide, wide, wide])


NAMED_OBJECTIVES = """game t "Names"
enum unit { kilos, items }
def zoo = [1, 2, 3, 4]
query heavy "A tuple named by an input" {
  input first: unit = kilos
  choose herd subset of zoo where size(herd) <= 2
  maximize (sum(x for x in herd), -size(herd)) named (first, "fewest")
}
query one "A number named by a text" {
  choose herd subset of zoo
  maximize size(herd) named "animals"
}
query bound "Names from an aggregate whose own name is a choice's" {
  input u: unit = kilos
  choose herd subset of zoo
  maximize size(herd) named first([(if herd == u then "same" else "other") for herd in [items]])
}
"""


def test_an_objective_named_shows_each_number_after_its_name(tmp_path):
    from rulewright.compiler import load
    spec = tmp_path / "t.rules"
    spec.write_text(NAMED_OBJECTIVES)
    program = load(spec)
    heavy = run_query(program, "heavy", {"first": "items"}, time_limit=30, workers=1)
    assert heavy.objective == (7, -2) and heavy.objective_names == ("items", "fewest")
    assert "objective: items 7, then fewest -2 (proven optimal)" in heavy.to_text()
    assert heavy.to_json()["objective_names"] == ["items", "fewest"]
    one = run_query(program, "one", {}, time_limit=30, workers=1)
    assert "objective: animals 4 (proven optimal)" in one.to_text()
    assert one.to_json()["objective_names"] == ["animals"]
    # 'herd' inside the names is the aggregate's own, not the choice: the names are known
    bound = run_query(program, "bound", {}, time_limit=30, workers=1)
    assert "objective: other 4 (proven optimal)" in bound.to_text()


def test_darwin_answers_name_their_goals():
    from rulewright.compiler import load
    from rulewright.solver.queries import interpreter_for
    root = ROOT
    program = load(root / "spec" / "darwins_choice")
    played = interpreter_for(program).play("standard", 4, 7, stop_at="turn:9")
    for goal, names in (("points", ("points", "adaptation")), ("adaptation", ("adaptation", "points"))):
        answer = run_query(program, "best_move", {"player": played.seats[0], "objective": goal},
                           state=played, time_limit=30, workers=1, reasons=False)
        assert answer.status == "OPTIMAL" and answer.objective_names == names
        a, b = answer.objective
        assert f"objective: {names[0]} {a}, then {names[1]} {b} (proven optimal)" in answer.to_text()


def test_a_choice_with_one_possible_value_is_left_out_of_the_text_only(tmp_path):
    from rulewright.compiler import load
    spec = tmp_path / "t.rules"
    spec.write_text('''game t "Settled"
def zoo = [1, 2, 3]
query best "Best" {
  input extra: bool = false
  choose bonus subset of (if extra then [10] else [])
  choose herd subset of zoo
  maximize sum(x for x in herd) + sum(x for x in bonus)
}
''')
    program = load(spec)
    plain = run_query(program, "best", {}, time_limit=30, workers=1)
    assert plain.objective == 6 and plain.witness["bonus"] == ()
    assert "bonus" not in plain.to_text() and "herd: 1, 2, 3" in plain.to_text()
    assert plain.to_json()["witness"]["bonus"] == []
    extra = run_query(program, "best", {"extra": True}, time_limit=30, workers=1)
    assert extra.objective == 16 and "bonus: 10" in extra.to_text()


def test_a_choice_shown_on_one_branch_is_not_hidden_by_a_settled_one_of_the_same_name(tmp_path):
    from rulewright.compiler import load
    spec = tmp_path / "t.rules"
    spec.write_text('''game t "Branches"
query q "Q" {
  choose a in [1, 2]
  if a == 1 {
    choose h subset of []
    maximize 0
  } else {
    choose h subset of [6, 7, 8]
    maximize sum(x for x in h)
  }
}
''')
    answer = run_query(load(spec), "q", {}, time_limit=30, workers=1)
    assert answer.objective == 21 and "h: 6, 7, 8" in answer.to_text()


def test_numbers_too_large_for_cp_sat_are_an_error_at_their_expression(tmp_path):
    from rulewright.compiler import load
    spec = tmp_path / "t.rules"
    spec.write_text('''game t "Large"
param factor: int = 2
query big "Big" {
  choose h subset of [1, 2, 3]
  maximize size(h) * factor * factor
}
''')
    assert run_query(load(spec, {"factor": "1000"}), "big", {}, time_limit=30, workers=1).objective == 3_000_000
    with pytest.raises(NotSupportedError) as info:
        run_query(load(spec, {"factor": "10000000000"}), "big", {}, time_limit=30, workers=1)
    text = info.value.render()
    assert "t.rules:5:12: error: a value of this query may reach 300,000,000,000,000,000,000" in text
    assert "too large for CP-SAT" in text


def test_two_numbers_chosen_are_not_shown_as_a_grid_cell(tmp_path, placed_hyena):
    from rulewright.compiler import load
    spec = tmp_path / "t.rules"
    spec.write_text('''game t "Pairs"
query q "Q" {
  choose h subset of [6, 7, 1] where size(h) == 2
  maximize sum(x for x in h)
}
''')
    answer = run_query(load(spec), "q", {}, time_limit=30, workers=1)
    assert "  h: 6, 7\n" in answer.to_text()
    _, placed = placed_hyena
    r, c = placed.witness["spot"]
    assert f"  spot: ({r}, {c})\n" in placed.to_text()          # a cell stays a cell
