"""Names, types and arity: AST -> checked ``ir.Program``.

In:  the ``ast.SpecFile`` list of one spec and optional overrides of switches
     and params (``{"cheetah_range": "lines"}``).
Out: an ``ir.Program`` with every expression typed and every name bound, or a
     ``ResolveError`` listing every problem found, each with its span and,
     where one fits, a "did you mean" hint.

Constant sub-expressions (switches, params, relations, grid sizes, ``cells(g)``)
are folded here with the operators' own concrete meaning, so both evaluators
see relations and switch-dependent choices as constants.
"""
from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import Any

from rulewright.compiler.semantics.operators import AGGREGATES, BUILTIN_CALLS, GRID_POSITIONS, OPERATORS, OpTypeError

from rulewright.compiler.syntax import ast as A
from rulewright.compiler import ir as I
from rulewright.compiler import files as files_mod
from rulewright.compiler.semantics import runtime as rt
from rulewright.compiler.diagnostics import (NO_SPAN, BadInputError, Diagnostic, DiagnosticBag, ResolveError, RulesError, Span,
                          did_you_mean, source_line, whole_number)
from rulewright.compiler.types import (ANY, BOOL, INT, NONE, RELATION, SEAT, TEXT, AnyT, BoardT, BoolT, CellT, CollT,
                    EnumT, IntT, LayerT, MapT, NoneT, RecordT, ScoreT, SeatT, TextT, TupleT, Type,
                    assignable, is_bool, is_cell, is_coll, is_int, join, same)
from rulewright.compiler.diagnostics import register_source
from rulewright.compiler.graph import check_cycles
from rulewright.compiler.play.inputs import not_utf8
from rulewright.compiler.interpret import evaluate_closed
from rulewright.compiler.variants import _walk

BUILTIN_ENUMS = {
    "direction": ["left", "right"],
    "seat_kind": ["player", "neutral", "automaton"],
}
BUILTIN_COLLECTIONS = {"seats", "players"}
BUILTIN_FUNCS = {name for name, _ in BUILTIN_CALLS} | {"cells", "rows", "columns", "groups",
                                                       "least", "most"} | set(AGGREGATES)
KEYED_AGGREGATES = {"ranked", "sorted", "allocate", "allocate_skipping", "allocate_even"}
TYPE_NAMES = {"int", "bool", "text", "cell", "seat", "relation"}


_NAME = re.compile(r"[a-z_][a-z0-9_]*")


def _within(span: Span, m: "re.Match") -> Span:
    """The span of a word matched inside a one-line cell."""
    if span.line != span.end_line:
        return span
    start = span.col + m.start() + (len(m.group()) - len(m.group().lstrip()))
    return Span(span.file, span.line, start, span.line, start + max(1, len(m.group().strip())))


def _named_options(node: A.Switch) -> bool:
    """A switch between named options (an enum of its own), not bool, int or numbers."""
    return len(node.options) >= 2 and all(isinstance(o, str) for o in node.options)


def _rt_oset(items):
    return rt.oset(items)


class AttrData(dict):
    """Constant data of a table-column read (``card.family``): value -> column value."""

    def __init__(self, enum: str, column: str, type_: Type, mapping: dict):
        super().__init__(mapping)
        self.enum, self.column, self.type, self.mapping = enum, column, type_, mapping

    def __repr__(self):
        return f"{self.enum}.{self.column}"

    __hash__ = object.__hash__


class MapValue(dict):
    """A constant table of values: ``{1: 1, 2: 4, 3: 9, else: 16}``."""

    def __init__(self, mapping: dict, default: Any, has_default: bool, key_type: Type, value_type: Type):
        super().__init__(mapping)
        self.mapping, self.default, self.has_default = mapping, default, has_default
        self.key_type, self.value_type = key_type, value_type

    def __missing__(self, key):
        return rt.map_get(self.mapping, key, self.default, self.has_default)

    def __repr__(self):
        items = ", ".join(f"{k}: {v}" for k, v in self.mapping.items())
        if self.has_default:
            items += f", else: {self.default}"
        return "{" + items + "}"

    __hash__ = object.__hash__


class RelData(rt.RelationTable):
    """A relation applied on one grid: its lookup table, with the relation and grid."""

    def __init__(self, relation: rt.Relation, grid: I.GridInfo, name: str):
        super().__init__(relation, grid.rows, grid.cols)
        self.grid, self.name = grid, name
        # the same cells as frozensets, for set operations (no order needed)
        self.sets = {pos: frozenset(cells) for pos, cells in self.items()}

    @property
    def table(self):
        return self

    def __repr__(self):
        return f"{self.name} on {self.grid.name}"

    __hash__ = object.__hash__


class Scope:
    def __init__(self, parent: "Scope | None" = None, kind: str | None = None):
        self.parent = parent
        self.names: dict[str, Type] = {}
        self.kind = kind or (parent.kind if parent else "def")

    def lookup(self, name: str) -> Type | None:
        s: Scope | None = self
        while s is not None:
            if name in s.names:
                return s.names[name]
            s = s.parent
        return None

    def all_names(self) -> set[str]:
        out: set[str] = set()
        s: Scope | None = self
        while s is not None:
            out |= set(s.names)
            s = s.parent
        return out

    def child(self, kind: str | None = None) -> "Scope":
        return Scope(self, kind)


MOST_ROWS = 20_000         # the most rows a table file may have
MOST_PLAYERS = 100         # the most players a mode may seat
_NAME = re.compile(r"[a-z_][a-z0-9_]*")      # a name of the language (the grammar's NAME)


def _written_at(span: Span, text: str) -> Span:
    """The place of the quoted ``text`` inside ``span`` (a path a definition writes), else ``span``."""
    for line in range(span.line, span.end_line + 1):
        found = (source_line(span.file, line) or "").find(f'"{text}"')
        if found >= 0:
            return Span(span.file, line, found + 1, line, found + len(text) + 3)
    return span


