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
import sys
from contextlib import contextmanager

from rulewright.compiler.visible import hidden, visible  # noqa: F401  (the one rule, shared with the pages)


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
