"""Fewer collections of the cycle collector while the rules run.

In:  nothing (a context manager around a stretch of play).
Out: the collector's first threshold raised for the stretch, put back after.

A game makes and drops a great many small immutable values (tuples, records) and almost no
cycles; with Python's default threshold (a collection every 700 allocations net) the
collector walked the young values about forty times in one of the larger shipped games, a
sixth to a fifth of the game's time (``benchmarks/play.py``). Raised to ``FEW`` the same games make a
few collections each. What is collected is the same, only later: a cycle left by a game is
still freed. The threshold is the process's own: the first stretch to enter raises it and
the last to leave puts it back (stretches of several threads or nested ones share it).
"""
from __future__ import annotations

import gc
import os
import threading

FEW = 100_000          # allocations (net) between two collections of the youngest values
_LOCK = threading.Lock()
_inside = 0
_before: tuple | None = None


def _lock_anew() -> None:
    """A forked child's own lock (another thread of the parent may have held it: a worker
    process of a study enters a stretch for its whole life as it starts)."""
    global _LOCK
    _LOCK = threading.Lock()


os.register_at_fork(after_in_child=_lock_anew)


class few_collections:
    """``with few_collections():`` the collector rarely runs within: see the module's
    docstring. (A class, not a generator: a game driven from outside enters one at each
    choice, and so does each copy a search makes.)"""

    __slots__ = ()

    def __enter__(self):
        global _inside, _before
        with _LOCK:
            if _inside == 0:
                _before = gc.get_threshold()
                if _before[0] < FEW:
                    gc.set_threshold(FEW, *_before[1:])
            _inside += 1
        return self

    def __exit__(self, kind, exc, tb):
        global _inside, _before
        with _LOCK:
            _inside -= 1
            if _inside == 0 and _before is not None:
                gc.set_threshold(*_before)
                _before = None
        return False
