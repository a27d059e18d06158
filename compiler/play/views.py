"""What one seat may know of a position, and full positions consistent with it.

In:  a ``GameState`` (a played game's, or one read from a state file), a seat's name; for
     a determinization, a random generator.
Out: ``view``: the position as that seat may know it (schema ``rulewright-view/1``,
     docs/state.md): every public value as a state file writes it, each pile the seat does
     not see as its size, the cards the seat knows are in it, and the backs of the others
     (``showing``); ``show_view``: the same, readably; ``determinize``: a full position
     whose view for that seat is the same, the cards the seat has not seen dealt again at
     random among the piles it does not see (each card to a pile holding cards of its
     type and back); ``unseen_piles``: the piles hidden from a seat.

A spec that declares nothing (``seen by`` on no pile) hides nothing: every seat's view is
the whole position.
"""
from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

from rulewright.compiler import ir as I
from rulewright.compiler.semantics import render, runtime as rt
from rulewright.compiler.interpret.seeing import sees
from rulewright.compiler.play import state_io

FORMAT = "rulewright-view/1"


def hides_anything(program: I.Program) -> bool:
    """Whether the spec hides some pile from some seat."""
    return any(not v.public for v in program.state.values())


def _seat(state, name: str):
    """The seat called ``name`` (a seat's name: the faces resolve titles and numbers,
    ``app.asking.seat_named``)."""
    return next(s for s in state.seats if s.name == name)


def _zone_of(state, var: I.StateVarDef, key) -> rt.Zone:
    if var.keyed:
        return state.per[var.name][key]
    return state.shared[var.name]


def _backs(program: I.Program, var: I.StateVarDef):
    """The back of each card of a pile, as a function of the card: the value of the pile's
    ``showing`` field (None without one). What does not depend on the card is looked up
    once: a pile's cards are many."""
    if var.showing is None:
        return lambda card: None
    info = program.enums.get(getattr(var.type.elem, "name", ""))
    if info is not None and var.showing in info.attrs:
        return info.attrs[var.showing].get
    field = f"f_{var.showing}"      # (a record's field, as the generated code names it)
    return lambda card: getattr(card, field, None) if render.is_record(card) else getattr(card, var.showing, None)


def known_of(state, seat: str, zone: rt.Zone) -> list:
    """The cards ``seat`` knows are in ``zone``: what the game's knowledge says, kept only
    where still true of the pile's cards."""
    knowledge = getattr(state, "knowledge", None)
    if knowledge is None:
        return []
    cards = Counter(zone.cards)
    out = []
    for c in knowledge.of(seat, zone.name):
        if cards[c] > 0:
            cards[c] -= 1
            out.append(c)
    return out


def _keys(state):
    """(declaration, key) of every state variable's value: key None for shared state, the
    seat for per-seat state, the value of the enum for per-key state."""
    program = state.interp.program
    for var in program.state.values():
        if var.per_seat:
            for s in state.seats:
                yield var, s
        elif var.keyed:
            for k in program.enums[var.per].values:
                yield var, k
        else:
            yield var, None


def _owner(var: I.StateVarDef, key) -> str | None:
    return key.name if var.per_seat else None


def unseen_piles(state, seat: str) -> list[tuple[I.StateVarDef, Any]]:
    """The piles ``seat`` does not see, as (declaration, key)."""
    return [(var, key) for var, key in _keys(state)
            if not var.public and not sees(var, _owner(var, key), seat)]


def _hidden_entry(state, var: I.StateVarDef, key, seat: str) -> dict:
    program = state.interp.program
    zone = _zone_of(state, var, key)
    known = known_of(state, seat, zone)
    entry: dict[str, Any] = {"hidden": True, "size": len(zone.cards),
                             "known": render.typed_json(program, var.type, known)}
    if var.showing is not None:
        unseen = Counter(zone.cards) - Counter(known)
        backs: Counter = Counter()
        back_of = _backs(program, var)
        for card, n in unseen.items():
            backs[back_of(card)] += n
        entry["showing"] = var.showing
        entry["backs"] = {str(render.jsonable(b)): n for b, n in sorted(backs.items(), key=lambda x: str(x[0]))}
    return entry


def view(state, seat: str) -> dict:
    """What ``seat`` (a seat's name) may know of the position, as a JSON-ready document:
    the state file's entries (``state_io.dump``), its seed null, each pile hidden from
    the seat in place of its cards."""
    who = _seat(state, seat).name
    whole = state_io.dump(state)
    whole["seed"] = None            # (the seed deals every hidden card: never in a view)
    doc: dict[str, Any] = {"format": FORMAT, "seat": who, **{k: v for k, v in whole.items() if k != "format"}}
    for var, key in unseen_piles(state, who):
        entry = _hidden_entry(state, var, key, who)
        if var.per_seat:
            doc["per_seat"][var.name][key.name] = entry
        elif var.keyed:
            doc["per_key"][var.name][str(key)] = entry
        else:
            doc["state"][var.name] = entry
    return doc


def _hidden_text(entry: dict) -> str:
    n = entry["size"]
    parts = [f"{n} card{'s' if n != 1 else ''}, hidden"]
    known = entry["known"]
    if known:
        whom = "all of them" if len(known) == n else f"{len(known)} of them"
        parts.append(f"you know {whom}: " + ", ".join(render.text(c) for c in known))
    if entry.get("backs"):
        parts.append(f"by {render.words(entry['showing'])}: "
                     + ", ".join(f"{v} {k}" for k, v in entry["backs"].items()))
    return "; ".join(parts)


