"""Phase 5 of the resolver: the definitions made of statements: scorings, procedures, modes
and queries.

In:  their AST nodes.
Out: ``scorings``, ``procedures``, ``modes``, ``queries`` of the resolver.
"""
from __future__ import annotations

from pathlib import Path


from rulewright.compiler.syntax import ast as A
from rulewright.compiler import ir as I, files as files_mod
from rulewright.compiler.diagnostics import Span, did_you_mean
from rulewright.compiler.types import SEAT, AnyT, BoardT, CollT, LayerT, assignable
from rulewright.compiler.syntax.ast import nodes_in
from rulewright.compiler.resolve.scope import BUILTIN_ENUMS, MOST_PLAYERS, Scope, arity


class DefinitionsPhase:
    """Scorings, procedures, modes and queries (see the module's docstring)."""

    # ================================================================ scoring
    def resolve_scoring(self, node: A.Scoring):
        scope = Scope(kind="scoring")
        params = []
        for p in node.params:
            t = self.type(p.type)
            scope.names[p.name] = t
            params.append((p.name, t))
        grid = next((t.grid for _, t in params if isinstance(t, BoardT)), None)
        layers = []
        for layer in node.layers:
            scope.names[layer.name] = LayerT(grid)
            layers.append(layer.name)
        steps = []
        seen: dict[str, Span] = {}
        prev = None
        for step in node.steps:
            if step.name in seen:
                self.diag.error(step.name_span, f"step '{step.name}' appears twice in '{node.name}'",
                                notes=((seen[step.name], "first here"),))
            seen[step.name] = step.name_span
            key = f"{node.name}.{step.name}"
            saved, self.current = self.current, key
            self.reads.append((node.name, key, "contains", step.name_span))
            if prev is not None:
                self.reads.append((prev, key, "precedes", step.name_span))
            # SCORING.STEP reads the steps before this one (see points_of)
            self.scoring_steps = (node.name, [s.name for s in node.steps], len(steps))
            body = self.block(step.body, scope, "scoring")
            self.scoring_steps = None
            self.current = saved
            steps.append(I.StepDef(step.name, body, step))
            prev = key
        # a later step that reads a layer an earlier one marks depends on it ("feeds")
        marked = []
        for step in node.steps:
            reads = {n.id for n in nodes_in(step.body) if isinstance(n, A.Name) and n.id in layers}
            for key, marks in marked:
                if marks & reads:
                    self.reads.append((key, f"{node.name}.{step.name}", "feeds", step.name_span))
            marked.append((f"{node.name}.{step.name}",
                           {st.layer for st in nodes_in(step.body) if isinstance(st, A.Mark)}))
        self.scorings[node.name] = I.ScoringDef(node.name, params, layers, steps, node)


    # ================================================================ procedures, modes, queries
    def resolve_procedure(self, node: A.Procedure):
        self.requires_seen = {}
        self.steps_seen, self.step_owner, self.last_step = {}, node.name, {}
        scope = Scope(kind="procedure")
        params = []
        for p in node.params:
            t = self.type(p.type)
            scope.names[p.name] = t
            params.append((p.name, t))
        saved, self.current = self.current, node.name
        body = self.block(node.body, scope, "procedure")
        self.current = saved
        self.procedures[node.name] = I.ProcDef(node.name, params, body, node)

    def resolve_mode(self, node: A.Mode):
        self.requires_seen = {}
        self.steps_seen, self.step_owner, self.last_step = {}, node.name, {}
        saved, self.current = self.current, node.name
        players = self.expr(node.players, Scope(kind="def"))
        lo = hi = 1
        if isinstance(players, I.Const) and isinstance(players.value, int):
            lo = hi = players.value
        elif isinstance(players, I.Const) and isinstance(players.value, tuple) and players.value:
            lo, hi = min(players.value), max(players.value)
        elif isinstance(players, I.Const) and players.value == ():
            self.diag.error(node.players.span, f"the mode '{node.name}' is for no number of players: "
                                               "this range is empty",
                            "a range a..b needs a <= b: see the params it names (a --set value or a "
                            "variant may have lowered one)")
        else:
            self.diag.error(node.players.span, "players takes a number or a range such as 3..6")
        if lo < 1 <= hi or hi < 1:
            self.diag.error(node.players.span, f"the mode '{node.name}' is for {lo}..{hi} players: "
                                               "a game has 1 player or more")
        elif hi > MOST_PLAYERS:
            self.diag.error(node.players.span, f"the mode '{node.name}' is for up to {hi:,} players, more than "
                                               f"the {MOST_PLAYERS} a game may seat")
        scope = Scope(kind="procedure")
        seats = []
        has_players = False
        for entry in node.seats:
            if entry.name is None:
                if has_players:
                    self.diag.error(entry.span, "'players' appears twice in seats")
                has_players = True
                seats.append(I.SeatSpec(None, "player", None))
                continue
            if entry.kind not in BUILTIN_ENUMS["seat_kind"]:
                self.diag.error(entry.span, f"unknown seat kind '{entry.kind}'",
                                did_you_mean(entry.kind, BUILTIN_ENUMS["seat_kind"]) or
                                "kinds: player, neutral, automaton")
            self.bind(scope, entry.name, SEAT, entry.span)
            seats.append(I.SeatSpec(entry.name, entry.kind, entry.title))
        named_players = sum(1 for s in seats if s.name and s.kind == "player")
        if has_players and named_players:
            self.diag.error(node.span, "use either 'players' or named player seats, not both")
        if not has_players and named_players != hi:
            self.diag.error(node.players.span, f"{named_players} player seat(s) are named but the mode is for "
                                               f"{lo}..{hi} players")
        body = self.block(node.body, scope, "procedure")
        self.current = saved
        self.modes[node.name] = I.ModeDef(node.name, node.title, lo, hi, seats, body, node)

    def resolve_query(self, node: A.Query):
        saved, self.current = self.current, node.name
        scope = Scope(kind="query")
        body = self.block(node.body, scope, "query")
        self.current = saved
        inputs = []
        for st, ast_st in zip([s for s in body if isinstance(s, I.Input)],
                              [s for s in node.body if isinstance(s, A.Input)]):
            inputs.append((st.name, st.type, ast_st.doc))
        # At most one maximize/minimize on every path through the query's branches; a
        # query without one asks whether its conditions can be met at all.
        def objectives(stmts) -> int:
            most = 0
            count = 0
            for st in stmts:
                if isinstance(st, I.Objective):
                    count += 1
                elif isinstance(st, I.If):
                    most = max(most, objectives(st.then), objectives(st.other))
            return count + most
        if objectives(body) > 1:
            self.diag.error(node.name_span, f"query '{node.name}' has more than one maximize or minimize "
                                            "on one path")
        # every path optimises the same way: one sense, and numbers or tuples of one length
        found = [st for st in I.statements(body) if isinstance(st, I.Objective)] \
            if objectives(body) <= 1 else []
        for st in found[1:]:
            if isinstance(st.value.type, AnyT) or isinstance(found[0].value.type, AnyT):
                break           # an error reported already
            if st.sense != found[0].sense or arity(st.value.type) != arity(found[0].value.type):
                def shape(o) -> str:
                    n = arity(o.value.type)
                    return f"{o.sense}s " + ("a number" if n == 1 else f"a tuple of {n} numbers")
                self.diag.error(st.span, f"this path {shape(st)}, the one at line {found[0].span.line} "
                                         f"{shape(found[0])}",
                                hint="every path of a query maximizes (or minimizes) the same kind of "
                                     "value: a number, or tuples of one length")
                break
        self.check_objective_names(body, set())
        self.queries[node.name] = I.QueryDef(node.name, node.title, body, inputs, node)

    def choices_body(self, node, what: str, holds: bool) -> list[I.Stmt]:
        """The body of a property or a domain: a query's statements (choices, lets,
        requires, ifs), without inputs, objectives, plays or reports."""
        saved, self.current, self.in_property = self.current, node.name, holds
        try:
            body = self.block(node.body, Scope(kind="query"), "query")
        finally:
            self.current, self.in_property = saved, False
        for st in I.statements(body):
            if isinstance(st, (I.Input, I.Objective, I.Play, I.Report)):
                kind = {I.Input: "input", I.Play: "play", I.Report: "report"}.get(type(st)) or st.sense
                self.diag.error(st.span, f"'{kind}' cannot be used in a {what}",
                                f"a {what} chooses its values (choose ...)"
                                + (" and says what holds (holds ...)" if holds else ""))
        return body

    def resolve_property(self, node: A.Property):
        """A property: choices, then ``holds`` as its last statement."""
        body = self.choices_body(node, "property", holds=True)
        if not body or not isinstance(body[-1], I.Holds):
            self.diag.error(node.name_span, f"property '{node.name}' does not end with what holds",
                            "end it with: holds CONDITION (one condition: join several with 'and')")
        elif any(isinstance(st, I.Holds) for st in I.statements(body[:-1])):
            self.diag.error(next(st for st in I.statements(body[:-1]) if isinstance(st, I.Holds)).span,
                            "a property says what holds once, at its end",
                            "join the conditions with 'and' in the last holds")
        self.properties[node.name] = I.PropertyDef(node.name, node.title, body, node)

    def resolve_example(self, node: A.Example):
        """An example: lets and expects, evaluated as written (no choice), on a position when
        it names a state file beside the spec."""
        saved, self.current, self.in_example = self.current, node.name, True
        mark, reads = len(self.diag.items), len(self.reads)
        try:
            body = self.block(node.body, Scope(kind="query"), "query")
        finally:
            self.current, self.in_example = saved, False
        inherited = self.own_files is not None and str(Path(node.span.file).resolve()) not in self.own_files
        if inherited and len(self.diag.items) > mark:
            # the game's example reads what a variant takes away: left out, said by 'examples'
            self.examples_left_out[node.name] = self.diag.items[mark]
            del self.diag.items[mark:]
            del self.reads[reads:]
            return
        for st in I.statements(body):
            if not isinstance(st, (I.Let, I.Expect, I.Do)):
                word = type(st).__name__.lower()
                self.diag.error(st.span, f"'{word}' cannot be used in an example",
                                "an example names its values (let x = ...), may run a procedure on its "
                                "position (do NAME(...)), and says what the rules give (expect ...)")
            elif isinstance(st, I.Do) and node.position is None:
                self.diag.error(st.span, "an example runs a procedure on a position",
                                'start it from one: example NAME "title" on "position.json" { ... }')
        if not any(isinstance(st, I.Expect) for st in body):
            self.diag.error(node.name_span, f"example '{node.name}' expects nothing",
                            "say what the rules give for its values: expect score(g) == 86")
        position = None
        if node.position is not None:
            where = Path(node.span.file).parent / node.position
            refused = files_mod.refusal(node.position, where, self.roots)
            if refused:
                self.diag.error(node.position_span, refused, files_mod.refusal_hint())
            elif not where.is_file():
                self.diag.error(node.position_span, f"no state file {node.position} beside the spec",
                                "a position is a state file (rulewright play --save-state) next to the .rules file")
            else:
                position = str(where)
        self.examples[node.name] = I.ExampleDef(node.name, node.title, body, node, position)

    def resolve_section(self, node: A.Section):
        """A chapter of the rulebook pages: every name it shows is a definition, shown once."""
        seen = set()
        for name, span in node.names:
            d = self.defs.get(name)
            if d is None or isinstance(d, (A.Game, A.Section)):
                self.diag.error(span, f"'{name}' is no definition the section can show",
                                did_you_mean(name, [k for k, v in self.defs.items() if not isinstance(v, A.Section)]))
            elif name in seen:
                self.diag.error(span, f"'{name}' is shown twice in section '{node.name}'")
            seen.add(name)
        for other in self.defs.values():
            if isinstance(other, A.Section) and other is not node and other.name < node.name:
                twice = seen & {n for n, _ in other.names}
                if twice:
                    self.diag.error(node.name_span, f"'{sorted(twice)[0]}' is shown by section '{other.name}' too",
                                    "a definition stands in one section")

    def resolve_domain(self, node: A.Domain):
        """A domain: choices whose last choose or let binds the value, of the declared type."""
        typ = self.type(node.type)
        body = self.choices_body(node, "domain", holds=False)
        last = body[-1] if body else None
        if not isinstance(last, (I.Choose, I.Let)):
            self.diag.error(node.name_span, f"domain '{node.name}' does not end with the value it ranges over",
                            f"end it with: choose x ... or let x = ... (a value of type {typ})")
            return
        if isinstance(last, I.Let):
            got = last.value.type
        elif last.domain == "value":
            got = last.type
        elif isinstance(last.coll.type, CollT):
            elem = last.coll.type.elem
            kind = "pile" if last.coll.type.kind == "pile" and last.size is None else "set"
            got = elem if last.domain == "element" else CollT(kind, elem)
        else:
            got = None
        if got is not None and not assignable(got, typ) and not isinstance(got, AnyT):
            self.diag.error(last.span, f"domain '{node.name}' is of type {typ}; its last value '{last.name}' "
                                       f"is a {got}")
        for name, span in node.only:
            d = self.defs.get(name)
            if d is None or not isinstance(d, (A.Def, A.Rule, A.Scoring, A.Relation, A.Outcome)):
                self.diag.error(span, f"'{name}' is no definition, rule or scoring that takes values",
                                did_you_mean(name, [k for k, v in self.defs.items()
                                                    if isinstance(v, (A.Def, A.Rule, A.Scoring))]))
        self.domains[node.name] = I.DomainDef(node.name, node.title, typ, body, last.name, node,
                                              tuple(n for n, _ in node.only))

    def check_objective_names(self, body: list, chosen: set) -> None:
        """An objective's names are known before any choice: they read no name a
        ``choose`` binds, nor a ``let`` computed from one (in statement order)."""
        for st in body:
            if isinstance(st, I.Choose):
                chosen.add(st.name)
            elif isinstance(st, I.Let) and I.free_locals(st.value) & chosen:
                chosen.add(st.name)
            elif isinstance(st, I.If):
                self.check_objective_names(st.then, set(chosen))
                self.check_objective_names(st.other, set(chosen))
            elif isinstance(st, I.Objective) and st.names is not None:
                read = sorted(I.free_locals(st.names) & chosen)
                if read:
                    self.diag.error(st.names.span, f"an objective's names are known before any choice; "
                                                   f"they read '{read[0]}', which a choice decides",
                                    "name the numbers from the inputs (named goal_names(objective))")
