"""What a seat knows when piles are passed on together (``Knowledge.passed``,
compiler/interpret/seeing.py): what it saw go, or knew of a pile that went, is known in a
remembered pile it does not see; nothing of a pile it sees, nor of one not remembered;
what it knew of a pile that was passed on is gone from that pile."""
from rulewright.compiler.interpret.seeing import Knowledge


def _knowledge(kept: set, known: dict) -> Knowledge:
    k = Knowledge.__new__(Knowledge)
    k.seats = ("p1", "p2", "p3")
    k._everyone = frozenset(k.seats)
    k._seers = {f"hand({s})": frozenset({s}) for s in k.seats}       # each sees only its own hand
    k._kept = frozenset(kept)
    k.known = {s: dict(known.get(s, {})) for s in k.seats}
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
