"""The versions of Darwin's Choice in the rulebooks, as variant files.

Each test plays or evaluates the variant and checks what the rulebook says of that
version (DC-VAR-*), against the base game where the difference is the point.
"""
from __future__ import annotations

import copy
import json

import pytest

from rulewright.compiler import load
from rulewright.compiler.play import state_io
from rulewright.solver.queries import interpreter_for
from helpers import ROOT

DARWIN = ROOT / "spec" / "darwins_choice"
VARIANTS = DARWIN / "variants"
_CACHE: dict = {}


def program(name: str | None = None, **sets):
    key = (name, tuple(sorted(sets.items())))
    if key not in _CACHE:
        path = VARIANTS / f"{name}.rules" if name else DARWIN
        _CACHE[key] = load(path, {k: str(v) for k, v in sets.items()})
    return _CACHE[key]


_GAMES: dict = {}


def play(prog, mode, players, seed, stop_at=None):
    key = (id(prog), mode, players, seed, stop_at)
    if key not in _GAMES:
        _GAMES[key] = interpreter_for(prog).play(mode, players, seed, stop_at=stop_at)
    return _GAMES[key]


def biomes_on_table(st) -> list[str]:
    return [st.per["biome_card"][c] for c in st.shared["in_play"]]


# ------------------------------------------------------------------ two players
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_two_player_components(seed):
    prog = program("two_player")
    assert prog.modes["two_player"].min_players == prog.modes["two_player"].max_players == 2
    st = play(prog, "two_player", 2, seed)
    out = list(st.shared["biomes_out"])
    pairs = {attr: [b for b in prog.enums["biome"].values if _col(prog, "biome", b, "pair") == attr]
             for attr in {_col(prog, "biome", b, "pair") for b in prog.enums["biome"].values}}
    # one biome of each of the 9 pairs left the game, no single one
    assert len(out) == 9
    assert sorted(_col(prog, "biome", b, "pair") for b in out) == sorted(p for p in pairs if p != "single")
    # the 13 others are the only ones that were ever in play, in the stack or drawn
    pool = list(st.shared["biome_stack"]) + list(st.shared["biome_discard"]) + \
        list(st.shared["biome_shown"]) + list(st.shared["brought_biome"]) + biomes_on_table(st)
    assert len(pool) == 13 and not set(pool) & set(out)
    # replaced Biome Cards went back into the stack: no discard pile
    assert list(st.shared["biome_discard"]) == []
    # 3 biomes on 3 continents
    assert len(st.shared["in_play"]) == 3
    # 14 events, without Continental drift and Volcanic eruption
    events = list(st.shared["event_stack"]) + list(st.shared["event_discard"]) + list(st.shared["event_shown"])
    assert len(events) == 14 and "continental_drift" not in events and "volcanic_eruption" not in events
    assert st.checkpoints["era"] == 4


def test_two_player_biome_changes_and_trade_zone():
    it = interpreter_for(program("two_player"))
    assert [it.call("changes_after", e, 2) for e in (1, 2, 3)] == [1, 2, 2]
    base = interpreter_for(program())
    assert [base.call("changes_after", e, 4) for e in (1, 2, 3)] == [2, 3, 3]
    st = play(program("two_player"), "two_player", 2, 5, stop_at="era")
    assert len(st.shared["trade_zone"]) == 4


def test_two_player_biomes_chosen_by_the_first_player():
    prog = program("two_player", removed_of_pair="chosen_by_first_player")
    st = play(prog, "two_player", 2, 4)
    picks = [e for e in st.log if e.kind == "choose" and e.detail.get("choice") == "pick"]
    assert len(picks) >= 9 and all(e.seat == "p1" for e in picks[:9])


def _col(prog, table, key, column):
    return prog.enums[table].attrs[column][key]


# ------------------------------------------------------------------ beginners
@pytest.mark.parametrize("players", [3, 5, 6])
def test_beginners_setup(players):
    prog = program("beginners")
    st = play(prog, "standard", players, 2, stop_at="era")
    assert sorted(biomes_on_table(st)) == sorted(["high_mountains", "tropical_rainforest", "ocean", "savanna"])
    for seat in st.seats:
        sizes = [_col(prog, "animal_card", k, "size") for k in st.per["hand"][seat]]
        assert sorted(sizes) == ["large"] * 5 + ["small"] * 5


