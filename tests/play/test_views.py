"""What each seat may know: a seat's view of a position, what it remembers, the positions
it cannot tell from the true one (determinizations), and the human seat showing the view
and nothing else."""
from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from helpers import ROOT, run_command

from rulewright.api import load
from rulewright.app import seat_screen as screen
from rulewright.compiler.interpret.seeing import Knowledge
from rulewright.compiler.play import views
from rulewright.compiler.semantics.render import jsonable

DARWIN = ROOT / "spec" / "darwins_choice"
SAVANNA = ROOT / "spec" / "ecosystem_savanna"


def _hidden_entries(view: dict) -> list[dict]:
    out = [v for v in view["state"].values() if isinstance(v, dict) and v.get("hidden") is True]
    for per in view["per_seat"].values():
        out += [v for v in per.values() if isinstance(v, dict) and v.get("hidden") is True]
    return out


class _Enough(Exception):
    """A game has given the positions asked of it."""


class _Done(Exception):
    """Every position asked for is checked: no more games."""


def _positions(spec, players: int, seeds, every: int, most: int | None = None):
    """(state, label) at every ``every``-th checkpoint of seeded games (at most ``most``
    of each game): the state is the running game's, good only inside the callback, so
    each is handed to ``check`` there."""
    game = load(spec)
    mode = next(iter(game.program.modes))

    def run(check):
        try:
            _games(check)
        except _Done:
            pass

    def _games(check):
        for seed in seeds:
            count = [0]

            def watch(state, label):
                count[0] += 1
                if count[0] % every == 0:
                    check(state, label, seed)
                    if most is not None and count[0] // every >= most:
                        raise _Enough
            try:
                game.interpreter.play(mode, players, seed, watchers=[watch])
            except _Enough:
                pass
    return run


# ------------------------------------------------------------------ a seat's view
def test_a_darwin_view_shows_the_own_hand_and_only_sizes_and_backs_of_the_others():
    position = load(DARWIN).play(players=4, seed=7, stop_at="turn:9").position
    state = position.state
    view = position.view("p2")
    assert view["format"] == "rulewright-view/1" and view["seat"] == "p2"
    assert view["seed"] is None and "resume" not in view        # the seed deals every hidden card
    hands = view["per_seat"]["hand"]
    assert hands["p2"] == list(state.per["hand"][state.seats[1]].cards)
    program = state.interp.program
    size = program.enums["animal_card"].attrs["size"]
    for seat in (state.seats[0], state.seats[2], state.seats[3]):
        cards = state.per["hand"][seat].cards
        entry = hands[seat.name]
        assert entry == {"hidden": True, "size": len(cards), "known": [], "showing": "size",
                         "backs": {str(k): n for k, n in sorted(Counter(size[c] for c in cards).items())}}
    for stack in ("small_stack", "large_stack", "event_stack", "biome_stack", "continental_stack"):
        assert view["state"][stack]["hidden"] is True
        assert view["state"][stack]["size"] == len(state.shared[stack].cards)
    assert view["state"]["trade_zone"] == list(state.shared["trade_zone"].cards)     # public
    # a name only the hidden places hold is nowhere in the view
    text = json.dumps(view)
    public = set(json.dumps({k: v for k, v in view["state"].items()}).split('"')) | set(hands["p2"])
    secret = {c for s in (state.seats[0], state.seats[2]) for c in state.per["hand"][s].cards} - public
    assert secret and not any(f'"{c}"' in text for c in secret)


def test_a_view_as_text_and_json_from_the_command_line(tmp_path):
    saved = tmp_path / "turn9.json"
    code, _, err = run_command("play", str(DARWIN), "--players", "4", "--seed", "7", "--stop-at", "turn:9",
                               "--save-state", str(saved))
    assert code == 0, err
    code, out, err = run_command("show", str(DARWIN), "--state", str(saved), "--as", "p3")
    assert code == 0, err
    assert "as Player 3 (p3) sees it" in out
    assert "small stack:" in out and "cards, hidden; by size:" in out
    doc = load(DARWIN).position(saved)
    mine = doc.state.per["hand"][doc.state.seats[2]].cards
    assert all(c in out for c in mine)                       # its own hand, every card
    code, out, err = run_command("show", str(DARWIN), "--state", str(saved), "--as", "Player 3", "--json")
    assert code == 0, err
    assert json.loads(out) == doc.view("p3")
    code, _, err = run_command("show", str(DARWIN), "--state", str(saved), "--as", "p9")
    assert code == 2 and "--as: no seat 'p9'" in err and "Traceback" not in err
    code, out, _ = run_command("show", str(DARWIN), "--state", str(saved), "--as", "3", "--json")
    assert json.loads(out)["seat"] == "p3"                   # a seat's number, as --player takes it


