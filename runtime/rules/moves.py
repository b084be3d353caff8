"""Card moves: meld, tuck, score, return, junk, reveal, transfer (to the available achievements too), exchange,
splay and rearrange, and the moves into and out of the sets' per-player zones (runtime/rules/zones.py): a zone's verb
(a set's word, such as ``foreshadow``) and transfers put cards there, never past the zone's limit (a move into a
full zone does nothing; more cards than the zone has room for: the performer chooses the ones that go in); a
set's verb declared to move as another (``promote`` as ``meld``) does, its event naming it (``verb``).

Every move an effect makes goes through here, so each one emits its event,
counts as a change for the sharing bonus (``_count_change``), records what
a demand made a player do ("due to this demand") and runs the special
achievement check where the manifest says it runs at once.  The state's
primitive placement (which end of a pile, which zone) is runtime/state/positions.py's.
"""
from __future__ import annotations

from innoscript.core.opcodes import ENUMS
from ..state.board import locate, note_location, supply_location
from ..state.positions import bump, place, remove_from_anywhere, supply_pile, unshow, zone_cards
from . import zones

PAST = {"meld": "melded", "score": "scored", "tuck": "tucked", "return": "returned", "junk": "junked",
        "reveal": "revealed", "keep": "kept", "achieve": "achieved", "remove": "removed", "take": "taken",
        "transfer": "transferred", "make_available": "transferred", "exchange": "exchanged", "draw": "drawn",
        "place": "placed"}


def past(verb: str) -> str:
    """A verb's past participle: the language's own from PAST, a set's by the regular rule (safeguarded)."""
    return PAST.get(verb) or (verb + "d" if verb.endswith("e") else verb + "ed")

_PLAIN = {"score", "return", "junk", "remove", "achieve", "take", "make_available", "place"}   # one card to one place


