"""What seeded games show: every mode played N times with random seats, each game
watched for the guarantees the rules owe a game.

In:  a checked program, the number of games per mode, the first seed.
Out: findings of the kinds ``invariant`` (every invariant holds at every checkpoint
     and at the end), ``playable`` (every choice a seat must make has an option),
     ``terminates`` (every game ends within the step budget) and ``runtime`` (no game
     reaches an error of the rules: an empty ``first``, a draw from an empty pile...).
     A broken guarantee is a COUNTEREXAMPLE whose witness is the game itself (mode,
     players, seed: ``rulewright play`` replays it) and, for an invariant, the position
     that breaks it (a state file ``show`` reads); none broken in N games is SAMPLED.
"""
from __future__ import annotations

import signal
import threading
import time
from contextlib import contextmanager

from rulewright.compiler import ir as I
from rulewright.compiler.diagnostics import RulesError, RuntimeRulesError, reason_of
from rulewright.compiler.interpret import Interpreter, locate
from rulewright.compiler.play import state_io
from rulewright.compiler.play.checks import broken_invariants
from rulewright.compiler.semantics import runtime as rt
from rulewright.solver.verify.findings import Finding

SAMPLED_KINDS = ("invariant", "playable", "terminates", "runtime")


# ---------------------------------------------------------------- a game within a time limit
class OutOfTime(BaseException):
    """The time limit of a sampled game ran out while it was played (a BaseException,
    as KeyboardInterrupt is: no ``except Exception`` of the rules' code holds it up)."""


@contextmanager
def time_limit(seconds: float | None):
    """``with time_limit(s):`` a game played inside stops with ``OutOfTime`` after ``s``
    seconds: in the main thread a timer signal interrupts it wherever it runs (a timer
    already set is set again after); elsewhere ``past(deadline)`` at its checkpoints
    (``checkpoint_watch``) is all there is. None: no limit."""
    if seconds is None or not hasattr(signal, "setitimer") or \
            threading.current_thread() is not threading.main_thread():
        yield
        return
    armed = [True]

    def ring(signum, frame):
        if armed[0]:
            raise OutOfTime()
    started = time.monotonic()
    before = signal.signal(signal.SIGALRM, ring)
    outer, _ = signal.setitimer(signal.ITIMER_REAL, max(0.001, seconds))
    try:
        yield
    finally:
        armed[0] = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)
        if outer:           # (someone else's timer: what is left of it)
            signal.setitimer(signal.ITIMER_REAL, max(0.001, outer - (time.monotonic() - started)))
        # a game stopped anywhere may have been inside an evaluation's step budget: none
        # is counting now (the games are played outside any)
        rt.stop_counting()


def checkpoint_watch(deadline: float | None):
    """A watcher of a game that stops it with ``OutOfTime`` at its first checkpoint past
    ``deadline`` (a ``time.monotonic()`` time; None: never)."""
    def watch(state, label: str):
        if deadline is not None and time.monotonic() > deadline:
            raise OutOfTime()
    return watch


def play_within(interp, mode: str, players: int, seed: int, seconds: float | None, watchers=()):
    """A seeded game, stopped with ``OutOfTime`` when it takes more than ``seconds``."""
    deadline = None if seconds is None else time.monotonic() + seconds
    with time_limit(seconds):
        return interp.play(mode, players, seed, watchers=[*watchers, checkpoint_watch(deadline)])


def _kind_of(exc: Exception) -> str:
    """Which guarantee an error of a game breaks."""
    text = reason_of(exc)
    if isinstance(exc, rt.OutOfSteps) or "went round a million times" in text or "did not finish within" in text:
        return "terminates"
    if "no legal option" in text or "nothing to choose" in text or "no option" in text:
        return "playable"
    return "runtime"


def _players(mode: I.ModeDef) -> list[int]:
    """The player counts a mode is sampled with: its least and its most (once if equal)."""
    return sorted({mode.min_players, mode.max_players})


