"""Invariants of a game, checked after every action in checked mode (tests, soak, simulation).

- every card of the edition is in exactly one place, and the total never changes (the junk included);
- the card-location index answers for every card where the position holds it;
- icon counts the engine uses (cached) equal a fresh recount;
- a pile of 0 or 1 card is unsplayed; splays are the edition's;
- every supply pile holds only cards of its own set and age, and the sets in play are the bundle's;
- every player has exactly the per-player zones the sets in play declare, and the game exactly their
  game-wide zones (their cards are counted with every other place; a zone may be over its limit: a
  limit that shrinks keeps the cards); a card that starts in a game-wide zone is never in a supply pile;
- the pending decision belongs to a player still in the game, and its options are not empty;
- the game ends within a bound of turns;
- teams (``team_violations``): nobody is demanded by their partner, pooled
  achievement counts are each team's total, no team has enough to win while
  play goes on, winners are whole teams, and partners sit across.
"""
from __future__ import annotations

from collections import Counter

from ..machine import builtins as builtins_impl
from ..machine.expressions import derived_achievements, held_achievements
from ..state import teams
from ..state.board import board_cards, icon_count, locate, places, supply_piles
from ..state.positions import card_places

MAX_TURNS = 2000


def violations(engine) -> list[str]:
    cards, st = engine.cards, engine.state
    out: list[str] = []
    held = Counter(card_places(st))
    twice = [cards.name[c] for c, n in held.items() if n > 1]
    missing = [cards.name[c] for c in range(len(cards.cards)) if c not in held]
    if twice:
        out.append(f"cards in more than one place: {sorted(twice)[:5]}")
    if missing:
        out.append(f"cards in no place: {sorted(missing)[:5]}")
    else:
        where = dict(places(st))     # the index as derived from the position
        astray = [cards.name[c] for c, at in where.items() if locate(st, c) != at]
        if astray and not twice:
            out.append(f"the card-location index places cards where the position does not: {sorted(astray)[:5]}")
    for (name, age), pile in supply_piles(st):
        wrong = [cards.name[c] for c in pile if cards.set[c] != name or str(cards.age[c]) != age]
        if wrong:
            out.append(f"the {name} age {age} supply pile holds cards of another set or age: {wrong[:5]}")
    if sorted(st.get("sets", [])) != cards.set_names or sorted(st.get("set_supply", {})) != sorted(st.get("sets", [])):
        out.append(f"the sets in play {st.get('sets', [])} are not the bundle's {cards.set_names}, or their piles differ")
    shown = [c for pl in st["players"] for c in pl["revealed"]]
    if any(c not in held for c in shown) or len(set(shown)) != len(shown):
        out.append("a revealed card is in no zone, or revealed twice")
    specials = Counter(st["available"]["special"] + st.get("junk_special", []) +
                       [a for pl in st["players"] for a in pl["achievements"] if isinstance(a, str)])
    if specials != Counter(list(cards.specials)):
        out.append(f"special achievements are not each in one place: {dict(specials)}")
    if sorted(st.get("zones", {})) != sorted(cards.shared_zones) or ("zones" in st) != bool(cards.shared_zones):
        out.append(f"the game-wide zones {sorted(st.get('zones', {}))} are not the sets' {sorted(cards.shared_zones)}")
    homeless = [cards.name[c] for _, pile in supply_piles(st) for c in pile if c in cards.starts_in]
    if homeless:
        out.append(f"cards that start in a game-wide zone are in a supply pile: {homeless[:5]}")
    frame = {"you": 0}
    for p, pl in enumerate(st["players"]):
        if sorted(pl.get("zones", {})) != sorted(cards.zones):
            out.append(f"player {p} has the zones {sorted(pl.get('zones', {}))}, the sets declare {sorted(cards.zones)}")
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
    return out + team_violations(engine)


def team_violations(engine) -> list[str]:
    """The team rules' invariants (each player is a team of one in a classic game)."""
    cards, st = engine.cards, engine.state
    out: list[str] = []
    d = st.get("dogma")
    if d:
        demands = [(f["you"], f["me"]) for f in d["stack"] if f.get("kind") in ("demand", "compel")]
        for item in (w for f in d["stack"] for w in f.get("work", [])):
            cid, e, you, me = item[:4]
            if cid < 0:          # a set's hook (frames.HOOK), no card's effect: never a demand
                continue
            if cards.cards[cid]["effects"][e]["kind"] in ("demand", "compel"):
                demands.append((you, me))
        for you, me in demands:
            if teams.same_team(st, you, me):
                out.append(f"player {you} is demanded by {'their partner' if you != me else 'themself'} {me}")
    need = engine.achievements_needed()   # the players still in the game decide it (an eliminated one no longer counts)
    frame = {"you": 0}
    for t in teams.teams_of(st):
        total = sum(len(st["players"][p]["achievements"]) for p in t)
        if cards.cell_achievements:     # and what the team's cells count as (Cities' flags and fountains)
            total += sum(derived_achievements(cards, st, p) for p in t)
        counted = [builtins_impl.call(engine, frame, "achievements", [p]) for p in t]
        if any(c != total for c in counted):
            out.append(f"team {t}: achievements counted {counted}, the team holds {total}")
        between_actions = st["pending"] is not None and st["pending"]["kind"] == "action"
        if st["phase"] != "over" and between_actions and total >= need and not any(st["players"][p].get("eliminated") for p in t):
            out.append(f"team {t} holds {total} achievements (needs {need}) but the game goes on")
    result = st.get("result")
    if result and result.get("winners") is not None:
        if teams.winners(st, result["winners"]) != sorted(result["winners"]):
            out.append(f"winners {result['winners']} are not whole teams")
        if result["reason"] == "achievements" and held_achievements(cards, st, result["winners"][0]) < need:
            out.append(f"winners {result['winners']} won by achievements with fewer than {need}")
    if teams.has_teams(st):
        seats = teams.seating(st)
        for a, b in st["teams"]:
            if abs(seats.index(a) - seats.index(b)) != 2:
                out.append(f"partners {a} and {b} do not sit across from each other")
    return out
