"""Syntax highlighting of .rules files: the keywords come from the grammar, the Pygments
lexer and the TextMate grammar highlight every one of them, the committed TextMate file
is current, and every shipped spec file lexes without an error token."""
from __future__ import annotations

import json
import re
import time
from importlib.metadata import entry_points

import pygments
import pygments.lexers
import pytest
from hypothesis import given, settings, strategies as st
from pygments.formatters import HtmlFormatter
from pygments.token import Comment, Error, Keyword, Name, Number, Operator, String, Whitespace

from rulewright.compiler.docgen import lexer as hl
from rulewright.compiler.docgen.lexer import RulesLexer, grammar_keywords, textmate_grammar
from rulewright.compiler.syntax.parse import parser
from helpers import ROOT

KEYWORDS = grammar_keywords()
SPEC_FILES = sorted(ROOT.glob("spec/**/*.rules")) + sorted(ROOT.glob("examples/**/*.rules"))
TEXTMATE_FILE = ROOT / "editors" / "vscode" / "syntaxes" / "rules.tmLanguage.json"
REGENERATE = "python -m rulewright.compiler.docgen.lexer --textmate > editors/vscode/syntaxes/rules.tmLanguage.json"


def tokens(text: str) -> list[tuple]:
    """(token type, text) of every token, the text kept as it is (no newline added)."""
    return [(t, v) for _, t, v in RulesLexer().get_tokens_unprocessed(text)]


def token_of(text: str, word: str, nth: int = 0):
    """The type of the ``nth`` token that is exactly ``word``."""
    found = [t for t, v in tokens(text) if v == word]
    assert len(found) > nth, f"no token {word!r} in {tokens(text)}"
    return found[nth]


