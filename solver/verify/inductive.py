"""Invariants proved by induction: an invariant that holds before the first step of a game
and that every step changing what it reads keeps holds in every position of every game.

In:  a checked program, the time limit of each question.
Out: for each invariant, an ``Induction``: proved (the steps that keep it, the values it
     starts from) or the reason it is not (what it reads that the proof does not take, the
     step that may break it and from which position, replayed by the interpreter).

How: the statements of every procedure and mode are walked once, keeping what is known at
each point (the conditions of the ``if`` and ``while`` around it, ``require``d
conditions, values ``let`` and ``set`` earlier, the collection a loop or a choice takes
its value from), each fact dropped as soon as a statement may change what it reads (a
procedure called: everything it changes). A run of ``set`` statements one after another is one step (no
choice and no checkpoint comes between them). For each step that changes a value the
invariant reads, CP-SAT is asked for a position where the invariant holds, the facts
hold, and after the step it does not: none (the search closed) means the step keeps it.
The position's values are free over their type, so the proof covers more positions than
the rules reach: a step that keeps the invariant only because of something the walk does
not know is left unproved, and the invariant stays SAMPLED with that step as the reason.
Numbers, though, range within ``±NUMBERS`` only (CP-SAT's search slows with the width of
a number's domain): a proof that ranged over a number says so in its claim ("every game
whose numbers stay within ±100,000"), and a game whose numbers grow past that is not
covered. The proof takes numbers, truth values and values of an enum or table kept once
for the whole game, through expressions that compute a value from any operands
(``TOTAL``: no division, ``first()``, lookup or field, which may not be computable or be
none and whose undefined cases the encoder would leave out, and no scoring; nor a
variable some step sets to such a value), locals only where the walk knows their values
(a procedure's parameters are not), and steps that cannot stop halfway (after a step's
first change to what the invariant reads, only ``SURE`` operators of known values); an
invariant reading anything else (a list, a pile, a grid, state kept per seat) is not
proved. What is proved is about games played from the start:
a game resumed from a saved position goes on from whatever that position holds.
"""
from __future__ import annotations

import dataclasses
import time
from typing import Any

from ortools.sat.python import cp_model

from rulewright.compiler import ir as I
from rulewright.compiler.diagnostics import NotSupportedError, RulesError, reason_of
from rulewright.compiler.interpret import interpreter_for
from rulewright.compiler.semantics import render
from rulewright.compiler.types import BOOL, BoolT, CollT, EnumT, IntT
from rulewright.solver.encode import Encoder
from rulewright.solver.solving import limit, read_value, solve_stoppably
from rulewright.solver.symbolic import BoolV, CaseV, Sym

NUMBERS = 100_000          # the numbers of a position the proof ranges over: within ±NUMBERS
EVERYTHING = "*"            # in a set of names written: every state variable
# in what an expression reads: it calls a scoring (the encoder computes one with known
# arguments by the interpreter, which a position of free values cannot be given)...
SCORING = "<scoring>"
# ...or it may not be computable (a division, first(), a lookup: the encoder keeps only the
# positions where it is, which is sound for what is known before a step and not after it)
PARTIAL = "<partial>"
# the operators and aggregates that compute a value from any operands of their types
TOTAL = frozenset({"abs", "add", "and", "eq", "ge", "gt", "if", "in", "le", "lt", "make_list", "make_set",
                   "make_tuple", "max2", "min2", "minus", "mul", "ne", "neg", "not", "not_in", "or", "size",
                   "sub", "range", "concat"})
# what may be computed after a step has begun changing what an invariant reads without
# stopping the game halfway (no arithmetic that may grow past the limits of values, no
# collection that may be too large, no definition that may run out of steps)
SURE = frozenset({"and", "or", "not", "eq", "ne", "lt", "le", "gt", "ge", "if"})
TOTAL_AGGREGATES = frozenset({"sum", "count", "any", "all", "list", "set", "distinct"})
MARKERS = frozenset({SCORING, PARTIAL})


@dataclasses.dataclass
class Induction:
    """What the proof by induction found for one invariant."""
    proved: bool
    reason: str = ""            # why not (proved: empty)
    steps: list[str] = dataclasses.field(default_factory=list)     # the steps that keep it, as FILE:LINE
    initial: dict[str, Any] = dataclasses.field(default_factory=dict)   # what it reads before the first step
    numbers: bool = False       # whether a number of the position was ranged over (within ±NUMBERS)
    seconds: float = 0.0


