"""Chance inside effects: the game's seeded coin.

A coin flip must be fair, unknown to every player beforehand, and the same
when a saved game is replayed. Each flip is the low bit of a hash of the
game's ``secret`` (the key a server keeps from every client), its ``seed``
and the number of flips before it (state ``flips``, saved with the game).
A replay from a save flips the same coins; a bot's sampled world, which has
a seed of its own, flips others, so no search can foresee a flip.
"""
from __future__ import annotations

import hashlib


def coin(state: dict, n: int) -> bool:
    """Flip number ``n`` of the game: True for heads (the flipping player wins)."""
    digest = hashlib.sha256(f"innoscript-coin/{state.get('secret', '')}/{state.get('seed', 0)}/{n}".encode())
    return digest.digest()[0] & 1 == 0


class Chance:
    """Flips of the game's coin. Mixed into the Engine (runtime/rules/engine.py)."""

    def flip_coin(self, frame) -> bool:
        """'flip a coin': the flip every player sees; True when the frame's player wins it."""
        st = self.state
        n = st.get("flips", 0)
        st["flips"] = n + 1
        won = coin(st, n)
        self.emit("coin_flip", player=frame["you"], won=won, flip=n + 1)
        frame["did"] = True
        return won
