"""Opening: a spec with the settings, table files and variants a user gave; a state file
under the rules its game was played with (its variants, settings and tables, unless the
user said otherwise). Both faces open through here, so a saved game reads the same from
the command line and from Python.

In:  a ``Request`` (the spec and what the user gave with it, and the face's spelling);
     a state file's path.
Out: a checked program (``open_spec``); an ``Opened`` position: the program it is read
     under, the state, the file's document and the request as the file completed it
     (``open_position``). Warnings go to the ``warn`` given (the command line prints
     them on standard error as they come; the API keeps them).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable

from rulewright.compiler import files, load
from rulewright.compiler.diagnostics import NEUTRAL, BadInputError, Diagnostic, RulesError, Span, Spelling
from rulewright.compiler.interpret import Interpreter


@dataclass(frozen=True)
class Request:
    """A spec and what the user gave with it: ``settings`` (switch or param name -> its
    value as written), ``tables`` (table name -> file), ``cards`` (the file of the table
    a spec loads with the ``cards`` option), ``variants`` (more variant files), and the
    ``spelling`` of the face the user works through (errors name these things so)."""
    spec: str
    settings: dict[str, str] = field(default_factory=dict)
    tables: dict[str, str] = field(default_factory=dict)
    cards: str | None = None
    variants: tuple[str, ...] = ()
    spelling: Spelling = NEUTRAL

    @property
    def options(self) -> dict[str, str]:
        return {"cards": self.cards} if self.cards else {}


def open_spec(req: Request, settings: dict[str, str] | None = None, spec: str | None = None):
    """The checked program of ``req`` (with ``settings`` in place of its own, when given;
    another ``spec`` with the same settings, tables and variants, when given). When the
    spec loads without the user's own tables and settings but not with them, the error is
    theirs: a bad input (exit 2), not a spec error."""
    path = spec if spec is not None else req.spec
    sets = req.settings if settings is None else settings
    sp = req.spelling
    try:
        return load(path, sets, req.tables, req.options, variants=req.variants, spelling=sp)
    except RulesError as exc:
        if isinstance(exc, BadInputError) or not (req.tables or req.options or sets):
            raise
        try:
            load(path, variants=req.variants, spelling=sp)
        except RulesError:
            raise exc from None
        # the spec loads without the user's own tables and settings: they are at fault
        raise BadInputError(exc.diagnostics) from None


@dataclass
class Opened:
    """A position read from a state file: the program it is read under, the game state,
    the file's document and text, and the request as the file completed it (the variants
    and tables the game was played with, when the user named none)."""
    program: Any
    state: Any
    doc: dict
    text: str
    request: Request


def _to_stderr(message: str) -> None:
    import sys                  # (the command line's default: a warning as it comes)
    print(message, file=sys.stderr)


def open_position(req: Request, path: str, program=None,
                  warn: Callable[[str], None] = _to_stderr) -> Opened:
    """The state file ``path`` read under the rules its game was played with: its
    variants (when ``req`` names the base spec only), its switches, params and tables
    (unless ``req`` gives them). When the spec cannot be loaded with those, the error is
    the state file's, at the entry that names them. ``program``: ``req``'s, when already
    opened. Warnings (other rules than the game's; invariants the position breaks) go to
    ``warn``."""
    from rulewright.compiler.play import state_io      # (lazy: scoring grids needs no state file)
    doc, text = state_io.read_document(path)
    given = dict(req.settings)
    sp = req.spelling
    program = program or open_spec(req)
    state_io.of_this_game(program, path, doc, text)
    # the variants the game was played under, when the request names the base spec only
    saved_variants = doc.get("variants", [])
    if not isinstance(saved_variants, list) or any(not isinstance(v, str) for v in saved_variants):
        message = "variants is a list of variant files (leave it out for none)"
        span = state_io.locate(path, text, ("variants",))
        raise BadInputError(Diagnostic(span, message) if span else f"{path}: {message}")
    saved_variants = [_beside(path, v) for v in saved_variants]
    _within_allowed(req, path, text, [(("variants", i), raw, v) for i, (raw, v) in
                                      enumerate(zip(doc.get("variants", []), saved_variants))])
    if saved_variants and not program.variants:
        missing = [i for i, v in enumerate(saved_variants) if not _exists(v)]
        if missing:
            message = (f"the game was played under the variant {json.dumps(doc['variants'][missing[0]])[:200]}, "
                       "which is not there any more")
            hint = f"name the variant to use ({sp.of_variant('FILE')})"
            span = state_io.locate(path, text, ("variants", missing[0]))
            raise BadInputError(Diagnostic(span, message, hint) if span else f"{path}: {message} ({hint})")
        req = replace(req, variants=tuple(saved_variants))

        def a_variant_fails_alone() -> bool:
            """A saved variant that does not compile even alone, at a line of its own
            file: a spec error (exit 1), not the position's."""
            for v in saved_variants:
                try:
                    load(req.spec, given, variants=[v], spelling=sp)
                except RulesError as exc:
                    if any(d.span.line > 0 and same_file(d.span.file, v) for d in exc.diagnostics):
                        return True
            return False
        entries = [(("variants", i), Path(v).stem, v) for i, v in enumerate(saved_variants)]
        with _FromPosition(path, text, "variants", entries, sp.of_variant(""), sp, a_variant_fails_alone):
            program = open_spec(req, given)
    other_rules = None          # the rules the game was played under, when not those it is read under
    if not saved_variants and program.variants:
        other_rules = "the base rules"
        warn(f"warning: {path}: the game was played under the base rules, and this command applies "
             f"{shown(v.path for v in program.variants)}: the position is read under those rules")
    elif saved_variants and program.variants:
        here = [str(files.real(v.path)) for v in program.variants]
        then = [str(files.real(v)) for v in saved_variants]
        if sorted(here) != sorted(then):
            other_rules = shown(saved_variants)
            warn(f"warning: {path}: the game was played under {other_rules}, and this "
                 f"command applies {shown(v.path for v in program.variants)} instead: the position is "
                 "read under those rules (name the base spec to read it under the rules it was played with)")
    # the switches, params and tables the game was played with, unless the request says otherwise
    saved = {k: v for k, v in state_io.saved_settings(program, path, doc, text).items() if k not in given}
    changed = {k: v for k, v in saved.items()
               if v != (json.dumps(program.constants[k]) if isinstance(program.constants[k], bool)
                        else str(program.constants[k]))}
    tables = doc.get("tables") or {}
    if tables and not req.cards and not req.tables:
        # a path written relative (by hand) is relative to the state file, as 'extends' is to its file
        if not isinstance(tables, dict) or any(not isinstance(v, str) for v in tables.values()):
            message = "tables maps a table's name to its file (leave it out for the game's own tables)"
            span = state_io.locate(path, text, ("tables",))
            raise BadInputError(Diagnostic(span, message) if span else f"{path}: {message}")
        _within_allowed(req, path, text, [(("tables", k), v, _beside(path, v)) for k, v in tables.items()])
        req = replace(req, tables={k: _beside(path, v) for k, v in tables.items()})
    else:
        tables = {}
    if changed or tables:
        entries = [(("switches" if k in program.switches else "params", k), k, None) for k in changed] + \
            [(("tables", k), k, v) for k, v in tables.items()]
        with _FromPosition(path, text, "tables" if tables and not changed else "settings", entries,
                           sp.table + ":", sp):
            program = open_spec(req, {**given, **changed})
    try:
        state = state_io.load(Interpreter(program), path, doc, text)
    except BadInputError as exc:
        if other_rules is None or not any(d.hint and d.hint.startswith(state_io.NOT_ALLOWED) for d in exc.diagnostics):
            raise
        # a position the rules it is read under do not allow: most likely those rules,
        # not the file, are what differs (a variant that adds what the game never had)
        hint = (f"the game was played under {other_rules}, and is read under "
                f"{', '.join(v.path for v in program.variants)}, whose positions differ: read it under the rules "
                "it was played with (name the base spec alone), or mend the file")
        raise BadInputError([replace(d, hint=hint) if d.hint and d.hint.startswith(state_io.NOT_ALLOWED) else d
                             for d in exc.diagnostics]) from None
    for warning in state.warnings:      # invariants "else warn": the position is read all the same
        warn(warning.render())
    return Opened(program, state, doc, text, req)


class _FromPosition:
    """Errors of a spec loaded with what a position file names (its variants, switches,
    params or tables) are that file's: one error at the entry the error names (by its
    file, path or name; else the first), the spec's own errors as notes, and exit 2.
    ``entries``: (path in the document, name, file or None). ``prefix``: how the loader's
    messages begin for what is given (taken off). ``own_fault``, when given and true once
    the error is known, says the error is the spec's own (a variant file that does not
    compile even alone): then it stays as it is."""

    def __init__(self, path: str, text: str, what: str, entries: list, prefix: str, spelling: Spelling,
                 own_fault=None):
        self.path, self.text, self.what, self.entries = path, text, what, entries
        self.prefix, self.spelling, self.own_fault = prefix.strip(), spelling, own_fault

    def __enter__(self):
        return self

    def _names(self, entry, diags) -> int:
        """How surely the errors name an entry: 3 at a line of its file, 2 by its file's
        path, 1 by its name, 0 not at all."""
        where, name, file = entry
        said = " ".join(f"{d.message} {d.hint or ''}" for d in diags)
        if file and any(d.span.line > 0 and same_file(d.span.file, file) for d in diags):
            return 3
        if file and file in said:
            return 2
        return 1 if name and f"'{name}'" in said else 0

    def __exit__(self, kind, exc, tb):
        from rulewright.compiler.play.state_io import locate, path_text     # (lazy: see open_position)
        if not isinstance(exc, RulesError):
            return False
        if self.own_fault is not None and self.own_fault():
            return False
        scores = [self._names(e, exc.diagnostics) for e in self.entries]
        named = [e for s, e in sorted(zip(scores, self.entries), key=lambda x: -x[0]) if s > 0]
        blank = [e for e in self.entries if e[2] is not None and not e[2].strip()]
        where = (named or blank or self.entries[:1] or [((self.what,), None, None)])[0][0]
        span = locate(self.path, self.text, where) or Span(self.path, 1, 1, 1, 2)
        inner = [d.message.removeprefix(self.prefix).lstrip(": ").lstrip()
                 for d in exc.diagnostics if d.span.line <= 0]
        notes = tuple((d.span, d.message) for d in exc.diagnostics if d.span.line > 0)
        word = {"variants": "variants", "tables": "tables"}.get(self.what, "switches, params and tables")
        message = f"{path_text(where)}: the spec cannot be loaded with the {word} this position was saved with" + \
            (": " + "; ".join(inner) if inner else "")
        raise BadInputError(Diagnostic(span, message, "mend the file, or " + self.spelling.instead,
                                       notes=notes)) from None


def _within_allowed(req: Request, path: str, text: str, entries) -> None:
    """The files a state file names (variants, tables) lie in the allowed folders: the
    folder trees of the state file and of the spec and variants the user named, the
    folders allowed besides (``files.allow``) and the games rulewright ships."""
    from rulewright.compiler.play import state_io      # (lazy: see open_position)
    named = [path, req.spec, *req.variants]
    roots = files.allowed([files.tree_of(p) for p in named if p and Path(p).exists()])
    for entry, written, target in entries:
        if files.inside(Path(target), roots):
            continue
        message = (f"'{written}' leads outside the allowed folders (the folder trees of the state file "
                   "and of the spec, and --root)")
        span = state_io.locate(path, text, entry)
        raise BadInputError(Diagnostic(span, message, files.refusal_hint()) if span else
                            f"{path}: {message} ({files.refusal_hint()})")


def _exists(path: str) -> bool:
    """Whether a file is there (a name the system cannot look up is not)."""
    try:
        return Path(path).exists()
    except (OSError, ValueError):
        return False


def _beside(state: str, path: str) -> str:
    """A path a state file names: as it is when absolute, else relative to the file."""
    return path if not path or Path(path).is_absolute() else str(Path(state).parent / path)


def shown(paths) -> str:
    """Variant files as one spelling each: relative to the working directory when
    inside it, else absolute; one file named twice (two spellings) shown once."""
    out = []
    for p in paths:
        full = files.real(p)
        try:
            text = str(full.relative_to(Path.cwd().resolve()))
        except ValueError:
            text = str(full)
        if text not in out:
            out.append(text)
    return ", ".join(out)


def same_file(a: str, b: str) -> bool:
    try:
        return files.real(a) == files.real(b)
    except OSError:
        return False