def invariant_expr(inv: I.CheckDef) -> I.Expr:
    """An invariant as one truth value (a loop over its domain as ``all``)."""
    if inv.var is None:
        return inv.cond
    return I.Agg(BOOL, inv.cond.span, "all", inv.cond, [I.Binder(inv.var, inv.domain, inv.filter, inv.cond.span)])


def where(span) -> str:
    return f"{span.file.rsplit('/', 1)[-1]}:{span.line}" if span is not None and span.line else "?"


# ---------------------------------------------------------------- what reads and writes what
class Effects:
    """The state variables an expression reads and a statement may change, in one program,
    through the definitions, scorings and procedures they reach (each computed once for the
    whole program, as a least fixpoint: the rules graph refuses cycles, and would a call
    cycle come through, the sets would still be whole)."""

    _ZONES = (I.Shuffle, I.Deal, I.Move, I.Place, I.Pass, I.Take)

    def __init__(self, program: I.Program):
        self.program = program
        # the state each definition and scoring reads directly, and those it calls
        own: dict[str, tuple[set, set]] = {}
        for name, fd in program.funcs.items():
            own[name] = self._direct([fd.body] if fd.body is not None else [])
        for name, sd in program.scorings.items():
            own[name] = self._direct([x for step in sd.steps for x in step.body])
        self._reads = _closure(own)
        # what each procedure changes directly, and those it calls
        mine: dict[str, tuple[set, set]] = {}
        for name, pd in program.procedures.items():
            written: set[str] = set()
            calls: set[str] = set()
            for n in I.descendants(pd.body):
                if isinstance(n, I.Do):
                    (calls if n.proc in program.procedures else written).add(
                        n.proc if n.proc in program.procedures else EVERYTHING)
                else:
                    written |= self._writes_of(n)
            mine[name] = ({w for w in written if not w.startswith("local ")}, calls)
        self._procs = _closure(mine)
        # the state variables some statement sets to a value that may be none (or a scoring's)
        self.maybe_none: dict[str, Any] = {}       # (name -> the span of the first such set)
        for body in [*(pd.body for pd in program.procedures.values()), *(md.body for md in program.modes.values())]:
            for n in I.descendants(body):
                if isinstance(n, I.SetVar) and n.scope != "local" and self.reads(n.value) & MARKERS:
                    self.maybe_none.setdefault(n.name, n.span)

    def _direct(self, nodes) -> tuple[set, set]:
        """(the state variables ``nodes`` read themselves, the definitions and scorings they call)."""
        out: set[str] = set()
        calls: set[str] = set()
        p = self.program
        for n in I.descendants(nodes):
            if isinstance(n, (I.Global, I.SeatVar)) and n.name in p.state:
                out.add(n.name)
            elif isinstance(n, I.Global) and n.name in ("seats", "players"):
                out.add(n.name)
            name = n.name if isinstance(n, (I.Call, I.Global)) else None
            if name in p.funcs or name in p.scorings:
                calls.add(name)
            if isinstance(n, I.Call) and name in p.scorings:
                out.add(SCORING)
            elif isinstance(n, I.Op) and n.op not in TOTAL or isinstance(n, I.Agg) and n.func not in TOTAL_AGGREGATES \
                    or isinstance(n, I.Const) and n.value is None \
                    or isinstance(n, I.Op) and n.op in ("eq", "ne") and any(isinstance(a.type, CollT) for a in n.args):
                # (collections compared: the encoder compares sets as sets, the interpreter as
                # the lists it keeps them as; not followed)
                out.add(PARTIAL)
        return out, calls

    def reads(self, e) -> frozenset:
        """The state variables ``e`` reads, through the definitions and scorings it calls
        (with SCORING when it calls a scoring, PARTIAL when it may not be computable)."""
        if e is None:
            return frozenset()
        out, calls = self._direct([e])
        for c in calls:
            out |= self._reads[c]
        return frozenset(out)

    def proc(self, name: str) -> frozenset:
        """What a procedure changes, through those it calls (EVERYTHING for one unknown)."""
        return self._procs.get(name, frozenset([EVERYTHING]))

    def zone_writes(self, st: I.Stmt) -> frozenset:
        """The state a statement on piles may change: every state variable it reads."""
        out = set().union(*(self.reads(x) for x in I.children(st) if isinstance(x, I.Expr))) - MARKERS
        if isinstance(st, I.Pass):
            out.add(st.zone)
        return frozenset(out)

    def _writes_of(self, n) -> set[str]:
        """What one statement changes itself (not through a procedure it calls)."""
        if isinstance(n, I.SetVar):
            return {n.name if n.scope != "local" else "local " + n.name}
        if isinstance(n, (I.Let, I.Choose)):
            return {"local " + n.name}
        if isinstance(n, I.For):
            return {"local " + n.var}
        if isinstance(n, self._ZONES):
            return set(self.zone_writes(n))
        return set()

    def writes(self, stmts) -> set[str]:
        """What statements may change: state variables, and locals as ``'local NAME'``."""
        out: set[str] = set()
        for n in I.descendants(stmts):
            out |= self.proc(n.proc) if isinstance(n, I.Do) else self._writes_of(n)
        return out


