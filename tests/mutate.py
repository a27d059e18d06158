"""Mutation testing: do the tests catch a wrong rule, or a wrong operator?

In:  the repository (``spec/`` and the engine's meaning and encoding modules), a seed and a
     number of mutants.
Out: a report (terminal, and ``--json FILE``): each mutant planted, whether it changes what
     the rules do (seeded games, the rulebook's worked examples, query answers, operators'
     values), whether the tests that reach it caught it, the score (caught among those that
     change behaviour) and the survivors.

    make mutate                       # 100 mutants, seed 1 (MUTANTS=..., SEED=...)
    .venv/bin/python tests/mutate.py --mutants 20 --seed 3 --only rules
    .venv/bin/python tests/mutate.py --list --mutants 200      # the sample, nothing run

A mutant is one small change on one line, seeded: a comparison turned (``<`` for ``<=``,
``==`` for ``!=``), a whole number one more or one less (offsets of relations among them),
``and`` for ``or``, ``+`` for ``-``, two items of a tuple swapped (a tie-break order, a
step of an offset), two neighbouring one-line statements swapped (the order of steps). In
the rules: the two games' rule files (not their examples, guarantees or queries, which are
tests and questions of their own). In the engine: the operators' meanings
(``compiler/semantics/operators.py``' templates, ``runtime.py``) and their CP-SAT
encodings (``solver/encode/``). A mutant that no longer loads is left out (the loader
catches it, not the tests); the sample is drawn until it has the number asked of mutants
that load.

Each mutant is written into the working tree, probed and tested, and the file put back
(also after Ctrl-C; a file left mutated by a killed run is restored by the next run from
``.mutate-backup``). A mutant the tests catch changes behaviour (a test tells it apart);
for one they do not catch, the probe (a fresh process) loads the specs, runs their worked
examples, plays seeded games, answers a few queries and evaluates the operators on sample
operands, and its digest against the unmutated one says whether it changes behaviour. The tests are those of the mutated part's folders
(``TESTS``), stopped at the first failure. The score is the share caught of the mutants
that change behaviour; one that changes nothing the probe sees and that no test tells
apart is listed as likely equivalent, outside the score.
"""
from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
import tokenize
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BACKUP = ROOT / ".mutate-backup"
PYTHON = sys.executable

RULE_FILES = sorted(
    [p for g in ("darwins_choice", "ecosystem_savanna") for p in (ROOT / "spec" / g).glob("*.rules")
     if p.stem not in ("examples", "guarantees", "queries", "positions", "narrative")])
ENGINE_FILES = [ROOT / "compiler/semantics/operators.py", ROOT / "compiler/semantics/runtime.py",
                ROOT / "solver/encode/operators.py", ROOT / "solver/encode/arithmetic.py",
                ROOT / "solver/encode/base.py"]

# the tests that reach each part (paths from the repository's root)
TESTS = {
    "spec/darwins_choice": ["tests/games/darwins_choice", "tests/games/test_worked_examples.py"],
    "spec/ecosystem_savanna": ["tests/games/ecosystem_savanna", "tests/games/test_worked_examples.py",
                               "tests/games/darwins_choice/test_readings_combine.py"],
    "compiler/semantics": ["tests/semantics", "tests/interpret", "tests/resolve", "tests/bad",
                           "tests/games/ecosystem_savanna"],
    "solver/encode": ["tests/semantics/test_agreement.py", "tests/semantics/test_operators.py", "tests/solver"],
}
TEST_TIMEOUT = 900          # seconds: a mutant that makes the tests hang is caught by the clock

COMPARISONS = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}
LOGIC = {"and": "or", "or": "and"}
ARITHMETIC = {"+": "-", "-": "+"}


@dataclass
class Mutant:
    path: str           # from the repository's root
    line: int           # 1-based
    col: int            # 0-based, in the line
    old: str
    new: str
    kind: str           # comparison | constant | logic | arithmetic | order
    part: str           # rules | engine
    changes: bool | None = None     # changes behaviour (the probe's digest differs)
    caught: bool | None = None      # a test failed (or hung)
    how: str = ""                   # what changed, what caught it
    seconds: float = 0.0

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"

    def describe(self) -> str:
        return f"{self.where}: {self.kind}: `{self.old.strip()}` -> `{self.new.strip()}`"


