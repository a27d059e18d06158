"""verify's answers kept between runs (``solver/verify/kept.py``): a question asked again on
the same rules is answered as the last run answered it; a change to what a question reads,
to its limits, its position or the solve plan asks it again; ``fresh`` asks everything
again; what the face says of it."""
from __future__ import annotations

from pathlib import Path

import pytest

from helpers import run_command

from rulewright.compiler import cache, load
from rulewright.solver import solving
from rulewright.solver.verify import kept, proofs
from rulewright.solver.verify.run import verify

GAME = """
game tiles "Tiles"
enum colour {{ red, green, blue }}
grid board: 2 by 2 of colour

/// A tile may go anywhere but blue.
rule allowed(c: colour) [T-01] = c != blue
/// Red is worth more than the rest.
rule precious(c: colour) [T-02] = worth(c) >= 2

/// Points per tile.
def worth(c: colour) = if c == red then {red} else if c == green then 1 else -1
/// A colour's rank, which reads nothing else.
def standing(c: colour) = if c == red then 3 else if c == green then 2 else 1
scoring points(g: board) {{
  step tiles = sum(worth(g[x]) for x in cells(g) if g[x] != none)
}}

state {{ placed: int }}
procedure turn(p: seat) {{
  choose c in colour where allowed(c) by p
  set placed = placed + 1
}}
invariant few_tiles: placed <= 8 else "no more than 8 tiles"
mode standard "Standard" players 1..2 {{
  seats players
  repeat 2 {{ for p in players {{ do turn(p) }} }}
  report placed = placed
}}
"""
CHECKS = {"never_holds", "always_holds", "range"}
ROOT = Path(__file__).resolve().parents[1]
while not (ROOT / "pyproject.toml").is_file():
    ROOT = ROOT.parent


