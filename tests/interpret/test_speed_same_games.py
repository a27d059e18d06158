"""The speed-ups change nothing that is played: definitions remember their values only as
long as what they read stays the same, the runtime's faster paths give the same values in
the same order, and the interpreter with them (the default) plays every seeded game as the
one without them (``fast=False``, the baseline benchmarks/play.py measures against)."""
import copy
import itertools
import pickle
import random

import pytest
from hypothesis import given, strategies as st

from rulewright.compiler import load
from rulewright.compiler.diagnostics import RuntimeRulesError
from rulewright.compiler.interpret import Interpreter, RandomAgent
from rulewright.compiler.semantics import runtime as rt, subsets as subsets_module
from rulewright.compiler.interpret import memo
from rulewright.compiler.interpret.baseline import BASELINE, Seat as BaselineSeat

from helpers import ROOT, benchmark_script, child_forked_holding, spec

CHANGING = """
game g "G"
enum colour { red, blue }
state { counter: int   hand: pile of colour = [red, blue, red] }
def doubled = counter * 2
def reds(cards: list of colour) = size([c for c in cards if c == red])
def in_hand = reds(hand)
def total(n: int) = n + doubled
mode play "Play" players 1 {
  seats players
  report before = total(1)
  set counter = counter + 5
  report after = total(1)
  take [red] from hand
  report reds_left = in_hand
  set counter = counter + 1
  report last = [total(1), total(1), doubled]
}
"""


def _log(st):
    return repr(st.reports), [(e.kind, e.seat, repr(e.detail)) for e in st.log]


def test_a_definition_that_reads_the_state_is_evaluated_again_once_the_state_changed(tmp_path):
    interp = Interpreter(load(spec(tmp_path, CHANGING)))
    r = interp.play("play", 1, 0).reports
    assert r["before"] == 1 and r["after"] == 11 and r["reds_left"] == 1
    assert r["last"] == (13, 13, 12)
    assert Interpreter(load(spec(tmp_path, CHANGING)), fast=False).play("play", 1, 0).reports == r


def test_a_state_changed_from_outside_between_calls_is_read_afresh(tmp_path):
    interp = Interpreter(load(spec(tmp_path, CHANGING)))
    st = interp.play("play", 1, 0)
    assert interp.call("doubled", state=st) == 12
    st.shared["counter"] = 100
    assert interp.call("doubled", state=st) == 200
    assert interp.call("in_hand", state=st) == 1
    st.shared["hand"].cards.append("red")        # a pile changed in place
    assert interp.call("in_hand", state=st) == 2


def test_a_memo_that_does_not_pay_gives_way_and_values_stay_the_same(tmp_path, monkeypatch):
    monkeypatch.setattr(memo, "TRIAL_CALLS", 5)
    interp = Interpreter(load(spec(tmp_path, CHANGING)))
    first = interp.ns["f_reds"]
    values = [interp.call("reds", tuple(["red"] * (i % 7) + ["blue"] * i)) for i in range(40)]
    assert interp.ns["f_reds"] is not first             # the trial is over: decided
    assert values == [i % 7 for i in range(40)]
    assert [interp.call("reds", tuple(["red"] * (i % 7) + ["blue"] * i)) for i in range(40)] == values


@pytest.mark.parametrize("items, most", [(("b", "a", "c", "a"), None), (("b", "a", "c", "d"), 2),
                                         ((3, 10, 2), None), (("x y", "a", "_"), None), ((), None),
                                         (("zz", "z", "z_", "Z"), 3)])
def test_subsets_and_sorting_keep_the_order_by_repr(items, most):
    assert rt.subsets_of(items, most) == BASELINE["subsets_of"](items, most)
    assert rt.subsets_of(items, most) == rt.subsets_of(list(items), most)       # remembered: the same
    assert rt.sort_values(items) == BASELINE["sort_values"](items)
    assert rt.multiset_eq(items, tuple(reversed(items)))
    assert rt.multiset_eq(items, items + ("a",)) is False


