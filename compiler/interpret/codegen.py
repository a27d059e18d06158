"""Code generation: IR expressions -> Python source, never from spec text.

In:  ``ir`` expressions of a checked program.
Out: Python source built from the operators' ``py`` templates (``semantics.operators``),
     with every value of the spec passed in a table of constants (``K0``, ``K1``...) and
     every name mangled to a fixed alphabet; ``vetted`` parses that source and refuses
     anything but the generated names and the templates' own texts before it runs.
     ``evaluate_closed`` evaluates an expression that reads no state (constant folding).
"""
from __future__ import annotations


import ast
import re

from typing import Any

from rulewright.compiler.semantics.operators import AGGREGATES, OPERATORS

from rulewright.compiler import ir as I
from rulewright.compiler.semantics import runtime as rt, render
from rulewright.compiler.diagnostics import RuntimeRulesError
from rulewright.compiler.types import BoardT, CollT, RecordT, TupleT


_SAFE_NAME = re.compile(r"[a-z_][a-z0-9_]*")
_FIELD = re.compile(r"f_[a-z0-9_]+")
_INT64 = range(-2 ** 63, 2 ** 63)


def _ident(prefix: str, name: str) -> str:
    """The Python identifier of a spec name: ``prefix`` + the name when it is written
    in the language's own alphabet (``[a-z_][a-z0-9_]*``), else ``prefix`` + ``X`` +
    its bytes in hex. Either way an identifier of a fixed alphabet, and one per name
    (a name of the language never holds ``X``)."""
    if _SAFE_NAME.fullmatch(name):
        return prefix + name
    return prefix + "X" + name.encode("utf-8", "surrogatepass").hex()


def pyname(name: str) -> str:
    return _ident("v_", name)


def fname(name: str) -> str:
    """The generated function of a definition."""
    return _ident("f_", name)


def sname(name: str) -> str:
    """The generated function of a scoring."""
    return _ident("s_", name)


def prname(name: str) -> str:
    """The generated function of a procedure."""
    return _ident("p_", name)


def mname(name: str) -> str:
    """The generated function of a mode (its own prefix: a procedure may be called mode_x)."""
    return _ident("m_", name)


# What the generated code may name besides the spec's own (mangled) names, its table of
# constants (K0, K1...), its own locals (_steps, _t3...) and the state (ST).
_BUILTINS = frozenset({"abs", "all", "any", "bool", "dict", "enumerate", "frozenset", "getattr", "int",
                       "isinstance", "iter", "len", "list", "max", "min", "range", "repr", "reversed", "set",
                       "sorted", "str", "sum", "tuple", "zip"})
_OWN_NAME = re.compile(r"(?:[vfspm]_[a-z0-9_]*|[vfspm]_X[0-9a-f]+|K[0-9]+|_[A-Za-z0-9_]*|ST)")
# The only texts written in the generated code: those of the operators' own templates.
_TEMPLATE_TEXTS = frozenset({""})


def vetted(source: str, filename: str, mode: str = "exec") -> ast.AST:
    """The generated module, parsed and checked before it is compiled: no text but the
    templates' own, no name outside the fixed alphabet of generated names and a short
    list of builtins, no dunder attribute, no import. The code generator already puts
    every value of the spec in the table of constants and mangles every name; this is
    the guard that a mistake there cannot turn a spec's text into code."""
    tree = ast.parse(source, filename, mode)
    for node in ast.walk(tree):
        bad = None
        if isinstance(node, ast.Constant):
            if isinstance(node.value, (str, bytes)) and node.value not in _TEMPLATE_TEXTS:
                bad = "a text written in the code"
        elif isinstance(node, ast.Name):
            if not (_OWN_NAME.fullmatch(node.id) or node.id in _BUILTINS) or node.id.startswith("__"):
                bad = f"the name {node.id[:40]!r}"
        elif isinstance(node, ast.arg):
            if not _OWN_NAME.fullmatch(node.arg) or node.arg.startswith("__"):
                bad = f"the parameter {node.arg[:40]!r}"
        elif isinstance(node, ast.Attribute):
            if node.attr.startswith("__"):
                bad = f"the attribute {node.attr[:40]!r}"
        elif isinstance(node, (ast.Import, ast.ImportFrom, ast.Global, ast.Nonlocal, ast.ClassDef,
                               ast.AsyncFunctionDef, ast.Await, ast.With,
                               ast.Try, ast.Delete)):
            bad = f"a {type(node).__name__} statement"
        if bad is not None:
            raise RuntimeError(f"generated code refused ({bad}, line {getattr(node, 'lineno', '?')}): "
                               "a bug of rulewright's code generator")
    return tree


