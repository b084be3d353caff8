"""Server benchmark: many WebSocket clients playing at once against one `innoscript serve`.

    python benchmarks/server.py                       # 50 clients, 40 answers each, about 1 s between answers
    python benchmarks/server.py --think 0             # every client answers the moment its reply arrives
    python benchmarks/server.py --clients 10 --answers 10 --json out.json

Starts the server as a child process (a fresh SQLite file), then each client creates its own 2-player game
against a random bot and answers its decisions with random legal answers, as a person at the web table would:
each answer is sent a think time after the previous reply arrived (uniform between 0 and twice --think; 0 sends
at once, the server's worst case). One warm-up game first loads the edition. Measures every answer's round trip (send to the
`update` reply, the bot's turn and the store write included) and reports answers per second over the whole run,
p50, p99 and the slowest. The target is p99 under 50 ms at 50 clients.
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


async def _client(url: str, n: int, seed: int, edition: str, lat: list[float], think: float = 0.0) -> int:
    from websockets.asyncio.client import connect
    from innoscript.runtime.bots import RandomBot
    bot = RandomBot(seed)
    pause = random.Random(seed)
    async with connect(url, max_size=2 ** 24) as ws:
        await ws.send(json.dumps({"type": "create", "edition": edition, "players": 2, "seed": seed,
                                  "bots": [None, "random"]}))
        created = json.loads(await ws.recv())
        game, token = created["game"], created["seats"][0]
        await ws.send(json.dumps({"type": "view", "game": game, "player": 0, "token": token}))
        view = json.loads(await ws.recv())["view"]
        done = 0
        while done < n and view["decision"] is not None and view["decision"]["player"] == 0:
            d = view["decision"]
            msg = {"type": "answer", "game": game, "player": 0, "token": token, "decision": d["id"],
                   "answer": bot.answer(d)}
            if think:
                await asyncio.sleep(pause.uniform(0, 2 * think))
            t = time.perf_counter()
            await ws.send(json.dumps(msg))
            reply = json.loads(await ws.recv())
            lat.append(time.perf_counter() - t)
            if reply["type"] != "update":
                raise SystemExit(f"unexpected reply: {json.dumps(reply)[:300]}")
            view = reply["view"]
            done += 1
        return done


async def _run(url: str, clients: int, answers: int, edition: str, think: float) -> tuple[list[float], int, float]:
    lat: list[float] = []
    await _client(url, 0, 99, edition, [])   # the server's one-time work per edition (bundle, cards' English)
    start = time.perf_counter()
    counts = await asyncio.gather(*(_client(url, answers, 100 + i, edition, lat, think) for i in range(clients)))
    return lat, sum(counts), time.perf_counter() - start


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=50, help="clients playing at once (default: 50)")
    ap.add_argument("--answers", type=int, default=40, help="answers per client, fewer if its game ends (default: 40)")
    ap.add_argument("--edition", default="3e", help="edition (default: 3e)")
    ap.add_argument("--think", type=float, default=1.0, help="mean seconds between a reply and the next answer (default: 1)")
    ap.add_argument("--json", help="write the figures to this file")
    args = ap.parse_args(argv)
    try:
        import innoscript
        if os.path.isdir(os.path.join(os.path.dirname(innoscript.__file__), "core")):   # the 0.2.0 layout
            from innoscript.runtime.serving.server import free_port, wait_for_port
        else:
            from innoscript.runtime.server import free_port, wait_for_port
    except ImportError as err:   # an older version of the code, measured side by side by bench.py
        reason = f"this version has no server port helpers ({err})"
        print(f"server figures: - ({reason})")
        if args.json:
            with open(args.json, "w", encoding="utf-8") as f:
                json.dump({"unavailable": reason}, f, indent=2)
        return 2
    port = free_port()
    # a server that deals from its own seeds and meters clients takes the seeds (the same deals as before) and
    # lifts its quotas (50 to 200 clients from this one address) when told; an older one has neither option
    usage = subprocess.run([sys.executable, "-m", "innoscript", "serve", "--help"], capture_output=True, text=True).stdout
    extra = [o for o in ("--allow-seeds", "--no-quotas") if o in usage]
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.Popen([sys.executable, "-m", "innoscript", "serve", "--port", str(port),
                                 "--db", os.path.join(tmp, "games.sqlite"), *extra], stderr=subprocess.DEVNULL)
        try:
            wait_for_port(port)
            lat, n, wall = asyncio.run(_run(f"ws://127.0.0.1:{port}", args.clients, args.answers, args.edition,
                                              args.think))
        finally:
            proc.kill()
            proc.wait()
    lat.sort()
    q = statistics.quantiles(lat, n=100)
    figures = {"clients": args.clients, "think_s": args.think, "answers": n, "wall_s": round(wall, 2), "answers_per_s": round(n / wall, 1),
               "p50_ms": round(q[49] * 1000, 1), "p99_ms": round(q[98] * 1000, 1), "max_ms": round(lat[-1] * 1000, 1)}
    print(f"{args.clients} clients (think {args.think} s), {n} answers in {wall:.1f} s: {figures['answers_per_s']} answers/s; "
          f"round trip p50 {figures['p50_ms']} ms, p99 {figures['p99_ms']} ms, slowest {figures['max_ms']} ms")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(figures, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
