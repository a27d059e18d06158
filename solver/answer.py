"""What an answer says: status, objective and bound, the witness, the reasons, as
text people read and as JSON.

In:  what ``queries.run_query`` found (and ``explain``'s reasons).
Out: ``Answer.to_text()`` and ``Answer.to_json()``; ``objective_text`` for a number or
     a tuple of numbers with their names.
"""
from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import Any


from rulewright.compiler.semantics import render, runtime as rt
from rulewright.compiler.diagnostics import shown_names
from rulewright.compiler.semantics.render import board_lines, jsonable, text_value

from rulewright.solver.explain import _ids_text, reason_lines

@dataclass
class Answer:
    query: str
    status: str
    objective: int | tuple | None     # a tuple: optimised left to right (see Lexicographic)
    bound: int | tuple | None
    witness: dict[str, Any]
    breakdown: dict[str, Any]
    seconds: float
    replayed: bool
    time_limit: float
    workers: int
    stats: dict[str, Any] = field(default_factory=dict)
    reasons: list = field(default_factory=list)      # why not, when INFEASIBLE (see explain)
    reports: list = field(default_factory=list)      # (name, value, (definition, IDs, span))
    plays: list = field(default_factory=list)        # (choice name, expression, env): how to play it
    objective_names: Any = None                      # 'maximize e named n': what the numbers are
    settled: tuple = ()         # choices with one possible value: no decision, left out of the text
    cell_choices: tuple = ()    # choices that may hold grid cells (shown as "(r, c)")
    interrupted: bool = False   # Ctrl-C stopped the search: the best found by then
    reasons_cut_short: bool = False     # the time limit ran out while the reasons were looked for

    def to_json(self) -> dict[str, Any]:
        return {"query": self.query, "status": self.status, "objective": self.objective,
                **({"objective_names": _names_list(self.objective_names)}
                   if self.objective_names is not None else {}),
                "bound": self.bound, "witness": {k: jsonable(v) for k, v in self.witness.items()},
                "breakdown": jsonable(self.breakdown), "seconds": round(self.seconds, 3),
                "replayed": self.replayed, "time_limit": self.time_limit, "workers": self.workers,
                **({"interrupted": True} if self.interrupted else {}),
                **({"reasons_cut_short": True} if self.reasons_cut_short else {}),
                **({"reasons": [r.to_json() for r in self.reasons]} if self.status == "INFEASIBLE" else {}),
                **({"reports": [{"name": n, "value": jsonable(v),
                                 **({"definition": d[0], "ids": list(d[1]), "at": f"{d[2].file}:{d[2].line}"}
                                    if d else {})} for n, v, d in self.reports]} if self.reports else {}),
                **({"model": self.stats} if self.stats else {})}

    def _repr_html_(self) -> str:
        """In a notebook: the answer as ``rulewright query`` prints it (status, score and
        bound, the witness, the reasons)."""
        return f"<pre>{html.escape(self.to_text())}</pre>"

    def to_text(self) -> str:
        lines = [f"{self.query}: {self.status}"]
        if self.status == "INFEASIBLE" and not self.reasons:
            lines.append("  no choice satisfies the query's conditions")
        if self.status == "INFEASIBLE" and self.reasons:
            lines.append("  why not:")
            lines.extend(reason_lines(self.reasons))
        if self.status == "INFEASIBLE" and self.reasons_cut_short:
            lines.append(f"  the time limit ({self.time_limit:g} s) ran out while the reasons were looked for: "
                         + ("these are the ones found by then (a longer --time-limit finds them all)"
                            if self.reasons else "none was found by then (a longer --time-limit finds them)"))
        if self.interrupted and self.status == "INFEASIBLE":
            lines.append(f"  interrupted (Ctrl-C) after {self.seconds:.1f} s: proven infeasible; "
                         "its reasons were cut short")
        elif self.interrupted:
            lines.append(f"  interrupted (Ctrl-C) after {self.seconds:.1f} s: "
                         + ("the best answer found by then" if self.objective is not None or
                            self.status == "FEASIBLE" else "no answer found by then")
                         + (f"; best bound {objective_text(self.bound, self.objective_names)}"
                            if self.status == "UNKNOWN" and self.bound is not None else ""))
        elif self.status == "UNKNOWN":
            built = self.stats.get("build_seconds", 0)
            lines.append(f"  no answer within the time limit ({self.time_limit:g} s"
                         + (f"; building the model alone took {built:.1f} s" if built > 0.5 * self.time_limit else "")
                         + "); " + (f"best bound {objective_text(self.bound, self.objective_names)}"
                                    if self.bound is not None else "no bound proven yet"))
        if self.objective is not None:
            proof = "proven optimal" if self.status == "OPTIMAL" else \
                f"best bound {objective_text(self.bound, self.objective_names)}" if self.bound is not None else \
                "no bound proven yet"
            lines.append(f"  objective: {objective_text(self.objective, self.objective_names)} ({proof})")
        for name, value in self.witness.items():
            if name in self.settled:
                continue
            if isinstance(value, rt.Board):
                marked = set()
                for v in self.witness.values():
                    if isinstance(v, tuple):
                        marked |= {x for x in v if isinstance(x, tuple) and len(x) == 2}
                lines.append(f"  {name}:")
                lines.extend("  " + ln for ln in board_lines(value, marked))
            else:
                lines.append(f"  {name.replace('_', ' ')}: {text_value(value, name in self.cell_choices)}")
        for name, steps in self.breakdown.items():
            if isinstance(steps, dict):
                lines.append(f"  {shown_names(name)}: " + ", ".join(f"{k} {v}" for k, v in steps.items()))
        for name, value, d in self.reports:
            where = f"   ({d[0]}{_ids_text(d[1])} {d[2].file}:{d[2].line})" if d else ""
            if isinstance(value, rt.Board):         # a grid the query shows: drawn, as a chosen one is
                lines.append(f"  {name.replace('_', ' ')}:{where}")
                lines.extend("  " + ln for ln in board_lines(value, set()))
            else:
                lines.append(f"  {name.replace('_', ' ')}: {text_value(value)}{where}")
        lines.append(f"  {self.seconds:.2f} s, {self.workers} worker(s)"
                     + (", witness replayed by the interpreter" if self.replayed else ""))
        return "\n".join(lines)


# ---------------------------------------------------------------- reading values
def objective_text(v, names=None) -> str:
    """An objective's value as text: a tuple as its first number, then the ones that
    break its ties ("6, then 4"); with the objective's names, each number after its
    name ("points 6, then adaptation 4")."""
    values = list(v) if isinstance(v, tuple) else [v]
    if names is not None:
        labels = _names_list(names) if isinstance(v, tuple) else [render.text(names)]
        values = [f"{label} {x}" for label, x in zip(labels, values)]
    return ", then ".join(str(x) for x in values)


def _names_list(names) -> list[str]:
    """An objective's names as texts, one per number."""
    return [render.text(n) for n in names] if isinstance(names, tuple) else [render.text(names)]
