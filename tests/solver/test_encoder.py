"""One semantics, two evaluators: the CP-SAT encoding agrees with the interpreter.

Each test builds a model whose grid is made of free variables pinned to a
random grid by constraints (so nothing is folded away and every operator's
encoding is used), lets the solver pick the lion's prey to maximise the score,
and compares every step with the interpreter's.
"""
import random
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ortools.sat.python import cp_model

from helpers import savanna
from rulewright.compiler import load
from rulewright.compiler.semantics import runtime as rt
from rulewright.compiler.interpret import Interpreter
from rulewright.solver.encode import Encoder
from rulewright.solver.queries import run_query

CARDS = ["water", "prairie", "tree", "gazelle", "zebra", "giraffe", "cheetah", "lion", "elephant",
         "hyena", "vulture"]


def solve_fixed(program, board: rt.Board, rivals=()):
    enc = Encoder(program)
    b = enc.new_board(program.grids["ecosystem"], "g", allow_free=False)
    for cell, e in b.cells.items():
        enc.model.add_bool_or([e.lits[board.cards[cell]]])
    score = enc.scoring(program.scorings["score"], [b, tuple(rivals)], 1, None)
    enc.model.maximize(enc.intv(score).expr())
    assert enc.model.validate() == ""
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = 30
    assert solver.solve(enc.model) == cp_model.OPTIMAL
    value = lambda v: v if isinstance(v, int) else solver.value(enc.intv(v).expr())  # noqa: E731
    prey = tuple(c for c, lit in score.choices["lion_prey"].members.items()
                 if (lit if isinstance(lit, bool) else solver.boolean_value(lit)))
    return {k: value(v) for k, v in score.steps.items()}, prey


def agree(program, interp, board, rivals=()):
    """The solver's steps equal the interpreter's for the solver's own lion prey, and its
    total equals the interpreter's best (several prey may tie)."""
    steps, prey = solve_fixed(program, board, rivals)
    forced = interp.call("score", board, tuple(rivals), forced={"lion_prey": prey})
    assert steps == dict(forced.steps)
    assert sum(steps.values()) == int(interp.call("score", board, tuple(rivals)))


def random_board(program, rng: random.Random, weights=None) -> rt.Board:
    g = program.grids["ecosystem"]
    cards = {cell: rng.choices(CARDS, weights=weights)[0] for cell in g.cells}
    return rt.Board(g.name, g.rows, g.cols, g.floating, cards)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), rivals=st.lists(st.integers(0, 6), max_size=3))
def test_solver_scores_like_the_interpreter(seed, rivals):
    program, interp = savanna()
    board = random_board(program, random.Random(seed))
    agree(program, interp, board, rivals)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9))
def test_agreement_on_predator_heavy_grids(seed):
    # Many gazelles, zebras, predators and scavengers: the face-down chain matters.
    program, interp = savanna()
    weights = [1, 3, 1, 5, 3, 1, 4, 4, 2, 4, 4]
    board = random_board(program, random.Random(seed), weights)
    agree(program, interp, board)


@pytest.mark.parametrize("overrides", [
    {"cheetah_range": "lines"}, {"hyena_range": "manhattan"}, {"elephants_below_zero": False},
    {"vulture_range": "just_below"}, {"second_place_ties": "void"},
])
def test_agreement_under_every_reading(overrides):
    program, interp = savanna(**overrides)
    rng = random.Random(7)
    for _ in range(4):
        board = random_board(program, rng, [1, 3, 1, 5, 3, 1, 4, 4, 2, 4, 4])
        agree(program, interp, board, (2,))


# ---------------------------------------------------------------- allocations and tuples
claims_st = st.lists(st.tuples(st.booleans(),                                   # present
                               st.tuples(st.integers(0, 3), st.integers(0, 2)),  # key
                               st.integers(0, 4)),                              # need
                     min_size=1, max_size=5)


def _pinned(enc, value: int, lo: int, hi: int):
    """An integer variable pinned to a value by a constraint (so nothing is folded)."""
    var = enc.new_int(lo, hi, enc.fresh("pin"))
    enc.model.add(var == value)
    return enc.var_int(var, lo, hi)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(claims_st, st.integers(0, 12), st.sampled_from([(True, False), (False, False), (True, True), (False, True)]))
def test_allocate_encoding_agrees_with_runtime(claims, supply, mode):
    """allocate / allocate_skipping / allocate_even / allocate_skipping_even: the encoded shares of claimants
    whose presence, keys and needs are variables equal runtime.allocate's."""
    stop, even = mode
    program, _ = savanna()
    enc = Encoder(program)
    enc.product_terms = 2
    symbolic = []
    for i, (present, key, need) in enumerate(claims):
        guard = enc.new_bool(f"present{i}")
        enc.model.add(guard == int(present))
        k = rt.as_tuple(key)
        symbolic.append((guard, [_pinned(enc, k[0], 0, 3), _pinned(enc, k[1], 0, 2)],
                         _pinned(enc, need, 0, 4), f"c{i}"))
    from rulewright.solver.symbolic import ListV
    table = enc.allocate([(g, ListV([(True, x) for x in key]), need, who) for g, key, need, who in symbolic],
                         supply, stop, even)
    shares = {who: (v() if callable(v) else v) for _, who, v in table.entries}
    shares = {who: enc.intv(v) for who, v in shares.items()}
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    assert solver.solve(enc.model) in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    got = {who: (v if isinstance(v, int) else solver.value(v.expr())) for who, v in shares.items()
           if claims[int(who[1:])][0]}
    want = rt.allocate(supply, [(key, f"c{i}", need) for i, (present, key, need) in enumerate(claims) if present],
                       stop, even)
    assert got == want


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(-3, 3), min_size=1, max_size=4), st.lists(st.integers(-3, 3), min_size=4, max_size=4),
       st.sampled_from(["<", "<=", ">", ">=", "==", "!="]))
