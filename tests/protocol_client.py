"""A protocol client for tests: answers decisions from what a player's view shows, and
validates every message against the protocol schema."""
import json
import random

import jsonschema

from innoscript.core.editions import schema
from innoscript.runtime.bots import RandomBot
from innoscript.runtime.serving.server import free_port, wait_for_port  # noqa: F401 (the tests import them from here)

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

