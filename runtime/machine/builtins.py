"""Implementations of the builtin functions listed in innoscript/core/builtins.py.

Each takes the engine, the calling frame and the evaluated arguments.  A
test checks that every builtin of the table has an implementation here.
"""
from __future__ import annotations

import unicodedata

from ..state.board import (board_summaries, board_table, highest_top_value, locate, may_achieve, pile_ends,
                           pile_icons, values)
from ..state.positions import draw_age
from ..state.teams import players_from


def _list(v):
    if v is None:
        return []
    return v if isinstance(v, list) else [v]


def _count(e, f, x):
    if isinstance(x, int) and not isinstance(x, bool):
        return x
    return len(_list(x))


def _count_player(e, f, p):
    return 0 if p is None else 1


def _card_values(e) -> list:
    """Each card's value where it lies (a card's value on a board differs from its age only there)."""
    cards = e.cards
    return cards.age if not cards.board_value else values(cards, e.state, e.icon_cache)


def _value(e, f, cs):
    age = _card_values(e)
    return sum(age[c] for c in _list(cs))


def _highest(e, f, cs):
    age = _card_values(e)
    return max(map(age.__getitem__, _list(cs)), default=0)


def _lowest(e, f, cs):
    age = _card_values(e)
    return min(map(age.__getitem__, _list(cs)), default=0)


def _highest_value(e, f, vs):
    return max(_list(vs), default=0)


def _lowest_value(e, f, vs):
    return min(_list(vs), default=0)


def _color(e, f, cs):
    cs = _list(cs)
    return e.cards.color[cs[0]] if cs else None


def _colors(e, f, cs):
    present = {e.cards.color[c] for c in _list(cs)}
    return [c for c in e.cards.colors if c in present]


def _values_of(e, f, cs):
    age = _card_values(e)
    return sorted({age[c] for c in _list(cs)})


def _values(e, f, *vs):
    return [v for v in vs if v is not None]


def _icons(e, f, icon, cs):
    cs = _list(cs)
    if not cs:
        return 0
    key = None
    if "you" in f:   # one pile of your board or all of it: its icon table
        c0 = cs[0]
        pile = e.state["players"][f["you"]]["board"].get(e.cards.color[c0]) if isinstance(c0, int) else None
        if pile is not None and pile["cards"] and pile["cards"][0] == c0:
            if icon != e.cards.hex:
                if cs == pile["cards"]:
                    return pile_icons(e.cards, pile).get(icon, 0)
                board, table = board_table(e.cards, e.state, f["you"], e.icon_cache)
                if cs == board:
                    return table.get(icon, 0)
            elif cs == pile["cards"] and "revs" in e.state:
                # the hex and its likes of one of your piles: kept while your revision stands still
                key = ("hex", f["you"], e.cards.color[c0], e.state["revs"][f["you"]])
    if key is None:
        key = (e.state.get("rev", 0), tuple(cs))
    counts = e.icon_cache.get(key)
    if counts is None:
        counts = _count_icons(e, cs)
        if len(e.icon_cache) > 4096:
            e.icon_cache.clear()
        e.icon_cache[key] = counts
    return 0 if icon in e.cards.not_icons else counts.get(icon, 0)   # a set's cell that is no icon


def board_icons_of(e, f, icon, who):
    """icons(icon, who's board) when who is the frame's 'you' and the icon an ordinary one: the icon table
    kept per revision, as _icons finds it for a whole board (the compiled tier calls this for that pattern);
    None when _icons must be asked."""
    if who.__class__ is not int or icon.__class__ is not str or who != f.get("you") or icon == e.cards.hex \
            or "revs" not in e.state:
        return None
    board, table = board_table(e.cards, e.state, who, e.icon_cache)
    return table.get(icon, 0) if board else 0


def _summary_of(e, what, p, color):
    """The summary of p's pile of this colour for a read of ``what`` (state/board.py), or None when the
    builtins must be asked (not a player, not a name, no such pile)."""
    if p.__class__ is not int or what.__class__ is not str:
        return None
    return board_summaries(e.cards, e.state, p, e.icon_cache).get(color)


def pile_icons_of(e, what, p, color):
    """icons(what, pile(p, color)) from the pile's summary (the compiled tier calls this for that pattern);
    None when the builtins must be asked."""
    summary = _summary_of(e, what, p, color)
    if summary is None:
        return None
    cards = e.cards
    if what == cards.hex:
        return summary.hexes
    return 0 if what in cards.not_icons else summary.icons.get(what, 0)


def pile_cell_effects_of(e, what, p, color):
    """cell_effects(what, pile(p, color)) from the pile's summary; None when the builtins must be asked."""
    summary = _summary_of(e, what, p, color)
    return None if summary is None else summary.effects.get(what, 0)


