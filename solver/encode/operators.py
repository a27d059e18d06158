"""The CP-SAT encoding of each operator and aggregate, keyed by the names of
``compiler.semantics.operators`` (which holds their typing and concrete meaning).

In:  the encoder ``E`` (its building blocks: ``solver.encode``), the expression node
     (for its span and data) and the operand values, at least one of them symbolic.
Out: a symbolic value (``solver.symbolic``), or ``NotSupportedError`` with the node's
     span where an operand's dependence on a choice cannot be encoded.

An operator the table marks ``constant_only`` has no entry: the encoder folds it on
known operands and refuses it otherwise. ``tests/semantics/test_operators.py`` checks that the
two tables name the same operators and that each encoding agrees with the meaning.
"""
from __future__ import annotations

from rulewright.compiler.semantics import runtime as _rt
from rulewright.compiler.diagnostics import NotSupportedError
from rulewright.solver.encode.base import is_symbolic
from rulewright.solver.encode.equality import (counts_of, enc_eq, enc_multiset_eq, enc_ne, enc_same, enc_same_in,
                                              guarded_list, is_tuple, known_counts, known_fields, tuple_items)

from rulewright.solver.symbolic import (BoardV, CaseV, CountsV, EnumV, GroupsV, IntV, ListV, MapV, RecordV,
                                        ScoreV, SetV, Sym)
from fractions import Fraction

ENCODINGS: dict = {}          # operator name -> encode(E, node, *operands)
AGG_ENCODINGS: dict = {}      # aggregate name -> encode(E, node, items of (guard, env))


def _lin(sign):
    return lambda E, n, a, b: E.linear([(1, a), (sign, b)])


ENCODINGS['add'] = _lin(1)

ENCODINGS['sub'] = _lin(-1)

ENCODINGS['mul'] = lambda E, n, a, b: E.mul(a, b, n.span)


def _nonlinear(what):
    def enc(E, n, *args):
        raise NotSupportedError(f"the solver cannot take the {what} of a value that depends on a choice",
                                n.span)
    return enc


ENCODINGS['floordiv'] = lambda E, n, a, b: E.floor_divmod(a, b, n.span)[0]

ENCODINGS['mod'] = lambda E, n, a, b: E.floor_divmod(a, b, n.span)[1]

ENCODINGS['neg'] = lambda E, n, a: E.linear([(-1, a)])

ENCODINGS['min2'] = lambda E, n, a, b: E.minmax("min", [a, b], n.span)

ENCODINGS['max2'] = lambda E, n, a, b: E.minmax("max", [a, b], n.span)

ENCODINGS['abs'] = lambda E, n, a: E.minmax("max", [a, E.linear([(-1, a)])], n.span)


def _cmp(opname):
    def enc(E, n, a, b):
        if guarded_list(a) or guarded_list(b):
            raise NotSupportedError(f"the solver cannot order ({opname}) a list whose elements depend on "
                                    f"a choice", n.span)
        if is_tuple(a) or is_tuple(b):
            return E.boolv(E.lex(tuple_items(a, n), opname, tuple_items(b, n), n.span))
        return E.boolv(E.cmp(a, opname, b, n.span))
    return enc


ENCODINGS['eq'] = enc_eq

ENCODINGS['ne'] = enc_ne


ENCODINGS['multiset_eq'] = enc_multiset_eq

ENCODINGS['same'] = enc_same

ENCODINGS['same_in'] = enc_same_in

ENCODINGS['lt'] = _cmp("<")

ENCODINGS['le'] = _cmp("<=")

ENCODINGS['gt'] = _cmp(">")

ENCODINGS['ge'] = _cmp(">=")

ENCODINGS['and'] = lambda E, n, a, b: E.boolv(E.and_([E.lit(a, n.span), E.lit(b, n.span)]))

ENCODINGS['or'] = lambda E, n, a, b: E.boolv(E.or_([E.lit(a, n.span), E.lit(b, n.span)]))

