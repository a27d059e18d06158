"""Values of a game as text people read, and as JSON: one-line values, tables of
records, grids, scores.

In:  run-time values (ints, enum names, seats, piles, records, boards, maps).
Out: strings and lists of lines (``text``, ``text_value``, ``block``...), JSON-ready
     values (``jsonable``). Nothing here knows any game: a list of records is
     a table whose columns are the record's fields, whatever the record means.
"""
from __future__ import annotations

from typing import Any

from rulewright.compiler.semantics import runtime as rt

LONG_PILE = 12          # piles longer than this are shown as a count and their top cards


def words(name: str) -> str:
    return name.replace("_", " ")


def is_record(value: Any) -> bool:
    return hasattr(value, "rw_fields")


def is_record_list(value: Any) -> bool:
    return isinstance(value, (tuple, list)) and bool(value) and all(is_record(v) for v in value) \
        and len({v.rw_name for v in value}) == 1


def text(value: Any, limit: int | None = None) -> str:
    """One value on one line."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, rt.Seat):
        return value.title
    if isinstance(value, rt.Zone):
        value = tuple(value.cards)
    if isinstance(value, rt.Board):
        return f"{len(value.cards)} card(s) on {value.rows}x{value.cols}"
    if isinstance(value, rt.Score):
        return str(int(value))
    if is_record(value):
        return ", ".join(f"{words(f)} {text(v)}" for f, v in zip(value.rw_fields, value[1:]))
    if isinstance(value, dict):
        return ", ".join(f"{text(k)}: {text(v)}" for k, v in value.items()) or "none"
    if isinstance(value, tuple) and len(value) == 2 and all(type(v) is int for v in value):
        return f"({value[0]}, {value[1]})"
    if isinstance(value, (tuple, list, set, frozenset)):
        items = list(value)
        if limit is not None and len(items) > limit:
            shown = ", ".join(text(v) for v in items[:3])
            return f"{len(items)} items (top: {shown}, ...)"
        return ", ".join(text(v) for v in items) or "none"
    if isinstance(value, str):
        return value
    return str(value)


def table(records: list, indent: str = "  ") -> list[str]:
    """A list of records of one kind as an aligned table, one row per record."""
    fields = records[0].rw_fields
    rows = [[words(f) for f in fields]]
    for r in records:
        rows.append([text(v) for v in r[1:]])
    widths = [max(len(row[i]) for row in rows) for i in range(len(fields))]
    numeric = [all(r[i].lstrip("-").isdigit() for r in rows[1:]) for i in range(len(fields))]
    out = []
    for row in rows:
        cells = [cell.rjust(w) if num and row is not rows[0] else cell.ljust(w)
                 for cell, w, num in zip(row, widths, numeric)]
        out.append((indent + "  ".join(cells)).rstrip())
    return out


def board_lines(board: rt.Board, marked=(), indent: str = "  ") -> list[str]:
    width = max([len(k) for k in board.cards.values()] + [1])
    out = []
    for r in range(board.rows):
        cells = []
        for c in range(board.cols):
            k = board.cards.get((r, c), ".")
            cells.append((k + ("*" if (r, c) in marked else "")).ljust(width + 1))
        out.append(indent + " ".join(cells).rstrip())
    return out


def block(name: str, value: Any, indent: str = "") -> list[str]:
    """A named value: on one line, or a heading and a table or grid below it."""
    if is_record_list(value):
        return [f"{indent}{words(name)}:"] + table(list(value), indent + "  ")
    if isinstance(value, rt.Board) and value.cards:
        return [f"{indent}{words(name)}:"] + board_lines(value, indent=indent + "  ")
    if isinstance(value, rt.Zone):
        return [f"{indent}{words(name)} ({len(value)}): {text(value, LONG_PILE)}"]
    return [f"{indent}{words(name)}: {text(value, LONG_PILE)}"]


def jsonable(value: Any) -> Any:
    if isinstance(value, rt.Score):
        return {"total": int(value), "scores": dict(value.steps),
                **{k: jsonable(v) for k, v in value.choices.items()}}
    if isinstance(value, rt.Board):
        return [[value.cards.get((r, c)) for c in range(value.cols)] for r in range(value.rows)]
    if isinstance(value, rt.Seat):
        return value.name
    if isinstance(value, rt.Zone):
        return list(value.cards)
    if isinstance(value, dict):
        return {(k.name if isinstance(k, rt.Seat) else str(k)): jsonable(v) for k, v in value.items()}
    if isinstance(value, (tuple, list, frozenset, set)):
        return [jsonable(v) for v in value]
    return value


def text_value(value: Any, cells: bool = True) -> str:
    """A value as text; with ``cells``, a pair of whole numbers is a grid cell "(r, c)"
    (a value known not to hold cells passes False: two numbers are then "6, 7")."""
    if isinstance(value, rt.Seat):
        return value.title
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, rt.Score):     # a scoring's total, with the steps that score
        scored = ", ".join(f"{k} {v}" for k, v in value.steps.items() if v)
        return f"{int(value)} ({scored})" if scored else str(int(value))
    if hasattr(value, "rw_fields"):
        return text(value)
    if cells and isinstance(value, tuple) and len(value) == 2 and all(type(v) is int for v in value):
        return f"({value[0]}, {value[1]})"
    if cells and isinstance(value, tuple) and value and all(isinstance(v, tuple) and len(v) == 2 for v in value):
        return " ".join(f"({r}, {c})" for r, c in value)
    if isinstance(value, (tuple, list)):
        return ", ".join(text_value(v, cells) for v in value) or "none"
    return str(value)


def score_lines(score: rt.Score, indent: str = "  ") -> list[str]:
    width = max(len(k) for k in score.steps) if score.steps else 5
    lines = [f"{indent}{k.ljust(width)} {v:>4}" for k, v in score.steps.items()]
    for k, v in score.choices.items():
        lines.append(f"{indent}{k.replace('_', ' ')}: {text_value(v)}")
    lines.append(f"{indent}{'total'.ljust(width)} {int(score):>4}")
    return lines


def join_text(items, sep: str) -> str:
    """The elements as words (names with spaces), joined by ``sep``: for messages."""
    out = []
    for x in rt.as_tuple(items):
        if isinstance(x, str):
            out.append(x.replace("_", " "))
        elif isinstance(x, tuple) and not hasattr(x, "rw_fields"):
            out.append(join_text(x, ", "))
        else:
            out.append(text(x))
    return sep.join(out)
