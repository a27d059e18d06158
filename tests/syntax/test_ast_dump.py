"""The AST dump of a spec: a golden file (tests/golden/syntax).

Outputs are deterministic; after an intended change run
``pytest tests/syntax/test_ast_dump.py --update-golden`` and review ``git diff``.
"""
import pytest

from rulewright.compiler.syntax.ast import dump
from rulewright.compiler.loader import parse_files, spec_files
from helpers import ROOT, check_golden

@pytest.fixture
def at_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def test_ast_dump(at_root, update_golden):
    files = parse_files(spec_files("spec/ecosystem_savanna"))
    check_golden("syntax", "ecosystem_savanna.ast.txt", "\n".join(dump(f) for f in files) + "\n", update_golden)