def pile_cell_values_of(e, what, p, color):
    """cell_values(what, pile(p, color)) from the pile's summary (a fresh list, as the builtin's); None
    when the builtins must be asked."""
    summary = _summary_of(e, what, p, color)
    return None if summary is None else list(summary.cells.get(what, ()))


def board_read_of(e, fname: str, what, who):
    """fname(what, who's board) for cell_effects and cell_values, from the piles' summaries in the board's
    order; None when the builtin must be asked."""
    if who.__class__ is not int or what.__class__ is not str:
        return None
    summaries = board_summaries(e.cards, e.state, who, e.icon_cache).values()
    if fname == "cell_effects":
        return sum(s.effects.get(what, 0) for s in summaries)
    out: list = []
    for s in summaries:
        if s.cells:
            out += s.cells.get(what, ())
    return out


def board_colors_of(e, who):
    """colors(who's board) when who is one player: the colours of who's piles with cards (a card lies
    in the pile of its colour), in the manifest's order; None when _colors must be asked."""
    if who.__class__ is not int:
        return None
    board = e.state["players"][who]["board"]
    out = []
    for c in e.cards.colors:
        if board[c]["cards"]:
            out.append(c)
    return out


def _count_icons(e, cs) -> dict:
    """Every icon the cards show, in one pass: visible icons for board cards, printed ones elsewhere; the
    hex's count (under its own name) takes in every visible hex-like icon too."""
    cards = e.cards
    hexes = cards.hex_like
    places = _board_places(e)
    counts: dict = {}
    for c in cs:
        printed = cards.printed[c]
        for k in _shown_positions(e, c, places):
            i = printed[k]
            if i in hexes:
                counts[cards.hex] = counts.get(cards.hex, 0) + 1
            if i != cards.hex:
                counts[i] = counts.get(i, 0) + 1
    return counts


def _top(e, f, cs, color):
    tops = pile_ends(e.state, 0)
    return [c for c in _list(cs) if e.cards.color[c] == color and c in tops][:1]


def _pile(e, f, p, color):
    if p is None or color is None:
        return []
    return list(e.state["players"][p]["board"][color]["cards"])


def _first(e, f, cs, n):
    return _list(cs)[:max(n, 0)]


def _below(e, f, cs, n):
    return _list(cs)[max(n, 0):]


def _last(e, f, cs, n):
    cs = _list(cs)
    return cs[max(len(cs) - n, 0):] if n > 0 else []


def _splayed(e, f, direction):
    board = e.state["players"][f["you"]]["board"]
    out = []
    for c in e.cards.colors:
        splay = board[c]["splay"]
        if splay != "none" if direction == "any" else splay == direction:
            out.append(c)
    return out


def _splayable(e, f, p, direction):
    if p is None:
        return []
    board = e.state["players"][p]["board"]
    return [c for c in e.cards.colors if len(board[c]["cards"]) >= 2 and board[c]["splay"] != direction]


def _splay_of(e, f, p, color):
    return e.state["players"][p]["board"][color]["splay"]


def _points(e, f, p):
    return e.points(p) if p is not None else 0      # the host's: a set in play may add to the score


def _achievements(e, f, p):
    return e.held(p) if p is not None else 0   # the host's: a team's pooled, the cells' derived ones with them


def _eligible(e, f, cs):
    cs = _list(cs)
    if not cs:
        return False
    you = f["you"]
    score, top = e.points(you), highest_top_value(e.cards, e.state, you)
    return all(may_achieve(e.cards, e.state, you, e.cards.age[c], score, top) for c in cs)


def _demand_effects(e, f, cs):
    return sum(map(e.cards.has_demand.__getitem__, _list(cs)))


def _owner(e, f, cs):
    cs = _list(cs)
    return locate(e.state, cs[0])[1] if cs else None


def _scored(e, f, p):
    return e.state["turn"]["scored"][p]


def _drawn(e, f, p):
    drawn = e.state["turn"].get("drawn")
    return drawn[p] if drawn and p is not None else 0


def _turn_number(e, f):
    return e.state["turn"]["number"]


def _left_of(e, f, p):
    return None if p is None else players_from(e.state, p, False)[0]


def _right_of(e, f, p):
    return None if p is None else players_from(e.state, p, False)[-1]


def _tucked(e, f, p):
    return e.state["turn"]["tucked"][p]


def _has(e, f, cs, icon):
    return icon is not None and any(icon in e.cards.printed[c] for c in _list(cs))


def _featured_icon(e, f, cs):
    cs = _list(cs)
    return e.cards.cards[cs[0]]["dogma"] if cs else None


def _all_colors(e, f):
    return list(e.cards.colors)


