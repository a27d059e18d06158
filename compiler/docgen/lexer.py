"""Syntax highlighting of ``.rules`` files, from the keywords of the grammar itself.

In:  ``compiler/syntax/grammar.lark`` (read as text: every quoted literal that is a word
     is a keyword, and so is a regex terminal that only spells out words).
Out: ``grammar_keywords()``, the sorted keywords; ``RulesLexer``, a Pygments lexer (the
     ``rules`` language of Pygments, registered by the entry point in pyproject.toml);
     ``textmate_grammar()``, the same token classes as a TextMate grammar for VS Code
     and most editors, committed as ``editors/vscode/syntaxes/rules.tmLanguage.json``::

         python -m rulewright.compiler.docgen.lexer --textmate > editors/vscode/syntaxes/rules.tmLanguage.json

Both look at words, not at the grammar's structure: a keyword is highlighted as one
wherever it stands, except after a dot (``g.step``) and as the name that follows a
definition's keyword or ``let``/``choose``/``for`` (``def mode = ...``). The parser reads
a keyword as a plain name wherever the grammar expects only a name, so a keyword used as
a name anywhere else (a parameter called ``state``) is still shown as a keyword.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from functools import lru_cache
from pathlib import Path

from pygments.lexer import RegexLexer, bygroups, default, include, words
from pygments.token import (Comment, Keyword, Name, Number, Operator, Punctuation, String,
                            Whitespace)

GRAMMAR_PATH = Path(__file__).resolve().parent.parent / "syntax" / "grammar.lark"

# Keywords that start a definition, or change one in a variant: Keyword.Declaration and
# keyword.other (every other keyword of the grammar is Keyword and keyword.control). A
# word listed here that the grammar no longer has is ignored (and a test says so).
DECLARATIONS = frozenset({
    "game", "variant", "extends", "switch", "param", "enum", "table", "grid", "relation",
    "def", "rule", "outcome", "estimate", "scoring", "layer", "step", "state", "per", "procedure",
    "mode", "query", "record", "check", "invariant", "property", "domain",
    "override", "remove", "add", "field", "row",
})
# The declaration keywords the name being defined follows (Name.Function, entity.name.function).
DEFINERS = ("game", "variant", "switch", "param", "enum", "table", "grid", "relation", "def",
            "rule", "outcome", "estimate", "scoring", "layer", "step", "procedure", "mode", "query",
            "record", "check", "invariant", "property", "domain")
# The keywords a bound name follows (Name.Variable, variable.parameter).
BINDERS = ("let", "choose", "for")
# Names with a fixed meaning (resolve/expressions.py): Keyword.Constant, constant.language.
CONSTANTS = ("true", "false", "none")

_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
# The grammar's text, one piece at a time: a quoted literal (with its flags, and a ".."
# after it when it starts a range such as "a".."z"), a comment, a /regex/, anything else.
_GRAMMAR_PIECE = re.compile(r"""
      (?P<string>"(?:[^"\\\n]|\\.)*")(?P<sflags>i?)(?P<range>[ \t]*\.\.)?
    | (?P<comment>(?://|\#)[^\n]*)
    | (?P<regex>/(?:[^/\\\n]|\\.)+/)(?P<rflags>[imslux]*)
    | .
""", re.VERBOSE | re.DOTALL)
_REGEX_GROUPING = re.compile(r"\\b|\(\?[imsx]*:|[()]")

NAME = r"[A-Za-z_][A-Za-z0-9_]*"
RULE_ID = r"[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+"          # the grammar's RULE_ID
OPERATORS = r"==|!=|<=|>=|//|\.\.|[-+*%<>=]"
PUNCTUATION = r"[(){}\[\],:.|]"


def _regex_words(body: str) -> list[str]:
    """The words a regex terminal spells out (``/\\b(?:and|or)\\b/``), or none when it
    matches anything else (``/[a-z_][a-z0-9_]*/``)."""
    alternatives = _REGEX_GROUPING.sub("", body).split("|")
    return alternatives if all(_WORD.fullmatch(a) for a in alternatives) else []


@lru_cache(maxsize=None)
def _grammar_words(path: Path = GRAMMAR_PATH) -> tuple[tuple[str, bool], ...]:
    """(keyword, case-insensitive) for every keyword of the grammar, sorted."""
    text = path.read_text(encoding="utf-8")
    found: dict[str, bool] = {}
    skip_next_string = False            # the end of a range "a".."z"
    for m in _GRAMMAR_PIECE.finditer(text):
        if m.group("string"):
            if skip_next_string or m.group("range"):
                skip_next_string = bool(m.group("range"))
                continue
            value = m.group("string")[1:-1]
            if _WORD.fullmatch(value):
                found[value] = found.get(value, False) or m.group("sflags") == "i"
        elif m.group("regex"):
            skip_next_string = False
            for value in _regex_words(m.group("regex")[1:-1]):
                found[value] = found.get(value, False) or "i" in m.group("rflags")
        elif not m.group(0).isspace():
            skip_next_string = False
    return tuple(sorted(found.items()))


def grammar_keywords(path: Path | None = None) -> list[str]:
    """Every keyword of ``grammar.lark`` (or of the grammar at ``path``), deduplicated and
    sorted: each quoted literal that is a word (a letter, then letters, digits or
    underscores), as written (``"..."i`` included), and each word a regex terminal only
    spells out. Literals in comments and the ends of a range ``"a".."z"`` are not words
    of the language."""
    return [word for word, _ in _grammar_words(path or GRAMMAR_PATH)]


def _keyword_classes() -> tuple[list[str], list[str], list[str]]:
    """(declarations, other keywords, case-insensitive ones) of the grammar; a keyword
    that is also a constant is highlighted as the constant."""
    pairs = [(w, i) for w, i in _grammar_words() if w not in CONSTANTS]
    declarations = [w for w, i in pairs if w in DECLARATIONS and not i]
    control = [w for w, i in pairs if w not in DECLARATIONS and not i]
    insensitive = [w for w, i in pairs if i]
    return declarations, control, insensitive


def _alternatives(names) -> str:
    return r"\b(?:" + "|".join(sorted(names)) + r")\b"


# ----------------------------------------------------------------------------- Pygments
def _keyword_rules() -> list:
    declarations, control, insensitive = _keyword_classes()
    rules = [(words(CONSTANTS, prefix=r"\b", suffix=r"\b"), Keyword.Constant)]
    if declarations:
        rules.append((words(declarations, prefix=r"\b", suffix=r"\b"), Keyword.Declaration))
    if control:
        rules.append((words(control, prefix=r"\b", suffix=r"\b"), Keyword))
    if insensitive:
        rules.append(("(?i:" + _alternatives(insensitive) + ")", Keyword))
    return rules


class RulesLexer(RegexLexer):
    """The rulewright language (``.rules`` files): doc comments, comments, strings with
    ``{expression}`` parts, rulebook IDs, the grammar's keywords, numbers, operators."""

    name = "Rules"
    aliases = ["rules", "rulewright"]
    filenames = ["*.rules"]
    mimetypes = ["text/x-rulewright"]

    tokens = {
        "root": [
            (r"\s+", Whitespace),
            (r"///[^\n]*", String.Doc),
            (r"#[^\n]*", Comment.Single),
            (r'"', String.Double, "string"),
            (r"\b(" + "|".join(DEFINERS) + r")(\s+)(" + NAME + ")",
             bygroups(Keyword.Declaration, Whitespace, Name.Function)),
            (r"\b(" + "|".join(BINDERS) + r")(\s+)(" + NAME + ")",
             bygroups(Keyword, Whitespace, Name.Variable)),
            include("expression"),
        ],
        # what may also stand inside a string's {...}: no comment, no string, one line
        "expression": [
            (r"[^\S\n]+", Whitespace),
            (RULE_ID, Name.Label),
            (r"(?<!\.)(\.)(" + NAME + ")", bygroups(Punctuation, Name.Attribute)),
            *_keyword_rules(),
            (r"[0-9]+", Number.Integer),
            (NAME, Name),
            (OPERATORS, Operator),
            (PUNCTUATION, Punctuation),
        ],
        "string": [
            (r'"', String.Double, "#pop"),
            (r"\n", Whitespace, "#pop"),                # a string never spans lines
            (r"\\.", String.Escape),
            (r"\{", String.Interpol, "interpolation"),
            (r'[^"\\{\n]+', String.Double),
            (r"\\", String.Double),
        ],
        "interpolation": [
            (r"\}", String.Interpol, "#pop"),
            include("expression"),
            default("#pop"),            # a '{' never closed: the string goes on
        ],
    }


# ---------------------------------------------------------------------------- TextMate
def textmate_grammar() -> dict:
    """The TextMate grammar of ``.rules`` files (VS Code, Sublime Text, and the editors
    that read TextMate grammars): the lexer's token classes, as scopes. Its patterns stay
    in the subset of regular expressions Python's ``re`` and Oniguruma share."""
    declarations, control, insensitive = _keyword_classes()
    expression = [
        {"name": "entity.name.tag.rules", "match": r"\b" + RULE_ID + r"\b"},
        {"match": r"(?<!\.)(\.)(" + NAME + ")",
         "captures": {"1": {"name": "punctuation.accessor.rules"},
                      "2": {"name": "variable.other.member.rules"}}},
        {"name": "constant.language.rules", "match": _alternatives(CONSTANTS)},
        {"name": "keyword.other.rules", "match": _alternatives(declarations)},
        {"name": "keyword.control.rules", "match": _alternatives(control)},
    ]
    if insensitive:
        expression.append({"name": "keyword.control.rules", "match": "(?i:" + _alternatives(insensitive) + ")"})
    expression += [
        {"name": "constant.numeric.integer.rules", "match": r"\b[0-9]+\b"},
        {"name": "variable.other.rules", "match": r"\b" + NAME + r"\b"},
        {"name": "keyword.operator.rules", "match": OPERATORS},
        {"name": "punctuation.rules", "match": PUNCTUATION},
    ]
    return {
        "$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
        "name": "Rules",
        "scopeName": "source.rules",
        "fileTypes": ["rules"],
        "comment": "Generated by python -m rulewright.compiler.docgen.lexer --textmate; do not edit.",
        "patterns": [{"include": "#doc-comment"}, {"include": "#comment"}, {"include": "#string"},
                     {"include": "#definition"}, {"include": "#binding"}, {"include": "#expression"}],
        "repository": {
            "doc-comment": {"name": "comment.line.documentation.rules", "match": "///.*$"},
            "comment": {"name": "comment.line.number-sign.rules", "match": "#.*$"},
            "string": {
                "name": "string.quoted.double.rules",
                "begin": '"', "end": '"|$',
                "beginCaptures": {"0": {"name": "punctuation.definition.string.begin.rules"}},
                "endCaptures": {"0": {"name": "punctuation.definition.string.end.rules"}},
                "patterns": [
                    {"name": "constant.character.escape.rules", "match": r"\\."},
                    {"name": "meta.interpolation.rules",
                     "begin": r"\{", "end": r'\}|(?=")|$',
                     "beginCaptures": {"0": {"name": "punctuation.section.interpolation.begin.rules"}},
                     "endCaptures": {"0": {"name": "punctuation.section.interpolation.end.rules"}},
                     "patterns": [{"include": "#expression"}]},
                ],
            },
            "definition": {
                "match": r"\b(" + "|".join(DEFINERS) + r")\s+(" + NAME + ")",
                "captures": {"1": {"name": "keyword.other.rules"},
                             "2": {"name": "entity.name.function.rules"}},
            },
            "binding": {
                "match": r"\b(" + "|".join(BINDERS) + r")\s+(" + NAME + ")",
                "captures": {"1": {"name": "keyword.control.rules"},
                             "2": {"name": "variable.parameter.rules"}},
            },
            "expression": {"patterns": expression},
        },
    }


def textmate_json() -> str:
    """The committed form of ``textmate_grammar()``."""
    return json.dumps(textmate_grammar(), indent=2, sort_keys=True) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m rulewright.compiler.docgen.lexer",
                                 description="Syntax highlighting of .rules files.")
    what = ap.add_mutually_exclusive_group(required=True)
    what.add_argument("--textmate", action="store_true",
                      help="print the TextMate grammar (editors/vscode/syntaxes/rules.tmLanguage.json)")
    what.add_argument("--keywords", action="store_true", help="print the grammar's keywords, one a line")
    args = ap.parse_args(argv)
    sys.stdout.write(textmate_json() if args.textmate else "".join(k + "\n" for k in grammar_keywords()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
