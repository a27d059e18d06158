"""What each seat knows of the piles it does not see, kept as a game is played.

In:  the program (who sees each pile: ``seen by all``, ``owner`` or ``nobody``, and
     whether a pile is ``remembered``), the game's seats, and every change of a pile the
     game makes (``GameState`` reports its deals, moves, passes, places and reveals).
Out: ``Knowledge``: for each seat, the cards it knows are in each pile it does not see
     (a multiset: a pile's order stays hidden); ``Knowledge.of(seat, pile)``.

A seat sees a pile seen by all, and one seen by its owner when it is the owner. Cards the
seat saw go into a pile it does not see (it saw them where they were, or where they
went) are known there when the pile is ``remembered``; ``reveal`` shows a pile's cards
to a seat or to every seat. Knowledge is never more than the seat could tell: when cards
leave a pile without the seat seeing which, what it knew of that pile is forgotten.
Only games whose spec remembers a pile or reveals one keep it (else nothing is known
beyond what a seat sees).
"""
from __future__ import annotations

from collections import Counter
from typing import Iterable

from rulewright.compiler import ir as I


MOST_OWED = 4096        # changes kept unworked at most (then worked out at once)


def piles(program: I.Program, seats) -> dict[str, tuple[I.StateVarDef, str | None]]:
    """Every pile of the state by its name in the game (``deck``, ``hand(p1)``,
    ``lair(north)``): its declaration and the seat it is kept for (None when shared)."""
    out: dict[str, tuple[I.StateVarDef, str | None]] = {}
    for var in program.state.values():
        if not var.is_pile:
            continue
        if var.per_seat:
            for s in seats:
                out[f"{var.name}({s.name})"] = (var, s.name)
        elif var.keyed:
            for k in program.enums[var.per].values:
                out[f"{var.name}({k})"] = (var, None)
        else:
            out[var.name] = (var, None)
    return out


def sees(var: I.StateVarDef, owner: str | None, seat: str) -> bool:
    """Whether ``seat`` sees the cards of a pile declared ``var`` kept for ``owner``."""
    return var.seen == "all" or (var.seen == "owner" and owner == seat)


def keeps_knowledge(program: I.Program) -> bool:
    """Whether a game of the program keeps what seats know of piles they do not see:
    some pile is remembered, or some procedure reveals one."""
    if any(v.remembered for v in program.state.values()):
        return True

    bodies = [p.body for p in program.procedures.values()] + [m.body for m in program.modes.values()]
    return any(isinstance(x, I.Reveal) for body in bodies for x in I.descendants(body))


def _without(cards: list, gone: Iterable) -> list:
    """``cards`` less one copy of each of ``gone`` that is among them (the first copies)."""
    out = list(cards)
    for c in gone:
        if c in out:
            out.remove(c)
    return out


