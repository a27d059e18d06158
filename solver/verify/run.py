"""The checks of ``rulewright verify`` in order, each timed, with progress.

In:  a checked program (a spec, or a variant on its base), the kinds to run, the time
     limit of each question, workers, games per mode; for ``differs``, the base program.
Out: a ``findings.Report``; as the checks run, ``progress(what, fraction)`` once as each
     step begins and once as each of its items begins (a rule, a score, a property, a
     game: the items before it are done), ``what`` in words, ``fraction`` never going back.
"""
from __future__ import annotations

import time
from typing import Callable

from rulewright.compiler import ir as I
from rulewright.compiler.types import INT, EnumT
from rulewright.compiler.variants import diffing
from rulewright.solver.verify import differing, inductive, kept, proofs, sampled, secrecy, static
from rulewright.solver.solving import STEADY, plan, using
from rulewright.solver.verify.findings import CHECKS, Finding, Report
from rulewright.compiler.semantics.render import jsonable

DEFAULT_GAMES = 50
DEFAULT_POSITIONS = 3
# what each step checks, in the words the progress bar shows
STEP_WORDS = {"never_holds": "rules that never or always hold", "unused": "what nothing reads",
              "secrecy": "what each seat's choices read",
              "range": "the least and most of each score", "choosable": "values no choice can take",
              "property": "the spec's guarantees", "differs": "what the variant changes",
              "induction": "invariants and choices by induction", "games": "seeded games"}
# what the checks call each item they begin (a prefix of the progress text, left out of the words)
_ITEM_WORDS = ("rule ", "range ", "choosable ", "property ", "differs ", "invariant ", "choices of ", "game ")
# an item's share of the bar against a question to CP-SAT: a seeded game is quicker
_GAME_SHARE = 0.3


def verify(program: I.Program, spec: str, kinds: set[str] | None = None, time_limit: float = 10.0,
           workers: int = 2, games: int = DEFAULT_GAMES, base: I.Program | None = None,
           positions: int = DEFAULT_POSITIONS,
           progress: Callable[[str, float], None] | None = None, only: set[str] | None = None,
           fresh: bool = False) -> Report:
    """Run the checks of ``kinds`` (all by default; ``differs`` needs ``base``); ``only``:
    the definitions, scorings and properties the checks over definitions look at (None:
    all; the sampled games still play the whole game).
    ``progress(what, fraction)`` is told what runs and how far the checks are: as each
    step begins and as each of its items does (see ``_Told``). A question asked again on
    the same rules is answered from the last run (``kept``) unless ``fresh``."""
    kinds = set(CHECKS if kinds is None else kinds)
    if base is None:
        kinds.discard("differs")
    report = Report(spec)
    report.games = games if kinds & set(sampled.SAMPLED_KINDS) else 0
    prover = proofs.Prover(program, time_limit, workers, positions, fresh=fresh)
    prover.only = only
    skip = report.not_checked.append

    def skipped(check: str, name: str, why: str) -> None:
        skip((check, name, why))

    steps: list[tuple[str, Callable]] = []
    if kinds & {"never_holds", "always_holds"}:
        steps.append(("never_holds", lambda tell: proofs.rules_hold(prover, skipped, tell)))
    if "unused" in kinds:
        steps.append(("unused", lambda tell: [f for f in static.unused(program) if prover.wants(f.definition)]))
    if "secrecy" in kinds:
        steps.append(("secrecy", lambda tell: secrecy.secrecy(program)
                      + (secrecy.sampled(program, min(games, secrecy.MOST_GAMES)) if games > 0 else [])))
    if "range" in kinds:
        steps.append(("range", lambda tell: proofs.ranges(prover, skipped, tell)))
    if "choosable" in kinds:
        steps.append(("choosable", lambda tell: proofs.choosable(prover, skipped, tell)))
    if "property" in kinds:
        steps.append(("property", lambda tell: proofs.properties(prover, skipped, tell)))
    if "differs" in kinds:
        steps.append(("differs", lambda tell: differing.differs(program, base, time_limit, workers, skipped, tell,
                                                                    positions, only, prover.asked)))
    wanted = kinds & set(sampled.SAMPLED_KINDS)

    def play(tell) -> list:
        """The sampled games' findings: as an earlier run found them if nothing played has
        changed since (``kept``), else from the games."""
        limit = time_limit * plan().outer
        key = kept.games_key(program, games, wanted, limit)
        found = None if fresh else kept.recall(key)
        if found is not None:
            report.games_recalled = True
            return found
        found = sampled.sample(program, games, wanted, progress=tell, time_limit=limit)
        kept.keep_games(key, found)
        return found
    induction: dict[str, inductive.Induction] = {}
    options: dict[str, inductive.Options] = {}

    def induct(tell) -> list:
        """The invariants proved by induction, and the choices proved always to have an option
        (merged with the games' findings at the end)."""
        prover = inductive.Prover(program, time_limit)
        for name in program.invariants:
            tell(f"invariant {name}")
            induction[name] = prover.prove(name)
        if "playable" in kinds:
            playable = inductive.Playable(program, [n for n, p in induction.items() if p.proved], time_limit, prover)
            for name in program.modes:
                tell(f"choices of {name}")
                options[name] = playable.mode(name)
        return []
    if kinds & {"invariant", "playable"} and (program.invariants or program.modes):
        steps.append(("induction", induct))
    if wanted and games > 0:
        steps.append(("games", play))
    told = _Told(progress, [(name, _items(name, program, base, games)) for name, _ in steps])
    for index, (name, run) in enumerate(steps):
        told.step(index)
        started = time.perf_counter()
        with using(STEADY):         # (verdicts that do not change with the machine's load)
            found = run(told.item)
        report.seconds_by_check[name] = time.perf_counter() - started
        for f in found:
            if f.check in kinds or (name == "never_holds" and f.check in ("never_holds", "always_holds")):
                report.add(f)
    told.done()
    if "invariant" in kinds and induction:
        _merge_induction(report, program, induction)
    if options:
        _merge_options(report, program, options)
    report.asked, report.recalled = prover.asked.count, prover.asked.recalled
    return report


