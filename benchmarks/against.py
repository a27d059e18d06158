"""Games per second of the code as it is against the code of an earlier commit, each with
its own specs: the cross-check of ``benchmarks/play.py``, whose baseline
(``Interpreter(program, fast=False)``) is the code before the speed-ups with their switch
off, and so gains whatever was made faster for both sides since (or loses what the specs
added since).

The earlier code is taken out of the repository (``git archive``, into a temporary folder)
and run by a separate Python process, as is the code as it is (the same harness, each in a
fresh process: a fair start for both), for the same seeded games with random seats, in
blocks played by both sides in turn (ABBA BAAB), each block's games one after the other
after as many to warm up (what a side remembers, and its memos' trials, settle in them)
(the current code in one batch, ``Interpreter.batch``, as a study plays them; the earlier
one as it can). A block's time is its games' wall-clock time, collections included. The
table says whether each game ended the same (reports and the log of what was chosen): the
two sides play their own specs, which may have changed in between.

    .venv/bin/python benchmarks/against.py [--commit 2117d5a] [--games N] [--only darwin|savanna]

The default commit is the last one before the speed-ups (``2117d5a``).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from play import CASES  # noqa: E402

# the harness each side runs: the tree's packages put first on the import path, then games
# played in a row; prints the seconds and, per game, a digest of what it did
_HARNESS = r"""
import hashlib, importlib.util, json, sys, time
tree, spec, players, seeds = sys.argv[1], sys.argv[2], int(sys.argv[3]), json.loads(sys.argv[4])
MAP = {"rulewright": tree + "/rulewright", "rulewright.compiler": tree + "/compiler",
       "rulewright.solver": tree + "/solver"}

class Tree:
    def find_spec(self, name, path=None, target=None):
        if name in MAP:
            return importlib.util.spec_from_file_location(name, MAP[name] + "/__init__.py",
                                                          submodule_search_locations=[MAP[name]])
        return None

sys.meta_path.insert(0, Tree())
import rulewright.compiler as compiler
assert compiler.__file__.startswith(tree), compiler.__file__
from rulewright.compiler import load
from rulewright.compiler.interpret import Interpreter, RandomAgent
program = load(tree + "/" + spec)
mode = next(m for m, info in program.modes.items() if info.min_players <= players <= info.max_players)
interp = Interpreter(program)
seats = lambda seat, seed: RandomAgent(seed * 1_000_003 + seat.index)
for seed in range(1000, 1000 + max(3, len(seeds))):     # (as many to warm up as are timed)
    interp.play(mode, players, seed, agent_factory=seats)
batch = getattr(interp, "batch", None)
digests = []
start = time.perf_counter()
if batch is not None:
    with batch():
        played = [interp.play(mode, players, seed, agent_factory=seats) for seed in seeds]
else:
    played = [interp.play(mode, players, seed, agent_factory=seats) for seed in seeds]
took = time.perf_counter() - start
for st in played:
    chosen = [(e.kind, e.seat, repr(e.detail.get("value")) if isinstance(e.detail, dict) else None) for e in st.log]
    digests.append(hashlib.sha256(repr((repr(st.reports), chosen)).encode()).hexdigest()[:16])
print(json.dumps({"seconds": took, "digests": digests}))
"""


def _tree_of(commit: str, into: Path) -> Path | None:
    """The files of ``commit`` (its packages and specs) in a folder of ``into``; None where
    the repository does not hold it (a shallow clone, no git)."""
    made = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", commit,
                           "rulewright", "compiler", "solver", "spec"],
                          capture_output=True).stdout
    if not made:
        return None
    tree = into / commit
    with tarfile.open(fileobj=BytesIO(made)) as tar:
        tar.extractall(tree, filter="data")
    return tree


def _block(tree: Path, spec: str, players: int, seeds: list[int]) -> dict:
    out = subprocess.run([sys.executable, "-c", _HARNESS, str(tree), spec, str(players), json.dumps(seeds)],
                         capture_output=True, text=True, cwd=tempfile.gettempdir())
    if out.returncode != 0:
        raise SystemExit(f"the harness failed on {tree}:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--commit", default="2117d5a", help="the earlier code (default: 2117d5a, before the speed-ups)")
    ap.add_argument("--games", type=int, help="games per case (default: 20 of Darwin's Choice, 100 of Savanna)")
    ap.add_argument("--only", choices=("darwin", "savanna"), help="one game's cases only")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        try:
            then = _tree_of(args.commit, Path(tmp))
        except OSError:
            then = None
        if then is None:
            print(f"against.py: skipped: commit {args.commit} is not in this repository (a shallow clone, or no "
                  "git): nothing to compare against")
            return 0
        print(f"{'game':30} {'players':>7} {args.commit + ' g/s':>13} {'now g/s':>9} {'ratio':>6}  same games")
        for title, spec, players, games in CASES:
            if args.only and args.only not in spec:
                continue
            n = args.games or games
            blocks = [list(range(i * n // 4, (i + 1) * n // 4)) for i in range(4)]
            seconds = {"then": 0.0, "now": 0.0}
            digests: dict[str, list] = {"then": [], "now": []}
            for i, seeds in enumerate(blocks):
                order = ("then", "now") if i in (0, 3) else ("now", "then")
                for side in order:
                    got = _block(then if side == "then" else ROOT, spec, players, seeds)
                    seconds[side] += got["seconds"]
                    digests[side] += got["digests"]
            same = sum(a == b for a, b in zip(digests["then"], digests["now"]))
            print(f"{title:30} {players:>7} {n / seconds['then']:>13.1f} {n / seconds['now']:>9.1f} "
                  f"{seconds['then'] / seconds['now']:>5.2f}x  {same} of {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
