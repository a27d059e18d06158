"""Fuzzing the command line with untrusted inputs: no input may crash rulewright.

Every spec, variant, CSV table, state file (a saved game too), choices file,
translation catalogue, grid file, folder and command line is untrusted: a user error
ends with exit code 1 or 2 and one located message, never exit 3 ("rulewright:
internal error"), a traceback or a hang. The pages ``docs`` writes hold nothing that
runs in a browser, and nothing is written through a symbolic link. Each test below makes seeded
inputs of one category (``tests/fuzzing.py``: its generators and its runner, a fork
server that imports rulewright once and runs each command in a child with a memory
and a time bound) and runs the real commands on them.

By default a few inputs per category (seeds 0, 1, ...: the same inputs every run),
about a minute for the first six categories and another for the five newer ones
(resume, choices, po, docs, links). A long run: ``RULEWRIGHT_FUZZ=N`` inputs per category
(``RULEWRIGHT_FUZZ_SEED=S`` for the first seed), which prints at the end how many
inputs each category tried and how many failed:

    RULEWRIGHT_FUZZ=300 .venv/bin/python -m pytest tests/security/test_fuzz_inputs.py -m fuzz

A failing input is copied into ``$RULEWRIGHT_FUZZ_OUT`` (default
``<tmp>/rulewright-fuzz-failures``), one folder per crash class (the exception class
and its innermost frame), with a README.txt that gives the command to reproduce it
and the end of the traceback; ``progress.log`` there has one line per input.
``RULEWRIGHT_FUZZ_CPU=1`` keeps every command on that one CPU.
"""
from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

import pytest

import fuzzing

pytestmark = pytest.mark.fuzz

LONG = int(os.environ.get("RULEWRIGHT_FUZZ", "0") or 0)
FIRST = int(os.environ.get("RULEWRIGHT_FUZZ_SEED", "0") or 0)
OUT = Path(os.environ.get("RULEWRIGHT_FUZZ_OUT") or Path(tempfile.gettempdir()) / "rulewright-fuzz-failures")
# inputs per category in the default run (about a minute on two cores)
SHORT = {"spec": 20, "variant": 12, "csv": 10, "state": 16, "grid": 20, "cmdline": 40,
         # the newer categories: about a minute together
         "resume": 8, "choices": 10, "po": 8, "docs": 12, "links": 12}

TALLY: dict[str, dict] = {}


@pytest.fixture(scope="module")
def fuzzer(request):
    f = fuzzing.Fuzzer()
    yield f
    f.close()
    if TALLY and LONG:
        lines = ["", f"fuzzing: {LONG} input(s) per category from seed {FIRST}, failures saved in {OUT}"]
        for category in fuzzing.CATEGORIES:
            t = TALLY.get(category)
            if t:
                lines.append(f"  {category:8} tried {t['tried']:5}  failed {t['failed']:5}  "
                             f"({t['seconds']:.0f} s; crash classes: {', '.join(sorted(t['classes'])) or 'none'})")
        text = "\n".join(lines)
        OUT.mkdir(parents=True, exist_ok=True)
        with open(OUT / "summary.txt", "a", encoding="utf-8") as f_out:
            f_out.write(text + "\n")
        capture = request.config.pluginmanager.getplugin("capturemanager")
        if capture is not None:
            with capture.global_and_fixture_disabled():
                print(text)
        else:
            print(text)


