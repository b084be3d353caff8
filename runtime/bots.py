"""Bots that answer decisions.  ``RandomBot`` picks uniformly among legal
answers with its own seeded RNG, so a game is reproducible from two seeds
(the game's and the bot's)."""
from __future__ import annotations

import random


class RandomBot:
    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def answer(self, decision: dict, cards=None):
        rng = self.rng
        kind, options = decision["kind"], decision["options"]
        if kind in ("action", "initial_meld", "choose_option"):
            return rng.choice(options)
        if kind == "yes_no":
            return rng.random() < 0.5
        if kind == "splay_color":
            return rng.choice(options + ([None] if decision["optional"] else []))
        if kind == "order":
            order = list(options)
            rng.shuffle(order)
            return order
        if kind == "choose" and decision["max"] == 1:
            return rng.choice(options)
        if decision.get("one_per_color") and cards is not None:
            first: dict = {}
            for c in rng.sample(options, len(options)):
                first.setdefault(cards.color[c], c)
            return list(first.values())
        k = rng.choice(decision["sizes"]) if "sizes" in decision else rng.randint(decision["min"], decision["max"])
        return rng.sample(options, k)


def play_random(game, seed: int = 0, max_decisions: int = 50_000) -> int:
    """Play a game to the end with random answers; return the number of decisions."""
    bot = RandomBot(seed)
    n = 0
    while not game.over:
        game.apply(bot.answer(game.decision, game.cards))
        n += 1
        if n > max_decisions:
            raise RuntimeError(f"game did not end within {max_decisions} decisions")
    return n
