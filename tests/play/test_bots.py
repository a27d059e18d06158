"""Bots: named with their settings, deciding from what their seat may see, playing the
same game again under one seed, looking ahead on the spec's estimate, rated in a
tournament."""
from __future__ import annotations

import json
import random

import pytest
from helpers import ROOT, run_command

from rulewright.api import load
from rulewright.app import tournament
from rulewright.app.bots import bot_named
from rulewright.compiler.diagnostics import BadInputError
from rulewright.compiler.interpret import RandomAgent
from rulewright.compiler.play import views
from rulewright.compiler.play.bots import GreedyAgent, MctsAgent
from rulewright.compiler.play.branching import Standing, at_choice

DARWIN = ROOT / "spec" / "darwins_choice"
SAVANNA = ROOT / "spec" / "ecosystem_savanna"


def _short_savanna():
    """Ecosystem: Savanna with hands of 4 cards: 6 cards placed a game (fast)."""
    return load(SAVANNA, settings={"hand_size": 4})


# ------------------------------------------------------------------ names and settings
@pytest.mark.parametrize("text, kind, settings", [
    ("random", "random", ()), ("greedy", "greedy", ()), ("GREEDY", "greedy", ()),
    ("mcts:time=0.5", "mcts", (("time", 0.5),)),
    ("mcts:iterations=400,horizon=8", "mcts", (("horizon", 8), ("iterations", 400))),
    ("greedy:wide=3", "greedy", (("wide", 3),)),
    ("mcts:iterations=9,rollout=greedy", "mcts", (("iterations", 9), ("rollout", "greedy"))),
])
def test_a_bot_is_read_with_its_settings(text, kind, settings):
    bot = bot_named(text, "--seat p1=")
    assert (bot.kind, bot.settings) == (kind, settings)
    assert bot_named(bot.text, "--bots") == bot


@pytest.mark.parametrize("text, words", [
    ("mtcs", "did you mean 'mcts'"),
    ("mcts:tim=1", "no setting 'tim'"),
    ("mcts:time=0", "seconds a move: a number of at least 0.001, not '0'"),
    ("mcts:iterations=2.5", "a whole number of at least 1"),
    ("mcts:time=1,iterations=5", "a time or a number of iterations, not both"),
    ("random:time=1", "random has no setting 'time' (it has no settings)"),
    ("mcts:time=nan", "not 'nan'"),
    ("mcts:rollout=smart", "rollout is how a playout chooses: random or greedy, not 'smart'"),
])
def test_a_mistaken_bot_is_one_message_naming_the_option(text, words):
    with pytest.raises(BadInputError) as err:
        bot_named(text, "--agent")
    message = err.value.diagnostics[0].message
    assert message.startswith(f"--agent {text}: ") and words in message


def test_bots_of_a_tournament_keep_their_settings_apart_from_the_next_bot():
    assert tournament.bots_named("random,mcts:iterations=40,horizon=6,greedy", "--bots") == \
        ["random", "mcts:horizon=6,iterations=40", "greedy"]
    with pytest.raises(BadInputError, match="needs two bots"):
        tournament.bots_named("greedy", "--bots")
    with pytest.raises(BadInputError, match="named twice"):
        tournament.bots_named("greedy,greedy", "--bots")
    with pytest.raises(BadInputError, match="a human seat plays with 'play'|no bot 'human'"):
        tournament.bots_named("greedy,human", "--bots")


def test_the_line_ups_rotate_every_seat_and_always_mix_two_bots():
    ups = tournament.lineups(["a", "b"], 3)
    assert ("a", "a", "a") not in ups and ("b", "b", "b") not in ups
    assert set(ups) == {("a", "a", "b"), ("a", "b", "a"), ("b", "a", "a"),
                        ("a", "b", "b"), ("b", "b", "a"), ("b", "a", "b")}
    three = tournament.lineups(["a", "b", "c"], 2)
    assert set(three) == {(x, y) for x in "abc" for y in "abc" if x != y}


