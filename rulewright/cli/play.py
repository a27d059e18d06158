"""The commands that play and score: score, play, simulate, show.

In:  parsed arguments. Out: text or JSON on stdout (and the files asked for:
     --log, --save-state); the solver is loaded only for solver agents.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

from rulewright.compiler.semantics import runtime as rt, render
from rulewright.compiler.diagnostics import (BadInputError, Diagnostic, RulesError, Span, did_you_mean,
                                             whole_number)
from rulewright.compiler.semantics.render import board_lines, score_lines, text_value
from rulewright.compiler.types import BoardT

from rulewright.cli.common import (UsageError, _blame_settings, _given_settings, _load, _load_state, _pick_mode,
                                   _request, _write)
from rulewright.app import playing
from rulewright.app.witnesses import narrative, reports
from rulewright.app.faces import COMMAND_LINE
from rulewright.app.opening import same_file as _same_file
from rulewright.app.scoring import grid_type, score_data, score_grids
from rulewright.compiler.play.inputs import read_grid
from rulewright.compiler.interpret import Interpreter, locate
from rulewright.compiler.play.checks import invariant_note
from rulewright.compiler.ir import checkpoint_names
# (the variants', the state files' and the resumed games' modules load with play and show:
# score needs none of them)
from rulewright.compiler.diagnostics import RuntimeRulesError


def cmd_score(args) -> int:
    if args.state:
        return _score_position(args)
    if not args.grids:
        raise UsageError("score takes the grid files to score (GRID...), or a position: --state FILE")
    program = _load(args.spec, args)
    grid = grid_type(program)
    boards = [read_grid(path, program, grid, allow_free=False) for path in args.grids]
    scored = score_grids(program, boards, list(args.grids))
    _grid_warnings(scored.broken, args.grids)
    results = scored.results
    if args.json:
        players = [{"grid": path, **score_data(res)} for path, res in zip(args.grids, results)]
        print(json.dumps({"players": players}, indent=2, ensure_ascii=False))
        return 0
    if len(results) == 1:
        print(args.grids[0])
        _print_score(results[0], boards)
        return 0
    for path, board, res in zip(args.grids, boards, results):
        print(path)
        print("\n".join(board_lines(board, _prey(res))))
        print()
    from rulewright.cli import tables     # (rich draws the table: loaded for several grids only)
    tables.write(score_table(list(args.grids), results), "", tables.wrapped(winner_line(list(args.grids), results)))
    return 0


def _prey(res) -> set:
    """The cards a choice of the score took (marked on the grid)."""
    prey = set()
    if isinstance(res, rt.Score):
        for v in res.choices.values():
            if isinstance(v, tuple):
                prey |= {x for x in v if isinstance(x, tuple)}
    return prey


def score_table(names: list[str], results: list):
    """The grids side by side: a row per scoring step (then each choice the scores made,
    then the total), a column per grid."""
    from rulewright.cli.tables import table      # (rich: loaded with the first table)
    steps: list[str] = []
    choices: list[str] = []
    for res in results:
        if isinstance(res, rt.Score):
            steps += [k for k in res.steps if k not in steps]
            choices += [k for k in res.choices if k not in choices]
    rows = [[k, *(str(res.steps.get(k, "")) if isinstance(res, rt.Score) else "" for res in results)]
            for k in steps]
    rows += [[k.replace("_", " "), *(text_value(res.choices[k]) if isinstance(res, rt.Score) and k in res.choices
                                     else "" for res in results)] for k in choices]
    rows.append(["total", *(str(int(res)) for res in results)])
    return table(["", *names], rows, right=tuple(range(1, len(names) + 1)), bold_rows=(len(rows) - 1,))


def winner_line(names: list[str], results: list) -> str:
    """"Winner: NAME with N points", or the tie of the highest totals."""
    best = max(int(res) for res in results)
    top = [name for name, res in zip(names, results) if int(res) == best]
    if len(top) == 1:
        return f"Winner: {top[0]} with {best} points"
    return f"Tie: {', '.join(top[:-1])} and {top[-1]} with {best} points each"


def _print_score(res, boards: list) -> None:
    """The grids scored (the cards a choice of the score took marked) and the score."""
    prey = _prey(res)
    for board in boards:
        print("\n".join(board_lines(board, prey)))
    if isinstance(res, rt.Score):
        print("\n".join(score_lines(res)))
    else:
        print(f"  total {int(res)}")
    print()


def _score_position(args) -> int:
    """Each player of a position scored with the spec's outcome, on the whole position
    (what a scoring reads besides the grids: piles, shared state, the other seats)."""
    if args.grids:
        raise UsageError("score takes grid files or --state FILE, not both")
    program, state, doc = _load_state(args)
    if program.outcome is None:
        raise BadInputError(f"{args.spec}: the spec has no 'outcome' to score with")
    interp = state.interp
    boards = [v for v in program.state.values() if v.per_seat and isinstance(v.type, BoardT)]
    results = [(seat, interp.call(program.outcome, seat, state=state)) for seat in state.players]
    if args.json:
        players = [{"seat": seat.name, "title": seat.title, **score_data(res)} for seat, res in results]
        print(json.dumps({"state": args.state, "players": players}, indent=2, ensure_ascii=False))
        return 0
    for seat, res in results:
        print(f"{seat.title} ({seat.name})")
        _print_score(res, [b for var in boards if (b := state.per[var.name][seat]).cards])
    return 0


def _grid_warnings(broken: list, paths: list[str]) -> None:
    """The invariants written with "else warn" that grids scored together break, on
    standard error: each at the first place a grid file writes the element that breaks it."""
    for b in broken:
        span = _written_in(paths, b.item) if isinstance(b.item, str) else None
        print(Diagnostic(span or Span(paths[0], 0, 0, 0, 0), b.message, "no game deals these grids together: "
                         "they are scored as written", severity="warning",
                         notes=(invariant_note(b.invariant),)).render(), file=sys.stderr)


def _written_in(paths: list[str], word: str) -> Span | None:
    """The first place one of the files writes a word (as a whole word)."""
    for path in paths:
        try:
            lines = Path(path).read_text(encoding="utf-8-sig").splitlines()
        except (OSError, UnicodeDecodeError):
            continue
        for n, line in enumerate(lines, start=1):
            m = re.search(rf"(?<![\w]){re.escape(word)}(?![\w])", line)
            if m and not line.lstrip().startswith("#"):
                return Span(path, n, m.start() + 1, n, m.end() + 1)
    return None


def _stop_label(program, stop_at: str) -> str:
    from rulewright.compiler.variants import lost_checkpoints      # (lazy: see the imports)
    name, _, count = stop_at.partition(":")
    known = checkpoint_names(program)
    if name not in known:
        gone = [(v, ch) for n, v, ch in lost_checkpoints(program) if n == name]
        if gone:
            v, ch = gone[0]
            raise UsageError(f"--stop-at: no checkpoint '{name}': variant '{v}' takes it away "
                             f"({ch.action} {ch.kind} '{ch.name}' at {ch.span.file}:{ch.span.line})")
        hint = did_you_mean(name, known) or ("checkpoints: " + ", ".join(known) if known
                                             else "this spec declares no checkpoint")
        raise UsageError(f"--stop-at: no checkpoint '{name}' in the spec ({hint})")
    if count and not ((whole_number(count) or 0) >= 1):
        raise UsageError(f"--stop-at takes NAME or NAME:N with N = 1, 2, ..., not '{stop_at}'")
    return f"{name}:{count or 1}"


def _start_of(args):
    """The program and the position of ``--from FILE`` (read under the settings it was
    saved with), as a place to resume from (``app.playing.start_from``)."""
    from rulewright.compiler.play import state_io          # (lazy: see the imports)
    program, position, doc = _load_state(argparse.Namespace(**{**vars(args), "state": args.from_state}))
    _, text = state_io.read_document(args.from_state)
    start = playing.start_from(program, position, doc, args.from_state, text, playing.COMMAND_LINE_WORDS,
                               mode=args.mode, players=args.players, stop_at=args.stop_at)
    return program, start.begin, start.mode, start.players


def _choices_made(made: list) -> str:
    """What the solver seats did so far, for the bar: "12 choice(s) made by the solver
    seats, 3 question(s) asked"."""
    chosen = sum(a.planned + sum(a.at_random.values()) for a in list(made))
    asked = sum(a.asked for a in list(made))
    return f"{chosen} choice(s) made by the solver seats, {asked} question(s) asked"


