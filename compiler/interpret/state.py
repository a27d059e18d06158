"""A game in progress: seats, shared and per-seat state, the random generator, the agents
that make the choices, the log of events.

In:  the interpreter running a mode, its seats, a seed, agents.
Out: ``GameState``, which the generated procedures read and change through its methods
     (deal, move, take, place, pass, choose, checkpoint, report); ``RandomAgent`` and
     ``ReplayAgent``.
"""
from __future__ import annotations


import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable


from rulewright.compiler.semantics import runtime as rt, render
from rulewright.compiler.diagnostics import Diagnostic, IllegalMoveError, RuntimeRulesError, Span, quoted, reason_of
from rulewright.compiler.interpret.chance import copied
from rulewright.compiler.interpret.resumable import fork

if TYPE_CHECKING:         # (for the annotation only: the interpreter imports this module)
    from rulewright.compiler.interpret.interpreter import Interpreter


# ---------------------------------------------------------------- game state
@dataclass
class Event:
    kind: str
    seat: str | None
    detail: dict


def _cards(what) -> list:
    """The cards a statement moves, takes, puts or reveals: a collection's, or one card (a
    card that is a record is one card, not the collection of its fields)."""
    if isinstance(what, (tuple, list, rt.Zone)) and not render.is_record(what):
        return list(what)
    return [what]


