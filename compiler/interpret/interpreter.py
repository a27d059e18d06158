"""The interpreter: every definition of a checked program compiled to a Python function and
run on a game state.

In:  an ``ir.Program``.
Out: ``Interpreter`` (``call`` a definition, ``score`` a scoring with its breakdown, ``play``
     a whole mode with agents) and ``interpreter_for`` (one per program).
"""
from __future__ import annotations


import contextlib
import re
from dataclasses import replace
from types import SimpleNamespace
from typing import Any, Callable


from rulewright.compiler import ir as I
from rulewright.compiler.semantics import runtime as rt, render
from rulewright.compiler.diagnostics import RuntimeRulesError, Span
from rulewright.compiler.types import BoardT, BoolT, CollT, IntT, TextT
from rulewright.compiler.interpret.codegen import (_LAZY, ExprCompiler, Flattener, Emitter, fname, line_spans, mname, prname,
                                                   pyname, sname, vetted)
from rulewright.compiler.interpret.baseline import BASELINE, Seat as BaselineSeat
from rulewright.compiler.interpret.collecting import few_collections
from rulewright.compiler.interpret.memo import MISSING, StateMemo, known_subsets, memoize
from rulewright.compiler.interpret.projection import projections
from rulewright.compiler.interpret.inline import Inliner, shared_calls
from rulewright.compiler.interpret.resumable import Resumable, waits_inside
from rulewright.compiler.interpret.state import GameState, RandomAgent, StopGame
from rulewright.compiler.interpret.seeing import Knowledge, keeps_knowledge
from rulewright.compiler.interpret.writes import Changes, PileReads, held_by_identity, plain, unpiled, unpiled_flat


# ---------------------------------------------------------------- compiler
_UNSET = type("_Unset", (), {"__repr__": lambda self: "not yet computed"})()     # (a shared call's, inline.py)
MOST_COMPILED = 20_000      # expressions whose compiled code an interpreter keeps (then forgets all)
# The steps a whole game's rules may take (all loops of all its turns together).
GAME_STEPS = 5 * rt.MOST_STEPS


# statements that change no state the rules read: locals, the log, the reports, a choice (its
# agent decides; a game that waits at a choice is set back on its state when it goes on);
# those that hold others clear after each of them
_KEEPS_STATE = (I.Let, I.Block, I.Repeat, I.For, I.If, I.Do, I.While, I.Choose, I.Note, I.Report, I.Reveal)


