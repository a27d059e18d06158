"""Darwin's Choice: the numbers of the rules, on crafted positions.

Each test builds a small table (biomes in play and species on them, as the rulebook's
examples do: ``helpers.table_state``), runs one procedure or definition of the spec on
it and checks the numbers the rulebook's rule gives: Darwin Points, Food Chips, who
eats, who starves, who dies. Every expected number is derived by hand in a comment,
from the rule (its rulebook ID, in brackets on the spec's definition) and from the
printed values of the cards (spec/darwins_choice/animal_cards.csv: Hearts H,
Competitive Strength CS, ability symbols) and biomes (biomes.csv: central symbols,
plants, meat, points). The stats of each crafted species are asserted first, so a
changed catalogue shows up as such and not as a wrong rule.

Where a test was checked against a deliberate one-line change of the spec (a
mutation), its docstring says which: the test fails with the change, passes without.
"""
from __future__ import annotations

import pytest

from helpers import dc, table_state


def by_id(st) -> dict:
    return {s.f_id: s for s in st.shared["world"]}


def stats(it, st, s) -> tuple:
    """(Competitive Strength, Adaptation to its own biome, Hearts) of a species."""
    return (it.call("strength", s, state=st), it.call("adaptation_of", s, state=st),
            it.call("hearts", s, state=st))


def fed(it, st):
    """The table with its Food Chips placed by the standing distribution (DC-NUTR-04)."""
    st.shared["world"] = it.call("distributed", st.shared["world"], state=st)
    return st


# ------------------------------------------------------------------ Competitive Strength
#
# Savanna: central symbols running, heat_resistance; requires running; forbids
# cold_resistance; 6 plants, 4 meat, 2 points.

ELEPHANT_KOMODO = ["african_elephant_head", "komodo_dragon_body", "african_elephant_legs"]
# head H2 CS3 heat | body H2 CS3 heat swimming | legs H1 CS2 running
#   CS 3+3+2 = 8, H 2+2+1 = 5, Adaptation in Savanna: heat, heat, running = 3
GORILLA_RHINO = ["western_gorilla_head", "white_rhinoceros_body", "western_gorilla_legs"]
# head H2 CS3 climbing | body H2 CS3 heat running | legs H1 CS2 climbing running
#   CS 8, H 5, Adaptation: heat, running, running = 3 (climbing is not central)
RHINO_HIPPO = ["white_rhinoceros_head", "hippopotamus_body", "brown_bear_legs"]
# head H1 CS3 (no symbol) | body H2 CS3 swimming swimming heat | legs H1 CS2 running climbing
#   CS 8, H 4, Adaptation: heat, running = 2
ELEPHANT_TORTOISE = ["african_elephant_head", "giant_tortoise_body", "african_elephant_legs"]
# head H2 CS3 heat | body H1 CS3 (no symbol) | legs H1 CS2 running
#   CS 8, H 4, Adaptation: heat, running = 2
LION = ["lion_head", "lion_body", "lion_legs"]
# head H2 CS3 heat (carnivore) | body H1 CS2 running heat | legs H1 CS1 running running
#   CS 6, H 4, Adaptation: heat, running, heat, running, running = 5
CHEETAH = ["cheetah_head", "cheetah_body", "cheetah_legs"]
# head H1 CS2 running (carnivore) | body H1 CS1 running running heat | legs H0 CS0 running running
#   CS 3, H 2, Adaptation 1+3+2 = 6
GAZELLE = ["thomsons_gazelle_head", "thomsons_gazelle_body"]
# head H1 CS0 running | body H1 CS0 running running heat: CS 0, H 2, Adaptation 4
BONGO_ELEPHANT = ["bongo_head", "african_elephant_body", "african_elephant_legs"]
# head H1 CS2 running | body H2 CS3 heat swimming | legs H1 CS2 running
#   CS 7, H 4, Adaptation: running, heat, running = 3
RHINO_LION_BEAR = ["white_rhinoceros_head", "lion_body", "brown_bear_legs"]
# head H1 CS3 | body H1 CS2 running heat | legs H1 CS2 running climbing
#   CS 7, H 3, Adaptation: running, heat, running = 3


def savanna_table(it, species, event=None):
    return table_state(it, {"africa": "savanna"},
                       [{"home": "africa", "cards": cards, "owner": i % 2} for i, cards in enumerate(species)],
                       event=event)


def test_strength_award_two_firsts_then_a_second_and_a_third():
    """DC-EVAL-COMP-01 DC-EVAL-COMP-03 DC-EVAL-COMP-04 DC-EVAL-COMP-05 DC-EVAL-COMP-06 DC-EVAL-COMP-07:
    two species tied on Competitive Strength, Adaptation and food share the first place
    and each gets its 3 points; the shared place does not remove the lower ones, so the
    next species is 2nd (2 points) and the one after 3rd (1 point); the 4th gets nothing,
    and a species with 0 CS never scores.

    Checked against the mutation "1, 1, 3" (the rank of a group counts the species
    ahead of it instead of the places): in evaluation.rules, strength_award's
    ``competition_points[rank(first(group), places)]`` changed to
    ``competition_points[1 + sum(size(g) for g in take(places, rank(first(group), places) - 1))]``;
    the test then fails (species 3 gets 1, species 4 gets 0)."""
    it = dc()
    st = savanna_table(it, [ELEPHANT_KOMODO, GORILLA_RHINO, RHINO_HIPPO, LION, CHEETAH, GAZELLE])
    w = by_id(st)
    assert [stats(it, st, w[i]) for i in range(1, 7)] == [
        (8, 3, 5), (8, 3, 5), (8, 2, 4), (6, 5, 4), (3, 6, 2), (0, 4, 2)]
    it.run("strength_award", state=st)
    # ranking by (CS, Adaptation, Hearts) (strength_tie_food = required, DC-AMB-01):
    #   (8,3,5) = (8,3,5) > (8,2,4) > (6,5,4) > (3,6,2); the gazelle (CS 0) takes no part.
    #   Places: 1st {1, 2}, 2nd {3}, 3rd {4}; 4th {5} gets nothing.
    #   Points (DC-EVAL-COMP-03): 1st 3, 2nd 2, 3rd 1.
    assert {i: s.f_dp for i, s in by_id(st).items()} == {1: 3, 2: 3, 3: 2, 4: 1, 5: 0, 6: 0}
    # 3 + 3 + 2 + 1 = 9 points taken from the stock of 101 (DC-COMP-08, English box)
    assert st.shared["dp_stock"] == 101 - 9


