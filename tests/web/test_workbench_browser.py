"""The workbench driven in headless Chromium as a person uses it: a house rule opened,
broken (the error shown at its line), fixed, saved, verified, studied; a two-player game
played to the end against a bot with an undo, saved into the workspace and gone on with.
Any console error, or a page error, fails the test. With RULEWRIGHT_SCREENSHOTS=FOLDER
each screen is saved there (docs/assets/workbench: the docs page's pictures)."""
from __future__ import annotations

import contextlib
import os
import threading
import time
from pathlib import Path

import pytest

try:
    from playwright.sync_api import expect, sync_playwright
except ImportError:         # (the development extras not installed)
    sync_playwright = None

from browser import CHROMIUM, FLAGS

pytestmark = [
    pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine (apt-get install chromium; "
                                                "make test installs it where it can)"),
    pytest.mark.skipif(sync_playwright is None, reason="Playwright is not installed (pip install -e '.[dev]')"),
]

SHOTS = os.environ.get("RULEWRIGHT_SCREENSHOTS")


@contextlib.contextmanager
def served(workspace: Path):
    """The workbench on 127.0.0.1 at a free port, in a thread: yields its address."""
    import uvicorn
    from rulewright.cli.serve import listening
    from rulewright.web.server import make_app
    sock = listening("127.0.0.1", 0)
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(make_app(workspace, ("ecosystem_savanna",)), log_level="warning",
                                           lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    for _ in range(100):
        if server.started:
            break
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.should_exit = True
        thread.join(10)


def shot(page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"))


def test_write_check_verify_study_and_play_a_house_rule(tmp_path):
    ws = tmp_path / "workspace"
    problems: list[str] = []
    with served(ws) as url, sync_playwright() as p:
        browser, page = opened(p, url, problems)

        # ---- write: a shipped house rule opened, broken, fixed, saved
        expect(page.locator("#check-state")).to_have_class("state ok", timeout=30_000)
        page.select_option("#open-what", "house_rules/savanna_rare_lions")
        page.click("#open")
        expect(page.locator("#check-state")).to_contain_text("Rare lions", timeout=30_000)
        expect(page.locator("#diff")).to_contain_text("row card.lion")
        source = page.locator("#source")
        text = source.input_value()
        source.fill(text.replace("count = 4", "count = four"))
        expect(page.locator("#check-state")).to_have_class("state bad", timeout=30_000)
        expect(page.locator("#problems li").first).to_contain_text("line 9")
        expect(page.locator("#highlight .line.bad")).to_have_count(1)
        shot(page, "write-error")
        source.fill(text.replace("count = 4", "count = 3"))
        expect(page.locator("#check-state")).to_have_class("state ok", timeout=30_000)
        expect(page.locator("#diff")).to_contain_text("count = 3")
        page.fill("#name", "rarer_lions")
        page.click("#save")
        expect(page.locator("#saved")).to_contain_text("rarer_lions.rules")
        assert (ws / "rarer_lions.rules").read_text(encoding="utf-8") == text.replace("count = 4", "count = 3")
        shot(page, "write")

        # ---- verify: one check, its findings with their status
        page.click("nav button[data-tab=verify]")
        page.click("#verify .checks summary")
        for box in page.locator("#verify-checks input").all():
            if box.get_attribute("value") != "property":
                box.uncheck()
        page.click("#verify .checks summary")
        page.click("#verify-run")
        expect(page.locator("#findings tbody tr").first).to_be_visible(timeout=120_000)
        expect(page.locator("#findings .badge.s-proved")).to_have_count(1)   # the house rule's guarantee
        shot(page, "verify")

        # ---- study: a small one, its figures and its report
        page.click("nav button[data-tab=study]")
        page.fill("#study-games", "6")
        page.fill("#study-players", "3")
        page.fill("#study-skill", "0")
        page.click("#study-run")
        expect(page.locator("#study-figures tbody tr").first).to_be_visible(timeout=180_000)
        expect(page.locator("#study-report")).to_be_visible()
        shot(page, "study")

        # ---- play: two players against a bot, an undo, to the end; saved and gone on with
        page.click("nav button[data-tab=play]")
        two_players(page, "greedy")
        page.click("#play-start")
        expect(page.locator("#question")).not_to_be_empty(timeout=30_000)
        page.click("#suggest")
        expect(page.locator("#suggestion")).to_contain_text("Suggested", timeout=30_000)
        expect(page.locator("#options .suggested, #boards .suggested")).to_have_count(1)
        shot(page, "play")
        before = page.locator("#position").text_content()
        first_option(page).click()
        expect(page.locator("#undo")).to_be_enabled()
        page.click("#undo")
        expect(page.locator("#position")).to_have_text(before)
        for _ in range(5):
            first_option(page).click()
        answered(page)
        page.fill("#game-name", "halfway")
        page.click("#save-here")
        expect(page.locator("#game-saved")).to_contain_text("halfway.json")
        halfway = page.locator("#position").text_content()
        moves = 0
        while moves < 200 and not answered(page).locator("#result").is_visible():
            first_option(page).click()
            moves += 1
        expect(page.locator("#result")).to_contain_text("Winners")
        shot(page, "play-end")
        page.click("#step-first")
        expect(page.locator("#step-at")).to_contain_text("step 0 of")
        expect(page.locator("#boards td.card")).to_have_count(0)
        page.click("#step-on")
        page.click("#step-on")
        expect(page.locator("#step-at")).to_contain_text("step 2 of")
        expect(page.locator("#boards td.card")).to_have_count(1)
        page.click("#step-last")
        expect(page.locator("#step-next")).to_have_text("the end of the game")
        two_players(page, "greedy")
        page.select_option("#play-saved", "halfway")
        page.click("#play-load")
        expect(page.locator("#position")).to_have_text(halfway, timeout=30_000)
        browser.close()
    assert not problems, problems


def opened(p, url: str, problems: list[str]):
    """Chromium on the workbench's page; every console error and page error noted."""
    browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
    page = browser.new_page(viewport={"width": 1280, "height": 860})
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.goto(url)
    return browser, page


def two_players(page, second: str) -> None:
    """The two-player Ecosystem: Savanna at the table: a person at the first seat, ``second``
    (a bot, or human) at the other."""
    page.select_option("#play-what", "ecosystem_savanna/variants/two_player")
    page.click("#play-seats")
    expect(page.locator("#seat-rows select")).to_have_count(2, timeout=30_000)
    page.select_option("#seat-rows select >> nth=1", second)


def answered(page):
    """The page once the last choice made is answered (the table is not busy)."""
    expect(page.locator("#table[data-busy]")).to_have_count(0, timeout=30_000)
    return page


def first_option(page):
    """The first option shown: a button, or a free cell of the board (once the last
    choice is answered)."""
    answered(page)
    option = page.locator("#options button.option, #boards button.cell").first
    expect(option).to_be_visible(timeout=30_000)
    return option


def test_two_people_at_one_screen_pass_it_between_their_turns(tmp_path):
    """Hot seat: when the turn goes to the other person, a screen asks to pass the device
    and shows nothing of either hand until they say they are there."""
    problems: list[str] = []
    with served(tmp_path / "ws") as url, sync_playwright() as p:
        browser, page = opened(p, url, problems)
        page.click("nav button[data-tab=play]")
        two_players(page, "human")
        page.click("#play-start")
        expect(page.locator("#position")).to_contain_text("Player 1 (you)", timeout=30_000)
        for _ in range(10):
            if answered(page).locator("#pass").is_visible():
                break
            first_option(page).click()
        expect(page.locator("#pass")).to_be_visible()
        expect(page.locator("#pass-text")).to_contain_text("Player 2")
        expect(page.locator("#table")).to_be_hidden()
        shot(page, "pass")
        page.click("#pass-ok")
        expect(page.locator("#position")).to_contain_text("Player 2 (you)")
        browser.close()
    assert not problems, problems
