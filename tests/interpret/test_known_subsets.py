"""An enumeration of subsets filtered by a definition remembered in any order
(``for x in subsets(C, n) if f(x)``): the generated loop reads the definition's remembered
values along the enumeration (``memo.known_subsets``, the keys made by
``runtime.subsets_along``), and gives what the loop gave before, in the same order, its
steps counted the same."""
import random

from rulewright.compiler import load
from rulewright.compiler.interpret import Interpreter, memo
from rulewright.compiler.semantics import runtime as rt

from helpers import same_as_baseline, spec

CARDS = """
game g "G"
enum part { head, body, legs }
table card "Card" (part: part, cost: int) {
  lion_head  | head | 2
  fish_head  | head | 1
  lion_body  | body | 3
  fish_body  | body | 0
  lion_legs  | legs | 1
  bird_legs  | legs | 0
}
def formed(cards: pile of card) = size([k for k in cards if k.part == head]) == 1
  and size([k for k in cards if k.part == body]) == 1 and sum(k.cost for k in cards) >= 2
def teams(hand: pile of card) = [ks for ks in subsets(hand, 3) if formed(ks)]
def all_groups(hand: pile of card) = [ks for ks in subsets(hand) if formed(ks)]
def any_group(hand: pile of card) = any(any(true for i in [1]) for ks in subsets(hand, 3) if formed(ks))
def heads(hand: pile of card) = count(ks for ks in subsets(hand, 2) if formed(ks))
"""

CARD_NAMES = ["lion_head", "fish_head", "lion_body", "fish_body", "lion_legs", "bird_legs"]


def test_subsets_made_along_a_loop_are_those_listed_with_their_sums_in_the_same_order():
    """``subsets_along``: as many as ``subsets_of`` lists, the same ones in the same order,
    made as they are reached (or the ones kept for the collection), each with the sum of
    its values' weights; nothing told where ``subsets_of`` is to say what it says (values
    that are not texts, too many subsets) or a value has no weight."""
    rng = random.Random(8)
    weights = {v: 1 << 4 * i for i, v in enumerate("abcdef")}
    for _ in range(400):
        pool = "abcdefg" if rng.random() < 0.1 else "abcdef"[:rng.randrange(1, 7)]
        items = tuple(rng.choice(pool) for _ in range(rng.randrange(10)))
        most = rng.choice((None, 0, 1, 2, 3, 6, 20))
        if "g" in items:                    # (a value with no weight: nothing is told)
            assert rt.subsets_along(items, most, weights) is None
            continue
        subs = rt.subsets_of(items, most) if most is not None else rt.subsets_of(items)
        for kept in (False, True):          # (made along; then kept, handed out as they are)
            if not kept:
                rt._SUBSETS.clear()
            count, along, sums = rt.subsets_along(items, most, weights)
            assert count == len(subs) and tuple(along) == subs, (items, most)
            assert list(sums) == [sum(weights[v] for v in s) for s in subs], (items, most)
            rt.subsets_of(items, most)
    assert rt.subsets_along((3, 1, 2), None, {1: 1, 2: 16, 3: 256}) is None
    assert rt.subsets_along(tuple(f"v{i}" for i in range(40)), None, {f"v{i}": 1 for i in range(40)}) is None


def test_a_loop_over_subsets_filtered_by_a_remembered_definition_is_the_baseline_s(tmp_path, monkeypatch):
    monkeypatch.setattr(memo, "MARGIN", 0)      # (the memo pays whatever the machine's speed: it is kept)
    monkeypatch.setattr(memo, "_CLOCK_COST", 0)
    program = load(spec(tmp_path, CARDS))
    fast, slow = Interpreter(program), Interpreter(program, fast=False)
    assert fast.source.count("_MS(") == 4 and "_MS(" not in slow.source
    rng = random.Random(7)
    hands = [tuple(rng.choice(CARD_NAMES) for _ in range(rng.randrange(8))) for _ in range(150)]
    for _ in range(2):      # (the second time round the memo has settled and is read in bulk)
        for _ in range(memo.TRIAL_CALLS // 40):
            for hand in hands:
                fast.call("heads", hand)
        for hand in hands:
            for name in ("teams", "all_groups", "any_group", "heads"):
                same_as_baseline(fast, slow, name, hand)
    assert hasattr(fast.ns["f_formed"], "weights")          # (read in bulk by then)


def test_known_subsets_gives_each_subset_the_value_remembered_or_missing():
    """Against a memo keyed in any order: every value it gives is the definition's; the
    ones missing are those the memo does not hold; those it holds false are not given;
    the loop's steps are counted once, as the enumeration's; past the sizes the sum keys,
    nothing is known."""
    classes = {"a": 0, "b": 0, "c": 1, "d": 2}

    def valid(ks):
        return sum(classes[k] for k in ks) == 2
    shared: dict = {}
    lean = memo._lean_by_classes(valid, shared, None, {0: ("any order", classes)}, 1)
    rng = random.Random(2)
    for hand in [tuple(rng.choice("abcd") for _ in range(rng.randrange(7))) for _ in range(60)]:
        for most in (None, 2, 4):
            subs = rt.subsets_of(hand) if most is None else rt.subsets_of(hand, most)
            with rt.bounded("test", 10_000):
                before = rt._BUDGET.left
                pairs = list(memo.known_subsets(lean, hand, most, None))
                assert before - rt._BUDGET.left == len(subs) + 1
            given = [s for s, _ in pairs]       # (in order; those the memo holds false passed over)
            assert given == [s for s in subs if s in given]
            for s in subs:          # (passed over: exactly those the memo holds false)
                held = shared.get(sum(1 << 4 * classes[k] for k in s), memo.MISSING)
                assert (s not in given) == (held is False)
            for s, value in pairs:
                assert value is memo.MISSING or value == valid(s)
                if value is memo.MISSING:
                    assert lean(s) == valid(s)
            assert all(v is not memo.MISSING for _, v in memo.known_subsets(lean, hand, most, None))
    # sixteen of a class would carry into the next one's digit of a sum: (a x 16, c) would
    # read the value of (c, c)
    assert lean(("c", "c")) is True
    big = ("a",) * 16 + ("c",)
    assert all(v is memo.MISSING for _, v in memo.known_subsets(lean, big, None, None))
    under = list(memo.known_subsets(lean, big, 15, None))      # (under sixteen values: read)
    everything = rt.subsets_of(big, 15)
    assert len(everything) == 31 and len(under) < 31       # (some known false: passed over)
    given = [s for s, _ in under]
    assert given == [s for s in everything if s in given]
    assert not any(valid(s) for s in everything if s not in given)
    assert all(v is memo.MISSING or v == valid(s) for s, v in under)
    assert all(v is memo.MISSING for _, v in memo.known_subsets(valid, ("a", "c"), None, None))
