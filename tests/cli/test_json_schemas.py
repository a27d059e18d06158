"""Every command that prints results as JSON prints the keys docs/json.md documents:
each command run in this process with its JSON option on a small input, its output
parsed, every required key there with its JSON type, no key the page does not name;
and the page names, under the command's own section, every key listed here (so the
page and this schema cannot drift apart)."""
from __future__ import annotations

import json
import re

import pytest

from helpers import ROOT, run_main

SAVANNA = "spec/ecosystem_savanna"
RHINOS = "spec/house_rules/savanna_rhinos.rules"
PAGE = ROOT / "docs" / "json.md"

# JSON types by name; a tuple of names: any of them
STR, INT, NUM, BOOL, ARR, OBJ, NULL = "string", "integer", "number", "boolean", "array", "object", "null"

# command -> what its JSON holds: "required" and "optional" top-level keys with their
# types ("top": "array" when the output is an array: the keys are each item's), and
# "nested": keys of the objects one level down ("key[]": each item of an array), all
# required
SCHEMAS: dict[str, dict] = {
    "check": {
        "required": {"ok": BOOL, "specs": ARR},
        "optional": {},
        "nested": {"specs[]": {"path": STR, "ok": BOOL, "warnings": ARR, "notes": ARR}},
    },
    "score": {
        "required": {"players": ARR},
        "optional": {"state": STR},                         # with --state FILE
        "nested": {"players[]": {"total": INT}},
    },
    "play": {
        "required": {"spec": STR, "mode": STR, "players": INT, "seed": INT, "stopped_at": (STR, NULL),
                     "seats": ARR, "notes": ARR, "reports": OBJ, "state": OBJ, "choices": INT, "seconds": NUM},
        "optional": {"from": STR, "solver_agents": OBJ},
        "nested": {"seats[]": {"name": STR, "kind": STR, "title": STR}},
    },
    "simulate": {
        "required": {"spec": STR, "title": STR, "mode": STR, "players": INT, "games": INT, "seeds": ARR,
                     "agent": STR, "reports": OBJ, "seconds": NUM},
        "optional": {"from": STR, "checkpoint": (STR, NULL), "solver_agents": OBJ, "against": OBJ},
        "nested": {},
    },
    "tournament": {
        "required": {"spec": STR, "mode": STR, "players": INT, "games": INT, "seeds": ARR, "bots": ARR,
                     "seconds": NUM, "workers": INT, "ratings": ARR, "wins": OBJ, "ahead": OBJ,
                     "longest_move": OBJ, "games_played": ARR},
        "optional": {},
        "nested": {"ratings[]": {"bot": STR, "rating": NUM, "interval95": ARR, "games": INT},
                   "games_played[]": {"seed": INT, "bots": ARR, "scores": ARR, "winners": ARR}},
    },
    "study": {
        "required": {"specs": ARR, "title": STR, "mode": STR, "players": INT, "games": INT, "seed": INT,
                     "seats": OBJ, "skill": OBJ, "played": INT, "resumed": INT, "stopped": BOOL, "seconds": NUM,
                     "workers": INT, "sides": ARR, "effects": ARR, "files": OBJ},
        "optional": {"differences": OBJ, "reference": INT, "sweep": ARR},
        "nested": {"sides[]": {"games": INT, "seat_wins": ARR, "scores": ARR, "score": OBJ, "margin": OBJ,
                               "ties": OBJ, "choices": OBJ, "checkpoints": OBJ, "lead_changes": OBJ,
                               "half_leader_wins": OBJ, "skill": OBJ, "options": ARR, "rules": OBJ},
                   "effects[]": {"what": STR, "mean": NUM, "interval99": ARR, "p": NUM, "witness": INT,
                                 "rules": ARR, "play": STR, "play_base": STR},
                   "differences": {"figures": OBJ, "rules": OBJ, "changes": ARR}},
    },
    "show": {
        "required": {"format": STR, "spec": STR, "mode": STR, "seed": (INT, NULL), "checkpoint": (STR, NULL),
                     "switches": OBJ, "seats": ARR, "state": OBJ, "per_seat": OBJ, "per_key": OBJ,
                     "checkpoints": OBJ, "reports": OBJ},
        "optional": {"params": OBJ, "tables": OBJ, "variants": ARR, "resume": OBJ, "seat": STR},
        "nested": {"seats[]": {"name": STR, "kind": STR, "title": STR}},
    },
    "query": {
        "required": {"query": STR, "status": STR, "objective": (INT, ARR, NULL), "bound": (INT, ARR, NULL),
                     "witness": OBJ, "breakdown": OBJ, "seconds": NUM, "replayed": BOOL, "time_limit": NUM,
                     "workers": INT},
        "optional": {"objective_names": ARR, "interrupted": BOOL, "reasons_cut_short": BOOL, "reasons": ARR,
                     "reports": ARR, "model": OBJ, "warnings": ARR},
        "nested": {},
    },
    "verify": {
        "required": {"spec": STR, "findings": ARR, "summary": OBJ},
        "optional": {},
        "nested": {"findings[]": {"check": STR, "definition": STR, "status": STR, "severity": STR,
                                  "rule_ids": ARR, "at": (STR, NULL), "message": STR, "seconds": NUM},
                   "summary": {"findings": INT, "by_status": OBJ, "by_severity": OBJ, "refuted": BOOL,
                               "games_per_mode": INT, "questions": INT, "questions_from_earlier_runs": INT,
                               "games_from_an_earlier_run": BOOL, "seconds_by_check": OBJ, "not_checked": ARR}},
    },
    "diff": {
        "required": {"base": STR, "variant": STR, "changed": ARR, "added": ARR, "removed": ARR,
                     "downstream": ARR},
        "optional": {},
        "nested": {"changed[]": {"name": STR, "kind": STR, "rule_ids": ARR, "doc": STR,
                                 "before": (OBJ, NULL), "after": (OBJ, NULL)},
                   "downstream[]": {"name": STR, "kind": STR, "rule_ids": ARR, "at": STR, "doc": STR}},
    },
    "examples": {
        "top": ARR,
        "required": {"spec": STR, "example": STR, "title": (STR, NULL), "holds": BOOL, "error": (STR, NULL),
                     "expectations": ARR},
        "optional": {},
        "nested": {"expectations[]": {"expect": STR, "holds": BOOL, "at": STR}},
    },
    "list": {
        "required": {"games": ARR, "other_house_rules": ARR},
        "optional": {},
        "nested": {"games[]": {"name": STR, "title": (STR, NULL), "path": STR, "versions": ARR,
                               "house_rules": ARR, "queries": ARR}},
    },
    "graph": {
        "required": {"name": (STR, NULL), "nodes": ARR, "edges": ARR},
        "optional": {},
        "nested": {"nodes[]": {"id": STR, "kind": STR}, "edges[]": {"from": STR, "to": STR, "kind": STR}},
    },
    "docs": {
        "required": {"out": STR, "written": ARR, "measured": ARR},
        "optional": {},
        "nested": {},
    },
    "translations": {
        "required": {"complete": BOOL, "catalogues": ARR},
        "optional": {},
        "nested": {"catalogues[]": {"spec": STR, "lang": STR, "texts": INT, "translated": INT, "stale": ARR,
                                    "missing": ARR, "placeholders_differ": ARR, "written": BOOL}},
    },
}

