"""The operator table: every operator defined once in ``compiler.semantics.operators``
(typing, concrete meaning), every one either encoded for CP-SAT in
``solver.encode.operators`` under the same name or marked ``constant_only``; and, for the
operators over numbers and truth values, the encoding agrees with the meaning on
every combination of sample operands (each operand a CP-SAT variable fixed to the
value, so the encoding is what computes the result)."""
from __future__ import annotations

import itertools
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st
from ortools.sat.python import cp_model

from rulewright.compiler import ir as I
from rulewright.compiler import load
from rulewright.compiler.diagnostics import Span
from rulewright.compiler.semantics import runtime as rt
from rulewright.compiler.semantics.operators import AGGREGATES, OPERATORS
from rulewright.compiler.types import BOOL, INT
from helpers import ROOT
from rulewright.solver.encode import Encoder
from rulewright.solver.encode.operators import AGG_ENCODINGS, ENCODINGS
from rulewright.solver.queries import read_int
from rulewright.solver.symbolic import BoolV, IntV

SPAN = Span("<test>", 1, 1, 1, 2)


def test_every_operator_has_an_encoding_or_is_constant_only():
    for name, op in OPERATORS.items():
        assert (name in ENCODINGS) != op.constant_only, name
    for name, agg in AGGREGATES.items():
        assert (name in AGG_ENCODINGS) != agg.constant_only, name
    assert set(ENCODINGS) <= set(OPERATORS) and set(AGG_ENCODINGS) <= set(AGGREGATES)


def test_the_compiler_imports_no_solver_module():
    """The meaning lives below both evaluators: loading and interpreting a spec loads
    neither the solver nor OR-Tools."""
    code = ("import sys; from rulewright.compiler import load; from rulewright.compiler.interpret import Interpreter; "
            "from rulewright.compiler.docgen import operators_page; "
            "p = load('spec/ecosystem_savanna'); Interpreter(p).play('standard', 3, 1); operators_page(); "
            "bad = [m for m in sys.modules if m.startswith(('rulewright.solver', 'solver', 'ortools'))]; "
            "print(bad); sys.exit(1 if bad else 0)")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    folder = tmp_path_factory.mktemp("ops")
    (folder / "game.rules").write_text('game ops "Operators"\n')
    return load(folder)


def _fixed(enc: Encoder, value, name: str):
    """A symbolic operand fixed to ``value``: the model, not Python, knows it."""
    if isinstance(value, bool):
        var = enc.new_bool(name)
        enc.model.add(var == int(value))
        return BoolV(var)
    var = enc.new_int(value, value, name)
    return IntV({var.index: (var, 1)}, 0, value, value)


def _solved(program, op: str, values: tuple, types: tuple, result_type):
    enc = Encoder(program)
    names = [f"x{i}" for i in range(len(values))]
    node = I.Op(result_type, SPAN, op, [I.Local(t, SPAN, n) for t, n in zip(types, names)])
    env = {n: _fixed(enc, v, n) for n, v in zip(names, values)}
    result = enc.encode(node, env)
    solver = cp_model.CpSolver()
    assert solver.solve(enc.model) in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    value = read_int(solver, result)
    return bool(value) if result_type == BOOL else value


INTS = (-7, -1, 0, 3, 8)
NONZERO = (-3, -1, 2, 5)
NUMERIC = {"add": INTS, "sub": INTS, "mul": INTS, "min2": INTS, "max2": INTS,
           "floordiv": NONZERO, "mod": NONZERO}
COMPARISONS = ("eq", "ne", "lt", "le", "gt", "ge")


@pytest.mark.parametrize("op", sorted(NUMERIC))
def test_a_numeric_operator_encodes_its_meaning(program, op):
    for a, b in itertools.product(INTS, NUMERIC[op]):
        assert _solved(program, op, (a, b), (INT, INT), INT) == OPERATORS[op].evaluate(a, b), (op, a, b)


@pytest.mark.parametrize("op", ["neg", "abs"])
def test_a_unary_numeric_operator_encodes_its_meaning(program, op):
    for a in INTS:
        assert _solved(program, op, (a,), (INT,), INT) == OPERATORS[op].evaluate(a), (op, a)


@pytest.mark.parametrize("op", COMPARISONS)
def test_a_comparison_encodes_its_meaning(program, op):
    for a, b in itertools.product(INTS, INTS):
        assert _solved(program, op, (a, b), (INT, INT), BOOL) == OPERATORS[op].evaluate(a, b), (op, a, b)


@pytest.mark.parametrize("op", ["and", "or", "not", "eq", "ne"])
def test_a_logical_operator_encodes_its_meaning(program, op):
    arity = 1 if op == "not" else 2
    for values in itertools.product((False, True), repeat=arity):
        got = _solved(program, op, values, (BOOL,) * arity, BOOL)
        assert got == OPERATORS[op].evaluate(*values), (op, values)


def test_if_encodes_its_meaning(program):
    for c, a, b in itertools.product((False, True), INTS[:3], INTS[2:]):
        got = _solved(program, "if", (c, a, b), (BOOL, INT, INT), INT)
        assert got == OPERATORS["if"].evaluate(c, a, b), (c, a, b)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from("abcdef"), max_size=8), st.integers(0, 8))
def test_subsets_with_repeats_are_the_distinct_ones_in_order(items, most):
    # a hand holds copies of a card: each sub-collection once, by size, then in order
    values = sorted(items)
    expected = []
    for k in range(min(most, len(values)) + 1):
        expected.extend(sorted(set(itertools.combinations(values, k))))
    assert rt._subsets(tuple(items), most) == tuple(expected)


def _groups_walked(cells, table) -> tuple:
    """Connected groups as the rules read them, walked plainly: each cell not yet grouped
    starts a group, which takes every cell related to one of its cells, in the order met."""
    members, seen, out = list(dict.fromkeys(cells)), set(), []
    for start in members:
        if start in seen:
            continue
        group = [start]
        seen.add(start)
        i = 0
        while i < len(group):
            for n in table[group[i]]:
                if n in members and n not in seen:
                    seen.add(n)
                    group.append(n)
            i += 1
        out.append(tuple(group))
    return tuple(out)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 4)), max_size=24),
       st.sampled_from([((-1, 0), (1, 0), (0, -1), (0, 1)), ((1, 1), (-1, -1)), ((0, 1),)]))
def test_groups_are_the_connected_groups_in_the_order_met(cells, offsets):
    """``rt.groups`` (its shortcuts: no cell or one, a cell with no neighbour left) against a
    plain walk: the same groups, each in the same order, for any cells (repeated too) under
    a relation either way or one way."""
    table = rt.RelationTable(rt.Relation(offsets=offsets), 4, 5)
    assert rt.groups(cells, table) == _groups_walked(cells, table)
