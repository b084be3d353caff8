"""The JSON protocol: one JSON object per message, the same over stdio and WebSocket.

A ``Hub`` holds the games (backed by a ``Store``) and turns each incoming
message into replies and pushes; the transports (runtime/serving/server.py) only move
text.  Every message, in and out, is described by
innoscript/core/schemas/protocol.schema.json.

Input is checked before any work is done, cheapest first: the message's size,
then (while parsing) the size of every integer, then depth, list lengths and
number types of the parsed value, then the type's schema with strict types
(``true`` and ``1.0`` are not integers).  A bad message gets an ``error``
reply naming what is wrong and changes nothing; other games are unaffected.

Creating or loading a game hands out one secret token per seat and an owner
token (docs/protocol.md has the threat model).  Only digests of the tokens are
kept, in the store beside the game, and they are compared in constant time.
A seat's token is needed to see that seat's hidden cards and to answer or undo
for it, the owner's token to save; without one a connection is a spectator.

An answer is checked against the decision as the seat was shown it, hidden
cards by their handles only (runtime/api/views.py, ``answer_as_seen``), so no
refusal says more than the seat's view.  A game is dealt from a seed of the
operating system's generator, never sent to anyone (``allow_seeds``: tests).

The Hub may be called from several threads (the WebSocket server runs each
message off its event loop): each game has its own lock, the card sandbox runs
in a child process (runtime/serving/sandbox.py) and the card check in a small
pool of worker processes (runtime/serving/workers.py), each on a budget and
taking no lock, and the games kept in memory are the most recently used ones,
the others reloaded from the store on demand.  What one client may ask is
metered (runtime/serving/quotas.py); one update per seat is made for an
answer, shared by every spectator; abandoned games expire and the database
has a size limit (``STORAGE``).
"""
from __future__ import annotations

import re

import contextlib
import functools
import hashlib
import hmac
import json
import random
import secrets
import sqlite3
import threading
import time
import uuid
from collections import OrderedDict

import jsonschema

from innoscript.compiler.bundle import load_bundle
from innoscript.core.diagnostics import CompileError
from innoscript.core.editions import (
    available_editions,
    available_sets,
    load_edition,
    load_set,
    schema,
)
from ..api.faces import card_catalog
from ..api.game import BadSave, Game
from ..api.views import answer_as_seen
from ..bots import BOTS, answer_for
from ..machine.faults import RuntimeFault
from ..rules.engine import IllegalAnswer
from ..rules.invariants import violations
from ..rules.sets import complete as set_complete, report as set_report
from . import sandbox, workers
from .quotas import QuotaError, Quotas
from .store import Conflict, StorageError, Store

PROTOCOL_VERSION = 1

# Limits checked before any work; the hello reply tells clients.
LIMITS = {
    "message_bytes": 1 << 20,
    "depth": 32,           # nesting of arrays and objects
    "items": 1000,         # entries of any array or object
    "integer": 2 ** 53,    # |n| for any integer (what JavaScript numbers hold exactly)
    "integer_digits": 16,
    "answer_items": 256,   # cards or options named by one answer
}
BOT_ANSWERS = 5000         # bot answers after one message, before giving up
BOT_SECONDS = 3.0
MAX_GAMES_IN_MEMORY = 256
MAX_JOINED = 32            # games one connection receives updates of
MAX_BUNDLES = 8            # compiled editions kept, one per distinct edition and set list
# the store's housekeeping: games not written for this long are deleted, and no new game is stored while the
# database holds more than this (innoscript serve --expire-days, --max-db-mb)
STORAGE = {"expire_seconds": 30 * 86400, "max_db_bytes": 1 << 30, "housekeeping_seconds": 600}


class ProtocolError(Exception):
    def __init__(self, code: str, message: str):
        self.code = code
        super().__init__(message)


def _strict_integer(_checker, instance) -> bool:
    return isinstance(instance, int) and not isinstance(instance, bool)


