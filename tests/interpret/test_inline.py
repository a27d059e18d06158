"""Small definitions written into their callers, a call made twice in one evaluation made
once, and loops of a few constant values left uncounted (compiler/interpret/inline.py,
codegen.few_steps): the values are those of the interpreter without them, and the budget
still stops a runaway loop."""
import pytest

from rulewright.compiler import load
from rulewright.compiler.diagnostics import IllegalMoveError, RuntimeRulesError
from rulewright.compiler.interpret import Interpreter
from rulewright.compiler.interpret.codegen import fname

from helpers import same_as_baseline, spec

CARDS = """
game g "G"
enum colour { red, blue, green }
def reds(cards: list of colour) = size([c for c in cards if c == red])
def one_red(cards: list of colour) = reds(cards) == 1
def few_reds(cards: list of colour) = reds(cards) <= 1 and reds(cards) >= 0
def shape(cards: list of colour) = one_red(cards) and few_reds(cards)
def twice(cards: list of colour) = shape(cards) or shape(cards)
def again(cards: list of colour) = shape(cards) and reds([red]) == 1
def points(cards: list of colour) = sum([s for c in cards for s in [1, 2, 3] if c == red])
def called(cards: list of colour) = sum([reds([c]) for c in cards for s in [1, 2, 3]])
"""

HANDS = [(), ("red",), ("red", "blue"), ("red", "red"), ("blue", "green", "red"), ("red", "red", "red")]


def _counting(interp, name):
    calls = []
    real = interp.ns[fname(name)]

    def counted(*args):
        calls.append(args)
        return real(*args)
    interp.ns[fname(name)] = counted
    return calls


def test_a_small_definition_is_written_into_its_caller_and_a_call_made_twice_made_once(tmp_path):
    program = load(spec(tmp_path, CARDS))
    fast, slow = Interpreter(program), Interpreter(program, fast=False)
    src = fast._func_src[fname("shape")]
    assert "f_one_red(" not in src and "f_few_reds(" not in src       # written in
    assert fname("reds") + "(" in src                                 # (a loop: called)
    fast_calls, slow_calls = _counting(fast, "reds"), _counting(slow, "reds")
    for hand in HANDS:
        assert fast.call("shape", hand) == slow.call("shape", hand) == (hand.count("red") == 1)
    # reds(cards) three times in shape once written in: evaluated once an evaluation
    assert len(fast_calls) == len(HANDS)
    assert len(slow_calls) == len(HANDS) + 2 * sum(h.count("red") == 1 for h in HANDS)


def test_a_definition_called_from_several_places_is_called_not_written_in(tmp_path):
    program = load(spec(tmp_path, CARDS))
    fast, slow = Interpreter(program), Interpreter(program, fast=False)
    assert fname("shape") + "(" in fast._func_src[fname("twice")]
    assert fname("shape") + "(" in fast._func_src[fname("again")]
    for hand in HANDS:
        for name in ("twice", "again", "points", "called"):
            assert fast.call(name, hand) == slow.call(name, hand), (name, hand)


def test_a_loop_over_a_few_constant_values_is_not_counted_unless_it_calls(tmp_path):
    program = load(spec(tmp_path, CARDS))
    fast = Interpreter(program)
    points, called = fast._func_src[fname("points")], fast._func_src[fname("called")]
    slow = Interpreter(program, fast=False)
    # the constant's loop is not counted; where it calls a definition, it is (by a call, or
    # by steps taken off the budget in place)
    def counted(source):
        return source.count("_rt.steps(") + source.count("_B.left -= len(")
    assert counted(points) == slow._func_src[fname("points")].count("_rt.steps(") - 1
    assert counted(called) == slow._func_src[fname("called")].count("_rt.steps(")


RUNAWAY = """
game g "G"
def spin(n: int) = sum([s for i in 1..n for j in 1..n for s in [1, 2, 3, 4, 5, 6, 7, 8]])
"""


def test_the_budget_still_stops_a_runaway_loop_at_its_place(tmp_path):
    program = load(spec(tmp_path, RUNAWAY))
    said = []
    for interp in (Interpreter(program), Interpreter(program, fast=False)):
        with pytest.raises(RuntimeRulesError) as caught:
            interp.call("spin", 9_000_000)
        said.append(str(caught.value))
    assert said[0] == said[1] and "did not finish within 20,000,000 steps" in said[0]
    assert ":3:" in said[0]


