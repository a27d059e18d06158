"""verify's questions follow the steady plan: a budget of work (CP-SAT's deterministic time,
a fixed seed), the clock stopping a question only at four times the limit, so that a busy
machine reaches the same verdict later rather than another one sooner."""
from __future__ import annotations

from ortools.sat.python import cp_model

from helpers import ROOT
from rulewright.compiler import load
from rulewright.solver import solving
from rulewright.solver.verify import run, static


def test_a_steady_question_is_a_budget_of_work_with_a_wide_clock(monkeypatch):
    monkeypatch.delenv(solving.PLAN_VARIABLE, raising=False)
    solver = cp_model.CpSolver()
    solving.limit(solver, 2.0)
    assert solver.parameters.max_time_in_seconds == 2.0          # the wall plan: seconds
    with solving.using(solving.STEADY):
        solver = cp_model.CpSolver()
        solving.limit(solver, 2.0)
        assert solver.parameters.max_deterministic_time == 2.0 * solving.STEADY.work_per_second
        assert solver.parameters.max_time_in_seconds == 8.0
        assert solver.parameters.random_seed == solving.STEADY.seed
    assert solving.plan() is solving.WALL                         # only inside


def test_verify_asks_under_the_steady_plan_unless_told_otherwise(monkeypatch):
    program = load(ROOT / "spec" / "ecosystem_savanna")
    seen = []
    real = static.unused
    monkeypatch.setattr(static, "unused", lambda p: seen.append(solving.plan()) or real(p))
    monkeypatch.delenv(solving.PLAN_VARIABLE, raising=False)
    run.verify(program, "spec/ecosystem_savanna", {"unused"}, games=0)
    monkeypatch.setenv(solving.PLAN_VARIABLE, "wall")
    run.verify(program, "spec/ecosystem_savanna", {"unused"}, games=0)
    assert seen == [solving.STEADY, solving.WALL]


def test_only_looks_at_the_definitions_named(capsys):
    """--only: the checks over definitions look at those named; a name the spec does not
    have is refused with a close one."""
    from helpers import run_main
    thirst = ROOT / "tests" / "verify" / "corpus" / "savanna_thirst.rules"
    code, out, err = run_main(capsys, "verify", thirst, "--check", "range", "--only", "thirst", "--time-limit", "2",
                              "--json", "--no-progress")
    assert code == 0, err
    import json
    assert {f["definition"] for f in json.loads(out)["findings"]} == {"thirst"}
    code, out, err = run_main(capsys, "verify", thirst, "--only", "thrist", "--no-progress")
    assert code == 2 and "--only thrist: no definition, scoring or property" in err and "'thirst'" in err