def test_strength_award_shared_second_place_keeps_the_third():
    """DC-EVAL-COMP-05 DC-EVAL-COMP-06: two species tied for 2nd both get 2 points, and
    the next one is still 3rd with 1 point (a shared place does not shift the others).

    Checked against the same "1, 1, 3" mutation as the test above (species 4 then gets 0)."""
    it = dc()
    st = savanna_table(it, [GORILLA_RHINO, RHINO_HIPPO, ELEPHANT_TORTOISE, LION])
    w = by_id(st)
    assert [stats(it, st, w[i]) for i in range(1, 5)] == [(8, 3, 5), (8, 2, 4), (8, 2, 4), (6, 5, 4)]
    it.run("strength_award", state=st)
    # places: 1st {1} (8,3,5); 2nd {2, 3} (8,2,4) tied on all three; 3rd {4} (CS 6)
    assert {i: s.f_dp for i, s in by_id(st).items()} == {1: 3, 2: 2, 3: 2, 4: 1}


def test_strength_award_breaks_ties_by_adaptation_then_hearts():
    """DC-EVAL-COMP-04 (with DC-AMB-01's reading ``strength_tie_food = required``): equal
    Competitive Strength is broken by Adaptation, then by the food required (Hearts)."""
    it = dc()
    # 1: (7, 3, 3) ; 2: (7, 3, 4) ; 3: (6, 5, 4): the lion, lower CS but better adapted
    st = savanna_table(it, [RHINO_LION_BEAR, BONGO_ELEPHANT, LION])
    w = by_id(st)
    assert [stats(it, st, w[i]) for i in range(1, 4)] == [(7, 3, 3), (7, 3, 4), (6, 5, 4)]
    it.run("strength_award", state=st)
    # CS first: 1 and 2 (CS 7) before the lion (CS 6) whatever its Adaptation 5;
    # 1 and 2 tie on CS and Adaptation 3: Hearts 4 > 3 puts 2 first.
    assert {i: s.f_dp for i, s in by_id(st).items()} == {2: 3, 1: 2, 3: 1}


def test_strength_award_tie_food_obtained_reading():
    """DC-AMB-01 DC-EVAL-COMP-04, the other reading (``strength_tie_food = obtained``): the
    food a species got this Era, prey included, breaks the tie instead of its Hearts."""
    it = dc(strength_tie_food="obtained")
    st = savanna_table(it, [RHINO_LION_BEAR, BONGO_ELEPHANT])
    # species 1 (H 3) holds 3 plants and ate a 2-Heart prey: 5 units; species 2 (H 4) 4 plants
    st.shared["world"] = tuple(s._replace(f_plants=3, f_prey=2) if s.f_id == 1 else s._replace(f_plants=4)
                               for s in st.shared["world"])
    it.run("strength_award", state=st)
    # (7, 3, 5 obtained) > (7, 3, 4 obtained): species 1 first (3), species 2 second (2)
    assert {i: s.f_dp for i, s in by_id(st).items()} == {1: 3, 2: 2}


def test_strength_award_epidemic_leaves_out_meat_eaters():
    """DC-EVAL-COMP-08 DC-EVENT-EPIDEMIC-01 DC-EVENT-EPIDEMIC-03: during an Epidemic the
    carnivores and omnivores are left out of the ranking, so the places go to the
    herbivores only."""
    it = dc()
    # 1: lion (carnivore, CS 6 normally); 2: (7,3,3) herbivore; 3: cheetah (carnivore, CS 3);
    # 4: gazelle (CS 0); 5: (8,2,4) herbivore
    species = [LION, RHINO_LION_BEAR, CHEETAH, GAZELLE, RHINO_HIPPO]
    base = savanna_table(it, species)
    it.run("strength_award", state=base)
    # without the event: (8,2,4) 1st, (7,3,3) 2nd, lion (6) 3rd; cheetah (3) 4th: nothing
    assert {i: s.f_dp for i, s in by_id(base).items()} == {5: 3, 2: 2, 1: 1, 3: 0, 4: 0}
    st = savanna_table(it, species, event="epidemic")
    assert it.call("strength", by_id(st)[1], state=st) == 0        # DC-EVENT-EPIDEMIC-01
    it.run("strength_award", state=st)
    # with it: herbivores (8,2,4) 1st, (7,3,3) 2nd; nobody else has CS > 0 and may rank
    assert {i: s.f_dp for i, s in by_id(st).items()} == {5: 3, 2: 2, 1: 0, 3: 0, 4: 0}


def test_projected_strength_points_share_places_like_the_award():
    """DC-EVAL-COMP-03 DC-EVAL-COMP-06 DC-EVAL-COMP-07, in the queries' projection
    (projection.rules ``strength_points``): the position of the first test, two firsts
    then a second and a third, projected before the Evaluation.

    Checked against the mutation "1, 1, 3" of ``strength_place`` in projection.rules
    (``1 + distinct(...)`` changed to ``1 + count(t in world if ...)``): species 3 and 4 then
    project 1 and 0."""
    it = dc()
    st = savanna_table(it, [ELEPHANT_KOMODO, GORILLA_RHINO, RHINO_HIPPO, LION, CHEETAH, GAZELLE])
    world = st.shared["world"]
    got = {s.f_id: it.call("strength_points", s, world, state=st) for s in world}
    assert got == {1: 3, 2: 3, 3: 2, 4: 1, 5: 0, 6: 0}