def test_a_spec_that_hides_nothing_shows_everything_and_check_says_so_once(tmp_path):
    spec = tmp_path / "open.rules"
    spec.write_text('game open "Open hands"\nenum card { a, b, c }\n'
                    'state { deck: pile of card = [a, b, c, a, b, c] }\nper seat { hand: pile of card }\n'
                    'mode m "M" players 2 { seats players\n  shuffle deck\n'
                    '  for s in seats { deal 2 from deck to hand(s) } }\n')
    played = load(spec).play(players=2, seed=1)
    view = played.position.view("p1")
    assert not _hidden_entries(view)
    assert view["per_seat"]["hand"]["p2"] == list(played.position["hand"]["p2"].cards)
    code, out, err = run_command("check", str(spec))
    assert code == 0
    assert err.count("note: no pile says who sees it") == 1 and "open.rules:3:9" in err
    code, out, err = run_command("check", str(SAVANNA))
    assert "note: no pile says who sees it" not in err


# ------------------------------------------------------------------ remembering
def test_a_savanna_seat_knows_the_hands_it_passed_on():
    position = load(SAVANNA).play(players=3, seed=3, stop_at="pick:7").position
    state = position.state
    hand = {s.name: Counter(state.per["hand"][s].cards) for s in state.seats}
    view = position.view("p2")
    # hands pass left: p2's last hand went to p3, the one before (less p3's pick) to p1
    for other in ("p1", "p3"):
        entry = view["per_seat"]["hand"][other]
        assert entry["hidden"] is True and Counter(entry["known"]) == hand[other]
    assert "you know all of them" in position.view_text("p2")
    # the first pick: nothing passed yet, nothing known
    first = load(SAVANNA).play(players=3, seed=3, stop_at="pick:1").position
    assert all(not e["known"] for e in _hidden_entries(first.view("p2")))


def test_what_a_saved_game_remembers_is_worked_out_again_from_its_history(tmp_path):
    saved = tmp_path / "pick7.json"
    played = load(SAVANNA).play(players=3, seed=3, stop_at="pick:7")
    played.position.save(saved)
    assert load(SAVANNA).position(saved).view("p2") == played.position.view("p2")


@pytest.mark.parametrize("spec, players", [(SAVANNA, 3), (SAVANNA, 4),
                                           (ROOT / "spec/darwins_choice/variants/coop_2v2.rules", 4)])
def test_what_a_seat_knows_is_always_true(spec, players):
    """At every checkpoint of seeded games, each card a seat knows in a pile it does not
    see is there (the knowledge as kept, before any check against the cards)."""
    checked = [0]

    def check(state, label, seed):
        knowledge: Knowledge = state.knowledge
        assert knowledge is not None
        for seat, piles in knowledge.known.items():
            for pile, cards in piles.items():
                there = Counter(_cards_of(state, pile))
                assert not Counter(cards) - there, f"seed {seed} at {label}: {seat} knows {cards} in {pile}"
                checked[0] += 1
    _positions(spec, players, range(1, 4), 1)(check)
    assert checked[0] > 0


def test_shown_cards_are_known_to_the_team_mate_only():
    spec = ROOT / "spec/darwins_choice/variants/coop_2v2.rules"
    seen = []

    def check(state, label, seed):
        for seat, piles in state.knowledge.known.items():
            for pile, cards in piles.items():
                if cards:
                    seen.append((seat, pile))
    _positions(spec, 4, range(1, 6), 1)(check)
    assert seen, "no card was ever shown in five games"
    for seat, pile in seen:
        owner = pile[len("hand("):-1]
        assert pile.startswith("hand(") and owner != seat


# ------------------------------------------------------------------ determinizations
@pytest.mark.parametrize("spec, players, every", [(DARWIN, 4, 1), (SAVANNA, 4, 2)])
def test_a_determinization_keeps_the_view_of_its_seat(spec, players, every):
    """200 positions of seeded games, every seat: the determinization's view is the view."""
    count = [0]
    moved = [0]

    def check(state, label, seed):
        if count[0] >= 200:
            raise _Done
        count[0] += 1
        for seat in state.seats:
            if seat.kind != "player":
                continue
            rng = random.Random(count[0])
            other = views.determinize(state, seat.name, rng)
            assert views.view(other, seat.name) == views.view(state, seat.name), f"seed {seed} at {label}"
            for var, key in views.unseen_piles(state, seat.name):
                zone = views._zone_of(state, var, key)
                moved[0] += zone.cards != views._zone_of(other, var, key).cards
            assert other.rng.getstate() != state.rng.getstate()
    _positions(spec, players, range(1, 60), every, most=50)(check)
    assert count[0] == 200
    assert moved[0] > 0


