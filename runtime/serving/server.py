"""Transports for the JSON protocol: stdio (one message per line) and WebSocket.

Both hand every message to one ``Hub`` (runtime/serving/protocol.py); the server
never dies on a bad message, and every game lives in the store that ``--db``
names (``open_store``: a SQLite file, the default, or a PostgreSQL URL), so a
killed server resumes every game when started again on the same database.
With PostgreSQL several servers share the games, and the WebSocket server
pushes to its joined connections the answers stored by the others, as it does
its own (the store's notices, handled in order on a worker thread).

The WebSocket server handles each message on a worker thread, never on its
event loop, so one client's work (a long bot turn, a card in the sandbox)
does not hold up anyone else's messages.  It meters every connection and
address (runtime/serving/quotas.py) before reading a message, turns each
distinct reply into text once however many connections it goes to (and
compresses none: a compression per connection would grow with them), pushes
updates without waiting for slow readers (one whose unsent updates pass
PUSH_BACKLOG bytes is closed), and ends a connection that breaks a rule of
the WebSocket protocol (a frame over the size limit) without a traceback.  It accepts a WebSocket only from an
allow-list of origins (the web app's own, plus ``--allow-origin``; clients
that send no Origin, which browsers always send, are not browsers), listens on
127.0.0.1 unless ``--host`` says otherwise, and serves the web app with a
Content-Security-Policy that allows no inline script and no other origin.
"""
from __future__ import annotations

import asyncio
import json
import re
import socket
import sys
import time
import traceback
from concurrent.futures import ThreadPoolExecutor

from .protocol import LIMITS, Hub
from .quotas import Quotas
from .store import GameStore, StorageError, Store

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
WORKERS = 12              # threads serving messages (a check or a trial holds one while it waits for its process)
PUSH_BACKLOG = 8 << 20    # bytes of updates a connection may leave unread before it is closed
URL_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")


def open_store(db: str | None = None) -> GameStore:
    """The store that a --db value names: a ``postgresql://`` (or ``postgres://``) URL is PostgreSQL
    (runtime/serving/pgstore.py), anything else without a scheme a SQLite file (None: the default file).
    ValueError or StorageError, one line, for a value that names neither or a database that cannot be used."""
    if db is None:
        return Store()
    db = str(db)
    if not db.strip():
        raise ValueError("--db: give a SQLite file or a postgresql:// URL, not an empty value")
    if "\x00" in db:
        raise ValueError("--db: a NUL character is in neither a file name nor a URL")
    scheme = URL_SCHEME.match(db)
    if scheme is None:
        return Store(db)
    if scheme.group(1).lower() not in ("postgresql", "postgres"):
        raise ValueError(f"--db: {scheme.group(1)[:20]!r} is not a database this server keeps games in "
                         "(a SQLite file, or a postgresql:// URL)")
    try:
        from . import pgstore
    except ImportError as err:
        raise StorageError(f"PostgreSQL needs the psycopg package (pip install 'psycopg[binary]'): {err}") from None
    return pgstore.PostgresStore(db)


def serve_stdio(db: str | None = None, inp=None, out=None, allow_seeds: bool = False,
                storage: dict | None = None) -> None:
    """One local frontend: no quotas (runtime/serving/quotas.py)."""
    inp = inp or sys.stdin
    out = out or sys.stdout
    hub = Hub(open_store(db), allow_seeds=allow_seeds, storage=storage)
    try:
        _stdio_loop(hub, inp, out)
    finally:
        hub.close()
        hub.store.close()


def _stdio_loop(hub: Hub, inp, out) -> None:
    conn = "stdio"
    while True:
        line = inp.readline(LIMITS["message_bytes"] + 2)   # a line is never read whole beyond the limit
        if not line:
            break
        if not line.endswith("\n") and len(line) > LIMITS["message_bytes"]:
            while True:   # skip the rest of the overlong line
                rest = inp.readline(1 << 16)
                if not rest or rest.endswith("\n"):
                    break
        if not line.strip():
            continue
        for _target, msg in hub.handle(conn, line):
            out.write(json.dumps(msg, separators=(",", ":")) + "\n")
        out.flush()


