"""The encoder: one CP-SAT model being built for a checked program (optionally on a game
state), made of its parts, one module each: ``blocks`` (literals, and/or, linear sums,
bounds, gates), ``arithmetic`` (comparisons, min/max, products, division, lexicographic
order, allocation), ``expressions`` (the walk of IR expressions), ``scorings`` (scorings
unrolled step by step, choices, grids), ``statements`` (a query's statements).

In:  an ``ir.Program``, optionally a model and a game state.
Out: ``Encoder``, whose ``run_query`` encodes a query and whose ``encode`` encodes one
     expression into symbolic values (``solver.symbolic``).
"""
from __future__ import annotations


from typing import Any

from ortools.sat.python import cp_model

from rulewright.compiler import ir as I
from rulewright.compiler.diagnostics import Span


from rulewright.solver.encode.blocks import Blocks
from rulewright.solver.encode.arithmetic import Arithmetic
from rulewright.solver.encode.expressions import Expressions
from rulewright.solver.encode.scorings import Scorings
from rulewright.solver.encode.statements import Statements
from rulewright.solver.symbolic import BoardV, Choice, ScoreV
from rulewright.solver.encode.base import TICKS


class Encoder(Blocks, Arithmetic, Expressions, Scorings, Statements):
    """A CP-SAT model being built; its parts are the mixins, one module each."""

    def __init__(self, program: I.Program, model: cp_model.CpModel | None = None,
                 state: Any = None):
        self.program = program
        self.model = model or cp_model.CpModel()
        self.state = state
        self._and: dict = {}
        self._or: dict = {}
        self._or_parts: dict[int, set[int]] = {}
        self._or_literals: dict[int, list] = {}
        self.distribute = False         # distribute AND over OR of one-hot literals (see add_pair_marginals)
        self._cmp: dict = {}
        self.choices: list[Choice] = []
        self.infeasible: list[Span] = []
        self.empty_choices: list = []   # (Choose, whether its collection had elements) with no option at all
        self.scorings: list[ScoreV] = []
        # least(...) of known arguments, computed whole: (scoring, the literals it is reached under)
        self.worst: list[tuple[str, tuple]] = []
        self.boards: list[BoardV] = []
        self.symmetries: list = []    # (board, value order, mirror maps) broken by lex-leader
        self._counter = 0
        self.guards: list = []        # literals under which the value being encoded matters
        # the guards the definition being encoded has relied on (a value that is right
        # only where they hold: see enc_map_get), so its memo is not reused elsewhere
        self.relied: list = []
        # literals under which the expression being encoded is reached at all (a query's
        # path, an aggregate's element, a branch of 'if', an operand of 'and'/'or' after
        # the first): a constraint a value needs only where it is computed (a table's
        # key within the table, a scoring's choice made) holds under them only
        self.context: list = []
        self.hard_grid_wheres = True    # see choose
        self.hardened = False
        self.onehot: dict[int, tuple[int, Any]] = {}   # literal key -> (one-hot group, value)
        self.pairs: dict[tuple[int, int], dict] = {}    # (group, group) -> {(a, b): and-literal}
        self._groups: list[dict] = []
        self._group_owner: dict[int, Any] = {}
        self.value_caps: dict[tuple[int, Any], int] = {}   # (id of a grid, value) -> most cells
        # With a game state, known sub-expressions are computed by the interpreter
        # (the reference semantics, compiled) and definition calls are remembered.
        self.interp = None
        self._bounds: dict = {}       # variable index -> bounds, for the variables made here
        # A gated sum of literals becomes one product per literal (a tight linear
        # relaxation, for grids chosen whole) or, beyond this many terms, one variable with
        # big-M bounds (a smaller model: queries on a game position set it).
        self.product_terms: int | None = None
        # Constraints that only tighten the linear relaxation (big-M forms, linear
        # and/or): left out for a solver that runs without one (queries on a game position).
        self.relaxation = True
        self._calls: dict = {}
        self._tuples: dict = {}       # id of a tuple -> (it, whether it holds a symbolic value)
        self._records: dict = {}
        self.agg_env: dict = {}
        self.explain = False          # one assumption literal per checked rule (for reasons)
        self.leaves: list = []        # the rules a query checks (see require)
        self.path_now: dict = {}      # the choices of the path being encoded (for reasons)
        self.objective_names: list = []   # the 'named' value of each objective reached
        self.dead_end = False         # a choice's condition known false (see run_block)
        self.dead_depth = -1
        self.objectives: list = []    # (path guard, value) of every maximize/minimize reached
        self.inputs: dict = {}
        self._lex_sums: dict = {}     # ids of a tuple's elements -> (weighted sum, weights, elements)
        # the types of values known whatever they hold (a record's fields are known too)
        self._known_types = {int, str, bool, type(None)} | \
            {r.cls for r in program.records.values() if r.cls is not None}
        self.deadline: float | None = None      # time.perf_counter() past which building stops
        self._ticks = TICKS
