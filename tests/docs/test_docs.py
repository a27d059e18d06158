"""The documentation: generated rules pages are up to date and the site builds strictly."""

import pytest

from rulewright.compiler.syntax import ast as A
from rulewright.compiler import load
from helpers import ROOT, run_command


DOC_SPECS = ("spec/ecosystem_savanna", "spec/darwins_choice", "spec/house_rules")


def test_rules_pages_are_current(tmp_path, update_golden):
    """docs/rules holds exactly what `rulewright docs` writes for the shipped specs, in the
    four languages (the rulebook, reference and catalogue of each game, each version's
    rulebook, the variants' and operators' pages); a stale page fails."""
    out = tmp_path / "rules"
    proc = run_command("docs", *DOC_SPECS, "--out", str(out),
                       "--effects", "docs/rules/effects.json", cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    written = {p.name: p.read_text(encoding="utf-8") for p in out.glob("*.md")}
    assert {"ecosystem_savanna.md", "ecosystem_savanna.fr.md", "darwins_choice.zh.md", "darwins_choice_kids.es.md",
            "darwins_choice_catalogue.md", "ecosystem_savanna_reference.fr.md", "house_rules.md"} <= set(written)
    committed_dir = ROOT / "docs" / "rules"
    if update_golden:
        for old in committed_dir.glob("*.md"):
            old.unlink()
        for name, text in written.items():
            (committed_dir / name).write_text(text, encoding="utf-8")
    committed = {p.name: p.read_text(encoding="utf-8") for p in committed_dir.glob("*.md")}
    assert sorted(committed) == sorted(written), "docs/rules is stale: run rulewright docs " + " ".join(DOC_SPECS)
    stale = [n for n in written if committed[n] != written[n]]
    assert not stale, f"docs/rules is stale ({stale[:5]}): run rulewright docs " + " ".join(DOC_SPECS)


def test_every_house_rule_has_its_effect_measured_for_the_rules_as_they_are():
    """docs/rules/effects.json holds, for every house rule, games played on the rules as they
    are now (the fingerprints of both specs): a change to a house rule or its game makes its
    effect stale, and its page would say 'not measured'."""
    import json
    from rulewright.compiler.docgen import house
    effects = json.loads((ROOT / "docs" / "rules" / "effects.json").read_text(encoding="utf-8"))
    stale = []
    for path in sorted((ROOT / "spec" / "house_rules").glob("*.rules")):
        program = load(path)
        base = load(program.variants[-1].extends)
        e = effects.get(path.name)
        if e is None or (e["base"], e["house"]) != (house.fingerprint(base), house.fingerprint(program)):
            stale.append(path.name)
        else:
            # a study: its games, the skill games, every key figure of both rule sets
            assert e["games"] >= 200 and e["skill_games"] >= 4 and set(e["scores"]) == {"base", "house"}
            assert {f["figure"] for f in e["figures"]} == set(house.FIGURES), e["figures"]
            assert all(f["house"] is not None for f in e["figures"] if f["figure"] != "half_leader_wins")
    assert not stale, (f"effects not measured for the rules as they are: {stale}; run rulewright docs "
                       + " ".join(DOC_SPECS) + " --out docs/rules --measure 200 --skill-games 4")


@pytest.mark.parametrize("spec", DOC_SPECS)
@pytest.mark.parametrize("lang", ["fr", "es", "zh"])
def test_every_player_facing_text_has_a_current_translation(spec, lang):
    from rulewright.cli.translate import spec_texts
    from rulewright.compiler.docgen import translations as tr
    texts = spec_texts(ROOT / spec)
    status = tr.status(tr.load_catalogue(ROOT / spec, lang), texts, lang)
    assert len(texts) > 50
    assert not status.missing, f"{spec} [{lang}]: no translation for {status.missing[:8]} (rulewright translations)"
    assert not status.stale, f"{spec} [{lang}]: the English changed since {status.stale[:8]} was translated"
    assert not status.broken, f"{spec} [{lang}]: translations that lose or add a {{placeholder}}: {status.broken[:8]}"


def test_the_rulebook_shows_a_guarantee_with_its_status():
    from rulewright.compiler.docgen import rulebook
    from rulewright.compiler.docgen.translations import Translator
    program = load(ROOT / "spec" / "ecosystem_savanna")
    name = next(iter(program.properties))
    page = rulebook.pages(program, "g", "en", Translator("en"), {name: ("PROVED", "")})["g.md"]
    assert "**Status**: Proved: the solver went through every case" in page
    broken = rulebook.pages(program, "g", "fr", Translator.for_spec(ROOT / "spec" / "ecosystem_savanna", "fr"),
                            {name: ("COUNTEREXAMPLE", "this grid scores -2")})["g.fr.md"]
    assert "Enfreint : le solveur a trouvé un cas qui l'enfreint (`this grid scores -2`)" in broken
    assert "Not verified in this build." in rulebook.pages(program, "g", "en", Translator("en"))["g.md"]


def test_the_rulebook_goes_in_the_order_of_play_and_folds_the_code_away():
    from rulewright.compiler.docgen import rulebook
    from rulewright.compiler.docgen.translations import Translator
    program = load(ROOT / "spec" / "ecosystem_savanna")
    page = rulebook.pages(program, "g", "en", Translator("en"))["g.md"]
    order = ["## At a glance", "## Components", "## How a game goes", "## Playing", "## Scoring",
             "## End of the game", "## Guarantees", "## Readings of the rulebook", "## Variants"]
    places = [page.index(h) for h in order]
    assert places == sorted(places)
    assert page.index("{ #d-draft-game }") < page.index("{ #d-draft-round }")   # the order the mode calls them
    assert "??? abstract \"Rule IDs and the rule's code\"" in page and '    <div class="rw-code" markdown="0" data-search-exclude="code">' in page
    assert page.count("<svg") >= 5                                      # the flow and the cells a card sees
    assert "Where a cheetah hunts: The gazelles a cheetah" in page        # each relation once, named
    assert page.count('aria-label="What the lion card looks at"') + page.count('aria-label="What the water card looks at"') == 1
    assert "[An allowed cell for the card](g_reference.md#d-can-place)" in page      # a rule it uses, by its title


def test_catalogue_shows_names_not_python_values():
    from rulewright.compiler.docgen import rulebook
    from rulewright.compiler.docgen.translations import Translator
    program = load(ROOT / "spec" / "darwins_choice")
    page = rulebook.pages(program, "g", "fr", Translator.for_spec(ROOT / "spec" / "darwins_choice", "fr"))["g_catalogue.fr.md"]
    assert "None" not in page and "('" not in page and "frozenset" not in page
    assert "rulebook-example" in page and "reconstructed" in page        # each card says where its values come from
    assert page.count("| ") > 237


def spec_rule_ids(program) -> set[str]:
    return {t for d in program.definitions.values() for t in A.tagged_ids(d)}


def test_rule_ids_exist_and_cover_the_rulebook():
    # tests/data/rule_ids.txt: every rule ID of the rules inventory (DC-*, ES-*).
    known = set((ROOT / "tests" / "data" / "rule_ids.txt").read_text().split())
    program = load(ROOT / "spec" / "ecosystem_savanna")
    ids = spec_rule_ids(program)
    assert not sorted(ids - known), "rule IDs that the inventory does not have"
    # the base game and its variants (two players, solo)
    text = "\n".join(p.read_text() for p in (ROOT / "spec" / "ecosystem_savanna").rglob("*.rules"))
    uncovered = sorted(i for i in known if i.startswith("ES-") and i not in text)
    assert not uncovered, "Ecosystem: Savanna rules no definition implements"


def test_every_darwin_rule_id_is_implemented_by_the_game_or_a_variant():
    known = set((ROOT / "tests" / "data" / "rule_ids.txt").read_text().split())
    ids = spec_rule_ids(load(ROOT / "spec" / "darwins_choice"))
    assert not sorted(ids - known), "rule IDs that the inventory does not have"
    for variant in sorted((ROOT / "spec" / "darwins_choice" / "variants").glob("*.rules")):
        program = load(variant)
        vids = spec_rule_ids(program) | {t for v in program.variants for t in v.rule_ids}
        assert not sorted(vids - known), f"{variant.name}: rule IDs that the inventory does not have"
    text = "\n".join(p.read_text() for p in (ROOT / "spec" / "darwins_choice").rglob("*.rules"))
    uncovered = sorted(i for i in known if i.startswith("DC-") and i not in text)
    assert not uncovered, "Darwin's Choice rules no definition implements"


@pytest.mark.xdist_group("site")         # one worker builds the site for every test that reads it
def test_site_builds_strictly(built_site):
    out, proc = built_site
    assert proc.returncode == 0, proc.stderr
    assert (out / "index.html").exists() and (out / "fr" / "index.html").exists()


def test_rule_lines_quoted_in_the_docs_point_at_their_rules():
    """The answers shown in the README and the docs name each rule with its file and
    line ("one_head [DC-ACT-CREATE-06] at spec/darwins_choice/species.rules:41"): that
    line still defines that rule (or, for a choice with nothing to choose from, that choice)."""
    import re
    quoted = re.compile(r"\b([a-z_][a-z0-9_]*) \[[A-Z0-9 -]+\] (?:at )?(spec/[\w/]+\.rules):(\d+)")
    pages = [ROOT / "README.md"] + [p for p in (ROOT / "docs").glob("*.md")]
    found = 0
    for page in pages:
        for name, path, line in quoted.findall(page.read_text()):
            text = (ROOT / path).read_text().splitlines()[int(line) - 1]
            assert re.match(rf"\s*(?:override\s+)?(?:def|rule|check|query|procedure|choose)\s+{name}\b", text), \
                f"{page.name}: {name} at {path}:{line}, which reads: {text.strip()}"
            found += 1
    assert found >= 6


def test_spec_lines_quoted_under_diagnostics_in_the_docs_are_current():
    """A diagnostic shown in the README or the docs quotes its spec line under
    "file:line:col": that line of the spec still reads so."""
    import re
    shown = re.compile(r"(spec/[\w/]+\.rules):(\d+):\d+: (?:error|warning|note): .*\n\s*(\d+) \| (.*)")
    pages = [ROOT / "README.md"] + [p for p in (ROOT / "docs").glob("*.md")]
    found = 0
    for page in pages:
        for path, line, again, quoted in shown.findall(page.read_text()):
            if "..." in quoted:
                continue            # an illustration, shortened
            assert line == again, f"{page.name}: {path}:{line} quoted as line {again}"
            text = (ROOT / path).read_text().splitlines()[int(line) - 1]
            assert text.rstrip() == quoted.rstrip(), f"{page.name}: {path}:{line} now reads: {text.strip()}"
            found += 1
    assert found >= 1


def test_a_section_of_the_spec_places_its_definitions_in_the_rulebook(tmp_path):
    """`section` gives an order the structure cannot: its chapter stands before the one that
    would have shown its first definition (before Playing for rules), with each definition."""
    from rulewright.compiler.docgen import rulebook
    from rulewright.compiler.docgen.translations import Translator
    page = rulebook.pages(load(ROOT / "spec" / "darwins_choice"), "g", "en", Translator("en"))["g.md"]
    assert page.index("## Components") < page.index("## Species {") < page.index("## Playing")
    species = page[page.index("## Species {"):page.index("## Playing")]
    assert species.index("### A well-formed species") < species.index("### Adaptation to the biome") \
        < species.index("### Protected from predators")
    spec = tmp_path / "s.rules"
    spec.write_text('game t "T"\nprocedure setup { }\nmode m "M" players 1..2 { seats players\n do setup() }\n'
                    'section opening "Before you play" { setup }\n', encoding="utf-8")
    page = rulebook.pages(load(spec), "t", "en", Translator("en"))["t.md"]
    assert page.index("## How a game goes") < page.index("## Before you play")
    assert "## Components" not in page                    # nothing to show: no empty chapter
    assert "## Playing" not in page                       # its only procedure stands in the section


@pytest.mark.parametrize("text, message", [
    ('section s "S" { nowhere }', "'nowhere' is no definition the section can show"),
    ('section s "S" { x, x }', "'x' is shown twice in section 's'"),
    ('section a "A" { x }\nsection b "B" { x }', "'x' is shown by section 'a' too"),
])
def test_section_mistakes_are_located(tmp_path, text, message):
    from rulewright.compiler.diagnostics import RulesError
    spec = tmp_path / "s.rules"
    spec.write_text('game t "T"\ndef x = 1\n' + text + "\n", encoding="utf-8")
    with pytest.raises(RulesError) as info:
        load(spec)
    assert message in info.value.render()


def test_the_end_of_the_game_says_what_each_report_is():
    """Each rulebook's "End of the game" says when the game ends and names what it reports
    (the definition's name in the page's language, its doc comment, its rule IDs), not the
    report's identifier."""
    for page, winners in (("darwins_choice.md", "**Winners**: The winners: the most Darwin Points; ties give "
                                                "several winners. `DC-END-03`"),
                          ("darwins_choice.fr.md", "**Gagnants**: Les gagnants"),
                          ("ecosystem_savanna.md", "**Winners**: The winners: the highest total")):
        text = (ROOT / "docs" / "rules" / page).read_text(encoding="utf-8")
        end = text[text.index("## End of the game" if page.endswith(".md") and "." not in page[:-3]
                              else "## Fin de la partie"):]
        assert winners in end, page
        assert "\n- winners\n" not in end and "\n- score\n" not in end
        assert ("DC-END-01" if page.startswith("darwin") else "ES-SCORE-01") in end      # when it ends


def test_a_long_note_of_a_catalogue_is_folded_and_stays_text():
    """A catalogue folds a long text (its start shown, the whole when opened); whatever it
    holds stays text: no tag, no column, no emphasis, no link."""
    from rulewright.compiler.docgen import markup as M
    note = "a <script>alert(1)</script> | *b* `c` [d](javascript:x) " + "long " * 20
    out = M.folded(note, 24)
    assert out.startswith("<details><summary>a…</summary>a &#60;script&#62;") and out.endswith("</details>")
    inner = out.removeprefix("<details><summary>").removesuffix("</details>").replace("</summary>", "")
    assert not any(ch in inner for ch in "<>|*`[]")
    page = (ROOT / "docs" / "rules" / "darwins_choice_catalogue.md").read_text(encoding="utf-8")
    assert page.startswith("---\nhide:\n  - navigation\n  - toc\n---\n")
    assert "<details><summary>DC-EX-1:…</summary>DC-EX-1: body of the winged Bongo" in page
    assert "<details><summary>climbing…</summary>climbing ×2, running</details>" in page      # any long cell


def _rulebooks() -> list:
    """Every rulebook page: each game and version, in the four languages."""
    return sorted(p for p in (ROOT / "docs" / "rules").glob("*.md")
                  if p.name.startswith(("darwins_choice", "ecosystem_savanna"))
                  and not any(x in p.name for x in ("_reference", "_catalogue", "_variants")))


def test_every_rulebook_opens_with_how_to_play():
    """The first chapter of each rulebook (both games, every version, four languages) is the
    one-page "how to play", in the page's language, in sentences."""
    import re
    pages = _rulebooks()
    assert len(pages) == 9 * 4
    for page in pages:
        text = page.read_text(encoding="utf-8")
        first = re.search(r"^## (.*)$", text, re.M)
        assert first and first.group(1).endswith("{ #d-how-to-play }"), (page.name, first and first.group(1))
        english = page.suffixes == [".md"]
        assert (first.group(1).startswith("How to play ")) == english, page.name
        body = text[first.end():text.index("\n## ", first.end())]
        assert len([p for p in body.split("\n\n") if p.strip()]) >= 3 and "`" not in body, page.name
    short = (ROOT / "docs" / "rules" / "darwins_choice_short_game.md").read_text(encoding="utf-8")
    assert "for three Eras" in short and "for four Eras" not in short      # a version says its own


def test_no_heading_of_the_rules_pages_is_an_identifier():
    """Every heading of the rulebooks, catalogues and house rules' pages, in the four
    languages, is a title (the spec's, translated), never a name as the spec writes it."""
    import re
    checked = 0
    for page in (ROOT / "docs" / "rules").glob("*.md"):
        if "_reference" in page.name:           # (the reference lists every definition by name)
            continue
        for line in page.read_text(encoding="utf-8").splitlines():
            m = re.match(r"^#{1,6} (.*?)(?: \{ #([a-z0-9-]+) \})?\s*$", line)
            if not m:
                continue
            checked += 1
            text, ident = m.group(1), m.group(2) or ""
            assert "_" not in text and "`" not in text, (page.name, text)
            assert not (ident.startswith("d-") and text == ident[2:].replace("-", " ")), (page.name, text)
    assert checked > 2000


def test_a_title_names_a_definition_a_step_and_a_setting(tmp_path):
    """A title written after the rule IDs is the name the rules pages give a procedure, a
    step, a definition, a rule, a table and a switch, in headings, pictures and links, and
    the English its translations translate; an override keeps the base's title unless it
    gives its own."""
    from rulewright.compiler.docgen import rulebook
    from rulewright.compiler.docgen.translations import Translator, spec_texts
    from rulewright.compiler.loader import parse_files
    spec = tmp_path / "g.rules"
    spec.write_text(
        'game g "G"\n'
        '/// How many cards a hand holds.\n'
        'def hand_size [G-1] "Cards in a hand" = 5\n'
        '/// Who plays first.\n'
        'switch first_seat [G-2] "Who plays first": youngest | oldest = youngest\n'
        '/// A hand is never empty.\n'
        'rule hand_ok(n: int) "A hand that holds cards" = n > 0\n'
        '/// Setting up.\n'
        'procedure set_up [G-3] "Setting up the game" {\n'
        '  /// Shuffle.\n'
        '  step shuffle_it "Shuffle the cards" { }\n'
        '}\n'
        'mode m "M" players 1..2 { seats players\n do set_up() }\n'
        '/// The goal: win.\n///\n/// A turn: play.\n///\n/// The end: it ends.\n///\n/// Winning: most points.\n'
        'section how_to_play "How to play" {}\n', encoding="utf-8")
    page = rulebook.pages(load(spec), "g", "en", Translator("en"))["g.md"]
    assert page.index("## How to play") < page.index("## At a glance")
    assert "### Setting up the game { #d-set-up }" in page and "**Shuffle the cards**" in page
    assert "### Who plays first { #d-first-seat }" in page and "`first_seat`" in page
    assert "set up" not in page.replace("Setting up", "")
    texts = {t.key: t.english for t in spec_texts(parse_files([spec]))}
    assert texts["name set_up"] == "Setting up the game" and texts["name set_up.shuffle_it"] == "Shuffle the cards"
    assert texts["name hand_size"] == "Cards in a hand" and texts["name first_seat"] == "Who plays first"
    assert texts["name hand_ok"] == "A hand that holds cards" and "title set_up" not in texts
    variant = tmp_path / "v.rules"
    variant.write_text('variant v "V" extends "g.rules"\n/// Setting up, otherwise.\noverride procedure set_up { }\n'
                       'override def hand_size "Cards in a small hand" = 3\n', encoding="utf-8")
    program = load(variant)
    assert program.definitions["set_up"].title == "Setting up the game"            # the base's
    assert program.definitions["hand_size"].title == "Cards in a small hand"       # its own
    keys = {t.key for t in spec_texts(parse_files([variant]))}
    assert "v/name set_up" not in keys and "v/name hand_size" in keys


def test_a_worked_example_reads_as_sentences_with_its_checks_folded():
    """An example's expectations with a sentence are shown as sentences, each checked
    (the rulebook's numbers, computed by the rules), in the page's language; the checks
    as the spec writes them are folded with the code."""
    page = (ROOT / "docs" / "rules" / "ecosystem_savanna.md").read_text(encoding="utf-8")
    margot = page[page.index("### Margot's ecosystem"):page.index("## End of the game")]
    assert "- ✓ Margot's ecosystem scores 86 in all\n" in margot
    assert "\n| `s == 86` |" not in margot and "\n    | `s == 86` | 86 | ✓ |" in margot     # folded
    french = (ROOT / "docs" / "rules" / "ecosystem_savanna.fr.md").read_text(encoding="utf-8")
    assert "- ✓ le Point d'eau rapporte 4 points\n" in french


def test_the_flow_of_play_is_an_overview_and_a_picture_per_phase():
    """The flow of play: an overview a screen high (the parts and their steps, by name),
    then each phase side by side with its steps' notes, every box named, none taller
    than a screen."""
    import re
    page = (ROOT / "docs" / "rules" / "darwins_choice.md").read_text(encoding="utf-8")
    flow = page[page.index("## How a game goes"):page.index("## Playing")]
    labels = re.findall(r'<svg [^>]*height="([\d.]+)"[^>]*aria-label="([^"]*)"', flow)
    assert [label for _, label in labels] == ["The flow of play: Base game", "Setting up the game", "Action Phase",
                                              "Evaluation Phase", "Transition Phase"]
    assert all(float(h) <= 880 for h, _ in labels)
    assert '<div class="rw-phases" markdown="0">' in flow
    assert "↻ for each player" in flow                       # a loop in words (drawing the starting hands)
    assert ' (p)<' not in flow and "while " not in flow and "∈" not in flow         # no code in the boxes
