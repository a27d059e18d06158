"""The spec's ``check`` definitions, run whenever a spec is loaded.

In:  a resolved ``ir.Program`` (its tables possibly read from a player's own files).
Out: nothing when every check holds; otherwise a ``ResolveError`` with one
     diagnostic per failure. A check over the rows of a table reports each failing
     row at its own line (in the spec, or in the player's CSV file), with the check's
     message, the values that made it fail, and where the check is written.

Checks are evaluated by the interpreter like any definition; they may read tables,
switches, params and definitions, never the state of a game.
"""
from __future__ import annotations

from typing import Any

from . import ir as I
from . import render
from .diagnostics import DiagnosticBag, ResolveError, RulesError, Span


def _where(program: I.Program, item: Any) -> Span | None:
    """Where a table row or enum value is defined, when the item is one."""
    if isinstance(item, str):
        enum = program.enum_of_value.get(item)
        if enum is not None:
            return program.enums[enum].spans.get(item)
    return None


def _values(interp, chk: I.CheckDef, env: dict) -> str | None:
    if chk.sides is None:
        return None
    left, op, right = chk.sides
    lv, rv = interp.evaluate(left, env), interp.evaluate(right, env)
    shown = [("none" if v is None else render.text(v)) for v in (lv, rv)]
    return f"found {shown[0]}, needs {op} {shown[1]}"


def _message(interp, chk: I.CheckDef, env: dict) -> tuple[str, bool]:
    """The check's message with its ``{...}`` parts computed, and whether it has any
    (then it says what it needs to, and the automatic details are left out)."""
    parts = [p if isinstance(p, str) else render.text(interp.evaluate(p, env)) for p in chk.message]
    return "".join(parts), any(not isinstance(p, str) for p in chk.message)


def run_checks(program: I.Program) -> None:
    if not program.checks:
        return
    from .interpret import Interpreter
    interp = Interpreter(program)
    bag = DiagnosticBag()
    for chk in program.checks.values():
        node = chk.node
        at = f"check '{chk.name}' at {node.name_span.file}:{node.name_span.line}"
        try:
            if chk.var is None:
                if not interp.evaluate(chk.cond, {}):
                    text, own = _message(interp, chk, {})
                    values = None if own else _values(interp, chk, {})
                    bag.error(node.name_span, text + (f": {values}" if values else ""),
                              _source_hint(program, chk))
                continue
            for item in interp.evaluate(chk.domain, {}):
                env = {chk.var: item}
                if chk.filter is not None and not interp.evaluate(chk.filter, env):
                    continue
                if interp.evaluate(chk.cond, env):
                    continue
                text, own = _message(interp, chk, env)
                span = _where(program, item)
                if own:
                    message = text
                else:
                    values = _values(interp, chk, env)
                    message = f"{text}: {render.text(item)}" + (f" ({values})" if values else "")
                if span is None:
                    bag.error(node.name_span, message)
                else:
                    bag.error(span, message, at)
        except RulesError as exc:
            bag.error(node.name_span, f"check '{chk.name}' cannot be evaluated: {exc.diagnostics[0].message}")
        except Exception as exc:                                   # noqa: BLE001 (a check reads the state)
            bag.error(node.name_span, f"check '{chk.name}' cannot be evaluated before play ({exc})",
                      "a check may read tables, switches, params and definitions, not the game state")
    bag.raise_if_any(ResolveError)


def _source_hint(program: I.Program, chk: I.CheckDef) -> str | None:
    """For a whole-table check: which table files it was computed from."""
    files = [f"{t} from {f}" for t, f in program.table_files.items() if t in _tables_read(program, chk.name)]
    return "computed over " + ", ".join(files) if files else None


def _tables_read(program: I.Program, start: str) -> set[str]:
    """Tables a definition reads, following the definitions it reads."""
    seen, todo, tables = {start}, [start], set()
    while todo:
        name = todo.pop()
        for src, dst, _, _ in program.reads:
            if src != name or dst in seen:
                continue
            seen.add(dst)
            if dst in program.table_files:
                tables.add(dst)
            else:
                todo.append(dst)
    return tables
