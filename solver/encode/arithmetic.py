"""The encoder's arithmetic on symbolic values: comparisons, min and max, products, case
splits and their merge, records and tuples, lexicographic order, division, and the
allocation of a supply by rank.

In:  symbolic or known operands.
Out: symbolic values whose constraints are in the encoder's model.
"""
from __future__ import annotations


from rulewright.compiler.diagnostics import NotSupportedError, Span


from rulewright.solver.symbolic import BoolV, CaseV, IntV, ListV, MapV, RecordV, ScoreV, Sym
from rulewright.solver.encode.equality import canon as held
from rulewright.solver.encode.base import FLIPPED, NO_VALUE, hashable, linear_key, radix, is_symbolic, Lazy


class Arithmetic:
    """Comparisons, min/max, products, division, order, allocation (see the module's docstring)."""

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
        syms = [v for v in syms if not (k := linear_key(v)) in seen and not seen.add(k)]
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

    def at_least_0(self, v, span: Span | None = None):
        """``max(0, v)``, encoded only where ``v`` may be below 0."""
        v = self.intv(v, span)
        if isinstance(v, int):
            return max(0, v)
        return v if v.lb >= 0 else self.minmax("max", [0, v], span)

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

    def symbolic_tuple(self, v: tuple) -> bool:
        """Whether a tuple holds a symbolic value (remembered: tuples do not change)."""
        if hasattr(v, "rw_fields"):
            return False         # a known record (one with symbolic fields is a RecordV)
        hit = self._tuples.get(id(v))
        if hit is not None and hit[0] is v:
            return hit[1]
        result = any(is_symbolic(x) for x in v)
        self._tuples[id(v)] = (v, result)
        return result

    # ------------------------------------------------------------ records
    def record(self, name: str, fields: dict, like=None):
        """A record whose fields may be symbolic; the same fields give the same record,
        so a record built twice by the same definition is one claimant, one key."""
        info = self.program.records[name]
        if not any(is_symbolic(v) for v in fields.values()):
            return info.cls(*[fields[f] for f, _ in info.fields])
        for i, shape in info.cls.rw_shapes.items():     # (what the record keeps in its order: sets)
            f = info.cls.rw_fields[i - 1]
            if f in fields:
                fields = {**fields, f: held(self, None, fields[f], shape)}
        memo = (name,) + tuple((f, ("S", id(v)) if isinstance(v, Sym) else hashable(v))
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
        if known is not NO_VALUE:
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
            weights = radix([abs(d) if isinstance(d, int) else max(abs(d.lb), abs(d.ub)) for d in diffs])
            parts = list(zip(weights, diffs))
            return self.cmp(self.linear(parts), op, 0, span)
        if op in ("==", "!="):
            eq = self.and_([self.cmp(x, "==", y, span) for x, y in zip(a, b)])
            return eq if op == "==" else self.not_(eq)
        if op in ("<", "<="):
            a, b, op = b, a, FLIPPED[op]
        result = self.cmp(a[-1], op, b[-1], span)
        for x, y in zip(reversed(a[:-1]), reversed(b[:-1])):
            result = self.or_([self.cmp(x, ">", y, span), self.and_([self.cmp(x, "==", y, span), result])])
        return result

    def lex_known(self, a: list, op: str, b: list):
        """``lex`` when one side is all known numbers: a weighted sum of the other side's
        undecided elements against a number. Its weights depend only on those elements'
        bounds, so the sum is built once for every comparison with the same tuple.
        An element whose difference has a fixed sign (the number is outside its
        bounds) ends the comparison there. ``NO_VALUE`` when it does not apply."""
        if not all(type(y) is int for y in b):
            if not all(type(x) is int for x in a):
                return NO_VALUE
            a, b, op = b, a, FLIPPED[op]
        prefix = []
        sign = 0
        for x, y in zip(a, b):
            if type(x) is int or type(x) is bool:
                lo = hi = int(x)
            elif isinstance(x, (IntV, BoolV)):
                x = self.intv(x)
                lo, hi = x.lb, x.ub
            else:
                return NO_VALUE
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
            weights = radix([x.ub - x.lb for x, _ in prefix])
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
        # a supply or a need below 0 counts as 0 (as the interpreter reads them)
        supply = self.at_least_0(supply, span)
        claims = [(g, k, self.at_least_0(need, span), who) for g, k, need, who in claims]

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
                full = self.cmp(group_need, "<=", left, span)
                if even:        # a short group: served who its even share covers
                    size = self.linear([(1, 1)] + [(1, self.boolv(rel(j, i)[1])) for j in others[i]])
                    covered = self.cmp(need, "<=", self.div(self.minmax("max", [0, left], span), size, span), span)
                    full = self.or_([full, covered]) if full is not True else True
                share = self.intv(self.gate(full, need, span))
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
                entries.append((g, who, Lazy(lambda i=i: share_of(i))))
            else:
                entries.append((g, who, share_of(i)))    # every share is read by the others
        return MapV(entries)
