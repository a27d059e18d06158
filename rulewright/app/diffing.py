"""Diffing: what a variant (or house rule) changes, adds and removes in the game it
extends, or what differs between two versions of one game, and what that can affect.

In:  the checked programs of the base and of the other version, each with the spec it
     came from, and the face's spelling.
Out: ``Diffed``: the two specs and their ``SpecDiff`` (``compiler/variants/diffing.py``),
     as lines of text and as data, which both faces show; a bad input when the two are
     versions of different games.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulewright.compiler.diagnostics import BadInputError
from rulewright.compiler.variants import diffing


@dataclass
class Diffed:
    """The base spec, the other version, and what differs between them."""
    base: str
    other: str
    diff: Any                       # a diffing.SpecDiff

    @property
    def empty(self) -> bool:
        return self.diff.empty

    def lines(self) -> list[str]:
        """What differs, for people (``rulewright diff`` prints it)."""
        return diffing.to_text(self.diff)

    def data(self) -> dict:
        """What differs, as data (``rulewright diff --json`` prints it)."""
        return diffing.to_json(self.diff)


def diff_specs(base, other, base_spec: str, other_spec: str) -> Diffed:
    """What ``other`` changes in ``base``: two versions of one game (a variant or house
    rule with its base, or two variants), else a bad input naming both."""
    if base.name != other.name:
        raise BadInputError(f"{other_spec} is a spec of another game ({other.title}) than {base_spec} "
                            f"({base.title}): diff compares versions of one game (a variant or house rule "
                            "with its base, or two variants)")
    return Diffed(base_spec, other_spec, diffing.diff(base, other))