_CLAIMS = st.one_of(*(st.lists(st.tuples(keys, st.integers(-2, 6)), max_size=9)      # (keys of one type)
                      for keys in (st.integers(-3, 3), st.tuples(st.integers(-2, 1), st.integers(-1, 2)),
                                   st.text("ab", max_size=2))))


@given(_CLAIMS, st.integers(-3, 15))
def test_ranking_and_allocating_keep_the_baseline_s_groups_order_and_shares(claims, supply):
    """(sorted by a key read in C and grouped by ``itertools.groupby``: equal keys in the
    order given, a group the run of keys equal to its first)"""
    pairs = [(key, f"e{i}") for i, (key, _) in enumerate(claims)]
    assert rt.ranked(pairs) == BASELINE["ranked"](pairs)
    served = [(key, f"w{i}", need) for i, (key, need) in enumerate(claims)]
    for stop in (True, False):
        for even in (True, False):
            fast, base = rt.allocate(supply, served, stop, even), BASELINE["allocate"](supply, served, stop, even)
            assert fast == base and list(fast) == list(base)


def test_allocating_to_nobody_or_to_one_claimant_is_the_baseline_s():
    """(most allocations of a game: served without sorting or grouping; a share is a plain
    whole number even when the need or the supply was a score)"""
    for supply in range(-3, 9):
        for stop in (True, False):
            for even in (True, False):
                assert rt.allocate(supply, [], stop, even) == {} == BASELINE["allocate"](supply, [], stop, even)
                for need in range(-2, 7):
                    for scored in (False, True):
                        def score(n):
                            return rt.Score({"step": n}, {}) if scored else n
                        claims = [((1, "k"), "w", score(need))]
                        got = rt.allocate(score(supply), claims, stop, even)
                        want = BASELINE["allocate"](score(supply), claims, stop, even)
                        assert got == want and repr(got) == repr(want) and type(got["w"]) is int


def test_the_subsets_remembered_stay_few_and_the_same():
    """(Every hand of a long study kept filled the memory and slowed the games after it.)"""
    rng = random.Random(3)
    for _ in range(200):
        hand = tuple(rng.choice("abcdefghijklmnop") for _ in range(rng.randrange(0, 11)))
        assert rt.subsets_of(hand, 6) == BASELINE["subsets_of"](hand, 6)
        assert sum(len(v) for v in rt._SUBSETS.values()) == subsets_module._held <= rt.HELD_SUBSETS
    hand = tuple("abcdefghijklmno")             # (more sub-collections than are kept at all)
    assert len(rt.subsets_of(hand)) > rt.HELD_SUBSETS and subsets_module._held <= rt.HELD_SUBSETS


TWO_MODES = """
game g "G"
def label(p: seat) = join([p.title for x in [1, 2] if x > 1], "")
def kind_of(p: seat) = [p.kind for x in [1, 2] if x > 1]
mode a "A" players 2 {
  seats players
  report who for s in seats = label(s)
  report kinds for s in seats = kind_of(s)
}
mode b "B" players 1 {
  seats players, p2: neutral "Referee"
  report who for s in seats = label(s)
  report kinds for s in seats = kind_of(s)
}
"""


def test_a_seat_of_another_title_or_kind_is_another_seat_to_what_is_remembered(tmp_path):
    """A definition that reads no state keeps its values from game to game: the second
    seat of a two-player game and the neutral seat of another mode share an index and a
    name, not a title nor a kind. (They compared equal, and the neutral seat was reported
    as a player, under the other seat's title.)"""
    program = load(spec(tmp_path, TWO_MODES))
    interp = Interpreter(program)
    first = interp.play("a", 2, 0).reports
    assert list(first["who"].values()) == ["Player 1", "Player 2"]
    second = interp.play("b", 1, 0).reports
    assert list(second["who"].values()) == ["Player 1", "Referee"]
    assert list(second["kinds"].values()) == [("player",), ("neutral",)]
    assert repr(Interpreter(program, fast=False).play("b", 1, 0).reports) == repr(second)
    same, other = rt.Seat(1, "p2", "player", "Player 2"), rt.Seat(1, "p2", "neutral", "Referee")
    assert same != other and same != rt.Seat(1, "p2", "player", "Referee") and same != "p2"


