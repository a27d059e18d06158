"""Spec path -> checked program: the whole front end in one call.

In:  a spec directory (every ``*.rules`` file directly in it, in name order) or
     one ``.rules`` file, and optional overrides of switches and params.
Out: an ``ir.Program``; any problem raises a ``RulesError`` with spans.

A checked program is kept in the cache (``cache``) with what it was made from: the
text of each ``.rules`` file and its kept syntax tree, the ``.rules`` files of each
spec folder, each table file, the position files of its examples, each one's real
path (links followed). A later load with the same command line, working folder and
allowed folders reads those files again and, when every one is as it was, returns the
program kept, parsing, resolving and checking nothing (``_Kept``).
"""
from __future__ import annotations

import io
import os
import re
from pathlib import Path
from typing import Any

from rulewright.compiler import cache, diagnostics, files
from rulewright.compiler.diagnostics import (NEUTRAL, BadInputError, Spelling, Diagnostic, ResolveError, Span, SpecSyntaxError,
                                             did_you_mean, register_source)
from rulewright.compiler.play.inputs import decoded
from rulewright.compiler.syntax import ast as A
# (the parser, the variants, the resolver and the checks load when a spec is not kept)


def spec_files(path: str | Path) -> list[Path]:
    p = Path(path)
    if p.is_dir():
        files = sorted(f for f in p.glob("*.rules") if f.is_file())
        if not files:
            raise BadInputError(f"{p}: no .rules files in this directory")
        return files
    if p.is_file():
        if p.suffix.lower() in (".csv", ".json", ".grid", ".cards", ".md", ".txt"):
            raise BadInputError(f"{p}: a {p.suffix[1:].upper()} file, not a spec: a spec is a directory of "
                                ".rules files or one .rules file")
        return [p]
    raise BadInputError(f"{p}: no such spec file or directory")


_GAME_LINE = re.compile(r"^\s*game\s+[a-z]", re.M)


def _not_one_file_of_a_folder(p: Path) -> None:
    """One file of a spec that is a folder (its folder holds exactly one game line,
    and other files that are neither specs nor variants) is not a spec: one message
    saying so, not an error per name it uses."""
    if not p.is_file() or p.suffix != ".rules":
        return

    def read(f: Path) -> str:
        try:
            return files.read_bytes(f).decode("utf-8", errors="replace")
        except BadInputError:       # not a plain file: read as a spec later, and refused then
            return ""

    def variant(text: str) -> bool:
        return re.search(r"^\s*variant\s", text, re.M) is not None
    text = read(p)
    if variant(text):
        return
    texts = {f: read(f) for f in sorted(p.parent.glob("*.rules")) if f != p}
    games = [f for f, t in texts.items() if _GAME_LINE.search(t)]
    parts = [f for f, t in texts.items() if not _GAME_LINE.search(t) and not variant(t)]
    if _GAME_LINE.search(text):
        if not games and parts:         # the folder's one game line, and the rest of its spec beside it
            raise BadInputError(f"{p}: the game line of the spec in {p.parent} (with {parts[0].name} and "
                                f"{len(parts) - 1} more file(s)), not a spec of its own: give the folder, {p.parent}")
    elif len(games) == 1:
        raise BadInputError(f"{p}: one file of the spec in {p.parent} (its game line is in {games[0].name}), "
                            f"not a spec of its own: give the folder, {p.parent}")


def _shown(p: Path) -> str:
    """A path as messages show it: relative to the working directory when inside it."""
    p = files.real(p)
    try:
        return str(p.relative_to(Path.cwd()))
    except ValueError:
        return str(p)


