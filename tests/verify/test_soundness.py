"""No false proof: verify's PROVED (and COUNTEREXAMPLE) against brute force.

A soundness campaign over small games where every input can be enumerated: an enum of three
cards and a fixed 2 x 3 grid, so a board is one of 4^6 = 4,096 fillings (each cell a card or
free) and a cell one of 6. Hypothesis writes rules, definitions, scorings, properties and
variants from a small grammar of templates (counts of a card, neighbours through three
relations, comparisons with small constants, and/or/not, weighted sums, min/max/abs, floor
division and remainder, tables of values, if-then-else); verify judges them, and the
interpreter, called on every member of the domain, judges verify:

- ``never_holds`` / ``always_holds``: PROVED never (always) means false (true) on every input;
  "can hold and can fail" means both witnesses do so and both sides exist;
- ``range``: PROVED means the least and the most are the brute-force minimum and maximum, each
  reached by its witness (definitions, a scoring and each of its steps);
- ``property``: PROVED means no member of the domain that meets its ``where`` breaks what
  ``holds``; a COUNTEREXAMPLE's witness meets the ``where`` and breaks it;
- ``differs`` (with a base): PROVED "changes nothing" means equal on every input; PROVED
  different means its witness gives the values it says in each program, and they differ.

Each rule's threshold is chosen from the brute-force values of what it compares (the least,
the most, one beyond), so that rules that never or always hold, and properties that just
hold or just fail, are frequent. Every check also counts what it confirmed, so a campaign
that stopped reaching verdicts (all UNKNOWN, all skipped) fails rather than passes.

The campaign found one false proof, fixed: differs took a table of values whose 'else'
changed for the base's own (``test_a_changed_default_of_a_table_of_values_is_not_the_same``
keeps its reproduction)."""
from __future__ import annotations

import itertools
import os
import tempfile
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings, strategies as st

from rulewright.compiler import load
from rulewright.compiler.interpret import Interpreter
from rulewright.solver.verify.run import verify

TIME_LIMIT = 5.0
KINDS = ("ant", "bee", "cow")
CARDS = KINDS + ("none",)
RELATIONS = ("adjacent", "diagonal", "across")
ROWS, COLS = 2, 3
CELLS = [(r, c) for r in range(ROWS) for c in range(COLS)]

HEAD = f"""game tiny "Tiny"
enum kind {{ {', '.join(KINDS)} }}
grid board: {ROWS} by {COLS} of kind
relation adjacent = offsets((-1, 0), (1, 0), (0, -1), (0, 1))
relation diagonal = offsets((-1, -1), (-1, 1), (1, -1), (1, 1))
relation across = rays((0, 1), (0, -1), (1, 0), (-1, 0))
"""

# (no shrinking: a failure prints the whole spec and the input that refutes it, and shrinking
# a case that costs a solver call each step takes minutes)
CAMPAIGN = settings(max_examples=int(os.environ.get("RULEWRIGHT_SOUNDNESS_EXAMPLES", "20")), deadline=None, derandomize=True, database=None,
                    phases=(Phase.explicit, Phase.generate), suppress_health_check=list(HealthCheck))


# ---------------------------------------------------------------- the grammar
@dataclass(frozen=True)
class Hole:
    """A place of a template that a variant may change: its value and the values it may take."""
    value: str
    choices: tuple[str, ...]
    mutable: bool = True


@dataclass(frozen=True)
class Node:
    """A template: ``@`` marks where each part goes."""
    fmt: str
    parts: tuple = ()


def render(t) -> str:
    if isinstance(t, Hole):
        return t.value
    pieces = t.fmt.split("@")
    assert len(pieces) == len(t.parts) + 1, t
    return "".join(p + (render(x) if i < len(t.parts) else "") for i, (p, x) in
                   enumerate(itertools.zip_longest(pieces, t.parts)))


def holes(t, path=()):
    """Every mutable hole, with the path that leads to it."""
    if isinstance(t, Hole):
        return [path] if t.mutable and len(t.choices) > 1 else []
    return [h for i, part in enumerate(t.parts) for h in holes(part, path + (i,))]


