"""``rulewright verify``: rule consistency, proved or refuted with a witness.

In:  a spec (or a variant file), ``--variant``, ``--against BASE``, the checks to run,
     the time limit and workers of each question, the games per mode, ``--json``,
     ``--out DIR``.
Out: the findings as text (or JSON), its last line counting each status ("12 proved,
     3 sampled, 0 refuted, could not tell: 2"), every finding it could not tell listed; a
     progress bar on standard error while the checks run (on a terminal, not with
     ``--no-progress``); witness files in ``--out``; exit 0 when nothing is refuted (some
     findings UNKNOWN included: the text says so), 1 when a guarantee is broken (a
     counterexample) or the spec has an error, 2 on bad input.
"""
from __future__ import annotations

import json
import sys
import time

from rulewright.app import verifying
from rulewright.cli import terminal
from rulewright.cli.common import _load


def cmd_verify(args) -> int:
    """The checks run (the job: ``app.verifying``), the report printed."""
    kinds = verifying.checks_named(args.check)
    program = _load(args.spec, args)
    base = _load(args.against, args, sets={}) if args.against else None
    with _Progress(enabled=not args.no_progress) as bar:
        report = verifying.verify_rules(program, args.spec, base=base, against=args.against or "", checks=kinds,
                                        time_limit=args.time_limit, workers=args.workers, games=args.games,
                                        positions=args.positions, progress=bar.update)
    if args.out:
        report.write_witnesses(args.out)
    if args.json:
        print(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    else:
        print(report_text(report, everything=args.all))
    return 1 if report.refuted() else 0


def report_text(report, everything: bool = False) -> str:
    """The findings for people, as the command line names its options (``--all``)."""
    return verifying.report_text(report, everything, verifying.COMMAND_LINE_OPTIONS)


class _Progress:
    """A progress bar on standard error (rich draws it on a terminal only; nothing is
    written when standard error is a file or a pipe, nor with ``--no-progress``): how far
    the checks are (it moves as each item of a check is done), the time taken, an
    estimate of the time left, and what runs, in words.

    The bar draws with control sequences of its own (a carriage return, cursor moves):
    it writes them to the terminal underneath the printer (``terminal.raw``), the one
    place that does. What it shows of the spec (the name of the definition being
    checked) goes through ``terminal.visible`` first and is never read as rich markup;
    nothing else is written through rich while it draws (no redirection of the streams:
    a line printed meanwhile goes through the printer)."""

    def __init__(self, enabled: bool):
        self.enabled = enabled and sys.stderr.isatty()
        self.bar = self.task = None
        self.started = time.monotonic()

    def __enter__(self):
        if self.enabled:
            from rich.console import Console        # (rich draws the bar: loaded for a terminal only)
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn  # (the same)
            self.bar = Progress(TextColumn("verify", markup=False), BarColumn(),
                                TextColumn("{task.percentage:>3.0f}%", markup=False),
                                TimeElapsedColumn(), TextColumn("{task.fields[left]}", markup=False),
                                TextColumn("{task.description}", markup=False),
                                console=Console(file=terminal.raw(sys.stderr), markup=False, emoji=False,
                                                highlight=False),
                                transient=True, redirect_stdout=False, redirect_stderr=False)
            self.bar.__enter__()
            self.task = self.bar.add_task("", total=1.0, left="")
        self.started = time.monotonic()
        return self

    def update(self, what: str, fraction: float) -> None:
        if self.bar is not None:
            self.bar.update(self.task, completed=fraction, description=terminal.visible(what[:70]),
                            left=time_left(time.monotonic() - self.started, fraction))

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.__exit__(*exc)
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
