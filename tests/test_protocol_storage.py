"""Storage, on both stores (SQLite and PostgreSQL, the `db` fixture of conftest.py): the store's
contract (every write takes the next version by compare-and-set, an undo is a new write, a finished
game is never written again; expiry and size), idle games leave memory and come back from the store, damaged rows are
a storage error, two servers racing on one database lose no acknowledged answer, and servers killed
with SIGKILL in the middle of answers lose none either."""
import json
import os
import random
import secrets
import signal
import subprocess
import sys
import threading
import time

import pytest

from innoscript.runtime.serving.protocol import Hub
from innoscript.runtime.serving.server import open_store
from innoscript.runtime.serving.store import Conflict, StorageError
from conftest import raw_sql
from protocol_client import answer_for, check, free_port, wait_for_port
from test_protocol import Stdio


def ask(hub, msg, conn="c"):
    return hub.handle(conn, json.dumps(msg))[0][1]


def step(hub, gid, tokens, rng, prefer=None):
    seat = ask(hub, {"type": "view", "game": gid})["view"]["decision"]["player"]
    d = ask(hub, {"type": "view", "game": gid, "player": seat, "token": tokens[seat]})["view"]["decision"]
    pick = [o for o in d["options"] if isinstance(o, dict) and o.get("type") == prefer] if prefer else []
    return ask(hub, {"type": "answer", "game": gid, "player": seat, "token": tokens[seat], "decision": d["id"],
                     "answer": pick[0] if pick else answer_for(d, rng)})


def test_versions_increase_on_every_write_and_undo_is_a_new_write(store_of):
    hub = Hub(store_of(), allow_seeds=True)
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


def test_a_finished_game_stays_finished(store_of):
    hub = Hub(store_of(), allow_seeds=True)
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


def test_idle_games_leave_memory_and_come_back_from_the_store(store_of):
    hub = Hub(store_of(), allow_seeds=True, max_games=3)
    made = [ask(hub, {"type": "create", "players": 2, "seed": i}) for i in range(6)]
    assert len(hub.games) == 3 and list(hub.games) == [m["game"] for m in made[3:]]
    loaded = hub.loaded
    rng = random.Random(2)
    r = step(hub, made[0]["game"], made[0]["seats"], rng)   # evicted long ago: read back, played, stored
    assert r["type"] == "update" and hub.loaded == loaded + 1
    assert len(hub.games) == 3 and made[0]["game"] in hub.games
    fresh = Hub(store_of(), allow_seeds=True)
    assert fresh.get(made[0]["game"])["game"].state == hub.get(made[0]["game"])["game"].state


RACE_SECONDS = 8


def test_two_servers_racing_on_one_database_lose_no_acknowledged_answer(db, store_of):
    """Two server processes, one client each, answer (and sometimes undo) the same game as fast as they
    can for a bounded time. Every acknowledged write names its version: they are all different, and the
    stored version counts exactly the acknowledged writes, so none was overwritten. Then the game is
    played to its end (by a third server) and stays finished on both."""
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
        stored = store_of().version(gid)
        assert stored == 1 + len(acks), (stored, len(acks), refusals)
        print(f"race: {len(acks)} acknowledged writes, refused {refusals}")
        # a third server (in this process) plays it to the end; then neither of the others may move it
        third, rng = Hub(store_of(), allow_seeds=True), random.Random(3)
        for _ in range(5000):
            if ask(third, {"type": "view", "game": gid})["view"]["phase"] == "over":
                break
            step(third, gid, tokens, rng)
        final = store_of().load(gid)
        assert final["state"]["phase"] == "over"
        for s in servers:
            for p in (0, 1):
                assert s.ask({"type": "answer", "game": gid, "player": p, "token": tokens[p], "answer": 0})[0]["type"] == "error"
                assert s.ask({"type": "undo", "game": gid, "player": p, "token": tokens[p]})[0]["type"] == "error"
        assert store_of().load(gid) == final
    finally:
        for s in servers:
            s.close()