def test_a_seat_is_one_object_however_it_is_made_again():
    """Seats are compared and hashed as objects (in C: a seat's hash written in Python
    was about a twentieth of a game), so a seat made again, copied or read back from a
    pickle (another process's games) is the same object."""
    seat = rt.Seat(2, "p3", "player", "Player 3")
    assert rt.Seat(2, "p3", "player", "Player 3") is seat
    assert copy.copy(seat) is seat and copy.deepcopy({seat: [seat]}) == {seat: [seat]}
    assert pickle.loads(pickle.dumps(seat)) is seat
    old = BaselineSeat(2, "p3", "player", "Player 3")       # (the baseline's: its own kind, kept)
    assert old is not seat and type(pickle.loads(pickle.dumps(old))) is BaselineSeat
    assert {rt.Seat(2, "p3", "player", "Player 3"): 1}[seat] == 1
    assert (seat.index, seat.name, seat.kind, seat.title, str(seat)) == (2, "p3", "player", "Player 3", "Player 3")
    with pytest.raises(AttributeError):
        seat.title = "Player 4"


def test_a_child_forked_while_a_seat_is_being_made_makes_seats():
    """(The lock of the seats' table, held by another thread of the parent when it forks,
    would be held for ever in the child.)"""
    from rulewright.compiler.semantics import runtime
    child_forked_holding(runtime._SEATS_LOCK, lambda: runtime.Seat(7, "p8", "player", "Player 8").title == "Player 8")


def test_only_the_last_few_programs_keep_an_interpreter(tmp_path):
    """(A long-running process loads a program for every edit: each kept held its memos.)"""
    from rulewright.compiler.interpret import interpreter
    programs = [load(spec(tmp_path, CHANGING, f"g{i}.rules")) for i in range(interpreter.KEPT_INTERPRETERS + 3)]
    made = [interpreter.interpreter_for(p) for p in programs]
    assert len(interpreter._INTERPRETERS) <= interpreter.KEPT_INTERPRETERS
    assert interpreter.interpreter_for(programs[-1]) is made[-1]          # (kept: the same one)
    assert interpreter.interpreter_for(programs[0]) is not made[0]        # (let go: made again)
    assert interpreter.interpreter_for(programs[0]).program is programs[0]


def test_placements_of_a_floating_board_are_those_of_the_baseline():
    for cards in ({}, {(0, 0): "a"}, {(0, 0): "a", (0, 1): "b", (1, 1): "c"},
                  {(r, c): "a" for r in range(3) for c in range(4)},
                  {(0, 0): "a", (0, 6): "b"}):          # (wider than its frame: the careful path)
        for floating in (True, False):
            board = rt.Board("g", 4, 5, floating, cards)
            assert rt.placements(board) == BASELINE["placements"](rt.Board("g", 4, 5, floating, cards))


def test_a_grid_with_one_more_card_keeps_the_box_its_cards_measure_and_the_baseline_s_cells():
    rng = random.Random(3)
    for _ in range(600):
        floating = rng.random() < 0.8
        board = base = rt.Board("g", 4, 5, floating, {})
        for _ in range(rng.randrange(1, 20)):
            spots = rt.placements(board)
            if not spots:
                break
            spot, card = rng.choice(spots), rng.choice("abc")
            if rng.random() < 0.2:      # (a cell taken, or one the grid cannot reach: the same words)
                wrong = rng.choice(list(board.cards) + [(rng.randrange(-5, 9), rng.randrange(-5, 9))])
                said = []
                for place, grid in ((rt.placed, board), (BASELINE["placed"], base)):
                    try:
                        place(grid, card, wrong)
                        said.append(None)
                    except RuntimeRulesError as e:
                        said.append(str(e))
                assert said[0] == said[1], wrong
            board, base = rt.placed(board, card, spot), BASELINE["placed"](base, card, spot)
            assert list(board.cards.items()) == list(base.cards.items())        # (in the same order)
            assert board.bbox() == rt.Board("g", 4, 5, floating, board.cards).bbox(), board.cards


