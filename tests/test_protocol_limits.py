"""Bounded work per client: the card check runs in a small pool of worker processes on a budget, never on the
threads that serve games; quotas per connection and per address (messages, games, spectators, connections);
one update per seat shared by every spectator; one bundle per distinct set list, the cache bounded; trials and
checks leave no file behind; abandoned games expire and the database has a size limit; an oversized frame
closes its connection without a traceback. The figures under load (p99 while clients flood `check`, memory
over repeated loads, answer time over spectators) are benchmarks/hostile.py's, in docs/reliability.md."""
import json
import os
import subprocess
import sys
import threading
import time

import pytest

from innoscript.runtime.serving import protocol, sandbox, workers
from innoscript.runtime.serving.protocol import MAX_BUNDLES, Hub
from innoscript.runtime.serving.quotas import QUOTAS, Quotas
from innoscript.runtime.serving.store import Store
from conftest import raw_sql
from protocol_client import check, free_port, wait_for_port

CARD = 'card "Lamp" {\n    age 1\n    color blue\n    icons hex leaf leaf leaf\n    dogma leaf\n}\n\neffect {\n    draw [1]\n}\n'
HEAVY = CARD.replace("effect {\n", "effect {\n" + "    draw [1]\n" * 1400)    # under the 20,000 characters; about 0.4 s to check


def ask(hub, conn, msg):
    return check("server", hub.handle(conn, json.dumps(check("client", msg)))[0][1])


# ---------------------------------------------------------------- the check's workers
def test_checks_run_in_worker_processes_one_per_connection_and_busy_beyond(tmp_path):
    hub = Hub(Store(tmp_path / "g.sqlite"), check_limits={"workers": 2})
    try:
        reply = ask(hub, "a", {"type": "check", "source": CARD})
        assert reply["type"] == "checked" and reply["card"]["name"] == "Lamp" and not reply["diagnostics"]
        assert hub.checks.jobs == 1 and len(hub.checks.free) == 1          # it ran in a worker, kept for the next
        pid = hub.checks.free[0].proc.pid
        assert pid != os.getpid()
        # 6 connections at once, two workers: two are checked, the others are busy at once (no thread waits)
        replies, threads = {}, []
        for c in range(6):
            threads.append(threading.Thread(target=lambda c=c: replies.__setitem__(
                c, (ask(hub, c, {"type": "check", "source": HEAVY}), time.monotonic()))))
        start = time.monotonic()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        kinds = sorted(r["type"] if r["type"] == "checked" else r["code"] for r, _ in replies.values())
        assert kinds.count("checked") >= 2 and set(kinds) <= {"checked", "busy"} and "busy" in kinds, kinds
        assert all(at - start < 1.0 for r, at in replies.values() if r["type"] == "error")   # refused at once
        # one connection, one check at a time
        hub.checking.add(("check", "solo"))
        assert ask(hub, "solo", {"type": "check", "source": CARD})["code"] == "busy"
    finally:
        hub.close()
    assert not hub.checks.free


def test_a_check_over_its_budget_is_stopped_and_its_worker_replaced(tmp_path):
    hub = Hub(Store(tmp_path / "g.sqlite"), check_limits={"wall_seconds": 0.2})
    try:
        reply = ask(hub, "a", {"type": "check", "source": HEAVY})
        assert reply["code"] == "limit" and "stopped" in reply["message"], reply
        assert hub.checks.stopped == 1 and not hub.checks.free
        hub.checks.limits["wall_seconds"] = 30
        assert ask(hub, "a", {"type": "check", "source": CARD})["type"] == "checked"   # a new worker
    finally:
        hub.close()


