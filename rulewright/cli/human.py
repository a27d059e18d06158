"""A seat played by a person at the terminal (``play --seat p1=human``).

In:  the program, the command's arguments, each seat's agent kind; standard input and
     output (a terminal, or any stream: the tests drive it through a pseudo-terminal).
Out: ``Table`` (what the human seats share: the streams, an undo, a save) and its
     agents. The whole position is shown at a seat's first choice; then at each choice a
     status line (the seat to play, where the game stands, the scores) and what happened
     since the seat last played, the question in the words of the spec's doc comments
     (translated with ``lang``), and the options: equal ones as one (``lion ×2``), each
     with what it is worth where the playing query can say it (``app/option_values.py``), best
     first; the free cells of a board lettered on the board. Besides an option the
     player may type ``?`` (the solver's suggestion and its reason, from the playing
     query; or what the bot ``--suggest`` names would choose), ``l NAME`` (a card looked up), ``u`` (undo: take back their last choice;
     the other seats make the same moves again where their options are the same),
     ``p`` (the whole position), ``s`` (save the game and quit), ``q`` (quit) or ``h``.
"""
from __future__ import annotations

import json
import random
import re
import sys

from rulewright.compiler.diagnostics import RulesError
from rulewright.compiler.play import resume
from rulewright.compiler.play.script import Scripted
from rulewright.compiler.semantics import render, runtime as rt

from rulewright.app import seat_screen as screen
from rulewright.app.option_values import cells, option_values
from rulewright.app.suggesting import Suggester

HELP = ("type the number of an option (a cell: its letter); ? a suggestion (--suggest: whose), l NAME look a card up, "
        "u undo your last choice, p the whole position, s save and quit, q quit")


def _suggester(text: str):
    from rulewright.app.bots import bot_named       # (the bots: loaded when one suggests)
    return bot_named(text, "--suggest", kinds=("greedy", "solver", "mcts"))


class _Undo(Exception):
    """Take back a seat's last choice: the game again with the choices before it."""

    def __init__(self, keep: list[Scripted]):
        super().__init__("undo")
        self.keep = keep


class _Quit(Exception):
    """The player quit (having saved, or not)."""


class Table:
    """The human seats of one game and their terminal."""

    def __init__(self, program, args, kinds: dict[str, str], inp=None, out=None):
        self.program = program
        self.args = args
        self.kinds = kinds
        self.inp = inp or sys.stdin
        self.out = out or sys.stdout
        self.saved: str | None = None
        self.seen: dict[str, int] = {}      # seat -> the log events already shown to it
        self.words = screen.Words(program, getattr(args, "lang", None) or "en")
        # undo: the other seats' generators at each choice of a human seat (by the number
        # of choices made before it), set again when the game replayed reaches it
        self.generators: dict[int, dict[int, tuple]] = {}
        self.restore: tuple[int, dict] | None = None
        self.before: tuple[int, list] | None = None      # the others' moves after the choice taken back
        self.last: dict[str, tuple] = {}    # seat -> the question it was last asked, and the choice
        # the bot whose choice '?' shows (--suggest); None: the playing query's answer
        suggest = getattr(args, "suggest", None)
        self.suggester = None if not suggest or suggest == "solver" else _suggester(suggest)

    def agent(self, seat, query: str | None, inputs: dict):
        return HumanAgent(self, seat, query, inputs)

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def ask(self, prompt: str) -> str | None:
        self.out.write(prompt)
        self.out.flush()
        try:
            line = self.inp.readline()
        except UnicodeDecodeError:
            return "\ufffd"        # not text: no answer (said so, and asked again)
        if not line:
            return None         # end of input: as quitting
        return line.strip()

    def after(self, exc: BaseException):
        """What an exception out of the game means here: the choices to play the game again
        with (an undo), "stop" (saved or quit), or None (not ours)."""
        if isinstance(exc, _Undo):
            self.say("(taken back: the game is played again up to your choice; the other seats make the same "
                     "moves again where their options are the same)")
            return exc.keep
        if isinstance(exc, _Quit):
            return "stop"
        return None

    def save(self, state) -> str | None:
        default = self.args.save_state or "game.json"
        path = self.ask(f"save to [{default}]: ")
        if path is None:
            return None
        path = path or default
        refused = _not_a_path(path)
        if refused:
            self.say(f"not saved: {refused}")
            return None
        try:
            resume.write_position(path, state)
        except RulesError as exc:
            self.say(f"not saved: {exc.diagnostics[0].message}")
            return None
        self.saved = path
        return path


