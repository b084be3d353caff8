"""The JSON protocol end to end: a whole game over stdio from another process and over
WebSocket, bad messages, and a server killed mid-game that resumes from its database (SQLite and
PostgreSQL)."""
import json
import os
import random
import signal
import subprocess
import sys

import pytest

from protocol_client import answer_for, check, free_port, wait_for_port


class Stdio:
    def __init__(self, db):
        self.p = subprocess.Popen([sys.executable, "-m", "innoscript.cli", "serve", "--stdio", "--allow-seeds", "--db",
                                   str(db)],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def ask(self, msg, replies=1):
        if isinstance(msg, dict):
            check("client", msg)
            line = json.dumps(msg)
        else:
            line = msg
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        return [check("server", json.loads(self.p.stdout.readline())) for _ in range(replies)]

    def close(self):
        self.p.stdin.close()
        self.p.wait(timeout=20)


def play_through(ask, gid, tokens, rng, max_steps=20000):
    """Answer every decision as the deciding player sees it (with that seat's token), until the game ends."""
    steps = 0
    while True:
        view = ask({"type": "view", "game": gid, "player": None})[0]["view"]   # who decides: public
        d = view["decision"]
        if view["phase"] == "over" or d is None:
            return view
        seat = d["player"]
        view = ask({"type": "view", "game": gid, "player": seat, "token": tokens[seat]})[0]["view"]
        d = view["decision"]
        reply = ask({"type": "answer", "game": gid, "player": seat, "token": tokens[seat], "decision": d["id"],
                     "answer": answer_for(d, rng)})[0]
        assert reply["type"] == "update", reply
        steps += 1
        assert steps < max_steps


def test_whole_game_over_stdio(tmp_path):
    s = Stdio(tmp_path / "g.sqlite")
    try:
        assert s.ask({"type": "hello", "id": 1})[0]["protocol"] == 1
        created = s.ask({"type": "create", "edition": "3e", "players": 2, "seed": 4, "id": "c"})[0]
        gid = created["game"]
        final = play_through(s.ask, gid, created["seats"], random.Random(4))
        assert final["result"]["winners"]
        games = s.ask({"type": "list"})[0]["games"]
        assert games[0]["over"] is True
    finally:
        s.close()


def test_bad_messages_get_errors_and_change_nothing(tmp_path):
    s = Stdio(tmp_path / "g.sqlite")
    try:
        created = s.ask({"type": "create", "players": 2, "seed": 1})[0]
        gid, tokens, owner = created["game"], created["seats"], created["owner"]
        other = s.ask({"type": "create", "players": 2, "seed": 2})[0]["game"]
        before = s.ask({"type": "save", "game": gid, "token": owner})[0]["data"]
        d = s.ask({"type": "view", "game": gid, "player": 0, "token": tokens[0]})[0]["view"]["decision"]
        wrong, right = 1 - d["player"], d["player"]
        cases = [
            ("{not json", "bad_json"),
            (json.dumps({"type": "teleport"}), "unknown_type"),
            (json.dumps({"type": "answer", "game": gid}), "bad_message"),
            (json.dumps({"type": "answer", "game": gid, "player": wrong, "token": tokens[wrong], "answer": 0}),
             "wrong_player"),
            (json.dumps({"type": "answer", "game": gid, "player": right, "token": tokens[right], "answer": 987654}),
             "illegal"),
            (json.dumps({"type": "answer", "game": gid, "player": right, "token": tokens[right], "decision": d["id"] + 5,
                         "answer": 0}), "stale_decision"),
            (json.dumps({"type": "answer", "game": gid, "player": right, "answer": 0}), "forbidden"),
            (json.dumps({"type": "answer", "game": gid, "player": right, "token": tokens[wrong], "answer": 0}),
             "forbidden"),
            (json.dumps({"type": "save", "game": gid, "token": tokens[0]}), "forbidden"),
            (json.dumps({"type": "create", "edition": "../3e"}), "bad_message"),
            (json.dumps({"type": "create", "edition": "5e"}), "bad_edition"),
            (json.dumps({"type": "create", "sets": ["nosuchset"]}), "bad_edition"),
            (json.dumps({"type": "create", "edition": "1e", "sets": ["echoes"]}), "bad_edition"),
            (json.dumps({"type": "create", "sets": ["../echoes"]}), "bad_message"),
            (json.dumps({"type": "create", "sets": "echoes"}), "bad_message"),
            (json.dumps({"type": "create", "sets": ["echoes", "echoes"]}), "bad_message"),
            (json.dumps({"type": "cards", "edition": "3e", "sets": ["nosuchset"]}), "bad_edition"),
            (json.dumps({"type": "create", "players": 3, "names": ["a", "b"]}), "bad_message"),
            (json.dumps({"type": "create", "players": True}), "bad_message"),
            (json.dumps({"type": "create", "players": 2.0}), "bad_message"),
            (json.dumps({"type": "view", "game": "0123456789ab"}), "no_game"),
            (json.dumps({"type": "load", "data": {"edition": "3e", "format": "nope"}}), "bad_save"),
        ]
        for line, code in cases:
            reply = s.ask(line)[0]
            assert reply["type"] == "error" and reply["code"] == code, (line, reply)
        assert s.ask({"type": "save", "game": gid, "token": owner})[0]["data"] == before
        # the server still serves the other game
        assert s.ask({"type": "view", "game": other, "player": None})[0]["type"] == "state"
    finally:
        s.close()


def test_create_takes_player_names_as_plain_text(tmp_path):
    """The web form's names: one per player, 1 to 40 characters each, kept as typed (the page escapes them)."""
    s = Stdio(tmp_path / "g.sqlite")
    try:
        names = ["<b>Ada</b> & co", "x" * 40]
        created = s.ask({"type": "create", "players": 2, "seed": 3, "names": names})[0]
        v = s.ask({"type": "view", "game": created["game"], "player": None})[0]["view"]
        assert [p["name"] for p in v["players"]] == names
        for bad in (["a", "x" * 41], ["a", ""], ["a", 7]):
            reply = s.ask(json.dumps({"type": "create", "players": 2, "names": bad}))[0]   # unchecked by the client
            assert reply["type"] == "error" and reply["code"] == "bad_message", (bad, reply)
    finally:
        s.close()


def test_views_hide_opponents_cards(tmp_path):
    s = Stdio(tmp_path / "g.sqlite")
    try:
        created = s.ask({"type": "create", "players": 3, "seed": 9})[0]
        gid = created["game"]
        v = s.ask({"type": "view", "game": gid, "player": 1, "token": created["seats"][1]})[0]["view"]
        assert isinstance(v["players"][1]["hand"], list)
        assert v["players"][0]["hand"] == {"count": 2, "ages": [1, 1]}
        spectator = s.ask({"type": "view", "game": gid, "player": None})[0]["view"]
        assert all(isinstance(p["hand"], dict) for p in spectator["players"])
        no_token = s.ask({"type": "view", "game": gid, "player": 1})[0]   # without the token: a spectator
        assert no_token["player"] is None and no_token["view"] == spectator
    finally:
        s.close()


class WsServer:
    def __init__(self, db, port):
        self.port = port
        self.p = subprocess.Popen([sys.executable, "-m", "innoscript.cli", "serve", "--port", str(port),
                                   "--allow-seeds", "--no-quotas", "--db", str(db)],
                                  stderr=subprocess.PIPE, text=True)
        wait_for_port(port)

    def kill(self):
        os.kill(self.p.pid, signal.SIGKILL)
        self.p.wait(timeout=10)


def ws_asker(conn):
    def ask(msg, replies=1):
        check("client", msg)
        conn.send(json.dumps(msg))
        return [check("server", json.loads(conn.recv(timeout=30))) for _ in range(replies)]
    return ask


def test_whole_game_over_websocket_with_a_bot(tmp_path):
    from websockets.sync.client import connect
    server = WsServer(tmp_path / "g.sqlite", free_port())
    try:
        with connect(f"ws://127.0.0.1:{server.port}") as conn:
            ask = ws_asker(conn)
            created = ask({"type": "create", "players": 2, "seed": 8, "bots": [None, "random"]})[0]
            final = play_through(ask, created["game"], created["seats"], random.Random(8))
            assert final["result"]["winners"]
    finally:
        server.kill()


def test_server_killed_mid_game_resumes_from_the_database(db):
    """On both stores (the `db` fixture: SQLite and PostgreSQL)."""
    from websockets.sync.client import connect
    server = WsServer(db, free_port())
    rng = random.Random(3)
    with connect(f"ws://127.0.0.1:{server.port}") as conn:
        ask = ws_asker(conn)
        created = ask({"type": "create", "players": 2, "seed": 3})[0]
        gid, tokens, owner = created["game"], created["seats"], created["owner"]
        for _ in range(25):   # play part of the game
            seat = ask({"type": "view", "game": gid})[0]["view"]["decision"]["player"]
            d = ask({"type": "view", "game": gid, "player": seat, "token": tokens[seat]})[0]["view"]["decision"]
            ask({"type": "answer", "game": gid, "player": seat, "token": tokens[seat], "decision": d["id"],
                 "answer": answer_for(d, rng)})
        saved_before = ask({"type": "save", "game": gid, "token": owner})[0]["data"]
    server.kill()                                      # SIGKILL: no chance to flush anything
    server = WsServer(db, free_port())
    try:
        with connect(f"ws://127.0.0.1:{server.port}") as conn:
            ask = ws_asker(conn)
            assert ask({"type": "save", "game": gid, "token": owner})[0]["data"] == saved_before   # nothing lost
            final = play_through(ask, gid, tokens, rng)
            assert final["result"]["winners"]
    finally:
        server.kill()


def test_two_servers_share_one_database(db):
    a, b = Stdio(db), Stdio(db)
    try:
        created = a.ask({"type": "create", "players": 2, "seed": 5})[0]
        gid, tokens, owner = created["game"], created["seats"], created["owner"]
        rng = random.Random(5)
        for i in range(30):   # alternate servers on the same game
            s = a if i % 2 else b
            seat = s.ask({"type": "view", "game": gid})[0]["view"]["decision"]["player"]
            d = s.ask({"type": "view", "game": gid, "player": seat, "token": tokens[seat]})[0]["view"]["decision"]
            r = s.ask({"type": "answer", "game": gid, "player": seat, "token": tokens[seat], "decision": d["id"],
                       "answer": answer_for(d, rng)})[0]
            assert r["type"] == "update", r
        save = {"type": "save", "game": gid, "token": owner}
        assert a.ask(save)[0]["data"] == b.ask(save)[0]["data"]
    finally:
        a.close()
        b.close()


def test_joined_players_receive_updates(tmp_path):
    from websockets.sync.client import connect
    server = WsServer(tmp_path / "g.sqlite", free_port())
    try:
        with connect(f"ws://127.0.0.1:{server.port}") as c0, connect(f"ws://127.0.0.1:{server.port}") as c1:
            ask0, ask1 = ws_asker(c0), ws_asker(c1)
            created = ask0({"type": "create", "players": 2, "seed": 6})[0]
            gid, tokens = created["game"], created["seats"]
            ask0({"type": "join", "game": gid, "player": 0, "token": tokens[0]})
            ask1({"type": "join", "game": gid, "player": 1, "token": tokens[1]})
            d = ask0({"type": "view", "game": gid, "player": 0, "token": tokens[0]})[0]["view"]["decision"]
            assert d["player"] == 0 and d["kind"] == "initial_meld"
            ask0({"type": "answer", "game": gid, "player": 0, "token": tokens[0], "decision": d["id"],
                  "answer": d["options"][0]["id"]})
            push = check("server", json.loads(c1.recv(timeout=30)))
            assert push["type"] == "update" and push["player"] == 1
            assert push["view"]["decision"]["player"] == 1 and "options" in push["view"]["decision"]
    finally:
        server.kill()


def test_save_and_load_through_the_protocol(tmp_path):
    s = Stdio(tmp_path / "g.sqlite")
    try:
        created = s.ask({"type": "create", "players": 2, "seed": 7})[0]
        gid = created["game"]
        data = s.ask({"type": "save", "game": gid, "token": created["owner"]})[0]["data"]
        new = s.ask({"type": "load", "data": data})[0]
        assert new["type"] == "created" and new["game"] != gid
        assert set(new["seats"]).isdisjoint(created["seats"]) and new["owner"] != created["owner"]   # fresh tokens
        assert s.ask({"type": "save", "game": new["game"], "token": new["owner"]})[0]["data"] == data
    finally:
        s.close()