# command -> the runs checked (small inputs, short time limits); "{state}": a saved position
RUNS: dict[str, list[list[str]]] = {
    "score": [["score", SAVANNA, "examples/margot.grid", "--json"],
              ["score", SAVANNA, "--state", "{state}", "--json"]],
    "play": [["play", SAVANNA, "--players", "3", "--seed", "1", "--json"]],
    "simulate": [["simulate", "spec/ecosystem_savanna/variants/two_player.rules", "--games", "3", "--json"]],
    "tournament": [["tournament", SAVANNA, "--set", "hand_size=3", "--players", "3", "--bots", "random,greedy",
                    "--games", "3", "--workers", "1", "--json"]],
    "study": [["study", "spec/house_rules/savanna_one_direction.rules", "--against", SAVANNA, "--players", "3",
               "--games", "10", "--skill-games", "0", "--workers", "1", "--out", "{out}", "--json"]],
    "show": [["show", SAVANNA, "--state", "{state}", "--json"],
             ["show", SAVANNA, "--state", "{state}", "--as", "p2", "--json"]],
    "query": [["query", SAVANNA, "best-placement", "--state", "examples/partial.grid", "--card", "hyena",
               "--time-limit", "1", "--workers", "1", "--json"]],
    "verify": [["verify", RHINOS, "--check", "property", "--games", "0", "--time-limit", "5", "--workers", "1",
                "--json"]],
    "check": [["check", SAVANNA, "--json"]],
    "diff": [["diff", "spec/darwins_choice", "spec/house_rules/darwin_no_cannibals.rules", "--json"]],
    "examples": [["examples", SAVANNA, "--json"]],
    "list": [["list", "--json"]],
    "graph": [["graph", SAVANNA, "--format", "json"]],
    "docs": [["docs", RHINOS, "--out", "{out}", "--lang", "en", "--json"]],
    "translations": [["translations", SAVANNA, "--check", "--lang", "fr", "--json"]],
}
SLOW_RUNS = {"query", "verify"}         # a second of CPU or more


