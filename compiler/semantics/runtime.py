"""Run-time values and helpers of the reference interpreter.

In:  nothing game-specific; the generated code (``interpret``) calls these.
Out: ``Board`` (a grid of enum values, floating or anchored), ``Seat``,
     ``Score`` (an int that remembers its steps and choices), ``Relation``
     (cell offsets and rays: ``relations``), and the helpers behind grid operators.

Values: ints, bools, texts and enum values are Python ints, bools and strs;
a cell is a ``(row, column)`` tuple counted from 0 at the top left; piles and
lists are tuples; sets are tuples without duplicates in first-seen order (a set a
record holds, in the order ``in_order`` gives: ``record_class``).
"""
from __future__ import annotations

import collections
import itertools
import math
import os
import threading
import weakref
from dataclasses import dataclass, field
from typing import Any, Iterable

from rulewright.compiler.diagnostics import RuntimeRulesError
# the step budget of every evaluation, ranking and allocating, and the cells near a grid's cards,
# in modules of their own; the generated code and the rest of the compiler read them here
# (rt.bounded, rt.steps, rt.allocate, rt.near_cards)
from rulewright.compiler.semantics.allocation import allocate, ranked, served, sorted_by
from rulewright.compiler.semantics.near import carried, near_cards
from rulewright.compiler.semantics.relations import Relation, relation_of
from rulewright.compiler.semantics.budget import (MOST_NUMBERS, MOST_STEPS, OutOfSteps, _BUDGET, apart, bounded,
                                                  charge, steps, stop_counting, tick)

BUDGET = (MOST_STEPS, OutOfSteps, _BUDGET, apart, bounded, steps, stop_counting, tick)     # (read as rt.NAME elsewhere)
ALLOCATION = (allocate, ranked, served, sorted_by)
NEAR = (near_cards,)
RELATIONS = (Relation, relation_of)


# -------------------------------------------------------------------- boards
class CellSets(dict):
    """``sets[value]``: the frozenset of a board's cells holding ``value`` (empty for a
    value it does not hold), made from the board's index when first asked."""

    __slots__ = ("index",)

    def __missing__(self, value):
        cells = self[value] = frozenset(self.index.get(value, ()))
        return cells


class Board:
    """A grid of ``rows`` x ``cols`` cells holding enum values.

    A floating board is not anchored until it is full: a card may go on any
    free position as long as every card still fits in one ``rows`` x ``cols``
    window. Its cells are kept normalised so the top-left card of the bounding
    box is at (0, 0); placing left of or above it shifts every card.
    """

    __slots__ = ("grid", "rows", "cols", "floating", "cards", "_index", "_sets", "_free", "_hash", "_box",
                 "_contents", "_near")

    def __init__(self, grid: str, rows: int, cols: int, floating: bool,
                 cards: dict[tuple[int, int], str] | None = None):
        self.grid = grid
        self.rows = rows
        self.cols = cols
        self.floating = floating
        self.cards: dict[tuple[int, int], str] = dict(cards or {})
        self._index = None
        self._sets = None
        self._free = None           # its placements (computed once)
        self._hash = None
        self._box = False           # its bounding box (computed once; None: no card)
        self._contents = None       # its cards in reading order (computed once)
        self._near = None           # relation's table id -> (table, cells near its cards): near.py

    def index(self) -> dict:
        """Value -> the cells holding it, in reading order (built once: boards never change)."""
        index = self._index
        if index is None:
            index = {}
            get = self.cards.get
            for pos in frame(self.rows, self.cols):
                k = get(pos)
                if k is not None:
                    if k in index:
                        index[k].append(pos)
                    else:
                        index[k] = [pos]
            self._index = index
        return index

    def sets(self) -> "CellSets":
        """Value -> frozenset of the cells holding it (each made the first time it is asked:
        a scoring asks a few of the values a board holds)."""
        sets = self._sets
        if sets is None:
            sets = self._sets = CellSets()
            sets.index = self.index()
        return sets

    def __eq__(self, other):
        return isinstance(other, Board) and self.grid == other.grid and self.cards == other.cards

    def __hash__(self):
        h = self._hash
        if h is None:
            h = self._hash = hash((self.grid, frozenset(self.cards.items())))
        return h

    def __repr__(self):
        return f"Board({self.grid}, {self.cards})"

    def copy(self) -> "Board":
        return Board(self.grid, self.rows, self.cols, self.floating, self.cards)

    # bounding box of the cards, as (min_r, min_c, max_r, max_c)
    def bbox(self):
        box = self._box
        if box is False:
            if not self.cards:
                box = None
            else:
                rs = [r for r, _ in self.cards]
                cs = [c for _, c in self.cards]
                box = min(rs), min(cs), max(rs), max(cs)
            self._box = box
        return box

    def fits_with(self, pos) -> bool:
        box = self.bbox()
        if box is None:
            return True
        r0, c0, r1, c1 = box
        r, c = pos
        return max(r1, r) - min(r0, r) < self.rows and max(c1, c) - min(c0, c) < self.cols

    def render(self, empty: str = ".") -> list[list[str]]:
        return [[self.cards.get((r, c), empty) for c in range(self.cols)] for r in range(self.rows)]


