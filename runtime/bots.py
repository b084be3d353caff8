"""Bots behind one interface: ``answer(decision, view) -> answer``.

A bot sees only its own player's view (runtime/views.py): ``decision`` is the
pending decision as that player sees it (options with hidden cards as
handles) and ``view()`` returns the rest of the view when the bot wants it.
Answers are in the view's terms; ``answer_for`` turns them into the engine's,
and ``bot_answer(game, player, bot, seed, **options)`` is the one call that
gives any bot's answer for a game and a seat.

A bot that picks among the options by their places alone (``options_only``: the random bot)
gets the pending decision as the engine has it, without any view, and answers in its terms (it
reads neither cards nor hidden handles, so it learns nothing a view would hide). A bot that never
reads the dogma options' previews says so (``previews = False``) and gets its decision without them; the rest of its view is built only if it asks, and then only the parts it
reads (views.LazyView: the players on their own, the rest at once).

- ``RandomBot`` ("random"): uniform among the legal answers, from its own seeded RNG.
- ``GreedyBot`` ("greedy"): achieves when it can; melds a card that closes the gap on an
  opponent's demand icon; melds a card that raises its highest top card; uses
  dogmas nobody shares; keeps high cards for itself and gives away or returns
  low ones.
- ``HeuristicBot`` ("heuristic") and ``SearchBot`` ("search", the default
  opponent): they look ahead in worlds sampled from their view
  (runtime/search.py).
"""
from __future__ import annotations

import random
import sys
from typing import Callable

from .views import LazyView, decision_view, resolve_answer


def _handle(o):
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


class RandomBot(Bot):
    name = "random"
    previews = False
    options_only = True

    def answer(self, decision: dict, view=None):
        rng = self.rng
        kind, options = decision["kind"], decision["options"]
        if kind in ("action", "initial_meld", "choose_option"):
            return _handle(rng.choice(options)) if kind == "initial_meld" else rng.choice(options)
        if kind == "yes_no":
            return rng.random() < 0.5
        if kind == "splay_color":
            return rng.choice(options + ([None] if decision.get("optional") else []))
        if kind == "order":
            order = [_handle(o) for o in options]
            rng.shuffle(order)
            return order
        if kind == "choose" and decision.get("max", 1) == 1:
            return rng.choice(options)
        if decision.get("one_per_color"):
            first: dict = {}
            for o in rng.sample(options, len(options)):
                first.setdefault(o.get("color"), _handle(o))
            return list(first.values())
        k = rng.choice(decision["sizes"]) if "sizes" in decision else rng.randint(decision["min"], decision["max"])
        return [_handle(o) for o in rng.sample(options, k)]


KEEP = {"meld", "score", "achieve", "take", "keep", "reveal", "choose", "tuck"}


def greedy_dogma_answer(decision: dict, age, handle=lambda o: o):
    """The greedy bot's answer to a decision inside a dogma, given each option's value (``age``), or
    None where it answers at random. The bots that look ahead assume it for the decisions inside the
    dogmas they play out (runtime/search.py), so they plan with what they will really do: yes to a
    "may", the first colour to splay, the highest cards to keep and the fewest, lowest cards to part with."""
    kind, options = decision["kind"], decision["options"]
    if kind == "yes_no":
        return True
    if kind == "splay_color" and options:
        return options[0]
    if kind == "select_cards" and not decision.get("one_per_color"):
        keep = decision.get("purpose") in KEEP
        ranked = sorted(options, key=age, reverse=keep)
        if "sizes" in decision:
            k = max(decision["sizes"])
        else:
            k = decision["max"] if keep else decision["min"]
        return [handle(o) for o in ranked[:k]]
    return None


class GreedyBot(RandomBot):
    name = "greedy"
    options_only = False

    def answer(self, decision: dict, view=None):
        kind, options = decision["kind"], decision["options"]
        if kind == "action":
            return self.action(decision, view())
        if kind == "initial_meld":
            return _handle(max(options, key=lambda c: (c.get("name", "") == min(o.get("name", "") for o in options),)))
        answer = greedy_dogma_answer(decision, lambda o: o.get("age", 0), _handle)
        if answer is not None:
            return answer
        return super().answer(decision, view)

    def action(self, decision: dict, v: dict):
        me = v["viewer"]
        options = decision["options"]
        achieves = [o for o in options if o["type"] == "achieve"]
        if achieves:
            return max(achieves, key=lambda o: o["age"])
        mine = v["players"][me]
        # opponents only: a partner is never demanded of, and a partner sharing is the team's progress
        others = [p for i, p in enumerate(v["players"])
                  if i != me and i != mine.get("partner") and not p.get("eliminated")]
        melds = [o for o in options if o["type"] == "meld"]
        # defend: an opponent's top demand card out-counts us on its icon, and a card in hand closes the gap
        for p in others:
            for pile in p["board"].values():
                if pile["cards"] and pile["cards"][0].get("demand"):
                    icon = pile["cards"][0]["dogma"]
                    gap = p["icons"].get(icon, 0) - mine["icons"].get(icon, 0)
                    if gap > 0:
                        helps = [o for o in melds if o["card"]["icons"].count(icon) >= min(gap, 3)]
                        if helps:
                            return max(helps, key=lambda o: o["card"]["age"])
        # climb: a higher top card draws higher cards
        top = max((pile["cards"][0]["age"] for pile in mine["board"].values() if pile["cards"]), default=0)
        higher = [o for o in melds if o["card"]["age"] > top]
        if higher:
            return max(higher, key=lambda o: o["card"]["age"])
        # a dogma nobody shares (and that demands of everyone weaker), most of the time
        def alone(o):
            icon = o["card"]["dogma"]
            return all(p["icons"].get(icon, 0) < mine["icons"].get(icon, 0) for p in others)
        solo = [o for o in options if o["type"] == "dogma" and o["card"].get("implemented", True) and alone(o)]
        if solo and self.rng.random() < 0.7:
            return max(solo, key=lambda o: o["card"]["age"])
        return self.rng.choice(options)


BOTS = {"random": RandomBot, "greedy": GreedyBot}
if f"{__package__}.search" not in sys.modules:   # imported first, it registers itself when it is done
    from . import search  # noqa: E402,F401  (the bots that look ahead build on GreedyBot and register there)


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
