"""Bots that look ahead: ``greedy`` (one choice ahead, on how the seat stands) and
``mcts`` (Monte Carlo tree search over what the seat may know).

In:  a seed (each bot's own generators), its settings; at each choice the rules ask it,
     the name, the legal options, the game's state, the seat.
Out: agents usable wherever the interpreter takes one (``choose``), each deciding from
     positions as its seat may know them (compiler/play/branching.py: the cards it has
     not seen dealt again, chance's future its own) and counting what it did
     (``summary``).

``GreedyAgent`` plays each option in a branch of the position and keeps the one after
which the seat stands highest (the spec's ``estimate``; branching.Standing); among options
that leave it standing equally high, one whose next choice is the seat's own at once (an
action, then its cards) is worth the best of that next choice (``wide`` follow-ups at
most).

``MctsAgent`` is determinized UCT over information sets, as single-observer ISMCTS
(Cowling, Powley and Whitehouse, 2012) builds it: each iteration deals the hidden cards
again (a new determinization), walks one tree shared by all determinizations from the
root choice, picking among the options legal in this determinization by UCB1 with
availability counts, adds one node, plays on for at most ``horizon`` choices, at random
or (``rollout="greedy"``) each choice the greedy one (a copy per option: a playout
costs as many copies as it has options), and credits each node with its mover's margin over the best other seat
(branching.Standing.margins: by the reported scores at the end, by the spec's estimate
when cut short), read from 0 to 1 between the lowest and highest margins the search
has seen. One tree over determinizations rather than a tree per determinization
(plain determinized UCT): the budget is small, a few hundred iterations at most, and
sharing statistics across deals is what lets a few iterations say something; the
price, strategy fusion, matters little when the hidden cards are hands others draft
from. The budget is ``time`` seconds a move (the clock checked between choices) or
``iterations`` (the same game under the same seed).
"""
from __future__ import annotations

import gc
import math
import random
import time as _time
from dataclasses import dataclass, field

from rulewright.compiler.diagnostics import RulesError
from rulewright.compiler.semantics import runtime as rt
from rulewright.compiler.play.branching import Standing, at_choice

# A branch whose rules fail (a value computed before the choice from a hidden pile,
# dealt again differently) is dropped.
_DROPPED = (RulesError, ValueError, KeyError, IndexError)
# choices a playout goes on for before the estimate is read: measured on a shipped draft
# game against greedy seats, 2 to 12 play alike and a playout to the end worse (its
# noise drowns the move's worth in a few hundred iterations; README, Benchmarks)
HORIZON = 8


def _key(option):
    """An option as a key of the search tree."""
    try:
        hash(option)
        return option
    except TypeError:
        return repr(option)


class _Bot:
    """What greedy and MCTS share: their generators, the standing they weigh, counts."""
    kind = "bot"

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.sight = random.Random(f"view {seed}")
        self._standing: Standing | None = None
        self.choices = 0        # choices the bot was asked with more than one option
        self.blind = 0          # of them, made at random: no branch could be made
        self.dropped = 0        # branches dropped (their rules failed)
        self._sights: dict = {}  # the last deal of what the seat does not see (branching.at_choice)

    def __getstate__(self):
        """(A copy or a pickle of a bot, made with the game it plays: without the deal it
        keeps, which holds a position of the game it was made from, nor the standing it
        reads, which holds the compiled rules: made again when first asked.)"""
        return {**self.__dict__, "_sights": {}, "_standing": None}

    def standing(self, state) -> Standing:
        if self._standing is None:
            self._standing = Standing(state.interp.program, state.mode)
        return self._standing

    def choose(self, name, options, state, seat):
        if len(options) == 1:
            return options[0]
        self.choices += 1
        if self.standing(state).source is None:
            self.blind += 1
            return options[self.rng.randrange(len(options))]
        with rt.apart():
            try:
                pick = self.decide(name, options, state, seat)
            finally:
                state.interp.use(state)     # (the branches were the interpreter's)
        if pick is None:
            self.blind += 1
            return options[self.rng.randrange(len(options))]
        return pick

    def branch(self, state, name, seat, options, seed: int):
        return at_choice(state, name, seat, options, random.Random(seed), self._sights, (seat.name, seed))

    def summary(self) -> dict:
        return {"bot": self.kind, "choices": self.choices, "at_random": self.blind, "dropped": self.dropped}


