"""Values of a game as text people read, and as JSON: one-line values, tables of
records, grids, scores.

In:  run-time values (ints, enum names, seats, piles, records, boards, maps).
Out: strings and lists of lines (``text``, ``text_value``, ``block``...), JSON-ready
     values (``jsonable``). Nothing here knows any game: a list of records is
     a table whose columns are the record's fields, whatever the record means.
"""
from __future__ import annotations

import json
from typing import Any

from rulewright.compiler.semantics import runtime as rt
from rulewright.compiler.types import BoardT, BoolT, CellT, CollT, EnumT, IntT, MapT, RecordT, SeatT, TextT, TupleT, Type

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


def jsonable(value: Any, state: bool = False) -> Any:
    """A value as JSON: the one printer of values for ``--json`` output, game logs and state
    files. With ``state``, as a state file writes a value whose type is not known precisely
    (a report, a note): a score is its total and a record its fields by name; otherwise a
    score has its steps and choices and a record is the list of its values."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return value                    # (most values a game logs: cards, counts)
    if kind is tuple and all(type(v) is int for v in value):
        return list(value)              # (a cell)
    if isinstance(value, rt.Score):
        if state:
            return int(value)
        return {"total": int(value), "scores": dict(value.steps),
                **{k: jsonable(v) for k, v in value.choices.items()}}
    if isinstance(value, rt.Board):
        return [[value.cards.get((r, c)) for c in range(value.cols)] for r in range(value.rows)]
    if isinstance(value, rt.Seat):
        return value.name
    if isinstance(value, rt.Zone):
        return list(value.cards)
    if state and is_record(value):
        return {f: jsonable(x, state) for f, x in zip(value.rw_fields, value[1:])}
    if isinstance(value, dict):
        return {(k.name if isinstance(k, rt.Seat) else str(k)): jsonable(v, state) for k, v in value.items()}
    if isinstance(value, (tuple, list, frozenset, set)):
        return [jsonable(v, state) for v in value]
    return value


def typed_json(program, t: Type, v: Any) -> Any:
    """A value of a known type as a state file writes it (``docs/state.md``): a seat by its
    name, a record's fields by name, a map's keys as JSON object keys, a grid as rows."""
    if v is None:
        return None
    if isinstance(t, (IntT, BoolT, TextT, EnumT)):
        return v
    if isinstance(t, SeatT):
        return v.name
    if isinstance(t, CollT):
        items = v.cards if isinstance(v, rt.Zone) else v
        return [typed_json(program, t.elem, x) for x in items]
    if isinstance(t, RecordT):
        info = program.records[t.name]
        return {f: typed_json(program, ft, x) for (f, ft), x in zip(info.fields, v[1:])}
    if isinstance(t, TupleT):
        return [typed_json(program, it, x) for it, x in zip(t.items, v)]
    if isinstance(t, MapT):
        return {_key_text(typed_json(program, t.key, k)): typed_json(program, t.value, x) for k, x in v.items()}
    if isinstance(t, BoardT):
        return [[v.cards.get((r, c)) for c in range(v.cols)] for r in range(v.rows)]
    if isinstance(t, CellT):
        return list(v)
    return jsonable(v, state=True)


def _key_text(k: Any) -> str:
    """A map key as a JSON object key: true/false for booleans, as JSON writes them."""
    return json.dumps(k) if isinstance(k, bool) else str(k)


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