class _Specs:
    """Parsed files, each read once: bases (directories or single files) and variants.

    ``roots``: the allowed folders, where a file read and an ``extends`` may lead. Made
    without them, the allowed folders are those of the command line (``files.allowed``)
    and a file is read in the folder tree it lies in (``files.tree_of`` its folder: not
    through a symbolic link out of it), as ``check FOLDER`` reads each file below FOLDER."""

    def __init__(self, roots: list[Path] | None = None):
        self.parsed: dict[Path, object] = {}
        self.own_tree = roots is None
        self.roots = roots if roots is not None else files.allowed()   # where 'extends' may lead
        # what was read, for the program kept in the cache: each file's name as read ->
        # (its text, the hash of its kept syntax tree); each spec folder -> its .rules files
        self.read: dict[str, tuple[str, str | None]] = {}
        self.listed: dict[str, list[str]] = {}
        # the paths an extends looked for first and did not find (it named a shipped spec)
        self.absent: list[str] = []

    def file(self, f: Path):
        key = files.real(f)
        roots = self.roots + [files.tree_of(f.parent)] if self.own_tree else self.roots
        if not files.inside(key, roots):
            raise BadInputError(f"{_shown(f)}: a symbolic link that leads outside the allowed folders "
                                f"({files.refusal_hint()})")
        if key not in self.parsed:
            self.parsed[key] = parse_files([Path(_shown(key))], self.read)[0]
        return self.parsed[key]

    def is_variant(self, p: Path) -> bool:
        return p.is_file() and p.suffix == ".rules" and self.file(p).variant is not None

    def base(self, p: Path):
        """The base files of a spec directory (its variant files left out) or one file."""
        files, errors = [], []
        found = spec_files(p)
        if p.is_dir():
            self.listed[str(p)] = [f.name for f in found]
        for f in found:
            try:
                files.append(self.file(f))
            except SpecSyntaxError as exc:
                errors.extend(exc.diagnostics)
        if errors:
            raise SpecSyntaxError(errors)
        base = [f for f in files if f.variant is None]
        if not base:
            raise BadInputError(f"{_shown(p)}: this directory holds only variant files; name one of them "
                                f"(or check them all with 'rulewright check {_shown(p)}')")
        return base

    def extended(self, key: Path, head) -> Path:
        """What the variant file ``key`` (its variant line ``head``) extends: the path
        written, relative to the file, when it is there (it must lie in the allowed
        folders); else the shipped spec of that name (``files.shipped``); else a
        located error naming both what was looked for, with a close name if any.

        In:  the variant file's real path; its ``A.VariantHead`` (``extends``, ``extends_span``).
        Out: the path of the base spec folder or variant file it extends."""
        written = head.extends
        target = key.parent / written
        why = files.refusal(written, target, self.roots)
        if _there(target):
            if why is not None:
                spec = target.suffix == ".rules" if target.is_file() else any(target.glob("*.rules"))
                folder = _shown(files.tree_of(target)) if spec and not Path(written).is_absolute() \
                    and not written.startswith("~") else None     # (never --root for what is no spec)
                raise ResolveError(Diagnostic(head.extends_span, why, files.refusal_hint(folder)))
            return target
        named = files.shipped(written)
        if named is not None:
            self.absent.append(str(target))     # (a folder or file made there later wins)
            return named
        if why is not None:
            raise ResolveError(Diagnostic(head.extends_span, why, files.refusal_hint()))
        local = [q.name for q in target.parent.iterdir()] if target.parent.is_dir() else []
        names = files.shipped_names()
        near = did_you_mean(target.name, local) or \
            (did_you_mean(written.rstrip("/").removesuffix(".rules"), names) if files.is_name(written) else None)
        looked = (f"no '{written}' relative to {_shown(key.parent)}, nor a shipped game, version or house "
                  f"rule of that name (in {_shown(files.LIBRARY)})"
                  if files.is_name(written) else f"no '{written}' relative to {_shown(key.parent)}")
        games = [n for n in names if "/" not in n]
        raise ResolveError(Diagnostic(head.extends_span, f"'{written}' does not exist: {looked}",
                                      near or "extends names the base spec folder or another variant file "
                                              "by a path relative to this file, or a shipped spec by its "
                                              "name" + (f" ({', '.join(games)})" if games else "")))

    def chain(self, p: Path, seen: tuple = ()) -> tuple[Path, list[Path]]:
        """(the base spec, the variant files from the one nearest the base to ``p``)."""
        if not self.is_variant(p):
            if not p.exists():
                raise BadInputError(f"{_shown(p)}: no such spec file or directory")
            return files.real(p), []
        key = files.real(p)
        head = self.file(p).variant
        if key in seen:
            raise ResolveError(Diagnostic(head.extends_span, "variants extend each other in a cycle",
                                          "a variant extends its base spec or another variant"))
        target = self.extended(key, head)
        # a file that is no spec, a folder without .rules files: said at the extends
        what = ("a folder without .rules files" if target.is_dir() and not any(target.glob("*.rules")) else
                f"a {target.suffix[1:].upper() or 'plain'} file, not a spec"
                if target.is_file() and target.suffix.lower() != ".rules" else None)
        if what is not None:
            raise ResolveError(Diagnostic(head.extends_span, f"'{head.extends}' is {what}",
                                          "extends names the base spec directory or another variant file"))
        base, chain = self.chain(target, seen + (key,))
        return base, chain + [key]


