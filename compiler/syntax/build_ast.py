"""Lark tree -> AST.

In:  the ``lark.Tree`` of one file (from ``parse``) and its path.
Out: an ``ast.SpecFile``; every node carries the ``Span`` it came from.

Shapes the grammar cannot express are rejected here with a diagnostic, for
example ``count(3 if x)`` whose argument is not ``NAME in COLLECTION``. The
expressions are built by ``build_exprs`` (a mixin of the builder).
"""
from __future__ import annotations


from lark import Token, Tree

from rulewright.compiler.syntax import ast as A
from rulewright.compiler.diagnostics import Diagnostic, Span, SpecSyntaxError, source_line
from rulewright.compiler.variants import word
from rulewright.compiler.syntax.parse import parser
from rulewright.compiler.syntax.build_exprs import ExpressionBuilder




_ESCAPES = {'"': '"', "\\": "\\", "n": "\n", "t": "\t", "r": "\r"}
_MESSAGE_ESCAPES = {"{": "{", "}": "}"}        # a message's braces written as text


class _Builder(ExpressionBuilder):
    def __init__(self, path: str):
        self.path = path
        # (line, column) where line 1 of the tree being built starts: an expression of a
        # message is parsed on its own, then placed where the message writes it
        self.shift: tuple[int, int] | None = None

    # ------------------------------------------------------------ helpers
    def span(self, node) -> Span:
        if isinstance(node, Token):
            line, col = node.line, node.column
            end_line, end_col = node.end_line or node.line, node.end_column or node.column + len(str(node))
        else:
            meta = node.meta
            if getattr(meta, "empty", True):
                return Span(self.path, 1, 1, 1, 1)
            line, col, end_line, end_col = meta.line, meta.column, meta.end_line, meta.end_column
        if self.shift is not None:          # one line, parsed alone: moved to its place
            at_line, at_col = self.shift
            return Span(self.path, at_line, col + at_col, at_line, end_col + at_col)
        return Span(self.path, line, col, end_line, end_col)

    def spans(self, node, docs) -> Span:
        """The span of a part written after doc comments: from its first word (the
        caret of a message points at the part, not at its doc comment)."""
        span = self.span(node)
        if not docs:
            return span
        line = docs[-1].line + 1
        # past blank lines and '#' comments between the doc comment and the part
        while (text := source_line(self.path, line)) is not None and line < span.end_line and \
                (not text.strip() or text.lstrip().startswith("#")):
            line += 1
        if text is None:
            return span
        return Span(self.path, line, len(text) - len(text.lstrip()) + 1, span.end_line, span.end_col)

    def fail(self, node, message: str, hint: str | None = None):
        raise SpecSyntaxError(Diagnostic(self.span(node), message, hint))

    @staticmethod
    def doc(tokens) -> str:
        lines = []
        for tok in tokens:
            text = str(tok)[3:]
            lines.append(text[1:] if text.startswith(" ") else text)
        return "\n".join(lines).strip()

    def split(self, children):
        """(doc tokens, tags, remaining children) of a definition's children."""
        docs = [c for c in children if isinstance(c, Token) and c.type == "DOC"]
        tags = ()
        rest = []
        for c in children:
            if isinstance(c, Token) and c.type == "DOC":
                continue
            if isinstance(c, Tree) and c.data == "tags":
                tags = tuple((str(t), self.span(t)) for t in c.children)
                names = [t for t, _ in tags]
                for i, (t, _) in enumerate(tags):
                    if t in names[:i]:
                        self.fail(c.children[i], f"rule ID '{t}' is given twice here", "keep one")
                continue
            rest.append(c)
        return docs, tags, rest

    # ------------------------------------------------------------ file
    def file(self, tree: Tree) -> A.SpecFile:
        defs, changes = [], []
        variant = None
        for index, item in enumerate(tree.children):
            docs = [c for c in item.children if isinstance(c, Token) and c.type == "DOC"]
            doc = self.doc(docs)
            rest = [c for c in item.children if not (isinstance(c, Token) and c.type == "DOC")]
            if item.data == "item" and rest[-1].data == "variant_def":
                if index != 0:
                    self.fail(rest[-1], "'variant' comes first in its file",
                              'a variant file starts with: variant NAME extends "PATH"')
                variant = self.def_variant(rest[-1], doc)
                continue
            if item.data == "remove_item":
                _, tags, rest = self.split(rest)
                kind = str(rest[0].children[0]) if isinstance(rest[0], Tree) else None
                names = [c for c in rest if isinstance(c, Token)]
                target = ".".join(str(n) for n in names)
                span = self.between(names[0], names[-1])
                changes.append(A.Change(self.span(item), "remove", kind, target, span, doc, tags=tags))
                continue
            node = rest[-1]
            if item.data in ("add_step_item", "add_field_item", "add_row_item"):
                changes.append({"add_step_item": self.step_add, "add_field_item": self.field_add,
                                "add_row_item": self.row_add}[item.data](node, doc))
                continue
            if item.data == "override_item":
                changes.append(self.override(node, doc))
                continue
            d = self.definition(node, doc)
            if item.data == "add_item" or variant is not None:
                changes.append(A.Change(self.span(item), "add", word(d), d.name, d.name_span, doc, d))
            else:
                defs.append(d)
        if variant is None and changes:
            first = changes[0]
            raise SpecSyntaxError(Diagnostic(
                first.span, f"'{first.action}' belongs in a variant file",
                'start the file with: variant NAME extends "PATH" (the spec it changes)'))
        return A.SpecFile(self.path, tuple(defs), variant, tuple(changes))

    def def_variant(self, node, doc):
        name, nspan, tags, rest = self.head(node)
        title = self.string(rest[0]) if len(rest) == 2 else None
        return A.Variant(self.span(node), name, nspan, tags, doc, title, self.string(rest[-1]),
                         self.span(rest[-1]))

    def override(self, node: Tree, doc: str) -> A.Change:
        if node.data == "switch_default":
            name, nspan, tags, rest = self.head(node)
            value, vspan = self.literal(rest[0])
            sw = A.Switch(self.span(node), name, nspan, tags, doc, None, value, vspan)
            return A.Change(self.span(node), "override", "switch", name, nspan, doc, sw)
        if node.data == "step_override":
            _, tags, rest = self.split(node.children)
            title = self.title(rest, 2)
            scoring, step_tok, body = rest
            step = A.Step(self.span(node), str(step_tok), self.span(step_tok), tags, doc,
                          *self.step_body(body), title=title)
            target_span = self.between(scoring, step_tok)
            return A.Change(self.span(node), "override", "step", f"{scoring}.{step_tok}", target_span,
                            doc, step)
        if node.data == "row_override":
            return self.row_override(node, doc)
        d = self.definition(node, doc)
        return A.Change(self.span(node), "override", word(d), d.name, d.name_span, doc, d)

    def row_override(self, node: Tree, doc: str) -> A.Change:
        """``override row TABLE.NAME [IDs]: column = value, ...``."""
        _, tags, rest = self.split(node.children)
        table, key, sets = rest[0], rest[1], rest[2:]
        cells = []
        for cs in sets:
            column, lit = cs.children
            value, vspan = self.literal(lit)
            cells.append((str(column), self.span(column), value, vspan))
        target = self.between(table, key)
        edit = A.RowEdit(self.span(node), str(key), tuple(cells), tags, target, doc)
        return A.Change(self.span(node), "override", "row", f"{table}.{key}", target, doc, edit)

    def step_add(self, node: Tree, doc: str) -> A.Change:
        """``add step OWNER.NAME [IDs] [after|before STEP] = e`` or ``{ ... }``."""
        _, tags, rest = self.split(node.children)
        title = self.title(rest, 2)
        owner, step_tok = rest[0], rest[1]
        place = None
        if len(rest) == 4:
            word_tok, where = rest[2].children
            place = (str(word_tok), str(where), self.span(where))
        step = A.Step(self.span(node), str(step_tok), self.span(step_tok), tags, doc,
                      *self.step_body(rest[-1]), title=title)
        target_span = self.between(owner, step_tok)
        return A.Change(self.span(node), "add", "step", f"{owner}.{step_tok}", target_span, doc, step,
                        place)

    def step_body(self, body: Tree) -> tuple[tuple[A.Stmt, ...], bool]:
        """A step's statements, and whether it is written '= expression' (its points)."""
        if body.data == "step_expr":
            return (A.Points(self.span(body), self.expr(body.children[0])),), True
        return self.block(body), False

    def field_add(self, node: Tree, doc: str) -> A.Change:
        """``add field RECORD.NAME [IDs]: TYPE = default``."""
        _, tags, rest = self.split(node.children)
        if len(rest) == 3:
            self.fail(node, f"the field '{rest[0]}.{rest[1]}' a variant adds needs a default ('= value')",
                      "the base's 'new' and the positions saved without the field do not give it a value")
        rec, name_tok, ftype, default = rest
        field_ = A.Field(self.span(node), str(name_tok), tags, doc, self.type(ftype), self.expr(default))
        return A.Change(self.span(node), "add", "field", f"{rec}.{name_tok}", self.between(rec, name_tok),
                        doc, field_)

    def row_add(self, node: Tree, doc: str) -> A.Change:
        """``add row TABLE [IDs]: NAME | value | ...``."""
        _, tags, (table, row) = self.split(node.children)
        key = row.children[0]
        new_row = A.Row(self.span(row), str(key), tuple(self.literal(c) for c in row.children[1:]), tags, doc)
        return A.Change(self.span(node), "add", "row", f"{table}.{key}", self.between(table, key), doc, new_row)

    def between(self, first: Token, last: Token) -> Span:
        """From the start of one token to the end of another (OWNER.NAME)."""
        return Span(self.path, first.line, first.column, last.end_line, last.end_column)

    def definition(self, node: Tree, doc: str) -> A.Definition:
        method = getattr(self, "def_" + node.data)
        return method(node, doc)

    def head(self, node: Tree):
        _, tags, rest = self.split(node.children)
        name_tok = rest[0]
        if "__before_" in str(name_tok):
            self.fail(name_tok, "this name holds '__before_', which is kept for the base definitions "
                                "that a variant's overrides call as base(...)", "choose another name")
        return str(name_tok), self.span(name_tok), tags, rest[1:]

    def title(self, rest: list, at: int) -> str | None:
        """A title written at ``rest[at]`` (a STRING), taken out of ``rest``; else None."""
        if len(rest) > at and isinstance(rest[at], Token) and rest[at].type == "STRING":
            return self.string(rest.pop(at))
        return None

    def def_game_def(self, node, doc):
        name, nspan, tags, rest = self.head(node)
        return A.Game(self.span(node), name, nspan, tags, doc, self.string(rest[0]))

    def def_switch_def(self, node, doc):
        name, nspan, tags, rest = self.head(node)
        title = self.title(rest, 0)
        *options, default = rest
        value, vspan = self.literal(default)
        return A.Switch(self.span(node), name, nspan, tags, doc,
                        tuple(self.integer(o) if o.type == "SIGNED_INT" else str(o) for o in options), value,
                        vspan, title=title)

    def def_param_def(self, node, doc):
        name, nspan, tags, rest = self.head(node)
        type_ = self.type(rest[0]) if len(rest) == 2 else None
        return A.Constant(self.span(node), name, nspan, tags, doc, type_, self.expr(rest[-1]))

    def def_enum_def(self, node, doc):
        name, nspan, tags, rest = self.head(node)
        title = self.title(rest, 0)
        values = tuple((str(v), self.span(v)) for v in rest)
        return A.Enum(self.span(node), name, nspan, tags, doc, values, title=title)

    def def_table_def(self, node, doc):
        name, nspan, tags, rest = self.head(node)
        title = self.title(rest, 0)
        columns = tuple(A.Column(self.span(c), str(c.children[0]), self.type(c.children[1]))
                        for c in rest if isinstance(c, Tree) and c.data == "column")
        body = rest[-1]
        if body.data == "table_file":
            option = body.children[1].children[0] if len(body.children) > 1 and body.children[1] else None
            return A.Table(self.span(node), name, nspan, tags, doc, columns, (),
                           self.string(body.children[0]), str(option) if option else None, title=title)
        rows = []
        for row in body.children:
            key = row.children[0]
            cells = tuple(self.literal(c) for c in row.children[1:])
            rows.append(A.Row(self.span(row), str(key), cells))
        return A.Table(self.span(node), name, nspan, tags, doc, columns, tuple(rows), None, title=title)

    def def_grid_def(self, node, doc):
        name, nspan, tags, rest = self.head(node)
        floating = any(isinstance(c, Token) and c.type == "FLOATING" for c in rest)
        rest = [c for c in rest if not (isinstance(c, Token) and c.type == "FLOATING")]
        return A.Grid(self.span(node), name, nspan, tags, doc, self.expr(rest[0]),
                      self.expr(rest[1]), self.type(rest[2]), floating)

    def def_relation_def(self, node, doc):
        name, nspan, tags, rest = self.head(node)
        title = self.title(rest, 0)
        return A.Relation(self.span(node), name, nspan, tags, doc, self.expr(rest[0]), title=title)

    def def_def_def(self, node, doc):
        name, nspan, tags, rest = self.head(node)
        params = None
        type_ = None
        if rest and isinstance(rest[0], Tree) and rest[0].data == "params":
            params = self.params(rest.pop(0))
        title = self.title(rest, 0)
        if len(rest) == 2:
            type_ = self.type(rest[0])
        return A.Def(self.span(node), name, nspan, tags, doc, params, type_, self.expr(rest[-1]), title=title)

    def def_rule_def(self, node, doc):
        name, nspan, tags, rest = self.head(node)
        params = None
        if rest and isinstance(rest[0], Tree) and rest[0].data == "params":
            params = self.params(rest.pop(0))
        title = self.title(rest, 0)
        message = None
        if rest and rest[-1] is None:
            rest.pop()
        elif rest and isinstance(rest[-1], Tree) and rest[-1].data == "rule_else":
            message = self.interpolated(rest.pop().children[0])
        return A.Rule(self.span(node), name, nspan, tags, doc, params, self.expr(rest[-1]), message, title=title)

    def interpolated(self, tok: Token) -> tuple:
        """A message string -> its text parts and ``{expression}`` parts, each expression
        parsed at its place in the file (so its errors point into the string)."""
        raw = str(tok)[1:-1]
        parts: list = []
        i = 0
        text = ""
        while i < len(raw):
            ch = raw[i]
            if ch == "\\":
                char, i = self.escape(tok, raw, i, _MESSAGE_ESCAPES)
                text += char
                continue
            if ch == "{":
                j = raw.find("}", i)
                if j < 0:
                    self.fail(tok, "a '{' in this message is never closed", "write {expression}")
                if text:
                    parts.append(text)
                    text = ""
                col = tok.column + 1 + i + 1          # column of the expression's first character
                source = "def m_=" + raw[i + 1:j]     # parsed alone, then placed (see span)
                try:
                    tree = parser().parse(source)
                except Exception:
                    self.fail(tok, f"'{raw[i + 1:j][:60]}' in this message is not an expression",
                              "write {expression} with an expression over the rule's parameters")
                definition = tree.children[0].children[-1]
                self.shift = (tok.line, col - 1 - len("def m_="))
                try:
                    parts.append(self.expr(definition.children[-1]))
                finally:
                    self.shift = None
                i = j + 1
                continue
            text += ch
            i += 1
        if text:
            parts.append(text)
        return tuple(parts)

    def def_outcome_def(self, node, doc):
        name, nspan, tags, rest = self.head(node)
        title = self.title(rest, 1)
        return A.Outcome(self.span(node), name, nspan, tags, doc, self.params(rest[0]),
                         self.expr(rest[-1]), title=title)

    def def_estimate_def(self, node, doc):
        name, nspan, tags, rest = self.head(node)
        return A.Estimate(self.span(node), name, nspan, tags, doc, self.params(rest[0]),
                          self.expr(rest[-1]))

    def def_scoring_def(self, node, doc):
        name, nspan, tags, rest = self.head(node)
        title = self.title(rest, 1)
        params = self.params(rest[0])
        layers, steps = [], []
        for item in rest[1:]:
            docs, itags, irest = self.split(item.children)
            if item.data == "layer_decl":
                layers.append(A.Layer(self.spans(item, docs), str(irest[0]), itags, self.doc(docs)))
            else:
                step_title = self.title(irest, 1)
                name_tok, body = irest
                steps.append(A.Step(self.spans(item, docs), str(name_tok), self.span(name_tok), itags,
                                    self.doc(docs), *self.step_body(body), title=step_title))
        return A.Scoring(self.span(node), name, nspan, tags, doc, params, tuple(layers),
                         tuple(steps), title=title)

    def _state(self, node, doc, per: str | None, rest_children):
        _, tags, rest = self.split(rest_children)
        vars_ = []
        for v in rest:
            docs, vtags, vrest = self.split(v.children)
            seen = None
            if vrest and isinstance(vrest[-1], Tree) and vrest[-1].data == "seen":
                seen = self.seen(vrest.pop())
            init = self.expr(vrest[2]) if len(vrest) > 2 and vrest[2] is not None else None
            vars_.append(A.StateVar(self.spans(v, docs), str(vrest[0]), vtags, self.doc(docs),
                                    self.type(vrest[1]), init, seen))
        name = f"per {per}" if per else "state"
        return A.State(self.span(node), name, self.span(node), tags, doc, per, tuple(vars_))

    def seen(self, node) -> A.Seen:
        by, showing, remembered = None, None, False
        for c in node.children:
            if isinstance(c, Tree) and c.data == "seer":
                by = str(c.children[0])
            elif isinstance(c, Tree) and c.data == "showing":
                showing = str(c.children[0])
            elif isinstance(c, Tree) and c.data == "remembered":
                remembered = True
        return A.Seen(self.span(node), by or "all", showing, remembered)

    def def_state_def(self, node, doc):
        return self._state(node, doc, None, node.children)

    def def_seat_state_def(self, node, doc):
        key = node.children[0]
        return self._state(node, doc, str(key), node.children[1:])

    def def_record_def(self, node, doc):
        name, nspan, tags, rest = self.head(node)
        fields = []
        for f in rest:
            docs, ftags, frest = self.split(f.children)
            default = self.expr(frest[2]) if len(frest) == 3 else None
            fields.append(A.Field(self.spans(f, docs), str(frest[0]), ftags, self.doc(docs), self.type(frest[1]),
                                  default))
        return A.Record(self.span(node), name, nspan, tags, doc, tuple(fields))

    def def_procedure_def(self, node, doc):
        name, nspan, tags, rest = self.head(node)
        params = ()
        if rest and isinstance(rest[0], Tree) and rest[0].data == "params":
            params = self.params(rest.pop(0))
        title = self.title(rest, 0)
        return A.Procedure(self.span(node), name, nspan, tags, doc, params, self.block(rest[0]), title=title)

    def def_mode_def(self, node, doc):
        name, nspan, tags, rest = self.head(node)
        title = None
        if isinstance(rest[0], Token) and rest[0].type == "STRING":
            title = self.string(rest.pop(0))
        players = self.expr(rest[0])
        seats_node = rest[1]
        seats = []
        for entry in seats_node.children:
            if entry.data == "seat_players":
                seats.append(A.SeatEntry(self.span(entry), None, "player", None))
            else:
                kids = entry.children
                title_ = self.string(kids[2]) if len(kids) > 2 and kids[2] is not None else None
                seats.append(A.SeatEntry(self.span(entry), str(kids[0]), str(kids[1]), title_))
        body = tuple(self.stmt(s) for s in rest[2:])
        return A.Mode(self.span(node), name, nspan, tags, doc, title, players, tuple(seats), body)

    def def_check_def(self, node, doc):
        name, nspan, tags, rest = self.head(node)
        var = domain = filter_ = None
        if isinstance(rest[0], Tree) and rest[0].data == "check_for":
            loop = rest.pop(0).children
            var, domain = str(loop[0]), self.expr(loop[1])
            if len(loop) > 2 and loop[2] is not None:
                filter_ = self.expr(loop[2].children[0])
        if node.data == "invariant_def":
            warn = isinstance(rest[1], Tree) and rest[1].data == "invariant_warn"
            rest = [r for r in rest if not (isinstance(r, Tree) and r.data == "invariant_warn")]
            return A.Invariant(self.span(node), name, nspan, tags, doc, var, domain, filter_,
                               self.expr(rest[0]), self.interpolated(rest[-1]), warn)
        return A.Check(self.span(node), name, nspan, tags, doc, var, domain, filter_,
                       self.expr(rest[0]), self.interpolated(rest[1]))

    def_invariant_def = def_check_def

    def def_query_def(self, node, doc):
        name, nspan, tags, rest = self.head(node)
        title = None
        if isinstance(rest[0], Token) and rest[0].type == "STRING":
            title = self.string(rest.pop(0))
        return A.Query(self.span(node), name, nspan, tags, doc, title, self.block(rest[0]))

    def def_domain_def(self, node, doc):
        name, nspan, tags, rest = self.head(node)
        typ = self.type(rest.pop(0))
        only = ()
        if isinstance(rest[0], Tree) and rest[0].data == "domain_for":
            names = rest.pop(0).scan_values(lambda v: isinstance(v, Token) and v.type == "NAME")
            only = tuple((str(t), self.span(t)) for t in names)
        title = None
        if isinstance(rest[0], Token) and rest[0].type == "STRING":
            title = self.string(rest.pop(0))
        return A.Domain(self.span(node), name, nspan, tags, doc, typ, title, self.block(rest[0]), only)

    def def_example_def(self, node, doc):
        name, nspan, tags, rest = self.head(node)
        title = position = pspan = None
        if isinstance(rest[0], Token) and rest[0].type == "STRING":
            title = self.string(rest.pop(0))
        if isinstance(rest[0], Tree) and rest[0].data == "example_on":
            tok = rest.pop(0).children[0]
            position, pspan = self.string(tok), self.span(tok)
        return A.Example(self.span(node), name, nspan, tags, doc, title, self.block(rest[0]), position, pspan)

    def def_section_def(self, node, doc):
        name, nspan, tags, rest = self.head(node)
        title = None
        if rest and isinstance(rest[0], Token) and rest[0].type == "STRING":
            title = self.string(rest.pop(0))
        names = tuple((str(t), self.span(t)) for t in rest if isinstance(t, Token) and t.type == "NAME")
        return A.Section(self.span(node), name, nspan, tags, doc, title, names)

    def def_property_def(self, node, doc):
        q = self.def_query_def(node, doc)
        return A.Property(q.span, q.name, q.name_span, q.tags, q.doc, q.title, q.body)

    # ------------------------------------------------------------ pieces
    def params(self, node) -> tuple[A.Param, ...]:
        out = []
        for p in node.children:
            if p is None:
                continue
            out.append(A.Param(self.span(p), str(p.children[0]), self.type(p.children[1])))
        return tuple(out)

    def type(self, node) -> A.TypeExpr:
        if node.data == "type_name":
            return A.TypeName(self.span(node), str(node.children[0]))
        if node.data == "type_tuple":
            return A.TypeTuple(self.span(node), tuple(self.type(c) for c in node.children))
        kind = node.data[len("type_"):]
        return A.TypeOf(self.span(node), kind, self.type(node.children[0]))

    def string(self, tok) -> str:
        """A quoted text's value. Escapes: ``\\"`` ``\\\\`` ``\\n`` ``\\t`` ``\\r``, and a
        character by its code point, ``\\xHH``, ``\\uHHHH`` or ``\\UHHHHHHHH`` (not a surrogate);
        any other escape is an error at its place in the text."""
        text = str(tok)[1:-1]
        if "\\" not in text:
            return text
        out, i = [], 0
        while i < len(text):
            ch = text[i]
            if ch != "\\":
                out.append(ch)
                i += 1
                continue
            ch, i = self.escape(tok, text, i)
            out.append(ch)
        return "".join(out)

    def escape(self, tok, text: str, i: int, more: dict | None = None) -> tuple[str, int]:
        """The escape at ``text[i]`` (a backslash) of the quoted ``tok``: its character and
        where the text goes on; ``more`` are escapes of this kind of text only."""
        kind = text[i + 1] if i + 1 < len(text) else ""
        if kind in _ESCAPES or (more and kind in more):
            return (more or {}).get(kind) or _ESCAPES[kind], i + 2
        width = {"x": 2, "u": 4, "U": 8}.get(kind)
        digits = text[i + 2:i + 2 + width] if width else ""
        if width and len(digits) == width and all(c in "0123456789abcdefABCDEF" for c in digits):
            code = int(digits, 16)
            if code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF:
                return chr(code), i + 2 + width
            message = f"'\\{kind}{digits}' is not a character" + (
                " (a surrogate: write the character itself)" if 0xD800 <= code <= 0xDFFF else "")
        else:
            message = f"unknown escape '\\{kind}'" if not width else \
                f"'\\{kind}' takes {width} hexadecimal digits"
        col = tok.column + 1 + i
        raise SpecSyntaxError(Diagnostic(
            Span(self.path, tok.line, col, tok.line, col + 2 + (width or 0)), message,
            'escapes in a text: \\" \\\\ \\n \\t \\r \\xHH \\uHHHH \\UHHHHHHHH'
            + (" " + " ".join("\\" + k for k in more) if more else "")))

    def integer(self, tok) -> int:
        """A whole number as written, within 64 bits (refused at its place otherwise)."""
        text = str(tok)
        digits = text.lstrip("-").lstrip("0")
        if len(digits) <= 19:
            value = int(text)
            if -2 ** 63 <= value < 2 ** 63:
                return value
        shown = text if len(text) <= 30 else f"{text[:12]}...{text[-6:]} ({len(digits)} digits)"
        raise SpecSyntaxError(Diagnostic(self.span(tok), f"the number {shown} is beyond 64 bits",
                                         f"numbers in a spec lie between {-2 ** 63:,} and {2 ** 63 - 1:,}"))

    def literal(self, node):
        tok = node.children[0]
        if node.data == "lit_int":
            return self.integer(tok), self.span(tok)
        if node.data == "lit_text":
            return self.string(tok), self.span(tok)
        return ("name", str(tok)), self.span(tok)

    # ------------------------------------------------------------ statements
    def block(self, node) -> tuple[A.Stmt, ...]:
        return tuple(self.stmt(s) for s in node.children)

    def stmt(self, node) -> A.Stmt:
        return getattr(self, "st_" + node.data)(node)

    def st_let_stmt(self, node):
        docs, _, rest = self.split(node.children)
        return A.Let(self.spans(node, docs), str(rest[0]), self.span(rest[0]), self.expr(rest[1]),
                     self.doc(docs))

    def st_choose_stmt(self, node):
        docs, tags, rest = self.split(node.children)
        name = rest[0]
        domain = rest[1]
        where = None
        chooser = None
        for extra in rest[2:]:
            if extra.data == "where":
                where = self.expr(extra.children[0])
            elif extra.data == "by_random":
                chooser = "random"
            else:
                chooser = self.expr(extra.children[0])
        coll = size = type_ = None
        if domain.data == "dom_element":
            kind, coll = "element", self.expr(domain.children[0])
        elif domain.data == "dom_subset":
            kind, coll = "subset", self.expr(domain.children[0])
            size = self.expr(domain.children[1]) if len(domain.children) > 1 and domain.children[1] is not None else None
        else:
            kind, type_ = "value", self.type(domain.children[0])
        return A.Choose(self.spans(node, docs), str(name), self.span(name), tags, kind, coll, size, type_,
                        where, chooser, self.doc(docs))

    def st_points_stmt(self, node):
        return A.Points(self.span(node), self.expr(node.children[0]))

    def st_mark_stmt(self, node):
        layer, cells = node.children
        return A.Mark(self.span(node), str(layer), self.span(layer), self.expr(cells))

    def st_shuffle_stmt(self, node):
        return A.Shuffle(self.span(node), self.expr(node.children[0]))

    def st_deal_stmt(self, node):
        n, src, dst = node.children
        return A.Deal(self.span(node), self.expr(n), self.expr(src), self.expr(dst))

    def st_move_stmt(self, node):
        what, *rest = node.children
        source = None
        if len(rest) == 2:
            if rest[0] is not None:
                source = self.expr(rest[0].children[0])
            target = rest[1]
        else:
            target = rest[0]
        return A.Move(self.span(node), self.expr(what), source, self.expr(target))

    def st_place_stmt(self, node):
        card, src, board, at = node.children
        return A.Place(self.span(node), self.expr(card), self.expr(src), self.expr(board),
                       self.expr(at))

    def st_pass_stmt(self, node):
        zone, direction = node.children
        return A.Pass(self.span(node), str(zone), self.span(zone), self.expr(direction))

    def st_repeat_stmt(self, node):
        count, body = node.children
        return A.Repeat(self.span(node), self.expr(count), self.block(body))

    def st_for_stmt(self, node, simultaneous=False):
        var, coll, body = node.children
        return A.For(self.span(node), str(var), self.span(var), self.expr(coll), self.block(body),
                     simultaneous)

    def st_simul_stmt(self, node):
        return self.st_for_stmt(node, simultaneous=True)

    def st_if_stmt(self, node):
        cond, then, *other = node.children
        other_stmts: tuple[A.Stmt, ...] = ()
        if other and other[0] is not None:
            o = other[0]
            other_stmts = (self.stmt(o),) if o.data == "if_stmt" else self.block(o)
        return A.If(self.span(node), self.expr(cond), self.block(then), other_stmts)

    def st_do_stmt(self, node):
        name, *args = node.children
        return A.Do(self.span(node), str(name), self.span(name),
                    tuple(self.expr(a) for a in args if a is not None))

    def st_report_stmt(self, node):
        name, *rest = node.children
        var = coll = None
        if len(rest) == 2:
            if rest[0] is not None:
                var, coll = str(rest[0].children[0]), self.expr(rest[0].children[1])
            value = rest[1]
        else:
            value = rest[0]
        return A.Report(self.span(node), str(name), var, coll, self.expr(value))

    def st_set_var(self, node):
        name, value = node.children
        return A.SetVar(self.span(node), str(name), self.span(name), None, self.expr(value))

    def st_swap_stmt(self, node):
        def side(t):
            name, key = t.children
            return (str(name), self.span(name), self.expr(key) if key is not None else None)
        first, second = node.children
        return A.Swap(self.span(node), side(first), side(second))

    def st_set_keyed(self, node):
        name, key, value = node.children
        return A.SetVar(self.span(node), str(name), self.span(name), self.expr(key), self.expr(value))

    def st_step_stmt(self, node):
        docs, tags, rest = self.split(node.children)
        title = self.title(rest, 1)
        name, body = rest
        return A.Step(self.spans(node, docs), str(name), self.span(name), tags, self.doc(docs), self.block(body),
                      title=title)

    def st_checkpoint_stmt(self, node):
        return A.Checkpoint(self.span(node), str(node.children[0]))

    def st_note(self, node):
        name, value = node.children
        return A.Note(self.span(node), str(name), self.expr(value))

    def st_section(self, node):
        name, value = node.children
        return A.Note(self.span(node), str(name), self.expr(value), heading=True)

    def st_take_stmt(self, node):
        what, source = node.children
        return A.Take(self.span(node), self.expr(what), self.expr(source))

    def st_reveal_stmt(self, node):
        what, source, to = node.children[0], None, None
        for c in node.children[1:]:
            if isinstance(c, Tree) and c.data == "reveal_from":
                source = self.expr(c.children[0])
            elif isinstance(c, Tree) and c.data == "reveal_to":
                to = self.expr(c.children[0])
        if source is None:
            return A.Reveal(self.span(node), self.expr(what), to)
        return A.Reveal(self.span(node), source, to, self.expr(what))

    def st_while_stmt(self, node):
        cond, body = node.children
        return A.While(self.span(node), self.expr(cond), self.block(body))

    def st_input_stmt(self, node):
        docs, tags, rest = self.split(node.children)
        default = self.expr(rest[2]) if len(rest) > 2 and rest[2] is not None else None
        return A.Input(self.spans(node, docs), str(rest[0]), self.span(rest[0]), self.type(rest[1]), tags,
                       self.doc(docs), default)

    def st_expect_stmt(self, node):
        says = node.children[1] if len(node.children) > 1 else None
        return A.Expect(self.span(node), self.expr(node.children[0]),
                        self.string(says) if isinstance(says, Token) else None)

    def st_holds_stmt(self, node):
        return A.Holds(self.span(node), self.expr(node.children[0]))

    def st_require_stmt(self, node):
        _, tags, rest = self.split(node.children)
        return A.Require(self.span(node), self.expr(rest[0]), tags)

    def st_require_named(self, node):
        _, tags, rest = self.split(node.children)
        name, cond, message = rest
        return A.Require(self.span(node), self.expr(cond), tags, str(name), self.span(name),
                         self.interpolated(message))

    def st_play_stmt(self, node):
        name, value = node.children
        return A.Play(self.span(node), str(name), self.span(name), self.expr(value))

    def st_maximize(self, node):
        return self._objective(node, "maximize")

    def st_minimize(self, node):
        return self._objective(node, "minimize")

    def _objective(self, node, sense: str):
        names = node.children[1] if len(node.children) > 1 else None
        return A.Objective(self.span(node), sense, self.expr(node.children[0]),
                           self.expr(names.children[0]) if names is not None else None)


def build(tree: Tree, path: str) -> A.SpecFile:
    return _Builder(path).file(tree)
