"""The reference semantics: the checked program evaluated on a game state.

In:  an ``ir.Program``.
Out: ``Interpreter``, which compiles every definition to a Python function
     (each operator contributes its ``py`` template from ``semantics.operators``)
     and runs them: ``call`` evaluates a definition, ``score`` a scoring with
     its breakdown, ``play`` a whole mode with agents that choose among the
     legal options only.

Choices inside a scoring (``choose lion_prey subset of ...``) are made by the
score's owner: the interpreter tries every legal option and keeps the best
total (``most``, the default) or the worst (``least``). Statements after a
choice are compiled as a continuation, so the steps before it run once.
``forced`` choices replay a given witness instead (used to check solver
answers).

``python_source()`` shows the generated code.
"""
from __future__ import annotations

import ast
import re

import random
from dataclasses import dataclass, field
from typing import Any, Callable

from rulewright.compiler.semantics.operators import AGGREGATES, OPERATORS

from rulewright.compiler import ir as I
from rulewright.compiler.semantics import runtime as rt
from rulewright.compiler.diagnostics import Diagnostic, IllegalMoveError, RuntimeRulesError, Span, reason_of
from rulewright.compiler.types import BoardT, BoolT, CollT, IntT, TextT
from rulewright.compiler.semantics import render


_SAFE_NAME = re.compile(r"[a-z_][a-z0-9_]*")
_INT64 = range(-2 ** 63, 2 ** 63)


def _ident(prefix: str, name: str) -> str:
    """The Python identifier of a spec name: ``prefix`` + the name when it is written
    in the language's own alphabet (``[a-z_][a-z0-9_]*``), else ``prefix`` + ``X`` +
    its bytes in hex. Either way an identifier of a fixed alphabet, and one per name
    (a name of the language never holds ``X``)."""
    if _SAFE_NAME.fullmatch(name):
        return prefix + name
    return prefix + "X" + name.encode("utf-8", "surrogatepass").hex()


def _pyname(name: str) -> str:
    return _ident("v_", name)


def _fname(name: str) -> str:
    """The generated function of a definition."""
    return _ident("f_", name)


def _sname(name: str) -> str:
    """The generated function of a scoring."""
    return _ident("s_", name)


def _prname(name: str) -> str:
    """The generated function of a procedure."""
    return _ident("p_", name)


def _mname(name: str) -> str:
    """The generated function of a mode (its own prefix: a procedure may be called mode_x)."""
    return _ident("m_", name)


# What the generated code may name besides the spec's own (mangled) names, its table of
# constants (K0, K1...), its own locals (_steps, _t3...) and the state (ST).
_BUILTINS = frozenset({"abs", "all", "any", "bool", "dict", "enumerate", "frozenset", "getattr", "int",
                       "isinstance", "len", "list", "max", "min", "range", "repr", "reversed", "set",
                       "sorted", "str", "sum", "tuple", "zip"})
_OWN_NAME = re.compile(r"(?:[vfspm]_[a-z0-9_]*|[vfspm]_X[0-9a-f]+|K[0-9]+|_[A-Za-z0-9_]*|ST)")
# The only texts written in the generated code: those of the operators' own templates.
_TEMPLATE_TEXTS = frozenset({""})


def _vetted(source: str, filename: str, mode: str = "exec") -> ast.AST:
    """The generated module, parsed and checked before it is compiled: no text but the
    templates' own, no name outside the fixed alphabet of generated names and a short
    list of builtins, no dunder attribute, no import. The code generator already puts
    every value of the spec in the table of constants and mangles every name; this is
    the guard that a mistake there cannot turn a spec's text into code."""
    tree = ast.parse(source, filename, mode)
    for node in ast.walk(tree):
        bad = None
        if isinstance(node, ast.Constant):
            if isinstance(node.value, (str, bytes)) and node.value not in _TEMPLATE_TEXTS:
                bad = "a text written in the code"
        elif isinstance(node, ast.Name):
            if not (_OWN_NAME.fullmatch(node.id) or node.id in _BUILTINS) or node.id.startswith("__"):
                bad = f"the name {node.id[:40]!r}"
        elif isinstance(node, ast.arg):
            if not _OWN_NAME.fullmatch(node.arg) or node.arg.startswith("__"):
                bad = f"the parameter {node.arg[:40]!r}"
        elif isinstance(node, ast.Attribute):
            if node.attr.startswith("__"):
                bad = f"the attribute {node.attr[:40]!r}"
        elif isinstance(node, (ast.Import, ast.ImportFrom, ast.Global, ast.Nonlocal, ast.ClassDef,
                               ast.AsyncFunctionDef, ast.Await, ast.Yield, ast.YieldFrom, ast.With,
                               ast.Try, ast.Delete)):
            bad = f"a {type(node).__name__} statement"
        if bad is not None:
            raise RuntimeError(f"generated code refused ({bad}, line {getattr(node, 'lineno', '?')}): "
                               "a bug of rulewright's code generator")
    return tree


class _Emitter:
    """Collects module-level constants and function sources."""

    def __init__(self):
        self.consts: dict[int, str] = {}
        self.values: dict[str, Any] = {}
        self.lines: list[str] = []
        self.counter = 0

    def const(self, value: Any) -> str:
        """Code naming a constant. Only ``None``, ``True``, ``False`` and 64-bit whole
        numbers are written in the code; every other value (a text above all, whatever
        it holds) is passed in the table of constants, ``K0``, ``K1``... so no text of
        a spec is ever part of the generated source."""
        if value is None or isinstance(value, bool):
            return repr(value)
        if type(value) is int and value in _INT64:
            return repr(value)
        key = ("=", type(value), value) if _simple(value) else id(value)
        if key not in self.consts:
            name = f"K{len(self.consts)}"
            self.consts[key] = name
            self.values[name] = value
        return self.consts[key]

    def fresh(self, prefix: str) -> str:
        """A new local name: ``_`` + prefix + ``_`` + a number (the number after the last
        ``_``, so two prefixes never give one name)."""
        self.counter += 1
        return f"_{prefix}_{self.counter}"