class HumanAgent:
    def __init__(self, table: Table, seat, query: str | None, inputs: dict):
        self.table = table
        self.seat = seat
        self.query = query
        self.inputs = inputs
        self.suggester = Suggester(table.program, query, inputs, bot=table.suggester,
                                   time_limit=table.args.agent_time_limit, words=table.words, say=table.say)

    # ------------------------------------------------------------ a choice
    def choose(self, name, options, state, seat):
        t = self.table
        made = _made(state)
        self._others_as_before(state, len(made))
        t.seen[seat.name] = min(t.seen.get(seat.name, -1), len(state.log))     # (shorter after an undo)
        lines = []
        if t.seen[seat.name] < 0:
            lines += ["", *screen.view(state, seat)]     # the whole position, once
        else:
            lines += screen.news(state, t.seen[seat.name], seat)
        lines += self._compared(state, made)
        t.seen[seat.name] = len(state.log)
        place = t.words.place(name, state)
        context = t.words.context(place)
        label = t.words.label(place, name, options)
        menu = _Menu(t, self, name, options, state, seat)
        question = f"{seat.title}" + (f", {context}" if context else "") + f": {t.words.question(place, name)}"
        if lines or (question, name) != t.last.get(seat.name):     # (the same question again: its options only)
            t.say("\n".join(lines))
            t.say()
            t.say(screen.status(state, seat))
            t.say(question)
            so_far = _so_far(t, state, seat)
            if so_far:
                t.say(so_far)
        t.last[seat.name] = (question, name)
        t.say("\n".join(menu.lines()))
        while True:
            answer = t.ask(f"{label} [{menu.range_text()}]> ")
            if answer is None or answer == "q":
                t.say("game left unsaved")
                raise _Quit()
            picked = menu.pick(answer)
            if picked is not None:
                return picked
            if answer == "?":
                t.say(self._suggestion(name, options, state, seat, menu))
            elif answer.startswith(("l ", "? ")) or answer == "l":
                what = answer[2:].strip()
                t.say("\n".join(screen.look_up(t.program, t.words, what)) if what else
                      "l NAME looks a card up (its fields in words), e.g. l " + _a_card(t.program))
            elif answer == "u":
                keep = self._undo(state, seat)
                if keep is None:
                    t.say("nothing of yours to take back since the game began here")
                else:
                    raise _Undo(keep)
            elif answer == "p":
                t.say("\n".join(screen.view(state, seat)))
                t.say("\n".join(menu.lines()))
            elif answer == "s":
                path = t.save(state)
                if path:
                    t.say(f"saved to {path}; go on with: rulewright play {self.table.args.spec} --from {path} "
                          f"--seat {seat.name}=human")
                    raise _Quit()
            elif answer in ("h", "help", ""):
                t.say(HELP)
            else:
                t.say(f"{_shown(answer)} is not an option: {menu.range_words()}; h for help")

    # ------------------------------------------------------------ undo
    def _undo(self, state, seat) -> list[Scripted] | None:
        made = _made(state)
        mine = [i for i, e in enumerate(made) if e.seat == seat.name]
        if not mine:
            return None
        t = self.table
        at = mine[-1]
        saved = t.generators.get(at)
        t.restore = (at, saved) if saved is not None else None
        t.before = (at, [_move(e) for e in made[at + 1:] if e.seat not in (None, seat.name)])
        return [Scripted(e.seat, e.detail["choice"], e.detail["value"], 0) for e in made[:at]
                if e.seat is not None]

    def _others_as_before(self, state, count: int) -> None:
        """Keep the other seats' generators as they are at this choice (an undo sets them
        back to these when the game replayed comes here again), or set them back."""
        t = self.table
        if t.restore is not None and t.restore[0] == count:
            for index, saved in t.restore[1].items():
                r = _generator(state.agents.get(index))
                if r is not None:
                    r.setstate(saved)
            t.restore = None
        t.generators[count] = {i: r.getstate() for i, a in state.agents.items()
                               if i != self.seat.index and (r := _generator(a)) is not None}

    def _compared(self, state, made) -> list[str]:
        """After an undo, once the others have moved again: whether they moved as before."""
        t = self.table
        if t.before is None or len(made) <= t.before[0] + 1:
            return []
        at, before = t.before
        now = [_move(e) for e in made[at + 1:] if e.seat not in (None, self.seat.name)]
        if not now:
            return []
        t.before = None
        n = min(len(now), len(before))
        if now[:n] == before[:n]:
            return ["(the other seats moved as before)"]
        return ["(the other seats moved differently this time: their options changed)"]

    # ------------------------------------------------------------ the suggestion
    def _suggestion(self, name, options, state, seat, menu) -> str:
        """The suggestion of the bot ``--suggest`` names (the playing query's by default),
        in words (the job: ``app.suggesting``); never an error out of the game."""
        found = self.suggester.suggest(name, options, state, seat)
        if not found.found:
            return found.why_not
        key = menu.key_of(found.value)
        if key is None:
            return f"no suggestion here: {render.text(found.value)} is not an option now"
        return "\n".join([f"suggestion: {key}. {screen.option_text(found.value, 1, self.table.words)} ({found.how})",
                          *found.lines])


