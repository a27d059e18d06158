"""The ``rulewright`` command line: the parser and the dispatch to the commands.

In:  command-line arguments.
Out: text or JSON on stdout; on a user error one clear message on stderr and
     exit code 1 (bad spec) or 2 (bad input or usage), never a traceback.

Commands: check, diff, graph, dump, docs, examples (``spec``); score, play, simulate,
show (``play``); query (``query``); verify (``verify``); translations (``translate``);
list (``listing``). Every command takes ``--quiet`` and ``--no-color``; ``--completion
SHELL`` prints a completion script (``completion``).
"""
from __future__ import annotations

import argparse
import functools
import importlib
import os
import re
import signal
import sys
import traceback
from pathlib import Path

from rulewright import __version__
from rulewright.compiler.diagnostics import RulesError, RuntimeRulesError

from rulewright.cli.options import (CHECK_HELP, MOST_WORKERS, UsageError, _Parser, _positive, _whole, chatter_options,
                                    described, examples)
from rulewright.cli import terminal
from rulewright.compiler import files

# Each command's module, loaded when the command runs (inside the guard of Ctrl-C): the
# parser, --help and --version load none of them, nor the compiler, Lark, networkx,
# OR-Tools or rich (importing one costs more than all of --help). Each command is
# declared once, in build_parser: its module, its help and its arguments; its module
# holds ``cmd_NAME``.
COMMANDS: dict[str, str] = {}


def command(name: str):
    """The function of the command ``name`` (``cmd_check`` of ``rulewright.cli.spec``...)."""
    if not COMMANDS:
        parser()
    return getattr(importlib.import_module(f"rulewright.cli.{COMMANDS[name]}"), f"cmd_{name}")


@functools.cache
def parser() -> argparse.ArgumentParser:
    """The parser of the whole command line, built once in a process: a process that runs
    many commands (the test suite, a program calling ``main``) builds it once rather than
    once a command (about 10 ms each: every command's arguments, argparse's messages looked
    up in its translations). Parsing reads it and changes nothing in it (no default is a
    collection a command could change; each parse makes its own namespace)."""
    return build_parser()


