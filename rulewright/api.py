"""The Python API: the same jobs as the command line, as values.

In:  a spec (a folder, a ``.rules`` file, a variant, or a shipped game by name), its
     settings, grids, positions, a query's inputs.
Out: ``Game`` (a compiled spec), ``Score`` (a scored grid), ``Played`` (a seeded
     game), ``Position`` (a game state read from or written to a state file),
     ``Answer`` (a solver answer, replayed by the interpreter), ``Simulation`` (many
     seeded games summed up), ``Verification`` (verify's findings), ``Diff`` (what a
     variant changes) and ``Examples`` (a spec's worked examples, run). Each has a
     readable ``repr``, and draws itself as HTML in a notebook.

Every error is a ``rulewright.RulesError`` (``.render()`` gives the located message).

    >>> import rulewright
    >>> game = rulewright.load("ecosystem_savanna")
    >>> game.score("examples/margot.grid").total
    86
"""
from __future__ import annotations

import html
import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from rulewright.app import diffing, examples as examples_job, playing, seeing, simulating, studying, tournament as tourney, verifying
from rulewright.app.asking import ask, query_named, read_inputs
from rulewright.api_results import Diff, Examples, Simulation, Study, Tournament, Verification
from rulewright.app.faces import PYTHON
from rulewright.app.opening import Request, open_position, open_spec
from rulewright.app.scoring import grid_type, grid_variable, score_grids
from rulewright.compiler import files
from rulewright.compiler.semantics import runtime as rt
from rulewright.compiler.play import resume, script, state_io
from rulewright.compiler.diagnostics import BadInputError, RulesError
from rulewright.compiler.play.inputs import read_grid
from rulewright.compiler.interpret import Interpreter, RandomAgent
from rulewright.compiler.interpret.live import Live
from rulewright.compiler.semantics.render import board_lines, jsonable, score_lines, text as render_text

__all__ = ["load", "Game", "Grid", "Score", "Played", "Position", "Simulation", "Study", "Tournament", "Verification",
           "Diff", "Examples", "RulesError"]


def load(spec: str | Path, *, variants=(), settings: dict[str, Any] | None = None,
         cards: str | Path | None = None, tables: dict[str, str | Path] | None = None) -> "Game":
    """A spec compiled and checked: a folder, a ``.rules`` file, a variant file, or a
    shipped game by name (``"darwins_choice"``, ``"house_rules/darwin_drought.rules"``).
    ``variants``: more variant files; ``settings``: switches and params by name (as
    ``--set``); ``cards`` / ``tables``: your own table files (as ``--cards`` / ``--table``)."""
    path = files.spec_path(str(spec))
    overrides = {k: (json.dumps(v) if isinstance(v, bool) else str(v)) for k, v in (settings or {}).items()}
    request = Request(path, overrides, {k: str(v) for k, v in (tables or {}).items()},
                      str(cards) if cards is not None else None,
                      tuple(files.spec_path(str(v)) for v in variants), PYTHON)
    return Game(open_spec(request), path, request)


class Grid:
    """A grid of cards (a finished ecosystem, a partly built one): ``grid[r, c]`` is the
    card at row r, column c (from 0), or None."""

    def __init__(self, board: rt.Board):
        self.board = board

    @property
    def rows(self) -> int:
        return self.board.rows

    @property
    def columns(self) -> int:
        return self.board.cols

    def __getitem__(self, cell: tuple[int, int]):
        return self.board.cards.get(tuple(cell))

    def __repr__(self) -> str:
        return "\n".join(board_lines(self.board, indent=""))

    def _repr_html_(self) -> str:
        rows = []
        for r in range(self.board.rows):
            cells = "".join(f"<td style='border:1px solid #999;padding:4px 8px;text-align:center'>"
                            f"{html.escape(self.board.cards.get((r, c)) or '·')}</td>"
                            for c in range(self.board.cols))
            rows.append(f"<tr>{cells}</tr>")
        return f"<table style='border-collapse:collapse'>{''.join(rows)}</table>"


