"""The corpus of broken specs: each must produce exactly the diagnostic stored beside it.

``tests/bad/NAME.rules`` is compiled from the repository root; the rendered
error (file:line:col, the line, a caret, a hint) must equal ``NAME.expected``.
Run ``pytest tests/test_bad_specs.py --update-golden`` to rewrite the files
after an intended change, then review them with ``git diff``.
"""
from pathlib import Path

import pytest

from rulewright.compiler import load
from rulewright.compiler.diagnostics import RulesError

ROOT = Path(__file__).resolve().parent.parent
CASES = sorted((ROOT / "tests" / "bad").glob("*.rules"))


def test_corpus_is_large_enough():
    assert len(CASES) >= 15


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_bad_spec(path, monkeypatch, update_golden):
    monkeypatch.chdir(ROOT)
    rel = path.relative_to(ROOT).as_posix()
    with pytest.raises(RulesError) as info:
        load(rel)
    rendered = info.value.render() + "\n"
    expected = path.with_suffix(".expected")
    if update_golden:
        expected.write_text(rendered)
    assert rendered == expected.read_text()