WALKS = """
game g "G"
def many(xs: list of int) = sum(x * y for x in xs for y in xs if y > x)
"""


def test_steps_taken_off_in_place_are_the_call_s_steps_and_stop_at_the_same_place(tmp_path):
    """A loop over a value (a parameter here) takes its steps off the budget in the code
    itself rather than by ``rt.steps``: as many (a loop, one step and one a value), and a
    budget runs out at the same loop."""
    from rulewright.compiler.semantics import budget, runtime as rt
    program = load(spec(tmp_path, WALKS))
    fast, slow = Interpreter(program), Interpreter(program, fast=False)
    assert "_B.left -= len(" in fast._func_src[fname("many")]
    assert "_B.left" not in slow._func_src[fname("many")]
    xs = tuple(range(40))
    want = slow.call("many", xs)
    for interp in (fast, slow):
        with rt.bounded("a test", 10_000):
            assert interp.call("many", xs) == want
            assert rt._BUDGET.left == 10_000 - (41 + 40 * 41)
    said = []
    for interp in (fast, slow):
        with pytest.raises(RuntimeRulesError) as caught, rt.bounded("a test", 1_000):
            interp.call("many", tuple(range(50)))          # (not one the memo has seen)
        said.append(str(caught.value))
    assert said[0] == said[1] and "did not finish within 1,000 steps" in said[0]
    assert not rt._BUDGET.counting and rt._BUDGET.left == budget.UNLIMITED


SWITCHED = """
game g "G"
enum colour { red, blue, green }
switch floored: bool = false
def score(raw: int) = if floored then max(0, raw) else raw
def total(cards: list of colour) = sum(score(3 - count(d for d in cards if d != c)) for c in cards)
"""


def test_a_loop_inside_a_definition_a_switch_made_one_of_its_parameters_is_a_loop_too(tmp_path):
    program = load(spec(tmp_path, SWITCHED))
    fast, slow = Interpreter(program), Interpreter(program, fast=False)
    src = fast._func_src[fname("total")]
    assert "len([" not in src and src.count("for ") == 2, src        # (no comprehension: two loops)
    for hand in HANDS + [("red",) * 5, ("blue", "blue", "blue", "blue")]:
        assert fast.call("total", hand) == slow.call("total", hand), hand


BRANCHES = """
game g "G"
def g(xs: list of int) = any(x == 0 for x in xs) or sum(10 // x for x in xs) > 3
def h(xs: list of int) = size(xs) > 1 and all(10 // x >= 1 for x in xs)
def k(xs: list of int) = if any(x < 0 for x in xs) then count(x for x in xs if x < 0) else sum(100 // x for x in xs)
"""


def test_a_loop_in_a_part_that_may_not_run_runs_only_where_that_part_runs(tmp_path):
    program = load(spec(tmp_path, BRANCHES))
    fast, slow = Interpreter(program), Interpreter(program, fast=False)
    for name in ("g", "h", "k"):
        src = fast._func_src[fname(name)]
        assert " for " in src and "any(" not in src and "sum(" not in src and "all(" not in src, src
    # (a division by zero where the part ran when it should not have)
    for xs in [(), (0,), (1,), (2, 0), (5, 5), (1, 2, 3), (-1, 0), (0, -1), (20, 30), (3,), (11, 1)]:
        for name in ("g", "h", "k"):
            same_as_baseline(fast, slow, name, xs)


LOOPS = """
game g "G"
enum colour { red, blue, green }
def weight(c: colour) = if c == red then 3 else 1
def limit(k: int) = sum(i for i in 1..k)
def ratio(d: int) = sum(10 // d for i in 1..2)
def over(cards: list of colour, k: int) = count(c for c in cards if weight(c) > limit(if k > 1 then k - 1 else 1))
def nested(cards: list of colour) = sum(count(d for d in cards if limit(size(cards)) > weight(c)) for c in cards)
def outer(cards: list of colour) = sum(count(d for d in cards if limit(weight(c)) > 1) for c in cards)
def safe(cards: list of colour, d: int) = count(c for c in cards if weight(c) > ratio(d))
"""


