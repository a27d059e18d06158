"""Game states as JSON files: written from a game, read back checked against the spec.

In:  a ``GameState`` and its program (the type of every state variable), or a JSON
     document written by ``rulewright play --save-state`` or by hand.
Out: the document (schema ``rulewright-state/1``, described in docs/state.md); a
     ``GameState`` rebuilt from one; a readable rendering. A bad file is a
     ``BadInputError`` at ``file:line:col`` with the offending line, a caret and a
     hint, never a traceback.

Encoding follows the declared types, so any spec's state round-trips: enum and
table values and seats by name, piles and lists as arrays, records as objects of
their fields, maps as objects, boards as rows of card names (``null`` when free).
"""
from __future__ import annotations

import json
import os
import re
from collections import Counter
from pathlib import Path
from typing import Any

from rulewright.compiler import ir as I
from rulewright.compiler.ir import checkpoint_names
from rulewright.compiler.semantics import render, runtime as rt
from rulewright.compiler.diagnostics import BadInputError, Diagnostic, Span, a_or_an, did_you_mean, whole_number
from rulewright.compiler.types import (AnyT, BoardT, BoolT, CellT, CollT, EnumT, IntT, MapT, NoneT, RecordT, SeatT,
                    TextT, TupleT, Type)
from rulewright.compiler.play.checks import broken_invariants, invariant_note
from rulewright.compiler.play.inputs import json_too_deep, offset_span, read_text

FORMAT = "rulewright-state/1"
SEAT_KINDS = ("player", "neutral", "automaton")
MOST_SHOWN_PER_INVARIANT = 3       # errors shown for one invariant a position breaks
NOT_ALLOWED = "a position must be one the rules allow"      # the hint of a broken invariant begins so
_TITLE_HINT = "each seat's name and title tell it apart: --player takes a seat's name or title"
MOST_NUMBER = 10 ** 12             # a whole number of a position, either sign (sums stay far from 2**63)


# ------------------------------------------------------------------ writing
def changed_params(program: I.Program) -> dict[str, Any]:
    """The params given another value than the spec's (``--set``), to save with a state."""
    return {k: program.constants[k] for k in program.overrides
            if k in program.constants and k not in program.switches}


def dump(state, *, seed: int | None = None, beside: str | None = None) -> dict:
    """The whole state of a game as a JSON-ready document; with ``beside`` (the file it
    is written to), the variant and table files it names relative to that file."""
    program = state.interp.program

    def where(path: str) -> str:
        full = Path(path).resolve()
        if beside is None:
            return str(full)
        return os.path.relpath(full, Path(beside).resolve().parent)
    doc: dict[str, Any] = {
        "format": FORMAT,
        "spec": program.name,
        "mode": state.mode,
        "seed": seed,
        "checkpoint": state.stopped,
        "switches": dict(program.switches),
        **({"params": params} if (params := changed_params(program)) else {}),
        **({"tables": {k: where(v) for k, v in program.own_tables.items()}} if program.own_tables else {}),
        **({"variants": [where(v.path) for v in program.variants]} if program.variants else {}),
        "seats": [{"name": s.name, "kind": s.kind, "title": s.title} for s in state.seats],
        "state": {}, "per_seat": {}, "per_key": {},
        "checkpoints": dict(state.checkpoints),
        "reports": {k: render.jsonable(v, state=True) for k, v in state.reports.items()},
    }
    for var in program.state.values():
        if var.per_seat:
            doc["per_seat"][var.name] = {s.name: render.typed_json(program, var.type, state.per[var.name][s])
                                         for s in state.seats}
        elif var.keyed:
            doc["per_key"][var.name] = {str(k): render.typed_json(program, var.type, v)
                                        for k, v in state.per[var.name].items()}
        else:
            doc["state"][var.name] = render.typed_json(program, var.type, state.shared[var.name])
    return doc


