"""verify --check secrecy: every choice a seat makes reads only what it may see.

A corpus of leaks (tests/verify/corpus/leaks/*.rules: house rules of the shipped games whose
choices or playing queries read a hidden pile) must each be caught with the chain of reads
that leads there; the shipped games, every version and every house rule are PROVED; a
rule that reads only what is public (a pile's size, the chooser's own hand through a
definition, a pile shown to the chooser just before) is not a leak."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import ROOT, run_command

from rulewright.api import load
from rulewright.solver.verify.secrecy import secrecy

LEAKS = Path(__file__).resolve().parent / "corpus" / "leaks"

# file -> (the finding's definition, the pile read, the places its chain must pass, in order)
CAUGHT = {
    "savanna_peek_deck.rules": ("draft_round.k", "deck", ["procedure draft_round", "choice 'k' of s", "deck"]),
    "savanna_other_hands.rules": ("draft_round.k", "hand", ["choice 'k' of s", "rule held_elsewhere", "hand(t)"]),
    "savanna_let_alias.rules": ("draft_round.k", "hand", ["choice 'k' of s", "hand(t)"]),
    "savanna_procedure_argument.rules": ("pick_from.k", "deck", ["procedure pick_from", "choice 'k' of s", "deck"]),
    "savanna_stale_reveal.rules": ("draft_round.k", "deck", ["choice 'k' of s", "deck"]),
    "savanna_query_other_hand.rules": ("best_pick", "hand", ["playing query 'best_pick' for player", "hand(t)"]),
    "darwin_event_peek.rules": ("create_species.made", "event_stack",
                                ["procedure turn", "choice 'made' of p", "definition creations", "rule creatable",
                                 "rule flood_next", "event_stack"]),
    "darwin_late_reveal.rules": ("bring_biome.pick", "biome_stack",
                                 ["procedure bring_biome", "choice 'pick' of first_player", "biome_stack"]),
}
NOT_LEAKS = ["savanna_public_sizes.rules"]


def test_the_corpus_is_whole():
    assert sorted(p.name for p in LEAKS.glob("*.rules")) == sorted(list(CAUGHT) + NOT_LEAKS)
    assert len(CAUGHT) >= 6


@pytest.mark.parametrize("name", sorted(CAUGHT))
def test_a_leak_is_caught_with_its_chain(name):
    definition, pile, places = CAUGHT[name]
    found = [f for f in secrecy(load(LEAKS / name).program) if f.definition == definition]
    assert found, [f.definition for f in secrecy(load(LEAKS / name).program)]
    f = next(f for f in found if f.witness["reads"] == pile)
    assert f.status == "COUNTEREXAMPLE" and f.severity == "error"
    chain = f.witness["chain"]
    at = 0
    for place in places:                  # each place in its order, each with its file:line
        at = next(i for i in range(at, len(chain)) if chain[i].endswith(": " + place))
    assert chain[-1].split(": ")[0].count(":") == 2
    assert chain[-1].endswith(places[-1])


@pytest.mark.parametrize("name", NOT_LEAKS)
def test_what_is_public_or_shown_is_not_a_leak(name):
    [f] = secrecy(load(LEAKS / name).program)
    assert f.status == "PROVED"


SHIPPED = ["spec/darwins_choice", "spec/ecosystem_savanna"] + \
    sorted(str(p.relative_to(ROOT)) for p in (ROOT / "spec").glob("*/variants/*.rules")) + \
    sorted(str(p.relative_to(ROOT)) for p in (ROOT / "spec" / "house_rules").glob("*.rules"))


@pytest.mark.parametrize("spec", SHIPPED)
def test_every_shipped_spec_is_proved(spec):
    [f] = secrecy(load(ROOT / spec).program)
    assert f.status == "PROVED", f.message


def test_the_command_line_reports_a_leak_with_its_chain_and_exits_1():
    code, out, err = run_command("verify", str(LEAKS / "savanna_other_hands.rules"), "--check", "secrecy", "--json")
    assert code == 1, err
    doc = json.loads(out)
    [f] = [f for f in doc["findings"] if f["check"] == "secrecy" and "chain" in (f["witness"] or {})]
    assert f["status"] == "COUNTEREXAMPLE" and "held_elsewhere" in json.dumps(f["witness"])
    # the games played show it too: other options on a position the seat cannot tell apart
    assert any(f["status"] == "COUNTEREXAMPLE" and "seed" in (f["witness"] or {}) for f in doc["findings"])
    code, out, err = run_command("verify", "spec/ecosystem_savanna", "--check", "secrecy", "--no-progress")
    assert code == 0, err
    assert "secrecy" in out


# ------------------------------------------------------------------ sampled
@pytest.mark.parametrize("name, choice", [("savanna_peek_deck.rules", "k"), ("darwin_event_peek.rules", None)])
def test_options_made_again_on_a_determinization_show_a_leak(name, choice):
    from rulewright.solver.verify.secrecy import sampled
    found = sampled(load(LEAKS / name).program, 2)
    assert found and all(f.status == "COUNTEREXAMPLE" for f in found)
    f = found[0]
    assert choice is None or f.definition == choice
    w = f.witness
    assert w["options only in the true position"] or w["options only in the other"]
    assert isinstance(w["seed"], int) and w["checkpoints"]


@pytest.mark.parametrize("spec", ["spec/ecosystem_savanna", "spec/darwins_choice",
                                  "spec/darwins_choice/variants/coop_2v2.rules"])
def test_the_shipped_games_give_a_seat_the_same_options_on_what_it_cannot_tell_apart(spec):
    from rulewright.solver.verify.secrecy import sampled
    [f] = sampled(load(ROOT / spec).program, 2)
    assert f.status == "SAMPLED", f.message
