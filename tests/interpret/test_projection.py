"""Definitions remembered by the columns they read (compiler/interpret/projection.py): which
parameters may be keyed by their values' classes, in order or in any order, which may not,
and every value the memo gives is the one the definition computes."""
import itertools
import random

import pytest

from rulewright.compiler import load
from rulewright.compiler.interpret import Interpreter
from rulewright.compiler.interpret.projection import projections
from rulewright.compiler.semantics.runtime import RuntimeRulesError

from helpers import same_as_baseline, spec

CARDS = """
game g "G"
enum part { head, body, legs }
table card "Card" (part: part, cost: int, sites: int) {
  lion_head  | head | 2 | 0
  fish_head  | head | 1 | 0
  lion_body  | body | 3 | 2
  fish_body  | body | 0 | 0
  big_body   | body | 4 | 1
  lion_legs  | legs | 1 | 0
  bird_legs  | legs | 0 | 0
}
def parts(cards: pile of card, p: part) = [k for k in cards if k.part == p]
def sites(cards: pile of card) = [k.sites for k in parts(cards, body)]
def one_head(cards: pile of card) = size(parts(cards, head)) == 1
def docks(cards: pile of card) = size(parts(cards, legs)) <= sum(x for x in sites(cards)) and 2 in sites(cards)
def formed(cards: pile of card) = one_head(cards) and size(parts(cards, body)) == 1 and docks(cards)
def costs(cards: pile of card) = sum(k.cost for k in cards)
def first_part(cards: pile of card) = [k.part for k in cards]
def led_by_a_head(cards: pile of card) = size(cards) > 0 and first_part(cards) == [head] + [k.part for k in cards if k.part != head]
def cost_per_site(cards: pile of card) = any(k.cost // k.sites > 1 for k in cards if k.part == body)
def holds_lion_head(cards: pile of card) = lion_head in cards
def names_a_card(cards: pile of card) = size({k for k in cards}) == size(cards)
def the_heads(cards: pile of card) = parts(cards, head)
def cheapest(cards: pile of card) = min(k.cost for k in cards)
def same_card(a: card, b: card) = a == b
def same_part(a: card, b: card) = a.part == b.part
"""


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    return load(spec(tmp_path_factory.mktemp("cards"), CARDS))


def _how(found, name):
    return {i: how for i, (how, _) in found.get(name, {}).items()}


def test_what_may_be_keyed_by_class_and_how(program):
    found = projections(program)
    # read by columns alone, whatever the order: counted, summed, asked for a member
    for name in ("one_head", "costs"):
        assert _how(found, name) == {0: "any order"}, name
    # ... but a sum of values it cannot tell are never none (those of a list a definition
    # made) might fail: in order
    assert _how(found, "docks") == {0: "in order"} and _how(found, "formed") == {0: "in order"}
    # read by columns alone, but the order counts (a list compared) or a step may fail
    # (a division: met in one order, passed by in another)
    assert _how(found, "led_by_a_head") == {0: "in order"}
    assert _how(found, "cost_per_site") == {0: "in order"}
    assert _how(found, "first_part") == {0: "in order"}
    assert _how(found, "cheapest") == {0: "in order"}           # (no minimum of nothing)
    # the cards themselves looked at: a card looked for, a set of them, returned, compared
    for name in ("holds_lion_head", "names_a_card", "the_heads", "parts", "same_card"):
        assert 0 not in _how(found, name), name
    assert _how(found, "same_part") == {0: "one", 1: "one"}
    # classes: values that agree on every column read share one
    classes = found["one_head"][0][1]
    assert classes["lion_head"] == classes["fish_head"] != classes["lion_body"]
    classes = found["formed"][0][1]                 # (part and sites read)
    assert classes["lion_body"] != classes["fish_body"] and classes["lion_legs"] == classes["bird_legs"]


def test_every_value_remembered_by_class_is_the_one_computed(program):
    fast, plain = Interpreter(program), Interpreter(program, fast=False)
    names = ("one_head", "docks", "formed", "costs", "led_by_a_head", "first_part", "sites", "holds_lion_head",
             "names_a_card", "the_heads", "cheapest")
    values = list(program.enums["card"].values)
    rng = random.Random(7)
    piles = [()] + [tuple(rng.choice(values) for _ in range(rng.randrange(1, 6))) for _ in range(300)]
    piles += [tuple(p) for p in itertools.permutations(["lion_head", "fish_body", "lion_legs"])]
    for cards in piles * 2:         # (the second time from the memo)
        for name in names:
            same_as_baseline(fast, plain, name, cards)


def test_an_order_that_counts_is_not_remembered_away(program):
    fast = Interpreter(program)
    for _ in range(3):
        assert fast.call("led_by_a_head", ("lion_head", "fish_body")) is True
        assert fast.call("led_by_a_head", ("fish_body", "lion_head")) is False
        assert fast.call("first_part", ("lion_legs", "fish_head")) == ("legs", "head")