# ------------------------------------------------------------------ reading
class _Located:
    """Where each value of a JSON text starts and ends, by its path of keys and indexes."""

    def __init__(self, text: str):
        self.text = text
        self.where: dict[tuple, tuple[int, int]] = {}
        self.repeated: tuple | None = None       # the path of the first key written twice in an object
        try:
            self._value(self._ws(0), ())
        except (IndexError, ValueError):
            pass                                  # json.loads has already vouched for the text

    def _ws(self, i: int) -> int:
        while i < len(self.text) and self.text[i] in " \t\r\n":
            i += 1
        return i

    def _string_end(self, i: int) -> int:
        i += 1
        while self.text[i] != '"':
            i += 2 if self.text[i] == "\\" else 1
        return i + 1

    def _value(self, i: int, path: tuple) -> int:
        start, ch = i, self.text[i]
        if ch == "{":
            i = self._ws(i + 1)
            while self.text[i] != "}":
                end = self._string_end(i)
                key = json.loads(self.text[i:end])
                if path + (key, "key") in self.where and self.repeated is None:
                    self.repeated = path + (key, "key#2")
                    self.where[self.repeated] = (i, end)
                else:
                    self.where[path + (key, "key")] = (i, end)
                i = self._ws(self._ws(end) + 1)        # past ':'
                i = self._ws(self._value(i, path + (key,)))
                if self.text[i] == ",":
                    i = self._ws(i + 1)
            end = i + 1
        elif ch == "[":
            i = self._ws(i + 1)
            n = 0
            while self.text[i] != "]":
                i = self._ws(self._value(i, path + (n,)))
                n += 1
                if self.text[i] == ",":
                    i = self._ws(i + 1)
            end = i + 1
        elif ch == '"':
            end = self._string_end(i)
        else:
            end = i
            while end < len(self.text) and self.text[end] not in ",]} \t\r\n":
                end += 1
        self.where[path] = (start, end)
        return end

    def find(self, written: str, within: tuple = ()) -> tuple | None:
        """The path of the first value (not key) written exactly so, in the text's order,
        below one of the paths ``within`` when any is (else anywhere)."""
        hits = [(start, path) for path, (start, end) in self.where.items()
                if (not path or path[-1] not in ("key", "key#2")) and self.text[start:end] == written]
        inside = [h for h in hits if any(h[1][:len(w)] == w for w in within)]
        return min(inside or hits)[1] if hits else None

    def span(self, file: str, path: tuple) -> Span | None:
        found = self.where.get(path)
        if found is None:
            return None
        start, end = found
        if "\n" in self.text[start:end]:
            end = start + 1
        line = self.text.count("\n", 0, start) + 1
        col = start - (self.text.rfind("\n", 0, start) + 1) + 1
        return Span(file, line, col, line, col + (end - start))


def path_text(path: tuple) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "the document"


