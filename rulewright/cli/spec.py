"""The commands about a spec itself, which need no solver: check, diff, graph, dump,
docs.

In:  parsed arguments. Out: text or JSON on stdout; exit 0, 1 (a spec error) or 2.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from rulewright.compiler import graph as rules_graph
from rulewright.compiler.diagnostics import BadInputError

from rulewright.cli.common import UsageError, _load
from rulewright.app import documenting
from rulewright.compiler.loader import parse_files, spec_files
from rulewright.compiler.interpret import Interpreter
# (the pages' modules, the examples' and the games' load with the commands that use them:
# check loads none of them)


# ------------------------------------------------------------------ commands
def cmd_check(args) -> int:
    """Specs compiled and checked (the job: ``app.checking``), printed: ``ok`` and the size of
    each, or its error (once when a variant fails where its base did); warnings on standard
    error; with ``--json`` all of it as data on standard output."""
    from rulewright.app.checking import check_specs     # (lazy, as every job below the commands)
    paths = [t for path in args.paths for t in documenting.check_targets(path)]
    checked = check_specs(paths, lambda path, sets: _load(path, args, sets), passes=(UsageError,))
    code = max([c.error.exit_code for c in checked if c.error is not None], default=0)
    if getattr(args, "json", False):
        print(json.dumps({"ok": code == 0, "specs": [c.data() for c in checked]}, indent=2, ensure_ascii=False))
        return code
    for c in checked:
        if c.error is not None:
            print(f"error: {c.path}: the same error as {c.same_as}, above" if c.same_as else c.error.render(),
                  file=sys.stderr)
            continue
        print(f"ok: {c.path}: {c.title}: {c.definitions} definitions, {c.rule_ids} rule IDs")
        for w in c.warnings + c.notes:
            print(w.render(), file=sys.stderr)
    return code


def cmd_diff(args) -> int:
    """What a variant changes in its base (the job: ``app.diffing``), printed."""
    from rulewright.app.diffing import diff_specs      # (lazy, as every module below that check needs not)
    diffed = diff_specs(_load(args.base, args), _load(args.variant_spec, args), args.base, args.variant_spec)
    if args.json:
        print(json.dumps(diffed.data(), indent=2, ensure_ascii=False))
    elif diffed.empty:
        print("\n".join(diffed.lines()))
    else:
        from rulewright.cli import tables        # (rich draws the tables: loaded for the text only)
        tables.write(*diff_parts(diffed.diff))
        if not diffed.empty:
            print(f"\nwhat these changes do in play, input by input: rulewright verify {args.variant_spec} "
                  f"--against {args.base}")
    return 0


def diff_parts(d) -> list:
    """What a variant changes, for people: a table of the changed, added and removed
    definitions (a row each: kind, name, rule IDs, where), each one's text before and
    after, and a table of what the changes can affect downstream."""
    from rulewright.cli.tables import table      # (rich: loaded with the first table)
    parts: list = [f"{d.base}  ->  {d.variant}", ""]
    entries = [(what, e) for what, es in (("changed", d.changed), ("added", d.added), ("removed", d.removed))
               for e in es]
    counts = ", ".join(f"{n} {w}" for w, n in (("changed", len(d.changed)), ("added", len(d.added)),
                                               ("removed", len(d.removed))) if n)
    parts.append(table(["", "kind", "name", "rule IDs", "at"],
                       [[what, e.kind, e.name, " ".join(e.rule_ids), str((e.after or e.before).span)]
                        for what, e in entries], title=f"the definitions that differ ({counts})", keep=(4,)))
    for what, e in entries:
        ids = " [" + " ".join(e.rule_ids) + "]" if e.rule_ids else ""
        parts += ["", f"{what}: {e.kind} {e.name}{ids}"]
        parts += [f"    /// {t}".rstrip() for t in e.doc.splitlines()]
        for mark, side in (("-", e.before), ("+", e.after)):
            if side is not None:
                parts.append(f"    {mark} {side.span}")
                parts += [f"    {mark}   {t}" for t in side.text.splitlines()]
    parts.append("")
    if not d.downstream:
        return parts + ["downstream: nothing else reads what changed"]
    rows = [[n["kind"], n["name"], " ".join(n["rule_ids"][:4]) + (" ..." if len(n["rule_ids"]) > 4 else ""), n["at"]]
            for n in d.downstream]
    return parts + [table(["kind", "name", "rule IDs", "at"], rows,
                          title=f"downstream: what the changes can affect ({len(d.downstream)})", keep=(3,))]


def cmd_graph(args) -> int:
    program = _load(args.path, args)
    g = rules_graph.build(program)
    print(rules_graph.to_dot(g) if args.format == "dot" else rules_graph.to_json(g))
    return 0


def cmd_dump(args) -> int:
    from rulewright.compiler.syntax.ast import dump       # (lazy)
    if args.stage == "ast":
        for f in parse_files(spec_files(args.path)):
            print(dump(f))
        return 0
    program = _load(args.path, args)
    print(Interpreter(program).python_source())
    return 0


def cmd_examples(args) -> int:
    """Run every worked example of the specs (the job: ``app.examples``): a table per spec,
    a row per example (ok or FAILS, its expectations that hold); each failing one with its
    expectations, the rulebook's number and the rules' side by side; exit 1 when one
    does not hold."""
    from rulewright.app import examples      # (lazy: the examples' modules)
    failed = 0
    report = []
    parts: list = []        # the text: tables and lines
    failing: list[str] = []
    for path in args.specs:
        for t in documenting.check_targets(path):
            found = examples.run_spec_examples(_load(t, args), t)
            parts += examples.left_out_lines(found)
            for run in found.runs:
                failed += not run.holds
                report.append(examples.example_data(t, run))
                if not run.holds:
                    failing += [""] + examples.example_lines(t, run)
            if found.runs:
                parts += [f"{t}: examples", _examples_table(found.runs), ""]
    if args.json:
        print(json.dumps(report, indent=1, ensure_ascii=False))
    elif not report:
        print("\n".join(parts + ["no examples in " + ", ".join(args.specs)]))
    else:
        from rulewright.cli import tables        # (rich draws the tables: loaded for the text only)
        tables.write(*parts, *failing[1:], *([""] if failing else []), examples.examples_total(len(report), failed))
    return 1 if failed else 0


def _examples_table(runs: list):
    """One spec's examples: a row each, ok or FAILS, and how many expectations hold."""
    from rulewright.cli.tables import table      # (rich: loaded with the first table)
    rows = [[run.name, run.title or run.name, "ok" if run.holds else "FAILS",
             f"{sum(e.holds for e in run.expectations)} of {len(run.expectations)}"] for run in runs]
    return table(["example", "title", "result", "expectations hold"], rows, right=(3,))


