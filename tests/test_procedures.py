"""Statements that change the game state: set, while, state kept per key, records in state,
turn order. A tiny game is played and its reports checked."""
from compiler import load
from compiler.interpret import Interpreter

SPEC = """
game mini "Mini"
enum place { north, south }
record token { owner: seat, place: place, power: int }
per place { stock: int = 3 }
per seat { score: int }
state { tokens: list of token   rounds: int }

procedure round {
  for p in seats_from(first(players), right) {
    choose where in place where stock(where) > 0 by p
    set stock(where) = stock(where) - 1
    set tokens = tokens + [new token(owner = p, place = where, power = size(tokens) + 1)]
  }
  set rounds = rounds + 1
  checkpoint round_end
}

mode play "Play" players 2..3 {
  seats players
  let left = sum(stock(x) for x in place)
  while left > 0 {
    do round()
    set left = sum(stock(x) for x in place)
  }
  for p in players { set score(p) = sum(t.power for t in tokens if t.owner == p) }
  report rounds = rounds
  report placed = size(tokens)
  report score for p in players = score(p)
  report order = seats_from(first(players), right)
  report strongest = [t.power for t in first(ranked(t for t in tokens by t.power))]
}
"""


def test_mini_game(tmp_path):
    path = tmp_path / "mini.rules"
    path.write_text(SPEC)
    interp = Interpreter(load(path))
    state = interp.play("play", 3, 5)
    r = state.reports
    assert r["placed"] == 6 and r["rounds"] == 2
    assert sorted(r["score"].values()) == sorted([1 + 4, 2 + 5, 3 + 6])
    assert [s.name for s in r["order"]] == ["p1", "p3", "p2"]        # counter-clockwise from p1
    assert r["strongest"] == (6,)
    assert all(v == 0 for v in state.per["stock"].values())
    assert sum(1 for t in state.shared["tokens"] if t.f_place == "north") == 3


def test_checkpoints_watch_and_stop(tmp_path):
    path = tmp_path / "mini.rules"
    path.write_text(SPEC)
    interp = Interpreter(load(path))
    seen = []
    state = interp.play("play", 2, 5, watchers=[lambda st, label: seen.append((label, len(st.shared["tokens"])))])
    assert seen == [("round_end:1", 2), ("round_end:2", 4), ("round_end:3", 6)]
    assert state.stopped is None
    stopped = interp.play("play", 2, 5, stop_at="round_end:2")
    assert stopped.stopped == "round_end:2" and len(stopped.shared["tokens"]) == 4
    assert stopped.reports == {}
    assert interp.play("play", 2, 5, stop_at="round_end").stopped == "round_end:1"
