"""The help of the command line: every argument of every command described in words,
its default shown, and examples for each command that parse and name files that are
there; plain text when not on a terminal; and the shell completion scripts."""
from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys

import pytest

from rulewright.cli import main
from rulewright.cli.completion import script
from rulewright.cli.main import build_parser
from rulewright.compiler import files
from helpers import ROOT, run_main as run

PARSER = build_parser()
COMMANDS = next(a for a in PARSER._actions if isinstance(a, argparse._SubParsersAction)).choices


def _described(parser: argparse.ArgumentParser) -> list[str]:
    """The arguments of ``parser`` that have no help in words."""
    return [a.dest for a in parser._actions
            if a.help is not argparse.SUPPRESS and not isinstance(a, argparse._SubParsersAction)
            and not (a.help or "").strip()]


def test_every_argument_of_the_program_is_described():
    assert _described(PARSER) == []


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_argument_of_every_command_is_described(name):
    assert _described(COMMANDS[name]) == [], f"rulewright {name}: arguments without help"


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_command_has_examples(name):
    text = COMMANDS[name].format_help()
    lines = [line.strip() for line in text.split("Examples:", 1)[-1].splitlines() if line.strip()]
    assert "Examples:" in text and lines and all(line.startswith("rulewright ") for line in lines), text
    assert 1 <= len(lines) <= 3
    assert any(line.startswith(f"rulewright {name}") for line in lines)


def _examples() -> list[str]:
    out = []
    for parser in [PARSER, *COMMANDS.values()]:
        out += [line.strip() for line in (parser.epilog or "").splitlines() if line.strip().startswith("rulewright ")]
    return out


@pytest.mark.parametrize("line", _examples())
def test_each_example_parses_and_names_what_is_there(line, tmp_path):
    """Each example is a command line this parser takes, whose specs and input files are
    there from the repository's root (files it writes, and files an example before it in
    the same help writes, excepted)."""
    words = [w for w in shlex.split(line)[1:] if w != "--help"]    # (a query's own help: its inputs)
    args, extra = build_parser().parse_known_args(words)
    assert not extra or args.command == "query", extra
    written = set()         # what the examples write
    for example in _examples():
        said = shlex.split(example)
        written |= {value for option, value in zip(said, said[1:]) if option in ("--save-state", "--out", "--log")}
    for attr in ("spec", "path", "base", "variant_spec", "against"):
        value = getattr(args, attr, None)
        if isinstance(value, str):
            assert (ROOT / value).exists() or files.spec_path(value) != value, f"{attr} {value}"
    for value in (getattr(args, "paths", None) or []) + (getattr(args, "specs", None) or []):
        assert (ROOT / value).exists() or files.spec_path(value) != value, value
    for value in (getattr(args, "grids", None) or []) + [getattr(args, "state", None), getattr(args, "cards", None)]:
        if isinstance(value, str):
            assert (ROOT / value).exists() or value in written, value
    for word in extra:                  # a query's inputs: the file ones are there
        if "/" in word:
            assert (ROOT / word).exists(), word


@pytest.mark.parametrize("name", ["play", "simulate", "query", "verify", "docs", "translations"])
def test_defaults_are_shown(name):
    text = " ".join(COMMANDS[name].format_help().split())
    assert "default" in text
    for action in COMMANDS[name]._actions:
        if action.option_strings and action.default not in (None, False, argparse.SUPPRESS, []) and \
                action.help is not argparse.SUPPRESS:
            assert "default" in action.help, action.dest


def test_quiet_and_no_color_on_every_command():
    for name, parser in COMMANDS.items():
        options = {o for a in parser._actions for o in a.option_strings}
        assert {"--quiet", "-q", "--no-color"} <= options, name


