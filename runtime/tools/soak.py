"""Soak: many seeded random games in checked mode.

After every answer the invariants are checked (runtime/rules/invariants.py); once
per game, at a decision chosen by the seed, the game is saved, loaded into a
new engine and both copies are played on with the same answers: their states
must stay identical to the end.  Reports games, actions, decisions,
violations and errors (the last two must be 0).
"""
from __future__ import annotations

import json
import random

from ..api.game import Game
from ..bots import RandomBot, answer_for
from ..rules.invariants import violations
from .simulate import game_bundle, map_games


def soak_one(edition: str, players: int, seed: int, max_decisions: int = 50_000, options: dict | None = None,
             sets: tuple[str, ...] = ()) -> dict:
    rec = {"seed": seed, "actions": 0, "decisions": 0, "violations": [], "error": None}
    try:
        bundle = game_bundle(edition, sets)
        game = Game.new(edition, players, seed, bundle=bundle, fast=True, options=options)
        bots = [RandomBot(seed * 31 + p) for p in range(players)]
        split_at = random.Random(seed).randint(5, 200)
        twin = twin_bots = None
        while not game.over:
            if rec["decisions"] == split_at and twin is None:
                twin = Game.load(game.save(), bundle=bundle)
                twin._engine.transactional = False
                twin_bots = [RandomBot() for _ in range(players)]
                for b, t in zip(bots, twin_bots):
                    t.rng.setstate(b.rng.getstate())
            p = game.decision["player"]
            events = game.apply(answer_for(game, bots[p], p))
            if twin is not None:
                twin.apply(answer_for(twin, twin_bots[p], p))
            rec["decisions"] += 1
            rec["actions"] += sum(1 for e in events if e["type"] == "action")
            problems = violations(game._engine)
            if problems:
                rec["violations"] += [f"decision {rec['decisions']}: {v}" for v in problems]
                break
            if rec["decisions"] > max_decisions:
                rec["violations"].append(f"no end within {max_decisions} decisions")
                break
        if twin is not None and not rec["violations"]:
            if json.dumps(twin.state, sort_keys=True) != json.dumps(game.state, sort_keys=True):
                rec["violations"].append(f"the game resumed at decision {split_at} went a different way")
    except Exception as err:
        rec["error"] = f"{type(err).__name__}: {err}"
    return rec


def _work(args):
    return soak_one(*args)


def soak(edition: str, players: int, games: int, seed: int = 0, jobs: int | None = None, progress=None,
         options: dict | None = None, sets: tuple[str, ...] = ()) -> dict:
    """options: the table options every game is created with (runtime/rules/options.py); sets: the sets in play."""
    tasks = [(edition, players, seed + i, 50_000, options, tuple(sets)) for i in range(games)]
    records = map_games(_work, tasks, jobs, progress)
    bad = [r for r in records if r["violations"]]
    errors = [r for r in records if r["error"]]
    return {"edition": edition, "players": players, "options": options or {}, "sets": sorted(sets or ()),
            "games": len(records),
            "actions": sum(r["actions"] for r in records), "decisions": sum(r["decisions"] for r in records),
            "violations": sum(len(r["violations"]) for r in records), "errors": len(errors),
            "samples": [f"seed {r['seed']}: {r['violations'][0]}" for r in bad[:5]] +
                       [f"seed {r['seed']}: {r['error']}" for r in errors[:5]]}
