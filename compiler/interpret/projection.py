"""Definitions that read only some columns of the cards they are given: remembered by
those columns, not by the cards (``projections``).

A definition such as "do these cards make a valid group" may be asked of thousands of
groups of the cards a seat holds, most of them new, so a memo keyed by the cards rarely
hits. But when the definition only ever reads a few columns of each card, two groups
whose cards agree on those columns, in the same order, get the same answer: the memo
can be keyed by the columns' values instead, and hits.

In:  the checked program.
Out: for each definition where that holds, which of its parameters (collections of an
     enum's values, or one value) are read only through columns, and for each the
     class of every value of the enum (values that agree on every column read share a
     class); which record parameters are read only through fields, and which fields.
     ``compiler/interpret/memo.py`` keys the memo by the classes, or the fields.

What "read only through columns" means, followed through the definitions it calls
(``_Blind``): a value of the parameter (an element) may be read by a column (``k.part``)
and nothing else (not compared, not put in a set, not sorted, not returned); the
collection may be gone over by an aggregate, measured (``size``), or handed to a
definition that reads it in the same way; a list made of its elements (a filter) is
such a collection again; and what the definition returns holds none of them. Anything
else (an operator not named here, a value compared, a set made of the elements, a
definition that reads the state) and the parameter is keyed as before.

A record given to a definition that reads only some of its fields (``r.kind``, ``r.place``),
followed the same way (the record itself not compared, returned, put in a collection or
copied with changes), is keyed by those fields' values: a record whose counters changed is
still the same record to a definition that reads only its kind. (Those keys serve the
memo of the definitions that read the state too, which is cleared whenever the state may
change.)

Where, besides, nothing the definition does depends on the order of the collection (it
is counted, summed, asked whether any or all, or made into lists and sets that are only
measured or asked for a member) and nothing it does can fail (only operators that
cannot raise an error, in it and in every definition it calls, and those that fail on
none only on values that cannot be none: an error met in one order and passed by in
another would otherwise be remembered away; nor an ``any``/``all`` over the collection
that stops before loops or calls another order would run, whose steps count against
the budget), the memo is keyed by the classes sorted: a group of cards and the same
cards in another order share one value. (An independent review found three ways the
first version of these rules was wrong: the cards as ``allocate``'s claimants, a column
that some card lacks compared, the budget; each is a test in
``tests/interpret/test_projection.py``.)
"""
from __future__ import annotations

import operator
from typing import Any

from rulewright.compiler import ir as I
from rulewright.compiler.semantics.operators import AGGREGATES
from rulewright.compiler.types import CollT, EnumT, RecordT

# what a value of an expression holds of the parameter followed: nothing, one of its
# values, a collection of them (in its order), or (followed only when the order is
# asked about) a value of none of them whose order follows the parameter's
CLEAN, ELEM, COLL, ORD = "clean", "elem", "coll", "ord"

# what may be followed when the order is asked about: operators that cannot fail, and
# aggregates whose value does not depend on the order they go over (a list or a set
# does, as ORD)
_SAFE_OPS = frozenset({"attr", "size", "eq", "ne", "lt", "le", "gt", "ge", "and", "or", "not", "in", "not_in",
                       "if", "add", "sub", "mul", "neg"})
_FREE_AGGS = frozenset({"count", "sum", "any", "all", "distinct", "list", "set"})
# ... of which these fail on an operand that is none (or, ``in``, a collection that is): their
# operands must be values that cannot be none (``_Blind.sure``)
_NONE_FAILS = frozenset({"lt", "le", "gt", "ge", "add", "sub", "mul", "neg", "size"})


class _Refused(Exception):
    """The parameter is read otherwise than through columns."""


