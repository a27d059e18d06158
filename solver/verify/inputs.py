"""Random members of a check's domain, drawn and filtered by the interpreter: the inputs a
check samples when the solver leaves a question open (or cannot express it).

In:  a program, the domain's statements (the ``choose``, ``let`` and ``require`` a check
     ranges over: ``proofs.domain_of``), a random generator, a position or none.
Out: ``draw``: one member of the domain (the values of its names), or None when the draw
     broke one of its conditions (the caller draws again); ``differences``: the first
     input on which two programs' definitions disagree, each value computed by its own
     interpreter (a witness replayed by construction).
"""
from __future__ import annotations

import random
import time
from typing import Any

from rulewright.compiler import ir as I
from rulewright.compiler.diagnostics import RulesError
from rulewright.compiler.interpret import interpreter_for
from rulewright.compiler.semantics import runtime as rt
from rulewright.compiler.types import BoardT, BoolT, EnumT


class _Rejected(Exception):
    """A draw that breaks a condition of the domain."""


def draw(program: I.Program, body: list[I.Stmt], rng: random.Random, state=None) -> dict[str, Any] | None:
    """One random member of the domain ``body`` (its names' values), or None when the draw
    breaks one of its conditions or holds a choice this sampler cannot draw."""
    interp = interpreter_for(program)
    env: dict[str, Any] = {}
    try:
        for st in body:
            _step(interp, program, st, env, rng, state)
    except (_Rejected, RulesError):
        return None
    return env


def _step(interp, program, st, env, rng, state) -> None:
    if isinstance(st, I.Let):
        env[st.name] = interp.evaluate(st.value, env, state=state)
    elif isinstance(st, I.Require):
        if not interp.evaluate(st.cond, env, state=state):
            raise _Rejected
    elif isinstance(st, I.Choose):
        env[st.name] = _chosen(interp, program, st, env, rng, state)
        if st.where is not None and not interp.evaluate(st.where, env, state=state):
            raise _Rejected
    else:
        raise _Rejected         # (a statement no domain holds: not drawn)


def _chosen(interp, program, st: I.Choose, env, rng, state):
    if st.domain in ("element", "subset"):
        items = rt.as_tuple(interp.evaluate(st.coll, env, state=state))
        if st.domain == "element":
            if not items:
                raise _Rejected
            return items[rng.randrange(len(items))]
        return tuple(sorted((x for x in items if rng.random() < 0.5), key=repr))
    t = st.type
    if isinstance(t, BoolT):
        return rng.random() < 0.5
    if isinstance(t, EnumT) and t.name in program.enums:
        return rng.choice(program.enums[t.name].values)
    if isinstance(t, BoardT) and t.grid in program.grids:
        grid = program.grid(t.grid)
        cards = program.enums[grid.cell_enum].values
        free = rng.choice((0.0, 0.0, 0.25, 0.6))        # (full grids half the time: rules often ask for one)
        placed = {cell: rng.choice(cards) for cell in grid.cells if rng.random() >= free}
        return rt.Board(grid.name, grid.rows, grid.cols, grid.floating, placed)
    raise _Rejected


def differences(variant: I.Program, base: I.Program, name: str, params, body: list[I.Stmt], seconds: float,
                state_v=None, state_b=None, seed: int = 0, most: int = 5_000):
    """(witness, (variant value, base value), draws) of the first random member of the
    domain on which ``name`` gives different values in the two programs, each computed by
    its own interpreter; (None, None, draws) when none is found within ``seconds`` or
    ``most`` draws. A draw that fails in either program is passed over."""
    rng = random.Random(seed)
    iv, ib = interpreter_for(variant), interpreter_for(base)
    until = time.perf_counter() + seconds
    draws = 0
    while draws < most and time.perf_counter() < until:
        env = draw(variant, body, rng, state_v)
        draws += 1
        if env is None or any(p not in env for p, _ in params):
            continue
        args = [env[p] for p, _ in params]
        try:
            a = _value(iv.call(name, *args, state=state_v))
            b = _value(ib.call(name, *args, state=state_b))
        except RulesError:
            continue
        if a != b:
            return {p: env[p] for p, _ in params}, (a, b), draws
    return None, None, draws


def _value(v):
    return int(v) if isinstance(v, rt.Score) else v