def test_a_worker_job_is_stopped_by_its_cpu_budget(tmp_path):
    """The kernel stops a job that runs over its CPU budget (the worker sets it before each job)."""
    spin = ("import sys; from innoscript.runtime.serving.workers import serve_jobs\n"
            "def spin(n):\n    while n: n += 1\n"
            "def one(): return 1\n"
            "sys.exit(serve_jobs({'spin': spin, 'one': one}))\n")
    pool = workers.Pool([sys.executable, "-c", spin], {"cpu_seconds": 1, "wall_seconds": 30})
    try:
        assert pool.run("one", {}) == 1
        start = time.monotonic()
        with pytest.raises(workers.OverBudget, match="CPU"):
            pool.run("spin", {"n": 1})
        assert time.monotonic() - start < 10
        assert pool.run("one", {}) == 1 and pool.stopped == 1
        with pytest.raises(workers.OverBudget, match="failed"):
            pool.run("nothing", {})                  # an unknown job is the worker's refusal, not a crash
    finally:
        pool.close()


def test_trials_and_checks_leave_no_file_behind(tmp_path, monkeypatch):
    """The sandbox's children and the check's workers write nothing in the cache folder, the server's folder or
    the temporary folder, even when a trial is killed; their own folders are removed."""
    import tempfile
    from innoscript.compiler.bundle import load_bundle
    cache, cwd, tmp = tmp_path / "cache", tmp_path / "cwd", tmp_path / "tmp"
    for d in (cache, cwd, tmp):
        d.mkdir()
    monkeypatch.setenv("INNOSCRIPT_CACHE", str(cache))
    monkeypatch.setenv("TMPDIR", str(tmp))
    monkeypatch.setattr(tempfile, "tempdir", None)
    monkeypatch.chdir(cwd)
    load_bundle("3e")                                  # what a server has cached when a trial comes
    for name in os.listdir(cache):
        os.utime(cache / name)

    def files():
        return sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if not p.name.endswith(".sqlite")
                      and "sqlite" not in p.name)
    before = files()
    hub = Hub(Store(tmp_path / "g.sqlite"), sandbox_limits={"concurrent": 2})
    try:
        with_loop = CARD.replace("    draw [1]\n", "    choose color as c\n    repeat\n")
        assert ask(hub, "a", {"type": "sandbox", "source": CARD, "seed": 3})["type"] == "sandboxed"
        assert ask(hub, "a", {"type": "sandbox", "source": with_loop})["type"] == "sandboxed"
        hub.sandbox_limits["wall_seconds"] = 0.01      # killed while it starts
        assert "longer" in ask(hub, "a", {"type": "sandbox", "source": CARD})["error"]
        for source in (CARD, with_loop, "card"):
            assert ask(hub, "a", {"type": "check", "source": source})["type"] == "checked"
        during = files()
    finally:
        hub.close()
    after = files()
    assert after == before, sorted(set(after) ^ set(before))
    assert [f for f in during if "innoscript-worker-" not in f] == before   # only the workers' own folder


# ---------------------------------------------------------------- quotas
def test_games_per_address_and_spectators_per_game_are_metered(tmp_path):
    quotas = Quotas(dict(QUOTAS, games_per_minute=2, spectators_per_game=3))
    hub = Hub(Store(tmp_path / "g.sqlite"), quotas=quotas)
    for conn, address in (("a1", "10.0.0.1"), ("a2", "10.0.0.1"), ("b", "10.0.0.2")):
        hub.connect(conn, address)
    created = [ask(hub, c, {"type": "create", "players": 2}) for c in ("a1", "a2", "a1", "a2", "a1")]
    assert [m["type"] for m in created] == ["created"] * 4 + ["error"]      # a burst of twice the rate, per address
    assert created[-1]["code"] == "limit" and "a minute" in created[-1]["message"]
    assert hub.store.list()[1] == 4                                         # nothing stored for the refused one
    assert ask(hub, "b", {"type": "create", "players": 2})["type"] == "created"   # another address is not held up
    gid, tokens = created[0]["game"], created[0]["seats"]
    for i in range(3):
        hub.connect(f"s{i}", "10.0.0.9")
        assert ask(hub, f"s{i}", {"type": "join", "game": gid, "player": None})["type"] == "state"
    hub.connect("s3", "10.0.0.9")
    full = ask(hub, "s3", {"type": "join", "game": gid, "player": None})
    assert full["code"] == "limit" and "spectators" in full["message"]
    assert ask(hub, "s3", {"type": "view", "game": gid})["type"] == "state"   # it may still look
    assert ask(hub, "s3", {"type": "join", "game": gid, "player": 0, "token": tokens[0]})["type"] == "state"
    hub.disconnect("s0")                                                     # a place comes free
    assert ask(hub, "s4", {"type": "join", "game": gid, "player": None})["type"] == "state"


