"""A house rule -> its page: a card a table can print, and its measured effect.

In:  a house rule's program and the program it extends, a translator, and optionally the
     effect ``measure`` found (seeded games of the base game and of the house rule on the
     same seeds, kept in ``docs/rules/effects.json`` with the fingerprints of both specs).
Out: one Markdown page per house rule and language: its title and text, the rulebook
     rules it touches, what it changes (each change's own text, its code folded away),
     what that can affect, and, when measured for the specs as they are, the effect as
     pictures (the scores' spread and each seat's share of wins, base game against house
     rule). A page prints as one card (the site's print CSS).
"""
from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from rulewright.compiler import ir as I
from rulewright.compiler.diagnostics import BadInputError, Diagnostic, Span
from rulewright.compiler.play.inputs import decoded, json_too_deep, offset_span
from rulewright.compiler.play.state_io import locate
from rulewright.compiler.syntax import ast as A
from rulewright.compiler.docgen import markup as M
from rulewright.compiler.docgen import pictures as P
from rulewright.compiler.docgen.rulebook import folded, picture
from rulewright.compiler.docgen.translations import Translator, value_words
from rulewright.compiler.docgen.words import word
from rulewright.compiler.variants.diffing import diff

EFFECT_BINS = 8


# what a game plays never depends on these: a change to them leaves a measured effect current
_NOT_PLAYED = (A.Example, A.Property, A.Domain, A.Query, A.Section)


def fingerprint(program: I.Program) -> str:
    """What the rules a game is played with are made of: every definition but examples,
    properties, domains, queries and sections, and its tables' files."""
    h = hashlib.sha256()
    for name, d in sorted(program.definitions.items()):
        if not isinstance(d, _NOT_PLAYED):
            # the definition as the game plays it, a variant's changes included (its AST,
            # places as line:col only: moving a file changes nothing)
            h.update(f"{name}\0".encode() + A.dump(d).encode() + b"\0")
    for path in sorted(set(program.table_files.values())):
        try:
            h.update(Path(path).read_bytes())
        except OSError:
            h.update(b"?")
    return h.hexdigest()[:16]


def effect_mode(variant: I.Program, base: I.Program) -> tuple[str, int] | None:
    """The mode both play and the number of players an effect is measured with (4 where the
    mode allows it, else the nearest it does)."""
    for name, m in base.modes.items():
        if name in variant.modes:
            vm = variant.modes[name]
            lo, hi = max(m.min_players, vm.min_players), min(m.max_players, vm.max_players)
            if lo <= hi:
                return name, min(max(4, lo), hi)
    return None


def measure(variant: I.Program, base: I.Program, games: int, simulate, interpreter) -> dict | None:
    """The reports of ``games`` seeded games of the base game and of the house rule, on the
    same seeds, with the fingerprints of both specs. ``simulate`` and ``interpreter`` are
    the play package's (passed in: the pages are written without playing)."""
    chosen = effect_mode(variant, base)
    if chosen is None:
        return None
    mode, players = chosen
    seeds = list(range(games))
    sides = {}
    for side, program in (("base", base), ("house", variant)):
        summary = simulate(interpreter(program), mode, players, seeds)
        reports: dict = {}
        for game in summary.games_reports:
            for name, value in game.items():
                if isinstance(value, dict) and all(isinstance(v, int) for v in value.values()):
                    reports.setdefault(name, {"kind": "numbers", "values": []})["values"] += \
                        [int(v) for v in value.values()]
                elif isinstance(value, (set, frozenset, tuple, list)) and all(hasattr(s, "title") for s in value):
                    entry = reports.setdefault(name, {"kind": "seats", "values": {}})
                    for s in summary.seats:
                        if s.kind == "player":
                            entry["values"].setdefault(s.title, 0)
                    for s in value:
                        entry["values"][s.title] = entry["values"].get(s.title, 0) + 1
        sides[side] = reports
    return {"mode": mode, "players": players, "games": games, "base": fingerprint(base),
            "house": fingerprint(variant), "reports": sides}


