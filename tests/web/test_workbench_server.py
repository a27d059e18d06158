"""The workbench's server (``rulewright serve``) through its HTTP answers, in-process:
what it refuses (another origin, another host name, a body too large, a name that leads
out of the workspace, a link in the workspace), what it answers (a draft checked as the
command line checks it, saved into the workspace only, verified and studied in a process
of its own with progress and cancel, a game at the table with undo, save and load), and
that no seat is ever sent another seat's hidden cards."""
from __future__ import annotations

import json
import os
import re
import time

import pytest
from starlette.testclient import TestClient

from rulewright.app.drafting import MOST_TEXT
from rulewright.app.opening import Request, open_spec
from rulewright.compiler.play import views
from rulewright.web.server import MOST_BODY, make_app

ORIGIN = {"Origin": "http://testserver"}


@pytest.fixture
def client(tmp_path):
    ws = tmp_path / "workspace"
    with TestClient(make_app(ws, hosts=("testserver",))) as c:
        c.workspace = ws
        yield c


def hidden(c) -> list[str]:
    """The files the workbench placed in the workspace and has not taken away yet."""
    return [p.name for p in c.workspace.iterdir() if p.name.startswith(".")]


def post(c, path, body, **headers):
    return c.post(path, json=body, headers={**ORIGIN, **headers})


LIONS = """/// Lone lions: a lion with another lion next to it does not hunt.
variant lone_lions "Lone lions" extends "ecosystem_savanna"

/// At most 5 players.
override param max_players: int = 5
"""


# ------------------------------------------------------------------ refused
def test_the_page_runs_only_its_own_script(client):
    r = client.get("/")
    assert r.status_code == 200
    policy = r.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "default-src 'none'" in policy and "unsafe-inline" not in policy
    assert r.headers["x-content-type-options"] == "nosniff"
    assert "<script src=\"/static/workbench.js\"" in r.text and "<script>" not in r.text


def test_a_request_from_another_page_changes_nothing(client):
    for headers in ({"Origin": "http://evil.example"}, {"Origin": "null"}, {}):
        r = client.post("/api/save", json={"name": "x", "text": LIONS}, headers=headers)
        assert r.status_code == 403, headers
        assert "another page" in r.json()["error"]
    assert not (client.workspace / "x.rules").exists()


def test_another_host_name_is_refused(client):
    # a page that renamed its own name to this machine's address (DNS rebinding)
    r = client.get("/api/library", headers={"Host": "evil.example"})
    assert r.status_code == 421 and "evil.example" in r.json()["error"]


def test_bodies_are_json_and_bounded(client):
    r = client.post("/api/check", content=b"name=x", headers={**ORIGIN, "Content-Type": "application/x-www-form-urlencoded"})
    assert r.status_code == 415
    r = client.post("/api/check", content=b"{", headers={**ORIGIN, "Content-Type": "application/json"})
    assert r.status_code == 400 and "not JSON" in r.json()["error"]
    r = client.post("/api/check", content=b"x" * (MOST_BODY + 1), headers={**ORIGIN, "Content-Type": "application/json"})
    assert r.status_code == 413
    r = post(client, "/api/check", {"name": "x", "text": "#" * (MOST_TEXT + 1)})
    assert r.status_code == 400 and "characters long" in r.json()["error"]


@pytest.mark.parametrize("name", ["../escape", "/etc/passwd", "a/b", "x.rules", "", "..", "a\x00b", 7, None])
def test_a_name_cannot_lead_out_of_the_workspace(client, name):
    r = post(client, "/api/save", {"name": name, "text": LIONS})
    assert r.status_code == 400, r.text
    assert "not a house rule's name" in r.json()["error"]
    assert list(client.workspace.iterdir()) == []


def test_a_link_in_the_workspace_is_not_written_through(client, tmp_path):
    outside = tmp_path / "outside.rules"
    outside.write_text("kept\n")
    os.symlink(outside, client.workspace / "linked.rules")
    r = post(client, "/api/save", {"name": "linked", "text": LIONS})
    assert r.status_code == 400 and "symbolic link" in r.json()["error"]
    assert outside.read_text() == "kept\n"


def test_files_are_opened_by_name_only(client):
    for name in ("../../etc/passwd", "/etc/passwd", "spec/../../x"):
        r = post(client, "/api/open", {"name": name})
        assert r.status_code == 400 and "nothing named" in r.json()["error"]