class Reader:
    """Decodes one state document against a program, with located errors."""

    def __init__(self, program: I.Program, path: str, text: str):
        self.program = program
        self.file = path
        self.loc = _Located(text)
        self.seats: dict[str, rt.Seat] = {}

    def fail(self, path: tuple, message: str, hint: str | None = None, key: bool = False):
        span = self.loc.span(self.file, path + ("key",)) if key else None
        span = span or self.loc.span(self.file, path)
        at = path_text(path)
        if span is None:
            raise BadInputError(f"{self.file}: {at}: {message}" + (f" ({hint})" if hint else ""))
        raise BadInputError(Diagnostic(span, f"{at}: {message}", hint))

    def check_invariants(self, interp, state) -> None:
        """Every invariant of the spec the position breaks, each at the entry of the
        file that most likely holds the fault, as one error; those written with "else
        warn" (one that cannot be evaluated on the position excepted) as warnings, kept
        in ``state.warnings``."""
        diags = []
        broken = broken_invariants(interp, state)
        counts = Counter(b.invariant.name for b in broken)
        shown: Counter = Counter()
        for b in broken:
            name = b.invariant.name
            shown[name] += 1
            if shown[name] > MOST_SHOWN_PER_INVARIANT:
                continue
            node = b.invariant.node
            tags = f" [{' '.join(node.rule_ids)}]" if node.rule_ids else ""
            more = (f" ({counts[name]} places in this file break it, "
                    f"{MOST_SHOWN_PER_INVARIANT} are shown)") if counts[name] > MOST_SHOWN_PER_INVARIANT else ""
            note = (node.name_span, f"every position satisfies the invariant '{name}'{tags}{more}")
            span, at = None, None
            for path in b.paths:
                span = self.loc.span(self.file, path)
                if span is not None:
                    at = path_text(path)
                    break
            if span is None and b.item is not None:
                # an element of a collection that is not state (a card of a table): the
                # first place the file writes it
                path = self.loc.find(json.dumps(render.jsonable(b.item, state=True), ensure_ascii=False), b.within)
                if path is not None:
                    span, at = self.loc.span(self.file, path), path_text(path)
            if span is None:
                span = Span(self.file, 1, 1, 1, 2)
            message = f"{at}: {b.message}" if at else b.message
            if getattr(node, "warn", False) and not b.unevaluable:
                state.warnings.append(Diagnostic(
                    span, message, "no game reaches this position: the answers about it hold for the "
                    "position as written (see 'Invariants' in docs/state.md)", severity="warning",
                    notes=(invariant_note(b.invariant, more),)))
                continue
            diags.append(Diagnostic(span, message,
                                    f"{NOT_ALLOWED}; mend the file (see 'Invariants' in docs/state.md)",
                                    notes=(note,)))
        if diags:
            raise BadInputError(diags)

    def decode(self, t: Type, raw: Any, path: tuple, top: bool = False) -> Any:
        if raw is None:
            if isinstance(t, (IntT, BoolT, CollT, BoardT)):
                self.fail(path, f"null where {a_or_an(str(t))} is needed")
            return None
        if isinstance(t, IntT):
            if type(raw) is not int:
                self.fail(path, f"expected a whole number, not {json.dumps(raw)}")
            if abs(raw) > MOST_NUMBER:
                self.fail(path, f"{raw} is beyond the numbers a position holds (-{MOST_NUMBER:,} to {MOST_NUMBER:,})",
                          "the solver adds up a position's numbers in 64 bits")
            return raw
        if isinstance(t, BoolT):
            if type(raw) is not bool:
                self.fail(path, f"expected true or false, not {json.dumps(raw)}")
            return raw
        if isinstance(t, TextT):
            if not isinstance(raw, str):
                self.fail(path, f"expected a text, not {json.dumps(raw)}")
            return raw
        if isinstance(t, EnumT):
            values = self.program.enums[t.name].values
            if not isinstance(raw, str) or raw not in values:
                hint = self.program.enums[t.name].not_a_value_hint(str(raw), t.name)
                self.fail(path, f"{json.dumps(raw)} is not {a_or_an(t.name)}", hint)
            return raw
        if isinstance(t, SeatT):
            if not isinstance(raw, str) or raw not in self.seats:
                self.fail(path, f"{json.dumps(raw)} is not a seat of this game",
                          did_you_mean(str(raw), self.seats) or "seats: " + ", ".join(self.seats))
            return self.seats[raw]
        if isinstance(t, CollT):
            if not isinstance(raw, list):
                self.fail(path, f"expected a list ({t}), not {json.dumps(raw)[:40]}")
            for i, x in enumerate(raw):
                if x is None:
                    self.fail(path + (i,), f"null where {a_or_an(str(t.elem))} is needed: a {t.kind} "
                                           "holds values, never 'no value'", "remove the entry")
            items = [self.decode(t.elem, x, path + (i,)) for i, x in enumerate(raw)]
            if t.kind == "set" and len(set(map(repr, items))) != len(items):
                self.fail(path, "a set holds each value once")
            if top and t.kind == "pile":
                label = f"{path[1]}({path[2]})" if len(path) == 3 else str(path[-1])
                return rt.Zone(label, items)
            return tuple(items)
        if isinstance(t, RecordT):
            info = self.program.records[t.name]
            names = [f for f, _ in info.fields]
            if not isinstance(raw, dict):
                self.fail(path, f"expected a {t.name} (an object with {', '.join(names)})")
            for k in raw:
                if k not in names:
                    self.fail(path + (k,), f"a {t.name} has no field '{k}'",
                              did_you_mean(k, names) or "fields: " + ", ".join(names), key=True)
            missing = [f for f in names if f not in raw and f not in info.defaults]
            if missing:
                self.fail(path, f"this {t.name} lacks " + ", ".join(missing))
            return info.cls(*[self.decode(ft, raw[f], path + (f,)) if f in raw else info.defaults[f].value
                              for f, ft in info.fields])
        if isinstance(t, TupleT):
            if not isinstance(raw, list) or len(raw) != len(t.items):
                self.fail(path, f"expected {len(t.items)} values {t}")
            return tuple(self.decode(it, x, path + (i,)) for i, (it, x) in enumerate(zip(t.items, raw)))
        if isinstance(t, MapT):
            if not isinstance(raw, dict):
                self.fail(path, f"expected an object ({t})")
            out = {}
            for k, x in raw.items():
                number = whole_number(k) if isinstance(t.key, IntT) else None
                key = number if number is not None else \
                    {"true": True, "false": False}.get(k, k) if isinstance(t.key, BoolT) else k
                out[self.decode(t.key, key, path + (k,))] = self.decode(t.value, x, path + (k,))
            return out
        if isinstance(t, BoardT):
            return self.board(t, raw, path)
        if isinstance(t, CellT):
            if not (isinstance(raw, list) and len(raw) == 2 and all(type(x) is int for x in raw)):
                self.fail(path, "expected a cell [row, column]")
            return tuple(raw)
        if isinstance(t, (AnyT, NoneT)):
            return raw
        return raw

    def board(self, t: BoardT, raw: Any, path: tuple) -> rt.Board:
        g = self.program.grids[t.grid]
        if not isinstance(raw, list) or len(raw) != g.rows or \
                any(not isinstance(r, list) or len(r) != g.cols for r in raw):
            self.fail(path, f"expected {g.rows} rows of {g.cols} cells (null for a free cell)")
        cell = EnumT(g.cell_enum)
        cards = {}
        for r, row in enumerate(raw):
            for c, x in enumerate(row):
                if x is not None:
                    cards[(r, c)] = self.decode(cell, x, path + (r, c))
        board = rt.Board(g.name, g.rows, g.cols, g.floating, cards)
        lone = rt.lone_card(board)
        if lone is not None:
            self.fail(path + lone, "this card is not connected to the others: in a grid that grows card by "
                                   "card, each card is placed next to one already there")
        return board


