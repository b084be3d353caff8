"""Seats and tokens: for every message type, a connection without a seat's token cannot see that
seat's hidden cards or act for it; the owner's token alone saves. Origins, the web app's headers and
the address the servers listen on."""
import json
import random
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from innoscript.runtime.serving.protocol import CLIENT_TYPES, Hub
from innoscript.runtime.serving.store import Store
from protocol_client import answer_for, check, free_port, wait_for_port


class Client:
    """A connection to an in-process hub that keeps every message it receives."""

    def __init__(self, hub, name):
        self.hub, self.name, self.inbox = hub, name, []

    def ask(self, msg):
        out = self.hub.handle(self.name, json.dumps(check("client", msg)))
        for target, m in out:
            check("server", m)
            if target == self.name:
                self.inbox.append(m)
            else:
                self.hub.clients[target].inbox.append(m)
        return next(m for t, m in out if t == self.name)


def faces(value):
    """Every card face (a card shown by name) anywhere in a message."""
    out, stack = set(), [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            if "name" in v and "id" in v and "age" in v:
                out.add(v["name"])
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return out


@pytest.fixture
def table(tmp_path):
    hub = Hub(Store(tmp_path / "g.sqlite"), allow_seeds=True)
    hub.clients = {}
    for name in ("host", "alice", "bob", "eve"):
        hub.clients[name] = Client(hub, name)
    created = hub.clients["host"].ask({"type": "create", "players": 2, "seed": 11})
    gid, tokens = created["game"], created["seats"]
    rng = random.Random(11)
    for _ in range(5):   # the initial melds and a few draws
        seat = hub.clients["host"].ask({"type": "view", "game": gid})["view"]["decision"]["player"]
        c = hub.clients["alice" if seat == 0 else "bob"]
        d = c.ask({"type": "view", "game": gid, "player": seat, "token": tokens[seat]})["view"]["decision"]
        r = c.ask({"type": "answer", "game": gid, "player": seat, "token": tokens[seat], "decision": d["id"],
                   "answer": drawing(d, rng)})
        assert r["type"] == "update", r
    return hub, created


def drawing(d, rng):
    """Draw whenever drawing is an action (hands fill with hidden cards), otherwise a random answer."""
    draw = [o for o in d["options"] if isinstance(o, dict) and o.get("type") == "draw"] if d["kind"] == "action" else []
    return draw[0] if draw else answer_for(d, rng)


def hidden_of(hub, gid, seat):
    """The names of the cards in the seat's hand and score pile (hidden from everyone else)."""
    entry = hub.get(gid)
    game = entry["game"]
    pl = game.state["players"][seat]
    return {game.cards.name[c] for c in pl["hand"] + pl["score"]}


def attacks(gid, player, other_token, data):
    """Per message type: what a connection holding only `other_token` (another seat's, or None) may try."""
    tok = {} if other_token is None else {"token": other_token}
    return {
        "hello": [{"type": "hello"}],
        "create": [{"type": "create", "players": 2, "seed": 11}],
        "load": [{"type": "load", "data": data}],
        "join": [{"type": "join", "game": gid, "player": player, **tok}, {"type": "join", "game": gid, "player": player},
                 {"type": "join", "game": gid, "player": None}],
        "view": [{"type": "view", "game": gid, "player": player, **tok}, {"type": "view", "game": gid, "player": player},
                 {"type": "view", "game": gid}],
        "answer": [{"type": "answer", "game": gid, "player": player, **tok, "answer": a} for a in (0, None, [0], "x")],
        "undo": [{"type": "undo", "game": gid, "player": player, **tok}],
        "save": [{"type": "save", "game": gid, "token": other_token or "0" * 32}],
        "list": [{"type": "list"}],
        "check": [{"type": "check", "source": "card \"X\" {\n}\n"}],
        "sandbox": [{"type": "sandbox", "source": "card \"X\" {\n}\n"}],
        "cards": [{"type": "cards"}],
    }


@pytest.mark.parametrize("holder", ["another seat's token", "no token"])
def test_no_message_type_shows_or_acts_for_a_seat_without_its_token(table, holder):
    hub, created = table
    gid, tokens = created["game"], created["seats"]
    eve = hub.clients["eve"]
    secret = hidden_of(hub, gid, 1)
    assert secret, "the test needs seat 1 to hold hidden cards"
    before = hub.store.load(gid)
    # eve may hold a saved copy of another game of hers, never this one
    own = hub.clients["host"].ask({"type": "create", "players": 2, "seed": 12})
    her_data = hub.clients["host"].ask({"type": "save", "game": own["game"], "token": own["owner"]})["data"]
    other = tokens[0] if holder == "another seat's token" else None
    tried = attacks(gid, 1, other, her_data)
    assert set(tried) == set(CLIENT_TYPES), "every message type must be tried"
    for kind, messages in tried.items():
        for msg in messages:
            reply = eve.ask(msg)
            if kind in ("answer", "undo", "save"):
                assert reply["type"] == "error" and reply["code"] == "forbidden", (msg, reply)
            if kind in ("view", "join") and reply["type"] == "state":
                assert reply["player"] is None and isinstance(reply["view"]["players"][1]["hand"], dict)
                assert "options" not in (reply["view"]["decision"] or {})
            if kind == "list":
                assert all(set(g) == {"game", "edition", "players", "phase", "over"} for g in reply["games"])
    after = hub.store.load(gid)
    assert (after["state"], after["version"]) == (before["state"], before["version"])   # nothing acted
    # the rightful seats play on; eve, joined as a spectator, receives the pushes
    rng = random.Random(5)
    for _ in range(3):
        seat = hub.clients["host"].ask({"type": "view", "game": gid})["view"]["decision"]["player"]
        c = hub.clients["alice" if seat == 0 else "bob"]
        d = c.ask({"type": "view", "game": gid, "player": seat, "token": tokens[seat]})["view"]["decision"]
        c.ask({"type": "answer", "game": gid, "player": seat, "token": tokens[seat], "decision": d["id"],
               "answer": drawing(d, rng)})
    assert any(m["type"] == "update" for m in eve.inbox)
    still_hidden = hidden_of(hub, gid, 1) & secret
    assert still_hidden, "the test needs cards that stayed hidden throughout"
    seen = set().union(*(faces(m) for m in eve.inbox if m.get("game") == gid))
    assert not seen & still_hidden, f"eve saw seat 1's hidden cards {sorted(seen & still_hidden)}"
    text = json.dumps(eve.inbox)
    assert not any(t in text for t in tokens[1:] + [created["owner"]]), "a token was echoed"


def test_tokens_are_secret_and_only_the_owner_saves(table):
    hub, created = table
    gid = created["game"]
    host = hub.clients["host"]
    assert len(set(created["seats"] + [created["owner"]])) == 3
    saved = host.ask({"type": "save", "game": gid, "token": created["owner"]})
    assert saved["type"] == "saved"
    text = json.dumps(saved["data"])
    assert not any(t in text for t in created["seats"] + [created["owner"]]), "a token inside the saved game"
    row = hub.store.load(gid)
    assert created["owner"] not in json.dumps(row), "the store keeps digests, not tokens"
    for seat_token in created["seats"]:
        assert host.ask({"type": "save", "game": gid, "token": seat_token})["code"] == "forbidden"
    views = [m for m in host.inbox + hub.clients["alice"].inbox if m["type"] in ("state", "update")]
    assert views and not any(t in json.dumps(views) for t in created["seats"])


def test_list_is_paginated_public_facts(tmp_path):
    hub = Hub(Store(tmp_path / "g.sqlite"), allow_seeds=True)
    ids = [hub.handle("c", json.dumps({"type": "create", "seed": i}))[0][1]["game"] for i in range(5)]
    seen, offset = [], 0
    while offset is not None:
        page = hub.handle("c", json.dumps({"type": "list", "offset": offset, "limit": 2}))[0][1]
        check("server", page)
        assert page["total"] == 5 and len(page["games"]) <= 2
        seen += [g["game"] for g in page["games"]]
        offset = page["next"]
    assert seen == ids


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    port = free_port()
    db = tmp_path_factory.mktemp("web") / "g.sqlite"
    p = subprocess.Popen([sys.executable, "-m", "innoscript.cli", "serve", "--web", "--port", str(port), "--db", str(db),
                          "--allow-origin", "https://friend.example"], stderr=subprocess.PIPE, text=True)
    wait_for_port(port)
    yield port, p
    p.kill()
    p.wait()


def test_websocket_accepts_only_allowed_origins(web):
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect
    port, _ = web
    url = f"ws://127.0.0.1:{port}/ws"
    for origin in (None, f"http://127.0.0.1:{port}", f"http://localhost:{port}", "https://friend.example"):
        with connect(url, origin=origin) as conn:
            conn.send(json.dumps({"type": "hello"}))
            assert json.loads(conn.recv(timeout=10))["type"] == "hello"
    for origin in ("http://evil.example", f"http://127.0.0.1:{port + 1}", "null"):
        with pytest.raises(InvalidStatus) as err:
            connect(url, origin=origin)
        assert err.value.response.status_code == 403


def test_web_app_is_served_with_a_content_security_policy(web):
    port, _ = web
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/") as r:
        csp = r.headers["Content-Security-Policy"]
        assert r.headers["X-Content-Type-Options"] == "nosniff"
        assert r.headers["X-Frame-Options"] == "DENY"
        html = r.read().decode()
    assert "script-src 'self'" in csp and "default-src 'none'" in csp and "unsafe-inline" not in csp
    assert "<script>" not in html and "<script src=" in html   # no inline script to allow
    for bad in ("/../pyproject.toml", "/%2e%2e/pyproject.toml", "/.hidden"):
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(f"http://127.0.0.1:{port}{bad}")
        assert err.value.code == 404


def test_listening_beyond_this_machine_warns(tmp_path):
    port = free_port()
    p = subprocess.Popen([sys.executable, "-m", "innoscript.cli", "serve", "--port", str(port), "--host", "0.0.0.0",
                          "--db", str(tmp_path / "g.sqlite")], stderr=subprocess.PIPE, text=True)
    try:
        lines = [p.stderr.readline(), p.stderr.readline()]
        assert "serving on" in lines[0] and lines[1].startswith("warning: listening on 0.0.0.0"), lines
    finally:
        p.kill()
        p.wait()


def test_a_served_game_is_dealt_from_a_seed_no_seat_can_learn(tmp_path):
    """Without --allow-seeds a client cannot choose the deal, no reply carries the seed (only the owner's save
    does), and the deal is none that the seeds a client could have sent, or tried, would make."""
    from innoscript.runtime import Game
    hub = Hub(Store(tmp_path / "g.sqlite"))
    assert hub.handle("c", json.dumps({"type": "hello"}))[0][1]["seeds"] is False
    refused = hub.handle("c", json.dumps({"type": "create", "players": 2, "seed": 1}))[0][1]
    assert refused["code"] == "bad_message" and "--allow-seeds" in refused["message"]
    assert hub.store.list()[1] == 0                                   # nothing stored
    replies, seeds, deals = [], [], []
    for _ in range(2):
        created = hub.handle("c", json.dumps({"type": "create", "players": 2, "bots": [None, "random"]}))[0][1]
        gid, tokens = created["game"], created["seats"]
        replies.append(created)
        for player in (None, 0):
            for kind in ("join", "view"):
                replies += [m for _, m in hub.handle("c", json.dumps({"type": kind, "game": gid, "player": player,
                                                                      **({"token": tokens[0]} if player == 0 else {})}))]
        d = replies[-1]["view"]["decision"]
        replies += [m for _, m in hub.handle("c", json.dumps({"type": "answer", "game": gid, "player": 0,
                                                              "token": tokens[0], "decision": d["id"],
                                                              "answer": d["options"][0]["id"]}))]
        replies += [m for _, m in hub.handle("c", json.dumps({"type": "list"}))]
        state = hub.store.load(gid)["state"]
        seeds.append(state["seed"])
        deals.append(state["supply"])
        saved = hub.handle("c", json.dumps({"type": "save", "game": gid, "token": created["owner"]}))[0][1]
        assert saved["data"]["seed"] == state["seed"]                   # the owner's save holds it
    assert seeds[0] != seeds[1] and all(s > 2 ** 32 for s in seeds)   # 53 random bits (both small: 2^-41)
    text = json.dumps(replies)
    assert not any(str(s) in text for s in seeds), "a seed was sent to a seat"
    bundle = hub.bundle("3e")
    tried = {json.dumps(Game.new(players=2, seed=s, bundle=bundle).state["supply"]) for s in range(200)}
    assert not tried & {json.dumps(d) for d in deals}, "a deal that a seed a client could try makes"
    hub = Hub(Store(tmp_path / "t.sqlite"), allow_seeds=True)        # a server for tests takes the seed
    assert hub.handle("c", json.dumps({"type": "hello"}))[0][1]["seeds"] is True
    gid = hub.handle("c", json.dumps({"type": "create", "players": 2, "seed": 1}))[0][1]["game"]
    assert hub.store.load(gid)["state"]["supply"] == Game.new(players=2, seed=1, bundle=bundle).state["supply"]
