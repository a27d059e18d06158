"""Colour on a terminal only: an error's "error:" word and caret line coloured when
standard error is a terminal; plain bytes in a pipe, with NO_COLOR set, with
--no-color; the colour codes ours alone (a file's escape is still shown as text);
--quiet holds back warnings and progress, never errors."""
from __future__ import annotations

import io
import os
import pty
import select
import subprocess
import sys
from pathlib import Path

import pytest

from rulewright.cli import terminal
from rulewright.cli.terminal import MessageStream
from helpers import ROOT, run_main as run, separate_cache

RED = b"\x1b[1;31m"
BROKEN = 'game tiny "Tiny"\n/// The answer.\ndef answer [T-1] = 1 +\n'


def _through_a_terminal(args: list[str], cwd: Path, env: dict | None = None, timeout: float = 120) -> bytes:
    """Every byte a command writes to a pseudo-terminal (its standard output and error;
    standard input empty), the environment's NO_COLOR left out unless ``env`` sets it."""
    master, slave = pty.openpty()
    environment = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    environment.update({"RULEWRIGHT_CACHE": separate_cache(), "TERM": "xterm-256color", **(env or {})})
    proc = subprocess.Popen([sys.executable, "-m", "rulewright", *args], cwd=cwd, stdin=subprocess.DEVNULL,
                            stdout=slave, stderr=slave, env=environment)
    os.close(slave)
    try:
        return b"".join(iter(lambda: _chunk(master, timeout), b""))
    finally:
        try:
            proc.wait(timeout=timeout)
        finally:
            if proc.poll() is None:
                proc.kill()
            os.close(master)


def _chunk(master: int, timeout: float) -> bytes:
    """What the terminal has to read next; b"" once its one writer is gone (EIO), or when
    the time is up."""
    if not select.select([master], [], [], timeout)[0]:
        return b""
    try:
        return os.read(master, 65536)
    except OSError:
        return b""


@pytest.fixture
def broken(tmp_path) -> Path:
    """A spec with a syntax error: its message has a quoted line and a caret."""
    (tmp_path / "tiny").mkdir()
    (tmp_path / "tiny" / "tiny.rules").write_text(BROKEN)
    return tmp_path


def test_an_error_is_coloured_on_a_terminal(broken):
    seen = _through_a_terminal(["check", "tiny"], broken)
    assert RED + b"error:" + b"\x1b[0m" in seen, seen
    caret = [line for line in seen.splitlines() if b"^" in line]
    assert caret and b"\x1b[1;32m^" in caret[0], seen


def test_a_usage_error_is_coloured_on_a_terminal(tmp_path):
    seen = _through_a_terminal(["play"], tmp_path)
    assert RED + b"error:" in seen, seen


@pytest.mark.parametrize("env, extra", [({"NO_COLOR": "1"}, []), ({}, ["--no-color"]), ({"TERM": "dumb"}, []),
                                        ({}, ["--no-color", "--quiet"])],
                         ids=["NO_COLOR", "--no-color", "TERM=dumb", "--no-color --quiet"])
def test_no_colour_when_asked(broken, env, extra):
    seen = _through_a_terminal(["check", "tiny", *extra], broken, env=env)
    assert b"error:" in seen and b"^" in seen
    assert b"\x1b" not in seen, seen


def test_no_colour_with_no_color_before_the_command(broken):
    seen = _through_a_terminal(["--no-color", "check", "tiny"], broken)
    assert b"error:" in seen and b"\x1b" not in seen, seen


def test_plain_bytes_in_a_pipe(broken):
    done = subprocess.run([sys.executable, "-m", "rulewright", "check", "tiny"], cwd=broken, capture_output=True,
                          env={**os.environ, "RULEWRIGHT_CACHE": separate_cache(), "TERM": "xterm-256color"}, timeout=120)
    assert done.returncode == 1 and b"error:" in done.stderr
    assert b"\x1b" not in done.stderr + done.stdout


def test_the_colour_is_ours_and_a_file_s_escape_is_text(tmp_path):
    """A name holding an escape sequence, in an error on a terminal: the sequence is
    shown as text; the only escapes are the colour's own."""
    name = "g\x1b[31mred"
    seen = _through_a_terminal(["play", name], tmp_path)
    assert b"g\\x1b[31mred" in seen, seen
    assert b"\x1b[31m" not in seen
    assert RED in seen
    ours = seen.replace(RED, b"").replace(b"\x1b[1;32m", b"").replace(b"\x1b[0m", b"")
    assert b"\x1b" not in ours, seen


