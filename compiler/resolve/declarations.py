"""Phase 2 of the resolver: types written in the spec, constants, switches and params (with
the command line's overrides), grids, state variables, and definitions resolved on demand.

In:  the tables phase's enums and records.
Out: ``constants``, ``grids``, ``state``, ``funcs`` of the resolver, with the 'reads' edges.
"""
from __future__ import annotations


from typing import Any


from rulewright.compiler.syntax import ast as A
from rulewright.compiler import ir as I
from rulewright.compiler.semantics import runtime as rt
from rulewright.compiler.diagnostics import BadInputError, Span, did_you_mean, whole_number
from rulewright.compiler.types import (ANY, BOOL, INT, RELATION, SEAT, TEXT, AnyT, BoardT, BoolT, CellT, CollT, EnumT,
                    IntT, RecordT, SeatT, TupleT, Type, assignable, is_bool, is_int)
from rulewright.compiler.resolve.scope import MOST_GRID_CELLS, Scope, named_options
from rulewright.compiler.resolve.limits import type_depth
from rulewright.compiler.syntax.parse import MOST_NESTING


class DeclarationsPhase:
    """Types, constants, switches, grids, state and definitions (see the module's docstring)."""

    # ================================================================ types
    def type(self, node: A.TypeExpr) -> Type:
        if isinstance(node, A.TypeOf):
            return CollT(node.kind, self.type(node.elem))
        if isinstance(node, A.TypeTuple):
            return TupleT(tuple(self.type(t) for t in node.items))
        name = node.name
        simple = {"int": INT, "bool": BOOL, "text": TEXT, "seat": SEAT, "relation": RELATION}
        if name in simple:
            return simple[name]
        if name == "cell":
            return CellT(next(iter(self.grids)) if len(self.grids) == 1 else None)
        if name in self.enums:
            return EnumT(name)
        node_def = self.defs.get(name)
        if isinstance(node_def, A.Grid):
            return BoardT(name)
        if isinstance(node_def, A.Record):
            return RecordT(name)
        if isinstance(node_def, A.Switch) and named_options(node_def):
            return EnumT(name)
        candidates = list(simple) + ["cell"] + list(self.enums) + \
            [k for k, v in self.defs.items() if isinstance(v, (A.Grid, A.Record))]
        self.diag.error(node.span, f"unknown type '{name}'", did_you_mean(name, candidates))
        return ANY

    # ================================================================ constants
    def resolve_constants(self):
        for name, node in self.defs.items():
            if isinstance(node, A.Switch):
                self.resolve_switch(name, node)
        for name, node in self.defs.items():
            if isinstance(node, A.Constant):
                self.constant(name)

    def resolve_switch(self, name: str, node: A.Switch):
        value = node.default
        if isinstance(value, tuple):
            value = value[1]
        if len(node.options) == 1:
            kind = node.options[0]
            if kind == "bool":
                ok = value in ("true", "false")
                typ: Type = BOOL
                value = value == "true"
            elif kind == "int":
                ok = isinstance(value, int)
                typ = INT
            else:
                self.diag.error(node.name_span, f"switch '{name}' has one option '{kind}'",
                                "a switch is 'bool', 'int' or two options or more: a | b")
                return
            if not ok:
                self.diag.error(node.default_span, f"the default of switch '{name}' must be a {kind}")
                return
        elif not named_options(node):
            typ = INT
            if any(not isinstance(o, int) for o in node.options):
                self.diag.error(node.name_span, f"switch '{name}' mixes numbers and names",
                                "a switch's options are all names or all numbers: 101 | 102")
                return
            if value not in node.options:
                self.diag.error(node.default_span, f"'{value}' is not an option of switch '{name}'",
                                "options: " + " | ".join(map(str, node.options)))
                return
        else:
            typ = EnumT(name)
            if value not in node.options:
                self.diag.error(node.default_span, f"'{value}' is not an option of switch '{name}'",
                                did_you_mean(str(value), node.options) or
                                "options: " + " | ".join(node.options))
                return
        if name in self.overrides:
            value = self.coerce_override(name, self.overrides[name], typ, node)
        self.constants[name] = (value, typ)

    def coerce_override(self, name, raw, typ: Type, node) -> Any:
        text = str(raw)
        if isinstance(typ, BoolT):
            if text in ("true", "false"):
                return text == "true"
        elif isinstance(typ, IntT):
            numbers = node.options if isinstance(node, A.Switch) and not named_options(node) else None
            number = whole_number(text)
            if number is not None and (numbers is None or number in numbers):
                return number
            if numbers:
                raise BadInputError(f"'{text}' is not an option of '{name}' (options: "
                                    + " | ".join(map(str, numbers)) + ")")
        elif isinstance(typ, EnumT):
            options = self.enums[typ.name].values
            if text in options:
                return text
            raise BadInputError(f"'{text}' is not an option of '{name}' "
                                f"({did_you_mean(text, options) or 'options: ' + ' | '.join(options)})")
        kind = {"int": "a whole number", "bool": "true or false", "text": "a text"}.get(str(typ), f"a {typ}")
        raise BadInputError(f"'{name}' takes {kind}, not '{text}'")

    def too_deep(self, name: str, node) -> None:
        """A definition whose value nests deeper than an expression may (each definition
        putting the one it reads in one more collection): said once, at the first one,
        for those reading it nest deeper still."""
        if getattr(self, "_said_too_deep", False):
            return
        self._said_too_deep = True
        self.diag.error(node.value.span, f"'{name}' is a value nested more than {MOST_NESTING} levels deep "
                                         "(a list of lists of ...)",
                        "each definition puts the one it reads inside one more collection: nest fewer")

    def constant(self, name: str) -> tuple[Any, Type]:
        if name in self.constants:
            return self.constants[name]
        node = self.defs[name]
        assert isinstance(node, A.Constant)
        if name in self.in_progress:
            return None, ANY
        self.in_progress.add(name)
        saved, self.current = self.current, name
        pending = len(self.pending)
        e = self.expr(node.value, Scope(kind="def"))
        self.current = saved
        self.in_progress.discard(name)
        typ = e.type
        if type_depth(typ) > MOST_NESTING:
            self.too_deep(name, node)
            typ, e = ANY, I.Const(ANY, e.span, None)
        cannot = self.pending[pending:]     # a part that cannot be computed (a division by 0): that is the error
        if node.type is not None:
            declared = self.type(node.type)
            if not assignable(typ, declared):
                self.diag.error(node.value.span, f"param '{name}' is declared {declared} but its value is {typ}")
            typ = declared
        if not isinstance(e, I.Const) and cannot:
            del self.pending[pending:]
            self.diag.items.extend(cannot)
            value = None
        elif not isinstance(e, I.Const):
            self.diag.error(node.value.span, f"the value of param '{name}' must be known before play",
                            "use only numbers, switches and other params here")
            value = None
        else:
            value = e.value
        if name in self.overrides:
            value = self.coerce_override(name, self.overrides[name], typ, node)
        self.constants[name] = (value, typ)
        return value, typ

    # ================================================================ grids
    def resolve_grids(self):
        for name, node in self.defs.items():
            if not isinstance(node, A.Grid):
                continue
            saved, self.current = self.current, name
            dims = []
            for e in (node.rows, node.cols):
                r = self.expr(e, Scope(kind="def"))
                if not (isinstance(r, I.Const) and isinstance(r.value, int) and r.value > 0):
                    self.diag.error(e.span, "a grid size must be a positive number known before play")
                    dims.append(1)
                else:
                    dims.append(r.value)
            if dims[0] * dims[1] > MOST_GRID_CELLS:
                self.diag.error(node.span, f"a grid of {dims[0]} x {dims[1]} cells is more than the "
                                           f"{MOST_GRID_CELLS:,} cells rulewright handles",
                                "check the grid's size (a --set of its rows or columns?)")
                dims = [1, 1]
            self.current = saved
            cell = self.type(node.cell_type)
            if not isinstance(cell, (EnumT, AnyT)):
                self.diag.error(node.cell_type.span, f"grid cells hold enum or table values, not {cell}")
            self.grids[name] = I.GridInfo(name, dims[0], dims[1],
                                          cell.name if isinstance(cell, EnumT) else "?",
                                          node.floating, node)

    # ================================================================ state
    def declare_state(self):
        for key, node in self.defs.items():
            if not isinstance(node, A.State):
                continue
            for var in node.vars:
                if var.name in self.state or (var.name in self.defs and var.name != key):
                    self.diag.error(var.span, f"'{var.name}' is already defined")
                    continue
                typ = self.type(var.type)
                key_type = None
                if node.per == "seat":
                    key_type = SEAT
                elif node.per is not None:
                    if node.per in self.enums or isinstance(self.defs.get(node.per), (A.Enum, A.Table)):
                        key_type = EnumT(node.per)
                    else:
                        self.diag.error(node.span, f"'per {node.per}': state is kept per seat or per value "
                                                   f"of an enum or table",
                                        did_you_mean(node.per, list(self.enums) + ["seat"]))
                sv = I.StateVarDef(var.name, typ, None, node.per, var, key_type)
                if var.seen is not None:
                    sv.seen, sv.showing, sv.remembered = var.seen.by, var.seen.showing, var.seen.remembered
                self.state[var.name] = sv

    def check_seen(self, sv: I.StateVarDef) -> None:
        """Who sees a piece of state: only a pile can be hidden (a determinization deals
        its unseen cards again), 'owner' only of state kept per seat, 'showing' a field of
        its cards, 'remembered' only of a pile some seat does not see."""
        seen = sv.node.seen
        if seen is None or seen.by == "all" and seen.showing is None and not seen.remembered:
            return
        name = sv.name
        if not sv.is_pile:
            self.diag.error(seen.span, f"'{name}' is {sv.type}: only a pile can be hidden from a seat",
                            "a hidden pile's cards can be dealt again at random from what a seat saw; "
                            "keep other values public (the default) or hold the secret cards in a pile")
            sv.seen, sv.showing, sv.remembered = "all", None, False
            return
        if seen.by == "owner" and not sv.per_seat:
            self.diag.error(seen.span, f"'seen by owner': '{name}' is not kept per seat, so it has no owner",
                            "declare it in a 'per seat' block, or say 'seen by nobody'")
            sv.seen = "nobody"
        if seen.by == "all" and (seen.showing or seen.remembered):
            self.diag.error(seen.span, f"'{name}' is seen by all: every seat sees its cards already",
                            "'showing' and 'remembered' are for a pile some seat does not see")
            sv.showing, sv.remembered = None, False
        if seen.showing is not None:
            elem = sv.type.elem
            fields = self.fields_of(elem)
            if fields is None:
                self.diag.error(seen.span, f"'showing {seen.showing}': the cards of '{name}' are {elem}, "
                                           "which has no fields", "'showing' names a field of a table or record")
                sv.showing = None
            elif seen.showing not in fields:
                self.diag.error(seen.span, f"'showing {seen.showing}': {elem} has no field '{seen.showing}'",
                                did_you_mean(seen.showing, list(fields)))
                sv.showing = None

    def fields_of(self, t) -> list[str] | None:
        """The fields of a table's rows or a record's values; None for other types."""
        if isinstance(t, EnumT) and t.name in self.enums and self.enums[t.name].columns:
            return list(self.enums[t.name].columns)
        if isinstance(t, RecordT) and t.name in self.records:
            return [f for f, _ in self.records[t.name].fields]
        return None

    def resolve_state(self):
        for sv in self.state.values():
            self.check_seen(sv)
        for key, node in self.defs.items():
            if not isinstance(node, A.State):
                continue
            for var in node.vars:
                sv = self.state.get(var.name)
                if sv is None or var.init is None:
                    continue
                saved, self.current = self.current, var.name
                init = self.expr(var.init, Scope(kind="def"))
                self.current = saved
                if not assignable(init.type, sv.type):
                    self.diag.error(var.init.span, f"'{var.name}' holds {sv.type}, not {init.type}")
                sv.init = init

    # ================================================================ functions
    def func(self, name: str) -> I.FuncDef | None:
        if name in self.funcs:
            return self.funcs[name]
        node = self.defs[name]
        if name in self.in_progress:
            return None
        self.in_progress.add(name)
        saved, self.current = self.current, name
        scope = Scope(kind="def")
        params: list[tuple[str, Type]] = []
        for p in getattr(node, "params", None) or ():
            t = self.type(p.type)
            if p.name in scope.names:
                self.diag.error(p.span, f"parameter '{p.name}' appears twice")
            scope.names[p.name] = t
            params.append((p.name, t))
        body = self.expr(node.value, scope)
        kind = {A.Def: "def", A.Rule: "rule", A.Relation: "relation", A.Outcome: "outcome",
                A.Estimate: "estimate"}[type(node)]
        typ = body.type
        if isinstance(node, A.Def) and node.type is not None:
            declared = self.type(node.type)
            if not assignable(typ, declared):
                self.diag.error(node.value.span, f"'{name}' is declared {declared} but is {typ}")
            typ = declared
        if type_depth(typ) > MOST_NESTING:
            self.too_deep(name, node)
            typ, body = ANY, I.Const(ANY, body.span, None)
        if isinstance(node, A.Rule) and not is_bool(typ):
            self.diag.error(node.value.span, f"a rule is true or false; '{name}' is {typ}")
        if isinstance(node, A.Relation):
            if not (isinstance(body, I.Const) and isinstance(body.value, rt.Relation)):
                self.diag.error(node.value.span, f"relation '{name}' must be known before play",
                                "build it from offsets(...), rays(...), '+' and switches")
        if isinstance(node, A.Estimate):
            self.estimate_shape(node, params, typ)
        elif isinstance(node, A.Outcome) and not is_int(typ):
            self.diag.error(node.value.span, f"an outcome is a number or a score; '{name}' is {typ}")
        message = None
        if isinstance(node, A.Rule) and node.message is not None:
            message = self.message(node.message, scope)
        self.current = saved
        self.in_progress.discard(name)
        fd = I.FuncDef(name, kind, params, typ, body, node, message)
        self.funcs[name] = fd
        return fd

    def estimate_shape(self, node: A.Estimate, params: list, typ: Type) -> None:
        """An estimate takes one seat and is a number (the higher, the better for that seat)."""
        if len(params) != 1 or not isinstance(params[0][1], SeatT):
            got = ", ".join(f"{n}: {t}" for n, t in params) or "nothing"
            self.diag.error(node.name_span, f"an estimate takes one seat, the seat it is for; '{node.name}' "
                                            f"takes {got}", f"write estimate {node.name}(p: seat) = ...")
        if not is_int(typ):
            self.diag.error(node.value.span, f"an estimate is a number; '{node.name}' is {typ}")

    def reads_edge(self, target: str, span: Span, kind: str = "reads"):
        if self.current is not None:
            self.reads.append((self.current, target, kind, span))
