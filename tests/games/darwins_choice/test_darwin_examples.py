"""The Darwin's Choice rulebook examples, with the rulebook's numbers (DC-EX-1 to 4).

The species are built from the reconstructed catalogue, which was made to reproduce
exactly these examples; the tests run the spec's own rules on them.
"""
import pytest

from helpers import dc, table_state  # the spec's interpreter, and a table like the rulebook's


def call(interp, name, *args):
    return interp.call(name, *args)


BONGO_CHIMP = ["bongo_head", "chimpanzee_body", "chimpanzee_legs", "golden_eagle_wing"]


def test_dc_ex1_create_winged_bongo_chimpanzee():
    it = dc()
    st = table_state(it, {"africa": "tropical_rainforest"}, [])
    s1 = it.call("newborn", st.seats[0], tuple(BONGO_CHIMP), "africa", state=st)
    assert it.call("well_formed", tuple(BONGO_CHIMP)) is True
    assert it.call("adaptation_in", s1, "africa") == 4 + 2 + 2
    counts = {a: it.call("abilities_of", s1).count(a) for a in ("climbing", "running", "flying")}
    assert counts == {"climbing": 4, "running": 2, "flying": 2}
    assert it.call("hearts", s1) == 3
    assert it.call("diet_of", s1) == "herbivore"
    # the creation is legal: Requirements met and 3 plants to eat
    assert it.call("can_live", s1, (s1,)) is True
    fed = it.call("distributed", (s1,))[0]
    assert (fed.f_plants, fed.f_meat) == (3, 0)
    assert s1.f_acted is True                # the marker goes on check-marked side up


def test_dc_ex2_double_mutation():
    it = dc()
    st = table_state(it, {"africa": "tropical_rainforest"},
                     [{"home": "africa", "cards": BONGO_CHIMP, "dp": 3}])
    s1 = st.shared["world"][0]
    st.per["hand"][st.seats[0]].cards = ["blue_footed_booby_legs", "great_white_pelican_legs"]
    first = it.record("change", removed=("chimpanzee_legs",), added=("blue_footed_booby_legs",))
    second = it.record("change", removed=(), added=("great_white_pelican_legs",))
    after = it.call("after", it.call("after", s1.f_cards, first), second)
    assert it.call("similar", "chimpanzee_legs", "blue_footed_booby_legs")      # double legs -> single
    cost = it.call("double_cost", s1)
    assert cost == 3
    assert it.call("mutation_ok", s1, after, cost) is True
    assert second in it.call("double_seconds", st.seats[0], s1, first)
    mutated = it.call("mutated", s1, after, cost)
    assert mutated.f_dp == 0 and mutated.f_acted is True
    assert it.call("hearts", mutated) == 2
    assert "chimpanzee_legs" not in mutated.f_cards
    # other costs of the same Double Mutation (DC-ACT-MUT-09, DC-EVENT-LOWMUT-02)
    assert [it.call("double_cost", s1 if d == 3 else s1._replace(f_dp=d)) for d in (5, 3, 2, 0)] == [3, 3, 2, 0]
    st.shared["current_event"] = "low_mutation_rate"
    assert it.call("double_cost", s1) == 3 and it.call("single_cost") == 1
    assert it.call("double_cost", s1._replace(f_dp=7)) == 5


# DC-EX-3/4: Coast and High mountains.
WINGED_BONGO = ["bongo_head", "chimpanzee_body", "blue_footed_booby_legs", "great_white_pelican_legs",
                "golden_eagle_wing"]
PUFFIN_TUNA = ["puffin_head", "tuna_body", "tuna_tail"]
BISON_LION_TAMARIN = ["bison_head", "golden_lion_tamarin_body"]
MACAW_MARMOT = ["macaw_head", "marmot_body"]
ORCA_TORTOISE = ["orca_head", "giant_tortoise_body", "snow_leopard_legs", "snow_leopard_tail"]


def example3(it, **kw):
    st = table_state(it, {"africa": "coast", "asia": "high_mountains"}, [
        {"home": "africa", "cards": WINGED_BONGO, "owner": 0},
        {"home": "africa", "cards": PUFFIN_TUNA, "owner": 1},
        {"home": "asia", "cards": BISON_LION_TAMARIN, "owner": 0},
        {"home": "asia", "cards": MACAW_MARMOT, "owner": 1},
        {"home": "asia", "cards": ORCA_TORTOISE, "owner": 0},
    ], **kw)
    st.shared["world"] = it.call("distributed", st.shared["world"], state=st)
    return st