def _closure(own: dict[str, tuple[set, set]]) -> dict[str, frozenset]:
    """Each name's own set together with those of every name it reaches through its calls."""
    out = {name: set(mine) for name, (mine, _) in own.items()}
    changed = True
    while changed:
        changed = False
        for name, (_, calls) in own.items():
            for c in calls:
                extra = out.get(c, set()) - out[name]
                if extra:
                    out[name] |= extra
                    changed = True
    return {name: frozenset(v) for name, v in out.items()}


# ---------------------------------------------------------------- what is known where
@dataclasses.dataclass(frozen=True)
class Fact:
    """Something known at a point of a procedure: ``kind`` 'cond' (``expr`` holds, or not
    when ``negated``), 'bind' (the local ``name`` is ``expr``'s value), 'choose' (the local
    is one of a choice's options: ``expr``, a Choose; a loop's element as one)."""
    kind: str
    expr: Any
    state: frozenset             # the state variables it reads
    locals: frozenset            # the locals it reads
    name: str | None = None
    negated: bool = False


@dataclasses.dataclass
class Step:
    """A run of ``set`` statements (or one other statement) that changes the state, what it
    changes (EVERYTHING: anything) and what is known before it; ``blocked``: why the proof
    cannot follow it (None: it can)."""
    run: list
    facts: tuple
    changes: frozenset
    blocked: str | None = None