def _lone_surrogate(x):
    """The first string of a JSON value (keys too) holding a lone surrogate escape."""
    todo = [x]
    while todo:
        v = todo.pop()
        if isinstance(v, str):
            if any("\ud800" <= ch <= "\udfff" for ch in v):
                return v
        elif isinstance(v, list):
            todo.extend(v)
        elif isinstance(v, dict):
            todo.extend(v.keys())
            todo.extend(v.values())
    return None


MOST_JSON_NESTING = 32          # a state file nests 5 levels; every reader of it walks it


def _within_nesting(text: str, path: str) -> None:
    """JSON nested deeper than ``MOST_JSON_NESTING`` is refused where it goes past it
    (measured on the text, before any reader recurses into it)."""
    deep = json_too_deep(text, MOST_JSON_NESTING)
    if deep is not None:
        raise BadInputError(Diagnostic(offset_span(path, text, deep),
                                       f"JSON nested more than {MOST_JSON_NESTING} levels deep",
                                       "a state file nests a few levels (see docs/state.md)"))


def read_document(path: str) -> tuple[dict, str]:
    """The JSON of a state file, or a located syntax error."""
    text = read_text(str(path))
    _within_nesting(text, str(path))
    repeated: list = []

    def pairs(items: list) -> dict:
        if len({k for k, _ in items}) != len(items):
            repeated.append(next(k for i, (k, _) in enumerate(items) if any(k == j for j, _ in items[:i])))
        return dict(items)
    try:
        doc = json.loads(text, object_pairs_hook=pairs)
    except ValueError as exc:
        if not isinstance(exc, json.JSONDecodeError):       # a number of thousands of digits
            raise BadInputError(f"{path}: it holds a number of thousands of digits, far beyond the numbers "
                                f"a position holds (-{MOST_NUMBER:,} to {MOST_NUMBER:,})") from None
        if not text.strip():
            raise BadInputError(f"{path}: the file is empty (a state file is a JSON object; see docs/state.md)") \
                from None
        raise BadInputError(Diagnostic(Span(str(path), exc.lineno, exc.colno, exc.lineno, exc.colno + 1),
                                       f"not valid JSON: {exc.msg}",
                                       "a state file is a JSON object; see docs/state.md")) from None
    except json.JSONDecodeError as exc:
        span = Span(str(path), exc.lineno, exc.colno, exc.lineno, exc.colno + 1)
        raise BadInputError(Diagnostic(span, f"not valid JSON: {exc.msg}",
                                       "a state file is a JSON object; see docs/state.md")) from None
    except RecursionError:
        raise BadInputError(f"{path}: its JSON nests too deeply to be a state file (see docs/state.md)") from None
    if repeated:
        message = f"the entry '{repeated[0]}' is written twice in one object (JSON would keep the last)"
        located = _Located(text)
        if located.repeated is None:
            raise BadInputError(f"{path}: {message}")
        raise BadInputError(Diagnostic(located.span(str(path), located.repeated), message, "keep one of them"))
    bad = _lone_surrogate(doc)
    if bad is not None:
        message = (f"the text {json.dumps(bad)[:200]} holds an escape (\\ud800 to \\udfff) that stands for no "
                   "character")
        # where: the first escape of a surrogate in the file that is not half of a pair
        for m in re.finditer(r"\\[uU]([dD][89abAB][0-9a-fA-F]{2})(\\[uU][dD][c-fC-F][0-9a-fA-F]{2})?|"
                             r"\\[uU][dD][c-fC-F][0-9a-fA-F]{2}", text):
            if m.group(2) is None:
                line = text.count("\n", 0, m.start()) + 1
                col = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
                raise BadInputError(Diagnostic(Span(str(path), line, col, line, col + 6), message,
                                               "write the character itself (see docs/state.md)"))
        raise BadInputError(f"{path}: {message} (see docs/state.md)")
    if not isinstance(doc, dict):
        raise BadInputError(f"{path}: a state file is a JSON object (see docs/state.md)")
    return doc, text


