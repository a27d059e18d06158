"""What a designer writing a spec or a house rule meets, found by a sweep of
spec-authoring mistakes: correct specs are accepted, mistakes are located.

Each test writes a small spec and checks the language's answer: no refusal of a part
of a spec that is never computed, no value that shadows a built-in, no Python wording,
no internal error, a location on every message. The sweep's mistakes in variants are
in tests/variants/test_variant_mistakes.py, its run-time errors in
tests/interpret/test_runtime_errors.py, its queries in tests/solver/test_query_mistakes.py.
"""
from __future__ import annotations


import pytest

from rulewright.compiler import load
from rulewright.compiler.diagnostics import ResolveError
from rulewright.solver.queries import interpreter_for
from helpers import ROOT, spec, run_command


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


def test_a_range_too_long_to_build_and_a_setting_given_twice_are_errors(tmp_path):
    """A range of 10^11 numbers ran out of memory (an internal error); --set x=1 --set
    x=2 silently kept the last."""
    with pytest.raises(ResolveError, match="the range 1..100000000000 holds 100,000,000,000 numbers, more than"):
        load(spec(tmp_path, 'game m "M"\ndef v = size(1..100000000000)\n'))
    proc = run_command("check", "spec/darwins_choice", "--set", "eras=3",
                       "--set", "eras=4", cwd=ROOT)
    assert proc.returncode == 2 and "--set eras is given twice, as 3 and as 4" in proc.stderr, proc.stderr
