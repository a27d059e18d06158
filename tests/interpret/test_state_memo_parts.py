"""The memo of the definitions that read the state, in parts by what each reads: a statement
clears only the parts that read what it may change, and every value is still the one the
baseline (no memo) gives."""
from rulewright.compiler import ir as I, load
from rulewright.compiler.interpret import Interpreter, writes
from rulewright.compiler.interpret import memo as memo_module
from rulewright.compiler.interpret.memo import StateMemo, _typical, state_read

from helpers import spec

# ``held`` is set to the pile ``hand``: it keeps the cards the hand held then, whatever the
# hand becomes (a value of the language never changes)
ALIASED = """
game g "G"
enum colour { red, blue }
state { a: int   b: int   hand: pile of colour = [red, blue, red]   held: list of colour }
def reds_held = size([c for c in held if c == red])
def reds_in_hand = size([c for c in hand if c == red])
def below_a = size([x for x in [1, 2, 3] if x < a])
def below_a_or_b = size([x for x in [1, 2, 3] if x < a or x < b])
mode play "Play" players 1 {
  seats players
  set held = hand
  report r1 = [reds_held, reds_in_hand, below_a, below_a_or_b]
  take [red] from hand
  report r2 = [reds_held, reds_in_hand, below_a, below_a_or_b]
  set a = 3
  report r3 = [reds_held, reds_in_hand, below_a, below_a_or_b]
  set b = 4
  report r4 = [reds_held, reds_in_hand, below_a, below_a_or_b]
  checkpoint halfway
  take [blue] from hand
  report r5 = [reds_held, reds_in_hand, below_a, below_a_or_b, size(hand)]
}
"""

WANTED = {"r1": (2, 2, 0, 0), "r2": (2, 1, 0, 0), "r3": (2, 1, 2, 2), "r4": (2, 1, 2, 3), "r5": (2, 1, 2, 3, 1)}


def test_each_value_after_each_change_is_the_baseline_s(tmp_path):
    program = load(spec(tmp_path, ALIASED))
    assert Interpreter(program).play("play", 1, 0).reports == WANTED
    assert Interpreter(program, fast=False).play("play", 1, 0).reports == WANTED


def _statements(program) -> list:
    return [st for st in program.modes["play"].body if not isinstance(st, I.Report)]


def test_what_each_statement_may_change(tmp_path):
    program = load(spec(tmp_path, ALIASED))
    changes = writes.Changes(program)
    got = [changes(st) for st in _statements(program)]
    assert [type(st).__name__ for st in _statements(program)] == ["SetVar", "Take", "SetVar", "SetVar", "Checkpoint", "Take"]
    assert got == [{"held"}, {"hand"}, {"a"}, {"b"}, None, {"hand"}]    # (None: anything)


def test_the_generated_procedures_clear_only_the_parts_that_read_what_changed(tmp_path):
    interp = Interpreter(load(spec(tmp_path, ALIASED)))
    memo = interp._sm
    reads_a, reads_ab = memo.part(frozenset({"a"})), memo.part(frozenset({"a", "b"}))
    reads_pile = memo.part(frozenset({"hand"}))
    for part in (reads_a, reads_ab, reads_pile):
        part["x"] = 1
    memo.clearing(frozenset({"b"}))()
    assert reads_a and not reads_ab and reads_pile
    memo.clearing(frozenset({"hand"}))()
    assert reads_a and not reads_pile
    memo.clearing(frozenset({"nothing read"}))()
    assert reads_a
    memo.clearing(None)()
    assert not reads_a
    assert "_SMW[" in interp.source and interp.source.count("_SM.clear()") == 1    # (the checkpoint)


def test_what_a_definition_reads_of_the_state():
    consts = {"K1": "a", "K2": "hand"}
    assert state_read("return ST.shared[K1] + ST.per[K2][v_p]", consts) == {"a", "hand"}
    assert state_read("return len(ST.players) + len(ST.seats)", consts) == set()
    assert state_read("return ST.log", consts) is None          # (read some other way: all of it)
    assert state_read("return ST.shared[K9]", consts) is None   # (a constant that names no variable)
    assert state_read("return 1", consts) == set()


def test_what_a_miss_costs_leaves_out_the_misses_the_process_waited_in():
    assert _typical([100] * 20 + [5_000_000]) == _typical([100] * 20)
    assert _typical([100, 300]) == 200 - memo_module._CLOCK_COST


def test_a_state_memo_part_is_made_once():
    memo = StateMemo()
    assert memo.part(frozenset({"a"})) is memo.part(frozenset({"a"}))
    assert memo.part(None) is not memo.part(frozenset())


def test_a_world_is_keyed_by_which_it_is_and_an_equal_one_gets_the_same_value(monkeypatch):
    """A definition of a thing and a collection of records, in the state's memo, keys the
    collection by identity: the same one is a hit, an equal one made anew is worked out
    again (the same value), and an entry is never given for another collection; in its
    trial and in the memo it leaves."""
    monkeypatch.setattr(memo_module, "MARGIN", 0)       # (the memo pays whatever the machine's speed)
    monkeypatch.setattr(memo_module, "_CLOCK_COST", 0)
    calls = []

    def fn(a, world):
        calls.append(world)
        return a + len(world)
    part: dict = {}
    ns: dict = {}
    ns["f_n"] = trial = memo_module._remembered_by_identity(fn, part, "f_n", ns, "f_n", {}, (1,))
    for stage in ("trial", "memo"):
        got = ns["f_n"]
        assert (got is trial) == (stage == "trial")
        calls.clear()
        world = tuple([(1, 2), (3, 4)])        # (made anew: not the one of the stage before)
        assert got(1, world) == 3 and got(1, world) == 3 and calls == [world]
        again = tuple(list(world))
        assert again == world and again is not world
        assert got(1, again) == 3 and calls[-1] is again        # (worked out again)
        assert got(2, world) == 4 and len(calls) == 3
        for entry in part.values():         # (each entry holds the collection it is for)
            assert entry[1][0] in (world, again) or entry[1][0] == ((0,),)
        for _ in range(memo_module.TRIAL_CALLS):    # (the trial ends: the memo stays)
            got(0, tuple([(0,)]))        # (a new one each time: a miss)
    assert ns["f_n"].__name__ == "lean"


