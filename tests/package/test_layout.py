"""The house: imports run one way (compiler <- solver <- command line), no cycle between
modules, no import inside a function unless it is a commented lazy import, every package
folder installed, and no module over the size a reader can hold."""
from __future__ import annotations

import ast
import functools
import re
import tomllib
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parents[1]
while not (ROOT / "pyproject.toml").is_file():      # (wherever this file is filed)
    ROOT = ROOT.parent
FOLDERS = {"rulewright.compiler": ROOT / "compiler", "rulewright.solver": ROOT / "solver",
           "rulewright": ROOT / "rulewright"}
MOST_LINES = 850
# (on one worker: every module is parsed once for all of them)
pytestmark = pytest.mark.xdist_group("layout")


def _modules() -> dict[str, Path]:
    found = {}
    for prefix, folder in FOLDERS.items():
        for path in folder.rglob("*.py"):
            rel = path.relative_to(folder).with_suffix("")
            parts = [p for p in rel.parts if p != "__init__"]
            name = ".".join([prefix, *parts])
            if prefix == "rulewright" and parts and parts[0] in ("compiler", "solver"):
                continue
            found[name] = path
    return found


MODULES = _modules()


def _absolute(module: str, node: ast.ImportFrom, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[:len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


@functools.cache
def _imports(name: str, path: Path, top_level_only: bool) -> tuple:
    """(imported module, line, inside a function) for each import of a module (read once
    for the tests of this file)."""
    return tuple(_each_import(name, path, top_level_only))


@functools.cache
def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def _each_import(name: str, path: Path, top_level_only: bool):
    for node, inner in _import_nodes(_tree(path)):
        if top_level_only and inner:
            continue
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        else:
            base = _absolute(name, node, path.name == "__init__.py")
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]
        for t in targets:
            yield t, node.lineno, inner


def _import_nodes(tree: ast.Module) -> list:
    """(import statement, inside a function) for each import of a module that is not under
    an ``if TYPE_CHECKING:``, found in one walk of the tree."""
    found = []

    def visit(node, inner: bool):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                found.append((child, inner))
            elif isinstance(child, ast.If) and any(
                    getattr(x, "id", getattr(x, "attr", None)) == "TYPE_CHECKING" for x in ast.walk(child.test)):
                continue
            else:
                visit(child, inner or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)))
    visit(tree, False)
    return found


def _graph() -> nx.DiGraph:
    g = nx.DiGraph()
    for name, path in MODULES.items():
        g.add_node(name)
        for target, _, _ in _imports(name, path, top_level_only=True):
            while target and target not in MODULES:
                target = target.rpartition(".")[0]
            if target and target != name:
                g.add_edge(name, target)
    return g


def test_the_layout_holds_the_stages():
    for folder in ("compiler/syntax", "compiler/semantics", "compiler/resolve", "compiler/interpret",
                   "compiler/variants", "compiler/play", "compiler/docgen", "solver/encode", "rulewright/app",
                   "rulewright/cli"):
        assert (ROOT / folder / "__init__.py").is_file(), folder
    assert (ROOT / "compiler" / "syntax" / "grammar.lark").is_file()


def test_imports_run_one_way():
    """compiler/ never imports solver/, the application or its faces; solver/ never imports
    the application or its faces; the application (rulewright/app) never imports a face
    (the command line, the API) and loads the solver only lazily; the command line never
    imports the API nor the API the command line (both are faces over the application)."""
    faces = ("rulewright.cli", "rulewright.api")
    for name, path in MODULES.items():
        for target, line, lazy in _imports(name, path, top_level_only=False):
            where = f"{path.relative_to(ROOT)}:{line} imports {target}"
            if name.startswith("rulewright.compiler"):
                assert not target.startswith(("rulewright.solver", "rulewright.app", *faces, "ortools")), where
            if name.startswith("rulewright.solver"):
                assert not target.startswith(("rulewright.app", *faces)), where
            if name.startswith("rulewright.app"):
                assert not target.startswith(faces), where
                assert lazy or not target.startswith(("rulewright.solver", "ortools")), where
            if name.startswith("rulewright.cli"):
                assert not target.startswith("rulewright.api"), where
            if name == "rulewright.api":
                assert not target.startswith("rulewright.cli"), where


def test_no_cycle_between_modules():
    g = _graph()
    # a package's __init__ re-exporting its own modules is not a cycle of the pipeline
    for a, b in list(g.edges):
        if b.startswith(a + ".") and MODULES[a].name == "__init__.py":
            g.remove_edge(a, b)
    cycles = list(nx.simple_cycles(g))
    assert not cycles, " ; ".join(" -> ".join(c + [c[0]]) for c in cycles[:5])


def test_an_import_inside_a_function_is_a_commented_lazy_one():
    """No import inside a function dodges a cycle: the few that load a heavy part late
    (OR-Tools, the whole front end) say why on their line or the line above."""
    for name, path in MODULES.items():
        lines = path.read_text(encoding="utf-8").splitlines()
        for target, line, inside in _imports(name, path, top_level_only=False):
            if inside:
                said = "#" in lines[line - 1] or lines[line - 2].strip().startswith("#")
                assert said, f"{path.relative_to(ROOT)}:{line}: an import inside a function ({target}) with no reason given"


def test_every_package_folder_is_installed():
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    for name, path in MODULES.items():
        if path.name == "__init__.py":
            assert name in listed, f"{name} is missing from pyproject.toml's packages"


def test_no_module_is_too_long_to_read():
    for name, path in MODULES.items():
        n = len(path.read_text(encoding="utf-8").splitlines())
        assert n <= MOST_LINES, f"{path.relative_to(ROOT)} has {n} lines (split it by pass, at most {MOST_LINES})"


def test_every_module_says_what_goes_in_and_out():
    for name, path in MODULES.items():
        doc = ast.get_docstring(_tree(path))
        assert doc and len(doc) > 20, f"{path.relative_to(ROOT)} has no docstring"


def test_the_stage_diagram_names_modules_that_exist():
    doc = ast.get_docstring(ast.parse((ROOT / "compiler" / "__init__.py").read_text()))
    for written in set(re.findall(r"([a-z_]+(?:/[a-z_]+)*\.py)", doc)):
        candidates = [ROOT / "compiler" / written, ROOT / written]
        assert any(c.is_file() for c in candidates), f"compiler/__init__.py names {written}, which is not there"


def test_no_file_holds_a_merge_conflict_marker():
    """A merge left half done shows as '<<<<<<<' lines: none in the sources, specs and docs."""
    import subprocess
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    if not files:
        pytest.skip("not a git checkout")
    marked = []
    for name in files:
        path = ROOT / name
        if path.suffix not in (".py", ".md", ".rules", ".lark", ".toml", ".yml", ".po", ".html", ".css", ".js"):
            continue
        for i, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if line.startswith(("<<<<<<< ", ">>>>>>> ")):
                marked.append(f"{name}:{i}")
    assert not marked
