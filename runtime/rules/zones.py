"""Set zones: the zones a set's manifest declares, each player's or the game's, with their visibility and limits.

A set's manifest may declare zones every player has (``zones``: name ->
visibility, size, limit, verb; schema innoscript/core/schemas/set.schema.json).
In the state each player holds ``zones``: name -> card ids, oldest first,
created for the zones of the sets in play (a game without such a set has no
``zones`` key).  A card there is in exactly one place like any other.

- **Visibility**: ``owner``: only the owner knows the cards; ``all``: every
  player does.  **Size**: ``public``: everyone sees how many cards (and of
  which ages: their backs); ``owner``: only the owner.  Views, events and
  decision options follow this (runtime/api/views.py).
- **Limit**: an InnoScript number expression for the owner ('you'),
  evaluated at each move into the zone, card by card (kept with what it
  reads, as the sets' other expressions are: runtime/machine/expressions.py); ``null``: no limit.
  A move into a full zone does nothing.  A limit that shrinks later (a
  splay that grows) removes nothing: the zone keeps its cards and takes no
  more until it has room (docs/rules.md).
- **Verb**: the move verb that fills the zone (``foreshadow``); a transfer
  may also name the zone (``transfer X to their forecast``).

A zone with ``scope: game`` is one zone of the whole game, nobody's (the state's
``zones``: name -> card ids, oldest first; ``the NAME`` in scripts).  Its
visibility is ``all`` (every player and spectator knows its cards) or ``none``
(face down: its size and ages only); its limit is evaluated for the player
moving the card.  It may hold cards from the start (``cards``: dealt there
instead of into their supply piles) and be their home (``return_to_home``: such
a card that is returned comes back to it, never to a supply pile).

Nothing here names a set or a zone: every declared zone is handled alike.
"""
from __future__ import annotations

from ..machine.expressions import kept_value
from ..state.positions import zone_cards


def spec(cards, zone: str) -> dict:
    """A zone's declaration, a player's zone or a game-wide one."""
    return cards.zones.get(zone) or cards.shared_zones[zone]


def is_shared(cards, zone) -> bool:
    return zone in cards.shared_zones


def limit(cards, state: dict, zone: str, p: int, keep: dict | None = None) -> int | None:
    """The zone's limit for player p now (None: no limit): p's own zone, or a game-wide zone p moves a card into."""
    declared = spec(cards, zone)
    chunk = declared.get("limit")
    if chunk is None:
        return None
    value = kept_value(cards, state, chunk, f"{declared['set']}:zones/{zone}/limit", p, keep)
    return max(int(value or 0), 0)


def has_room(cards, state: dict, zone: str, p: int, keep: dict | None = None) -> bool:
    """Whether one more card may go into player p's zone (a game-wide zone: by p) now."""
    cap = limit(cards, state, zone, p, keep)
    return cap is None or len(zone_cards(state, zone, p)) < cap


def sees_cards(cards, zone: str, owner: int | None, viewer: int | None) -> bool:
    """Whether the viewer may know the cards in the owner's zone (a game-wide zone: owner None)."""
    visibility = spec(cards, zone)["visibility"]
    return visibility == "all" or visibility == "owner" and viewer == owner and owner is not None


def sees_size(cards, zone: str, owner: int | None, viewer: int | None) -> bool:
    return spec(cards, zone).get("size", "public") == "public" or viewer == owner