class Interpreter:
    def __init__(self, program: I.Program, fast: bool = True):
        """``fast=False``: the code path before the speed-ups (no memo of definitions), kept
        as the baseline ``benchmarks/play.py`` measures against."""
        self.program = program
        self.fast = fast
        self.keeps_knowledge = keeps_knowledge(program)
        # definitions that read the state remember their values until the state changes:
        # the generated procedures clear this after every statement that may change it,
        # and every entry from outside (call, run, evaluate, play, use) clears it, but for
        # evaluations on a state held unchanged (``unchanged``)
        self._writes: list[frozenset] = []      # what each statement that clears part of it may change
        self._sm = StateMemo(self._writes)      # (its parts made once the procedures' code is)
        self._changes = Changes(program)
        self._pile_reads = PileReads(program)
        self._held = self._memo_of = None     # (use, unchanged)
        self._func_src: dict[str, str] = {}
        self.em = Emitter()
        self.exc = ExprCompiler(program, self.em)
        self.exc.fast = fast
        self.flat = Flattener(self.exc, self.em)
        self._span_list: list[Span] = []
        self._eval_cache: dict = {}
        self.funcs: list[str] = []
        # where a procedure can wait (compiler/interpret/resumable.py): its generated function ->
        # (line within it, the choice or call there); the names of locals made for loops and guards
        self.procs: dict[str, tuple[list[str], list[I.Stmt]]] = {}
        self.waits: dict[str, list[tuple[int, I.Stmt]]] = {}
        self._marks: list[tuple[int, I.Stmt]] = []
        self._made_names: dict[tuple[int, str], str] = {}
        self._resumable = None
        self._inliner = Inliner(program)
        projected = projections(program) if fast else {}
        # definitions of one collection whose memo may be keyed by its values' classes in any
        # order: an enumeration of subsets filtered by one reads their values in bulk (memo.known_subsets)
        self.exc.known = {n for n, c in projected.items()
                          if len(program.funcs[n].params) == 1 and c.get(0, ("",))[0] == "any order"}
        for fd in program.funcs.values():
            self._func(fd)
        self.exc.known = set()
        for sd in program.scorings.values():
            self._scoring(sd)
        for pd in program.procedures.values():
            self._procedure(prname(pd.name), [p for p, _ in pd.params], pd.body, pd.node.rule_ids)
        for md in program.modes.values():
            self._procedure(mname(md.name), [s.name for s in md.seats if s.name], md.body, md.node.rule_ids)
        self.source = "\n".join(self.funcs)
        runtime = rt if fast else SimpleNamespace(**{**vars(rt), **BASELINE})
        where = f"<rules {program.name}>"
        self.ns: dict[str, Any] = {"_rt": runtime, "_show": render, "ST": None, "_S": self._span_list, "_err": RuntimeRulesError,
                                   "_SM": self._sm, "_U": _UNSET, "_TN": tuple.__new__, "_UP": unpiled, "_UPF": unpiled_flat, "_B": rt._BUDGET,
                                   "_MS": known_subsets, "_MX": MISSING,
                                   "_FORCE": None, "_LINESPANS": {where: line_spans(self.source, self._span_list)},
                                   **self.em.values}
        from rulewright.compiler.interpret.codecache import compiled; code = compiled(self.source, where)  # noqa: E702 (vetted, compiled, kept)
        exec(code, self.ns)  # noqa: S102 - generated from the checked program
        if fast:
            memoize(self.ns, self._func_src, self._sm,     # (compiler/interpret/memo.py)
                    {fname(n): c for n, c in projected.items()}, self.em.values,
                    {fname(n): held_by_identity(fd) for n, fd in program.funcs.items()})
            self.ns["_SMW"] = [self._sm.clearing(w) for w in self._writes]

    def use(self, state: GameState | None):
        """Run the generated code on ``state`` from now on (what it remembered is forgotten,
        unless ``state`` is the one held unchanged and what it remembered is of it)."""
        self.ns["ST"] = state
        if not (state is not None and state is self._held and self._memo_of is state):
            self._sm.clear()
        self._memo_of = state

    @contextlib.contextmanager
    def unchanged(self, state: GameState):
        """``with interp.unchanged(state):`` the evaluations inside, on ``state``, which
        none of them changes, share what the definitions remember of it (each evaluation
        otherwise starts afresh: ``use``)."""
        saved, self._held = self._held, None
        self.use(state)             # (afresh: whatever changed it before is not remembered)
        self._held = state
        try:
            yield
        finally:
            self._held = saved

    def span_ref(self, span: Span) -> str:
        """Code naming a span, so a run-time error can point at the rule."""
        self._span_list.append(span)
        return f"_S[{len(self._span_list) - 1}]"

    def python_source(self) -> str:
        return self.source

    def resumable(self) -> Resumable | None:
        """The functions a copy of a game in progress resumes its procedures in (made the
        first time a game is copied); None when copies are made by replaying (the baseline,
        or a procedure keeping a local they do not take)."""
        if self._resumable is None:
            made = Resumable(self) if self.fast else None
            self._resumable = made if made is not None and made.whole else False
        return self._resumable or None

    # ------------------------------------------------------------ definitions
    @staticmethod
    def _hoist(params, lines: list[str], bound: set) -> list[str]:
        """Read each board parameter's cards through one local lookup function (not one
        whose name a loop of the body binds again: ``bound``, where the text read would
        be the loop's own)."""
        out = list(lines)
        for name, t in params:
            if isinstance(t, BoardT) and name not in bound:
                v = pyname(name)
                for needle, local, init in ((f"{v}.cards.get(", f"_get_{v}(", f"{v}.cards.get"),
                                            (f"{v}.index().get(", f"_idx_{v}(", f"{v}.index().get"),
                                            (f"{v}.sets()[", f"_set_{v}[", f"{v}.sets()")):
                    # (the name whole: not the end of another name, ``xv_g``)
                    found = re.compile(r"(?<![A-Za-z0-9_])" + re.escape(needle))
                    if any(found.search(ln) for ln in out[1:]):
                        out = [out[0], f"    {local[:-1]} = {init}"] + \
                              [found.sub(local, ln) for ln in out[1:]]
        return out

    def stored(self, code: str, e: I.Expr, piles: bool = True) -> str:
        """Code of a value a statement stores: a number kept within 64 bits, a text within
        ``runtime.MOST_TEXT`` characters (so a loop that keeps doubling one stops), and
        (``piles``: where the state may change before it is read again) no pile of the
        state itself in it, but its cards as they are now (``writes.unpiled``)."""
        if isinstance(e, I.Const):
            return code
        if isinstance(e.type, IntT):
            return f"_rt.int64({code}, {self.em.const(e.span)})"
        if isinstance(e.type, TextT):
            return f"_rt.short_text({code}, {self.em.const(e.span)})"
        return self.unpiled(code, e) if piles else code

    def unpiled(self, code: str, e: I.Expr, each: bool = False) -> str:
        """Code of a value kept past the statement that makes it (``writes.unpiled``);
        ``each``: of a collection whose values are kept (a loop's, a choice's)."""
        return f"_UP({code})" if self.may_hold_pile(e, each) else code

    def may_hold_pile(self, e: I.Expr, each: bool = False) -> bool:
        """``e`` (``each``: one of its values) may be or hold a pile of the state."""
        t = e.type.elem if each and isinstance(e.type, CollT) else e.type
        return not (isinstance(e, I.Const) or plain(t)) and self._pile_reads.may_hold(e)

    def _func(self, fd: I.FuncDef):
        params = ", ".join(pyname(p) for p, _ in fd.params)
        own = self.span_ref(fd.body.span)
        lines = [f"def {fname(fd.name)}({params}):", f"    # at {own}"]
        body = fd.body
        if self.fast:       # small definitions written in, a call made twice made once (inline.py)
            body = self._inliner.body(fd)
            self.exc.shared = shared_calls(self.program, [p for p, _ in fd.params], body, self.em.const)
            if self.exc.shared:
                lines.append(f"    {' = '.join(sorted(set(self.exc.shared.values())))} = _U")
        try:
            with self._written_in(own):
                value = self.flat.value(body, lines, "    ")
        finally:
            self.exc.shared = {}
        lines.append(f"    return {value}")
        self.funcs.append("\n".join(self._hoist(fd.params, lines, _bound([body]))) + "\n")
        self._func_src[fname(fd.name)] = self.funcs[-1]

    @contextlib.contextmanager
    def _written_in(self, own: str):
        """``with self._written_in(own):`` the code made inside knows the bodies the Inliner
        has just written in (``ExprCompiler.written``: each with its rule's span code and its
        call's span), the lines outside them marked with ``own`` (a span code). Without the
        speed-ups nothing is written in."""
        if not self.fast:
            yield
            return
        self.exc.written = {k: (node, self.span_ref(rule), call)
                            for k, (node, rule, call) in self._inliner.written.items()}
        self.exc.at = [own]
        try:
            yield
        finally:
            self.exc.written, self.exc.at = {}, []

    def _scoring(self, sd: I.ScoringDef):
        params = ", ".join(pyname(p) for p, _ in sd.params)
        steps = [s.name for s in sd.steps]
        lines = [f"def {sname(sd.name)}(_mode, _forced{', ' if params else ''}{params}):",
                 f"    _steps = dict.fromkeys({self.em.const(tuple(steps))}, 0)",
                 "    _choices = {}"]
        for layer in sd.layers:
            lines.append(f"    {pyname(layer)} = frozenset()")
        self._layers = list(sd.layers)
        flat: list[tuple[str, I.Stmt | None]] = []
        for step in sd.steps:
            for st in step.body:
                flat.append((step.name, st))
            flat.append((step.name, None))      # the step is done: its points (SCORING.STEP)
        self._scoring_body(flat, sd.layers, lines, 1)
        self.funcs.append("\n".join(self._hoist(sd.params, lines, _bound(st for step in sd.steps for st in step.body)))
                          + "\n")

    def _scoring_body(self, flat, layers, lines, depth, inner=False):
        pad = "    " * depth
        for i, (step, st) in enumerate(flat):
            if isinstance(st, I.Choose):
                self._scoring_choice(st, flat[i + 1:], step, layers, lines, depth, inner)
                return
            self._scoring_stmt(st, step, lines, depth)
        layers = ", ".join(f"{self.em.const(l)}: {pyname(l)}" for l in self._layers)
        if inner:
            # while options are compared only the total matters
            lines.append(f"{pad}if not _full:")
            lines.append(f"{pad}    return sum(_steps.values())")
        lines.append(f"{pad}return _rt.Score(_steps, _choices, {{{layers}}})")

    def _scoring_stmt(self, st: I.Stmt | None, step: str, lines: list[str], depth: int):
        pad = "    " * depth
        if st is None:
            lines.append(f"{pad}{pyname(I.points_local(step))} = _steps[{self.em.const(step)}]")
            return
        lines.append(f"{pad}# at {self.span_ref(st.span)}")     # where a run-time error of these lines is
        if isinstance(st, I.Points):
            lines.append(f"{pad}_steps[{self.em.const(step)}] += {self.flat.value(st.value, lines, pad)}")
        elif isinstance(st, I.Let):
            # (a scoring changes no pile while it runs)
            value = self.stored(self.flat.value(st.value, lines, pad), st.value, piles=False)
            lines.append(f"{pad}{pyname(st.name)} = {value}")
        elif isinstance(st, I.Mark):
            layer = pyname(st.layer)
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
            lines.append(f"{pad}for {pyname(st.var)} in {self.exc.counted(self.exc.ex(st.coll), st.coll)}:")
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
        var = pyname(st.name)
        k = self.em.fresh("k")
        layer_params = "".join(f", {pyname(l)}" for l in layers)
        lines.append(f"{pad}def {k}({var}, _steps, _choices{layer_params}, _full):")
        lines.append(f"{pad}    _steps = dict(_steps)")
        lines.append(f"{pad}    if _full:")         # (while options are compared, only totals matter)
        lines.append(f"{pad}        _choices = dict(_choices)")
        lines.append(f"{pad}        _choices[{self.em.const(st.name)}] = {var}")
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

    def _refusals(self, st: I.Choose) -> str:
        """Code of the tests a value of a choice must pass, in order, each with the span
        of its rule: whether it is in the collection, then each part of the ``where``
        joined by ``and``. Run only when a given value is not among the options (a
        scripted choice, a player's), to say which rule refuses it."""
        var = pyname(st.name)
        coll = self.exc.ex(st.coll) if st.coll is not None else None
        tests = []
        if coll is not None and st.domain == "element":
            tests.append((f"{var} in tuple({coll})", st.coll.span, True))
        elif coll is not None and st.domain == "subset":
            tests.append((f"all(_x in tuple({coll}) for _x in {var})", st.coll.span, True))

        def parts(e):
            if isinstance(e, I.Op) and e.op == "and":
                for a in e.args:
                    yield from parts(a)
            else:
                yield e
        for part in (parts(st.where) if st.where is not None else ()):
            tests.append((self.exc.ex(part), part.span, False))
        return "(" + "".join(f"(lambda {var}: {code}, {self.span_ref(span)}, {whole}), "
                             for code, span, whole in tests) + ")"

    def _options(self, st: I.Choose, span: str | None = None) -> str:
        """Code of a choice's options. With the speed-ups, a state read that both the
        collection and the filter make (``board(s)`` in ``choose spot in placements(board(s))
        where can_place(board(s), spot)``) is read once, before the collection, when it is
        the first thing the collection makes (so it fails, if it can, where it failed). A
        scoring reads no state: its choices have none to read once. In a procedure (``span``:
        the code of the choice's span), the filter's calls are written in where the Inliner
        may (``Inliner.filter``), each written-in body's lines marked with its own rule
        (``ExprCompiler.written``), so an error inside it is located where a call's would be;
        the code then spans several lines. (Not in a scoring, whose grid parameters' reads
        are rewritten as text, ``_hoist``: a loop written in could bind one of their names.)"""
        var = pyname(st.name)
        where, coll_e, hoisted = st.where, st.coll, None
        if self.fast and where is not None and coll_e is not None:
            where, coll_e, hoisted = self._read_once(where, coll_e, st.name)
        written = self.fast and where is not None and span is not None
        if written:
            where = self._inliner.filter(where)
        near = None
        with self._written_in(span) if written else contextlib.nullcontext():
            cond = f" if {self.exc.ex(where)}" if where is not None and not (self.fast and _always(where)) else ""
            if st.domain == "element" and where is not None and coll_e is not None:
                near = self.exc.near_cards(st.name, where)
        coll = self.exc.ex(coll_e) if coll_e is not None else None
        if near is not None:        # (the cells near a grid's cards, as sets: codegen.near_cards)
            first, cards, table, board = near
            kept = f"_rt.near_cards(_cells, {cards}, {table}, {board})"
            made = f"(lambda _cells: list(_cells) if not _cells{f' or {first}' if first else ''} else {kept})" \
                   f"({self.exc.counted(coll, st.coll)})"
        elif st.domain == "element":
            made = _listed(var, self.exc.counted(coll, st.coll), cond, self.fast)
        elif st.domain == "subset" and st.size is None:
            made = _listed(var, self.exc.counted(f'_rt.sublists_of({coll})', st.coll), cond, self.fast)
        elif st.domain == "subset":
            made = _listed(var, f"_rt.subsets(tuple({coll}), {self.exc.ex(st.size)}, {self.em.const(st.span)})",
                           cond, self.fast)
        else:
            raise RuntimeRulesError("a whole grid can only be chosen in a query", st.span)
        if hoisted is not None:
            return f"(lambda {pyname(hoisted[0])}: {made})({hoisted[1]})"
        return made

    def _read_once(self, where: I.Expr, coll: I.Expr, var: str):
        """(filter, collection, (local, code) or None): the state read the collection makes
        first (the collection itself, or an operator of one operand over it:
        ``placements(board(s))``), when the filter makes it too, made a local read once
        before the collection. Nothing can fail before that read, so made first it fails,
        if it can, as it failed. (Not through calls: a call may not make an argument,
        ``passed_through``.) A read of the seat the choice is of (``var``), or of a name a
        loop inside binds, is another read each time: left as it is."""
        bound = {var} | _bound([where, coll])

        def read(x) -> bool:
            return (isinstance(x, I.SeatVar) and (isinstance(x.seat, I.Const)
                                                  or (isinstance(x.seat, I.Local) and x.seat.name not in bound))) \
                or (isinstance(x, I.Global) and x.name in self.program.state)
        made = coll
        while not read(made) and isinstance(made, I.Op) and made.op not in _LAZY and len(made.args) == 1:
            made = made.args[0]
        code = self.exc.ex(made) if read(made) else None
        if code is None or not any(read(x) and self.exc.ex(x) == code for x in I.descendants([where])):
            return where, coll, None
        local = I.Local(span=made.span, type=made.type, name="#read")

        def swap(e):
            if e is None or isinstance(e, (I.Const, I.Local)):
                return e
            if isinstance(e, (I.SeatVar, I.Global)):
                if self.exc.ex(e) == code:
                    return local
                return e if isinstance(e, I.Global) else replace(e, seat=swap(e.seat))
            if isinstance(e, (I.Op, I.Call)):
                return replace(e, args=[swap(a) for a in e.args])
            if isinstance(e, I.Agg):
                return replace(e, elem=swap(e.elem), key=swap(e.key), supply=swap(e.supply),
                               binders=[replace(b, coll=swap(b.coll), cond=swap(b.cond)) for b in e.binders])
            return e
        return swap(where), swap(coll), (local.name, code)

    # ------------------------------------------------------------ procedures
    def _procedure(self, name: str, params: list[str], body: list[I.Stmt], tags: tuple = ()):
        """A procedure is a generator: a choice asked of a seat played from outside the
        game (``Game``) is a value it yields and is sent back; otherwise it runs through.
        The rules it carries out (``tags``) are counted when it runs, where a game counts
        them."""
        lines = [f"def {name}({', '.join(pyname(p) for p in params)}):"]
        self._marks = []
        self._tally(tags, lines, 1)
        self._block(body, lines, 1)
        lines.append("    if False:")
        lines.append("        yield")
        self.funcs.append("\n".join(lines) + "\n")
        self.procs[name] = (list(params), body)
        self.waits[name] = self._marks

    def made_name(self, st: I.Stmt, kind: str) -> str:
        """The local a statement's code keeps something in (a loop's iterator, a while's
        guard): the same name each time the statement is generated (resumable.py)."""
        key = (id(st), kind)
        if key not in self._made_names:
            self._made_names[key] = self.em.fresh(kind)
        return self._made_names[key]

    def loop_iterator(self, st: I.Stmt) -> str | None:
        """The local a loop that can wait (a choice or a call inside) keeps its iterator in,
        so a copy of the game goes on from the same value (resumable.py); None for others."""
        return self.made_name(st, "it") if waits_inside(st.body) else None

    def loop(self, st: I.Stmt, lines: list[str], depth: int, span: str, over: str | None = None):
        """The loop of a ``repeat``, ``for`` or ``while`` from its header on (its iterator or
        guard already made; ``span``: the code naming its span): over ``over``, its iterator,
        when it is given."""
        pad = "    " * depth
        if isinstance(st, I.While):
            guard = self.made_name(st, "w")
            lines.append(f"{pad}while _rt.tick({span}) and ({self.exc.ex(st.cond)}):")
            lines.append(f"{pad}    {guard} += 1")
            lines.append(f"{pad}    if {guard} > 1000000:")
            lines.append(f"{pad}        raise _rt.endless_while({span})")
        else:
            var = pyname(st.var) if isinstance(st, I.For) else "_"
            lines.append(f"{pad}for {var} in {over}:")
        self._block(st.body, lines, depth + 1)

    def _tally(self, tags: tuple, lines: list[str], depth: int):
        """Counts the rules ``tags`` names once more, where the game keeps a count (a study)."""
        if tags:
            lines.append(f"{'    ' * depth}if ST.tally is not None: ST.tally.update({self.em.const(tuple(tags))})")

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
            lines.append(f"{pad}{pyname(st.name)} = {self.stored(ex(st.value), st.value)}")
        elif isinstance(st, I.Choose):
            chooser = self.em.const("random") if st.chooser == "random" else (ex(st.chooser) if st.chooser else "None")
            # (the options as a function: a game rolled forward along its history skips them)
            options = f"lambda: {self._options(st, span)}" if self.fast else self._options(st)
            self._marks.append((len(lines), st))        # (a generator waiting here is on its first line)
            asked = f"yield from ST.ask({self.em.const(st.name)}, {chooser}, {options}, {span}, {self._refusals(st)})"
            if st.coll is not None and self.may_hold_pile(st.coll, each=True):    # (an option that is a pile: its cards now)
                asked = f"_UP(({asked}))"
            lines.extend(f"{pad}{pyname(st.name)} = {asked}".split("\n"))
        elif isinstance(st, I.Shuffle):
            lines.append(f"{pad}ST.shuffle({ex(st.zone)}, {span})")
        elif isinstance(st, I.Deal):
            lines.append(f"{pad}ST.deal({ex(st.count)}, {ex(st.source)}, {ex(st.target)}, {span})")
        elif isinstance(st, I.Checkpoint):
            lines.append(f"{pad}ST.checkpoint({self.em.const(st.name)})")
        elif isinstance(st, I.Note):
            lines.append(f"{pad}ST.note({self.em.const(st.name)}, {self.unpiled(ex(st.value), st.value)}, "
                         f"{self.em.const(bool(st.heading))})")
        elif isinstance(st, I.Reveal):
            lines.append(f"{pad}ST.reveal({ex(st.pile)}, {ex(st.to) if st.to is not None else 'None'}, "
                         f"{ex(st.cards) if st.cards is not None else 'None'}, {span})")
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
            self._tally(st.tags, lines, depth)
            self._block(st.body, lines, depth)
        elif isinstance(st, (I.Repeat, I.For)):
            over = f"_rt.times({ex(st.count)}, {span})" if isinstance(st, I.Repeat) else \
                self.exc.counted(f'tuple({self.unpiled(ex(st.coll), st.coll, each=True)})', st.coll)
            it = self.loop_iterator(st)
            if it is not None:
                lines.append(f"{pad}{it} = iter({over})")
            self.loop(st, lines, depth, span, it or over)
        elif isinstance(st, I.If):
            lines.append(f"{pad}if {ex(st.cond)}:")
            self._block(st.then, lines, depth + 1)
            if st.other:
                lines.append(f"{pad}else:")
                self._block(st.other, lines, depth + 1)
        elif isinstance(st, I.Do):
            self._marks.append((len(lines), st))
            lines.append(f"{pad}yield from {prname(st.proc)}({', '.join(self.unpiled(ex(a), a) for a in st.args)})")
        elif isinstance(st, I.SetVar):
            value = self.stored(ex(st.value), st.value)
            var = self.program.state.get(st.name) if st.scope != "local" else None
            if var is not None and isinstance(var.type, CollT) and var.type.kind == "pile":
                label = self.em.const(st.name)
                value = f"_rt.as_zone({label}, {value})"
            if st.scope == "local":
                lines.append(f"{pad}{pyname(st.name)} = {value}")
            elif st.scope == "shared":
                lines.append(f"{pad}ST.shared[{self.em.const(st.name)}] = {value}")
            else:
                lines.append(f"{pad}ST.per[{self.em.const(st.name)}][{ex(st.key)}] = {value}")
        elif isinstance(st, I.While):
            lines.append(f"{pad}{self.made_name(st, 'w')} = 0")
            self.loop(st, lines, depth, span)
        elif isinstance(st, I.Require):
            parts = ", ".join(self.em.const(x) if isinstance(x, str) else f"_rt.Shown({ex(x)})"
                              for x in st.message or ())
            lines.append(f"{pad}if not ({ex(st.cond)}):")
            lines.append(f"{pad}    ST.refuse({self.em.const(st.name)}, lambda: ({parts},), "
                         f"{self.em.const(tuple(st.tags))}, {span})")
        elif isinstance(st, I.Report):
            value = self.unpiled(ex(st.value), st.value)
            if st.var is None:
                lines.append(f"{pad}ST.report({self.em.const(st.name)}, {value})")
            else:
                v = pyname(st.var)
                lines.append(f"{pad}for {v} in {self.exc.counted(f'tuple({ex(st.coll)})', st.coll)}:")
                lines.append(f"{pad}    ST.report({self.em.const(st.name)}, {value}, {v})")
        else:
            raise RuntimeRulesError(f"'{type(st).__name__.lower()}' cannot be used here", st.span)
        if self.fast and not isinstance(st, _KEEPS_STATE) and not (isinstance(st, I.SetVar) and st.scope == "local"):
            # the state may have changed: what was read of what it changes is gone
            writes = self._changes(st)
            if writes is None:
                lines.append(f"{pad}_SM.clear()")
            elif writes:
                lines.append(f"{pad}_SMW[{self._clearing(writes)}]()")

    def _clearing(self, writes: frozenset) -> int:
        """The index in ``_SMW`` of the function that clears what a statement changing
        ``writes`` may change (made with the namespace, or at once for code made after it:
        a copy's resuming functions)."""
        if writes not in self._writes:
            self._writes.append(writes)
            if "_SMW" in getattr(self, "ns", {}):
                self.ns["_SMW"].append(self._sm.clearing(writes))
        return self._writes.index(writes)

    # ------------------------------------------------------------ running
    def compiled(self, e: I.Expr, names: tuple[str, ...]):
        """The compiled function of an expression over the given local names (in that
        order); it reads the state and forced choices set in ``ns``."""
        # keyed by the node's id, and kept with the node: an id is only unique while its node
        # lives, and a node made for one question (a verify range's domain) may be dropped
        # and its id given to another, whose code this must not return
        key = (id(e), names)
        kept = self._eval_cache.get(key)
        if kept is not None and kept[0] is e:
            return kept[1]
        body = self.exc.ex(e)
        self.ns.update(self.em.values)
        src = f"lambda {', '.join(pyname(n) for n in names)}: {body}"
        fn = eval(compile(vetted(src, "<rules>", "eval"), "<rules>", "eval"), self.ns)  # noqa: S307 - vetted
        if len(self._eval_cache) >= MOST_COMPILED:
            self._eval_cache.clear()
        self._eval_cache[key] = (e, fn)
        return fn

    def evaluate(self, e: I.Expr, env: dict[str, Any], forced: dict | None = None,
                 state: GameState | None = None):
        """Evaluate one expression with local values ``env``. ``forced`` fixes the
        choices made inside scorings (to replay a witness)."""
        names = tuple(sorted(env))
        fn = self.compiled(e, names)
        self.use(state if state is not None else self.ns["ST"])
        self.ns["_FORCE"] = forced
        try:
            with rt.bounded("the expression"):
                return fn(*(env[n] for n in names))
        finally:
            self.ns["_FORCE"] = None

    def call(self, name: str, *args, state: GameState | None = None, forced: dict | None = None,
             mode: int = 1):
        """Evaluate a definition or a scoring on concrete arguments."""
        self.use(state if state is not None else self.ns["ST"])
        with rt.bounded(f"'{name}'"):
            if name in self.program.scorings:
                return self.ns[sname(name)](mode, forced, *args)
            if name in self.program.constants and not args:
                return self.program.constants[name]     # a param or a switch
            return self.ns[fname(name)](*args)

    def run(self, procedure: str, *args, state: GameState | None = None):
        """Run one procedure of the spec on the current (or given) state."""
        self.use(state if state is not None else self.ns["ST"])
        with rt.bounded(f"the procedure '{procedure}'"):
            return run_through(self.ns[prname(procedure)](*args))

    def record(self, name: str, **fields):
        """A record value of the spec: ``record('token', owner=seat, power=3)``."""
        info = self.program.records[name]
        return info.cls(*[fields[f] for f, _ in info.fields])

    def new_state(self, seats: list[rt.Seat], seed: int | None = None, agents=None) -> GameState:
        st = GameState(self, seats, seed, agents)
        if self.keeps_knowledge:
            st.knowledge = Knowledge(self.program, seats, lazy=self.fast)     # (the baseline: worked out at once)
        self.use(st)
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
        seat = rt.Seat if self.fast else BaselineSeat      # (the baseline's: hashed in Python, as before)
        seats = []
        for spec in mode.seats:
            if spec.name is None:
                for i in range(players):
                    seats.append(seat(len(seats), f"p{i + 1}", "player", f"Player {i + 1}"))
            else:
                seats.append(seat(len(seats), spec.name, spec.kind, spec.title or spec.name))
        return seats

    def stretch(self) -> "_Stretch":
        """What a stretch of play runs under (a whole game, or the rules between two choices of a
        game driven from outside): the budget of a whole game and, with the speed-ups on, the
        cycle collector run rarely (``collecting``)."""
        return _Stretch(self.fast)

    def batch(self):
        """``with interp.batch():`` many games played one after the other (a study's, a
        tournament's): with the speed-ups on, the cycle collector stays rare between them too.
        Each game's stretch puts the collector's threshold back when it ends; the next thing
        the process made then found the game's values young and walked them all, though
        they are freed as soon as the next game starts (in the shorter of the shipped games,
        a walk after nearly every game, about 8% of its time: docs/performance.md). Within a
        batch the threshold stays raised."""
        return few_collections() if self.fast else contextlib.nullcontext()

    def play(self, mode_name: str, players: int, seed: int, agent_factory: Callable | None = None,
             stop_at: str | None = None, watchers: list | None = None, seats: tuple | None = None,
             prepare: Callable | None = None) -> GameState:
        """Play a whole game (or up to the checkpoint ``stop_at``, 'name' or 'name:count').
        ``seats``: the seats of a position the game resumes from (their names); ``prepare``
        is called with the new state before the first rule runs (compiler/play/resume.py)."""
        mode = self.program.modes[mode_name]
        seats = list(seats) if seats is not None else self.seats_for(mode, players)
        factory = agent_factory or (lambda seat, s: RandomAgent(s * 1_000_003 + seat.index))
        agents = {s.index: factory(s, seed) for s in seats if s.kind == "player"}
        st = self.new_state(seats, seed, agents)
        st.mode = mode.name
        if stop_at is not None:
            st.stop_at = stop_at if ":" in stop_at else stop_at + ":1"
        st.watchers = list(watchers or [])
        if prepare is not None:
            prepare(st)
        named = {s.name: s for s in seats}
        args = [named[s.name] for s in mode.seats if s.name]
        try:
            with self.stretch():
                run_through(self.ns[mname(mode.name)](*args))
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


