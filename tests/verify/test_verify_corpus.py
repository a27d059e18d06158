"""rulewright verify on a seeded-bug corpus: broken variants and house rules of the shipped
games (tests/verify/corpus/*.rules), each with the finding verify must report and what its
witness must show; and the other direction, every shipped spec, variant and house rule
without a broken guarantee.

The table CASES lists, for each case file: the checks and verify's arguments, how it is
run (the Python API or the command line), the (check, definition, status) that must
appear, and the facts of its findings (the witness read back through the interpreter; for
sampled checks only what no seed changes)."""
from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import pytest

from helpers import run_command

from rulewright.compiler import load
from rulewright.compiler.diagnostics import RulesError
from rulewright.compiler.interpret import Interpreter
from rulewright.compiler.play.inputs import read_grid
from rulewright.compiler.semantics import runtime as rt
from rulewright.solver.verify.run import verify

ROOT = Path(__file__).resolve().parents[1]
while not (ROOT / "pyproject.toml").is_file():
    ROOT = ROOT.parent
CORPUS = Path(__file__).resolve().parent / "corpus"
SAVANNA = ROOT / "spec" / "ecosystem_savanna"


def run(*args, cwd=ROOT):
    """The command run in this process, as it runs in its own (``helpers.run_command``)."""
    return run_command(*args, cwd=cwd)


@dataclass
class Run:
    """What one case's verify gave: its findings as JSON (the command line's `--json`, or
    the API report's own `to_json`, with the witness files written beside them)."""
    case: "Case"
    program: object
    findings: list[dict]
    out: Path

    def all(self, check: str, definition: str | None = None) -> list[dict]:
        return [f for f in self.findings if f["check"] == check and (definition is None or f["definition"] == definition)]

    def one(self, check: str, definition: str, status: str | None = None) -> dict:
        found = [f for f in self.all(check, definition) if status is None or f["status"] == status]
        assert len(found) == 1, (check, definition, status, self.findings)
        return found[0]

    def interp(self, program=None) -> Interpreter:
        return Interpreter(program or self.program)

    def board(self, rows, program=None) -> rt.Board:
        return self.interp(program).board(rows)

    def file(self, finding: dict, suffix: str) -> Path:
        [path] = [p for p in finding.get("files", []) if p.endswith(suffix)]
        return Path(path)


def in_corpus(f: dict, name: str) -> bool:
    return f["at"] is not None and f["at"].split(":")[0].endswith(f"tests/verify/corpus/{name}")


def cards(rows) -> list:
    return [k for row in rows for k in row if k is not None]


def neighbours(cell, rows_count: int, cols_count: int, steps) -> list:
    r, c = cell
    return [(r + dr, c + dc) for dr, dc in steps if 0 <= r + dr < rows_count and 0 <= c + dc < cols_count]


SIDES = ((-1, 0), (1, 0), (0, -1), (0, 1))


# ---------------------------------------------------------------- the facts of each case
def big_hearts(r: Run):
    """1: a requirement no card can meet. No head of the catalogue shows 3 Hearts."""
    table = r.program.enums["animal_card"]
    heads = [k for k in table.values if table.attrs["part"][k] == "head"]
    assert heads and max(table.attrs["hearts"][k] for k in heads) == 2     # (the fact that breaks it)
    for name in ("big_heart", "well_formed"):
        f = r.one("never_holds", name, "PROVED")
        assert f["severity"] == "warning" and "never holds" in f["message"] and f["witness"] is None
        assert "any set of Animal Cards" in f["message"] and "HR-TEST-HEARTS" in f["rule_ids"]
        assert in_corpus(f, "darwin_big_hearts.rules")
    # the rules of a species' shape that the house rule leaves alone still hold for some cards
    assert r.one("never_holds", "one_head")["severity"] == "info"


def crowded_biomes(r: Run):
    """2: biomes nobody can live in: those with more plants than a species' most Hearts (5)."""
    f = r.one("choosable", "settles(b)", "PROVED")
    table = r.program.enums["biome"]
    rich = [b for b in table.values if table.attrs["plants"][b] > 5]
    assert f["severity"] == "warning" and len(rich) == 6
    assert sorted(f["witness"]["never"]) == sorted(rich)
    assert {"savanna", "hill_country"} <= set(f["witness"]["never"])
    assert sorted(f["witness"]["never"] + f["witness"]["choosable"]) == sorted(table.values)
    assert all(table.attrs["plants"][b] <= 5 for b in f["witness"]["choosable"])
    assert "6 of 22 values of biome" in f["message"]


