"""The worked examples of a spec, run: each value computed, each expectation checked.

In:  a checked program and its interpreter.
Out: for each ``example``, its values (the ``let`` names, in order; a ``do`` runs a
     procedure on its position, and what follows reads the position it leaves) and, for each
     ``expect``, whether it holds, with what each side of a comparison gave: the
     rulebook's number and the rules' number side by side. An example on a position
     reads its state file first (as ``show`` does). Nothing here knows a game.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulewright.compiler import ir as I
from rulewright.compiler.diagnostics import RulesError, Span
from rulewright.compiler.play import state_io

COMPARISONS = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}


@dataclass
class Expectation:
    text: str                   # the condition as written
    span: Span
    holds: bool
    got: Any = None             # a comparison: the left side's value
    wanted: Any = None          # and the right side's
    op: str | None = None


@dataclass
class ExampleRun:
    name: str
    title: str | None
    values: dict[str, Any] = field(default_factory=dict)
    expectations: list[Expectation] = field(default_factory=list)
    error: str | None = None    # a run-time error of the rules, or a position that cannot be read

    @property
    def holds(self) -> bool:
        return self.error is None and all(e.holds for e in self.expectations)


def source_text(span: Span) -> str:
    try:
        lines = Path(span.file).read_text(encoding="utf-8").splitlines()
    except OSError:
        return "?"
    if span.line == span.end_line:
        return lines[span.line - 1][span.col - 1:span.end_col - 1]
    part = [lines[span.line - 1][span.col - 1:]] + lines[span.line:span.end_line - 1]
    return " ".join(x.strip() for x in part + [lines[span.end_line - 1][:span.end_col - 1]])


def run_example(interp, ex: I.ExampleDef) -> ExampleRun:
    out = ExampleRun(ex.name, ex.title)
    state = None
    try:
        if ex.position is not None:
            doc, text = state_io.read_document(ex.position)
            state = state_io.load(interp, ex.position, doc, text)
        env: dict[str, Any] = {}
        for st in ex.body:
            if isinstance(st, I.Let):
                env[st.name] = out.values[st.name] = interp.evaluate(st.value, env, state=state)
            elif isinstance(st, I.Expect):
                out.expectations.append(_expect(interp, st, env, state))
            elif isinstance(st, I.Do):
                args = [interp.evaluate(a, env, state=state) for a in st.args]
                interp.run(st.proc, *args, state=state)
    except RulesError as exc:
        out.error = exc.diagnostics[0].message if getattr(exc, "diagnostics", None) else str(exc)
    return out


def _expect(interp, st: I.Expect, env: dict, state) -> Expectation:
    cond = st.cond
    text = source_text(cond.span)
    if isinstance(cond, I.Op) and cond.op in COMPARISONS and len(cond.args) == 2:
        got = interp.evaluate(cond.args[0], env, state=state)
        wanted = interp.evaluate(cond.args[1], env, state=state)
        holds = bool(interp.evaluate(cond, env, state=state))
        return Expectation(text, st.span, holds, _plain(got), _plain(wanted), COMPARISONS[cond.op])
    return Expectation(text, st.span, bool(interp.evaluate(cond, env, state=state)))


def _plain(v):
    """A score is shown as its total."""
    return int(v) if isinstance(v, int) and not isinstance(v, bool) else v


def run_examples(interp) -> list[ExampleRun]:
    return [run_example(interp, ex) for ex in interp.program.examples.values()]