def test_a_step_that_fails_in_one_order_fails_every_time(program):
    fast = Interpreter(program)
    for _ in range(3):
        assert fast.call("cost_per_site", ("lion_head", "lion_body")) is False
        assert fast.call("cost_per_site", ("big_body", "fish_body")) is True     # (found before the division by 0)
        with pytest.raises(RuntimeRulesError):
            fast.call("cost_per_site", ("fish_body", "big_body"))


def test_the_shipped_well_formed_species_is_keyed_in_any_order():
    from helpers import ROOT
    found = projections(load(ROOT / "spec" / "darwins_choice"))
    assert _how(found, "well_formed") == {0: "any order"}
    assert 0 not in _how(found, "parts_of")         # (returns the cards themselves)


# (what an independent review of the analysis found: each a value or an error the memo changed)
REVIEWED = """
game g "G"
enum part { head, body }
enum pick { p1, p2, p3 }
table card "Card" (part: part, cost: int, mate: card) {
  a | head | 2 | none
  b | body | 1 | a
}
def shares(cards: pile of card) = allocate(1 for k in cards by 1 from 9)[a]
def mates(cards: pile of card) = any(k.mate.cost > 1 for k in cards)
def made_none(cards: pile of card) = any((if k.part == head then none else k).cost > 0 for k in cards)
def costly(cards: pile of card) = any(k.cost > 1 for k in cards)
def stops_early(cards: pile of card) = any(k.cost > 1 or count(x for x in pick for y in pick if k.cost == 0) < 0
                                           for k in cards)
def counts(cards: pile of card) = count(x for k in cards for x in pick if k.cost > 1)
"""


def test_what_the_review_found_is_not_keyed_by_class_in_any_order(tmp_path):
    program = load(spec(tmp_path, REVIEWED))
    found = projections(program)
    # the cards themselves are allocate's claimants: not keyed by class at all
    assert 0 not in _how(found, "shares")
    # a column that some card lacks (none), or a none made by an if, compared: a step that
    # fails in one order and not in another
    assert _how(found, "mates") == {0: "in order"}
    assert _how(found, "made_none") == {0: "in order"}
    assert _how(found, "costly") == {0: "any order"}
    # stopping early before a loop another order runs: the steps counted would differ
    assert _how(found, "stops_early") == {0: "in order"}
    assert _how(found, "counts") == {0: "any order"}
    fast, plain = Interpreter(program), Interpreter(program, fast=False)
    for cards in [("a",), ("b",), ("b", "a"), ("a", "b")] * 2:
        assert fast.call("shares", cards) == plain.call("shares", cards)
        for name in ("mates", "made_none"):
            try:
                want = plain.call(name, cards)
            except Exception as e:                  # noqa: BLE001 (the same failure, whatever it is)
                with pytest.raises(type(e)):
                    fast.call(name, cards)
                continue
            assert fast.call(name, cards) == want


# A record given to a definition that reads only some of its fields: remembered by those fields
RECORDS = """
game g "G"
enum land { hill, lake }
record beast { id: int, home: land, size: int, tags: list of int }
def big(b: beast) = b.size > 2
def weight(b: beast) = b.size * 3 + sum(t for t in b.tags)
def fits(b: beast, l: land) = b.home == l and big(b)
def same_home(a: beast, b: beast) = a.home == b.home
def itself(b: beast) = b
def listed(b: beast) = [b]
def grown(b: beast) = b with (size = b.size + 1)
def same(a: beast, b: beast) = a == b
def among(b: beast, all: list of beast) = b in all
def per_size(b: beast) = 12 // b.size
"""


@pytest.fixture(scope="module")
def beasts(tmp_path_factory):
    return load(spec(tmp_path_factory.mktemp("beasts"), RECORDS))


def test_a_record_read_only_through_fields_is_keyed_by_them(beasts):
    found = projections(beasts)

    def fields(name):
        return {i: (how, getattr(get, "__reduce__")()[1]) for i, (how, get) in found.get(name, {}).items()}
    assert fields("big") == {0: ("fields", ("f_size",))}
    assert fields("weight") == {0: ("fields", ("f_size", "f_tags"))}
    assert fields("fits") == {0: ("fields", ("f_home", "f_size"))}          # (through big too)
    assert fields("same_home") == {0: ("fields", ("f_home",)), 1: ("fields", ("f_home",))}
    assert fields("per_size") == {0: ("fields", ("f_size",))}
    # the record itself returned, put in a list, copied with changes, compared, looked for
    for name in ("itself", "listed", "grown", "same"):
        assert found.get(name, {}).get(0) is None, name
    assert 0 not in found.get("among", {})


def test_every_value_remembered_by_fields_is_the_one_computed(beasts):
    fast, plain = Interpreter(beasts, fast=True), Interpreter(beasts, fast=False)
    make = beasts.records["beast"].cls
    rng = random.Random(11)
    made = [make(rng.randrange(3), rng.choice(["hill", "lake"]), rng.randrange(5),
                 tuple(rng.randrange(3) for _ in range(rng.randrange(3)))) for _ in range(200)]
    for b in made * 2:
        for name, args in (("big", (b,)), ("weight", (b,)), ("fits", (b, "hill")), ("same_home", (b, made[0])),
                           ("per_size", (b,))):
            same_as_baseline(fast, plain, name, *args)