class GameState:
    """Seats, shared and per-seat state, the random generator, agents and the log."""

    def __init__(self, interp: "Interpreter", seats: list[rt.Seat], seed: int | None,
                 agents: dict[int, Any] | None = None):
        self.interp = interp
        self.seats = tuple(seats)
        self.players = tuple(s for s in seats if s.kind == "player")
        self.rng = random.Random(seed)
        self.seed = seed
        self.agents = agents or {}
        self.shared: dict[str, Any] = {}
        self.per: dict[str, dict[Any, Any]] = {}     # state kept per seat or per key
        self.reports: dict[str, Any] = {}
        self.log: list[Event] = []
        self.checkpoints: dict[str, int] = {}
        self.watchers: list = []           # called at every checkpoint with (state, "name:count")
        self.stop_at: str | None = None    # "name:count": stop the game there
        self.stopped: str | None = None
        self.mode: str | None = None
        # what reading the position from a file warned of (invariants with "else warn")
        self.warnings: list = []
        # resuming a game (compiler/play/resume.py): the choices to make again, in order, and
        # what to do when they are made; the checkpoint where a saved position is loaded
        self.replay: list[dict] | None = None
        self.replayed = 0
        self.on_replayed: Callable | None = None
        self.resume_at: str | None = None
        self.on_resume: Callable | None = None
        self.refusals: tuple = ()       # the tests of the choice an agent is asked (refused_by)
        # every choice made, in order, as (value, number of options, value as logged): what a copy of a game
        # in progress is rolled forward along (compiler/interpret/live.py)
        self.history: list[tuple] = []
        self.outside: frozenset = frozenset()   # seats (indices) whose choices the game yields
        self.forward: list[tuple] | None = None  # the history a copy is rolled forward along
        self.forwarded = 0
        self.ready: list | None = None      # the options of the choice the history ends at, already made
        self.lazy = False           # an outside seat's options made only when read (a bot's branch)
        # what each seat knows of the piles it does not see (compiler/interpret/seeing.py):
        # kept only by games whose spec remembers or reveals a pile
        self.knowledge = None
        # called with (state, name, seat, the function that makes the options, the options) at
        # each choice of a seat whose options are made here (verify's sampled secrecy check)
        self.options_watch: Callable | None = None
        # how often each rule ran (rule ID -> count; a Counter), kept only when a study asks
        self.tally = None

    def forked(self, memo: dict) -> "GameState":
        """A copy of this game as it stands, to go on apart from it: its values (piles,
        lists and dicts copied, ``resumable.fork`` with ``memo``), its random generator at
        the same point, its log, history, counts and what its seats know; its agents are
        the same objects (the caller copies them). What watches the original (watchers, a
        checkpoint to stop at, a study's count of rules, verify's watch on options) is not
        the copy's, as it is not a game rolled forward's."""
        new = GameState.__new__(GameState)
        new.__dict__.update(self.__dict__)
        new.rng = copied(self.rng)
        new.shared = fork(self.shared, memo)
        new.per = fork(self.per, memo)
        new.reports = fork(self.reports, memo)
        new.log = list(self.log)
        new.checkpoints = dict(self.checkpoints)
        new.watchers, new.stop_at, new.options_watch, new.tally = [], None, None, None
        new.on_replayed = new.on_resume = new.resume_at = None
        new.warnings = list(self.warnings)
        new.history = list(self.history)
        new.replay = list(self.replay) if self.replay is not None else None
        new.knowledge = self.knowledge.copy() if self.knowledge is not None else None
        return new

    # --------------------------------------------------------------- zones
    def _take(self, zone: rt.Zone, card, span: Span):
        try:
            zone.cards.remove(card)
        except ValueError:
            raise RuntimeRulesError(f"'{card}' is not in {zone.name}", span) from None

    def deal(self, n: int, source: rt.Zone, target: rt.Zone, span: Span):
        if n < 0:
            raise RuntimeRulesError(f"cannot deal {n} cards: a count is 0 or more", span)
        if n > len(source.cards):
            raise RuntimeRulesError(f"cannot deal {n} cards from {source.name}: only "
                                    f"{len(source.cards)} left", span)
        for _ in range(n):
            target.cards.append(source.cards.pop())
        if self.knowledge is not None:
            self.knowledge.moved(target.cards[len(target.cards) - n:], source.name, target.name)
        self.log.append(Event("deal", None, {"n": n, "from": source.name, "to": target.name}))

    def move(self, what, source: rt.Zone, target: rt.Zone, span: Span):
        items = _cards(what)
        for card in items:
            self._take(source, card, span)
            target.cards.append(card)
        if self.knowledge is not None:
            self.knowledge.moved(items, source.name, target.name)
        self.log.append(Event("move", None, {"cards": items, "from": source.name, "to": target.name}))

    def take(self, what, source: rt.Zone, span: Span):
        items = _cards(what)
        for card in items:
            self._take(source, card, span)
        if self.knowledge is not None:
            self.knowledge.taken(items, source.name)
        self.log.append(Event("take", None, {"cards": items, "from": source.name}))

    def put(self, what, target: rt.Zone, span: Span):
        items = _cards(what)
        target.cards.extend(items)
        self.log.append(Event("put", None, {"cards": items, "to": target.name}))

    def move_all(self, source: rt.Zone, target: rt.Zone, span: Span):
        items = list(source.cards)
        source.cards.clear()
        target.cards.extend(items)
        if self.knowledge is not None:
            self.knowledge.moved_all(items, source.name, target.name)
        self.log.append(Event("move", None, {"cards": items, "from": source.name, "to": target.name}))

    def shuffle(self, zone: rt.Zone, span: Span):
        self.rng.shuffle(zone.cards)

    def place(self, card, source: rt.Zone, var: str, seat: rt.Seat | None, at, span: Span):
        board = self.per[var][seat] if seat is not None else self.shared[var]
        runtime = self.interp.ns["_rt"]         # (the baseline's, with fast=False)
        # (rolled forward along a history, the move was checked when it was made)
        checked = self.forward is None
        if checked and not runtime.free_at(board, at):
            raise IllegalMoveError(f"cannot place '{card}' at {rt.pos_text(at)}", span)
        self._take(source, card, span)
        if self.knowledge is not None:      # (a board is seen by every seat)
            self.knowledge.moved([card], source.name, var)
        new = runtime.placed(board, card, at, checked)        # (not checked again)
        if seat is not None:
            self.per[var][seat] = new
        else:
            self.shared[var] = new
        self.log.append(Event("place", seat.name if seat else None, {"card": card, "at": list(at)}))

    def pass_zone(self, var: str, direction: str, span: Span):
        zones = [self.per[var][s] for s in self.seats]
        n = len(zones)
        contents = [z.cards for z in zones]
        # Seats sit clockwise in order; the seat on one's left is the next one.
        givers = [(i - 1) % n if direction == "left" else (i + 1) % n for i in range(n)]
        for z, giver in zip(zones, givers):
            z.cards = contents[giver]
        if self.knowledge is not None:
            self.knowledge.passed([(list(contents[g]), zones[g].name, z.name) for z, g in zip(zones, givers)])
        self.log.append(Event("pass", None, {"zone": var, "to": direction}))

    def reveal(self, zone: rt.Zone, seat, cards, span: Span):
        """The cards now in ``zone`` (or ``cards`` of them) shown to ``seat`` (to every seat
        when None)."""
        if cards is None:
            shown, whole = list(zone.cards), True
        else:
            shown = _cards(cards)
            for card in shown:
                if shown.count(card) > zone.cards.count(card):
                    raise RuntimeRulesError(f"'{card}' is not in {zone.name}: only its cards can be revealed", span)
            whole = False
        if self.knowledge is not None:
            self.knowledge.revealed(shown, zone.name, None if seat is None else seat.name, whole)
        self.log.append(Event("reveal", None, {"from": zone.name, "to": None if seat is None else seat.name}))

    # --------------------------------------------------------------- choices
    def ask(self, name: str, chooser, options, span: Span, refusals: tuple = ()):
        """A choice of the rules (a generator: ``x = yield from ST.ask(...)``). ``options``
        is the list of options, or a function that makes it (not called when a game is
        rolled forward along its history, where it can be skipped). A choice of a seat
        played from outside is yielded as ``Asked`` and the value sent back is checked."""
        if self.forward is not None:
            if self.forwarded < len(self.forward):
                return self._rolled_forward(name, chooser, options, span)
            self.forward = None
        if self.replay is not None and self.outside and self.replayed >= len(self.replay):
            self.replay = None          # a saved game played from outside: its history is made again
        outside = self.outside and chooser is not None and chooser != "random" and chooser.index in self.outside \
            and self.replay is None
        if self.ready is not None:
            options, self.ready = self.ready, None
        elif not isinstance(options, list):
            if outside and self.lazy:       # (made when the one driving the game reads them)
                return (yield from self._asked_lazily(name, chooser, options, span, refusals))
            made, options = options, options()
            if self.options_watch is not None and chooser is not None and chooser != "random":
                self.options_watch(self, name, chooser, made, options)
        if outside:
            if not options:
                raise IllegalMoveError(f"no legal option for choice '{name}'", span)
            pick = yield Asked(name, chooser, options, span, refusals)
            if pick not in options:
                raise IllegalMoveError(f"{chooser} cannot choose {quoted(render.jsonable(pick))} for '{name}': "
                                       "it is not among the options", span)
            self._chosen(name, chooser.name, pick, len(options))
            return pick
        return self.choose(name, chooser, options, span, refusals)

    def _asked_lazily(self, name: str, chooser, make, span: Span, refusals: tuple):
        """A choice of an outside seat whose options are made only when read (``Asked.made``):
        a bot's branch that is scored here and not played on never makes them."""
        asked = Asked(name, chooser, make, span, refusals)
        pick = yield asked
        options = asked.made(self)
        if pick not in options:
            raise IllegalMoveError(f"{chooser} cannot choose {quoted(render.jsonable(pick))} for '{name}': "
                                   "it is not among the options", span)
        self._chosen(name, chooser.name, pick, len(options))
        return pick

    def _rolled_forward(self, name: str, chooser, options, span: Span):
        """The next choice of the history a copy is rolled forward along. What the game's
        generator drew is drawn again (from the options, so the generator moves the same);
        an agent's or an outside seat's choice is taken as it was, its options not made."""
        made = self.forward[self.forwarded]
        self.forwarded += 1
        who = None if chooser == "random" or chooser is None else chooser.name
        if who is None or (chooser.index not in self.outside and self.agents.get(chooser.index) is None):
            options = options if isinstance(options, list) else options()
            options[self.rng.randrange(len(options))]       # (the same draw: the generator moves the same)
        self.history.append(made)
        self.log.append(Event("choose", who, {"choice": name, "value": made[2], "options": made[1]}))
        return made[0]

    def _chosen(self, name: str, who: str | None, pick, count: int) -> None:
        kind = type(pick)           # (a card's name, a number: shown as they are, without the call)
        shown = pick if kind is str or kind is int else render.jsonable(pick, state=True)
        self.history.append((pick, count, shown))
        self.log.append(Event("choose", who, {"choice": name, "value": shown, "options": count}))

    def choose(self, name: str, chooser, options: list, span: Span, refusals: tuple = ()):
        if self.replay is not None and self.replayed >= len(self.replay) and self.on_replayed is not None:
            done, self.on_replayed = self.on_replayed, None
            done(self)          # the history ends here: the position it was saved at
        if not options:
            raise IllegalMoveError(f"no legal option for choice '{name}'", span)
        who = None if chooser == "random" or chooser is None else chooser.name
        if self.replay is not None and self.replayed < len(self.replay):
            pick = self._replayed(name, who, options)
        elif who is None:
            pick = options[self.rng.randrange(len(options))]
        else:
            agent = self.agents.get(chooser.index)
            if agent is None:
                pick = options[self.rng.randrange(len(options))]
            else:
                self.refusals = refusals
                pick = agent.choose(name, options, self, chooser)
                if pick not in options:
                    raise IllegalMoveError(f"{chooser} chose an illegal option for '{name}': {quoted(pick)}", span)
        self._chosen(name, who, pick, len(options))
        return pick

    def _replayed(self, name: str, who: str | None, options: list):
        """The next choice of the history a game resumes from: the same choice of the same
        seat, and a value among the options (a random draw is drawn again and compared)."""
        want = self.replay[self.replayed]
        self.replayed += 1
        n = self.replayed
        if want.get("choice") != name or want.get("seat") != who:
            seat = str(want.get("seat") or "chance")[:100]
            raise IllegalMoveError(f"the saved history does not replay: its choice {n} is "
                                   f"{quoted(want.get('choice'))} of {seat}, where the game asks "
                                   f"{name!r} of {who or 'chance'} (the rules or the settings changed since)")
        if who is None:
            pick = options[self.rng.randrange(len(options))]
            if render.jsonable(pick, state=True) != want.get("value"):
                raise IllegalMoveError(f"the saved history does not replay: its choice {n} ({name}, drawn at "
                                       f"random) drew {quoted(want.get('value'))}, and now draws "
                                       f"{quoted(render.jsonable(pick, state=True))}")
            return pick
        for option in options:
            if render.jsonable(option, state=True) == want.get("value"):
                return option
        raise IllegalMoveError(f"the saved history does not replay: its choice {n} ({name} of {who}) is "
                               f"{quoted(want.get('value'))}, which is not an option there")

    def refused_by(self, value) -> tuple[bool, Span] | None:
        """Which test of the choice being made refuses ``value``: whether it is the
        collection chosen from (else a part of the ``where``), and the span of its rule;
        None when none refuses it."""
        for test, span, whole in self.refusals:
            try:
                ok = test(value)
            except Exception:           # noqa: BLE001 (a value of another type: refused here)
                return whole, span
            if not ok:
                return whole, span
        return None

    def checkpoint(self, name: str):
        """A named moment of play: counted, logged, shown to watchers, maybe the stop."""
        self.checkpoints[name] = self.checkpoints.get(name, 0) + 1
        label = f"{name}:{self.checkpoints[name]}"
        if self.resume_at is not None and label == self.resume_at:
            self.resume_at = None
            self.on_resume(self)     # the position a game resumes from replaces this one
            label = f"{name}:{self.checkpoints.get(name, 0)}"
        self.log.append(Event("checkpoint", None, {"name": name, "count": self.checkpoints.get(name, 0)}))
        if self.resume_at is not None or self.replay is not None:
            return          # on the way to the position a game resumes from
        for watch in self.watchers:
            watch(self, label)
        if self.stop_at is not None and label == self.stop_at:
            raise StopGame(label)

    def refuse(self, name: str, parts: Callable, tags: tuple, span: Span):
        """A ``require`` of the rules does not hold: the game cannot go on. Its message
        (``parts`` computes it; values shown as everywhere else), at the require."""
        rules = f" ({' '.join(tags)})" if tags else ""
        try:
            text = "".join(p if isinstance(p, str) else ("none" if p.value is None else render.text(p.value))
                           for p in parts())
        except Exception as exc:                  # noqa: BLE001 (any failure of the rules)
            reason = reason_of(exc)
            raise RuntimeRulesError(Diagnostic(
                span, f"requirement '{name}'{rules} does not hold, and its message cannot be computed: {reason}",
                "an error of the spec: the message reads a value the game does not have here")) from None
        exc = RuntimeRulesError(Diagnostic(span, text, f"the game cannot go on: requirement '{name}'{rules} "
                                                       "does not hold with these params, switches and cards"))
        if not any(e.kind == "choose" for e in self.log):
            exc.requirement = name      # before the first choice: the settings may be what it refuses
        raise exc

    def note(self, name: str, value, heading: bool = False):
        """A line of the narrative (or the heading of a part of it), in the log."""
        self.log.append(Event("note", None, {"name": name, "value": value, "heading": heading}))

    def report(self, name: str, value, item=None):
        if item is None:
            self.reports[name] = value
        else:
            self.reports.setdefault(name, {})[item] = value


