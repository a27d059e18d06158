"""Ecosystem: Savanna scored by hand the way the spec's generated code scores it.

What the interpreter's code for ``spec/ecosystem_savanna/scoring.rules`` does, written
by hand with nothing it needs for being general: the grid's cells indexed once by card,
each step looking only at the cells of the cards it is about, each relation a table of
frozensets made once, the lion's prey chosen by trying every combination as the
hand-written scorer does. No step budget, no steps dictionary, no score object.

``benchmarks/scoring.py`` times it beside the spec and the hand-written scorer: it is
the most the spec's way of scoring can give in Python, so the spec's ratio against the
hand-written scorer is read against this one's. Same readings as handwritten_scorer.py.
"""
from itertools import combinations

ROWS, COLS = 4, 5
CELLS = tuple((r, c) for r in range(ROWS) for c in range(COLS))
ANIMALS = frozenset({"gazelle", "zebra", "giraffe", "cheetah", "lion", "elephant", "hyena", "vulture"})
PRAIRIE_POINTS = {1: 1, 2: 4, 3: 9}


def _near(steps):
    return {(r, c): frozenset((r + dr, c + dc) for dr, dc in steps if 0 <= r + dr < ROWS and 0 <= c + dc < COLS)
            for r, c in CELLS}


ADJACENT = _near(((-1, 0), (1, 0), (0, -1), (0, 1)))
DIAGONAL = _near(((-1, -1), (-1, 1), (1, -1), (1, 1)))
TWO_AWAY = _near(((-2, 0), (2, 0), (0, -2), (0, 2)))
BELOW = {(r, c): frozenset((rr, c) for rr in range(r + 1, ROWS)) for r, c in CELLS}
ROW_SETS = tuple(frozenset((r, c) for c in range(COLS)) for r in range(ROWS))
COLUMN_SETS = tuple(frozenset((r, c) for r in range(ROWS)) for c in range(COLS))


def score(cards: dict, rivals=()):
    """``cards``: cell -> card name. Returns (total, points by card type)."""
    index: dict = {}
    get = cards.get
    for pos in CELLS:
        k = get(pos)
        if k is not None:
            if k in index:
                index[k].append(pos)
            else:
                index[k] = [pos]
    at = index.get
    pts = {}
    pts["water"] = sum(2 * len({get(n) for n in ADJACENT[c] if get(n) in ANIMALS}) for c in at("water", ()))

    prairies = frozenset(at("prairie", ()))
    left, p = set(prairies), 0
    for start in at("prairie", ()):
        if start in left:
            left.discard(start)
            group = [start]
            for cur in group:
                near = ADJACENT[cur]
                if left.isdisjoint(near):
                    continue
                for n in near:
                    if n in left:
                        left.discard(n)
                        group.append(n)
            p += PRAIRIE_POINTS.get(len(group), 16)
    pts["prairie"] = p

    trees = frozenset(at("tree", ()))
    pts["tree"] = (2 * sum(1 for r in ROW_SETS if not trees.isdisjoint(r))
                   + 2 * sum(1 for k in COLUMN_SETS if not trees.isdisjoint(k)))
    gazelles = at("gazelle", [])
    herd = len(gazelles)
    bonus = {1: 5, 2: 2}.get(1 + sum(1 for h in rivals if h > herd), 0) if herd else 0
    pts["gazelle"] = 2 * herd + bonus
    pts["zebra"] = sum(3 * len(prairies.intersection(ADJACENT[c])) for c in at("zebra", ()))
    pts["giraffe"] = 5 * sum(1 for c in at("giraffe", ()) if not trees.isdisjoint(ADJACENT[c]))

    gazelle_set, cheetahs = frozenset(gazelles), at("cheetah", ())
    pts["cheetah"] = sum(3 * len(gazelle_set.intersection(DIAGONAL[c])) for c in cheetahs)
    cheetah_set = frozenset(cheetahs)
    down = frozenset(c for c in gazelles if not cheetah_set.isdisjoint(DIAGONAL[c]))
    hunters = sum(1 for c in at("lion", ()) if not prairies.isdisjoint(ADJACENT[c]))
    prey = [c for c in sorted(gazelles + at("zebra", [])) if c not in down]
    kills = min(hunters, len(prey))
    pts["lion"] = 4 * kills

    elephants, hyenas, vultures = at("elephant", ()), at("hyena", ()), at("vulture", ())
    best = None
    for chosen in combinations(prey, kills):
        face_down = down | frozenset(chosen)
        e = 0
        for c in elephants:
            e += 6 - 2 * sum(1 for n in ADJACENT[c]
                             if get(n) in ANIMALS and get(n) != "elephant" and n not in face_down)
        h = sum(3 * len(face_down.intersection(TWO_AWAY[c])) for c in hyenas)
        v = sum(4 * len(face_down.intersection(BELOW[c])) for c in vultures)
        if best is None or e + h + v > best[0]:
            best = (e + h + v, e, h, v)
    _, pts["elephant"], pts["hyena"], pts["vulture"] = best
    return sum(pts.values()), pts
