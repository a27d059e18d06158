"""Darwin's Choice: the Continental Chips in the state (per continent ``continental_chip``).

A biome's Continental Chip lies next to the species with the highest Adaptation there
(DC-CARD-04, DC-EVAL-ADAPT-02), moves to a new species that is now the most adapted
(DC-ACT-CREATE-13), stays in the biome a species migrates from (DC-ACT-MIG-02) and lies
above the Biome Card while no species there meets the Requirements (DC-TRANS-14). The
state holds the id of the species the chip marks, 0 above the Biome Card. Between tied
winners the rulebook does not say where the one chip goes (DC-AMB-21): the spec keeps it
on its species while that species is still a winner, otherwise the winner with the
lowest id.

Each crafted position is built as in ``test_rule_numbers.py`` (``helpers.table_state``);
every expected value is derived by hand in a comment from the printed values of the
cards (spec/darwins_choice/animal_cards.csv: Hearts H, Competitive Strength CS, ability
symbols) and biomes (biomes.csv: central symbols, Requirements, forbidden abilities).
"""
from __future__ import annotations

from helpers import dc, table_state

BONGO = ["bongo_head", "chimpanzee_body", "chimpanzee_legs", "golden_eagle_wing"]
# Christina's winged Bongo chimpanzee (EN 305): head H1 CS2 running (herbivore) | body H1
# CS1 climbing climbing | double legs H1 CS1 climbing climbing running | wing H0 CS1
# flying flying: H 3, CS 5. Tropical rainforest (central climbing, flying, running):
# 1 + 2 + 3 + 2 = Adaptation 8. Coast (central swimming, flying, running): running 1,
# running 1, flying 2 = 4; it flies, so it meets the Coast's "swimming / flying".
SLOTH = ["three_toed_sloth_head", "three_toed_sloth_body"]
# head H0 CS0 climbing (herbivore) | body H1 CS0 climbing climbing: H 1, CS 0.
# Tropical rainforest: 3 climbing = Adaptation 3. No swimming: fails the Ocean.
COLUGO = ["sunda_colugo_head", "golden_lion_tamarin_body"]
# head H0 CS0 climbing (herbivore) | body H1 CS0 climbing climbing: H 1, CS 0.
# Tropical rainforest: Adaptation 3, exactly the sloth's (3, 0, 1): a tie on all three.
PUFFIN = ["puffin_head", "tuna_body", "tuna_tail"]
# head H1 CS0 flying swimming swimming (carnivore) | body H1 CS1 swimming x3 | tail H0
# CS0 swimming x3: H 2, CS 1. Coast: flying 1 + swimming 2 + 3 + 3 = Adaptation 9.
# Ocean (central swimming, cold resistance; requires swimming; forbids running):
# swimming 2 + 3 + 3 = Adaptation 8, meets the Requirements.


class Pick:
    """An agent that takes, at each named choice, the first option the test's predicate
    accepts (the first option at any other choice), and remembers what it was asked."""

    def __init__(self, **wants):
        self.wants = wants
        self.asked = []

    def choose(self, name, options, state, seat):
        self.asked.append(name)
        want = self.wants.get(name)
        if want is None:
            return options[0]
        hits = [o for o in options if want(o)]
        assert hits, f"no option of '{name}' is the one the test wants: {options}"
        return hits[0]


def table(it, biomes, placed, players=2):
    """``placed``: (continent, cards, owner index); species are numbered from 1."""
    return table_state(it, biomes, [{"home": c, "cards": k, "owner": o} for c, k, o in placed],
                       players=players)


def chips(st) -> dict:
    return {c: st.per["continental_chip"][c] for c in st.shared["in_play"]}


def stats(it, st, i: int) -> tuple:
    """(Adaptation to its own biome, Competitive Strength, Hearts) of species i."""
    s = next(s for s in st.shared["world"] if s.f_id == i)
    return (it.call("adaptation_of", s, state=st), it.call("strength", s, state=st),
            it.call("hearts", s, state=st))


def creating(cards, where):
    """The choice of the creation made of these cards on this continent."""
    return lambda made: sorted(made[0]) == sorted(cards) and made[1] == where


def test_a_new_species_with_the_highest_adaptation_takes_the_chip():
    """DC-ACT-CREATE-13 (EN 305, Christina's example): the winged Bongo chimpanzee,
    created in a Tropical rainforest where a Three-toed sloth had the chip, is now the
    most adapted species there and the chip moves next to it. Created the other way
    round, the less adapted new species leaves the chip where it is.

    Checked against the mutation that drops ``do place_chips()`` from ``after_action``."""
    it = dc()
    st = table(it, {"africa": "tropical_rainforest"}, [("africa", SLOTH, 0)])
    it.run("place_chips", state=st)
    assert chips(st) == {"africa": 1}           # the sloth, alone: Adaptation 3 > 0
    st.per["hand"][st.seats[1]].cards = list(BONGO)
    st.agents = {1: Pick(made=creating(BONGO, "africa"))}
    it.run("act_main", st.seats[1], "create", state=st)
    assert stats(it, st, 2) == (8, 5, 3)
    # Adaptation 8 > 3: the new species 2 is the most adapted, the chip is its
    assert chips(st) == {"africa": 2}

    st = table(it, {"africa": "tropical_rainforest"}, [("africa", BONGO, 0)])
    it.run("place_chips", state=st)
    assert chips(st) == {"africa": 1}
    st.per["hand"][st.seats[1]].cards = list(SLOTH)
    st.agents = {1: Pick(made=creating(SLOTH, "africa"))}
    it.run("act_main", st.seats[1], "create", state=st)
    assert [s.f_id for s in st.shared["world"]] == [1, 2] and stats(it, st, 2) == (3, 0, 1)
    # Adaptation 3 < 8: the Bongo keeps the chip
    assert chips(st) == {"africa": 1}


