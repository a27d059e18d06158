"""Values of a game as text people read: one-line values and tables of records.

In:  run-time values (ints, enum names, seats, piles, records, boards, maps).
Out: strings and lists of lines. Nothing here knows any game: a list of records is
     a table whose columns are the record's fields, whatever the record means.
"""
from __future__ import annotations

from typing import Any

from . import runtime as rt

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