def _there(p: Path) -> bool:
    """Whether a file or folder is at ``p`` (a link that leads nowhere, a name the
    system cannot look up: not)."""
    try:
        return p.exists()
    except (OSError, ValueError):
        return False


def parse_files(files: list[Path], read: dict | None = None):
    """The syntax tree of each file (kept in the cache, or parsed and kept). ``read``, when
    given, gets each file's name -> (its text, the hash of its kept tree or None)."""
    out, errors = [], []
    for f in files:
        text = decoded(str(f))
        register_source(str(f), text)
        kept = cache.fetch("ast", str(f), text)
        built, tree = kept if kept is not None else (None, None)
        if built is None:
            from rulewright.compiler.syntax.build_ast import build     # (lazy: Lark and the parser load
            from rulewright.compiler.syntax.parse import parse_text    # for a file whose tree is not kept)
            try:
                built = build(parse_text(text, str(f)), str(f))
            except SpecSyntaxError as exc:
                errors.extend(exc.diagnostics)
                continue
            except RecursionError:
                errors.append(Diagnostic(Span(str(f), 1, 1, 1, 2), "an expression of this file nests too deeply "
                                         "for the compiler", "split it into definitions"))
                continue
            tree = cache.store("ast", built, str(f), text)
        if read is not None:
            read[str(f)] = (text, tree)
        out.append(built)
    if errors:
        raise SpecSyntaxError(errors)
    return out


def unread_settings(program) -> list[str]:
    """The switches and params no definition, state value, check or query reads."""
    read = {dst for _, dst, kind, _ in program.reads if kind == "reads"}
    return [n for n in program.constants if n not in read]


def load(path: str | Path, overrides: dict[str, Any] | None = None,
         tables: dict[str, str] | None = None, options: dict[str, str] | None = None,
         variants: list[str | Path] | tuple = (), spelling: Spelling = NEUTRAL):
    """``path`` is a spec directory, a one-file spec or a variant file; ``variants``
    are more variant files applied on top (each with the variants it extends).
    ``tables`` replaces the file of a table read ``from "file.csv"`` by name;
    ``options`` does the same by the option the table declares (``option cards``
    makes ``--cards FILE``). Every ``check`` of the spec then runs on what was read.
    A program checked before from the same files is read back from the cache. Errors
    name what the user gave as ``spelling`` spells it (the face they work through)."""
    _not_one_file_of_a_folder(Path(path))
    roots = files.allowed([files.tree_of(p) for p in (path, *variants) if Path(p).exists()])
    kept = _Kept.of(path, overrides, tables, options, variants, roots)
    program = kept.program() if kept is not None else None
    if program is not None:
        return program
    specs = _Specs(roots)
    program = _checked(specs, path, overrides, tables, options, variants, roots, spelling)
    if kept is not None:
        kept.keep(program, specs)
    return program


