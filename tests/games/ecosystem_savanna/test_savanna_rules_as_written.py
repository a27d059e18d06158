"""Rules of Ecosystem: Savanna that a wrong line of the spec could break unseen: each test is
a crafted ecosystem and the points the rulebook gives it (rule IDs from the rules inventory).

These are the rules mutation testing (``make mutate``) found no test for: a mutant of the
line changed what the rules do while every test passed. Each test fails under that mutant.
"""
from __future__ import annotations

from helpers import savanna, score


def test_a_cheetah_reading_whole_diagonal_lines_sees_along_all_four_of_them():
    """ES-SCORE-CHEETAH-01 under the reading cheetah_range = lines (ES-AMB-01): a cheetah
    scores 3 for each gazelle anywhere on its two diagonal lines, in all four directions;
    under the usual reading, for each diagonal neighbour only."""
    board = """
        . G . G .
        . . C . .
        . G . G .
        G . . . G
    """
    _, lines = savanna(cheetah_range="lines")
    assert score(lines, board).steps["cheetah"] == 3 * 6
    _, neighbours = savanna()
    assert score(neighbours, board).steps["cheetah"] == 3 * 4


def test_a_vulture_counts_the_carcasses_below_it_in_its_column():
    """ES-SCORE-VULTURE-01 (reading vulture_range = column, ES-AMB-06): a vulture scores 4
    for each face-down card below it in its column, at any distance; one to its side does
    not count. The cheetahs turn the gazelles they see on their diagonals face down."""
    board = """
        V . G . .
        . C . . .
        G C . . .
        G . . . .
    """
    _, interp = savanna()
    scored = score(interp, board)
    assert scored.steps["cheetah"] == 3 * 3
    assert scored.steps["vulture"] == 4 * 2
    _, just_below = savanna(vulture_range="just_below")
    assert score(just_below, board).steps["vulture"] == 0


def test_between_prey_worth_the_same_the_lion_takes_the_first_in_reading_order():
    """ES-SCORE-LION-03 with the owner choosing the prey (ES-AMB-04): the prey best for the
    owner's ecosystem; between prey worth the same, the first in reading order, so the same
    ecosystem always shows the same card face down."""
    board = """
        L P . . .
        . . . . .
        Z . . . Z
        . . . . .
    """
    _, owner = savanna()
    scored = score(owner, board)
    assert scored.choices["lion_prey"] == ((2, 0),)
    assert scored.steps["lion"] == 4