def test_a_call_inside_a_loop_that_reads_no_name_of_the_loop_is_made_once(tmp_path):
    """``limit(...)`` inside the loops of ``over`` and ``nested`` reads only the definition's
    parameters (through an expression): made once an evaluation, at its first use. Inside
    ``outer`` it reads the outer loop's value: made at every turn of the inner loop, as
    before. ``ratio(0)`` fails (a division by zero) only where a loop reaches it."""
    program = load(spec(tmp_path, LOOPS))
    fast, slow = Interpreter(program), Interpreter(program, fast=False)
    fast_calls, slow_calls = _counting(fast, "limit"), _counting(slow, "limit")
    hands = HANDS + [("red", "blue") * 3]
    for hand in hands:
        for k in (0, 1, 2, 3):
            same_as_baseline(fast, slow, "over", hand, k)
    assert len(fast_calls) == sum(1 for h in hands if h) * 4
    assert len(slow_calls) == sum(len(h) for h in hands) * 4
    del fast_calls[:], slow_calls[:]
    for hand in hands:
        same_as_baseline(fast, slow, "nested", hand)
    assert len(fast_calls) == sum(1 for h in hands if h)
    del fast_calls[:], slow_calls[:]
    for hand in hands:
        same_as_baseline(fast, slow, "outer", hand)
        for d in (0, 1, 3):
            same_as_baseline(fast, slow, "safe", hand, d)
    assert len(fast_calls) == len(slow_calls) == sum(len(h) ** 2 for h in hands)
    with pytest.raises(RuntimeRulesError):
        fast.call("safe", ("red",), 0)
    assert fast.call("safe", (), 0) == 0


CHOICES = """
game g "G"
enum colour { red, blue, green }
state { deck: pile of colour = [red, red, red, red, red, red, red, blue, green, red, red, red, red, red, red, red, red, red, red, red, red, green, red, red, red, red, red, red, red, blue] }
per seat { hand: pile of colour   kept: pile of colour }
def matches(cards: pile of colour, k: colour) = any(c == k for c in cards)
mode m "M" players 3 {
  seats players
  shuffle deck
  for s in seats { deal 9 from deck to hand(s) }
  repeat 2 {
    for p in seats {
      choose k in hand(p) where matches(hand(p), k) and size(kept(p)) < 9 by p
      move [k] from hand(p) to kept(p)
      choose x in hand(p) where x == red or any(size(hand(p)) == 9 for p in seats) by p
      move [x] from hand(p) to kept(p)
      choose y in hand(p) where not any(size(hand(q)) > 10 for q in seats) by p
      move [y] from hand(p) to deck
    }
  }
  report kept for p in seats = kept(p)
}
"""


def _choice_code(interp, var: str) -> str:
    """The code of the choice of ``var`` up to its refusals' (a statement of several lines
    where a definition is written into its filter)."""
    import ast
    source = interp.source
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.YieldFrom) \
                and [getattr(t, "id", None) for t in node.targets] == [var]:
            return ast.get_source_segment(source, node).split(", _S[")[0]
    raise AssertionError(f"no choice of {var}")


def test_a_choice_reads_the_state_its_collection_reads_once(tmp_path):
    """``choose k in hand(p) where matches(hand(p), k)``: ``hand(p)`` read once for the
    collection and the filter; a read of a name a loop of the filter binds (``for p in
    seats``) is left as it is, and the filter's call is written in, its lines marked with
    its own rule. The games are the baseline's."""
    program = load(spec(tmp_path, CHOICES))
    fast, slow = Interpreter(program), Interpreter(program, fast=False)
    first = _choice_code(fast, "v_k")
    assert "f_matches(" not in first and first.count("ST.per[") == 2         # hand(p) once, kept(p)
    assert "\n# at _S[" in first                                             # (its rule's lines)
    assert "f_matches(" in _choice_code(slow, "v_k") and _choice_code(slow, "v_k").count("ST.per[") == 3
    assert _choice_code(fast, "v_x").count("ST.per[") == _choice_code(slow, "v_x").count("ST.per[")   # (p bound inside)
    assert _choice_code(fast, "v_y").count("ST.per[") == _choice_code(slow, "v_y").count("ST.per[")   # (q bound inside)
    def played(interp, seed):       # (what the game did, or the error it stopped on)
        try:
            st = interp.play("m", 3, seed)
        except (RuntimeRulesError, IllegalMoveError) as e:
            return str(e)
        return repr(st.reports), [(e.kind, e.seat, repr(e.detail)) for e in st.log]
    outcomes = [played(fast, seed) for seed in range(16)]
    assert outcomes == [played(slow, seed) for seed in range(16)]
    assert all(isinstance(o, tuple) for o in outcomes)              # (every game ends)


