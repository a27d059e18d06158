"""Documenting: the rules pages of specs, in Markdown, in each language: a game's rulebook,
reference and catalogue, each version's rulebook, the variants' pages, a page per house
rule with its measured effect, and the operators' page.

In:  the specs named (folders, variant files, shipped names), how to open one (the
     face's request: its settings, tables and variants), the languages, whether to prove
     the properties the rulebook states, the house rules' measured effects and how many
     games to measure them with, ``progress(what, fraction)`` and ``say(line)`` callbacks.
Out: ``Pages``: (file name, Markdown) pairs and the effects measured; ``write_pages``
     writes them into a folder (``files.write_text``: never through a symbolic link).
     What a path names (``check_targets``) is shared with check and examples.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from rulewright.compiler import files as files_mod
from rulewright.compiler.diagnostics import BadInputError, RulesError
from rulewright.compiler.loader import _Specs


def check_targets(path: str) -> list[str]:
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
    for f in within(path, sorted(p.rglob("*.rules"))):
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


def within(named: str, found: list[Path]) -> list[Path]:
    """The .rules files found below a folder the user named (its variants), each of which
    must lie in the allowed folders: a symbolic link in a spec folder (a file, or a
    ``variants/`` folder) that leads out of them is refused, as a spec folder's own files
    are."""
    roots = files_mod.allowed([files_mod.tree_of(named)])
    for f in found:
        if not files_mod.inside(f, roots):
            raise BadInputError(f"{f}: a symbolic link that leads outside the allowed folders "
                                f"({files_mod.refusal_hint()})")
    return found


def guarantees_of(program, spec: str) -> dict[str, tuple[str, str]]:
    """Each property's status and sentence for the docs, as ``verify`` finds them."""
    if not program.properties:
        return {}
    # lazy: OR-Tools loads only when a spec has properties to prove
    from rulewright.solver.verify.run import verify
    report = verify(program, spec, {"property"}, time_limit=10.0, games=0)
    return {f.definition: (f.status, f.message) for f in report.findings if f.check == "property"}


def languages(text: str | None, option: str = "--lang") -> list[str]:
    """The languages named (comma-separated; all four when none are)."""
    from rulewright.compiler.docgen.translations import LANGUAGES     # (lazy: the pages' modules)
    if not text:
        return list(LANGUAGES)
    langs = [x.strip() for x in text.split(",") if x.strip()]
    unknown = [x for x in langs if x not in LANGUAGES]
    if unknown:
        raise BadInputError(f"{option} {','.join(unknown)}: not a language of the docs (they are "
                            f"{', '.join(LANGUAGES)})")
    return langs


@dataclass
class Pages:
    """The pages made (file name, Markdown), in order, and the house rules' effects (those
    read, and those measured now: ``measured``)."""
    pages: list[tuple[str, str]] = field(default_factory=list)
    effects: dict = field(default_factory=dict)
    measured: list[str] = field(default_factory=list)


class _Loaded(dict):
    """Programs by path, each opened once (``open_one(path)``: with the face's settings)."""

    def __init__(self, open_one: Callable[[str], object]):
        super().__init__()
        self.open_one = open_one

    def get_or_open(self, path: str):
        if path not in self:
            self[path] = self.open_one(path)
        return self[path]


def make_pages(specs: list[str], open_one: Callable[[str], object], *, langs: list[str], prove: bool = True,
               effects: dict | None = None, measure: int = 0, skill_games: int = 0,
               progress: Callable[[str, float], None] | None = None,
               say: Callable[[str], None] | None = None) -> Pages:
    """The pages of ``specs``: each spec opened with ``open_one(path)``; ``prove``: the
    properties the rulebook states proved (``verify``); ``effects``: the house rules'
    effects measured before; ``measure``: games to measure each house rule whose rules
    changed since (0: none) and ``skill_games`` of a greedy seat, each game told to
    ``progress`` and each study to ``say``."""
    from rulewright.compiler.docgen import markup, variants_page       # (lazy: the pages' modules)
    loaded = _Loaded(open_one)
    made = Pages(effects=dict(effects or {}))
    for path in specs if measure else ():
        made.measured += _measure_effects(path, loaded, made.effects, measure, skill_games, progress, say)
    for path in specs:
        made.pages.extend(house_pages(path, loaded, made.effects, langs).items())
        # the spec itself (a directory's own, or a one-file spec), then its variants' page
        for t in [t for t in check_targets(path) if not t.endswith(".rules") or t == path]:
            program = loaded[t] = open_one(t)
            if program.variants:
                # a variant named alone: a page of what it changes in the spec it extends
                # (named with its directory, it is on that directory's variants page)
                base = loaded.get_or_open(program.variants[-1].extends)
                intro = (f"The variant file {markup.code(t)}, generated by `rulewright docs`: what it changes in the "
                         "spec it extends, its rule IDs and what the change can affect.")
                made.pages.append((f"{Path(t).stem}.md", variants_page(program.title, intro, [(program, base)])))
                continue
            made.pages.extend(game_pages(program, guarantees_of(program, t) if prove else None, langs).items())
        made.pages.extend(variant_pages(path, loaded))
        made.pages.extend(version_pages(path, loaded, langs).items())
    return made


