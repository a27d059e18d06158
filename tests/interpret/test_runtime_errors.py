"""Run-time errors of a game, from the sweep of spec-authoring mistakes
(tests/resolve/test_spec_mistakes.py): a count below zero is an error, and a rule that
fails in play is shown at the operation that fails.
"""
from __future__ import annotations

import pytest

from rulewright.compiler import load
from rulewright.compiler.diagnostics import RulesError, RuntimeRulesError
from rulewright.solver.queries import interpreter_for
from helpers import spec


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


NONE_USED = '''game g "G"
table card "Card" (cost: int, mate: card) {
  a | 2 | none
  b | 1 | a
}
def f(cards: pile of card) = any(k.mate.cost > 1 for k in cards)
def g(cards: pile of card) = sum(k.mate.cost for k in cards)
mode play "Play" players 1 {
  seats players
  report r = EXPR
}
'''


@pytest.mark.parametrize("expr, line, words", [("f([a, b])", 6, "'>' not supported between instances of none and a number"),
                                               ("g([b, a])", 7, "unsupported operand")])
def test_a_value_that_is_none_used_is_the_spec_s_error_at_its_rule(tmp_path, capsys, expr, line, words):
    """(Python's TypeError naming NoneType came out as an internal error, exit 3.)"""
    path = spec(tmp_path, NONE_USED.replace("EXPR", expr))
    for fast in (True, False):
        from rulewright.compiler.interpret import Interpreter
        with pytest.raises(RuntimeRulesError) as info:
            Interpreter(load(path), fast=fast).play("play", 1, 1)
        d = info.value.diagnostics[0]
        assert d.span.line == line and "a value that is none was used" in d.message and words in d.message
        assert "x != none" in d.hint
    from helpers import run_main
    code, _, err = run_main(capsys, "play", str(path), "--players", "1", "--seed", "1")
    assert code == 1 and f"t.rules:{line}:" in err and "internal error" not in err


NO_SEAT = '''game g "G"
enum colour { red, blue }
table card "Card" (cost: int) {
  a | 2
}
state { leader: seat  picked: card }
per seat { hand: pile of colour }
mode play "Play" players 2 {
  seats players
  let l = leader
  report r = EXPR
}
'''


@pytest.mark.parametrize("expr", ["size(hand(l))", "picked.cost + 1"])
def test_the_state_of_no_seat_or_the_row_of_none_is_the_spec_s_error_at_its_rule(tmp_path, capsys, expr):
    """(Python's KeyError of None, looking up the state of no seat, came out as an internal
    error; a column of no row was said so already, and stays so.)"""
    path = spec(tmp_path, NO_SEAT.replace("EXPR", expr))
    from rulewright.compiler.interpret import Interpreter
    for fast in (True, False):
        with pytest.raises(RuntimeRulesError) as info:
            Interpreter(load(path), fast=fast).play("play", 2, 1)
        d = info.value.diagnostics[0]
        assert d.span.line == 11 and "a value that is none was used" in d.message and "x != none" in d.hint
    from helpers import run_main
    code, _, err = run_main(capsys, "play", str(path), "--players", "2", "--seed", "1")
    assert code == 1 and "t.rules:11:" in err and "internal error" not in err


def test_an_agent_s_own_error_is_not_blamed_on_the_rule_that_asked_it(tmp_path):
    """(None used in an agent's code, called from a choice of the rules, is no rule's error.)"""
    from rulewright.compiler.interpret import Interpreter

    class Broken:
        def choose(self, name, options, state, seat):
            return None + 1

    path = spec(tmp_path, '''game g "G"
mode play "Play" players 1 {
  seats players
  for s in seats { choose n in [1, 2] by s
    report r = n }
}
''')
    with pytest.raises(TypeError):
        Interpreter(load(path)).play("play", 1, 1, agent_factory=lambda seat, seed: Broken())


def test_an_error_raised_in_the_helpers_the_generated_code_calls_is_the_rules_own():
    """A Python error raised in a helper the generated code calls (allocating, a memo read in
    bulk, the runtime under it) is placed at the rule's line, not taken for an agent's."""
    from rulewright.compiler.interpret import memo
    from rulewright.compiler.interpret.codegen import raised_at_rule
    from rulewright.compiler.semantics import runtime as rt
    where = "<rules probe>"
    src = ("def mixed(): return _rt.allocate(3, [(1, 'a', 1), ('x', 'b', 1)], True)\n"
           "def counted(): return list(_MS(len, 5, None, None))\n"
           "def unhashed(): return _rt.subsets_of(({}, {}))\n")
    ns = {"_rt": rt, "_MS": memo.known_subsets,
          "_LINESPANS": {where: ["the first rule", "the second rule", "the third rule"]}}
    exec(compile(src, where, "exec"), ns)  # noqa: S102 (a test's own code)
    for name, at in (("mixed", "the first rule"), ("counted", "the second rule"), ("unhashed", "the third rule")):
        with pytest.raises(TypeError) as caught:
            ns[name]()
        assert raised_at_rule(caught.value.__traceback__) == at