# ------------------------------------------------------------------ planting
def _rules_candidates(path: Path) -> list[Mutant]:
    from rulewright.compiler.docgen.lexer import RulesLexer     # (lazy: pygments only here)
    text = path.read_text(encoding="utf-8")
    rel = _rel(path)
    starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def at(index: int) -> tuple[int, int]:
        line = _line_of(starts, index)
        return line + 1, index - starts[line]
    out: list[Mutant] = []
    tokens = list(RulesLexer().get_tokens_unprocessed(text))
    for n, (i, tt, v) in enumerate(tokens):
        kind = str(tt)
        line, col = at(i)
        source = text[starts[line - 1]:].split("\n", 1)[0]
        if source.lstrip().startswith(("///", "#")):
            continue
        if kind == "Token.Operator" and v in COMPARISONS:
            out.append(Mutant(rel, line, col, v, COMPARISONS[v], "comparison", "rules"))
        elif kind == "Token.Operator" and v in ARITHMETIC and _binary(tokens, n):
            out.append(Mutant(rel, line, col, v, ARITHMETIC[v], "arithmetic", "rules"))
        elif kind.startswith("Token.Keyword") and v in LOGIC:
            out.append(Mutant(rel, line, col, v, LOGIC[v], "logic", "rules"))
        elif kind.startswith("Token.Literal.Number") and re.fullmatch(r"-?[0-9]+", v) and \
                not _inside_ids(source, col):
            k = int(v)
            for new in {k + 1, k - 1}:
                out.append(Mutant(rel, line, col, v, str(new), "constant", "rules"))
    out.extend(_tuple_swaps(rel, text, "rules"))
    out.extend(_line_swaps(rel, text, "rules"))
    return out


def _rel(path: Path) -> str:
    """A file's path from the repository's root (its name, outside it)."""
    try:
        return path.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return path.name


def _inside_ids(source: str, col: int) -> bool:
    """A number that is part of a rule ID list (``[DC-NUTR-07]``): not a rule's value."""
    opening, closing = source.rfind("[", 0, col), source.rfind("]", 0, col)
    return opening > closing and re.match(r"\[[A-Z]", source[opening:]) is not None


def _binary(tokens, n: int) -> bool:
    """An operator with an operand before it (``a - b``, not ``-1``)."""
    for _, tt, v in reversed(tokens[:n]):
        if v.isspace():
            continue
        return str(tt).startswith(("Token.Name", "Token.Literal.Number")) or v in (")", "]")
    return False


def _line_of(starts: list[int], index: int) -> int:
    lo, hi = 0, len(starts) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if starts[mid] <= index:
            lo = mid
        else:
            hi = mid - 1
    return lo


_TUPLE = re.compile(r"\(([^()\n]+?),\s*([^()\n,]+?)([,)])")


def _tuple_swaps(rel: str, text: str, part: str) -> list[Mutant]:
    """Two neighbouring items of a parenthesised tuple on one line swapped: a tie-break
    order (``(adaptation, strength)``), a step of an offset (``(-1, 0)``)."""
    out = []
    for number, line in enumerate(text.split("\n"), 1):
        if line.lstrip().startswith(("///", "#")):
            continue
        for m in _TUPLE.finditer(line):
            before = line[:m.start()].rstrip()
            if before and (before[-1].isalnum() or before[-1] == "_"):
                continue            # a call's arguments, not a tuple
            a, b = m.group(1).strip(), m.group(2).strip()
            if "," in a or a == b or '"' in a + b:
                continue
            old = m.group(0)
            new = f"({b}, {a}{m.group(3)}"
            out.append(Mutant(rel, number, m.start(), old, new, "order", part))
    return out


_STATEMENT = re.compile(r"\s*(points|mark|move|deal|set|shuffle|place|checkpoint|discard|draw)\b")


