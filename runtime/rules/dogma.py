"""Dogma actions: icon counts, sharing, demands, the prelude of Parley and executing other cards.

A Dogma action freezes every player's count of the card's featured icon.
With Parley (manifest ``parley``, 4+ players) non-neighbours first pay,
share or avoid (the prelude).  Then one work list is built (``effect_list``):
the visible cell effects of the card's pile (a set's, such as echo effects),
deepest first, then each demand for every opponent with fewer icons, each
compel for every opponent with as many or more, each non-demand (and each
cell effect) for every player with as many or more (the active player last).  ``state["dogma"]["stack"]`` holds work lists and VM
frames; a frame runs until it finishes or asks a decision, so the whole
action is resumable from a saved game.  Executing a card pushes a new work
list with its own record (``action_vars``): the cell effects a set's rule
``execute_cell_effects`` gives (none, or the card's pile's, as a Dogma's), then its
non-demands.  A free Dogma (``dogma X``) pushes a whole Dogma's work list,
marked ``free``, with its own counts, record, sharers and sharing bonus.  When the stack is empty the
sharing bonus is drawn (manifest ``sharing_bonus``/``sharing_bonus_when``)
and the action ends.
"""
from __future__ import annotations

from ..machine import tier
from ..machine.faults import RuntimeFault
from ..machine.frames import HOOK, new_frame
from ..state import teams
from ..state.board import (board_table, cards_cell_effects, cell_effects, highest_top_value, pile_cell_effects,
                           top_cards)
from .hooks import new_hook_frame

MAX_EXECUTE_DEPTH = 24         # nested executes before an endless chain is stopped