def read_effects(path) -> dict:
    """The measured effects kept in ``path`` (``OUT/effects.json``, written by ``docs
    --measure``), checked to be what ``measure`` writes: a file name -> {mode, players,
    games, base, house, reports: {base, house: {report: {kind, values}}}}.

    The file sits in a docs folder that may be shared: it is read as any input file
    (a regular file, at most 8 MiB, UTF-8), and anything else in it (not JSON, nested
    too deep, NaN, a number where a text is, a key missing) is one ``BadInputError`` at
    its place in the file, with what to do (exit 2)."""
    most_nesting = 8            # the file nests 6 levels (the file, an effect, reports, a side, a report, values)
    most_int = 2 ** 63 - 1
    name = str(path)
    hint = ("this file keeps the measured effects of the house rules: delete it, or run "
            "'rulewright docs --measure N' to measure them again")
    text = decoded(name)        # (a regular file, the size limit, UTF-8: compiler.files)

    def fail(message: str, entry: tuple | None = None, span: Span | None = None):
        if span is None and entry:
            span = locate(name, text, entry)
        raise BadInputError(Diagnostic(span, message, hint) if span is not None else f"{name}: {message} ({hint})")

    deep = json_too_deep(text, most_nesting)
    if deep is not None:
        fail(f"JSON nested more than {most_nesting} levels deep: not an effects file",
             span=offset_span(name, text, deep))

    def constant(word: str):
        raise ValueError(word)
    try:
        doc = json.loads(text, parse_constant=constant)
    except json.JSONDecodeError as exc:
        fail(f"not valid JSON: {exc.msg}" if text.strip() else "the file is empty: not valid JSON",
             span=offset_span(name, text, exc.pos) if text.strip() else None)
    except ValueError as exc:
        word = str(exc)
        if word in ("NaN", "Infinity", "-Infinity"):
            found = re.search(re.escape(word), text)
            fail(f"{word} is not a number JSON writes (an effects file holds whole numbers)",
                 span=offset_span(name, text, found.start()) if found else None)
        fail("it holds a number of thousands of digits: not an effects file")

    def kind(value) -> str:
        return ("true or false" if isinstance(value, bool) else "a number" if isinstance(value, (int, float))
                else "a text" if isinstance(value, str) else "a list" if isinstance(value, list)
                else "an object" if isinstance(value, dict) else "null")

    def shown(entry: tuple) -> str:
        return "".join(f"[{json.dumps(k, ensure_ascii=False)[:80]}]" for k in entry)

    def need(value, entry: tuple, what: str, ok) -> None:
        if not ok(value):
            fail(f"{shown(entry) or 'the file'} is {kind(value)}, not {what}", entry or None)

    def whole(least: int):
        return lambda v: isinstance(v, int) and not isinstance(v, bool) and least <= v <= most_int

    def has(obj: dict, key: str, entry: tuple) -> object:
        if key not in obj:
            fail(f"{shown(entry) or 'the file'} has no entry \"{key}\"", entry or None)
        return obj[key]

    need(doc, (), "an object of house rule files and their effects", lambda v: isinstance(v, dict))
    for house_file, effect in doc.items():
        e = (house_file,)
        need(effect, e, "an object (the effect of a house rule)", lambda v: isinstance(v, dict))
        for key, what, ok in (("mode", "a mode's name (a text)", lambda v: isinstance(v, str)),
                              ("players", "a number of players", whole(1)),
                              ("games", "a number of games", whole(1)),
                              ("base", "a fingerprint (a text)", lambda v: isinstance(v, str)),
                              ("house", "a fingerprint (a text)", lambda v: isinstance(v, str)),
                              ("reports", "an object of the two sides, base and house",
                               lambda v: isinstance(v, dict))):
            need(has(effect, key, e), e + (key,), what, ok)
        for side in ("base", "house"):
            reports = has(effect["reports"], side, e + ("reports",))
            r = e + ("reports", side)
            need(reports, r, "an object of reports", lambda v: isinstance(v, dict))
            for report, entry in reports.items():
                where = r + (report,)
                need(entry, where, "an object (a report's kind and values)", lambda v: isinstance(v, dict))
                found = has(entry, "kind", where)
                if found not in ("numbers", "seats"):
                    fail(f"{shown(where + ('kind',))} is {json.dumps(found, ensure_ascii=False)[:80]}, not "
                         "\"numbers\" or \"seats\"", where + ("kind",))
                values = has(entry, "values", where)
                v = where + ("values",)
                if found == "numbers":
                    need(values, v, "a list of whole numbers", lambda x: isinstance(x, list))
                    for i, n in enumerate(values):
                        need(n, v + (i,), "a whole number", lambda x: whole(-most_int)(x))
                else:
                    need(values, v, "an object of seats and numbers of games", lambda x: isinstance(x, dict))
                    for seat, n in values.items():
                        need(n, v + (seat,), "a number of games", whole(0))
    return doc


