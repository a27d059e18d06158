"""The corpus of broken specs: each must produce exactly the diagnostic stored beside it.

``tests/bad/KIND/NAME.rules`` (KIND: the kind of error, such as syntax, names,
types or variants) is compiled from the repository root; the rendered error
(file:line:col, the line, a caret, a hint) must equal ``NAME.expected`` beside it.
Run ``pytest tests/bad --update-golden`` to rewrite the files after an intended
change, then review them with ``git diff``.
"""
import pytest

from rulewright.compiler import load
from rulewright.compiler.diagnostics import RulesError
from helpers import ROOT

BAD = ROOT / "tests" / "bad"
CASES = sorted(BAD.rglob("*.rules"))


def test_corpus_is_large_enough():
    assert len(CASES) >= 15


@pytest.mark.parametrize("path", CASES, ids=[p.relative_to(BAD).with_suffix("").as_posix() for p in CASES])
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
