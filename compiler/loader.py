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


def load(path: str | Path, overrides: dict[str, Any] | None = None):
    files = spec_files(path)
    asts = parse_files(files)
    return Resolver(asts, str(path), overrides).run()
