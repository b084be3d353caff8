"""The bot interface: ``answer(decision, view) -> answer``, and asking a bot for a seat's answer.

A bot sees only its own player's view (runtime/api/views.py): ``decision`` is
the pending decision as that player sees it (options with hidden cards as
handles) and ``view()`` returns the rest of the view when the bot wants it.
Answers are in the view's terms; ``answer_for`` turns them into the engine's.

A bot that picks among the options by their places alone (``options_only``:
the random bot) gets the pending decision as the engine has it, without any
view, and answers in its terms (it reads neither cards nor hidden handles, so
it learns nothing a view would hide).  A bot that never reads the dogma
options' previews says so (``previews = False``) and gets its decision without
them; the rest of its view is built only if it asks, and then only the parts it
reads (views.LazyView).
"""
from __future__ import annotations

import random
from typing import Callable

from ..api.views import LazyView, decision_view, resolve_answer


def handle(o):
    """What an answer names an option by: a card's id, a hidden card's handle or a special achievement's name."""
    if isinstance(o, dict):
        return o.get("id", o.get("ref", o.get("special")))
    return o


class Bot:
    name = "bot"
    previews = True    # whether it reads the dogma options' previews (without them its decision costs less)
    options_only = False   # whether it picks among the options by their places alone (then: no view at all)

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def answer(self, decision: dict, view: Callable[[], dict]):
        raise NotImplementedError


def answer_for(game, bot: Bot, player: int):
    """Ask a bot, showing it only its player's view; return the answer in the engine's terms."""
    engine = game.engine
    pending = engine.pending
    if getattr(bot, "options_only", False) and not pending.get("one_per_color"):
        # it never looks at what an option is, only at how many there are and where: the pending
        # decision as it is, its answer already in the engine's terms (a colour per card needs the view)
        return resolve_answer(engine.cards, engine.state, pending, bot.answer(pending, None))
    decision = decision_view(engine.cards, engine.state, player, getattr(bot, "previews", True))
    answer = bot.answer(decision, lambda: LazyView(engine.cards, engine.state, player))
    return resolve_answer(engine.cards, engine.state, pending, answer)