# ------------------------------------------------------------------ what a bot looks ahead on
def test_both_games_declare_how_a_seat_stands_and_greedy_reads_it():
    for spec in (DARWIN, SAVANNA):
        program = load(spec).program
        assert program.estimate == "standing"
        assert Standing(program, next(iter(program.modes))).source == "the estimate 'standing'"


def test_an_estimate_takes_one_seat_and_is_a_number(tmp_path):
    spec = tmp_path / "g.rules"
    spec.write_text('game g "G"\nestimate e(n: int) = n\nestimate f(p: seat) = "x"\n')
    out = run_command("check", str(spec))
    assert out.returncode == 1
    assert "g.rules:2:10: error: an estimate takes one seat, the seat it is for; 'e' takes n: int" in out.stderr
    assert "g.rules:3:23: error: an estimate is a number; 'f' is text" in out.stderr
    assert "a spec has only one 'estimate'" in out.stderr


def test_a_branch_stands_at_the_same_choice_with_the_seat_s_own_cards():
    game = _short_savanna()
    table = game.start(3, seed=4, seats=["p1", "p2", "p3"])
    rng = random.Random(1)
    for _ in range(5):
        table.apply(rng.choice(table.options))
    state = table._live.state
    seat = next(s for s in state.seats if s.name == table.seat)
    b = at_choice(state, table.choice, seat, table.options, random.Random(9))
    assert b is not None and (b.asked.name, b.seat) == (table.choice, table.seat)
    assert b.options == table.options
    assert list(b.state.per["hand"][b.state.seats[seat.index]].cards) == list(state.per["hand"][seat].cards)
    assert views.view(b.state, seat.name)["per_seat"]["board"] == views.view(state, seat.name)["per_seat"]["board"]
    b.apply(b.options[0])           # the branch goes on; the true game does not move
    assert len(state.history) == 5 and table.choice is not None


def _greedy_game(sights: bool, seed: int, monkeypatch=None):
    """A three-player short Savanna game, its second seat greedy (its kept deal off when
    ``sights`` is false), and how many deals the bot made."""
    from rulewright.compiler.play import branching
    game = _short_savanna()
    made = []
    real = branching.blind
    if monkeypatch is not None:
        monkeypatch.setattr(branching, "blind", lambda *a: made.append(1) or real(*a))

    def factory(seat, s):
        if seat.index != 1:
            return RandomAgent(s * 1_000_003 + seat.index)
        bot = GreedyAgent(s)
        if not sights:
            bot._sights = None
        return bot
    st = game.interpreter.play("standard", 3, seed, agent_factory=factory)
    return st, len(made)


def test_a_greedy_seat_deals_what_it_does_not_see_once_a_choice_and_plays_the_same(monkeypatch):
    """(one deal for every option of a choice: made once and kept, each branch as it was)"""
    kept, deals = _greedy_game(True, 6, monkeypatch)
    monkeypatch.undo()
    anew, each = _greedy_game(False, 6, monkeypatch)
    assert kept.history == anew.history and kept.reports == anew.reports
    bot = kept.agents[1]
    assert bot.choices > 0 and bot.blind == 0
    assert deals == bot.choices < each


