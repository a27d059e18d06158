"""Ranking and allocating: the groups of equal keys, largest first, and a supply served
to claimants by key.

In:  (key, element) pairs; (key, claimant, need) claims and a supply.
Out: the groups (``ranked``), the elements by key (``sorted_by``), what each claimant is
     served (``allocate``). ``compiler/semantics/runtime.py`` re-exports them for the
     generated code (``_rt.allocate``); the baseline's ``allocate``
     (``compiler/interpret/baseline.py``) shares ``served``.
"""
from __future__ import annotations

import itertools
import operator

_FIRST, _SECOND = operator.itemgetter(0), operator.itemgetter(1)           # (the keys and the elements)


def ranked(pairs) -> tuple:
    """(key, element) pairs -> groups of elements with equal keys, the largest key first."""
    return tuple(tuple(map(_SECOND, group)) for _, group in _runs(pairs))


def _runs(items):
    """(key, ...) tuples by key, largest first, equal keys as given, in runs of keys equal to the run's first."""
    return itertools.groupby(sorted(items, key=_FIRST, reverse=True), _FIRST)


def sorted_by(pairs) -> tuple:
    return tuple(map(_SECOND, sorted(pairs, key=_FIRST, reverse=True)))


def allocate(supply: int, claims, stop: bool, even: bool = False) -> dict:
    """Serve ``supply`` to (key, claimant, need) claims, the largest key first. A group of
    equal keys is served together when what is left covers all of it; otherwise its
    members share what is left in proportion to their needs (rounded down) and, with
    ``stop``, nobody after them gets anything; without ``stop`` the group gets nothing
    and the next ones are still served. With ``even`` a short group splits what is
    left evenly instead: with ``stop`` each member gets its even share (at most its
    need) and nobody after; without, each member whose even share covers its need is
    served it, the others are skipped, and the next ones are still served. A supply or
    a need below 0 counts as 0 (nothing to serve, nothing needed)."""
    if len(claims) <= 1:            # (most calls: nobody, or one claimant served alone)
        if not claims:
            return {}
        _, who, need = claims[0]
        need, left = max(0, need), max(0, supply)
        return {who: 0 + min(need, left) if need <= left or stop else 0}     # (0 +: a plain int, as served gives)
    return served(max(0, supply), ([(who, need if need > 0 else 0) for _, who, need in claimed]
                                   for _, claimed in _runs(claims)), stop, even)


def served(left: int, groups, stop: bool, even: bool) -> dict:
    """What ``allocate`` serves each claimant of ``groups`` ((claimant, need) lists, in turn) from ``left``."""
    out: dict = {}
    for group in groups:
        total = sum(need for _, need in group)
        if total <= left:
            for who, need in group:
                out[who] = out.get(who, 0) + need
            left -= total
        elif stop:
            for who, need in group:
                share = left // len(group) if even else (left * need // total if total else 0)
                out[who] = out.get(who, 0) + min(need, share)
            left = 0
        elif even:
            share = left // len(group)
            for who, need in group:
                out[who] = out.get(who, 0) + (need if need <= share else 0)
            left -= sum(need for _, need in group if need <= share)
        else:
            for who, _ in group:
                out.setdefault(who, 0)
    return out
