"""The step budget: every evaluation of the rules (a game, an expression, a definition)
runs under a number of steps its loops may take, so no spec runs without end.

In:  the loops of the generated code (``steps``, ``tick``, ``charge``), an evaluation's
     entry (``bounded``), an agent looking ahead from inside a game (``apart``).
Out: ``OutOfSteps`` at the loop that was running when the budget ran out, named after the
     evaluation. ``compiler/semantics/runtime.py`` re-exports all of it (``rt.bounded``).
"""
from __future__ import annotations

from rulewright.compiler.diagnostics import Diagnostic, RuntimeRulesError


MOST_NUMBERS = 10_000_000     # the longest range a spec may build (a range is held whole)
MOST_STEPS = 20_000_000       # the values one evaluation's loops may visit, all loops together


class OutOfSteps(RuntimeRulesError):
    """The step budget of an evaluation ran out (raised at the loop that was running)."""


UNLIMITED = 1 << 62           # the steps "left" while no budget is counting: more than any run takes


class _Budget:
    """The steps left to the evaluation under way (``counting``: a budget is; while none is,
    ``left`` is ``UNLIMITED``, so the generated code's loops may take steps off it without
    asking first: ``codegen.Flattener.loop``)."""
    left: int = UNLIMITED
    limit: int = 0
    counting: bool = False


_BUDGET = _Budget()


def stop_counting() -> None:
    """No budget counting from now on (a game stopped from outside inside one)."""
    _BUDGET.left, _BUDGET.counting = UNLIMITED, False


def charge(n: int, span=None) -> None:
    """Count ``n`` steps against the running budget; past it, ``OutOfSteps`` at ``span``."""
    left = _BUDGET.left - n
    _BUDGET.left = left
    if left < 0:
        _BUDGET.left = 0
        raise OutOfSteps(f"did not finish within {_BUDGET.limit:,} steps: this loop was running when "
                         "the budget ran out", span)


def steps(items, span=None):
    """``items``, as a loop of the generated code goes over them: one step per value
    (and one for the loop), counted against the running budget."""
    if _BUDGET.counting:
        try:
            n = len(items) + 1
        except TypeError:
            n = 1
        left = _BUDGET.left - n
        _BUDGET.left = left
        if left < 0:
            charge(0, span)
    return items


def tick(span=None) -> bool:
    """One round of a ``while``: a step. Always true (it is and-ed to the loop's test)."""
    left = _BUDGET.left
    _BUDGET.left = left - 1
    if left <= 0:
        charge(1, span)
    return True


class bounded:
    """``with bounded(what, limit):`` runs an evaluation under a step budget; nested
    evaluations count against the outermost one. Running out is a ``RuntimeRulesError``
    that names ``what`` and is located at the loop that was running."""

    def __init__(self, what: str, limit: int | None = None):
        self.what, self.limit, self.outer = what, limit or MOST_STEPS, False

    def __enter__(self):
        self.outer = not _BUDGET.counting
        if self.outer:
            _BUDGET.left = _BUDGET.limit = self.limit
            _BUDGET.counting = True
        return self

    def __exit__(self, kind, exc, tb):
        if not self.outer:
            return False
        stop_counting()
        failed = none_used(exc, tb)
        if failed is not None:
            raise failed from None
        if isinstance(exc, OutOfSteps) and not getattr(exc, "named", False):
            d = exc.diagnostics[0]
            new = OutOfSteps(Diagnostic(d.span, f"{self.what} {d.message}",
                                        "a loop over very many values, or loops inside loops: bound the "
                                        "ranges and collections it goes over"))
            new.named = True
            raise new.with_traceback(tb) from None
        return False


def none_used(exc, tb) -> RuntimeRulesError | None:
    """A value that is none compared, counted or read a field of by the generated code of
    the rules (Python's ``TypeError``/``AttributeError`` naming ``NoneType``), or looked up
    as a key (``KeyError: None``: the state of no seat): the spec's
    mistake, said at the deepest rule it ran (None for any other error)."""
    keyed = isinstance(exc, KeyError) and exc.args == (None,)
    if not keyed and (not isinstance(exc, (TypeError, AttributeError)) or "NoneType" not in str(exc)):
        return None
    # (the generated code's module; read only when a rule failed so, not at every evaluation)
    from rulewright.compiler.interpret.codegen import raised_at_rule
    span = raised_at_rule(tb)
    if span is None:
        return None
    what = "nothing is kept for none: it is no seat nor key" if keyed else \
        str(exc).replace("'NoneType'", "none").replace("NoneType", "none")
    for py, word in (("'int'", "a number"), ("'str'", "a text"), ("'tuple'", "a collection"), ("'bool'", "a truth value")):
        what = what.replace(py, word)
    made = RuntimeRulesError(Diagnostic(span, f"a value that is none was used where a value is needed ({what})",
                                        "a table cell left empty, or a value a rule may leave as none: "
                                        "test it (x != none) before using it"))
    made.python_error = exc         # (a game resumed from a file blames the file: compiler/play/resume.py)
    return made


class apart:
    """``with apart():`` runs evaluations that are no part of the one running (an agent
    looking ahead from inside a game): each gets a budget of its own, and the running
    one's is set back as it was after."""

    def __enter__(self):
        self.saved = (_BUDGET.left, _BUDGET.limit, _BUDGET.counting)
        stop_counting()
        return self

    def __exit__(self, kind, exc, tb):
        _BUDGET.left, _BUDGET.limit, _BUDGET.counting = self.saved
        return False
