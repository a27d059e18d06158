"""The methods ``dataclasses`` writes for the front end's classes are compiled once and
kept (``compiler/classcode.py``): a new process reads them back and compiles none; every
method of every class of the syntax tree, the checked program and the types is, code and
annotations, the one ``dataclasses`` makes, whether compiled or read back; a damaged table,
one that is not a table of methods' code, one behind a link, a pipe at its name, or
``RULEWRIGHT_CACHE=off`` mean compiling them as before; another thread's dataclass made
meanwhile is not touched."""
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
                  "int": repr(types.IntT()), "fields": [f.name for f in dataclasses.fields(A.TypeName)],
                  "annotations": {k: str(v) for k, v in A.TypeName.__init__.__annotations__.items()}}))
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
            "eq": True, "ne": True, "hash": True, "frozen": True, "int": "IntT()", "fields": ["span", "name"],
            "annotations": {"span": "Span", "name": "str", "return": "None"}}


def test_a_new_process_reads_the_methods_back_and_compiles_none(tmp_path):
    first = _probe(tmp_path)
    assert first["compiled"] > 500                      # the syntax tree, the program, the types
    assert _table(tmp_path).name == f"classcode-{MAGIC_NUMBER.hex()}.marshal"
    again = _probe(tmp_path)
    assert again["compiled"] == 0
    for seen in (first, again):
        assert {k: v for k, v in seen.items() if k != "compiled"} == EXPECTED


def test_a_damaged_table_is_not_run(tmp_path):
    _probe(tmp_path)
    table = _table(tmp_path)
    data = table.read_bytes()
    head = len(classcode._HEADER) + len(MAGIC_NUMBER)
    kept = marshal.loads(data[head + 32:])
    [text] = [t for t in kept if "def __repr__" in t and "self.name" in t and "self.span" in t][:1]
    other = compile(text.replace("return ", "return 'tampered' or ", 1), "<string>", "exec")
    # other code for one method, the header and its hash left as they were (a table damaged,
    # or changed by hand: its hash no longer says it is whole)
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
def test_a_table_of_code_compiled_with_other_flags_is_passed_over(tmp_path):
    """Whole, with the right texts, but its code compiled under ``from __future__ import
    annotations`` (the methods' annotations would be the names of dataclasses' locals)."""
    import __future__
    _probe(tmp_path)
    table = _table(tmp_path)
    kept = marshal.loads(table.read_bytes()[len(classcode._HEADER) + len(MAGIC_NUMBER) + 32:])
    other = {t: compile(t, "<string>", "exec", flags=__future__.annotations.compiler_flag, dont_inherit=True)
             for t in kept}
    payload = marshal.dumps(other)
    table.write_bytes(classcode._HEADER + MAGIC_NUMBER + hashlib.sha256(payload).digest() + payload)
    seen = _probe(tmp_path)
    assert seen["compiled"] > 500 and seen["annotations"] == {"span": "Span", "name": "str", "return": "None"}


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


def test_a_class_made_here_is_the_class_dataclasses_makes(monkeypatch):
    monkeypatch.setattr(classcode, "_new", {})         # (kept out of the table this process writes)
    monkeypatch.setattr(classcode, "_used", set())

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


def test_a_class_made_while_another_is_made_leaves_the_outer_one_as_it_was(monkeypatch):
    """``dataclasses`` finds ``exec`` as one of its module's names while a class is made: a
    class made in the middle of another's making puts back what was there, not nothing."""
    import builtins

    monkeypatch.setattr(classcode, "_new", {})
    monkeypatch.setattr(classcode, "_used", set())

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