def test_beginners_flow_no_points_until_the_last_evaluation_no_events_no_late_species():
    prog = program("beginners")
    for seed in (1, 2, 3):
        after_first = play(prog, "standard", 4, seed, stop_at="evaluated:1")
        assert all(s.f_dp == 0 for s in after_first.shared["world"])
        assert all(after_first.per["banked"][p] == 0 for p in after_first.seats)
        end = play(prog, "standard", 4, seed)
        assert end.checkpoints["era"] == 2
        # no species created in the second round
        assert end.shared["next_id"] == after_first.shared["next_id"]
        # no Event Card was ever drawn
        assert list(end.shared["event_shown"]) == list(end.shared["event_discard"]) == []
        # the full Evaluation gives every survivor its Darwin Point at least
        assert all(s.f_dp >= 1 for s in end.shared["world"])


def test_beginners_double_mutation_is_free():
    """A species with Darwin Points pays for a Double Mutation in the base game only."""
    for seed in range(1, 6):
        st = play(program(), "standard", 4, seed, stop_at="evaluated:1")
        rich = [s for s in st.shared["world"] if s.f_dp > 0]
        if rich:
            break
    s = rich[0]
    assert interpreter_for(program()).call("double_cost", s, state=st) > 0
    assert interpreter_for(program("beginners")).call("double_cost", s, state=st) == 0


def test_beginners_creation_ignores_food():
    """A herbivore whose biome cannot feed it: illegal in the base game, legal here."""
    base_prog = program()
    it = interpreter_for(base_prog)
    played = it.play("standard", 4, 7, stop_at="turn:6")
    doc = state_io.dump(played, seed=7)
    world = list(played.shared["world"])
    herbivore = next(s for s in world if it.call("diet_of", s) == "herbivore")
    home = herbivore.f_home
    doc["state"]["world"] = [w for w in doc["state"]["world"] if w["id"] == herbivore.f_id]
    doc["state"]["in_play"] = [home]
    head = next(k for k in herbivore.f_cards if _col(base_prog, "animal_card", k, "part") == "head")
    body = next(k for k in herbivore.f_cards if _col(base_prog, "animal_card", k, "part") == "body")
    hand = (head, body)
    doc["per_seat"]["hand"]["p1"] = list(hand)
    for name, expected in ((None, False), ("beginners", True)):
        prog = program(name)
        pos = state_io.load(interpreter_for(prog), "<test>", copy.deepcopy(doc), json.dumps(doc))
        ip = interpreter_for(prog)
        p1 = pos.seats[0]
        newborn = ip.call("newborn", p1, hand, home, state=pos)
        supply = ip.call("plant_supply", home, state=pos)
        assert supply < ip.call("hearts", herbivore) + ip.call("hearts", newborn)
        assert ip.call("meets", newborn, home, state=pos)
        assert ip.call("creatable", p1, hand, home, state=pos) is expected


def test_two_player_biomes_drawn_at_random_by_default():
    st = play(program("two_player"), "two_player", 2, 4)
    picks = [e for e in st.log if e.kind == "choose" and e.detail.get("choice") == "pick"]
    assert len(picks) >= 9 and all(e.seat != "p1" for e in picks[:9])


# ------------------------------------------------------------------ child-friendly
def test_kids_is_a_variant_of_the_two_player_version_with_its_own_mode():
    prog = program("kids")
    assert [v.name for v in prog.variants] == ["two_player", "kids"]
    assert list(prog.modes) == ["kids"]                 # two_player and standard removed
    assert prog.title == "Darwin's Choice: Child-friendly (7+)"