# id(program) -> (program, its interpreter), the most recently asked last; a few only: a
# long-running process (the workbench) loads a program for every edit, and each one kept
# held its interpreter and the interpreter's memos for the life of the process
_INTERPRETERS: dict = {}
KEPT_INTERPRETERS = 8


class _Stretch:
    """``with interp.stretch():`` as ``with rt.bounded("the game", GAME_STEPS), few_collections():``
    (the second only with the speed-ups on); a class rather than a generator: entered at
    every choice of a game driven from outside."""

    __slots__ = ("budget", "collecting")

    def __init__(self, fast: bool):
        self.budget = rt.bounded("the game", GAME_STEPS)
        self.collecting = few_collections() if fast else None

    def __enter__(self):
        self.budget.__enter__()
        if self.collecting is not None:
            self.collecting.__enter__()
        return self

    def __exit__(self, kind, exc, tb):
        if self.collecting is not None:
            self.collecting.__exit__(kind, exc, tb)        # (never keeps an error from going on)
        return self.budget.__exit__(kind, exc, tb)


def _always(where: I.Expr) -> bool:
    """Whether a choice's filter is the constant true (a reading that lets every option
    through, folded to a constant when the spec is loaded)."""
    return isinstance(where, I.Const) and where.value is True


def _listed(var: str, coll: str, cond: str, fast: bool) -> str:
    """Code of the list of a choice's options: those of ``coll`` that pass ``cond``; with
    the speed-ups and no filter, the list made in C."""
    return f"list({coll})" if fast and not cond else f"[{var} for {var} in {coll}{cond}]"


def _bound(nodes) -> set:
    """The names the loops inside ``nodes`` bind."""
    return {b.var for x in I.descendants(list(nodes)) if isinstance(x, I.Agg) for b in x.binders}


def run_through(procedure) -> None:
    """Run a procedure's generator to its end: every choice is made inside it."""
    for asked in procedure:
        raise RuntimeError(f"the game asked {asked.name!r} of a seat played from outside, "
                           "where no seat is: a bug of rulewright")


def interpreter_for(program: I.Program):
    """One compiled interpreter per program (the encoder's constant folding, the replay)."""
    hit = _INTERPRETERS.pop(id(program), None)
    if hit is None or hit[0] is not program:
        hit = (program, Interpreter(program))
    _INTERPRETERS[id(program)] = hit
    while len(_INTERPRETERS) > KEPT_INTERPRETERS:
        del _INTERPRETERS[next(iter(_INTERPRETERS))]
    return hit[1]
