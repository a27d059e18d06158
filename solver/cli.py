"""The ``rulewright`` command line.

In:  command-line arguments.
Out: text or JSON on stdout; on a user error one clear message on stderr and
     exit code 1 (bad spec) or 2 (bad input or usage), never a traceback.

Commands: check, graph, dump, score, play, query (see ``rulewright --help``).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
import traceback
from dataclasses import replace
from pathlib import Path
from typing import Any

from rulewright import __version__
from rulewright.compiler import ast as A
from rulewright.compiler import graph as rules_graph
from rulewright.compiler import runtime as rt
from rulewright.compiler.diagnostics import BadInputError, Diagnostic, RulesError, Span, did_you_mean, whole_number
from rulewright.compiler.render import board_lines, jsonable, score_lines, text_value
from rulewright.compiler.types import BoardT
from rulewright.compiler.variants import lost_checkpoints


class UsageError(BadInputError):
    pass


class _Once(argparse.Action):
    """An option with one value: given twice (or under two names, --cards and
    --card-table), it is refused rather than the last one silently winning."""

    def __call__(self, parser, namespace, values, option_string=None):
        given = namespace.__dict__.setdefault("_given", {})
        # a whole number given to a decimal option is shown as written (--time-limit 1, not 1.0)
        shown = int(values) if isinstance(values, float) and values.is_integer() else values
        if self.dest in given:
            before, first = given[self.dest]
            what = f"{option_string} is given twice" if first == option_string else \
                f"{first} and {option_string} are one option, given twice"
            parser.error(f"{what} ({before}, then {option_string} {shown}): give it once")
        given[self.dest] = (f"{option_string} {shown}", option_string)
        setattr(namespace, self.dest, values)


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("allow_abbrev", False)   # a query input --card is not --card-table
        super().__init__(*args, **kwargs)

    def add_argument(self, *args, **kwargs):
        if args and str(args[0]).startswith("--") and kwargs.get("action") is None and \
                kwargs.get("nargs") in (None, "?"):
            kwargs["action"] = _Once
        return super().add_argument(*args, **kwargs)

    def error(self, message):  # one clear message, exit 2
        raise UsageError(f"{self.prog}: {message} (see {self.prog} --help)")


def _overrides(items: list[str] | None) -> dict[str, str]:
    out = {}
    for item in items or []:
        if "=" not in item:
            raise UsageError(f"--set takes NAME=VALUE, not '{item}'")
        k, v = item.split("=", 1)
        if not k.strip():
            raise UsageError(f"--set takes NAME=VALUE, not '{item}'")
        if k.strip() in out and out[k.strip()] != v.strip():
            raise UsageError(f"--set {k.strip()} is given twice, as {out[k.strip()]} and as {v.strip()}")
        out[k.strip()] = v.strip()
    return out


def _tables(args) -> dict[str, str]:
    out = {}
    for item in getattr(args, "table", None) or []:
        if "=" not in item:
            raise UsageError(f"--table takes NAME=FILE, not '{item}'")
        k, v = item.split("=", 1)
        if not k.strip() or not v.strip():
            raise UsageError(f"--table takes NAME=FILE, not '{item}'")
        if k.strip() in out and out[k.strip()] != v.strip():
            raise UsageError(f"--table {k.strip()} is given twice, as {out[k.strip()]} and as {v.strip()}")
        out[k.strip()] = v.strip()
    return out


def _load(path: str, args, sets: dict[str, str] | None = None):
    """A spec with the --set values and the player's own table files of the command.
    When the spec loads without the player's own tables but not with them, the error
    is the tables' (a bad input file, exit 2)."""
    from rulewright.compiler import load
    if getattr(args, "cards", None) is not None and not args.cards.strip():
        raise UsageError("--cards (--card-table) takes a FILE, not an empty name")
    options = {"cards": args.cards} if getattr(args, "cards", None) else {}
    sets = sets if sets is not None else _overrides(args.set)
    variants = getattr(args, "variant", None) or ()
    tables = _tables(args)
    try:
        return load(path, sets, tables, options, variants=variants)
    except RulesError as exc:
        if isinstance(exc, BadInputError) or not (tables or options or sets):
            raise
        try:
            load(path, variants=variants)
        except RulesError:
            raise exc from None
        # the spec loads without the command's own tables and --set values: they are at fault
        raise BadInputError(exc.diagnostics) from None


# ------------------------------------------------------------------ output helpers
def _seat_board_var(program) -> str:
    names = [v.name for v in program.state.values() if v.per_seat and isinstance(v.type, BoardT)]
    if len(names) != 1:
        raise BadInputError(f"{program.root}: the spec needs exactly one grid per seat to score grid files")
    return names[0]


# ------------------------------------------------------------------ commands
def _check_targets(path: str) -> list[str]:
    """What ``check PATH`` compiles: a file as it is; a directory's own spec (its
    .rules files that are not variants), every variant file below it, and the specs
    of its subdirectories when it has no spec of its own."""
    from rulewright.compiler.loader import _Specs
    p = Path(path)
    if not p.is_dir():
        return [path]
    specs = _Specs()
    out = []
    own = sorted(p.glob("*.rules"))
    variants = []
    for f in sorted(p.rglob("*.rules")):
        try:
            if specs.is_variant(f):
                variants.append(str(f))
        except RulesError:
            if f.parent != p:
                variants.append(str(f))          # reported when it is checked
    if any(str(f) not in variants for f in own):
        out.append(path)
    elif not own:
        for sub in sorted(d for d in p.iterdir() if d.is_dir()):
            if any(sub.glob("*.rules")):
                base = [f for f in sub.glob("*.rules") if str(f) not in variants]
                if base:
                    out.append(str(sub))
    out += [v for v in variants if v not in out]
    return sorted(set(out)) or [path]


def cmd_check(args) -> int:
    from rulewright.compiler.loader import unread_settings
    code = 0
    base_unread: dict[str, set] = {}     # base spec -> its switches and params no rule reads
    warned: set = set()                  # (span, checkpoint) of the lost checkpoints already said
    paths = [t for path in args.paths for t in _check_targets(path)]
    shown: dict[str, str] = {}           # an error's text -> the first path that gave it
    for path in paths:
        try:
            program = _load(path, args)
        except RulesError as exc:
            if isinstance(exc, UsageError):
                raise                    # the command line's mistake, whatever the spec
            text = exc.render()
            key = "\n".join(f"{d.span}: {d.message}" for d in exc.diagnostics)   # (hints list a spec's own names)
            if key in shown:             # a variant failing where its base does: said once
                print(f"error: {path}: the same error as {shown[key]}, above", file=sys.stderr)
            else:
                shown[key] = path
                print(text, file=sys.stderr)
            code = max(code, exc.exit_code)
            continue
        ids = {t for d in program.definitions.values() for t in A.tagged_ids(d)}
        print(f"ok: {path}: {program.title}: {len(program.definitions)} definitions, "
              f"{len(ids)} rule IDs")
        known = set()
        if program.variants:             # only what the variants leave unread
            base = program.variants[0].extends
            if base not in base_unread:
                try:
                    base_unread[base] = set(unread_settings(_load(base, args)))
                except RulesError:       # a --set of a name only the variant has
                    base_unread[base] = set(unread_settings(_load(base, args, {})))
            known = base_unread[base]
        for name, v, ch in lost_checkpoints(program):
            if (ch.span, name) in warned:      # a variant of a variant checked after it
                continue
            warned.add((ch.span, name))
            print(f"{ch.span}: warning: variant '{v}' takes away the checkpoint '{name}' ({ch.action} {ch.kind} "
                  f"'{ch.name}'): positions saved there and --stop-at {name} no longer find it", file=sys.stderr)
        for name in unread_settings(program):
            if name in known:
                continue
            d = program.definitions[name]
            kind = "switch" if name in program.switches else "param"
            print(f"{d.name_span}: warning: {kind} '{name}' is read by no rule of {program.title}: "
                  "setting it changes nothing", file=sys.stderr)
    return code


