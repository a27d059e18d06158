"""Properties of whole Darwin's Choice games played by random legal agents.

Each game is watched at every checkpoint the spec declares (every turn, the start and
end of each Evaluation Phase, each Transition Phase, the end of the game); the
invariants are stated against the spec's own components and definitions.
"""
from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulewright.compiler import load
from rulewright.compiler.interpret import Interpreter
from helpers import ROOT

_CACHE: dict = {}

CARD_ZONES = ("small_stack", "large_stack", "small_discard", "large_discard", "removed_cards", "trade_zone")


def dc(**overrides) -> Interpreter:
    key = tuple(sorted(overrides.items()))
    if key not in _CACHE:
        _CACHE[key] = Interpreter(load(ROOT / "spec" / "darwins_choice",
                                       {k: str(v) for k, v in overrides.items()}))
    return _CACHE[key]


def box(it: Interpreter) -> Counter:
    return Counter(k for k in it.call("small_box") + it.call("large_box"))


def cards_on_table(state) -> Counter:
    where = Counter()
    for zone in CARD_ZONES:
        where.update(state.shared[zone])
    for p in state.players:
        where.update(state.per["hand"][p])
    for s in state.shared["world"]:
        where.update(s.f_cards)
    return where


class Watch:
    """Checks the invariants at every checkpoint and remembers what it saw."""

    def __init__(self, it: Interpreter):
        self.it = it
        self.box = box(it)
        self.dp_box = it.call("darwin_points_in_box")
        self.food_units = it.call("food_units")
        self.markers = it.call("markers_per_colour")
        self.labels: list[str] = []
        self.survivors_checked = 0

    def __call__(self, state, label: str):
        it = self.it
        self.labels.append(label)
        world = state.shared["world"]
        # 237 Animal Cards, none lost, none duplicated
        assert cards_on_table(state) == self.box, label
        # 22 Biome Cards: stacks, discard, shown, brought in, or on a continent (a volcano
        # lies on top of the card it covers); 16 Event Cards; 5 Continental Cards
        sh = state.shared
        biomes = Counter(sh["biome_stack"]) + Counter(sh["biome_discard"]) + Counter(sh["biome_shown"]) \
            + Counter(sh["brought_biome"]) + Counter(state.per["biome_card"][c] for c in sh["in_play"])
        assert biomes == Counter(self.it.program.enums["biome"].values), label
        events = Counter(sh["event_stack"]) + Counter(sh["event_discard"]) + Counter(sh["event_shown"])
        assert events == Counter(self.it.program.enums["event"].values), label
        assert sorted(sh["continental_stack"]) == sorted(self.it.program.enums["continent"].values), label
        # Darwin Points: the stock, the species and the banked points make the box
        banked = sum(state.per["banked"][p] for p in state.players)
        if it.call("darwin_point_stock") == "limited":
            assert state.shared["dp_stock"] >= 0, label
        assert state.shared["dp_stock"] + sum(s.f_dp for s in world) + banked == self.dp_box, label
        ids = [s.f_id for s in world]
        assert len(ids) == len(set(ids)), label
        for s in world:
            # every species has a head and a body and its parts dock on the body
            assert it.call("well_formed", s.f_cards), (label, s)
            assert s.f_home in state.shared["in_play"], (label, s)
        # at most one species per Player Marker
        for p in state.players:
            assert sum(1 for s in world if s.f_owner == p) <= self.markers, label
        # food chips: never more than a biome supplies, never more than the box holds
        for c in state.shared["in_play"]:
            here = [s for s in world if s.f_home == c]
            assert sum(s.f_plants for s in here) <= it.call("plant_supply", c), (label, c)
            assert sum(s.f_meat for s in here) <= it.call("meat_supply", c), (label, c)
        assert sum(s.f_plants + s.f_meat for s in world) <= self.food_units, label
        # chips follow the diet: no plants for a carnivore, no meat for a herbivore
        for s in world:
            diet = it.call("diet_of", s)
            assert not (diet == "carnivore" and s.f_plants), (label, s)
            assert not (diet == "herbivore" and s.f_meat), (label, s)
        if label.startswith("evaluated:"):
            # every survivor of an Evaluation Phase meets its Requirements and was fed
            for s in world:
                assert it.call("meets", s, s.f_home), (label, s)
                assert s.f_plants + s.f_meat + s.f_prey >= it.call("hearts", s), (label, s)
                self.survivors_checked += 1