def test_a_cell_is_free_where_the_baseline_s_placements_hold_it():
    """``free_at`` (a card placed where no cell was chosen: the legality check of ``place``)
    answers as the cell's place among the baseline's placements, without making them."""
    rng = random.Random(5)
    for _ in range(800):
        board = rt.Board("g", rng.choice([1, 2, 4]), rng.choice([1, 3, 5]), rng.random() < 0.7)
        for _ in range(rng.randrange(0, 12)):
            spots = rt.placements(board)
            if not spots:
                break
            board = rt.placed(board, rng.choice("ab"), rng.choice(spots))
        fresh = rt.Board(board.grid, board.rows, board.cols, board.floating, board.cards)    # (none made)
        cells = [(rng.randrange(-6, 8), rng.randrange(-6, 9)) for _ in range(12)]
        for pos in cells + [(0, 0), None, (1,), ("a", 1), (True, 0), [0, 0]]:
            want = pos in BASELINE["placements"](board)
            assert rt.free_at(fresh, pos) == want and rt.free_at(board, pos) == want, (board.cards, pos)


@pytest.mark.parametrize("path, players, seeds", [
    ("spec/darwins_choice", 4, range(3)),
    ("spec/darwins_choice", 3, range(1)),
    ("spec/ecosystem_savanna", 4, range(4)),
    ("spec/ecosystem_savanna/variants/solo.rules", 1, range(4)),
    ("spec/house_rules/darwin_no_cannibals.rules", 4, range(1)),
])
def test_the_same_seeded_games_as_the_baseline(path, players, seeds):
    program = load(ROOT / path)
    mode = next(m for m, info in program.modes.items() if info.min_players <= players <= info.max_players)
    fast, slow = Interpreter(program), Interpreter(program, fast=False)
    for seed in seeds:
        agents = (lambda seat, s: RandomAgent(s * 7 + seat.index))
        assert _log(fast.play(mode, players, seed, agent_factory=agents)) == \
            _log(slow.play(mode, players, seed, agent_factory=agents))


OCCUPIED = """
game g "G"
enum tile { a, b }
grid plot: 3 by 3 of tile
relation adjacent "Adjacent cells" = offsets((-1, 0), (1, 0), (0, -1), (0, 1))
def near(g: plot, spot: cell) = any(occupied(g, n) for n in adjacent(spot))
def listed(g: plot, cells: list of cell) = any(occupied(g, n) for n in cells)
"""


def test_is_any_of_these_cells_taken_is_the_baseline_s_answer(tmp_path):
    """``any(occupied(g, n) for n in C)`` is asked of the grid's cells at once (in C); the
    baseline loops. Every board of up to 3 cards on a 3 x 3 grid, every cell and list."""
    import itertools
    program = load(spec(tmp_path, OCCUPIED))
    fast, slow = Interpreter(program), Interpreter(program, fast=False)
    assert ".isdisjoint(" in fast.source and ".isdisjoint(" not in slow.source
    cells = [(r, c) for r in range(3) for c in range(3)]
    for n in range(4):
        for taken in itertools.combinations(cells, n):
            board = fast.board([["a" if (r, c) in taken else None for c in range(3)] for r in range(3)])
            for spot in cells:
                assert fast.call("near", board, spot) == slow.call("near", board, spot)
            for some in ([], cells[:2], [(2, 2), (0, 1)], [(5, 5)]):
                assert fast.call("listed", board, some) == slow.call("listed", board, some) == \
                    any(c in taken for c in some)