def _checked(specs: _Specs, path: str | Path, overrides, tables, options, variants, roots, sp: Spelling):
    """``load`` itself: the files parsed (or their kept trees), the variants composed,
    the program resolved and checked."""
    from rulewright.compiler import variants as V               # (lazy: a program read back from
    from rulewright.compiler.play.checks import run_checks     # the cache needs none of these:
    from rulewright.compiler.resolve import Resolver           # the resolver, the checks)
    base, first = specs.chain(Path(path))
    chains = [first]
    for extra in variants:
        p = Path(extra)
        if not specs.is_variant(p):
            raise BadInputError(f"{sp.of_variant(extra)}: not a variant file (a variant file starts with "
                                f'variant NAME extends "PATH")' if p.exists() else
                                f"{sp.of_variant(extra)}: no such file")
        vbase, chain = specs.chain(p)
        if vbase != base:
            raise BadInputError(f"{sp.of_variant(extra)}: it changes {_shown(vbase)}, not {_shown(base)}")
        chains.append(chain)
    ordered = V.order(chains)
    applied = []
    if ordered:
        ancestors = {}
        extends = {}
        for chain in chains:
            for i, p in enumerate(chain):
                key = _shown(p)
                ancestors.setdefault(key, set()).update(_shown(q) for q in chain[:i])
                extends[key] = _shown(chain[i - 1]) if i else _shown(base)
        asts, applied = V.compose(specs.base(base), [specs.file(p) for p in ordered], ancestors, extends)
    else:
        asts = specs.base(base)
    from_files = {d.name: d for f in asts for d in f.definitions
                  if isinstance(d, A.Table) and d.source is not None}
    chosen = dict(tables or {})
    for name in chosen:
        if name not in from_files:
            hint = did_you_mean(name, from_files) or (
                "tables read from files: " + ", ".join(from_files) if from_files else
                "this spec reads no table from a file")
            raise BadInputError(f"{sp.table}: no table '{name}' read from a file in {path} ({hint})")
    by_option = {d.option: d.name for d in from_files.values() if d.option}
    for opt, file in (options or {}).items():
        if opt not in by_option:
            hint = ("its tables from files: " + ", ".join(from_files) + "; " + sp.how_to_name
                    if from_files else "this spec reads no table from a file")
            raise BadInputError(f"{sp.of_option(opt)}: {path} declares no table loaded with {sp.of_option(opt)} ({hint})")
        if by_option[opt] in chosen and chosen[by_option[opt]] != file:
            raise BadInputError(f"{sp.of_option(opt, file)} and {sp.of_table(by_option[opt], chosen[by_option[opt]])} both give "
                                f"the table '{by_option[opt]}': give it once")
        chosen[by_option[opt]] = file
    try:
        # (settings given on the command line may change what an example reads, a grid's size:
        # its examples are then the game's, as under a variant)
        own = {str(Path(a.path).resolve()) for a in applied} if applied else (set() if overrides else None)
        program = Resolver(asts, _shown(base), overrides, chosen, roots, own).run()
    except ResolveError as exc:
        if applied:
            raise type(exc)([V.removed_note(d, applied) for d in exc.diagnostics]) from None
        raise
    if applied:
        program.variants = applied
        inner = {_shown(Path(a.extends)) for a in applied}      # extended by another one
        program.title = program.title + ": " + ", ".join(a.title or a.name for a in applied
                                                           if _shown(Path(a.path)) not in inner)
    unread = [n for n in (overrides or {}) if n in unread_settings(program)]
    if unread:
        name = unread[0]
        why = (" (a variant replaced what read it)" if applied and name not in
               unread_settings(Resolver(specs.base(base), _shown(base), {}, chosen, roots).run()) else "")
        raise BadInputError(f"{sp.of_setting(name)}: no rule of {program.title} reads it{why}, so setting it "
                            "would change nothing")
    run_checks(program)
    return program