def load(interp, path: str, doc: dict | None = None, text: str | None = None):
    """Rebuild a ``GameState`` from a state file; state left out keeps its initial value."""
    if doc is None:
        doc, text = read_document(path)
    program = interp.program
    rd = Reader(program, str(path), text or "")
    fmt = doc.get("format", FORMAT)
    if fmt != FORMAT:
        rd.fail(("format",), f"unknown format {json.dumps(fmt)}", f"this version reads {FORMAT}")
    of_this_game(program, path, doc, text or "")
    known = {"format", "spec", "mode", "seed", "checkpoint", "switches", "params", "tables", "variants", "seats", "resume",
             "state", "per_seat", "per_key", "checkpoints", "reports"}
    for k in doc:
        if k not in known:
            rd.fail((k,), f"unknown entry '{k}'", did_you_mean(k, known) or "see docs/state.md", key=True)
    raw_seats = doc.get("seats")
    if not isinstance(raw_seats, list) or not raw_seats:
        rd.fail(("seats",), "a state needs its seats: a list of {\"name\": ..., \"kind\": \"player\"}")
    seats = []
    for i, s in enumerate(raw_seats):
        if isinstance(s, str):
            s = {"name": s}
        if not isinstance(s, dict) or not isinstance(s.get("name"), str):
            rd.fail(("seats", i), "a seat is an object with a \"name\"")
        if not s["name"].strip():
            rd.fail(("seats", i, "name") if isinstance(raw_seats[i], dict) else ("seats", i),
                    "a seat's name is not empty", "players are p1, p2, ... in a saved game")
        if not isinstance(s.get("title") or "", str):
            rd.fail(("seats", i, "title"), f"a seat's title is a text, not {json.dumps(s['title'])[:40]}")
        for key in s:
            if key not in ("name", "title", "kind"):
                rd.fail(("seats", i, key), f"a seat has no entry '{key}'",
                        did_you_mean(key, ["name", "title", "kind"]) or "a seat has a name, a title and a kind",
                        key=True)
        kind = s.get("kind", "player")
        if kind not in SEAT_KINDS:
            rd.fail(("seats", i, "kind"), f"unknown seat kind {json.dumps(kind)}",
                    did_you_mean(str(kind), SEAT_KINDS) or "kinds: " + ", ".join(SEAT_KINDS))
        seats.append(rt.Seat(i, s["name"], kind, s.get("title") or s["name"]))
    rd.seats = {s.name: s for s in seats}
    if len(rd.seats) != len(seats):
        rd.fail(("seats",), "two seats have the same name")
    def title_at(i: int) -> tuple:
        return ("seats", i, "title") if isinstance(raw_seats[i], dict) and "title" in raw_seats[i] else ("seats", i)
    for i, s in enumerate(seats):     # a title that repeats a name or an earlier title is the one at fault
        for j, o in enumerate(seats):
            if j == i:
                continue
            if s.title == o.name and s.title != s.name:
                rd.fail(title_at(i), f"the seat '{s.name}' has the title {json.dumps(s.title)}, which is the "
                                     f"name of the seat '{o.name}'", _TITLE_HINT)
            if j < i and s.title == o.title:
                rd.fail(title_at(i), f"the seat '{s.name}' has the title {json.dumps(s.title)}, which is also "
                                     f"the title of the seat '{o.name}'", _TITLE_HINT)
    mode = doc.get("mode")
    if mode is not None and not isinstance(mode, str):
        rd.fail(("mode",), f"the mode is a name, not {json.dumps(mode)[:40]}")
    if mode is not None and mode not in program.modes:
        rd.fail(("mode",), f"no mode '{mode}' in this spec",
                did_you_mean(str(mode), program.modes) or "modes: " + ", ".join(program.modes))
    if mode is not None:
        _seats_fit_mode(rd, program.modes[mode], seats)
    seed = doc.get("seed")
    if seed is not None and type(seed) is not int:
        rd.fail(("seed",), f"the seed is a whole number or null, not {json.dumps(seed)}")
    names = checkpoint_names(program)
    stopped = doc.get("checkpoint")
    if stopped is not None and not isinstance(stopped, str):
        rd.fail(("checkpoint",), "the checkpoint is a text NAME:N or null")
    if stopped is not None:
        name, _, count = stopped.partition(":")
        if name not in names:
            rd.fail(("checkpoint",), f"{json.dumps(stopped)} is not a checkpoint NAME:N of this spec",
                    did_you_mean(name, names) or _checkpoints_hint(names))
        number = whole_number(count) if count == count.strip() else None
        if number is None or not 1 <= number <= MOST_NUMBER:
            rd.fail(("checkpoint",), f"{json.dumps(stopped)} is not a checkpoint NAME:N",
                    f"N counts the times '{name}' is reached: 1, 2, ...")
    counts = doc.get("checkpoints", {})
    if not isinstance(counts, dict):
        rd.fail(("checkpoints",), "checkpoints is an object of checkpoint names and counts: {\"era\": 2}")
    for name, n in counts.items():
        if name not in names:
            rd.fail(("checkpoints", name), f"no checkpoint '{name}' in this spec",
                    did_you_mean(name, names) or _checkpoints_hint(names), key=True)
        if type(n) is not int or n < 0 or n > MOST_NUMBER:
            rd.fail(("checkpoints", name), f"the count of a checkpoint is a whole number, 0 or more, "
                                           f"not {json.dumps(n)[:40]}")
    if stopped is not None:
        # the game stopped the N-th time it reached NAME: it had reached NAME N times
        name, _, count = stopped.partition(":")
        if name in counts and counts[name] != int(count):
            rd.fail(("checkpoints", name), f"the game stopped at {stopped}, the {int(count)}"
                    f"{_ordinal(int(count))} time it reached '{name}', and checkpoints counts {counts[name]}",
                    f"the two agree in a saved game: set checkpoints.{name} to {int(count)}, or leave "
                    "\"checkpoint\" out")
    reports = doc.get("reports", {})
    if not isinstance(reports, dict):
        rd.fail(("reports",), "reports is an object of report names and values (leave it out for none)")
    state = interp.new_state(seats, seed)
    state.knowledge = None      # (what seats remember comes of playing: app/seeing.py works it out)
    state.mode = mode
    state.stopped = stopped
    state.checkpoints = dict(counts)
    state.reports = dict(reports)       # as saved: plain JSON values, shown and written back as they are
    shared = {v.name: v for v in program.state.values() if not v.keyed}
    per_seat = {v.name: v for v in program.state.values() if v.per_seat}
    per_key = {v.name: v for v in program.state.values() if v.keyed and not v.per_seat}
    for section, vars_ in (("state", shared), ("per_seat", per_seat), ("per_key", per_key)):
        body = doc.get(section, {})
        if not isinstance(body, dict):
            rd.fail((section,), f"expected an object of state variables, not {json.dumps(body)[:40]}",
                    "leave the entry out to start every variable of it from its initial value")
        for name, raw in body.items():
            if name not in vars_:
                everywhere = {**shared, **per_seat, **per_key}
                hint = (f"'{name}' belongs under \"{_section_of(everywhere[name])}\""
                        if name in everywhere else did_you_mean(name, vars_) or
                        "variables here: " + ", ".join(vars_))
                rd.fail((section, name), f"no state variable '{name}' here", hint, key=True)
            var = vars_[name]
            if section == "state":
                state.shared[name] = rd.decode(var.type, raw, (section, name), top=True)
                continue
            if not isinstance(raw, dict):
                rd.fail((section, name), "expected an object with one entry per "
                        + ("seat" if section == "per_seat" else var.per))
            keys = rd.seats if section == "per_seat" else {k: k for k in program.enums[var.per].values}
            for k, x in raw.items():
                if k not in keys:
                    rd.fail((section, name, k), f"'{k}' is not {a_or_an('seat' if section == 'per_seat' else var.per)}",
                            did_you_mean(k, keys) or "one of: " + ", ".join(keys), key=True)
                state.per[name][keys[k]] = rd.decode(var.type, x, (section, name, k), top=True)
    rd.check_invariants(interp, state)
    return state