# ------------------------------------------------------------------ write
def test_a_draft_is_checked_located_fixed_and_saved(client):
    broken = LIONS.replace("int = 5", "int = five")
    r = post(client, "/api/check", {"name": "lone_lions", "text": broken}).json()
    assert r["ok"] is False
    e = r["errors"][0]          # (what follows from it in the base game may be said after)
    assert (e["line"], e["col"]) == (5, broken.splitlines()[4].index("five") + 1)
    assert ".lone_lions." not in json.dumps(r) and not hidden(client)     # the draft's own file: never shown, gone
    assert "".join(t for _, t in r["tokens"]) == broken       # the tokens are the whole text
    assert ["keyword", "variant"] in r["tokens"]
    r = post(client, "/api/check", {"name": "lone_lions", "text": LIONS}).json()
    assert r["ok"] is True and r["title"] == "Ecosystem: Savanna: Lone lions" and r["base"] == "ecosystem_savanna"
    assert any("max_players" in line for line in r["diff"])
    r = post(client, "/api/save", {"name": "lone_lions", "text": LIONS}).json()
    assert r["saved"] == "lone_lions.rules"
    assert (client.workspace / "lone_lions.rules").read_text() == LIONS
    lib = client.get("/api/library").json()
    assert lib["workspace"] == ["lone_lions"]
    assert post(client, "/api/open", {"name": "lone_lions"}).json()["text"] == LIONS


def test_a_shipped_house_rule_opens_extending_its_game_by_name(client):
    r = post(client, "/api/open", {"name": "house_rules/savanna_rare_lions"}).json()
    assert 'extends "ecosystem_savanna"' in r["text"] and r["name"] == "savanna_rare_lions"
    assert post(client, "/api/check", {"name": r["name"], "text": r["text"]}).json()["ok"]
    new = post(client, "/api/open", {"name": "darwins_choice"}).json()
    assert new["from"] == "template" and 'extends "darwins_choice"' in new["text"]
    assert post(client, "/api/check", new).json()["ok"]


# ------------------------------------------------------------------ verify and study
def events(client, job_id: str) -> list[dict]:
    with client.stream("GET", f"/api/jobs/{job_id}/events") as r:
        assert r.headers["content-type"].startswith("text/event-stream")
        return [json.loads(line[6:]) for line in r.iter_lines() if line.startswith("data: ")]


def test_verify_runs_apart_with_its_progress(client):
    job = post(client, "/api/jobs", {"kind": "verify", "name": "lone_lions", "text": LIONS,
                                     "checks": ["property"], "time_limit": 10}).json()
    seen = events(client, job["id"])
    assert seen[-1]["type"] == "done", seen[-3:]
    assert any(e["type"] == "progress" for e in seen)
    r = client.get(f"/api/jobs/{job['id']}").json()
    statuses = {f["status"] for f in r["result"]["findings"]}
    assert statuses and statuses <= {"PROVED", "SAMPLED", "UNKNOWN", "COUNTEREXAMPLE"}
    assert ".lone_lions." not in json.dumps(r) and not hidden(client)


def test_a_long_verify_is_cancelled_at_once(client):
    job = post(client, "/api/jobs", {"kind": "verify", "name": "long", "text":
                                     'variant long "Long" extends "darwins_choice"\n', "time_limit": 60}).json()
    time.sleep(1.0)
    assert post(client, f"/api/jobs/{job['id']}/cancel", {}).json() == {"cancelled": True}
    assert events(client, job["id"])[-1]["type"] == "cancelled"
    wb = client.app.workbench
    proc = wb.jobs.get(job["id"]).process
    proc.join(5)
    assert not proc.is_alive()


def test_a_job_names_its_kind_and_a_draft_with_an_error_fails_located(client):
    assert post(client, "/api/jobs", {"kind": "shell", "name": "x", "text": LIONS}).status_code == 400
    job = post(client, "/api/jobs", {"kind": "verify", "name": "bad", "text": LIONS.replace("5", "five")}).json()
    last = events(client, job["id"])[-1]
    assert last["type"] == "failed" and "bad.rules:5:" in last["message"] and ".bad." not in last["message"]


def test_the_events_end_only_once_the_last_one_is_in(client):
    # A job whose state is already set but whose last event is not yet recorded (the moment
    # between the two in the thread that reads the job) is still followed, not ended empty.
    import threading

    from rulewright.web.jobs import Job
    job = Job("verify-late", "verify", state="failed")
    client.app.workbench.jobs._jobs[job.id] = job
    threading.Timer(0.6, job.close, args=({"type": "failed", "message": "late"},)).start()
    assert events(client, job.id) == [{"type": "failed", "message": "late"}]