def show_view(state, seat: str, header: bool = True) -> list[str]:
    """The position as ``seat`` may know it, readably: as ``state_io.show`` shows a whole
    position, each pile the seat does not see as its size and what the seat knows of it
    (``header``: the game's title and the seat first)."""
    program = state.interp.program
    who = _seat(state, seat)
    doc = view(state, who.name)
    lines = [f"{program.title}" + (f", mode {state.mode}" if state.mode else "")
             + (f", stopped at {state.stopped}" if state.stopped else ""),
             f"as {who.title} ({who.name}) sees it"] if header else []

    def shown(var: I.StateVarDef, key):
        entry = (doc["per_seat"][var.name][key.name] if var.per_seat else
                 doc["per_key"][var.name][str(key)] if var.keyed else doc["state"][var.name])
        return entry if isinstance(entry, dict) and entry.get("hidden") is True else None

    def value_of(var: I.StateVarDef, key):
        return state.per[var.name][key] if var.keyed else state.shared[var.name]

    def entry(var: I.StateVarDef, key, indent: str) -> list[str]:
        hidden = shown(var, key)
        if hidden is not None:
            return [f"{indent}{render.words(var.name)}: {_hidden_text(hidden)}"]
        return render.block(var.name, value_of(var, key), indent)
    shared = [v for v in program.state.values() if not v.keyed]
    if shared:
        if header:
            lines += ["", "shared"]
        for var in shared:
            lines += entry(var, None, "  " if header else "")
    by_key: dict[str, list] = {}
    for v in program.state.values():
        if v.keyed and not v.per_seat:
            by_key.setdefault(v.per, []).append(v)
    for per, vars_ in by_key.items():
        lines += ["", f"per {per}"] if header else [f"per {per}:"]
        for key in program.enums[per].values:
            parts = []
            for var in vars_:
                hidden = shown(var, key)
                parts.append(f"{render.words(var.name)} "
                             + (_hidden_text(hidden) if hidden is not None
                                else render.text(value_of(var, key), render.LONG_PILE)))
            lines.append(f"  {key}: " + "; ".join(parts))
    per_seat = [v for v in program.state.values() if v.per_seat]
    for s in state.seats:
        if per_seat:
            lines += ["", s.title + (" (you)" if s.name == who.name else "")]
            for var in per_seat:
                lines += entry(var, s, "  ")
    if state.reports:
        lines += ["", "reports"]
        for name, value in state.reports.items():
            lines += render.block(name, render.jsonable(value, state=True), "  ")
    return lines


def determinize(state, seat: str, rng: random.Random):
    """A full position ``seat`` cannot tell from ``state``: the same public values, the
    same piles it sees, the same sizes, known cards and backs of the piles it does not
    see; the cards it has not seen there dealt again at random among those piles (a card
    only to a pile of its type, showing the same field, among the places of cards with
    the same back). The position has its own random generator (from ``rng``) and no
    history: nothing of the true game's future or past is in it."""
    program = state.interp.program
    who = _seat(state, seat).name
    new = copy.copy(state)
    new.shared = {k: _fresh(v) for k, v in state.shared.items()}
    new.per = {k: {kk: _fresh(vv) for kk, vv in d.items()} for k, d in state.per.items()}
    new.rng = random.Random(rng.getrandbits(64))
    new.seed = None
    new.log, new.history, new.replay, new.forward = [], [], None, None
    new.agents = {}
    new.options_watch = None
    new.knowledge = None if state.knowledge is None else state.knowledge.copy()
    # the places of unseen cards, by pool: (type, field shown, back) -> [(zone, index)]
    places: dict[tuple, list[tuple[rt.Zone, int]]] = {}
    cards: dict[tuple, list] = {}
    for var, key in unseen_piles(new, who):
        zone = _zone_of(new, var, key)
        known = dict(Counter(known_of(state, who, zone)))
        kind, back_of, pools = str(var.type.elem), _backs(program, var), {}
        for i, card in enumerate(zone.cards):
            if known.get(card, 0) > 0:
                known[card] -= 1
                continue                     # a card the seat knows stays where it is
            back = back_of(card)
            pool = pools.get(back)
            if pool is None:
                pool = pools[back] = (kind, var.showing, back)
                places.setdefault(pool, [])
                cards.setdefault(pool, [])
            places[pool].append((zone, i))
            cards[pool].append(card)
    for pool, where in places.items():
        # (in an order of their own: two positions with the same view deal the same from one seed)
        dealt = sorted(cards[pool], key=repr)
        rng.shuffle(dealt)
        for (zone, i), card in zip(where, dealt):
            zone.cards[i] = card
    return new


def blind(state, seat: str, rng: random.Random):
    """The position an agent of ``seat`` decides from: the true one when the spec hides
    nothing from that seat, else a determinization from the agent's own ``rng`` (so
    two positions with the same view give the agent the same position)."""
    if not unseen_piles(state, seat):
        return state
    return determinize(state, seat, rng)


def _fresh(value):
    if isinstance(value, rt.Zone):
        return rt.Zone(value.name, list(value.cards))
    return value


__all__ = ["FORMAT", "view", "show_view", "determinize", "blind", "unseen_piles", "hides_anything",
           "known_of"]
