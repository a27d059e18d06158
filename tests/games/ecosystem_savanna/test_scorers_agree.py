"""The spec's scoring against the two scorers written by hand for benchmarks/scoring.py:
every total, every card type's points and the lions' prey agree on random grids and herds,
so the benchmark times three scorers of the same game (and the hand-written one is an
oracle for the spec that shares none of its code)."""
import random

from helpers import benchmark_script
from rulewright.compiler.semantics import runtime as rt


def test_the_spec_and_both_hand_written_scorers_score_every_grid_alike(interp):
    hand, indexed = benchmark_script("handwritten_scorer"), benchmark_script("indexed_scorer")
    card = interp.program.enums["card"]
    box = [k for k in card.values for _ in range(card.attrs["count"][k])]
    rng = random.Random(35)
    several = 0
    for _ in range(400):
        cards = rng.sample(box, 20)
        grid = [cards[r * 5:(r + 1) * 5] for r in range(4)]
        rivals = tuple(rng.randrange(0, 7) for _ in range(rng.randrange(0, 4)))
        total, parts, prey = hand.score([list(row) for row in grid], rivals)
        board = rt.Board("ecosystem", 4, 5, True, {(r, c): grid[r][c] for r in range(4) for c in range(5)})
        spec = interp.call("score", board, rivals)
        assert (int(spec), dict(spec.steps)) == (total, parts), grid
        assert tuple(spec.choices["lion_prey"]) == tuple(prey), grid
        assert indexed.score({(r, c): grid[r][c] for r in range(4) for c in range(5)}, rivals) == (total, parts), grid
        several += len(prey) > 0 and parts["elephant"] + parts["hyena"] + parts["vulture"] > 0
    assert several > 50         # the lions' choice decided something in many of the grids
