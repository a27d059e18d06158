"""Phase 4 of the resolver: statements of scorings, procedures, modes and queries, each
checked against the context it may appear in.

In:  an ``ast.Stmt`` list, its scope and its context (``scoring``, ``procedure``, ``query``...).
Out: typed ``ir.Stmt`` nodes, or diagnostics.
"""
from __future__ import annotations


from rulewright.compiler.syntax import ast as A
from rulewright.compiler import ir as I
from rulewright.compiler.diagnostics import Span, did_you_mean
from rulewright.compiler.types import (ANY, AnyT, BoardT, CellT, CollT, EnumT, LayerT, SeatT, TupleT, Type, assignable, is_bool,
                    is_cell, is_coll, is_int, same)
from rulewright.compiler.resolve.scope import Scope


class StatementsPhase:
    """Statements (see the module's docstring)."""

    # ================================================================ statements
    def block(self, stmts, scope: Scope, context: str) -> list[I.Stmt]:
        """Resolve statements in order; ``let`` and ``choose`` names stay visible after them."""
        inner = scope.child(context)
        out: list[I.Stmt] = []
        for st in stmts:
            s = self.stmt(st, inner, context)
            if isinstance(s, list):         # a statement that is several (swap)
                out.extend(s)
            elif s is not None:
                out.append(s)
        return out

    def stmt(self, node: A.Stmt, scope: Scope, context: str) -> I.Stmt | None:
        return getattr(self, "st_" + type(node).__name__)(node, scope, context)

    def only_in(self, node, context: str, allowed: tuple[str, ...], what: str) -> bool:
        if context not in allowed:
            where = {"scoring": "a scoring step", "procedure": "a procedure or mode",
                     "query": "a query"}
            self.diag.error(node.span, f"'{what}' cannot be used in {where.get(context, context)}",
                            f"'{what}' belongs in " + " or ".join(where[a] for a in allowed))
            return False
        return True

    def bind(self, scope: Scope, name: str, typ: Type, span: Span):
        if name in scope.names:
            self.diag.error(span, f"'{name}' is already defined in this block")
        else:
            self.no_hiding(scope, name, span)
        scope.names[name] = typ

    def no_hiding(self, scope: Scope, name: str, span: Span):
        """A name of a block (a let, a choice, a loop variable) cannot hide one of an
        enclosing block: both would be one variable when the rules run."""
        if scope.parent is not None and scope.parent.lookup(name) is not None:
            self.diag.error(span, f"'{name}' is already a name of an enclosing block (a parameter, a let, "
                                  "a choice or a loop variable): a name of an inner block cannot hide it",
                            "choose another name")

    def st_Let(self, node: A.Let, scope, context):
        value = self.expr(node.value, scope)
        if node.name in self.state:
            self.diag.error(node.name_span, f"'{node.name}' is a state variable: a let of that name would hide it",
                            f"choose another name; 'set {node.name} = ...' changes the state")
        self.bind(scope, node.name, value.type, node.name_span)
        return I.Let(node.span, node.name, value)

    def st_Choose(self, node: A.Choose, scope, context):
        coll = size = None
        typ: Type | None = None
        if node.domain in ("element", "subset"):
            coll = self.expr(node.coll, scope)
            if not is_coll(coll.type):
                self.diag.error(node.coll.span, f"a choice is made in a collection, found {coll.type}")
            elem = coll.type.elem if isinstance(coll.type, CollT) else ANY
            var_t = elem if node.domain == "element" else CollT("set", elem)
            if node.domain == "subset" and node.size is None:
                # any sub-collection: a pile's copies are chosen one by one
                var_t = CollT("pile" if isinstance(coll.type, CollT) and coll.type.kind == "pile"
                              else "set", elem)
            elif node.domain == "subset":
                size = self.expr(node.size, scope)
                if not is_int(size.type):
                    self.diag.error(node.size.span, f"the size of a choice is a number, found {size.type}")
        else:
            typ = self.type(node.type)
            var_t = typ
            if not isinstance(typ, (BoardT, AnyT)):
                self.diag.error(node.type.span, f"only a grid can be chosen whole; {typ} cannot",
                                "choose an element instead: choose x in collection")
            if context != "query":
                self.diag.error(node.span, "'choose NAME: TYPE' is only for queries")
        inner = scope.child()
        inner.names[node.name] = var_t
        where = None
        if node.where is not None:
            where = self.expr(node.where, inner)
            if not is_bool(where.type):
                self.diag.error(node.where.span, f"'where' takes a condition, found {where.type}")
        chooser: I.Expr | str | None = None
        if node.chooser == "random":
            chooser = "random"
        elif node.chooser is not None:
            chooser = self.expr(node.chooser, scope)
            if not isinstance(chooser.type, (SeatT, AnyT)):
                self.diag.error(node.chooser.span, f"'by' names the seat who chooses, found {chooser.type}")
        if context == "procedure" and chooser is None:
            self.diag.error(node.span, f"who makes choice '{node.name}'?",
                            "add 'by p' (a seat) or 'at random'")
        if context in ("scoring", "query") and isinstance(chooser, I.Expr):
            self.diag.error(node.span, f"a choice in a {context} is made by the "
                                       f"{'owner of the score' if context == 'scoring' else 'solver'}",
                            "remove 'by ...'")
        if context == "procedure":
            self.choice_types.setdefault(node.name, []).append(var_t)
        self.bind(scope, node.name, var_t, node.name_span)
        return I.Choose(node.span, node.name, node.domain, coll, size, typ, where, chooser,
                        tuple(t for t, _ in node.tags))

    def st_Expect(self, node: A.Expect, scope, context):
        if not self.in_example:
            self.diag.error(node.span, "'expect' cannot be used here",
                            "'expect' belongs in an example: example NAME \"title\" { let ... expect ... }")
            return None
        cond = self.expr(node.cond, scope)
        if not is_bool(cond.type):
            self.diag.error(node.cond.span, f"'expect' takes a condition, found {cond.type}",
                            "compare what the rules give with the rulebook's number: expect score(g) == 86")
        return I.Expect(node.span, cond)

    def st_Holds(self, node: A.Holds, scope, context):
        if context != "query" or not self.in_property:
            self.diag.error(node.span, "'holds' cannot be used here",
                            "'holds' belongs in a property: property NAME \"sentence\" { choose ... holds ... }")
            return None
        cond = self.expr(node.cond, scope)
        if not is_bool(cond.type):
            self.diag.error(node.cond.span, f"'holds' takes a condition, found {cond.type}")
        return I.Holds(node.span, cond)

    def st_Points(self, node: A.Points, scope, context):
        if not self.only_in(node, context, ("scoring",), "points"):
            return None
        value = self.expr(node.value, scope)
        if not is_int(value.type):
            self.diag.error(node.value.span, f"points are a number, found {value.type}")
        return I.Points(node.span, value)

    def st_Mark(self, node: A.Mark, scope, context):
        if not self.only_in(node, context, ("scoring",), "mark"):
            return None
        t = scope.lookup(node.layer)
        if not isinstance(t, LayerT):
            layers = [n for n in scope.all_names() if isinstance(scope.lookup(n), LayerT)]
            self.diag.error(node.layer_span, f"'{node.layer}' is not a layer of this scoring",
                            did_you_mean(node.layer, layers) or "declare it: layer NAME")
        cells = self.expr(node.cells, scope)
        if not (isinstance(cells.type, CollT) and isinstance(cells.type.elem, (CellT, AnyT))) and \
                not isinstance(cells.type, AnyT):
            self.diag.error(node.cells.span, f"'mark' takes a set of cells, found {cells.type}")
        return I.Mark(node.span, node.layer, cells)

    def zone(self, node: A.Expr, scope: Scope, what: str) -> I.Expr:
        e = self.expr(node, scope)
        if not isinstance(e, (I.Global, I.SeatVar)) or e.name not in self.state:
            if not isinstance(e.type, AnyT):
                self.diag.error(node.span, f"{what} must be a pile of the game state (such as deck or hand(p))")
        elif not (isinstance(e.type, CollT) and e.type.kind == "pile"):
            self.diag.error(node.span, f"{what} must be a pile, '{e.name}' is {e.type}")
        return e

    def st_Shuffle(self, node, scope, context):
        if not self.only_in(node, context, ("procedure",), "shuffle"):
            return None
        return I.Shuffle(node.span, self.zone(node.zone, scope, "what is shuffled"))

    def st_Deal(self, node, scope, context):
        if not self.only_in(node, context, ("procedure",), "deal"):
            return None
        count = self.expr(node.count, scope)
        if not is_int(count.type):
            self.diag.error(node.count.span, f"how many cards to deal: a number, found {count.type}")
        return I.Deal(node.span, count, self.zone(node.source, scope, "the source"),
                      self.zone(node.target, scope, "the target"))

    def st_Move(self, node, scope, context):
        if not self.only_in(node, context, ("procedure",), "move"):
            return None
        target = self.zone(node.target, scope, "the target")
        if node.source is None:
            what = self.expr(node.what, scope)
            if isinstance(what, (I.Global, I.SeatVar)) and what.name in self.state:
                return I.Move(node.span, what, None, target)       # a whole pile
            if not is_coll(what.type):
                self.diag.error(node.what.span, f"'move' without 'from' takes a pile or a list of cards, "
                                                f"found {what.type}")
            return I.Move(node.span, what, "values", target)        # cards from nowhere
        source = self.zone(node.source, scope, "the source")
        what = self.expr(node.what, scope)
        return I.Move(node.span, what, source, target)

    def st_Step(self, node: A.Step, scope, context):
        """A named step of a procedure or mode: a block a variant can override, remove,
        or put a step beside."""
        if context != "procedure":
            self.diag.error(node.name_span, f"'step' cannot be used in "
                                            f"{'a scoring step' if context == 'scoring' else 'a query'}",
                            "named steps are the parts of a procedure or mode" +
                            ("; a scoring's steps are written at its top level" if context == "scoring" else ""))
            return None
        if node.name in self.steps_seen:
            self.diag.error(node.name_span, f"step '{node.name}' appears twice in '{self.step_owner}'",
                            "each step of a procedure or mode has a name of its own",
                            notes=((self.steps_seen[node.name], "first here"),))
        self.steps_seen[node.name] = node.name_span
        key = f"{self.step_owner}.{node.name}"
        self.reads.append((self.current, key, "contains", node.name_span))
        # "precedes" links steps of one block, in order (not a step to those inside it,
        # nor an if's branches to each other)
        previous = self.last_step.get(scope)
        if previous is not None:
            self.reads.append((previous, key, "precedes", node.name_span))
        self.last_step[scope] = key
        saved, self.current = self.current, key
        body = self.block(node.body, scope, context)
        self.current = saved
        return I.Block(node.span, node.name, body, tuple(t for t, _ in node.tags))

    def st_Checkpoint(self, node, scope, context):
        if not self.only_in(node, context, ("procedure",), "checkpoint"):
            return None
        return I.Checkpoint(node.span, node.name)

    def st_Note(self, node, scope, context):
        if not self.only_in(node, context, ("procedure",), "section" if node.heading else "note"):
            return None
        return I.Note(node.span, node.name, self.expr(node.value, scope), node.heading)

    def st_Take(self, node, scope, context):
        if not self.only_in(node, context, ("procedure",), "take"):
            return None
        source = self.zone(node.source, scope, "the source")
        what = self.expr(node.what, scope)
        return I.Take(node.span, what, source)

    def st_Reveal(self, node, scope, context):
        if not self.only_in(node, context, ("procedure",), "reveal"):
            return None
        pile = self.zone(node.pile, scope, "what is revealed")
        to = None
        if node.to is not None:
            to = self.expr(node.to, scope)
            if not isinstance(to.type, (SeatT, AnyT)):
                self.diag.error(node.to.span, f"'reveal ... to' names a seat, found {to.type}")
        cards = None
        if node.cards is not None:
            cards = self.expr(node.cards, scope)
            elem = getattr(pile.type, "elem", ANY)
            if not (assignable(cards.type, elem) or assignable(cards.type, CollT("list", elem))
                    or isinstance(cards.type, CollT) and assignable(cards.type.elem, elem)):
                self.diag.error(node.cards.span, f"what is revealed from {getattr(pile, 'name', 'a pile')} is cards of it "
                                                 f"({elem}), found {cards.type}")
        return I.Reveal(node.span, pile, to, cards)

    def st_Place(self, node, scope, context):
        if not self.only_in(node, context, ("procedure",), "place"):
            return None
        card = self.expr(node.card, scope)
        source = self.zone(node.source, scope, "the source")
        board = self.expr(node.board, scope)
        if not isinstance(board, (I.Global, I.SeatVar)) or not isinstance(board.type, BoardT):
            if not isinstance(board.type, AnyT):
                self.diag.error(node.board.span, "a card is placed on a grid of the game state (such as board(p))")
        at = self.expr(node.at, scope)
        if not is_cell(at.type):
            self.diag.error(node.at.span, f"'at' takes a cell, found {at.type}")
        return I.Place(node.span, card, source, board, at)

    def st_Pass(self, node, scope, context):
        if not self.only_in(node, context, ("procedure",), "pass"):
            return None
        sv = self.state.get(node.zone)
        if sv is None or not sv.per_seat:
            seat_vars = [k for k, v in self.state.items() if v.per_seat]
            self.diag.error(node.zone_span, f"'{node.zone}' is not a pile each seat holds",
                            did_you_mean(node.zone, seat_vars))
        direction = self.expr(node.direction, scope)
        if direction.type != EnumT("direction") and not isinstance(direction.type, AnyT):
            self.diag.error(node.direction.span, f"pass to left or right, not {direction.type}")
        return I.Pass(node.span, node.zone, direction)

    def st_Repeat(self, node, scope, context):
        count = self.expr(node.count, scope)
        if not is_int(count.type):
            self.diag.error(node.count.span, f"repeat takes a number, found {count.type}")
        return I.Repeat(node.span, count, self.block(node.body, scope, context))

    def st_For(self, node, scope, context):
        coll = self.expr(node.coll, scope)
        if not is_coll(coll.type):
            self.diag.error(node.coll.span, f"'for' needs a collection, found {coll.type}")
        inner = scope.child()
        self.no_hiding(inner, node.var, node.var_span)
        inner.names[node.var] = coll.type.elem if isinstance(coll.type, CollT) else ANY
        return I.For(node.span, node.var, coll, self.block(node.body, inner, context), node.simultaneous)

    def st_If(self, node, scope, context):
        cond = self.expr(node.cond, scope)
        if not is_bool(cond.type):
            self.diag.error(node.cond.span, f"'if' takes a condition, found {cond.type}")
        return I.If(node.span, cond, self.block(node.then, scope, context),
                    self.block(node.other, scope, context))

    def st_Do(self, node, scope, context):
        # (an example may run a procedure on its position: the rulebook's "then the Evaluation")
        if not self.only_in(node, context, ("procedure",) + (("query",) if self.in_example else ()), "do"):
            return None
        d = self.defs.get(node.proc)
        args = [self.expr(a, scope) for a in node.args]
        if not isinstance(d, A.Procedure):
            procs = [k for k, v in self.defs.items() if isinstance(v, A.Procedure)]
            self.diag.error(node.proc_span, f"unknown procedure '{node.proc}'", did_you_mean(node.proc, procs))
            return None
        self.reads_edge(node.proc, node.proc_span, "calls")
        if len(args) != len(d.params):
            self.diag.error(node.span, f"procedure '{d.name}' takes {len(d.params)} argument(s), not {len(args)}")
        for p, a, an in zip(d.params, args, node.args):
            t = self.type(p.type)
            if not assignable(a.type, t):
                self.diag.error(an.span, f"argument '{p.name}' of '{d.name}' is {t}, not {a.type}")
        return I.Do(node.span, node.proc, args)

    def st_Report(self, node, scope, context):
        if not self.only_in(node, context, ("procedure", "query"), "report"):
            return None
        var = coll = None
        inner = scope
        if node.var is not None:
            coll = self.expr(node.coll, scope)
            inner = scope.child()
            self.no_hiding(inner, node.var, node.span)
            inner.names[node.var] = coll.type.elem if isinstance(coll.type, CollT) else ANY
            var = node.var
        return I.Report(node.span, node.name, var, coll, self.expr(node.value, inner))

    def st_Swap(self, node: A.Swap, scope, context):
        """``swap a, b``: a hidden local keeps the first value, then each side is set as
        ``set`` would (the same checks: state is set in procedures, types must agree)."""
        def read(side) -> A.Expr:
            name, span, key = side
            return A.Name(span, name) if key is None else A.Call(span, name, span, (key,))
        keep = f"swapped {node.span.line}:{node.span.col}"     # (a name no spec can write)
        inner = scope
        first = self.expr(read(node.first), inner)
        second = self.expr(read(node.second), inner)
        if first.type != second.type and not (assignable(first.type, second.type)
                                               and assignable(second.type, first.type)):
            self.diag.error(node.span, f"swap exchanges two values of one type: {node.first[0]} is {first.type}, "
                                       f"{node.second[0]} is {second.type}")
            return None
        inner.names[keep] = first.type
        parts = [I.Let(node.span, keep, first)]
        for (name, span, key), value in ((node.first, read(node.second)), (node.second, A.Name(node.span, keep))):
            st = self.st_SetVar(A.SetVar(node.span, name, span, key, value), inner, context)
            if st is None:
                return None
            parts.append(st)
        return parts

    def st_SetVar(self, node: A.SetVar, scope, context):
        value = self.expr(node.value, scope)
        if node.key is not None:
            sv = self.state.get(node.name)
            if sv is None or not sv.keyed:
                keyed = [k for k, v in self.state.items() if v.keyed]
                self.diag.error(node.name_span, f"'{node.name}' is not state kept per seat or per key",
                                did_you_mean(node.name, keyed))
                return None
            if not self.only_in(node, context, ("procedure",), "set"):
                return None
            key = self.expr(node.key, scope)
            if not assignable(key.type, sv.key_type):
                self.diag.error(node.key.span, f"'{node.name}' is kept per {sv.per}, not per {key.type}")
            if not assignable(value.type, sv.type):
                self.diag.error(node.value.span, f"'{node.name}' holds {sv.type}, not {value.type}")
            self.reads_edge(node.name, node.name_span, "writes")
            return I.SetVar(node.span, node.name, "keyed", key, value)
        local = scope.lookup(node.name)
        if local is not None:
            if isinstance(local, LayerT):
                self.diag.error(node.name_span, f"'{node.name}' is a layer: use 'mark'")
                return None
            if not assignable(value.type, local):
                self.diag.error(node.value.span, f"'{node.name}' holds {local}, not {value.type}")
            return I.SetVar(node.span, node.name, "local", None, value)
        sv = self.state.get(node.name)
        if sv is not None:
            if sv.keyed:
                self.diag.error(node.name_span, f"'{node.name}' is kept per {sv.per}: set {node.name}(x) = ...")
                return None
            if not self.only_in(node, context, ("procedure",), "set"):
                return None
            if not assignable(value.type, sv.type):
                self.diag.error(node.value.span, f"'{node.name}' holds {sv.type}, not {value.type}")
            self.reads_edge(node.name, node.name_span, "writes")
            return I.SetVar(node.span, node.name, "shared", None, value)
        self.diag.error(node.name_span, f"cannot set '{node.name}': it is not a local value or game state",
                        did_you_mean(node.name, scope.all_names() | set(self.state)) or
                        f"declare it first: let {node.name} = ...")
        return None

    def st_While(self, node: A.While, scope, context):
        cond = self.expr(node.cond, scope)
        if not is_bool(cond.type):
            self.diag.error(node.cond.span, f"'while' takes a condition, found {cond.type}")
        return I.While(node.span, cond, self.block(node.body, scope, context))

    def st_Input(self, node, scope, context):
        if not self.only_in(node, context, ("query",), "input"):
            return None
        t = self.type(node.type)
        default = None
        if node.default is not None:
            default = self.expr(node.default, scope)
            if not assignable(default.type, t):
                self.diag.error(node.default.span, f"the default of '{node.name}' is {default.type}, not {t}")
        self.bind(scope, node.name, t, node.name_span)
        return I.Input(node.span, node.name, t, default)

    def st_Require(self, node, scope, context):
        if not self.only_in(node, context, ("query", "procedure"), "require"):
            return None
        cond = self.expr(node.cond, scope)
        if not is_bool(cond.type):
            self.diag.error(node.cond.span, f"'require' takes a condition, found {cond.type}")
        message = None
        if context == "procedure" and node.message is None:
            self.diag.error(node.span, "a requirement of the rules has a name and says what is wrong "
                                       "when it does not hold",
                            'write require NAME [IDs]: condition else "message" ({expression} parts show values)')
        elif context == "query" and node.message is not None:
            self.diag.error(node.name_span, "a query's 'require' is a bare condition; its reasons are the "
                                            "sentences of the rules it calls",
                            'write require CONDITION, and give the sentence to a rule: rule NAME = ... else "..."')
        elif node.message is not None:
            message = self.message(node.message, scope)
        if context == "procedure" and node.name is not None:
            seen = self.requires_seen
            if node.name in seen:
                self.diag.error(node.name_span, f"a second requirement named '{node.name}' here",
                                "each requirement of a procedure has a name of its own",
                                notes=((seen[node.name], "the first"),))
            seen[node.name] = node.name_span
        return I.Require(node.span, cond, tuple(t for t, _ in node.tags), node.name, message)

    def st_Play(self, node, scope, context):
        if not self.only_in(node, context, ("query",), "play"):
            return None
        names = self.choice_names()
        if node.name not in names:
            self.diag.error(node.name_span, f"no procedure of this spec makes a choice '{node.name}'",
                            did_you_mean(node.name, names) or "play names a 'choose' of a procedure")
        value = self.expr(node.value, scope)
        kinds = self.choice_types.get(node.name, [])
        if kinds and not any(same(value.type, t) for t in kinds):      # options are compared with ==
            self.diag.error(node.value.span, f"'{node.name}' is chosen among values of type "
                                             f"{' or '.join(sorted({str(t) for t in kinds}))}, and this is {value.type}",
                            "play answers a choice of the game with one of its options")
        return I.Play(node.span, node.name, value)

    def choice_names(self) -> set[str]:
        """The names of every choice the procedures and modes make."""
        out: set[str] = set()

        def walk(body):
            for st in body or ():
                if isinstance(st, A.Choose):
                    out.add(st.name)
                for attr in ("body", "then", "other"):
                    inner = getattr(st, attr, None)
                    if isinstance(inner, (list, tuple)):
                        walk(inner)
        for d in self.defs.values():
            if isinstance(d, (A.Procedure, A.Mode)):
                walk(d.body)
        return out

    def st_Objective(self, node, scope, context):
        if not self.only_in(node, context, ("query",), node.sense):
            return None
        value = self.expr(node.value, scope)
        # a number, or a tuple of numbers compared left to right: the first is
        # optimised, the next breaks its ties, and so on
        lexicographic = isinstance(value.type, TupleT) and len(value.type.items) > 1 and \
            all(is_int(t) for t in value.type.items)
        if not is_int(value.type) and not lexicographic:
            self.diag.error(node.value.span, f"{node.sense} takes a number or a tuple of numbers, "
                                             f"found {value.type}",
                            hint=f"{node.sense} (a, b) optimises a, then b among the answers equal on a")
        names = None
        if node.names is not None:
            names = self.expr(node.names, scope)
            width = len(value.type.items) if lexicographic else 1
            given = len(names.type.items) if isinstance(names.type, TupleT) else 1
            if given != width and not isinstance(names.type, AnyT):
                self.diag.error(node.names.span, f"{given} name(s) for an objective of {width} number(s)",
                                "one name per number: maximize (a, b) named (\"first\", \"second\")")
        return I.Objective(node.span, node.sense, value, names)
