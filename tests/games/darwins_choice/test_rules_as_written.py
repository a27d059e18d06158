"""Rules of Darwin's Choice that a wrong line of the spec could break unseen: each test is a
crafted table and the outcome the rulebook gives it (rule IDs from the rules inventory).

These are the rules mutation testing (``make mutate``) found no test for: a mutant of the
line changed seeded games while every test passed. Each test fails under that mutant.
"""
from __future__ import annotations

import pytest

from rulewright.compiler.interpret import Interpreter
from helpers import darwin_program, table_state

# Species on a Hill country (6 plants, 4 meat); Adaptation, Competitive Strength,
# Hearts and diet of each, from the cards' symbols (as in test_readings_combine.py):
ZB = ["plains_zebra_head", "bison_body"]                        # 2, 4, 3, herbivore
CH = ["cheetah_head", "cheetah_body"]                           # 3, 3, 2, carnivore
KB = ["cheetah_head", "bison_body"]                             # 2, 5, 3, carnivore
K4 = ["cheetah_head", "bison_body", "bison_legs"]               # 3, 6, 4, carnivore
CB = ["chimpanzee_head", "bison_body"]                          # 2, 5, 3, omnivore
HILL = {"africa": "hill_country"}


@pytest.fixture(scope="module")
def it():
    return Interpreter(darwin_program())


def table(it, species, **kw):
    return table_state(it, HILL, [dict(home="africa", **s) for s in species], **kw)


def alive(st) -> set[int]:
    return {s.f_id for s in st.shared["world"]}


def test_during_an_epidemic_an_omnivore_has_competitive_strength_0(it):
    """DC-EVENT-EPIDEMIC-01: this Era every species with a carnivore or omnivore nutrition
    symbol has Competitive Strength 0; a herbivore keeps its own."""
    st = table(it, [{"cards": CB}, {"cards": ZB}, {"cards": CH}], event="epidemic")
    omnivore, herbivore, carnivore = st.shared["world"]
    assert it.call("diet_of", omnivore, state=st) == "omnivore"
    assert it.call("strength", omnivore, state=st) == 0
    assert it.call("strength", carnivore, state=st) == 0
    assert it.call("strength", herbivore, state=st) == 4
    st.shared["current_event"] = None
    assert it.call("strength", omnivore, state=st) == 5


def test_a_starving_carnivore_takes_the_less_adapted_carnivores_of_its_biome_not_the_equally_adapted(it):
    """DC-EVAL-FOOD-07/08: a carnivore that cannot cover its need dies, and so does every
    carnivore of its biome with a *lower* Adaptation; one of equal Adaptation lives on.

    K4 (Adaptation 3, strength 6) got the biome's 4 meat and is fed; the zebra its plants. CH
    (Adaptation 3, strength 3) needs 2 and can eat nobody (the zebra has strength 4):
    it starves. KB (Adaptation 2) dies with it, whether it ate the zebra first or not;
    K4, as adapted as CH, survives."""
    st = table(it, [{"cards": CH}, {"cards": K4}, {"cards": KB}, {"cards": ZB}])
    fed = {2: dict(f_meat=4), 4: dict(f_plants=3)}
    st.shared["world"] = tuple(s._replace(**fed.get(s.f_id, {})) for s in st.shared["world"])
    it.run("food_evaluation", state=st)
    left = alive(st)
    assert 1 not in left, "CH starves"
    assert 3 not in left, "KB, less adapted than CH, dies with it"
    assert 2 in left, "K4, as adapted as CH, is not taken along"


def test_a_species_of_six_cards_can_be_created():
    """DC-ACT-CREATE-08: a species has at most 1 head, 1 body, 2 pairs of legs, 1 wing and
    1 tail: six cards, all laid out in one creation when the body has a site for each."""
    it = Interpreter(darwin_program())
    hand = ("bongo_head", "sunda_colugo_body", "blue_footed_booby_legs", "great_white_pelican_legs",
            "golden_eagle_wing", "jaguar_tail")
    st = table_state(it, {"africa": "savanna"}, [])
    p = st.seats[0]
    st.per["hand"][p] = hand
    assert it.call("well_formed", hand)
    options = it.call("creations", p, state=st)
    assert any(sorted(ks) == sorted(hand) for ks, _ in options)


G1 = ["thomsons_gazelle_head"]                                   # 1, 0, 1, herbivore


