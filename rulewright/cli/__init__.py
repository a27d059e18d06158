"""The ``rulewright`` command (one module per group of commands; ``main`` dispatches)."""
import sys

__all__ = ["main"]


def main(argv: list[str] | None = None) -> int:
    """The command line: ``rulewright.cli.main.main``, loaded here so that Ctrl-C while the
    commands load is an interruption like any other (exit 130), not a traceback."""
    try:
        # lazy: the commands load inside the interruption's guard
        from rulewright.cli.main import main as command
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return command(argv)
