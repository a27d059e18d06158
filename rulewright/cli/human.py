"""A seat played by a person at the terminal (``play --seat p1=human``).

In:  the program, the command's arguments, each seat's agent kind; standard input and
     output (a terminal, or any stream: the tests drive it through a pseudo-terminal).
Out: ``Table`` (what the human seats share: the streams, an undo, a save) and its
     agents. At each choice of a human seat the position is shown as that player sees
     it (their own hand, everyone's boards and the shared state; other hands only
     counted), with what happened since, then the legal options numbered. Besides a
     number the player may type ``?`` (the solver's suggestion and its reason, from
     the playing query), ``u`` (undo: take back their last choice), ``p`` (the
     position again), ``s`` (save the game and quit), ``q`` (quit) or ``h``.
"""
from __future__ import annotations

import json
import re
import sys

from rulewright.compiler import files
from rulewright.compiler.diagnostics import RulesError
from rulewright.compiler.play import resume, state_io
from rulewright.compiler.play.script import Scripted
from rulewright.compiler.semantics import render, runtime as rt
from rulewright.compiler.types import CollT, SeatT

HELP = ("type the number of an option; ? the solver's suggestion, u undo your last choice, "
        "p the position again, s save and quit, q quit")


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
            self.say("(taken back: the game is played again up to your choice)")
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
        doc = state_io.dump(state, seed=state.seed, beside=path)
        text = json.dumps(doc, indent=1, ensure_ascii=False)
        text = text[:-2] + ',\n "resume": ' + json.dumps(resume.entry(state), ensure_ascii=False) + "\n}\n"
        try:
            files.write_text(path, text)
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

    def choose(self, name, options, state, seat):
        t = self.table
        t.seen[seat.name] = min(t.seen.get(seat.name, 0), len(state.log))     # (shorter after an undo)
        news = self._news(state, t.seen[seat.name])
        if news:
            t.say()
            t.say("\n".join(news))
        shown_position = False
        if not _own_turn_goes_on(state, seat):
            t.say()
            t.say("\n".join(view(state, seat)))
            shown_position = True
        t.seen[seat.name] = len(state.log)
        t.say()
        t.say(f"{seat.title}, choose {render.words(name)}:")
        for i, o in enumerate(options, start=1):
            t.say(f"  {i:>2}. {render.text(o)}")
        while True:
            answer = t.ask(f"{name}> ")
            if answer is None or answer == "q":
                t.say("game left unsaved")
                raise _Quit()
            number = _option_number(answer)
            if number is not None:
                if 1 <= number <= len(options):
                    return options[number - 1]
                t.say(f"{_shown(answer)} is not an option: type a number from 1 to {len(options)}")
            elif answer == "?":
                t.say(self._suggestion(name, options, state, seat))
            elif answer == "u":
                keep = self._undo(state, seat)
                if keep is None:
                    t.say("nothing of yours to take back since the game began here")
                else:
                    raise _Undo(keep)
            elif answer == "p":
                t.say("\n".join(view(state, seat)))
            elif answer == "s":
                path = t.save(state)
                if path:
                    t.say(f"saved to {path}; go on with: rulewright play {self.table.args.spec} --from {path} "
                          f"--seat {seat.name}=human")
                    raise _Quit()
            elif answer in ("h", "help", ""):
                t.say(HELP)
                if not shown_position:
                    shown_position = True
            else:
                t.say(f"{_shown(answer)} is not an option: {HELP}")

    def _news(self, state, seen: int) -> list[str]:
        """What happened since this seat was last asked: the game's notes."""
        lines = []
        for e in state.log[seen:]:
            if e.kind == "note":
                if e.detail.get("heading"):
                    lines.append(f"== {render.words(e.detail['name']).capitalize()} "
                                 f"{render.text(e.detail['value'])} ==")
                else:
                    lines += render.block(e.detail["name"], e.detail["value"])
        return lines

    def _undo(self, state, seat) -> list[Scripted] | None:
        since = max((i for i, e in enumerate(state.log) if e.kind == "resume"), default=-1)
        made = [e for e in state.log[since + 1:] if e.kind == "choose"]
        mine = [i for i, e in enumerate(made) if e.seat == seat.name]
        if not mine:
            return None
        return [Scripted(e.seat, e.detail["choice"], e.detail["value"], 0) for e in made[:mine[-1]]
                if e.seat is not None]

    def _suggestion(self, name, options, state, seat) -> str:
        if self.query is None:
            return "no suggestion: the spec has no playing query (a query with 'play' statements) to ask"
        from rulewright.solver.queries import interpreter_for, run_query   # (OR-Tools loads only when asked)
        inputs = dict(self.inputs)
        seat_input = next((n for n, t, _ in self.table.program.queries[self.query].inputs
                           if isinstance(t, SeatT)), None)
        if seat_input:
            inputs[seat_input] = seat
        self.table.say(f"(asking {self.query.replace('_', '-')}...)")
        try:
            answer = run_query(self.table.program, self.query, inputs, time_limit=self.table.args.agent_time_limit,
                               workers=1, state=state, reasons=False)
        except RulesError as exc:
            return f"no suggestion: {exc.diagnostics[0].message}"
        plays = {n: (expr, env) for n, expr, env in answer.plays}
        if answer.status not in ("OPTIMAL", "FEASIBLE") or name not in plays:
            return f"no suggestion for {render.words(name)} here ({answer.status.lower()})"
        expr, env = plays[name]
        value = interpreter_for(self.table.program).evaluate(expr, env, state=state)
        number = next((i for i, o in enumerate(options, start=1) if o == value), None)
        if number is None:
            return f"the solver's plan plays {render.text(value)}, which is not an option here"
        proof = "proved best" if answer.status == "OPTIMAL" else "the best found in the time given"
        why = [f"suggestion: {number}. {render.text(value)} ({proof}; {self.query.replace('_', '-')}: "
               f"{_objective(answer)})"]
        for n, v, _ in answer.reports:
            why += ["  " + line for line in render.block(n, v)]
        later = [f"{render.words(n)} {render.text(interpreter_for(self.table.program).evaluate(e, env_, state=state))}"
                 for n, (e, env_) in plays.items() if n != name]
        if later:
            why.append("  then: " + ", ".join(later))
        return "\n".join(why)


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


