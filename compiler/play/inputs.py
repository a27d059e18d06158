"""User input files -> values of the program's types.

In:  grid files (one line per row, card names separated by spaces, ``.`` for a
     free cell), card lists (names separated by spaces, commas or new lines)
     and single values given on the command line.
Out: ``runtime.Board``, tuples of enum values, ints... or a ``BadInputError``
     pointing at ``file:line:col`` with a caret and a "did you mean".
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from rulewright.compiler import ir as I
from rulewright.compiler.semantics import runtime as rt
from rulewright.compiler.diagnostics import BadInputError, Diagnostic, Span, register_source, whole_number
from rulewright.compiler.files import read_bytes
from rulewright.compiler.types import BoardT, BoolT, CollT, EnumT, IntT, TextT, Type

EMPTY = {".", "_", "-"}


_JSON_NESTING = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def json_too_deep(text: str, most: int) -> int | None:
    """The offset in ``text`` (JSON) where it nests deeper than ``most`` levels, else None:
    measured on the text, before any reader recurses into it (a state file, a choices
    line, an effects file)."""
    depth = 0
    for m in _JSON_NESTING.finditer(text):
        c = m.group(0)
        if c in "[{":
            depth += 1
            if depth > most:
                return m.start()
        elif c in "]}":
            depth -= 1
    return None


def offset_span(path: str, text: str, offset: int) -> Span:
    """The place of one character of ``text`` (the file at ``path``), from its offset."""
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return Span(path, line, col, line, col + 1)


def decoded(path: str, span: Span | None = None) -> str:
    """A file's text, UTF-8 with or without a byte-order mark; a file that cannot be
    read (missing, not a regular file, too large: see ``files``), or is not UTF-8, is a
    ``BadInputError`` that says so in words (at ``span``, the place naming the file)."""
    raw = read_bytes(path, span=span)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise BadInputError(not_utf8(path, raw, exc)) from None


def not_utf8(path: str, raw: bytes, exc: UnicodeDecodeError) -> Diagnostic:
    """Where a file stops being UTF-8 text: its line and column, the line shown (the
    bytes that are not text replaced), with a hint (UTF-16 is recognised)."""
    at = exc.start + len(raw) - len(exc.object)     # utf-8-sig decodes past a BOM: offsets after it
    line = raw.count(b"\n", 0, at) + 1
    start = raw.rfind(b"\n", 0, at) + 1
    col = len(raw[start:at].decode("utf-8-sig" if start == 0 else "utf-8", errors="replace")) + 1
    register_source(path, raw.decode("utf-8-sig", errors="replace"))
    utf16 = raw[:2] in (b"\xff\xfe", b"\xfe\xff")
    return Diagnostic(Span(path, line, col, line, col + 1),
                      f"not UTF-8 text (the byte 0x{raw[at]:02x})",
                      "this file is UTF-16: save it as UTF-8" if utf16 else "save the file as UTF-8")


def read_text(path: str) -> str:
    """A user's input file as text, registered for located errors; a missing file is a clear error."""
    text = decoded(path)
    register_source(path, text)
    return text


def _words(text: str, path: str):
    """(word, Span) for every word of a text, split on spaces, commas and new lines."""
    for lineno, line in enumerate(text.splitlines(), start=1):
        if line.lstrip().startswith("#"):
            continue
        for m in re.finditer(r"[^\s,]+", line):
            yield m.group(0), Span(path, lineno, m.start() + 1, lineno, m.end() + 1)


def enum_value(word: str, enum: I.EnumInfo, span: Span | None, what: str) -> str:
    value = word.lower()
    if value in enum.values:
        return value
    hint = enum.not_a_value_hint(value, what)
    message = f"unknown {what} '{word}'"
    if span is None:
        raise BadInputError(f"{message} ({hint})")
    raise BadInputError(Diagnostic(span, message, hint))


