"""Ecosystem: Savanna's best-pick query on saved positions, and the solver agent
that plays it.

The query's optimum is checked against brute force through the interpreter: every
card of the hand on every legal place (and in the solo game every card given to
Jhay), each scored by the spec's own scoring.
"""
from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulewright.compiler import load
from rulewright.compiler.semantics import runtime as rt
from rulewright.solver.agent import SolverAgent, summary
from rulewright.solver.queries import interpreter_for, run_query
from helpers import ROOT, one_free_grid, rel, run_command

SPEC = ROOT / "spec" / "ecosystem_savanna"
TWO = SPEC / "variants" / "two_player.rules"
SOLO = SPEC / "variants" / "solo.rules"


def programs() -> dict:
    if not programs.cache:
        programs.cache.update(standard=load(SPEC), two_player=load(TWO), solo=load(SOLO))
    return programs.cache


programs.cache: dict = {}


def position(mode: str, players: int, seed: int, at: int):
    prog = programs()[mode]
    checkpoint = "turn" if mode == "solo" else "pick"
    return prog, interpreter_for(prog).play(mode, players, seed, stop_at=f"{checkpoint}:{at}")


def brute_pick(prog, state, p) -> int | None:
    """The best score now over every card of the hand on every legal place: the game's
    own final score (its outcome, the other seats' herds as it counts them) of the
    position with that card placed, not the query's rival_herds."""
    it = interpreter_for(prog)
    board, hand = state.per["board"][p], state.per["hand"][p]
    values = []
    try:
        for k in dict.fromkeys(hand.cards):
            for spot in rt.placements(board):
                if it.call("can_place", board, spot):
                    state.per["board"][p] = rt.placed(board, k, spot)
                    values.append(it.call(prog.outcome, p, state=state))
    finally:
        state.per["board"][p] = board
    return max(values, default=None)


def brute_solo_turn(prog, state, you) -> int | None:
    """The widest margin now over every card placed, every place and every gift to
    Jhay, his score the least his lions' prey allows."""
    it = interpreter_for(prog)
    jhay = it.call("jhay", state=state)
    mine0, his0 = state.per["board"][you], state.per["board"][jhay]
    cards = list(state.per["hand"][you].cards)
    spot_his = it.call("next_in_reading_order", his0)
    best = None
    for i, k in enumerate(cards):
        for spot in rt.placements(mine0):
            if not it.call("can_place", mine0, spot):
                continue
            mine = rt.placed(mine0, k, spot)
            for gift in dict.fromkeys(cards[:i] + cards[i + 1:]):
                his = rt.placed(his0, gift, spot_his)
                margin = it.call("score", mine, [it.call("herd_size", his)], state=state) - \
                    it.call("score", his, [it.call("herd_size", mine)], state=state, mode=-1)
                best = margin if best is None else max(best, margin)
    return best


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mode=st.sampled_from(["standard", "two_player"]), players=st.integers(3, 5), seed=st.integers(1, 10_000),
       at=st.integers(1, 20), seat=st.integers(0, 4))
def test_best_pick_equals_brute_force(mode, players, seed, at, seat):
    players = 2 if mode == "two_player" else players
    prog, state = position(mode, players, seed, at)
    p = state.seats[seat % players]
    answer = run_query(prog, "best_pick", {"player": p}, state=state, time_limit=60, workers=1, reasons=False)
    best = brute_pick(prog, state, p)
    assert answer.status == "OPTIMAL" and answer.replayed
    assert answer.objective == best
    it = interpreter_for(prog)
    k, spot = answer.witness["k"], answer.witness["spot"]
    assert k in state.per["hand"][p].cards and it.call("can_place", state.per["board"][p], spot)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(1, 10_000), at=st.integers(1, 20))
def test_solo_best_turn_equals_brute_force(seed, at):
    """In the solo game the query also chooses the card given to Jhay, for the widest
    margin now, Jhay's lions taking what leaves him least (least(...) of a known grid)."""
    prog, state = position("solo", 1, seed, at)
    you = state.seats[0]
    answer = run_query(prog, "best_pick", {}, state=state, time_limit=60, workers=1, reasons=False)
    assert answer.status == "OPTIMAL" and answer.replayed
    assert answer.objective == brute_solo_turn(prog, state, you)
    hand = list(state.per["hand"][you].cards)
    hand.remove(answer.witness["k"])
    assert answer.witness["gift"] in hand
    margin = dict((n, v) for n, v, _ in answer.reports)["margin_now"]
    assert margin == answer.objective
    # the player's own lion prey is shown (Jhay's score, computed whole, has its own)
    assert "lion_prey" in answer.witness