def _simple(value) -> bool:
    """A value that is its own key in the table of constants (equal values share a name)."""
    if type(value) is tuple:
        return all(_simple(v) for v in value)
    return value is None or type(value) in (bool, int, str)


class ExprCompiler:
    def __init__(self, program: I.Program | None, em: _Emitter):
        self.program = program
        self.em = em
        self.rename: dict[str, str] = {}     # binder -> Python name inside flattened loops

    def ex(self, e: I.Expr) -> str:
        return getattr(self, "ex_" + type(e).__name__)(e)

    def ex_Const(self, e: I.Const) -> str:
        return self.em.const(e.value)

    def ex_Local(self, e: I.Local) -> str:
        return self.rename.get(e.name) or _pyname(e.name)

    def ex_Global(self, e: I.Global) -> str:
        if e.name in ("seats", "players"):
            return f"ST.{e.name}"
        if self.program is not None and e.name in self.program.state:
            return f"ST.shared[{self.em.const(e.name)}]"
        return f"{_fname(e.name)}()"

    def ex_SeatVar(self, e: I.SeatVar) -> str:
        return f"ST.per[{self.em.const(e.name)}][{self.ex(e.seat)}]"

    def ex_Call(self, e: I.Call) -> str:
        if self.program is not None and e.name in self.program.funcs:
            fd = self.program.funcs[e.name]
            # a definition whose value is one of its parameters (a switch made it so)
            if isinstance(fd.body, I.Local) and fd.body.name in [p for p, _ in fd.params]:
                return self.ex(e.args[[p for p, _ in fd.params].index(fd.body.name)])
        args = ", ".join(self.ex(a) for a in e.args)
        if self.program is not None and e.name in self.program.scorings:
            return f"{_sname(e.name)}({self.em.const(e.mode)}, _FORCE{', ' if args else ''}{args})"
        return f"{_fname(e.name)}({args})"

    def ex_Op(self, e: I.Op) -> str:
        operator = OPERATORS[e.op]
        args = [self.ex(a) for a in e.args]
        data = self.em.const(e.data) if e.data is not None else None
        return operator.emit(args, data, self.span_of(operator.py, e))

    def span_of(self, template: str, e: I.Expr) -> str | None:
        """The node's place, for a template that can raise a run-time error there (``{S}``)."""
        return self.em.const(e.span) if "{S}" in template else None

    def as_set(self, coll: I.Expr) -> str:
        """Code for a collection used only as a set: a relation's frozenset table."""
        if isinstance(coll, I.Op) and coll.op == "rel_apply" and hasattr(coll.data, "sets"):
            return f"{self.em.const(coll.data.sets)}[{self.ex(coll.args[0])}]"
        return self.ex(coll)

    def board_value_test(self, cond, var: str):
        """``g[var] == K`` with g a grid and K known: (grid code, K code), else None."""
        if not (isinstance(cond, I.Op) and cond.op == "eq") or self.program is None:
            return None
        get, value = cond.args
        if isinstance(value, I.Op) and value.op == "board_get":
            get, value = value, get
        if isinstance(get, I.Op) and get.op == "board_get" and isinstance(value, I.Const) \
                and value.value is not None and isinstance(get.args[1], I.Local) \
                and get.args[1].name == var and isinstance(get.args[0], (I.Local, I.Global)) \
                and isinstance(get.args[0].type, BoardT):
            return self.ex(get.args[0]), self.em.const(value.value)
        return None

    def ex_Agg(self, e: I.Agg) -> str:
        special = self.special_agg(e)
        if special is not None:
            return special
        return self.comprehension(e)

    def special_agg(self, e: I.Agg) -> str | None:
        """"Does / how many of these cells hold K": set operations on the grid's cells by value."""
        if len(e.binders) == 1 and isinstance(e.binders[0].coll.type, CollT) \
                and e.binders[0].coll.type.kind == "set":
            b = e.binders[0]
            test = None
            if e.func == "any" and b.cond is None:
                test = self.board_value_test(e.elem, b.var)
                if test:
                    return f"(not {test[0]}.sets().get({test[1]}, _rt.NOTHING).isdisjoint({self.as_set(b.coll)}))"
            if e.func == "count" and b.cond is not None:
                test = self.board_value_test(b.cond, b.var)
                if test:
                    coll, rest = self.indexed(b)
                    if rest is None and coll != self.ex(b.coll):
                        return f"len({coll})"       # every cell holding K
                    return f"len({test[0]}.sets().get({test[1]}, _rt.NOTHING).intersection({self.as_set(b.coll)}))"
        return None

    def comprehension(self, e: I.Agg) -> str:
        saved = dict(self.rename)
        if e.supply is not None:
            return self._allocation(e, saved)
        fors = []
        try:
            for b in e.binders:
                coll, cond = self.indexed(b)
                self.rename.pop(b.var, None)          # the binder's own name inside the comprehension
                part = f"for {_pyname(b.var)} in {self.counted(coll, b.coll)}"
                if cond is not None:
                    part += f" if {self.ex(cond)}"
                fors.append(part)
            if e.func == "set" and len(e.binders) == 1 and isinstance(e.elem, I.Local) \
                    and e.elem.name == e.binders[0].var and isinstance(e.binders[0].coll.type, CollT) \
                    and e.binders[0].coll.type.kind == "set":
                # the members of a set, filtered: already without duplicates
                return f"tuple([{_pyname(e.elem.name)} {' '.join(fors)}])"
            key = self.ex(e.key) if e.key is not None else ""
            var = _pyname(e.binders[0].var) if e.binders else ""
            agg = AGGREGATES[e.func]
            return "(" + agg.emit(self.ex(e.elem), " ".join(fors), key, "", var, self.span_of(agg.py, e)) + ")"
        finally:
            self.rename = saved

    def _allocation(self, e: I.Agg, outer: dict) -> str:
        """allocate(...): the supply is read outside the claimants' comprehension."""
        try:
            supply = self.ex(e.supply)
            fors = []
            for b in e.binders:
                coll, cond = self.indexed(b)
                self.rename.pop(b.var, None)
                part = f"for {_pyname(b.var)} in {self.counted(coll, b.coll)}"
                if cond is not None:
                    part += f" if {self.ex(cond)}"
                fors.append(part)
            body = AGGREGATES[e.func].emit(self.ex(e.elem), " ".join(fors), self.ex(e.key), supply,
                                           _pyname(e.binders[0].var))
            return "(" + body + ")"
        finally:
            self.rename = outer

    def counted(self, code: str, e: I.Expr) -> str:
        """Code of a collection a loop goes over, its values counted against the step budget."""
        return f"_rt.steps({code}, {self.em.const(e.span)})"

    def indexed(self, b: I.Binder):
        """``for c in cells(g) if g[c] == K and rest`` -> the cells of ``g`` holding K
        (``g[c] == K or g[c] == L``: holding K or L, merged in reading order).

        Boards are never changed, so each one indexes its cells by value once; the
        filter's first test is then answered by the index (same cells, same order).
        """
        cond = b.cond
        first, rest = cond, None
        if isinstance(cond, I.Op) and cond.op == "and":
            first, rest = cond.args[0], cond.args[1]
        if not isinstance(b.coll, I.Const) or first is None:
            return self.ex(b.coll), cond
        tests = [first]
        if isinstance(first, I.Op) and first.op == "or":
            tests = list(first.args)
        found = [self.board_value_test(t, b.var) for t in tests]
        if all(found) and len({f[0] for f in found}) == 1:
            board_expr = self._board_of(tests[0])
            grid = self.program.grids.get(board_expr.type.grid)
            if grid is not None and b.coll.value == grid.cells:
                board = found[0][0]
                if len(found) == 1:
                    return f"{board}.index().get({found[0][1]}, ())", rest
                parts = " + ".join(f"{board}.index().get({k}, [])" for _, k in found)
                return f"sorted({parts})", rest
        return self.ex(b.coll), cond

    @staticmethod
    def _board_of(test: I.Op) -> I.Expr:
        get = test.args[0] if isinstance(test.args[0], I.Op) and test.args[0].op == "board_get" \
            else test.args[1]
        return get.args[0]


