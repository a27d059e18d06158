"""``rulewright verify``: rule consistency, proved or refuted with a witness.

In:  a spec (or a variant file), ``--variant``, ``--against BASE``, the checks to run,
     the time limit and workers of each question, the games per mode, ``--json``,
     ``--out DIR``.
Out: the findings as text (or JSON): every finding it could not tell listed, a table of
     the findings counted by check and status, and a last line counting each status
     ("12 proved, 3 sampled, 0 refuted, could not tell: 2"); a
     progress bar on standard error while the checks run (on a terminal, not with
     ``--no-progress``); witness files in ``--out``; exit 0 when nothing is refuted (some
     findings UNKNOWN included: the text says so), 1 when a guarantee is broken (a
     counterexample) or the spec has an error, 2 on bad input.
"""
from __future__ import annotations

import json
import sys

from rulewright.app import verifying
from rulewright.cli.common import _load
from rulewright.cli import tables
from rulewright.cli.tables import Bar, table, write

time_left = tables.time_left       # (where the bar's estimate was first written)


def cmd_verify(args) -> int:
    """The checks run (the job: ``app.verifying``), the report printed."""
    kinds = verifying.checks_named(args.check)
    program = _load(args.spec, args)
    base = _load(args.against, args, sets={}) if args.against else None
    with _Progress(enabled=not args.no_progress) as bar:
        report = verifying.verify_rules(program, args.spec, base=base, against=args.against or "", checks=kinds,
                                        time_limit=args.time_limit, workers=args.workers, games=args.games,
                                        positions=args.positions, progress=bar.update, fresh=args.fresh,
                                        only=[n.strip() for item in args.only or () for n in item.split(",")
                                              if n.strip()] or None)
    if args.out:
        report.write_witnesses(args.out)
    if args.json:
        print(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    else:
        *lines, last = report_text(report, everything=args.all).split("\n")
        if lines:
            print("\n".join(lines))
        if report.findings:
            write(counts_table(report))
        print(last)
    return 1 if report.refuted() else 0


STATUSES = (("PROVED", "proved"), ("SAMPLED", "sampled"), ("COUNTEREXAMPLE", "refuted"),
            ("UNKNOWN", "could not tell"))


def counts_table(report):
    """The findings counted by check and status, a row per check and a row of totals."""
    checks: dict[str, dict[str, int]] = {}
    for f in report.findings:
        row = checks.setdefault(f.check, dict.fromkeys(s for s, _ in STATUSES))
        row[f.status] = (row.get(f.status) or 0) + 1
    rows = [[check, *(str(row.get(s) or "") for s, _ in STATUSES)] for check, row in sorted(checks.items())]
    rows.append(["total", *(str(sum(1 for f in report.findings if f.status == s)) for s, _ in STATUSES)])
    return table(["check", *(w for _, w in STATUSES)], rows, right=(1, 2, 3, 4), bold_rows=(len(rows) - 1,))


def report_text(report, everything: bool = False) -> str:
    """The findings for people, as the command line names its options (``--all``)."""
    return verifying.report_text(report, everything, verifying.COMMAND_LINE_OPTIONS)


class _Progress(Bar):
    """verify's progress bar (``tables.Bar``): on a terminal only, not with
    ``--no-progress`` (nor ``--quiet``): how far the checks are (it moves as each item of
    a check is done), the time taken, an estimate of the time left, and what runs, in
    words (the name of the definition being checked, through ``terminal.visible``, never
    read as rich markup)."""

    def __init__(self, enabled: bool):
        super().__init__("verify", enabled and sys.stderr.isatty())