def put(t, path, value):
    if not path:
        return replace(t, value=value)
    parts = list(t.parts)
    parts[path[0]] = put(parts[path[0]], path[1:], value)
    return replace(t, parts=tuple(parts))


def get(t, path):
    for i in path:
        t = t.parts[i]
    return t


def hole(draw, choices, mutable=True) -> Hole:
    choices = tuple(choices)
    return Hole(draw(st.sampled_from(choices)), choices, mutable)


def ints(lo, hi):
    return tuple(str(i) for i in range(lo, hi + 1))


def near(draw) -> Node:
    """A condition on a neighbour ``n``."""
    pick = draw(st.integers(0, 2))
    if pick == 0:
        return Node("g[n] @ @", (hole(draw, ("==", "!=")), hole(draw, CARDS)))
    if pick == 1:
        return Node("occupied(g, n)")
    return Node("@(n) == @", (hole(draw, ("row", "column")), hole(draw, ints(0, 1))))


def cond(draw, x: str, depth: int) -> Node:
    """A condition on the cell named ``x`` (a comprehension's variable or the parameter)."""
    pick = draw(st.integers(0, 8 if depth <= 0 else 11))
    if pick == 0:
        return Node(f"g[{x}] @ @", (hole(draw, ("==", "!=")), hole(draw, CARDS)))
    if pick == 1:
        return Node(f"@(g, {x})", (hole(draw, ("occupied", "free")),))
    if pick == 2:
        return Node(f"row({x}) == @", (hole(draw, ints(0, 1)),))
    if pick == 3:
        return Node(f"column({x}) @ @", (hole(draw, (">=", "<=", "==")), hole(draw, ints(0, 2))))
    if pick == 4:
        return Node(f"any(g[n] == @ for n in @({x}))", (hole(draw, CARDS), hole(draw, RELATIONS)))
    if pick == 5:
        return Node(f"all(g[n] != @ for n in @({x}))", (hole(draw, CARDS), hole(draw, RELATIONS)))
    if pick in (6, 7, 8):
        return Node(f"count(n in @({x}) if @) @ @", (hole(draw, RELATIONS), near(draw),
                                                   hole(draw, (">=", "<=", "==")), hole(draw, ints(0, 3))))
    if pick in (9, 10):
        return Node("(@ @ @)", (cond(draw, x, depth - 1), hole(draw, ("and", "or")), cond(draw, x, depth - 1)))
    return Node("not (@)", (cond(draw, x, depth - 1),))


def num(draw, depth: int, cell: bool) -> Node:
    """A number over the board ``g`` (and the cell ``at`` when ``cell``)."""
    atoms = 4 + (3 if cell else 0)
    pick = draw(st.integers(0, atoms - 1 if depth <= 0 else atoms + 8))
    if pick == 0:
        return Node("count(x in cells(g) if @)", (cond(draw, "x", 1),))
    if pick == 1:
        return Node("sum(@ * count(n in @(x) if @) for x in cells(g) if g[x] == @)",
                    (hole(draw, ints(-2, 3)), hole(draw, RELATIONS), near(draw), hole(draw, KINDS)))
    if pick == 2:
        return Node("distinct(g[x] for x in cells(g) if @)", (cond(draw, "x", 0),))
    if pick == 3:
        return hole(draw, ints(-2, 3))
    if cell and pick == 4:
        return Node("count(n in @(at) if @)", (hole(draw, RELATIONS), near(draw)))
    if cell and pick == 5:
        return Node("@(at)", (hole(draw, ("row", "column")),))
    if cell and pick == 6:
        return Node("(if @ then @ else @)", (cond(draw, "at", 1), hole(draw, ints(-2, 3)), hole(draw, ints(-2, 3))))
    pick -= atoms
    sub = lambda: num(draw, depth - 1, cell)     # noqa: E731
    if pick == 0:
        return Node("(@ @ @)", (sub(), hole(draw, ("+", "-")), sub()))
    if pick == 1:
        return Node("@ * @", (hole(draw, ints(-2, 3)), sub()))
    if pick == 2:
        return Node("@(@, @)", (hole(draw, ("min", "max")), sub(), sub()))
    if pick == 3:
        return Node("abs(@)", (sub(),))
    if pick == 4:
        return Node("(@ @ @)", (sub(), hole(draw, ("//", "%")), hole(draw, ("2", "3", "-2"))))
    if pick == 5:
        return Node("(if @ then @ else @)", (truth(draw, 0, cell), sub(), sub()))
    if pick == 6:
        return Node("{0: @, 1: @, else: @}[@]", (hole(draw, ints(-1, 4)), hole(draw, ints(-1, 4)),
                                                 hole(draw, ints(-1, 4)), sub()))
    return Node("(@ @ @)", (sub(), hole(draw, ("+", "-")), sub()))


