"""The supply: building the age piles and the deal, and drawing.

The supply holds one shuffled pile per age; the standard achievements are
the top card of their ages' piles (manifest ``standard_achievement_ages``)
and each player is dealt ``initial_hand`` cards of the first age.  A draw
of a value takes the top card of the first non-empty pile at or above it;
past the last age the game ends by score.
"""
from __future__ import annotations

import random

from .state import Cards, draw_age


def deal(cards: Cards, state: dict, seed: int) -> None:
    """Shuffle each age's pile, set the standard achievements aside, deal the starting hands."""
    m = cards.manifest
    rng = random.Random(seed)
    for age in cards.ages:
        pile = [c["id"] for c in cards.cards if c["age"] == age]
        rng.shuffle(pile)
        state["supply"][str(age)] = pile
    for age in m["standard_achievement_ages"]:
        state["available"]["standard"].append(state["supply"][str(age)].pop(0))
    for _ in range(m["initial_hand"]):
        for p in range(len(state["players"])):
            state["players"][p]["hand"].append(state["supply"][str(min(cards.ages))].pop(0))

class Supply:
    """Drawing from the supply. Mixed into the Engine (runtime/engine.py)."""

    def draw_one(self, p: int, value: int) -> int:
        """The standard draw: value (at least the first age), skipping empty ages; past the last age the game ends."""
        st = self.state
        age = draw_age(self.cards, st, value)
        if age is None:
            self.emit("draw_past_end", player=p, value=value)
            self.end_by_score()
        cid = st["supply"][str(age)].pop(0)
        st["players"][p]["hand"].append(cid)
        self.emit("draw", player=p, card=cid, age=age)
        self._count_change()
        return cid

    def draw_effect(self, frame, count: int, value: int, then: str) -> list[int]:
        p = frame["you"]
        drawn = []
        for _ in range(max(count, 0)):
            cid = self.draw_one(p, value)
            if then != "draw":
                self._put(p, cid, then)
            drawn.append(cid)
            self.after_change()
        frame["sel_full"] = None
        frame["did"] = bool(drawn)
        return drawn