def test_help_is_coloured_on_a_terminal_only(tmp_path):
    pytest.importorskip("rich_argparse")
    seen = _through_a_terminal(["play", "--help"], tmp_path)
    assert b"\x1b[" in seen and b"Examples:" in seen and b"rulewright play darwins_choice" in seen
    plain = _through_a_terminal(["play", "--help"], tmp_path, env={"NO_COLOR": "1"})
    assert b"\x1b" not in plain and b"Examples:" in plain


# ------------------------------------------------------------------ the stream itself
def _stream(styled: bool = False, quiet: bool = False) -> tuple[MessageStream, io.StringIO]:
    under = io.StringIO()
    return MessageStream(under, styled=styled, quiet=quiet), under


ERROR = ("x.rules:3:9: error: unknown name 'climbng'\n  3 | def a = climbng\n    |         ^^^^^^^\n"
         "  hint: did you mean 'climbing'?\n")
WARNING = "x.rules:4:1: warning: the switch 'big' is read by no rule\n  4 | switch big: bool\n    | ^^^^^^\n"


def test_the_stream_colours_the_error_word_and_the_caret_only():
    stream, under = _stream(styled=True)
    stream.write(ERROR + WARNING)
    stream.flush()
    text = under.getvalue()
    assert text.count("\x1b[1;31m") == 1 and "\x1b[1;31merror:\x1b[0m unknown" in text
    assert "    |         \x1b[1;32m^^^^^^^\x1b[0m\n" in text
    assert "warning:" in text and "    | ^^^^^^\n" in text      # (a warning's caret is left plain)


def test_the_stream_quiet_keeps_errors_and_holds_back_warnings_and_progress():
    stream, under = _stream(quiet=True)
    stream.write(WARNING + "measuring x.rules: 20 games\n" + ERROR + "interrupted\n")
    stream.write("warning: the game was played under the base rules\n")
    stream.flush()
    assert under.getvalue() == ERROR + "interrupted\n"


def test_the_stream_writes_a_part_of_a_line_on_flush():
    stream, under = _stream(styled=True)
    stream.write("error: half")
    assert under.getvalue() == ""
    stream.flush()
    assert under.getvalue() == "\x1b[1;31merror:\x1b[0m half"


def test_quiet_on_the_command_line_keeps_errors(capsys, broken, monkeypatch):
    monkeypatch.chdir(broken)
    code, out, err = run(capsys, "check", "tiny", "--quiet")
    assert code == 1 and "error:" in err and "^" in err


def test_quiet_holds_back_a_warning_of_check(capsys, tmp_path, monkeypatch):
    (tmp_path / "tiny").mkdir()
    (tmp_path / "tiny" / "tiny.rules").write_text('game tiny "Tiny"\nswitch big [T-2]: bool = false\n'
                                                  "/// The answer.\ndef answer [T-1] = 1\n")
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "check", "tiny")
    assert code == 0 and "warning:" in err, err
    code, out, err = run(capsys, "-q", "check", "tiny")
    assert code == 0 and err == ""
    code, out, err = run(capsys, "check", "tiny", "--quiet")
    assert code == 0 and err == ""


def test_colour_follows_the_environment(monkeypatch):
    class Tty(io.StringIO):
        def isatty(self):
            return True
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    terminal.configure()
    assert terminal.colour(Tty()) and not terminal.colour(io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not terminal.colour(Tty())
    monkeypatch.setenv("NO_COLOR", "")          # (empty: as if unset)
    assert terminal.colour(Tty())
    terminal.configure(no_colour=True)
    try:
        assert not terminal.colour(Tty())
    finally:
        terminal.configure()


def test_the_repository_spec_still_checks_in_a_pipe():
    done = subprocess.run([sys.executable, "-m", "rulewright", "check", "spec/ecosystem_savanna", "--quiet"],
                          cwd=ROOT, capture_output=True, timeout=300)
    assert done.returncode == 0 and b"\x1b" not in done.stdout + done.stderr
