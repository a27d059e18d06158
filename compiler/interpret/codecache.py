"""The generated module of a program, vetted and compiled once and kept between runs.

In:  the generated Python source of a program (``Interpreter.source``) and the name it
     is compiled under.
Out: its code object: read back from the cache when this exact source was vetted and
     compiled before, by this Python and this compiler; else vetted
     (``codegen.vetted``), compiled, and kept.

Vetting parses the whole module and walks it, which costs far more than compiling it;
a program loaded again (another command on the same spec) skips both. The guard holds:

* only code that was vetted is kept: an entry is written after ``vetted`` accepted the
  source and the code was compiled from that very tree;
* an entry is found by a hash of the exact source text, the name, Python's bytecode
  version and the compiler's version (``cache.front_end_version``: every module of
  ``compiler/``, the vetting and the code generator among them), and it says so again
  inside: a header with that hash and a hash of the code's bytes, both checked before
  the code is read (an entry kept for another source, or damaged, is compiled again);
* entries live in the cache folder, written by the one writer (``files.write_bytes``)
  and read only from a regular file of this user's, never through a link
  (``cache.read``).

The code is kept with ``marshal``, the format of Python's own ``.pyc`` files.
"""
from __future__ import annotations

import hashlib
import marshal
from importlib.util import MAGIC_NUMBER
from types import CodeType

from rulewright.compiler import cache
from rulewright.compiler.interpret.codegen import vetted

_HEADER = b"rulewright vetted code\n"


def _made_from(source: str, where: str) -> bytes:
    """The hash of what the code is made from."""
    h = hashlib.sha256(cache.front_end_version().encode())
    h.update(MAGIC_NUMBER)
    for text in (where, source):
        h.update(b"\0" + text.encode("utf-8", errors="surrogatepass"))
    return h.digest()


def _read_back(data: bytes | None, made_from: bytes, where: str) -> CodeType | None:
    """The code of an entry that says it was made from ``made_from`` and is whole."""
    payload = cache.unsealed(data, _HEADER + made_from)
    if payload is None:
        return None
    try:
        code = marshal.loads(payload)
    except Exception:       # noqa: BLE001 (whatever the bytes: compiled again)
        return None
    if not isinstance(code, CodeType) or code.co_filename != where:
        return None
    return code


def compiled(source: str, where: str) -> CodeType:
    """The code object of the generated module ``source`` (mode ``exec``), compiled under
    the name ``where``: kept from an earlier run, or vetted and compiled now (and kept).
    Code ``vetted`` refuses raises its error, as before, and is never kept."""
    made_from = _made_from(source, where)
    path = cache.path_for("code", made_from.hex(), suffix=".marshal")
    code = _read_back(cache.read(path), made_from, where)
    if code is not None:
        return code
    code = compile(vetted(source, where), where, "exec")
    if path is not None:
        cache.write(path, cache.sealed(_HEADER + made_from, marshal.dumps(code)))
    return code