ENCODINGS['not'] = lambda E, n, a: E.boolv(E.not_(E.lit(a, n.span)))


def enc_if(E, n, c, t, o):
    c = E.lit(c, n.span)
    if isinstance(c, bool):
        return t if c else o
    return E.merge_cases([(c, t), (E.not_(c), o)], n.span)


ENCODINGS['if'] = enc_if


def enc_in(E, n, x, coll):
    if isinstance(coll, SetV):
        if isinstance(x, Sym):
            raise NotSupportedError("the solver checks a known element against a set", n.span)
        return E.boolv(coll.members.get(x, False))
    if isinstance(coll, ListV):
        parts = []
        for g, v in coll.items:
            if g is False:
                continue
            if isinstance(v, Sym) or isinstance(x, Sym):
                parts.append(E.and_([g, E.lit(enc_eq(E, n, x, v))]))
            elif v == x:
                parts.append(g)
        return E.boolv(E.or_(parts))
    if isinstance(coll, Sym):
        raise NotSupportedError("the solver cannot test membership in this collection", n.span)
    values = set(_rt.as_tuple(coll))
    if isinstance(x, EnumV):
        return E.boolv(E.or_([lit for v, lit in x.lits.items() if v in values]))
    if isinstance(x, CaseV):
        return E.boolv(E.or_([lit for lit, v in x.cases if v in values]))
    if isinstance(x, RecordV):         # (a record is never none)
        return E.boolv(E.or_([E.lit(enc_eq(E, n, x, v)) for v in values if v is not None]))
    return E.boolv(E.or_([E.cmp(x, "==", v) for v in values]))


ENCODINGS['in'] = enc_in

ENCODINGS['not_in'] = lambda E, n, x, c: E.boolv(E.not_(E.lit(enc_in(E, n, x, c))))


def enc_concat(E, n, a, b):
    def items(v):
        if isinstance(v, ListV):
            return list(v.items)
        if isinstance(v, Sym):
            raise NotSupportedError("the solver joins lists of known length only", n.span)
        return [(True, x) for x in _rt.as_tuple(v)]
    return ListV(items(a) + items(b))


ENCODINGS['concat'] = enc_concat

ENCODINGS['range'] = _nonlinear("range")


def enc_size(E, n, coll):
    if isinstance(coll, SetV):
        return E.linear([(1, E.boolv(l)) for l in coll.members.values()])
    if isinstance(coll, ListV):
        return E.linear([(1, E.boolv(g)) for g, _ in coll.items])
    if isinstance(coll, CountsV):
        return E.linear([(1, c) for c in coll.counts.values()])
    raise NotSupportedError("the solver cannot count this collection", n.span)


ENCODINGS['size'] = enc_size


def enc_within(E, n, a, b):
    if isinstance(a, (ListV, SetV)) and not isinstance(b, Sym):
        ca, have = counts_of(E, a), known_counts(b)
        if ca is None:
            raise NotSupportedError("the solver checks collections of known values only", n.span)
        return E.boolv(E.and_([E.cmp(cnt, "<=", have.get(v, 0)) for v, cnt in ca.items()]))
    if not isinstance(a, CountsV) or isinstance(b, Sym):
        raise NotSupportedError("the solver checks the cards of a grid against a known list only", n.span)
    have: dict = {}
    for x in _rt.as_tuple(b):
        have[x] = have.get(x, 0) + 1
    return E.boolv(E.and_([E.cmp(cnt, "<=", have.get(v, 0)) for v, cnt in a.counts.items()]))


ENCODINGS['within'] = enc_within

LONG_FIRST = 64         # items of a list whose first() is encoded item by item from the last one


