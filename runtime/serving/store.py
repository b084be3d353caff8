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


def default_path() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "innoscript" / "games.sqlite"


class Store:
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

    def update(self, gid: str, old_version: int, state: dict, undo: str | None, since: list) -> int:
        """Write the game computed from `old_version`; return the new version. Conflict if the row
        moved on meanwhile or the stored game is over."""
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
        return row[0] if row else None

    def load(self, gid: str):
        with self.lock:
            row = self.db.execute("SELECT edition, version, state, undo, since, bots, tokens FROM games WHERE id=?",
                                  (gid,)).fetchone()
        if row is None:
            return None
        edition, version, state, undo, since, bots, tokens = row
        return {"edition": edition, "version": version, "state": json.loads(state), "undo": undo,
                "since": json.loads(since), "bots": json.loads(bots), "tokens": json.loads(tokens)}

    def list(self, offset: int = 0, limit: int = 50) -> tuple[list[dict], int]:
        """One page of the games' public facts, oldest first, and how many games there are."""
        with self.lock:
            total = self.db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
            rows = self.db.execute("SELECT id, edition, players, phase FROM games ORDER BY created, id "
                                   "LIMIT ? OFFSET ?", (limit, offset)).fetchall()
        return [{"game": gid, "edition": edition, "players": players, "phase": phase, "over": phase == "over"}
                for gid, edition, players, phase in rows], total

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