class Emitter:
    """Collects module-level constants and function sources."""

    def __init__(self):
        self.consts: dict[int, str] = {}
        self.values: dict[str, Any] = {}
        self.lines: list[str] = []
        self.counter = 0

    def const(self, value: Any) -> str:
        """Code naming a constant. Only ``None``, ``True``, ``False`` and 64-bit whole
        numbers are written in the code; every other value (a text above all, whatever
        it holds) is passed in the table of constants, ``K0``, ``K1``... so no text of
        a spec is ever part of the generated source."""
        if value is None or isinstance(value, bool):
            return repr(value)
        if type(value) is int and value in _INT64:
            return repr(value)
        key = ("=", type(value), value) if _simple(value) else id(value)
        if key not in self.consts:
            name = f"K{len(self.consts)}"
            self.consts[key] = name
            self.values[name] = value
        return self.consts[key]

    def fresh(self, prefix: str) -> str:
        """A new local name: ``_`` + prefix + ``_`` + a number (the number after the last
        ``_``, so two prefixes never give one name)."""
        self.counter += 1
        return f"_{prefix}_{self.counter}"


_SIMPLE = frozenset({bool, int, str, type(None)})


def _simple(value) -> bool:
    """A value that is its own key in the table of constants (equal values share a name).
    (The kinds of a tuple's items are gathered first: a folded range of millions of numbers
    is one pass in C, not a call per number.)"""
    if type(value) is tuple:
        kinds = set(map(type, value))
        if kinds <= _SIMPLE:
            return True
        return kinds <= _SIMPLE | {tuple} and all(_simple(v) for v in value if type(v) is tuple)
    return value is None or type(value) in (bool, int, str)


