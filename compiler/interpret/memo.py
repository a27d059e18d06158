"""Definitions that remember their values: the memo the interpreter puts on the generated
definitions (``memoize``), and each memo (``remembered``).

In:  the generated namespace, each definition's Python source, the memo of the definitions
     that read the state (which the generated procedures clear).
Out: the namespace's definitions replaced by remembering ones where that pays.
"""
from __future__ import annotations

import re
from itertools import repeat
from operator import itemgetter
from time import perf_counter_ns

from rulewright.compiler.semantics import runtime as rt


def memoize(ns: dict, sources: dict[str, str], state_memo: "StateMemo", projected: dict | None = None,
            consts: dict | None = None, held: dict | None = None) -> None:
    """Each definition of ``sources`` (generated name -> its Python source) is replaced in
    ``ns`` by one that remembers its values: a definition that reads no state, directly or
    through those it calls, for as long as the interpreter lives (bounded); one that reads
    the state in ``state_memo``, in the part for the variables it reads (``consts``: the
    generated code's constants, which name them), which the procedures clear whenever
    one of those may change (``StateMemo``). A definition that reads a scoring's forced
    choices (one that scores) is remembered in the state's memo only while no choice is
    forced (``_unless_forced``); one cheaper than a memo (no loop, at most one call) is not
    remembered. Values of the language are immutable (``remembered`` says how each memo is
    keyed). ``projected``: generated name -> the parameters a definition reads only through
    table columns, with each value's class, or records only through some fields
    (``compiler/interpret/projection.py``): a definition that reads no state is then
    remembered by the classes of those arguments' values and by those fields; one that
    reads the state by those fields (keys by class cost more than they save in the state's
    memo, which is cleared many times a game)."""
    # (every definition named, called or handed on as a value: what it reads is read too)
    calls = {name: set(_NAMED.findall(src)) & sources.keys() for name, src in sources.items()}
    # (a scoring is not among ``sources``: one that calls a scoring may read any of the state)
    what = {name: None if set(_SCORING.findall(src)) - sources.keys() else state_read(src, consts or {})
            for name, src in sources.items()}
    reads = {name for name, src in sources.items() if "ST." in src or "_FORCE" in src}
    forced = {name for name, src in sources.items() if "_FORCE" in src}
    changed = True
    while changed:          # reading the state (or forced choices) passes to the callers
        changed = False
        for name, called in calls.items():
            if name not in reads and called & reads:
                reads.add(name)
                changed = True
            if name not in forced and called & forced:
                forced.add(name)
                changed = True
            if what[name] is not None:
                for other in called:
                    more = what[other]
                    if more is None or not more <= what[name]:
                        what[name] = None if more is None else what[name] | more
                        changed = True
                        if more is None:
                            break
    for name, src in sources.items():
        body = src.split("\n", 1)[1]
        if name in forced:
            ns[name] = _unless_forced(ns[name], state_memo.part(what[name]), name, ns)
            continue
        if " for " not in body and len(_CALLED.findall(body)) + len(_RUNTIME.findall(body)) < 2:
            continue        # (a definition without a loop that calls at most one other: cheaper than a memo)
        classes = (projected or {}).get(name)
        if name in reads and classes:       # (the state's memo: records by their fields only)
            classes = {i: c for i, c in classes.items() if c[0] == "fields"}
        ns[name] = remembered(ns[name], state_memo.part(what[name]) if name in reads else {},
                              name if name in reads else None, ns, name, classes,
                              (held or {}).get(name, ()) if name in reads else ())


_STATE = re.compile(r"\bST\.(?:(?:per|shared)\[(K\d+)\]|([A-Za-z_]\w*))")
_FIXED = ("players", "seats")       # (the seats of a game, the same all through it)


def state_read(src: str, consts: dict) -> frozenset | None:
    """The state variables the generated code ``src`` reads itself (``consts``: its
    constants, which name them): a set of names, or None for the whole state (it reads
    the state some other way)."""
    names = set()
    for const, attr in _STATE.findall(src):
        if attr:
            if attr not in _FIXED:
                return None
            continue
        name = consts.get(const)
        if not isinstance(name, str):
            return None
        names.add(name)
    return frozenset(names)


