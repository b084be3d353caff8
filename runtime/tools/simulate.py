"""Seeded simulation of many games, locally or on a Ray cluster.

Game i of a run with seed S is played with game seed S+i and bot seeds
derived from it, so a run's results do not depend on how many worker
processes share the work, nor on the backend.  Each game yields one
JSON-able record; ``summarise`` turns records into the run's figures.
"""
from __future__ import annotations

import multiprocessing as mp
import os
from collections import Counter, defaultdict
from dataclasses import dataclass

from innoscript.compiler.bundle import load_bundle
from ..api.game import Game
from ..bots import BOTS, play_bots

_BUNDLES: dict = {}


def game_bundle(edition: str, sets=()) -> dict:
    """The bundle of an edition with these sets, loaded once per process."""
    key = (edition, tuple(sorted(sets or ())))
    if key not in _BUNDLES:
        _BUNDLES[key] = load_bundle(edition, sets=key[1]) if key[1] else load_bundle(edition)
    return _BUNDLES[key]


def play_one(edition: str, players: int, seed: int, bots: tuple[str, ...] = (), max_decisions: int = 50_000,
             options: dict | None = None, sets: tuple[str, ...] = ()) -> dict:
    """Play one game with bots at every seat; never raises: an error is part of the record."""
    bundle = game_bundle(edition, sets)
    kinds = list(bots) + ["random"] * (players - len(bots))
    record = {"seed": seed, "players": players, "bots": kinds, "winners": None, "reason": None, "turns": 0,
              "actions": 0, "decisions": 0, "dogmas": {}, "users": {}, "error": None}
    try:
        game = Game.new(edition, players, seed, bundle=bundle, fast=True, options=options)
        seats = [BOTS[k](seed * 7919 + p * 104729 + players) for p, k in enumerate(kinds)]
        dogmas: Counter = Counter()
        users: dict = defaultdict(set)
        events_seen = 0

        def count(events):
            nonlocal events_seen
            for ev in events:
                if ev["type"] == "action":
                    record["actions"] += 1
                elif ev["type"] == "dogma":
                    name = game.cards.name[ev["card"]]
                    dogmas[name] += 1
                    users[name].add(ev["player"])
        orig_apply = game.apply

        def apply(answer, player=None):
            events = orig_apply(answer, player)
            count(events)
            return events
        game.apply = apply
        record["decisions"] = play_bots(game, seats, max_decisions)
        record.update(winners=game.result["winners"], reason=game.result["reason"],
                      turns=game.state["turn"]["number"], dogmas=dict(dogmas),
                      users={k: sorted(v) for k, v in users.items()})
    except Exception as err:  # a failure is data here: the run reports it
        record["error"] = f"{type(err).__name__}: {err}"
    return record


def _work(args):
    return play_one(*args)


def _batch(args_list):
    return [play_one(*a) for a in args_list]


@dataclass
class Summary:
    games: int
    errors: int
    by_reason: dict
    wins_by_seat: list
    win_rate_by_bot: dict
    mean_turns: float
    mean_actions: float
    turns_histogram: dict
    dogmas: dict
    cards: dict
    error_samples: list

    def to_json(self) -> dict:
        return dict(self.__dict__)


