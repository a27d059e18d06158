"""The solver agent: a seat that plays the answers of a query (best-move of Darwin's
Choice) in a game the interpreter runs. Its command-line use (--agent solver) is in
tests/cli/test_cli.py; Savanna's best-pick agent in
tests/games/ecosystem_savanna/test_savanna_picks.py."""
from helpers import ROOT

DC = "spec/darwins_choice"


def test_darwin_solver_agent_trades_when_allowed():
    """With allow_trade the agent's creations may take a Trade Zone card first: the
    trades its answers plan happen, each card taken goes into the species created that
    turn, and the game plays to its end."""
    from rulewright.compiler import load
    from rulewright.solver.agent import SolverAgent
    from rulewright.solver.queries import interpreter_for
    program = load(ROOT / DC)
    planned = []                    # per question asked: the Trade Zone card its answer takes, or None

    class Recording(SolverAgent):
        def ask(self, state, seat):
            plan = super().ask(state, seat)
            trade = None
            if plan and interpreter_for(program).evaluate(*plan["trading"], state=state):
                trade = interpreter_for(program).evaluate(*plan["got"], state=state)
            planned.append(trade)
            return plan

    st = interpreter_for(program).play(
        "standard", 3, 4, agent_factory=lambda seat, seed: Recording(program, "best_move", seed,
                                                                     inputs={"allow_trade": True}))
    assert st.checkpoints["game_end"] == 1
    # each question is asked at a 'trading' choice: the log gives what followed it
    turns, current = [], None
    for e in st.log:
        if e.kind == "choose" and e.detail["choice"] == "trading":
            current = []
            turns.append(current)
        elif current is not None and e.kind == "note" and e.detail["name"] in ("trades", "creates"):
            current.append((e.detail["name"], e.detail["value"]))
    assert len(turns) == len(planned)
    traded = [(card, events) for card, events in zip(planned, turns) if card is not None]
    assert traded, "no answer traded in a whole game"
    for card, events in traded:
        assert [name for name, _ in events[:2]] == ["trades", "creates"]
        assert events[0][1].f_takes == card and card in events[1][1].f_cards


def test_darwin_solver_agent_plays_every_action_of_a_per_species_turn():
    """Under main_actions = per_species the agent asks best-move again after each action
    of its turn (its choice 'act_again' is a trigger of the query too) and plays the further
    action it answers. It goes on while the rules offer a further action, and never
    picks one at random."""
    from rulewright.compiler import load
    from rulewright.compiler.interpret import RandomAgent
    from rulewright.solver.agent import SolverAgent
    from rulewright.solver.queries import interpreter_for
    program = load(ROOT / DC, {"main_actions": "per_species"})
    further = []          # per 'act_again' the agent was asked: the options, and what it chose

    class Recording(SolverAgent):
        def choose(self, name, options, state, seat):
            chosen = super().choose(name, options, state, seat)
            if name == "act_again":
                further.append((list(options), chosen))
            return chosen

    agents = []

    def factory(seat, seed):
        if seat.index == 0:
            agents.append(Recording(program, "best_move", seed))
            return agents[-1]
        return RandomAgent(seed * 7 + seat.index)

    st = interpreter_for(program).play("standard", 3, 1, agent_factory=factory)
    assert st.checkpoints["game_end"] == 1
    agent = agents[-1]
    assert agent.triggers == {"trading", "act_again"}
    assert any(chosen for _, chosen in further), "no further action in a whole game"
    assert all(chosen for options, chosen in further if True in options)
    assert agent.at_random["next"] == 0


def test_a_solver_agent_forgets_its_plan_once_the_game_passes_a_checkpoint():
    """A play of an answer the game never asked for (a passed co-op player trades, so
    the agent asks best-move, but takes no main action) does not answer a choice of
    the same name later in the game: the plan is for the moment it was made."""
    from rulewright.compiler import ir as I
    from rulewright.compiler import load
    from rulewright.solver.agent import SolverAgent
    from rulewright.solver.queries import interpreter_for
    program = load(ROOT / DC)
    st = interpreter_for(program).play("standard", 3, 2, stop_at="turn:2")
    agent = SolverAgent(program, "best_move", 1)
    agent.plan, agent.planned_at = {"s": (I.Const(None, None, "stale"), {})}, sum(st.checkpoints.values())
    st.checkpoints["turn"] += 1                          # the game goes on to another turn
    assert agent.choose("s", ["a", "b"], st, st.seats[0]) in ("a", "b")
    assert agent.at_random["s"] == 1 and not agent.plan
    # within the same moment the plan is played
    agent.plan, agent.planned_at = {"s": (I.Const(None, None, "b"), {})}, sum(st.checkpoints.values())
    assert agent.choose("s", ["a", "b"], st, st.seats[0]) == "b"