def _line_swaps(rel: str, text: str, part: str) -> list[Mutant]:
    """Two neighbouring one-line statements of one block swapped (the order of steps)."""
    lines = text.split("\n")
    out = []
    for i in range(len(lines) - 2):
        a, b, after = lines[i], lines[i + 1], lines[i + 2]
        indent = len(a) - len(a.lstrip())
        if not (_STATEMENT.match(a) and _STATEMENT.match(b)) or a.strip() == b.strip():
            continue
        if len(b) - len(b.lstrip()) != indent or len(after) - len(after.lstrip()) > indent:
            continue
        if a.count("(") != a.count(")") or b.count("(") != b.count(")") or "{" in a + b:
            continue
        out.append(Mutant(rel, i + 1, indent, a + "\n" + b, b + "\n" + a, "order", part))
    return out


def _engine_candidates(path: Path) -> list[Mutant]:
    text = path.read_text(encoding="utf-8")
    rel = _rel(path)
    out: list[Mutant] = []
    tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    docstrings = _docstring_lines(text)
    for n, tok in enumerate(tokens):
        (line, col), v = tok.start, tok.string
        if line in docstrings:
            continue
        if tok.type == tokenize.OP and v in COMPARISONS:
            out.append(Mutant(rel, line, col, v, COMPARISONS[v], "comparison", "engine"))
        elif tok.type == tokenize.OP and v in ARITHMETIC and n and \
                (tokens[n - 1].type in (tokenize.NAME, tokenize.NUMBER) or tokens[n - 1].string in (")", "]")) \
                and tokens[n - 1].string not in ("return", "in", "if", "else", "and", "or", "not"):
            out.append(Mutant(rel, line, col, v, ARITHMETIC[v], "arithmetic", "engine"))
        elif tok.type == tokenize.NAME and v in LOGIC:
            out.append(Mutant(rel, line, col, v, LOGIC[v], "logic", "engine"))
        elif tok.type == tokenize.NUMBER and re.fullmatch(r"[0-9]+", v) and int(v) < 1000 and \
                not (path.name == "operators.py" and "compiler" in rel):        # (arities)
            for new in {int(v) + 1, int(v) - 1} - {-1}:
                out.append(Mutant(rel, line, col, v, str(new), "constant", "engine"))
        elif tok.type == tokenize.STRING and path.name == "operators.py" and "compiler" in rel \
                and tokens[n - 1].string == "," and "{" in v and tok.line.startswith(("op(", "agg(")) \
                and not v.lower().startswith(("f", "rf", "fr")):
            # an operator's meaning: its template's (the one string with places, "{0}") comparisons and min/max
            for m in re.finditer(r"<=|>=|==|!=|<|>|\bmin\b|\bmax\b|\band\b|\bor\b", v):
                old = m.group(0)
                new = COMPARISONS.get(old) or LOGIC.get(old) or {"min": "max", "max": "min"}[old]
                out.append(Mutant(rel, line, col + m.start(), old, new, "logic" if old in LOGIC else "comparison",
                                  "engine"))
    return out


def _docstring_lines(text: str) -> set[int]:
    import ast          # (lazy: only for the engine's files)
    lines: set[int] = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef, ast.Module, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(getattr(first, "value", None), ast.Constant) \
                    and isinstance(first.value.value, str):
                lines.update(range(first.lineno, first.end_lineno + 1))
    return lines


def candidates(only: str | None) -> list[Mutant]:
    out: list[Mutant] = []
    if only in (None, "rules"):
        for p in RULE_FILES:
            out.extend(_rules_candidates(p))
    if only in (None, "engine"):
        for p in ENGINE_FILES:
            out.extend(_engine_candidates(p))
    return out


RULES_SHARE = 2 / 3         # of a sample of both parts: mutants of the rules (the rest: the engine)


def sample(only: str | None, seed: int) -> list[Mutant]:
    """Every candidate, in the seeded order a run takes them: rules and engine mutants
    interleaved, two of the rules for one of the engine (each part shuffled by the seed)."""
    rng = random.Random(seed)
    rules, engine = candidates("rules") if only != "engine" else [], candidates("engine") if only != "rules" else []
    rng.shuffle(rules)
    rng.shuffle(engine)
    out: list[Mutant] = []
    taken = 0               # of the rules
    while rules or engine:
        take_rules = rules and (not engine or taken < RULES_SHARE * (len(out) + 1))
        out.append((rules if take_rules else engine).pop(0))
        taken += bool(take_rules)
    return out