def test_the_parameters_keyed_by_identity_are_collections_of_compound_values(tmp_path):
    program = load(spec(tmp_path, """
game g "G"
record thing { n: int }
def f(a: int, things: list of thing, ns: list of int, pairs: list of (int, int)) = a
mode play "Play" players 1 { seats players }
"""))
    assert writes.held_by_identity(program.funcs["f"]) == (1, 3)


def test_a_trial_keeps_the_memo_when_the_misses_cost_more_than_the_look_ups(monkeypatch):
    """(its own look-up timed on hits: with the misses made to cost far more it is kept, with
    them costing nothing it gives way)"""
    for dear, kept in ((True, True), (False, False)):
        clock = iter(range(0, 10**9, 10))
        ticks = {"n": 0}

        def now():
            return next(clock) + (10**6 if dear and ticks["n"] else 0)
        monkeypatch.setattr(memo_module, "perf_counter_ns", now)
        monkeypatch.setattr(memo_module, "_CLOCK_COST", 0)

        def fn(x):
            ticks["n"] = 1          # (a miss: the clock read after it jumps when misses are dear)
            return x * 2
        ns: dict = {}
        ns["f_x"] = memo_module.remembered(fn, {}, None, ns, "f_x")
        for i in range(memo_module.TRIAL_CALLS * 2):
            ticks["n"] = 0
            x = i % 50 if i % 10 else 1000 + i          # (mostly hits, a miss now and then)
            assert ns["f_x"](x) == x * 2
        assert ns["f_x"].__name__ == ("lean" if kept else "fn")


def test_parts_cleared_by_the_same_statements_are_one_and_each_clearing_clears_its_own():
    writes = [frozenset({"a", "b"}), frozenset({"c"}), frozenset({"d"}), frozenset({"e"})]
    memo = StateMemo(writes)
    ab, a, b = memo.part(frozenset({"a", "b"})), memo.part(frozenset({"a"})), memo.part(frozenset({"b"}))
    assert ab is a is b                     # (only the first statement changes any of them)
    c, d, e = (memo.part(frozenset({x})) for x in "cde")
    whole = memo.part(None)
    parts = [a, c, d, e, whole]
    for k in (2, 3, 4):                     # (two, three, more parts written out or in a loop)
        changed = frozenset("acde"[:k])
        for part in parts:
            part["x"] = 1
        memo.clearing(changed)()
        hit = [a, c, d, e][:k] + [whole]
        assert [not part for part in parts] == [any(part is h for h in hit) for part in parts]
    memo.clear()
    assert not any(parts)


SCORED = """
game g "G"
state { bonus: int }
scoring sc(n: int) "Sc" {
  step s "S" = n + bonus
}
def twice(n: int) = [sc(n), sc(n + 1)]
mode play "Play" players 1 {
  seats players
  report r1 = twice(1)
  set bonus = 5
  report r2 = twice(1)
}
"""


def test_a_definition_that_calls_a_scoring_is_cleared_by_any_change(tmp_path):
    """(a scoring's own reads are not followed: what calls one may read anything)"""
    program = load(spec(tmp_path, SCORED))
    fast = Interpreter(program).play("play", 1, 0).reports
    assert fast == Interpreter(program, fast=False).play("play", 1, 0).reports
    assert [int(x) for x in fast["r2"]] == [6, 7]


def test_a_trial_without_a_hit_ends_early_and_one_with_hits_runs_its_course(monkeypatch):
    """A definition no call of which repeats is given back as it is after ``NO_HIT_CALLS``
    calls, not ``TRIAL_CALLS``; one hit among them and the trial goes on, its end as before
    (the memo pays whatever the machine's speed here: it stays)."""
    monkeypatch.setattr(memo_module, "MARGIN", 0)
    monkeypatch.setattr(memo_module, "_CLOCK_COST", 0)
    for hit in (False, True):
        def fn(x):
            return x + 1
        ns: dict = {}
        ns["f_x"] = trial = memo_module.remembered(fn, {}, None, ns, "f_x")
        if hit:
            assert ns["f_x"](-1) == 0 and ns["f_x"](-1) == 0
        for i in range(memo_module.NO_HIT_CALLS - 1):
            assert ns["f_x"](i) == i + 1
        assert ns["f_x"] is trial
        assert ns["f_x"](10**6) == 10**6 + 1
        assert (ns["f_x"] is fn) == (not hit)
        for i in range(memo_module.TRIAL_CALLS):      # (half of them hits)
            assert ns["f_x"](10**7 + i // 2) == 10**7 + i // 2 + 1
        assert ns["f_x"].__name__ == ("fn" if not hit else "lean")
