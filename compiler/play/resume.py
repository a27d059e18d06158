"""Resuming a game from a position: a saved game exactly, a hand-written position from
its checkpoint.

In:  an interpreter, a position read from a state file (``state_io.load``) and its
     document, the agents to go on with, a seed.
Out: ``entry`` (what a saved state records to resume exactly: the choices made so
     far, the random generators' states, where the game stands), ``Start`` (a
     position to resume from) and ``play_from`` (the game from there, as
     ``Interpreter.play`` gives it).

The rules are compiled to functions whose place in a game (which loop, which turn,
the parameters of the procedures running) is not part of the position, so a game is
brought back to its place by playing to it:

- a saved game (its ``resume`` entry holds its history) is played again from its seed
  with the choices it made, to the checkpoint it was saved at (or to the choice it was
  saved before); the position of the file is then loaded over the replayed one (the
  same, unless the file was edited), the random generators are set back, and the game
  goes on with the agents given: exactly the game that was saved;
- a hand-written position names its checkpoint (``"checkpoint": "evaluation:2"``); a
  game is played at random to that checkpoint, and the position loaded over it there.
  What the rules keep outside the position at that moment comes from that game, so a
  game is looked for whose seat variables (whose turn, who is first) are those of the
  position, and whose running procedures hold no seat or value standing for a
  variable of the position but another one: up to ``TRIES`` games, else the position
  is refused with what differs.
"""
from __future__ import annotations

import json
import random
import sys
from dataclasses import dataclass, field
from typing import Any, Callable

from rulewright.compiler import files, ir as I
from rulewright.compiler.diagnostics import BadInputError, Diagnostic, IllegalMoveError, RuntimeRulesError, reason_of
from rulewright.compiler.interpret.codegen import raised_at_rule
from rulewright.compiler.interpret.state import Event, GameState, RandomAgent
from rulewright.compiler.semantics import render, runtime as rt
from rulewright.compiler.types import EnumT, SeatT
from rulewright.compiler.play.state_io import dump, load, locate
from rulewright.compiler.play.checks import broken_invariants

TRIES = 60          # games played to a hand-written position's checkpoint, looking for one that fits it
MOST_HISTORY = 200_000      # choices a saved history holds at most


# ------------------------------------------------------------------ saving
def history(state: GameState) -> list[dict]:
    """The choices a game made, in order, as the log writes them."""
    return [{"seat": e.seat, "choice": e.detail["choice"], "value": e.detail["value"]}
            for e in state.log if e.kind == "choose"]


def _rng(r: random.Random) -> list:
    version, internal, gauss = r.getstate()
    return [version, list(internal), gauss]


def entry(state: GameState) -> dict:
    """What a state file records to resume its game exactly: the choices made (the game
    is played again with them), where it stands, the random generators' states."""
    made = history(state)
    return {"history": made,
            "at": state.stopped or {"choices": len(made)},
            "rng": _rng(state.rng),
            "agents": {s.name: _rng(r) for s in state.seats
                       if isinstance(r := getattr(state.agents.get(s.index), "rng", None), random.Random)},
            **({"from": state.began} if getattr(state, "began", None) else {})}


def position_text(state: GameState, beside: str | None = None, resumable: bool = True,
                  seed: int | None = None) -> str:
    """A state file's text, the one writer of it: the position one entry a line (to read
    and edit), then, for a game that can be resumed, what resumes it exactly, on one line
    of its own. ``beside``: where the file goes (the paths it names are written relative
    to it); ``seed``: the game's, when not the state's own."""
    doc = dump(state, seed=state.seed if seed is None else seed, beside=beside)
    if not resumable:
        return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"
    doc["resume"] = entry(state)
    text = json.dumps({k: v for k, v in doc.items() if k != "resume"}, indent=1, ensure_ascii=False)
    return text[:-2] + ',\n "resume": ' + json.dumps(doc["resume"], ensure_ascii=False) + "\n}\n"


def write_position(path: str, state: GameState, resumable: bool = True, seed: int | None = None) -> None:
    """A state file written (``position_text``) by the one writer of files: never through
    a symbolic link, never half-written."""
    files.write_text(path, position_text(state, path, resumable, seed))