# Operator arguments evaluated whatever the other arguments are (so an aggregate there
# may be computed beforehand by a loop); the others are lazy: if's branches, and/or's
# right side.
_LAZY = {"if": {1, 2}, "and": {1}, "or": {1}}


class Flattener:
    """Aggregates in strict positions become plain loops in the enclosing function
    (Python 3.11 runs every comprehension as a function call); aggregates in lazy
    positions keep their expression form, so short-circuits behave the same."""

    def __init__(self, exc: ExprCompiler, em: _Emitter):
        self.exc, self.em = exc, em

    def value(self, e: I.Expr, lines: list[str], pad: str) -> str:
        if isinstance(e, I.Agg):
            return self.loop(e, lines, pad)
        if isinstance(e, I.Op) and self._has_agg(e):
            lazy = _LAZY.get(e.op, set())
            args = [self.exc.ex(a) if i in lazy else self.value(a, lines, pad) for i, a in enumerate(e.args)]
            data = self.em.const(e.data) if e.data is not None else None
            return OPERATORS[e.op].emit(args, data, self.exc.span_of(OPERATORS[e.op].py, e))
        return self.exc.ex(e)

    @staticmethod
    def _has_agg(e) -> bool:
        if isinstance(e, I.Agg):
            return True
        if isinstance(e, I.Op):
            return any(Flattener._has_agg(a) for a in e.args)
        return False

    def loop(self, e: I.Agg, lines: list[str], pad: str) -> str:
        special = self.exc.special_agg(e)
        if special is not None:
            return special
        if (e.func in ("any", "all") and len(e.binders) > 1) or e.key is not None:
            return self.exc.comprehension(e)
        t = self.em.fresh("t")
        init = {"sum": "0", "count": "0", "any": "False", "all": "True", "distinct": "set()",
                "list": "[]", "set": "{}", "min": "[]", "max": "[]"}[e.func]
        lines.append(f"{pad}{t} = {init}")
        saved = dict(self.exc.rename)
        inner = pad
        for b in e.binders:
            coll, cond = self.exc.indexed(b)
            if coll == self.exc.ex(b.coll):
                coll = self.value(b.coll, lines, inner)
            var = self.em.fresh(_pyname(b.var))
            lines.append(f"{inner}for {var} in {self.exc.counted(coll, b.coll)}:")
            inner += "    "
            self.exc.rename[b.var] = var
            if cond is not None:
                test = self.value(cond, lines, inner)
                lines.append(f"{inner}if {test}:")
                inner += "    "
        elem = self.value(e.elem, lines, inner) if e.func != "count" else None
        if e.func == "sum":
            lines.append(f"{inner}{t} += {elem}")
        elif e.func == "count":
            lines.append(f"{inner}{t} += 1")
        elif e.func == "any":
            lines += [f"{inner}if {elem}:", f"{inner}    {t} = True", f"{inner}    break"]
        elif e.func == "all":
            lines += [f"{inner}if not ({elem}):", f"{inner}    {t} = False", f"{inner}    break"]
        elif e.func == "distinct":
            lines.append(f"{inner}{t}.add({elem})")
        elif e.func in ("list", "min", "max"):
            lines.append(f"{inner}{t}.append({elem})")
        elif e.func == "set":
            lines.append(f"{inner}{t}[{elem}] = None")
        self.exc.rename = saved
        where = self.exc.em.const(e.span)
        return {"distinct": f"len({t})", "list": f"tuple({t})", "set": f"tuple({t})",
                "min": f"_rt.agg_min({t}, {where})", "max": f"_rt.agg_max({t}, {where})"}.get(e.func, t)


_AT = re.compile(r"^\s*# at _S\[(\d+)\]$")