def _objective(answer) -> str:
    names = answer.objective_names
    if isinstance(answer.objective, tuple) and isinstance(names, (list, tuple)):
        return ", ".join(f"{render.words(str(n))} {v}" for n, v in zip(names, answer.objective))
    return f"{render.words(str(names)) + ' ' if isinstance(names, str) else ''}{answer.objective}"


def _own_turn_goes_on(state, seat) -> bool:
    """Whether the game's last event is this seat's own choice (the same turn going on)."""
    return bool(state.log) and state.log[-1].kind == "choose" and state.log[-1].seat == seat.name


def view(state, seat) -> list[str]:
    """The position as one player sees it: the shared state, their own per-seat state,
    the others' boards and counts of their piles (a hand is not shown to the others)."""
    program = state.interp.program
    lines = []
    shared = [v for v in program.state.values() if not v.keyed]
    for var in shared:
        value = state.shared[var.name]
        if isinstance(value, rt.Zone) and len(value.cards) > render.LONG_PILE:
            # a long pile (a draw stack) by its size only: its order is not for the players
            lines.append(f"{render.words(var.name)}: {len(value.cards)} card(s)")
        else:
            lines += render.block(var.name, value)
    by_key: dict[str, list] = {}
    for v in program.state.values():
        if v.keyed and not v.per_seat:
            by_key.setdefault(v.per, []).append(v)
    for per, vars_ in by_key.items():
        lines.append(f"per {per}:")
        for key in program.enums[per].values:
            lines.append(f"  {key}: " + "; ".join(f"{render.words(v.name)} "
                                                  f"{render.text(state.per[v.name][key], render.LONG_PILE)}"
                                                  for v in vars_))
    per_seat = [v for v in program.state.values() if v.per_seat]
    for other in state.seats:
        if not per_seat:
            break
        lines.append("")
        lines.append(f"{other.title}" + (" (you)" if other == seat else ""))
        for var in per_seat:
            value = state.per[var.name][other]
            if other != seat and isinstance(var.type, CollT) and var.type.kind == "pile" \
                    and isinstance(value, rt.Zone):
                lines.append(f"  {render.words(var.name)}: {len(value.cards)} card(s)")
            else:
                lines += render.block(var.name, value, "  ")
    return lines
