"""Scripted choices: a file of the choices each seat makes, read back as a game log
writes them.

In:  a choices file: one JSON object per line, ``{"seat": "p1", "choice": "act",
     "value": "create"}`` (a game log, ``play --log``, is one: its other lines and the
     choices made by chance are passed over; the log of a game played on from a
     position gives the choices after its ``resume`` line), ``#`` comments and blank
     lines allowed.
Out: ``read_choices`` (the entries, each with its line) and ``ScriptedAgent`` (plays a
     seat's entries in order, then hands the seat to its own agent).

A value is written by the names the game uses: a card, an enum value, a seat by its
name, a cell as ``[row, column]``, a record as the object of its fields, of which a
few are enough to pick one option (``{"id": 3}``). A value that is not an option is
refused at its line with the rule that refuses it: the collection it is chosen from,
or the part of the choice's ``where`` that does not hold for it.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from rulewright.compiler.diagnostics import BadInputError, Diagnostic, Span, source_line
from rulewright.compiler.interpret.state import RandomAgent
from rulewright.compiler.play.inputs import json_too_deep, read_text
from rulewright.compiler.semantics import render

MOST_ENTRIES = 200_000
MOST_NESTING = 32           # levels of a value (a record of a few fields nests 2 or 3); as a state file's


def _too_deep(line: str) -> int | None:
    """The column where a line of JSON nests deeper than ``MOST_NESTING`` levels, else None."""
    deep = json_too_deep(line, MOST_NESTING)
    return None if deep is None else deep + 1


def _nests_deeper(value, most: int) -> bool:
    """Whether a value (lists and objects) nests deeper than ``most`` levels."""
    todo = [(value, 0)]
    while todo:
        v, depth = todo.pop()
        if isinstance(v, (list, tuple, dict)):
            if depth >= most:
                return True
            todo.extend((x, depth + 1) for x in (v.values() if isinstance(v, dict) else v))
    return False


@dataclass
class Scripted:
    seat: str
    choice: str
    value: object
    line: int


def read_choices(path: str) -> list[Scripted]:
    """The choices of a file, in order, by seat; each entry is checked for its shape."""
    text = read_text(str(path))
    out: list[Scripted] = []
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue

        def fail(message: str, hint: str = "a line is {\"seat\": \"p1\", \"choice\": NAME, \"value\": VALUE}, "
                                          "as play --log writes it"):
            raise BadInputError(Diagnostic(Span(str(path), n, 1, n, len(raw) + 1), message, hint))
        deep = _too_deep(raw)
        if deep is not None:
            raise BadInputError(Diagnostic(Span(str(path), n, deep, n, deep + 1),
                                           f"JSON nested more than {MOST_NESTING} levels deep",
                                           "a choice's value is a name, a number, a cell [row, column] or a "
                                           "record's fields: it nests a few levels"))
        try:
            item = json.loads(line)
        except (ValueError, RecursionError):
            fail("not a JSON object on one line")
        if not isinstance(item, dict):
            fail("not a JSON object on one line")
        if item.get("kind") == "resume":
            out.clear()     # the log of a game played on from a position: its choices begin here
            continue
        if item.get("kind", "choose") != "choose" or item.get("seat") is None:
            continue        # a log's other events, and what chance chose
        if not isinstance(item.get("seat"), str) or not isinstance(item.get("choice"), str) or "value" not in item:
            fail("a choice names its seat, its choice and its value")
        out.append(Scripted(item["seat"], item["choice"], item["value"], n))
        if len(out) > MOST_ENTRIES:
            fail(f"more than {MOST_ENTRIES} choices", "a game makes far fewer")
    return out


def matches(want, option) -> bool:
    """Whether a value written in a choices file names the option: the same value (a name
    in any case), or for a record some of its fields."""
    got = render.jsonable(option, state=True)
    return _fits(want, got)


def _fits(want, got) -> bool:
    if isinstance(want, str) and isinstance(got, str):
        return want == got or want.casefold() == got.casefold()
    if isinstance(want, dict) and isinstance(got, dict):
        return bool(want) and all(k in got and _fits(v, got[k]) for k, v in want.items())
    if isinstance(want, list) and isinstance(got, list):
        return len(want) == len(got) and all(_fits(a, b) for a, b in zip(want, got))
    return type(want) is type(got) and want == got


def span_text(span: Span) -> str:
    """The source text of a span on one line (else its first line from the column)."""
    line = source_line(span.file, span.line) or ""
    end = span.end_col - 1 if span.end_line == span.line else len(line)
    return " ".join(line[span.col - 1:end].split())


class ScriptedAgent:
    """Plays the choices a file gives a seat, in order, then leaves the seat to ``then``."""

    def __init__(self, path: str, entries: list[Scripted], then):
        self.path = path
        self.entries = list(entries)
        self.then = then
        self.used = 0

    @property
    def rng(self):          # (a saved game records its agents' generators)
        return getattr(self.then, "rng", None)

    def choose(self, name, options, state, seat):
        if not self.entries:
            return self.then.choose(name, options, state, seat)
        want = self.entries.pop(0)
        self.used += 1
        span = Span(self.path, want.line, 1, want.line, len(source_line(self.path, want.line) or "") + 1)
        if want.choice != name:
            raise BadInputError(Diagnostic(span, f"{seat.title} is asked '{name}' here, and this line gives "
                                                 f"'{want.choice}'",
                                           "a seat's lines follow the order its choices come in (play --log "
                                           "lists them)"))
        hits = [o for o in options if matches(want.value, o)]
        if hits and all(h == hits[0] for h in hits):      # (a hand holds a card more than once)
            return hits[0]
        shown = json.dumps(want.value, ensure_ascii=False)
        if len(hits) > 1:
            raise BadInputError(Diagnostic(span, f"{shown} names {len(hits)} options of '{name}'",
                                           "give more of its fields: " + ", ".join(
                                               json.dumps(render.jsonable(o, state=True), ensure_ascii=False)[:80]
                                               for o in hits[:3])))
        raise BadInputError(refusal(state, span, seat, name, want.value, options))


def refusal(state, span: Span, seat, name: str, value, options: list) -> Diagnostic:
    """A value a seat may not choose, with the rule that refuses it when one does."""
    shown = json.dumps(value, ensure_ascii=False)
    # the value as the rules hold it: the option of another game moment it names, if any
    candidate = _as_rules_value(state, value, options)
    why = state.refused_by(candidate) if candidate is not _NONE else None
    legal = ", ".join(render.text(o) for o in options[:8]) + (", ..." if len(options) > 8 else "")
    if why is None:
        return Diagnostic(span, f"{shown} is not an option of '{name}' for {seat.title} here",
                          f"the options: {legal}")
    whole, rule = why
    text = span_text(rule)
    what = (f"it is not in {text}" if whole else f"the rule '{text}' does not hold for it")
    return Diagnostic(span, f"{shown} is not a legal '{name}' for {seat.title} here: {what}",
                      f"the options: {legal}", notes=((rule, "the rule that refuses it"),))


_NONE = object()


def _as_rules_value(state, value, options):
    """The value a file names, as the rules hold it: among every value of the choice's
    type the game knows (the options, the enums', the tables', the seats), else the
    written value itself."""
    program = state.interp.program
    for o in options:
        if matches(value, o):
            return o
    for s in state.seats:
        if isinstance(value, str) and value in (s.name, s.title):
            return s
    if isinstance(value, str):
        for enum in program.enums.values():
            if value in enum.values:
                return value
    if isinstance(value, list):
        return tuple(value)
    return value


def scripted_factory(entries: list[Scripted], path: str, base=None):
    """An agent factory whose seats first play their entries (then ``base``'s agents, or
    random ones); what a game's agents left unused is on its ``state.agents``."""
    by_seat: dict = {}
    for e in entries:
        by_seat.setdefault(e.seat, []).append(e)
    def factory(seat, seed):
        agent = base(seat, seed) if base else RandomAgent(seed * 1_000_003 + seat.index)
        if by_seat.get(seat.name):
            agent = ScriptedAgent(path, by_seat[seat.name], agent)
        return agent
    return factory


def entries_of(items, where: str = "<choices>") -> list[Scripted]:
    """Choices given as values (``{"seat": "p1", "choice": "k", "value": "a"}``), as
    the Python API takes them (a game's log among them: its other events are passed over)."""
    out = []
    for i, item in enumerate(items, start=1):
        if isinstance(item, dict) and item.get("kind") == "resume":
            out.clear()     # a game played on from a position: its own choices begin here
            continue
        if isinstance(item, dict) and (item.get("kind", "choose") != "choose" or item.get("seat", "") is None):
            continue        # a log's other events, and what chance chose
        if not isinstance(item, dict) or not isinstance(item.get("seat"), str) \
                or not isinstance(item.get("choice"), str) or "value" not in item:
            raise BadInputError(f"{where}: choice {i} is not {{'seat': ..., 'choice': ..., 'value': ...}}")
        if _nests_deeper(item["value"], MOST_NESTING):
            raise BadInputError(f"{where}: the value of choice {i} nests more than {MOST_NESTING} levels deep "
                                "(a choice's value is a name, a number, a cell or a record's fields)")
        out.append(Scripted(item["seat"], item["choice"], item["value"], i))
    return out
