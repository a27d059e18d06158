"""The front end's cache is bounded: past ``RULEWRIGHT_CACHE_MB`` megabytes the entries
used longest ago go (reading one marks it used), and nothing but the writer's own entries
is ever counted or deleted. Every path of a spec is part of its entries' keys, so without
a bound each new folder a spec was checked in (a test's, a workbench session's) added
entries for good: a development machine's cache had grown to 17 GB, 293,000 files."""
from __future__ import annotations

import os
from pathlib import Path
import time

import pytest

from rulewright.compiler import cache, load

SPEC = 'game tiny "Tiny"\n/// The answer.\ndef answer [T-1] = {value}\n'
MB = 1 << 20


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A cache folder of the test's own, this process counted as having written nothing."""
    where = tmp_path / "cache"
    monkeypatch.setenv("RULEWRIGHT_CACHE", str(where))
    monkeypatch.setattr(cache, "_WRITTEN", [0, False])
    cache.directory.cache_clear()
    where.mkdir()
    yield where
    cache.directory.cache_clear()


def _entry(where, n: int, size: int, age: float) -> str:
    name = f"program-{n:024x}.pickle"
    path = where / name
    path.write_bytes(b"x" * size)
    then = time.time() - age
    os.utime(path, (then, then))
    return name


def _held(where) -> int:
    return sum(p.stat().st_size for p in where.iterdir() if p.is_file() and not p.is_symlink())


def test_past_the_bound_the_entries_used_longest_ago_go_down_to_three_quarters(folder, tmp_path):
    names = [_entry(folder, n, 100_000, age=1000 - n) for n in range(20)]     # 2 MB, the first the oldest
    kept_elsewhere = tmp_path / "mine.pickle"
    kept_elsewhere.write_bytes(b"y" * 500_000)
    (folder / "notes.txt").write_bytes(b"z" * 500_000)                    # not an entry: never touched
    (folder / f"program-{99:024x}.pickle").symlink_to(kept_elsewhere)     # a link named as an entry
    (folder / f"ast-{98:024x}.pickle").mkdir()                            # a folder named as one
    freed = cache.prune(folder, 1 * MB)
    left = sorted(p.name for p in folder.iterdir() if p.name.startswith("program-") and not p.is_symlink())
    assert left == names[len(names) - len(left):]                         # the newest kept, in one run
    assert len(left) * 100_000 <= 3 * MB // 4 < (len(left) + 1) * 100_000
    assert freed == (len(names) - len(left)) * 100_000
    assert (folder / "notes.txt").exists() and (folder / f"ast-{98:024x}.pickle").is_dir()
    assert (folder / f"program-{99:024x}.pickle").is_symlink() and kept_elsewhere.stat().st_size == 500_000


def test_within_three_quarters_nothing_goes_and_a_stopped_write_goes_after_an_hour(folder):
    names = [_entry(folder, n, 150_000, age=10 * n) for n in range(5)]      # 750,000 bytes
    old = folder / f".{names[0]}.{'a' * 12}.tmp"
    new = folder / f".{names[1]}.{'b' * 12}.tmp"
    for path, age in ((old, 7200), (new, 60)):
        path.write_bytes(b"t" * 1000)
        os.utime(path, (time.time() - age,) * 2)
    assert cache.prune(folder, MB) == 1000
    assert all((folder / n).exists() for n in names) and not old.exists() and new.exists()


def test_reading_an_entry_back_marks_it_used(folder):
    names = [_entry(folder, n, 100_000, age=1000 - n) for n in range(12)]    # 1.2 MB
    assert cache.read(folder / names[0]) == b"x" * 100_000                   # the oldest, read now
    cache.prune(folder, MB)
    assert (folder / names[0]).exists() and not (folder / names[1]).exists()