@dataclass
class Score:
    """A scored grid: its total, the points of each scoring step, and the choices the
    scoring made (the gazelle a lion takes...)."""
    total: int
    steps: dict[str, int]
    choices: dict[str, Any]
    grid: Grid | None = None
    _score: Any = field(default=None, repr=False)

    def __int__(self) -> int:
        return self.total

    def __repr__(self) -> str:
        lines = score_lines(self._score, indent="") if isinstance(self._score, rt.Score) else [f"total {self.total}"]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        table = "".join(f"<tr><td>{html.escape(k.replace('_', ' '))}</td><td style='text-align:right'>{v}</td></tr>"
                        for k, v in self.steps.items())
        grid = self.grid._repr_html_() if self.grid is not None else ""
        return (f"<div style='display:flex;gap:2em'>{grid}<table>{table}"
                f"<tr><th>total</th><th style='text-align:right'>{self.total}</th></tr></table></div>")


@dataclass
class Played:
    """A seeded game: each seat's result (the mode's reports), the winners, the log."""
    game: "Game"
    seed: int
    mode: str
    reports: dict[str, Any]
    stopped: str | None
    _state: Any = field(repr=False, default=None)

    @property
    def log(self) -> list[dict]:
        """Every event of the game, as ``play --log`` writes them."""
        return [{"kind": e.kind, "seat": e.seat, **jsonable(e.detail)} for e in self._state.log]

    @property
    def position(self) -> "Position":
        """Where the game ended (or stopped): a position to show, save or query."""
        return Position(self.game, self._state, self.seed)

    def __repr__(self) -> str:
        head = f"{self.game.title}, mode {self.mode}, seed {self.seed}" + \
            (f", stopped at {self.stopped}" if self.stopped else "")
        lines = [head] + [f"  {k.replace('_', ' ')}: {render_text(v)}" for k, v in self.reports.items()]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        """The reports as a table: a report per seat (the scores) a row per seat, any
        other report a row of its own."""
        rows = []
        for name, value in self.reports.items():
            label = html.escape(name.replace("_", " "))
            if isinstance(value, dict):
                rows.append(f"<tr><th colspan='2' style='text-align:left'>{label}</th></tr>")
                rows += [f"<tr><td>{html.escape(getattr(k, 'title', str(k)))}</td>"
                         f"<td style='text-align:right'>{html.escape(render_text(v))}</td></tr>"
                         for k, v in value.items()]
            else:
                rows.append(f"<tr><th style='text-align:left'>{label}</th><td>{html.escape(render_text(value))}</td></tr>")
        head = html.escape(repr(self).splitlines()[0])
        return f"<div><b>{head}</b><table>{''.join(rows)}</table>{self._chart()}</div>"

    def _chart(self) -> str:
        """The seats' numbers (a report per seat: the scores) as bars, one colour a report."""
        from rulewright.compiler.docgen.charts import bars_svg      # (the pictures' module: for notebooks)
        groups = {}
        for name, value in self.reports.items():
            if isinstance(value, dict):
                numbers = {getattr(k, "title", str(k)): _number(v) for k, v in value.items()}
                if numbers and all(n is not None for n in numbers.values()):
                    groups[name.replace("_", " ")] = numbers
        return bars_svg(groups, f"{self.game.title}: seed {self.seed}", "seat", "") if groups else ""


def _number(value) -> float | None:
    """A report's value as a number (a score, a count), or None."""
    if isinstance(value, bool):
        return None
    try:
        return float(int(value)) if not isinstance(value, float) else value
    except (TypeError, ValueError):
        return None