WEB_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
             ".css": "text/css; charset=utf-8", ".png": "image/png", ".svg": "image/svg+xml"}


# No inline script or style, nothing from another origin; the WebSocket only to this server.
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
SECURITY_HEADERS = [("Content-Security-Policy", CSP), ("X-Content-Type-Options", "nosniff"),
                    ("Referrer-Policy", "no-referrer"), ("X-Frame-Options", "DENY"),
                    ("Cross-Origin-Opener-Policy", "same-origin"), ("Cross-Origin-Resource-Policy", "same-origin")]


def _static(connection, request):
    """With --web: serve the playground's files; /ws is the protocol's WebSocket."""
    from importlib import resources

    from websockets.datastructures import Headers
    from websockets.http11 import Response
    path = request.path.split("?")[0]
    if path == "/ws":
        return None
    name = "index.html" if path in ("/", "") else path.lstrip("/")
    if "/" in name or "\\" in name or name.startswith("."):
        return _plain(404, "not found\n")
    try:
        body = resources.files("innoscript.runtime.serving").joinpath("web", name).read_bytes()
    except (FileNotFoundError, IsADirectoryError, OSError):
        return _plain(404, "not found\n")
    ext = "." + name.rsplit(".", 1)[-1]
    headers = Headers([("Content-Type", WEB_TYPES.get(ext, "application/octet-stream")),
                       ("Content-Length", str(len(body))), ("Cache-Control", "no-store")] + SECURITY_HEADERS)
    return Response(200, "OK", headers, body)


def _plain(status: int, text: str):
    from websockets.datastructures import Headers
    from websockets.http11 import Response
    body = text.encode()
    headers = Headers([("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", str(len(body)))]
                      + SECURITY_HEADERS)
    return Response(status, "Not Found" if status == 404 else "Forbidden", headers, body)


def allowed_origins(host: str, port: int, web: bool, extra: list[str] | None = None) -> list:
    """The Origins a WebSocket may come from: none (not a browser), the web app's own, and `extra`."""
    own = []
    if web:
        names = {host, *LOCAL_HOSTS} if host in LOCAL_HOSTS else {host}
        own = sorted(f"http://{'[' + h + ']' if ':' in h else h}:{port}" for h in names)
    return [None] + own + [o.rstrip("/") for o in (extra or [])]


def _address(ws) -> str:
    try:
        return str(ws.remote_address[0])
    except (TypeError, IndexError, AttributeError):
        return "?"


