"""A terminal no file can drive: every text of a spec, a table, a state file or the
command line reaches the terminal through one printer (rulewright.cli.terminal), which
shows each control character and each invisible format character as an escape. A title
holding OSC 0 would set the window's title, OSC 52 write the clipboard, CSI 2J clear the
screen, a right-to-left override show a text backwards; rich markup is never read."""
from __future__ import annotations

import io
import json
import os
import pty
import re
import select
import subprocess
import sys
import time
import unicodedata
from pathlib import Path

import pytest

from rulewright.cli import main
from rulewright.cli.terminal import VisibleStream, raw, visible
from helpers import ROOT, run_main as run, separate_cache

SAVANNA = ROOT / "spec" / "ecosystem_savanna"

OSC0 = "\x1b]0;pwned\x07"                  # sets the window's title
OSC52 = "\x1b]52;c;cHduZWQ=\x07"           # writes the clipboard
CSI2J = "\x1b[2J"                          # clears the screen
EVIL = OSC0 + OSC52 + CSI2J + "\x07" + "\r" + "\u202e" + "[red]x[/red]"
SHOWN = visible(EVIL)
# what must never reach the terminal from a file: C0 but tab and new line, DEL, C1, the
# bidirectional overrides and isolates, the zero-width characters
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")


@pytest.fixture(autouse=True)
def _separate_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("RULEWRIGHT_CACHE", separate_cache())
    monkeypatch.chdir(tmp_path)




def clean(out: str, err: str) -> None:
    """No raw control or invisible character on either stream."""
    for name, text in (("stdout", out), ("stderr", err)):
        found = RAW.search(text)
        assert found is None, f"{name} holds {found.group()!r}: {text[max(0, found.start() - 80):found.end() + 80]!r}"


def literal(text: str) -> str:
    """A rules text literal for ``text``, its control characters written as escapes."""
    out = []
    for c in text:
        if c in '"\\':
            out.append("\\" + c)
        elif c == "\r":
            out.append("\\r")
        elif ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F:
            out.append(f"\\x{ord(c):02x}")
        elif unicodedata.category(c) == "Cf":
            out.append(f"\\u{ord(c):04x}")
        else:
            out.append(c)
    return '"' + "".join(out) + '"'


DOC = EVIL.replace("\r", "")     # (a doc comment ends at its line's end: written raw, without the CR)


def evil_game(folder: Path, broken: bool = False) -> Path:
    """A one-player game whose title, doc comments, example, note, options and seat
    title hold EVIL; ``broken``: with an invariant the game breaks, its message EVIL."""
    folder.mkdir(parents=True, exist_ok=True)
    body = [f"/// doc {DOC}",
            f"game evil {literal('T' + EVIL)}",
            "state { log: list of text }",
            f"/// the word {DOC}",
            f"def word = {literal('W' + EVIL)}",
            f"example ex {literal('E' + EVIL)} {{",
            '  expect word == "other"',
            "}",
            *([f"invariant odd: size(log) > 3 else {literal('I' + EVIL)}"] if broken else []),
            "procedure tell(s: seat) {",
            f"  note said = {literal('N' + EVIL)}",
            f"  choose c in [{literal('C' + EVIL)}, \"plain\"] by s",
            "  note chose = c",
            "}",
            f"mode standard {literal('M' + EVIL)} players 1 {{",
            f"  seats you: player {literal('P' + EVIL)}",
            "  do tell(you)",
            "}", ""]
    (folder / "game.rules").write_text("\n".join(body), encoding="utf-8", newline="")
    (folder / "variants").mkdir(exist_ok=True)
    (folder / "variants" / "v.rules").write_text(
        f"/// vdoc {DOC}\nvariant v {literal('V' + EVIL)} extends \"..\"\n/// changed {DOC}\n"
        f"override def word = {literal('X' + EVIL)}\n", encoding="utf-8", newline="")
    return folder


# ------------------------------------------------------------------ the printer
@pytest.mark.parametrize("char, shown", [("\x1b", "\\x1b"), ("\x07", "\\x07"), ("\r", "\\r"), ("\x00", "\\x00"),
                                         ("\x7f", "\\u007f"), ("\x9b", "\\u009b"), ("\u202e", "\\u202e"),
                                         ("\u2066", "\\u2066"), ("\u200b", "\\u200b"), ("\ufeff", "\\ufeff"),
                                         ("\u2028", "\\u2028"), ("\U000e0041", "\\U000e0041"),
                                         ("\ud800", "\\ud800")])
def test_each_control_character_is_shown_as_an_escape(char, shown):
    assert visible(f"a{char}b") == f"a{shown}b"


def test_text_without_control_characters_is_printed_as_it_is():
    text = "Écosystème: 86 points\n\tla savane, 中文, [bold]x[/bold], \\x1b, émoji 🦁"
    assert visible(text) == text


