"""Every pair of readings of a shipped game can be set together, and each keeps its meaning.

Each switch of Darwin's Choice and of Ecosystem: Savanna (read from the compiled
program, so a new switch without a witness fails here) has a *witness*: a crafted
position and one observable outcome of it, computed by the spec's own rules, whose
value under each alternative of the switch was worked out by hand (comments below).
Flipping the switch changes the outcome, so the witness shows its effect.

For every pair of switches (A, B) and every pair of their values (a, b), some
configuration sets A = a and B = b together, and there both witnesses must give the
values the hand computation expects for a and for b: B's setting does not cancel or
change A's effect, nor the other way round. The configurations form a pairwise
covering array (every value pair of every switch pair appears in at least one), a
few programs instead of one per pair and value; when a witness fails in one, the test
loads the failing switch with each other switch of that configuration alone and names
the pairs that break it.

Where a witness cannot be unaffected by another switch, the witness says so
(``affected_by``) with the reason, and its expected value under the other switch's
setting is worked out by hand too.
"""
from __future__ import annotations

import csv
import dataclasses
import itertools
from typing import Any, Callable

import pytest

from rulewright.compiler import load
from rulewright.compiler.interpret import Interpreter
from rulewright.compiler.semantics import runtime as rt
from helpers import ROOT, table_state

DARWIN = ROOT / "spec" / "darwins_choice"
SAVANNA = ROOT / "spec" / "ecosystem_savanna"


@dataclasses.dataclass
class Witness:
    observe: Callable[[Interpreter], Any]
    expected: dict                       # option -> the outcome under it (others at any value)
    affected_by: dict = dataclasses.field(default_factory=dict)   # switch -> why
    expect: Callable[[dict], Any] | None = None   # the outcome under a whole setting, when affected
    tables: str | None = None            # an own table the witness needs (see its comment)

    def wanted(self, name: str, setting: dict):
        return self.expect(setting) if self.expect else self.expected[setting[name]]