def play_watched(players: int, seed: int, **overrides) -> tuple:
    it = dc(**overrides)
    watch = Watch(it)
    state = it.play("standard", players, seed, watchers=[watch])
    return it, state, watch


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9))
def test_random_games_keep_the_invariants(players, seed):
    it, state, watch = play_watched(players, seed)
    # a whole game: four Eras, an evaluation after each, a transition between them
    assert state.stopped is None
    assert state.shared["era"] == it.call("eras") + 1
    for name, count in (("era", 4), ("evaluation", 4), ("evaluated", 4), ("transition", 3), ("game_end", 1)):
        assert state.checkpoints[name] == count, name
    assert set(state.reports["score"]) == set(state.players)
    best = max(state.reports["score"].values())
    assert set(state.reports["winners"]) == {p for p, v in state.reports["score"].items() if v == best}


def test_watcher_sees_survivors():
    """The properties are not vacuous: games do have species that survive evaluations."""
    total = 0
    for seed in range(3):
        _, _, watch = play_watched(4, seed)
        total += watch.survivors_checked
    assert total > 0


def other_readings() -> list[tuple[str, str]]:
    """Every switch of the spec with each value other than its default."""
    program = dc().program
    found = []
    for name, default in program.switches.items():
        found += [(name, str(v).lower()) for v in program.switch_options(name) if v != default]
    return found


@pytest.mark.parametrize("switch,value", other_readings())
def test_every_reading_keeps_the_invariants(switch, value):
    for seed in range(2):
        play_watched(5, seed, **{switch: value})


def test_stop_at_a_checkpoint():
    it = dc()
    state = it.play("standard", 4, 11, stop_at="evaluation:2")
    assert state.stopped == "evaluation:2"
    assert state.shared["era"] == 2
    assert state.checkpoints["evaluation"] == 2 and "transition" in state.checkpoints
    assert "game_end" not in state.checkpoints and state.reports == {}


def test_the_same_seed_plays_the_same_game():
    it = dc()
    a = it.play("standard", 3, 5)
    b = it.play("standard", 3, 5)
    assert a.reports == b.reports
    assert [e.detail for e in a.log] == [e.detail for e in b.log]


ACTIONS = ("creates", "mutates", "mutates_twice", "migrates")


def actions_by_turn(state):
    """(era, turn number, [species id acted]) for every turn of a game, from its notes."""
    out, era, turn = [], 0, None
    for e in state.log:
        if e.kind == "checkpoint" and e.detail["name"] == "era":
            era += 1
        elif e.kind == "checkpoint" and e.detail["name"] == "turn":
            turn = [era, e.detail["count"], []]
            out.append(turn)
        elif e.kind == "note" and e.detail["name"] in ACTIONS and turn is not None:
            turn[2].append(e.detail["value"].f_id)
    return out


@pytest.mark.parametrize("reading", ["per_turn", "per_species"])
def test_main_actions_reading(reading):
    """per_turn: at most one main action a turn; per_species: several in some turn.
    Either way no species acts twice in an Era (the Player Markers)."""
    most = 0
    for seed in range(4):
        _, state, _ = play_watched(4, seed, main_actions=reading)
        turns = actions_by_turn(state)
        most = max(most, max(len(t[2]) for t in turns))
        for era in {t[0] for t in turns}:
            acted = [i for t in turns if t[0] == era for i in t[2]]
            assert len(acted) == len(set(acted)), (seed, era)
    assert most == 1 if reading == "per_turn" else most >= 2


def test_at_the_start_of_an_era_the_first_player_is_to_move():
    seen = []

    def watch(state, label):
        if label.startswith("era:"):
            seen.append((state.shared["to_move"], state.shared["first_player"]))

    dc().play("standard", 4, 12, watchers=[watch])
    assert len(seen) == 4 and all(to_move == first for to_move, first in seen)
    assert len({first for _, first in seen}) > 1          # the marker moves between Eras