def lone_card(board: Board):
    """A cell of a floating grid whose card is not connected, side by side, to the first
    card's (the first in reading order), or None: a floating grid grows card by card,
    each placed next to one already there."""
    if not board.floating or not board.cards:
        return None
    start = min(board.cards)
    seen, todo = {start}, [start]
    while todo:
        r, c = todo.pop()
        for q in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if q in board.cards and q not in seen:
                seen.add(q)
                todo.append(q)
    rest = sorted(set(board.cards) - seen)
    return rest[0] if rest else None


def normalised(board: Board) -> Board:
    if not board.floating:
        return board
    box = board.bbox()
    if box is None:
        return board
    r0, c0, r1, c1 = box
    if r0 == 0 and c0 == 0:
        return board
    out = Board(board.grid, board.rows, board.cols, board.floating,
                {(r - r0, c - c0): k for (r, c), k in board.cards.items()})
    out._box = (0, 0, r1 - r0, c1 - c0)
    return out


def placements(board: Board) -> tuple:
    """Free positions where a card may go within the grid's frame (once per board: boards never change)."""
    if board is None:
        return board.floating       # (none: the error the baseline's gives, of no internal name)
    free = board._free
    if free is None:
        free = board._free = _free_cells(board)
    return free


def free_at(board: Board, pos) -> bool:
    """Whether ``pos`` is among ``placements(board)``, without making them (a card placed
    where no choice of a cell was made, as an automaton's next cell in reading order)."""
    free = board._free
    if free is not None:
        return pos in free
    if type(pos) is not tuple or len(pos) != 2 or type(pos[0]) is not int or type(pos[1]) is not int:
        return pos in placements(board)
    if pos in board.cards:
        return False
    if not board.floating:
        return 0 <= pos[0] < board.rows and 0 <= pos[1] < board.cols
    if not board.cards:
        return pos == (0, 0)
    return board.fits_with(pos)


def _free_cells(board: Board) -> tuple:
    cards = board.cards
    if not board.floating:
        return tuple(itertools.filterfalse(cards.__contains__, frame(board.rows, board.cols)))
    if not cards:
        return ((0, 0),)
    rows, cols = board.rows, board.cols
    r0, c0, r1, c1 = board.bbox()
    if r1 - r0 < rows and c1 - c0 < cols:   # the cards fit the frame: every cell of these ranges keeps them in it
        window = _window(r1 - rows + 1, r0 + rows, c1 - cols + 1, c0 + cols)
        return tuple(itertools.filterfalse(cards.__contains__, window))
    out = []
    for r in range(r1 - rows + 1, r0 + rows):
        if max(r1, r) - min(r0, r) >= rows:
            continue
        for c in range(c1 - cols + 1, c0 + cols):
            if (r, c) not in cards and max(c1, c) - min(c0, c) < cols:
                out.append((r, c))
    return tuple(out)