class ExprCompiler:
    def __init__(self, program: I.Program | None, em: Emitter):
        self.program = program
        self.em = em
        self.rename: dict[str, str] = {}     # binder -> Python name inside flattened loops
        self._columns: dict = {}
        self.shared: dict[int, str] = {}     # calls made once per evaluation (``inline.shared_calls``)
        self.comp_depth = 0                  # inside a comprehension (no assignment there)
        self.fast = True        # (False: the code as before the speed-ups, the baseline of benchmarks/play.py)
        self.known: set[str] = set()    # definitions an enumeration of subsets filtered by one reads in bulk
        # bodies written in from other definitions, by identity: (the body, its rule's span code,
        # the span of the call it takes the place of), and the span codes of the rules being
        # written, the definition's own first
        self.written: dict[int, tuple[I.Expr, str, object]] = {}
        self.at: list[str] = []

    def ex(self, e: I.Expr) -> str:
        mark = self.written.get(id(e)) if self.written else None
        if mark is None or mark[0] is not e or not self.at or isinstance(e, (I.Local, I.Const, I.Global)):
            return getattr(self, "ex_" + type(e).__name__)(e)       # (a name or a constant cannot fail)
        # a definition's body written into its caller: its lines marked with its own rule,
        # so an error inside it is located there, as a call would have it (``line_spans``;
        # the parenthesis opens on the caller's line, where an operation on its value is)
        self.at.append(mark[1])
        try:
            code = getattr(self, "ex_" + type(e).__name__)(e)
        finally:
            self.at.pop()
        return f"(\n# at {mark[1]}\n{code}\n# at {self.at[-1]}\n)"

    def ex_Const(self, e: I.Const) -> str:
        return self.em.const(e.value)

    def ex_Local(self, e: I.Local) -> str:
        return self.rename.get(e.name) or pyname(e.name)

    def ex_Global(self, e: I.Global) -> str:
        if e.name in ("seats", "players"):
            return f"ST.{e.name}"
        if self.program is not None and e.name in self.program.state:
            return f"ST.shared[{self.em.const(e.name)}]"
        return f"{fname(e.name)}()"

    def ex_SeatVar(self, e: I.SeatVar) -> str:
        return f"ST.per[{self.em.const(e.name)}][{self.ex(e.seat)}]"

    def passed_through(self, e: I.Expr) -> I.Expr | None:
        """The argument a call's value is, for a definition whose value is one of its
        parameters (a switch made it so); None for anything else."""
        if isinstance(e, I.Call) and self.program is not None and e.name in self.program.funcs:
            fd = self.program.funcs[e.name]
            names = [p for p, _ in fd.params]
            if isinstance(fd.body, I.Local) and fd.body.name in names:
                return e.args[names.index(fd.body.name)]
        return None

    def ex_Call(self, e: I.Call) -> str:
        passed = self.passed_through(e)
        if passed is not None:
            return self.ex(passed)
        args = ", ".join(self.ex(a) for a in e.args)
        if self.program is not None and e.name in self.program.scorings:
            return f"{sname(e.name)}({self.em.const(e.mode)}, _FORCE{', ' if args else ''}{args})"
        return self._shared(e, f"{fname(e.name)}({args})")

    def _shared(self, e: I.Expr, code: str) -> str:
        """``code``, of a call or a record made that one evaluation makes more than once
        (``inline.shared_calls``): made at its first use and remembered for the rest."""
        var = self.shared.get(id(e))
        if var is None:
            return code
        if self.comp_depth:         # (read there, remembered at a use outside)
            return f"({var} if {var} is not _U else {code})"
        return f"({var} if {var} is not _U else ({var} := {code}))"

    def ex_Op(self, e: I.Op) -> str:
        operator = OPERATORS[e.op]
        if e.op == "size" and self.fast and isinstance(e.args[0], I.Op) and e.args[0].op == "contents" \
                and not self.written_in(e.args[0]):
            # (how many cards a grid holds: its cards not put in reading order to be counted;
            # a grid that is none fails as contents fails, reading its cards)
            return f"len({self.ex(e.args[0].args[0])}.cards)"
        args = [self.ex(a) for a in e.args]
        if e.op == "new_record" or e.op == "with":
            # (a pile of the state a record is given is kept as its cards are now: a record is
            # a value, compared, hashed and kept as one)
            takes = [_may_be_live(a) if i or e.op == "new_record" else None for i, a in enumerate(e.args)]
            args = [f"{take}({code})" if take else code for take, code in zip(takes, args)]
        if e.op == "field" and self.fast and isinstance(e.data, str) and _FIELD.fullmatch(e.data):
            return f"{args[0]}.{e.data}"        # a record's field, read as an attribute (its name is made
            #                                     of the fixed alphabet; vetted checks it again)
        if e.op == "attr" and self.fast and isinstance(e.data, dict):
            return f"{self._column(e.data)}[{args[0]}]"     # (read as dict.get reads it, without the call)
        if e.op == "new_record" and self.fast and self.program is not None \
                and isinstance(getattr(e.data, "rw_name", None), str) and not getattr(e.data, "rw_shapes", None):
            # (what the record class's own __new__ does, its name then its fields: a call in C;
            # a record holding a set is made by its class, which puts the set in its order)
            return self._shared(e, f"_TN({self.em.const(e.data)}, ({self.em.const(e.data.rw_name)}, "
                                   f"{''.join(a + ', ' for a in args)}))")
        if e.op == "with" and self.fast and self._fields_at(e) is not None:
            values = "".join(a + ", " for a in args[1:])
            return self._shared(e, f"_rt.replaced({args[0]}, {self.em.const(self._fields_at(e))}, ({values}))")
        data = self.em.const(e.data) if e.data is not None else None
        return operator.emit(args, data, self.span_of(operator.py, e))

    def _fields_at(self, e: I.Op) -> tuple | None:
        """The places in the record of the fields ``with`` changes (None: not known here)."""
        t = e.args[0].type
        info = self.program.records.get(t.name) if self.program is not None and isinstance(t, RecordT) else None
        fields = getattr(getattr(info, "cls", None), "_fields", ())
        if not all(n in fields for n in e.data):
            return None
        return tuple(fields.index(n) for n in e.data)

    def _column(self, data: dict) -> str:
        """The constant naming a table column as ``rt.Column`` (one per column)."""
        made = self._columns.get(id(data))
        if made is None or made[0] is not data:
            made = self._columns[id(data)] = (data, rt.Column(data))
        return self.em.const(made[1])

    def span_of(self, template: str, e: I.Expr) -> str | None:
        """The node's place, for a template that can raise a run-time error there (``{S}``)."""
        return self.em.const(e.span) if "{S}" in template else None

    def as_set(self, coll: I.Expr) -> str:
        """Code for a collection used only as a set: a relation's frozenset table."""
        if isinstance(coll, I.Op) and coll.op == "rel_apply" and hasattr(coll.data, "sets"):
            return f"{self.em.const(coll.data.sets)}[{self.ex(coll.args[0])}]"
        return self.ex(coll)

    def near_cards(self, var: str, where: I.Expr) -> tuple[str | None, str, str, str] | None:
        """A choice ``var in C where T`` whose filter is "a cell ``rel(var)`` reaches holds
        a card of ``g``" (``any(occupied(g, n) for n in rel(var))``), or "A or" that with A
        not reading ``var``: (code of A or None, code of ``g``'s cards, the relation's table,
        code of ``g``: read again once its cards were, so it cannot fail there),
        for the options to be the cells of C near ``g``'s cards found as sets
        (``rt.near_cards``); None otherwise. ``g`` and A are then evaluated once rather than
        for each cell: only where nothing in them counts steps (``_counts_steps``: no call, no
        loop, no range; the test itself counts none, as ``special_agg`` has it) and they read
        no name the filter binds. The filter may be a definition's body written in as a whole
        (its parts are then marked with its rule, as ``ex`` marks it), none of its parts."""
        if not self.fast:
            return None
        a, test = None, where
        if isinstance(where, I.Op) and where.op == "or" and len(where.args) == 2:
            a, test = where.args
        if not (isinstance(test, I.Agg) and test.func == "any" and len(test.binders) == 1
                and test.binders[0].cond is None and isinstance(test.elem, I.Op) and test.elem.op == "occupied"):
            return None
        b, (g, n) = test.binders[0], test.elem.args
        rel = b.coll
        if not (isinstance(rel, I.Op) and rel.op == "rel_apply" and getattr(rel.data, "inverse", False) is not False
                and isinstance(rel.args[0], I.Local) and rel.args[0].name == var
                and isinstance(n, I.Local) and n.name == b.var):
            return None
        for part in (g, a):
            names = I.free_locals(part) if part is not None else frozenset()
            if names is None or var in names or b.var in names or any(
                    self._counts_steps(x) for x in I.descendants([part] if part is not None else [])):
                return None
        if self.written and any(id(x) in self.written for x in I.descendants([where]) if x is not where):
            return None
        mark = self.written.get(id(where)) if self.written else None
        if mark is None or mark[0] is not where or not self.at:
            return (None if a is None else self.ex(a)), f"{self.ex(g)}.cards", self.em.const(rel.data), self.ex(g)
        self.at.append(mark[1])
        try:
            codes = [None if a is None else self.ex(a), f"{self.ex(g)}.cards"]
            board = self.ex(g)
        finally:
            self.at.pop()
        back = self.at[-1]
        return tuple(None if c is None else f"(\n# at {mark[1]}\n{c}\n# at {back}\n)" for c in codes) + \
            (self.em.const(rel.data), board)

    def _counts_steps(self, x) -> bool:
        """Whether evaluating ``x`` may count steps (so evaluating it once rather than for
        each cell would count fewer): a call, a loop, a definition of no parameter (called),
        an operator whose runtime function may count (a range, counted by its numbers:
        ``_charges``)."""
        return _runs_rules(x, self.program) or \
            (isinstance(x, I.Op) and any(_charges(n) for n in _RUNTIME_CALL.findall(OPERATORS[x.op].py)))

    def written_in(self, *nodes) -> bool:
        """Whether one of ``nodes`` is a definition's body written in (inline.py): a call as
        the rules write it, which no shortcut below takes for what it computes."""
        return bool(self.written) and any(n is not None and id(n) in self.written for n in nodes)

    def board_value_test(self, cond, var: str):
        """``g[var] == K`` with g a grid and K known: (grid code, K code), else None."""
        if not (isinstance(cond, I.Op) and cond.op == "eq") or self.program is None \
                or self.written_in(cond, *cond.args):
            return None
        get, value = cond.args
        if isinstance(value, I.Op) and value.op == "board_get":
            get, value = value, get
        if isinstance(get, I.Op) and get.op == "board_get" and isinstance(value, I.Const) \
                and value.value is not None and isinstance(get.args[1], I.Local) \
                and get.args[1].name == var and isinstance(get.args[0], (I.Local, I.Global)) \
                and isinstance(get.args[0].type, BoardT):
            return self.ex(get.args[0]), self.em.const(value.value)
        return None

    def ex_Agg(self, e: I.Agg) -> str:
        special = self.special_agg(e)
        if special is not None:
            return special
        return self.comprehension(e)

    def special_agg(self, e: I.Agg) -> str | None:
        """"Does / how many of these cells hold K", "is any of these cells taken": set
        operations on the grid's cells, by value or by position; a collection's values as
        they are (``[x for x in C]``) or each once (``{x for x in C}``), made in C (the
        loop's steps counted as the loop counts them)."""
        if self.fast and e.func in ("list", "set") and len(e.binders) == 1 and e.binders[0].cond is None \
                and e.key is None and isinstance(e.elem, I.Local) and e.elem.name == e.binders[0].var:
            made = self.counted(self.ex(e.binders[0].coll), e.binders[0].coll, e)
            return f"tuple({made})" if e.func == "list" else f"_rt.oset({made})"
        if self.fast and e.func == "any" and len(e.binders) == 1 and e.binders[0].cond is None \
                and isinstance(e.elem, I.Op) and e.elem.op == "occupied" \
                and not self.written_in(e.elem, e.binders[0].coll) \
                and isinstance(e.elem.args[1], I.Local) and e.elem.args[1].name == e.binders[0].var \
                and e.binders[0].var not in (I.free_locals(e.elem.args[0]) or {e.binders[0].var}):
            # (in C over a collection already made, as ``len`` is: no step counted)
            return f"(not {self.ex(e.elem.args[0])}.cards.keys().isdisjoint({self.ex(e.binders[0].coll)}))"
        if self.fast and e.func == "count" and len(e.binders) == 1:
            b = e.binders[0]
            value = _equal_to(b.cond, b.var)
            if value is not None and isinstance(b.coll.type, CollT):
                # how many of the values equal one known before the loop: counted in C
                # (the loop's steps counted as the loop would; the value a name or a constant,
                # so reading it before the collection's first value changes nothing)
                return f"_rt.count_equal({self.counted(self.ex(b.coll), b.coll, e)}, {self.ex(value)})"
        if len(e.binders) == 1 and isinstance(e.binders[0].coll.type, CollT) \
                and e.binders[0].coll.type.kind == "set":
            b = e.binders[0]
            test = None
            if e.func == "any" and b.cond is None:
                test = self.board_value_test(e.elem, b.var)
                if test:
                    return f"(not {test[0]}.sets()[{test[1]}].isdisjoint({self.as_set(b.coll)}))"
            if e.func == "count" and b.cond is not None:
                test = self.board_value_test(b.cond, b.var)
                if test:
                    coll, rest = self.indexed(b)
                    if rest is None and coll != self.ex(b.coll):
                        return f"len({coll})"       # every cell holding K
                    return f"len({test[0]}.sets()[{test[1]}].intersection({self.as_set(b.coll)}))"
        return None

    def comprehension(self, e: I.Agg) -> str:
        saved = dict(self.rename)
        if e.supply is not None:
            return self._allocation(e, saved)
        fors = []
        self.comp_depth += 1
        try:
            for b in e.binders:
                coll, cond = self.indexed(b)
                self.rename.pop(b.var, None)          # the binder's own name inside the comprehension
                part = f"for {pyname(b.var)} in {self.counted(coll, b.coll, e)}"
                if cond is not None:
                    part += f" if {self.ex(cond)}"
                fors.append(part)
            if e.func == "set" and len(e.binders) == 1 and isinstance(e.elem, I.Local) \
                    and e.elem.name == e.binders[0].var and isinstance(e.binders[0].coll.type, CollT) \
                    and e.binders[0].coll.type.kind == "set":
                # the members of a set, filtered: already without duplicates
                return f"tuple([{pyname(e.elem.name)} {' '.join(fors)}])"
            key = self.ex(e.key) if e.key is not None else ""
            var = pyname(e.binders[0].var) if e.binders else ""
            agg = AGGREGATES[e.func]
            return "(" + agg.emit(self.ex(e.elem), " ".join(fors), key, "", var, self.span_of(agg.py, e)) + ")"
        finally:
            self.rename = saved
            self.comp_depth -= 1

    def _allocation(self, e: I.Agg, outer: dict) -> str:
        """allocate(...): the supply is read outside the claimants' comprehension."""
        supply = self.ex(e.supply)
        self.comp_depth += 1
        try:
            fors = []
            for b in e.binders:
                coll, cond = self.indexed(b)
                self.rename.pop(b.var, None)
                part = f"for {pyname(b.var)} in {self.counted(coll, b.coll, e)}"
                if cond is not None:
                    part += f" if {self.ex(cond)}"
                fors.append(part)
            body = AGGREGATES[e.func].emit(self.ex(e.elem), " ".join(fors), self.ex(e.key), supply,
                                           pyname(e.binders[0].var))
            return "(" + body + ")"
        finally:
            self.rename = outer
            self.comp_depth -= 1

    def counted(self, code: str, e: I.Expr, agg: I.Agg | None = None) -> str:
        """Code of a collection a loop goes over, its values counted against the step budget;
        not counted when the loop is a few steps of the one that runs it (``few_steps``)."""
        if agg is not None and self.fast and few_steps(agg, e, self.program, self.written):
            return code
        return f"_rt.steps({code}, {self.loop_span(e)})"

    def loop_span(self, e: I.Expr) -> str:
        """The place a loop over ``e`` names when the budget runs out (a call's, where written in)."""
        mark = self.written.get(id(e)) if self.written else None
        return self.em.const(mark[2] if mark is not None else e.span)

    def indexed(self, b: I.Binder):
        """``for c in cells(g) if g[c] == K and rest`` -> the cells of ``g`` holding K
        (``g[c] == K or g[c] == L``: holding K or L, merged in reading order).

        Boards are never changed, so each one indexes its cells by value once; the
        filter's first test is then answered by the index (same cells, same order).
        """
        cond = b.cond
        first, rest = cond, None
        if isinstance(cond, I.Op) and cond.op == "and":
            first, rest = cond.args[0], cond.args[1]
        if not isinstance(b.coll, I.Const) or first is None or self.written_in(b.coll, cond):
            return self.ex(b.coll), cond
        tests = [first]
        if isinstance(first, I.Op) and first.op == "or":
            tests = list(first.args)
        found = [self.board_value_test(t, b.var) for t in tests]
        if all(found) and len({f[0] for f in found}) == 1:
            board_expr = self._board_of(tests[0])
            grid = self.program.grids.get(board_expr.type.grid)
            if grid is not None and b.coll.value == grid.cells:
                board = found[0][0]
                if len(found) == 1:
                    return f"{board}.index().get({found[0][1]}, ())", rest
                parts = " + ".join(f"{board}.index().get({k}, [])" for _, k in found)
                return f"sorted({parts})", rest
        return self.ex(b.coll), cond

    @staticmethod
    def _board_of(test: I.Op) -> I.Expr:
        get = test.args[0] if isinstance(test.args[0], I.Op) and test.args[0].op == "board_get" \
            else test.args[1]
        return get.args[0]


