"""Pages that run no script: every text a shared file puts into the generated pages is shown,
never run.

A probe game (Ecosystem: Savanna with every doc comment, title (of the game, its modes,
examples, sections, definitions, steps, switches, tables and relations), example sentence
and table text holding an attack), a house rule whose file name, title and text are attacks, a card table
(``--cards``) and a French catalogue (``.po``) of attacks, and a measured-effects file
(``effects.json``) of attacks are turned into pages by ``rulewright docs``. Then:

* the Markdown, rendered with the site's own extensions and no guard, holds nothing that can
  run (no element outside the allowlist, no handler, no link but relative or http(s));
* each text still shows: the payloads are on the page as text;
* the site's last guard (``sanitize``) takes out what a hand-written page could carry;
* the site built from the probe's pages (``mkdocs build --strict``, the site's guard on)
  and opened in headless Chromium fires no dialog and logs no error.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import urllib.parse
from pathlib import Path

import pytest

from rulewright.cli import main
from rulewright.compiler import files, load
from rulewright.compiler.docgen import house, markup, sanitize
from browser import CHROMIUM, FLAGS, serving
from helpers import ROOT

SAVANNA = ROOT / "spec" / "ecosystem_savanna"

# every class of attack: scripts, handlers in several tags, javascript:/data: links, backticks
# that close code spans, quotes that break attributes, Markdown link, image and attribute-list
# tricks, HTML that a parser and a browser read differently
PAYLOADS = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(2)>",
    "<details open ontoggle=alert(3)>x</details>",
    "<svg onload=alert(4)><circle r=1/></svg>",
    "<body onpageshow=alert(5)>",
    "<a href=\"javascript:alert(6)\">j</a>",
    "[click](javascript:alert(7))",
    "![pic](javascript:alert(8))",
    "[data](data:text/html;base64,PHNjcmlwdD5hbGVydCg5KTwvc2NyaXB0Pg==)",
    "[ref][evil]\n\n[evil]: javascript:alert(10)",
    "<javascript:alert(11)>",
    "`` `</code><img src=x onerror=alert(12)>` ``",
    "\" onmouseover=\"alert(13)\" x=\"",
    "' autofocus onfocus='alert(14)' x='",
    "{: onclick=\"alert(15)\" }",
    "x{ onclick=alert(16) }",
    "<iframe srcdoc=\"<script>alert(17)</script>\"></iframe>",
    "<!--><img src=x onerror=alert(18)>-->",
    "<math><mtext><table><mglyph><style><img src=x onerror=alert(19)>",
    "&lt;img src=x onerror=alert(20)&gt;",
    "<a href=\"jav&#x09;ascript:alert(21)\">t</a>",
    "[t](JaVaScRiPt:alert(22))",
    "\n```\n<img src=x onerror=alert(23)>\n```\n",
    "<style>@import 'javascript:alert(24)'</style>",
    "<input autofocus onfocus=alert(25)>",
    "<object data=\"javascript:alert(26)\"></object>",
    "<svg><animate attributeName=href to=javascript:alert(27) /><a><text>x</text></a></svg>",
]
# what shows on a page that ran something, or carries something that could run
ACTIVE = re.compile(r"alert\(\d+\)")


def _quoted(text: str) -> str:
    """``text`` as a spec's quoted text."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _one_line(text: str) -> str:
    return " ".join(text.split())