def spaced_cards(r: Run):
    """3: a placement rule that forbids a card next to another: the rule can hold and fail,
    the game cannot be played (a 4 x 5 grid holds 10 cards none of which touch)."""
    f = r.one("playable", "standard", "COUNTEREXAMPLE")
    assert f["severity"] == "error" and "no legal option for choice 'spot'" in f["message"]
    w = f["witness"]
    # every game gets stuck, so the first sampled game (3 players, seed 1) shows it
    assert (w["mode"], w["players"], w["seed"]) == ("standard", 3, 1)
    with pytest.raises(RulesError) as info:
        r.interp().play(w["mode"], w["players"], w["seed"])
    assert "spot" in info.value.render()
    both = r.one("never_holds", "can_place", "PROVED")
    assert both["severity"] == "info"
    interp = r.interp()
    for side, value in (("holds", True), ("fails", False)):
        g, spot = both["witness"][side]["g"], tuple(both["witness"][side]["spot"])
        assert interp.call("can_place", r.board(g), spot) is value
    g, spot = both["witness"]["fails"]["g"], tuple(both["witness"]["fails"]["spot"])
    assert any(g[a][b] is not None for a, b in neighbours(spot, 4, 5, SIDES))     # a card next to it


def hungry_hyenas(r: Run):
    """4: a scoring step that goes negative, against the base game's property."""
    f = r.one("property", "below_zero_only_through_elephants", "COUNTEREXAMPLE")
    assert f["severity"] == "error"
    board = read_grid(str(r.file(f, ".grid")), r.program, "ecosystem", allow_free=True)
    ks = list(board.cards.values())
    assert len(ks) == 20 and "hyena" in ks and "elephant" not in ks
    assert int(r.interp().call("score", board, [])) < 0                 # read back: below 0
    base = load(SAVANNA)
    again = read_grid(str(r.file(f, ".grid")), base, "ecosystem", allow_free=True)
    assert int(Interpreter(base).call("score", again, [])) >= 0         # the hyena's step did it


def same_herd(r: Run):
    """5: a house rule that changes nothing."""
    f = r.one("differs", "herd_size", "PROVED")
    assert f["severity"] == "warning" and "changes nothing" in f["message"] and f["witness"] is None
    whole = r.one("differs", "same_herd", "PROVED")
    assert whole["severity"] == "warning" and "changes nothing that could be compared" in whole["message"]
    assert not [x for x in r.all("differs") if x["witness"]]


def lone_lions(r: Run):
    """A change the solver alone did not settle: found among random inputs and replayed."""
    f = r.one("differs", "score", "PROVED")
    assert "random inputs" in f["message"] and "differs from the base game's" in f["message"]
    w = f["witness"]
    base = load(SAVANNA)
    rivals = w.get("rivals") or []
    assert w["base"] == int(Interpreter(base).call("score", r.board(w["g"], base), list(rivals)))
    assert w["variant"] == int(r.interp().call("score", r.board(w["g"]), list(rivals)))
    assert w["base"] != w["variant"]


def second_herd(r: Run):
    """A change that shows only against the rivals: found on what decides the game."""
    f = r.one("differs", "final_score", "PROVED")
    assert "what decides the game" in f["message"] and f["witness"]["base"] != f["witness"]["variant"]
    assert f["witness"]["position"]


def square_prairies(r: Run):
    """A no-op rewrite (constants written as formulas): proved the same without solving."""
    f = r.one("differs", "prairie_points", "PROVED")
    assert "changes nothing" in f["message"] and f["severity"] == "warning"
    assert not [x for x in r.findings if x["status"] == "UNKNOWN"]
    assert any("changes nothing that could be compared" in x["message"] for x in r.findings)


def cubed_prairies(r: Run):
    """A rewrite that changes a value: never called the same."""
    assert not any(x["definition"] == "prairie_points" and "changes nothing" in x["message"]
                   for x in r.findings)
    assert not any("changes nothing that could be compared" in x["message"] for x in r.findings)