def _line_spans(source: str, spans: list) -> list:
    """For each line of the generated code, the span of the statement or definition
    it comes from (the nearest ``# at`` marker above it)."""
    out, current = [], None
    for line in source.split("\n"):
        m = _AT.match(line)
        if m:
            current = spans[int(m.group(1))]
        elif line.startswith("def "):
            current = None
        out.append(current)
    return out


def locate(exc: RuntimeRulesError) -> RuntimeRulesError:
    """A run-time error raised without a place (by a runtime helper such as max() of
    an empty collection), located at the deepest rule of the spec it came from."""
    if any(d.span.line > 0 for d in exc.diagnostics):
        return exc
    best = None
    tb = exc.__traceback__
    while tb is not None:
        frame = tb.tb_frame
        if frame.f_code.co_filename.startswith("<rules "):
            spans = frame.f_globals.get("_LINESPANS") or []
            if 0 < tb.tb_lineno <= len(spans) and spans[tb.tb_lineno - 1] is not None:
                best = spans[tb.tb_lineno - 1]
        tb = tb.tb_next
    if best is None:
        return exc
    return RuntimeRulesError(exc.diagnostics[0].message, best)


def evaluate_closed(e: I.Expr, env: dict[str, Any] | None = None, what: str | None = None) -> Any:
    """Evaluate an expression that reads no state and no definitions (constant folding);
    ``what`` names it if it runs out of steps (the definition it is part of)."""
    em = _Emitter()
    src = ExprCompiler(None, em).ex(e)
    scope = {"_rt": rt, "_show": render, **em.values}
    for k, v in (env or {}).items():
        scope[_pyname(k)] = v
    try:
        with rt.bounded(what or "the value"):
            return eval(compile(_vetted(src, "<rules>", "eval"), "<rules>", "eval"), scope)  # noqa: S307
    except rt.OutOfSteps:
        raise
    except RuntimeRulesError as exc:
        raise RuntimeRulesError(exc.diagnostics[0].message, e.span) from None


# ---------------------------------------------------------------- game state
@dataclass
class Event:
    kind: str
    seat: str | None
    detail: dict


class GameState:
    """Seats, shared and per-seat state, the random generator, agents and the log."""

    def __init__(self, interp: "Interpreter", seats: list[rt.Seat], seed: int | None,
                 agents: dict[int, Any] | None = None):
        self.interp = interp
        self.seats = tuple(seats)
        self.players = tuple(s for s in seats if s.kind == "player")
        self.rng = random.Random(seed)
        self.agents = agents or {}
        self.shared: dict[str, Any] = {}
        self.per: dict[str, dict[Any, Any]] = {}     # state kept per seat or per key
        self.reports: dict[str, Any] = {}
        self.log: list[Event] = []
        self.checkpoints: dict[str, int] = {}
        self.watchers: list = []           # called at every checkpoint with (state, "name:count")
        self.stop_at: str | None = None    # "name:count": stop the game there
        self.stopped: str | None = None
        self.mode: str | None = None
        # what reading the position from a file warned of (invariants with "else warn")
        self.warnings: list = []

    # --------------------------------------------------------------- zones
    def _take(self, zone: rt.Zone, card, span: Span):
        try:
            zone.cards.remove(card)
        except ValueError:
            raise RuntimeRulesError(f"'{card}' is not in {zone.name}", span) from None

    def deal(self, n: int, source: rt.Zone, target: rt.Zone, span: Span):
        if n < 0:
            raise RuntimeRulesError(f"cannot deal {n} cards: a count is 0 or more", span)
        if n > len(source.cards):
            raise RuntimeRulesError(f"cannot deal {n} cards from {source.name}: only "
                                    f"{len(source.cards)} left", span)
        for _ in range(n):
            target.cards.append(source.cards.pop())
        self.log.append(Event("deal", None, {"n": n, "from": source.name, "to": target.name}))

    def move(self, what, source: rt.Zone, target: rt.Zone, span: Span):
        items = list(what) if isinstance(what, (tuple, list, rt.Zone)) else [what]
        for card in items:
            self._take(source, card, span)
            target.cards.append(card)
        self.log.append(Event("move", None, {"cards": items, "from": source.name, "to": target.name}))

    def take(self, what, source: rt.Zone, span: Span):
        items = list(what) if isinstance(what, (tuple, list, rt.Zone)) else [what]
        for card in items:
            self._take(source, card, span)
        self.log.append(Event("take", None, {"cards": items, "from": source.name}))

    def put(self, what, target: rt.Zone, span: Span):
        items = list(what) if isinstance(what, (tuple, list, rt.Zone)) else [what]
        target.cards.extend(items)
        self.log.append(Event("put", None, {"cards": items, "to": target.name}))

    def move_all(self, source: rt.Zone, target: rt.Zone, span: Span):
        items = list(source.cards)
        source.cards.clear()
        target.cards.extend(items)
        self.log.append(Event("move", None, {"cards": items, "from": source.name, "to": target.name}))

    def shuffle(self, zone: rt.Zone, span: Span):
        self.rng.shuffle(zone.cards)

    def place(self, card, source: rt.Zone, var: str, seat: rt.Seat | None, at, span: Span):
        board = self.per[var][seat] if seat is not None else self.shared[var]
        if at not in rt.placements(board):
            raise IllegalMoveError(f"cannot place '{card}' at {rt.pos_text(at)}", span)
        self._take(source, card, span)
        new = rt.placed(board, card, at)
        if seat is not None:
            self.per[var][seat] = new
        else:
            self.shared[var] = new
        self.log.append(Event("place", seat.name if seat else None, {"card": card, "at": list(at)}))

    def pass_zone(self, var: str, direction: str, span: Span):
        zones = [self.per[var][s] for s in self.seats]
        n = len(zones)
        contents = [z.cards for z in zones]
        # Seats sit clockwise in order; the seat on one's left is the next one.
        for i, z in enumerate(zones):
            giver = (i - 1) % n if direction == "left" else (i + 1) % n
            z.cards = contents[giver]
        self.log.append(Event("pass", None, {"zone": var, "to": direction}))

    # --------------------------------------------------------------- choices
    def choose(self, name: str, chooser, options: list, span: Span):
        if not options:
            raise IllegalMoveError(f"no legal option for choice '{name}'", span)
        if chooser == "random" or chooser is None:
            pick = options[self.rng.randrange(len(options))]
            who = None
        else:
            agent = self.agents.get(chooser.index)
            if agent is None:
                pick = options[self.rng.randrange(len(options))]
            else:
                pick = agent.choose(name, options, self, chooser)
                if pick not in options:
                    raise IllegalMoveError(f"{chooser} chose an illegal option for '{name}': {pick!r}", span)
            who = chooser.name
        self.log.append(Event("choose", who, {"choice": name, "value": render.jsonable(pick),
                                              "options": len(options)}))
        return pick

    def checkpoint(self, name: str):
        """A named moment of play: counted, logged, shown to watchers, maybe the stop."""
        self.checkpoints[name] = self.checkpoints.get(name, 0) + 1
        label = f"{name}:{self.checkpoints[name]}"
        self.log.append(Event("checkpoint", None, {"name": name, "count": self.checkpoints[name]}))
        for watch in self.watchers:
            watch(self, label)
        if self.stop_at is not None and label == self.stop_at:
            raise StopGame(label)

    def refuse(self, name: str, parts: Callable, tags: tuple, span: Span):
        """A ``require`` of the rules does not hold: the game cannot go on. Its message
        (``parts`` computes it; values shown as everywhere else), at the require."""
        rules = f" ({' '.join(tags)})" if tags else ""
        try:
            text = "".join(p if isinstance(p, str) else ("none" if p.value is None else render.text(p.value))
                           for p in parts())
        except Exception as exc:                  # noqa: BLE001 (any failure of the rules)
            reason = reason_of(exc)
            raise RuntimeRulesError(Diagnostic(
                span, f"requirement '{name}'{rules} does not hold, and its message cannot be computed: {reason}",
                "an error of the spec: the message reads a value the game does not have here")) from None
        exc = RuntimeRulesError(Diagnostic(span, text, f"the game cannot go on: requirement '{name}'{rules} "
                                                       "does not hold with these params, switches and cards"))
        if not any(e.kind == "choose" for e in self.log):
            exc.requirement = name      # before the first choice: the settings may be what it refuses
        raise exc

    def note(self, name: str, value, heading: bool = False):
        """A line of the narrative (or the heading of a part of it), in the log."""
        self.log.append(Event("note", None, {"name": name, "value": value, "heading": heading}))

    def report(self, name: str, value, item=None):
        if item is None:
            self.reports[name] = value
        else:
            self.reports.setdefault(name, {})[item] = value


