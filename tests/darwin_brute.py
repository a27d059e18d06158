"""Brute force for the Darwin's Choice queries: every option the play rules offer,
each valued through the interpreter (the oracle of the differential tests and the
baseline of benchmarks/darwin_queries.py).

Only spec definitions are called (well_formed, creatable, single_mutations, changes,
double_seconds, destinations, query_value...): the rules are the spec's, this module
only enumerates.
"""
from __future__ import annotations

from rulewright.compiler.semantics import runtime as rt


def _world(st):
    return tuple(st.shared["world"])


def create_options(it, st, p, goal, allow_trade=False, rules_list=False):
    """(value, cards, continent, traded) of every legal creation: from every
    sub-collection of the hand, or with ``rules_list`` from the play rules' own list
    (``creations``, which tries only groups small enough to be a species)."""
    out = []
    if st.per["passed"][p]:
        return out          # no main action for the rest of the Era
    hand = st.per["hand"][p]
    swaps = [(None, None)]
    if allow_trade and hand.cards and st.shared["trade_zone"].cards:
        swaps += [(g, t) for g in dict.fromkeys(hand.cards) for t in dict.fromkeys(st.shared["trade_zone"].cards)]
    saved = list(hand.cards)
    try:
        for give, got in swaps:
            if give is not None:
                cards = list(saved)
                cards.remove(give)
                hand.cards[:] = cards + [got]
            made = it.call("creations", p, state=st) if rules_list else _every_creation(it, st, p)
            for ks, c in made:
                s = it.call("newborn", p, ks, c)
                v = it.call("query_value", goal, s, _world(st) + (s,))
                out.append((v, ks, c, (give, got)))
            hand.cards[:] = saved
    finally:
        hand.cards[:] = saved
    return out


def _every_creation(it, st, p):
    """(cards, continent) of every creation: every sub-collection of the hand on every
    continent, each checked by the spec's rules. (The spec's own ``creations`` lists the
    same, trying only groups small enough to be a species; brute force tries them all.)"""
    if not it.call("marker_free", p, state=st):
        return []
    in_play = st.shared["in_play"]
    return [(ks, c) for ks in rt.subsets_of(st.per["hand"][p].cards) if it.call("well_formed", ks, state=st)
            for c in in_play if it.call("creatable", p, ks, c, state=st)]


def _actor(it, st, p, sid):
    """The species the player may act on, or None (all of them once they have passed)."""
    if st.per["passed"][p]:
        return None
    s = next((t for t in _world(st) if t.f_id == sid), None)
    return s if s is not None and it.call("may_act", p, s, state=st) else None


def mutation_options(it, st, p, sid, goal):
    """(value, cards, cost) of every legal single and double mutation of a species."""
    world = _world(st)
    s = _actor(it, st, p, sid)
    if s is None:
        return []
    hand = tuple(st.per["hand"][p].cards)
    out = []

    def value(cards, cost):
        s2 = it.call("mutated", s, cards, cost)
        return it.call("mutation_value", goal, s, s2, it.call("replaced", world, s, s2), cost)

    single = it.call("single_cost", state=st)
    for ch in it.call("single_mutations", p, s, state=st):
        cards = it.call("after", s.f_cards, ch)
        out.append((value(cards, single), cards, single))
    double = it.call("double_cost", s)
    for c1 in it.call("changes", s.f_cards, hand):
        for c2 in it.call("double_seconds", p, s, c1):
            cards = it.call("after", it.call("after", s.f_cards, c1), c2)
            out.append((value(cards, double), cards, double))
    return out


def migration_options(it, st, p, sid, goal):
    world = _world(st)
    s = _actor(it, st, p, sid)
    if s is None:
        return []
    out = []
    for c in it.call("destinations", s, state=st):
        m = it.call("moved", s, c)
        out.append((it.call("query_value", goal, m, it.call("replaced", world, s, m)), c))
    return out


def best(options):
    return max((o[0] for o in options), default=None)


def best_move(it, st, p, goal, allow_trade=False):
    """The best main action the play rules offer (those a version of the game allows);
    with ``allow_trade``, a creation may first swap a hand card for a Trade Zone card.
    Within a turn under main_actions = per_species where the player has acted: a
    further action, with no trade and no second creation."""
    allowed = {a: it.call("action_allowed", p, a, state=st) for a in ("create", "mutate", "migrate")}
    if st.shared["acted_this_turn"] and st.shared["to_move"] == p and it.call("main_actions") == "per_species":
        allow_trade = False
        allowed["create"] = allowed["create"] and not st.shared["created_this_turn"]
    values = [best(create_options(it, st, p, goal, allow_trade=allow_trade))] if allowed["create"] else []
    for s in it.call("movable", p, state=st):  # noqa
        if allowed["mutate"]:
            values.append(best(mutation_options(it, st, p, s.f_id, goal)))
        if allowed["migrate"]:
            values.append(best(migration_options(it, st, p, s.f_id, goal)))
    values = [v for v in values if v is not None]
    return max(values, default=None)
