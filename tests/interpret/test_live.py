"""A game in progress driven choice by choice, and its copies: what a search bot branches
from (compiler/interpret/live.py, ``rulewright.api.Table``)."""
import random

import pytest

import rulewright
from rulewright.compiler import load
from rulewright.compiler.diagnostics import BadInputError, IllegalMoveError
from rulewright.compiler.interpret import Interpreter, RandomAgent
from rulewright.compiler.interpret.live import Live
from rulewright.compiler.semantics.render import jsonable

from helpers import ROOT


def _agents(seat, seed):
    return RandomAgent(seed * 1_000_003 + seat.index)


def _log(st):
    return repr(st.reports), [(e.kind, e.seat, repr(e.detail)) for e in st.log]


@pytest.fixture(scope="module", params=[("spec/darwins_choice", 4), ("spec/ecosystem_savanna", 4),
                                        ("spec/ecosystem_savanna/variants/solo.rules", 1)])
def game(request):
    path, players = request.param
    program = load(ROOT / path)
    mode = next(m for m, info in program.modes.items() if info.min_players <= players <= info.max_players)
    return Interpreter(program), mode, players


def test_a_seat_driven_from_outside_plays_the_same_game_as_its_agent(game):
    interp, mode, players = game
    live = Live(interp, mode, players, 5)
    first = live.state.players[0]
    agent = _agents(first, 5)
    asked = 0
    while not live.finished:
        assert live.seat == first.name and live.options
        live.apply(agent.choose(live.asked.name, live.asked.options, live.state, live.asked.seat))
        asked += 1
    assert asked > 0
    assert _log(live.state) == _log(interp.play(mode, players, 5, agent_factory=_agents))


def test_a_copy_goes_on_as_the_original_and_apart_from_it(game):
    interp, mode, players = game
    live = Live(interp, mode, players, 2)
    rng = random.Random(0)
    copies = []
    while not live.finished:
        if len(copies) < 4 or rng.random() < 0.2:
            copies.append((live.copy(), len(live.state.log), live.options))
        live.apply(live.options[rng.randrange(len(live.options))])
    ended = _log(live.state)
    # each copy asks what the original asked there; the original's choices played on it end
    # the same game; another choice made on a copy leaves the original as it was
    first = live.state.players[0].name
    picks = [e.detail["value"] for e in live.state.log if e.kind == "choose" and e.seat == first]
    for copy, at, options in copies:
        assert copy.options == options
        assert _log(copy.state)[1] == ended[1][:at]
        done = sum(1 for e in copy.state.log if e.kind == "choose" and e.seat == first)
        branch = copy.copy()
        branch.apply(branch.options[-1])
        for value in picks[done:]:
            copy.apply(next(o for o in copy.options if jsonable(o, state=True) == value))
        assert copy.finished and _log(copy.state) == ended
    assert _log(live.state) == ended


def test_wrong_choices_and_seats_are_refused(game):
    interp, mode, players = game
    live = Live(interp, mode, players, 1)
    with pytest.raises(IllegalMoveError, match="not an option"):
        live.apply(("no", "such", "option"))
    with pytest.raises(BadInputError, match="no player seat 'p9'"):
        Live(interp, mode, players, 1, outside=("p9",))
    st = live.play_out()
    assert live.finished and st.reports
    with pytest.raises(IllegalMoveError, match="game is over"):
        live.apply(None)


def test_the_api_table():
    game = rulewright.load(ROOT / "spec/darwins_choice")
    table = game.start(4, seed=3, seats=("p1", "p2"))
    assert table.seat in ("p1", "p2") and table.options and table.choice
    before = table.copy()
    while table.seat == before.seat and not table.finished:
        table.apply(table.options[0])
    assert before.seat == "p1" and before.options      # untouched by the play on the original
    played = before.play_out(seed=9)
    assert before.finished and played.reports["winners"] and before.reports == played.reports
    assert "p1 to choose" in repr(game.start(4, seed=3))
    with pytest.raises(BadInputError, match="no mode"):
        game.start(4, mode="nosuch")