StrictValidator = jsonschema.validators.extend(
    jsonschema.Draft202012Validator,
    type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", _strict_integer))

CLIENT_TYPES = ("hello", "create", "load", "join", "view", "answer", "undo", "save", "list", "check", "sandbox", "cards")
_VALIDATORS: dict[str, jsonschema.protocols.Validator] = {}


def validator_for(t: str):
    if t not in _VALIDATORS:
        defs = schema("protocol.schema.json")["$defs"]
        _VALIDATORS[t] = StrictValidator({"$ref": f"#/$defs/{t}", "$defs": defs})
    return _VALIDATORS[t]


_FAST: dict = {}


def conforms_fast(t: str, msg) -> bool:
    """Whether a client message of type t conforms, by a validator compiled once per type (fastjsonschema,
    when installed): about twenty times faster than jsonschema on a conforming message, the common case.
    False means 'ask jsonschema', which words the complaint and stays the judge: a message with a float
    anywhere always goes to it (its integers are strict: 1.0 is none), and a test checks that both agree."""
    check = _FAST.get(t)
    if check is None:
        try:
            import fastjsonschema
            check = fastjsonschema.compile({"$ref": f"#/$defs/{t}", "$defs": schema("protocol.schema.json")["$defs"]})
        except Exception:   # not installed, or a schema it cannot compile: jsonschema alone
            check = False
        _FAST[t] = check
    if check is False:
        return False
    stack = [msg]
    while stack:            # _check_shape has bounded the size and depth already
        v = stack.pop()
        if isinstance(v, float):
            return False
        if isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    try:
        check(msg)
        return True
    except Exception:       # a complaint: jsonschema words it
        return False


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > LIMITS["integer_digits"]:
        raise ProtocolError("bad_message", f"an integer of more than {LIMITS['integer_digits']} digits")
    return int(text)


def _parse_constant(text: str):
    raise ProtocolError("bad_message", f"{text} is not a JSON number")


def _parse_float(text: str):
    raise ProtocolError("bad_message", "numbers in messages are integers (no fractions or exponents)")


def parse(text) -> dict:
    """One message's text to a checked object, or ProtocolError; nothing is done yet."""
    if isinstance(text, (bytes, bytearray)):
        if len(text) > LIMITS["message_bytes"]:
            raise ProtocolError("bad_message", f"a message may hold at most {LIMITS['message_bytes']} bytes")
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("bad_json", "a message is UTF-8 text") from None
    if len(text) > LIMITS["message_bytes"] or len(text.encode("utf-8", "surrogatepass")) > LIMITS["message_bytes"]:
        raise ProtocolError("bad_message", f"a message may hold at most {LIMITS['message_bytes']} bytes")
    try:
        msg = json.loads(text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_parse_constant)
    except json.JSONDecodeError as err:
        raise ProtocolError("bad_json", f"not valid JSON: {err.msg} at column {err.colno}") from None
    except RecursionError:
        raise ProtocolError("bad_message", f"nested deeper than {LIMITS['depth']} levels") from None
    _check_shape(msg)
    if not isinstance(msg, dict):
        raise ProtocolError("bad_message", "a message is a JSON object with a 'type'")
    return msg


def _check_shape(value) -> None:
    """Depth, entries and integer sizes of a parsed value, without recursion."""
    stack = [(value, 1)]
    while stack:
        v, depth = stack.pop()
        if isinstance(v, (dict, list)):
            if depth > LIMITS["depth"]:
                raise ProtocolError("bad_message", f"nested deeper than {LIMITS['depth']} levels")
            if len(v) > LIMITS["items"]:
                raise ProtocolError("bad_message", f"an array or object of more than {LIMITS['items']} entries")
            stack.extend((x, depth + 1) for x in (v.values() if isinstance(v, dict) else v))
        elif isinstance(v, int) and not isinstance(v, bool) and abs(v) > LIMITS["integer"]:
            raise ProtocolError("bad_message", f"an integer beyond ±{LIMITS['integer']}")


def check_client(msg) -> None:
    if not isinstance(msg, dict):
        raise ProtocolError("bad_message", "a message is a JSON object with a 'type'")
    t = msg.get("type")
    if not isinstance(t, str) or t not in CLIENT_TYPES:
        shown = repr(t)[:40] if isinstance(t, str) else type(t).__name__
        raise ProtocolError("unknown_type", f"unknown message type {shown} (known: {', '.join(CLIENT_TYPES)})")
    if conforms_fast(t, msg):
        return
    err = jsonschema.exceptions.best_match(validator_for(t).iter_errors(msg))
    if err is not None:
        path = "/".join(map(str, err.absolute_path)) or "(message)"
        text = err.message if len(err.message) <= 160 else f"fails the schema's '{err.validator}' rule"
        if "token" in err.absolute_path:
            text = "a token is the 32 hexadecimal digits given when the game was created"   # never echoed
        raise ProtocolError("bad_message", f"{t}: {path}: {text}")


def digest(tok: str) -> str:
    return hashlib.sha256(tok.encode()).hexdigest()


def new_tokens(players: int) -> tuple[dict, dict]:
    """(the tokens to hand out, their digests to store)."""
    given = {"owner": secrets.token_hex(16), "seats": [secrets.token_hex(16) for _ in range(players)]}
    kept = {"owner": digest(given["owner"]), "seats": [digest(t) for t in given["seats"]]}
    return given, kept


def _matches(given, kept) -> bool:
    return isinstance(given, str) and isinstance(kept, str) and hmac.compare_digest(digest(given), kept)


_TOKEN = re.compile(r"^\s*token\s*$", re.M)     # a token's header line (docs/language.md)


def _set_offered(set_name: str, edition: str) -> dict:
    """A set as the hello offers it: its label, and how many of its cards are written against the printed
    count (an incomplete set plays without the others, and frontends say so before the game is made)."""
    gs = load_set(set_name, edition)
    have = sum(1 for src in gs.sources if not _TOKEN.search(src.text))   # a token (a museum) is no card
    expected = gs.manifest.get("cards_expected", have)
    out = {"set": set_name, "label": gs.manifest.get("label", set_name), "cards": have, "expected": expected,
           "complete": set_complete(have, gs.manifest, gs.card_names)}
    if gs.manifest.get("requires"):      # an option of another set: played only with it (relics with Artifacts)
        out["requires"] = list(gs.manifest["requires"])
    if gs.manifest.get("removed_at_setup"):   # printed cards the set's games are played without (its rulings)
        out["removed"] = list(gs.manifest["removed_at_setup"])
    return out


@functools.lru_cache(maxsize=1)
def editions_offered() -> tuple:
    """What a new game may be made of: each edition with its label, player counts and sets (the hello reply;
    read once per server)."""
    out = []
    for name in available_editions():
        try:
            m = load_edition(name).manifest
            sets = [_set_offered(s, name) for s in available_sets(name)]
        except CompileError:   # a broken manifest: not offered
            continue
        out.append({"edition": name, "label": m.get("label", name), "players": dict(m["players"]), "sets": sets})
    return tuple(out)


def new_seed() -> int:
    """A served game's seed: from the operating system's generator, within what a JSON number holds exactly
    (53 bits, far too many to try), never sent to a seat."""
    return secrets.randbelow(2 ** 53)


@functools.lru_cache(maxsize=16)
def _sets_of(edition: str) -> tuple:
    """The sets of a known edition (read once per server)."""
    return tuple(available_sets(edition))


class Hub:
    def __init__(self, store: Store, max_games: int = MAX_GAMES_IN_MEMORY, sandbox_limits: dict | None = None,
                 allow_seeds: bool = False, quotas: Quotas | None = None, storage: dict | None = None,
                 check_limits: dict | None = None):
        """allow_seeds: `create` may name its seed (tests; `innoscript serve --allow-seeds`); otherwise every
        game is dealt from a seed of the operating system's generator and a message naming one is refused.
        quotas: what one address may create and watch (runtime/serving/quotas.py; None: no quotas, as over stdio).
        storage: STORAGE's expiry of abandoned games and size limit of the database. check_limits: the budget and
        the number of the check's workers (runtime/serving/workers.py)."""
        self.store = store
        self.allow_seeds = allow_seeds
        self.quotas = quotas
        self.storage = dict(STORAGE, **(storage or {}))
        self.max_games = max_games
        self.games: OrderedDict[str, dict] = OrderedDict()   # game id -> entry, least recently used first
        self.seats: dict[object, dict] = {}      # connection -> {game id: seat or None}
        self.watchers: dict[str, set] = {}       # game id -> the connections joined to it as spectators
        self.addresses: dict[object, object] = {}   # connection -> the address it comes from
        self.bundles: OrderedDict[tuple, dict] = OrderedDict()   # (edition, sets) -> bundle, least recent first
        self.lock = threading.RLock()            # guards the dicts above, held only briefly
        self.bundle_lock = threading.Lock()
        self.sandbox_limits = dict(sandbox.LIMITS, **(sandbox_limits or {}))
        self.trials = threading.BoundedSemaphore(self.sandbox_limits["concurrent"])
        self.checks = workers.Pool(sandbox.WORKER, check_limits)
        self.checking: set = set()               # (check or trial, connection) under way
        self.loaded = 0                          # games read back from the store (tests watch eviction)
        self.housekept = 0.0                     # when the store's housekeeping last ran (monotonic)

    # ------------------------------------------------------------ entry point
    def handle(self, conn, text) -> list[tuple[object, dict]]:
        """Replies and pushes for one incoming message: a list of (connection, message)."""
        request = gid = None
        try:
            msg = parse(text)
            rid = msg.get("id")   # echoed even when the rest is bad, if it is a plausible id
            if (isinstance(rid, int) and not isinstance(rid, bool)) or (isinstance(rid, str) and len(rid) <= 64):
                request = rid
            check_client(msg)
            gid = msg.get("game")
            return getattr(self, "do_" + msg["type"])(conn, msg)
        except ProtocolError as err:
            return [(conn, self._error(err.code, str(err), request))]
        except IllegalAnswer as err:
            return [(conn, self._error("illegal", str(err), request))]
        except BadSave as err:
            return [(conn, self._error("bad_save", str(err), request))]
        except Conflict:
            self._evict(gid)   # the cache may be behind the database: reload from it
            return [(conn, self._error("conflict", "another server changed this game first, or it is over; "
                                                   "ask again", request))]
        except RuntimeFault as err:
            self._evict(gid)
            return [(conn, self._error("runtime_fault", str(err), request))]
        except (sqlite3.Error, StorageError) as err:
            self._evict(gid)
            return [(conn, self._error("storage", f"the game database failed: {err}; nothing was changed", request))]
        except Exception as err:   # a bug must not take the server down: report it, reload the game from the store
            import traceback
            traceback.print_exc()
            self._evict(gid)
            return [(conn, self._error("internal", f"internal error ({type(err).__name__}); the game was reloaded "
                                                   "from the database", request))]

    def connect(self, conn, address) -> None:
        """A transport's new connection and the address it comes from (for the quotas per address)."""
        with self.lock:
            self.addresses[conn] = address

    def disconnect(self, conn) -> None:
        with self.lock:
            for gid in self.seats.pop(conn, {}):
                watching = self.watchers.get(gid)
                if watching is not None:
                    watching.discard(conn)
                    if not watching:
                        del self.watchers[gid]
            self.addresses.pop(conn, None)

    def close(self) -> None:
        """Stop the check's workers (a server that ends)."""
        self.checks.close()

    @staticmethod
    def _error(code: str, message: str, request=None) -> dict:
        out = {"type": "error", "code": code, "message": message}
        if request is not None:
            out["re"] = request
        return out

    @staticmethod
    def _reply(msg: dict, **body) -> dict:
        if msg.get("id") is not None:
            body["re"] = msg["id"]
        return body

    # ------------------------------------------------------------ games
    def edition(self, name: str) -> str:
        """A known edition's name; never a path."""
        if name not in available_editions():
            raise ProtocolError("bad_edition", f"no edition {name[:40]!r} (known: {', '.join(available_editions())})")
        return name

    def bundle(self, edition: str, sets=()) -> dict:
        """The bundle of a known edition with these sets (each a known set of it, named once), compiled once per
        distinct edition and set list; the last MAX_BUNDLES used are kept."""
        edition = self.edition(edition)
        sets = sets or ()
        if not isinstance(sets, (list, tuple)) or not all(isinstance(s, str) and s.isidentifier() and len(s) <= 40
                                                          for s in sets):
            raise ProtocolError("bad_edition", "a set is named by its folder's name, e.g. one under cards/sets/")
        if len(set(sets)) != len(sets):
            raise ProtocolError("bad_edition", "a set is named more than once")
        known = _sets_of(edition)
        for name in sets:
            if name not in known:
                raise ProtocolError("bad_edition", f"unknown set {name!r} for edition {edition} "
                                                   f"(known: {', '.join(known) or 'none'})")
        key = (edition, tuple(sorted(sets)))
        with self.bundle_lock:
            bundle = self.bundles.get(key)
            if bundle is None:
                try:
                    bundle = load_bundle(edition, sets=key[1]) if sets else load_bundle(edition)
                except CompileError as err:
                    raise ProtocolError("bad_edition", str(err).splitlines()[0]) from None
                # the cards' English (read by every view that asks inside an effect) is made here, once, so no
                # answer in the middle of a game waits for it, nor do several threads make it at once
                card_catalog(edition, key[1])
                self.bundles[key] = bundle
            self.bundles.move_to_end(key)
            while len(self.bundles) > MAX_BUNDLES:
                self.bundles.popitem(last=False)
            return bundle

    def _evict(self, gid) -> None:
        if isinstance(gid, str):
            with self.lock:
                self.games.pop(gid, None)

    def get(self, gid: str) -> dict:
        version = self.store.version(gid)
        if version is None:
            raise ProtocolError("no_game", f"no game {gid!r}")
        with self.lock:
            entry = self.games.get(gid)
            if entry is not None and entry["version"] == version:
                self.games.move_to_end(gid)
                return entry
        row = self.store.load(gid)   # not cached, or another server moved it on
        try:
            # a stored game was checked when it came in (create, load): not played on again here
            game = Game.load(row["state"], bundle=self.bundle(row["edition"], row["state"].get("sets", ())),
                             try_play=False)
        except BadSave as err:
            raise BadSave(f"the stored game cannot be loaded: {err}") from None
        game.set_undo_record(row["undo"], row["since"])
        entry = {"game": game, "bots": row["bots"], "version": row["version"], "tokens": row["tokens"],
                 "lock": threading.RLock()}
        with self.lock:
            self.loaded += 1
            self.games[gid] = entry
            self.games.move_to_end(gid)
            while len(self.games) > self.max_games:
                self.games.popitem(last=False)
        return entry

    def _play_bots(self, entry) -> list[dict]:
        game, bots = entry["game"], entry["bots"]
        events: list[dict] = []
        n, start = 0, time.monotonic()
        while not game.over and bots[game.decision["player"]]:
            p = game.decision["player"]
            # one bot object per seat keeps what a bot remembers (the dogmas it used this turn); reseeded
            # per decision, so a game reloaded from the store plays on the same way
            bot = entry.setdefault("bot_objects", {}).get(p)
            if bot is None or bot.name != bots[p]:
                # the search bot thinks by the clock here, so a whole bot turn stays inside BOT_SECONDS
                budget = {"seconds": BOT_SECONDS / (5 * sum(1 for b in bots if b)), "iterations": None}
                bot = entry["bot_objects"][p] = BOTS[bots[p]](0, **(budget if bots[p] == "search" else {}))
            bot.rng = random.Random(game.state["decisions"] * 7919 + game.state["seed"])
            events += game.apply(answer_for(game, bot, p))   # a bot sees only its own player's view
            n += 1
            if n > BOT_ANSWERS or time.monotonic() - start > BOT_SECONDS:
                raise ProtocolError("bot_loop", "the bots did not reach a person's decision; nothing was changed")
        return events

    def _persist(self, gid: str, entry, events: list | None = None) -> None:
        game = entry["game"]   # the events go with the write: other servers' pushes carry them (pgstore.py)
        entry["version"] = self.store.update(gid, entry["version"], game.state, *game.undo_record(), events=events)

    def _pushes(self, gid: str, entry, events: list[dict], skip=None) -> list[tuple[object, dict]]:
        """The update each joined connection gets: made once per seat (the spectators' once for them all) and
        shared, so the work of an answer does not grow with the number of spectators (the transport turns each
        distinct message into text once, too)."""
        game = entry["game"]
        with self.lock:
            watchers = [(conn, seats[gid]) for conn, seats in self.seats.items() if gid in seats and conn != skip]
        made: dict = {}
        out = []
        for conn, seat in watchers:
            if seat not in made:
                made[seat] = {"type": "update", "game": gid, "player": seat, "version": entry["version"],
                              "events": game.events_for(events, seat), "view": self._view(entry, seat)}
            out.append((conn, made[seat]))
        return out

    def _view(self, entry, seat):
        """A seat's view, with whether that seat may take its last action back now (the web's Undo button)."""
        game = entry["game"]
        view = game.view(seat)
        view["can_undo"] = (seat is not None and game.undo_player() == seat
                            and game.undoable(people=[p for p, bot in enumerate(entry["bots"]) if not bot]))
        return view

    def _seat(self, entry, player):
        if player is not None and not 0 <= player < len(entry["game"].state["players"]):
            raise ProtocolError("bad_player", f"no player {player} in this game")
        return player

    def _viewer(self, entry, msg):
        """The seat whose view a view/join gets: the asked seat with its token, else a spectator."""
        seat = self._seat(entry, msg.get("player"))
        if seat is None:
            return None
        if "token" not in msg:
            return None
        if not _matches(msg["token"], entry["tokens"].get("seats", [None] * (seat + 1))[seat]):
            raise ProtocolError("forbidden", f"that is not player {seat}'s token")
        return seat

    def _require_seat(self, entry, msg) -> int:
        seat = self._seat(entry, msg["player"])
        seats = entry["tokens"].get("seats", [])
        if seat >= len(seats) or not _matches(msg.get("token"), seats[seat]):
            raise ProtocolError("forbidden", f"answering or undoing for player {seat} needs that seat's token")
        return seat

    def _new_game(self, conn, msg, game: Game, edition: str, bots: list):
        """Play the bots' first decisions, store the game, and hand out its tokens."""
        players = len(game.state["players"])
        entry = {"game": game, "bots": bots, "version": 0, "tokens": None, "lock": threading.RLock()}
        try:
            for p in [None] + list(range(players)):
                game.view(p)
            self._play_bots(entry)
        except (ProtocolError, RuntimeFault):
            raise
        except Exception as err:   # a state the engine cannot play: refused, nothing stored
            if msg["type"] == "load":
                raise BadSave(f"the saved game cannot be played on: {type(err).__name__}") from None
            raise
        given, kept = new_tokens(players)
        gid = uuid.uuid4().hex[:12]
        entry["tokens"] = kept
        entry["version"] = self.store.create(gid, edition, game.state, bots, kept, *game.undo_record())
        with self.lock:
            self.games[gid] = entry
            while len(self.games) > self.max_games:
                self.games.popitem(last=False)
        extra = {"sets": set_report(game.cards)} if game.cards.set_names else {}
        return [(conn, self._reply(msg, type="created", game=gid, players=players, edition=edition,
                                   seats=given["seats"], owner=given["owner"], **extra))]

    # ------------------------------------------------------------ changes stored by another server
    def changed(self, gid: str | None, version: int | None = None) -> list[tuple[object, dict]]:
        """Another server stored `version` of a game (the store's notice; a version of None: look at the stored
        one; a game of None: notices may have been missed, so every joined game). The connections here that
        joined it get an ``update`` with the events of the writes since the version they saw, as they do for an
        answer given here; nothing for a game nobody here joined, or one this Hub has at that version already
        (its own write)."""
        if gid is None:
            with self.lock:
                joined = sorted({g for games in self.seats.values() for g in games})
            return [push for g in joined for push in self.changed(g)]
        with self.lock:
            if not any(gid in games for games in self.seats.values()):
                return []   # a copy kept in memory is reloaded when asked for (get compares versions)
            entry = self.games.get(gid)
        try:
            if version is None:
                version = self.store.version(gid)
            if version is None or (entry is not None and entry["version"] >= version):
                return []
            seen = entry["version"] if entry is not None else None
            entry = self.get(gid)   # read back from the store
            with entry["lock"]:
                events = self.store.events(gid, entry["version"], seen)
                return self._pushes(gid, entry, events)
        except (ProtocolError, BadSave, Conflict, StorageError, sqlite3.Error):   # gone, or unreadable: its seats
            self._evict(gid)                                                     # hear of it when they ask
            return []

    # ------------------------------------------------------------ messages
    def do_hello(self, conn, msg):
        return [(conn, self._reply(msg, type="hello", protocol=PROTOCOL_VERSION, server="innoscript",
                                   limits=dict(LIMITS), editions=list(editions_offered()), seeds=self.allow_seeds))]

    def _admit_new_game(self, conn) -> None:
        """Before a game is created or loaded: the address's quota of new games, the store's housekeeping (games
        abandoned for longer than STORAGE's expiry are deleted), and room in the database."""
        if self.quotas is not None:
            try:
                self.quotas.game(self.addresses.get(conn, conn))
            except QuotaError as err:
                raise ProtocolError("limit", str(err)) from None
        now = time.monotonic()
        if now - self.housekept >= self.storage["housekeeping_seconds"] or not self.housekept:
            self.housekept = now
            self.expire()
        limit = self.storage["max_db_bytes"]
        if limit and self.store.size() > limit:
            raise ProtocolError("limit", f"the server's game database is full ({limit >> 20} MiB): no new game can be "
                                         "stored until abandoned games expire; the games in it go on")

    def expire(self) -> int:
        """Delete the games not written for longer than STORAGE's expiry (from the store and from memory);
        how many."""
        seconds = self.storage["expire_seconds"]
        if not seconds:
            return 0
        gone = self.store.expire(time.time() - seconds)
        with self.lock:
            for gid in gone:
                self.games.pop(gid, None)
        return len(gone)

    def do_create(self, conn, msg):
        if "seed" in msg and not self.allow_seeds:
            raise ProtocolError("bad_message", "create: seed: this server deals every game from a seed of its own, "
                                               "which no one sees; a seed is taken only by a server started with "
                                               "--allow-seeds (for tests)")
        self._admit_new_game(conn)
        edition = self.edition(msg.get("edition", "3e"))
        bundle = self.bundle(edition, msg.get("sets", ()))
        players = msg.get("players", 2)
        bots = msg.get("bots") or [None] * players
        if len(bots) != players:
            raise ProtocolError("bad_message", f"bots: give one entry per player ({players})")
        names = msg.get("names")
        if names is not None and len(names) != players:
            raise ProtocolError("bad_message", f"names: give one name per player ({players}), not {len(names)}")
        try:
            seed = msg["seed"] if "seed" in msg else new_seed()
            game = Game.new(players=players, seed=seed, names=names, bundle=bundle, secret=secrets.token_hex(16),
                            options=msg.get("options"))
        except ValueError as err:   # OptionsError among them: the message names the option
            raise ProtocolError("bad_message", str(err)) from None
        return self._new_game(conn, msg, game, bundle["edition"], bots)

    def do_load(self, conn, msg):
        self._admit_new_game(conn)
        data = msg["data"]
        edition = data.get("edition")
        if not isinstance(edition, str):
            raise BadSave("saved game: no edition")
        sets = data.get("sets", [])
        if not isinstance(sets, list):
            raise BadSave("saved game: sets is a list of set names")
        try:
            bundle = self.bundle(edition, sets)
        except ProtocolError as err:
            raise BadSave(f"saved game: {err}") from None
        try:
            game = Game.load(data, bundle=bundle)
        except BadSave:
            raise
        except Exception as err:   # whatever the loader missed is still the file's fault, not a bug to report
            raise BadSave(f"saved game: cannot be loaded ({type(err).__name__})") from None
        try:
            broken = violations(game.engine)
        except Exception as err:
            broken = [f"the state cannot be checked ({type(err).__name__})"]
        if broken:   # never store a game that breaks the engine's invariants
            raise BadSave(f"saved game: {broken[0]}")
        players = len(game.state["players"])
        bots = msg.get("bots") or [None] * players
        if len(bots) != players:
            raise ProtocolError("bad_message", f"bots: give one entry per player ({players})")
        return self._new_game(conn, msg, game, edition, bots)

    def do_join(self, conn, msg):
        entry = self.get(msg["game"])
        with entry["lock"]:
            seat = self._viewer(entry, msg)
            view = self._view(entry, seat)
        gid = msg["game"]
        with self.lock:
            joined = self.seats.setdefault(conn, {})
            if gid not in joined and len(joined) >= MAX_JOINED:
                raise ProtocolError("bad_message", f"one connection may join at most {MAX_JOINED} games")
            watching = self.watchers.setdefault(gid, set())
            limit = self.quotas.settings["spectators_per_game"] if self.quotas is not None else 0
            if seat is None and conn not in watching and limit and len(watching) >= limit:
                if not watching:
                    del self.watchers[gid]
                raise ProtocolError("limit", f"this game has {limit} spectators already, the most it may have; "
                                             "'view' still shows it")
            if seat is None:
                watching.add(conn)
            else:
                watching.discard(conn)
            if not watching:
                del self.watchers[gid]
            joined[gid] = seat
        return [(conn, self._reply(msg, type="state", game=msg["game"], player=seat, view=view))]

    def do_view(self, conn, msg):
        entry = self.get(msg["game"])
        with entry["lock"]:
            seat = self._viewer(entry, msg)
            view = self._view(entry, seat)
        return [(conn, self._reply(msg, type="state", game=msg["game"], player=seat, view=view))]

    def do_answer(self, conn, msg):
        gid = msg["game"]
        entry = self.get(gid)
        with entry["lock"]:
            game = entry["game"]
            seat = self._require_seat(entry, msg)
            d = game.decision
            if d is None:
                raise ProtocolError("illegal", "the game is over")
            if d["player"] != seat:
                raise ProtocolError("wrong_player", f"decision {d['id']} is for player {d['player']}, not {seat}")
            if msg.get("decision") is not None and msg["decision"] != d["id"]:
                raise ProtocolError("stale_decision", f"decision {msg['decision']} is no longer pending (now {d['id']})")
            self._check_shape_of_answer(d, msg["answer"])
            # checked against the decision as this seat was shown it (hidden cards by their handles only), and
            # refused in words from what the seat may see; a refusal changes nothing, in memory or stored
            answer = answer_as_seen(game.cards, game.state, seat, msg["answer"])
            try:
                events = game.apply(answer, seat)
                events += self._play_bots(entry)
                self._persist(gid, entry, events)
            except BaseException:
                self._evict(gid)   # the game in memory may be ahead of the store: reload it next time
                raise
            reply = self._reply(msg, type="update", game=gid, player=seat, version=entry["version"],
                                events=game.events_for(events, seat), view=self._view(entry, seat))
            return [(conn, reply)] + self._pushes(gid, entry, events, skip=conn)

    def _check_shape_of_answer(self, d, answer) -> None:
        """What the protocol refuses of an answer before the game sees it: too many items, and true or false
        where no yes/no is asked (both judged from what the seat was shown)."""
        items = answer if isinstance(answer, list) else [answer]
        if len(items) > LIMITS["answer_items"]:
            raise ProtocolError("bad_message", f"an answer names at most {LIMITS['answer_items']} options")
        options = d.get("options") or []
        bool_ok = d["kind"] == "yes_no" or any(isinstance(o, bool) for o in options)
        if not bool_ok and any(isinstance(a, bool) or (isinstance(a, dict) and isinstance(a.get("card"), bool))
                               for a in items):
            raise ProtocolError("illegal", "true and false answer only a yes/no question")

    def do_undo(self, conn, msg):
        gid = msg["game"]
        entry = self.get(gid)
        with entry["lock"]:
            game = entry["game"]
            seat = self._require_seat(entry, msg)
            if game.undo_player() != seat:
                raise ProtocolError("wrong_player", "only the player who took the last action may undo it")
            try:
                game.undo(people=[p for p, bot in enumerate(entry["bots"]) if not bot])   # bots keep no memory
                self._persist(gid, entry)   # a new write with the next version, not a step back
            except BaseException:
                self._evict(gid)
                raise
            return [(conn, self._reply(msg, type="update", game=gid, player=seat, version=entry["version"],
                                       events=[], view=self._view(entry, seat)))] + self._pushes(gid, entry, [], skip=conn)

    def do_save(self, conn, msg):
        entry = self.get(msg["game"])
        with entry["lock"]:
            if not _matches(msg.get("token"), entry["tokens"].get("owner")):
                raise ProtocolError("forbidden", "saving a game needs its owner's token (it holds every hidden card)")
            data = entry["game"].to_json()
        return [(conn, self._reply(msg, type="saved", game=msg["game"], data=data))]

    def do_cards(self, conn, msg):
        edition = self.edition(msg.get("edition", "3e"))
        sets = msg.get("sets", ())
        self.bundle(edition, sets)   # an edition or set whose cards do not compile is a bad_edition error
        return [(conn, self._reply(msg, type="cards", **card_catalog(edition, sets)))]

    def do_list(self, conn, msg):
        offset, limit = msg.get("offset", 0), msg.get("limit", 50)
        games, total = self.store.list(offset, limit)
        nxt = offset + len(games) if offset + len(games) < total else None
        return [(conn, self._reply(msg, type="games", games=games, total=total, next=nxt))]

    # ------------------------------------------------------------ the card editor
    def do_check(self, conn, msg):
        edition = self.edition(msg.get("edition", "3e"))
        sets = msg.get("sets", ())
        self.bundle(edition, sets)   # the sets are known ones of the edition, and compile
        with self._one_at_a_time(conn, "check"):
            try:   # in a worker process, on a budget: never on the threads that serve games
                result = self.checks.run("check", {"source": msg["source"], "edition": edition, "sets": list(sets)})
            except workers.Busy:
                raise ProtocolError("busy", "every card checker is busy; try again in a moment") from None
            except workers.OverBudget as err:
                raise ProtocolError("limit", f"the check of this card was stopped: {err}") from None
        return [(conn, self._reply(msg, type="checked", diagnostics=result["diagnostics"], card=result["card"]))]

    @contextlib.contextmanager
    def _one_at_a_time(self, conn, what: str):
        """A connection has one check (or one trial) at a time; another one meanwhile is answered 'busy'."""
        key = (what, conn)
        with self.lock:
            if key in self.checking:
                raise ProtocolError("busy", f"this connection's last {what} is not finished; send the next one when "
                                            "its reply has come")
            self.checking.add(key)
        try:
            yield
        finally:
            with self.lock:
                self.checking.discard(key)

    def do_sandbox(self, conn, msg):
        """Play the edited card's dogma once, in a small position with random answers, in a child process."""
        edition = self.edition(msg.get("edition", "3e"))
        sets = msg.get("sets", ())
        self.bundle(edition, sets)
        with self._one_at_a_time(conn, "trial"):
            if not self.trials.acquire(blocking=False):   # no waiting: a worker thread is never parked on the sandbox
                raise ProtocolError("busy", "the sandbox is busy with other trials; try again")
            try:
                log, error = sandbox.run_in_child(msg["source"], edition, msg.get("seed", 0), self.sandbox_limits,
                                                  sets)
            finally:
                self.trials.release()
        return [(conn, self._reply(msg, type="sandboxed", log=log, error=error))]