def placed(board: Board, card: str, pos, free: bool = False) -> Board:
    """The grid with ``card`` on ``pos``, normalised; ``free``: ``pos`` is known to be among
    the grid's placements (``free_at`` said so), so it is not checked again."""
    new = with_card(board, card, pos, free)
    same = True                 # (the same frame of free cells: a fixed grid's, or the same box)
    if board.floating:          # (its bounding box, from the one before: fits_with made it)
        box, (r, c) = board.bbox(), pos
        new._box = (r, c, r, c) if box is None else (min(box[0], r), min(box[1], c), max(box[2], r),
                                                      max(box[3], c))
        same = new._box == box
    out = normalised(new)
    if out is new:              # (the cards where they were: the cells near them carried on)
        carried(board, new, pos)
        cells = board._free
        if same and cells is not None:      # (its free cells those before but ``pos``)
            try:
                i = cells.index(pos)
            except ValueError:
                pass
            else:
                new._free = cells[:i] + cells[i + 1:]
    return out


def with_card(board: Board, card: str, pos, free: bool = False) -> Board:
    """The grid with ``card`` on the free cell ``pos`` (refused where it may not go, unless
    ``free``: known to be among its placements), as it is: not normalised."""
    if free:
        pass
    elif pos in board.cards:
        raise RuntimeRulesError(f"cell {pos_text(pos)} is already taken")
    elif board.floating:
        if not board.fits_with(pos):
            raise RuntimeRulesError(f"a card at {pos_text(pos)} would not fit the {board.rows} x {board.cols} grid")
    elif not (0 <= pos[0] < board.rows and 0 <= pos[1] < board.cols):
        raise RuntimeRulesError(f"cell {pos_text(pos)} is outside the {board.rows} x {board.cols} grid")
    new = Board(board.grid, board.rows, board.cols, board.floating, board.cards)
    new.cards[pos] = card
    return new


def cleared(board: Board, pos) -> Board:
    """The grid without the card on ``pos`` (a floating grid is normalised again)."""
    if pos not in board.cards:
        raise RuntimeRulesError(f"cell {pos_text(pos)} holds no card to take away")
    new = Board(board.grid, board.rows, board.cols, board.floating, board.cards)
    del new.cards[pos]
    return normalised(new)


def exchanged(board: Board, card: str, pos) -> Board:
    """The grid with ``card`` in place of the card on ``pos``."""
    if pos not in board.cards:
        raise RuntimeRulesError(f"cell {pos_text(pos)} holds no card to exchange (place a card on a free cell "
                                f"with placed)")
    new = Board(board.grid, board.rows, board.cols, board.floating, board.cards)
    new.cards[pos] = card
    return new


def extends(full: Board, part: Board) -> bool:
    """Whether ``part`` appears in ``full`` at some translation."""
    if not part.cards:
        return True
    r0, c0, r1, c1 = part.bbox()
    for dr in range(-r0, full.rows - r1):
        for dc in range(-c0, full.cols - c1):
            if all(full.cards.get((r + dr, c + dc)) == k for (r, c), k in part.cards.items()):
                return True
    return False


def contents(board: Board) -> tuple:
    """The cards on a grid in reading order (once per board: boards never change)."""
    if board is None:
        return board.cards          # (none: the error the baseline's gives, of no internal name)
    cards = board._contents
    if cards is None:
        cards = board._contents = tuple(board.cards[p] for p in sorted(board.cards))
    return cards


_FRAMES: dict = {}


def frame(rows: int, cols: int) -> tuple:
    """The cells of a rows x cols grid in reading order."""
    return _window(0, rows, 0, cols, True)


def _window(r0: int, r1: int, c0: int, c1: int, whole: bool = False) -> tuple:
    """Cells of rows r0..r1-1, columns c0..c1-1 in reading order; kept if a ``whole`` frame or few."""
    cells = _FRAMES.get((r0, r1, c0, c1))
    if cells is None:
        cells = tuple((r, c) for r in range(r0, r1) for c in range(c0, c1))
        if whole or len(cells) <= 400:      # (few: where a floating grid's next card may go)
            if not whole and len(_FRAMES) >= 4096:
                _FRAMES.clear()
            _FRAMES[(r0, r1, c0, c1)] = cells
    return cells


def pos_text(pos) -> str:
    return f"({pos[0]}, {pos[1]})"


