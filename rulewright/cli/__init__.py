"""The ``rulewright`` command (one module per group of commands; ``main`` dispatches)."""
from rulewright.cli.main import main

__all__ = ["main"]
