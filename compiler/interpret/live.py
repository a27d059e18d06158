"""A game in progress that a program drives choice by choice, and copies to branch from.

In:  an interpreter, a mode, its players, a seed, agents for the seats played inside the
     game, the seats played from outside (a search bot, a person, a test).
Out: ``Live``: the choice asked now (``asked``: name, seat, options), ``apply`` a value,
     ``copy`` (the same game at the same choice, to explore a continuation and drop),
     ``play_out`` (the rest of the game with agents), the state and its reports.

The rules run as generators (compiler/interpret/interpreter.py): a choice of an outside
seat is yielded, so a game waits at it without replaying anything, and ``apply`` runs on
to the next one. A running Python generator cannot be copied, but what it holds while it
waits can: ``copy`` copies the state and resumes the procedures where they wait, in
functions made for that (compiler/interpret/resumable.py); no rule runs again.
``branched`` does the same for a game that is running its rules and asks an agent (a
bot's look-ahead: compiler/play/branching.py). Where procedures cannot be resumed (the
baseline, ``fast=False``), a copy is a new game rolled forward along the original's
history of choices: the rules run again, but the options of every choice made by a seat
are not made again (they are what costs: enumerating every group of cards a hand can
play, say), only chance's draws, so the game's random generator moves the same.
``benchmarks/play.py`` measures a copy against a whole game, ``benchmarks/branching.py``
a branch against one rolled forward.
"""
from __future__ import annotations

import copy as _copy
import sys
from typing import Any, Callable

from rulewright.compiler.semantics import render
from rulewright.compiler.diagnostics import BadInputError, IllegalMoveError, quoted
from rulewright.compiler.interpret.codegen import mname
from rulewright.compiler.interpret.resumable import fork
from rulewright.compiler.interpret.state import Asked, GameState, RandomAgent, StopGame

_ASKING = GameState.ask.__code__        # (the frame a rule's choice is asked of an agent in)


def agents_copied(agents: dict) -> dict:
    """Seat index -> a copy of its agent (``copy.deepcopy``'s), one copy of an agent two
    seats share. An agent that copies itself (``__deepcopy__``: the random agent's
    generator copied as it will be drawn from) is asked directly: ``copy.deepcopy``'s own
    look-ups cost more than the random agent's copy (three random agents: 8.6 us of a 47 us
    copy through ``copy.deepcopy``, 5.2 us asked directly; docs/performance.md)."""
    memo: dict = {}
    out = {}
    for k, a in agents.items():
        got = memo.get(id(a))
        if got is None:
            own = getattr(type(a), "__deepcopy__", None)
            got = own(a, memo) if own is not None else _copy.deepcopy(a, memo)
            memo[id(a)] = got
        out[k] = got
    return out


