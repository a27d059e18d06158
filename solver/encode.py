"""The checked program's expression nodes -> a CP-SAT model.

In:  ``ir`` expressions and statements, an environment binding names to known
     values or symbolic values (``symbolic``).
Out: symbolic values over a ``cp_model.CpModel``; constraints for ``require``
     and ``where``; decision variables for ``choose``.

Each operator's encoding lives in ``solver.encodings``, keyed by the names of
its typing and concrete meaning in ``compiler.semantics.operators``; this module walks the tree, unrolls aggregates over
known collections, unrolls scorings step by step (a ``mark`` makes a new
layer, so later steps see the cards turned face down), and provides the
literal and linear helpers the operators use. When every operand is known the
operator's concrete meaning is used instead (constant folding), so the model
only holds what depends on a choice. Anything that cannot be encoded raises
``NotSupportedError`` with the span of the construct.

Variables are named after their spec origin (``g[1,3]=water``,
``score.choice[2,0]``) so a dumped model is readable.
"""
from __future__ import annotations

import itertools
import time
from typing import Any

from ortools.sat.python import cp_model

from rulewright.compiler import ir as I
from rulewright.compiler.semantics import runtime as rt
from rulewright.compiler.diagnostics import Diagnostic, NotSupportedError, RulesError, Span
from rulewright.compiler.types import BoardT, CollT, EnumT, TupleT

from rulewright.compiler.interpret import interpreter_for
from rulewright.compiler.semantics.operators import OPERATORS

from rulewright.solver.encodings import AGG_ENCODINGS, ENCODINGS
from rulewright.solver.symbolic import (BoardV, BoolV, CaseV, Choice, CountsV, EnumV, GroupsV, IntV, LayerV, ListV,
                       MapV, RecordV, ScoreV, SetV, Sym)


def _symbolic(v) -> bool:
    if isinstance(v, Sym):
        return True
    if isinstance(v, tuple) and not hasattr(v, "rw_fields"):
        return any(_symbolic(x) for x in v)
    return False


def _linear_key(v):
    """A number or a linear expression, as a key equal for the same expression."""
    if isinstance(v, int):
        return v
    return (v.const, frozenset((k, c) for k, (_, c) in v.terms.items()))


def _hashable(v):
    try:
        hash(v)
        return v
    except TypeError:
        return ("id", id(v))


_FREE: dict = {}


def free_locals(e: I.Expr, program) -> tuple | None:
    """The local names an expression reads, sorted (None when it calls a scoring,
    whose choices and breakdown the encoder keeps itself)."""
    key = id(e)
    hit = _FREE.get(key)
    if hit is not None and hit[0] is e:
        return hit[1]
    result = I.free_locals(e, lambda x: isinstance(x, I.Call) and x.name in program.scorings)
    result = tuple(sorted(result)) if result is not None else None
    _FREE[key] = (e, result)
    return result


_PLAIN = (int, str, bool, type(None))
MOST_MAGNITUDE = 2 ** 62       # the bounds of a model's integer variables (CP-SAT's sums stay in 64 bits)


def _too_large(reach: int):
    raise NotSupportedError(f"a value of this query may reach {reach:,}: the numbers are too large for CP-SAT, "
                            "whose sums stay within 64 bits")


def _memo_key(a, fields):
    """What a call's result depends on, of one argument: for a record the definition
    only reads some fields of, those fields (a record built per branch of a query,
    differing in a field the definition does not read, reuses its encoding)."""
    if type(a) in _PLAIN:
        return a
    if isinstance(a, RecordV) and fields is not None:
        # kept with the record for each list of fields (records are not changed once made)
        keys = a.__dict__.setdefault("memo_keys", {})
        hit = keys.get(id(fields))
        if hit is None or hit[0] is not fields:
            hit = keys[id(fields)] = (fields, ("R", a.name) + tuple((f, _memo_key(a.fields[f], None))
                                                                  for f in fields))
        return hit[1]
    if isinstance(a, ListV):
        # a list built again from the same items is the same argument (symbolic values
        # are not changed once made, so the key is kept with the list)
        key = a.__dict__.get("memo_key")
        if key is None:
            key = a.memo_key = ("L",) + tuple((g if isinstance(g, bool) else ("l", g.index),
                                               _memo_key(x, None)) for g, x in a.items)
        return key
    if isinstance(a, Sym):
        return ("S", id(a))
    if isinstance(a, tuple) and not hasattr(a, "rw_fields") and _symbolic(a):
        # a tuple built again from the same values (``xs + [s]`` in two places) is the
        # same argument: its elements, symbolic ones by identity
        return ("T",) + tuple(_memo_key(x, None) for x in a)
    return _hashable(a)


_FIELDS: dict = {}


def fields_read(fd: I.FuncDef, program) -> list:
    """For each parameter of a definition: the sorted record fields its body reads
    (directly, or through the definitions it passes the parameter to), or None when
    the parameter is used whole (compared, stored, changed with 'with'...)."""
    hit = _FIELDS.get(id(fd))
    if hit is not None and hit[0] is fd:
        return hit[1]
    _FIELDS[id(fd)] = (fd, [None] * len(fd.params))       # recursion: used whole
    used: list = [set() for _ in fd.params]
    index = {p: i for i, (p, _) in enumerate(fd.params)}

    def walk(x, bound: frozenset):
        if isinstance(x, I.Local):
            if x.name in index and x.name not in bound:
                used[index[x.name]] = None
            return
        if isinstance(x, I.Op) and x.op == "field" and isinstance(x.args[0], I.Local) \
                and x.args[0].name in index and x.args[0].name not in bound:
            i = index[x.args[0].name]
            if used[i] is not None:
                used[i].add(str(x.data)[2:])
            return
        if isinstance(x, I.Call) and x.name in program.funcs:
            callee = fields_read(program.funcs[x.name], program)
            for j, a in enumerate(x.args):
                if isinstance(a, I.Local) and a.name in index and a.name not in bound and j < len(callee):
                    i = index[a.name]
                    if callee[j] is None:
                        used[i] = None
                    elif used[i] is not None:
                        used[i] |= set(callee[j])
                else:
                    walk(a, bound)
            return
        if isinstance(x, (I.Op, I.Call)):
            for a in x.args:
                walk(a, bound)
        elif isinstance(x, I.SeatVar):
            walk(x.seat, bound)
        elif isinstance(x, I.Agg):
            inner = set(bound)
            for b in x.binders:
                walk(b.coll, frozenset(inner))
                inner.add(b.var)
                if b.cond is not None:
                    walk(b.cond, frozenset(inner))
            for y in (x.elem, x.key):
                if y is not None:
                    walk(y, frozenset(inner))
            if x.supply is not None:
                walk(x.supply, bound)

    if fd.body is not None:
        walk(fd.body, frozenset())
    result = [sorted(u) if u is not None else None for u in used]
    _FIELDS[id(fd)] = (fd, result)
    return result


_NO_VALUE = object()
_DEFS: dict = {}        # id of a definition -> (it, its parameter names, the fields each reads)
_FLIPPED = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
_CHAINS: dict = {}
_NODES: dict = {}


def _radix(reaches: list) -> list:
    """Weights for differences that reach at most these magnitudes, so that the
    weighted sum has the sign of the first nonzero difference (each weight exceeds
    what all later differences can add up to)."""
    weights, weight = [], 1
    for reach in reversed(reaches):
        weights.append(weight)
        weight *= 2 * reach + 1
    return weights[::-1]


def _node_info(e: I.Expr, program) -> list:
    """[node, the local names it reads or None when it is not computed whole, the
    encoder method for its kind, its compiled function, the interpreter that compiled
    it (these two filled when first computed whole), (local, field) for a field of a
    local]."""
    free = None if isinstance(e, (I.Const, I.Local)) else free_locals(e, program)
    field = None
    if isinstance(e, I.Op) and e.op == "field" and isinstance(e.args[0], I.Local):
        field = str(e.data)
        field = (e.args[0].name, field[2:] if field.startswith("f_") else field)
    info = [e, free, getattr(Encoder, "en_" + type(e).__name__), None, None, field]
    _NODES[id(e)] = info
    return info


def _chain_parts(e: I.Op) -> list:
    """The operands of a chain of one operator (``a and b and c``), in order."""
    hit = _CHAINS.get(id(e))
    if hit is not None and hit[0] is e:
        return hit[1]
    parts: list = []

    def walk(x):
        if isinstance(x, I.Op) and x.op == e.op:
            for a in x.args:
                walk(a)
        else:
            parts.append(x)

    walk(e)
    _CHAINS[id(e)] = (e, parts)
    return parts


def cell_name(c) -> str:
    return f"{c[0]},{c[1]}" if isinstance(c, tuple) and len(c) == 2 else str(c)


_TICKS = 256       # expressions encoded between two looks at the clock


class BuildTimeout(Exception):
    """Building a model took the whole time limit of its query."""


