"""The commands about a spec itself, which need no solver: check, diff, graph, dump,
docs.

In:  parsed arguments. Out: text or JSON on stdout; exit 0, 1 (a spec error) or 2.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from rulewright.compiler import files as files_mod, graph as rules_graph, load
from rulewright.compiler.diagnostics import BadInputError, RulesError

from rulewright.cli.common import UsageError, _load, _overrides
from rulewright.compiler.loader import _Specs, parse_files, spec_files
from rulewright.compiler.interpret import Interpreter
# (the pages' modules, the examples' and the games' load with the commands that use them:
# check loads none of them)


# ------------------------------------------------------------------ commands
def guarantees_of(program, spec: str) -> dict[str, tuple[str, str]]:
    """Each property's status and sentence for the docs, as ``verify`` finds them."""
    if not program.properties:
        return {}
    # lazy: OR-Tools loads only when a spec has properties to prove
    from rulewright.solver.verify.run import verify
    report = verify(program, spec, {"property"}, time_limit=10.0, games=0)
    return {f.definition: (f.status, f.message) for f in report.findings if f.check == "property"}


def _check_targets(path: str) -> list[str]:
    """What ``check PATH`` compiles: a file as it is; a directory's own spec (its
    .rules files that are not variants), every variant file below it, and the specs
    of its subdirectories when it has no spec of its own."""
    p = Path(path)
    if not p.is_dir():
        return [path]
    specs = _Specs()
    out = []
    own = sorted(p.glob("*.rules"))
    variants = []
    for f in _within(path, sorted(p.rglob("*.rules"))):
        try:
            if specs.is_variant(f):
                variants.append(str(f))
        except RulesError:
            if f.parent != p:
                variants.append(str(f))          # reported when it is checked
    if any(str(f) not in variants for f in own):
        out.append(path)
    elif not own:
        for sub in sorted(d for d in p.iterdir() if d.is_dir()):
            if any(sub.glob("*.rules")):
                base = [f for f in sub.glob("*.rules") if str(f) not in variants]
                if base:
                    out.append(str(sub))
    out += [v for v in variants if v not in out]
    return sorted(set(out)) or [path]


def _within(named: str, found: list[Path]) -> list[Path]:
    """The .rules files found below a folder named on the command line (its variants),
    each of which must lie in the allowed folders: a symbolic link in a spec folder (a
    file, or a ``variants/`` folder) that leads out of them is refused, as a spec
    folder's own files are."""
    roots = files_mod.allowed([files_mod.tree_of(named)])
    for f in found:
        if not files_mod.inside(f, roots):
            raise BadInputError(f"{f}: a symbolic link that leads outside the allowed folders "
                                f"({files_mod.refusal_hint()})")
    return found


def cmd_check(args) -> int:
    """Specs compiled and checked (the job: ``app.checking``), printed: ``ok`` and the size of
    each, or its error (once when a variant fails where its base did); warnings on standard
    error; with ``--json`` all of it as data on standard output."""
    from rulewright.app.checking import check_specs     # (lazy, as every job below the commands)
    paths = [t for path in args.paths for t in _check_targets(path)]
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
        for w in c.warnings:
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


def variant_pages(path: str, args=None, loaded: dict | None = None) -> list[tuple[str, str]]:
    """(file name, Markdown) of the variants page of a spec directory (its variants
    below it) or of a directory of variants (one page for all). ``loaded``: programs
    already loaded, by path (each spec is loaded once)."""
    from rulewright.compiler.docgen import markup, variants_page     # (lazy: the pages' modules)
    sets = _overrides(args.set) if args is not None else {}
    loaded = {} if loaded is None else loaded

    def get(p: str):
        if p not in loaded:
            loaded[p] = load(p, sets)
        return loaded[p]

    targets = _check_targets(path)
    files = [t for t in targets if t.endswith(".rules") and t != path]
    if not files:
        return []
    entries = [(get(f), get(get(f).variants[-1].extends)) for f in files]
    base = [t for t in targets if not t.endswith(".rules")]
    if base:
        program = get(base[0])
        name = f"{program.name}_variants.md"
        title = f"{program.title}: variants"
        intro = (f"The versions of the game as variant files under {markup.code(path)}, generated by `rulewright docs`: "
                 "each with what it changes in the spec it extends, its rule IDs and what the change can affect.")
    else:
        name = f"{Path(path).name}.md"
        title = Path(path).name.replace("_", " ").capitalize()
        intro = (f"The variant files of {markup.code(path)}, generated by `rulewright docs`: each with what it changes in "
                 "the spec it extends, its rule IDs and what the change can affect.")
    links = None if base else {v.variants[-1].path: f"house_{Path(v.variants[-1].path).stem}.md" for v, _ in entries}
    return [(name, variants_page(title, intro, entries, links))]


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
        for t in _check_targets(path):
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


