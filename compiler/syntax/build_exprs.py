"""Lark tree -> AST: the expressions (a mixin of ``build_ast``'s builder).

In:  the Lark subtree of an expression.
Out: an ``ast.Expr`` with its span, or a diagnostic for a shape the grammar cannot
     express (``count(3 if x)``, whose argument is not ``NAME in COLLECTION``).
"""
from __future__ import annotations


from lark import Token, Tree

from rulewright.compiler.syntax import ast as A


# the aggregates a call with one "x in c" argument may be (count(x in c) is an aggregate)
AGGREGATES = {"sum", "count", "any", "all", "min", "max", "distinct"}


class ExpressionBuilder:
    """Expressions (see the module's docstring)."""

    # ------------------------------------------------------------ expressions
    def expr(self, node) -> A.Expr:
        if isinstance(node, Token):
            return self.token_expr(node)
        return getattr(self, "ex_" + node.data)(node)

    def token_expr(self, tok: Token) -> A.Expr:
        span = self.span(tok)
        if tok.type == "INT":
            return A.IntLit(span, self.integer(tok))
        if tok.type == "STRING":
            return A.TextLit(span, self.string(tok))
        return A.Name(span, str(tok))

    def ex_int_lit(self, node):
        return A.IntLit(self.span(node), self.integer(node.children[0]))

    def ex_text_lit(self, node):
        return A.TextLit(self.span(node), self.string(node.children[0]))

    def ex_name(self, node):
        return A.Name(self.span(node), str(node.children[0]))

    def ex_if_expr(self, node):
        c, t, o = node.children
        return A.IfExpr(self.span(node), self.expr(c), self.expr(t), self.expr(o))

    def _binary(self, node, op):
        left, right = node.children
        return A.Binary(self.span(node), op, self.expr(left), self.expr(right))

    def ex_or_(self, node):
        return self._binary(node, "or")

    def ex_and_(self, node):
        return self._binary(node, "and")

    def ex_not_(self, node):
        return A.Unary(self.span(node), "not", self.expr(node.children[0]))

    def ex_compare(self, node):
        left, op, right = node.children
        return A.Binary(self.span(node), str(op), self.expr(left), self.expr(right))

    def ex_in_(self, node):
        return self._binary(node, "in")

    def ex_not_in(self, node):
        return self._binary(node, "not in")

    def ex_range_(self, node):
        return self._binary(node, "..")

    def ex_binop(self, node):
        left, op, right = node.children
        return A.Binary(self.span(node), str(op), self.expr(left), self.expr(right))

    def ex_neg(self, node):
        inner = self.expr(node.children[0])
        if isinstance(inner, A.IntLit):
            return A.IntLit(self.span(node), -inner.value)
        return A.Unary(self.span(node), "-", inner)

    def ex_index(self, node):
        base, index = node.children
        return A.Index(self.span(node), self.expr(base), self.expr(index))

    def ex_attr(self, node):
        base, name = node.children
        return A.Attr(self.span(node), self.expr(base), str(name), self.span(name))

    def field_inits(self, nodes):
        return tuple(A.FieldInit(self.span(f), str(f.children[0]), self.expr(f.children[1]))
                     for f in nodes if f is not None)

    def ex_new_record(self, node):
        name, *fields = node.children
        return A.New(self.span(node), str(name), self.span(name), self.field_inits(fields))

    def ex_grid_lit(self, node):
        name, *cells = node.children
        out = []
        for c in cells:
            tok = c.children[0]
            out.append((None if str(tok) == "." else str(tok), self.span(tok)))
        return A.GridLit(self.span(node), str(name), self.span(name), tuple(out))

    def ex_with_(self, node):
        base, *fields = node.children
        return A.With(self.span(node), self.expr(base), self.field_inits(fields))

    def ex_tuple(self, node):
        items = tuple(self.expr(c) for c in node.children if c is not None)
        return A.Literal(self.span(node), "tuple", items)

    def ex_list_lit(self, node):
        items = tuple(self.expr(c) for c in node.children if c is not None)
        return A.Literal(self.span(node), "list", items)

    def ex_set_lit(self, node):
        return A.Literal(self.span(node), "set", tuple(self.expr(c) for c in node.children))

    def ex_list_comp(self, node):
        elem, *fors = node.children
        return A.Comprehension(self.span(node), "list", self.expr(elem), self.binders(fors))

    def ex_set_comp(self, node):
        elem, *fors = node.children
        return A.Comprehension(self.span(node), "set", self.expr(elem), self.binders(fors))

    def ex_set_filter(self, node):
        member, cond = node.children
        binder, elem = self.membership_binder(member, self.expr(cond), "{x in C if ...}")
        return A.Comprehension(self.span(node), "set", elem, (binder,))

    def ex_map_lit(self, node):
        pairs, default = [], None
        for entry in node.children:
            if entry.data == "map_pair":
                pairs.append((self.expr(entry.children[0]), self.expr(entry.children[1])))
            else:
                default = self.expr(entry.children[0])
        return A.MapLit(self.span(node), tuple(pairs), default)

    def binders(self, fors) -> tuple[A.Binder, ...]:
        out = []
        for f in fors:
            var, coll, cond = f.children
            c = self.expr(cond.children[0]) if cond is not None else None
            out.append(A.Binder(self.span(f), str(var), self.expr(coll), c))
        return tuple(out)

    def membership_binder(self, member_node, cond, form):
        member = self.expr(member_node)
        if not (isinstance(member, A.Binary) and member.op == "in" and isinstance(member.left, A.Name)):
            self.fail(member_node, f"expected 'NAME in COLLECTION' before 'if' in {form}",
                      "for example: count(c in cells(g) if g[c] == tree)")
        binder = A.Binder(member.span, member.left.id, member.right, cond)
        return binder, A.Name(member.left.span, member.left.id)

    def ex_call(self, node):
        name_tok, args = node.children
        func = str(name_tok)
        fspan = self.span(name_tok)
        span = self.span(node)
        if args is None:
            return A.Call(span, func, fspan, ())
        if args.data == "args_plain":
            items = [self.expr(a) for a in args.children]
            # count(x in C) / any(x in C): a binder without a filter.
            if func in AGGREGATES and len(items) == 1 and isinstance(items[0], A.Binary) \
                    and items[0].op == "in" and isinstance(items[0].left, A.Name) \
                    and func in ("count",):
                m = items[0]
                return A.Aggregate(span, func, fspan, A.Name(m.left.span, m.left.id),
                                   (A.Binder(m.span, m.left.id, m.right, None),))
            return A.Call(span, func, fspan, tuple(items))
        if args.data == "args_comp":
            elem, *rest = args.children
            fors = [c for c in rest if isinstance(c, Tree) and c.data == "comp_for"]
            key = next((self.expr(c.children[0]) for c in rest
                        if isinstance(c, Tree) and c.data == "comp_by"), None)
            supply = next((self.expr(c.children[0]) for c in rest
                           if isinstance(c, Tree) and c.data == "comp_from"), None)
            return A.Aggregate(span, func, fspan, self.expr(elem), self.binders(fors), key, supply)
        member, cond = args.children
        binder, elem = self.membership_binder(member, self.expr(cond), f"{func}(...)")
        return A.Aggregate(span, func, fspan, elem, (binder,))