def test_a_greedy_seat_copies_its_branches_and_plays_as_with_branches_made_anew(monkeypatch):
    """(each option's branch is a copy of one branch of the choice, and each next choice's
    a copy of the branch after its option: every option is weighed once from the position
    decided at, each next choice one choice further, and the game is the one played with
    every branch made anew from the true game)"""
    from rulewright.compiler.interpret.live import Live
    real, copies = Live.copy, []
    decisions, weighed = [], []     # (the game's choices so far, the options); (decision, a branch's choices)
    decide, of = GreedyAgent.decide, Standing.of

    def deciding(self, name, options, state, seat):
        decisions.append(([h[0] for h in state.history], list(options)))
        return decide(self, name, options, state, seat)

    def weighing(self, state, seat):
        weighed.append((len(decisions) - 1, [h[0] for h in state.history]))
        return of(self, state, seat)
    monkeypatch.setattr(GreedyAgent, "decide", deciding)
    monkeypatch.setattr(Standing, "of", weighing)
    monkeypatch.setattr(Live, "copy", lambda self, replaying=True: copies.append(replaying) or real(self, replaying))
    copied, _ = _greedy_game(True, 5)
    bot = copied.agents[1]
    assert copies.count(False) > bot.choices == len(decisions) > 0 and bot.dropped == 0
    for d, (root, options) in enumerate(decisions):
        branches = [picks for n, picks in weighed if n == d]
        assert all(p[:len(root)] == root and len(p) - len(root) in (1, 2) for p in branches)
        assert [p[len(root)] for p in branches if len(p) == len(root) + 1] == options
    assert any(len(p) == len(decisions[n][0]) + 2 for n, p in weighed)      # (next choices weighed too)
    monkeypatch.setattr(Live, "copy", lambda self, replaying=True: None if not replaying else real(self))
    anew, _ = _greedy_game(True, 5)
    assert copied.history == anew.history and copied.reports == anew.reports and copied.log == anew.log


# a choice whose chooser reads what the greedy seat does not see: its copies, which work
# the chooser out again on the dealt position, would ask another seat (a random automaton),
# fail (a division by 0 where a dealt hand holds no red), or ask the same choice of the same
# seat one turn of a loop later
CHOOSER_READS_HIDDEN = {"other seat": """
game g "G"
enum colour { red, blue }
state { deck: pile of colour = [red, red, red, blue, blue, blue, blue, blue] seen by nobody }
per seat { hand: pile of colour seen by owner   kept: pile of colour }
def reds(s: seat) = count(c for c in hand(s) if c == red)
estimate standing(p: seat) = 2 * count(c for c in kept(p) if c == red) - size(kept(p))
mode m "M" players 1 {
  seats you: player "You", d: automaton "D"
  shuffle deck
  for s in seats { deal 3 from deck to hand(s) }
  choose k in hand(you) by (if reds(d) > 0 then you else d)
  move [k] from hand(you) to kept(you)
  choose j in hand(you) by you
  move [j] from hand(you) to deck
  report score = size(kept(you))
}
""", "failing": """
game g "G"
enum colour { red, blue }
state { deck: pile of colour = [red, red, red, blue, blue, blue, blue, blue] seen by nobody }
per seat { hand: pile of colour seen by owner   kept: pile of colour }
def holder(p: seat) = if all(6 // count(c for c in hand(q) if c == red) > 0 for q in players) then p else p
estimate standing(p: seat) = count(c for c in kept(p) if c == red)
mode m "M" players 2 {
  seats players
  shuffle deck
  for s in players { deal 2 from deck to hand(s) }
  for p in players {
    choose k in hand(p) by holder(p)
    move [k] from hand(p) to kept(p)
  }
}
""", "a later choice": """
game g "G"
enum colour { red, blue }
state { deck: pile of colour = [red, red, red, blue, blue, blue, blue, blue] seen by nobody }
per seat { hand: pile of colour seen by owner   kept: pile of colour }
def reds(s: seat) = count(c for c in hand(s) if c == red)
estimate standing(p: seat) = count(c for c in kept(p) if c == blue)
mode m "M" players 1 {
  seats you: player "You", d: automaton "D"
  shuffle deck
  for s in seats { deal 3 from deck to hand(s) }
  for i in 1..2 {
    choose k in hand(you) by (if reds(d) > 0 or i == 2 then you else d)
    move [k] from hand(you) to kept(you)
  }
  report score = size(kept(you))
}
"""}


