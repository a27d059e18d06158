"""Phase 3 of the resolver: expressions. Every name is bound, every operator typed from the
operator table (``semantics.operators``), and constant sub-expressions folded with the
operators' own concrete meaning.

In:  an ``ast.Expr`` and the scope of local names.
Out: a typed ``ir.Expr``, or diagnostics.
"""
from __future__ import annotations


from rulewright.compiler.semantics.operators import AGGREGATES, BUILTIN_CALLS, GRID_POSITIONS, OPERATORS, OpTypeError

from rulewright.compiler.syntax import ast as A
from rulewright.compiler import ir as I
from rulewright.compiler.semantics import runtime as rt
from rulewright.compiler.diagnostics import Diagnostic, RulesError, Span, did_you_mean
from rulewright.compiler.types import (ANY, BOOL, INT, NONE, RELATION, SEAT, TEXT, AnyT, BoardT, CellT, CollT, EnumT,
                    LayerT, MapT, RecordT, ScoreT, SeatT, TextT, TupleT, Type, assignable, is_bool, is_cell,
                    equality_shape, is_coll, is_int, join)
from rulewright.compiler.interpret import evaluate_closed
from rulewright.compiler.resolve.limits import TEXT_BUILDERS, text_estimate, too_large
from rulewright.compiler.resolve.scope import AttrData, BUILTIN_COLLECTIONS, BUILTIN_FUNCS, KEYED_AGGREGATES, MapValue, RelData, Scope


# Operators that count or key the values they are given, telling them apart as they are:
# the types of the values each tells apart, from its operands' types
def _elements(ts: list) -> list:
    return [t.elem for t in ts if isinstance(t, CollT)]


_TELLS_APART = {"within": ("within()", _elements), "minus": ("'-' on collections", _elements),
                "subsets": ("subsets()", _elements), "subsets_at_most": ("subsets()", _elements),
                "make_set": ("a set", list), "dict_get": ("a computed table", lambda ts: ts[1:]),
                "group_rank": ("rank()", lambda ts: ts[:1]), "map_get": ("a table of values", list),
                "sort": ("sort()", _elements)}


