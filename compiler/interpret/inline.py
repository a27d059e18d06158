"""Definitions written into the definitions that call them, and a call made twice made once.

In:  a checked program (``ir.Program``) and one of its definitions.
Out: ``Inliner.body(fd)``: the definition's body with each call of a small definition that
     has no loop of its own replaced by that definition's body, its parameters by the
     call's arguments; ``shared_calls(fd, body)``: the calls of that body made more than
     once with the same arguments, which the generated code evaluates at their first use
     and remembers for the rest of the one evaluation.

Both keep what a definition computes. A call is written in only where every argument is
a name or a constant (so nothing is evaluated more or less often than before, and nothing
can fail that did not); a body written in has no aggregate, so it binds no name that could
capture an argument; the substituted names keep the parameter's type, so the code made of
the called body is the code it had. A definition is a function of its arguments and of
the state, and the state does not change while one is evaluated: a call with the same
arguments in the same evaluation has the same value.
"""
from __future__ import annotations

from dataclasses import replace

from rulewright.compiler import ir as I

MOST_NODES = 60         # a called body written in is at most this big
MOST_DEPTH = 4          # definitions written into definitions written into ... at most


def _flat(bodies) -> list:
    out = []
    for b in bodies:
        if isinstance(b, (list, tuple)):
            out += list(b)
        elif b is not None:
            out.append(b)
    return out


def _binds(e: I.Expr) -> set[str]:
    return {b.var for x in I.descendants([e]) if isinstance(x, I.Agg) for b in x.binders}


class Inliner:
    def __init__(self, program: I.Program):
        self.program = program
        self._small: dict[tuple, bool] = {}
        self._loops = False         # (inside ``filter``: bodies with loops may be written in)
        bodies = [fd.body for fd in program.funcs.values() if fd.body is not None]
        bodies += [pd.body for pd in program.procedures.values()] + [md.body for md in program.modes.values()]
        bodies += [st for sd in program.scorings.values() for step in sd.steps for st in step.body]
        self.sites: dict[str, int] = {}     # how many calls of each definition the program writes
        for x in I.descendants(_flat(bodies)):
            if isinstance(x, I.Call):
                self.sites[x.name] = self.sites.get(x.name, 0) + 1

    def _writable(self, name: str) -> bool:
        """A definition whose body may be written into its callers: an expression with
        no aggregate (a loop) and few nodes, called from one place only or calling at most
        one definition itself (as ``memo.memoize``, which gives no memo to such a one: a
        definition called from several places keeps its memo). In a choice's filter
        (``filter``), one with loops too, where no name a loop binds hides a parameter and
        it calls no definition (a loop that calls one is worth the memo it would lose:
        ``destinations(s)``, asked again by the choice after it, and before by the actions
        open to the seat)."""
        key = (name, self._loops)
        known = self._small.get(key)
        if known is None:
            fd = self.program.funcs.get(name)
            body = fd.body if fd is not None else None
            inside = list(I.descendants([body])) if body is not None else []
            loops = not any(isinstance(x, I.Agg) for x in inside) or \
                (self._loops and not _binds(body) & {p for p, _ in fd.params}
                 and not any(isinstance(x, I.Call) for x in inside))
            known = body is not None and bool(fd.params) and len(inside) <= MOST_NODES and loops and \
                (self.sites.get(name, 0) == 1 or sum(isinstance(x, I.Call) for x in inside) <= 1)
            self._small[key] = known
        return known

    def body(self, fd: I.FuncDef) -> I.Expr:
        """``fd``'s body with the small definitions it calls written in; ``written`` then holds,
        by identity, each body written in, the span of its definition's rule (where an error
        inside it is located: ``ExprCompiler.ex`` marks its lines) and the span of the call
        it takes the place of: the code made of it judges it as the call it is written as (a
        loop over it counts its steps there, and no shortcut takes it for the test it is)."""
        self.written: dict[int, tuple[I.Expr, object, object]] = {}
        return self._expr(fd.body, (fd.name,), {})

    def filter(self, e: I.Expr) -> I.Expr:
        """A choice's filter (run for each option) with the calls it may write in written in,
        as ``body`` writes a definition's (``written`` as there), and besides calls of
        definitions with loops of their own where no name a loop binds hides a parameter
        or an argument: the test of each cell a card may go to, ``can_place(board, spot)``,
        made in place rather than by a call for each cell."""
        self.written = {}
        self._loops = True
        try:
            return self._expr(e, (), {})
        finally:
            self._loops = False

    def _expr(self, e: I.Expr, within: tuple[str, ...], given: dict[str, I.Expr]) -> I.Expr:
        """``e`` with the calls it may write in written in (``within``: the definitions being
        written, outermost first) and each name of ``given`` replaced by its value (a call's
        argument: a name or a constant of the caller, left as it is)."""
        if e is None or isinstance(e, (I.Const, I.Global)):
            return e
        if isinstance(e, I.Local):
            if e.name not in given:
                return e
            # (in a filter, a loop written in counts its steps at its own collection, as
            # the definition's loop does: the argument takes the parameter's place)
            return replace(given[e.name], span=e.span) if self._loops else given[e.name]
        if isinstance(e, I.SeatVar):
            return replace(e, seat=self._expr(e.seat, within, given))
        if isinstance(e, I.Op):
            return replace(e, args=[self._expr(a, within, given) for a in e.args])
        if isinstance(e, I.Agg):
            return replace(e, elem=self._expr(e.elem, within, given), key=self._expr(e.key, within, given),
                           supply=self._expr(e.supply, within, given),
                           binders=[replace(b, coll=self._expr(b.coll, within, given),
                                            cond=self._expr(b.cond, within, given)) for b in e.binders])
        if isinstance(e, I.Call):
            args = [self._expr(a, within, given) for a in e.args]
            if e.name in within or len(within) > MOST_DEPTH or not self._writable(e.name) \
                    or not all(isinstance(a, (I.Const, I.Local)) for a in args):
                return replace(e, args=args)
            fd = self.program.funcs[e.name]
            if _binds(fd.body) & {a.name for a in args if isinstance(a, I.Local)}:
                return replace(e, args=args)        # (a loop of the body would hide an argument)
            if _binds(fd.body) and not all(isinstance(a, I.Local) for a in args):
                # (a constant in a parameter's place could make a loop over it one of a few
                # constant values, which is not counted: codegen.few_steps)
                return replace(e, args=args)
            out = self._expr(fd.body, within + (e.name,),
                             {p: replace(a, type=t) for (p, t), a in zip(fd.params, args)})
            if not isinstance(out, (I.Op, I.SeatVar, I.Call, I.Agg)):
                out = replace(out)      # (a name, a constant, a state read: a node of its own)
            # (a body that is itself a call written in is that call's body: its rule is the
            # innermost definition's, recorded first, where the baseline locates an error
            # inside; its call is the outermost, recorded last, where a loop over it counts)
            known = self.written.get(id(out))
            self.written[id(out)] = (out, known[1] if known else fd.body.span, e.span)
            return out
        return e


