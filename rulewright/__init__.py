"""rulewright: board-game rules as code.

A game's rules are written in a small declarative language; rulewright checks them,
plays and scores games from them, and answers questions about them with a CP-SAT
solver. The command line is ``rulewright`` (or ``python -m rulewright``); the same jobs
from Python::

    import rulewright
    game = rulewright.load("ecosystem_savanna")          # a folder, a file, or a shipped game
    game.score("examples/margot.grid").total             # 86
    played = game.play(4, seed=3, stop_at="pick:7")      # a seeded game, to a checkpoint
    answer = game.ask("best-pick", position=played.position, player="p2")
    game.simulate(4, games=50)                           # seeded games: means and win shares, with intervals

See ``rulewright.api`` (and the "Python API" page of the docs).
"""
__version__ = "0.1.0"

__all__ = ["load", "Game", "Grid", "Score", "Played", "Position", "Simulation", "Study", "Tournament", "Verification",
           "Diff", "Examples", "RulesError", "__version__"]


def __getattr__(name: str):
    if name in __all__:
        # the API is imported when first used, so that ``rulewright`` (the command, which
        # imports this package first) starts without loading the whole API
        from rulewright import api
        return getattr(api, name)
    raise AttributeError(f"module 'rulewright' has no attribute {name!r}")
