"""Spec path -> checked program: the whole front end in one call.

In:  a spec directory (every ``*.rules`` file directly in it, in name order) or
     one ``.rules`` file, and optional overrides of switches and params.
Out: an ``ir.Program``; any problem raises a ``RulesError`` with spans.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from .build_ast import build
from .diagnostics import BadInputError, RulesError, SpecSyntaxError
from .parse import parse_text
from .resolve import Resolver


def spec_files(path: str | Path) -> list[Path]:
    p = Path(path)
    if p.is_dir():
        files = sorted(f for f in p.glob("*.rules") if f.is_file())
        if not files:
            raise BadInputError(f"{p}: no .rules files in this directory")
        return files
    if p.is_file():
        return [p]
    raise BadInputError(f"{p}: no such spec file or directory")


def parse_files(files: list[Path]):
    out, errors = [], []
    for f in files:
        try:
            text = f.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise BadInputError(f"{f}: cannot read: {exc}") from None
        try:
            out.append(build(parse_text(text, str(f)), str(f)))
        except SpecSyntaxError as exc:
            errors.extend(exc.diagnostics)
    if errors:
        raise SpecSyntaxError(errors)
    return out


def load(path: str | Path, overrides: dict[str, Any] | None = None,
         tables: dict[str, str] | None = None, options: dict[str, str] | None = None):
    """``tables`` replaces the file of a table read ``from "file.csv"`` by name;
    ``options`` does the same by the option the table declares (``option cards``
    makes ``--cards FILE``). Every ``check`` of the spec then runs on what was read."""
    from . import ast as A
    from .checks import run_checks
    from .diagnostics import did_you_mean
    files = spec_files(path)
    asts = parse_files(files)
    from_files = {d.name: d for f in asts for d in f.definitions
                  if isinstance(d, A.Table) and d.source is not None}
    chosen = dict(tables or {})
    for name in chosen:
        if name not in from_files:
            hint = did_you_mean(name, from_files) or (
                "tables read from files: " + ", ".join(from_files) if from_files else
                "this spec reads no table from a file")
            raise BadInputError(f"--table: no table '{name}' read from a file in {path} ({hint})")
    by_option = {d.option: d.name for d in from_files.values() if d.option}
    for opt, file in (options or {}).items():
        if opt not in by_option:
            hint = ("its tables from files: " + ", ".join(from_files) + "; use --table NAME=FILE"
                    if from_files else "this spec reads no table from a file")
            raise BadInputError(f"--{opt}: {path} declares no table loaded with --{opt} ({hint})")
        chosen[by_option[opt]] = file
    program = Resolver(asts, str(path), overrides, chosen).run()
    run_checks(program)
    return program
