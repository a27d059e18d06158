"""``rulewright --completion bash|zsh|fish``: the shell's completion script, written from
the parser itself (the commands, the options of each, the values of the options that
have choices) and the names of the shipped specs (``listing.names``) for SPEC.

In:  the shell's name and the command line's parser.
Out: the script as text. Installed with, for example::

    eval "$(rulewright --completion bash)"                 # in ~/.bashrc
    rulewright --completion zsh > ~/.zfunc/_rulewright      # a folder of $fpath
    rulewright --completion fish > ~/.config/fish/completions/rulewright.fish
"""
from __future__ import annotations

import argparse
import re

from rulewright.cli import listing

# The metavars of values that are paths: the shell offers files there.
_PATHS = re.compile(r"FILE|DIR|FOLDER|PATH|SPEC|BASE|VARIANT|GRID")


def _commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """In: the program's parser. Out: each command's name -> its parser, in order."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _summaries(parser: argparse.ArgumentParser) -> dict[str, str]:
    """In: the program's parser. Out: each command's name -> its one-line help."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return {a.dest: a.help or "" for a in action._choices_actions}
    return {}


def _options(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    """In: a parser. Out: its options that the help shows."""
    return [a for a in parser._actions if a.option_strings and a.help is not argparse.SUPPRESS]


def _takes_value(action: argparse.Action) -> bool:
    return action.nargs != 0


def _is_path(action: argparse.Action) -> bool:
    """Whether the value of ``action`` is a path (a file, a folder, a spec): by its metavar."""
    return bool(action.metavar and _PATHS.search(str(action.metavar)))


def _is_folder(action: argparse.Action) -> bool:
    return str(action.metavar) in ("DIR", "FOLDER")


def _has_spec(parser: argparse.ArgumentParser) -> bool:
    """Whether a command takes paths (specs, grids) as its positional arguments."""
    return any(not a.option_strings and _is_path(a) for a in parser._actions)


def script(shell: str, parser: argparse.ArgumentParser) -> str:
    """The completion script of ``shell`` for ``parser``.

    In:  "bash", "zsh" or "fish"; the parser (``main.build_parser()``).
    Out: the script, ending with a new line."""
    return {"bash": bash, "zsh": zsh, "fish": fish}[shell](parser, listing.names())


def bash(parser: argparse.ArgumentParser, specs: list[str]) -> str:
    """The bash script: ``complete -F _rulewright rulewright``."""
    commands = _commands(parser)
    top = " ".join(o for a in _options(parser) for o in a.option_strings)
    lines = ["# bash completion of rulewright: eval \"$(rulewright --completion bash)\"",
             "_rulewright() {",
             "    local cur prev cmd i opts",
             "    cur=\"${COMP_WORDS[COMP_CWORD]}\"",
             "    prev=\"${COMP_WORDS[COMP_CWORD-1]}\"",
             "    cmd=\"\"",
             "    for ((i = 1; i < COMP_CWORD; i++)); do",
             "        case \"${COMP_WORDS[i]}\" in",
             "            -*) ;;",
             "            *) cmd=\"${COMP_WORDS[i]}\"; break ;;",
             "        esac",
             "    done",
             "    if [[ -z \"$cmd\" ]]; then",
             "        if [[ \"$prev\" == --completion ]]; then",
             "            COMPREPLY=($(compgen -W \"bash zsh fish\" -- \"$cur\")); return",
             "        fi",
             f"        COMPREPLY=($(compgen -W \"{' '.join(commands)} {top}\" -- \"$cur\")); return",
             "    fi",
             f"    local specs=\"{' '.join(specs)}\"",
             "    case \"$cmd\" in"]
    for name, sub in commands.items():
        options = _options(sub)
        lines.append(f"        {name})")
        lines.append(f"            opts=\"{' '.join(o for a in options for o in a.option_strings)}\"")
        lines.append("            case \"$prev\" in")
        for a in options:
            if not _takes_value(a):
                continue
            words = " ".join(str(c) for c in a.choices) if a.choices else None
            what = f"COMPREPLY=($(compgen -W \"{words}\" -- \"$cur\"))" if words else \
                ("COMPREPLY=($(compgen -W \"$specs\" -- \"$cur\") $(compgen -f -- \"$cur\"))"
                 if a.metavar in ("SPEC", "BASE") else
                 "COMPREPLY=($(compgen -d -- \"$cur\"))" if _is_folder(a) else
                 "COMPREPLY=($(compgen -f -- \"$cur\"))" if _is_path(a) else "COMPREPLY=()")
            lines.append(f"                {'|'.join(a.option_strings)}) {what}; return ;;")
        lines.append("            esac")
        positional = "COMPREPLY=($(compgen -W \"$specs\" -- \"$cur\") $(compgen -f -- \"$cur\"))" \
            if _has_spec(sub) else "COMPREPLY=()"
        lines.append(f"            if [[ \"$cur\" == -* ]]; then COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))"
                     f"; else {positional}; fi")
        lines.append("            ;;")
    lines += ["    esac",
              "}",
              "complete -o filenames -F _rulewright rulewright", ""]
    return "\n".join(lines)


def _zsh_text(text: str) -> str:
    """A help text inside a zsh ``_arguments`` spec (in single quotes, in brackets)."""
    text = " ".join(str(text or "").split()).replace("%(default)s", "")
    return text.replace("'", "'\\''").replace("[", "(").replace("]", ")").replace(":", " -")


def zsh(parser: argparse.ArgumentParser, specs: list[str]) -> str:
    """The zsh script: a ``#compdef rulewright`` function of ``_arguments``."""
    commands = _commands(parser)
    summaries = _summaries(parser)
    lines = ["#compdef rulewright",
             "# zsh completion of rulewright: rulewright --completion zsh > a folder of $fpath/_rulewright",
             "_rulewright_specs() {",
             f"    local -a specs; specs=({' '.join(specs)})",
             "    _alternative 'specs:shipped spec:compadd -a specs' 'files:file:_files'",
             "}",
             "_rulewright() {",
             "    local curcontext=\"$curcontext\" state line",
             "    typeset -A opt_args",
             "    _arguments -C \\"]
    for a in _options(parser):
        if a.dest == "completion":
            lines.append("        '--completion[print the completion script]:shell:(bash zsh fish)' \\")
        else:
            for o in a.option_strings:
                lines.append(f"        '{o}[{_zsh_text(a.help)}]' \\")
    lines += ["        '1:command:->command' \\",
              "        '*::arg:->args'",
              "    case $state in",
              "        command)",
              "            local -a commands; commands=("]
    for name in commands:
        lines.append(f"                '{name}:{_zsh_text(summaries.get(name, ''))}'")
    lines += ["            )",
              "            _describe 'command' commands ;;",
              "        args)",
              "            case $line[1] in"]
    for name, sub in commands.items():
        lines.append(f"                {name}) _arguments \\")
        for a in _options(sub):
            value = ""
            if _takes_value(a):
                kind = "_rulewright_specs" if a.metavar in ("SPEC", "BASE") else \
                    f"({' '.join(map(str, a.choices))})" if a.choices else "_files -/" if _is_folder(a) else \
                    "_files" if _is_path(a) else " "
                value = f":{_zsh_text(a.metavar or a.dest)}:{kind}"
            repeat = "*" if isinstance(a, argparse._AppendAction) else ""
            for o in a.option_strings:
                lines.append(f"                    '{repeat}{o}[{_zsh_text(a.help)}]{value}' \\")
        for a in sub._actions:
            if a.option_strings:
                continue
            kind = "_rulewright_specs" if _is_path(a) and a.metavar != "GRID" else "_files" if _is_path(a) else " "
            many = "*" if a.nargs in ("+", "*") else ""
            lines.append(f"                    '{many}:{_zsh_text(a.metavar or a.dest)}:{kind}' \\")
        lines.append("                    ;;")
    lines += ["            esac ;;",
              "    esac",
              "}",
              "compdef _rulewright rulewright", ""]
    return "\n".join(lines)


def _fish_text(text: str) -> str:
    """A help text inside a fish ``-d '...'`` (in single quotes)."""
    return " ".join(str(text or "").split()).replace("%(default)s", "").replace("\\", "\\\\").replace("'", "\\'")


def fish(parser: argparse.ArgumentParser, specs: list[str]) -> str:
    """The fish script: ``complete -c rulewright ...`` lines."""
    commands = _commands(parser)
    summaries = _summaries(parser)
    lines = ["# fish completion of rulewright: rulewright --completion fish > "
             "~/.config/fish/completions/rulewright.fish",
             "complete -c rulewright -f"]
    for a in _options(parser):
        flags = " ".join(f"-l {o[2:]}" if o.startswith("--") else f"-s {o[1:]}" for o in a.option_strings)
        values = f" -xa '{' '.join(map(str, a.choices))}'" if a.choices else ""
        lines.append(f"complete -c rulewright -n '__fish_use_subcommand' {flags}{values} -d '{_fish_text(a.help)}'")
    for name in commands:
        lines.append(f"complete -c rulewright -n '__fish_use_subcommand' -a {name} "
                     f"-d '{_fish_text(summaries.get(name, ''))}'")
    for name, sub in commands.items():
        when = f"-n '__fish_seen_subcommand_from {name}'"
        for a in _options(sub):
            flags = " ".join(f"-l {o[2:]}" if o.startswith("--") else f"-s {o[1:]}" for o in a.option_strings)
            value = ""
            if _takes_value(a):
                value = f" -xa '{' '.join(map(str, a.choices))}'" if a.choices else \
                    f" -ra '{' '.join(specs)}'" if a.metavar in ("SPEC", "BASE") else \
                    " -rF" if _is_path(a) else " -x"
            lines.append(f"complete -c rulewright {when} {flags}{value} -d '{_fish_text(a.help)}'")
        if _has_spec(sub):
            lines.append(f"complete -c rulewright {when} -F -a '{' '.join(specs)}'")
    return "\n".join(lines) + "\n"