def test_a_process_that_writes_keeps_the_cache_within_its_bound(folder, monkeypatch):
    monkeypatch.setenv("RULEWRIGHT_CACHE_MB", "1")
    for n in range(40):                        # 4 MB written, in entries of 100 kB
        assert cache.write(cache.path_for("program", f"input {n}"), b"v" * 100_000)
        assert _held(folder) <= MB
    assert _held(folder) >= MB // 2             # what was kept is the newest
    assert cache.read(cache.path_for("program", "input 39")) == b"v" * 100_000
    assert cache.read(cache.path_for("program", "input 0")) is None


def test_a_process_looks_at_its_first_write_unless_another_looked_within_the_minute(folder, monkeypatch):
    monkeypatch.setenv("RULEWRIGHT_CACHE_MB", "1")
    for n in range(15):
        _entry(folder, n, 100_000, age=1000 - n)                          # 1.5 MB: over the bound
    (folder / ".pruned").write_bytes(b"")                                  # another process just looked
    cache.write(cache.path_for("ast", "one"), b"a")
    assert _held(folder) > MB                   # (its first quarter of the bound not yet written)
    monkeypatch.setattr(cache, "_WRITTEN", [0, False])                    # a new process, a minute later
    os.utime(folder / ".pruned", (time.time() - 61,) * 2)
    cache.write(cache.path_for("ast", "two"), b"b")
    assert _held(folder) <= 3 * MB // 4


@pytest.mark.parametrize("setting, bound", [("64", 64 * MB), ("", cache.MOST_CACHE_BYTES),
                                            ("0", cache.MOST_CACHE_BYTES), ("lots", cache.MOST_CACHE_BYTES),
                                            ("-5", cache.MOST_CACHE_BYTES)])
def test_the_bound_is_a_whole_number_of_megabytes_or_512(monkeypatch, setting, bound):
    monkeypatch.setenv("RULEWRIGHT_CACHE_MB", setting)
    assert cache.most_cache_bytes() == bound


def test_specs_checked_in_ever_new_folders_leave_a_bounded_cache(folder, tmp_path, monkeypatch):
    """The case that grew without end: a spec checked from one new folder after another
    (each a new key), here under a bound of 300,000 bytes (the parser's tables alone take
    460,000: they go first, and are made again by the next process that needs them).
    Every load still reads its own spec right, the first one too once its entries went."""
    from rulewright.compiler.interpret import Interpreter
    monkeypatch.setattr(cache, "most_cache_bytes", lambda: 300_000)

    def answer(n: int) -> int:
        program = load(tmp_path / f"session{n}" / "tiny.rules")
        return Interpreter(program).evaluate(program.funcs["answer"].body, {})
    held = []
    for n in range(40):
        spec = tmp_path / f"session{n}" / "tiny.rules"
        spec.parent.mkdir()
        spec.write_text(SPEC.format(value=n))
        assert answer(n) == n
        held.append(_held(folder))
    assert max(held[1:]) <= 300_000 and held[-1] > 0
    assert answer(0) == 0


def test_every_entry_a_run_makes_is_named_as_prune_counts_it(folder):
    """Every place that names an entry (``path_for`` for parsed files, programs, compiled
    code and verify's answers; the compiled classes; the parser's tables) names it as
    ``prune`` reads entries: an entry it could not read would be kept for good."""
    from rulewright.compiler import classcode
    from rulewright.compiler.syntax import parse
    from rulewright.solver.verify import kept
    spec = folder.parent / "tiny.rules"
    spec.write_text(SPEC.format(value=1))
    load(spec)
    names = [p.name for p in folder.iterdir() if p.name != ".pruned"]
    assert {n.split("-")[0] for n in names} >= {"ast", "program"}, names
    names += [Path(parse._cache_file("grammar text")).name, classcode._path().name,
              cache.path_for("code", "x", suffix=".marshal").name, cache.path_for(kept.KIND, "x").name]
    assert all(cache._ENTRY.fullmatch(n) for n in names), names
