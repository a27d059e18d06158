"""What the front end computes from files, kept between runs.

In:  a kind (``grammar``, ``ast``, ``program``, ``code``), the texts a result is computed
     from, the result.
Out: the result of an earlier run on the same texts and the same front end, or None.

Building the parser's tables takes about a second and parsing a large spec half a
second; a command that only reads them back starts in a fraction of
that. Results live in ``$RULEWRIGHT_CACHE``, else ``$XDG_CACHE_HOME/rulewright``,
else ``~/.cache/rulewright``; ``RULEWRIGHT_CACHE=off`` keeps nothing. A file's key
is a hash of its inputs and of the front end's own source (the grammar and every
module of ``compiler/``), so a changed spec, a changed path or a changed compiler
never reads an old result. A cache that cannot be read or written is passed over.

What is kept: a file's syntax tree (``ast``, by ``loader.parse_files``), a checked
program with what it was made from (``program``, by ``loader.load``), the compiled code
of a program's generated module (``code``, by ``interpret/codecache.py``). Every entry
is written by the one writer (``files.write_bytes``: never through a symbolic link,
whole or not at all) and read only when it is a regular file of this user's, not
through a link (``read``).

The cache is bounded by ``RULEWRIGHT_CACHE_MB`` megabytes (512 unless set to another
whole number): when a process looks, past three quarters of the bound, the entries read
or written longest ago are deleted down to three quarters (``prune``: reading an entry
marks it used). A process looks at its first write when no process has looked within
the last minute (the ``.pruned`` marker's age), and again after each quarter of the
bound it writes, so what one process writes never takes the cache past its bound.
Only files named as the writer names entries (and the temporary files of writes that
were stopped, after an hour) are ever deleted, never a link, a folder or another file:
``RULEWRIGHT_CACHE`` may name a folder that holds other things.
"""
from __future__ import annotations

import gc
import hashlib
import io
import os
import pickle
import re
import stat
import sys
import time
from functools import lru_cache
from importlib.util import MAGIC_NUMBER
from pathlib import Path

from rulewright.compiler import files
from rulewright.compiler.semantics import runtime as rt

_HERE = Path(__file__).parent

# The largest entry read back (a program of a large spec is about a megabyte).
MOST_BYTES = 256 * 1024 * 1024
# The most the cache holds unless RULEWRIGHT_CACHE_MB says otherwise.
MOST_CACHE_BYTES = 512 << 20
# Seconds between two looks at the cache's size by processes that write little.
PRUNE_EVERY = 60.0
# How entries are named (a kind, a hash: ``path_for``, classcode.py, the parser's tables in
# syntax/parse.py), and the temporary files of the writer's writes (files.py).
_KINDS = r"[a-z]+-[0-9a-f]{8,64}\.(?:pickle|marshal|lark)"
_ENTRY = re.compile(_KINDS)
_LEFT_OVER = re.compile(r"\." + _KINDS + r"\.[0-9a-f]{12}\.tmp")
_MARKER = ".pruned"


@lru_cache(maxsize=1)
def directory() -> Path | None:
    """The cache directory, made if needed; None when caching is off or impossible."""
    where = os.environ.get("RULEWRIGHT_CACHE")
    if where is not None and where.strip().lower() == "off":
        return None
    if not where:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        where = os.path.join(base, "rulewright")
    try:
        os.makedirs(where, exist_ok=True)
    except OSError:
        return None
    return Path(where) if os.access(where, os.W_OK) else None


@lru_cache(maxsize=1)
def front_end_version() -> str:
    """A hash of the grammar, the compiler's modules and Python's version."""
    h = hashlib.sha256(f"python {sys.version_info[0]}.{sys.version_info[1]}".encode())
    for f in sorted(_HERE.rglob("*.py")) + [_HERE / "syntax" / "grammar.lark"]:
        h.update(f.name.encode())
        h.update(f.read_bytes())
    return h.hexdigest()


