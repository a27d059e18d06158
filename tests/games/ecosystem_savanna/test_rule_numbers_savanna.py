"""Ecosystem: Savanna: the numbers of the scoring rules the rulebook's examples leave open.

Each grid is crafted for one rule (rules inventory, part B: ES-SCORE-*), and each
expected number is derived by hand from the rule in a comment. Grids are written as in
the worked examples: W water, P prairie, T tree, G gazelle, Z zebra, F giraffe, C
cheetah, L lion, E elephant, H hyena, V vulture, '.' a free cell.

Where a test was checked against a deliberate one-line change of the spec
(spec/ecosystem_savanna/scoring.rules), its docstring says which.
"""
from __future__ import annotations

from helpers import grid, savanna, score
from rulewright.compiler.semantics import runtime as rt


def test_giraffe_scores_5_once_whatever_the_trees():
    """ES-SCORE-GIRAFFE-01: a giraffe next to at least one tree scores 5, and several trees
    give nothing more; a tree on its diagonal does not count.

    Checked against the mutation that scores 5 per adjacent tree (``5 * count(c in
    cells(g) if g[c] == giraffe and any(...))`` changed to ``sum(5 * count(n in
    adjacent(c) if g[n] == tree) for c in cells(g) if g[c] == giraffe)``)."""
    _, it = savanna()
    # (0,1) between the trees (0,0) and (0,2), and above the tree (1,1): 3 trees, 5 points.
    # (2,3): the tree (1,2) is diagonal to it, (1,3), (3,3), (2,2), (2,4) are free: 0.
    s = score(it, """
        T F T . .
        . T T . .
        . . . F .
        . . . . .""")
    assert s.steps["giraffe"] == 5


def test_lion_needs_an_adjacent_prairie():
    """ES-SCORE-LION-01 ES-SCORE-LION-02 ES-SCORE-05: only a lion next to a prairie hunts:
    it turns a face-up gazelle or zebra face down and scores 4; a lion without an adjacent
    prairie (one on its diagonal does not count) scores nothing and turns nothing over.
    What a lion turns over is what a hyena two cells away scores (3 per carcass).

    Checked against the mutation that lets every lion hunt (``count(c in cells(g) if
    g[c] == lion and any(...))`` changed to ``count(c in cells(g) if g[c] == lion)``)."""
    _, it = savanna()
    # The lion (0,0) has (0,1) free and (1,0) free; the prairie (1,1) is diagonal: no hunt.
    # The only prey is the gazelle (2,2); the hyena (2,0) is two cells left of it.
    idle = score(it, """
        L . . . .
        . P . . .
        H . G . .
        . . . . .""")
    assert (idle.steps["lion"], idle.steps["hyena"]) == (0, 0)
    # The same with the prairie under the lion: it hunts the gazelle: 4; the hyena sees
    # the carcass two cells away: 3.
    hunt = score(it, """
        L . . . .
        P . . . .
        H . G . .
        . . . . .""")
    assert (hunt.steps["lion"], hunt.steps["hyena"]) == (4, 3)
    assert hunt.choices["lion_prey"] == ((2, 2),)


def test_water_hole_scores_up_to_8():
    """ES-SCORE-WATERHOLE-01 ES-SCORE-WATERHOLE-02: 2 points per type of animal around the
    water hole, 4 types at most: 8; two water holes each score their own neighbours."""
    _, it = savanna()
    # (1,1): gazelle above, zebra left, lion right, hyena below: 4 types, 8.
    # (3,4): zebra above (2,4) and zebra left (3,3): 1 type, 2.
    s = score(it, """
        . G . . .
        Z W L . .
        . H . . Z
        . . . Z W""")
    assert s.steps["water"] == 8 + 2


def test_gazelles_score_before_they_are_hunted():
    """ES-SCORE-03 ES-SCORE-GAZELLE-01 ES-SCORE-CHEETAH-01 ES-SCORE-CHEETAH-02: every gazelle
    scores 2, even one a cheetah hunts afterwards (the flips come after the gazelles have
    scored); the cheetah scores 3 per gazelle on its diagonals, and a gazelle next to it
    (not diagonal) is neither counted nor turned over."""
    _, it = savanna()
    # cheetah (1,1): diagonal gazelles (0,0) and (2,2): 6; gazelle (1,2) is beside it.
    # 3 gazelles: 2 each = 6, and alone in the game (no rivals): the biggest herd, +5.
    s = score(it, """
        G . . . .
        . C G . .
        . . G . .
        . . . . .""")
    assert s.steps["gazelle"] == 3 * 2 + 5
    assert s.steps["cheetah"] == 2 * 3
    assert s.layers["face_down"] == {(0, 0), (2, 2)}


def test_elephant_ignores_carcasses():
    """ES-SCORE-ELEPHANT-01 ES-SCORE-05 ES-SCORE-02: an elephant scores 6 minus 2 per adjacent
    animal, but a gazelle turned face down by a cheetah, which scored before it, is a
    carcass and no longer counts."""
    _, it = savanna()
    # elephant (1,1): gazelle (1,2) and zebra (0,1) beside it. The cheetah (0,3) sees the
    # gazelle (1,2) on its diagonal and turns it face down. Neighbours left: the zebra:
    # 6 - 2 = 4 (the cheetah is not adjacent to the elephant).
    s = score(it, """
        . Z . C .
        . E G . .
        . . . . .
        . . . . .""")
    assert s.layers["face_down"] == {(1, 2)}
    assert s.steps["elephant"] == 6 - 2


def test_vulture_scores_carcasses_below_it_only():
    """ES-SCORE-VULTURE-01 ES-AMB-06: a vulture scores 4 per face-down card below it in its
    column, at any distance; carcasses above it or in another column give nothing."""
    _, it = savanna()
    # cheetah (1,1) turns over the gazelles (0,0), (2,0) and (2,2).
    # vulture (1,0): below it (2,0) face down, (3,0) free: 4; (0,0) is above: nothing.
    # vulture (0,2): below it (1,2) free, (2,2) face down, (3,2) free: 4.
    s = score(it, """
        G . V . .
        V C . . .
        G . G . .
        . . . . .""")
    assert s.layers["face_down"] == {(0, 0), (2, 0), (2, 2)}
    assert s.steps["vulture"] == 4 + 4


def test_tied_ecosystems_share_the_victory():
    """ES-SCORE-04 ES-SCORE-GAZELLE-04: the highest total wins and a tie shares the
    victory. Two players have Margot's ecosystem (86 points with the +5 of the biggest
    herd: each has 3 gazelles and shares the first place, +5 each); the third has 20
    prairies (one group: 16 points) and no gazelle.

    Checked against the mutation that keeps only the first of the best players
    (``winners`` changed to ``{first([p for p in players if final_score(p) == max(...)])}``)."""
    _, it = savanna()
    margot = """
        P P P Z P
        F L G T Z
        T C G F W
        E E G W H"""
    seats = [rt.Seat(i, f"p{i + 1}", "player", f"Player {i + 1}") for i in range(3)]
    st = it.new_state(seats, seed=1)
    st.per["board"][seats[0]] = grid(it, margot)
    st.per["board"][seats[1]] = grid(it, margot)
    st.per["board"][seats[2]] = grid(it, "\n".join(["P P P P P"] * 4))
    totals = [int(it.call("final_score", s, state=st)) for s in seats]
    assert totals == [86, 86, 16]
    assert set(it.call("winners", state=st)) == {seats[0], seats[1]}
