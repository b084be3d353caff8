"""Why a frame stops other than by finishing: a decision to wait for, the end of the game, a fault.

``NeedDecision`` and ``GameOver`` are not errors: the engine catches them
(runtime/rules/engine.py).  ``RuntimeFault`` is a card's error at run time,
naming the card and source line from the chunk's pc -> line map; the engine
rolls the action back when one leaves an answer.
"""
from __future__ import annotations

from .frames import chunk_of


class NeedDecision(Exception):
    """The running frame waits for a player's answer (state['pending'] is set)."""


class GameOver(Exception):
    """Raised inside an effect when the game ends (a draw past the last age, a win)."""


class RuntimeFault(Exception):
    """A card effect went wrong at run time: names the card and source line."""

    def __init__(self, message: str, card: str | None = None, line: int | None = None, column: int | None = None):
        self.card, self.line, self.column = card, line, column
        where = f"{card}, line {line}:{column}: " if card else ""
        super().__init__(where + message)


class BudgetExhausted(RuntimeFault):
    """An action used up its instructions or decisions (runtime/rules/engine.py sets the budgets)."""


class OutOfRange(ValueError):
    """A number beyond the machine's range (vm.MAX_NUMBER): the card's fault, worded without a type name."""


def fault(cards, frame, chunk, pc, message, cls=RuntimeFault) -> RuntimeFault:
    """A fault at the source line of the frame's instruction pc."""
    line, col = chunk["lines"][pc] if pc < len(chunk["lines"]) else (0, 0)
    name = cards.name[frame["card"]] if frame["card"] >= 0 else frame.get("label", "condition")
    return cls(message, name, line, col)


def python_fault(cards, frame, chunk, pc, err) -> RuntimeFault:
    """A Python error inside an instruction, as a fault at that instruction's source line."""
    return fault(cards, frame, chunk, pc, str(err) if isinstance(err, OutOfRange) else f"{type(err).__name__}: {err}")


def budget_fault(engine, frame, message) -> BudgetExhausted:
    """The fault for a frame that is about to ask (its pc is the asking instruction)."""
    if "card" not in frame or "pc" not in frame:
        d = engine.state["dogma"]
        return BudgetExhausted(message, engine.cards.name[d["card"]] if d and d["card"] >= 0 else None)
    return fault(engine.cards, frame, chunk_of(engine.cards, frame), frame["pc"], message, BudgetExhausted)

