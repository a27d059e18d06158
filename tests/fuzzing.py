"""The fuzzer of rulewright's command line: seeded input generators and a runner.

Every spec, variant, CSV table, state file, grid file and command line is
untrusted: a user error ends with exit code 1 or 2 and one located message, never
exit 3 ("rulewright: internal error"), a traceback or a hang. This module makes
inputs that break those files in many ways and runs the real command line on them.

Generators (one per category, deterministic per seed: ``random.Random(seed)``),
each returning a :class:`Case` (files to lay out in a fresh folder, the commands to
run there):

- ``spec``: token mutations of shipped spec files (Ecosystem: Savanna, Darwin's
  Choice) and of a small hand-written game (:data:`TINY`), then ``check``,
  ``graph``, ``dump`` (and ``play`` / ``score`` when it still compiles);
- ``variant``: a house rule or a variant file mutated next to a copy of its base,
  then ``check`` and ``diff`` (and ``play`` when it still compiles);
- ``csv``: Darwin's Choice's ``animal_cards.csv`` (and ``biomes.csv``) mutated, then
  ``check spec/darwins_choice --cards FILE`` and ``play ... --cards FILE``;
- ``state``: real state files (``play ... --stop-at ... --save-state``) mutated,
  then ``show`` and ``query`` on them;
- ``grid``: ``examples/margot.grid`` and ``examples/partial.grid`` mutated, then
  ``score`` (and ``query best-placement``);
- ``cmdline``: random combinations of the real options and values, for every command;
- ``resume``: saved games (``play --stop-at ... --save-state``: a ``resume`` entry)
  with their history (choices removed, swapped, replaced, nested deep, huge numbers,
  wrong types), where they stand, their generators' states or their position mutated,
  then ``play --from`` (with and without ``--seed``, ``--until``), ``show``,
  ``simulate --from``;
- ``choices``: game logs (``play --log``) mutated as ``--choices`` files (lines
  dropped, repeated, swapped; values of other types, nested deep, huge; bytes that are
  not UTF-8; very long lines), then ``play ... --choices FILE``;
- ``po``: translation catalogues (``i18n/LANG.po``) broken, in another charset, not
  UTF-8, huge, holding payloads, a msgctxt twice, a link or a folder, then ``docs
  --lang``, ``translations --check`` and ``translations`` (on a copy of the spec);
- ``docs``: texts that would run in a browser as HTML in every place a page shows
  (doc comments, titles, table texts, ``--cards`` / ``--table`` files, a house rule's
  file name, ``OUT/effects.json``, a catalogue), then ``docs --out out``; every page
  written is then rendered with the site's Markdown and passed through the site's
  guard (:class:`PagesRunNoScript`);
- ``links``: symbolic links in the folders commands write in or read from (``docs
  --out``, ``verify --out``, ``--save-state`` / ``--log`` files, a spec's ``i18n/``
  and ``variants/``), pointing into an ``outside/`` folder that no command may change
  (:class:`Untouched`).

The runner (:class:`ForkServer`) is one Python process that imports ``rulewright.cli``
once and forks a child per command: the child sets resource limits (address space
about 3 GiB, file size, CPU time), reads stdin from /dev/null, writes stdout and
stderr to files, chdirs into the input's folder, runs ``rulewright.cli.main(argv)`` and
leaves with its exit code; the server kills a child still running past the bound
(a hang; ``faulthandler`` prints where it was just before). ``RULEWRIGHT_DEBUG=1`` is
set, so an internal error prints its traceback. :class:`SubprocessRunner`
(``python -m rulewright``) is the fallback where fork is not available, or with
``RULEWRIGHT_FUZZ_RUNNER=subprocess``.

A failure is an exit code outside {0, 1, 2}, "internal error" or "Traceback" on
standard error, or a hang past the bound; and what a run's ``check`` finds in the work
folder after the command (run in this process, not in the fork server's child): active
content in a written page, a file outside changed through a symbolic link. A run may
also give the command a standard input (a human seat's answers). Failing inputs are
saved by :meth:`Fuzzer.save_failure`, one folder per crash class (the exception class
and its innermost frame, or what the check found), with a README giving the command
line to reproduce it.

Environment:

- ``RULEWRIGHT_FUZZ_BOUND``: seconds a command may run (default 20);
- ``RULEWRIGHT_FUZZ_CPU``: pin the server and its children to this CPU (one core);
- ``RULEWRIGHT_FUZZ_RUNNER=subprocess``: no fork server;
- ``RULEWRIGHT_CACHE``: the parse cache of the commands run (default: a folder in
  the system's temporary directory, kept between runs).

Used by ``tests/security/test_fuzz_inputs.py``; also ``python tests/fuzzing.py CATEGORY SEED``
prints one input's commands and runs them (its folder is kept), and
``python tests/fuzzing.py --recheck FOLDER`` runs every saved crash input of a
findings folder again on the code as it is now (and its check, ``check.json``).
"""
from __future__ import annotations

import copy
import csv
import hashlib
import io
import json
import os
import random
import re
import shlex
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, NamedTuple

ROOT = Path(__file__).resolve().parent.parent
_VENV_PYTHON = ROOT / ".venv" / "bin" / "python"
PYTHON = str(_VENV_PYTHON) if _VENV_PYTHON.exists() else sys.executable

BOUND = float(os.environ.get("RULEWRIGHT_FUZZ_BOUND", "20"))     # seconds a command may run
MEMORY = 3 << 30                                                 # bytes of address space a command may map
FILE_SIZE = 256 << 20                                            # bytes a command may write to one file
READ_BACK = 200_000                                              # characters of stdout/stderr kept

CATEGORIES = ("spec", "variant", "csv", "state", "grid", "cmdline", "resume", "choices", "po", "docs", "links")


# ====================================================================== cases and results
@dataclass
class Run:
    """One command of a case. ``only_if_ok``: run it only when the case's first
    command exited 0 (a ``play`` of a spec that still compiles). ``slow_ok``: a
    command whose work grows with what it asks for (games of solver agents): past the
    bound it is slow, not hung."""
    argv: list[str]
    only_if_ok: bool = False
    slow_ok: bool = False
    timeout: float = BOUND
    # a look at the work folder after the command (in the fuzzer's own process, never in
    # the fork server's child): why it is wrong, or None (see :class:`PagesRunNoScript`,
    # :class:`Untouched`); an object with a ``before(work)`` method is also called before
    check: Callable[[Path], str | None] | None = None
    stdin: bytes | None = None          # what the command reads on standard input (else /dev/null)


@dataclass
class Case:
    """One input: the folder it runs in (``trees``: folders and files of the
    snapshot of the repository copied there; ``files``: the generated files, written
    after them) and the commands run in it."""
    category: str
    seed: int
    runs: list[Run]
    trees: list[str] = field(default_factory=list)
    files: dict[str, bytes] = field(default_factory=dict)
    what: list[str] = field(default_factory=list)      # what the generator did, for the report
    # symbolic links made after the files: relative path -> target, as the link holds it
    # ("{work}" in a target: the absolute path of the folder the case is laid out in;
    # "hard:PATH": a hard link to the file PATH of the folder)
    links: dict[str, str] = field(default_factory=dict)

    def size(self) -> int:
        return (sum(len(v) for v in self.files.values()) + sum(len(a) for r in self.runs for a in r.argv)
                + sum(len(k) + len(v) for k, v in self.links.items()))


class Outcome(NamedTuple):
    """What a command did: exit code (minus the signal number when a signal ended
    it), stdout, stderr, seconds, and whether it ran past its bound."""
    code: int
    out: str
    err: str
    seconds: float
    hung: bool


def failure_of(outcome: Outcome, run: Run | None = None) -> str | None:
    """Why this outcome breaks the rule, or None."""
    if outcome.hung:
        if run is not None and run.slow_ok:
            return None
        return f"hang: still running after {outcome.seconds:.1f} s"
    if outcome.code < 0:
        try:
            name = signal.Signals(-outcome.code).name
        except ValueError:
            name = f"signal {-outcome.code}"
        return f"killed by {name}"
    if outcome.code not in (0, 1, 2):
        return f"exit code {outcome.code}"
    if "Traceback" in outcome.err:
        return "a traceback on stderr"
    if "internal error" in outcome.err:
        return "'internal error' on stderr"
    return None


# ====================================================================== checks of the work folder
# A command can exit 0 and still be wrong: a page it wrote that runs a script, a file it
# wrote through a symbolic link. A run's ``check`` looks for that after the command, in
# the fuzzer's own process (the fork server's children never import Markdown).
ACTIVE_CONTENT = "active content in a written page"
THROUGH_LINK = "wrote through a symbolic link"
SLOW_PAGE = "a written page takes too long to render"
# the site's Markdown (mkdocs.yml's markdown_extensions), as tests/security/test_pages_run_no_script.py renders it
SITE_EXTENSIONS = ["tables", "admonition", "attr_list", "md_in_html", "pymdownx.details", "pymdownx.highlight",
                   "pymdownx.superfences", "toc"]
RENDER_BOUND = 60.0          # seconds the rendering of one page may take


class _RenderTimeout(Exception):
    pass


def render_page(text: str) -> str:
    """A page's Markdown as the site's Markdown makes it (its extensions, no guard); a
    page still rendering after ``RENDER_BOUND`` seconds raises ``_RenderTimeout``."""
    import threading
    import markdown
    md = markdown.Markdown(extensions=SITE_EXTENSIONS)
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        return md.convert(text)

    def on_alarm(signum, frame):
        raise _RenderTimeout()
    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, RENDER_BOUND)
    try:
        return md.convert(text)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def _regular_files(folder: Path, suffix: str = ""):
    """The regular files under ``folder`` (never through a link), sorted."""
    found = []
    for top, dirs, names in os.walk(folder, followlinks=False):
        for name in names:
            path = Path(top) / name
            if name.endswith(suffix) and not path.is_symlink() and path.is_file():
                found.append(path)
    return sorted(found)


class PagesRunNoScript:
    """The pages written in ``folders`` (every ``.md``, read as written), rendered with
    the site's Markdown and passed through the site's guard
    (``rulewright.compiler.docgen.sanitize.clean``): anything the guard takes out (an
    element outside its allowlist, a handler, a link that is not relative or http(s))
    is active content in a written page. Nothing should ever be taken out: the pages
    escape every text where it lands."""

    def __init__(self, *folders: str):
        self.folders = folders or ("out",)

    def describe(self) -> dict:
        return {"check": "pages", "folders": list(self.folders)}

    def __call__(self, work: Path) -> str | None:
        from rulewright.compiler.docgen import sanitize
        for folder in self.folders:
            base = Path(work) / folder
            if base.is_symlink() or not base.is_dir():
                continue
            for page in _regular_files(base, ".md"):
                text = page.read_bytes().decode("utf-8", "replace")
                start = time.monotonic()
                try:
                    rendered = render_page(text)
                except _RenderTimeout:
                    return f"{SLOW_PAGE}: {page.relative_to(work)} ({len(text)} characters) still rendering " \
                           f"after {RENDER_BOUND:.0f} s"
                _, removed = sanitize.clean(rendered)
                if removed:
                    return (f"{ACTIVE_CONTENT}: {page.relative_to(work)}: "
                            f"{'; '.join(sorted(set(removed))[:4])}")
                if time.monotonic() - start > RENDER_BOUND:
                    return f"{SLOW_PAGE}: {page.relative_to(work)} took {time.monotonic() - start:.0f} s"
        return None


class Untouched:
    """Nothing in ``paths`` (relative to the work folder: the ``outside/`` folder the
    links of an input point into, a file a link points to) is created, changed or
    removed by the command: its snapshot is taken before (``before``) and compared
    after. What differs was written through a symbolic link."""

    def __init__(self, *paths: str):
        self.paths = paths or ("outside",)
        self.snap: dict | None = None

    def describe(self) -> dict:
        return {"check": "untouched", "paths": list(self.paths)}

    def before(self, work: Path) -> None:
        self.snap = _snapshot(Path(work), self.paths)

    def __call__(self, work: Path) -> str | None:
        if self.snap is None:
            return None
        now = _snapshot(Path(work), self.paths)
        changes = [f"{k} created" for k in sorted(set(now) - set(self.snap))]
        changes += [f"{k} removed" for k in sorted(set(self.snap) - set(now))]
        changes += [f"{k} changed" for k in sorted(set(now) & set(self.snap)) if now[k] != self.snap[k]]
        if changes:
            return f"{THROUGH_LINK}: {', '.join(changes[:5])}{' ...' if len(changes) > 5 else ''}"
        return None


def _snapshot(work: Path, paths) -> dict[str, tuple]:
    """What each path holds (and everything under a folder, never through a link): its
    kind, its permissions, its bytes (a hash) or where a link points."""
    out: dict[str, tuple] = {}
    todo = [work / p for p in paths]
    while todo:
        path = todo.pop()
        rel = os.path.relpath(path, work)
        try:
            info = os.lstat(path)
        except OSError:
            continue
        if stat.S_ISLNK(info.st_mode):
            out[rel] = ("link", os.readlink(path))
        elif stat.S_ISDIR(info.st_mode):
            out[rel] = ("folder", info.st_mode & 0o7777)
            try:
                todo.extend(path / name for name in os.listdir(path))
            except OSError:
                pass
        elif stat.S_ISREG(info.st_mode):
            try:
                digest = hashlib.sha256(path.read_bytes()).hexdigest()
            except OSError:
                digest = "?"
            out[rel] = ("file", info.st_mode & 0o7777, info.st_size, digest)
        else:
            out[rel] = ("other", info.st_mode)
    return out


def check_from(described: dict):
    """A check made again from what ``describe`` said of it (``--recheck``)."""
    if described.get("check") == "pages":
        return PagesRunNoScript(*described["folders"])
    if described.get("check") == "untouched":
        return Untouched(*described["paths"])
    return None


# ====================================================================== the runners
def _fuzz_env() -> dict[str, str]:
    env = dict(os.environ)
    env["RULEWRIGHT_DEBUG"] = "1"
    env.setdefault("RULEWRIGHT_CACHE", str(Path(tempfile.gettempdir()) / f"rulewright-fuzz-cache-{os.getuid()}"))
    env.setdefault("PYTHONHASHSEED", "0")
    env.pop("PYTHONSTARTUP", None)
    pythonpath = env.get("PYTHONPATH")
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + pythonpath if pythonpath else "")
    return env


class ForkServer:
    """A process that imports ``rulewright.cli`` once and forks a child per command."""

    def __init__(self, cpu: int | None = None):
        cpu = cpu if cpu is not None else (int(os.environ["RULEWRIGHT_FUZZ_CPU"])
                                           if os.environ.get("RULEWRIGHT_FUZZ_CPU") else None)
        self.cpu = cpu
        self.proc: subprocess.Popen | None = None
        self._start()

    def _start(self):
        cmd = [PYTHON, "-X", "faulthandler", str(Path(__file__).resolve()), "--serve"]
        if self.cpu is not None:
            cmd.append(f"--cpu={self.cpu}")
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env=_fuzz_env(), cwd=str(ROOT))
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the fuzzing fork server did not start")
        hello = json.loads(line)
        self.import_errors = hello.get("import_errors", [])

    def run(self, argv: list[str], cwd: str | Path, timeout: float = BOUND, stdin: bytes | None = None) -> Outcome:
        out_path = Path(cwd).parent / (Path(cwd).name + ".stdout")
        err_path = Path(cwd).parent / (Path(cwd).name + ".stderr")
        request = {"argv": list(argv), "cwd": str(cwd), "timeout": timeout,
                   "out": str(out_path), "err": str(err_path)}
        if stdin is not None:
            in_path = Path(cwd).parent / (Path(cwd).name + ".stdin")
            in_path.write_bytes(stdin)
            request["in"] = str(in_path)
        for attempt in (1, 2):
            try:
                if self.proc is None or self.proc.poll() is not None:
                    self._start()
                self.proc.stdin.write((json.dumps(request) + "\n").encode())
                self.proc.stdin.flush()
                line = self.proc.stdout.readline()
                if not line:
                    raise BrokenPipeError("the fork server ended")
                reply = json.loads(line)
                break
            except (BrokenPipeError, OSError, ValueError):
                self.proc = None
                if attempt == 2:
                    raise
        return Outcome(reply["code"], _read(out_path), _read(err_path), reply["seconds"], reply["hung"])

    def close(self):
        if self.proc is not None and self.proc.poll() is None:
            try:
                self.proc.stdin.close()
                self.proc.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()
        self.proc = None