def key(kind: str, *inputs: str) -> str:
    """The hash naming a result of ``kind`` computed from ``inputs`` by this front end."""
    h = hashlib.sha256(front_end_version().encode())
    h.update(b"\0" + kind.encode())
    for text in inputs:
        h.update(b"\0" + text.encode("utf-8", errors="surrogatepass"))
    return h.hexdigest()


def path_for(kind: str, *inputs: str, suffix: str = ".pickle") -> Path | None:
    """The file of a result computed from ``inputs`` (None when caching is off)."""
    where = directory()
    if where is None:
        return None
    return where / f"{kind}-{key(kind, *inputs)[:24]}{suffix}"


def read(path: Path | None) -> bytes | None:
    """The bytes of a cache entry; None when there is none, or it is not a regular file of
    this user's (a link, a folder, a file another user put there) or larger than
    ``MOST_BYTES``."""
    if path is None:
        return None
    try:
        # (not blocking: a pipe put where an entry goes is refused below, not waited on)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
                     | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MOST_BYTES or \
                (hasattr(os, "geteuid") and info.st_uid != os.geteuid()):
            return None
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read(MOST_BYTES + 1)
        _used(fd)
        return data
    except OSError:
        return None
    finally:
        os.close(fd)


def _used(fd: int) -> None:
    """An entry read back is marked used now (its time of change), so ``prune`` keeps it
    over the entries used longer ago."""
    if os.utime in os.supports_fd:
        try:
            os.utime(fd)
        except OSError:
            pass


def write(path: Path | None, data: bytes) -> bool:
    """``data`` kept as the entry ``path`` by the one writer; False when it cannot be."""
    where = directory()
    if path is None or where is None:
        return False
    try:
        files.write_bytes(path, data, inside=where)
    except Exception:       # a full disk, a folder taken away: the entry is not kept
        return False
    _wrote(where, len(data))
    return True


_WRITTEN = [0, False]       # bytes written by this process since it last looked; whether it has


def most_cache_bytes() -> int:
    """The cache's bound: ``RULEWRIGHT_CACHE_MB`` megabytes when it is a whole number
    above 0, else ``MOST_CACHE_BYTES``."""
    text = os.environ.get("RULEWRIGHT_CACHE_MB", "").strip()
    return int(text) << 20 if text.isdigit() and 0 < int(text) < 1 << 40 else MOST_CACHE_BYTES


def _wrote(where: Path, size: int) -> None:
    """After a write: the cache's size looked at (``prune``) at this process's first
    write unless another process looked within ``PRUNE_EVERY`` seconds, and after each
    quarter of the bound this process writes."""
    most = most_cache_bytes()
    _WRITTEN[0] += size
    if _WRITTEN[1] and _WRITTEN[0] < most // 4:
        return
    by_size = _WRITTEN[1]
    _WRITTEN[0], _WRITTEN[1] = 0, True
    marker = where / _MARKER
    if not by_size:
        try:
            age = time.time() - os.stat(marker, follow_symlinks=False).st_mtime
            if 0 <= age < PRUNE_EVERY:
                return
        except OSError:
            pass
    try:
        files.write_bytes(marker, b"", inside=where)
    except Exception:
        return
    prune(where, most)


def prune(where: Path, most: int) -> int:
    """The entries of the cache folder ``where`` used longest ago deleted until they hold at
    most three quarters of ``most`` bytes; temporary files of writes stopped over an hour
    ago deleted too. Only regular files named as the writer names them are counted or
    deleted. The bytes deleted."""
    entries, total, freed, now = [], 0, 0, time.time()
    try:
        with os.scandir(where) as found:
            for e in found:
                entry = _ENTRY.fullmatch(e.name)
                if not entry and not _LEFT_OVER.fullmatch(e.name):
                    continue
                try:
                    info = e.stat(follow_symlinks=False)
                except OSError:
                    continue
                if not stat.S_ISREG(info.st_mode):
                    continue
                if entry:
                    entries.append((info.st_mtime, info.st_size, e.name))
                    total += info.st_size
                elif now - info.st_mtime > 3600:
                    freed += _deleted(where, e.name, info.st_size)
    except OSError:
        return freed
    if total <= most * 3 // 4:
        return freed
    entries.sort()
    for _, size, name in entries:
        if total <= most * 3 // 4:
            break
        gone = _deleted(where, name, size)
        total -= gone
        freed += gone
    return freed