SCORED = """
game g "G"
scoring sc(n: int) {
  step pick {
    choose k subset of [1, 2, 3] sized 1
    points sum(x for x in k) * n
  }
}
def total(n: int) = sc(n) + 0
def twice(n: int) = total(n) + total(n)
"""


def test_a_definition_that_scores_is_remembered_only_while_no_choice_is_forced(tmp_path):
    program = load(spec(tmp_path, SCORED))
    fast = Interpreter(program)
    assert fast.ns["f_total"].__qualname__.startswith("_unless_forced")    # (remembered, unless forced)
    state = fast.new_state([rt.Seat(0, "p1", "player", "Player 1")], 1)
    body = program.funcs["twice"].body
    with fast.unchanged(state):         # (the state's memo kept from one evaluation to the next)
        assert fast.evaluate(body, {"n": 2}, state=state) == 12             # the best choice, 3
        assert fast.evaluate(body, {"n": 2}, forced={"k": (1,)}, state=state) == 4
        assert fast.evaluate(body, {"n": 2}, state=state) == 12
        assert fast.evaluate(body, {"n": 2}, forced={"k": (2,)}, state=state) == 8


RECORDS = """
game g "G"
enum colour { red, blue }
record pair { left: int, right: colour }
record box { label: text, inside: list of pair, count: int }
def made(n: int) = new pair(left = n, right = if n > 1 then red else blue)
def boxed(n: int) = new box(label = "b", inside = [made(i) for i in 1..n], count = n)
def moved(n: int) = boxed(n) with (count = n + 1, label = "c")
def turned(p: pair) = p with (right = blue)
def all_turned(n: int) = [turned(p) with (left = p.left * 2) for p in boxed(n).inside]
def folded = [new pair(left = i, right = red) for i in 1..3]
state { best: pair }
def unset(n: int) = best with (left = n)
mode play "Play" players 1 {
  seats players
  report r = unset(1)
}
"""


def test_records_made_and_changed_are_the_baseline_s(tmp_path):
    """A record is made by its class's own constructor in C, and changed (``with``) by the
    places of its fields, in the generated code: the same values of the same class, equal,
    printed and hashed alike, their fields read by name."""
    program = load(spec(tmp_path, RECORDS))
    fast, slow = Interpreter(program), Interpreter(program, fast=False)
    assert "_TN(" in fast.source and "_rt.replaced(" in fast.source
    assert "_TN(" not in slow.source and "_rt.replaced(" not in slow.source
    for n in (0, 1, 2, 5):
        for name in ("made", "boxed", "moved", "all_turned"):
            got, want = fast.call(name, n), slow.call(name, n)
            assert got == want and repr(got) == repr(want) and hash(got) == hash(want), (name, n)
            for g, w in zip(got if name == "all_turned" else [got], want if name == "all_turned" else [want]):
                assert type(g) is type(w) and g._asdict() == w._asdict()
    assert fast.call("moved", 2).f_count == 3 and fast.call("moved", 2).f_label == "c"
    assert [p.f_right for p in fast.call("all_turned", 3)] == ["blue"] * 3
    # records made in a constant folded when the program loads; a field changed on none
    assert repr(fast.call("folded")) == repr(slow.call("folded")) and len(fast.call("folded")) == 3
    said = []
    for interp in (fast, slow):
        with pytest.raises(RuntimeRulesError) as caught:
            interp.play("play", 1, 1)
        said.append(str(caught.value))
    assert said[0] == said[1] and "_replace" in said[0]


AS_THEY_ARE = """
game g "G"
def once(xs: list of int) = {x for x in xs}
def all_of(xs: list of int) = [x for x in xs]
def nested(xs: list of int) = sum(size({y for y in xs}) for x in xs)
"""