# ------------------------------------------------------------------ the plant order
#
# Desert: central heat_resistance, running; requires heat_resistance; forbids
# cold_resistance; 2 plants, 3 meat, 3 points. Few plants: the order decides who eats.

STRONG_SMALL = ["desert_tortoise_head", "honey_badger_body"]
# head H0 CS0 heat | body H1 CS2 heat: CS 2, H 1, Adaptation 2 (no Digging: the
# desert tortoise's Digging is on its body, not its head)
WEAK_BIG = ["dromedary_head", "golden_lion_tamarin_body"]
# head H1 CS1 heat heat | body H1 CS0 climbing climbing: CS 1, H 2, Adaptation 2
SMALL_WEAK = ["desert_tortoise_head", "green_iguana_body"]
# head H0 CS0 heat | body H1 CS1 climbing heat swimming: CS 1, H 1, Adaptation 2
GIRAFFE_MEERKAT = ["giraffe_head", "meerkat_body"]
# head H1 CS1 heat | body H1 CS0 heat (digging): CS 1, H 2, Adaptation 2


def desert_table(it, species):
    return table_state(it, {"asia": "desert"},
                       [{"home": "asia", "cards": cards, "owner": i % 2} for i, cards in enumerate(species)])


def test_plant_order_strength_before_hearts():
    """DC-NUTR-05 DC-NUTR-07 DC-NUTR-08 DC-EVAL-FOOD-03: two herbivores tied on Adaptation in a
    Desert of 2 plants: the one with the higher Competitive Strength eats first, though
    it needs less. It takes its 1 plant; the other, needing 2, gets the 1 left (it
    takes what is left, DC-AMB-03 ``stop``), and starves at the Food Evaluation.

    Checked against the mutation "Hearts before Competitive Strength": in food.rules,
    ``feed_key`` changed to ``(adaptation_of(s), hearts(s), strength(s))``; the big
    eater then takes both plants and the strong one starves: the test fails.
    Also fails with the same change made to ``plant_key`` alone (the order at the plants)."""
    it = dc()
    # the big eater first in the list, so that the list's order cannot pass for the rule's
    st = desert_table(it, [WEAK_BIG, STRONG_SMALL])
    w = by_id(st)
    assert stats(it, st, w[1]) == (1, 2, 2) and stats(it, st, w[2]) == (2, 2, 1)
    assert it.call("plant_supply", "asia", state=st) == 2
    fed(it, st)
    # Adaptation 2 = 2; CS 2 > 1: species 2 eats first, 1 plant; 2 - 1 = 1 left for species 1
    assert {i: s.f_plants for i, s in by_id(st).items()} == {1: 1, 2: 1}
    it.run("food_evaluation", state=st)
    # species 1: 1 plant < 2 Hearts: it dies; species 2: 1 >= 1: it lives
    assert set(by_id(st)) == {2}


def test_plant_order_hearts_break_a_strength_tie():
    """DC-NUTR-08: tied on Adaptation and Competitive Strength, the species that needs
    more food (more Hearts) eats first. Desert, 2 plants: the 2-Heart species takes both,
    the 1-Heart one gets nothing and starves."""
    it = dc()
    st = desert_table(it, [SMALL_WEAK, WEAK_BIG])
    w = by_id(st)
    assert stats(it, st, w[1]) == (1, 2, 1) and stats(it, st, w[2]) == (1, 2, 2)
    fed(it, st)
    # (2, 1, 2) > (2, 1, 1): species 2 takes its 2 plants, nothing is left for species 1
    assert {i: s.f_plants for i, s in by_id(st).items()} == {1: 0, 2: 2}
    it.run("food_evaluation", state=st)
    assert set(by_id(st)) == {2}


def test_plant_order_full_tie_both_go_short():
    """DC-NUTR-08 DC-AMB-05 (reading ``tied_feeders = all_or_none``): tied on Adaptation,
    CS and Hearts, two species eat at the same time; 2 plants do not cover their 2 + 2,
    so they share them (1 each, in proportion to their needs) and both starve."""
    it = dc()
    st = desert_table(it, [WEAK_BIG, GIRAFFE_MEERKAT])
    w = by_id(st)
    assert stats(it, st, w[1]) == (1, 2, 2) and stats(it, st, w[2]) == (1, 2, 2)
    fed(it, st)
    assert {i: s.f_plants for i, s in by_id(st).items()} == {1: 1, 2: 1}
    it.run("food_evaluation", state=st)
    assert by_id(st) == {}


# ------------------------------------------------------------------ more species
#
# Tundra: central cold_resistance, running, flying; requires cold_resistance; forbids
# heat_resistance; 4 plants, 4 meat, 2 points.

MACAW_CHEETAH = ["macaw_head", "cheetah_body"]
# head H0 CS0 flying | body H1 CS1 running running heat: CS 1, H 1; Desert: 3
TORTOISE_SLOTH = ["giant_tortoise_head", "three_toed_sloth_body"]
# head H1 CS1 heat | body H1 CS0 climbing climbing: CS 1, H 2; Tundra: 0 (and no cold:
# it does not meet the Tundra's Requirements)
CHEETAH_NO_LEGS = ["cheetah_head", "cheetah_body"]
# head H1 CS2 running (carnivore) | body H1 CS1 running running heat: CS 3, H 2;
# Desert: 1 + 3 = 4; Savanna: 4
BONGO3 = ["bongo_head", "bongo_body", "bongo_legs"]
# head H1 CS2 running | body H1 CS2 running climbing | legs H1 CS1 running running:
# CS 5, H 3, Savanna: 1 + 1 + 2 = 4
EMU = ["emu_head", "emu_body"]
# head H1 CS1 heat (omnivore) | body H1 CS1 running heat: CS 2, H 2, Savanna 3
REINDEER = ["reindeer_head", "reindeer_body"]
# head H1 CS1 cold | body H1 CS1 cold running: Tundra 3
GREY_WOLF = ["grey_wolf_head", "grey_wolf_body"]
# head H1 CS2 cold (carnivore) | body H1 CS2 running cold: Tundra 3
MUSK_OX = ["musk_ox_head", "musk_ox_body"]
# head H1 CS2 cold cold | body H2 CS2 cold cold: Tundra 4


