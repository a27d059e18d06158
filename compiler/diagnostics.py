"""Source spans, diagnostics and the errors users see.

In:  file names, positions (from Lark tokens and trees) and messages.
Out: ``Span`` values carried by every AST/IR node; ``Diagnostic`` values rendered
     gcc-style with the offending line and a caret::

        spec/x/scoring.rules:14:23: error: unknown name 'climbng' (did you mean 'climbing'?)
          14 |   requires climbng or flying
             |            ^^^^^^^

Every user-facing failure is a ``RulesError`` subclass; the command line turns
them into one clear message and an exit code, never a traceback.
"""
from __future__ import annotations

import difflib
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

# Source text of every file read so far, so a diagnostic can quote its line.
_SOURCES: dict[str, str] = {}


_LINES: dict[str, list[str]] = {}      # the lines of each source, split once


def register_source(path: str, text: str) -> None:
    _SOURCES[path] = text
    _LINES.pop(path, None)


def source_line(path: str, line: int) -> str | None:
    lines = _LINES.get(path)
    if lines is not None:
        return lines[line - 1] if 1 <= line <= len(lines) else None
    text = _SOURCES.get(path)
    if text is None:
        try:           # a file registered by no reader: shown only when it is a plain, small file
            info = os.stat(path)
            if not stat.S_ISREG(info.st_mode) or info.st_size > 8 * 1024 * 1024:
                return None
            text = Path(path).read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError):
            return None
        _SOURCES[path] = text
    lines = _LINES[path] = text.splitlines()
    if 1 <= line <= len(lines):
        return lines[line - 1]
    return None


@dataclass(frozen=True, order=True)
class Span:
    """A region of a source file: 1-based line and column, end exclusive."""

    file: str
    line: int
    col: int
    end_line: int
    end_col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"

    @staticmethod
    def of(meta_or_token, file: str) -> "Span":
        line = getattr(meta_or_token, "line", None)
        if line is None:
            return Span(file, 1, 1, 1, 1)
        col = meta_or_token.column
        end_line = getattr(meta_or_token, "end_line", None) or line
        end_col = getattr(meta_or_token, "end_column", None) or col + 1
        return Span(file, line, col, end_line, end_col)

    def to(self, other: "Span") -> "Span":
        return Span(self.file, self.line, self.col, other.end_line, other.end_col)


NO_SPAN = Span("<builtin>", 0, 0, 0, 0)


@dataclass(frozen=True)
class Diagnostic:
    span: Span
    message: str
    hint: str | None = None
    severity: str = "error"
    notes: tuple[tuple[Span, str], ...] = ()

    def render(self) -> str:
        where = f"{self.span}: " if self.span.line > 0 else ""
        out = [f"{where}{self.severity}: {shortened(shown_names(self.message))}"]
        out.extend(_quote(self.span))
        for span, note in self.notes:
            out.append(f"{span}: note: {shortened(shown_names(note))}")
            out.extend(_quote(span))
        if self.hint:
            out.append(f"  hint: {shortened(shown_names(self.hint))}")
        return "\n".join(out)


# How much of a message, and of a line of the file, an error shows: a value quoted from a
# file (a saved game's one-line entry, a pasted number of thousands of digits) is cut to
# a readable length; the place of the fault (file, line:col, entry) is always kept.
MOST_MESSAGE = 1_000        # characters of a message, hint or note
MOST_LINE = 160             # characters of a quoted source line, around the column


def shortened(text: str, most: int = MOST_MESSAGE) -> str:
    """A message cut to ``most`` characters when longer: its beginning (the place, what is
    wrong) and its end (the hint's words), with how much is left out between them."""
    if len(text) <= most:
        return text
    head, tail = most * 2 // 3, most // 3
    return f"{text[:head]} [... {len(text) - head - tail:,} characters left out ...] {text[len(text) - tail:]}"


def quoted(value, most: int = 200) -> str:
    """A value as a message quotes it (its ``repr``), cut to ``most`` characters."""
    try:
        text = repr(value)
    except ValueError:          # a number of more digits than Python writes
        return f"a number of about {int(value.bit_length() * 0.30103):,} digits" if isinstance(value, int) \
            else f"<a {type(value).__name__}>"
    if len(text) <= most:
        return text
    return f"{text[:most - 40]}... ({len(text):,} characters)"


def reason_of(exc: BaseException) -> str:
    """What went wrong, in words: a rules error's message, else the exception's text
    (a division by zero...), else its kind."""
    if isinstance(exc, RulesError):
        return exc.diagnostics[0].message
    return str(exc) or type(exc).__name__


def shown_names(text: str) -> str:
    """A text with the names a variant gives the base definitions its overrides call
    (``turn__before_hand_limit``) as a person reads them."""
    return re.sub(r"\b([a-z_][a-z0-9_]*?)__before_([a-z0-9_]+)\b",
                  r"\1 (the base's, called as base by the variant \2)", text)


