"""What every command shares: the command's --set, --cards, --table and --variant as the
application's request (``rulewright/app/opening.py`` opens the spec, and a state file
under the rules it was played with); choosing a mode; naming a seat; usage errors.

In:  parsed arguments. Out: a checked program, a game state, or a located error.
"""
from __future__ import annotations

import sys

from rulewright.compiler import load, files
from rulewright.compiler.diagnostics import RulesError, RuntimeRulesError
from rulewright.compiler.interpret import Interpreter, locate
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
def _game_failed(exc, where: str = "") -> int:
    """A game of many that broke a rule: its error at the rule (``exc.seed``: the game's
    seed, told after it, with ``where`` it was played), the exit code; an error of no
    game is raised again."""
    seed = getattr(exc, "seed", None)
    if seed is None:
        raise exc
    if isinstance(exc, RuntimeRulesError):
        exc = locate(exc)
    print(exc.render(), file=sys.stderr)
    print(f"  (in the game of seed {seed}{where})", file=sys.stderr)
    return exc.exit_code


def _pick_mode(program, args):
    """The mode --mode names, or the one for --players (``app.playing.pick_mode``)."""
    from rulewright.app.playing import COMMAND_LINE_WORDS, pick_mode     # (with the games' modules)
    return pick_mode(program, args.spec, args.mode, args.players, COMMAND_LINE_WORDS)


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
