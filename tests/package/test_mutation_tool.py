"""``make mutate`` (tests/mutate.py): the mutants it plants, and that it puts files back.

Nothing here writes into the working tree (other tests read the specs at the same time):
mutants are planted in copies.
"""
from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter

import mutate as M
from helpers import ROOT


def test_the_sample_holds_every_kind_of_mutant_of_the_rules_and_of_the_engine():
    pool = M.sample(None, 1)
    kinds = Counter((m.part, m.kind) for m in pool)
    for kind in ("comparison", "constant", "logic", "arithmetic", "order"):
        assert kinds["rules", kind] > 0, kind
    for kind in ("comparison", "constant", "logic"):
        assert kinds["engine", kind] > 0, kind
    assert {m.path for m in pool if m.part == "engine"} >= {
        "compiler/semantics/operators.py", "compiler/semantics/runtime.py", "solver/encode/operators.py"}
    first = pool[:99]
    assert 60 <= sum(m.part == "rules" for m in first) <= 70          # two of the rules for one of the engine
    assert [m.describe() for m in M.sample(None, 1)[:50]] == [m.describe() for m in pool[:50]]   # seeded
    assert [m.describe() for m in M.sample(None, 2)[:50]] != [m.describe() for m in pool[:50]]


def test_no_mutant_touches_a_comment_a_docstring_or_a_rule_id():
    for m in M.sample(None, 1):
        line = (ROOT / m.path).read_text(encoding="utf-8").split("\n")[m.line - 1]
        assert not line.lstrip().startswith(("///", "#")), m.describe()
        if m.part == "rules" and m.kind == "constant":
            assert not M._inside_ids(line, m.col), m.describe()
    docstrings = M._docstring_lines((ROOT / "solver/encode/base.py").read_text(encoding="utf-8"))
    assert all(m.line not in docstrings for m in M.sample("engine", 1) if m.path == "solver/encode/base.py")


def test_a_mutant_changes_its_one_line_and_nothing_else(tmp_path):
    text = ("def a(x: int) [T-1] = x < 3 and x + 1 > 0\n"
            "def key(s: int) = (s, 2, 1)\n"
            "step s {\n  points 1\n  mark m {}\n  set x = 1\n  set y = 2\n}\n")
    path = tmp_path / "t.rules"
    path.write_text(text, encoding="utf-8")
    found = {(m.kind, m.old, m.new) for m in M._rules_candidates(path)}
    assert {("comparison", "<", "<="), ("comparison", ">", ">="), ("logic", "and", "or"),
            ("arithmetic", "+", "-"), ("constant", "3", "4"), ("constant", "3", "2"),
            ("order", "(s, 2,", "(2, s,")} <= found
    assert not any(m.old == "1" and m.line == 1 and m.col < 16 for m in M._rules_candidates(path))   # [T-1]
    for m in M._rules_candidates(path):
        after = M.mutated(text, m).split("\n")
        before = text.split("\n")
        changed = [i for i, (a, b) in enumerate(zip(before, after)) if a != b]
        assert len(after) == len(before) and changed, m.describe()
        assert changed[-1] - changed[0] <= 1, m.describe()
    swaps = [m for m in M._rules_candidates(path) if m.kind == "order" and "\n" in m.old]
    assert [m.old for m in swaps] == ["  set x = 1\n  set y = 2"]


def test_the_tool_lists_its_sample_and_a_killed_runs_file_is_put_back(tmp_path, monkeypatch):
    proc = subprocess.run([sys.executable, str(ROOT / "tests" / "mutate.py"), "--list", "--mutants", "5"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0 and len(proc.stdout.strip().splitlines()) == 6, proc.stdout + proc.stderr
    target = tmp_path / "spec.rules"
    target.write_text("mutated", encoding="utf-8")
    backup = tmp_path / "backup"
    backup.write_text(json.dumps({"path": str(target), "text": "original"}), encoding="utf-8")
    monkeypatch.setattr(M, "BACKUP", backup)
    monkeypatch.setattr(M, "ROOT", tmp_path)
    M.restore()
    assert target.read_text(encoding="utf-8") == "original" and not backup.exists()