def cmd_play(args) -> int:
    from rulewright.compiler.play import resume, script, state_io  # (lazy: see the imports)
    begin = None
    if args.from_state:
        program, begin, mode, players = _start_of(args)
        seats = list(begin.position.seats)
    else:
        program = _load(args.spec, args)
        mode = _pick_mode(program, args)
        players = args.players if args.players is not None else mode.min_players
        seats = None
    seed = args.seed if args.seed is not None or begin is not None else 0
    stop_at = _stop_label(program, args.stop_at) if args.stop_at is not None else None
    if stop_at and not args.save_state:
        raise UsageError("--stop-at goes with --save-state FILE (where to write the state)")
    if args.save_state and args.log and _same_file(args.save_state, args.log):
        raise UsageError(f"--save-state and --log name the same file ({args.log}): the log would overwrite "
                         "the position; give each its own file")
    read = [f.path for f in program.files] + [v.path for v in program.variants] + list(program.table_files.values())
    read += [p for p in (args.from_state, args.choices) if p]
    for option, path in (("--save-state", args.save_state), ("--log", args.log)):
        hit = next((r for r in read if path and _same_file(path, r)), None)
        if hit is not None:
            raise UsageError(f"{option} {path}: this file is read by the command ({hit}); writing it would "
                             "overwrite it: give another file")
    interp = begin.position.interp if begin else Interpreter(program)
    seats = seats or interp.seats_for(mode, players)
    kinds = _seat_agents(seats, args)
    entries = script.read_choices(args.choices) if args.choices else []
    names = {s.name for s in seats if s.kind == "player"}
    for e in entries:
        if e.seat not in names:
            raise BadInputError(Diagnostic(Span(args.choices, e.line, 1, e.line, 2),
                                           f"'{e.seat}' is not a player's seat of this game",
                                           did_you_mean(e.seat, names) or "players: " + ", ".join(sorted(names))))
    human = None
    if getattr(args, "suggest", None) and "human" not in kinds.values():
        raise UsageError("--suggest goes with a human seat (--seat p1=human): it says whose suggestion '?' shows")
    if "human" in kinds.values():
        from rulewright.cli.human import Table     # (the terminal's seat: only when one plays)
        human = Table(program, args, kinds)
    started = time.perf_counter()

    def write_log(state):
        if args.log:
            _write(args.log, "".join(json.dumps({"kind": e.kind, "seat": e.seat,
                                                 **{k: render.jsonable(v, state=True) for k, v in e.detail.items()}},
                                                ensure_ascii=False) + "\n" for e in state.log))

    made: list = []         # the solver agents: the bar counts their choices

    def run(given: list, path: str):
        factory = script.scripted_factory(given, path, _agents(program, args, kinds, human, made))
        return playing.play_game(interp, mode.name, players, args.seed if begin is not None else seed, factory,
                                 stop_at=stop_at, begin=begin)
    state = None
    given, given_path = entries, args.choices
    # (a bar while solver seats play; never beside a human seat's questions)
    from rulewright.cli.tables import Bar, progress_wanted     # (the bar: loaded for play only)
    with Bar("play", progress_wanted(args) and "solver" in kinds.values() and human is None) as bar, \
            bar.watching(lambda: (_choices_made(made), None, None)):
        while True:
            try:
                state = run(given, given_path)
                break
            except RulesError as exc:
                game = getattr(exc, "game", None) or state
                if game is not None:        # the log up to the failure is what explains it
                    write_log(game)
                raise
            except Exception as exc:
                if human is None:
                    raise
                again = human.after(exc)    # an undo: the game again with the choices kept
                if again is None:
                    raise
                if again == "stop":         # saved and quit, or quit
                    return 0
                given, given_path = again, "<undo>"
    # (the agents the game went on with: a game played on from a position makes its own)
    left = [e for a in state.agents.values() if isinstance(a, script.ScriptedAgent) for e in a.entries]
    if left:
        first = min(e.line for e in left)
        print(f"warning: {args.choices}:{first}: {len(left)} choice(s) of the file were not used: the game "
              + (f"stopped at {state.stopped}" if state.stopped else "ended") + " before them", file=sys.stderr)
    seconds = time.perf_counter() - started
    if stop_at and state.stopped is None:
        name = stop_at.split(":")[0]
        raise BadInputError(f"the game ended before checkpoint {stop_at} "
                            f"('{name}' was reached {state.checkpoints.get(name, 0)} time(s))")
    doc = state_io.dump(state, seed=state.seed, beside=args.save_state)
    if args.save_state:
        resume.write_position(args.save_state, state)
    write_log(state)
    per_seat = [v for v in program.state.values() if v.per_seat]
    if args.json:
        out = {"spec": program.name, "mode": mode.name, "players": players, "seed": state.seed,
               **({"from": args.from_state} if begin else {}),
               "stopped_at": state.stopped,
               "seats": [{"name": s.name, "kind": s.kind, "title": s.title,
                          **{v.name: render.typed_json(program, v.type, state.per[v.name][s]) for v in per_seat}}
                         for s in state.seats],
               "notes": [{"name": e.detail["name"], "value": render.jsonable(e.detail["value"], state=True),
                          **({"section": True} if e.detail.get("heading") else {})}
                         for e in state.log if e.kind == "note"],
               "reports": {k: render.jsonable(v, state=True) for k, v in state.reports.items()},
               "state": doc,
               "choices": sum(1 for e in state.log if e.kind == "choose"),
               **({"solver_agents": agents} if (agents := playing.solver_agents(state)) else {}),
               "seconds": round(seconds, 3)}
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return 0
    print(f"{program.title}: {mode.title or mode.name}, {players} player(s), seed {state.seed}"
          + (f", from {args.from_state} ({begin.checkpoint or 'as saved'})" if begin else ""))
    print("\n".join(narrative(state)))
    boards = [v for v in per_seat if isinstance(v.type, BoardT)]
    for seat in state.seats if boards else ():
        print()
        print(f"{seat.title} ({seat.kind})")
        for var in boards:
            value = state.per[var.name][seat]
            if value.cards:
                print("\n".join(board_lines(value)))
    if state.stopped:
        print()
        print(f"stopped at {state.stopped}; state written to {args.save_state}")
    agents = playing.solver_agents(state)
    if agents:
        print()
        print(f"solver agents ({next(iter(agents.values()))['query'].replace('_', '-')}):")
        titles = {s.name: s.title for s in state.seats}
        for seat, a in agents.items():
            random = ", ".join(f"{n} {c}" for n, c in a["at_random"].items())
            print(f"  {titles[seat]}: " + playing.agent_words(a["asked"], a["answered"], a["from_answers"],
                                                        sum(a["at_random"].values()))
                  + (f" ({random})" if random else ""))
    for block in reports(state):
        print()
        print("\n".join(block))
    return 0