def shared_calls(program: I.Program, params: list[str], body: I.Expr, const) -> dict[int, str]:
    """The calls of ``body`` (a definition's, ``params`` its parameters) that one evaluation
    makes more than once with the same arguments, and the records it makes more than once
    from the same values (``_MADE``: making one cannot fail): written at least twice, or once inside
    a loop (the parts of an aggregate run for each value: its filters, its element, its
    key, the collections of its later binders). Each argument is made of constants,
    parameters that no binder of the body hides, the state, operators and other calls,
    and holds no aggregate: so it has one value for the whole evaluation, and so has the
    call. ``id(call node) -> the name of the local that remembers its value``. ``const``
    names a constant's value in the generated code (the arguments' key)."""
    if _binds(body) & set(params):
        return {}
    names = set(params)
    groups: dict[tuple, list[I.Call]] = {}
    again: set[int] = set()
    for x, repeated in _reached([body], False):
        if not (isinstance(x, I.Call) and x.name in program.funcs or isinstance(x, I.Op) and x.op in _MADE):
            continue
        key = _shape(x, names, const)
        if key is not None:
            groups.setdefault(key, []).append(x)
            if repeated:
                again.add(id(x))
    out: dict[int, str] = {}
    shared = (c for c in groups.values() if len(c) > 1 or id(c[0]) in again)
    for i, calls in enumerate(shared):
        for c in calls:
            out[id(c)] = f"_c{i}"
    return out


# records made (a new one, or one with some fields changed): made once where a definition
# makes the same one twice (a definition written in for each use: a record judged, then
# put in the collection it is judged among)
_MADE = ("new_record", "with")


def _reached(nodes, repeated: bool):
    """Every expression inside ``nodes``, each with whether one evaluation may reach it more
    than once (it lies in a part of an aggregate that runs for each value)."""
    for e in nodes:
        if e is None:
            continue
        yield e, repeated
        if isinstance(e, I.Agg):
            first, *rest = e.binders
            yield from _reached([first.coll, e.supply], repeated)
            yield from _reached([first.cond, e.elem, e.key], True)
            for b in rest:
                yield from _reached([b.coll, b.cond], True)
        else:
            yield from _reached(I.children(e), repeated)


def _shape(e: I.Expr, params: set[str], const):
    """A key equal for two expressions written alike that have one value for a whole
    evaluation (constants, parameters, the state, operators and calls of them); None for
    one that reads a name bound inside the body or holds an aggregate."""
    if isinstance(e, I.Const):
        return ("value", const(e.value))
    if isinstance(e, I.Local):
        return ("name", e.name) if e.name in params else None
    if isinstance(e, I.Global):
        return ("global", e.name)
    parts: tuple = ()
    if isinstance(e, I.SeatVar):
        parts, args = ("per", e.name), [e.seat]
    elif isinstance(e, I.Op):
        data = e.data if e.data is None or type(e.data) in (bool, int, str) \
            or type(e.data) is tuple and all(type(x) is str for x in e.data) else ("at", id(e.data))
        parts, args = ("op", e.op, data), e.args
    elif isinstance(e, I.Call):
        parts, args = ("call", e.name, e.mode), e.args
    else:
        return None
    for a in args:
        shape = _shape(a, params, const)
        if shape is None:
            return None
        parts += (shape,)
    return parts