def cmd_diff(args) -> int:
    from rulewright.compiler import diffing
    base = _load(args.base, args)
    variant = _load(args.variant_spec, args)
    if base.name != variant.name:
        raise UsageError(f"{args.variant_spec} is a spec of another game ({variant.title}) than {args.base} "
                         f"({base.title}): diff compares versions of one game (a variant or house rule "
                         "with its base, or two variants)")
    d = diffing.diff(base, variant)
    if args.json:
        print(json.dumps(diffing.to_json(d), indent=2, ensure_ascii=False))
    else:
        print("\n".join(diffing.to_text(d)))
    return 0


def cmd_graph(args) -> int:
    program = _load(args.path, args)
    g = rules_graph.build(program)
    print(rules_graph.to_dot(g) if args.format == "dot" else rules_graph.to_json(g))
    return 0


def cmd_dump(args) -> int:
    if args.stage == "ast":
        from rulewright.compiler.ast import dump
        from rulewright.compiler.loader import parse_files, spec_files
        for f in parse_files(spec_files(args.path)):
            print(dump(f))
        return 0
    program = _load(args.path, args)
    from rulewright.compiler.interpret import Interpreter
    print(Interpreter(program).python_source())
    return 0


def variant_pages(path: str, args=None, loaded: dict | None = None) -> list[tuple[str, str]]:
    """(file name, Markdown) of the variants page of a spec directory (its variants
    below it) or of a directory of variants (one page for all). ``loaded``: programs
    already loaded, by path (each spec is loaded once)."""
    from rulewright.compiler import load
    from rulewright.compiler.docgen import variants_page
    sets = _overrides(args.set) if args is not None else {}
    loaded = {} if loaded is None else loaded

    def get(p: str):
        if p not in loaded:
            loaded[p] = load(p, sets)
        return loaded[p]

    targets = _check_targets(path)
    files = [t for t in targets if t.endswith(".rules") and t != path]
    if not files:
        return []
    entries = [(get(f), get(get(f).variants[-1].extends)) for f in files]
    base = [t for t in targets if not t.endswith(".rules")]
    if base:
        program = get(base[0])
        name = f"{program.name}_variants.md"
        title = f"{program.title}: variants"
        intro = (f"The versions of the game as variant files under `{path}`, generated by `rulewright docs`: "
                 "each with what it changes in the spec it extends, its rule IDs and what the change can affect.")
    else:
        name = f"{Path(path).name}.md"
        title = Path(path).name.replace("_", " ").capitalize()
        intro = (f"The variant files of `{path}`, generated by `rulewright docs`: each with what it changes in "
                 "the spec it extends, its rule IDs and what the change can affect.")
    return [(name, variants_page(title, intro, entries))]


def cmd_docs(args) -> int:
    from rulewright.compiler.docgen import operators_page, rules_page
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {args.out}: a file, not a folder (the pages are written in a folder)")
    loaded: dict = {}
    pages: list[tuple[str, str]] = []       # (file name, text): written once every spec has loaded
    for path in args.specs:
        # the spec itself (a directory's own, or a one-file spec), then its variants' page
        specs = [t for t in _check_targets(path) if not t.endswith(".rules") or t == path]
        for t in specs:
            program = loaded[t] = _load(t, args)
            if program.variants:
                # a variant named alone: a page of what it changes in the spec it extends
                # (named with its directory, it is on that directory's variants page)
                from rulewright.compiler.docgen import variants_page
                base = program.variants[-1].extends
                if base not in loaded:
                    loaded[base] = _load(base, args)
                intro = (f"The variant file `{t}`, generated by `rulewright docs`: what it changes in the spec "
                         "it extends, its rule IDs and what the change can affect.")
                pages.append((f"{Path(t).stem}.md", variants_page(program.title, intro, [(program, loaded[base])])))
                continue
            pages.append((f"{program.name}.md", rules_page(program)))
        pages.extend(variant_pages(path, args, loaded))
    out.mkdir(parents=True, exist_ok=True)
    for name, text in pages:
        (out / name).write_text(text, encoding="utf-8")
        print(f"wrote {out / name}")
    (out / "operators.md").write_text(operators_page(), encoding="utf-8")
    print(f"wrote {out / 'operators.md'}")
    return 0


def cmd_score(args) -> int:
    from rulewright.compiler.inputs import read_grid
    from rulewright.compiler.interpret import Interpreter
    program = _load(args.spec, args)
    if program.outcome is None:
        raise BadInputError(f"{args.spec}: the spec has no 'outcome' to score with")
    var = _seat_board_var(program)
    grid = program.state[var].type.grid
    boards = [read_grid(path, program, grid, allow_free=False) for path in args.grids]
    interp = Interpreter(program)
    seats = [rt.Seat(i, f"p{i + 1}", "player", path) for i, path in enumerate(args.grids)]
    state = interp.new_state(seats)
    for seat, board in zip(seats, boards):
        state.per[var][seat] = board
    _grid_warnings(interp, state, args.grids)
    results = [interp.call(program.outcome, seat, state=state) for seat in seats]
    if args.json:
        players = []
        for path, res in zip(args.grids, results):
            entry: dict[str, Any] = {"grid": path}
            if isinstance(res, rt.Score):
                entry["scores"] = dict(res.steps)
                for k, v in res.choices.items():
                    entry[k] = jsonable(v)
            entry["total"] = int(res)
            players.append(entry)
        print(json.dumps({"players": players}, indent=2, ensure_ascii=False))
        return 0
    for path, board, res in zip(args.grids, boards, results):
        print(path)
        prey = set()
        if isinstance(res, rt.Score):
            for v in res.choices.values():
                if isinstance(v, tuple):
                    prey |= {x for x in v if isinstance(x, tuple)}
        print("\n".join(board_lines(board, prey)))
        if isinstance(res, rt.Score):
            print("\n".join(score_lines(res)))
        else:
            print(f"  total {int(res)}")
        print()
    return 0


def _grid_warnings(interp, state, paths: list[str]) -> None:
    """The invariants written with "else warn" that grids scored together break (the
    others describe a game's whole position, which grids alone are not), on standard
    error: each at the first place a grid file writes the element that breaks it."""
    from rulewright.compiler.checks import broken_invariants, invariant_note
    for b in broken_invariants(interp, state, only=lambda inv: getattr(inv.node, "warn", False)):
        if b.unevaluable:
            continue
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


def _pick_mode(program, args):
    if not program.modes:
        raise BadInputError(f"{args.spec}: the spec has no 'mode' to play")
    if args.mode:
        if args.mode not in program.modes:
            hint = did_you_mean(args.mode, program.modes) or "modes: " + ", ".join(program.modes)
            raise UsageError(f"no mode '{args.mode}' in {args.spec} ({hint})")
        mode = program.modes[args.mode]
        if args.players is not None and not mode.min_players <= args.players <= mode.max_players:
            raise UsageError(f"mode '{mode.name}' is for {_players_text(mode)}, not {args.players}")
        return mode
    # the modes a variant adds or changes come first, the last variant's first
    own = [ch.name for v in reversed(program.variants) for ch in v.changes
           if ch.kind == "mode" and ch.action != "remove" and ch.name in program.modes]
    modes = [program.modes[n] for n in dict.fromkeys(own)] + \
        [m for n, m in program.modes.items() if n not in own]
    if args.players is None:
        if own:
            return modes[0]
        raise UsageError("this needs --players N (or --mode)")
    fitting = [m for m in modes if m.min_players <= args.players <= m.max_players]
    if not fitting:
        ranges = ", ".join(f"{m.name}: {_players_text(m)}" for m in program.modes.values())
        many = f"{args.players} player{'s' if args.players != 1 else ''}"
        raise UsageError(f"no mode of {args.spec} is for {many} ({ranges})"
                         + _variant_for(args.spec, args.players))
    return fitting[0]