class First:
    """An agent that takes the first option it is offered, and remembers the options."""

    def __init__(self):
        self.asked = []

    def choose(self, name, options, state, seat):
        self.asked.append((name, seat.name, list(options)))
        return options[0]


def table(it, biomes: dict, placed: list, players=2, event=None):
    """``placed``: (continent, cards, owner index, Darwin Points)."""
    return table_state(it, biomes, [{"home": c, "cards": k, "owner": o, "dp": dp} for c, k, o, dp in placed],
                       players=players, event=event)


# ------------------------------------------------------------------ Adaptation award

def test_adaptation_award_ties_and_zero():
    """DC-EVAL-ADAPT-01 DC-EVAL-ADAPT-03 DC-EVAL-ADAPT-04 DC-CARD-05: in each biome the most
    adapted species gets the biome's points (Savanna 2, Desert 3); a tie on Adaptation
    goes to the higher CS, then to more Hearts; still tied, every tied species gets the
    full points; a species with Adaptation 0 gets nothing, even alone in its biome.

    Checked against the mutation that drops both ``adaptation_of(s) > 0`` and
    ``meets(s, c)`` from ``adaptation_winners`` (the lone Tortoise sloth then gets the
    Tundra's 2; either one alone keeps it out, since it does not meet the Tundra's
    Requirements, and no shipped biome lets a species meet its Requirements with
    Adaptation 0: each alternative names a central symbol), and against the one that
    ranks by Adaptation alone (``by adaptation_of(s)``: every tie wins)."""
    it = dc()
    st = table(it, {"africa": "savanna", "asia": "desert", "europe": "tundra"}, [
        ("africa", RHINO_LION_BEAR, 0, 0),   # 1: CS 7, A 3, H 3
        ("africa", ELEPHANT_KOMODO, 1, 0),   # 2: CS 8, A 3, H 5
        ("asia", SMALL_WEAK, 0, 0),          # 3: CS 1, A 2, H 1
        ("asia", WEAK_BIG, 1, 0),            # 4: CS 1, A 2, H 2
        ("asia", GIRAFFE_MEERKAT, 0, 0),     # 5: CS 1, A 2, H 2
        ("europe", TORTOISE_SLOTH, 1, 0),    # 6: A 0 in the Tundra
    ])
    w = by_id(st)
    assert [stats(it, st, w[i]) for i in range(1, 7)] == [
        (7, 3, 3), (8, 3, 5), (1, 2, 1), (1, 2, 2), (1, 2, 2), (1, 0, 2)]
    it.run("adaptation_award", state=st)
    # Savanna: A 3 = 3, CS 8 > 7: species 2 gets 2. Desert: A 2 = 2 = 2, CS 1 = 1 = 1,
    # H 2 = 2 > 1: species 4 and 5 tie on all three and each get the Desert's 3.
    # Tundra: species 6 alone but Adaptation 0: nothing.
    assert {i: s.f_dp for i, s in by_id(st).items()} == {1: 0, 2: 2, 3: 0, 4: 3, 5: 3, 6: 0}
    assert st.shared["dp_stock"] == 101 - (2 + 3 + 3)


# ------------------------------------------------------------------ death

def test_a_dying_species_banks_one_point_and_returns_the_rest():
    """DC-EVAL-REQ-01 DC-EVAL-DEATH-01 DC-EVAL-DEATH-03 DC-EVAL-DEATH-04: a species that does
    not meet its biome's Requirements dies at step 1; its owner banks 1 of its Darwin
    Points, the others go back to the stock; its cards go to the small and large discard
    piles. A dying species with no points banks nothing.

    Checked against two mutations of ``die``: the owner banks all the points
    (``banked + s.dp``), and the stock gets back all of them (``dp_stock + s.dp``)."""
    it = dc()
    st = table(it, {"europe": "tundra", "asia": "desert"}, [
        ("europe", TORTOISE_SLOTH, 0, 4),   # 1: no cold_resistance: fails the Tundra
        ("europe", REINDEER, 1, 2),         # 2: cold_resistance: stays
        ("asia", MUSK_OX, 1, 0),            # 3: cold_resistance is forbidden in the Desert
    ])
    it.run("check_requirements", state=st)
    assert set(by_id(st)) == {2}
    p1, p2 = st.seats
    # species 1: 4 points: 1 banked by p1, 3 back to the stock; species 3 had none
    assert (st.per["banked"][p1], st.per["banked"][p2]) == (1, 0)
    assert st.shared["dp_stock"] == 101 + 3
    # heads are small cards, bodies large (DC-COMP-02)
    assert sorted(st.shared["small_discard"].cards) == ["giant_tortoise_head", "musk_ox_head"]
    assert sorted(st.shared["large_discard"].cards) == ["musk_ox_body", "three_toed_sloth_body"]


# ------------------------------------------------------------------ meat and predators