def _fuzz(fuzzer: fuzzing.Fuzzer, category: str):
    n = LONG or SHORT[category]
    failures = []
    failed_seeds = set()
    classes = set()
    start = time.monotonic()
    OUT.mkdir(parents=True, exist_ok=True)
    log = open(OUT / "progress.log", "a", encoding="utf-8", errors="backslashreplace")
    try:
        for seed in range(FIRST, FIRST + n):
            t0 = time.monotonic()
            case, results = fuzzer.run_one(category, seed)
            status = []
            for run, outcome, reason in results:
                status.append(str(outcome.code) + ("H" if outcome.hung else ""))
                if reason:
                    folder = fuzzer.save_failure(case, run, outcome, reason, OUT)
                    classes.add(folder.name)
                    failed_seeds.add(seed)
                    failures.append((case, run, outcome, reason, folder))
            log.write(f"{category} {seed} {time.monotonic() - t0:.2f}s exits={','.join(status)}"
                      f"{' FAIL' if seed in failed_seeds else ''}\n")
            log.flush()
    finally:
        log.close()
    TALLY[category] = {"tried": n, "failed": len(failed_seeds), "classes": classes,
                       "seconds": time.monotonic() - start}
    if failures:
        shown = []
        for case, run, outcome, reason, folder in failures[:25]:
            err = outcome.err.splitlines()
            last = next((ln for ln in reversed(err) if ln.strip()), "")
            shown.append("\n".join([
                f"{case.category} seed {case.seed}: {reason} (exit {outcome.code}, {outcome.seconds:.1f} s)",
                f"  argv: rulewright {' '.join(fuzzing._shell_quote(a) for a in run.argv)[:400]}",
                f"  input: {'; '.join(case.what)[:300]}",
                *[f"  | {ln[:200]}" for ln in err[:5]],
                *([f"  | ...", f"  | {last[:200]}"] if len(err) > 5 else []),
                f"  saved in {folder}",
            ]))
        more = f"\n... and {len(failures) - 25} more" if len(failures) > 25 else ""
        pytest.fail(f"{len(failed_seeds)} of {n} {category} input(s) crashed rulewright:\n\n"
                    + "\n\n".join(shown) + more, pytrace=False)


def test_spec_token_mutations(fuzzer):
    """Specs with tokens deleted, repeated, swapped, replaced (numbers, strings, names,
    deep nesting, huge ranges), then check, graph, dump (and play when they compile)."""
    _fuzz(fuzzer, "spec")


def test_variants(fuzzer):
    """House rules and variants mutated next to a copy of their base: check, diff, play."""
    _fuzz(fuzzer, "variant")


def test_csv_tables(fuzzer):
    """Darwin's Choice card (and biome) tables mutated: check --cards, play --cards."""
    _fuzz(fuzzer, "csv")


def test_state_files(fuzzer):
    """Saved positions mutated (values, types, keys, nesting, numbers, bytes): show, query."""
    _fuzz(fuzzer, "state")


def test_grid_files(fuzzer):
    """Grid files mutated (names, sizes, bytes, long lines): score, query best-placement."""
    _fuzz(fuzzer, "grid")


def test_command_lines(fuzzer):
    """Random combinations of the real options and odd values, for every command."""
    _fuzz(fuzzer, "cmdline")


def test_resumed_games(fuzzer):
    """Saved games (a state file with a resume entry) with their history, where they
    stand, their generators' states or their position mutated: play --from (with and
    without --seed, --until), show, simulate --from."""
    _fuzz(fuzzer, "resume")


def test_choices_files(fuzzer):
    """Game logs as --choices files with lines dropped, repeated, swapped, values of other
    types, deep nesting, huge numbers, bytes that are not UTF-8, very long lines."""
    _fuzz(fuzzer, "choices")


def test_translation_catalogues(fuzzer):
    """Catalogues (.po) broken, in another charset, not UTF-8, huge, holding payloads, a
    msgctxt twice, a link or a folder: docs --lang, translations --check, translations."""
    _fuzz(fuzzer, "po")


def test_pages_with_payloads(fuzzer):
    """Texts that would run as HTML in every place a page shows (doc comments, titles,
    table texts and CSV files, a house rule's file name, effects.json, a catalogue): the
    pages docs writes, rendered with the site's Markdown, hold nothing the site's guard
    takes out."""
    pytest.importorskip("markdown")
    pytest.importorskip("pymdownx")
    _fuzz(fuzzer, "docs")


def test_symbolic_links_in_folders(fuzzer):
    """Links in docs --out, verify --out, --save-state and --log files, a spec's i18n/ and
    variants/ folders, pointing out of the folder: nothing outside is created, changed
    or removed."""
    _fuzz(fuzzer, "links")
