"""A query's statements walked concretely: the interpreter's side of every answer.

In:  the interpreter of a program, a query, its inputs and the choices of an answer
     (the solver's witness, or any choices to check).
Out: ``interpret_query``: the objective those choices reach, or what fails (a choice
     that is no option, a ``where`` or ``require`` that does not hold); ``replay``: a
     solver answer checked this way, with its reports and how to play it, or a
     ``ReplayError`` when the interpreter disagrees.
"""
from __future__ import annotations

from typing import Any

from rulewright.compiler import ir as I
from rulewright.compiler.semantics import render, runtime as rt
from rulewright.compiler.diagnostics import RulesError, reason_of, RuntimeRulesError
from rulewright.compiler.interpret import interpreter_for
from rulewright.compiler.ir import statements
from rulewright.compiler.semantics.runtime import DivisionByZero
from rulewright.solver.walk import StatementWalk


def _sense(query: I.QueryDef) -> str:
    """Whether a query maximizes or minimizes (maximize when it has no objective)."""
    return next((s.sense for s in statements(query.body) if isinstance(s, I.Objective)), "maximize")


class ReplayError(RulesError):
    """The interpreter disagrees with a solver answer (a bug, reported rather than returned)."""


# ---------------------------------------------------------------- replay
def interpret_query(interp, query: I.QueryDef, inputs: dict[str, Any], values: dict[str, Any],
                    forced: dict | None = None, state: Any = None) -> tuple[int | None, str | None, Any]:
    """Walk a query's statements with the interpreter for given choices.

    Returns (objective, problem, span): the objective's value when every choice is an
    option and every ``where`` and ``require`` holds, else None and what failed."""
    walk = ConcreteWalk(interp, inputs, values, forced, state)
    return walk.block(query.body, {})


class ConcreteWalk(StatementWalk):
    """The interpreter's walk through a query for given choices (see interpret_query): the
    concrete evaluator of the statement walk whose symbolic one is the encoder's."""

    def __init__(self, interp, inputs, values, forced, state):
        self.interp, self.inputs, self.values, self.forced, self.state = interp, inputs, values, forced, state
        self.reports: list = []
        self.plays: list = []
        self.names = None           # the 'named' value of the objective on the path

    def ev(self, e, env, forced=None):
        try:
            return self.interp.evaluate(e, env, forced=forced, state=self.state)
        except Exception as exc:        # noqa: BLE001 (an error of the rules, located here)
            span = e.span
            if isinstance(exc, RulesError) and any(d.span.line > 0 for d in exc.diagnostics):
                if type(exc) not in (RuntimeRulesError, DivisionByZero) or len(exc.diagnostics) != 1:
                    raise
                span = exc.diagnostics[0].span  # an operator that failed, at its place
            reason = reason_of(exc)
            raise RuntimeRulesError(f"cannot compute this for the answer found ({self._shown(env)}): {reason}",
                                    span) from None

    @staticmethod
    def _shown(env: dict) -> str:
        """The answer's choices, as the message of an error shows them."""
        parts = [f"{k} = {render.text(v)}" for k, v in env.items() if not k.startswith("_")]
        return ", ".join(parts[:4]) + (", ..." if len(parts) > 4 else "")

    def block(self, stmts, env):
        """(objective, problem, span) of a block: see ``interpret_query``."""
        frame = {"objective": None}
        return self.walk(stmts, env, frame)

    def end_of_block(self, frame):
        return frame["objective"] or (None, None, None)

    # the hooks of the statement walk (solver.walk), the interpreter's side
    def on_input(self, st, env, frame, rest):
        env[st.name] = self.inputs[st.name]

    def on_let(self, st, env, frame, rest):
        env[st.name] = self.ev(st.value, env)

    def on_choose(self, st, env, frame, rest):
        value = self.values.get(st.name)
        if st.domain == "element" and value not in rt.as_tuple(self.ev(st.coll, env)):
            return None, f"{st.name} {value!r} is not an option", st.span
        if st.domain == "subset" and \
                not rt.within(rt.as_tuple(value), rt.as_tuple(self.ev(st.coll, env))):
            return None, f"{st.name} {value!r} is not part of its collection", st.span
        if st.domain == "subset" and st.size is not None and \
                len(rt.as_tuple(value)) != self.ev(st.size, env):
            return None, f"{st.name} {value!r} does not have the size it is chosen with", st.span
        env[st.name] = value
        if st.where is not None and not self.ev(st.where, env):
            return None, f"{st.name} breaks its 'where' condition", st.span

    def on_require(self, st, env, frame, rest):
        if not self.ev(st.cond, env):
            return None, "the answer breaks a 'require'", st.span

    def on_if(self, st, env, frame, rest):
        result = self.block(st.then if self.ev(st.cond, env) else st.other, dict(env))
        if result[1] is not None:
            return result
        if result[0] is not None:
            frame["objective"] = result

    def on_report(self, st, env, frame, rest):
        self.reports.append((st, dict(env)))

    def on_play(self, st, env, frame, rest):
        self.plays.append((st.name, st.value, dict(env)))

    def on_objective(self, st, env, frame, rest):
        value = self.ev(st.value, env, forced=self.forced)
        value = tuple(int(x) for x in value) if isinstance(value, tuple) else int(value)
        frame["objective"] = (value, None, st.span)
        if st.names is not None:
            self.names = self.ev(st.names, env)


def replay(program: I.Program, name: str, inputs: dict[str, Any], witness: dict[str, Any],
           claimed: int | None, state: Any = None, plays: list | None = None,
           named: list | None = None, unforced: set = frozenset()) -> list:
    """Check a solver witness with the interpreter; raise ``ReplayError`` on any
    disagreement. Returns the query's reports for the witness: (name, value, rule IDs);
    the ``play`` statements reached are added to ``plays`` (name, expression, env),
    the names of the objective reached (``maximize e named n``) to ``named``. The
    witness's choices inside scorings are forced on the interpreter, but those of
    ``unforced`` (a scoring of the same name is also computed whole there)."""
    plays = [] if plays is None else plays
    interp = interpreter_for(program)
    query = program.queries[name]
    chosen = {c.name for c in statements(query.body) if isinstance(c, I.Choose)}
    forced = {k: v for k, v in witness.items() if k not in chosen and k not in unforced}
    walk = ConcreteWalk(interp, inputs, witness, forced, state)
    with_witness, problem, span = walk.block(query.body, {})
    if problem is not None:
        raise ReplayError(f"replay: the solver's {problem}", span)
    shown = []
    for st, env in walk.reports:
        value = walk.ev(st.value, env)
        ids = ()
        if isinstance(st.value, I.Call) and st.value.name in program.funcs:
            node = program.funcs[st.value.name].node
            ids = (st.value.name, tuple(t for t, _ in node.tags), node.name_span)
        shown.append((st.name, value, ids))
    plays.extend(walk.plays)
    if named is not None and walk.names is not None:
        named.append(walk.names)
    if claimed is None:
        return shown
    if with_witness != claimed:
        raise ReplayError(f"replay: the interpreter scores the solver's witness {with_witness}, "
                          f"the solver claims {claimed}", span)
    if not forced:
        return shown            # no choices inside scorings: nothing better to look for
    best_inner, _, _ = ConcreteWalk(interp, inputs, witness, None, state).block(query.body, {})
    sense = _sense(query)
    if (sense == "maximize" and best_inner > claimed) or (sense == "minimize" and best_inner < claimed):
        raise ReplayError(f"replay: with better choices inside the score the witness scores "
                          f"{best_inner}, not {claimed}", span)
    return shown