# ------------------------------------------------------------------ applying
def mutated(text: str, m: Mutant) -> str:
    """The text of ``m``'s file with the mutant in it."""
    lines = text.split("\n")
    if m.kind == "order" and "\n" in m.old:
        i = m.line - 1
        assert "\n".join(lines[i:i + 2]) == m.old, m.describe()
        lines[i:i + 2] = m.new.split("\n")
    else:
        line = lines[m.line - 1]
        assert line[m.col:m.col + len(m.old)] == m.old, (m.describe(), line)
        lines[m.line - 1] = line[:m.col] + m.new + line[m.col + len(m.old):]
    return "\n".join(lines)


def relocated(m: Mutant, near: int = 8) -> Mutant | None:
    """An earlier run's mutant where its text is now (lines added above it move it); None
    when no line near it still holds that text at that column."""
    lines = (ROOT / m.path).read_text(encoding="utf-8").split("\n")
    first = m.old.split("\n")[0]
    for delta in sorted(range(-near, near + 1), key=abs):
        i = m.line - 1 + delta
        if 0 <= i < len(lines) and ("\n".join(lines[i:i + 2]) == m.old if "\n" in m.old   # (two lines swapped)
                                    else lines[i][m.col:m.col + len(first)] == first):
            return Mutant(m.path, i + 1, m.col, m.old, m.new, m.kind, m.part)
    return None


def apply(m: Mutant) -> str:
    """Write the mutant into its file (kept first in ``BACKUP``); the text before it is returned."""
    path = ROOT / m.path
    text = path.read_text(encoding="utf-8")
    BACKUP.write_text(json.dumps({"path": m.path, "text": text}), encoding="utf-8")
    path.write_text(mutated(text, m), encoding="utf-8")
    return text


def restore() -> None:
    """Put back a file a mutant changed (this run's, or a killed run's)."""
    if BACKUP.exists():
        saved = json.loads(BACKUP.read_text(encoding="utf-8"))
        (ROOT / saved["path"]).write_text(saved["text"], encoding="utf-8")
        BACKUP.unlink()


def tests_for(m: Mutant) -> list[str]:
    for prefix, tests in TESTS.items():
        if m.path.startswith(prefix):
            return [t for t in tests if (ROOT / t).exists()]
    raise KeyError(m.path)


# ------------------------------------------------------------------ the probe
# (mode, player counts, seeds) of the seeded games the probe plays
PROBE_GAMES = {"spec/darwins_choice": ("standard", (3, 4, 6), (1, 2, 3)),
               "spec/ecosystem_savanna": ("standard", (2, 4), (1, 2, 3, 4))}


def probe(part: str) -> dict:
    """What the rules do, in a digest per aspect: the worked examples' values, seeded games,
    query answers and (for the engine) operators' values on sample operands. Run in a fresh
    process (``--probe``) so a mutated module is the one imported."""
    from rulewright.compiler import load                # (lazy: the probe's process only)
    from rulewright.compiler.interpret import Interpreter
    from rulewright.compiler.play.examples import run_examples
    out: dict = {}
    games = [g for g in PROBE_GAMES if part == "engine" or part == g]
    for game in games:
        program = load(ROOT / game)
        interp = Interpreter(program)
        runs = run_examples(interp)
        out[f"{game} examples"] = _digest([(r.name, repr(sorted(r.values.items(), key=str)), r.error,
                                            [e.holds for e in r.expectations]) for r in runs])
        mode, counts, seeds = PROBE_GAMES[game]
        records = []
        for players, seed in ((p, s) for p in counts for s in seeds):
            try:
                st = Interpreter(program).play(mode, players, seed)
                records.append((repr(st.history), [repr(e) for e in st.log][-40:]))
            except Exception as e:          # a mutant may make the rules fail: that is behaviour too
                records.append(("error", type(e).__name__, str(e)[:200]))
        out[f"{game} games"] = _digest(records)
    if part == "engine" or part == "spec/ecosystem_savanna":
        out["answers"] = _digest(_answers())
    if part == "engine":
        out["operators"] = _digest(_operator_values())
    return out