def cmd_simulate(args) -> int:
    """Many seeded games of one mode; with --against, the same seeds under another spec
    (the job: ``app.simulating``)."""
    from rulewright.app import simulating      # (loaded for simulate only)
    begin = None
    if args.from_state:
        if args.against:
            raise UsageError("--from and --against: compare two specs from the same position by saving it "
                             "under each (not yet both in one command)")
        program, begin, mode, players = _start_of(argparse.Namespace(**{**vars(args), "stop_at": None}))
    else:
        program = _load(args.spec, args)
        mode = _pick_mode(program, args)
        players = args.players if args.players is not None else mode.min_players
    seeds = list(range(args.seed, args.seed + args.games))
    other = simulating.open_against(_request(args), args.against) if args.against else None
    from rulewright.cli.tables import Bar, progress_wanted      # (the bar: loaded for simulate only)
    try:
        with Bar("simulate", progress_wanted(args)) as bar:
            sim = simulating.simulate_games(program, args.spec, mode, players, seeds, against=other,
                                            against_spec=args.against or "", start=begin,
                                            agents=lambda prog, seats: _agents(prog, args, _seat_agents(seats, args)),
                                            progress=_games_told(bar, args.spec), spelling=COMMAND_LINE)
    except RulesError as exc:
        seed = getattr(exc, "seed", None)
        if seed is None:
            raise
        ours = getattr(exc, "run", 0) == 0
        path = args.spec if ours else args.against
        refused = getattr(exc, "requirement", None)
        if isinstance(exc, RuntimeRulesError):
            exc = locate(exc)       # at the rule that failed, as play says it
        print(exc.render(), file=sys.stderr)
        if refused and _blame_settings(argparse.Namespace(**{**vars(args), "spec": path}), refused):
            return 2
        given = _given_settings(args)
        # the command that replays it: this game's spec, settings and agents
        again = " ".join([f"rulewright play {path} --players {players} --mode {mode.name} --seed {seed}",
                          *(f"--variant {v}" for v in (args.variant or []) if ours), given,
                          *(["--agent solver"] if args.agent == "solver" else []),
                          *([f"--agent-query {args.agent_query}"] if args.agent_query else []),
                          *([f"--agent-seats {args.agent_seats}"] if args.agent_seats else []),
                          *(f"--agent-input {i}" for i in (args.agent_input or []))])
        print(f"  (in the game of seed {seed}, under {path}: '{' '.join(again.split())}' replays it)",
              file=sys.stderr)
        return exc.exit_code
    if args.json:
        print(json.dumps(simulating.simulation_data(sim, args.agent, args.from_state), indent=2, ensure_ascii=False))
        return 0
    who = "random agents" if args.agent == "random" else \
        f"solver agents ({args.agent_seats or 'every player'})" + (", the other seats random" if args.agent_seats else "")
    print(f"{program.title}: {mode.title or mode.name}, {players} player(s), {args.games} game(s) "
          f"(seeds {seeds[0]}..{seeds[-1]}), {who}"
          + (f"\nfrom {args.from_state} ({begin.checkpoint or 'as saved'}): each game plays on from there"
             if begin else ""))
    if args.against:
        print(f"against {other.title} ({args.against}), the same seeds")
    print()
    from rulewright.cli import tables       # (rich draws the tables: loaded for simulate's text only)
    tables.write(*simulation_tables(sim))
    for run in sim.runs:
        for seat, t in run.solver_agents.items():
            print(f"solver agent {seat}{f' ({run.spec})' if args.against else ''}: "
                  + playing.agent_words(t["asked"], t["answered"], t["from_answers"], t["at_random"]))
    return 0