def _clearing_all(clears: tuple):
    """A function calling each of ``clears`` (the parts' ``clear``): one of them itself; two
    or three called in turn, written out (56 ns for two, where a loop takes 87 and ``map``
    run through 190)."""
    if len(clears) == 1:
        return clears[0]
    if len(clears) == 2:
        first, second = clears

        def clear():
            first()
            second()
    elif len(clears) == 3:
        first, second, third = clears

        def clear():
            first()
            second()
            third()
    else:
        def clear():
            for each in clears:
                each()
    return clear


def _nothing() -> None:
    """What a statement that changes nothing any memo holds clears."""


class StateMemo:
    """The memo of the definitions that read the state, in parts: one for each set of
    statements that clear it (``part``: given the state variables a definition reads, None
    for the whole state read some other way; two sets of variables that the same statements
    change share one part). A statement of the procedures that may change some variables
    clears only the parts that read one of them (``clearing``); ``clear`` clears all (a
    statement that may change anything, another state put in its place). ``writes``: what
    each statement of the procedures may change, known when the parts are made (a list the
    caller fills as it makes the procedures' code, before the definitions' memos)."""

    def __init__(self, writes: list | None = None):
        self._writes = writes if writes is not None else []
        self._parts: dict = {}          # which statements clear it -> the part
        self._reads: dict = {}          # ... -> the sets of variables its definitions read
        self._all: tuple = ()           # every part

    def part(self, reads: frozenset | None) -> dict:
        """The memo of the definitions that read ``reads`` (made at the first asking)."""
        cleared = ("all",) if reads is None else frozenset(i for i, w in enumerate(self._writes) if reads & w)
        self._reads.setdefault(cleared, []).append(reads)
        memo = self._parts.setdefault(cleared, {})
        self._all = tuple(self._parts.values())
        return memo

    def clear(self) -> None:
        # (asked at every evaluation from outside, mostly of parts already empty: a
        # verification clears them a million times; looking is cheaper than clearing)
        if any(self._all):
            for memo in self._all:
                memo.clear()

    def clearing(self, writes: frozenset | None):
        """The function a statement that may change ``writes`` (None: anything) calls: it
        clears every part that reads one of them, or the whole state. (Made once all the
        parts are: a part made after it would not be cleared.)"""
        if writes is None:
            return self.clear
        hit = [memo for cleared, memo in self._parts.items()
               if any(reads is None or reads & writes for reads in self._reads[cleared])]
        if not hit:
            return _nothing
        return _clearing_all(tuple(memo.clear for memo in hit))


def _unless_forced(fn, memo: dict, name: str, ns: dict):
    """A definition that reads a scoring's forced choices (``_FORCE``, set only while an
    expression is evaluated to replay given choices), remembered in the state's memo while
    none is forced: its value is then the state's and its arguments', as any definition
    that reads the state (each seat's total, asked again for every seat by a definition
    that compares them all). No trial: such a definition scores, which costs more than a
    look-up."""
    lean = _lean(fn, memo, name, fn.__code__.co_argcount)

    def unless_forced(*args):
        return fn(*args) if ns["_FORCE"] is not None else lean(*args)
    return unless_forced


_CALLED = re.compile(r"\b([fs]_[A-Za-z0-9_]+)\(")
_NAMED = re.compile(r"\b([fs]_[A-Za-z0-9_]+)\b")
_SCORING = re.compile(r"\b(s_[A-Za-z0-9_]+)\(")
_RUNTIME = re.compile(r"\b_rt\.[a-z_]+\(")        # a runtime operation (it may go over a collection)


