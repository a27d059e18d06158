"""The ``rulewright`` command (one module per group of commands; ``main`` dispatches)."""
from .main import main

__all__ = ["main"]