def probe_game(folder: Path) -> Path:
    """Ecosystem: Savanna with an attack in every doc comment, title and text of its tables."""
    game = folder / "ecosystem_savanna"
    shutil.copytree(SAVANNA, game, ignore=shutil.ignore_patterns("variants", "i18n"))
    k = 0
    for f in sorted(game.glob("*.rules")):
        lines = []
        for line in f.read_text(encoding="utf-8").splitlines():
            m = re.match(r"^(\s*)///(.*)$", line)
            if m:
                line = f"{m.group(1)}/// {m.group(2).strip()} {_one_line(PAYLOADS[k % len(PAYLOADS)])}"
                k += 1
            elif re.match(r"^\s*(game|example|property|mode|section)\b.*\"[^\"]*\"", line):
                # the last quoted text of the line is its title
                line = re.sub(r'"[^"]*"(\s*[{]?[}]?\s*)$', lambda mm: _quoted(PAYLOADS[k % len(PAYLOADS)]
                                                                         + " t") + mm.group(1), line)
                k += 1
            elif re.match(r"^\s*(?:override\s+)?(?:def|rule|outcome|scoring|procedure|step|switch|table|enum|relation)\b"
                          r"[^\"]*\"", line):
                # a title: the first quoted text of the line (before any expression)
                line = re.sub(r'"[^"]*"', lambda mm: _quoted(PAYLOADS[k % len(PAYLOADS)] + " t"), line, count=1)
                k += 1
            elif re.match(r"^\s*expect\b.*\"\s*$", line):
                # the sentence an example's expectation is said in
                line = re.sub(r'"[^"]*"\s*$', lambda mm: _quoted(PAYLOADS[k % len(PAYLOADS)]), line)
                k += 1
            elif re.match(r"^\s+\w+\s+\|\s+\w+\s+\|\s+\d+\s+\|\s+\".*\"\s*$", line):
                line = re.sub(r'"[^"]*"\s*$', lambda mm: _quoted(PAYLOADS[k % len(PAYLOADS)]), line)
                k += 1
            lines.append(line)
        f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    # the card table read from a file of the spec's (then from the user's own, --cards)
    cards = game / "cards.rules"
    cards.write_text(re.sub(r"(table card [^\n]*\))\s*\{.*?\n\}", r'\1 from "cards.csv" option cards',
                            cards.read_text(encoding="utf-8"), flags=re.S), encoding="utf-8")
    probe_cards(game, shift=1)
    return game


HOUSE_NAME = "<img src=x onerror=alert(90)> [x](javascript:alert(91))"


def probe_house(folder: Path) -> Path:
    """A house rule of the probe game: its file name, title, text and rule's text are attacks."""
    rules = folder / "house"
    rules.mkdir()
    (rules / f"{HOUSE_NAME}.rules").write_text(
        f"/// {_one_line(PAYLOADS[1])} {_one_line(PAYLOADS[6])}\n"
        f"variant rhinos [HR-X] {_quoted(PAYLOADS[0])} extends \"../ecosystem_savanna\"\n\n"
        f"/// {_one_line(PAYLOADS[11])}\n"
        "add row card [HR-X]: rhino | animal | 6 | " + _quoted(PAYLOADS[2]) + "\n", encoding="utf-8")
    return rules


def probe_cards(folder: Path, shift: int = 0) -> Path:
    """A card table (a spec's own, or ``--cards``) whose texts are attacks."""
    path = folder / "cards.csv"
    rows = ["name,family,count,fr"]
    for i, (name, family, count) in enumerate([("water", "terrain", 10), ("prairie", "terrain", 20),
                                               ("tree", "terrain", 14), ("gazelle", "animal", 20),
                                               ("zebra", "animal", 12), ("giraffe", "animal", 10),
                                               ("cheetah", "animal", 10), ("lion", "animal", 10),
                                               ("elephant", "animal", 8), ("hyena", "animal", 10),
                                               ("vulture", "animal", 8)]):
        text = _one_line(PAYLOADS[(i * 3 + shift) % len(PAYLOADS)]).replace('"', '""')
        rows.append(f'{name},{family},{count},"{text}"')
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def probe_catalogue(game: Path) -> None:
    """A French catalogue beside the probe game whose every translation is an attack."""
    import polib
    from rulewright.compiler.docgen.translations import spec_texts
    from rulewright.compiler.loader import parse_files
    po = polib.POFile()
    po.metadata = {"Language": "fr", "MIME-Version": "1.0", "Content-Type": "text/plain; charset=UTF-8",
                   "Content-Transfer-Encoding": "8bit"}
    parsed = parse_files(sorted(game.glob("*.rules")))
    for i, t in enumerate(spec_texts(parsed)):
        po.append(polib.POEntry(msgctxt=t.key, msgid=t.english,
                                msgstr=_one_line(PAYLOADS[i % len(PAYLOADS)]) + " fr"))
    (game / "i18n").mkdir(exist_ok=True)
    (game / "i18n" / "fr.po").write_text(str(po), encoding="utf-8")