class _Told:
    """What ``progress`` is told: each step's share of the bar is its items (as the checks
    will count them, estimated from the program; a game weighs less than a question), and
    an item begun means the ones before it are done. An estimate short of the real count
    holds at the step's end; one over it jumps there when the step ends. The fraction never
    goes back."""

    def __init__(self, progress, steps: list[tuple[str, int]]):
        self.progress, self.steps = progress, steps
        shares = [n * (_GAME_SHARE if name == "games" else 1.0) for name, n in steps]
        self.total = sum(shares) or 1.0
        self.starts = [sum(shares[:i]) for i in range(len(shares) + 1)]
        self.index = self.begun = 0
        self.last = 0.0

    def _tell(self, what: str, at: float) -> None:
        self.last = max(self.last, min(at / self.total, 1.0))
        if self.progress:
            self.progress(what, self.last)

    def step(self, index: int) -> None:
        self.index, self.begun = index, 0
        name = self.steps[index][0]
        self._tell(STEP_WORDS.get(name, name), self.starts[index])

    def item(self, what: str) -> None:
        name, n = self.steps[self.index]
        start, end = self.starts[self.index], self.starts[self.index + 1]
        at = min(start + (end - start) * self.begun / n, end)
        self.begun += 1
        thing = next((what[len(p):] for p in _ITEM_WORDS if what.startswith(p)), what)
        self._tell(f"{STEP_WORDS.get(name, name)}: {thing}" + (f" ({self.begun} of {n})" if self.begun <= n else ""),
                   at)

    def done(self) -> None:
        self._tell("done", self.total)