def test_the_websocket_server_meters_messages_and_connections(tmp_path):
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect
    port = free_port()
    p = subprocess.Popen([sys.executable, "-m", "innoscript.cli", "serve", "--port", str(port), "--db",
                          str(tmp_path / "g.sqlite"), "--quota", "messages_per_second=5", "--quota",
                          "connections_per_address=2"], stderr=subprocess.PIPE, text=True)
    try:
        wait_for_port(port)
        url = f"ws://127.0.0.1:{port}"
        with connect(url) as a, connect(url) as b:
            for i in range(30):
                a.send(json.dumps({"type": "hello", "id": i}))
            got = []
            while True:
                try:
                    got.append(json.loads(a.recv(timeout=2)))
                except TimeoutError:
                    break
            hellos = [m for m in got if m["type"] == "hello"]
            limits = [m for m in got if m.get("code") == "limit"]
            assert 10 <= len(hellos) < 30 and len(limits) == 1, (len(hellos), len(limits))   # a burst of 2 s' worth
            assert "a second" in limits[0]["message"]
            b.send(json.dumps({"type": "hello"}))                 # another connection has its own meter
            assert json.loads(b.recv(timeout=10))["type"] == "hello"
            with connect(url) as c:                               # a third one from this address is closed
                with pytest.raises(ConnectionClosed) as closed:
                    c.send(json.dumps({"type": "hello"}))
                    c.recv(timeout=10)
                assert closed.value.rcvd.code == 1008
            time.sleep(1.2)                                        # the meter refills
            a.send(json.dumps({"type": "hello"}))
            assert json.loads(a.recv(timeout=10))["type"] == "hello"
    finally:
        p.kill()
        p.wait()


def test_an_oversized_frame_closes_its_connection_without_a_traceback(tmp_path):
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect
    port = free_port()
    p = subprocess.Popen([sys.executable, "-m", "innoscript.cli", "serve", "--port", str(port), "--db",
                          str(tmp_path / "g.sqlite")], stderr=subprocess.PIPE, text=True)
    try:
        wait_for_port(port)
        url = f"ws://127.0.0.1:{port}"
        for size in (2 << 20, (1 << 20) + 1):
            with connect(url, max_size=None, compression=None) as c:
                with pytest.raises(ConnectionClosed) as closed:
                    c.send("x" * size)
                    c.recv(timeout=10)
                assert closed.value.sent is None or closed.value.rcvd.code == 1009
        with connect(url) as c:                                   # the server goes on
            c.send(json.dumps({"type": "hello"}))
            assert json.loads(c.recv(timeout=10))["type"] == "hello"
    finally:
        p.kill()
        _, err = p.communicate()
    assert "Traceback" not in err and "PayloadTooBig" not in err, err