class _Blind:
    """The columns a definition's parameter is read through, followed into the
    definitions it is handed to; ``_Refused`` where it is read otherwise."""

    def __init__(self, program: I.Program, free: bool = False, records: bool = False):
        self.program = program
        self.free = free            # (also: the order does not matter, and nothing fails)
        self.records = records      # (the parameter is a record, read through its fields)
        self.done: dict[tuple[str, int, str], tuple[frozenset, str] | None] = {}
        self.open: set[tuple[str, int, str]] = set()
        self.safe_defs: dict[str, bool] = {}
        self.sure_defs: dict[str, bool] = {}

    def param(self, name: str, index: int, kind: str) -> tuple[frozenset, str]:
        """(columns read, what the result holds) of definition ``name`` whose parameter
        ``index`` holds ``kind`` (an element, or a collection of elements)."""
        key = (name, index, kind)
        if key in self.done:
            found = self.done[key]
            if found is None:
                raise _Refused()
            return found
        if key in self.open:            # (a definition that calls itself: not followed)
            raise _Refused()
        fd = self.program.funcs.get(name)
        if fd is None or fd.body is None or index >= len(fd.params):
            raise _Refused()
        self.open.add(key)
        try:
            columns: set = set()
            held = self.expr(fd.body, {fd.params[index][0]: kind}, columns)
            self.done[key] = (frozenset(columns), held)
        except _Refused:
            self.done[key] = None
            raise
        finally:
            self.open.discard(key)
        return self.done[key]

    def expr(self, e: I.Expr, env: dict[str, str], columns: set) -> str:
        if isinstance(e, I.Local):
            return env.get(e.name, CLEAN)
        if isinstance(e, (I.Const, I.Global, I.SeatVar)):
            if isinstance(e, I.SeatVar):
                self.clean(e.seat, env, columns)
            if self.free and isinstance(e, I.Global) and e.name in self.program.funcs and not self.safe(e.name):
                raise _Refused()
            return CLEAN
        if isinstance(e, I.Call):
            return self.call(e, env, columns)
        if isinstance(e, I.Op):
            return self.op(e, env, columns)
        if isinstance(e, I.Agg):
            return self.agg(e, env, columns)
        raise _Refused()

    def clean(self, e: I.Expr | None, env, columns) -> None:
        if e is not None and self.expr(e, env, columns) != CLEAN:
            raise _Refused()

    def call(self, e: I.Call, env, columns) -> str:
        held = [self.expr(a, env, columns) for a in e.args]
        if all(h == CLEAN for h in held):
            if self.free and not self.safe(e.name):
                raise _Refused()
            return CLEAN
        out = CLEAN
        for i, h in enumerate(held):
            if h != CLEAN:
                read, result = self.param(e.name, i, h)
                columns |= read
                out = _join(out, result)
        return out

    def op(self, e: I.Op, env, columns) -> str:
        if self.records and e.op == "field" and isinstance(e.data, str) and len(e.args) == 1:
            if self.expr(e.args[0], env, columns) == ELEM:
                columns.add(str(e.data))         # (a record's field: its value is clean)
                return CLEAN
            self.clean(e.args[0], env, columns)
            return CLEAN
        if e.op == "attr" and isinstance(e.data, dict) and len(e.args) == 1:
            held = self.expr(e.args[0], env, columns)
            if held == ELEM:
                columns.add(e.data)
                return CLEAN
            if held != CLEAN:
                raise _Refused()
            return CLEAN
        if self.free and (e.op not in _SAFE_OPS
                          or e.op in _NONE_FAILS and not all(self.sure(a, env) for a in e.args)
                          or e.op in ("in", "not_in") and not self.sure(e.args[-1], env)):
            raise _Refused()
        if e.op == "size" and len(e.args) == 1:
            if self.expr(e.args[0], env, columns) == ELEM:
                raise _Refused()
            return CLEAN
        if e.op == "if":
            self.clean(e.args[0], env, columns)
            return _join(self.expr(e.args[1], env, columns), self.expr(e.args[2], env, columns))
        if e.op in ("in", "not_in") and len(e.args) == 2:
            self.clean(e.args[0], env, columns)
            if self.expr(e.args[1], env, columns) not in (CLEAN, ORD):
                raise _Refused()            # (a value looked for among the parameter's own)
            return CLEAN
        for a in e.args:
            self.clean(a, env, columns)
        return CLEAN

    def agg(self, e: I.Agg, env, columns) -> str:
        if self.free and e.func not in _FREE_AGGS:
            raise _Refused()
        inner = dict(env)
        ordered = False             # (gone over in the parameter's order)
        for b in e.binders:
            held = self.expr(b.coll, inner, columns)
            if held == ELEM or self.free and not self.sure(b.coll, inner):
                raise _Refused()
            ordered = ordered or held != CLEAN
            inner[b.var] = ELEM if held == COLL else CLEAN
            self.clean(b.cond, inner, columns)
        if "{var}" in AGGREGATES[e.func].py and any(inner[b.var] == ELEM for b in e.binders):
            raise _Refused()        # (the values themselves are its claimants: allocate)
        if self.free and ordered and e.func in ("any", "all") and any(
                isinstance(x, (I.Agg, I.Call)) for part in [e.elem] + [b.cond for b in e.binders]
                for x in I.descendants([part] if part is not None else [])):
            raise _Refused()        # (stopping early, in one order, before work another order does:
            #                          its steps, counted against the budget, would differ)
        self.clean(e.key, inner, columns)
        self.clean(e.supply, env, columns)
        if self.free and e.func == "sum" and not self.sure(e.elem, inner):
            raise _Refused()
        held = self.expr(e.elem, inner, columns)
        if held == CLEAN:
            return ORD if self.free and ordered and e.func in ("list", "set") else CLEAN
        if held == ELEM and e.func == "list":
            return COLL             # the elements kept, in the order gone over
        raise _Refused()

    def sure(self, e: I.Expr | None, env: dict[str, str]) -> bool:
        """Whether a value cannot be none (so an operator that fails on none does not fail
        on it): a value of the parameter, a constant, a column every value of its enum has,
        of such a value; numbers and truth values made of them; aggregates' values."""
        if isinstance(e, I.Const):
            return e.value is not None
        if isinstance(e, I.Local):
            return env.get(e.name) in (ELEM, COLL)
        if isinstance(e, I.Agg):
            return True             # (a number, a truth value, a list or a set)
        if isinstance(e, I.Call):
            return self.sure_def(e.name)
        if not isinstance(e, I.Op):
            return False
        if e.op == "attr":
            data, enum = e.data, self.program.enums.get(getattr(e.data, "enum", None))
            return (isinstance(data, dict) and enum is not None and self.sure(e.args[0], env)
                    and all(data.get(v) is not None for v in enum.values))
        if e.op in ("add", "sub", "mul", "neg"):
            return all(self.sure(a, env) for a in e.args)
        if e.op == "if":
            return self.sure(e.args[1], env) and self.sure(e.args[2], env)
        return e.op in ("eq", "ne", "lt", "le", "gt", "ge", "and", "or", "not", "in", "not_in", "size")

    def sure_def(self, name: str) -> bool:
        """Whether what a definition gives cannot be none (its body, its parameters unknown)."""
        if name not in self.sure_defs:
            fd = self.program.funcs.get(name)
            self.sure_defs[name] = False            # (until shown)
            self.sure_defs[name] = fd is not None and fd.body is not None and self.sure(fd.body, {})
        return self.sure_defs[name]

    def safe(self, name: str) -> bool:
        """Whether a definition (and all it calls) uses only what cannot fail."""
        if name not in self.safe_defs:
            fd = self.program.funcs.get(name)
            self.safe_defs[name] = False            # (until shown: a definition calling itself is not)
            ok = fd is not None and fd.body is not None
            if ok:
                try:
                    self.expr(fd.body, {}, set())
                except _Refused:
                    ok = False
            self.safe_defs[name] = ok
        return self.safe_defs[name]


