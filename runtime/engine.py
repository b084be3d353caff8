"""The rules engine: set-up, turns, actions, dogma, achievements and winning.

The engine drives the VM (runtime/vm.py) and owns every decision.  All
progress is kept in the JSON state (runtime/state.py), so the engine can be
rebuilt from a saved game at any decision.  Everything that differs between
editions comes from the bundle's manifest: ages, achievements to win,
opening turns, special achievements and their conditions, rule switches.

Decisions are dicts ``{"id", "player", "kind", "options", "min", "max",
"optional", "source", "prompt"}``; kinds: ``initial_meld``, ``action``,
``select_cards``, ``yes_no``, ``choose`` (with ``what``: color, value, player,
icon, two_colors), ``choose_option``, ``splay_color``, ``order``.
"""
from __future__ import annotations

import json
import random

from . import readsets, teams, tier, vm
from .options import normalise as normalise_options
from .state import (Cards, GameOver, bump, draw_age, highest_top_value, locate, new_state, place, points,
                    remove_from_anywhere, top_cards, icon_count, board_icon_count, unshow)

# Budgets cover a whole action (a dogma with all its answers), so a loop that asks a question
# every time round cannot run for ever; both are far above what any real action uses.
STEP_BUDGET = 200_000          # VM instructions per action
DECISION_BUDGET = 250          # decisions asked per action
MAX_EXECUTE_DEPTH = 24         # nested executes before an endless chain is stopped

PAST = {"meld": "melded", "score": "scored", "tuck": "tucked", "return": "returned", "junk": "junked",
        "reveal": "revealed", "keep": "kept", "achieve": "achieved", "remove": "removed", "take": "taken",
        "transfer": "transferred", "exchange": "exchanged", "draw": "drawn"}


class IllegalAnswer(Exception):
    """An answer that the pending decision does not allow; the state is unchanged."""


def _key(v):
    """A hashable, type-strict form of an answer or option: True, 1 and 1.0 all differ
    (Python's True == 1 == 1.0 would let a flag pass for a card id). Unhashable
    or nested values give a key that matches no option."""
    if v is None or isinstance(v, (bool, int, float, str)):
        return (type(v).__name__, v)
    if isinstance(v, dict) and all(isinstance(k, str) for k in v):
        items = []
        for k, x in v.items():
            if not (x is None or isinstance(x, (bool, int, float, str))):
                return ("unmatched", id(v))
            items.append((k, type(x).__name__, x))
        return ("dict", frozenset(items))
    return ("unmatched", id(v))


def _strict_in(value, options) -> bool:
    k = _key(value)
    return any(k == _key(o) for o in options)


