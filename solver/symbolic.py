"""Symbolic values: what an expression is while the CP-SAT model is built.

In:  nothing (built by ``encode``).
Out: value classes standing for a not-yet-known value of each type. A known
     value is kept as the plain Python value the interpreter uses (``int``,
     ``bool``, ``str``, a cell tuple...); only what depends on a choice becomes
     symbolic:

``BoolV``   a CP-SAT literal
``IntV``    a linear form over CP-SAT variables with its bounds
``EnumV``   one literal per possible value (exactly one true)
``SetV``    a constant universe with one membership literal per element
``ListV``   items present under a guard literal
``BoardV``  a grid whose cells are ``EnumV``
``LayerV``  one literal per cell (a mark such as "face down")
``CountsV`` a multiset of enum values as one count per value
``CaseV``   one of several values, selected by exactly one literal
``GroupsV`` the connected groups of a ``SetV`` under a relation
``ScoreV``  a scoring's total with its steps and choices
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ortools.sat.python.cp_model import LinearExpr


class Sym:
    """Base class of symbolic values."""


@dataclass(eq=False)
class BoolV(Sym):
    lit: Any


@dataclass(eq=False)
class IntV(Sym):
    """``const + sum(coef * var)``; ``terms`` maps a variable key to (variable, coefficient)."""

    terms: dict
    const: int
    lb: int
    ub: int
    # (guard literal, numerator, denominator, key): under the guard,
    # denominator * value <= numerator * key (a bound the gate may add).
    cond_bound: Any = None

    def expr(self):
        ts = self.terms.values()
        e = _weighted_sum()([v for v, _ in ts], [c for _, c in ts])
        return e + self.const if self.const else e

    def all_bool(self) -> bool:
        return all(getattr(v, "is_boolean", None) is not False and _is_bool_var(v)
                   for v, _ in self.terms.values())


def _weighted_sum():
    """OR-Tools' weighted sum."""
    return LinearExpr.weighted_sum


def _is_bool_var(v) -> bool:
    # NotBooleanVariable (a negated literal) or an IntVar whose domain is {0, 1}.
    if type(v).__name__ == "NotBooleanVariable":
        return True
    try:
        dom = v.proto.domain
        return len(dom) == 2 and dom[0] >= 0 and dom[1] <= 1
    except AttributeError:
        return False


@dataclass(eq=False)
class EnumV(Sym):
    lits: dict          # value (or None) -> literal or bool


@dataclass(eq=False)
class SetV(Sym):
    members: dict       # element -> literal or bool, in universe order
    # a set made from a list whose values may come more than once: its members in the order
    # the interpreter meets them, as (literal, value), each the first of its value kept
    order: list | None = None


@dataclass(eq=False)
class ListV(Sym):
    items: list         # (guard literal or bool, value)


@dataclass(eq=False)
class BoardV(Sym):
    grid: Any           # ir.GridInfo
    cells: dict         # cell -> EnumV
    name: str = "g"
    ref: Any = None     # identity of the grid's one-hot groups


@dataclass(eq=False)
class LayerV(Sym):
    marks: dict         # cell -> literal or bool


@dataclass(eq=False)
class CountsV(Sym):
    counts: dict        # value -> IntV or int


@dataclass(eq=False)
class CaseV(Sym):
    cases: list         # (literal, value); exactly one literal is true


@dataclass(eq=False)
class GroupsV(Sym):
    """Connected groups: for each possible root, its literal and its members' literals."""

    roots: dict         # root cell -> literal (the cell is the first cell of its group)
    members: dict       # root cell -> {cell: literal}


@dataclass(eq=False)
class ScoreV(Sym):
    steps: dict         # step -> IntV or int
    choices: dict       # choice name -> symbolic value
    total: Any          # IntV or int
    name: str = ""
    mode: int = 1
    reach: Any = True   # the literal under which the scoring is reached


@dataclass(eq=False)
class RecordV(Sym):
    """A record whose fields may be symbolic."""

    name: str
    fields: dict        # field name -> value


@dataclass
class Choice:
    """A decision the solver makes, remembered so the witness can be read back."""

    name: str
    value: Any                  # symbolic value bound to the name
    kind: str                   # element | subset | value
    scoring: str | None = None  # set for choices inside a scoring
    extra: dict = field(default_factory=dict)


@dataclass(eq=False)
class MapV(Sym):
    """A computed table (an allocation): (guard, key, value) entries; a key absent or
    whose guard is false reads 0."""

    entries: list       # (guard literal or bool, key, int or IntV)