# ------------------------------------------------------------------------ the keywords
def test_the_keywords_are_the_grammars():
    assert len(KEYWORDS) > 50
    assert KEYWORDS == sorted(set(KEYWORDS))
    assert {"game", "rule", "def", "scoring", "step", "choose", "variant", "override", "remove",
            "if", "else", "for", "in", "and", "or", "not", "floating", "warn"} <= set(KEYWORDS)
    # comments of the grammar quote words ("holds EXPR", "what if") that are no keywords
    assert not {"EXPR", "what", "NAME", "TABLE", "common", "import", "ignore", "WS"} & set(KEYWORDS)
    # Lark's own reading of the grammar: every word literal is a terminal of its own
    lark_words = {t.pattern.value for t in parser().terminals
                  if t.pattern.type == "str" and re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", t.pattern.value)}
    assert set(KEYWORDS) == lark_words


def test_keywords_in_every_form_a_grammar_may_write_them(tmp_path):
    grammar = tmp_path / "g.lark"
    grammar.write_text(r'''
// a comment quoting "commented" and "also" # and "hash"
start: "alpha" NAME "beta"i ("gamma" | "-" | "==" | "two words" | "9lives" | "under_score")
# "hashed" is a comment too
LETTER: "a".."z"
OPS: /\b(?:delta|epsilon)\b/i
SLASHES: "//" | "///"
DOC: /\/\/\/[^\n]*/
NAME: /[a-z_][a-z0-9_]*/
WORD: /zeta/
%ignore " "
''')
    assert grammar_keywords(grammar) == ["alpha", "beta", "delta", "epsilon", "gamma", "under_score", "zeta"]
    assert dict(hl._grammar_words(grammar)) == {"alpha": False, "beta": True, "delta": True, "epsilon": True,
                                                "gamma": False, "under_score": False, "zeta": False}


def test_the_lexers_word_lists_are_words_of_the_grammar():
    assert hl.DECLARATIONS <= set(KEYWORDS), sorted(hl.DECLARATIONS - set(KEYWORDS))
    assert set(hl.DEFINERS) <= hl.DECLARATIONS
    assert set(hl.BINDERS) <= set(KEYWORDS) - hl.DECLARATIONS


# --------------------------------------------------------------------- the Pygments lexer
@pytest.mark.parametrize("keyword", KEYWORDS)
def test_every_keyword_is_a_keyword_to_the_lexer(keyword):
    for context in (f"{keyword}\n", f"    {keyword} x\n", f"def d = a {keyword} b\n",
                    f"query q {{ x ({keyword}) }}\n", f"step s [XX-ONE-01] = {keyword}  # note\n"):
        assert token_of(context, keyword) in Keyword, context
    # but not inside a longer name, nor after a dot, nor as the name a definition binds
    assert token_of(f"x = {keyword}_b + a_{keyword} + {keyword}2", f"{keyword}_b") is Name
    assert not [v for t, v in tokens(f"x = a_{keyword} + {keyword}2") if v == keyword]
    assert token_of(f"x = g.{keyword}", keyword) is Name.Attribute
    assert tokens(f"def {keyword} = 1")[2] == (Name.Function, keyword)
    assert tokens(f"let {keyword} = 1")[2] == (Name.Variable, keyword)


def test_token_types_of_a_definition():
    text = ('/// Each zebra scores 2.\n'
            'step zebras [ES-SCORE-ZEBRA-01 DC-AMB-03] = count(g.zebra) * 2   # the herd\n'
            'rule fits(p: player) = size(hand(p)) >= 1 else "{p} has {size(hand(p))} cards, \\{not\\} {3}"\n'
            'def fine = true and x != none\n')
    kinds = tokens(text)
    assert (String.Doc, "/// Each zebra scores 2.") in kinds
    assert (Comment.Single, "# the herd") in kinds
    assert (Name.Label, "ES-SCORE-ZEBRA-01") in kinds and (Name.Label, "DC-AMB-03") in kinds
    assert (Number.Integer, "2") in kinds and (Number.Integer, "1") in kinds
    assert (Name.Function, "zebras") in kinds and (Name.Function, "fits") in kinds
    assert (Keyword.Declaration, "step") in kinds and (Keyword.Declaration, "rule") in kinds
    assert (Keyword.Constant, "true") in kinds and (Keyword.Constant, "none") in kinds
    assert (Name.Attribute, "zebra") in kinds
    # the string: text, an escaped brace, and {expressions} lexed as code between braces
    line = tokens(text.splitlines()[2])
    start = line.index((String.Double, '"'))
    string = line[start:]
    assert string[-1] == (String.Double, '"')
    assert all(t in String for t, v in string if "{" in v or "}" in v)
    assert [v for t, v in string if t is String.Interpol] == ["{", "}", "{", "}", "{", "}"]
    assert (String.Escape, "\\{") in string and (String.Escape, "\\}") in string
    assert (Name, "size") in string and (Number.Integer, "3") in string
    assert (String.Double, " cards, ") in string
    # a comment sign inside a string is text, and a '{' never closed ends at the quote
    assert tokens('x = "a # b {c"\nd') == [
        (Name, "x"), (Whitespace, " "), (Operator, "="), (Whitespace, " "),
        (String.Double, '"'), (String.Double, "a # b "), (String.Interpol, "{"), (Name, "c"),
        (String.Double, '"'), (Whitespace, "\n"), (Name, "d")]


def test_a_string_never_runs_past_its_line():
    kinds = tokens('x = "never closed\ngame g "G"\n')
    assert (Keyword.Declaration, "game") in kinds and (Name.Function, "g") in kinds


@pytest.mark.parametrize("path", SPEC_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_shipped_file_lexes_cleanly(path):
    text = path.read_text(encoding="utf-8")
    found = list(RulesLexer().get_tokens_unprocessed(text))
    errors = [(text.count("\n", 0, i) + 1, v) for i, t, v in found if t in Error]
    assert not errors, f"{path.relative_to(ROOT)}: error tokens (line, text): {errors[:10]}"
    assert "".join(v for _, _, v in found) == text
    assert [i for i, _, _ in found] == sorted(i for i, _, _ in found)
    plain = RulesLexer(stripnl=False, ensurenl=False).get_tokens(text)
    assert "".join(v for _, v in plain) == text
    assert any(t in Keyword for _, t, _ in found)


def test_the_shipped_files_are_there():
    assert len(SPEC_FILES) > 20


def test_a_long_file_lexes_fast():
    text = "".join(p.read_text(encoding="utf-8") for p in SPEC_FILES)
    while text.count("\n") < 4000:
        text += text
    lexer = RulesLexer()
    start = time.perf_counter()
    n = sum(1 for _ in lexer.get_tokens(text))
    took = time.perf_counter() - start
    assert n > 10_000
    assert took < 3.0, f"{text.count(chr(10))} lines took {took:.2f}s"


ALPHABET = st.sampled_from(list('abz_ ()[]{}"\\#/.-=<>!+*%:|,\n\t0129') + ["///", "def ", "rule ", "ES-A-01",
                                                                          "é", "\r", "\x00", "'", "\u2028"])


@settings(max_examples=300, deadline=None)
@given(st.lists(ALPHABET, max_size=60).map("".join) | st.text(max_size=60))
def test_the_lexer_never_raises_and_loses_nothing(text):
    assert "".join(v for _, v in tokens(text)) == text


# ---------------------------------------------------------------- the TextMate grammar
def _patterns(grammar: dict):
    """Every pattern of the grammar (nested ones and the repository's included)."""
    todo = list(grammar["patterns"]) + list(grammar["repository"].values())
    while todo:
        p = todo.pop()
        yield p
        todo.extend(p.get("patterns", []))


def _scan(grammar: dict, line: str) -> list[tuple[str, str]]:
    """(scope, text) for a line without strings, as a TextMate engine reads it with the
    grammar's match patterns: at each position the earliest match, the first listed
    pattern on a tie."""
    repo = grammar["repository"]
    order = [repo[p["include"][1:]] for p in grammar["patterns"] if p["include"] != "#string"]
    flat = [q for p in order for q in (p["patterns"] if "patterns" in p else [p])]
    out, pos = [], 0
    while pos < len(line):
        best = None
        for p in flat:
            m = re.compile(p["match"]).search(line, pos)
            if m and m.end() > m.start() and (best is None or m.start() < best[0].start()):
                best = (m, p)
        if best is None:
            break
        m, p = best
        if "captures" in p:
            out += [(c["name"], m.group(int(k))) for k, c in sorted(p["captures"].items())]
        else:
            out.append((p["name"], m.group()))
        pos = m.end()
    return out


def test_the_textmate_patterns_are_regular_expressions_python_reads():
    grammar = textmate_grammar()
    assert grammar["scopeName"] == "source.rules"
    n = 0
    for p in _patterns(grammar):
        for key in ("match", "begin", "end"):
            if key in p:
                re.compile(p[key])
                n += 1
    assert n > 10


@pytest.mark.parametrize("keyword", KEYWORDS)
def test_every_keyword_is_a_keyword_to_the_textmate_grammar(keyword):
    grammar = textmate_grammar()
    keyword_patterns = [p["match"] for p in _patterns(grammar)
                        if p.get("name", "").startswith(("keyword.control.", "keyword.other."))]
    assert any(re.fullmatch(p, keyword) for p in keyword_patterns)
    assert not any(re.search(p, f"a_{keyword} {keyword}_b {keyword}2") for p in keyword_patterns)
    scopes = dict((text, scope) for scope, text in _scan(grammar, f"def d = a {keyword} b"))
    assert scopes[keyword].startswith(("keyword.control.", "keyword.other.")), scopes
    assert ("variable.other.member.rules", keyword) in _scan(grammar, f"x = g.{keyword}")
    assert ("entity.name.function.rules", keyword) in _scan(grammar, f"def {keyword} = 1")


def test_the_textmate_grammar_has_the_lexers_token_classes():
    grammar = textmate_grammar()
    names = {p.get("name") for p in _patterns(grammar)} | {
        c["name"] for p in _patterns(grammar) for c in p.get("captures", {}).values()}
    for scope in ("comment.line.documentation.rules", "comment.line.number-sign.rules",
                  "string.quoted.double.rules", "meta.interpolation.rules", "constant.numeric.integer.rules",
                  "entity.name.tag.rules", "keyword.control.rules", "keyword.other.rules",
                  "constant.language.rules", "entity.name.function.rules"):
        assert scope in names, scope
    scanned = _scan(grammar, "step zebras [ES-SCORE-ZEBRA-01 DC-AMB-03] = 2 * none  # the herd")
    assert scanned[:2] == [("keyword.other.rules", "step"), ("entity.name.function.rules", "zebras")]
    assert ("entity.name.tag.rules", "ES-SCORE-ZEBRA-01") in scanned
    assert ("entity.name.tag.rules", "DC-AMB-03") in scanned
    assert ("constant.numeric.integer.rules", "2") in scanned
    assert ("constant.language.rules", "none") in scanned
    assert scanned[-1] == ("comment.line.number-sign.rules", "# the herd")
    assert _scan(grammar, "/// doc # not a comment") == [("comment.line.documentation.rules", "/// doc # not a comment")]
    string = grammar["repository"]["string"]
    assert re.match(string["begin"], '"') and re.match(string["end"], '"')
    escape, interpolation = string["patterns"]
    assert re.fullmatch(escape["match"], "\\{") and re.match(interpolation["begin"], "{")
    assert re.match(interpolation["end"], "}") and interpolation["patterns"] == [{"include": "#expression"}]


def test_the_committed_textmate_grammar_is_current():
    committed = TEXTMATE_FILE.read_text(encoding="utf-8") if TEXTMATE_FILE.is_file() else ""
    assert committed == hl.textmate_json(), f"{TEXTMATE_FILE.relative_to(ROOT)} is stale: run {REGENERATE}"
    assert json.loads(committed) == textmate_grammar()


def test_the_vscode_extension_points_at_the_grammar():
    folder = ROOT / "editors" / "vscode"
    manifest = json.loads((folder / "package.json").read_text(encoding="utf-8"))
    (language,) = manifest["contributes"]["languages"]
    (grammar,) = manifest["contributes"]["grammars"]
    assert language["id"] == grammar["language"] == "rules" and language["extensions"] == [".rules"]
    assert (folder / grammar["path"]).resolve() == TEXTMATE_FILE.resolve()
    assert grammar["scopeName"] == textmate_grammar()["scopeName"]
    config = json.loads((folder / language["configuration"]).read_text(encoding="utf-8"))
    assert config["comments"]["lineComment"] == "#"
    assert ["{", "}"] in config["brackets"] and ["[", "]"] in config["brackets"]


# ----------------------------------------------------------------------------- Pygments
def test_pygments_finds_the_lexer_through_its_entry_point():
    registered = {e.name: e.value for e in entry_points(group="pygments.lexers")}
    assert registered.get("rules") == "rulewright.compiler.docgen.lexer:RulesLexer", \
        "reinstall rulewright (pip install -e .) to register the entry point"
    assert type(pygments.lexers.get_lexer_by_name("rules")) is RulesLexer
    assert type(pygments.lexers.get_lexer_by_name("rulewright")) is RulesLexer
    assert type(pygments.lexers.get_lexer_for_filename("scoring.rules")) is RulesLexer


def test_pygments_writes_a_spec_file_as_html():
    path = ROOT / "spec" / "ecosystem_savanna" / "play.rules"
    html = pygments.highlight(path.read_text(encoding="utf-8"), pygments.lexers.get_lexer_by_name("rules"),
                              HtmlFormatter())
    assert html.startswith('<div class="highlight"><pre>')
    for css in ("sd", "c1", "kd", "k", "nl", "nf", "mi", "s2", "si"):     # short names of the token types
        assert f'<span class="{css}">' in html, css
    assert '<span class="err">' not in html