def test_a_collection_in_any_order_has_one_key_per_multiset_of_classes():
    """The key of a collection taken in any order: which classes it holds and how many
    times each (a sum of weights under 16 values and 33 classes, the sorted classes past
    either)."""
    from rulewright.compiler.interpret import memo
    rng = random.Random(3)
    for n_classes in (3, memo.MOST_WEIGHED, memo.MOST_WEIGHED + 1, 60):
        classes = {f"v{i}": i % n_classes for i in range(2 * n_classes)}
        key = memo._any_order(classes)
        values = list(classes)
        seen: dict = {}
        for _ in range(3000):
            pile = tuple(rng.choice(values) for _ in range(rng.choice((0, 1, 2, 5, 15, 16, 17))))
            multiset = tuple(sorted(classes[v] for v in pile))
            k = key(pile)
            assert k == key(tuple(reversed(pile))) == key(list(pile))
            assert seen.setdefault(k, multiset) == multiset, (n_classes, pile)
        # fifteen of one class and one of the next, as a sum, are not sixteen of the first
        a, b = values[0], next(v for v in values if classes[v] == classes[values[0]] + 1)
        assert key((a,) * 15 + (b,)) != key((a,) * 16) != key((a,) * 15)
        assert key((a,) * 16) != key((b,)) and key((a,) * 32) != key((b, b))
        if n_classes > memo.MOST_WEIGHED:
            assert key((a, b)) == (classes[a], classes[b])



def test_a_memo_keyed_in_any_order_gives_each_collection_its_own_value():
    """The memo's own keys, in its trial and after it (one dict for both): a value
    remembered for one multiset of classes is never handed to another, at the sizes and
    class counts where the key changes form."""
    from rulewright.compiler.interpret import memo
    rng = random.Random(5)
    for n_classes in (3, memo.MOST_WEIGHED, memo.MOST_WEIGHED + 1):
        classes = {f"v{i}": i % n_classes for i in range(2 * n_classes)}
        values = list(classes)
        a, b = values[0], next(v for v in values if classes[v] == classes[values[0]] + 1)

        def multiset(pile):
            return tuple(sorted(classes[v] for v in pile))
        keyed = {0: ("any order", classes)}
        shared: dict = {}
        trial = memo.remembered(multiset, shared, None, {}, "f", keyed)
        lean = memo._lean_by_classes(multiset, shared, memo._by_classes(keyed, 1), keyed, 1)
        piles = [(b,), (a,) * 16, (a,) * 15 + (b,), (b, b), (a,) * 32, (a,) * 17, ()]
        piles += [tuple(rng.choice(values) for _ in range(rng.choice((1, 2, 5, 15, 16, 17)))) for _ in range(500)]
        for remembers in (trial, lean, trial):
            for pile in piles:
                assert remembers(pile) == multiset(pile) == remembers(list(reversed(pile))), (n_classes, pile)


def test_a_memo_keyed_by_classes_or_fields_of_one_or_two_arguments_gives_each_call_its_value():
    """The memos keyed by the classes of one argument (a value, a collection in order) or a
    record's fields, with a second argument as it is, in the memo of a definition and in
    the state's (led by the definition's name): each call gets the value of a call with
    arguments of the same key, and arguments the key cannot be made of (no class, no such
    field, a second argument that cannot be hashed) are evaluated as they are."""
    import collections
    import operator
    from rulewright.compiler.interpret import memo
    classes = {"a": 0, "b": 0, "c": 1, "d": 2}
    Rec = collections.namedtuple("Rec", "kind place other")
    kinds = [("one", classes), ("in order", classes), ("fields", operator.attrgetter("kind", "place"))]
    rng = random.Random(11)

    def made(how):
        if how == "fields":
            return Rec(rng.choice("xy"), rng.choice((1, 2)), rng.random())
        if how == "one":
            return rng.choice("abcde")          # ("e": no class)
        return tuple(rng.choice("abcd") for _ in range(rng.randrange(4)))

    def key_of(how, by, x):
        if how == "fields":
            return by(x)
        if how == "one":
            return classes[x]
        return tuple(classes[v] for v in x)
    for how, by in kinds:
        for arity in (1, 2):
            for name in (None, "f"):
                def value(*args):
                    try:
                        k = key_of(how, by, args[0])
                    except KeyError:
                        k = ("own", args[0])
                    return (k, *args[1:])
                fn = (lambda a: value(a)) if arity == 1 else (lambda a, b: value(a, b))   # (the memo reads the arity)
                keyed = {0: (how, by)}
                shared: dict = {}
                trial = memo.remembered(fn, shared, name, {}, "f", keyed)
                lean = memo._lean_by_classes(fn, shared, memo._by_classes(keyed, arity, name), keyed, arity, name)
                for remembers in (trial, lean, trial):
                    for _ in range(300):
                        args = (made(how),) + ((rng.choice((1, 2, [3])),) if arity == 2 else ())
                        assert remembers(*args) == fn(*args), (how, arity, name, args)
                assert all(isinstance(k, tuple) and k[0] == name for k in shared) if name else shared