WRITTEN_FILTERS = """
game g "G"
enum colour { red, blue, green }
state { deck: pile of colour = [red, blue, green, green, blue, green] }
per seat { hand: pile of colour }
def spins(cards: pile of colour, k: colour) = any(c == k for c in cards)
def breaks(cards: pile of colour, k: colour) = any(c == k and 10 // (size(cards) - 3) > 0 for c in cards)
def hides(x: colour, k: colour) = any(c == k for c in [red, blue]) or x == red
def via(cards: pile of colour, k: colour) = any(spins(cards, c) and c == k for c in cards)
mode spin "Spin" players 2 {
  seats players
  for s in seats { deal 3 from deck to hand(s) }
  for p in seats { choose k in hand(p) where spins(hand(p), k) by p }
}
mode div "Div" players 2 {
  seats players
  for s in seats { deal 3 from deck to hand(s) }
  for p in seats { choose j in hand(p) where breaks(hand(p), j) by p }
}
mode hide "Hide" players 2 {
  seats players
  for s in seats { deal 3 from deck to hand(s) }
  for p in seats {
    choose c in hand(p) where hides(green, c) by p
    choose v in hand(p) where via(hand(p), v) by p
  }
  report done = 1
}
"""


def test_an_error_inside_a_definition_written_into_a_filter_is_located_in_it(tmp_path, monkeypatch):
    """A definition with a loop written into a choice's filter: a division by zero inside
    it, and a budget run out in its loop, are located at the definition's line, with the
    same words as the baseline's (which calls it); a definition whose loop binds the name
    of an argument (``hides(green, c)``, its loop over ``c``) is called, and so is one
    whose loop calls a definition (``via``: worth the memo it would lose); their options
    are the baseline's."""
    from rulewright.compiler.interpret import interpreter
    program = load(spec(tmp_path, WRITTEN_FILTERS))
    fast, slow = Interpreter(program), Interpreter(program, fast=False)
    assert "f_spins(" not in _choice_code(fast, "v_k") and "f_breaks(" not in _choice_code(fast, "v_j")
    assert "f_spins(" in _choice_code(slow, "v_k") and "f_breaks(" in _choice_code(slow, "v_j")
    assert "f_hides(" in _choice_code(fast, "v_c") and "f_via(" in _choice_code(fast, "v_v")
    for seed in range(8):
        games = [interp.play("hide", 2, seed) for interp in (fast, slow)]
        assert [[(e.kind, repr(e.detail)) for e in g.log] for g in games[:1]] == \
            [[(e.kind, repr(e.detail)) for e in g.log] for g in games[1:]]
    said = []
    for interp in (fast, slow):
        with pytest.raises(RuntimeRulesError) as e:
            interp.play("div", 2, 0)
        said.append(str(e.value))
    assert said[0] == said[1] and ":7:" in said[0].split(": error")[0], said
    # the first budget the baseline's game runs out of inside the definition's loop
    for steps in range(1, 60):
        monkeypatch.setattr(interpreter, "GAME_STEPS", steps)
        with pytest.raises(RuntimeRulesError) as e:
            slow.play("spin", 2, 0)
        if ":6:" in str(e.value).split(": error")[0]:
            break
    else:
        raise AssertionError("the baseline never ran out inside the definition")
    with pytest.raises(RuntimeRulesError) as e2:
        fast.play("spin", 2, 0)
    assert str(e2.value) == str(e.value) and "steps" in str(e.value)