class Moves:
    """Moving cards between zones for effects and actions. Mixed into the Engine (runtime/rules/engine.py)."""

    def _count_change(self, n: int = 1):
        d = self.state["dogma"]
        if d is not None:
            d["changes"] += n

    def _demand_stat(self, frame, verb: str, n: int):
        if frame is not None and frame["kind"] == "demand" and n:
            v = self.action_vars(frame)
            key = f"{past(verb)}_by_demand"
            v[key] = v.get(key, 0) + n

    def _shared(self, zone) -> dict:
        """An event's mark for a move into a set's game-wide zone (nobody's: 'to' no player)."""
        return {"shared": True} if zone in self.cards.shared_zones else {}

    @staticmethod
    def _origin(where) -> dict:
        """Where a moved card came from, for frontends and for telling what was revealed."""
        return {"from": where[0], "from_player": where[1]}

    def _meld(self, p: int, cid: int, bottom: bool = False, **extra):
        if self.cards.color[cid] is None:      # a token (a museum) has no colour: no pile takes it
            return False
        pile = self.state["players"][p]["board"][self.cards.color[cid]]
        # a card moved within its own pile (melded from its bottom, tucked from its top) never leaves
        # it: the pile keeps its splay (ruling 14)
        splay = pile["splay"] if cid in pile["cards"] else "none"
        where = remove_from_anywhere(self.state, cid)
        place(self.cards, self.state, cid, "board", p, bottom=bottom)
        if splay != "none":
            pile["splay"] = splay
        self.emit("tuck" if bottom else "meld", player=p, card=cid, **self._origin(where), **extra)
        self.follow_move("tuck" if bottom else "meld", p, cid, where[0])

    def _put(self, p: int, cid: int, verb: str):
        """Move one card for player p by a verb (no decisions). False: the move did nothing (a full zone)."""
        st = self.state
        if verb == "meld":
            self._meld(p, cid)
            return
        alias = self.cards.verb_aliases.get(verb)
        if alias in ("meld", "tuck"):  # a set's verb that moves as a meld or a tuck ('promote'): its event says so
            self._meld(p, cid, bottom=alias == "tuck", verb=verb, **{past(verb): True})    # promoted: true
            if alias == "tuck":
                st["turn"]["tucked"][p] += 1
            return
        if alias is not None:
            return self._put(p, cid, alias)
        zone = self.cards.zone_verbs.get(verb)
        if zone is not None:
            if not zones.has_room(self.cards, st, zone, p, self.icon_cache):
                return False
            where = remove_from_anywhere(st, cid)
            place(self.cards, st, cid, zone, p)
            self.emit(verb, player=p, card=cid, zone=zone, **self._origin(where), **self._shared(zone))
            self.follow_move(verb, p, cid, where[0])
            return
        if verb == "tuck":
            self._meld(p, cid, bottom=True)
            st["turn"]["tucked"][p] += 1
            return
        if verb == "keep":   # stop showing a revealed card; it stays where it is
            if cid in st["players"][p]["revealed"]:
                unshow(st, cid)
                zone, owner, _ = locate(st, cid)
                self.emit("keep", player=p, card=cid, **{"from": zone, "from_player": owner})
            return
        if verb == "reveal":
            self._reveal(p, cid)
            return
        if verb not in _PLAIN:   # a zone's verb with no such zone in this game (a bundle from elsewhere)
            raise ValueError(f"no zone of this game is filled by '{verb}'")
        where = remove_from_anywhere(st, cid)
        if verb == "score":
            place(self.cards, st, cid, "score", p)
            st["turn"]["scored"][p] += 1
        elif cid in self.cards.home and verb in ("return", "place"):   # a card with a home never enters a pile
            home = self.cards.home[cid]
            place(self.cards, st, cid, home, None)
            self.emit(verb, player=p, card=cid, zone=home, shared=True, **self._origin(where))
            return
        elif verb == "return":
            place(self.cards, st, cid, "supply", None)
        elif verb == "place":    # on top of its own supply pile
            set_name, age = self.cards.set[cid], str(self.cards.age[cid])
            supply_pile(st, set_name, age).insert(0, cid)
            note_location(cid, supply_location(set_name, age))
        elif verb in ("junk", "remove"):
            place(self.cards, st, cid, "junk" if verb == "junk" else "removed", None)
            if verb == "junk":
                self.emit(verb, player=p, card=cid, **self._origin(where))
                self.follow_move(verb, p, cid, where[0])
                return
        elif verb == "achieve":
            place(self.cards, st, cid, "achievements", p)
        elif verb == "take":
            place(self.cards, st, cid, "hand", p)
        elif verb == "make_available":   # face down among the achievements anyone may achieve
            place(self.cards, st, cid, "available", None)
            self.emit("transfer", player=p, to=None, zone="available", card=cid, **self._origin(where))
            return
        self.emit(verb, player=p, card=cid, **self._origin(where))

    def _reveal(self, p: int, cid: int):
        """Reveal in place: the card is shown to everyone and stays in its zone."""
        st = self.state
        if any(cid in pl["revealed"] for pl in st["players"]):
            return
        zone, owner, _ = locate(st, cid)
        st["players"][p]["revealed"].append(cid)
        bump(st, None)     # revealed cards are looked at, not kept per revision
        self.emit("reveal", player=p, card=cid, **{"from": zone, "from_player": owner})

    def _note_pile(self, frame, cid: int) -> None:
        """A board card about to move: the effect remembers the cards under it ([card, player, colour,
        cards...]), so 'the card beneath it' still names them once it has gone."""
        color = self.cards.color[cid]    # a board card lies in the pile of its colour
        if color is None:                # a token: never on a board
            return
        for p, pl in enumerate(self.state["players"]):
            pile = pl["board"][color]["cards"]
            if cid in pile:
                break
        else:
            return
        recs = [r for r in frame.get("left_piles", ()) if r[0] != cid]
        frame["left_piles"] = (recs + [[cid, p, color] + pile[pile.index(cid) + 1:]])[-8:]

    def move(self, frame, cids: list, verb: str) -> list:
        p = frame["you"]
        moved = []
        base = self.cards.verb_aliases.get(verb, verb)     # a set's verb that moves as one of the language's
        if base in ("meld", "tuck"):
            cids = self._onto_piles(frame, cids, base, p)
        elif verb in self.cards.zone_verbs:
            cids = self._into_room(frame, cids, self.cards.zone_verbs[verb], p, verb)
        for cid in cids:
            if isinstance(cid, str):
                if not self._move_special(cid, verb):
                    continue
            else:
                if verb not in ("keep", "reveal"):
                    self._note_pile(frame, cid)
                if self._put(p, cid, verb) is False:
                    continue
            moved.append(cid)
        self._settle(frame, verb, moved)
        if verb == "achieve" and moved:
            self.check_win_by_achievements()
        return moved

    def _onto_piles(self, frame, cids: list, verb: str, owner: int) -> list:
        """Several cards going onto one board pile at once: unless a player's answer already put
        them in order (a choice of cards is answered in order), the pile's owner chooses the
        order, top first. Returns the cards in the order they are placed."""
        if frame.get("answered_order") == cids or len(cids) < 2:
            return cids
        piles: dict[str, list[int]] = {}
        for c in cids:
            if isinstance(c, int):
                piles.setdefault(self.cards.color[c], []).append(c)
        several = [(col, cs) for col, cs in piles.items() if len(cs) >= 2]
        if not several:
            return cids
        orders = frame.setdefault("pile_orders", [])   # answers so far, one per pile
        for col, cs in several[len(orders):]:
            orders.append(self.ask({"player": owner, "kind": "order", "options": list(cs), "min": len(cs),
                                    "max": len(cs), "color": col, "purpose": verb,
                                    "prompt": f"choose the order of your {col} cards to {verb}, top first"}, frame))
        frame.pop("pile_orders")
        grouped = {c for _, cs in several for c in cs}
        out = [c for c in cids if c not in grouped]
        for order in orders:   # a meld puts each card on top, a tuck at the bottom
            out += list(reversed(order)) if verb == "meld" else list(order)
        return out

    def _into_room(self, frame, cids: list, zone: str, owner: int, purpose: str) -> list:
        """Cards going together into a zone with a limit by its verb (foreshadow): when they are more than its
        room, the performer chooses which go in (the others stay where they are); ruling 26. A transfer into
        a zone takes the cards in order, as many as fit."""
        cap = zones.limit(self.cards, self.state, zone, owner, self.icon_cache)
        if cap is None:
            return cids
        room = cap - len(zone_cards(self.state, zone, owner))
        if room <= 0 or len(cids) <= room:
            return cids
        return self.ask({"player": frame["you"], "kind": "select_cards", "options": list(cids), "min": room,
                         "max": room, "purpose": purpose,
                         "prompt": f"only {room} of them fit: choose the card(s) to put into the {zone}"}, frame)

    def _move_special(self, name: str, verb: str) -> bool:
        """Special achievements are named, not cards: junk one that is available, or return one from the junk."""
        st = self.state
        if verb == "junk" and name in st["available"]["special"]:
            st["available"]["special"].remove(name)
            st["junk_special"].append(name)
        elif verb == "return" and name in st["junk_special"]:
            st["junk_special"].remove(name)
            st["available"]["special"].append(name)
        else:
            return False
        self.emit(verb, special=name)
        return True

    def _settle(self, frame, verb, moved):
        full = frame.pop("sel_full", None)
        frame["sel_full"] = None
        frame["did"] = bool(moved) and full is not False
        self._demand_stat(frame, verb, len(moved))
        self._count_change(len(moved))
        if moved:
            self.after_change()

    def transfer(self, frame, cids: list[int], target, zone: str) -> list[int]:
        shared = zone in self.cards.shared_zones      # a game-wide zone: nobody's, its limit for 'you'
        if zone not in ENUMS["zone"] and zone not in self.cards.zones and not shared:
            raise ValueError(f"no zone {zone!r} in this game")
        st = self.state
        targets = target if isinstance(target, list) else [target]
        to = None if shared else targets[0] if targets else frame["you"]
        moved = []
        for cid in cids:
            if (zone in self.cards.zones or shared) and not zones.has_room(self.cards, st, zone,
                                                                           frame["you"] if shared else to, self.icon_cache):
                continue    # a full zone: this card stays where it is
            self._note_pile(frame, cid)
            where = remove_from_anywhere(st, cid)
            if zone == "board":
                place(self.cards, st, cid, "board", to)
            elif zone == "top":
                place(self.cards, st, cid, "board", to)
            elif zone == "revealed":   # into the hand, shown
                place(self.cards, st, cid, "hand", to)
                st["players"][to]["revealed"].append(cid)
            else:
                place(self.cards, st, cid, zone, to)
            self.emit("transfer", player=frame["you"], to=to, zone=zone, card=cid, **self._origin(where),
                      **self._shared(zone))
            moved.append(cid)
        self._settle(frame, "transfer", moved)
        if zone == "achievements" and moved:
            self.check_win_by_achievements()
        return moved

    def exchange(self, frame, a, pa, za, b, pb, zb, optional: bool = False):
        st = self.state
        if not (a or b):
            frame["did"] = False
            return
        optional = optional and not frame.get("must")
        if optional and not self.ask({"player": frame["you"], "kind": "yes_no", "options": [True, False],
                                      "optional": True, "prompt": "exchange?"}, frame):
            frame["did"] = False
            return
        for cid in a + b:
            remove_from_anywhere(st, cid)
        for cid in a:
            place(self.cards, st, cid, zb, pb)
        for cid in b:
            place(self.cards, st, cid, za, pa)
        self.emit("exchange", player=frame["you"], cards=a, other=b, zone=za, owner=pa, other_zone=zb, other_owner=pb)
        frame["sel_full"] = None
        frame["did"] = bool(a or b)
        self._demand_stat(frame, "exchange", len(a) + len(b))
        self._count_change(len(a) + len(b))
        self.after_change()

    def splay(self, frame, colors: list[str], direction: str, optional: bool, board_of: int | None = None):
        owner = frame["you"] if board_of is None else board_of     # 'you' splay another player's pile too
        board = self.state["players"][owner]["board"]
        if direction == "none":
            cands = [c for c in colors if board[c]["splay"] != "none"]
        else:
            cands = [c for c in colors if len(board[c]["cards"]) >= 2 and board[c]["splay"] != direction]
        frame["did"] = False
        if not cands:
            return
        optional = optional and not frame.get("must")
        if len(cands) == 1 and not optional:
            color = cands[0]
        else:
            color = self.ask({"player": frame["you"], "kind": "splay_color", "options": cands, "optional": optional,
                              "direction": direction, "prompt": f"splay a colour {direction}"}, frame)
            if color is None:
                return
        before = board[color]["splay"]
        board[color]["splay"] = direction
        bump(self.state, owner)
        frame["did"] = True
        self.emit("splay", player=owner, color=color, direction=direction)
        self._count_change()
        self.after_change()
        if direction != "none":     # a pile splayed in a new direction: its event, made by the splaying player
            self.follow_move("splay", frame["you"], board[color]["cards"][0], before)

    def rearrange(self, frame, color):
        pile = self.state["players"][frame["you"]]["board"][color]["cards"]
        frame["did"] = False
        if len(pile) < 2:
            return
        order = self.ask({"player": frame["you"], "kind": "order", "options": list(pile), "min": len(pile),
                          "max": len(pile), "prompt": f"put your {color} cards in a new order, top first"}, frame)
        if order != pile:
            pile[:] = order
            bump(self.state, frame["you"])
            frame["did"] = True
            self.emit("rearrange", player=frame["you"], color=color)
            self._count_change()
            self.after_change()
