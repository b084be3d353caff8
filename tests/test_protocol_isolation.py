"""The sandbox cannot hang the server: while one client runs a card that loops through decisions and
another a card that squares a number on every repeat, a third client's view is answered in under a
second; each trial runs in a child process with CPU-time, memory and wall-clock limits."""
import json
import socket
import subprocess
import sys
import threading
import time

import pytest

from innoscript.runtime.serving import sandbox
from protocol_client import check, free_port, wait_for_port

HEADER = 'card "{name}" {{\n    age 1\n    color blue\n    icons hex leaf leaf leaf\n    dogma leaf\n}}\n\n'
LOOPING = HEADER.format(name="Looper") + "effect {\n    choose color as c\n    repeat\n}\n"
SQUARING = HEADER.format(name="Squarer") + "effect (n = 2) {\n    repeat with n = n * n\n}\n"


@pytest.fixture
def server(tmp_path):
    port = free_port()
    p = subprocess.Popen([sys.executable, "-m", "innoscript.cli", "serve", "--port", str(port), "--allow-seeds",
                          "--db", str(tmp_path / "g.sqlite")], stderr=subprocess.DEVNULL)
    wait_for_port(port)
    yield f"ws://127.0.0.1:{port}"
    p.kill()
    p.wait()


def test_a_third_clients_view_is_answered_while_hostile_cards_run(server):
    from websockets.sync.client import connect
    with connect(server) as c:
        gid = json.loads((c.send(json.dumps({"type": "create", "players": 2})), c.recv(timeout=30))[1])["game"]
    results = {}

    def trial(name, source):
        with connect(server) as conn:
            start = time.monotonic()
            conn.send(json.dumps({"type": "sandbox", "source": source, "seed": 1}))
            reply = check("server", json.loads(conn.recv(timeout=60)))
            results[name] = (reply, time.monotonic() - start)

    threads = [threading.Thread(target=trial, args=a) for a in (("loop", LOOPING), ("square", SQUARING))]
    for t in threads:
        t.start()
    latencies, during = [], 0
    with connect(server) as third:
        time.sleep(0.2)   # the trials are under way
        while any(t.is_alive() for t in threads) or not latencies:
            start = time.monotonic()
            third.send(json.dumps({"type": "view", "game": gid}))
            reply = check("server", json.loads(third.recv(timeout=30)))
            latencies.append(time.monotonic() - start)
            assert reply["type"] == "state"
            during += any(t.is_alive() for t in threads)
            time.sleep(0.05)
    for t in threads:
        t.join()
    assert during >= 3, "the views must have been asked while the trials ran"
    assert max(latencies) < 1.0, f"a view took {max(latencies):.2f} s while the sandbox ran"
    print(f"isolation: {during} views during the trials, slowest {max(latencies):.3f} s")
    for name in ("loop", "square"):
        reply, _ = results[name]
        assert reply["type"] == "sandboxed" and reply["error"], reply   # stopped, with a reason
    assert "number" in results["square"][0]["error"] or "memory" in results["square"][0]["error"]


def test_a_trial_is_stopped_at_its_limits():
    # wall clock: the child is killed
    log, error = sandbox.run_in_child(LOOPING, "3e", 1, dict(sandbox.LIMITS, wall_seconds=0.01))
    assert log == [] and "longer than" in error
    # memory: a child that cannot even load the compiler in its address space fails alone
    log, error = sandbox.run_in_child(LOOPING, "3e", 1, dict(sandbox.LIMITS, memory_bytes=8 << 20))
    assert log == [] and ("memory" in error or "failed" in error), error
    # answers: a card that asks without end is stopped by the trial's own count or the engine's budget
    log, error = sandbox.run_in_child(LOOPING, "3e", 1, dict(sandbox.LIMITS, answers=20))
    assert error and len(log) <= 60


def test_the_trials_own_cpu_limit_is_set_in_the_child(tmp_path):
    """The child limits itself before it touches the card (observed through /proc)."""
    script = ("import json,resource,sys\n"
              "sys.argv=['x']\n"
              "from innoscript.runtime.serving import sandbox\n"
              "sandbox.trial=lambda *a: ([str(resource.getrlimit(resource.RLIMIT_CPU)), "
              "str(resource.getrlimit(resource.RLIMIT_AS))], None)\n"
              "sandbox.main()\n")
    request = json.dumps({"source": "", "edition": "3e", "seed": 0, "limits": dict(sandbox.LIMITS, cpu_seconds=3)})
    r = subprocess.run([sys.executable, "-c", script], input=request, capture_output=True, text=True, timeout=60)
    log = json.loads(r.stdout)["log"]
    assert log == [str((3, 4)), str((sandbox.LIMITS["memory_bytes"],) * 2)]


def test_a_trial_beyond_the_concurrent_ones_is_busy_at_once(tmp_path):
    from innoscript.runtime.serving.protocol import Hub
    from innoscript.runtime.serving.store import Store
    hub = Hub(Store(tmp_path / "g.sqlite"), allow_seeds=True, sandbox_limits={"concurrent": 1})
    assert hub.trials.acquire(blocking=False)   # the one place is taken
    start = time.monotonic()
    reply = hub.handle("c", json.dumps({"type": "sandbox", "source": LOOPING}))[0][1]
    assert reply["code"] == "busy" and time.monotonic() - start < 1.0
