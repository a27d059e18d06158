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
            # the definition as the game plays it, a variant's changes included (its AST
            # without places, doc comments or titles: moving or rewording changes nothing)
            h.update(f"{name}\0".encode() + A.dump(d, played=True).encode() + b"\0")
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


def read_effects(path) -> dict:
    """The measured effects kept in ``path`` (``OUT/effects.json``, written by ``docs
    --measure``), checked to be what ``app.house_effects`` writes: a file name -> {mode,
    players, games, skill_games, strong, weak, base, house, figures: [{figure, seat, share,
    base, house, difference, clear}], scores: {base, house: {score: seats}}, rules: [{rule,
    base, house, difference}]}.

    The file sits in a docs folder that may be shared: it is read as any input file
    (a regular file, at most 8 MiB, UTF-8), and anything else in it (not JSON, nested
    too deep, NaN, a number where a text is, a key missing) is one ``BadInputError`` at
    its place in the file, with what to do (exit 2)."""
    most_nesting = 8            # the file nests 5 levels (the file, an effect, figures, a figure, an interval)
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

    def number(v) -> bool:
        return isinstance(v, (int, float)) and not isinstance(v, bool) and abs(v) <= most_int

    def triple(v) -> bool:          # [value, low, high], or null
        return v is None or (isinstance(v, list) and len(v) == 3 and all(number(x) for x in v))

    need(doc, (), "an object of house rule files and their effects", lambda v: isinstance(v, dict))
    for house_file, effect in doc.items():
        e = (house_file,)
        need(effect, e, "an object (the effect of a house rule)", lambda v: isinstance(v, dict))
        for key, what, ok in (("mode", "a mode's name (a text)", lambda v: isinstance(v, str)),
                              ("players", "a number of players", whole(1)),
                              ("games", "a number of games", whole(1)),
                              ("skill_games", "a number of games", whole(0)),
                              ("strong", "a bot's name (a text)", lambda v: isinstance(v, str)),
                              ("weak", "a bot's name (a text)", lambda v: isinstance(v, str)),
                              ("base", "a fingerprint (a text)", lambda v: isinstance(v, str)),
                              ("house", "a fingerprint (a text)", lambda v: isinstance(v, str)),
                              ("figures", "a list of figures", lambda v: isinstance(v, list)),
                              ("scores", "an object of the two sides, base and house", lambda v: isinstance(v, dict)),
                              ("rules", "a list of rules", lambda v: isinstance(v, list))):
            need(has(effect, key, e), e + (key,), what, ok)
        for i, f in enumerate(effect["figures"]):
            where = e + ("figures", i)
            need(f, where, "an object (a figure)", lambda v: isinstance(v, dict))
            found = has(f, "figure", where)
            if found not in FIGURES:
                fail(f"{shown(where + ('figure',))} is {json.dumps(found, ensure_ascii=False)[:80]}, not one of "
                     + ", ".join(FIGURES), where + ("figure",))
            need(has(f, "seat", where), where + ("seat",), "a seat's number (0: none)", whole(0))
            for key in ("share", "clear"):
                need(has(f, key, where), where + (key,), "true or false", lambda v: isinstance(v, bool))
            for key in ("base", "house", "difference"):
                need(has(f, key, where), where + (key,), "[value, low, high] or null", triple)
        for side in ("base", "house"):
            counts = has(effect["scores"], side, e + ("scores",))
            where = e + ("scores", side)
            need(counts, where, "an object of scores and numbers of seats", lambda v: isinstance(v, dict))
            for score, n in counts.items():
                if not re.fullmatch(r"-?[0-9]{1,19}", score):
                    fail(f"{shown(where)} has the key {json.dumps(score, ensure_ascii=False)[:80]}, not a whole "
                         "number (a score)", where + (score,))
                need(n, where + (score,), "a number of seats", whole(0))
        for i, r in enumerate(effect["rules"]):
            where = e + ("rules", i)
            need(r, where, "an object (a rule)", lambda v: isinstance(v, dict))
            need(has(r, "rule", where), where + ("rule",), "a rule ID (a text)", lambda v: isinstance(v, str))
            for key in ("base", "house"):
                need(has(r, key, where), where + (key,), "a number", number)
            need(has(r, "difference", where), where + ("difference",), "[value, low, high]",
                 lambda v: v is not None and triple(v))
    return doc


# the key figures of a study, in the order a page lists them
FIGURES = ("seat_wins", "seat_score", "score", "margin", "ties", "choices", "lead_changes", "half_leader_wins",
           "skill")


