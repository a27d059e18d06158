"""Tables fitted to the terminal's width, drawn by rich, and the progress bar of the
commands that take a while.

In:  headers and rows of text (a spec's names, titles and values included), the stream
     they are for; for a bar, what is being done and how far it is.
Out: the tables as text no wider than the terminal (``COLUMNS`` when set, else the
     terminal's width, else 100 in a pipe or a file), written to standard output:
     coloured on a terminal (``terminal.colour``), plain text without a single escape
     sequence elsewhere; a bar on standard error, on a terminal only and not with
     ``--quiet`` (nor ``--no-progress``), with what runs, how far, the time taken and
     the time left, gone when the command ends.

Every text a table or a bar shows goes through ``terminal.visible`` first and is given
to rich as a ``Text`` (never read as markup: "[red]" is shown as written); the colour
codes come from rich alone, and are written to the terminal underneath the printer
(``terminal.raw``) only once the rest went through ``visible_but_colour``. rich loads
with the first table or bar drawn, never at start-up.
"""
from __future__ import annotations

import os
import shutil
import sys
import threading
import time

from rulewright.cli import terminal

PIPE_WIDTH = 100        # the width of the tables in a pipe or a file (COLUMNS unset)


def width(stream=None) -> int:
    """The width the tables fit in: ``COLUMNS`` when set, the terminal's own on a
    terminal, else ``PIPE_WIDTH``."""
    stream = stream or sys.stdout
    given = os.environ.get("COLUMNS", "")
    if given.isdigit() and int(given) > 0:
        return max(20, int(given))
    try:
        if terminal.raw(stream).isatty():
            return max(20, shutil.get_terminal_size((PIPE_WIDTH, 24)).columns)
    except (AttributeError, ValueError, OSError):
        pass
    return PIPE_WIDTH


def colour_on(stream=None) -> bool:
    """Whether what is written to ``stream`` may be coloured (the command line's one
    policy: ``terminal.colour``: a terminal, no NO_COLOR, no --no-color, no TERM=dumb)."""
    return terminal.colour(stream or sys.stdout)


def cell(value) -> "object":
    """A rich ``Text`` of a value, through ``visible`` (never read as markup)."""
    from rich.text import Text      # (rich: loaded with the first table drawn)
    if isinstance(value, Text):
        return value
    return Text(terminal.visible(str(value)))


def table(headers: list, rows: list[list], *, title: str | None = None, right: tuple[int, ...] = (),
          bold_rows: tuple[int, ...] = (), header: bool = True, keep: tuple[int, ...] = ()):
    """A rich table: ``headers`` (texts), ``rows`` (lists of texts), the columns of the
    indexes in ``right`` aligned right, the rows of ``bold_rows`` in bold (a total), the
    columns of ``keep`` never broken while the others can be (a place in a file).

    In:  texts of any origin (each goes through ``visible``).
    Out: a ``rich.table.Table`` for ``write`` (with a title: a group of the two)."""
    from rich import box                # (rich: loaded with the first table drawn)
    from rich.table import Table        # (the same)
    from rich.text import Text          # (the same)
    utf = "utf" in (getattr(sys.stdout, "encoding", "") or "").lower()
    t = Table(box=box.SIMPLE_HEAD if utf else box.ASCII,
              show_edge=False, pad_edge=False, show_header=header, header_style="bold", safe_box=True, expand=False)
    if keep:        # (kept whole only when the other columns still have room for their longest word)
        def longest(i: int, words: bool) -> int:
            texts = [terminal.visible(str(r[i])) for r in [headers, *rows]]
            return max((len(w) for t in texts for w in (t.split() if words else [t])), default=0)
        room = sum(longest(i, i not in keep) for i in range(len(headers))) + 3 * len(headers)
        if room > width():
            keep = ()
    for i, h in enumerate(headers):
        t.add_column(cell(h), justify="right" if i in right else "left",
                     overflow="ellipsis" if i in keep else "fold", no_wrap=i in keep)
    for n, row in enumerate(rows):
        t.add_row(*(cell(x) for x in row), style="bold" if n in bold_rows else None)
    if not title:
        return t
    from rich.console import Group      # (the same)
    return Group(Text(terminal.visible(title), style="bold"), t)      # (the title as wide as the page)


def render(*parts, stream=None) -> str:
    """The parts (rich tables, or texts, one per line) as the text written to ``stream``:
    at most ``width(stream)`` characters a line; colour codes only when ``colour_on``."""
    import io                               # (only to draw into)
    from rich.console import Console        # (rich: loaded with the first table drawn)
    coloured = colour_on(stream)
    buf = io.StringIO()
    console = Console(file=buf, width=width(stream), force_terminal=coloured, no_color=not coloured,
                      color_system="standard" if coloured else None, markup=False, emoji=False, highlight=False,
                      legacy_windows=False, soft_wrap=False, force_jupyter=False, force_interactive=False)
    for part in parts:
        console.print(cell(part) if isinstance(part, str) else part, crop=True)
    return "\n".join(line.rstrip() for line in buf.getvalue().split("\n"))


def write(*parts, stream=None) -> None:
    """The parts written to ``stream`` (standard output), in order: a table rendered
    (``render``; in colour through the terminal underneath the printer), a text as the
    line it is, through the printer (a message that names a file and a place is never
    broken: ``wrapped`` fits prose to the width)."""
    stream = stream or sys.stdout
    for part in parts:
        if isinstance(part, str):
            stream.write(part + "\n")
            continue
        text = render(part, stream=stream)
        if colour_on(stream):
            stream.flush()
            out = terminal.raw(stream)
            out.write(terminal.visible_but_colour(text))
            out.flush()
        else:
            stream.write(text)


