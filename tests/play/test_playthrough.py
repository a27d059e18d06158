"""Known answers and a seeded playthrough, replayed step by step.

Placement counts on fixed partial grids are known answers (python-chess's perft
idea). A seeded three-player game's event log is stored as a golden file; the
test replays every recorded choice through fresh agents and checks the same game
comes out, with every choice still legal when it is made.
"""
import json

import pytest

from helpers import ROOT, grid, savanna
from rulewright.compiler import load
from rulewright.compiler.play import state_io
from rulewright.compiler.semantics import render
from rulewright.compiler.semantics import runtime as rt
from rulewright.compiler.diagnostics import IllegalMoveError
from rulewright.compiler.interpret import Interpreter, ReplayAgent

GOLDEN = ROOT / "tests" / "golden" / "play" / "savanna_playthrough_3p_seed1.jsonl"


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


GAMES = {
    # name: (spec, mode, players, seed, golden file)
    "savanna": (ROOT / "spec" / "ecosystem_savanna", "standard", 3, 1, GOLDEN),
    "darwin": (ROOT / "spec" / "darwins_choice", "standard", 4, 3,
               ROOT / "tests" / "golden" / "play" / "darwin_playthrough_4p_seed3.jsonl"),
}


def interpreter(spec):
    return Interpreter(load(spec))


def trace(state):
    return [{"kind": e.kind, "seat": e.seat, **{k: render.jsonable(v, state=True) for k, v in e.detail.items()}}
            for e in state.log]


@pytest.mark.parametrize("game", GAMES)
def test_playthrough_matches_golden(game, update_golden):
    spec, mode, players, seed, golden = GAMES[game]
    state = interpreter(spec).play(mode, players, seed)
    lines = [json.dumps(event, sort_keys=True, ensure_ascii=False) for event in trace(state)]
    text = "\n".join(lines) + "\n"
    if update_golden or not golden.exists():
        golden.write_text(text, encoding="utf-8")
    assert text == golden.read_text(encoding="utf-8"), \
        "the seeded game changed; rerun with --update-golden and review the diff"


def recorded(golden):
    """The events of a golden trace and each seat's choices in order."""
    events = [json.loads(line) for line in golden.read_text(encoding="utf-8").splitlines()]
    by_seat: dict = {}
    for e in events:
        if e["kind"] == "choose" and e["seat"] is not None:
            by_seat.setdefault(e["seat"], []).append((e["choice"], e["value"]))
    return events, by_seat


@pytest.mark.parametrize("game", GAMES)
def test_playthrough_replays_step_by_step(game):
    spec, mode, players, seed, golden = GAMES[game]
    interp = interpreter(spec)
    events, by_seat = recorded(golden)
    agents = {seat: ReplayAgent(choices) for seat, choices in by_seat.items()}
    state = interp.play(mode, players, seed, agent_factory=lambda seat, seed: agents[seat.name])
    assert trace(state) == events
    assert all(not a.choices for a in agents.values())
    reference = interp.play(mode, players, seed)
    assert render.jsonable(state.reports, state=True) == render.jsonable(reference.reports, state=True)


def test_replay_rejects_an_illegal_traced_choice():
    """A trace edited to an option the rules forbid is refused where it happens."""
    spec, mode, players, seed, golden = GAMES["darwin"]
    interp = interpreter(spec)
    events, by_seat = recorded(golden)
    seat, choices = next((s, c) for s, c in by_seat.items() if any(n == "made" for n, _ in c))
    i = next(k for k, (n, _) in enumerate(choices) if n == "made")
    choices[i] = ("made", [["macaw_head"], choices[i][1][1]])   # a head alone is no species
    agents = {s: ReplayAgent(c) for s, c in by_seat.items()}
    with pytest.raises(IllegalMoveError, match="not legal here"):
        interp.play(mode, players, seed, agent_factory=lambda s, _: agents[s.name])