@pytest.mark.parametrize("fast", [True, False])
def test_a_copy_has_the_log_and_what_each_seat_knows_of_the_original_and_keeps_its_own(fast):
    """A copy, resumed (fast) or rolled forward (the baseline), has the log and what each
    seat knows that a game made again along the history has, and goes on apart after."""
    program = load(ROOT / "spec/ecosystem_savanna")
    interp = Interpreter(program, fast=fast)
    live = Live(interp, "standard", 4, 3)
    rng = random.Random(1)
    for _ in range(9):
        live.apply(live.options[rng.randrange(len(live.options))])
    assert live.state.knowledge is not None and any(live.state.knowledge.known.values())
    copy = live.copy()
    made_again = Live(interp, "standard", 4, 3, forward=list(live.state.history))   # (each event made again)
    for st in (copy.state, made_again.state):
        assert _log(st) == _log(live.state)
        assert st.knowledge.known == live.state.knowledge.known
    before = (_log(live.state), {s: {p: list(c) for p, c in k.items()} for s, k in live.state.knowledge.known.items()})
    copy.apply(copy.options[0])
    copy.apply(copy.options[0])
    assert (_log(live.state), live.state.knowledge.known) == before
    assert len(copy.state.log) > len(live.state.log)


def test_a_stretch_of_play_raises_the_collectors_threshold_and_puts_it_back(game):
    """Inside a stretch (a whole game, or the rules between two choices) the cycle collector
    runs rarely; after it, as it was, whether the stretch ended, failed or was nested; the
    budget still names the game when it runs out. The baseline leaves the collector alone."""
    import gc

    interp, mode, players = game
    suite = gc.get_threshold()          # (the suite's own, raised: tests/conftest.py)
    gc.set_threshold(700, 10, 10)
    try:
        _stretches_put_the_threshold_back(interp, mode, players, (700, 10, 10))
    finally:
        gc.set_threshold(*suite)


def _stretches_put_the_threshold_back(interp, mode, players, before):
    import gc

    from rulewright.compiler.interpret.collecting import FEW
    from rulewright.compiler.semantics import runtime as rt

    with interp.stretch():
        assert gc.get_threshold()[0] == FEW
        with interp.stretch():
            assert gc.get_threshold()[0] == FEW
        assert gc.get_threshold()[0] == FEW        # (the outer one still holds it)
    assert gc.get_threshold() == before
    with pytest.raises(rt.OutOfSteps, match="the game did not finish within"):
        with interp.stretch():
            rt.charge(10 ** 12)
    assert gc.get_threshold() == before
    with Interpreter(interp.program, fast=False).stretch():
        assert gc.get_threshold() == before
    live = Live(interp, mode, players, 5)
    live.apply(live.options[0])
    live.copy().apply(live.options[0])
    assert gc.get_threshold() == before


def test_a_copy_copies_each_agent_once_and_keeps_what_they_share(game):
    """An agent playing two seats stays one agent in a copy, a copy of its own: the copy's
    choices do not move the original's generator, and the two seats draw from one."""
    interp, mode, players = game
    if players < 3:
        pytest.skip("needs two seats played by one agent beside the one played from outside")
    shared = RandomAgent(11)
    live = Live(interp, mode, players, 5, agent_factory=lambda seat, seed: shared)
    start = shared.rng.getstate()
    copy = live.copy()
    agents = list(copy.state.agents.values())
    assert len(agents) == players - 1 and all(a is agents[0] for a in agents) and agents[0] is not shared
    assert agents[0].rng.getstate() == shared.rng.getstate()
    first = copy.options[0]
    again = live.copy()
    assert _log(copy.apply(first).play_out()) == _log(again.apply(first).play_out())
    assert shared.rng.getstate() == start            # (the original's generator did not move)