def _games_told(bar, spec: str):
    """The bar's ``progress(what, fraction)``: "game 3 of 20", or "against: game 3 of 20"
    for the games under the spec compared against (the spec's path left out: short)."""
    def told(what: str, fraction: float) -> None:
        side, _, game = what.rpartition(": ")
        bar.update(game if side in ("", spec) else f"against: {game}", fraction)
    return told


def simulation_tables(sim) -> list:
    """Each report of a simulation as a table: a row per seat (mean ± interval, share of
    games ± interval...); with a spec compared against, its column and the difference game
    by game; then what the ± and the * mean, and the games' time."""
    from rulewright.app import simulating       # (loaded for simulate only)
    from rulewright.cli.tables import table, wrapped      # (rich: loaded with the first table)
    mine, theirs = sim.mine.summary, sim.theirs.summary if sim.theirs else None
    seen: list = []
    parts: list = []
    for name, what, rows in simulating.report_rows(mine, theirs, sim.differences(), seen):
        title = f"{name.replace('_', ' ')}: {what}"
        if theirs is None:
            parts += [table(["", what], [[r[0], r[1]] for r in rows], title=title, right=(1,), header=False), ""]
        else:
            parts += [table(["", "this spec", "compared against", "difference"], [list(r) for r in rows],
                            title=title, right=(1, 2)), ""]
    if theirs is not None:
        parts.append(wrapped("±: half of a 95% confidence interval (a difference: over the games of the same "
                             "seed)."))
        parts.append(wrapped("* marks a difference whose interval leaves out 0: chance alone would rarely give it."
                             if seen else "No difference here is told apart from chance at 95%: more games "
                             "(--games) narrow the intervals."))
    parts.append(f"{mine.games} game(s) in {mine.seconds:.1f} s"
                 + (f"; {theirs.games} against in {theirs.seconds:.1f} s" if theirs else ""))
    return parts