def build_parser() -> argparse.ArgumentParser:
    """The parser of the whole command line: every command, each argument with its help.

    In:  nothing.
    Out: the parser (``_Parser``: usage errors raise ``UsageError``)."""
    p = _Parser(prog="rulewright", description="Board-game rules as code.",
                epilog=examples("rulewright list", "rulewright play darwins_choice --players 4 --seed 7",
                                "rulewright check spec"))
    p.add_argument("--version", action="version", version=f"rulewright {__version__}",
                   help="print the version of rulewright and exit")
    p.add_argument("--completion", choices=["bash", "zsh", "fish"], action=_Completion,
                   help="print the shell's completion script and exit (e.g. "
                        "eval \"$(rulewright --completion bash)\")")
    chatter_options(p, top=True)
    sub = p.add_subparsers(dest="command", parser_class=_Parser, metavar="COMMAND")
    sub.required = True

    def new_command(name: str, module: str, summary: str, lines: tuple[str, ...], description: str | None = None):
        COMMANDS[name] = module
        sp = sub.add_parser(name, help=summary, description=described(description or summary[0].upper() +
                                                                       summary[1:] + "."),
                            epilog=examples(*lines))
        chatter_options(sp)
        return sp

    def common(sp, cards: bool = True):
        sp.add_argument("--set", action="append", metavar="NAME=VALUE",
                        help="set a switch or param of the spec (repeatable)")
        sp.add_argument("--variant", action="append", metavar="FILE",
                        help="apply a variant file to the spec (repeatable; the spec may also be a variant file)")
        if cards:
            sp.add_argument("--cards", metavar="FILE", dest="cards",
                            help="your own card table (CSV) in place of the spec's; it is checked")
        sp.add_argument("--card-table", metavar="FILE", dest="cards",
                        help="the same as --cards (on every command, query included)")
        sp.add_argument("--table", action="append", metavar="NAME=FILE",
                        help="any table of the spec read from your own CSV file (repeatable)")
        sp.add_argument("--root", action="append", metavar="FOLDER",
                        help="a folder that specs, variants and state files may also read from (repeatable; "
                             "their own folder tree always)")

    def many_games(sp, games: int, most: int, what: str):
        """--players, --games, --seed, --mode: of every command that plays many seeded games."""
        sp.add_argument("--players", type=_whole("a number of players"),
                        help="the number of players (default: the fewest the mode allows)")
        sp.add_argument("--games", type=_positive(int, f"a whole number of games from 1 to {most}", most=most),
                        default=games, help=what)
        sp.add_argument("--seed", type=_whole("a whole number"), default=1, help="the first seed (then seed+1, ...)")
        sp.add_argument("--mode", help="the mode of play of the spec (default: the one for the number of players)")

    def spec(sp, what: str = "the game: a spec folder, a variant or house rule file, or a shipped name "
                             "(rulewright list)"):
        sp.add_argument("spec", metavar="SPEC", help=what)

    def json_option(sp, what: str = "print the result as JSON"):
        sp.add_argument("--json", action="store_true", help=what)

    c = new_command("check", "spec", "compile specs; exit 0 when clean", ("rulewright check spec",
                "rulewright check house_rules/darwin_drought"))
    c.add_argument("paths", nargs="+", metavar="PATH",
                   help="spec folders or .rules files (a folder: its spec, its variants and the specs below it)")
    json_option(c, "print each spec's result (its size, or its errors) and its warnings as JSON")
    common(c)
    df = new_command("diff", "spec", "what a variant changes, adds and removes, and what that can affect",
                 ("rulewright diff darwins_choice house_rules/darwin_no_cannibals",))
    df.add_argument("base", metavar="BASE", help="the base game (a spec folder or a shipped name)")
    df.add_argument("variant_spec", metavar="VARIANT", help="the variant or house rule file compared with it")
    json_option(df)
    common(df)
    g = new_command("graph", "spec", "print the rules graph", ("rulewright graph spec/ecosystem_savanna --format dot",))
    g.add_argument("path", metavar="PATH", help="the spec (a folder, a variant file or a shipped name)")
    g.add_argument("--format", choices=["dot", "json"], default="json",
                   help="JSON (definitions and edges with their spans) or Graphviz dot")
    common(g)
    d = new_command("dump", "spec", "print a compiler stage: the AST or the generated Python",
                ("rulewright dump spec/ecosystem_savanna --stage python",))
    d.add_argument("path", metavar="PATH", help="the spec (a folder, a variant file or a shipped name)")
    d.add_argument("--stage", choices=["ast", "python"], default="ast",
                   help="the syntax tree, or the Python code the interpreter runs")
    common(d)
    dc = new_command("docs", "spec", "write the rules pages of specs as Markdown",
                 ("rulewright docs ecosystem_savanna --out /tmp/rules --lang en --no-verify",))
    dc.add_argument("specs", nargs="+", metavar="SPEC",
                    help="spec folders (or a folder of house rules) whose pages to write")
    dc.add_argument("--out", default="docs/rules", metavar="DIR", help="the folder the pages are written to")
    dc.add_argument("--lang", metavar="LANG,...", help="the languages of the pages (default: en,fr,es,zh)")
    dc.add_argument("--measure", type=_whole("a number of games"), default=0, metavar="N",
                    help="measure each house rule's effect with a balance study: N seeded games of it and of its "
                         "base game, random seats (only the house rules whose rules changed since), kept in the "
                         "effects file (default 0: none)")
    dc.add_argument("--skill-games", type=_whole("a number of games"), default=0, metavar="K",
                    help="with --measure: K more games of each, a greedy seat among random ones, for the skill "
                         "figure (default 0)")
    dc.add_argument("--effects", metavar="FILE",
                    help="the measured effects of the house rules (default: OUT/effects.json)")
    json_option(dc, "print the files written (and the house rules measured) as JSON instead of a line each")
    dc.add_argument("--no-verify", action="store_true",
                    help="do not prove the spec's properties (their status reads 'not verified')")
    common(dc)
    ex = new_command("examples", "spec", "run the worked examples of specs (rulebook numbers as tests)",
                 ("rulewright examples ecosystem_savanna",))
    ex.add_argument("specs", nargs="+", metavar="SPEC", help="the specs whose examples run")
    json_option(ex, "print each example's expectations and results as JSON")
    common(ex)
    tl = new_command("translations", "translate", "bring the translation catalogues of specs up to date",
                 ("rulewright translations spec/ecosystem_savanna --check",))
    tl.add_argument("specs", nargs="+", metavar="SPEC", help="the spec folders whose i18n/ catalogues to update")
    tl.add_argument("--lang", metavar="LANG,...", help="the languages (default: fr,es,zh)")
    tl.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 when a text has no current translation")
    json_option(tl, "print each catalogue's counts and its texts to do as JSON")
    tl.add_argument("--show", type=_whole("a whole number"), default=10, metavar="N",
                    help="list up to N stale and missing texts per language (default 10)")
    common(tl)
    s = new_command("score", "play", "score finished grids as the players of one game, or a position's seats",
                ("rulewright score ecosystem_savanna examples/margot.grid",
                 "rulewright score ecosystem_savanna examples/margot.grid --json"))
    spec(s)
    s.add_argument("grids", nargs="*", metavar="GRID", help="the grid files of the players, one each")
    s.add_argument("--state", metavar="FILE", help="score every player of a position (a state file) instead")
    json_option(s)
    common(s)
    pl = new_command("play", "play", "play a seeded game: seats random, played by the solver or by you",
                 ("rulewright play darwins_choice --players 4 --seed 7",
                  "rulewright play ecosystem_savanna --players 4 --seed 3 --stop-at pick:7 --save-state pick7.json",
                  "rulewright play ecosystem_savanna --players 2 --seat p1=human"),
                 "Play a seeded game with random legal agents, the solver, or you at the terminal.")
    spec(pl)
    pl.add_argument("--players", type=_whole("a number of players"),
                    help="the number of players (default: the fewest the mode allows)")
    pl.add_argument("--seed", type=_whole("a whole number"), default=None,
                    help="the seed of the game (default 0); with --from, of the rest of the game (default: "
                         "a saved game goes on exactly as it would have)")
    pl.add_argument("--mode", help="the mode of play of the spec (default: the one for the number of players)")
    json_option(pl, "print the game's events and report as JSON")
    pl.add_argument("--from", dest="from_state", metavar="FILE",
                    help="go on from the position of a state file: a saved game exactly, a position written "
                         "by hand from its checkpoint (docs/state.md)")
    pl.add_argument("--log", metavar="FILE", help="write every event of the game as JSON lines (--choices "
                                                  "reads it back)")
    pl.add_argument("--choices", metavar="FILE",
                    help="the choices the seats make, in order, as --log writes them; then their agents play")
    pl.add_argument("--save-state", metavar="FILE", help="write the game state as JSON (docs/state.md)")
    pl.add_argument("--stop-at", "--until", dest="stop_at", metavar="CHECKPOINT",
                    help="stop the game at a checkpoint of the spec, NAME or NAME:N (the N-th time)")
    pl.add_argument("--agent", metavar="BOT", default="random",
                    help="who plays the seats: random, greedy (one choice ahead on the spec's estimate), solver "
                         "(the answer of the spec's playing query), mcts (tree search: mcts:time=0.5 or "
                         "mcts:iterations=400) or human (you at the terminal); docs/bots.md")
    pl.add_argument("--agent-query", metavar="QUERY", help="the query a solver agent plays (and a human "
                                                            "seat's suggestions come from)")
    pl.add_argument("--agent-seats", metavar="SEATS",
                    help="the seats --agent plays, e.g. p1,p3 (default all), the others at random")
    pl.add_argument("--seat", metavar="SEAT=BOT", action="append",
                    help="the bot of one seat: random, greedy, solver, mcts[:time=S|:iterations=N] or human "
                         "(repeatable), e.g. --seat p1=human --seat p2=mcts:time=0.5")
    pl.add_argument("--suggest", metavar="BOT",
                    help="whose suggestion a human seat's '?' shows: solver (the playing query's answer, with "
                         "its reasons: the default), greedy or mcts (mcts:time=2)")
    pl.add_argument("--lang", metavar="LANG", choices=["en", "fr", "es", "zh"], default=None,
                    help="the language of a human seat's questions, from the spec's translations (en, fr, es, "
                         "zh; default en)")
    pl.add_argument("--agent-input", metavar="NAME=VALUE", action="append",
                    help="an input of the query the solver plays, e.g. objective=adaptation (repeatable)")
    pl.add_argument("--agent-time-limit", type=_positive(float, "a number of seconds above 0"), default=10.0,
                    metavar="SECONDS",
                    help="time limit of each query a solver agent asks (default 10)")

    sm = new_command("simulate", "play", "many seeded games: what their reports add up to (scores, winners)",
                 ("rulewright simulate darwins_choice --players 3 --games 20",
                  "rulewright simulate house_rules/darwin_no_strength_award --players 3 --games 20 "
                  "--against darwins_choice"))
    spec(sm)
    many_games(sm, 20, 100_000, "the number of games")
    sm.add_argument("--from", dest="from_state", metavar="FILE",
                    help="play every game on from the position of a state file (docs/state.md)")
    sm.add_argument("--against", metavar="SPEC",
                    help="also play the same seeds under this spec (the base game of a house rule) and compare")
    json_option(sm, "print the totals as JSON (each seat's mean score and share of wins with their intervals; docs/json.md)")
    sm.add_argument("--agent", metavar="BOT", default="random",
                    help="who plays the seats: random, greedy, solver or mcts (mcts:time=0.5, "
                         "mcts:iterations=400); docs/bots.md")
    sm.add_argument("--agent-query", metavar="QUERY", help="the query a solver agent plays")
    sm.add_argument("--agent-seats", metavar="SEATS",
                    help="the seats --agent plays, e.g. p1,p3 (default all), the others at random")
    sm.add_argument("--seat", metavar="SEAT=BOT", action="append",
                    help="the bot of one seat: random, greedy, solver or mcts[:SETTINGS] (repeatable)")
    sm.add_argument("--agent-input", metavar="NAME=VALUE", action="append",
                    help="an input of the query the solver plays, e.g. objective=adaptation (repeatable)")
    sm.add_argument("--agent-time-limit", type=_positive(float, "a number of seconds above 0"), default=10.0,
                    metavar="SECONDS", help="time limit of each query a solver agent asks")
    common(sm)
    sh = new_command("show", "play", "print a saved game state readably",
                 ("rulewright play darwins_choice --players 4 --seed 7 --stop-at evaluation:2 --save-state era2.json",
                  "rulewright show darwins_choice --state era2.json",
                  "rulewright show darwins_choice --state era2.json --as p2"))
    spec(sh)
    sh.add_argument("--state", required=True, metavar="FILE", help="the state file to show (docs/state.md)")
    sh.add_argument("--as", dest="as_seat", metavar="SEAT",
                    help="only what this seat may know (a seat's name or title): the piles hidden from it "
                         "by their size and what it saw go in")
    json_option(sh, "print the state checked and normalised (with --as: the seat's view, docs/state.md)")
    common(sh)
    common(pl)
    tn = new_command("tournament", "tournament", "bots against each other: how often each wins, how often it "
                     "finishes ahead of each other one, and a rating for each",
                     ("rulewright tournament ecosystem_savanna --players 3 --bots random,greedy --games 30",
                      "rulewright tournament darwins_choice --players 3 --bots random,greedy,mcts:time=0.2 --games 12"))
    spec(tn)
    tn.add_argument("--bots", metavar="BOTS", default="random,greedy",
                    help="the bots, comma-separated: random, greedy, solver, mcts (mcts:time=0.5 or "
                         "mcts:iterations=400,horizon=8); default random,greedy (docs/bots.md)")
    many_games(tn, 24, 100_000, "the number of games (line-ups of the bots, each seat order in turn)")
    tn.add_argument("--workers", type=_positive(int, "a whole number of processes from 1 to 256", most=256),
                    help="games played at once, each in a process of its own (default: every core)")
    json_option(tn, "print the ratings, the shares of wins and who finished ahead of whom, with their "
                    "intervals, and every game, as JSON (docs/json.md)")
    common(tn)
    sv = new_command("serve", "serve", "the workbench in the browser: write, check, verify, study and play a "
                     "house rule",
                     ("rulewright serve", "rulewright serve house_rules/savanna_rhinos --workspace my-rules",
                      "rulewright serve spec/house_rules/savanna_oasis.rules --port 8800"),
                     "The workbench: a local web page where a house rule is written (checked as it is typed, "
                     "with what it changes beside it), verified, studied and played against bots, each person "
                     "seeing only their seat (docs/workbench.md). It binds to 127.0.0.1 unless --host says "
                     "otherwise; Ctrl-C stops it.")
    sv.add_argument("specs", nargs="*", metavar="SPEC",
                    help="what to open first: a shipped name (rulewright list) or a house rule file (its folder "
                         "becomes the workspace unless --workspace is given)")
    sv.add_argument("--workspace", metavar="FOLDER",
                    help="the folder house rules are saved into and opened from (default: the current folder); "
                         "the workbench writes nowhere else")
    sv.add_argument("--port", type=_whole("a port number from 0 to 65535"), default=8765,
                    help="the port (default 8765; 0: any free port)")
    sv.add_argument("--host", default="127.0.0.1",
                    help="the address to listen on (default 127.0.0.1: this machine only; another address lets "
                         "other machines use the workbench and its files: a warning says so)")
    sv.add_argument("--no-browser", action="store_true", help="do not open a browser (the address is printed)")
    sv.add_argument("--root", action="append", metavar="FOLDER",
                    help="a folder the house rules may also read from (tables, files they extend; repeatable)")
    sd = new_command("study", "study", "a balance study: many games of a house rule and its base game, "
                     "the figures side by side with their 99%% intervals, the effects and the rules behind them, "
                     "and a report",
                     ("rulewright study house_rules/savanna_rhinos --against ecosystem_savanna --players 4 --games 1000",
                      "rulewright study house_rules/darwin_cs_5_3_1 --against darwins_choice --players 4 --games 400 "
                      "--skill-games 20 --out cs-study"),
                     "A balance study: many games of a house rule and of its base game on every core, the figures "
                     "side by side with their 99% intervals, the effects and the rules behind them, a witness "
                     "game for each, and a report (docs/studies.md).")
    spec(sd)
    sd.add_argument("--against", metavar="SPEC",
                    help="the spec to compare with (the base game of a house rule): the same seeds played under it")
    many_games(sd, 200, 10_000_000, "the games played under each rule set (default 200)")
    sd.add_argument("--sweep", metavar="NAME=V1,V2,...",
                    help="study the spec with each value of a switch or param (e.g. --sweep hand_size=4,5,6), "
                         "each against the first value (or against --against)")
    sd.add_argument("--agent", metavar="BOT", default="random",
                    help="who plays the seats of the games: random (default), greedy, solver or mcts[:SETTINGS]")
    sd.add_argument("--seat", metavar="SEAT=BOT", action="append",
                    help="the bot of one seat in the games (repeatable), e.g. --seat p1=greedy")
    sd.add_argument("--skill", metavar="STRONG,WEAK", default="greedy,random",
                    help="the bots of the skill games: one strong seat among weak ones (default greedy,random)")
    sd.add_argument("--skill-games", type=_whole("a whole number of games"), default=10, metavar="N",
                    help="the skill games under each rule set (default 10; 0: none)")
    sd.add_argument("--workers", type=_positive(int, "a whole number of processes from 1 to 256", most=256),
                    help="games played at once, each in a process of its own (default: every core)")
    sd.add_argument("--ray", metavar="ADDRESS",
                    help="play the games on a Ray cluster: auto (the one this machine joined), HOST:PORT, or local "
                         "(one started here for this run); needs pip install 'rulewright[ray]' (docs/studies.md)")
    sd.add_argument("--out", metavar="FOLDER", default="study",
                    help="the folder written: games.jsonl (every game), study.json (every figure), report.html "
                         "(default ./study)")
    sd.add_argument("--resume", action="store_true",
                    help="go on with the games already in --out (a study stopped with Ctrl-C)")
    sd.add_argument("--no-report", action="store_true", help="write no report.html (the figures only)")
    json_option(sd, "print every figure, the effects and their witness games as JSON (docs/json.md)")
    common(sd)
    q = new_command("query", "query", "answer a query of the spec with the CP-SAT solver",
                ("rulewright query ecosystem_savanna best-placement --state examples/partial.grid --card hyena",
                 "rulewright query ecosystem_savanna best-arrangement --cards examples/margot.cards --time-limit 20",
                 "rulewright query ecosystem_savanna best-placement --help"),
                "Answer a query of the spec with the CP-SAT solver. Inputs of the query follow its name, "
                "e.g. --cards FILE; 'rulewright query SPEC QUERY --help' lists them.")
    spec(q)
    q.add_argument("name", metavar="QUERY", help="the query's name (rulewright list shows each game's queries)")
    json_option(q, "print the answer as JSON")
    q.add_argument("--time-limit", type=_positive(float, "a number of seconds above 0"), default=60.0,
                   metavar="SECONDS", help="time limit of the solver")
    q.add_argument("--workers", type=_positive(int, f"a whole number from 1 to {MOST_WORKERS}", most=MOST_WORKERS),
                   default=2, help="the solver's parallel workers")
    q.add_argument("--state", metavar="FILE", default=None,
                   help="the game position the query is about (a saved state, docs/state.md)")
    common(q, cards=False)    # a query's inputs may be called --cards: use --card-table
    v = new_command("verify", "verify", "prove the rules consistent, or refute them with a witness",
                ("rulewright verify house_rules/savanna_rhinos --check property,range",
                 "rulewright verify house_rules/darwin_drought --against darwins_choice --check differs"),
                "Prove the rules consistent, or refute them with a witness. Checks that need nothing "
                "written (rules that never or always hold, unused definitions, ranges of scores, values no "
                "one can choose, invariants, playable choices, games that end, run-time gaps), the spec's "
                "own properties, and with --against what a variant changes.")
    spec(v)
    v.add_argument("--against", metavar="BASE",
                   help="the base game of the variant: find inputs on which they disagree (check 'differs')")
    v.add_argument("--check", action="append", metavar="KIND,...", help=f"only these checks: {CHECK_HELP}")
    v.add_argument("--only", action="append", metavar="NAME,...",
                   help="only these definitions, scorings and properties (repeatable; the sampled games still "
                        "play the whole game), e.g. --only score,herd_bonus")
    v.add_argument("--time-limit", type=_positive(float, "a number of seconds above 0"), default=10.0,
                   metavar="SECONDS", help="time limit of each question to the solver (default 10)")
    v.add_argument("--workers", type=_positive(int, f"a whole number from 1 to {MOST_WORKERS}", most=MOST_WORKERS),
                   default=2, help="the solver's parallel workers")
    v.add_argument("--games", type=_positive(int, "a whole number of games from 0 to 100000", most=100_000,
                                              least=0), default=50,
                   help="seeded games per mode and player count for the sampled checks (default 50; 0: none)")
    v.add_argument("--positions", type=_positive(int, "a whole number of positions from 0 to 1000", most=1000,
                                                  least=0), default=3,
                   help="positions the rules reach, for the definitions that read the state (default 3)")
    json_option(v, "print the findings as JSON")
    v.add_argument("--out", metavar="DIR", help="write each finding's witness as files (grids, state files)")
    v.add_argument("--all", action="store_true", help="also show what is well, with its witnesses")
    v.add_argument("--fresh", action="store_true",
                   help="ask the solver every question again and play the games again, keeping the new answers "
                        "(by default a question an earlier run asked on the same rules, limits and positions "
                        "is answered as it was then)")
    v.add_argument("--no-progress", action="store_true", help="no progress bar on standard error")
    common(v)
    ls = new_command("list", "listing", "the games, versions and house rules rulewright ships, and each game's queries",
                 ("rulewright list", "rulewright list --json"),
                 "The games, versions and house rules rulewright ships, each with its name (what "
                 "SPEC may be on every command) and title, and the queries of each game.")
    json_option(ls, "print the list as JSON")
    return p


