"""Text -> Lark parse tree.

In:  the text of one ``.rules`` file and its path.
Out: a ``lark.Tree`` with positions (``propagate_positions=True``), or a
     ``SpecSyntaxError`` whose diagnostic names what was expected.
"""
from __future__ import annotations

import hashlib
import re
from functools import lru_cache
from pathlib import Path

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from rulewright.compiler import cache
from rulewright.compiler.diagnostics import Diagnostic, Span, SpecSyntaxError, did_you_mean, register_source

GRAMMAR_PATH = Path(__file__).with_name("grammar.lark")

KEYWORDS = sorted({
    "game", "switch", "param", "enum", "table", "from", "grid", "by", "of", "floating",
    "relation", "def", "rule", "outcome", "estimate", "pile", "set", "list", "scoring", "layer", "step",
    "state", "per", "seat", "procedure", "mode", "players", "seats", "query", "let", "choose",
    "in", "subset", "sized", "where", "at", "random", "points", "mark", "shuffle", "deal",
    "to", "move", "place", "on", "pass", "repeat", "for", "simultaneously", "if", "else",
    "then", "do", "report", "input", "require", "maximize", "minimize", "or", "and", "not",
    "variant", "extends", "override", "remove", "add", "property", "holds", "domain",
    "example", "expect", "section", "swap",
})

# How a terminal is named in "expected ..." messages.
_TERMINAL_WORDS = {
    "NAME": "a name", "INT": "a number", "SIGNED_INT": "a number", "STRING": "a quoted text",
    "RULE_ID": "a rule ID", "DOC": "a doc comment", "COMP_OP": "a comparison",
    "ADD_OP": "'+' or '-'", "MUL_OP": "'*', '//' or '%'", "FLOATING": "'floating'",
    "$END": "the end of the file",
}


class _WholeWords:
    """Post-lexer that keeps NAME acceptable in every state, so a keyword is only a
    keyword as a whole word: ``defn`` is one (unknown) name, not ``def`` + ``n``."""

    always_accept = ("NAME",)

    def process(self, stream):
        return stream


def _cache_file(grammar: str) -> str | bool:
    """Where Lark keeps the parser's tables between runs (see ``cache``): Lark checks
    the grammar's hash and its own version recorded in the file and rebuilds a stale
    one."""
    where = cache.directory()
    if where is None:
        return False
    return str(where / f"grammar-{hashlib.sha256(grammar.encode('utf-8')).hexdigest()[:16]}.lark")


@lru_cache(maxsize=1)
def parser() -> Lark:
    grammar = GRAMMAR_PATH.read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr", lexer="contextual", postlex=_WholeWords(),
                propagate_positions=True, maybe_placeholders=True, cache=_cache_file(grammar))


def _describe(terminal: str) -> str:
    if terminal in _TERMINAL_WORDS:
        return _TERMINAL_WORDS[terminal]
    try:
        pattern = parser().get_terminal(terminal).pattern
    except KeyError:
        return terminal.lower()
    if pattern.type == "str":
        return f"'{pattern.value}'"
    return terminal.lower()


def _token_text(token: Token) -> str:
    if token.type == "$END":
        return "end of file"
    return f"'{token.value}'"


# The deepest a file's parse tree may nest (the shipped specs reach 23): every later
# stage walks expressions recursively, and the generated Python nests with them.
MOST_NESTING = 80


def parse_text(text: str, path: str) -> Tree:
    register_source(path, text)
    try:
        tree = parser().parse(text)
    except UnexpectedInput as exc:
        raise SpecSyntaxError(_syntax_diagnostic(exc, text, path)) from None
    _within_nesting(tree, path)
    return tree


