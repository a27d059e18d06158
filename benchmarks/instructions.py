"""Instructions a game, counted by valgrind: the figure that does not move with the machine.

A game's time on a shared machine moves by a quarter from one run to the next; the number
of processor instructions it takes does not (valgrind's cachegrind counts them, whatever
else the machine is doing). For each case, the same seeded games with random seats are
played by the interpreter with the speed-ups on and with them off (``fast=False``, the
baseline ``play.py`` times), each in processes of their own run under valgrind: one that
plays the first ``--skip`` games, one that plays ``--games`` more, and a game's count is
the difference divided by ``--games`` (so loading the spec, compiling its code and the
memos' first trials are left out). Every process plays one game first to put the
program's compiled code in the cache, outside the count. ``PYTHONHASHSEED=0``.

Slow: valgrind runs the baseline's games some fifty times slower than they run (about four
minutes for four four-player Darwin's Choice games). Not part of ``make bench``.

    .venv/bin/python benchmarks/instructions.py [--only darwin|savanna] [--players N] [--skip 10] [--games 4]
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CASES = [("Darwin's Choice", "spec/darwins_choice", 3), ("Darwin's Choice", "spec/darwins_choice", 4),
         ("Darwin's Choice", "spec/darwins_choice", 6),
         ("Ecosystem: Savanna, 2 players", "spec/ecosystem_savanna/variants/two_player.rules", 2),
         ("Ecosystem: Savanna", "spec/ecosystem_savanna", 4),
         ("Ecosystem: Savanna, solo", "spec/ecosystem_savanna/variants/solo.rules", 1)]
_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def child(spec: str, players: int, games: int, fast: bool) -> None:
    """Play ``games`` seeded games (after one more, seed 1,000, outside any count's
    difference) in this process."""
    from rulewright.compiler import load
    from rulewright.compiler.interpret import RandomAgent
    from rulewright.compiler.interpret.interpreter import Interpreter

    program = load(ROOT / spec)
    interp = Interpreter(program, fast=fast)
    mode = next(m for m, info in program.modes.items() if info.min_players <= players <= info.max_players)

    def seats(seat, seed):
        return RandomAgent(seed * 1_000_003 + seat.index)
    with interp.batch():
        for seed in [1000] + list(range(games)):
            interp.play(mode, players, seed, agent_factory=seats)


def counted(spec: str, players: int, games: int, fast: bool) -> int:
    """Instructions of a whole process playing ``games`` games (valgrind's count)."""
    command = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
               sys.executable, __file__, "--child", spec, str(players), str(games), "1" if fast else "0"]
    run = subprocess.run(command, capture_output=True, text=True, cwd=ROOT,
                         env={**os.environ, "PYTHONHASHSEED": "0"})
    total = refs(run.stderr)
    if run.returncode != 0 or total is None:
        raise SystemExit(f"valgrind failed for {spec} ({players} players): {run.stderr[-500:]}")
    return total


def refs(summary: str) -> int | None:
    """The total of instructions in valgrind's summary (``I refs: 3,523,322,936``); None
    when it holds none."""
    found = _REFS.search(summary)
    return None if found is None else int(found.group(1).replace(",", ""))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", choices=("darwin", "savanna"), help="one game's cases only")
    ap.add_argument("--players", type=int, help="the cases of this many players only")
    ap.add_argument("--skip", type=int, default=10, help="games played before the counted ones (default 10)")
    ap.add_argument("--games", type=int, default=4, help="games counted (default 4)")
    ap.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        spec, players, games, fast = args.child
        child(spec, int(players), int(games), fast == "1")
        return 0
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install valgrind): nothing counted", file=sys.stderr)
        return 2
    for _, spec, players in CASES:         # (the compiled code of each spec in the cache first)
        if (not args.only or args.only in spec) and (args.players in (None, players)):
            child(spec, players, 0, True)
            child(spec, players, 0, False)
    print(f"Instructions a game (games {args.skip} to {args.skip + args.games - 1} of a process; valgrind)")
    print(f"{'game':30} {'players':>7} {'before':>14} {'now':>14} {'ratio':>6}")
    for title, spec, players in CASES:
        if (args.only and args.only not in spec) or args.players not in (None, players):
            continue
        per = {}
        for fast in (False, True):
            first = counted(spec, players, args.skip, fast)
            last = counted(spec, players, args.skip + args.games, fast)
            per[fast] = (last - first) / args.games
        print(f"{title:30} {players:>7} {per[False]:>14,.0f} {per[True]:>14,.0f} {per[False] / per[True]:>5.2f}x",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
