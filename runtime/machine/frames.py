"""Frames: one effect (or a set's hook, or a condition) running for one player.

A frame is a JSON object, saved with the game:

    {"card": id, "effect": i, "kind": "demand"|"non_demand"|..., "pc": 0,
     "stack": [], "locals": [...], "you": p, "me": q, "did": false, ...}

``card`` is a card id, ``HOOK`` for a set's hook (``effect`` is then the
hook's index in ``Cards.hooks``), or -1 for a condition or a manifest
expression, whose frame carries its own ``chunk``.
"""
from __future__ import annotations

HOOK = -2          # the ``card`` of a hook's frame and work items (runtime/rules/hooks.py)


def chunk_of(cards, frame) -> dict:
    """The compiled chunk a frame runs."""
    if frame["card"] == HOOK:
        return cards.hooks[frame["effect"]]["chunk"]
    if frame["card"] < 0:
        return frame["chunk"]
    return cards.cards[frame["card"]]["effects"][frame["effect"]]


def new_frame(cards, card: int, effect: int, you: int, me: int, sharer: bool = False, changes_at_start: int = 0,
              depth: int = 0, record: int = 0) -> dict:
    """A fresh frame for one effect of a dogma's work list (runtime/rules/dogma.py)."""
    chunk = cards.cards[card]["effects"][effect]
    return {"card": card, "effect": effect, "kind": chunk["kind"], "pc": 0, "stack": [],
            "locals": [None] * len(chunk["locals"]), "you": you, "me": me, "did": False, "sel_full": None,
            "sharer": sharer, "changes_at_start": changes_at_start, "depth": depth, "record": record}
