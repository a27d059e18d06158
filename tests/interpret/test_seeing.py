"""What a seat knows when piles are passed on together (``Knowledge.passed``,
compiler/interpret/seeing.py): what it saw go, or knew of a pile that went, is known in a
remembered pile it does not see; nothing of a pile it sees, nor of one not remembered;
what it knew of a pile that was passed on is gone from that pile. The changes are worked
out when what a seat knows is read (a game no seat asks never pays for them): worked out
then, in turn with copies, they give what working each out at once gives."""
import random

import pytest

from rulewright.compiler.interpret.seeing import Knowledge


def _knowledge(kept: set, known: dict, lazy: bool = True) -> Knowledge:
    k = Knowledge.__new__(Knowledge)
    k.seats = ("p1", "p2", "p3")
    k.places = {}
    k._everyone = frozenset(k.seats)
    k._seers = {f"hand({s})": frozenset({s}) for s in k.seats}       # each sees only its own hand
    k._seers["board"] = k._everyone
    k._kept = frozenset(kept)
    k._known = {s: dict(known.get(s, {})) for s in k.seats}
    k._owed = [] if lazy else None
    return k


def test_hands_passed_on_together():
    k = _knowledge({"hand(p1)", "hand(p2)"},
                   {"p1": {"hand(p3)": ["x"]}, "p2": {"hand(p3)": ["w"], "deck": ["d"]}, "p3": {"hand(p1)": ["z"]}})
    # each hand goes to the next seat: hand(p1) -> hand(p2) -> hand(p3) -> hand(p1)
    k.passed([(["a", "b"], "hand(p1)", "hand(p2)"), (["c"], "hand(p2)", "hand(p3)"),
              (["e"], "hand(p3)", "hand(p1)")])
    # p1 saw its cards go to p2's hand, remembered; of its own hand it needs no knowledge
    assert k.known["p1"] == {"hand(p2)": ["a", "b"]}
    # p2 saw its cards go to p3's hand, not remembered: nothing known there; what it knew of
    # p3's hand went with that hand to p1's, remembered
    assert k.known["p2"] == {"deck": ["d"], "hand(p1)": ["w"]}
    # p3 knew a card of p1's hand, which went to p2's: known there now; and it saw its own
    # go to p1's
    assert k.known["p3"] == {"hand(p2)": ["z"], "hand(p1)": ["e"]}


PILES = ["hand(p1)", "hand(p2)", "hand(p3)", "deck", "board", "discard"]


def _changes(rng: random.Random, n: int) -> list:
    """``n`` random changes of the piles, as the game reports them."""
    out = []
    for _ in range(n):
        kind = rng.choice(["moved", "moved_all", "taken", "passed", "revealed", "read", "copy"])
        cards = [rng.choice("abcdef") for _ in range(rng.randrange(0, 4))]
        a, b = rng.sample(PILES, 2)
        if kind in ("moved", "moved_all"):
            out.append((kind, (cards, a, b)))
        elif kind == "taken":
            out.append((kind, (cards, a)))
        elif kind == "passed":
            hands = PILES[:3]
            out.append((kind, ([([rng.choice("abc")], h, hands[(i + 1) % 3]) for i, h in enumerate(hands)],)))
        elif kind == "revealed":
            out.append((kind, (cards, a, rng.choice([None, "p1", "p2", "p3"]), rng.random() < 0.5)))
        else:
            out.append((kind, ()))
    return out


@pytest.mark.parametrize("seed", range(30))
def test_changes_worked_out_when_read_are_those_worked_out_at_once(seed):
    rng = random.Random(seed)
    kept = {"hand(p1)", "hand(p2)", "hand(p3)", "discard"}
    lazy, eager = _knowledge(kept, {}), _knowledge(kept, {}, lazy=False)
    copies, deferred = [], 0
    for kind, args in _changes(rng, 60):
        if kind == "read":
            assert lazy.known == eager.known
            assert lazy.of("p2", "hand(p1)") == eager.of("p2", "hand(p1)")
        elif kind == "copy":        # (a copy goes on apart: checked at the end)
            copies.append((lazy.copy(), eager.copy(), len(copies)))
        else:
            getattr(lazy, kind)(*args)
            getattr(eager, kind)(*args)
        assert eager._owed is None
        deferred = max(deferred, len(lazy._owed))
    assert deferred > 0                         # (the lazy one did wait)
    assert lazy.known == eager.known and not lazy._owed
    for a, b, i in copies:
        a.moved(["z"], "hand(p1)", "discard")
        b.moved(["z"], "hand(p1)", "discard")
        assert a.known == b.known, i
    assert lazy.known == eager.known            # (the copies changed apart)


def test_a_game_no_one_reads_keeps_few_changes_unworked(monkeypatch):
    from rulewright.compiler.interpret import seeing
    monkeypatch.setattr(seeing, "MOST_OWED", 10)
    lazy, eager = _knowledge({"discard"}, {}), _knowledge({"discard"}, {}, lazy=False)
    for i in range(35):
        for k in (lazy, eager):
            k.moved(["a"], "hand(p1)", "discard")
        assert len(lazy._owed) <= 10
    assert lazy.known == eager.known
