"""What the front end computes from files, kept between runs.

In:  a kind (``grammar``, ``ast``), the texts a result is computed from, the result.
Out: the result of an earlier run on the same texts and the same front end, or None.

Building the parser's tables takes about a second and parsing a large spec half a
second; a command that only reads them back starts in a fraction of
that. Results live in ``$RULEWRIGHT_CACHE``, else ``$XDG_CACHE_HOME/rulewright``,
else ``~/.cache/rulewright``; ``RULEWRIGHT_CACHE=off`` keeps nothing. A file's key
is a hash of its inputs and of the front end's own source (the grammar and every
module of ``compiler/``), so a changed spec, a changed path or a changed compiler
never reads an old result. A cache that cannot be read or written is passed over.
"""
from __future__ import annotations

import hashlib
import os
import pickle
import sys
import tempfile
from functools import lru_cache
from pathlib import Path

_HERE = Path(__file__).parent


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


def path_for(kind: str, *inputs: str) -> Path | None:
    """The file of a result computed from ``inputs`` (None when caching is off)."""
    where = directory()
    if where is None:
        return None
    h = hashlib.sha256(front_end_version().encode())
    for text in inputs:
        h.update(b"\0" + text.encode("utf-8"))
    return where / f"{kind}-{h.hexdigest()[:24]}.pickle"


def load(kind: str, *inputs: str):
    path = path_for(kind, *inputs)
    if path is None:
        return None
    try:
        with open(path, "rb") as f:
            return pickle.load(f)
    except Exception:       # missing, partly written by a run that stopped, or unreadable
        return None


def store(kind: str, value, *inputs: str) -> None:
    path = path_for(kind, *inputs)
    if path is None:
        return
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            pickle.dump(value, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except Exception:
        try:
            os.unlink(tmp)
        except Exception:
            pass