class Walk:
    """Every step of a program that changes the state, each with what is known before it;
    every choice, likewise."""

    def __init__(self, program: I.Program, effects: Effects):
        self.program, self.fx = program, effects
        self.steps: list[Step] = []
        self.choices: list[tuple[I.Choose, tuple]] = []     # every choice, with what is known before it
        for pd in program.procedures.values():
            self.block(pd.body, ())
        for md in program.modes.values():
            self.block(md.body, ())

    def fact(self, kind: str, expr, name: str | None = None, negated: bool = False) -> Fact:
        exprs = [expr.coll, expr.where, expr.size] if isinstance(expr, I.Choose) else [expr]
        state = frozenset().union(*(self.fx.reads(x) for x in exprs if x is not None))
        local = frozenset().union(*(I.free_locals(x) or frozenset() for x in exprs if x is not None))
        return Fact(kind, expr, state, local - ({name} if kind == "choose" else set()), name, negated)

    @staticmethod
    def forget(facts: tuple, written) -> tuple:
        """The facts that still hold once ``written`` may have changed (a local that is no
        longer known takes the facts that read it with it)."""
        everything = EVERYTHING in written
        gone = {w[6:] for w in written if w.startswith("local ")}
        kept = []
        for f in facts:
            if f.locals & gone or f.state & written or everything and f.state or f.name in gone:
                if f.name is not None:
                    gone.add(f.name)
                continue
            kept.append(f)
        return tuple(kept)

    def block(self, stmts, facts: tuple) -> tuple:
        i = 0
        while i < len(stmts):
            st = stmts[i]
            if isinstance(st, I.SetVar):
                j = i
                while j < len(stmts) and isinstance(stmts[j], I.SetVar):
                    j += 1
                facts = self.run(stmts[i:j], facts)
                i = j
                continue
            facts = self.statement(st, facts)
            i += 1
        return facts

    def run(self, run: list, facts: tuple) -> tuple:
        changed = frozenset(st.name for st in run if st.scope != "local")
        if changed:
            self.steps.append(Step(run, facts, changed))
        for st in run:
            facts = self.forget(facts, {st.name if st.scope != "local" else "local " + st.name})
            reads = self.fx.reads(st.value) | I.free_locals(st.value)
            if st.name in reads:
                continue
            if st.scope == "local":
                facts += (self.fact("bind", st.value, name=st.name),)
            elif st.scope == "shared":
                var = self.program.state[st.name]
                same = I.Op(BOOL, st.span, "eq", [I.Global(var.type, st.span, st.name), st.value])
                facts += (self.fact("cond", same),)
        return facts

    def statement(self, st: I.Stmt, facts: tuple) -> tuple:
        if isinstance(st, I.Let):
            facts = self.forget(facts, {"local " + st.name})
            if st.name not in I.free_locals(st.value):
                facts += (self.fact("bind", st.value, name=st.name),)
            return facts
        if isinstance(st, I.Choose):
            self.choices.append((st, facts))
            facts = self.forget(facts, {"local " + st.name})
            return facts + (self.fact("choose", st, name=st.name),)
        if isinstance(st, I.Require):
            return facts + (self.fact("cond", st.cond),)
        if isinstance(st, I.Block):
            return self.block(st.body, facts)
        if isinstance(st, I.If):
            written = self.fx.writes(st.then) | self.fx.writes(st.other)
            self.block(st.then, facts + (self.fact("cond", st.cond),))
            self.block(st.other, facts + (self.fact("cond", st.cond, negated=True),))
            return self.forget(facts, written)
        if isinstance(st, I.While):
            outside = self.forget(facts, self.fx.writes(st.body))
            self.block(st.body, outside + (self.fact("cond", st.cond),))
            return outside + (self.fact("cond", st.cond, negated=True),)
        if isinstance(st, I.Repeat):
            outside = self.forget(facts, self.fx.writes(st.body))
            self.block(st.body, outside)
            return outside
        if isinstance(st, I.For):
            written = self.fx.writes(st.body) | {"local " + st.var}
            outside = self.forget(facts, written)
            member = self.fact("choose", I.Choose(st.span, st.var, "element", st.coll, None, None, None, None),
                               name=st.var)
            inside = outside + ((member,) if not (member.state & written or EVERYTHING in written and member.state
                                                  or {"local " + x for x in member.locals} & written) else ())
            self.block(st.body, inside)
            return outside
        if isinstance(st, I.Do):
            return self.forget(facts, self.fx.proc(st.proc))
        if isinstance(st, (I.Shuffle, I.Deal, I.Move, I.Place, I.Pass, I.Take)):
            written = self.fx.zone_writes(st)
            self.steps.append(Step([st], facts, written, "it moves cards, which the proof does not follow"))
            return self.forget(facts, written)
        if isinstance(st, (I.Note, I.Report, I.Reveal, I.Checkpoint)):
            return facts
        # (a statement no procedure holds: anything may change)
        self.steps.append(Step([st], facts, frozenset([EVERYTHING]),
                               f"a {type(st).__name__.lower()} statement, which the proof does not follow"))
        return self.forget(facts, {EVERYTHING})


# ---------------------------------------------------------------- a position the solver chooses
class _Unknown:
    """A value the proof does not know (what a step made of state it does not follow)."""


UNKNOWN = _Unknown()


class _Shared:
    """The shared state of a position being chosen: a value of the proof's kinds is made
    free when first read; ``changed`` over it after a step."""

    def __init__(self, prover: "_Model", base: "_Shared | None" = None, changed: dict | None = None):
        self.prover, self.base, self.changed = prover, base, dict(changed or {})

    def __contains__(self, name) -> bool:
        var = self.prover.program.state.get(name)
        return name in self.changed or var is not None and not var.keyed

    def __getitem__(self, name):
        if name in self.changed:
            value = self.changed[name]
            if value is UNKNOWN:
                raise NotSupportedError(f"'{name}' after a step the proof does not follow")
            return value
        if self.base is not None:
            return self.base[name]
        return self.prover.state_value(name)


class _Position:
    """A position being chosen: its shared state; nothing of its seats."""

    def __init__(self, shared: _Shared):
        self.shared = shared

    @property
    def seats(self):
        raise NotSupportedError("the seats of a position the proof chooses")

    players = seats

    @property
    def per(self):
        raise NotSupportedError("state kept per seat or per key, which the proof does not take")