def effect_pictures(effect: dict, lang: str, base_title: str, house_title: str, tr=None) -> list[str]:
    out: list[str] = []

    def value_words(name: str) -> str:      # a report's name, as the spec's catalogue names it
        return tr(f"name {name}", name.replace("_", " ")) if tr is not None else name.replace("_", " ")
    base, house = effect["reports"]["base"], effect["reports"]["house"]
    for name in base:
        if name not in house or base[name]["kind"] != house[name]["kind"]:
            continue
        if base[name]["kind"] == "numbers":
            values = base[name]["values"] + house[name]["values"]
            if not values:
                continue
            lo, hi = min(values), max(values)
            width = max(1, -(-(hi - lo + 1) // EFFECT_BINS))
            groups = {}
            for title, side in ((base_title, base), (house_title, house)):
                counts: dict[str, float] = {}
                for k in range(EFFECT_BINS):
                    start = lo + k * width
                    if start > hi:
                        break
                    label = f"{start}–{start + width - 1}" if width > 1 else str(start)
                    n = sum(1 for v in side[name]["values"] if start <= v < start + width)
                    counts[label] = n / max(1, len(side[name]["values"]))
                groups[title] = counts
            out += picture(P.bars_svg(groups, title=word(lang, "effect_spread", name=value_words(name)),
                                      x_label=value_words(name), y_label=word(lang, "share"), percent=True))
        else:
            groups = {title: {seat: n / effect["games"] for seat, n in side[name]["values"].items()}
                      for title, side in ((base_title, base), (house_title, house))}
            out += picture(P.bars_svg(groups, title=word(lang, "effect_shares", name=value_words(name)),
                                      x_label=word(lang, "seats"), y_label=word(lang, "share"), percent=True))
    return out


def house_page(variant: I.Program, base: I.Program, lang: str, tr: Translator, effect: dict | None) -> str:
    info = variant.variants[-1]
    v = info.name
    title = tr(f"{v}/title variant", info.title) if info.title else value_words(v)
    out = [f"# {M.text(title)}", ""]
    out += [f"*{word(lang, 'house_of', game=M.text(tr('title ' + base.name, base.title)))}* · "
            f"{M.code(Path(info.path).name)}", ""]
    if info.doc:
        out += [M.prose(tr(f"{v}/doc variant", info.doc)), ""]
    if info.rule_ids:
        out += [f"{word(lang, 'rule_ids')}: " + " ".join(M.code(t) for t in info.rule_ids), ""]
    d = diff(base, variant)
    for heading, entries in (("changes", d.changed), ("additions", d.added), ("removals", d.removed)):
        if not entries:
            continue
        out += [f"## {word(lang, heading)}", ""]
        for e in entries:
            doc = e.doc
            if doc:
                key = f"{v}/doc {'remove ' if e.after is None else ''}{e.name}"
                doc = tr(key, doc)
            name = tr(f"{v}/name {e.name}", value_words(e.name.split(".")[-1]))
            out.append(f"- **{M.text(name)}** ({M.code(f'{e.kind} {e.name}')})"
                       + (f": {M.prose(' '.join(doc.split()))}" if doc else ""))
        out.append("")
        code = ["\n".join(M.fence(e.after.text, "rules")) for e in entries if e.after is not None]
        if code:
            out += folded(word(lang, "code"), code)
    if d.downstream:
        # (a long list on screen; the printed card leaves it out)
        out += ['<div class="rw-affects" markdown="1">', "", f"## {word(lang, 'affects')}", "",
                ", ".join(M.code(x['name']) for x in d.downstream), "", "</div>", ""]
    out += [f"## {word(lang, 'effect')}", ""]
    if effect is None:
        out += [word(lang, "not_measured"), ""]
    else:
        out += [word(lang, "measured", games=M.text(effect["games"]), players=M.text(effect["players"]),
                     mode=M.text(value_words(str(effect["mode"])))), ""]
        out += effect_pictures(effect, lang, word(lang, "base_game"), title, tr)
    return M.page("\n".join(out).rstrip() + "\n")