def test_every_format_character_of_unicode_is_shown():
    """The list of the printer against the Unicode database of this Python: every
    control (Cc) but tab and new line, every format character (Cf), the separators."""
    missed = [hex(c) for c in range(0x110000)
              if unicodedata.category(chr(c)) in ("Cc", "Cf", "Zl", "Zp") and chr(c) not in "\t\n"
              and visible(chr(c)) == chr(c)]
    assert not missed, missed


def test_json_output_stays_valid_and_reads_back_the_same():
    """The escapes of the characters JSON leaves as they are are JSON's own."""
    value = {"t": "a\x7f\x85\u202e\u2066\u200b\ufeffb", "c": EVIL}
    text = json.dumps(value, ensure_ascii=False)
    assert json.loads(visible(text)) == value
    assert not RAW.search(visible(text))


def test_the_stream_shows_and_delegates():
    under = io.StringIO()
    stream = VisibleStream(under)
    print("x" + EVIL, file=stream)
    assert under.getvalue() == "x" + SHOWN + "\n"
    assert raw(stream) is under and raw(under) is under
    assert not stream.isatty()
    with pytest.raises(AttributeError):
        stream.buffer   # noqa: B018 (the bytes underneath would bypass the printer)


def test_main_restores_the_streams(capsys):
    before = sys.stdout, sys.stderr
    with pytest.raises(SystemExit):
        main(["--version"])
    assert (sys.stdout, sys.stderr) == before
    main(["check", "no-such-spec"])
    assert (sys.stdout, sys.stderr) == before


# ------------------------------------------------------------------ every command
def test_check(capsys, tmp_path):
    g = evil_game(tmp_path / "g")
    code, out, err = run(capsys, "check", g)
    assert code == 0, err
    clean(out, err)
    assert f"T{SHOWN}" in out and f"V{SHOWN}" in out and "[red]x[/red]" in out


def test_play(capsys, tmp_path):
    g = evil_game(tmp_path / "g")
    code, out, err = run(capsys, "play", g, "--players", "1", "--seed", "1")
    assert code == 0, err
    clean(out, err)
    assert f"T{SHOWN}: M{SHOWN}" in out and f"N{SHOWN}" in out
    # (JSON: the same texts, read back whole)
    code, out, err = run(capsys, "play", g, "--players", "1", "--seed", "1", "--json")
    clean(out, err)
    assert json.loads(out)["notes"][0]["value"] == "N" + EVIL


def test_simulate(capsys, tmp_path):
    g = evil_game(tmp_path / "g")
    code, out, err = run(capsys, "simulate", g, "--players", "1", "--games", "2")
    assert code == 0, err
    clean(out, err)
    assert f"T{SHOWN}: M{SHOWN}" in out


def test_examples(capsys, tmp_path):
    g = evil_game(tmp_path / "g")
    code, out, err = run(capsys, "examples", g)
    assert code == 1, err       # (the example says 'other')
    clean(out, err)
    assert f"example ex (E{SHOWN}): FAILS" in out


def test_diff(capsys, tmp_path):
    g = evil_game(tmp_path / "g")
    code, out, err = run(capsys, "diff", g, g / "variants" / "v.rules")
    assert code == 0, err
    clean(out, err)
    assert f"V{SHOWN}" in out and visible(f"changed {DOC}") in out


def test_verify(capsys, tmp_path):
    g = evil_game(tmp_path / "g", broken=True)
    code, out, err = run(capsys, "verify", g, "--check", "invariant", "--games", "2", "--time-limit", "2")
    assert code == 1, err
    clean(out, err)
    assert f"I{SHOWN}" in out


def test_an_error_message(capsys, tmp_path):
    g = evil_game(tmp_path / "g", broken=True)
    code, out, err = run(capsys, "play", g, "--players", "1", "--seed", "1")
    assert code == 1
    clean(out, err)
    assert f"I{SHOWN}" in err


def test_a_spec_error_and_a_command_line_value(capsys, tmp_path):
    (tmp_path / "bad.rules").write_text(f"game bad {literal('B' + EVIL)}\ncheck c: 1 == 2 else "
                                        f"{literal('msg' + EVIL)}\n", encoding="utf-8")
    code, out, err = run(capsys, "check", "bad.rules")
    assert code == 1
    clean(out, err)
    assert f"msg{SHOWN}" in err
    code, out, err = run(capsys, "check", "bad.rules", "--set", f"x{EVIL}=1")
    assert code in (1, 2)
    clean(out, err)
    code, out, err = run(capsys, "check", f"nowhere{EVIL.replace('/', '_')}")
    assert code == 2
    clean(out, err)
    assert "nowhere" + visible(EVIL.replace("/", "_")) in err


def _savanna_state(tmp_path: Path) -> Path:
    state = tmp_path / "s.json"
    assert main(["play", str(SAVANNA), "--players", "3", "--seed", "1", "--stop-at", "pick:2",
                 "--save-state", str(state)]) == 0
    doc = json.loads(state.read_text(encoding="utf-8"))
    doc["seats"][0]["title"] = EVIL
    state.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return state


def test_show(capsys, tmp_path):
    state = _savanna_state(tmp_path)
    code, out, err = run(capsys, "show", SAVANNA, "--state", state)
    assert code == 0, err
    clean(out, err)
    assert SHOWN in out