COUNTED_AS_WRITTEN = """
game g "G"
enum colour { red, blue, green, white, black, grey }
state { deck: pile of colour = [red, blue, green, white, black, grey] }
per seat { hand: pile of colour }
def spins(cards: list of colour, k: colour) = any(c == k for c in cards)
def same(a: colour, b: colour) = a == b or b != grey
def near(k: colour) = any(same(c, k) for c in [red, blue])
def ident(xs: pile of colour) = xs
def konst(k: colour) = [red, blue, green]
def deckof(k: colour) = deck
mode constant "Constant" players 2 {
  seats players
  for s in seats { deal 3 from deck to hand(s) }
  for p in seats { choose k in hand(p) where spins([red, blue, green, white], k) by p }
  report done = 1
}
mode own "Own" players 2 {
  seats players
  for s in seats { deal 3 from deck to hand(s) }
  for p in seats { choose k in hand(p) where any(same(c, k) for c in [red, blue]) by p }
  report done = 1
}
mode called "Called" players 2 {
  seats players
  for s in seats { deal 3 from deck to hand(s) }
  for p in seats { choose k in hand(p) where near(k) by p }
  report done = 1
}
mode name "Name" players 2 {
  seats players
  for s in seats { deal 3 from deck to hand(s) }
  for p in seats { choose k in hand(p) where count(c for c in ident(hand(p)) if c != k) >= 0 by p }
  report done = 1
}
mode constants "Constants" players 2 {
  seats players
  for s in seats { deal 3 from deck to hand(s) }
  for p in seats { choose k in hand(p) where count(c for c in konst(k) if c != k) >= 0 by p }
  report done = 1
}
mode state "State" players 2 {
  seats players
  for s in seats { deal 2 from deck to hand(s) }
  for p in seats { choose k in hand(p) where count(c for c in deckof(k) if c != k) >= 0 by p }
  report done = 1
}
"""


@pytest.mark.parametrize("mode", ["constant", "own", "called", "name", "constants", "state"])
def test_a_loop_is_counted_as_the_rules_write_it_whatever_is_written_into_it(tmp_path, monkeypatch, mode):
    """A loop over a parameter that a constant would be written into, a loop over a few
    constants that calls a definition written into it (in a filter, in a definition), and
    loops over a call whose body written in is a name, a constant or a state read:
    counted as the rules write them, so for every budget the game stops where, and as, the
    baseline's does, or finishes as it does. (Every value a definition is asked of here is
    new to it: a remembered value would be given again without its steps.)"""
    program = load(spec(tmp_path, COUNTED_AS_WRITTEN))
    assert "f_same(" not in Interpreter(program)._func_src[fname("near")]      # (written in, and counted)
    _stops_as_the_baseline_under_every_budget(program, mode, 60, monkeypatch)


def _stops_as_the_baseline_under_every_budget(program, mode: str, most: int, monkeypatch) -> None:
    """Under every budget of a game below ``most`` steps, the two-player game of ``mode``
    (seed 0) stops where and as the baseline's does, or finishes as it does; both are
    seen. (Fresh interpreters: a value remembered from a game before is given again
    without its steps.)"""
    from rulewright.compiler.interpret import interpreter

    def outcome(fast):
        try:
            return Interpreter(program, fast=fast).play(mode, 2, 0).reports
        except RuntimeRulesError as e:
            return str(e)
    stopped = 0
    for steps in range(1, most):
        monkeypatch.setattr(interpreter, "GAME_STEPS", steps)
        said = outcome(True)
        assert said == outcome(False), steps
        stopped += isinstance(said, str)
    assert 5 < stopped < most - 1             # (both ways seen)


COLUMN_WRITTEN_IN = """
game g "G"
enum colour { red, blue, green }
table tile (colours: list of colour) {
  a | "red blue"
  b | "green"
  c | "red red green"
  d | "blue"
  e | "red green"
  f | "green green"
}
state { deck: pile of tile = [a, b, c, d, e, f] }
per seat { hand: pile of tile }
def colours_of(t: tile) = t.colours
def reds(t: tile) = count(c for c in colours_of(t) if c == red)
mode m "M" players 2 {
  seats players
  for s in seats { deal 3 from deck to hand(s) }
  for p in seats { choose t in hand(p) where reds(t) >= 0 by p }
  report done = 1
}
"""


