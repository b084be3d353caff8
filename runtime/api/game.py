"""The public Python API for frontends, bots and tests.

    from innoscript.runtime import Game
    game = Game.new(edition="3e", players=2, seed=7)
    while not game.over:
        decision = game.decision          # who decides, what kind, options, min/max
        events = game.apply(choose(decision))
    text = game.save()                    # JSON; Game.load(text) resumes anywhere
    game.result                           # {"winners": [...], "reason": ...}

``apply`` raises ``IllegalAnswer`` for an answer the decision does not allow
and ``BadSave`` is raised by ``load`` for a malformed saved game (schema,
then runtime/api/loading.py, then the engine's invariants); in both cases
nothing changes.
"""
from __future__ import annotations

import json
import pickle
from collections import Counter

import jsonschema

from innoscript.compiler.bundle import load_bundle
from innoscript.core.editions import schema
from ..machine.faults import RuntimeFault
from ..rules.engine import Engine, IllegalAnswer
from ..rules.invariants import violations
from ..rules.options import OptionsError, normalise as normalise_options
from ..state.cards import Cards
from ..state.positions import card_places
from ..state.teams import PAIRINGS
from . import loading, views

__all__ = ["Game", "IllegalAnswer", "BadSave", "RuntimeFault", "OptionsError"]


class BadSave(Exception):
    """A saved game that cannot be loaded; the message says what and where."""


_validators: dict = {}


def _conforms_fast(data) -> bool:
    """Whether a saved game conforms to the schema, by a validator compiled once (fastjsonschema, when
    installed): a few times faster than jsonschema on a conforming save. False means 'ask jsonschema',
    which words the complaint (and stays the judge: a test checks that both agree)."""
    check = _validators.get("fast")
    if check is None:
        try:
            import fastjsonschema
            check = fastjsonschema.compile(schema("game.schema.json"))
        except Exception:   # not installed, or a schema it cannot compile: jsonschema alone
            check = False
        _validators["fast"] = check
    if check is False:
        return False
    try:
        check(data)
        return True
    except Exception:       # a complaint, or nesting too deep for it
        return False


def _schema_error(data):
    """jsonschema's best complaint about a saved game (None: it conforms); raises BadSave when the
    data nest too deeply to check."""
    validator = _validators.get("jsonschema")
    if validator is None:
        validator = _validators["jsonschema"] = jsonschema.Draft202012Validator(schema("game.schema.json"))
    try:
        return jsonschema.exceptions.best_match(validator.iter_errors(data))
    except RecursionError:
        raise BadSave("saved game: nested too deeply") from None


