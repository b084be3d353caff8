"""Game state: plain JSON data, and the primitive moves of the rules.

The whole game is one dict of lists, ints and strings, so it serialises
with ``json.dumps`` at any moment and nothing is hidden in Python objects:

    players[p]   hand, score, achievements (card ids; achievements may also
                 hold special-achievement names), zones: the sets' per-player
                 zones, name -> [card ids, oldest first] (only when a set in
                 play declares one; runtime/zones.py), board: colour ->
                 {"cards": [top ... bottom], "splay": "none"|"left"|...},
                 revealed: the cards p has revealed, shown to everyone; a
                 revealed card stays in its zone (a card that moves stops
                 being revealed), so this list is not a place of its own
    supply       age (as a string) -> [top ... bottom]: the base cards' piles
    set_supply   set -> age -> [top ... bottom]: each set in play's own piles
                 (with ``sets``, the sets' names; both only when sets are in play)
    available    {"standard": [card ids], "special": [names]}
    junk, removed
    turn         number, active player, actions left, per-player scored/tucked counts
    phase, pending (the decision asked), dogma (the running dogma action),
    result (when the game is over)

``Cards`` wraps the bundle's card table with the lookups the rules need.
Primitive moves here never ask anything: decisions are made by the VM and
the engine before a move happens.
"""
from __future__ import annotations


class GameOver(Exception):
    """Raised inside an effect when the game ends (a draw past the last age, a win)."""


_SHARED: dict = {}    # id(bundle) -> (bundle, its signature, its Cards): Cards.of


def _signature(bundle: dict) -> tuple:
    """What a bundle's Cards are made of, by identity: a bundle changed since (its cards' effects
    replaced, say) shows a different signature."""
    cards = bundle["cards"]
    return (id(cards), id(bundle["manifest"]), id(bundle["special_achievements"]), id(bundle.get("sets")),
            tuple(map(id, cards)), tuple([id(c["effects"]) for c in cards]))


