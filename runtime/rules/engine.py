"""The rules engine: one game's decisions, answers and main loop.

The engine drives the VM (runtime/machine/vm.py) and owns every decision; it
is the VM's host, whose methods the instructions call to move cards, draw, ask
and read the score.  All progress is kept in the JSON state
(runtime/state/positions.py), so the engine can be rebuilt from a saved game
at any decision.  Everything that differs between
editions comes from the bundle's manifest: ages, achievements to win,
opening turns, special achievements and their conditions, rule switches.

``Engine`` is this module's decision loop plus one mixin per rule, each in
the module named after it:

    runtime/rules/turn.py          set-up, turns and the four actions
    runtime/rules/dogma.py         the Dogma action: sharing, demands, executing cards
    runtime/rules/hooks.py         the hook points where the sets' rules (InnoScript) run
    runtime/rules/moves.py         card moves (meld, tuck, score, transfer, splay, ...)
    runtime/rules/supply.py        the age piles, the deal and drawing
    runtime/rules/choices.py       choices effects ask (cards, colours, options)
    runtime/rules/achievements.py  claims, special achievements, winning and losing

An answer is checked (``validate``) before anything changes and applied in
a transaction: if anything fails, the state is put back as it was.  The
transaction costs one copy per action, not per answer: the state at the
start of the action is kept (pickled) with the answers given since, and a
failed answer restores that copy and replays those answers (the engine is
deterministic: the same state and answers give the same state).  The same
copy is the undo record of a game (runtime/api/game.py).

Decisions are dicts ``{"id", "player", "kind", "options", "min", "max",
"optional", "source", "prompt"}``; kinds: ``initial_meld``, ``action``,
``select_cards``, ``yes_no``, ``choose`` (with ``what``: color, value, player,
icon, two_colors), ``choose_option``, ``splay_color``, ``order``.
"""
from __future__ import annotations

import pickle

from innoscript.core import opcodes as O
from ..machine import tier
from ..machine.expressions import cell_score, held_achievements, points
from ..machine.faults import BudgetExhausted, GameOver, NeedDecision, budget_fault
from ..machine.frames import HOOK, chunk_of
from ..state import teams
from ..state.cards import Cards
from ..state.positions import new_state
from . import sets, supply
from .achievements import Achievements
from .chance import Chance
from .choices import Choices
from .dogma import Dogma
from .hooks import Hooks
from .moves import Moves
from .options import normalise as normalise_options
from .supply import Supply
from .turn import Turn

# Budgets cover a whole action (a dogma with all its answers), so a loop that asks a question
# every time round cannot run for ever; both are far above what any real action uses.
STEP_BUDGET = 200_000          # VM instructions per action
DECISION_BUDGET = 250          # decisions asked per action


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
    for o in options:
        if o is value:      # an option handed back as it is (a bot's answer): no key needed
            return True
    k = _key(value)
    return any(o is value or (o == value and k == _key(o)) for o in options)   # == first: it is cheap


