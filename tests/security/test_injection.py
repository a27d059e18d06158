"""Injection attempts: text from a spec, a table, a state file or the command line is
data, never Python.

The interpreter generates Python source from the checked program and runs it, so
every piece of text a user can write (a text constant, a message, a title, a name,
a table cell, a string of a state file, a ``--set`` value, a grid or a card list) is
tried here with payloads that would break out of a Python string literal or of an
operator template (quotes, backslashes, ``{2}``/``{fors}`` format fields, code that
creates a file named CANARY in the working directory, lookalike quotes, invisible
characters, NUL, a lone surrogate, 100,000 characters).

Every case runs the real command line (``rulewright.cli.main``) in a temporary working
directory and asserts:

1. no CANARY file was created (in the working directory or the repository);
2. the exit code is 0, 1 or 2, and standard error has neither "internal error" nor a
   "Traceback";
3. legal text is read as data (its value comes back unchanged: a note, a title,
   ``show``, a check or a rule's sentence shows it exactly), and illegal text is
   refused with its place (``file:line:col``) in the input.
"""
from __future__ import annotations

import csv
import html
import json
import os
import re
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path

import pytest

from rulewright.cli import main
from rulewright.cli.terminal import visible
from helpers import ROOT

SAVANNA = ROOT / "spec" / "ecosystem_savanna"
DARWIN = ROOT / "spec" / "darwins_choice"
CANARIES = ("CANARY", "CANARY_RAN")

# ------------------------------------------------------------------ payloads
CODE = "'+str(open('CANARY','w').write('x'))+'"
FIELDS = "{2}{1}{0}{*}{D}{S}{fors}{elem}{key}{var}{supply}"

RAW = {
    "squote": "'",
    "dquote": '"',
    "backslash": "\\",
    "backslash_quotes": "\\'\\\"\\",
    "triple_quotes": "'''\"\"\"",
    "newline": "line1\nline2",
    "fmt_0": "{0}",
    "fmt_1": "{1}",
    "fmt_2": "{2}",
    "fmt_star": "{*}",
    "fmt_D": "{D}",
    "fmt_S": "{S}",
    "fmt_fors": "{fors}",
    "fmt_elem": "{elem}",
    "fmt_key": "{key}",
    "fmt_var": "{var}",
    "fmt_supply": "{supply}",
    "fmt_all": FIELDS,
    "printf": "%s%r%d%(x)s",
    "fmt_conversion": "{!r}{0!r:>{1}}",
    "braces": "{}{{}}}{",
    "code_open": CODE,
    "code_open_dq": '"+str(open("CANARY","w").write("x"))+"',
    "code_system": "\"); __import__('os').system('touch CANARY') #",
    "code_system_sq": "'); __import__('os').system('touch CANARY') #",
    "code_newline": "\n__import__('os').system('touch CANARY')\n#",
    "code_fields": "{2}'+str(open('CANARY','w').write('x'))+'{fors}",
    # what the generated code of a definition with a grid parameter g is rewritten at
    "hoist_needles": "v_g.cards.get(v_g.index().get(v_g.sets()[",
    "escapes_as_text": "\\u0027\\u0022\\x27\\n\\0",
    "escaped_code_as_text": "\\x27+str(open(\\x27CANARY\\x27,\\x27w\\x27).write(\\x27x\\x27))+\\x27",
    "lookalike_quotes": "\uff07\uff02\u2018\u2019\u201c\u201d\u02b9",
    "invisible": "a\u200bb\u200cc\u200dd\u2060e\ufefff\u202eg\u202dh\u2066i\u2069j",
    "nul": "a\x00b",
    "lone_surrogate": "a\ud800b",
    # 100,000 characters, format fields and quotes at both ends
    "long": "{2}'\"\\{fors}" + "x" * 99976 + "{fors}\\\"'{2}",
}

# a smaller set for the places that cost more (shipped games, less exposed places)
CORE = ["squote", "dquote", "backslash_quotes", "newline", "fmt_2", "fmt_fors", "fmt_all", "code_open",
        "code_system", "code_newline", "code_fields", "lookalike_quotes", "invisible", "nul", "long"]
FEW = ["dquote", "fmt_2", "code_open", "code_system", "code_newline", "invisible", "nul", "long"]

# escape sequences written in a spec's string literal (between its quotes), with the
# text they stand for (None: no text: the literal is refused, or kept as written)
ESCAPES = {
    "esc_u0027": (r"\u0027", "'"),
    "esc_u0022": (r"\u0022", '"'),
    "esc_x27": (r"\x27", "'"),
    "esc_code_x27": (r"\x27+str(open(\x27CANARY\x27,\x27w\x27).write(\x27x\x27))+\x27", CODE),
    "esc_code_u0027": (r"\u0027+str(open(\u0027CANARY\u0027,\u0027w\u0027).write(\u0027x\u0027))+\u0027", CODE),
    "esc_newline_code": (r"\n__import__(\x27os\x27).system(\x27touch CANARY\x27)\n#",
                         "\n__import__('os').system('touch CANARY')\n#"),
    "esc_nul": (r"a\x00b", "a\x00b"),
    "esc_u2019": (r"\u2019", "\u2019"),
    "esc_u00e9": (r"\u00e9", "\u00e9"),
    "esc_lone_surrogate": (r"\ud800", "\ud800"),
    "esc_bad_hex": (r"\x2g", None),
    "esc_bad_name": (r"\N{NO SUCH CHARACTER}", None),
}