def probe_effects(out: Path, house_file: Path) -> None:
    """A measured-effects file for the house rule as it is, every name in it an attack."""
    program = load(house_file)
    base = load(program.variants[-1].extends)
    figure = {"figure": "seat_wins", "seat": 1, "share": True, "base": [0.5, 0.25, 0.75], "house": [0.25, 0.1, 0.5],
              "difference": [-0.25, -0.5, 0.0], "clear": True}
    (out / "effects.json").write_text(json.dumps({house_file.name: {
        "mode": PAYLOADS[0], "players": 4, "games": 3, "skill_games": 1, "strong": PAYLOADS[1], "weak": PAYLOADS[4],
        "base": house.fingerprint(base), "house": house.fingerprint(program),
        "figures": [figure, {**figure, "figure": "skill", "seat": 0}],
        "scores": {"base": {"1": 2, "3": 1}, "house": {"2": 3}},
        "rules": [{"rule": PAYLOADS[9], "base": 1, "house": 2, "difference": [1, 0.5, 1.5]}]}}), encoding="utf-8")


@pytest.fixture(scope="module")
def probe(tmp_path_factory):
    """The probe's pages: (the folder of the pages, {file name: Markdown})."""
    folder = tmp_path_factory.mktemp("probe")
    game = probe_game(folder)
    rules = probe_house(folder)
    cards = probe_cards(folder)
    probe_catalogue(game)
    out = folder / "docs" / "rules"
    out.mkdir(parents=True)
    files.add_root(folder)
    try:
        probe_effects(out, next(rules.glob("*.rules")))
    finally:
        files.clear_roots()
    for spec, extra in ((game, ["--cards", str(cards)]), (game, []), (rules, [])):
        code = main(["docs", str(spec), "--out", str(out), "--lang", "en,fr", "--no-verify", "--root", str(folder),
                     *extra])
        assert code == 0
    pages = {p.name: p.read_text(encoding="utf-8") for p in out.glob("*.md")}
    return out, pages


def _render(text: str) -> str:
    """A page as the site's Markdown makes it (its extensions, no guard)."""
    markdown = pytest.importorskip("markdown")
    return markdown.Markdown(extensions=["tables", "admonition", "attr_list", "md_in_html", "pymdownx.details",
                                         "pymdownx.highlight", "pymdownx.superfences", "toc"]).convert(text)


def test_the_probe_reaches_every_kind_of_page(probe):
    out, pages = probe
    names = set(pages)
    assert {"ecosystem_savanna.md", "ecosystem_savanna.fr.md", "ecosystem_savanna_catalogue.md",
            "ecosystem_savanna_reference.md", "house.md", f"house_{HOUSE_NAME}.md",
            f"house_{HOUSE_NAME}.fr.md"} <= names, sorted(names)
    everything = "\n".join(pages.values())
    # every class of attack reached a page (so each one was tried)
    for n in (1, 2, 3, 4, 6, 7, 10, 12, 13, 15, 17, 19, 22, 24, 90, 91):
        assert f"alert({n})" in everything, n