def _players_text(mode) -> str:
    n, m = mode.min_players, mode.max_players
    return f"{n} player{'s' if n != 1 else ''}" if n == m else f"{n}..{m} players"


def _variant_for(spec: str, players: int) -> str:
    """A hint naming the variants in the spec's own variants/ folder with a mode for
    that many players (the Two-player Version of a game for three or more)."""
    from rulewright.compiler import load
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


def _stop_label(program, stop_at: str) -> str:
    name, _, count = stop_at.partition(":")
    from rulewright.compiler.ir import checkpoint_names
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


def _narrative(state) -> list[str]:
    from rulewright.compiler import render
    lines: list[str] = []
    for ev in state.log:
        if ev.kind != "note":
            continue
        name, value = ev.detail["name"], ev.detail["value"]
        if ev.detail.get("heading"):
            sep = " " if isinstance(value, int) else ": "
            lines += ["", f"== {render.words(name).capitalize()}{sep}{render.text(value)} =="]
        else:
            lines += render.block(name, value)
    return lines


def cmd_play(args) -> int:
    from rulewright.compiler import render, state_io
    from rulewright.compiler.checks import invariant_watcher
    from rulewright.compiler.interpret import Interpreter
    program = _load(args.spec, args)
    mode = _pick_mode(program, args)
    players = args.players if args.players is not None else mode.min_players
    stop_at = _stop_label(program, args.stop_at) if args.stop_at is not None else None
    if stop_at and not args.save_state:
        raise UsageError("--stop-at goes with --save-state FILE (where to write the state)")
    if args.save_state and args.log and _same_file(args.save_state, args.log):
        raise UsageError(f"--save-state and --log name the same file ({args.log}): the log would overwrite "
                         "the position; give each its own file")
    read = [f.path for f in program.files] + [v.path for v in program.variants] + list(program.table_files.values())
    for option, path in (("--save-state", args.save_state), ("--log", args.log)):
        hit = next((r for r in read if path and _same_file(path, r)), None)
        if hit is not None:
            raise UsageError(f"{option} {path}: this file is read by the command ({hit}); writing it would "
                             "overwrite it: give another file")
    interp = Interpreter(program)
    if args.agent_seats:
        _check_agent_seats(interp, mode, players, args.agent_seats)
    factory = _agents(program, args)
    started = time.perf_counter()
    watch = invariant_watcher(interp)

    def write_log(state):
        if args.log:
            _write(args.log, "".join(json.dumps({"kind": e.kind, "seat": e.seat,
                                                 **{k: state_io.plain(v) for k, v in e.detail.items()}},
                                                ensure_ascii=False) + "\n" for e in state.log))
    state = None
    try:
        state = interp.play(mode.name, players, args.seed, stop_at=stop_at, agent_factory=factory,
                            watchers=[watch])
        if state.stopped is None:
            watch(state, "end")
    except RulesError as exc:
        game = getattr(exc, "game", None) or state
        if game is not None:        # the log up to the failure is what explains it
            write_log(game)
        raise
    seconds = time.perf_counter() - started
    if stop_at and state.stopped is None:
        name = stop_at.split(":")[0]
        raise BadInputError(f"the game ended before checkpoint {stop_at} "
                            f"('{name}' was reached {state.checkpoints.get(name, 0)} time(s))")
    doc = state_io.dump(state, seed=args.seed, beside=args.save_state)
    if args.save_state:
        _write(args.save_state, json.dumps(doc, indent=1, ensure_ascii=False) + "\n")
    write_log(state)
    per_seat = [v for v in program.state.values() if v.per_seat]
    if args.json:
        out = {"spec": program.name, "mode": mode.name, "players": players, "seed": args.seed,
               "stopped_at": state.stopped,
               "seats": [{"name": s.name, "kind": s.kind, "title": s.title,
                          **{v.name: state_io.encode(program, v.type, state.per[v.name][s]) for v in per_seat}}
                         for s in state.seats],
               "notes": [{"name": e.detail["name"], "value": state_io.plain(e.detail["value"]),
                          **({"section": True} if e.detail.get("heading") else {})}
                         for e in state.log if e.kind == "note"],
               "reports": {k: state_io.plain(v) for k, v in state.reports.items()},
               "state": doc,
               "choices": sum(1 for e in state.log if e.kind == "choose"),
               **({"solver_agents": agents} if (agents := _solver_agents(state)) else {}),
               "seconds": round(seconds, 3)}
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return 0
    print(f"{program.title}: {mode.title or mode.name}, {players} player(s), seed {args.seed}")
    print("\n".join(_narrative(state)))
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
    agents = _solver_agents(state)
    if agents:
        print()
        print(f"solver agents ({next(iter(agents.values()))['query'].replace('_', '-')}):")
        titles = {s.name: s.title for s in state.seats}
        for seat, a in agents.items():
            random = ", ".join(f"{n} {c}" for n, c in a["at_random"].items())
            print(f"  {titles[seat]}: " + _agent_words(a["asked"], a["answered"], a["from_answers"],
                                                        sum(a["at_random"].values()))
                  + (f" ({random})" if random else ""))
    for name, value in state.reports.items():
        print()
        if isinstance(value, dict):
            print(f"{render.words(name)}:")
            for key, v in value.items():
                label = key.title if isinstance(key, rt.Seat) else str(key)
                if isinstance(v, rt.Score):
                    print(f"  {label}")
                    print("\n".join(score_lines(v, "    ")))
                else:
                    print(f"  {label}: {text_value(v)}")
        else:
            print(f"{render.words(name)}: {text_value(value)}")
    return 0