def zebra_herd(r: Run):
    """6: a house rule that changes a rule: an ecosystem on which base and variant differ."""
    f = r.one("differs", "herd_size", "PROVED")
    assert f["severity"] == "info" and "differs from the base game's" in f["message"]
    w = f["witness"]
    rows = w["g"]
    zebras, gazelles = cards(rows).count("zebra"), cards(rows).count("gazelle")
    assert zebras > 0
    base = load(SAVANNA)
    assert w["base"] == int(Interpreter(base).call("herd_size", r.board(rows, base))) == gazelles
    assert w["variant"] == int(r.interp().call("herd_size", r.board(rows))) == gazelles + zebras
    assert not [x for x in r.all("differs") if x["severity"] == "warning"]


def animal_deck(r: Run):
    """7: a supply too small for six players: the second round deals from an empty deck."""
    found = [f for f in r.all("runtime") if f["status"] == "COUNTEREXAMPLE"]
    assert found
    for f in found:
        w = f["witness"]
        assert f["severity"] == "error" and "cannot deal" in f["message"]
        assert w["mode"] == "standard" and w["players"] == 6          # 3 players: 66 of 88 cards, dealt in full
        with pytest.raises(RulesError) as info:
            r.interp().play(w["mode"], w["players"], w["seed"])
        assert "cannot deal" in info.value.render()
        # the replay the witness names fails too (play also watches the invariants: the deck
        # without the terrain cards breaks cards_accounted_for at the first pick)
        code, _, err = run("play", CORPUS / "savanna_animal_deck.rules", "--mode", w["mode"],
                           "--players", w["players"], "--seed", w["seed"])
        assert code == 1, err


def chinese_events(r: Run):
    """8: events that can never be drawn (choosable: a rule over the event says it)."""
    f = r.one("choosable", "in_event_stack(e)", "PROVED")
    table = r.program.enums["event"]
    unnamed = [e for e in table.values if table.attrs["zh"][e] == ""]
    assert f["severity"] == "warning" and len(unnamed) == 7 and "flood" in unnamed
    assert sorted(f["witness"]["never"]) == sorted(unnamed)
    assert all(table.attrs["zh"][e] != "" for e in f["witness"]["choosable"])


def water_mulligan(r: Run):
    """9: a while that never ends (the hand it waits on never changes)."""
    f = r.one("terminates", "standard", "COUNTEREXAMPLE")
    assert f["severity"] == "error" and "went round a million times" in f["message"]
    assert in_corpus(f, "savanna_water_mulligan.rules")                # at the while
    w = f["witness"]
    with pytest.raises(RulesError) as info:
        r.interp().play(w["mode"], w["players"], w["seed"])
    assert "a million times" in info.value.render()


def vanishing_fire(r: Run):
    """10: an invariant the rules break: the burnt prairie leaves the game."""
    f = r.one("invariant", "cards_accounted_for", "COUNTEREXAMPLE")
    assert f["severity"] == "error" and f["witness"]["checkpoint"] == "end"
    assert "prairie cards" in f["message"] and "once the game is over" in f["message"]
    state = r.file(f, ".state.json")
    code, _, err = run("show", CORPUS / "savanna_vanishing_fire.rules", "--state", state)
    assert code == 0 or "cards_accounted_for" in err
    assert code != 0              # (the position breaks it: show refuses it, naming the invariant)
    # the picks are counted with the burnt prairie: the ecosystems still grow together
    assert r.one("invariant", "ecosystems_grow_together")["status"] == "SAMPLED"


def diet_shown(r: Run):
    """11: a rule whose message can never fire: the load-time check head_diet guarantees it."""
    f = r.one("always_holds", "diet_shown", "PROVED")
    assert f["severity"] == "warning" and "its message can never be shown" in f["message"]
    table = r.program.enums["animal_card"]
    assert r.interp().call("diet_shown", f["witness"]["holds"]["k"]) is True
    assert all(table.attrs["diet"][k] is not None for k in table.values if table.attrs["part"][k] == "head")
    assert r.one("never_holds", "one_head")["severity"] == "info"      # the rule that calls it: both ways