# ------------------------------------------------------------------ reading
@dataclass
class Start:
    """A position to resume a game from."""
    path: str
    position: GameState                 # as read from the file (checked)
    checkpoint: str | None              # where it stands: "name:N"; None between checkpoints
    history: list[dict] | None = None   # the choices of the saved game; None: written by hand
    seed: int | None = None             # the saved game's seed
    rng: list | None = None
    agent_rngs: dict = field(default_factory=dict)
    text: str = ""
    fit: int | None = None              # the game found to fit a hand-written position (tried first again)
    doc_position: dict = field(default_factory=dict)    # a hand-written position's entries, to save again
    base: "Start | None" = None         # the hand-written position a saved game began from
    base_seed: int = 0                  # the seed it was played on from

    @property
    def saved(self) -> bool:
        return self.history is not None

    @property
    def mode(self) -> str | None:
        return self.position.mode


def start(position: GameState, doc: dict, path: str, text: str) -> Start:
    """The position of a state file (read by ``state_io.load``) as a place to resume from."""
    raw = doc.get("resume")

    def fail(entry: tuple, message: str, hint: str | None = None):
        span = locate(path, text, entry)
        raise BadInputError(Diagnostic(span, message, hint) if span else f"{path}: {message}"
                            + (f" ({hint})" if hint else ""))
    if position.reports and position.stopped is None:
        fail(("reports",), "this position is the end of a game (it has its reports): there is nothing to play "
                           "from it", "save a position with --stop-at CHECKPOINT to go on from there")
    if raw is None:
        if position.stopped is None:
            fail(("checkpoint",) if "checkpoint" in doc else ("seats",),
                 "a position written by hand resumes from its checkpoint, and this one names none",
                 'say where the game stands: "checkpoint": "NAME:N" (the N-th time the game reaches NAME)')
        if position.mode is None:
            fail(("mode",) if "mode" in doc else ("seats",), "a position to play from names its mode",
                 '"mode": the mode of the game, as play --mode takes it')
        return Start(path, _excuse(position), position.stopped, text=text, doc_position=_position_of(doc))
    if not isinstance(raw, dict):
        fail(("resume",), "resume is what play --save-state wrote to resume the game exactly: an object",
             "leave it out to resume a position written by hand from its checkpoint")
    hist = raw.get("history")
    if not isinstance(hist, list) or len(hist) > MOST_HISTORY or any(
            not isinstance(h, dict) or not isinstance(h.get("choice"), str)
            or not isinstance(h.get("seat"), (str, type(None))) for h in hist):
        fail(("resume", "history"), "the history is a list of the choices made: {\"seat\": ..., \"choice\": ..., "
                                    "\"value\": ...}", "leave \"resume\" out to resume from the checkpoint")
    if doc.get("seed") is None or type(doc.get("seed")) is not int:
        fail(("seed",) if "seed" in doc else ("resume",), "a saved game is played again from its seed, and this "
                                                         "file has none", "leave \"resume\" out to resume from the "
                                                                          "checkpoint with a fresh seed")
    if position.mode is None:
        fail(("mode",) if "mode" in doc else ("resume",), "a saved game names its mode")

    def a_state(x) -> bool:
        if not (isinstance(x, list) and len(x) == 3 and isinstance(x[1], list) and len(x[1]) == 625
                and all(type(i) is int and 0 <= i < 2 ** 32 for i in x[1]) and type(x[0]) is int
                and (x[2] is None or type(x[2]) is float)):
            return False
        try:            # (what Python's generator itself takes: its version, its place, its words)
            _set_rng(random.Random(), x)
        except (ValueError, TypeError, OverflowError):
            return False
        return True
    rng = raw.get("rng")
    if rng is not None and not a_state(rng):
        fail(("resume", "rng"), "rng is the state of the game's random generator as saved",
             "[3, [625 whole numbers from 0 to 4294967295, the last at most 624], null], as play --save-state "
             "writes it; leave \"resume\" out to resume from the checkpoint with a fresh seed")
    agents = raw.get("agents", {})
    if not isinstance(agents, dict) or any(not a_state(v) for v in agents.values()) \
            or any(k not in {s.name for s in position.seats} for k in agents):
        fail(("resume", "agents"), "agents holds the saved random generator of each seat's agent",
             "{\"p1\": [3, [625 whole numbers...], null], ...}, as play --save-state writes it, for seats of "
             "the position")
    at = raw.get("at")
    checkpoint = position.stopped
    if isinstance(at, str) and at != checkpoint:
        fail(("resume", "at"), f"the game was saved at {at}, and \"checkpoint\" says {checkpoint}",
             "the two agree in a saved game")
    if at is None or (isinstance(at, dict) and at.get("choices") != len(hist)):
        if not isinstance(at, str):
            fail(("resume", "at"), "at is the checkpoint the game was saved at, or {\"choices\": N} (N: the "
                                   "length of the history)")
    begin = Start(path, _excuse(position), checkpoint if isinstance(at, str) else None, list(hist), doc["seed"],
                  rng, dict(agents), text)
    began = raw.get("from")
    if began is not None:
        if not isinstance(began, dict) or not isinstance(began.get("checkpoint"), str) \
                or type(began.get("seed")) is not int or not isinstance(began.get("position"), dict):
            fail(("resume", "from"), "from is the position written by hand the game began at: its checkpoint, "
                                     "seed and position")
        inner = {"spec": doc.get("spec"), "mode": position.mode, "seats": doc.get("seats"),
                 "checkpoint": began["checkpoint"], **_position_of(began["position"])}
        base = load(position.interp, path, inner, text)
        begin.base = Start(path, _excuse(base), began["checkpoint"], text=text, doc_position=_position_of(inner))
        begin.base_seed = began["seed"]
    return begin


