"""The front end's cache: parsed files kept between runs are read back only for the
same text, path and compiler, and a cache that is off, missing or broken changes
nothing but the time it takes."""
from __future__ import annotations

import pytest

from rulewright.compiler import cache, load
from rulewright.compiler.diagnostics import SpecSyntaxError

SPEC = """game tiny "Tiny"
/// The answer.
def answer [T-1] = {value}
"""


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch):
    """A cache directory of the test's own (``RULEWRIGHT_CACHE``)."""
    where = tmp_path / "cache"
    monkeypatch.setenv("RULEWRIGHT_CACHE", str(where))
    cache.directory.cache_clear()
    yield where
    cache.directory.cache_clear()


def answer_of(path) -> int:
    program = load(path)
    from rulewright.compiler.interpret import Interpreter
    return Interpreter(program).evaluate(program.funcs["answer"].body, {})


def test_a_parsed_file_is_kept_and_read_back(tmp_path, fresh_cache):
    spec = tmp_path / "tiny.rules"
    spec.write_text(SPEC.format(value=41 + 1))
    assert answer_of(spec) == 42
    kept = sorted(fresh_cache.glob("ast-*.pickle"))
    assert len(kept) == 1
    # read back: the kept result is what load uses, as a doctored entry shows (the
    # parse of another text stored under this file's key)
    other = tmp_path / "other.rules"
    other.write_text(SPEC.format(value=5))
    load(other)
    doctored = cache.load("ast", str(other), other.read_text())
    cache.store("ast", doctored, str(spec), spec.read_text())
    assert answer_of(spec) == 5
    assert len(list(fresh_cache.glob("ast-*.pickle"))) == 2


def test_a_changed_file_is_parsed_again(tmp_path, fresh_cache):
    spec = tmp_path / "tiny.rules"
    spec.write_text(SPEC.format(value=1))
    assert answer_of(spec) == 1
    spec.write_text(SPEC.format(value=2))
    assert answer_of(spec) == 2
    assert len(list(fresh_cache.glob("ast-*.pickle"))) == 2


def test_a_broken_entry_is_passed_over(tmp_path, fresh_cache):
    spec = tmp_path / "tiny.rules"
    spec.write_text(SPEC.format(value=7))
    assert answer_of(spec) == 7
    for f in fresh_cache.glob("ast-*.pickle"):
        f.write_bytes(b"not a pickle")
    assert answer_of(spec) == 7


def test_with_the_cache_off_nothing_is_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEWRIGHT_CACHE", "off")
    cache.directory.cache_clear()
    try:
        assert cache.directory() is None
        spec = tmp_path / "tiny.rules"
        spec.write_text(SPEC.format(value=3))
        assert answer_of(spec) == 3
        assert cache.load("ast", str(spec), spec.read_text()) is None
    finally:
        cache.directory.cache_clear()


def test_a_syntax_error_is_never_kept_and_still_shows_its_line(tmp_path, fresh_cache):
    spec = tmp_path / "tiny.rules"
    spec.write_text(SPEC.format(value="1 +"))
    for _ in range(2):
        with pytest.raises(SpecSyntaxError) as err:
            load(spec)
        text = err.value.render()
        assert "tiny.rules:3:" in text and "def answer [T-1] = 1 +" in text
    assert not list(fresh_cache.glob("ast-*.pickle"))


def test_an_error_found_after_parsing_shows_its_line_from_a_cached_file(tmp_path, fresh_cache):
    """The source of a file read back from the cache is still registered, so a
    later diagnostic shows the offending line with its caret."""
    spec = tmp_path / "tiny.rules"
    spec.write_text(SPEC.format(value="nothing_here"))
    texts = []
    for _ in range(2):
        with pytest.raises(Exception) as err:
            load(spec)
        texts.append(err.value.render())
    assert len(list(fresh_cache.glob("ast-*.pickle"))) == 1
    assert texts[0] == texts[1]
    assert "def answer [T-1] = nothing_here" in texts[1] and "^" in texts[1]