class _Menu:
    """The options of one choice as shown: equal ones as one, with what each is worth,
    best first; cells by their letters on the board."""

    def __init__(self, table: Table, agent: HumanAgent, name, options, state, seat):
        self.table = table
        self.groups = screen.grouped(options)
        reps = [o for o, _ in self.groups]
        self.values = None
        try:
            self.values = option_values(table.program, agent.query, name, reps, state, seat, agent.inputs)
        except Exception:       # noqa: BLE001 (no values shown: the options still are)
            self.values = None
        self.order = self.values.order() if self.values else list(range(len(reps)))
        self.board = None
        if reps and all(screen._is_cell(o) for o in reps):
            boards = [b for _, b in screen.own_boards(state, seat)
                      if set(reps) <= set(rt.placements(b))]
            if len(boards) == 1:
                self.board = boards[0]
        keys = screen.cell_letters(len(reps)) if self.board is not None else \
            [str(i) for i in range(1, len(reps) + 1)]
        self.keys = {keys[n]: self.order[n] for n in range(len(reps))}

    def lines(self) -> list[str]:
        out = []
        if self.board is not None:
            out += screen.board_with_letters(self.board, {self.groups[i][0]: k for k, i in self.keys.items()})
        columns = self.values.columns if self.values else []
        shown = {k: "" if self.board is not None else screen.option_text(*self.groups[i], self.table.words)
                 for k, i in self.keys.items()}
        width = min(max(len(x) for x in shown.values()), 72) if shown else 0
        if self.board is not None and not columns:
            return out + ["  cells: " + ", ".join(self.keys)]
        if columns:
            out.append(f"  {'':>4} {'':<{width}}  " + "  ".join(columns))
        for k, i in self.keys.items():
            line = f"  {k:>3}. {shown[k]:<{width}}"
            if columns:
                line += "  " + "  ".join(c.rjust(len(h)) for c, h in zip(cells(self.values, i), columns))
            out.append(line.rstrip())
        return out

    def range_text(self) -> str:
        keys = list(self.keys)
        return keys[0] if len(keys) == 1 else f"{keys[0]}-{keys[-1]}" if self.board is None else \
            f"{keys[0]}..{keys[-1]}"

    def range_words(self) -> str:
        if self.board is not None:
            return f"type the letter of a cell ({', '.join(self.keys)})"
        return f"type a number from 1 to {len(self.keys)}"

    def pick(self, answer: str):
        number = _option_number(answer)
        if number is not None and self.board is None:
            return self.groups[self.keys[str(number)]][0] if str(number) in self.keys else None
        if self.board is not None and answer.upper() in self.keys:
            return self.groups[self.keys[answer.upper()]][0]
        return None

    def key_of(self, value):
        for k, i in self.keys.items():
            if self.groups[i][0] == value:
                return k
        return None