def named(st):
    names = {1: "WB", 2: "PT", 3: "BLT", 4: "MM", 5: "OT"}
    return {names[s.f_id]: s for s in st.shared["world"]}


def test_dc_ex3_the_species():
    it = dc()
    st = example3(it)
    w = named(st)
    stats = {k: (it.call("adaptation_of", s), it.call("hearts", s), it.call("strength", s), it.call("diet_of", s))
             for k, s in w.items()}
    assert stats == {"WB": (6, 2, 4, "herbivore"), "PT": (9, 2, 1, "carnivore"),
                     "BLT": (4, 2, stats["BLT"][2], "herbivore"), "MM": (3, 1, 0, "herbivore"),
                     "OT": (6, 4, 9, "carnivore")}
    assert stats["BLT"][2] < 9
    assert it.call("protected", w["MM"]) and not it.call("protected", w["BLT"])
    assert it.call("plant_supply", "asia") == 3 and it.call("meat_supply", "asia") == 3
    assert it.call("biome_at", "africa") == "coast"


def test_dc_ex3_food_distribution_and_evaluation():
    it = dc()
    st = example3(it)
    w = named(st)
    # Coast: WB takes 2 plants, PT 2 meat. High mountains: BLT 2 plants, then MM 1; OT all 3 meat.
    assert {k: (s.f_plants, s.f_meat) for k, s in w.items()} == {
        "WB": (2, 0), "PT": (0, 2), "BLT": (2, 0), "MM": (1, 0), "OT": (0, 3)}
    # OT may eat BLT but not MM (Digging)
    assert it.call("can_eat", w["OT"], w["BLT"]) and not it.call("can_eat", w["OT"], w["MM"])
    it.run("check_requirements", state=st)
    it.run("food_evaluation", state=st)
    after = named(st)
    assert set(after) == {"WB", "PT", "MM", "OT"}            # the Bison lion tamarin was eaten
    assert after["OT"].f_meat + after["OT"].f_prey == 5      # 3 + 2 units of meat
    assert sorted(st.shared["small_discard"].cards + st.shared["large_discard"].cards) == \
        sorted(BISON_LION_TAMARIN)


def with_cards(st, species_id: int, cards):
    """The example's table with one species' cards changed."""
    st.shared["world"] = tuple(s._replace(f_cards=tuple(cards)) if s.f_id == species_id else s
                               for s in st.shared["world"])
    return st


def test_dc_ex3_side_oracles():
    it = dc()
    # BLT with a Digging card (Meerkat legs: running, not counted in High mountains):
    # the Orca tortoise cannot cover its need and dies, there being no other prey.
    st = example3(it)
    with_cards(st, 3, named(st)["BLT"].f_cards + ("meerkat_legs",))
    blt = named(st)["BLT"]
    assert it.call("protected", blt) and it.call("adaptation_of", blt) == 4
    it.run("food_evaluation", state=st)
    assert set(named(st)) == {"WB", "PT", "BLT", "MM"}
    # BLT with Adaptation 7 (> 6) could not be eaten either
    st = with_cards(example3(it), 3, ("bison_head", "chimpanzee_body", "snow_leopard_legs",
                                      "golden_eagle_wing"))
    assert it.call("adaptation_of", named(st)["BLT"]) > 6
    assert not it.call("can_eat", named(st)["OT"], named(st)["BLT"])


def test_dc_ex4_darwin_points():
    it = dc()
    st = example3(it)
    it.run("evaluation", state=st)
    points = {k: s.f_dp for k, s in named(st).items()}
    assert points == {"MM": 1, "WB": 3, "PT": 4, "OT": 7}
    assert st.shared["dp_stock"] == 101 - 15
    # the banked point of the eaten Bison lion tamarin: it had no Darwin Points, so none
    assert all(v == 0 for v in st.per["banked"].values())


def test_dc_ex4_tie_break_side_oracle():
    # if MM had strength 1 it would tie PT for 3rd; PT's Adaptation (9 > 3) keeps the place
    it = dc()
    st = example3(it)
    with_cards(st, 4, named(st)["MM"].f_cards + ("red_kangaroo_tail",))
    mm = named(st)["MM"]
    assert it.call("strength", mm) == 1 and it.call("adaptation_of", mm) == 3
    it.run("evaluation", state=st)
    assert named(st)["MM"].f_dp == 1 and named(st)["PT"].f_dp == 4