def _answers() -> list:
    """The solver's best place for a few cards on a grid with one free cell, replayed."""
    from helpers import ONE_FREE_GRID                     # (lazy: the probe's process only)
    from rulewright.app.asking import ask
    from rulewright.compiler import load
    from rulewright.compiler.interpret import Interpreter
    program = load(ROOT / "spec/ecosystem_savanna")
    rows = [[None if x == "." else x for x in line.split()] for line in ONE_FREE_GRID.strip().splitlines()]
    board = Interpreter(program).board(rows)
    answers = []
    for card in ("hyena", "lion", "zebra", "water", "vulture"):
        a = ask(program, "best_placement", {"state": board, "card": card}, time_limit=30.0, workers=1)
        answers.append((card, a.status, repr(a.objective)))
    return answers


def _operator_values() -> list:
    """Every operator of the table on sample operands, by the interpreter (its meaning)."""
    from rulewright.compiler.semantics.operators import OPERATORS    # (lazy: the probe's process only)
    samples = [(-2, 3), (3, 3), (4, -1), (0, 5), ((1, 2), (1, 3)), ((2, 1), (1, 3)), ((1,), ()),
               (("a", "b"), ("b", "a")), (True, False), (False, False)]
    out = []
    for name, op in sorted(OPERATORS.items()):
        for args in samples:
            for arity in {op.arity or 2}:
                try:
                    out.append((name, args, repr(op.evaluate(*args[:arity], data=None))))
                except Exception as e:
                    out.append((name, args, type(e).__name__))
    return out


def _digest(x) -> str:
    return hashlib.sha256(repr(x).encode()).hexdigest()[:16]


def run_probe(part: str, load_only: bool = False) -> dict | None:
    """The probe's digest in a fresh process; None when the specs no longer load (with
    ``load_only``, only that is looked at: {} when they load)."""
    proc = subprocess.run([PYTHON, __file__, "--probe", part] + (["--load-only"] if load_only else []), cwd=ROOT,
                          capture_output=True, text=True, timeout=TEST_TIMEOUT)
    if proc.returncode == 3:
        return None
    if proc.returncode != 0:
        return {"probe": "failed: " + (proc.stderr.strip().splitlines() or ["?"])[-1][:200]}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def run_tests(m: Mutant, env: dict) -> tuple[bool, str]:
    """(caught, by what): the tests that reach the mutant, stopped at the first failure."""
    cmd = [PYTHON, "-m", "pytest", *tests_for(m), "-x", "-q", "-n", "2", "-p", "no:randomly",
           "-p", "no:cacheprovider"]
    try:
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=TEST_TIMEOUT, env=env)
    except subprocess.TimeoutExpired:
        return True, f"the tests did not finish within {TEST_TIMEOUT} s"
    failed = [line.split(" ", 1)[1].split(" - ")[0] for line in proc.stdout.splitlines()
              if line.startswith(("FAILED ", "ERROR "))]
    if proc.returncode in (0, 5):
        return False, ""
    return True, failed[0] if failed else f"pytest exit {proc.returncode}"