def unread_bonus(r: Run):
    """12: a param nothing reads, in the variant's own file: a warning."""
    f = r.one("unused", "oasis_bonus", "PROVED")
    assert f["severity"] == "warning" and "param 'oasis_bonus'" in f["message"] and f["witness"] is None
    assert in_corpus(f, "savanna_unread_bonus.rules")
    assert [x["definition"] for x in r.all("unused") if x["severity"] == "warning"] == ["oasis_bonus"]


def thirst(r: Run):
    """13: a range that runs away below 0: 20 thirsty elephants over every ecosystem."""
    f = r.one("range", "thirst", "PROVED")
    assert f["severity"] == "warning" and "can go below 0" in f["message"] and "every ecosystem" in f["message"]
    assert (f["witness"]["least"], f["witness"]["most"]) == (-60, 0)
    least = f["witness"]["least_at"]["g"]
    assert cards(least) == ["elephant"] * 20
    assert int(r.interp().call("thirst", r.board(least))) == -60


def thirst_box(r: Run):
    """15: a domain for one definition only: thirst over the box's ecosystems (8 elephants),
    another definition over ecosystems (herd_size) over its own domain."""
    f = r.one("range", "thirst", "PROVED")
    assert f["severity"] == "warning" and "every full ecosystem of the box" in f["message"]
    assert (f["witness"]["least"], f["witness"]["most"]) == (-24, 0)
    least = f["witness"]["least_at"]["g"]
    assert len(cards(least)) == 20 and cards(least).count("elephant") == 8
    assert int(r.interp().call("thirst", r.board(least))) == -24
    [herd] = r.all("range", "herd_size")
    assert "over g: every ecosystem" in herd["message"]                   # its own domain, not thirst's
    assert "every full ecosystem of the box" not in herd["message"]


def guarantees(r: Run):
    """14: properties that hold: no false alarm."""
    for name in ("first_card_anywhere", "next_to_a_card", "giraffe_by_a_tree", "never_below_zero"):
        f = r.one("property", name, "PROVED")
        assert f["severity"] == "info" and "holds for every choice" in f["message"]
    assert not [f for f in r.findings if f["status"] != "PROVED"]


def giraffe_tight(r: Run):
    """14, the other side: one point more is refuted, by an ecosystem that scores 9."""
    f = r.one("property", "giraffe_by_a_tree", "COUNTEREXAMPLE")
    rows = f["witness"]["g"]
    assert len(cards(rows)) == 20
    assert any(rows[a][b] == "giraffe" and any(rows[x][y] == "tree" for x, y in neighbours((a, b), 4, 5, SIDES))
               for a in range(4) for b in range(5))
    assert int(r.interp().call("score", r.board(rows), [])) == 9
    assert r.one("property", "next_to_a_card")["status"] == "PROVED"


def last_card_placed(r: Run):
    """16: a choice with no option: the 21st card of a 20-cell ecosystem."""
    f = r.one("playable", "standard", "COUNTEREXAMPLE")
    assert f["severity"] == "error" and "no legal option for choice 'spot'" in f["message"]
    assert (f["witness"]["players"], f["witness"]["seed"]) == (3, 1)    # every game: the first shows it
    assert r.one("runtime", "standard")["status"] == "SAMPLED"


def no_passing(r: Run):
    """16: a choice with no option: no main action once nothing else is open."""
    f = r.one("playable", "standard", "COUNTEREXAMPLE")
    assert f["severity"] == "error" and "no legal option for choice 'act'" in f["message"]
    assert f["at"].split(":")[0].endswith("spec/darwins_choice/actions.rules")
    w = f["witness"]
    with pytest.raises(RulesError) as info:
        r.interp().play(w["mode"], w["players"], w["seed"])
    assert "act" in info.value.render()


def diagonal_placement(r: Run):
    """6 (a placement rule): an ecosystem and a cell the base refuses and the variant allows."""
    f = r.one("differs", "can_place", "PROVED")
    g, spot = f["witness"]["g"], tuple(f["witness"]["spot"])
    assert (f["witness"]["base"], f["witness"]["variant"]) == (False, True)
    base = load(SAVANNA)
    assert Interpreter(base).call("can_place", r.board(g, base), spot) is False
    assert r.interp().call("can_place", r.board(g), spot) is True


def framed_placement(r: Run):
    """A rule over a cell of a floating grid: play offers cells outside the frame."""
    f = r.one("never_holds", "within_frame", "PROVED")
    assert f["severity"] == "info"
    assert not r.all("always_holds", "within_frame")