def enc_first(E, n, coll):
    """The first present item of a guarded list: item i when its guard holds and no
    earlier guard does (a case split over the items)."""
    if not isinstance(coll, ListV):
        raise NotSupportedError("the solver takes the first element of a list only", n.span)
    cases = []
    earlier = []
    none_before = True          # (a long list: no earlier guard holds, one literal per item)
    long = len(coll.items) > LONG_FIRST
    for g, v in coll.items:
        if g is False:
            continue
        if long:
            # linear in the items (each "no earlier one" from the last): the pairs of a
            # hand of 30,000 cards made a model of hundreds of millions of literals
            E._ticks -= 1
            if E._ticks <= 0:
                E._tick()           # (past the deadline of the build: BuildTimeout)
            lit = E.and_([g, none_before])
            none_before = E.and_([none_before, E.not_(g)])
        else:
            lit = E.and_([g] + [E.not_(x) for x in earlier])
        if lit is not False:
            cases.append((lit, v))
        earlier.append(g)
        if g is True:
            break
    if not cases:
        raise NotSupportedError("first() of a list that is always empty", n.span)
    if len(cases) == 1 and cases[0][0] is True:
        return cases[0][1]
    if any(c is True for c, _ in cases):
        return CaseV(cases)
    # No item present: the interpreter stops with an error there, so no option may
    # reach this expression with the list empty (as for a division by 0).
    none = E.and_([E.not_(g) for g, _ in coll.items if g is not False])
    E.never_reached_with(none, n.span, "takes first() of an empty collection")
    return CaseV(cases)


ENCODINGS['first'] = enc_first


def enc_attr(E, n, x):
    """A table column of a symbolic enum value: an enum over the column's values, or a number."""
    mapping = n.data.mapping
    if isinstance(x, CaseV):
        return E.case_map(x, lambda v: mapping.get(v), n.span)
    groups: dict = {}
    for v, lit in x.lits.items():
        groups.setdefault(mapping.get(v), []).append(lit)
    if all(isinstance(k, int) and not isinstance(k, bool) or k is None for k in groups):
        return E.linear([(k or 0, E.boolv(E.or_(ls))) for k, ls in groups.items()])
    return EnumV({k: E.or_(ls, f"{n.data}={k}") for k, ls in groups.items()})


ENCODINGS['attr'] = enc_attr


def enc_step_points(E, n, score):
    if isinstance(score, ScoreV):
        return score.steps.get(str(n.data), 0)
    raise NotSupportedError("the solver reads a step's points of a scoring it computes only", n.span)


ENCODINGS['step_points'] = enc_step_points


def enc_map_get(E, n, k):
    """A table of values at a symbolic key, as thresholds: f(lo) plus, for each k,
    (f(k) - f(k-1)) when key >= k. When the value only matters under a guard that
    the key counts (a group's size counts its own root), the key's lower bound under
    that guard is used, and value <= alpha * key is offered to the gate."""
    mv = n.data
    k = E.intv(k, n.span)
    if isinstance(k, int):
        return mv[k]
    lo, hi = k.lb, k.ub
    guard = None
    if all(coef > 0 for _, coef in k.terms.values()) and \
            all(E.var_bounds(var) and E.var_bounds(var)[0] >= 0 for var, _ in k.terms.values()):
        for g in reversed(E.guards):
            if not isinstance(g, bool) and E.key(g) in k.terms:
                guard = g
                lo = max(lo, k.const + k.terms[E.key(g)][1])
                E.relied.append(g)        # the value below is right only where g holds
                break

    def f(x):
        if x in mv.mapping:
            return mv.mapping[x]
        if mv.has_default:
            return mv.default
        return None

    top = max([x for x in mv.mapping if isinstance(x, int)] + [lo]) + 1
    hi_eff = min(hi, top)
    if any(f(x) is None for x in range(lo, hi_eff + 1)):
        allowed = [x for x in range(lo, hi + 1) if f(x) is not None]
        if not allowed:
            raise NotSupportedError("no entry of this table of values can be reached", n.span)
        # where the lookup is reached (the interpreter looks the key up there only)
        holes = [E.cmp(k, "!=", x) for x in range(min(allowed), max(allowed) + 1) if f(x) is None]
        E.holds_where_reached(E.and_([E.cmp(k, ">=", min(allowed)), E.cmp(k, "<=", max(allowed))] + holes))
        lo, hi_eff = min(allowed), min(max(allowed), hi_eff)
        known = f

        def f(x):     # a key with no entry (never taken) counts as the one below it
            while known(x) is None:
                x -= 1
            return known(x)
    parts = []
    for x in range(lo + 1, hi_eff + 1):
        delta = f(x) - f(x - 1)
        if delta:
            parts.append((delta, E.boolv(E.cmp(k, ">=", x))))
    value = E.linear(parts, f(lo))
    if isinstance(value, IntV) and guard is not None and lo >= 1:
        alpha = max(Fraction(f(x), x) for x in range(lo, hi_eff + 1))
        # (offered as a bound on the gated value, 0 where the guard is false: only
        # valid for a ratio of at least 0)
        # (and where the guard is false the key, then at least its own lower bound,
        # must not be negative)
        if alpha >= 0 and k.lb >= 0 and all(f(x) <= alpha * x for x in range(lo, hi + 1) if f(x) is not None):
            value.cond_bound = (guard, alpha.numerator, alpha.denominator, k)
    return value


