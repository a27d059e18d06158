"""The methods ``dataclasses`` writes for the front end's classes, compiled once and kept.

In:  a class, with ``dataclass`` used as ``dataclasses.dataclass`` is.
Out: the same dataclass; the code of each method written for it read back from the cache
     when this exact text was compiled before by this Python.

``dataclasses`` writes each method of a dataclass (``__init__``, ``__repr__``, ``__eq__``,
``__hash__``, and a frozen class's ``__setattr__`` and ``__delattr__``) as text and
compiles it, class by class, each time a module is imported: the syntax tree, the
checked program and the types make about 760 methods (620 different texts), a tenth of
a second of compiling before a command that reads a spec can start. While ``dataclass`` makes a class, the
``exec`` that ``dataclasses`` calls is this module's: a text compiled before is run from
its kept code, anything else is compiled as before. Everything else ``dataclasses`` does
as it always does, so a class made here is the class ``dataclasses`` makes.

The guard holds as for the generated modules (``interpret/codecache.py``):

* a code object is found by the exact text it was compiled from, in a table kept for
  this Python's bytecode version, so a changed class finds nothing of its old methods;
* the table is read only from a regular file of this user's in the cache folder, never
  through a link (``cache.read``), and only when its header, version and hash of its
  bytes are whole; it is written by the one writer (``cache.write``), once, at exit,
  when something new was compiled;
* ``RULEWRIGHT_CACHE=off``: nothing is read or kept, every method is compiled.

Only modules that ``cache`` does not import use it.
"""
from __future__ import annotations

import atexit
import builtins
import dataclasses
import hashlib
import marshal
import threading
from importlib.util import MAGIC_NUMBER
from types import CodeType

from rulewright.compiler import cache

_HEADER = b"rulewright dataclass methods\n"
MOST_KEPT = 2_000           # texts a table keeps (then only this process's are written; 620 today)
_NONE = object()
_LOCK = threading.RLock()
_table: dict[str, CodeType] | None = None       # the kept code, read when first needed
_new: dict[str, CodeType] = {}                  # compiled by this process
_used: set[str] = set()
COMPILED = 0                                    # texts this process compiled (tests read it)


def dataclass(cls=None, /, **options):
    """``dataclasses.dataclass``, its methods' code kept between runs."""
    def make(c):
        with _LOCK:
            _kept()
            before = dataclasses.__dict__.get("exec", _NONE)
            dataclasses.exec = _exec        # (found before the builtin by ``dataclasses``)
            try:
                return dataclasses.dataclass(c, **options)
            finally:
                if before is _NONE:
                    dataclasses.__dict__.pop("exec", None)
                else:                       # (a class made while another is being made)
                    dataclasses.exec = before
    return make if cls is None else make(cls)


def _exec(source, globals=None, locals=None):
    """``exec`` of ``source`` (a method's text): from its kept code when there is one."""
    global COMPILED
    if not isinstance(source, str):
        return builtins.exec(source, globals, locals)
    code = (_table or {}).get(source) or _new.get(source)
    if code is None:
        code = _new[source] = compile(source, "<string>", "exec")
        COMPILED += 1
        if len(_new) == 1:
            atexit.register(_keep)
    _used.add(source)
    return builtins.exec(code, globals, locals)


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
    if data is None:
        return {}
    start = len(_HEADER) + len(MAGIC_NUMBER)
    head, magic, sum_, payload = data[:len(_HEADER)], data[len(_HEADER):start], data[start:start + 32], \
        data[start + 32:]
    if head != _HEADER or magic != MAGIC_NUMBER or hashlib.sha256(payload).digest() != sum_:
        return {}
    try:
        table = marshal.loads(payload)
    except Exception:       # noqa: BLE001 (whatever the bytes: compiled again)
        return {}
    if not isinstance(table, dict) or not all(isinstance(k, str) and isinstance(v, CodeType)
                                              for k, v in table.items()):
        return {}
    return table


def _keep() -> None:
    """At exit: the table with what this process compiled, written once."""
    table = {**_kept(), **_new}
    if len(table) > MOST_KEPT:
        table = {text: code for text, code in table.items() if text in _used}
    payload = marshal.dumps(table)
    cache.write(_path(), _HEADER + MAGIC_NUMBER + hashlib.sha256(payload).digest() + payload)
