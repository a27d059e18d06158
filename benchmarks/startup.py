"""Start-up: how long a command takes as a whole process, with the cache warm.

Each figure is the median of N runs (after one run that is not counted, which fills
the cache), each run a new process, as a user types the command:

* ``rulewright --version``, ``rulewright --help``, ``rulewright score --help``: the
  command line alone (no compiler, Lark, networkx, OR-Tools or rich);
* ``rulewright check`` of one Darwin's Choice spec (the Short game variant: it loads
  the variant and its base game) and of the whole folder (six specs);
* the load of one Darwin's Choice spec from the cache, timed inside a new process
  (``rulewright.compiler.load``, the loader and the interpreter imported before: the
  time counts the modules reading the program back imports), then once more in the same
  process (the load alone);
* ``rulewright score spec/ecosystem_savanna examples/margot.grid``.

Python keeps each module's bytecode, as it does by default (in a folder of the
benchmark's own, so that no ``__pycache__`` is left in the tree), even where
``PYTHONDONTWRITEBYTECODE`` is set: otherwise every run compiles every module again and
the figures measure that. ``--bytecode as-is`` runs the commands in the environment as
it is.

    python benchmarks/startup.py [--runs N] [--against PATH] [--bytecode kept|as-is]

``--against PATH`` times another ``rulewright`` too (an older checkout's), the two in
turn run by run, and gives the ratio of each pair's times (this one / that one): on a
shared machine, whose speed drifts from minute to minute, the ratio holds better than
either time.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent / "rulewright"
DARWIN = "spec/darwins_choice"
ONE_SPEC = "spec/darwins_choice/variants/short_game.rules"

# (what, the command's arguments, the target in seconds or None)
COMMANDS = [
    ("rulewright --version", ["--version"], 0.15),
    ("rulewright --help", ["--help"], 0.15),
    ("rulewright score --help", ["score", "--help"], 0.15),
    (f"rulewright check {ONE_SPEC}", ["check", ONE_SPEC], None),
    (f"rulewright check {DARWIN} (six specs)", ["check", DARWIN], None),
    ("rulewright score spec/ecosystem_savanna examples/margot.grid",
     ["score", "spec/ecosystem_savanna", "examples/margot.grid"], 0.3),
]

# one cached spec loaded in a new process, then again: the seconds of each load()
LOAD = f"""
import time
import rulewright.compiler.loader, rulewright.compiler.interpret
from rulewright.compiler import load
for _ in range(2):
    start = time.perf_counter()
    load({DARWIN!r})
    print(time.perf_counter() - start)
"""


def _cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def environment(bytecode: str) -> dict[str, str]:
    env = dict(os.environ)
    if bytecode == "kept":
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = os.path.join(tempfile.gettempdir(), f"rulewright-bench-pycache-{os.getuid()}")
    return env


def _run(command: list[str], env: dict) -> tuple[float, float]:
    """The wall time and the processor time (user and system) of one run."""
    cpu, start = _cpu(), time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    took, used = time.perf_counter() - start, _cpu() - cpu
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)}: exit {done.returncode}\n{done.stderr.decode()}")
    return took, used


def whole_process(commands: list[list[str]], runs: int, env: dict) -> list[tuple[float, float, list[float]]]:
    """For each command, the median wall time, the median processor time and the wall
    times of ``runs`` runs (one more first, not counted); the commands run in turn."""
    times: list[list[float]] = [[] for _ in commands]
    cpus: list[list[float]] = [[] for _ in commands]
    for i in range(runs + 1):
        for k, command in enumerate(commands):
            took, used = _run(command, env)
            if i:
                times[k].append(took)
                cpus[k].append(used)
    return [(statistics.median(t), statistics.median(c), t) for t, c in zip(times, cpus)]


def load_times(runs: int, env: dict) -> tuple[float, float]:
    """The median times of loading the cached spec, each run in a new process: its first
    load, and a second one."""
    first, second = [], []
    for i in range(runs + 1):
        out = subprocess.run([sys.executable, "-c", LOAD], cwd=ROOT, capture_output=True, text=True, check=True,
                             env=env)
        if i:
            a, b = out.stdout.split()
            first.append(float(a))
            second.append(float(b))
    return statistics.median(first), statistics.median(second)


def verdict(seconds: float, target: float | None) -> str:
    if target is None:
        return ""
    return f"target {target:.2f} s: {'met' if seconds <= target else 'not met'}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=10, help="counted runs of each command (default 10)")
    ap.add_argument("--against", metavar="PATH", help="another rulewright command to time in turn (and compare)")
    ap.add_argument("--bytecode", choices=["kept", "as-is"], default="kept",
                    help="kept: Python keeps the modules' bytecode (the default); as-is: the environment decides")
    args = ap.parse_args(argv)
    env = environment(args.bytecode)
    for command in (str(BIN), args.against):
        if command is not None and not Path(command).exists():
            raise SystemExit(f"{command}: no such command (pip install -e .)")
    if os.environ.get("RULEWRIGHT_CACHE", "").strip().lower() == "off":
        print("note: RULEWRIGHT_CACHE=off: nothing is kept between runs", file=sys.stderr)
    print(f"median of {args.runs} runs, each a new process (the cache warm; modules' bytecode {args.bytecode}): "
          "wall time, processor time")
    for what, command, target in COMMANDS:
        timed = whole_process([[str(BIN), *command]] + ([[args.against, *command]] if args.against else []),
                              args.runs, env)
        seconds, cpu, walls = timed[0]
        print(f"  {what:<62} {seconds:6.3f} s  (cpu {cpu:5.3f} s)  {verdict(seconds, target)}", flush=True)
        if args.against:
            theirs, their_cpu, their_walls = timed[1]
            ratio = statistics.median(a / b for a, b in zip(walls, their_walls))
            print(f"  {'  against ' + args.against:<62} {theirs:6.3f} s  (cpu {their_cpu:5.3f} s)  "
                  f"ratio {ratio:.2f} (pair by pair)", flush=True)
    first, again = load_times(args.runs, env)
    print(f"  {'load of ' + DARWIN + ' from the cache, in a new process':<62} {first:6.3f} s  {'':13}  "
          f"{verdict(first, 0.15)}")
    print(f"  {'the same load again, in that process':<62} {again:6.3f} s  {'':13}  {verdict(again, 0.15)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
