"""SQLite persistence of games for the server: every game, written at every decision.

WAL mode and SQLite's own locking let several server processes share one
database file.  Every write of a game takes the next value of its own
``version`` counter (not the game's decision counter, which an undo sets back
and a game-ending answer does not move): an update names the version it was
computed from and succeeds only if the row still has it (compare-and-set in
one transaction), so of two servers racing on one game exactly one write
wins and the other gets ``Conflict`` and reloads.  An undo is such a write
too.  A finished game is never written again.

The seats' and owner's tokens are kept as SHA-256 digests beside the game,
never in its state (which ``save`` exports).

``GameStore`` is what the protocol's Hub asks of a store; this module's
``Store`` keeps games in SQLite (the embedded default) and
runtime/serving/pgstore.py in PostgreSQL, for several servers on several
machines (runtime/serving/server.py's ``open_store`` chooses from ``--db``).
What comes back from a database is checked like any input: a row that is not
what a store writes is a ``StorageError`` naming the game, never a traceback.
"""
from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id       TEXT PRIMARY KEY,
    edition  TEXT NOT NULL,
    version  INTEGER NOT NULL,
    state    TEXT NOT NULL,
    undo     TEXT,
    since    TEXT NOT NULL DEFAULT '[]',
    bots     TEXT NOT NULL DEFAULT '[]',
    created  REAL NOT NULL,
    updated  REAL NOT NULL
)
"""
# columns added after the first release; an older database gains them when opened
ADDED = {"players": "INTEGER NOT NULL DEFAULT 0", "phase": "TEXT NOT NULL DEFAULT ''",
         "tokens": "TEXT NOT NULL DEFAULT '{}'"}


class Conflict(Exception):
    """Another server changed the game first, or the game is over."""


class StorageError(Exception):
    """The database failed, or gave back something a store never writes; the message is one line for a
    person (no password, no traceback)."""


def decode_row(gid: str, edition, version, state, undo, since, bots, tokens) -> dict:
    """A stored game as the Hub takes it, each column checked: StorageError names what is damaged."""
    def damaged(what: str):
        return StorageError(f"the stored game {gid[:40]!r} is damaged ({what})")

    def parsed(name: str, text, kind):
        if not isinstance(text, str):
            raise damaged(f"{name} is not text")
        try:
            value = json.loads(text)
        except (ValueError, RecursionError):
            raise damaged(f"{name} is not JSON") from None
        if not isinstance(value, kind):
            raise damaged(f"{name} is not a JSON {'object' if kind is dict else 'array'}")
        return value

    if not isinstance(edition, str):
        raise damaged("edition is not text")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise damaged("version is not a positive whole number")
    if undo is not None and not isinstance(undo, str):
        raise damaged("undo is not text")
    return {"edition": edition, "version": version, "state": parsed("state", state, dict), "undo": undo,
            "since": parsed("since", since, list), "bots": parsed("bots", bots, list),
            "tokens": parsed("tokens", tokens, dict)}


def public_facts(gid, edition, players, phase) -> dict:
    """A row of ``list``, checked."""
    if not (isinstance(gid, str) and isinstance(edition, str) and isinstance(phase, str)
            and isinstance(players, int) and not isinstance(players, bool)):
        shown = repr(gid)[:40] if isinstance(gid, str) else "without a text id"
        raise StorageError(f"the stored game {shown} is damaged (its public facts are not what a store writes)")
    return {"game": gid, "edition": edition, "players": players, "phase": phase, "over": phase == "over"}


class GameStore:
    """What the Hub asks of a store (SQLite here, PostgreSQL in pgstore.py): the same contract for both.

    - ``create`` stores a new game at version 1; ``update`` writes the game computed from ``old_version``
      and returns the next version, or raises ``Conflict`` if the stored game has another version or is
      over (compare-and-set: of two writers of one version exactly one wins);
    - ``version`` (None: no such game), ``load`` (None: no such game; else a dict of edition, version,
      state, undo, since, bots, tokens) and ``list`` (a page of public facts, oldest first, and the total);
    - a failing database is ``StorageError`` (or sqlite3.Error from SQLite), and nothing was written;
    - ``subscribe(callback)``: a store shared by several servers calls ``callback(game, version)`` (from
      a thread of its own) when another server stored a new version of a game, and ``callback(None,
      None)`` when notices may have been missed; ``events(game, version, since)`` gives the events of the
      writes after version `since` up to `version` (default: the write that made `version`), what the other
      server's seats got, or [] when they are not kept. A store that tells nothing (SQLite) never calls
      back: its servers see each other's writes when asked;
    - housekeeping (the Hub's ``STORAGE`` limits): ``expire(before)`` deletes every game last written before
      `before` (a time.time() value) and returns their ids; ``size()`` is the bytes the games take, not
      counting the room that deleted games left for new ones (so expiring games makes room).
    """

    path: str = ""   # where the games are, as shown to a person (a file; a URL without its password)

    def create(self, gid: str, edition: str, state: dict, bots: list, tokens: dict,
               undo: str | None = None, since: list | None = None) -> int:
        raise NotImplementedError

    def update(self, gid: str, old_version: int, state: dict, undo: str | None, since: list,
               events: list | None = None) -> int:
        raise NotImplementedError

    def version(self, gid: str) -> int | None:
        raise NotImplementedError

    def load(self, gid: str) -> dict | None:
        raise NotImplementedError

    def list(self, offset: int = 0, limit: int = 50) -> tuple[list[dict], int]:
        raise NotImplementedError

    def expire(self, before: float) -> list[str]:
        raise NotImplementedError

    def size(self) -> int:
        raise NotImplementedError

    def subscribe(self, callback) -> None:
        """Changes stored by other servers are not told (see the class's docstring)."""

    def events(self, gid: str, version: int, since: int | None = None) -> list:
        return []

    def close(self) -> None:
        pass


def default_path() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "innoscript" / "games.sqlite"


class Store(GameStore):
    """Games in one SQLite file (WAL mode), which several server processes of one machine may share."""

    def __init__(self, path: str | Path | None = None):
        self.path = str(path or default_path())
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self.lock = threading.RLock()   # one connection, used from the server's worker threads
        self.db = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA busy_timeout=30000")
        # Switching to WAL can report "locked" at once while another process opens the same
        # new file; it is a one-time setting, so retry briefly.
        for attempt in range(50):
            try:
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute(SCHEMA)
                have = {r[1] for r in self.db.execute("PRAGMA table_info(games)")}
                for column, decl in ADDED.items():
                    if column not in have:
                        self.db.execute(f"ALTER TABLE games ADD COLUMN {column} {decl}")
                        if column == "phase":   # the public facts of games stored before
                            self.db.execute("UPDATE games SET players=json_array_length(state, '$.players'), "
                                            "phase=json_extract(state, '$.phase')")
                break
            except sqlite3.OperationalError:
                if attempt == 49:
                    raise
                time.sleep(0.1)
        self.db.execute("PRAGMA synchronous=NORMAL")

    def create(self, gid: str, edition: str, state: dict, bots: list, tokens: dict,
               undo: str | None = None, since: list | None = None) -> int:
        """Store a new game at version 1."""
        now = time.time()
        with self.lock:
            self.db.execute("INSERT INTO games (id, edition, version, state, undo, since, bots, created, updated, "
                            "players, phase, tokens) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                            (gid, edition, 1, json.dumps(state), undo, json.dumps(since or []), json.dumps(bots),
                             now, now, len(state["players"]), state["phase"], json.dumps(tokens)))
        return 1

    def update(self, gid: str, old_version: int, state: dict, undo: str | None, since: list,
               events: list | None = None) -> int:
        """Write the game computed from `old_version`; return the new version. Conflict if the row
        moved on meanwhile or the stored game is over. (The events are not kept: nothing is told.)"""
        with self.lock:
            cur = self.db.execute(
                "UPDATE games SET version=version+1, state=?, undo=?, since=?, phase=?, updated=? "
                "WHERE id=? AND version=? AND phase != 'over'",
                (json.dumps(state), undo, json.dumps(since), state["phase"], time.time(), gid, old_version))
        if cur.rowcount != 1:
            raise Conflict(gid)
        return old_version + 1

    def version(self, gid: str) -> int | None:
        with self.lock:
            row = self.db.execute("SELECT version FROM games WHERE id=?", (gid,)).fetchone()
        if row is None:
            return None
        if not isinstance(row[0], int) or isinstance(row[0], bool):
            raise StorageError(f"the stored game {gid[:40]!r} is damaged (version is not a whole number)")
        return row[0]

    def load(self, gid: str):
        with self.lock:
            row = self.db.execute("SELECT edition, version, state, undo, since, bots, tokens FROM games WHERE id=?",
                                  (gid,)).fetchone()
        return None if row is None else decode_row(gid, *row)

    def list(self, offset: int = 0, limit: int = 50) -> tuple[list[dict], int]:
        """One page of the games' public facts, oldest first, and how many games there are."""
        with self.lock:
            total = self.db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
            rows = self.db.execute("SELECT id, edition, players, phase FROM games ORDER BY created, id "
                                   "LIMIT ? OFFSET ?", (limit, offset)).fetchall()
        return [public_facts(*row) for row in rows], total

    # ------------------------------------------------------------ housekeeping (the server's STORAGE limits)
    def expire(self, before: float) -> list[str]:
        """Delete every game last written before `before` (a time.time() value): abandoned ones, and finished
        ones nobody looked back at; return their ids."""
        with self.lock:
            return [r[0] for r in self.db.execute("DELETE FROM games WHERE updated < ? RETURNING id", (before,))]

    def size(self) -> int:
        """Bytes the games take in the database (its pages in use; pages freed by deleted games are reused)."""
        with self.lock:
            pages = self.db.execute("PRAGMA page_count").fetchone()[0]
            free = self.db.execute("PRAGMA freelist_count").fetchone()[0]
            page = self.db.execute("PRAGMA page_size").fetchone()[0]
        return (pages - free) * page

    def close(self) -> None:
        self.db.close()