class _Completion(argparse.Action):
    """``--completion SHELL``: print the completion script of that shell and exit 0."""

    def __call__(self, parser, namespace, values, option_string=None):
        from rulewright.cli.completion import script    # (lazy: only when a script is asked for)
        print(script(values, parser), end="")
        sys.stdout.flush()
        parser.exit(0)


class _Interruption:
    """Whether Ctrl-C came while the command ran: a library that loads or runs native code
    (OR-Tools) may turn the KeyboardInterrupt into an error of its own ("ImportError:
    initialization failed"), which is then an interruption, not an internal error."""
    came = False

    @classmethod
    def handler(cls, signum, frame):
        cls.came = True
        raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    """The command: everything it prints, on standard output and standard error, goes
    through the one printer (``terminal.visible``): no text of a file drives the terminal."""
    _Interruption.came = False
    words = sys.argv[1:] if argv is None else argv
    words = words[:words.index("--")] if "--" in words else words
    # (read before the parser: a usage error, the help, are already coloured or not)
    terminal.configure(no_colour="--no-color" in words, quiet="--quiet" in words or "-q" in words)
    try:
        before = signal.signal(signal.SIGINT, _Interruption.handler)
    except ValueError:              # not the main thread: Ctrl-C is not ours to handle
        before = None
    try:
        with terminal.shielded():
            return _main(argv)
    finally:
        if before is not None:
            signal.signal(signal.SIGINT, before)