def _read_file(f) -> str:
    size = f.seek(0, os.SEEK_END)
    f.seek(0)
    if size <= READ_BACK:
        return f.read().decode("utf-8", "replace")
    head = f.read(READ_BACK // 2)
    f.seek(-(READ_BACK // 2), os.SEEK_END)
    return (head + b"\n[... fuzzing: output cut ...]\n" + f.read()).decode("utf-8", "replace")


class SubprocessRunner:
    """The fallback: one ``python -m rulewright`` per command."""

    def __init__(self, cpu: int | None = None):
        self.cpu = cpu if cpu is not None else (int(os.environ["RULEWRIGHT_FUZZ_CPU"])
                                                if os.environ.get("RULEWRIGHT_FUZZ_CPU") else None)
        self.import_errors: list[str] = []

    def run(self, argv: list[str], cwd: str | Path, timeout: float = BOUND, stdin: bytes | None = None) -> Outcome:
        def limits():
            os.setsid()
            _set_limits(timeout, self.cpu)
        env = _fuzz_env()
        start = time.monotonic()
        # argv may hold surrogates (bytes that are not UTF-8, as a shell passes them)
        args = [PYTHON, "-X", "faulthandler", "-m", "rulewright"] + [os.fsencode(a) for a in argv]
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, tempfile.TemporaryFile() as inp:
            inp.write(stdin or b"")
            inp.seek(0)
            proc = subprocess.Popen(args, cwd=str(cwd), stdin=subprocess.DEVNULL if stdin is None else inp,
                                    stdout=out, stderr=err, env=env, preexec_fn=limits)
            hung = False
            try:
                proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                hung = True
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
            seconds = time.monotonic() - start
            return Outcome(proc.returncode, _read_file(out), _read_file(err), seconds, hung)

    def close(self):
        pass


def make_runner():
    if os.environ.get("RULEWRIGHT_FUZZ_RUNNER") == "subprocess" or not hasattr(os, "fork"):
        return SubprocessRunner()
    return ForkServer()


def _read(path: Path) -> str:
    """A command's output: all of it, or its beginning and its end (where a traceback is)."""
    try:
        with open(path, "rb") as f:
            data = f.read(READ_BACK + 1)
            if len(data) > READ_BACK:
                f.seek(-(READ_BACK // 2), os.SEEK_END)
                data = data[:READ_BACK // 2] + b"\n[... fuzzing: output cut ...]\n" + f.read()
        os.unlink(path)
    except OSError:
        return ""
    return data.decode("utf-8", "replace")


def _set_limits(timeout: float, cpu: int | None):
    import resource
    for what, value in ((resource.RLIMIT_AS, MEMORY), (resource.RLIMIT_FSIZE, FILE_SIZE),
                        (resource.RLIMIT_CORE, 0), (resource.RLIMIT_CPU, int(timeout * 2) + 10)):
        try:
            resource.setrlimit(what, (value, value))
        except (ValueError, OSError):
            pass
    if cpu is not None and hasattr(os, "sched_setaffinity"):
        try:
            os.sched_setaffinity(0, {cpu})
        except OSError:
            pass


# ---------------------------------------------------------------------- the server side
def _serve(cpu: int | None):
    """The fork server's loop: one JSON request a line on stdin, one reply on stdout."""
    import faulthandler
    import traceback
    reply_to = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)          # whatever the imports print goes to stderr, not into the protocol
    if cpu is not None and hasattr(os, "sched_setaffinity"):
        try:
            os.sched_setaffinity(0, {cpu})
        except OSError:
            pass
    sys.path.insert(0, str(ROOT))
    errors = []
    # every module of the two packages now, so that a command never imports a module
    # edited after the server started next to the older ones it already holds
    modules = ["rulewright.cli.main"] + [
        f"rulewright.{pkg}.{p.relative_to(ROOT / pkg).with_suffix('').as_posix().replace('/', '.')}"
        for pkg in ("compiler", "solver") for p in sorted((ROOT / pkg).rglob("*.py"))
        if p.stem not in ("__init__", "__main__")]
    for module in modules:
        try:
            __import__(module)
        except Exception as exc:          # the children import it again and fail on their own
            errors.append(f"{module}: {type(exc).__name__}: {exc}")
    try:                                  # what every command needs: the parsers, the cache key
        from rulewright.compiler import cache
        from rulewright.compiler.syntax import parse
        cache.directory()
        cache.front_end_version()
        parse.parser()
        from rulewright.cli.main import parser
        parser()                          # (the command line's, built once in a process)
    except Exception as exc:
        errors.append(f"warm-up: {type(exc).__name__}: {exc}")
    encoding, out_errors = sys.__stdout__.encoding or "utf-8", sys.__stdout__.errors or "strict"
    reply_to.write(json.dumps({"ready": True, "pid": os.getpid(), "import_errors": errors}) + "\n")
    reply_to.flush()
    for line in sys.stdin.buffer:
        request = json.loads(line)
        start = time.monotonic()
        pid = os.fork()
        if pid == 0:
            code = 98
            try:
                os.close(reply_to.fileno())
                code = _child(request, encoding, out_errors, faulthandler, traceback)
            finally:
                os._exit(code)
        hung = False
        status = _wait(pid, start + request["timeout"])
        if status is None:
            hung = True
            for target in (-pid, pid):
                try:
                    os.kill(target, signal.SIGKILL)
                except OSError:
                    pass
            _, status = os.waitpid(pid, 0)
        seconds = time.monotonic() - start
        reply_to.write(json.dumps({"code": os.waitstatus_to_exitcode(status), "seconds": seconds,
                                   "hung": hung}) + "\n")
        reply_to.flush()


def _wait(pid: int, deadline: float):
    """The child's wait status, or None when it is still running at the deadline."""
    import select
    fd = None
    if hasattr(os, "pidfd_open"):
        try:
            fd = os.pidfd_open(pid)
        except OSError:
            fd = None
    try:
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                return status
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            if fd is not None:
                select.select([fd], [], [], left)
            else:
                time.sleep(min(left, 0.005))
    finally:
        if fd is not None:
            os.close(fd)


def _child(request, encoding, out_errors, faulthandler, traceback) -> int:
    os.setpgid(0, 0)
    timeout = request["timeout"]
    _set_limits(timeout, None)
    null = os.open(request.get("in") or os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    for fd, path in ((1, request["out"]), (2, request["err"])):
        f = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(f, fd)
        os.close(f)
    sys.stdin = open(0, "r", closefd=False)
    sys.stdout = open(1, "w", encoding=encoding, errors=out_errors, closefd=False)
    sys.stderr = open(2, "w", encoding=encoding, errors="backslashreplace", closefd=False, buffering=1)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    faulthandler.enable(file=sys.stderr, all_threads=True)
    faulthandler.dump_traceback_later(max(timeout - 1.5, 0.5), file=sys.stderr)
    os.chdir(request["cwd"])
    from rulewright.cli import main
    try:
        code = main(request["argv"])
    except SystemExit as exc:            # --help
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException:
        traceback.print_exc()
        print("fuzzing: the exception escaped rulewright.cli.main()", file=sys.stderr)
        code = 98
    try:
        sys.stdout.flush()
    except BaseException:                # Python would say "Exception ignored" and exit 120
        traceback.print_exc()
        code = 120
    try:
        sys.stderr.flush()
    except BaseException:
        pass
    faulthandler.cancel_dump_traceback_later()
    if not isinstance(code, int) or not 0 <= code <= 255:
        print(f"fuzzing: main() returned {code!r}", file=sys.stderr)
        code = 97
    return code


# ====================================================================== the snapshot
# A small hand-written game: one of each kind of definition, a grid, a scoring with a
# choice, state, a procedure with a checkpoint, a mode, a query.
TINY = r'''# A small hand-written game for the fuzzer: one of each kind of definition.

/// Tiny: two or three players draft pieces into a 3 x 3 field.
game tiny [TY-01] "Tiny \"test\" {0}"

/// How the rocks score.
switch rock_rule [TY-AMB-01]: flat | steep = flat

/// Pieces dealt to each player.
param hand_size [TY-02]: int = 4

param side: int = 3

enum family [TY-03] { terrain, animal }

/// The pieces and how many of each the box has.
table piece [TY-04] (family: family, count: int, label: text) {
  rock  | terrain | 6 | "Rock {0}"
  grass | terrain | 8 | "Grass \\ x"
  goat  | animal  | 6 | "Goat"
}

def box [TY-05] = [k for k in piece for i in 1..k.count]

check enough_pieces [TY-06]: 3 * hand_size <= size(box)
  else "three seats need {3 * hand_size} pieces and the box has {size(box)} (hand_size)"

grid field [TY-07]: side by side of piece

relation adjacent [TY-08] = offsets((-1, 0), (1, 0), (0, -1), (0, 1))

record token [TY-09] { owner: seat, power: int = 0 }

rule can_put(g: field, spot: cell) [TY-10] = empty(g) or any(occupied(g, n) for n in adjacent(spot))
  else "cell {spot} is next to no piece"

def goats(g: field) [TY-11] = count(c in cells(g) if g[c] == goat)

scoring score(g: field) [TY-12] {
  layer eaten
  step goat = sum(2 * count(n in adjacent(c) if g[n] == grass) for c in cells(g) if g[c] == goat)
  step rock {
    let rocks = {c in cells(g) if g[c] == rock}
    choose eaten_rocks subset of rocks sized min(1, size(rocks))
    points {0: 0, 1: 1, 2: 3, else: 5}[size(rocks)] - size(eaten_rocks) * (if rock_rule == steep then 2 else 1)
    mark eaten eaten_rocks
  }
  step grass = count(c in cells(g) if g[c] == grass and not eaten[c]) // 2
}

outcome final_score(p: seat) [TY-13] = score(board(p))

state [TY-14] {
  deck: pile of piece = box
  tokens: list of token
  rounds: int
}

per seat [TY-15] {
  board: field
  hand: pile of piece
}

invariant pieces_kept [TY-16] for k in piece: count(x in deck if x == k) <= k.count
  else "the deck holds {count(x in deck if x == k)} {k}, and the box has {k.count}"

procedure round [TY-17] {
  for s in seats { deal hand_size from deck to hand(s) }
  repeat hand_size {
    checkpoint pick
    for p in players {
      choose k in hand(p) by p
      choose spot in placements(board(p)) where can_put(board(p), spot) by p
      place k from hand(p) on board(p) at spot
      set tokens = tokens + [new token(owner = p, power = size(tokens) + 1)]
    }
  }
  set rounds = rounds + 1
}

mode standard [TY-18] "Standard" players 2..3 {
  seats players
  require fits [TY-19]: hand_size <= side * side else "{hand_size} pieces do not fit (hand_size)"
  shuffle deck
  do round()
  report score for p in players = final_score(p)
  report rounds = rounds
}

/// The best spot for a piece.
query best_spot [TY-20] "Best spot" {
  input state: field
  input card: piece
  choose spot in placements(state) where can_put(state, spot)
  maximize score(placed(state, card, spot))
}
'''

TINY_GRID = "rock  grass .\ngoat  .     .\n.     .     .\n"

SAVANNA = "spec/ecosystem_savanna"
DARWIN = "spec/darwins_choice"
TINY_SPEC = "tiny/tiny.rules"

SAVANNA_CARDS = ["water", "prairie", "tree", "gazelle", "zebra", "giraffe", "cheetah", "lion", "elephant",
                 "hyena", "vulture"]
SAVANNA_SETTINGS = {"cheetah_range": ["neighbours", "lines"], "hyena_range": ["straight", "manhattan"],
                    "elephants_below_zero": ["true", "false"], "lion_prey_chooser": ["owner", "reading_order"],
                    "second_place_ties": ["share", "void"], "vulture_range": ["column", "just_below"],
                    "max_players": ["6", "3", "12"], "grid_rows": ["4", "3", "1"], "grid_columns": ["5", "6", "1"],
                    "hand_size": ["11", "2", "1"]}
DARWIN_SETTINGS = {"food_units": ["62", "0", "1"], "darwin_points_in_box": ["102", "9999"],
                   "markers_per_colour": ["9", "12"], "hand_size": ["6", "0", "1"],
                   "main_actions": ["per_turn", "per_species"], "event_biome_change": ["counted", "extra"],
                   "selected_biome": ["at_random", "by_first_player"],
                   "strength_tie_food": ["required", "obtained"], "omnivore_meat": ["with_carnivores", "before_carnivores"],
                   "feeding_after_shortfall": ["stop", "skip"], "standing_distribution": ["true", "false"],
                   "tied_feeders": ["all_or_none", "even_split"], "starving_carnivore": ["takes_lower_carnivores", "alone"],
                   "predation_scope": ["same_biome", "anywhere"], "hungry_order": ["most_adapted_first", "least_adapted_first"],
                   "eaten_species": ["discarded", "removed"], "hurricane_ties": ["all_die", "none_die", "one_dies"],
                   "darwin_point_stock": ["limited", "unlimited"], "adaptation_symbols": ["central", "all_biome_symbols"],
                   "eras": ["4", "1", "3", "17"], "boom_effect": ["set_supply", "add_supply", "meteor_caps"],
                   "epidemic_stops_predation": ["stops", "allows", "zero_strength_never_hunts"]}
DARWIN_QUERIES = ["can-place", "best-create", "best-mutation", "best-migration", "best-move", "explain"]
SAVANNA_QUERIES = ["best-arrangement", "max-score", "best-placement", "best-pick"]
DARWIN_VARIANTS = ["beginners", "coop_2v2", "kids", "short_game", "two_player"]
OWN_MODE_VARIANTS = {"two_player", "solo", "kids", "coop_2v2"}      # played without --players

# the real state files the `state` and `cmdline` categories start from:
# name -> (spec, play options, checkpoint, seeds)
BASE_STATES = {
    "savanna": (SAVANNA, ["--players", "4"], "pick:3", (1, 2, 3)),
    "darwin": (DARWIN, ["--players", "4"], "turn:5", (1, 2, 3)),
    "savanna_2p": (SAVANNA, ["--variant", SAVANNA + "/variants/two_player.rules"], "pick:3", (1,)),
    "savanna_solo": (SAVANNA, ["--variant", SAVANNA + "/variants/solo.rules"], "turn:3", (1,)),
    "darwin_eval": (DARWIN, ["--players", "3"], "evaluation:1", (1,)),
    "darwin_2p": (DARWIN, ["--variant", DARWIN + "/variants/two_player.rules"], "turn:3", (1,)),
    "tiny": (TINY_SPEC, ["--players", "2"], "pick:2", (1,)),
}


class BaseStateError(Exception):
    def __init__(self, argv, outcome):
        super().__init__(f"could not make a base state: {argv}")
        self.argv, self.outcome = argv, outcome


# ====================================================================== payloads
HUGE = "99999999999999999999999"
TOO_MANY_DIGITS = "1" + "0" * 5000          # past Python's int <-> str conversion limit
NUMBERS = [HUGE, "-1", "0", "0x10", "1_0", "1e5", "00", "007", "-0", "18446744073709551616",
           "9223372036854775807", "-9223372036854775809", "1.5", "2147483648", TOO_MANY_DIGITS,
           "-" + HUGE, "1__0", "+1", "\u0663", "10**100", "1" * 400, "3", "1", "2", "100000"]
STRINGS = ['"{0}"', '"{2}"', '"{fors}"', '"{"', '"}"', '"{}"', '"{{}}"', '"{{0}}"', r'"\\"', r'"\"',
           '"abc', r'"\u00e9"', r'"\ud800"', r'"\udfff"', r'"\U0010ffff"', r'"\U00110000"', r'"\x00"',
           r'"\xff"', r'"\N{BULLET}"', r'"\N{nope}"', r'"\0"', r'"\777"', r'"\q"', '"%s %d %(x)s"',
           '"{size(box)}"', '"{1 // 0}"', '"{x.y.z}"', '"{!r}"', '"{:>99999999}"', '"{0:{1}}"',
           '"' + "{" * 200 + '"', '"' + "a" * 100_000 + '"', '"\u00e9 \u00fc \u4e2d \U0001f981"', r'"\t\r\n"',
           '""', '"{[i for i in 1..80000000000000]}"', '"{size(1..80000000000000)}"', '"{first([])}"',
           '"{seats}"', '"{" + "}"', '"\\u{41}"', '"\\u00"', '"\\U0000"', '"\\x4"', '"{\\"}"', '"\u0000"']
KEYWORDS = ("game variant extends switch param enum table from option grid by of floating relation def rule "
            "else outcome scoring layer step state per record procedure mode players seats query check "
            "invariant warn for in if then and or not let choose subset sized at random points mark shuffle "
            "deal move to place on pass repeat simultaneously do report input require set while take "
            "checkpoint note section play maximize minimize named new with add override remove field row "
            "after before pile list int bool text cell true false none base").split()
ODD_NAMES = ["lambda", "class", "import", "None", "True", "yield", "await", "__class__", "__init__",
             "__import__", "self", "base", "ST", "K1", "_S", "v_p", "f_score", "print", "eval", "exec",
             "sys", "os", "_", "__", "x" * 10_000, "\u00e9", "Name", "UPPER", "a1", "rt", "compiler", "none",
             "int", "str", "list", "cell", "seat", "seats", "players", "direction", "seat_kind", "left",
             "right", "neutral", "automaton", "player"]


# ---------------------------------------------------------------------- the newer categories' inputs
# the saved games the `resume` category starts from (names of BASE_STATES) and their weights
RESUME_BASES = {"savanna": 6, "tiny": 5, "darwin": 3, "savanna_2p": 1, "savanna_solo": 1, "darwin_eval": 1,
                "darwin_2p": 1}
# a saved game that began at a position written by hand (its resume entry has "from"):
# base state name -> (the seed it is played on with, the checkpoint it is saved at)
BEGAN_FROM = {"savanna": (5, "pick:5"), "tiny": (5, "pick:3"), "darwin": (5, "turn:7")}
# checkpoints a resumed game is played on to (--until), per spec
UNTIL = {SAVANNA: ["pick:5", "pick:11", "pick:4", "pick:2", "pick:3", "turn:3", "pick", "nope:1", "pick:" + HUGE,
                   "game_end", "pick:0"],
         DARWIN: ["turn:7", "turn:6", "turn:9", "evaluation:2", "era:2", "turn:5", "turn:1", "turn", "nope"],
         TINY_SPEC: ["pick:3", "pick:4", "pick:2", "pick:1", "pick", "nope", "pick:" + HUGE]}
# the game logs the `choices` category starts from: name -> (spec, play options, checkpoint or None, seeds)
LOG_BASES = {
    "savanna": (SAVANNA, ["--players", "4"], None, (1, 2)),
    "savanna_3": (SAVANNA, ["--players", "3"], "pick:6", (1,)),
    "tiny": (TINY_SPEC, ["--players", "2"], None, (1, 2)),
    "darwin": (DARWIN, ["--players", "3"], "turn:6", (1,)),
    "darwin_2p": (DARWIN, ["--variant", DARWIN + "/variants/two_player.rules"], "turn:4", (1,)),
    "savanna_solo": (SAVANNA, ["--variant", SAVANNA + "/variants/solo.rules"], None, (1,)),
}
LOG_WEIGHTS = [5, 2, 5, 3, 1, 2]

# Tiny with one of each kind of text a rulebook page shows besides its own: a worked
# example, a section, a property (the `docs` category puts payloads in their titles)
TINY_DOCS_EXTRA = '''
/// A goat next to grass scores for it.
example goat_grass [TY-21] "A goat and its grass" {
  let g = grid field {
    goat  grass .
    .     .     .
    .     .     .
  }
  expect score(g).goat == 2
}

/// Where a piece may go.
section putting [TY-22] "Putting a piece" { can_put }

/// Goats never take a field below zero.
property goats_count [TY-23] "Goats score zero or more" {
  choose g: field where full(g)
  holds score(g).goat >= 0
}

/// Two seats with names of their own.
mode duel [TY-24] "Duel" players 2 {
  seats ann: player "Ann", bob: player "Bob"
  shuffle deck
  do round()
  report score for p in seats = final_score(p)
  report winners = {p in seats if final_score(p) == max(final_score(q) for q in seats)}
}
'''
# a version of Tiny (tiny/variants/short.rules: Tiny named as a folder has variants)
TINY_VARIANT = '''/// A shorter game.
variant short [TY-V1] "Short" extends ".."

/// Fewer pieces.
override param hand_size [TY-V1] = 2
'''
# a house rule of Tiny (house/NAME.rules): {doc}, {title}, {label} filled in
TINY_HOUSE = '''/// {doc}
variant sheep [HR-T1] {title} extends "../tiny/tiny.rules"

/// {doc2}
add row piece [HR-T1]: sheep | animal | 4 | {label}
'''

# texts that would run in a browser if a page let them through as HTML (each holds
# alert(N), javascript:, data:, a handler or a tag outside the site's allowlist)
HTML_PAYLOADS = [
    "<script>alert(1)</script>", "<img src=x onerror=alert(2)>", "<details open ontoggle=alert(3)>x</details>",
    "<svg onload=alert(4)><circle r=1/></svg>", "<body onpageshow=alert(5)>", "<a href=\"javascript:alert(6)\">j</a>",
    "[click](javascript:alert(7))", "![pic](javascript:alert(8))",
    "[data](data:text/html;base64,PHNjcmlwdD5hbGVydCg5KTwvc2NyaXB0Pg==)", "[ref][evil]\n\n[evil]: javascript:alert(10)",
    "<javascript:alert(11)>", "`` `</code><img src=x onerror=alert(12)>` ``", "\" onmouseover=\"alert(13)\" x=\"",
    "' autofocus onfocus='alert(14)' x='", "{: onclick=\"alert(15)\" }", "x{ onclick=alert(16) }",
    "<iframe srcdoc=\"<script>alert(17)</script>\"></iframe>", "<!--><img src=x onerror=alert(18)>-->",
    "<math><mtext><table><mglyph><style><img src=x onerror=alert(19)>", "&lt;img src=x onerror=alert(20)&gt;",
    "<a href=\"jav&#x09;ascript:alert(21)\">t</a>", "[t](JaVaScRiPt:alert(22))",
    "\n```\n<img src=x onerror=alert(23)>\n```\n", "<style>@import 'javascript:alert(24)'</style>",
    "<input autofocus onfocus=alert(25)>", "<object data=\"javascript:alert(26)\"></object>",
    "<svg><animate attributeName=href to=javascript:alert(27) /><a><text>x</text></a></svg>",
    "<svg/onload=alert(28)>", "![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMjkpPg==)",
    "`<img src=x onerror=alert(30)>`", "{ #x onclick=alert(31) }", "[a]: javascript:alert(32)",
    "[a][a]\n\n[a]: javascript:alert(33)", "<div markdown=\"1\">[x](javascript:alert(34))</div>",
    "<a href=\"&#106;avascript:alert(35)\">x</a>", "<![CDATA[<img src=x onerror=alert(36)>]]>",
    "<base href=\"javascript:alert(37)//\">", "<meta http-equiv=refresh content=\"0;url=javascript:alert(38)\">",
    "<form action=javascript:alert(39)><button>x</button></form>", "<video><source onerror=alert(40)>",
    "<a href=\"vbscript:alert(41)\">x</a>", "<img srcset=\"javascript:alert(42) 1x\">",
    "<p style=\"background:url(javascript:alert(43))\">x</p>", "!!! note \"<img src=x onerror=alert(44)>\"",
    "??? note \"<svg onload=alert(45)>\"", "<<script>alert(46)//<</script>", "<scr<script>ipt>alert(47)</script>",
    "\\<img src=x onerror=alert(48)>", "&#60;img src=x onerror=alert(49)&#62;", "<img src=x onerror=alert(50)//",
    "[x](<javascript:alert(51)>)", "[x](javascript&#58;alert(52))", "<https://x.example\" onmouseover=\"alert(53)>",
    "~~~\n<script>alert(54)</script>\n~~~", "    <script>alert(55)</script>", "| <img src=x onerror=alert(56)> | x |",
    "<a href='javascript:alert(57)'>q</a>", "[x]( javascript:alert(58) )", "![x](x \"t\" onerror=alert(59))",
    "<details open ontoggle=alert(60)>", "<img src=`x` onerror=alert(61)>", "<IMG SRC=x OnErRoR=alert(62)>",
]
# the Markdown around a payload: a heading, a table cell, a list, code, an attribute list,
# an admonition, HTML a Markdown block reads...
MD_CONTEXT = ["", "", "\n", "\n\n", "# ", "> ", "- ", "1. ", "    ", "| ", " |", "*", "**", "_", "`", "``", "```",
              "~~~", "[", "](", ")", "<", "&", "\\", "{:", "}", "!!! note ", "??? ", "<div markdown=\"1\">", "</div>",
              "<!--", "-->", "\"", "'", "[^1]", "<span>", "</span>", "</td>", "</code>", "</pre>", "</a>", "]]>",
              "\t", "{ #d-x }", "</div>\n\n", "\n---\n"]


def _html_payload(rng: random.Random, one_line: bool = False) -> str:
    """One payload, alone, in a Markdown context, or two run together."""
    r = rng.random()
    out = rng.choice(HTML_PAYLOADS)
    if r < 0.35:
        out = rng.choice(MD_CONTEXT) + out + rng.choice(MD_CONTEXT)
    elif r < 0.5:
        out = out + rng.choice(MD_CONTEXT) + rng.choice(HTML_PAYLOADS)
    elif r < 0.55:
        out = out * rng.choice([2, 20, 300])
    if one_line:
        out = out.replace("\n", " ")
    return out


def _spec_quoted(text: str) -> str:
    """``text`` as a spec's quoted text."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t") + '"'


def _po_quoted(text: str) -> str:
    """``text`` as a quoted string of a .po catalogue."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t") \
        .replace("\r", "\\r") + '"'


# what the `po` category writes in a catalogue
PO_GARBAGE = ['msgid', 'msgstr', '"', '""', '"x', 'x"', 'msgid "x', '#~ msgid "x"', '#~ msgstr "y"', 'msgstr[0] "x"',
              'msgstr[1] "y"', 'msgid_plural "xs"', 'foo bar', '"continuation"', '#, fuzzy', '#, c-format, fuzzy',
              '#| msgid "old"', '#| msgctxt "old"', 'msgctxt', 'msgctxt ""', '\\', 'msgid ""', 'msgstr ""',
              'msgid "" "x"', '#:', '#. note', '#', '', 'msgstr "\\"', 'msgstr "\\q"', 'msgstr "\\x41\\777\\u00e9"',
              'msgid "{0}"', 'msgstr "' + "{" * 100 + '"', '"\\n"' * 50, 'msgctxt "title tiny"',
              'msgctxt "name card.lion"', 'msgstr[x] "a"', 'msgstr[99999999999999999999] "a"', 'msgstr[-1] "a"',
              '#~|', '#~ #~', 'domain "x"', 'MSGID "x"', ' msgid "x"', '\tmsgstr "x"', 'msgid\t"x"', 'msgstr"x"',
              'msgid "a" msgstr "b"']
CHARSETS = ["ISO-8859-1", "latin-1", "CHARSET", "utf-16", "UTF8", "utf_8", "", "utf-8; charset=latin1", "x" * 1000,
            "ascii", "cp1252", "UTF-8 ", "\"UTF-8\"", "utf-8-sig", "iso-2022-jp", "nope", "UTF-32", "Utf-8"]
CONTROL_TEXTS = ["\x1b]0;pwned\x07", "\x1b]52;c;Y2FuYXJ5\x07", "\x1b[2J", "\x07", "a\rb", "\u202egnp.exe", "\x00",
                 "\x7f\x9b", "\u200b\ufeff", "\u2028", "\ud800", "{0}", "{fors}", "{", "}}", "%s %(x)s", "\\",
                 "x" * 100_000]


# ---------------------------------------------------------------------- command lines
CMD_SPECS = [SAVANNA, DARWIN, TINY_SPEC, SAVANNA + "/variants/solo.rules", SAVANNA + "/variants/two_player.rules",
             *[f"{DARWIN}/variants/{v}.rules" for v in DARWIN_VARIANTS], "spec/house_rules/savanna_rhinos.rules",
             "spec/house_rules/darwin_no_cannibals.rules", "spec/house_rules/darwin_one_migration.rules"]
BAD_PATHS = ["", "nope", "spec/nope", ".", "spec", "examples", "examples/margot.grid",
             DARWIN + "/animal_cards.csv", DARWIN + "/game.rules", "-", "x" * 5000, "a\nb", "\u00e9/\u00fc",
             "\udcff", SAVANNA + "/", "./spec/../spec/ecosystem_savanna", "/dev/null", "spec/house_rules",
             "savanna.json", "out", "spec//ecosystem_savanna", "nope.rules", "~", "tiny"]
GRIDS = ["examples/margot.grid", "examples/partial.grid", "examples/margot.cards", "nope.grid", "savanna.json", "",
         "/dev/null", "examples", "tiny/start.grid", "empty.txt"]
QUERY_NAMES = DARWIN_QUERIES + SAVANNA_QUERIES + ["best-spot", "nope", "", "best_pick", "BEST-MOVE", "best-", "-",
                                                  "max_score", "--json"]
PAYLOADS = ["", "-1", "0", HUGE, TOO_MANY_DIGITS, "0x10", "1_0", "true", "false", "{0}", '"', "\u00e9", "\udcff",
            "1.5", "nope", " 3 ", "1e309", "nan", "-" + HUGE, "x" * 10_000, "=", ",", "p1,p1", "{fors}", "\\", "\t"]
OPTION_VALUES = {
    "--players": ["0", "1", "2", "3", "4", "5", "6", "7", "100", "-1", HUGE, "x", "", "3.5", " 3"],
    "--seed": ["-1", "0", "1", "7", str(2 ** 63), str(2 ** 64), HUGE, "x", "", TOO_MANY_DIGITS],
    "--mode": ["standard", "solo", "two_player", "kids", "coop_2v2", "", "nope"],
    "--stop-at": ["pick", "pick:0", "pick:-1", "pick:99999999999", "turn:5", "nope", ":", "", "pick:1:2", "pick:1e3",
                  "game_end", "era:2", "pick:3", "turn", "evaluation:1", "pick:" + HUGE, "evaluated:4",
                  "transition:3", "pick:20", "pick:19", "turn:1"],
    "--save-state": ["s.json", "", "out", "nope/s.json", "examples/margot.grid", SAVANNA + "/game.rules",
                     "savanna.json", "log.jsonl"],
    "--log": ["log.jsonl", "", "out", "s.json", SAVANNA + "/game.rules", "/dev/null"],
    "--agent": ["solver", "random", "x", ""],
    "--agent-seats": ["p1", "p1,p3", "p9", "", ",", "p1,p1", "neutral", "P1", "jhay", "p2"],
    "--agent-input": ["objective=adaptation", "objective=x", "x=y", "=", "allow_trade=maybe", "allow_trade=true",
                      "player=p2", "objective=points", "species=1"],
    "--agent-query": ["best-move", "best_move", "explain", "nope", "best-pick", "can-place", ""],
    "--agent-time-limit": ["0", "-1", "1e309", "nan", "0.5", "1", "x", "1e-9"],
    "--games": ["0", "-1", "1", "2", HUGE, "x", "", "1.5"],
    "--against": CMD_SPECS + ["nope", "", "tiny/tiny.rules", "spec/house_rules"],
    "--state": ["savanna.json", "darwin.json", "examples/margot.grid", "examples/partial.grid", "", "nope.json",
                "empty.txt", "/dev/null", "out", "tiny/start.grid", "cards.txt"],
    "--player": ["p1", "p2", "p3", "p4", "p9", "0", "1", "-1", "", "Player 2", "neutral", "jhay", HUGE, "\udcff"],
    "--species": ["1", "2", "0", "-1", HUGE, "x", "", "1.0", TOO_MANY_DIGITS, "99"],
    "--cards": ["giraffe_head,orca_body,tuna_tail", "x,y", "", ",,,", "cards.txt", "giraffe_head," * 500,
                "examples/margot.cards", "empty.txt", "lion", "lion," * 20, "nope.cards", "lion " * 100_000,
                DARWIN + "/animal_cards.csv"],
    "--card-table": [DARWIN + "/animal_cards.csv", "cards.txt", "empty.txt", "nope.csv", "examples/margot.grid"],
    "--table": ["biome=" + DARWIN + "/biomes.csv", "nope=x.csv", "=", "biome=", "animal_card=empty.txt",
                "card=cards.txt", "biome", "animal_card=" + DARWIN + "/animal_cards.csv"],
    "--biome": ["tundra", "nope", "", "savanna", "europe"],
    "--objective": ["points", "adaptation", "x", ""],
    "--card": ["hyena", "lion", "rhino", "", "x", "goat"],
    "--time-limit": ["0", "-1", "1e309", "nan", "inf", "0.5", "1", "1e-9", "", "x", "3", "-inf", "1e-320", "0x10"],
    "--workers": ["0", "-1", "1", "2", "1025", "1024", HUGE, "x", "1.5"],
    "--format": ["dot", "json", "", "svg"],
    "--stage": ["ast", "python", "", "ir"],
    "--out": ["out", "out/x", "examples/margot.grid", "", "docs/rules", "a\nb", ".", "savanna.json"],
    "--variant": CMD_SPECS[3:] + BAD_PATHS[:12],
    "--root": [".", "", "nope", "/", "spec", "examples/margot.grid", "out", "tiny", ".."],
    "--json": [], "--allow-trade": [],
}
# valid commands the command-line generator starts from ({seed}: the input's seed)
VALID_COMMANDS = [
    ["check", SAVANNA], ["check", DARWIN], ["check", TINY_SPEC], ["check", "spec/house_rules/savanna_rhinos.rules"],
    ["check", SAVANNA, DARWIN], ["graph", SAVANNA, "--format", "dot"], ["graph", DARWIN],
    ["dump", TINY_SPEC, "--stage", "python"], ["dump", SAVANNA], ["docs", SAVANNA, "--out", "out"],
    ["docs", TINY_SPEC, "--out", "out"], ["diff", SAVANNA, "spec/house_rules/savanna_rhinos.rules"],
    ["diff", DARWIN, DARWIN + "/variants/short_game.rules", "--json"],
    ["score", SAVANNA, "examples/margot.grid"], ["score", SAVANNA, "examples/margot.grid", "examples/margot.grid", "--json"],
    ["play", SAVANNA, "--players", "4", "--seed", "{seed}"], ["play", DARWIN, "--players", "3", "--seed", "{seed}"],
    ["play", TINY_SPEC, "--players", "2", "--seed", "{seed}"],
    ["play", SAVANNA, "--variant", SAVANNA + "/variants/solo.rules", "--seed", "{seed}"],
    ["play", DARWIN, "--variant", DARWIN + "/variants/two_player.rules", "--seed", "{seed}"],
    ["play", SAVANNA, "--players", "3", "--seed", "{seed}", "--stop-at", "pick:5", "--save-state", "s.json"],
    ["play", DARWIN, "--players", "4", "--seed", "{seed}", "--stop-at", "turn:3", "--save-state", "s.json",
     "--log", "log.jsonl"],
    ["play", SAVANNA, "--players", "3", "--seed", "{seed}", "--agent", "solver", "--agent-seats", "p1",
     "--agent-time-limit", "1"],
    ["play", DARWIN, "--players", "3", "--seed", "{seed}", "--json"],
    ["simulate", SAVANNA, "--players", "3", "--games", "2", "--seed", "{seed}"],
    ["simulate", "spec/house_rules/darwin_no_cannibals.rules", "--players", "3", "--games", "1", "--against", DARWIN],
    ["show", SAVANNA, "--state", "savanna.json"], ["show", DARWIN, "--state", "darwin.json", "--json"],
    ["query", SAVANNA, "best-pick", "--state", "savanna.json", "--player", "p2"],
    ["query", SAVANNA, "best-placement", "--state", "examples/partial.grid", "--card", "hyena"],
    ["query", SAVANNA, "best-arrangement", "--cards", "examples/margot.cards"],
    ["query", DARWIN, "best-move", "--state", "darwin.json", "--player", "p1"],
    ["query", DARWIN, "can-place", "--state", "darwin.json", "--cards", "giraffe_head,orca_body,tuna_tail",
     "--biome", "tundra"],
    ["query", DARWIN, "explain", "--state", "darwin.json", "--species", "1"],
    ["query", DARWIN, "best-mutation", "--state", "darwin.json", "--species", "1"],
    ["query", DARWIN, "best-migration", "--state", "darwin.json", "--species", "2"],
    ["query", DARWIN, "best-create", "--state", "darwin.json", "--objective", "points", "--allow-trade"],
    ["query", TINY_SPEC, "best-spot", "--state", "tiny/start.grid", "--card", "goat"],
    ["--help"], ["query", SAVANNA, "best-pick", "--help"],
]



def _nest(rng: random.Random) -> str:
    d = rng.choice([20, 100, 300, 1000, 3000, 20_000])
    return rng.choice([
        lambda: "(" * d + "1" + ")" * d,
        lambda: "1" + " + 1" * d,
        lambda: "- " * d + "1",
        lambda: "not " * d + "true",
        lambda: "[" * d + "]" * d,
        lambda: "{" * d + "1" + "}" * d,
        lambda: "[" * d + "1" + "]" * d,
        lambda: "size(" * d + "[]" + ")" * d,
        lambda: "if true then " * d + "1" + " else 0" * d,
        lambda: "1" + " * 2" * d,
        lambda: "(1, " * d + "1" + ")" * d,
        lambda: "1" + " .. 1" * min(d, 300),
        lambda: "x.y" + ".z" * d,
    ])()


EXPRESSIONS = ["1..80000000000000", "size(1..80000000000000)", "sum(i for i in 1..80000000000000)",
               "[i for i in 1..80000000000000]", "count(i in 1..80000000000000 if i > 0)", "1 // 0", "1 % 0",
               "0 - " + HUGE, HUGE + " * " + HUGE, "-(1..5)", "first([])", "min([])", "max({})",
               "take([1], -1)", "take([1, 2], 99999999999)", "x", "none", "seats", "players", "true",
               "(1, 2)", "(1, )", '"text"', "{1: 2}", "{else: 1}", 'if true then 1 else "a"', "1..-5", "5..1",
               "1 == 1 == 1", "subsets(1..30)", "subsets(1..25, 3)", "2 ** 3", "[]", "{}", "()", "new nope()",
               "abs(-" + HUGE + ")", HUGE + " // -1", "-" + HUGE + " % 7", "(-1, -1)", "(0, 99999999999)",
               "offsets((0, 0))", "rays((0, 0))", "groups(1..5, adjacent)", "within([], [])", "1 in 1",
               "ranked(x for x in 1..3 by x)", "seats_from(first(players), right)", "base()", "base(1)"]
# what a well-formed expression may become
GENTLE_EXPRESSIONS = ["0", "-1", HUGE, "-" + HUGE, "1 // 0", "1 % 0", "size(1..80000000000000)",
                      "sum(i for i in 1..80000000000000)", "count(i in 1..80000000000000 if i > 0)",
                      "first([])", "min([])", "max([])", "take([1], -1)", "take([1, 2], 99999999999)", "none",
                      "true", "false", "[]", "{}", "(1, 2)", "(0, 99999999999)", '"text"', "seats", "players",
                      "size(seats)", "first(players)", "1..0", "5..1", "-5..5", "subsets(1..30)",
                      "subsets(1..25, 3)", "abs(-" + HUGE + ")", HUGE + " * " + HUGE, "2 * " + HUGE + " // 0",
                      "[i for i in 1..100000]", "size([i for i in 1..3000000])", "{1: 2, else: 3}[5]",
                      "{1: 2}[5]", "if true then 1 else 2", "max(0, -1)", "min(1, 2)"]
# names a name may become, keeping the kind of the expression (an operator, a seat direction...)
_SWAPS = (("and", "or"), ("left", "right"), ("true", "false"), ("min", "max"), ("any", "all"),
          ("sum", "count", "size"), ("first", "take"), ("players", "seats"), ("maximize", "minimize"),
          ("after", "before"), ("pile", "list", "set"), ("int", "bool", "text"), ("offsets", "rays"),
          ("occupied", "free"), ("rows", "columns"), ("row", "column"))

PUNCT = list("{}[]()|:,.=<>\"\\#/@$;!?'`~^&") + ["..", "==", "//", "///", "->", "=>", "**"]
RAW_BYTES = [b"\xff", b"\xfe\xff", b"\x00", b"\xef\xbb\xbf", b"\r", b"\x0c", b"\t", "\u2028".encode(),
             "\u00a0".encode(), "\u200b".encode(), b"\x1b[31m", b"\\", b'"', b"{", b"}", b"(", b"[", b"\n" * 50,
             b"\xc3", b"\xed\xa0\x80", b"\xe9", b"\r\n", b"\x85", "\ufeff".encode(), b"\x1a"]

_TOKEN = re.compile(r'''
 (?P<ws>\s+)
|(?P<doc>///[^\n]*)
|(?P<comment>\#[^\n]*)
|(?P<string>"(?:[^"\\\n]|\\.)*")
|(?P<ruleid>[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)
|(?P<name>[A-Za-z_][A-Za-z0-9_]*)
|(?P<number>[0-9]+)
|(?P<op>\.\.|==|!=|<=|>=|//|[-+*%<>=(){}\[\],.:|])
|(?P<other>.)
''', re.X | re.S)


def tokenize(text: str) -> list[list[str]]:
    return [[m.lastgroup, m.group()] for m in _TOKEN.finditer(text)]


def _line_of(toks, i) -> int:
    return 1 + sum(t.count("\n") for _, t in toks[:i])


def _pick(rng, toks, kinds=None) -> int | None:
    idx = [i for i, (k, _) in enumerate(toks) if k != "ws" and (kinds is None or k in kinds)]
    return rng.choice(idx) if idx else None


def mutate_rules(rng: random.Random, text: str, extra_lines: list[str] = (), others: list[str] = (),
                 gentle: bool = False) -> tuple[bytes, list[str]]:
    """A spec file's text with 1 to about 8 token mutations (and now and then a raw
    byte one); ``extra_lines``: whole lines that may be inserted (variant items);
    ``others``: texts of the other files of the spec (lines spliced from them).
    ``gentle``: one or two mutations that keep the text parseable most of the time
    (a number for a number, a name for a name, an operator for one of its kind, a
    well-formed string or expression), so that the resolver, the checks and the
    game itself meet the odd values."""
    toks = tokenize(text)
    notes: list[str] = []
    names = sorted({t for k, t in toks if k == "name"})

    def at(i):
        return f"line {_line_of(toks, i)}"

    def replace_number():
        i = _pick(rng, toks, ("number",))
        if i is None:
            return None
        new = rng.choice(NUMBERS + ["1..80000000000000", _nest(rng)] if rng.random() < 0.15 else NUMBERS)
        old, toks[i][1] = toks[i][1], new
        return f"number {old!r} at {at(i)} -> {new[:40]!r}"

    def replace_string():
        i = _pick(rng, toks, ("string",))
        if i is None:
            return None
        new = rng.choice(STRINGS)
        if rng.random() < 0.3:                    # keep the text, add a payload inside
            body = toks[i][1][1:-1]
            cut = rng.randint(0, len(body))
            new = '"' + body[:cut] + rng.choice(STRINGS)[1:-1] + body[cut:] + '"'
        old, toks[i][1] = toks[i][1], new
        return f"string {old[:30]!r} at {at(i)} -> {new[:40]!r}"

    def replace_name():
        i = _pick(rng, toks, ("name",))
        if i is None:
            return None
        old = toks[i][1]
        r = rng.random()
        if r < 0.35 and names:
            new = rng.choice(names)
        elif r < 0.55:
            new = rng.choice(KEYWORDS)
        elif r < 0.75:
            new = rng.choice(ODD_NAMES)
        elif r < 0.9 and len(old) > 1:
            j = rng.randrange(len(old))
            new = old[:j] + old[j + 1:] if rng.random() < 0.5 else old[:j] + old[j] + old[j:]
        else:
            new = rng.choice(EXPRESSIONS)
        toks[i][1] = new
        return f"name {old!r} at {at(i)} -> {new[:40]!r}"

    def expression():
        i = _pick(rng, toks, ("number", "name"))
        if i is None:
            return None
        new = _nest(rng) if rng.random() < 0.4 else rng.choice(EXPRESSIONS)
        old, toks[i][1] = toks[i][1], new
        return f"{old!r} at {at(i)} -> {new[:40]!r}{'...' if len(new) > 40 else ''} ({len(new)} chars)"

    def delete():
        i = _pick(rng, toks)
        if i is None:
            return None
        old, toks[i][1] = toks[i][1], ""
        return f"deleted {old[:30]!r} at {at(i)}"

    def duplicate():
        i = _pick(rng, toks)
        if i is None:
            return None
        n = rng.choice([1, 1, 1, 2, 5, 100])
        toks[i][1] = " ".join([toks[i][1]] * (n + 1))
        return f"repeated {toks[i][1][:30]!r} x{n + 1} at {at(i)}"

    def swap():
        i, j = _pick(rng, toks), _pick(rng, toks)
        if i is None or i == j:
            return None
        if rng.random() < 0.6:                     # the next token
            nxt = [k for k in range(i + 1, len(toks)) if toks[k][0] != "ws"]
            if not nxt:
                return None
            j = nxt[0]
        toks[i][1], toks[j][1] = toks[j][1], toks[i][1]
        return f"swapped {toks[j][1][:20]!r} ({at(i)}) and {toks[i][1][:20]!r} ({at(j)})"

    def operator():
        i = _pick(rng, toks, ("op",))
        if i is None:
            return None
        old = toks[i][1]
        r = rng.random()
        new = (old + " " + old * rng.choice([1, 2, 10])) if r < 0.4 else rng.choice(PUNCT)
        toks[i][1] = new
        return f"operator {old!r} at {at(i)} -> {new[:30]!r}"

    def insert_punct():
        i = _pick(rng, toks)
        if i is None:
            return None
        p = rng.choice(PUNCT)
        toks[i][1] = toks[i][1] + " " + p if rng.random() < 0.5 else p + toks[i][1]
        return f"inserted {p!r} at {at(i)}"

    def lines_op():
        text_now = "".join(t for _, t in toks)
        lines = text_now.split("\n")
        r = rng.random()
        k = rng.randrange(len(lines))
        if r < 0.25:
            what = f"deleted line {k + 1}"
            del lines[k]
        elif r < 0.45:
            what = f"duplicated line {k + 1}"
            lines.insert(k, lines[k])
        elif r < 0.6 and extra_lines:
            line = rng.choice(extra_lines)
            what = f"inserted line {k + 1}: {line[:60]!r}"
            lines.insert(k, line)
        elif r < 0.72 and others:
            src = rng.choice(others).split("\n")
            line = rng.choice(src)
            what = f"spliced line {k + 1} from another file: {line[:60]!r}"
            lines.insert(k, line)
        elif r < 0.8:
            j = rng.randrange(len(lines))
            lines[k], lines[j] = lines[j], lines[k]
            what = f"swapped lines {k + 1} and {j + 1}"
        elif r < 0.88:
            what = "the whole file twice"
            lines = lines + lines
        elif r < 0.94:
            j = min(len(lines), k + rng.randint(1, 30))
            what = f"deleted lines {k + 1}..{j}"
            del lines[k:j]
        else:
            line = rng.choice(["repeat 80000000000000 { }", "while true { }", "for i in 1..80000000000000 { }",
                               "let x = " + _nest(rng), "set x = 1", "checkpoint pick", "do nope()",
                               "points 99999999999999999999999", "note n = 1 // 0"])
            what = f"inserted statement at line {k + 1}: {line[:40]!r}"
            lines.insert(k, line)
        toks[:] = tokenize("\n".join(lines))
        return what

    def gentle_number():
        i = _pick(rng, toks, ("number",))
        if i is None:
            return None
        new = rng.choice(["0", "1", "2", "3", "5", "10", "100", "1000000", HUGE, "4294967296", "0", "1"])
        old, toks[i][1] = toks[i][1], new
        return f"number {old!r} at {at(i)} -> {new!r}"

    def gentle_string():
        i = _pick(rng, toks, ("string",))
        if i is None:
            return None
        new = rng.choice([x for x in STRINGS if x not in ('"abc', r'"\"', '"\\u00"', '"\\U0000"', '"\\x4"')])
        old, toks[i][1] = toks[i][1], new
        return f"string {old[:30]!r} at {at(i)} -> {new[:40]!r}"

    def gentle_name():
        i = _pick(rng, toks, ("name",))
        if i is None:
            return None
        old = toks[i][1]
        for group in _SWAPS:
            if old in group:
                new = rng.choice([g for g in group if g != old])
                break
        else:
            new = rng.choice(names)
        toks[i][1] = new
        return f"name {old!r} at {at(i)} -> {new!r}"

    def gentle_operator():
        i = _pick(rng, toks, ("op",))
        if i is None:
            return None
        old = toks[i][1]
        for group in (("+", "-", "*", "//", "%"), ("==", "!=", "<", "<=", ">", ">=")):
            if old in group:
                new = rng.choice([g for g in group if g != old])
                toks[i][1] = new
                return f"operator {old!r} at {at(i)} -> {new!r}"
        return None

    def gentle_expression():
        i = _pick(rng, toks, ("number",)) if rng.random() < 0.6 else _pick(rng, toks, ("name",))
        if i is None:
            return None
        new = rng.choice(GENTLE_EXPRESSIONS) if rng.random() < 0.8 else _nest(rng)
        new = "(" + new + ")"
        old, toks[i][1] = toks[i][1], new
        return f"{old!r} at {at(i)} -> {new[:40]!r}{'...' if len(new) > 40 else ''} ({len(new)} chars)"

    def gentle_line():
        lines = "".join(t for _, t in toks).split("\n")
        k = rng.randrange(len(lines))
        if rng.random() < 0.6:
            what = f"deleted line {k + 1}: {lines[k].strip()[:50]!r}"
            del lines[k]
        else:
            what = f"duplicated line {k + 1}: {lines[k].strip()[:50]!r}"
            lines.insert(k, lines[k])
        toks[:] = tokenize("\n".join(lines))
        return what

    if gentle:
        ops = [(gentle_number, 14), (gentle_string, 6), (gentle_name, 14), (gentle_operator, 10),
               (gentle_expression, 10), (gentle_line, 6)]
        count = 1 if rng.random() < 0.7 else 2
    else:
        ops = [(replace_number, 12), (replace_string, 10), (replace_name, 14), (expression, 10), (delete, 10),
               (duplicate, 6), (swap, 8), (operator, 8), (insert_punct, 5), (lines_op, 12)]
        count = 1 + min(int(rng.expovariate(0.7)), 7)
    total = sum(w for _, w in ops)
    for _ in range(count):
        x = rng.random() * total
        for op, w in ops:
            x -= w
            if x < 0:
                break
        note = op()
        if note:
            notes.append(note)
    data = "".join(t for _, t in toks).encode("utf-8", "surrogatepass")
    if not gentle and rng.random() < 0.12:     # a raw byte mutation
        data, note = _byte_mutation(rng, data)
        notes.append(note)
    return data, notes


def _byte_mutation(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    r = rng.random()
    pos = rng.randint(0, len(data))
    if r < 0.55:
        b = rng.choice(RAW_BYTES)
        return data[:pos] + b + data[pos:], f"inserted bytes {b[:8]!r} at byte {pos}"
    if r < 0.7:
        return data[:pos], f"truncated at byte {pos}"
    if r < 0.8:
        return b"\xef\xbb\xbf" + data, "a UTF-8 byte order mark first"
    if r < 0.88:
        return data.replace(b"\n", b"\r\n"), "CRLF line ends"
    if r < 0.94:
        return data.replace(b"\n", b"\r"), "CR line ends"
    return data.decode("utf-8", "replace").encode("utf-16"), "UTF-16"


def _clear_way(dest: Path, rel: str) -> None:
    """Make room for a file or link at ``dest/rel``: what is there (a file, a link, a
    folder) is taken away, and so is a file or link standing where a folder of its path is
    to be."""
    p = dest
    for part in Path(rel).parts[:-1]:
        p = p / part
        if p.is_symlink() or (p.exists() and not p.is_dir()):
            p.unlink()
    p = dest / rel
    if p.is_symlink() or p.is_file():
        p.unlink()
    elif p.is_dir():
        shutil.rmtree(p)


# ====================================================================== the fuzzer
class Fuzzer:
    """A session: a snapshot of the repository's specs and examples, a work folder,
    a runner, the base state files, and the generators."""

    def __init__(self, runner=None, keep: bool = False):
        self.tmp = Path(tempfile.mkdtemp(prefix="rulewright-fuzz-"))
        self.keep = keep
        self.snapshot = self.tmp / "snapshot"
        self.snapshot.mkdir()
        shutil.copytree(ROOT / "spec", self.snapshot / "spec")
        shutil.copytree(ROOT / "examples", self.snapshot / "examples")
        (self.snapshot / "tiny").mkdir()
        (self.snapshot / "tiny" / "tiny.rules").write_text(TINY)
        (self.snapshot / "tiny" / "start.grid").write_text(TINY_GRID)
        self.work = self.tmp / "work"            # one fixed folder: the parse cache finds the unchanged files
        self.runner = runner or make_runner()
        self.has_root = self._probe_root()
        self._states: dict[tuple[str, int], bytes] = {}
        self._fingerprint_cache: dict = {}
        self.generators: dict[str, Callable[[random.Random, int], Case]] = {
            "spec": self.gen_spec, "variant": self.gen_variant, "csv": self.gen_csv,
            "state": self.gen_state, "grid": self.gen_grid, "cmdline": self.gen_cmdline,
            "resume": self.gen_resume, "choices": self.gen_choices, "po": self.gen_po, "docs": self.gen_docs,
            "links": self.gen_links}

    def close(self):
        self.runner.close()
        if not self.keep:
            shutil.rmtree(self.tmp, ignore_errors=True)

    def _probe_root(self) -> bool:
        """Whether the command line takes ``--root FOLDER`` (the folders a spec may
        read from besides the tree of the paths named)."""
        case = Case("probe", 0, [], trees=["tiny"])
        self.materialize(case, self.work)
        return self.runner.run(["check", TINY_SPEC, "--root", "tiny"], self.work, BOUND).code == 0

    def _root(self, rng: random.Random, p: float) -> list[str]:
        return ["--root", "."] if self.has_root and rng.random() < p else []

    def _without_variants(self, spec: str) -> list[str]:
        """The files of a spec folder but its variants (under the rule that a spec reads
        inside the tree of the paths named, a copy's variants may not reach their base)."""
        return sorted(str(p.relative_to(self.snapshot)) for p in (self.snapshot / spec).iterdir() if p.is_file())

    # ------------------------------------------------------------ running
    def case(self, category: str, seed: int) -> Case:
        case = self.generators[category](random.Random(seed), seed)
        case.category, case.seed = category, seed
        return case

    def materialize(self, case: Case, dest: Path):
        if dest.exists():
            shutil.rmtree(dest)
        dest.mkdir(parents=True)
        for tree in case.trees:
            src = self.snapshot / tree
            if src.is_dir():
                shutil.copytree(src, dest / tree, dirs_exist_ok=True)
            else:
                (dest / tree).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(src, dest / tree)
        for rel, data in case.files.items():
            p = dest / rel
            _clear_way(dest, rel)
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_bytes(data)
        for rel, target in case.links.items():
            p = dest / rel
            _clear_way(dest, rel)
            p.parent.mkdir(parents=True, exist_ok=True)
            if target.startswith("hard:"):
                os.link(dest / target[5:], p)
            else:
                os.symlink(target.replace("{work}", str(dest.resolve())), p)

    def execute(self, case: Case) -> list[tuple[Run, Outcome, str | None]]:
        """Run the case's commands in a fresh work folder: (run, outcome, failure or None).
        A run's ``check`` looks at the folder after it (here, in this process)."""
        self.materialize(case, self.work)
        results = []
        first_ok = None
        for run in case.runs:
            if run.only_if_ok and not first_ok:
                continue
            before = getattr(run.check, "before", None)
            if before is not None:
                before(self.work)
            outcome = self.runner.run(run.argv, self.work, run.timeout, run.stdin)
            if first_ok is None:
                first_ok = outcome.code == 0 and not outcome.hung
            reason = failure_of(outcome, run)
            if reason is None and run.check is not None:
                reason = run.check(self.work)
            results.append((run, outcome, reason))
        return results

    def run_one(self, category: str, seed: int):
        """(case, results); a base state that cannot be made is a failure of its own command."""
        try:
            case = self.case(category, seed)
        except BaseStateError as exc:
            case = Case(category, seed, [Run(exc.argv)], trees=["spec", "tiny"], what=["making a base state"])
            return case, [(case.runs[0], exc.outcome, failure_of(exc.outcome))]
        return case, self.execute(case)

    # ------------------------------------------------------------ base state files
    def base_state(self, name: str, seed: int) -> bytes:
        key = (name, seed)
        if key not in self._states:
            spec, options, stop, _ = BASE_STATES[name]
            argv = ["play", spec, *options, "--seed", str(seed), "--stop-at", stop, "--save-state", "base.json"]
            case = Case("state", seed, [Run(argv)], trees=["spec", "tiny"])
            self.materialize(case, self.work)
            outcome = self.runner.run(argv, self.work, BOUND)
            path = self.work / "base.json"
            if failure_of(outcome) or outcome.code != 0 or not path.exists():
                raise BaseStateError(argv, outcome)
            self._states[key] = path.read_bytes()
        return self._states[key]

    # ------------------------------------------------------------ (a) spec token mutations
    def _spec_files(self, spec: str) -> list[str]:
        base = self.snapshot / spec
        if base.is_file():
            return [spec]
        return sorted(str(p.relative_to(self.snapshot)) for p in base.glob("*.rules"))

    def gen_spec(self, rng: random.Random, seed: int) -> Case:
        spec = rng.choices([TINY_SPEC, SAVANNA, DARWIN], weights=[4, 4, 2])[0]
        files = self._spec_files(spec)
        trees = ["tiny"] if spec == TINY_SPEC else [spec]
        texts = {f: (self.snapshot / f).read_text(encoding="utf-8") for f in files}
        out: dict[str, bytes] = {}
        what = []
        for target in rng.sample(files, 1 if rng.random() < 0.85 or len(files) == 1 else 2):
            data, notes = mutate_rules(rng, texts[target], others=[t for f, t in texts.items() if f != target],
                                       gentle=rng.random() < 0.65)
            out[target] = data
            what += [f"{target}: {n}" for n in notes]
        root = []
        if spec != TINY_SPEC:
            if rng.random() < 0.85:                  # its variants are the variant category's: usually left out
                trees = self._without_variants(spec)
            else:                                    # a copy's variants reach their base with --root
                root = self._root(rng, 0.8)
        runs = [Run(["check", spec] + root),
                Run(["graph", spec] + (["--format", rng.choice(["dot", "json"])] if rng.random() < 0.7 else [])),
                Run(["dump", spec] + (["--stage", rng.choice(["ast", "python"])] if rng.random() < 0.8 else []))]
        rng.shuffle(runs)
        runs.sort(key=lambda r: r.argv[0] != "check")          # check first: the others follow its verdict
        players = {TINY_SPEC: ["2", "3"], SAVANNA: ["3", "4"], DARWIN: ["3", "4"]}[spec]
        runs.append(Run(["play", spec, "--players", rng.choice(players), "--seed", str(seed)] + root, only_if_ok=True))
        # when it still compiles, the solver meets the changed rules too, and the docs
        if spec == TINY_SPEC:
            trees.append("tiny/start.grid")
            runs.append(Run(["query", spec, "best-spot", "--state", "tiny/start.grid", "--card",
                             rng.choice(["goat", "rock", "grass"]), "--time-limit", "3"], only_if_ok=True))
        elif spec == SAVANNA:
            trees.append("examples")
            runs.append(Run(["score", spec, "examples/margot.grid"] + root, only_if_ok=True))
            q = rng.random()
            if q < 0.5:
                runs.append(Run(["query", spec, "best-placement", "--state", "examples/partial.grid", "--card",
                                 rng.choice(SAVANNA_CARDS), "--time-limit", "1"] + root, only_if_ok=True))
            elif q < 0.8:
                out["position.json"] = self.base_state("savanna", 1)
                runs.append(Run(["query", spec, "best-pick", "--state", "position.json", "--player", "p2",
                                 "--time-limit", "3"] + root, only_if_ok=True))
            else:
                runs.append(Run(["query", spec, "best-arrangement", "--cards", "examples/margot.cards",
                                 "--time-limit", "1"] + root, only_if_ok=True))
        else:
            out["position.json"] = self.base_state("darwin", 1)
            q = rng.choice(["best-move", "best-move", "explain", "best-create"])
            runs.append(Run(["query", spec, q, "--state", "position.json", "--player", "p1", "--time-limit", "3"]
                            + (["--species", "1"] if q == "explain" else []) + root, only_if_ok=True))
        if rng.random() < 0.2:
            runs.append(Run(["docs", spec, "--out", "pages"] + root, only_if_ok=True))
        return Case("spec", seed, runs, trees=trees, files=out, what=what)

    # ------------------------------------------------------------ (b) variants
    def _variant_files(self) -> list[str]:
        found = sorted(str(p.relative_to(self.snapshot)) for p in (self.snapshot / "spec" / "house_rules").glob("*.rules"))
        for spec in (SAVANNA, DARWIN):
            found += sorted(str(p.relative_to(self.snapshot)) for p in (self.snapshot / spec / "variants").glob("*.rules"))
        return found

    def gen_variant(self, rng: random.Random, seed: int) -> Case:
        target = rng.choice(self._variant_files())
        stem = Path(target).stem
        base = DARWIN if ("darwin" in stem or target.startswith(DARWIN)) else SAVANNA
        text = (self.snapshot / target).read_text(encoding="utf-8")
        self_name = Path(target).name
        extends = ['""', '"."', '".."', '"../.."', '"/"', '"../nope"', '"../ecosystem_savanna/game.rules"',
                   '"../darwins_choice/animal_cards.csv"', '"../house_rules"', f'"{self_name}"', f'"./{self_name}"',
                   '"../ecosystem_savanna/variants/solo.rules"', '"../darwins_choice/variants/kids.rules"',
                   '"../darwins_choice"', '"../ecosystem_savanna"', '"{0}"', '"' + "../" * 60 + '"', '"/dev/null"',
                   '"../house_rules/savanna_rhinos.rules"', '"../house_rules/darwin_one_migration.rules"',
                   '"two_player.rules"', '"variants"', '"\\u00e9"', '"' + "x" * 5000 + '"', '"."']
        common = ["remove def nope", "remove game x", "remove state", "game x \"X\"", "variant v2 \"V2\" extends \"..\"",
                  "override def nope = 1", "add def nope = 1 // 0", "add check c1: 1 == 2 else \"{0} {fors}\"",
                  "add invariant i1: 1 // 0 == 0 else \"x\"", "remove step nope.nope", "add step nope.x = 1",
                  "override switch nope = x", "add row nope: x | 1", "remove row nope.x", "add field nope.x: int = 0"]
        if base == SAVANNA:
            specific = ["override param hand_size = 0", "override param hand_size = -1", f"override param hand_size = {HUGE}",
                        "override param max_players = 0", "override param grid_rows = 0", "override param grid_columns = 1000",
                        "remove def box", "remove scoring score", "remove mode standard", "remove step score.lion",
                        "remove row card.water", "remove row card.lion", "override row card.lion: count = -4",
                        f"override row card.lion: count = {HUGE}", "override row card.lion: nope = 1",
                        'override row card.lion: count = "x"', 'add row card: rhino | animal | 6 | "R"',
                        'add row card: lion | animal | 1 | "dup"', 'add row card: zz | animal | -6 | "{0}"',
                        "add row card: zz | animal", "add step score.extra after nope = 1",
                        "add step score.extra before water = 1 // 0",
                        "add step score.extra = sum(i for i in 1..80000000000000)",
                        "override switch hyena_range = diagonal", "override switch hyena_range = 5",
                        "override step draft_round.pass_hands { pass hand to left }",
                        f"override step score.lion = -{HUGE}", "add def box = []",
                        "override def box = [k for k in card for i in 1..80000000000000]",
                        "add invariant i2 for k in card: 1 // 0 == 0 else \"{k}\"",
                        "remove invariant cards_accounted_for", "remove query best_pick", "remove relation adjacent",
                        "override relation adjacent = offsets((0, 0))", "override grid ecosystem: 0 by 0 of card",
                        "override step draft_round.pick_and_place { do base() do base() }",
                        "add field card.extra: int = 0", "remove checkpoint pick", "remove procedure draft_round"]
        else:
            specific = ["override param eras = 0", "override param eras = 99", f"override param eras = {HUGE}",
                        "override param hand_size = -1", "override param food_units = 0", "remove row event.flood",
                        "override row animal_card.bongo_head: copies = 0", "add field species.migrations: int = 0",
                        "add field species.id: int = 0", "add field species.extra: int = 1 // 0",
                        "remove step evaluation.competitive_strength",
                        "override step transition.replenish_hands { do base() do base() }",
                        "remove invariant species_in_a_biome", "remove table biome", "remove record species",
                        "remove query best_move", "override switch main_actions = per_nothing",
                        "override rule migration_ok(s: species, c: continent) = base(s, c, c)",
                        'add row event: drought | permanent', "remove row biome.savanna",
                        f"override row biome.savanna: plants = {HUGE}", "override row biome.savanna: plants = -5",
                        "add step evaluation.extra after nope { }", "remove enum diet", "remove mode standard"]
        lines = specific * 4 + common
        toks_text = text
        what = []
        r = rng.random()
        if r < 0.15:                                 # the extends path
            new = rng.choice(extends)
            toks_text = re.sub(r'extends\s+"[^"\n]*"', lambda m: "extends " + new, text, count=1)
            what.append(f"extends -> {new[:50]}")
            if rng.random() < 0.5:
                data, notes = mutate_rules(rng, toks_text, extra_lines=lines, gentle=rng.random() < 0.5)
                what += notes
            else:
                data = toks_text.encode("utf-8")
        elif r < 0.55:                               # variant items
            file_lines = text.split("\n")
            header = next((i for i, ln in enumerate(file_lines) if re.search(r'extends\s+"', ln)), 0) + 1
            for _ in range(rng.choice([1, 1, 1, 2, 3])):
                # between two definitions (a blank line) after the variant line, at the end, now and then anywhere
                gaps = [i for i, ln in enumerate(file_lines) if not ln.strip() and i >= header] + [len(file_lines)]
                k = rng.choice(gaps) if rng.random() < 0.85 else rng.randint(0, len(file_lines))
                line = rng.choice(lines)
                file_lines.insert(k, line)
                what.append(f"inserted line {k + 1}: {line[:70]}")
            data = "\n".join(file_lines).encode("utf-8")
        else:
            data, notes = mutate_rules(rng, text, extra_lines=lines, gentle=rng.random() < 0.6)
            what += notes
        trees = [base]
        if target.startswith("spec/house_rules"):
            trees.append(target)
            if rng.random() < 0.2:                   # a house rule extending another one
                trees.append("spec/house_rules")
        root = self._root(rng, 0.85)
        runs = [Run(["check", target] + root)]
        runs.append(Run(["diff", base, target] + (["--json"] if rng.random() < 0.4 else []) + root))
        if rng.random() < 0.2:
            runs.append(Run(["check", base, "--variant", target] + root))
        players = [] if stem in OWN_MODE_VARIANTS else ["--players", rng.choice(["3", "4"])]
        if rng.random() < 0.5:
            play = ["play", base, "--variant", target] + players + ["--seed", str(seed)] + root
        else:
            play = ["play", target] + players + ["--seed", str(seed)] + root
        runs.append(Run(play))
        if base == SAVANNA and stem not in OWN_MODE_VARIANTS:
            trees.append("examples")
            runs.append(Run(["query", base, "--variant", target, "best-placement", "--state", "examples/partial.grid",
                             "--card", rng.choice(SAVANNA_CARDS), "--time-limit", "1"] + root, only_if_ok=True))
        elif base == DARWIN and stem not in OWN_MODE_VARIANTS:
            files_extra = {"position.json": self.base_state("darwin", 1)}
            runs.append(Run(["query", base, "--variant", target, "best-move", "--state", "position.json",
                             "--player", "p1", "--time-limit", "3"] + root, only_if_ok=True))
        files = {target: data}
        if base == DARWIN and stem not in OWN_MODE_VARIANTS:
            files.update(files_extra)
        return Case("variant", seed, runs, trees=trees, files=files, what=what)

    # ------------------------------------------------------------ (c) CSV tables
    def gen_csv(self, rng: random.Random, seed: int) -> Case:
        which = "biomes.csv" if rng.random() < 0.2 else "animal_cards.csv"
        raw = (self.snapshot / DARWIN / which).read_text(encoding="utf-8")
        rows = list(csv.reader(io.StringIO(raw)))
        header, body = rows[0], rows[1:]
        what = []
        cell_values = ["", " ", "-1", "0", HUGE, TOO_MANY_DIGITS, "1.5", "1e3", "NaN", "inf", "abc", '"', '""',
                       "{0}", "{fors}", "\\", "\u00e9", "\ud800", "none", "head", "small", "large", "-",
                       " ".join(["running"] * rng.choice([10, 1000])), "x" * 100_000, "\n", "a,b", "TRUE",
                       "Bongo_Head", "1_0", "0x10", "\u0663", "-0", "climbin", "front_legs front_legs",
                       "tail_site tail_site", "wing_site", "running\tflying", "  running  ", "\x00", "p1", "p3",
                       "running / flying", "running/flying", "/", "//", "cold_resistance heat_resistance"]
        by_column = {"part": ["head", "body", "legs", "double_legs", "wing", "tail"], "size": ["small", "large"],
                     "diet": ["carnivore", "herbivore", "none", "omnivore"], "hearts": ["0", "1", "2", "99", "-3"],
                     "strength": ["0", "3", "-1", HUGE], "special": ["digging", "none", "poisonous"],
                     "copies": ["1", "2", "0", "-1"], "plants": ["0", "-1", HUGE], "meat": ["0", "-1", "1000"],
                     "points": ["0", "2", "3", "-2"]}

        def col(name):
            return header.index(name) if name in header else rng.randrange(len(header))

        gentle = rng.random() < 0.5           # values a check may let through: the game meets them
        abilities = ["climbing", "cold_resistance", "flying", "heat_resistance", "running", "swimming"]
        sites = ["front_legs", "back_legs", "wing_site", "tail_site"]
        for _ in range(rng.randint(1, 3) if gentle else 0):
            row = rng.choice(body)
            r = rng.random()
            if r < 0.3 and len(body) > 1:
                other = rng.choice(body)
                j = col(rng.choice(["hearts", "strength", "abilities", "diet", "special", "name", "central",
                                    "requires", "forbids", "plants", "meat", "points", "pair"]))
                if j < len(row) and j < len(other):
                    row[j], other[j] = other[j], row[j]
                    what.append(f"swapped {header[j]} of {row[0]!r} and {other[0]!r}")
                continue
            j = col(rng.choice(["hearts", "strength", "abilities", "sites", "diet", "name", "plants", "meat",
                                "points", "central", "requires", "forbids", "special"]))
            if j >= len(row):
                continue
            name = header[j]
            if name in ("hearts", "strength", "plants", "meat", "points"):
                v = rng.choice(["0", "1", "2", "3", "5", "9", "99", HUGE, "-1", "1000000"])
            elif name in ("abilities", "central", "forbids"):
                v = " ".join(rng.choice(abilities) for _ in range(rng.choice([0, 1, 2, 4, 12]))) or "-"
            elif name == "requires":
                v = " / ".join(" ".join(rng.sample(abilities, rng.randint(1, 3))) for _ in range(rng.randint(1, 4)))
            elif name == "sites":
                v = " ".join(rng.sample(sites, rng.randint(0, 4))) or "-"
            elif name == "diet":
                v = rng.choice(["carnivore", "herbivore", "none", "omnivore"])
            elif name == "special":
                v = rng.choice(["digging", "none", "poisonous"])
            else:
                v = rng.choice(["zz_new_card", "a", "x_" + str(rng.randint(0, 999)), "bongo_head", "savanna"])
            what.append(f"{row[0]!r} {name} = {v[:40]!r}")
            row[j] = v
        for _ in range(0 if gentle else rng.randint(1, 4)):
            r = rng.random()
            if r < 0.3 and body:                              # one cell
                row = rng.choice(body)
                j = rng.randrange(len(row))
                name = header[j] if j < len(header) else "?"
                v = rng.choice(by_column.get(name, []) + cell_values) if rng.random() < 0.6 else rng.choice(cell_values)
                what.append(f"row {body.index(row) + 2} {name} = {v[:30]!r}")
                row[j] = v
            elif r < 0.42 and len(body) > 1:                  # swap a column's values of two rows (counts kept)
                a, b = rng.sample(range(len(body)), 2)
                j = col(rng.choice(["hearts", "strength", "abilities", "diet", "sites", "name", "special", "requires",
                                    "central", "forbids", "plants"]))
                if j < len(body[a]) and j < len(body[b]):
                    body[a][j], body[b][j] = body[b][j], body[a][j]
                    what.append(f"swapped {header[j]} of rows {a + 2} and {b + 2}")
            elif r < 0.5:                                     # a column
                j = rng.randrange(len(header))
                k = rng.random()
                if k < 0.35:
                    what.append(f"column {header[j]} removed")
                    for row in [header] + body:
                        if j < len(row):
                            del row[j]
                elif k < 0.55:
                    what.append(f"column {header[j]} removed from the header only")
                    del header[j]
                elif k < 0.75:
                    what.append("a column added")
                    header.append(rng.choice(["extra", "name", "", "copies"]))
                    for row in body:
                        row.append(rng.choice(cell_values[:12]))
                else:
                    i2 = rng.randrange(len(header))
                    what.append(f"header {header[j]} <-> {header[i2]}")
                    header[j], header[i2] = header[i2], header[j]
            elif r < 0.58:                                    # the header
                k = rng.random()
                if k < 0.3:
                    what.append("no header")
                    header = list(body[0]) if body else []
                    body = body[1:]
                elif k < 0.6:
                    what.append("header twice")
                    body.insert(rng.randrange(len(body) + 1), list(header))
                else:
                    j = rng.randrange(len(header))
                    new = rng.choice(["Name", "name ", "", "NAME", "n\u00e4me", "{0}", header[(j + 1) % len(header)]])
                    what.append(f"header {header[j]!r} -> {new!r}")
                    header[j] = new
            elif r < 0.7 and body:                            # rows
                k = rng.random()
                if k < 0.3:
                    n = rng.randint(1, 20)
                    what.append(f"{n} rows removed")
                    for _ in range(min(n, len(body))):
                        del body[rng.randrange(len(body))]
                elif k < 0.55:
                    row = rng.choice(body)
                    n = rng.choice([1, 2, 10])
                    what.append(f"row {row[0]!r} {n} more times")
                    body += [list(row) for _ in range(n)]
                elif k < 0.7:
                    n = rng.choice([5_000, 20_000, 50_000])
                    what.append(f"{n} rows")
                    body = [list(rng.choice(body)) for _ in range(n)]
                elif k < 0.85:
                    row = rng.choice(body)
                    n = rng.randint(0, len(row) + 3)
                    what.append(f"row {row[0]!r} cut to {n} cells")
                    del row[n:]
                else:
                    rng.shuffle(body)
                    what.append("rows shuffled")
            elif r < 0.8 and body:                            # a name
                row = rng.choice(body)
                new = rng.choice(["", row[0].upper(), row[0] + " ", "x" * 1000, "\u00e9l\u00e9phant", "a-b", "1abc",
                                  body[0][0], "{0}", "none", "lambda", "class", "__class__", "name", "true"])
                what.append(f"name {row[0]!r} -> {new!r}")
                row[0] = new
            else:                                             # count-keeping changes a game can still be played with
                row = rng.choice(body)
                j = col(rng.choice(["hearts", "strength", "abilities", "sites", "plants", "meat", "points", "requires"]))
                v = rng.choice(["0", "5", "-2", HUGE, "99", "climbing " * 30, "-", "front_legs back_legs wing_site tail_site",
                                "running/flying/swimming", "", "running"])
                if j < len(row):
                    what.append(f"row {body.index(row) + 2} {header[j] if j < len(header) else '?'} = {v[:30]!r}")
                    row[j] = v
        buf = io.StringIO()
        quoting = rng.choice([csv.QUOTE_MINIMAL] * 4 + [csv.QUOTE_ALL, csv.QUOTE_NONNUMERIC])
        writer = csv.writer(buf, quoting=quoting, lineterminator="\n")
        for row in [header] + body:
            try:
                writer.writerow(row)
            except csv.Error:
                writer.writerow([c.replace("\n", " ") for c in row])
        data = buf.getvalue().encode("utf-8", "surrogatepass")
        if not gentle and rng.random() < 0.3:
            r = rng.random()
            if r < 0.5:
                data, note = _byte_mutation(rng, data)
            elif r < 0.6:
                data, note = data.decode("utf-8", "replace").encode("latin-1", "replace"), "Latin-1"
            elif r < 0.7:
                data, note = b"", "empty file"
            elif r < 0.8:
                data, note = data.replace(b",", b";"), "semicolons"
            elif r < 0.9:
                pos = rng.randint(0, len(data))
                data, note = data[:pos] + b'"' + data[pos:], f"a lone quote at byte {pos}"
            else:
                data, note = data.split(b"\n")[0] + b"\n", "header only"
            what.append(note)
        name = "biomes.csv" if which == "biomes.csv" else "cards.csv"
        files = {name: data}
        inside = rng.random() < 0.12                          # the spec's own table
        if inside:
            files = {f"{DARWIN}/{which}": data}
            what.append(f"as the spec's own {which}")
        if which == "biomes.csv":
            opt = [] if inside else ["--table", f"biome={name}"]
        else:
            opt = [] if inside else [rng.choice(["--cards", "--cards", "--card-table"]), name]
        runs = [Run(["check", DARWIN] + opt)]
        play = Run(["play", DARWIN, "--players", rng.choice(["3", "4", "5", "6"]), "--seed", str(seed)] + opt,
                   only_if_ok=rng.random() < 0.9)
        runs.append(play)
        if rng.random() < 0.25:                               # a position read with the table
            state = self.base_state("darwin", rng.choice(BASE_STATES["darwin"][3]))
            files["position.json"] = state
            q = opt if opt[:1] != ["--cards"] else ["--card-table", name]
            runs.append(Run(["query", DARWIN, "best-move", "--state", "position.json", "--player", "p2",
                             "--time-limit", "2"] + q, only_if_ok=True))
        return Case("csv", seed, runs, trees=self._without_variants(DARWIN), files=files, what=what)

    # ------------------------------------------------------------ (d) state files
    def gen_state(self, rng: random.Random, seed: int) -> Case:
        name = rng.choices(list(BASE_STATES), weights=[8, 8, 2, 2, 2, 2, 1])[0]
        spec, options, _, seeds = BASE_STATES[name]
        variant = options if "--variant" in options and rng.random() < 0.3 else []
        raw = self.base_state(name, rng.choice(seeds))
        holder = [json.loads(raw)]
        strings = sorted({s for s in _walk_strings(holder[0])})
        what = []
        gentle = rng.random() < 0.5
        settings = DARWIN_SETTINGS if spec == DARWIN else SAVANNA_SETTINGS
        for _ in range(rng.choice([1, 1, 2, 3]) if gentle else 1 + min(int(rng.expovariate(0.8)), 5)):
            note = _gentle_json(rng, holder, settings) if gentle else _mutate_json(rng, holder, strings)
            if note:
                what.append(note)
        data = _dumps(holder[0], rng.random() < 0.8).encode("utf-8", "surrogatepass")
        if not gentle and rng.random() < 0.2:
            r = rng.random()
            if r < 0.5:
                data, note = _byte_mutation(rng, data)
            elif r < 0.6:
                m = list(re.finditer(rb"-?\d+", data))
                if m:
                    x = rng.choice(m)
                    v = rng.choice([b"1e999", b"-1e999", b"1E400", b"NaN", b"Infinity", b"-Infinity",
                                    TOO_MANY_DIGITS.encode(), HUGE.encode(), b"1.0", b"-0", b"0.5", b"1e2"])
                    data, note = data[:x.start()] + v + data[x.end():], f"number at byte {x.start()} -> {v[:20]!r}"
                else:
                    note = "no number"
            elif r < 0.7:
                data, note = rng.choice([b"[]", b"null", b'""', b"0", b"{}", b"", b" ", b"{", b'{"format": 1}',
                                         b"[" * 100_000 + b"]" * 100_000]), "another document"
            elif r < 0.8:
                pos = data.rfind(b"}")
                data, note = data[:pos] + b",}" + data[pos + 1:], "a trailing comma"
            elif r < 0.9:
                data, note = data.replace(b'"', b"'", 4), "single quotes"
            else:
                data, note = data + b"\n// comment\n" + data, "two documents"
            what.append(note)
        runs = []
        if spec.startswith(SAVANNA):
            base = spec
            runs.append(Run(["show", base, "--state", "state.json"] + variant + (["--json"] if rng.random() < 0.3 else [])))
            runs.append(Run(["query", base, "best-pick", "--state", "state.json", "--player",
                             rng.choice(["p2"] * 6 + ["p1", "p3", "p4", "neutral", "jhay", "1", "Player 2"]),
                             "--time-limit", "2"] + variant + (["--json"] if rng.random() < 0.3 else [])))
        elif spec.startswith(DARWIN):
            base = spec
            runs.append(Run(["show", base, "--state", "state.json"] + variant + (["--json"] if rng.random() < 0.3 else [])))
            q = rng.choices(DARWIN_QUERIES, weights=[1, 1, 1, 1, 4, 2])[0]
            inputs = {"can-place": ["--cards", rng.choice(["bongo_head,chimpanzee_body,golden_eagle_wing",
                                                          "giraffe_head,orca_body,tuna_tail", "x", ""]),
                                    "--biome", rng.choice(["tundra", "savanna", "ocean", "nope"])],
                      "best-mutation": ["--species", rng.choice(["1", "2", "0", "-1", "3"])],
                      "best-migration": ["--species", rng.choice(["1", "2", "0", "3"])],
                      "explain": ["--species", rng.choice(["1", "2", "0", "3"])],
                      "best-create": [], "best-move": []}[q]
            if q in ("best-create", "best-move") and rng.random() < 0.3:
                inputs = inputs + ["--allow-trade"]
            runs.append(Run(["query", base, q, "--state", "state.json", "--player",
                             rng.choice(["p2"] * 6 + ["p1", "p3", "p4", "p5", "0", "Player 1"]),
                             "--time-limit", "2"] + inputs + variant + (["--json"] if rng.random() < 0.3 else [])))
        else:
            runs.append(Run(["show", TINY_SPEC, "--state", "state.json"] + (["--json"] if rng.random() < 0.3 else [])))
        trees = ["tiny"] if spec == TINY_SPEC else [spec]
        return Case("state", seed, runs, trees=trees, files={"state.json": data}, what=[f"base {name}"] + what)

    # ------------------------------------------------------------ (e) grid files
    def gen_grid(self, rng: random.Random, seed: int) -> Case:
        partial = rng.random() < 0.35
        src = (self.snapshot / "examples" / ("partial.grid" if partial else "margot.grid")).read_text()
        lines = src.split("\n")
        what = []
        names = SAVANNA_CARDS + ["."]
        odd = ["Lion", "LION", "lions", "lio", "rhino", "z\u00e8bre", "{0}", "#", "x" * 100_000, "..", "-", "none",
               "null", "\u00a0", "lion\u200b", "\ud800", "0", "-1", HUGE, "\t", "\\", '"lion"', "lion,zebra", "_"]
        gentle = rng.random() < 0.5              # still a grid of card names: the scoring meets it
        if gentle:
            grid = [ln.split() for ln in lines if ln.strip() and not ln.startswith("#")]
            for _ in range(rng.randint(1, 8)):
                i, j = rng.randrange(len(grid)), rng.randrange(len(grid[0]))
                if rng.random() < 0.3:
                    i2, j2 = rng.randrange(len(grid)), rng.randrange(len(grid[0]))
                    grid[i][j], grid[i2][j2] = grid[i2][j2], grid[i][j]
                    what.append(f"swapped ({i}, {j}) and ({i2}, {j2})")
                else:
                    grid[i][j] = rng.choice(SAVANNA_CARDS + ([".", "."] if partial else []))
                    what.append(f"({i}, {j}) -> {grid[i][j]}")
            if partial and rng.random() < 0.3:       # a nearly empty grid
                keep = rng.randint(0, 3)
                cells = [(i, j) for i in range(len(grid)) for j in range(len(grid[0]))]
                rng.shuffle(cells)
                for i, j in cells[keep:]:
                    grid[i][j] = "."
                what.append(f"{keep} card(s) left")
            lines = [" ".join(row) for row in grid]
        for _ in range(0 if gentle else rng.randint(1, 4)):
            cells = [ln.split() for ln in lines]
            rows = [i for i, c in enumerate(cells) if c and not c[0].startswith("#")]
            r = rng.random()
            if r < 0.3 and rows:
                i = rng.choice(rows)
                j = rng.randrange(len(cells[i]))
                new = rng.choice(names) if rng.random() < 0.5 else rng.choice(odd)
                what.append(f"row {i + 1} cell {j + 1} -> {new[:20]!r}")
                cells[i][j] = new
                lines[i] = " ".join(cells[i])
            elif r < 0.42 and rows:
                i = rng.choice(rows)
                k = rng.random()
                if k < 0.3:
                    what.append(f"row {i + 1} removed")
                    del lines[i]
                elif k < 0.6:
                    what.append(f"row {i + 1} twice")
                    lines.insert(i, lines[i])
                else:
                    n = rng.choice([1, 6, 100, 10_000])
                    what.append(f"row {i + 1} with {n} more cells")
                    lines[i] += " " + " ".join(rng.choice(names) for _ in range(n))
            elif r < 0.5 and rows:
                i = rng.choice(rows)
                what.append(f"row {i + 1} with a cell fewer")
                lines[i] = " ".join(cells[i][:-1])
            elif r < 0.58:
                n = rng.choice([5, 100, 1000, 20_000])
                what.append(f"{n} rows")
                lines = [" ".join(rng.choice(names) for _ in range(5)) for _ in range(n)]
            elif r < 0.66:
                what.append("transposed")
                grid = [c for c in cells if c and not c[0].startswith("#")]
                lines = [" ".join(col) for col in zip(*grid)] if grid else []
            elif r < 0.74:
                what.append("comments and blank lines")
                k = rng.randint(0, len(lines))
                lines.insert(k, rng.choice(["", "#", "# x", "   ", "\t", "#" + "x" * 10_000, "  # indented", "."]))
            elif r < 0.8:
                what.append("a very long line")
                lines.insert(rng.randint(0, len(lines)), "lion " * rng.choice([10_000, 200_000]))
            elif r < 0.86:
                what.append("every cell free")
                lines = [" ".join("." for _ in c) if c and not c[0].startswith("#") else ln for c, ln in zip(cells, lines)]
            elif r < 0.92:
                what.append("separators")
                lines = [ln.replace(" ", rng.choice(["\t", ",", "|", ";", "  ", "\u3000", "\u00a0"])) for ln in lines]
            else:
                what.append("empty file")
                lines = []
        data = "\n".join(lines).encode("utf-8", "surrogatepass")
        if not gentle and rng.random() < 0.2:
            data, note = _byte_mutation(rng, data)
            what.append(note)
        files = {"g.grid": data}
        runs = []
        opts = []
        trees = [SAVANNA, "examples"]
        if rng.random() < 0.2:
            opts += ["--set", rng.choice(["hyena_range=manhattan", "cheetah_range=lines", "vulture_range=just_below",
                                          "grid_rows=5", "grid_columns=4", "elephants_below_zero=false"])]
        if rng.random() < 0.15:
            trees.append("spec/house_rules")
            opts += ["--variant", rng.choice(["spec/house_rules/savanna_rhinos.rules",
                                              "spec/house_rules/savanna_wildfire.rules",
                                              "spec/house_rules/savanna_oasis.rules"])]
        grids = ["g.grid"]
        if rng.random() < 0.3:
            grids += rng.sample(["examples/margot.grid", "g.grid", "examples/partial.grid"], rng.randint(1, 2))
        runs.append(Run(["score", SAVANNA, *grids] + opts + (["--json"] if rng.random() < 0.3 else [])))
        if partial or rng.random() < 0.2:
            runs.append(Run(["query", SAVANNA, "best-placement", "--state", "g.grid", "--card",
                             rng.choice(SAVANNA_CARDS + ["rhino", "nope"]), "--time-limit", "3"] + opts))
        if rng.random() < 0.1:
            files["t.grid"] = data
            trees.append("tiny")
            runs.append(Run(["query", TINY_SPEC, "best-spot", "--state", "t.grid", "--card", "goat", "--time-limit", "3"]))
        return Case("grid", seed, runs, trees=trees, files=files, what=what)

    # ------------------------------------------------------------ (f) command lines
    def gen_cmdline(self, rng: random.Random, seed: int) -> Case:
        """A valid command (one of :data:`VALID_COMMANDS`) with 0 to 3 changes: a value
        replaced by an odd one, an option added (``--set NAME=VALUE`` most often),
        taken away or given twice, an unknown option, a stray argument."""
        files = {"savanna.json": self.base_state("savanna", 1), "darwin.json": self.base_state("darwin", 1),
                 "cards.txt": b"lion zebra gazelle\nprairie, water", "empty.txt": b"", "out/.keep": b""}
        trees = ["spec", "examples", "tiny"]
        s = str(seed)
        template = rng.choice(VALID_COMMANDS)
        argv = [a.replace("{seed}", s) for a in template]
        if argv[0] == "query":
            argv += ["--time-limit", "3"]
        if self.has_root and any("house_rules" in a or "/variants/" in a for a in argv) and rng.random() < 0.8:
            argv += ["--root", "."]
        what = [f"from: {' '.join(argv)}"]
        settings = DARWIN_SETTINGS if any("darwin" in a for a in argv[:3]) else SAVANNA_SETTINGS
        n = rng.choices([0, 1, 2, 3], weights=[1, 5, 3, 1])[0]
        for _ in range(n):
            r = rng.random()
            values = [i for i in range(1, len(argv)) if not argv[i].startswith("--")]
            if r < 0.35 and values:                          # a value replaced
                i = rng.choice(values)
                option = argv[i - 1] if argv[i - 1].startswith("--") else None
                pool = OPTION_VALUES.get(option) if option else None
                if pool is None:
                    pool = (CMD_SPECS + BAD_PATHS) if i == 1 or (argv[0] == "diff" and i == 2) else \
                        (GRIDS if argv[0] == "score" else QUERY_NAMES if argv[0] == "query" and i == 2 else PAYLOADS)
                new = rng.choice(pool) if rng.random() < 0.8 else rng.choice(PAYLOADS)
                what.append(f"{option or 'argument ' + str(i)}: {argv[i][:30]!r} -> {new[:40]!r}")
                argv[i] = new
            elif r < 0.65:                                   # --set NAME=VALUE
                if rng.random() < 0.75:
                    k = rng.choice(sorted(settings))
                    v = rng.choice(settings[k] + ["0", "1", "2", "-1", "1000", HUGE]) if rng.random() < 0.7 \
                        else rng.choice(PAYLOADS)
                else:
                    k = rng.choice(["nope", "", " ", "rock_rule", "side", "a=b", "\udcff", "x" * 1000, "HAND_SIZE",
                                    "hand-size", "hand_size ", "{0}"])
                    v = rng.choice(PAYLOADS)
                item = f"{k}={v}" if rng.random() < 0.95 else rng.choice(["novalue", "=", "==", "=1", "hand_size=1=2"])
                argv += ["--set", item]
                what.append(f"--set {item[:50]!r}")
            elif r < 0.8:                                    # an option added
                option = rng.choice(sorted(OPTION_VALUES))
                if option in ("--json", "--allow-trade"):
                    argv.append(option)
                else:
                    argv += [option, rng.choice(OPTION_VALUES[option])]
                what.append(f"added {' '.join(argv[-2:])[:60]!r}")
            elif r < 0.88 and len(argv) > 2:                 # an argument taken away
                i = rng.randrange(1, len(argv))
                if argv[i].startswith("--") and i + 1 < len(argv) and not argv[i + 1].startswith("--"):
                    what.append(f"removed {argv[i]} {argv[i + 1][:30]}")
                    del argv[i:i + 2]
                else:
                    what.append(f"removed {argv[i][:30]!r}")
                    del argv[i]
            elif r < 0.94:                                   # an option given twice
                opts = [i for i in range(1, len(argv)) if argv[i].startswith("--")]
                if opts:
                    i = rng.choice(opts)
                    extra = [argv[i]] + ([argv[i + 1]] if i + 1 < len(argv) and not argv[i + 1].startswith("--") else [])
                    if len(extra) == 2 and rng.random() < 0.5 and argv[i] in OPTION_VALUES:
                        extra[1] = rng.choice(OPTION_VALUES[argv[i]])
                    argv += extra
                    what.append(f"given twice: {' '.join(extra)[:50]}")
            else:                                            # unknown options, stray words
                thing = rng.choice(["--nope", "-x", "--", "-", "--=", "---json", "--json=1", "--set", "stray", "-h",
                                    "--help", "--state", "--time-limit", "--seed=1", "--players=3", "--root"])
                argv.insert(rng.randint(1, len(argv)), thing)
                what.append(f"inserted {thing!r}")
        slow = "solver" in argv or (argv[0] == "simulate") or \
            (argv[0] == "query" and any(q in argv for q in ("max-score", "best-arrangement")))
        if rng.random() < 0.02:
            argv[rng.randrange(1, len(argv))] = "/dev/zero" if len(argv) > 1 else argv[0]
        return Case("cmdline", seed, [Run(argv, slow_ok=slow)], trees=trees, files=files, what=what)

    # ------------------------------------------------------------ bases of the newer categories
    def _made(self, argv: list[str], path: str, trees=("spec", "tiny"), files=None) -> bytes:
        """The bytes of the file ``path`` a command writes in a fresh work folder (a base
        input); a command that fails is a ``BaseStateError``."""
        case = Case("base", 0, [Run(argv)], trees=list(trees), files=dict(files or {}))
        self.materialize(case, self.work)
        outcome = self.runner.run(argv, self.work, BOUND)
        made = self.work / path
        if failure_of(outcome) or outcome.code != 0 or not made.is_file():
            raise BaseStateError(argv, outcome)
        return made.read_bytes()

    def began_state(self, name: str) -> bytes:
        """A saved game that began at a position written by hand: the base state
        ``name`` (seed 1) without its resume entry, played on from there
        (``play --from``) and saved at a later checkpoint (its resume entry has ``from``)."""
        key = ("began:" + name, 1)
        if key not in self._states:
            spec, options, _, _ = BASE_STATES[name]
            seed, stop = BEGAN_FROM[name]
            hand = json.loads(self.base_state(name, 1))
            hand.pop("resume", None)
            argv = ["play", spec, "--from", "hand.json", "--seed", str(seed), "--stop-at", stop,
                    "--save-state", "base.json"]
            self._states[key] = self._made(argv, "base.json", files={"hand.json": json.dumps(hand).encode()})
        return self._states[key]

    def base_log(self, name: str, seed: int) -> bytes:
        """A game's log (``play --log``): the choices file of the `choices` category."""
        key = ("log:" + name, seed)
        if key not in self._states:
            spec, options, stop, _ = LOG_BASES[name]
            argv = ["play", spec, *options, "--seed", str(seed)] + \
                (["--stop-at", stop, "--save-state", "base.json"] if stop else []) + ["--log", "base.jsonl"]
            self._states[key] = self._made(argv, "base.jsonl")
        return self._states[key]

    def resumed_log(self, name: str) -> bytes:
        """The log of the saved game ``name`` (seed 1) played on from its position with
        seed 3 (``play --from --seed 3 --log``): its choices after the ``resume`` line are
        those of that game, so that ``--from ... --seed 3 --choices`` plays them again."""
        key = ("resumed log:" + name, 1)
        if key not in self._states:
            spec = BASE_STATES[name][0]
            self._states[key] = self._made(["play", spec, "--from", "s.json", "--seed", "3", "--log", "base.jsonl"],
                                           "base.jsonl", files={"s.json": self.base_state(name, 1)})
        return self._states[key]

    def tiny_catalogue(self) -> bytes:
        """Tiny's French catalogue: made by ``translations tiny --lang fr``, every text
        then translated (its English and " (fr)", so that its placeholders are kept)."""
        key = ("catalogue:tiny", 0)
        if key not in self._states:
            import polib
            raw = self._made(["translations", "tiny", "--lang", "fr"], "tiny/i18n/fr.po", trees=("tiny",))
            po = polib.pofile(raw.decode("utf-8"), wrapwidth=0)
            for e in po:
                e.msgstr = e.msgid + " (fr)"
            self._states[key] = str(po).encode("utf-8")
        return self._states[key]

    # ------------------------------------------------------------ (g) saved games resumed
    def gen_resume(self, rng: random.Random, seed: int) -> Case:
        """A saved game (``play --stop-at ... --save-state``: a state file with a
        ``resume`` entry) with its resume entry or its position mutated, then ``play
        --from`` (with and without ``--seed``, ``--until``, saving again and resuming
        that), ``show`` and ``simulate --from``."""
        name = rng.choices(list(RESUME_BASES), weights=list(RESUME_BASES.values()))[0]
        spec, options, _, seeds = BASE_STATES[name]
        began = name in BEGAN_FROM and rng.random() < 0.2
        raw = self.began_state(name) if began else self.base_state(name, rng.choice(seeds))
        holder = [json.loads(raw)]
        what = [f"base {name}" + (" (played on from a position written by hand)" if began else "")]
        extra = rng.random()                             # a human seat, choices from a log, settings changed
        n = 0 if rng.random() < (0.5 if extra < 0.3 else 0.08) else rng.choice([1, 1, 1, 1, 1, 1, 2, 2, 2, 3])
        for _ in range(n):
            note = _mutate_resume(rng, holder)
            if note:
                what.append(note)
        data = _dumps(holder[0], rng.random() < 0.5).encode("utf-8", "surrogatepass")
        if rng.random() < 0.04:
            data, note = _byte_mutation(rng, data)
            what.append(note)
        variant = [o for o in options if o != "--players" and not o.isdigit()] if rng.random() < 0.5 else []
        until = UNTIL[spec]
        play = ["play", spec, "--from", "s.json"] + variant
        if rng.random() < 0.25:
            play += ["--seed", rng.choice(["0", "1", "7", str(seed), "-1", str(2 ** 63), HUGE])]
        if rng.random() < 0.25:
            play += [rng.choice(["--until", "--stop-at"]), rng.choice(until)]
        saves = rng.random() < 0.35
        if saves:
            play += ["--save-state", "again.json"]
        if rng.random() < 0.15:
            play += ["--log", "log.jsonl"]
        if rng.random() < 0.15:
            play.append("--json")
        files = {"s.json": data}
        links: dict[str, str] = {}
        r = extra
        human = None
        if r < 0.12:                                     # a human seat, answering from a file (or /dev/null)
            play += ["--seat", ("you" if "solo" in name else rng.choice(["p1", "p2"])) + "=human",
                     "--agent-time-limit", "1"] if rng.random() < 0.8 else ["--agent", "human", "--agent-time-limit", "1"]
            human = _human_case(rng, files, links, what)
        elif r < 0.22 and name in BEGAN_FROM:            # the choices of the rest of the game, from a log
            lines = self.resumed_log(name).split(b"\n")
            for _ in range(rng.choice([0, 1, 1, 2])):
                note = _mutate_log(rng, lines)
                if note:
                    what.append(f"choices: {note}")
            files["choices.jsonl"] = b"\n".join(lines)
            play += ["--choices", "choices.jsonl"] + ([] if "--seed" in play else ["--seed", "3"])
        elif r < 0.3:                                    # settings changed since the game was saved
            settings = DARWIN_SETTINGS if spec == DARWIN else SAVANNA_SETTINGS if spec == SAVANNA else \
                {"rock_rule": ["steep", "flat"], "hand_size": ["1", "4", "9"]}
            k = rng.choice(sorted(settings))
            play += ["--set", f"{k}={rng.choice(settings[k])}"]
        runs = [Run(play, stdin=human, check=Untouched("outside") if "outside/canary.txt" in files else None)]
        if saves and rng.random() < 0.7:                 # the game saved again, resumed again
            again = ["play", spec, "--from", "again.json"] + variant
            if rng.random() < 0.3:
                again += ["--seed", "3"]
            runs.append(Run(again, only_if_ok=True))
        if rng.random() < 0.7:
            runs.append(Run(["show", spec, "--state", "s.json"] + variant + (["--json"] if rng.random() < 0.3 else [])))
        if rng.random() < 0.4:
            sim = ["simulate", spec, "--from", "s.json", "--games", "2"] + variant
            if rng.random() < 0.4:
                sim += ["--seed", rng.choice(["0", "5", str(seed)])]
            runs.append(Run(sim))
        trees = ["tiny"] if spec == TINY_SPEC else [spec]
        return Case("resume", seed, runs, trees=trees, files=files, what=what,
                    links={rel: _link_target(rel, t) for rel, t in links.items()})

    # ------------------------------------------------------------ (h) choices files
    def gen_choices(self, rng: random.Random, seed: int) -> Case:
        """A game's log (``play --log``) mutated as a choices file: lines dropped,
        repeated, swapped, moved; values of other types, nested deep, huge numbers;
        bytes that are not UTF-8, very long lines; then ``play ... --choices FILE``
        with the log's seed (or another one)."""
        name = rng.choices(list(LOG_BASES), weights=LOG_WEIGHTS)[0]
        spec, options, stop, seeds = LOG_BASES[name]
        log_seed = rng.choice(seeds)
        resumed = name in BEGAN_FROM and rng.random() < 0.2     # a game played on from a saved one
        if resumed:
            lines = self.resumed_log(name).split(b"\n")
            log_seed, stop = 3, None
            what = [f"the log of the saved game {name} played on (play --from --seed 3)"]
        else:
            lines = self.base_log(name, log_seed).split(b"\n")
            what = [f"base log {name} seed {log_seed}"]
        if rng.random() < 0.2:                            # the choices only, as a player writes them
            lines = [ln for ln in lines if b'"choose"' in ln and b'"seat": null' not in ln]
            what.append("the choices only")
        with_human = rng.random() < 0.12                 # a human seat after its lines, answering from a file
        n = 0 if rng.random() < (0.5 if with_human else 0.06) else 1 + min(int(rng.expovariate(0.8)), 5)
        for _ in range(n):
            note = _mutate_log(rng, lines)
            if note:
                what.append(note)
        data = b"\n".join(lines)
        if rng.random() < 0.06:
            data, note = _byte_mutation(rng, data)
            what.append(note)
        play_seed = str(log_seed) if rng.random() < 0.85 else rng.choice(["0", "3", str(seed)])
        files = {"choices.jsonl": data}
        links: dict[str, str] = {}
        if rng.random() < 0.04:                          # no regular file
            links["choices.jsonl"] = rng.choice(["/dev/zero", "/dev/null", ".", "none.jsonl", "choices.jsonl"])
            what.append(f"choices.jsonl -> {links['choices.jsonl']}")
        if resumed:
            files["s.json"] = self.base_state(name, 1)
            argv = ["play", spec, "--from", "s.json", "--seed", play_seed, "--choices", "choices.jsonl"]
        else:
            argv = ["play", spec, *options, "--seed", play_seed, "--choices", "choices.jsonl"]
        if rng.random() < 0.15:
            argv.append("--json")
        if rng.random() < 0.15:
            argv += ["--log", "log.jsonl"]
        if stop and rng.random() < 0.5:
            argv += ["--stop-at", stop, "--save-state", "s.json"]
        elif rng.random() < 0.15:
            argv += ["--save-state", "s.json"]
        human = None
        if with_human:
            argv += ["--seat", ("you" if "solo" in name else rng.choice(["p1", "p2"])) + "=human",
                     "--agent-time-limit", "1"]
            human = _human_case(rng, files, links, what)
        runs = [Run(argv, stdin=human, check=Untouched("outside") if "outside/canary.txt" in files else None)]
        if rng.random() < 0.2:
            runs.append(Run(["play", spec, *options, "--seed", rng.choice(["1", "2", "9"]), "--choices",
                             "choices.jsonl"] + (["--json"] if rng.random() < 0.5 else [])))
        trees = ["tiny"] if spec == TINY_SPEC else [spec]
        return Case("choices", seed, runs, trees=trees, files=files, what=what,
                    links={rel: _link_target(rel, t) for rel, t in links.items()})

    # ------------------------------------------------------------ (i) translation catalogues
    def gen_po(self, rng: random.Random, seed: int) -> Case:
        """A spec's translation catalogue (``i18n/LANG.po``, read by polib) mutated:
        broken syntax, another charset declared, bytes that are not UTF-8, huge entries,
        translations holding payloads (HTML and script, control characters,
        placeholders), a msgctxt twice, stale and obsolete entries; or the catalogue a
        symbolic link (to a sibling, to itself, to nothing, to a device, out of the
        allowed folders) or a folder. Then ``docs SPEC --lang LANG`` (its pages checked
        for active content), ``translations SPEC --check``, and ``translations`` on a
        copy of the spec (nothing outside changed; what it wrote read back)."""
        which, lang = rng.choices([("savanna", "fr"), ("savanna", "es"), ("savanna", "zh"), ("tiny", "fr")],
                                  weights=[6, 1, 1, 5])[0]
        if which == "tiny":
            spec_dir, base = "tiny", self.tiny_catalogue()
            own = {"tiny/tiny.rules": TINY.encode(), "tiny/start.grid": TINY_GRID.encode()}
        else:
            spec_dir = SAVANNA
            base = (self.snapshot / SAVANNA / "i18n" / f"{lang}.po").read_bytes()
            own = {str(p.relative_to(self.snapshot)): p.read_bytes()
                   for p in sorted((self.snapshot / SAVANNA).rglob("*")) if p.is_file()}
        po_rel = f"{spec_dir}/i18n/{lang}.po"
        blocks = base.decode("utf-8").split("\n\n")
        what = [po_rel]
        placed = {"link": None, "folder": False, "i18n": None}
        byte_ops = []
        n = 1 + min(int(rng.expovariate(0.9)), 4)
        for _ in range(n):
            op = rng.choices(["syntax", "charset", "payload", "context", "stale", "metadata", "huge", "bytes", "place"],
                             weights=[18, 8, 20, 10, 6, 4, 5, 10, 8])[0]
            if op == "bytes":
                byte_ops.append(rng.random())
                continue
            if op == "place":
                r = rng.random()
                if r < 0.6:
                    placed["link"] = rng.choice(["sibling", "self", "dangling", "/dev/zero", "/dev/null", ".", "..",
                                                 "outside", "outside folder", "absolute", "/etc/passwd", "outside"])
                    what.append(f"the catalogue a symbolic link ({placed['link']})")
                elif r < 0.8:
                    placed["folder"] = True
                    what.append("the catalogue a folder")
                else:
                    placed["i18n"] = rng.choice(["outside", "dangling", "absolute"])
                    what.append(f"the i18n folder a symbolic link ({placed['i18n']})")
                continue
            note = _mutate_po(rng, blocks, op)
            if note:
                what.append(note)
        data = "\n\n".join(blocks).encode("utf-8", "surrogatepass")
        for r in byte_ops:
            data, note = _po_bytes(rng, data, r)
            what.append(note)
        files = {"outside/canary.txt": b"the canary: nothing writes here\n", "outside/dir/inner.txt": b"inner\n"}
        links: dict[str, str] = {}
        if placed["i18n"]:
            files[f"outside/i18n/{lang}.po"] = data
            target = {"outside": "outside/i18n", "dangling": "outside/none", "absolute": "{work}/outside/i18n"}[
                placed["i18n"]]
            links[f"{spec_dir}/i18n"] = target
        elif placed["link"]:
            files[f"outside/{lang}.po"] = data
            other = "es" if lang != "es" else "fr"
            target = {"sibling": f"{spec_dir}/i18n/{other}.po", "self": po_rel, "dangling": f"{spec_dir}/i18n/none.po",
                      "outside": f"outside/{lang}.po", "outside folder": "outside/dir",
                      "absolute": "{work}/outside/" + f"{lang}.po"}.get(placed["link"], placed["link"])
            if which == "tiny" and placed["link"] == "sibling":
                files[f"{spec_dir}/i18n/{other}.po"] = data
            links[po_rel] = target
        elif placed["folder"]:
            files[f"{po_rel}/{lang}.po"] = data
        else:
            files[po_rel] = data
        # the same spec again in copy/, for the command that writes its catalogues
        copy_dir = "copy/" + Path(spec_dir).name
        for rel, b in own.items():
            files.setdefault(copy_dir + rel[len(spec_dir):], b)
        for rel in [r for r in files if r.startswith(spec_dir + "/")]:
            files[copy_dir + rel[len(spec_dir):]] = files[rel]
        for rel in list(links):
            links[copy_dir + rel[len(spec_dir):]] = links[rel]
        links = {rel: _link_target(rel, t) for rel, t in links.items()}
        root = ["--root", "."] if rng.random() < 0.2 else []
        pick = ["--lang", lang]
        runs = [Run(["docs", spec_dir, "--out", "out", "--lang", lang, "--no-verify"] + root,
                    check=PagesRunNoScript("out")),
                Run(["translations", spec_dir, "--check"] + (pick if rng.random() < 0.6 else []) + root),
                Run(["translations", copy_dir] + (pick if rng.random() < 0.7 else []) + root, check=Untouched("outside"))]
        if rng.random() < 0.5:                        # what it wrote, read back
            runs.append(Run(["translations", copy_dir, "--check", "--lang", lang] + root))
        trees = [] if which == "tiny" else [SAVANNA]
        return Case("po", seed, runs, trees=trees, files={**own, **files} if which == "tiny" else files,
                    links=links, what=what)

    # ------------------------------------------------------------ (j) pages with payloads
    def _fingerprints(self, files: dict[str, bytes], house_rel: str) -> tuple[str, str] | None:
        """The fingerprints (``docs`` compares them with a measured effect's) of a house
        rule laid out as ``files`` and of its base game; None when they cannot be had.
        Loaded here, in the fuzzer's own process: docs shows an effect only when they
        match."""
        key = ("fingerprints", hashlib.sha256(repr(sorted(files.items())).encode()).hexdigest())
        if key not in self._fingerprint_cache:
            scratch = self.tmp / "fingerprints"
            self.materialize(Case("fingerprints", 0, [], trees=["tiny"],
                                  files={k: v for k, v in files.items() if not k.startswith("out/")}), scratch)
            try:
                from rulewright.compiler import files as rw_files, load
                from rulewright.compiler.docgen import house
                # (loaded as the command loads it: from the folder, by a relative path; the
                # fingerprint of a spec named by its absolute path is another one)
                here = os.getcwd()
                os.chdir(scratch)
                rw_files.add_root(".")
                try:
                    program = load(house_rel)
                    base = load(program.variants[-1].extends)
                    found = (house.fingerprint(base), house.fingerprint(program))
                finally:
                    rw_files.clear_roots()
                    os.chdir(here)
            except Exception:                 # noqa: BLE001 (a house rule that does not load: no effect shown)
                found = None
            self._fingerprint_cache[key] = found
        return self._fingerprint_cache[key]

    def gen_docs(self, rng: random.Random, seed: int) -> Case:
        """Pages made from texts that would run in a browser as HTML (``HTML_PAYLOADS``,
        in Markdown contexts): in doc comments, titles (game, mode, example, section,
        property, query), table texts (the spec's own, a ``--cards`` or ``--table`` CSV
        file), a house rule's file name, title and texts, a measured-effects file
        (``OUT/effects.json``, with the fingerprints of the rules as they are, so that
        its values are shown) and a French catalogue. ``docs ... --out out --no-verify``,
        then every page written is rendered with the site's Markdown and passed through
        the site's guard: anything it takes out is a failure."""
        kind = rng.choices(["tiny", "tiny_csv", "house", "savanna"], weights=[5, 3, 3, 1])[0]
        files: dict[str, bytes] = {}
        what = [kind]
        extra: list[str] = []
        langs = "en"
        trees = ["tiny"]
        k = rng.choice([1, 2, 3, 5, 8])
        if kind == "savanna":
            trees = self._without_variants(SAVANNA)
            spec_arg = SAVANNA
            for f in self._spec_files(SAVANNA):
                if rng.random() < 0.5:
                    text, notes = _payload_texts(rng, (self.snapshot / f).read_text(encoding="utf-8"), k)
                    files[f] = text.encode("utf-8", "surrogatepass")
                    what += [f"{f}: {n}" for n in notes]
            if rng.random() < 0.3:
                files[f"{SAVANNA}/i18n/fr.po"] = _payload_catalogue(
                    rng, (self.snapshot / SAVANNA / "i18n" / "fr.po").read_bytes(), what)
                langs = "en,fr"
        else:
            text = TINY + TINY_DOCS_EXTRA
            if kind == "tiny_csv":
                text = re.sub(r"(table piece \[TY-04\] \(family: family, count: int, label: text\)) \{.*?\n\}\n",
                              r'\1 from "pieces.csv" option cards\n', text, flags=re.S)
                files["tiny/pieces.csv"] = _payload_pieces(rng, what, "pieces.csv")
                r = rng.random()
                if r < 0.35:
                    files["mine.csv"] = _payload_pieces(rng, what, "mine.csv")
                    extra += [rng.choice(["--cards", "--card-table"]), "mine.csv"]
                elif r < 0.6:
                    files["mine.csv"] = _payload_pieces(rng, what, "mine.csv")
                    extra += ["--table", "piece=mine.csv"]
            text, notes = _payload_texts(rng, text, k)
            what += notes
            files["tiny/tiny.rules"] = text.encode("utf-8", "surrogatepass")
            spec_arg = rng.choice(["tiny/tiny.rules", "tiny"])
            if spec_arg == "tiny" and rng.random() < 0.6:          # its versions' pages (variants/)
                variant, notes = _payload_texts(rng, TINY_VARIANT, rng.choice([0, 1, 2, 3]))
                stem = _file_name_payload(rng) if rng.random() < 0.4 else "short"
                files[f"tiny/variants/{stem}.rules"] = variant.encode("utf-8", "surrogatepass")
                what += [f"variants/{stem}.rules"] + [f"variants/{stem}.rules: {n}" for n in notes]
            if rng.random() < 0.3:
                files["tiny/i18n/fr.po"] = _payload_catalogue(rng, self.tiny_catalogue(), what)
                langs = "en,fr"
        if kind == "house":
            name = "sheep" if rng.random() < 0.35 else _file_name_payload(rng)
            house_rel = f"house/{name}.rules"
            pay = [(_html_payload(rng, one_line=True) if rng.random() < 0.6 else w)
                   for w in ("A house rule.", "Sheep", "More sheep.", "Mouton")]
            measured = rng.random() < 0.3       # measured by docs itself: the duel's seat titles in effects.json
            files[house_rel] = (TINY_HOUSE.format(doc=pay[0], title=_spec_quoted(pay[1]), doc2=pay[2],
                                                  label=_spec_quoted(pay[3]))
                                + ("\nremove mode standard\n" if measured else "")).encode("utf-8", "surrogatepass")
            what.append(f"house rule {name!r}: {pay!r}"[:300])
            spec_arg = "house"
            extra += ["--root", "."]
            if measured:
                extra += ["--measure", "1"]
                what.append("measured (--measure 1, the duel mode)")
            elif rng.random() < 0.75:
                found = self._fingerprints(files, house_rel)
                fb, fh = found or ("0", "0")
                p = [_html_payload(rng, one_line=rng.random() < 0.5) for _ in range(5)]
                numbers, seats = rng.choice(["score", p[1]]), rng.choice(["winners", p[2]])
                effects = {f"{name}.rules": {
                    "mode": rng.choice(["standard", p[0]]), "players": rng.choice([3, 2, 100]),
                    "games": rng.choice([3, 1, 1000]), "base": fb, "house": fh,
                    "reports": {side: {numbers: {"kind": "numbers",
                                                 "values": rng.choice([[1, 2, 3], [0], [-5, 2 ** 40], [4, 4, 9, 1]])},
                                       seats: {"kind": "seats",
                                               "values": {p[3]: rng.randint(0, 3), "Player 2": 1, p[4]: 0}}}
                                for side in ("base", "house")}}}
                files["out/effects.json"] = json.dumps(effects, ensure_ascii=rng.random() < 0.5).encode(
                    "utf-8", "surrogatepass")
                what.append(f"effects.json ({'fingerprints match' if found else 'no fingerprints'}): {p!r}"[:300])
        argv = ["docs", spec_arg, "--out", "out", "--no-verify", "--lang", langs] + extra
        return Case("docs", seed, [Run(argv, check=PagesRunNoScript("out"))], trees=trees, files=files, what=what)

    # ------------------------------------------------------------ (k) symbolic links in folders
    def gen_links(self, rng: random.Random, seed: int) -> Case:
        """Folders holding symbolic links (to a file outside, to a folder outside, to
        nothing, through another link, to a file of the spec, to a device): the pages of
        ``docs --out OUT`` and the witnesses of ``verify --out OUT``, the files of ``play
        --save-state`` and ``--log``, a spec's ``i18n/`` folder or catalogue
        (``translations``), a spec's ``variants/`` folder or a file of it. The links
        point into ``outside/`` (a canary file, a folder): after each command nothing
        there may be created, changed or removed."""
        files = {"outside/canary.txt": b"the canary: nothing writes here\n", "outside/dir/inner.txt": b"inner\n"}
        links: dict[str, str] = {}
        watch = ["outside"]
        what: list[str] = []
        argvs: list[list[str]] = []

        def link(rel: str):
            kind = rng.choices(["file", "folder", "dangling", "absolute", "chain", "inside", "device", "self", "hard",
                                "loop"], weights=[6, 3, 6, 2, 2, 2, 1, 1, 2, 1])[0]
            name = Path(rel).name
            if kind == "file":
                target = "outside/canary.txt"
            elif kind == "folder":
                target = "outside/dir"
            elif kind == "dangling":
                target = "outside/" + name
            elif kind == "absolute":
                target = "{work}/outside/" + rng.choice(["canary.txt", name, "dir"])
            elif kind == "chain":
                chain = f"chain{len(links)}"
                links[chain] = rng.choice(["outside/canary.txt", "outside/" + name])
                target = chain
            elif kind == "inside":
                target = "tiny/start.grid"
                if target not in watch:
                    watch.append(target)
            elif kind == "device":
                target = "/dev/null"
            elif kind == "hard":                    # a hard link: a writer that writes in place changes both
                target = "hard:outside/" + rng.choice(["canary.txt", "dir/inner.txt"])
            elif kind == "loop":                    # two links pointing at each other
                other = f"loop{len(links)}"
                links[other] = rel
                target = other
            else:
                target = rel
            links[rel] = target
            what.append(f"{rel} -> {target} ({kind})")

        scenarios = rng.sample(["docs", "verify", "play", "i18n", "variants", "named"], rng.choice([1, 1, 2, 3]))
        for scenario in scenarios:
            if scenario == "docs":
                names = ["tiny.md", "tiny_reference.md", "tiny_catalogue.md", "operators.md"]
                measure = rng.random() < 0.25
                lang = rng.choice(["en", "en", "en,fr"])
                names += (["effects.json"] if measure else []) + (["tiny.fr.md"] if "fr" in lang else [])
                for name in rng.sample(names, rng.randint(1, 3)):
                    link(f"out/{name}")
                argvs.append(["docs", "tiny/tiny.rules", "--out", "out", "--no-verify", "--lang", lang]
                             + (["--measure", "1"] if measure else []))
            elif scenario == "verify":
                names = ["001-range-score.json", "001-range-score-least-g.grid", "001-range-score-most-g.grid",
                         "002-range-score_goat.json", "005-range-goats-most-g.grid"]
                for name in rng.sample(names, rng.randint(1, 3)):
                    link(f"vout/{name}")
                argvs.append(["verify", "tiny/tiny.rules", "--out", "vout", "--check", "range", "--games", "0",
                              "--no-progress", "--time-limit", "2"])
            elif scenario == "play":
                argv = ["play", "tiny/tiny.rules", "--players", "2", "--seed", str(seed % 7)]
                save = rng.random() < 0.7
                if save:
                    argv += (["--stop-at", "pick:2"] if rng.random() < 0.5 else []) + ["--save-state", "s.json"]
                    link("s.json")
                if not save or rng.random() < 0.4:
                    argv += ["--log", "log.jsonl"]
                    link("log.jsonl")
                argvs.append(argv)
            elif scenario == "i18n":
                catalogue = self.tiny_catalogue()
                r = rng.random()
                if r < 0.4:
                    files["outside/i18n/fr.po"] = catalogue
                    links["tiny/i18n"] = rng.choice(["outside/i18n", "outside/none", "{work}/outside/i18n"])
                    what.append(f"tiny/i18n -> {links['tiny/i18n']}")
                elif r < 0.7:
                    files["outside/fr.po"] = catalogue
                    links["tiny/i18n/fr.po"] = rng.choice(["outside/fr.po", "outside/none.po", "outside/dir"])
                    what.append(f"tiny/i18n/fr.po -> {links['tiny/i18n/fr.po']}")
                else:
                    files["tiny/i18n/es.po"] = catalogue.replace(b"Language: fr", b"Language: es")
                    link(f"tiny/i18n/{rng.choice(['fr', 'zh'])}.po")
                root = ["--root", "."] if rng.random() < 0.35 else []
                argvs.append(["translations", "tiny", "--lang", rng.choice(["fr", "fr,es", "fr,es,zh"])] + root)
                if rng.random() < 0.5:
                    argvs.append(["translations", "tiny", "--check"] + root)
                if rng.random() < 0.4:
                    argvs.append(["docs", "tiny", "--out", "out", "--lang", "fr", "--no-verify"] + root)
            elif scenario == "named":                           # a file named on the command line is a link
                what_file = rng.choice(["spec", "state", "choices", "log", "cards"])
                rel = {"spec": "named.rules", "state": "named.json", "choices": "named.jsonl", "log": "named.jsonl",
                       "cards": "named.csv"}[what_file]
                if rng.random() < 0.3:              # to a real file of its kind, outside
                    real = {"spec": TINY.encode(), "state": b"{}", "choices": b"", "log": b"",
                            "cards": b"name,family,count,label\n"}[what_file]
                    files[f"outside/{rel}"] = real
                    links[rel] = f"outside/{rel}"
                    what.append(f"{rel} -> outside/{rel}")
                else:
                    link(rel)
                argvs.append({"spec": lambda: [rng.choice(["check", "dump", "graph"]), rel],
                              "state": lambda: ["play", "tiny/tiny.rules", "--from", rel] if rng.random() < 0.5
                              else ["show", "tiny/tiny.rules", "--state", rel],
                              "choices": lambda: ["play", "tiny/tiny.rules", "--players", "2", "--choices", rel],
                              "log": lambda: ["play", "tiny/tiny.rules", "--players", "2", "--log", rel],
                              "cards": lambda: ["check", "tiny/tiny.rules", "--table", f"piece={rel}"]}[what_file]())
            else:                                               # variants
                files["outside/variants/short.rules"] = TINY_VARIANT.encode()
                r = rng.random()
                if r < 0.5:
                    links["tiny/variants"] = rng.choice(["outside/variants", "{work}/outside/variants", "outside/dir"])
                    what.append(f"tiny/variants -> {links['tiny/variants']}")
                elif r < 0.8:
                    files["tiny/variants/long.rules"] = TINY_VARIANT.replace("short", "long").encode()
                    links["tiny/variants/short.rules"] = rng.choice(["outside/variants/short.rules", "outside/none.rules"])
                    what.append(f"tiny/variants/short.rules -> {links['tiny/variants/short.rules']}")
                else:
                    files["outside/extra.rules"] = b"/// An extra.\ndef extra [TY-X1] = 1\n"
                    links["tiny/extra.rules"] = "outside/extra.rules"
                    what.append("tiny/extra.rules -> outside/extra.rules")
                argvs.append(["docs", "tiny", "--out", "out", "--no-verify", "--lang", "en"])
                if rng.random() < 0.5:
                    argvs.append(["check", "tiny"])
        links = {rel: _link_target(rel, t) for rel, t in links.items()}
        runs = [Run(argv, check=Untouched(*watch)) for argv in argvs]
        return Case("links", seed, runs, trees=["tiny"], files=files, links=links, what=what)

    # ------------------------------------------------------------ saving what failed
    def save_failure(self, case: Case, run: Run, outcome: Outcome, reason: str, out_dir: Path) -> Path:
        """Copy the input into ``out_dir/<crash class>/`` (the smallest input per class
        is kept there, every hit is listed in ``hits.txt``) with a README.txt."""
        key, tail = crash_class(outcome, reason, run)
        folder = out_dir / key
        folder.mkdir(parents=True, exist_ok=True)
        entry = {"category": case.category, "seed": case.seed, "argv": run.argv, "reason": reason,
                 "size": case.size(), "seconds": round(outcome.seconds, 2)}
        with open(folder / "hits.txt", "a", encoding="utf-8", errors="backslashreplace") as f:
            f.write(json.dumps(entry) + "\n")
        meta = folder / "input.json"
        if meta.exists():
            old = json.loads(meta.read_text())
            if old["size"] <= case.size():
                return folder
        self.materialize(case, folder / "input")
        meta.write_text(json.dumps(entry, indent=1))
        (folder / "argv.json").write_text(json.dumps(run.argv))
        if run.stdin is not None:
            (folder / "stdin.bin").write_bytes(run.stdin)
        elif (folder / "stdin.bin").exists():
            (folder / "stdin.bin").unlink()
        described = getattr(run.check, "describe", None)
        if described is not None:
            (folder / "check.json").write_text(json.dumps(described()))
        elif (folder / "check.json").exists():
            (folder / "check.json").unlink()
        (folder / "stderr.txt").write_text(outcome.err, errors="backslashreplace")
        cmd = " ".join(_shell_quote(a) for a in run.argv)
        if len(cmd) > 2000:
            cmd = cmd[:2000] + " ... (the whole command line: argv.json)"
        readme = [
            f"crash class: {key}",
            f"found by: category {case.category}, seed {case.seed} (tests/fuzzing.py); {reason}",
            f"command took {outcome.seconds:.2f} s, exit code {outcome.code}",
            "",
            "what the generator did to the input:",
            *[f"  - {w}" for w in case.what[:40]],
            "",
            "reproduce (from this folder):",
            f"  cd {folder / 'input'}",
            f"  RULEWRIGHT_DEBUG=1 {ROOT}/.venv/bin/rulewright {cmd}"
            + (" < ../stdin.bin" if run.stdin is not None else ""),
            "exactly, with the argv as the fuzzer passed it:",
            f"  cd {folder / 'input'} && RULEWRIGHT_DEBUG=1 PYTHONPATH={ROOT} {PYTHON} -c "
            f"'import json, sys; from rulewright.cli import main; sys.exit(main(json.load(open(\"../argv.json\"))))'"
            + (" < ../stdin.bin" if run.stdin is not None else ""),
            *([f"then the check of the folder after it (check.json; python tests/fuzzing.py --recheck "
               f"{out_dir} runs it too): {reason[:300]}"]
              if reason.startswith((ACTIVE_CONTENT, THROUGH_LINK, SLOW_PAGE)) else []),
            "",
            "last lines of stderr:",
            *[f"  {ln}" for ln in tail],
        ]
        (folder / "README.txt").write_text("\n".join(readme) + "\n", errors="backslashreplace")
        return folder


def _shell_quote(a: str) -> str:
    if all(c.isprintable() and ord(c) < 0x10000 and not 0xD800 <= ord(c) <= 0xDFFF for c in a) and "\n" not in a:
        return shlex.quote(a)
    out = []
    for b in os.fsencode(a):
        c = chr(b)
        out.append(c if 32 <= b < 127 and c not in "'\\" else f"\\x{b:02x}")
    return "$'" + "".join(out) + "'"


# ====================================================================== crash classes
_FRAME = re.compile(r'^\s*File "([^"]+)", line (\d+), in (\S+)')
_FH_FRAME = re.compile(r'^\s*File "([^"]+)", line (\d+) in (\S+)')


def _short(path: str) -> str:
    p = str(path)
    root = str(ROOT) + os.sep
    if p.startswith(root):
        return p[len(root):]
    if "site-packages" in p:
        return p.split("site-packages" + os.sep, 1)[1]
    m = re.search(r"lib/python3\.\d+/(.*)", p)
    return m.group(1) if m else p


def crash_class(outcome: Outcome, reason: str, run: Run | None = None) -> tuple[str, list[str]]:
    """A folder name for the failure: the exception class and its innermost frame
    (``file:line``), from the traceback RULEWRIGHT_DEBUG=1 prints; for a hang or a
    signal the innermost frame of the main thread from faulthandler; for a check of the
    work folder after the command, what it found (the first thing the page guard took
    out and the kind of page; the command that wrote through a link and what it did).
    Also the last lines of stderr."""
    err = outcome.err
    lines = err.splitlines()
    tail = lines[-25:]
    command = run.argv[0] if run is not None and run.argv else "command"
    if reason.startswith(ACTIVE_CONTENT):
        page, _, found = reason[len(ACTIVE_CONTENT) + 2:].partition(": ")
        first = found.split("; ")[0]
        # what the guard took out: an element, a handler, a link, an attribute, a style
        kind = "element" if first.startswith("<") else (first.split()[1] if len(first.split()) > 1 else "?")
        return _safe(f"ActiveContent__{_page_kind(page)}__{kind}"), [reason] + tail
    if reason.startswith(THROUGH_LINK):
        first = reason[len(THROUGH_LINK) + 2:].split(", ")[0]
        return _safe(f"WroteThroughLink__{command}__{first.rsplit(' ', 1)[-1]}"), [reason] + tail
    if reason.startswith(SLOW_PAGE):
        page = reason[len(SLOW_PAGE) + 2:].split(" ")[0]
        return _safe(f"SlowPage__{_page_kind(page)}"), [reason] + tail
    if outcome.hung or outcome.code < 0:
        kind = "Hang" if outcome.hung else reason.replace("killed by ", "").replace(" ", "")
        blocks, cur = [], None
        for ln in lines:
            if ln.startswith(("Thread 0x", "Current thread 0x")):
                cur = []
                blocks.append(cur)
            elif cur is not None and _FH_FRAME.match(ln):
                cur.append(_FH_FRAME.match(ln).groups())
        main = [b for b in blocks if any("rulewright/cli/" in f for f, _, _ in b)] or blocks
        where = "unknown"
        if main and main[-1]:
            frames = main[-1]
            f, n, fn = frames[0]
            where = f"{_short(f)}:{n}"
            project = next(((pf, pn) for pf, pn, _ in frames if str(ROOT) in pf), None)
            if project and project[0] != f:
                where += f"@{_short(project[0])}:{project[1]}"
        return _safe(f"{kind}__{where}"), tail
    tb = err.rfind("Traceback (most recent call last):")
    if tb < 0:
        return _safe(f"Exit{outcome.code}__no-traceback"), tail
    block = err[tb:].splitlines()
    frames, exc = [], "UnknownException"
    for i, ln in enumerate(block[1:], 1):
        m = _FRAME.match(ln)
        if m:
            frames.append(m.groups())
            continue
        if frames and ln and not ln.startswith((" ", "\t")):
            exc = re.split(r"[:\s]", ln, 1)[0]
            break
    exc = exc.rsplit(".", 1)[-1]
    where = "unknown"
    if frames:
        f, n, _ = frames[-1]
        where = f"{_short(f)}:{n}"
        project = [(pf, pn) for pf, pn, _ in frames if pf.startswith(str(ROOT)) and "/tests/" not in pf]
        if project and project[-1][0] != f:
            where += f"@{_short(project[-1][0])}:{project[-1][1]}"
    return _safe(f"{exc}__{where}"), block[-25:]


def _page_kind(page: str) -> str:
    """The kind of a written page, from its name: rulebook, reference, catalogue,
    variants, house, operators (a language's suffix left out)."""
    name = re.sub(r"(\.[a-z]{2})?\.md$", "", Path(page).name)
    if name == "operators":
        return "operators"
    if name.startswith("house"):
        return "house"
    for kind in ("reference", "catalogue", "variants"):
        if name.endswith("_" + kind):
            return kind
    return "rulebook"


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.:@-]+", "_", name).replace("/", "_").replace(":", "_L")[:150]


# ====================================================================== JSON helpers
class Raw(str):
    """Text written into a JSON document as it is (a huge number, NaN, deep nesting)."""


class Pairs(list):
    """A JSON object written with these (key, value) pairs, a key possibly twice."""


def _dumps(v, indent: bool = True, level: int = 0) -> str:
    pad = "\n" + " " * (level + 1) if indent else ""
    end = "\n" + " " * level if indent else ""
    if isinstance(v, Raw):
        return str(v)
    if isinstance(v, (dict, Pairs)):
        items = list(v.items()) if isinstance(v, dict) else list(v)
        if not items:
            return "{}"
        return "{" + ",".join(pad + json.dumps(k) + ": " + _dumps(x, indent, level + 1) for k, x in items) + end + "}"
    if isinstance(v, list):
        if not v:
            return "[]"
        return "[" + ",".join(pad + _dumps(x, indent, level + 1) for x in v) + end + "]"
    return json.dumps(v, ensure_ascii=bool(level % 2))


def _walk_strings(v):
    stack = [v]
    while stack:
        x = stack.pop()
        if isinstance(x, str):
            yield x
        elif isinstance(x, dict):
            stack.extend(x.keys())
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)


def _nodes(doc):
    """Every (container, key) pair of the document."""
    out, stack = [], [doc]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            for k in x:
                out.append((x, k))
                stack.append(x[k])
        elif isinstance(x, list) and not isinstance(x, Pairs):
            for i in range(len(x)):
                out.append((x, i))
                stack.append(x[i])
    return out


def _json_payload(rng: random.Random, strings: list[str]):
    d = rng.choice([100, 1000, 5000, 100_000])
    return rng.choice([
        None, True, False, 0, -1, 1, 10 ** 30, -10 ** 30, 2 ** 63, 1.5, -0.0, float("nan"), float("inf"),
        float("-inf"), "", "{0}", "{fors}", "\ud800", "\\", '"', "\u00e9", "x" * 100_000, [], {}, [None], {"": None},
        Raw("[" * d + "]" * d), Raw('{"a":' * d + "1" + "}" * d), Raw(TOO_MANY_DIGITS), Raw("1e999"),
        Raw("-" + HUGE), Raw("1E400"), Raw("-Infinity"), Raw("NaN"), "p1", "p2", "p9", "neutral", "standard",
        "pick:3", "turn:5", "lion", "gazelle", "bongo_head", "tundra", "europe", "left_side", 3, 5, 20,
        rng.choice(strings) if strings else "x", [rng.choice(strings)] * rng.choice([1, 50, 1000]) if strings else [],
    ])


def _mutate_json(rng: random.Random, holder: list, strings: list[str]) -> str | None:
    """One mutation of the document ``holder[0]`` (held in a list, so that it may be replaced)."""
    doc = holder[0]
    nodes = _nodes(doc)
    if not nodes:
        return None
    if rng.random() < 0.5 and isinstance(doc, dict) and doc:     # start from a section, so each is reached
        section = rng.choice(sorted(doc))
        inner = [(c, k) for c, k in nodes if c is doc and k == section]
        sub = _nodes(doc[section]) if isinstance(doc[section], (dict, list)) else []
        nodes = inner + sub if sub and rng.random() < 0.8 else inner
    container, key = rng.choice(nodes)
    where = repr(key)
    value = container[key]
    r = rng.random()
    if r < 0.35:
        new = _json_payload(rng, strings)
        container[key] = new
        return f"{where}: {str(value)[:30]!r} -> {str(new)[:40]!r}"
    if r < 0.45:
        del container[key]
        return f"{where} removed"
    if r < 0.53 and isinstance(container, dict):
        k = rng.choice(["nope", "", "hand", "deck", "format", "variants", "switches", "state", "per_seat",
                        "{0}", "\ud800", "x" * 1000, "board", "world", "era"])
        container[k] = _json_payload(rng, strings)
        return f"key {k[:20]!r} added next to {where}"
    if r < 0.6 and isinstance(container, dict):
        pairs = Pairs(container.items())
        pairs.insert(rng.randint(0, len(pairs)), (key, _json_payload(rng, strings)))
        _replace(holder, container, pairs)
        return f"{where} twice"
    if r < 0.72 and isinstance(value, list):
        k = rng.random()
        if k < 0.3 and value:
            n = rng.choice([1, 10, 1000, 50_000])
            value.extend([rng.choice(value)] * n)
            return f"{where}: {n} more items"
        if k < 0.5:
            value.clear()
            return f"{where}: emptied"
        if k < 0.7:
            rng.shuffle(value)
            return f"{where}: shuffled"
        if k < 0.85 and value:
            del value[rng.randrange(len(value))]
            return f"{where}: one item fewer"
        value.insert(rng.randint(0, len(value)), _json_payload(rng, strings))
        return f"{where}: an item inserted"
    if r < 0.8:
        other_c, other_k = rng.choice(_nodes(doc))
        try:        # copies: a node swapped with one of its own parts makes no cycle
            container[key], other_c[other_k] = copy.deepcopy(other_c[other_k]), copy.deepcopy(container[key])
        except (KeyError, IndexError, TypeError):
            return None
        return f"{where} <-> {other_k!r}"
    if r < 0.88 and isinstance(value, (int, float)) and not isinstance(value, bool):
        new = rng.choice([value + 1, value - 1, value * 1000, -value, value + 10 ** 20, 0])
        container[key] = new
        return f"{where}: {value} -> {new}"
    if r < 0.95 and isinstance(value, str) and strings:
        new = rng.choice(strings)
        container[key] = new
        return f"{where}: {value[:20]!r} -> {new[:20]!r}"
    if isinstance(container, dict) and isinstance(key, str) and key:
        new = rng.choice([key[:-1], key + "s", key.upper(), " " + key, key.replace("_", "-")])
        container[new] = container.pop(key)
        return f"key {key!r} -> {new!r}"
    return None


def _gentle_json(rng: random.Random, holder: list, settings: dict[str, list[str]]) -> str | None:
    """One change of a position that keeps its shape and types: two cards swapped
    between lists or cells, a card moved, a number moved a little (or a lot), a flag
    flipped, a switch given its other option, a value of one entry given to another."""
    doc = holder[0]
    nodes = _nodes(doc)
    leaves = [(c, k) for c, k in nodes if not isinstance(c[k], (dict, list))]
    lists = [(c, k) for c, k in nodes if isinstance(c[k], list) and not isinstance(c[k], Pairs)]
    r = rng.random()
    if r < 0.25:                                      # two strings of the same section swapped (a card for a card)
        strs = [(c, k) for c, k in leaves if isinstance(c[k], str)]
        in_lists = [(c, k) for c, k in strs if isinstance(c, list)]     # cards of piles and grids
        if len(in_lists) > 2 and rng.random() < 0.75:
            strs = in_lists
        if len(strs) < 2:
            return None
        (a, i), (b, j) = rng.sample(strs, 2)
        a[i], b[j] = b[j], a[i]
        return f"swapped {a[i]!r} and {b[j]!r}"
    if r < 0.4 and lists:                             # an item moved from one list to another
        (a, i), (b, j) = rng.choice(lists), rng.choice(lists)
        if not a[i]:
            return None
        item = a[i].pop(rng.randrange(len(a[i])))
        b[j].insert(rng.randint(0, len(b[j])), item)
        return f"{str(item)[:30]!r} moved from {i!r} to {j!r}"
    if r < 0.6:                                       # a number
        nums = [(c, k) for c, k in leaves if isinstance(c[k], int) and not isinstance(c[k], bool)]
        if not nums:
            return None
        c, k = rng.choice(nums)
        old = c[k]
        c[k] = rng.choice([old + 1, old - 1, 0, -1, old * 2, old + 100, 10 ** 9, 2 ** 63, -(2 ** 63), 10 ** 30])
        return f"{k!r}: {old} -> {c[k]}"
    if r < 0.68:                                      # a flag
        flags = [(c, k) for c, k in leaves if isinstance(c[k], bool)]
        if not flags:
            return None
        c, k = rng.choice(flags)
        c[k] = not c[k]
        return f"{k!r} flipped to {c[k]}"
    if r < 0.78 and isinstance(doc, dict) and isinstance(doc.get("switches"), dict) and doc["switches"]:
        k = rng.choice(sorted(doc["switches"]))
        options = settings.get(k) or ["true", "false"]
        v = rng.choice(options)
        doc["switches"][k] = (v == "true") if v in ("true", "false") else (int(v) if v.isdigit() else v)
        return f"switch {k} -> {v}"
    if r < 0.86:                                      # a free cell or an empty value
        keyed = [(c, k) for c, k in leaves if isinstance(c, dict) or
                 any(isinstance(row, list) and row is c for row in _rows_of(doc))]
        c, k = rng.choice(keyed) if keyed else (None, None)
        if c is None:
            return None
        old, c[k] = c[k], None
        return f"{k!r}: {str(old)[:20]!r} -> null"
    if r < 0.93 and isinstance(doc, dict):            # a checkpoint, mode or seed
        k = rng.choice(["checkpoint", "mode", "seed", "checkpoints", "spec", "format"])
        v = {"checkpoint": rng.choice(["pick:1", "pick:20", "turn:1", "turn:99", "era:1", "game_end:1", "pick:0"]),
             "mode": rng.choice(["standard", "two_player", "solo", "kids", "coop_2v2"]),
             "seed": rng.choice([0, -1, 2 ** 64, 7]),
             "checkpoints": rng.choice([{}, {"pick": 99}, {"turn": -1}, {"era": 5, "turn": 2}]),
             "spec": rng.choice(["ecosystem_savanna", "darwins_choice", "tiny"]),
             "format": rng.choice(["rulewright-state/1", "rulewright-state/2", "rulewright-state/0"])}[k]
        old = doc.get(k)
        doc[k] = v
        return f"{k}: {str(old)[:20]!r} -> {v!r}"
    if lists:                                         # a list reordered or cut short
        c, k = rng.choice(lists)
        if rng.random() < 0.5:
            rng.shuffle(c[k])
            return f"{k!r} shuffled"
        del c[k][rng.randint(0, len(c[k])):]
        return f"{k!r} cut to {len(c[k])}"
    return None


def _rows_of(doc):
    """The rows of the grids of a position (lists of lists)."""
    return [row for c, k in _nodes(doc) if isinstance(c[k], list) for row in c[k] if isinstance(row, list)]


def _replace(doc, old, new):
    for c, k in _nodes(doc):
        if c[k] is old:
            c[k] = new
            return


# ====================================================================== saved games and choices files
_SEAT_VALUES = ["p1", "p2", "p3", "p4", "p9", "", None, 1, True, "neutral", "jhay", "P1", "Player 1", [], {}, "\ud800",
                "x" * 10_000]


def _deep(rng: random.Random) -> Raw:
    """JSON nested deep: around the limits (32 levels) and far past them."""
    d = rng.choice([31, 32, 33, 100, 300, 900, 990, 1000, 5000])
    return rng.choice([Raw("[" * d + "0" + "]" * d), Raw('{"a":' * d + "1" + "}" * d),
                       Raw("[" * d + "]" * d), Raw('{"id":' * d + '"x"' + "}" * d)])


def _huge(rng: random.Random):
    return rng.choice([Raw(HUGE), Raw("-" + HUGE), Raw(TOO_MANY_DIGITS), Raw("1e999"), Raw("-1e999"), Raw("NaN"),
                       Raw("Infinity"), 2 ** 63, -(2 ** 63) - 1, 2 ** 64, 10 ** 30, [Raw(HUGE), 0], [0, 2 ** 64],
                       {"id": Raw(HUGE)}, 1.5, -0.0, 1e308, Raw("1E400")])


def _value_payload(rng: random.Random, values: list):
    """What a choice's value may become: another choice's value, a value of another
    type, deep nesting, a huge number."""
    r = rng.random()
    if r < 0.3 and values:
        return copy.deepcopy(rng.choice(values))
    if r < 0.45:
        return _deep(rng)
    if r < 0.6:
        return _huge(rng)
    return rng.choice([None, True, False, 0, -1, 1, 3, "", "x", "lion", "goat", "rock", "create", "pass", "p1",
                       [], {}, [0], [0, 0, 0], [None, None], [True, False], ["0", "0"], [0.0, 1.0], [-1, -1],
                       {"id": 3}, {"id": "1"}, {"": None}, {"nope": 1}, [[0, 0]], "x" * 100_000, "\ud800", "\u00e9",
                       "{0}", [0, 99999999999], "[0, 0]", "0"])


def _rng_mutation(rng: random.Random, state) -> tuple[object, str]:
    """A random generator's saved state (``[3, [625 words], null]``) made wrong."""
    if not (isinstance(state, list) and len(state) == 3 and isinstance(state[1], list)):
        return rng.choice([None, [3, [0] * 625, None], "x"]), "replaced"
    state = copy.deepcopy(state)
    words = state[1]
    r = rng.random()
    if r < 0.2:
        k = rng.choice([0, 1, 623, 624, 626, 700, 5000])
        if k < len(words):
            del words[k:]
        else:
            words.extend([1] * (k - len(words)))
        return state, f"{k} words"
    if r < 0.35 and words:
        i = rng.randrange(len(words))
        words[i] = rng.choice([-1, 2 ** 32, 2 ** 64, 10 ** 30, "1", 1.5, None, True, Raw(TOO_MANY_DIGITS), Raw("NaN"),
                               [], Raw("1e999")])
        return state, f"word {i} -> {str(words[i])[:20]!r}"
    if r < 0.5 and words:
        words[-1] = rng.choice([625, 700, 624, 0, 1000, -1, 2 ** 31, 2 ** 32 - 1])
        return state, f"its place -> {words[-1]}"
    if r < 0.58:
        state[1] = [0] * 624 + [624]
        return state, "every word 0"
    if r < 0.7:
        state[0] = rng.choice([2, 1, 4, 0, -1, "3", None, 10 ** 30, 3.0, True])
        return state, f"version -> {state[0]!r}"
    if r < 0.8:
        state[2] = rng.choice([0.5, 1, "x", [], Raw("NaN"), Raw("Infinity"), 1e308, True, Raw("-1e999")])
        return state, f"gauss -> {str(state[2])[:20]!r}"
    new = rng.choice([None, [], {}, "x", 5, [3], [3, [], None], state + [1], [state[0], words], [3, words[:624], None],
                      {"version": 3}])
    return new, f"replaced by {str(new)[:30]!r}"


# what a person at a human seat may type (one answer a line)
HUMAN_ANSWERS = ["1", "2", "3", "1", "1", "2", "99", "0", "-1", "\u00b2", "1" * 5000, "?", "u", "u", "p", "h", "",
                 " 1 ", "1.0", "0x1", "\u0661", "1e3", "\x00", "\x1b[2J", "x" * 100_000, "help", "U", "P", "+1",
                 "\ud800", "q "]


def _human_case(rng: random.Random, files: dict, links: dict, what: list) -> bytes | None:
    """The answers of a human seat (None: it reads /dev/null); ``s`` saves to a file
    that may be a symbolic link into ``outside/`` (then ``files`` has the canary)."""
    if rng.random() < 0.2:
        what.append("a human seat reading nothing")
        return None
    save_to = rng.choice(["", "saved.json", "out/x.json", "\x00", "nope/x.json", "saved.json\x00x", ".", "s.json",
                          "x" * 5000, "/dev/null"])
    if rng.random() < 0.3:
        files["outside/canary.txt"] = b"the canary: nothing writes here\n"
        links["saved.json"] = rng.choice(["outside/canary.txt", "outside/saved.json"])
        save_to = "saved.json"
        what.append(f"saved.json -> {links['saved.json']}")
    answers = []
    for _ in range(rng.randint(1, 40)):
        a = rng.choice(HUMAN_ANSWERS + ["s"] * 2)
        answers += [a, save_to] if a == "s" else [a]
    if rng.random() < 0.5:
        answers.append("q")
    data = "\n".join(answers).encode("utf-8", "surrogatepass") + (b"\n" if rng.random() < 0.8 else b"")
    if rng.random() < 0.1:
        pos = rng.randint(0, len(data))
        data = data[:pos] + rng.choice([b"\xff", b"\xc3", b"\r", b"\x04"]) + data[pos:]
    what.append(f"a human seat answering {[a[:12] for a in answers][:12]!r}")
    return data


def _mutate_resume(rng: random.Random, holder: list) -> str | None:
    """One mutation of a saved game (``holder[0]``): its resume entry (history, where it
    stands, the generators' states, the position it began from) or its position."""
    doc = holder[0]
    if not isinstance(doc, dict):
        return None
    res = doc.get("resume")
    hist = res.get("history") if isinstance(res, dict) else None
    what = rng.choices(["history", "at", "rng", "agents", "from", "resume", "position"],
                       weights=[30, 10, 16, 7, 5, 5, 27])[0]
    if what == "history" and isinstance(hist, list):
        values = [h.get("value") for h in hist if isinstance(h, dict)]
        names = sorted({h.get("choice") for h in hist if isinstance(h, dict) and isinstance(h.get("choice"), str)})
        r = rng.random()
        i = rng.randrange(len(hist)) if hist else None
        if r < 0.14 and hist:
            del hist[i]
            return f"history: choice {i} removed"
        if r < 0.2 and len(hist) > 2:
            k = rng.randint(2, max(2, len(hist) // 3))
            for _ in range(k):
                del hist[rng.randrange(len(hist))]
            return f"history: {k} choices removed"
        if r < 0.32 and len(hist) > 1:
            j = i + 1 if rng.random() < 0.6 and i + 1 < len(hist) else rng.randrange(len(hist))
            if i == j:
                return None
            hist[i], hist[j] = hist[j], hist[i]
            return f"history: choices {i} and {j} swapped"
        if r < 0.4 and hist and isinstance(hist[i], dict):       # a value this choice had elsewhere
            same = [h.get("value") for h in hist if isinstance(h, dict) and h.get("choice") == hist[i].get("choice")
                    and h.get("value") != hist[i].get("value")]
            if not same:
                return None
            old, hist[i]["value"] = hist[i].get("value"), copy.deepcopy(rng.choice(same))
            return f"history[{i}].value: {str(old)[:20]!r} -> {str(hist[i]['value'])[:40]!r} (of another moment)"
        if r < 0.5 and hist and isinstance(hist[i], dict):
            old = hist[i].get("value")
            hist[i]["value"] = _value_payload(rng, values)
            return f"history[{i}].value: {str(old)[:20]!r} -> {str(hist[i]['value'])[:40]!r}"
        if r < 0.56 and hist and isinstance(hist[i], dict):
            hist[i]["seat"] = rng.choice(_SEAT_VALUES)
            return f"history[{i}].seat -> {str(hist[i]['seat'])[:20]!r}"
        if r < 0.62 and hist and isinstance(hist[i], dict):
            hist[i]["choice"] = rng.choice(names + ["", "nope", None, 1, [], "K", "k ", "x" * 5000])
            return f"history[{i}].choice -> {str(hist[i]['choice'])[:20]!r}"
        if r < 0.67 and hist:
            hist[i] = rng.choice([None, [], "x", 1, {}, [copy.deepcopy(hist[i])], _deep(rng)])
            return f"history[{i}] -> {str(hist[i])[:30]!r}"
        if r < 0.71 and hist and isinstance(hist[i], dict):
            key = rng.choice(["value", "choice", "seat"])
            hist[i].pop(key, None)
            return f"history[{i}]: no {key}"
        if r < 0.74 and hist and isinstance(hist[i], dict):
            hist[i][rng.choice(["options", "kind", "", "value "])] = rng.choice([5, "deal", None, _deep(rng)])
            return f"history[{i}]: a key added"
        if r < 0.79:
            k = rng.randint(0, len(hist))
            del hist[k:]
            return f"history cut to {k} choices"
        if r < 0.85 and hist:
            n = rng.choice([1, 10, 1000])
            at = rng.randint(0, len(hist))
            hist[at:at] = [copy.deepcopy(rng.choice(hist)) for _ in range(n)]
            return f"history: {n} choices inserted at {at}"
        if r < 0.88 and hist:
            hist.extend(copy.deepcopy(hist))
            return "history twice"
        if r < 0.9:
            hist.insert(rng.randint(0, len(hist)), {"seat": None, "choice": rng.choice(names or ["k"]),
                                                    "value": _value_payload(rng, values)})
            return "history: a choice by chance inserted"
        if r < 0.91:
            res["history"] = [{"seat": "p1", "choice": "k", "value": 0}] * rng.choice([200_000, 200_001])
            return f"history of {len(res['history'])} choices"
        res["history"] = rng.choice([None, {}, "x", 5, [hist], {"0": hist[:1]}, _deep(rng), True, [[]]])
        return f"history -> {str(res['history'])[:30]!r}"
    if what == "at" and isinstance(res, dict):
        n = len(hist) if isinstance(hist, list) else 0
        r = rng.random()
        if r < 0.2:                                   # as saved between two checkpoints (before a choice)
            k = rng.randint(0, n)
            if isinstance(hist, list):
                del hist[k:]
            res["at"] = {"choices": k}
            if rng.random() < 0.7:
                doc.pop("checkpoint", None)
            return f"saved before choice {k} (between checkpoints)"
        if r < 0.3:
            res.pop("at", None)
            return "at removed"
        res["at"] = rng.choice(["pick:2", "pick:99", "turn:1", "turn:5", "nope", "", "pick", "pick:3", "evaluation:1",
                                {"choices": n + 1}, {"choices": n - 1}, {"choices": 0}, {"choices": -1},
                                {"choices": 10 ** 30}, {"choices": "3"}, {"choices": None}, {}, None, 3, [], True,
                                {"choices": n, "x": 1}, doc.get("checkpoint"), _deep(rng)])
        return f"at -> {str(res['at'])[:30]!r}"
    if what == "rng" and isinstance(res, dict):
        if rng.random() < 0.15:
            res.pop("rng", None)
            return "rng removed"
        res["rng"], note = _rng_mutation(rng, res.get("rng"))
        return f"rng: {note}"
    if what == "agents" and isinstance(res, dict):
        agents = res.get("agents")
        r = rng.random()
        if isinstance(agents, dict) and agents and r < 0.45:
            k = rng.choice(sorted(agents))
            agents[k], note = _rng_mutation(rng, agents[k])
            return f"agents.{k}: {note}"
        if isinstance(agents, dict) and agents and r < 0.65:
            k = rng.choice(sorted(agents))
            new = rng.choice(["p9", "", "neutral", "P1", "jhay", "p1 ", "\ud800"])
            agents[new] = agents.pop(k)
            return f"agents: {k} -> {new!r}"
        if isinstance(agents, dict) and agents and r < 0.75:
            del agents[rng.choice(sorted(agents))]
            return "agents: one removed"
        res["agents"] = rng.choice([None, [], "x", {"p1": None}, {}, 5, {"p1": [3, [], None]}])
        return f"agents -> {str(res['agents'])[:30]!r}"
    if what == "from" and isinstance(res, dict):
        began = res.get("from")
        if isinstance(began, dict) and rng.random() < 0.6:
            r = rng.random()
            if r < 0.3 and isinstance(began.get("position"), dict) and began["position"]:
                k = rng.choice(sorted(began["position"]))
                del began["position"][k]
                return f"from.position: {k} removed"
            if r < 0.5 and isinstance(began.get("position"), dict):
                inner = [began["position"]]
                note = _mutate_json(rng, inner, sorted(set(_walk_strings(inner[0]))))
                began["position"] = inner[0]
                return f"from.position: {note}"
            k = rng.choice(["checkpoint", "seed", "position"])
            began[k] = rng.choice([None, 5, "1", 2 ** 63, -1, 10 ** 30, "pick:1", "nope:1", "turn:99", {}, [], 1.0])
            return f"from.{k} -> {began[k]!r}"
        res["from"] = rng.choice([None, {}, [], "x", {"checkpoint": doc.get("checkpoint"), "seed": 1, "position": {}},
                                  {"checkpoint": 5, "seed": "1", "position": []},
                                  {"checkpoint": "pick:1", "seed": 2 ** 64, "position": {"state": {}}},
                                  {"checkpoint": "nope:1", "seed": 1, "position": {"state": doc.get("state")}},
                                  {"checkpoint": doc.get("checkpoint"), "seed": 3,
                                   "position": {k: doc[k] for k in ("state", "per_seat") if k in doc}}])
        return f"from -> {str(res['from'])[:40]!r}"
    if what == "resume":
        r = rng.random()
        if r < 0.3:
            doc["resume"] = rng.choice([None, [], "x", 1, {}, True, _deep(rng)])
            return f"resume -> {str(doc['resume'])[:20]!r}"
        if r < 0.5:
            doc.pop("resume", None)
            return "resume removed (a position written by hand)"
        if isinstance(res, dict) and res and r < 0.8:
            k = rng.choice(sorted(res))
            del res[k]
            return f"resume.{k} removed"
        if isinstance(res, dict):
            res[rng.choice(["nope", "seed", "history ", "", "checkpoint"])] = _value_payload(rng, [])
            return "resume: a key added"
        return None
    # the position
    r = rng.random()
    keys = [k for k in doc if k != "resume"]
    if r < 0.22 and keys:
        often = {"checkpoints": 4, "state": 2, "per_seat": 2, "per_key": 2}
        k = rng.choices(keys, weights=[often.get(k, 1) for k in keys])[0]
        del doc[k]
        return f"{k} removed"
    if r < 0.32:
        if rng.random() < 0.6:                       # the position's sections taken out, the rest kept
            gone = rng.sample(["state", "per_seat", "per_key", "checkpoints"], rng.randint(2, 4))
            for k in gone:
                doc.pop(k, None)
            return f"nearly empty: no {', '.join(gone)}"
        keep = {"format", "resume"} | set(rng.sample(["seed", "mode", "spec", "checkpoint", "seats"], rng.randint(0, 3)))
        for k in list(doc):
            if k not in keep:
                del doc[k]
        return f"nearly empty: {', '.join(sorted(doc))}"
    if r < 0.44:
        doc["seed"] = rng.choice([doc.get("seed", 0) + 1 if type(doc.get("seed")) is int else 0, 0, -1, 2 ** 63,
                                  2 ** 64, 10 ** 30, "1", 1.0, None, True, Raw(TOO_MANY_DIGITS)])
        return f"seed -> {str(doc['seed'])[:20]!r}"
    if r < 0.52:
        doc["checkpoint"] = rng.choice(["pick:1", "pick:2", "pick:4", "turn:1", "turn:6", "nope:1", "pick", None, 5,
                                        "evaluation:1", "game_end:1", "pick:" + HUGE])
        return f"checkpoint -> {doc['checkpoint']!r}"
    if r < 0.58:
        doc["mode"] = rng.choice(["two_player", "solo", "nope", None, "kids", 3, "standard"])
        return f"mode -> {doc['mode']!r}"
    if r < 0.64 and isinstance(doc.get("seats"), list) and doc["seats"]:
        seats = doc["seats"]
        k = rng.random()
        if k < 0.4:
            del seats[rng.randrange(len(seats))]
            return "a seat removed"
        if k < 0.7:
            seats.append(copy.deepcopy(seats[-1]))
            if isinstance(seats[-1], dict):
                seats[-1]["name"] = rng.choice(["p5", "p1", "p9"])
            return "a seat added"
        rng.shuffle(seats)
        return "seats shuffled"
    if r < 0.68:
        doc["reports"] = rng.choice([{"score": {"p1": 3}}, {"x": 1}, [], None, {}])
        return f"reports -> {doc['reports']!r}"
    saved = doc.pop("resume", None)
    try:
        if rng.random() < 0.6:
            note = _gentle_json(rng, holder, DARWIN_SETTINGS if "darwin" in str(doc.get("spec")) else SAVANNA_SETTINGS)
        else:
            note = _mutate_json(rng, holder, sorted(set(_walk_strings(holder[0]))))
    finally:
        if saved is not None and isinstance(holder[0], dict):
            holder[0]["resume"] = saved
    return f"position: {note}" if note else None


def _mutate_log(rng: random.Random, lines: list[bytes]) -> str | None:
    """One mutation of a choices file (``lines``, bytes, changed in place)."""
    if not lines:
        lines.append(b"")
    chosen = [i for i, ln in enumerate(lines) if b'"choose"' in ln or b'"choice"' in ln] or list(range(len(lines)))

    def parsed(i):
        try:
            item = json.loads(lines[i])
        except (ValueError, RecursionError):        # (a line an earlier mutation nested deep)
            return None
        return item if isinstance(item, dict) else None

    def values():
        out = []
        for i in rng.sample(chosen, min(len(chosen), 20)):
            item = parsed(i)
            if item is not None and "value" in item:
                out.append(item["value"])
        return out

    what = rng.choices(["drop", "drop_many", "dup", "swap", "move", "value", "field", "key", "deep", "huge",
                        "utf8", "long", "structure", "pairs", "reverse"],
                       weights=[12, 4, 8, 10, 4, 16, 8, 6, 7, 6, 5, 4, 7, 3, 3])[0]
    i = rng.choice(chosen)
    if what == "drop":
        del lines[i]
        return f"line {i + 1} removed"
    if what == "drop_many":
        k = rng.randint(2, max(2, len(lines) // 4))
        for _ in range(min(k, len(lines))):
            del lines[rng.randrange(len(lines))]
        return f"{k} lines removed"
    if what == "dup":
        n = rng.choice([1, 1, 2, 50])
        lines[i:i] = [lines[i]] * n
        return f"line {i + 1} {n} more time(s)"
    if what == "swap":
        j = next((c for c in chosen if c > i), None) if rng.random() < 0.6 else rng.choice(chosen)
        if j is None or j == i:
            return None
        lines[i], lines[j] = lines[j], lines[i]
        return f"lines {i + 1} and {j + 1} swapped"
    if what == "move":
        line = lines.pop(i)
        j = rng.randint(0, len(lines))
        lines.insert(j, line)
        return f"line {i + 1} moved to {j + 1}"
    if what == "reverse":
        seat = (parsed(i) or {}).get("seat")
        idx = [k for k in chosen if (parsed(k) or {}).get("seat") == seat]
        got = [lines[k] for k in idx][::-1]
        for k, line in zip(idx, got):
            lines[k] = line
        return f"the lines of {seat!r} in reverse order"
    if what == "structure":
        r = rng.random()
        if r < 0.45:
            new = rng.choice([b"[]", b"1", b'"x"', b"null", b"{", b"}", b"", b"#", b"\x00", b"{}", b"# comment", b"  ",
                              b'{"kind": "resume"}', b'{"kind": "resume", "from": "x.json"}', b'{"seat": "p1"}',
                              b'{"seat": "p1", "choice": "k"}', b"{\"seat\": \"p1\", \"choice\": \"k\", \"value\": }",
                              b'{"seat": "p1", "choice": "k", "value": "lion"} trailing',
                              b'{"seat": "p1", "choice": "k", "value": NaN}', b"\xef\xbb\xbf{}", b"\x1a"])
            lines.insert(rng.randint(0, len(lines)), new)
            return f"line inserted: {new[:40]!r}"
        if r < 0.55:
            lines[0] = b"\xef\xbb\xbf" + lines[0]
            return "a byte order mark first"
        if r < 0.65:
            lines[:] = [ln + b"\r" for ln in lines]
            return "CRLF line ends"
        if r < 0.72:
            lines[:] = [b"\r".join(lines)]
            return "CR line ends"
        if r < 0.8:
            k = rng.randint(0, len(lines))
            del lines[k:]
            if lines and rng.random() < 0.7:
                lines[-1] = lines[-1][:rng.randint(0, len(lines[-1]))]
            return f"cut at line {k}"
        if r < 0.86:
            lines[:] = [b""]
            return "empty file"
        if r < 0.93:
            lines[:] = [b"# " + ln for ln in lines]
            return "every line a comment"
        lines[i] = b"    " + lines[i] + b"   "
        return "indented"
    item = parsed(i)
    if item is None:
        return None
    if what == "value":
        old = item.get("value")
        same = [x.get("value") for x in (parsed(k) for k in rng.sample(chosen, min(len(chosen), 60)))
                if x is not None and x.get("choice") == item.get("choice") and x.get("value") != old]
        if same and rng.random() < 0.4:              # a value this choice had at another moment
            item["value"] = rng.choice(same)
        else:
            item["value"] = _value_payload(rng, values())
        note = f"line {i + 1} value: {str(old)[:20]!r} -> {str(item['value'])[:40]!r}"
    elif what == "field":
        k = rng.choice(["seat", "choice", "kind"])
        item[k] = rng.choice(_SEAT_VALUES if k == "seat" else ["", "nope", None, 1, [], "K", "x" * 5000, "choose",
                                                               "resume", "deal", "spot", "k", "act"])
        note = f"line {i + 1} {k} -> {str(item[k])[:20]!r}"
    elif what == "key":
        k = rng.choice(sorted(item)) if item else "value"
        item.pop(k, None)
        note = f"line {i + 1}: no {k}"
    elif what == "deep":
        item["value"] = _deep(rng)
        note = f"line {i + 1} value nested {str(item['value'])[:12]!r}..."
    elif what == "huge":
        item["value"] = _huge(rng)
        note = f"line {i + 1} value -> {str(item['value'])[:30]!r}"
    elif what == "utf8":
        b = rng.choice([b"\xff", b"\xfe", b"\xc3", b"\xed\xa0\x80", b"\x80", b"\xe9", b"\xf4\x90\x80\x80", b"\xc0\xaf"])
        pos = rng.randint(0, len(lines[i]))
        lines[i] = lines[i][:pos] + b + lines[i][pos:]
        return f"line {i + 1}: bytes {b!r} at {pos}"
    elif what == "long":
        n = rng.choice([100_000, 1_000_000, 3_000_000])
        r = rng.random()
        if r < 0.4:
            item["value"] = "x" * n
        elif r < 0.6:
            item["value"] = [0] * (n // 4)
        elif r < 0.8:
            lines[i] = lines[i] + b" " * n
            return f"line {i + 1} with {n} spaces after"
        else:
            lines.insert(i, b"#" + b"x" * n)
            return f"a comment line of {n} characters"
        note = f"line {i + 1}: a value of about {n} characters"
    else:                                             # pairs: a key twice
        pairs = Pairs(item.items())
        pairs.insert(rng.randint(0, len(pairs)), (rng.choice(["value", "seat", "choice", "kind"]),
                                                  _value_payload(rng, values())))
        item = pairs
        note = f"line {i + 1}: a key twice"
    lines[i] = _dumps(item, indent=False).encode("utf-8", "surrogatepass")
    return note


# ====================================================================== catalogues, pages and links
# house rules' file names that would run as HTML (no "/": a file name)
HOUSE_NAMES = ["<img src=x onerror=alert(90)> [x](javascript:alert(91))", "<script>alert(92)<\u2215script>",
               "[x](javascript:alert(93))", "`` ` ``<img src=x onerror=alert(94)>", "\" onmouseover=\"alert(95)\" x=\"",
               "{: onclick=\"alert(96)\" }", "<!--><img src=x onerror=alert(97)>-->", "<svg onload=alert(98)>",
               "x](javascript:alert(99)) [y", "<details open ontoggle=alert(100)>", "' onfocus='alert(101)' autofocus '",
               "&#60;img src=x onerror=alert(102)&#62;", "{ #x onclick=alert(103) }"]


def _file_name_payload(rng: random.Random) -> str:
    """A payload that can be a file's name (no "/", no NUL, at most 200 bytes)."""
    name = rng.choice(HOUSE_NAMES) if rng.random() < 0.4 else _html_payload(rng, one_line=True)[:120]
    name = name.replace("/", "\u2215").replace("\0", "").replace("\n", " ")
    name = name.encode("utf-8", "surrogatepass")[:200].decode("utf-8", "ignore").strip()
    return name if name not in ("", ".", "..") else "x"


def _link_target(rel: str, target: str) -> str:
    """What the link ``rel`` holds to point at ``target``: a path of the work folder made
    relative to the link's folder; an absolute path, ``{work}/...``, ``.`` and ``..`` as
    they are."""
    if target.startswith(("/", "{work}", "hard:")) or target in (".", ".."):
        return target
    return os.path.relpath(target, os.path.dirname(rel) or ".")


def _payload_texts(rng: random.Random, text: str, k: int) -> tuple[str, list[str]]:
    """A spec's text with ``k`` payloads put in its doc comments, titles and table texts."""
    lines = text.split("\n")
    quoted = r'"(?:[^"\\\n]|\\.)*"'
    places = {
        "doc comment": [i for i, ln in enumerate(lines) if ln.lstrip().startswith("///")],
        "title": [i for i, ln in enumerate(lines)
                  if re.match(r"\s*(game|mode|example|property|section|query|variant)\b[^\"\n]*" + quoted, ln)],
        "table text": [i for i, ln in enumerate(lines) if "|" in ln and re.search(quoted + r"\s*$", ln)
                       and not ln.lstrip().startswith(("///", "#"))],
        "seat title": [i for i, ln in enumerate(lines) if re.match(r"\s*seats\s+\w+\s*:[^\n]*" + quoted, ln)],
        "message": [i for i, ln in enumerate(lines) if re.search(r"\belse\s+" + quoted, ln)],
    }
    places = {p: idx for p, idx in places.items() if idx}
    notes = []
    for _ in range(k if places else 0):
        place = rng.choice(sorted(places))
        i = rng.choice(places[place])
        if place == "doc comment":
            payload = _html_payload(rng, one_line=True)
            if rng.random() < 0.5:
                lines[i] = lines[i].rstrip() + " " + payload
            else:
                lines[i] = lines[i][:lines[i].index("///") + 3] + " " + payload
        else:
            payload = _html_payload(rng)
            if place == "message":              # (a message is a template: no braces of its own)
                payload = payload.replace("{", "(").replace("}", ")")
            matches = list(re.finditer(quoted, lines[i]))
            m = matches[0] if place == "title" else rng.choice(matches) if place == "seat title" else matches[-1]
            lines[i] = lines[i][:m.start()] + _spec_quoted(payload) + lines[i][m.end():]
        notes.append(f"{place} at line {i + 1}: {payload[:80]!r}")
    return "\n".join(lines), notes


def _payload_catalogue(rng: random.Random, base: bytes, what: list[str]) -> bytes:
    """A catalogue whose translations (some, or every one) are payloads."""
    import polib
    po = polib.pofile(base.decode("utf-8"), wrapwidth=0)
    entries = [e for e in po if not e.obsolete]
    chosen = entries if rng.random() < 0.3 else rng.sample(entries, min(len(entries), rng.randint(1, 12)))
    for e in chosen:
        e.msgstr = _html_payload(rng) + rng.choice(["", " " + e.msgid])
        e.flags = [f for f in e.flags if f != "fuzzy"]
    what.append(f"fr.po: {len(chosen)} translation(s) payloads")
    return str(po).encode("utf-8", "surrogatepass")


def _payload_pieces(rng: random.Random, what: list[str], name: str) -> bytes:
    """Tiny's piece table as a CSV file whose labels are payloads."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["name", "family", "count", "label"])
    for row, family, count in (("rock", "terrain", 6), ("grass", "terrain", 8), ("goat", "animal", 6)):
        label = _html_payload(rng) if rng.random() < 0.7 else row.title()
        writer.writerow([row, family, count, label])
        what.append(f"{name} {row}: {label[:60]!r}")
    return buf.getvalue().encode("utf-8", "surrogatepass")


def _mutate_po(rng: random.Random, blocks: list[str], op: str) -> str | None:
    """One mutation of a catalogue's text (``blocks``: its entries, separated by blank
    lines; the first is the header)."""
    if not blocks:
        blocks.append('msgid ""\nmsgstr ""')
    entries = [i for i, b in enumerate(blocks) if "msgctxt" in b] or list(range(len(blocks)))
    i = rng.choice(entries)
    lines = blocks[i].split("\n")
    j = rng.randrange(len(lines))
    if op == "syntax":
        r = rng.random()
        if r < 0.2 and '"' in lines[j]:
            k = rng.choice([m.start() for m in re.finditer('"', lines[j])])
            lines[j] = lines[j][:k] + lines[j][k + 1:]
            note = f"a quote taken out of {lines[j][:40]!r}"
        elif r < 0.35:
            note = f"line {lines[j][:40]!r} removed"
            del lines[j]
        elif r < 0.5:
            new = rng.choice(["msgd", "msgstr[0]", "msgctx", "msgid_plural", "msgstr", "msgid", "msgctxt", "MSGSTR", "#"])
            lines[j] = re.sub(r"^(msgid|msgstr|msgctxt)", new, lines[j])
            note = f"a keyword -> {new}"
        elif r < 0.7:
            g = rng.choice(PO_GARBAGE)
            lines.insert(rng.randint(0, len(lines)), g)
            note = f"line inserted: {g[:40]!r}"
        elif r < 0.82:
            k = lines[j].rfind('"')
            esc = rng.choice(["\\q", "\\x41", "\\777", "\\", "\\N", "\\u00e9", "\\0", "\\a\\b\\f\\v", "\\U0001F981"])
            if k > 0:
                lines[j] = lines[j][:k] + esc + lines[j][k:]
            note = f"escape {esc!r} in {lines[j][:40]!r}"
        elif r < 0.9 and i + 1 < len(blocks):
            blocks[i + 1] = "\n".join(lines) + "\n" + blocks[i + 1]
            del blocks[i]
            return f"entries {i} and {i + 1} run together"
        elif r < 0.95:
            rng.shuffle(lines)
            note = f"entry {i}: lines shuffled"
        else:
            cut = rng.randint(0, len(blocks))
            del blocks[cut:]
            if blocks:
                blocks[-1] = blocks[-1][:rng.randint(0, len(blocks[-1]))]
            return f"cut at entry {cut}"
        blocks[i] = "\n".join(lines)
        return note
    if op == "charset":
        r = rng.random()
        head = blocks[0]
        if r < 0.6:
            c = rng.choice(CHARSETS)
            blocks[0] = re.sub(r"charset=[^\\\"]*", "charset=" + c.replace("\\", "\\\\").replace('"', '\\"'), head)
            return f"charset={c[:30]!r}"
        if r < 0.72:
            blocks[0] = "\n".join(ln for ln in head.split("\n") if "Content-Type" not in ln)
            return "no Content-Type"
        if r < 0.82:
            del blocks[0]
            return "no header"
        if r < 0.9:
            blocks.insert(1, head.replace("UTF-8", rng.choice(["ISO-8859-1", "UTF-8"])))
            return "the header twice"
        blocks[0] = head.replace('"Content-Type', '"Content-Type: text/plain; charset=latin-1\\n"\n"Content-Type', 1)
        return "Content-Type twice"
    if op == "payload":
        chosen = rng.sample(entries, min(len(entries), rng.choice([1, 2, 5, 50])))
        shown = []
        for k in chosen:
            text = _html_payload(rng) if rng.random() < 0.6 else rng.choice(CONTROL_TEXTS)
            raw = rng.random() < 0.3                # control characters as they are, not escaped
            q = ('"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"') if raw \
                else _po_quoted(text)
            blocks[k] = re.sub(r'(?ms)^msgstr .*?(?=^#|^msg|\Z)', lambda m: "msgstr " + q + "\n", blocks[k], count=1)
            shown.append(text[:30])
        return f"{len(chosen)} translation(s) -> payloads such as {shown[0]!r}"
    if op == "context":
        r = rng.random()
        ctx = re.search(r'^msgctxt .*$', blocks[i], re.M)
        if r < 0.35:
            other = re.sub(r'(?m)^msgstr .*$', 'msgstr ' + _po_quoted(_html_payload(rng, one_line=True)), blocks[i])
            blocks.insert(rng.randint(1, len(blocks)), other)
            return f"entry {i} twice (its msgctxt twice)"
        if r < 0.6 and ctx:
            k = rng.choice(entries)
            other = re.search(r'^msgctxt .*$', blocks[k], re.M)
            if other:
                blocks[i] = blocks[i].replace(ctx.group(0), other.group(0), 1)
                return f"entry {i} takes the msgctxt of entry {k}"
            return None
        if r < 0.75 and ctx:
            blocks[i] = blocks[i].replace(ctx.group(0) + "\n", "", 1)
            return f"entry {i}: no msgctxt"
        if ctx:
            new = rng.choice(['msgctxt ""', 'msgctxt "x"', 'msgctxt "' + "x" * 10_000 + '"', 'msgctxt "\\n"',
                              "msgctxt " + _po_quoted(_html_payload(rng))])
            blocks[i] = blocks[i].replace(ctx.group(0), new, 1)
            return f"entry {i}: {new[:30]}"
        return None
    if op == "stale":
        r = rng.random()
        if r < 0.3:
            blocks[i] = re.sub(r'(?m)^msgid "', 'msgid "changed ', blocks[i], count=1)
            return f"entry {i}: its msgid changed"
        if r < 0.5:
            blocks[i] = "#, fuzzy\n" + blocks[i] if "fuzzy" not in blocks[i] else blocks[i].replace("#, fuzzy\n", "")
            return f"entry {i}: fuzzy flipped"
        if r < 0.65:
            blocks[i] = '#| msgid "old"\n' + blocks[i]
            return f"entry {i}: a previous msgid"
        if r < 0.85:
            blocks[i] = "\n".join("#~ " + ln for ln in blocks[i].split("\n"))
            return f"entry {i} obsolete"
        blocks[i] = re.sub(r'(?ms)^msgstr .*?(?=^#|^msg|\Z)',
                           'msgid_plural "xs"\nmsgstr[0] "a"\nmsgstr[1] "b"\n', blocks[i], count=1)
        return f"entry {i}: plural forms"
    if op == "metadata":
        line = rng.choice(['"Language: xx\\n"', '"Plural-Forms: nplurals=x; plural=__import__(\'os\')\\n"',
                           '"nocolon\\n"', '"X-' + "x" * 50_000 + ': y\\n"', '"Language: \\n"', '": x\\n"',
                           '"Content-Type: text/html\\n"', '"Language: ' + _html_payload(rng, True).replace('"', "'")
                           + '\\n"'])
        blocks[0] = blocks[0] + "\n" + line
        return f"header line {line[:40]!r}"
    # huge
    r = rng.random()
    if r < 0.4:
        n = rng.choice([100_000, 1_000_000, 3_000_000])
        blocks[i] = re.sub(r'(?ms)^msgstr .*?(?=^#|^msg|\Z)', lambda m: 'msgstr "' + "x" * n + '"\n', blocks[i], count=1)
        return f"entry {i}: a translation of {n} characters"
    if r < 0.65:
        n = rng.choice([1000, 20_000])
        blocks[i + 1:i + 1] = [blocks[i]] * n
        return f"entry {i} {n} more times"
    if r < 0.8:
        blocks.append("# " + "x" * 9_000_000)
        return "a comment of 9 MB (past 8 MiB)"
    blocks[i] = blocks[i] + "\n" + '"x"\n' * 100_000
    return f"entry {i}: 100000 continuation lines"


def _po_bytes(rng: random.Random, data: bytes, r: float) -> tuple[bytes, str]:
    """A catalogue's bytes made other than UTF-8 text."""
    if r < 0.35:
        b = rng.choice([b"\xff", b"\xe9", b"\xc3", b"\xed\xa0\x80", b"\x80", b"\x00", b"\xfe\xff", b"\xc0\xaf"])
        pos = rng.randint(0, len(data))
        return data[:pos] + b + data[pos:], f"bytes {b!r} at byte {pos}"
    if r < 0.55:
        text = data.decode("utf-8", "replace")
        out = text.encode("latin-1", "replace")
        if rng.random() < 0.5:
            out = out.replace(b"charset=UTF-8", b"charset=ISO-8859-1")
            return out, "Latin-1 (and said so)"
        return out, "Latin-1"
    if r < 0.65:
        return data.decode("utf-8", "replace").encode("utf-16"), "UTF-16"
    if r < 0.75:
        return b"\xef\xbb\xbf" + data, "a byte order mark first"
    if r < 0.85:
        return data.replace(b"\n", b"\r\n" if rng.random() < 0.5 else b"\r"), "CR line ends"
    if r < 0.92:
        return data[:rng.randint(0, len(data))], "cut short"
    return b"", "empty"


# ====================================================================== a command to look at one input
def recheck(findings: Path) -> int:
    """Run each saved crash input again on the code as it is now: still failing (and
    its crash class now), or not."""
    runner = make_runner()
    still = 0
    scratch = Path(tempfile.mkdtemp(prefix="rulewright-recheck-"))
    try:
        for folder in sorted(p for p in findings.iterdir() if (p / "argv.json").is_file()):
            argv = json.loads((folder / "argv.json").read_text())
            work = scratch / "input"
            shutil.rmtree(work, ignore_errors=True)
            shutil.copytree(folder / "input", work, symlinks=True)
            check = check_from(json.loads((folder / "check.json").read_text())) \
                if (folder / "check.json").is_file() else None
            if hasattr(check, "before"):
                check.before(work)
            stdin = (folder / "stdin.bin").read_bytes() if (folder / "stdin.bin").is_file() else None
            outcome = runner.run(argv, work, BOUND, stdin)
            reason = failure_of(outcome)
            if reason is None and check is not None:
                reason = check(work)
            now = crash_class(outcome, reason, Run(argv))[0] if reason else f"ok now (exit {outcome.code})"
            still += bool(reason)
            print(f"{folder.name}: {reason or 'no failure'}; {now}")
    finally:
        runner.close()
        shutil.rmtree(scratch, ignore_errors=True)
    return 1 if still else 0



def main(argv: list[str]) -> int:
    if argv[:1] == ["--serve"]:
        cpu = next((int(a.split("=", 1)[1]) for a in argv if a.startswith("--cpu=")), None)
        _serve(cpu)
        return 0
    if argv[:1] == ["--recheck"] and len(argv) == 2:
        return recheck(Path(argv[1]))
    if len(argv) != 2 or argv[0] not in CATEGORIES:
        print(f"usage: python tests/fuzzing.py {{{','.join(CATEGORIES)}}} SEED\n"
              f"       python tests/fuzzing.py --recheck FINDINGS_FOLDER", file=sys.stderr)
        return 2
    fuzzer = Fuzzer(keep=True)
    try:
        case, results = fuzzer.run_one(argv[0], int(argv[1]))
        print(f"{case.category} seed {case.seed}: {'; '.join(case.what)[:2000]}")
        for run, outcome, reason in results:
            print(f"$ rulewright {' '.join(_shell_quote(a) for a in run.argv)[:500]}")
            print(f"  exit {outcome.code} in {outcome.seconds:.2f} s{' HUNG' if outcome.hung else ''}: "
                  f"{reason or 'ok'}")
            for ln in outcome.err.splitlines()[-8:]:
                print("  | " + ln[:300])
        print(f"(the folder: {fuzzer.work})")
    finally:
        fuzzer.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
