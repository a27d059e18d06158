"""Playing: who plays each seat (random, the solver's answers to a playing query, a
person), the agents made for them, and the position a game goes on from. ``play`` and
``simulate`` on the command line and ``Game.play``, ``Game.simulate`` and
``Position.simulate`` in Python seat their games through these.

In:  a checked program, its seats, a ``Seating`` (the agent, the seats it plays, each
     seat's own agent, the playing query, its inputs, the time limit of each of its
     questions), how the face names those options (``Words``); for a game that goes on
     from a saved position, the request that opened the spec and the state file.
Out: the mode a game is played in (``pick_mode``), the game played with its invariants
     checked (``play_game``), each seat's agent kind (``seat_agents``), an agent factory for the interpreter
     (``agent_factory``; None when every seat plays at random), the query and inputs a
     solver seat plays, the position to go on from (``start_from``), and what the solver
     seats did, in words and as data (``solver_agents``, ``agent_words``). A mistake is a
     ``BadInputError`` in the face's words.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from rulewright.app.bots import SETTINGS, bot_named, make_agent
from rulewright.compiler import load

from rulewright.compiler.diagnostics import BadInputError, did_you_mean
from rulewright.compiler.interpret import RandomAgent
from rulewright.compiler.types import SeatT

AGENT_KINDS = tuple(SETTINGS)         # random, greedy, solver, mcts, human
DEFAULT_AGENT_TIME_LIMIT = 10.0        # (as the command line's --agent-time-limit)


@dataclass(frozen=True)
class Words:
    """How a face names the options of seating, in its errors."""
    agent: str
    agent_seats: str
    seat: str
    agent_query: str
    agent_input: str
    position: str
    mode: str
    players: str
    stop_at: str


COMMAND_LINE_WORDS = Words("--agent", "--agent-seats", "--seat", "--agent-query", "--agent-input", "--from",
                           "--mode", "--players", "--stop-at")
PYTHON_WORDS = Words("agent=", "agent_seats=", "seats=", "agent_query=", "agent_inputs=", "position",
                     "mode=", "players=", "stop_at=")


@dataclass(frozen=True)
class Seating:
    """Who plays the seats of a game: ``agent`` plays ``seats`` (the players' names or
    titles; None: every player), the other players random; ``own`` gives single seats their
    agent (seat -> kind, after the rest); a solver seat plays the answers of ``query`` (the
    spec's only playing query by default) with ``inputs`` (name -> value as written), each
    question given ``time_limit`` seconds."""
    agent: str = "random"
    seats: tuple[str, ...] | None = None
    own: dict[str, str] = field(default_factory=dict)
    query: str | None = None
    inputs: dict[str, str] = field(default_factory=dict)
    time_limit: float = DEFAULT_AGENT_TIME_LIMIT


def seat_agents(seats, seating: Seating, words: Words, human_allowed: bool = False) -> dict[str, str]:
    """The bot of each player's seat (seat name -> the bot as written: random, greedy,
    solver, mcts:time=0.5, human...)."""
    players = [s.name for s in seats if s.kind == "player"]
    titles = {s.title: s.name for s in seats if s.kind == "player"}

    def seat_name(name: str, option: str) -> str:
        if name in players:
            return name
        if name in titles:
            return titles[name]
        hint = did_you_mean(name, players) or "players: " + ", ".join(players)
        raise BadInputError(f"{option}: '{name}' is not a player's seat of this game ({hint})")
    allowed = AGENT_KINDS if human_allowed else tuple(k for k in AGENT_KINDS if k != "human")
    agent = bot_named(seating.agent, words.agent, allowed).text
    if seating.seats is not None and not [n for n in seating.seats if n.strip()]:
        raise BadInputError(f"{words.agent_seats} takes the seats {words.agent} plays, e.g. p1,p3 (left out: "
                            "every player), not an empty list")
    kinds = dict.fromkeys(players, "random")
    if seating.seats and agent == "random":
        raise BadInputError(f"{words.agent_seats} goes with another bot than random ({words.agent} greedy, "
                            f"mcts, solver or human: the seats that bot plays)")
    for name in seating.seats or players:
        kinds[seat_name(name.strip(), words.agent_seats)] = agent
    for name, kind in seating.own.items():
        kinds[seat_name(name, words.seat)] = bot_named(kind, f"{words.seat} {name}=", allowed).text
    if (seating.query or seating.inputs) and not {"solver", "human"} & {kind_of(k) for k in kinds.values()}:
        raise BadInputError(f"{words.agent_query} and {words.agent_input} go with a solver seat ({words.agent} "
                            f"solver) or a human seat (its suggestions)")
    return kinds


def kind_of(bot: str) -> str:
    """The kind of a bot as written (``mcts`` of ``mcts:time=0.5``)."""
    return bot.partition(":")[0]


def playing_query(program, seating: Seating, words: Words, required: bool) -> str | None:
    """The query a solver seat plays (and a human seat's suggestions come from): the one
    named, or the spec's only playing query; None when none is needed and none is named."""
    from rulewright.solver.agent import playing_queries       # (OR-Tools loads only when a seat needs the solver)
    names = playing_queries(program)
    query = (seating.query or "").replace("-", "_") or (names[0] if len(names) == 1 else None)
    if query is None or query not in names:
        if not required and not seating.query:
            return None
        shown = ", ".join(n.replace("_", "-") for n in names) or "none"
        what = (f"choose one with {words.agent_query} NAME" if query is None else
                f"{query!r} has none" if query in program.queries else f"there is no query {query!r}")
        raise BadInputError(f"{words.agent} solver plays the answers of a query with 'play' statements; {what}"
                            f" (here: {shown})")
    return query


def agent_inputs(program, query: str, given: dict[str, str], words: Words) -> dict:
    """The inputs of the query a solver seat plays, read from text (its seat input is the
    agent's own)."""
    from rulewright.compiler.play.inputs import parse_value     # (with the games' modules)
    declared = {n: t for n, t, _ in program.queries[query].inputs if not isinstance(t, SeatT)}
    shown = query.replace("_", "-")
    out: dict = {}
    for raw_name, raw in given.items():
        name = raw_name.strip().lstrip("-").replace("-", "_")
        if name not in declared:
            hint = did_you_mean(name, declared) or ("its inputs: " + ", ".join(declared) if declared
                                                    else "it has no input but the seat")
            raise BadInputError(f"{words.agent_input}: {shown} has no input {name!r} ({hint})")
        try:
            out[name] = parse_value(str(raw).strip(), declared[name], program, name)
        except BadInputError as exc:
            raise BadInputError(f"{words.agent_input} {name}: {exc.diagnostics[0].message}") from None
    return out


def agent_factory(program, kinds: dict[str, str], seating: Seating, words: Words, human=None,
                  made: list | None = None):
    """The interpreter's agent factory for these seats (``factory(seat, seed)``): random,
    greedy and MCTS agents seeded from the game's seed as ``play``'s random ones, solver
    agents answering the playing query, a person's seat through ``human.agent(seat,
    query, inputs)``. None when every seat is random. ``made`` gets each solver agent
    made (what a progress bar counts)."""
    if set(kinds.values()) <= {"random"}:
        return None
    used = {kind_of(k) for k in kinds.values()}
    query = playing_query(program, seating, words, required="solver" in used)
    inputs = agent_inputs(program, query, seating.inputs, words) if query else {}

    def factory(seat, seed):
        mine = seed * 1_000_003 + seat.index
        written = kinds.get(seat.name, "random")
        kind = kind_of(written)
        if kind == "solver":
            from rulewright.solver.agent import SolverAgent   # (OR-Tools loads only when a seat needs the solver)
            agent = SolverAgent(program, query, mine, time_limit=seating.time_limit, inputs=inputs)
            if made is not None:
                made.append(agent)
            return agent
        if kind == "human":
            return human.agent(seat, query, inputs)
        if kind == "random":
            return RandomAgent(mine)
        return make_agent(bot_named(written, words.seat), mine)
    return factory


def play_game(interp, mode: str, players: int, seed: int | None, factory, *, stop_at: str | None = None,
              begin=None, watchers: list | None = None, prepare=None):
    """A game played (or played on from ``begin``, a ``resume.Start``) with the seats'
    agents, up to the checkpoint ``stop_at`` ('name:count') or its end, every invariant
    checked at each checkpoint and at the end (a position the rules reach that breaks one
    is a ``RuntimeRulesError`` at the invariant). The game's state; an error of the rules
    carries the game as far as it went (``exc.game``). ``watchers`` are called at every
    checkpoint too; ``prepare(state)`` before the first rule runs (a new game only)."""
    from rulewright.compiler.play import resume     # (with the games' modules)
    from rulewright.compiler.play.checks import invariant_watcher     # (with the games' modules)
    watch = invariant_watcher(interp)
    if begin is not None:
        state = resume.play_from(interp, begin, seed=seed, agent_factory=factory, stop_at=stop_at,
                                 watchers=[watch])
    else:
        state = interp.play(mode, players, seed, stop_at=stop_at, agent_factory=factory,
                            watchers=[watch, *(watchers or ())], prepare=prepare)
    if state.stopped is None:
        try:
            watch(state, "end")
        except Exception as exc:
            exc.game = state
            raise
    return state


def solver_agents(state) -> dict:
    """Seat name -> what its solver agent did in a game (none for other agents)."""
    from rulewright.solver.agent import SolverAgent, summary       # (OR-Tools loads only when a seat needs the solver)
    return {seat.name: summary(agent) for seat in state.seats
            if isinstance(agent := state.agents.get(seat.index), SolverAgent)}


def agent_words(asked: int, answered: int, from_answers: int, at_random: int) -> str:
    """What a solver seat did, in words."""
    return (f"asked {asked} time(s), {answered} answered; {from_answers} choice(s) from the answers, "
            f"{at_random} at random")


@dataclass
class Start:
    """A saved position to go on from: its program (the rules its game was played with),
    the place to resume (``resume.Start``), its mode and number of players."""
    program: Any
    begin: Any
    mode: Any
    players: int


def start_from(program, position, doc: dict, path: str, text: str, words: Words, *, mode: str | None = None,
               players: int | None = None, stop_at: str | None = None) -> Start:
    """The position read from the state file ``path`` (``opening.open_position``) as a
    place to go on from; the mode, number of players and checkpoint asked for must fit it."""
    from rulewright.compiler.play import resume      # (with the games' modules)
    begin = resume.start(position, doc, path, text)
    m = program.modes[begin.mode]
    if mode and mode != m.name:
        raise BadInputError(f"{words.mode} {mode}: the position of {path} is of the mode '{m.name}'")
    n = sum(1 for s in position.seats if s.kind == "player") - \
        sum(1 for s in m.seats if s.name is not None and s.kind == "player")
    if players is not None and players != n:
        raise BadInputError(f"{words.players} {players}: the position of {path} has {n} players")
    if begin.checkpoint and stop_at:
        name, _, count = stop_at.partition(":")
        if name in position.checkpoints and int(count or 1) <= position.checkpoints[name]:
            raise BadInputError(f"{words.stop_at} {stop_at}: the position stands at {begin.checkpoint}, where the "
                                f"game has reached '{name}' {position.checkpoints[name]} time(s): give a later one "
                                f"({name}:{position.checkpoints[name] + 1})")
    return Start(program, begin, m, n)


def pick_mode(program, spec: str, mode: str | None, players: int | None, words: Words,
              need_players: bool = True):
    """The mode named, or the first one for ``players`` (the modes a variant adds or changes
    first, the last variant's first); without either, a variant's own mode, or (unless
    ``need_players``) the spec's first mode."""
    if not program.modes:
        raise BadInputError(f"{spec}: the spec has no 'mode' to play")
    if mode:
        if mode not in program.modes:
            hint = did_you_mean(mode, program.modes) or "modes: " + ", ".join(program.modes)
            raise BadInputError(f"no mode '{mode}' in {spec} ({hint})")
        m = program.modes[mode]
        if players is not None and not m.min_players <= players <= m.max_players:
            raise BadInputError(f"mode '{m.name}' is for {_players_text(m)}, not {players}")
        return m
    # the modes a variant adds or changes come first, the last variant's first
    own = [ch.name for v in reversed(program.variants) for ch in v.changes
           if ch.kind == "mode" and ch.action != "remove" and ch.name in program.modes]
    modes = [program.modes[n] for n in dict.fromkeys(own)] + \
        [m for n, m in program.modes.items() if n not in own]
    if players is None:
        if own or not need_players:
            return modes[0]
        raise BadInputError(f"this needs {words.players} N (or {words.mode})")
    fitting = [m for m in modes if m.min_players <= players <= m.max_players]
    if not fitting:
        ranges = ", ".join(f"{m.name}: {_players_text(m)}" for m in program.modes.values())
        many = f"{players} player{'s' if players != 1 else ''}"
        raise BadInputError(f"no mode of {spec} is for {many} ({ranges})"
                            + _variant_for(spec, players))
    return fitting[0]


def _players_text(mode) -> str:
    n, m = mode.min_players, mode.max_players
    return f"{n} player{'s' if n != 1 else ''}" if n == m else f"{n}..{m} players"


def _variant_for(spec: str, players: int) -> str:
    """A hint naming the variants in the spec's own variants/ folder with a mode for
    that many players (the Two-player Version of a game for three or more)."""
    folder = Path(spec) / "variants"
    if not folder.is_dir():
        return ""
    found = []
    for path in sorted(folder.glob("*.rules")):
        try:
            modes = load(path).modes.values()
        except Exception:           # a variant that does not load is no suggestion
            continue
        if any(m.min_players <= players <= m.max_players for m in modes):
            found.append(str(path))
    return f"; for {players} player{'s' if players != 1 else ''}: {', '.join(found)}" if found else ""


def with_inputs(seating: Seating, items: list[str], words: Words) -> Seating:
    """``seating`` with the query inputs written NAME=VALUE (the command line's form)."""
    inputs: dict[str, str] = {}
    for item in items:
        name, sep, raw = item.partition("=")
        if not sep or not name.strip():
            raise BadInputError(f"{words.agent_input} takes NAME=VALUE, not {item!r}")
        inputs[name.strip()] = raw
    return replace(seating, inputs=inputs)


__all__ = ["AGENT_KINDS", "kind_of", "COMMAND_LINE_WORDS", "PYTHON_WORDS", "Seating", "Start", "Words", "agent_factory",
           "agent_inputs", "agent_words", "pick_mode", "play_game", "playing_query", "seat_agents", "solver_agents", "start_from",
           "with_inputs"]