ENCODINGS['map_get'] = enc_map_get


def _cell(E, n, board, cell):
    if isinstance(cell, Sym):
        raise NotSupportedError("the solver reads a grid at known cells only", n.span)
    if not isinstance(board, BoardV):
        raise NotSupportedError("the solver reads a grid that depends on a choice only", n.span)
    return board.cells.get(cell)


def enc_board_get(E, n, board, cell):
    if isinstance(board, BoardV) and isinstance(cell, CaseV):
        return EnumV(_case_cell_lits(E, board, cell))
    e = _cell(E, n, board, cell)
    if e is None:
        return None
    return e


def _case_cell_lits(E, board, cell):
    out: dict = {}
    for lit, c in cell.cases:
        for v, l in board.cells[c].lits.items():
            out.setdefault(v, []).append(E.and_([lit, l]))
    return {v: E.or_(ls) for v, ls in out.items()}


ENCODINGS['board_get'] = enc_board_get


def enc_layer_get(E, n, layer, cell):
    if isinstance(cell, Sym):
        raise NotSupportedError("the solver reads a layer at known cells only", n.span)
    return E.boolv(layer.marks.get(cell, False))


ENCODINGS['layer_get'] = enc_layer_get


def enc_occupied(E, n, board, cell):
    e = _cell(E, n, board, cell)
    return E.boolv(E.not_(e.lits.get(None, False))) if e is not None else False


ENCODINGS['occupied'] = enc_occupied

ENCODINGS['free'] = lambda E, n, b, c: E.boolv(E.not_(E.lit(enc_occupied(E, n, b, c))))

ENCODINGS['empty'] = lambda E, n, b: E.boolv(E.and_([e.lits.get(None, False) for e in b.cells.values()]))

ENCODINGS['full'] = lambda E, n, b: E.boolv(E.and_([E.not_(e.lits.get(None, False)) for e in b.cells.values()]))


def enc_contents(E, n, board):
    counts: dict = {}
    for e in board.cells.values():
        for v, lit in e.lits.items():
            if v is not None:
                counts.setdefault(v, []).append((1, E.boolv(lit)))
    return CountsV({v: E.linear(parts) for v, parts in counts.items()})


ENCODINGS['contents'] = enc_contents


