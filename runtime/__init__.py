"""The InnoScript runtime: a game played from a compiled bundle.

Seven packages, each importing only those below it (pyproject.toml's import
contracts; docs/architecture.md):

    serving   the JSON protocol, its transports and store, the card editor, the terminal
    tools     scenarios, coverage, the card listing, simulation, soak
    bots      random, greedy, heuristic and search players, from their own view only
    api       Game, and what each seat may see of it
    rules     the engine: turns, dogma, moves, supply, choices, achievements, the sets' hooks
    machine   the VM, the compiled tier, the builtins, the sets' expressions
    state     the JSON position, the card table, teams

The state, the machine and the rules never import the compiler: they run
bundles.  The public API is ``Game`` (runtime/api/game.py); see docs/api.md.
"""
from .api.game import BadSave, Game
from .machine.faults import RuntimeFault
from .rules.engine import IllegalAnswer

__all__ = ["Game", "IllegalAnswer", "BadSave", "RuntimeFault"]