COMPARE = (">=", "<=", "==", "!=", ">", "<")


def truth(draw, depth: int, cell: bool) -> Node:
    pick = draw(st.integers(0, (1 if cell else 0) if depth <= 0 else 4))
    if pick == 0:
        return Node("@ @ @", (num(draw, 1, cell), hole(draw, COMPARE), hole(draw, ints(-2, 6))))
    if pick == 1 and cell:
        return cond(draw, "at", 1)
    if pick in (0, 1, 2):
        return Node("(@ @ @)", (truth(draw, depth - 1, cell), hole(draw, ("and", "or")), truth(draw, depth - 1, cell)))
    if pick == 3:
        return Node("not (@)", (truth(draw, depth - 1, cell),))
    return Node("@ @ @", (num(draw, 2, cell), hole(draw, COMPARE), hole(draw, ints(-2, 6))))


# ---------------------------------------------------------------- brute force
def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def params(cell: bool) -> str:
    return "g: board, at: cell" if cell else "g: board"


_ROWS = [[list(f[:COLS]), list(f[COLS:])] for f in itertools.product((None,) + KINDS, repeat=ROWS * COLS)]


def domain(interp: Interpreter, cell: bool):
    """Every input: each filling of the grid (and each cell)."""
    for rows in _ROWS:
        board = interp.board(rows)
        if cell:
            for at in CELLS:
                yield (board, at)
        else:
            yield (board,)


def rows_of(board) -> list[list]:
    if isinstance(board, list):
        return board
    return [[board.cards.get((r, c)) for c in range(COLS)] for r in range(ROWS)]


def args_of(interp: Interpreter, witness: dict, cell: bool) -> tuple:
    board = interp.board(rows_of(witness["g"]))
    return (board, tuple(witness["at"])) if cell else (board,)


def values(interp: Interpreter, name: str, cell: bool) -> list:
    return [interp.call(name, *a) for a in domain(interp, cell)]


def show(args) -> str:
    """An input as the test shows it: the grid's rows, and the cell."""
    return repr((rows_of(args[0]),) + tuple(args[1:]))


def by_name(report) -> dict:
    out: dict = {}
    for f in report.findings:
        out.setdefault(f.definition, []).append(f)
    return out


def run_campaign(case) -> Counter:
    """``case(draw, seen)`` for each example of the campaign; what it counted (printed too)."""
    seen: Counter = Counter()

    @CAMPAIGN
    @given(st.data())
    def campaign(data):
        case(data.draw, seen)

    campaign()
    print(dict(seen))
    return seen