def cmd_simulate(args) -> int:
    """Many seeded games of one mode; with --against, the same seeds under another spec."""
    from rulewright.compiler.interpret import Interpreter
    from rulewright.compiler.simulate import simulate
    program = _load(args.spec, args)
    mode = _pick_mode(program, args)
    players = args.players if args.players is not None else mode.min_players
    seeds = list(range(args.seed, args.seed + args.games))
    runs = [(program, args.spec)]
    if args.against:
        # the spec to compare with, without this command's --variant files
        other = _load(args.against, argparse.Namespace(**{**vars(args), "variant": None}))
        if other.name != program.name:
            raise UsageError(f"--against {args.against}: a spec of another game ({other.title}), "
                             f"not of {program.title}")
        if mode.name not in other.modes:
            hint = "its modes: " + ", ".join(other.modes) if other.modes else "it has no mode"
            raise UsageError(f"--against {args.against}: no mode '{mode.name}' to compare ({hint})")
        theirs = other.modes[mode.name]
        if not theirs.min_players <= players <= theirs.max_players:
            raise UsageError(f"--against {args.against}: mode '{mode.name}' there is for "
                             f"{_players_text(theirs)}, not {players}")
        runs.append((other, args.against))
    summaries, agents = [], []
    for prog, path in runs:
        interp = Interpreter(prog)
        if args.agent_seats:
            _check_agent_seats(interp, mode, players, args.agent_seats)
        done: dict = {}         # solver seat -> what its agents did, summed over the games

        def tally(_, state, done=done):
            for seat, a in _solver_agents(state).items():
                t = done.setdefault(seat, {"asked": 0, "answered": 0, "from_answers": 0, "at_random": 0})
                for k in ("asked", "answered", "from_answers"):
                    t[k] += a[k]
                t["at_random"] += sum(a["at_random"].values())
        try:
            summaries.append(simulate(interp, mode.name, players, seeds, agent_factory=_agents(prog, args),
                                      on_game=tally))
        except RulesError as exc:
            seed = getattr(exc, "seed", None)
            if seed is not None:
                from rulewright.compiler.diagnostics import RuntimeRulesError
                from rulewright.compiler.interpret import locate
                refused = getattr(exc, "requirement", None)
                if isinstance(exc, RuntimeRulesError):
                    exc = locate(exc)       # at the rule that failed, as play says it
                print(exc.render(), file=sys.stderr)
                if refused and _blame_settings(argparse.Namespace(**{**vars(args), "spec": path}), refused):
                    return 2
                given = _given_settings(args)
                # the command that replays it: this game's spec, settings and agents
                again = " ".join([f"rulewright play {path} --players {players} --mode {mode.name} --seed {seed}",
                                  *(f"--variant {v}" for v in (args.variant or []) if prog is program), given,
                                  *(["--agent solver"] if args.agent == "solver" else []),
                                  *([f"--agent-query {args.agent_query}"] if args.agent_query else []),
                                  *([f"--agent-seats {args.agent_seats}"] if args.agent_seats else []),
                                  *(f"--agent-input {i}" for i in (args.agent_input or []))])
                print(f"  (in the game of seed {seed}, under {path}: '{' '.join(again.split())}' replays it)",
                      file=sys.stderr)
                return exc.exit_code
            raise
        agents.append(done)
    if args.json:
        out = {"spec": program.name, "title": program.title, "mode": mode.name, "players": players,
               "games": args.games, "seeds": [seeds[0], seeds[-1]], "agent": args.agent,
               "reports": _summary_json(summaries[0]), "seconds": round(summaries[0].seconds, 3),
               **({"solver_agents": agents[0]} if agents[0] else {})}
        if args.against:
            from rulewright.compiler.simulate import compare
            out["against"] = {"spec": runs[1][1], "title": runs[1][0].title,
                              "reports": _summary_json(summaries[1]), "seconds": round(summaries[1].seconds, 3),
                              "differences": _differences_json(compare(summaries[0], summaries[1])),
                              **({"solver_agents": agents[1]} if agents[1] else {})}
        print(json.dumps(out, indent=2, ensure_ascii=False))
        return 0
    who = "random agents" if args.agent == "random" else \
        f"solver agents ({args.agent_seats or 'every player'})" + (", the other seats random" if args.agent_seats else "")
    print(f"{program.title}: {mode.title or mode.name}, {players} player(s), {args.games} game(s) "
          f"(seeds {seeds[0]}..{seeds[-1]}), {who}")
    if args.against:
        print(f"against {runs[1][0].title} ({runs[1][1]}), the same seeds")
    print()
    print("\n".join(_summary_lines(summaries[0], summaries[1] if args.against else None)))
    for done, (prog, path) in zip(agents, runs):
        for seat, t in done.items():
            print(f"solver agent {seat}{f' ({path})' if args.against else ''}: "
                  + _agent_words(t["asked"], t["answered"], t["from_answers"], t["at_random"]))
    return 0


def _agent_words(asked: int, answered: int, from_answers: int, at_random: int) -> str:
    """What a solver seat did, as play and simulate say it."""
    return (f"asked {asked} time(s), {answered} answered; {from_answers} choice(s) from the answers, "
            f"{at_random} at random")


def _check_agent_seats(interp, mode, players: int, given: str) -> None:
    seats = {s.name: s for s in interp.seats_for(mode, players)}
    for name in given.split(","):
        if name not in seats or seats[name].kind != "player":
            players_here = [n for n, s in seats.items() if s.kind == "player"]
            hint = did_you_mean(name, players_here) or "players: " + ", ".join(players_here)
            raise UsageError(f"--agent-seats: '{name}' is not a player's seat of this game ({hint})")


def _json_key(k) -> str:
    return k.name if isinstance(k, rt.Seat) else str(k)


def _summary_json(summary) -> dict:
    def keyed(v):
        return {_json_key(k): x for k, x in v.items()} if isinstance(v, dict) else v
    return {name: {k: keyed(v) if k in ("values", "ci95") and agg["kind"] != "number" else v
                   for k, v in agg.items()}
            for name, agg in summary.reports.items()}


def _differences_json(diffs: dict) -> dict:
    """compare()'s differences as data: a number's directly, else by seat (and
    "several")."""
    return {name: by[None] if list(by) == [None] else {_json_key(k): d for k, d in by.items()}
            for name, by in diffs.items()}


def _summary_lines(mine, theirs=None) -> list[str]:
    """Each report's aggregate as a table; with ``theirs``, its column and the
    difference (paired by seed, with its interval)."""
    from rulewright.compiler.simulate import compare
    diffs = compare(mine, theirs) if theirs is not None else {}
    clear_seen = False

    def title(k):
        return k.title if isinstance(k, rt.Seat) else str(k)

    def plus_minus(ci, scale=1.0, fmt="g") -> str:
        return f" ±{(ci[1] - ci[0]) / 2 * scale:{fmt}}" if ci else ""

    def cell(agg, k) -> str:
        v = agg["values"].get(k)
        if v is None:
            return "0" if agg["kind"] == "counts" else "-"
        if agg["kind"] in ("per seat", "number"):
            return f"{v['mean']:g}{plus_minus(v.get('ci95'), fmt='.1f')} ({v['least']}..{v['most']})"
        if agg["kind"] == "seats":
            ci = (agg.get("several_ci95") if k == "several" else agg.get("ci95", {}).get(k))
            return f"{v:.0%}" + (f" ({ci[0]:.0%}..{ci[1]:.0%})" if ci else "")
        if agg["kind"] == "per seat counts":
            return ", ".join(f"{x} {n}" for x, n in v.items())
        return str(v)

    def delta(name, agg, other, k) -> str:
        nonlocal clear_seen
        a, b = agg["values"].get(k), other["values"].get(k) if other else None
        if agg["kind"] == "counts" and other and other["kind"] == "counts":
            a, b = a or 0, b or 0          # a value one side never ended with: 0 games
        if a is None or b is None or agg["kind"] != other["kind"] or agg["kind"] == "per seat counts":
            return ""
        if agg["kind"] == "counts":
            return f"{a - b:+d}"
        d = diffs.get(name, {}).get(None if agg["kind"] == "number" else k)
        if d is None:
            return ""
        clear_seen |= d["clear"]
        mark = " *" if d["clear"] else ""
        if agg["kind"] == "seats":
            return f"{d['mean'] * 100:+.0f}{plus_minus(d['ci95'], 100, '.0f')} pts{mark}"
        return f"{round(d['mean'], 2):+g}{plus_minus(d['ci95'], fmt='.1f')}{mark}"

    out = []
    for name, agg in mine.reports.items():
        other = theirs.reports.get(name) if theirs else None
        what = {"per seat": "mean ±95% (least..most)", "number": "mean ±95% (least..most)",
                "seats": "share of games (95%)", "counts": "games", "per seat counts": "games"}[agg["kind"]]
        out.append(f"{name.replace('_', ' ')}: {what}")
        keys = list(agg["values"])
        if agg["kind"] == "number":         # one row: the report over all games
            keys = [None]
            agg = {**agg, "values": {None: agg["values"]}}
            other = {**other, "values": {None: other["values"]}} if other and other["kind"] == "number" else None
        elif other and other["kind"] == agg["kind"]:
            keys += [k for k in other["values"] if k not in agg["values"]]
        if not (other and other["kind"] == agg["kind"]):
            other = None
        rows = [("all games" if k is None else title(k), cell(agg, k), cell(other, k) if other else "",
                 delta(name, agg, other, k) if other else "") for k in keys]
        if agg["kind"] == "seats":
            several = {**agg, "values": {"several": agg["several"]}}
            other_several = {**other, "values": {"several": other["several"]}} if other else None
            rows.append(("several", cell(several, "several"), cell(other_several, "several") if other else "",
                         delta(name, several, other_several, "several") if other else ""))
        widths = [max(len(r[i]) for r in rows) for i in range(4)]
        for r in rows:
            line = f"  {r[0].ljust(widths[0])}  {r[1].rjust(widths[1])}"
            if theirs is not None:
                line += f"   {r[2].rjust(widths[2])}   {r[3].ljust(widths[3])}"
            out.append(line.rstrip())
        out.append("")
    if theirs is not None:
        out.insert(0, "(each line: this spec, the one compared against, the difference game by game)")
        out.insert(1, "")
        out.append("±: half of a 95% confidence interval (a difference: over the games of the same seed). "
                   + ("* marks a difference whose interval leaves out 0: chance alone would rarely give it."
                      if clear_seen else "No difference here is told apart from chance at 95%: more games "
                      "(--games) narrow the intervals."))
    out.append(f"{mine.games} game(s) in {mine.seconds:.1f} s"
               + (f"; {theirs.games} against in {theirs.seconds:.1f} s" if theirs else ""))
    return out


