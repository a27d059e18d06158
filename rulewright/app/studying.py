"""Balance studies: many seeded games of a spec (a house rule) and of the spec it is
compared with (its base game), on every core, what they show side by side.

In:  the rule sets compared (``Side``: a label, the spec as named, its checked program;
     the first is the one studied, the second, when there is one, what it is compared
     with), a ``Plan`` (mode, players, games, first seed, the bots of the seats, the
     strong and weak bots of the skill games and how many), how many processes play, the
     games already played (``--resume``), a file each finished game is added to, a
     ``progress(what, fraction)`` callback.
Out: ``Study``: every game's ``Record`` (rule set, kind, seed, seat of the strong bot, the
     game's ``measure.GameMeasures``); its figures are ``app.study_figures``'s.

The games: ``games`` main games (seeds ``seed`` to ``seed + games - 1``, the seats played
by the plan's bots) and ``skill_games`` skill games (the same seeds from ``seed``; the
strong bot at seat ``i % players`` of game ``i``, the weak bot at the others), each under
every rule set with the same seed. A game's result depends on its seed and rule set only:
the number of processes changes nothing but the time. They are played in an order that
keeps the rule sets and kinds in step, so a study stopped early is a smaller study.
"""
from __future__ import annotations

import io
import json
import os
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from rulewright.app import playing, workers as workers_
from rulewright.app.bots import bot_named
from rulewright.compiler import files
from rulewright.compiler.diagnostics import NO_SPAN, BadInputError, Diagnostic, RulesError
from rulewright.compiler.interpret import Interpreter
from rulewright.compiler.play import measure

FORMAT = 1              # the games file's format (a file of another format is not resumed)
KINDS = ("random", "greedy", "solver", "mcts")


@dataclass(frozen=True)
class Side:
    """A rule set of the study: its label (the spec as the user named it), its program,
    the settings it was opened with beyond the user's own (a sweep's value)."""
    label: str
    program: Any
    sets: tuple[tuple[str, str], ...] = ()

    @property
    def name(self) -> str:
        """A column's heading: the spec's file or folder name, or the sweep's value."""
        if self.sets:
            return ", ".join(f"{k}={v}" for k, v in self.sets)
        base = os.path.basename(self.label.rstrip("/\\")) or self.label
        return base[:-len(".rules")] if base.endswith(".rules") else base

    @property
    def command(self) -> str:
        """The spec as a command line names it, with its settings."""
        return self.label + "".join(f" --set {k}={v}" for k, v in self.sets)


@dataclass(frozen=True)
class Plan:
    """What is played: the mode (its name), the players, the main games and their first
    seed, each seat's bot in the main games (seat name -> bot as written; the others
    random), the skill games' strong and weak bots and how many skill games."""
    mode: str
    players: int
    games: int
    seed: int = 1
    seats: tuple[tuple[str, str], ...] = ()
    strong: str = "greedy"
    weak: str = "random"
    skill_games: int = 0

    def header(self, sides: list[Side]) -> dict:
        """What a games file records of the study it belongs to (``--resume`` checks it)."""
        return {"format": FORMAT, "specs": [s.command for s in sides], "mode": self.mode, "players": self.players,
                "seed": self.seed, "seats": dict(self.seats), "strong": self.strong, "weak": self.weak}


@dataclass
class Record:
    """One game played: its rule set (index of its side), kind ("main" or "skill"), seed,
    the seat of the strong bot (skill games), and what it showed."""
    side: int
    kind: str
    seed: int
    strong: int | None
    m: measure.GameMeasures

    @property
    def key(self) -> tuple:
        return (self.side, self.kind, self.seed)

    def as_data(self) -> dict:
        return {"side": self.side, "kind": self.kind, "seed": self.seed, "strong": self.strong, **self.m.as_data()}

    @classmethod
    def from_data(cls, data: dict) -> "Record":
        d = dict(data)
        return cls(d.pop("side"), d.pop("kind"), d.pop("seed"), d.pop("strong"), measure.GameMeasures.from_data(d))


@dataclass
class Study:
    """The games of a study and how they were played."""
    sides: list[Side]
    plan: Plan
    records: list[Record] = field(default_factory=list)
    seconds: float = 0.0
    workers: int = 1
    stopped: bool = False           # Ctrl-C stopped it before every game was played
    resumed: int = 0                # games read back from the games file
    reference: int = 0              # in a sweep: the rule set the others are compared with

    def of(self, side: int, kind: str = "main") -> dict[int, Record]:
        """Seed -> record of one rule set's games of one kind."""
        return {r.seed: r for r in self.records if r.side == side and r.kind == kind}