@pytest.mark.parametrize("case", list(CHOOSER_READS_HIDDEN))
def test_a_greedy_seat_whose_chooser_reads_hidden_cards_plays_as_with_branches_made_anew(tmp_path, monkeypatch, case):
    from helpers import spec
    from rulewright.compiler import load as load_program
    from rulewright.compiler.diagnostics import RulesError
    from rulewright.compiler.interpret import Interpreter
    from rulewright.compiler.interpret.live import Live
    text = CHOOSER_READS_HIDDEN[case]
    interp = Interpreter(load_program(spec(tmp_path, text)))
    players = 1 if "players 1" in text else 2

    def games():
        def factory(seat, s):
            return GreedyAgent(s) if seat.index == 0 else RandomAgent(s * 1_000_003 + seat.index)
        out = []
        for seed in range(48):
            try:        # (the true game fails where a true hand holds no red: the same either way)
                out.append([h[0] for h in interp.play("m", players, seed, agent_factory=factory).history])
            except RulesError as e:
                out.append(str(e))
        return out
    copied = games()
    real = Live.copy
    monkeypatch.setattr(Live, "copy", lambda self, replaying=True: None if not replaying else real(self))
    assert copied == games()
    assert sum(isinstance(g, list) for g in copied) > 8          # (games that finish)


def test_a_game_that_cannot_be_resumed_is_copied_only_by_replaying_and_only_when_asked():
    """(a bot's branch is never rolled forward from its seed: its hidden cards were dealt
    again, and the seed deals the true game's)"""
    from rulewright.compiler.interpret import Interpreter
    from rulewright.compiler.interpret.live import Live
    game = _short_savanna()
    for fast, resumed in ((False, False), (True, True)):
        live = Live(Interpreter(game.program, fast=fast), "standard", 3, 2)
        live.apply(live.options[0])
        assert (live.copy(replaying=False) is not None) == resumed
        copy = live.copy()
        assert copy is not None and copy.state.history == live.state.history


def test_an_mcts_seat_deals_anew_each_iteration_and_plays_the_same_with_its_deal_kept(monkeypatch):
    """(an iteration taking a branch again from its deal keeps it; the next deals anew)"""
    from rulewright.compiler.play import branching
    game = _short_savanna()
    real, made = branching.blind, []
    monkeypatch.setattr(branching, "blind", lambda *a: made.append(1) or real(*a))

    def play(kept):
        def factory(seat, s):
            if seat.index != 0:
                return RandomAgent(s * 1_000_003 + seat.index)
            bot = MctsAgent(s, iterations=12, horizon=4)
            if not kept:
                bot._sights = None
            return bot
        made.clear()
        st = game.interpreter.play("standard", 3, 8, agent_factory=factory)
        return st, len(made)
    kept, deals = play(True)
    anew, _ = play(False)
    assert kept.history == anew.history and kept.reports == anew.reports
    assert deals >= kept.agents[0].ran > 0          # (at least a deal an iteration)


def test_a_game_with_a_greedy_seat_that_has_decided_can_be_copied():
    """(a bot's standing holds the compiled rules: a copy makes its own when first asked)"""
    from rulewright.compiler.interpret.live import Live
    game = load(DARWIN)
    live = Live(game.interpreter, next(iter(game.program.modes)), 2, 3, outside=("p1",),
                agent_factory=lambda seat, s: GreedyAgent(s))
    bot = live.state.agents[1]
    while not live.finished and bot.choices == 0:
        live.apply(live.options[0])
    assert bot.choices > 0
    copy = live.copy()
    before = list(live.state.history)
    copy.apply(copy.options[0])
    copy.apply(copy.options[0])
    assert live.state.history == before and len(copy.state.history) > len(before)


