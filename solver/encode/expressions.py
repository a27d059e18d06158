"""The encoder's walk of IR expressions: constants, names, calls of definitions (memoised),
operators (their encodings, keyed by name in ``encode.operators``; constant folding with
the concrete meaning when every operand is known), chains of comparisons and aggregates
unrolled over known collections.

In:  an ``ir.Expr`` and an environment of known and symbolic values.
Out: its symbolic value, or ``NotSupportedError`` at its span.
"""
from __future__ import annotations


from typing import Any


from rulewright.compiler import ir as I
from rulewright.compiler.semantics import runtime as rt
from rulewright.compiler.diagnostics import Diagnostic, NotSupportedError, RuntimeRulesError, Span

from rulewright.compiler.interpret import interpreter_for
from rulewright.compiler.semantics.operators import OPERATORS

from rulewright.solver.encode.operators import AGG_ENCODINGS, ENCODINGS
from rulewright.solver.symbolic import BoolV, CaseV, CountsV, GroupsV, ListV, RecordV, SetV, Sym
from rulewright.solver.encode.base import DEFS, NODES, NO_VALUE, chain_parts, memo_key, is_symbolic, fields_read, free_locals


class Expressions:
    """The walk of expressions (see the module's docstring)."""

    def encode(self, e: I.Expr, env: dict[str, Any]):
        self._ticks -= 1
        if self._ticks <= 0:
            self._tick()
        if type(e) is I.Local:
            v = env.get(e.name, NO_VALUE)
            if v is not NO_VALUE:
                return v
        info = NODES.get(id(e))
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
                v = env.get(n, NO_VALUE)
                if type(v) not in known and (v is NO_VALUE or isinstance(v, Sym) or
                                             (isinstance(v, tuple) and self.symbolic_tuple(v))):
                    break
                args.append(v)
            else:
                interp = self.interp
                if info[4] is not interp:
                    info[3], info[4] = interp.compiled(e, free), interp
                interp.use(self.state)
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
            if e.mode < 0 and not any(is_symbolic(a) for a in args):
                # least(...) of known arguments: the worst total for the owner, a number
                # the interpreter computes (a choice made against the owner has no
                # encoding inside a maximised query, but here nothing is left to choose)
                # the encoder's own interpreter when it has one (a query on a position), else
                # the program's, used for this value only
                interp = self.interp if self.interp is not None else interpreter_for(self.program)
                interp.use(self.state)        # (none without a position: not a stale one)
                try:
                    value = interp.call(e.name, *args, mode=e.mode)
                except Exception:   # (it reads a game state the query has none of...): walked
                    return self.scoring(self.program.scorings[e.name], args, e.mode, e.span)  # below, located
                self.worst.append((e.name, tuple(c for c in self.context if c is not True)))
                return value
            return self.scoring(self.program.scorings[e.name], args, e.mode, e.span)
        fd = self.program.funcs[e.name]
        info = DEFS.get(id(fd))
        if info is None or info[0] is not fd:
            info = DEFS[id(fd)] = (fd, [p for p, _ in fd.params], fields_read(fd, self.program))
        # inline the definition's body; what its known arguments decide is folded; a call
        # with the same arguments (the same symbolic values) is encoded once
        memo = (e.name, *map(memo_key, args, info[2]))
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
            if value is not NO_VALUE:
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
            if isinstance(a, Sym) or (type(a) is tuple and self.symbolic_tuple(a)):   # (a tuple of symbolic items)
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
        out, the rest make one literal. ``NO_VALUE`` when an operand is known but not a
        truth value (then the operator's own meaning applies)."""
        absorbing = e.op == "or"
        syms = []
        lits = []
        depth = len(self.context)
        try:
            for part in chain_parts(e):
                v = self.encode(part, env)
                if v is absorbing:
                    return absorbing
                if v is (not absorbing):
                    continue
                if not isinstance(v, Sym):
                    return NO_VALUE
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
        if check and not any(is_symbolic(a) for a in args):
            try:
                return operator.evaluate(*args, data=e.data)
            except ZeroDivisionError:   # no option reaches a division by 0
                self.never_reached(e.span)
                return 0
        encode = ENCODINGS.get(e.op)
        if encode is None:
            unsplit = getattr(self, "unsplit", {})
            if unsplit:
                name, (n, span) = next(iter(unsplit.items()))
                raise NotSupportedError(Diagnostic(
                    e.span, f"the solver cannot use '{e.op}' ({operator.doc}) on the choice '{name}': it has {n} "
                            f"options, more than the {self.SPLIT_MAX} a query's choice is split into (one case "
                            "per option, where what follows knows the value)",
                    "choose in two steps from smaller collections (a card, then a cell): each is split",
                    notes=((span, f"the choice '{name}'"),)))
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
        if isinstance(coll, SetV):      # (in the order the interpreter meets the members)
            return [(v, g) for g, v in coll.order] if coll.order is not None else list(coll.members.items())
        if isinstance(coll, ListV):
            return [(v, g) for g, v in coll.items]
        if isinstance(coll, GroupsV):
            return [(SetV(coll.members[r]), lit) for r, lit in coll.roots.items()]
        if isinstance(coll, CountsV):
            raise NotSupportedError("cannot go over the cards of a grid that depends on a choice; "
                                    "go over its cells instead", span)
        if isinstance(coll, CaseV):
            # one of several collections, selected by a choice: the elements of each, each
            # there only where its collection is the one selected
            return [(x, g if lit is True else (lit if g is True else self.and_([lit, g])))
                    for lit, sub in coll.cases if lit is not False for x, g in self.elements(sub, span)
                    if g is not False]
        if isinstance(coll, Sym):
            what = {"BoardV": "a grid", "MapV": "a computed table", "ScoreV": "a score", "RecordV": "a record",
                    "IntV": "a number", "BoolV": "a truth value", "EnumV": "a value", "LayerV": "a layer"}
            raise NotSupportedError(f"cannot go over {what.get(type(coll).__name__, 'a value')} that depends on "
                                    f"a choice", span)
        if coll is None:        # a value the rules leave undefined here (a field of no record)
            raise RuntimeRulesError("this collection has no value here (it is read from nothing)", span)
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
    info = [e, free, getattr(Expressions, "en_" + type(e).__name__), None, None, field]
    NODES[id(e)] = info
    return info
