"""``rulewright verify``: rule consistency, proved or refuted with a witness.

In:  a spec (or a variant file), ``--variant``, ``--against BASE``, the checks to run,
     the time limit and workers of each question, the games per mode, ``--json``,
     ``--out DIR``.
Out: the findings as text (or JSON), a progress bar on standard error while the checks
     run, witness files in ``--out``; exit 0 when nothing is refuted, 1 when a guarantee
     is broken (a counterexample) or the spec has an error, 2 on bad input.
"""
from __future__ import annotations

import json
import sys

from rulewright.cli import terminal
from rulewright.cli.common import UsageError, _load


def cmd_verify(args) -> int:
    # the solver, and OR-Tools with it, loads only for the commands that solve
    from rulewright.solver.verify.run import CHECKS, verify
    kinds = None
    if args.check:
        kinds = {k.strip() for part in args.check for k in part.split(",") if k.strip()}
        unknown = sorted(kinds - set(CHECKS))
        if unknown:
            raise UsageError(f"--check: no check '{unknown[0]}'; the checks are: {', '.join(CHECKS)}")
    program = _load(args.spec, args)
    base = None
    if args.against:
        base = _load(args.against, args, sets={})
        if base.name != program.name:
            raise UsageError(f"--against {args.against} is a spec of another game ({base.title}) than "
                             f"{args.spec} ({program.title}): differs compares versions of one game")
        if kinds is None:
            kinds = {"differs"}
    elif kinds is not None and "differs" in kinds:
        raise UsageError("--check differs compares a variant with its base: name the base with --against BASE")
    with _Progress(enabled=not args.no_progress) as bar:
        report = verify(program, args.spec, kinds, time_limit=args.time_limit, workers=args.workers,
                        games=args.games, base=base, positions=args.positions, progress=bar.update)
    if args.out:
        report.write_witnesses(args.out)
    if args.json:
        print(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    else:
        print(report.to_text(everything=args.all))
    return 1 if report.refuted() else 0


class _Progress:
    """A progress bar on standard error (rich draws it on a terminal only; nothing is
    written when standard error is a file or a pipe).

    The bar draws with control sequences of its own (a carriage return, cursor moves):
    it writes them to the terminal underneath the printer (``terminal.raw``), the one
    place that does. What it shows of the spec (the name of the definition being
    checked) goes through ``terminal.visible`` first and is never read as rich markup;
    nothing else is written through rich while it draws (no redirection of the streams:
    a line printed meanwhile goes through the printer)."""

    def __init__(self, enabled: bool):
        self.enabled = enabled and sys.stderr.isatty()
        self.bar = self.task = None

    def __enter__(self):
        if self.enabled:
            from rich.console import Console        # (rich draws the bar: loaded for a terminal only)
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn  # (the same)
            self.bar = Progress(TextColumn("verify", markup=False), BarColumn(),
                                TextColumn("{task.percentage:>3.0f}%", markup=False),
                                TimeElapsedColumn(), TextColumn("{task.description}", markup=False),
                                console=Console(file=terminal.raw(sys.stderr), markup=False, emoji=False,
                                                highlight=False),
                                transient=True, redirect_stdout=False, redirect_stderr=False)
            self.bar.__enter__()
            self.task = self.bar.add_task("", total=1.0)
        return self

    def update(self, what: str, fraction: float) -> None:
        if self.bar is not None:
            self.bar.update(self.task, completed=fraction, description=terminal.visible(what[:60]))

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.__exit__(*exc)
        return False