def test_a_kept_deal_serves_only_its_own_position():
    game = _short_savanna()
    tables = [game.start(3, seed=seed, seats=["p1", "p2", "p3"]) for seed in (4, 5)]
    rng = random.Random(1)
    for _ in range(5):
        for t in tables:
            t.apply(t.options[rng.randrange(len(t.options))])
    sights: dict = {}       # (two positions as far into their games: the second's deal is its own)
    one, other = (t._live.state for t in tables)
    seats = [next(s for s in st.seats if s.name == t.seat) for st, t in zip((one, other), tables)]
    a = at_choice(one, tables[0].choice, seats[0], tables[0].options, random.Random(9), sights, "k")
    b = at_choice(other, tables[1].choice, seats[1], tables[1].options, random.Random(9), sights, "k")
    alone = at_choice(other, tables[1].choice, seats[1], tables[1].options, random.Random(9))
    assert a is not None and b is not None and alone is not None
    assert views.view(b.state, seats[1].name) == views.view(other, seats[1].name)
    assert b.state.per == alone.state.per and b.state.shared == alone.state.shared
    again = at_choice(other, tables[1].choice, seats[1], tables[1].options, random.Random(9), sights, "k")
    assert again.state.per == alone.state.per and again.state.shared == alone.state.shared   # (kept: the same deal)
    assert again.state.rng.getstate() == alone.state.rng.getstate()     # (and the generator it left)


def test_a_copy_of_a_bot_keeps_no_deal():
    import copy
    bot = GreedyAgent(3)
    bot._sights["k"] = ("a position", 5, "its deal", None)
    twin = copy.deepcopy(bot)
    assert twin._sights == {} and bot._sights and twin.rng.getstate() == bot.rng.getstate()


# ------------------------------------------------------------------ fair play
def _same_view_other(state, seat, rng):
    """A position with the seat's view and the same history, its hidden cards dealt again."""
    other = views.determinize(state, seat.name, rng)
    other.history, other.seed, other.replay = list(state.history), state.seed, None
    assert views.view(other, seat.name) == views.view(state, seat.name)
    return other


@pytest.mark.parametrize("spec, players, make", [
    (SAVANNA, 3, lambda: GreedyAgent(3)),
    (SAVANNA, 3, lambda: MctsAgent(3, iterations=30)),
    (DARWIN, 3, lambda: GreedyAgent(3)),
])
def test_a_bot_chooses_the_same_on_positions_with_one_view(spec, players, make):
    game = _short_savanna() if spec == SAVANNA else load(spec)
    table = game.start(players, seed=7, seats=[f"p{i}" for i in range(1, players + 1)])
    rng = random.Random(5)
    compared = 0
    while not table.finished and compared < 4:
        if len(table.options) > 1 and rng.random() < 0.3:
            state = table._live.state
            seat = next(s for s in state.seats if s.name == table.seat)
            if views.unseen_piles(state, seat.name):
                other = _same_view_other(state, seat, rng)
                bots = [make(), make()]
                made = [bot.choose(table.choice, table.options, s, seat) for bot, s in zip(bots, (state, other))]
                assert made[0] == made[1], (table.choice, seat.name)
                assert [b.blind for b in bots] == [0, 0]        # (each looked ahead: none chose at random)
                compared += 1
        table.apply(rng.choice(table.options))
    assert compared == 4


# ------------------------------------------------------------------ the same game again
def test_an_mcts_seat_under_an_iteration_budget_plays_the_same_game_again():
    game = _short_savanna()
    interp = game.interpreter

    def factory(seat, seed):
        return MctsAgent(seed + seat.index, iterations=25, horizon=6) if seat.index == 0 else \
            RandomAgent(seed * 1_000_003 + seat.index)
    one = interp.play("standard", 3, 11, agent_factory=factory)
    two = interp.play("standard", 3, 11, agent_factory=factory)
    assert one.history == two.history
    assert one.agents[0].ran == 25 * one.agents[0].choices


def test_greedy_playouts_play_the_same_game_again():
    game = _short_savanna()
    interp = game.interpreter

    def factory(seat, seed):
        return MctsAgent(seed, iterations=6, horizon=4, rollout="greedy") if seat.index == 2 else \
            RandomAgent(seed * 1_000_003 + seat.index)
    one = interp.play("standard", 3, 5, agent_factory=factory)
    two = interp.play("standard", 3, 5, agent_factory=factory)
    assert one.history == two.history and one.agents[2].ran == 6 * one.agents[2].choices


