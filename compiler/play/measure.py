"""What one finished game shows a balance study: who won from which seat, by how much, how
long it lasted, how often the lead changed, which rules ran and which options each seat
took.

In:  a game's state while it is played (``Watch``, a checkpoint watcher, keeps how the
     seats stand at every checkpoint; ``prepare`` makes the game count its rules) and at
     its end.
Out: ``GameMeasures``: plain numbers and names (a worker process sends them back, a
     file keeps them as JSON), seats by their position at the table (0 = first seat).

How a seat stands during the game is the spec's ``estimate`` (else its ``outcome``, else
its mode's ``score`` report: ``branching.Standing``), read at every checkpoint. The lead
changes when the seat alone ahead differs from the last seat that was alone ahead. The
leader at half time is the seat alone ahead at the first checkpoint reached after half of
the game's choices (none when seats tie there). A rule runs when a procedure, mode or step
tagged with its ID runs. An option a seat took is named ``choice=value`` for a value
written as one word, number or truth value, and ``choice>part`` for each word of a list
(the cards of a hand chosen, say); other values (records) are not named.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any

from rulewright.compiler.play.branching import Standing


@dataclass
class GameMeasures:
    """One finished game, seats by position (0 = first)."""
    scores: list[float]
    winners: list[int]
    choices: int
    checkpoints: dict[str, int] = field(default_factory=dict)
    lead_changes: int = 0
    half_leader: int | None = None
    fired: dict[str, int] = field(default_factory=dict)
    taken: list[list[str]] = field(default_factory=list)

    def as_data(self) -> dict:
        return asdict(self)

    @classmethod
    def from_data(cls, data: dict) -> "GameMeasures":
        return cls(**data)


def prepare(state) -> None:
    """Makes the game count the rules it runs (``GameState.tally``)."""
    state.tally = Counter()


class Watch:
    """A checkpoint watcher that reads how every player stands at each checkpoint:
    (choices made so far, the position alone ahead or None)."""

    def __init__(self, program, mode: str | None):
        self.standing = Standing(program, mode)
        self.seen: list[tuple[int, int | None]] = []

    def __call__(self, state, name: str) -> None:
        if self.standing.name is None and self.standing.report is None:
            return
        players = state.players
        values = self.standing.all(state, players)
        self.seen.append((len(state.history), _alone_ahead([values[s.index] for s in players])))


def _alone_ahead(values: list[float]) -> int | None:
    if not values:
        return None
    top = max(values)
    ahead = [i for i, v in enumerate(values) if v == top]
    return ahead[0] if len(ahead) == 1 else None


def _number(v) -> float:
    try:
        return float(v)
    except (TypeError, ValueError):
        return float(int(v))


def final(state) -> tuple[tuple[float, ...], frozenset[int]]:
    """Each player's final score (the mode's ``score`` report, 0 without one) and the
    positions of the winners (its ``winners`` report, else the highest scores)."""
    players = state.players
    scores = state.reports.get("score") if isinstance(state.reports.get("score"), dict) else {}
    score = tuple(_number(scores.get(s, 0)) for s in players)
    won = state.reports.get("winners")
    winners = frozenset(i for i, s in enumerate(players) if won is not None and s in won)
    if won is None and scores:
        top = max(score)
        winners = frozenset(i for i, v in enumerate(score) if v == top)
    return score, winners


def options_taken(state) -> list[list[str]]:
    """The names of the options each player took (see the module docstring), by position."""
    position = {s.name: i for i, s in enumerate(state.players)}
    taken: list[set[str]] = [set() for _ in state.players]
    for event in state.log:
        if event.kind != "choose" or event.seat not in position:
            continue
        choice, value = event.detail["choice"], event.detail["value"]
        mine = taken[position[event.seat]]
        if isinstance(value, (str, bool, int, float)):
            mine.add(f"{choice}={_word(value)}")
        elif isinstance(value, (list, tuple)):
            for part in _words(value):
                mine.add(f"{choice}>{part}")
    return [sorted(t) for t in taken]


def _word(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _words(value, depth: int = 0):
    for item in value:
        if isinstance(item, str):
            yield item
        elif isinstance(item, (list, tuple)) and depth < 2:
            yield from _words(item, depth + 1)


def measures(state, watch: Watch | None) -> GameMeasures:
    """What the finished game ``state`` shows (``watch``: its standings at checkpoints)."""
    score, winners = final(state)
    choices = len(state.history)
    lead_changes, half_leader = 0, None
    if watch is not None and watch.seen:
        last = None
        for _, alone in watch.seen:
            if alone is not None:
                if last is not None and alone != last:
                    lead_changes += 1
                last = alone
        half_leader = next((alone for made, alone in watch.seen if made * 2 >= choices), watch.seen[-1][1])
    return GameMeasures(list(score), sorted(winners), choices,
                        {k: v for k, v in sorted(state.checkpoints.items())}, lead_changes, half_leader,
                        dict(sorted((state.tally or {}).items())), options_taken(state))


__all__ = ["GameMeasures", "Watch", "final", "measures", "options_taken", "prepare"]
