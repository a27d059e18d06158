"""The Darwin's Choice queries against brute force, and their reasons.

Differential properties (Hypothesis): on small positions derived from seeded games
(hands of up to 8 cards, 2 to 4 biomes, the species already placed on them), the
solver's optimum of every query equals the best option the play rules offer, each
valued through the interpreter (``darwin_brute``); whatever the solver calls legal or
illegal, the interpreter does too. Crafted positions check that each kind of rule
gives its reason, with its rule IDs and its sentence.
"""
from __future__ import annotations

import copy
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulewright.compiler import load
from rulewright.solver.queries import interpreter_for, run_query

import darwin_brute as B  # noqa: E402
from helpers import ROOT
from helpers import darwin_base as base, darwin_position as position, darwin_program as program


def small(doc: dict, hand: list[str], biomes: int, acted: list[bool], event: str | None = None) -> dict:
    """The position with player 1's hand replaced, only the first biomes in play (and
    the species living there), and the species' markers as given."""
    s = doc["state"]
    s["in_play"] = s["in_play"][:biomes]
    s["world"] = [w for w in s["world"] if w["home"] in s["in_play"]]
    for w, a in zip(s["world"], acted):
        w["acted"] = a
    doc["per_seat"]["hand"]["p1"] = hand
    if event is not None:
        s["current_event"] = event
    return doc


def catalogue(prog) -> list[str]:
    return list(prog.enums["animal_card"].values)


def ask(prog, st_, name, **inputs):
    return run_query(prog, name, {"player": st_.seats[0], **inputs}, state=st_, time_limit=30, workers=1)


EVENTS = [None, "none", "low_mutation_rate", "epidemic", "continental_drift", "meat_boom", "plant_boom"]


@st.composite
def positions(draw):
    prog = program()
    cards = catalogue(prog)
    seed = draw(st.sampled_from([3, 7, 11]))
    turn = draw(st.sampled_from([6, 12, 20]))
    hand = draw(st.lists(st.sampled_from(cards), min_size=2, max_size=8))
    biomes = draw(st.integers(2, 4))
    acted = draw(st.lists(st.booleans(), min_size=12, max_size=12))
    event = draw(st.sampled_from(EVENTS))
    doc = small(base(seed, turn), hand, biomes, acted, event if event != "none" else None)
    if event == "none":
        doc["state"]["current_event"] = None
    return doc


