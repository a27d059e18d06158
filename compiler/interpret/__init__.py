"""The reference semantics: the checked program evaluated on a game state.

In:  an ``ir.Program``.
Out: ``Interpreter``, which compiles every definition to a Python function
     (each operator contributes its ``py`` template from ``semantics.operators``)
     and runs them: ``call`` evaluates a definition, ``score`` a scoring with
     its breakdown, ``play`` a whole mode with agents that choose among the
     legal options only.

Choices inside a scoring (``choose lion_prey subset of ...``) are made by the
score's owner: the interpreter tries every legal option and keeps the best
total (``most``, the default) or the worst (``least``). Statements after a
choice are compiled as a continuation, so the steps before it run once.
``forced`` choices replay a given witness instead (used to check solver
answers).

Modules: ``codegen`` (IR -> vetted Python source), ``state`` (a game in progress and its
agents), ``interpreter`` (the compiled program and its entry points).
``Interpreter.python_source()`` shows the generated code.
"""
from rulewright.compiler.interpret.codegen import evaluate_closed, locate
from rulewright.compiler.interpret.interpreter import GAME_STEPS, Interpreter, interpreter_for
from rulewright.compiler.interpret.state import Event, GameState, RandomAgent, ReplayAgent, StopGame

__all__ = ["Interpreter", "interpreter_for", "evaluate_closed", "locate", "GameState", "Event",
           "RandomAgent", "ReplayAgent", "StopGame", "GAME_STEPS"]