@pytest.mark.parametrize("seed", [1, 2])
def test_kids_eras_biomes_chips_and_clearing(seed):
    prog = program("kids")
    st = play(prog, "kids", 3, seed)
    assert st.checkpoints["evaluated"] == 4
    # each Era three Biome Cards and a Competition Chip, all removed afterwards
    assert len(st.shared["used_biomes"]) == 12 and len(set(st.shared["used_biomes"])) == 12
    assert not set(st.shared["used_biomes"]) & set(st.shared["biomes_out"])
    assert len(st.shared["used_chips"]) == 4
    assert len(st.shared["chip_place"]) == 1 and len(st.shared["in_play"]) == 4
    # no Event Cards, no food; everything cleared and banked
    assert list(st.shared["event_shown"]) == []
    assert list(st.shared["world"]) == []
    assert {p: int(v) for p, v in st.reports["score"].items()} == {p: st.per["banked"][p] for p in st.seats}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_kids_evaluation_points(seed):
    """Each species 1 point, plus its place's points when no species there is more
    adapted (ties all score); at the Competition Chip Adaptation is Strength."""
    prog = program("kids")
    it = interpreter_for(prog)
    for era in (1, 2):
        st = play(prog, "kids", 4, seed, stop_at=f"evaluated:{era}")
        world = list(st.shared["world"])
        assert all(s.f_plants == s.f_meat == 0 for s in world)
        for s in world:
            a = it.call("adaptation_of", s, state=st)
            if s.f_home in st.shared["chip_place"]:
                assert a == it.call("strength", s, state=st)
            here = [it.call("adaptation_of", t, state=st) for t in world if t.f_home == s.f_home]
            wins = a > 0 and a == max(here)
            assert s.f_dp == 1 + (it.call("place_points", s.f_home, state=st) if wins else 0)


def test_kids_chip_has_no_requirements_and_creation_ignores_food():
    prog = program("kids")
    it = interpreter_for(prog)
    st = play(prog, "kids", 3, 5, stop_at="evaluation:1")
    chip = st.shared["chip_place"][0]
    for s in st.shared["world"]:
        assert it.call("meets", s, chip, state=st)
    # a species that fails a biome's Requirements somewhere still lives at the chip
    others = [c for c in st.shared["in_play"] if c != chip]
    assert st.shared["world"]
    assert any(not it.call("meets", s, c, state=st) for s in st.shared["world"] for c in others)


# ------------------------------------------------------------------ 2 vs 2 co-op
def test_coop_teams_sit_apart():
    prog = program("coop_2v2")
    it = interpreter_for(prog)
    st = play(prog, "coop_2v2", 4, 1, stop_at="era")
    p1, p2, p3, p4 = st.seats
    assert it.call("partner", p1, state=st) == p3 and it.call("partner", p2, state=st) == p4
    assert set(it.call("opponents", p1, state=st)) == {p2, p4}
    assert len(st.shared["trade_zone"]) == 6


def test_coop_is_played_by_four_players_only():
    """The co-op rules need team-mates two seats apart: the file keeps only its own
    four-player mode (the base game's mode, for 3 to 6 players, is removed)."""
    prog = program("coop_2v2")
    assert set(prog.modes) == {"coop_2v2"}
    assert (prog.modes["coop_2v2"].min_players, prog.modes["coop_2v2"].max_players) == (4, 4)


def _cards(st, prog) -> int:
    """Animal Cards anywhere: stacks, discards, trade zone, removed, species, hands."""
    names = set(prog.enums["animal_card"].values)
    n = 0
    for v in st.shared.values():
        items = v.cards if hasattr(v, "cards") else v if isinstance(v, (tuple, list)) else ()
        n += sum(1 for x in items if isinstance(x, str) and x in names)
    n += sum(len(s.f_cards) for s in st.shared["world"])
    n += sum(len(st.per["hand"][p]) for p in st.seats)
    return n


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_coop_games_keep_every_card_and_the_team_wins(seed):
    prog = program("coop_2v2")
    st = play(prog, "coop_2v2", 4, seed)
    box = sum(prog.enums["animal_card"].attrs["copies"].values())
    assert _cards(st, prog) == box                 # receiving and paying move cards, never lose them
    scores = {p: int(v) for p, v in st.reports["score"].items()}
    teams = st.reports["team_score"]
    it = interpreter_for(prog)
    for p in st.seats:
        assert teams[p] == scores[p] + scores[it.call("partner", p, state=st)]
    best = max(teams.values())
    assert set(st.reports["winners"]) == {p for p in st.seats if teams[p] == best}


