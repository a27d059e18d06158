"""The ``rulewright`` command's entry point (``rulewright``, ``python -m rulewright``).

In:  the command line.
Out: its exit code: the command line of ``rulewright.cli``, loaded inside the guard of
     Ctrl-C, so that an interruption while the commands load is one word and exit 130,
     like an interruption of the command itself, never a traceback.
"""
from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    try:
        # lazy: the command line loads inside the interruption's guard
        from rulewright.cli import main as command
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return command(argv)


__all__ = ["main"]
