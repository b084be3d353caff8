"""The supply: the piles of each set and age, the deal, and drawing.

Each set in play (runtime/rules/sets.py) has its own piles beside the base cards'
(state ``supply`` and ``set_supply``): one shuffled pile per set and age.
The standard achievements are the top base card of their ages' piles
(manifest ``standard_achievement_ages``); each player is dealt
``initial_hand`` cards of the first age, one at a time by the draw rules, so
a set's draw rule decides the starting hands too.

A draw of a value goes to the first non-empty *base* pile at or above it
(past the last age the game ends by score).  A plain draw then asks the sets'
draw rules which set it takes its card from; a draw naming a set
(``draw SET [1]``) takes that set.  A set whose pile of that age is empty
gives a base card of that age instead.  A draw into a set's zone
(``draw and foreshadow``) draws the card, then puts it there; into a full zone
the card stays in the hand.

A private look (``look at the top card of any deck``) lets the performer
choose any pile with cards, of any age, the base game's or a set's in play,
and shows its top card to that player only (event ``look``); the card stays
on top (docs/rules.md, "A private look").
"""
from __future__ import annotations

import random

from ..machine.expressions import draw_set
from ..state.board import note_location, supply_piles
from ..state.cards import Cards
from ..state.positions import draw_age, supply_pile
from . import sets


def deal(cards: Cards, state: dict, seed: int) -> None:
    """Shuffle every pile, lay out the cards that start in a set's game-wide zone, take out those a set
    removes at set-up, set the standard achievements aside, deal the starting hands."""
    m = cards.manifest
    rng = random.Random(seed)
    for age in cards.ages:
        pile = list(cards.deck.get(("base", age), ()))
        rng.shuffle(pile)
        state["supply"][str(age)] = pile
    # the sets' piles are shuffled after the base piles, so the base cards lie as they would without sets
    for name in cards.set_names:
        for age in sets.manifest(cards, name)["ages"]:
            pile = list(cards.deck.get((name, age), ()))
            rng.shuffle(pile)
            state["set_supply"][name][str(age)] = pile
    # the cards a set's game-wide zone starts with, in the manifest's order (kept out of the piles: Cards.deck)
    for zone, spec in cards.shared_zones.items():
        state["zones"][zone] = [cards.by_name[name] for name in spec.get("cards", ())]
    state["removed"] += cards.removed_at_setup      # out of the game before the deal (kept out of Cards.deck)
    for age in m["standard_achievement_ages"]:
        state["available"]["standard"].append(state["supply"][str(age)].pop(0))
    for _ in range(m["initial_hand"]):
        for p in range(len(state["players"])):
            state["players"][p]["hand"].append(take(cards, state, p, cards.min_age)[0])


def take(cards: Cards, state: dict, p: int, age: int, from_set: str | None = None,
         keep: dict | None = None) -> tuple[int, str]:
    """Take the top card of an age that has base cards: from the set the draw rules give p (or
    from_set), or a base card when that set's pile is empty. Returns (card, set drawn from); ``keep``:
    an engine's derived cache, for the draw rules' values."""
    name = from_set if from_set is not None else (draw_set(cards, state, p, keep) if cards.set_names else "base")
    pile = supply_pile(state, name, str(age)) if name != "base" else None
    if not pile:
        name, pile = "base", state["supply"][str(age)]
    drawn = state["turn"].get("drawn")
    if drawn is not None:     # the cards that left a deck for each player this turn (drawn_this_turn)
        drawn[p] += 1
    return pile.pop(0), name


class Supply:
    """Drawing from the supply. Mixed into the Engine (runtime/rules/engine.py)."""

    def draw_one(self, p: int, value: int, from_set: str | None = None) -> int:
        """The standard draw: value (at least the first age), skipping empty base ages; past the last
        age the game ends. from_set: a draw that names its set (None: the draw rules choose)."""
        st = self.state
        age = draw_age(self.cards, st, value)
        if age is None:
            self.emit("draw_past_end", player=p, value=value)
            self.end_by_score()
        cid, name = take(self.cards, st, p, age, from_set, self.icon_cache)
        st["players"][p]["hand"].append(cid)
        note_location(cid, ("hand", p, None))
        if name == "base":
            self.emit("draw", player=p, card=cid, age=age)
        else:
            self.emit("draw", player=p, card=cid, age=age, set=name)
        self._count_change()
        return cid

    def draw_effect(self, frame, count: int, value: int, then: str, from_set: str | None = None) -> list[int]:
        p = frame["you"]
        drawn, put = [], False
        for _ in range(max(count, 0)):
            cid = self.draw_one(p, value, from_set)
            if then != "draw":
                # "draw and X": the card is drawn, then X is done to it; a full zone takes nothing, so
                # the card drawn to foreshadow stays in the hand (docs/rules.md, ruling 26)
                put = self._put(p, cid, then) is not False or put
            drawn.append(cid)
            self.after_change()
        frame["sel_full"] = None
        frame["did"] = put if then in self.cards.zone_verbs else bool(drawn)
        return drawn

    def look(self, frame) -> None:
        """'look at the top card of any deck': the performer chooses a pile with cards ("SET AGE", base
        piles first) and sees its top card; nothing moves. No pile has cards: nothing happens."""
        piles = [f"{name} {age}" for (name, age), pile in sorted(
            supply_piles(self.state), key=lambda kp: (kp[0][0] != "base", kp[0][0], int(kp[0][1]))) if pile]
        frame["did"] = bool(piles)
        if not piles:
            return
        chosen = piles[0] if len(piles) == 1 else self.ask(
            {"player": frame["you"], "kind": "choose", "what": "deck", "options": piles,
             "prompt": "choose a deck to look at its top card"}, frame)
        name, age = chosen.rsplit(" ", 1)
        top = supply_pile(self.state, name, age)[0]
        self.emit("look", player=frame["you"], card=top, age=int(age), set=name)