# ----------------------------------------------------------------- relations
class RelationTable(dict):
    """``table[cell]`` -> cells related to it on one grid; computed once per cell."""

    def __init__(self, relation: Relation, rows: int, cols: int):
        super().__init__()
        self.relation, self.rows, self.cols = relation, rows, cols
        for pos in frame(rows, cols):
            self[pos] = relation.apply(pos, rows, cols)

    def __missing__(self, pos):
        value = self.relation.apply(pos, self.rows, self.cols)
        self[pos] = value
        return value


def groups(cells: Iterable, table: RelationTable) -> tuple:
    """Connected groups of ``cells`` under a relation, in first-seen order."""
    members = tuple(dict.fromkeys(cells))
    if len(members) < 2:
        return (members,) if members else ()
    remaining = set(members)
    out = []
    for start in members:
        if start not in remaining:
            continue
        remaining.discard(start)
        group = [start]
        for cur in group:               # the list grows while it is walked
            near = table[cur]
            if remaining.isdisjoint(near):      # (most cells: no neighbour left, tested in C)
                continue
            for n in near:
                if n in remaining:
                    remaining.discard(n)
                    group.append(n)
        out.append(tuple(group))
    return tuple(out)


# ------------------------------------------------------------------- records
def record_class(name: str, fields: list[str], shapes: dict | None = None):
    """A tuple type for one record: immutable, hashable, compared field by field, each
    field as it is held. ``shapes``: place in the tuple -> ``types.held_shape`` of the
    fields that hold a set (themselves, or inside a list or a tuple): a record keeps each
    such set in one order of its own, once each member (``canon``), so two records holding
    the same members compare, hash and key a table alike, as two sets compare by their
    members; a pile or a list it holds stays in its order."""
    base = collections.namedtuple(f"rec_{name}", ["rtype"] + [f"f_{f}" for f in fields])
    shapes = dict(shapes or {})

    class Rec(base):
        __slots__ = ()
        rw_name = name
        rw_fields = tuple(fields)
        rw_shapes = shapes

        if shapes:
            def __new__(cls, *values):
                return base.__new__(cls, name, *_held(values, shapes, 1))
        else:
            def __new__(cls, *values):
                return base.__new__(cls, name, *values)

        def __getnewargs__(self):       # (a copy or a pickle: made again from its fields)
            return tuple(self[1:])

        def __repr__(self):
            return f"{name}(" + ", ".join(f"{f}={v!r}" for f, v in zip(fields, self[1:])) + ")"

    Rec.__name__ = name
    return Rec


class Column(dict):
    """A table column as the generated code reads it, ``column[key]``: None for a key
    without a value, as ``dict.get`` gives (a subscript costs less than a method call)."""

    __slots__ = ()

    def __missing__(self, key):
        return None


class FieldData(str):
    """The attribute name of a record field, with the field's type."""

    def __new__(cls, name: str, type_):
        obj = super().__new__(cls, f"f_{name}")
        obj.type = type_
        return obj


def _held(values, shapes: dict, offset: int) -> list:
    """``values`` (a record's, from its place ``offset``) with what the fields at
    ``shapes`` hold in the record's order (``canon``)."""
    values = list(values)
    for i, shape in shapes.items():
        if 0 <= i - offset < len(values):
            values[i - offset] = canon(values[i - offset], shape)
    return values


def with_fields(names: tuple, base, *values):
    made = base._replace(**dict(zip(names, values)))
    shapes = getattr(type(made), "rw_shapes", None)
    return tuple.__new__(type(made), _held(made, shapes, 0)) if shapes else made


def replaced(base, at: tuple, values: tuple):
    """``with_fields`` where the fields' places in the record are known (``at``)."""
    if not isinstance(base, tuple):
        getattr(base, "_replace")           # (none: the error with_fields meets)
    items = list(base)
    for i, v in zip(at, values):
        items[i] = v
    kind = type(base)
    if kind.rw_shapes:
        items = _held(items, kind.rw_shapes, 0)
    return tuple.__new__(kind, items)