class Encoder:
    def __init__(self, program: I.Program, model: cp_model.CpModel | None = None,
                 state: Any = None):
        self.program = program
        self.model = model or cp_model.CpModel()
        self.state = state
        self._and: dict = {}
        self._or: dict = {}
        self._or_parts: dict[int, set[int]] = {}
        self._or_literals: dict[int, list] = {}
        self.distribute = False         # distribute AND over OR of one-hot literals (see add_pair_marginals)
        self._cmp: dict = {}
        self.choices: list[Choice] = []
        self.infeasible: list[Span] = []
        self.empty_choices: list = []   # (Choose, whether its collection had elements) with no option at all
        self.scorings: list[ScoreV] = []
        # least(...) of known arguments, computed whole: (scoring, the literals it is reached under)
        self.worst: list[tuple[str, tuple]] = []
        self.boards: list[BoardV] = []
        self.symmetries: list = []    # (board, value order, mirror maps) broken by lex-leader
        self._counter = 0
        self.guards: list = []        # literals under which the value being encoded matters
        # the guards the definition being encoded has relied on (a value that is right
        # only where they hold: see enc_map_get), so its memo is not reused elsewhere
        self.relied: list = []
        # literals under which the expression being encoded is reached at all (a query's
        # path, an aggregate's element, a branch of 'if', an operand of 'and'/'or' after
        # the first): a constraint a value needs only where it is computed (a table's
        # key within the table, a scoring's choice made) holds under them only
        self.context: list = []
        self.hard_grid_wheres = True    # see choose
        self.hardened = False
        self.onehot: dict[int, tuple[int, Any]] = {}   # literal key -> (one-hot group, value)
        self.pairs: dict[tuple[int, int], dict] = {}    # (group, group) -> {(a, b): and-literal}
        self._groups: list[dict] = []
        self._group_owner: dict[int, Any] = {}
        self.value_caps: dict[tuple[int, Any], int] = {}   # (id of a grid, value) -> most cells
        # With a game state, known sub-expressions are computed by the interpreter
        # (the reference semantics, compiled) and definition calls are remembered.
        self.interp = None
        self._bounds: dict = {}       # variable index -> bounds, for the variables made here
        # A gated sum of literals becomes one product per literal (a tight linear
        # relaxation, for grids chosen whole) or, beyond this many terms, one variable with
        # big-M bounds (a smaller model: queries on a game position set it).
        self.product_terms: int | None = None
        # Constraints that only tighten the linear relaxation (big-M forms, linear
        # and/or): left out for a solver that runs without one (queries on a game position).
        self.relaxation = True
        self._calls: dict = {}
        self._tuples: dict = {}       # id of a tuple -> (it, whether it holds a symbolic value)
        self._records: dict = {}
        self.agg_env: dict = {}
        self.explain = False          # one assumption literal per checked rule (for reasons)
        self.leaves: list = []        # the rules a query checks (see require_leaf)
        self.path_now: dict = {}      # the choices of the path being encoded (for reasons)
        self.objective_names: list = []   # the 'named' value of each objective reached
        self.dead_end = False         # a choice's condition known false (see run_block)
        self.dead_depth = -1
        self.objectives: list = []    # (path guard, value) of every maximize/minimize reached
        self.inputs: dict = {}
        self._lex_sums: dict = {}     # ids of a tuple's elements -> (weighted sum, weights, elements)
        # the types of values known whatever they hold (a record's fields are known too)
        self._known_types = {int, str, bool, type(None)} | \
            {r.cls for r in program.records.values() if r.cls is not None}
        self.deadline: float | None = None      # time.perf_counter() past which building stops
        self._ticks = _TICKS

    def _tick(self):
        """Every ``_TICKS`` expressions encoded: past the deadline, building stops."""
        self._ticks = _TICKS
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise BuildTimeout()

    # ================================================================ literals
    def new_bool(self, name: str):
        var = self.model.new_bool_var(name)
        self._bounds[var.index] = (0, 1)
        return var

    def new_int(self, lb: int, ub: int, name: str):
        if lb < -MOST_MAGNITUDE or ub > MOST_MAGNITUDE:
            _too_large(max(-lb, ub))
        var = self.model.new_int_var(lb, ub, name)
        self._bounds[var.index] = (lb, ub)
        return var

    def fresh(self, prefix: str) -> str:
        self._counter += 1
        return f"{prefix}#{self._counter}"

    @staticmethod
    def key(lit) -> int:
        return lit.index

    def lit(self, v, span: Span | None = None):
        """A CP-SAT literal or a Python bool for a boolean value."""
        if isinstance(v, bool):
            return v
        if isinstance(v, BoolV):
            return v.lit
        if isinstance(v, CaseV):
            return self.lit(self.case_map(v, lambda x: x, span), span)
        raise NotSupportedError(f"expected a condition, found {type(v).__name__}", span)

    def boolv(self, lit):
        return lit if isinstance(lit, bool) else BoolV(lit)

    def not_(self, lit):
        if isinstance(lit, bool):
            return not lit
        return ~lit

    def _operands(self, lits, absorbing: bool):
        """The distinct literals of an and (absorbing False) or an or (absorbing True),
        with the keys seen; or the absorbing constant when one literal is, or when a
        literal and its negation both appear."""
        out, seen = [], set()
        for l in lits:
            if l is absorbing:
                return absorbing, seen
            if l is (not absorbing):
                continue
            k = l.index
            if -k - 1 in seen:
                return absorbing, seen
            if k not in seen:
                seen.add(k)
                out.append(l)
        return out, seen

    def and_(self, lits, name: str = "and"):
        out, seen = self._operands(lits, False)
        if out is False:
            return False
        # x and (x or y ...) == x
        ors = self._or_parts
        if ors and len(out) > 1:
            out = [l for l in out if l.index not in ors or ors[l.index].isdisjoint(seen)]
        if not out:
            return True
        if len(out) == 1:
            return out[0]
        memo = frozenset(seen) if len(seen) == len(out) else frozenset(l.index for l in out)
        if memo in self._and:
            return self._and[memo]
        if self.distribute and len(out) == 2:
            # x and (y1 or y2 ...) == (x and y1) or (x and y2) ...: when x and the y's are
            # one-hot values of grid cells the products are pairwise, which the pair
            # marginals tighten.
            a, b = out
            for x, y in ((a, b), (b, a)):
                parts = self._or_literals.get(self.key(y))
                if parts and self.key(x) in self.onehot and \
                        all(self.key(p) in self.onehot for p in parts):
                    z = self.or_([self.and_([x, p]) for p in parts], name)
                    if not isinstance(z, bool):
                        self.model.add_implication(z, x)     # still implied: keeps the bound z <= x
                        self.model.add_implication(z, y)
                    self._and[memo] = z
                    return z
        z = self.new_bool(self.fresh(name))
        if self.relaxation:
            # Linear inequalities (not clauses): the solver's linear relaxation keeps them.
            for l in out:
                self.model.add(z <= l)
            self.model.add(z >= sum(out) - (len(out) - 1))
        else:
            self.model.add_bool_and(out).only_enforce_if(z)
            self.model.add_bool_or([z] + [self.not_(l) for l in out])
        self._and[memo] = z
        if len(out) == 2:
            a, b = (self.onehot.get(self.key(l)) for l in out)
            if a is not None and b is not None and a[0] != b[0]:
                if a[0] > b[0]:
                    a, b = b, a
                self.pairs.setdefault((a[0], b[0]), {})[(a[1], b[1])] = z
        return z

    def add_pair_marginals(self) -> int:
        """For two one-hot groups (two cells of a grid), the products of one value of the
        first with the values of the second sum to at most that value (and the other way
        round): a tighter relaxation than each product alone. Returns constraints added."""
        added = 0
        for (ga, gb), table in self.pairs.items():
            if len(table) < 2:
                continue
            lits_a, lits_b = self._groups[ga], self._groups[gb]
            by_a: dict = {}
            by_b: dict = {}
            for (va, vb), z in table.items():
                by_a.setdefault(va, []).append(z)
                by_b.setdefault(vb, []).append(z)
            for va, zs in by_a.items():
                if len(zs) > 1:
                    self.model.add(sum(zs) <= lits_a[va])
                    added += 1
            for vb, zs in by_b.items():
                if len(zs) > 1:
                    self.model.add(sum(zs) <= lits_b[vb])
                    added += 1
        return added

    def register_onehot(self, lits: dict, owner=None):
        """Declare literals of which exactly one is true (the values of one cell of ``owner``)."""
        group = len(self._groups)
        self._groups.append(lits)
        self._group_owner[group] = owner
        for value, lit in lits.items():
            if not isinstance(lit, bool):
                self.onehot[self.key(lit)] = (group, value)

    def or_(self, lits, name: str = "or"):
        out, _ = self._operands(lits, True)
        if out is True:
            return True
        if not out:
            return False
        if len(out) == 1:
            return out[0]
        memo = frozenset(self.key(l) for l in out)
        if memo in self._or:
            return self._or[memo]
        z = self.new_bool(self.fresh(name))
        if self.relaxation:
            for l in out:
                self.model.add(z >= l)
            self.model.add(z <= sum(out))
        else:
            self.model.add_bool_and([self.not_(l) for l in out]).only_enforce_if(self.not_(z))
            self.model.add_bool_or([self.not_(z)] + out)
        self._or[memo] = z
        self._or_parts[self.key(z)] = set(memo)
        self._or_literals[self.key(z)] = out
        return z

    def implies(self, a, b):
        if a is False or b is True:
            return
        if a is True and b is False:
            raise NotSupportedError("a required condition is always false")
        if a is True:
            self.model.add_bool_or([b])
        elif b is False:
            self.model.add_bool_or([self.not_(a)])
        else:
            self.model.add_implication(a, b)

    # ================================================================ integers
    def intv(self, v, span: Span | None = None) -> IntV | int:
        """An int value as an int or an ``IntV`` (booleans count as 0/1)."""
        if isinstance(v, bool):
            return int(v)
        if isinstance(v, int):
            return v
        if isinstance(v, IntV):
            return v
        if isinstance(v, BoolV):
            return IntV({self.key(v.lit): (v.lit, 1)}, 0, 0, 1)
        if isinstance(v, ScoreV):
            return self.intv(v.total, span)
        if isinstance(v, CaseV):
            merged = self.case_map(v, lambda x: x, span)
            if isinstance(merged, CaseV):
                raise NotSupportedError(f"expected a number, found one of "
                                        f"{sorted({type(x).__name__ for _, x in merged.cases})}", span)
            return self.intv(merged, span)
        raise NotSupportedError(f"expected a number, found {type(v).__name__}", span)

    def linear(self, parts: list[tuple[int, Any]], const: int = 0) -> IntV | int:
        """``const + sum(coef * value)`` for int/bool/IntV values, with the tighter of
        two bounds: from the parts' own bounds, and from the merged variables."""
        terms: dict = {}
        plo = phi = const
        for coef, v in parts:
            if not coef:
                continue
            if type(v) is not IntV:
                if type(v) is not int and type(v) is not bool:
                    v = self.intv(v)
                if isinstance(v, int):
                    x = coef * v
                    const += x
                    plo += x
                    phi += x
                    continue
            const += coef * v.const
            for k, (var, c) in v.terms.items():
                old = terms.get(k)
                terms[k] = (var, coef * c) if old is None else (var, old[1] + coef * c)
            if coef > 0:
                plo += coef * v.lb
                phi += coef * v.ub
            else:
                plo += coef * v.ub
                phi += coef * v.lb
        zero = [k for k, (_, c) in terms.items() if not c]
        for k in zero:
            del terms[k]
        if not terms:
            return const
        tlo = thi = const
        bounds = self._bounds
        for k, (var, c) in terms.items():
            dom = bounds.get(k)
            if dom is None:
                dom = (0, 1) if k < 0 else self.var_bounds(var)     # a negated literal
                if dom is None:
                    tlo, thi = plo, phi
                    break
            if c > 0:
                tlo += c * dom[0]
                thi += c * dom[1]
            else:
                tlo += c * dom[1]
                thi += c * dom[0]
        lo, hi = max(plo, tlo), min(phi, thi)
        if lo < -MOST_MAGNITUDE or hi > MOST_MAGNITUDE:
            _too_large(max(-lo, hi))
        return IntV(terms, const, lo, hi)

    def var_bounds(self, var):
        hit = self._bounds.get(getattr(var, "index", None))
        if hit is not None:
            return hit
        if type(var).__name__ == "NotBooleanVariable":
            return (0, 1)
        try:
            dom = list(var.proto.domain)
        except AttributeError:
            return None
        return (dom[0], dom[-1]) if dom else None

    def to_var(self, v, name: str = "int"):
        """A CP-SAT integer variable equal to an int value (new only when needed)."""
        v = self.intv(v)
        if isinstance(v, int):
            return self.model.new_constant(v)
        if len(v.terms) == 1 and v.const == 0:
            (var, c), = v.terms.values()
            if c == 1:
                return var
        z = self.new_int(v.lb, v.ub, self.fresh(name))
        self.model.add(z == v.expr())
        return z

    def var_int(self, var, lb: int, ub: int) -> IntV:
        return IntV({self.key(var): (var, 1)}, 0, lb, ub)

    def under(self, guard, e: I.Expr, env):
        """Encode ``e`` knowing its value only matters when ``guard`` holds."""
        self.guards.append(guard)
        self.context.append(guard)
        try:
            return self.encode(e, env)
        finally:
            self.guards.pop()
            self.context.pop()

    def branch(self, lit, e: I.Expr, env):
        """Encode ``e``, which is only reached when ``lit`` holds."""
        self.context.append(lit)
        try:
            return self.encode(e, env)
        finally:
            self.context.pop()

    def _context_keys(self) -> tuple:
        return tuple(self.key(c) for c in self.context if not isinstance(c, bool))

    def reached(self):
        """The literal under which the expression being encoded is reached (True at the
        top), for a constraint its value needs; a definition relying on it is not reused
        where it does not hold."""
        ctx = [c for c in self.context if c is not True]
        if not ctx:
            return True
        self.relied.extend(c for c in ctx if not isinstance(c, bool))
        return self.and_(ctx)

    def never_reached(self, span: Span | None, what: str = "divides by 0"):
        """No option reaches the expression being encoded (it divides by 0): where it is
        reached the model is infeasible, at the top the query is, with this place as its
        reason."""
        reach = self.reached()
        if self.explain:
            self._undefined_leaf(reach, span, what)
            return
        if reach is True:
            self.infeasible.append(span)
            self.model.add_bool_or([])
        else:
            self.implies(reach, False)

    def never_reached_with(self, lit, span: Span | None, what: str = "divides by 0"):
        """No option reaches the expression being encoded where ``lit`` holds (the
        alternative of a case split that divides by 0)."""
        if lit is True:
            self.never_reached(span, what)
        elif lit is not False:
            if self.explain:
                self._undefined_leaf(self.and_([self.reached(), lit]), span, what)
                return
            self.implies(self.and_([self.reached(), lit]), False)

    def _undefined_leaf(self, when, span: Span | None, what: str):
        """In an explanation: an expression the interpreter cannot compute where ``when``
        holds is one more checked rule, with an assumption, so an answer that no option
        escapes says where and why."""
        if when is False or span is None:
            return
        leaf = Leaf(I.Const(None, span, None), {}, True, dict(self.path_now), None, None, True)
        leaf.assumption = self.new_bool(f"defined#{len(self.leaves)}")
        leaf.sentence = f"the expression at {span.file}:{span.line}:{span.col} {what} for this choice"
        self.implies(self.and_([leaf.assumption, when]), False)
        self.leaves.append(leaf)

    def _empty_choice_leaf(self, st: I.Choose, had_elements: bool, when):
        """In an explanation: a choice with nothing to choose from where ``when`` holds
        (its collection empty, or no element meeting its condition) is one more checked
        rule, with an assumption, on its path: a reason beside the rules that close the
        other paths."""
        if when is False:
            return
        leaf = Leaf(I.Const(None, st.span, None), {}, when, dict(self.path_now), None, st, False)
        leaf.assumption = self.new_bool(f"options:{st.name}#{len(self.leaves)}")
        leaf.empty = (st, had_elements)
        self.model.add_bool_or([] if when is True else [self.not_(when)]).only_enforce_if(leaf.assumption)
        self.leaves.append(leaf)

    def holds_where_reached(self, lit):
        """Require a literal where the expression being encoded is reached."""
        self.implies(self.reached(), lit)

    def gate(self, cond, v, span: Span | None = None):
        """``v if cond else 0`` for a literal ``cond`` and an int value ``v``."""
        c = cond if isinstance(cond, bool) else cond
        if c is False:
            return 0
        if c is True:
            return v
        v = self.intv(v, span)
        if isinstance(v, int):
            return self.linear([(v, self.boolv(c))])
        if (self.product_terms is None or len(v.terms) <= self.product_terms) and self.all_bool(v):
            parts = [(coef, self.boolv(self.and_([c, var]))) for var, coef in v.terms.values()]
            out = self.linear(parts + [(v.const, self.boolv(c))])
            if isinstance(out, IntV) and self.relaxation:
                self._gate_bounds(c, v, out)
            return out
        lo, hi = min(0, v.lb), max(0, v.ub)
        z = self.new_int(lo, hi, self.fresh("gate"))
        self.model.add(z == v.expr()).only_enforce_if(c)
        self.model.add(z == 0).only_enforce_if(self.not_(c))
        if not self.relaxation:
            return self.var_int(z, lo, hi)
        # big-M forms for the relaxation
        self.model.add(z <= hi * c)
        self.model.add(z >= lo * c)
        self.model.add(z <= v.expr() - v.lb * (1 - c))
        self.model.add(z >= v.expr() - v.ub * (1 - c))
        return self.var_int(z, lo, hi)

    def _gate_bounds(self, c, v: IntV, out: IntV):
        """Per-cell contribution bounds: a gated value never exceeds the value's own
        bounds times the gate, which the linear relaxation does not see by itself."""
        pos = v.const + sum(coef for _, coef in v.terms.values() if coef > 0)
        neg = v.const + sum(coef for _, coef in v.terms.values() if coef < 0)
        expr = out.expr()
        if v.ub < pos:
            self.model.add(expr <= v.ub * c)
        if v.lb > neg:
            self.model.add(expr >= v.lb * c)
        if v.cond_bound is not None and v.cond_bound[0] is c:
            _, num, den, key = v.cond_bound
            self.model.add(den * expr <= num * key.expr())

    def all_bool(self, v: IntV) -> bool:
        return all(self.var_bounds(var) == (0, 1) for var, _ in v.terms.values())

    def cmp(self, a, op: str, b, span: Span | None = None):
        """A literal for ``a op b`` (op in == != < <= > >=)."""
        if type(a) is IntV and type(b) is int:
            d = a if b == 0 else IntV(a.terms, a.const - b, a.lb - b, a.ub - b)
        else:
            d = self.linear([(1, a), (-1, b)])
        if isinstance(d, int):
            return {"==": d == 0, "!=": d != 0, "<": d < 0, "<=": d <= 0, ">": d > 0, ">=": d >= 0}[op]
        # normalise to d <= k / d >= k / d == k with k from the constant
        k = -d.const
        lb, ub = d.lb - d.const, d.ub - d.const   # bounds of the variable part
        if op == "<":
            op, k = "<=", k - 1
        elif op == ">":
            op, k = ">=", k + 1
        if op == "<=":
            if ub <= k:
                return True
            if lb > k:
                return False
        elif op == ">=":
            if lb >= k:
                return True
            if ub < k:
                return False
        elif op == "==":
            if lb == ub == k:
                return True
            if k < lb or k > ub:
                return False
        elif op == "!=":
            if k < lb or k > ub:
                return True
            if lb == ub == k:
                return False
        memo = (frozenset((kk, c) for kk, (_, c) in d.terms.items()), op, k)
        if memo in self._cmp:
            return self._cmp[memo]
        if op == "!=":
            z = self.not_(self.cmp(a, "==", b, span))
            self._cmp[memo] = z
            return z
        # a single boolean term needs no new variable
        if len(d.terms) == 1:
            (var, c), = d.terms.values()
            if self.var_bounds(var) == (0, 1):
                vals = {0: 0, 1: c}
                true_at = [x for x in (0, 1) if {"<=": vals[x] <= k, ">=": vals[x] >= k,
                                                 "==": vals[x] == k}[op]]
                if true_at == [1]:
                    z = var
                elif true_at == [0]:
                    z = self.not_(var)
                else:
                    z = bool(true_at)
                self._cmp[memo] = z
                return z
        z = self.new_bool(self.fresh("cmp"))
        expr = IntV(d.terms, 0, lb, ub).expr()
        # enforced constraints for propagation, and their big-M forms for the relaxation
        if op == "<=":
            self.model.add(expr <= k).only_enforce_if(z)
            self.model.add(expr >= k + 1).only_enforce_if(self.not_(z))
            if self.relaxation:
                self.model.add(expr + (ub - k) * z <= ub)
                self.model.add(expr - (k + 1 - lb) * (1 - z) >= lb)
        elif op == ">=":
            self.model.add(expr >= k).only_enforce_if(z)
            self.model.add(expr <= k - 1).only_enforce_if(self.not_(z))
            if self.relaxation:
                self.model.add(expr - (k - lb) * z >= lb)
                self.model.add(expr + (ub - k + 1) * (1 - z) <= ub)
        else:
            self.model.add(expr == k).only_enforce_if(z)
            self.model.add(expr != k).only_enforce_if(self.not_(z))
        self._cmp[memo] = z
        return z

    def minmax(self, kind: str, values: list, span: Span | None = None):
        vals = [self.intv(v, span) for v in values]
        if all(isinstance(v, int) for v in vals):
            return min(vals) if kind == "min" else max(vals)
        consts = [v for v in vals if isinstance(v, int)]
        syms = [v for v in vals if not isinstance(v, int)]
        if consts:
            c = min(consts) if kind == "min" else max(consts)
            # drop what the constant already decides
            if kind == "min":
                syms = [v for v in syms if v.lb < c]
                if not syms:
                    return c
            else:
                syms = [v for v in syms if v.ub > c]
                if not syms:
                    return c
            syms.append(c)
        # one operand per distinct expression (a value repeated once per element of a
        # collection is one operand, or the value itself)
        seen = set()
        syms = [v for v in syms if not (k := _linear_key(v)) in seen and not seen.add(k)]
        if len(syms) == 1:
            return syms[0]
        lbs = [v if isinstance(v, int) else v.lb for v in syms]
        ubs = [v if isinstance(v, int) else v.ub for v in syms]
        lo = min(lbs) if kind == "min" else max(lbs)
        hi = min(ubs) if kind == "min" else max(ubs)
        z = self.new_int(lo, hi, self.fresh(kind))
        exprs = [v if isinstance(v, int) else v.expr() for v in syms]
        if kind == "min":
            self.model.add_min_equality(z, exprs)
            for x in exprs if self.relaxation else ():     # the side the linear relaxation needs
                self.model.add(z <= x)
        else:
            self.model.add_max_equality(z, exprs)
            for x in exprs if self.relaxation else ():
                self.model.add(z >= x)
        return self.var_int(z, lo, hi)

    def mul(self, a, b, span: Span | None = None):
        a, b = self.intv(a, span), self.intv(b, span)
        if isinstance(a, int) and isinstance(b, int):
            return a * b
        if isinstance(a, int):
            return self.linear([(a, b)])
        if isinstance(b, int):
            return self.linear([(b, a)])
        for x, y in ((a, b), (b, a)):
            if len(x.terms) == 1 and x.const == 0 and self.all_bool(x):
                (var, c), = x.terms.values()
                return self.linear([(c, self.gate(var, y, span))])
        corners = [a.lb * b.lb, a.lb * b.ub, a.ub * b.lb, a.ub * b.ub]
        z = self.new_int(min(corners), max(corners), self.fresh("mul"))
        self.model.add_multiplication_equality(z, [self.to_var(a), self.to_var(b)])
        return self.var_int(z, min(corners), max(corners))

    # ================================================================ cases
    def case_map(self, v: CaseV, fn, span: Span | None = None):
        """Apply ``fn`` to each alternative of a case split and merge the results."""
        results = [(lit, fn(val)) for lit, val in v.cases]
        return self.merge_cases(results, span)

    def merge_cases(self, results, span: Span | None = None):
        flat = []
        todo = list(results)
        while todo:
            lit, r = todo.pop(0)
            if isinstance(r, ScoreV):
                r = r.total
            if isinstance(r, CaseV):        # a case of cases: one level of cases
                todo[:0] = [(self.and_([lit, inner]), v) for inner, v in r.cases]
            else:
                flat.append((lit, r))
        results = [(lit, r) for lit, r in flat if lit is not False]
        if not results:
            return False        # no alternative is ever taken (the value is never used)
        vals = [r for _, r in results]
        if all(not isinstance(r, Sym) for r in vals) and all(r == vals[0] for r in vals):
            return vals[0]
        if all(isinstance(r, (bool, BoolV)) for r in vals):
            return self.boolv(self.or_([self.and_([lit, self.lit(r)]) for lit, r in results]))
        if all(isinstance(r, (int, IntV, BoolV)) and not isinstance(r, bool) or isinstance(r, bool)
               for r in vals):
            return self.linear([(1, self.gate(lit, r, span)) for lit, r in results])
        return CaseV([(lit, r) for lit, r in results])

    # ================================================================ walking
    def encode(self, e: I.Expr, env: dict[str, Any]):
        self._ticks -= 1
        if self._ticks <= 0:
            self._tick()
        if type(e) is I.Local:
            v = env.get(e.name, _NO_VALUE)
            if v is not _NO_VALUE:
                return v
        info = _NODES.get(id(e))
        if info is None or info[0] is not e:
            info = _node_info(e, self.program)
        if info[5] is not None:         # a field of a record whose fields may be symbolic
            rec = env.get(info[5][0])
            if type(rec) is RecordV:
                return rec.fields[info[5][1]]
        free = info[1]
        if free is not None and self.interp is not None:
            args = []
            known = self._known_types
            for n in free:
                v = env.get(n, _NO_VALUE)
                if type(v) not in known and (v is _NO_VALUE or isinstance(v, Sym) or
                                             (isinstance(v, tuple) and self.symbolic_tuple(v))):
                    break
                args.append(v)
            else:
                interp = self.interp
                if info[4] is not interp:
                    info[3], info[4] = interp.compiled(e, free), interp
                interp.ns["ST"] = self.state
                try:
                    return info[3](*args)
                except Exception:   # an error of the rules (a division by 0...), or RulesError:
                    pass     # walked below, where the error is located or the value unused
        try:
            return info[2](self, e, env)
        except NotSupportedError as exc:
            if any(d.span.line > 0 for d in exc.diagnostics):
                raise
            # raised by a helper that had no place to give: the innermost expression
            raise NotSupportedError(exc.diagnostics[0].message, e.span) from None

    def symbolic_tuple(self, v: tuple) -> bool:
        """Whether a tuple holds a symbolic value (remembered: tuples do not change)."""
        if hasattr(v, "rw_fields"):
            return False         # a known record (one with symbolic fields is a RecordV)
        hit = self._tuples.get(id(v))
        if hit is not None and hit[0] is v:
            return hit[1]
        result = any(_symbolic(x) for x in v)
        self._tuples[id(v)] = (v, result)
        return result

    # ------------------------------------------------------------ records
    def record(self, name: str, fields: dict, like=None):
        """A record whose fields may be symbolic; the same fields give the same record,
        so a record built twice by the same definition is one claimant, one key."""
        if not any(isinstance(v, Sym) for v in fields.values()):
            info = self.program.records[name]
            return info.cls(*[fields[f] for f, _ in info.fields])
        memo = (name,) + tuple((f, ("S", id(v)) if isinstance(v, Sym) else _hashable(v))
                               for f, v in sorted(fields.items()))
        hit = self._records.get(memo)
        if hit is not None:
            return hit[0]
        rec = RecordV(name, fields)
        self._records[memo] = (rec, list(fields.values()))
        return rec

    # ------------------------------------------------------------ tuples
    def lex(self, a: list, op: str, b: list, span: Span | None = None):
        """A literal for tuples compared element by element (op in == != < <= > >=)."""
        if len(a) != len(b):
            raise NotSupportedError("tuples of different lengths", span)
        known = self.lex_known(a, op, b)
        if known is not _NO_VALUE:
            return known
        diffs = []
        for x, y in zip(a, b):
            if type(x) is int and type(y) is int:
                diffs.append(x - y)
                continue
            if not isinstance(x, (int, IntV, BoolV)) or not isinstance(y, (int, IntV, BoolV)):
                break
            x, y = self.intv(x), self.intv(y)
            diffs.append(self.linear([(1, x), (-1, y)]))
        if len(diffs) == len(a):
            for i, d in enumerate(diffs):
                if not isinstance(d, int):
                    diffs = diffs[i:]
                    break
                if d != 0:       # decided by a known element, the first that differs
                    return {"==": False, "!=": True, "<": d < 0, "<=": d < 0, ">": d > 0, ">=": d > 0}[op]
            else:
                return op in ("==", "<=", ">=")
            # Numbers: one comparison of the differences weighted in mixed radix.
            weights = _radix([abs(d) if isinstance(d, int) else max(abs(d.lb), abs(d.ub)) for d in diffs])
            parts = list(zip(weights, diffs))
            return self.cmp(self.linear(parts), op, 0, span)
        if op in ("==", "!="):
            eq = self.and_([self.cmp(x, "==", y, span) for x, y in zip(a, b)])
            return eq if op == "==" else self.not_(eq)
        if op in ("<", "<="):
            a, b, op = b, a, _FLIPPED[op]
        result = self.cmp(a[-1], op, b[-1], span)
        for x, y in zip(reversed(a[:-1]), reversed(b[:-1])):
            result = self.or_([self.cmp(x, ">", y, span), self.and_([self.cmp(x, "==", y, span), result])])
        return result

    def lex_known(self, a: list, op: str, b: list):
        """``lex`` when one side is all known numbers: a weighted sum of the other side's
        undecided elements against a number. Its weights depend only on those elements'
        bounds, so the sum is built once for every comparison with the same tuple.
        An element whose difference has a fixed sign (the number is outside its
        bounds) ends the comparison there. ``_NO_VALUE`` when it does not apply."""
        if not all(type(y) is int for y in b):
            if not all(type(x) is int for x in a):
                return _NO_VALUE
            a, b, op = b, a, _FLIPPED[op]
        prefix = []
        sign = 0
        for x, y in zip(a, b):
            if type(x) is int or type(x) is bool:
                lo = hi = int(x)
            elif isinstance(x, (IntV, BoolV)):
                x = self.intv(x)
                lo, hi = x.lb, x.ub
            else:
                return _NO_VALUE
            if lo == hi == y:
                continue                  # equal here whatever the choices
            if lo > y or hi < y:
                sign = 1 if lo > y else -1
                break                     # decided here when every element before is equal
            prefix.append((x, y))
        if not prefix:
            return {"==": sign == 0, "!=": sign != 0, "<": sign < 0, "<=": sign <= 0,
                    ">": sign > 0, ">=": sign >= 0}[op]
        key = tuple(id(x) for x, _ in prefix)
        hit = self._lex_sums.get(key)
        if hit is None:
            # each number lies within its element's bounds, so a difference reaches at
            # most their width
            weights = _radix([x.ub - x.lb for x, _ in prefix])
            hit = self._lex_sums[key] = (self.linear([(w, x) for w, (x, _) in zip(weights, prefix)]),
                                         weights, [x for x, _ in prefix])
        total, weights = hit[0], hit[1]
        k = sum(w * y for w, (_, y) in zip(weights, prefix))
        # a op b, with D = total - k the sign of the undecided prefix and sign the rest's
        if op == "==" or op == "!=":
            eq = self.cmp(total, "==", k) if sign == 0 else False
            return eq if op == "==" else self.not_(eq)
        if op in (">", ">="):
            weak = sign > 0 or (op == ">=" and sign == 0)
            return self.cmp(total, ">=" if weak else ">", k)
        weak = sign < 0 or (op == "<=" and sign == 0)
        return self.cmp(total, "<=" if weak else "<", k)

    def div(self, num, den, span: Span | None = None):
        """``num // den`` for a non-negative numerator and a positive denominator."""
        num, den = self.intv(num, span), self.intv(den, span)
        if isinstance(num, int) and isinstance(den, int):
            return num // den
        if isinstance(den, int):
            lo, hi = num.lb // den, num.ub // den
            z = self.new_int(lo, hi, self.fresh("div"))
            self.model.add(den * z <= num.expr())
            self.model.add(num.expr() <= den * z + den - 1)
            return self.var_int(z, lo, hi)
        dpos = self.minmax("max", [den, 1], span)
        lo, hi = min(0, num.lb) if not isinstance(num, int) else min(0, num), \
            num.ub if not isinstance(num, int) else num
        z = self.new_int(lo, max(lo, hi), self.fresh("div"))
        self.model.add_division_equality(z, self.to_var(num), self.to_var(dpos))
        return self.var_int(z, lo, max(lo, hi))

    def floor_divmod(self, num, den, span: Span | None = None):
        """``(num // den, num % den)`` as the interpreter computes them: the quotient
        rounded down, the remainder of the divisor's sign. Where the division is
        reached its divisor is not 0 (an option that divides by 0 is not one)."""
        num, den = self.intv(num, span), self.intv(den, span)
        if isinstance(num, int) and isinstance(den, int) and den != 0:
            return divmod(num, den)
        reach = self.reached()
        if isinstance(den, int):
            if den == 0:        # no option reaches it
                self.never_reached(span)
                return 0, 0
            if den < 0:     # num // den == -num // -den; num % den == -(-num % -den)
                q, r = self.floor_divmod(self.linear([(-1, num)]), -den, span)
                return q, self.linear([(-1, r)])
            lo, hi = num.lb // den, num.ub // den
            z = self.new_int(lo, hi, self.fresh("div"))
            self.model.add(den * z <= num.expr())
            self.model.add(num.expr() <= den * z + den - 1)
            return self.var_int(z, lo, hi), self.linear([(1, num), (-den, self.var_int(z, lo, hi))])
        dl, du = den.lb, den.ub
        big = max(abs(num.lb), abs(num.ub)) if isinstance(num, IntV) else abs(num)
        z = self.new_int(-big, big, self.fresh("div"))
        corners = [-big * dl, -big * du, big * dl, big * du]
        p = self.new_int(min(corners), max(corners), self.fresh("prod"))
        self.model.add_multiplication_equality(p, [z, self.to_var(den)])
        if dl <= 0 <= du:
            self.implies(reach, self.cmp(den, "!=", 0))
        dl, du = (1 if dl == 0 else dl), (-1 if du == 0 else du)     # never 0 where it counts
        rlo, rhi = min(0, dl + 1), max(0, du - 1)
        r = self.new_int(rlo, rhi, self.fresh("mod"))
        gate = [] if reach is True else [reach]
        num_e = num if isinstance(num, int) else num.expr()
        self.model.add(r == num_e - p).only_enforce_if(gate)
        if dl >= 1:
            self.model.add(r <= den.expr() - 1).only_enforce_if(gate)
        elif du <= -1:
            self.model.add(r >= den.expr() + 1).only_enforce_if(gate)
        else:           # the remainder takes the divisor's sign
            pos = self.cmp(den, ">", 0)
            self.model.add(r >= 0).only_enforce_if(gate + [pos])
            self.model.add(r <= den.expr() - 1).only_enforce_if(gate + [pos])
            self.model.add(r <= 0).only_enforce_if(gate + [self.not_(pos)])
            self.model.add(r >= den.expr() + 1).only_enforce_if(gate + [self.not_(pos)])
        return self.var_int(z, -big, big), self.var_int(r, rlo, rhi)

    # ------------------------------------------------------------ allocation
    def allocate(self, claims, supply, stop: bool, even: bool, span: Span | None = None) -> MapV:
        """A supply served by key, the largest first (see ``runtime.allocate``), for
        claims (guard, key, need, claimant) whose keys and needs may be symbolic:
        what comes before each claimant and what its tied group needs are sums of
        needs under pairwise key comparisons. With ``stop`` a claimant's share is
        encoded when it is first read (a query reads few of them)."""
        def items(k):
            if isinstance(k, ListV):
                return [x for _, x in k.items]
            return list(k) if isinstance(k, tuple) else [k]
        keys = [items(k) for _, k, _, _ in claims]
        n = len(claims)
        pairs: dict = {}

        def rel(j, i):
            """(claimant j present and ahead of i, present and tied with i)."""
            if (j, i) not in pairs:
                g = claims[j][0]
                pairs[j, i] = (self.and_([g, self.lex(keys[j], ">", keys[i], span)]),
                               self.and_([g, self.lex(keys[j], "==", keys[i], span)]))
            return pairs[j, i]

        others = {i: [j for j in range(n) if j != i and claims[j][0] is not False] for i in range(n)}
        shares: dict = {}
        if not stop:
            for i, (g, _, need, _) in enumerate(claims):
                need = self.intv(need, span)
                ub = need if isinstance(need, int) else need.ub
                shares[i] = self.var_int(self.new_int(0, max(0, ub), self.fresh("share")), 0, max(0, ub))

        def share_of(i):
            g, _, need, _ = claims[i]
            group_need = self.linear([(1, need)] + [(1, self.gate(rel(j, i)[1], claims[j][2], span))
                                                    for j in others[i]])
            if not stop:
                served = self.linear([(1, self.gate(rel(j, i)[0], shares[j], span)) for j in others[i]])
                left = self.linear([(1, supply), (-1, served)])
                share = self.intv(self.gate(self.cmp(group_need, "<=", left, span), need, span))
                self.model.add(shares[i].expr() == (share.expr() if isinstance(share, IntV) else share))
                return shares[i]
            before = self.linear([(1, self.gate(rel(j, i)[0], claims[j][2], span)) for j in others[i]])
            left = self.minmax("max", [0, self.linear([(1, supply), (-1, before)])], span)
            full = self.cmp(group_need, "<=", left, span)
            if full is True:
                return need
            if even:
                size = self.linear([(1, 1)] + [(1, self.boolv(rel(j, i)[1])) for j in others[i]])
                short = self.minmax("min", [need, self.div(left, size, span)], span)
            elif all(rel(j, i)[1] is False for j in others[i]):
                short = left             # alone in its group: what is left
            else:
                short = self.div(self.mul(left, need, span), self.minmax("max", [group_need, 1], span), span)
            return self.merge_cases([(full, need), (self.not_(full), short)], span)

        entries = []
        for i, (g, _, need, who) in enumerate(claims):
            if g is False:
                continue
            if stop:
                entries.append((g, who, _Lazy(lambda i=i: share_of(i))))
            else:
                entries.append((g, who, share_of(i)))    # every share is read by the others
        return MapV(entries)

    def en_Const(self, e: I.Const, env):
        return e.value

    def en_Local(self, e: I.Local, env):
        if e.name not in env:
            raise NotSupportedError(f"'{e.name}' has no value here", e.span)
        return env[e.name]

    def en_Global(self, e: I.Global, env):
        if e.name in self.program.funcs:
            fd = self.program.funcs[e.name]
            return self.encode(fd.body, {})
        if self.state is not None:
            if e.name in ("seats", "players"):
                return getattr(self.state, e.name)
            if e.name in self.state.shared:
                value = self.state.shared[e.name]
                return rt.as_tuple(value) if isinstance(value, rt.Zone) else value
        raise NotSupportedError(f"'{e.name}' depends on a game state the query does not have", e.span)

    def en_SeatVar(self, e: I.SeatVar, env):
        seat = self.encode(e.seat, env)
        if self.state is None or isinstance(seat, Sym):
            raise NotSupportedError(f"'{e.name}(...)' needs a known seat and a game state", e.span)
        value = self.state.per[e.name][seat]
        return rt.as_tuple(value) if isinstance(value, rt.Zone) else value

    def en_Call(self, e: I.Call, env):
        args = [self.encode(a, env) for a in e.args]
        if e.name in self.program.scorings:
            if e.mode < 0 and not any(_symbolic(a) for a in args):
                # least(...) of known arguments: the worst total for the owner, a number
                # the interpreter computes (a choice made against the owner has no
                # encoding inside a maximised query, but here nothing is left to choose)
                # the encoder's own interpreter when it has one (a query on a position), else
                # the program's, used for this value only
                interp = self.interp if self.interp is not None else interpreter_for(self.program)
                interp.ns["ST"] = self.state        # (none without a position: not a stale one)
                try:
                    value = interp.call(e.name, *args, mode=e.mode)
                except Exception:   # (it reads a game state the query has none of...): walked
                    return self.scoring(self.program.scorings[e.name], args, e.mode, e.span)  # below, located
                self.worst.append((e.name, tuple(c for c in self.context if c is not True)))
                return value
            return self.scoring(self.program.scorings[e.name], args, e.mode, e.span)
        fd = self.program.funcs[e.name]
        info = _DEFS.get(id(fd))
        if info is None or info[0] is not fd:
            info = _DEFS[id(fd)] = (fd, [p for p, _ in fd.params], fields_read(fd, self.program))
        # inline the definition's body; what its known arguments decide is folded
        if self.interp is None:
            return self.encode(fd.body, dict(zip(info[1], args)))
        memo = (e.name, *map(_memo_key, args, info[2]))
        hit = self._calls.get(memo)
        if hit is not None:
            if not hit[2]:
                return hit[0]
            # an encoding that holds only where some literals hold is reused where they hold
            active = {self.key(g) for g in self.context if not isinstance(g, bool)}
            if all(self.key(g) in active for g in hit[2]):
                self.relied.extend(hit[2])
                return hit[0]
        outer, self.relied = self.relied, []
        depth = len(self.context)
        try:
            value = self.encode(fd.body, dict(zip(info[1], args)))
        finally:
            relied, self.relied = self.relied, outer
        if relied:
            # only the literals the call was made under count (the body's own branches
            # and elements are encoded again with the body)
            mine = {self.key(g) for g in self.context[:depth] if not isinstance(g, bool)}
            relied = [g for g in relied if self.key(g) in mine]
            outer.extend(relied)
        self._calls[memo] = (value, args, tuple(relied))
        return value

    def en_Op(self, e: I.Op, env):
        op = e.op
        if op == "and" or op == "or":
            value = self.chain(e, env)
            if value is not _NO_VALUE:
                return value
        # What a known first operand decides is not encoded: "false and x", "true or x",
        # the branch an "if" does not take.
        if op == "and" or op == "or" or op == "if":
            first = self.encode(e.args[0], env)
            if isinstance(first, bool):
                if e.op == "and":
                    return self.encode(e.args[1], env) if first else False
                if e.op == "or":
                    return True if first else self.encode(e.args[1], env)
                return self.encode(e.args[1] if first else e.args[2], env)
            # the other operands are reached only when the first one says so
            c = self.lit(first, e.args[0].span) if isinstance(first, Sym) else bool(first)
            if op == "if":
                args = [first, self.branch(c, e.args[1], env), self.branch(self.not_(c), e.args[2], env)]
            else:
                args = [first, self.branch(c if op == "and" else self.not_(c), e.args[1], env)]
        else:
            args = [self.encode(a, env) for a in e.args]
        operator = OPERATORS[op]
        for a in args:
            if isinstance(a, Sym):
                break
        else:
            if e.op == "first" and not rt.as_tuple(args[0]):
                # No element: the interpreter stops there. In a model the value may be
                # one no choice keeps (a record filtered down to nothing): it is None, equal to
                # nothing; the witness is replayed by the interpreter in any case.
                return None
            try:
                return operator.evaluate(*args, data=e.data)
            except ZeroDivisionError:   # no option reaches a division by 0
                self.never_reached(e.span)
                return 0
            except Exception as exc:  # an error of the rules on these values
                raise NotSupportedError(f"cannot compute {e.op} here: {exc}", e.span) from None
        # A case split over known alternatives: compute each alternative.
        cases = [i for i, a in enumerate(args) if isinstance(a, CaseV)]
        if cases and all(not isinstance(v, Sym) for a in args if isinstance(a, CaseV)
                         for _, v in a.cases) and \
                all(not isinstance(a, Sym) or isinstance(a, CaseV) for a in args):
            i = cases[0]
            results = []
            for lit, val in args[i].cases:
                sub = list(args)
                sub[i] = val
                if any(isinstance(a, Sym) for a in sub):
                    results.append((lit, self.apply(operator, e, sub)))
                    continue
                try:
                    results.append((lit, operator.evaluate(*sub, data=e.data)))
                except ZeroDivisionError:   # no option takes this alternative here
                    self.never_reached_with(lit, e.span)
            return self.merge_cases(results, e.span)
        return self.apply(operator, e, args, check=False)

    def chain(self, e: I.Op, env):
        """``a and b and c ...`` (or ``or``) as one conjunction of its operands, left to
        right: a known false (true) operand stops it, known true (false) ones are left
        out, the rest make one literal. ``_NO_VALUE`` when an operand is known but not a
        truth value (then the operator's own meaning applies)."""
        absorbing = e.op == "or"
        syms = []
        lits = []
        depth = len(self.context)
        try:
            for part in _chain_parts(e):
                v = self.encode(part, env)
                if v is absorbing:
                    return absorbing
                if v is (not absorbing):
                    continue
                if not isinstance(v, Sym):
                    return _NO_VALUE
                syms.append(v)
                lit = self.lit(v, e.span)
                lits.append(lit)
                # the next operands are reached only when this one does not decide
                self.context.append(self.not_(lit) if absorbing else lit)
        finally:
            del self.context[depth:]
        if not syms:
            return not absorbing
        if len(syms) == 1 and isinstance(syms[0], BoolV):
            return syms[0]
        return self.boolv(self.or_(lits) if absorbing else self.and_(lits))

    def apply(self, operator, e: I.Op, args, check: bool = True):
        """The operator's meaning on known operands, else its encoding (``check=False``
        when an operand is already known to be symbolic)."""
        if check and not any(isinstance(a, Sym) for a in args):
            try:
                return operator.evaluate(*args, data=e.data)
            except ZeroDivisionError:   # no option reaches a division by 0
                self.never_reached(e.span)
                return 0
        encode = ENCODINGS.get(e.op)
        if encode is None:
            raise NotSupportedError(f"the solver cannot use '{e.op}' on values that depend on a choice "
                                    f"({operator.doc})", e.span)
        return encode(self, e, *args)

    # ------------------------------------------------------------ aggregates
    def iterate(self, binders: list[I.Binder], env, guard=True):
        """(guard literal, environment) for every combination of the binders."""
        if not binders:
            yield guard, env
            return
        b = binders[0]
        # what the interpreter computes only for the elements there: an inner collection
        # for an element of the outer one, a condition for an element of its collection
        coll = self.encode(b.coll, env) if guard is True else self.under(guard, b.coll, env)
        rest = binders[1:]
        for elem, member in self.elements(coll, b.coll.span):
            g = member if guard is True else guard if member is True else self.and_([guard, member])
            if g is False:
                continue
            inner = dict(env)
            inner[b.var] = elem
            if b.cond is not None:
                c = self.lit(self.encode(b.cond, inner) if g is True else self.under(g, b.cond, inner),
                             b.cond.span)
                g = c if g is True else g if c is True else self.and_([g, c])
                if g is False:
                    continue
            if rest:
                yield from self.iterate(rest, inner, g)
            else:
                yield g, inner

    def elements(self, coll, span: Span):
        if isinstance(coll, SetV):
            return list(coll.members.items())
        if isinstance(coll, ListV):
            return [(v, g) for g, v in coll.items]
        if isinstance(coll, GroupsV):
            return [(SetV(coll.members[r]), lit) for r, lit in coll.roots.items()]
        if isinstance(coll, CountsV):
            raise NotSupportedError("cannot go over the cards of a grid that depends on a choice; "
                                    "go over its cells instead", span)
        if isinstance(coll, Sym):
            raise NotSupportedError(f"cannot go over a {type(coll).__name__} that depends on a choice", span)
        return [(x, True) for x in rt.as_tuple(coll)]

    def en_Agg(self, e: I.Agg, env):
        items = list(self.iterate(e.binders, env))
        if all(g is True for g, _ in items):
            # fully known iteration: the elements may still be symbolic
            pass
        encode = AGG_ENCODINGS.get(e.func)
        if encode is None:
            raise NotSupportedError(f"the solver cannot use {e.func}() here", e.span)
        saved, self.agg_env = self.agg_env, env
        try:
            return encode(self, e, items)
        finally:
            self.agg_env = saved

    # ------------------------------------------------------------ scorings
    def scoring(self, sd: I.ScoringDef, args, mode: int, span: Span):
        env = {p: a for (p, _), a in zip(sd.params, args)}
        for layer in sd.layers:
            env[layer] = LayerV({})
        steps: dict[str, Any] = {}
        choices: dict[str, Any] = {}
        score = ScoreV(steps, choices, 0, sd.name, mode, self.reached())
        for step in sd.steps:
            steps[step.name] = 0
            for st in step.body:
                self.scoring_stmt(st, env, steps, step.name, choices, mode, sd)
        score.total = self.linear([(1, v) for v in steps.values()])
        self.scorings.append(score)
        return score

    def scoring_stmt(self, st: I.Stmt, env, steps, step, choices, mode, sd):
        if isinstance(st, I.Let):
            env[st.name] = self.encode(st.value, env)
        elif isinstance(st, I.Points):
            steps[step] = self.linear([(1, steps[step]), (1, self.encode(st.value, env))])
        elif isinstance(st, I.Mark):
            cells = self.encode(st.cells, env)
            layer: LayerV = env[st.layer]
            marks = dict(layer.marks)
            for cell, member in self.elements(cells, st.cells.span):
                marks[cell] = self.or_([marks.get(cell, False), member])
            env[st.layer] = LayerV(marks)
        elif isinstance(st, I.Choose):
            if mode < 0:
                raise NotSupportedError(Diagnostic(
                    st.span, "the solver cannot minimise a score while maximising the query (a choice "
                    "made against the score's owner)",
                    "least(...) is computed whole when its arguments are known (choose what they depend on "
                    "from a known collection before it: choose x in C, not a whole grid) and, if its rules "
                    "read the game, the query is asked on a position"))
            value = self.choose(st, env, f"{sd.name}.{st.name}")
            env[st.name] = value
            choices[st.name] = value
            self.choices.append(Choice(st.name, value, st.domain, sd.name))
        elif isinstance(st, I.If):
            c = self.encode(st.cond, env)
            if isinstance(c, Sym):
                raise NotSupportedError("the solver cannot branch a scoring on a value that depends on "
                                        "a choice; use 'if ... then ... else' in an expression", st.span)
            for s in (st.then if c else st.other):
                self.scoring_stmt(s, env, steps, step, choices, mode, sd)
        elif isinstance(st, I.For):
            coll = self.encode(st.coll, env)
            if isinstance(coll, Sym):
                raise NotSupportedError("the solver cannot loop over a collection that depends on a "
                                        "choice in a scoring; use sum(...) instead", st.span)
            for x in rt.as_tuple(coll):
                inner = dict(env)
                inner[st.var] = x
                for s in st.body:
                    self.scoring_stmt(s, inner, steps, step, choices, mode, sd)
        else:
            raise NotSupportedError(f"'{type(st).__name__.lower()}' in a scoring", st.span)

    # ------------------------------------------------------------ choices
    def choose(self, st: I.Choose, env, label: str):
        if st.domain == "value":
            t = st.type
            if not isinstance(t, BoardT):
                raise NotSupportedError("only a grid can be chosen whole", st.span)
            value = self.new_board(self.program.grids[t.grid], st.name, allow_free=True)
            env2 = dict(env)
            env2[st.name] = value
            if st.where is not None:
                free = free_locals(st.where, self.program)
                if self.hard_grid_wheres and self.context and free is not None \
                        and not any(isinstance(env2.get(n), Sym) for n in free if n != st.name):
                    # A grid made on one path only matters there, and its condition reads
                    # nothing else that depends on a choice: required everywhere, which
                    # keeps CP-SAT's bounds tight. Sound unless the condition cannot hold
                    # for this path's grid; then the model is infeasible, and the query
                    # is encoded again with the condition required on its path only.
                    self.hardened = True
                    saved, self.context = self.context, []
                    try:
                        self.require(st.where, env2)
                    finally:
                        self.context = saved
                else:
                    self.require(st.where, env2)
            return value
        coll = self.encode(st.coll, env)
        elems = self.elements(coll, st.coll.span)
        if st.domain == "element":
            cases = []
            for elem, member in elems:
                if member is False:
                    continue
                ok = member
                if st.where is not None:
                    inner = dict(env)
                    inner[st.name] = elem
                    ok = self.and_([member, self.lit(self.encode(st.where, inner), st.where.span)])
                if ok is False:
                    continue
                sel = self.new_bool(f"{label}={cell_name(elem)}")
                self.implies(sel, ok)
                cases.append((sel, elem))
            reach = self.reached()
            if not cases:
                self.dead_end = self.dead_end or len(self.context) == self.dead_depth
                had = any(m is not False for _, m in elems)
                if self.explain:
                    self._empty_choice_leaf(st, had, reach)
                elif reach is True:
                    self.infeasible.append(st.span)
                    self.empty_choices.append((st, had))
                    self.model.add_bool_or([])
                else:
                    self.implies(reach, False)
                return CaseV([])
            if reach is True:
                self.model.add_exactly_one([s for s, _ in cases])
            else:       # made only where the choice is reached
                self.model.add(sum(s for s, _ in cases) == reach)
            return CaseV(cases)
        if st.size is None:
            # any sub-collection, a sub-list in the collection's order: one literal per
            # element; copies of a value next to each other, both surely in the
            # collection, are taken in order (which of them is left out makes no
            # other list)
            items = []
            run = None          # (value, literal) of the element before, when known
            for elem, member in elems:
                if member is False:
                    continue
                sel = self.new_bool(f"{label}[{len(items)}]={cell_name(elem)}")
                self.implies(sel, member)
                key = None if isinstance(elem, Sym) or member is not True else _hashable(elem)
                if key is not None and run is not None and run[0] == key:
                    self.model.add_implication(sel, run[1])
                run = None if key is None else (key, sel)
                items.append((sel, elem))
            value = ListV(items)
            if st.where is not None:
                inner = dict(env)
                inner[st.name] = value
                self.require(st.where, inner)
            return value
        # subset
        size = self.encode(st.size, env)
        members = {}
        for elem, member in elems:
            if member is False:
                continue
            sel = self.new_bool(f"{label}[{cell_name(elem)}]")
            self.implies(sel, member)
            members[elem] = sel
        value = SetV(members)
        reach = self.reached()
        sized = self.model.add(sum(members.values()) == self.intv(size).expr()
                               if isinstance(self.intv(size), IntV) else sum(members.values()) == size)
        if reach is not True:
            sized.only_enforce_if(reach)
        if st.where is not None:
            inner = dict(env)
            inner[st.name] = value
            self.require(st.where, inner)
        return value

    def new_board(self, grid: I.GridInfo, name: str, allow_free: bool) -> BoardV:
        values = list(self.program.enums[grid.cell_enum].values)
        if allow_free:
            values = values + [None]
        cells = {}
        board_ref = object()
        for cell in grid.cells:
            lits = {v: self.new_bool(f"{name}[{cell_name(cell)}]={v if v else '.'}") for v in values}
            self.model.add_exactly_one(list(lits.values()))
            self.register_onehot(lits, board_ref)
            cells[cell] = EnumV(lits)
        board = BoardV(grid, cells, name)
        board.ref = board_ref
        board.made_under = self._context_keys()
        self.boards.append(board)
        return board

    def count_cap(self, guards: list):
        """When counted literals are all one value of one grid's cells, at most as many
        as that grid can hold of the value (known from a required multiset)."""
        if not guards or any(isinstance(g, bool) for g in guards):
            return None
        if len({self.key(g) for g in guards}) != len(guards):
            return None         # a cell counted twice: the count may exceed the cap
        infos = [self.onehot.get(self.key(g)) for g in guards]
        if any(i is None for i in infos):
            return None
        owners = {id(self._group_owner.get(i[0])) for i in infos}
        values = {i[1] for i in infos}
        if len(owners) != 1 or len(values) != 1:
            return None
        owner = self._group_owner.get(infos[0][0])
        return self.value_caps.get((id(owner), infos[0][1]))

    # ------------------------------------------------------------ requirements
    def require(self, e: I.Expr, env):
        """Add ``e`` as a constraint where the expression being encoded is reached
        (everywhere at the top of a query), splitting conjunctions."""
        if isinstance(e, I.Op) and e.op == "and":
            self.require(e.args[0], env)
            self.require(e.args[1], env)
            return
        self._record_caps(e, env)
        reach = self.reached()
        v = self.encode(e, env)
        lit = self.lit(v, e.span)
        if lit is True:
            return
        if lit is False and len(self.context) == self.dead_depth:
            self.dead_end = True        # on the query's path itself: nothing after it has an option
        if reach is not True:
            self.implies(reach, lit)
            return
        if lit is False:
            self.infeasible.append(e.span)
            self.model.add_bool_or([])
            return
        self.model.add_bool_or([lit])

    def _record_caps(self, e: I.Expr, env):
        """A required ``contents(g) == known`` or ``within(contents(g), known)`` caps how
        many cells of g can hold each value, when it is required wherever g is made."""
        if not (isinstance(e, I.Op) and e.op in ("multiset_eq", "within") and
                isinstance(e.args[0], I.Op) and e.args[0].op == "contents"):
            return
        board = self.encode(e.args[0].args[0], env)
        known = self.encode(e.args[1], env)
        if not isinstance(board, BoardV) or isinstance(known, Sym) or not hasattr(board, "ref"):
            return
        here = self._context_keys()
        if here and getattr(board, "made_under", ()) != here:
            return      # required on some of the grid's paths only: no cap on the others
        counts: dict = {}
        for x in rt.as_tuple(known):
            counts[x] = counts.get(x, 0) + 1
        for value in self.program.enums[board.grid.cell_enum].values:
            self.value_caps[(id(board.ref), value)] = counts.get(value, 0)

    # ------------------------------------------------------------ statements of a query
    SPLIT_MAX = 64      # element choices from known collections up to this size are split

    def run_query(self, q: I.QueryDef, inputs: dict[str, Any]):
        """Encode a query. An element choice from a known collection is a case split:
        the statements after it are encoded once per option, under the option's
        literal, so what the option decides is known there (and folded). ``if`` then
        needs a known condition. Every maximize/minimize reached adds its value under
        its path's literal."""
        env: dict[str, Any] = {}
        self.run_block(q.body, env, True, {})
        objective = sense = None
        width = 0                       # a tuple objective: how many numbers it compares
        for st in statements(q.body):
            if isinstance(st, I.Objective):
                sense = st.sense
                width = len(st.value.type.items) if isinstance(st.value.type, TupleT) else 0
        if self.objectives:
            if not width:
                objective = self.linear([(1, self.gate(g, v)) for g, v in self.objectives])
            else:
                # a tuple of numbers compared left to right: one value per place
                objective = tuple(self.linear([(1, self.gate(g, self.component(v, i))) for g, v in self.objectives])
                                  for i in range(width))
        return env, objective, sense

    def component(self, v, i: int):
        """The i-th number of a tuple value (of each alternative of a case split)."""
        if isinstance(v, CaseV):
            return self.merge_cases([(lit, self.component(x, i)) for lit, x in v.cases])
        if isinstance(v, ListV):        # a tuple built from symbolic values
            return v.items[i][1]
        return v[i]

    path_failed = False      # (explaining) a require on this path fails whatever the choices

    def run_block(self, stmts: list[I.Stmt], env: dict, guard, path: dict):
        try:
            return self._run_block(stmts, env, guard, path)
        except RulesError:
            if not self.path_failed:
                raise
            # after a rule that fails whatever the choices, what it was there to
            # guarantee may not be computable: the path's reasons are the failed rules
            return False

    def _run_block(self, stmts: list[I.Stmt], env: dict, guard, path: dict):
        self.path_now = path
        for index, st in enumerate(stmts):
            if isinstance(st, I.Input):
                env[st.name] = self.input_value(st, env)
            elif isinstance(st, I.Let):
                env[st.name] = self.encode(st.value, env)
            elif isinstance(st, I.Choose):
                coll = self.encode(st.coll, env) if st.domain == "element" else None
                if st.domain == "element" and not isinstance(coll, Sym) and \
                        len(rt.as_tuple(coll)) <= self.SPLIT_MAX:
                    self.split(st, rt.as_tuple(coll), stmts[index + 1:], env, guard, path)
                    return
                self.dead_end, self.dead_depth = False, len(self.context)
                value = self.choose(st, env, st.name)
                if self.dead_end and not self.explain:
                    return False        # its condition cannot hold here: as for a require
                if guard is not True:
                    for lit in _choice_literals(value):
                        self.implies(lit, guard)
                env[st.name] = value
                self.choices.append(Choice(st.name, value, st.domain, extra={"guard": guard}))
            elif isinstance(st, I.Require):
                if not self.require_leaf(st.cond, env, guard, path, st):
                    if not self.explain:
                        return False        # no option on this path: nothing after it is encoded
                    self.path_failed = True
            elif isinstance(st, I.If):
                c = self.encode(st.cond, env)
                if isinstance(c, Sym):
                    raise NotSupportedError("a query branches on a known condition only (a choice made "
                                            "before it from a known collection is known here)", st.cond.span)
                if self.run_block(st.then if c else st.other, dict(env), guard, path) is False:
                    return False
            elif isinstance(st, I.Objective):
                self.objectives.append((guard, self.encode(st.value, env)))
                if st.names is not None:        # known: the resolver refuses names a choice decides
                    self.objective_names.append(self.encode(st.names, env))
            elif isinstance(st, (I.Report, I.Play)):
                pass            # shown and played from the replayed witness (queries._Walk)
            else:
                raise NotSupportedError(f"'{type(st).__name__.lower()}' in a query", st.span)

    def input_value(self, st: I.Input, env: dict):
        if st.name in self.inputs:
            return self.inputs[st.name]
        if st.default is not None:
            return self.encode(st.default, env)
        raise NotSupportedError(f"the query needs its input '{st.name}'", st.span)

    def split(self, st: I.Choose, options: tuple, rest: list, env: dict, guard, path: dict):
        sels: list = []
        # recorded first, so the witness lists choices in the query's order
        self.choices.append(Choice(st.name, CaseV(sels), "element", extra={"guard": guard}))
        for option in options:
            inner = dict(env)
            inner[st.name] = option
            ok = True
            if st.where is not None:
                ok = self.lit(self.encode(st.where, inner), st.where.span)
                if ok is False:
                    continue
            sel = self.new_bool(f"{st.name}={cell_name(option)}")
            self.implies(sel, ok)
            if guard is not True:
                self.implies(sel, guard)
            sels.append((sel, option))
            self.context.append(sel)
            failed = self.path_failed           # what the path before the choice has failed
            try:
                self.run_block(rest, inner, sel, {**path, st.name: option})
            finally:
                self.context.pop()
                self.path_failed = failed
        if not sels and self.explain:
            self._empty_choice_leaf(st, bool(options), guard)
            return
        if not sels:
            self.infeasible.append(st.span)
            if guard is True:
                self.empty_choices.append((st, bool(options)))
        if guard is True:
            self.model.add_exactly_one([s for s, _ in sels]) if sels else self.model.add_bool_or([])
        else:
            self.model.add(sum(s for s, _ in sels) == guard)

    def require_leaf(self, e: I.Expr, env: dict, guard, path: dict, st: I.Stmt, rule=None) -> bool:
        """Require ``e`` on this path. Conjunctions are split, and so are calls of rules
        without their own sentence (``else "..."``): each remaining part is one checked
        rule, with an assumption literal when reasons are wanted. False when a part is
        known to fail: the path has no option, and what follows it is not encoded (but
        with reasons, whose every failing rule is wanted)."""
        if isinstance(e, I.Op) and e.op == "and":
            first = self.require_leaf(e.args[0], env, guard, path, st, rule)
            if not first and not self.explain:
                return False
            return self.require_leaf(e.args[1], env, guard, path, st, rule) and first
        if isinstance(e, I.Call) and e.name in self.program.funcs:
            fd = self.program.funcs[e.name]
            if fd.kind == "rule" and fd.message is None:
                args = [self.encode(a, env) for a in e.args]
                inner = {p: a for (p, _), a in zip(fd.params, args)}
                return self.require_leaf(fd.body, inner, guard, path, st, fd)
        if not self.explain:
            self._record_caps(e, env)     # (a require that is an assumption caps nothing)
        lit = self.lit(self.encode(e, env), e.span)
        leaf = Leaf(e, dict(env), guard, dict(path), rule, st, lit)
        if self.explain:
            cond = [self.not_(guard), lit] if guard is not True else [lit]
            if not any(c is True for c in cond):     # (a rule that always holds is no reason)
                leaf.assumption = self.new_bool(f"holds:{_leaf_name(leaf)}#{len(self.leaves)}")
                self.model.add_bool_or([c for c in cond if c is not False]).only_enforce_if(leaf.assumption)
        elif lit is False and guard is True:
            self.infeasible.append(e.span)
            self.model.add_bool_or([])
        else:
            self.implies(guard, lit)
        self.leaves.append(leaf)
        return lit is not False


class _Lazy:
    """A value encoded the first time it is read."""

    def __init__(self, make):
        self.make = make
        self.value = None
        self.done = False

    def __call__(self):
        if not self.done:
            self.value, self.done = self.make(), True
        return self.value


class Leaf:
    """One rule a query checks: the expression, its environment, the path it is on."""

    def __init__(self, expr, env, guard, path, rule, stmt, lit):
        self.expr, self.env, self.guard, self.path = expr, env, guard, path
        self.rule, self.stmt, self.lit = rule, stmt, lit
        self.assumption = None
        self.sentence = None        # an expression that cannot be computed: what goes wrong
        self.empty = None           # (a choice, whether its collection had elements): nothing to choose


def _leaf_name(leaf: Leaf) -> str:
    if isinstance(leaf.expr, I.Call):
        return leaf.expr.name
    return leaf.rule.name if leaf.rule is not None else "require"


statements = I.statements


def _choice_literals(value):
    if isinstance(value, CaseV):
        return [l for l, _ in value.cases if not isinstance(l, bool)]
    if isinstance(value, SetV):
        return [l for l in value.members.values() if not isinstance(l, bool)]
    if isinstance(value, ListV):
        return [g for g, _ in value.items if not isinstance(g, bool)]
    return []