def test_a_solo_turn_that_cannot_be_played_is_told_why():
    prog, state = position("solo", 1, 3, 6)
    you, jhay = state.seats
    hand = state.per["hand"][you]
    hand.cards[:] = hand.cards[:1]
    answer = run_query(prog, "best_pick", {}, state=state, time_limit=10)
    assert answer.status == "INFEASIBLE" and [r.rule for r in answer.reasons] == ["has_a_gift"]
    assert answer.reasons[0].sentence == "You: 1 card(s) in hand, and a turn places one and gives Jhay another"
    prog, state = position("solo", 1, 3, 6)
    it = interpreter_for(prog)
    board = state.per["board"][jhay]
    while len(board.cards) < 20:           # Jhay's 4 x 5 grid filled in reading order
        board = rt.placed(board, "tree", it.call("next_in_reading_order", board))
    state.per["board"][jhay] = board
    answer = run_query(prog, "best_pick", {}, state=state, time_limit=10)
    assert answer.status == "INFEASIBLE" and [r.rule for r in answer.reasons] == ["takes_a_gift"]
    assert answer.reasons[0].sentence == "Jhay's ecosystem is full: the game is over"


def test_least_of_known_arguments_without_a_position(tmp_path):
    """least(...) of a grid known from the inputs and a choice: no saved position,
    and the answer is the brute force's (every place, its least score)."""
    variant = tmp_path / "worst.rules"
    variant.write_text(f'variant worst "Worst" extends "{rel(SPEC, variant.parent)}"\n\n'
                       'query worst "Worst place" {\n'
                       '  input state: ecosystem\n'
                       '  input card: card\n'
                       '  choose spot in placements(state) where can_place(state, spot)\n'
                       '  maximize 0 - least(score(placed(state, card, spot), []))\n'
                       '}\n')
    prog = load(variant)
    it = interpreter_for(prog)
    from rulewright.compiler.play.inputs import read_grid
    board = read_grid(str(ROOT / "examples" / "partial.grid"), prog, "ecosystem", allow_free=True)
    answer = run_query(prog, "worst", {"state": board, "card": "lion"}, time_limit=30)
    best = max(-it.call("score", rt.placed(board, "lion", spot), (), mode=-1)
               for spot in rt.placements(board) if it.call("can_place", board, spot))
    assert answer.status == "OPTIMAL" and answer.replayed and answer.objective == best


def test_who_cannot_pick_is_told_why():
    prog, state = position("two_player", 2, 3, 4)
    neutral = next(s for s in state.seats if s.kind == "neutral")
    answer = run_query(prog, "best_pick", {"player": neutral}, state=state, time_limit=10)
    assert answer.status == "INFEASIBLE"
    assert [r for r in answer.reasons if r.rule == "drafts"]
    prog, state = position("solo", 1, 3, 4)
    answer = run_query(prog, "best_pick", {"player": state.seats[1]}, state=state, time_limit=10)
    assert answer.status == "INFEASIBLE" and [r for r in answer.reasons if r.rule == "drafts"]


@pytest.mark.parametrize("mode,players,choices", [("standard", 4, ("k", "spot")), ("two_player", 2, ("k", "spot")),
                                                  ("solo", 1, ("k", "spot", "gift"))])
def test_solver_agent_plays_every_pick(mode, players, choices):
    """The agent takes the answer at every pick of its seat (every turn of the solo
    game): no choice of its seat is made at random, and the game ends with its
    ecosystem full."""
    prog = programs()[mode]
    agents = []

    def factory(seat, seed):
        if seat.index == 0:
            agents.append(SolverAgent(prog, "best_pick", seed, time_limit=30))
            return agents[-1]
        from rulewright.compiler.interpret import RandomAgent
        return RandomAgent(seed)

    state = interpreter_for(prog).play(mode, players, 5, agent_factory=factory)
    done = summary(agents[0])
    picks = 20
    assert done["asked"] == done["answered"] == picks
    assert done["from_answers"] == picks * len(choices) and not done["at_random"]
    board = state.per["board"][state.seats[0]]
    assert len(board.cards) == 20