class GreedyAgent(_Bot):
    """One choice ahead: the option after which the seat stands highest."""
    kind = "greedy"

    def __init__(self, seed: int, wide: int = 24):
        super().__init__(seed)
        self.wide = wide

    def decide(self, name, options, state, seat):
        deal = self.sight.getrandbits(64)         # one deal of the hidden cards for every option
        standing = self.standing(state)
        root = self.branch(state, name, seat, options, deal)
        if root is None:
            return None
        values, follow = [], []
        for option in options:
            try:
                b = self._again(root, state, name, seat, options, deal)
                b.apply(option)
                values.append(standing.of(b.state, seat))
                follow.append(not b.finished and b.seat == seat.name)
            except _DROPPED:
                self.dropped += 1
                values.append(-math.inf)
                follow.append(False)
        top = max(values)
        tied = [i for i, v in enumerate(values) if v == top]
        if len(tied) > 1 and any(follow[i] for i in tied):
            # (an option that changes nothing yet, whose next choice is the seat's own: the
            # best it leads to; the others stand as they are)
            values = [self._further(state, name, seat, options, i, deal) if i in tied and follow[i] else
                      values[i] if i in tied else -math.inf for i in range(len(options))]
            top = max(values)
        best = [o for o, v in zip(options, values) if v == top]
        return best[self.rng.randrange(len(best))]

    def _further(self, state, name, seat, options, i, deal) -> float:
        """The best the seat stands after option ``i`` and its next choice."""
        standing = self.standing(state)
        after = self.branch(state, name, seat, options, deal)
        try:
            after.apply(options[i])
            n = len(after.options)
        except _DROPPED:
            self.dropped += 1
            return -math.inf
        picks = list(range(n)) if n <= self.wide else sorted(self.rng.sample(range(n), self.wide))
        best = -math.inf
        for j in picks:
            try:
                b = after.copy(replaying=False)
                if b is None:           # (not resumed: branched anew)
                    b = self.branch(state, name, seat, options, deal)
                    b.apply(options[i])
                b.apply(b.options[j])
                best = max(best, standing.of(b.state, seat))
            except _DROPPED:
                self.dropped += 1
        return best

    def _again(self, made, state, name, seat, options, deal):
        """A branch standing where ``made`` (a branch of the choice, not played on) stands:
        its copy, the same game (no rule runs again, and what the seat does not see is the
        same deal), or a new branch where its procedures cannot be resumed, or where the copy
        does not ask this seat this choice where it was asked. (A copy asks the choice again, its options kept
        but its chooser worked out anew, on the dealt position: a chooser that reads what
        the seat does not see may name another seat there, or fail, where a branch, which
        asks it of the true game before the deal, does not.)"""
        try:
            copy = made.copy(replaying=False)
        except _DROPPED:
            copy = None
        asked = copy.asked if copy is not None else None
        if asked is None or asked.name != name or asked.seat.name != seat.name \
                or len(copy.state.history) != len(made.state.history):
            return self.branch(state, name, seat, options, deal)
        return copy


@dataclass
class _Node:
    visits: int = 0
    total: float = 0.0
    children: dict = field(default_factory=dict)
    seen: dict = field(default_factory=dict)      # option key -> iterations it was legal in


