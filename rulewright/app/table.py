"""A game at a table: seats played by people (one choice at a time, from outside the
game) and by bots, each person shown only what their seat may see. The job under the
workbench's table (``rulewright serve``); the terminal's human seat (``cli/human.py``)
shows the same things with the same words (``seat_screen``).

In:  a program, its spec's name, the number of players (or a mode), a seed, who plays
     each seat (``human`` or a bot as the command line writes it: ``greedy``,
     ``mcts:time=0.5``...), the language of the words; then a person's choice (the
     number of an option they were shown), an undo, a save.
Out: ``Sitting``: ``seen_by(seat)``, what one seat is shown (the position as that seat
     may know it, the news, the question and the options when it is that seat's turn,
     the result at the end), as JSON; ``choose``, ``undo``, ``save``. Nothing a seat is
     sent holds what the rules hide from it (``tests/web/test_secrecy.py`` reads every
     payload of whole games).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rulewright.app import playing, seat_screen as screen
from rulewright.compiler.diagnostics import BadInputError
from rulewright.compiler.interpret import interpreter_for
from rulewright.compiler.interpret.live import Live
from rulewright.compiler.play import resume, views
from rulewright.compiler.semantics import render, runtime as rt

WEB_WORDS = playing.Words("bot", "seats", "seat", "query", "query input", "position", "mode", "players", "stop at")


def seats_of(program, spec: str, players: int | None = None, mode: str | None = None) -> dict[str, Any]:
    """The players' seats of the mode for ``players`` (the fewest by default): what a table
    is set up with."""
    m = playing.pick_mode(program, spec, mode, players, WEB_WORDS, need_players=False) if players is None else \
        playing.pick_mode(program, spec, mode, players, WEB_WORDS)
    n = players if players is not None else m.min_players
    seats = [s for s in interpreter_for(program).seats_for(m, n) if s.kind == "player"]
    return {"game": program.title, "mode": m.title or m.name, "players": n, "least": m.min_players,
            "most": m.max_players, "seats": [{"name": s.name, "title": s.title} for s in seats],
            "bots": [k for k in playing.AGENT_KINDS if k != "human"]}


class Sitting:
    """One game in progress at a table. ``kinds``: seat name -> ``human`` or a bot."""

    def __init__(self, program, spec: str, *, players: int | None = None, mode: str | None = None, seed: int = 1,
                 kinds: dict[str, str] | None = None, lang: str = "en", replay: list[dict] | None = None):
        self.program, self.spec, self.seed = program, spec, seed
        m = playing.pick_mode(program, spec, mode, players, WEB_WORDS, need_players=False)   # (checks players)
        self.players = players if players is not None else m.min_players
        self.mode = m.name
        self.interp = interpreter_for(program)
        seats = self.interp.seats_for(m, self.players)
        self.seats = [s for s in seats if s.kind == "player"]
        own = dict(kinds or {})
        if not own:
            own = {self.seats[0].name: "human"}
        self.kinds = playing.seat_agents(seats, playing.Seating(own=own), WEB_WORDS, human_allowed=True)
        self.humans = tuple(n for n, k in self.kinds.items() if k == "human")
        if not self.humans:
            raise BadInputError("a table needs a seat played by a person (human): with bots only, "
                                "watch a game with 'play' or many with 'simulate'")
        self.words = screen.Words(program, lang)
        bots = {n: k for n, k in self.kinds.items() if k != "human"}
        self._factory = playing.agent_factory(program, bots, playing.Seating(), WEB_WORDS)
        self._suggesters: dict[str, dict] = {}
        self.spec_file: str | None = None   # the file a saved game names for the spec (else the spec's own)
        self.warnings: list[str] = []       # what reading a saved game warned of
        self.live = self._new(None, replay)

    @classmethod
    def saved(cls, program, spec: str, path: str, *, kinds: dict[str, str] | None = None,
              lang: str = "en") -> "Sitting":
        """The game of a state file saved at a table (or by ``play --save-state``) going on
        at the same choice: its history made again from its seed, each choice checked."""
        from rulewright.app.opening import Request, open_position       # (state files: read when one is loaded)
        warned: list[str] = []
        opened = open_position(Request(spec), path, program, warn=warned.append)
        start = playing.start_from(opened.program, opened.state, opened.doc, path, opened.text, WEB_WORDS)
        if not start.begin.saved or start.begin.base is not None:
            raise BadInputError(f"{path}: a position written by hand, or a game begun from one, goes on at the "
                                "command line (rulewright play --from); a table goes on from a game saved at a "
                                "table or by play --save-state")
        sitting = cls(opened.program, spec, players=start.players, mode=start.mode.name, seed=start.begin.seed,
                      kinds=kinds, lang=lang, replay=start.begin.history)
        sitting.warnings = warned
        return sitting

    # ------------------------------------------------------------ the game
    def _new(self, forward: list | None, replay: list[dict] | None = None) -> Live:
        return Live(self.interp, self.mode, self.players, self.seed, outside=self.humans,
                    agent_factory=self._factory, forward=forward, replay=replay)

    @property
    def state(self):
        return self.live.state

    @property
    def turn(self) -> str | None:
        """The seat whose choice is asked now (None when the game is over)."""
        return self.live.seat

    def choose(self, seat: str, index: int) -> None:
        """The person at ``seat`` picks the option numbered ``index`` of those shown."""
        if self.live.finished:
            raise BadInputError("the game is over: there is nothing to choose")
        if seat != self.live.seat:
            raise BadInputError(f"it is not {self._title(seat)}'s turn but {self._title(self.live.seat)}'s")
        groups = screen.grouped(self.live.options)
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(groups):
            raise BadInputError(f"there is no option {index!r}: the options are numbered 0 to {len(groups) - 1}")
        self.live.apply(groups[index][0])

    def undo(self, seat: str) -> bool:
        """The person at ``seat`` takes back their last choice: the game again from the seed
        with the choices before it (the bots choose again after it). False when that seat
        has made no choice."""
        chooses = [e for e in self.state.log if e.kind == "choose"]      # (one for each entry of the history)
        mine = [i for i, e in enumerate(chooses) if e.seat == seat]
        if not mine:
            return False
        self.live = self._new(self.state.history[:mine[-1]])
        return True

    def can_undo(self, seat: str) -> bool:
        return any(e.kind == "choose" and e.seat == seat for e in self.state.log)

    def suggest(self, seat: str, bot: str | None = None) -> dict[str, Any]:
        """A suggestion for the person at ``seat`` on their turn, with its reasons: the
        playing query's plan (``app.suggesting``), or what ``bot`` would choose."""
        if self.live.finished or seat != self.turn:
            raise BadInputError("a suggestion is for the seat whose turn it is")
        key = bot or "solver"
        if key not in self._suggesters.setdefault(seat, {}):
            from rulewright.app.bots import bot_named           # (the bots: loaded when one suggests)
            from rulewright.app.suggesting import Suggester     # (the solver, when it suggests)
            made = None if key == "solver" else bot_named(key, "suggest", kinds=("greedy", "mcts"))
            query = playing.playing_query(self.program, playing.Seating(), WEB_WORDS, required=False)
            self._suggesters[seat][key] = Suggester(self.program, query, {}, bot=made, time_limit=10.0,
                                                    words=self.words)
        asked = self.live.asked
        st = self.state
        st.refusals = asked.refusals
        found = self._suggesters[seat][key].suggest(asked.name, self.live.options, st, asked.seat)
        if not found.found:
            return {"found": False, "why_not": found.why_not}
        groups = screen.grouped(self.live.options)
        index = next(i for i, (o, _) in enumerate(groups) if o == found.value and type(o) is type(found.value))
        return {"found": True, "index": index, "text": screen.option_text(found.value, 1, self.words),
                "how": found.how, "lines": [line[2:] if line.startswith("  ") else line for line in found.lines]}

    def at(self, seat: str, step: int) -> dict[str, Any]:
        """A finished game stepped through: the position after its first ``step`` choices
        (of every seat and of chance), as the person at ``seat`` saw it then; the choice
        made at that step told only when it was theirs."""
        me = self._person(seat)
        if not self.live.finished:
            raise BadInputError("a game is stepped through once it is over")
        made = [e for e in self.state.log if e.kind == "choose"]
        if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= len(made):
            raise BadInputError(f"there is no step {step!r}: the game has steps 0 to {len(made)}")
        if step == len(made):
            st = self.state
        else:           # (every seat played from outside: the game waits at the next choice)
            st = Live(self.interp, self.mode, self.players, self.seed, outside=tuple(s.name for s in self.seats),
                      forward=self.state.history[:step]).state
        nxt = made[step] if step < len(made) else None
        what, points = screen.scores(st)
        status = " · ".join(p for p in (screen.section(st), (f"{render.words(what)}: " + ", ".join(
            f"{s.title}{' (you)' if s == me else ''} {n}" for s, n in points)) if points else "") if p)
        label = self.words.label(self.words.place(nxt.detail["choice"], None), nxt.detail["choice"], []) \
            if nxt is not None else ""
        return {"step": step, "steps": len(made), "position": views.show_view(st, seat, header=False),
                "boards": [_board(name, b, []) for name, b in screen.own_boards(st, me)],
                "news": screen.news(st, 0, me)[-40:], "status": status,
                "next": (f"{me.title} chose {label} {render.text(nxt.detail['value'])}"
                         if nxt is not None and nxt.seat == seat else
                         f"{self._title(nxt.seat)} to choose" if nxt is not None and nxt.seat else
                         "chance draws" if nxt is not None else "")}

    def _person(self, seat: str):
        me = next((s for s in self.seats if s.name == seat), None)
        if me is None or seat not in self.humans:
            raise BadInputError(f"no seat {seat!r} is played by a person at this table")
        return me

    def save_text(self) -> str:
        """The game as a state file (``play --from`` and the table's load go on from it),
        naming ``spec_file`` for the spec's own file when it is set (a draft played in the
        workbench: the file it is saved as)."""
        text = resume.position_text(self.state)
        if self.spec_file is not None:
            text = text.replace(json.dumps(str(Path(self.spec).resolve()))[1:-1], json.dumps(self.spec_file)[1:-1])
        return text

    # ------------------------------------------------------------ what a seat is shown
    def _cells(self, seat: str) -> list:
        """The cells offered to ``seat`` now (a placement), else none."""
        if self.live.finished or self.turn != seat:
            return []
        options = self.live.options
        return options if options and all(screen._is_cell(o) for o in options) else []

    def _title(self, name: str | None) -> str:
        return next((s.title for s in self.seats if s.name == name), name or "nobody")

    def seen_by(self, seat: str) -> dict[str, Any]:
        """What the person at ``seat`` is shown: only what that seat may know."""
        me = self._person(seat)
        st = self.state
        out: dict[str, Any] = {
            "game": self.program.title, "seat": seat, "title": me.title, "seed": self.seed,
            "seats": [{"name": s.name, "title": s.title, "plays": self.kinds[s.name]} for s in self.seats],
            "turn": self.turn, "turn_title": self._title(self.turn) if self.turn else None,
            "finished": self.live.finished, "can_undo": self.can_undo(seat),
            "position": views.show_view(st, seat, header=False),
            "boards": [_board(name, b, self._cells(seat)) for name, b in screen.own_boards(st, me)],
            "news": screen.news(st, 0, me)[-40:],
            "status": screen.status(st, me) if not self.live.finished else "",
        }
        if self.live.finished:
            out["result"] = _result(st)
            if st.stopped:
                out["result"].insert(0, st.stopped)
            return out
        if self.turn != seat:
            return out
        asked = self.live.asked
        st.refusals = asked.refusals
        place = self.words.place(asked.name, st)
        context = self.words.context(place)
        out["question"] = (context + ": " if context else "") + self.words.question(place, asked.name)
        out["label"] = self.words.label(place, asked.name, self.live.options)
        groups = screen.grouped(self.live.options)
        out["options"] = [{"index": i, "text": screen.option_text(o, n, self.words),
                           **({"cell": list(o)} if screen._is_cell(o) else {})} for i, (o, n) in enumerate(groups)]
        return out


def _board(name: str, board: rt.Board, offered: list) -> dict:
    """A seat's own board as rows of card names (None: empty), with its first row and
    column: the frame of its cards and of the cells ``offered`` (a fixed board: all of it)."""
    cells = list(board.cards) + list(offered)
    if not getattr(board, "floating", False) and getattr(board, "rows", None):
        cells += [(0, 0), (board.rows - 1, board.cols - 1)]
    if not cells:
        return {"name": render.words(name), "top": 0, "left": 0, "rows": []}
    r0, r1 = min(r for r, _ in cells), max(r for r, _ in cells)
    c0, c1 = min(c for _, c in cells), max(c for _, c in cells)
    rows = [[board.cards.get((r, c)) for c in range(c0, c1 + 1)] for r in range(r0, r1 + 1)]
    return {"name": render.words(name), "top": r0, "left": c0, "rows": rows}


def _result(st) -> list[str]:
    """The game's end in words: what the mode reports, each seat's result and the winners."""
    out = []
    for name, value in st.reports.items():
        out.append(f"{render.words(name).capitalize()}: {render.text(value)}")
    return out or ["The game is over."]


__all__ = ["Sitting", "WEB_WORDS", "seats_of"]
