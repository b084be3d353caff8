"""The JSON protocol: one JSON object per message, the same over stdio and WebSocket.

A ``Hub`` holds the games (backed by a ``Store``) and turns each incoming
message into replies and pushes; the transports (runtime/server.py) only move
text.  Every message, in and out, is described by
innoscript/schemas/protocol.schema.json.  A bad message gets an ``error``
reply naming what is wrong and changes nothing; other games are unaffected.
"""
from __future__ import annotations

import json
import random
import re
import secrets
import sqlite3
import uuid

import jsonschema

from innoscript.compiler.bundle import load_bundle
from innoscript.diagnostics import CompileError
from innoscript.editions import schema
from .bots import BOTS, answer_for
from .engine import IllegalAnswer
from .game import BadSave, Game
from .store import Conflict, Store
from .views import editor_face, resolve_answer
from .vm import RuntimeFault

PROTOCOL_VERSION = 1


class ProtocolError(Exception):
    def __init__(self, code: str, message: str):
        self.code = code
        super().__init__(message)


_VALIDATOR = None


def validator() -> jsonschema.Draft202012Validator:
    global _VALIDATOR
    if _VALIDATOR is None:
        _VALIDATOR = jsonschema.Draft202012Validator(schema("protocol.schema.json"))
    return _VALIDATOR


CLIENT_TYPES = ("hello", "create", "load", "join", "view", "answer", "undo", "save", "list", "check", "sandbox", "cards")


def check_client(msg) -> None:
    if not isinstance(msg, dict):
        raise ProtocolError("bad_message", "a message is a JSON object with a 'type'")
    t = msg.get("type")
    if t not in CLIENT_TYPES:
        raise ProtocolError("unknown_type", f"unknown message type {t!r} (known: {', '.join(CLIENT_TYPES)})")
    # validate against that type's own schema, for a precise message
    sub = {"$ref": f"#/$defs/{t}", "$defs": validator().schema["$defs"]}
    err = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(sub).iter_errors(msg))
    if err is not None:
        path = "/".join(map(str, err.absolute_path)) or "(message)"
        raise ProtocolError("bad_message", f"{t}: {path}: {err.message}")


