"""Transports for the JSON protocol: stdio (one message per line) and WebSocket.

Both hand every message to one ``Hub`` (runtime/protocol.py); the server
never dies on a bad message, and every game lives in the SQLite store, so a
killed server resumes every game when started again on the same file.
"""
from __future__ import annotations

import asyncio
import json
import sys

from .protocol import Hub
from .store import Store


def serve_stdio(db: str | None = None, inp=None, out=None) -> None:
    inp = inp or sys.stdin
    out = out or sys.stdout
    hub = Hub(Store(db))
    conn = "stdio"
    for line in inp:
        if not line.strip():
            continue
        for _target, msg in hub.handle(conn, line):
            out.write(json.dumps(msg, separators=(",", ":")) + "\n")
        out.flush()


WEB_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
             ".css": "text/css; charset=utf-8", ".png": "image/png", ".svg": "image/svg+xml"}


def _static(connection, request):
    """With --web: serve the playground's files; /ws is the protocol's WebSocket."""
    from importlib import resources
    from websockets.datastructures import Headers
    from websockets.http11 import Response
    path = request.path.split("?")[0]
    if path == "/ws":
        return None
    name = "index.html" if path in ("/", "") else path.lstrip("/")
    if "/" in name or name.startswith("."):
        return connection.respond(404, "not found\n")
    try:
        body = resources.files("innoscript").joinpath("web", name).read_bytes()
    except (FileNotFoundError, IsADirectoryError, OSError):
        return connection.respond(404, "not found\n")
    ext = "." + name.rsplit(".", 1)[-1]
    headers = Headers([("Content-Type", WEB_TYPES.get(ext, "application/octet-stream")),
                       ("Content-Length", str(len(body))), ("Cache-Control", "no-store")])
    return Response(200, "OK", headers, body)


async def _serve_ws(host: str, port: int, db: str | None, ready=None, web: bool = False) -> None:
    from websockets.asyncio.server import serve

    hub = Hub(Store(db))
    conns: dict = {}

    async def handler(ws):
        conns[ws] = ws
        try:
            async for message in ws:
                if not isinstance(message, str):
                    await ws.send(json.dumps(hub._error("bad_message", "send text frames holding JSON")))
                    continue
                for target, msg in hub.handle(ws, message):
                    peer = conns.get(target)
                    if peer is not None:
                        try:
                            await peer.send(json.dumps(msg, separators=(",", ":")))
                        except Exception:   # a peer that went away
                            pass
        finally:
            conns.pop(ws, None)
            hub.disconnect(ws)

    async with serve(handler, host, port, max_size=2 ** 22, process_request=_static if web else None) as server:
        if ready is not None:
            ready(server)
        where = f"http://{host}:{port}/ (WebSocket at /ws)" if web else f"ws://{host}:{port}"
        print(f"innoscript serving on {where} (games in {hub.store.path})", file=sys.stderr, flush=True)
        await asyncio.get_running_loop().create_future()


def serve_websocket(host: str = "127.0.0.1", port: int = 8765, db: str | None = None, web: bool = False) -> None:
    try:
        asyncio.run(_serve_ws(host, port, db, web=web))
    except KeyboardInterrupt:
        pass