def test_unseen_cards_are_spread_as_chance_says():
    """One position, one seat: over 3,000 determinizations, where one unseen small card
    lands is spread over the places of unseen small cards in proportion to their number
    (a chi-square test at the 0.1% level, fixed seed)."""
    position = load(DARWIN).play(players=4, seed=7, stop_at="turn:9").position
    state = position.state
    program = state.interp.program
    size = program.enums["animal_card"].attrs["size"]
    places = {}
    for var, key in views.unseen_piles(state, "p1"):
        zone = views._zone_of(state, var, key)
        places[zone.name] = sum(1 for c in zone.cards if size.get(c) == "small")
    places = {k: n for k, n in places.items() if n}
    assert len(places) >= 3
    watched = next(c for c in state.per["hand"][state.seats[1]].cards if size[c] == "small")
    copies = sum(n.cards.count(watched) for n in [views._zone_of(state, v, k)
                                                 for v, k in views.unseen_piles(state, "p1")])
    rng = random.Random(2026)
    landed: Counter = Counter()
    runs = 3000
    for _ in range(runs):
        other = views.determinize(state, "p1", rng)
        for var, key in views.unseen_piles(other, "p1"):
            zone = views._zone_of(other, var, key)
            landed[zone.name] += zone.cards.count(watched)
    total = sum(places.values())
    chi2 = sum((landed[k] - runs * copies * n / total) ** 2 / (runs * copies * n / total) for k, n in places.items())
    critical = {2: 13.82, 3: 16.27, 4: 18.47, 5: 20.52, 6: 22.46}[len(places) - 1]
    assert chi2 < critical, (chi2, landed, places)


# ------------------------------------------------------------------ the human seat
def test_the_human_seat_shows_a_short_draw_stack_by_its_size_only():
    position = load(DARWIN).play(players=4, seed=7, stop_at="turn:9").position
    state = position.state
    stack = state.shared["small_stack"]
    shown_elsewhere = set(state.per["hand"][state.seats[0]].cards) | set(state.shared["small_discard"].cards) \
        | set(state.shared["trade_zone"].cards) | set(json.dumps(jsonable(state.shared["world"])).split('"'))
    stack.cards[:] = [c for c in stack.cards if c not in shown_elsewhere][:3]
    lines = "\n".join(screen.view(state, state.seats[0]))
    assert "small stack: 3 cards, hidden; by size: 3 small" in lines
    assert not any(c in lines for c in stack.cards)
    for other in state.seats[1:]:
        assert not any(c in lines for c in state.per["hand"][other].cards if c not in shown_elsewhere)
    # what the seat is shown is the same on any position it cannot tell from this one
    for seed in range(5):
        assert screen.view(views.determinize(state, "p1", random.Random(seed)), state.seats[0]) == \
            screen.view(state, state.seats[0])


# ------------------------------------------------------------------ agents see only their seat
@pytest.mark.parametrize("spec, players, every", [(DARWIN, 4, 5), (SAVANNA, 3, 2)])
def test_positions_with_one_view_give_a_seat_one_determinization(spec, players, every):
    """What an agent decides from (``views.blind``: a determinization from its own
    generator) is the same for two positions that differ only in what is hidden from its
    seat: the true position and another with the same view."""
    count = [0]

    def check(state, label, seed):
        count[0] += 1
        for seat in state.seats:
            other = views.determinize(state, seat.name, random.Random(seed * 31 + count[0]))
            one = views.blind(state, seat.name, random.Random(7))
            two = views.blind(other, seat.name, random.Random(7))
            assert one.shared.keys() == two.shared.keys()
            for name, value in one.shared.items():
                assert _cards(value) == _cards(two.shared[name]), (label, seat.name, name)
            for name, per in one.per.items():
                for key, value in per.items():
                    assert _cards(value) == _cards(two.per[name][key]), (label, seat.name, name, key)
    _positions(spec, players, range(1, 4), every, most=8)(check)
    assert count[0] >= 20


def _cards_of(state, pile: str) -> list:
    """The cards of the pile called ``pile`` (``deck``, ``hand(p2)``)."""
    zones = list(state.shared.values()) + [z for per in state.per.values() for z in per.values()]
    return next(list(z.cards) for z in zones if getattr(z, "name", None) == pile)


def _cards(value):
    return list(value.cards) if hasattr(value, "cards") else value


def test_the_solver_seat_chooses_the_same_on_positions_with_one_view():
    from rulewright.solver.agent import SolverAgent, playing_queries, triggers
    game = load(DARWIN)
    program = game.program
    query = playing_queries(program)[0]
    asked_first = triggers(program.queries[query].body)[0]
    table = game.start(4, seed=7, seats=["p1", "p2", "p3", "p4"])
    rng = random.Random(5)
    compared = 0
    while not table.finished and compared < 6:
        if table.choice in asked_first:
            state = table._live.state
            seat = next(s for s in state.seats if s.name == table.seat)
            other = views.determinize(state, seat.name, rng)
            assert views.view(other, seat.name) == views.view(state, seat.name)
            made = [SolverAgent(program, query, seed=3, time_limit=60).choose(table.choice, table.options, s, seat)
                    for s in (state, other)]
            assert made[0] == made[1], (table.choice, seat.name)
            compared += 1
        table.apply(rng.choice(table.options))
    assert compared == 6