class _Model:
    """One question: a position where the invariant and the facts hold, and a step after
    which the invariant does not."""

    def __init__(self, program: I.Program, effects: "Effects"):
        self.program, self.fx = program, effects
        self.enc = Encoder(program)
        self.made: dict[str, Any] = {}       # state variable -> its free value
        self.numbers = False

    def free(self, t, label: str):
        """A free value of type ``t`` (None: not of the proof's kinds)."""
        e = self.enc
        if isinstance(t, BoolT):
            return BoolV(e.new_bool(label))
        if isinstance(t, IntT):
            self.numbers = True
            return e.var_int(e.new_int(-NUMBERS, NUMBERS, label), -NUMBERS, NUMBERS)
        if isinstance(t, EnumT) and t.name in self.program.enums:
            values = [*self.program.enums[t.name].values, None]
            cases = [(e.new_bool(f"{label}={v}"), v) for v in values]
            e.model.add_exactly_one([lit for lit, _ in cases])
            return CaseV(cases)
        return None

    def state_value(self, name: str):
        if name not in self.made:
            var = self.program.state[name]
            if name in self.fx.maybe_none and not isinstance(var.type, EnumT):
                raise NotSupportedError(f"'{name}': a step sets it to a value that may be none (a division, first(), "
                                        "a lookup, collections compared...), which the proof does not follow")
            value = self.free(var.type, name)
            if value is None:
                raise NotSupportedError(f"'{name}' ({var.type}): the proof takes only numbers, "
                                        "truth values and values of an enum or table")
            self.made[name] = value
        return self.made[name]

    def solve(self, seconds: float):
        """(CP-SAT's solver, its status) for the question (one worker, a budget of ``seconds``)."""
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        limit(solver, seconds)
        return solver, solve_stoppably(solver, self.enc.model)[0]

    def truth(self, e, env: dict):
        """``e``'s truth value as a literal or a bool."""
        v = self.enc.encode(e, env)
        return self.enc.lit(v, e.span) if isinstance(v, Sym) else bool(v)

    def require(self, lit) -> bool:
        """``lit`` required; False when it is known false (the question has no answer)."""
        if lit is True:
            return True
        if lit is False:
            return False
        self.enc.model.add_bool_or([lit])
        return True

    def known(self, f: Fact, env: dict) -> bool:
        """One fact added (False: it cannot hold, the step is never reached this way).
        A fact the solver does not express is left out (knowing less keeps the proof sound),
        and so is one that computes a scoring or may not be computable."""
        if f.state & MARKERS:
            env.pop(f.name, None)
            return True
        try:
            if f.kind == "cond":
                lit = self.truth(f.expr, env)
                return self.require(self.enc.not_(lit) if f.negated and not isinstance(lit, bool) else
                                    (not lit) if f.negated else lit)
            if f.kind == "bind":
                env[f.name] = self.enc.encode(f.expr, env)
            elif f.kind == "choose":
                env[f.name] = self.enc.choose(f.expr, env, f.name)
        except (NotSupportedError, RulesError):
            env.pop(f.name, None)
        return True