def _seating(args) -> "playing.Seating":
    """The seating the command line gives: --agent, --agent-seats, --seat SEAT=AGENT,
    --agent-query, --agent-input NAME=VALUE, --agent-time-limit."""
    own: dict[str, str] = {}
    for item in getattr(args, "seat", None) or []:
        name, sep, kind = item.partition("=")
        if not sep or not name.strip():
            raise UsageError(f"--seat takes SEAT=AGENT, e.g. --seat p1=human, not {item!r}")
        own[name.strip()] = kind.strip()
    seats = tuple(args.agent_seats.split(",")) if args.agent_seats is not None else None
    seating = playing.Seating(args.agent, seats, own, args.agent_query,
                              time_limit=args.agent_time_limit)
    return playing.with_inputs(seating, args.agent_input or [], playing.COMMAND_LINE_WORDS)


def _seat_agents(seats, args) -> dict[str, str]:
    """The agent of each player's seat (``app.playing.seat_agents``): a human seat plays
    with 'play' only."""
    return playing.seat_agents(seats, _seating(args), playing.COMMAND_LINE_WORDS,
                               human_allowed=args.command == "play")


def _agents(program, args, kinds: dict[str, str], human=None, made: list | None = None):
    """The agent factory of 'play' and 'simulate' (``app.playing.agent_factory``)."""
    return playing.agent_factory(program, kinds, _seating(args), playing.COMMAND_LINE_WORDS, human, made)


