"""Helpers shared by the tests, imported as ``from helpers import ...`` (pytest puts
``tests/`` on the path; fixtures stay in ``conftest.py``).

The repository root, the Savanna spec with its interpreter, boards written as rows of
letters, paths as a spec or state file writes them, the Darwin's Choice spec and
tables built like the rulebook's examples, small spec files written to a folder.
"""
from __future__ import annotations

import copy
import io
import json
import os
import sys
import tempfile
import traceback
import warnings
from pathlib import Path
from typing import NamedTuple

from rulewright.cli import main
from rulewright.compiler import load
from rulewright.compiler.interpret import Interpreter
from rulewright.compiler.semantics import runtime as rt

ROOT = Path(__file__).resolve().parent.parent
SAVANNA = ROOT / "spec" / "ecosystem_savanna"

LETTERS = {"W": "water", "P": "prairie", "T": "tree", "G": "gazelle", "Z": "zebra", "F": "giraffe",
           "C": "cheetah", "L": "lion", "E": "elephant", "H": "hyena", "V": "vulture", ".": None,
           "R": "rhino"}            # the card spec/house_rules/savanna_rhinos.rules adds


def separate_cache() -> str:
    """A cache folder for the commands of tests that must not touch the user's cache (their
    own process or the ones they start): the run's own (``RULEWRIGHT_RUN_CACHE``, made and
    deleted by tests/conftest.py), else, when the person running the tests named a cache
    of their own, one per user in the system's temporary folder, shared by the tests and by
    runs (its entries are keyed by what they were made from, like every cache folder), so
    that each command does not compile every spec again."""
    return os.environ.get("RULEWRIGHT_RUN_CACHE") or \
        str(Path(tempfile.gettempdir()) / f"rulewright-test-cache-{os.getuid()}")


def benchmark_script(name: str):
    """A script of benchmarks/ loaded as a module (its ``main`` not run)."""
    import importlib.util
    path = ROOT / "benchmarks" / f"{name}.py"
    loaded = importlib.util.spec_from_file_location(f"{name}_benchmark", path)
    module = importlib.util.module_from_spec(loaded)
    loaded.loader.exec_module(module)
    return module


def run_main(capsys, *argv) -> tuple[int, str, str]:
    """The command line run in this process: (exit code, standard output, standard error);
    an internal error or a traceback fails the test."""
    capsys.readouterr()
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "internal error" not in err and "Traceback" not in err, err
    return code, out, err


class Ran(NamedTuple):
    """What a command did: unpacks as ``(code, out, err)``, reads as a completed process."""
    returncode: int
    stdout: str
    stderr: str


def run_command(*argv, cwd=None, env: dict | None = None, stdin: str | bytes = b"") -> Ran:
    """``python -m rulewright ARGV`` run in this process, as it runs in a process of its own:
    the entry point (``rulewright.command.main``), in the folder ``cwd`` (default: this
    one), with ``env`` set in the environment (a value None: unset), ``stdin`` as
    standard input (default: empty), standard output and standard error written to
    files through file descriptors 1 and 2 (what native code writes there too) with the
    encodings of a command whose output is a pipe here (UTF-8; standard error escapes
    what it cannot encode), and read back as ``subprocess.run(..., text=True)`` reads
    them (universal newlines). A traceback that escapes is printed to standard error
    (exit 1), ``SystemExit`` gives its code, and a Python warning is printed there under
    a new process's filters, as the interpreter would. The disk cache's
    folder is found again when ``env`` may move it; the interpreters the command built
    are forgotten after it, as a process ends."""
    from rulewright.command import main as entry_point
    from rulewright.compiler import cache
    from rulewright.compiler.interpret import interpreter as interpreter_module
    data = stdin.encode() if isinstance(stdin, str) else stdin
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    saved_streams = sys.stdin, sys.stdout, sys.stderr
    saved_fds = {fd: os.dup(fd) for fd in (1, 2)}
    files = {fd: tempfile.TemporaryFile() for fd in (1, 2)}
    saved_env = {k: os.environ.get(k) for k in env or {}}
    saved_cwd = os.getcwd()
    interpreters = dict(interpreter_module._INTERPRETERS)
    moves_cache = bool(set(env or {}) & {"RULEWRIGHT_CACHE", "XDG_CACHE_HOME", "HOME"})
    code = 1
    try:
        for k, v in (env or {}).items():
            _setenv(k, v)
        if moves_cache:
            cache.directory.cache_clear()
        if cwd is not None:
            os.chdir(cwd)
        for fd, f in files.items():
            os.dup2(f.fileno(), fd)
        sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="surrogateescape")
        sys.stdout = open(1, "w", encoding="utf-8", errors="surrogateescape", closefd=False)
        sys.stderr = open(2, "w", buffering=1, encoding="utf-8", errors="backslashreplace", closefd=False)
        try:
            with warnings.catch_warnings():     # Python's own filters, printed on standard error
                warnings.resetwarnings()
                for category, action, module in _DEFAULT_WARNINGS:
                    warnings.filterwarnings(action, category=category, module=module)
                code = entry_point([str(a) for a in argv])
        except SystemExit as exc:
            if exc.code is None or isinstance(exc.code, int):
                code = exc.code or 0
            else:
                print(exc.code, file=sys.stderr)
                code = 1
        except BaseException:       # noqa: BLE001 - as the interpreter ends on it: a traceback, exit 1
            traceback.print_exc()
            code = 1
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        sys.stdin, sys.stdout, sys.stderr = saved_streams
        for fd, saved in saved_fds.items():
            os.dup2(saved, fd)
            os.close(saved)
        os.chdir(saved_cwd)
        for k, v in saved_env.items():
            _setenv(k, v)
        if moves_cache:
            cache.directory.cache_clear()
        interpreter_module._INTERPRETERS.clear()
        interpreter_module._INTERPRETERS.update(interpreters)
    out, err = (_read_text(files[fd]) for fd in (1, 2))
    return Ran(code, out, err)