# ---------------------------------------------------------------- the table
@dataclass(frozen=True)
class Case:
    file: str                               # in tests/verify/corpus/
    checks: tuple[str, ...]                 # --check
    expect: tuple[tuple[str, str, str], ...]   # (check, definition, status) that must appear
    facts: Callable[[Run], None]
    against: str | None = None              # --against, from the repository's root
    games: int = 0                          # --games
    positions: int = 0                      # --positions
    time_limit: float = 10.0                # --time-limit
    cli: bool = False                       # run by the command line (--json --out), else the API
    exit_code: int | None = None            # the command line's exit code
    known_bug: str | None = None            # a bug of verify: the case is xfail(strict=True)
    only: str = ""                          # --only: the definitions looked at (all by default)
    seeds: str = field(default="")          # what a sampled case asserts whatever the seed

    @property
    def id(self) -> str:
        return self.file.removesuffix(".rules")

    @property
    def limit(self) -> float:
        """--time-limit: a sampled game is cut by the clock, so a case that only plays games
        gives them a minute (they end in seconds; a loaded machine must not cut one short)."""
        from rulewright.solver.verify.sampled import SAMPLED_KINDS    # (the checks games answer)
        sampled_only = self.games and set(self.checks) <= set(SAMPLED_KINDS)
        return max(self.time_limit, 60.0) if sampled_only else self.time_limit


CASES = [
    Case("darwin_big_hearts.rules", ("never_holds", "always_holds"),
         (("never_holds", "big_heart", "PROVED"), ("never_holds", "well_formed", "PROVED")), big_hearts),
    Case("darwin_crowded_biomes.rules", ("choosable",),
         (("choosable", "settles(b)", "PROVED"),), crowded_biomes),
    Case("savanna_spaced_cards.rules", ("playable", "never_holds", "always_holds"),
         (("playable", "standard", "COUNTEREXAMPLE"), ("never_holds", "can_place", "PROVED")), spaced_cards,
         games=2, seeds="every game is stuck by its 11th placement: the first one (3 players, seed 1) shows it"),
    Case("savanna_hungry_hyenas.rules", ("property",),
         (("property", "below_zero_only_through_elephants", "COUNTEREXAMPLE"),), hungry_hyenas,
         cli=True, exit_code=1),
    Case("savanna_same_herd.rules", ("differs",),
         (("differs", "herd_size", "PROVED"), ("differs", "same_herd", "PROVED")), same_herd,
         against="spec/ecosystem_savanna", cli=True, exit_code=0),
    Case("savanna_zebra_herd.rules", ("differs",),
         (("differs", "herd_size", "PROVED"),), zebra_herd, against="spec/ecosystem_savanna"),
    Case("savanna_lone_lions.rules", ("differs",), (("differs", "score", "PROVED"),), lone_lions,
         against="spec/ecosystem_savanna"),
    Case("savanna_second_herd.rules", ("differs",), (("differs", "final_score", "PROVED"),), second_herd,
         against="spec/ecosystem_savanna", time_limit=3, positions=3),
    Case("savanna_square_prairies.rules", ("differs",),
         (("differs", "prairie_points", "PROVED"),), square_prairies, against="spec/ecosystem_savanna"),
    Case("savanna_cubed_prairies.rules", ("differs",), (), cubed_prairies, against="spec/ecosystem_savanna",
         time_limit=5),
    Case("savanna_diagonal_placement.rules", ("differs",),
         (("differs", "can_place", "PROVED"),), diagonal_placement, against="spec/ecosystem_savanna"),
    Case("savanna_animal_deck.rules", ("runtime",),
         (("runtime", "standard", "COUNTEREXAMPLE"),), animal_deck, games=2, cli=True, exit_code=1,
         seeds="3 players are always dealt in full (66 of 88 cards), 6 never (132): only 6 players fail"),
    Case("darwin_chinese_events.rules", ("choosable",),
         (("choosable", "in_event_stack(e)", "PROVED"),), chinese_events),
    Case("savanna_water_mulligan.rules", ("terminates",),
         (("terminates", "standard", "COUNTEREXAMPLE"),), water_mulligan, games=2,
         seeds="a hand of 11 lacks a water hole in about 4 games of 10 per seat; the game found replays"),
    Case("savanna_vanishing_fire.rules", ("invariant",),
         (("invariant", "cards_accounted_for", "COUNTEREXAMPLE"),), vanishing_fire, games=2, cli=True,
         exit_code=1, seeds="only prairies burn, once the draft is over: the position is the end's"),
    Case("darwin_diet_shown.rules", ("never_holds", "always_holds"),
         (("always_holds", "diet_shown", "PROVED"),), diet_shown),
    Case("savanna_framed_placement.rules", ("never_holds", "always_holds"),
         (("never_holds", "within_frame", "PROVED"),), framed_placement),
    Case("savanna_unread_bonus.rules", ("unused",),
         (("unused", "oasis_bonus", "PROVED"),), unread_bonus),
    Case("savanna_thirst.rules", ("range",),
         (("range", "thirst", "PROVED"),), thirst, time_limit=2, only="thirst"),
    Case("savanna_placement_guarantees.rules", ("property",),
         (("property", "first_card_anywhere", "PROVED"), ("property", "next_to_a_card", "PROVED"),
          ("property", "giraffe_by_a_tree", "PROVED")), guarantees),
    Case("savanna_giraffe_tight.rules", ("property",),
         (("property", "giraffe_by_a_tree", "COUNTEREXAMPLE"),), giraffe_tight),
    Case("savanna_thirst_box.rules", ("range",),
         (("range", "thirst", "PROVED"),), thirst_box, time_limit=2, only="thirst,herd_size"),
    Case("savanna_last_card_placed.rules", ("playable", "runtime"),
         (("playable", "standard", "COUNTEREXAMPLE"),), last_card_placed, games=2,
         seeds="every game places 11 cards a round: the first one (3 players, seed 1) shows it"),
    Case("darwin_no_passing.rules", ("playable",),
         (("playable", "standard", "COUNTEREXAMPLE"),), no_passing, games=2,
         seeds="an Action Phase ends only when every player has passed"),
]