class Game:
    def __init__(self, engine: Engine, fast: bool = False):
        """fast=True (simulation): no transaction (no rollback of a failed answer) and no undo record."""
        self._engine = engine
        self._fast = fast
        engine.transactional = not fast
        # the state before the last action, while it may be undone: the engine's transaction copy (pickled
        # bytes), or JSON text from a store; the events since; and (the record, its active player)
        self._undo: bytes | str | None = None
        self._undo_player: tuple | None = None
        self._undo_text: tuple | None = None     # (the record, its JSON text) once asked for
        self._since: list[dict] = []         # events since that action began

    # ------------------------------------------------------------ creation
    @classmethod
    def new(cls, edition: str = "3e", players: int = 2, seed: int = 0, names: list[str] | None = None,
            bundle: dict | None = None, secret: str | None = None, fast: bool = False,
            options: dict | None = None, sets: list[str] | None = None) -> "Game":
        """options: the table options (runtime/rules/options.py); OptionsError for a bad one. sets: the sets
        (expansions) in play, by the names of their folders under cards/sets/ (a bundle given holds its own sets)."""
        if bundle is None:
            bundle = load_game_bundle(edition, sets)
        return cls(Engine.new_game(bundle, players, seed, names, secret, options), fast)

    @classmethod
    def load(cls, data: str | dict, bundle: dict | None = None, try_play: bool = True) -> "Game":
        """Resume a game saved with ``save``; raise BadSave naming the fault. try_play: also play on a copy, with
        a plain answer to each decision, until the dogma action under way (if any) ends, and refuse a game that
        cannot go on (a store's own games, checked when they came in, skip it)."""
        if isinstance(data, str):
            try:
                data = json.loads(data)
            except json.JSONDecodeError as err:
                raise BadSave(f"saved game is not valid JSON: {err.msg} at line {err.lineno}, column {err.colno}") from None
            except RecursionError:
                raise BadSave("saved game: nested too deeply") from None
        err = None if _conforms_fast(data) else _schema_error(data)
        if err is not None:
            msg = err.message if len(err.message) <= 200 else err.message[:200] + "..."
            raise BadSave(f"saved game: {'/'.join(map(str, err.absolute_path)) or '(top)'}: {msg}")
        if bundle is None:
            try:
                bundle = load_game_bundle(data["edition"], data.get("sets"))
            except Exception as e:  # unknown edition, broken cards
                raise BadSave(f"saved game: cannot load edition {data['edition']!r}: {e}") from None
        if data["bundle_hash"] != bundle["source_hash"]:
            raise BadSave("saved game was made with different card sources (bundle hash mismatch); "
                          "load it with the bundle it was saved with")
        cards = Cards.of(bundle)
        check_cards(cards, data)
        check_options(data)
        try:
            loading.check(cards, data)
        except (ValueError, TypeError, KeyError, IndexError, AttributeError) as e:
            raise BadSave(f"saved game: {e}") from None
        state = json.loads(json.dumps(data))
        for pl in state["players"]:  # iteration order is rules order (colour order), whatever the file's order
            pl["board"] = {c: pl["board"][c] for c in cards.colors}
        state["supply"] = {str(a): state["supply"].get(str(a), []) for a in cards.ages}
        for name in cards.set_names:
            piles = state["set_supply"][name]
            state["set_supply"][name] = {str(a): piles.get(str(a), []) for a in sorted(int(a) for a in piles)}
        engine = Engine(bundle, state)
        try:
            broken = violations(engine)
        except Exception as e:  # a state too broken to even check
            raise BadSave(f"saved game: inconsistent ({type(e).__name__})") from None
        if broken:
            raise BadSave(f"saved game breaks the rules' invariants: {broken[0]}")
        pending = state["pending"]
        if pending is not None and pending["kind"] == "action" and \
                pending["options"] != engine.compute_legal_actions(pending["player"]):
            raise BadSave("saved game: the pending action's options are not the player's legal actions")
        if pending is not None and pending["kind"] == "initial_meld" and \
                sorted(pending["options"]) != sorted(state["players"][pending["player"]]["hand"]):
            raise BadSave("saved game: the first meld is not chosen among the player's hand")
        if try_play:
            _try_play(bundle, state)
        return cls(engine)

    def save(self) -> str:
        """The state as compact JSON; keys keep the engine's order (colours in edition order)."""
        return json.dumps(self._engine.state, separators=(",", ":"))

    def to_json(self) -> dict:
        return json.loads(self.save())

    # ------------------------------------------------------------ play
    @property
    def decision(self) -> dict | None:
        return self._engine.pending

    @property
    def legal_actions(self) -> list[dict]:
        return self._engine.legal_actions()

    def apply(self, answer, player: int | None = None) -> list[dict]:
        pending = self._engine.pending
        action = not self._fast and pending is not None and pending["kind"] == "action"
        events = self._engine.answer(answer, player)
        if action:   # the transaction's copy of the state at the action's start is the undo record
            journal = self._engine.journal if self._engine.transactional else None
            self._undo, self._since = (journal[2] if journal else None), list(events)
        else:
            self._since += events
        return events

    def apply_as_seen(self, answer, player: int) -> list[dict]:
        """Answer for `player` in the terms of that player's view, from someone who may send anything (a
        frontend, a protocol client): checked against the decision as that player was shown it, hidden cards
        by their handles only, and refused with IllegalAnswer worded from what that player may see
        (views.answer_as_seen); nothing changes on a refusal."""
        return self.apply(views.answer_as_seen(self._engine.cards, self._engine.state, player, answer), player)

    def undo_record(self) -> tuple[str | None, list]:
        """What a store keeps to undo the last action: the state before it as JSON text (None: nothing
        to undo) and the events since. Made once per action, when asked."""
        rec = self._undo
        if rec is None or isinstance(rec, str):
            return rec, self._since
        if self._undo_text is None or self._undo_text[0] is not rec:
            self._undo_text = (rec, json.dumps(pickle.loads(rec), separators=(",", ":")))
        return self._undo_text[1], self._since

    def set_undo_record(self, text: str | None, since: list) -> None:
        """Resume with a store's undo record (as ``undo_record`` gave it)."""
        self._undo, self._since = text, list(since)

    def _undo_state(self) -> dict:
        rec = self._undo
        return json.loads(rec) if isinstance(rec, str) else pickle.loads(rec)

    @property
    def can_undo(self) -> bool:
        """The last action can be taken back: it is over and showed nobody a hidden card."""
        return self.undoable()

    def undoable(self, people=None) -> bool:
        """The last action is over and showed none of `people` (default: every player) a card they could not
        see before; bots keep no memory, so a frontend passes the seats that people play."""
        pending = self._engine.pending
        return (self._undo is not None and pending is not None and pending["kind"] == "action"
                and not views.reveals_hidden(self._since, people=people))

    def undo_player(self) -> int | None:
        """The player whose action `undo` would take back (None when there is nothing to undo)."""
        if self._undo is None:
            return None
        if self._undo_player is None or self._undo_player[0] is not self._undo:
            self._undo_player = (self._undo, self._undo_state()["turn"]["active"])
        return self._undo_player[1]

    def undo(self, people=None) -> None:
        if not self.undoable(people):
            raise IllegalAnswer("the last action cannot be undone (it is not finished, or it showed a hidden card)")
        self._engine.restore(self._undo_state())
        self._undo, self._since = None, []

    def view(self, player: int | None = None) -> dict:
        """What `player` may see (None: a spectator); see runtime/api/views.py."""
        return views.view(self._engine.cards, self._engine.state, player)

    def events_for(self, events: list[dict], player: int | None) -> list[dict]:
        return [views.event_view(self._engine.cards, self._engine.state, e, player) for e in events]

    @property
    def over(self) -> bool:
        return self._engine.over

    @property
    def result(self) -> dict | None:
        return self._engine.state["result"]

    @property
    def state(self) -> dict:
        """The raw state (read-only by convention; copy it before changing anything)."""
        return self._engine.state

    @property
    def cards(self) -> Cards:
        return self._engine.cards

    @property
    def engine(self) -> Engine:
        return self._engine


