"""verify's answers kept between runs: a question to the solver asked again on the same
rules is answered from what the last run found, not solved again.

In:  a program, one question (its statements), the position it is asked on (or none),
     its time limit and workers; the answer once solved.
Out: the answer an earlier run found to the same question (``recall``), or None; the
     answer kept for the next run (``keep``).

The key of a question is a hash of everything its answer depends on: the question's
statements; every definition and scoring it reads, directly or through others (their
meaning only: where they are written is left out, so moving a definition or editing
another one keeps the answer); the program's frame (its enums and tables, records,
grids, state, settings and constants: small, kept whole); the position's state document;
the time limit, the workers and the solve plan; the solver's own code and OR-Tools'
version. A question is kept only under a plan whose verdicts do not depend on the
machine's load (``steady``, ``deterministic``: a budget of work, not of seconds), and
only when the clock did not cut it short: a question gets the answer the work of its
budget finds, whether solved or recalled (CP-SAT's parallel workers may settle a
question one run and not the next: either answer is true, and a recalled one is one a
run found). Entries live with the front end's (``compiler/cache.py``: the same folder,
the same writer and reader, ``RULEWRIGHT_CACHE=off`` keeps nothing); a value in a
question that has no stable text (none of the shipped games has one) makes that question
unkept.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import time
from functools import lru_cache
from pathlib import Path
from typing import Any

from rulewright.compiler import cache
from rulewright.compiler import ir as I
from rulewright.solver.solving import plan

KIND = "verify"
# fields that say where a thing is written, or carry the syntax tree: not what it means
_WHERE = frozenset({"span", "name_span", "node", "spans", "sources", "removed", "cls"})
# the share of the clock's bound past which an answer may have been cut short by the clock
_CLOCK_SHARE = 0.9
_DEEPEST = 40           # values nested deeper than this make their question unkept


class _NoStableText(Exception):
    """A value whose text depends on where it lies in memory: its question is not kept."""


@lru_cache(maxsize=1)
def solver_version() -> str:
    """A hash of the solver's modules and of OR-Tools' version."""
    from ortools import __version__ as ortools_version      # (its version only, when a key is first made)
    here = Path(__file__).resolve().parent.parent
    h = hashlib.sha256(f"ortools {ortools_version}".encode())
    for f in sorted(here.rglob("*.py")):
        h.update(f.name.encode() + b"\0" + f.read_bytes())
    return h.hexdigest()


def value_shape(x, depth: int = 0):
    """A value as what decides it, as nested tuples: plain values as themselves, collections
    value by value (a set's and a dict's in one order: two tables built apart list theirs
    alike), a record's class by its name and fields, anything else (a table of values with
    its 'else', a relation's table) by its type, its printed form and every attribute it
    holds, so that two values are taken as equal only when nothing of them differs (a value
    printed with a place in memory is never equal to another). ``differs`` compares
    definitions by it; the keys of kept answers write it."""
    if x is None or isinstance(x, (bool, int, float, str)):
        return ("value", type(x).__name__, x)
    if depth > _DEEPEST:
        return ("object", type(x).__name__, repr(x))
    if isinstance(x, type):
        return ("class", getattr(x, "rw_name", x.__qualname__), repr(getattr(x, "rw_fields", None)))
    if type(x) in (tuple, list, frozenset, set):
        items = [value_shape(v, depth + 1) for v in x]
        return (type(x).__name__, tuple(sorted(items, key=repr) if isinstance(x, (set, frozenset)) else items))
    if type(x) is dict:
        return ("dict", tuple(sorted(((value_shape(k, depth + 1), value_shape(v, depth + 1))
                                      for k, v in x.items()), key=repr)))
    extra = tuple((k, value_shape(v, depth + 1)) for k, v in sorted(vars(x).items())) \
        if hasattr(x, "__dict__") else ()
    return ("object", type(x).__name__, repr(x), extra)


def _text(x: Any, out: list[str], reads: set[str], depth: int = 0) -> None:
    """``x`` written into ``out`` as text that depends on its meaning only; the names of the
    definitions it calls or reads go into ``reads``. A value of a class of its own (a table
    of values, a relation's table) is written with every attribute it holds, not only as it
    prints (a table's printed form may leave out its 'else')."""
    if depth > _DEEPEST:
        raise _NoStableText("nested too deeply")
    if x is None or isinstance(x, (bool, int, float, str)) and type(x) in (bool, int, float, str):
        out.append(f"{type(x).__name__}:{x!r}")
        return
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        if isinstance(x, (I.Call, I.Global)):
            reads.add(x.name)
        out.append(type(x).__name__ + "(")
        for f in dataclasses.fields(x):
            if f.name not in _WHERE:
                out.append(f.name + "=")
                _text(getattr(x, f.name), out, reads, depth + 1)
        out.append(")")
        return
    if isinstance(x, (list, tuple)) and type(x) in (list, tuple):
        out.append(f"{type(x).__name__}[")
        for y in x:
            _text(y, out, reads, depth + 1)
            out.append(",")
        out.append("]")
        return
    if isinstance(x, (set, frozenset)) and type(x) in (set, frozenset):
        out.append("set{" + ",".join(sorted(repr(y) for y in x)) + "}")
        return
    if type(x) is dict:
        out.append("{")
        for k in sorted(x, key=repr):
            _text(k, out, reads, depth + 1)
            out.append(":")
            _text(x[k], out, reads, depth + 1)
            out.append(",")
        out.append("}")
        return
    shown = repr(value_shape(x))    # (a value of a class of its own, a record's class: every part of it)
    if " at 0x" in shown:
        raise _NoStableText(type(x).__name__)
    out.append(shown)


class Keys:
    """The keys of the questions asked about one program (what each definition's text and
    the frame's are computed once)."""

    def __init__(self, program: I.Program):
        self.program = program
        self._defs: dict[str, tuple[str, set[str]]] = {}
        self._frame: str | None = None

    def _frame_text(self) -> str:
        """The frame's text (raises ``_NoStableText`` when it has none)."""
        if self._frame is None:
            p = self.program
            out: list[str] = []
            _text([p.name, p.enums, p.records, p.grids, p.state, p.switches, p.constants, p.outcome,
                   p.enum_of_value], out, set())
            self._frame = "".join(out)
        return self._frame

    def _definition(self, name: str) -> tuple[str, set[str]]:
        if name not in self._defs:
            p = self.program
            thing = p.funcs.get(name) or p.scorings.get(name)
            out: list[str] = []
            reads: set[str] = set()
            if thing is not None:
                _text(thing, out, reads)
            self._defs[name] = ("".join(out), reads)
        return self._defs[name]

    def key(self, body: list[I.Stmt], state: Any, limit: float, workers: int) -> str | None:
        """The text that names one question (None: it cannot be kept)."""
        chosen = plan()
        if not chosen.deterministic:
            return None
        try:
            out: list[str] = []
            todo: set[str] = set()
            _text(body, out, todo)
            seen: set[str] = set()
            while todo:
                name = todo.pop()
                seen.add(name)
                todo |= self._definition(name)[1] - seen
            out += [f"\0{name}\0{self._definition(name)[0]}" for name in sorted(seen)]
            if state is not None:
                from rulewright.compiler.play import state_io     # (a position's document, as its file says it)
                out.append("\0state\0" + json.dumps(state_io.dump(state, seed=0), sort_keys=True, default=repr))
            frame = self._frame_text()
        except (_NoStableText, RecursionError, TypeError, ValueError):
            return None
        out.append(f"\0limit {limit!r} workers {workers} plan {chosen!r}")
        return solver_version() + frame + "".join(out)


class Asked:
    """The questions one run of verify asks the solver: whether to answer them from what an
    earlier run kept (not when ``fresh``), how many were asked and how many so answered."""

    def __init__(self, fresh: bool = False):
        self.fresh = fresh
        self.count = self.recalled = 0

    def answer(self, key: str | None, solve, limit: float):
        """The answer to one question: kept by an earlier run, else ``solve()``'s (kept for
        the next run unless the clock may have cut it short: ``limit``, its seconds)."""
        self.count += 1
        if not self.fresh:
            found = recall(key)
            if found is not None:
                self.recalled += 1
                return found
        started = time.perf_counter()
        found = solve()
        if getattr(found, "interrupted", False) is False:
            keep(key, found, time.perf_counter() - started, limit)
        return found


_KEYS: dict[int, tuple] = {}      # id of a program -> (the program, its Keys): the last few


def keys_of(program: I.Program) -> "Keys":
    """The ``Keys`` of a program (one per program while it is among the last few asked of)."""
    held = _KEYS.get(id(program))
    if held is None or held[0] is not program:
        if len(_KEYS) >= 8:
            _KEYS.clear()
        held = _KEYS[id(program)] = (program, Keys(program))
    return held[1]


def recall(key: str | None):
    """The answer kept for a question's key, or None."""
    return None if key is None else cache.load(KIND, key)


def keep(key: str | None, answer, seconds: float, limit: float) -> None:
    """``answer`` (found in ``seconds``) kept for the next run, unless the clock may have cut
    it short (its bound is ``limit`` times the plan's margin)."""
    if key is None or seconds >= limit * plan().outer * _CLOCK_SHARE:
        return
    cache.store(KIND, answer, key)


def games_key(program: I.Program, games: int, kinds: set[str], limit: float | None) -> str | None:
    """The text that names the sampled games' findings: everything the games play (the
    definitions as written, places included, since the findings name them), where the
    files are, the games, the checks and the time limit (None: not kept)."""
    chosen = plan()
    if not chosen.deterministic:
        return None
    from rulewright.compiler.docgen.house import fingerprint     # (what a game plays is made of)
    return "\0".join([solver_version(), "games", fingerprint(program), program.root,
                      *(f.path for f in program.files), str(games), ",".join(sorted(kinds)), repr(limit),
                      repr(chosen)])


def keep_games(key: str | None, findings: list) -> None:
    """The sampled games' findings kept for the next run, unless the clock stopped a game
    (an UNKNOWN there depends on the machine's load)."""
    if key is not None and not any(f.status == "UNKNOWN" for f in findings):
        cache.store(KIND, findings, key)