def enc_extends(E, n, full, part):
    """The known grid ``part`` appears in the chosen grid ``full`` at one of its translations."""
    if isinstance(full, BoardV) and isinstance(part, CaseV):
        # one known partial grid per alternative (for instance per place of the new card)
        return E.boolv(E.or_([E.and_([lit, E.lit(enc_extends(E, n, full, p))]) for lit, p in part.cases]))
    if not isinstance(full, BoardV) or isinstance(part, Sym):
        raise NotSupportedError("the solver checks a known partial grid inside a chosen grid", n.span)
    if not part.cards:
        return True
    r0, c0, r1, c1 = part.bbox()
    options = []
    for dr in range(-r0, full.grid.rows - r1):
        for dc in range(-c0, full.grid.cols - c1):
            lits = [full.cells[(r + dr, c + dc)].lits.get(k, False) for (r, c), k in part.cards.items()]
            options.append(E.and_(lits, f"at+{dr},{dc}"))
    return E.boolv(E.or_(options))


ENCODINGS['extends'] = enc_extends


def enc_rel_apply(E, n, cell):
    if isinstance(cell, CaseV):
        return E.case_map(cell, lambda c: n.data[c], n.span)
    raise NotSupportedError("the solver applies relations to known cells only", n.span)


ENCODINGS['rel_apply'] = enc_rel_apply


def enc_groups(E, n, cells):
    """Connected groups of a symbolic set of cells.

    Every member belongs to exactly one group, named by its first cell in reading
    order (its root). Members next to each other share their group; each member
    other than the root has a neighbour in its group one step closer to the root,
    so a group is connected and no two separate groups can pose as one.
    """
    if not isinstance(cells, SetV):
        raise NotSupportedError("connected groups of this collection", n.span)
    rel = n.data
    order = list(cells.members)
    index = {c: i for i, c in enumerate(order)}
    member = cells.members
    size = len(order)
    roots = {}
    belong: dict = {}        # root -> {cell: literal}
    for r in order:
        if member[r] is False:
            continue
        for c in order[index[r]:]:
            if member[c] is False:
                continue
            lit = E.new_bool(f"group[{_cname(r)}]∋{_cname(c)}")
            E.implies(lit, member[c])
            belong.setdefault(r, {})[c] = lit
    for r, cs in belong.items():
        roots[r] = cs[r]
    # every member is in exactly one group
    for c in order:
        if member[c] is False:
            continue
        lits = [belong[r][c] for r in belong if c in belong[r]]
        E.model.add(sum(lits) == E.intv(E.boolv(member[c])).expr()
                    if not isinstance(member[c], bool) else sum(lits) == int(member[c]))
    depth = {}
    for c in order:
        if member[c] is not False:
            depth[c] = E.new_int(0, size, f"depth[{_cname(c)}]")
    for r, cs in belong.items():
        for c, lit in cs.items():
            # neighbours in the set are in the same group; an earlier neighbour
            # would contradict the root being the first cell.
            for d in rel[c]:
                if d not in member or member[d] is False:
                    continue
                both = E.and_([lit, member[d]])
                if d in cs:
                    E.implies(both, cs[d])
                else:
                    E.implies(both, False)
            if c == r:
                E.model.add(depth[c] == 0).only_enforce_if(lit)
                continue
            E.implies(lit, roots[r])
            # a parent: a neighbour in the same group, one step closer to the root
            parents = []
            for d in rel[c]:
                if d in cs:
                    p = E.new_bool(f"parent[{_cname(c)}]={_cname(d)}")
                    E.implies(p, cs[d])
                    E.model.add(depth[c] == depth[d] + 1).only_enforce_if(p)
                    parents.append(p)
            E.model.add_bool_or(parents + [E.not_(lit)])
    return GroupsV(roots, belong)


def _cname(c):
    return f"{c[0]},{c[1]}" if isinstance(c, tuple) else str(c)


ENCODINGS['groups'] = enc_groups


def _enc_make(kind):
    def enc(E, n, *items):
        return ListV([(True, x) for x in items])
    return enc


ENCODINGS['make_tuple'] = _enc_make("tuple")

ENCODINGS['make_list'] = _enc_make("list")


