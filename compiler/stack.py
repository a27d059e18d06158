"""Room on the frame stack for a long computation.

In:  a function and its arguments (``roomy(fn, *args, **kw)``).
Out: what the function returns, computed with every frame it calls inside one block of
     CPython's frame stack.

Why: CPython 3.11 keeps the frames of Python calls in blocks of 16 KiB and frees a block
as soon as its last frame returns (CPython gh-142183, mended in later versions). A loop
whose calls keep crossing the edge of a block maps and unmaps one on every call: the same
seeded games took 1.1 s of CPU called from the top of the stack and 4.5 s called from
130 frames deeper (2.1 s from 120), so the speed of a job depended on how deep it was
called from (the test runner's frames, a notebook's, a bot's). ``roomy`` calls the function
from a frame that reserves about half a megabyte: CPython gives that frame a block of
1 MiB of its own, and the frames called from it (up to the recursion limit) fit in the
rest of that block, so none crosses an edge. It is for whole jobs (a command, a test),
never for an inner loop nor for each game: a block of its own for every game of a
simulation made short games slower (a one-player game of a few milliseconds: 294 games a
second without it, 165 with it), while a whole run inside one block plays as fast as
without.
"""
from __future__ import annotations

import types

# slots of the frame stack the calling frame reserves (8 bytes each): 66,000 fills a
# little more than half of a 1 MiB block, so the block given is 1 MiB and the frames of
# the call have the other half
_SLOTS = 66_000


def _call(fn, /, *args, **kw):
    return fn(*args, **kw)


roomy = types.FunctionType(_call.__code__.replace(co_stacksize=_SLOTS), _call.__globals__, "roomy")
roomy.__doc__ = "``fn(*args, **kw)`` called with its frames in a block of the frame stack of their own."

__all__ = ["roomy"]
