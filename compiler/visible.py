"""Characters that could drive a terminal or disguise a text -> the same text, shown visibly.

In:  any text from a file (a spec's titles, doc comments, names and messages, a table's
     cells, a state file's strings, a translation, a path).
Out: the text with every control character (C0 but tab and new line, DEL, C1:
     ``\\x1b``, ``\\x07``, ``\\r``, ``\\u009b``), every invisible format character (the
     bidirectional overrides and isolates ``\\u202e``, the zero-width characters
     ``\\u200b``, the byte order mark, the tags), the line and paragraph separators and a
     lone surrogate written as an escape; a text without them as it is.

One rule for every place rulewright shows a text: the command line's printer
(``rulewright.cli.terminal``) and the generated pages (``compiler.docgen.markup``).
"""
from __future__ import annotations

import re

# C0 but tab (09) and new line (0a), DEL, C1; the format characters (Unicode's Cf:
# the soft hyphen, Arabic signs, the zero-width characters, the marks and
# bidirectional overrides and isolates, the invisible operators, the byte order mark,
# the interlinear annotations, the tags); the line and paragraph separators (Zl, Zp);
# the surrogates (only a lone one is ever in a text). A test checks the list against
# the Unicode database of the running Python.
_SHOWN = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f"
    "\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e"
    "\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f"
    "\ud800-\udfff\ufeff\ufff9-\ufffb"
    "\U000110bd\U000110cd\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0001\U000e0020-\U000e007f]")

_NAMED = {"\r": "\\r", "\x1b": "\\x1b", "\x07": "\\x07", "\x08": "\\x08", "\x00": "\\x00"}


def _escape(m: re.Match) -> str:
    c = m.group()
    named = _NAMED.get(c)
    if named is not None:
        return named
    code = ord(c)
    if code < 0x20:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def visible(text: str) -> str:
    """``text`` with each character that could drive a terminal or hide text shown as
    an escape; the text itself when it holds none."""
    if not isinstance(text, str):
        text = str(text)
    return _SHOWN.sub(_escape, text)


def hidden(text: str) -> bool:
    """Whether ``text`` holds a character ``visible`` would show as an escape."""
    return _SHOWN.search(text) is not None


__all__ = ["visible", "hidden"]
