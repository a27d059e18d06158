"""The methods ``dataclasses`` writes for the front end's classes, compiled once and kept.

In:  a class, with ``dataclass`` used as ``dataclasses.dataclass`` is.
Out: the same dataclass; the code of each method written for it read back from the cache
     when this exact text was compiled before by this Python.

``dataclasses`` writes each method of a dataclass (``__init__``, ``__repr__``, ``__eq__``,
``__hash__``, and a frozen class's ``__setattr__`` and ``__delattr__``) as text and
compiles it, class by class, each time a module is imported: the syntax tree, the
checked program and the types make about 760 methods (620 different texts), a tenth of
a second of compiling before a command that reads a spec can start. While ``dataclass``
makes a class, the ``exec`` that ``dataclasses`` calls is this module's: a text compiled
before is run from a copy of its kept code, anything else is compiled as ``dataclasses``
compiles it (no flags of this module's). Everything else ``dataclasses`` does as it
always does, so every method is, code and annotations, the one ``dataclasses`` makes
(``tests/package/test_classcode.py`` compares them all). A dataclass another thread makes
meanwhile with ``dataclasses`` itself finds the same ``exec``: it is compiled as
``dataclasses`` would, and not kept.

The cache folder is the user's own, trusted as Python's ``__pycache__`` is; what is
checked guards against a damaged or stale entry, as for the generated modules
(``interpret/codecache.py``):

* a code object is found by the exact text it was compiled from, in a table kept for
  this Python's bytecode version (in its name and its header), so a changed class finds
  nothing of its old methods;
* the table is read only from a regular file of this user's in the cache folder, never
  through a link nor waiting on a pipe (``cache.read``), and only when its header and
  the hash of its bytes are whole and it holds texts and code compiled as here; it is
  written by the one writer (``cache.write``) at exit, when something new was compiled;
* ``RULEWRIGHT_CACHE=off``: nothing is read or kept, every method is compiled.

Only modules that ``cache`` does not import use it.
"""
# (no ``from __future__ import annotations`` here: ``exec`` and ``compile`` of a text would
# take it from this module, and the methods' annotations would be their local names)
import atexit
import builtins
import dataclasses
import marshal
import os
import threading
from importlib.util import MAGIC_NUMBER
from types import CodeType

from rulewright.compiler import cache

_HEADER = b"rulewright dataclass methods 2\n"     # (2: compiled without this module's flags)
MOST_KEPT = 2_000           # texts a table keeps (then only this process's are written; 620 today)
_NONE = object()
_LOCK = threading.RLock()
_table: "dict[str, CodeType] | None" = None     # the kept code, read when first needed
_new: "dict[str, CodeType]" = {}                # compiled by this process
_used: "set[str]" = set()
_owner = None                                   # the thread making a class here, while it does
COMPILED = 0                                    # texts this process compiled (tests read it)
_FUTURE = 0x1FE0000     # the code flags ``from __future__`` sets (none of these methods has one)


def dataclass(cls=None, /, **options):
    """``dataclasses.dataclass``, its methods' code kept between runs."""
    def make(c):
        global _owner
        with _LOCK:
            _kept()
            before, outer = dataclasses.__dict__.get("exec", _NONE), _owner
            dataclasses.exec = _exec        # (found before the builtin by ``dataclasses``)
            _owner = threading.get_ident()
            try:
                return dataclasses.dataclass(c, **options)
            finally:
                _owner = outer
                if before is _NONE:
                    dataclasses.__dict__.pop("exec", None)
                else:                       # (a class made while another is being made)
                    dataclasses.exec = before
    return make if cls is None else make(cls)


def _exec(source, globals=None, locals=None):
    """``exec`` of ``source`` (a method's text): from its kept code when there is one (each
    method its own copy of it, as each class has its own code when compiled afresh). Another
    thread's dataclass, made meanwhile with ``dataclasses`` itself, is compiled as
    ``dataclasses`` would and not kept."""
    global COMPILED
    if not isinstance(source, str) or threading.get_ident() != _owner:
        if isinstance(source, str):
            source = compile(source, "<string>", "exec", dont_inherit=True)
        return builtins.exec(source, globals, locals)
    code = _table.get(source) or _new.get(source)       # (``make`` read the table first)
    if code is None:
        code = _new[source] = compile(source, "<string>", "exec", dont_inherit=True)
        COMPILED += 1
    _used.add(source)
    return builtins.exec(_own(code), globals, locals)


def _own(code: CodeType) -> CodeType:
    """A copy of ``code`` and of the code it holds (a method's, inside the function that
    makes it): code shared by two classes' methods would share the caches the interpreter
    specialises it with, and run slower for both."""
    return code.replace(co_consts=tuple(_own(c) if isinstance(c, CodeType) else c for c in code.co_consts))


def _path():
    """The table's file (one for each bytecode version; None when caching is off)."""
    where = cache.directory()
    return None if where is None else where / f"classcode-{MAGIC_NUMBER.hex()}.marshal"


def _kept() -> dict[str, CodeType]:
    """The table of kept code (empty when there is none, or it is not whole)."""
    global _table
    if _table is None:
        _table = _read_back(cache.read(_path()))
    return _table


def _read_back(data: bytes | None) -> dict[str, CodeType]:
    """The table an entry holds, if it is whole and a table of texts and their code."""
    payload = cache.unsealed(data, _HEADER)
    if payload is None:
        return {}
    try:
        table = marshal.loads(payload)
    except Exception:       # noqa: BLE001 (whatever the bytes: compiled again)
        return {}
    if not isinstance(table, dict) or not all(isinstance(k, str) and isinstance(v, CodeType)
                                              and v.co_filename == "<string>" and not v.co_flags & _FUTURE
                                              for k, v in table.items()):
        return {}
    return table


@atexit.register
def _keep() -> None:
    """At exit: the table with what this process compiled, when it compiled anything."""
    if not _new:
        return
    table = {**_kept(), **_new}
    if len(table) > MOST_KEPT:
        table = {text: code for text, code in table.items() if text in _used}
    cache.write(_path(), cache.sealed(_HEADER, marshal.dumps(table)))


def _after_fork() -> None:
    """A child forked while another thread held the lock starts with a lock of its own."""
    global _LOCK, _owner
    _LOCK, _owner = threading.RLock(), None


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork)