SETTINGS = settings(max_examples=25, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _status_value(answer):
    return answer.objective if answer.status == "OPTIMAL" else None


def _at(doc):
    """The program, its interpreter, the position and player 1."""
    prog = program()
    pos = position(doc)
    return prog, interpreter_for(prog), pos, pos.seats[0]


@SETTINGS
@given(positions(), st.sampled_from(["adaptation", "points"]))
def test_best_create_and_best_move_equal_brute_force(doc, goal):
    prog, it, pos, p = _at(doc)
    answer = ask(prog, pos, "best_create", objective=goal)
    assert answer.status in ("OPTIMAL", "INFEASIBLE")
    assert _status_value(answer) == B.best(B.create_options(it, pos, p, goal))
    if answer.status == "OPTIMAL":
        # what the solver calls legal is one of the play rules' creations
        ks = tuple(sorted(answer.witness["cards_from_hand"] + answer.witness["card_from_trade"], key=repr))
        assert (ks, answer.witness["place"]) in it.call("creations", p, state=pos)
    traded = ask(prog, pos, "best_create", objective=goal, allow_trade=True)
    assert _status_value(traded) == B.best(B.create_options(it, pos, p, goal, allow_trade=True))
    move = ask(prog, pos, "best_move", objective=goal)
    assert _status_value(move) == B.best_move(it, pos, p, goal)
    move = ask(prog, pos, "best_move", objective=goal, allow_trade=True)
    assert _status_value(move) == B.best_move(it, pos, p, goal, allow_trade=True)
    if move.status == "OPTIMAL" and move.witness["card_from_trade"]:
        assert move.witness["action"] == "create"


@SETTINGS
@given(positions(), st.sampled_from(["adaptation", "points"]))
def test_best_mutation_and_migration_equal_brute_force(doc, goal):
    prog, it, pos, p = _at(doc)
    for s in pos.shared["world"]:
        answer = ask(prog, pos, "best_mutation", species=s.f_id, objective=goal)
        options = B.mutation_options(it, pos, p, s.f_id, goal)
        assert _status_value(answer) == B.best(options), s
        if answer.status == "OPTIMAL":
            # the solver's mutation is one the play rules offer (as one or two changes)
            final = sorted(answer.witness["cards_kept"] + answer.witness["cards_added"])
            assert final in [sorted(cards) for _, cards, _ in options]
        answer = ask(prog, pos, "best_migration", species=s.f_id, objective=goal)
        assert _status_value(answer) == B.best(B.migration_options(it, pos, p, s.f_id, goal)), s


@SETTINGS
@given(positions(), st.data())
def test_can_place_agrees_with_the_play_rules(doc, data):
    """Legal for the solver exactly when the play rules list the creation."""
    prog, it, pos, p = _at(doc)
    hand = list(pos.per["hand"][p])
    creations = set(it.call("creations", p, state=pos))
    for _ in range(4):
        cards = data.draw(st.lists(st.sampled_from(hand), min_size=1, max_size=len(hand), unique=True))
        continent = data.draw(st.sampled_from(list(pos.shared["in_play"])))
        biome = it.call("biome_at", continent, state=pos)
        answer = ask(prog, pos, "can_place", cards=tuple(cards), biome=biome)
        legal = (tuple(sorted(cards, key=repr)), continent) in creations
        assert (answer.status == "FEASIBLE") == legal, (cards, biome, [r.sentence for r in answer.reasons])
        assert legal or answer.reasons


# The ambiguity readings a query's answer depends on, each with its other option.
READINGS = {"strength_tie_food": "obtained", "omnivore_meat": "before_carnivores",
            "feeding_after_shortfall": "skip", "tied_feeders": "even_split",
            "predation_scope": "anywhere", "low_mutation_without_points": "forbidden",
            "boom_effect": "add_supply", "epidemic_stops_predation": "allows",
            "adaptation_symbols": "all_biome_symbols", "main_actions": "per_species"}


@st.composite
def readings(draw):
    """Two to four readings flipped from their default."""
    names = draw(st.lists(st.sampled_from(sorted(READINGS)), min_size=2, max_size=4, unique=True))
    return {n: READINGS[n] for n in sorted(names)}


@st.composite
def tied_positions(draw):
    """Positions with ties, where the tie readings matter: a species copied beside
    itself (same cards and biome, another owner) until its biome may run short, and
    sometimes a hand holding the cards of a species on the table."""
    doc = draw(positions())
    s = doc["state"]
    if s["world"]:
        w = s["world"][draw(st.integers(0, len(s["world"]) - 1))]
        for _ in range(draw(st.integers(0, 3))):
            s["world"].append(dict(w, id=s["next_id"], owner="p2", acted=False))
            s["next_id"] += 1
    if s["world"] and draw(st.booleans()):
        cards = list(s["world"][-1]["cards"])
        hand = doc["per_seat"]["hand"]["p1"]
        doc["per_seat"]["hand"]["p1"] = cards + hand[:max(0, 8 - len(cards))]
    return doc


@settings(max_examples=20, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(tied_positions(), readings(), st.sampled_from(["adaptation", "points"]))
def test_queries_equal_brute_force_under_other_readings(doc, flipped, goal):
    """The same differential check as above, on a program loaded with some readings
    flipped: the queries still encode, and their optimum is still the brute force's.
    (Few positions tell these readings apart, so this is no strong check of any one
    reading; the allocation modes are checked directly in test_agreement.)"""
    prog = program(**{k: str(v).lower() if isinstance(v, bool) else v for k, v in flipped.items()})
    assert all(prog.constants[k] == v for k, v in flipped.items())
    doc["switches"] = dict(flipped)
    it = interpreter_for(prog)
    pos = position(doc, prog)
    p = pos.seats[0]
    answer = ask(prog, pos, "best_create", objective=goal)
    assert _status_value(answer) == B.best(B.create_options(it, pos, p, goal)), flipped
    move = ask(prog, pos, "best_move", objective=goal)
    assert _status_value(move) == B.best_move(it, pos, p, goal), flipped
    for s in pos.shared["world"][:3]:
        answer = ask(prog, pos, "best_mutation", species=s.f_id, objective=goal)
        assert _status_value(answer) == B.best(B.mutation_options(it, pos, p, s.f_id, goal)), (flipped, s)
        answer = ask(prog, pos, "best_migration", species=s.f_id, objective=goal)
        assert _status_value(answer) == B.best(B.migration_options(it, pos, p, s.f_id, goal)), (flipped, s)


def mid_turn(doc: dict, created: bool) -> dict:
    """The position within player 1's turn under main_actions = per_species, after a
    main action (a creation among them when ``created``)."""
    doc["switches"] = {**doc.get("switches", {}), "main_actions": "per_species"}
    doc["state"].update(acted_this_turn=True, created_this_turn=created, to_move="p1")
    return doc


@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(positions(), st.sampled_from(["adaptation", "points"]), st.booleans(), st.booleans())
def test_a_further_action_of_a_per_species_turn_equals_brute_force(doc, goal, created, allow_trade):
    """Within a turn under main_actions = per_species, once player 1 has acted,
    best-move is their best further action: no trade, no second creation; its optimum
    is the brute force's, and its answer plays the choices of a further action."""
    prog = program(main_actions="per_species")
    it = interpreter_for(prog)
    pos = position(mid_turn(doc, created), prog)
    p = pos.seats[0]
    answer = ask(prog, pos, "best_move", objective=goal, allow_trade=allow_trade)
    assert _status_value(answer) == B.best_move(it, pos, p, goal, allow_trade=allow_trade)
    if answer.status == "OPTIMAL":
        assert not answer.witness["card_from_trade"]
        assert not (created and answer.witness["action"] == "create")
        played = [name for name, _, _ in answer.plays]
        assert played[:2] == ["act_again", "next_act"] and not {"trading", "got", "act"} & set(played)


def test_a_further_action_is_never_a_second_creation():
    """Player 1 created this turn and every species of theirs has acted this Era: no
    further action, and the reason says why the creation is not one."""
    prog = program(main_actions="per_species")
    doc = mid_turn(base(7, 20), created=True)
    for w in doc["state"]["world"]:
        w["acted"] = True
    pos = position(doc, prog)
    answer = ask(prog, pos, "best_move")
    assert answer.status == "INFEASIBLE"
    r = reasons(answer)["further_action"]
    assert r.sentence == "Player 1 has created a species this turn already" and "DC-AMB-18" in r.ids
    # nor can any cards make a species now, and best-create says the same
    hand = doc["per_seat"]["hand"]["p1"]
    biome = interpreter_for(prog).call("biome_at", pos.shared["in_play"][0], state=pos)
    assert "further_action" in reasons(ask(prog, pos, "can_place", cards=tuple(hand[:2]), biome=biome))
    assert "further_action" in reasons(ask(prog, pos, "best_create"))
    # the same position at the start of the turn: a creation is open
    doc["state"].update(acted_this_turn=False, created_this_turn=False)
    assert ask(prog, position(doc, prog), "best_move").witness["action"] == "create"


# ---------------------------------------------------------------- reasons
def attr(prog, k, col):
    return prog.enums["animal_card"].attrs[col][k]


def reasons(answer) -> dict:
    return {r.rule: r for r in answer.reasons}


def test_reason_docking_tail_site():
    prog = program()
    body = next(k for k in catalogue(prog) if attr(prog, k, "part") == "body"
                and "tail_site" not in attr(prog, k, "sites"))
    head = next(k for k in catalogue(prog) if attr(prog, k, "part") == "head")
    tail = next(k for k in catalogue(prog) if attr(prog, k, "part") == "tail")
    doc = small(base(7, 6), [head, body, tail], 4, [])
    pos = position(doc)
    biome = interpreter_for(prog).call("biome_at", pos.shared["in_play"][0], state=pos)
    answer = ask(prog, pos, "can_place", cards=(head, body, tail), biome=biome)
    assert answer.status == "INFEASIBLE"
    r = reasons(answer)["tail_docks"]
    assert r.sentence == "the body has no tail site"
    assert "DC-CARD-09" in r.ids and r.span.file.endswith("species.rules")


def test_reason_requirement_and_forbidden_ability():
    prog = program()
    it = interpreter_for(prog)
    doc = small(base(7, 6), [], 4, [])
    # every biome in play, and a well-formed species of the hand that lacks its requirement
    # or shows a forbidden ability
    cards = catalogue(prog)
    heads = [k for k in cards if attr(prog, k, "part") == "head"]
    bodies = [k for k in cards if attr(prog, k, "part") == "body"]
    seen = set()
    pos = position(doc)
    for c in pos.shared["in_play"]:
        b = it.call("biome_at", c, state=pos)
        attrs = prog.enums["biome"].attrs
        for h in heads[:30]:
            for bd in bodies[:30]:
                if len(seen) == 2:
                    break
                ks = (h, bd)
                s = it.call("newborn", pos.seats[0], ks, c, state=pos)
                forbidden = any(it.call("has", s, a) for a in attrs["forbids"][b])
                required = attrs["requires"][b] and not any(all(it.call("has", s, a) for a in alt)
                                                           for alt in attrs["requires"][b])
                kind = "no_forbidden_ability" if forbidden else "meets_requirements" if required else None
                if kind is None or kind in seen:
                    continue
                doc2 = copy.deepcopy(doc)
                doc2["per_seat"]["hand"]["p1"] = list(ks)
                answer = ask(prog, position(doc2), "can_place", cards=ks, biome=b)
                r = reasons(answer)[kind]
                title = attrs["title"][b]
                if kind == "no_forbidden_ability":
                    assert r.sentence.startswith(f"{title} forbids ") and "DC-CARD-07" in r.ids
                else:
                    alts = " or ".join(" and ".join(a.replace("_", " ") for a in alt) for alt in attrs["requires"][b])
                    assert r.sentence == f"{title} requires {alts}" and "DC-CARD-06" in r.ids
                seen.add(kind)
    assert seen == {"no_forbidden_ability", "meets_requirements"}


def test_reason_food():
    """A herbivore arriving below a more adapted one that eats all the plants."""
    prog = program()
    it = interpreter_for(prog)
    doc = base(7, 6)
    pos = position(doc)
    world = list(pos.shared["world"])
    herbivore = next(s for s in world if it.call("diet_of", s) == "herbivore")
    home = herbivore.f_home
    supply = it.call("plant_supply", home, state=pos)
    # the resident now needs the whole supply: give it enough hearts by raising the needs
    doc["state"]["world"] = [w for w in doc["state"]["world"] if w["id"] == herbivore.f_id]
    doc["state"]["in_play"] = [home]
    pos = position(doc)
    resident = pos.shared["world"][0]
    need = it.call("hearts", resident)
    # a newcomer with the same head and body, so it is no more adapted than the resident
    head = next(k for k in resident.f_cards if attr(prog, k, "part") == "head")
    body = next(k for k in resident.f_cards if attr(prog, k, "part") == "body")
    hand = [head, body]
    doc["per_seat"]["hand"]["p1"] = hand
    doc["state"]["world"][0]["cards"] = list(resident.f_cards)
    pos = position(doc)
    # the position the test wants: the biome cannot feed both
    assert supply < need + it.call("hearts", it.call("newborn", pos.seats[0], tuple(hand), home))
    answer = ask(prog, pos, "can_place", cards=tuple(hand), biome=it.call("biome_at", home, state=pos))
    assert [x.rule for x in answer.reasons] == ["enough_food"]
    r = reasons(answer)["enough_food"]
    assert "more adapted plant eater(s) eat first" in r.sentence
    assert f"supplies {supply} unit(s) of plants" in r.sentence and "DC-ACT-CREATE-04" in r.ids


def test_reason_one_action_per_species_per_era():
    prog = program()
    doc = base(7, 20)
    mine = [w for w in doc["state"]["world"] if w["owner"] == "p1"]
    assert mine
    mine[0]["acted"] = True
    pos = position(doc)
    answer = ask(prog, pos, "best_mutation", species=mine[0]["id"])
    assert answer.status == "INFEASIBLE"
    r = reasons(answer)["not_acted"]
    assert r.sentence == f"species {mine[0]['id']} has already had its Main Action this Era"
    assert "DC-ACT-MAIN-02" in r.ids
    answer = ask(prog, pos, "best_migration", species=mine[0]["id"])
    assert "not_acted" in reasons(answer)


def test_a_player_who_has_passed_has_no_main_action():
    """At an Evaluation every player has passed: no query offers a main action, each
    saying why; a position saved at the start of the next Era offers moves again."""
    prog = program()
    it = interpreter_for(prog)
    at_evaluation = it.play("standard", 4, 7, stop_at="evaluation:1")
    p = at_evaluation.seats[0]
    assert at_evaluation.per["passed"][p]
    mine = next(s.f_id for s in at_evaluation.shared["world"] if s.f_owner == p)
    for name, extra in (("best_move", {}), ("best_create", {}), ("best_mutation", {"species": mine}),
                        ("best_migration", {"species": mine})):
        answer = ask(prog, at_evaluation, name, **extra)
        assert answer.status == "INFEASIBLE", name
        r = reasons(answer)["not_passed"]
        assert r.sentence == "Player 1 has passed for the rest of the Era" and "DC-ACT-03" in r.ids
    next_era = it.play("standard", 4, 7, stop_at="era:2")
    assert not any(next_era.per["passed"][q] for q in next_era.seats)
    assert ask(prog, next_era, "best_move").status == "OPTIMAL"


def test_reason_species_of_another_player():
    prog = program()
    doc = base(7, 20)
    theirs = [w for w in doc["state"]["world"] if w["owner"] != "p1"]
    assert theirs
    pos = position(doc)
    answer = ask(prog, pos, "best_mutation", species=theirs[0]["id"])
    assert answer.status == "INFEASIBLE"
    r = reasons(answer)["own_species"]
    owner = "Player " + theirs[0]["owner"].removeprefix("p")      # seat p3 is titled Player 3
    assert r.sentence == f"species {theirs[0]['id']} belongs to {owner}, not to Player 1"
    assert "DC-ACT-MAIN-01" in r.ids


def test_one_change_made_as_a_double_when_a_single_cannot_be_paid():
    """Low mutation rate: a Single costs 1 point and (reading forbidden) a species
    without points cannot pay it; a Double costs what the species has, 0. A species of
    a head, a body and legs, and a hand of one other leg card: every mutation is one
    change, so none is a Single; but replacing the legs is also two changes (Remove,
    then Add) and removing them too (Replace, then Remove the new legs), which the play
    rules offer as Doubles. best-mutation finds them, at the brute force's value, and
    best-move plays such a mutation as a Double."""
    prog = program(low_mutation_without_points="forbidden")
    it = interpreter_for(prog)
    doc = base(7, 20)
    mine = [w for w in doc["state"]["world"] if w["owner"] == "p1"]
    head = next(k for k in mine[0]["cards"] if attr(prog, k, "part") == "head")
    bodies = [k for k in catalogue(prog) if attr(prog, k, "part") == "body"
              and "front_legs" in attr(prog, k, "sites") and "back_legs" not in attr(prog, k, "sites")]
    legs = [k for k in catalogue(prog) if attr(prog, k, "part") == "legs"]
    found = None
    for body in bodies:
        for mine_legs, other in zip(legs, legs[1:]):
            d = copy.deepcopy(doc)
            w = next(x for x in d["state"]["world"] if x["id"] == mine[0]["id"])
            w.update(cards=[head, body, mine_legs], dp=0, acted=False)
            d["per_seat"]["hand"]["p1"] = [other]
            d["state"]["current_event"] = "low_mutation_rate"
            d["switches"] = {"low_mutation_without_points": "forbidden"}
            pos = position(d, prog)
            options = B.mutation_options(it, pos, pos.seats[0], mine[0]["id"], "adaptation")
            if options:
                found = (pos, options, mine_legs, other)
                break
        if found:
            break
    assert found, "no position of this shape"
    pos, options, mine_legs, other = found
    p = pos.seats[0]
    s = next(t for t in pos.shared["world"] if t.f_id == mine[0]["id"])
    assert not it.call("single_mutations", p, s, state=pos)      # a Single cannot be paid
    assert all(cost == 0 for _, _, cost in options)
    answer = ask(prog, pos, "best_mutation", species=s.f_id)
    assert (answer.status, answer.objective) == ("OPTIMAL", B.best(options))
    # best-move equals the play rules' best; a mutation is played as the game asks it
    move = ask(prog, pos, "best_move", objective="adaptation")
    assert (move.status, move.objective) == ("OPTIMAL", B.best_move(it, pos, p, "adaptation"))
    if move.witness["action"] == "mutate":
        plays = {name: (expr, env) for name, expr, env in move.plays}
        assert it.evaluate(*plays["count"], state=pos) == 2
        assert it.evaluate(*plays["c1"], state=pos) is not None
        assert it.evaluate(*plays["c2"], state=pos) is not None


def test_reason_darwin_point_cost():
    """Low mutation rate, read so that a species without points cannot pay: a species of
    only a head and a body and a hand of one card can only take a Single Mutation."""
    prog = program(low_mutation_without_points="forbidden")
    doc = base(7, 20)
    mine = [w for w in doc["state"]["world"] if w["owner"] == "p1"]
    heads = [k for k in mine[0]["cards"] if attr(prog, k, "part") in ("head", "body")]
    mine[0]["cards"] = heads
    mine[0]["dp"] = 0
    mine[0]["acted"] = False
    body = next(k for k in heads if attr(prog, k, "part") == "body")
    sites = attr(prog, body, "sites")
    part = "wing" if "wing_site" in sites else "tail" if "tail_site" in sites else "legs"
    card = next(k for k in catalogue(prog) if attr(prog, k, "part") == part)
    doc["per_seat"]["hand"]["p1"] = [card]
    doc["state"]["current_event"] = "low_mutation_rate"
    doc["switches"] = {"low_mutation_without_points": "forbidden"}
    pos = position(doc, prog)
    answer = ask(prog, pos, "best_mutation", species=mine[0]["id"])
    assert answer.status == "INFEASIBLE"
    r = reasons(answer)["can_pay"]
    assert r.sentence.startswith("the mutation costs 1 Darwin Point(s) and species") and r.sentence.endswith("has 0")
    assert "DC-EVENT-LOWMUT-01" in r.ids


def test_reasons_when_no_main_action_is_left():
    """Player 1 holds a wing and a tail only, and their one species has acted: best-move
    has no option. Each branch is blamed on the first rule it cannot get past, a rule
    known to fail whatever the cards: no Head Card for every biome of the create
    branch (the value shown is the one every option has: 0), the species' marker for
    mutate and migrate; the text merges the biomes into one line."""
    from rulewright.solver.queries import reason_lines
    prog = program()
    doc = base(7, 9)
    cards = catalogue(prog)
    wing = next(k for k in cards if attr(prog, k, "part") == "wing")
    tail = next(k for k in cards if attr(prog, k, "part") == "tail")
    doc["per_seat"]["hand"]["p1"] = [wing, tail]
    mine = [w for w in doc["state"]["world"] if w["owner"] == "p1"]
    assert len(mine) == 1
    mine[0]["acted"] = True
    pos = position(doc)
    answer = ask(prog, pos, "best_move")
    assert answer.status == "INFEASIBLE"
    by_rule: dict = {}
    for r in answer.reasons:
        by_rule.setdefault(r.rule, []).append(r)
    assert set(by_rule) == {"one_head", "not_acted"}
    assert len({r.core for r in answer.reasons}) == 1
    places = [r.path["place"] for r in by_rule["one_head"]]
    assert sorted(places) == sorted(pos.shared["in_play"])
    assert all(r.sentence == "a species has exactly one Head Card; these cards have 0" for r in by_rule["one_head"])
    assert {r.path["action"] for r in by_rule["not_acted"]} == {"mutate", "migrate"}
    text = "\n".join(reason_lines(answer.reasons))
    listed = ", ".join(places[:-1]) + " or " + places[-1]
    assert f"these cards have 0 (with action create, place {listed})" in text
    assert (f"species {mine[0]['id']} has already had its Main Action this Era "
            f"(with action mutate or migrate, species {mine[0]['id']})") in text
    assert text.startswith("  - every option breaks one of these:")


def test_explain_reports_trace_to_rules():
    prog = program()
    pos = position(base(7, 20))
    s = pos.shared["world"][0]
    answer = run_query(prog, "explain", {"species": s.f_id}, state=pos, time_limit=10, workers=1)
    shown = {name: (value, d) for name, value, d in answer.reports}
    it = interpreter_for(prog)
    world = tuple(pos.shared["world"])
    assert shown["adaptation"][0] == it.call("adaptation_of", s, state=pos)
    assert shown["projected_points"][0] == it.call("projected_points", s, world, state=pos)
    assert shown["feeding_place"][0] >= 1
    assert "DC-CARD-03" in shown["adaptation"][1][1]
    assert shown["projected_points"][1][0] == "projected_points"


# ------------------------------------------------------------------ species size
def _cards_of(prog, *parts):
    enum = prog.enums["animal_card"]
    return [k for k in enum.values if enum.attrs["part"][k] in parts]


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.data())
def test_no_species_has_more_cards_than_most_species_cards(data):
    """creations tries only groups of at most most_species_cards cards: a head, a body
    and five or more legs, wings and tails never make a well-formed species."""
    prog = program()
    it = interpreter_for(prog)
    most = it.call("most_species_cards")
    head = data.draw(st.sampled_from(_cards_of(prog, "head")))
    body = data.draw(st.sampled_from(_cards_of(prog, "body")))
    limbs = data.draw(st.lists(st.sampled_from(_cards_of(prog, "legs", "double_legs", "wing", "tail")),
                               min_size=most - 1, max_size=most + 2))
    assert not it.call("well_formed", tuple([head, body] + limbs))


def test_creations_are_every_group_of_the_hand_that_can_be_created():
    """The spec's creations (groups of at most most_species_cards cards) are exactly
    what trying every sub-collection of the hand finds."""
    for seed, turn in ((3, 6), (7, 12), (11, 20)):
        prog = program()
        doc = base(seed, turn)
        doc["per_seat"]["hand"]["p1"] = catalogue(prog)[seed * 9:seed * 9 + 10]
        pos = position(doc, prog)
        it, p = interpreter_for(prog), pos.seats[0]
        assert set(it.call("creations", p, state=pos)) == set(B._every_creation(it, pos, p))


def test_the_benchmark_positions_offer_a_move():
    """benchmarks/darwin_queries.py measures positions taken at an Evaluation, where
    every player has passed: unless it gives player 1 the next turn, every query
    answers nothing and the benchmark would time empty answers. On one of its
    positions each query has an answer, the brute-force optimum."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import darwin_queries as bench
    import random
    prog = program()
    pos, n = bench.position(prog, bench.base_position(prog), 8, 4, 6, random.Random(1))
    p = pos.seats[0]
    it = interpreter_for(prog)
    sid = pos.shared["world"][0].f_id
    for name, extra, brute in [
            ("best_create", {}, lambda: B.best(B.create_options(it, pos, p, "points"))),
            ("best_mutation", {"species": sid}, lambda: B.best(B.mutation_options(it, pos, p, sid, "points"))),
            ("best_move", {}, lambda: B.best_move(it, pos, p, "points"))]:
        best = brute()
        assert best is not None, name
        answer = run_query(prog, name, {"player": p, "objective": "points", **extra}, state=pos, reasons=False)
        assert answer.status == "OPTIMAL" and answer.objective == best, name


def test_an_answer_not_proven_optimal_has_its_bound_as_a_tuple():
    """A FEASIBLE answer of a query whose objective is named (a tuple: the goal, then
    the other goal) has a bound at least as good as its objective."""
    prog = load(ROOT / "spec" / "darwins_choice")
    pos = interpreter_for(prog).play("standard", 4, 7, stop_at="turn:9")
    p1 = next(s for s in pos.seats if s.name == "p1")
    for q in ("best_move", "best_create"):
        a = run_query(prog, q, {"player": p1}, state=pos, time_limit=5, params={"stop_after_first_solution": True},
                      reasons=False)
        assert a.status in ("FEASIBLE", "OPTIMAL") and a.replayed
        assert isinstance(a.bound, tuple) and a.bound >= a.objective