def _params():
    for case in CASES:
        marks = [pytest.mark.xfail(strict=True, reason=case.known_bug)] if case.known_bug else []
        yield pytest.param(case, id=case.id, marks=marks)


def _verify(case: Case, out: Path) -> Run:
    path = CORPUS / case.file
    program = load(path)
    if case.cli:
        args = ["verify", path, "--check", ",".join(case.checks), "--games", case.games, "--positions",
                case.positions, "--time-limit", case.limit, "--json", "--no-progress", "--out", out]
        if case.against:
            args += ["--against", ROOT / case.against]
        if case.only:
            args += ["--only", case.only]
        code, stdout, err = run(*args)
        assert code == case.exit_code, err
        data = json.loads(stdout)
        assert data["summary"]["refuted"] is (case.exit_code == 1)
        return Run(case, program, data["findings"], out)
    base = load(ROOT / case.against) if case.against else None
    report = verify(program, case.id, set(case.checks), time_limit=case.limit, games=case.games,
                    positions=case.positions, base=base, only=set(case.only.split(",")) if case.only else None)
    report.write_witnesses(str(out))
    return Run(case, program, [{**f.to_json(), "files": list(f.files)} for f in report.findings], out)


def told(case: Case, out: Path) -> None:
    """verify run on a case: every finding it expects is there, none of a check it did not
    ask for, and the case's own facts hold."""
    r = _verify(case, out)
    got = {(f["check"], f["definition"], f["status"]) for f in r.findings}
    for expected in case.expect:
        assert expected in got, (expected, sorted(got))
    assert all(f["check"] in case.checks for f in r.findings)
    case.facts(r)


@pytest.mark.parametrize("case", list(_params()))
def test_seeded_bug_is_found(case: Case, tmp_path):
    told(case, tmp_path / "witnesses")


# ---------------------------------------------------------------- what verify misses today
def test_play_offers_cells_outside_the_frame_where_within_frame_fails():
    """The facts behind the framed case: a floating ecosystem grows above and left of its
    first card, and the house rule's within_frame refuses those cells."""
    program = load(CORPUS / "savanna_framed_placement.rules")
    interp = Interpreter(program)
    one = interp.board([["lion", None, None, None, None]] + [[None] * 5 for _ in range(3)])
    spots = rt.placements(one)
    assert (-1, 0) in spots and (0, -1) in spots
    assert interp.call("within_frame", one, (-1, 0)) is False
    assert interp.call("can_place", one, (-1, 0)) is False
    assert Interpreter(load(SAVANNA)).call("can_place", one, (-1, 0)) is True