def _position_of(doc: dict) -> dict:
    """The entries of a state document that make its position."""
    return {k: doc[k] for k in ("state", "per_seat", "per_key", "checkpoints") if k in doc}


# ------------------------------------------------------------------ playing
class ResumeError(BadInputError):
    """The position cannot be reached by the rules (the history does not replay, no game
    fits a hand-written position)."""


def _excuse(position: GameState) -> GameState:
    """The position, knowing the invariants it breaks (those written "else warn": the
    others refuse it): a game played on from it does not check them again."""
    position.excused = frozenset(b.invariant.name for b in broken_invariants(position.interp, position))
    return position


def _copy_position(state: GameState, position: GameState) -> None:
    """The position's state variables, counts and reports, in place of the game's (its
    piles copied: a game changes them in place; other values are not changed in place)."""
    def fresh(value):
        if isinstance(value, rt.Zone):
            return rt.Zone(value.name, list(value.cards))
        if isinstance(value, dict):
            return {k: fresh(v) for k, v in value.items()}
        if isinstance(value, list):
            return [fresh(v) for v in value]
        return value
    state.shared = fresh(position.shared)
    state.per = fresh(position.per)
    state.checkpoints = dict(position.checkpoints)
    if position.stopped is not None:
        # the game stands at NAME:N, the N-th time it reached NAME: the count a position may
        # leave out (docs/state.md), and the one the checkpoint the game stands at goes on with
        name, _, count = position.stopped.partition(":")
        state.checkpoints.setdefault(name, int(count))
    # (computed when the position was read: evaluating rules here would run them on it)
    state.excused = getattr(position, "excused", frozenset())


def _set_rng(r: random.Random, saved: list) -> None:
    r.setstate((saved[0], tuple(saved[1]), saved[2]))


def _running_values(state: GameState) -> list[tuple[str, Any]]:
    """The named values of the rules' procedures running now (their parameters, loop
    variables, lets), innermost first."""
    out = []
    frame = sys._getframe(1)
    where = f"<rules {state.interp.program.name}>"
    while frame is not None:
        if frame.f_code.co_filename == where:
            for k, v in frame.f_locals.items():
                if not k.startswith("_") and not callable(v):
                    out.append((k, v))
        frame = frame.f_back
    return out


def _misfits(state: GameState, position: GameState) -> list[str]:
    """What the game played to the checkpoint keeps that the position says otherwise:
    a seat variable with another seat, or a running procedure's value that stands for a
    variable of the position (equal to it in the game) and differs from it there."""
    program: I.Program = state.interp.program
    out = []
    kinds = [v for v in program.state.values() if not v.keyed and isinstance(v.type, (SeatT, EnumT))]
    for var in kinds:
        if isinstance(var.type, SeatT) and state.shared.get(var.name) != position.shared.get(var.name):
            out.append(f"{var.name} = {render.text(state.shared.get(var.name))}")
    for name, value in _running_values(state):
        for var in kinds:
            if value is not None and _same(value, state.shared.get(var.name)) \
                    and not _same(value, position.shared.get(var.name)):
                out.append(f"{name} = {render.text(value)} (as {var.name})")
    return out


