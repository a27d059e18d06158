"""Definitions that remember their values: the memo the interpreter puts on the generated
definitions (``memoize``), and each memo (``remembered``).

In:  the generated namespace, each definition's Python source, the memo of the definitions
     that read the state (which the generated procedures clear).
Out: the namespace's definitions replaced by remembering ones where that pays.
"""
from __future__ import annotations

import re
from time import thread_time_ns


def memoize(ns: dict, sources: dict[str, str], state_memo: dict) -> None:
    """Each definition of ``sources`` (generated name -> its Python source) is replaced in
    ``ns`` by one that remembers its values: a definition that reads no state, directly or
    through those it calls, for as long as the interpreter lives (bounded); one that reads
    the state in ``state_memo``, which the procedures clear whenever the state may change.
    A definition that reads a scoring's forced choices is not remembered, nor one cheaper
    than a memo (no loop, at most one call). Values of the language are immutable
    (``remembered`` says how each memo is keyed)."""
    calls = {name: set(_CALLED.findall(src)) & sources.keys() for name, src in sources.items()}
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
    for name, src in sources.items():
        body = src.split("\n", 1)[1]
        if name in forced or (" for " not in body and len(_CALLED.findall(body)) + len(_RUNTIME.findall(body)) < 2):
            continue        # (a definition without a loop that calls at most one other: cheaper than a memo)
        ns[name] = remembered(ns[name], state_memo if name in reads else {}, name if name in reads else None,
                                 ns, name)


_CALLED = re.compile(r"\b([fs]_[A-Za-z0-9_]+)\(")
_RUNTIME = re.compile(r"\b_rt\.[a-z_]+\(")        # a runtime operation (it may go over a collection)


_MISSING = object()
MOST_REMEMBERED = 50_000        # values a definition that reads no state keeps (then forgets all)
TRIAL_CALLS = 2_000             # calls after which a memo that does not pay is dropped
_MEMO_COST = 400             # nanoseconds a memo's look-up costs a call, about
# misses whose time is taken: the first ones, then one in so many (reading the thread's
# clock is a system call, about a microsecond here: timing every miss of a trial cost
# more than some of the definitions it timed)
TIMED_MISSES = 16


def _clock_cost() -> int:
    """Nanoseconds that reading the thread's clock twice takes (taken off each miss)."""
    start = thread_time_ns()
    for _ in range(200):
        thread_time_ns()
    return (thread_time_ns() - start) // 200


_CLOCK_COST = _clock_cost()


def remembered(fn, memo: dict, name: str | None, ns: dict, gname: str):
    """``fn`` (a generated definition, ``ns[gname]``), remembering its values in ``memo``:
    keyed by its arguments alone (``name`` None: a definition that reads no state, its
    own memo, kept to ``MOST_REMEMBERED`` values), or by ``name`` and its arguments (a memo
    shared by the definitions that read the state, which the caller clears whenever the
    state may change). Arguments that cannot be hashed (a pile) are evaluated each time.

    Over its first ``TRIAL_CALLS`` calls it counts what the memo saves (its hits times
    the processor time a miss takes, on average over the misses it times: the thread's
    own time, so a busy machine does not sway it) against what it costs (a look-up for
    every call); then it puts in ``ns[gname]`` the memo without the counting, or ``fn``
    itself when the memo does not pay. Either way the values are the same: only the time
    differs."""
    arity = fn.__code__.co_argcount
    keyed = _KEYS[(name is None, arity if arity in (1, 2) else None)]
    lean = _lean(fn, memo, name, arity)
    hits = misses = timed = 0
    spent = 0

    def trial(*args):
        nonlocal hits, misses, timed, spent
        key = keyed(name, args)
        try:
            value = memo.get(key, _MISSING)
        except TypeError:
            return fn(*args)
        if value is _MISSING:
            if misses < TIMED_MISSES or not misses % TIMED_MISSES:
                start = thread_time_ns()
                value = fn(*args)
                spent += thread_time_ns() - start - _CLOCK_COST
                timed += 1
            else:
                value = fn(*args)
            misses += 1
            if name is None and len(memo) >= MOST_REMEMBERED:
                memo.clear()
            memo[key] = value
            if hits + misses >= TRIAL_CALLS and ns.get(gname) is trial:
                pays = hits * max(0, spent) / timed > 2 * (hits + misses) * _MEMO_COST
                ns[gname] = lean if pays else fn
        else:
            hits += 1
        return value
    return trial


# The key of a call, by (reads no state, number of arguments): one shape per definition, the
# same in its trial and after (in the memo the state-reading ones share, the name comes first)
_KEYS = {(True, 1): lambda name, args: args[0], (True, 2): lambda name, args: args,
         (True, None): lambda name, args: args,
         (False, 1): lambda name, args: (name, args[0]), (False, 2): lambda name, args: (name, *args),
         (False, None): lambda name, args: (name, args)}


def _lean(fn, memo: dict, name: str | None, arity: int):
    """The memo of ``remembered`` without its trial's counting; for one or two arguments,
    without packing them. Keys as ``_KEYS`` makes them."""
    if name is None and arity == 1:
        def lean(a):
            try:
                value = memo.get(a, _MISSING)
            except TypeError:
                return fn(a)
            if value is _MISSING:
                value = fn(a)
                if len(memo) >= MOST_REMEMBERED:
                    memo.clear()
                memo[a] = value
            return value
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
