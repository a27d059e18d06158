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

A shipped game, version or house rule may also be named, on the command line and in
``extends``: ``GAME``, ``GAME/variants/VERSION``, ``house_rules/NAME`` (``.rules`` may
be left out). A path that exists wins
(on the command line, from the working folder; in ``extends``, from the file that
writes it); only then is it looked up as a name in the library (``shipped``). A name is
plain parts, no ``..``, never absolute (``is_name``): it cannot lead out of the library.
"""
from __future__ import annotations

import os
import re
import stat
from pathlib import Path

from rulewright.compiler.diagnostics import NO_SPAN, BadInputError, Diagnostic, Span

MOST_BYTES = 8 * 1024 * 1024        # the largest input file (a spec file, a table, a state, a grid)

# The games rulewright ships: always readable (their own house rules extend them); a
# game may be named by its folder's name in it (``rulewright play darwins_choice``).
# Installed, they are the package's games/; in the repository, its spec/.
_TOP = Path(__file__).resolve().parent.parent
LIBRARY = next((p for p in (_TOP / "games", _TOP / "spec") if p.is_dir()), _TOP / "spec")


def real(path: str | Path) -> Path:
    """``path`` with its symbolic links followed, as far as they lead: a link that loops
    (to itself, or round a chain) is left where the loop starts, never an error (Python
    3.11's ``Path.resolve`` raises ``RuntimeError`` there); whoever opens it then says
    it names no file."""
    return Path(os.path.realpath(path))


def spec_path(given: str) -> str:
    """A spec named on the command line: the path as given when it exists, else the
    shipped game (or variant or house rule) of that name (``darwins_choice``,
    ``house_rules/darwin_drought.rules``), else the path as given (its error is said
    by whoever reads it)."""
    if not given or Path(given).exists():
        return given
    found = shipped(given)
    return str(found) if found is not None else given


def is_name(written: str) -> bool:
    """Whether ``written`` may name a shipped spec: plain parts joined by ``/`` (none
    empty, ``.`` or ``..``; no NUL, backslash or ``~``; not absolute), which cannot lead
    out of the library. ``./x`` is a path only."""
    if not written or "\0" in written or "\\" in written or written.startswith("~") or \
            Path(written).is_absolute():
        return False
    return all(part not in ("", ".", "..") for part in written.rstrip("/").split("/"))


def shipped(name: str) -> Path | None:
    """The shipped game, version or house rule ``name`` names: the folder or file of
    that name in the library, or with ``.rules`` added (``GAME``,
    ``house_rules/NAME``); None when ``name`` is no name (``is_name``), names
    nothing there, or leads out of the library through a symbolic link."""
    if not is_name(name) or not LIBRARY.is_dir():
        return None
    name = name.rstrip("/")
    for candidate in (LIBRARY / name, LIBRARY / f"{name}.rules"):
        try:
            if candidate.exists() and inside(candidate, [real(LIBRARY)]):
                return candidate
        except (OSError, ValueError):
            return None
    return None


def shipped_names() -> list[str]:
    """The names of the shipped specs (``is_name``), for a "did you mean": each folder
    of a game (the folder holding its game's files) and each variant and house rule
    file without ``.rules`` (``game/variants/two_player``)."""
    if not LIBRARY.is_dir():
        return []
    games, variants = set(), set()
    for f in sorted(LIBRARY.rglob("*.rules")):
        rel = f.relative_to(LIBRARY)
        try:
            head = read_bytes(f)[:_HEAD].decode("utf-8", errors="replace")
        except BadInputError:
            continue
        if _VARIANT_LINE.search(head):
            variants.add(rel.with_suffix("").as_posix())
        else:
            games.add(rel.parent.as_posix())
    return sorted(games - {"."}) + sorted(variants)


def shipped_name(path: str | Path) -> str | None:
    """The shipped name of ``path`` (a game's folder, a version's or house rule's file,
    ``.rules`` left out or not), or None when it is no shipped spec."""
    target = real(path)
    for name in shipped_names():
        found = shipped(name)
        if found is not None and real(found) in (target, target.with_suffix(".rules")):
            return name
    return None


_VARIANT_LINE = re.compile(r"^\s*variant\s", re.M)
_HEAD = 4096        # a variant line comes in the first lines of its file, after its comments


_roots: list[Path] = []             # folders named with --root


def add_root(folder: str | Path) -> None:
    """A folder the user allows specs and state files to read from (``--root``)."""
    p = Path(folder)
    if not p.is_dir():
        raise BadInputError(f"--root {folder}: no such folder")
    resolved = real(p)
    if resolved not in _roots:
        _roots.append(resolved)


def clear_roots() -> None:
    """No folder allowed with --root, and no command known (``command_line``): a new command."""
    _roots.clear()
    _command.clear()


def tree_of(path: str | Path) -> Path:
    """The folder tree a path named on the command line opens: the folder itself (or
    the folder of a file), and above it every folder that holds ``.rules`` files of
    its own, so that the variants of a spec (``game/variants/v.rules``, extending
    ``".."``) read their game. The walk up stops at the first folder without a
    ``.rules`` file (``spec/``, a home folder)."""
    p = real(path)
    folder = p if p.is_dir() else p.parent
    while folder.parent != folder and _holds_rules(folder.parent):
        folder = folder.parent
    return folder


def _holds_rules(folder: Path) -> bool:
    """Whether ``folder`` holds a ``.rules`` file of its own (a name ending so, more than the
    suffix alone: ``.rules`` is a hidden file's name, not a suffix), read by names only (a
    walk up may meet a folder of thousands of entries)."""
    try:
        with os.scandir(folder) as entries:
            return any(len(e.name) > 6 and e.name.endswith(".rules") for e in entries)
    except OSError:
        return False


def allowed(trees: list[Path] | tuple = ()) -> list[Path]:
    """The allowed folders: ``trees`` (those of the paths named), ``--root`` and the library."""
    out = [real(t) for t in trees] + list(_roots)
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


_command: list[str] = []            # the command line being run (``command_line``), for hints


def command_line(words: list[str] | tuple = ()) -> None:
    """The command being run, as typed (``["check", "v.rules"]``): a refusal's hint then
    names the whole command to run with ``--root`` added. The command line's face sets it
    once per command; empty: the hint says to add ``--root FOLDER``."""
    _command[:] = [str(w) for w in words]


def refusal_hint(folder: str | Path | None = None) -> str:
    """How to allow a folder a file may not read from: ``--root FOLDER``; with ``folder``
    (the folder the refused path leads to), the command to run: ``rulewright COMMAND ...
    --root FOLDER`` when the command is known (``command_line``)."""
    hint = ("a spec, variant or state file reads only inside its own folder tree; to allow another "
            "folder, name it with --root FOLDER")
    if folder is None:
        return hint
    import shlex        # (lazy: only a refusal with a folder to allow quotes a command)
    root = shlex.quote(str(folder))
    if _command:
        return hint + f": rulewright {shlex.join(_command)} --root {root}"
    return hint + f": add --root {root} to the command"


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


# ------------------------------------------------------------------ writing
# Every file rulewright writes (docs pages, catalogues, state files, logs, witnesses) is
# written by ``write_bytes``: never through a symbolic link (a folder shared between
# players, a repository's docs folder, may hold one pointing anywhere), never outside
# the folder it is meant for, and never half-written (a new file, then renamed in place).

_DIR_FDS = os.open in os.supports_dir_fd and os.mkdir in os.supports_dir_fd and \
    os.stat in os.supports_dir_fd and os.replace in os.supports_dir_fd and \
    os.unlink in os.supports_dir_fd and hasattr(os, "O_DIRECTORY")
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def _shown(path) -> str:
    name = str(path)
    if len(name) > 200 or not name.isprintable():
        name = repr(name[:200])
    return name


def _write_error(message: str, hint: str | None = None) -> BadInputError:
    return BadInputError(Diagnostic(NO_SPAN, message, hint))


def _link_refused(link, what: str) -> BadInputError:
    return _write_error(f"{_shown(link)}: {what} is a symbolic link: rulewright does not write through a "
                        "symbolic link (it may lead anywhere, outside the folder)",
                        "remove the link (or write somewhere else): a shared folder may hold links put "
                        "there to make a command overwrite another file")


def write_text(path: str | Path, text: str, *, inside: str | Path | None = None) -> Path:
    """``text`` written to ``path`` in UTF-8 by ``write_bytes``."""
    return write_bytes(path, text.encode("utf-8", errors="surrogateescape"), inside=inside)


def write_bytes(path: str | Path, data: bytes, *, inside: str | Path | None = None) -> Path:
    """``data`` written to the file ``path``, safely; the path written.

    * A symbolic link is never followed: when ``path`` is one, or (with ``inside``) a
      folder between ``inside`` and ``path`` is one, the write is refused with a
      ``BadInputError`` naming the link (exit 2). ``inside`` itself is the user's own
      choice and is used where it points.
    * With ``inside``, ``path`` must lie in that folder (``..`` or an absolute name
      leading out is refused); the folders missing between them are made.
    * Only a regular file is replaced (never a folder, a device, a pipe).
    * The bytes go to a new file in the target's folder (created exclusively, not
      through a link, with the permissions a plain write gives: those of the file
      replaced, or the default ones), which then takes the target's place in one
      step (``os.replace``): a reader sees the old file or the new one, whole.
    """
    target = Path(path)
    if "\0" in str(target) or (inside is not None and "\0" in str(inside)):
        raise _write_error(f"{_shown(target)}: not a file name (it holds a NUL character)")
    if inside is not None:
        base = Path(os.path.normpath(os.path.abspath(inside)))
        full = Path(os.path.normpath(os.path.abspath(target)))
        if full == base or not full.is_relative_to(base):
            raise _write_error(f"{_shown(target)}: leads outside the folder {_shown(inside)}, where it is "
                               "written", "a file written in a folder is named within it (no '..', no "
                               "absolute path)")
        parts = full.relative_to(base).parts
        folders, name = parts[:-1], parts[-1]
        try:
            os.makedirs(base, exist_ok=True)        # (the folder itself is the caller's: made as named)
        except OSError as exc:
            raise _cannot(target, exc) from None
    else:
        base = target.parent
        folders, name = (), target.name
        if not name or name in (".", ".."):
            raise _write_error(f"{_shown(target)}: not a file name")
    if _DIR_FDS:
        return _write_at(target, base, folders, name, data)
    return _write_by_path(target, base, folders, name, data)


def _cannot(target, exc: OSError) -> BadInputError:
    return _write_error(f"{_shown(target)}: cannot write: {exc.strerror or exc}")


def _write_at(target: Path, base: Path, folders: tuple, name: str, data: bytes) -> Path:
    """``write_bytes`` with folder descriptors: each folder opened without following a
    link, the file made and renamed within the last one (nothing can be swapped for a
    link between a look and a write)."""
    try:
        fd = os.open(base, os.O_RDONLY | os.O_DIRECTORY)
    except FileNotFoundError:
        raise _write_error(f"{_shown(target)}: cannot write: no such folder {_shown(base)}") from None
    except OSError as exc:
        raise _cannot(target, exc) from None
    try:
        walked = base
        for part in folders:
            walked = walked / part
            try:
                os.mkdir(part, 0o777, dir_fd=fd)
            except FileExistsError:
                pass
            except OSError as exc:
                raise _cannot(target, exc) from None
            try:
                info = os.stat(part, dir_fd=fd, follow_symlinks=False)
            except OSError as exc:
                raise _cannot(target, exc) from None
            if stat.S_ISLNK(info.st_mode):
                raise _link_refused(walked, "the folder")
            if not stat.S_ISDIR(info.st_mode):
                raise _write_error(f"{_shown(walked)}: {kind_of(info.st_mode)}, not a folder: cannot write "
                                   f"{_shown(target)} in it")
            try:
                inner = os.open(part, os.O_RDONLY | os.O_DIRECTORY | _NOFOLLOW, dir_fd=fd)
            except OSError as exc:
                raise _cannot(target, exc) from None
            os.close(fd)
            fd = inner
        mode = _existing_mode(target, lambda: os.stat(name, dir_fd=fd, follow_symlinks=False))
        tmp = _new_file(target, lambda n, flags, m: os.open(n, flags, m, dir_fd=fd), name, data, mode,
                        lambda n: os.unlink(n, dir_fd=fd))
        try:
            os.replace(tmp, name, src_dir_fd=fd, dst_dir_fd=fd)
        except OSError as exc:
            _quietly(lambda: os.unlink(tmp, dir_fd=fd))
            raise _cannot(target, exc) from None
    finally:
        os.close(fd)
    return target


def _write_by_path(target: Path, base: Path, folders: tuple, name: str, data: bytes) -> Path:
    """``write_bytes`` where the system has no folder descriptors: the same looks, by path."""
    folder = base
    for part in folders:
        folder = folder / part
        try:
            folder.mkdir()
        except FileExistsError:
            pass
        except OSError as exc:
            raise _cannot(target, exc) from None
        info = os.lstat(folder)
        if stat.S_ISLNK(info.st_mode):
            raise _link_refused(folder, "the folder")
        if not stat.S_ISDIR(info.st_mode):
            raise _write_error(f"{_shown(folder)}: {kind_of(info.st_mode)}, not a folder")
    mode = _existing_mode(target, lambda: os.lstat(folder / name))
    tmp = _new_file(target, lambda n, flags, m: os.open(folder / n, flags, m), name, data, mode,
                    lambda n: os.unlink(folder / n))
    try:
        os.replace(folder / tmp, folder / name)
    except OSError as exc:
        _quietly(lambda: os.unlink(folder / tmp))
        raise _cannot(target, exc) from None
    return target


def _existing_mode(target: Path, look) -> int | None:
    """The permissions of the file to replace (None: there is none); a link or anything
    but a regular file there is refused."""
    try:
        info = look()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise _cannot(target, exc) from None
    if stat.S_ISLNK(info.st_mode):
        raise _link_refused(target, "the file")
    if stat.S_ISDIR(info.st_mode):
        raise _write_error(f"{_shown(target)}: a folder, not a file: cannot write it")
    if not stat.S_ISREG(info.st_mode):
        raise _write_error(f"{_shown(target)}: {kind_of(info.st_mode)}, not a file: rulewright writes "
                           "regular files only")
    return stat.S_IMODE(info.st_mode)


def _new_file(target: Path, open_, name: str, data: bytes, mode: int | None, unlink) -> str:
    """A new file beside the target holding ``data``: its name."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | getattr(os, "O_BINARY", 0)
    for _ in range(100):
        tmp = f".{name[:100]}.{os.urandom(6).hex()}.tmp"
        try:
            fd = open_(tmp, flags, 0o666)       # (the umask applies, as to any new file)
            break
        except FileExistsError:
            continue
        except OSError as exc:
            raise _cannot(target, exc) from None
    else:
        raise _write_error(f"{_shown(target)}: cannot write: no free name for a temporary file beside it")
    try:
        with os.fdopen(fd, "wb") as f:
            if mode is not None and os.chmod in os.supports_fd:
                os.chmod(f.fileno(), mode)          # (the file it replaces keeps its permissions)
            f.write(data)
    except OSError as exc:
        _quietly(lambda: unlink(tmp))
        raise _cannot(target, exc) from None
    return tmp


def _quietly(action) -> None:
    try:
        action()
    except OSError:
        pass
