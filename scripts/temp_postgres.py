#!/usr/bin/env python3
"""A PostgreSQL server of its own, for the tests and the server benchmark: a new cluster in a temporary
folder, on a free port of 127.0.0.1 and a private socket folder, stopped and removed afterwards.

    python scripts/temp_postgres.py        # start one, print its URL, stop it on Ctrl-C

It runs the server programs of Debian's ``postgresql`` package (initdb and pg_ctl, found under
/usr/lib/postgresql/VERSION/bin or on PATH; scripts/ensure-postgresql installs them). PostgreSQL
refuses to run as root, so as root the cluster belongs to the ``postgres`` user that the package
makes, and the programs run through ``runuser``. The superuser ``innoscript`` has a random password
and connects over TCP (scram-sha-256); the socket folder is the server user's alone.

``durable=False`` (the tests) turns fsync off: the tests kill servers of games, never PostgreSQL.
``settings`` are more ``name=value`` settings of the server (the benchmark's ``synchronous_commit=off``).
``TempPostgres(existing=URL)`` starts nothing and makes its databases in that server instead (its
user may create databases), dropping them again at ``stop``.
"""
from __future__ import annotations

import os
import pwd
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit


class Unavailable(Exception):
    """Why a PostgreSQL server cannot be started here (one line)."""


def server_programs() -> Path | None:
    """The folder of initdb and pg_ctl: the newest of Debian's versions, else the one on PATH."""
    def version(p: Path):
        return [int(x) if x.isdigit() else 0 for x in re.split(r"\D+", p.parent.parent.name) if x]
    found = sorted((p for p in Path("/usr/lib/postgresql").glob("*/bin/initdb") if p.is_file()), key=version)
    if found:
        return found[-1].parent
    initdb = shutil.which("initdb")
    return Path(initdb).resolve().parent if initdb and shutil.which("pg_ctl") else None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class TempPostgres:
    def __init__(self, durable: bool = True, existing: str | None = None, settings=()):
        self.durable = durable
        self.settings = list(settings)
        self.existing = existing
        self.made: list[str] = []        # the databases made in an existing server
        self.folder: Path | None = None
        self.url: str | None = None
        self._run_as: list[str] = []
        self._bin: Path | None = None
        self._n = 0

    def _cmd(self, *args, timeout: float = 120) -> subprocess.CompletedProcess:
        return subprocess.run([*self._run_as, *map(str, args)], capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)

    def start(self) -> str:
        """Start the server; its URL (to the `postgres` database). Unavailable if it cannot be."""
        if self.existing:
            self.url = self.existing
            return self.url
        self._bin = server_programs()
        if self._bin is None:
            raise Unavailable("PostgreSQL's server programs (initdb, pg_ctl) are not installed "
                              "(scripts/ensure-postgresql installs Debian's 'postgresql')")
        owner = None
        if os.geteuid() == 0:
            try:
                owner = pwd.getpwnam("postgres")
            except KeyError:
                raise Unavailable("running as root, and there is no 'postgres' user to run PostgreSQL as") from None
            if not shutil.which("runuser"):
                raise Unavailable("running as root, and there is no runuser to run PostgreSQL as 'postgres'")
            self._run_as = ["runuser", "-u", "postgres", "--"]
        parent = tempfile.gettempdir()
        if owner is not None and not os.stat(parent).st_mode & 0o001:   # the server's user must pass through it
            parent = "/tmp"
        self.folder = Path(tempfile.mkdtemp(prefix="innoscript-pg-", dir=parent))
        try:
            password = secrets.token_hex(16)
            pwfile = self.folder / "pw"
            pwfile.write_text(password + "\n")
            if owner is not None:
                for path in (self.folder, pwfile):
                    os.chown(path, owner.pw_uid, owner.pw_gid)
            r = self._cmd(self._bin / "initdb", "-D", self.folder / "data", "-U", "innoscript", "--pwfile", pwfile,
                          "--auth-local=scram-sha-256", "--auth-host=scram-sha-256", "-E", "UTF8",
                          "--locale=C", "--no-sync")
            pwfile.unlink()
            if r.returncode != 0:
                raise Unavailable(f"initdb failed: {_last_line(r)}")
            for _attempt in range(3):   # a free port may be taken before the server binds it
                port = _free_port()
                settings = [f"-p {port}", f"-k {self.folder}", "-c listen_addresses=127.0.0.1",
                            "-c max_connections=100", "-c shared_buffers=64MB"]
                if not self.durable:
                    settings += ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"]
                settings += [f"-c {setting}" for setting in self.settings]
                r = self._cmd(self._bin / "pg_ctl", "-D", self.folder / "data", "-l", self.folder / "log", "-w",
                              "-t", "60", "-o", " ".join(settings), "start")
                if r.returncode == 0:
                    break
            else:
                raise Unavailable(f"pg_ctl could not start the server: {_last_line(r)} ({self._log_tail()})")
            self.url = f"postgresql://innoscript:{password}@127.0.0.1:{port}/postgres"
            return self.url
        except BaseException:
            self.stop()
            raise

    def _log_tail(self) -> str:
        try:
            return " / ".join((self.folder / "log").read_text().strip().splitlines()[-2:])
        except OSError:
            return "no log"

    def new_database(self, name: str | None = None) -> str:
        """A new, empty database in this server; its URL."""
        import psycopg
        self._n += 1
        name = name or f"innoscript_test_{os.getpid()}_{self._n}_{secrets.token_hex(3)}"
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        if self.existing:
            self.made.append(name)
        return urlunsplit(urlsplit(self.url)._replace(path="/" + name))

    def stop(self) -> None:
        if self.existing and self.made:
            import psycopg
            with psycopg.connect(self.url, autocommit=True) as conn:
                for name in self.made:
                    conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            self.made = []
        if self.folder is None:
            return
        if (self.folder / "data" / "postmaster.pid").exists() and self._bin is not None:
            self._cmd(self._bin / "pg_ctl", "-D", self.folder / "data", "-m", "immediate", "-w", "stop", timeout=60)
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder = None

    def __enter__(self) -> "TempPostgres":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def _last_line(r: subprocess.CompletedProcess) -> str:
    lines = (r.stderr or r.stdout or "").strip().splitlines()
    return lines[-1] if lines else f"exit status {r.returncode}"


def main() -> int:
    try:
        with TempPostgres() as pg:
            print(pg.url, flush=True)
            print("(Ctrl-C stops it and removes its folder)", file=sys.stderr, flush=True)
            try:
                signal.pause()
            except KeyboardInterrupt:
                pass
    except Unavailable as err:
        print(f"temp_postgres: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