@dataclass
class Asked:
    """A choice a game in progress asks of a seat played from outside: its name, the seat,
    the legal options, where the rules make it, the tests a refused value fails."""
    name: str
    seat: rt.Seat
    options: Any            # the list of options; before they are made (a lazy game), what makes them
    span: Span
    refusals: tuple = ()

    def made(self, state) -> list:
        """The options, made now if they were not yet (on ``state``, the interpreter's)."""
        if callable(self.options):
            state.interp.use(state)
            with rt.bounded("the game's options"):
                self.options = self.options()
            if not self.options:
                raise IllegalMoveError(f"no legal option for choice '{self.name}'", self.span)
        return self.options


class StopGame(Exception):
    """Raised at the checkpoint a game was asked to stop at."""


class ReplayAgent:
    """Replays recorded choices (a playthrough's log) and checks each one is still legal."""

    def __init__(self, choices: list):
        self.choices = list(choices)

    def choose(self, name, options, state, seat):
        if not self.choices:
            raise IllegalMoveError(f"the trace has no more choices for {seat.name}")
        want_name, value = self.choices.pop(0)
        if want_name != name:
            raise IllegalMoveError(f"the trace has choice '{want_name}' where the game asks '{name}'")
        for option in options:
            if value in (render.jsonable(option), render.jsonable(option, state=True)):
                return option
        raise IllegalMoveError(f"the traced {name} {quoted(value)} is not legal here")


class RandomAgent:
    """Chooses uniformly among the legal options, from its own seeded generator."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def __deepcopy__(self, memo):
        new = RandomAgent.__new__(RandomAgent)
        new.rng = copied(self.rng)
        return new

    def choose(self, name, options, state, seat):
        return options[self.rng.randrange(len(options))]