def _generator(agent, depth: int = 4):
    """The random generator an agent draws its choices from (through the agents it wraps)."""
    for _ in range(depth):
        if agent is None:
            return None
        r = getattr(agent, "rng", None)
        if isinstance(r, random.Random):
            return r
        agent = getattr(agent, "then", None) or getattr(agent, "random", None)
    return None


def _made(state) -> list:
    """The choices made since the game began here (a game resumed: since it resumed)."""
    since = max((i for i, e in enumerate(state.log) if e.kind == "resume"), default=-1)
    return [e for e in state.log[since + 1:] if e.kind == "choose"]


def _move(e) -> tuple:
    return (e.seat, e.detail["choice"], json.dumps(e.detail["value"], sort_keys=True, default=str))


def _so_far(t: Table, state, seat) -> str:
    """The choices this seat made since the game's last checkpoint (this turn, this pick)."""
    made = []
    for e in reversed(state.log):
        if e.kind == "checkpoint":
            break
        if e.kind == "choose" and e.seat == seat.name:
            place = t.words.place(e.detail["choice"], None)
            made.append(f"{t.words.label(place, e.detail['choice'], [])} {_value_text(e.detail['value'])}")
    runs: list[list] = []
    for m in reversed(made):
        if runs and runs[-1][0] == m:
            runs[-1][1] += 1
        else:
            runs.append([m, 1])
    shown = [m + (f" ×{n}" if n > 1 else "") for m, n in runs]
    if len(shown) > 4:
        shown = ["..."] + shown[-3:]
    return ("so far: " + "; ".join(shown)) if shown else ""


def _value_text(v) -> str:
    """A choice as the log holds it, in words."""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, list):
        return ", ".join(_value_text(x) for x in v) or "none"
    if isinstance(v, dict):
        return ", ".join(f"{render.words(k)} {_value_text(x)}" for k, x in v.items())
    return str(v)


def _a_card(program) -> str:
    tables = [e for e in program.enums.values() if e.columns and e.values]
    return tables[-1].values[0] if tables else "NAME"


def _option_number(answer: str) -> int | None:
    """The number of an option as typed: ASCII digits, a few of them ("²" and "٣" are
    digits to Python, and not numbers to type here), else None."""
    if re.fullmatch(r"[0-9]{1,18}", answer):
        return int(answer)
    return None


def _shown(answer: str, most: int = 40) -> str:
    """An answer quoted back to the player, cut to a readable length, what does not print
    (a control character, a byte that is not UTF-8) as its escape."""
    text = "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in answer[:most])
    return f"'{text}'" if len(answer) <= most else f"'{text}...' ({len(answer):,} characters)"


def _not_a_path(path: str) -> str | None:
    """Why a file name typed to save to cannot be one (in words), else None."""
    if "\0" in path:
        return "a file name cannot hold a NUL character (\\0)"
    if any(0xD800 <= ord(c) <= 0xDFFF for c in path):
        return "the file name is not text this system can write (bytes that are not UTF-8?)"
    return None
