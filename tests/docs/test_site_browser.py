"""The documentation site in a real browser: built with mkdocs, served on 127.0.0.1 and
opened page by page in headless Chromium (Playwright driving the system's Chromium).

Every page: no console error, no broken link, no code block wider than its frame, every
image loaded. The language switcher reaches the same page in each language; search finds
a card by its name in each language (the French rulebook's in French). Every rulebook
page opens with "how to play", has no heading that is an identifier, no picture taller
than the screen, no table wider than its frame and, in French, Spanish and Chinese, no
English word in its pictures (RULEWRIGHT_SCREENSHOTS=FOLDER saves the Darwin's Choice
rulebook's first screens there: docs/assets/rulebook, the README's pictures). Skipped, saying why, where no Chromium or no Playwright is
installed (``make test`` installs Chromium from the system's packages where it can).
"""
from __future__ import annotations

import os
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

try:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout, sync_playwright
except ImportError:             # pragma: no cover - the dev install has it
    sync_playwright = PlaywrightTimeout = None

from browser import CHROMIUM, FLAGS, serving

pytestmark = [
    pytest.mark.xdist_group("site"),    # one worker builds the site for every test that reads it
    pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine (apt-get install chromium; "
                                                "make test installs it where it can)"),
    pytest.mark.skipif(sync_playwright is None, reason="Playwright is not installed (pip install -e '.[dev]')"),
]
LANGS = ("fr", "es", "zh")


@pytest.fixture(scope="module")
def site(built_site):
    out, proc = built_site
    assert proc.returncode == 0, proc.stderr
    with serving(out) as base, serving(out, without_search=True) as without:
        yield out, base, without      # (the address with the real search index, one without)


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield b
        b.close()


def _pages(out: Path) -> list[str]:
    return sorted("/" + p.parent.relative_to(out).as_posix().strip(".") + ("/" if p.parent != out else "")
                  for p in out.rglob("index.html") if "search" not in p.parts)


def _exists(base: str, url: str, cache: dict) -> bool:
    if url not in cache:
        try:
            with urllib.request.urlopen(base + url, timeout=10) as r:
                cache[url] = r.status == 200
        except Exception:
            cache[url] = False
    return cache[url]


def test_every_page_loads_clean(site, browser):
    out, _, base = site
    pages = _pages(out)
    assert len(pages) > 100 and "/fr/rules/ecosystem_savanna/" in pages
    checked: dict = {}
    problems = []
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    # a few tabs load their pages at once (a page spends most of its load waiting, not
    # computing); each tab's own console errors are its page's
    tabs = []
    for _ in range(TABS):
        tab, errors = context.new_page(), []
        tab.on("console", lambda m, errors=errors: errors.append(m.text) if m.type == "error" else None)
        tab.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        tabs.append((tab, errors))
    for at in range(0, len(pages), TABS):
        batch = list(zip(tabs, pages[at:at + TABS]))
        for (tab, errors), path in batch:
            errors.clear()
            tab.goto(base + path, wait_until="commit")
        for (tab, errors), path in batch:
            tab.wait_for_load_state("load")
            problems.extend(_page_problems(tab, errors, path, base, checked))
    context.close()
    assert not problems, "\n".join(problems[:30])


TABS = 4


def _page_problems(page, errors: list, path: str, base: str, checked: dict) -> list[str]:
    """What is wrong with the page a tab has loaded: console errors, code blocks wider
    than their frame, images that did not load, links to pages that do not exist."""
    problems = []
    found = page.evaluate("""() => {
        const links = [...document.querySelectorAll('a[href]')]
            .map(a => new URL(a.getAttribute('href'), location.href).href);
        const wide = [...document.querySelectorAll('.md-content pre > code')]
            .filter(c => c.scrollWidth > c.parentElement.clientWidth + 2).length;
        const images = [...document.querySelectorAll('img')].filter(i => !(i.complete && i.naturalWidth > 0))
            .map(i => i.src);
        return {links, wide, images};
    }""")
    if errors:
        problems.append(f"{path}: console errors {errors[:3]}")
    if found["wide"]:
        problems.append(f"{path}: {found['wide']} code block(s) wider than their frame")
    if found["images"]:
        problems.append(f"{path}: images that did not load {found['images'][:3]}")
    for href in found["links"]:
        url = urllib.parse.urlsplit(href)
        if url.netloc != urllib.parse.urlsplit(base).netloc or not url.path:
            continue
        if not _exists(base, urllib.parse.unquote(url.path), checked):
            problems.append(f"{path}: broken link {url.path}")
    return problems