def test_meat_goes_by_adaptation_and_an_omnivore_short_of_plants_joins_the_meat():
    """DC-NUTR-07 DC-NUTR-09 DC-NUTR-19 DC-NUTR-20 DC-EVAL-FOOD-04: Savanna, 6 plants and
    4 meat. Plants: the Bongo (A 4, CS 5) takes 3, the Gazelle (A 4, CS 0) 2, the Emu
    omnivore (A 3) the 1 left of its 2. Meat: the Cheetah (A 6) takes its 2, then the Emu,
    still short of 1, takes 1: fed with plants and meat, it survives the Evaluation.

    Checked against the mutation of ``meat_need`` that gives an omnivore no meat (``else
    if diet_of(s) == omnivore then 0``): the Emu then starves."""
    it = dc()
    st = table(it, {"africa": "savanna"}, [
        ("africa", EMU, 0, 0), ("africa", CHEETAH, 1, 0), ("africa", GAZELLE, 0, 0), ("africa", BONGO3, 1, 0)])
    w = by_id(st)
    assert [stats(it, st, w[i]) for i in range(1, 5)] == [(2, 3, 2), (3, 6, 2), (0, 4, 2), (5, 4, 3)]
    assert it.call("diet_of", w[1], state=st) == "omnivore"
    fed(it, st)
    assert {i: (s.f_plants, s.f_meat) for i, s in by_id(st).items()} == {
        1: (1, 1), 2: (0, 2), 3: (2, 0), 4: (3, 0)}
    it.run("food_evaluation", state=st)
    assert set(by_id(st)) == {1, 2, 3, 4}


def test_meat_order_adaptation_then_strength():
    """DC-NUTR-09 DC-EVAL-FOOD-05: carnivores share the meat like plants: the most
    adapted first. Savanna, 4 meat: the Cheetah (A 6) takes its 2, the Lion (A 5, CS 6)
    the 2 left of its 4; with nothing it can eat it starves at the Evaluation.

    Checked against the mutation of ``meat_key`` that puts CS before Adaptation."""
    it = dc()
    st = table(it, {"africa": "savanna"}, [("africa", LION, 0, 0), ("africa", CHEETAH, 1, 0)])
    fed(it, st)
    assert {i: s.f_meat for i, s in by_id(st).items()} == {1: 2, 2: 2}
    it.run("food_evaluation", state=st)
    assert set(by_id(st)) == {2}


def test_a_hungry_carnivore_eats_the_least_adapted_prey():
    """DC-EVAL-FOOD-06 DC-NUTR-10 DC-NUTR-14 DC-NUTR-16 DC-NUTR-17: Desert, 2 plants and 3
    meat. The Lion (A 5, CS 6, H 4) gets the 3 meat and needs 1 more; two herbivores are
    fed (1 plant each): of the species it may eat (Adaptation and CS not above its own),
    the least adapted is eaten (A 2 before A 3), though it belongs to the Lion's owner;
    its 1 Heart covers the need and the other survives.

    Checked against the mutation of ``prey_key`` that eats the most adapted first
    (``(adaptation_of(t), ...)``)."""
    it = dc()
    st = table(it, {"asia": "desert"}, [
        ("asia", MACAW_CHEETAH, 1, 0),   # 1: CS 1, A 3, H 1
        ("asia", SMALL_WEAK, 0, 0),      # 2: CS 1, A 2, H 1 (same owner as the Lion)
        ("asia", LION, 0, 0),            # 3: CS 6, A 5, H 4
    ])
    w = by_id(st)
    assert [stats(it, st, w[i]) for i in range(1, 4)] == [(1, 3, 1), (1, 2, 1), (6, 5, 4)]
    fed(it, st)
    assert {i: (s.f_plants, s.f_meat) for i, s in by_id(st).items()} == {1: (1, 0), 2: (1, 0), 3: (0, 3)}
    it.run("food_evaluation", state=st)
    assert set(by_id(st)) == {1, 3}
    assert by_id(st)[3].f_meat + by_id(st)[3].f_prey == 3 + 1


def test_leftover_meat_is_lost_and_a_lower_carnivore_starves():
    """DC-NUTR-12 DC-EVAL-FOOD-07 DC-AMB-08: Desert, 3 meat. The Lion (A 5) takes the 3
    meat, the Cheetah (A 4, H 2) gets none. The Lion hunts first (the most adapted) and
    eats the only prey, a 2-Heart herbivore, for its 1 missing unit: the other unit is
    lost, nothing is left for the Cheetah, which starves."""
    it = dc()
    st = table(it, {"asia": "desert"}, [
        ("asia", CHEETAH_NO_LEGS, 1, 0), ("asia", WEAK_BIG, 0, 0), ("asia", LION, 0, 0)])
    w = by_id(st)
    assert [stats(it, st, w[i]) for i in range(1, 4)] == [(3, 4, 2), (1, 2, 2), (6, 5, 4)]
    fed(it, st)
    assert {i: (s.f_plants, s.f_meat) for i, s in by_id(st).items()} == {1: (0, 0), 2: (2, 0), 3: (0, 3)}
    it.run("food_evaluation", state=st)
    assert set(by_id(st)) == {3}
    assert by_id(st)[3].f_prey == 2         # the whole prey counts as eaten, 1 unit of it wasted


def test_epidemic_stops_predation():
    """DC-EVENT-EPIDEMIC-02 DC-AMB-16: during an Epidemic no carnivore can eat another
    species, even a 0-CS carnivore (the Lion, CS 0 during the Epidemic) facing a 0-CS prey
    (the Gazelle). Desert: the Gazelle (A 4, CS 0, H 2) takes the 2 plants; the Lion (A 5,
    H 4) the 3 meat and is 1 short. Without the event it eats the Gazelle and lives; with
    it, it starves and the Gazelle lives.

    Checked against the mutation that drops the Epidemic from ``can_eat``."""
    it = dc()
    results = {}
    for event in (None, "epidemic"):
        st = table(it, {"asia": "desert"}, [("asia", GAZELLE, 1, 0), ("asia", LION, 0, 0)], event=event)
        assert [it.call("adaptation_of", s, state=st) for s in st.shared["world"]] == [4, 5]
        fed(it, st)
        assert {i: (s.f_plants, s.f_meat) for i, s in by_id(st).items()} == {1: (2, 0), 2: (0, 3)}
        it.run("food_evaluation", state=st)
        results[event] = set(by_id(st))
    assert results == {None: {2}, "epidemic": {1}}