class Hub:
    def __init__(self, store: Store):
        self.store = store
        self.games: dict[str, dict] = {}         # game id -> {"game", "bots", "version"}
        self.seats: dict[object, dict] = {}      # connection -> {game id: seat or None}
        self.bundles: dict[str, dict] = {}

    # ------------------------------------------------------------ entry point
    def handle(self, conn, text: str) -> list[tuple[object, dict]]:
        """Replies and pushes for one incoming message: a list of (connection, message)."""
        request = None
        try:
            try:
                msg = json.loads(text)
            except json.JSONDecodeError as err:
                raise ProtocolError("bad_json", f"not valid JSON: {err.msg} at column {err.colno}") from None
            if isinstance(msg, dict):
                request = msg.get("id")
            check_client(msg)
            return getattr(self, "do_" + msg["type"])(conn, msg)
        except ProtocolError as err:
            return [(conn, self._error(err.code, str(err), request))]
        except IllegalAnswer as err:
            return [(conn, self._error("illegal", str(err), request))]
        except BadSave as err:
            return [(conn, self._error("bad_save", str(err), request))]
        except Conflict:
            self.games.clear()   # the cache may be ahead of the database: reload from it
            return [(conn, self._error("conflict", "another server changed this game first; ask again", request))]
        except RuntimeFault as err:
            self.games.clear()
            return [(conn, self._error("runtime_fault", str(err), request))]
        except sqlite3.Error as err:
            self.games.clear()
            return [(conn, self._error("storage", f"the game database failed: {err}; nothing was changed", request))]
        except Exception as err:   # a bug must not take the server down: report it, reload games from the store
            import traceback
            traceback.print_exc()
            self.games.clear()
            return [(conn, self._error("internal", f"internal error ({type(err).__name__}); the game was reloaded "
                                                   "from the database", request))]

    def disconnect(self, conn) -> None:
        self.seats.pop(conn, None)

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
    def bundle(self, edition: str) -> dict:
        if edition not in self.bundles:
            try:
                self.bundles[edition] = load_bundle(edition)
            except CompileError as err:
                raise ProtocolError("bad_edition", str(err).splitlines()[0]) from None
        return self.bundles[edition]

    def get(self, gid: str) -> dict:
        entry = self.games.get(gid)
        version = self.store.version(gid)
        if version is None:
            raise ProtocolError("no_game", f"no game {gid!r}")
        if entry is None or entry["version"] != version:   # another server may have moved it on
            row = self.store.load(gid)
            game = Game.load(row["state"], bundle=self.bundle(row["edition"]))
            game._undo, game._since = row["undo"], row["since"]
            entry = {"game": game, "bots": row["bots"], "version": row["version"]}
            self.games[gid] = entry
        return entry

    def _play_bots(self, entry) -> list[dict]:
        game, bots = entry["game"], entry["bots"]
        events: list[dict] = []
        n = 0
        while not game.over and bots[game.decision["player"]]:
            p = game.decision["player"]
            bot = BOTS[bots[p]](game.state["decisions"] * 7919 + game.state["seed"])
            events += game.apply(answer_for(game, bot, p))   # a bot sees only its own player's view
            n += 1
            if n > 100_000:
                raise ProtocolError("bot_loop", "the bots did not reach a human decision")
        return events

    def _persist(self, gid: str, entry) -> None:
        game = entry["game"]
        self.store.update(gid, entry["version"], game.state, game._undo, game._since)
        entry["version"] = game.state["decisions"]

    def _pushes(self, gid: str, entry, events: list[dict], skip=None) -> list[tuple[object, dict]]:
        game = entry["game"]
        out = []
        for conn, seats in self.seats.items():
            if gid in seats and conn is not skip:
                seat = seats[gid]
                out.append((conn, {"type": "update", "game": gid, "player": seat,
                                   "events": game.events_for(events, seat), "view": game.view(seat)}))
        return out

    # ------------------------------------------------------------ messages
    def do_hello(self, conn, msg):
        return [(conn, self._reply(msg, type="hello", protocol=PROTOCOL_VERSION, server="innoscript"))]

    def do_create(self, conn, msg):
        bundle = self.bundle(msg.get("edition", "3e"))
        players = msg.get("players", 2)
        bots = msg.get("bots") or [None] * players
        if len(bots) != players:
            raise ProtocolError("bad_message", f"bots: give one entry per player ({players})")
        try:
            game = Game.new(players=players, seed=msg.get("seed", 0), names=msg.get("names"), bundle=bundle,
                            secret=secrets.token_hex(16))
        except ValueError as err:
            raise ProtocolError("bad_message", str(err)) from None
        gid = uuid.uuid4().hex[:12]
        self.store.create(gid, bundle["edition"], game.state, bots)
        entry = {"game": game, "bots": bots, "version": game.state["decisions"]}
        self.games[gid] = entry
        self._play_bots(entry)
        self._persist(gid, entry)
        return [(conn, self._reply(msg, type="created", game=gid, players=players, edition=bundle["edition"]))]

    def do_load(self, conn, msg):
        data = msg["data"]
        edition = data.get("edition") if isinstance(data, dict) else None
        if not isinstance(edition, str):
            raise BadSave("saved game: no edition")
        game = Game.load(data, bundle=self.bundle(edition))
        bots = msg.get("bots") or [None] * len(game.state["players"])
        gid = uuid.uuid4().hex[:12]
        self.store.create(gid, edition, game.state, bots)
        entry = {"game": game, "bots": bots, "version": game.state["decisions"]}
        self.games[gid] = entry
        self._play_bots(entry)
        self._persist(gid, entry)
        return [(conn, self._reply(msg, type="created", game=gid, players=len(game.state["players"]), edition=edition))]

    def _seat(self, entry, player):
        if player is not None and not 0 <= player < len(entry["game"].state["players"]):
            raise ProtocolError("bad_player", f"no player {player} in this game")
        return player

    def do_join(self, conn, msg):
        entry = self.get(msg["game"])
        seat = self._seat(entry, msg.get("player"))
        self.seats.setdefault(conn, {})[msg["game"]] = seat
        return [(conn, self._reply(msg, type="state", game=msg["game"], player=seat,
                                   view=entry["game"].view(seat)))]

    def do_view(self, conn, msg):
        entry = self.get(msg["game"])
        seat = self._seat(entry, msg.get("player"))
        return [(conn, self._reply(msg, type="state", game=msg["game"], player=seat,
                                   view=entry["game"].view(seat)))]

    def do_answer(self, conn, msg):
        gid = msg["game"]
        entry = self.get(gid)
        game = entry["game"]
        seat = self._seat(entry, msg["player"])
        d = game.decision
        if d is None:
            raise ProtocolError("illegal", "the game is over")
        if d["player"] != seat:
            raise ProtocolError("wrong_player", f"decision {d['id']} is for player {d['player']}, not {seat}")
        if msg.get("decision") is not None and msg["decision"] != d["id"]:
            raise ProtocolError("stale_decision", f"decision {msg['decision']} is no longer pending (now {d['id']})")
        answer = self._resolve(game, d, msg["answer"])
        events = game.apply(answer, seat)
        events += self._play_bots(entry)
        self._persist(gid, entry)
        reply = self._reply(msg, type="update", game=gid, player=seat, events=game.events_for(events, seat),
                            view=game.view(seat))
        return [(conn, reply)] + self._pushes(gid, entry, events, skip=conn)

    def _resolve(self, game, d, answer):
        """Hidden cards are named by their handles; turn handles back into ids."""
        try:
            return resolve_answer(game.cards, game.state, d, answer)
        except ValueError as err:
            raise ProtocolError("illegal", str(err)) from None

    def do_undo(self, conn, msg):
        gid = msg["game"]
        entry = self.get(gid)
        game = entry["game"]
        seat = self._seat(entry, msg["player"])
        last = game._undo and json.loads(game._undo)["turn"]["active"]
        if last != seat:
            raise ProtocolError("wrong_player", "only the player who took the last action may undo it")
        game.undo(people=[p for p, bot in enumerate(entry["bots"]) if not bot])   # bots keep no memory
        entry["game"] = game
        self._persist(gid, entry)
        return [(conn, self._reply(msg, type="update", game=gid, player=seat, events=[], view=game.view(seat)))] + \
            self._pushes(gid, entry, [], skip=conn)

    def do_save(self, conn, msg):
        entry = self.get(msg["game"])
        return [(conn, self._reply(msg, type="saved", game=msg["game"], data=entry["game"].to_json()))]

    # ------------------------------------------------------------ the card editor
    def _compile(self, source: str, edition: str):
        from innoscript.compiler.bundle import compile_card, parse_card, vocabulary
        from innoscript.editions import load_edition
        try:
            ed = load_edition(edition)
        except CompileError as err:
            raise ProtocolError("bad_edition", str(err).splitlines()[0]) from None
        vocab = vocabulary(ed.manifest, ed.card_names | set(re.findall(r'card\s+"([^"]+)"', source)))
        try:
            compiled = compile_card(source, "editor.inno", vocab)
            ast, _ = parse_card(source, "editor.inno", vocab)
            return compiled, ast, []
        except CompileError as err:
            return None, None, [d.to_json() for d in err.diagnostics]

    def do_check(self, conn, msg):
        from innoscript.compiler.disasm import disassemble_card
        from innoscript.compiler.render import render_text
        compiled, ast, diagnostics = self._compile(msg["source"], msg.get("edition", "3e"))
        card = None
        if compiled is not None:
            data = dict(compiled.data, id=0)
            card = {"name": data["name"], "rendered": render_text(ast),
                    "disassembly": disassemble_card(data, msg["source"]), "face": editor_face(data, ast)}
        return [(conn, self._reply(msg, type="checked", diagnostics=diagnostics, card=card))]

    def do_sandbox(self, conn, msg):
        """Play the edited card's dogma once, in a small position, with random answers."""
        from .bots import RandomBot
        from .scenario import build_state
        from .terminal import card_text
        edition = msg.get("edition", "3e")
        compiled, _, diagnostics = self._compile(msg["source"], edition)
        if compiled is None:
            return [(conn, self._reply(msg, type="sandboxed", log=[], error="the card does not compile"))]
        bundle = json.loads(json.dumps(self.bundle(edition)))
        data = compiled.data
        existing = next((c for c in bundle["cards"] if c["name"] == data["name"]), None)
        if existing is not None:
            existing.update({k: data[k] for k in ("age", "color", "icons", "dogma", "effects")})
        else:
            bundle["cards"].append(dict(data, id=len(bundle["cards"])))
        rng = random.Random(msg.get("seed", 0))
        others = [c for c in bundle["cards"] if c["name"] != data["name"] and c["age"] <= 2]
        rng.shuffle(others)
        setup = {"players": [{"board": {data["color"]: [data["name"]]}, "hand": [c["name"] for c in others[:3]]},
                             {"board": {others[3]["color"]: [others[3]["name"]]}, "hand": [c["name"] for c in others[4:6]]}]}
        engine = build_state({"edition": edition, "players": 2, "do": {"draw": True}, "setup": setup}, bundle)
        engine.advance()
        game = Game(engine, fast=True)
        bots = [RandomBot(msg.get("seed", 0) + p) for p in range(2)]
        log = [f"position: you have {data['name']} on your board and {', '.join(setup['players'][0]['hand'])} in hand"]
        try:
            events = game.apply({"type": "dogma", "card": engine.cards.by_name[data["name"]]})
            while game.decision and game.decision["kind"] != "action":
                p = game.decision["player"]
                d = game.view(p)["decision"]
                log.append(f"player {p + 1} is asked: {d.get('prompt', d['kind'])}")
                events += game.apply(answer_for(game, bots[p], p))
        except RuntimeFault as err:
            return [(conn, self._reply(msg, type="sandboxed", log=log, error=str(err)))]
        for e in game.events_for(events, 0):   # as the player who used the card saw it
            who = f"player {e['player'] + 1}" if isinstance(e.get("player"), int) else ""
            if isinstance(e.get("card"), dict):
                log.append(f"{who} {e['type']} {card_text(e['card'])}".strip())
            elif e["type"] in ("splay", "special_achievement", "game_over"):
                log.append(f"{who} {e['type']} {e.get('color', '')} {e.get('direction', '')}{e.get('name', '')}".strip())
        return [(conn, self._reply(msg, type="sandboxed", log=log, error=None))]

    def do_cards(self, conn, msg):
        from .views import card_catalog
        self.bundle(msg.get("edition", "3e"))   # an unknown edition is a bad_edition error
        return [(conn, self._reply(msg, type="cards", **card_catalog(msg.get("edition", "3e"))))]

    def do_list(self, conn, msg):
        return [(conn, self._reply(msg, type="games", games=self.store.list()))]