def sample(program: I.Program, games: int, kinds: set[str], seed: int = 1, progress=None,
           time_limit: float | None = None) -> list[Finding]:
    """The findings of ``games`` seeded games of every mode at its least and most players.
    A game still running after ``time_limit`` seconds is stopped: what it was to show
    is UNKNOWN (never "all well"), and the games left of that mode are not played (they
    would most likely take as long)."""
    interp = Interpreter(program)
    out: list[Finding] = []
    broken: dict[tuple[str, str], Finding] = {}     # (kind, definition) -> its first counterexample
    played: dict[str, int] = {}
    cut: dict[str, tuple[int, int]] = {}            # mode -> (players, seed) of its first game cut
    started = time.perf_counter()
    for mode in program.modes.values():
        for players in _players(mode):
            if mode.name in cut:
                break           # (its games at another player count would most likely take as long)
            for s in range(seed, seed + games):
                if progress:
                    progress(f"game {mode.name} {players}p seed {s}")
                ended = _one_game(program, interp, mode, players, s, kinds, broken, time_limit)
                if ended is None:
                    cut.setdefault(mode.name, (players, s))
                    break
                if ended:
                    played[mode.name] = played.get(mode.name, 0) + 1     # (games that ended)
    seconds = time.perf_counter() - started
    out.extend(broken.values())
    for kind in SAMPLED_KINDS:
        if kind not in kinds:
            continue
        if kind == "invariant":
            names = [inv.name for inv in program.invariants.values()]
        else:
            names = list(program.modes)
        for name in names:
            if (kind, name) in broken:
                continue
            node = program.invariants[name].node if kind == "invariant" else program.modes[name].node
            n = sum(played.values()) if kind == "invariant" else played.get(name, 0)
            stopped = sorted(cut.items()) if kind == "invariant" else \
                ([(name, cut[name])] if name in cut else [])
            if stopped:
                out.append(Finding(kind, definition=name, status="UNKNOWN", severity="warning",
                                   span=node.name_span, rule_ids=tuple(t for t, _ in node.tags), seconds=seconds,
                                   message=_cut_words(kind, name, n, stopped, time_limit),
                                   witness={"games": n, "first_seed": seed,
                                            "cut": [{"mode": m, "players": p, "seed": s_,
                                                     "replay": f"rulewright play SPEC --mode {m} --players {p} "
                                                               f"--seed {s_}"} for m, (p, s_) in stopped]}))
                continue
            out.append(Finding(kind, definition=name, status="SAMPLED", severity="info", span=node.name_span,
                               rule_ids=tuple(t for t, _ in node.tags), seconds=seconds,
                               message=_sampled_words(kind, name, n), witness={"games": n, "first_seed": seed}))
    return out


def _cut_words(kind: str, name: str, n: int, stopped: list, limit: float | None) -> str:
    """What a sampled check could not tell, a game having been stopped by the time limit."""
    games = "; ".join(f"mode '{m}', {p} players, seed {s}" for m, (p, s) in stopped)
    what = {"invariant": f"whether invariant '{name}' holds",
            "playable": f"whether every choice of mode '{name}' has an option",
            "terminates": f"whether every game of mode '{name}' ends",
            "runtime": f"whether the rules of mode '{name}' always compute"}[kind]
    return (f"could not tell {what}: a game was still running when the time limit ({limit:g} s) ran out "
            f"({games}; the games left of the mode were not played); {n} seeded game(s) ended without showing "
            "otherwise (a longer --time-limit plays them whole)")


def _sampled_words(kind: str, name: str, n: int) -> str:
    return {"invariant": f"invariant '{name}' held at every checkpoint of {n} seeded games (evidence, not proof)",
            "playable": f"in {n} seeded games of mode '{name}', every choice a seat had to make had an option",
            "terminates": f"all {n} seeded games of mode '{name}' ended within the step budget",
            "runtime": f"no rule failed to compute in {n} seeded games of mode '{name}'"}[kind]


def _one_game(program, interp, mode, players: int, seed: int, kinds: set[str], broken: dict,
              seconds: float | None = None) -> bool | None:
    """Play one game, recording what it breaks; whether it ended without an error (None:
    it was stopped by the time limit, having broken nothing by then)."""
    found: list = []

    def watch(state, label: str):
        if "invariant" in kinds and not found:
            for b in broken_invariants(interp, state):
                found.append((b, label, state_io.dump(state, seed=seed)))
                return

    game = {"mode": mode.name, "players": players, "seed": seed}
    try:
        try:
            state = play_within(interp, mode.name, players, seed, seconds, watchers=[watch])
        except OutOfTime:
            state = None
        if state is not None:
            watch(state, "end")
    except (RulesError, rt.OutOfSteps) as exc:
        if isinstance(exc, RuntimeRulesError):
            exc = locate(exc)
        kind = _kind_of(exc)
        if kind in kinds and (kind, mode.name) not in broken:
            span = exc.diagnostics[0].span if getattr(exc, "diagnostics", None) else mode.node.name_span
            broken[(kind, mode.name)] = Finding(
                kind, definition=mode.name, status="COUNTEREXAMPLE", severity="error", span=span,
                rule_ids=tuple(t for t, _ in mode.node.tags),
                message=f"a game of mode '{mode.name}' with {players} players (seed {seed}) "
                        + {"terminates": "does not end within the step budget",
                           "playable": "reaches a choice with no option",
                           "runtime": "reaches an error of the rules"}[kind] + f": {reason_of(exc)}",
                witness={**game, "replay": f"rulewright play SPEC --mode {mode.name} --players {players} "
                                           f"--seed {seed}"})
        return False
    if found and ("invariant", found[0][0].invariant.name) not in broken:
        b, label, doc = found[0]
        inv = b.invariant
        broken[("invariant", inv.name)] = Finding(
            "invariant", definition=inv.name, status="COUNTEREXAMPLE", severity="error", span=inv.node.name_span,
            rule_ids=tuple(t for t, _ in inv.node.tags),
            message=f"the rules reach a position that breaks invariant '{inv.name}' "
                    f"({'once the game is over' if label == 'end' else 'at checkpoint ' + label}, mode "
                    f"'{mode.name}', {players} players, seed {seed}): {b.message}",
            witness={**game, "checkpoint": label}, witness_files=[(".state.json", "state", doc)])
    return state is not None or None
