"""Known answers and a seeded playthrough, replayed step by step.

Placement counts on fixed partial grids are known answers (python-chess's perft
idea). A seeded three-player game's event log is stored as a golden file; the
test replays every recorded choice through fresh agents and checks the same game
comes out, with every choice still legal when it is made.
"""
import json
from pathlib import Path

import pytest

from conftest import grid, savanna
from compiler import runtime as rt
from compiler.interpret import ReplayAgent

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden" / "savanna_playthrough_3p_seed1.jsonl"


def legal_spots(interp, board):
    spots = rt.placements(board)
    return [s for s in spots if interp.call("can_place", board, s)]


@pytest.mark.parametrize("text,expected", [
    ("", 1),                                                          # the first card: anywhere
    ("G", 4),                                                         # then next to it
    ("G G", 6),
    ("G G G G G", 10),                                                # a full row: above or below
    ("G\nG\nG\nG", 8),                                                # a full column: left or right
    ("G G\nG G", 8),
    ("G G G G G\nG G G G G\nG G G G G", 10),                          # the fourth row above or below
    ("G . . . G\nG G G G G", 10),                                     # 3 gaps, 2 above, 5 below
])
def test_legal_placement_counts(interp, text, expected):
    board = rt.Board("ecosystem", 4, 5, True)
    for r, line in enumerate(text.splitlines()):
        for c, x in enumerate(line.split()):
            if x != ".":
                board = rt.Board("ecosystem", 4, 5, True, {**board.cards, (r, c): "gazelle"})
    assert len(legal_spots(interp, board)) == expected


def trace(state):
    return [{"kind": e.kind, "seat": e.seat, **e.detail} for e in state.log]


def test_playthrough_matches_golden(update_golden):
    _, interp = savanna()
    state = interp.play("standard", 3, 1)
    lines = [json.dumps(event, sort_keys=True) for event in trace(state)]
    text = "\n".join(lines) + "\n"
    if update_golden or not GOLDEN.exists():
        GOLDEN.write_text(text)
    assert text == GOLDEN.read_text(), "the seeded game changed; rerun with --update-golden and review"


def test_playthrough_replays_step_by_step():
    _, interp = savanna()
    events = [json.loads(line) for line in GOLDEN.read_text().splitlines()]
    by_seat: dict = {}
    for e in events:
        if e["kind"] == "choose" and e["seat"] is not None:
            by_seat.setdefault(e["seat"], []).append((e["choice"], e["value"]))
    agents = {seat: ReplayAgent(choices) for seat, choices in by_seat.items()}
    state = interp.play("standard", 3, 1, agent_factory=lambda seat, seed: agents[seat.name])
    assert trace(state) == events
    assert all(not a.choices for a in agents.values())
    totals = {p.name: int(s) for p, s in state.reports["score"].items()}
    assert totals == {p.name: int(s) for p, s in interp.play("standard", 3, 1).reports["score"].items()}