class ExpressionsPhase:
    """Expressions: names, calls, aggregates, literals, operators (see the module's docstring)."""

    # ================================================================ expressions
    def expr(self, node: A.Expr, scope: Scope) -> I.Expr:
        method = getattr(self, "ex_" + type(node).__name__)
        return method(node, scope)

    def fold(self, e: I.Op) -> I.Expr:
        if e.op in GRID_POSITIONS or not all(isinstance(a, I.Const) for a in e.args):
            return e
        if any(isinstance(a.type, AnyT) for a in e.args):
            return e
        operator = OPERATORS[e.op]
        if e.op in TEXT_BUILDERS and text_estimate([a.value for a in e.args], rt.MOST_TEXT) > rt.MOST_TEXT:
            # (not computed: it could take all the memory there is)
            self.pending.append(Diagnostic(e.span, f"this computes a text of more than the {rt.MOST_TEXT:,} "
                                                   "characters a spec may hold",
                                           "the definitions keep adding a text to itself"))
            return e
        try:
            value = operator.evaluate(*[a.value for a in e.args], data=e.data)
        except RulesError as exc:
            self.pending.append(Diagnostic(e.span, str(exc.diagnostics[0].message)))
            return e
        except (ArithmeticError, TypeError, ValueError, KeyError) as exc:
            self.pending.append(Diagnostic(e.span, f"cannot compute this: {exc}"))
            return e
        return self.folded(e, value)

    def folded(self, e: I.Expr, value) -> I.Expr:
        """The constant an expression folds to, or the expression (and an error at it)
        when its value is past the limits of a spec's values."""
        past = too_large(value)
        if past is not None:
            self.pending.append(Diagnostic(e.span, *past))
            return e
        return I.Const(e.type, e.span, value)

    def message(self, parts: tuple, scope: Scope) -> tuple:
        """A sentence's text parts and resolved ``{...}`` parts. A part is computed only
        where the sentence's condition fails, so a constant part that cannot be computed
        is no error here (it is one there, at run time, at that part)."""
        pending = len(self.pending)
        out = tuple(part if isinstance(part, str) else self.expr(part, scope) for part in parts)
        del self.pending[pending:]
        return out

    def drop_pending(self, within: Span) -> None:
        """Forget the constants that cannot be computed inside ``within``: a part of the
        spec that a constant condition leaves out is never computed."""
        def inside(s: Span) -> bool:
            return s.file == within.file and (within.line, within.col) <= (s.line, s.col) and \
                (s.end_line, s.end_col) <= (within.end_line, within.end_col)
        self.pending = [d for d in self.pending if not inside(d.span)]

    def make_op(self, name: str, args: list[I.Expr], span: Span, data=None,
                arg_spans: list[Span] | None = None, fold: bool = True) -> I.Expr:
        operator = OPERATORS[name]
        if name in ("and", "or") and fold:
            # A switch decides one side: keep what matters (true or x == true, true and x == x).
            for i, a in enumerate(args):
                if isinstance(a, I.Const) and isinstance(a.value, bool):
                    other = args[1 - i]
                    if (name == "or") == a.value:
                        if i == 0:
                            self.drop_pending(other.span)     # never computed
                        return I.Const(a.type, span, a.value)
                    if other.type == BOOL or isinstance(other.type, AnyT):
                        return other
        try:
            typ = operator.typing([a.type for a in args], data)
        except OpTypeError as exc:
            where = span
            if exc.arg is not None and exc.arg < len(args):
                where = (arg_spans or [a.span for a in args])[exc.arg]
            self.diag.error(where, exc.message)
            typ = ANY
        if name in _TELLS_APART:
            words, told = _TELLS_APART[name]
            self.tells_apart(words, told([a.type for a in args]), span)
        e = I.Op(typ, span, name, args, data)
        if fold and not isinstance(typ, AnyT):
            return self.fold(e)
        return e

    def tells_apart(self, what: str, types: list, span: Span) -> None:
        """An error where ``what`` (its words) would count or key values holding a set or a
        pile: it tells them apart as they are, where ``==`` compares what they hold by its
        members (``types.equality_shape``): the two would disagree."""
        for t in types:
            if equality_shape(t, t) is not None:
                self.diag.error(span, f"{what} cannot tell apart values of type {t} yet: they hold a set or a "
                                      f"pile, which '==' compares whatever the order",
                                "compare them with '==' or 'in', or hold them in a record "
                                "(a record is compared as it is)")
                return

    def ex_IntLit(self, node, scope):
        return I.Const(INT, node.span, node.value)

    def ex_TextLit(self, node, scope):
        return I.Const(TEXT, node.span, node.value)

    def visible_names(self, scope: Scope) -> set[str]:
        names = scope.all_names() | set(self.enum_of_value) | BUILTIN_COLLECTIONS | {"true", "false", "none"}
        names |= {k for k, v in self.defs.items() if not isinstance(v, (A.State, A.Check))}
        names |= set(self.state) | set(self.enums)
        return names

    def ex_Name(self, node: A.Name, scope: Scope) -> I.Expr:
        name = node.id
        t = scope.lookup(name)
        if t is not None:
            return I.Local(t, node.span, name)
        if name in ("true", "false"):
            return I.Const(BOOL, node.span, name == "true")
        if name == "none":
            return I.Const(NONE, node.span, None)
        if name in self.enum_of_value:
            enum = self.enum_of_value[name]
            if enum in self.defs:
                self.reads_edge(enum, node.span)
            return I.Const(EnumT(enum), node.span, name)
        if name in BUILTIN_COLLECTIONS:
            return I.Global(CollT("list", SEAT), node.span, name)
        if name in self.state:
            sv = self.state[name]
            if sv.keyed:
                self.diag.error(node.span, f"'{name}' is kept per {sv.per}: write {name}(x) for a {sv.per} x")
                return I.Const(ANY, node.span, None)
            self.reads_edge(name, node.span)
            return I.Global(sv.type, node.span, name)
        d = self.defs.get(name)
        if isinstance(d, (A.Switch, A.Constant)):
            self.reads_edge(name, node.span)
            if isinstance(d, A.Switch) and name not in self.constants:
                return I.Const(ANY, node.span, None)      # a switch in error: said at the switch
            value, typ = self.constants.get(name) or self.constant(name)
            return I.Const(typ, node.span, value)
        if name in self.enums:
            if name in self.defs:
                self.reads_edge(name, node.span)
            return I.Const(CollT("set", EnumT(name)), node.span, tuple(self.enums[name].values))
        if isinstance(d, (A.Def, A.Rule, A.Relation, A.Outcome)):
            self.reads_edge(name, node.span)
            if getattr(d, "params", None):
                self.diag.error(node.span, f"'{name}' takes {len(d.params)} argument(s)",
                                f"write {name}({', '.join(p.name for p in d.params)})")
                return I.Const(ANY, node.span, None)
            fd = self.func(name)
            if fd is None:
                return I.Global(ANY, node.span, name)
            if isinstance(fd.body, I.Const):
                return I.Const(fd.type, node.span, fd.body.value)
            return I.Global(fd.type, node.span, name)
        if isinstance(d, A.Grid):
            self.diag.error(node.span, f"'{name}' is a grid type, not a value",
                            f"declare a value of it: choose g: {name}, or a state variable")
            return I.Const(ANY, node.span, None)
        if isinstance(d, (A.Scoring, A.Procedure, A.Mode, A.Query, A.Property, A.Domain, A.Example)):
            self.diag.error(node.span, f"'{name}' is a {d.kind}, not a value")
            return I.Const(ANY, node.span, None)
        owner = next((info for info in self.enums.values() if name in info.removed), None)
        if owner is not None:
            # (the note at the removal, and the hint, come with every error a change causes)
            kind = "table" if isinstance(owner.node, A.Table) else "enum"
            self.diag.error(node.span, f"unknown name '{name}': a variant removes it from {kind} '{owner.name}'")
            return I.Const(ANY, node.span, None)
        self.diag.error(node.span, f"unknown name '{name}'",
                        "'base' is the base's definition, and exists only inside an override (of a "
                        "definition, or of a step: do base())" if name == "base" else
                        did_you_mean(name, self.visible_names(scope)))
        return I.Const(ANY, node.span, None)

    # ---------------------------------------------------------------- calls
    def ex_Call(self, node: A.Call, scope: Scope) -> I.Expr:
        name = node.func
        if scope.lookup(name) is not None:
            self.diag.error(node.func_span, f"'{name}' is a local value, not something to call")
            return I.Const(ANY, node.span, None)
        if name in self.state:
            sv = self.state[name]
            if not sv.keyed:
                self.diag.error(node.func_span, f"'{name}' is shared: write {name} without (...)")
                return I.Const(ANY, node.span, None)
            if len(node.args) != 1:
                self.diag.error(node.span, f"'{name}' takes one {sv.per}: {name}(x)")
                return I.Const(ANY, node.span, None)
            seat = self.expr(node.args[0], scope)
            if not assignable(seat.type, sv.key_type):
                self.diag.error(node.args[0].span, f"'{name}' is kept per {sv.per}, not per {seat.type}")
            self.reads_edge(name, node.func_span)
            return I.SeatVar(sv.type, node.span, name, seat)
        d = self.defs.get(name)
        if isinstance(d, A.Relation):
            return self.relation_apply(node, scope, name)
        if isinstance(d, (A.Def, A.Rule, A.Outcome)):
            return self.call_def(node, scope, d)
        if isinstance(d, A.Scoring):
            return self.call_scoring(node, scope, d)
        if isinstance(d, A.Procedure):
            self.diag.error(node.func_span, f"'{name}' is a procedure: run it with 'do {name}(...)'")
            return I.Const(ANY, node.span, None)
        if name in ("least", "most"):
            return self.least_most(node, scope)
        if name in ("cells", "rows", "columns"):
            return self.grid_cells(node, scope)
        if name == "groups":
            return self.groups(node, scope)
        if name in AGGREGATES and not (name in ("min", "max") and len(node.args) == 2):
            # sum(xs), any(bs), distinct(xs)...: an aggregate over a collection's elements.
            if len(node.args) == 1 and name != "count":
                coll = self.expr(node.args[0], scope)
                if is_coll(coll.type):
                    elem = I.Local(coll.type.elem if isinstance(coll.type, CollT) else ANY, node.span, "_x")
                    return self.finish_agg(name, elem, [I.Binder("_x", coll, None, node.span)], node)
                self.diag.error(node.args[0].span, f"{name}() needs a collection, found {coll.type}")
                return I.Const(ANY, node.span, None)
            hint = ("write count(x in collection if condition)" if name == "count" else
                    f"write {name}(e for x in collection) or {name}(collection)")
            if name in ("min", "max"):
                self.diag.error(node.span, f"{name}() takes two numbers or one collection, "
                                           f"not {len(node.args)} arguments", hint)
            else:
                self.diag.error(node.span, f"{name}() needs a 'for' or 'in ... if' form", hint)
            return I.Const(ANY, node.span, None)
        key = (name, len(node.args))
        opname = BUILTIN_CALLS.get(key) or BUILTIN_CALLS.get((name, None))
        if opname is None:
            arities = [n for (f, n) in BUILTIN_CALLS if f == name]
            if arities:
                self.diag.error(node.span, f"{name}() takes {arities[0]} argument(s), not {len(node.args)}")
            else:
                candidates = [k for k, v in self.defs.items()
                              if isinstance(v, (A.Def, A.Rule, A.Relation, A.Outcome, A.Scoring))]
                candidates += [f for f, _ in BUILTIN_CALLS] + list(BUILTIN_FUNCS)
                candidates += [k for k, v in self.state.items() if v.keyed]
                self.diag.error(node.func_span, f"unknown function '{name}'", did_you_mean(name, candidates))
            return I.Const(ANY, node.span, None)
        args = [self.expr(a, scope) for a in node.args]
        data = None
        if opname == "contents":
            t = args[0].type
            data = self.grids[t.grid].cell_enum if isinstance(t, BoardT) and t.grid in self.grids else None
        return self.make_op(opname, args, node.span, data, [a.span for a in node.args])

    def call_def(self, node: A.Call, scope: Scope, d: A.Definition) -> I.Expr:
        self.reads_edge(d.name, node.func_span)
        params = d.params or ()
        args = [self.expr(a, scope) for a in node.args]
        if len(args) != len(params):
            self.diag.error(node.span, f"'{d.name}' takes {len(params)} argument(s), not {len(args)}",
                            f"{d.name}({', '.join(p.name + ': ' + str(self.type(p.type)) for p in params)})")
            return I.Const(ANY, node.span, None)
        for p, a, an in zip(params, args, node.args):
            t = self.type(p.type)
            if not assignable(a.type, t):
                self.diag.error(an.span, f"argument '{p.name}' of '{d.name}' is {t}, not {a.type}")
        fd = self.func(d.name)
        typ = fd.type if fd is not None else ANY
        return I.Call(typ, node.span, d.name, args)

    def call_scoring(self, node: A.Call, scope: Scope, d: A.Scoring) -> I.Expr:
        self.reads_edge(d.name, node.func_span)
        args = [self.expr(a, scope) for a in node.args]
        if len(args) != len(d.params):
            self.diag.error(node.span, f"scoring '{d.name}' takes {len(d.params)} argument(s), not {len(args)}")
            return I.Const(ANY, node.span, None)
        for p, a, an in zip(d.params, args, node.args):
            t = self.type(p.type)
            if not assignable(a.type, t):
                self.diag.error(an.span, f"argument '{p.name}' of '{d.name}' is {t}, not {a.type}")
        return I.Call(ScoreT(d.name), node.span, d.name, args)

    def least_most(self, node: A.Call, scope: Scope) -> I.Expr:
        if len(node.args) != 1 or not isinstance(node.args[0], A.Call) or \
                not isinstance(self.defs.get(node.args[0].func), A.Scoring):
            self.diag.error(node.span, f"{node.func}() takes one scoring call",
                            f"for example {node.func}(score(board(p), []))")
            return I.Const(ANY, node.span, None)
        call = self.expr(node.args[0], scope)
        if isinstance(call, I.Call):
            call.mode = -1 if node.func == "least" else 1
        return call

    def grid_cells(self, node: A.Call, scope: Scope) -> I.Expr:
        if len(node.args) != 1:
            self.diag.error(node.span, f"{node.func}() takes one grid")
            return I.Const(ANY, node.span, None)
        g = self.expr(node.args[0], scope)
        if not isinstance(g.type, BoardT):
            if not isinstance(g.type, AnyT):
                self.diag.error(node.args[0].span, f"{node.func}() needs a grid, found {g.type}")
            return I.Const(ANY, node.span, None)
        info = self.grids[g.type.grid]
        cell = CellT(info.name)
        if node.func == "cells":
            return I.Const(CollT("set", cell), node.span, info.cells)
        if node.func == "rows":
            value = tuple(tuple((r, c) for c in range(info.cols)) for r in range(info.rows))
        else:
            value = tuple(tuple((r, c) for r in range(info.rows)) for c in range(info.cols))
        return I.Const(CollT("list", CollT("set", cell)), node.span, value)

    def relation_value(self, node: A.Expr, scope: Scope) -> rt.Relation | None:
        e = self.expr(node, scope)
        if isinstance(e, I.Const) and isinstance(e.value, rt.Relation):
            return e.value
        if not isinstance(e.type, AnyT):
            self.diag.error(node.span, "expected a relation known before play (such as adjacent)")
        return None

    def cell_grid(self, t: Type, span: Span) -> I.GridInfo | None:
        grid = t.grid if isinstance(t, CellT) else (
            t.elem.grid if isinstance(t, CollT) and isinstance(t.elem, CellT) else None)
        if grid is None:
            if len(self.grids) == 1:
                return next(iter(self.grids.values()))
            if not isinstance(t, AnyT):
                self.diag.error(span, "cannot tell which grid these cells are on")
            return None
        return self.grids.get(grid)

    def relation_apply(self, node: A.Call, scope: Scope, name: str) -> I.Expr:
        self.reads_edge(name, node.func_span)
        fd = self.func(name)
        if len(node.args) != 1:
            self.diag.error(node.span, f"relation '{name}' takes one cell: {name}(c)")
            return I.Const(ANY, node.span, None)
        cell = self.expr(node.args[0], scope)
        if not is_cell(cell.type):
            self.diag.error(node.args[0].span, f"relation '{name}' takes a cell, not {cell.type}")
            return I.Const(ANY, node.span, None)
        if fd is None or not isinstance(fd.body, I.Const):
            return I.Const(ANY, node.span, None)
        grid = self.cell_grid(cell.type, node.args[0].span)
        if grid is None:
            return I.Const(ANY, node.span, None)
        return self.make_op("rel_apply", [cell], node.span, RelData(fd.body.value, grid, name))

    def groups(self, node: A.Call, scope: Scope) -> I.Expr:
        if len(node.args) != 2:
            self.diag.error(node.span, "groups() takes a set of cells and a relation: groups(S, adjacent)")
            return I.Const(ANY, node.span, None)
        cells = self.expr(node.args[0], scope)
        rel = self.relation_value(node.args[1], scope)
        if rel is None:
            return I.Const(ANY, node.span, None)
        grid = self.cell_grid(cells.type, node.args[0].span)
        if grid is None:
            return I.Const(ANY, node.span, None)
        name = node.args[1].id if isinstance(node.args[1], A.Name) else "relation"
        return self.make_op("groups", [cells], node.span, RelData(rel, grid, name))

    # ---------------------------------------------------------------- aggregates
    def binders(self, binders, scope: Scope) -> tuple[list[I.Binder], Scope]:
        out = []
        inner = scope
        for b in binders:
            coll = self.expr(b.coll, inner)
            if not is_coll(coll.type):
                self.diag.error(b.coll.span, f"'for {b.var} in ...' needs a collection, found {coll.type}")
            inner = inner.child()
            inner.names[b.var] = coll.type.elem if isinstance(coll.type, CollT) else ANY
            cond = None
            if b.cond is not None:
                cond = self.expr(b.cond, inner)
                if not is_bool(cond.type):
                    self.diag.error(b.cond.span, f"a filter is true or false, found {cond.type}")
            out.append(I.Binder(b.var, coll, cond, b.span))
        return out, inner

    def finish_agg(self, func: str, elem: I.Expr, binders: list[I.Binder], node) -> I.Expr:
        aggregate = AGGREGATES[func]
        try:
            typ = aggregate.typing(elem.type)
        except OpTypeError as exc:
            self.diag.error(elem.span, exc.message)
            typ = ANY
        if func in ("set", "distinct"):
            self.tells_apart("a set" if func == "set" else "distinct()", [elem.type], node.span)
        e = I.Agg(typ, node.span, func, elem, binders)
        return self.fold_agg(e)

    def fold_agg(self, e: I.Agg) -> I.Expr:
        """Fold an aggregate whose collections, filters and element are all constant."""
        if not self._closed(e, set()):
            return e
        try:
            return self.folded(e, evaluate_closed(e, what=f"'{self.current}'" if self.current else None))
        except rt.OutOfSteps as exc:
            self.pending.extend(exc.diagnostics)
        except RulesError as exc:
            self.pending.append(Diagnostic(e.span, exc.diagnostics[0].message))
        except (TypeError, ValueError, AttributeError):
            if not self.diag.items:
                raise       # a bug: constants of a spec without errors always compute
            # a value left out by an error reported already (a table cell of the wrong type)
        return e

    def _closed(self, e: I.Expr, bound) -> bool:
        """Whether an expression reads nothing but constants and the names its own
        aggregates bind (so it can be folded to its value)."""
        if isinstance(e, I.Const):
            return not isinstance(e.type, AnyT)
        if isinstance(e, I.Local):
            return e.name in bound
        if isinstance(e, I.Op) and e.op in GRID_POSITIONS:
            return False
        if isinstance(e, (I.Op, I.Agg)):
            return all(self._closed(c, inner) for c, inner in I.scoped_children(e, frozenset(bound)))
        return False

    def ex_Aggregate(self, node: A.Aggregate, scope: Scope) -> I.Expr:
        if node.func not in AGGREGATES or node.func in ("list", "set"):
            self.diag.error(node.func_span, f"'{node.func}' does not take a 'for' form",
                            did_you_mean(node.func, [a for a in AGGREGATES if a not in ("list", "set")]))
            return I.Const(ANY, node.span, None)
        binders, inner = self.binders(node.binders, scope)
        elem = self.expr(node.elem, inner)
        keyed = node.func in KEYED_AGGREGATES
        if keyed and node.key is None:
            self.diag.error(node.span, f"{node.func}() needs a 'by' key",
                            f"for example {node.func}(x for x in xs by x.points)")
            return I.Const(ANY, node.span, None)
        if not keyed and node.key is not None:
            self.diag.error(node.key.span, f"{node.func}() takes no 'by' key")
        if (node.supply is not None) != node.func.startswith("allocate"):
            where = node.supply.span if node.supply is not None else node.span
            self.diag.error(where, "'from SUPPLY' goes with allocate() only" if node.supply is not None
                            else f"{node.func}() needs 'from' a supply: {node.func}(need for x in xs by key from 10)")
        if not keyed:
            return self.finish_agg(node.func, elem, binders, node)
        if node.func.startswith("allocate") and len(binders) != 1:
            self.diag.error(node.span, f"{node.func}() takes one 'for': the claimants")
        key = self.expr(node.key, inner)
        supply = self.expr(node.supply, scope) if node.supply is not None else None
        if supply is not None and not is_int(supply.type):
            self.diag.error(node.supply.span, f"the supply is a number, found {supply.type}")
        if isinstance(key.type, TupleT):
            bad = [t for t in key.type.items if not is_int(t)]
        else:
            bad = [] if is_int(key.type) else [key.type]
        if bad:
            self.diag.error(node.key.span, f"a 'by' key is a number or a tuple of numbers, found {key.type}")
        if node.func.startswith("allocate") and binders:
            self.tells_apart(f"{node.func}()", _elements([binders[0].coll.type]), node.span)    # (the claimants)
        agg = AGGREGATES[node.func]
        try:
            typ = agg.typing(elem.type) if not node.func.startswith("allocate") else \
                agg.typing(binders[0].coll.type.elem if binders and isinstance(binders[0].coll.type, CollT)
                           else ANY)
            if node.func.startswith("allocate") and not is_int(elem.type):
                raise OpTypeError(f"what each claimant needs is a number, found {elem.type}")
        except OpTypeError as exc:
            self.diag.error(node.elem.span, exc.message)
            typ = ANY
        return I.Agg(typ, node.span, node.func, elem, binders, key, supply)

    def ex_Comprehension(self, node: A.Comprehension, scope: Scope) -> I.Expr:
        binders, inner = self.binders(node.binders, scope)
        elem = self.expr(node.elem, inner)
        return self.finish_agg(node.kind, elem, binders, node)

    def ex_Literal(self, node: A.Literal, scope: Scope) -> I.Expr:
        items = [self.expr(i, scope) for i in node.items]
        if node.kind == "tuple":
            typ: Type = TupleT(tuple(i.type for i in items))
        else:
            elem: Type | None = ANY
            for i, it in enumerate(items):
                elem = join(elem, it.type)
                if elem is None:
                    self.diag.error(node.items[i].span, f"the items of this {node.kind} have different types")
                    elem = ANY
                    break
            typ = CollT(node.kind, elem)
        if all(isinstance(i, I.Const) for i in items):
            values = tuple(i.value for i in items)
            if node.kind == "set":
                self.tells_apart("a set", [typ.elem], node.span)
                values = rt.oset(values)
            return I.Const(typ, node.span, values)
        kind = {"tuple": "make_tuple", "list": "make_list", "set": "make_set"}[node.kind]
        return self.make_op(kind, items, node.span, typ, [i.span for i in node.items])

    def ex_MapLit(self, node: A.MapLit, scope: Scope) -> I.Expr:
        mapping = {}
        key_t: Type | None = ANY
        val_t: Type | None = ANY
        for k, v in node.pairs:
            ke, ve = self.expr(k, scope), self.expr(v, scope)
            if not isinstance(ke, I.Const) or not isinstance(ve, I.Const):
                self.diag.error((k if not isinstance(ke, I.Const) else v).span,
                                "the entries of a table of values must be known before play")
                continue
            if ke.value in mapping:
                self.diag.error(k.span, f"key {ke.value!r} appears twice")
            mapping[ke.value] = ve.value
            joined = join(key_t, ke.type)
            if joined is None:
                self.diag.error(k.span, f"the keys of a table of values have one type: this one is {ke.type}, "
                                        f"the ones before are {key_t}")
            key_t = joined or key_t
            joined = join(val_t, ve.type)
            if joined is None:
                self.diag.error(v.span, f"the values of a table of values have one type: this one is "
                                        f"{ve.type}, the ones before are {val_t}")
            val_t = joined or val_t
        default, has_default = None, False
        if node.default is not None:
            de = self.expr(node.default, scope)
            if not isinstance(de, I.Const):
                self.diag.error(node.default.span, "the 'else' value must be known before play")
            else:
                default, has_default = de.value, True
                joined = join(val_t, de.type)
                if joined is None:
                    self.diag.error(node.default.span, f"the 'else' value is {de.type}, the values are {val_t}")
                val_t = joined or val_t
        mv = MapValue(mapping, default, has_default, key_t, val_t)
        return I.Const(MapT(key_t, val_t), node.span, mv)

    def ex_Index(self, node: A.Index, scope: Scope) -> I.Expr:
        base = self.expr(node.base, scope)
        index = self.expr(node.index, scope)
        t = base.type
        if isinstance(t, BoardT):
            info = self.grids.get(t.grid)
            return self.make_op("board_get", [base, index], node.span, info.cell_enum if info else None,
                                [node.base.span, node.index.span])
        if isinstance(t, LayerT):
            return self.make_op("layer_get", [base, index], node.span, None,
                                [node.base.span, node.index.span])
        if isinstance(t, TupleT):
            if not (isinstance(index, I.Const) and isinstance(index.value, int)
                    and 0 <= index.value < len(t.items)):
                self.diag.error(node.index.span, f"a tuple of {len(t.items)} is indexed by a number "
                                                 f"from 0 to {len(t.items) - 1} known before play")
                return I.Const(ANY, node.span, None)
            return self.make_op("tuple_get", [base, index], node.span, t.items[index.value])
        if isinstance(t, MapT) and not isinstance(base, I.Const):
            if not isinstance(t.key, AnyT) and not assignable(index.type, t.key):
                self.diag.error(node.index.span, f"this table is indexed by {t.key}, not {index.type}")
            return self.make_op("dict_get", [base, index], node.span, None, [node.base.span, node.index.span])
        if isinstance(t, MapT) and isinstance(base, I.Const):
            mv = base.value
            if not isinstance(mv.key_type, AnyT) and not isinstance(index.type, AnyT) and \
                    not (is_int(mv.key_type) and is_int(index.type)) and mv.key_type != index.type:
                self.diag.error(node.index.span, f"this table of values is indexed by {mv.key_type}, not {index.type}")
            return self.make_op("map_get", [index], node.span, mv, [node.index.span])
        if not isinstance(t, AnyT):
            self.diag.error(node.base.span, f"cannot index a {t} with [...]",
                            "index a grid with a cell (g[c]), a layer with a cell, or a table of values with a key")
        return I.Const(ANY, node.span, None)

    def ex_Attr(self, node: A.Attr, scope: Scope) -> I.Expr:
        where = getattr(self, "scoring_steps", None)
        if where is not None and isinstance(node.base, A.Name) and node.base.id == where[0] \
                and scope.lookup(node.base.id) is None:
            return self.points_of(node, where)
        base = self.expr(node.base, scope)
        t = base.type
        if isinstance(t, EnumT):
            info = self.enums.get(t.name)
            if info is not None and node.name in info.columns:
                if t.name in self.defs:
                    self.reads_edge(t.name, node.name_span)
                data = AttrData(t.name, node.name, info.columns[node.name], info.attrs[node.name])
                return self.make_op("attr", [base], node.span, data)
            cols = list(info.columns) if info else []
            self.diag.error(node.name_span, f"'{t.name}' has no column '{node.name}'",
                            did_you_mean(node.name, cols) or (f"columns: {', '.join(cols)}" if cols else None))
            return I.Const(ANY, node.span, None)
        if isinstance(t, RecordT):
            rec = self.records.get(t.name)
            fields = dict(rec.fields) if rec else {}
            if node.name in fields:
                return self.make_op("field", [base], node.span, rt.FieldData(node.name, fields[node.name]))
            self.diag.error(node.name_span, f"record '{t.name}' has no field '{node.name}'",
                            did_you_mean(node.name, fields) or ("fields: " + ", ".join(fields)))
            return I.Const(ANY, node.span, None)
        if isinstance(t, ScoreT):
            steps = [st.name for st in A.steps_of(self.defs[t.scoring])] if t.scoring in self.defs else []
            if node.name in steps:
                return self.make_op("step_points", [base], node.span, node.name)
            self.diag.error(node.name_span, f"scoring '{t.scoring}' has no step '{node.name}'",
                            did_you_mean(node.name, steps) or ("steps: " + ", ".join(steps)))
            return I.Const(ANY, node.span, None)
        if isinstance(t, SeatT):
            if node.name in ("kind", "title", "name"):
                return self.make_op("seat_attr", [base], node.span, node.name)
            self.diag.error(node.name_span, f"a seat has no '{node.name}'", "a seat has: kind, title, name")
            return I.Const(ANY, node.span, None)
        if not isinstance(t, AnyT):
            self.diag.error(node.name_span, f"a {t} has no '{node.name}'")
        return I.Const(ANY, node.span, None)

    def points_of(self, node: A.Attr, where: tuple) -> I.Expr:
        """``SCORING.STEP`` inside that scoring: the points a step before this one gave (a
        local each evaluator binds once the step is done: ``ir.points_local``)."""
        scoring, names, here = where
        step = node.name
        if step not in names or names.index(step) >= here:
            before = names[:here]
            if step == names[here]:
                message = f"step '{step}' cannot read its own points: they are still being counted"
            elif step in names:
                message = f"step '{step}' comes after '{names[here]}' in '{scoring}': its points are not counted yet"
            else:
                message = f"'{scoring}' has no step '{step}'"
            guess = did_you_mean(step, before) if step not in names else None
            hint = (guess or "the steps before this one: " + ", ".join(before)) if before \
                else "this is the scoring's first step: no step's points are counted before it"
            self.diag.error(node.name_span, message, hint)
            return I.Const(INT, node.span, 0)
        # the earlier step feeds this one (as a layer it marks does): not a cycle with 'precedes'
        self.reads.append((f"{scoring}.{step}", self.current, "feeds", node.name_span))
        return I.Local(INT, node.span, I.points_local(step))

    def ex_GridLit(self, node: A.GridLit, scope: Scope) -> I.Expr:
        """A grid written out: its cells in reading order, rows x columns of them, each a
        value of the grid's cells or '.' for none."""
        info = self.grids.get(node.grid)
        if info is None:
            self.diag.error(node.grid_span, f"'{node.grid}' is no grid", did_you_mean(node.grid, list(self.grids))
                            or "write: grid NAME { cells }, NAME a grid of the spec")
            return I.Const(ANY, node.span, None)
        want = info.rows * info.cols
        if len(node.cells) != want:
            at = node.cells[min(len(node.cells), want) - 1][1] if node.cells else node.grid_span
            self.diag.error(at if len(node.cells) > want else node.span,
                            f"grid {node.grid} is {info.rows} x {info.cols}: {want} cells, written {len(node.cells)}",
                            "write every cell, row by row, with '.' for a free one")
            return I.Const(ANY, node.span, None)
        enum = self.enums.get(info.cell_enum)
        cards = {}
        for i, (value, span) in enumerate(node.cells):
            if value is None:
                continue
            if enum is not None and value not in enum.values:
                self.diag.error(span, f"'{value}' is not a {info.cell_enum}", enum.not_a_value_hint(value, info.cell_enum))
                continue
            cards[divmod(i, info.cols)] = value
        board = rt.Board(info.name, info.rows, info.cols, info.floating, cards)
        return I.Const(BoardT(info.name), node.span, board)

    def ex_New(self, node: A.New, scope: Scope) -> I.Expr:
        rec = self.records.get(node.record)
        if rec is None:
            records = list(self.records)
            self.diag.error(node.record_span, f"unknown record '{node.record}'",
                            did_you_mean(node.record, records) or ("records: " + ", ".join(records)
                                                                   if records else "declare it: record NAME { ... }"))
            return I.Const(ANY, node.span, None)
        self.reads_edge(rec.name, node.record_span)
        values = self.record_fields(rec, node.fields, node.span, scope, complete=True)
        args = [values.get(n, I.Const(ANY, node.span, None)) for n, _ in rec.fields]
        return self.make_op("new_record", args, node.span, rec.cls, fold=False)

    def ex_With(self, node: A.With, scope: Scope) -> I.Expr:
        base = self.expr(node.base, scope)
        if not isinstance(base.type, RecordT):
            if not isinstance(base.type, AnyT):
                self.diag.error(node.base.span, f"'with' changes fields of a record, not of a {base.type}")
            return I.Const(ANY, node.span, None)
        rec = self.records[base.type.name]
        values = self.record_fields(rec, node.fields, node.span, scope, complete=False)
        names = tuple(values)
        return self.make_op("with", [base] + [values[n] for n in names], node.span,
                            tuple(f"f_{n}" for n in names), fold=False)

    def ex_Unary(self, node: A.Unary, scope: Scope) -> I.Expr:
        operand = self.expr(node.operand, scope)
        return self.make_op("neg" if node.op == "-" else "not", [operand], node.span)

    def ex_Binary(self, node: A.Binary, scope: Scope) -> I.Expr:
        left = self.expr(node.left, scope)
        right = self.expr(node.right, scope)
        spans = [node.left.span, node.right.span]
        op = node.op
        if op == "+":
            if left.type == RELATION or right.type == RELATION:
                name = "rel_union"
            elif is_coll(left.type) and not isinstance(left.type, AnyT):
                name = "concat"
            elif isinstance(left.type, TextT) or isinstance(right.type, TextT):
                name = "text_concat"
            else:
                name = "add"
        elif op == "-" and isinstance(left.type, CollT):
            name = "minus"
        else:
            name = {"-": "sub", "*": "mul", "//": "floordiv", "%": "mod", "==": "eq", "!=": "ne",
                    "<": "lt", "<=": "le", ">": "gt", ">=": "ge", "and": "and", "or": "or",
                    "in": "in", "not in": "not_in", "..": "range"}[op]
        # piles are equal with the same cards in any order, sets with the same members, and a
        # set a list that holds each of its members once (a set has no order to compare); a
        # set held inside a list or a tuple by its members too (types.equality_shape)
        if name in ("eq", "ne", "in", "not_in"):
            shape = equality_shape(left.type, right.type) if name in ("eq", "ne") else \
                equality_shape(left.type, right.type.elem) if isinstance(right.type, CollT) else None
            if shape is not None:
                if name in ("in", "not_in"):
                    e = self.make_op("same_in", [left, right], node.span, shape, spans)
                elif shape[1] is None:      # (two collections of plain values: one multiset comparison)
                    e = self.make_op("multiset_eq", [left, right], node.span, None, spans)
                else:
                    e = self.make_op("same", [left, right], node.span, shape, spans)
                if name in ("ne", "not_in"):
                    return self.make_op("not", [e], node.span)
                return e
        return self.make_op(name, [left, right], node.span, None, spans)

    def ex_IfExpr(self, node: A.IfExpr, scope: Scope) -> I.Expr:
        c = self.expr(node.cond, scope)
        t = self.expr(node.then, scope)
        o = self.expr(node.other, scope)
        if isinstance(c, I.Const) and isinstance(c.value, bool):
            # Switch-dependent branches: keep only the one that applies.
            chosen = t if c.value else o
            self.drop_pending((o if c.value else t).span)      # the branch left out is never computed
            if join(t.type, o.type) is None:
                self.diag.error(node.other.span, f"the two branches differ: {t.type} and {o.type}")
            return chosen
        return self.make_op("if", [c, t, o], node.span, None,
                            [node.cond.span, node.then.span, node.other.span])
