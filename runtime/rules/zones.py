"""Per-player set zones: the zones a set's manifest declares, with their visibility and limits.

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

Nothing here names a set or a zone: every declared zone is handled alike.
"""
from __future__ import annotations

from ..machine.expressions import kept_value


def limit(cards, state: dict, zone: str, p: int) -> int | None:
    """The zone's limit for player p now (None: no limit)."""
    chunk = cards.zones[zone].get("limit")
    if chunk is None:
        return None
    value = kept_value(cards, state, chunk, f"{cards.zones[zone]['set']}:zones/{zone}/limit", p)
    return max(int(value or 0), 0)


def has_room(cards, state: dict, zone: str, p: int) -> bool:
    """Whether one more card may go into player p's zone now."""
    cap = limit(cards, state, zone, p)
    return cap is None or len(state["players"][p]["zones"][zone]) < cap


def sees_cards(cards, zone: str, owner: int, viewer: int | None) -> bool:
    """Whether the viewer may know the cards in the owner's zone."""
    return cards.zones[zone]["visibility"] == "all" or viewer == owner


def sees_size(cards, zone: str, owner: int, viewer: int | None) -> bool:
    return cards.zones[zone].get("size", "public") == "public" or viewer == owner