def test_a_cell_ranges_over_every_placement_play_can_offer():
    """verify's cells of a floating grid hold every placement of every grid play can
    make (its cards kept from row and column 0), and no more than that range."""
    from rulewright.solver.verify.proofs import cells_named
    program = load(SAVANNA)
    grid = next(iter(program.grids.values()))
    named = set(cells_named(grid))
    rng = random.Random(5)
    interp = Interpreter(program)
    for _ in range(300):
        board = interp.board([[None] * grid.cols for _ in range(grid.rows)])
        for _ in range(rng.randrange(1, grid.rows * grid.cols)):
            spots = rt.placements(board)
            if not spots:
                break
            board = rt.placed(board, "lion", rng.choice(spots))
            assert set(rt.placements(board)) <= named, board
    assert (1 - grid.rows, 1 - grid.cols) in named and (grid.rows, 0) not in named


def test_the_diagonal_house_rule_does_change_can_place():
    """The facts behind the diagonal case: the interpreters disagree on a one-card ecosystem."""
    variant = Interpreter(load(CORPUS / "savanna_diagonal_placement.rules"))
    base = Interpreter(load(SAVANNA))
    one = base.board([["lion", None, None, None, None]] + [[None] * 5 for _ in range(3)])
    assert base.call("can_place", one, (1, 1)) is False
    assert variant.call("can_place", one, (1, 1)) is True


# ---------------------------------------------------------------- the corpus itself
def test_every_case_file_is_in_the_table_and_says_what_it_seeds():
    files = sorted(p.name for p in CORPUS.glob("*.rules"))
    assert files == sorted(c.file for c in CASES)
    assert len(CASES) >= 16
    for name in files:
        text = (CORPUS / name).read_text(encoding="utf-8")
        assert text.startswith("# "), name
        head = next(line for line in text.splitlines() if line.startswith("variant "))
        assert re.search(r"\[(HR|TEST)-[A-Z0-9-]+", head), name


# ---------------------------------------------------------------- the shipped specs
SHIPPED = sorted(p for p in (ROOT / "spec").iterdir() if p.is_dir() and p.name != "house_rules") \
    + sorted((ROOT / "spec").glob("*/variants/*.rules")) + sorted((ROOT / "spec" / "house_rules").glob("*.rules"))
# Shipped specs with a broken guarantee, each an expected failure with its reason. The rhinos
# house rule was one (a rhino next to rhinos scores below 0): it now restates the base game's
# guarantee for rhinos, so none is left.
SHIPPED_FINDINGS: dict[str, str] = {}


def _shipped():
    for path in SHIPPED:
        name = path.relative_to(ROOT).as_posix()
        marks = [pytest.mark.xfail(strict=True, reason=SHIPPED_FINDINGS[name])] if name in SHIPPED_FINDINGS else []
        yield pytest.param(path, id=name, marks=[pytest.mark.slow, *marks])


def test_the_shipped_list_holds_every_game_version_and_house_rule():
    names = {p.relative_to(ROOT).as_posix() for p in SHIPPED}
    assert {"spec/darwins_choice", "spec/ecosystem_savanna", "spec/darwins_choice/variants/kids.rules",
            "spec/ecosystem_savanna/variants/solo.rules", "spec/house_rules/savanna_oasis.rules"} <= names
    assert len(names) >= 29 and set(SHIPPED_FINDINGS) <= names


@pytest.mark.parametrize("path", list(_shipped()))
def test_shipped_spec_breaks_no_guarantee(path):
    """verify --check unused,property --games 0 --positions 1: no error and no
    counterexample (warnings are allowed). The checks that give errors are the
    guarantees: the properties (the sampled checks need games; the rules' checks are
    warnings at most, and tests/verify covers them on purpose-made cases)."""
    report = verify(load(path), path.name, {"unused", "property"}, games=0, positions=1)
    assert report.findings
    bad = [(f.check, f.definition, f.status, f.severity, f.message) for f in report.findings
           if f.severity == "error" or f.status == "COUNTEREXAMPLE"]
    assert not bad
    assert not report.refuted()