def part_of(m: Mutant) -> str:
    return "engine" if m.part == "engine" else "/".join(m.path.split("/")[:2])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Plant seeded one-line mutants in the rules and the engine, "
                                             "run the tests that reach each, report the survivors.")
    ap.add_argument("--mutants", type=int, default=100, help="how many mutants that load (default 100)")
    ap.add_argument("--seed", type=int, default=1, help="the sample's seed (default 1)")
    ap.add_argument("--only", choices=("rules", "engine"), help="mutants of the rules or of the engine only")
    ap.add_argument("--list", action="store_true", help="list the sample's candidates, run nothing")
    ap.add_argument("--json", metavar="FILE", help="write every mutant and its result to FILE")
    ap.add_argument("--again", metavar="FILE", help="run again the survivors of an earlier run's --json FILE "
                                                    "(after tests were added for them)")
    ap.add_argument("--probe", metavar="PART", help=argparse.SUPPRESS)
    ap.add_argument("--load-only", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.probe:
        return _probe_main(args.probe, args.load_only)
    restore()
    if args.again:
        earlier = json.loads(Path(args.again).read_text(encoding="utf-8"))["mutants"]
        fields = ("path", "line", "col", "old", "new", "kind", "part")
        pool = [found for m in earlier if not m["caught"]
                if (found := relocated(Mutant(**{k: m[k] for k in fields}))) is not None]
        gone = sum(1 for m in earlier if not m["caught"]) - len(pool)
        if gone:
            print(f"{gone} of the earlier survivors' lines are no longer in their files (rewritten): left out",
                  flush=True)
        args.mutants = len(pool)
    else:
        pool = sample(args.only, args.seed)
    if args.list:
        for m in pool[:args.mutants]:
            print(m.describe())
        print(f"({len(pool):,} candidates)")
        return 0
    signal.signal(signal.SIGTERM, _stop)      # (a run in the background ignores Ctrl-C: kill stops it cleanly)
    env = dict(os.environ, RULEWRIGHT_CACHE=str(ROOT / ".mutate-cache"))
    os.environ["RULEWRIGHT_CACHE"] = env["RULEWRIGHT_CACHE"]
    base: dict = {}
    done: list[Mutant] = []
    stillborn = 0
    started = time.monotonic()
    try:
        for m in pool:
            if len(done) >= args.mutants:
                break
            part = part_of(m)
            if part not in base:
                base[part] = run_probe(part)
            t0 = time.monotonic()
            apply(m)
            try:
                if run_probe(part, load_only=True) is None:
                    stillborn += 1
                    continue
                m.caught, by = run_tests(m, env)
                if m.caught:        # (what a test tells apart changes behaviour: no probe needed)
                    m.changes, m.how = True, f"caught by {by}"
                else:
                    digest = run_probe(part)
                    changed = sorted(k for k in set(digest) | set(base[part]) if digest.get(k) != base[part].get(k))
                    m.changes = bool(changed)
                    m.how = "changes " + ", ".join(changed) if changed else "no change seen"
            finally:
                restore()
            m.seconds = round(time.monotonic() - t0, 1)
            done.append(m)
            mark = "caught  " if m.caught else ("SURVIVED" if m.changes else "same?   ")
            print(f"[{len(done):3}/{args.mutants}] {mark} {m.describe()}  ({m.how}; {m.seconds} s)", flush=True)
    except KeyboardInterrupt:
        print("stopped: the mutants so far are reported", file=sys.stderr, flush=True)
    finally:
        restore()
        shutil.rmtree(ROOT / ".mutate-cache", ignore_errors=True)
    return report(done, stillborn, time.monotonic() - started, args)


def _stop(signum, frame):
    raise KeyboardInterrupt


def report(done: list[Mutant], stillborn: int, seconds: float, args) -> int:
    changing = [m for m in done if m.changes]
    caught = [m for m in changing if m.caught]
    quiet = [m for m in done if not m.changes]
    print()
    print(f"{len(done)} mutants (seed {args.seed}; {stillborn} more did not load and were left out), "
          f"{seconds / 60:.1f} minutes")
    if changing:
        print(f"{len(caught)} of the {len(changing)} that change behaviour caught: "
              f"{100 * len(caught) / len(changing):.1f}%")
    print(f"{len(quiet)} change nothing the probe sees and no test tells them apart (likely equivalent: "
          f"listed below)")
    for title, group in (("Survivors that change behaviour", [m for m in changing if not m.caught]),
                         ("Survivors with no change seen (likely equivalent)", quiet)):
        if group:
            print(f"\n{title}:")
            for m in group:
                print(f"  {m.describe()}  ({m.how})")
    if args.json:
        Path(args.json).write_text(json.dumps({"seed": args.seed, "stillborn": stillborn, "seconds": round(seconds),
                                               "mutants": [asdict(m) for m in done]}, indent=1), encoding="utf-8")
    return 0


def _probe_main(part: str, load_only: bool) -> int:
    from rulewright.compiler.diagnostics import RulesError     # (lazy: the probe's process only)
    try:
        from rulewright.compiler import load
        for game in PROBE_GAMES:
            if part in ("engine", game):
                load(ROOT / game)
    except (RulesError, SyntaxError, ImportError, NameError, TypeError, AttributeError):
        return 3            # the mutant does not load: left out
    print(json.dumps({} if load_only else probe(part)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