def test_the_language_switcher_reaches_the_same_page(site, browser):
    out, _, base = site
    context = browser.new_context()
    page = context.new_page()
    page.goto(base + "/rules/darwins_choice/", wait_until="load")
    targets = page.evaluate("() => [...document.querySelectorAll('.md-select__link')].map(a => a.href)")
    for lang in LANGS:
        wanted = [t for t in targets if urllib.parse.urlsplit(t).path == f"/{lang}/rules/darwins_choice/"]
        assert wanted, (lang, targets)
        page.goto(wanted[0], wait_until="load")
        assert page.evaluate("() => document.documentElement.lang").startswith(lang)
        assert page.locator("h1").first.inner_text() != "Darwin's Choice" or lang != "zh"
    context.close()


@pytest.mark.parametrize("lang, card", [("fr/", "Guépard"), ("es/", "Guepardo"), ("zh/", "猎豹"), ("", "cheetah")])
def test_search_finds_a_card_by_its_name_in_each_language(site, browser, lang, card):
    """Search in each language finds the card by the name that language gives it (the French
    name is the French rulebook's)."""
    _, base, _ = site
    page = browser.new_page()
    page.goto(f"{base}/{lang}", wait_until="load")
    page.locator("label.md-search__icon, .md-search__input").first.click()
    # (the search builds its index from the whole site's in the page, in a worker: past 20 s
    # on a busy machine. Typed before the page listens, the query is lost and no result ever
    # comes, as it would for a person typing then: typed again, as they would, until a result
    # comes or two minutes have passed)
    give_up = time.monotonic() + 120
    while True:
        page.locator("input.md-search__input").fill(card)
        try:
            page.wait_for_selector(".md-search-result__item", timeout=15000)
            break
        except PlaywrightTimeout:
            if time.monotonic() > give_up:
                raise
            page.locator("input.md-search__input").fill("")
    results = page.evaluate("() => [...document.querySelectorAll('.md-search-result__item a')].map(a => a.href)")
    assert any(f"/{lang}rules/ecosystem_savanna" in r for r in results), results[:10]
    page.close()


def test_every_house_rule_prints_on_one_page(site, browser):
    """A house rule's page printed (print CSS): the site around it hidden, one A4 page."""
    out, _, base = site
    rules = sorted(p.parent.name for p in (out / "rules").glob("house_*/index.html") if p.parent.name != "house_rules")
    assert len(rules) >= 20
    context = browser.new_context()
    page = context.new_page()
    longer = []
    for lang in ("", "fr/"):
        for name in rules:
            page.goto(f"{base}/{lang}rules/{name}/", wait_until="load")
            page.emulate_media(media="print")
            assert not page.locator(".md-sidebar--primary").first.is_visible()
            pdf = page.pdf(format="A4")
            pages = pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages")
            if pages != 1:
                longer.append(f"{lang}{name}: {pages} pages")
    context.close()
    assert not longer, longer


def test_every_catalogue_table_fits_its_frame(site, browser):
    """At 1280 px every table of every catalogue, in every language, is within its frame
    (no scrolling sideways), and every row is one line high (long cells fold)."""
    out, _, base = site
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    wide = []
    for lang in ("", *(f"{x}/" for x in LANGS)):
        for game in ("darwins_choice", "ecosystem_savanna"):
            page.goto(f"{base}/{lang}rules/{game}_catalogue/", wait_until="load")
            tables = page.evaluate("""() => [...document.querySelectorAll('.rw-table')].map(w => {
                const t = w.querySelector('table');
                const rows = [...t.querySelectorAll('tbody tr')].map(r => r.getBoundingClientRect().height);
                return [w.clientWidth, t.scrollWidth, Math.max(...rows), Math.min(...rows)]; })""")
            assert tables, f"{lang}{game}: no catalogue table"
            for i, (frame, width, tallest, lowest) in enumerate(tables):
                if width > frame + 1 or tallest > lowest + 2 or tallest > 40:
                    wide.append(f"{lang}{game} table {i + 1}: {width} px in {frame}, a row {tallest:.0f} px high "
                                f"(one line: {lowest:.0f})")
    context.close()
    assert not wide, wide


