"""Storage: every write takes the next version (compare-and-set), an undo is a new write, a finished
game is never written again, idle games leave memory and come back from SQLite, and two servers
racing on one database lose no acknowledged answer."""
import json
import random
import threading
import time

import pytest

from innoscript.runtime.serving.protocol import Hub
from innoscript.runtime.serving.store import Conflict, Store
from protocol_client import answer_for
from test_protocol import Stdio


def ask(hub, msg, conn="c"):
    return hub.handle(conn, json.dumps(msg))[0][1]


def step(hub, gid, tokens, rng, prefer=None):
    seat = ask(hub, {"type": "view", "game": gid})["view"]["decision"]["player"]
    d = ask(hub, {"type": "view", "game": gid, "player": seat, "token": tokens[seat]})["view"]["decision"]
    pick = [o for o in d["options"] if isinstance(o, dict) and o.get("type") == prefer] if prefer else []
    return ask(hub, {"type": "answer", "game": gid, "player": seat, "token": tokens[seat], "decision": d["id"],
                     "answer": pick[0] if pick else answer_for(d, rng)})


def test_versions_increase_on_every_write_and_undo_is_a_new_write(tmp_path):
    hub = Hub(Store(tmp_path / "g.sqlite"), allow_seeds=True)
    created = ask(hub, {"type": "create", "players": 2, "seed": 21, "bots": [None, "random"]})
    gid, tokens = created["game"], created["seats"]
    rng = random.Random(1)
    versions = [hub.store.version(gid)]
    seat = 0
    for _ in range(200):   # until a meld from the hand opens a turn of two actions (undoable: the bot saw nothing)
        view = ask(hub, {"type": "view", "game": gid, "player": 0, "token": tokens[0]})["view"]
        d = view["decision"]
        melds = [o for o in d["options"] if isinstance(o, dict) and o.get("type") == "meld"] \
            if d["kind"] == "action" and view["turn"]["actions_left"] == 2 else []
        r = ask(hub, {"type": "answer", "game": gid, "player": 0, "token": tokens[0], "decision": d["id"],
                      "answer": melds[0] if melds else answer_for(d, rng)})
        versions.append(r["version"])
        if melds:
            break
    assert melds, "no two-action turn with a meld"
    assert r["view"]["can_undo"] is True                     # the web's Undo button is enabled ...
    spectator = ask(hub, {"type": "view", "game": gid})["view"]
    assert spectator["can_undo"] is False                    # ... for that seat only
    decisions = hub.get(gid)["game"].state["decisions"]
    undone = ask(hub, {"type": "undo", "game": gid, "player": seat, "token": tokens[seat]})
    assert undone["type"] == "update", undone
    assert undone["view"]["can_undo"] is False               # nothing left to take back
    versions.append(undone["version"])
    assert hub.get(gid)["game"].state["decisions"] < decisions   # the game went back ...
    assert versions == list(range(1, len(versions) + 1))          # ... the version did not
    assert hub.store.version(gid) == versions[-1]
    # a writer that computed from an older version loses
    row = hub.store.load(gid)
    with pytest.raises(Conflict):
        hub.store.update(gid, versions[-2], row["state"], None, [])
    assert hub.store.load(gid)["state"] == row["state"]


def test_a_finished_game_stays_finished(tmp_path):
    hub = Hub(Store(tmp_path / "g.sqlite"), allow_seeds=True)
    created = ask(hub, {"type": "create", "players": 2, "seed": 8, "bots": [None, "random"]})
    gid, tokens = created["game"], created["seats"]
    rng = random.Random(8)
    for _ in range(3000):
        if ask(hub, {"type": "view", "game": gid})["view"]["phase"] == "over":
            break
        d = ask(hub, {"type": "view", "game": gid, "player": 0, "token": tokens[0]})["view"]["decision"]
        ask(hub, {"type": "answer", "game": gid, "player": 0, "token": tokens[0], "decision": d["id"],
                  "answer": answer_for(d, rng)})
    row = hub.store.load(gid)
    assert row["state"]["phase"] == "over"
    for msg in ({"type": "answer", "game": gid, "player": 0, "token": tokens[0], "answer": 0},
                {"type": "undo", "game": gid, "player": 0, "token": tokens[0]}):
        assert ask(hub, msg)["type"] == "error"
    with pytest.raises(Conflict):   # even a writer holding the current version
        hub.store.update(gid, row["version"], dict(row["state"], phase="play"), None, [])
    assert hub.store.load(gid) == row
    assert ask(hub, {"type": "list"})["games"][0]["phase"] == "over"


