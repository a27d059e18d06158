"""The encoder's building blocks: variables and literals, ``and``/``or`` with their linear
relaxation, implications, integer values and linear sums with their bounds, the literals
under which an expression is reached, and gated values.

In:  symbolic or known values.
Out: CP-SAT literals, integer variables and linear expressions in the encoder's model.
"""
from __future__ import annotations


import time
from typing import Any


from rulewright.compiler import ir as I
from rulewright.compiler.diagnostics import NotSupportedError, Span


from rulewright.solver.symbolic import BoolV, CaseV, IntV, ScoreV
from rulewright.solver.encode.base import BuildTimeout, MOST_MAGNITUDE, TICKS, too_large, Leaf


class Blocks:
    """Literals, sums, bounds and gates (see the module's docstring)."""

    def _tick(self):
        """Every ``TICKS`` expressions encoded: past the deadline, building stops."""
        self._ticks = TICKS
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise BuildTimeout()

    # ================================================================ literals
    def new_bool(self, name: str):
        var = self.model.new_bool_var(name)
        self._bounds[var.index] = (0, 1)
        return var

    def new_int(self, lb: int, ub: int, name: str):
        if lb < -MOST_MAGNITUDE or ub > MOST_MAGNITUDE:
            too_large(max(-lb, ub))
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
            too_large(max(-lo, hi))
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
