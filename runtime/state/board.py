"""Reading a position: where a card is, the piles' top cards, the icons a board shows.

Nothing here changes the state (runtime/state/positions.py moves cards).  The
icon counts are kept per pile content in the card table's memo
(``Cards.pile_icons``), since a board changes one pile at a time.  Where a
card is comes from the card-location index, a card -> place hint that the
move primitives keep as cards arrive and that is checked against the list it
names before it is trusted; a miss indexes the whole position (a loaded or
another game's), so the saved game holds nothing more.
"""
from __future__ import annotations

from typing import NamedTuple

from .cards import Cards


# card -> where it was last put or found: the card-location index. A hint, never trusted unread: it is
# checked against the one list it names before it is used, so a move made past the primitives, a restored
# state or another game's position (ids are per bundle, the index per process) costs a walk of the position,
# never a wrong answer. runtime/state/positions.py's place() keeps it as cards arrive; locate() fills it on a
# miss.
_where: dict[int, tuple] = {}


def locate(state: dict, cid: int):
    """(zone, player, colour) of a card; player/colour are None where not meaningful. A card in a
    set's zone is (the zone's name, player, None); in a set's game-wide zone (the zone's name, None, None)."""
    hint = _where.get(cid)
    if hint is not None and _holds(state, hint, cid):
        return hint
    found = None    # a miss: this is another position, or a new one; index it whole
    for c, at in places(state):
        _where[c] = at
        if c == cid and found is None:
            found = at
    if found is None:     # in no place
        _where.pop(cid, None)
        return (None, None, None)
    return found


def _holds(state: dict, where: tuple, cid: int) -> bool:
    try:
        return cid in place_list(state, where)
    except (KeyError, IndexError, TypeError):   # the hint is another position's
        return False


def places(state: dict):
    """Every card of a position with its place as ``locate`` names it, in ``locate``'s order: the players'
    hands, scores, achievements, boards and set zones, the supply piles (the base cards' first), the sets'
    game-wide zones, the available achievements, the junk, the removed cards. A card in two places comes
    twice; a special achievement, held by its name, is no card."""
    for p, pl in enumerate(state["players"]):
        for zone in ("hand", "score"):
            for c in pl[zone]:
                yield c, (zone, p, None)
        for c in pl["achievements"]:
            if isinstance(c, int):
                yield c, ("achievements", p, None)
        for color, pile in pl["board"].items():
            for c in pile["cards"]:
                yield c, ("board", p, color)
        for name, zone in pl.get("zones", {}).items():
            for c in zone:
                yield c, (name, p, None)
    for (name, age), pile in supply_piles(state):
        for c in pile:
            yield c, supply_location(name, age)
    for name, zone in state.get("zones", {}).items():   # a set's game-wide zone: nobody's
        for c in zone:
            yield c, (name, None, None)
    for zone, cs in (("available", state["available"]["standard"]), ("junk", state["junk"]),
                     ("removed", state["removed"])):
        for c in cs:
            yield c, (zone, None, None)


def supply_piles(state: dict):
    """Every supply pile, as ((set, age), pile): the base piles first."""
    for age, pile in state["supply"].items():
        yield ("base", age), pile
    for name, piles in state.get("set_supply", {}).items():
        for age, pile in piles.items():
            yield (name, age), pile


def supply_location(set_name: str, age: str) -> tuple:
    """A supply pile's place as ``locate`` names it: the age for the base cards' piles, (set, age) for a set's."""
    return ("supply", None, age if set_name == "base" else (set_name, age))


def note_location(cid: int, where: tuple) -> None:
    """A move put the card here (the index's update by the move primitives)."""
    _where[cid] = where


def place_list(state: dict, where: tuple) -> list:
    """The list of card ids a location (as ``locate`` gives it) names."""
    zone, p, key = where
    if zone == "board":
        return state["players"][p]["board"][key]["cards"]
    if zone == "supply":
        return state["set_supply"][key[0]][key[1]] if isinstance(key, tuple) else state["supply"][key]
    if zone == "available":
        return state["available"]["standard"]
    if p is None:
        return state[zone] if zone in ("junk", "removed") else state["zones"][zone]
    pl = state["players"][p]
    return pl[zone] if zone in ("hand", "score", "achievements") else pl["zones"][zone]


def top_cards(state: dict, p: int) -> list[int]:
    out = []
    for pile in state["players"][p]["board"].values():
        if pile["cards"]:
            out.append(pile["cards"][0])
    return out


def board_cards(state: dict, p: int) -> list[int]:
    out: list[int] = []
    for pile in state["players"][p]["board"].values():
        out += pile["cards"]
    return out


