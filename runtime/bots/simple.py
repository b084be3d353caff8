"""The bots that answer from the decision alone: random and greedy.

- ``RandomBot`` ("random"): uniform among the legal answers, from its own seeded RNG.
- ``GreedyBot`` ("greedy"): achieves when it can; melds a card that closes the gap on an
  opponent's demand icon; melds a card that raises its highest top card; uses
  dogmas nobody shares; keeps high cards for itself and gives away or returns
  low ones.
"""
from __future__ import annotations

from .base import Bot, handle

# the purposes of a choice whose cards stay with the chooser (GreedyBot keeps high cards for those)
KEEP = {"meld", "score", "achieve", "take", "keep", "reveal", "choose", "tuck"}


class RandomBot(Bot):
    name = "random"
    previews = False
    options_only = True

    def answer(self, decision: dict, view=None):
        rng = self.rng
        kind, options = decision["kind"], decision["options"]
        if kind in ("action", "initial_meld", "choose_option"):
            return handle(rng.choice(options)) if kind == "initial_meld" else rng.choice(options)
        if kind == "yes_no":
            return rng.random() < 0.5
        if kind == "splay_color":
            return rng.choice(options + ([None] if decision.get("optional") else []))
        if kind == "order":
            order = [handle(o) for o in options]
            rng.shuffle(order)
            return order
        if kind == "choose" and decision.get("max", 1) == 1:
            return rng.choice(options)
        if decision.get("one_per_color"):
            first: dict = {}
            for o in rng.sample(options, len(options)):
                first.setdefault(o.get("color"), handle(o))
            return list(first.values())
        k = rng.choice(decision["sizes"]) if "sizes" in decision else rng.randint(decision["min"], decision["max"])
        return [handle(o) for o in rng.sample(options, k)]


def greedy_dogma_answer(decision: dict, age, handle=lambda o: o):
    """The greedy bot's answer to a decision inside a dogma, given each option's value (``age``), or
    None where it answers at random. The bots that look ahead assume it for the decisions inside the
    dogmas they play out (runtime/bots/search.py), so they plan with what they will really do: yes to a
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
            return handle(max(options, key=lambda c: (c.get("name", "") == min(o.get("name", "") for o in options),)))
        answer = greedy_dogma_answer(decision, lambda o: o.get("age", 0), handle)
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