# ---------------------------------------------------------------- never_holds / always_holds
def check_rule(interp: Interpreter, name: str, cell: bool, found: list, seen: Counter, spec: str) -> None:
    got = values(interp, name, cell)
    can_hold, can_fail = any(got), not all(got)
    [f] = found
    where = f"{name} in\n{spec}"
    seen[f.status] += 1
    if f.status != "PROVED":
        assert f.status == "UNKNOWN", where
        return
    if f.check == "always_holds":
        assert not can_fail, f"false proof: always_holds PROVED, yet the rule fails on " \
                             f"{show(next(a for a, v in zip(domain(interp, cell), got) if not v))}: {where}"
    elif f.witness is None:                     # never holds
        assert f.check == "never_holds" and f.severity == "warning", where
        assert not can_hold, f"false proof: never_holds PROVED, yet the rule holds on " \
                             f"{show(next(a for a, v in zip(domain(interp, cell), got) if v))}: {where}"
    else:                                       # can hold and can fail, each side a witness
        assert can_hold and can_fail, where
        assert interp.call(name, *args_of(interp, f.witness["holds"], cell)) is True, where
        assert interp.call(name, *args_of(interp, f.witness["fails"], cell)) is False, where
    seen[f"{f.check}:{'both' if f.witness and 'fails' in f.witness else 'one side'}"] += 1