def _show(value, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


class Engine(Turn, Dogma, Hooks, Moves, Supply, Choices, Chance, Achievements):
    """One game: the bundle's cards plus the JSON state."""

    def __init__(self, bundle: dict, state: dict):
        self.cards = Cards.of(bundle)
        self.state = state
        self.events: list[dict] = []
        self.events_due = False         # a move's event hooks wait on the stack: the running frame yields
        self.budget = STEP_BUDGET
        self.trace: set | None = None   # set to a set to record executed pcs and branch edges (coverage)
        self.icon_cache: dict = {}       # (board revision, cards) -> icon counts; never saved
        self.transactional = True        # roll back a failed answer (simulation turns this off for speed)
        self.journal: list | None = None  # [state, decision id, the state pickled at the action's start, answers since]
        self._specials_seen = None       # special (name, player) -> fingerprint of its reads when last tested
        self.skip_unchanged_specials = True   # False: test every condition at every check (same games, slower)
        self.tier = tier.default_tier()  # "compiled": fresh frames run as Python functions (runtime/machine/tier.py); "vm"

    # ------------------------------------------------------------ creation
    @classmethod
    def new_game(cls, bundle: dict, players: int = 2, seed: int = 0, names: list[str] | None = None,
                 secret: str | None = None, options: dict | None = None) -> "Engine":
        m = bundle["manifest"]
        if not m["players"]["min"] <= players <= m["players"]["max"]:
            raise ValueError(f"this edition is for {m['players']['min']}-{m['players']['max']} players, not {players}")
        options = normalise_options(options, players)
        names = names or [f"Player {i + 1}" for i in range(players)]
        cards = Cards.of(bundle)
        state = new_state(cards, names, seed, secret, options)
        state.update(teams.setup(options, seed))
        supply.deal(cards, state, seed)
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

    def rule(self, name: str):
        """A rule switch of the edition's manifest (``rules``); None when the edition has none."""
        return self.cards.rules.get(name)

    def points(self, p: int) -> int:
        """p's score, the sets' additions included (the VM's points() builtin asks its host)."""
        return points(self.cards, self.state, p, self.icon_cache)

    def cell_score(self, cell: str, p: int) -> int:
        """The points a set's cell adds to p's score (the VM's cell_score() builtin asks its host)."""
        return cell_score(self.cards, self.state, cell, p, self.icon_cache)

    def held(self, p: int) -> int:
        """Every achievement p (p's team) counts, the cells' derived ones included (the VM's achievements()
        builtin asks its host)."""
        return held_achievements(self.cards, self.state, p, self.icon_cache)

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
        kind = pending["kind"]
        journal = self._journal_for(pending, kind) if self.transactional else None
        self.events = []
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
            except BudgetExhausted as err:
                if kind == "action":
                    raise      # nothing was shown to anyone yet: refuse the action, as it was
                self._stop_dogma(err)
            if self.state["dogma"] is not None:
                self.state["dogma"]["budget"] = self.budget
        except Exception:
            if journal is not None:
                self._roll_back(journal)
            raise
        if journal is not None:
            journal[3].append((value, pending["player"]))
            journal[1] = self.state["pending"]["id"] if self.state["pending"] else None
        return self.events

    def _journal_for(self, pending: dict, kind: str) -> list:
        """The transaction's record for this answer: a new one at an action (or a first answer, or after
        anything but this engine's answers moved the state), else the running one. Pickled, not JSON:
        faster for the state's many small numbers, and it gives back exactly the objects there were."""
        j = self.journal
        if kind == "action" or j is None or j[0] is not self.state or j[1] != pending["id"]:
            j = self.journal = [self.state, pending["id"], pickle.dumps(self.state, pickle.HIGHEST_PROTOCOL), []]
        return j

    def _roll_back(self, journal: list) -> None:
        """Put the state back as it was before the failed answer: the copy from the action's start, then
        the answers given since, replayed without a transaction."""
        events = self.events
        self.restore(pickle.loads(journal[2]))
        self.transactional = False
        try:
            for value, player in journal[3]:
                self.answer(value, player)
        finally:
            self.transactional = True
            self.events = events
        self.journal = journal
        journal[0] = self.state

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
            if d.get("hook"):
                self._end_hooks(d)
            else:
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
        self.journal = None

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
            if pending.get("one_per_color") and (answer or not pending.get("optional")):
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
        except NeedDecision:
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
        self.pose(decision, frame)
        raise NeedDecision()

    def pose(self, decision: dict, frame: dict | None = None) -> None:
        """Make the decision pending (its id, defaults and source) without stopping: for a caller that
        returns to the main loop itself (the action decision), which then waits for the answer."""
        st = self.state
        d = st["dogma"]
        if d is not None:
            d["asked"] = d.get("asked", 0) + 1
            if d["asked"] > DECISION_BUDGET and frame is not None:
                raise budget_fault(self, frame, f"decision budget exhausted: more than {DECISION_BUDGET} "
                                                   "decisions in one action; the effect was stopped")
        st["decisions"] += 1
        if frame is not None and frame.get("decider") and decision.get("player") == frame["decider"][0]:
            # 'decided by P': P answers for the performer ('for': whose decision it is)
            decision["for"] = decision["player"]
            decision["player"] = frame["decider"][1]
        decision.setdefault("optional", False)
        decision.setdefault("min", 1)
        decision.setdefault("max", 1)
        if frame is not None and frame.get("card") == HOOK:
            decision.setdefault("source", sets.manifest(self.cards, self.cards.hooks[frame["effect"]]["set"])["label"])
            if decision["kind"] == "select_cards":     # a set's rule words its choice as a card's effect does
                decision.setdefault("purpose", self._purpose(frame))
        if frame is not None and frame.get("card", -1) >= 0:
            decision.setdefault("source", self.cards.name[frame["card"]])
            if decision["kind"] == "select_cards":
                decision.setdefault("purpose", self._purpose(frame))
        decision["id"] = st["decisions"]
        st["pending"] = decision

    def _purpose(self, frame) -> str:
        """What the chosen cards are for (meld, score, return, transfer, ...), read from the bytecode
        after the choice, so frontends and bots can say "choose a card to return"."""
        chunk = chunk_of(self.cards, frame)
        code = chunk["code"]
        for ins in code[frame["pc"] + 1: frame["pc"] + 8]:
            if ins[0] == O.MOVE:
                return O.ENUMS["verb"][ins[1]]
            if ins[0] == O.MOVE_NAMED:           # a set's verb ('promote', 'safeguard')
                return chunk["consts"][ins[1]]
            if ins[0] == O.TRANSFER:
                return "transfer"
            if ins[0] == O.EXCHANGE:
                return "exchange"
            if ins[0] == O.STORE:
                return "choose"
        return "choose"

    def emit(self, type_: str, **data) -> None:
        self.events.append({"type": type_, **data})
