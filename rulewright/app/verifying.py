"""Verifying: the rules proved consistent, or refuted with a witness (the checks of
``solver/verify``), and the report for people.

In:  a checked program and the spec it came from, the base program of a variant (or
     none), the checks to run (all by default; ``differs`` with a base), the time limit
     and workers of each question, the games per mode, the positions, a
     ``progress(what, fraction)`` callback, and how the face names its options.
Out: a ``findings.Report``; ``report_text``: its findings for people, the last line
     counting each status in words ("12 proved, 3 sampled, 0 refuted, could not tell:
     2") and never calling a finding it could not tell well.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

from rulewright.compiler.diagnostics import BadInputError, did_you_mean

DEFAULT_GAMES = 50          # (as solver/verify/run.py: its module loads with the solver)
DEFAULT_POSITIONS = 3
DEFAULT_TIME_LIMIT = 10.0


@dataclass(frozen=True)
class Options:
    """How a face names verify's options, in its errors and its report's hints."""
    check: str                  # the checks to run
    against: str                # the base of a variant
    everything: str             # every finding shown, with its witness
    listed: str                 # where every check not run is listed
    time_limit: str             # a longer time limit
    only: str = "--only"        # the definitions looked at
    fresh: str = "--fresh"      # every question asked again


COMMAND_LINE_OPTIONS = Options("--check", "--against", "--all", "--json", "--time-limit", "--only")
PYTHON_OPTIONS = Options("checks=", "against=", "text(everything=True)", ".not_checked", "time_limit=", "only=",
                         "fresh=True")


def checks_named(given: Iterable[str] | None, words: Options = COMMAND_LINE_OPTIONS) -> set[str] | None:
    """The checks named (each item may list several, comma-separated); None: all. An
    unknown one is refused with the list."""
    from rulewright.solver.verify.findings import CHECKS   # (OR-Tools loads only for the commands that solve)
    if not given:
        return None
    kinds = {k.strip() for part in given for k in part.split(",") if k.strip()}
    unknown = sorted(kinds - set(CHECKS))
    if unknown:
        raise BadInputError(f"{words.check}: no check '{unknown[0]}'; the checks are: {', '.join(CHECKS)}")
    return kinds


def verify_rules(program, spec: str, *, base=None, against: str = "", checks: set[str] | None = None,
                 time_limit: float = DEFAULT_TIME_LIMIT, workers: int = 2, games: int = DEFAULT_GAMES,
                 positions: int = DEFAULT_POSITIONS, progress: Callable[[str, float], None] | None = None,
                 words: Options = COMMAND_LINE_OPTIONS, only: list[str] | None = None, fresh: bool = False):
    """The checks of ``checks`` run on ``program`` (all by default; with a ``base``, the
    spec ``against`` names: only ``differs`` by default). ``progress(what, fraction)`` is
    told as each step and each item of a step begins. ``only``: the definitions, scorings
    and properties to look at (each must be one of the spec's). A question to the solver
    an earlier run asked on the same rules is answered as it was then, unless ``fresh``."""
    from rulewright.solver.verify.run import verify      # (OR-Tools loads only for the commands that solve)
    if base is not None:
        if base.name != program.name:
            raise BadInputError(f"{words.against} {against} is a spec of another game ({base.title}) than "
                                f"{spec} ({program.title}): differs compares versions of one game")
        if checks is None:
            checks = {"differs"}
    elif checks is not None and "differs" in checks:
        raise BadInputError(f"{words.check} differs compares a variant with its base: name the base with "
                            f"{words.against} BASE")
    if only:
        known = set(program.funcs) | set(program.scorings) | set(program.properties)
        for name in only:
            if name not in known:
                hint = did_you_mean(name, known) or "a definition, scoring or property of the spec"
                raise BadInputError(f"{words.only} {name}: no definition, scoring or property of that name in "
                                    f"{spec} ({hint})")
    return verify(program, spec, checks, time_limit=time_limit, workers=workers, games=games, base=base,
                  positions=positions, progress=progress, only=set(only) if only else None, fresh=fresh)


def report_text(report, everything: bool = False, words: Options = COMMAND_LINE_OPTIONS) -> str:
    """The findings for people: errors, warnings and every finding it could not tell
    (UNKNOWN), each with its witness (an UNKNOWN one of severity info: with
    ``everything``); the rest counted (``everything``: shown too); what was not checked;
    and a last line that counts each status in words and never calls UNKNOWN findings
    well."""
    from rulewright.solver.verify.findings import witness_lines    # (the solver's side loads with verify)
    order = {"error": 0, "warning": 1, "info": 2}
    shown = [f for f in report.findings if everything or f.severity != "info" or f.status == "UNKNOWN"]
    lines = []
    for f in sorted(shown, key=lambda f: (order[f.severity], f.status != "UNKNOWN")):
        lines.append(f"{f'{f.at}: ' if f.at else ''}{f.severity}: [{f.check}] {f.status}: {f.message}")
        if f.witness is not None and f.status != "SAMPLED" and (everything or f.severity != "info"):
            lines += ["    " + ln for ln in witness_lines(f.witness)]
        lines += [f"    witness file: {path}" for path in f.files]
    listed = {id(f) for f in shown}
    hidden: dict[str, int] = {}
    for f in report.findings:
        if id(f) not in listed:
            hidden[f.check] = hidden.get(f.check, 0) + 1
    if hidden:
        lines.append(f"not shown, nothing wrong found: {', '.join(f'{n} {k}' for k, n in sorted(hidden.items()))} "
                     f"(proved, or sampled without a problem: {words.everything} shows them with their witnesses)")
    for check, name, why in report.not_checked[:20]:
        lines.append(f"not checked: [{check}] {name}: {why}")
    if len(report.not_checked) > 20:
        lines.append(f"not checked: {len(report.not_checked) - 20} more ({words.listed} lists them)")
    if report.recalled:
        lines.append(f"{report.recalled} of the {report.asked} questions to the solver were answered as an earlier "
                     f"run answered them (nothing they read has changed since; {words.fresh} asks them again)")
    if report.games_recalled:
        lines.append(f"the {report.games} seeded games per mode were not played again: nothing they play has "
                     f"changed since an earlier run played them, whose findings are shown ({words.fresh} plays "
                     f"them again)")
    lines.append(summary_line(report, words))
    return "\n".join(lines)


def status_counts(report) -> dict[str, int]:
    """How many findings have each status."""
    return {s: sum(1 for f in report.findings if f.status == s)
            for s in ("PROVED", "SAMPLED", "COUNTEREXAMPLE", "UNKNOWN")}


def summary_line(report, words: Options = COMMAND_LINE_OPTIONS) -> str:
    """The last line: how many findings of each status, in words ("12 proved, 3 sampled,
    0 refuted, could not tell: 2"), and what that means; never "all well" while a finding
    is UNKNOWN."""
    count = status_counts(report)
    line = (f"{report.spec}: {len(report.findings)} findings: {count['PROVED']} proved, {count['SAMPLED']} sampled, "
            f"{count['COUNTEREXAMPLE']} refuted, could not tell: {count['UNKNOWN']}")
    if report.refuted():
        line += "; a guarantee is broken"
    timed = sum(1 for f in report.findings if f.status == "UNKNOWN" and f.out_of_time)
    if timed == count["UNKNOWN"] > 0:
        line += (" (listed above as UNKNOWN: the time limit ran out before they were settled; a longer "
                 f"{words.time_limit} may settle them)")
    elif timed:
        line += (f" (listed above as UNKNOWN: for {timed} of them the time limit ran out before they were "
                 f"settled, and a longer {words.time_limit} may settle them; the others with their reasons)")
    elif count["UNKNOWN"]:
        line += f" (listed above as UNKNOWN, each with its reason, which a longer {words.time_limit} would not change)"

    if report.not_checked:
        line += f"; not checked: {len(report.not_checked)}"
    warnings = sum(1 for f in report.findings if f.severity == "warning")
    if warnings:
        line += f"; {warnings} warning{'s' if warnings > 1 else ''} above"
    return line