def test_a_loop_over_a_definition_written_in_is_counted_though_it_gives_a_column(tmp_path, monkeypatch):
    """``count(c for c in colours_of(t) ...)``: a loop over a call, counted, though the
    call written in is a table's column of a few values (which a loop over, as written,
    would not count): every budget stops the game where the baseline's stops it."""
    program = load(spec(tmp_path, COLUMN_WRITTEN_IN))
    assert "f_colours_of(" not in Interpreter(program)._func_src[fname("reds")]
    _stops_as_the_baseline_under_every_budget(program, "m", 40, monkeypatch)


DEFINITIONS_WRITTEN_IN = """
game g "G"
enum colour { red, blue, green }
grid board: 5 by 5 of colour
def ident(xs: list of colour) = xs
def over_name(xs: list of colour) = count(x for x in ident(xs) if x != green)
def over_list(k: colour) = count(x for x in ident([red, blue, k]) if x != green)
def konst(k: colour) = [red, blue, green]
def over_constant(k: colour) = count(x for x in konst(k) if x != k)
def a(x: colour) = b(x)
def b(x: colour) = [x, x, red]
def over_chain(k: colour) = count(x for x in a(k) if x != green)
def isred(g: board, x: cell) = g[x] == red
def taken(g: board, x: cell) = occupied(g, x)
def reds(g: board) = count(c in cells(g) if isred(g, c))
def any_red(g: board) = any(isred(g, c) for c in cells(g))
def any_taken(g: board) = any(taken(g, c) for c in cells(g))
def red_sum(g: board) = sum(1 for c in cells(g) if isred(g, c))
"""


def test_a_definition_written_in_is_a_call_to_the_loops_and_tests_around_it(tmp_path):
    """A loop over a call whose body written in is a name or a constant, a chain of calls,
    a grid's cells tested by a definition (a call as written: no index of the grid nor set
    operation answers it): under every budget, the value or the stop of the baseline's, at
    its place. (Fresh interpreters: a remembered value is given again without its steps.)"""
    from rulewright.compiler.semantics import runtime as rt
    program = load(spec(tmp_path, DEFINITIONS_WRITTEN_IN))
    grid = Interpreter(program).board([["red", None, None, None, None]] + [[None] * 5] * 4)
    cases = [("over_name", (("red", "blue", "green"),)), ("over_list", ("red",)), ("over_constant", ("red",)),
             ("over_chain", ("red",)), ("reds", (grid,)), ("any_red", (grid,)), ("any_taken", (grid,)),
             ("red_sum", (grid,))]
    for name, args in cases:
        stopped = 0
        for limit in range(1, 40):
            said = []
            for fast in (True, False):
                try:
                    with rt.bounded("the check", limit):
                        said.append(repr(Interpreter(program, fast=fast).call(name, *args)))
                except RuntimeRulesError as e:
                    said.append(str(e))
            assert said[0] == said[1], (name, limit)
            stopped += "steps" in said[0]
        assert 0 < stopped < 39, name           # (both ways seen)


BEHIND_AN_IF = """
game g "G"
enum colour { red, blue, green }
state { deck: pile of colour = [red, blue, green, red, blue, green]  leader: seat }
per seat { hand: pile of colour }
def beats(k: colour, t: seat) = t.title == "x" or k == red
def keep(a: pile of colour, b: pile of colour) = a
mode m "M" players 2 {
  seats players
  for s in seats { deal 3 from deck to hand(s) }
  let l = leader
  for p in seats {
    choose k in (if l == none then [red] else hand(l)) where k == red or size(hand(l)) > 0 by p
    choose j in keep(hand(p), hand(l)) where size(hand(p)) < 10 or size(hand(l)) > 0 by p
  }
  report done = 1
}
mode o "O" players 2 {
  seats players
  for s in seats { deal 3 from deck to hand(s) }
  let l = leader
  let n = 0
  for p in seats {
    choose k in take(hand(p), 1 // n) + hand(l) where size(hand(p)) < 10 or size(hand(l)) > 0 by p
  }
}
mode n "N" players 2 {
  seats players
  for s in seats { deal 3 from deck to hand(s) }
  let t = leader
  for p in seats {
    choose k in hand(p) where beats(k, t) by p
  }
}
"""