def _seats_fit_mode(rd: "Reader", mode: I.ModeDef, seats: list) -> None:
    """A position of a mode has as many players as the mode is for (its seats named in
    the mode, such as a neutral player, besides)."""
    named_players = sum(1 for s in mode.seats if s.name is not None and s.kind == "player")
    players = sum(1 for s in seats if s.kind == "player") - named_players
    if any(s.name is None for s in mode.seats) and not mode.min_players <= players <= mode.max_players:
        wanted = f"{mode.min_players}" if mode.min_players == mode.max_players else \
            f"{mode.min_players} to {mode.max_players}"
        rd.fail(("seats",), f"the mode '{mode.name}' is for {wanted} players, and this position has {players}",
                "a position is one of a game the mode can play; name the mode it belongs to under \"mode\"")
    for spec in mode.seats:
        if spec.name is not None and not any(s.name == spec.name and s.kind == spec.kind for s in seats):
            rd.fail(("seats",), f"the mode '{mode.name}' has the seat '{spec.name}' ({spec.kind}), "
                                "which this position lacks")


def of_this_game(program: I.Program, path: str, doc: dict, text: str) -> None:
    """A state of another game is refused first, as that (not by its first switch the
    spec lacks)."""
    if doc.get("spec", program.name) != program.name:
        rd = Reader(program, str(path), text)
        spec = doc["spec"]
        if not isinstance(spec, str):
            rd.fail(("spec",), f"the spec is named by a text, not {json.dumps(spec)[:40]}",
                    f"this one is \"{program.name}\"")
        rd.fail(("spec",), f"this state is of the spec '{spec}', not '{program.name}' ({program.title})",
                f"read it with the spec of '{spec}' (its folder, or the variant it was played under)")