def write_pages(made: Pages, out: Path, effects_file: Path | None = None, *, effects_inside: bool = True) -> list[Path]:
    """The pages written in ``out`` (made if needed), then the operators' page, then the
    effects to ``effects_file`` (when given: after measuring): every file through the one
    writer, within ``out`` and never through a symbolic link a shared docs folder may
    hold (the effects file named by the user is theirs: ``effects_inside`` False)."""
    from rulewright.compiler.docgen import operators_page       # (lazy: the pages' modules)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in made.pages + [("operators.md", operators_page())]:
        files_mod.write_text(out / name, text, inside=out)
        written.append(out / name)
    if effects_file is not None:
        files_mod.write_text(effects_file, json.dumps(made.effects, indent=1, sort_keys=True, ensure_ascii=False)
                             + "\n", inside=out if effects_inside else None)
        written.append(effects_file)
    return written


def game_pages(program, guarantees, langs: list[str]) -> dict[str, str]:
    """A game's pages (rulebook, reference, catalogue) in each language, its texts translated
    by the catalogues beside the spec."""
    from rulewright.compiler.docgen import rulebook                    # (lazy: the pages'
    from rulewright.compiler.docgen.translations import Translator    # modules)
    out: dict[str, str] = {}
    files = [f.path for f in program.files] + [v.path for v in program.variants]
    for lang in langs:
        out.update(rulebook.pages(program, program.name, lang, Translator.for_files(files, lang), guarantees))
    return out


def variant_pages(path: str, loaded: _Loaded) -> list[tuple[str, str]]:
    """(file name, Markdown) of the variants page of a spec directory (its variants
    below it) or of a directory of variants (one page for all)."""
    from rulewright.compiler.docgen import markup, variants_page     # (lazy: the pages' modules)
    targets = check_targets(path)
    found = [t for t in targets if t.endswith(".rules") and t != path]
    if not found:
        return []
    entries = [(loaded.get_or_open(f), loaded.get_or_open(loaded.get_or_open(f).variants[-1].extends))
               for f in found]
    base = [t for t in targets if not t.endswith(".rules")]
    if base:
        program = loaded.get_or_open(base[0])
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


def version_pages(path: str, loaded: _Loaded, langs: list[str]) -> dict[str, str]:
    """The rulebook of each version of a game (its ``variants/`` files), in each language."""
    from rulewright.compiler.docgen import rulebook                    # (lazy: the pages'
    from rulewright.compiler.docgen.translations import Translator    # modules)
    p = Path(path)
    out: dict[str, str] = {}
    if not p.is_dir() or not (p / "variants").is_dir() or str(path) not in loaded:
        return out
    base = loaded[str(path)]
    for f in within(path, sorted((p / "variants").glob("*.rules"))):
        program = loaded.get_or_open(str(f))
        files = [x.path for x in program.files] + [v.path for v in program.variants]
        for lang in langs:
            out.update(rulebook.variant_rulebook(program, base, base.name, f"{base.name}_{f.stem}", lang,
                                                 Translator.for_files(files, lang)))
    return out


def _house_rules(path: str) -> list[Path]:
    """The house rules of a directory of variants (one that is no game's own), or none."""
    p = Path(path)
    if not p.is_dir() or any(not t.endswith(".rules") for t in check_targets(path)):
        return []
    return sorted(p.glob("*.rules"))


def house_pages(path: str, loaded: _Loaded, effects: dict, langs: list[str]) -> dict[str, str]:
    """A page per house rule of a directory of variants, in each language, with its
    measured effect where ``effects`` holds one for the rules as they are."""
    from rulewright.compiler.docgen import house                       # (lazy: the pages'
    from rulewright.compiler.docgen.translations import Translator    # modules)
    out: dict[str, str] = {}
    for f in _house_rules(path):
        program = loaded.get_or_open(str(f))
        base = loaded.get_or_open(program.variants[-1].extends)
        effect = effects.get(f.name)
        if effect is not None and (effect.get("base"), effect.get("house")) != (house.fingerprint(base),
                                                                              house.fingerprint(program)):
            effect = None           # measured for rules that have changed since
        files = [x.path for x in program.files] + [v.path for v in program.variants]
        for lang in langs:
            suffix = "" if lang == "en" else f".{lang}"
            out[f"house_{f.stem}{suffix}.md"] = house.house_page(program, base, lang,
                                                                 Translator.for_files(files, lang), effect)
    return out


def _measure_effects(path: str, loaded: _Loaded, effects: dict, games: int, skill_games: int, progress,
                     say) -> list[str]:
    """A balance study (``app.house_effects``) of each house rule of ``path`` whose rules
    changed since it was measured (or with other numbers of games), against its base game:
    ``games`` games of each rule set and ``skill_games`` games of a greedy seat among random
    ones, into ``effects``. The names of the house rules measured."""
    from rulewright.app import house_effects                            # (lazy: the games'
    from rulewright.compiler.docgen import house                        # and the pages' modules)
    todo = []
    for f in _house_rules(path):
        program = loaded.get_or_open(str(f))
        extends = program.variants[-1].extends
        base = loaded.get_or_open(extends)
        old = effects.get(f.name)
        if old is not None and (old.get("games"), old.get("skill_games")) == (games, skill_games) and \
                (old.get("base"), old.get("house")) == (house.fingerprint(base), house.fingerprint(program)):
            continue
        todo.append((f.name, program, str(extends), base))
    if not todo:
        return []
    if say is not None:
        say(f"measuring {len(todo)} house rule(s) of {path}: {games} games of each and of the base game"
            + (f", {skill_games} skill games of each" if skill_games else ""))
    found = house_effects.measure(todo, games, skill_games, house.effect_mode, house.fingerprint, progress)
    effects.update(found)
    return sorted(found)


__all__ = ["Pages", "check_targets", "game_pages", "guarantees_of", "house_pages", "languages", "make_pages",
           "variant_pages", "version_pages", "within", "write_pages"]
