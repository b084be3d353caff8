"""Achievements and the end of the game: claims, special achievements, winning and losing.

Special achievements are claimed when their InnoScript condition holds,
checked where the manifest's ``special_achievement_check`` says (at once, or
at the end of an action; a set's own achievements by its set manifest's
rule of that name, else the edition's); a condition is tested again only when its reads
have changed (runtime/state/fingerprints.py).  The win by achievements follows
``achievement_win_check`` (at once, or the most at the end of an action);
ties follow ``tie_break_order``.  Teams pool achievements and scores
(runtime/state/teams.py); a lost player is eliminated where the edition allows it.
"""
from __future__ import annotations

from ..machine import tier
from ..machine.expressions import derived_achievements, held_achievements, team_points
from ..machine.faults import GameOver, RuntimeFault
from ..state import fingerprints, teams
from ..state.positions import place, remove_from_anywhere
from . import sets


class Achievements:
    """Achievements, winning and losing. Mixed into the Engine (runtime/rules/engine.py)."""

    def claim_special(self, p: int, name: str) -> bool:
        avail = self.state["available"]["special"]
        if name not in avail:
            return False
        avail.remove(name)
        self.state["players"][p]["achievements"].append(name)
        self.emit("special_achievement", player=p, name=name)
        self._count_change()  # an achievement changing hands changes the game (sharing bonus)
        self.check_win_by_achievements()
        return True

    def claim_by_effect(self, frame, name: str) -> bool:
        """A dogma effect instructs to claim a special achievement: at once, or (manifest
        dogma_claim: end_of_action) at the end of the action, if it is still available.
        The result is what a following "if you do" reads: a queued claim counts as done when the
        achievement is available now and no other player's claim of it waits before it (ruling 21)."""
        d = self.state["dogma"]
        if self.rule("dogma_claim") == "end_of_action" and d is not None:
            claim = [frame["you"], name]
            claims = d.setdefault("claims", [])
            if claim not in claims:
                claims.append(claim)
                self.emit("claim_queued", player=frame["you"], name=name)
            if name not in self.state["available"]["special"]:
                return False
            rivals = {q for q, n in claims if n == name}
            return next((p for p in self.tie_order() if p in rivals), None) == frame["you"]
        return self.claim_special(frame["you"], name)

    def _claim_queued(self, claims: list) -> None:
        """Several players instructed to claim the same achievement: the tie order decides."""
        for p in self.tie_order():
            for q, name in claims:
                if q == p:
                    self.claim_special(p, name)

    def tie_order(self) -> list[int]:
        """Players still in the game in the order that breaks ties (manifest tie_break_order):
        "active_first" (then clockwise), or "left_of_active" (clockwise from the active
        player's left, the active player last)."""
        st = self.state
        active = st["turn"]["active"]
        me = [] if st["players"][active].get("eliminated") else [active]
        others = teams.players_from(st, active, False)
        if self.rule("tie_break_order") == "left_of_active":
            return others + me
        return me + others

    def achievements_needed(self) -> int:
        """By the number of players still in the game (an eliminated player no longer counts)."""
        st = self.state
        # the same for the same table: kept per players still in, teams and option (the sets are the bundle's)
        key = (tuple([bool(pl.get("eliminated")) for pl in st["players"]]), repr(st.get("teams")),
               bool((st.get("options") or {}).get("extra_achievement")))
        kept = self.__dict__.setdefault("_needed", {})
        if key not in kept:
            kept[key] = self._achievements_needed()
        return kept[key]

    def _least_needed(self) -> int:
        """A lower bound of achievements_needed for any table of this bundle: its smallest number."""
        least = self.__dict__.get("_least")
        if least is None:
            least = self.__dict__["_least"] = (min(self.cards.manifest["achievements_to_win"].values())
                                               + sets.extra_achievements(self.cards))
        return least

    def _achievements_needed(self) -> int:
        st = self.state
        need = teams.achievements_needed(self.cards.manifest, st, sets.extra_achievements(self.cards))
        alive = sum(not pl.get("eliminated") for pl in st["players"])
        table = self.cards.manifest["achievements_to_win"]
        if not teams.has_teams(st) and alive < len(st["players"]) and str(alive) in table:
            need += table[str(alive)] - table[str(len(st["players"]))]
        return need

    def after_change(self):
        now = self.__dict__.get("_check_now")
        if now is None:
            now = self.__dict__["_check_now"] = "immediately" in self._timings_used()
        if now:
            self.check_specials("immediately")
        if self.cards.cell_achievements and self.rule("achievement_win_check") != "end_of_action":
            self.check_win_by_achievements()     # a splay or a move can make a flag count: a win at once

    def _timings_used(self) -> set:
        used = self.__dict__.get("_used")
        if used is None:
            used = self.__dict__["_used"] = set(self._special_timings().values())
        return used

    def _special_timings(self) -> dict:
        """Each special achievement's check ("immediately", "end_of_action"): its set's rule, else the edition's."""
        timings = self.__dict__.get("_timings")
        if timings is None:
            timings = self.__dict__["_timings"] = {n: sets.special_check(self.cards, n) for n in self.cards.specials}
        return timings

    def check_specials(self, when: str | None = None):
        """Test the available special achievements checked at this moment (``when``; None: all of them)
        for every player."""
        st = self.state
        avail = st["available"]["special"]
        if not avail or when is not None and when not in self._timings_used():
            return
        # A condition is tested again only when something in its read set (computed by the compiler
        # from its bytecode) has changed since it was last tested for that player: runtime/state/fingerprints.py.
        seen = self._specials_seen
        if seen is None:
            seen = self._specials_seen = {}
        keyers, union = self._checks_at(when)
        skip = self.skip_unchanged_specials
        if skip:
            # a player is looked at only when what any condition of this moment reads, or the available
            # achievements, changed since that player's last check at this moment
            stamps = seen.get(when)
            if stamps is None:
                stamps = seen[when] = {}
            names = tuple(avail)
            changed = set()
            for p in range(len(st["players"])):
                if stamps.get(p) != (union(st, p), names):
                    changed.add(p)
            if not changed:
                return
            order = [p for p in self.tie_order() if p in changed]
        else:
            order = self.tie_order()
        for p in order:
            keys: dict = {}     # per read set, its fingerprints for this player
            for name in list(avail):
                keyer = keyers.get(name)
                if keyer is None:
                    continue    # not checked at this moment
                if skip:
                    key = keys.get(keyer)
                    if key is None:
                        key = keys[keyer] = keyer(st, p)
                    if seen.get((name, p)) == key:
                        continue
                    seen[(name, p)] = key
                if self._condition(name, p):
                    self.claim_special(p, name)
                    keys.clear()
            if skip:
                stamps[p] = (union(st, p), tuple(avail))

    def _checks_at(self, when: str | None) -> tuple[dict, object]:
        """For the specials checked at this moment: each one's fingerprint function (fingerprints.keyer of its
        read set, shared by equal read sets; no read set: anything at all), and the fingerprint
        function of all their reads together."""
        kept = self.__dict__.get("_checks")
        if kept is None:
            kept = self.__dict__["_checks"] = {}
        plan = kept.get(when)
        if plan is None:
            timings = self._special_timings()
            reads = {n: tuple(s.get("reads") or ("*",)) for n, s in self.cards.specials.items()
                     if (when is None or timings[n] == when) and s["condition"] is not None}
            by_set = {r: fingerprints.keyer(r) for r in reads.values()}
            plan = kept[when] = ({n: by_set[r] for n, r in reads.items()},
                                 fingerprints.keyer([x for r in reads.values() for x in r]))
        return plan

    def _condition(self, name: str, p: int) -> bool:
        chunk = self.cards.specials[name]["condition"]
        frame = {"card": -1, "chunk": chunk, "label": name, "kind": "condition", "pc": 0, "stack": [],
                 "locals": [None] * len(chunk["locals"]), "you": p, "me": p, "did": False}
        if self.tier == "compiled" and self.trace is None:
            fn = tier.function_for(self, frame)     # a fresh frame: straight to the compiled tier
            if fn is not None:
                fn(self, frame)
                return bool(frame.get("result"))
        tier.run(self, frame)
        return bool(frame.get("result"))

    def check_win_by_achievements(self, final: bool = False):
        """3rd edition: the first player found with enough achievements wins at once.
        4th edition (final=True at the end of an action): of those with enough, the most
        achievements wins; a tie goes to the first in the tie order (tie_order)."""
        if self.rule("achievement_win_check") == "end_of_action" and not final:
            return
        st = self.state
        held = 0
        for pl in st["players"]:
            held += len(pl["achievements"])
        if self.cards.cell_achievements:      # what the players' cells count as (Cities' flags)
            held += sum(derived_achievements(self.cards, st, p, self.icon_cache) for p in range(len(st["players"])))
        if held < self._least_needed():
            return   # the common case: fewer achievements in play than any table needs
        need = self.achievements_needed()
        if held < need:
            return   # no one (no team, pooled) has enough
        order = self.tie_order()
        count = {p: held_achievements(self.cards, st, p, self.icon_cache) for p in order}   # a team's are pooled
        reached = [p for p in order if count[p] >= need]
        if reached:
            most = max(count[p] for p in reached)
            self.win([next(p for p in reached if count[p] == most)], "achievements")

    def win(self, players: list[int], reason: str, card: str | None = None):
        """These players win, with their partners ("you win" is the team's)."""
        players = teams.winners(self.state, players)
        self.state["result"] = {"winners": players, "reason": reason, "card": card}
        self.emit("game_over", winners=players, reason=reason, card=card)
        raise GameOver()

    def lose(self, p: int, card: str | None = None):
        st = self.state
        if teams.has_teams(st):   # "you lose" is the team's: the other team wins
            self.win(self.opponents(p), "effect", card)
        alive = [q for q in range(len(st["players"])) if not st["players"][q].get("eliminated") and q != p]
        if len(alive) == 1:
            self.win(alive, "effect", card)
        if not self.rule("elimination"):
            raise RuntimeFault("a player lost in a game of more than two players, and this edition has "
                                  "no elimination rule", card)
        pl = st["players"][p]
        pl["eliminated"] = True
        for cid in pl["hand"] + pl["score"] + [c for pile in pl["board"].values() for c in pile["cards"]]:
            remove_from_anywhere(st, cid)
            place(self.cards, st, cid, "junk", None)
        for a in list(pl["achievements"]):
            pl["achievements"].remove(a)
            if isinstance(a, int):
                place(self.cards, st, a, "junk", None)
            else:
                st["junk_special"].append(a)
        self.emit("eliminated", player=p, card=card)

    def end_by_score(self):
        """The greatest (team) score wins; a tie goes to more (pooled) achievements, then it is a draw."""
        st = self.state
        # an eliminated player cannot win
        sides = [t[0] for t in teams.teams_of(st) if any(not st["players"][q].get("eliminated") for q in t)]
        scores = [team_points(self.cards, st, p, self.icon_cache) for p in sides]
        best = max(scores)
        tied = [p for p, s in zip(sides, scores) if s == best]
        if len(tied) > 1:
            ach = [held_achievements(self.cards, st, p, self.icon_cache) for p in tied]
            tied = [p for p, a in zip(tied, ach) if a == max(ach)]
        self.win(tied, "score")