def json_type(value) -> str:
    if value is None:
        return NULL
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        return INT
    return {float: NUM, str: STR, list: ARR, dict: OBJ}[type(value)]


def has_type(value, wanted) -> bool:
    names = wanted if isinstance(wanted, tuple) else (wanted,)
    got = json_type(value)
    return got in names or (got == INT and NUM in names)


def check_keys(obj, required: dict, optional: dict, where: str) -> None:
    assert isinstance(obj, dict), f"{where}: an object, not {json_type(obj)}"
    for key, wanted in required.items():
        assert key in obj, f"{where}: no key {key!r}"
        assert has_type(obj[key], wanted), f"{where}.{key}: {json_type(obj[key])}, documented {wanted}"
    for key in set(obj) - set(required):
        assert key in optional, f"{where}: key {key!r} is not documented in docs/json.md"
        assert has_type(obj[key], optional[key]), f"{where}.{key}: {json_type(obj[key])}, documented {optional[key]}"


@pytest.fixture(scope="module")
def saved_state(tmp_path_factory):
    """A Savanna game of 3 saved at the 7th pick."""
    from rulewright.cli import main
    path = tmp_path_factory.mktemp("json_schemas") / "pick7.json"
    assert main(["play", SAVANNA, "--players", "3", "--seed", "1", "--stop-at", "pick:7",
                 "--save-state", str(path)]) == 0
    return path


@pytest.mark.parametrize("command", [pytest.param(c, marks=[pytest.mark.slow] if c in SLOW_RUNS else [])
                                     for c in SCHEMAS])
def test_json_output_has_the_documented_keys_and_types(command, saved_state, capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(ROOT)
    schema = SCHEMAS[command]
    for argv in RUNS[command]:
        argv = [str(saved_state) if a == "{state}" else str(tmp_path / "out") if a == "{out}" else a for a in argv]
        code, out, err = run_main(capsys, *argv)
        assert code == 0, err
        data = json.loads(out)
        shown = " ".join(argv)
        items = data if schema.get("top") == ARR else [data]
        assert isinstance(data, list if schema.get("top") == ARR else dict), shown
        assert items, f"{shown}: nothing to check"
        for item in items:
            check_keys(item, schema["required"], schema["optional"], shown)
            for path, keys in schema["nested"].items():
                key = path.removesuffix("[]")
                inner = item[key] if path == key else item[key][:3]      # (a few items: the shape)
                for one in ([inner] if path == key else inner):
                    _required_only(one, keys, f"{shown}: {path}")


def _required_only(obj, keys: dict, where: str) -> None:
    """One level down only what the page names must be there (more may be: the spec's
    own names, a choice of a score...)."""
    assert isinstance(obj, dict), f"{where}: an object, not {json_type(obj)}"
    for key, wanted in keys.items():
        assert key in obj, f"{where}: no key {key!r}"
        assert has_type(obj[key], wanted), f"{where}.{key}: {json_type(obj[key])}, documented {wanted}"


def sections(text: str) -> dict[str, str]:
    """The page's sections by command: the text under '## `rulewright COMMAND`' up to the next '## '."""
    found = {}
    for m in re.finditer(r"^## `rulewright (\w+)[^`]*`\n(.*?)(?=^## |\Z)", text, re.M | re.S):
        found[m.group(1)] = m.group(2)
    return found


def test_the_page_names_every_key_under_its_command():
    found = sections(PAGE.read_text(encoding="utf-8"))
    assert set(SCHEMAS) <= set(found), f"docs/json.md has no section for {sorted(set(SCHEMAS) - set(found))}"
    for command, schema in SCHEMAS.items():
        keys = [*schema["required"], *schema["optional"], *(k for keys in schema["nested"].values() for k in keys)]
        missing = [k for k in keys if f"`{k}`" not in found[command]]
        assert not missing, f"docs/json.md, section {command}: no `{missing}`"


def test_every_command_with_a_json_option_has_a_schema():
    """A command given --json (or --format json) later is documented here and on the page."""
    from rulewright.cli.main import build_parser
    parser = build_parser()
    commands = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction").choices
    with_json = {name for name, sub in commands.items()
                 if any("--json" in a.option_strings or ("--format" in a.option_strings and "json" in (a.choices or ()))
                        for a in sub._actions)}
    assert with_json == set(SCHEMAS)
