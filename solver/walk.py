"""The one walk of a query's statements, shared by its two evaluators.

In:  a query's statements (``ir.Stmt``), an environment of the names bound so far and a
     frame: what the evaluator keeps for the block being walked.
Out: the evaluator's result for the block.

``StatementWalk.walk`` visits the statements in order and calls the evaluator's hook for
the statement's kind (``on_input``, ``on_let``, ``on_choose``, ``on_require``, ``on_if``,
``on_objective``, ``on_report``, ``on_play``) with the statement, the environment, the
frame and the statements after it. A hook returns None to go on, or a result that ends
the block (a path with no option, a check that fails, a case split that walked the rest
of the block itself). After the last statement the walk returns ``end_of_block(frame)``.

The encoder (``encode.statements``: symbolic values, constraints) and the replay
(``replay``: the interpreter's values for given choices) are the two evaluators: a
statement kind that queries gain is one hook on each side, and a kind an evaluator has no
hook for is refused at its place.
"""
from __future__ import annotations

from typing import Any

from rulewright.compiler import ir as I
from rulewright.compiler.diagnostics import NotSupportedError

_HOOKS = {I.Input: "on_input", I.Let: "on_let", I.Choose: "on_choose", I.Require: "on_require",
          I.If: "on_if", I.Objective: "on_objective", I.Report: "on_report", I.Play: "on_play"}


class StatementWalk:
    """A query's statements walked in order, one hook per kind (see the module's docstring)."""

    def walk(self, stmts: list[I.Stmt], env: dict[str, Any], frame: Any):
        for index, st in enumerate(stmts):
            hook = getattr(self, _HOOKS.get(type(st), ""), None)
            if hook is None:
                raise NotSupportedError(f"'{type(st).__name__.lower()}' in a query", st.span)
            result = hook(st, env, frame, stmts[index + 1:])
            if result is not None:
                return result
        return self.end_of_block(frame)

    def end_of_block(self, frame: Any):
        return None