def _deleted(where: Path, name: str, size: int) -> int:
    try:
        os.unlink(where / name)         # (a name, never followed: a link put there is itself removed)
    except OSError:
        return 0
    return size


def sealed(head: bytes, payload: bytes) -> bytes:
    """An entry of code kept with ``marshal``: ``head`` (what it is, what it was made from),
    this Python's bytecode version, the hash of ``payload``, then ``payload``."""
    return head + MAGIC_NUMBER + hashlib.sha256(payload).digest() + payload


def unsealed(data: bytes | None, head: bytes) -> bytes | None:
    """The payload of an entry ``sealed`` with ``head`` by this Python and whole; else None."""
    start = len(head) + len(MAGIC_NUMBER)
    if data is None or data[:start] != head + MAGIC_NUMBER:
        return None
    payload = data[start + 32:]
    return payload if hashlib.sha256(payload).digest() == data[start:start + 32] else None


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class _Pickler(pickle.Pickler):
    """Plain pickle, and the run-time's values it cannot carry by itself: the tuple class
    of a record (made by ``runtime.record_class``) and its values, a record field's name
    with its type (``runtime.FieldData``)."""

    def reducer_override(self, obj):
        kind = type(obj)
        if kind is type:
            if issubclass(obj, tuple) and "rw_fields" in vars(obj):
                return rt.record_class, (obj.rw_name, list(obj.rw_fields), obj.rw_shapes)
        elif "rw_fields" in getattr(kind, "__dict__", ()) and isinstance(obj, tuple):
            return kind, tuple(obj[1:])
        elif kind is rt.FieldData:
            return _field_data, (str(obj), obj.type)
        return NotImplemented


def _field_data(text: str, type_):
    obj = str.__new__(rt.FieldData, text)
    obj.type = type_
    return obj


def pickled(*values) -> bytes:
    """``values`` pickled one after the other (``unpickled`` reads them one by one)."""
    out = io.BytesIO()
    pickler = _Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
    for value in values:
        pickler.dump(value)
        pickler.clear_memo()
    return out.getvalue()


def unpickled(stream: io.BytesIO):
    """The next value pickled in ``stream``. The garbage collector waits meanwhile: a
    large tree of new objects would start it again and again, for nothing (the values
    read hold no cycles to collect), tripling the time."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return pickle.load(stream)
    finally:
        if enabled:
            gc.enable()


def fetch(kind: str, *inputs: str):
    """(the result kept for ``inputs``, the hash of its entry's bytes), or None."""
    data = read(path_for(kind, *inputs))
    if data is None:
        return None
    try:
        return unpickled(io.BytesIO(data)), digest(data)
    except Exception:       # partly written by a run that stopped, or unreadable
        return None


def load(kind: str, *inputs: str):
    kept = fetch(kind, *inputs)
    return None if kept is None else kept[0]


def store(kind: str, value, *inputs: str) -> str | None:
    """``value`` kept for ``inputs``; the hash of the entry's bytes (None: not kept)."""
    path = path_for(kind, *inputs)
    if path is None:
        return None
    try:
        data = pickled(value)
    except Exception:       # a value pickle cannot carry, or one nested too deeply
        return None
    return digest(data) if write(path, data) else None


def entry_digest(kind: str, *inputs: str) -> str | None:
    """The hash of the bytes kept for ``inputs`` (None: none kept), without reading them
    back as a value."""
    data = read(path_for(kind, *inputs))
    return None if data is None else digest(data)
