"""Golden files for the compiler's stages: the AST dump and the rules graph.

Outputs are deterministic; after an intended change run
``pytest tests/test_golden.py --update-golden`` and review ``git diff``.
"""
from pathlib import Path

import pytest

from rulewright.compiler import graph, load
from rulewright.compiler.syntax.ast import dump
from rulewright.compiler.loader import parse_files, spec_files

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden"


def check(name: str, text: str, update: bool):
    path = GOLDEN / name
    if update or not path.exists():
        path.write_text(text)
    assert text == path.read_text(), f"{name} changed; rerun with --update-golden and review"


@pytest.fixture
def at_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def test_ast_dump(at_root, update_golden):
    files = parse_files(spec_files("spec/ecosystem_savanna"))
    check("ecosystem_savanna.ast.txt", "\n".join(dump(f) for f in files) + "\n", update_golden)


def test_graph_dump(at_root, update_golden):
    g = graph.build(load("spec/ecosystem_savanna"))
    check("ecosystem_savanna.graph.json", graph.to_json(g) + "\n", update_golden)
    check("ecosystem_savanna.graph.dot", graph.to_dot(g) + "\n", update_golden)


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
