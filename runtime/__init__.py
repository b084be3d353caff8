"""The InnoScript runtime: game state, the bytecode VM and the rules engine.

The public API is ``Game`` (runtime/game.py); see docs/api.md.
"""
from .engine import IllegalAnswer
from .game import BadSave, Game
from .vm import RuntimeFault

__all__ = ["Game", "IllegalAnswer", "BadSave", "RuntimeFault"]