def _join(a: str, b: str) -> str:
    """What an ``if`` holds of the parameter, from what its branches hold: a value that
    holds none of it is read the same way as one that does (by columns alone)."""
    if a == CLEAN:
        return b
    if b == CLEAN or a == b:
        return a
    raise _Refused()


def projections(program: I.Program) -> dict[str, dict[int, tuple[str, Any]]]:
    """Definition name -> {parameter index -> (how it is keyed: "one" value, a collection
    "in order" or in "any order"; the class of each value of its enum) or ("fields", what
    reads a record's fields as a key)}, for the parameters a definition reads only through
    columns or fields and whose values it does not return (what the memo may key by)."""
    blind, free, fields = _Blind(program), _Blind(program, free=True), _Blind(program, records=True)
    out: dict[str, dict[int, tuple[str, Any]]] = {}
    made: dict = {}         # (enum, the columns read) -> the classes (shared by the definitions)
    for name, fd in program.funcs.items():
        for index, (_, t) in enumerate(fd.params):
            if isinstance(t, RecordT):
                try:
                    read, result = fields.param(name, index, ELEM)
                except _Refused:
                    continue
                if result == CLEAN:
                    out.setdefault(name, {})[index] = ("fields", _getter(sorted(read)))
                continue
            elem = t.elem if isinstance(t, CollT) else t
            if not isinstance(elem, EnumT) or elem.name not in program.enums:
                continue
            kind = COLL if isinstance(t, CollT) else ELEM
            try:
                read, result = blind.param(name, index, kind)
            except _Refused:
                continue
            if result != CLEAN:
                continue
            how = "one" if kind == ELEM else "in order"
            if kind == COLL:
                try:
                    if free.param(name, index, kind)[1] == CLEAN:
                        how = "any order"
                except _Refused:
                    pass
            key = (elem.name, frozenset(id(c) for c in read))
            if key not in made:
                made[key] = classes(program.enums[elem.name].values, read)
            out.setdefault(name, {})[index] = (how, made[key])
    return out


def _getter(names: list[str]):
    """The values of a record's fields ``names``, as a key (one value, a tuple of them, or ())."""
    if not names:
        return lambda record: ()
    return operator.attrgetter(*names)


def classes(values, columns) -> dict:
    """Each value -> a small number, the same for values that agree on every column."""
    ordered = sorted(columns, key=lambda c: (getattr(c, "column", ""), id(c)))
    seen: dict = {}
    out = {}
    for v in values:
        found = tuple(c.get(v) for c in ordered)
        try:
            out[v] = seen.setdefault(found, len(seen))
        except TypeError:           # (a column value that cannot be hashed: by what it shows)
            out[v] = seen.setdefault(repr(found), len(seen))
    return out
