"""PostgreSQL persistence of games (psycopg 3): several servers, on several machines, sharing their games.

The same contract as the SQLite store (``GameStore`` in runtime/serving/store.py).
Every write of a game is one statement, ``UPDATE ... WHERE id = game AND
version = the version it was computed from AND phase <> 'over'``: under
PostgreSQL's READ COMMITTED, a second writer of the same version waits for
the first to commit, reads the row again, finds another version and changes
nothing, so it gets ``Conflict``.  An undo is such a write too, and a
finished game is never written again.

Servers tell each other of their writes with LISTEN/NOTIFY.  The statement
that writes a game also sends ``game version server`` on the channel
``innoscript_games`` (a notice is delivered only once the write is committed,
and never for one that lost).  A server that subscribes listens on a
connection of its own and hands every other server's notice to its callback,
so a seat connected to one server sees at once an answer given through
another.  The events of each write are kept (those of a game's last
``EVENTS_KEPT`` writes, in the table ``game_events``, written by the same
statement), so that server's push carries them as the answering server's did,
all of them when it pushes several writes at once.  When the listening
connection is lost it is made again, and the callback hears ``(None, None)``:
notices may have been missed.

The other connections form a small pool, made on demand, one per worker
thread at most.  A connection that failed is dropped; a read is tried once
more on a new connection, a write never (it may have been committed: the
seat asks again, and the version or the decision tells).

Abandoned games expire as on SQLite (``expire``, with their kept events), and
``size`` counts the bytes of the stored values, not the tables' size on disk,
which never shrinks: the room of expired games is reused by new ones.

What comes back is checked like any input: rows by ``decode_row``, notices by
their form (any other is ignored), and a table named ``games`` that lacks
this store's columns is refused.  The URL's password never appears in a
message: errors at start name the server and the cause, errors while serving
say only which kind of failure it was (the whole, without the password, goes
to the server's log on stderr).
"""
from __future__ import annotations

import json
import re
import secrets
import sys
import threading
import time
from contextlib import contextmanager
from urllib.parse import quote, unquote

import psycopg
from psycopg.conninfo import conninfo_to_dict
from psycopg.pq import TransactionStatus

from .store import Conflict, GameStore, StorageError, decode_row, public_facts

CHANNEL = "innoscript_games"
SCHEMA_LOCK = 0x1A7E5C0   # the advisory lock that serialises making the table (any constant of this store)
POOL_SIZE = 12            # connections at most (the WebSocket server has 12 worker threads)
CONNECT_SECONDS = 10
STATEMENT_SECONDS = 30    # a statement that waits longer (a lock held by a stuck client) fails
EVENTS_KEPT = 64          # writes of a game whose events are kept for other servers' pushes
# a row's bytes besides its text values (header, numbers, its index entries), counted by size()
GAME_ROW_BYTES = 96
EVENTS_ROW_BYTES = 64
SIZE_SECONDS = 10         # size() reads both tables whole (about 0.15 s at 1 GiB): at most this often
SCHEMA = [
    """CREATE TABLE IF NOT EXISTS games (
        id       TEXT PRIMARY KEY,
        edition  TEXT NOT NULL,
        version  BIGINT NOT NULL,
        state    TEXT NOT NULL,
        undo     TEXT,
        since    TEXT NOT NULL DEFAULT '[]',
        bots     TEXT NOT NULL DEFAULT '[]',
        created  DOUBLE PRECISION NOT NULL,
        updated  DOUBLE PRECISION NOT NULL,
        players  INTEGER NOT NULL DEFAULT 0,
        phase    TEXT NOT NULL DEFAULT '',
        tokens   TEXT NOT NULL DEFAULT '{}'
    )""",
    "CREATE INDEX IF NOT EXISTS games_by_age ON games (created, id)",
    """CREATE TABLE IF NOT EXISTS game_events (
        id       TEXT NOT NULL,
        version  BIGINT NOT NULL,
        events   TEXT NOT NULL,
        PRIMARY KEY (id, version)
    )""",
]
COLUMNS = {"games": {"id", "edition", "version", "state", "undo", "since", "bots", "created", "updated", "players",
                     "phase", "tokens"},
           "game_events": {"id", "version", "events"}}
URL = re.compile(r"^postgres(?:ql)?://", re.I)
NOTICE = re.compile(r"^([0-9A-Za-z_-]{1,64}) ([0-9]{1,16}) ([0-9a-f]{16})$")