FEW = 16        # a loop over a constant of at most so many values may go uncounted (few_steps)
_RUNTIME_CALL = re.compile(r"_rt\.([A-Za-z_0-9]+)\(")


def _charges(name: str, depth: int = 0) -> bool:
    """Whether the runtime's function ``name`` may count steps: it names the budget's
    ``charge`` or ``steps``, or a runtime function that may (followed a few calls deep;
    deeper, or not a function written in Python: taken to count)."""
    fn = getattr(rt, name, None)
    code = getattr(fn, "__code__", None)
    if code is None:
        return not (callable(fn) and type(fn).__name__ == "builtin_function_or_method")
    if {"charge", "steps", "tick"} & set(code.co_names):
        return True
    if depth >= 3:
        return True
    return any(_charges(n, depth + 1) for n in code.co_names
               if getattr(getattr(rt, n, None), "__code__", None) is not None)


def _may_be_live(e: I.Expr) -> str | None:
    """How the code takes the cards of a pile of the state ``e`` may be or hold (not a
    value made of its cards): what reads a pile, a name or a call may be one; what an
    operator (but ``if``) or a comprehension makes, or a constant, never is. ``_UPF``: a
    collection of plain values can only be a pile itself; ``_UP`` looks inside; None: as
    it is."""
    if not isinstance(e.type, (CollT, TupleT)) or isinstance(e, (I.Const, I.Agg)):
        return None
    if isinstance(e, I.Op) and e.op != "if":
        return None
    flat = isinstance(e.type, CollT) and not isinstance(e.type.elem, (CollT, TupleT))
    return "_UPF" if flat else "_UP"


