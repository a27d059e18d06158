"""The Ecosystem: Savanna rulebook examples, with the rulebook's numbers.

Grids are the constructed ones of the worked examples (ES-EX-*): the rulebook's
pictures are not in the text, so each grid matches every fact the text states.
"""
from helpers import grid, savanna, score


def test_water_hole_ex1(interp):
    # ES-EX-1: 2 giraffes count as one type, the tree above is terrain, the hyena is diagonal.
    s = score(interp, """
        . T H . .
        F W L . .
        . F . . .
        . . . . .""")
    assert s.steps["water"] == 4


def test_prairie_tree_zebra_ex2(interp):
    text = """
        P P P T .
        P Z . T .
        Z P . . T
        . . . . ."""
    s = score(interp, text)
    assert s.steps["prairie"] == 16 + 1       # a group of 4 and an isolated prairie
    assert s.steps["tree"] == 10              # 3 trees over 3 rows and 2 columns
    assert s.steps["zebra"] == 9 + 6
    first_only = score(interp, text.replace("Z P . . T", ". P . . T"))
    second_only = score(interp, text.replace("P Z . T .", "P . . T ."))
    assert first_only.steps["zebra"] == 9     # three adjacent prairies
    assert second_only.steps["zebra"] == 6    # two, one of them shared with the first zebra


def test_cheetah_lion_ex3(interp):
    text = """
        G . G . .
        . C . C .
        G . G . .
        L P L . G"""
    s = score(interp, text)
    assert s.steps["cheetah"] == 12 + 6
    assert len(s.layers["face_down"] & {(0, 0), (0, 2), (2, 0), (2, 2)}) == 4
    # Both lions touch the prairie, but only one face-up gazelle is left: 4 points.
    assert s.steps["lion"] == 4
    assert s.choices["lion_prey"] == ((3, 4),)
    left = score(interp, text.replace(". C . C .", ". C . . ."))
    right = score(interp, text.replace(". C . C .", ". . . C ."))
    assert (left.steps["cheetah"], right.steps["cheetah"]) == (12, 6)


def test_hyena_vulture_ex4(interp):
    s = score(interp, """
        V . . P L
        G . H . Z
        . C . . .
        G . G . .""")
    assert s.steps["cheetah"] == 9
    assert s.steps["lion"] == 4
    assert s.choices["lion_prey"] == ((1, 4),)
    assert s.steps["hyena"] == 9
    assert s.steps["vulture"] == 8


MARGOT = """
    P P P Z P
    F L G T Z
    T C G F W
    E E G W H"""


def test_margot_86_ex5(interp):
    # Margot has 3 gazelles; Alexis and Sanaa 2 and 1 (worked-examples 5.3), so she takes +5.
    s = score(interp, MARGOT, rivals=(2, 1))
    assert dict(s.steps) == {"water": 12, "prairie": 10, "tree": 8, "gazelle": 11, "zebra": 9,
                             "giraffe": 10, "cheetah": 6, "lion": 4, "elephant": 10, "hyena": 6,
                             "vulture": 0}
    assert int(s) == 86
    # She flips the zebra that scores with her hyena; the other prey would give 83.
    assert s.choices["lion_prey"] == ((1, 4),)
    forced = score(interp, MARGOT, rivals=(2, 1), forced={"lion_prey": ((2, 2),)})
    assert int(forced) == 83


def test_margot_gazelle_bonus_depends_on_rivals(interp):
    assert score(interp, MARGOT, rivals=(3,)).steps["gazelle"] == 6 + 5      # tie for first: both +5
    assert score(interp, MARGOT, rivals=(4,)).steps["gazelle"] == 6 + 2      # second
    assert score(interp, MARGOT, rivals=(5, 4)).steps["gazelle"] == 6        # third: nothing


def test_herd_bonus_ties(interp):
    bonus = lambda mine, rivals: interp.call("herd_bonus", mine, tuple(rivals))  # noqa: E731
    assert bonus(3, (3, 1)) == 5      # tied first places both score 5 ...
    assert bonus(1, (3, 3)) == 0      # ... and the next place is not awarded
    assert bonus(2, (3, 2)) == 2      # several tied for second all score 2 (ES-AMB-05)
    assert bonus(0, ()) == 0          # no gazelle, no bonus
    assert bonus(1, ()) == 5          # alone with a gazelle: the biggest herd
    _, void = savanna(second_place_ties="void")
    assert void.call("herd_bonus", 2, (3, 2)) == 0


def test_elephant_can_go_below_zero(interp):
    text = """
        . G . . .
        Z E F . .
        . L . . .
        . . . . ."""
    assert score(interp, text).steps["elephant"] == 6 - 8
    _, floored = savanna(elephants_below_zero=False)
    assert score(floored, text).steps["elephant"] == 0


def test_other_elephants_and_terrain_do_not_count(interp):
    assert score(interp, """
        . T . . .
        W E E . .
        . P . . .
        . . . . .""").steps["elephant"] == 12


def test_cheetah_range_switch():
    text = """
        G . . . .
        . . . . .
        . . C . .
        . . . G ."""
    _, near = savanna()
    _, lines = savanna(cheetah_range="lines")
    assert score(near, text).steps["cheetah"] == 3
    assert score(lines, text).steps["cheetah"] == 6


def test_hyena_range_switch():
    text = """
        C . . . .
        . G . . .
        . . H . .
        . . . . ."""
    _, straight = savanna()
    _, manhattan = savanna(hyena_range="manhattan")
    assert score(straight, text).steps["hyena"] == 0
    assert score(manhattan, text).steps["hyena"] == 3


def test_vulture_range_switch():
    text = """
        V . . . .
        . C . . .
        G . . . .
        G . . C ."""
    _, column = savanna()
    _, below = savanna(vulture_range="just_below")
    # the cheetah at (1,1) hunts the gazelle at (2,0); the one at (3,3) hunts none of column 0
    assert score(column, text).steps["vulture"] == 4
    assert score(below, text).steps["vulture"] == 0


def test_lion_reading_order_switch():
    text = """
        L P . . H
        . . . . .
        Z . . . Z
        . . . . ."""
    _, owner = savanna()
    _, auto = savanna(lion_prey_chooser="reading_order")
    assert score(owner, text).choices["lion_prey"] == ((2, 4),)   # the one that feeds the hyena
    assert score(owner, text).steps["hyena"] == 3
    assert score(auto, text).choices["lion_prey"] == ((2, 0),)    # the first in reading order
    assert score(auto, text).steps["hyena"] == 0


def test_trees_cap(interp):
    full = grid(interp, "\n".join(["T T T T T"] * 4))
    assert score(interp, full).steps["tree"] == 18


def test_prairie_groups_cap_at_16(interp):
    s = score(interp, """
        P P P P P
        P P P . .
        . . . . P
        . . . P P""")
    assert s.steps["prairie"] == 16 + 9
