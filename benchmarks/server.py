"""Server benchmark: many WebSocket clients playing at once against `innoscript serve`.

    python benchmarks/server.py                       # 50 clients, 40 answers each, about 1 s between answers
    python benchmarks/server.py --think 0             # every client answers the moment its reply arrives
    python benchmarks/server.py --clients 10 --answers 10 --json out.json
    python benchmarks/server.py --store postgresql    # two servers sharing a PostgreSQL database
    python benchmarks/server.py --store postgresql --watch   # and a spectator of each game on the other server

Starts the servers as child processes: by default one, on a fresh SQLite file; with `--store postgresql`,
`--servers` of them (default 2) on a new database of a PostgreSQL server started for the run in a temporary
folder (scripts/temp_postgres.py, with PostgreSQL's durable defaults, or `synchronous_commit=off` with
`--no-flush`; scripts/ensure-postgresql installs Debian's package), or of the server that `--db
postgresql://...` names. Client i plays on server i modulo the
number of servers. Each client creates its own 2-player game against a random bot, joins it as the web table
does, and answers its decisions with random legal answers, as a person at the web table would: each answer is
sent a think time after the previous reply arrived (uniform between 0 and twice --think; 0 sends at once, the
server's worst case). One warm-up game per server first loads the edition. Measures every answer's round trip
(send to the `update` reply, the bot's turn and the store write included) and reports answers per second over
the whole run, p50, p99 and the slowest. With `--watch`, each game also has a spectator joined through the next
server, and the time from sending an answer to that spectator's `update` is reported too (the push between
servers). The target is p99 under 50 ms at 50 clients.
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


async def _client(url: str, n: int, seed: int, edition: str, lat: list[float], think: float = 0.0,
                  watch_url: str | None = None, pushed: list[float] | None = None) -> int:
    from websockets.asyncio.client import connect
    from innoscript.runtime.bots import RandomBot
    bot = RandomBot(seed)
    pause = random.Random(seed)
    async with connect(url, max_size=2 ** 24) as ws:
        await ws.send(json.dumps({"type": "create", "edition": edition, "players": 2, "seed": seed,
                                  "bots": [None, "random"]}))
        created = json.loads(await ws.recv())
        game, token = created["game"], created["seats"][0]
        await ws.send(json.dumps({"type": "join", "game": game, "player": 0, "token": token}))
        view = json.loads(await ws.recv())["view"]
        sent: dict[int, float] = {}      # version -> when the answer that made it was sent
        arrived: dict[int, float] = {}   # version -> when the spectator's update came
        watcher = None
        if watch_url:
            spectator = await connect(watch_url, max_size=2 ** 24).__aenter__()
            await spectator.send(json.dumps({"type": "join", "game": game, "player": None}))
            await spectator.recv()

            async def watch():
                async for text in spectator:
                    msg = json.loads(text)
                    if msg.get("type") == "update":
                        arrived.setdefault(msg["version"], time.perf_counter())
            watcher = asyncio.create_task(watch())
        done = 0
        try:
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
                sent[reply["version"]] = t
                view = reply["view"]
                done += 1
            if watcher is not None:
                await asyncio.sleep(0.5)   # the last pushes
        finally:
            if watcher is not None:
                watcher.cancel()
                await spectator.close()
        if pushed is not None:
            pushed += [arrived[v] - t for v, t in sent.items() if v in arrived]
        return done


async def _run(urls: list[str], clients: int, answers: int, edition: str, think: float,
               watch: bool = False) -> tuple[list[float], int, float, list[float]]:
    lat: list[float] = []
    pushed: list[float] = []
    for url in urls:   # each server's one-time work per edition (bundle, cards' English)
        await _client(url, 0, 99, edition, [])
    start = time.perf_counter()
    counts = await asyncio.gather(*(
        _client(urls[i % len(urls)], answers, 100 + i, edition, lat, think,
                urls[(i + 1) % len(urls)] if watch else None, pushed) for i in range(clients)))
    return lat, sum(counts), time.perf_counter() - start, pushed


def _quantiles(values: list[float]) -> dict:
    values = sorted(values)
    q = statistics.quantiles(values, n=100, method="inclusive")   # never beyond the slowest
    return {"p50_ms": round(q[49] * 1000, 1), "p99_ms": round(q[98] * 1000, 1), "max_ms": round(values[-1] * 1000, 1)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=50, help="clients playing at once (default: 50)")
    ap.add_argument("--answers", type=int, default=40, help="answers per client, fewer if its game ends (default: 40)")
    ap.add_argument("--edition", default="3e", help="edition (default: 3e)")
    ap.add_argument("--think", type=float, default=1.0, help="mean seconds between a reply and the next answer (default: 1)")
    ap.add_argument("--store", choices=("sqlite", "postgresql"), default="sqlite",
                    help="where the servers keep the games (default: sqlite, a fresh file)")
    ap.add_argument("--servers", type=int, help="servers sharing the database (default: 1 on SQLite, 2 on PostgreSQL)")
    ap.add_argument("--db", metavar="URL", help="with --store postgresql: this database (its games table is used "
                    "as it is) instead of a PostgreSQL server started for the run")
    ap.add_argument("--no-flush", action="store_true",
                    help="with --store postgresql and no --db: the PostgreSQL server started for the run does not "
                         "flush each commit to disk before acknowledging it (synchronous_commit=off; SQLite's WAL "
                         "mode as the server uses it does not either)")
    ap.add_argument("--watch", action="store_true",
                    help="a spectator of each game on the next server: the push between servers is timed too")
    ap.add_argument("--json", help="write the figures to this file")
    args = ap.parse_args(argv)
    servers = args.servers or (2 if args.store == "postgresql" else 1)
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
    # a server that deals from its own seeds and meters clients takes the seeds (the same deals as before) and
    # lifts its quotas (50 to 200 clients from this one address) when told; an older one has neither option
    usage = subprocess.run([sys.executable, "-m", "innoscript", "serve", "--help"], capture_output=True, text=True).stdout
    extra = [o for o in ("--allow-seeds", "--no-quotas") if o in usage]
    postgres = None
    with tempfile.TemporaryDirectory() as tmp:
        procs = []
        try:
            if args.store == "sqlite":
                db = os.path.join(tmp, "games.sqlite")
            elif args.db:
                db = args.db
            else:
                sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
                from temp_postgres import TempPostgres, Unavailable
                postgres = TempPostgres(settings=["synchronous_commit=off"] if args.no_flush else [])
                try:
                    postgres.start()
                except Unavailable as err:
                    print(f"server figures: - (PostgreSQL: {err})")
                    return 2
                db = postgres.new_database("bench")
            ports = [free_port() for _ in range(servers)]
            for port in ports:
                procs.append(subprocess.Popen([sys.executable, "-m", "innoscript", "serve", "--port", str(port),
                                               "--db", db, *extra], stderr=subprocess.DEVNULL))
            for port in ports:
                wait_for_port(port)
            lat, n, wall, pushed = asyncio.run(_run([f"ws://127.0.0.1:{port}" for port in ports], args.clients,
                                                    args.answers, args.edition, args.think, args.watch))
        finally:
            for proc in procs:
                proc.kill()
                proc.wait()
            if postgres is not None:
                postgres.stop()
    figures = {"clients": args.clients, "think_s": args.think, "store": args.store, "servers": servers,
               **({"flush": not args.no_flush} if args.store == "postgresql" and not args.db else {}), "answers": n,
               "wall_s": round(wall, 2), "answers_per_s": round(n / wall, 1), **_quantiles(lat)}
    where = "SQLite" if args.store == "sqlite" else \
        "PostgreSQL" + (" (synchronous_commit off)" if figures.get("flush") is False else "")
    print(f"{args.clients} clients (think {args.think} s), {servers} server{'s' * (servers > 1)} on {where}, "
          f"{n} answers in {wall:.1f} s: {figures['answers_per_s']} answers/s; round trip p50 {figures['p50_ms']} ms, "
          f"p99 {figures['p99_ms']} ms, slowest {figures['max_ms']} ms")
    if args.watch:
        if len(pushed) < 2:
            print("pushes to the spectators: too few to measure")
        else:
            figures["pushed"] = dict(_quantiles(pushed), count=len(pushed))
            print(f"pushes to the spectators on the {'other' if servers > 1 else 'same'} server: {len(pushed)}, "
                  f"from sending the answer p50 {figures['pushed']['p50_ms']} ms, p99 {figures['pushed']['p99_ms']} ms, "
                  f"slowest {figures['pushed']['max_ms']} ms")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(figures, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
