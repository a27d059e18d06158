"""What ``rulewright verify`` reports: findings, each with a status that is never blurred.

In:  the results of the checks (``proofs``, ``static``, ``sampled``).
Out: ``Finding`` and ``Report``: JSON (``to_json``), witness files, a witness as lines
     (``witness_lines``; the report for people is ``rulewright/app/verifying.py``'s).

Every finding is a statement about the rules with the status of its evidence:
- ``PROVED``: CP-SAT closed the search over the whole stated domain (or the statement is
  a fact of the rules graph; or a witness, replayed through the interpreter, shows it; or
  an induction closed: ``inductive``);
- ``COUNTEREXAMPLE``: a guarantee (a property, an invariant, a playable choice, a game
  that ends, rules without a run-time gap) is broken: the witness, replayed through the
  interpreter before it is reported, shows it;
- ``SAMPLED``: no violation in N seeded games: evidence, not proof;
- ``UNKNOWN``: the time limit ran out before the search closed.
A finding's ``severity`` says what it means for the rules: ``error`` (a guarantee is
broken: exit 1), ``warning`` (a rule that never or always holds, a value no one can
choose, something nothing reads, a house rule that changes nothing), ``info`` (evidence
that all is well, with its witnesses).
"""
from __future__ import annotations

import html
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulewright.compiler import files
from rulewright.compiler.diagnostics import Span
from rulewright.compiler.semantics import runtime as rt
from rulewright.compiler.semantics.render import board_lines, jsonable, text_value

STATUSES = ("PROVED", "COUNTEREXAMPLE", "SAMPLED", "UNKNOWN")
SEVERITIES = ("error", "warning", "info")
# every kind of check, in the order they run (the JSON names them exactly so); here, away
# from the checks themselves, so that naming them loads no solver
CHECKS = ("never_holds", "always_holds", "unused", "secrecy", "range", "choosable", "property", "differs",
          "invariant", "playable", "terminates", "runtime")


@dataclass
class Finding:
    check: str                    # one of CHECKS
    definition: str
    status: str
    severity: str
    message: str                  # a plain sentence
    span: Span | None = None
    rule_ids: tuple[str, ...] = ()
    witness: Any = None           # JSON-able: the values that show it
    seconds: float = 0.0
    files: list[str] = field(default_factory=list)   # witness files written (--out)
    # how to write the witness as a file other commands read back: (kind, content)
    # kind "grid" (rows of cell values, for score), "state" (a state document, for show and query)
    witness_files: list[tuple[str, str, Any]] = field(default_factory=list)   # (suffix, kind, content)
    # an UNKNOWN: whether the time limit ran out before it was settled (False: for the
    # reason its message gives, which more time would not change)
    out_of_time: bool = True

    def __post_init__(self):
        assert self.status in STATUSES and self.severity in SEVERITIES, (self.status, self.severity)

    @property
    def at(self) -> str | None:
        if self.span is None or self.span.line <= 0:
            return None
        return f"{self.span.file}:{self.span.line}:{self.span.col}"

    def _repr_html_(self) -> str:
        """In a notebook: the status, where, the sentence, and the witness that shows it."""
        witness = "" if self.witness is None else \
            f"<pre>{html.escape(json.dumps(jsonable(self.witness), indent=1, ensure_ascii=False)[:4000])}</pre>"
        return (f"<div><b>{html.escape(self.status)}</b> {html.escape(self.check)} "
                f"<code>{html.escape(self.definition)}</code> {html.escape(self.at or '')}"
                f"<p>{html.escape(self.message)}</p>{witness}</div>")

    def to_json(self) -> dict[str, Any]:
        return {"check": self.check, "definition": self.definition, "status": self.status,
                "severity": self.severity, "rule_ids": list(self.rule_ids), "at": self.at,
                "message": self.message, "witness": jsonable(self.witness),
                "seconds": round(self.seconds, 3), **({"files": self.files} if self.files else {})}


@dataclass
class Report:
    spec: str
    findings: list[Finding] = field(default_factory=list)
    not_checked: list[tuple[str, str, str]] = field(default_factory=list)    # (check, definition, why)
    seconds_by_check: dict[str, float] = field(default_factory=dict)
    games: int = 0
    asked: int = 0              # questions to the solver
    recalled: int = 0           # of them, answered from an earlier run on the same rules (``kept``)
    games_recalled: bool = False    # the sampled games' findings as an earlier run found them

    def add(self, f: Finding) -> None:
        self.findings.append(f)

    def refuted(self) -> bool:
        return any(f.status == "COUNTEREXAMPLE" and f.severity == "error" for f in self.findings)

    def summary(self) -> dict[str, Any]:
        by_status = {s: sum(1 for f in self.findings if f.status == s) for s in STATUSES}
        by_severity = {s: sum(1 for f in self.findings if f.severity == s) for s in SEVERITIES}
        return {"findings": len(self.findings), "by_status": by_status, "by_severity": by_severity,
                "refuted": self.refuted(), "games_per_mode": self.games,
                "questions": self.asked, "questions_from_earlier_runs": self.recalled,
                "games_from_an_earlier_run": self.games_recalled,
                "seconds_by_check": {k: round(v, 3) for k, v in self.seconds_by_check.items()},
                "not_checked": [{"check": c, "definition": d, "why": w} for c, d, w in self.not_checked]}

    def to_json(self) -> dict[str, Any]:
        return {"spec": self.spec, "findings": [f.to_json() for f in self.findings], "summary": self.summary()}

    def write_witnesses(self, out: str) -> None:
        """Each finding's witness as files in ``out``: its JSON, and the grids and state
        files other commands read back (``score``, ``show``, ``query --state``)."""
        # (every file through the one writer, within the folder: never through a symbolic
        # link the folder holds; the folder itself is the user's own)
        folder = Path(out)
        folder.mkdir(parents=True, exist_ok=True)
        for i, f in enumerate(self.findings):
            if f.witness is None and not f.witness_files:
                continue
            stem = f"{i + 1:03d}-{f.check}-{_safe(f.definition)}"
            path = folder / f"{stem}.json"
            files.write_text(path, json.dumps(f.to_json(), indent=2, ensure_ascii=False) + "\n", inside=folder)
            f.files.append(str(path))
            for suffix, kind, content in f.witness_files:
                target = folder / f"{stem}{suffix}"
                if kind == "grid":
                    files.write_text(target, "\n".join(" ".join(c if c is not None else "." for c in row)
                                                       for row in content) + "\n", inside=folder)
                else:
                    files.write_text(target, json.dumps(content, indent=2, ensure_ascii=False) + "\n",
                                     inside=folder)
                f.files.append(str(target))


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "_-" else "_" for c in name)[:60] or "spec"


def witness_lines(witness: Any) -> list[str]:
    if isinstance(witness, dict):
        out = []
        for k, v in witness.items():
            if isinstance(v, rt.Board):
                out.append(f"{k}:")
                out += board_lines(v, indent="  ")
            elif isinstance(v, dict):
                out.append(f"{k}:")
                out += ["  " + ln for ln in witness_lines(v)]
            elif isinstance(v, list) and v and all(isinstance(r, list) for r in v):
                out.append(f"{k}:")
                out += ["  " + " ".join(str(c) if c is not None else "." for c in row) for row in v]
            elif k == "chain" and isinstance(v, list):
                out.append("how the choice reaches the pile:")     # (secrecy: one place a line)
                out += ["  " + str(c) for c in v]
            else:
                out.append(f"{k} = {text_value(v)}")
        return out
    return [text_value(witness)]
