"""The card table: one bundle's cards and manifest, with the lookups the rules need.

``Cards.of(bundle)`` is made once per bundle and shared by all its games: it
holds nothing but what the bundle determines (names, ages, colours, printed
icons, which icon positions each splay shows, the sets' zones and hooks) and
memos of it (the icons a card shows by splay and place).
"""
from __future__ import annotations

from innoscript.core.editions import overridden_rules

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
        self.cards = bundle["cards"]
        self.by_name = {c["name"]: c["id"] for c in self.cards}
        self.colors: list[str] = m["colors"]
        self.icons: list[str] = m["icons"]
        self.hex = m["hex"]
        self.ages: list[int] = m["ages"]
        self.max_age, self.min_age = max(self.ages), min(self.ages)
        # the icon positions: the edition's, then those the sets in play add (a city's top middle and top
        # right); a splay shows the edition's positions for it and those the sets add to it
        set_manifests = [bundle["sets"][n]["manifest"] for n in sorted(bundle.get("sets", {}))]
        self.positions = positions = list(m["icon_positions"])
        for sm in set_manifests:
            positions += [p for p in sm.get("icon_positions", []) if p not in positions]
        shown = {d: list(ps) for d, ps in m["splays"].items()}
        for sm in set_manifests:
            for d, ps in sm.get("splays", {}).items():
                shown[d] = shown.get(d, []) + [p for p in ps if p not in shown.get(d, [])]
        self.splay_positions = {d: sorted(positions.index(p) for p in ps) for d, ps in shown.items()}
        self.splay_positions["none"] = []
        # a direction's rank (splay_rank, highest_splay): its place in the manifest's splay_order, none 0
        self.splay_rank = {"none": 0, **{d: i for i, d in enumerate(m["splay_order"], 1)}}
        self.age = [c["age"] for c in self.cards]
        # a card's value while on a board, where it differs from its age ('value on board 11'): board.values
        self.board_value: dict[int, int] = {c["id"]: c["board_value"] for c in self.cards if "board_value" in c}
        self.color = [c["color"] for c in self.cards]
        self.printed = [c["icons"] for c in self.cards]
        self.name = [c["name"] for c in self.cards]
        self.has_demand = [any(e["kind"] == "demand" for e in c["effects"]) for c in self.cards]
        # whether a Dogma on the card is offered: never (not implemented), always (it has dogma effects),
        # or None: as its pile's cell effects say (runtime/rules/dogma.py, may_dogma)
        self.may_dogma = [False if not c["effects"] and not c.get("no_effect") or c["dogma"] is None else
                          True if any(e["kind"] != "cell" for e in c["effects"]) else None for c in self.cards]
        self.unimplemented = frozenset(c["id"] for c in self.cards if not c["effects"])   # files with no effects yet
        # set cards: the set, and the cells its sets declare (manifest "cells"): each card's numbers by icon
        # position ('bonus 3'), and its effect cells: (effect index, cell word, icon position), printed order
        self.set = [c.get("set", "base") for c in self.cards]
        self.carrier = [c.get("carried_by", c.get("set", "base")) for c in self.cards]   # whose files hold it
        self.cell_values = [c.get("cell_values") for c in self.cards]
        self.effect_cells: list[tuple] = []
        for c in self.cards:
            cells = [e for e in c["effects"] if e["kind"] == "cell"]
            places = [k for k, w in enumerate(c["icons"]) if any(e.get("cell") == w for e in cells)]
            self.effect_cells.append(tuple((k, e["cell"], pos) for k, (e, pos) in enumerate(zip(cells, places))))
        self.any_cell_effect = any(self.effect_cells)
        self.specials = {s["name"]: s for s in bundle["special_achievements"]}
        self.set_names: list[str] = sorted(bundle.get("sets", {}))   # the sets in play (runtime/rules/sets.py)
        # the game's rules: the edition's, with the sets' overrides (innoscript/core/editions.py)
        self.rules: dict = overridden_rules(m["rules"], [bundle["sets"][n]["manifest"] for n in self.set_names])
        # the score an Achieve needs (runtime/state/board.py's achieve_cost)
        self.achieve_cost: str = self.rules.get("achieve_cost", "times_value")
        # the sets' cells, word -> spec (a word two sets declare is one cell); those that icon counts do not
        # count, and those that do, which are icon types of their own
        self.cells: dict[str, dict] = {}
        for n in self.set_names:
            for w, spec in sorted(bundle["sets"][n]["manifest"].get("cells", {}).items()):
                self.cells[w] = {**self.cells.get(w, {}), **spec}
        self.not_icons = frozenset([w for w, spec in self.cells.items() if not spec.get("counts_as_icon")] + [None])
        # the hex and the icons the sets in play count as the hex (music notes): icons(hex, ...) counts them all
        self.hex_like: set = {self.hex} | {name for n in self.set_names
                                          for name, spec in bundle["sets"][n]["manifest"].get("icons", {}).items()
                                          if spec.get("counts_as") == self.hex}
        self.icons = self.icons + [w for w in sorted(self.cells) if w not in self.not_icons and w not in self.icons]
        # each scoring cell's compiled score (runtime/machine/expressions.py), from the first set that gives one
        self.cell_scores: dict[str, tuple[str, dict]] = {}
        for n in self.set_names:
            for w, chunk in sorted(bundle["sets"][n].get("cell_scores", {}).items()):
                if chunk is not None and w not in self.cell_scores:
                    self.cell_scores[w] = (n, chunk)
        # the sets' own actions (Endorse): name -> its set, label, number per turn and compiled cards
        self.set_actions: dict[str, dict] = {a: dict(spec, set=n) for n in self.set_names
                                             for a, spec in sorted(bundle["sets"][n].get("actions", {}).items())}
        # each cell's compiled count of achievements (Cities' flags and fountains), from the first set giving one
        self.cell_achievements: dict[str, tuple[str, dict]] = {}
        for n in self.set_names:
            for w, chunk in sorted(bundle["sets"][n].get("cell_achievements", {}).items()):
                self.cell_achievements.setdefault(w, (n, chunk))
        # every set's hooks, sets in name order (runtime/rules/hooks.py)
        self.hooks = [dict(h, set=n) for n in self.set_names for h in bundle["sets"][n].get("hooks", [])]
        self.hooks_at: dict[str, list[int]] = {}   # hook point -> its hooks' indexes, in running order
        for k, h in sorted(enumerate(self.hooks), key=lambda kh: (kh[1].get("order", 0), kh[0])):
            # an event hook ('hook after dig') is found by its point and verb
            self.hooks_at.setdefault(f"{h['point']} {h['verb']}" if "verb" in h else h["point"], []).append(k)
        # the sets' per-player zones (runtime/rules/zones.py), their game-wide zones (scope game) and the
        # move verb that fills each
        declared = {z: dict(spec, set=n) for n in self.set_names
                    for z, spec in sorted(bundle["sets"][n].get("zones", {}).items())}
        self.zones = {z: spec for z, spec in declared.items() if spec.get("scope") != "game"}
        self.shared_zones = {z: spec for z, spec in declared.items() if spec.get("scope") == "game"}
        self.zone_verbs = {spec["verb"]: z for z, spec in declared.items() if spec.get("verb")}
        # cards that start the game in a game-wide zone (never in a supply pile): card -> that zone, and the
        # cards whose home it is (return_to_home: a return puts them back there)
        self.starts_in = {self.by_name[name]: z for z, spec in self.shared_zones.items() for name in spec.get("cards", ())}
        self.home = {c: z for c, z in self.starts_in.items() if self.shared_zones[z].get("return_to_home")}
        # (set, age) -> its cards in id order, as the supply piles are dealt (a card that starts in a zone: none)
        # cards a set takes out of the game at set-up (manifest removed_at_setup): they start removed
        self.removed_at_setup = [self.by_name[name] for n in self.set_names
                                 for name in bundle["sets"][n]["manifest"].get("removed_at_setup", ())
                                 if name in self.by_name and self.set[self.by_name[name]] == n]
        self.deck: dict[tuple[str, int], list[int]] = {}
        for c in self.cards:
            if c["id"] not in self.starts_in and c["id"] not in self.removed_at_setup:
                self.deck.setdefault((self.set[c["id"]], c["age"]), []).append(c["id"])
        # the sets' verbs that move as one of the language's ('promote' as 'meld'), and the marks a free Dogma
        # may carry ('foreseen'): the manifests' verbs and dogma_marks
        self.verb_aliases = {v: spec["as"] for n in self.set_names
                             for v, spec in sorted(bundle["sets"][n]["manifest"].get("verbs", {}).items())}
        self.marks: list[str] = sorted({m for n in self.set_names for m in bundle["sets"][n]["manifest"].get("dogma_marks", [])})
        # the zones an action may take its card from besides its usual place: action -> zones
        self.action_zones: dict[str, list[str]] = {a: [z for z, spec in self.zones.items() if a in spec.get("actions", ())]
                                                   for a in ("meld", "achieve")}
        self.pile_icons: dict = {}   # (pile's cards, splay) -> {icon: count}: the per-player icon table's parts
        self.pile_summaries: dict = {}   # (pile's cards, splay) -> board.PileSummary
        self._card_icons: dict = {}  # (card, splay, on top) -> the icons it shows that counts count

    def visible_positions(self, cid: int, splay: str, is_top: bool) -> list[int]:
        n = len(self.printed[cid])
        return list(range(n)) if is_top else [k for k in self.splay_positions[splay] if k < n]

    def visible_icons(self, cid: int, splay: str, is_top: bool) -> list[str]:
        icons = self.printed[cid]
        if is_top:
            return [i for i in icons if i != self.hex and i is not None]
        n = len(icons)     # a card of the edition's positions has none of the sets' (a city's top right)
        return [icons[k] for k in self.splay_positions[splay] if k < n and icons[k] != self.hex and icons[k] is not None]

    def counted_icons(self, cid: int, splay: str, is_top: bool) -> list[str]:
        """The visible icons that icon counts count (no set's cell unless it counts as an icon)."""
        return [i for i in self.visible_icons(cid, splay, is_top) if i not in self.not_icons]

    def card_icons(self, cid: int, splay: str, is_top: bool) -> tuple:
        """counted_icons, kept per card, splay and place (a card's printed icons never change)."""
        key = (cid, splay, is_top)
        icons = self._card_icons.get(key)
        if icons is None:
            icons = self._card_icons[key] = tuple(self.counted_icons(cid, splay, is_top))
        return icons