class MctsAgent(_Bot):
    """Monte Carlo tree search over what the seat may know (module docstring)."""
    kind = "mcts"

    def __init__(self, seed: int, time: float | None = None, iterations: int | None = None,
                 horizon: int | None = HORIZON, explore: float = 0.7, rollout: str = "random"):
        super().__init__(seed)
        if time is None and iterations is None:
            time = 0.5
        self.time, self.iterations, self.horizon, self.explore = time, iterations, horizon, explore
        self.rollout = rollout
        self.ran = 0            # iterations run, over the game
        self.longest = 0.0      # the longest a move took, in seconds

    def summary(self) -> dict:
        return {**super().summary(), "iterations": self.ran, "longest_move": round(self.longest, 3)}

    def decide(self, name, options, state, seat):
        began = _time.perf_counter()
        deadline = None if self.time is None else began + self.time
        root = _Node()
        self.low, self.high = math.inf, -math.inf      # the margins seen: UCB reads them from 0 to 1
        done = 0
        collecting = gc.isenabled()
        gc.disable()            # (a collection of the whole heap is a pause longer than a move's margin)
        try:
            while self.iterations is None or done < self.iterations:
                now = _time.perf_counter()
                # (no iteration is begun that the mean iteration so far would not finish in time)
                if deadline is not None and done and now + (now - began) / done >= deadline:
                    break
                deal = self.sight.getrandbits(64)
                b = self.branch(state, name, seat, options, deal)
                if b is None:
                    return None
                done += 1
                try:
                    self._iterate(root, b, deadline, lambda: self.branch(state, name, seat, options, deal))
                except _DROPPED:
                    self.dropped += 1
        finally:
            if collecting:
                gc.enable()
        self.ran += done
        self.longest = max(self.longest, _time.perf_counter() - began)
        keys = [_key(o) for o in options]
        visits = [root.children[k].visits if k in root.children else -1 for k in keys]
        return options[visits.index(max(visits))]

    def _iterate(self, root: _Node, b, deadline, again) -> None:
        """One iteration from the branch ``b`` (``again()``: the same branch afresh)."""
        players = b.state.players
        path: list[tuple[_Node, int]] = []
        played: list = []           # the options applied since the root, in order
        node, steps = root, 0
        horizon = self.horizon
        # down the tree, by UCB1 among the options legal here; one node added
        while not b.finished and (horizon is None or steps < horizon):
            if deadline is not None and path and _time.perf_counter() >= deadline:
                break
            opts = b.options
            mover = b.asked.seat.index
            keys = [_key(o) for o in opts]
            for k in keys:
                node.seen[k] = node.seen.get(k, 0) + 1
            new = [i for i, k in enumerate(keys) if k not in node.children]
            if new:
                i = new[self.rng.randrange(len(new))]
                child = node.children[keys[i]] = _Node()
            else:
                i = max(range(len(opts)), key=lambda j: self._ucb(node, keys[j]))
                child = node.children[keys[i]]
            b.apply(opts[i])
            played.append(opts[i])
            steps += 1
            path.append((child, mover))
            node = child
            if new:
                break
        # on at random (or greedily), to the end, the horizon or the clock
        while not b.finished and (horizon is None or steps < horizon):
            if deadline is not None and _time.perf_counter() >= deadline:
                break
            opts = b.options
            pick = opts[self.rng.randrange(len(opts))] if self.rollout != "greedy" or len(opts) == 1 else \
                self._greedy_step(again, played, opts, b.asked.seat)
            b.apply(pick)
            played.append(pick)
            steps += 1
        margins = self.standing(b.state).margins(b.state, players)
        for child, mover in path:
            m = margins.get(mover, 0.0)
            child.visits += 1
            child.total += m
            self.low, self.high = min(self.low, m), max(self.high, m)

    def _greedy_step(self, again, played: list, opts: list, mover):
        """The option of a playout after which ``mover`` stands highest: each tried in the
        same branch made again and played to here (a copy per option: costly)."""
        standing = self._standing
        values = []
        for o in opts:
            c = again()
            for v in played:
                c.apply(v)
            c.apply(o)
            values.append(standing.of(c.state, mover))
        top = max(values)
        best = [o for o, v in zip(opts, values) if v == top]
        return best[self.rng.randrange(len(best))]

    def _ucb(self, node: _Node, key) -> float:
        child = node.children[key]
        mean = (child.total / child.visits - self.low) / ((self.high - self.low) or 1.0)
        return mean + self.explore * math.sqrt(math.log(node.seen[key]) / child.visits)


__all__ = ["GreedyAgent", "MctsAgent"]
