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

Colour and quiet (``MessageStream``, standard error): on a terminal, and unless
``NO_COLOR`` is set (to any non-empty value), ``--no-color`` is given or ``TERM`` is
``dumb``, the word ``error:`` of an error and its caret line are coloured. The colour
codes are added to each line after it went through ``visible``: they come only from
this module, never from the text of a file. With ``--quiet``, warnings (each
``warning:`` line with the lines that belong to it) and progress lines are held back;
errors, and every line that is neither, are always written.

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
import os
import re
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
    it is. (A line a ``MessageStream`` holds is written first: what draws comes after.)"""
    if isinstance(stream, MessageStream):
        stream.write_held()
    return stream.raw if isinstance(stream, VisibleStream) else stream


_SGR = re.compile(r"\x1b\[[0-9;]*m")          # a colour or a font weight, nothing else


def visible_but_colour(text: str) -> str:
    """``text`` through ``visible``, but for its colour codes (SGR sequences: ``ESC [
    ... m``), kept as they are: for the texts that our own styling coloured (the help).

    In:  a text coloured by rulewright itself.
    Out: the text, every other control character shown as an escape."""
    out, at = [], 0
    for code in _SGR.finditer(text):
        out.append(visible(text[at:code.start()]))
        out.append(code.group())
        at = code.end()
    out.append(visible(text[at:]))
    return "".join(out)


class _Settings:
    """What the command line asked for: no colour (``--no-color``), quiet (``--quiet``)."""
    no_colour = False
    quiet = False


def configure(*, no_colour: bool = False, quiet: bool = False) -> None:
    """The command's own wishes, read from its command line (``--no-color``, ``--quiet``).

    In:  whether colour is refused, whether chatter is held back.
    Out: nothing; ``colour`` and the streams of ``shielded`` follow them from now on."""
    _Settings.no_colour, _Settings.quiet = no_colour, quiet


def quiet() -> bool:
    """Whether ``--quiet`` was given.

    In:  nothing.
    Out: True when no progress and no warnings are to be shown (errors always are)."""
    return _Settings.quiet


def colour(stream) -> bool:
    """Whether our own styling may colour what is written to ``stream``.

    In:  a stream (``sys.stdout``, ``sys.stderr``, wrapped or not).
    Out: True on a terminal only, and never with ``NO_COLOR`` set to a non-empty value,
         ``--no-color`` given, or ``TERM=dumb``."""
    if _Settings.no_colour or os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    try:
        return bool(raw(stream).isatty())
    except (AttributeError, ValueError, OSError):
        return False


# The severity of a message's first line: at its start ("error: ...") or after its
# place ("spec/x.rules:3:4: error: ..."); the first one of the line counts.
_SEVERITY = re.compile(r"(^|: )(error|warning|note)(:)")
_CARET = re.compile(r"^( +\| +)(\^+)$")          # the caret line under a quoted line: no number
_PROGRESS = re.compile(r"^measuring ")            # docs --measure: what it plays now
STYLE = {"error": "\x1b[1;31m", "caret": "\x1b[1;32m"}
RESET = "\x1b[0m"


class MessageStream(VisibleStream):
    """Standard error: everything through ``visible``, as ``VisibleStream``; and when it
    styles (``colour``) or is quiet, each whole line, once through ``visible``, coloured
    or held back (see the module's doc). A part of a line waits for its end (or a flush).

    In:  the stream it wraps; whether to colour; whether to hold back chatter.
    Out: the lines written to the wrapped stream."""

    def __init__(self, raw, styled: bool = False, quiet: bool = False):
        super().__init__(raw)
        self.styled, self.quiet = styled, quiet
        self.held = ""
        self.block = None           # the severity of the message the lines belong to

    def write(self, text) -> int:
        if not (self.styled or self.quiet):
            return super().write(text)
        self.held += visible(text)
        *lines, self.held = self.held.split("\n")
        for line in lines:
            self._line(line, "\n")
        return len(text)

    def write_held(self) -> None:
        if self.held:
            held, self.held = self.held, ""
            self._line(held, "")

    def flush(self) -> None:
        self.write_held()
        self.raw.flush()

    def _line(self, line: str, end: str) -> None:
        # a line of its own (not indented: no quoted line of a file) starts a message
        found = None if line[:1] in (" ", "\t") else _SEVERITY.search(line)
        if found and found.group(2) in ("error", "warning"):
            self.block = found.group(2)
        elif not found and line[:1] not in ("", " ", "\t"):
            self.block = "progress" if _PROGRESS.match(line) else None
        if self.quiet and self.block in ("warning", "progress"):
            return
        if self.styled and self.block == "error":
            caret = _CARET.match(line)
            if caret:
                line = f"{caret.group(1)}{STYLE['caret']}{caret.group(2)}{RESET}"
            elif found and found.group(2) == "error":
                start, stop = found.start(2), found.end(3)
                line = f"{line[:start]}{STYLE['error']}{line[start:stop]}{RESET}{line[stop:]}"
        self.raw.write(line + end)


@contextmanager
def shielded():
    """Standard output wrapped in ``VisibleStream``, standard error in ``MessageStream``
    (coloured on a terminal, quiet with ``--quiet``: ``configure``), while the block
    runs, then restored (whatever the block raised, SystemExit included)."""
    out, err = sys.stdout, sys.stderr
    sys.stdout = out if isinstance(out, VisibleStream) else VisibleStream(out)
    sys.stderr = err if isinstance(err, VisibleStream) else \
        MessageStream(err, styled=colour(err), quiet=_Settings.quiet)
    try:
        yield
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        sys.stdout, sys.stderr = out, err
