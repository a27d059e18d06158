"""The rules graph: its golden dumps (tests/golden/graph) and its structure.

Outputs are deterministic; after an intended change run
``pytest tests/graph --update-golden`` and review ``git diff``.
"""
import pytest

from rulewright.compiler import graph, load
from helpers import ROOT, check_golden

@pytest.fixture
def at_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def test_graph_dump(at_root, update_golden):
    g = graph.build(load("spec/ecosystem_savanna"))
    check_golden("graph", "ecosystem_savanna.graph.json", graph.to_json(g) + "\n", update_golden)
    check_golden("graph", "ecosystem_savanna.graph.dot", graph.to_dot(g) + "\n", update_golden)


def test_graph_structure(at_root):
    g = graph.build(load("spec/ecosystem_savanna"))
    # the scoring's steps run in the rulebook's order
    assert graph.step_order(g, "score") == [
        f"score.{s}" for s in ("water", "prairie", "tree", "gazelle", "zebra", "giraffe", "cheetah",
                               "lion", "elephant", "hyena", "vulture")]
    # every edge carries the span that created it
    assert all(":" in g.edges[e]["span"] for e in g.edges)
    # a reading of the rulebook reaches the steps it changes
    assert "score.cheetah" in graph.downstream(g, ["cheetah_range"])
    assert "score.hyena" in graph.downstream(g, ["hyena_range"])
    assert "score.water" not in graph.downstream(g, ["hyena_range"])