def _all_icons(e, f):
    return list(e.cards.icons)


def _ages(e, f):
    return list(e.cards.ages)


def _this_card(e, f):
    return [f["card"]] if f.get("card", -1) >= 0 else []


def _under(e, f, c) -> list:
    """The cards under c in its pile, top first; for a card this effect moved off a pile, the cards that were
    under it then and are still on that pile."""
    for rec in f.get("left_piles") or ():
        if rec[0] == c:
            pile = e.state["players"][rec[1]]["board"][rec[2]]["cards"]
            return [x for x in rec[3:] if x in pile]
    zone, p, color = locate(e.state, c)
    if zone != "board":
        return []
    pile = e.state["players"][p]["board"][color]["cards"]
    return pile[pile.index(c) + 1:]


def _beneath(e, f, cs):
    out = []
    for c in _list(cs):
        out += _under(e, f, c)[:1]
    return [c for c in dict.fromkeys(out) if c not in _list(cs)]


def _all_beneath(e, f, cs):
    out = []
    for c in _list(cs):
        out += _under(e, f, c)
    return [c for c in dict.fromkeys(out) if c not in _list(cs)]


def _above(e, f, cs):
    out = []
    for c in _list(cs):
        zone, p, color = locate(e.state, c)
        if zone == "board":
            pile = e.state["players"][p]["board"][color]["cards"]
            i = pile.index(c)
            out += pile[i - 1:i] if i > 0 else []
    return list(dict.fromkeys(out))


def _your_turn(e, f):
    return f["you"] == e.state["turn"]["active"]


def _was_marked(e, f, mark):
    return mark in f.get("marks", ())


def _set(e, f, cs):
    cs = _list(cs)
    return e.cards.set[cs[0]] if cs else None


def _cell_value(e, f, cell, cs):
    return max((n or 0 for c in _list(cs) for w, n in zip(e.cards.printed[c], e.cards.cell_values[c] or ()) if w == cell),
               default=0)


def _board_places(e) -> dict:
    """card -> (splay, is top) for every board card (kept in the engine's derived cache for the
    state's revision)."""
    key = ("places", e.state.get("rev", 0))
    out = e.icon_cache.get(key)
    if out is not None:
        return out
    if len(e.icon_cache) > 4096:
        e.icon_cache.clear()
    out = e.icon_cache[key] = {}
    for pl in e.state["players"]:
        for pile in pl["board"].values():
            for i, c in enumerate(pile["cards"]):
                out[c] = (pile["splay"], i == 0)
    return out


def _shown_positions(e, c, places) -> list[int]:
    where = places.get(c)
    return list(range(len(e.cards.printed[c]))) if where is None else e.cards.visible_positions(c, *where)


def _cell_values(e, f, cell, cs):
    places = _board_places(e)
    out = []
    for c in _list(cs):
        numbers = e.cards.cell_values[c]
        if numbers:
            printed = e.cards.printed[c]
            out += [numbers[k] for k in _shown_positions(e, c, places) if numbers[k] and printed[k] == cell]
    return out


def _cell_effects(e, f, cell, cs):
    places = _board_places(e)
    return sum(1 for c in _list(cs) for _, w, pos in e.cards.effect_cells[c]
               if w == cell and pos in _shown_positions(e, c, places))


def _cell_score(e, f, cell, p):
    if p is None:
        return 0
    return e.cell_score(cell, p)      # the host's: it runs the set's expression


def _hex_position(e, f, cs):
    cs = _list(cs)
    if not cs:
        return 0
    printed = e.cards.printed[cs[0]]
    return printed.index(e.cards.hex) + 1 if e.cards.hex in printed else 0


def _draw_age(e, f, n):
    return draw_age(e.cards, e.state, n or 0) or 0


def _boards_during_action(e, f, cs):
    cs = _list(cs)
    if not cs:
        return []
    rec = (e.state["turn"].get("boards") or {}).get(str(cs[0]))
    zone, owner, _ = locate(e.state, cs[0])
    seen = list(rec["seen"]) if rec else []
    if zone == "board" and owner not in seen:
        seen.append(owner)
    return sorted(seen)


def _board_at_start(e, f, cs):
    cs = _list(cs)
    if not cs:
        return None
    rec = (e.state["turn"].get("boards") or {}).get(str(cs[0]))
    if rec is not None:
        return rec["start"]
    zone, owner, _ = locate(e.state, cs[0])      # not moved this action: where it started
    return owner if zone == "board" else None


def _max(e, f, *ns):
    return max((n or 0 for n in ns), default=0)


def _min(e, f, *ns):
    return min((n or 0 for n in ns), default=0)


def _splay_rank(e, f, direction):
    return e.cards.splay_rank.get(direction, 0)      # the edition's splay_order (none 0)


