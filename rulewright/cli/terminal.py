"""The one printer of the command line: no file can drive the terminal.

In:  any text a command prints (a spec's titles, doc comments, names and messages, a
     table's cells, a state file's strings, a path, an error message).
Out: the same text with every character that could drive a terminal or disguise text
     shown visibly, as an escape: the control characters (C0 but tab and new line, DEL,
     C1: ``\\x1b``, ``\\x07``, ``\\r``, ``\\u009b``), the bidirectional overrides and
     isolates and the other invisible format characters (``\\u202e``, ``\\u200b``), the
     line and paragraph separators and lone surrogates.

A title holding OSC 0 (``ESC ] 0 ; ... BEL``) would set the window's title, OSC 52
would write the clipboard, CSI 2J would clear the screen, a right-to-left override
would show a text backwards: printed through ``visible`` each is a few harmless
characters. Text without such characters is printed exactly as it is.

``main`` wraps standard output and standard error in ``VisibleStream`` for the whole
command (``shielded``), so every ``print`` of every command goes through ``visible``;
what has to draw on the terminal itself (the progress bar of ``verify``) writes its
own control sequences to ``raw(stream)``, the stream underneath, and passes the texts
it shows through ``visible`` first.

The escapes are those of JSON for the characters JSON leaves as they are (``\\u007f``,
``\\u0085``, ``\\u202e``): JSON output stays valid and reads back as the same texts (C0
characters never reach it raw: JSON writes them as ``\\u001b``).
"""
from __future__ import annotations

import io
import re
import sys
from contextlib import contextmanager

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


class VisibleStream(io.TextIOBase):
    """A text stream that writes everything through ``visible`` to the stream it wraps
    (its ``raw``). Everything else (``isatty``, ``encoding``, ``fileno``, ``flush``)
    is the wrapped stream's."""

    def __init__(self, raw):
        self.raw = raw

    def write(self, text) -> int:
        self.raw.write(visible(text))
        return len(text)

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        self.raw.flush()

    def isatty(self) -> bool:
        return self.raw.isatty()

    def fileno(self) -> int:
        return self.raw.fileno()

    def writable(self) -> bool:
        return True

    def readable(self) -> bool:
        return False

    def close(self) -> None:       # the wrapped stream is not ours to close
        self.flush()

    @property
    def closed(self) -> bool:
        return getattr(self.raw, "closed", False)

    @property
    def encoding(self):
        return getattr(self.raw, "encoding", "utf-8")

    @property
    def errors(self):
        return getattr(self.raw, "errors", "strict")

    @property
    def buffer(self):
        # (the bytes underneath would bypass the printer: there are none to write to)
        raise AttributeError("the terminal's streams take text only (rulewright.cli.terminal)")

    def __getattr__(self, name):
        return getattr(self.raw, name)


def raw(stream):
    """The stream underneath a ``VisibleStream`` (the terminal itself): for what draws on
    it with its own control sequences, and nothing else. Anything else is returned as
    it is."""
    return stream.raw if isinstance(stream, VisibleStream) else stream


@contextmanager
def shielded():
    """Standard output and standard error wrapped in ``VisibleStream`` while the block
    runs, then restored (whatever the block raised, SystemExit included)."""
    out, err = sys.stdout, sys.stderr
    sys.stdout = out if isinstance(out, VisibleStream) else VisibleStream(out)
    sys.stderr = err if isinstance(err, VisibleStream) else VisibleStream(err)
    try:
        yield
    finally:
        try:
            sys.stdout.flush()
        except (OSError, ValueError):
            pass
        sys.stdout, sys.stderr = out, err