class Cards:
    """The edition's card table and manifest, read from a bundle."""

    @classmethod
    def of(cls, bundle: dict) -> "Cards":
        """The bundle's Cards, made once and shared by all its games: a Cards holds nothing but what the
        bundle determines and memos of it (icon tables by pile content), so its games also share warm
        memos. A bundle whose parts were replaced since gets new ones."""
        entry = _SHARED.get(id(bundle))
        sig = _signature(bundle)
        if entry is not None and entry[0] is bundle and entry[1] == sig:
            return entry[2]
        cards = cls(bundle)
        if len(_SHARED) >= 8:                 # a few bundles at a time (editions, sets); the oldest goes
            del _SHARED[next(iter(_SHARED))]
        _SHARED[id(bundle)] = (bundle, sig, cards)
        return cards

    def __init__(self, bundle: dict):
        self.bundle = bundle
        self.manifest = m = bundle["manifest"]
        self.rules: dict = m["rules"]
        self.cards = bundle["cards"]
        self.by_name = {c["name"]: c["id"] for c in self.cards}
        self.colors: list[str] = m["colors"]
        self.icons: list[str] = m["icons"]
        self.hex = m["hex"]
        self.ages: list[int] = m["ages"]
        self.max_age, self.min_age = max(self.ages), min(self.ages)
        positions = m["icon_positions"]
        self.splay_positions = {d: [positions.index(p) for p in ps] for d, ps in m["splays"].items()}
        self.splay_positions["none"] = []
        self.age = [c["age"] for c in self.cards]
        self.color = [c["color"] for c in self.cards]
        self.printed = [c["icons"] for c in self.cards]
        self.name = [c["name"] for c in self.cards]
        self.has_demand = [any(e["kind"] == "demand" for e in c["effects"]) for c in self.cards]
        # whether a Dogma on the card is offered: never (not implemented), always (it has dogma effects),
        # or None: as its pile's echo effects say (runtime/dogma.py, may_dogma)
        self.may_dogma = [False if not c["effects"] and not c.get("no_effect") else
                          True if any(e["kind"] != "echo" for e in c["effects"]) else None for c in self.cards]
        self.unimplemented = frozenset(c["id"] for c in self.cards if not c["effects"])   # files with no effects yet
        # set cards: the set, bonus values by icon position, the icon position of the echo box
        self.set = [c.get("set", "base") for c in self.cards]
        self.bonus = [c.get("bonuses") for c in self.cards]
        self.echo_position = [c["icons"].index("echo") if "echo" in c["icons"] else None for c in self.cards]
        self.any_echo = any(c["effects"] and c["effects"][0]["kind"] == "echo" for c in self.cards)
        self.specials = {s["name"]: s for s in bundle["special_achievements"]}
        self.set_names: list[str] = sorted(bundle.get("sets", {}))   # the sets in play (runtime/sets.py)
        # Cells that are no icon in counts: an echo box always; a bonus unless a set in play counts bonuses
        # as an icon type of their own (manifest bonus.counts_as_icon), which then is one of the icons.
        bonus_icon = any(bundle["sets"][n]["manifest"].get("bonus", {}).get("counts_as_icon") for n in self.set_names)
        self.not_icons = {"echo"} | (set() if bonus_icon else {"bonus"})
        if bonus_icon and "bonus" not in self.icons:
            self.icons = self.icons + ["bonus"]
        # every set's hooks, sets in name order (runtime/hooks.py)
        self.hooks = [dict(h, set=n) for n in self.set_names for h in bundle["sets"][n].get("hooks", [])]
        self.hooks_at: dict[str, list[int]] = {}   # hook point -> its hooks' indexes, in order
        for k, h in enumerate(self.hooks):
            self.hooks_at.setdefault(h["point"], []).append(k)
        # (set, age) -> its cards in id order, as the supply piles are dealt
        self.deck: dict[tuple[str, int], list[int]] = {}
        for c in self.cards:
            self.deck.setdefault((self.set[c["id"]], c["age"]), []).append(c["id"])
        # the sets' per-player zones (runtime/zones.py) and the move verb that fills each
        self.zones = {z: dict(spec, set=n) for n in self.set_names
                      for z, spec in sorted(bundle["sets"][n].get("zones", {}).items())}
        self.zone_verbs = {spec["verb"]: z for z, spec in self.zones.items() if spec.get("verb")}
        self.pile_icons: dict = {}   # (pile's cards, splay) -> {icon: count}: the per-player icon table's parts
        self._card_icons: dict = {}  # (card, splay, on top) -> the icons it shows that counts count

    def visible_positions(self, cid: int, splay: str, is_top: bool) -> list[int]:
        return list(range(len(self.printed[cid]))) if is_top else self.splay_positions[splay]

    def visible_icons(self, cid: int, splay: str, is_top: bool) -> list[str]:
        icons = self.printed[cid]
        if is_top:
            return [i for i in icons if i != self.hex]
        return [icons[k] for k in self.splay_positions[splay] if icons[k] != self.hex]

    def counted_icons(self, cid: int, splay: str, is_top: bool) -> list[str]:
        """The visible icons that icon counts count (no echo box; a bonus only where it is an icon)."""
        return [i for i in self.visible_icons(cid, splay, is_top) if i not in self.not_icons]

    def card_icons(self, cid: int, splay: str, is_top: bool) -> tuple:
        """counted_icons, kept per card, splay and place (a card's printed icons never change)."""
        key = (cid, splay, is_top)
        icons = self._card_icons.get(key)
        if icons is None:
            icons = self._card_icons[key] = tuple(self.counted_icons(cid, splay, is_top))
        return icons


# ---------------------------------------------------------------- set-up

def empty_player(cards: Cards, name: str) -> dict:
    pl = {"name": name, "eliminated": False, "hand": [], "score": [], "achievements": [], "revealed": [],
          "board": {c: {"cards": [], "splay": "none"} for c in cards.colors}}
    if cards.zones:
        pl["zones"] = {z: [] for z in cards.zones}
    return pl


