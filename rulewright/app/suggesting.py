"""A suggestion for a person's choice, with its reasons: the option the spec's playing
query plays (proved best, or the best found in the time given; its reports; what it
plays next), or the option a bot would choose. The job under the terminal's ``?``
(``cli/human.py``) and the workbench's "Suggest" (``app/table.py``).

In:  the program, the playing query (or none) and its inputs, a bot (``--suggest``), the
     time limit of a question; then a choice: its name, options, the state and the seat.
Out: ``Suggestion``: the option suggested and how it was found, with the reasons as
     lines; or, when there is none, why not (never an error out of the game). The plan of
     the query is kept while the game stays at the same checkpoint and the seat follows it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from rulewright.app import seat_screen as screen
from rulewright.compiler.diagnostics import RulesError
from rulewright.compiler.interpret import interpreter_for
from rulewright.compiler.ir import Play, statements
from rulewright.compiler.semantics import render
from rulewright.compiler.types import SeatT


@dataclass
class Suggestion:
    value: Any = None               # the option suggested (see ``found``)
    found: bool = False
    how: str = ""                   # how it was found, in words
    lines: list[str] = field(default_factory=list)      # its reasons
    why_not: str = ""               # no suggestion: why, in words


def _none(why: str) -> Suggestion:
    return Suggestion(why_not=f"no suggestion here: {why}")


class Suggester:
    """The suggestions of one seat: the playing query's (``query``, ``inputs``), or those
    of ``bot`` (``bots.Bot``) when given. ``say`` is told when the solver is asked."""

    def __init__(self, program, query: str | None, inputs: dict, *, bot=None, time_limit: float = 10.0,
                 words: screen.Words | None = None, say: Callable[[str], None] | None = None):
        self.program, self.query, self.inputs, self.bot = program, query, dict(inputs), bot
        self.time_limit, self.say = time_limit, say
        self.words = words or screen.Words(program)
        self.plan: dict | None = None       # the last answer of the playing query, while it holds

    def suggest(self, name: str, options: list, state, seat) -> Suggestion:
        if self.bot is not None:
            return self._bot(name, options, state, seat)
        if self.query is None:
            return _none("the spec has no playing query (a query with 'play' statements) to ask")
        query = self.query.replace("_", "-")
        q = self.program.queries[self.query]
        planned = list(dict.fromkeys(st.name for st in statements(q.body) if isinstance(st, Play)))
        if name not in planned:
            return _none(f"{query}, the playing query, does not plan this choice")
        try:
            plan = self._plan(name, state, seat)
        except RulesError as exc:
            return _none(exc.diagnostics[0].message)
        except Exception as exc:        # noqa: BLE001 (a suggestion never ends a game: said, and the game goes on)
            return _none(f"{query} could not be answered ({type(exc).__name__}: {exc})")
        if isinstance(plan, Suggestion):
            return plan
        plays, status, objective = plan["plays"], plan["status"], plan["objective"]
        if name not in plays:
            later = ", ".join(f"{render.words(n)} {v}" for n, v in self._values(plays, state, seat, skip=name))
            return _none(f"the best plan of {query} does not come to {render.words(name)}"
                         + (f" (it plays {later})" if later else ""))
        expr, env = plays[name]
        try:
            value = interpreter_for(self.program).evaluate(expr, env, state=state)
        except Exception as exc:        # noqa: BLE001 (as above)
            message = exc.diagnostics[0].message if isinstance(exc, RulesError) else str(exc)
            return _none(f"the plan's {render.words(name)} cannot be worked out ({message})")
        if value not in options:
            return _none(f"the plan of {query} plays {render.text(value)}, which is not an option now")
        proof = "proved best" if status == "OPTIMAL" else "the best found in the time given"
        lines = []
        for n, v, _ in plan["reports"]:
            lines += ["  " + line for line in render.block(n, v)]
        later = [f"{render.words(n)} {v}" for n, v in self._values(plays, state, seat, skip=name)]
        if later:
            lines.append("  then: " + ", ".join(later))
        return Suggestion(value, True, f"{proof}; {query}: {objective}", lines)

    def _bot(self, name, options, state, seat) -> Suggestion:
        """What a bot would choose here (``--suggest greedy``, ``mcts:time=2``)."""
        from rulewright.app.bots import make_agent     # (the bots: loaded when one suggests)
        bot = self.bot
        agent = make_agent(bot, len(state.history))
        try:
            value = agent.choose(name, options, state, seat)
        except Exception as exc:        # noqa: BLE001 (a suggestion never ends a game: said, and the game goes on)
            message = exc.diagnostics[0].message if isinstance(exc, RulesError) else f"{type(exc).__name__}: {exc}"
            return _none(f"{bot.text} could not choose ({message})")
        if getattr(agent, "blind", 0):
            return _none(f"{bot.text} cannot look ahead from this position (it would choose at random)")
        if value not in options:
            return _none(f"{bot.text} chose {render.text(value)}, which is not an option now")
        how = ("the only option" if len(options) == 1 else f"{agent.ran} iterations of its search"
               if bot.kind == "mcts" else "after it you stand highest by the spec's estimate")
        return Suggestion(value, True, f"{bot.text}: {how}")

    def _plan(self, name, state, seat):
        """The plan of the playing query for this moment: the last one while the game is at
        the same checkpoint and this seat has followed it, else the query asked again (a
        ``Suggestion``: why there is none)."""
        passed = sum(state.checkpoints.values())
        if self.plan is not None and self.plan["passed"] == passed and name in self.plan["plays"] \
                and self._followed(state, seat):
            return self.plan
        from rulewright.solver.queries import run_query   # (OR-Tools loads only when asked)
        inputs = dict(self.inputs)
        seat_input = next((n for n, t, _ in self.program.queries[self.query].inputs if isinstance(t, SeatT)), None)
        if seat_input:
            inputs[seat_input] = seat
        limit = self.time_limit
        if self.say is not None:
            self.say(f"(asking {self.query.replace('_', '-')}...)")
        answer = run_query(self.program, self.query, inputs, time_limit=limit, workers=1, state=state,
                           reasons=False)
        query = self.query.replace("_", "-")
        if answer.status == "INFEASIBLE":
            self.plan = None
            return _none(f"no legal move satisfies the requirements of {query} now")
        if answer.status not in ("OPTIMAL", "FEASIBLE"):
            self.plan = None
            if answer.status == "UNKNOWN":
                return _none(f"{query} found no move in the time given ({limit:g} s; --agent-time-limit gives more)")
            return _none(f"the solver could not answer {query}")
        self.plan = {"plays": {n: (expr, env) for n, expr, env in answer.plays}, "status": answer.status,
                     "objective": objective_text(answer), "reports": list(answer.reports), "passed": passed,
                     "at": len(state.log)}
        return self.plan

    def _followed(self, state, seat) -> bool:
        """Whether this seat's choices since the plan was made are the plan's."""
        plays = self.plan["plays"]
        interp = interpreter_for(self.program)
        for e in state.log[self.plan["at"]:]:
            if e.kind == "choose" and e.seat == seat.name and e.detail["choice"] in plays:
                expr, env = plays[e.detail["choice"]]
                try:
                    if render.jsonable(interp.evaluate(expr, env, state=state), state=True) != e.detail["value"]:
                        return False
                except Exception:       # noqa: BLE001 (a plan that cannot say: not followed)
                    return False
        return True

    def _values(self, plays, state, seat, skip: str) -> list[tuple[str, str]]:
        """The plan's other choices that can be worked out now (a choice the plan does not
        come to, as the card got by a trade not made, cannot: it is left out)."""
        interp = interpreter_for(self.program)
        done = {e.detail["choice"] for e in state.log[self.plan["at"]:]
                if e.kind == "choose" and e.seat == seat.name} if self.plan else set()
        out = []
        for n, (e, env) in plays.items():
            if n == skip or n in done:
                continue
            try:
                out.append((n, screen.option_text(interp.evaluate(e, env, state=state))))
            except Exception:       # noqa: BLE001 (left out, as said)
                continue
        return out


def objective_text(answer) -> str:
    """A query's objective in words (``score 41``; a tuple with each place's name)."""
    names = answer.objective_names
    if isinstance(answer.objective, tuple) and isinstance(names, (list, tuple)):
        return ", ".join(f"{render.words(str(n))} {v}" for n, v in zip(names, answer.objective))
    return f"{render.words(str(names)) + ' ' if isinstance(names, str) else ''}{answer.objective}"


__all__ = ["Suggester", "Suggestion", "objective_text"]