def cmd_show(args) -> int:
    from rulewright.compiler.play import state_io                  # (lazy: see the imports)
    program, state, doc = _load_state(args)
    if getattr(args, "as_seat", None):
        from rulewright.app import seeing            # (lazy: see the imports)
        if args.json:
            print(json.dumps(seeing.view(state, args.as_seat, doc, args.state, label="--as"), indent=1,
                             ensure_ascii=False))
            return 0
        lines = seeing.view_lines(state, args.as_seat, doc, args.state, label="--as")
        for warning in state.warnings:
            print(f"warning: {warning}", file=sys.stderr)
        from rulewright.cli import tables        # (rich draws the text: loaded for the text only)
        tables.write(*lines)
        return 0
    if args.json:
        out = state_io.dump(state, seed=doc.get("seed"))
        if "resume" in doc:         # (kept as saved: what resumes the game exactly)
            out["resume"] = doc["resume"]
        print(json.dumps(out, indent=1, ensure_ascii=False))
        return 0
    from rulewright.cli import tables        # (rich draws the tables: loaded for the text only)
    tables.write(*position_parts(state, state_io.show(state)))
    return 0


def position_parts(state, lines: list[str]) -> list:
    """A position for people (``state_io.show``'s ``lines``), the values it lists per seat
    and per key as tables: a row per seat (each value that fits a cell: a number, a
    word, a pile's size), a row per key; a seat's grids, piles and record lists below."""
    from rulewright.cli.tables import table      # (rich: loaded with the first table)
    program = state.interp.program
    per_seat = [v for v in program.state.values() if v.per_seat]
    by_key: dict[str, list] = {}
    for v in program.state.values():
        if v.keyed and not v.per_seat:
            by_key.setdefault(v.per, []).append(v)
    heads = {seat.title for seat in state.seats} | {f"per {per}" for per in by_key} | {"reports"}
    # state_io.show's sections: the header and shared state, a seat's, a key's, the reports
    sections: list[list[str]] = [[]]
    for line in lines:
        if line in heads and (not sections[-1] or sections[-1][-1] == ""):
            sections.append([])
        sections[-1].append(line)
    parts: list = list(sections[0])
    big = [v for v in per_seat if any(_in_a_section(state.per[v.name][seat]) for seat in state.seats)]
    small = [v for v in per_seat if v not in big]
    columns = [v for v in per_seat if v in small or all(isinstance(state.per[v.name][s], rt.Zone)
                                                        for s in state.seats)]
    if state.seats and columns:
        rows = [[f"{seat.title} ({seat.name})", *(_cell_of(state.per[v.name][seat]) for v in columns)]
                for seat in state.seats]
        parts += [table(["seat", *(render.words(v.name) for v in columns)], rows, title="per seat"), ""]
    for seat in state.seats if big else ():
        parts.append(seat.title)
        for var in big:
            parts += render.block(var.name, state.per[var.name][seat], "  ")
        parts.append("")
    for per, vars_ in by_key.items():
        rows = [[key, *(render.text(state.per[v.name][key], render.LONG_PILE) for v in vars_)]
                for key in program.enums[per].values]
        parts += [table([per, *(render.words(v.name) for v in vars_)], rows, title=f"per {per}"), ""]
    for section in sections[1:]:
        if section[0] == "reports":
            parts += section
    while parts and parts[-1] == "":
        parts.pop()
    return parts


def _in_a_section(value) -> bool:
    """A seat's value shown below the table (a grid, a list of records, a pile: its cards)."""
    return isinstance(value, (rt.Board, rt.Zone)) or render.is_record_list(value)


def _cell_of(value) -> str:
    """A seat's value in a cell: a pile's size, else the value in words."""
    return str(len(value)) if isinstance(value, rt.Zone) else render.text(value, render.LONG_PILE)