def _same(a, b) -> bool:
    try:
        return type(a) is type(b) and a == b
    except Exception:       # noqa: BLE001 (values that do not compare)
        return False


def play_from(interp, begin: Start, *, seed: int | None, agent_factory: Callable | None = None,
              stop_at: str | None = None, watchers: list | None = None) -> GameState:
    """The game from a position: ``seed`` None goes on exactly as the saved game would
    have (a saved game only); a seed plays the rest from that seed. A rule that fails on
    the position (a value no game has there: a seat left none) is a located error."""
    try:
        return _play_from(interp, begin, seed, agent_factory, stop_at, watchers)
    except (*_RULE_FAILURES, RuntimeRulesError) as exc:
        # (none used by a rule is already the spec's error, budget.none_used: on a position
        # read from a file, the Python error under it is the file's)
        raised = getattr(exc, "python_error", None) if isinstance(exc, RuntimeRulesError) else exc
        refused = _failed_on_position(raised, begin) if raised is not None else None
        if refused is None:
            raise
        if hasattr(exc, "game"):
            refused.game = exc.game         # (the game as far as it went, for play --log)
        raise refused from None


# what a rule's code raises on a value the rules never give it (none where a seat is due...)
_RULE_FAILURES = (AttributeError, TypeError, KeyError, IndexError, ValueError, ArithmeticError)


def _failed_on_position(exc: BaseException, begin: Start) -> BadInputError | None:
    """A Python error raised by the rules' own code (or the runtime helpers it calls)
    on a position read from a file, as an error at the rule it was raised in; None when
    it was raised elsewhere (an agent, the engine: not the position's fault)."""
    span = raised_at_rule(exc.__traceback__)
    if span is None:
        return None
    stands = f" at {begin.checkpoint}" if begin.checkpoint else ""
    return BadInputError(Diagnostic(
        span, f"the game cannot go on from the position of {begin.path}: this rule fails on it "
              f"({reason_of(exc)})",
        f"the position holds a value no game has{stands} (a variable left out of the file keeps its "
        "initial value: none for a seat): give it one, or save the position from a game (play --save-state)"))


def _play_from(interp, begin: Start, seed, agent_factory, stop_at, watchers) -> GameState:
    position = begin.position
    mode = interp.program.modes[position.mode]
    players = sum(1 for s in position.seats if s.kind == "player") - \
        sum(1 for s in mode.seats if s.name is not None and s.kind == "player")
    factory = agent_factory or (lambda seat, s: RandomAgent(s * 1_000_003 + seat.index))
    run = dict(mode=mode.name, players=players, stop_at=stop_at, watchers=watchers, seats=position.seats)
    if begin.history is None:           # written by hand: from its checkpoint
        return _reach(interp, begin, begin, run, lambda state: _go_on(state, begin, seed or 0, factory))
    loaded: list[bool] = []
    target = _target(begin, seed, factory, loaded)
    if begin.base is None:              # a saved game: from its seed, its choices again
        def prepare(state):
            state.replay = list(begin.history)
            target(state)
        try:
            st = interp.play(run["mode"], players, begin.seed, agent_factory=factory, stop_at=stop_at,
                             watchers=watchers, seats=position.seats, prepare=prepare)
        except IllegalMoveError as exc:
            if loaded:
                raise
            raise ResumeError(f"{begin.path}: {exc.diagnostics[0].message}") from None
    else:                               # saved from a game that began at a position written by hand
        base = begin.base

        def at_base(state):
            _go_on(state, base, begin.base_seed, factory)
            state.replay = list(begin.history)
            state.replayed = 0
            target(state)
        try:
            st = _reach(interp, base, begin, run, at_base)
        except IllegalMoveError as exc:
            if loaded:
                raise
            raise ResumeError(f"{begin.path}: {exc.diagnostics[0].message}") from None
    if not loaded:
        raise ResumeError(f"{begin.path}: the saved history does not replay: the game "
                          + ("ends" if st.stopped is None else f"stops at {st.stopped}")
                          + f" before {begin.checkpoint or 'its last choice'}"
                          " (the rules or the settings changed since it was saved)")
    st.seed = begin.seed if seed is None else seed
    return st