def _solver_agents(state) -> dict:
    """Seat name -> what its solver agent did (none for random agents)."""
    from rulewright.solver.agent import SolverAgent, summary
    return {seat.name: summary(agent) for seat in state.seats
            if isinstance(agent := state.agents.get(seat.index), SolverAgent)}


def _agents(program, args):
    """The agent factory of 'play': random agents, or agents that play a query's answers."""
    if args.agent_seats is not None and not args.agent_seats.strip():
        raise UsageError("--agent-seats takes the seats the solver plays, e.g. p1,p3 (left out: every player), "
                         "not an empty list")
    if args.agent == "random":
        if args.agent_query or args.agent_seats or args.agent_input:
            raise UsageError("--agent-query, --agent-seats and --agent-input go with --agent solver")
        return None
    from rulewright.compiler.interpret import RandomAgent
    from rulewright.solver.agent import SolverAgent, playing_queries
    names = playing_queries(program)
    query = (args.agent_query or "").replace("-", "_") or (names[0] if len(names) == 1 else None)
    if query is None or query not in names:
        shown = ", ".join(n.replace("_", "-") for n in names) or "none"
        what = ("choose one with --agent-query NAME" if query is None else
                f"{query!r} has none" if query in program.queries else f"there is no query {query!r}")
        raise UsageError(f"--agent solver plays the answers of a query with 'play' statements; {what}"
                         f" (here: {shown})")
    seats = set(args.agent_seats.split(",")) if args.agent_seats else None
    inputs = _agent_inputs(program, query, args.agent_input or [])

    def factory(seat, seed):
        mine = seed * 1_000_003 + seat.index
        if seats is None or seat.name in seats:
            return SolverAgent(program, query, mine, time_limit=args.agent_time_limit, inputs=inputs)
        return RandomAgent(mine)
    return factory


def _agent_inputs(program, query: str, given: list[str]) -> dict:
    """--agent-input NAME=VALUE, each an input of the query the agent plays (its seat
    is the agent's own)."""
    from rulewright.compiler.inputs import parse_value
    from rulewright.compiler.types import SeatT
    declared = {n: t for n, t, _ in program.queries[query].inputs if not isinstance(t, SeatT)}
    shown = query.replace("_", "-")
    out: dict = {}
    for item in given:
        name, sep, raw = item.partition("=")
        name = name.strip().lstrip("-").replace("-", "_")
        if not sep or not name:
            raise UsageError(f"--agent-input takes NAME=VALUE, not {item!r}")
        if name not in declared:
            hint = did_you_mean(name, declared) or ("its inputs: " + ", ".join(declared) if declared
                                                    else "it has no input but the seat")
            raise UsageError(f"--agent-input: {shown} has no input {name!r} ({hint})")
        try:
            out[name] = parse_value(raw.strip(), declared[name], program, name)
        except BadInputError as exc:
            raise UsageError(f"--agent-input {name}: {exc.diagnostics[0].message}") from None
    return out


def _write(path: str, text: str) -> None:
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise BadInputError(f"{path}: cannot write: {exc.strerror or exc}") from None


def cmd_show(args) -> int:
    program, state, doc = _load_state(args)
    from rulewright.compiler import state_io
    if args.json:
        print(json.dumps(state_io.dump(state, seed=doc.get("seed")), indent=1, ensure_ascii=False))
        return 0
    print("\n".join(state_io.show(state)))
    return 0


