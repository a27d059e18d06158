"""A plain hand-written Python scorer for Ecosystem: Savanna, written for the benchmark.

It is what a programmer would write without rulewright: lists of lists, loops
over neighbours, and the lion's prey chosen by trying every combination (the
owner picks the best). It implements the default readings (four diagonal
neighbours for cheetahs, straight-line hyenas, vultures see the whole column,
elephants may go negative, ties for second place share the +2). Tests use it
as an independent oracle for the spec.
"""
from itertools import combinations

ROWS, COLS = 4, 5
ANIMALS = {"gazelle", "zebra", "giraffe", "cheetah", "lion", "elephant", "hyena", "vulture"}
ORTHO = ((-1, 0), (1, 0), (0, -1), (0, 1))
DIAG = ((-1, -1), (-1, 1), (1, -1), (1, 1))
TWO = ((-2, 0), (2, 0), (0, -2), (0, 2))


def neighbours(r, c, steps):
    for dr, dc in steps:
        rr, cc = r + dr, c + dc
        if 0 <= rr < ROWS and 0 <= cc < COLS:
            yield rr, cc


def herd_bonus(mine, rivals):
    if mine == 0:
        return 0
    place = 1 + sum(1 for h in rivals if h > mine)
    return {1: 5, 2: 2}.get(place, 0)


def score(grid, rivals=()):
    """``grid``: 4 lists of 5 card names. Returns (total, points by card type, lion prey)."""
    pts = {}
    w = 0
    for r in range(ROWS):
        for c in range(COLS):
            if grid[r][c] == "water":
                types = {grid[rr][cc] for rr, cc in neighbours(r, c, ORTHO) if grid[rr][cc] in ANIMALS}
                w += 2 * len(types)
    pts["water"] = w

    seen = set()
    p = 0
    for r in range(ROWS):
        for c in range(COLS):
            if grid[r][c] == "prairie" and (r, c) not in seen:
                size, stack = 0, [(r, c)]
                seen.add((r, c))
                while stack:
                    cur = stack.pop()
                    size += 1
                    for nb in neighbours(cur[0], cur[1], ORTHO):
                        if nb not in seen and grid[nb[0]][nb[1]] == "prairie":
                            seen.add(nb)
                            stack.append(nb)
                p += {1: 1, 2: 4, 3: 9}.get(size, 16)
    pts["prairie"] = p

    tree_rows = sum(1 for r in range(ROWS) if "tree" in grid[r])
    tree_cols = sum(1 for c in range(COLS) if any(grid[r][c] == "tree" for r in range(ROWS)))
    pts["tree"] = 2 * tree_rows + 2 * tree_cols

    herd = sum(row.count("gazelle") for row in grid)
    pts["gazelle"] = 2 * herd + herd_bonus(herd, rivals)

    z = 0
    f = 0
    for r in range(ROWS):
        for c in range(COLS):
            if grid[r][c] == "zebra":
                z += 3 * sum(1 for rr, cc in neighbours(r, c, ORTHO) if grid[rr][cc] == "prairie")
            elif grid[r][c] == "giraffe":
                if any(grid[rr][cc] == "tree" for rr, cc in neighbours(r, c, ORTHO)):
                    f += 5
    pts["zebra"] = z
    pts["giraffe"] = f

    down = set()
    ch = 0
    for r in range(ROWS):
        for c in range(COLS):
            if grid[r][c] == "cheetah":
                for rr, cc in neighbours(r, c, DIAG):
                    if grid[rr][cc] == "gazelle":
                        ch += 3
                        down.add((rr, cc))
    pts["cheetah"] = ch

    hunters = 0
    for r in range(ROWS):
        for c in range(COLS):
            if grid[r][c] == "lion" and any(grid[rr][cc] == "prairie" for rr, cc in neighbours(r, c, ORTHO)):
                hunters += 1
    prey = [(r, c) for r in range(ROWS) for c in range(COLS)
            if grid[r][c] in ("gazelle", "zebra") and (r, c) not in down]
    kills = min(hunters, len(prey))

    best = None
    for chosen in combinations(prey, kills):
        face_down = down | set(chosen)
        e = 0
        h = 0
        v = 0
        for r in range(ROWS):
            for c in range(COLS):
                card = grid[r][c]
                if card == "elephant":
                    e += 6 - 2 * sum(1 for rr, cc in neighbours(r, c, ORTHO)
                                     if grid[rr][cc] in ANIMALS and grid[rr][cc] != "elephant"
                                     and (rr, cc) not in face_down)
                elif card == "hyena":
                    h += 3 * sum(1 for nb in neighbours(r, c, TWO) if nb in face_down)
                elif card == "vulture":
                    v += 4 * sum(1 for rr in range(r + 1, ROWS) if (rr, c) in face_down)
        rest = 4 * kills + e + h + v
        if best is None or rest > best[0]:
            best = (rest, e, h, v, chosen)
    _, e, h, v, chosen = best
    pts["lion"] = 4 * kills
    pts["elephant"] = e
    pts["hyena"] = h
    pts["vulture"] = v
    return sum(pts.values()), pts, chosen