def saved_settings(program: I.Program, path: str, doc: dict, text: str) -> dict[str, str]:
    """The switches and params a state was saved with, checked against the spec, as
    ``--set`` values."""
    of_this_game(program, path, doc, text)
    rd = Reader(program, str(path), text)
    out: dict[str, str] = {}
    for section in ("switches", "params"):
        body = doc.get(section, {})
        if not isinstance(body, dict):
            rd.fail((section,), f"{section} is an object of names and values (leave it out for the spec's own)")
        names = program.switches if section == "switches" else \
            {k: v for k, v in program.constants.items() if k not in program.switches}
        for name, value in body.items():
            if name not in names:
                rd.fail((section, name), f"this spec has no {'switch' if section == 'switches' else 'param'} '{name}'",
                        did_you_mean(name, names) or f"{section} here: " + ", ".join(names), key=True)
            if section == "switches":
                options = program.switch_options(name)
                if program.definitions[name].options != ("int",) and value not in options:
                    rd.fail((section, name), f"{json.dumps(value)} is not an option of '{name}'",
                            "options: " + " | ".join(json.dumps(o) for o in options))
            if type(value) is not type(names[name]):
                rd.fail((section, name), f"'{name}' takes {type(names[name]).__name__}, not {json.dumps(value)}")
            out[name] = json.dumps(value) if isinstance(value, bool) else str(value)
    tables = doc.get("tables", {})
    if not isinstance(tables, dict) or any(not isinstance(v, str) for v in tables.values()):
        rd.fail(("tables",), "tables is an object of table names and CSV files")
    return out