class Position:
    """A game state: read from a state file (``Game.position``), or where a game
    stopped (``Played.position``); ``save`` writes it as ``play --save-state`` does."""

    def __init__(self, game: "Game", state, seed: int | None = None, doc: dict | None = None,
                 path: str = "<position>", text: str = ""):
        self.game, self.state, self.seed = game, state, seed
        self._doc, self._path, self._text = doc, path, text
        self.warnings: list[str] = []       # what reading it warned of (other rules, broken invariants)

    def save(self, path: str | Path) -> None:
        """Written as ``play --save-state`` writes it: a position of a played game also
        records what resumes it exactly."""
        resume.write_position(str(path), self.state, resumable=self._doc is None, seed=self.seed)

    def to_json(self) -> dict:
        return state_io.dump(self.state, seed=self.seed)

    def _start(self):
        """Where this position's game goes on from (``resume.start``)."""
        if self._doc is None:       # a played game's own position
            doc = {**state_io.dump(self.state, seed=self.seed), "resume": resume.entry(self.state)}
        else:
            doc = self._doc
        return playing.start_from(self.game.program, self.state, doc, self._path, self._text, playing.PYTHON_WORDS)

    def play(self, *, seed: int | None = None, stop_at: str | None = None, choices=None,
             agent: str = "random", agent_seats=None, seat_agents: dict | None = None,
             agent_query: str | None = None, agent_inputs: dict | None = None,
             agent_time_limit: float = playing.DEFAULT_AGENT_TIME_LIMIT) -> "Played":
        """The game on from this position, as ``rulewright play --from``: a position of a
        played game (or a saved one) goes on exactly as it would have, unless given a
        ``seed``; one written by hand goes on from its checkpoint with ``seed`` (0 by
        default). ``choices``: the seats' first choices; the agents as ``Game.play``'s."""
        start = self._start()
        seating = _seating(agent, agent_seats, seat_agents, agent_query, agent_inputs, agent_time_limit)
        factory = _scripted(choices, _agent_factory(self.game.program, self.state.seats, seating))
        state = playing.play_game(self.state.interp, start.mode.name, start.players, seed, factory,
                                  stop_at=_label(stop_at), begin=start.begin)
        return Played(self.game, state.seed, state.mode, dict(state.reports), state.stopped, state)

    def simulate(self, *, games: int = 20, seed: int = 1, progress=None, agent: str = "random",
                 agent_seats=None, seat_agents: dict | None = None, agent_query: str | None = None,
                 agent_inputs: dict | None = None,
                 agent_time_limit: float = playing.DEFAULT_AGENT_TIME_LIMIT) -> "Simulation":
        """``games`` seeded games played on from this position (seeds ``seed``, ``seed + 1``,
        ...), summed up as ``Game.simulate`` (as ``rulewright simulate --from``); the agents
        as ``Game.play``'s."""
        start = self._start()
        seating = _seating(agent, agent_seats, seat_agents, agent_query, agent_inputs, agent_time_limit)
        return self.game._simulated(start.mode, start.players, _seeds(games, seed), None, seating, progress,
                                    start=start.begin, start_path=None if self._path.startswith("<") else self._path)

    def __getitem__(self, name: str):
        """A shared value of the state by name, or a per-seat one as a dict by seat name."""
        if name in self.state.shared:
            return self.state.shared[name]
        if name in self.state.per:
            return {getattr(k, "name", k): v for k, v in self.state.per[name].items()}
        raise KeyError(name)

    def text(self) -> str:
        """The position readably, as ``rulewright show`` prints it."""
        return "\n".join(state_io.show(self.state))

    def view(self, seat: str) -> dict:
        """What ``seat`` (a seat's name or title) may know of this position, as
        ``rulewright show --as SEAT --json`` prints it (docs/state.md): the piles hidden
        from it by their size, the cards it knows are there and their backs."""
        return seeing.view(self.state, seat, self._doc, self._path, self._text)

    def view_text(self, seat: str) -> str:
        """The seat's view readably, as ``rulewright show --as SEAT`` prints it."""
        return "\n".join(seeing.view_lines(self.state, seat, self._doc, self._path, self._text))

    def determinize(self, seat: str, seed: int = 0) -> "Position":
        """A full position ``seat`` cannot tell from this one: its view is the same, and
        the cards it has not seen are dealt again at random (from ``seed``) among the piles
        hidden from it, each to a pile of cards of its type and back. What a search bot
        plays on in place of the true position."""
        state = seeing.determinized(self.state, seat, seed, self._doc, self._path, self._text)
        doc = state_io.dump(state)
        return Position(self.game, state, None, doc, f"<{seat}'s determinization>", json.dumps(doc))

    def __repr__(self) -> str:
        where = f" at {self.state.stopped}" if self.state.stopped else ""
        return f"<position of {self.game.title}{where}: seats {', '.join(s.name for s in self.state.seats)}>"

    def _repr_html_(self) -> str:
        return f"<pre>{html.escape(self.text())}</pre>"