# ---------------------------------------------------------------- the proof
class Prover:
    """Invariants of one program proved by induction (each question within ``seconds``)."""

    def __init__(self, program: I.Program, seconds: float = 10.0):
        self.program, self.seconds = program, seconds
        self.fx = Effects(program)
        self.walk = Walk(program, self.fx)

    def prove(self, name: str) -> Induction:
        """What the proof by induction finds for invariant ``name``, with the seconds it took."""
        started = time.perf_counter()
        found = self._prove(name)
        return dataclasses.replace(found, seconds=time.perf_counter() - started)

    def _prove(self, name: str) -> Induction:
        inv = self.program.invariants[name]
        expr = invariant_expr(inv)
        reads = self.fx.reads(expr)
        for r in sorted(reads - MARKERS):
            var = self.program.state.get(r)
            if var is None:
                return Induction(False, f"it reads the {r} of the game, which the proof does not take")
            if var.keyed or not isinstance(var.type, (IntT, BoolT, EnumT)) or \
                    isinstance(var.type, EnumT) and var.type.name not in self.program.enums:
                return Induction(False, f"it reads {r} ({var.type}{', kept per ' + var.per if var.keyed else ''}): "
                                        "the proof takes only numbers, truth values and values of an enum or table "
                                        "kept once for the game")
        unsure = next((r for r in sorted(reads) if r in self.fx.maybe_none
                       and not isinstance(self.program.state[r].type, EnumT)), None)
        if unsure is not None:
            at = where(self.fx.maybe_none[unsure])
            return Induction(False, f"the step at {at} sets {unsure} to a value that may "
                                    "not be computable, or be none (a division, first(), a lookup, collections "
                                    "compared, a scoring...), which the proof does not follow")
        if SCORING in reads:
            return Induction(False, "it computes a scoring, which the proof does not follow")
        if PARTIAL in reads:
            return Induction(False, "it may not be computable in every position (a division, first(), a lookup, "
                                    "collections compared...), which the proof does not follow")
        initial, broken = self._initially(expr, reads)
        if broken:
            return Induction(False, broken, initial=initial)
        out = Induction(True, steps=[], initial=initial)
        for step in self.walk.steps:
            if not (step.changes & reads or EVERYTHING in step.changes):
                continue
            at = where(step.run[0].span)
            if step.blocked:
                return Induction(False, f"the step at {at} may change what it reads: {step.blocked}", initial=initial)
            why, numbers = self._keeps(expr, reads, step)
            if why is not None:
                return Induction(False, f"the step at {at} {why}", initial=initial)
            out.steps.append(at)
            out.numbers = out.numbers or numbers
        return out

    def _initially(self, expr, reads) -> tuple[dict, str]:
        """What the invariant reads before the first step, and why it does not hold there ('' if it
        does): for every mode at every number of players (a starting value may count them)."""
        interp = interpreter_for(self.program)
        first: dict | None = None
        for mode in self.program.modes.values():
            for players in range(mode.min_players, mode.max_players + 1):
                state = interp.new_state(interp.seats_for(mode, players), seed=0)
                values = {r: state.shared[r] for r in sorted(reads) if r in state.shared}
                first = values if first is None else first
                at = f"mode '{mode.name}' with {players} players"
                try:
                    holds = interp.evaluate(expr, {}, state=state)
                except RulesError as exc:
                    return values, f"it cannot be computed before the first step ({at}: {reason_of(exc)})"
                if not holds:
                    return values, f"it does not hold before the first step ({at}: {_values_words(values)})"
        if first is None:
            return {}, "no mode plays a game"
        return first, ""

    def _keeps(self, expr, reads, step: Step) -> tuple[str | None, bool]:
        """(None when the step keeps the invariant (the search closed without a position that
        it breaks), else why not, in words that follow 'the step at FILE:LINE'; whether the
        question ranged over a number)."""
        m = _Model(self.program, self.fx)
        return self._question(m, expr, reads, step), m.numbers

    def _question(self, m: "_Model", expr, reads, step: Step) -> str | None:
        """``_keeps``'s answer, the question asked on ``m``."""
        env: dict[str, Any] = {}
        pre = _Position(_Shared(m))
        m.enc.state = pre
        for f in step.facts:
            if not m.known(f, env):
                return None             # (never reached with what is known: kept)
        try:
            before = m.truth(expr, env)
        except (NotSupportedError, RulesError) as exc:
            return f"is not followed: {reason_of(exc)}"
        if not m.require(before):
            return None
        begun = False          # (whether a set of the run has changed what the invariant reads)
        for st in step.run:
            marks = (self.fx.reads(st.value) | self.fx.reads(st.key)) & MARKERS
            if marks:
                what = "a scoring" if SCORING in marks else \
                    "a value that may not be computable (a division, first(), a lookup, collections compared...)"
                return f"(set {st.name}) computes {what}, which the proof does not follow"
            if begun and not _sure([st.value, st.key], self.program):
                return (f"(set {st.name}) may stop the game halfway through the step (a computation after the "
                        "invariant's values began to change, which may fail), which the proof does not follow")
            begun = begun or st.scope != "local" and st.name in reads
        changed: dict[str, Any] = {}
        for st in step.run:
            unknown = _unknown_local(st.value, env)
            if unknown is not None and st.scope == "shared" and st.name in reads:
                return f"changes {st.name} from {unknown}, a value the proof does not know there"
            try:
                m.enc.state = _Position(_Shared(m, pre.shared, changed))
                m.enc._calls.clear()
                value = m.enc.encode(st.value, env)
            except (NotSupportedError, RulesError) as exc:
                if st.scope == "shared" and st.name in reads:
                    return f"changes {st.name} in a way the solver does not express ({reason_of(exc)})"
                value = UNKNOWN
            if st.scope == "local":
                if value is UNKNOWN:
                    env.pop(st.name, None)
                else:
                    env[st.name] = value
            elif st.scope == "shared":
                changed[st.name] = value
        m.enc.state = _Position(_Shared(m, pre.shared, changed))
        m.enc._calls.clear()
        try:
            after = m.truth(expr, env)
        except (NotSupportedError, RulesError) as exc:
            return f"is not followed: {reason_of(exc)}"
        if after is True:
            return None
        if after is not False:
            m.require(m.enc.not_(after))
        solver, code = m.solve(self.seconds)
        if code == cp_model.INFEASIBLE:
            return None
        if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return "was not settled within the time limit"
        return self._broken(expr, reads, step, solver, m, env, changed)

    def _broken(self, expr, reads, step: Step, solver, m: _Model, env, changed) -> str:
        """The words for a position the step breaks the invariant from, replayed by the
        interpreter (the values are shown only when the replay agrees)."""
        def value(r, v):
            got = read_value(solver, v)
            return bool(got) if isinstance(self.program.state[r].type, BoolT) else got
        before = {r: value(r, m.made[r]) for r in sorted(reads) if r in m.made}
        after = {r: value(r, changed[r]) for r in sorted(reads) if r in changed and changed[r] is not UNKNOWN}
        what = "; ".join(f"set {st.name}" for st in step.run if st.scope != "local")
        if self._replayed(expr, step, before, {n: read_value(solver, v) for n, v in env.items()}):
            return (f"({what}) may break it: from a position where it holds ({_values_words(before)}), "
                    f"it gives {_values_words(after)}, and what the proof knows there does not rule that out")
        return f"({what}) may break it, from what the proof knows there"

    def _replayed(self, expr, step: Step, values: dict, env: dict) -> bool:
        """Whether the interpreter agrees: the invariant holds with ``values`` and not after the step."""
        interp = interpreter_for(self.program)
        mode = next(iter(self.program.modes.values()), None)
        if mode is None:
            return False
        state = interp.new_state(interp.seats_for(mode, mode.min_players), seed=0)
        state.shared.update(values)
        try:
            if not interp.evaluate(expr, {}, state=state):
                return False
            env = dict(env)
            for st in step.run:
                value = interp.evaluate(st.value, env, state=state)
                if st.scope == "local":
                    env[st.name] = value
                elif st.scope == "shared":
                    state.shared[st.name] = value
            return not interp.evaluate(expr, {}, state=state)
        except (RulesError, KeyError, TypeError):
            return False