def test_the_chip_stays_in_the_biome_a_species_migrates_from():
    """DC-ACT-MIG-02 (EN 335): the winged Bongo, most adapted in the Tropical rainforest,
    migrates to the Coast; the rainforest's chip stays there and goes to the sloth, now
    its most adapted species; on the Coast the Puffin tuna (Adaptation 9) keeps its
    chip ahead of the Bongo (Adaptation 4 there).

    Checked against the mutation that drops ``do place_chips()`` from ``after_action``
    (the rainforest's chip then still names the Bongo, gone to the Coast)."""
    it = dc()
    st = table(it, {"africa": "tropical_rainforest", "asia": "coast"},
               [("africa", BONGO, 0), ("africa", SLOTH, 1), ("asia", PUFFIN, 1)])
    assert [stats(it, st, i) for i in (1, 2, 3)] == [(8, 5, 3), (3, 0, 1), (9, 1, 2)]
    it.run("place_chips", state=st)
    # rainforest: Bongo 8 > sloth 3; Coast: the Puffin tuna alone, 9
    assert chips(st) == {"africa": 1, "asia": 3}
    agent = Pick(s=lambda s: s.f_id == 1, c=lambda c: c == "asia")
    st.agents = {0: agent}
    it.run("act_main", st.seats[0], "migrate", state=st)
    assert {s.f_id: s.f_home for s in st.shared["world"]} == {1: "asia", 2: "africa", 3: "asia"}
    assert stats(it, st, 1) == (4, 5, 3)        # the Bongo on the Coast: 1 + 1 + 2
    # the rainforest's chip did not follow the Bongo: the sloth (3) is its most adapted
    # species now; the Coast's stays with the Puffin tuna (9 > 4)
    assert chips(st) == {"africa": 2, "asia": 3}


def test_a_chip_lies_above_the_biome_card_until_a_species_meets_the_requirements():
    """DC-TRANS-14 (EN 509): the Transition replaces the Tropical rainforest by an Ocean;
    the sloth, which cannot swim, no longer meets the Requirements and the chip goes
    above the Biome Card (0). A Puffin tuna created there meets them and takes it.

    Checked against the mutation that drops ``do place_chips()`` from the step
    ``transition.food_redistribution``."""
    it = dc()
    st = table(it, {"africa": "tropical_rainforest"}, [("africa", SLOTH, 0)])
    st.shared["era"] = 1
    st.shared["first_player"] = st.seats[0]
    st.shared["event_stack"].cards = ["low_mutation_rate"]     # changes no species and no biome
    st.shared["biome_stack"].cards = ["ocean"]                 # the biome the change brings
    it.run("place_chips", state=st)
    assert chips(st) == {"africa": 1}
    st.per["hand"][st.seats[1]].cards = list(PUFFIN)
    st.agents = {0: Pick(), 1: Pick()}
    it.run("transition", state=st)
    assert st.per["biome_card"]["africa"] == "ocean" and len(st.shared["world"]) == 1
    sloth = st.shared["world"][0]
    assert not it.call("meets", sloth, "africa", state=st)
    assert chips(st) == {"africa": 0}           # no species there meets the Requirements
    st.agents = {1: Pick(made=creating(PUFFIN, "africa"))}
    it.run("act_main", st.seats[1], "create", state=st)
    assert stats(it, st, 2) == (8, 1, 2)
    assert chips(st) == {"africa": 2}           # the Puffin tuna meets them: Adaptation 8