def test_idle_games_leave_memory_and_come_back_from_the_store(tmp_path):
    hub = Hub(Store(tmp_path / "g.sqlite"), allow_seeds=True, max_games=3)
    made = [ask(hub, {"type": "create", "players": 2, "seed": i}) for i in range(6)]
    assert len(hub.games) == 3 and list(hub.games) == [m["game"] for m in made[3:]]
    loaded = hub.loaded
    rng = random.Random(2)
    r = step(hub, made[0]["game"], made[0]["seats"], rng)   # evicted long ago: read back, played, stored
    assert r["type"] == "update" and hub.loaded == loaded + 1
    assert len(hub.games) == 3 and made[0]["game"] in hub.games
    fresh = Hub(Store(tmp_path / "g.sqlite"), allow_seeds=True)
    assert fresh.get(made[0]["game"])["game"].state == hub.get(made[0]["game"])["game"].state


RACE_SECONDS = 8


def test_two_servers_racing_on_one_database_lose_no_acknowledged_answer(tmp_path):
    """Two server processes, one client each, answer (and sometimes undo) the same game as fast as they
    can for a bounded time. Every acknowledged write names its version: they are all different, and the
    stored version counts exactly the acknowledged writes, so none was overwritten. Then the game is
    played to its end (by a third server) and stays finished on both."""
    db = tmp_path / "g.sqlite"
    servers = [Stdio(db), Stdio(db)]
    try:
        created = servers[0].ask({"type": "create", "players": 2, "seed": 31})[0]
        gid, tokens = created["game"], created["seats"]
        acks, refusals, lock = [], {}, threading.Lock()
        stop = time.monotonic() + RACE_SECONDS

        def client(i):
            s, rng = servers[i], random.Random(i)
            while time.monotonic() < stop:
                view = s.ask({"type": "view", "game": gid})[0]["view"]
                if view["phase"] == "over":
                    return
                seat = view["decision"]["player"]
                if rng.random() < 0.15:
                    msg = {"type": "undo", "game": gid, "player": seat, "token": tokens[seat]}
                else:
                    d = s.ask({"type": "view", "game": gid, "player": seat, "token": tokens[seat]})[0]["view"]["decision"]
                    if d is None or "options" not in d:
                        continue
                    msg = {"type": "answer", "game": gid, "player": seat, "token": tokens[seat], "decision": d["id"],
                           "answer": answer_for(d, rng)}
                r = s.ask(msg)[0]
                with lock:
                    if r["type"] == "update":
                        acks.append((i, msg["type"], r["version"]))
                    else:
                        refusals[r["code"]] = refusals.get(r["code"], 0) + 1
                        assert r["code"] in ("conflict", "stale_decision", "wrong_player", "illegal"), r

        threads = [threading.Thread(target=client, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        versions = [v for _, _, v in acks]
        assert len({i for i, _, _ in acks}) == 2, "both servers must have written"
        assert len(versions) == len(set(versions)), "two acknowledged writes claim one version"
        stored = Store(db).version(gid)
        assert stored == 1 + len(acks), (stored, len(acks), refusals)
        print(f"race: {len(acks)} acknowledged writes, refused {refusals}")
        # a third server (in this process) plays it to the end; then neither of the others may move it
        third, rng = Hub(Store(db), allow_seeds=True), random.Random(3)
        for _ in range(5000):
            if ask(third, {"type": "view", "game": gid})["view"]["phase"] == "over":
                break
            step(third, gid, tokens, rng)
        final = Store(db).load(gid)
        assert final["state"]["phase"] == "over"
        for s in servers:
            for p in (0, 1):
                assert s.ask({"type": "answer", "game": gid, "player": p, "token": tokens[p], "answer": 0})[0]["type"] == "error"
                assert s.ask({"type": "undo", "game": gid, "player": p, "token": tokens[p]})[0]["type"] == "error"
        assert Store(db).load(gid) == final
    finally:
        for s in servers:
            s.close()