def test_play_with_the_solver_agent_from_the_command_line():
    out = run_command("play", str(SPEC), "--players", "3", "--seed", "2",
                      "--agent", "solver", "--agent-seats", "p2", "--json", cwd=ROOT)
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["solver_agents"]["p2"]["query"] == "best_pick"
    assert doc["solver_agents"]["p2"]["from_answers"] == 40


def test_least_of_a_chosen_grid_is_refused_with_a_hint(tmp_path):
    """least(...) of a grid the solver chooses has no encoding: the error is at the
    choice made against the owner (not at its doc comment) and says what works."""
    variant = tmp_path / "worst.rules"
    variant.write_text(f'variant worst "Worst" extends "{rel(SPEC, variant.parent)}"\n\n'
                       'query worst "Worst grid" {\n'
                       '  choose g: ecosystem where full(g) and within(contents(g), box)\n'
                       '  maximize 0 - least(score(g, []))\n'
                       '}\n')
    out = run_command("query", str(variant), "worst", cwd=ROOT)
    assert out.returncode == 1, out.stderr
    assert "Traceback" not in out.stderr
    first = out.stderr.splitlines()[0]
    line = next(i for i, text in enumerate((SPEC / "scoring.rules").read_text().splitlines(), 1)
                if text.strip().startswith("choose lion_prey"))
    assert first.startswith(f"spec/ecosystem_savanna/scoring.rules:{line}:5: error: the solver cannot minimise")
    assert "least(...) is computed whole when its arguments are known" in out.stderr
    # known arguments, but a scoring step that reads the game, and no position: the same
    variant.write_text(variant.read_text().replace("query worst", "add step score.crowd = size(players)\n\nquery worst")
                       .replace("choose g: ecosystem where full(g) and within(contents(g), box)",
                                "input g: ecosystem\n  input k: card\n  choose spot in placements(g) where can_place(g, spot)")
                       .replace("least(score(g, []))", "least(score(placed(g, k, spot), []))"))
    out = run_command("query", str(variant), "worst", "--g",
                      "examples/partial.grid", "--k", "lion", cwd=ROOT)
    assert out.returncode == 1 and "Traceback" not in out.stderr and "internal error" not in out.stderr
    assert "the query is asked on a position" in out.stderr


def test_a_rule_without_parameters_gives_its_sentence(tmp_path):
    variant = tmp_path / "z.rules"
    variant.write_text(f'variant z "Z" extends "{rel(SOLO, variant.parent)}"\n'
                       'rule jhay_room [ES-SOLO-04] = not full(board(jhay))\n'
                       '  else "no room left for Jhay"\n'
                       'override query best_pick "B" {\n'
                       '  input player: seat = first(players)\n'
                       '  require jhay_room\n'
                       '  choose k in hand(player)\n'
                       '  maximize 1\n'
                       '}\n')
    prog = load(variant)
    state = interpreter_for(prog).play("solo", 1, 3, stop_at="turn:6")
    jhay = state.seats[1]
    board = state.per["board"][jhay]
    while len(board.cards) < 20:
        board = rt.placed(board, "tree", interpreter_for(prog).call("next_in_reading_order", board))
    state.per["board"][jhay] = board
    answer = run_query(prog, "best_pick", {}, state=state, time_limit=10)
    assert answer.status == "INFEASIBLE"
    assert [(r.rule, r.sentence, r.ids) for r in answer.reasons] == [("jhay_room", "no room left for Jhay",
                                                                       ("ES-SOLO-04",))]


def test_a_scoring_choice_of_cells_is_shown_as_cells(tmp_path):
    """The lion's prey chosen inside the score is shown as cells: "(r, c)" (Margot's grid
    with its lion, one cell left free: the answer comes at once)."""
    out = run_command("query", str(SPEC), "best-placement", "--state",
                      one_free_grid(tmp_path), "--card", "hyena", cwd=ROOT)
    assert out.returncode == 0, out.stderr
    line = next(ln for ln in out.stdout.splitlines() if ln.startswith("  lion prey:"))
    assert re.fullmatch(r"  lion prey: (none|\(-?\d+, -?\d+\)( \(-?\d+, -?\d+\))*)", line), line