def test_score(capsys, tmp_path):
    state = _savanna_state(tmp_path)
    code, out, err = run(capsys, "score", SAVANNA, "--state", state)
    assert code == 0, err
    clean(out, err)
    assert f"{SHOWN} (p1)" in out
    # a grid file's name is printed too
    name = tmp_path / f"grid{EVIL.replace('/', '_')}.grid"
    name.write_text((ROOT / "examples" / "margot.grid").read_text(encoding="utf-8"), encoding="utf-8")
    code, out, err = run(capsys, "score", SAVANNA, name)
    assert code == 0, err
    clean(out, err)
    assert visible(EVIL.replace("/", "_")) in out


def test_a_table_file_of_the_player(capsys, tmp_path):
    """A control character in a cell of the player's own table is refused where written;
    the message shows it as an escape."""
    g = tmp_path / "t"
    g.mkdir()
    (g / "game.rules").write_text('game t "T"\ntable item (label: text) from "items.csv" option items\n'
                                  'check c: count(i for i in item) > 0 else "none"\n', encoding="utf-8")
    (g / "items.csv").write_text("name,label\na,plain\n", encoding="utf-8")
    for bad in ("\x1b[2J", "\x07", "\x00", "\rb", "\x9b", "\x7f"):
        (tmp_path / "own.csv").write_bytes(("name,label\na,fine\nb,x" + bad + "y\n").encode())
        code, out, err = run(capsys, "check", g, "--table", "item=own.csv")
        assert code == 2 and "own.csv:3:4: error: a control character" in err, err
        clean(out, err)
    # the same in the spec's own table file: a spec error, exit 1
    (g / "items.csv").write_bytes(b"name,label\na,x\x1b]0;t\x07y\n")
    code, out, err = run(capsys, "check", g)
    assert code == 1 and "items.csv:2:4: error: a control character (\\x1b)" in err, err
    clean(out, err)
    # a tab, CRLF line ends and a quoted line break are text
    (tmp_path / "own.csv").write_bytes(b'name,label\r\na,"two\r\nlines"\r\nb,\ttab\r\n')
    assert run(capsys, "check", g, "--table", "item=own.csv")[0] == 0


def test_the_human_seat(capsys, tmp_path, monkeypatch):
    g = evil_game(tmp_path / "g")
    monkeypatch.setattr(sys, "stdin", io.StringIO("p\n1\n"))
    code, out, err = run(capsys, "play", g, "--players", "1", "--seat", "you=human")
    assert code == 0, err
    clean(out, err)
    assert f"P{SHOWN}, tell: choose c" in out and f"1. C{SHOWN}" in out


# ------------------------------------------------------------------ a real terminal
def _through_a_terminal(args: list[str], cwd: Path, send: bytes = b"", timeout: float = 120) -> bytes:
    """What a command writes to a pseudo-terminal, every byte."""
    master, slave = pty.openpty()
    env = {**os.environ, "RULEWRIGHT_CACHE": separate_cache(), "TERM": "xterm-256color"}
    proc = subprocess.Popen([sys.executable, "-m", "rulewright", *args], cwd=cwd, stdin=slave, stdout=slave,
                            stderr=slave, close_fds=True, env=env)
    os.close(slave)
    if send:
        os.write(master, send)
    seen = b""
    end = time.monotonic() + timeout
    try:
        while time.monotonic() < end:
            ready, _, _ = select.select([master], [], [], 0.5)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                seen += chunk
            elif proc.poll() is not None:
                break
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    return seen


@pytest.mark.parametrize("args", [["check", "g"], ["play", "g", "--players", "1", "--seed", "1"],
                                  ["play", "g", "--players", "1", "--seat", "you=human"]],
                         ids=["check", "play", "human"])
def test_no_escape_reaches_a_real_terminal(tmp_path, args):
    evil_game(tmp_path / "g")
    seen = _through_a_terminal(args, tmp_path, send=b"1\n" if "human" in " ".join(args) else b"")
    assert b"T\\x1b]0;pwned" in seen or b"C\\x1b]0;pwned" in seen, seen[-2000:]
    # (rulewright itself writes no control sequence to this terminal: every ESC would be the file's)
    assert b"\x1b" not in seen and b"\x07" not in seen and b"\x9b" not in seen, seen[-2000:]
    assert "\u202e".encode() not in seen


def test_the_progress_bar_draws_and_the_spec_does_not(tmp_path):
    """verify's progress bar writes its own control sequences (the one raw path); the
    spec's never reach the terminal, neither in the bar nor in the report."""
    evil_game(tmp_path / "g", broken=True)
    seen = _through_a_terminal(["verify", "g", "--check", "invariant", "--games", "2", "--time-limit", "2"],
                               tmp_path)
    assert b"I\\x1b]0;pwned" in seen, seen[-2000:]
    for sequence in (OSC0, OSC52, CSI2J, "\u202e"):
        assert sequence.encode() not in seen
    assert b"[red]x[/red]" in seen          # (shown as written, never read as markup)