# The words the pictures of a rulebook say in English (compiler/docgen/words.py, pictures.py):
# on a page in another language none of them may show.
SHOTS = os.environ.get("RULEWRIGHT_SCREENSHOTS")     # a folder: the Darwin's Choice rulebook's first screens
ENGLISH_IN_PICTURES = ("The flow of play", "for each player", "Again and again", "What the ", "card looks at",
                       "the cells it looks at", "A grid of", "row ", "column ", " more", " times", "Each ")


def _rulebooks(out: Path) -> list[str]:
    """Every rulebook page of the site (each game and version, in each language)."""
    found = []
    for lang in ("", *(f"{x}/" for x in LANGS)):
        for p in sorted((out / lang / "rules").iterdir()) if (out / lang / "rules").is_dir() else ():
            name = p.name
            if p.is_dir() and (name.startswith("darwins_choice") or name.startswith("ecosystem_savanna")) \
                    and not name.endswith(("_reference", "_catalogue", "_variants")):
                found.append(f"/{lang}rules/{name}/")
    return found


def test_every_rulebook_page_teaches(site, browser):
    """Each rulebook page, every version of both games in the four languages, measured at
    1280 x 900: its first chapter is "how to play"; no heading is an identifier; no
    picture in view is taller than the screen; no table is wider than its frame; no
    picture of a page in French, Spanish or Chinese says an English word of its own."""
    out, _, base = site
    pages = _rulebooks(out)
    assert len(pages) == 4 * 9, pages
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    problems = []
    for path in pages:
        page.goto(base + path, wait_until="load")
        if SHOTS and path == "/rules/darwins_choice/":            # the README's pictures of the first screens
            Path(SHOTS).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(Path(SHOTS) / "rulebook-how-to-play.png"))
            page.evaluate("() => { document.getElementById('how-a-game-goes').scrollIntoView(); window.scrollBy(0, -64); }")
            page.wait_for_timeout(600)          # (the header's title changes as the page scrolls)
            page.screenshot(path=str(Path(SHOTS) / "rulebook-flow.png"))
        found = page.evaluate("""() => {
            const content = document.querySelector('.md-content');
            const shown = e => !e.closest('details:not([open])');
            const headings = [...content.querySelectorAll('h1, h2, h3, h4')].map(h => {
                const t = h.cloneNode(true); t.querySelectorAll('.headerlink').forEach(a => a.remove());
                return [h.tagName, h.id, t.textContent.trim()]; });
            const pictures = [...content.querySelectorAll('.rw-picture svg, .rw-phases svg')].filter(shown)
                .map(s => [s.getAttribute('aria-label'), s.getBoundingClientRect().height,
                           [...s.querySelectorAll('text')].map(t => t.textContent).join(' | ')]);
            const tables = [...content.querySelectorAll('table')].filter(shown)
                .map(t => [t.scrollWidth, (t.closest('.md-typeset__table, .rw-table') || t.parentElement).clientWidth]);
            return {headings, pictures, tables}; }""")
        h2 = [h for h in found["headings"] if h[0] == "H2"]
        if not h2 or h2[0][1] != "d-how-to-play":
            problems.append(f"{path}: the first chapter is {h2[0][2] if h2 else 'missing'!r}, not how to play")
        for tag, ident, text in found["headings"]:
            words = ident[2:].replace("-", " ") if ident.startswith("d-") else None
            if "_" in text or "`" in text or (words is not None and text == words):
                problems.append(f"{path}: {tag} {text!r} is an identifier")
        for label, height, said in found["pictures"]:
            if height > 900:
                problems.append(f"{path}: the picture {label!r} is {height:.0f} px high")
            if path.startswith(("/fr/", "/es/", "/zh/")):
                english = [w for w in ENGLISH_IN_PICTURES if w in said or w in (label or "")]
                if english:
                    problems.append(f"{path}: the picture {label!r} says {english} in English")
        for width, frame in found["tables"]:
            if width > frame + 1:
                problems.append(f"{path}: a table {width} px wide in a frame of {frame}")
    context.close()
    assert not problems, "\n".join(problems[:40])