# ------------------------------------------------------------ records and game state
def enc_field(E, n, rec):
    name = str(n.data)
    name = name[2:] if name.startswith("f_") else name
    if isinstance(rec, RecordV):
        return rec.fields[name]
    if isinstance(rec, CaseV):
        return E.case_map(rec, lambda r: enc_field(E, n, r) if isinstance(r, RecordV)
                          else (None if r is None else getattr(r, "f_" + name)), n.span)
    raise NotSupportedError("the solver reads fields of records only", n.span)


def enc_new_record(E, n, *values):
    return E.record(n.data.rw_name, dict(zip(n.data.rw_fields, values)))


def enc_with(E, n, base, *values):
    if isinstance(base, RecordV):
        fields = dict(base.fields)
        name = base.name
    elif hasattr(base, "rw_fields"):
        fields = known_fields(base)
        name = base.rw_name
    else:
        raise NotSupportedError("the solver changes fields of records only", n.span)
    fields.update({f[2:]: v for f, v in zip(n.data, values)})
    return E.record(name, fields, like=base)


ENCODINGS['field'] = enc_field

ENCODINGS['new_record'] = enc_new_record

ENCODINGS['with'] = enc_with

ENCODINGS['tuple_get'] = lambda E, n, t, i: t[i] if not isinstance(t, Sym) else _nonlinear("tuple element")(E, n)

def enc_dict_get(E, n, table, key):
    """A computed table at a key: the entry of that key (a record built by the query is
    found by identity), else 0."""
    if not isinstance(table, MapV):
        if is_symbolic(key):        # (a number, or a tuple holding one, that depends on a choice)
            return E.linear([(1, E.gate(E.lit(enc_eq(E, n, k, key)), v, n.span)) for k, v in table.items()])
        return table.get(key, 0)
    parts = []
    for g, k, v in table.entries:
        if k is key:
            same = True
        elif isinstance(k, Sym) or isinstance(key, Sym):
            same = E.lit(enc_eq(E, n, k, key))
        else:
            same = k == key
        if same is not False:
            if callable(v):
                v = v()                   # a share encoded when first read
            parts.append((1, E.gate(E.and_([g, same]), v, n.span)))
    return E.linear(parts)


ENCODINGS['dict_get'] = enc_dict_get


# Aggregate encodings receive (E, node, items) where items are (guard, element):
# the element counts only when its guard literal holds.
AGG_ENCODINGS['sum'] = lambda E, n, items: E.linear([(1, E.gate(g, E.under(g, n.elem, env), n.span)) for g, env in items])

def enc_count(E, n, items):
    result = E.linear([(1, E.boolv(g)) for g, _ in items])
    cap = E.count_cap([g for g, _ in items])
    if isinstance(result, IntV) and cap is not None and cap < result.ub:
        E.model.add(result.expr() <= cap)
        result.ub = cap
    return result


AGG_ENCODINGS['count'] = enc_count

AGG_ENCODINGS['any'] = lambda E, n, items: E.boolv(E.or_([E.and_([g, E.lit(E.under(g, n.elem, env), n.span)])
                                       for g, env in items]))

AGG_ENCODINGS['all'] = lambda E, n, items: E.boolv(E.and_([E.or_([E.not_(g), E.lit(E.under(g, n.elem, env), n.span)])
                                        for g, env in items]))


def _enc_minmax(kind):
    def enc(E, n, items):
        items = [(g, env) for g, env in items if g is not False]
        if not items:
            raise NotSupportedError(f"{kind}() of an empty collection", n.span)
        if all(g is True for g, _ in items):
            return E.minmax(kind, [E.encode(n.elem, env) for _, env in items], n.span)
        # Members present or not by a choice: an absent member counts as the bound that
        # never wins (the largest value for min, the smallest for max); no option may
        # reach this with no member present (the interpreter stops with an error there).
        values = [(g, E.intv(E.under(g, n.elem, env), n.span)) for g, env in items]
        lows = [v if isinstance(v, int) else v.lb for _, v in values]
        highs = [v if isinstance(v, int) else v.ub for _, v in values]
        never = max(highs) if kind == "min" else min(lows)
        gated = [v if g is True else E.linear([(1, E.gate(g, E.linear([(1, v), (-1, never)]), n.span)), (1, never)])
                 for g, v in values]
        if not any(g is True for g, _ in items):
            E.never_reached_with(E.and_([E.not_(g) for g, _ in items]), n.span,
                                 f"takes {kind}() of an empty collection")
        return E.minmax(kind, gated, n.span)
    return enc