def languages(text: str | None) -> list[str]:
    """The languages of ``--lang`` (all four when not given)."""
    from rulewright.compiler.docgen.translations import LANGUAGES     # (lazy: the pages' modules)
    if not text:
        return list(LANGUAGES)
    langs = [x.strip() for x in text.split(",") if x.strip()]
    unknown = [x for x in langs if x not in LANGUAGES]
    if unknown:
        raise UsageError(f"--lang {','.join(unknown)}: not a language of the docs (they are "
                         f"{', '.join(LANGUAGES)})")
    return langs


def game_pages(program, spec: str, guarantees, langs: list[str]) -> dict[str, str]:
    """A game's pages (rulebook, reference, catalogue) in each language, its texts translated
    by the catalogues beside the spec."""
    from rulewright.compiler.docgen import rulebook                    # (lazy: the pages'
    from rulewright.compiler.docgen.translations import Translator    # modules)
    out: dict[str, str] = {}
    files = [f.path for f in program.files] + [v.path for v in program.variants]
    for lang in langs:
        out.update(rulebook.pages(program, program.name, lang, Translator.for_files(files, lang), guarantees))
    return out


def version_pages(path: str, args, loaded: dict) -> dict[str, str]:
    """The rulebook of each version of a game (its ``variants/`` files), in each language."""
    from rulewright.compiler.docgen import rulebook                    # (lazy: the pages'
    from rulewright.compiler.docgen.translations import Translator    # modules)
    p = Path(path)
    out: dict[str, str] = {}
    if not p.is_dir() or not (p / "variants").is_dir() or str(path) not in loaded:
        return out
    base = loaded[str(path)]
    for f in _within(path, sorted((p / "variants").glob("*.rules"))):
        program = loaded.get(str(f)) or _load(str(f), args)
        files = [x.path for x in program.files] + [v.path for v in program.variants]
        for lang in languages(args.lang):
            out.update(rulebook.variant_rulebook(program, base, base.name, f"{base.name}_{f.stem}", lang,
                                                 Translator.for_files(files, lang)))
    return out


def house_pages(path: str, args, loaded: dict, effects: dict) -> dict[str, str]:
    """A page per house rule of a directory of variants (one that is no game's own), in each
    language, with its measured effect where ``effects`` holds one for the rules as they are."""
    from rulewright.compiler.docgen import house                       # (lazy: the pages'
    from rulewright.compiler.docgen.translations import Translator    # modules)
    p = Path(path)
    out: dict[str, str] = {}
    if not p.is_dir() or any(not t.endswith(".rules") for t in _check_targets(path)):
        return out
    for f in sorted(p.glob("*.rules")):
        program = loaded.get(str(f)) or _load(str(f), args)
        base_path = program.variants[-1].extends
        base = loaded.get(base_path) or _load(base_path, args)
        loaded[base_path] = base
        effect = effects.get(f.name)
        if effect is not None and (effect.get("base"), effect.get("house")) != (house.fingerprint(base),
                                                                              house.fingerprint(program)):
            effect = None           # measured for rules that have changed since
        files = [x.path for x in program.files] + [v.path for v in program.variants]
        for lang in languages(args.lang):
            suffix = "" if lang == "en" else f".{lang}"
            out[f"house_{f.stem}{suffix}.md"] = house.house_page(program, base, lang,
                                                                 Translator.for_files(files, lang), effect)
    return out


