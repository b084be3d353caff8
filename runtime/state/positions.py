"""A position: the game state as plain JSON data, and the primitive moves that change it.

The whole game is one dict of lists, ints and strings, so it serialises
with ``json.dumps`` at any moment and nothing is hidden in Python objects:

    players[p]   hand, score, achievements (card ids; achievements may also
                 hold special-achievement names), zones: the sets' per-player
                 zones, name -> [card ids, oldest first] (only when a set in
                 play declares one; runtime/rules/zones.py), board: colour ->
                 {"cards": [top ... bottom], "splay": "none"|"left"|...},
                 revealed: the cards p has revealed, shown to everyone; a
                 revealed card stays in its zone (a card that moves stops
                 being revealed), so this list is not a place of its own
    zones        the sets' game-wide zones (scope game), name -> [card ids, oldest
                 first] (only when a set in play declares one; runtime/rules/zones.py)
    supply       age (as a string) -> [top ... bottom]: the base cards' piles
    set_supply   set -> age -> [top ... bottom]: each set in play's own piles
                 (with ``sets``, the sets' names; both only when sets are in play)
    available    {"standard": [card ids], "special": [names]}
    junk, removed
    turn         number, active player, actions left, per-player scored/tucked counts
    phase, pending (the decision asked), dogma (the running dogma action),
    result (when the game is over)

The moves here never ask anything: decisions are made by the VM and the
engine before a move happens.  Every change of cards moves the revision
counters (``bump``) that derived caches key on.
"""
from __future__ import annotations

import hashlib

from .board import locate, note_location, places, supply_location
from .cards import Cards

# ---------------------------------------------------------------- set-up

def empty_player(cards: Cards, name: str) -> dict:
    pl = {"name": name, "eliminated": False, "hand": [], "score": [], "achievements": [], "revealed": [],
          "board": {c: {"cards": [], "splay": "none"} for c in cards.colors}}
    if cards.zones:
        pl["zones"] = {z: [] for z in cards.zones}
    return pl


def new_state(cards: Cards, names: list[str], seed: int, secret: str | None = None, options: dict | None = None) -> dict:
    return {
        "format": "innoscript-game",
        "version": 1,
        "edition": cards.bundle["edition"],
        "bundle_hash": cards.bundle["source_hash"],
        "seed": seed,
        "options": dict(options or {}),   # the table options (runtime/rules/options.py); teams add "teams", "seating"
        # Keys the opaque handles of hidden cards in player views; a server passes a random one.
        "secret": secret or hashlib.sha256(f"innoscript/{seed}".encode()).hexdigest()[:32],
        "players": [empty_player(cards, n) for n in names],
        "supply": {str(a): [] for a in cards.ages},
        **({"sets": list(cards.set_names), "set_supply": {n: {} for n in cards.set_names}} if cards.set_names else {}),
        **({"zones": {z: [] for z in cards.shared_zones}} if cards.shared_zones else {}),
        "available": {"standard": [], "special": [s["name"] for s in cards.bundle["special_achievements"]]},
        "junk": [],
        "junk_special": [],
        "rev": 0,          # bumped by every change of cards: keys the icon-count cache
        "revs": [0] * len(names),   # per player whose board or set zones changed (bump)
        "removed": [],
        "turn": {"number": 0, "active": 0, "actions_left": 0, "scored": [0] * len(names), "tucked": [0] * len(names),
                 "drawn": [0] * len(names)},
        "phase": "setup",
        "setup_melds": [None] * len(names),
        "pending": None,
        "dogma": None,
        "result": None,
        "decisions": 0,
    }


# ---------------------------------------------------------------- moves

def bump(state: dict, p: int | None) -> None:
    """Note that cards changed, and p's board or set zones if p is given: derived caches key on these
    counters (``rev`` for any card, ``revs`` per player for the places an icon table, a board
    fingerprint or a set zone's contents are kept for; hands, scores and achievements are looked at)."""
    state["rev"] = state.get("rev", 0) + 1
    if p is not None and "revs" in state:
        state["revs"][p] += 1


_UNREVISED = ("hand", "score", "achievements", "supply", "available", "junk", "removed", None)


def unshow(state: dict, cid: int) -> None:
    """The card is no longer revealed (it moved, or the effect that revealed it ended)."""
    for pl in state["players"]:
        if cid in pl["revealed"]:
            pl["revealed"].remove(cid)