async def _serve_ws(host: str, port: int, db: str | None, ready=None, web: bool = False,
                    allow_origins: list[str] | None = None, allow_seeds: bool = False, quotas: dict | None = None,
                    storage: dict | None = None) -> None:
    from websockets.asyncio.server import broadcast, serve
    from websockets.exceptions import ConnectionClosed

    hub = Hub(open_store(db), allow_seeds=allow_seeds, quotas=Quotas(quotas), storage=storage)
    conns: dict = {}
    pool = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="innoscript")
    loop = asyncio.get_running_loop()
    origins = allowed_origins(host, port, web, allow_origins)

    def push(peers: list, text: str) -> None:
        """An update to other connections, without waiting for them: one that leaves too much unread is closed."""
        ready = []
        for peer in peers:
            transport = getattr(peer, "transport", None)
            if transport is not None and transport.get_write_buffer_size() > PUSH_BACKLOG:
                asyncio.ensure_future(peer.close(1008, "too many updates left unread"))
            else:
                ready.append(peer)
        broadcast(ready, text)

    async def send(replies, ws=None) -> None:
        """The replies to `ws` (the connection that asked; None for another server's write) in order, and
        every other connection's update pushed."""
        texts: dict[int, str] = {}     # each distinct message made text once (the spectators share one)
        pushes: dict[int, list] = {}
        for target, msg in replies:
            if id(msg) not in texts:
                texts[id(msg)] = json.dumps(msg, separators=(",", ":"))
            if ws is not None and target is ws:
                await ws.send(texts[id(msg)])
            elif target in conns:
                pushes.setdefault(id(msg), []).append(target)
        for key, peers in pushes.items():
            push(peers, texts[key])

    # Games another server wrote (the store's notices, from its thread): one entry per game however many
    # notices came, handled in order, so the pushes of one game leave in the order of its versions.
    waiting: dict = {}   # game id (None: every joined game) -> the newest version told (None: look)
    queue: asyncio.Queue = asyncio.Queue()

    def notice(gid, version) -> None:   # on the store's thread
        loop.call_soon_threadsafe(take_notice, gid, version)

    def take_notice(gid, version) -> None:
        if gid not in waiting:
            waiting[gid] = version
            queue.put_nowait(gid)
        elif version is None or waiting[gid] is None:
            waiting[gid] = None
        else:
            waiting[gid] = max(waiting[gid], version)

    async def push_changes() -> None:
        while True:
            gid = await queue.get()
            version = waiting.pop(gid, None)
            try:
                await send(await loop.run_in_executor(pool, hub.changed, gid, version))
            except Exception:   # a bug: reported, and the next notice is handled
                traceback.print_exc()

    hub.store.subscribe(notice)
    pusher = asyncio.create_task(push_changes())

    def check_request(connection, request):
        if request.headers.get("Upgrade", "").lower() == "websocket":
            if request.headers.get("Origin") not in origins:
                return _plain(403, "this origin may not open the game server's WebSocket\n")
            return None
        if web:
            return _static(connection, request)
        return None

    async def handler(ws):
        address = _address(ws)
        if not hub.quotas.connect(address):
            await ws.close(1008, "too many connections from this address")
            return
        conns[ws] = ws
        hub.connect(ws, address)
        refused_at = 0.0
        try:
            async for message in ws:
                why = hub.quotas.message(ws, address)
                if why is not None:   # not read; said at most once a second
                    if time.monotonic() - refused_at >= 1:
                        refused_at = time.monotonic()
                        await ws.send(json.dumps(hub._error("limit", why)))
                    continue
                if not isinstance(message, str):
                    await ws.send(json.dumps(hub._error("bad_message", "send text frames holding JSON")))
                    continue
                await send(await loop.run_in_executor(pool, hub.handle, ws, message), ws)
        except ConnectionClosed:   # closed by the client, or for breaking the protocol (a frame over the limit)
            pass
        finally:
            conns.pop(ws, None)
            hub.disconnect(ws)
            hub.quotas.disconnect(ws, address)

    import logging
    quiet = logging.getLogger("innoscript.websockets")   # the library's own notes (a bad handshake): not tracebacks
    quiet.addHandler(logging.NullHandler())
    quiet.propagate = False
    # no per-message compression: it would cost the server a compression per connection of every update (a crowd
    # of spectators would multiply it), and a client could make it inflate large frames
    async with serve(handler, host, port, max_size=LIMITS["message_bytes"], process_request=check_request,
                     logger=quiet, compression=None) as server:
        if ready is not None:
            ready(server)
        where = f"http://{host}:{port}/ (WebSocket at /ws)" if web else f"ws://{host}:{port}"
        print(f"innoscript serving on {where} (games in {hub.store.path})", file=sys.stderr, flush=True)
        if host not in LOCAL_HOSTS:
            print(f"warning: listening on {host}, not only this machine: anyone who can reach it can create games "
                  "and watch them as a spectator", file=sys.stderr, flush=True)
        try:
            await asyncio.get_running_loop().create_future()
        finally:
            pusher.cancel()
            hub.close()
            hub.store.close()


def serve_websocket(host: str = "127.0.0.1", port: int = 8765, db: str | None = None, web: bool = False,
                    allow_origins: list[str] | None = None, allow_seeds: bool = False, quotas: dict | None = None,
                    storage: dict | None = None) -> None:
    """quotas: runtime/serving/quotas.py's settings (None: its defaults); storage: the hub's STORAGE settings."""
    try:
        asyncio.run(_serve_ws(host, port, db, web=web, allow_origins=allow_origins, allow_seeds=allow_seeds,
                              quotas=quotas, storage=storage))
    except KeyboardInterrupt:
        pass


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now (for a server started by a test or a benchmark)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_port(port: int, seconds: float = 30) -> None:
    """Wait until a server started as a child process accepts connections on the port; RuntimeError if it does
    not within the time."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"no server accepted connections on port {port} within {seconds:g} s")
