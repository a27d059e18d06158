"""Start-up: the command line alone loads nothing heavy, and what the cache keeps between
runs (a checked program, the vetted and compiled code of its generated module) is used
only when it was made from exactly what is there now.

* ``rulewright --version`` and ``--help`` load no compiler front end, networkx, Lark,
  OR-Tools or rich;
* a spec loaded again is read back, not resolved again; a changed file (a .rules file, a
  table, a new file in the spec's folder) loads afresh; a damaged entry is passed over;
* a program's generated code is vetted and compiled once: read back after, never when
  its entry was made for another source or damaged, never through a link; code the
  vetting refuses is never kept.
"""
from __future__ import annotations

import json
import marshal
import os
import subprocess
import sys
from importlib.util import MAGIC_NUMBER
from pathlib import Path

import pytest

from rulewright.compiler import cache, load
from rulewright.compiler.interpret import Interpreter, codecache

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("networkx", "lark", "ortools", "rich", "rulewright.compiler.resolve", "rulewright.compiler.syntax.ast",
         "rulewright.compiler.interpret", "rulewright.compiler.loader", "rulewright.solver")


@pytest.fixture
def fresh_cache(tmp_path, monkeypatch):
    """A cache directory of the test's own (``RULEWRIGHT_CACHE``)."""
    where = tmp_path / "cache"
    monkeypatch.setenv("RULEWRIGHT_CACHE", str(where))
    cache.directory.cache_clear()
    yield where
    cache.directory.cache_clear()