def test_a_small_study_reports_its_figures_and_a_page_that_runs_no_script(client):
    job = post(client, "/api/jobs", {"kind": "study", "name": "lone_lions", "text": LIONS, "games": 6,
                                     "players": 3, "skill_games": 2}).json()
    assert events(client, job["id"])[-1]["type"] == "done"
    r = client.get(f"/api/jobs/{job['id']}").json()["result"]
    assert r["games"] == 2 * (6 + 2) and r["rows"] and r["columns"][0]
    assert r["changes"] == ["param max_players changed [ES-AMB-07 ES-COMP-04]; played through mode standard"], r["changes"]
    page = client.get(f"/api/jobs/{job['id']}/report")
    assert page.status_code == 200 and "sandbox" in page.headers["content-security-policy"]
    assert "<script" not in page.text.lower()


# ------------------------------------------------------------------ play
def test_a_game_at_the_table_with_undo_save_and_load(client):
    seats = post(client, "/api/seats", {"shipped": "ecosystem_savanna/variants/two_player"}).json()
    assert [s["name"] for s in seats["seats"]] == ["p1", "p2"]
    t = post(client, "/api/tables", {"shipped": "ecosystem_savanna/variants/two_player",
                                     "seats": {"p1": "human", "p2": "greedy"}, "seed": 4}).json()
    url = f"/api/tables/{t['id']}/seats/p1"
    v = client.get(url).json()
    assert v["turn"] == "p1" and v["options"] and not v["can_undo"]
    first = v
    v = post(client, url + "/choose", {"index": 0}).json()
    assert v["can_undo"]
    v = post(client, url + "/undo", {}).json()
    assert v["options"] == first["options"] and v["position"] == first["position"]
    hint = post(client, url + "/suggest", {}).json()     # the playing query's plan, with its reasons
    assert hint["found"] and "proved best" in hint["how"] and hint["lines"]
    assert v["options"][hint["index"]]["text"].startswith(hint["text"])
    assert post(client, url + "/suggest", {"bot": "greedy"}).json()["found"]
    assert post(client, url + "/suggest", {"bot": "cheater"}).status_code == 400
    assert post(client, url + "/choose", {"index": 99}).status_code == 400
    assert post(client, url + "/choose", {"index": "0"}).status_code == 400
    assert client.get(f"/api/tables/{t['id']}/seats/p2").status_code == 400      # a bot's seat: not shown
    for _ in range(3):
        v = post(client, url + "/choose", {"index": len(v["options"]) - 1}).json()
    saved = post(client, f"/api/tables/{t['id']}/save", {"name": "halfway"}).json()
    assert saved["saved"] == "halfway.json" and (client.workspace / "halfway.json").is_file()
    again = post(client, "/api/tables/load", {"shipped": "ecosystem_savanna/variants/two_player", "game": "halfway",
                                              "seats": {"p1": "human", "p2": "greedy"}}).json()
    w = client.get(f"/api/tables/{again['id']}/seats/p1").json()
    assert (w["position"], w["options"]) == (v["position"], v["options"])
    download = client.get(f"/api/tables/{t['id']}/save")
    assert json.loads(download.text)["resume"]["history"]
    assert post(client, url + "/step", {"step": 0}).status_code == 400      # not over yet
    while not v["finished"]:
        v = post(client, url + "/choose", {"index": 0}).json()
    assert v["result"] and not v.get("options")
    start = post(client, url + "/step", {"step": 0}).json()
    assert start["steps"] > 40 and "0 card(s)" in "\n".join(start["position"])
    end = post(client, url + "/step", {"step": start["steps"]}).json()
    assert end["position"] == v["position"] and end["next"] == ""
    assert post(client, url + "/step", {"step": start["steps"] + 1}).status_code == 400


def test_no_seat_is_sent_another_seats_hidden_cards(client):
    """Two people and a bot play whole games of Darwin's Choice; at every choice, each
    person's answer is read for the card names in the other seats' hidden hands that the
    person's own view (views.view) does not hold and that the rules did not announce to
    every seat (a ``note``: a card taken from the face-up trade zone is told): none may
    appear."""
    spec = "darwins_choice"
    program = open_spec(Request(str(__import__("rulewright.compiler.files", fromlist=["x"]).shipped(spec))))
    hands = [v.name for v in program.state.values() if v.per_seat and v.is_pile and not v.public]
    assert hands
    wb = client.app.workbench
    for seed in (1, 2):
        t = post(client, "/api/tables", {"shipped": spec, "players": 3, "seed": seed,
                                         "seats": {"p1": "human", "p2": "human", "p3": "random"}}).json()
        sitting = wb.tables[t["id"]]
        checked = 0
        while not sitting.live.finished:
            st = sitting.state
            for seat in ("p1", "p2"):
                sent = json.dumps(client.get(f"/api/tables/{t['id']}/seats/{seat}").json())
                own = json.dumps(views.view(st, seat)) + json.dumps(
                    [e.detail for e in st.log if e.kind == "note"], default=str)
                hidden = {str(c) for other in st.seats if other.name != seat and other.kind == "player"
                          for name in hands for c in st.per[name][other]}
                secret = {c for c in hidden if not _names(c, own)}
                leaked = [c for c in secret if _names(c, sent)]
                assert not leaked, (seed, seat, leaked)
                checked += len(secret)
            turn = sitting.turn
            n = len(client.get(f"/api/tables/{t['id']}/seats/{turn}").json()["options"])
            post(client, f"/api/tables/{t['id']}/seats/{turn}/choose", {"index": (seed * 7 + checked) % n})
        assert checked > 50         # the hands were hidden, and looked for