def _show(value, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


class Engine:
    """One game: the bundle's cards plus the JSON state."""

    def __init__(self, bundle: dict, state: dict):
        self.cards = Cards(bundle)
        self.state = state
        self.events: list[dict] = []
        self.budget = STEP_BUDGET
        self.trace: set | None = None   # set to a set to record executed pcs and branch edges (coverage)
        self.icon_cache: dict = {}       # (board revision, cards) -> icon counts; never saved
        self.transactional = True        # roll back a failed answer (simulation turns this off for speed)
        self._specials_seen = None       # special (name, player) -> fingerprint of its reads when last tested
        self.skip_unchanged_specials = True   # False: test every condition at every check (same games, slower)
        self.tier = tier.default_tier()  # "compiled": fresh frames run as Python functions (runtime/tier.py); "vm"

    # ------------------------------------------------------------ creation
    @classmethod
    def new_game(cls, bundle: dict, players: int = 2, seed: int = 0, names: list[str] | None = None,
                 secret: str | None = None, options: dict | None = None) -> "Engine":
        m = bundle["manifest"]
        if not m["players"]["min"] <= players <= m["players"]["max"]:
            raise ValueError(f"this edition is for {m['players']['min']}-{m['players']['max']} players, not {players}")
        options = normalise_options(options, players)
        names = names or [f"Player {i + 1}" for i in range(players)]
        cards = Cards(bundle)
        state = new_state(cards, names, seed, secret, options)
        state.update(teams.setup(options, seed))
        rng = random.Random(seed)
        for age in cards.ages:
            pile = [c["id"] for c in cards.cards if c["age"] == age]
            rng.shuffle(pile)
            state["supply"][str(age)] = pile
        for age in m["standard_achievement_ages"]:
            state["available"]["standard"].append(state["supply"][str(age)].pop(0))
        for _ in range(m["initial_hand"]):
            for p in range(players):
                state["players"][p]["hand"].append(state["supply"][str(min(cards.ages))].pop(0))
        engine = cls(bundle, state)
        engine.advance()
        return engine

    # ------------------------------------------------------------ public surface
    @property
    def pending(self):
        return self.state["pending"]

    @property
    def over(self) -> bool:
        return self.state["phase"] == "over"

    def legal_actions(self) -> list[dict]:
        p = self.state["pending"]
        return list(p["options"]) if p and p["kind"] == "action" else []

    def answer(self, answer, player: int | None = None) -> list[dict]:
        """Answer the pending decision; return the events that followed.

        An illegal answer raises IllegalAnswer and leaves the state exactly as it was.
        """
        pending = self.state["pending"]
        if self.state["phase"] == "over" or pending is None:
            raise IllegalAnswer("the game is over; there is nothing to answer")
        if player is not None and player != pending["player"]:
            raise IllegalAnswer(f"decision {pending['id']} is for player {pending['player']}, not player {player}")
        value = self.validate(pending, answer)
        # restored if anything below fails, so the state is never half-changed (simulation may skip it)
        saved = json.dumps(self.state) if self.transactional else None
        self.events = []
        kind = pending["kind"]
        dogma = self.state["dogma"]
        self.budget = dogma.get("budget", STEP_BUDGET) if dogma is not None and kind != "action" else STEP_BUDGET
        try:
            self.state["pending"] = None
            try:
                if kind == "initial_meld":
                    self._initial_meld(pending["player"], value)
                elif kind == "action":
                    self._do_action(value)
                else:
                    self._answer_target()["answer"] = value
            except GameOver:
                self._game_over()
            try:
                self.advance()
            except vm.BudgetExhausted as err:
                if kind == "action":
                    raise      # nothing was shown to anyone yet: refuse the action, as it was
                self._stop_dogma(err)
            if self.state["dogma"] is not None:
                self.state["dogma"]["budget"] = self.budget
        except Exception:
            if saved is not None:
                self.restore(json.loads(saved))
            raise
        return self.events

    def _stop_dogma(self, err) -> None:
        """A dogma action ran out of its budget after players had answered for it: what its effects
        did stands, the rest is skipped (no sharing bonus) and the game goes on, with an event
        naming the card and line."""
        st = self.state
        d = st["dogma"]
        p = d["active"]
        for frame in d["stack"]:
            if "you" in frame:
                st["players"][frame["you"]]["revealed"].clear()
        st["pending"] = None
        self.emit("dogma_stopped", player=p, source=err.card, line=err.line, column=err.column, message=str(err))
        try:
            self._end_action()
        except GameOver:
            self._game_over()
        self.advance()

    def restore(self, state: dict) -> None:
        """Put back an earlier state. The derived caches are keyed by revision numbers that the
        abandoned path also used, so they are dropped."""
        self.state = state
        self.icon_cache.clear()
        self._specials_seen = None

    # ------------------------------------------------------------ validation
    def validate(self, pending: dict, answer):
        kind, options = pending["kind"], pending["options"]
        if kind in ("action",):
            if not _strict_in(answer, options):
                raise IllegalAnswer(f"{_show(answer)} is not a legal action now")
            return answer
        if kind == "yes_no":
            if not isinstance(answer, bool):
                raise IllegalAnswer("answer yes (true) or no (false)")
            return answer
        if kind == "choose_option":
            if not isinstance(answer, int) or isinstance(answer, bool) or not 0 <= answer < len(options):
                raise IllegalAnswer(f"choose an option from 0 to {len(options) - 1}")
            return answer
        if kind in ("initial_meld", "choose", "splay_color") and pending.get("max", 1) == 1 and kind != "select_cards":
            if answer is None and pending.get("optional"):
                return None
            if not _strict_in(answer, options):
                raise IllegalAnswer(f"{_show(answer)} is not one of the options {_show(options)}")
            return answer
        if kind in ("select_cards", "choose"):
            if not isinstance(answer, list) or len(set(map(_key, answer))) != len(answer):
                raise IllegalAnswer("answer with a list of distinct options")
            bad = [a for a in answer if not _strict_in(a, options)]
            if bad:
                raise IllegalAnswer(f"{_show(bad)} are not among the options")
            if not pending["min"] <= len(answer) <= pending["max"]:
                raise IllegalAnswer(f"choose between {pending['min']} and {pending['max']}, not {len(answer)}")
            if "sizes" in pending and len(answer) not in pending["sizes"]:
                raise IllegalAnswer(f"choose {' or '.join(map(str, pending['sizes']))} cards, not {len(answer)}")
            if pending.get("one_per_color"):
                colors = [self.cards.color[c] for c in answer]
                if len(set(colors)) != len(colors) or len(answer) != len({self.cards.color[c] for c in options}):
                    raise IllegalAnswer("choose exactly one card of each colour")
            return answer
        if kind == "order":
            if not isinstance(answer, list) or sorted(map(_key, answer), key=repr) != sorted(map(_key, options), key=repr):
                raise IllegalAnswer("answer with the pile's cards in their new order, top first")
            return answer
        raise IllegalAnswer(f"unknown decision kind {kind}")

    # ------------------------------------------------------------ main loop
    def advance(self) -> None:
        """Run until a decision is pending or the game is over."""
        st = self.state
        try:
            while st["phase"] != "over" and st["pending"] is None:
                phase = st["phase"]
                if phase == "setup":
                    self._ask_initial_melds()
                elif phase == "action":
                    self._ask_action()
                elif phase == "dogma":
                    self._run_dogma()
        except vm.NeedDecision:
            return
        except GameOver:
            self._game_over()

    def _game_over(self):
        st = self.state
        st["phase"] = "over"
        st["pending"] = None
        st["dogma"] = None

    def ask(self, decision: dict, frame: dict | None = None):
        """Return the frame's answer if it has one; otherwise make the decision pending and stop."""
        if frame is not None and "answer" in frame:
            return frame.pop("answer")
        st = self.state
        d = st["dogma"]
        if d is not None:
            d["asked"] = d.get("asked", 0) + 1
            if d["asked"] > DECISION_BUDGET and frame is not None:
                raise vm.budget_fault(self, frame, f"decision budget exhausted: more than {DECISION_BUDGET} "
                                                   "decisions in one action; the effect was stopped")
        st["decisions"] += 1
        decision.setdefault("optional", False)
        decision.setdefault("min", 1)
        decision.setdefault("max", 1)
        if frame is not None and frame.get("card", -1) >= 0:
            decision.setdefault("source", self.cards.name[frame["card"]])
            if decision["kind"] == "select_cards":
                decision.setdefault("purpose", self._purpose(frame))
        decision["id"] = st["decisions"]
        st["pending"] = decision
        raise vm.NeedDecision()

    def _purpose(self, frame) -> str:
        """What the chosen cards are for (meld, score, return, transfer, ...), read from the bytecode
        after the choice, so frontends and bots can say "choose a card to return"."""
        from innoscript import opcodes as O
        code = self.cards.cards[frame["card"]]["effects"][frame["effect"]]["code"]
        for ins in code[frame["pc"] + 1: frame["pc"] + 8]:
            if ins[0] == O.MOVE:
                return O.ENUMS["verb"][ins[1]]
            if ins[0] == O.TRANSFER:
                return "transfer"
            if ins[0] == O.EXCHANGE:
                return "exchange"
            if ins[0] == O.STORE:
                return "choose"
        return "choose"

    def emit(self, type_: str, **data) -> None:
        self.events.append({"type": type_, **data})

    # ------------------------------------------------------------ set-up and turns
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

    def _initial_meld(self, p, cid):
        self.state["setup_melds"][p] = cid

    def _actions_for_turn(self, number: int) -> int:
        n = str(len(self.state["players"]))
        return 1 if number <= self.cards.manifest["opening_single_action_turns"].get(n, 0) else 2

    def _ask_action(self):
        st = self.state
        p = st["turn"]["active"]
        unimplemented = [c for c in top_cards(st, p) if not self.cards.cards[c]["effects"]]
        decision = {"player": p, "kind": "action", "options": self.compute_legal_actions(p), "prompt": "choose an action"}
        if unimplemented:
            decision["not_implemented"] = [{"type": "dogma", "card": c} for c in unimplemented]
        self.ask(decision)

    def compute_legal_actions(self, p: int) -> list[dict]:
        st = self.state
        acts = [{"type": "draw"}]
        acts += [{"type": "meld", "card": c} for c in st["players"][p]["hand"]]
        score, top = points(self.cards, st, p), highest_top_value(self.cards, st, p)
        ages = sorted({self.cards.age[c] for c in st["available"]["standard"]})
        acts += [{"type": "achieve", "age": a} for a in ages if score >= 5 * a and top >= a]
        # A card whose file has no effects yet is not implemented: its dogma is not offered.
        acts += [{"type": "dogma", "card": c} for c in top_cards(st, p) if self.cards.cards[c]["effects"]]
        if self._parley() and st["players"][p]["hand"]:
            for q in self.players_from(p, False):
                if not self.adjacent(p, q):
                    acts += [{"type": "dogma", "card": c} for c in top_cards(st, q) if self.cards.cards[c]["effects"]]
        return acts

    def _do_action(self, action: dict):
        st = self.state
        p = st["turn"]["active"]
        t = action["type"]
        self.emit("action", player=p, action=action)
        if t == "draw":
            self.draw_one(p, highest_top_value(self.cards, st, p))
            self.after_change()
            self._end_action()
        elif t == "meld":
            self._meld(p, action["card"])
            self.after_change()
            self._end_action()
        elif t == "achieve":
            cid = next(c for c in st["available"]["standard"] if self.cards.age[c] == action["age"])
            remove_from_anywhere(st, cid)
            st["players"][p]["achievements"].append(cid)
            self.emit("achieve", player=p, age=action["age"])
            self.check_win_by_achievements()
            self.after_change()
            self._end_action()
        elif t == "dogma":
            self._start_dogma(p, action["card"])

    def _end_action(self):
        st = self.state
        if st["phase"] == "over":
            return
        st["phase"] = "action"
        d, st["dogma"] = st["dogma"], None
        if d and d.get("claims"):
            self._claim_queued(d["claims"])
        if self.rule("special_achievement_check") == "end_of_action":
            self.check_specials()
        if self.rule("achievement_win_check") == "end_of_action":
            self.check_win_by_achievements(final=True)
        st["turn"]["actions_left"] -= 1
        if st["players"][st["turn"]["active"]].get("eliminated"):
            st["turn"]["actions_left"] = 0
        if st["turn"]["actions_left"] <= 0:
            n = len(st["players"])
            st["turn"]["number"] += 1
            st["turn"]["active"] = self.players_from(st["turn"]["active"], False)[0]
            st["turn"]["actions_left"] = self._actions_for_turn(st["turn"]["number"])
            st["turn"]["scored"] = [0] * n
            st["turn"]["tucked"] = [0] * n
            self.emit("turn", number=st["turn"]["number"], player=st["turn"]["active"])

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

    def rule(self, name: str):
        return self.cards.manifest["rules"].get(name)

    # ------------------------------------------------------------ dogma
    def _start_dogma(self, p: int, cid: int):
        st = self.state
        icon = self.cards.cards[cid]["dogma"]
        counts = [board_icon_count(self.cards, st, q, icon) if not st["players"][q].get("eliminated") else -1
                  for q in range(len(st["players"]))]
        # Parley (4-5 players): the cost of another player's card, and non-adjacent players'
        # choice to share or to avoid demands, are settled before any effect runs.
        prelude = []
        if self._parley():
            if cid not in top_cards(st, p):
                prelude.append(["pay", p])
            has_demand = self.cards.has_demand[cid]
            for q in self.players_from(p, False):
                if self.adjacent(p, q) or teams.same_team(st, p, q):
                    continue   # a partner shares and is never demanded by the team rules, with no cost
                if counts[q] >= counts[p]:
                    prelude.append(["share", q])
                elif has_demand and st["players"][q]["hand"]:
                    prelude.append(["avoid", q])
        st["dogma"] = {"card": cid, "active": p, "icon": icon, "counts": counts, "vars": {},
                       "records": [], "changes": 0, "shared_change": False, "stack": [], "prelude": prelude,
                       "prelude_frame": {}, "excluded": [], "built": False}
        st["phase"] = "dogma"
        self.emit("dogma", player=p, card=cid, icon=icon, counts=counts)

    def _parley(self) -> bool:
        alive = sum(not pl.get("eliminated") for pl in self.state["players"])
        return bool(self.rule("parley")) and alive >= 4

    def _run_prelude(self):
        st = self.state
        d = st["dogma"]
        while d["prelude"]:
            step, q = d["prelude"][0]
            hand = st["players"][q]["hand"]
            if step == "share" and not hand:  # nothing to return: cannot share
                d["prelude"].pop(0)
                d["excluded"].append(q)
                continue
            if step == "pay":
                chosen = self.ask({"player": q, "kind": "select_cards", "options": list(hand), "min": 1, "max": 1,
                                   "source": self.cards.name[d["card"]],
                                   "prompt": "return a card from your hand to use another player's card"}, d["prelude_frame"])
            else:
                chosen = self.ask({"player": q, "kind": "select_cards", "options": list(hand), "min": 0, "max": 1,
                                   "optional": True, "source": self.cards.name[d["card"]],
                                   "prompt": "return a card from your hand to share this dogma" if step == "share"
                                   else "return a card from your hand to avoid its demands"}, d["prelude_frame"])
            d["prelude"].pop(0)
            for c in chosen:
                self._put(q, c, "return")
            if step == "share" and not chosen or step == "avoid" and chosen:
                d["excluded"].append(q)
        if not d["built"]:
            d["built"] = True
            cid, p, counts = d["card"], d["active"], d["counts"]
            out = set(d["excluded"])
            items = []
            for e, chunk in enumerate(self.cards.cards[cid]["effects"]):
                if chunk["kind"] == "demand":
                    items += [[cid, e, q, p, False] for q in self.opponents(p)
                              if counts[q] < counts[p] and q not in out]
                elif chunk["kind"] == "compel":
                    items += [[cid, e, q, p, False] for q in self.opponents(p)
                              if counts[q] >= counts[p] and q not in out]
                else:
                    # a partner shares, but only an opponent's sharing earns the sharing bonus
                    items += [[cid, e, q, p, not teams.same_team(st, p, q)] for q in self.players_from(p, True)
                              if counts[q] >= counts[p] and q not in out]
            d["stack"].append({"work": items})

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
            if "work" in top:
                if not top["work"]:
                    stack.pop()
                    continue
                card, effect, you, me, sharer = top["work"].pop(0)
                if st["players"][you].get("eliminated"):
                    continue   # eliminated players take no further part
                frame = vm.new_frame(self.cards, card, effect, you, me, sharer=sharer,
                                     changes_at_start=d["changes"], depth=top.get("depth", 0),
                                     record=top.get("record", 0))
                stack.append(frame)
                self.emit("effect", card=card, effect=effect, player=you)
                continue
            if st["players"][top["you"]].get("eliminated") and top.get("kind") != "condition":
                stack.pop()
                continue
            status = vm.run(self, top)
            if status == "done":
                stack.pop()
                self._finish_frame(top)
            elif status == "end_dogma":
                stack.clear()
        # the dogma action is over: the sharing bonus, then the action ends
        if self._sharing_bonus_due(d):
            self.emit("sharing_bonus", player=d["active"])
            self.draw_one(d["active"], highest_top_value(self.cards, st, d["active"]))
            self.after_change()
        self._end_action()

    def _finish_frame(self, frame):
        st = self.state
        you = frame["you"]
        st["players"][you]["revealed"].clear()   # what the effect revealed is no longer shown
        if frame.get("sharer"):
            st["dogma"]["shared"] = True
            if st["dogma"]["changes"] > frame["changes_at_start"]:
                st["dogma"]["shared_change"] = True

    def _sharing_bonus_due(self, d: dict) -> bool:
        """The manifest's sharing_bonus_when: "shared" (an opponent performed a shared effect) or
        "shared_change" (a shared effect changed the game). An eliminated player draws nothing."""
        if self.rule("sharing_bonus") == "none" or self.state["players"][d["active"]].get("eliminated"):
            return False
        if self.rule("sharing_bonus_when") == "shared":
            return bool(d.get("shared"))
        return bool(d["shared_change"])

    def execute(self, frame, cid: int, kind: str):
        depth = frame.get("depth", 0) + 1
        if depth > MAX_EXECUTE_DEPTH:
            raise vm.RuntimeFault(f"more than {MAX_EXECUTE_DEPTH} nested executions: an endless chain was stopped",
                                  self.cards.name[frame["card"]])
        you = frame["you"]
        if kind != "execute" and self.rule("chain_achievement") and frame.get("depth", 0) >= 1:
            # Self- or super-executing while already executing: first draw and achieve an 11.
            self.emit("chain_achievement", player=you, card=cid)
            self.draw_effect({"you": you, "kind": "chain"}, 1, self.cards.max_age, "achieve")
        items = []
        for e, chunk in enumerate(self.cards.cards[cid]["effects"]):
            if chunk["kind"] == "non_demand":
                items.append([cid, e, you, you, False])
            elif kind == "super-execute" and chunk["kind"] == "demand":
                items += [[cid, e, q, you, False] for q in self.opponents(you)]
        self.emit("execute", player=you, card=cid, kind=kind)
        records = self.state["dogma"].setdefault("records", [])
        records.append({})    # the executed card keeps its own record, empty at the start
        self.state["dogma"]["stack"].append({"work": items, "depth": depth, "record": len(records)})

    # ------------------------------------------------------------ card moves
    def _count_change(self, n: int = 1):
        d = self.state["dogma"]
        if d is not None:
            d["changes"] += n

    def _demand_stat(self, frame, verb: str, n: int):
        if frame is not None and frame["kind"] == "demand" and n:
            v = self.action_vars(frame)
            key = f"{PAST[verb]}_by_demand"
            v[key] = v.get(key, 0) + n

    @staticmethod
    def _origin(where) -> dict:
        """Where a moved card came from, for frontends and for telling what was revealed."""
        return {"from": where[0], "from_player": where[1]}

    def _meld(self, p: int, cid: int, bottom: bool = False):
        where = remove_from_anywhere(self.state, cid)
        place(self.cards, self.state, cid, "board", p, bottom=bottom)
        self.emit("tuck" if bottom else "meld", player=p, card=cid, **self._origin(where))

    def _put(self, p: int, cid: int, verb: str):
        """Move one card for player p by a verb (no checks, no decisions)."""
        st = self.state
        if verb == "meld":
            self._meld(p, cid)
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
        where = remove_from_anywhere(st, cid)
        if verb == "score":
            place(self.cards, st, cid, "score", p)
            st["turn"]["scored"][p] += 1
        elif verb == "return":
            place(self.cards, st, cid, "supply", None)
        elif verb in ("junk", "remove"):
            place(self.cards, st, cid, "junk" if verb == "junk" else "removed", None)
        elif verb == "achieve":
            place(self.cards, st, cid, "achievements", p)
        elif verb == "take":
            place(self.cards, st, cid, "hand", p)
        self.emit(verb, player=p, card=cid, **self._origin(where))

    def _reveal(self, p: int, cid: int):
        """Reveal in place: the card is shown to everyone and stays in its zone."""
        st = self.state
        if any(cid in pl["revealed"] for pl in st["players"]):
            return
        zone, owner, _ = locate(st, cid)
        st["players"][p]["revealed"].append(cid)
        bump(st, owner)
        self.emit("reveal", player=p, card=cid, **{"from": zone, "from_player": owner})

    def move(self, frame, cids: list, verb: str) -> list:
        p = frame["you"]
        moved = []
        if verb in ("meld", "tuck"):
            cids = self._onto_piles(frame, cids, verb, p)
        for cid in cids:
            if isinstance(cid, str):
                if not self._move_special(cid, verb):
                    continue
            else:
                self._put(p, cid, verb)
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
        st = self.state
        targets = target if isinstance(target, list) else [target]
        to = targets[0] if targets else frame["you"]
        moved = []
        for cid in cids:
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
            self.emit("transfer", player=frame["you"], to=to, zone=zone, card=cid, **self._origin(where))
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
        self.emit("exchange", player=frame["you"], cards=a, other=b)
        frame["sel_full"] = None
        frame["did"] = bool(a or b)
        self._demand_stat(frame, "exchange", len(a) + len(b))
        self._count_change(len(a) + len(b))
        self.after_change()

    def draw_one(self, p: int, value: int) -> int:
        """The standard draw: value (at least the first age), skipping empty ages; past the last age the game ends."""
        st = self.state
        age = draw_age(self.cards, st, value)
        if age is None:
            self.emit("draw_past_end", player=p, value=value)
            self.end_by_score()
        cid = st["supply"][str(age)].pop(0)
        st["players"][p]["hand"].append(cid)
        self.emit("draw", player=p, card=cid, age=age)
        self._count_change()
        return cid

    def draw_effect(self, frame, count: int, value: int, then: str) -> list[int]:
        p = frame["you"]
        drawn = []
        for _ in range(max(count, 0)):
            cid = self.draw_one(p, value)
            if then != "draw":
                self._put(p, cid, then)
            drawn.append(cid)
            self.after_change()
        frame["sel_full"] = None
        frame["did"] = bool(drawn)
        return drawn

    def splay(self, frame, colors: list[str], direction: str, optional: bool):
        board = self.state["players"][frame["you"]]["board"]
        if direction == "none":
            cands = [c for c in colors if board[c]["splay"] != "none"]
        else:
            cands = [c for c in colors if len(board[c]["cards"]) >= 2 and board[c]["splay"] != direction]
        frame["did"] = False
        if not cands:
            return
        if len(cands) == 1 and not optional:
            color = cands[0]
        else:
            color = self.ask({"player": frame["you"], "kind": "splay_color", "options": cands, "optional": optional,
                              "direction": direction, "prompt": f"splay a colour {direction}"}, frame)
            if color is None:
                return
        board[color]["splay"] = direction
        bump(self.state, frame["you"])
        frame["did"] = True
        self.emit("splay", player=frame["you"], color=color, direction=direction)
        self._count_change()
        self.after_change()

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

    # ------------------------------------------------------------ choices
    def _chooser(self, frame, chooser: str, cands) -> int:
        if chooser == "me":
            return frame["me"]
        if chooser == "owner" and cands:
            owner = locate(self.state, cands[0])[1]
            if owner is not None:
                return owner
        return frame["you"]

    def select(self, frame, cands, mode, order, chooser, optional, lo, hi) -> list[int]:
        age = self.cards.age
        n = len(cands)
        who = self._chooser(frame, chooser, cands)
        frame["sel_full"] = None
        if n == 0:
            frame["sel_full"] = False if (mode == "count" and (lo > 0 or optional)) else None
            return []
        if mode == "each_color":
            groups: dict[str, list[int]] = {}
            for c in cands:
                groups.setdefault(self.cards.color[c], []).append(c)
            if order != "any":
                for col, cs in groups.items():
                    best = (max if order == "highest" else min)(age[c] for c in cs)
                    groups[col] = [c for c in cs if age[c] == best]
            if all(len(cs) == 1 for cs in groups.values()) and not optional:
                return [cs[0] for cs in groups.values()]
            flat = [c for cs in groups.values() for c in cs]
            return self.ask({"player": who, "kind": "select_cards", "options": flat, "min": 0 if optional else len(groups),
                             "max": len(groups), "one_per_color": not optional, "optional": optional,
                             "prompt": "choose one card of each colour"}, frame)
        if mode == "all":
            chosen = cands
            if order != "any":
                best = (max if order == "highest" else min)(age[c] for c in cands)
                chosen = [c for c in cands if age[c] == best]
            if optional and not self.ask({"player": frame["you"], "kind": "yes_no", "options": [True, False],
                                          "prompt": "do it?"}, frame):
                frame["sel_full"] = False
                return []
            return chosen
        if mode == "all_but":
            k = n - lo
        elif mode == "half_down":
            k = n // 2
        elif mode == "half_up":
            k = (n + 1) // 2
        else:
            k = None
        if k is not None:
            lo = hi = max(k, 0)
            if lo == 0:
                return []
        want_max = n if hi == vm.ALL else min(hi, n)
        if want_max <= 0:
            return []
        want_min = 0 if optional else min(lo, want_max)
        exact = lo == hi and hi != vm.ALL and lo > 1 and mode == "count"
        if order != "any":
            ranked = sorted(cands, key=lambda c: -age[c] if order == "highest" else age[c])
            boundary = age[ranked[want_max - 1]]
            beyond = (lambda v: v > boundary) if order == "highest" else (lambda v: v < boundary)
            forced = [c for c in ranked if beyond(age[c])]
            tied = [c for c in ranked if age[c] == boundary]
            need = want_max - len(forced)
            if need == len(tied) and not optional:
                chosen = forced + tied
            else:
                picked = self.ask({"player": who, "kind": "select_cards", "options": tied,
                                   "min": 0 if optional else need, "max": need, "optional": optional,
                                   "prompt": f"choose the {order} card(s)"}, frame)
                chosen = (forced + picked) if picked else []
        elif want_min == want_max == n:
            chosen = list(cands)
        else:
            decision = {"player": who, "kind": "select_cards", "options": list(cands), "min": want_min,
                        "max": want_max, "optional": optional, "prompt": "choose cards"}
            if optional and exact:  # "you may return three cards": none, or as many of the three as possible
                decision["sizes"] = [0, want_max]
            chosen = self.ask(decision, frame)
            frame["answered_order"] = list(chosen)
        frame["sel_full"] = (len(chosen) == lo) if exact else None
        if not chosen:
            frame["sel_full"] = False
        return chosen

    def ask_yes_no(self, frame) -> bool:
        return self.ask({"player": frame["you"], "kind": "yes_no", "options": [True, False], "optional": True,
                         "prompt": "you may"}, frame)

    def choose(self, frame, what: str, chooser: str, options: list):
        options = [o for o in options if o is not None]
        if not options:
            return [] if what == "two_colors" else None
        who = frame["me"] if chooser == "me" else frame["you"]
        if what == "two_colors":
            k = min(2, len(options))
            if k == len(options):
                return list(options)
            return self.ask({"player": who, "kind": "choose", "what": what, "options": options, "min": k, "max": k,
                             "prompt": "choose two colours"}, frame)
        if len(options) == 1:
            return options[0]
        return self.ask({"player": who, "kind": "choose", "what": what, "options": options,
                         "prompt": f"choose a {what}"}, frame)

    def choose_option(self, frame, n: int) -> int:
        return self.ask({"player": frame["you"], "kind": "choose_option", "options": list(range(n)),
                         "prompt": "choose one"}, frame)

    # ------------------------------------------------------------ achievements and the end
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

    def claim_by_effect(self, frame, name: str) -> None:
        """A dogma effect instructs to claim a special achievement: at once, or (manifest
        dogma_claim: end_of_action) at the end of the action, if it is still available."""
        d = self.state["dogma"]
        if self.rule("dogma_claim") == "end_of_action" and d is not None:
            claim = [frame["you"], name]
            if claim not in d.setdefault("claims", []):
                d["claims"].append(claim)
                self.emit("claim_queued", player=frame["you"], name=name)
            return
        self.claim_special(frame["you"], name)

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
        if self.rule("tie_break_order") == "left_of_active":
            return self.players_from(active, False) + me
        return me + self.players_from(active, False)

    def achievements_needed(self) -> int:
        """By the number of players still in the game (an eliminated player no longer counts)."""
        st = self.state
        need = teams.achievements_needed(self.cards.manifest, st)
        alive = sum(not pl.get("eliminated") for pl in st["players"])
        table = self.cards.manifest["achievements_to_win"]
        if not teams.has_teams(st) and alive < len(st["players"]) and str(alive) in table:
            need += table[str(alive)] - table[str(len(st["players"]))]
        return need

    def after_change(self):
        if self.rule("special_achievement_check") == "immediately":
            self.check_specials()

    def check_specials(self):
        st = self.state
        if not st["available"]["special"]:
            return
        # A condition is tested again only when something in its read set (computed by the compiler
        # from its bytecode) has changed since it was last tested for that player: runtime/readsets.py.
        seen = self._specials_seen
        if seen is None:
            seen = self._specials_seen = {}
        memo: dict = {}
        specials = self.cards.specials
        for p in self.tie_order():
            keys: dict = {}     # per condition, its reads' fingerprints for this player
            for name in list(st["available"]["special"]):
                if self.skip_unchanged_specials:
                    reads = specials[name].get("reads") or ("*",)
                    key = keys.get(id(reads))
                    if key is None:
                        key = keys[id(reads)] = readsets.key(st, reads, p, memo, seen)
                    if seen.get((name, p)) == key:
                        continue
                    seen[(name, p)] = key
                if self._condition(name, p):
                    self.claim_special(p, name)
                    memo.clear()
                    keys.clear()

    def _condition(self, name: str, p: int) -> bool:
        chunk = self.cards.specials[name]["condition"]
        frame = {"card": -1, "chunk": chunk, "label": name, "kind": "condition", "pc": 0, "stack": [],
                 "locals": [None] * len(chunk["locals"]), "you": p, "me": p, "did": False}
        vm.run(self, frame)
        return bool(frame.get("result"))

    def check_win_by_achievements(self, final: bool = False):
        """3rd edition: the first player found with enough achievements wins at once.
        4th edition (final=True at the end of an action): of those with enough, the most
        achievements wins; a tie goes to the first in the tie order (tie_order)."""
        if self.rule("achievement_win_check") == "end_of_action" and not final:
            return
        st = self.state
        need = self.achievements_needed()
        order = self.tie_order()
        count = {p: teams.achievement_count(st, p) for p in order}   # a team's achievements are pooled
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
            raise vm.RuntimeFault("a player lost in a game of more than two players, and this edition has "
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
        scores = [teams.team_points(self.cards, st, p) for p in sides]
        best = max(scores)
        tied = [p for p, s in zip(sides, scores) if s == best]
        if len(tied) > 1:
            ach = [teams.achievement_count(st, p) for p in tied]
            tied = [p for p, a in zip(tied, ach) if a == max(ach)]
        self.win(tied, "score")
