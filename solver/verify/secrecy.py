"""``verify --check secrecy``: does every choice a seat makes depend only on what it may see?

In:  a checked program: who sees each pile (``seen by``), its modes and procedures (each
     ``choose ... by SEAT``: its options, its size and its ``where``), its playing queries
     (those with ``play`` statements: what a solver seat answers for its player).
Out: ``secrecy`` findings: for each choice or playing query that reads a pile hidden from
     its seat, a COUNTEREXAMPLE (an error) with the chain of reads that leads there
     (file:line of each); when none does, one PROVED finding (a fact of the rules as
     written: every read was followed).

What counts as a read: a pile's cards (``hand(q)`` when ``q`` is not the seat choosing,
a stack seen by nobody), through any definition called, with its arguments followed (a
definition called with the chooser reads the chooser's own pile); its size is public
(``size(deck)`` reads nothing hidden). Procedures are followed from the modes with
their arguments, ``let`` values are followed to what they hold. The analysis is
conservative: a value computed from a hidden pile that the seat could also work out (the
backs of another hand, counted card by card) is still a read of that pile.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulewright.compiler import ir as I
from rulewright.compiler.types import SeatT
from rulewright.solver.verify.findings import Finding

MOST_DEPTH = 60          # procedures and definitions followed into one another at most


@dataclass(frozen=True)
class Read:
    """A read of a hidden pile, and the chain of places that lead to it (outermost first)."""
    pile: str
    why: str
    chain: tuple[tuple[Any, str], ...]      # (span, what is there)
    whose: Any = None                       # the seat of a per-seat pile, by its key


def _hidden(program: I.Program, name: str):
    var = program.state.get(name)
    if var is None or var.public or not var.is_pile:
        return None
    return var


class _Reads:
    """The hidden reads of expressions, for a chooser known by its key."""

    def __init__(self, program: I.Program):
        self.program = program
        self.memo: dict[tuple, list[Read]] = {}

    # ------------------------------------------------------------ keys of seats
    def resolve(self, e: I.Expr, env: dict):
        """``e`` with locals bound by a let or a parameter replaced by what they hold."""
        seen = 0
        while isinstance(e, I.Local) and e.name in env and seen < MOST_DEPTH:
            e, env = env[e.name]
            seen += 1
        return e, env

    def key(self, e: I.Expr | None, env: dict):
        if e is None:
            return None
        e, env = self.resolve(e, env)
        if isinstance(e, I.Local):
            return ("local", e.name)
        if isinstance(e, I.Global):
            return ("global", e.name)
        if isinstance(e, I.Const):
            return ("const", repr(e.value))
        if isinstance(e, I.Call):
            return ("call", e.name, tuple(self.key(a, env) for a in e.args))
        if isinstance(e, I.SeatVar):
            return ("var", e.name, self.key(e.seat, env))
        if isinstance(e, I.Op):
            return ("op", e.op, tuple(self.key(a, env) for a in e.args))
        return ("other", id(e))

    # ------------------------------------------------------------ expressions
    def expr(self, e, env: dict, me, depth: int = 0) -> list[Read]:
        """The hidden reads of ``e`` (locals bound in ``env``) for the chooser keyed ``me``."""
        if e is None or depth > MOST_DEPTH:
            return []
        if isinstance(e, I.Local):
            if e.name in env:
                value, venv = env[e.name]
                return self.expr(value, venv, me, depth + 1)
            return []
        if isinstance(e, I.Op) and e.op == "size" and len(e.args) == 1:
            inner = e.args[0]
            inner, ienv = self.resolve(inner, env)
            if isinstance(inner, I.SeatVar):
                return self.expr(inner.seat, ienv, me, depth + 1)   # (a pile's size is public)
            if isinstance(inner, I.Global) and inner.name in self.program.state:
                return []
        out: list[Read] = []
        if isinstance(e, I.SeatVar):
            var = _hidden(self.program, e.name)
            if var is not None:
                own = var.seen == "owner" and var.per_seat and me is not None and self.key(e.seat, env) == me
                if not own:
                    who = "nobody" if var.seen == "nobody" else "its owner only"
                    shown = f"{e.name}({_words(e.seat)})"
                    out.append(Read(e.name, f"reads {shown}, seen by {who}", ((e.span, shown),),
                                    self.key(e.seat, env)))
            return out + self.expr(e.seat, env, me, depth + 1)
        if isinstance(e, I.Global):
            var = _hidden(self.program, e.name)
            if var is not None:
                return [Read(e.name, f"reads {e.name}, seen by nobody", ((e.span, e.name),))]
            fd = self.program.funcs.get(e.name)
            if fd is not None and fd.body is not None and not fd.params:
                return self.func(fd, (), depth + 1, e.span)
            return []
        if isinstance(e, I.Call):
            for a in e.args:
                out += self.expr(a, env, me, depth + 1)
            fd = self.program.funcs.get(e.name)
            if fd is not None and fd.body is not None:
                selves = tuple(i for i, a in enumerate(e.args) if me is not None and self.key(a, env) == me)
                out += self.func(fd, selves, depth + 1, e.span)
            sd = self.program.scorings.get(e.name)
            if sd is not None:
                out += self.scoring(sd, tuple(i for i, a in enumerate(e.args)
                                              if me is not None and self.key(a, env) == me), depth + 1, e.span)
            return out
        for c in I.children(e):
            if isinstance(c, I.Binder):
                out += self.expr(c.coll, env, me, depth + 1) + self.expr(c.cond, env, me, depth + 1)
            else:
                out += self.expr(c, env, me, depth + 1)
        return out

    def func(self, fd: I.FuncDef, selves: tuple[int, ...], depth: int, at) -> list[Read]:
        """The hidden reads of a definition whose parameters ``selves`` are the chooser;
        the other arguments are followed at the call (their reads are the caller's)."""
        key = (fd.name, selves)
        if key not in self.memo:
            self.memo[key] = []          # (a definition that calls itself: what it read so far)
            env = {fd.params[i][0]: (_CHOOSER, {}) for i in selves}
            self.memo[key] = self.expr(fd.body, env, _ME if selves else None, depth)
        word = "rule" if fd.kind == "rule" else "definition"
        return [Read(r.pile, r.why, ((at, f"{word} {fd.name}"),) + r.chain, r.whose) for r in self.memo[key]]

    def scoring(self, sd: I.ScoringDef, selves: tuple[int, ...], depth: int, at) -> list[Read]:
        key = ("scoring " + sd.name, selves)
        if key not in self.memo:
            self.memo[key] = []
            env = {sd.params[i][0]: (_CHOOSER, {}) for i in selves}
            reads: list[Read] = []
            for step in sd.steps:
                reads += self.stmts(step.body, env, _ME if selves else None, depth)
            self.memo[key] = reads
        return [Read(r.pile, r.why, ((at, f"scoring {sd.name}"),) + r.chain, r.whose) for r in self.memo[key]]

    def stmts(self, body: list, env: dict, me, depth: int) -> list[Read]:
        """The hidden reads of a query's or a scoring's statements (every expression)."""
        out: list[Read] = []
        for x in I.descendants(body):
            if isinstance(x, I.Let):
                env = _bind(env, x.name, x.value)
            if isinstance(x, I.Expr):
                continue
            for c in I.children(x):
                if isinstance(c, I.Expr):
                    out += self.expr(c, env, me, depth + 1)
                elif isinstance(c, I.Binder):
                    out += self.expr(c.coll, env, me, depth + 1) + self.expr(c.cond, env, me, depth + 1)
        return out


# the chooser, as a definition's parameter given the chooser stands for it
_CHOOSER = I.Global(SeatT(), None, "\x00chooser")
_ME = ("global", "\x00chooser")


def _bind(env: dict, name: str, value) -> dict:
    return {**env, name: (value, env)}


# ---------------------------------------------------------------- the roots
@dataclass
class _Root:
    what: str           # "choice 'k' of s" / "playing query 'best_move'"
    name: str           # the finding's definition
    span: Any
    reads: list[Read]


def _choices(program: I.Program, reads: _Reads) -> list[_Root]:
    """Every choice made by a seat in the modes and the procedures they run, with the
    hidden reads of its options, size and condition."""
    out: list[_Root] = []
    done: set = set()

    def walk(body: list, env: dict, owner: str, depth: int, stack: tuple, shown: frozenset) -> frozenset:
        """The choices of ``body``; ``shown``: the piles revealed whole so far, and nothing
        moved in or out of them since: (pile, its seat's key, the seat told or None)."""
        for st in body:
            changed = _touched(st)
            if changed:
                shown = _drop(shown, changed)
            if isinstance(st, I.Let):
                env = _bind(env, st.name, st.value)
            elif isinstance(st, I.Reveal):
                if st.cards is None:
                    pile, pile_env = reads.resolve(st.pile, env)
                    whose = reads.key(pile.seat, pile_env) if isinstance(pile, I.SeatVar) else None
                    shown = shown | {(getattr(pile, "name", None), whose,
                                      None if st.to is None else reads.key(st.to, env))}
            elif isinstance(st, I.Choose) and isinstance(st.chooser, I.Expr):
                me = reads.key(st.chooser, env)
                found = []
                for part in (st.coll, st.size, st.where):
                    found += [r for r in reads.expr(part, env, me)
                              if (r.pile, r.whose, me) not in shown and (r.pile, r.whose, None) not in shown]
                key = (id(st), tuple(sorted(r.pile for r in found)))
                if key in done:
                    continue
                done.add(key)
                chooser = _words(st.chooser)
                out.append(_Root(f"choice '{st.name}' of {chooser}", f"{owner}.{st.name}", st.span,
                                 [Read(r.pile, r.why, stack + ((st.span, f"choice '{st.name}' of {chooser}"),) + r.chain)
                                  for r in found]))
            elif isinstance(st, I.Do) and depth < MOST_DEPTH:
                pd = program.procedures.get(st.proc)
                if pd is not None:
                    penv = {p: (a, env) for (p, _), a in zip(pd.params, st.args)}
                    # (what the procedure reveals stays revealed after it only as far as it is sure)
                    shown = walk(pd.body, penv, pd.name, depth + 1, stack + ((st.span, f"procedure {pd.name}"),),
                                 shown) & shown
            else:
                after = []
                # (a loop's body may run again after what it moves: nothing it moves stays revealed)
                entry = _drop(shown, _moved_in(st, program)) if isinstance(st, (I.Repeat, I.For, I.While)) else shown
                for attr in ("body", "then", "other"):
                    inner = getattr(st, attr, None)
                    if isinstance(inner, list):
                        after.append(walk(inner, env, owner, depth, stack, entry))
                if after:
                    # (after a branch or a loop: what every way through it leaves revealed, and
                    # nothing a loop's body moves, since it may run again)
                    shown = _drop(frozenset.intersection(shown, *after), _moved_in(st, program))
        return shown
    for m in program.modes.values():
        walk(m.body, {}, m.name, 0, (), frozenset())
    return out


def _zone_name(e) -> str | None:
    return e.name if isinstance(e, (I.Global, I.SeatVar)) else None


def _touched(st) -> set[str]:
    """The piles a statement moves cards in or out of (not those inside its blocks)."""
    if isinstance(st, I.Deal):
        return {n for n in (_zone_name(st.source), _zone_name(st.target)) if n}
    if isinstance(st, I.Move):
        return {n for n in (_zone_name(st.source), _zone_name(st.target), _zone_name(st.what)) if n}
    if isinstance(st, (I.Take, I.Place)):
        return {n for n in (_zone_name(st.source),) if n}
    if isinstance(st, I.Pass):
        return {st.zone}
    if isinstance(st, I.SetVar):
        return {st.name}
    return set()


def _moved_in(st, program: I.Program) -> set[str]:
    """The piles any statement inside ``st`` moves cards in or out of, the procedures it
    calls included."""
    names: set[str] = set()
    todo, seen = [st], set()
    while todo:
        for x in I.descendants([todo.pop()]):
            if isinstance(x, I.Stmt):
                names |= _touched(x)
            if isinstance(x, I.Do) and x.proc not in seen and x.proc in program.procedures:
                seen.add(x.proc)
                todo += program.procedures[x.proc].body
    return names


def _drop(shown: frozenset, names: set[str]) -> frozenset:
    """``shown`` without the piles ``names``."""
    return frozenset(x for x in shown if x[0] not in names)


def _words(e) -> str:
    """A seat's expression in words: a name, a call, or 'a seat'."""
    if isinstance(e, (I.Local, I.Global)):
        return "the chooser" if e is _CHOOSER else e.name
    if isinstance(e, I.Call):
        return f"{e.name}(...)"
    return "a seat"


def _queries(program: I.Program, reads: _Reads) -> list[_Root]:
    """The playing queries (their ``play`` statements make a solver seat's choices), with
    the hidden reads of their whole body for the seat they answer for."""
    out: list[_Root] = []
    for q in program.queries.values():
        if not any(isinstance(st, I.Play) for st in I.descendants(q.body)):
            continue
        seat = next((n for n, t, _ in q.inputs if isinstance(t, SeatT)), None)
        me = ("local", seat) if seat else None
        found = reads.stmts(q.body, {}, me, 0)
        out.append(_Root(f"playing query '{q.name}'", q.name, q.node.name_span,
                         [Read(r.pile, r.why, ((q.node.name_span, f"playing query '{q.name}'"
                                                 + (f" for {seat}" if seat else "")),) + r.chain)
                          for r in found]))
    return out


def secrecy(program: I.Program) -> list[Finding]:
    """The ``secrecy`` findings of a program (see the module's docstring)."""
    if all(v.public for v in program.state.values()):
        return [Finding("secrecy", definition="state", status="PROVED", severity="info",
                        message="the spec hides nothing ('seen by' on no pile): every seat sees the whole "
                                "state, so no choice can read what its seat may not see")]
    reads = _Reads(program)
    roots = _choices(program, reads) + _queries(program, reads)
    out: list[Finding] = []
    for root in roots:
        seen: set = set()
        for r in root.reads:
            if r.pile in seen:
                continue
            seen.add(r.pile)
            chain = [f"{_at(span)}: {what}" for span, what in r.chain]
            out.append(Finding("secrecy", definition=root.name, status="COUNTEREXAMPLE", severity="error",
                               span=root.span,
                               message=f"{root.what} {r.why}: what its seat chooses can depend on cards "
                                       f"it may not see",
                               witness={"reads": r.pile, "chain": chain}))
    if not out:
        choices = sum(1 for r in roots if r.what.startswith("choice"))
        queries = len(roots) - choices
        out.append(Finding("secrecy", definition="state", status="PROVED", severity="info",
                           message=f"no choice of a seat ({choices}) and no playing query ({queries}) reads a "
                                   "pile hidden from its seat: every read was followed, through every "
                                   "definition and procedure"))
    return out


# ---------------------------------------------------------------- sampled
MOST_CHECKED_PER_GAME = 25      # choices of one game whose options are made again on a determinization
MOST_GAMES = 5                  # games of each mode and number of players that verify plays for it
EVERY_NTH = 3                   # of a game's choices of seats, every third one (spread over the game)


def sampled(program: I.Program, games: int, seed: int = 1) -> list[Finding]:
    """In ``games`` seeded games of each mode (its least and most players), at each choice
    of a seat (every ``EVERY_NTH``-th, up to ``MOST_CHECKED_PER_GAME`` a game): the options made again on a
    position the seat cannot tell from the true one (a determinization) are the same.
    A difference is a COUNTEREXAMPLE (the seed, the checkpoint, the choice, the options on
    each side); none is SAMPLED: evidence, not proof."""
    import random                                      # (only this check deals positions)
    from rulewright.compiler.play.views import determinize, unseen_piles     # (the games' modules: played here only)
    from rulewright.compiler.interpret import interpreter_for                # (the same)
    from rulewright.compiler.semantics.render import jsonable                # (the same)
    interp = interpreter_for(program)
    checked = 0
    out: list[Finding] = []
    first: dict[str, Finding] = {}          # a choice's first difference, and in how many games
    games_with: dict[str, int] = {}
    for mode in program.modes.values():
        for players in sorted({mode.min_players, mode.max_players}):
            for g in range(games):
                game_seed = seed + g
                rng = random.Random(game_seed)
                done = [0, 0]          # choices checked, choices seen
                differ: list = []

                def watch(state, name, seat, make, options, done=done, differ=differ, rng=rng):
                    nonlocal checked
                    done[1] += 1
                    if done[1] % EVERY_NTH or done[0] >= MOST_CHECKED_PER_GAME or differ \
                            or not unseen_piles(state, seat.name):
                        return
                    done[0] += 1
                    checked += 1
                    other = determinize(state, seat.name, rng)
                    interp.use(other)
                    try:
                        again = make()
                    except Exception as exc:        # noqa: BLE001 (the rules fail on what the seat cannot tell apart)
                        again = [f"an error of the rules: {exc}"]
                    finally:
                        interp.use(state)
                    if sorted(map(repr, again)) != sorted(map(repr, options)):
                        at = ",".join(f"{k}:{v}" for k, v in state.checkpoints.items())
                        differ.append((name, seat.name, at, options, again))

                def prepare(state, watch=watch):
                    state.options_watch = watch
                try:
                    interp.play(mode.name, players, game_seed, prepare=prepare)
                except Exception:                   # noqa: BLE001 (a game that fails: the runtime check's)
                    pass
                for name, who, at, mine, theirs in differ[:1]:
                    games_with[name] = games_with.get(name, 0) + 1
                    if name in first:
                        continue
                    only_true = [o for o in mine if o not in theirs][:5]
                    only_other = [o for o in theirs if o not in mine][:5]
                    first[name] = Finding(
                        "secrecy", definition=name, status="COUNTEREXAMPLE", severity="error",
                        message=f"choice '{name}' of {who} has other options on a position {who} cannot tell "
                                f"from the true one (mode {mode.name}, {players} players, seed {game_seed}): "
                                "what it may choose depends on cards it may not see",
                        witness={"mode": mode.name, "players": players, "seed": game_seed, "checkpoints": at,
                                 "options only in the true position": [jsonable(o) for o in only_true],
                                 "options only in the other": [jsonable(o) for o in only_other]})
    for name, f in first.items():
        if games_with[name] > 1:
            f.message += f" (in {games_with[name]} of the games played)"
        out.append(f)
    if not out and checked:
        out.append(Finding("secrecy", definition="state", status="SAMPLED", severity="info",
                           message=f"at {checked} choices of seats in seeded games, a position the seat cannot "
                                   "tell from the true one gave it the same options"))
    return out


def _at(span) -> str:
    if span is None or getattr(span, "line", 0) <= 0:
        return "?"
    return f"{span.file}:{span.line}:{span.col}"


__all__ = ["secrecy", "sampled"]