def _load_state(args, program=None):
    """The spec and a saved game state, with the switches, params and tables the game
    was played with unless the command line says otherwise. When the spec cannot be
    loaded with those, the error is the state file's, at the entry that names them."""
    from rulewright.compiler import state_io
    from rulewright.compiler.interpret import Interpreter
    doc, text = state_io.read_document(args.state)
    given = _overrides(args.set)
    program = program or _load(args.spec, args, given)
    state_io.of_this_game(program, args.state, doc, text)
    # the variants the game was played under, when the command names the base spec only
    saved_variants = doc.get("variants", [])
    if not isinstance(saved_variants, list) or any(not isinstance(v, str) for v in saved_variants):
        message = "variants is a list of variant files (leave it out for none)"
        span = state_io.locate(args.state, text, ("variants",))
        raise BadInputError(Diagnostic(span, message) if span else f"{args.state}: {message}")
    saved_variants = [_beside(args.state, v) if isinstance(v, str) else v for v in saved_variants]
    _within_allowed(args, text, [(("variants", i), raw, v) for i, (raw, v) in
                                 enumerate(zip(doc.get("variants", []), saved_variants))])
    if saved_variants and not program.variants:
        missing = [i for i, v in enumerate(saved_variants) if not _exists(v)]
        if missing:
            message = (f"the game was played under the variant {json.dumps(doc['variants'][missing[0]])[:200]}, "
                       "which is not there any more")
            hint = "name the variant to use with --variant"
            span = state_io.locate(args.state, text, ("variants", missing[0]))
            raise BadInputError(Diagnostic(span, message, hint) if span else f"{args.state}: {message} ({hint})")
        args.variant = list(saved_variants)

        def a_variant_fails_alone() -> bool:
            """A saved variant that does not compile even alone, at a line of its own
            file: a spec error (exit 1), not the position's."""
            for v in saved_variants:
                try:
                    from rulewright.compiler import load
                    load(args.spec, given, variants=[v])
                except RulesError as exc:
                    if any(d.span.line > 0 and _same_file(d.span.file, v) for d in exc.diagnostics):
                        return True
            return False
        entries = [(("variants", i), Path(v).stem, v) for i, v in enumerate(saved_variants)]
        with _FromPosition(args.state, text, "variants", entries, "--variant", a_variant_fails_alone):
            program = _load(args.spec, args, given)
    other_rules = None          # the rules the game was played under, when not those it is read under
    if not saved_variants and program.variants:
        other_rules = "the base rules"
        print(f"warning: {args.state}: the game was played under the base rules, and this command applies "
              f"{_shown(v.path for v in program.variants)}: the position is read under those rules",
              file=sys.stderr)
    elif saved_variants and program.variants:
        here = [str(Path(v.path).resolve()) for v in program.variants]
        then = [str(Path(v).resolve()) for v in saved_variants]
        if sorted(here) != sorted(then):
            other_rules = _shown(saved_variants)
            print(f"warning: {args.state}: the game was played under {other_rules}, and this "
                  f"command applies {_shown(v.path for v in program.variants)} instead: the position is "
                  "read under those rules (name the base spec to read it under the rules it was played with)",
                  file=sys.stderr)
    # the switches, params and tables the game was played with, unless the command says otherwise
    saved = {k: v for k, v in state_io.saved_settings(program, args.state, doc, text).items()
             if k not in given}
    changed = {k: v for k, v in saved.items()
               if v != (json.dumps(program.constants[k]) if isinstance(program.constants[k], bool)
                        else str(program.constants[k]))}
    tables = doc.get("tables") or {}
    if tables and not args.cards and not args.table:
        # a path written relative (by hand) is relative to the state file, as 'extends' is to its file
        if not isinstance(tables, dict) or any(not isinstance(v, str) for v in tables.values()):
            message = "tables maps a table's name to its file (leave it out for the game's own tables)"
            span = state_io.locate(args.state, text, ("tables",))
            raise BadInputError(Diagnostic(span, message) if span else f"{args.state}: {message}")
        _within_allowed(args, text, [(("tables", k), v, _beside(args.state, v)) for k, v in tables.items()])
        args.table = [f"{k}={_beside(args.state, v)}" for k, v in tables.items()]
    else:
        tables = {}
    if changed or tables:
        entries = [(("switches" if k in program.switches else "params", k), k, None) for k in changed] + \
            [(("tables", k), k, v) for k, v in tables.items()]
        with _FromPosition(args.state, text, "tables" if tables and not changed else "settings", entries,
                            "--table"):
            program = _load(args.spec, args, {**given, **changed})
    try:
        state = state_io.load(Interpreter(program), args.state, doc, text)
    except BadInputError as exc:
        if other_rules is None or not any(d.hint and d.hint.startswith(state_io.NOT_ALLOWED) for d in exc.diagnostics):
            raise
        # a position the rules it is read under do not allow: most likely those rules,
        # not the file, are what differs (a variant that adds what the game never had)
        hint = (f"the game was played under {other_rules}, and is read under "
                f"{', '.join(v.path for v in program.variants)}, whose positions differ: read it under the rules "
                "it was played with (name the base spec alone), or mend the file")
        raise BadInputError([replace(d, hint=hint) if d.hint and d.hint.startswith(state_io.NOT_ALLOWED) else d
                             for d in exc.diagnostics]) from None
    for warning in state.warnings:      # invariants "else warn": the position is read all the same
        print(warning.render(), file=sys.stderr)
    return program, state, doc


class _FromPosition:
    """Errors of a spec loaded with what a position file names (its variants, switches,
    params or tables) are that file's: one error at the entry the error names (by its
    file, path or name; else the first), the spec's own errors as notes, and exit 2.
    ``entries``: (path in the document, name, file or None). ``own_fault``, when given
    and true once the error is known, says the error is the spec's own (a variant file
    that does not compile even alone): then it stays as it is."""

    def __init__(self, path: str, text: str, what: str, entries: list, option: str, own_fault=None):
        self.path, self.text, self.what, self.entries, self.option = path, text, what, entries, option
        self.own_fault = own_fault

    def __enter__(self):
        return self

    def _names(self, entry, diags) -> int:
        """How surely the errors name an entry: 3 at a line of its file, 2 by its file's
        path, 1 by its name, 0 not at all."""
        where, name, file = entry
        said = " ".join(f"{d.message} {d.hint or ''}" for d in diags)
        if file and any(d.span.line > 0 and _same_file(d.span.file, file) for d in diags):
            return 3
        if file and file in said:
            return 2
        return 1 if name and f"'{name}'" in said else 0

    def __exit__(self, kind, exc, tb):
        if not isinstance(exc, RulesError):
            return False
        if self.own_fault is not None and self.own_fault():
            return False
        from rulewright.compiler.diagnostics import Diagnostic, Span
        from rulewright.compiler.state_io import locate, path_text
        scores = [self._names(e, exc.diagnostics) for e in self.entries]
        named = [e for s, e in sorted(zip(scores, self.entries), key=lambda x: -x[0]) if s > 0]
        blank = [e for e in self.entries if e[2] is not None and not e[2].strip()]
        where = (named or blank or self.entries[:1] or [((self.what,), None, None)])[0][0]
        span = locate(self.path, self.text, where) or Span(self.path, 1, 1, 1, 2)
        inner = [d.message.removeprefix(f"{self.option} ").removeprefix(f"{self.option}: ")
                 for d in exc.diagnostics if d.span.line <= 0]
        notes = tuple((d.span, d.message) for d in exc.diagnostics if d.span.line > 0)
        word = {"variants": "variants", "tables": "tables"}.get(self.what, "switches, params and tables")
        message = f"{path_text(where)}: the spec cannot be loaded with the {word} this position was saved with" + \
            (": " + "; ".join(inner) if inner else "")
        raise BadInputError(Diagnostic(span, message, "mend the file, or name the ones to use on the command "
                                                      "line (--variant, --set, --table)", notes=notes)) from None


class _FirstChoice(Exception):
    """Raised by a stand-in agent: the game got past its requirements to a choice."""


def _blame_settings(args, requirement: str) -> bool:
    """When the command's own settings are what a requirement refuses (the game
    starts without them), say so under the error: True (a bad command line)."""
    given = _given_settings(args)
    if not given or not _settings_refused(args, requirement):
        return False
    print(f"  (with {given}: a setting the game cannot be played with)", file=sys.stderr)
    return True


def _settings_refused(args, requirement: str) -> bool:
    """Whether the game refused by ``requirement`` before its first choice would
    start without the command's --set, --cards and --table: then those are at fault."""
    from rulewright.compiler import load
    from rulewright.compiler.interpret import Interpreter

    class Stop:
        def choose(self, *_):
            raise _FirstChoice
    try:
        program = load(args.spec, variants=getattr(args, "variant", None) or ())
        mode = _pick_mode(program, args)
        players = args.players if args.players is not None else mode.min_players
        Interpreter(program).play(mode.name, players, getattr(args, "seed", 0) or 0,
                                  agent_factory=lambda seat, seed: Stop())
    except _FirstChoice:
        return True
    except RulesError as exc:
        return getattr(exc, "requirement", None) != requirement
    except Exception:           # noqa: BLE001 (cannot tell: the spec's error stands)
        return False
    return True


def _given_settings(args) -> str:
    """The settings a command line gives (--set, --cards, --table), as written."""
    parts = [f"--set {s}" for s in getattr(args, "set", None) or []]
    if getattr(args, "cards", None):
        parts.append(f"--cards {args.cards}")
    parts += [f"--table {t}" for t in getattr(args, "table", None) or []]
    return " ".join(parts)


def _within_allowed(args, text: str, entries) -> None:
    """The files a state file names (variants, tables) lie in the allowed folders: the
    folder trees of the state file and of the spec and files on the command line, the
    folders given with --root, and the games rulewright ships (see compiler.files)."""
    from rulewright.compiler import files, state_io
    named = [args.state, args.spec, *(getattr(args, "variant", None) or [])]
    roots = files.allowed([files.tree_of(p) for p in named if p and Path(p).exists()])
    for entry, written, path in entries:
        if files.inside(Path(path), roots):
            continue
        message = (f"'{written}' leads outside the allowed folders (the folder trees of the state file "
                   "and of the spec, and --root)")
        span = state_io.locate(args.state, text, entry)
        raise BadInputError(Diagnostic(span, message, files.refusal_hint()) if span else
                            f"{args.state}: {message} ({files.refusal_hint()})")


