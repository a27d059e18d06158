"""The checked program's expression nodes -> a CP-SAT model.

In:  ``ir`` expressions and statements, an environment binding names to known
     values or symbolic values (``solver.symbolic``).
Out: symbolic values over a ``cp_model.CpModel``; constraints for ``require``
     and ``where``; decision variables for ``choose``.

Each operator's encoding lives in ``operators`` (``ENCODINGS``, ``AGG_ENCODINGS``), keyed
by the names of its typing and concrete meaning in ``compiler.semantics.operators``. The
``Encoder`` (``encoder``) is made of one module per part: ``blocks`` (literals and linear
helpers the operators use), ``arithmetic``, ``expressions`` (the walk of the tree, which
unrolls aggregates over known collections), ``scorings`` (unrolled step by step: a
``mark`` makes a new layer, so later steps see the cards turned face down; choices) and
``statements`` (a query's statements, walked by ``solver.walk``). When every operand is
known the operator's concrete meaning is used instead (constant folding), so the model
only holds what depends on a choice. Anything that cannot be encoded raises
``NotSupportedError`` with the span of the construct.

Variables are named after their spec origin (``g[1,3]=water``,
``score.choice[2,0]``) so a dumped model is readable.
"""
from rulewright.solver.encode.base import (MOST_MAGNITUDE, BuildTimeout, Leaf, cell_name, choice_literals,
                                           fields_read, free_locals, is_symbolic)
from rulewright.solver.encode.encoder import Encoder
from rulewright.solver.encode.operators import AGG_ENCODINGS, ENCODINGS

__all__ = ["Encoder", "ENCODINGS", "AGG_ENCODINGS", "BuildTimeout", "Leaf", "MOST_MAGNITUDE", "cell_name",
           "choice_literals", "fields_read", "free_locals", "is_symbolic"]
