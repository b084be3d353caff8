"""The turn: set-up melds, the action phase, the four actions and the end of an action.

A game starts in phase ``setup`` (every player chooses a card to meld, all
are melded together, the first card by title starts), then alternates
``action`` decisions.  Draw, Meld and Achieve finish at once; Dogma moves the
game to phase ``dogma`` (runtime/rules/dogma.py), which ends through
``_end_action`` like the others.  The end of an action runs the checks the
manifest places there (queued claims, special achievements, the 4th-edition
win check), then passes the turn when its actions are used: the first turns
have one action (manifest ``opening_single_action_turns``).  Seating (turn
order, opponents, neighbours, teams) is runtime/state/teams.py's.
"""
from __future__ import annotations

from ..machine.expressions import achievable, kept_value
from ..state import teams
from ..state.board import highest_top_value, top_cards
from ..state.positions import remove_from_anywhere


class Turn:
    """Set-up, turns and the four actions. Mixed into the Engine (runtime/rules/engine.py)."""

    def _ask_initial_melds(self):
        st = self.state
        for p, choice in enumerate(st["setup_melds"]):
            if choice is None:
                self.ask({"player": p, "kind": "initial_meld", "options": list(st["players"][p]["hand"]),
                          "prompt": "choose a card to meld first"})
        # every player has chosen: meld them together, first player by card title
        for p, cid in enumerate(st["setup_melds"]):
            self._meld(p, cid)
        names = [(self.cards.name[cid], p) for p, cid in enumerate(st["setup_melds"])]
        first = min(names)[1]
        st["turn"].update(number=1, active=first, actions_left=self._actions_for_turn(1))
        st["phase"] = "action"
        self.emit("turn", number=1, player=first)
        self.start_turn()

    def _initial_meld(self, p, cid):
        self.state["setup_melds"][p] = cid

    def _actions_for_turn(self, number: int) -> int:
        n = str(len(self.state["players"]))
        return 1 if number <= self.cards.manifest["opening_single_action_turns"].get(n, 0) else 2

    def _ask_action(self):
        st = self.state
        p = st["turn"]["active"]
        tops = top_cards(st, p)
        missing = self.cards.unimplemented
        unimplemented = [c for c in tops if c in missing] if missing else []
        decision = {"player": p, "kind": "action", "options": self.compute_legal_actions(p, tops),
                    "prompt": "choose an action"}
        if unimplemented:
            decision["not_implemented"] = [{"type": "dogma", "card": c} for c in unimplemented]
        self.pose(decision)     # the main loop stops at a pending decision: no need to unwind

    def compute_legal_actions(self, p: int, tops: list[int] | None = None) -> list[dict]:
        """p's actions now (tops: p's top cards, when the caller has them)."""
        st = self.state
        acts = [{"type": "draw"}]
        for c in st["players"][p]["hand"]:
            acts.append({"type": "meld", "card": c})
        zones = self.cards.action_zones
        for z in zones["meld"]:        # a set's zone the Meld action may take its card from
            acts += [{"type": "meld", "card": c, "from": z} for c in st["players"][p]["zones"][z]]
        for a in achievable(self.cards, st, p, self._available_ages(), self.icon_cache):
            acts.append({"type": "achieve", "age": a})
        for z in zones["achieve"]:     # a set's zone the Achieve action may claim a card of
            mine = st["players"][p]["zones"][z]
            ok = set(achievable(self.cards, st, p, sorted({self.cards.age[c] for c in mine}), self.icon_cache))
            acts += [{"type": "achieve", "age": self.cards.age[c], "card": c, "from": z} for c in mine
                     if self.cards.age[c] in ok and self.cards.age[c] >= 1]   # a token (a museum) is no age's
        # A card whose file has no effects yet is not implemented: its dogma is not offered (may_dogma).
        known = self.cards.may_dogma
        for c in top_cards(st, p) if tops is None else tops:
            if known[c] or known[c] is None and self.may_dogma(c):
                acts.append({"type": "dogma", "card": c})
        if self.cards.set_actions:       # a set's own actions (Endorse), each on the cards its manifest gives
            acts += self._set_actions(p)
        if self._parley() and st["players"][p]["hand"]:
            for q in self.players_from(p, False):
                if not self.adjacent(p, q):
                    acts += [{"type": "dogma", "card": c} for c in top_cards(st, q) if self.may_dogma(c)]
        return acts

    def _set_actions(self, p: int) -> list[dict]:
        used = self.state["turn"].get("set_actions", {})
        out = []
        for name, spec in self.cards.set_actions.items():
            if used.get(name, 0) >= spec["per_turn"]:
                continue
            # kept with the contents of what it reads, as a set's score is: asked at every action decision
            cids = kept_value(self.cards, self.state, spec["cards"], f"{spec['set']}:actions/{name}/cards", p,
                              self.icon_cache)
            out += [{"type": "set_action", "action": name, "card": c} for c in dict.fromkeys(_card_list(cids))]
        return out

    def _available_ages(self) -> list[int]:
        """The values of the standard achievements available, lowest first (kept while they stand still)."""
        avail = tuple(self.state["available"]["standard"])
        kept = self.__dict__.get("_ages")
        if kept is None or kept[0] != avail:
            kept = self.__dict__["_ages"] = (avail, sorted({self.cards.age[c] for c in avail}))
        return kept[1]

    def _do_action(self, action: dict):
        st = self.state
        p = st["turn"]["active"]
        t = action["type"]
        st["turn"]["boards"] = {}      # the boards each card is on during this action (positions.note_boards)
        self.__dict__.pop("_pending_events", None)
        self.emit("action", player=p, action=action)
        if t == "draw":
            self.draw_one(p, highest_top_value(self.cards, st, p))
            self.after_change()
            self._end_action()
        elif t == "meld":
            cid = action["card"]
            pile = st["players"][p]["board"][self.cards.color[cid]]["cards"]
            covered = pile[:1]
            self._meld(p, cid)
            self.after_change()
            if not self.run_hooks("meld_action", [[cid], covered]):
                self._end_action()
        elif t == "achieve":
            cid = action.get("card")
            if cid is None:
                cid = next(c for c in st["available"]["standard"] if self.cards.age[c] == action["age"])
            remove_from_anywhere(st, cid)
            st["players"][p]["achievements"].append(cid)
            self.emit("achieve", player=p, age=action["age"], **({"from": action["from"]} if "from" in action else {}))
            self.check_win_by_achievements()
            self.after_change()
            self._end_action()
        elif t == "dogma":
            self._start_dogma(p, action["card"])
        elif t == "set_action":      # its hook does it (hook action NAME(card)); the action ends when it is done
            used = st["turn"].setdefault("set_actions", {})
            used[action["action"]] = used.get(action["action"], 0) + 1
            if not self.run_hooks(f"action {action['action']}", [[action["card"]]]):
                self._end_action()

    def _end_action(self):
        st = self.state
        if st["phase"] == "over":
            return
        st["phase"] = "action"
        d, st["dogma"] = st["dogma"], None
        if d and d.get("claims"):
            self._claim_queued(d["claims"])
        self.check_specials("end_of_action")
        if self.rule("achievement_win_check") == "end_of_action":
            self.check_win_by_achievements(final=True)
        st["turn"]["actions_left"] -= 1
        if st["players"][st["turn"]["active"]].get("eliminated"):
            st["turn"]["actions_left"] = 0
        if st["turn"]["actions_left"] <= 0:
            self._next_turn()

    def _next_turn(self):
        """The turn passes to the next player still in the game, whose turn starts (its hooks first)."""
        st = self.state
        n = len(st["players"])
        st["turn"]["number"] += 1
        st["turn"]["active"] = self.players_from(st["turn"]["active"], False)[0]
        st["turn"]["actions_left"] = self._actions_for_turn(st["turn"]["number"])
        st["turn"]["scored"] = [0] * n
        st["turn"]["tucked"] = [0] * n
        st["turn"].pop("set_actions", None)      # a set's actions taken this turn (Endorse: once a turn)
        self.emit("turn", number=st["turn"]["number"], player=st["turn"]["active"])
        self.start_turn()

    def players_from(self, p: int, include_self: bool) -> list[int]:
        """Players still in the game in turn order from p's left (p itself last when included)."""
        return teams.players_from(self.state, p, include_self)

    def opponents(self, p: int) -> list[int]:
        """Players of the other teams (every other player in a classic game), in turn order."""
        return teams.opponents(self.state, p)

    def adjacent(self, p: int, q: int) -> bool:
        """Neighbours at the table (eliminated players are skipped)."""
        order = self.players_from(p, False)
        return bool(order) and q in (order[0], order[-1])


def _card_list(v) -> list[int]:
    """An action's cards as its expression gives them: a card set, one card, or none."""
    if isinstance(v, list):
        return [c for c in v if isinstance(c, int) and not isinstance(c, bool)]
    return [v] if isinstance(v, int) and not isinstance(v, bool) else []
