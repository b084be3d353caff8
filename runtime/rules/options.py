"""Game options: the table settings a game is created with, beside its edition.

One schema (innoscript/core/schemas/options.schema.json) and one normaliser serve
every entry point -- ``Game.new``, the protocol's ``create``, ``innoscript
play``/``simulate``/``soak``, scenario files and saved games -- so an option
means the same everywhere.  ``normalise`` fills in the defaults and checks
what the schema cannot: teams need exactly four players.
"""
from __future__ import annotations

import json
from pathlib import Path

import jsonschema

from innoscript.core.editions import schema

DEFAULTS = {name: spec["default"] for name, spec in schema("options.schema.json")["properties"].items()}


class OptionsError(ValueError):
    """Options that do not fit the schema or the game; the message names the option."""


def normalise(options: dict | None, players: int | None = None) -> dict:
    """The options with every default filled in; raise OptionsError naming the bad option."""
    options = {} if options is None else options
    err = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(schema("options.schema.json")).iter_errors(options))
    if err is not None:
        where = "/".join(map(str, err.absolute_path)) or "(top)"
        raise OptionsError(f"options: {where}: {err.message}")
    out = {**DEFAULTS, **options}
    if out["teams"] != "none" and players is not None and players != 4:
        raise OptionsError(f"options: teams: team play is for exactly 4 players, not {players}")
    return out


def parse(text: str | None) -> dict:
    """Options from the command line: a JSON object, or the name of a file holding one."""
    if not text:
        return {}
    path = Path(text)
    if not text.lstrip().startswith("{") and path.is_file():
        text = path.read_text(encoding="utf-8")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise OptionsError(f"options: not a JSON object: {err.msg} at column {err.colno}") from None
    if not isinstance(data, dict):
        raise OptionsError("options: give a JSON object, e.g. {\"teams\": \"1+3\"}")
    return data