def _number(x: float, share: bool, signed: bool = False, lang: str = "en") -> str:
    """A figure as a page writes it: a share in percent (a difference of shares in points),
    one decimal."""
    if share:
        x *= 100
    s = f"{x:+.1f}" if signed else f"{x:.1f}" if share or abs(x) < 100 else f"{x:.0f}"
    if round(x, 1) == 0:
        s = s.lstrip("+-")      # (no "+0.0" or "-0.0")
    return s + (word(lang, "points_unit") if share and signed else "%" if share else "")


def _cell(t: list | None, share: bool, lang: str, signed: bool = False) -> str:
    """A figure with its interval: ``26.3% (24.1% to 28.6%)``."""
    if t is None:
        return "–"
    value, low, high = (_number(x, share, signed, lang) for x in t)
    return value if t[1] == t[2] else f"{value} ({word(lang, 'to_range', low=low, high=high)})"


def _figure_words(f: dict, effect: dict, lang: str) -> str:
    key = f"fig_{f['figure']}"
    return word(lang, key, seat=f["seat"], strong=word(lang, f"bot_{effect['strong']}", default=effect["strong"]),
                weak=word(lang, f"bot_{effect['weak']}", default=effect["weak"]), fair=_number(1 / effect["players"], True))


def effect_section(effect: dict, lang: str, base_title: str, house_title: str) -> list[str]:
    """The measured effect on a house rule's page: what was played, each seat's share of wins
    with its interval and the scores' spread as pictures, then the key figures (each rule
    set's with its 99% interval, the difference game by game, clear or not) and the rules
    that ran more or less often (left out of the printed card)."""
    skill = word(lang, "measured_skill", games=M.text(effect["skill_games"]),
                 strong=word(lang, f"bot_{effect['strong']}", default=effect["strong"]),
                 weak=word(lang, f"bot_{effect['weak']}", default=effect["weak"])) if effect["skill_games"] else ""
    out = [word(lang, "measured", games=M.text(effect["games"]), players=M.text(effect["players"]),
                mode=M.text(value_words(str(effect["mode"])))) + skill + word(lang, "full_stop"), ""]
    wins = [f for f in effect["figures"] if f["figure"] == "seat_wins"]
    groups, intervals = {}, {}
    for title, side in ((base_title, "base"), (house_title, "house")):
        groups[title] = {}
        for f in wins:
            if f[side] is not None:
                seat = word(lang, "seat_n", n=f["seat"])
                groups[title][seat] = f[side][0]
                intervals[title, seat] = (f[side][1], f[side][2])
    if wins:
        out += picture(P.bars_svg(groups, title=word(lang, "effect_wins"), x_label=word(lang, "seats"),
                                  y_label=word(lang, "share_wins"), percent=True, intervals=intervals))
    scores = effect["scores"]
    values = [int(k) for side in ("base", "house") for k in scores[side]]
    if values:
        lo, hi = min(values), max(values)
        width = max(1, -(-(hi - lo + 1) // EFFECT_BINS))
        spread = {}
        for title, side in ((base_title, "base"), (house_title, "house")):
            total = max(1, sum(scores[side].values()))
            counts: dict[str, float] = {}
            for k in range(EFFECT_BINS):
                start = lo + k * width
                if start > hi:
                    break
                label = f"{start}–{start + width - 1}" if width > 1 else str(start)
                counts[label] = sum(n for v, n in scores[side].items() if start <= int(v) < start + width) / total
            spread[title] = counts
        out += picture(P.bars_svg(spread, title=word(lang, "scores_spread"), x_label=word(lang, "final_scores"),
                                  y_label=word(lang, "share_seats"), percent=True))
    # (the figures in full: on screen; the printed card keeps the sentence and the pictures)
    out += ['<div class="rw-study" markdown="1">', "", word(lang, "measured_how"), ""]
    head = [word(lang, "fig_figure"), M.text(base_title), M.text(house_title), word(lang, "difference")]
    rows = []
    for f in effect["figures"]:
        diff = _cell(f["difference"], f["share"], lang, signed=True)
        rows.append([M.text(_figure_words(f, effect, lang)), _cell(f["base"], f["share"], lang),
                     _cell(f["house"], f["share"], lang), f"**{diff}**" if f["clear"] else diff])
    out += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(r) + " |" for r in rows] + [""]
    out += [f"### {word(lang, 'rules_affected')}", ""]
    if not effect["rules"]:
        out += [word(lang, "no_rule_clear"), ""]
    for r in effect["rules"]:
        d = r["difference"]
        out.append(f"- {M.code(r['rule'])}: " + word(lang, "rule_runs", base=_number(r["base"], False),
                                                      house=_number(r["house"], False),
                                                      diff=_cell(d, False, lang, signed=True)))
    return out + ["", "</div>", ""]


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
        out += effect_section(effect, lang, word(lang, "base_game"), title)
    return M.page("\n".join(out).rstrip() + "\n")