def test_the_pages_hold_nothing_that_runs(probe):
    """Rendered with the site's extensions and no guard, no page holds an element outside the
    allowlist, a handler or a link that is not relative or http(s)."""
    out, pages = probe
    problems = []
    for name, text in sorted(pages.items()):
        # not even as the Markdown's text (a rule's code included): no raw script or handler
        tags = [re.sub(r"\"[^\"]*\"|'[^']*'", "", t) for t in re.findall(r"<[a-zA-Z][^<>]*>", text)]
        raw = [t for t in tags if t.lower().startswith("<script") or re.search(r"\son[a-z]+\s*=", t)]
        if raw:
            problems.append(f"{name}: raw in the Markdown: {raw[:2]}")
        # nor a handler even as escaped text: a scan of the source finds none to flag
        handlers = re.findall(r"(?i)\bon[a-z]+\s*=", text)
        if handlers:
            problems.append(f"{name}: a handler's text in the source: {handlers[:2]}")
        rendered = _render(text)
        _, removed = sanitize.clean(rendered)
        if removed:
            problems.append(f"{name}: {sorted(set(removed))[:5]}")
        for m in re.finditer(r"<(?!/?(?:" + "|".join(sanitize.ALLOWED) + r")\b)[a-zA-Z!?/]", rendered):
            problems.append(f"{name}: a tag outside the allowlist: {rendered[m.start():m.start() + 60]!r}")
    assert not problems, "\n".join(problems[:20])


def test_the_attacks_show_as_text(probe):
    """The texts are escaped, not dropped: a reader sees the attack as it was written."""
    out, pages = probe
    page = _render(pages["ecosystem_savanna.md"])
    shown = re.sub(r"<[^>]+>", "", page)
    import html
    shown = html.unescape(shown)
    assert "<script>alert(1)</script>" in shown
    assert "[click](javascript:alert(7))" in shown
    house_page = html.unescape(re.sub(r"<[^>]+>", "", _render(pages[f"house_{HOUSE_NAME}.md"])))
    assert HOUSE_NAME in house_page                              # the file name, as it is
    catalogue = html.unescape(re.sub(r"<[^>]+>", "", _render(pages["ecosystem_savanna_catalogue.md"])))
    assert "<img src=x onerror=alert(2)>" in catalogue or "onerror=alert(" in catalogue


@pytest.mark.parametrize("text", PAYLOADS)
def test_each_escape_holds_in_its_place(text):
    """Each payload, in each place a text lands, renders as text and nothing else."""
    md = "\n\n".join([
        f"# {markup.text(text)} {{ #d-x }}",
        f"- **{markup.text(text)}** ({markup.code(text)}): {markup.prose(text)}",
        "| a | b |\n|---|---|\n" + f"| {markup.cell(text)} | {markup.code(text)} |",
        f"[{markup.text(text)}]({markup.url(text)})",
        "\n".join(markup.fence(text, "rules")),
        f'<div class="rw-x" title="{markup.attr(text)}" markdown="0"></div>'])
    rendered = _render(md)                       # the escapes alone, without the page's guard
    _, removed = sanitize.clean(rendered)
    assert not removed, (text, removed)
    assert re.search(r"<(?!/?(?:h1|a|ul|li|strong|code|p|table|thead|tbody|tr|th|td|div|pre|span)\b)[a-zA-Z]",
                     rendered) is None, rendered


@pytest.mark.parametrize("text", PAYLOADS)
def test_the_page_guard_alone_holds(text):
    """A text a generator forgot to escape, in each place: the guard every page goes
    through leaves nothing that runs."""
    md = "\n\n".join([f"# {text} {{ #d-x }}", f"- **{text}**: {text}", "| a | b |\n|---|---|\n" + f"| {text} | x |",
                       f"[{text}](g.md#d-x)", f"x [a]({text})", f'<div class="rw-x" markdown="1">{text}</div>'])
    rendered = _render(markup.page(md))
    _, removed = sanitize.clean(rendered)
    assert not removed, (text, removed)


@pytest.mark.parametrize("target, safe", [
    ("house_a.md", True), ("g_reference.md#d-x", True), ("#d-x", True), ("https://example.org/x", True),
    ("javascript:alert(1)", False), ("JaVaScRiPt:alert(1)", False), (" javascript:alert(1)", False),
    ("java\tscript:alert(1)", False), ("jav&#x09;ascript:alert(1)", False), ("data:text/html,x", False),
    ("vbscript:x", False), ("file:///etc/passwd", False), ("//evil.example/x", False), ("\\\\evil\\x", False)])
