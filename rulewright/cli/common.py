"""What every command shares: the command's --set, --cards, --table and --variant as the
application's request (``rulewright/app/opening.py`` opens the spec, and a state file
under the rules it was played with); choosing a mode; naming a seat; usage errors.

In:  parsed arguments. Out: a checked program, a game state, or a located error.
"""
from __future__ import annotations

import sys
from pathlib import Path

from rulewright.compiler import load, files
from rulewright.compiler.diagnostics import BadInputError, RulesError, did_you_mean
from rulewright.compiler.interpret import Interpreter
# (the state files' module loads with the commands that read one: score of grids needs it not)
from rulewright.cli.options import UsageError
from rulewright.app.faces import COMMAND_LINE
from rulewright.app.opening import Request, open_position, open_spec


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


def _request(args, spec: str | None = None, sets: dict[str, str] | None = None) -> Request:
    """What the command line gives with a spec (--set, --table, --cards, --variant), as the
    application's request, spelt as the command line spells it."""
    if getattr(args, "cards", None) is not None and not args.cards.strip():
        raise UsageError("--cards (--card-table) takes a FILE, not an empty name")
    return Request(spec if spec is not None else args.spec, sets if sets is not None else _overrides(args.set),
                   _tables(args), getattr(args, "cards", None) or None,
                   tuple(getattr(args, "variant", None) or ()), COMMAND_LINE)


def _load(path: str, args, sets: dict[str, str] | None = None):
    """A spec with the --set values and the player's own table files of the command
    (``app.opening.open_spec``)."""
    return open_spec(_request(args, path, sets))


# ------------------------------------------------------------------ output helpers
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
    """The spec and a saved game state (``args.state``), read under the rules it was played
    with unless the command line says otherwise (``app.opening.open_position``); the
    variants and tables the file named become the command's (a game played on is saved
    with them)."""
    opened = open_position(_request(args), args.state, program)
    args.variant = list(opened.request.variants) or getattr(args, "variant", None)
    if opened.request.tables and not getattr(args, "table", None):
        args.table = [f"{k}={v}" for k, v in opened.request.tables.items()]
    return opened.program, opened.state, opened.doc


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