def cmd_docs(args) -> int:
    """The rules pages of the specs written in --out (the job: ``app.documenting``), a line
    per file written; with --measure, the house rules' effects measured first (a bar)."""
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {args.out}: a file, not a folder (the pages are written in a folder)")
    effects_file = Path(args.effects) if args.effects else out / "effects.json"
    if not args.effects and effects_file.is_symlink():
        # the folder's own effects file, in a folder that may be shared: never read through a link
        raise BadInputError(f"{effects_file}: a symbolic link: rulewright does not read the effects file of "
                            "--out through one (remove the link, or name the file with --effects FILE)")
    from rulewright.compiler.docgen import house        # (lazy: the pages' modules)
    effects = house.read_effects(effects_file) if effects_file.exists() else {}
    from rulewright.cli.tables import Bar, progress_wanted      # (the bar: loaded for docs only)
    with Bar("docs --measure", bool(args.measure) and progress_wanted(args)) as bar:
        made = documenting.make_pages(args.specs, lambda path: _load(path, args),
                                      langs=documenting.languages(args.lang), prove=not args.no_verify, effects=effects, measure=args.measure,
                                      skill_games=args.skill_games if args.measure else 0,
                                      progress=_restarting(bar), say=bar.say)
    written = documenting.write_pages(made, out, effects_file if args.measure else None,
                                      effects_inside=not args.effects)
    if args.json:
        print(json.dumps({"out": str(out), "written": [str(w) for w in written], "measured": made.measured},
                         indent=2, ensure_ascii=False))
    else:
        for w in written:
            print(f"wrote {w}")
    return 0


def _restarting(bar):
    """The bar told of each game; its time left starts again with each house rule's games
    (the fraction goes back to 0)."""
    last = [1.0]

    def told(what: str, fraction: float) -> None:
        if fraction < last[0]:
            bar.restart()
        last[0] = fraction
        bar.update(what, fraction)
    return told
