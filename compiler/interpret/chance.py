"""Copies of Python's random generators that take their state when first drawn from.

In:  a generator of a game or of a random seat (``random.Random``), copied with the game.
Out: ``copied(rng)``: a generator that draws exactly what ``rng`` would have drawn from the
     moment it was copied, whatever either of them draws afterwards.

Copying a generator's state (2.5 KB: Python makes 625 numbers of it and reads them back)
is about 11 us, as much as the rest of a copy of a small game in progress, and most copies
a search makes never draw from it: a game's generator often deals only at the start, and
the seats a search plays from outside have no generator. So a copy is made owing its state:

* the copy keeps the generator it was copied from (``_source``); at its first draw (or
  when its state is read, set, reseeded or pickled) it takes that generator's state, which
  has not moved since, and becomes a plain ``random.Random``;
* the generator copied from keeps weak references to its copies still owing (``_owed``);
  before its own next draw (or reseeding, or setting or reading its state) it hands its
  state to those still alive and becomes a plain ``random.Random`` again. A copy dropped
  unused costs nothing more.

Both are ``_Lazy`` generators meanwhile, never both at once (a copy owing its state takes
it before it is copied). What goes around the generator's own methods goes around this: a
method bound while it was plain (``f = rng.random`` before the copy) or called through the
class (``random.Random.random(rng)``) draws without handing its state over; the generated
code, the agents and the state call the generators' methods as attributes, at each use.

Between copying and drawing, both only change class (``__class__``, same layout), so a
generator with nothing owed draws at Python's own speed. The state handed over is the C
generator's (``_random.Random.getstate``); ``gauss_next``, the other half of Python's state,
is an attribute copied at once.
"""
from __future__ import annotations

import _random
import random
import threading
import weakref

_C = _random.Random
_LOCK = threading.RLock()       # (a copy settling while its source hands over, in two threads)


def copied(rng: random.Random) -> random.Random:
    """A generator at the same point as ``rng``, independent of it from now on."""
    with _LOCK:
        kind = type(rng)
        if kind is _Lazy and "_source" in rng.__dict__:
            _settle(rng)
            kind = random.Random
        if kind is not random.Random and kind is not _Lazy:
            return _eager(rng)          # (another kind of generator: copied at once, as Python would)
        new = _Lazy.__new__(_Lazy)
        new.gauss_next = rng.gauss_next
        new._source = rng
        owed = rng.__dict__.get("_owed") if kind is _Lazy else None
        if owed is None:                # (a plain generator, or a _Lazy one owing nothing)
            rng.__class__ = _Lazy
            rng._owed = [weakref.ref(new)]
        else:
            n = len(owed)
            if n >= 64 and not n & (n - 1):     # (copied many times without drawing: the dead let go,
                owed[:] = [r for r in owed if _waiting_on(r(), rng)]   # at sizes doubling)
            owed.append(weakref.ref(new))
        return new


def _eager(rng: random.Random) -> random.Random:
    new = random.Random.__new__(random.Random)
    new.setstate(rng.getstate())
    return new


def _before(rng) -> None:
    """What a ``_Lazy`` generator does before it draws or its state is read or set."""
    with _LOCK:
        mine = rng.__dict__
        if "_owed" in mine:
            _hand_over(rng)
        elif "_source" in mine:
            _settle(rng)


def _hand_over(rng) -> None:
    """A generator with copies owing its state, before it moves: its state to those still owing."""
    owed = rng.__dict__.pop("_owed")
    rng.__class__ = random.Random
    state = _C.getstate(rng)
    for ref in owed:
        copy = ref()
        if _waiting_on(copy, rng):
            _take(copy, state)


def _settle(copy) -> None:
    """A copy owing its state, before it draws: the state of its source, which has not moved
    since (it would have handed its state over)."""
    _take(copy, _C.getstate(copy._source))


def _take(copy, state) -> None:
    del copy._source
    copy.__class__ = random.Random
    _C.setstate(copy, state)


def _waiting_on(copy, rng) -> bool:
    return copy is not None and type(copy) is _Lazy and copy.__dict__.get("_source") is rng


class _Lazy(random.Random):
    """A copy owing its state, or a generator whose copies owe it theirs. Its methods call
    functions, not methods of its own: a method bound before the generator became a plain
    one again (``gauss`` binds ``self.random``) still works."""

    def random(self):
        _before(self)
        return _C.random(self)

    def getrandbits(self, k):
        _before(self)
        return _C.getrandbits(self, k)

    def seed(self, *args, **kwargs):
        _before(self)
        return random.Random.seed(self, *args, **kwargs)

    def getstate(self):
        _before(self)
        return random.Random.getstate(self)

    def setstate(self, state):
        _before(self)
        return random.Random.setstate(self, state)

    def __reduce__(self):
        return random.Random, (), self.getstate()