@pytest.mark.parametrize("name", ["once", "all_of", "nested"])
def test_a_collection_s_values_as_they_are_or_each_once_are_the_baseline_s(tmp_path, name):
    """``{x for x in C}`` and ``[x for x in C]`` are made in C (``rt.oset`` over the
    collection, ``tuple``): the values in the order first met, and the steps the loop counts, so a
    budget runs out where the baseline's does."""
    program = load(spec(tmp_path, AS_THEY_ARE))
    fast, slow = Interpreter(program), Interpreter(program, fast=False)
    assert "_rt.oset(_rt.steps(" in fast.source and "_rt.oset(_rt.steps(" not in slow.source
    rng = random.Random(3)
    for _ in range(40):
        xs = tuple(rng.randrange(5) for _ in range(rng.randrange(9)))
        assert fast.call(name, xs) == slow.call(name, xs)

    def stops(interp, limit):
        try:
            with rt.bounded("it", limit):
                return interp.call(name, (3, 1, 3, 2, 1))
        except RuntimeRulesError as e:
            return str(e)
    assert [stops(fast, n) for n in range(1, 40)] == [stops(slow, n) for n in range(1, 40)]


COUNTED_CARDS = """
game g "G"
enum tile { a, b }
grid plot: 3 by 3 of tile floating
def held(g: plot) = size(contents(g))
"""


def test_how_many_cards_a_grid_holds_is_counted_without_putting_them_in_order(tmp_path):
    """``size(contents(g))`` is the number of the grid's cards (``len(g.cards)``, no reading
    order made): the baseline's answer on every grid of up to three cards, and, for a grid
    that is none, its error at the same place with the same words."""
    program = load(spec(tmp_path, COUNTED_CARDS))
    fast, slow = Interpreter(program), Interpreter(program, fast=False)
    assert "len(v_g.cards)" in fast.source and "len(v_g.cards)" not in slow.source
    cells = [(r, c) for r in range(3) for c in range(3)]
    for n in range(4):
        for taken in list(itertools.combinations(cells, n))[:20]:
            board = fast.board([["a" if (r, c) in taken else None for c in range(3)] for r in range(3)])
            assert fast.call("held", board) == slow.call("held", board) == n
    said = []
    for interp in (fast, slow):
        with pytest.raises(RuntimeRulesError) as caught:
            interp.call("held", None)
        said.append(str(caught.value))
    assert said[0] == said[1] and "none" in said[0]


def test_the_benchmark_s_interval_holds_its_ratio_and_widens_with_the_spread():
    """benchmarks/play.py's 95% interval of a ratio: the games drawn again with replacement,
    each game's two times kept together."""
    module = benchmark_script("play")
    steady = module.interval({s: 5.0 for s in range(20)}, {s: 1.0 for s in range(20)})
    assert steady == (5.0, 5.0)
    now = {s: 1.0 + (s % 5) * 0.2 for s in range(40)}
    before = {s: 5.0 * t * (1.3 if s % 2 else 0.7) for s, t in now.items()}
    low, high = module.interval(before, now)
    assert low < sum(before.values()) / sum(now.values()) < high and high - low > 0.3


def test_the_instruction_count_reads_valgrind_s_total_and_says_when_valgrind_is_missing(monkeypatch, capsys):
    """benchmarks/instructions.py: the total of instructions read from valgrind's summary;
    without valgrind, a message and exit 2, nothing counted."""
    module = benchmark_script("instructions")
    summary = "==31442== \n==31442== I   refs:      3,523,322,936\n==31442== I1  misses: 37,156,264\n"
    assert module.refs(summary) == 3_523_322_936
    assert module.refs("==31442== ERROR SUMMARY: 0 errors") is None
    monkeypatch.setattr(module.shutil, "which", lambda name: None)
    assert module.main(["--only", "savanna"]) == 2
    assert "valgrind is not installed" in capsys.readouterr().err
