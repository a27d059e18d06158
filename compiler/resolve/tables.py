"""Phase 1 of the resolver: enums, tables (inline and from CSV files, with a variant's edits),
the spec's checks, records and their fields, and the values written in table cells.

In:  the AST definitions collected by the driver.
Out: ``enums``, ``records``, ``checks``/``invariants`` of the resolver, or diagnostics.
"""
from __future__ import annotations


import csv
import functools
import io
import re
from pathlib import Path


from rulewright.compiler.syntax import ast as A
from rulewright.compiler import ir as I, files as files_mod
from rulewright.compiler.semantics import runtime as rt
from rulewright.compiler.diagnostics import BadInputError, Diagnostic, Span, did_you_mean, whole_number, register_source
from rulewright.compiler.types import ANY, AnyT, BoolT, CollT, EnumT, IntT, TextT, Type, assignable, held_shape, is_bool
from rulewright.compiler.play.inputs import not_utf8
from rulewright.compiler.resolve.scope import MOST_ROWS, Scope, NAME_RE, named_options, rt_oset, span_within, written_at


# the control characters a table file may not hold: C0 but tab and line feed, a carriage
# return but before a line feed (a CRLF line end), DEL and C1
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]|\r(?!\n)")


class TablesPhase:
    """Enums, tables, checks and records (see the module's docstring)."""

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
                if named_options(node):
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
            if not NAME_RE.fullmatch(row.key):
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
                self.diag.error(written_at(node.span, node.source), why, files_mod.refusal_hint())
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
        # a control character (ESC, BEL, a lone CR, NUL, DEL, C1...) has no place in a table
        # a player reads: refused where written, in the spec's table file (a spec error) and
        # in the player's own (a bad input) alike; a tab, and a line break in a quoted cell,
        # are text
        bad = _CONTROL.search(text)
        if bad is not None:
            line = text.count("\n", 0, bad.start()) + 1
            col = bad.start() - (text.rfind("\n", 0, bad.start()) + 1) + 1
            shown = "\\r" if bad.group() == "\r" else "\\x%02x" % ord(bad.group())
            where = Span(str(path), line, col, line, col + 1)
            message = f"a control character ({shown}) in this table file: a table holds only text a player reads"
            hint = "remove it (a cell may hold tabs, and line breaks when quoted)"
            if own:
                raise BadInputError(Diagnostic(where, message, hint))
            self.diag.error(where, message, hint, notes=((node.span, f"the table '{node.name}' reads it"),))
            return []
        rows, errors = _rows_of(str(path), text, tuple(columns))
        for span, message, hint in errors:
            self.diag.error(span, message, hint)
        return list(rows)

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
            shapes = {i: held_shape(t) for i, (_, t) in enumerate(rec.fields, 1)}
            rec.cls = rt.record_class(name, [f for f, _ in rec.fields],
                                      {i: shape for i, shape in shapes.items() if shape is not None})

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
                return tuple(self.csv_value(m.group().strip(), ctype.elem, span_within(span, m), column)
                             for m in re.finditer(r"[^/]+", text))
            if text.strip() in ("", "-", "none"):
                return rt_oset(()) if ctype.kind == "set" else ()
            items = tuple(self.csv_value(m.group(), ctype.elem, span_within(span, m), column)
                          for m in re.finditer(r"\S+", text))
            return rt_oset(items) if ctype.kind == "set" else items
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


@functools.lru_cache(maxsize=8)
def _rows_of(path: str, text: str, columns: tuple[str, ...]) -> tuple[tuple[A.Row, ...], tuple]:
    """The rows of a table file's text (its first line the header ``name`` + ``columns``),
    and the errors found, each (span, message, hint). Read once per text: the versions of
    a game that load the same file (a player's own card table, for each of them) share it."""
    errors = []
    rows = []
    # (read as a stream: a quoted cell keeps the line breaks written in it)
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        header = next(reader, [])
    except csv.Error:
        header = []
    expected = ["name", *columns]
    if not text.strip():
        return (), ((Span(path, 1, 1, 1, 2), "this table file is empty",
                     "its first line is the header: " + ",".join(expected)),)
    if [h.strip() for h in header] != expected:
        return (), ((Span(path, 1, 1, 1, len(",".join(header)) + 1),
                     "the header of this table file does not match the table", "expected: " + ",".join(expected)),)
    lines = text.splitlines()
    records = []
    start = reader.line_num + 1       # the line a record starts on (a quoted cell may span lines)
    try:
        for fields_ in reader:
            if len(records) == MOST_ROWS:
                return (), ((Span(path, start, 1, start, 2),
                             f"this table file has more than {MOST_ROWS:,} rows, the most a table may have",
                             "a table of cards lists each kind of card once, with its count"),)
            records.append((start, fields_))
            start = reader.line_num + 1
    except csv.Error:
        return (), ((Span(path, start, 1, start, len(lines[start - 1]) + 1 if start <= len(lines) else 2),
                     "a quote (\") opened in this row is never closed", "close the quoted cell, or remove the quote"),)
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
            cspan = Span(path, lineno, at, lineno, at + max(1, len(f)))
            col = at + len(f) + 1
            if i == 0:
                key_span = cspan
                continue
            cells.append((("raw", f.strip()), cspan))
        key = fields_[0].strip()
        if not NAME_RE.fullmatch(key):
            errors.append((key_span, f"'{key[:60]}' is not a name for a row",
                           "a row's name is written as every name of the language: lower-case letters, "
                           "digits and _, starting with a letter or _ (snake_case)"))
            continue
        rows.append(A.Row(key_span, key, tuple(cells)))
    return tuple(rows), tuple(errors)