def is_url(db: str) -> bool:
    return bool(URL.match(db))


def _passwords(url: str, parsed: dict | None) -> list[str]:
    """Every form in which the URL's password may be written back in a message, longest first."""
    found = set()
    if parsed and parsed.get("password"):
        found |= {parsed["password"], quote(parsed["password"], safe="")}
    m = re.match(r"^[a-z]+://([^@/?#]*)@", url, re.I)       # user:password@, even in a URL libpq refused
    if m and ":" in m.group(1):
        found |= {m.group(1).split(":", 1)[1], unquote(m.group(1).split(":", 1)[1])}
    for q in re.findall(r"[?&]password=([^&#]*)", url, re.I):
        found |= {q, unquote(q)}
    return sorted((p for p in found if p), key=len, reverse=True)


class PostgresStore(GameStore):
    """Games in a PostgreSQL database, named by a ``postgresql://`` URL (libpq's form: user, password, host,
    port, database and parameters such as ``sslmode``; what it leaves out comes from libpq's PG* variables)."""

    def __init__(self, url: str):
        self.url = url
        try:
            parsed = conninfo_to_dict(url)
        except psycopg.Error as err:
            self._hidden = _passwords(url, None)
            raise StorageError(f"not a PostgreSQL URL: {self._redact(err, whole=True)}") from None
        self._hidden = _passwords(url, parsed)
        host = parsed.get("host") or parsed.get("hostaddr") or "localhost"
        where = f"{host}:{parsed['port']}" if parsed.get("port") else host
        user = f"{parsed['user']}@" if parsed.get("user") else ""
        self.path = f"postgresql://{user}{where}/{parsed.get('dbname', '')}"   # shown to people: no password
        self._options = {k: v for k, v in (("connect_timeout", CONNECT_SECONDS), ("application_name", "innoscript"))
                         if k not in parsed}
        self.origin = secrets.token_hex(8)   # this store's name in its notices: its own are not told back
        self._idle: list = []
        self._slots = threading.BoundedSemaphore(POOL_SIZE)
        self._lock = threading.Lock()
        self._callbacks: list = []
        self._size: tuple[float, int] | None = None   # (when, bytes): size()'s last count
        self._listener: threading.Thread | None = None
        self._closing = threading.Event()
        self.listening = threading.Event()   # set while the listening connection is up (tests wait on it)
        try:
            conn = self._connect()
        except psycopg.Error as err:
            raise StorageError(f"cannot connect to {self.path}: {self._redact(err, whole=True)}") from None
        try:
            with conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))   # two servers starting at once
                for statement in SCHEMA:
                    conn.execute(statement)
                have = {table: {r[0] for r in conn.execute(
                    "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() "
                    "AND table_name = %s", (table,))} for table in COLUMNS}
        except psycopg.Error as err:
            conn.close()
            raise StorageError(f"cannot prepare the games table in {self.path}: {self._redact(err, whole=True)}") from None
        for table, columns in COLUMNS.items():
            if not columns <= have[table]:
                conn.close()
                raise StorageError(f"{self.path} has a table '{table}' that is not this program's (it lacks "
                                   f"{', '.join(sorted(columns - have[table]))})")
        self._release(conn)

    # ------------------------------------------------------------ connections
    def _connect(self):
        conn = psycopg.connect(self.url, autocommit=True, **self._options)
        conn.execute(f"SET statement_timeout = {int(STATEMENT_SECONDS * 1000)}")
        return conn

    def _release(self, conn) -> None:
        with self._lock:
            if (not self._closing.is_set() and not conn.closed
                    and conn.info.transaction_status == TransactionStatus.IDLE):
                self._idle.append(conn)
                return
        conn.close()

    @contextmanager
    def _connection(self):
        self._slots.acquire()
        try:
            with self._lock:
                conn = self._idle.pop() if self._idle else None
            if conn is None or conn.closed:
                conn = self._connect()
            try:
                yield conn
            finally:
                self._release(conn)   # back to the idle ones if it is still sound, else closed
        finally:
            self._slots.release()

    def _run(self, sql: str, params=(), write: bool = False) -> list[tuple]:
        """One statement's rows (autocommit: the statement is its own transaction)."""
        for attempt in (0, 1):
            try:
                with self._connection() as conn:
                    cur = conn.execute(sql, params)
                    return cur.fetchall() if cur.description else []
            except psycopg.OperationalError as err:   # a connection lost (the server restarted): once more
                if write or attempt or self._closing.is_set() or isinstance(err, psycopg.errors.QueryCanceled):
                    raise self._failed(err) from None
            except psycopg.Error as err:
                raise self._failed(err) from None
        raise AssertionError("unreachable")

    def _redact(self, err, whole: bool = False) -> str:
        text = " ".join(str(err).split()) or type(err).__name__
        for secret in self._hidden:
            text = text.replace(secret, "***")
        return text if whole else text[:300]

    def _failed(self, err) -> StorageError:
        """A failure while serving: the log has it whole (no password), a client only its kind."""
        kind = type(err).__name__ + (f" {err.sqlstate}" if getattr(err, "sqlstate", None) else "")
        print(f"innoscript: PostgreSQL failed ({kind}): {self._redact(err)}", file=sys.stderr, flush=True)
        return StorageError(f"PostgreSQL {kind}")

    # ------------------------------------------------------------ games
    def create(self, gid: str, edition: str, state: dict, bots: list, tokens: dict,
               undo: str | None = None, since: list | None = None) -> int:
        now = time.time()
        self._run("INSERT INTO games (id, edition, version, state, undo, since, bots, created, updated, players, "
                  "phase, tokens) VALUES (%s, %s, 1, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                  (gid, edition, json.dumps(state), undo, json.dumps(since or []), json.dumps(bots), now, now,
                   len(state["players"]), state["phase"], json.dumps(tokens)), write=True)
        return 1

    def update(self, gid: str, old_version: int, state: dict, undo: str | None, since: list,
               events: list | None = None) -> int:
        rows = self._run(   # one statement: the write, its events, the events no longer kept, and the notice
            "WITH moved AS (UPDATE games SET version = version + 1, state = %(state)s, undo = %(undo)s, "
            "since = %(since)s, phase = %(phase)s, updated = %(now)s "
            "WHERE id = %(id)s AND version = %(old)s AND phase <> 'over' RETURNING version), "
            "kept AS (INSERT INTO game_events (id, version, events) SELECT %(id)s, version, %(events)s FROM moved), "
            "gone AS (DELETE FROM game_events WHERE id = %(id)s AND version <= %(old)s + 1 - %(kept)s "
            "AND EXISTS (SELECT 1 FROM moved)) "
            "SELECT version, pg_notify(%(channel)s, %(id)s || ' ' || version || ' ' || %(origin)s) FROM moved",
            {"state": json.dumps(state), "undo": undo, "since": json.dumps(since), "phase": state["phase"],
             "now": time.time(), "id": gid, "old": old_version, "events": json.dumps(events or []),
             "kept": EVENTS_KEPT, "channel": CHANNEL, "origin": self.origin}, write=True)
        if not rows:
            raise Conflict(gid)
        if rows[0][0] != old_version + 1:
            raise StorageError(f"the stored game {gid[:40]!r} took version {rows[0][0]!r}, not {old_version + 1}")
        return old_version + 1

    def version(self, gid: str) -> int | None:
        rows = self._run("SELECT version FROM games WHERE id = %s", (gid,))
        if not rows:
            return None
        if not isinstance(rows[0][0], int) or rows[0][0] < 1:
            raise StorageError(f"the stored game {gid[:40]!r} is damaged (version is not a positive whole number)")
        return rows[0][0]

    def load(self, gid: str):
        rows = self._run("SELECT edition, version, state, undo, since, bots, tokens FROM games WHERE id = %s", (gid,))
        return decode_row(gid, *rows[0]) if rows else None

    def events(self, gid: str, version: int, since: int | None = None) -> list:
        """The events of the writes after version `since` up to `version` (default: of that write alone), those
        kept (the last EVENTS_KEPT writes). Events that are not a list of objects are left out: they only fill
        a log."""
        rows = self._run("SELECT events FROM game_events WHERE id = %s AND version > %s AND version <= %s "
                         "ORDER BY version", (gid, version - 1 if since is None else since, version))
        out = []
        for (text,) in rows:
            try:
                events = json.loads(text) if isinstance(text, str) else None
            except (ValueError, RecursionError):
                continue
            if isinstance(events, list) and all(isinstance(e, dict) for e in events):
                out += events
        return out

    def list(self, offset: int = 0, limit: int = 50) -> tuple[list[dict], int]:
        total = self._run("SELECT COUNT(*) FROM games")[0][0]
        rows = self._run("SELECT id, edition, players, phase FROM games ORDER BY created, id LIMIT %s OFFSET %s",
                         (limit, offset))
        return [public_facts(*row) for row in rows], total

    # ------------------------------------------------------------ housekeeping (the server's STORAGE limits)
    def expire(self, before: float) -> list[str]:
        """Delete every game last written before `before`, and its kept events; return their ids."""
        rows = self._run("WITH gone AS (DELETE FROM games WHERE updated < %s RETURNING id), "
                         "events AS (DELETE FROM game_events WHERE id IN (SELECT id FROM gone)) "
                         "SELECT id FROM gone", (before,), write=True)
        if rows:
            with self._lock:
                self._size = None
        return [gid for (gid,) in rows]

    def size(self) -> int:
        """Bytes the games and their kept events take: each value as PostgreSQL stores it (compressed or
        not), counted again at most every SIZE_SECONDS and after an expiry. Not the tables' size on disk
        (pg_total_relation_size): PostgreSQL keeps the room of deleted rows for new ones and does not give it
        back, so a database that once reached the limit would stay full however many games expired."""
        with self._lock:
            if self._size is not None and time.monotonic() - self._size[0] < SIZE_SECONDS:
                return self._size[1]
        rows = self._run(
            "SELECT (SELECT COALESCE(SUM(pg_column_size(id) + pg_column_size(edition) + pg_column_size(state) "
            "+ COALESCE(pg_column_size(undo), 0) + pg_column_size(since) + pg_column_size(bots) "
            "+ pg_column_size(phase) + pg_column_size(tokens) + %s), 0) FROM games) "
            "+ (SELECT COALESCE(SUM(pg_column_size(id) + pg_column_size(events) + %s), 0) FROM game_events)",
            (GAME_ROW_BYTES, EVENTS_ROW_BYTES))
        with self._lock:
            self._size = (time.monotonic(), int(rows[0][0]))
        return self._size[1]

    # ------------------------------------------------------------ notices between servers
    def subscribe(self, callback) -> None:
        """Call `callback(game, version)` from a thread of this store for every game another server writes;
        `callback(None, None)` after the listening connection was made again."""
        with self._lock:
            self._callbacks.append(callback)
            if self._listener is None:
                self._listener = threading.Thread(target=self._listen, name="innoscript-listen", daemon=True)
                self._listener.start()

    def _listen(self) -> None:
        pause, first = 0.1, True
        while not self._closing.is_set():
            try:
                conn = self._connect()
            except psycopg.Error as err:
                print(f"innoscript: cannot listen for other servers' changes: {self._redact(err)}",
                      file=sys.stderr, flush=True)
                self._closing.wait(pause)
                pause = min(pause * 2, 5.0)
                continue
            try:
                conn.execute(f"LISTEN {CHANNEL}")
                self.listening.set()
                if not first:
                    self._tell(None, None)   # notices sent while no connection listened are lost
                first, pause = False, 0.1
                while not self._closing.is_set():
                    for notice in conn.notifies(timeout=0.5):
                        self._notice(notice.payload)
            except psycopg.Error as err:
                if not self._closing.is_set():
                    print(f"innoscript: lost the connection that listens for other servers' changes: "
                          f"{self._redact(err)}", file=sys.stderr, flush=True)
            finally:
                self.listening.clear()
                conn.close()

    def _notice(self, payload) -> None:
        m = NOTICE.match(payload) if isinstance(payload, str) else None
        if m is None or m.group(3) == self.origin:   # not a notice of this program's form, or this store's own
            return
        self._tell(m.group(1), int(m.group(2)))

    def _tell(self, gid, version) -> None:
        with self._lock:
            callbacks = list(self._callbacks)
        for callback in callbacks:
            try:
                callback(gid, version)
            except Exception as err:   # a server shutting down: the notice is not needed any more
                print(f"innoscript: a change from another server was not passed on ({type(err).__name__})",
                      file=sys.stderr, flush=True)

    def close(self) -> None:
        self._closing.set()
        if self._listener is not None:
            self._listener.join(timeout=5)
        with self._lock:
            idle, self._idle = self._idle, []
        for conn in idle:
            conn.close()