def _equal_to(cond, var: str):
    """``var == x`` or ``x == var`` with ``x`` another local name or a constant: ``x``, else None."""
    if not (isinstance(cond, I.Op) and cond.op == "eq"):
        return None
    a, b = cond.args
    if isinstance(b, I.Local) and b.name == var:
        a, b = b, a
    if isinstance(a, I.Local) and a.name == var and (isinstance(b, I.Const) or (isinstance(b, I.Local)
                                                                                and b.name != var)):
        return b
    return None


def few_steps(agg: I.Agg, coll: I.Expr, program, written: dict | None = None) -> bool:
    """Whether the loop of ``agg`` over ``coll`` (one of its binders' collections) may go
    without counting its steps: ``coll`` is a constant of at most ``FEW`` values, or a
    table's column whose every value is (a card's list of symbols), and nothing else in
    the loop runs loops or calls (no aggregate, no definition in the later binders, the
    conditions, the element or the key): its work is then at most
    ``FEW`` times that of the step that runs it, which is counted. Judged on the rules as
    written: a definition's body written in (``written``: by identity, ``Inliner.written``)
    is a call, and a collection that is one is not a constant."""
    if written and id(coll) in written:
        return False
    if isinstance(coll, I.Const):
        if not _few(coll.value):
            return False
    elif not (isinstance(coll, I.Op) and coll.op in ("attr", "rel_apply") and isinstance(coll.data, dict)
              and coll.data and all(_few(v) for v in coll.data.values())):
        return False
    at = next(i for i, b in enumerate(agg.binders) if b.coll is coll)
    rest = [agg.elem, agg.key, agg.binders[at].cond] + [x for b in agg.binders[at + 1:] for x in (b.cond, b.coll)]
    for x in I.descendants([r for r in rest if r is not None]):
        if _runs_rules(x, program) or (written and id(x) in written):
            return False
    return True