_MISSING = object()
MISSING = _MISSING      # (what ``known_subsets`` gives for a value not remembered)
MOST_REMEMBERED = 50_000        # values a definition that reads no state keeps (then forgets all)
TRIAL_CALLS = 2_000             # calls after which a memo that does not pay is dropped
# calls after which a memo that has had no hit at all is dropped: a definition no call repeats
# no longer pays a trial's look-ups for two thousand calls, several games at the start of a
# process (3% to 7% of their instructions in a shipped game; docs/performance.md)
NO_HIT_CALLS = 500
# a memo is kept when its hits times what a miss costs exceed its look-ups (a call each) by
# this much (measured on the shipped games: 1.5% fewer instructions with 1.0 than with 1.2
# and a miss's keeping counted as a look-up; docs/performance.md)
MARGIN = 1.0
TIMED_HITS = 4      # one hit in so many times the memo's own look-up (``_trial``)


def _least_ns(run, rounds: int = 5) -> float:
    """The least time ``run()`` takes over a few rounds, in nanoseconds (the least is the
    one the machine's other work swayed least)."""
    best = None
    for _ in range(rounds):
        start = perf_counter_ns()
        run()
        took = perf_counter_ns() - start
        best = took if best is None else min(best, took)
    return best


def _clock_cost() -> int:
    """Nanoseconds a reading of the clock takes (a miss timed between two readings holds
    one: taken off each)."""
    def read():
        for _ in range(100):
            perf_counter_ns()
    return int(_least_ns(read) // 100)


_CLOCK_COST = _clock_cost()


def _typical(spent: list[int]) -> float:
    """What a miss costs, on average over the misses ``spent`` timed (nanoseconds each):
    those that took more than twenty times the median are left out (the process was made
    to wait in them: the clock is the wall's, read in a few tens of nanoseconds)."""
    ordered = sorted(spent)
    cap = 20 * ordered[len(ordered) // 2]
    kept = [t for t in ordered if t <= cap]
    return max(0, sum(kept) / len(kept) - _CLOCK_COST)


def remembered(fn, memo: dict, name: str | None, ns: dict, gname: str, classes: dict | None = None,
               held: tuple = ()):
    """``fn`` (a generated definition, ``ns[gname]``), remembering its values in ``memo``:
    keyed by its arguments alone (``name`` None: a definition that reads no state, its
    own memo, kept to ``MOST_REMEMBERED`` values), or by ``name`` and its arguments (a memo
    shared by the definitions that read the state, which the caller clears whenever the
    state may change). Arguments that cannot be hashed are evaluated each time.
    ``classes``: parameter index -> (how: "one" value, a collection "in order" or in "any
    order"; the class of each value) or ("fields", the getter of a record's fields): those
    arguments are keyed by their values' classes (a collection by its values' classes, in
    order or sorted) or their fields, the others as they are.

    Over its first ``TRIAL_CALLS`` calls it counts what the memo saves (its hits times
    what a miss takes, timed on each) against what it costs (the memo's own look-up, timed
    on some hits, each call, and about another each miss to keep the value), by a
    ``MARGIN`` (``_trial``); then it puts in ``ns[gname]`` the memo without the counting,
    or ``fn`` itself when the memo does not pay. Either way the values are the same: only
    the time differs. (The clock is the wall's: a few tens of nanoseconds to read, where
    the thread's own time is a system call of about a microsecond, as long as the
    definitions it would time; the misses the process was made to wait in are left out.)"""
    arity = fn.__code__.co_argcount
    keyed = _KEYS[(name is None, arity if arity in (1, 2) else None)]
    lean = _lean(fn, memo, name, arity)
    if classes:
        keyed = _by_classes(classes, arity, name)
        lean = _lean_by_classes(fn, memo, keyed, classes, arity, name)
    if held:
        return _remembered_by_identity(fn, memo, name, ns, gname, classes or {}, held)

    def look(args):
        key = keyed(name, args)
        return key, memo.get(key, _MISSING)

    def keep(key, args, value):
        if name is None and len(memo) >= MOST_REMEMBERED:
            memo.clear()
        memo[key] = value
    return _trial(fn, lean, look, keep, ns, gname)


def _trial(fn, lean, look, keep, ns: dict, gname: str):
    """The memo ``remembered`` starts with, over its first ``TRIAL_CALLS`` calls (or
    ``NO_HIT_CALLS`` calls without a hit): ``look(args)``
    gives a call's key and the value remembered for it, or ``MISSING``; ``keep(key, args,
    value)`` remembers a value worked out; then it puts ``lean`` or ``fn`` in ``ns[gname]``:
    ``lean`` when its hits times what a miss costs (each miss timed: ``_typical``) exceed
    by a ``MARGIN`` what ``lean`` costs (a look-up each call: its own, timed on some of the
    hits, in the process and the moment it runs in; what keeping a value on a miss costs
    is left out: counted as another look-up, the games took 1.5% more instructions)."""
    hits = misses = timed = 0
    spent: list[int] = []
    looking = 0

    def trial(*args):
        nonlocal hits, misses, timed, looking
        try:
            key, value = look(args)
        except (TypeError, KeyError, AttributeError):     # (not hashable; a value no class was
            #                                                  made for; none for a record)
            return fn(*args)
        if value is not _MISSING:
            hits += 1
            if not hits % TIMED_HITS:
                start = perf_counter_ns()
                lean(*args)             # (a hit: it gives the value again, changes nothing)
                looking += perf_counter_ns() - start
                timed += 1
            return value
        start = perf_counter_ns()
        value = fn(*args)
        spent.append(perf_counter_ns() - start)
        misses += 1
        keep(key, args, value)
        if (hits + misses >= TRIAL_CALLS or not hits and misses >= NO_HIT_CALLS) and ns.get(gname) is trial:
            look_up = max(0, looking / timed - _CLOCK_COST) if timed else 0
            pays = hits * _typical(spent) > MARGIN * (hits + misses) * look_up
            ns[gname] = lean if pays else fn
        return value
    return trial


def _remembered_by_identity(fn, memo: dict, name: str, ns: dict, gname: str, classes: dict, held: tuple):
    """``remembered`` for a definition that reads the state where the arguments at
    ``held`` are keyed by which value they are, not by what they hold (collections of
    records, such as the collection a record is judged among: hashing one walks every
    field of every record, several times an evaluation that hands the same one down). Each entry keeps those
    values beside the value remembered: a value is given only for the very same ones (so
    an identity the process gives again to another value never meets an entry of the
    one before), and they live as long as it does (the state's memo is cleared often)."""
    arity = fn.__code__.co_argcount
    how = _hows({i: c for i, c in classes.items() if i not in held}, arity)

    def given(entry, args) -> bool:
        return entry is not None and all(x is args[i] for x, i in zip(entry[1], held))

    if arity == 2 and held == (1,):         # (a call fewer for the commonest: a value and a collection)
        first = how[0]

        def keyed(args):    # (the same key, made as the memo below makes it)
            a, b = args
            return (name, a if first is None else first(a), id(b))

        def lean(a, b):
            try:
                key = (name, a if first is None else first(a), id(b))
                entry = memo.get(key)
            except (TypeError, KeyError, AttributeError):
                return fn(a, b)
            if entry is not None and entry[1][0] is b:
                return entry[0]
            value = fn(a, b)
            memo[key] = (value, (b,))
            return value
    else:
        def keyed(args):
            return (name, *(id(a) if i in held else a if how[i] is None else how[i](a) for i, a in enumerate(args)))

        def lean(*args):
            try:
                key = keyed(args)
                entry = memo.get(key)
            except (TypeError, KeyError, AttributeError):
                return fn(*args)
            if given(entry, args):
                return entry[0]
            value = fn(*args)
            memo[key] = (value, tuple(args[i] for i in held))
            return value
    def look(args):
        key = keyed(args)
        entry = memo.get(key)
        return key, entry[0] if given(entry, args) else _MISSING

    def keep(key, args, value):
        memo[key] = (value, tuple(args[i] for i in held))
    return _trial(fn, lean, look, keep, ns, gname)


# The key of a call, by (reads no state, number of arguments): one shape per definition, the
# same in its trial and after (in the memo the state-reading ones share, the name comes first)
_KEYS = {(True, 1): lambda name, args: args[0], (True, 2): lambda name, args: args,
         (True, None): lambda name, args: args,
         (False, 1): lambda name, args: (name, args[0]), (False, 2): lambda name, args: (name, *args),
         (False, None): lambda name, args: (name, args)}


def _by_classes(classes: dict, arity: int, name: str | None = None):
    """The key of a call whose arguments ``classes`` names are keyed by their classes (one
    value by its class, a record by its fields; a collection by its values' classes, in
    order or sorted); led by ``name`` in the memo shared by the definitions that read the
    state."""
    how = _hows(classes, arity)
    if name is None:
        if arity == 1:
            first = how[0]
            return lambda _, args: first(args[0])
        if arity == 2 and how[1] is None:
            first = how[0]
            return lambda _, args: (first(args[0]), args[1])
    elif arity == 1:
        first = how[0]
        return lambda _, args: (name, first(args[0]))
    elif arity == 2 and how[1] is None:
        first = how[0]
        return lambda _, args: (name, first(args[0]), args[1])

    def key(_, args):
        return tuple(a if f is None else f(a) for f, a in zip(how, args)) if name is None else \
            (name, *(a if f is None else f(a) for f, a in zip(how, args)))
    return key


def _hows(classes: dict, arity: int) -> list:
    """For each argument, how ``_by_classes`` keys it (None: as it is)."""
    def one(keyed):
        how, by = keyed
        if how in ("one", "fields"):
            return _getter(keyed)
        if how == "in order":
            return lambda a: tuple(map(by.__getitem__, a))
        return _any_order(by)
    return [one(classes[i]) if i in classes else None for i in range(arity)]


MOST_ANY_ORDER = 16     # values under which a collection's any-order key is the sum of their weights
MOST_WEIGHED = 32      # classes past which a collection in any order is keyed by its sorted classes


def _any_order(classes: dict):
    """The key of a collection taken in any order, by its values' classes (``classes``:
    value -> class number): which classes it holds, how many times each. Under
    ``MOST_WEIGHED`` classes and ``MOST_ANY_ORDER`` values, the sum of one weight per value, ``1 << 4 * class``
    (each class's count is then a 4-bit digit of the sum: one key per multiset, made in C,
    without sorting); otherwise the sorted tuple of the classes. The two never meet: an int
    is never equal to a tuple."""
    table, by_sorting, most = _weights(classes)
    weight = table.__getitem__

    def by_weight(a):
        return sum(map(weight, a)) if len(a) < most else by_sorting(a)
    return by_weight


def _weights(classes: dict):
    """(each value's weight, a table; the key by sorting; the sizes under which the
    weights are the key) of ``_any_order``: with more than ``MOST_WEIGHED`` classes, no
    size (the key is always the sorted one, and the table is of no use)."""
    get = classes.__getitem__

    def by_sorting(a):
        return tuple(sorted(map(get, a)))
    if len(set(classes.values())) > MOST_WEIGHED:
        return classes, by_sorting, 0
    return {v: 1 << 4 * c for v, c in classes.items()}, by_sorting, MOST_ANY_ORDER


def _getter(keyed: tuple):
    """How a value is keyed: by its class (looked up), or a record by its fields (read)."""
    how, by = keyed
    return by if how == "fields" else by.__getitem__


def _keep(memo: dict, key, value):
    """``value`` kept in the memo of a definition that reads no state (which forgets all it
    holds once it holds ``MOST_REMEMBERED`` values)."""
    if len(memo) >= MOST_REMEMBERED:
        memo.clear()
    memo[key] = value
    return value


def _lean_by_classes(fn, memo: dict, keyed, classes: dict, arity: int, name: str | None = None):
    """The memo of ``remembered`` keyed by classes, without its trial's counting (``name``:
    in the memo the state-reading definitions share, which the procedures clear)."""
    if name is None and arity == 1 and classes.get(0, ("",))[0] == "any order":
        table, by_sorting, most = _weights(classes[0][1])
        weight = table.__getitem__

        def lean(a):
            try:        # (``_any_order``'s key, written in: a call fewer on the hottest look-up)
                key = sum(map(weight, a)) if len(a) < most else by_sorting(a)
            except (TypeError, KeyError):
                return fn(a)
            value = memo.get(key, _MISSING)
            return _keep(memo, key, fn(a)) if value is _MISSING else value
        if most:        # (read in bulk by an enumeration of subsets: known_subsets)
            lean.weights, lean.memo = table, memo
        return lean
    keep = _keep if name is None else _kept
    how = _hows(classes, arity)
    if arity == 1 or (arity == 2 and how[1] is None):      # (the key made here: no call for it)
        first = how[0]
        if arity == 1:
            def lean(a):
                try:
                    key = first(a) if name is None else (name, first(a))
                    value = memo.get(key, _MISSING)
                except (TypeError, KeyError, AttributeError):
                    return fn(a)
                return keep(memo, key, fn(a)) if value is _MISSING else value
            return lean

        def lean(a, b):
            try:
                key = (first(a), b) if name is None else (name, first(a), b)
                value = memo.get(key, _MISSING)
            except (TypeError, KeyError, AttributeError):
                return fn(a, b)
            return keep(memo, key, fn(a, b)) if value is _MISSING else value
        return lean

    def lean(*args):
        try:
            key = keyed(None, args)
            value = memo.get(key, _MISSING)
        except (TypeError, KeyError, AttributeError):
            return fn(*args)
        return keep(memo, key, fn(*args)) if value is _MISSING else value
    return lean


def known_subsets(fn, items, most, span):
    """The loop ``for x in subsets(items, most) if fn(x)`` of the generated code, ``fn`` a
    definition of one collection: each sub-collection (``rt.subsets_of``, its steps counted
    as the loop counts them) with the value ``fn`` remembers for it, or ``MISSING`` (the
    loop then calls ``fn``); those ``fn`` is remembered false for are passed over. Where
    ``fn`` is a memo keyed in any order by the sum of its values' weights (and the
    sub-collections are short enough for that key), the sub-collections and their sums are
    made in C as the loop reaches them (``rt.subsets_along``) and looked up as it goes, so
    a loop that stops early makes and looks up no more; otherwise nothing is known and
    every one is called."""
    items = rt.as_tuple(items)
    weights = getattr(fn, "weights", None)
    short = most is not None and most < MOST_ANY_ORDER or len(items) < MOST_ANY_ORDER
    along = rt.subsets_along(items, most, weights) if weights is not None and short else None
    if along is None:
        subs = rt.steps(rt.subsets_of(items) if most is None else rt.subsets_of(items, most), span)
        return zip(subs, repeat(_MISSING))
    count, subs, sums = along
    rt.charge(count + 1, span)          # (as rt.steps counts a loop)
    # (passed over in C, not tested and skipped by the loop; ``MISSING`` is true: the
    # unknown ones reach it)
    return filter(_SECOND, zip(subs, map(fn.memo.get, sums, repeat(_MISSING))))


_SECOND = itemgetter(1)


def _kept(memo: dict, key, value):
    """``value`` kept in the memo of the definitions that read the state (cleared by the procedures)."""
    memo[key] = value
    return value


def _lean(fn, memo: dict, name: str | None, arity: int):
    """The memo of ``remembered`` without its trial's counting; for one or two arguments,
    without packing them. Keys as ``_KEYS`` makes them."""
    if name is None and arity == 1:
        def lean(a):
            try:
                value = memo.get(a, _MISSING)
            except TypeError:
                return fn(a)
            return _keep(memo, a, fn(a)) if value is _MISSING else value
        return lean
    if name is not None and arity == 1:
        def lean(a):
            key = (name, a)
            try:
                value = memo.get(key, _MISSING)
            except TypeError:
                return fn(a)
            if value is _MISSING:
                value = memo[key] = fn(a)
            return value
        return lean
    if name is not None and arity == 2:
        def lean(a, b):
            key = (name, a, b)
            try:
                value = memo.get(key, _MISSING)
            except TypeError:
                return fn(a, b)
            if value is _MISSING:
                value = memo[key] = fn(a, b)
            return value
        return lean

    def lean(*args):
        key = args if name is None else (name, args)
        try:
            value = memo.get(key, _MISSING)
        except TypeError:
            return fn(*args)
        if value is _MISSING:
            value = fn(*args)
            if name is None and len(memo) >= MOST_REMEMBERED:
                memo.clear()
            memo[key] = value
        return value
    return lean
