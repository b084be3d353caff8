"""Invariants of a game, checked after every action in checked mode (tests, soak, simulation).

- every card of the edition is in exactly one place, and the total never changes (the junk included);
- icon counts the engine uses (cached) equal a fresh recount;
- a pile of 0 or 1 card is unsplayed; splays are the edition's;
- a player's points equal the total value of their score pile;
- the pending decision belongs to a player still in the game, and its options are not empty;
- the game ends within a bound of turns.
"""
from __future__ import annotations

from collections import Counter

from . import builtins_impl
from .state import board_cards, icon_count, points

MAX_TURNS = 2000


def violations(engine) -> list[str]:
    cards, st = engine.cards, engine.state
    out: list[str] = []
    places: Counter = Counter()
    for pl in st["players"]:
        places.update(pl["hand"] + pl["score"] + pl["revealed"] + [a for a in pl["achievements"] if isinstance(a, int)])
        for pile in pl["board"].values():
            places.update(pile["cards"])
    for pile in st["supply"].values():
        places.update(pile)
    places.update(st["available"]["standard"] + st["junk"] + st["removed"])
    twice = [cards.name[c] for c, n in places.items() if n > 1]
    missing = [cards.name[c] for c in range(len(cards.cards)) if c not in places]
    if twice:
        out.append(f"cards in more than one place: {sorted(twice)[:5]}")
    if missing:
        out.append(f"cards in no place: {sorted(missing)[:5]}")
    specials = Counter(st["available"]["special"] + st.get("junk_special", []) +
                       [a for pl in st["players"] for a in pl["achievements"] if isinstance(a, str)])
    if specials != Counter(list(cards.specials)):
        out.append(f"special achievements are not each in one place: {dict(specials)}")
    frame = {"you": 0}
    for p, pl in enumerate(st["players"]):
        for color, pile in pl["board"].items():
            if len(pile["cards"]) < 2 and pile["splay"] != "none":
                out.append(f"player {p} {color} pile of {len(pile['cards'])} card(s) is splayed {pile['splay']}")
            if pile["splay"] not in cards.splay_positions:
                out.append(f"player {p} {color} pile has an unknown splay {pile['splay']!r}")
        board = board_cards(st, p)
        for icon in cards.icons:
            cached = builtins_impl.call(engine, frame, "icons", [icon, board])
            fresh = icon_count(cards, st, p, icon)
            if cached != fresh:
                out.append(f"player {p} {icon}: the engine counts {cached}, a recount gives {fresh}")
        if points(cards, st, p) != sum(cards.age[c] for c in pl["score"]):
            out.append(f"player {p} points differ from the score pile")
    pending = st["pending"]
    if st["phase"] != "over":
        if pending is None:
            out.append("the game is not over but nothing is asked")
        elif st["players"][pending["player"]].get("eliminated"):
            out.append("an eliminated player is asked to decide")
        elif not pending["options"] and pending["kind"] not in ("select_cards",):
            out.append(f"a {pending['kind']} decision with no options")
    if st["turn"]["number"] > MAX_TURNS:
        out.append(f"the game has gone past {MAX_TURNS} turns")
    return out