def _sized(coll: I.Expr) -> bool:
    """Whether the collection a loop goes over is surely a value of the language (a tuple,
    a pile, a set, a map: its size known at once), not an iterator of the runtime's own."""
    return isinstance(coll, (I.Local, I.Global, I.SeatVar, I.Const, I.Call)) or \
        isinstance(coll, I.Op) and coll.op in ("field", "attr", "rel_apply")


def _runs_rules(x: I.Expr, program) -> bool:
    """Whether ``x`` runs more of the rules than an operation: a call, a loop, or a
    definition of no parameter (called; a state variable, the seats, are only read)."""
    if isinstance(x, (I.Call, I.Agg)):
        return True
    state = program.state if program is not None else {}
    return isinstance(x, I.Global) and x.name not in state and x.name not in ("seats", "players")


def _few(value) -> bool:
    return isinstance(value, (tuple, frozenset, list)) and len(value) <= FEW


# Operator arguments evaluated whatever the other arguments are (so an aggregate there
# may be computed beforehand by a loop); the others are lazy: if's branches, and/or's
# right side.
_LAZY = {"if": {1, 2}, "and": {1}, "or": {1}}


class Flattener:
    """Aggregates in strict positions become plain loops in the enclosing function
    (Python 3.11 runs every comprehension as a function call); aggregates in lazy
    positions keep their expression form, so short-circuits behave the same."""

    def __init__(self, exc: ExprCompiler, em: Emitter):
        self.exc, self.em = exc, em

    def value(self, e: I.Expr, lines: list[str], pad: str) -> str:
        if isinstance(e, I.Agg):
            return self.loop(e, lines, pad)
        passed = self.exc.passed_through(e)
        if passed is not None:          # (a definition that is one of its parameters: that argument)
            return self.value(passed, lines, pad)
        if isinstance(e, I.Op) and e.op in _LAZY and self.exc.fast \
                and any(self._has_loop(e.args[i]) for i in _LAZY[e.op]):
            return self.branches(e, lines, pad)
        if isinstance(e, I.Op) and self._has_agg(e):
            lazy = _LAZY.get(e.op, set())
            args = [self.exc.ex(a) if i in lazy else self.value(a, lines, pad) for i, a in enumerate(e.args)]
            data = self.em.const(e.data) if e.data is not None else None
            return OPERATORS[e.op].emit(args, data, self.exc.span_of(OPERATORS[e.op].py, e))
        return self.exc.ex(e)

    def branches(self, e: I.Op, lines: list[str], pad: str) -> str:
        """``a and b``, ``a or b``, ``if c then x else y`` with an aggregate in a part that
        may not run: statements, each part's loops inside the branch that runs it."""
        t = self.em.fresh("t")
        inner = pad + "    "
        if e.op == "if":
            lines.append(f"{pad}if {self.value(e.args[0], lines, pad)}:")
            lines.append(f"{inner}{t} = {self.value(e.args[1], lines, inner)}")
            lines.append(f"{pad}else:")
            lines.append(f"{inner}{t} = {self.value(e.args[2], lines, inner)}")
            return t
        lines.append(f"{pad}{t} = {self.value(e.args[0], lines, pad)}")
        lines.append(f"{pad}if {'' if e.op == 'and' else 'not '}{t}:")
        lines.append(f"{inner}{t} = {self.value(e.args[1], lines, inner)}")
        return t

    def _known(self, b: I.Binder) -> str | None:
        """The generated definition a loop over the subsets of a collection (``subsets(C)``,
        ``subsets(C, n)``) is filtered by, when it is a definition of the subset alone whose
        memo may be read along the loop; None otherwise."""
        cond, coll = b.cond, b.coll
        if not (isinstance(cond, I.Call) and cond.name in self.exc.known and len(cond.args) == 1
                and isinstance(cond.args[0], I.Local) and cond.args[0].name == b.var
                and id(cond) not in self.exc.shared
                and isinstance(coll, I.Op) and coll.op in ("subsets", "subsets_at_most")):
            return None
        return fname(cond.name)

    def _has_loop(self, e) -> bool:
        """An aggregate inside that is a loop (not a set operation: ``special_agg``)."""
        if isinstance(e, I.Agg):
            return self.exc.special_agg(e) is None
        return isinstance(e, I.Op) and any(self._has_loop(a) for a in e.args)

    @staticmethod
    def _has_agg(e) -> bool:
        if isinstance(e, I.Agg):
            return True
        if isinstance(e, I.Op):
            return any(Flattener._has_agg(a) for a in e.args)
        return False

    def loop(self, e: I.Agg, lines: list[str], pad: str) -> str:
        special = self.exc.special_agg(e)
        if special is not None:
            return special
        if (e.func in ("any", "all") and len(e.binders) > 1) or e.key is not None:
            return self.exc.comprehension(e)
        t = self.em.fresh("t")
        init = {"sum": "0", "count": "0", "any": "False", "all": "True", "distinct": "set()",
                "list": "[]", "set": "{}", "min": "[]", "max": "[]"}[e.func]
        lines.append(f"{pad}{t} = {init}")
        saved = dict(self.exc.rename)
        inner = pad
        for b in e.binders:
            coll, cond = self.exc.indexed(b)
            plain = coll == self.exc.ex(b.coll)
            known = self._known(b) if plain else None
            var = self.em.fresh(pyname(b.var))
            if known is not None:       # (each subset with what the filter remembers of it: memo.known_subsets)
                m, args = self.em.fresh("m"), [self.value(a, lines, inner) for a in b.coll.args]
                lines.append(f"{inner}for {var}, {m} in _MS({known}, {args[0]}, {args[1] if len(args) > 1 else None}, "
                             f"{self.em.const(b.coll.span)}):")
                lines.append(f"{inner}    if ({m} if {m} is not _MX else {known}({var})):")
                self.exc.rename[b.var] = var
                inner += "        "
                continue
            if plain:
                coll = self.value(b.coll, lines, inner)
            counted = self.exc.counted(coll, b.coll, e)
            if counted != coll and self.exc.fast and _sized(b.coll):
                # (the steps taken off the budget here, as ``rt.steps`` takes them, without its call)
                held = self.em.fresh("n")
                lines += [f"{inner}{held} = {coll}", f"{inner}_B.left -= len({held}) + 1",
                          f"{inner}if _B.left < 0:", f"{inner}    _rt.charge(0, {self.exc.loop_span(b.coll)})"]
                counted = held
            lines.append(f"{inner}for {var} in {counted}:")
            inner += "    "
            self.exc.rename[b.var] = var
            if cond is not None:
                test = self.value(cond, lines, inner)
                lines.append(f"{inner}if {test}:")
                inner += "    "
        elem = self.value(e.elem, lines, inner) if e.func != "count" else None
        if e.func == "sum":
            lines.append(f"{inner}{t} += {elem}")
        elif e.func == "count":
            lines.append(f"{inner}{t} += 1")
        elif e.func == "any":
            lines += [f"{inner}if {elem}:", f"{inner}    {t} = True", f"{inner}    break"]
        elif e.func == "all":
            lines += [f"{inner}if not ({elem}):", f"{inner}    {t} = False", f"{inner}    break"]
        elif e.func == "distinct":
            lines.append(f"{inner}{t}.add({elem})")
        elif e.func in ("list", "min", "max"):
            lines.append(f"{inner}{t}.append({elem})")
        elif e.func == "set":
            lines.append(f"{inner}{t}[{elem}] = None")
        self.exc.rename = saved
        where = self.exc.em.const(e.span)
        return {"distinct": f"len({t})", "list": f"tuple({t})", "set": f"tuple({t})",
                "min": f"_rt.agg_min({t}, {where})", "max": f"_rt.agg_max({t}, {where})"}.get(e.func, t)