def minus(a, b) -> tuple:
    """``a`` less ``b``'s items, each taking away the first equal item left in ``a``."""
    items, drop = as_tuple(a), as_tuple(b)
    if not drop:                    # (a change that takes nothing off: the same values)
        return items
    if len(drop) * len(items) > 64:
        try:
            left = collections.Counter(drop)
        except TypeError:           # (an item that cannot be counted: one by one below)
            pass
        else:
            out = []
            for x in items:
                if left.get(x):
                    left[x] -= 1
                else:
                    out.append(x)
            return tuple(out)
    kept = list(items)
    for x in drop:
        if x in kept:
            kept.remove(x)
    return tuple(kept)


def sublists_of(items) -> tuple:
    """Every distinct sub-list: the options of ``choose x subset of C``, each in C's
    order (copies of a value count once per copy), shortest first."""
    values = as_tuple(items)
    if 2 ** len(values) > _sub.MOST_SUBSETS:
        raise RuntimeRulesError(
            f"a choice of a sub-collection of {len(values)} elements has {2 ** len(values):,} options, "
            f"more than the {_sub.MOST_SUBSETS:,} one choice may list ('subset of C sized n' lists those of "
            f"one size)")
    out = {()}
    for v in values:
        out |= {s + (v,) for s in out}
    return tuple(sorted(out, key=lambda s: (len(s), repr(s))))


def sort_values(items) -> tuple:
    items = as_tuple(items)
    return tuple(sorted(items) if plain_texts(items) else sorted(items, key=repr))


def group_rank(x, groups) -> int:
    for i, group in enumerate(groups, start=1):
        if x in group:
            return i
    return 0


def seats_from(seats, first, direction: str) -> tuple:
    n = len(seats)
    step = 1 if direction == "left" else -1
    return tuple(seats[(first.index + step * i) % n] for i in range(n))


def next_seat(seats, seat, direction: str):
    step = 1 if direction == "left" else -1
    return seats[(seat.index + step) % len(seats)]


# --------------------------------------------------------------------- seats
class Shown:
    """A value computed inside a message (its ``{...}`` parts), told apart from the
    message's own text until the message is rendered."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


@dataclass(frozen=True, eq=False)
class Seat:
    """A seat of a game. One object for each index, name, kind and title (made once, and
    again only when no other holds it): two seats are equal when they are the same
    object, which Python compares and hashes in C. A seat is hashed in every key that
    holds it (a record is keyed by the seat it holds), and a hash written in Python was about a
    twentieth of a game. A seat of another title or kind is another seat, to a memo that
    outlives a game as to any comparison. (Copies and pickles give the seat back, not a
    new one: ``__reduce__``.)"""
    index: int
    name: str
    kind: str
    title: str

    def __new__(cls, index: int, name: str, kind: str, title: str):
        key = (cls, index, name, kind, title)
        with _SEATS_LOCK:
            seat = _SEATS.get(key)
            if seat is None:
                seat = object.__new__(cls)
                object.__setattr__(seat, "index", index)
                object.__setattr__(seat, "name", name)
                object.__setattr__(seat, "kind", kind)
                object.__setattr__(seat, "title", title)
                _SEATS[key] = seat
        return seat

    def __init__(self, index: int, name: str, kind: str, title: str):
        pass        # (``__new__`` gave the seat its fields, once)

    def __reduce__(self):
        return type(self), (self.index, self.name, self.kind, self.title)

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __str__(self):
        return self.title

    def __repr__(self):
        return f"Seat({self.name})"


_SEATS: "weakref.WeakValueDictionary" = weakref.WeakValueDictionary()   # (index, name, kind, title) -> its seat
_SEATS_LOCK = threading.Lock()


def _seats_lock_anew() -> None:
    """A forked child's own lock (another thread of the parent may have held it)."""
    global _SEATS_LOCK
    _SEATS_LOCK = threading.Lock()


os.register_at_fork(after_in_child=_seats_lock_anew)


# -------------------------------------------------------------------- scores
def step_points(score, step: str) -> int:
    """The points one step of a score gave (0 when the step gave none)."""
    return int(score.steps.get(step, 0)) if isinstance(score, Score) else 0