class Table:
    """A game in progress that a program drives choice by choice: the seats given to
    ``Game.start`` are played from outside (a search bot, a person, a test), the others
    by random agents. ``choice``, ``seat`` and ``options`` say what is asked now;
    ``apply`` answers it and runs the rules on to the next choice asked; ``copy`` is the
    same game at the same choice, independent of this one (to try a continuation and drop
    it: that is undo); ``play_out`` plays the rest at random. See docs/api.md."""

    def __init__(self, game: "Game", live: Live):
        self.game, self._live = game, live

    @property
    def choice(self) -> str | None:
        """The name of the choice asked now (None: the game is over)."""
        return self._live.asked.name if self._live.asked is not None else None

    @property
    def seat(self) -> str | None:
        """The seat asked now."""
        return self._live.seat

    @property
    def options(self) -> list:
        """The legal options of the choice asked now, as the rules' values."""
        return self._live.options

    @property
    def finished(self) -> bool:
        return self._live.finished

    @property
    def reports(self) -> dict[str, Any]:
        """What the mode reports (each seat's result, the winners) once the game is over."""
        return dict(self._live.state.reports)

    @property
    def position(self) -> Position:
        """The state now, to show or query (a copy: it does not change with this table)."""
        return Position(self.game, self._live.copy().state if not self.finished else self._live.state,
                        self._live.state.seed)

    def apply(self, value) -> "Table":
        self._live.apply(value)
        return self

    def copy(self) -> "Table":
        return Table(self.game, self._live.copy())

    def play_out(self, seed: int | None = None) -> Played:
        """The rest of the game with random agents for every seat (the outside ones seeded
        by ``seed``, the game's seed by default)."""
        st = self._live.state
        base = st.seed if seed is None else seed
        state = self._live.play_out(lambda seat, _s: RandomAgent(base * 1_000_003 + seat.index))
        return Played(self.game, st.seed, st.mode, dict(state.reports), state.stopped, state)

    def __repr__(self) -> str:
        if self.finished:
            return f"<{self.game.title}: finished>"
        return f"<{self.game.title}: {self.seat} to choose {self.choice!r} among {len(self.options)} options>"