_AT = re.compile(r"^\s*# at _S\[(\d+)\]$")


def line_spans(source: str, spans: list) -> list:
    """For each line of the generated code, the span of the statement or definition
    it comes from (the nearest ``# at`` marker above it)."""
    out, current = [], None
    for line in source.split("\n"):
        m = _AT.match(line)
        if m:
            current = spans[int(m.group(1))]
        elif line.startswith("def "):
            current = None
        out.append(current)
    return out


def span_at(frame, line: int):
    """The span of the rule a line of generated code running in ``frame`` comes from (None
    for a line of no rule, or a frame of other code)."""
    spans = (frame.f_globals.get("_LINESPANS") or {}).get(frame.f_code.co_filename) or []
    return spans[line - 1] if 0 < line <= len(spans) else None


# the modules the generated code calls into for its operations (an error raised in them is
# still the rules' own)
_RUNTIME_MODULES = frozenset({"rulewright.compiler.semantics.runtime", "rulewright.compiler.semantics.render",
                              "rulewright.compiler.semantics.budget", "rulewright.compiler.semantics.allocation",
                              "rulewright.compiler.semantics.subsets", "rulewright.compiler.interpret.state",
                              "rulewright.compiler.interpret.memo", "rulewright.compiler.interpret.baseline"})