def test_help_is_plain_text_in_a_pipe(capsys):
    with pytest.raises(SystemExit) as done:
        main(["play", "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "Examples:" in out and "--players" in out
    assert "(default: random)" in out


def test_help_of_the_whole_program_lists_every_command():
    done = subprocess.run([sys.executable, "-m", "rulewright", "--help"], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0 and "\x1b" not in done.stdout
    for name in COMMANDS:
        assert f"    {name}" in done.stdout


# ------------------------------------------------------------------ shell completion
def test_the_bash_script_names_every_command_and_the_shipped_games(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--completion", "bash"])
    assert done.value.code == 0
    text = capsys.readouterr().out
    assert "complete -o filenames -F _rulewright rulewright" in text
    for name in COMMANDS:
        assert f"        {name})" in text, name
    assert "darwins_choice" in text and "house_rules/darwin_drought" in text


@pytest.mark.skipif(not shutil.which("bash"), reason="no bash")
@pytest.mark.parametrize("typed, wanted", [
    (["rulewright", "pl"], {"play"}),
    (["rulewright", "play", "darwins_c"], {"darwins_choice"}),
    (["rulewright", "play", "--ag"], {"--agent", "--agent-query", "--agent-seats", "--agent-input",
                                      "--agent-time-limit"}),
    (["rulewright", "graph", "x", "--format", ""], {"dot", "json"}),
    (["rulewright", "--completion", "f"], {"fish"}),
])
def test_bash_completes(typed, wanted, tmp_path):
    """The bash script, sourced in a bash, completes commands, shipped names, options and
    their choices."""
    path = tmp_path / "rulewright.bash"
    path.write_text(script("bash", build_parser()))
    words = " ".join(shlex.quote(w) for w in typed)
    program = (f"source {shlex.quote(str(path))}; COMP_WORDS=({words}); COMP_CWORD={len(typed) - 1}; "
               "_rulewright; printf '%s\\n' \"${COMPREPLY[@]}\"")
    done = subprocess.run(["bash", "-c", program], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    got = set(done.stdout.split())
    assert wanted <= got and all(word.startswith(typed[-1]) for word in got), got


@pytest.mark.parametrize("shell, check", [("bash", ["bash", "-n"]), ("zsh", ["zsh", "-n"]),
                                           ("fish", ["fish", "--no-execute"])])
def test_each_script_is_valid_for_its_shell(shell, check, tmp_path):
    text = script(shell, build_parser())
    for name in COMMANDS:
        assert name in text
    if not shutil.which(check[0]):
        pytest.skip(f"no {check[0]} here")
    path = tmp_path / f"rulewright.{shell}"
    path.write_text(text)
    done = subprocess.run([*check, str(path)], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "HOME": str(tmp_path)})
    assert done.returncode == 0, done.stderr


def test_an_unknown_shell_is_a_usage_error(capsys):
    code, out, err = run(capsys, "--completion", "tcsh")
    assert code == 2 and "invalid choice" in err and not out


@pytest.mark.skipif(not shutil.which("fish"), reason="no fish")
def test_fish_completes(tmp_path):
    path = tmp_path / "rulewright.fish"
    path.write_text(script("fish", build_parser()))
    program = (f"source {shlex.quote(str(path))}; complete -C 'rulewright pl'; echo ---; "
               "complete -C 'rulewright play darwins_c'; echo ---; complete -C 'rulewright graph x --format '")
    done = subprocess.run(["fish", "-c", program], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "HOME": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    commands, specs, formats = [[line.split("\t")[0] for line in part.split("\n") if line]
                                for part in done.stdout.split("---\n")]
    assert commands == ["play"] and "darwins_choice" in specs and formats == ["dot", "json"]


def test_each_command_is_declared_once_with_its_module():
    """A command is declared in one place (the parser, with the module that runs it) and
    that module holds its function: no list to keep beside the parser."""
    import importlib
    cli_main = importlib.import_module("rulewright.cli.main")
    assert set(cli_main.COMMANDS) == set(COMMANDS)
    for name in COMMANDS:
        assert callable(cli_main.command(name)), name


def test_one_parser_serves_every_command_of_a_process_and_keeps_nothing_of_one(capsys):
    """``main`` builds the parser once in a process; a command's options never reach the
    next one: an option given once each time is not "given twice", a repeatable one does
    not gather the earlier command's values, an option left out has its default again."""
    main_module = sys.modules["rulewright.cli.main"]       # (the package's ``main`` is its function)
    assert main_module.parser() is main_module.parser()
    game = ["play", ROOT / "spec" / "ecosystem_savanna", "--players", "3", "--json"]
    code, first, err = run(capsys, *game, "--seed", "3", "--set", "lion_prey_chooser=reading_order")
    assert code == 0, err
    code, second, err = run(capsys, *game, "--seed", "4")
    assert code == 0, err
    code, third, err = run(capsys, *game, "--seed", "3", "--set", "lion_prey_chooser=reading_order")
    assert code == 0, err
    first, second, third = ({k: v for k, v in json.loads(out).items() if k != "seconds"}
                            for out in (first, second, third))
    assert third == first and second != first and second["seed"] == 4
    args, _ = main_module.parser().parse_known_args(["play", "g"])
    assert args.set is None and args.seed is None and not hasattr(args, "_given")