def locate(path: str, text: str, entry: tuple) -> Span | None:
    """Where an entry of a state document is written (``("params", "eras")``)."""
    return _Located(text).span(str(path), entry)


def _ordinal(n: int) -> str:
    return "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def _checkpoints_hint(names: list[str]) -> str:
    return "checkpoints: " + ", ".join(names) if names else "this spec declares no checkpoint"


def _section_of(var: I.StateVarDef) -> str:
    return "per_seat" if var.per_seat else "per_key" if var.keyed else "state"


# ------------------------------------------------------------------ showing
def show(state, title: str | None = None) -> list[str]:
    """The state of a game, readably: shared state, then each seat, then each key."""
    program = state.interp.program
    lines = [f"{title or program.title}" + (f", mode {state.mode}" if state.mode else "")
             + (f", stopped at {state.stopped}" if state.stopped else "")]
    lines.append("seats: " + ", ".join(f"{s.title} ({s.name}{', ' + s.kind if s.kind != 'player' else ''})"
                                       for s in state.seats))
    shared = [v for v in program.state.values() if not v.keyed]
    if shared:
        lines += ["", "shared"]
        for var in shared:
            lines += render.block(var.name, state.shared[var.name], "  ")
    per_seat = [v for v in program.state.values() if v.per_seat]
    for seat in state.seats:
        if per_seat:
            lines += ["", seat.title]
            for var in per_seat:
                lines += render.block(var.name, state.per[var.name][seat], "  ")
    by_key: dict[str, list] = {}
    for v in program.state.values():
        if v.keyed and not v.per_seat:
            by_key.setdefault(v.per, []).append(v)
    for per, vars_ in by_key.items():
        lines += ["", f"per {per}"]
        for key in program.enums[per].values:
            values = [(v.name, state.per[v.name][key]) for v in vars_]
            lines.append(f"  {key}: " + "; ".join(f"{render.words(n)} {render.text(x, render.LONG_PILE)}"
                                                  for n, x in values))
    if state.reports:
        lines += ["", "reports"]
        for name, value in state.reports.items():
            lines += render.block(name, render.jsonable(value, state=True), "  ")
    return lines