def raised_at_rule(tb):
    """The span of the deepest rule a Python error (its traceback ``tb``) came through,
    when it was raised in the rules' own code or the runtime helpers that code calls;
    None when it was raised in other code the rules called on (an agent: not the rules'
    error) or outside any rule."""
    span, inside = None, False
    while tb is not None:
        frame = tb.tb_frame
        if frame.f_code.co_filename.startswith("<rules "):
            span = span_at(frame, tb.tb_lineno) or span
            inside = True
        elif inside and frame.f_globals.get("__name__") not in _RUNTIME_MODULES:
            inside = False          # (called on from the rules into other code)
        tb = tb.tb_next
    return span if inside else None


def locate(exc: RuntimeRulesError) -> RuntimeRulesError:
    """A run-time error raised without a place (by a runtime helper such as max() of
    an empty collection), located at the deepest rule of the spec it came from."""
    if any(d.span.line > 0 for d in exc.diagnostics):
        return exc
    best = None
    tb = exc.__traceback__
    while tb is not None:
        frame = tb.tb_frame
        if frame.f_code.co_filename.startswith("<rules "):
            span = span_at(frame, tb.tb_lineno)
            if span is not None:
                best = span
        tb = tb.tb_next
    if best is None:
        return exc
    return RuntimeRulesError(exc.diagnostics[0].message, best)


def evaluate_closed(e: I.Expr, env: dict[str, Any] | None = None, what: str | None = None) -> Any:
    """Evaluate an expression that reads no state and no definitions (constant folding);
    ``what`` names it if it runs out of steps (the definition it is part of)."""
    em = Emitter()
    src = ExprCompiler(None, em).ex(e)
    scope = {"_rt": rt, "_show": render, **em.values}
    for k, v in (env or {}).items():
        scope[pyname(k)] = v
    try:
        with rt.bounded(what or "the value"):
            return eval(compile(vetted(src, "<rules>", "eval"), "<rules>", "eval"), scope)  # noqa: S307
    except rt.OutOfSteps:
        raise
    except RuntimeRulesError as exc:
        raise RuntimeRulesError(exc.diagnostics[0].message, e.span) from None