def _go_on(state: GameState, begin: Start, seed: int, factory) -> None:
    """A hand-written position loaded at its checkpoint: the rest from ``seed``."""
    _copy_position(state, begin.position)
    state.rng = random.Random(seed)
    state.agents = {s.index: factory(s, seed) for s in state.seats if s.kind == "player"}
    state.log = [Event("resume", None, {"from": begin.path, "checkpoint": begin.checkpoint})]
    state.seed = seed
    state.began = {"checkpoint": begin.checkpoint, "seed": seed, "position": begin.doc_position}


def _reach(interp, base: Start, begin: Start, run: dict, then: Callable) -> GameState:
    """A game played at random to the checkpoint of a hand-written position, one that
    fits it (see the module's text); ``then(state)`` once it stands there."""
    tried: list[list[str]] = []
    order = ([base.fit] if base.fit is not None else []) + [k for k in range(TRIES) if k != base.fit]
    for k in order:
        misfit: list[str] = []

        def at_checkpoint(state, misfit=misfit):
            misfit += _misfits(state, base.position)
            if misfit:
                raise _Misfit
            then(state)

        def prepare(state):
            state.resume_at = base.checkpoint
            state.on_resume = at_checkpoint
        try:
            st = interp.play(run["mode"], run["players"], 7_919 * k + 1, stop_at=run["stop_at"],
                             watchers=run["watchers"], seats=run["seats"], prepare=prepare)
        except _Misfit:
            tried.append(misfit)
            continue
        if st.resume_at is not None:
            tried.append([])
            continue
        base.fit = k
        return st
    reached = [t for t in tried if t]
    if not reached:
        raise ResumeError(f"{begin.path}: no game of these rules reaches {base.checkpoint} (played {TRIES} at "
                          "random): a position stands at a checkpoint its mode reaches with these settings")
    common = sorted(set.intersection(*(set(t) for t in reached)))
    shown = ", ".join(common or sorted({x for t in reached for x in t})[:4])
    raise ResumeError(f"{begin.path}: no game played to {base.checkpoint} stands where this position does "
                      f"({TRIES} games played at random; there they had {shown}): what the rules keep outside "
                      "the position at a checkpoint (whose turn, who plays first) comes from a game played to "
                      "it, so give the seat variables values a game reaches there, or save the position from a "
                      "game (play --save-state)")


class _Misfit(Exception):
    """The game played to a hand-written position's checkpoint does not fit it."""


def _target(begin: Start, seed, factory, loaded: list) -> Callable:
    """What sets a replaying game to stop at the saved position and go on from it."""
    position = begin.position

    def go_on(state):
        if seed is None:
            if begin.rng is not None:
                _set_rng(state.rng, begin.rng)
            for s in state.seats:
                agent = state.agents.get(s.index)
                r = getattr(agent, "rng", None)
                if isinstance(r, random.Random) and s.name in begin.agent_rngs:
                    _set_rng(r, begin.agent_rngs[s.name])
        else:
            state.rng = random.Random(seed)
            state.agents = {s.index: factory(s, seed) for s in state.seats if s.kind == "player"}
        state.replay = None
        state.log.append(Event("resume", None, {"from": begin.path, "checkpoint": begin.checkpoint}))
        loaded.append(True)

    def at_checkpoint(state):
        if state.replayed < len(state.replay):
            raise ResumeError(f"{begin.path}: the saved history does not replay: the game reaches "
                              f"{begin.checkpoint} after {state.replayed} of its {len(state.replay)} choices "
                              "(the rules or the settings changed since it was saved)")
        _copy_position(state, position)
        go_on(state)

    def between_checkpoints(state):
        # saved before a choice, between checkpoints: the replayed game is the position,
        # and an edited one cannot be loaded there (the rules' running values came from it)
        mine, theirs = dump(state), dump(position)
        differ = [f"{sec}.{k}" for sec in ("state", "per_seat", "per_key")
                  for k in mine[sec] if mine[sec][k] != theirs[sec].get(k)]
        if differ:
            raise ResumeError(f"{begin.path}: the position differs from the saved game's at "
                              f"{', '.join(differ[:4])}: a position saved between two checkpoints resumes as "
                              "it was played (edit a position saved at a checkpoint, --stop-at, instead)")
        go_on(state)

    def set_up(state):
        if begin.checkpoint is not None:
            state.resume_at = begin.checkpoint
            state.on_resume = at_checkpoint
        else:
            state.on_replayed = between_checkpoints
    return set_up