def _within_nesting(tree: Tree, path: str) -> None:
    """A parse tree deeper than ``MOST_NESTING`` is refused at the first node past it
    (walked without recursion, so any depth is measured)."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MOST_NESTING:
            meta = node.meta
            line, col = (meta.line, meta.column) if not meta.empty else (1, 1)
            raise SpecSyntaxError(Diagnostic(
                Span(path, line, col, line, col + 1),
                f"an expression nested more than {MOST_NESTING} levels deep",
                "split it into definitions (def NAME = ...) and use their names"))
        stack.extend((c, depth + 1) for c in node.children if isinstance(c, Tree))


def _syntax_diagnostic(exc: UnexpectedInput, text: str, path: str) -> Diagnostic:
    line = getattr(exc, "line", 1) or 1
    col = getattr(exc, "column", 1) or 1
    hint = None
    if isinstance(exc, UnexpectedCharacters):
        char = text[exc.pos_in_stream] if exc.pos_in_stream < len(text) else "?"
        span = Span(path, line, col, line, col + 1)
        message = f"unexpected character '{char}'"
        if char == "'":
            hint = 'texts are written between double quotes: "like this"'
        elif char.isupper():
            before = text[:exc.pos_in_stream].rstrip(" \t")
            if before.endswith("[") or re.search(r"\[[A-Z0-9 -]*$", before):
                word = re.match(r"[A-Za-z0-9_-]*", text[exc.pos_in_stream:]).group(0)
                message = f"'{word}' is not a rule ID"
                span = Span(path, line, col, line, col + max(1, len(word)))
                hint = ("a rule ID is upper-case letters and digits in parts joined by single hyphens, "
                        "such as DC-ACT-03 or ES-SCORE-01")
            else:
                hint = "names are written in lower case (snake_case); rule IDs go in [brackets]"
        return Diagnostic(span, message, hint)
    if isinstance(exc, UnexpectedEOF):
        lines = text.splitlines() or [""]
        span = Span(path, len(lines), len(lines[-1]) + 1, len(lines), len(lines[-1]) + 2)
        expected = sorted({_describe(t) for t in exc.expected})
        return Diagnostic(span, "unexpected end of file; expected " + _join(expected),
                          "a '{' may be missing its '}'")
    assert isinstance(exc, UnexpectedToken)
    token = exc.token
    if token.type == "$END":
        lines = text.splitlines() or [""]
        span = Span(path, len(lines), len(lines[-1]) + 1, len(lines), len(lines[-1]) + 2)
    else:
        span = Span(path, token.line, token.column, token.end_line or token.line,
                    token.end_column or token.column + len(str(token)))
    expected_terms = set(exc.expected or ())
    expected = sorted({_describe(t) for t in expected_terms if not t.startswith("__")})
    message = f"unexpected {_token_text(token)}"
    if token.type == "$END" and text.rstrip().splitlines()[-1:] and \
            text.rstrip().splitlines()[-1].lstrip().startswith("///"):
        return Diagnostic(span, "a doc comment (///) with no definition after it",
                          "a doc comment documents the definition on the next lines; write that definition, "
                          "or make the line a plain comment with #")
    if expected and len(expected) <= 8:
        message += "; expected " + _join(expected)
    if token.type == "NAME" and str(token) in KEYWORDS:
        message = f"unexpected keyword '{token}'" + message[len(f"unexpected {_token_text(token)}"):]
        if not any(f"'{b}'" in expected for b in "})]"):
            hint = f"'{token}' is a keyword and cannot be used here"
    elif token.type == "NAME":
        keywords = [k for k in KEYWORDS if f"'{k}'" in expected] or KEYWORDS
        suggestion = did_you_mean(str(token), keywords)
        if suggestion:
            hint = suggestion
    hint = _variant_item_hint(text, span) or hint
    if hint is None and ("'}'" in expected or "')'" in expected or "']'" in expected) \
            and token.type not in ("RBRACE", "RPAR", "RSQB"):
        hint = "a bracket opened before may be missing its closing one"
    return Diagnostic(span, message, hint)


# What a variant item (or a table row) written another way means, by its line.
_ITEM_HINTS = (
    (re.compile(r"^\s*(remove|override)\s+field\b"),
     lambda m: f"a variant cannot {m[1]} one field: override the whole record instead; "
               "it can add one ('add field RECORD.NAME: TYPE = default')"),
    (re.compile(r"^\s*override\s+row\b"),
     lambda m: "a row's values are changed column by column: 'override row TABLE.NAME: column = value, ...'"),
    (re.compile(r"^\s*remove\s+row\b"),
     lambda m: "a row is named with its table (or a value with its enum): 'remove row TABLE.NAME'"),
    (re.compile(r"^\s*(override|remove|add)\s+step\s+[a-z_][a-z0-9_]*\s*([{=\[]|after|before|$)"),
     lambda m: f"a step is named with its scoring, procedure or mode: '{m[1]} step OWNER.STEP'"),
    (re.compile(r"^\s*add\s+field\s+[a-z_][a-z0-9_]*\s*[:\[]"),
     lambda m: "a field is named with its record: 'add field RECORD.NAME: TYPE = default'"),
    (re.compile(r"^\s*(add\s+row\b.*|[a-z_][a-z0-9_]*\s*)\|.*[\[{]"),
     lambda m: "a cell holding several values is written between quotes, separated by spaces "
               "(\"a b\"), a list of such collections with '/' (\"a b / c\")"),
)


def _variant_item_hint(text: str, span: Span) -> str | None:
    """A hint for a variant item (or a table row) its line writes another way."""
    lines = text.splitlines()
    if not 1 <= span.line <= len(lines):
        return None
    for pattern, hint in _ITEM_HINTS:
        m = pattern.match(lines[span.line - 1])
        if m:
            return hint(m)
    return None


def _join(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]