def check_bots(plan: Plan, seat_names: list[str], option_seat: str = "--seat",
               option_skill: str = "--skill") -> None:
    """The plan's bots are bots of a study (no person), its seats seats of the game."""
    for seat, bot in plan.seats:
        if seat not in seat_names:
            raise BadInputError(f"{option_seat}: '{seat}' is not a player's seat (the seats: {', '.join(seat_names)})")
        bot_named(bot, option_seat, kinds=KINDS)
    for bot in (plan.strong, plan.weak):
        bot_named(bot, option_skill, kinds=KINDS)


def tasks(plan: Plan, sides: int) -> list[tuple[int, str, int, int | None]]:
    """Every game of the study as (side, kind, seed, seat of the strong bot), in the
    order they are played: main and skill games interleaved by how far along each is,
    every rule set of one seed together."""
    out = []
    for i in range(plan.games):
        out.append(((i + 0.5) / plan.games, 0, i))
    for j in range(plan.skill_games):
        out.append(((j + 0.5) / plan.skill_games, 1, j))
    out.sort()
    games = []
    for _, kind, i in out:
        for side in range(sides):
            games.append((side, "main", plan.seed + i, None) if kind == 0 else
                         (side, "skill", plan.seed + i, i % plan.players))
    return games


def _play(task) -> dict:
    """One game of the study, in a worker: its record as data."""
    side, kind, seed, strong = task
    game = workers_.context()
    program, interp = game["programs"][side], game["interps"][side]
    mode, players, plan = game["mode"], game["players"], game["plan"]
    names = [s.name for s in interp.seats_for(program.modes[mode], players) if s.kind == "player"]
    if kind == "skill":
        kinds = {n: plan.strong if i == strong else plan.weak for i, n in enumerate(names)}
    else:
        kinds = {n: dict(plan.seats).get(n, "random") for n in names}
    factory = playing.agent_factory(program, kinds, playing.Seating(), playing.COMMAND_LINE_WORDS)
    watch = measure.Watch(program, mode)
    try:
        state = playing.play_game(interp, mode, players, seed, factory, watchers=[watch], prepare=measure.prepare)
    except RulesError as exc:
        exc.seed, exc.run = seed, side
        raise
    return Record(side, kind, seed, strong, measure.measures(state, watch)).as_data()


# ------------------------------------------------------------------ the games file
def _bad(message: str, hint: str) -> BadInputError:
    return BadInputError(Diagnostic(NO_SPAN, message, hint))


def read_games(path: str, header: dict) -> list[Record]:
    """The games a games file holds, when it belongs to a study like this one (else a bad
    input saying what differs)."""
    try:
        text = files.read_bytes(path, most=1 << 30).decode("utf-8")
    except FileNotFoundError:
        return []
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if not lines:
        return []
    try:
        head = json.loads(lines[0]).get("study")
    except (ValueError, AttributeError):
        head = None
    if not isinstance(head, dict):
        raise _bad(f"{path}: not the games file of a study", "choose another --out folder")
    for k, v in header.items():
        if head.get(k) != v:
            raise _bad(f"{path}: the study there was played with {k} {head.get(k)!r}, not {v!r}",
                       "give the same settings as that study to --resume it, or another --out folder")
    out = []
    for n, line in enumerate(lines[1:], start=2):
        try:
            out.append(Record.from_data(json.loads(line)))
        except (ValueError, TypeError, KeyError):
            if n == len(lines):         # the last line, cut short when the study was stopped
                break
            raise _bad(f"{path}:{n}: not a game of a study",
                       "remove the line, or start again without --resume") from None
    return out


class GamesFile:
    """The games file of a study: its header, then one finished game a line, added as each
    game ends (never through a symbolic link)."""

    def __init__(self, path: str, folder: str, header: dict, records: list[Record]):
        text = json.dumps({"study": header}) + "\n" + "".join(json.dumps(r.as_data()) + "\n" for r in records)
        files.write_text(path, text, inside=folder)
        flags = os.O_WRONLY | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0)
        try:        # (the file just written: a link put in its place since is not followed)
            self.fd = os.open(path, flags)
        except OSError as exc:
            raise _bad(f"{path}: cannot add the games to it ({exc.strerror})",
                       "choose another --out folder") from None

    def add(self, record: Record) -> None:
        os.write(self.fd, (json.dumps(record.as_data()) + "\n").encode())

    def close(self) -> None:
        os.close(self.fd)


# ------------------------------------------------------------------ the study
def _kit(sides: list[Side], plan: Plan, portable: bool) -> dict:
    """What a worker plays the study's games with; ``portable``: the programs as bytes (a
    worker of a cluster gets them so, whatever machine it is on)."""
    from rulewright.compiler import cache        # (the programs' pickler: for a cluster)
    data = [cache.pickled(s.program) for s in sides] if portable else None
    key = cache.digest(b"".join(data) + repr(plan).encode()) if data else ""
    return {"key": key, "programs": data or [s.program for s in sides], "mode": plan.mode,
            "players": plan.players, "plan": plan}