class Resolver:
    def __init__(self, files: list[A.SpecFile], root: str, overrides: dict[str, Any] | None = None,
                 tables: dict[str, str] | None = None, roots: list | None = None):
        self.files = files
        self.root = root
        # the folders a table read 'from' a file may lie in (see files): by default the spec's own tree
        self.roots = roots if roots is not None else files_mod.allowed([files_mod.tree_of(root)])
        self.overrides = dict(overrides or {})
        self.tables = dict(tables or {})          # table -> a player's own file in place of the spec's
        self.table_files: dict[str, str] = {}
        self.checks: dict[str, I.CheckDef] = {}
        self.invariants: dict[str, I.CheckDef] = {}
        self.diag = DiagnosticBag()
        # a constant that cannot be computed (10 // 0): reported once resolution is done,
        # unless a constant condition leaves its branch out (if k == 3 then 0 else 10 // (k - 3))
        # or it is part of a message, computed only where its condition fails
        self.pending: list[Diagnostic] = []
        self.choice_types: dict[str, list] = {}    # a procedure's choice -> the types of its values
        self.requires_seen: dict[str, Span] = {}   # the requirements of the procedure being resolved
        self.steps_seen: dict[str, Span] = {}      # its named steps
        self.step_owner: str | None = None         # the procedure or mode whose steps those are
        self.last_step: dict = {}                  # block's scope -> its step resolved last, for "precedes"
        self.defs: dict[str, A.Definition] = {}
        self.enums: dict[str, I.EnumInfo] = {}
        self.enum_of_value: dict[str, str] = {}
        self.grids: dict[str, I.GridInfo] = {}
        self.constants: dict[str, tuple[Any, Type]] = {}
        self.funcs: dict[str, I.FuncDef] = {}
        self.in_progress: set[str] = set()
        self.state: dict[str, I.StateVarDef] = {}
        self.reads: list[tuple[str, str, str, Span]] = []
        self.current: str | None = None
        self.game: A.Game | None = None
        self.scorings: dict[str, I.ScoringDef] = {}
        self.procedures: dict[str, I.ProcDef] = {}
        self.modes: dict[str, I.ModeDef] = {}
        self.queries: dict[str, I.QueryDef] = {}
        self.records: dict[str, I.RecordInfo] = {}
        self.outcome: str | None = None

    # ================================================================ driver
    def run(self) -> I.Program:
        for name, values in BUILTIN_ENUMS.items():
            self.enums[name] = I.EnumInfo(name, list(values))
            for v in values:
                self.enum_of_value[v] = name
        self.collect()
        self.check_overrides()
        self.resolve_enums()
        if any(d.span.file.endswith(".csv") for d in self.diag.items):
            self.diag.raise_if_any(ResolveError)   # a broken table file: later errors would only echo it
        self.resolve_constants()
        self.resolve_records()
        self.declare_state()
        self.resolve_field_defaults()
        self.resolve_grids()
        self.resolve_state()
        for name, node in self.defs.items():
            if isinstance(node, (A.Def, A.Rule, A.Relation, A.Outcome)):
                self.func(name)
        for name, node in self.defs.items():
            if isinstance(node, A.Check):
                self.resolve_check(node)
        for name, node in self.defs.items():
            if isinstance(node, A.Scoring):
                self.resolve_scoring(node)
        for name, node in self.defs.items():
            if isinstance(node, A.Procedure):
                self.resolve_procedure(node)
        for name, node in self.defs.items():
            if isinstance(node, A.Mode):
                self.resolve_mode(node)
            elif isinstance(node, A.Query):
                self.resolve_query(node)
        if self.game is None and self.files:
            first = self.files[0]
            self.diag.error(Span(first.path, 1, 1, 1, 2),
                            "this spec has no 'game' line",
                            'start a spec with: game my_game "My Game"')
        if not self.diag.items:     # else they are most likely echoes of those errors (a value of the wrong type)
            self.diag.items.extend(self.pending)
        self.diag.raise_if_any(ResolveError)
        check_cycles(self.reads, self.defs)
        return I.Program(
            name=self.game.name if self.game else "spec",
            title=self.game.title if self.game else "spec",
            root=self.root, files=self.files, definitions=self.defs,
            switches={k: v for k, (v, _) in self.constants.items()
                      if isinstance(self.defs.get(k), A.Switch)},
            constants={k: v for k, (v, _) in self.constants.items()},
            enums=self.enums, enum_of_value=self.enum_of_value, grids=self.grids,
            funcs=self.funcs, scorings=self.scorings, state=self.state,
            procedures=self.procedures, modes=self.modes, queries=self.queries,
            records=self.records, outcome=self.outcome, reads=self.reads, overrides=self.overrides,
            checks=self.checks, invariants=self.invariants, table_files=self.table_files, own_tables=self.tables)

    # ================================================================ collect
    def collect(self):
        for f in self.files:
            for d in f.definitions:
                if isinstance(d, A.Game):
                    if self.game is not None:
                        self.diag.error(d.span, "a spec has only one 'game' line",
                                        notes=((self.game.span, "the first one is here"),))
                    else:
                        self.game = d
                    continue
                if isinstance(d, A.State):
                    key = f"{d.name}@{d.span.file}:{d.span.line}"
                    self.defs[key] = d
                    continue
                if d.name in self.defs:
                    prev = self.defs[d.name]
                    self.diag.error(d.name_span, f"'{d.name}' is already defined",
                                    "rename one of them",
                                    notes=((prev.name_span, "first defined here"),))
                    continue
                if d.name in BUILTIN_FUNCS or d.name in BUILTIN_COLLECTIONS or d.name in TYPE_NAMES \
                        or d.name in BUILTIN_ENUMS or d.name in ("true", "false", "none"):
                    self.diag.error(d.name_span, f"'{d.name}' is a built-in name",
                                    "choose another name")
                    continue
                self.defs[d.name] = d
                if isinstance(d, A.Outcome):
                    if self.outcome is not None:
                        self.diag.error(d.name_span, "a spec has only one 'outcome'",
                                        notes=((self.defs[self.outcome].name_span, "the first one"),))
                    else:
                        self.outcome = d.name

    def check_overrides(self):
        for name in self.overrides:
            node = self.defs.get(name)
            if not isinstance(node, (A.Switch, A.Constant)):
                names = [k for k, v in self.defs.items() if isinstance(v, (A.Switch, A.Constant))]
                hint = did_you_mean(name, names) or ("switches and params: " + ", ".join(sorted(names)))
                raise ResolveError(Diagnostic(NO_SPAN, f"cannot set '{name}': no switch or param of "
                                                       f"that name in {self.root}", hint))

    # ================================================================ enums
    def add_enum_value(self, value: str, enum: str, span: Span):
        if value in ("none", "true", "false"):
            self.diag.error(span, f"'{value}' is a built-in value of the language and cannot name a value "
                                  f"of '{enum}'",
                            ("'none' is 'no value' (s == none holds only then)" if value == "none" else
                             "true and false are the two truth values") + "; choose another name "
                            "(off, no_limit, nothing...)")
            return
        if value in self.enum_of_value:
            other = self.enum_of_value[value]
            info = self.enums.get(other)
            first = info.spans.get(value) if info is not None else None
            self.diag.error(span, f"'{value}' is already a value of '{other}'",
                            "values of different enums and switches must have different names",
                            notes=((first, f"the value of '{other}'"),) if first is not None else ())
            return
        if value in self.defs:
            self.diag.error(span, f"'{value}' is both a value and a definition",
                            notes=((self.defs[value].name_span, "the definition"),))
            return
        self.enum_of_value[value] = enum

    def resolve_enums(self):
        """Enums, switches with named options and tables; the values variants add come
        after every value of the spec (a clash is said at the value added)."""
        added = []
        for name, node in list(self.defs.items()):
            if isinstance(node, A.Enum):
                info = I.EnumInfo(name, [], {}, node=node)
                self.enums[name] = info
                self.enum_values(info, list(node.values))
                added.append((info, [(r.key, r.span) for r in node.added]))
            elif isinstance(node, A.Switch):
                if _named_options(node):
                    self.enums[name] = I.EnumInfo(name, list(node.options), node=node)
                    for opt in node.options:
                        self.add_enum_value(opt, name, node.name_span)
        # tables after plain enums: their columns may be typed by enums.
        tables = []
        for name, node in list(self.defs.items()):
            if isinstance(node, A.Table):
                tables.append(self.resolve_table(name, node))
        for info, values in added:
            self.enum_values(info, values)
        for info, columns in tables:
            self.table_rows(info, columns, list(info.node.added))
        for info, columns in tables:
            self.table_edits(info, columns)
        for info in list(self.enums.values()):
            self.removed_rows(info)
        self.removed_in_tables()

    def enum_values(self, info: I.EnumInfo, values: list):
        for v, span in values:
            if v in info.values:
                self.diag.error(span, f"'{v}' appears twice in enum '{info.name}'")
                continue
            info.values.append(v)
            info.spans[v] = span
            self.add_enum_value(v, info.name, span)

    def resolve_table(self, name: str, node: A.Table):
        """A table's columns and the rows of the spec or its file; (its info, its
        columns), for the rows variants add."""
        info = I.EnumInfo(name, [], node=node)
        self.enums[name] = info
        columns = [(c.name, self.type(c.type), c.span) for c in node.columns]
        for cname, ctype, _ in columns:
            info.columns[cname] = ctype
            info.attrs[cname] = {}
        rows = list(node.rows)
        if node.source is not None:
            rows = self.read_csv_rows(node, [c for c, _, _ in columns])
        self.table_rows(info, columns, rows)
        return info, columns

    def table_rows(self, info: I.EnumInfo, columns: list, rows: list):
        name, node = info.name, info.node
        for row in rows:
            if row.key in info.values:
                first = info.spans.get(row.key)
                self.diag.error(row.span, f"'{row.key}' appears twice in table '{name}'",
                                "a variant adds a row the table's file already has: drop one of them"
                                if any(r is row for r in node.added) else None,
                                notes=((first, "first here"),) if first is not None else ())
                continue
            info.values.append(row.key)
            info.spans[row.key] = row.span
            if not _NAME.fullmatch(row.key):
                self.diag.error(row.span, f"'{row.key}' is not a name",
                                "names are lower-case letters, digits and '_', starting with a letter: "
                                + (re.sub(r"[^a-z0-9_]+", "_", row.key.lower()).strip("_") or "a_name"))
                continue
            self.add_enum_value(row.key, name, row.span)
            if len(row.cells) != len(columns):
                n = len(row.cells)
                self.diag.error(row.span, f"row '{row.key}' has {n} value{'s' if n != 1 else ''}, "
                                          f"table '{name}' has {len(columns)} columns",
                                "columns: " + ", ".join(c for c, _, _ in columns))
                continue
            for (cname, ctype, _), (value, vspan) in zip(columns, row.cells):
                info.attrs[cname][row.key] = self.table_value(value, ctype, vspan, cname)

    def table_edits(self, info: I.EnumInfo, columns: list):
        """The values of rows variants change (``override row TABLE.NAME: column = v``),
        once every row is read; the row is then located at the change, so the
        table's checks report a changed value there."""
        types = {c: t for c, t, _ in columns}
        for edit in info.node.edits:
            if edit.key not in info.values:
                self.diag.error(edit.target_span or edit.span, f"table '{info.name}' has no row '{edit.key}'",
                                did_you_mean(edit.key, info.values) or
                                f"a new row is added with 'add row {info.name}: {edit.key} | ...'",
                                notes=((Span(self.table_files[info.name], 1, 1, 1, 2), "the rows read"),)
                                if info.name in self.table_files else ())
                continue
            for column, _, value, vspan in edit.cells:
                info.attrs[column][edit.key] = self.table_value(value, types[column], vspan, column)
            info.spans[edit.key] = edit.span

    def removed_rows(self, info: I.EnumInfo):
        """The rows (or enum values) variants take away (``remove row TABLE.NAME``), once
        every row is read and changed: gone from the table and from the names a rule
        can use (a rule that still names one is reported there, with the removal)."""
        what = "row" if isinstance(info.node, A.Table) else "value"
        kind = "table" if isinstance(info.node, A.Table) else "enum"
        for rm in getattr(info.node, "removed", ()):
            if rm.key not in info.values:
                self.diag.error(rm.target_span or rm.span, f"{kind} '{info.name}' has no {what} '{rm.key}'",
                                did_you_mean(rm.key, info.values),
                                notes=((Span(self.table_files[info.name], 1, 1, 1, 2), "the rows read"),)
                                if info.name in self.table_files else ())
                continue
            info.values.remove(rm.key)
            info.spans.pop(rm.key, None)
            for column in info.attrs.values():
                column.pop(rm.key, None)
            if self.enum_of_value.get(rm.key) == info.name:
                del self.enum_of_value[rm.key]
            info.removed[rm.key] = rm.target_span or rm.span

    def removed_in_tables(self):
        """A value a variant removes from an enum that a row of a table still holds (in a
        column of that enum, or a collection of it): an error at the row."""
        gone = {v: info.name for info in self.enums.values() if not isinstance(info.node, A.Table)
                for v in info.removed}
        if not gone:
            return
        for info in self.enums.values():
            if not isinstance(info.node, A.Table):
                continue
            for cname, ctype in info.columns.items():
                elem = ctype.elem if isinstance(ctype, CollT) else ctype
                if not isinstance(elem, EnumT) or elem.name not in gone.values():
                    continue
                holding: dict[str, list[str]] = {}
                for key, value in info.attrs[cname].items():
                    held = value if isinstance(value, tuple) else (value,)
                    for x in dict.fromkeys(held):
                        if isinstance(x, str) and gone.get(x) == elem.name:
                            holding.setdefault(x, []).append(key)
                for x, keys in holding.items():
                    more = f" ({len(keys)} rows hold it, the first 3 are shown)" if len(keys) > 3 else ""
                    for key in keys[:3]:
                        self.diag.error(info.spans.get(key, info.node.span),
                                        f"row '{key}' of table '{info.name}' holds '{x}' in its column "
                                        f"'{cname}': a variant removes it from enum '{elem.name}'{more}")

    def read_csv_rows(self, node: A.Table, columns: list[str]) -> list[A.Row]:
        own = self.tables.get(node.name)
        path = Path(own) if own else Path(node.span.file).parent / node.source
        self.table_files[node.name] = str(path)
        if own and not path.is_file():
            what = "a folder, not a table file" if path.is_dir() else "no such file"
            raise BadInputError(f"{own}: {what} (the table '{node.name}' to load in place of "
                                f"{node.source})")
        if not own:
            why = files_mod.refusal(node.source, path, self.roots)
            if why is not None:
                self.diag.error(_written_at(node.span, node.source), why, files_mod.refusal_hint())
                return []
        try:
            raw = files_mod.read_bytes(path)
        except BadInputError as exc:
            if own:
                raise
            self.diag.error(node.span, f"cannot read table file '{node.source}': "
                                       f"{exc.diagnostics[0].message.split(': ', 1)[-1]}")
            return []
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            where = not_utf8(str(path), raw, exc)
            if own:                 # the player's own file: a bad input, at its line
                raise BadInputError(where) from None
            self.diag.error(where.span, where.message, where.hint,
                            notes=((node.span, f"the table '{node.name}' reads it"),))
            return []
        register_source(str(path), text)
        rows = []
        # (read as a stream: a quoted cell keeps the line breaks written in it)
        reader = csv.reader(io.StringIO(text, newline=""), strict=True)
        try:
            header = next(reader, [])
        except csv.Error:
            header = []
        expected = ["name"] + columns
        if not text.strip():
            self.diag.error(Span(str(path), 1, 1, 1, 2), "this table file is empty",
                            "its first line is the header: " + ",".join(expected))
            return []
        if [h.strip() for h in header] != expected:
            self.diag.error(Span(str(path), 1, 1, 1, len(",".join(header)) + 1),
                            "the header of this table file does not match the table",
                            "expected: " + ",".join(expected))
            return []
        lines = text.splitlines()
        records = []
        start = reader.line_num + 1       # the line a record starts on (a quoted cell may span lines)
        try:
            for fields_ in reader:
                if len(records) == MOST_ROWS:
                    self.diag.error(Span(str(path), start, 1, start, 2),
                                    f"this table file has more than {MOST_ROWS:,} rows, the most a table may have",
                                    "a table of cards lists each kind of card once, with its count")
                    return []
                records.append((start, fields_))
                start = reader.line_num + 1
        except csv.Error:
            self.diag.error(Span(str(path), start, 1, start, len(lines[start - 1]) + 1 if start <= len(lines) else 2),
                            "a quote (\") opened in this row is never closed",
                            "close the quoted cell, or remove the quote")
            return []
        for lineno, fields_ in records:
            if not fields_ or not "".join(fields_).strip():
                continue
            line = lines[lineno - 1] if lineno - 1 < len(lines) else ""
            cells = []
            col = 1
            for i, f in enumerate(fields_):
                # locate the cell on its line for diagnostics (best effort with quoting)
                at = line.find(f, col - 1) + 1 if f else col
                at = at if at > 0 else col
                cspan = Span(str(path), lineno, at, lineno, at + max(1, len(f)))
                col = at + len(f) + 1
                if i == 0:
                    key_span = cspan
                    continue
                cells.append((("raw", f.strip()), cspan))
            key = fields_[0].strip()
            if not _NAME.fullmatch(key):
                self.diag.error(key_span, f"'{key[:60]}' is not a name for a row",
                                "a row's name is written as every name of the language: lower-case letters, "
                                "digits and _, starting with a letter or _ (snake_case)")
                continue
            rows.append(A.Row(key_span, key, tuple(cells)))
        return rows

    # ================================================================ checks
    def resolve_check(self, node: A.Check):
        saved, self.current = self.current, node.name
        scope = Scope(kind="def")
        domain = filter_ = None
        what = "an invariant" if isinstance(node, A.Invariant) else "a check"
        if node.var is not None:
            domain = self.expr(node.domain, scope)
            elem: Type = ANY
            if isinstance(domain.type, CollT):
                elem = domain.type.elem
            elif not isinstance(domain.type, AnyT):
                self.diag.error(node.domain.span, f"{what} runs over a collection, not {domain.type}")
            scope = scope.child()
            scope.names[node.var] = elem
            if node.filter is not None:
                filter_ = self.expr(node.filter, scope)
                if not is_bool(filter_.type):
                    self.diag.error(node.filter.span, f"a condition is true or false, not {filter_.type}")
        cond = self.expr(node.cond, scope)
        if not is_bool(cond.type):
            self.diag.error(node.cond.span, f"{what} is true or false; this is {cond.type}")
        sides = None
        if isinstance(node.cond, A.Binary) and node.cond.op in ("==", "!=", "<", "<=", ">", ">="):
            reported, pending = len(self.diag.items), len(self.pending)   # the operands again: told already
            sides = (self.expr(node.cond.left, scope), node.cond.op, self.expr(node.cond.right, scope))
            del self.diag.items[reported:]
            del self.pending[pending:]
        message = self.message(node.message, scope)
        self.current = saved
        target = self.invariants if isinstance(node, A.Invariant) else self.checks
        target[node.name] = I.CheckDef(node.name, node.var, domain, filter_, cond, message, sides, node)

    def table_value(self, value, ctype: Type, span: Span, column: str):
        if isinstance(value, tuple) and value[0] == "raw":
            return self.csv_value(value[1], ctype, span, column)
        if isinstance(value, str) and isinstance(ctype, CollT):
            return self.csv_value(value, ctype, span, column)
        if isinstance(value, tuple) and value[0] == "name":
            word = value[1]
            if isinstance(ctype, BoolT) and word in ("true", "false"):
                return word == "true"
            if isinstance(ctype, EnumT):
                if self.enum_of_value.get(word) == ctype.name:
                    return word
                if word == "none":
                    return None
                hint = did_you_mean(word, self.enums.get(ctype.name, I.EnumInfo("", [])).values)
                self.diag.error(span, f"'{word}' is not {'an' if ctype.name[:1] in 'aeiou' else 'a'} "
                                      f"{ctype.name} (column '{column}')", hint)
                return None
            self.diag.error(span, f"column '{column}' holds {ctype}, not '{word}'")
            return None
        if isinstance(value, int) and isinstance(ctype, IntT):
            return value
        if isinstance(value, str) and isinstance(ctype, TextT):
            return value
        self.diag.error(span, f"column '{column}' holds {ctype}, not {value!r}")
        return None

    # ================================================================ records
    def resolve_records(self):
        for name, node in self.defs.items():
            if isinstance(node, A.Record):
                self.records[name] = I.RecordInfo(name, [], node)
        for name, node in self.defs.items():
            if not isinstance(node, A.Record):
                continue
            seen: dict[str, Span] = {}
            for f in node.fields:
                if f.name in seen:
                    self.diag.error(f.span, f"field '{f.name}' appears twice in record '{name}'",
                                    notes=((seen[f.name], "first here"),))
                    continue
                seen[f.name] = f.span
                self.records[name].fields.append((f.name, self.type(f.type)))
            rec = self.records[name]
            rec.cls = rt.record_class(name, [f for f, _ in rec.fields])

    def resolve_field_defaults(self):
        """Each field's default: a value known before play, of the field's type (read
        once the state is declared, so that a default reading it is said to be one)."""
        for rec in self.records.values():
            types = dict(rec.fields)
            for f in rec.node.fields:
                if f.default is None or f.name not in types:
                    continue
                ftype = types[f.name]
                saved, self.current = self.current, rec.name
                before = (len(self.diag.items), len(self.pending))
                e = self.expr(f.default, Scope(kind="def"))
                self.current = saved
                # an error already said while resolving it (an unknown name, a value that
                # cannot be computed) is the one to show
                said = (len(self.diag.items), len(self.pending)) != before
                ok = not said and assignable(e.type, ftype) and isinstance(e, I.Const)
                if not said and not assignable(e.type, ftype):
                    self.diag.error(f.default.span, f"field '{f.name}' of '{rec.name}' is {ftype}, not {e.type}")
                elif not said and not isinstance(e, I.Const):
                    self.diag.error(f.default.span, f"the default of field '{f.name}' must be known before play",
                                    "use only numbers, names, switches and params here; a record that needs "
                                    f"another value is built with it: new {rec.name}({f.name} = ...)")
                # (a wrong default is reported once, not again at every 'new' that leaves it out)
                rec.defaults[f.name] = I.Const(ftype, e.span, e.value if ok else None)

    def record_fields(self, rec: I.RecordInfo, inits, span: Span, scope: Scope,
                      complete: bool) -> dict[str, I.Expr]:
        """Resolve ``name = value`` field initialisers of a record (all fields when ``complete``)."""
        fields = dict(rec.fields)
        out: dict[str, I.Expr] = {}
        for f in inits:
            value = self.expr(f.value, scope)
            if f.name not in fields:
                self.diag.error(f.span, f"record '{rec.name}' has no field '{f.name}'",
                                did_you_mean(f.name, fields) or "fields: " + ", ".join(fields))
                continue
            if f.name in out:
                self.diag.error(f.span, f"field '{f.name}' is given twice")
            if not assignable(value.type, fields[f.name]):
                self.diag.error(f.value.span, f"field '{f.name}' of '{rec.name}' is {fields[f.name]}, "
                                              f"not {value.type}")
            out[f.name] = value
        missing = [n for n in fields if n not in out and n not in rec.defaults]
        if complete and missing:
            self.diag.error(span, f"new {rec.name} needs a value for " + ", ".join(missing))
        if complete:
            out.update((n, I.Const(d.type, span, d.value)) for n, d in rec.defaults.items() if n not in out)
        return out

    def csv_value(self, text: str, ctype: Type, span: Span, column: str):
        """A table cell written as text: numbers, words, '-' or 'none' for nothing, a
        collection as words separated by spaces, a list of collections separated by '/'."""
        if isinstance(ctype, CollT):
            if isinstance(ctype.elem, CollT):
                if text.strip() in ("", "-"):
                    return ()
                return tuple(self.csv_value(m.group().strip(), ctype.elem, _within(span, m), column)
                             for m in re.finditer(r"[^/]+", text))
            if text.strip() in ("", "-", "none"):
                return _rt_oset(()) if ctype.kind == "set" else ()
            items = tuple(self.csv_value(m.group(), ctype.elem, _within(span, m), column)
                          for m in re.finditer(r"\S+", text))
            return _rt_oset(items) if ctype.kind == "set" else items
        if isinstance(ctype, IntT):
            number = whole_number(text)
            if number is not None:
                return number
            self.diag.error(span, f"column '{column}' holds numbers, not '{text}'")
            return None
        if isinstance(ctype, TextT):
            return text
        if isinstance(ctype, BoolT) and text in ("true", "false"):
            return text == "true"
        if isinstance(ctype, EnumT):
            if text in ("-", "none", ""):
                return None
            return self.table_value(("name", text), ctype, span, column)
        self.diag.error(span, f"column '{column}' holds {ctype}, not '{text}'")
        return None

    # ================================================================ types
    def type(self, node: A.TypeExpr) -> Type:
        if isinstance(node, A.TypeOf):
            return CollT(node.kind, self.type(node.elem))
        name = node.name
        simple = {"int": INT, "bool": BOOL, "text": TEXT, "seat": SEAT, "relation": RELATION}
        if name in simple:
            return simple[name]
        if name == "cell":
            return CellT(next(iter(self.grids)) if len(self.grids) == 1 else None)
        if name in self.enums:
            return EnumT(name)
        node_def = self.defs.get(name)
        if isinstance(node_def, A.Grid):
            return BoardT(name)
        if isinstance(node_def, A.Record):
            return RecordT(name)
        if isinstance(node_def, A.Switch) and _named_options(node_def):
            return EnumT(name)
        candidates = list(simple) + ["cell"] + list(self.enums) + \
            [k for k, v in self.defs.items() if isinstance(v, (A.Grid, A.Record))]
        self.diag.error(node.span, f"unknown type '{name}'", did_you_mean(name, candidates))
        return ANY

    # ================================================================ constants
    def resolve_constants(self):
        for name, node in self.defs.items():
            if isinstance(node, A.Switch):
                self.resolve_switch(name, node)
        for name, node in self.defs.items():
            if isinstance(node, A.Constant):
                self.constant(name)

    def resolve_switch(self, name: str, node: A.Switch):
        value = node.default
        if isinstance(value, tuple):
            value = value[1]
        if len(node.options) == 1:
            kind = node.options[0]
            if kind == "bool":
                ok = value in ("true", "false")
                typ: Type = BOOL
                value = value == "true"
            elif kind == "int":
                ok = isinstance(value, int)
                typ = INT
            else:
                self.diag.error(node.name_span, f"switch '{name}' has one option '{kind}'",
                                "a switch is 'bool', 'int' or two options or more: a | b")
                return
            if not ok:
                self.diag.error(node.default_span, f"the default of switch '{name}' must be a {kind}")
                return
        elif not _named_options(node):
            typ = INT
            if any(not isinstance(o, int) for o in node.options):
                self.diag.error(node.name_span, f"switch '{name}' mixes numbers and names",
                                "a switch's options are all names or all numbers: 101 | 102")
                return
            if value not in node.options:
                self.diag.error(node.default_span, f"'{value}' is not an option of switch '{name}'",
                                "options: " + " | ".join(map(str, node.options)))
                return
        else:
            typ = EnumT(name)
            if value not in node.options:
                self.diag.error(node.default_span, f"'{value}' is not an option of switch '{name}'",
                                did_you_mean(str(value), node.options) or
                                "options: " + " | ".join(node.options))
                return
        if name in self.overrides:
            value = self.coerce_override(name, self.overrides[name], typ, node)
        self.constants[name] = (value, typ)

    def coerce_override(self, name, raw, typ: Type, node) -> Any:
        text = str(raw)
        if isinstance(typ, BoolT):
            if text in ("true", "false"):
                return text == "true"
        elif isinstance(typ, IntT):
            numbers = node.options if isinstance(node, A.Switch) and not _named_options(node) else None
            number = whole_number(text)
            if number is not None and (numbers is None or number in numbers):
                return number
            if numbers:
                raise BadInputError(f"'{text}' is not an option of '{name}' (options: "
                                    + " | ".join(map(str, numbers)) + ")")
        elif isinstance(typ, EnumT):
            options = self.enums[typ.name].values
            if text in options:
                return text
            raise BadInputError(f"'{text}' is not an option of '{name}' "
                                f"({did_you_mean(text, options) or 'options: ' + ' | '.join(options)})")
        kind = {"int": "a whole number", "bool": "true or false", "text": "a text"}.get(str(typ), f"a {typ}")
        raise BadInputError(f"'{name}' takes {kind}, not '{text}'")

    def constant(self, name: str) -> tuple[Any, Type]:
        if name in self.constants:
            return self.constants[name]
        node = self.defs[name]
        assert isinstance(node, A.Constant)
        if name in self.in_progress:
            return None, ANY
        self.in_progress.add(name)
        saved, self.current = self.current, name
        pending = len(self.pending)
        e = self.expr(node.value, Scope(kind="def"))
        self.current = saved
        self.in_progress.discard(name)
        typ = e.type
        cannot = self.pending[pending:]     # a part that cannot be computed (a division by 0): that is the error
        if node.type is not None:
            declared = self.type(node.type)
            if not assignable(typ, declared):
                self.diag.error(node.value.span, f"param '{name}' is declared {declared} but its value is {typ}")
            typ = declared
        if not isinstance(e, I.Const) and cannot:
            del self.pending[pending:]
            self.diag.items.extend(cannot)
            value = None
        elif not isinstance(e, I.Const):
            self.diag.error(node.value.span, f"the value of param '{name}' must be known before play",
                            "use only numbers, switches and other params here")
            value = None
        else:
            value = e.value
        if name in self.overrides:
            value = self.coerce_override(name, self.overrides[name], typ, node)
        self.constants[name] = (value, typ)
        return value, typ

    # ================================================================ grids
    def resolve_grids(self):
        for name, node in self.defs.items():
            if not isinstance(node, A.Grid):
                continue
            saved, self.current = self.current, name
            dims = []
            for e in (node.rows, node.cols):
                r = self.expr(e, Scope(kind="def"))
                if not (isinstance(r, I.Const) and isinstance(r.value, int) and r.value > 0):
                    self.diag.error(e.span, "a grid size must be a positive number known before play")
                    dims.append(1)
                else:
                    dims.append(r.value)
            if dims[0] * dims[1] > MOST_GRID_CELLS:
                self.diag.error(node.span, f"a grid of {dims[0]} x {dims[1]} cells is more than the "
                                           f"{MOST_GRID_CELLS:,} cells rulewright handles",
                                "check the grid's size (a --set of its rows or columns?)")
                dims = [1, 1]
            self.current = saved
            cell = self.type(node.cell_type)
            if not isinstance(cell, (EnumT, AnyT)):
                self.diag.error(node.cell_type.span, f"grid cells hold enum or table values, not {cell}")
            self.grids[name] = I.GridInfo(name, dims[0], dims[1],
                                          cell.name if isinstance(cell, EnumT) else "?",
                                          node.floating, node)

    # ================================================================ state
    def declare_state(self):
        for key, node in self.defs.items():
            if not isinstance(node, A.State):
                continue
            for var in node.vars:
                if var.name in self.state or (var.name in self.defs and var.name != key):
                    self.diag.error(var.span, f"'{var.name}' is already defined")
                    continue
                typ = self.type(var.type)
                key_type = None
                if node.per == "seat":
                    key_type = SEAT
                elif node.per is not None:
                    if node.per in self.enums or isinstance(self.defs.get(node.per), (A.Enum, A.Table)):
                        key_type = EnumT(node.per)
                    else:
                        self.diag.error(node.span, f"'per {node.per}': state is kept per seat or per value "
                                                   f"of an enum or table",
                                        did_you_mean(node.per, list(self.enums) + ["seat"]))
                self.state[var.name] = I.StateVarDef(var.name, typ, None, node.per, var, key_type)

    def resolve_state(self):
        for key, node in self.defs.items():
            if not isinstance(node, A.State):
                continue
            for var in node.vars:
                sv = self.state.get(var.name)
                if sv is None or var.init is None:
                    continue
                saved, self.current = self.current, var.name
                init = self.expr(var.init, Scope(kind="def"))
                self.current = saved
                if not assignable(init.type, sv.type):
                    self.diag.error(var.init.span, f"'{var.name}' holds {sv.type}, not {init.type}")
                sv.init = init

    # ================================================================ functions
    def func(self, name: str) -> I.FuncDef | None:
        if name in self.funcs:
            return self.funcs[name]
        node = self.defs[name]
        if name in self.in_progress:
            return None
        self.in_progress.add(name)
        saved, self.current = self.current, name
        scope = Scope(kind="def")
        params: list[tuple[str, Type]] = []
        for p in getattr(node, "params", None) or ():
            t = self.type(p.type)
            if p.name in scope.names:
                self.diag.error(p.span, f"parameter '{p.name}' appears twice")
            scope.names[p.name] = t
            params.append((p.name, t))
        body = self.expr(node.value, scope)
        kind = {A.Def: "def", A.Rule: "rule", A.Relation: "relation", A.Outcome: "outcome"}[type(node)]
        typ = body.type
        if isinstance(node, A.Def) and node.type is not None:
            declared = self.type(node.type)
            if not assignable(typ, declared):
                self.diag.error(node.value.span, f"'{name}' is declared {declared} but is {typ}")
            typ = declared
        if isinstance(node, A.Rule) and not is_bool(typ):
            self.diag.error(node.value.span, f"a rule is true or false; '{name}' is {typ}")
        if isinstance(node, A.Relation):
            if not (isinstance(body, I.Const) and isinstance(body.value, rt.Relation)):
                self.diag.error(node.value.span, f"relation '{name}' must be known before play",
                                "build it from offsets(...), rays(...), '+' and switches")
        if isinstance(node, A.Outcome) and not is_int(typ):
            self.diag.error(node.value.span, f"an outcome is a number or a score; '{name}' is {typ}")
        message = None
        if isinstance(node, A.Rule) and node.message is not None:
            message = self.message(node.message, scope)
        self.current = saved
        self.in_progress.discard(name)
        fd = I.FuncDef(name, kind, params, typ, body, node, message)
        self.funcs[name] = fd
        return fd

    def reads_edge(self, target: str, span: Span, kind: str = "reads"):
        if self.current is not None:
            self.reads.append((self.current, target, kind, span))

    # ================================================================ expressions
    def expr(self, node: A.Expr, scope: Scope) -> I.Expr:
        method = getattr(self, "ex_" + type(node).__name__)
        return method(node, scope)

    def fold(self, e: I.Op) -> I.Expr:
        if e.op in GRID_POSITIONS or not all(isinstance(a, I.Const) for a in e.args):
            return e
        if any(isinstance(a.type, AnyT) for a in e.args):
            return e
        operator = OPERATORS[e.op]
        try:
            value = operator.evaluate(*[a.value for a in e.args], data=e.data)
        except RulesError as exc:
            self.pending.append(Diagnostic(e.span, str(exc.diagnostics[0].message)))
            return e
        except (ArithmeticError, TypeError, ValueError, KeyError) as exc:
            self.pending.append(Diagnostic(e.span, f"cannot compute this: {exc}"))
            return e
        return I.Const(e.type, e.span, value)

    def message(self, parts: tuple, scope: Scope) -> tuple:
        """A sentence's text parts and resolved ``{...}`` parts. A part is computed only
        where the sentence's condition fails, so a constant part that cannot be computed
        is no error here (it is one there, at run time, at that part)."""
        pending = len(self.pending)
        out = tuple(part if isinstance(part, str) else self.expr(part, scope) for part in parts)
        del self.pending[pending:]
        return out

    def drop_pending(self, within: Span) -> None:
        """Forget the constants that cannot be computed inside ``within``: a part of the
        spec that a constant condition leaves out is never computed."""
        def inside(s: Span) -> bool:
            return s.file == within.file and (within.line, within.col) <= (s.line, s.col) and \
                (s.end_line, s.end_col) <= (within.end_line, within.end_col)
        self.pending = [d for d in self.pending if not inside(d.span)]

    def make_op(self, name: str, args: list[I.Expr], span: Span, data=None,
                arg_spans: list[Span] | None = None, fold: bool = True) -> I.Expr:
        operator = OPERATORS[name]
        if name in ("and", "or") and fold:
            # A switch decides one side: keep what matters (true or x == true, true and x == x).
            for i, a in enumerate(args):
                if isinstance(a, I.Const) and isinstance(a.value, bool):
                    other = args[1 - i]
                    if (name == "or") == a.value:
                        if i == 0:
                            self.drop_pending(other.span)     # never computed
                        return I.Const(a.type, span, a.value)
                    if other.type == BOOL or isinstance(other.type, AnyT):
                        return other
        try:
            typ = operator.typing([a.type for a in args], data)
        except OpTypeError as exc:
            where = span
            if exc.arg is not None and exc.arg < len(args):
                where = (arg_spans or [a.span for a in args])[exc.arg]
            self.diag.error(where, exc.message)
            typ = ANY
        e = I.Op(typ, span, name, args, data)
        if fold and not isinstance(typ, AnyT):
            return self.fold(e)
        return e

    def ex_IntLit(self, node, scope):
        return I.Const(INT, node.span, node.value)

    def ex_TextLit(self, node, scope):
        return I.Const(TEXT, node.span, node.value)

    def visible_names(self, scope: Scope) -> set[str]:
        names = scope.all_names() | set(self.enum_of_value) | BUILTIN_COLLECTIONS | {"true", "false", "none"}
        names |= {k for k, v in self.defs.items() if not isinstance(v, (A.State, A.Check))}
        names |= set(self.state) | set(self.enums)
        return names

    def ex_Name(self, node: A.Name, scope: Scope) -> I.Expr:
        name = node.id
        t = scope.lookup(name)
        if t is not None:
            return I.Local(t, node.span, name)
        if name in ("true", "false"):
            return I.Const(BOOL, node.span, name == "true")
        if name == "none":
            return I.Const(NONE, node.span, None)
        if name in self.enum_of_value:
            enum = self.enum_of_value[name]
            if enum in self.defs:
                self.reads_edge(enum, node.span)
            return I.Const(EnumT(enum), node.span, name)
        if name in BUILTIN_COLLECTIONS:
            return I.Global(CollT("list", SEAT), node.span, name)
        if name in self.state:
            sv = self.state[name]
            if sv.keyed:
                self.diag.error(node.span, f"'{name}' is kept per {sv.per}: write {name}(x) for a {sv.per} x")
                return I.Const(ANY, node.span, None)
            self.reads_edge(name, node.span)
            return I.Global(sv.type, node.span, name)
        d = self.defs.get(name)
        if isinstance(d, (A.Switch, A.Constant)):
            self.reads_edge(name, node.span)
            if isinstance(d, A.Switch) and name not in self.constants:
                return I.Const(ANY, node.span, None)      # a switch in error: said at the switch
            value, typ = self.constants.get(name) or self.constant(name)
            return I.Const(typ, node.span, value)
        if name in self.enums:
            if name in self.defs:
                self.reads_edge(name, node.span)
            return I.Const(CollT("set", EnumT(name)), node.span, tuple(self.enums[name].values))
        if isinstance(d, (A.Def, A.Rule, A.Relation, A.Outcome)):
            self.reads_edge(name, node.span)
            if getattr(d, "params", None):
                self.diag.error(node.span, f"'{name}' takes {len(d.params)} argument(s)",
                                f"write {name}({', '.join(p.name for p in d.params)})")
                return I.Const(ANY, node.span, None)
            fd = self.func(name)
            if fd is None:
                return I.Global(ANY, node.span, name)
            if isinstance(fd.body, I.Const):
                return I.Const(fd.type, node.span, fd.body.value)
            return I.Global(fd.type, node.span, name)
        if isinstance(d, A.Grid):
            self.diag.error(node.span, f"'{name}' is a grid type, not a value",
                            f"declare a value of it: choose g: {name}, or a state variable")
            return I.Const(ANY, node.span, None)
        if isinstance(d, (A.Scoring, A.Procedure, A.Mode, A.Query)):
            self.diag.error(node.span, f"'{name}' is a {d.kind}, not a value")
            return I.Const(ANY, node.span, None)
        owner = next((info for info in self.enums.values() if name in info.removed), None)
        if owner is not None:
            # (the note at the removal, and the hint, come with every error a change causes)
            kind = "table" if isinstance(owner.node, A.Table) else "enum"
            self.diag.error(node.span, f"unknown name '{name}': a variant removes it from {kind} '{owner.name}'")
            return I.Const(ANY, node.span, None)
        self.diag.error(node.span, f"unknown name '{name}'",
                        "'base' is the base's definition, and exists only inside an override (of a "
                        "definition, or of a step: do base())" if name == "base" else
                        did_you_mean(name, self.visible_names(scope)))
        return I.Const(ANY, node.span, None)

    # ---------------------------------------------------------------- calls
    def ex_Call(self, node: A.Call, scope: Scope) -> I.Expr:
        name = node.func
        if scope.lookup(name) is not None:
            self.diag.error(node.func_span, f"'{name}' is a local value, not something to call")
            return I.Const(ANY, node.span, None)
        if name in self.state:
            sv = self.state[name]
            if not sv.keyed:
                self.diag.error(node.func_span, f"'{name}' is shared: write {name} without (...)")
                return I.Const(ANY, node.span, None)
            if len(node.args) != 1:
                self.diag.error(node.span, f"'{name}' takes one {sv.per}: {name}(x)")
                return I.Const(ANY, node.span, None)
            seat = self.expr(node.args[0], scope)
            if not assignable(seat.type, sv.key_type):
                self.diag.error(node.args[0].span, f"'{name}' is kept per {sv.per}, not per {seat.type}")
            self.reads_edge(name, node.func_span)
            return I.SeatVar(sv.type, node.span, name, seat)
        d = self.defs.get(name)
        if isinstance(d, A.Relation):
            return self.relation_apply(node, scope, name)
        if isinstance(d, (A.Def, A.Rule, A.Outcome)):
            return self.call_def(node, scope, d)
        if isinstance(d, A.Scoring):
            return self.call_scoring(node, scope, d)
        if isinstance(d, A.Procedure):
            self.diag.error(node.func_span, f"'{name}' is a procedure: run it with 'do {name}(...)'")
            return I.Const(ANY, node.span, None)
        if name in ("least", "most"):
            return self.least_most(node, scope)
        if name in ("cells", "rows", "columns"):
            return self.grid_cells(node, scope)
        if name == "groups":
            return self.groups(node, scope)
        if name in AGGREGATES and not (name in ("min", "max") and len(node.args) == 2):
            # sum(xs), any(bs), distinct(xs)...: an aggregate over a collection's elements.
            if len(node.args) == 1 and name != "count":
                coll = self.expr(node.args[0], scope)
                if is_coll(coll.type):
                    elem = I.Local(coll.type.elem if isinstance(coll.type, CollT) else ANY, node.span, "_x")
                    return self.finish_agg(name, elem, [I.Binder("_x", coll, None, node.span)], node)
                self.diag.error(node.args[0].span, f"{name}() needs a collection, found {coll.type}")
                return I.Const(ANY, node.span, None)
            hint = ("write count(x in collection if condition)" if name == "count" else
                    f"write {name}(e for x in collection) or {name}(collection)")
            if name in ("min", "max"):
                self.diag.error(node.span, f"{name}() takes two numbers or one collection, "
                                           f"not {len(node.args)} arguments", hint)
            else:
                self.diag.error(node.span, f"{name}() needs a 'for' or 'in ... if' form", hint)
            return I.Const(ANY, node.span, None)
        key = (name, len(node.args))
        opname = BUILTIN_CALLS.get(key) or BUILTIN_CALLS.get((name, None))
        if opname is None:
            arities = [n for (f, n) in BUILTIN_CALLS if f == name]
            if arities:
                self.diag.error(node.span, f"{name}() takes {arities[0]} argument(s), not {len(node.args)}")
            else:
                candidates = [k for k, v in self.defs.items()
                              if isinstance(v, (A.Def, A.Rule, A.Relation, A.Outcome, A.Scoring))]
                candidates += [f for f, _ in BUILTIN_CALLS] + list(BUILTIN_FUNCS)
                candidates += [k for k, v in self.state.items() if v.keyed]
                self.diag.error(node.func_span, f"unknown function '{name}'", did_you_mean(name, candidates))
            return I.Const(ANY, node.span, None)
        args = [self.expr(a, scope) for a in node.args]
        data = None
        if opname == "contents":
            t = args[0].type
            data = self.grids[t.grid].cell_enum if isinstance(t, BoardT) and t.grid in self.grids else None
        return self.make_op(opname, args, node.span, data, [a.span for a in node.args])

    def call_def(self, node: A.Call, scope: Scope, d: A.Definition) -> I.Expr:
        self.reads_edge(d.name, node.func_span)
        params = d.params or ()
        args = [self.expr(a, scope) for a in node.args]
        if len(args) != len(params):
            self.diag.error(node.span, f"'{d.name}' takes {len(params)} argument(s), not {len(args)}",
                            f"{d.name}({', '.join(p.name + ': ' + str(self.type(p.type)) for p in params)})")
            return I.Const(ANY, node.span, None)
        for p, a, an in zip(params, args, node.args):
            t = self.type(p.type)
            if not assignable(a.type, t):
                self.diag.error(an.span, f"argument '{p.name}' of '{d.name}' is {t}, not {a.type}")
        fd = self.func(d.name)
        typ = fd.type if fd is not None else ANY
        return I.Call(typ, node.span, d.name, args)

    def call_scoring(self, node: A.Call, scope: Scope, d: A.Scoring) -> I.Expr:
        self.reads_edge(d.name, node.func_span)
        args = [self.expr(a, scope) for a in node.args]
        if len(args) != len(d.params):
            self.diag.error(node.span, f"scoring '{d.name}' takes {len(d.params)} argument(s), not {len(args)}")
            return I.Const(ANY, node.span, None)
        for p, a, an in zip(d.params, args, node.args):
            t = self.type(p.type)
            if not assignable(a.type, t):
                self.diag.error(an.span, f"argument '{p.name}' of '{d.name}' is {t}, not {a.type}")
        return I.Call(ScoreT(d.name), node.span, d.name, args)

    def least_most(self, node: A.Call, scope: Scope) -> I.Expr:
        if len(node.args) != 1 or not isinstance(node.args[0], A.Call) or \
                not isinstance(self.defs.get(node.args[0].func), A.Scoring):
            self.diag.error(node.span, f"{node.func}() takes one scoring call",
                            f"for example {node.func}(score(board(p), []))")
            return I.Const(ANY, node.span, None)
        call = self.expr(node.args[0], scope)
        if isinstance(call, I.Call):
            call.mode = -1 if node.func == "least" else 1
        return call

    def grid_cells(self, node: A.Call, scope: Scope) -> I.Expr:
        if len(node.args) != 1:
            self.diag.error(node.span, f"{node.func}() takes one grid")
            return I.Const(ANY, node.span, None)
        g = self.expr(node.args[0], scope)
        if not isinstance(g.type, BoardT):
            if not isinstance(g.type, AnyT):
                self.diag.error(node.args[0].span, f"{node.func}() needs a grid, found {g.type}")
            return I.Const(ANY, node.span, None)
        info = self.grids[g.type.grid]
        cell = CellT(info.name)
        if node.func == "cells":
            return I.Const(CollT("set", cell), node.span, info.cells)
        if node.func == "rows":
            value = tuple(tuple((r, c) for c in range(info.cols)) for r in range(info.rows))
        else:
            value = tuple(tuple((r, c) for r in range(info.rows)) for c in range(info.cols))
        return I.Const(CollT("list", CollT("set", cell)), node.span, value)

    def relation_value(self, node: A.Expr, scope: Scope) -> rt.Relation | None:
        e = self.expr(node, scope)
        if isinstance(e, I.Const) and isinstance(e.value, rt.Relation):
            return e.value
        if not isinstance(e.type, AnyT):
            self.diag.error(node.span, "expected a relation known before play (such as adjacent)")
        return None

    def cell_grid(self, t: Type, span: Span) -> I.GridInfo | None:
        grid = t.grid if isinstance(t, CellT) else (
            t.elem.grid if isinstance(t, CollT) and isinstance(t.elem, CellT) else None)
        if grid is None:
            if len(self.grids) == 1:
                return next(iter(self.grids.values()))
            if not isinstance(t, AnyT):
                self.diag.error(span, "cannot tell which grid these cells are on")
            return None
        return self.grids.get(grid)

    def relation_apply(self, node: A.Call, scope: Scope, name: str) -> I.Expr:
        self.reads_edge(name, node.func_span)
        fd = self.func(name)
        if len(node.args) != 1:
            self.diag.error(node.span, f"relation '{name}' takes one cell: {name}(c)")
            return I.Const(ANY, node.span, None)
        cell = self.expr(node.args[0], scope)
        if not is_cell(cell.type):
            self.diag.error(node.args[0].span, f"relation '{name}' takes a cell, not {cell.type}")
            return I.Const(ANY, node.span, None)
        if fd is None or not isinstance(fd.body, I.Const):
            return I.Const(ANY, node.span, None)
        grid = self.cell_grid(cell.type, node.args[0].span)
        if grid is None:
            return I.Const(ANY, node.span, None)
        return self.make_op("rel_apply", [cell], node.span, RelData(fd.body.value, grid, name))

    def groups(self, node: A.Call, scope: Scope) -> I.Expr:
        if len(node.args) != 2:
            self.diag.error(node.span, "groups() takes a set of cells and a relation: groups(S, adjacent)")
            return I.Const(ANY, node.span, None)
        cells = self.expr(node.args[0], scope)
        rel = self.relation_value(node.args[1], scope)
        if rel is None:
            return I.Const(ANY, node.span, None)
        grid = self.cell_grid(cells.type, node.args[0].span)
        if grid is None:
            return I.Const(ANY, node.span, None)
        name = node.args[1].id if isinstance(node.args[1], A.Name) else "relation"
        return self.make_op("groups", [cells], node.span, RelData(rel, grid, name))

    # ---------------------------------------------------------------- aggregates
    def binders(self, binders, scope: Scope) -> tuple[list[I.Binder], Scope]:
        out = []
        inner = scope
        for b in binders:
            coll = self.expr(b.coll, inner)
            if not is_coll(coll.type):
                self.diag.error(b.coll.span, f"'for {b.var} in ...' needs a collection, found {coll.type}")
            inner = inner.child()
            inner.names[b.var] = coll.type.elem if isinstance(coll.type, CollT) else ANY
            cond = None
            if b.cond is not None:
                cond = self.expr(b.cond, inner)
                if not is_bool(cond.type):
                    self.diag.error(b.cond.span, f"a filter is true or false, found {cond.type}")
            out.append(I.Binder(b.var, coll, cond, b.span))
        return out, inner

    def finish_agg(self, func: str, elem: I.Expr, binders: list[I.Binder], node) -> I.Expr:
        aggregate = AGGREGATES[func]
        try:
            typ = aggregate.typing(elem.type)
        except OpTypeError as exc:
            self.diag.error(elem.span, exc.message)
            typ = ANY
        e = I.Agg(typ, node.span, func, elem, binders)
        return self.fold_agg(e)

    def fold_agg(self, e: I.Agg) -> I.Expr:
        """Fold an aggregate whose collections, filters and element are all constant."""
        if not self._closed(e, set()):
            return e
        try:
            return I.Const(e.type, e.span, evaluate_closed(e, what=f"'{self.current}'" if self.current else None))
        except rt.OutOfSteps as exc:
            self.pending.extend(exc.diagnostics)
        except RulesError as exc:
            self.pending.append(Diagnostic(e.span, exc.diagnostics[0].message))
        except (TypeError, ValueError, AttributeError):
            if not self.diag.items:
                raise       # a bug: constants of a spec without errors always compute
            # a value left out by an error reported already (a table cell of the wrong type)
        return e

    def _closed(self, e: I.Expr, bound: set[str]) -> bool:
        if isinstance(e, I.Const):
            return not isinstance(e.type, AnyT)
        if isinstance(e, I.Local):
            return e.name in bound
        if isinstance(e, I.Op):
            return e.op not in GRID_POSITIONS and all(self._closed(a, bound) for a in e.args)
        if isinstance(e, I.Agg):
            inner = set(bound)
            for b in e.binders:
                if not self._closed(b.coll, inner):
                    return False
                inner.add(b.var)
                if b.cond is not None and not self._closed(b.cond, inner):
                    return False
            return self._closed(e.elem, inner)
        return False

    def ex_Aggregate(self, node: A.Aggregate, scope: Scope) -> I.Expr:
        if node.func not in AGGREGATES or node.func in ("list", "set"):
            self.diag.error(node.func_span, f"'{node.func}' does not take a 'for' form",
                            did_you_mean(node.func, [a for a in AGGREGATES if a not in ("list", "set")]))
            return I.Const(ANY, node.span, None)
        binders, inner = self.binders(node.binders, scope)
        elem = self.expr(node.elem, inner)
        keyed = node.func in KEYED_AGGREGATES
        if keyed and node.key is None:
            self.diag.error(node.span, f"{node.func}() needs a 'by' key",
                            f"for example {node.func}(x for x in xs by x.points)")
            return I.Const(ANY, node.span, None)
        if not keyed and node.key is not None:
            self.diag.error(node.key.span, f"{node.func}() takes no 'by' key")
        if (node.supply is not None) != node.func.startswith("allocate"):
            where = node.supply.span if node.supply is not None else node.span
            self.diag.error(where, "'from SUPPLY' goes with allocate() only" if node.supply is not None
                            else f"{node.func}() needs 'from' a supply: {node.func}(need for x in xs by key from 10)")
        if not keyed:
            return self.finish_agg(node.func, elem, binders, node)
        if node.func.startswith("allocate") and len(binders) != 1:
            self.diag.error(node.span, f"{node.func}() takes one 'for': the claimants")
        key = self.expr(node.key, inner)
        supply = self.expr(node.supply, scope) if node.supply is not None else None
        if supply is not None and not is_int(supply.type):
            self.diag.error(node.supply.span, f"the supply is a number, found {supply.type}")
        if isinstance(key.type, TupleT):
            bad = [t for t in key.type.items if not is_int(t)]
        else:
            bad = [] if is_int(key.type) else [key.type]
        if bad:
            self.diag.error(node.key.span, f"a 'by' key is a number or a tuple of numbers, found {key.type}")
        agg = AGGREGATES[node.func]
        try:
            typ = agg.typing(elem.type) if not node.func.startswith("allocate") else \
                agg.typing(binders[0].coll.type.elem if binders and isinstance(binders[0].coll.type, CollT)
                           else ANY)
            if node.func.startswith("allocate") and not is_int(elem.type):
                raise OpTypeError(f"what each claimant needs is a number, found {elem.type}")
        except OpTypeError as exc:
            self.diag.error(node.elem.span, exc.message)
            typ = ANY
        return I.Agg(typ, node.span, node.func, elem, binders, key, supply)

    def ex_Comprehension(self, node: A.Comprehension, scope: Scope) -> I.Expr:
        binders, inner = self.binders(node.binders, scope)
        elem = self.expr(node.elem, inner)
        return self.finish_agg(node.kind, elem, binders, node)

    def ex_Literal(self, node: A.Literal, scope: Scope) -> I.Expr:
        items = [self.expr(i, scope) for i in node.items]
        if node.kind == "tuple":
            typ: Type = TupleT(tuple(i.type for i in items))
        else:
            elem: Type | None = ANY
            for i, it in enumerate(items):
                elem = join(elem, it.type)
                if elem is None:
                    self.diag.error(node.items[i].span, f"the items of this {node.kind} have different types")
                    elem = ANY
                    break
            typ = CollT(node.kind, elem)
        if all(isinstance(i, I.Const) for i in items):
            values = tuple(i.value for i in items)
            if node.kind == "set":
                values = rt.oset(values)
            return I.Const(typ, node.span, values)
        kind = {"tuple": "make_tuple", "list": "make_list", "set": "make_set"}[node.kind]
        return self.make_op(kind, items, node.span, typ, [i.span for i in node.items])

    def ex_MapLit(self, node: A.MapLit, scope: Scope) -> I.Expr:
        mapping = {}
        key_t: Type | None = ANY
        val_t: Type | None = ANY
        for k, v in node.pairs:
            ke, ve = self.expr(k, scope), self.expr(v, scope)
            if not isinstance(ke, I.Const) or not isinstance(ve, I.Const):
                self.diag.error((k if not isinstance(ke, I.Const) else v).span,
                                "the entries of a table of values must be known before play")
                continue
            if ke.value in mapping:
                self.diag.error(k.span, f"key {ke.value!r} appears twice")
            mapping[ke.value] = ve.value
            joined = join(key_t, ke.type)
            if joined is None:
                self.diag.error(k.span, f"the keys of a table of values have one type: this one is {ke.type}, "
                                        f"the ones before are {key_t}")
            key_t = joined or key_t
            joined = join(val_t, ve.type)
            if joined is None:
                self.diag.error(v.span, f"the values of a table of values have one type: this one is "
                                        f"{ve.type}, the ones before are {val_t}")
            val_t = joined or val_t
        default, has_default = None, False
        if node.default is not None:
            de = self.expr(node.default, scope)
            if not isinstance(de, I.Const):
                self.diag.error(node.default.span, "the 'else' value must be known before play")
            else:
                default, has_default = de.value, True
                joined = join(val_t, de.type)
                if joined is None:
                    self.diag.error(node.default.span, f"the 'else' value is {de.type}, the values are {val_t}")
                val_t = joined or val_t
        mv = MapValue(mapping, default, has_default, key_t, val_t)
        return I.Const(MapT(key_t, val_t), node.span, mv)

    def ex_Index(self, node: A.Index, scope: Scope) -> I.Expr:
        base = self.expr(node.base, scope)
        index = self.expr(node.index, scope)
        t = base.type
        if isinstance(t, BoardT):
            info = self.grids.get(t.grid)
            return self.make_op("board_get", [base, index], node.span, info.cell_enum if info else None,
                                [node.base.span, node.index.span])
        if isinstance(t, LayerT):
            return self.make_op("layer_get", [base, index], node.span, None,
                                [node.base.span, node.index.span])
        if isinstance(t, TupleT):
            if not (isinstance(index, I.Const) and isinstance(index.value, int)
                    and 0 <= index.value < len(t.items)):
                self.diag.error(node.index.span, f"a tuple of {len(t.items)} is indexed by a number "
                                                 f"from 0 to {len(t.items) - 1} known before play")
                return I.Const(ANY, node.span, None)
            return self.make_op("tuple_get", [base, index], node.span, t.items[index.value])
        if isinstance(t, MapT) and not isinstance(base, I.Const):
            if not isinstance(t.key, AnyT) and not assignable(index.type, t.key):
                self.diag.error(node.index.span, f"this table is indexed by {t.key}, not {index.type}")
            return self.make_op("dict_get", [base, index], node.span, None, [node.base.span, node.index.span])
        if isinstance(t, MapT) and isinstance(base, I.Const):
            mv = base.value
            if not isinstance(mv.key_type, AnyT) and not isinstance(index.type, AnyT) and \
                    not (is_int(mv.key_type) and is_int(index.type)) and mv.key_type != index.type:
                self.diag.error(node.index.span, f"this table of values is indexed by {mv.key_type}, not {index.type}")
            return self.make_op("map_get", [index], node.span, mv, [node.index.span])
        if not isinstance(t, AnyT):
            self.diag.error(node.base.span, f"cannot index a {t} with [...]",
                            "index a grid with a cell (g[c]), a layer with a cell, or a table of values with a key")
        return I.Const(ANY, node.span, None)

    def ex_Attr(self, node: A.Attr, scope: Scope) -> I.Expr:
        base = self.expr(node.base, scope)
        t = base.type
        if isinstance(t, EnumT):
            info = self.enums.get(t.name)
            if info is not None and node.name in info.columns:
                if t.name in self.defs:
                    self.reads_edge(t.name, node.name_span)
                data = AttrData(t.name, node.name, info.columns[node.name], info.attrs[node.name])
                return self.make_op("attr", [base], node.span, data)
            cols = list(info.columns) if info else []
            self.diag.error(node.name_span, f"'{t.name}' has no column '{node.name}'",
                            did_you_mean(node.name, cols) or (f"columns: {', '.join(cols)}" if cols else None))
            return I.Const(ANY, node.span, None)
        if isinstance(t, RecordT):
            rec = self.records.get(t.name)
            fields = dict(rec.fields) if rec else {}
            if node.name in fields:
                return self.make_op("field", [base], node.span, rt.FieldData(node.name, fields[node.name]))
            self.diag.error(node.name_span, f"record '{t.name}' has no field '{node.name}'",
                            did_you_mean(node.name, fields) or ("fields: " + ", ".join(fields)))
            return I.Const(ANY, node.span, None)
        if isinstance(t, SeatT):
            if node.name in ("kind", "title", "name"):
                return self.make_op("seat_attr", [base], node.span, node.name)
            self.diag.error(node.name_span, f"a seat has no '{node.name}'", "a seat has: kind, title, name")
            return I.Const(ANY, node.span, None)
        if not isinstance(t, AnyT):
            self.diag.error(node.name_span, f"a {t} has no '{node.name}'")
        return I.Const(ANY, node.span, None)

    def ex_New(self, node: A.New, scope: Scope) -> I.Expr:
        rec = self.records.get(node.record)
        if rec is None:
            records = list(self.records)
            self.diag.error(node.record_span, f"unknown record '{node.record}'",
                            did_you_mean(node.record, records) or ("records: " + ", ".join(records)
                                                                   if records else "declare it: record NAME { ... }"))
            return I.Const(ANY, node.span, None)
        self.reads_edge(rec.name, node.record_span)
        values = self.record_fields(rec, node.fields, node.span, scope, complete=True)
        args = [values.get(n, I.Const(ANY, node.span, None)) for n, _ in rec.fields]
        return self.make_op("new_record", args, node.span, rec.cls, fold=False)

    def ex_With(self, node: A.With, scope: Scope) -> I.Expr:
        base = self.expr(node.base, scope)
        if not isinstance(base.type, RecordT):
            if not isinstance(base.type, AnyT):
                self.diag.error(node.base.span, f"'with' changes fields of a record, not of a {base.type}")
            return I.Const(ANY, node.span, None)
        rec = self.records[base.type.name]
        values = self.record_fields(rec, node.fields, node.span, scope, complete=False)
        names = tuple(values)
        return self.make_op("with", [base] + [values[n] for n in names], node.span,
                            tuple(f"f_{n}" for n in names), fold=False)

    def ex_Unary(self, node: A.Unary, scope: Scope) -> I.Expr:
        operand = self.expr(node.operand, scope)
        return self.make_op("neg" if node.op == "-" else "not", [operand], node.span)

    def ex_Binary(self, node: A.Binary, scope: Scope) -> I.Expr:
        left = self.expr(node.left, scope)
        right = self.expr(node.right, scope)
        spans = [node.left.span, node.right.span]
        op = node.op
        if op == "+":
            if left.type == RELATION or right.type == RELATION:
                name = "rel_union"
            elif is_coll(left.type) and not isinstance(left.type, AnyT):
                name = "concat"
            elif isinstance(left.type, TextT) or isinstance(right.type, TextT):
                name = "text_concat"
            else:
                name = "add"
        elif op == "-" and isinstance(left.type, CollT):
            name = "minus"
        else:
            name = {"-": "sub", "*": "mul", "//": "floordiv", "%": "mod", "==": "eq", "!=": "ne",
                    "<": "lt", "<=": "le", ">": "gt", ">=": "ge", "and": "and", "or": "or",
                    "in": "in", "not in": "not_in", "..": "range"}[op]
        if name in ("eq", "ne") and isinstance(left.type, CollT) and isinstance(right.type, CollT) and \
                "pile" in (left.type.kind, right.type.kind):
            e = self.make_op("multiset_eq", [left, right], node.span, None, spans)
            if name == "ne":
                return self.make_op("not", [e], node.span)
            return e
        return self.make_op(name, [left, right], node.span, None, spans)

    def ex_IfExpr(self, node: A.IfExpr, scope: Scope) -> I.Expr:
        c = self.expr(node.cond, scope)
        t = self.expr(node.then, scope)
        o = self.expr(node.other, scope)
        if isinstance(c, I.Const) and isinstance(c.value, bool):
            # Switch-dependent branches: keep only the one that applies.
            chosen = t if c.value else o
            self.drop_pending((o if c.value else t).span)      # the branch left out is never computed
            if join(t.type, o.type) is None:
                self.diag.error(node.other.span, f"the two branches differ: {t.type} and {o.type}")
            return chosen
        return self.make_op("if", [c, t, o], node.span, None,
                            [node.cond.span, node.then.span, node.other.span])

    # ================================================================ scoring
    def resolve_scoring(self, node: A.Scoring):
        scope = Scope(kind="scoring")
        params = []
        for p in node.params:
            t = self.type(p.type)
            scope.names[p.name] = t
            params.append((p.name, t))
        grid = next((t.grid for _, t in params if isinstance(t, BoardT)), None)
        layers = []
        for layer in node.layers:
            scope.names[layer.name] = LayerT(grid)
            layers.append(layer.name)
        steps = []
        seen: dict[str, Span] = {}
        prev = None
        for step in node.steps:
            if step.name in seen:
                self.diag.error(step.name_span, f"step '{step.name}' appears twice in '{node.name}'",
                                notes=((seen[step.name], "first here"),))
            seen[step.name] = step.name_span
            key = f"{node.name}.{step.name}"
            saved, self.current = self.current, key
            self.reads.append((node.name, key, "contains", step.name_span))
            if prev is not None:
                self.reads.append((prev, key, "precedes", step.name_span))
            body = self.block(step.body, scope, "scoring")
            self.current = saved
            steps.append(I.StepDef(step.name, body, step))
            prev = key
        # a later step that reads a layer an earlier one marks depends on it ("feeds")
        marked = []
        for step in node.steps:
            reads = {n.id for n in _walk(step.body) if isinstance(n, A.Name) and n.id in layers}
            for key, marks in marked:
                if marks & reads:
                    self.reads.append((key, f"{node.name}.{step.name}", "feeds", step.name_span))
            marked.append((f"{node.name}.{step.name}",
                           {st.layer for st in _walk(step.body) if isinstance(st, A.Mark)}))
        self.scorings[node.name] = I.ScoringDef(node.name, params, layers, steps, node)

    # ================================================================ statements
    def block(self, stmts, scope: Scope, context: str) -> list[I.Stmt]:
        """Resolve statements in order; ``let`` and ``choose`` names stay visible after them."""
        inner = scope.child(context)
        return [s for s in (self.stmt(st, inner, context) for st in stmts) if s is not None]

    def stmt(self, node: A.Stmt, scope: Scope, context: str) -> I.Stmt | None:
        return getattr(self, "st_" + type(node).__name__)(node, scope, context)

    def only_in(self, node, context: str, allowed: tuple[str, ...], what: str) -> bool:
        if context not in allowed:
            where = {"scoring": "a scoring step", "procedure": "a procedure or mode",
                     "query": "a query"}
            self.diag.error(node.span, f"'{what}' cannot be used in {where.get(context, context)}",
                            f"'{what}' belongs in " + " or ".join(where[a] for a in allowed))
            return False
        return True

    def bind(self, scope: Scope, name: str, typ: Type, span: Span):
        if name in scope.names:
            self.diag.error(span, f"'{name}' is already defined in this block")
        else:
            self.no_hiding(scope, name, span)
        scope.names[name] = typ

    def no_hiding(self, scope: Scope, name: str, span: Span):
        """A name of a block (a let, a choice, a loop variable) cannot hide one of an
        enclosing block: both would be one variable when the rules run."""
        if scope.parent is not None and scope.parent.lookup(name) is not None:
            self.diag.error(span, f"'{name}' is already a name of an enclosing block (a parameter, a let, "
                                  "a choice or a loop variable): a name of an inner block cannot hide it",
                            "choose another name")

    def st_Let(self, node: A.Let, scope, context):
        value = self.expr(node.value, scope)
        if node.name in self.state:
            self.diag.error(node.name_span, f"'{node.name}' is a state variable: a let of that name would hide it",
                            f"choose another name; 'set {node.name} = ...' changes the state")
        self.bind(scope, node.name, value.type, node.name_span)
        return I.Let(node.span, node.name, value)

    def st_Choose(self, node: A.Choose, scope, context):
        coll = size = None
        typ: Type | None = None
        if node.domain in ("element", "subset"):
            coll = self.expr(node.coll, scope)
            if not is_coll(coll.type):
                self.diag.error(node.coll.span, f"a choice is made in a collection, found {coll.type}")
            elem = coll.type.elem if isinstance(coll.type, CollT) else ANY
            var_t = elem if node.domain == "element" else CollT("set", elem)
            if node.domain == "subset" and node.size is None:
                # any sub-collection: a pile's copies are chosen one by one
                var_t = CollT("pile" if isinstance(coll.type, CollT) and coll.type.kind == "pile"
                              else "set", elem)
            elif node.domain == "subset":
                size = self.expr(node.size, scope)
                if not is_int(size.type):
                    self.diag.error(node.size.span, f"the size of a choice is a number, found {size.type}")
        else:
            typ = self.type(node.type)
            var_t = typ
            if not isinstance(typ, (BoardT, AnyT)):
                self.diag.error(node.type.span, f"only a grid can be chosen whole; {typ} cannot",
                                "choose an element instead: choose x in collection")
            if context != "query":
                self.diag.error(node.span, "'choose NAME: TYPE' is only for queries")
        inner = scope.child()
        inner.names[node.name] = var_t
        where = None
        if node.where is not None:
            where = self.expr(node.where, inner)
            if not is_bool(where.type):
                self.diag.error(node.where.span, f"'where' takes a condition, found {where.type}")
        chooser: I.Expr | str | None = None
        if node.chooser == "random":
            chooser = "random"
        elif node.chooser is not None:
            chooser = self.expr(node.chooser, scope)
            if not isinstance(chooser.type, (SeatT, AnyT)):
                self.diag.error(node.chooser.span, f"'by' names the seat who chooses, found {chooser.type}")
        if context == "procedure" and chooser is None:
            self.diag.error(node.span, f"who makes choice '{node.name}'?",
                            "add 'by p' (a seat) or 'at random'")
        if context in ("scoring", "query") and isinstance(chooser, I.Expr):
            self.diag.error(node.span, f"a choice in a {context} is made by the "
                                       f"{'owner of the score' if context == 'scoring' else 'solver'}",
                            "remove 'by ...'")
        if context == "procedure":
            self.choice_types.setdefault(node.name, []).append(var_t)
        self.bind(scope, node.name, var_t, node.name_span)
        return I.Choose(node.span, node.name, node.domain, coll, size, typ, where, chooser,
                        tuple(t for t, _ in node.tags))

    def st_Points(self, node: A.Points, scope, context):
        if not self.only_in(node, context, ("scoring",), "points"):
            return None
        value = self.expr(node.value, scope)
        if not is_int(value.type):
            self.diag.error(node.value.span, f"points are a number, found {value.type}")
        return I.Points(node.span, value)

    def st_Mark(self, node: A.Mark, scope, context):
        if not self.only_in(node, context, ("scoring",), "mark"):
            return None
        t = scope.lookup(node.layer)
        if not isinstance(t, LayerT):
            layers = [n for n in scope.all_names() if isinstance(scope.lookup(n), LayerT)]
            self.diag.error(node.layer_span, f"'{node.layer}' is not a layer of this scoring",
                            did_you_mean(node.layer, layers) or "declare it: layer NAME")
        cells = self.expr(node.cells, scope)
        if not (isinstance(cells.type, CollT) and isinstance(cells.type.elem, (CellT, AnyT))) and \
                not isinstance(cells.type, AnyT):
            self.diag.error(node.cells.span, f"'mark' takes a set of cells, found {cells.type}")
        return I.Mark(node.span, node.layer, cells)

    def zone(self, node: A.Expr, scope: Scope, what: str) -> I.Expr:
        e = self.expr(node, scope)
        if not isinstance(e, (I.Global, I.SeatVar)) or e.name not in self.state:
            if not isinstance(e.type, AnyT):
                self.diag.error(node.span, f"{what} must be a pile of the game state (such as deck or hand(p))")
        elif not (isinstance(e.type, CollT) and e.type.kind == "pile"):
            self.diag.error(node.span, f"{what} must be a pile, '{e.name}' is {e.type}")
        return e

    def st_Shuffle(self, node, scope, context):
        if not self.only_in(node, context, ("procedure",), "shuffle"):
            return None
        return I.Shuffle(node.span, self.zone(node.zone, scope, "what is shuffled"))

    def st_Deal(self, node, scope, context):
        if not self.only_in(node, context, ("procedure",), "deal"):
            return None
        count = self.expr(node.count, scope)
        if not is_int(count.type):
            self.diag.error(node.count.span, f"how many cards to deal: a number, found {count.type}")
        return I.Deal(node.span, count, self.zone(node.source, scope, "the source"),
                      self.zone(node.target, scope, "the target"))

    def st_Move(self, node, scope, context):
        if not self.only_in(node, context, ("procedure",), "move"):
            return None
        target = self.zone(node.target, scope, "the target")
        if node.source is None:
            what = self.expr(node.what, scope)
            if isinstance(what, (I.Global, I.SeatVar)) and what.name in self.state:
                return I.Move(node.span, what, None, target)       # a whole pile
            if not is_coll(what.type):
                self.diag.error(node.what.span, f"'move' without 'from' takes a pile or a list of cards, "
                                                f"found {what.type}")
            return I.Move(node.span, what, "values", target)        # cards from nowhere
        source = self.zone(node.source, scope, "the source")
        what = self.expr(node.what, scope)
        return I.Move(node.span, what, source, target)

    def st_Step(self, node: A.Step, scope, context):
        """A named step of a procedure or mode: a block a variant can override, remove,
        or put a step beside."""
        if context != "procedure":
            self.diag.error(node.name_span, f"'step' cannot be used in "
                                            f"{'a scoring step' if context == 'scoring' else 'a query'}",
                            "named steps are the parts of a procedure or mode" +
                            ("; a scoring's steps are written at its top level" if context == "scoring" else ""))
            return None
        if node.name in self.steps_seen:
            self.diag.error(node.name_span, f"step '{node.name}' appears twice in '{self.step_owner}'",
                            "each step of a procedure or mode has a name of its own",
                            notes=((self.steps_seen[node.name], "first here"),))
        self.steps_seen[node.name] = node.name_span
        key = f"{self.step_owner}.{node.name}"
        self.reads.append((self.current, key, "contains", node.name_span))
        # "precedes" links steps of one block, in order (not a step to those inside it,
        # nor an if's branches to each other)
        previous = self.last_step.get(scope)
        if previous is not None:
            self.reads.append((previous, key, "precedes", node.name_span))
        self.last_step[scope] = key
        saved, self.current = self.current, key
        body = self.block(node.body, scope, context)
        self.current = saved
        return I.Block(node.span, node.name, body)

    def st_Checkpoint(self, node, scope, context):
        if not self.only_in(node, context, ("procedure",), "checkpoint"):
            return None
        return I.Checkpoint(node.span, node.name)

    def st_Note(self, node, scope, context):
        if not self.only_in(node, context, ("procedure",), "section" if node.heading else "note"):
            return None
        return I.Note(node.span, node.name, self.expr(node.value, scope), node.heading)

    def st_Take(self, node, scope, context):
        if not self.only_in(node, context, ("procedure",), "take"):
            return None
        source = self.zone(node.source, scope, "the source")
        what = self.expr(node.what, scope)
        return I.Take(node.span, what, source)

    def st_Place(self, node, scope, context):
        if not self.only_in(node, context, ("procedure",), "place"):
            return None
        card = self.expr(node.card, scope)
        source = self.zone(node.source, scope, "the source")
        board = self.expr(node.board, scope)
        if not isinstance(board, (I.Global, I.SeatVar)) or not isinstance(board.type, BoardT):
            if not isinstance(board.type, AnyT):
                self.diag.error(node.board.span, "a card is placed on a grid of the game state (such as board(p))")
        at = self.expr(node.at, scope)
        if not is_cell(at.type):
            self.diag.error(node.at.span, f"'at' takes a cell, found {at.type}")
        return I.Place(node.span, card, source, board, at)

    def st_Pass(self, node, scope, context):
        if not self.only_in(node, context, ("procedure",), "pass"):
            return None
        sv = self.state.get(node.zone)
        if sv is None or not sv.per_seat:
            seat_vars = [k for k, v in self.state.items() if v.per_seat]
            self.diag.error(node.zone_span, f"'{node.zone}' is not a pile each seat holds",
                            did_you_mean(node.zone, seat_vars))
        direction = self.expr(node.direction, scope)
        if direction.type != EnumT("direction") and not isinstance(direction.type, AnyT):
            self.diag.error(node.direction.span, f"pass to left or right, not {direction.type}")
        return I.Pass(node.span, node.zone, direction)

    def st_Repeat(self, node, scope, context):
        count = self.expr(node.count, scope)
        if not is_int(count.type):
            self.diag.error(node.count.span, f"repeat takes a number, found {count.type}")
        return I.Repeat(node.span, count, self.block(node.body, scope, context))

    def st_For(self, node, scope, context):
        coll = self.expr(node.coll, scope)
        if not is_coll(coll.type):
            self.diag.error(node.coll.span, f"'for' needs a collection, found {coll.type}")
        inner = scope.child()
        self.no_hiding(inner, node.var, node.var_span)
        inner.names[node.var] = coll.type.elem if isinstance(coll.type, CollT) else ANY
        return I.For(node.span, node.var, coll, self.block(node.body, inner, context), node.simultaneous)

    def st_If(self, node, scope, context):
        cond = self.expr(node.cond, scope)
        if not is_bool(cond.type):
            self.diag.error(node.cond.span, f"'if' takes a condition, found {cond.type}")
        return I.If(node.span, cond, self.block(node.then, scope, context),
                    self.block(node.other, scope, context))

    def st_Do(self, node, scope, context):
        if not self.only_in(node, context, ("procedure",), "do"):
            return None
        d = self.defs.get(node.proc)
        args = [self.expr(a, scope) for a in node.args]
        if not isinstance(d, A.Procedure):
            procs = [k for k, v in self.defs.items() if isinstance(v, A.Procedure)]
            self.diag.error(node.proc_span, f"unknown procedure '{node.proc}'", did_you_mean(node.proc, procs))
            return None
        self.reads_edge(node.proc, node.proc_span, "calls")
        if len(args) != len(d.params):
            self.diag.error(node.span, f"procedure '{d.name}' takes {len(d.params)} argument(s), not {len(args)}")
        for p, a, an in zip(d.params, args, node.args):
            t = self.type(p.type)
            if not assignable(a.type, t):
                self.diag.error(an.span, f"argument '{p.name}' of '{d.name}' is {t}, not {a.type}")
        return I.Do(node.span, node.proc, args)

    def st_Report(self, node, scope, context):
        if not self.only_in(node, context, ("procedure", "query"), "report"):
            return None
        var = coll = None
        inner = scope
        if node.var is not None:
            coll = self.expr(node.coll, scope)
            inner = scope.child()
            self.no_hiding(inner, node.var, node.span)
            inner.names[node.var] = coll.type.elem if isinstance(coll.type, CollT) else ANY
            var = node.var
        return I.Report(node.span, node.name, var, coll, self.expr(node.value, inner))

    def st_SetVar(self, node: A.SetVar, scope, context):
        value = self.expr(node.value, scope)
        if node.key is not None:
            sv = self.state.get(node.name)
            if sv is None or not sv.keyed:
                keyed = [k for k, v in self.state.items() if v.keyed]
                self.diag.error(node.name_span, f"'{node.name}' is not state kept per seat or per key",
                                did_you_mean(node.name, keyed))
                return None
            if not self.only_in(node, context, ("procedure",), "set"):
                return None
            key = self.expr(node.key, scope)
            if not assignable(key.type, sv.key_type):
                self.diag.error(node.key.span, f"'{node.name}' is kept per {sv.per}, not per {key.type}")
            if not assignable(value.type, sv.type):
                self.diag.error(node.value.span, f"'{node.name}' holds {sv.type}, not {value.type}")
            self.reads_edge(node.name, node.name_span, "writes")
            return I.SetVar(node.span, node.name, "keyed", key, value)
        local = scope.lookup(node.name)
        if local is not None:
            if isinstance(local, LayerT):
                self.diag.error(node.name_span, f"'{node.name}' is a layer: use 'mark'")
                return None
            if not assignable(value.type, local):
                self.diag.error(node.value.span, f"'{node.name}' holds {local}, not {value.type}")
            return I.SetVar(node.span, node.name, "local", None, value)
        sv = self.state.get(node.name)
        if sv is not None:
            if sv.keyed:
                self.diag.error(node.name_span, f"'{node.name}' is kept per {sv.per}: set {node.name}(x) = ...")
                return None
            if not self.only_in(node, context, ("procedure",), "set"):
                return None
            if not assignable(value.type, sv.type):
                self.diag.error(node.value.span, f"'{node.name}' holds {sv.type}, not {value.type}")
            self.reads_edge(node.name, node.name_span, "writes")
            return I.SetVar(node.span, node.name, "shared", None, value)
        self.diag.error(node.name_span, f"cannot set '{node.name}': it is not a local value or game state",
                        did_you_mean(node.name, scope.all_names() | set(self.state)) or
                        f"declare it first: let {node.name} = ...")
        return None

    def st_While(self, node: A.While, scope, context):
        cond = self.expr(node.cond, scope)
        if not is_bool(cond.type):
            self.diag.error(node.cond.span, f"'while' takes a condition, found {cond.type}")
        return I.While(node.span, cond, self.block(node.body, scope, context))

    def st_Input(self, node, scope, context):
        if not self.only_in(node, context, ("query",), "input"):
            return None
        t = self.type(node.type)
        default = None
        if node.default is not None:
            default = self.expr(node.default, scope)
            if not assignable(default.type, t):
                self.diag.error(node.default.span, f"the default of '{node.name}' is {default.type}, not {t}")
        self.bind(scope, node.name, t, node.name_span)
        return I.Input(node.span, node.name, t, default)

    def st_Require(self, node, scope, context):
        if not self.only_in(node, context, ("query", "procedure"), "require"):
            return None
        cond = self.expr(node.cond, scope)
        if not is_bool(cond.type):
            self.diag.error(node.cond.span, f"'require' takes a condition, found {cond.type}")
        message = None
        if context == "procedure" and node.message is None:
            self.diag.error(node.span, "a requirement of the rules has a name and says what is wrong "
                                       "when it does not hold",
                            'write require NAME [IDs]: condition else "message" ({expression} parts show values)')
        elif context == "query" and node.message is not None:
            self.diag.error(node.name_span, "a query's 'require' is a bare condition; its reasons are the "
                                            "sentences of the rules it calls",
                            'write require CONDITION, and give the sentence to a rule: rule NAME = ... else "..."')
        elif node.message is not None:
            message = self.message(node.message, scope)
        if context == "procedure" and node.name is not None:
            seen = self.requires_seen
            if node.name in seen:
                self.diag.error(node.name_span, f"a second requirement named '{node.name}' here",
                                "each requirement of a procedure has a name of its own",
                                notes=((seen[node.name], "the first"),))
            seen[node.name] = node.name_span
        return I.Require(node.span, cond, tuple(t for t, _ in node.tags), node.name, message)

    def st_Play(self, node, scope, context):
        if not self.only_in(node, context, ("query",), "play"):
            return None
        names = self.choice_names()
        if node.name not in names:
            self.diag.error(node.name_span, f"no procedure of this spec makes a choice '{node.name}'",
                            did_you_mean(node.name, names) or "play names a 'choose' of a procedure")
        value = self.expr(node.value, scope)
        kinds = self.choice_types.get(node.name, [])
        if kinds and not any(same(value.type, t) for t in kinds):      # options are compared with ==
            self.diag.error(node.value.span, f"'{node.name}' is chosen among values of type "
                                             f"{' or '.join(sorted({str(t) for t in kinds}))}, and this is {value.type}",
                            "play answers a choice of the game with one of its options")
        return I.Play(node.span, node.name, value)

    def choice_names(self) -> set[str]:
        """The names of every choice the procedures and modes make."""
        out: set[str] = set()

        def walk(body):
            for st in body or ():
                if isinstance(st, A.Choose):
                    out.add(st.name)
                for attr in ("body", "then", "other"):
                    inner = getattr(st, attr, None)
                    if isinstance(inner, (list, tuple)):
                        walk(inner)
        for d in self.defs.values():
            if isinstance(d, (A.Procedure, A.Mode)):
                walk(d.body)
        return out

    def st_Objective(self, node, scope, context):
        if not self.only_in(node, context, ("query",), node.sense):
            return None
        value = self.expr(node.value, scope)
        # a number, or a tuple of numbers compared left to right: the first is
        # optimised, the next breaks its ties, and so on
        lexicographic = isinstance(value.type, TupleT) and len(value.type.items) > 1 and \
            all(is_int(t) for t in value.type.items)
        if not is_int(value.type) and not lexicographic:
            self.diag.error(node.value.span, f"{node.sense} takes a number or a tuple of numbers, "
                                             f"found {value.type}",
                            hint=f"{node.sense} (a, b) optimises a, then b among the answers equal on a")
        names = None
        if node.names is not None:
            names = self.expr(node.names, scope)
            width = len(value.type.items) if lexicographic else 1
            given = len(names.type.items) if isinstance(names.type, TupleT) else 1
            if given != width and not isinstance(names.type, AnyT):
                self.diag.error(node.names.span, f"{given} name(s) for an objective of {width} number(s)",
                                "one name per number: maximize (a, b) named (\"first\", \"second\")")
        return I.Objective(node.span, node.sense, value, names)

    # ================================================================ procedures, modes, queries
    def resolve_procedure(self, node: A.Procedure):
        self.requires_seen = {}
        self.steps_seen, self.step_owner, self.last_step = {}, node.name, {}
        scope = Scope(kind="procedure")
        params = []
        for p in node.params:
            t = self.type(p.type)
            scope.names[p.name] = t
            params.append((p.name, t))
        saved, self.current = self.current, node.name
        body = self.block(node.body, scope, "procedure")
        self.current = saved
        self.procedures[node.name] = I.ProcDef(node.name, params, body, node)

    def resolve_mode(self, node: A.Mode):
        self.requires_seen = {}
        self.steps_seen, self.step_owner, self.last_step = {}, node.name, {}
        saved, self.current = self.current, node.name
        players = self.expr(node.players, Scope(kind="def"))
        lo = hi = 1
        if isinstance(players, I.Const) and isinstance(players.value, int):
            lo = hi = players.value
        elif isinstance(players, I.Const) and isinstance(players.value, tuple) and players.value:
            lo, hi = min(players.value), max(players.value)
        elif isinstance(players, I.Const) and players.value == ():
            self.diag.error(node.players.span, f"the mode '{node.name}' is for no number of players: "
                                               "this range is empty",
                            "a range a..b needs a <= b: see the params it names (a --set value or a "
                            "variant may have lowered one)")
        else:
            self.diag.error(node.players.span, "players takes a number or a range such as 3..6")
        if lo < 1 <= hi or hi < 1:
            self.diag.error(node.players.span, f"the mode '{node.name}' is for {lo}..{hi} players: "
                                               "a game has 1 player or more")
        elif hi > MOST_PLAYERS:
            self.diag.error(node.players.span, f"the mode '{node.name}' is for up to {hi:,} players, more than "
                                               f"the {MOST_PLAYERS} a game may seat")
        scope = Scope(kind="procedure")
        seats = []
        has_players = False
        for entry in node.seats:
            if entry.name is None:
                if has_players:
                    self.diag.error(entry.span, "'players' appears twice in seats")
                has_players = True
                seats.append(I.SeatSpec(None, "player", None))
                continue
            if entry.kind not in BUILTIN_ENUMS["seat_kind"]:
                self.diag.error(entry.span, f"unknown seat kind '{entry.kind}'",
                                did_you_mean(entry.kind, BUILTIN_ENUMS["seat_kind"]) or
                                "kinds: player, neutral, automaton")
            self.bind(scope, entry.name, SEAT, entry.span)
            seats.append(I.SeatSpec(entry.name, entry.kind, entry.title))
        named_players = sum(1 for s in seats if s.name and s.kind == "player")
        if has_players and named_players:
            self.diag.error(node.span, "use either 'players' or named player seats, not both")
        if not has_players and named_players != hi:
            self.diag.error(node.players.span, f"{named_players} player seat(s) are named but the mode is for "
                                               f"{lo}..{hi} players")
        body = self.block(node.body, scope, "procedure")
        self.current = saved
        self.modes[node.name] = I.ModeDef(node.name, node.title, lo, hi, seats, body, node)

    def resolve_query(self, node: A.Query):
        saved, self.current = self.current, node.name
        scope = Scope(kind="query")
        body = self.block(node.body, scope, "query")
        self.current = saved
        inputs = []
        for st, ast_st in zip([s for s in body if isinstance(s, I.Input)],
                              [s for s in node.body if isinstance(s, A.Input)]):
            inputs.append((st.name, st.type, ast_st.doc))
        # At most one maximize/minimize on every path through the query's branches; a
        # query without one asks whether its conditions can be met at all.
        def objectives(stmts) -> int:
            most = 0
            count = 0
            for st in stmts:
                if isinstance(st, I.Objective):
                    count += 1
                elif isinstance(st, I.If):
                    most = max(most, objectives(st.then), objectives(st.other))
            return count + most
        if objectives(body) > 1:
            self.diag.error(node.name_span, f"query '{node.name}' has more than one maximize or minimize "
                                            "on one path")
        # every path optimises the same way: one sense, and numbers or tuples of one length
        found = [st for st in I.statements(body) if isinstance(st, I.Objective)] \
            if objectives(body) <= 1 else []
        for st in found[1:]:
            if isinstance(st.value.type, AnyT) or isinstance(found[0].value.type, AnyT):
                break           # an error reported already
            if st.sense != found[0].sense or _arity(st.value.type) != _arity(found[0].value.type):
                def shape(o) -> str:
                    n = _arity(o.value.type)
                    return f"{o.sense}s " + ("a number" if n == 1 else f"a tuple of {n} numbers")
                self.diag.error(st.span, f"this path {shape(st)}, the one at line {found[0].span.line} "
                                         f"{shape(found[0])}",
                                hint="every path of a query maximizes (or minimizes) the same kind of "
                                     "value: a number, or tuples of one length")
                break
        self.check_objective_names(body, set())
        self.queries[node.name] = I.QueryDef(node.name, node.title, body, inputs, node)

    def check_objective_names(self, body: list, chosen: set) -> None:
        """An objective's names are known before any choice: they read no name a
        ``choose`` binds, nor a ``let`` computed from one (in statement order)."""
        for st in body:
            if isinstance(st, I.Choose):
                chosen.add(st.name)
            elif isinstance(st, I.Let) and I.free_locals(st.value) & chosen:
                chosen.add(st.name)
            elif isinstance(st, I.If):
                self.check_objective_names(st.then, set(chosen))
                self.check_objective_names(st.other, set(chosen))
            elif isinstance(st, I.Objective) and st.names is not None:
                read = sorted(I.free_locals(st.names) & chosen)
                if read:
                    self.diag.error(st.names.span, f"an objective's names are known before any choice; "
                                                   f"they read '{read[0]}', which a choice decides",
                                    "name the numbers from the inputs (named goal_names(objective))")


# The most cells of a grid (a board game's: Go has 361; its relations go over pairs of cells).
MOST_GRID_CELLS = 1_000


def _arity(t) -> int:
    """How many numbers an objective of this type compares: 1, or a tuple's length."""
    return len(t.items) if isinstance(t, TupleT) else 1
