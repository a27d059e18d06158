"""The ``rulewright`` command's entry point (``rulewright``, ``python -m rulewright``).

In:  the command line.
Out: its exit code: the command line of ``rulewright.cli``, loaded inside the guard of
     Ctrl-C, so that an interruption while the commands load is one word and exit 130,
     like an interruption of the command itself, never a traceback.
"""
from __future__ import annotations

import sys


INTERRUPTED = 130


def main(argv: list[str] | None = None) -> int:
    try:
        # lazy: the command line loads inside the interruption's guard
        from rulewright.cli import main as command
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return _said(INTERRUPTED)
    # (every command's frames in a block of the frame stack of their own: compiler/stack.py)
    from rulewright.compiler.stack import roomy     # lazy: with the command line
    code = roomy(command, argv)
    return _said(code) if code == INTERRUPTED else code


def _said(code: int) -> int:
    """Exit 130, the interruption said. Under ``python -m rulewright`` CPython would
    instead die by SIGINT at exit when the KeyboardInterrupt came inside code run from a
    string (``exec``), even though it was caught: the dataclasses' generated methods are
    such code, and the commands load many. Its flag is cleared by the next string run."""
    exec("")    # noqa: S102 - an empty string: clears CPython's flag of an uncaught Ctrl-C
    return code


__all__ = ["main"]
