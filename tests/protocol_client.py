"""A protocol client for tests: answers decisions from what a player's view shows, and
validates every message against the protocol schema."""
import json
import random
import socket
import time

import jsonschema

from innoscript.editions import schema
from innoscript.runtime.bots import RandomBot

VALIDATOR = jsonschema.Draft202012Validator(schema("protocol.schema.json"))


def check(direction: str, msg: dict) -> dict:
    errors = sorted(VALIDATOR.iter_errors({direction: msg}), key=lambda e: e.path)
    assert not errors, f"{direction} message does not follow the schema: {errors[0].message}\n{json.dumps(msg)[:500]}"
    return msg


def answer_for(decision: dict, rng: random.Random):
    """A random legal answer, chosen from the decision as the player's view shows it."""
    bot = RandomBot()
    bot.rng = rng
    return bot.answer(decision)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_port(port: int, seconds: float = 30) -> None:
    """Wait until a server started as a child process accepts connections on the port (or the time is up)."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
