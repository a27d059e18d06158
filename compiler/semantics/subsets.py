"""Sub-collections: every distinct sub-collection of a collection, in one order, and what
a memo reads along them; and whether values are plain texts (an enum's values), which
orders them without writing a ``repr``.

In:  a collection's values (a tuple: ``runtime.subsets_of`` makes one of a pile or a
     grid's cards), at most how many values a sub-collection holds.
Out: the sub-collections (``subsets_of``, kept for the collections of the moment), the
     same made as a loop reaches them with the sums of their values' weights
     (``subsets_along``). ``compiler/semantics/runtime.py`` re-exports them for the
     generated code (``_rt.subsets_of``, of any collection).
"""
from __future__ import annotations

import collections
import itertools
import math
import re

from rulewright.compiler.diagnostics import RuntimeRulesError


MOST_SUBSETS = 2_000_000    # sub-collections one enumeration lists at most (beyond: an error says so)


def _count_at_most(n: int, most: int) -> int:
    return sum(math.comb(n, k) for k in range(min(n, most) + 1))


def subsets_of(items, most: int | None = None) -> tuple:
    """Every distinct sub-collection (with multiplicity), each in sorted order,
    shortest first; with ``most``, those of at most that many elements (the same
    ones in the same order as the whole list keeps). The last ones enumerated are
    remembered (``HELD_SUBSETS`` sub-collections at most, all forgotten at once past
    that): a hand is enumerated again and again."""
    global _held
    items = tuple(items)
    key = (items, most)
    try:
        hit = _SUBSETS.get(key)
    except TypeError:           # (values that cannot be hashed: enumerated each time)
        return _subsets(items, most)
    if hit is None:
        hit = _subsets(items, most)
        if _held + len(hit) > HELD_SUBSETS:
            _SUBSETS.clear()
            _held = 0
        if len(hit) <= HELD_SUBSETS:
            _SUBSETS[key] = hit
            _held += len(hit)
    return hit


# (the collection, most) -> its subsets; how many sub-collections they hold together. Kept small:
# a game enumerates again the collections of this turn (850 sub-collections for ten values, at most
# six each); 2,000 collections kept (up to 1.7 million sub-collections) slowed every game played after
# them by a fifth to a quarter (benchmarks/play.py: after another player count), 20,000 by a tenth
_SUBSETS: dict = {}
_held = 0
HELD_SUBSETS = 5_000


def _subsets(items, most: int | None = None, typed: bool = True) -> tuple:
    items = tuple(items)
    plain = typed and plain_texts(items)
    values = sorted(items) if plain else sorted(items, key=repr)
    most = len(values) if most is None else max(0, int(most))
    if _count_at_most(len(values), most) > MOST_SUBSETS:
        raise RuntimeRulesError(
            f"subsets() of {len(values)} elements" + (f" (at most {most} each)" if most < len(values) else "")
            + f" lists up to {_count_at_most(len(values), most):,} sub-collections, more than the "
            f"{MOST_SUBSETS:,} one enumeration may: bound their size (subsets(C, n)) or enumerate fewer")
    if plain:
        out = []
        distinct = len(set(values)) == len(values)
        for k in range(min(most, len(values)) + 1):   # each size in the tuples' own order
            out.extend(_sized(values, k, distinct))
        return tuple(out)
    out = set()
    for k in range(min(most, len(values)) + 1):
        out.update(itertools.combinations(values, k))     # each in sorted order already
    return tuple(sorted(out, key=lambda s: (len(s), repr(s))))


def subsets_along(items, most: int | None, weights: dict):
    """(how many there are, the sub-collections one by one, the sum of each one's values'
    ``weights``) of ``subsets_of(items, most)``, in its order, made only as a loop reaches
    them (the sub-collections kept for the collection, where they are; the sums in C, from
    the weights' own combinations): what a memo keyed by such sums reads along an
    enumeration (``memo.known_subsets``). None where ``subsets_of`` is to be asked: values
    that are not plain texts or have no weight, or more sub-collections than one
    enumeration may list (it says so)."""
    items = tuple(items)
    if not plain_texts(items):
        return None
    values = sorted(items)
    top = min(len(values), len(values) if most is None else max(0, int(most)))
    if _count_at_most(len(values), top) > MOST_SUBSETS:
        return None
    try:
        ws = [weights[v] for v in values]
    except KeyError:
        return None
    distinct = len(set(values)) == len(values)
    hit = _SUBSETS.get((items, most))
    if hit is not None:
        count, subs = len(hit), iter(hit)
    else:
        count = _count_at_most(len(values), top)
        if not distinct:        # (the distinct ones: how many ways to take up to top of these counts)
            ways = [1] + [0] * top
            for n in collections.Counter(values).values():
                ways = [sum(ways[d - j] for j in range(min(n, d) + 1)) for d in range(top + 1)]
            count = sum(ways)
        subs = itertools.chain.from_iterable(_sized(values, k, distinct) for k in range(top + 1))

    def sums(k):                # (a repeat dropped as _sized drops it)
        made = map(sum, itertools.combinations(ws, k))
        return made if distinct else dict(zip(itertools.combinations(values, k), made)).values()
    return count, subs, itertools.chain.from_iterable(map(sums, range(top + 1)))


def _sized(values: list, k: int, distinct: bool):
    """The sub-collections of ``k`` of sorted ``values`` in order, each once: of distinct
    values, combinations come distinct and in order already; of values with repeats, each
    first comes in order too (the first index tuple of a smaller tuple of values is the
    smaller), so keeping first ones sorts them."""
    combos = itertools.combinations(values, k)
    return combos if distinct else dict.fromkeys(combos)


_PLAIN = re.compile(r"[0-9A-Za-z_]*")


def plain_texts(values) -> bool:
    """Whether every value is a text of letters, digits and ``_`` only (an enum's values):
    ``repr`` writes each as itself between quotes, which sort before any of those
    characters, so ordering such values (or tuples of them) by ``repr`` is ordering them
    by their own order, without writing any ``repr``."""
    seen = _PLAIN_SEEN
    for v in values:
        if type(v) is not str:
            return False
        if v not in seen:
            if _PLAIN.fullmatch(v) is None:
                return False
            if len(seen) < 100_000:
                seen.add(v)
    return True


_PLAIN_SEEN: set = set()