def pile_ends(state: dict, end: int) -> set[int]:
    """The cards at one end (0: the top, -1: the bottom) of every board pile and supply pile, the sets' too."""
    out = set()
    for pl in state["players"]:
        for pile in pl["board"].values():
            cs = pile["cards"]
            if cs:
                out.add(cs[end])
    for pile in state["supply"].values():
        if pile:
            out.add(pile[end])
    for piles in state.get("set_supply", {}).values():   # 'the top card from deck echoes [3]'
        for pile in piles.values():
            if pile:
                out.add(pile[end])
    return out


def icon_count(cards: Cards, state: dict, p: int, icon: str) -> int:
    n = 0
    for pile in state["players"][p]["board"].values():
        cs = pile["cards"]
        for i, cid in enumerate(cs):
            n += cards.counted_icons(cid, pile["splay"], i == 0).count(icon)
    return n


def _pile_key(cs: list, splay: str) -> tuple:
    """What a pile shows depends on: its top card alone when unsplayed (whatever lies below), else all its
    cards and the splay. The memos of piles (icon tables, summaries) are kept by it."""
    return (cs[0],) if cs and splay == "none" else (tuple(cs), splay)


def pile_icons(cards: Cards, pile: dict) -> dict:
    """Every icon a pile shows, counted once per pile content and splay: a move or splay changes
    one pile, so a player's icon table is the sum of a few memoised entries."""
    cs, splay = pile["cards"], pile["splay"]
    key = _pile_key(cs, splay)
    table = cards.pile_icons.get(key)
    if table is None:
        table = {}
        for i, cid in enumerate(cs if len(key) == 2 else cs[:1]):
            for icon in cards.card_icons(cid, splay, i == 0):
                table[icon] = table.get(icon, 0) + 1
        if len(cards.pile_icons) > 50_000:
            cards.pile_icons.clear()
        cards.pile_icons[key] = table
    return table


class PileSummary(NamedTuple):
    """What one pile shows, as the builtins count it: ``icons`` (pile_icons' table), ``hexes`` (the visible
    hex-like cells: the hex's count), ``cells`` (value cell -> the values shown, top card first) and
    ``effects`` (cell -> the cell effects shown)."""
    icons: dict
    hexes: int
    cells: dict
    effects: dict


_EMPTY = PileSummary({}, 0, {}, {})


def pile_summary(cards: Cards, pile: dict) -> PileSummary:
    """A pile's summary, kept per pile content and splay in the card table's memo, as pile_icons is: the
    special conditions and the sets' expressions read a pile's counts here instead of walking its cards."""
    cs, splay = pile["cards"], pile["splay"]
    if not cs:
        return _EMPTY
    key = _pile_key(cs, splay)
    memo = cards.pile_summaries
    out = memo.get(key)
    if out is not None:
        return out
    hexes, cells, effects = 0, {}, {}   # type: int, dict, dict
    like = cards.hex_like
    for i, cid in enumerate(cs if len(key) == 2 else cs[:1]):
        shown = cards.visible_positions(cid, splay, i == 0)
        printed, numbers = cards.printed[cid], cards.cell_values[cid]
        for k in shown:
            w = printed[k]
            if w in like:
                hexes += 1
            if numbers and numbers[k]:
                cells.setdefault(w, []).append(numbers[k])
        for _, w, pos in cards.effect_cells[cid]:
            if pos in shown:
                effects[w] = effects.get(w, 0) + 1
    if len(memo) > 50_000:
        memo.clear()
    out = memo[key] = PileSummary(pile_icons(cards, pile), hexes, cells, effects)
    return out


def board_summaries(cards: Cards, state: dict, p: int, cache: dict) -> dict:
    """p's piles' summaries by colour, kept in an engine's derived cache while p's revision stands still
    (as board_table): a condition that reads pile after pile finds them at once."""
    revs = state.get("revs")
    board = state["players"][p]["board"]
    if revs is None:
        return {color: pile_summary(cards, pile) for color, pile in board.items()}
    key = ("summaries", p, revs[p])
    out = cache.get(key)
    if out is None:
        if len(cache) > 4096:
            cache.clear()
        out = cache[key] = {color: pile_summary(cards, pile) for color, pile in board.items()}
    return out


def board_icon_count(cards: Cards, state: dict, p: int, icon: str) -> int:
    """icon_count from the piles' tables (icon_count itself recounts, for checking)."""
    return sum(pile_icons(cards, pile).get(icon, 0) for pile in state["players"][p]["board"].values())


def board_icons(cards: Cards, state: dict, p: int) -> dict:
    """A player's whole icon table {icon: count}, from the piles' tables."""
    out: dict = {}
    for pile in state["players"][p]["board"].values():
        if pile["cards"]:
            for icon, n in pile_icons(cards, pile).items():
                out[icon] = out.get(icon, 0) + n
    return out


def board_table(cards: Cards, state: dict, p: int, cache: dict) -> tuple[list[int], dict]:
    """(p's board cards, p's icon table), kept in an engine's derived cache while p's revision stands
    still (the cache is dropped with a rollback, whose path may reuse revision numbers)."""
    revs = state.get("revs")
    if revs is None:
        return board_cards(state, p), board_icons(cards, state, p)
    key = ("board", p, revs[p])
    entry = cache.get(key)
    if entry is None:
        if len(cache) > 4096:
            cache.clear()
        entry = cache[key] = (board_cards(state, p), board_icons(cards, state, p))
    return entry