class StopGame(Exception):
    """Raised at the checkpoint a game was asked to stop at."""


class ReplayAgent:
    """Replays recorded choices (a playthrough's log) and checks each one is still legal."""

    def __init__(self, choices: list):
        self.choices = list(choices)

    def choose(self, name, options, state, seat):
        if not self.choices:
            raise IllegalMoveError(f"the trace has no more choices for {seat.name}")
        want_name, value = self.choices.pop(0)
        if want_name != name:
            raise IllegalMoveError(f"the trace has choice '{want_name}' where the game asks '{name}'")
        for option in options:
            if render.jsonable(option) == value:
                return option
        raise IllegalMoveError(f"the traced {name} {value!r} is not legal here")


class RandomAgent:
    """Chooses uniformly among the legal options, from its own seeded generator."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def choose(self, name, options, state, seat):
        return options[self.rng.randrange(len(options))]


# ---------------------------------------------------------------- compiler
# The steps a whole game's rules may take (all loops of all its turns together).
GAME_STEPS = 5 * rt.MOST_STEPS


class Interpreter:
    def __init__(self, program: I.Program):
        self.program = program
        self.em = _Emitter()
        self.exc = ExprCompiler(program, self.em)
        self.flat = Flattener(self.exc, self.em)
        self._span_list: list[Span] = []
        self._eval_cache: dict = {}
        self.funcs: list[str] = []
        for fd in program.funcs.values():
            self._func(fd)
        for sd in program.scorings.values():
            self._scoring(sd)
        for pd in program.procedures.values():
            self._procedure(_prname(pd.name), [p for p, _ in pd.params], pd.body)
        for md in program.modes.values():
            self._procedure(_mname(md.name), [s.name for s in md.seats if s.name], md.body)
        self.source = "\n".join(self.funcs)
        self.ns: dict[str, Any] = {"_rt": rt, "_show": render, "ST": None, "_S": self._span_list, "_err": RuntimeRulesError,
                                   "_FORCE": None, "_LINESPANS": _line_spans(self.source, self._span_list),
                                   **self.em.values}
        where = f"<rules {program.name}>"
        code = compile(_vetted(self.source, where), where, "exec")
        exec(code, self.ns)  # noqa: S102 - generated from the checked program

    def span_ref(self, span: Span) -> str:
        """Code naming a span, so a run-time error can point at the rule."""
        self._span_list.append(span)
        return f"_S[{len(self._span_list) - 1}]"

    def python_source(self) -> str:
        return self.source

    # ------------------------------------------------------------ definitions
    @staticmethod
    def _hoist(params, lines: list[str]) -> list[str]:
        """Read each board parameter's cards through one local lookup function."""
        out = list(lines)
        for name, t in params:
            if isinstance(t, BoardT):
                v = _pyname(name)
                for needle, local, init in ((f"{v}.cards.get(", f"_get_{v}(", f"{v}.cards.get"),
                                            (f"{v}.index().get(", f"_idx_{v}(", f"{v}.index().get"),
                                            (f"{v}.sets().get(", f"_set_{v}(", f"{v}.sets().get")):
                    if any(needle in ln for ln in out[1:]):
                        out = [out[0], f"    {local[:-1]} = {init}"] + \
                              [ln.replace(needle, local) for ln in out[1:]]
        return out

    def stored(self, code: str, e: I.Expr) -> str:
        """Code of a value a statement stores: a number kept within 64 bits, a text within
        ``runtime.MOST_TEXT`` characters (so a loop that keeps doubling one stops)."""
        if isinstance(e, I.Const):
            return code
        if isinstance(e.type, IntT):
            return f"_rt.int64({code}, {self.em.const(e.span)})"
        if isinstance(e.type, TextT):
            return f"_rt.short_text({code}, {self.em.const(e.span)})"
        return code

    def _func(self, fd: I.FuncDef):
        params = ", ".join(_pyname(p) for p, _ in fd.params)
        lines = [f"def {_fname(fd.name)}({params}):", f"    # at {self.span_ref(fd.body.span)}"]
        body = self.flat.value(fd.body, lines, "    ")
        lines.append(f"    return {body}")
        self.funcs.append("\n".join(self._hoist(fd.params, lines)) + "\n")

    def _scoring(self, sd: I.ScoringDef):
        params = ", ".join(_pyname(p) for p, _ in sd.params)
        steps = [s.name for s in sd.steps]
        lines = [f"def {_sname(sd.name)}(_mode, _forced{', ' if params else ''}{params}):",
                 f"    _steps = dict.fromkeys({self.em.const(tuple(steps))}, 0)",
                 "    _choices = {}"]
        for layer in sd.layers:
            lines.append(f"    {_pyname(layer)} = frozenset()")
        self._layers = list(sd.layers)
        flat: list[tuple[str, I.Stmt]] = []
        for step in sd.steps:
            for st in step.body:
                flat.append((step.name, st))
        self._scoring_body(flat, sd.layers, lines, 1)
        self.funcs.append("\n".join(self._hoist(sd.params, lines)) + "\n")

    def _scoring_body(self, flat, layers, lines, depth, inner=False):
        pad = "    " * depth
        for i, (step, st) in enumerate(flat):
            if isinstance(st, I.Choose):
                self._scoring_choice(st, flat[i + 1:], step, layers, lines, depth, inner)
                return
            self._scoring_stmt(st, step, lines, depth)
        layers = ", ".join(f"{self.em.const(l)}: {_pyname(l)}" for l in self._layers)
        if inner:
            # while options are compared only the total matters
            lines.append(f"{pad}if not _full:")
            lines.append(f"{pad}    return sum(_steps.values())")
        lines.append(f"{pad}return _rt.Score(_steps, _choices, {{{layers}}})")

    def _scoring_stmt(self, st: I.Stmt, step: str, lines: list[str], depth: int):
        pad = "    " * depth
        lines.append(f"{pad}# at {self.span_ref(st.span)}")     # where a run-time error of these lines is
        if isinstance(st, I.Points):
            lines.append(f"{pad}_steps[{self.em.const(step)}] += {self.flat.value(st.value, lines, pad)}")
        elif isinstance(st, I.Let):
            value = self.stored(self.flat.value(st.value, lines, pad), st.value)
            lines.append(f"{pad}{_pyname(st.name)} = {value}")
        elif isinstance(st, I.Mark):
            layer = _pyname(st.layer)
            lines.append(f"{pad}{layer} = {layer} | frozenset({self.flat.value(st.cells, lines, pad)})")
        elif isinstance(st, I.If):
            lines.append(f"{pad}if {self.exc.ex(st.cond)}:")
            for s in st.then or []:
                self._scoring_stmt(s, step, lines, depth + 1)
            if not st.then:
                lines.append(f"{pad}    pass")
            if st.other:
                lines.append(f"{pad}else:")
                for s in st.other:
                    self._scoring_stmt(s, step, lines, depth + 1)
        elif isinstance(st, I.For):
            lines.append(f"{pad}for {_pyname(st.var)} in {self.exc.counted(self.exc.ex(st.coll), st.coll)}:")
            for s in st.body or []:
                self._scoring_stmt(s, step, lines, depth + 1)
            if not st.body:
                lines.append(f"{pad}    pass")
        else:
            raise RuntimeRulesError(f"'{type(st).__name__.lower()}' cannot be used in a scoring", st.span)

    def _scoring_choice(self, st: I.Choose, rest, step, layers, lines, depth, inner):
        """The rest of the scoring becomes a function of the choice; every option is
        tried for its total, then the best one is run again for the full score."""
        pad = "    " * depth
        var = _pyname(st.name)
        k = self.em.fresh("k")
        layer_params = "".join(f", {_pyname(l)}" for l in layers)
        lines.append(f"{pad}def {k}({var}, _steps, _choices{layer_params}, _full):")
        lines.append(f"{pad}    _steps = dict(_steps)")
        lines.append(f"{pad}    _choices = dict(_choices)")
        lines.append(f"{pad}    _choices[{self.em.const(st.name)}] = {var}")
        self._scoring_body(rest, layers, lines, depth + 1, inner=True)
        options = self._options(st)
        span = self.span_ref(st.span)
        full = "_full" if inner else "True"
        lines.append(f"{pad}_opts = {options}")
        name = self.em.const(st.name)
        lines.append(f"{pad}if _forced is not None and {name} in _forced:")
        lines.append(f"{pad}    _pick = _forced[{name}]")
        lines.append(f"{pad}    if _pick not in _opts:")
        lines.append(f"{pad}        raise _rt.not_a_legal_choice({name}, _pick, {span})")
        lines.append(f"{pad}    return {k}(_pick, _steps, _choices{layer_params}, {full})")
        lines.append(f"{pad}if len(_opts) != 1:")
        lines.append(f"{pad}    _opts = [_rt.best_option(_mode, _opts, lambda _o: {k}(_o, _steps, _choices"
                     f"{layer_params}, False), {span})]")
        lines.append(f"{pad}return {k}(_opts[0], _steps, _choices{layer_params}, {full})")

    def _options(self, st: I.Choose) -> str:
        var = _pyname(st.name)
        cond = f" if {self.exc.ex(st.where)}" if st.where is not None else ""
        coll = self.exc.ex(st.coll)
        if st.domain == "element":
            return f"[{var} for {var} in {self.exc.counted(coll, st.coll)}{cond}]"
        if st.domain == "subset" and st.size is None:
            return f"[{var} for {var} in {self.exc.counted(f'_rt.sublists_of({coll})', st.coll)}{cond}]"
        if st.domain == "subset":
            return (f"[{var} for {var} in _rt.subsets(tuple({coll}), "
                    f"{self.exc.ex(st.size)}, {self.em.const(st.span)}){cond}]")
        raise RuntimeRulesError("a whole grid can only be chosen in a query", st.span)

    # ------------------------------------------------------------ procedures
    def _procedure(self, name: str, params: list[str], body: list[I.Stmt]):
        lines = [f"def {name}({', '.join(_pyname(p) for p in params)}):"]
        self._block(body, lines, 1)
        self.funcs.append("\n".join(lines) + "\n")

    def _block(self, body: list[I.Stmt], lines: list[str], depth: int):
        if not body:
            lines.append("    " * depth + "pass")
        for st in body:
            self._stmt(st, lines, depth)

    def _zone_target(self, e: I.Expr) -> tuple[str, str]:
        """(variable name, seat code or 'None') of a state reference."""
        if isinstance(e, I.SeatVar):
            return e.name, self.exc.ex(e.seat)
        return e.name, "None"

    def _stmt(self, st: I.Stmt, lines: list[str], depth: int):
        pad = "    " * depth
        ex = self.exc.ex
        span = self.span_ref(st.span)
        lines.append(f"{pad}# at {span}")          # where a run-time error of these lines is
        if isinstance(st, I.Let):
            lines.append(f"{pad}{_pyname(st.name)} = {self.stored(ex(st.value), st.value)}")
        elif isinstance(st, I.Choose):
            chooser = self.em.const("random") if st.chooser == "random" else (ex(st.chooser) if st.chooser else "None")
            lines.append(f"{pad}{_pyname(st.name)} = ST.choose({self.em.const(st.name)}, {chooser}, "
                         f"{self._options(st)}, {span})")
        elif isinstance(st, I.Shuffle):
            lines.append(f"{pad}ST.shuffle({ex(st.zone)}, {span})")
        elif isinstance(st, I.Deal):
            lines.append(f"{pad}ST.deal({ex(st.count)}, {ex(st.source)}, {ex(st.target)}, {span})")
        elif isinstance(st, I.Checkpoint):
            lines.append(f"{pad}ST.checkpoint({self.em.const(st.name)})")
        elif isinstance(st, I.Note):
            lines.append(f"{pad}ST.note({self.em.const(st.name)}, {ex(st.value)}, {self.em.const(bool(st.heading))})")
        elif isinstance(st, I.Take):
            lines.append(f"{pad}ST.take({ex(st.what)}, {ex(st.source)}, {span})")
        elif isinstance(st, I.Move):
            if st.source == "values":
                lines.append(f"{pad}ST.put({ex(st.what)}, {ex(st.target)}, {span})")
            elif st.source is None:
                lines.append(f"{pad}ST.move_all({ex(st.what)}, {ex(st.target)}, {span})")
            else:
                lines.append(f"{pad}ST.move({ex(st.what)}, {ex(st.source)}, {ex(st.target)}, {span})")
        elif isinstance(st, I.Place):
            var, seat = self._zone_target(st.board)
            lines.append(f"{pad}ST.place({ex(st.card)}, {ex(st.source)}, {self.em.const(var)}, {seat}, {ex(st.at)}, "
                         f"{span})")
        elif isinstance(st, I.Pass):
            lines.append(f"{pad}ST.pass_zone({self.em.const(st.zone)}, {ex(st.direction)}, {span})")
        elif isinstance(st, I.Block):
            self._block(st.body, lines, depth)
        elif isinstance(st, I.Repeat):
            lines.append(f"{pad}for _ in _rt.times({ex(st.count)}, {span}):")
            self._block(st.body, lines, depth + 1)
        elif isinstance(st, I.For):
            lines.append(f"{pad}for {_pyname(st.var)} in {self.exc.counted(f'tuple({ex(st.coll)})', st.coll)}:")
            self._block(st.body, lines, depth + 1)
        elif isinstance(st, I.If):
            lines.append(f"{pad}if {ex(st.cond)}:")
            self._block(st.then, lines, depth + 1)
            if st.other:
                lines.append(f"{pad}else:")
                self._block(st.other, lines, depth + 1)
        elif isinstance(st, I.Do):
            lines.append(f"{pad}{_prname(st.proc)}({', '.join(ex(a) for a in st.args)})")
        elif isinstance(st, I.SetVar):
            value = self.stored(ex(st.value), st.value)
            if st.scope == "local":
                lines.append(f"{pad}{_pyname(st.name)} = {value}")
            elif st.scope == "shared":
                lines.append(f"{pad}ST.shared[{self.em.const(st.name)}] = {value}")
            else:
                lines.append(f"{pad}ST.per[{self.em.const(st.name)}][{ex(st.key)}] = {value}")
        elif isinstance(st, I.While):
            guard = self.em.fresh("w")
            lines.append(f"{pad}{guard} = 0")
            lines.append(f"{pad}while _rt.tick({span}) and ({ex(st.cond)}):")
            lines.append(f"{pad}    {guard} += 1")
            lines.append(f"{pad}    if {guard} > 1000000:")
            lines.append(f"{pad}        raise _rt.endless_while({span})")
            self._block(st.body, lines, depth + 1)
        elif isinstance(st, I.Require):
            parts = ", ".join(self.em.const(x) if isinstance(x, str) else f"_rt.Shown({ex(x)})"
                              for x in st.message or ())
            lines.append(f"{pad}if not ({ex(st.cond)}):")
            lines.append(f"{pad}    ST.refuse({self.em.const(st.name)}, lambda: ({parts},), "
                         f"{self.em.const(tuple(st.tags))}, {span})")
        elif isinstance(st, I.Report):
            if st.var is None:
                lines.append(f"{pad}ST.report({self.em.const(st.name)}, {ex(st.value)})")
            else:
                v = _pyname(st.var)
                lines.append(f"{pad}for {v} in {self.exc.counted(f'tuple({ex(st.coll)})', st.coll)}:")
                lines.append(f"{pad}    ST.report({self.em.const(st.name)}, {ex(st.value)}, {v})")
        else:
            raise RuntimeRulesError(f"'{type(st).__name__.lower()}' cannot be used here", st.span)

    # ------------------------------------------------------------ running
    def compiled(self, e: I.Expr, names: tuple[str, ...]):
        """The compiled function of an expression over the given local names (in that
        order); it reads the state and forced choices set in ``ns``."""
        key = (id(e), names)
        fn = self._eval_cache.get(key)
        if fn is None:
            body = self.exc.ex(e)
            self.ns.update(self.em.values)
            src = f"lambda {', '.join(_pyname(n) for n in names)}: {body}"
            fn = eval(compile(_vetted(src, "<rules>", "eval"), "<rules>", "eval"), self.ns)  # noqa: S307 - vetted
            self._eval_cache[key] = fn
        return fn

    def evaluate(self, e: I.Expr, env: dict[str, Any], forced: dict | None = None,
                 state: GameState | None = None):
        """Evaluate one expression with local values ``env``. ``forced`` fixes the
        choices made inside scorings (to replay a witness)."""
        names = tuple(sorted(env))
        fn = self.compiled(e, names)
        if state is not None:
            self.ns["ST"] = state
        self.ns["_FORCE"] = forced
        try:
            with rt.bounded("the expression"):
                return fn(*(env[n] for n in names))
        finally:
            self.ns["_FORCE"] = None

    def call(self, name: str, *args, state: GameState | None = None, forced: dict | None = None,
             mode: int = 1):
        """Evaluate a definition or a scoring on concrete arguments."""
        if state is not None:
            self.ns["ST"] = state
        with rt.bounded(f"'{name}'"):
            if name in self.program.scorings:
                return self.ns[_sname(name)](mode, forced, *args)
            if name in self.program.constants and not args:
                return self.program.constants[name]     # a param or a switch
            return self.ns[_fname(name)](*args)

    def run(self, procedure: str, *args, state: GameState | None = None):
        """Run one procedure of the spec on the current (or given) state."""
        if state is not None:
            self.ns["ST"] = state
        with rt.bounded(f"the procedure '{procedure}'"):
            return self.ns[_prname(procedure)](*args)

    def record(self, name: str, **fields):
        """A record value of the spec: ``record('token', owner=seat, power=3)``."""
        info = self.program.records[name]
        return info.cls(*[fields[f] for f, _ in info.fields])

    def new_state(self, seats: list[rt.Seat], seed: int | None = None, agents=None) -> GameState:
        st = GameState(self, seats, seed, agents)
        self.ns["ST"] = st
        for var in self.program.state.values():
            if var.per_seat:
                st.per[var.name] = {s: self.initial(var, s) for s in seats}
            elif var.keyed:
                st.per[var.name] = {k: self.initial(var, k) for k in self.program.enums[var.per].values}
            else:
                st.shared[var.name] = self.initial(var, None)
        return st

    def initial(self, var: I.StateVarDef, seat):
        t = var.type
        label = var.name if seat is None else f"{var.name}({getattr(seat, 'name', seat)})"
        if var.init is not None:
            value = self.compiled(var.init, ())()   # (with the constants it introduces: a record's class)
        else:
            value = None
        if isinstance(t, CollT) and t.kind == "pile":
            return rt.Zone(label, list(value or ()))
        if isinstance(t, CollT):
            return tuple(value or ())
        if isinstance(t, BoardT):
            g = self.program.grids[t.grid]
            return value if value is not None else rt.Board(g.name, g.rows, g.cols, g.floating)
        if isinstance(t, IntT):
            return value or 0
        if isinstance(t, BoolT):
            return bool(value)
        return value

    def seats_for(self, mode: I.ModeDef, players: int) -> list[rt.Seat]:
        seats = []
        for spec in mode.seats:
            if spec.name is None:
                for i in range(players):
                    seats.append(rt.Seat(len(seats), f"p{i + 1}", "player", f"Player {i + 1}"))
            else:
                seats.append(rt.Seat(len(seats), spec.name, spec.kind, spec.title or spec.name))
        return seats

    def play(self, mode_name: str, players: int, seed: int, agent_factory: Callable | None = None,
             stop_at: str | None = None, watchers: list | None = None) -> GameState:
        """Play a whole game (or up to the checkpoint ``stop_at``, 'name' or 'name:count')."""
        mode = self.program.modes[mode_name]
        seats = self.seats_for(mode, players)
        factory = agent_factory or (lambda seat, s: RandomAgent(s * 1_000_003 + seat.index))
        agents = {s.index: factory(s, seed) for s in seats if s.kind == "player"}
        st = self.new_state(seats, seed, agents)
        st.mode = mode.name
        if stop_at is not None:
            st.stop_at = stop_at if ":" in stop_at else stop_at + ":1"
        st.watchers = list(watchers or [])
        named = {s.name: s for s in seats}
        args = [named[s.name] for s in mode.seats if s.name]
        try:
            with rt.bounded("the game", GAME_STEPS):
                self.ns[_mname(mode.name)](*args)
        except StopGame as stop:
            st.stopped = str(stop)
        except Exception as exc:
            exc.game = st           # the game as far as it went (its log, for 'play --log')
            raise
        return st

    def board(self, rows: list[list[str]], grid: str | None = None) -> rt.Board:
        g = self.program.grid(grid)
        cards = {}
        for r, line in enumerate(rows):
            for c, k in enumerate(line):
                if k is not None:
                    cards[(r, c)] = k
        return rt.Board(g.name, g.rows, g.cols, g.floating, cards)


_INTERPRETERS: dict = {}


def interpreter_for(program: I.Program):
    """One compiled interpreter per program (the encoder's constant folding, the replay)."""
    hit = _INTERPRETERS.get(id(program))
    if hit is None or hit[0] is not program:
        hit = (program, Interpreter(program))
        _INTERPRETERS[id(program)] = hit
    return hit[1]
