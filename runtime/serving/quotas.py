"""How much one client may ask of a server: messages per second, games created, spectators per game, connections.

A server open to strangers meters each connection and each address (the
client's IP address) with token buckets: a bucket holds up to ``burst``
tokens, refills at ``rate`` tokens a second, and each message (or game
created) takes one; an empty bucket refuses with ``limit``, saying when to
try again.  The WebSocket server (runtime/serving/server.py) checks messages
before reading them, the hub (runtime/serving/protocol.py) the games created
or loaded and the spectators joined.  Over stdio, a single local frontend,
nothing is metered.  ``0`` switches a quota off; ``innoscript serve --quota
NAME=N`` sets one and ``--no-quotas`` switches them all off (benchmarks, tests
that play as fast as they can).
"""
from __future__ import annotations

import threading
import time

QUOTAS = {
    "messages_per_second": 20,            # from one connection (a burst of twice as many)
    "address_messages_per_second": 60,    # from all the connections of one address (a burst of twice as many)
    "games_per_minute": 6,                # created or loaded by one address (a burst of 12)
    "spectators_per_game": 200,           # connections watching one game without a seat
    "connections_per_address": 32,        # WebSocket connections open at once from one address
}


class QuotaError(ValueError):
    """A quota is spent; the message says which and when to try again."""


def parse(items: list[str] | None, off: bool = False) -> dict:
    """--quota NAME=N settings (and --no-quotas) over the defaults; ValueError naming a bad one."""
    out = dict.fromkeys(QUOTAS, 0) if off else dict(QUOTAS)
    for item in items or ():
        name, _, value = item.partition("=")
        if name not in QUOTAS:
            raise ValueError(f"no quota {name!r} (known: {', '.join(QUOTAS)})")
        if not value.isdigit() or len(value) > 9:
            raise ValueError(f"{name}: a whole number, 0 for no limit")
        out[name] = int(value)
    return out


class Bucket:
    """A token bucket: ``take()`` is True while tokens are left; they come back at ``rate`` a second."""

    __slots__ = ("rate", "burst", "tokens", "stamp")

    def __init__(self, rate: float, burst: float):
        self.rate, self.burst, self.tokens, self.stamp = rate, burst, burst, time.monotonic()

    def take(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def wait(self) -> float:
        """Seconds until the next token."""
        return max(0.0, (1 - self.tokens) / self.rate)


class Meter:
    """Buckets per key (a connection, an address), the idle ones forgotten; safe from several threads."""

    def __init__(self, rate: float, burst: float, keep: int = 100_000):
        self.rate, self.burst, self.keep = rate, burst, keep
        self.buckets: dict = {}
        self.lock = threading.Lock()

    def take(self, key) -> float:
        """0 when the key may go on; otherwise the seconds to wait (nothing taken)."""
        if self.rate <= 0:
            return 0.0
        with self.lock:
            b = self.buckets.get(key)
            if b is None:
                if len(self.buckets) >= self.keep:   # forget the fullest (idlest) buckets first
                    now = time.monotonic()
                    for k in [k for k, v in self.buckets.items() if v.tokens + (now - v.stamp) * v.rate >= v.burst]:
                        del self.buckets[k]
                b = self.buckets[key] = Bucket(self.rate, self.burst)
            return 0.0 if b.take() else b.wait()

    def forget(self, key) -> None:
        with self.lock:
            self.buckets.pop(key, None)


class Quotas:
    """The quotas of one server, with the meters that apply them."""

    def __init__(self, settings: dict | None = None):
        self.settings = dict(QUOTAS if settings is None else settings)
        q = self.settings
        self.messages = Meter(q["messages_per_second"], 2 * q["messages_per_second"])
        self.address_messages = Meter(q["address_messages_per_second"], 2 * q["address_messages_per_second"])
        self.games = Meter(q["games_per_minute"] / 60, 2 * q["games_per_minute"])
        self.connections: dict = {}
        self.lock = threading.Lock()

    def message(self, conn, address) -> str | None:
        """None if this connection may send one more message now; else why not."""
        wait = self.messages.take(conn)
        if wait:
            return (f"too many messages: at most {self.settings['messages_per_second']} a second from one "
                    f"connection; this one was not read (try again in {wait:.1f} s)")
        wait = self.address_messages.take(address)
        if wait:
            return (f"too many messages: at most {self.settings['address_messages_per_second']} a second from one "
                    f"address; this one was not read (try again in {wait:.1f} s)")
        return None

    def game(self, address) -> None:
        """One more game created or loaded by this address, or QuotaError."""
        wait = self.games.take(address)
        if wait:
            raise QuotaError(f"too many new games: at most {self.settings['games_per_minute']} a minute from one "
                             f"address (try again in {wait:.0f} s)")

    def connect(self, address) -> bool:
        """Whether one more connection from this address may open (count it if so)."""
        limit = self.settings["connections_per_address"]
        with self.lock:
            n = self.connections.get(address, 0)
            if limit and n >= limit:
                return False
            self.connections[address] = n + 1
            return True

    def disconnect(self, conn, address) -> None:
        self.messages.forget(conn)
        with self.lock:
            n = self.connections.get(address, 0) - 1
            if n > 0:
                self.connections[address] = n
            else:
                self.connections.pop(address, None)
