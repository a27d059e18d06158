"""Examples: a spec's worked examples run, each expectation checked, the rulebook's
number and the rules' side by side.

In:  a checked program and the spec it came from.
Out: ``Examples``: the examples a variant left out of the game it changes (with why),
     and each example's run (``compiler/play/examples.py``); as data (``example_data``)
     and as lines of text (``example_lines``), which both faces show.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from rulewright.compiler.interpret import Interpreter
from rulewright.compiler.play.examples import ExampleRun, run_examples
from rulewright.compiler.semantics.render import jsonable, text_value


@dataclass
class Examples:
    """The worked examples of one spec: those left out (name -> why) and those run."""
    spec: str
    left_out: dict[str, str] = field(default_factory=dict)
    runs: list[ExampleRun] = field(default_factory=list)

    @property
    def failing(self) -> int:
        return sum(1 for run in self.runs if not run.holds)


def run_spec_examples(program, spec: str, interp=None) -> Examples:
    """Every worked example of ``program`` run (none: an empty list)."""
    left_out = {name: why.message for name, why in program.examples_left_out.items()}
    runs = run_examples(interp or Interpreter(program)) if program.examples else []
    return Examples(spec, left_out, runs)


def example_data(spec: str, run: ExampleRun) -> dict:
    """One example's run as data (what ``examples --json`` lists)."""
    return {"spec": spec, "example": run.name, "title": run.title, "holds": run.holds, "error": run.error,
            "expectations": [{"expect": e.text, "holds": e.holds, "got": jsonable(e.got), "wanted": jsonable(e.wanted),
                              "at": f"{e.span.file}:{e.span.line}:{e.span.col}"} for e in run.expectations]}


def left_out_lines(found: Examples) -> list[str]:
    """The examples of the game a variant changes that it leaves out, and why."""
    return [f"{found.spec}: example {name} of the game it changes is left out: {why}"
            for name, why in found.left_out.items()]


def example_lines(spec: str, run: ExampleRun) -> list[str]:
    """One example's run for people: ok or FAILS, why the rules stopped, and each
    expectation (a failing comparison with both sides and where it is written)."""
    lines = [f"{spec}: example {run.name} ({run.title or run.name}): {'ok' if run.holds else 'FAILS'}"]
    if run.error:
        lines.append(f"  the rules stop: {run.error}")
    for e in run.expectations:
        sides = f" (the rules give {text_value(e.got)}, the example says {text_value(e.wanted)})" \
            if e.op is not None and not e.holds else ""
        lines.append(f"  {'ok  ' if e.holds else 'FAIL'} {e.text}{sides}"
                     + ("" if e.holds else f"  at {e.span.file}:{e.span.line}:{e.span.col}"))
    return lines


def examples_total(count: int, failing: int) -> str:
    """The last line: how many examples ran, how many fail."""
    return f"{count} examples, {failing} failing"