def test_a_carnivore_cannot_eat_a_stronger_species():
    """DC-NUTR-14 DC-EVAL-FOOD-07: a carnivore may eat a species only if its Competitive
    Strength is at least the target's (and its Adaptation too). Savanna, 4 meat: the Cheetah
    (A 6) takes 2, the Lion (A 5, CS 6) the other 2 of its 4. The only herbivore (A 3,
    CS 7, H 4, fed with 4 of the 6 plants) is better adapted than nothing but stronger
    than the Lion: the Lion cannot eat it and starves.

    Checked against the mutation that drops ``strength(h) >= strength(t)`` from ``can_eat``."""
    it = dc()
    st = table(it, {"africa": "savanna"}, [
        ("africa", LION, 0, 0), ("africa", CHEETAH, 1, 0), ("africa", BONGO_ELEPHANT, 1, 0)])
    w = by_id(st)
    assert [stats(it, st, w[i]) for i in range(1, 4)] == [(6, 5, 4), (3, 6, 2), (7, 3, 4)]
    assert not it.call("can_eat", w[1], w[3], state=st)
    fed(it, st)
    assert {i: (s.f_plants, s.f_meat) for i, s in by_id(st).items()} == {1: (0, 2), 2: (0, 2), 3: (4, 0)}
    it.run("food_evaluation", state=st)
    assert set(by_id(st)) == {2, 3}


ORCA = ["orca_head", "orca_body"]
# head H2 CS3 swimming swimming cold (carnivore) | body H2 CS3 swimming x3 cold:
# CS 6, H 4; Wetland (central swimming, flying, running): 2 + 3 = 5
FROG = ["red_eyed_tree_frog_head", "red_eyed_tree_frog_body"]
# head H0 CS0 climbing (carnivore) | body H0 CS0 climbing swimming: H 0 (needs no food);
# Wetland: 1


@pytest.mark.parametrize("reading,survivors", [("takes_lower_carnivores", set()), ("alone", {2})])
def test_a_starving_carnivore_takes_the_less_adapted_carnivores_with_it(reading, survivors):
    """DC-EVAL-FOOD-07 DC-EVAL-FOOD-08 DC-AMB-06 DC-CARD-02: Wetland, 3 meat. The Orca (A 5,
    H 4) takes the 3 and, with nothing to eat, starves; the Frog (A 1), a carnivore that
    needs no food (0 Hearts), dies with it because its Adaptation is lower (the literal
    reading); under ``starving_carnivore = alone`` the Frog lives.

    Checked against the mutation that never kills the lower carnivores
    (``adaptation_of(t) < level`` changed to ``adaptation_of(t) < level - 100``)."""
    it = dc(starving_carnivore=reading)
    st = table(it, {"europe": "wetland"}, [("europe", ORCA, 0, 0), ("europe", FROG, 1, 0)])
    w = by_id(st)
    assert [stats(it, st, w[i]) for i in (1, 2)] == [(6, 5, 4), (0, 1, 0)]
    fed(it, st)
    assert {i: s.f_meat for i, s in by_id(st).items()} == {1: 3, 2: 0}
    it.run("food_evaluation", state=st)
    assert set(by_id(st)) == survivors


# ------------------------------------------------------------------ events

def test_flood_kills_species_that_cannot_swim_climb_or_fly():
    """DC-EVENT-FLOOD-01 DC-EVENT-FLOOD-02 DC-EVAL-DEATH-03 DC-EVAL-DEATH-04: a Flood kills
    every species without Swimming, Climbing and Flying; one of the three is enough. A
    drowned species banks 1 of its points, the rest go to the stock.

    Checked against the mutation of ``flood_proof`` that forgets Flying."""
    it = dc()
    st = table(it, {"asia": "desert", "africa": "savanna"}, [
        ("asia", MACAW_CHEETAH, 0, 0),    # 1: flying (macaw head): lives
        ("asia", LION, 0, 5),             # 2: heat and running only: drowns, 5 points
        ("africa", GAZELLE, 1, 0),        # 3: running and heat only: drowns, no points
        ("africa", RHINO_HIPPO, 1, 0),    # 4: swimming (hippo body), climbing: lives
    ])
    it.run("flooding", state=st)
    assert set(by_id(st)) == {1, 4}
    p1, p2 = st.seats
    assert (st.per["banked"][p1], st.per["banked"][p2]) == (1, 0)
    assert st.shared["dp_stock"] == 101 + 4


@pytest.mark.parametrize("ties,dead", [("all_die", {1, 5, 6}), ("none_die", {1})])
def test_hurricane_kills_the_least_adapted_below_4(ties, dead):
    """DC-EVENT-HURRICANE-01 DC-EVENT-HURRICANE-02 DC-EVENT-HURRICANE-03 DC-EVENT-HURRICANE-04
    DC-AMB-12: in each biome the least adapted species dies, unless its Adaptation is 4
    or more. Savanna A 2, 3, 4: the A 2 dies. Desert A 5 and 4: nobody. Tundra A 3, 3, 4:
    the two tied at 3 die (reading ``all_die``; ``none_die`` spares them).

    Checked against the mutation ``adaptation_of(s) <= 4`` in ``storm``."""
    it = dc(hurricane_ties=ties)
    st = table(it, {"africa": "savanna", "asia": "desert", "europe": "tundra"}, [
        ("africa", RHINO_HIPPO, 0, 0),     # 1: A 2
        ("africa", BONGO_ELEPHANT, 1, 0),  # 2: A 3
        ("africa", GAZELLE, 0, 0),         # 3: A 4
        ("asia", LION, 1, 0),              # 4: A 5 in the Desert
        ("europe", REINDEER, 0, 0),        # 5: A 3
        ("europe", GREY_WOLF, 1, 0),       # 6: A 3
        ("europe", MUSK_OX, 0, 0),         # 7: A 4
        ("asia", CHEETAH_NO_LEGS, 0, 0),   # 8: A 4 in the Desert
    ])
    assert [it.call("adaptation_of", by_id(st)[i], state=st) for i in range(1, 9)] == [2, 3, 4, 5, 3, 3, 4, 4]
    it.run("storm", state=st)
    assert set(range(1, 9)) - set(by_id(st)) == dead