# A new process's warning filters (Python 3.11, no -W or PYTHONWARNINGS), the last first.
_DEFAULT_WARNINGS = ((ResourceWarning, "ignore", ""), (ImportWarning, "ignore", ""),
                     (PendingDeprecationWarning, "ignore", ""), (DeprecationWarning, "ignore", ""),
                     (DeprecationWarning, "default", "__main__"))


def _setenv(name: str, value) -> None:
    if value is None:
        os.environ.pop(name, None)
    else:
        os.environ[name] = str(value)


def _read_text(f) -> str:
    """A file's bytes as ``subprocess.run(..., text=True)`` reads a pipe (UTF-8, universal newlines)."""
    with f:
        f.seek(0)
        return io.TextIOWrapper(io.BytesIO(f.read()), encoding="utf-8", newline=None).read()


# Margot's ecosystem of examples/partial.grid with every free cell filled but one: a
# best-placement on it has one spot to weigh, so the query answers in a moment (on the
# four free cells of examples/partial.grid, proving the best takes the solver seconds).
ONE_FREE_GRID = ("prairie  prairie prairie zebra    elephant\n"
                 "giraffe  lion    gazelle tree     elephant\n"
                 "tree     cheetah gazelle giraffe  water\n"
                 "elephant elephant gazelle water   .\n")


def one_free_grid(folder) -> str:
    """``ONE_FREE_GRID`` written to ``folder/one_free.grid``: its path."""
    path = Path(folder) / "one_free.grid"
    path.write_text(ONE_FREE_GRID, encoding="utf-8")
    return str(path)


def rel(target, folder) -> str:
    """How a file in ``folder`` names ``target`` (relative to the checkout when not
    absolute): a relative path, as paths written in specs and state files are."""
    t = Path(target)
    t = t if t.is_absolute() else ROOT / t
    return os.path.relpath(t.resolve(), Path(folder).resolve())


_CACHE: dict = {}


def savanna(variant: str | None = None, **overrides):
    """The Savanna spec (or one of its variants, by name) with switches set."""
    key = (variant,) + tuple(sorted(overrides.items()))
    if key not in _CACHE:
        path = SAVANNA / "variants" / f"{variant}.rules" if variant else SAVANNA
        program = load(path, {k: str(v).lower() if isinstance(v, bool) else str(v)
                              for k, v in overrides.items()})
        _CACHE[key] = (program, Interpreter(program))
    return _CACHE[key]


def grid(interp, text: str):
    """A board from rows of letters (W P T G Z F C L E H V, '.' for a free cell)."""
    rows = [[LETTERS[x] for x in line.split()] for line in text.strip().splitlines()]
    return interp.board(rows)


def score(interp, text_or_board, rivals=(), **kw):
    board = grid(interp, text_or_board) if isinstance(text_or_board, str) else text_or_board
    return interp.call("score", board, tuple(rivals), **kw)


# ---------------------------------------------------------------- Darwin's Choice

_DC_CACHE: dict = {}


def dc(**overrides):
    """The Darwin's Choice interpreter, with switches and params set."""
    key = tuple(sorted(overrides.items()))
    if key not in _DC_CACHE:
        program = load(ROOT / "spec" / "darwins_choice", {k: str(v) for k, v in overrides.items()})
        _DC_CACHE[key] = Interpreter(program)
    return _DC_CACHE[key]