def test_tuple_comparison_encoding_agrees(a, b, op):
    b = b[:len(a)]
    enc = Encoder(savanna()[0])
    xa = [_pinned(enc, v, -3, 3) for v in a]
    lit = enc.lex(xa, op, list(b))
    solver = cp_model.CpSolver()
    assert solver.solve(enc.model) == cp_model.OPTIMAL
    got = lit if isinstance(lit, bool) else solver.boolean_value(lit)
    want = {"<": tuple(a) < tuple(b), "<=": tuple(a) <= tuple(b), ">": tuple(a) > tuple(b),
            ">=": tuple(a) >= tuple(b), "==": tuple(a) == tuple(b), "!=": tuple(a) != tuple(b)}[op]
    assert got == want


# ---------------------------------------------------------------- aggregates through a query
HERD_SPEC = """
game t "Test"
record animal {{ name: text, strength: int, hearts: int, weight: int }}
def zoo = [new animal(name = "a", strength = {s[0]}, hearts = {h[0]}, weight = 3),
           new animal(name = "b", strength = {s[1]}, hearts = {h[1]}, weight = -2),
           new animal(name = "c", strength = {s[2]}, hearts = {h[2]}, weight = 5),
           new animal(name = "d", strength = {s[3]}, hearts = {h[3]}, weight = 1),
           new animal(name = "e", strength = {s[4]}, hearts = {h[4]}, weight = -1)]
def shares(herd: list of animal, supply: int) = {agg}(x.hearts for x in herd by x.strength from supply)
def value(herd: list of animal, supply: int) = sum(a.weight * shares(herd, supply)[a] for a in herd)
query best "The herd whose shares weigh most" {{
  input supply: int = 0
  choose herd subset of zoo
  maximize value(herd, supply)
}}
query pinned "The value of one herd, chosen under a constraint" {{
  input supply: int = 0
  input names: list of text
  choose herd subset of zoo
  require all((a.name in names) == (a in herd) for a in zoo)
  maximize value(herd, supply)
}}
"""


@pytest.mark.parametrize("agg", ["allocate", "allocate_skipping", "allocate_even", "allocate_skipping_even"])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(0, 2), min_size=5, max_size=5), st.lists(st.integers(0, 4), min_size=5, max_size=5),
       st.integers(0, 10), st.lists(st.booleans(), min_size=5, max_size=5))
def test_allocation_aggregates_agree_through_a_query(tmp_path_factory, agg, strengths, hearts, supply, picked):
    """Each allocation aggregate, used in a query whose claimants are chosen (a subset,
    so nothing is folded): the solver's optimum equals the best herd the interpreter
    finds over every subset, and its witness replays to that value; with the herd
    pinned by a constraint, the solver's value is the interpreter's for that herd."""
    spec = tmp_path_factory.mktemp("herd") / "t.rules"
    spec.write_text(HERD_SPEC.format(agg=agg, s=strengths, h=hearts))
    program = load(spec)
    interp = Interpreter(program)
    zoo = interp.call("zoo")
    best = max(interp.call("value", herd, supply)
               for n in range(len(zoo) + 1) for herd in combinations(zoo, n))
    answer = run_query(program, "best", {"supply": supply}, time_limit=30, workers=1)
    assert answer.status == "OPTIMAL" and answer.replayed
    assert answer.objective == best, (agg, strengths, hearts, supply, answer.witness)
    herd = tuple(a for a, keep in zip(zoo, picked) if keep)
    names = tuple(a.f_name for a in herd)
    answer = run_query(program, "pinned", {"supply": supply, "names": names}, time_limit=30, workers=1)
    assert answer.status == "OPTIMAL"
    assert answer.objective == interp.call("value", herd, supply), (agg, strengths, hearts, supply, names)


# ---------------------------------------------------------------- a definition's memo and its guards
GUARD_SPEC = """
game t "Test"
def table = {{0: {t[0]}, 1: {t[1]}, 2: {t[2]}, 3: {t[3]}}}
def zoo = [1, 2, 3]
def bonus(herd: list of int, x: int) = table[size(herd)]
query best "Inside a sum over the herd, then outside it" {{
  choose herd subset of zoo
  maximize sum(bonus(herd, x) for x in herd) + bonus(herd, 1) + size(herd)
}}
"""


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(0, 12), min_size=4, max_size=4))
def test_a_call_encoded_under_a_guard_is_not_reused_where_it_does_not_hold(tmp_path_factory, table):
    """Inside the sum, ``bonus(herd, 1)`` only matters when 1 is in the herd, and the
    table lookup uses that (the herd has at least one animal there). The same call
    outside the sum must not reuse that encoding: with a table worth most at an empty
    herd, reusing it gave every herd the value of a non-empty one and a wrong optimum
    that the replay could not see (the witness's own value was right)."""
    spec = tmp_path_factory.mktemp("guard") / "t.rules"
    spec.write_text(GUARD_SPEC.format(t=table))
    program = load(spec)
    interp = Interpreter(program)
    state = interp.new_state([rt.Seat(0, "p1", "player", "Player 1")])   # the position path: definitions memoised
    zoo = interp.call("zoo")
    best = max(sum(interp.call("bonus", herd, x) for x in herd) + interp.call("bonus", herd, 1) + len(herd)
               for n in range(len(zoo) + 1) for herd in combinations(zoo, n))
    answer = run_query(program, "best", {}, time_limit=30, workers=1, state=state)
    assert answer.status == "OPTIMAL" and answer.replayed
    assert answer.objective == best, (table, answer.witness)