def test_intruders_take_each_players_top_species():
    """DC-EVENT-INTRUDERS-01 DC-EVENT-INTRUDERS-02 DC-EVENT-INTRUDERS-04 DC-EVENT-INTRUDERS-05
    DC-EVAL-DEATH-05: each player loses their species with the most Darwin Points; its
    points are not lost: the owner shares them among their other species, or banks them
    all when none is left. A player without species is unaffected.

    Checked against the mutation that banks 1 point instead of all of them."""
    it = dc()
    st = table(it, {"africa": "savanna", "asia": "desert"}, [
        ("africa", GAZELLE, 0, 5),        # 1: p1's top species
        ("africa", BONGO3, 0, 2),         # 2: p1's other species: gets the 5
        ("asia", LION, 1, 3),             # 3: p2's only species: p2 banks its 3
    ], players=3)
    it.run("invasion", state=st)
    p1, p2, p3 = st.seats
    assert {i: s.f_dp for i, s in by_id(st).items()} == {2: 2 + 5}
    assert [st.per["banked"][p] for p in (p1, p2, p3)] == [0, 3, 0]
    assert st.shared["dp_stock"] == 101             # no point goes back to the stock


def test_intruders_tie_is_the_players_choice():
    """DC-EVENT-INTRUDERS-03: two species tied for the most points: the player chooses
    which one dies (offered both); the 4 points go to the survivors, 9 in all kept."""
    it = dc()
    st = table(it, {"africa": "savanna"}, [
        ("africa", GAZELLE, 0, 4), ("africa", BONGO3, 0, 4), ("africa", RHINO_HIPPO, 0, 1)], players=3)
    agent = First()
    st.agents = {0: agent}
    it.run("invasion", state=st)
    victims = [opts for name, _, opts in agent.asked if name == "victim"]
    assert len(victims) == 1 and sorted(s.f_id for s in victims[0]) == [1, 2]
    assert len(by_id(st)) == 2 and sum(s.f_dp for s in by_id(st).values()) == 4 + 4 + 1


def test_degeneration_takes_a_limb_from_species_of_four_cards_or_more():
    """DC-EVENT-DEGEN-01 DC-EVENT-DEGEN-02 DC-EVENT-DEGEN-03: each species of 4 or more
    cards loses one card of its owner's choice, never the head or the body; smaller
    species keep theirs.

    Checked against the mutation ``size(s.cards) > 4``."""
    it = dc()
    four = ["cheetah_head", "cheetah_body", "cheetah_legs", "cheetah_tail"]    # head, body, legs, tail
    st = table(it, {"africa": "savanna"}, [("africa", four, 0, 0), ("africa", BONGO3, 1, 0)])
    agent = First()
    st.agents = {0: agent, 1: agent}
    it.run("degenerate", state=st)
    # one choice only, p1's, between the legs and the tail
    assert [(seat, sorted(opts)) for _, seat, opts in agent.asked] == [("p1", ["cheetah_legs", "cheetah_tail"])]
    w = by_id(st)
    assert len(w[1].f_cards) == 3 and {"cheetah_head", "cheetah_body"} <= set(w[1].f_cards)
    assert list(w[2].f_cards) == BONGO3
    assert list(st.shared["small_discard"].cards) == ["cheetah_legs"]      # the first option taken


@pytest.mark.parametrize("event,savanna,desert", [
    (None, (6, 4), (2, 3)),
    ("meat_boom", (2, 6), (2, 3)),
    ("meteor_strike", (4, 3), (2, 3)),
    ("plant_boom", (6, 2), (2, 3)),
    ("optimal_conditions", (6, 4), (2, 3)),
])
def test_food_events_set_the_supply_of_easy_biomes(event, savanna, desert):
    """DC-EVENT-MEATBOOM-01 DC-EVENT-MEATBOOM-02 DC-EVENT-METEOR-01 DC-EVENT-PLANTBOOM-01
    DC-EVENT-OPTIMAL-01 DC-AMB-15 DC-CARD-08: (plants, meat) of the Savanna (2 points,
    printed 6 and 4) and the Desert (3 points, printed 2 and 3): Meat boom 2 and 6,
    Meteor strike 4 and 3, Plant boom 6 and 2 for the easy biome; the difficult one keeps
    its printed supply.

    Checked against two mutations: Meteor strike's plants 4 changed to 3, and
    ``boosts`` without ``b.points == 2``."""
    it = dc()
    st = table(it, {"africa": "savanna", "asia": "desert"}, [], event=event)
    got = {c: (it.call("plant_supply", c, state=st), it.call("meat_supply", c, state=st)) for c in ("africa", "asia")}
    assert got == {"africa": savanna, "asia": desert}


