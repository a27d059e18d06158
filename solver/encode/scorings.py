"""The encoder's scorings and choices: a scoring unrolled step by step (a ``mark`` makes a
new layer, so later steps see the cards turned face down), the choices inside it and in
a query (elements, subsets, grids), and grids chosen whole.

In:  a scoring or a ``choose`` statement, its environment.
Out: a ``ScoreV`` with its steps, or the chosen value with its decision variables.
"""
from __future__ import annotations


from typing import Any


from rulewright.compiler import ir as I
from rulewright.compiler.semantics import runtime as rt
from rulewright.compiler.diagnostics import Diagnostic, NotSupportedError, Span
from rulewright.compiler.types import BoardT


from rulewright.solver.symbolic import BoardV, CaseV, Choice, EnumV, IntV, LayerV, ListV, ScoreV, SetV, Sym
from rulewright.solver.encode.base import hashable, cell_name, free_locals


class Scorings:
    """Scorings and choices (see the module's docstring)."""

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
            env[I.points_local(step.name)] = steps[step.name]     # SCORING.STEP, for the steps after it
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
                key = None if isinstance(elem, Sym) or member is not True else hashable(elem)
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