@pytest.fixture
def own_cache(tmp_path, monkeypatch):
    """A cache folder of the test's own, and verify's steady plan (as the command uses)."""
    monkeypatch.setenv("RULEWRIGHT_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv(solving.PLAN_VARIABLE, "steady")
    cache.directory.cache_clear()
    yield tmp_path / "cache"
    cache.directory.cache_clear()


def spec(tmp_path, red: int = 2, before: str = ""):
    path = tmp_path / "tiles.rules"
    path.write_text(before + GAME.format(red=red), encoding="utf-8")
    return load(path)


def statuses(report) -> dict:
    return {(f.check, f.definition): (f.status, f.message) for f in report.findings}


def asked_about(monkeypatch) -> list:
    """The names of the definitions each question solved (not recalled) is about."""
    solved = []
    real = proofs.run_query

    def spy(program, name, *args, **kw):
        solved.append(program.queries[name].node.name)
        return real(program, name, *args, **kw)
    monkeypatch.setattr(proofs, "run_query", spy)
    return solved


def test_a_second_run_is_answered_as_the_first(tmp_path, own_cache, monkeypatch):
    first = verify(spec(tmp_path), "tiles", CHECKS, games=0)
    assert first.asked > 0 and first.recalled == 0
    solved = asked_about(monkeypatch)
    again = verify(spec(tmp_path), "tiles", CHECKS, games=0)
    assert (again.asked, again.recalled, solved) == (first.asked, first.asked, [])
    assert statuses(again) == statuses(first)
    fresh = verify(spec(tmp_path), "tiles", CHECKS, games=0, fresh=True)
    assert fresh.recalled == 0 and len(solved) == first.asked and statuses(fresh) == statuses(first)
    # what a fresh run found is kept too
    for entry in own_cache.glob("verify-*.pickle"):
        entry.unlink()
    verify(spec(tmp_path), "tiles", CHECKS, games=0, fresh=True)
    assert verify(spec(tmp_path), "tiles", CHECKS, games=0).recalled == first.asked


def test_the_kept_answer_is_the_one_used(tmp_path, own_cache):
    """A doctored entry (another range kept under the key of worth's question) is what the
    next run reports: the answers do come from what was kept."""
    verify(spec(tmp_path), "tiles", {"range"}, games=0)
    entries = sorted(own_cache.glob("verify-*.pickle"))
    assert entries
    doctored = 0
    for entry in entries:
        answer = cache.unpickled(__import__("io").BytesIO(entry.read_bytes()))
        if answer.status == "OPTIMAL" and answer.objective == 2:     # (the most worth gives: red)
            entry.write_bytes(cache.pickled(__import__("dataclasses").replace(answer, objective=99, bound=99)))
            doctored += 1
    assert doctored
    report = verify(spec(tmp_path), "tiles", {"range"}, games=0)
    assert any("99" in f.message for f in report.findings if f.definition == "worth")


def test_a_change_asks_again_only_what_reads_it(tmp_path, own_cache, monkeypatch):
    verify(spec(tmp_path), "tiles", CHECKS, games=0)
    solved = asked_about(monkeypatch)
    changed = verify(spec(tmp_path, red=5), "tiles", CHECKS, games=0)
    # worth changed: its range, the scoring's (which reads it) and the rule precious are asked
    # again; allowed and standing read nothing that changed
    assert set(solved) == {"worth", "points", "precious"}
    assert changed.recalled == changed.asked - len(solved) > 0
    [worth] = [f for f in changed.findings if f.check == "range" and f.definition == "worth"]
    assert "5" in worth.message


def test_moving_a_definition_keeps_its_answers(tmp_path, own_cache, monkeypatch):
    """Where a definition is written is not what it means: lines added above keep every answer,
    and the findings name the new lines."""
    first = verify(spec(tmp_path), "tiles", CHECKS, games=0)
    solved = asked_about(monkeypatch)
    moved = verify(spec(tmp_path, before="\n\n\n"), "tiles", CHECKS, games=0)
    assert solved == [] and moved.recalled == first.asked
    lines = {(f.check, f.definition): f.span.line for f in first.findings}
    assert all(f.span.line == lines[(f.check, f.definition)] + 3 for f in moved.findings)


@pytest.mark.parametrize("change", ["limit", "workers", "wall plan", "cache off"])
def test_what_else_an_answer_depends_on_asks_again(tmp_path, own_cache, monkeypatch, change):
    verify(spec(tmp_path), "tiles", CHECKS, games=0)
    solved = asked_about(monkeypatch)
    # (a limit that changes the work of every question: a range's bounds get 3 s of 10, 6 of 20)
    options = {"limit": {"time_limit": 20.0}, "workers": {"workers": 1}}.get(change, {})
    if change == "wall plan":
        monkeypatch.setenv(solving.PLAN_VARIABLE, "wall")      # (seconds on the clock: nothing kept)
    if change == "cache off":
        monkeypatch.setenv("RULEWRIGHT_CACHE", "off")
        cache.directory.cache_clear()
    report = verify(spec(tmp_path), "tiles", CHECKS, games=0, **options)
    assert report.recalled == 0 and len(solved) == report.asked
    if change == "wall plan":
        again = verify(spec(tmp_path), "tiles", CHECKS, games=0)
        assert again.recalled == 0


def test_a_position_is_part_of_the_question(tmp_path, own_cache):
    program = spec(tmp_path)
    keys = kept.Keys(program)
    body = proofs.domain_of(program, "c", program.funcs["standing"].params[0][1], None)
    with solving.using(solving.STEADY):
        plain = keys.key(body, None, 3.0, 2)
        from rulewright.compiler.interpret import interpreter_for
        interp = interpreter_for(program)
        one = interp.play("standard", 1, 1)
        two = interp.play("standard", 2, 1)
        assert len({plain, keys.key(body, one, 3.0, 2), keys.key(body, two, 3.0, 2)}) == 3
        assert keys.key(body, one, 3.0, 2) == kept.Keys(program).key(body, one, 3.0, 2)


def test_the_games_are_played_again_only_when_what_they_play_changes(tmp_path, own_cache):
    first = verify(spec(tmp_path), "tiles", {"invariant", "terminates"}, games=3)
    assert not first.games_recalled
    again = verify(spec(tmp_path), "tiles", {"invariant", "terminates"}, games=3)
    assert again.games_recalled and statuses(again) == statuses(first)
    assert not verify(spec(tmp_path), "tiles", {"invariant", "terminates"}, games=4).games_recalled
    assert not verify(spec(tmp_path, red=5), "tiles", {"invariant", "terminates"}, games=3).games_recalled


def test_the_command_says_what_it_did_not_ask_again(tmp_path, own_cache):
    path = tmp_path / "tiles.rules"
    path.write_text(GAME.format(red=2), encoding="utf-8")
    args = ("verify", str(path), "--check", "never_holds,range", "--games", "0")
    first = run_command(*args)
    assert first.returncode == 0 and "earlier run" not in first.stdout
    again = run_command(*args)
    assert again.returncode == 0
    assert "questions to the solver were answered as an earlier run answered them" in again.stdout
    assert "--fresh asks them again" in again.stdout
    fresh = run_command(*args, "--fresh")
    assert "earlier run" not in fresh.stdout
    assert again.stdout.splitlines()[-1] == first.stdout.splitlines()[-1] == fresh.stdout.splitlines()[-1]


def test_what_a_house_rule_changes_is_answered_as_the_last_run_found_it(tmp_path, own_cache, monkeypatch):
    base = spec(tmp_path)
    house = tmp_path / "house.rules"
    house.write_text('variant house "Dearer red" extends "tiles.rules"\n'
                     "override def worth(c: colour) = if c == red then 3 else if c == green then 1 else -1\n",
                     encoding="utf-8")
    first = verify(load(house), "house", {"differs"}, games=0, base=base)
    from rulewright.solver.verify import differing
    solved = []
    real = differing._disagreement_solved
    monkeypatch.setattr(differing, "_disagreement_solved", lambda *a, **k: solved.append(a[2]) or real(*a, **k))
    again = verify(load(house), "house", {"differs"}, games=0, base=spec(tmp_path))
    assert first.asked > 0 and again.recalled == again.asked == first.asked and solved == []
    assert statuses(again) == statuses(first)
    assert any(f.definition == "worth" and "differs from the base game's" in f.message for f in again.findings)
    verify(load(house), "house", {"differs"}, games=0, base=spec(tmp_path), fresh=True)
    assert solved


@pytest.mark.parametrize("other", ["{0: 1, else: 4}", "{0: 2, else: 5}", "{1: 1, else: 5}"])
def test_a_table_of_values_is_read_whole(tmp_path, other):
    """A table of values prints without its 'else' in places: its key reads every part of it,
    so a table with another 'else' (or another value, or key) is another question."""
    def question(table: str):
        path = tmp_path / f"t{abs(hash(table))}.rules"
        path.write_text('game t "T"\nenum colour { red, green }\n'
                        f"def e(c: colour) = {table}[if c == red then 0 else 1]\n", encoding="utf-8")
        program = load(path)
        body = proofs.domain_of(program, "c", program.funcs["e"].params[0][1], None)
        from rulewright.compiler import ir as I
        call = I.Call(program.funcs["e"].type, None, "e", [I.Local(program.funcs["e"].params[0][1], None, "c")])
        with solving.using(solving.STEADY):
            return kept.Keys(program).key(body + [I.Objective(None, "maximize", call)], None, 3.0, 2)
    mine = question("{0: 1, else: 5}")
    assert mine is not None and mine == question("{0: 1, else: 5}")
    assert question(other) != mine


def test_every_question_of_the_shipped_games_can_be_kept():
    """No value of the shipped games lacks a stable text: each definition's question has a key."""
    from rulewright.compiler import ir as I
    for spec in ("spec/ecosystem_savanna", "spec/darwins_choice"):
        program = load(ROOT / spec)
        keys = kept.Keys(program)
        with solving.using(solving.STEADY):
            for name, fd in program.funcs.items():
                if fd.body is not None:
                    assert keys.key([I.Let(None, "v", I.Call(fd.type, None, name, []))], None, 3.0, 2), (spec, name)
