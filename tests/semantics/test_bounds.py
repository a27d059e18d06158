"""The bounds of the language's run-time limits are inclusive: exactly the most allowed is
allowed, one more is refused with the limit in the message."""
from __future__ import annotations

import pytest

from rulewright.compiler.diagnostics import RuntimeRulesError
from rulewright.compiler.semantics import runtime as rt, subsets


def test_exactly_the_most_sub_collections_may_be_listed(monkeypatch):
    # four distinct elements have 16 sub-collections, 11 of at most two elements
    monkeypatch.setattr(subsets, "MOST_SUBSETS", 16)
    assert len(rt.subsets_of(("a", "b", "c", "d"))) == 16
    monkeypatch.setattr(subsets, "MOST_SUBSETS", 15)
    with pytest.raises(RuntimeRulesError, match="lists up to 16 sub-collections, more than the 15"):
        rt.subsets_of(("a", "b", "c", "e"))
    monkeypatch.setattr(subsets, "MOST_SUBSETS", 11)
    assert len(rt.subsets_of(("a", "b", "c", "f"), 2)) == 11
    monkeypatch.setattr(subsets, "MOST_SUBSETS", 10)
    with pytest.raises(RuntimeRulesError, match="at most 2 each"):
        rt.subsets_of(("a", "b", "c", "g"), 2)


def test_exactly_the_longest_text_may_be_kept(monkeypatch):
    monkeypatch.setattr(rt, "MOST_TEXT", 5)
    assert rt.short_text("12345") == "12345"
    with pytest.raises(RuntimeRulesError, match="a text of 6 characters"):
        rt.short_text("123456")


def test_exactly_the_most_options_of_a_choice_may_be_listed(monkeypatch):
    # choosing 2 of 6 elements has 15 options
    monkeypatch.setattr(subsets, "MOST_SUBSETS", 15)
    assert len(list(rt.subsets(tuple("abcdef"), 2))) == 15
    monkeypatch.setattr(subsets, "MOST_SUBSETS", 14)
    with pytest.raises(RuntimeRulesError, match="has 15 options, more than the 14"):
        rt.subsets(tuple("abcdeg"), 2)
