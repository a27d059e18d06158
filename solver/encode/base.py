"""What the encoder's parts share: the test of a symbolic value, the memo keys of definition
calls, the fields a definition reads, the facts the walk keeps per expression node, the
readable names of cells, and the limits of a model.
"""
from __future__ import annotations


from rulewright.compiler import ir as I
from rulewright.compiler.diagnostics import NotSupportedError


from rulewright.solver.symbolic import CaseV, ListV, RecordV, SetV, Sym


def is_symbolic(v) -> bool:
    if isinstance(v, Sym):
        return True
    if isinstance(v, tuple) and not hasattr(v, "rw_fields"):
        return any(is_symbolic(x) for x in v)
    return False


def linear_key(v):
    """A number or a linear expression, as a key equal for the same expression."""
    if isinstance(v, int):
        return v
    return (v.const, frozenset((k, c) for k, (_, c) in v.terms.items()))


def hashable(v):
    try:
        hash(v)
        return v
    except TypeError:
        return ("id", id(v))


_FREE: dict = {}


def free_locals(e: I.Expr, program) -> tuple | None:
    """The local names an expression reads, sorted (None when it calls a scoring,
    whose choices and breakdown the encoder keeps itself)."""
    key = id(e)
    hit = _FREE.get(key)
    if hit is not None and hit[0] is e:
        return hit[1]
    result = I.free_locals(e, lambda x: isinstance(x, I.Call) and x.name in program.scorings)
    result = tuple(sorted(result)) if result is not None else None
    _FREE[key] = (e, result)
    return result


_PLAIN = (int, str, bool, type(None))
MOST_MAGNITUDE = 2 ** 62       # the bounds of a model's integer variables (CP-SAT's sums stay in 64 bits)


def too_large(reach: int):
    raise NotSupportedError(f"a value of this query may reach {reach:,}: the numbers are too large for CP-SAT, "
                            "whose sums stay within 64 bits")


def memo_key(a, fields):
    """What a call's result depends on, of one argument: for a record the definition
    only reads some fields of, those fields (a record built per branch of a query,
    differing in a field the definition does not read, reuses its encoding)."""
    if type(a) in _PLAIN:
        return a
    if isinstance(a, RecordV) and fields is not None:
        # kept with the record for each list of fields (records are not changed once made)
        keys = a.__dict__.setdefault("memo_keys", {})
        hit = keys.get(id(fields))
        if hit is None or hit[0] is not fields:
            hit = keys[id(fields)] = (fields, ("R", a.name) + tuple((f, memo_key(a.fields[f], None))
                                                                  for f in fields))
        return hit[1]
    if isinstance(a, ListV):
        # a list built again from the same items is the same argument (symbolic values
        # are not changed once made, so the key is kept with the list)
        key = a.__dict__.get("memo_key")
        if key is None:
            key = a.memo_key = ("L",) + tuple((g if isinstance(g, bool) else ("l", g.index),
                                               memo_key(x, None)) for g, x in a.items)
        return key
    if isinstance(a, Sym):
        return ("S", id(a))
    if isinstance(a, tuple) and not hasattr(a, "rw_fields") and is_symbolic(a):
        # a tuple built again from the same values (``xs + [s]`` in two places) is the
        # same argument: its elements, symbolic ones by identity
        return ("T",) + tuple(memo_key(x, None) for x in a)
    return hashable(a)


_FIELDS: dict = {}


def fields_read(fd: I.FuncDef, program) -> list:
    """For each parameter of a definition: the sorted record fields its body reads
    (directly, or through the definitions it passes the parameter to), or None when
    the parameter is used whole (compared, stored, changed with 'with'...)."""
    hit = _FIELDS.get(id(fd))
    if hit is not None and hit[0] is fd:
        return hit[1]
    _FIELDS[id(fd)] = (fd, [None] * len(fd.params))       # recursion: used whole
    used: list = [set() for _ in fd.params]
    index = {p: i for i, (p, _) in enumerate(fd.params)}

    def walk(x, bound: frozenset):
        if isinstance(x, I.Local):
            if x.name in index and x.name not in bound:
                used[index[x.name]] = None
            return
        if isinstance(x, I.Op) and x.op == "field" and isinstance(x.args[0], I.Local) \
                and x.args[0].name in index and x.args[0].name not in bound:
            i = index[x.args[0].name]
            if used[i] is not None:
                used[i].add(str(x.data)[2:])
            return
        if isinstance(x, I.Call) and x.name in program.funcs:
            callee = fields_read(program.funcs[x.name], program)
            for j, a in enumerate(x.args):
                if isinstance(a, I.Local) and a.name in index and a.name not in bound and j < len(callee):
                    i = index[a.name]
                    if callee[j] is None:
                        used[i] = None
                    elif used[i] is not None:
                        used[i] |= set(callee[j])
                else:
                    walk(a, bound)
            return
        for child, inner in I.scoped_children(x, bound):
            walk(child, inner)

    if fd.body is not None:
        walk(fd.body, frozenset())
    result = [sorted(u) if u is not None else None for u in used]
    _FIELDS[id(fd)] = (fd, result)
    return result


NO_VALUE = object()
DEFS: dict = {}        # id of a definition -> (it, its parameter names, the fields each reads)
FLIPPED = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
_CHAINS: dict = {}
NODES: dict = {}


def radix(reaches: list) -> list:
    """Weights for differences that reach at most these magnitudes, so that the
    weighted sum has the sign of the first nonzero difference (each weight exceeds
    what all later differences can add up to)."""
    weights, weight = [], 1
    for reach in reversed(reaches):
        weights.append(weight)
        weight *= 2 * reach + 1
    return weights[::-1]


def chain_parts(e: I.Op) -> list:
    """The operands of a chain of one operator (``a and b and c``), in order."""
    hit = _CHAINS.get(id(e))
    if hit is not None and hit[0] is e:
        return hit[1]
    parts: list = []

    def walk(x):
        if isinstance(x, I.Op) and x.op == e.op:
            for a in x.args:
                walk(a)
        else:
            parts.append(x)

    walk(e)
    _CHAINS[id(e)] = (e, parts)
    return parts


def cell_name(c) -> str:
    return f"{c[0]},{c[1]}" if isinstance(c, tuple) and len(c) == 2 else str(c)


TICKS = 256       # expressions encoded between two looks at the clock


class BuildTimeout(Exception):
    """Building a model took the whole time limit of its query."""


class Lazy:
    """A value encoded the first time it is read."""

    def __init__(self, make):
        self.make = make
        self.value = None
        self.done = False

    def __call__(self):
        if not self.done:
            self.value, self.done = self.make(), True
        return self.value


class Leaf:
    """One rule a query checks: the expression, its environment, the path it is on."""

    def __init__(self, expr, env, guard, path, rule, stmt, lit):
        self.expr, self.env, self.guard, self.path = expr, env, guard, path
        self.rule, self.stmt, self.lit = rule, stmt, lit
        self.assumption = None
        self.sentence = None        # an expression that cannot be computed: what goes wrong
        self.empty = None           # (a choice, whether its collection had elements): nothing to choose


def leaf_name(leaf: Leaf) -> str:
    if isinstance(leaf.expr, I.Call):
        return leaf.expr.name
    return leaf.rule.name if leaf.rule is not None else "require"


def choice_literals(value):
    if isinstance(value, CaseV):
        return [l for l, _ in value.cases if not isinstance(l, bool)]
    if isinstance(value, SetV):
        return [l for l in value.members.values() if not isinstance(l, bool)]
    if isinstance(value, ListV):
        return [g for g, _ in value.items if not isinstance(g, bool)]
    return []