def test_the_store_contract(store_of):
    """What the Hub relies on, asked of the store directly: versions from 1, compare-and-set, a finished
    game never written again, rows read back as written, pages of public facts."""
    store = store_of()
    state = {"players": [{"name": "a"}, {"name": "b"}], "phase": "action", "x": [1, "two", None, {"k": 3.5}]}
    tokens = {"owner": "o" * 64, "seats": ["a" * 64, "b" * 64]}
    assert store.version("nosuchgame") is None and store.load("nosuchgame") is None
    assert store.create("g1", "3e", state, [None, "random"], tokens, '{"undo": 1}', [{"type": "meld"}]) == 1
    row = store.load("g1")
    assert row == {"edition": "3e", "version": 1, "state": state, "undo": '{"undo": 1}', "since": [{"type": "meld"}],
                   "bots": [None, "random"], "tokens": tokens}
    moved = dict(state, x="moved")
    assert store.update("g1", 1, moved, None, [], events=[{"type": "draw"}]) == 2
    assert store.events("g1", 2) in ([{"type": "draw"}], [])   # kept where the store tells other servers
    assert store.events("g1", 1) == []
    told = bool(store.events("g1", 2))
    for stale in (1, 0, 3, -1):   # a writer computed from any other version loses, and changes nothing
        with pytest.raises(Conflict):
            store.update("g1", stale, dict(state, x="lost"), None, [])
    assert store.load("g1")["state"] == moved and store.version("g1") == 2
    with pytest.raises(Conflict):
        store.update("nosuchgame", 1, state, None, [])
    # of many writers of one version, exactly one wins
    wins, errors = [], []

    def writer(i):
        try:
            wins.append(store.update("g1", 2, dict(state, x=i), None, []))
        except Conflict:
            errors.append(i)
    threads = [threading.Thread(target=writer, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert wins == [3] and len(errors) == 5 and store.version("g1") == 3
    assert store.events("g1", 3, 1) == ([{"type": "draw"}] if told else [])   # two writes' events, in order
    over = dict(state, phase="over")
    assert store.update("g1", 3, over, None, []) == 4
    with pytest.raises(Conflict):   # a finished game is never written again, even by the current version
        store.update("g1", 4, state, None, [])
    assert store.load("g1")["state"] == over
    for i in range(2, 6):
        store.create(f"g{i}", "4e", dict(state, players=[{}] * 3), [None] * 3, tokens)
    page, total = store.list(1, 2)
    assert total == 5 and [g["game"] for g in page] == ["g2", "g3"]
    assert page[0] == {"game": "g2", "edition": "4e", "players": 3, "phase": "action", "over": False}
    assert store.list(0, 1)[0][0]["over"] is True and store.list(5, 10) == ([], 5)
    with pytest.raises(Exception):   # one id, one game
        store.create("g1", "3e", state, [], tokens)


def test_the_store_housekeeping(db, store_of, monkeypatch):
    """The store's side of the server's expiry and size limit, asked directly: expire deletes exactly the
    games last written before the time given (and their kept events) and names them; size counts what the
    games take, and the room of expired games counts no more and is used again."""
    from innoscript.runtime.serving import pgstore
    monkeypatch.setattr(pgstore, "SIZE_SECONDS", 0)
    store = store_of()

    def state():   # 20,000 characters that do not compress much
        return {"players": [{}, {}], "phase": "action", "x": secrets.token_hex(10000)}
    empty = store.size()
    for i in range(1, 5):
        store.create(f"g{i}", "3e", state(), [None, None], {})
    for version in range(1, 4):
        store.update("g2", version, state(), None, [], events=[{"type": "draw", "n": version}])
    full = store.size()
    assert full > empty + 4 * 10000, (empty, full)
    kept = store.load("g3")
    raw_sql(db, "UPDATE games SET updated = updated - 7200 WHERE id IN (?, ?)", ("g1", "g2"))
    assert sorted(store.expire(time.time() - 3600)) == ["g1", "g2"]
    assert store.expire(time.time() - 3600) == []
    assert store.version("g1") is None and store.load("g2") is None and store.list()[1] == 2
    assert store.load("g3") == kept and store.events("g2", 4, 0) == []
    if db.startswith("postgresql://"):
        assert raw_sql(db, "SELECT COUNT(*) FROM game_events WHERE id = ?", ("g2",)) == [(0,)]
    after = store.size()
    assert after < full - 2 * 10000, (full, after)
    store.create("g5", "3e", state(), [None, None], {})       # in the room the expired games left
    assert store.size() < full
    if db.startswith("postgresql://"):   # counted at most every SIZE_SECONDS, and again after an expiry
        monkeypatch.setattr(pgstore, "SIZE_SECONDS", 3600)
        counted = store.size()
        store.create("g6", "3e", state(), [None, None], {})
        assert store.size() == counted
        raw_sql(db, "UPDATE games SET updated = updated - 7200 WHERE id IN (?, ?)", ("g5", "g6"))
        assert sorted(store.expire(time.time() - 3600)) == ["g5", "g6"] and store.size() < counted


@pytest.mark.parametrize("column,value,says", [
    ("state", "{not json", "state is not JSON"),
    ("state", "[1, 2]", "state is not a JSON object"),
    ("bots", '{"a": 1}', "bots is not a JSON array"),
    ("tokens", "[]", "tokens is not a JSON object"),
    ("since", "[" * 100000, "since is not JSON"),
])
def test_a_damaged_row_is_a_storage_error(db, store_of, column, value, says):
    """What comes back from the database is checked: a row that is not what a store writes is answered
    `storage`, naming the game and the column, never `internal`; the other games are served."""
    hub = Hub(store_of(), allow_seeds=True)
    gid = ask(hub, {"type": "create", "players": 2, "seed": 1})["game"]
    other = ask(hub, {"type": "create", "players": 2, "seed": 2})["game"]
    raw_sql(db, f"UPDATE games SET {column} = ? WHERE id = ?", (value, gid))
    fresh = Hub(store_of())
    reply = ask(fresh, {"type": "view", "game": gid})
    assert reply["type"] == "error" and reply["code"] == "storage" and says in reply["message"], reply
    assert ask(fresh, {"type": "view", "game": other})["type"] == "state"


def test_damaged_public_facts_and_versions_are_storage_errors(db, store_of):
    hub = Hub(store_of(), allow_seeds=True)
    gid = ask(hub, {"type": "create", "players": 2, "seed": 1})["game"]
    if db.startswith("postgresql://"):   # typed columns: a version of 0 is the damage there
        raw_sql(db, "UPDATE games SET version = 0 WHERE id = ?", (gid,))
    else:
        raw_sql(db, "UPDATE games SET version = 'x', players = 'two' WHERE id = ?", (gid,))
    fresh = Hub(store_of())
    for msg in ({"type": "view", "game": gid}, {"type": "list"}):
        reply = ask(fresh, msg)
        if reply["type"] == "error":
            assert reply["code"] == "storage" and gid in reply["message"], reply
        else:   # PostgreSQL's list has nothing damaged to show
            assert db.startswith("postgresql://") and reply["games"][0]["players"] == 2


class Server:
    """A WebSocket server process on the test's database, its log in a file (read at the end). The tests name
    their games' seeds and drive the server as fast as it answers from one address: by default no quotas."""

    def __init__(self, db, log, quotas=("--no-quotas",)):
        self.port = free_port()
        self.log = log
        with open(log, "a") as err:
            self.p = subprocess.Popen([sys.executable, "-m", "innoscript.cli", "serve", "--port", str(self.port),
                                       "--db", str(db), "--allow-seeds", *quotas],
                                      stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err)
        wait_for_port(self.port)
        self.url = f"ws://127.0.0.1:{self.port}"

    def kill(self):
        os.kill(self.p.pid, signal.SIGKILL)
        self.p.wait(timeout=10)


KILL_SECONDS = 6


def test_servers_killed_in_the_middle_of_answers_lose_no_acknowledged_answer(db, store_of, tmp_path):
    """Two WebSocket servers on one database; four clients, each playing its own game against a bot, send
    every answer to either server at random, as fast as the replies come. Each server is killed with
    SIGKILL in the middle of this (answers in flight) and started again. Then each client answers once
    more. For every game, the acknowledged versions only grow, none twice, the stored version is the last
    acknowledged one and the stored game is what its last reply showed: no acknowledged answer was lost."""
    from websockets.sync.client import connect
    log = tmp_path / "servers.log"
    servers = [Server(db, log), Server(db, log)]
    where = [s.url for s in servers]
    lock = threading.Lock()
    stop = time.monotonic() + KILL_SECONDS
    results = {}

    def killer():
        for i, at in ((0, 1.5), (1, 3.5)):
            time.sleep(max(0.0, stop - KILL_SECONDS + at - time.monotonic()))
            servers[i].kill()
            time.sleep(0.3)
            servers[i] = Server(db, log)
            with lock:
                where[i] = servers[i].url

    def client(n):
        rng = random.Random(n)
        conns = [None, None]

        def connection(i):
            if conns[i] is None:
                with lock:
                    url = where[i]
                conns[i] = connect(url, open_timeout=5).__enter__()
            return conns[i]

        def ask(i, msg):
            conn = connection(i)
            conn.send(json.dumps(msg))
            return check("server", json.loads(conn.recv(timeout=30)))

        def anyone(msg):   # either server, whichever answers
            for _ in range(200):
                i = rng.randrange(2)
                try:
                    return ask(i, msg)
                except Exception:
                    conns[i] = None
                    time.sleep(0.05)
            raise AssertionError("neither server answered for 10 s")

        created = anyone({"type": "create", "players": 2, "seed": 100 + n, "bots": [None, "random"]})
        gid, token = created["game"], created["seats"][0]
        acks, doubts = [], 0
        while True:
            last = time.monotonic() >= stop
            view = anyone({"type": "view", "game": gid, "player": 0, "token": token})["view"]
            if view["decision"] is None:
                break
            d = view["decision"]
            msg = {"type": "answer", "game": gid, "player": 0, "token": token, "decision": d["id"],
                   "answer": answer_for(d, rng)}
            i = rng.randrange(2)
            try:
                connection(i)
            except Exception:   # that server is down (being started again): the answer was not sent
                conns[i] = None
                time.sleep(0.05)
                continue
            try:
                r = ask(i, msg)
            except Exception:   # killed with the answer in flight: it may or may not have been stored
                conns[i] = None
                doubts += 1
                continue
            assert r["type"] == "update", r
            acks.append((i, r["version"], r["view"]))
            if last:
                break
        for c in conns:
            if c is not None:
                c.close()
        results[n] = (gid, acks, doubts)

    threads = [threading.Thread(target=client, args=(n,)) for n in range(4)] + [threading.Thread(target=killer)]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
    finally:
        for s in servers:
            s.kill()
    assert len(results) == 4, "a client did not finish"
    store, lost, total, doubts, via = store_of(), 0, 0, 0, set()
    for gid, acks, in_doubt in results.values():
        versions = [v for _, v, _ in acks]
        total, doubts, via = total + len(acks), doubts + in_doubt, via | {i for i, _, _ in acks}
        lost += sum(1 for a, b in zip(versions, versions[1:]) if b <= a)   # a version acknowledged again
        row = store.load(gid)
        lost += row["version"] < versions[-1]
        assert row["version"] == versions[-1], (row["version"], versions[-3:])
        hub = Hub(store)
        assert hub._view(hub.get(gid), 0) == acks[-1][2], "the stored game is not what the last reply showed"
    text = log.read_text()
    assert "Traceback" not in text, text[-2000:]
    assert via == {0, 1}
    print(f"SIGKILL ({'postgresql' if db.startswith('postgresql:') else 'sqlite'}): 2 servers killed once each, {total} acknowledged answers, "
          f"{doubts} in flight at a kill, {lost} lost")
    assert lost == 0 and total >= 40


# ---------------------------------------------------------------- PostgreSQL: servers tell each other


@pytest.fixture
def pg_db(postgres):
    return postgres.new_database()


def test_an_answer_through_one_server_is_pushed_at_once_by_another(pg_db, tmp_path):
    """A person (seat 0, against a bot) joined through server A and server B, a spectator on B and two on A,
    the servers metering games, spectators and connections as public ones do. Every answer given through A
    reaches B's connections at once as the very update that A gives (version, events, view), and the
    answers, a meld and its undo given through B reach A's, the same update to every spectator. Nobody gets
    a write twice, and a connection that joined nothing gets nothing."""
    from websockets.sync.client import connect
    log = tmp_path / "servers.log"
    # the default quotas but for the messages' rates: the test answers as fast as the replies come
    quotas = ("--quota", "messages_per_second=0", "--quota", "address_messages_per_second=0")
    a, b = Server(pg_db, log, quotas), Server(pg_db, log, quotas)

    def ask(conn, msg):
        conn.send(json.dumps(msg))
        return check("server", json.loads(conn.recv(timeout=30)))

    def pushed(conn):
        return check("server", json.loads(conn.recv(timeout=10)))
    try:
        with connect(a.url) as a0, connect(a.url) as a_watch, connect(a.url) as a_watch2, connect(b.url) as b0, \
                connect(b.url) as b_watch, connect(b.url) as b_idle:
            created = ask(a0, {"type": "create", "players": 2, "seed": 21, "bots": [None, "random"]})
            gid, token = created["game"], created["seats"][0]
            watching = (a_watch, a_watch2, b_watch)

            def spectators_updated():   # the same update on every spectator, on both servers
                updates = [pushed(conn) for conn in watching]
                return all(u == updates[0] for u in updates) and updates[0]["type"] == "update"
            for conn, seat in ((a0, 0), (b0, 0), (a_watch, None), (a_watch2, None), (b_watch, None)):
                ask(conn, {"type": "join", "game": gid, "player": seat, **({"token": token} if seat == 0 else {})})
            ask(b_idle, {"type": "hello"})
            rng, latencies, with_events = random.Random(21), [], 0
            for n in range(60):
                here, there = (a0, b0) if n < 8 else (b0, a0)
                view = ask(here, {"type": "view", "game": gid, "player": 0, "token": token})["view"]
                d = view["decision"]
                melds = [o for o in d["options"] if isinstance(o, dict) and o.get("type") == "meld"] \
                    if n >= 8 and d["kind"] == "action" and view["turn"]["actions_left"] == 2 else []
                start = time.monotonic()
                reply = ask(here, {"type": "answer", "game": gid, "player": 0, "token": token, "decision": d["id"],
                                   "answer": melds[0] if melds else answer_for(d, rng)})
                assert reply["type"] == "update", reply
                remote = pushed(there)
                latencies.append(time.monotonic() - start)
                assert remote == reply, "the other server pushed another update than the answer's reply"
                assert spectators_updated()
                with_events += bool(remote["events"])
                if melds and reply["view"]["can_undo"]:
                    undone = ask(here, {"type": "undo", "game": gid, "player": 0, "token": token})
                    assert undone["type"] == "update" and undone["version"] == reply["version"] + 1
                    assert pushed(there) == undone and spectators_updated()
                    break
            else:
                raise AssertionError("no undoable meld in 60 answers")
            assert with_events >= 5
            for conn in (a0, b0, b_idle, *watching):
                with pytest.raises(TimeoutError):   # nothing twice; nothing to the connection that joined nothing
                    conn.recv(timeout=0.3)
            print(f"pushes by the other server: {len(latencies)}, slowest {max(latencies) * 1000:.1f} ms "
                  "after the answer was sent (the reply included)")
            assert max(latencies) < 2.0
    finally:
        a.kill()
        b.kill()
    assert "Traceback" not in log.read_text()


def test_a_server_behind_by_several_writes_pushes_all_their_events(pg_db):
    """Server A's seat has seen version v; server B writes v+1 and v+2 before A hears of either (a burst,
    or A busy): A pushes once, the view of v+2 with the events of both writes, as B's seat got them, and
    one update made for all of A's spectators, as B's spectator got it. The events kept are checked like
    any input: a damaged entry is left out, the others are pushed."""
    a_store, b_store = open_store(pg_db), open_store(pg_db)
    try:
        a, b = Hub(a_store, allow_seeds=True), Hub(b_store, allow_seeds=True)
        created = ask(a, {"type": "create", "players": 2, "seed": 5, "bots": [None, "random"]})
        gid, token = created["game"], created["seats"][0]
        ask(a, {"type": "join", "game": gid, "player": 0, "token": token}, conn="a-seat")
        for i in range(3):
            ask(a, {"type": "join", "game": gid, "player": None}, conn=f"a-watch-{i}")
        ask(b, {"type": "join", "game": gid, "player": 0, "token": token}, conn="b-seat")
        ask(b, {"type": "join", "game": gid, "player": None}, conn="b-watch")
        rng, replies, watched = random.Random(5), [], []
        for _ in range(2):
            d = ask(b, {"type": "view", "game": gid, "player": 0, "token": token})["view"]["decision"]
            out = dict(b.handle("b-answer", json.dumps({"type": "answer", "game": gid, "player": 0, "token": token,
                                                        "decision": d["id"], "answer": answer_for(d, rng)})))
            replies.append(out["b-seat"])   # what a seat on B got
            watched.append(out["b-watch"])
        pushes = a.changed(gid, replies[-1]["version"])
        assert [conn for conn, _ in pushes] == ["a-seat", "a-watch-0", "a-watch-1", "a-watch-2"]
        push = pushes[0][1]
        assert push["version"] == replies[-1]["version"] and push["view"] == replies[-1]["view"]
        assert push["events"] == replies[0]["events"] + replies[1]["events"] and push["events"]
        shown = pushes[1][1]
        assert all(msg is shown for _, msg in pushes[1:])   # made once, shared (the server makes it text once)
        assert shown["player"] is None and shown["view"] == watched[-1]["view"]
        assert shown["events"] == watched[0]["events"] + watched[1]["events"]
        assert a.changed(gid, replies[-1]["version"]) == []   # told twice: pushed once
        raw_sql(pg_db, "UPDATE game_events SET events = '{broken' WHERE id = ? AND version = ?",
                (gid, replies[0]["version"]))
        assert a_store.events(gid, replies[-1]["version"], replies[0]["version"] - 1) == \
            b_store.events(gid, replies[-1]["version"])
    finally:
        a_store.close()
        b_store.close()


def test_notices_between_stores(pg_db):
    """The store tells a subscriber every other store's write of a game (never its own, never a lost
    one), ignores notices of any other form, and after its listening connection is cut says that notices
    may have been missed, then tells again."""
    import psycopg
    from innoscript.runtime.serving.pgstore import CHANNEL
    mine, other = open_store(pg_db), open_store(pg_db)
    told, heard = [], threading.Event()

    def callback(gid, version):
        told.append((gid, version))
        heard.set()
    try:
        mine.subscribe(callback)
        assert mine.listening.wait(10)
        state = {"players": [{}, {}], "phase": "action"}
        other.create("g1", "3e", state, [None, None], {})
        mine.create("g2", "3e", state, [None, None], {})
        other.update("g1", 1, state, None, [])
        mine.update("g2", 1, state, None, [])        # its own: not told
        with pytest.raises(Conflict):
            other.update("g1", 1, state, None, [])   # lost: not told
        with psycopg.connect(pg_db, autocommit=True) as conn:
            for forged in ("", "g1", "g1 2", "g1 x " + "0" * 16, "g1 3 " + mine.origin, "g/1 3 " + "0" * 16,
                           "g1 " + "9" * 17 + " " + "0" * 16, "g1 3 " + "0" * 16 + " extra"):
                conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, forged))
        other.update("g1", 2, state, None, [])
        deadline = time.monotonic() + 10
        while len(told) < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(0.3)
        assert told == [("g1", 2), ("g1", 3)], told
        # the listening connection is cut (a restarted database, a proxy's timeout): it is made again
        heard.clear()
        with psycopg.connect(pg_db, autocommit=True) as conn:
            cut = conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%%' "
                               "AND datname = current_database()").fetchall()
        assert cut, "no listening connection"
        deadline = time.monotonic() + 15
        while (None, None) not in told and time.monotonic() < deadline:
            time.sleep(0.05)
        assert (None, None) in told
        assert mine.listening.wait(10)
        other.update("g1", 3, state, None, [])
        deadline = time.monotonic() + 10
        while ("g1", 4) not in told and time.monotonic() < deadline:
            time.sleep(0.02)
        assert told[-1] == ("g1", 4), told
    finally:
        mine.close()
        other.close()