class Score(int):
    """An int (the total) that also carries its breakdown by step and its choices."""

    steps: dict
    choices: dict
    layers: dict

    def __new__(cls, steps: dict, choices: dict, layers: dict | None = None):
        obj = super().__new__(cls, sum(steps.values()))
        obj.steps = steps
        obj.choices = choices
        obj.layers = layers or {}
        return obj

    def __repr__(self):
        return f"Score({int(self)}, {self.steps})"


def best_option(mode: int, options, total, span=None):
    """The option whose total is best for the chooser (the first one on ties)."""
    best = best_total = None
    for option in options:
        t = total(option)
        if best_total is None or (t > best_total if mode > 0 else t < best_total):
            best, best_total = option, t
    if best_total is None:
        raise RuntimeRulesError("no legal option for a choice", span)
    return best


def subsets(pool: tuple, size: int, span=None):
    """The options of ``choose x subset of C sized n``: every n of C's elements."""
    if size < 0 or size > len(pool):
        return iter(())
    count = math.comb(len(pool), size)
    if count > _sub.MOST_SUBSETS:
        raise RuntimeRulesError(f"a choice of {size} of {len(pool)} elements has {count:,} options, more than "
                                f"the {_sub.MOST_SUBSETS:,} one choice may list", span)
    charge(count, span)
    return itertools.combinations(pool, size)


# -------------------------------------------------------------- collections
def oset(items: Iterable) -> tuple:
    """Each value of ``items`` once, in the order first met (a set's values)."""
    return tuple(dict.fromkeys(items))


_COUNTED: tuple = (None, None)      # (the last collection counted by ``within``, its counts)
MOST_COUNTED = 4096                 # the longest kept (a range of millions would be held after its evaluation)


def within(small: Iterable, big: Iterable) -> bool:
    """Every value of ``small`` in ``big``, as many times at least (multisets). A ``big`` asked
    again (the same tuple, of at most ``MOST_COUNTED`` values: a box of cards) counted once."""
    global _COUNTED
    if type(big) is tuple and len(big) <= MOST_COUNTED:
        last, counts = _COUNTED
        if last is not big:
            counts = collections.Counter(big)
            _COUNTED = (big, counts)
    else:
        counts = collections.Counter(big)
    return not collections.Counter(small) - counts


def multiset_eq(a: Iterable, b: Iterable) -> bool:
    if type(a) is tuple and type(b) is tuple:
        if len(a) != len(b):        # (a card taken off or put on: told apart at once)
            return False
        if plain_texts(a) and plain_texts(b):
            return sorted(a) == sorted(b)
    return in_order(as_tuple(a)) == in_order(as_tuple(b))


def count_equal(items, value) -> int:
    """How many of ``items`` equal ``value`` (``count(x in items if x == value)``), in C."""
    kind = type(items)
    if kind is tuple or kind is list:
        return items.count(value)
    if kind is Zone:
        return items.cards.count(value)
    return sum(1 for x in items if x == value)


def first(items, span=None):
    for x in items:
        return x
    raise RuntimeRulesError("first() of an empty collection", span)


# ------------------------------------------------------------------ budgets
MOST_TEXT = 1_000_000


def short_text(value: str, span=None) -> str:
    """A text a rule stores (``set``, ``let``): at most ``MOST_TEXT`` characters."""
    if value is None or len(value) <= MOST_TEXT:
        return value
    raise RuntimeRulesError(f"a text of {len(value):,} characters, more than the {MOST_TEXT:,} a rule may "
                            "keep: the rules keep adding to a text in a loop", span)


def not_a_legal_choice(name: str, pick, span=None):
    """A forced choice (a witness being replayed) that is not among the options."""
    return RuntimeRulesError(f"the given {name} is not a legal choice: {pick!r}", span)


def endless_while(span=None):
    return RuntimeRulesError("a while loop went round a million times", span)


def numbers(a: int, b: int, span=None) -> tuple:
    """The numbers from a to b."""
    if b - a + 1 > MOST_NUMBERS:
        raise RuntimeRulesError(f"the range {a}..{b} holds {b - a + 1:,} numbers, more than the "
                                f"{MOST_NUMBERS:,} a spec may build", span)
    charge(max(0, b - a + 1), span)
    return tuple(range(a, b + 1))


