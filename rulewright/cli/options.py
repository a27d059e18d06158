"""The command line's own parts, which load nothing of the compiler's front end: the
parser (one clear message and exit 2 on a usage error), the options given once, the
number types of options, and the texts of the help.

In:  the definitions of the commands' arguments (``rulewright.cli.main.build_parser``).
Out: a parser whose help shows every argument in words with its default, and each
     command's examples; coloured by rich-argparse on a terminal (not with ``NO_COLOR``
     or ``--no-color``), plain text anywhere else.

``rulewright --version`` and ``rulewright --help`` (and a command's ``--help``) need
only this module: the commands, the compiler and the solver load when a command runs,
and rich (through rich-argparse) only when help is printed on a terminal.
"""
from __future__ import annotations

import argparse
import sys
import textwrap

from rulewright.cli import terminal
from rulewright.compiler.diagnostics import BadInputError, whole_number

CHECK_HELP = ("never_holds, always_holds, unused, secrecy, range, choosable, property, differs, invariant, "
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


def _shown_default(kwargs: dict) -> str | None:
    """The default an argument's help shows, when it has one worth showing (not None,
    False, an empty list, or suppressed) and its help does not say it already."""
    default = kwargs.get("default")
    helped = kwargs.get("help") or ""
    if default in (None, False, argparse.SUPPRESS) or default == [] or "default" in helped or \
            helped is argparse.SUPPRESS:
        return None
    if isinstance(default, float) and default.is_integer():
        default = int(default)          # (a time limit of 60 seconds, not 60.0)
    return f"(default: {default})".replace("%", "%%")


class _Parser(argparse.ArgumentParser):
    """The command line's parser: each option with one value given once (``_Once``),
    abbreviations refused, a usage error one message (``UsageError``, exit 2), the
    default of each argument shown in its help, and the help coloured on a terminal
    (``print_help``)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("allow_abbrev", False)   # a query input --card is not --card-table
        kwargs.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)
        super().__init__(*args, **kwargs)

    def add_argument(self, *args, **kwargs):
        if args and str(args[0]).startswith("--") and kwargs.get("action") is None and \
                kwargs.get("nargs") in (None, "?"):
            kwargs["action"] = _Once
        shown = _shown_default(kwargs)
        if shown and kwargs.get("help"):
            kwargs["help"] = f"{kwargs['help']} {shown}"
        return super().add_argument(*args, **kwargs)

    def error(self, message):  # one clear message, exit 2
        raise UsageError(f"{self.prog}: {message} (see {self.prog} --help)")

    def print_help(self, file=None):
        """The help on standard output: through rich-argparse with colour on a terminal
        (``terminal.colour``), plain text anywhere else (a pipe, a file, ``NO_COLOR``,
        ``--no-color``), where rich is not even loaded.

        In:  the stream (standard output when None).
        Out: the help written to it."""
        file = sys.stdout if file is None else file
        if not terminal.colour(file):
            return super().print_help(file)
        try:
            rich = _rich_formatter()
        except ImportError:         # rich-argparse not installed: the plain help
            return super().print_help(file)
        plain, self.formatter_class = self.formatter_class, rich
        try:
            text = self.format_help()
        finally:
            self.formatter_class = plain
        # (our own texts, styled by rich: written beneath the printer, whose escapes would
        # show rich's colour codes as text; no text of a file is in a command's help)
        out = terminal.raw(file)
        out.write(terminal.visible_but_colour(text))
        out.flush()


def _rich_formatter():
    """rich-argparse's formatter as the help on a terminal uses it: the descriptions and
    examples as written (their line breaks kept), no text read as rich markup (a help
    may hold brackets), colour forced (the terminal was asked already: ``print_help``).

    In:  nothing.
    Out: the formatter class (ImportError when rich-argparse is not installed)."""
    import rich_argparse                    # (lazy: it loads rich, for a help on a terminal only)
    from rich.console import Console        # (the same)

    class _Rich(rich_argparse.RawDescriptionRichHelpFormatter):
        help_markup = False
        text_markup = False

        def __init__(self, prog, *args, **kwargs):
            kwargs.setdefault("console", Console(force_terminal=True, markup=False, emoji=False, highlight=False))
            super().__init__(prog, *args, **kwargs)
    return _Rich


def described(text: str, width: int = 79) -> str:
    """A description kept as paragraphs wrapped at ``width`` (the help keeps line breaks,
    so that the examples of the epilog stay one command a line).

    In:  paragraphs separated by blank lines.
    Out: the same, each paragraph wrapped."""
    return "\n\n".join(textwrap.fill(" ".join(part.split()), width) for part in text.split("\n\n"))


def examples(*lines: str) -> str:
    """A command's epilog: its examples, one command line each (run from the repository's
    root folder), as the help prints them.

    In:  command lines, each starting with ``rulewright ``.
    Out: the epilog text."""
    return "Examples:\n" + "\n".join(f"  {line}" for line in lines)


def chatter_options(parser: argparse.ArgumentParser, top: bool = False) -> None:
    """``--quiet`` and ``--no-color``, which every command takes (before or after its
    name). On a command they are ``SUPPRESS``ed when not given, so that the value given
    before the command's name is not overwritten by the command's own default.

    In:  the parser of the program (``top``) or of one command.
    Out: the two options added."""
    default = False if top else argparse.SUPPRESS
    parser.add_argument("-q", "--quiet", action="store_true", default=default,
                        help="no progress and no warnings on the terminal (errors are always shown)")
    parser.add_argument("--no-color", action="store_true", default=default, dest="no_color",
                        help="no colour, even on a terminal (so does the environment variable NO_COLOR)")


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