def threshold(draw, got: list[int]) -> str:
    lo, hi = min(got), max(got)
    return str(draw(st.sampled_from(sorted({lo - 1, lo, hi, hi + 1, (lo + hi) // 2}))))


def test_never_and_always_holds_agree_with_every_input():
    """Rules over a board, and over a board and a cell, whose thresholds sit at the edges of
    what they compare: PROVED never/always checked on all 4,096 boards (x 6 cells)."""
    def case(draw, seen: Counter) -> None:
        exprs = {"r1": (num(draw, 2, False), False), "r2": (num(draw, 2, True), True)}
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            first = HEAD + "".join(f"def e_{n}({params(cell)}) = {render(e)}\n" for n, (e, cell) in exprs.items())
            interp = Interpreter(load(write(folder, "first.rules", first)))
            text = HEAD
            for n, (e, cell) in exprs.items():
                got = values(interp, f"e_{n}", cell)
                body = f"{render(e)} {draw(st.sampled_from(COMPARE))} {threshold(draw, got)}"
                extra = draw(st.integers(0, 2))
                if extra:
                    body = f"({body}) {('and', 'or')[extra - 1]} ({render(truth(draw, 1, cell))})"
                text += f"rule {n}({params(cell)}) = {body}\n"
            program = load(write(folder, "tiny.rules", text))
            report = verify(program, "tiny", {"never_holds", "always_holds"}, time_limit=TIME_LIMIT, games=0)
            found = by_name(report)
            interp = Interpreter(program)
            for n, (_, cell) in exprs.items():
                if n not in found:
                    seen["not checked"] += 1
                    continue
                check_rule(interp, n, cell, found[n], seen, text)

    seen = run_campaign(case)
    assert seen["PROVED"] >= 20, seen
    assert seen["never_holds:one side"] + seen["always_holds:one side"] >= 5, seen


# ---------------------------------------------------------------- range
def check_range(f, got: list[int], interp, call, cell: bool, seen: Counter, spec: str) -> None:
    seen[f.status] += 1
    if f.status != "PROVED":
        assert f.status == "UNKNOWN", (f.definition, spec)
        return
    lo, hi = min(got), max(got)
    least, most = f.witness["least"], f.witness["most"]
    assert (least, most) == (lo, hi), \
        f"false proof: range of {f.definition} PROVED {least}..{most}, brute force {lo}..{hi}: in\n{spec}"
    assert call(*args_of(interp, f.witness["least_at"], cell)) == lo, (f.definition, spec)
    assert call(*args_of(interp, f.witness["most_at"], cell)) == hi, (f.definition, spec)


def test_ranges_are_the_least_and_most_of_every_input():
    """Definitions over a board and over a board and a cell, one that is another (its range
    taken from the other's), and a scoring of two steps (the second may read the first):
    each PROVED range is the brute-force minimum and maximum."""
    def case(draw, seen: Counter) -> None:
        e1, e2 = num(draw, 2, False), num(draw, 2, True)
        one, two = num(draw, 1, False), num(draw, 1, False)
        reads = draw(st.booleans())
        text = (HEAD + f"def e1(g: board) = {render(e1)}\n"
                f"def e2(g: board, at: cell) = {render(e2)}\n"
                "def e3(g: board) = e1(g)\n"         # (the same as e1: its range is e1's, not asked again)
                f"scoring s(g: board) {{\n  step one = {render(one)}\n"
                f"  step two = {'2 * s.one - ' if reads else ''}{render(two)}\n}}\n")
        with tempfile.TemporaryDirectory() as tmp:
            program = load(write(Path(tmp), "tiny.rules", text))
            report = verify(program, "tiny", {"range"}, time_limit=TIME_LIMIT, games=0)
            interp = Interpreter(program)
            found = by_name(report)
            scores = values(interp, "s", False)
            expected = {"e1": (values(interp, "e1", False), lambda *a: interp.call("e1", *a), False),
                        "e2": (values(interp, "e2", True), lambda *a: interp.call("e2", *a), True),
                        "e3": (values(interp, "e3", False), lambda *a: interp.call("e3", *a), False),
                        "s": ([int(v) for v in scores], lambda *a: int(interp.call("s", *a)), False),
                        "s.one": ([v.steps["one"] for v in scores],
                                  lambda *a: interp.call("s", *a).steps["one"], False),
                        "s.two": ([v.steps["two"] for v in scores],
                                  lambda *a: interp.call("s", *a).steps["two"], False)}
            assert set(found) <= set(expected), found
            if "e3" in found:
                assert "the same as 'e1'" in found["e3"][0].message, found["e3"]
            for name, (got, call, cell) in expected.items():
                if name not in found:
                    seen["not checked"] += 1
                    continue
                [f] = found[name]
                check_range(f, got, interp, call, cell, seen, text)

    seen = run_campaign(case)
    assert seen["PROVED"] >= 40, seen


# ---------------------------------------------------------------- property
def test_properties_proved_hold_on_every_input_and_counterexamples_break_them():
    """A property chooses a board (with a where), maybe a cell of it (with a where), and
    states a bound at the edge of what it bounds: PROVED checked on every input that meets
    the where; a COUNTEREXAMPLE's witness meets it and breaks the bound."""
    def case(draw, seen: Counter) -> None:
        cell = draw(st.booleans())
        bounded = num(draw, 2, cell)
        where_g = truth(draw, 1, False) if draw(st.booleans()) else None
        where_at = cond(draw, "at", 1) if cell and draw(st.booleans()) else None
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            helpers = (f"def chk_value({params(cell)}) = {render(bounded)}\n"
                       f"rule chk_where_g(g: board) = {render(where_g) if where_g else 'true'}\n"
                       f"rule chk_where_at(g: board, at: cell) = {render(where_at) if where_at else 'true'}\n")
            interp = Interpreter(load(write(folder, "first.rules", HEAD + helpers)))
            inputs = [a for a in domain(interp, cell) if interp.call("chk_where_g", a[0])
                      and (not cell or interp.call("chk_where_at", *a))]
            got = [interp.call("chk_value", *a) for a in inputs] or [0]
            sense = draw(st.sampled_from(("<=", ">=")))
            k = threshold(draw, got)
            body = f"  choose g: board{' where ' + render(where_g) if where_g else ''}\n"
            if cell:
                body += f"  choose at in cells(g){' where ' + render(where_at) if where_at else ''}\n"
            body += f"  holds {render(bounded)} {sense} {k}\n"
            text = HEAD + helpers + f'property p "a bound" {{\n{body}}}\n'
            program = load(write(folder, "tiny.rules", text))
            report = verify(program, "tiny", {"property"}, time_limit=TIME_LIMIT, games=0)
            found = by_name(report)
            if "p" not in found:
                seen["not checked"] += 1
                return
            [f] = found["p"]
            seen[f.status] += 1
            broken = [a for a, v in zip(inputs, got) if not (v <= int(k) if sense == "<=" else v >= int(k))]
            if f.status == "PROVED":
                assert not broken, f"false proof: property PROVED, yet {show(broken[0])} breaks it: in\n{text}"
            elif f.status == "COUNTEREXAMPLE":
                interp = Interpreter(program)
                a = args_of(interp, f.witness, cell)
                assert interp.call("chk_where_g", a[0]) and (not cell or interp.call("chk_where_at", *a)), text
                v = interp.call("chk_value", *a)
                assert not (v <= int(k) if sense == "<=" else v >= int(k)), (f.witness, v, text)
                assert broken, text
            else:
                assert f.status == "UNKNOWN", (f, text)

    seen = run_campaign(case)
    assert seen["PROVED"] >= 4 and seen["COUNTEREXAMPLE"] >= 4, seen


# ---------------------------------------------------------------- differs
def mutate(draw, t):
    """A copy of ``t`` with one hole changed (or none), and maybe rewritten in a way that
    keeps its value (a sum turned round, ``+ 0``, ``not not``)."""
    places = holes(t)
    if places and draw(st.integers(0, 3)):
        path = draw(st.sampled_from(places))
        h = get(t, path)
        t = put(t, path, draw(st.sampled_from([c for c in h.choices if c != h.value])))
    return t


FLIP = {">=": "<=", "<=": ">=", ">": "<", "<": ">", "==": "==", "!=": "!="}


def mirrored(draw, t):
    """``t`` with operands turned round where that keeps its value, here and there: a sum's
    terms, a product's factors, min's and max's operands, a comparison read from its
    other side (``3 <= count(...)`` for ``count(...) >= 3``, ``bee == g[x]``). differs
    proves such a rewrite the same without the solver; the brute force checks it is."""
    if isinstance(t, Hole):
        return t
    parts = tuple(mirrored(draw, p) for p in t.parts)
    if not draw(st.booleans()):
        return replace(t, parts=parts)
    if t.fmt == "(@ @ @)" and isinstance(parts[1], Hole) and parts[1].value == "+":
        return replace(t, parts=(parts[2], parts[1], parts[0]))
    if t.fmt == "@ * @":
        return Node("(@) * (@)", (parts[1], parts[0]))
    if t.fmt == "@(@, @)":
        return replace(t, parts=(parts[0], parts[2], parts[1]))
    if t.fmt == "@ @ @" and isinstance(parts[1], Hole) and parts[1].value in FLIP:
        return Node("@ @ @", (parts[2], Hole(FLIP[parts[1].value], parts[1].choices), parts[0]))
    if t.fmt.startswith("g[") and t.fmt.endswith("] @ @"):
        return Node(f"@ @ {t.fmt[:t.fmt.index(']') + 1]}", (parts[1], parts[0]))
    return replace(t, parts=parts)


def rewrite(draw, text: str, number: bool) -> str:
    how = draw(st.integers(0, 2))
    if how == 0:
        return text
    if number:
        return f"(0 + {text})" if how == 1 else f"(1 * ({text}) - 0)"
    return f"not (not ({text}))" if how == 1 else f"(({text}) or false)"


def test_differs_same_means_equal_everywhere_and_a_difference_is_real():
    """A base with a definition, a rule over a board and a cell, and a definition reading the
    first; a variant overrides the first two with copies of one hole changed (or none),
    operands turned round here and there (``mirrored``) and maybe rewritten to the same value. PROVED the same: equal on every input; PROVED
    different: the witness's values are each program's, and they differ."""
    def case(draw, seen: Counter) -> None:
        d, r = num(draw, 2, False), truth(draw, 2, True)
        d2, r2 = mutate(draw, d), mutate(draw, r)
        base = (HEAD + f"def d(g: board) = {render(d)}\n"
                f"rule r(g: board, at: cell) = {render(r)}\n"
                f"def total(g: board) = 2 * d(g) + count(x in cells(g) if r(g, x))\n")
        variant = ('variant v "Changed" extends "tiny.rules"\n'
                   f"override def d(g: board) = {rewrite(draw, render(mirrored(draw, d2)), True)}\n"
                   f"override rule r(g: board, at: cell) = {rewrite(draw, render(mirrored(draw, r2)), False)}\n")
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            b = load(write(folder, "tiny.rules", base))
            v = load(write(folder, "v.rules", variant))
            report = verify(v, "v", {"differs"}, time_limit=TIME_LIMIT, games=0, base=b)
            ib, iv = Interpreter(b), Interpreter(v)
            spec = f"{base}---\n{variant}"
            for f in report.findings:
                if f.definition not in ("d", "r", "total"):
                    continue
                cell = f.definition == "r"
                seen[f.status] += 1
                if f.status == "UNKNOWN":
                    continue
                assert f.status == "PROVED", (f, spec)
                pairs = [(x, y) for x, y in zip(values(ib, f.definition, cell), values(iv, f.definition, cell))]
                if not (f.witness and "base" in f.witness):      # the same on every input
                    seen["same"] += 1
                    seen["written otherwise"] += "written otherwise" in f.message
                    diff = next((i for i, (x, y) in enumerate(pairs) if x != y), None)
                    assert diff is None, \
                        f"false proof: differs PROVED '{f.definition}' the same, yet on " \
                        f"{show(list(domain(ib, cell))[diff])} base gives {pairs[diff][0]}, variant " \
                        f"{pairs[diff][1]}: {f.message}\nin\n{spec}"
                else:
                    seen["differs"] += 1
                    w = f.witness
                    x, y = ib.call(f.definition, *args_of(ib, w, cell)), iv.call(f.definition, *args_of(iv, w, cell))
                    assert (x, y) == (w["base"], w["variant"]) and x != y, (f, spec)

    seen = run_campaign(case)
    assert seen["same"] >= 4 and seen["differs"] >= 8 and seen["written otherwise"] >= 2, seen


# ---------------------------------------------------------------- false proofs found
def test_a_changed_default_of_a_table_of_values_is_not_the_same(tmp_path):
    base = write(tmp_path, "tiny.rules", HEAD + "def e(g: board) = {0: 1, else: 5}[count(x in cells(g) if g[x] == bee)]\n")
    house = write(tmp_path, "v.rules", 'variant v "Changed" extends "tiny.rules"\n'
                  "override def e(g: board) = {0: 1, else: 4}[count(x in cells(g) if g[x] == bee)]\n")
    b, v = load(base), load(house)
    rows = [["bee", None, None], [None, None, None]]
    assert (Interpreter(b).call("e", Interpreter(b).board(rows)),
            Interpreter(v).call("e", Interpreter(v).board(rows))) == (5, 4)      # they do differ
    report = verify(v, "v", {"differs"}, time_limit=TIME_LIMIT, games=0, base=b)
    [f] = [f for f in report.findings if f.definition == "e"]
    assert "changes nothing" not in f.message, f.message


def test_a_rewrite_that_reads_a_changed_definition_without_parameters_is_not_the_same(tmp_path):
    """A definition restated (operands turned round) is not the base's own when a definition
    it reads changed, also one without parameters, which the rules read as a global: the
    house rule below was PROVED to change nothing, although `worth(red)` differs on every
    position where a tile was placed."""
    play = ("state { placed: int }\n"
            "procedure turn(p: seat) {\n  choose c in colour by p\n  set placed = placed + 1\n  checkpoint placed_one\n}\n"
            'mode standard "Standard" players 1..2 {\n  seats players\n  repeat 2 { for p in players { do turn(p) } }\n'
            "  report placed = placed\n}\n")
    base = write(tmp_path, "base.rules", 'game tiles "Tiles"\nenum colour { red, green, blue }\n' + play
                 + "def extra = placed * 2\ndef worth(c: colour) = if c == red then extra + 1 else 0\n")
    house = write(tmp_path, "house.rules", 'variant house "Changed" extends "base.rules"\n'
                  "override def extra = placed * 3\n"
                  "override def worth(c: colour) = if c == red then 1 + extra else 0\n")
    report = verify(load(house), "house", {"differs"}, time_limit=TIME_LIMIT, games=0, base=load(base))
    assert not any("changes nothing" in f.message for f in report.findings), [f.message for f in report.findings]
    [worth] = [f for f in report.findings if f.definition == "worth"]
    assert worth.status == "PROVED" and worth.witness["base"] != worth.witness["variant"], worth