def text(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


# ------------------------------------------------------------ Darwin's Choice
# Species on a Hill country (Requirements running / flying, central symbols running,
# climbing, flying: every requirement symbol is central, so adaptation_symbols does
# not change them; 6 plants, 4 meat, 2 points). Adaptation, Competitive Strength,
# Hearts and diet of each, from the cards' symbols:
G1 = ["thomsons_gazelle_head"]                                   # 1, 0, 1, herbivore
G2 = ["thomsons_gazelle_head", "thomsons_gazelle_body"]         # 3, 0, 2, herbivore
ZB = ["plains_zebra_head", "bison_body"]                        # 2, 4, 3, herbivore
GG = ["giraffe_head", "giraffe_body"]                           # 1, 3, 3, herbivore
BB = ["bongo_head", "bison_body", "bison_legs"]                 # 3, 6, 4, herbivore
CH = ["cheetah_head", "cheetah_body"]                           # 3, 3, 2, carnivore
KB = ["cheetah_head", "bison_body"]                             # 2, 5, 3, carnivore
K4 = ["cheetah_head", "bison_body", "bison_legs"]               # 3, 6, 4, carnivore
FR = ["red_eyed_tree_frog_head", "bongo_body"]                  # 3, 2, 1, carnivore
F0 = ["red_eyed_tree_frog_head"]                                # 1, 0, 0, carnivore
CB = ["chimpanzee_head", "bison_body"]                          # 2, 5, 3, omnivore
HB = ["honey_badger_head", "bison_body"]                        # 1, 5, 3, omnivore
CAPYBARA = ["capybara_head", "capybara_body"]                   # swimming x3, running: 1 herbivore
HILL = {"africa": "hill_country"}


def table(it, species, biomes=HILL, **kw):
    return table_state(it, biomes, [dict(home="africa", **s) if "home" not in s else s for s in species], **kw)


def world(st):
    return {s.f_id: s for s in st.shared["world"]}


def food(it, st):
    """(plants, meat) of each species after the whole distribution."""
    return {s.f_id: (s.f_plants, s.f_meat) for s in it.call("distributed", st.shared["world"], state=st)}


def with_food(st, **plants):
    st.shared["world"] = tuple(s._replace(f_plants=plants.get(f"s{s.f_id}", s.f_plants))
                               for s in st.shared["world"])
    return st


def choices(st, name):
    return [e for e in st.log if e.kind == "choose" and e.detail["choice"] == name]


def notes(st, name):
    return [e.detail["value"] for e in st.log if e.kind == "note" and e.detail["name"] == name]


def w_points_in_box(it):
    # the stock starts with what the box holds
    return it.new_state([rt.Seat(0, "p1", "player", "P1")], seed=1).shared["dp_stock"]


def w_markers(it):
    # Player 1 already has 9 species: a tenth needs a marker, which 9 per colour leave none of
    st = table(it, [{"cards": G1}] * 9)
    return it.call("marker_free", st.seats[0], state=st)


class Script:
    """Player 1 trades nothing, migrates, and takes no further action when asked."""
    def choose(self, name, options, state, seat):
        pick = {"trading": False, "act": "migrate", "act_again": False}.get(name, options[0])
        return pick if pick in options else options[0]


def w_main_actions(it):
    # one species of Player 1 on Africa may migrate to Asia (Hill country there too);
    # after it, under per_species the player is asked whether to act again
    st = table(it, [{"cards": G2}], biomes={"africa": "hill_country", "asia": "hill_country"})
    st.agents = {0: Script()}
    it.run("turn", st.seats[0], state=st)
    return (world(st)[1].f_home, len(choices(st, "act_again")))


def w_event_biome_change(it):
    # one Biome Change after the Era, a Desert brought in by the event, a Tundra and a
    # Taiga in the stack: `counted` replaces 1 biome (by the Desert), `extra` 2
    st = table(it, [], biomes={"africa": "hill_country", "asia": "hill_country", "europe": "hill_country"})
    st.shared["brought_biome"].cards = ["desert"]
    st.shared["biome_stack"].cards = ["tundra", "taiga"]
    it.run("biome_change", 1, state=st)
    return sum(st.per["biome_card"][c] != "hill_country" for c in st.shared["in_play"])


def w_selected_biome(it):
    # Desertification with both of its biomes in the stack: who chooses the one that comes
    st = table(it, [])
    st.shared["first_player"] = st.seats[0]
    st.shared["biome_stack"].cards = ["desert", "stone_desert", "tundra"]
    it.run("bring_biome", "desertification", state=st)
    return [e.seat for e in choices(st, "pick")]


def w_strength_tie_food(it):
    # a species of 2 Hearts holding 1 plant and having eaten 3 units of prey
    st = table(it, [{"cards": G2}])
    s = world(st)[1]._replace(f_plants=1, f_prey=3)
    return it.call("tie_food", s, state=st)


def w_omnivore_meat(it):
    # Plants 6: BB (4) and G2 (2) eat them all, the omnivore HB (Adaptation 1) gets none
    # and needs 3 meat. Meat 4: with_carnivores K4 (Adaptation 3) takes all 4 and HB
    # none; before_carnivores HB takes its 3 first (K4 is then short, whatever it gets).
    st = table(it, [{"cards": BB}, {"cards": G2}, {"cards": HB}, {"cards": K4}])
    return food(it, st)[3]


def w_feeding_after_shortfall(it):
    # Plants 6: BB (Adaptation 3) takes 4; ZB (2) needs 3 of the 2 left; G1 (1) needs 1.
    # stop: ZB keeps the 2, G1 gets nothing; skip: ZB gets nothing, G1 its 1.
    st = table(it, [{"cards": BB}, {"cards": ZB}, {"cards": G1}])
    f = food(it, st)
    return (f[1][0], f[2][0], f[3][0])


def w_standing_distribution(it):
    # after a main action: with the standing distribution G2 gets its 2 plants at once
    st = table(it, [{"cards": G2}])
    it.run("after_action", state=st)
    return world(st)[1].f_plants


def tied_expect(setting):
    # Plants 6: BB (Adaptation 3) takes 4, the omnivore CB (2, needs 3) the 2 left under
    # stop (it needs 1 meat more), nothing under skip (3 meat more). Meat 4: CH (3)
    # takes 2. CB and the carnivore KB tie on (2, 5, 3) in the meat queue:
    skip = setting["feeding_after_shortfall"] == "skip"
    before = setting["omnivore_meat"] == "before_carnivores"
    if skip and before:
        return (0, 3)        # CB first: 3 of 4; CH (2) and KB (3) cannot be covered by 1
    if skip:
        return (0, 0)        # CH 2; KB 3 + CB 3 > 2: both passed over, whatever the tie rule
    if before:
        return (2, 1)        # CB first takes its 1; no tie any more
    # stop, with carnivores: 2 left for KB (3) and CB (1), tied
    return {"all_or_none": (2, 0),     # shared in proportion: KB 2*3//4 = 1, CB 2*1//4 = 0
            "even_split": (2, 1)}[setting["tied_feeders"]]    # 1 each: CB is fed


def w_tied_feeders(it):
    st = table(it, [{"cards": BB}, {"cards": CB}, {"cards": CH}, {"cards": KB}])
    return food(it, st)[2]


def w_starving_carnivore(it):
    # CH (Adaptation 3, strength 3) cannot eat ZB (strength 4) and starves; KB (2,
    # strength 5) can eat ZB. takes_lower_carnivores: KB dies with CH, whichever hunts
    # first (if KB hunts first it eats ZB, then CH starves and takes it along).
    st = with_food(table(it, [{"cards": CH}, {"cards": KB}, {"cards": ZB}]), s3=3)
    it.run("food_evaluation", state=st)
    return 2 in world(st)


def w_predation_scope(it):
    # CH on Africa, G1 on Asia
    st = table(it, [{"cards": CH}, {"cards": G1, "home": "asia"}],
               biomes={"africa": "hill_country", "asia": "hill_country"})
    w = world(st)
    return it.call("can_eat", w[1], w[2], state=st)


def w_hungry_order(it):
    # FR (Adaptation 3, strength 2, needs 1) can eat only G2 (3, 0); KB (2, 5, needs 3)
    # only ZB (2, 4). Both hungry, both fed by their prey: the order they are eaten in.
    st = with_food(table(it, [{"cards": FR}, {"cards": KB}, {"cards": G2}, {"cards": ZB}]), s3=2, s4=3)
    it.run("food_evaluation", state=st)
    return [d.f_species for d in notes(st, "extinct") if d.f_cause == "eaten"]


def w_eaten_species(it):
    # G2, with 2 Darwin Points, is eaten: discarded banks 1 point and discards its
    # 2 cards; removed banks nothing and the 2 cards leave the game
    st = table(it, [{"cards": G2, "dp": 2}])
    it.run("die", 1, "eaten", state=st)
    return (st.per["banked"][st.seats[0]], len(st.shared["removed_cards"].cards))


def w_redistribute(it):
    # the capybara (no running, no flying) does not meet Hill country's Requirements
    # and dies at step 1; G2 held no chips yet
    st = table(it, [{"cards": G2}, {"cards": CAPYBARA}])
    it.run("check_requirements", state=st)
    return world(st)[1].f_plants


def w_low_mutation(it):
    # Low mutation rate: a Single Mutation costs 1; the species has no Darwin Point
    st = table(it, [{"cards": G2}], event="low_mutation_rate")
    return it.call("can_pay", world(st)[1], it.call("single_cost", state=st), state=st)


def w_hurricane(it):
    # G1 (Adaptation 1, strength 0, 1 Heart) and GG (1, 3, 3) tie for least adapted;
    # G2 (3) is more adapted. one_dies: the lower strength, G1.
    st = table(it, [{"cards": G1}, {"cards": GG}, {"cards": G2}], event="hurricane")
    it.run("storm", state=st)
    return sorted(world(st))


def w_protected_drawn(it):
    # Africa is protected, Asia is not: the Continental Cards drawn from
    st = table(it, [], biomes={"africa": "hill_country", "asia": "hill_country"})
    st.per["protected_biome"]["africa"] = True
    it.run("pick_continent", (), state=st)
    return [e.detail["options"] for e in choices(st, "c")]


def w_boom(it):
    # Semidesert (3 plants, 3 meat, 2 points) under Meteor strike and Meat boom, Hill
    # country (6, 4) under Meteor strike: set 4/3, 2/6, 4/3; add 3+4/3+3, 3+2/3+6,
    # 6+4/4+3; meteor_caps min(3,4)/min(3,3), 2/6 (a boom sets), min(6,4)/min(4,3)
    return tuple((it.call("plants_under", b, e), it.call("meat_under", b, e))
                 for b, e in (("semidesert", "meteor_strike"), ("semidesert", "meat_boom"),
                              ("hill_country", "meteor_strike")))


def w_epidemic(it):
    # during an Epidemic CH (strength 0 then) facing G1 (Adaptation 1, strength 0); in
    # another Era F0 (printed strength 0, Adaptation 1) facing G1
    st = table(it, [{"cards": CH}, {"cards": G1}, {"cards": F0}], event="epidemic")
    w = world(st)
    during = it.call("can_eat", w[1], w[2], state=st)
    st.shared["current_event"] = None
    return (during, it.call("can_eat", w[3], w[2], state=st))


def w_point_stock(it):
    # 3 points awarded with 1 left in the stock
    st = table(it, [{"cards": G2}])
    st.shared["dp_stock"] = 1
    it.run("award", 1, 3, "best_adapted", state=st)
    return world(st)[1].f_dp


def w_adaptation_symbols(it):
    # Every Requirement of the shipped biomes shows central symbols only, so this
    # reading changes no Adaptation with them: the witness plays with the biome table
    # where Mountains (central climbing, running, cold resistance) also accepts
    # swimmers. The capybara: running 1; with the requirement symbols + 3 swimming.
    st = table(it, [{"cards": CAPYBARA}], biomes={"africa": "mountains"})
    return it.call("adaptation_of", world(st)[1], state=st)


DARWIN_WITNESSES = {
    "darwin_points_in_box": Witness(w_points_in_box, {101: 101, 102: 102}),
    "markers_per_colour": Witness(w_markers, {9: False, 12: True}),
    "main_actions": Witness(w_main_actions, {"per_turn": ("asia", 0), "per_species": ("asia", 1)}),
    "event_biome_change": Witness(w_event_biome_change, {"counted": 1, "extra": 2}),
    "selected_biome": Witness(w_selected_biome, {"at_random": [None], "by_first_player": ["p1"]}),
    "strength_tie_food": Witness(w_strength_tie_food, {"required": 2, "obtained": 1 + 0 + 3}),
    "omnivore_meat": Witness(w_omnivore_meat, {"with_carnivores": (0, 0), "before_carnivores": (0, 3)}),
    "feeding_after_shortfall": Witness(w_feeding_after_shortfall, {"stop": (4, 2, 0), "skip": (4, 0, 1)}),
    "standing_distribution": Witness(w_standing_distribution, {True: 2, False: 0}),
    "tied_feeders": Witness(
        w_tied_feeders, {"all_or_none": (2, 0), "even_split": (2, 1)},
        affected_by={
            "feeding_after_shortfall":
                "under skip, species tied in the base game's order need the same (their Hearts are part of "
                "the order), so an even share covers each exactly when what is left covers them all: both "
                "readings feed the same species, by construction; with an order without Hearts they differ "
                "(test_even_split_keeps_its_meaning_under_skip)",
            "omnivore_meat":
                "tied species need different amounts only when an omnivore short of plants ties with a "
                "carnivore in the meat queue; before_carnivores puts every omnivore ahead, so tied needs "
                "are equal and an even split is the proportional one"},
        expect=tied_expect),
    "starving_carnivore": Witness(w_starving_carnivore, {"takes_lower_carnivores": False, "alone": True}),
    "predation_scope": Witness(w_predation_scope, {"same_biome": False, "anywhere": True}),
    "hungry_order": Witness(w_hungry_order, {"most_adapted_first": [3, 4], "least_adapted_first": [4, 3]}),
    "eaten_species": Witness(w_eaten_species, {"discarded": (1, 0), "removed": (0, 2)}),
    "redistribute_after_requirement_deaths": Witness(w_redistribute, {False: 0, True: 2}),
    "low_mutation_without_points": Witness(w_low_mutation, {"allowed": True, "forbidden": False}),
    "hurricane_ties": Witness(w_hurricane, {"all_die": [3], "none_die": [1, 2, 3], "one_dies": [2, 3]}),
    "protected_biome_drawn": Witness(w_protected_drawn, {"redraw": [1], "no_change": [2]}),
    "boom_effect": Witness(w_boom, {"set_supply": ((4, 3), (2, 6), (4, 3)),
                                    "add_supply": ((7, 6), (5, 9), (10, 7)),
                                    "meteor_caps": ((3, 3), (2, 6), (4, 3))}),
    "epidemic_stops_predation": Witness(w_epidemic, {"stops": (False, True), "allows": (True, True),
                                                     "zero_strength_never_hunts": (False, False)}),
    "darwin_point_stock": Witness(w_point_stock, {"limited": 1, "unlimited": 3}),
    "adaptation_symbols": Witness(w_adaptation_symbols, {"central": 1, "all_biome_symbols": 4},
                                  tables="mountains_take_swimmers"),
}


def mountains_take_swimmers(folder):
    """The shipped biome table, but Mountains require climbing or swimming."""
    rows = list(csv.reader((DARWIN / "biomes.csv").read_text().splitlines()))
    for row in rows:
        if row[0] == "mountains":
            row[rows[0].index("requires")] = "climbing / swimming"
    path = folder / "biomes.csv"
    with path.open("w", newline="") as f:
        csv.writer(f).writerows(rows)
    return {"biome": str(path)}


# ------------------------------------------------------------ Ecosystem: Savanna

def board_score(it, text_rows, rivals=()):
    from helpers import LETTERS
    rows = [[LETTERS[x] for x in line.split()] for line in text_rows.strip().splitlines()]
    return it.call("score", it.board(rows), tuple(rivals))


def s_cheetah(it):
    # a gazelle two cells away on the cheetah's diagonal
    return board_score(it, "C . . . .\n. . . . .\n. . G . .\n. . . . .").steps["cheetah"]


def s_hyena(it):
    # the cheetah turns the gazelle on the hyena's diagonal face down
    return board_score(it, "H . . . .\n. G . . .\n. . C . .\n. . . . .").steps["hyena"]


def s_elephant(it):
    # four giraffes around the elephant: 6 - 8
    return board_score(it, ". F . . .\nF E F . .\n. F . . .\n. . . . .").steps["elephant"]


def s_lion(it):
    # the lion takes the zebra (first in reading order) or the gazelle under the vulture
    return board_score(it, "Z . V . .\n. . G . .\nL P . . .\n. . . . .").steps["vulture"]


def s_second_place(it):
    # 2 gazelles; rivals 3 and 2: second place, tied
    return board_score(it, "G G . . .\n. . . . .\n. . . . .\n. . . . .", rivals=(3, 2)).steps["gazelle"]


def s_vulture(it):
    # the cheetah turns the gazelle two cells below the vulture face down
    return board_score(it, "V . . . .\n. . . . .\nG . . . .\n. C . . .").steps["vulture"]


SAVANNA_WITNESSES = {
    "cheetah_range": Witness(s_cheetah, {"neighbours": 0, "lines": 3}),
    "hyena_range": Witness(s_hyena, {"straight": 0, "manhattan": 3}),
    "elephants_below_zero": Witness(s_elephant, {True: -2, False: 0}),
    "lion_prey_chooser": Witness(s_lion, {"owner": 4, "reading_order": 0}),
    "second_place_ties": Witness(s_second_place, {"share": 2 * 2 + 2, "void": 2 * 2}),
    "vulture_range": Witness(s_vulture, {"column": 4, "just_below": 0}),
}

GAMES = {"darwins_choice": (DARWIN, DARWIN_WITNESSES), "ecosystem_savanna": (SAVANNA, SAVANNA_WITNESSES)}


# ------------------------------------------------------------ the covering array

def covering_array(options: dict) -> list[dict]:
    """Settings of all the switches such that every value pair of every pair of
    switches appears in at least one (greedy, deterministic)."""
    names = sorted(options)
    uncovered = {(a, x, b, y) for a, b in itertools.combinations(names, 2)
                 for x in options[a] for y in options[b]}

    def key(a, x, b, y):
        return (a, x, b, y) if a < b else (b, y, a, x)

    settings = []
    while uncovered:
        a, x, b, y = min(uncovered, key=repr)
        setting = {a: x, b: y}
        for n in names:
            if n not in setting:
                setting[n] = max(options[n], key=lambda v: (
                    sum(key(n, v, m, w) in uncovered for m, w in setting.items()), -options[n].index(v)))
        uncovered -= {key(a2, setting[a2], b2, setting[b2]) for a2, b2 in itertools.combinations(names, 2)}
        settings.append(setting)
    return settings


_PROGRAMS: dict = {}


def interpreter(path, setting: dict, tables=None):
    key = (str(path), tuple(sorted((k, text(v)) for k, v in setting.items())), tuple(sorted((tables or {}).items())))
    if key not in _PROGRAMS:
        _PROGRAMS[key] = Interpreter(load(path, {k: text(v) for k, v in setting.items()}, tables=tables))
    return _PROGRAMS[key]


_BASES: dict = {}


def base(path):
    """The program with every switch at its default."""
    if str(path) not in _BASES:
        _BASES[str(path)] = load(path)
    return _BASES[str(path)]


def switch_options(path) -> dict:
    prog = base(path)
    # an 'int' switch has no list of values to flip between
    return {n: prog.switch_options(n) for n in prog.switches if prog.definitions[n].options != ("int",)}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_switch_has_a_witness(game):
    path, witnesses = GAMES[game]
    options = switch_options(path)
    assert sorted(options) == sorted(witnesses), \
        f"switches without a witness: {sorted(set(options) - set(witnesses))}; " \
        f"witnesses of no switch: {sorted(set(witnesses) - set(options))}"
    for name, w in witnesses.items():
        assert sorted(map(text, w.expected)) == sorted(map(text, options[name])), name
        # each alternative gives its own outcome: the witness shows the switch's effect
        assert len({repr(v) for v in w.expected.values()}) == len(w.expected), name


@pytest.mark.parametrize("game", sorted(GAMES))
def test_covering_array_covers_every_pair(game):
    options = switch_options(GAMES[game][0])
    settings = covering_array(options)
    for a, b in itertools.combinations(sorted(options), 2):
        for x, y in itertools.product(options[a], options[b]):
            assert any(s[a] == x and s[b] == y for s in settings), (a, x, b, y)


def culprits(path, witnesses, name, setting, tables):
    """The other switches of a setting that, set alone with ``name``, break its witness."""
    default = base(path).switches
    out = []
    w = witnesses[name]
    for other, value in setting.items():
        if other == name or value == default[other]:
            continue
        pair = {name: setting[name], other: value}
        full = {**default, **pair}
        got = w.observe(interpreter(path, pair, tables))
        if got != w.wanted(name, full):
            out.append(f"{other}={text(value)}")
    return out


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_reading_survives_every_other(game, tmp_path):
    path, witnesses = GAMES[game]
    options = switch_options(path)
    own = {"mountains_take_swimmers": mountains_take_swimmers(tmp_path)}
    failures = []
    for setting in covering_array(options):
        for name, w in witnesses.items():
            tables = own[w.tables] if w.tables else None
            got = w.observe(interpreter(path, setting, tables))
            want = w.wanted(name, setting)
            if got != want:
                pairs = culprits(path, witnesses, name, setting, tables)
                failures.append(f"{name}={text(setting[name])}: got {got!r}, expected {want!r} "
                                f"(cancelled or changed by {', '.join(pairs) or 'no single other switch'})")
    assert not failures, "\n".join(sorted(set(failures)))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_witnesses_that_another_switch_affects_say_why(game):
    path, witnesses = GAMES[game]
    default = base(path).switches
    for name, w in witnesses.items():
        assert bool(w.affected_by) == bool(w.expect), name
        assert all(other in witnesses and len(why) > 40 for other, why in w.affected_by.items()), name
        if w.expect:
            # with the other switches at their defaults the hand-made table is the plain one
            for option, value in w.expected.items():
                assert w.expect({**default, name: option}) == value, (name, option)


# ------------------------------------------------------------ the new alternatives, in play

def test_hurricane_one_dies_breaks_ties_by_strength_then_hearts():
    it = interpreter(DARWIN, {"hurricane_ties": "one_dies"})
    # G1 (Adaptation 1, strength 0, 1 Heart) and the digging gazelle (1, 0, 2 Hearts:
    # the Meerkat body's heat resistance is not central on a Hill country) tie on
    # Adaptation and strength: the one with fewer Hearts, G1, dies; G2 (3) is safe
    st = table(it, [{"cards": G1}, {"cards": ["thomsons_gazelle_head", "meerkat_body"]}, {"cards": G2}],
               event="hurricane")
    assert [it.call("adaptation_of", s, state=st) for s in world(st).values()] == [1, 1, 3]
    it.run("storm", state=st)
    assert sorted(world(st)) == [2, 3]
    # all_die takes both, none_die neither
    for reading, alive in (("all_die", [3]), ("none_die", [1, 2, 3])):
        it = interpreter(DARWIN, {"hurricane_ties": reading})
        st = table(it, [{"cards": G1}, {"cards": ["thomsons_gazelle_head", "meerkat_body"]}, {"cards": G2}],
                   event="hurricane")
        it.run("storm", state=st)
        assert sorted(world(st)) == alive, reading


@pytest.mark.parametrize("reading, plants", [("set_supply", 4), ("meteor_caps", 3), ("add_supply", 4)])
def test_meteor_strike_caps_the_plants(reading, plants):
    # a giraffe (1 + 2 + 1 = 4 Hearts; heat resistance, running) on a Semidesert (printed
    # 3 plants, 3 meat; 2 points) during a Meteor strike: set_supply makes it 4 plants,
    # meteor_caps keeps the printed 3 (at most 4), add_supply 3 + 4 = 7 of which it takes 4
    it = interpreter(DARWIN, {"boom_effect": reading})
    st = table(it, [{"cards": ["giraffe_head", "giraffe_body", "giraffe_legs"]}], biomes={"africa": "semidesert"},
               event="meteor_strike")
    assert it.call("plant_supply", "africa", state=st) == {"set_supply": 4, "meteor_caps": 3, "add_supply": 7}[reading]
    assert food(it, st)[1] == (plants, 0)
    # the Meat boom still sets the supply under meteor_caps: 2 plants, 6 meat
    st.shared["current_event"] = "meat_boom"
    if reading != "add_supply":
        assert (it.call("plant_supply", "africa", state=st), it.call("meat_supply", "africa", state=st)) == (2, 6)


@pytest.mark.parametrize("reading, survivors", [("stops", [1]), ("allows", [1]),
                                                ("zero_strength_never_hunts", [2])])
def test_a_zero_strength_carnivore_never_hunts(reading, survivors):
    # no Epidemic: a tree frog with a sloth's body (carnivore, Adaptation 3, strength 0,
    # 1 Heart, no meat) and G1 (1, 0, 1 Heart, fed). Under the first two readings it eats
    # G1 (0 >= 0); under zero_strength_never_hunts it cannot and starves
    it = interpreter(DARWIN, {"epidemic_stops_predation": reading})
    st = with_food(table(it, [{"cards": ["red_eyed_tree_frog_head", "three_toed_sloth_body"]}, {"cards": G1}]),
                   s2=1)
    frog = world(st)[1]
    assert (it.call("strength", frog, state=st), it.call("hearts", frog, state=st)) == (0, 1)
    it.run("food_evaluation", state=st)
    assert sorted(world(st)) == survivors


@pytest.mark.parametrize("shortfall, tied, plants", [
    # Hill country, 6 plants. With the plants handed out by Adaptation alone (a house rule's
    # order), two gazelles G2 (Adaptation 3, 2 Hearts) and the bongo-bison BB (3, 4 Hearts)
    # tie, needing 2 + 2 + 4 = 8:
    ("skip", "all_or_none", (0, 0, 0)),     # the short group is passed over
    ("skip", "even_split", (2, 2, 0)),      # 6 // 3 = 2 covers each gazelle, not the bongo
    ("stop", "all_or_none", (1, 1, 3)),     # shared in proportion: 6*2//8, 6*2//8, 6*4//8
    ("stop", "even_split", (2, 2, 2)),      # 2 each, at most the need
])
def test_even_split_keeps_its_meaning_under_skip(tmp_path, shortfall, tied, plants):
    from helpers import rel
    house = tmp_path / "by_adaptation.rules"
    house.write_text(f'variant by_adaptation "Plants by Adaptation" extends "{rel(DARWIN, tmp_path)}"\n'
                     "override def plant_key(s: species) = adaptation_of(s)\n")
    it = Interpreter(load(house, {"feeding_after_shortfall": shortfall, "tied_feeders": tied}))
    st = table(it, [{"cards": G2}, {"cards": G2}, {"cards": BB}])
    got = food(it, st)
    assert tuple(got[i][0] for i in (1, 2, 3)) == plants

