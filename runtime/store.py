"""SQLite persistence of games for the server: every game, written at every decision.

WAL mode and SQLite's own locking let several server processes share one
database file; each write is one transaction, and a version number guards
against two servers overwriting each other's moves (optimistic concurrency:
an update that finds another version fails and the server reloads).
"""
from __future__ import annotations

import json
import os
import sqlite3
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


class Conflict(Exception):
    """Another server changed the game first."""


def default_path() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "innoscript" / "games.sqlite"


class Store:
    def __init__(self, path: str | Path | None = None):
        self.path = str(path or default_path())
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA busy_timeout=30000")
        # Switching to WAL can report "locked" at once while another process opens the same
        # new file; it is a one-time setting, so retry briefly.
        for attempt in range(50):
            try:
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute(SCHEMA)
                break
            except sqlite3.OperationalError:
                if attempt == 49:
                    raise
                time.sleep(0.1)
        self.db.execute("PRAGMA synchronous=NORMAL")

    def create(self, gid: str, edition: str, state: dict, bots: list) -> None:
        now = time.time()
        self.db.execute("INSERT INTO games (id, edition, version, state, bots, created, updated) VALUES (?,?,?,?,?,?,?)",
                        (gid, edition, state["decisions"], json.dumps(state), json.dumps(bots), now, now))

    def update(self, gid: str, old_version: int, state: dict, undo: str | None, since: list) -> None:
        cur = self.db.execute("UPDATE games SET version=?, state=?, undo=?, since=?, updated=? WHERE id=? AND version=?",
                              (state["decisions"], json.dumps(state), undo, json.dumps(since), time.time(), gid,
                               old_version))
        if cur.rowcount != 1:
            raise Conflict(gid)

    def version(self, gid: str) -> int | None:
        row = self.db.execute("SELECT version FROM games WHERE id=?", (gid,)).fetchone()
        return row[0] if row else None

    def load(self, gid: str):
        row = self.db.execute("SELECT edition, version, state, undo, since, bots FROM games WHERE id=?", (gid,)).fetchone()
        if row is None:
            return None
        edition, version, state, undo, since, bots = row
        return {"edition": edition, "version": version, "state": json.loads(state), "undo": undo,
                "since": json.loads(since), "bots": json.loads(bots)}

    def list(self) -> list[dict]:
        rows = self.db.execute("SELECT id, edition, state FROM games ORDER BY created").fetchall()
        out = []
        for gid, edition, state in rows:
            st = json.loads(state)
            out.append({"game": gid, "edition": edition, "players": len(st["players"]), "phase": st["phase"],
                        "over": st["phase"] == "over"})
        return out

    def close(self) -> None:
        self.db.close()