AGG_ENCODINGS['min'] = _enc_minmax("min")

AGG_ENCODINGS['max'] = _enc_minmax("max")


def enc_distinct(E, n, items):
    """One "seen" literal per possible value; there are never more values than elements."""
    by_value: dict = {}
    for g, env in items:
        v = E.under(g, n.elem, env)
        if isinstance(v, EnumV):
            for value, lit in v.lits.items():
                by_value.setdefault(value, []).append(E.and_([g, lit]))
        elif isinstance(v, Sym):
            raise NotSupportedError("the solver counts distinct known or enum values only", n.span)
        else:
            by_value.setdefault(v, []).append(g)
    result = E.linear([(1, E.boolv(E.or_(ls, "seen"))) for ls in by_value.values()])
    elements = E.linear([(1, E.boolv(g)) for g, _ in items])
    if isinstance(result, IntV):
        cap = elements if isinstance(elements, int) else elements.ub
        if cap < result.ub:
            E.model.add(result.expr() <= (elements if isinstance(elements, int) else elements.expr()))
            result.ub = cap
    return result


AGG_ENCODINGS['distinct'] = enc_distinct


def enc_list(E, n, items):
    # an element is computed only for the combinations there (as the interpreter does)
    values = [(g, E.encode(n.elem, env) if g is True else E.under(g, n.elem, env)) for g, env in items]
    if all(g is True and not isinstance(v, Sym) for g, v in values):
        return tuple(v for _, v in values)
    return ListV(values)


def enc_set(E, n, items):
    values = [(g, E.encode(n.elem, env) if g is True else E.under(g, n.elem, env)) for g, env in items]
    if all(g is True and not isinstance(v, Sym) for g, v in values):
        return _rt.oset(v for _, v in values)
    if any(isinstance(v, Sym) for _, v in values):
        raise NotSupportedError("the solver builds sets of known elements only", n.span)
    members: dict = {}
    order = []          # (each value where it is met first: an earlier one of it left out)
    for g, v in values:
        if g is False:
            continue
        before = members.setdefault(v, [])
        first = g if not before else E.and_([g] + [E.not_(h) for h in before])
        if first is not False:
            order.append((first, v))
        before.append(g)
    again = any(len(gs) > 1 for gs in members.values())
    return SetV({v: E.or_(gs) for v, gs in members.items()}, order if again else None)

def _enc_allocate(stop: bool, even: bool):
    def enc(E, n, items):
        supply = E.encode(n.supply, E.agg_env)
        var = n.binders[0].var
        claims = [(g, E.under(g, n.key, env), E.under(g, n.elem, env), env[var]) for g, env in items]
        if all(g is True and not any(isinstance(x, Sym) for x in (k, need, who)) for g, k, need, who in claims) \
                and not isinstance(supply, Sym):
            return _rt.allocate(supply, [(k, who, need) for _, k, need, who in claims], stop, even)
        return E.allocate(claims, supply, stop, even, n.span)
    return enc


AGG_ENCODINGS['allocate'] = _enc_allocate(True, False)

AGG_ENCODINGS['allocate_skipping'] = _enc_allocate(False, False)

AGG_ENCODINGS['allocate_even'] = _enc_allocate(True, True)

AGG_ENCODINGS['allocate_skipping_even'] = _enc_allocate(False, True)

AGG_ENCODINGS['list'] = enc_list

AGG_ENCODINGS['set'] = enc_set
