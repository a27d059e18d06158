"""rulewright verify --check differs on house rules that change the score only in rare
positions, and on rewrites that change nothing (tests/verify/corpus/rare/*.rules).

Each rare case changes one card's points only in a position a game seldom reaches (a
giraffe in a corner, a zebra among four prairies, ten trees in one ecosystem...): differs
must find an ecosystem where the base game and the house rule score differently, and that
ecosystem, read back through both interpreters, must score differently and hold the rare
position. Each no-op case writes a definition as another text that computes the same
thing on every input: differs must prove that it changes nothing, and leave nothing
UNKNOWN.

The cases run as those of test_verify_corpus.py do (its Case, Run and way of running
verify). Their files live in a folder of their own, so that the table of that file still
lists every file of the corpus folder itself."""
from __future__ import annotations

from pathlib import Path
from typing import Callable

import pytest

from test_verify_corpus import SAVANNA, SIDES, Case, Run, cards, neighbours, told

from rulewright.compiler import load
from rulewright.compiler.interpret import Interpreter

RARE = "rare"                   # the folder of these cases, in tests/verify/corpus/
AGAINST = "spec/ecosystem_savanna"
CELLS = [(a, b) for a in range(4) for b in range(5)]


def around(rows, cell) -> list:
    """The cards next to a cell (left, right, above, below) of a full 4 x 5 ecosystem."""
    return [rows[a][b] for a, b in neighbours(cell, 4, 5, SIDES)]


# ---------------------------------------------------------------- the facts of each case
def score_differs(seen: Callable[[list], bool]) -> Callable[[Run], None]:
    """A rare change: a difference of the score, replayed through both interpreters, on an
    ecosystem that holds the rare position (`seen` says it does)."""
    def facts(r: Run):
        f = r.one("differs", "score", "PROVED")
        assert "differs from the base game's" in f["message"]
        w = f["witness"]
        rows, rivals = w["g"], list(w.get("rivals") or [])
        assert len(cards(rows)) == 20
        base = load(SAVANNA)
        assert w["base"] == int(Interpreter(base).call("score", r.board(rows, base), rivals))
        assert w["variant"] == int(r.interp().call("score", r.board(rows), rivals))
        assert w["base"] != w["variant"]
        assert seen(rows), rows
        # nothing is called the same: a difference was found
        assert not any("changes nothing" in x["message"] for x in r.findings)
    return facts


def giraffe_in_a_corner(rows) -> bool:
    return any(rows[a][b] == "giraffe" and "tree" in around(rows, (a, b))
               for a, b in CELLS if a in (0, 3) and b in (0, 4))


def zebra_among_four_prairies(rows) -> bool:
    return any(rows[a][b] == "zebra" and around(rows, (a, b)).count("prairie") == 4 for a, b in CELLS)


def busy_water_hole(rows) -> bool:
    animals = {"gazelle", "zebra", "giraffe", "cheetah", "lion", "elephant", "hyena", "vulture"}
    return any(rows[a][b] == "water" and len(set(around(rows, (a, b))) & animals) == 4 for a, b in CELLS)


def surrounded_elephant(rows) -> bool:
    # four animals around it, none an elephant: 6 - 8 = -2 before any card is turned face
    # down (a cheetah or a lion may turn one over first, which is why this is "some")
    animals = {"gazelle", "zebra", "giraffe", "cheetah", "lion", "hyena", "vulture"}
    return any(rows[a][b] == "elephant" and len(around(rows, (a, b))) == 4
               and all(k in animals for k in around(rows, (a, b))) for a, b in CELLS)


def forest(rows) -> bool:
    return cards(rows).count("tree") >= 10


def hyena_in_a_corner(rows) -> bool:
    return any(rows[a][b] == "hyena" for a, b in CELLS if a in (0, 3) and b in (0, 4))


def pride(rows) -> bool:
    return cards(rows).count("lion") >= 5


def twin_elephants(rows) -> bool:
    return any(rows[a][b] == "elephant" and "elephant" in around(rows, (a, b)) for a, b in CELLS)


def row_of_three_trees(rows) -> bool:
    return any(row.count("tree") >= 3 for row in rows)


def low_vulture(rows) -> bool:
    return "vulture" in rows[3]


