"""Games played one after the other (a study's, a tournament's) keep the cycle collector rare
between them too (``Interpreter.batch``), and put its threshold back after; the games are
the same games."""
import gc
from pathlib import Path

import pytest

from rulewright.compiler import load
from rulewright.compiler.interpret.collecting import FEW
from rulewright.compiler.interpret.interpreter import Interpreter
from rulewright.compiler.play.simulate import simulate

from helpers import child_forked_holding

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.xdist_group("savanna_batch")


@pytest.fixture(scope="module")
def savanna():
    return load(ROOT / "spec" / "ecosystem_savanna")


@pytest.fixture
def default_threshold():
    """Python's own threshold for the test (the suite raises it: tests/conftest.py)."""
    suite = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    try:
        yield (700, 10, 10)
    finally:
        gc.set_threshold(*suite)


def _young_collections() -> int:
    return gc.get_stats()[0]["collections"]


def _games(interp, seeds) -> list:
    return [(repr(st.reports), [(e.kind, e.seat, repr(e.detail)) for e in st.log])
            for st in (interp.play("standard", 4, s) for s in seeds)]


def test_a_batch_holds_the_threshold_between_games_and_puts_it_back(savanna, default_threshold):
    interp = Interpreter(savanna)
    with interp.batch():
        assert gc.get_threshold()[0] == FEW
        interp.play("standard", 4, 1)
        assert gc.get_threshold()[0] == FEW         # (the game's own stretch ended inside it)
        with interp.batch():
            pass
        assert gc.get_threshold()[0] == FEW
    assert gc.get_threshold() == default_threshold
    with pytest.raises(ZeroDivisionError):
        with interp.batch():
            1 / 0
    assert gc.get_threshold() == default_threshold
    with Interpreter(savanna, fast=False).batch():     # (the baseline leaves the collector alone)
        assert gc.get_threshold() == default_threshold


def test_games_in_a_batch_leave_the_collector_nothing_to_walk_between_them(savanna, default_threshold):
    """Each game ends with a few thousand young values, freed when the next game starts:
    one after the other outside a batch the collector walked them after most games;
    in a batch it does not run at all. The games are the same."""
    interp = Interpreter(savanna)
    seeds = range(30)
    interp.play("standard", 4, 99)          # (first calls, the memos' trials)
    gc.collect()
    before = _young_collections()
    alone = _games(interp, seeds)
    outside = _young_collections() - before
    gc.collect()
    before = _young_collections()
    with interp.batch():
        batched = _games(interp, seeds)
    inside = _young_collections() - before
    assert batched == alone
    assert outside >= 10, outside          # (13 here: a walk after two games in three)
    assert inside <= 1, inside


def test_a_study_plays_its_games_in_a_batch(savanna, default_threshold):
    interp = Interpreter(savanna)
    seen = []
    summary = simulate(interp, "standard", 4, [1, 2, 3], on_game=lambda i, st: seen.append(gc.get_threshold()[0]))
    assert summary.games == 3
    assert seen == [FEW] * 3
    assert gc.get_threshold() == default_threshold


def test_a_job_of_many_games_in_this_process_plays_them_in_a_batch(default_threshold):
    from rulewright.app import workers

    seen = list(workers.results(lambda task: (task, gc.get_threshold()[0]), [1, 2, 3], 1, {}, lambda kit: {}))
    assert seen == [(1, FEW), (2, FEW), (3, FEW)]
    assert gc.get_threshold() == default_threshold


def _threshold(task):
    return task, gc.get_threshold()[0]


def test_a_worker_process_plays_its_games_in_a_batch(default_threshold):
    from rulewright.app import workers

    assert list(workers.results(_threshold, [1, 2, 3, 4], 2, {}, lambda kit: {})) == [(t, FEW) for t in (1, 2, 3, 4)]
    assert gc.get_threshold() == default_threshold


def test_a_child_forked_while_another_thread_enters_a_stretch_can_enter_one():
    """(The collector's lock, held by another thread of the parent when it forks, would be
    held for ever in the child: a study's worker process enters a batch as it starts.)"""
    from rulewright.compiler.interpret import collecting

    def enters():
        with collecting.few_collections():
            return gc.get_threshold()[0] == FEW
    child_forked_holding(collecting._LOCK, enters)


def test_a_chunk_of_games_on_a_ray_worker_plays_them_in_a_batch(default_threshold):
    """(``_ray_chunk`` is what a Ray worker runs: called here directly, Ray not needed)"""
    from rulewright.app import workers

    got = workers._ray_chunk(lambda task: (task, gc.get_threshold()[0]), lambda kit: {}, {"key": "batch-test"}, [1, 2])
    assert got == [(1, FEW), (2, FEW)]
    assert gc.get_threshold() == default_threshold