def test_between_tied_winners_the_chip_stays_or_goes_to_the_lowest_id():
    """DC-AMB-21, the reading chosen: the sloth (1) and the colugo (2) tie on Adaptation
    3, Competitive Strength 0 and Hearts 1, so both win the rainforest and each gets its
    2 Darwin Points; the one chip goes to the lower id when it has to move (from above
    the Biome Card: to 1), stays on the colugo while it is a winner (the reading "always
    the lowest id" would move it to 1), and goes to 1 when the colugo dies.

    Checked against the mutation ``if true {`` for ``if continental_chip(c) not in
    winners {`` in ``place_chips``."""
    it = dc()
    st = table(it, {"africa": "tropical_rainforest"}, [("africa", SLOTH, 0), ("africa", COLUGO, 1)])
    assert [stats(it, st, i) for i in (1, 2)] == [(3, 0, 1), (3, 0, 1)]
    assert sorted(it.call("adaptation_winners", "africa", state=st)) == [1, 2]
    it.run("place_chips", state=st)
    assert chips(st) == {"africa": 1}           # from 0: the lowest id among the winners
    st.per["continental_chip"]["africa"] = 2
    it.run("place_chips", state=st)
    assert chips(st) == {"africa": 2}           # the colugo is still a winner: it stays
    it.run("adaptation_award", state=st)
    # both tied species win (DC-EVAL-ADAPT-03): the rainforest's 2 points each
    assert {s.f_id: s.f_dp for s in st.shared["world"]} == {1: 2, 2: 2}
    assert chips(st) == {"africa": 2}
    it.run("die", 2, "unfit", state=st)
    assert chips(st) == {"africa": 1}           # the colugo is gone: the sloth, alone


def _winners(it, st, c) -> set:
    """The most adapted species of a continent, computed here from the rule's words:
    the highest (Adaptation, Competitive Strength, Hearts) among the species there that
    meet the Requirements with an Adaptation above 0 (DC-EVAL-ADAPT-01/03/04)."""
    key = {}
    for s in st.shared["world"]:
        if s.f_home == c and it.call("meets", s, c, state=st):
            a = it.call("adaptation_of", s, state=st)
            if a > 0:
                key[s.f_id] = (a, it.call("strength", s, state=st), it.call("hearts", s, state=st))
    return {i for i, k in key.items() if k == max(key.values())} if key else set()


def test_at_every_checkpoint_of_seeded_games_each_chip_marks_a_most_adapted_species():
    """DC-CARD-04 DC-EVAL-ADAPT-02 DC-TRANS-14: at every checkpoint of seeded games (3, 4
    and 5 players), each chip of a continent in play marks one of its most adapted
    species, or is 0 when none qualifies; a chip left in the box (3-4 players) is 0. The
    games do move chips: some chip marks a species, and some chip changes while the
    species it marked is still on the table."""
    it = dc()
    seen = {"checks": 0, "marked": 0, "moved_off_a_living_species": 0}

    for players, seed in [(3, 0), (4, 1), (5, 2)]:
        before: dict = {}

        def watch(st, label):
            alive = {s.f_id for s in st.shared["world"]}
            for c, chip in st.per["continental_chip"].items():
                if c not in st.shared["in_play"]:
                    assert chip == 0, (label, c)
                    continue
                won = _winners(it, st, c)
                assert (chip in won) if won else chip == 0, (players, seed, label, c, chip, won)
                seen["checks"] += 1
                seen["marked"] += chip != 0
                if before.get(c, 0) not in (0, chip) and before[c] in alive:
                    seen["moved_off_a_living_species"] += 1
                before[c] = chip

        st = it.play("standard", players, seed, watchers=[watch])
        watch(st, "end")
    assert seen["checks"] > 100 and seen["marked"] > 50 and seen["moved_off_a_living_species"] > 0, seen


def test_a_position_written_without_chips_or_with_a_wrong_one_is_read_with_a_warning():
    """The invariant ``chips_mark_the_most_adapted`` is written ``else warn``: a position
    saved by a game has its chips and reads cleanly; the same position without
    ``continental_chip`` (a position written by hand before the chips were state) still
    loads, with a warning for each biome whose chip should mark a species; a chip set on
    a species that is not a most adapted one is a warning at its own entry."""
    import json
    from rulewright.compiler.play import state_io
    it = dc()
    played = it.play("standard", 4, 7, stop_at="evaluation:2")
    doc = json.loads(json.dumps(state_io.dump(played, seed=7)))
    assert state_io.load(it, "pos.json", doc, json.dumps(doc, indent=1)).warnings == []
    st = state_io.load(it, "pos.json", doc, json.dumps(doc, indent=1))
    due = {c: _winners(it, st, c) for c in st.shared["in_play"]}
    marked = [c for c, won in due.items() if won]
    assert marked, due

    without = {**doc, "per_key": {k: v for k, v in doc["per_key"].items() if k != "continental_chip"}}
    st = state_io.load(it, "pos.json", without, json.dumps(without, indent=1))
    assert all(chip == 0 for chip in st.per["continental_chip"].values())    # the initial value
    shown = [w.render() for w in st.warnings]
    assert len(shown) == len(marked)
    assert all("the Continental Chip of " in w and "lies above the Biome Card (0)" in w for w in shown)

    c = marked[0]
    wrong = max(s["id"] for s in doc["state"]["world"]) + 1        # no species has this id
    bad = json.loads(json.dumps(doc))
    bad["per_key"]["continental_chip"][c] = wrong
    (warning,) = state_io.load(it, "pos.json", bad, json.dumps(bad, indent=1)).warnings
    assert f"warning: per_key.continental_chip.{c}: the Continental Chip of {c} lies next to species {wrong}" \
        in warning.render()