def test_only_relative_and_http_links_are_followed(target, safe):
    assert markup.safe_url(target) is safe
    assert (markup.url(target) != "#") is safe


def test_the_last_guard_takes_out_what_a_hand_written_page_could_carry():
    cleaned, removed = sanitize.clean(
        '<p onclick="alert(1)">a <script>alert(2)</script><img src="javascript:alert(3)">'
        '<a href="data:text/html,x">d</a><iframe srcdoc="x"></iframe>'
        '<svg><animate attributeName="href" to="javascript:alert(4)"/><a href="#ok">k</a></svg>'
        '<p style="background: url(javascript:alert(5))">s</p><b>kept</b></p>')
    assert "alert" not in cleaned and "<b>kept</b>" in cleaned and 'href="#ok"' in cleaned
    assert len(removed) >= 7
    legit = ('<h2 id="d-x">T<a class="headerlink" href="#d-x" title="Permanent link">&para;</a></h2>'
             '<table><tr><td style="text-align: left;">a &amp; b</td></tr></table>')
    assert sanitize.clean(legit) == (legit, [])


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine (make test installs it where it can)")
def test_the_probe_site_fires_no_dialog_in_a_browser(probe, tmp_path):
    """The probe's pages built into a site with the site's own configuration (the guard
    on), then opened in headless Chromium: no dialog, no console error, no handler or
    javascript: link in the page."""
    sync_api = pytest.importorskip("playwright.sync_api")
    out, pages = probe
    docs = tmp_path / "docs"
    shutil.copytree(out, docs / "rules")
    (docs / "index.md").write_text("# Probe\n", encoding="utf-8")
    shutil.copytree(ROOT / "docs" / "assets", docs / "assets")          # the site's own scripts (tables.js)
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    config = config.split("\nnav:")[0]                       # every page, no nav of the shipped site
    config = config.replace("custom_dir: docs/overrides", f"custom_dir: {ROOT / 'docs' / 'overrides'}")
    config = config.replace("  - compiler/docgen/sanitize.py", f"  - {ROOT / 'compiler' / 'docgen' / 'sanitize.py'}")
    (tmp_path / "mkdocs.yml").write_text(config + f"\ndocs_dir: {docs}\n", encoding="utf-8")
    site = tmp_path / "site"
    mkdocs = shutil.which("mkdocs") or str(Path(sys.executable).parent / "mkdocs")
    proc = subprocess.run([mkdocs, "build", "--strict", "-q", "-f", str(tmp_path / "mkdocs.yml"), "-d", str(site)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    built = sorted("/" + p.relative_to(site).as_posix() for p in site.rglob("*.html")
                   if "rules" in p.parts)
    assert len(built) >= 8
    dialogs, errors, problems = [], [], []
    with serving(site) as base, sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = browser.new_page()
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        for path in built:
            page.goto(base + urllib.parse.quote(path), wait_until="load")
            page.wait_for_timeout(50)
            found = page.evaluate("""() => {
                const bad = [];
                for (const el of document.querySelectorAll('.md-content *')) {
                    for (const a of el.attributes) {
                        const v = a.value.replace(/[\\s\\x00-\\x1f]/g, '').toLowerCase();
                        if (a.name.startsWith('on')) bad.push(el.tagName + ' ' + a.name);
                        if (['href', 'src', 'xlink:href', 'action', 'data'].includes(a.name)
                            && /^(javascript|data|vbscript):/.test(v)) bad.push(el.tagName + ' ' + a.name + '=' + v);
                    }
                    if (['SCRIPT', 'IFRAME', 'OBJECT', 'EMBED', 'STYLE'].includes(el.tagName)) bad.push(el.tagName);
                }
                return bad;
            }""")
            if found:
                problems.append(f"{path}: {found[:5]}")
        browser.close()
    assert not dialogs, dialogs
    assert not errors, errors[:5]
    assert not problems, problems