# every generated method of every dataclass of the three modules, as a fingerprint: its code
# (bytes, constants, names, flags), annotations, defaults and closure (``plain``: made by
# ``dataclasses`` itself, the modules reading ``dataclass`` from a stand-in module)
FINGERPRINT = """
import sys, json, dataclasses, types as T
if sys.argv[1] == "plain":
    import rulewright.compiler
    stand_in = T.ModuleType("rulewright.compiler.classcode")
    stand_in.dataclass = dataclasses.dataclass
    sys.modules["rulewright.compiler.classcode"] = stand_in
from rulewright.compiler.syntax import ast as A
from rulewright.compiler import ir, types

def code(c):
    return [c.co_code.hex(), repr([code(x) if isinstance(x, T.CodeType) else x for x in c.co_consts]),
            c.co_names, c.co_varnames, c.co_freevars, c.co_flags, c.co_qualname, c.co_filename]

out = {}
for mod in (A, ir, types):
    for name, cls in sorted(vars(mod).items()):
        if isinstance(cls, type) and dataclasses.is_dataclass(cls) and cls.__module__ == mod.__name__:
            for meth in ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__"):
                f = cls.__dict__.get(meth)
                f = getattr(f, "__wrapped__", f)
                if isinstance(f, T.FunctionType):
                    out[name + "." + meth] = [code(f.__code__), repr(f.__annotations__), repr(f.__defaults__),
                                              [repr(c.cell_contents) for c in f.__closure__ or ()]]
            out[name] = sorted(cls.__dict__)
codes = [f.__code__ for mod in (A, ir, types) for cls in vars(mod).values()
         if isinstance(cls, type) and dataclasses.is_dataclass(cls) and cls.__module__ == mod.__name__
         for f in vars(cls).values() if isinstance(f, T.FunctionType)]
out["(methods sharing one code object)"] = len(codes) - len(set(map(id, codes)))
print(json.dumps(out))
"""


def _fingerprint(how: str, cache_dir) -> dict:
    env = {**os.environ, "RULEWRIGHT_CACHE": str(cache_dir)}
    done = subprocess.run([sys.executable, "-c", FINGERPRINT, how], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_every_method_is_the_one_dataclasses_makes_compiled_or_read_back(tmp_path):
    plain = _fingerprint("plain", tmp_path / "plain")
    assert len(plain) > 500 and not (tmp_path / "plain").exists()
    compiled = _fingerprint("here", tmp_path / "here")
    read_back = _fingerprint("here", tmp_path / "here")
    for made in (compiled, read_back):
        assert made.keys() == plain.keys()
        differ = [k for k in plain if made[k] != plain[k]]
        assert not differ, (len(differ), differ[:3], made[differ[0]], plain[differ[0]])
    # (annotations of the fields' types, not of the names of dataclasses' locals)
    assert "'_type_" not in json.dumps(read_back)


def test_another_threads_dataclass_made_meanwhile_is_compiled_as_dataclasses_would(monkeypatch):
    """``dataclasses`` finds this module's ``exec`` while a class is made here, whichever
    thread calls it: a text from a thread that is not making a class here is compiled as
    ``dataclasses`` compiles it and not kept."""
    monkeypatch.setattr(classcode, "_new", {})
    text = "def __create_fn__(_type_x, _return_type):\n def __init__(self, x:_type_x)->_return_type:\n  self.x=x\n return __init__"
    ns: dict = {}
    classcode._exec(text, {}, ns)           # (no class being made here: as another thread)
    made = ns["__create_fn__"](int, None)
    assert made.__annotations__ == {"x": int, "return": None} and not classcode._new


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")
def test_a_pipe_at_the_tables_name_is_passed_over_not_waited_on(tmp_path):
    cache_dir = tmp_path / "cache"
    cache_dir.mkdir()
    os.mkfifo(cache_dir / f"classcode-{MAGIC_NUMBER.hex()}.marshal")
    assert _probe(cache_dir)["compiled"] > 500       # (a read that waited would hit the timeout)


FORKED = """
import os, threading
from rulewright.compiler import classcode
held, release = threading.Event(), threading.Event()

def hold():
    with classcode._LOCK:
        held.set()
        release.wait()
holder = threading.Thread(target=hold)
holder.start()
held.wait()
child = os.fork()
if child == 0:
    import signal
    signal.alarm(30)            # (a child that waits for ever ends, failing the test)
    @classcode.dataclass(frozen=True)
    class Point:
        x: int
    os._exit(0 if Point(1).x == 1 else 3)
release.set()
holder.join()
print(os.waitstatus_to_exitcode(os.waitpid(child, 0)[1]))
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork")
def test_a_child_forked_while_another_thread_makes_a_class_can_make_its_own(tmp_path):
    """(A lock held by a thread the child does not have would never be let go.)"""
    env = {**os.environ, "RULEWRIGHT_CACHE": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", FORKED], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env=env)
    assert done.returncode == 0 and done.stdout.strip() == "0", done.stderr