def _made(kit: dict) -> dict:
    """The programs (read back from bytes where the kit carries them) and their interpreters."""
    from rulewright.compiler import cache        # (the same)
    programs = [cache.unpickled(io.BytesIO(p)) if isinstance(p, bytes) else p for p in kit["programs"]]
    return {**kit, "programs": programs, "interps": [Interpreter(p) for p in programs]}


def run_study(sides: list[Side], plan: Plan, *, workers: int | None = None, done: list[Record] | None = None,
              games_file: GamesFile | None = None, ray: str | None = None, reference: int = 0,
              progress: Callable[[str, float], None] | None = None) -> Study:
    """The study's games played (those in ``done`` kept), ``workers`` processes at once
    (every core by default), or on the Ray cluster ``ray`` ("auto", "local", HOST:PORT:
    ``workers.joined``). Ctrl-C stops it: the games finished are kept (``Study.stopped``)."""
    every = tasks(plan, len(sides))
    have = {r.key: r for r in (done or [])}
    todo = [t for t in every if (t[0], t[1], t[2]) not in have]
    study = Study(sides, plan, [have[(t[0], t[1], t[2])] for t in every if (t[0], t[1], t[2]) in have],
                  resumed=len(have), reference=reference)
    study.workers = max(1, min(workers or workers_.cores(), max(1, len(todo))))
    chunk = 1
    if ray:
        cluster = workers_.joined(ray)
        study.workers = int(cluster.cluster_resources().get("CPU", 1))
        chunk = max(1, min(64, len(todo) // (4 * study.workers)))      # (a few calls a core: fewer round trips)
    began = time.perf_counter()
    try:
        for data in workers_.results(_play, todo, study.workers, _kit(sides, plan, bool(ray)), _made, chunk=chunk,
                                     ray=ray):
            record = Record.from_data(data)
            study.records.append(record)
            if games_file is not None:
                games_file.add(record)
            if progress:
                progress(f"game {len(study.records)} of {len(every)}", len(study.records) / len(every))
    except KeyboardInterrupt:
        study.stopped = True
    study.seconds = time.perf_counter() - began
    order = {(t[0], t[1], t[2]): i for i, t in enumerate(every)}
    study.records.sort(key=lambda r: order.get(r.key, len(order)))
    return study


# ------------------------------------------------------------------ what both faces run
GAMES_FILE, DATA_FILE, REPORT_FILE = "games.jsonl", "study.json", "report.html"


@dataclass(frozen=True)
class Words:
    """How a face names a study's options, in its errors."""
    against: str
    sweep: str
    seat: str
    skill: str


COMMAND_LINE_WORDS = Words("--against", "--sweep", "--seat", "--skill")
PYTHON_WORDS = Words("against=", "sweep=", "seats=", "skill=")


def parse_sweep(text: str, words: Words = COMMAND_LINE_WORDS) -> tuple[str, list[str]]:
    """``NAME=V1,V2,...``: the switch or param and its values (two or more, each once)."""
    name, sep, values = text.partition("=")
    items = [v.strip() for v in values.split(",") if v.strip()]
    if not sep or not name.strip() or len(items) < 2:
        raise BadInputError(f"{words.sweep} takes NAME=V1,V2,... (a switch or param and two values or more), "
                            f"e.g. hand_size=4,5,6, not {text!r}")
    if len(set(items)) < len(items):
        raise BadInputError(f"{words.sweep} {text}: a value is named twice")
    return name.strip(), items


def parse_skill(text: str, words: Words = COMMAND_LINE_WORDS) -> tuple[str, str]:
    """``STRONG,WEAK``: the bots of the skill games."""
    strong, sep, weak = text.partition(",")
    if not sep or not strong.strip() or not weak.strip():
        raise BadInputError(f"{words.skill} takes STRONG,WEAK (two bots), e.g. greedy,random, not {text!r}")
    return strong.strip(), weak.strip()


def set_up(req, *, against: str | None = None, sweep: str | None = None, mode: str | None = None,
           players: int | None = None, games: int = 200, seed: int = 1, agent: str = "random",
           seats: dict[str, str] | None = None, skill: str = "greedy,random", skill_games: int = 10,
           words: Words = COMMAND_LINE_WORDS, seat_words=None) -> tuple[list[Side], Plan, int]:
    """The rule sets of a study (the spec of ``req``, or one per value of ``sweep``; then
    ``against``, when given), its plan, and the rule set the others are compared with; the
    spec compared against checked to be a version of the same game for the mode played.
    ``seat_words``: how the face names its seating options (``playing.Words``)."""
    from rulewright.app.opening import open_spec      # (the specs: opened when a study is set up)
    from rulewright.app.simulating import check_against, open_against      # (the same)
    seat_words = seat_words or playing.COMMAND_LINE_WORDS
    name, values = parse_sweep(sweep, words) if sweep else ("", [])
    strong, weak = parse_skill(skill, words)
    program = open_spec(req)
    m = playing.pick_mode(program, req.spec, mode, players, seat_words)
    n = players if players is not None else m.min_players
    if sweep:
        sides = []
        for value in values:
            try:
                swept = open_spec(req, settings={**req.settings, name: value})
            except RulesError as exc:
                first = exc.render().removeprefix("error: ").splitlines()[0]
                raise BadInputError(f"{words.sweep} {name}={value}: {first}") from None
            sides.append(Side(req.spec, swept, ((name, value),)))
    else:
        sides = [Side(req.spec, program)]
    if against:
        other = open_against(req, against)
        check_against(program, other, m, n, against, req.spelling)
        sides.append(Side(against, other))
    table = Interpreter(program).seats_for(m, n)
    kinds = playing.seat_agents(table, playing.Seating(agent, None, dict(seats or {})), seat_words)
    plan = Plan(m.name, n, games, seed, tuple(sorted((k, v) for k, v in kinds.items() if v != "random")),
                strong, weak, skill_games)
    check_bots(plan, [s.name for s in table if s.kind == "player"], words.seat, words.skill)
    return sides, plan, (len(sides) - 1 if sweep and against else 0)


@dataclass
class Outcome:
    """A study done: the study, its figures, its effects, the files written (name -> path)."""
    study: Study
    figures: dict
    effects: list
    written: dict[str, str] = field(default_factory=dict)


def conduct(sides: list[Side], plan: Plan, *, out: str | None = None, resume: bool = False,
            workers: int | None = None, report: bool = True, ray: str | None = None, reference: int = 0,
            progress: Callable[[str, float], None] | None = None) -> Outcome:
    """The study played and summed up. With ``out`` (a folder): every game added to its
    games file as it ends (``resume``: the games already there kept, when they belong to a
    study with the same settings), then the figures (``study.json``) and the report
    (``report.html``, unless ``report`` is False) written there. ``ray``: the games
    played on that Ray cluster (``run_study``)."""
    from rulewright.app import study_figures, study_report      # (the figures and pages: once the games are played)
    header = plan.header(sides)
    done: list[Record] = []
    games_file = None
    if out is not None:
        path = os.path.join(out, GAMES_FILE)
        if resume:
            done = read_games(path, header)
        games_file = GamesFile(path, out, header, done)
    try:
        study = run_study(sides, plan, workers=workers, done=done, games_file=games_file, ray=ray,
                          reference=reference, progress=progress)
    finally:
        if games_file is not None:
            games_file.close()
    figs = study_figures.figures(study)
    found = study_report.effects(study, figs)
    result = Outcome(study, figs, found)
    if out is not None:
        result.written["games"] = os.path.join(out, GAMES_FILE)
        result.written["figures"] = os.path.join(out, DATA_FILE)
        if report:
            result.written["report"] = os.path.join(out, REPORT_FILE)
            title = f"{sides[0].program.title}: " + (f"{sides[0].name} against {sides[1].name}"
                                                       if len(sides) == 2 else " / ".join(s.name for s in sides))
            files.write_text(result.written["report"], study_report.report_html(study, figs, title), inside=out)
        data = json.dumps(study_data(result), indent=2, ensure_ascii=False)
        files.write_text(result.written["figures"], data, inside=out)
    return result


def study_data(result: Outcome) -> dict:
    """The study as JSON-ready data (docs/json.md)."""
    study, plan = result.study, result.study.plan
    return {"specs": [s.command for s in study.sides], "title": study.sides[0].program.title, "mode": plan.mode,
            "players": plan.players, "games": plan.games, "seed": plan.seed, "seats": dict(plan.seats),
            "skill": {"strong": plan.strong, "weak": plan.weak, "games": plan.skill_games},
            "played": len(study.records), "resumed": study.resumed, "stopped": study.stopped,
            "seconds": round(study.seconds, 2), "workers": study.workers,
            **result.figures, "effects": result.effects, "files": dict(result.written)}


__all__ = ["COMMAND_LINE_WORDS", "PYTHON_WORDS", "Outcome", "Plan", "Words", "conduct", "parse_skill", "parse_sweep",
           "set_up", "study_data", "Record", "Side", "Study", "GamesFile", "check_bots", "read_games", "run_study", "tasks"]