def table_state(interp, biomes: dict, species: list[dict], players=2, event=None):
    """A Darwin's Choice table like the rulebook examples: biomes in play and species on them."""
    seats = [rt.Seat(i, f"p{i + 1}", "player", f"Player {i + 1}") for i in range(players)]
    st = interp.new_state(seats, seed=1)
    st.shared["in_play"] = tuple(biomes)
    for c, b in biomes.items():
        st.per["biome_card"][c] = b
    st.shared["current_event"] = event
    world = []
    for i, sp in enumerate(species, start=1):
        world.append(interp.record("species", id=i, owner=seats[sp.get("owner", 0)], home=sp["home"],
                                   cards=tuple(sp["cards"]), dp=sp.get("dp", 0), acted=False, plants=0,
                                   meat=0, prey=0))
    st.shared["world"] = tuple(world)
    st.shared["next_id"] = len(world) + 1
    return st


_DC_PROGRAMS: dict = {}
_DC_BASES: dict = {}


def darwin_program(**overrides):
    """The Darwin's Choice program, with switches and params set."""
    key = tuple(sorted(overrides.items()))
    if key not in _DC_PROGRAMS:
        _DC_PROGRAMS[key] = load(ROOT / "spec" / "darwins_choice", {k: str(v) for k, v in overrides.items()})
    return _DC_PROGRAMS[key]


def darwin_base(seed: int, turn: int) -> dict:
    """The state document of a seeded four-player game at its turn-th turn, where
    player 1, whom the tests ask about, has not passed."""
    from rulewright.compiler.play import state_io
    from rulewright.solver.queries import interpreter_for      # OR-Tools, loaded late
    if (seed, turn) not in _DC_BASES:
        prog = darwin_program()
        played = interpreter_for(prog).play("standard", 4, seed, stop_at=f"turn:{turn}")
        _DC_BASES[seed, turn] = state_io.dump(played, seed=seed)
        _DC_BASES[seed, turn]["per_seat"]["passed"]["p1"] = False
    return copy.deepcopy(_DC_BASES[seed, turn])


def darwin_position(doc: dict, prog=None):
    """A Darwin's Choice position read from its state document (under ``prog``)."""
    from rulewright.compiler.play import state_io
    from rulewright.solver.queries import interpreter_for
    prog = prog or darwin_program()
    return state_io.load(interpreter_for(prog), "<test>", doc, json.dumps(doc))


# ---------------------------------------------------------------- small specs

def spec(tmp_path: Path, text: str, name: str = "t.rules") -> Path:
    """A spec (or variant) file ``name`` with ``text``, written in ``tmp_path``."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# A small game of tiles: its cards, a 2 x 2 grid and its scoring (TILES), and a game of two
# rounds in which each seat picks a tile (TILES_PLAY): what tests of whole commands write
TILES = """
game tiles "Tiles"
enum colour { red, green, blue }
grid board: 2 by 2 of colour
def worth(c: colour) = if c == red then 2 else if c == green then 1 else 0
scoring points(g: board) {
  step tiles = sum(worth(g[x]) for x in cells(g) if g[x] != none)
}
"""
TILES_PLAY = """
state { placed: int }
procedure turn(p: seat) {
  choose c in colour by p
  set placed = placed + worth(c)
  checkpoint turn_end
}
mode standard "Standard" players 1..2 {
  seats players
  repeat 2 { for p in players { do turn(p) } }
  report placed = placed
}
"""


def check_golden(stage: str, name: str, text: str, update: bool) -> None:
    """``text`` is the golden file ``tests/golden/STAGE/NAME`` (rewritten with --update-golden)."""
    path = ROOT / "tests" / "golden" / stage / name
    if update or not path.exists():
        path.write_text(text)
    assert text == path.read_text(), f"{name} changed; rerun with --update-golden and review"


def same_as_baseline(fast, plain, name: str, *args) -> None:
    """``fast.call(name, *args)`` gives what ``plain.call`` gives (two interpreters of one
    program, the speed-ups on and off): the same value, or a rules error with the same text."""
    from rulewright.compiler.diagnostics import RuntimeRulesError
    try:
        want = plain.call(name, *args)
    except RuntimeRulesError as e:
        try:
            fast.call(name, *args)
        except RuntimeRulesError as got:
            assert str(got) == str(e), (name, args)
            return
        raise AssertionError(f"{name}{args}: the baseline fails ({e}), the fast interpreter does not")
    assert fast.call(name, *args) == want, (name, args)


def child_forked_holding(lock, action) -> None:
    """Fork while ``lock`` is held (as another thread of the parent may hold it), and check
    that the child can run ``action`` (true when it did what it should) within 20 seconds:
    a lock the child inherits held would hold it for ever."""
    import os
    import time
    with lock:
        pid = os.fork()
        if pid == 0:                    # the child: the action, then out at once
            code = 1
            try:
                code = 0 if action() else 1
            finally:
                os._exit(code)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            assert os.waitstatus_to_exitcode(status) == 0
            return
        time.sleep(0.05)
    os.kill(pid, 9)
    os.waitpid(pid, 0)
    raise AssertionError("the forked child did not finish: the lock was held for ever there")