# ---------------------------------------------------------------- a choice always has an option
@dataclasses.dataclass
class Options:
    """What the proof found for the choices of one mode: ``proved`` when every choice its
    games reach has an option in every position; else the first that could not be shown."""
    proved: bool
    choices: int                # the choices the mode reaches
    shown: int                  # of them, those proved always to have an option
    reason: str = ""
    numbers: bool = False       # whether a proof ranged over a number (within ±NUMBERS)


class Playable:
    """Choices proved always to have an option: in no position where what is known before
    the choice holds (the facts of the walk, and the invariants proved by induction) are
    all its options refused."""

    def __init__(self, program: I.Program, proved: list[str], seconds: float = 10.0, prover: Prover | None = None):
        """``prover``: the one that proved ``proved`` (its walk of the program is used again)."""
        prover = prover or Prover(program, seconds)
        self.program, self.seconds = program, seconds
        self.fx, self.walk = prover.fx, prover.walk
        self.known = [invariant_expr(program.invariants[n]) for n in proved]
        self._by_choice: dict[int, tuple[str | None, bool]] = {}    # id of a choice -> (why not, numbers)
        self.scored: dict[int, str] = {}      # id of a choice made inside a scoring -> the scoring

    def reached(self, body) -> list[I.Choose]:
        """The choices a mode's statements reach, through the procedures they call and the
        definitions and scorings their expressions compute (a scoring's choice too), in order."""
        p = self.program
        out: list[I.Choose] = []
        seen: set[str] = set()
        todo = [body]
        while todo:
            for n in I.descendants(todo.pop(0)):
                if isinstance(n, I.Choose):
                    out.append(n)
                name = n.proc if isinstance(n, I.Do) else n.name if isinstance(n, (I.Call, I.Global)) else None
                if name is None or name in seen:
                    continue
                if isinstance(n, I.Do) and name in p.procedures:
                    seen.add(name)
                    todo.append(p.procedures[name].body)
                elif name in p.funcs and p.funcs[name].body is not None:
                    seen.add(name)
                    todo.append([p.funcs[name].body])
                elif name in p.scorings:
                    seen.add(name)
                    todo.append([x for step in p.scorings[name].steps for x in step.body])
                    self.scored.update((id(c), name) for c in I.descendants(todo[-1]) if isinstance(c, I.Choose))
        return out

    def mode(self, name: str) -> Options:
        choices = self.reached(self.program.modes[name].body)
        facts = {id(c): f for c, f in self.walk.choices}
        shown = 0
        first = ""
        numbers = False
        for c in choices:
            if id(c) not in self._by_choice:
                m = _Model(self.program, self.fx)
                self._by_choice[id(c)] = (self._option(m, c, facts.get(id(c), ())), m.numbers)
            why, ranged = self._by_choice[id(c)]
            if why is None:
                shown += 1
                numbers = numbers or ranged
            elif not first:
                first = f"the choice '{c.name}' at {where(c.span)} {why}"
        return Options(shown == len(choices), len(choices), shown, first, numbers)

    def _option(self, m: _Model, c: I.Choose, facts: tuple) -> str | None:
        """None when the choice has an option in every position, else why that is not shown
        (the question asked on ``m``)."""
        if id(c) in self.scored:
            return f"is made inside scoring '{self.scored[id(c)]}', which the proof does not follow"
        if (self.fx.reads(c.coll) | self.fx.reads(c.where)) & MARKERS:
            return ("takes its options from a scoring or from what may not be computable (a division, first(), "
                    "a lookup, collections compared...), which the proof does not follow")
        if c.domain != "element":
            return "chooses several things at once, which the proof does not follow"
        m.enc.state = _Position(_Shared(m))
        env: dict[str, Any] = {}
        for f in facts:
            if not m.known(f, env):
                return None             # (never reached with what is known)
        for e in self.known:
            try:
                if not m.require(m.truth(e, env)):
                    return None
            except (NotSupportedError, RulesError):
                pass
        try:
            unknown = _unknown_local(c.coll, env)
            if unknown is not None:
                return f"takes its options from {unknown}, a value the proof does not know there"
            elements = m.enc.elements(m.enc.encode(c.coll, env), c.coll.span)
            ok = []
            for elem, member in elements:
                lit = member
                if c.where is not None and member is not False:
                    inner = {**env, c.name: elem}
                    allowed = m.truth(c.where, inner)
                    lit = m.enc.and_([member, allowed]) if not isinstance(member, bool) or \
                        not isinstance(allowed, bool) else member and allowed
                if lit is True:
                    return None         # (an option every position has)
                ok.append(lit)
        except (NotSupportedError, RulesError) as exc:
            return f"takes its options from what the proof does not follow ({reason_of(exc)})"
        for lit in ok:
            if lit is not False:
                m.enc.model.add_bool_or([m.enc.not_(lit)])
        _, code = m.solve(self.seconds)
        if code == cp_model.INFEASIBLE:
            return None
        if code in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return "may have no option, from what the proof knows there"
        return "was not settled within the time limit"