def note_boards(state: dict, cid: int, zone, p, arriving: bool = False) -> None:
    """The boards a card has been on during this action (turn ``boards``, reset when an action starts, or the
    turn-start hooks; absent outside a game's actions): card -> where it started (the board's owner, None off
    every board) and each board it has been on. A card the action has not moved has no entry: it is where it
    started."""
    if zone != "board":        # only a board matters: a card that never touches one has no record to keep
        return
    boards = state["turn"].get("boards")
    if boards is None:
        return
    rec = boards.get(str(cid))
    if rec is None:
        on = zone == "board" and not arriving
        rec = boards[str(cid)] = {"start": p if on else None, "seen": [p] if on else []}
    if zone == "board" and p not in rec["seen"]:
        rec["seen"].append(p)


def remove_from_anywhere(state: dict, cid: int):
    """Take a card out of its zone; return where it was. A pile left with 0-1 cards forgets its splay;
    a revealed card that moves is no longer revealed."""
    zone, p, key = locate(state, cid)
    bump(state, None if zone in _UNREVISED else p)
    unshow(state, cid)
    note_boards(state, cid, zone, p)
    if zone in ("hand", "score", "achievements"):
        state["players"][p][zone].remove(cid)
    elif zone == "board":
        pile = state["players"][p]["board"][key]
        pile["cards"].remove(cid)
        if len(pile["cards"]) < 2:
            pile["splay"] = "none"
    elif zone == "supply":
        (supply_pile(state, *key) if isinstance(key, tuple) else state["supply"][key]).remove(cid)
    elif zone == "available":
        state["available"]["standard"].remove(cid)
    elif zone in ("junk", "removed"):
        state[zone].remove(cid)
    elif zone is not None and p is None:   # a set's game-wide zone
        state["zones"][zone].remove(cid)
    elif zone is not None:   # a set's zone
        state["players"][p]["zones"][zone].remove(cid)
    return zone, p, key


def place(cards: Cards, state: dict, cid: int, zone: str, p: int | None, bottom: bool = False) -> None:
    """Put a card (already out of its old zone) into a zone, and note where in the card-location index."""
    bump(state, None if zone in _UNREVISED else p)
    if zone == "board":
        note_boards(state, cid, "board", p, arriving=True)
        pile = state["players"][p]["board"][cards.color[cid]]
        if bottom:
            pile["cards"].append(cid)
        else:
            pile["cards"].insert(0, cid)
        note_location(cid, ("board", p, cards.color[cid]))
    elif zone == "supply":   # back to the bottom of its own set's pile
        set_name, age = cards.set[cid], str(cards.age[cid])
        supply_pile(state, set_name, age).append(cid)
        note_location(cid, supply_location(set_name, age))
    elif zone in ("junk", "removed", "available"):
        (state["available"]["standard"] if zone == "available" else state[zone]).append(cid)
        note_location(cid, (zone, None, None))
    elif zone in cards.shared_zones:   # a set's game-wide zone: nobody's
        state["zones"][zone].append(cid)
        note_location(cid, (zone, None, None))
    else:
        (state["players"][p]["zones"][zone] if zone in cards.zones else state["players"][p][zone]).append(cid)
        note_location(cid, (zone, p, None))


def supply_pile(state: dict, set_name: str, age: str) -> list:
    """The supply pile of one set and age (the base cards' are ``supply``)."""
    if set_name == "base":
        return state["supply"].setdefault(age, [])
    return state["set_supply"].setdefault(set_name, {}).setdefault(age, [])


def card_places(state: dict) -> list[int]:
    """Every card id in every zone (a card in two places appears twice)."""
    return [c for c, _ in places(state)]


def zone_cards(state: dict, zone: str, p: int | None) -> list:
    """The list of a set's zone: player p's own, or the game's (a game-wide zone: scope game)."""
    shared = state.get("zones")
    if shared is not None and zone in shared:
        return shared[zone]
    return state["players"][p]["zones"][zone]


def draw_age(cards: Cards, state: dict, value: int):
    """The age a draw of this value comes from (skipping empty piles), or None past the last age."""
    age = max(value, cards.min_age)
    while age <= cards.max_age:
        if state["supply"].get(str(age)):
            return age
        age += 1
    return None