def _exists(path: str) -> bool:
    """Whether a file is there (a name the system cannot look up is not)."""
    try:
        return Path(path).exists()
    except (OSError, ValueError):
        return False


def _beside(state: str, path: str) -> str:
    """A path a state file names: as it is when absolute, else relative to the file."""
    return path if not path or Path(path).is_absolute() else str(Path(state).parent / path)


def _shown(paths) -> str:
    """Variant files as one spelling each: relative to the working directory when
    inside it, else absolute; one file named twice (two spellings) shown once."""
    out = []
    for p in paths:
        full = Path(p).resolve()
        try:
            text = str(full.relative_to(Path.cwd().resolve()))
        except ValueError:
            text = str(full)
        if text not in out:
            out.append(text)
    return ", ".join(out)


def _same_file(a: str, b: str) -> bool:
    try:
        return Path(a).resolve() == Path(b).resolve()
    except OSError:
        return False


def cmd_query(args, extra: list[str]) -> int:
    from rulewright.solver.queries import run_query
    from rulewright.compiler.types import BoolT, SeatT
    from rulewright.compiler import ir as I
    state = None
    program = _load(args.spec, args)
    name = args.name.replace("-", "_")
    if name in program.queries and any(n == "state" for n, _, _ in program.queries[name].inputs):
        if args.state is not None:          # the query's own input called 'state' (a grid...)
            extra = ["--state", args.state] + list(extra)
    elif args.state is not None:
        program, state, _ = _load_state(args, program)
    if name not in program.queries:
        names = [q.replace("_", "-") for q in program.queries]
        hint = did_you_mean(args.name, names) or ("queries: " + ", ".join(names) if names else "none")
        raise UsageError(f"no query '{args.name}' in {args.spec} ({hint})")
    query = program.queries[name]
    description = (query.title or name) + (": " + query.node.doc if query.node.doc else "")
    qp = _Parser(prog=f"rulewright query {args.spec} {args.name}", description=description,
                 epilog="Also: --state FILE (the position a query about a game reads), --json, "
                        "--time-limit SECONDS (default 60), --workers N (default 2), --set NAME=VALUE, "
                        "--variant FILE, --card-table FILE, --table NAME=FILE.")
    defaults = {st.name: st.default for st in query.body if isinstance(st, I.Input)}
    for iname, itype, doc in query.inputs:
        flag = "--" + iname.replace("_", "-")
        optional = defaults.get(iname) is not None
        if isinstance(itype, BoolT) and optional:
            default = defaults.get(iname)
            qp.add_argument(flag, nargs="?", const="true", default=None, metavar="true|false",
                            help=f"{doc or iname}" + (f" (default: {json.dumps(default.value)})"
                                                      if isinstance(default, I.Const) else ""))
        else:
            default = defaults.get(iname)
            said = (f" (default: {text_value(default.value)})" if isinstance(default, I.Const) else
                    " (has a default, computed from the position)") if optional else ""
            qp.add_argument(flag, required=not optional, metavar="VALUE", help=f"{doc or iname} ({itype})" + said)
    if args.query_help:
        qp.print_help()
        return 0
    if state is None and any(_reads_state(program, query)):
        raise UsageError(f"query '{args.name}' asks about a game position: give --state FILE "
                         "(a state saved by 'play --save-state', see docs/state.md)")
    inputs_ns = qp.parse_args(extra)
    from rulewright.compiler.inputs import parse_value
    inputs = {}
    for iname, itype, _ in query.inputs:
        raw = getattr(inputs_ns, iname)
        if raw is None:
            continue
        if isinstance(itype, SeatT):
            inputs[iname] = _seat(raw, state, iname)
        else:
            inputs[iname] = parse_value(raw, itype, program, iname)
    answer = run_query(program, name, inputs, time_limit=args.time_limit, workers=args.workers,
                       state=state)
    if args.json:
        data = answer.to_json()
        if state is not None and state.warnings:    # (also on standard error, as read)
            data["warnings"] = [{"at": str(w.span), "message": w.message} for w in state.warnings]
        print(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        print(answer.to_text())
    return 130 if answer.interrupted else 0     # the shell's code for Ctrl-C


def _reads_state(program, query):
    """Whether a query reads the game state (a state variable is downstream of it in
    the rules graph)."""
    import networkx as nx
    g = rules_graph.build(program)
    seen = nx.descendants(g, query.name) if query.name in g else set()
    return [n in program.state for n in seen]


def _seat(raw: str, state, name: str):
    if state is None:
        raise UsageError(f"--{name.replace('_', '-')} names a seat of a game: give --state FILE")
    # a seat's name first, then its title, then its number (1 for the first seat)
    for match in (lambda s: s.name == raw, lambda s: s.title == raw, lambda s: str(s.index + 1) == raw):
        found = [s for s in state.seats if match(s)]
        if found:
            return found[0]
    names = [s.name for s in state.seats]
    raise UsageError(f"--{name.replace('_', '-')}: no seat '{raw}' in this game "
                     f"({did_you_mean(raw, names) or 'seats: ' + ', '.join(names)})")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="rulewright", description="Board-game rules as code.")
    p.add_argument("--version", action="version", version=f"rulewright {__version__}")
    sub = p.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND")
    sub.required = True

    def common(sp, cards: bool = True):
        sp.add_argument("--set", action="append", metavar="NAME=VALUE",
                        help="set a switch or param of the spec (repeatable)")
        sp.add_argument("--variant", action="append", metavar="FILE",
                        help="apply a variant file to the spec (repeatable; the spec may also be a variant file)")
        if cards:
            sp.add_argument("--cards", metavar="FILE", dest="cards",
                            help="your own card table (CSV) in place of the spec's; it is checked")
        sp.add_argument("--card-table", metavar="FILE", dest="cards",
                        help="the same as --cards (on every command, query included)")
        sp.add_argument("--table", action="append", metavar="NAME=FILE",
                        help="any table of the spec read from your own CSV file (repeatable)")
        sp.add_argument("--root", action="append", metavar="FOLDER",
                        help="a folder that specs, variants and state files may also read from (repeatable; "
                             "their own folder tree always)")

    c = sub.add_parser("check", help="compile specs; exit 0 when clean")
    c.add_argument("paths", nargs="+", metavar="PATH")
    common(c)
    df = sub.add_parser("diff", help="what a variant changes, adds and removes, and what that can affect")
    df.add_argument("base", metavar="BASE")
    df.add_argument("variant_spec", metavar="VARIANT")
    df.add_argument("--json", action="store_true")
    common(df)
    g = sub.add_parser("graph", help="print the rules graph")
    g.add_argument("path", metavar="PATH")
    g.add_argument("--format", choices=["dot", "json"], default="json")
    common(g)
    d = sub.add_parser("dump", help="print a compiler stage: the AST or the generated Python")
    d.add_argument("path", metavar="PATH")
    d.add_argument("--stage", choices=["ast", "python"], default="ast")
    common(d)
    dc = sub.add_parser("docs", help="write the rules pages of specs as Markdown")
    dc.add_argument("specs", nargs="+", metavar="SPEC")
    dc.add_argument("--out", default="docs/rules", metavar="DIR")
    common(dc)
    s = sub.add_parser("score", help="score finished grids as the players of one game")
    s.add_argument("spec", metavar="SPEC")
    s.add_argument("grids", nargs="+", metavar="GRID")
    s.add_argument("--json", action="store_true")
    common(s)
    pl = sub.add_parser("play", help="play a seeded game with random legal agents")
    pl.add_argument("spec", metavar="SPEC")
    pl.add_argument("--players", type=_whole("a number of players"))
    pl.add_argument("--seed", type=_whole("a whole number"), default=0)
    pl.add_argument("--mode")
    pl.add_argument("--json", action="store_true")
    pl.add_argument("--log", metavar="FILE", help="write every event of the game as JSON lines")
    pl.add_argument("--save-state", metavar="FILE", help="write the game state as JSON (docs/state.md)")
    pl.add_argument("--stop-at", metavar="CHECKPOINT",
                    help="stop the game at a checkpoint of the spec, NAME or NAME:N (the N-th time)")
    pl.add_argument("--agent", choices=["random", "solver"], default="random",
                    help="random legal choices, or each turn the answer of the spec's playing query "
                         "(the query with 'play' statements), the rest at random")
    pl.add_argument("--agent-query", metavar="QUERY", help="the query a solver agent plays")
    pl.add_argument("--agent-seats", metavar="SEATS", help="the seats the solver plays, e.g. p1,p3 (default all)")
    pl.add_argument("--agent-input", metavar="NAME=VALUE", action="append",
                    help="an input of the query the solver plays, e.g. objective=adaptation (repeatable)")
    pl.add_argument("--agent-time-limit", type=_positive(float, "a number of seconds above 0"), default=10.0,
                    metavar="SECONDS",
                    help="time limit of each query a solver agent asks (default 10)")

    sm = sub.add_parser("simulate", help="many seeded games: what their reports add up to (scores, winners)")
    sm.add_argument("spec", metavar="SPEC")
    sm.add_argument("--players", type=_whole("a number of players"))
    sm.add_argument("--games", type=_positive(int, "a whole number of games from 1 to 100000", most=100_000), default=20)
    sm.add_argument("--seed", type=_whole("a whole number"), default=1, help="the first seed (then seed+1, ...)")
    sm.add_argument("--mode")
    sm.add_argument("--against", metavar="SPEC",
                    help="also play the same seeds under this spec (the base game of a house rule) and compare")
    sm.add_argument("--json", action="store_true")
    sm.add_argument("--agent", choices=["random", "solver"], default="random")
    sm.add_argument("--agent-query", metavar="QUERY")
    sm.add_argument("--agent-seats", metavar="SEATS")
    sm.add_argument("--agent-input", metavar="NAME=VALUE", action="append")
    sm.add_argument("--agent-time-limit", type=_positive(float, "a number of seconds above 0"), default=10.0,
                    metavar="SECONDS")
    common(sm)
    sh = sub.add_parser("show", help="print a saved game state readably")
    sh.add_argument("spec", metavar="SPEC")
    sh.add_argument("--state", required=True, metavar="FILE")
    sh.add_argument("--json", action="store_true", help="print the state checked and normalised")
    common(sh)
    common(pl)
    q = sub.add_parser("query", help="answer a query of the spec with the CP-SAT solver",
                       description="Inputs of the query follow its name, e.g. --cards FILE.")
    q.add_argument("spec", metavar="SPEC")
    q.add_argument("name", metavar="QUERY")
    q.add_argument("--json", action="store_true")
    q.add_argument("--time-limit", type=_positive(float, "a number of seconds above 0"), default=60.0,
                   metavar="SECONDS")
    q.add_argument("--workers", type=_positive(int, f"a whole number from 1 to {MOST_WORKERS}", most=MOST_WORKERS),
                   default=2)
    q.add_argument("--state", metavar="FILE", default=None,
                   help="the game position the query is about (a saved state, docs/state.md)")
    common(q, cards=False)    # a query's inputs may be called --cards: use --card-table
    return p


