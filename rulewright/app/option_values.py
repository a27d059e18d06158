"""What each option of a seat's choice is worth, as the rules say it: worked out by the
interpreter from the playing query (no solver). A job of the application: the terminal's
human seat shows it, and any other face that seats a person can.

In:  the program, the playing query (a query with ``play`` statements), the choice (its
     name, its options), the game state, the seat, the query's other inputs.
Out: ``option_values``: for each option the value the query maximises (or minimises)
     and the numbers it reports, with, for the thing the option makes (the last ``let``
     of a record type on the query's path, a new species say), the definitions that
     take that record and give a number and whose doc comment begins with a title
     (``/// Hearts: ...``), under that title.

How: the ``play NAME = ...`` statement of the choice says how the query's own choices
make the option (``play made = (sort(cards), place)``): the option binds them back
(kept only when the statement gives the option again). The choices the seat made
earlier in this turn bind the query's choices their ``play`` statements name. The
query's statements on the path to the ``play`` are then run in order: a ``let`` whose
values are known is worked out, a ``require`` that does not hold rules the option out,
a choice still open among a few values is tried with each (the best counts), and the
objective and the reports are read where they can be. What cannot be worked out is
left out; an option with no value keeps its place after those with one.
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass, field

from rulewright.compiler import ir as I
from rulewright.compiler.interpret import interpreter_for
from rulewright.compiler.semantics import render
from rulewright.compiler.types import IntT, RecordT, SeatT

MOST_TRIES = 400        # the assignments of open choices tried for one option
SECONDS = 3.0           # for all the options of one choice (then the rest go without values)
_UNSET = object()


@dataclass
class Worth:
    """What one option is worth: the objective (a number or a tuple of numbers) and the
    columns shown."""
    objective: object = None
    columns: dict = field(default_factory=dict)     # title -> value


@dataclass
class Values:
    columns: list[str]              # the titles, in order
    worth: list[Worth | None]       # one per option (None: not worked out)
    sense: str = "maximize"
    objective_title: str = ""

    def order(self) -> list[int]:
        """The options best first; in their own order when some have no value (an option
        that cannot be valued is not the worst)."""
        known = [i for i, w in enumerate(self.worth) if w is not None and w.objective is not None]
        if len(known) < len(self.worth):
            return list(range(len(self.worth)))
        rest: list[int] = []
        known.sort(key=lambda i: _key(self.worth[i].objective), reverse=self.sense == "maximize")
        return known + rest


def _key(v):
    return tuple(_key(x) for x in v) if isinstance(v, tuple) else (int(v) if isinstance(v, (int, bool)) else 0)


def option_values(program: I.Program, query: str | None, name: str, options: list, state, seat,
                  inputs: dict) -> Values | None:
    """The worth of each option by the playing query; None when the query does not play
    this choice or nothing could be worked out."""
    if query is None or query not in program.queries:
        return None
    q = program.queries[query]
    plays = [st for st in I.statements(q.body) if isinstance(st, I.Play) and st.name == name]
    if not plays:
        return None
    run = _Run(program, q, name, state, seat, inputs)
    started = time.perf_counter()
    worth: list[Worth | None] = []
    for option in options:
        if time.perf_counter() - started > SECONDS:
            worth.append(None)
            continue
        worth.append(run.option(option, plays))
    found = [w for w in worth if w is not None]
    if not found:
        return None
    columns: list[str] = []
    for w in found:
        for k in w.columns:
            if k not in columns:
                columns.append(k)
    titled = columns
    if not titled and run.objective_title:
        # no number reported: the objective is the column
        for w in found:
            if w.objective is not None:
                w.columns[run.objective_title] = w.objective
        titled = [run.objective_title]
    return Values(titled, worth, run.sense, run.objective_title)


def cells(values: Values, i: int) -> list[str]:
    """The columns of one option, as text."""
    w = values.worth[i]
    if w is None:
        return ["" for _ in values.columns]
    return [render.text(w.columns[c]) if c in w.columns else "" for c in values.columns]


class _Run:
    def __init__(self, program, q, name, state, seat, inputs):
        self.program = program
        self.q = q
        self.name = name
        self.state = state
        self.interp = interpreter_for(program)
        self.sense = "maximize"
        self.objective_title = ""
        self.base: dict = {}
        for st in q.body:
            if isinstance(st, I.Input):
                if st.name in inputs:
                    self.base[st.name] = inputs[st.name]
                elif isinstance(st.type, SeatT):
                    self.base[st.name] = seat
                elif st.default is not None:
                    v = self._eval(st.default, {})
                    if v is not _UNSET:
                        self.base[st.name] = v
        # the choices the seat made earlier in this turn, by the query's names for them
        self.earlier: dict = {}
        made = _this_turn(state, seat)
        for st in I.statements(q.body):
            if isinstance(st, I.Play) and isinstance(st.value, I.Local) and st.name in made \
                    and st.name != name:
                self.earlier.setdefault(st.value.name, made[st.name])
        self.measures = _titled_measures(program)

    def _eval(self, e, env):
        try:
            return self.interp.evaluate(e, env, state=self.state)
        except Exception:       # noqa: BLE001 (what cannot be worked out here is left out)
            return _UNSET

    def option(self, option, plays) -> Worth | None:
        best = None
        for play in plays:
            env = dict(self.base)
            bound = _bind(play.value, option)
            if bound is None:
                continue
            env.update(bound)
            if self._eval(play.value, env) != option:
                continue        # the statement does not give the option back from these values
            self.tries = 0
            for w in self._walk(list(self.q.body), env, None, Worth()):
                if w.objective is None:
                    continue
                k = _key(w.objective)
                if best is None or (k > _key(best.objective) if self.sense == "maximize" else
                                    k < _key(best.objective)):
                    best = w
        return best

    def _walk(self, todo: list, env: dict, made, found: Worth):
        """The worth at the end of each path through ``todo`` (a generator)."""
        while todo:
            st = todo.pop(0)
            if isinstance(st, I.Let):
                if st.name not in env:
                    v = self._eval(st.value, env)
                    if v is not _UNSET:
                        env[st.name] = v
                        if isinstance(st.value.type, RecordT):
                            made = (st.value.type.name, v)
            elif isinstance(st, I.Choose):
                if st.name in env:
                    if st.domain == "element" and st.coll is not None:
                        coll = self._eval(st.coll, env)
                        if coll is not _UNSET and env[st.name] not in coll:
                            return      # a value this choice of the query does not take
                    if st.where is not None and self._eval(st.where, env) is False:
                        return
                    continue
                if st.name in self.earlier and st.coll is not None and st.domain == "element":
                    coll = self._eval(st.coll, env)
                    hit = [x for x in (coll if coll is not _UNSET else ())
                           if render.jsonable(x, state=True) == self.earlier[st.name]]
                    if hit:
                        env[st.name] = hit[0]
                    continue
                if st.domain != "element" or st.coll is None:
                    continue
                coll = self._eval(st.coll, env)
                if coll is _UNSET:
                    continue
                for x in dict.fromkeys(coll):
                    if self.tries >= MOST_TRIES:
                        return
                    self.tries += 1
                    inner = {**env, st.name: x}
                    if st.where is not None and self._eval(st.where, inner) is False:
                        continue
                    yield from self._walk(list(todo), inner, made, Worth(found.objective, dict(found.columns)))
                return
            elif isinstance(st, I.Require):
                if self._eval(st.cond, env) is False:
                    return
            elif isinstance(st, I.Objective):
                v = self._eval(st.value, env)
                self.sense = st.sense
                if v is not _UNSET:
                    found.objective = v
                    names = self._eval(st.names, env) if st.names is not None else _UNSET
                    self.objective_title = _objective_title(st, names)
            elif isinstance(st, I.Report):
                if st.var is None:
                    v = self._eval(st.value, env)
                    if v is not _UNSET and _shown(v):
                        found.columns[render.words(st.name).capitalize()] = v
            elif isinstance(st, I.If):
                cond = self._eval(st.cond, env)
                if cond is True or cond is False:
                    todo = list(st.then if cond else st.other) + todo
                elif _plays(st.then, self.name):
                    todo = list(st.then) + todo
                elif _plays(st.other, self.name):
                    todo = list(st.other) + todo
            elif isinstance(st, I.Block):
                todo = list(st.body) + todo
        if found.objective is None:
            return
        out = Worth(found.objective, dict(found.columns))
        if made is not None:
            for title, fn in self.measures.get(made[0], []):
                try:
                    out.columns.setdefault(title, int(self.interp.call(fn, made[1], state=self.state)))
                except Exception:       # noqa: BLE001 (left out)
                    pass
        yield out


def _bind(e, value) -> dict | None:
    """The query's values that make ``e`` give ``value``: a local is the value; a tuple
    its parts; a sort (or a first) of a local the value itself. None when ``e`` is
    another expression."""
    if isinstance(e, I.Local):
        return {e.name: value}
    if isinstance(e, I.Op) and e.op == "make_tuple" and isinstance(value, tuple) and len(value) == len(e.args):
        out: dict = {}
        for a, v in zip(e.args, value):
            part = _bind(a, v)
            if part is None:
                return None
            out.update(part)
        return out
    if isinstance(e, I.Op) and e.op == "sort" and len(e.args) == 1:
        return _bind(e.args[0], value)
    return None


def _plays(stmts, name: str) -> bool:
    return any(isinstance(st, I.Play) and st.name == name for st in I.statements(stmts))


def _shown(v) -> bool:
    return isinstance(v, (int, bool, str)) and len(str(v)) <= 40


def _objective_title(st: I.Objective, names) -> str:
    if isinstance(names, tuple) and names:
        return render.words(str(names[0]))
    if isinstance(names, str):
        return render.words(names)
    if isinstance(st.value, I.Call):
        return render.words(st.value.name)
    return "value"


def _this_turn(state, seat) -> dict:
    """The choices this seat made since the game's last checkpoint: name -> value as logged."""
    out: dict = {}
    for e in reversed(state.log):
        if e.kind == "checkpoint":
            break
        if e.kind == "choose" and e.seat == seat.name:
            out.setdefault(e.detail["choice"], e.detail["value"])
    return out


_TITLE = re.compile(r"^([A-Z][\w' -]{0,40}?):\s")


def _titled_measures(program) -> dict[str, list[tuple[str, str]]]:
    """Record type -> (title, definition): the definitions of one parameter of that
    record type that give a whole number and whose doc comment opens with a title."""
    out: dict[str, list] = {}
    for f in program.funcs.values():
        if f.kind != "def" or len(f.params) != 1 or not isinstance(f.type, IntT):
            continue
        (_, t), = f.params
        m = _TITLE.match(" ".join((getattr(f.node, "doc", "") or "").split()))
        if isinstance(t, RecordT) and m and len(m.group(1).split()) <= 4:
            out.setdefault(t.name, []).append((m.group(1), f.name))
    return out
