"""The encoder's side of a query's statements, walked by ``solver.walk`` (the walk the
replay shares): inputs, lets, choices (a choice among a few known options split into one
case per option), requirements (one checked rule each, with an assumption literal when
reasons are wanted), branches and objectives.

In:  a query and its inputs.
Out: the environment of its choices, the objective and its sense, the checked rules.
"""
from __future__ import annotations


from typing import Any


from rulewright.compiler import ir as I
from rulewright.compiler.semantics import runtime as rt
from rulewright.compiler.diagnostics import NotSupportedError, RulesError
from rulewright.compiler.types import TupleT


from rulewright.solver.symbolic import BoardV, CaseV, Choice, ListV, Sym
from rulewright.solver.encode.base import cell_name, Leaf, choice_literals, leaf_name
from rulewright.solver.walk import StatementWalk


class Statements(StatementWalk):
    """A query's statements (see the module's docstring)."""

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
    SPLIT_MAX = 256     # element choices from known collections up to this size are split

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
        for st in I.statements(q.body):
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
        return self.walk(stmts, env, (guard, path))

    # the hooks of the statement walk (solver.walk); a frame is (the path's guard, its choices)
    def on_input(self, st: I.Input, env: dict, frame, rest):
        env[st.name] = self.input_value(st, env)

    def on_let(self, st: I.Let, env: dict, frame, rest):
        env[st.name] = self.encode(st.value, env)

    def on_choose(self, st: I.Choose, env: dict, frame, rest):
        guard, path = frame
        coll = self.encode(st.coll, env) if st.domain == "element" else None
        if st.domain == "element" and not isinstance(coll, Sym) and \
                len(rt.as_tuple(coll)) <= self.SPLIT_MAX:
            self.split(st, rt.as_tuple(coll), rest, env, guard, path)
            return True             # the rest of the block was walked once per option
        if st.domain == "element" and not isinstance(coll, Sym):
            # too many options to split: what follows sees the choice as a variable
            self.unsplit = {**getattr(self, "unsplit", {}), st.name: (len(rt.as_tuple(coll)), st.span)}
        self.dead_end, self.dead_depth = False, len(self.context)
        value = self.choose(st, env, st.name)
        if self.dead_end and not self.explain:
            return False        # its condition cannot hold here: as for a require
        if guard is not True:
            for lit in choice_literals(value):
                self.implies(lit, guard)
        env[st.name] = value
        self.choices.append(Choice(st.name, value, st.domain, extra={"guard": guard}))

    def on_require(self, st: I.Require, env: dict, frame, rest):
        guard, path = frame
        if not self.require(st.cond, env, guard, path, st):
            if not self.explain:
                return False        # no option on this path: nothing after it is encoded
            self.path_failed = True

    def on_if(self, st: I.If, env: dict, frame, rest):
        guard, path = frame
        c = self.encode(st.cond, env)
        if isinstance(c, Sym):
            raise NotSupportedError("a query branches on a known condition only (a choice made "
                                    "before it from a known collection is known here)", st.cond.span)
        if self.run_block(st.then if c else st.other, dict(env), guard, path) is False:
            return False

    def on_objective(self, st: I.Objective, env: dict, frame, rest):
        guard, _ = frame
        self.objectives.append((guard, self.encode(st.value, env)))
        if st.names is not None:        # known: the resolver refuses names a choice decides
            self.objective_names.append(self.encode(st.names, env))

    def on_report(self, st, env: dict, frame, rest):
        pass            # shown and played from the replayed witness (replay)

    on_play = on_report

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

    def require(self, e: I.Expr, env: dict, guard=None, path: dict | None = None, st: I.Stmt | None = None,
                rule=None) -> bool:
        """Require ``e``: on a query's path (``st``, the ``require`` statement, given: under
        the path's ``guard``), or, for a ``where`` of a choice inside a scoring, wherever
        the expression being encoded is reached. Conjunctions are split; on a query's path
        so are calls of rules without their own sentence (``else "..."``): each remaining
        part is one checked rule, with an assumption literal when reasons are wanted.
        False when a part is known to fail: the path has no option, and what follows it
        is not encoded (but with reasons, whose every failing rule is wanted)."""
        if isinstance(e, I.Op) and e.op == "and":
            first = self.require(e.args[0], env, guard, path, st, rule)
            if not first and not self.explain and st is not None:
                return False        # (a 'where' encodes both parts, as the model expects)
            return self.require(e.args[1], env, guard, path, st, rule) and first
        if st is None:
            return self._require_where_reached(e, env)
        if isinstance(e, I.Call) and e.name in self.program.funcs:
            fd = self.program.funcs[e.name]
            if fd.kind == "rule" and fd.message is None:
                args = [self.encode(a, env) for a in e.args]
                inner = {p: a for (p, _), a in zip(fd.params, args)}
                return self.require(fd.body, inner, guard, path, st, fd)
        if not self.explain:
            self._record_caps(e, env)     # (a require that is an assumption caps nothing)
        lit = self.lit(self.encode(e, env), e.span)
        leaf = Leaf(e, dict(env), guard, dict(path), rule, st, lit)
        if self.explain:
            cond = [self.not_(guard), lit] if guard is not True else [lit]
            if not any(c is True for c in cond):     # (a rule that always holds is no reason)
                leaf.assumption = self.new_bool(f"holds:{leaf_name(leaf)}#{len(self.leaves)}")
                self.model.add_bool_or([c for c in cond if c is not False]).only_enforce_if(leaf.assumption)
        elif lit is False and guard is True:
            self.infeasible.append(e.span)
            self.model.add_bool_or([])
        else:
            self.implies(guard, lit)
        self.leaves.append(leaf)
        return lit is not False

    def _require_where_reached(self, e: I.Expr, env: dict) -> bool:
        """``require`` of one part of a scoring choice's ``where``, under the literals the
        expression being encoded is reached under (everywhere at the top of a query)."""
        self._record_caps(e, env)
        reach = self.reached()
        lit = self.lit(self.encode(e, env), e.span)
        if lit is True:
            return True
        if lit is False and len(self.context) == self.dead_depth:
            self.dead_end = True        # on the query's path itself: nothing after it has an option
        if reach is not True:
            self.implies(reach, lit)
            return lit is not False
        if lit is False:
            self.infeasible.append(e.span)
            self.model.add_bool_or([])
            return False
        self.model.add_bool_or([lit])
        return True


