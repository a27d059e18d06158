"""What a designer writing a spec or a house rule meets, found by a sweep of
spec-authoring mistakes: correct specs are accepted, mistakes are located.

Each test writes a small spec (or a variant of a shipped game) and checks the
language's answer: no refusal of a part of a spec that is never computed, no value
that shadows a built-in, no Python wording, no internal error, a location on every
message.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from rulewright.compiler import load
from rulewright.compiler.diagnostics import ResolveError, RulesError, RuntimeRulesError, SpecSyntaxError
from rulewright.solver.queries import interpreter_for, run_query
from helpers import ROOT, rel

DARWIN = ROOT / "spec" / "darwins_choice"


def spec(tmp_path: Path, text: str, name: str = "t.rules") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_a_part_a_constant_condition_leaves_out_is_never_computed(tmp_path):
    """'param 0 = off' guards: folding constants no longer computes the branch not
    taken, nor a message whose condition holds; a constant that is computed and fails
    is still an error at its place."""
    ok = spec(tmp_path, '''game m "M"
param k: int = 3
def x = if k == 3 then 0 else 10 // (k - 3)
def y = k == 3 or 10 // (k - 3) > 1
def xs = [x for x in 1..3 if x > 10]
def z = if size(xs) == 0 then 0 else min(xs)
check c: x >= 0 and y and z == 0 else "x {x}, and {10 // (k - 3)}"
rule r(n: int) = n > 0 else "bad {10 // (k - 3)}"
''')
    program = load(ok)
    assert interpreter_for(program).call("x") == 0
    assert interpreter_for(load(ok, {"k": "5"})).call("x") == 5      # with k = 5 the other branch
    bad = spec(tmp_path, 'game m "M"\nparam k: int = 3\ndef x = 1 + 10 // (k - 3)\n', "bad.rules")
    with pytest.raises(ResolveError) as info:
        load(bad)
    d = info.value.diagnostics[0]
    assert "cannot divide 10 by 0 (the divisor is 0 here)" in d.message and d.span.line == 3


@pytest.mark.parametrize("decl", ["enum x { none, a }", "switch s: true | other = other",
                                  "table t (n: int) {\n  none | 1\n}"])
def test_none_true_and_false_cannot_name_a_value(tmp_path, decl):
    """A switch option 'none' could never be told from 'no value': a house rule testing
    'hand_limit != none' applied its limit whatever the setting."""
    with pytest.raises(ResolveError, match="is a built-in value of the language and cannot name a value"):
        load(spec(tmp_path, f'game m "M"\n{decl}\n'))


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


def test_counts_below_zero_are_errors(tmp_path):
    base = '''game m "M"
enum tok { a, b }
state { deck: pile of tok = [a, b, a, b]  n: int }
per seat { hand: pile of tok }
def v = take([1, 2, 3], K)
mode standard "S" players 2 {
  seats players
  STMT
  report v = v
}
'''
    cases = [("K", "0 - 1", "set n = 1", "take() of -1 items: a count is 0 or more"),
             ("K", "1", "for s in seats { deal 0 - 2 from deck to hand(s) }", "cannot deal -2 cards: a count is 0 or more"),
             ("K", "1", "repeat 0 - 5 { set n = n + 1 }", "repeat -5 times: a count is 0 or more")]
    for i, (k, value, stmt, message) in enumerate(cases):
        path = spec(tmp_path, base.replace("K", value).replace("STMT", stmt), f"c{i}.rules")
        with pytest.raises(RulesError) as info:
            interpreter_for(load(path)).play("standard", 2, 1)
        assert message in info.value.diagnostics[0].message and info.value.diagnostics[0].span.line > 0


def test_a_let_cannot_hide_a_state_variable(tmp_path):
    path = spec(tmp_path, '''game m "M"
state { round: int }
mode standard "S" players 1 {
  seats players
  let round = 5
  set round = 7
}
''')
    with pytest.raises(ResolveError, match="'round' is a state variable: a let of that name would hide it"):
        load(path)


def test_a_play_of_the_wrong_type_is_refused_at_check(tmp_path):
    path = spec(tmp_path, '''game m "M"
enum tok { a, b }
state { deck: pile of tok = [a, b] }
per seat { hand: pile of tok }
procedure pick(p: seat) { choose k in deck by p }
mode standard "S" players 1 { seats players do pick(first(players)) }
query best "B" {
  input player: seat
  choose n in 1..2
  maximize n
  play k = 7
}
''')
    with pytest.raises(ResolveError, match="'k' is chosen among values of type tok, and this is int"):
        load(path)


def test_the_names_a_variant_keeps_for_base_are_shown_as_a_person_reads_them(tmp_path):
    variant = spec(tmp_path, f'''variant v01 "V" extends "{rel(DARWIN, tmp_path)}"
override rule can_eat(h: species, t: species) = base(h) and h.owner != t.owner
''', "v01.rules")
    with pytest.raises(ResolveError) as info:
        load(variant)
    text = info.value.render()
    assert "'can_eat (the base's, called as base by the variant v01)' takes 2 argument(s), not 1" in text
    assert "__before_" not in text
    mangled = spec(tmp_path, 'game m "M"\ndef double_cost__before_hr = 99\n', "m.rules")
    with pytest.raises(SpecSyntaxError, match="this name holds '__before_', which is kept"):
        load(mangled)


def test_check_of_a_variant_with_a_param_of_its_own_set(tmp_path):
    variant = spec(tmp_path, f'''variant hl "Hand limit" extends "{rel(DARWIN, tmp_path)}"
param hand_limit: int = 12
def over_the_limit(p: seat) = size(hand(p)) > hand_limit
''', "hl.rules")
    proc = subprocess.run([sys.executable, "-m", "rulewright", "check", str(variant), "--set", "hand_limit=5"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0 and proc.stdout.startswith(f"ok: {variant}"), proc.stdout + proc.stderr


def test_a_range_too_long_to_build_and_a_setting_given_twice_are_errors(tmp_path):
    """A range of 10^11 numbers ran out of memory (an internal error); --set x=1 --set
    x=2 silently kept the last."""
    with pytest.raises(ResolveError, match="the range 1..100000000000 holds 100,000,000,000 numbers, more than"):
        load(spec(tmp_path, 'game m "M"\ndef v = size(1..100000000000)\n'))
    proc = subprocess.run([sys.executable, "-m", "rulewright", "check", "spec/darwins_choice", "--set", "eras=3",
                           "--set", "eras=4"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 2 and "--set eras is given twice, as 3 and as 4" in proc.stderr, proc.stderr


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


def test_errors_an_override_causes_in_the_base_point_at_the_override(tmp_path):
    """A changed signature breaks the base's calls: each error at a base line now has a
    note at the override. A param overridden with a value of the wrong type is one
    error, not a cascade of Python-worded ones through the base."""
    changed = spec(tmp_path, f'''variant v03 "Params" extends "{rel(DARWIN, tmp_path)}"
override def double_cost(s: species, extra: int) = base(s) + extra
''', "v03.rules")
    with pytest.raises(ResolveError) as info:
        load(changed)
    first = info.value.diagnostics[0]
    assert first.span.file.endswith("actions.rules") and "'double_cost' takes 2 argument(s), not 1" in first.message
    assert any(str(span.file) == str(changed) and "variant 'v03' overrides 'double_cost' here" in note
               for span, note in first.notes)
    typed = spec(tmp_path, f'''variant v07 "Eras" extends "{rel(DARWIN, tmp_path)}"
override param eras = "three"
''', "v07.rules")
    with pytest.raises(ResolveError) as info:
        load(typed)
    assert [d.message for d in info.value.diagnostics] == ["param 'eras' is declared int but its value is text"]
    # a state variable given another type: the base's uses of it fail with messages
    # about values ("cannot compare int with card"), each with a note at the override
    retyped = spec(tmp_path, f'variant v08 "Discard" extends "{rel(ROOT / "spec" / "ecosystem_savanna", tmp_path)}"\n'
                             "override state { discard: list of int }\n", "v08.rules")
    with pytest.raises(ResolveError) as info:
        load(retyped)
    assert len(info.value.diagnostics) >= 2
    for d in info.value.diagnostics:
        assert not d.span.file.endswith("v08.rules")
        assert [str(span.file) for span, _ in d.notes] == [str(retyped)], d.message
    assert "cannot compare int with card" in [d.message for d in info.value.diagnostics]


def test_a_run_time_error_in_a_variant_scoring_step_is_located_in_the_variant(tmp_path):
    """A scoring step's statements carry their own location: the error is at the
    step of the variant, not at the base's call of the scoring."""
    v = spec(tmp_path, f'variant v "V" extends "{rel(ROOT / "spec" / "ecosystem_savanna", tmp_path)}"\n'
                       "override step score.tree = size(contents(placed(g, tree, first(cells(g)))))\n")
    out = subprocess.run([sys.executable, "-m", "rulewright", "score", str(ROOT / "spec" / "ecosystem_savanna"),
                          "--variant", str(v), str(ROOT / "examples" / "margot.grid")],
                         capture_output=True, text=True, cwd=ROOT)
    assert out.returncode != 0
    assert out.stderr.startswith(f"{v}:2:26: error: cell (0, 0) is already taken"), out.stderr


@pytest.mark.parametrize("expr, col, message", [
    ("1 + first([y for y in xs if y > n])", 17, "first() of an empty collection"),
    ("2 * min(y for y in xs if y > n)", 17, "min() of an empty collection"),
    ("size(take(xs, n - 9))", 18, "take() of -8 items: a count is 0 or more"),
    ("n % (n - 5)", 13, "cannot take the remainder of 5 by 0 (the divisor is 0 here)"),
])
def test_a_rule_failing_in_play_is_shown_at_the_operation_that_fails(tmp_path, expr, col, message):
    """Not at the whole statement: the caret is under the operation (its own place,
    given to the run-time helper that fails)."""
    path = spec(tmp_path, f'''game m "M"
def xs = [1, 2, 3]
state {{ v: int }}
procedure p {{
  for n in [1, 5] {{
    set v = {expr}
  }}
}}
mode standard players 1 {{ seats players do p() }}
''')
    with pytest.raises(RuntimeRulesError) as info:
        interpreter_for(load(path)).play("standard", 1, 0)
    d = info.value.diagnostics[0]
    assert d.message == message
    assert (d.span.line, d.span.col) == (6, col), info.value.render()


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
