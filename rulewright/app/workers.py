"""Many games at once: every core of this machine, each game in a process of its own.

In:  a function of one task (run in a worker, where ``context()`` holds what was given as
     ``setup``: the programs, the mode...), the tasks, how many processes play.
Out: ``results``: each task's result in the order of the tasks, as they come (a generator:
     a face shows progress after each one, and what came before a Ctrl-C is kept).

The worker processes are forked, so they hold the setup already: nothing is loaded or sent
again. A worker ignores Ctrl-C (the terminal sends it to every process of the command):
the command stops them itself and keeps what they finished.
"""
from __future__ import annotations

import multiprocessing
import os
import signal
from typing import Any, Callable, Iterable, Iterator

_CONTEXT: dict[str, Any] = {}


def context() -> dict[str, Any]:
    """What the games of the running job are played with (set by ``results``)."""
    return _CONTEXT


def cores() -> int:
    """The processes a job plays on by default: every core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def _quiet() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def results(play: Callable[[Any], Any], tasks: Iterable, workers: int, setup: dict[str, Any],
            chunk: int = 1) -> Iterator[Any]:
    """``play(task)`` of every task, in order, ``workers`` processes at once (1: here);
    ``chunk`` tasks are sent to a worker at a time."""
    _CONTEXT.clear()
    _CONTEXT.update(setup)
    try:
        if workers <= 1:
            for task in tasks:
                yield play(task)
        else:
            with multiprocessing.get_context("fork").Pool(workers, initializer=_quiet) as pool:
                yield from pool.imap(play, tasks, chunksize=max(1, chunk))
    finally:
        _CONTEXT.clear()


__all__ = ["context", "cores", "results"]