class _Kept:
    """A checked program in the cache, with what it was made from. Its entry is found by
    the command line's spec, variants, settings and tables, the working folder (the
    program's spans name files relative to it) and the allowed folders; it is used only
    when every file it was made from is as it was."""

    def __init__(self, where: Path):
        self.where = where

    @classmethod
    def of(cls, path, overrides, tables, options, variants, roots) -> _Kept | None:
        given = [overrides or {}, tables or {}, options or {}]
        if any(not isinstance(k, str) or not isinstance(v, (str, int, float, bool, type(None)))
               for d in given for k, v in d.items()):
            return None         # (a value with no faithful text: loaded afresh each time)
        try:
            here = os.getcwd()
        except OSError:
            return None
        command = repr((str(path), [str(v) for v in variants],
                        *[sorted((k, repr(v)) for k, v in d.items()) for d in given]))
        where = cache.path_for("program", command, here, *[str(r) for r in roots])
        return cls(where) if where is not None else None

    def program(self):
        """The program kept, its files' texts registered for located errors; None when
        there is none, or a file it was made from has changed."""
        data = cache.read(self.where)
        if data is None:
            return None
        try:
            stream = io.BytesIO(data)
            sources = _as_they_were(cache.unpickled(stream))
            if sources is None:
                return None
            program = cache.unpickled(stream)
        except Exception:       # noqa: BLE001 (a damaged entry, a file now unreadable: loaded afresh)
            return None
        for name, text in sources:
            register_source(name, text)
        return program

    def keep(self, program, specs: _Specs) -> None:
        made_from: dict[str, list] = {"rules": [], "tables": [], "folders": [], "positions": []}
        for name, (text, tree) in specs.read.items():
            if tree is None:        # (its tree is not kept: nor is the program)
                return
            made_from["rules"].append((name, str(files.real(name)), _hash(text), tree))
        for name in dict.fromkeys(program.table_files.values()):
            text = diagnostics._SOURCES.get(name)       # the text the resolver read (and registered)
            if text is None:
                return
            made_from["tables"].append((name, str(files.real(name)), _hash(text)))
        for name, listed in specs.listed.items():
            made_from["folders"].append((name, str(files.real(name)), listed))
        for example in program.examples.values():
            if example.position is not None:
                made_from["positions"].append((example.position, str(files.real(example.position))))
        made_from["absent"] = list(dict.fromkeys(specs.absent))
        try:
            data = cache.pickled(made_from, program)
        except Exception:       # noqa: BLE001 (a value pickle cannot carry, or nested too deeply)
            return
        cache.write(self.where, data)


def _hash(text: str) -> str:
    return cache.digest(text.encode("utf-8", errors="surrogatepass"))


def _as_they_were(made_from: dict) -> list[tuple[str, str]] | None:
    """The (name, text) of each file a kept program was made from, when every one is
    as it was then (the same real path, the same text, the same kept syntax tree; each
    spec folder with the same .rules files, each example's position still a file, and
    nothing yet where an ``extends`` naming a shipped spec looked first); else None."""
    sources = []
    for name, real, text_hash, tree in made_from["rules"]:
        if str(files.real(name)) != real:
            return None
        text = decoded(name)
        if _hash(text) != text_hash or cache.entry_digest("ast", name, text) != tree:
            return None
        sources.append((name, text))
    for name, real, text_hash in made_from["tables"]:
        if str(files.real(name)) != real:
            return None
        text = files.read_bytes(name).decode("utf-8-sig")
        if _hash(text) != text_hash:
            return None
        sources.append((name, text))
    for name, real, listed in made_from["folders"]:
        if not Path(name).is_dir() or str(files.real(name)) != real or \
                [f.name for f in spec_files(name)] != listed:
            return None
    for name, real in made_from["positions"]:
        if not Path(name).is_file() or str(files.real(name)) != real:
            return None
    if any(_there(Path(name)) for name in made_from.get("absent", ())):
        return None         # (an extends by name now finds a path of that name first)
    return sources