def test_only_a_read_the_collection_makes_first_is_read_before_it(tmp_path):
    """(Read first, ``hand(l)`` of no seat failed where the game, which never reads it
    behind an ``if`` or in an argument a definition passes over, goes on; where the
    collection fails before it reads, it fails so; and an error in a definition the filter
    calls is located in the definition.)"""
    program = load(spec(tmp_path, BEHIND_AN_IF))
    fast, slow = Interpreter(program), Interpreter(program, fast=False)
    assert fast.play("m", 2, 0).reports == slow.play("m", 2, 0).reports == {"done": 1}
    for mode, where in (("n", ":6:"), ("o", ":24:")):
        said = []
        for interp in (fast, slow):
            with pytest.raises(RuntimeRulesError) as e:
                interp.play(mode, 2, 0)
            said.append(str(e.value))
        assert said[0] == said[1] and where in said[0].split("error")[0], said


LOOP_NAMED_LIKE_A_GRID = """
game g "G"
enum colour { red, blue }
grid board: 2 by 2 of colour
def has_red(h: board, x: cell) = any(g[x] == red for g in [h])
scoring pts(g: board, o: board) {
  step tiles "Tiles" {
    choose x in cells(g) where any(g[x] == red for g in [o])
    points 1
  }
}
scoring via(g: board, o: board) {
  step tiles "Tiles" {
    choose x in cells(g) where has_red(o, x)
    points 1
  }
}
def count_in(g: board, o: board) = count(c in cells(g) if any(g[c] == red for g in [o]))
def same(g: board, xv_g: board) = g[(0, 0)] == xv_g[(0, 0)]
"""


def test_a_loop_that_names_its_grid_as_a_parameter_reads_its_own(tmp_path):
    """A loop inside a scoring or a definition that binds the name of one of its grid
    parameters reads the loop's grid, not the parameter's (the parameter's reads were
    rewritten as text, the loop's with them: both interpreters chose from the wrong grid);
    and a parameter whose name ends with another's is not rewritten with it."""
    program = load(spec(tmp_path, LOOP_NAMED_LIKE_A_GRID))
    for interp in (Interpreter(program), Interpreter(program, fast=False)):
        g = interp.board([["blue", "blue"], ["blue", "blue"]])
        o = interp.board([["red", None], [None, None]])
        assert interp.call("pts", g, o).choices == {"x": (0, 0)}
        assert interp.call("via", g, o).choices == {"x": (0, 0)}
        assert interp.call("count_in", g, o) == 1
        assert interp.call("same", g, o) is False and interp.call("same", g, g) is True   # (xv_g: a name of its own)


RECORDS = """
game g "G"
record pair { a: int, b: int }
def a_of(p: pair) = p.a
def sum_of(p: pair, ps: list of pair) = p.a + size(ps)
def made(x: int, y: int) = new pair(a = x, b = y)
def judged(x: int, y: int) = sum_of(made(x, y), [made(x, y)]) + a_of(made(x, y) with (a = y))
def moved(p: pair, y: int) = sum_of(p with (a = y), [p with (a = y), p with (a = y + 1)])
def apart(x: int) = size([new pair(a = x, b = k) for k in [1, 2]])
"""


def test_a_record_a_definition_makes_twice_from_the_same_values_is_made_once(tmp_path):
    """``made(x, y)``, written into ``judged`` three times, is made once there (and the record
    changed from it once more); ``p with (a = y)`` twice in ``moved`` once, ``a = y + 1``
    apart; records made from a loop's values are made at each turn. Values as the baseline's."""
    program = load(spec(tmp_path, RECORDS))
    fast, slow = Interpreter(program), Interpreter(program, fast=False)
    judged = fast.source.split("def f_judged(")[1].split("\ndef ")[0]
    assert judged.count("_TN(") == 3 and judged.count(":= _TN(") == 3 and judged.count("_c0 := ") == 3
    moved = fast.source.split("def f_moved(")[1].split("\ndef ")[0]
    assert moved.count("_rt.replaced(") == 3 and moved.count(":= _rt.replaced(") == 2
    apart = fast.source.split("def f_apart(")[1].split("\ndef ")[0]
    assert ":=" not in apart
    pair = program.records["pair"].cls
    for x, y in ((1, 2), (0, 0), (-3, 7)):
        same_as_baseline(fast, slow, "judged", x, y)
        same_as_baseline(fast, slow, "moved", pair(x, y), y)
        same_as_baseline(fast, slow, "apart", x)