def wrapped(text: str, stream=None) -> str:
    """Prose fitted to the width of the tables (broken between words)."""
    import textwrap     # (only for the prose beside a table)
    return textwrap.fill(text, width(stream), break_long_words=False, break_on_hyphens=False)


# ------------------------------------------------------------------ progress
def progress_wanted(args=None) -> bool:
    """Whether a bar may be drawn: standard error a terminal, neither ``--quiet`` nor
    ``--no-progress`` given."""
    if terminal.quiet() or getattr(args, "quiet", False) or getattr(args, "no_progress", False):
        return False
    try:
        return bool(terminal.raw(sys.stderr).isatty())
    except (AttributeError, ValueError, OSError):
        return False


class Bar:
    """A progress bar on standard error (nothing at all when ``enabled`` is False): the
    ``label`` (the command's name), a bar, how far, the time taken, the time left (at the
    pace so far) and what runs now, in words. ``update(what, fraction)`` moves it (a
    fraction None: how far is not known, the bar pulses); ``ticking(what, limit)``
    redraws the seconds taken of a step that tells nothing while it runs (a solve: "6 s
    of 60"), and ``watching(tell)`` what ``tell()`` says, from a thread of its own each
    half second, until the block ends.

    The bar draws with control sequences of its own on the terminal underneath the
    printer (``terminal.raw``); the texts it shows go through ``visible`` first and are
    never read as markup. Used as a context manager: gone from the screen at the end."""

    def __init__(self, label: str, enabled: bool):
        self.label, self.enabled = label, enabled
        self.bar = self.task = None
        self.started = time.monotonic()
        self.lock = threading.Lock()

    def __enter__(self):
        if self.enabled:
            from rich.console import Console        # (rich draws the bar: loaded for a terminal only)
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn  # (the same)
            coloured = terminal.colour(sys.stderr)
            console = Console(file=terminal.raw(sys.stderr), markup=False, emoji=False, highlight=False,
                              no_color=not coloured, color_system="standard" if coloured else None)
            self.bar = Progress(TextColumn(terminal.visible(self.label), markup=False), BarColumn(),
                                TextColumn("{task.fields[share]}", markup=False),
                                TimeElapsedColumn(), TextColumn("{task.fields[left]}", markup=False),
                                TextColumn("{task.description}", markup=False),
                                console=console, transient=True, redirect_stdout=False, redirect_stderr=False)
            self.bar.__enter__()
            self.task = self.bar.add_task("", total=1.0, left="", share="  0%")
        self.started = time.monotonic()
        return self

    def update(self, what: str, fraction: float | None, left: str | None = None) -> None:
        """The bar at ``fraction`` (0 to 1; None: not known), ``what`` runs now; the time
        left estimated at the pace so far unless ``left`` says it."""
        if self.bar is None:
            return
        with self.lock:
            if fraction is None:
                self.bar.update(self.task, total=None, description=terminal.visible(what[:70]), left="", share="")
                return
            fraction = min(1.0, max(0.0, fraction))
            self.bar.update(self.task, total=1.0, completed=fraction, description=terminal.visible(what[:70]),
                            share=f"{fraction:>4.0%}",
                            left=time_left(time.monotonic() - self.started, fraction) if left is None else left)

    def say(self, line: str) -> None:
        """A line on standard error: above the bar while it draws (through ``visible``,
        never read as markup), else printed as any other line."""
        if self.bar is None:
            print(line, file=sys.stderr)
            return
        from rich.text import Text      # (rich is loaded: the bar draws)
        with self.lock:
            self.bar.console.print(Text(terminal.visible(line)))

    def restart(self) -> None:
        """The time left estimated from now on (a new part of the work begins)."""
        self.started = time.monotonic()

    def ticking(self, what: str, limit: float) -> "_Ticker":
        """A block during which the bar shows the seconds taken of ``limit``
        (``with bar.ticking("solving best-placement", 60): ...``)."""
        started = time.monotonic()

        def tell():
            spent = time.monotonic() - started
            return f"{what} … {spent:.0f} s of {limit:g}", (spent / limit if limit else None), ""
        return _Ticker(self, tell)

    def watching(self, tell) -> "_Ticker":
        """A block during which the bar shows what ``tell()`` says: (what, fraction or
        None, the time left or None)."""
        return _Ticker(self, tell)

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.__exit__(*exc)
            self.bar = None
        return False


class _Ticker:
    """The thread that redraws a ``Bar`` with what ``tell()`` says each half second;
    stopped (and joined) when its block ends, whatever it raised."""

    def __init__(self, bar: Bar, tell):
        self.owner, self.tell = bar, tell
        self.stop = threading.Event()
        self.thread = None

    def __enter__(self):
        if self.owner.bar is not None:
            self.thread = threading.Thread(target=self._run, name="rulewright-progress", daemon=True)
            self.thread.start()
        return self

    def _run(self) -> None:
        while True:
            what, fraction, left = self.tell()
            self.owner.update(what, fraction, left)
            if self.stop.wait(0.5):
                return

    def __exit__(self, *exc):
        self.stop.set()
        if self.thread is not None:
            self.thread.join(timeout=2)
        return False


def time_left(elapsed: float, fraction: float) -> str:
    """An estimate of the time left, in words, at the pace so far ("" until there is one
    to make: the first seconds, or nothing done yet)."""
    if elapsed < 3 or fraction < 0.01 or fraction >= 1:
        return ""
    left = elapsed * (1 - fraction) / fraction
    if left < 60:
        return f"about {max(5, round(left / 5) * 5):.0f} s left"
    if left < 3600:
        return f"about {round(left / 60):.0f} min left"
    return f"about {left / 3600:.1f} h left"