def test_volcano_erupts_then_is_a_rainforest():
    """DC-EVENT-VOLCANO-02 DC-EVENT-VOLCANO-03 DC-EVENT-VOLCANO-04: in its first Era a
    Volcanic eruption supplies no food and nothing meets it; in the next Era it counts as
    a Tropical rainforest (printed 6 plants and 3 meat).

    Checked against the mutation ``volcano_eras(c) >= 2`` in ``biome_at``."""
    it = dc()
    st = table(it, {"africa": "savanna"}, [("africa", GAZELLE, 0, 0)])
    st.per["volcano"]["africa"] = True
    st.per["volcano_eras"]["africa"] = 0
    gazelle = by_id(st)[1]
    assert (it.call("plant_supply", "africa", state=st), it.call("meat_supply", "africa", state=st)) == (0, 0)
    assert it.call("meets", gazelle, "africa", state=st) is False
    it.run("check_requirements", state=st)
    assert by_id(st) == {}
    st.per["volcano_eras"]["africa"] = 1
    assert it.call("biome_at", "africa", state=st) == "tropical_rainforest"
    assert (it.call("plant_supply", "africa", state=st), it.call("meat_supply", "africa", state=st)) == (6, 3)


# ------------------------------------------------------------------ counts of the Transition

def test_biome_changes_with_five_or_six_players():
    """DC-TRANS-08 DC-TRANS-09: biomes replaced after Eras 1, 2, 3: 2/3/3 with 3-4 players,
    3/4/4 with 5-6; none after the last Era.

    Checked against the mutation 3/4/3 for 5-6 players."""
    it = dc()
    assert [[it.call("changes_after", e, n) for e in (1, 2, 3, 4)] for n in (3, 4, 5, 6)] == [
        [2, 3, 3, 0], [2, 3, 3, 0], [3, 4, 4, 0], [3, 4, 4, 0]]


def test_trade_zone_is_players_plus_two_with_the_odd_card_small():
    """DC-SETUP-08 DC-TRANS-16: players + 2 Animal Cards, half small and half large, one
    more small card when the number is odd: 3 players 3 + 2, 4: 3 + 3, 5: 4 + 3, 6: 4 + 4.

    Checked against the mutation that deals the odd card large."""
    it = dc()
    got = {}
    for n in (3, 4, 5, 6):
        st = table_state(it, {"africa": "savanna"}, [], players=n)
        it.run("deal_trade_zone", state=st)
        zone = st.shared["trade_zone"].cards
        sizes = it.program.enums["animal_card"].attrs["size"]
        got[n] = (sum(1 for k in zone if sizes[k] == "small"), len(zone))
    # (small cards, all cards)
    assert got == {3: (3, 5), 4: (3, 6), 5: (4, 7), 6: (4, 8)}


def test_hands_are_filled_up_to_ten():
    """DC-TRANS-17: each player draws back up to 10 cards and keeps the cards left: a hand
    of 3 draws 7; a hand of 10 or more (cards received in the 2 vs 2 version) draws none.

    Checked against the mutation that fills up to 9."""
    it = dc()
    st = table_state(it, {"africa": "savanna"}, [], players=3)
    p1, p2, p3 = st.seats
    st.per["hand"][p1].cards = ["bongo_head", "lion_head", "cheetah_head"]
    st.per["hand"][p2].cards = ["bongo_head"] * 12
    assert [it.call("cards_to_draw", p, state=st) for p in (p1, p2, p3)] == [7, 0, 10]


class Redraws(First):
    """Takes the first option, except that it does redraw (``again``: true)."""

    def choose(self, name, options, state, seat):
        self.asked.append((name, seat.name, list(options)))
        return True if name == "again" else options[0]


def test_card_redrawing_keeps_one_card_and_draws_nine():
    """DC-ACT-REDRAW-01: a player may keep one of their 10 cards, discard the other 9 and
    draw 9: the hand has 10 cards again, the kept one among them, and 9 are discarded.

    Checked against the mutation that draws 10 after keeping one."""
    it = dc()
    st = table_state(it, {"africa": "savanna"}, [], players=3)
    p1 = st.seats[0]
    for _ in range(10):
        it.run("draw_card", p1, state=st)                 # a hand of 10 from the stacks
    before = list(st.per["hand"][p1].cards)
    st.agents = {0: Redraws()}
    it.run("redraw_cards", p1, False, state=st)
    after = list(st.per["hand"][p1].cards)
    kept = before[0]                                      # the agent keeps the first card
    discarded = st.shared["small_discard"].cards + st.shared["large_discard"].cards
    assert len(after) == 10 and kept in after
    assert len(discarded) == 9 and sorted(discarded) == sorted(before[1:])


def test_a_single_mutation_is_free_outside_low_mutation_rate():
    """DC-ACT-MUT-08 DC-EVENT-LOWMUT-01: a Single Mutation costs nothing, like any Main
    Action; only during Low mutation rate does it cost 1 Darwin Point."""
    it = dc()
    costs = {}
    for event in (None, "optimal_conditions", "low_mutation_rate"):
        st = table_state(it, {"africa": "savanna"}, [], event=event)
        costs[event] = it.call("single_cost", state=st)
    assert costs == {None: 0, "optimal_conditions": 0, "low_mutation_rate": 1}


@pytest.mark.parametrize("n", [2, 3, 4])
def test_a_biome_change_replaces_as_many_biomes_as_it_is_told(n):
    """DC-TRANS-06 DC-TRANS-07 DC-EVENT-ROTATION-01: the Biome Change replaces n of the
    biomes in play (2 or 3 after an Era with 4 players, all 4 under Rotation axis shift),
    each on its own continent, and discards the replaced Biome Cards.

    Checked against the mutation ``repeat left - 1`` in ``biome_change``."""
    it = dc()
    before = {"africa": "savanna", "asia": "desert", "europe": "tundra", "america": "wetland"}
    st = table_state(it, before, [], players=4)
    st.shared["era"] = 1
    # the four biomes on the table are not in the stack any more
    st.shared["biome_stack"].cards = [b for b in st.shared["biome_stack"].cards if b not in before.values()]
    it.run("biome_change", n, state=st)
    changed = sorted(c for c in before if st.per["biome_card"][c] != before[c])
    assert len(changed) == n
    assert sorted(st.shared["biome_discard"].cards) == sorted(before[c] for c in changed)
