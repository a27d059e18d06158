"""An agent that plays the answers of a query.

In:  a checked program, the name of a query with ``play`` statements, a seat.
Out: ``SolverAgent``, usable wherever the interpreter takes an agent.

At a game's choice that a path of the query plays first (its *trigger*: the
first ``play`` statement on some path through its ``if`` statements), the agent
asks the query for its seat on the game state as that seat may know it (the true
state when the spec hides nothing from the seat, else a determinization from the
agent's own generator: compiler/play/views.py; CP-SAT, the answer replayed by the
interpreter); each later choice named by a ``play`` statement of
that answer gets the option equal to the statement's value, evaluated when the
choice comes. An answer is a plan for the moment it was asked at: what it plays is
forgotten once the game passes a checkpoint (a new turn, a new round), so a play the
game never asked for cannot answer a later choice of the same name. Other choices,
and turns where the query has no answer, are made
at random like the random agent. A planned value that is not among the options
is an error: the query and the rules disagree.
"""
from __future__ import annotations

import random
from collections import Counter

from rulewright.compiler import ir as I
from rulewright.compiler.diagnostics import IllegalMoveError
from rulewright.compiler.interpret import RandomAgent
from rulewright.compiler.play.views import blind
from rulewright.compiler.types import SeatT

from rulewright.compiler.ir import statements
from rulewright.solver.queries import interpreter_for, run_query


def triggers(block: list) -> tuple[set[str], bool]:
    """The names of the choices a block's paths play first, and whether some path
    through it plays none."""
    names: set[str] = set()
    for st in block:
        if isinstance(st, I.Play):
            names.add(st.name)
            return names, False
        if isinstance(st, I.If):
            then, through_then = triggers(st.then)
            other, through_other = triggers(st.other)
            names |= then | other
            if not (through_then or through_other):
                return names, False
    return names, True


def playing_queries(program: I.Program) -> list[str]:
    """The queries that say how their answers are played."""
    return [q.name for q in program.queries.values()
            if any(isinstance(st, I.Play) for st in statements(q.body))]


class SolverAgent:
    def __init__(self, program: I.Program, query: str, seed: int, time_limit: float = 10.0,
                 workers: int = 1, inputs: dict | None = None):
        self.program = program
        self.query = program.queries[query]
        self.random = RandomAgent(seed)
        self.sight = random.Random(f"view {seed}")     # deals what the seat has not seen (its own: the random choices stay)
        self.time_limit = time_limit
        self.workers = workers
        self.inputs = dict(inputs or {})       # the query's other inputs, the same every turn
        self.triggers = triggers(self.query.body)[0]
        self.seat_input = next((n for n, t, _ in self.query.inputs if isinstance(t, SeatT)), None)
        self.plan: dict = {}
        self.planned_at = 0         # the checkpoints the game had passed when the plan was made
        self.asked = 0
        self.answered = 0
        self.planned = 0                        # the choices played from the query's answers
        self.at_random: Counter = Counter()     # the choices made at random, by name

    def choose(self, name, options, state, seat):
        # the seat's own view: a position with the hidden cards dealt again from its own generator
        seen = blind(state, seat.name, self.sight)
        if seen is state:
            return self._choose(name, options, state, seat)
        try:
            return self._choose(name, options, seen, seat)
        finally:
            state.interp.use(state)     # (asking on the seat's position made it the interpreter's)

    def _choose(self, name, options, state, seat):
        if name in self.triggers:
            self.plan = self.ask(state, seat)
            self.planned_at = _passed(state)
        elif self.plan and _passed(state) != self.planned_at:
            self.plan = {}          # made for an earlier moment of the game
        if name in self.plan:
            expr, env = self.plan.pop(name)
            value = interpreter_for(self.program).evaluate(expr, env, state=state)
            for option in options:
                if option == value:
                    self.planned += 1
                    return option
            raise IllegalMoveError(f"the answer of {self.query.name!r} plays {name} = {value!r}, "
                                   f"which is not an option here")
        self.at_random[name] += 1
        return self.random.choose(name, options, state, seat)

    def ask(self, state, seat) -> dict:
        inputs = dict(self.inputs)
        if self.seat_input:
            inputs[self.seat_input] = seat
        self.asked += 1
        answer = run_query(self.program, self.query.name, inputs, time_limit=self.time_limit,
                           workers=self.workers, state=state, reasons=False)
        if answer.interrupted:          # Ctrl-C stops the game, not only this search
            raise KeyboardInterrupt
        if answer.status not in ("OPTIMAL", "FEASIBLE"):
            return {}
        self.answered += 1
        return {name: (expr, env) for name, expr, env in answer.plays}


def summary(agent: SolverAgent) -> dict:
    """What a solver agent did in a game: how often it asked its query and had an
    answer, how many choices it played from the answers, and which it made at random."""
    return {"query": agent.query.name, "asked": agent.asked, "answered": agent.answered,
            "from_answers": agent.planned, "at_random": dict(sorted(agent.at_random.items()))}


def _passed(state) -> int:
    """How many checkpoints the game has passed."""
    return sum(state.checkpoints.values())