def _items(step: str, program: I.Program, base: I.Program | None, games: int) -> int:
    """How many items a step will begin, as its check picks them (an estimate: a check may
    pass over some, quickly); at least 1."""
    funcs = [fd for fd in program.funcs.values() if fd.body is not None and "__before_" not in fd.name]
    rules = [fd for fd in funcs if fd.kind == "rule"]
    if step == "never_holds":
        n = len(rules)
    elif step == "range":
        n = sum(1 + (len(sd.steps) if len(sd.steps) > 1 else 0) for sd in program.scorings.values()) + \
            sum(1 for fd in funcs if fd.kind == "def" and fd.params and fd.type == INT)
    elif step == "choosable":
        n = sum(1 for fd in rules for _, t in fd.params if isinstance(t, EnumT) and t.name in program.enums)
    elif step == "property":
        n = len(program.properties)
    elif step == "induction":
        n = len(program.invariants) + len(program.modes)
    elif step == "differs" and base is not None:
        d = diffing.diff(base, program)
        n = len(set(e.name for e in d.changed) | set(x["name"] for x in d.downstream))
    elif step == "games":
        n = games * sum(len({m.min_players, m.max_players}) for m in program.modes.values())   # (as sampled plays them)
    else:
        n = 1
    return max(1, n)


def _merge_proved(report: Report, check: str, results: dict, proved, not_proved) -> None:
    """What was proved by induction merged with what the games found, for one check: a proof
    turns the games' SAMPLED (or UNKNOWN) into the PROVED finding ``proved(name, games)``
    makes (a COUNTEREXAMPLE of a game stands: it shows a position); when not proved, the
    games' finding gets ``not_proved(name)``: (words added to its message, witness entries)."""
    found = {f.definition: f for f in report.findings if f.check == check}
    for name, result in results.items():
        f = found.get(name)
        if f is not None and f.status == "COUNTEREXAMPLE":
            continue
        if not result.proved:
            if f is not None:
                words, witness = not_proved(name)
                f.message += words
                f.witness = {**(f.witness or {}), **witness}
            continue
        made = proved(name, (f.witness or {}).get("games") if f is not None else None)
        if f is None:
            report.add(made)
        else:
            report.findings[report.findings.index(f)] = made


def _merge_induction(report: Report, program: I.Program, induction: dict) -> None:
    """Each invariant's proof by induction with what the games found."""
    def proved(name: str, games: int | None) -> Finding:
        proof, inv = induction[name], program.invariants[name]
        return Finding("invariant", definition=name, status="PROVED", severity="info", span=inv.node.name_span,
                       rule_ids=tuple(t for t, _ in inv.node.tags), seconds=proof.seconds,
                       message=inductive.proved_words(name, proof, games),
                       witness={"proof": "induction", "initial": jsonable(proof.initial), "steps": proof.steps,
                                **({"numbers_within": inductive.NUMBERS} if proof.numbers else {}),
                                **({"games": games} if games is not None else {})})
    _merge_proved(report, "invariant", induction, proved,
                  lambda name: (f"; not proved by induction: {induction[name].reason}",
                                {"not_proved": induction[name].reason}))


def _merge_options(report: Report, program: I.Program, options: dict) -> None:
    """Each mode's choices proved always to have an option (all of them: the mode PROVED)
    with what the games found; else how many were, and the first that was not, and why."""
    def proved(name: str, games: int | None) -> Finding:
        o, mode = options[name], program.modes[name]
        return Finding("playable", definition=name, status="PROVED", severity="info", span=mode.node.name_span,
                       rule_ids=tuple(t for t, _ in mode.node.tags),
                       message=(f"mode '{name}' has no choice to make" if o.choices == 0 else
                                f"every choice of mode '{name}' has an option in every position of every game "
                                f"played from the start"
                                + (f" whose numbers stay within ±{inductive.NUMBERS:,}" if o.numbers else "")
                                + f": each of its {o.choices} choices, proved from what is "
                                "known where it is made and the invariants proved by induction")
                               + (f"; {games} seeded games agree" if games else ""),
                       witness={"proof": "induction", "choices": o.choices,
                                **({"numbers_within": inductive.NUMBERS} if o.numbers else {}),
                                **({"games": games} if games is not None else {})})

    def not_proved(name: str) -> tuple[str, dict]:
        o = options[name]
        return (f"; not proved: {o.shown} of its {o.choices} choices always have an option, and {o.reason}",
                {"choices": o.choices, "proved_choices": o.shown, "not_proved": o.reason})
    _merge_proved(report, "playable", options, proved, not_proved)