def _loaded_by(argv: list[str]) -> tuple[subprocess.CompletedProcess, list[str]]:
    """The command run in a new Python, and the heavy modules it loaded."""
    script = ("import json, sys\n"
              "from rulewright.command import main\n"
              "try:\n"
              f"    code = main({argv!r})\n"
              "except SystemExit as exc:\n"
              "    code = exc.code\n"
              "print(json.dumps([m for m in sys.modules if m.split('.')[0] in ('networkx', 'lark', 'ortools', 'rich')"
              " or m.startswith(('rulewright.compiler.', 'rulewright.solver'))]), file=sys.stderr)\n"
              "sys.exit(code)\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120)
    loaded = json.loads(done.stderr.strip().splitlines()[-1])
    return done, [m for m in loaded if m.startswith(HEAVY)]


@pytest.mark.parametrize("argv", [["--version"], ["--help"], ["score", "--help"], ["query", "--help"]])
def test_the_command_line_alone_loads_nothing_heavy(argv):
    done, heavy = _loaded_by(argv)
    assert done.returncode == 0
    assert heavy == [], f"rulewright {' '.join(argv)} loaded {heavy}"


def test_help_is_the_same_as_the_command_prints():
    done, _ = _loaded_by(["--help"])
    command = subprocess.run([sys.executable, "-m", "rulewright", "--help"], cwd=ROOT, capture_output=True,
                             text=True, timeout=120)
    assert command.returncode == 0 and done.stdout == command.stdout
    assert "Board-game rules as code." in done.stdout and "check" in done.stdout


def test_the_workbench_opens_without_loading_the_solver(tmp_path):
    """The workbench's page and its first answer (what may be opened, the names of the
    checks) load no OR-Tools, networkx or Lark: the page is there before a solver is."""
    script = ("import json, sys\n"
              "from starlette.testclient import TestClient\n"
              "from rulewright.web.server import make_app\n"
              f"with TestClient(make_app({str(tmp_path / 'ws')!r}, hosts=('testserver',))) as c:\n"
              "    assert c.get('/').status_code == 200\n"
              "    answer = c.get('/api/library')\n"
              "    assert answer.status_code == 200 and 'differs' in answer.json()['checks'], answer.text\n"
              "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in ('networkx', 'lark', 'ortools'))))\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1]) == []


# ------------------------------------------------------------------ the program kept
SPEC = """game tiny "Tiny"
table gem (worth: int) from "gems.csv"
/// The answer.
def answer [T-1] = {value} + sum(g.worth for g in gem)
check some_gems: size(gem) > 0 else "some gems"
"""


def tiny(folder: Path, value: int = 40, rows=("ruby,1", "opal,1")) -> Path:
    folder.mkdir(exist_ok=True)
    (folder / "tiny.rules").write_text(SPEC.format(value=value))
    (folder / "gems.csv").write_text("name,worth\n" + "\n".join(rows) + "\n")
    return folder


def answer_of(program) -> int:
    return Interpreter(program).evaluate(program.funcs["answer"].body, {})


@pytest.fixture
def no_resolving(monkeypatch):
    """Resolving, from now on, fails the test: what loads comes from the cache."""
    from rulewright.compiler import resolve

    def refuse(*args, **kwargs):
        raise AssertionError("resolved again")
    monkeypatch.setattr(resolve, "Resolver", refuse)


def test_a_spec_loaded_again_is_read_back(tmp_path, fresh_cache, monkeypatch):
    spec = tiny(tmp_path / "tiny")
    first = load(spec)
    assert answer_of(first) == 42
    assert len(list(fresh_cache.glob("program-*.pickle"))) == 1
    from rulewright.compiler import resolve
    monkeypatch.setattr(resolve, "Resolver", lambda *a, **k: pytest.fail("resolved again"))
    again = load(spec)
    assert again is not first and answer_of(again) == 42
    assert again.title == first.title and list(again.funcs) == list(first.funcs)


@pytest.mark.parametrize("change", ["rules", "table", "new file", "other settings"])
def test_a_spec_whose_files_changed_loads_afresh(tmp_path, fresh_cache, change):
    spec = tiny(tmp_path / "tiny")
    assert answer_of(load(spec)) == 42
    if change == "rules":
        tiny(spec, value=50)
        wanted = 52
    elif change == "table":
        tiny(spec, rows=("ruby,1", "opal,7"))
        wanted = 48
    elif change == "new file":
        (spec / "more.rules").write_text("/// More.\ndef more [T-2] = 1\n")
        wanted = 42
    else:
        (spec / "tiny.rules").write_text(SPEC.format(value=40) + "switch big [T-3]: bool = false\n"
                                         "/// Extra.\ndef extra [T-4] = if big then 1 else 0\n")
        assert load(spec).constants["big"] is False
        assert load(spec, {"big": "true"}).constants["big"] is True
        assert load(spec).constants["big"] is False
        return
    program = load(spec)
    assert answer_of(program) == wanted
    assert ("more" in program.funcs) == (change == "new file")


def test_a_damaged_program_entry_is_passed_over(tmp_path, fresh_cache):
    spec = tiny(tmp_path / "tiny")
    assert answer_of(load(spec)) == 42
    for entry in fresh_cache.glob("program-*.pickle"):
        entry.write_bytes(entry.read_bytes()[:200] + b"damaged")
    assert answer_of(load(spec)) == 42


def test_a_kept_spec_still_shows_its_lines_in_errors(tmp_path, fresh_cache):
    """A program read back registers its files' texts, as a parsed one does: a run-time
    error later shows the line of the rule."""
    from rulewright.compiler import diagnostics
    spec = tiny(tmp_path / "tiny")
    load(spec)
    diagnostics._SOURCES.clear()
    diagnostics._LINES.clear()
    program = load(spec)
    span = program.definitions["answer"].name_span
    assert "def answer [T-1]" in diagnostics.source_line(span.file, span.line)


# ------------------------------------------------------------------ the code kept
SOURCE = "def f_answer():\n    return 41 + 1\n"


@pytest.fixture
def vetting(monkeypatch):
    """The sources vetted, from now on."""
    seen = []
    real = codecache.vetted

    def counted(source, where, *rest):
        seen.append(source)
        return real(source, where, *rest)
    monkeypatch.setattr(codecache, "vetted", counted)
    return seen


def run(code) -> int:
    ns: dict = {}
    exec(code, ns)      # noqa: S102 - the test's own code
    return ns["f_answer"]()


def test_code_is_vetted_and_compiled_once(fresh_cache, vetting):
    assert run(codecache.compiled(SOURCE, "<rules tiny>")) == 42
    assert len(vetting) == 1 and len(list(fresh_cache.glob("code-*.marshal"))) == 1
    assert run(codecache.compiled(SOURCE, "<rules tiny>")) == 42
    assert len(vetting) == 1
    # another source, or the same under another name, is another entry
    codecache.compiled(SOURCE.replace("41", "40"), "<rules tiny>")
    codecache.compiled(SOURCE, "<rules other>")
    assert len(vetting) == 3 and len(list(fresh_cache.glob("code-*.marshal"))) == 3


def test_an_interpreter_reuses_the_kept_code(tmp_path, fresh_cache, vetting):
    program = load(tiny(tmp_path / "tiny"))         # (its checks run: one interpreter)
    Interpreter(program)
    assert len(vetting) == 1
    assert answer_of(load(tiny(tmp_path / "tiny"))) == 42
    assert len(vetting) == 1, "the module was vetted again"


def test_a_tampered_entry_is_not_used(fresh_cache, vetting):
    codecache.compiled(SOURCE, "<rules tiny>")
    [entry] = fresh_cache.glob("code-*.marshal")
    data = entry.read_bytes()
    header = len(codecache._HEADER) + len(MAGIC_NUMBER) + 64     # (what it is made from, the code's hash)
    assert marshal.loads(data[header:]).co_filename == "<rules tiny>"
    # other code in place of the kept one (compiled, never vetted), the header left as it was
    other = marshal.dumps(compile("def f_answer():\n    return 666\n", "<rules tiny>", "exec"))
    entry.write_bytes(data[:header] + other)
    assert run(codecache.compiled(SOURCE, "<rules tiny>")) == 42
    assert len(vetting) == 2            # vetted again, not read back
    entry.write_bytes(b"not code")
    assert run(codecache.compiled(SOURCE, "<rules tiny>")) == 42
    assert len(vetting) == 3


def test_an_entry_made_for_another_source_is_not_used(fresh_cache, vetting):
    """An entry copied in place of another (same file name, another source's code and
    header, whole and well formed) is not read back: the header says what it was made from."""
    codecache.compiled("def f_answer():\n    return 666\n", "<rules tiny>")
    [theirs] = fresh_cache.glob("code-*.marshal")
    codecache.compiled(SOURCE, "<rules tiny>")
    [mine] = [e for e in fresh_cache.glob("code-*.marshal") if e != theirs]
    mine.write_bytes(theirs.read_bytes())
    assert run(codecache.compiled(SOURCE, "<rules tiny>")) == 42
    assert len(vetting) == 3


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links")
def test_an_entry_behind_a_link_is_not_read(tmp_path, fresh_cache, vetting):
    codecache.compiled(SOURCE, "<rules tiny>")
    [entry] = fresh_cache.glob("code-*.marshal")
    elsewhere = tmp_path / "elsewhere.marshal"
    entry.rename(elsewhere)
    entry.symlink_to(elsewhere)
    assert run(codecache.compiled(SOURCE, "<rules tiny>")) == 42
    assert len(vetting) == 2
    assert elsewhere.read_bytes() and entry.is_symlink()     # (not written through the link either)


def test_refused_code_is_never_kept(fresh_cache):
    with pytest.raises(RuntimeError, match="generated code refused"):
        codecache.compiled("def f_answer():\n    return __import__('os')\n", "<rules tiny>")
    assert not list(fresh_cache.glob("code-*.marshal"))