class Game:
    """A compiled and checked spec."""

    def __init__(self, program, path: str, request: Request | None = None):
        self.program, self.path = program, path
        self.request = request or Request(path, spelling=PYTHON)
        self._interp = None

    @property
    def interpreter(self) -> Interpreter:
        if self._interp is None:
            self._interp = Interpreter(self.program)
        return self._interp

    @property
    def title(self) -> str:
        return self.program.title

    @property
    def modes(self) -> list[str]:
        return list(self.program.modes)

    @property
    def queries(self) -> list[str]:
        return list(self.program.queries)

    @property
    def settings(self) -> dict[str, Any]:
        """Every switch and param with the value it has here."""
        return dict(self.program.constants)

    def __repr__(self) -> str:
        return f"<game {self.title} ({self.path}): modes {', '.join(self.modes) or 'none'}>"

    def _repr_html_(self) -> str:
        """In a notebook: the game's title, its modes with their players, its queries and
        how many settings it has."""
        modes = "".join(f"<tr><td><code>{html.escape(m.name)}</code></td><td>{html.escape(m.title or '')}</td>"
                        f"<td>{m.min_players}..{m.max_players} players</td></tr>" for m in self.program.modes.values())
        queries = ", ".join(f"<code>{html.escape(q.replace('_', '-'))}</code>" for q in self.queries) or "none"
        return (f"<div><b>{html.escape(self.title)}</b> <small>{html.escape(str(self.path))}</small>"
                f"<table>{modes}</table><p>queries: {queries}; {len(self.settings)} settings</p></div>")

    # ------------------------------------------------------------ grids and scores
    def grid(self, source: str | Path | list, *, partial: bool = False) -> Grid:
        """A grid from a grid file, or from rows of card names (None or '.' for a free cell)."""
        grid_name = self.program.state[grid_variable(self.program)].type.grid
        if isinstance(source, (str, Path)):
            return Grid(read_grid(str(source), self.program, grid_name, allow_free=partial))
        rows = [[None if k in (None, ".") else k for k in row] for row in source]
        return Grid(self.interpreter.board(rows, grid_name))

    def score(self, *grids) -> Score | list[Score]:
        """Score finished grids as the players of one game (one grid: its Score)."""
        grid_type(self.program)
        boards = [g if isinstance(g, Grid) else self.grid(g) for g in grids]
        scored = score_grids(self.program, [g.board for g in boards],
                             [f"Player {i + 1}" for i in range(len(boards))], self.interpreter, warned=False)
        out = []
        for g, res in zip(boards, scored.results):
            steps = dict(res.steps) if isinstance(res, rt.Score) else {}
            choices = dict(res.choices) if isinstance(res, rt.Score) else {}
            out.append(Score(int(res), steps, choices, g, res))
        return out[0] if len(out) == 1 else out

    # ------------------------------------------------------------ games and positions
    def _mode(self, mode: str | None, players: int | None):
        """The mode named, or the one for ``players`` (the first mode when neither is given),
        as the command line picks it (``app.playing.pick_mode``)."""
        return playing.pick_mode(self.program, self.path, mode, players, playing.PYTHON_WORDS, need_players=False)

    def play(self, players: int | None = None, *, seed: int = 0, mode: str | None = None,
             stop_at: str | None = None, choices=None, agent: str = "random", agent_seats=None,
             seat_agents: dict | None = None, agent_query: str | None = None, agent_inputs: dict | None = None,
             agent_time_limit: float = playing.DEFAULT_AGENT_TIME_LIMIT) -> Played:
        """A whole seeded game (or up to a checkpoint, ``"turn:9"``), as ``rulewright
        play``. ``choices``: the choices the seats make first, in order (``play
        --choices``): a file, or a list of ``{"seat": "p1", "choice": "k", "value":
        "lion"}`` (``Played.log`` lists them). The seats' agents: ``agent`` ("random" or
        "solver") plays ``agent_seats`` (names or titles, a list or "p1,p3"; every player by
        default), the other players at random; ``seat_agents`` gives single seats theirs
        (``{"p2": "solver"}``); a solver seat plays the answers of ``agent_query`` (the
        spec's only playing query by default) with ``agent_inputs``
        (``{"objective": "adaptation"}``), ``agent_time_limit`` seconds a question."""
        m = self._mode(mode, players)
        n = players if players is not None else m.min_players
        seating = _seating(agent, agent_seats, seat_agents, agent_query, agent_inputs, agent_time_limit)
        factory = _scripted(choices, _agent_factory(self.program, self.interpreter.seats_for(m, n), seating))
        state = playing.play_game(self.interpreter, m.name, n, seed, factory, stop_at=_label(stop_at))
        return Played(self, seed, m.name, dict(state.reports), state.stopped, state)

    def start(self, players: int | None = None, *, seed: int = 0, mode: str | None = None,
              seats=None) -> Table:
        """A game in progress whose ``seats`` (their names; the first player by default) are
        played from outside, choice by choice: a ``Table`` waiting at their first choice
        (the other seats play at random, as in ``play``: with the outside seats choosing as
        ``play``'s random agents would, the same game)."""
        m = self._mode(mode, players)
        n = players if players is not None else m.min_players
        return Table(self, Live(self.interpreter, m.name, n, seed, outside=tuple(seats) if seats else None))

    def position(self, path: str | Path) -> Position:
        """A position read from a state file (checked against the rules, located errors),
        under the rules its game was played with: its variants, settings and tables,
        unless this game was loaded with others (as ``rulewright show`` reads it; its
        ``game`` is then that game). Warnings are in ``Position.warnings``. ``.play()``
        goes on from it."""
        said: list[str] = []
        opened = open_position(self.request, str(path), self.program, warn=said.append)
        game = self if opened.program is self.program else Game(opened.program, self.path, opened.request)
        position = Position(game, opened.state, opened.doc.get("seed"), opened.doc, str(path), opened.text)
        position.warnings = said
        return position

    # ------------------------------------------------------------ queries
    def ask(self, query: str, *, position: Position | None = None, time_limit: float = 60.0,
            workers: int = 2, **inputs):
        """A query of the spec answered by CP-SAT and replayed by the interpreter
        (``rulewright query``): inputs by name (``player="p1"``, ``card="hyena"``; a
        grid as a Grid). Returns the solver's ``Answer`` (``status``, ``objective``,
        ``witness``, ``to_text()``, ``to_json()``)."""
        q = query_named(self.program, query)
        state = position.state if position is not None else None
        values = read_inputs(self.program, q, inputs, state, PYTHON)
        return ask(self.program, q.name, values, state, time_limit=time_limit, workers=workers)

    # ------------------------------------------------------------ many games, proofs, versions
    def _against(self, other) -> "Game":
        """The version of the game to simulate against: a Game, or a spec loaded with this
        game's settings and tables (not its variants: ``simulating.open_against``)."""
        if isinstance(other, Game):
            return other
        path = files.spec_path(str(other))
        return Game(simulating.open_against(self.request, path), path, replace(self.request, spec=path, variants=()))

    def _version(self, spec, settings: dict[str, str] | None = None) -> "Game":
        """Another spec loaded as this one was (its variants, tables and settings, or
        ``settings``), as the command line loads a second spec."""
        path = files.spec_path(str(spec))
        request = replace(self.request, spec=path, **({"settings": settings} if settings is not None else {}))
        return Game(open_spec(request), path, request)

    def simulate(self, players: int | None = None, *, games: int = 20, seed: int = 1, against=None,
                 mode: str | None = None, progress=None, agent: str = "random", agent_seats=None,
                 seat_agents: dict | None = None, agent_query: str | None = None, agent_inputs: dict | None = None,
                 agent_time_limit: float = playing.DEFAULT_AGENT_TIME_LIMIT) -> Simulation:
        """``games`` seeded games (seeds ``seed``, ``seed + 1``, ...), as ``rulewright
        simulate``: each report summed up with 95% intervals (a seat's mean score, its share
        of wins). ``against``: another version of the game (a Game, or a spec: the base game
        of a house rule), played on the same seeds and compared game by game. The seats'
        agents as ``play``'s (random by default). ``progress(what, fraction)`` is told after
        each game."""
        m = self._mode(mode, players)
        n = players if players is not None else m.min_players
        other = self._against(against) if against is not None else None
        seating = _seating(agent, agent_seats, seat_agents, agent_query, agent_inputs, agent_time_limit)
        return self._simulated(m, n, _seeds(games, seed), other, seating, progress)

    def _simulated(self, mode, players: int, seeds: list[int], other, seating, progress, start=None,
                   start_path: str | None = None) -> Simulation:
        def agents(program, seats):
            return _agent_factory(program, seats, seating)
        sim = simulating.simulate_games(self.program, self.path, mode, players, seeds,
                                        against=other.program if other else None,
                                        against_spec=other.path if other else "", start=start, agents=agents,
                                        progress=progress, spelling=PYTHON)
        return Simulation(self, sim, seating, start_path)

    def tournament(self, bots="random,greedy", *, players: int | None = None, games: int = 24, seed: int = 1,
                   mode: str | None = None, workers: int | None = None, progress=None) -> Tournament:
        """Bots against each other, as ``rulewright tournament``: ``bots`` (a list, or one
        comma-separated string: ``"random,greedy,mcts:time=0.5"``), round-robin over every
        line-up with its seats rotated, ``games`` seeded games on ``workers`` processes
        (every core by default). ``progress(what, fraction)`` is told after each game."""
        names = tourney.bots_named(bots, "bots=")
        m = self._mode(mode, players)
        n = players if players is not None else m.min_players
        return Tournament(tourney.run_tournament(self.program, self.path, m, n, names, games, seed,
                                                 workers=workers, progress=progress))

    def study(self, players: int | None = None, *, against=None, sweep: str | None = None, games: int = 200,
              seed: int = 1, mode: str | None = None, agent: str = "random", seats: dict | None = None,
              skill: str = "greedy,random", skill_games: int = 10, workers: int | None = None,
              out: str | None = None, resume: bool = False, report: bool = True, ray: str | None = None,
              progress=None) -> Study:
        """A balance study, as ``rulewright study``: ``games`` seeded games of this spec and
        of ``against`` (its base game: a Game or a spec), or of each value of ``sweep``
        (``"hand_size=4,5,6"``), the seats played by ``agent`` and ``seats`` (seat -> bot),
        ``skill_games`` games of the ``skill`` bots (``"STRONG,WEAK"``), on ``workers``
        processes (every core) or the Ray cluster ``ray``; with ``out`` (a folder) the games
        file, the figures and the report written there (``resume``: the games there kept).
        ``progress(what, fraction)`` is told after each game."""
        base = against.path if isinstance(against, Game) else (files.spec_path(str(against)) if against else None)
        sides, plan, reference = studying.set_up(
            self.request, against=base, sweep=sweep, mode=mode, players=players, games=games, seed=seed,
            agent=agent, seats=seats, skill=skill, skill_games=skill_games, words=studying.PYTHON_WORDS,
            seat_words=playing.PYTHON_WORDS)
        return Study(studying.conduct(sides, plan, out=out, resume=resume, workers=workers, report=report, ray=ray,
                                      reference=reference, progress=progress))

    def verify(self, *, against=None, checks=None, time_limit: float = verifying.DEFAULT_TIME_LIMIT,
               workers: int = 2, games: int = verifying.DEFAULT_GAMES,
               positions: int = verifying.DEFAULT_POSITIONS, progress=None, only=None,
               fresh: bool = False) -> Verification:
        """The rules proved consistent or refuted with a witness, as ``rulewright
        verify``: ``checks`` (names, or one comma-separated string; all by default),
        ``against`` the base of a variant (a Game or a spec: only ``differs`` by default),
        ``time_limit`` and ``workers`` of each question to the solver, ``games`` per mode
        for the sampled checks, ``only`` the definitions, scorings and properties to look at
        (names, or one comma-separated string). ``progress(what, fraction)`` is told as the
        checks go. A question an earlier run asked the solver on the same rules is answered
        as it was then, unless ``fresh``."""
        words = verifying.PYTHON_OPTIONS
        only = [n.strip() for n in only.split(",")] if isinstance(only, str) else only
        kinds = verifying.checks_named([checks] if isinstance(checks, str) else checks, words)
        base = None if against is None else against if isinstance(against, Game) else \
            self._version(against, settings={})
        report = verifying.verify_rules(self.program, self.path, base=base.program if base else None,
                                        against=base.path if base else "", checks=kinds, time_limit=time_limit,
                                        workers=workers, games=games, positions=positions, progress=progress,
                                        words=words, only=list(only) if only else None, fresh=fresh)
        return Verification(report)

    def diff(self, other) -> Diff:
        """What ``other`` (a Game, or a spec: a variant or house rule of this game) changes
        in this game, as ``rulewright diff``."""
        theirs = other if isinstance(other, Game) else self._version(other)
        return Diff(diffing.diff_specs(self.program, theirs.program, self.path, theirs.path))

    def examples(self) -> Examples:
        """The spec's worked examples run, as ``rulewright examples``: each ok or failing."""
        return Examples(examples_job.run_spec_examples(self.program, self.path, self.interpreter))


