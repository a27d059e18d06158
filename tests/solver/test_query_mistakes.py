"""Queries over small specs, from the sweep of spec-authoring mistakes
(tests/resolve/test_spec_mistakes.py): what cannot be computed for an answer is
located, a chosen sub-collection's first() and min() are solved, an answer no option
escapes says which expression cannot be computed, a scoring choice with nothing to
choose from is a reason.
"""
from __future__ import annotations

import pytest

from rulewright.compiler import load
from rulewright.compiler.diagnostics import RuntimeRulesError
from rulewright.solver.queries import run_query
from helpers import spec


def test_a_query_report_that_cannot_be_computed_is_located(tmp_path):
    path = spec(tmp_path, '''game m "M"
query r "R" {
  choose k in 1..3
  maximize k
  report bad = k // (k - 3)
}
''')
    with pytest.raises(RuntimeRulesError) as info:
        run_query(load(path), "r", {})
    d = info.value.diagnostics[0]
    assert d.message == "cannot compute this for the answer found (k = 3): cannot divide 3 by 0 (the divisor is 0 here)"
    assert (d.span.line, d.span.col) == (5, 16)       # the division itself


def test_first_and_min_of_a_chosen_collection_are_solved(tmp_path):
    """first() of a chosen sub-collection crashed the encoder, min() of one was not
    supported; an empty one is excluded, as a division by 0 is (the interpreter stops
    there)."""
    path = spec(tmp_path, '''game m "M"
query f "F" {
  choose s subset of [5, 6, 7]
  maximize first(s) + 1
}
query lo "Lo" {
  choose s subset of [5, 3, 7, 9]
  require size(s) == 2
  maximize min(x for x in s)
}
query hi "Hi" {
  choose s subset of [5, 3, 7, 9]
  maximize 0 - max(x for x in s)
}
query none_left "Empty" {
  choose s subset of [5, 6]
  require size(s) == 0
  maximize first(s)
}
''')
    program = load(path)
    assert run_query(program, "f", {}).objective == 8
    answer = run_query(program, "lo", {})
    assert answer.objective == 7 and sorted(answer.witness["s"]) == [7, 9]
    assert run_query(program, "hi", {}).objective == -3
    assert run_query(program, "none_left", {}).status == "INFEASIBLE"


def test_an_answer_no_option_escapes_says_which_expression_cannot_be_computed(tmp_path):
    """A division by 0 or a first() of an empty collection that every option reaches:
    INFEASIBLE with no reason before; now the place and what goes wrong, with the
    choices of the paths."""
    path = spec(tmp_path, '''game m "M"
query mod "Mod" {
  input d: int = 0
  choose k in 1..3
  maximize k % d
}
query head "Head" {
  choose s subset of [5, 6]
  require size(s) == 0
  maximize first(s)
}
''')
    program = load(path)
    answer = run_query(program, "mod", {})
    assert answer.status == "INFEASIBLE"
    assert {r.sentence for r in answer.reasons} == {f"the expression at {path}:5:12 divides by 0 for this choice"}
    assert sorted(r.path["k"] for r in answer.reasons) == [1, 2, 3]
    assert run_query(program, "mod", {"d": 2}).objective == 1
    sentences = [r.sentence for r in run_query(program, "head", {}).reasons]
    assert f"the expression at {path}:10:12 takes first() of an empty collection for this choice" in sentences


def test_a_scoring_choice_with_nothing_to_choose_from_is_a_reason_with_its_steps_ids(tmp_path):
    path = spec(tmp_path, '''game m "M"
scoring pts(n: int) [X-SCORE] {
  step bonus [X-BONUS] {
    choose b in [x for x in 1..3 if x > n]
    points b
  }
}
query r [X-R] "R" {
  choose n in [4, 5]
  maximize pts(n)
}
''')
    answer = run_query(load(path), "r", {}, time_limit=10)
    assert answer.status == "INFEASIBLE"
    assert sorted(r.path["n"] for r in answer.reasons) == [4, 5]       # one on each branch
    for reason in answer.reasons:
        assert reason.rule == "b" and reason.ids == ("X-BONUS",) and reason.span.line == 4
        assert reason.sentence == "there is nothing to choose b from: [x for x in 1..3 if x > n] is empty here"


# ------------------------------------------------------------------ large choices
def _pair_query(tmp_path, extra: str):
    from helpers import ROOT, rel
    return load(spec(tmp_path, f'''variant big "Big" extends "{rel(ROOT / "spec" / "ecosystem_savanna", tmp_path)}"
query pick_pair "A card and a spot" {{
  input state: ecosystem
  choose m in [(k, c{extra}) for k in card for c in placements(state){" for d in [1, 2, 3, 4]" if extra else ""}]
  maximize score(placed(state, m[0], m[1]), []){" + m[2]" if extra else ""}
}}
''', "big.rules"))


def test_a_choice_of_more_than_64_options_is_split_and_answered(tmp_path):
    """A card type and a cell together: 12 types times the free places of the partial
    grid, more than 64 options (the old limit) and fewer than 256. The answer is the best
    of every option, scored by the interpreter one by one."""
    from helpers import ROOT
    from rulewright.compiler.interpret import interpreter_for
    from rulewright.compiler.play.inputs import read_grid
    program = _pair_query(tmp_path, "")
    grid = read_grid(str(ROOT / "examples" / "partial.grid"), program, "ecosystem", allow_free=True)
    it = interpreter_for(program)
    from rulewright.compiler.semantics import runtime as rt
    options = [(k, c) for k in program.enums["card"].values for c in rt.placements(grid)]
    assert 64 < len(options) <= 256
    st = it.new_state([rt.Seat(0, "p1", "player", "Player 1")])
    best = max(int(it.call("score", rt.placed(grid, k, c), (), state=st)) for k, c in options)
    answer = run_query(program, "pick_pair", {"state": grid}, time_limit=60)
    assert answer.status == "OPTIMAL" and answer.objective == best


def test_a_choice_too_large_to_split_is_named_with_the_limit(tmp_path):
    from helpers import ROOT
    from rulewright.compiler.diagnostics import NotSupportedError
    from rulewright.compiler.play.inputs import read_grid
    program = _pair_query(tmp_path, ", d")
    grid = read_grid(str(ROOT / "examples" / "partial.grid"), program, "ecosystem", allow_free=True)
    with pytest.raises(NotSupportedError) as info:
        run_query(program, "pick_pair", {"state": grid}, time_limit=60)
    text = info.value.render()
    assert "the solver cannot use 'placed' (the grid with one more card) on the choice 'm': it has 352 options, " \
           "more than the 256 a query's choice is split into" in text
    assert "big.rules:4:3: note: the choice 'm'" in text
    assert "choose in two steps from smaller collections" in text
