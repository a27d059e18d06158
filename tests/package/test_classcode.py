"""The methods ``dataclasses`` writes for the front end's classes are compiled once and
kept (``compiler/classcode.py``): a new process reads them back and compiles none; the
classes are those ``dataclasses`` makes; a damaged or tampered table, one behind a link,
or ``RULEWRIGHT_CACHE=off`` means compiling them as before, never running what the file
says."""
from __future__ import annotations

import dataclasses
import hashlib
import json
import marshal
import os
import subprocess
import sys
from importlib.util import MAGIC_NUMBER
from pathlib import Path

import pytest

from rulewright.compiler import classcode

ROOT = Path(__file__).resolve().parents[2]

# a new Python imports the checked program's module (the syntax tree and the types with
# it) and says how many methods it compiled and how its classes behave
PROBE = """
import json, dataclasses
from rulewright.compiler import classcode
from rulewright.compiler.syntax import ast as A
from rulewright.compiler.diagnostics import Span
from rulewright.compiler import ir, types
span = Span("f.rules", 1, 2, 1, 3)
node = A.TypeName(span, "colour")
try:
    node.name = "other"
    frozen = False
except dataclasses.FrozenInstanceError:
    frozen = True
print(json.dumps({"compiled": classcode.COMPILED, "repr": repr(node),
                  "eq": node == A.TypeName(span, "colour"), "ne": node != A.TypeName(span, "size"),
                  "hash": hash(node) == hash(A.TypeName(span, "colour")), "frozen": frozen,
                  "int": repr(types.IntT()), "fields": [f.name for f in dataclasses.fields(A.TypeName)]}))
"""


def _probe(cache_dir) -> dict:
    env = {**os.environ, "RULEWRIGHT_CACHE": str(cache_dir)}
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env=env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _table(cache_dir) -> Path:
    [table] = Path(cache_dir).glob("classcode-*.marshal")
    return table


EXPECTED = {"repr": "TypeName(span=Span(file='f.rules', line=1, col=2, end_line=1, end_col=3), name='colour')",
            "eq": True, "ne": True, "hash": True, "frozen": True, "int": "IntT()", "fields": ["span", "name"]}


def test_a_new_process_reads_the_methods_back_and_compiles_none(tmp_path):
    first = _probe(tmp_path)
    assert first["compiled"] > 500                      # the syntax tree, the program, the types
    assert _table(tmp_path).name == f"classcode-{MAGIC_NUMBER.hex()}.marshal"
    again = _probe(tmp_path)
    assert again["compiled"] == 0
    for seen in (first, again):
        assert {k: v for k, v in seen.items() if k != "compiled"} == EXPECTED


def test_a_tampered_table_is_not_run(tmp_path):
    _probe(tmp_path)
    table = _table(tmp_path)
    data = table.read_bytes()
    head = len(classcode._HEADER) + len(MAGIC_NUMBER)
    kept = marshal.loads(data[head + 32:])
    [text] = [t for t in kept if "def __repr__" in t and "self.name" in t and "self.span" in t][:1]
    other = compile(text.replace("return ", "return 'tampered' or ", 1), "<string>", "exec")
    # other code for one method, the header and its hash left as they were
    table.write_bytes(data[:head + 32] + marshal.dumps({**kept, text: other}))
    seen = _probe(tmp_path)
    assert seen["repr"] == EXPECTED["repr"] and seen["compiled"] > 500
    table.write_bytes(b"not a table")
    assert _probe(tmp_path)["repr"] == EXPECTED["repr"]


def test_a_table_whose_hash_was_made_again_is_checked_by_its_texts(tmp_path):
    """Whole and well formed, but not a table of texts and code: passed over."""
    _probe(tmp_path)
    table = _table(tmp_path)
    kept = marshal.loads(table.read_bytes()[len(classcode._HEADER) + len(MAGIC_NUMBER) + 32:])
    payload = marshal.dumps({**kept, next(iter(kept)): 42})
    table.write_bytes(classcode._HEADER + MAGIC_NUMBER + hashlib.sha256(payload).digest() + payload)
    seen = _probe(tmp_path)
    assert seen["compiled"] > 500 and seen["repr"] == EXPECTED["repr"]


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links")
def test_a_table_behind_a_link_is_not_read(tmp_path):
    _probe(tmp_path / "cache")
    table = _table(tmp_path / "cache")
    elsewhere = tmp_path / "elsewhere.marshal"
    table.rename(elsewhere)
    table.symlink_to(elsewhere)
    before = elsewhere.read_bytes()
    assert _probe(tmp_path / "cache")["compiled"] > 500
    assert table.is_symlink() and elsewhere.read_bytes() == before      # (not written through it either)


def test_nothing_is_kept_when_the_cache_is_off(tmp_path):
    seen = _probe("off")
    assert seen["compiled"] > 500 and seen["repr"] == EXPECTED["repr"]
    assert not (ROOT / "off").exists()


def test_a_class_made_here_is_the_class_dataclasses_makes():
    def made(decorator, **options):
        @decorator(**options)
        class Point:
            x: int
            y: int = 0
            tags: tuple = dataclasses.field(default_factory=tuple)
        return Point

    for options in ({}, {"frozen": True}, {"eq": False}, {"order": True}):
        mine, theirs = made(classcode.dataclass, **options), made(dataclasses.dataclass, **options)
        a, b = mine(1, 2), theirs(1, 2)
        assert repr(a).replace("made.<locals>.", "") == repr(b).replace("made.<locals>.", "")
        assert [f.name for f in dataclasses.fields(mine)] == [f.name for f in dataclasses.fields(theirs)]
        assert (a == mine(1, 2)) == (b == theirs(1, 2))
        assert sorted(vars(mine)) == sorted(vars(theirs))
        if options.get("frozen"):
            with pytest.raises(dataclasses.FrozenInstanceError):
                a.x = 3
            assert hash(a) == hash(mine(1, 2))
        if options.get("order"):
            assert mine(1, 2) < mine(2, 0)
    assert not hasattr(dataclasses, "exec")         # (put back once the class is made)


def test_a_class_made_while_another_is_made_leaves_the_outer_one_as_it_was():
    """``dataclasses`` finds ``exec`` as one of its module's names while a class is made: a
    class made in the middle of another's making puts back what was there, not nothing."""
    import builtins

    def outer_exec(*args):
        return builtins.exec(*args)
    dataclasses.exec = outer_exec
    try:
        @classcode.dataclass(frozen=True)
        class Inner:
            a: int
        assert Inner(1) == Inner(1) and dataclasses.exec is outer_exec
    finally:
        del dataclasses.exec