@pytest.mark.parametrize("seed", [4, 5])
def test_coop_with_team_actions_as_often_as_wanted_plays_to_the_end(seed):
    """With coop_actions=as_often_as_wanted hands grow to 24 cards and more (seed 4 ran
    out of memory listing a hand's sub-collections): cards are received one by one and
    species are looked for among groups of at most 6 cards, so the game ends, every
    card kept."""
    prog = program("coop_2v2", coop_actions="as_often_as_wanted")
    st = play(prog, "coop_2v2", 4, seed)
    assert st.stopped is None and st.reports["winners"]
    assert _cards(st, prog) == sum(prog.enums["animal_card"].attrs["copies"].values())


def test_coop_team_actions_happen():
    prog = program("coop_2v2")
    kinds = set()
    for seed in (1, 2, 3):
        st = play(prog, "coop_2v2", 4, seed)
        kinds |= {e.detail.get("name") for e in st.log if e.kind == "note"}
    assert {"shows", "receives", "takes_over"} <= kinds


def test_coop_opponents_may_not_draw_once_both_passed():
    prog = program("coop_2v2")
    it = interpreter_for(prog)
    st = play(prog, "coop_2v2", 4, 1, stop_at="turn")
    doc = state_io.dump(st, seed=1)
    p1 = st.seats[0]
    assert it.call("opponents_may_draw", p1, state=st)
    doc["per_seat"]["passed"]["p2"] = doc["per_seat"]["passed"]["p4"] = True
    pos = state_io.load(interpreter_for(prog), "<test>", doc, json.dumps(doc))
    assert not it.call("opponents_may_draw", pos.seats[0], state=pos)
    doc["per_seat"]["passed"]["p4"] = False
    pos = state_io.load(interpreter_for(prog), "<test>", doc, json.dumps(doc))
    assert it.call("opponents_may_draw", pos.seats[0], state=pos)


# ------------------------------------------------------------------ queries on every version
import darwin_brute as B  # noqa: E402
from rulewright.solver.queries import run_query  # noqa: E402

QUERY_POSITIONS = [("short_game", "standard", 4, "turn:5"), ("beginners", "standard", 4, "turn:3"),
                   ("beginners", "standard", 4, "turn:15"), ("two_player", "two_player", 2, "turn:4"),
                   ("kids", "kids", 3, "turn:3"), ("coop_2v2", "coop_2v2", 4, "turn:6")]


@pytest.mark.parametrize("name,mode,players,stop", QUERY_POSITIONS, ids=lambda x: str(x))
def test_best_move_on_every_version_equals_its_play_rules(name, mode, players, stop):
    """The solver's best move under a version's own rules is the best its play rules
    offer (brute force through the interpreter, the kinds of action the version
    allows only), with and without a trade before a creation."""
    prog = program(name)
    it = interpreter_for(prog)
    for seed in (1, 2):
        st = play(prog, mode, players, seed, stop_at=stop)
        if st.stopped is None:
            continue
        p = st.shared["to_move"]
        for trade in (False, True):
            answer = run_query(prog, "best_move", {"player": p, "objective": "points", "allow_trade": trade},
                               state=st, time_limit=60, workers=1, reasons=False)
            brute = B.best_move(it, st, p, "points", allow_trade=trade)
            if brute is None:
                assert answer.status == "INFEASIBLE"
            else:
                assert answer.status == "OPTIMAL" and answer.objective == brute
                act = dict(answer.witness)["action"]
                assert it.call("action_allowed", p, act, state=st)


def test_beginners_first_round_ties_on_points_are_broken_by_adaptation():
    """In the Beginners' first round no species earns points yet, so every creation ties
    at 0: the query then ranks them by the other goal, Adaptation, and answers the best
    adapted species the play rules allow."""
    prog = program("beginners")
    it = interpreter_for(prog)
    st = play(prog, "standard", 4, 1, stop_at="turn:3")
    p = st.shared["to_move"]
    assert st.shared["era"] == 1
    world = tuple(st.shared["world"])
    made = [it.call("newborn", p, ks, c) for ks, c in it.call("creations", p, state=st)]
    assert made and all(it.call("projected_points", s, world + (s,), state=st) == 0 for s in made)
    best_adapted = max(it.call("adaptation_of", s, state=st) for s in made)
    answer = run_query(prog, "best_create", {"player": p, "objective": "points"}, state=st,
                       time_limit=60, workers=1, reasons=False)
    assert answer.status == "OPTIMAL" and answer.objective == (0, best_adapted)
    assert next(v for n, v, _ in answer.reports if n == "adaptation") == best_adapted