def _quote(span: Span) -> list[str]:
    if span.line <= 0:
        return []
    text = source_line(span.file, span.line)
    if text is None:
        return []
    raw = text
    text = raw.expandtabs(4)
    num = str(span.line)
    width = len(num)
    # columns count characters, a tab as one: the caret goes under the expanded text
    start = len(raw[:span.col - 1].expandtabs(4))
    if span.end_line == span.line:
        end = len(raw[:max(span.col, span.end_col) - 1].expandtabs(4))
        length = max(1, end - start)
    else:
        length = max(1, len(text) - start)
    if len(text) > MOST_LINE:
        # a long line (a file written on one line) is shown around the column only
        low = max(0, min(start - MOST_LINE // 3, len(text) - MOST_LINE))
        high = min(len(text), low + MOST_LINE)
        before, after = ("..." if low > 0 else ""), ("..." if high < len(text) else "")
        length = max(1, min(length, high - start))
        text = before + text[low:high] + after
        start = len(before) + start - low
    caret = " " * start + "^" * length
    return [f"  {num} | {text}", f"  {' ' * width} | {caret}"]


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    matches = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.6)
    if matches:
        return f"did you mean '{matches[0]}'?"
    return None


def whole_number(text: str) -> int | None:
    """A whole number written in ASCII digits (at most 18 of them, with an optional
    minus sign), else None: what a user may type where a number is wanted."""
    text = text.strip()
    if re.fullmatch(r"-?[0-9]{1,18}", text):
        return int(text)
    return None


def one_of(name: str, values: list[str], what: str, most: int = 12) -> str:
    """A hint for a name that is none of ``values``: the close one, else those that
    contain it ("red": red_head, red_body...), else the values themselves,
    at most ``most`` of them."""
    word = name.lower()
    found = [v for v in values if len(word) >= 3 and word in v.lower()]
    if len(found) > 1:
        shown = found[:most]
        return f"did you mean {', '.join(shown)}" + (f" ({len(found)} in all)" if len(found) > most else "") + "?"
    close = did_you_mean(name, values)
    if close:
        return close
    if found:
        return f"did you mean '{found[0]}'?"
    if len(values) <= 2 * most:
        return f"{a_or_an(what)} is one of: {', '.join(values)}"
    return f"{a_or_an(what)} is one of: {', '.join(values[:most])}, ... ({len(values)} in all)"


def a_or_an(word: str) -> str:
    """The word after 'a' or 'an'."""
    return ("an " if word[:1] in "aeiou" else "a ") + word


# ---------------------------------------------------------------- error types
MOST_SHOWN = 50          # the errors one message shows (a table of thousands of bad rows...)


class RulesError(Exception):
    """Base of every error a user can cause. ``exit_code``: 1 spec, 2 input/usage."""

    exit_code = 1

    def __init__(self, diagnostics: Diagnostic | list[Diagnostic] | str, span: Span | None = None):
        if isinstance(diagnostics, str):
            diagnostics = [Diagnostic(span or NO_SPAN, diagnostics)]
        elif isinstance(diagnostics, Diagnostic):
            diagnostics = [diagnostics]
        self.diagnostics: list[Diagnostic] = sorted(diagnostics, key=lambda d: d.span)
        super().__init__(self.render())

    def render(self) -> str:
        shown = self.diagnostics[:MOST_SHOWN]
        more = len(self.diagnostics) - len(shown)
        return "\n".join([d.render() for d in shown] +
                         ([f"... and {more:,} more error(s) like these (the first {MOST_SHOWN} are shown)"]
                          if more > 0 else []))


class SpecSyntaxError(RulesError):
    pass


class ResolveError(RulesError):
    pass


class GraphError(RulesError):
    pass


class NotSupportedError(RulesError):
    """A construct the CP-SAT back end cannot encode (with the span that uses it)."""


class IllegalMoveError(RulesError):
    exit_code = 2


class BadInputError(RulesError):
    """A bad state file, grid file, card list or command-line value."""

    exit_code = 2


class RuntimeRulesError(RulesError):
    """A rule failed while it was evaluated (for example an empty pile was drawn from)."""


@dataclass
class DiagnosticBag:
    items: list[Diagnostic] = field(default_factory=list)

    def error(self, span: Span, message: str, hint: str | None = None,
              notes: tuple[tuple[Span, str], ...] = ()) -> None:
        self.items.append(Diagnostic(span, message, hint, "error", notes))

    def raise_if_any(self, cls=ResolveError) -> None:
        if self.items:
            raise cls(self.items)


@dataclass(frozen=True)
class Spelling:
    """How the face a user works through names what they gave: a setting, a table file,
    a table option, a variant. The library's errors name these things through it, and each
    face (the command line, the Python API) passes its own spelling (``rulewright/app``);
    the words here are the face-neutral ones."""
    setting: str = "the setting {name}"             # {name}: the switch or param
    table: str = "the table files"                  # the tables given by name
    table_entry: str = "the table {name} read from {file}"
    option: str = "the {option} option"             # {option}: the option a table declares (cards)
    option_entry: str = "the {option} table file {file}"
    variant: str = "the variant {path}"
    how_to_name: str = "give tables by name"        # how to give a table by name
    instead: str = "give the variants, settings and tables to use instead"
    query_input: str = "the input {name}"           # {name}: a query's input; {flag}: with dashes
    position: str = "a position"                    # how a position is given

    def of_input(self, name: str) -> str:
        return self.query_input.format(name=name, flag=name.replace("_", "-"))

    def of_setting(self, name: str) -> str:
        return self.setting.format(name=name)

    def of_option(self, option: str, file: str | None = None) -> str:
        return (self.option_entry if file is not None else self.option).format(option=option, file=file)

    def of_table(self, name: str, file: str) -> str:
        return self.table_entry.format(name=name, file=file)

    def of_variant(self, path) -> str:
        return self.variant.format(path=path)


NEUTRAL = Spelling()