def new_state(cards: Cards, names: list[str], seed: int, secret: str | None = None, options: dict | None = None) -> dict:
    import hashlib
    return {
        "format": "innoscript-game",
        "version": 1,
        "edition": cards.bundle["edition"],
        "bundle_hash": cards.bundle["source_hash"],
        "seed": seed,
        "options": dict(options or {}),   # the table options (runtime/options.py); teams add "teams", "seating"
        # Keys the opaque handles of hidden cards in player views; a server passes a random one.
        "secret": secret or hashlib.sha256(f"innoscript/{seed}".encode()).hexdigest()[:32],
        "players": [empty_player(cards, n) for n in names],
        "supply": {str(a): [] for a in cards.ages},
        **({"sets": list(cards.set_names), "set_supply": {n: {} for n in cards.set_names}} if cards.set_names else {}),
        "available": {"standard": [], "special": [s["name"] for s in cards.bundle["special_achievements"]]},
        "junk": [],
        "junk_special": [],
        "rev": 0,          # bumped by every change of cards: keys the icon-count cache
        "revs": [0] * len(names),   # per player whose board or set zones changed (bump)
        "removed": [],
        "turn": {"number": 0, "active": 0, "actions_left": 0, "scored": [0] * len(names), "tucked": [0] * len(names)},
        "phase": "setup",
        "setup_melds": [None] * len(names),
        "pending": None,
        "dogma": None,
        "result": None,
        "decisions": 0,
    }


# ---------------------------------------------------------------- lookups

def locate(state: dict, cid: int):
    """(zone, player, colour) of a card; player/colour are None where not meaningful. A card in a
    set's zone is (the zone's name, player, None)."""
    for p, pl in enumerate(state["players"]):
        if cid in pl["hand"]:
            return ("hand", p, None)
        if cid in pl["score"]:
            return ("score", p, None)
        if cid in pl["achievements"]:
            return ("achievements", p, None)
        for color, pile in pl["board"].items():
            if cid in pile["cards"]:
                return ("board", p, color)
        for name, zone in pl.get("zones", {}).items():
            if cid in zone:
                return (name, p, None)
    for age, pile in state["supply"].items():
        if cid in pile:
            return ("supply", None, age)
    for name, piles in state.get("set_supply", {}).items():
        for age, pile in piles.items():
            if cid in pile:
                return ("supply", None, (name, age))
    if cid in state["available"]["standard"]:
        return ("available", None, None)
    if cid in state["junk"]:
        return ("junk", None, None)
    if cid in state["removed"]:
        return ("removed", None, None)
    return (None, None, None)


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
    """The cards at one end (0: the top, -1: the bottom) of every board pile and base supply pile."""
    out = set()
    for pl in state["players"]:
        for pile in pl["board"].values():
            cs = pile["cards"]
            if cs:
                out.add(cs[end])
    for pile in state["supply"].values():
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


def pile_icons(cards: Cards, pile: dict) -> dict:
    """Every icon a pile shows, counted once per pile content and splay: a move or splay changes
    one pile, so a player's icon table is the sum of a few memoised entries."""
    cs, splay = pile["cards"], pile["splay"]
    # unsplayed, a pile shows its top card alone, whatever lies below
    key = (cs[0],) if cs and splay == "none" else (tuple(cs), splay)
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


def points(cards: Cards, state: dict, p: int) -> int:
    """The score: the score pile's total value, plus what the sets in play add (runtime/sets.py)."""
    pile = sum(map(cards.age.__getitem__, state["players"][p]["score"]))
    if cards.set_names:
        from . import sets
        pile += sets.extra_points(cards, state, p)
    return pile


def echo_effect(cards: Cards, cid: int) -> int | None:
    """The index of the card's echo effect (the compiler puts it first), None without one."""
    effects = cards.cards[cid]["effects"]
    return 0 if effects and effects[0]["kind"] == "echo" else None


def pile_echoes(cards: Cards, state: dict, cid: int) -> list[int]:
    """The cards whose echo effects a Dogma of cid runs: on a top card, every card of its pile whose echo
    box shows (the visibility of a covered card's icons), deepest first and cid last; otherwise cid's own
    echo effect only."""
    if not cards.any_echo:   # no card in play has an echo effect (the base game): nothing to look for
        return []
    zone, owner, color = locate(state, cid)
    if zone == "board":
        pile = state["players"][owner]["board"][color]
        if pile["cards"][0] == cid:
            return [c for i, c in reversed(list(enumerate(pile["cards"])))
                    if echo_effect(cards, c) is not None
                    and cards.echo_position[c] in cards.visible_positions(c, pile["splay"], i == 0)]
    return [cid] if echo_effect(cards, cid) is not None else []