def measure_effects(path: str, args, loaded: dict, effects: dict, games: int, bar=None) -> None:
    """Play ``games`` seeded games of each house rule of ``path`` and of its base game (only
    those whose rules changed since they were measured), into ``effects``; ``bar`` (a
    ``tables.Bar``, or None) told of each game."""
    from rulewright.compiler.docgen import house                       # (lazy: the pages' and
    from rulewright.compiler.play.simulate import simulate            # the games' modules)
    p = Path(path)
    if not p.is_dir() or any(not t.endswith(".rules") for t in _check_targets(path)):
        return
    for f in sorted(p.glob("*.rules")):
        program = loaded.get(str(f)) or _load(str(f), args)
        base_path = program.variants[-1].extends
        base = loaded.get(base_path) or _load(base_path, args)
        old = effects.get(f.name)
        if old is not None and old.get("games") == games and \
                (old.get("base"), old.get("house")) == (house.fingerprint(base), house.fingerprint(program)):
            continue
        said = f"measuring {f.name}: {games} games of the base game and of the house rule"
        bar.say(said) if bar is not None else print(said, file=sys.stderr)
        effect = house.measure(program, base, games, _told_simulate(simulate, bar, f.name, games), Interpreter)
        if effect is not None:
            effects[f.name] = effect


def _told_simulate(simulate, bar, name: str, games: int):
    """``simulate`` that tells ``bar`` of each game: the base game's, then the house rule's
    ("darwin_drought.rules: base game 3 of 20")."""
    if bar is None:
        return simulate
    sides = iter(("base game", "house rule"))
    bar.restart()           # (the time left: of this house rule's games)

    def told(interp, mode, players, seeds):
        side = next(sides, "house rule")
        first = side == "base game"

        def on_game(i, state):
            bar.update(f"{name}: {side} {i + 1} of {games}", ((0 if first else games) + i + 1) / (2 * games))
        return simulate(interp, mode, players, seeds, on_game=on_game)
    return told


def cmd_docs(args) -> int:
    from rulewright.compiler.docgen import house, markup, operators_page, variants_page   # (lazy: the pages')
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {args.out}: a file, not a folder (the pages are written in a folder)")
    loaded: dict = {}
    pages: list[tuple[str, str]] = []       # (file name, text): written once every spec has loaded
    effects_file = Path(args.effects) if args.effects else out / "effects.json"
    if not args.effects and effects_file.is_symlink():
        # the folder's own effects file, in a folder that may be shared: never read through a link
        raise BadInputError(f"{effects_file}: a symbolic link: rulewright does not read the effects file of "
                            "--out through one (remove the link, or name the file with --effects FILE)")
    effects = house.read_effects(effects_file) if effects_file.exists() else {}
    from rulewright.cli.tables import Bar, progress_wanted      # (the bar: loaded for docs only)
    with Bar("docs --measure", bool(args.measure) and progress_wanted(args)) as bar:
        for path in args.specs:
            if args.measure:
                measure_effects(path, args, loaded, effects, args.measure, bar)
    for path in args.specs:
        pages.extend(house_pages(path, args, loaded, effects).items())
        # the spec itself (a directory's own, or a one-file spec), then its variants' page
        specs = [t for t in _check_targets(path) if not t.endswith(".rules") or t == path]
        for t in specs:
            program = loaded[t] = _load(t, args)
            if program.variants:
                # a variant named alone: a page of what it changes in the spec it extends
                # (named with its directory, it is on that directory's variants page)
                base = program.variants[-1].extends
                if base not in loaded:
                    loaded[base] = _load(base, args)
                intro = (f"The variant file {markup.code(t)}, generated by `rulewright docs`: what it changes in the spec "
                         "it extends, its rule IDs and what the change can affect.")
                pages.append((f"{Path(t).stem}.md", variants_page(program.title, intro, [(program, loaded[base])])))
                continue
            pages.extend(game_pages(program, t, None if args.no_verify else guarantees_of(program, t),
                                    languages(args.lang)).items())
        pages.extend(variant_pages(path, args, loaded))
        pages.extend(version_pages(path, args, loaded).items())
    # (every file through the one writer: within --out, never through a symbolic link a
    # shared docs folder may hold; --out itself, and --effects, are the user's own)
    out.mkdir(parents=True, exist_ok=True)
    for name, text in pages:
        files_mod.write_text(out / name, text, inside=out)
        print(f"wrote {out / name}")
    files_mod.write_text(out / "operators.md", operators_page(), inside=out)
    print(f"wrote {out / 'operators.md'}")
    if args.measure:
        files_mod.write_text(effects_file, json.dumps(effects, indent=1, sort_keys=True, ensure_ascii=False)
                             + "\n", inside=None if args.effects else out)
        print(f"wrote {effects_file}")
    return 0