def nothing_changes(definition: str) -> Callable[[Run], None]:
    """A no-op rewrite: proved the same (a warning: the change changes nothing), and the
    whole house rule with it; nothing left UNKNOWN, no witness of a difference."""
    def facts(r: Run):
        f = r.one("differs", definition, "PROVED")
        assert f["severity"] == "warning" and "changes nothing" in f["message"] and f["witness"] is None
        assert not [x for x in r.findings if x["status"] == "UNKNOWN"]
        assert not [x for x in r.findings if "differs from the base game's" in x["message"]]
        assert any("changes nothing that could be compared" in x["message"] for x in r.findings)
    return facts


def step_the_same(step: str) -> Callable[[Run], None]:
    """A rewrite of a scoring's step that gives the same points by another count: the step,
    compared on its own, proved the same over the domain of its scoring (a proof by the
    solver, not by the shape of the text); no difference found anywhere."""
    def facts(r: Run):
        f = r.one("differs", step, "PROVED")
        assert f["severity"] == "warning" and "gives the same as the base game's for every input" in f["message"]
        assert "the box allows" in f["message"] and "written otherwise" not in f["message"]
        assert not [x for x in r.findings if "differs from the base game's" in x["message"]]
    return facts


# ---------------------------------------------------------------- the table
def rare(name: str, seen: Callable[[list], bool], **more) -> Case:
    return Case(f"{RARE}/{name}.rules", ("differs",), (("differs", "score", "PROVED"),), score_differs(seen),
                against=AGAINST, **{"time_limit": 3, **more})


def noop(name: str, definition: str, **more) -> Case:
    return Case(f"{RARE}/{name}.rules", ("differs",), (("differs", definition, "PROVED"),),
                nothing_changes(definition), against=AGAINST, **{"time_limit": 3, **more})


CASES = [
    # a giraffe next to a tree scores 6 instead of 5 in a corner
    rare("rare_cornered_giraffe", giraffe_in_a_corner),
    # a zebra with exactly four prairies around it scores 13 instead of 12
    rare("rare_four_prairie_zebra", zebra_among_four_prairies),
    # a water hole with four types of animal around it scores 9 instead of 8
    rare("rare_full_water", busy_water_hole),
    # an elephant with four other animals around it scores -3 instead of -2
    rare("rare_surrounded_elephant", surrounded_elephant),
    # ten trees or more in one ecosystem: 1 more point for the trees
    rare("rare_forest_trees", forest),
    # a hyena in a corner scores 2 more
    rare("rare_hyena_corner", hyena_in_a_corner),
    # five lions or more in one ecosystem: 2 more points for the lions
    rare("rare_lion_pride", pride),
    # an elephant next to another elephant scores 1 more
    rare("rare_twin_elephants", twin_elephants),
    # a row of three trees or more: 1 more point for the trees
    rare("rare_tree_row", row_of_three_trees),
    # a vulture in the bottom row scores 1
    rare("rare_low_vulture", low_vulture),
    # the herd bonus table written as arithmetic (10 // 2 for 5...)
    noop("noop_herd_places_arith", "herd_places"),
    # the herd's condition with its operands swapped (gazelle == g[c])
    noop("noop_swapped_herd", "herd_size"),
    # the placement rule with the two sides of `or` in the other order
    noop("noop_swapped_placement", "can_place"),
    # the elephant's floor as `if not ... then max(raw, 0) else raw`
    noop("noop_elephant_floor", "elephant_score"),
    # the herd bonus with its comparisons read from the other side (`mine < h`, `0 == mine`)
    noop("noop_flipped_herd_bonus", "herd_bonus"),
    # the zebra's step with its product and its comparisons turned round
    noop("noop_turned_zebra", "score.zebra"),
    # the zebra's points counted from the prairies' side: the step compared on its own
    Case(f"{RARE}/noop_zebra_from_prairies.rules", ("differs",), (("differs", "score.zebra", "PROVED"),),
         step_the_same("score.zebra"), against=AGAINST, time_limit=3),
]


def test_every_file_of_the_folder_is_in_the_table():
    folder = Path(__file__).resolve().parent / "corpus" / RARE
    assert sorted(p.name for p in folder.glob("*.rules")) == sorted(Path(c.file).name for c in CASES)
    for case in CASES:
        text = (folder / Path(case.file).name).read_text(encoding="utf-8")
        assert text.startswith("# ")
        assert "Expected (--against" in text


@pytest.mark.slow
@pytest.mark.parametrize("case", [pytest.param(c, id=Path(c.file).stem) for c in CASES])
def test_rare_change_or_no_op_is_told(case: Case, tmp_path):
    told(case, tmp_path / "witnesses")
