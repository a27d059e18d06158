"""The checks of ``rulewright verify`` in order, each timed, with progress.

In:  a checked program (a spec, or a variant on its base), the kinds to run, the time
     limit of each question, workers, games per mode; for ``differs``, the base program.
Out: a ``findings.Report``.
"""
from __future__ import annotations

import time
from typing import Callable

from rulewright.compiler import ir as I
from rulewright.solver.verify import proofs, sampled, static
from rulewright.solver.verify.findings import Report

# every kind of check, in the order they run (the JSON names them exactly so)
CHECKS = ("never_holds", "always_holds", "unused", "range", "choosable", "property", "differs",
          "invariant", "playable", "terminates", "runtime")
DEFAULT_GAMES = 50
DEFAULT_POSITIONS = 3


def verify(program: I.Program, spec: str, kinds: set[str] | None = None, time_limit: float = 10.0,
           workers: int = 2, games: int = DEFAULT_GAMES, base: I.Program | None = None,
           positions: int = DEFAULT_POSITIONS,
           progress: Callable[[str, float], None] | None = None) -> Report:
    """Run the checks of ``kinds`` (all by default; ``differs`` needs ``base``).
    ``progress(what, fraction)`` is told what runs and how far the checks are."""
    kinds = set(CHECKS if kinds is None else kinds)
    if base is None:
        kinds.discard("differs")
    report = Report(spec)
    report.games = games if kinds & set(sampled.SAMPLED_KINDS) else 0
    prover = proofs.Prover(program, time_limit, workers, positions)
    skip = report.not_checked.append

    def skipped(check: str, name: str, why: str) -> None:
        skip((check, name, why))

    steps: list[tuple[str, Callable]] = []
    if kinds & {"never_holds", "always_holds"}:
        steps.append(("never_holds", lambda tell: proofs.rules_hold(prover, skipped, tell)))
    if "unused" in kinds:
        steps.append(("unused", lambda tell: static.unused(program)))
    if "range" in kinds:
        steps.append(("range", lambda tell: proofs.ranges(prover, skipped, tell)))
    if "choosable" in kinds:
        steps.append(("choosable", lambda tell: proofs.choosable(prover, skipped, tell)))
    if "property" in kinds:
        steps.append(("property", lambda tell: proofs.properties(prover, skipped, tell)))
    if "differs" in kinds:
        steps.append(("differs", lambda tell: proofs.differs(program, base, time_limit, workers, skipped, tell,
                                                                    positions)))
    wanted = kinds & set(sampled.SAMPLED_KINDS)
    if wanted and games > 0:
        steps.append(("games", lambda tell: sampled.sample(program, games, wanted, progress=tell,
                                                           time_limit=time_limit)))
    for index, (name, run) in enumerate(steps):
        def tell(what: str, _i=index) -> None:
            if progress:
                progress(what, _i / max(1, len(steps)))
        tell(name)
        started = time.perf_counter()
        found = run(tell)
        report.seconds_by_check[name] = time.perf_counter() - started
        for f in found:
            if f.check in kinds or (name == "never_holds" and f.check in ("never_holds", "always_holds")):
                report.add(f)
    if progress:
        progress("done", 1.0)
    return report
