"""Names, types and arity: AST -> checked ``ir.Program``.

In:  the ``ast.SpecFile`` list of one spec and optional overrides of switches
     and params (``{"cheetah_range": "lines"}``).
Out: an ``ir.Program`` with every expression typed and every name bound, or a
     ``ResolveError`` listing every problem found, each with its span and,
     where one fits, a "did you mean" hint.

One module per phase, in the order ``Resolver.run`` takes them: ``tables`` (enums,
tables, checks, records), ``declarations`` (types, constants and switches, grids, state,
definitions on demand), ``expressions``, ``statements``, ``definitions`` (scorings,
procedures, modes, queries); ``scope`` holds what they share and ``resolver`` the driver.

Constant sub-expressions (switches, params, relations, grid sizes, ``cells(g)``)
are folded here with the operators' own concrete meaning, so both evaluators
see relations and switch-dependent choices as constants.
"""
from rulewright.compiler.resolve.resolver import Resolver
from rulewright.compiler.resolve.scope import MOST_GRID_CELLS, MOST_PLAYERS, MOST_ROWS, RelData, Scope

__all__ = ["Resolver", "RelData", "Scope", "MOST_ROWS", "MOST_PLAYERS", "MOST_GRID_CELLS"]
