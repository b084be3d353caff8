"""Server benchmarks under hostile load: what one client's work costs the others.

    python benchmarks/hostile.py flood          # honest players' round trips while 12 clients flood `check`
    python benchmarks/hostile.py loads          # the server's memory over 1,000 `load`s
    python benchmarks/hostile.py spectators     # an answer's round trip with 0 to 600 spectators joined
    python benchmarks/hostile.py all --json out.json

Each starts `innoscript serve` as a child process on a fresh SQLite file, with `--no-quotas`: every client
here comes from one address, and what is measured is the work itself, not the quotas that would also refuse
such clients.

- flood: 4 honest clients each play a 2-player game against a random bot, one answer every 0.2 s, for 20 s
  while 12 other clients each send a 20,000-character card to `check` again as soon as its reply arrives
  (about 0.4 s of compiling each here); the same 20 s without the flood first. Reports the honest answers'
  round trip (p50, p99, slowest) both ways, and how the flood's checks were answered.
- loads: 1,000 `load` messages of a saved Echoes game naming its set again and again (`["echoes", "echoes"]`
  and longer: refused), then 1,000 of the saved game itself (each a new game); the server's resident memory
  (VmRSS) after every 250.
- spectators: one game (a person against a random bot); 40 answers with 0, 100, 300 and 600 spectator
  connections joined (each reading its pushes); the answer's round trip p50 and p99 at each.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

HEAVY = ('card "Lamp" {\n    age 1\n    color blue\n    icons hex leaf leaf leaf\n    dogma leaf\n}\n\neffect {\n'
         + "    draw [1]\n" * 1490 + "}\n")


class Server:
    def __init__(self, *extra):
        from innoscript.runtime.serving.server import free_port, wait_for_port
        self.tmp = tempfile.TemporaryDirectory()
        self.port = free_port()
        self.proc = subprocess.Popen([sys.executable, "-m", "innoscript", "serve", "--port", str(self.port), "--db",
                                      os.path.join(self.tmp.name, "g.sqlite"), *extra], stderr=subprocess.DEVNULL)
        wait_for_port(self.port)
        self.url = f"ws://127.0.0.1:{self.port}"

    def rss_mib(self) -> float:
        with open(f"/proc/{self.proc.pid}/status") as f:
            kb = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
        return round(kb / 1024, 1)

    def close(self):
        self.proc.kill()
        self.proc.wait()
        self.tmp.cleanup()


def _q(lat: list[float]) -> dict:
    lat = sorted(lat)
    q = statistics.quantiles(lat, n=100) if len(lat) > 1 else lat * 99
    return {"answers": len(lat), "p50_ms": round(q[49] * 1000, 1), "p99_ms": round(q[98] * 1000, 1),
            "max_ms": round(lat[-1] * 1000, 1)}


async def _player(url: str, seconds: float, lat: list[float], seed: int, think: float = 0.2):
    from websockets.asyncio.client import connect
    from innoscript.runtime.bots import RandomBot
    bot = RandomBot(seed)
    end = time.monotonic() + seconds
    async with connect(url, max_size=2 ** 24) as ws:
        while time.monotonic() < end:
            await ws.send(json.dumps({"type": "create", "players": 2, "bots": [None, "random"]}))
            created = json.loads(await ws.recv())
            game, token = created["game"], created["seats"][0]
            await ws.send(json.dumps({"type": "view", "game": game, "player": 0, "token": token}))
            view = json.loads(await ws.recv())["view"]
            while time.monotonic() < end and view["decision"] is not None and view["decision"]["player"] == 0:
                d = view["decision"]
                await asyncio.sleep(think)
                t = time.perf_counter()
                await ws.send(json.dumps({"type": "answer", "game": game, "player": 0, "token": token,
                                          "decision": d["id"], "answer": bot.answer(d)}))
                reply = json.loads(await ws.recv())
                lat.append(time.perf_counter() - t)
                if reply["type"] != "update":
                    raise SystemExit(f"unexpected reply: {json.dumps(reply)[:300]}")
                view = reply["view"]


async def _flooder(url: str, seconds: float, tally: dict):
    from websockets.asyncio.client import connect
    end = time.monotonic() + seconds
    async with connect(url, max_size=2 ** 24) as ws:
        while time.monotonic() < end:
            await ws.send(json.dumps({"type": "check", "source": HEAVY}))
            reply = json.loads(await ws.recv())
            key = reply["type"] if reply["type"] != "error" else reply["code"]
            tally[key] = tally.get(key, 0) + 1
            if key in ("busy", "limit"):
                await asyncio.sleep(0.02)   # a client that retries at once, all but spinning


def flood(seconds: float = 20, players: int = 4, flooders: int = 12) -> dict:
    server = Server("--no-quotas")
    try:
        async def run(with_flood: bool):
            lat: list[float] = []
            tally: dict = {}
            await _player(server.url, 0.1, [], 99)   # the server's one-time work
            tasks = [_player(server.url, seconds, lat, 100 + i) for i in range(players)]
            if with_flood:
                tasks += [_flooder(server.url, seconds, tally) for _ in range(flooders)]
            await asyncio.gather(*tasks)
            return lat, tally
        calm, _ = asyncio.run(run(False))
        flooded, tally = asyncio.run(run(True))
    finally:
        server.close()
    out = {"players": players, "flooders": flooders, "seconds": seconds,
           "calm": _q(calm), "flooded": _q(flooded), "checks": tally}
    print(f"flood: honest answers p50/p99 {out['calm']['p50_ms']}/"
          f"{out['calm']['p99_ms']} ms calm, {out['flooded']['p50_ms']}/{out['flooded']['p99_ms']} ms (slowest "
          f"{out['flooded']['max_ms']} ms) while {flooders} clients flood check; the checks: {tally}")
    return out


def loads(n: int = 1000) -> dict:
    from websockets.sync.client import connect
    server = Server("--no-quotas")
    out = {"refused": [], "loaded": []}
    try:
        with connect(server.url, max_size=2 ** 24) as ws:
            ws.send(json.dumps({"type": "create", "players": 2, "sets": ["echoes"]}))
            created = json.loads(ws.recv())
            ws.send(json.dumps({"type": "save", "game": created["game"], "token": created["owner"]}))
            saved = json.loads(ws.recv())["data"]
            for key, make in (("refused", lambda i: dict(saved, sets=["echoes"] * (2 + i % 7))),
                              ("loaded", lambda i: saved)):
                out[key].append((0, server.rss_mib()))
                for i in range(1, n + 1):
                    ws.send(json.dumps({"type": "load", "data": make(i)}))
                    reply = json.loads(ws.recv())
                    assert reply["type"] == ("error" if key == "refused" else "created"), reply
                    if i % 250 == 0:
                        out[key].append((i, server.rss_mib()))
    finally:
        server.close()
    for key in out:
        print(f"loads ({key}): resident MiB after " + ", ".join(f"{i}: {m}" for i, m in out[key]))
    return out


async def _watchers(url: str, game: str, k: int, seconds: float):
    """k spectator connections joined to the game, reading their updates (in a process of their own, so the
    measuring client's loop is not theirs); prints how many joined, then how many updates they read."""
    from websockets.asyncio.client import connect
    read = [0]

    async def one():
        async with connect(url, max_size=2 ** 24) as ws:
            await ws.send(json.dumps({"type": "join", "game": game, "player": None}))
            await ws.recv()
            joined.append(1)
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                try:
                    await asyncio.wait_for(ws.recv(), 0.5)
                    read[0] += 1
                except asyncio.TimeoutError:
                    pass
    joined: list = []
    tasks = [asyncio.ensure_future(one()) for _ in range(k)]
    while len(joined) < k:
        await asyncio.sleep(0.1)
    print("joined", flush=True)
    await asyncio.gather(*tasks)
    print(read[0], flush=True)


def spectators(levels=(0, 100, 300, 600), answers: int = 40) -> dict:
    server = Server("--no-quotas")
    out = {}
    try:
        async def one(k: int):
            from websockets.asyncio.client import connect
            from innoscript.runtime.bots import RandomBot
            bot = RandomBot(k)
            async with connect(server.url, max_size=2 ** 24) as ws:
                await ws.send(json.dumps({"type": "create", "players": 2, "bots": [None, "random"]}))
                created = json.loads(await ws.recv())
                game, token = created["game"], created["seats"][0]
                watchers = None
                if k:
                    watchers = subprocess.Popen([sys.executable, __file__, "_watch", server.url, game, str(k),
                                                 str(answers * 0.2 + 20)], stdout=subprocess.PIPE, text=True)
                    assert watchers.stdout.readline().strip() == "joined"
                await ws.send(json.dumps({"type": "view", "game": game, "player": 0, "token": token}))
                view = json.loads(await ws.recv())["view"]
                lat = []
                while len(lat) < answers and view["decision"] is not None and view["decision"]["player"] == 0:
                    d = view["decision"]
                    t = time.perf_counter()
                    await ws.send(json.dumps({"type": "answer", "game": game, "player": 0, "token": token,
                                              "decision": d["id"], "answer": bot.answer(d)}))
                    reply = json.loads(await ws.recv())
                    lat.append(time.perf_counter() - t)
                    view = reply["view"]
                    await asyncio.sleep(0.1)
                read = int(watchers.communicate()[0].strip() or 0) if watchers else 0
                return dict(_q(lat), pushes_read=read)
        for k in levels:
            out[k] = asyncio.run(one(k))
            print(f"spectators {k}: answer round trip p50 {out[k]['p50_ms']} ms, p99 {out[k]['p99_ms']} ms "
                  f"({out[k]['answers']} answers, {out[k]['pushes_read']} updates read by the spectators)")
    finally:
        server.close()
    return out


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["_watch"]:   # the spectators' own process (spectators())
        url, game, k, seconds = argv[1:]
        asyncio.run(_watchers(url, game, int(k), float(seconds)))
        return 0
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=["flood", "loads", "spectators", "all"])
    ap.add_argument("--json", help="write the figures to this file")
    args = ap.parse_args(argv)
    random.seed(1)
    figures = {}
    if args.what in ("flood", "all"):
        figures["flood"] = flood()
    if args.what in ("loads", "all"):
        figures["loads"] = loads()
    if args.what in ("spectators", "all"):
        figures["spectators"] = spectators()
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(figures, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