def highest_top_value(cards: Cards, state: dict, p: int) -> int:
    age, best = cards.age, 0
    for pile in state["players"][p]["board"].values():
        cs = pile["cards"]
        if cs and age[cs[0]] > best:
            best = age[cs[0]]
    return best


def may_achieve(cards: Cards, state: dict, p: int, value: int) -> bool:
    """The achieve test: a score of at least 5 per age and a top card of at least that value (the Achieve
    action and the eligible() builtin both ask this)."""
    return points(cards, state, p) >= 5 * value and highest_top_value(cards, state, p) >= value


def achievable(cards: Cards, state: dict, p: int, values) -> list:
    """The values of ``values`` that pass may_achieve's test (the score counted once for all)."""
    if not values:
        return []
    score = points(cards, state, p)
    if score < 5 * min(values):
        return []      # the common case: not even the lowest is affordable, no need to look at the board
    top = highest_top_value(cards, state, p)
    return [v for v in values if score >= 5 * v and top >= v]


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


def remove_from_anywhere(state: dict, cid: int):
    """Take a card out of its zone; return where it was. A pile left with 0-1 cards forgets its splay;
    a revealed card that moves is no longer revealed."""
    zone, p, key = locate(state, cid)
    bump(state, None if zone in _UNREVISED else p)
    unshow(state, cid)
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
    elif zone is not None:   # a set's zone
        state["players"][p]["zones"][zone].remove(cid)
    return zone, p, key


def place(cards: Cards, state: dict, cid: int, zone: str, p: int | None, bottom: bool = False) -> None:
    """Put a card (already out of its old zone) into a zone."""
    bump(state, None if zone in _UNREVISED else p)
    if zone == "board":
        pile = state["players"][p]["board"][cards.color[cid]]
        if bottom:
            pile["cards"].append(cid)
        else:
            pile["cards"].insert(0, cid)
    elif zone == "supply":   # back to the bottom of its own set's pile
        supply_pile(state, cards.set[cid], str(cards.age[cid])).append(cid)
    elif zone in ("junk", "removed"):
        state[zone].append(cid)
    elif zone == "available":
        state["available"]["standard"].append(cid)
    elif zone in cards.zones:
        state["players"][p]["zones"][zone].append(cid)
    else:
        state["players"][p][zone].append(cid)


def supply_pile(state: dict, set_name: str, age: str) -> list:
    """The supply pile of one set and age (the base cards' are ``supply``)."""
    if set_name == "base":
        return state["supply"].setdefault(age, [])
    return state["set_supply"].setdefault(set_name, {}).setdefault(age, [])


def supply_piles(state: dict):
    """Every supply pile, as ((set, age), pile): the base piles first."""
    for age, pile in state["supply"].items():
        yield ("base", age), pile
    for name, piles in state.get("set_supply", {}).items():
        for age, pile in piles.items():
            yield (name, age), pile


def card_places(state: dict) -> list[int]:
    """Every card id in every zone (a card in two places appears twice)."""
    out: list[int] = []
    for pl in state["players"]:
        out += pl["hand"] + pl["score"] + [a for a in pl["achievements"] if isinstance(a, int)]
        for pile in pl["board"].values():
            out += pile["cards"]
        for zone in pl.get("zones", {}).values():
            out += zone
    for _, pile in supply_piles(state):
        out += pile
    out += state["available"]["standard"] + state["junk"] + state["removed"]
    return out


def draw_age(cards: Cards, state: dict, value: int):
    """The age a draw of this value comes from (skipping empty piles), or None past the last age."""
    age = max(value, cards.min_age)
    while age <= cards.max_age:
        if state["supply"].get(str(age)):
            return age
        age += 1
    return None