def _scripted(given, then=None):
    """The agent factory of ``play(choices=...)``: the choices of a file, or of a list of
    values, played first, then the seats' agents (``then``; random ones by default)."""
    if given is None:
        return script.scripted_factory([], "<choices>", then)
    if isinstance(given, (str, Path)):
        return script.scripted_factory(script.read_choices(str(given)), str(given), then)
    return script.scripted_factory(script.entries_of(list(given)), "<choices>", then)


def _seating(agent, agent_seats, seat_agents, agent_query, agent_inputs, time_limit) -> playing.Seating:
    """The agents' parameters of ``play`` and ``simulate`` as the application's seating."""
    if isinstance(agent_seats, str):
        agent_seats = agent_seats.split(",")
    return playing.Seating(agent, tuple(agent_seats) if agent_seats is not None else None, dict(seat_agents or {}),
                           agent_query, {k: str(v) for k, v in (agent_inputs or {}).items()}, time_limit)


def _agent_factory(program, seats, seating: playing.Seating):
    """The seats' agents (``app.playing``); None: every seat random."""
    kinds = playing.seat_agents(seats, seating, playing.PYTHON_WORDS)
    return playing.agent_factory(program, kinds, seating, playing.PYTHON_WORDS)


def _seeds(games, seed: int) -> list[int]:
    if not isinstance(games, int) or isinstance(games, bool) or games < 1:
        raise BadInputError(f"games={games!r}: a whole number of games from 1")
    return list(range(seed, seed + games))


def _label(stop_at: str | None) -> str | None:
    return None if stop_at is None else stop_at if ":" in stop_at else stop_at + ":1"
