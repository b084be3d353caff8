"""Seeded simulation of many games.

Game i of a run with seed S is played with game seed S+i and bot seeds
derived from it, so a run's results do not depend on how many worker
processes share the work.  Each game yields one JSON-able record.
"""
from __future__ import annotations

import multiprocessing as mp
import os
from collections import Counter
from dataclasses import dataclass

from innoscript.compiler.bundle import load_bundle
from .bots import RandomBot
from .game import Game

_BUNDLE: dict | None = None


def _bundle(edition: str) -> dict:
    global _BUNDLE
    if _BUNDLE is None or _BUNDLE["edition"] != edition:
        _BUNDLE = load_bundle(edition)
    return _BUNDLE


def play_one(edition: str, players: int, seed: int, max_decisions: int = 50_000) -> dict:
    """Play one random game; never raises: an error is part of the record."""
    bundle = _bundle(edition)
    record = {"seed": seed, "players": players, "winners": None, "reason": None, "turns": 0, "actions": 0,
              "decisions": 0, "dogmas": {}, "error": None}
    try:
        game = Game.new(edition, players, seed, bundle=bundle, fast=True)
        bot = RandomBot(seed * 7919 + players)
        dogmas: Counter = Counter()
        while not game.over:
            events = game.apply(bot.answer(game.decision, game.cards))
            record["decisions"] += 1
            for ev in events:
                if ev["type"] == "action":
                    record["actions"] += 1
                elif ev["type"] == "dogma":
                    dogmas[game.cards.name[ev["card"]]] += 1
            if record["decisions"] > max_decisions:
                raise RuntimeError(f"no end after {max_decisions} decisions")
        record.update(winners=game.result["winners"], reason=game.result["reason"],
                      turns=game.state["turn"]["number"], dogmas=dict(dogmas))
    except Exception as err:  # a failure is data here: the run reports it
        record["error"] = f"{type(err).__name__}: {err}"
    return record


def _work(args):
    return play_one(*args)


@dataclass
class Summary:
    games: int
    errors: int
    by_reason: dict
    wins_by_seat: list
    mean_turns: float
    mean_actions: float
    dogmas: dict
    error_samples: list

    def to_json(self) -> dict:
        return self.__dict__


def summarise(records: list[dict], players: int, card_names: list[str]) -> Summary:
    errors = [r for r in records if r["error"]]
    ok = [r for r in records if not r["error"]]
    seats = [0] * players
    for r in ok:
        for w in r["winners"]:
            seats[w] += 1
    dogmas: Counter = Counter({n: 0 for n in card_names})
    for r in ok:
        dogmas.update(r["dogmas"])
    return Summary(
        games=len(records), errors=len(errors),
        by_reason=dict(Counter(r["reason"] for r in ok)),
        wins_by_seat=seats,
        mean_turns=round(sum(r["turns"] for r in ok) / max(len(ok), 1), 1),
        mean_actions=round(sum(r["actions"] for r in ok) / max(len(ok), 1), 1),
        dogmas=dict(sorted(dogmas.items())),
        error_samples=[f"seed {r['seed']}: {r['error']}" for r in errors[:5]],
    )


def run(edition: str, players: int, games: int, seed: int, jobs: int | None = None, progress=None) -> list[dict]:
    tasks = [(edition, players, seed + i) for i in range(games)]
    jobs = jobs or os.cpu_count() or 1
    records: list[dict] = []
    if jobs == 1:
        for t in tasks:
            records.append(_work(t))
            if progress:
                progress()
    else:
        with mp.get_context("spawn").Pool(jobs) as pool:
            for rec in pool.imap(_work, tasks, chunksize=max(1, min(50, games // (jobs * 4) or 1))):
                records.append(rec)
                if progress:
                    progress()
    return records
