"""Many games at once: every core of this machine, each game in a process of its own, or
the cores of a Ray cluster.

In:  a function of one task (run in a worker, where ``context()`` holds what ``make(kit)``
     made: the programs' interpreters, the mode...), the tasks, how many processes play,
     the ``kit`` (plain data and bytes: what a worker on another machine is sent), and for
     a cluster its address (``ray``: "auto", "local" or HOST:PORT).
Out: ``results``: each task's result in the order of the tasks, as they come (a generator:
     a face shows progress after each one, and what came before a Ctrl-C is kept).

On this machine the worker processes are forked after ``make`` ran, so they hold what it
made: nothing is loaded or sent again. A worker ignores Ctrl-C (the terminal sends it to
every process of the command): the command stops them itself and keeps what they
finished. On Ray, the kit is put in the cluster's object store once; each Ray worker
process runs ``make`` once and then plays ``chunk`` tasks a call. The results do not
depend on where a task ran: a task carries its own seed.
"""
from __future__ import annotations

import multiprocessing
import os
import signal
import socket
from typing import Any, Callable, Iterable, Iterator

from rulewright.compiler.interpret.collecting import few_collections

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
    """A worker process's start: Ctrl-C ignored, and the cycle collector rare for its whole
    life (it plays games one after the other: ``Interpreter.batch``)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    few_collections().__enter__()


def results(play: Callable[[Any], Any], tasks: Iterable, workers: int, kit: dict[str, Any],
            make: Callable[[dict], dict], chunk: int = 1, ray: str | None = None) -> Iterator[Any]:
    """``play(task)`` of every task, in order, ``workers`` processes at once (1: here) or
    on the Ray cluster at ``ray``; ``chunk`` tasks are sent to a worker at a time."""
    if ray:
        yield from _on_ray(play, list(tasks), kit, make, max(1, chunk), ray)
        return
    _CONTEXT.clear()
    _CONTEXT.update(make(kit))
    try:
        if workers <= 1:
            # (games one after the other: Interpreter.batch; the collector stays rare until
            # the caller's loop over this generator ends, or the generator is closed)
            with few_collections():
                for task in tasks:
                    yield play(task)
        else:
            with multiprocessing.get_context("fork").Pool(workers, initializer=_quiet) as pool:
                yield from pool.imap(play, tasks, chunksize=max(1, chunk))
    finally:
        _CONTEXT.clear()


# ------------------------------------------------------------------ a Ray cluster
_MADE: dict[str, dict] = {}     # in a Ray worker: what make() made of each kit (by its key)
_OURS: list = []                # the Ray connection this process opened (closed when its run ends)


def _ray_chunk(play, make, kit: dict, chunk: list) -> list:
    """In a Ray worker: ``play`` of each task of ``chunk`` (``make(kit)`` run once a process)."""
    made = _MADE.get(kit["key"])
    if made is None:
        _MADE.clear()
        made = _MADE[kit["key"]] = make(kit)
    _CONTEXT.clear()
    _CONTEXT.update(made)
    with few_collections():
        return [play(task) for task in chunk]


def joined(address: str):
    """The ``ray`` module, joined to the cluster at ``address`` ("auto": the one this
    machine belongs to; "local": one started here for this run, on the loopback only;
    else HOST:PORT), or a bad input saying why not."""
    from rulewright.compiler.diagnostics import NO_SPAN, BadInputError, Diagnostic   # (errors only)
    try:
        import ray      # (a cluster only: Ray is an optional dependency)
    except ImportError:
        raise BadInputError(Diagnostic(NO_SPAN, f"--ray {address}: Ray is not installed",
                                       "pip install 'rulewright[ray]' (docs/studies.md)")) from None
    if ray.is_initialized():
        return ray
    _OURS.append(address)
    settings = dict(logging_level="ERROR", log_to_driver=False, configure_logging=False)
    hint = "start one with 'ray start --head' (docs/studies.md), or use --ray local"
    if address not in ("auto", "local"):
        host, _, port = address.rpartition(":")
        try:        # (Ray itself would try again and again for minutes: ask the address once first)
            socket.create_connection((host.strip("[]") or "127.0.0.1", int(port)), timeout=3).close()
        except (OSError, ValueError) as exc:
            said = "not HOST:PORT" if isinstance(exc, ValueError) else "nothing answers there"
            raise BadInputError(Diagnostic(NO_SPAN, f"--ray {address}: no Ray cluster to join ({said})", hint)) \
                from None
    try:
        if address == "local":
            ray.init(include_dashboard=False, _node_ip_address="127.0.0.1", **settings)
        else:
            ray.init(address=address, **settings)
    except Exception as exc:        # (Ray says why in its own exception types)
        raise BadInputError(Diagnostic(NO_SPAN, f"--ray {address}: no Ray cluster to join there "
                                                f"({str(exc).splitlines()[0] if str(exc) else type(exc).__name__})",
                                       hint)) from None
    return ray


def _on_ray(play, tasks: list, kit: dict, make, chunk: int, address: str) -> Iterator[Any]:
    ray = joined(address)
    remote = ray.remote(_ray_chunk)
    kit_ref = ray.put(kit)
    pending = [remote.remote(play, make, kit_ref, tasks[i:i + chunk]) for i in range(0, len(tasks), chunk)]
    whole = False
    try:
        for ref in pending:
            yield from ray.get(ref)
        whole = True
    finally:
        # (only a study cut short has tasks to stop; cancelling tasks whose answers were
        # read raced with their replies in Ray 2.60, which then aborted this process)
        for ref in pending if not whole else ():
            try:
                ray.cancel(ref, force=True)
            except Exception:       # (a task already finished: nothing to cancel)
                pass
        if _OURS:
            _OURS.clear()
            ray.shutdown()


__all__ = ["context", "cores", "joined", "results"]
