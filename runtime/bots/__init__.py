"""Bots: players the runtime can seat, all behind one interface and seeing only their own view.

``answer(decision, view) -> answer`` (runtime/bots/base.py): a bot gets the
pending decision as its player sees it and answers in the view's terms;
``answer_for`` turns the answer into the engine's, and ``bot_answer(game,
player, bot, seed, **options)`` is the one call that gives any bot's answer for
a game and a seat.  The bots, by the name ``BOTS`` and ``make_bot`` know them:

- ``random`` and ``greedy`` (runtime/bots/simple.py): from the decision alone;
- ``heuristic`` and ``search``, the default opponent (runtime/bots/search.py):
  they look ahead in worlds sampled from their view.

Bots use the public API and the views (runtime/api/); nothing here reaches
into the engine's state except through a view, and nothing in the rules or
the API imports a bot.
"""
from __future__ import annotations

from .base import Bot, answer_for
from .search import HeuristicBot, SearchBot
from .simple import GreedyBot, RandomBot, greedy_dogma_answer

__all__ = ["BOTS", "Bot", "GreedyBot", "HeuristicBot", "RandomBot", "SearchBot", "answer_for", "bot_answer",
           "greedy_dogma_answer", "make_bot", "play_bots", "play_random"]

BOTS = {"random": RandomBot, "greedy": GreedyBot, "heuristic": HeuristicBot, "search": SearchBot}


def make_bot(kind: str, seed: int = 0, **options) -> Bot:
    """A bot by name (one of BOTS), seeded; options go to its constructor (the search bot's budget)."""
    return BOTS[kind](seed, **options)


def bot_answer(game, player: int, bot: str | Bot = "search", seed: int = 0, **options):
    """Any bot's answer to the game's pending decision for `player`, worked out from that player's view
    only, in the engine's terms (ready for ``game.apply``). ``bot`` is a name from BOTS or a bot object;
    ``options`` go to a named bot's constructor, e.g. ``iterations=500`` or ``seconds=2.0`` for "search"."""
    if isinstance(bot, str):
        bot = make_bot(bot, seed, **options)
    return answer_for(game, bot, player)


def play_random(game, seed: int = 0, max_decisions: int = 50_000) -> int:
    """Play a game to the end with random answers for every seat; return the number of decisions."""
    return play_bots(game, [RandomBot(seed * 101 + p) for p in range(len(game.state["players"]))], max_decisions)


def play_bots(game, bots: list, max_decisions: int = 50_000) -> int:
    n = 0
    while not game.over:
        p = game.decision["player"]
        game.apply(answer_for(game, bots[p], p))
        n += 1
        if n > max_decisions:
            raise RuntimeError(f"game did not end within {max_decisions} decisions")
    return n