@pytest.mark.parametrize("species", [[G1], [G1, ZB], [ZB, CH]])
def test_the_projection_gives_the_adaptation_points_the_evaluation_awards(it, species):
    """DC-EVAL-ADAPT-01/03: in each biome the most adapted species (Adaptation above 0;
    ties: strength, then Hearts) earn the biome's points (2 on a Hill country), a
    species of Adaptation 1 alone in its biome among them. What a seat's bot projects
    (``adaptation_points``) is what the Evaluation's award gives."""
    st = table(it, [{"cards": cards} for cards in species])
    world = st.shared["world"]
    winners = set(it.call("adaptation_winners", "africa", state=st))
    assert winners
    for s in world:
        projected = it.call("adaptation_points", s, world, state=st)
        assert projected == (2 if s.f_id in winners else 0), s.f_cards


def test_a_volcano_erupts_for_one_era_then_counts_as_a_tropical_rainforest():
    """DC-EVENT-VOLCANO-02/04/05: the Volcanic eruption cannot be lived in for the Era it
    erupts; in the following Era it counts as a Tropical rainforest, and it stays on the
    table (shielded from Biome Changes) until it has been one for a whole Era. Checked at
    the start of every Era of seeded games in which a volcano erupts."""
    it = Interpreter(darwin_program())
    seen: dict = {}         # (seed, continent) -> [(era, eras counted, erupting, biome, shielded)]

    def watch(st, where):
        if not where.startswith("era:"):
            return
        for c in st.shared["in_play"]:
            if st.per["volcano"].get(c):
                seen.setdefault((st.seed, c), []).append(
                    (int(where.split(":")[1]), st.per["volcano_eras"][c], it.call("erupting", c, state=st),
                     it.call("biome_at", c, state=st), it.call("shielded", c, state=st)))
    for seed in (4, 5, 6, 7):
        it.play("standard", 4, seed, watchers=[watch])
    assert seen, "no volcano erupted in these games: choose other seeds"
    for eras in seen.values():
        first = eras[0][0]
        for era, counted, erupting, biome, shielded in eras:
            assert counted == era - first
            assert erupting == (era == first)
            assert (biome == "tropical_rainforest") == (era > first)
            assert shielded == (era - first < 2)


def test_one_possible_mutation_is_enough_to_offer_the_mutate_action(it):
    """DC-ACT-02/03: a player may take a main action only when it is possible: with a head
    and a body on the table and one Legs card in hand, the one mutation (adding the legs)
    makes Mutate an option; no migration is (one biome), no creation (one card)."""
    st = table(it, [{"cards": ["bongo_head", "chimpanzee_body"]}])
    p = st.seats[0]
    st.per["hand"][p] = ("blue_footed_booby_legs",)
    species = st.shared["world"][0]
    assert len(it.call("single_mutations", p, species, state=st)) == 1
    assert not it.call("can_double", p, species, state=st)
    assert it.call("open_actions", p, state=st) == ("mutate", "pass_turn")


def test_the_last_card_of_a_stack_can_be_drawn(it):
    """DC-SETUP-09 / DC-TRANS-18: a player draws from the stack of their choice, refilled
    from its discard pile when empty: a stack holding one card (and an empty other stack)
    still gives it."""
    from rulewright.compiler.interpret.state import RandomAgent     # (the seats' agents)
    st = table(it, [])
    p = st.seats[0]
    st.agents = {s.index: RandomAgent(s.index) for s in st.seats}
    for zone in ("small_stack", "small_discard", "large_stack", "large_discard"):
        st.shared[zone].cards = []
    st.shared["small_discard"].cards = ["bongo_head"]
    it.run("draw_card", p, state=st)
    assert list(st.per["hand"][p]) == ["bongo_head"]
    st.shared["large_stack"].cards = ["bison_body"]
    it.run("draw_card", p, state=st)
    assert list(st.per["hand"][p]) == ["bongo_head", "bison_body"]


def test_with_even_split_tied_carnivores_share_the_meat_between_those_that_need_it():
    """DC-NUTR-09 and the reading tied_feeders = even_split (DC-AMB-05): two carnivores
    tied in Adaptation, strength and Hearts (2, 5, 3) each need 3 meat; the Hill country
    has 4: each gets 2. The omnivore tied with them is fed by the plants and needs no
    meat: it is no claimant, and does not make the even share smaller."""
    it = Interpreter(darwin_program(tied_feeders="even_split"))
    st = table(it, [{"cards": KB}, {"cards": KB}, {"cards": CB}])
    world = st.shared["world"]
    assert it.call("plant_shares", "africa", world, state=st)[world[2]] == 3
    meat = it.call("meat_shares", "africa", world, state=st)
    assert [meat.get(s, 0) for s in world] == [2, 2, 0]


