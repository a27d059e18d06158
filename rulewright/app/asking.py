"""Asking: a query of a spec, its inputs read by their declared types, answered by the
solver and replayed by the interpreter (``solver/queries.py``).

In:  a checked program, a query's name, the inputs as the user gave them (text to read
     by the input's type, a seat by its name, title or number, or values already made),
     a position or none, the face's spelling.
Out: the query, the inputs as values of the rules, and the solver's ``Answer``; a
     ``BadInputError`` naming the query, input or seat at fault as the face spells it.
"""
from __future__ import annotations

from typing import Any

from rulewright.compiler.diagnostics import NEUTRAL, BadInputError, Spelling, did_you_mean
from rulewright.compiler.play.inputs import parse_value
from rulewright.compiler.semantics import runtime as rt
from rulewright.compiler.types import SeatT


def query_named(program, name: str, spec: str = ""):
    """The query ``name`` (dashes or underscores) of a program."""
    key = name.replace("-", "_")
    if key not in program.queries:
        names = [q.replace("_", "-") for q in program.queries]
        hint = did_you_mean(name, names) or ("queries: " + ", ".join(names) if names else "none")
        raise BadInputError(f"no query '{name}' in {spec or program.title} ({hint})")
    return program.queries[key]


def reads_state(program, query) -> bool:
    """Whether a query reads the game state (a state variable is downstream of it in the
    rules graph): such a query needs a position."""
    import networkx as nx                                   # (lazy: networkx, for this question
    from rulewright.compiler import graph as rules_graph   # only)
    g = rules_graph.build(program)
    seen = nx.descendants(g, query.name) if query.name in g else set()
    return any(n in program.state for n in seen)


def seat_named(raw: str, state, label: str, sp: Spelling = NEUTRAL):
    """A seat of the position by its name, then its title, then its number (1 for the
    first seat)."""
    if state is None:
        raise BadInputError(f"{label} names a seat of a game: give {sp.position}")
    for match in (lambda s: s.name == raw, lambda s: s.title == raw, lambda s: str(s.index + 1) == raw):
        found = [s for s in state.seats if match(s)]
        if found:
            return found[0]
    names = [s.name for s in state.seats]
    raise BadInputError(f"{label}: no seat '{raw}' in this game "
                        f"({did_you_mean(raw, names) or 'seats: ' + ', '.join(names)})")


def read_inputs(program, query, given: dict[str, Any], state, sp: Spelling = NEUTRAL) -> dict[str, Any]:
    """The inputs of ``query`` as values of the rules: text read by the input's declared
    type, a seat named as ``seat_named`` takes it; values already made pass as they are.
    An input the query does not have is refused, with its inputs."""
    declared = {name: typ for name, typ, _ in query.inputs}
    out: dict[str, Any] = {}
    for name, raw in given.items():
        if raw is None:
            continue
        if name not in declared:
            raise BadInputError(f"query '{query.name.replace('_', '-')}' has no {sp.of_input(name)} "
                                f"(inputs: {', '.join(sp.of_input(n) for n in declared) or 'none'})")
        typ = declared[name]
        if isinstance(typ, SeatT) and isinstance(raw, str):
            out[name] = seat_named(raw, state, sp.of_input(name), sp)
        elif isinstance(raw, str):
            out[name] = parse_value(raw, typ, program, name)
        elif isinstance(raw, rt.Board) or not hasattr(raw, "board"):
            out[name] = raw
        else:                   # (a grid of the API: its board)
            out[name] = raw.board
    return out


def ask(program, name: str, inputs: dict[str, Any], state=None, *, time_limit: float = 60.0, workers: int = 2):
    """The solver's answer to a query (inputs already read), replayed by the interpreter."""
    from rulewright.solver.queries import run_query       # (lazy: OR-Tools loads only when a question is asked)
    return run_query(program, name.replace("-", "_"), inputs, time_limit=time_limit, workers=workers, state=state)
