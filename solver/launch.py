"""The ``rulewright`` command. Ctrl-C while its modules are still loading ends it as
quietly as Ctrl-C later does (``interrupted``, exit 130), not with a traceback."""
from __future__ import annotations

import sys


def main() -> int:
    try:
        from rulewright.solver.cli import main as run
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return run()


if __name__ == "__main__":
    sys.exit(main())
