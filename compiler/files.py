"""The files rulewright reads, and where a spec may point.

In:  a path a command line, a spec (``extends "PATH"``, ``table ... from "PATH"``) or a
     state file (``variants``, ``tables``) names.
Out: the file's bytes, or a ``BadInputError`` / ``ResolveError`` that says why not.

Specs, variants, tables and state files are shared between players, so a path
written inside one of them is untrusted:

* it is relative to the file that writes it, never absolute, and it must lead to
  a file inside the **allowed folders** (symbolic links followed): the folder
  tree of every path named on the command line (a spec folder, the folder of a
  spec, variant, table or state file, with the spec folders above it: ``tree_of``), the
  folders given with ``--root``, and
  the games rulewright ships;
* only regular files are read (never a FIFO, a device or a folder), each at most
  ``MOST_BYTES`` long.

A path typed on the command line is the user's own choice and is read where it
points (still a regular file within the size limit).
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

from rulewright.compiler.diagnostics import BadInputError, Diagnostic, Span

MOST_BYTES = 8 * 1024 * 1024        # the largest input file (a spec file, a table, a state, a grid)

# The games rulewright ships: always readable (their own house rules extend them); a
# game may be named by its folder's name in it (``rulewright play darwins_choice``).
# Installed, they are the package's games/; in the repository, its spec/.
_TOP = Path(__file__).resolve().parent.parent
LIBRARY = next((p for p in (_TOP / "games", _TOP / "spec") if p.is_dir()), _TOP / "spec")


def spec_path(given: str) -> str:
    """A spec named on the command line: the path as given when it exists, else the
    shipped game (or variant or house rule) of that name (``darwins_choice``,
    ``house_rules/darwin_drought.rules``), else the path as given (its error is said
    by whoever reads it)."""
    if not given or Path(given).exists():
        return given
    name = given.rstrip("/")
    for candidate in (LIBRARY / name, LIBRARY / f"{name}.rules"):
        try:
            if candidate.exists() and candidate.resolve().is_relative_to(LIBRARY.resolve()):
                return str(candidate)
        except (OSError, ValueError):
            return given
    return given

_roots: list[Path] = []             # folders named with --root


def add_root(folder: str | Path) -> None:
    """A folder the user allows specs and state files to read from (``--root``)."""
    p = Path(folder)
    if not p.is_dir():
        raise BadInputError(f"--root {folder}: no such folder")
    resolved = p.resolve()
    if resolved not in _roots:
        _roots.append(resolved)


def clear_roots() -> None:
    _roots.clear()


def tree_of(path: str | Path) -> Path:
    """The folder tree a path named on the command line opens: the folder itself (or
    the folder of a file), and above it every folder that holds ``.rules`` files of
    its own, so that the variants of a spec (``game/variants/v.rules``, extending
    ``".."``) read their game. The walk up stops at the first folder without a
    ``.rules`` file (``spec/``, a home folder)."""
    p = Path(path).resolve()
    folder = p if p.is_dir() else p.parent
    while folder.parent != folder and _holds_rules(folder.parent):
        folder = folder.parent
    return folder


def _holds_rules(folder: Path) -> bool:
    try:
        return any(f.suffix == ".rules" for f in folder.iterdir())
    except OSError:
        return False


def allowed(trees: list[Path] | tuple = ()) -> list[Path]:
    """The allowed folders: ``trees`` (those of the paths named), ``--root`` and the library."""
    out = [Path(t).resolve() for t in trees] + list(_roots)
    if LIBRARY.is_dir():
        out.append(LIBRARY)
    return out


def inside(target: Path, roots: list[Path]) -> bool:
    """Whether ``target`` (symbolic links followed) lies in one of ``roots``; a path the
    system cannot even look up (a NUL in it, too long) lies nowhere."""
    try:
        real = Path(target).resolve()
    except (OSError, ValueError, RuntimeError):
        return False
    return any(real == r or real.is_relative_to(r) for r in roots)


def refusal(written: str, target: Path, roots: list[Path]) -> str | None:
    """Why a path written in a file may not be followed (None: it may)."""
    if "\0" in written:
        return "a path holding a NUL character names no file"
    if Path(written).is_absolute() or written.startswith("~"):
        return f"'{written}' is an absolute path: a path in a shared file is relative to that file"
    if not inside(target, roots):
        lexical = Path(os.path.normpath(os.path.abspath(target)))
        link = " through a symbolic link" if any(lexical == r or lexical.is_relative_to(r) for r in roots) else ""
        return (f"'{written}' leads outside the allowed folders{link} (the folder tree of the spec or "
                f"file named on the command line, and --root)")
    return None


def refusal_hint() -> str:
    return ("a spec, variant or state file reads only inside its own folder tree; to allow another "
            "folder, name it with --root FOLDER")


def kind_of(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_bytes(path: str | Path, most: int = MOST_BYTES, span: Span | None = None) -> bytes:
    """A regular file's bytes, at most ``most`` of them; anything else is a ``BadInputError``
    (at ``span`` when given: the place that names the file)."""
    name = str(path)
    if len(name) > 200 or not name.isprintable():
        name = repr(name[:200])

    def fail(message: str, hint: str | None = None):
        if span is not None:
            raise BadInputError(Diagnostic(span, f"{name}: {message}", hint))
        raise BadInputError(f"{name}: {message}" + (f" ({hint})" if hint else ""))

    try:
        info = os.stat(path)
    except FileNotFoundError:
        fail("no such file")
    except ValueError:                      # a NUL in the name
        fail("not a file name (it holds a NUL character)")
    except OSError as exc:
        fail(f"cannot read: {exc.strerror or exc}")
    if stat.S_ISDIR(info.st_mode):
        fail("a folder, not a file")
    if not stat.S_ISREG(info.st_mode):
        fail(f"{kind_of(info.st_mode)}, not a file: rulewright reads regular files only")
    if info.st_size > most:
        fail(f"{info.st_size:,} bytes, more than the {most:,} an input file may have")
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        fail(f"cannot read: {exc.strerror or exc}")
    with os.fdopen(fd, "rb") as f:
        mode = os.fstat(f.fileno()).st_mode
        if not stat.S_ISREG(mode):          # replaced between the two looks
            fail(f"{kind_of(mode)}, not a file: rulewright reads regular files only")
        raw = f.read(most + 1)
    if len(raw) > most:
        fail(f"more than the {most:,} bytes an input file may have")
    return raw
