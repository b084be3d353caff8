"""Hook points: the moments at which the engine runs a set's rules.

A set's ``rules/*.inno`` files hold ``hook NAME(params) { ... }`` blocks
(an event point's also name their verb: ``hook after dig(card, from) { ... }``);
the compiler checks each against this table (the point's name and how many
arguments it passes) and the engine runs every hook of a point in its
declared order (``order N``, lower first), then in set and file order, with
'you' the active player.  The docs list this table.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class HookPoint:
    name: str
    params: tuple[tuple[str, str], ...]     # (usual name, type) of each argument, in order
    doc: str
    verb: bool = False      # an event hook: it names the verb whose moves it follows ('hook after dig(card, from)')
    action: bool = False    # an action's hook: it names the set's action it performs ('hook action endorse(card)')


HOOK_POINTS: dict[str, HookPoint] = {h.name: h for h in [
    HookPoint("meld_action", (("melded", "cards"), ("covered", "cards")),
              "after a Meld action (never after a meld inside an effect): the card melded and the card it "
              "covered (no card when it started a pile)"),
    HookPoint("turn_start", (), "at the start of each turn, before the first action"),
    HookPoint("after", (("card", "cards"), ("from", "str")),
              "an event: right after a move by a verb (hook after VERB(card, from)), wherever it was made (the "
              "Meld action, an effect, a demand, another hook). VERB is a zone's verb of a set in play, or one of "
              "the language's: meld, tuck, junk (a card moved; 'from' the zone it left), splay (a pile splayed in "
              "a new direction; 'card' its top card, 'from' the direction it had). 'you' is the player who made "
              "the move. It runs at once, before the rest of the effect or hook that made the move (after the Meld "
              "action's own meld: first among the Meld action's hooks)", verb=True),
]}

HOOK_POINTS["action"] = HookPoint(
    "action", (("card", "cards"),),
    "a set's action (manifest 'actions'), written hook action NAME(card): what the action does when a player takes "
    "it on the card they chose, with 'you' the active player; the action ends when the hook is done", action=True)

# the language's own verbs an event hook may follow (a set's zone verbs besides)
EVENT_VERBS = ("meld", "tuck", "junk", "splay")
