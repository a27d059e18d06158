"""How each face names what a user gave it (a setting, a table file, a variant): errors of
the jobs are worded through one of these, so the command line says ``--set NAME`` and
the Python API ``settings['NAME']`` for the same mistake.

In:  nothing. Out: ``COMMAND_LINE`` and ``PYTHON``, two ``Spelling`` values.
"""
from __future__ import annotations

from rulewright.compiler.diagnostics import NEUTRAL, Spelling

COMMAND_LINE = Spelling(setting="--set {name}", table="--table", table_entry="--table {name}={file}",
                        option="--{option}", option_entry="--{option} {file}", variant="--variant {path}",
                        how_to_name="use --table NAME=FILE",
                        instead="name the ones to use on the command line (--variant, --set, --table)",
                        query_input="--{flag}", position="--state FILE")

PYTHON = Spelling(setting="settings['{name}']", table="tables", table_entry="tables['{name}'] ({file})",
                  option="{option}=", option_entry="{option}='{file}'", variant="variants: {path}",
                  how_to_name="give tables={'NAME': FILE}",
                  instead="give the ones to use (load(..., variants=, settings=, tables=))",
                  query_input="input '{name}'", position="position=game.position(FILE)")

__all__ = ["COMMAND_LINE", "PYTHON", "NEUTRAL", "Spelling"]