def proved_words(name: str, proof: Induction, games: int | None = None) -> str:
    """A proved invariant, in words."""
    n = len(proof.steps)
    kept = "nothing changes what it reads" if n == 0 else \
        f"{'the step' if n == 1 else f'each of the {n} steps'} that change{'s' if n == 1 else ''} what it reads " \
        f"keep{'s' if n == 1 else ''} it ({', '.join(proof.steps)})"
    numbers = f" whose numbers stay within ±{NUMBERS:,}" if proof.numbers else ""
    seen = f"; {games} seeded games agree" if games else ""
    return (f"invariant '{name}' holds in every position of every game played from the start{numbers}: proved by "
            f"induction (it holds before the first step, {_values_words(proof.initial)}, and {kept}){seen}")


def _sure(exprs, program: I.Program) -> bool:
    """Whether expressions surely compute: constants, locals, state kept once for the game
    and the operators of ``SURE`` (no definition, which may run out of steps, no state kept
    per key, whose key may be none)."""
    for n in I.descendants([e for e in exprs if e is not None]):
        if isinstance(n, (I.Call, I.Agg, I.Binder, I.SeatVar)) or isinstance(n, I.Op) and n.op not in SURE \
                or isinstance(n, I.Global) and n.name not in program.state:
            return False
    return True


def _unknown_local(e, env: dict) -> str | None:
    """The first local ``e`` reads that has no value in ``env``, as 'NAME (TYPE)'; None if none."""
    names = I.free_locals(e) or frozenset()
    n = next((n for n in I.descendants([e]) if isinstance(n, I.Local) and n.name in names and n.name not in env), None)
    return None if n is None else f"{n.name} ({n.type})"


def _values_words(values: dict) -> str:
    return ", ".join(f"{k} = {render.text_value(v)}" for k, v in values.items()) or "nothing read"


def prove_all(program: I.Program, seconds: float = 10.0, names=None) -> dict[str, Induction]:
    """Every invariant (or those ``names``) tried by induction."""
    p = Prover(program, seconds)
    return {n: p.prove(n) for n in (names if names is not None else program.invariants)}
