"""What every command shares: loading a spec with the command's --set, --cards,
--table and --variant; reading a position (a state file) under the rules it was played
with; usage errors; the number options.

In:  parsed arguments. Out: a checked program, a game state, or a located error.
"""
from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

from rulewright.compiler import load, files
from rulewright.compiler.diagnostics import BadInputError, Diagnostic, RulesError, did_you_mean, Span
from rulewright.compiler.types import BoardT
from rulewright.compiler.interpret import Interpreter
# (the state files' module loads with the commands that read one: score of grids needs it not)
from rulewright.cli.options import UsageError


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


def _write(path: str, text: str) -> None:
    """A file the command line asked for (--save-state, --log), written by the one writer
    (``files.write_text``): never through a symbolic link, never half-written."""
    files.write_text(path, text)


def _load_state(args, program=None):
    """The spec and a saved game state, with the switches, params and tables the game
    was played with unless the command line says otherwise. When the spec cannot be
    loaded with those, the error is the state file's, at the entry that names them."""
    from rulewright.compiler.play import state_io                  # (lazy: see the imports)
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
        here = [str(files.real(v.path)) for v in program.variants]
        then = [str(files.real(v)) for v in saved_variants]
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
        from rulewright.compiler.play.state_io import locate, path_text     # (lazy: see the imports)
        if not isinstance(exc, RulesError):
            return False
        if self.own_fault is not None and self.own_fault():
            return False
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
    from rulewright.compiler.play import state_io                  # (lazy: see the imports)
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
        full = files.real(p)
        try:
            text = str(full.relative_to(Path.cwd().resolve()))
        except ValueError:
            text = str(full)
        if text not in out:
            out.append(text)
    return ", ".join(out)


def _same_file(a: str, b: str) -> bool:
    try:
        return files.real(a) == files.real(b)
    except OSError:
        return False


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


def _reads_state(program, query):
    """Whether a query reads the game state (a state variable is downstream of it in
    the rules graph)."""
    import networkx as nx                                   # (lazy: networkx, for this question
    from rulewright.compiler import graph as rules_graph   # only)
    g = rules_graph.build(program)
    seen = nx.descendants(g, query.name) if query.name in g else set()
    return [n in program.state for n in seen]