def _names(card: str, text: str) -> bool:
    """Whether ``text`` names ``card`` as a whole word (``lion_head`` is not in ``sea_lion_head``)."""
    return re.search(rf"(?<![A-Za-z0-9_]){re.escape(card)}(?![A-Za-z0-9_])", text) is not None


def test_a_witness_is_drawn_and_its_game_replayed(client):
    """A house rule that loses a card (the verify corpus's vanishing fire): verify's
    counterexample comes with its game, which the page replays to the same broken
    invariant, and its position."""
    from helpers import ROOT
    text = (ROOT / "tests/verify/corpus/savanna_vanishing_fire.rules").read_text(encoding="utf-8")
    text = text.replace('"../../../spec/ecosystem_savanna"', '"ecosystem_savanna"')
    job = post(client, "/api/jobs", {"kind": "verify", "name": "fire", "text": text, "checks": ["invariant"]}).json()
    assert events(client, job["id"])[-1]["type"] == "done"
    findings = client.get(f"/api/jobs/{job['id']}").json()["result"]["findings"]
    [broken] = [f for f in findings if f["status"] == "COUNTEREXAMPLE"]
    drawn = broken["drawn"]
    assert drawn["game"]["seed"] is not None and drawn["position"] and drawn["lines"]
    again = post(client, "/api/replay", {"name": "fire", "text": text, "game": drawn["game"]}).json()
    assert "cards_accounted_for" in again["error"]
    assert ".fire." not in json.dumps(again) and not hidden(client)
    shown = post(client, "/api/replay", {"name": "fire", "text": text, "position": drawn["position"]})
    assert "cards_accounted_for" in json.dumps(shown.json())


def test_a_draft_reads_the_files_of_the_workspace_as_its_saved_file_would(client):
    """A house rule that takes its biomes from a table file of the workspace checks, is
    played and studied as it is written: the draft is placed beside where it is saved."""
    from helpers import ROOT
    client.workspace.mkdir(parents=True, exist_ok=True)
    rows = (ROOT / "spec/darwins_choice/biomes.csv").read_text(encoding="utf-8").splitlines()
    (client.workspace / "my_biomes.csv").write_text("\n".join(rows[:1] + [r.replace(",6,4,2,", ",7,4,2,", 1)
                                                                         for r in rows[1:]]) + "\n")
    text = ('variant richer "Richer plants" extends "darwins_choice"\n\n'
            '/// The biomes, from my own table.\n'
            'override table biome (title: text, fr: text, es: text, zh: text, pair: text, '
            'central: set of ability, requires: list of set of ability, forbids: set of ability, plants: int, '
            'meat: int, points: int, source: text, note: text) from "my_biomes.csv"\n')
    r = post(client, "/api/check", {"name": "richer", "text": text}).json()
    assert r["ok"], r
    assert any("biome" in line for line in r["diff"])
    t = post(client, "/api/tables", {"name": "richer", "text": text, "players": 3, "seats": {"p1": "human"}}).json()
    assert len(hidden(client)) == 1         # the draft's file the game is played from, while it is
    saved = client.get(f"/api/tables/{t['id']}/save").text
    assert str(client.workspace.resolve() / "richer.rules") in json.loads(saved)["variants"]


def test_a_table_speaks_the_language_chosen(client):
    english = post(client, "/api/tables", {"shipped": "darwins_choice", "players": 3, "seats": {"p1": "human"}}).json()
    french = post(client, "/api/tables", {"shipped": "darwins_choice", "players": 3, "seats": {"p1": "human"},
                                         "lang": "fr"}).json()
    asked = [client.get(f"/api/tables/{t['id']}/seats/p1").json()["question"] for t in (english, french)]
    assert asked[0] != asked[1] and "Draw" in asked[0]
    assert post(client, "/api/tables", {"shipped": "darwins_choice", "lang": "xx"}).status_code == 400