# ---------------------------------------------------------------- shared work
def test_an_answer_makes_one_update_per_seat_however_many_spectators(tmp_path, monkeypatch):
    hub = Hub(Store(tmp_path / "g.sqlite"), allow_seeds=True)
    created = ask(hub, "host", {"type": "create", "players": 2, "seed": 3})
    gid, tokens = created["game"], created["seats"]
    for seat in (0, 1):
        ask(hub, f"p{seat}", {"type": "join", "game": gid, "player": seat, "token": tokens[seat]})
    for i in range(40):
        ask(hub, f"s{i}", {"type": "join", "game": gid, "player": None})
    views = []
    real = Hub._view
    monkeypatch.setattr(Hub, "_view", lambda self, entry, seat: (views.append(seat), real(self, entry, seat))[1])
    d = ask(hub, "p0", {"type": "view", "game": gid, "player": 0, "token": tokens[0]})["view"]["decision"]
    views.clear()
    out = hub.handle("p0", json.dumps({"type": "answer", "game": gid, "player": 0, "token": tokens[0],
                                       "decision": d["id"], "answer": d["options"][0]["id"]}))
    spectators = [m for t, m in out if isinstance(t, str) and t.startswith("s")]
    assert len(spectators) == 40 and all(m is spectators[0] for m in spectators)   # one message, shared
    assert sorted(views, key=str) == sorted([0, 1, None], key=str)                # one view per seat
    assert spectators[0]["player"] is None and "options" not in (spectators[0]["view"]["decision"] or {})


def test_one_bundle_per_distinct_set_list_and_the_cache_is_bounded(tmp_path, monkeypatch):
    hub = Hub(Store(tmp_path / "g.sqlite"), allow_seeds=True)
    created = ask(hub, "c", {"type": "create", "players": 2, "sets": ["echoes"], "seed": 2})
    saved = ask(hub, "c", {"type": "save", "game": created["game"], "token": created["owner"]})["data"]
    bundle = hub.bundle("3e", ["echoes"])
    for repeat in (2, 3, 7):
        data = dict(saved, sets=["echoes"] * repeat)
        reply = ask(hub, "c", {"type": "load", "data": data})
        assert reply["code"] == "bad_save" and "more than once" in reply["message"], reply
    for sets in ([], ["Echoes"], ["echoes", "nosuchset"], ["nosuchset"]):
        ask(hub, "c", {"type": "load", "data": dict(saved, sets=sets)})
    assert ask(hub, "c", {"type": "load", "data": saved})["type"] == "created"
    assert set(hub.bundles) == {("3e", ()), ("3e", ("echoes",))}       # [] is the base game's: a list of its own
    assert hub.bundle("3e", ("echoes",)) is bundle
    assert MAX_BUNDLES >= 4                                   # the editions and their sets, as shipped
    monkeypatch.setattr(protocol, "MAX_BUNDLES", 1)           # more distinct lists than the cache keeps
    hub.bundle("3e", [])
    assert list(hub.bundles) == [("3e", ())]
    assert hub.bundle("3e", ["echoes"]) is not bundle and list(hub.bundles) == [("3e", ("echoes",))]


# ---------------------------------------------------------------- the store's housekeeping
def test_abandoned_games_expire_and_a_full_database_takes_no_new_game(db, store_of):
    """On both stores (the `db` fixture: SQLite and PostgreSQL)."""
    hub = Hub(store_of(), allow_seeds=True, storage={"expire_seconds": 3600})
    old = ask(hub, "c", {"type": "create", "players": 2, "seed": 1})
    fresh = ask(hub, "c", {"type": "create", "players": 2, "seed": 2})
    raw_sql(db, "UPDATE games SET updated = updated - 7200 WHERE id = ?", (old["game"],))
    assert hub.expire() == 1
    assert ask(hub, "c", {"type": "view", "game": old["game"]})["code"] == "no_game"
    assert ask(hub, "c", {"type": "view", "game": fresh["game"]})["type"] == "state"
    used = hub.store.size()
    assert used > 0
    hub.storage["max_db_bytes"] = used - 1                     # full: no new game, the others go on
    refused = ask(hub, "c", {"type": "create", "players": 2, "seed": 3})
    assert refused["code"] == "limit" and "full" in refused["message"]
    assert hub.store.list()[1] == 1
    tokens = fresh["seats"]
    d = ask(hub, "p", {"type": "view", "game": fresh["game"], "player": 0, "token": tokens[0]})["view"]["decision"]
    assert ask(hub, "p", {"type": "answer", "game": fresh["game"], "player": 0, "token": tokens[0],
                          "decision": d["id"], "answer": d["options"][0]["id"]})["type"] == "update"