def pile_icon_count(cards: Cards, pile: dict, icon: str) -> int:
    return sum(cards.counted_icons(cid, pile["splay"], i == 0).count(icon) for i, cid in enumerate(pile["cards"]))


def cell_effects(cards: Cards, cid: int, shown=None) -> list[tuple[int, int]]:
    """The card's cell effects as (card, effect index), in printed order; ``shown``: only those whose
    cell is among these icon positions."""
    return [(cid, k) for k, _, pos in cards.effect_cells[cid] if shown is None or pos in shown]


def pile_cell_effects(cards: Cards, state: dict, cid: int) -> list[tuple[int, int]]:
    """The cell effects (a set's, such as echo effects) a Dogma of cid runs, as (card, effect index): on a
    top card, those of every card of its pile whose cell shows (the visibility of a covered card's icons),
    deepest first and cid's last; otherwise cid's own only."""
    if not cards.any_cell_effect:   # no card in play has one (the base game): nothing to look for
        return []
    zone, owner, color = locate(state, cid)
    if zone == "board":
        pile = state["players"][owner]["board"][color]
        if pile["cards"][0] == cid:
            return _shown_cell_effects(cards, pile)
    return cell_effects(cards, cid)


def _shown_cell_effects(cards: Cards, pile: dict, only=None) -> list[tuple[int, int]]:
    """The cell effects a pile shows, deepest card first (``only``: of these of its cards alone)."""
    out: list = []
    for i in range(len(pile["cards"]) - 1, -1, -1):
        c = pile["cards"][i]
        if cards.effect_cells[c] and (only is None or c in only):
            out += cell_effects(cards, c, cards.visible_positions(c, pile["splay"], i == 0))
    return out


def cards_cell_effects(cards: Cards, state: dict, cids: list[int]) -> list[tuple[int, int]]:
    """The visible cell effects of these cards as they lie, as (card, effect index): a card on a board shows
    those its pile's splay shows (a top card all of its own), each pile's cards deepest first, the piles (and
    the cards elsewhere, which bring all of their own) in the order the list first names them."""
    if not cards.any_cell_effect:
        return []
    groups: dict = {}
    for cid in cids:
        zone, owner, color = locate(state, cid)
        key = ("board", owner, color) if zone == "board" else ("card", cid)
        groups.setdefault(key, []).append(cid)
    out: list = []
    for key, members in groups.items():
        if key[0] == "card":
            out += cell_effects(cards, key[1])
            continue
        out += _shown_cell_effects(cards, state["players"][key[1]]["board"][key[2]], members)
    return out


def values(cards: Cards, state: dict, cache: dict | None = None) -> list[int]:
    """Each card's value where it lies now, by card id: its age, but a card with a value on a board
    (``Cards.board_value``) has that value while it is on a board. The card table's ages themselves when no
    card of the game has one; ``cache`` (an engine's derived cache) keeps the list for the state's revision."""
    if not cards.board_value:
        return cards.age
    key = ("values", state.get("rev", 0))
    if cache is not None and key in cache:
        return cache[key]
    out = list(cards.age)
    for cid, value in cards.board_value.items():
        if locate(state, cid)[0] == "board":
            out[cid] = value
    if cache is not None:
        if len(cache) > 4096:
            cache.clear()
        cache[key] = out
    return out


def highest_top_value(cards: Cards, state: dict, p: int) -> int:
    age, best = cards.age if not cards.board_value else values(cards, state), 0
    for pile in state["players"][p]["board"].values():
        cs = pile["cards"]
        if cs and age[cs[0]] > best:
            best = age[cs[0]]
    return best


def achieve_cost(cards: Cards, state: dict, p: int, value: int) -> int:
    """The score an Achieve of this value needs from p: 5 x value; with a set in play whose rule
    ``achieve_cost`` is "times_held_plus_one" (``Cards.achieve_cost``), 5 x value x (the achievements of
    that value p already holds + 1). Never below 5 x value."""
    cost = 5 * value
    if cards.achieve_cost == "times_held_plus_one":
        age = cards.age
        home = cards.home    # a card with a home (a relic) is held, but is no achievement of that value (ruling 42)
        cost *= 1 + sum(1 for a in state["players"][p]["achievements"]
                        if isinstance(a, int) and age[a] == value and a not in home)
    return cost


def may_achieve(cards: Cards, state: dict, p: int, value: int, score: int, top: int) -> bool:
    """The achieve test, for p with this score and highest top card: a top card of at least that value and
    the score its cost needs (the Achieve action and the eligible() builtin both ask this)."""
    return top >= value and score >= achieve_cost(cards, state, p, value)