@pytest.mark.parametrize("players, left, right", [(3, 2, 2), (4, 2, 2), (5, 3, 2), (6, 3, 2)])
def test_the_biomes_are_laid_out_on_both_sides_of_the_stacks(players, left, right):
    """DC-SETUP-05: 4 Biome Cards with 3-4 players, 5 with 5-6, laid out to the left and
    the right of the central stacks (the side matters during a Continental Drift): half on
    each side, the odd one on the left."""
    it = Interpreter(darwin_program())
    st = it.play("standard", players, 1, stop_at="era:1")
    sides = [st.per["side_of"][c] for c in st.shared["in_play"]]
    assert (sides.count("left_side"), sides.count("right_side")) == (left, right)


def test_a_game_of_one_era_is_allowed():
    """DC-FLOW-02 / DC-VAR-GEN-02: the number of Eras is a setting (the short game plays 3);
    one Era is a game, none is refused where it is set."""
    from rulewright.compiler.diagnostics import RulesError      # (the refusal below)
    st = Interpreter(darwin_program(eras=1)).play("standard", 3, 1)
    assert st.checkpoints.get("era") == 1
    with pytest.raises(RulesError, match="a game has at least one Era, not 0"):
        darwin_program(eras=0)


def test_an_event_that_brings_a_biome_puts_it_in_play_at_the_biome_change():
    """DC-EVENT-DESERT-01, DC-EVENT-ICEAGE-01, DC-EVENT-MOUNTAIN-01: Desertification, Ice
    age and Mountain formation bring their biome (chosen from the Biome stack or the
    discard pile) into play in the coming Biome Change, in place of a randomly drawn one.
    Checked at the start of each Era such an event opens, in seeded games where no such
    biome was in play before."""
    it = Interpreter(darwin_program())
    brings = ("desertification", "ice_age", "mountain_formation")
    seen: list = []
    before: dict = {}

    def watch(st, where):
        if where.startswith("transition"):
            before["biomes"] = {it.call("biome_at", c, state=st) for c in st.shared["in_play"]}
        elif where.startswith("era:") and st.shared["current_event"] in brings:
            wanted = set(it.call("event_biomes", st.shared["current_event"], state=st))
            if not wanted & before["biomes"]:
                seen.append(bool(wanted & {st.per["biome_card"][c] for c in st.shared["in_play"]}))
    for seed in (1, 2):
        it.play("standard", 4, seed, watchers=[watch])
    assert len(seen) >= 2 and all(seen)


@pytest.mark.parametrize("column", ["plants", "meat"])
def test_a_biome_table_with_a_negative_food_supply_is_refused(tmp_path, column):
    """DC-CARD-05: a biome's food supply is a count of chips: a player's own biome table with
    a negative number of plants, or of meat (the other column as printed), is refused."""
    import csv                                              # (this test's table only)
    from rulewright.compiler import load
    from rulewright.compiler.diagnostics import RulesError
    from helpers import ROOT
    with open(ROOT / "spec" / "darwins_choice" / "biomes.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    rows[1][rows[0].index(column)] = "-1"
    own = tmp_path / "my_biomes.csv"
    with open(own, "w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(rows)
    with pytest.raises(RulesError, match="a food supply is a count of chips"):
        load(ROOT / "spec" / "darwins_choice", tables={"biome": str(own)})


def test_with_standing_distribution_off_an_arriving_species_takes_only_the_free_food():
    """DC-AMB-04 / DC-NUTR-20, reading standing_distribution = false: a species that
    arrives in a biome takes only the plants no species holds. On a Hill country (6
    plants) a resident holding 4 leaves 2 for a newcomer that needs 3; one holding all 6
    leaves none."""
    it = Interpreter(darwin_program(standing_distribution="false"))
    for held, free in ((4, 2), (6, 0)):
        st = table(it, [{"cards": ZB}, {"cards": ZB}])
        resident, newcomer = st.shared["world"]
        world = (resident._replace(f_plants=held), newcomer)
        assert it.call("free_plants", "africa", world, state=st) == free
        assert it.call("arrived", newcomer, world, state=st).f_plants == min(3, free)