def summarise(records: list[dict], players: int, card_names: list[str]) -> Summary:
    errors = [r for r in records if r["error"]]
    ok = [r for r in records if not r["error"]]
    seats = [0] * players
    bot_games: Counter = Counter()
    bot_wins: Counter = Counter()
    for r in ok:
        for p, kind in enumerate(r["bots"]):
            bot_games[kind] += 1
            if p in r["winners"]:
                bot_wins[kind] += 1
        for w in r["winners"]:
            seats[w] += 1
    dogmas: Counter = Counter({n: 0 for n in card_names})
    used_by: Counter = Counter()
    won_by_user: Counter = Counter()
    for r in ok:
        dogmas.update(r["dogmas"])
        for name, ps in r.get("users", {}).items():
            for p in ps:
                used_by[name] += 1
                won_by_user[name] += p in r["winners"]
    cards = {n: {"dogmas": dogmas[n], "users": used_by[n],
                 "user_win_rate": round(won_by_user[n] / used_by[n], 3) if used_by[n] else None}
             for n in sorted(card_names)}
    hist: Counter = Counter((r["turns"] // 10) * 10 for r in ok)
    return Summary(
        games=len(records), errors=len(errors),
        by_reason=dict(sorted(Counter(r["reason"] for r in ok).items())),
        wins_by_seat=seats,
        win_rate_by_bot={k: round(bot_wins[k] / bot_games[k], 3) for k in sorted(bot_games)},
        mean_turns=round(sum(r["turns"] for r in ok) / max(len(ok), 1), 1),
        mean_actions=round(sum(r["actions"] for r in ok) / max(len(ok), 1), 1),
        turns_histogram={str(k): hist[k] for k in sorted(hist)},
        dogmas=dict(sorted(dogmas.items())),
        cards=cards,
        error_samples=[f"seed {r['seed']}: {r['error']}" for r in errors[:5]],
    )


def map_games(work, tasks: list, jobs: int | None = None, progress=None) -> list:
    """Run work(task) for every task, in order, on `jobs` worker processes (all cores by default)."""
    jobs = jobs or os.cpu_count() or 1
    out: list = []
    if jobs == 1:
        results = map(work, tasks)
        pool = None
    else:
        pool = mp.get_context("spawn").Pool(jobs)
        results = pool.imap(work, tasks, chunksize=max(1, min(50, len(tasks) // (jobs * 4) or 1)))
    try:
        for r in results:
            out.append(r)
            if progress:
                progress()
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    return out


def run(edition: str, players: int, games: int, seed: int, jobs: int | None = None, progress=None,
        bots: tuple[str, ...] = (), backend: str = "local", address: str | None = None,
        options: dict | None = None, sets: tuple[str, ...] = ()) -> list[dict]:
    """sets: the sets (expansions) in play in every game."""
    tasks = [(edition, players, seed + i, tuple(bots), 50_000, options, tuple(sets)) for i in range(games)]
    if backend == "ray":
        return _run_ray(tasks, jobs, progress, address)
    return map_games(_work, tasks, jobs, progress)


def _run_ray(tasks, jobs, progress, address) -> list[dict]:
    """The same batches on Ray: a cluster at `address`, or a local instance."""
    try:
        import ray
    except ImportError:
        raise RuntimeError("the Ray backend needs the optional extra: pip install 'innoscript[ray]'") from None
    started = not ray.is_initialized()
    if started:
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=jobs or os.cpu_count(), include_dashboard=False, log_to_driver=False)
    try:
        remote = ray.remote(_batch)
        size = max(1, len(tasks) // ((jobs or os.cpu_count() or 1) * 4))
        batches = [tasks[i:i + size] for i in range(0, len(tasks), size)]
        refs = [remote.remote(b) for b in batches]
        out: list[dict] = []
        for ref in refs:                 # in submission order, so records come back in game order
            batch = ray.get(ref)
            out.extend(batch)
            if progress:
                for _ in batch:
                    progress()
        return out
    finally:
        if started:
            ray.shutdown()


def plots(summary: Summary, folder: str, title: str) -> list[str]:
    """PNG charts of a run's summary (matplotlib, no display needed)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    os.makedirs(folder, exist_ok=True)
    made = []

    def save(fig, name):
        path = os.path.join(folder, name)
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        plt.close(fig)
        made.append(path)

    fig, axes = plt.subplots(1, 3, figsize=(13, 3.8))
    axes[0].bar([f"seat {i + 1}" for i in range(len(summary.wins_by_seat))], summary.wins_by_seat, color="#4a7ab8")
    axes[0].set_title("wins by seat")
    axes[1].bar(list(summary.by_reason), list(summary.by_reason.values()), color="#b8864a")
    axes[1].set_title("how games ended")
    axes[2].bar(list(summary.turns_histogram), list(summary.turns_histogram.values()), color="#5a9e5a")
    axes[2].set_title("game length (turns, by tens)")
    fig.suptitle(title)
    save(fig, "summary.png")

    used = sorted(summary.cards.items(), key=lambda kv: kv[1]["dogmas"], reverse=True)
    fig, ax = plt.subplots(figsize=(12, 4))
    top = used[:30]
    ax.bar([n for n, _ in top], [c["dogmas"] for _, c in top], color="#4a7ab8")
    ax.set_title("most used dogmas")
    ax.tick_params(axis="x", rotation=75, labelsize=7)
    save(fig, "dogmas.png")

    rated = [(n, c) for n, c in summary.cards.items() if c["users"] >= 20]
    rated.sort(key=lambda kv: kv[1]["user_win_rate"], reverse=True)
    fig, ax = plt.subplots(figsize=(12, 4))
    ax.bar([n for n, _ in rated[:30]], [c["user_win_rate"] for _, c in rated[:30]], color="#9e5a9e")
    ax.set_title("win rate of players who used the dogma (cards used by 20+ players)")
    ax.tick_params(axis="x", rotation=75, labelsize=7)
    save(fig, "card-win-rates.png")
    return made