def test_a_greedy_seat_plays_the_same_game_again():
    game = _short_savanna()
    interp = game.interpreter

    def factory(seat, seed):
        return GreedyAgent(seed) if seat.index == 1 else RandomAgent(seed * 1_000_003 + seat.index)
    one = interp.play("standard", 3, 2, agent_factory=factory)
    two = interp.play("standard", 3, 2, agent_factory=factory)
    assert one.history == two.history and one.agents[1].choices > 0 and one.agents[1].blind == 0


def test_a_look_ahead_spends_a_budget_of_its_own_not_its_game_s():
    from rulewright.compiler.semantics import runtime as rt
    with rt.bounded("the game", 1_000):
        rt.charge(10)
        with rt.apart():
            with rt.bounded("a branch", 100_000):
                rt.charge(50_000)           # (more than the game has left: not counted against it)
        assert rt._BUDGET.left == 990 and rt._BUDGET.limit == 1_000
        with pytest.raises(rt.OutOfSteps):
            rt.charge(2_000)


# ------------------------------------------------------------------ strength
def test_greedy_outscores_random_seats():
    game = _short_savanna()
    interp = game.interpreter
    ahead = 0
    for seed in range(1, 7):
        def factory(seat, s):
            return GreedyAgent(s) if seat.index == 0 else RandomAgent(s * 1_000_003 + seat.index)
        state = interp.play("standard", 3, seed, agent_factory=factory)
        scores = [int(v) for v in state.reports["score"].values()]
        ahead += scores[0] > max(scores[1:])
    assert ahead >= 5, ahead


# ------------------------------------------------------------------ the faces
def test_the_tournament_command_rates_the_bots_and_writes_json():
    out = run_command("tournament", str(SAVANNA), "--set", "hand_size=4", "--players", "3",
                      "--bots", "random,greedy", "--games", "6", "--workers", "2", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["games"] == 6 and data["bots"] == ["random", "greedy"] and data["workers"] == 2
    ratings = {r["bot"]: r for r in data["ratings"]}
    assert ratings["random"]["rating"] == 1500.0
    assert ratings["greedy"]["rating"] > 1500.0
    ahead = data["ahead"]["greedy"]["random"]
    assert 0 <= ahead["interval95"][0] <= ahead["value"] <= ahead["interval95"][1] <= 1
    assert ahead["interval99"][0] <= ahead["interval95"][0]
    assert [g["seed"] for g in data["games_played"]] == list(range(1, 7))
    # one process plays the same games
    alone = run_command("tournament", str(SAVANNA), "--set", "hand_size=4", "--players", "3",
                        "--bots", "random,greedy", "--games", "6", "--workers", "1", "--json")
    assert json.loads(alone.stdout)["games_played"] == data["games_played"]


def test_the_tournament_table_and_its_mistakes():
    out = run_command("tournament", str(SAVANNA), "--set", "hand_size=4", "--players", "3",
                      "--bots", "random,greedy", "--games", "3", "--workers", "1")
    assert out.returncode == 0, out.stderr
    assert "Ratings (Elo scale, random at 1500)" in out.stdout
    assert "How often the row's bot finished ahead of the column's" in out.stdout
    bad = run_command("tournament", str(SAVANNA), "--players", "3", "--bots", "random,greddy")
    assert bad.returncode == 2 and "--bots greddy: no bot 'greddy' here (did you mean 'greedy'?)" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_play_and_simulate_take_bots_on_seats():
    out = run_command("simulate", str(SAVANNA), "--set", "hand_size=4", "--players", "3", "--games", "2",
                      "--seat", "p1=greedy", "--seat", "p2=mcts:iterations=5", "--json")
    assert out.returncode == 0, out.stderr
    bad = run_command("play", str(SAVANNA), "--players", "3", "--seat", "p1=mcts:tim=2")
    assert bad.returncode == 2
    assert "--seat p1=mcts:tim=2: mcts has no setting 'tim' (did you mean 'time'?)" in bad.stderr