class Live:
    """A game in progress, waiting at a choice of a seat played from outside (``asked``),
    or finished (``finished``; ``state.reports``, ``state.stopped``)."""

    def __init__(self, interp, mode: str, players: int, seed: int, outside=None,
                 agent_factory: Callable | None = None, forward: list | None = None,
                 replay: list[dict] | None = None):
        """``outside``: the names of the seats played from outside (the first player by
        default); the others are played by ``agent_factory(seat, seed)`` (random agents
        seeded as ``Interpreter.play``'s by default). ``forward``: a history of choices (of
        another game of the same seed) the game is rolled forward along first: the same
        game up to there (an undo takes back the choices after it)."""
        self.interp = interp
        self.mode = interp.program.modes[mode]
        seats = interp.seats_for(self.mode, players)
        if outside is None:
            outside = (next(s.name for s in seats if s.kind == "player"),)
        unknown = [n for n in outside if n not in {s.name for s in seats if s.kind == "player"}]
        if unknown:
            raise BadInputError(f"no player seat {unknown[0]!r} in this game: its seats are "
                             + ", ".join(s.name for s in seats if s.kind == "player"))
        factory = agent_factory or (lambda seat, s: RandomAgent(s * 1_000_003 + seat.index))
        agents = {s.index: factory(s, seed) for s in seats if s.kind == "player" and s.name not in outside}
        self._begin(seats, seed, agents, frozenset(s.index for s in seats if s.name in outside),
                    list(forward) if forward else None, replay=replay)

    def _begin(self, seats, seed, agents, outside, forward, ready=None, replay=None) -> None:
        """A new game rolled forward along ``forward`` (a history of choices), to the choice
        after it (whose options are ``ready`` when they are already made)."""
        interp = self.interp
        st = interp.new_state(list(seats), seed, agents)
        st.mode = self.mode.name
        st.outside = outside
        st.forward = forward
        st.ready = ready
        st.replay = list(replay) if replay else None
        self.state: GameState = st
        named = {s.name: s for s in seats}
        self._gen = interp.ns[mname(self.mode.name)](*[named[s.name] for s in self.mode.seats if s.name])
        self.asked: Asked | None = None
        self.finished = False
        self._run(None)

    def _run(self, value) -> None:
        """Run the rules on from the choice being answered to the next one asked (or the end);
        every stretch between two choices runs under the budget of a whole game."""
        self.interp.use(self.state)
        try:
            with self.interp.stretch():
                self.asked = self._gen.send(value)
        except StopIteration:
            self.asked, self.finished = None, True
        except StopGame as stop:
            self.asked, self.finished = None, True
            self.state.stopped = str(stop)

    # ------------------------------------------------------------ what a search uses
    @property
    def options(self) -> list:
        """The legal options of the choice asked now ([] when the game is over)."""
        return list(self.asked.made(self.state)) if self.asked is not None else []

    @property
    def seat(self) -> str | None:
        """The seat whose choice is asked now."""
        return self.asked.seat.name if self.asked is not None else None

    def apply(self, value: Any) -> "Live":
        """Make the choice asked now and run on to the next one (or the end)."""
        if self.asked is None:
            raise IllegalMoveError("the game is over: there is no choice to make")
        if value not in self.asked.made(self.state):
            raise IllegalMoveError(f"{quoted(render.jsonable(value))} is not an option of "
                                   f"'{self.asked.name}' for {self.asked.seat.name}")
        self._run(value)
        return self

    def copy(self, replaying: bool = True) -> "Live | None":
        """The same game at the same choice, independent of this one: its state, its random
        generator, its agents' generators. Its procedures are resumed where they wait
        (compiler/interpret/resumable.py); a game whose procedures cannot be is rolled
        forward along this one's history instead, from its seed, or with ``replaying``
        false, not copied (None: a bot's branch, whose hidden cards were dealt again, is
        not the game its seed deals)."""
        if self.asked is None and self.finished:
            raise IllegalMoveError("the game is over: copy its state instead")
        new = Live.__new__(Live)
        new.interp, new.mode = self.interp, self.mode
        st = self.state
        resumable = self.interp.resumable()
        waiting = resumable.waiting(self._gen) if resumable is not None else None
        if waiting is not None:
            memo: dict = {}
            state = st.forked(memo)
            state.agents = agents_copied(st.agents)
            options = self.asked.options
            state.ready = fork(options, memo) if isinstance(options, list) else None
            new._resume(state, resumable.resumed(waiting, memo))
            return new
        if not replaying:
            return None
        new._begin(st.seats, st.seed, agents_copied(st.agents), st.outside, list(st.history))
        return new

    @classmethod
    def branched(cls, state: GameState, options: list, outside: frozenset) -> "Live | None":
        """The game ``state`` is playing, copied at the choice its rules ask an agent now
        (called from inside the agent's ``choose``, with that choice's ``options``, which
        the copy asks again as they are): the seats ``outside`` played from outside, no
        agents. Its procedures are resumed where they run (compiler/interpret/resumable.py);
        None when they cannot be."""
        interp = state.interp
        resumable = interp.resumable()
        if resumable is None:
            return None
        frame = sys._getframe(1)
        while frame is not None and not (frame.f_code is _ASKING and frame.f_locals.get("self") is state):
            frame = frame.f_back
        running = resumable.running(frame.f_back) if frame is not None else None
        if running is None:
            return None
        memo: dict = {}
        copy = state.forked(memo)
        copy.agents, copy.outside, copy.ready, copy.replay = {}, outside, list(options), None
        new = cls.__new__(cls)
        new.interp, new.mode = interp, interp.program.modes[state.mode]
        new._resume(copy, resumable.resumed(running, memo))
        return new

    def _resume(self, state: GameState, gen) -> None:
        """Go on with ``state`` in the generators ``gen`` (resumed where a game waited) to
        the choice they ask again."""
        self.state, self._gen, self.asked, self.finished = state, gen, None, False
        self._run(None)

    def play_out(self, agent_factory: Callable | None = None) -> GameState:
        """Play the rest of the game, the outside seats too (by ``agent_factory(seat, seed)``,
        random agents from the game's seed by default); the finished state."""
        st = self.state
        factory = agent_factory or (lambda seat, s: RandomAgent(s * 1_000_003 + seat.index))
        for seat in st.seats:
            if seat.index in st.outside:
                st.agents[seat.index] = factory(seat, st.seed if st.seed is not None else 0)
        st.outside = frozenset()
        if self.asked is not None:
            asked, self.asked = self.asked, None
            agent = st.agents[asked.seat.index]
            st.refusals = asked.refusals
            self._run(agent.choose(asked.name, asked.made(st), st, asked.seat))
        return st