TRY_ANSWERS = 300     # answers a loaded game is played on for, on a copy, before it is taken


def plain_answer(cards: Cards, pending: dict):
    """A legal answer to a pending decision that passed the loader's checks (runtime/api/loading.py): the
    first option, the fewest cards, one of each colour, the order as it is; no answer to an optional choice
    of nothing."""
    kind, options = pending["kind"], pending["options"]
    if kind == "yes_no":
        return False
    if kind == "choose_option":
        return 0
    if kind == "order":
        return list(options)
    if kind in ("select_cards", "choose") and not (kind == "choose" and pending["max"] == 1):
        if pending.get("one_per_color"):
            if pending["min"] == 0:
                return []
            firsts: dict = {}
            for o in options:
                firsts.setdefault(cards.color[o], o)
            return list(firsts.values())
        k = min(pending["sizes"]) if pending.get("sizes") else pending["min"]
        return list(options[:k])
    if not options:
        return None
    return options[0]


def _try_play(bundle: dict, state: dict) -> None:
    """Play a copy of a loaded game on with plain answers until the dogma action under way ends (at once when
    none is): a saved game whose running effects cannot go on (a frame's value of the wrong kind, a decision
    no answer satisfies) is refused here rather than stuck for good once loaded."""
    if state["pending"] is None:
        return
    engine = Engine(bundle, pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL)))
    engine.transactional = False
    try:
        for _ in range(TRY_ANSWERS):
            pending = engine.pending
            if pending is None:
                return
            engine.answer(plain_answer(engine.cards, pending), pending["player"])
            if engine.state["dogma"] is None or engine.over:
                return
    except (IllegalAnswer, RuntimeFault) as err:
        raise BadSave(f"saved game cannot go on: {str(err)[:200]}") from None
    except Exception as err:   # a state the engine cannot play on
        raise BadSave(f"saved game cannot go on ({type(err).__name__})") from None


def load_game_bundle(edition: str, sets=None) -> dict:
    """The compiled bundle of an edition with these sets in play (none: the edition alone)."""
    return load_bundle(edition, sets=sets) if sets else load_bundle(edition)


def check_cards(cards: Cards, state: dict) -> None:
    """Every card of the edition is in exactly one place; colours and splays are known."""
    places = Counter(card_places(state))
    n = len(cards.cards)
    bad = [c for c in places if not 0 <= c < n]
    if bad:
        raise BadSave(f"saved game: unknown card ids {sorted(bad)[:5]}")
    twice = [cards.name[c] for c, k in places.items() if k > 1]
    if twice:
        raise BadSave(f"saved game: cards in more than one place: {sorted(twice)[:5]}")
    missing = [cards.name[c] for c in range(n) if c not in places]
    if missing:
        raise BadSave(f"saved game: cards missing: {sorted(missing)[:5]}")
    for p, pl in enumerate(state["players"]):
        if set(pl["board"]) != set(cards.colors):
            raise BadSave(f"saved game: player {p} board colours {sorted(pl['board'])} are not the edition's")
        for color, pile in pl["board"].items():
            if pile["splay"] not in list(cards.splay_positions):
                raise BadSave(f"saved game: player {p} {color} pile has unknown splay {pile['splay']!r}")
            if any(cards.color[c] != color for c in pile["cards"]):
                raise BadSave(f"saved game: player {p} {color} pile holds a card of another colour")


def check_options(state: dict) -> None:
    """The saved options fit the schema and the player count; teams and seating match them."""
    n = len(state["players"])
    try:
        options = normalise_options(state.get("options", {}), n)
    except OptionsError as err:
        raise BadSave(f"saved game: {err}") from None
    if options["teams"] == "none":
        if state.get("teams"):
            raise BadSave("saved game: teams are given but the options have none")
        return
    t = state.get("teams") or []
    if sorted(p for team in t for p in team) != list(range(n)):
        raise BadSave("saved game: teams: team play needs two teams holding players 0-3 once each")
    mate = PAIRINGS.get(options["teams"])
    if mate is not None and sorted(next(team for team in t if 0 in team)) != [0, mate]:
        raise BadSave(f"saved game: teams: the options say {options['teams']!r} (player 1 with player {mate + 1}), "
                      f"the teams are {t}")
    seats = state.get("seating") or []
    if sorted(seats) != list(range(n)) or any(seats.index(a) % 2 != seats.index(b) % 2 for a, b in t):
        raise BadSave("saved game: seating: partners must sit across from each other")