def _highest_splay(e, f, p):
    if p is None:
        return "none"
    rank = e.cards.splay_rank
    return max((pile["splay"] for pile in e.state["players"][p]["board"].values()), key=rank.__getitem__,
               default="none")


def _alphabet_key(name: str) -> str:
    """A card name as the alphabet orders it: its letters and digits only, accents and case ignored."""
    plain = unicodedata.normalize("NFKD", name)
    return "".join(ch for ch in plain.casefold() if ch.isalnum())


def _alphabetically_before(e, f, cs, others):
    cs, others = _list(cs), _list(others)
    if not cs or not others:
        return False
    last = _alphabet_key(e.cards.name[others[0]])
    return all(_alphabet_key(e.cards.name[c]) < last for c in cs)


def _sets(e, f):
    return ["base"] + [s for s in e.cards.set_names if s != "base" and e.cards.bundle["sets"][s]["manifest"]["ages"]]


def _home(e, f, cs):
    cs = _list(cs)
    return e.cards.home.get(cs[0], "") if cs else ""


def _in_play(e, f, cs):
    types = set(e.cards.manifest.get("sets", ["base"])) | set(e.cards.set_names)
    cs = _list(cs)
    return bool(cs) and all(e.cards.set[c] in types for c in cs)


def _same_icons(e, f, a, b):
    icons = set(e.cards.icons)

    def kinds(c):
        return sorted(w for w in e.cards.printed[c] if w in icons)
    a = _list(a)
    return bool(a) and all(any(kinds(x) == kinds(y) for y in _list(b)) for x in a)


def _position(e, cs, where: str):
    cs = _list(cs)
    if not cs or where not in e.cards.positions:
        return None
    k = e.cards.positions.index(where)
    printed = e.cards.printed[cs[0]]
    return printed[k] if k < len(printed) else None


def _cell_at(e, f, cs, where):
    return _position(e, cs, where) or ""


def _icon_at(e, f, cs, where):
    w = _position(e, cs, where)
    return w if w in e.cards.icons and w not in e.cards.not_icons else None


def _cell_count(e, f, cell, cs):
    places = _board_places(e)
    return sum(1 for c in _list(cs) for k in _shown_positions(e, c, places) if e.cards.printed[c][k] == cell)


def _cell_printed(e, f, cell, cs):
    return sum(e.cards.printed[c].count(cell) for c in _list(cs))


def _visible_cards(e, f, p, color):
    if p is None or color is None:
        return 0
    pile = e.state["players"][p]["board"][color]
    n = len(pile["cards"])
    return n if pile["splay"] != "none" else min(n, 1)


def _changes(e, f):
    d = e.state.get("dogma")
    return d["changes"] if d else 0


IMPLEMENTATIONS = {
    "count": _count, "count_player": _count_player, "value": _value, "highest": _highest, "lowest": _lowest, "color": _color,
    "colors": _colors, "values_of": _values_of, "values": _values, "icons": _icons, "top": _top,
    "pile": _pile, "first": _first, "below": _below, "last": _last, "splayed": _splayed, "splay_of": _splay_of, "splayable": _splayable,
    "points": _points, "achievements": _achievements, "demand_effects": _demand_effects, "owner": _owner,
    "scored_this_turn": _scored, "tucked_this_turn": _tucked, "drawn_this_turn": _drawn,
    "turn_number": _turn_number, "left_of": _left_of, "right_of": _right_of, "all_colors": _all_colors,
    "all_icons": _all_icons, "has": _has, "ages": _ages, "this_card": _this_card,
    "beneath": _beneath, "all_beneath": _all_beneath, "above": _above,
    "was_marked": _was_marked, "your_turn": _your_turn, "set": _set, "cell_value": _cell_value,
    "cell_values": _cell_values, "cell_effects": _cell_effects, "cell_score": _cell_score, "max": _max, "min": _min,
    "hex_position": _hex_position, "draw_age": _draw_age, "boards_during_action": _boards_during_action,
    "board_at_start": _board_at_start,
    "splay_rank": _splay_rank,
    "highest_splay": _highest_splay,
    "eligible": _eligible, "alphabetically_before": _alphabetically_before, "changes": _changes, "sets": _sets, "home": _home, "cell_at": _cell_at, "icon_at": _icon_at, "cell_count": _cell_count, "cell_printed": _cell_printed, "visible_cards": _visible_cards, "in_play": _in_play,
    "same_icons": _same_icons, "featured_icon": _featured_icon, "highest_value": _highest_value, "lowest_value": _lowest_value,
}


def call(engine, frame, name: str, args: list):
    return IMPLEMENTATIONS[name](engine, frame, *args)