def _encodable(value: str) -> bool:
    try:
        value.encode("utf-8")
        return True
    except UnicodeEncodeError:
        return False


FILE_RAW = [k for k, v in RAW.items() if _encodable(v)]        # can be written in a UTF-8 file


def spec_literal(value: str) -> str:
    """A rules string literal for ``value``: backslash, double quote and new line escaped."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def companion(value: str) -> str:
    """The other text of the same expression: code when the payload is format fields
    (the payload's field would pull it in), format fields when the payload is code."""
    return FIELDS if "CANARY" in value else CODE


def words(text: str) -> str:
    return text.replace("_", " ")


class Either:
    """Equal to any of the given values (where the language leaves a choice)."""

    def __init__(self, *options):
        self.options = options

    def __eq__(self, other):
        return any(other == o for o in self.options)

    def __repr__(self):
        return "Either" + repr(self.options)


# ------------------------------------------------------------------ running
@dataclass
class Run:
    code: object
    out: str
    err: str

    @property
    def first(self) -> str:
        lines = self.err.strip().splitlines()
        return lines[0][:300] if lines else ""


@pytest.fixture(autouse=True)
def _workdir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("RULEWRIGHT_DEBUG", raising=False)
    for name in CANARIES:
        assert not (ROOT / name).exists(), f"a canary {ROOT / name} is already there"


def run(capsys, *argv) -> Run:
    capsys.readouterr()
    # the real standard error writes what it cannot encode as backslash escapes (standard
    # output is strict, as capsys's is)
    if hasattr(sys.stderr, "reconfigure"):
        sys.stderr.reconfigure(errors="backslashreplace")
    try:
        code = main([str(a) for a in argv])
        extra = ""
    except SystemExit as exc:                       # not expected: main returns its code
        code, extra = f"SystemExit({exc.code})", ""
    except Exception:                               # noqa: BLE001 - reported as a failure below
        code, extra = "raised", traceback.format_exc()
    out, err = capsys.readouterr()
    return Run(code, out, err + extra)


def safe(r: Run, tmp_path: Path):
    """No code of the input ran, and the command ended as a command should."""
    made = [str(p) for p in (*tmp_path.iterdir(), *ROOT.iterdir()) if p.name in CANARIES]
    for p in made:
        Path(p).unlink()
    assert not made, f"the payload ran: {made} created (exit {r.code}; stderr: {r.first!r})"
    assert r.code in (0, 1, 2), f"exit {r.code}; stderr: {r.first!r}"
    assert "internal error" not in r.err, r.first
    assert "Traceback" not in r.err, r.err[-2000:]


def located(r: Run, name: str, lines: set[int] | None = None, codes=(1, 2)):
    """Refused at a place of the file ``name`` (file:line:col), and on one of ``lines``."""
    assert r.code in codes, f"exit {r.code} (expected {codes}); stderr: {r.first!r}"
    found = [(int(m.group(1)), int(m.group(2)))
             for m in re.finditer(re.escape(name) + r":(\d+):(\d+)", r.err)]
    assert found, f"the error does not say where in {name}: {r.first!r}"
    if lines is not None:
        assert any(line in lines for line, _ in found), \
            f"the error is at {found[:3]}, not on line(s) {sorted(lines)}: {r.first!r}"


def ok(r: Run):
    assert r.code == 0, f"exit {r.code}; stderr: {r.first!r}"


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


# ------------------------------------------------------------------ a tiny game
def tiny(defs=(), notes=(), stmts=(), title='"Probe"', mode_title='"Standard"', seats="players") -> str:
    """A one-player game whose only procedure notes each expression of ``notes``."""
    body = list(stmts) + [f"note n{i} = {e}" for i, e in enumerate(notes)]
    return "\n".join([
        f"game probe {title}",
        *defs,
        "check the_game_loads: 1 == 1 else \"never\"",
        "procedure tell {",
        *("  " + s for s in body or ["note nothing = 0"]),
        "}",
        f"mode standard {mode_title} players 1 {{",
        f"  seats {seats}",
        "  do tell()",
        "}",
        "",
    ])


def play_notes(capsys, tmp_path, spec: str) -> tuple[Run, list | None]:
    write(tmp_path / "t.rules", spec)
    r = run(capsys, "play", "t.rules", "--players", "1", "--seed", "1", "--json")
    safe(r, tmp_path)
    if r.code != 0:
        return r, None
    return r, [n["value"] for n in json.loads(r.out)["notes"]]


# Places of a text constant in a spec: (literal of the payload, literal of its companion,
# the payload's value, the companion's value) -> (definitions, statements, notes, expected).
def _p_def(L, C, V, CV):
    return ([f"def x = {L}", f"check kept: x == {L} else \"changed\""], [], ["x"], [V])


def _p_if_then(L, C, V, CV):
    return ([f"def x(n: int) = if n > 0 then {L} else {C}",
             f"check kept: (if 1 > 0 then {L} else {C}) == {L} else \"changed\""],
            [], ["x(1)", "x(0)"], [V, CV])


def _p_if_else(L, C, V, CV):
    return ([f"def x(n: int) = if n > 0 then {C} else {L}",
             f"check kept: (if 1 > 2 then {C} else {L}) == {L} else \"changed\""],
            [], ["x(1)", "x(0)"], [CV, V])


def _p_concat(L, C, V, CV):
    # "+" shows values as words (names with spaces): either reading keeps the text otherwise
    return ([f"def x = {L} + {C}", f"def y = {C} + {L}"], [], ["x", "y"],
            [Either(V + CV, words(V) + words(CV)), Either(CV + V, words(CV) + words(V))])


def D(x: str) -> str:
    """``x`` behind a test of the loop variable ``i``: not a constant, so not folded away
    while the spec loads (the same text, since ``i`` is always above 0 here)."""
    return f'(if i > 0 then {x} else "")'


def _p_list_elem(L, C, V, CV):
    return ([f"def x(n: int) = if n > 0 then [{L} for i in 1..2 if {D(C)} != \"\"] else []",
             f"def y = [{L} for i in 1..2 if {D(C)} != \"\"]",
             f"def w(n: int) = if n > 0 then [{D(L)} for i in 1..2 if {D(C)} != \"\"] else []",
             f"def v = [{L} for i in 1..2 if {C} != \"\"]",
             f"check kept: [{L} for i in 1..2 if {D(C)} != \"\"] == [{L}, {L}] else \"changed\""],
            [], ["x(1)", "y", "w(1)", "v"], [[V, V]] * 4)


def _p_agg_filter(L, C, V, CV):
    return ([f"def x(n: int) = if n > 0 then count(i in 1..3 if {D(L)} != {C}) else 0",
             f"def y = [{C} for i in 1..2 if {D(L)} != \"\"]",
             f"def z(n: int) = if n > 0 then [{D(C)} for i in 1..2 if {D(L)} != \"\"] else []",
             f"def w = count(i in 1..3 if {L} != {C})",
             f"check kept: count(i in 1..3 if {D(L)} != {C}) == 3 else \"changed\""],
            [], ["x(1)", "y", "z(1)", "w"], [3, [CV, CV], [CV, CV], 3])


def _p_agg_other(L, C, V, CV):
    return ([f"def a(n: int) = if n > 0 then any({D(L)} == {C} for i in 1..2) else true",
             f"def b(n: int) = if n > 0 then sum(if {D(L)} == {C} then 1 else 2 for i in 1..2) else 0",
             f"def c(n: int) = if n > 0 then all({D(L)} != {C} for i in 1..2 if {D(C)} != {L}) else false",
             f"def d(n: int) = if n > 0 then {{{D(L)} for i in 1..2}} else {{{C}}}",
             f"def e(n: int) = if n > 0 then distinct({D(L)} for i in 1..2 if {D(C)} != \"\") else 0",
             f"def f = [any({L} == {C} for i in 1..2), sum(if {L} == {C} then 1 else 2 for i in 1..2) == 4]",
             f"def g(n: int) = if n > 0 then {{{L} for i in 1..2}} else {{{C}}}",
             f"check kept: sum(if {D(L)} == {C} then 1 else 2 for i in 1..2) == 4 else \"changed\""],
            [], ["a(1)", "b(1)", "c(1)", "d(1)", "e(1)", "f", "g(1)"],
            [False, 4, True, [V], 1, [False, True], [V]])


def _p_map(L, C, V, CV):
    return ([f"def x(n: int) = {{1: {L}, 2: {C}, else: \"z\"}}[n]",
             f"def y(s: text) = {{{L}: 1, {C}: 2, else: 0}}[s]"],
            [], ["x(1)", "x(2)", "x(3)", f"y({L})", f"y({C})", 'y("zz")'], [V, CV, "z", 1, 2, 0])


def _p_board(L, C, V, CV):
    # in a definition with a grid parameter named g (whose code reads its cells)
    return (["enum piece { stone }", "grid board: 2 by 2 of piece", "state { b: board }",
             f"def x(g: board) = if g[(0, 0)] == none then {L} else {C}",
             f"def y(g: board) = [{L} for c in cells(g) if g[c] == none]",
             f"def z(g: board) = [if g[c] == none then {L} else {C} for c in cells(g)]",
             f"def w(g: board) = count(c in cells(g) if g[c] == none and (if free(g, c) then {L} else \"\") != {C})"],
            [], ["x(b)", "y(b)", "z(b)", "w(b)"], [V, [V] * 4, [V] * 4, 4])


def _p_table(L, C, V, CV):
    return ([f"table item (label: text, n: int) {{\n  a | {L} | 1\n  b | {C} | 2\n}}"],
            [], ["a.label", "b.label", "[i.label for i in item]"], [V, CV, [V, CV]])


def _p_note(L, C, V, CV):
    return ([], [f"let s = {L}", f"section head = {L}", f"note said = {L}", "note again = s",
                 f"note both = [{L}, {C}]"], [], [V, V, V, [V, CV]])


def _p_record(L, C, V, CV):
    return ([f"record r {{ t: text = {L} }}"], [], ["(new r()).t", f"(new r(t = {C})).t"], [V, CV])


def _p_param(L, C, V, CV):
    return ([f"param t: text = {L}", f"param u: text = {C}"], [], ["t", "u"], [V, CV])


def _p_state(L, C, V, CV):
    return (["state { log: list of text = [" + L + ", " + C + "] }"], [], ["log"], [[V, CV]])


TEXT_PLACES = {
    "def": _p_def, "if_then": _p_if_then, "if_else": _p_if_else, "concat": _p_concat,
    "list_elem": _p_list_elem, "agg_filter": _p_agg_filter, "agg_other": _p_agg_other, "map": _p_map,
    "board_param": _p_board, "table_cell": _p_table, "note": _p_note, "record_default": _p_record,
    "param": _p_param,
    "state_initial": _p_state,
}
TITLE_PLACES = ("game_title", "mode_title", "seat_title")

SPEC_PAYLOADS = [pytest.param(spec_literal(RAW[k])[1:-1], RAW[k], id=k) for k in FILE_RAW] + \
                [pytest.param(src, value, id=k) for k, (src, value) in ESCAPES.items()]


def _raw(src: str, value) -> bool:
    """The literal is a plain text written with only the escapes of quotes, backslashes
    and new lines (which must be read exactly), not an escape sequence on trial."""
    return value is not None and src == spec_literal(value)[1:-1]


@pytest.mark.parametrize("src, value", SPEC_PAYLOADS)
@pytest.mark.parametrize("place", list(TEXT_PLACES))
def test_text_constant(capsys, tmp_path, place, src, value):
    V = value if value is not None else src           # an escape standing for no text: kept as written
    CV = companion(V)
    defs, stmts, notes, expected = TEXT_PLACES[place](f'"{src}"', spec_literal(CV), V, CV)
    r, got = play_notes(capsys, tmp_path, tiny(defs, notes, stmts))
    if _raw(src, value):
        ok(r)
    elif r.code != 0:
        # an escape the language does not have: refused at its place
        located(r, "t.rules", codes=(1,))
        return
    assert got == expected, "the text changed"
    if place == "def":
        # the AST as dump prints it (values shown as Python literals), and the generated code
        r = run(capsys, "dump", "t.rules", "--stage", "ast")
        safe(r, tmp_path)
        ok(r)
        assert f"TextLit @2:9 value={V!r}" in r.out, "dump shows another text"
        r = run(capsys, "dump", "t.rules", "--stage", "python")
        safe(r, tmp_path)
        ok(r)


@pytest.mark.parametrize("src, value", SPEC_PAYLOADS)
@pytest.mark.parametrize("place", TITLE_PLACES)
def test_title(capsys, tmp_path, place, src, value):
    L = f'"{src}"'
    if place == "game_title":
        write(tmp_path / "t.rules", tiny(title=L))
        r = run(capsys, "check", "t.rules")
        safe(r, tmp_path)
        shown = r.out if r.code == 0 else None
        expected = lambda v: f"ok: t.rules: {visible(v)}: " in shown  # noqa: E731 (as the terminal shows it)
    elif place == "mode_title":
        write(tmp_path / "t.rules", tiny(mode_title=L))
        r = run(capsys, "play", "t.rules", "--players", "1", "--seed", "1")
        safe(r, tmp_path)
        shown = r.out if r.code == 0 else None
        expected = lambda v: shown.startswith(f"Probe: {visible(v)}, 1 player(s), seed 1")  # noqa: E731
    else:
        write(tmp_path / "t.rules", tiny(seats=f"you: player {L}"))
        r = run(capsys, "play", "t.rules", "--players", "1", "--seed", "1", "--json")
        safe(r, tmp_path)
        shown = json.loads(r.out)["seats"][0]["title"] if r.code == 0 else None
        expected = lambda v: shown == v  # noqa: E731
    if _raw(src, value):
        ok(r)
        assert expected(value), f"the title changed: {shown[:300]!r}"
    elif r.code != 0:
        located(r, "t.rules", codes=(1,))
    else:
        assert expected(value if value is not None else src), f"the title changed: {shown[:300]!r}"


# ------------------------------------------------------------------ messages
def message_model(src: str) -> str | None:
    """What a message written as ``src`` (between its quotes) says: its text parts with
    ``\\n``, ``\\t`` and ``\\X`` read as a new line, a tab and X, each ``{N}`` (a number:
    the only expressions these messages can compute) shown as N; None when a ``{...}``
    part is not such an expression or never closed: an error of the spec."""
    out, i = "", 0
    while i < len(src):
        ch = src[i]
        if ch == "\\" and i + 1 < len(src):
            out += {"n": "\n", "t": "\t"}.get(src[i + 1], src[i + 1])
            i += 2
            continue
        if ch == "{":
            j = src.find("}", i)
            part = src[i + 1:j].strip() if j >= 0 else ""
            if not re.fullmatch(r"[0-9]+", part):
                return None
            out += str(int(part))
            i = j + 1
            continue
        out += ch
        i += 1
    return out


def _message_spec(place: str, M: str) -> tuple[str, list[str]]:
    if place == "check_msg":
        return tiny([f"check failing: 1 == 2 else {M}"]), ["check", "t.rules"]
    if place == "check_for_msg":
        return tiny([f"check failing for n in 1..2: n > 5 else {M}"]), ["check", "t.rules"]
    if place == "require_msg":
        return tiny(stmts=[f"require fits: 1 == 2 else {M}"]), \
            ["play", "t.rules", "--players", "1", "--seed", "1"]
    if place == "invariant_msg":
        return tiny([f"invariant never_holds: 1 == 2 else {M}"], stmts=["checkpoint here"]), \
            ["play", "t.rules", "--players", "1", "--seed", "1"]
    # a rule's sentence, quoted by a query's reasons
    return ("\n".join(["game probe \"Probe\"", f"rule small(n: int) = n < 2 else {M}",
                       "query q \"Q\" {", "  choose x in [3, 4]", "  require small(x)", "}", ""]),
            ["query", "t.rules", "q", "--json"])


MESSAGE_PLACES = ("check_msg", "check_for_msg", "require_msg", "invariant_msg", "rule_msg")


@pytest.mark.parametrize("src, value", SPEC_PAYLOADS)
@pytest.mark.parametrize("place", MESSAGE_PLACES)
def test_message(capsys, tmp_path, place, src, value):
    spec, argv = _message_spec(place, f'"{src}"')
    write(tmp_path / "t.rules", spec)
    r = run(capsys, *argv)
    safe(r, tmp_path)
    said = message_model(src)
    raw = _raw(src, value)
    # an escape sequence may be read as in a text literal, or as the message's own "\X"
    allowed = [said] if raw else [said, value]
    allowed = [a for a in allowed if a is not None]
    if not allowed:
        located(r, "t.rules", codes=(1,))
        return
    if place == "rule_msg":
        if r.code != 0 and not raw:
            located(r, "t.rules", codes=(1,))
            return
        ok(r)
        sentences = [x["sentence"] for x in json.loads(r.out)["reasons"]]
        assert sentences and all(s in allowed for s in sentences), \
            f"the sentence changed: {[s[:200] for s in sentences]}"
        return
    assert r.code in (1, 2), f"the failing {place} did not fail: exit {r.code}"
    # (as the terminal shows it: a control or invisible character as its escape, rulewright.cli.terminal)
    if not raw and not any(visible(a) in r.err for a in allowed):
        located(r, "t.rules", codes=(1,))
        return
    located(r, "t.rules")
    assert any(visible(a) in r.err for a in allowed), f"the message changed: {r.err[:300]!r}"


# ------------------------------------------------------------------ doc comments, rule IDs
def _shown(page: str) -> str:
    """A page's text as a reader sees it: rendered as the site renders it, without its tags,
    its character references read, its runs of white space one space."""
    markdown = pytest.importorskip("markdown")
    rendered = markdown.Markdown(extensions=["tables", "attr_list", "md_in_html", "pymdownx.details",
                                             "pymdownx.superfences"]).convert(page)
    return " ".join(html.unescape(re.sub(r"<[^>]*>", "", rendered)).split())


@pytest.mark.parametrize("payload", FILE_RAW)
def test_doc_comment(capsys, tmp_path, payload):
    value = RAW[payload]
    doc = "\n".join("/// " + line for line in value.split("\n"))
    write(tmp_path / "t.rules", tiny([doc, "def x = 1"], ["x"]))
    r = run(capsys, "docs", "t.rules", "--out", "pages")
    safe(r, tmp_path)
    ok(r)
    page = _shown((tmp_path / "pages" / "probe.md").read_text(encoding="utf-8"))
    for line in value.split("\n"):
        line = " ".join(visible(line).split())
        assert line in page, f"the doc changed: {line[:200]!r} is not on the page as a reader sees it"
    r = run(capsys, "play", "t.rules", "--players", "1", "--seed", "1", "--json")
    safe(r, tmp_path)
    ok(r)
    assert json.loads(r.out)["notes"][0]["value"] == 1


LEGAL_IDS = {"id_S": "S-1", "id_D": "D-0", "id_ST": "ST-RT-1", "id_two": "F-X V-X", "id_K0": "K0-S-D",
             "id_long": "A-" + "B" * 10000}


@pytest.mark.parametrize("payload", FILE_RAW + list(LEGAL_IDS))
def test_rule_ids(capsys, tmp_path, payload):
    value = LEGAL_IDS.get(payload, RAW.get(payload))
    write(tmp_path / "t.rules", tiny([f"def x [{value}] = 1"], ["x"]))
    r = run(capsys, "graph", "t.rules", "--format", "json")
    safe(r, tmp_path)
    if payload in LEGAL_IDS:
        ok(r)
    if r.code != 0:
        located(r, "t.rules", codes=(1,))
        return
    node = next(n for n in json.loads(r.out)["nodes"] if n["id"] == "x")
    assert node["rules"] == value.split(), f"the rule IDs changed: {node['rules']}"
    r = run(capsys, "play", "t.rules", "--players", "1", "--seed", "1", "--json")
    safe(r, tmp_path)
    ok(r)


# ------------------------------------------------------------------ names
LEGAL_NAMES = ["__class__", "__import__", "__builtins__", "__dict__", "__init__", "__name__", "_", "_rt",
               "_s", "_err", "_force", "_forced", "_linespans", "_full", "_mode", "_steps", "_choices",
               "_opts", "_pick", "_o", "_t1", "_k1", "_w1", "_v_x1", "_get_v_g", "st", "ns", "f_x", "v_x",
               "s_x", "p_x", "k0", "mode_standard", "p_mode_standard", "import", "exec", "eval", "open",
               "print", "compile", "globals", "getattr", "lambda", "class", "def", "return", "yield",
               "global", "nonlocal", "async", "await", "is", "del", "raise", "try", "except", "self",
               "os", "sys", "x" * 10000, "_" * 10000]
ILLEGAL_NAMES = ["ST", "K0", "_S", "D", "\u00e9lan", "x-y", "1x", "x'y", "x{2}", "x\"y", "x\u200by"]
RESERVED = ["none", "true", "false"]


def _name_id(name: str) -> str:
    return name if len(name) < 40 else f"{name[:3]}x{len(name)}"


def _name_spec(role: str, n: str) -> tuple[str, list, list[str]]:
    """A spec using ``n`` in one role, the notes it makes and the command (extra args)."""
    if role == "enum_value":
        return tiny([f"enum colour {{ red, {n} }}", f"def pick = {n}", f"record rec {{ {n}: int, other: int }}",
                     f"check picked: pick != red else \"never\""],
                    ["[c for c in colour]", "pick", f"(new rec({n} = 3, other = 4)).{n}"]), \
            [["red", n], n, 3], []
    if role == "local":
        return tiny([f"def f({n}: int) = {n} + 1", f"def g = [{n} for {n} in 1..2 if {n} > 0]",
                     f"check counted: sum({n} for {n} in 1..3) == 6 else \"changed\""],
                    ["f(1)", "g", n], stmts=[f"let {n} = 5"]), [2, [1, 2], 5], []
    if role == "definition":
        return tiny([f"def {n}(k: int) = k + 1", f"state {{ s_{n}: int = 4 }}",
                     f"check defined: {n}(1) == 2 else \"changed\""],
                    [f"{n}(1)", f"s_{n}"]), [2, 4], []
    if role == "procedure":
        return "\n".join([
            "game probe \"Probe\"",
            f"procedure {n} {{",
            f"  step {n} {{ note inside = 1 }}",
            "}",
            "mode standard \"Standard\" players 1 {",
            "  seats players",
            f"  do {n}()",
            "  note after = 2",
            "}",
            ""]), [1, 2], []
    # a mode of that name
    return "\n".join([
        "game probe \"Probe\"",
        "procedure helper { note inside = 1 }",
        f"mode {n} \"Named\" players 1 {{",
        "  seats players",
        "  do helper()",
        "  note after = 2",
        "}",
        ""]), [1, 2], ["--mode", n]


NAME_ROLES = ("enum_value", "local", "definition", "procedure", "mode")
NAME_CASES = [pytest.param(role, n, True, id=f"{role}-{_name_id(n)}")
              for role in NAME_ROLES for n in LEGAL_NAMES] + \
             [pytest.param(role, n, False, id=f"{role}-illegal-{_name_id(n)}")
              for role in ("enum_value", "definition") for n in ILLEGAL_NAMES] + \
             [pytest.param("enum_value", n, False, id=f"enum_value-reserved-{n}") for n in RESERVED]


@pytest.mark.parametrize("role, name, legal", NAME_CASES)
def test_name(capsys, tmp_path, role, name, legal):
    spec, expected, extra = _name_spec(role, name)
    write(tmp_path / "t.rules", spec)
    r = run(capsys, "play", "t.rules", "--players", "1", "--seed", "1", "--json", *extra)
    safe(r, tmp_path)
    if not legal:
        located(r, "t.rules", codes=(1,))
        return
    ok(r)
    assert [n["value"] for n in json.loads(r.out)["notes"]] == expected


# ------------------------------------------------------------------ tables from files
def _csv(path: Path, rows: list[list[str]]):
    with open(path, "w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(rows)


def _table_spec(option: bool) -> str:
    return tiny(["table item (label: text, n: int) from \"items.csv\"" + (" option items" if option else "")],
                ["[i.label for i in item]", "[i.n for i in item]"])


CSV_CASES = [pytest.param(where, k, id=f"{where}-{k}") for where in ("label", "name", "number") for k in FILE_RAW]


def _control(value: str) -> bool:
    """Whether a cell holds a control character a table file may not hold (all but tab
    and, quoted, a line break: compiler/resolve/tables.py)."""
    return re.search("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]|\r(?!\n)", value) is not None


@pytest.mark.parametrize("where, payload", CSV_CASES)
def test_csv_table(capsys, tmp_path, where, payload):
    """A table of the spec read from its own CSV file."""
    value = RAW[payload]
    row = {"label": ["a", value, "1"], "name": [value, "x", "1"], "number": ["a", "x", value]}[where]
    _csv(tmp_path / "items.csv", [["name", "label", "n"], row, ["b", "second", "2"]])
    r, got = play_notes(capsys, tmp_path, _table_spec(False))
    if where == "label" and not _control(value):
        ok(r)
        # a CSV cell is read without the blanks around it (language.md: tables)
        assert got == [[value.strip(), "second"], [1, 2]], "the cell changed"
    else:
        located(r, "items.csv")


@pytest.mark.parametrize("where, payload", [p for p in CSV_CASES if p.values[0] != "number"])
def test_own_table_file(capsys, tmp_path, where, payload):
    """A player's own table file (--table NAME=FILE) in place of the spec's."""
    value = RAW[payload]
    _csv(tmp_path / "items.csv", [["name", "label", "n"], ["a", "shipped", "1"]])
    row = {"label": ["a", value, "1"], "name": [value, "x", "1"]}[where]
    _csv(tmp_path / "own.csv", [["name", "label", "n"], row, ["b", "second", "2"]])
    write(tmp_path / "t.rules", _table_spec(True))
    r = run(capsys, "play", "t.rules", "--players", "1", "--seed", "1", "--json", "--table", "item=own.csv")
    safe(r, tmp_path)
    if where == "label" and not _control(value):
        ok(r)
        assert [n["value"] for n in json.loads(r.out)["notes"]] == [[value.strip(), "second"], [1, 2]], \
            "the cell changed"
    else:
        located(r, "own.csv", codes=(2,))


@pytest.fixture(scope="module")
def darwin_cards() -> list[list[str]]:
    with open(DARWIN / "animal_cards.csv", newline="", encoding="utf-8") as f:
        return list(csv.reader(f))


@pytest.mark.parametrize("where, payload", [pytest.param("animal", k, id=f"animal-{k}") for k in FEW] +
                         [pytest.param("name", k, id=f"name-{k}") for k in ("fmt_2", "code_open", "nul")])
def test_darwin_cards(capsys, tmp_path, darwin_cards, where, payload):
    """Darwin's Choice with the player's own card table (--cards): a text column holds the
    payload (a variant's check compares it with the same text written in a spec), or a
    card's name does."""
    value = RAW[payload]
    rows = [list(r) for r in darwin_cards]
    header = rows[0]
    row = next(r for r in rows[1:] if r[0] == "chimpanzee_body")
    row[header.index("animal") if where == "animal" else 0] = value
    _csv(tmp_path / "own.csv", rows)
    base = os.path.relpath(DARWIN, tmp_path).replace(os.sep, "/")
    # (a CSV cell is read without the blanks around it)
    check = f"check payload_kept: chimpanzee_body.animal == {spec_literal(value.strip())} else \"the text changed\""
    write(tmp_path / "probe.rules", "\n".join([
        f"variant probe \"Probe\" extends \"{base}\"", check if where == "animal" else "", ""]))
    r = run(capsys, "graph", "probe.rules", "--cards", "own.csv", "--format", "json")
    safe(r, tmp_path)
    if where == "animal" and not _control(value):
        ok(r)
    else:
        located(r, "own.csv", {rows.index(row) + 1}, codes=(2,))


# ------------------------------------------------------------------ state files
def _write_state(path: Path, doc: dict) -> tuple[str, bool]:
    """The document written as play --save-state writes it (a string that cannot be
    written in UTF-8, a lone surrogate, as a JSON escape); its text and whether it is ASCII."""
    ascii_only = not all(_encodable(s) for s in _strings(doc))
    text = json.dumps(doc, indent=1, ensure_ascii=ascii_only)
    path.write_text(text + "\n", encoding="utf-8")
    return text, ascii_only


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def _lines_with(written: tuple[str, bool], value: str) -> set[int]:
    """The lines of the written document that hold ``value`` (as a key or a string)."""
    text, ascii_only = written
    needle = json.dumps(value, ensure_ascii=ascii_only)[1:-1]
    return {i + 1 for i, line in enumerate(text.split("\n")) if needle in line}


TINY_STATE_PLACES = ("text", "title", "seat_name", "state_key", "spec")


@pytest.mark.parametrize("payload", list(RAW))
@pytest.mark.parametrize("place", TINY_STATE_PLACES)
def test_state_tiny(capsys, tmp_path, place, payload):
    """A hand-written position of the tiny game, shown."""
    value = RAW[payload]
    write(tmp_path / "t.rules", tiny(["state { log: list of text }"], ["log"]))
    doc = {"format": "rulewright-state/1", "spec": "probe", "mode": "standard",
           "seats": [{"name": "p1", "kind": "player", "title": "Player 1"}], "state": {"log": ["a"]}}
    if place == "text":
        doc["state"]["log"] = [value]
    elif place == "title":
        doc["seats"][0]["title"] = value
    elif place == "seat_name":
        doc["seats"][0]["name"] = value
    elif place == "state_key":
        doc["state"][value] = []
    else:
        doc["spec"] = value
    written = _write_state(tmp_path / "state.json", doc)
    r = run(capsys, "show", "t.rules", "--state", "state.json", "--json")
    safe(r, tmp_path)
    # a name may be refused, and so may a lone surrogate (it stands for no character)
    if place in ("state_key", "spec") or (r.code != 0 and (place == "seat_name" or not _encodable(value))):
        located(r, "state.json", _lines_with(written, value), codes=(2,))
        return
    ok(r)
    shown = json.loads(r.out)
    got = {"text": lambda: shown["state"]["log"], "title": lambda: shown["seats"][0]["title"],
           "seat_name": lambda: shown["seats"][0]["name"]}[place]()
    assert got == ([value] if place == "text" else value), "the text changed"
    r = run(capsys, "show", "t.rules", "--state", "state.json")
    safe(r, tmp_path)
    ok(r)
    # (as the terminal shows it: a control or invisible character as its escape, rulewright.cli.terminal)
    assert visible(value) in r.out, "show does not print the text"


@pytest.fixture(scope="module")
def savanna_state(tmp_path_factory) -> dict:
    """A Savanna position at the third pick of a seeded four-player game."""
    where = tmp_path_factory.mktemp("savanna")
    before = Path.cwd()
    os.chdir(where)
    try:
        code = main(["play", str(SAVANNA), "--players", "4", "--seed", "1", "--stop-at", "pick:3",
                     "--save-state", "draft.json"])
    finally:
        os.chdir(before)
    assert code == 0
    return json.loads((where / "draft.json").read_text(encoding="utf-8"))


def _rename_seat(doc: dict, old: str, new: str):
    for s in doc["seats"]:
        if s["name"] == old:
            s["name"] = new
    for per in doc.get("per_seat", {}).values():
        per[new] = per.pop(old)


SAVANNA_STATE_CASES = [pytest.param(place, k, id=f"{place}-{k}")
                       for place in ("title", "hand_card", "variants") for k in CORE + ["lone_surrogate"]] + \
                      [pytest.param(place, k, id=f"{place}-{k}")
                       for place in ("seat_name", "mode", "checkpoint", "spec", "switch", "state_key", "tables")
                       for k in FEW + ["lone_surrogate"]]


@pytest.mark.parametrize("place, payload", SAVANNA_STATE_CASES)
def test_state_savanna(capsys, tmp_path, savanna_state, place, payload):
    """A saved position of Ecosystem: Savanna with a payload put into one of its strings."""
    value = RAW[payload]
    doc = json.loads(json.dumps(savanna_state))
    if place == "title":
        doc["seats"][0]["title"] = value
    elif place == "hand_card":
        doc["per_seat"]["hand"]["p1"][0] = value
    elif place == "variants":
        doc["variants"] = [value]
    elif place == "seat_name":
        _rename_seat(doc, "p1", value)
    elif place == "mode":
        doc["mode"] = value
    elif place == "checkpoint":
        doc["checkpoint"] = value
    elif place == "spec":
        doc["spec"] = value
    elif place == "switch":
        doc["switches"]["hyena_range"] = value
    elif place == "state_key":
        doc["state"][value] = []
    else:
        doc["tables"] = {"card": value}
    written = _write_state(tmp_path / "state.json", doc)
    r = run(capsys, "show", SAVANNA, "--state", "state.json", "--json")
    safe(r, tmp_path)
    if (place == "title" and (r.code == 0 or _encodable(value))) or (place == "seat_name" and r.code == 0):
        ok(r)
        seat = json.loads(r.out)["seats"][0]
        assert seat["title" if place == "title" else "name"] == value, "the text changed"
        r = run(capsys, "show", SAVANNA, "--state", "state.json")
        safe(r, tmp_path)
        ok(r)
        assert visible(value) in r.out, "show does not print the text"
        return
    located(r, "state.json", _lines_with(written, value), codes=(2,))


# ------------------------------------------------------------------ the command line
# A command line cannot hold NUL; undecodable bytes in it reach Python as lone surrogates
# (surrogateescape), so that is the lone surrogate tried there.
ARGV = [k for k in RAW if k != "nul"]


def argv_value(payload: str) -> str:
    return "a\udcffb" if payload == "lone_surrogate" else RAW[payload]


SET_ROLES = ("int_param", "switch", "text_param", "name")


@pytest.mark.parametrize("payload", ARGV)
@pytest.mark.parametrize("role", SET_ROLES)
def test_set_value(capsys, tmp_path, role, payload):
    """--set NAME=VALUE: none of these values is one the setting takes."""
    value = argv_value(payload)
    write(tmp_path / "t.rules", tiny(["param k: int = 3", "switch sw: a | b = a", "param t: text = \"x\"",
                                      "def uses = if sw == a then k else 0", "def tt = t"],
                                     ["uses", "tt"]))
    setting = {"int_param": f"k={value}", "switch": f"sw={value}", "text_param": f"t={value}",
               "name": f"{value}=1"}[role]
    r = run(capsys, "play", "t.rules", "--players", "1", "--seed", "1", "--json", "--set", setting)
    safe(r, tmp_path)
    assert r.code == 2, f"exit {r.code}; stderr: {r.first!r}"
    if role != "name":
        assert re.search(r"'(k|sw|t)'", r.err), f"the error does not name the setting: {r.first!r}"


MARGOT = (ROOT / "examples" / "margot.grid").read_text(encoding="utf-8")


@pytest.mark.parametrize("payload", CORE)
@pytest.mark.parametrize("where", ("cell", "comment"))
def test_grid_file(capsys, tmp_path, where, payload):
    value = RAW[payload]
    lines = MARGOT.rstrip("\n").split("\n")
    rows = [i for i, line in enumerate(lines) if line.strip() and not line.lstrip().startswith("#")]
    if where == "cell":
        i = rows[1]
        lines[i] = lines[i].replace("lion", value, 1)
        bad = set(range(i + 1, i + 2 + value.count("\n")))
    else:
        lines.insert(0, "# " + value)
        bad = set(range(2, 2 + value.count("\n")))
    write(tmp_path / "g.grid", "\n".join(lines) + "\n")
    r = run(capsys, "score", SAVANNA, "g.grid", "--json")
    safe(r, tmp_path)
    if where == "comment" and "\n" not in value:
        ok(r)
        assert json.loads(r.out)["players"][0]["total"] == 86
    else:
        # a payload that makes more lines may be refused for the lines it makes
        located(r, "g.grid", bad if "\n" not in value else None, codes=(2,))


@pytest.mark.parametrize("payload", CORE)
def test_card_list_file(capsys, tmp_path, payload):
    value = RAW[payload]
    write(tmp_path / "c.cards", "lion zebra\n" + value + "\ngazelle\n")
    r = run(capsys, "query", SAVANNA, "best-arrangement", "--cards", "c.cards", "--time-limit", "1")
    safe(r, tmp_path)
    located(r, "c.cards", set(range(2, 3 + value.count("\n"))), codes=(2,))


@pytest.mark.parametrize("payload", [k for k in CORE + ["lone_surrogate"] if k in ARGV])
def test_card_list_argument(capsys, tmp_path, payload):
    value = argv_value(payload)
    r = run(capsys, "query", SAVANNA, "best-arrangement", "--cards", "lion," + value, "--time-limit", "1")
    safe(r, tmp_path)
    assert r.code == 2, f"exit {r.code}; stderr: {r.first!r}"
    assert "card" in r.err, r.first