INT64 = 2 ** 63


def int64(value: int, span=None) -> int:
    """A number a rule stores (``set``, ``let``): within 64 bits, as every number a spec
    reads is, so a loop that keeps doubling a value stops with an error, not a hang."""
    if -INT64 <= value < INT64:
        return value
    raise RuntimeRulesError(f"a number beyond 64 bits ({value.bit_length()} bits): the rules "
                            "keep multiplying or adding a value in a loop", span)


def times(n: int, span=None) -> range:
    """The rounds of a ``repeat n``."""
    if n < 0:
        raise RuntimeRulesError(f"repeat {n} times: a count is 0 or more", span)
    charge(n, span)
    return range(n)


def take_first(items, n: int, span=None) -> tuple:
    """The first n items (all of them when there are fewer)."""
    if n < 0:
        raise RuntimeRulesError(f"take() of {n} items: a count is 0 or more", span)
    return tuple(items)[:n]


class DivisionByZero(RuntimeRulesError, ZeroDivisionError):
    """A division or remainder by 0 in a rule: located like any run-time error (and
    still a ZeroDivisionError to the solver, which leaves such options out)."""


def floordiv(a: int, b: int, span=None) -> int:
    if b == 0:
        raise DivisionByZero(f"cannot divide {a} by 0 (the divisor is 0 here)", span)
    return a // b


def mod(a: int, b: int, span=None) -> int:
    if b == 0:
        raise DivisionByZero(f"cannot take the remainder of {a} by 0 (the divisor is 0 here)", span)
    return a % b


def map_get(mapping: dict, key, default, has_default: bool):
    if key in mapping:
        return mapping[key]
    if has_default:
        return default
    raise RuntimeRulesError(f"no entry for {key!r} in a table of values")


def agg_min(values, span=None):
    values = list(values)
    if not values:
        raise RuntimeRulesError("min() of an empty collection", span)
    return min(values)


def agg_max(values, span=None):
    values = list(values)
    if not values:
        raise RuntimeRulesError("max() of an empty collection", span)
    return max(values)


def as_zone(name: str, value) -> "Zone":
    """A value set to a pile of the game state (``set deck = [...]``): a pile of its own, so a
    later ``deal``, ``take`` or ``move`` draws from it (a copy: no two piles share cards)."""
    return Zone(name, list(value.cards if isinstance(value, Zone) else (value or ())))


@dataclass
class Zone:
    """A pile of cards held in the game state (a deck, a hand, a discard pile)."""

    name: str
    cards: list = field(default_factory=list)

    def __iter__(self):
        return iter(self.cards)

    def __len__(self):
        return len(self.cards)

    def __contains__(self, x):
        return x in self.cards


def as_tuple(value: Any) -> tuple:
    if type(value) is tuple:
        return value
    if isinstance(value, Zone):
        return tuple(value.cards)
    if isinstance(value, Board):
        return contents(value)
    return tuple(value)


# sub-collections and plain texts, in a module of their own; the generated code and the rest
# of the compiler read them here (rt.subsets_of); the most sub-collections one enumeration or
# choice may list is subsets.MOST_SUBSETS
from rulewright.compiler.semantics import subsets as _sub  # noqa: E402
from rulewright.compiler.semantics.subsets import (HELD_SUBSETS, _SUBSETS, _count_at_most,  # noqa: E402
                                                   _subsets, plain_texts, subsets_along)

SUBSETS = (HELD_SUBSETS, _SUBSETS, _count_at_most, _subsets, subsets_along)


def subsets_of(items, most: int | None = None) -> tuple:
    """``subsets.subsets_of`` of any collection (a pile, a grid's cards)."""
    return _sub.subsets_of(as_tuple(items), most)


# what values holding sets are equal by, in a module of its own; the generated code and the
# rest of the compiler read it here (rt.canon, rt.same, rt.same_in, rt.in_order)
from rulewright.compiler.semantics.held import canon, in_order, same, same_in  # noqa: E402

HELD = (canon, in_order, same, same_in)