class Dogma:
    """The Dogma action: sharing, demands, executing cards. Mixed into the Engine (runtime/rules/engine.py)."""

    def _start_dogma(self, p: int, cid: int):
        st = self.state
        icon = self.cards.cards[cid]["dogma"]
        counts = self.icon_counts(icon)
        # Parley (4-5 players): the cost of another player's card, and non-adjacent players'
        # choice to share or to avoid demands, are settled before any effect runs.
        prelude = []
        if self._parley():
            if cid not in top_cards(st, p):
                prelude.append(["pay", p])
            prelude += self._parley_steps(p, cid, counts)
        st["dogma"] = {"card": cid, "active": p, "icon": icon, "counts": counts, "vars": {},
                       "records": [], "changes": 0, "shared_change": False, "stack": [], "prelude": prelude,
                       "prelude_frame": {}, "excluded": [], "built": False}
        st["phase"] = "dogma"
        self.emit("dogma", player=p, card=cid, icon=icon, counts=counts)

    def icon_counts(self, icon: str) -> list[int]:
        """Every player's count of the icon (-1 for an eliminated player), from the icon tables kept per
        player revision."""
        st = self.state
        counts = []
        for q, pl in enumerate(st["players"]):
            counts.append(-1 if pl.get("eliminated") else board_table(self.cards, st, q, self.icon_cache)[1].get(icon, 0))
        return counts

    def _parley(self) -> bool:
        players = self.state["players"]
        return len(players) >= 4 and bool(self.rule("parley")) and sum(not pl.get("eliminated") for pl in players) >= 4

    def _parley_steps(self, p: int, cid: int, counts: list[int]) -> list[list]:
        """Each non-adjacent player's parley choice for a dogma of cid by p: to share (as many icons or
        more), or to avoid its demands (fewer, with a card in hand)."""
        st = self.state
        steps = []
        for q in self.players_from(p, False):
            if self.adjacent(p, q) or teams.same_team(st, p, q):
                continue   # a partner shares and is never demanded by the team rules, with no cost
            if counts[q] >= counts[p]:
                steps.append(["share", q])
            elif self.cards.has_demand[cid] and st["players"][q]["hand"]:
                steps.append(["avoid", q])
        return steps

    def _prelude(self, steps: list, excluded: list, holder: dict, cid: int) -> None:
        """Ask each parley step in turn (the answers wait in ``holder``); a player who does not pay to
        share, or pays to avoid, joins ``excluded``."""
        st = self.state
        while steps:
            step, q = steps[0]
            hand = st["players"][q]["hand"]
            if step == "share" and not hand:  # nothing to return: cannot share
                steps.pop(0)
                excluded.append(q)
                continue
            if step == "pay":
                chosen = self.ask({"player": q, "kind": "select_cards", "options": list(hand), "min": 1, "max": 1,
                                   "source": self.cards.name[cid],
                                   "prompt": "return a card from your hand to use another player's card"}, holder)
            else:
                chosen = self.ask({"player": q, "kind": "select_cards", "options": list(hand), "min": 0, "max": 1,
                                   "optional": True, "source": self.cards.name[cid],
                                   "prompt": "return a card from your hand to share this dogma" if step == "share"
                                   else "return a card from your hand to avoid its demands"}, holder)
            steps.pop(0)
            for c in chosen:
                self._put(q, c, "return")
            if step == "share" and not chosen or step == "avoid" and chosen:
                excluded.append(q)

    def _run_prelude(self):
        d = self.state["dogma"]
        self._prelude(d["prelude"], d["excluded"], d["prelude_frame"], d["card"])
        if not d["built"]:
            d["built"] = True
            cid, p = d["card"], d["active"]
            d["stack"].append({"work": self.effect_list(cid, p, d["counts"], set(d["excluded"]),
                                                        self.pile_cell_effects(cid))})

    # ------------------------------------------------------------ the effect list
    def pile_cell_effects(self, cid: int) -> list[tuple[int, int]]:
        return pile_cell_effects(self.cards, self.state, cid)

    def effect_list(self, cid: int, p: int, counts: list[int], out: set, cells: list, twice: bool = False) -> list[list]:
        """The work list of a dogma of cid by p: the cell effects ``cells`` ((card, effect) pairs) in order,
        then cid's demands, compels and non-demands in printed order. Cell effects and non-demands go to every player with as
        many icons or more, the active player last; demands to each opponent with fewer, compels to each
        with as many or more; players in ``out`` (parley) take no part. Entries: [card, effect, you, me,
        sharer]; only an opponent's sharing earns the sharing bonus. ``twice`` (a Dogma doubling its effects,
        Endorse): the launcher performs each cell effect and non-demand twice, the sharers once; each demand and
        compel goes round twice."""
        st = self.state
        mine = counts[p]
        sharers = []
        for q in self.players_from(p, True):
            if counts[q] >= mine and q not in out:
                sharers.append((q, not teams.same_team(st, p, q)))   # only an opponent earns the bonus
        times = 2 if twice else 1
        items = []
        for c, e in cells:
            for q, earns in sharers:
                items += [[c, e, q, p, earns]] * (times if q == p else 1)
        for e, chunk in enumerate(self.cards.cards[cid]["effects"]):
            kind = chunk["kind"]
            if kind == "cell":
                continue
            if kind == "demand" or kind == "compel":
                round_ = [[cid, e, q, p, False] for q in self.opponents(p)
                          if (counts[q] < mine) == (kind == "demand") and q not in out]
                items += round_ * times
            else:
                for q, earns in sharers:
                    items += [[cid, e, q, p, earns]] * (times if q == p else 1)
        return [list(i) for i in items]

    def has_dogma_effects(self, cid: int) -> bool:
        return any(chunk["kind"] != "cell" for chunk in self.cards.cards[cid]["effects"])

    def may_dogma(self, cid: int) -> bool:
        """Whether a Dogma action on this top card is offered: it has dogma effects, or the edition says
        a top card without any may be used (manifest ``dogma_without_dogma_effects``; it then runs its
        pile's cell effects, if any show). A card file with no effects is not implemented and is never
        offered, unless it says the card prints none (``no_effect``)."""
        known = self.cards.may_dogma[cid]
        if known is not None:
            return known
        return bool(self.rule("dogma_without_dogma_effects"))

    def action_vars(self, frame: dict | None = None) -> dict:
        """The record of the card execution a frame belongs to ("due to this demand", Democracy's
        count): the dogma's own card uses ``vars``; each executed card starts a fresh record."""
        d = self.state["dogma"]
        rec = frame.get("record", 0) if frame else 0
        return d["vars"] if rec == 0 else d["records"][rec - 1]

    def _answer_target(self) -> dict:
        """Where the pending decision's answer goes: the waiting frame, or the dogma's prelude."""
        d = self.state["dogma"]
        return d["prelude_frame"] if d["prelude"] else d["stack"][-1]

    def _run_dogma(self):
        st = self.state
        d = st["dogma"]
        self._run_prelude()
        stack = d["stack"]
        while stack:
            top = stack[-1]
            if "parley" in top:
                self._run_free_prelude(top)
                continue
            if "work" in top:
                if not top["work"]:
                    stack.pop()
                    if "free" in top:
                        self._end_free_dogma(top["free"])
                    continue
                card, effect, you, me, sharer = top["work"][0][:5]
                item = top["work"].pop(0)
                if st["players"][you].get("eliminated"):
                    continue   # eliminated players take no further part
                if card == HOOK:
                    stack.append(new_hook_frame(self.cards, effect, you, item[5]))
                    h = self.cards.hooks[effect]
                    self.emit("hook", point=h["point"], set=h["set"], source=h["source"], player=you)
                    continue
                frame = new_frame(self.cards, card, effect, you, me, sharer, d["changes"], top.get("depth", 0),
                                     top.get("record", 0))
                for key in ("must", "decider"):    # an execution's options hold for each of its frames
                    if key in top:
                        frame[key] = top[key]
                if "free" in top and top["free"].get("marks") and card == top["free"]["card"]:
                    frame["marks"] = list(top["free"]["marks"])    # X's own effects, not its pile's other cards'
                stack.append(frame)
                if frame["kind"] == "cell":     # the cell's word, and a flag of it ('echo': true), as marks are
                    cell = self.cards.cards[card]["effects"][effect]["cell"]
                    self.emit("effect", card=card, effect=effect, player=you, cell=cell, **{cell: True})
                else:
                    self.emit("effect", card=card, effect=effect, player=you)
                continue
            if st["players"][top["you"]].get("eliminated") and top.get("kind") != "condition":
                stack.pop()
                continue
            status = tier.run(self, top)
            if status == "done":
                stack.pop()
                self._finish_frame(top)
            elif status == "end_dogma":
                # the dogma action is complete: the innermost one (a free Dogma's, else the action's)
                k = self._innermost_free()
                if k is None:
                    stack.clear()
                else:
                    free = stack[k]["free"]
                    del stack[k:]
                    self._end_free_dogma(free)
        # the dogma action is over: the sharing bonus, then the action ends
        if self._sharing_bonus_due(d):
            self.emit("sharing_bonus", player=d["active"])
            self.draw_one(d["active"], highest_top_value(self.cards, st, d["active"]))
            self.after_change()
        if d.get("hook"):
            self._end_hooks(d)
        else:
            self._end_action()

    def _finish_frame(self, frame):
        st = self.state
        you = frame["you"]
        st["players"][you]["revealed"].clear()   # what the effect revealed is no longer shown
        if frame.get("sharer"):
            # the sharing is the innermost dogma's: a free Dogma's own, else the action's
            k = self._innermost_free()
            owner = st["dogma"] if k is None else st["dogma"]["stack"][k]["free"]
            owner["shared"] = True
            if st["dogma"]["changes"] > frame["changes_at_start"]:
                owner["shared_change"] = True

    def _innermost_free(self) -> int | None:
        """The stack index of the innermost free Dogma running, None when only the action's runs."""
        stack = self.state["dogma"]["stack"]
        return next((k for k in range(len(stack) - 1, -1, -1) if "free" in stack[k]), None)

    def _sharing_bonus_due(self, d: dict) -> bool:
        """The manifest's sharing_bonus_when: "shared" (an opponent performed a shared effect) or
        "shared_change" (a shared effect changed the game). An eliminated player draws nothing."""
        if self.rule("sharing_bonus") == "none" or self.state["players"][d["active"]].get("eliminated"):
            return False
        if self.rule("sharing_bonus_when") == "shared":
            return bool(d.get("shared"))
        return bool(d["shared_change"])

    def free_dogma(self, frame, cid: int, mark: str | None = None, own_icons: bool = False,
                   cells: str = "pile", cells_of: list = (), twice: bool = False):
        """'dogma X [, MARK] [OPTIONS]': a full Dogma of X by the frame's player, inside the running action or
        hook: X's featured icon counted for every player now, its own sharing, demands and cell effects
        (X's pile's when X is a top card) and its own sharing bonus at its end. Its work list carries
        ``free`` (card, active player, marks, shared, shared_change) and its own record; X's own effects
        carry the mark a set declared ('dogma X, foreseen': 'this card was foreseen').

        Options (docs/engine-concepts.md, "Dogma options"): ``own_icons`` ('counting its icons') adds X's own
        visible icons, as a top card's, to the launcher's count of its featured icon (only the launcher's);
        ``cells`` says which cell effects run first: "pile" (X's pile's, as a Dogma action's), "none" ('running
        no cell effects') or "given" ('running the cell effects of CARDS': the visible ones of ``cells_of``). The free record keeps the cell effects so chosen
        (``cells``: [card, effect] pairs, fixed when the Dogma starts) and ``own_icons``, only when given."""
        st = self.state
        depth = self._nesting(frame)
        you = frame["you"]
        icon = self.cards.cards[cid]["dogma"]
        counts = self.icon_counts(icon)
        if own_icons and counts[you] >= 0:
            counts[you] += self.cards.card_icons(cid, "none", True).count(icon)
        chosen = None if cells == "pile" else [] if cells == "none" else self.cards_cell_effects(list(cells_of))
        # each Dogma mark of the sets in play is a flag of the event (foreseen: true or false)
        flags = {m: m == mark for m in self.cards.marks}
        options = {}
        if own_icons:
            options["own_icons"] = True
        if twice:
            options["twice"] = True
        if cells != "pile":
            options["cell_effects"] = cells
        self.emit("dogma", player=you, card=cid, icon=icon, counts=counts, free=True, **flags,
                  **({"mark": mark} if mark else {}), **options)
        records = st["dogma"].setdefault("records", [])
        records.append({})
        free = {"card": cid, "active": you, "marks": [mark] if mark else [], "shared": False, "shared_change": False,
                "counts": counts}     # the counts it started with (an execution 'as if on this card' reads them)
        if own_icons:
            free["own_icons"] = True
        if twice:
            free["twice"] = True
        if chosen is not None:
            free["cells"] = [list(ce) for ce in chosen]
        entry = {"work": [], "depth": depth, "record": len(records), "free": free}
        steps = self._parley_steps(you, cid, counts) if self._parley() else []
        if steps:   # non-adjacent players choose first, as in a Dogma action (no card is paid to use X)
            st["dogma"]["stack"].append({"parley": steps, "excluded": [], "counts": counts, "then": entry})
        else:
            entry["work"] = self.effect_list(cid, you, counts, set(), self._free_cells(free), free.get("twice", False))
            st["dogma"]["stack"].append(entry)

    def _free_cells(self, free: dict) -> list:
        """The cell effects a free Dogma runs first: those its options fixed, else its card's pile's."""
        if "cells" in free:
            return [tuple(ce) for ce in free["cells"]]
        return self.pile_cell_effects(free["card"])

    def cards_cell_effects(self, cids: list) -> list[tuple[int, int]]:
        """The visible cell effects of these cards as they lie, as (card, effect): a card on a board shows the
        cell positions its pile's splay shows (a top card all), each pile's cards deepest first, the piles in the
        order the cards first name them; a card elsewhere brings all its own."""
        ncards = len(self.cards.cards)
        if any(not isinstance(c, int) or isinstance(c, bool) or not 0 <= c < ncards for c in cids):
            raise RuntimeFault("'running the cell effects of' is given something that is not a card")
        return cards_cell_effects(self.cards, self.state, list(dict.fromkeys(cids)))

    def _run_free_prelude(self, top: dict) -> None:
        """A free Dogma's parley choices; then its work list replaces them on the stack."""
        entry = top["then"]
        cid, you = entry["free"]["card"], entry["free"]["active"]
        self._prelude(top["parley"], top["excluded"], top, cid)
        entry["work"] = self.effect_list(cid, you, top["counts"], set(top["excluded"]), self._free_cells(entry["free"]),
                                           entry["free"].get("twice", False))
        self.state["dogma"]["stack"][-1] = entry

    def _end_free_dogma(self, free: dict) -> None:
        """A free Dogma's work is done: its own sharing bonus."""
        if self._sharing_bonus_due({"active": free["active"], **free}):
            self.emit("sharing_bonus", player=free["active"], card=free["card"])
            self.draw_one(free["active"], highest_top_value(self.cards, self.state, free["active"]))
            self.after_change()

    def _nesting(self, frame) -> int:
        depth = frame.get("depth", 0) + 1
        if depth > MAX_EXECUTE_DEPTH:
            raise RuntimeFault(f"more than {MAX_EXECUTE_DEPTH} nested executions: an endless chain was stopped",
                                  self.cards.name[frame["card"]])
        return depth

    def execute_cell_effects(self, cid: int) -> list[tuple[int, int]]:
        """The cell effects (card, effect) an execution of cid runs first, by the rule ``execute_cell_effects``
        (a set in play overrides the edition's: its manifest's ``overrides``): "pile", the visible cell effects
        of the pile cid lies on, deepest first (cid's own only when it is not a top card), as a Dogma would
        run them; "none" (or no rule): none."""
        return self.pile_cell_effects(cid) if self.rule("execute_cell_effects") == "pile" else []

    def running_targets(self, you: int) -> tuple[str | None, list[int]]:
        """The running Dogma's featured icon and the opponents of ``you`` it made vulnerable (fewer of that icon
        than its launcher when it started; not parley's excluded), for 'execute X as if on this card': the
        innermost free Dogma's (its counts kept in its record), else the action's; in a hook outside any
        Dogma, no icon and nobody."""
        st = self.state
        d = st["dogma"]
        k = self._innermost_free()
        if k is not None:
            free = d["stack"][k]["free"]
            icon, active = self.cards.cards[free["card"]]["dogma"], free["active"]
            counts, out = free.get("counts") or self.icon_counts(icon), set()
        elif d.get("hook") or d.get("icon") is None:
            return None, []
        else:
            icon, active, counts, out = d["icon"], d["active"], d["counts"], set(d.get("excluded", []))
        return icon, [q for q in self.opponents(you)
                      if q != active and q not in out and 0 <= counts[q] < counts[active]]

    def execute(self, frame, cid: int, kind: str, must: bool = False, decider: int | None = None):
        """'execute' / 'self-execute': the card's non-demands; 'super-execute' and 'fully-execute' (the same
        rule, the latter's printed name) add its demands with every opponent vulnerable. The cell effects of
        ``execute_cell_effects`` run first, only when at least one of the card's own effects runs.
        'as-if' ('execute X as if on this card', expansion-rules §2.7): X's own cell effects, then its demands
        of the opponents the running Dogma made vulnerable (``running_targets``), then its non-demands, all
        for the performer alone (not shared). ``must`` ('replacing may with must'), or a frame already under
        it: every 'may' of the effects it runs, and of the executions inside them, is done where it can be.
        ``decider`` ('decided by P'): P makes every decision of the performer's in it, and inside it, and sees
        the performer's hidden cards meanwhile (``deciders``)."""
        opts = self._execution_options(frame, must, decider)
        if kind == "as-if":
            return self._execute_as_if(frame, cid, opts)
        depth = self._nesting(frame)
        you = frame["you"]
        k = self._innermost_free()
        executing = frame.get("depth", 0) > (0 if k is None else self.state["dogma"]["stack"][k]["depth"])
        if kind in ("self-execute", "super-execute", "fully-execute") and self.rule("chain_achievement") and executing:
            # Self- or super-executing while already executing: first draw and achieve an 11.
            self.emit("chain_achievement", player=you, card=cid)
            self.draw_effect({"you": you, "kind": "chain"}, 1, self.cards.max_age, "achieve")
        # the card's non-demands, and a super-execute's demands for every opponent, in printed order; before
        # them the cell effects the sets' rule execute_cell_effects gives, and none when no effect of the card runs
        items = []
        for e, chunk in enumerate(self.cards.cards[cid]["effects"]):
            if chunk["kind"] == "non_demand":
                items.append([cid, e, you, you, False])
            elif kind in ("super-execute", "fully-execute") and chunk["kind"] == "demand":
                items += [[cid, e, q, you, False] for q in self.opponents(you)]
        if items:
            items[:0] = [[c, e, you, you, False] for c, e in self.execute_cell_effects(cid)]
        self.emit("execute", player=you, card=cid, kind=kind, **opts)
        records = self.state["dogma"].setdefault("records", [])
        records.append({})    # the executed card keeps its own record, empty at the start
        self.state["dogma"]["stack"].append({"work": items, "depth": depth, "record": len(records), **opts})

    @staticmethod
    def _execution_options(frame, must: bool, decider: int | None) -> dict:
        """The options an execution's work list carries: its own, and those of the frame it runs in."""
        opts = {}
        if must or frame.get("must"):
            opts["must"] = True
        if decider is not None and decider != frame["you"]:
            opts["decider"] = [frame["you"], decider]
        elif frame.get("decider"):
            opts["decider"] = list(frame["decider"])
        return opts

    def _execute_as_if(self, frame, cid: int, opts: dict):
        depth = self._nesting(frame)
        you = frame["you"]
        icon, vulnerable = self.running_targets(you)
        items = [[c, e, you, you, False] for c, e in cell_effects(self.cards, cid)]
        for e, chunk in enumerate(self.cards.cards[cid]["effects"]):
            if chunk["kind"] == "demand":
                items += [[cid, e, q, you, False] for q in vulnerable]
            elif chunk["kind"] == "non_demand":
                items.append([cid, e, you, you, False])
        self.emit("execute", player=you, card=cid, kind="as-if", icon=icon, vulnerable=vulnerable, **opts)
        records = self.state["dogma"].setdefault("records", [])
        records.append({})
        self.state["dogma"]["stack"].append({"work": items, "depth": depth, "record": len(records), **opts})
