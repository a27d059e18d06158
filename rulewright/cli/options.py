"""The command line's own parts, which load nothing of the compiler's front end: the
parser (one clear message and exit 2 on a usage error), the options given once, the
number types of options, and the texts of the help.

``rulewright --version`` and ``rulewright --help`` (and a command's ``--help``) need
only this module: the commands, the compiler and the solver load when a command runs.
"""
from __future__ import annotations

import argparse

from rulewright.compiler.diagnostics import BadInputError, whole_number

CHECK_HELP = ("never_holds, always_holds, unused, range, choosable, property, differs, invariant, "
              "playable, terminates, runtime")


class UsageError(BadInputError):
    pass


class _Once(argparse.Action):
    """An option with one value: given twice (or under two names, --cards and
    --card-table), it is refused rather than the last one silently winning."""

    def __call__(self, parser, namespace, values, option_string=None):
        given = namespace.__dict__.setdefault("_given", {})
        # a whole number given to a decimal option is shown as written (--time-limit 1, not 1.0)
        shown = int(values) if isinstance(values, float) and values.is_integer() else values
        if self.dest in given:
            before, first = given[self.dest]
            what = f"{option_string} is given twice" if first == option_string else \
                f"{first} and {option_string} are one option, given twice"
            parser.error(f"{what} ({before}, then {option_string} {shown}): give it once")
        given[self.dest] = (f"{option_string} {shown}", option_string)
        setattr(namespace, self.dest, values)


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("allow_abbrev", False)   # a query input --card is not --card-table
        super().__init__(*args, **kwargs)

    def add_argument(self, *args, **kwargs):
        if args and str(args[0]).startswith("--") and kwargs.get("action") is None and \
                kwargs.get("nargs") in (None, "?"):
            kwargs["action"] = _Once
        return super().add_argument(*args, **kwargs)

    def error(self, message):  # one clear message, exit 2
        raise UsageError(f"{self.prog}: {message} (see {self.prog} --help)")


MOST_WORKERS = 1024      # CP-SAT's model is invalid past 10,000 workers; no machine here has more cores


def _whole(what: str):
    """An argparse type: a whole number written in at most 18 digits (as every number a
    user types: see ``whole_number``)."""
    def parse(text: str):
        value = whole_number(text)
        if value is None:
            raise argparse.ArgumentTypeError(f"'{text[:40]}' is not {what}")
        return value
    return parse


def _positive(kind, what: str, most=None, least=None):
    """An argparse type: a number of ``kind`` above 0 (a time limit, a worker count), or
    at least ``least`` when given, and at most ``most`` when given."""
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not {what}") from None
        if not (value > 0 if least is None else value >= least) or value != value or value == float("inf") or (most is not None and value > most):
            raise argparse.ArgumentTypeError(f"'{text}' is not {what}")
        return value
    return parse