def _main(argv: list[str] | None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    query_help = False
    if argv[:1] == ["query"] and len([a for a in argv[1:] if not a.startswith("-")]) >= 2 and \
            ("-h" in argv or "--help" in argv):
        # help on one query: its own inputs
        query_help = True
        argv = [a for a in argv if a not in ("-h", "--help")]
    try:
        args, extra = parser().parse_known_args(argv)       # (inside the guard: the first parser
        #                                                     loads argparse's helpers)
        args.query_help = query_help
        files.clear_roots()
        files.command_line(argv)        # (a refused path's hint names the whole command to run again)
        for folder in getattr(args, "root", None) or []:
            files.add_root(folder)
        # a shipped game may be named by its name from anywhere (rulewright play darwins_choice)
        for attr in ("spec", "path", "base", "variant_spec", "against"):
            if isinstance(getattr(args, attr, None), str):
                setattr(args, attr, files.spec_path(getattr(args, attr)))
        for attr in ("paths", "specs"):
            if isinstance(getattr(args, attr, None), list):
                setattr(args, attr, [files.spec_path(p) for p in getattr(args, attr)])
        if args.command == "score" and extra and not any(x.startswith("-") for x in extra):
            args.grids = list(args.grids) + extra       # grid files after an option (--variant V GRID)
            extra = []
        if args.command != "query" and extra:
            raise UsageError(f"rulewright {args.command}: unrecognized arguments: {' '.join(extra)}")
        if getattr(args, "quiet", False) and hasattr(args, "no_progress"):
            args.no_progress = True         # (--quiet: no progress bar either)
        if args.command == "query":
            code = command("query")(args, extra)
        else:
            code = command(args.command)(args)
    except RulesError as exc:
        refused = getattr(exc, "requirement", None)
        if isinstance(exc, RuntimeRulesError):
            from rulewright.compiler.interpret import locate     # (lazy: the error of a rule that ran)
            exc = locate(exc)
        print(exc.render(), file=sys.stderr)
        near = _shipped_near(exc)
        if near:
            print(f"  hint: {near}", file=sys.stderr)
        if refused and "args" in locals():
            from rulewright.cli.common import _blame_settings     # (lazy: a requirement refused the game)
            if _blame_settings(args, refused):
                return 2
        return exc.exit_code
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:      # a path the system refuses: too long, a file where a folder is needed...
        where = exc.filename if exc.filename is not None else "a file"
        shown = where if len(str(where)) <= 80 else str(where)[:77] + "..."
        print(f"error: {shown}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except Exception:  # a bug in rulewright, not a user error
        if _Interruption.came:      # Ctrl-C, turned into another error by a library
            print("interrupted", file=sys.stderr)
            return 130
        if os.environ.get("RULEWRIGHT_DEBUG"):
            traceback.print_exc()
        else:
            print("rulewright: internal error (run with RULEWRIGHT_DEBUG=1 for details)", file=sys.stderr)
            state = getattr(args, "state", None) if "args" in locals() else None
            if isinstance(state, str) and Path(state).is_file():
                # a hand-edited position can pass the checks of its file and still lack what
                # the rules read (a keyed value left out, a record pointing at a missing key...)
                print(f"  it happened while using the position in {state}: if that file was edited by "
                      "hand, a value the rules need may be missing or inconsistent (see docs/state.md)",
                      file=sys.stderr)
        return 3
    sys.stdout.flush()
    return code


_NO_SPEC = re.compile(r"^(?P<given>.+): no such spec file or directory$")


def _shipped_near(exc: RulesError) -> str | None:
    """For a spec that is not there (``rulewright play darwins_chioce``), the shipped
    game, version or house rule of a close name, as a hint; else None.

    In:  the error the command ended with.
    Out: "did you mean 'darwins_choice'? (a game rulewright ships: rulewright list)", or None."""
    if len(exc.diagnostics) != 1 or exc.diagnostics[0].hint:
        return None
    found = _NO_SPEC.match(exc.diagnostics[0].message)
    if not found:
        return None
    from rulewright.cli.listing import near_name     # (lazy: only for a spec that is not there)
    return near_name(found.group("given"))


if __name__ == "__main__":
    sys.exit(main())
