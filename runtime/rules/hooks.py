"""Hook points: the moments at which the engine runs a set's rules.

A set's ``rules/*.inno`` files hold ``hook POINT(params) { ... }`` blocks,
compiled into the bundle (``sets.<set>.hooks``: point, params, source,
chunk; the table of points is innoscript/core/hook_points.py).  When a point is reached
the engine runs every hook of that point in order: by the order each hook
declares (``hook meld_action(melded, covered) order 50 { ... }``, lower
first, 0 when not given), then sets in name order and each set's hooks in
file order, with "you" the active player and the point's arguments in the
hook's first locals.  The declared order is how sets' hooks at one point
keep the printed pipeline whatever the sets' names (after a Meld action:
the city steps, then dig, then promotion).

A hook runs like a dogma effect: its frames live on the stack of
``state["dogma"]`` (a hook context: ``hook`` names the point, ``card`` is
-1), so it can ask decisions, be saved and loaded half-way, be undone with
its action and share the action's budgets.  A hook frame's ``card`` is
``HOOK`` and its ``effect`` the hook's index in ``Cards.hooks``.

Points run here:

- ``meld_action(melded, covered)``: after a Meld action (never after a meld
  inside an effect), with the card melded and the card it covered (none when
  it started a pile); the action ends when the hooks are done, so the checks
  at the end of an action come after them;
- ``after VERB(card, from)``: an event hook, right after a move by a set's
  zone verb (a dig) or the language's meld, tuck, junk or splay: its items go
  on the stack as a work list of their own and the running frame stops after
  its instruction (``events_due``), so they run at once, with "you" the
  player who made the move;
- ``action NAME(card)``: a set's action, taken as one of the turn's;
- ``turn_start``: at the start of each turn, before its first action; when
  the hooks are done, the checks at the end of an action run (special
  achievements checked then, the win by achievements) and the turn's
  actions follow.
"""
from __future__ import annotations

from ..machine.frames import HOOK


def new_hook_frame(cards, k: int, you: int, args: list) -> dict:
    chunk = cards.hooks[k]["chunk"]
    local = [None] * len(chunk["locals"])
    n = min(len(args), len(local))     # the compiler gives a hook one local per parameter of its point
    local[:n] = args[:n]
    return {"card": HOOK, "effect": k, "kind": chunk["kind"], "pc": 0, "stack": [], "locals": local,
            "you": you, "me": you, "did": False, "sel_full": None}


class Hooks:
    """Running the sets' hooks at the hook points. Mixed into the Engine (runtime/rules/engine.py)."""

    def hooks_at(self, point: str) -> list[int]:
        return list(self.cards.hooks_at.get(point, ()))

    def run_hooks(self, point: str, args: list) -> bool:
        """Start the hooks of a point for the active player; False when there are none (nothing
        changes). They run from the main loop in phase "dogma", as a hook context."""
        found = self.hooks_at(point)
        st = self.state
        p = st["turn"]["active"]
        events = self.__dict__.pop("_pending_events", [])    # the action's own moves' event hooks come first
        if not found and not events or st["players"][p].get("eliminated"):
            return False
        st["dogma"] = {"card": -1, "hook": point, "active": p, "icon": None,
                       "counts": [0] * len(st["players"]), "vars": {}, "records": [], "changes": 0,
                       "shared_change": False, "stack": [{"work": events + [[HOOK, k, p, p, False, args] for k in found]}],
                       "prelude": [], "prelude_frame": {}, "excluded": [], "built": True}
        st["phase"] = "dogma"
        return True

    def follow_move(self, verb: str, p: int, cid: int, origin) -> None:
        """A verb moved a card for player p (a splay: its pile's top card, ``origin`` the direction it had): the
        event hooks of that verb ('hook after VERB') run at once, before the rest of the effect or hook that made
        the move: they go on the stack as a work list of their own, and ``events_due`` makes the running frame
        stop after its instruction (runtime/machine/vm.py), to go on when they are done. A move made outside any
        effect or hook (the Meld action's own meld) is kept for the hooks that the action starts next
        (``run_hooks``)."""
        found = self.cards.hooks_at.get(f"after {verb}")
        if not found:
            return
        items = [[HOOK, k, p, p, False, [[cid], origin or ""]] for k in found]
        d = self.state["dogma"]
        if d is None or not d["stack"]:
            self.__dict__.setdefault("_pending_events", []).extend(items)
            return
        d["stack"].append({"work": items})
        self.events_due = True

    def start_turn(self) -> None:
        """The turn has begun: its turn_start hooks run before the first action (as an action of their own
        for what a card remembers of 'this action': the boards it has been on)."""
        self.state["turn"]["boards"] = {}
        self.state["turn"]["drawn"] = [0] * len(self.state["players"])   # draws this turn, each player's
        self.__dict__.pop("_pending_events", None)     # the set-up's melds are no action's
        self.run_hooks("turn_start", [])

    def _end_hooks(self, d: dict) -> None:
        """A hook context is over: a Meld action's ends the action; turn_start's lets the turn begin."""
        if d["hook"] == "turn_start":
            st = self.state
            st["dogma"] = None
            if st["phase"] == "over":
                return
            st["phase"] = "action"
            if d.get("claims"):
                self._claim_queued(d["claims"])
            # what the hooks did is checked as at the end of an action (a free action at the start of a
            # turn, say); the turn's actions are still all to come
            self.check_specials("end_of_action")
            if self.rule("achievement_win_check") == "end_of_action":
                self.check_win_by_achievements(final=True)
            if st["phase"] != "over" and st["players"][st["turn"]["active"]].get("eliminated"):
                st["turn"]["actions_left"] = 0      # out of the game during the turn-start hooks: no actions
                self._next_turn()
            return
        self._end_action()