MOST_WORKERS = 1024      # CP-SAT's model is invalid past 10,000 workers; no machine here has more cores


def _whole(what: str):
    """An argparse type: a whole number written in at most 18 digits (as every number a
    user types: see ``whole_number``)."""
    def parse(text: str):
        value = whole_number(text)
        if value is None:
            raise argparse.ArgumentTypeError(f"'{text[:40]}' is not {what}")
        return value
    return parse


def _positive(kind, what: str, most=None):
    """An argparse type: a number of ``kind`` above 0 (a time limit, a worker count),
    at most ``most`` when given."""
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not {what}") from None
        if not value > 0 or value != value or value == float("inf") or (most is not None and value > most):
            raise argparse.ArgumentTypeError(f"'{text}' is not {what}")
        return value
    return parse


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser()
    query_help = False
    if argv[:1] == ["query"] and len([a for a in argv[1:] if not a.startswith("-")]) >= 2 and \
            ("-h" in argv or "--help" in argv):
        # help on one query: its own inputs
        query_help = True
        argv = [a for a in argv if a not in ("-h", "--help")]
    try:
        args, extra = parser.parse_known_args(argv)
        args.query_help = query_help
        from rulewright.compiler import files
        files.clear_roots()
        for folder in getattr(args, "root", None) or []:
            files.add_root(folder)
        # a shipped game may be named by its name from anywhere (rulewright play darwins_choice)
        for attr in ("spec", "path", "base", "variant_spec", "against"):
            if isinstance(getattr(args, attr, None), str):
                setattr(args, attr, files.spec_path(getattr(args, attr)))
        for attr in ("paths", "specs"):
            if isinstance(getattr(args, attr, None), list):
                setattr(args, attr, [files.spec_path(p) for p in getattr(args, attr)])
        if args.command != "query" and extra:
            raise UsageError(f"rulewright {args.command}: unrecognized arguments: {' '.join(extra)}")
        if args.command == "query":
            code = cmd_query(args, extra)
        else:
            code = {"check": cmd_check, "graph": cmd_graph, "dump": cmd_dump, "score": cmd_score,
                    "play": cmd_play, "docs": cmd_docs, "show": cmd_show, "diff": cmd_diff,
                    "simulate": cmd_simulate}[args.command](args)
    except RulesError as exc:
        from rulewright.compiler.diagnostics import RuntimeRulesError
        from rulewright.compiler.interpret import locate
        refused = getattr(exc, "requirement", None)
        if isinstance(exc, RuntimeRulesError):
            exc = locate(exc)
        print(exc.render(), file=sys.stderr)
        if refused and "args" in locals() and _blame_settings(args, refused):
            return 2
        return exc.exit_code
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:      # a path the system refuses: too long, a file where a folder is needed...
        where = exc.filename if exc.filename is not None else "a file"
        shown = where if len(str(where)) <= 80 else str(where)[:77] + "..."
        print(f"error: {shown}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except Exception:  # a bug in rulewright, not a user error
        if os.environ.get("RULEWRIGHT_DEBUG"):
            traceback.print_exc()
        else:
            print("rulewright: internal error (run with RULEWRIGHT_DEBUG=1 for details)", file=sys.stderr)
            state = getattr(args, "state", None) if "args" in locals() else None
            if isinstance(state, str) and Path(state).is_file():
                # a hand-edited position can pass the checks of its file and still lack what
                # the rules read (a keyed value left out, a record pointing at a missing key...)
                print(f"  it happened while using the position in {state}: if that file was edited by "
                      "hand, a value the rules need may be missing or inconsistent (see docs/state.md)",
                      file=sys.stderr)
        return 3
    sys.stdout.flush()
    return code


if __name__ == "__main__":
    sys.exit(main())