class Knowledge:
    """For each seat, the cards it knows lie in each pile it does not see."""

    def __init__(self, program: I.Program, seats, lazy: bool = True):
        self.places = piles(program, seats)
        self.seats = tuple(s.name for s in seats)
        self._known: dict[str, dict[str, list]] = {s: {} for s in self.seats}
        # the changes not yet worked out, in order (``lazy``): worked out when what a seat
        # knows is read, so a game whose seats never ask (random seats, a study's games)
        # never pays for them; each change's lists are the state's own copies, never changed
        self._owed: list | None = [] if lazy else None
        # the seats that see each pile, and the piles remembered (read on every change)
        self._seers = {pile: frozenset(s for s in self.seats if sees(var, owner, s))
                       for pile, (var, owner) in self.places.items()}
        self._everyone = frozenset(self.seats)
        self._kept = frozenset(pile for pile, (var, _) in self.places.items() if var.remembered)

    def copy(self) -> "Knowledge":
        """The same knowledge, to change apart (the declarations shared; the changes not
        yet worked out shared too, each copy working them out when it is read)."""
        new = Knowledge.__new__(Knowledge)
        new.places, new.seats = self.places, self.seats
        new._seers, new._everyone, new._kept = self._seers, self._everyone, self._kept
        new._known = {seat: {pile: list(cards) for pile, cards in piles.items()} for seat, piles in self._known.items()}
        new._owed = None if self._owed is None else list(self._owed)
        return new

    @property
    def known(self) -> dict[str, dict[str, list]]:
        """Seat name -> pile -> the cards the seat knows are there (every change so far
        worked out)."""
        owed = self._owed
        if owed:
            self._owed = []
            for change, args in owed:
                change(self, *args)
        return self._known

    def _owe(self, change, args: tuple) -> None:
        """A change of the piles: worked out now, or kept for when what a seat knows is read."""
        owed = self._owed
        if owed is None:
            change(self, *args)
        else:
            owed.append((change, args))
            if len(owed) > MOST_OWED:
                self.known          # noqa: B018 (a long game no one reads: worked out, to keep few)

    def __deepcopy__(self, memo) -> "Knowledge":
        return self.copy()

    def _sees(self, pile: str, seat: str) -> bool:
        return seat in self._seers.get(pile, self._everyone)

    def _remembered(self, pile: str) -> bool:
        return pile in self._kept

    def of(self, seat: str, pile: str) -> list:
        """The cards ``seat`` knows are in ``pile`` (one it does not see)."""
        return list(self.known.get(seat, {}).get(pile, ()))

    # ------------------------------------------------------------ the game's changes
    def moved(self, items: list, source: str, target: str) -> None:
        self._owe(Knowledge._moved, (items, source, target))

    def _moved(self, items: list, source: str, target: str) -> None:
        """Named cards moved from one pile to another: a seat that sees either end sees
        which; one that sees neither forgets what it knew of the source."""
        from_seen, to_seen = self._seers.get(source, self._everyone), self._seers.get(target, self._everyone)
        kept = target in self._kept
        for seat in self.seats:
            known = self._known[seat]
            if seat in to_seen:
                if source in known:
                    known[source] = _without(known[source], items)
            elif seat in from_seen:
                if source in known:
                    known[source] = _without(known[source], items)
                if kept:
                    known.setdefault(target, []).extend(items)
            else:
                known.pop(source, None)

    def moved_all(self, items: list, source: str, target: str) -> None:
        self._owe(Knowledge._moved_all, (items, source, target))

    def _moved_all(self, items: list, source: str, target: str) -> None:
        """A whole pile moved onto another (every seat sees it go): what a seat saw or
        knew of it is known in the target when the target is remembered."""
        for seat in self.seats:
            known = self._known[seat]
            seen = items if self._sees(source, seat) else known.get(source, [])
            known.pop(source, None)
            if seen and not self._sees(target, seat) and self._remembered(target):
                known.setdefault(target, []).extend(seen)

    def taken(self, items: list, source: str) -> None:
        self._owe(Knowledge._taken, (items, source))

    def _taken(self, items: list, source: str) -> None:
        """Cards left a pile for no pile: a seat that does not see the pile cannot tell which."""
        for known in self._known.values():
            known.pop(source, None)

    def passed(self, moves: list[tuple[list, str, str]]) -> None:
        self._owe(Knowledge._passed, (moves,))

    def _passed(self, moves: list[tuple[list, str, str]]) -> None:
        """Piles passed on together (each ``(cards, from, to)``): as many whole moves at once."""
        sources = {m[1] for m in moves}
        everyone, seers = self._everyone, self._seers
        # each move once: who sees its source, and its target when the target is remembered
        # (a target no one keeps in mind is known of by no one)
        kept = [(items, source, target, seers.get(source, everyone), seers.get(target, everyone))
                for items, source, target in moves if target in self._kept]
        for seat in self.seats:
            before = self._known[seat]
            known: dict[str, list] = {k: v for k, v in before.items() if k not in sources}
            for items, source, target, from_seen, to_seen in kept:
                seen = items if seat in from_seen else before.get(source, [])
                if seen and seat not in to_seen:
                    known[target] = list(seen)
            self._known[seat] = known

    def revealed(self, cards: list, pile: str, seat: str | None, whole: bool = True) -> None:
        self._owe(Knowledge._revealed, (cards, pile, seat, whole))

    def _revealed(self, cards: list, pile: str, seat: str | None, whole: bool = True) -> None:
        """Cards of a pile shown to one seat (every seat when None): all of them
        (``whole``), or some, which the seat then knows besides what it knew."""
        for s in self.seats if seat is None else (seat,):
            if s in self._known and not self._sees(pile, s):
                if whole:
                    self._known[s][pile] = list(cards)
                else:
                    before = Counter(self._known[s].get(pile, ()))
                    self._known[s][pile] = list((before | Counter(cards)).elements())

    def check(self, contents: dict[str, list]) -> None:
        """Keep only what is still true of the piles' ``contents`` (a position read from
        a file may hold other cards than the game that led to it)."""
        for seat, known in self.known.items():
            for pile in list(known):
                there = Counter(contents.get(pile, ()))
                kept = []
                for c in known[pile]:
                    if there[c] > 0:
                        there[c] -= 1
                        kept.append(c)
                known[pile] = kept


__all__ = ["Knowledge", "piles", "sees", "keeps_knowledge"]
