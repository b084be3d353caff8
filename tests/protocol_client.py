"""A protocol client for tests: answers decisions from what a player's view shows, and
validates every message against the protocol schema."""
import json
import random

import jsonschema

from innoscript.editions import schema

VALIDATOR = jsonschema.Draft202012Validator(schema("protocol.schema.json"))


def check(direction: str, msg: dict) -> dict:
    errors = sorted(VALIDATOR.iter_errors({direction: msg}), key=lambda e: e.path)
    assert not errors, f"{direction} message does not follow the schema: {errors[0].message}\n{json.dumps(msg)[:500]}"
    return msg


def card_handle(option):
    if isinstance(option, dict):
        if "id" in option:
            return option["id"]
        if "ref" in option:
            return option["ref"]
        if "special" in option:
            return option["special"]
    return option


def answer_for(decision: dict, rng: random.Random):
    kind, options = decision["kind"], decision["options"]
    if kind == "action":
        act = dict(rng.choice(options))
        if isinstance(act.get("card"), dict):
            act["card"] = act["card"]["id"]
        return act
    if kind in ("initial_meld",):
        return card_handle(rng.choice(options))
    if kind == "choose_option":
        return rng.choice(options)
    if kind == "yes_no":
        return rng.random() < 0.5
    if kind == "splay_color":
        return rng.choice(options + ([None] if decision.get("optional") else []))
    if kind == "order":
        order = [card_handle(o) for o in options]
        rng.shuffle(order)
        return order
    if kind == "choose" and decision.get("max", 1) == 1:
        return rng.choice(options)
    if decision.get("one_per_color"):
        first = {}
        for o in rng.sample(options, len(options)):
            first.setdefault(o.get("color"), card_handle(o))
        return list(first.values())
    k = rng.choice(decision["sizes"]) if "sizes" in decision else rng.randint(decision["min"], decision["max"])
    return [card_handle(o) for o in rng.sample(options, k)]