def read_grid(path: str, program: I.Program, grid_name: str, allow_free: bool) -> rt.Board:
    grid = program.grids[grid_name]
    enum = program.enums[grid.cell_enum]
    text = read_text(path)
    if text.lstrip().startswith("{"):
        raise BadInputError(Diagnostic(Span(path, 1, 1, 1, 2), "this is a saved position (JSON), not a grid file",
                                       f"write the {grid.rows} x {grid.cols} grid as text, one line per row, names "
                                       "separated by spaces ('.' for a free cell); 'rulewright show' prints the "
                                       "grids of a position"))
    rows = [(i, line) for i, line in enumerate(text.splitlines(), start=1)
            if line.strip() and not line.lstrip().startswith("#")]
    if len(rows) != grid.rows:
        span = Span(path, rows[-1][0] if rows else 1, 1, rows[-1][0] if rows else 1, 2)
        raise BadInputError(Diagnostic(span, f"a grid has {grid.rows} lines of {grid.cols} cards, "
                                             f"this file has {len(rows)} lines",
                                       "write one line per row, names separated by spaces"))
    cards: dict[tuple[int, int], str] = {}
    spans: dict[tuple[int, int], Span] = {}
    for r, (lineno, line) in enumerate(rows):
        words = [(m.group(0), Span(path, lineno, m.start() + 1, lineno, m.end() + 1))
                 for m in re.finditer(r"\S+", line)]
        if len(words) != grid.cols:
            span = Span(path, lineno, 1, lineno, len(line) + 1)
            raise BadInputError(Diagnostic(span, f"row {r + 1} has {len(words)} cards, "
                                                 f"a row has {grid.cols}"))
        for c, (word, span) in enumerate(words):
            if word in EMPTY:
                if not allow_free:
                    raise BadInputError(Diagnostic(span, "this grid must be full; '.' marks a free cell",
                                                   "every cell needs a card name"))
                continue
            cards[(r, c)] = enum_value(word, enum, span, grid.cell_enum)
            spans[(r, c)] = span
    board = rt.Board(grid.name, grid.rows, grid.cols, grid.floating, cards)
    if allow_free and board.cards:
        # A partly built floating grid must be connected card to card.
        lone = rt.lone_card(board)
        if lone is not None:
            raise BadInputError(Diagnostic(spans[lone], f"the card at row {lone[0] + 1}, column {lone[1] + 1} is "
                                                        "not connected to the others",
                                           "cards are placed next to each other"))
        board = rt.normalised(board)
    return board


def read_cards(source: str, program: I.Program, enum_name: str) -> tuple[str, ...]:
    """A card list from a file, or from the argument itself when no such file exists."""
    enum = program.enums[enum_name]
    try:
        is_file, is_dir = Path(source).is_file(), Path(source).is_dir()
    except (OSError, ValueError):   # too long to be a path, or a NUL in it: a list of names
        is_file = is_dir = False
    if is_file:
        text = read_text(source)
        return tuple(enum_value(w, enum, span, enum_name) for w, span in _words(text, source))
    if is_dir:
        raise BadInputError(f"{source}: a folder, not a card list (a file of card names, or the names themselves)")
    if "/" in source or "." in source:          # no card name has either: a file name
        raise BadInputError(f"{source}: no such file (and, with '/' or '.', not a list of card names either)")
    return tuple(enum_value(w, enum, None, enum_name) for w in re.findall(r"[^\s,]+", source))


def parse_value(text: str, typ: Type, program: I.Program, name: str) -> Any:
    """A command-line value for an input of type ``typ``."""
    if isinstance(typ, IntT):
        number = whole_number(text)
        if number is not None:
            return number
        raise BadInputError(f"--{name.replace('_', '-')} takes a number, not '{text}'")
    if isinstance(typ, BoolT):
        if text in ("true", "false"):
            return text == "true"
        raise BadInputError(f"--{name.replace('_', '-')} takes true or false, not '{text}'")
    if isinstance(typ, TextT):
        return text
    if isinstance(typ, EnumT):
        return enum_value(text, program.enums[typ.name], None, typ.name)
    if isinstance(typ, BoardT):
        return read_grid(text, program, typ.grid, allow_free=True)
    if isinstance(typ, CollT) and isinstance(typ.elem, EnumT):
        return read_cards(text, program, typ.elem.name)
    raise BadInputError(f"--{name.replace('_', '-')}: inputs of type {typ} cannot be given on the command line")
