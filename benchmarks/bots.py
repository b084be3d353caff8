"""Bot strength: seeded 2-player games per pairing per edition, seats alternating.

    python benchmarks/bots.py                                   # the documented run: 200 games per pairing
    python benchmarks/bots.py --games 10 --search-iterations 100 --json out.json   # a bounded sample

Pairings: search against heuristic, heuristic against random. Each game g of a
pairing uses seed 1000 + g; the first bot sits first in even games and second
in odd ones. Reports each pairing's wins, losses and ties, the first bot's win
rate, and the search bot's mean and slowest time per decision. Every bot
answers from its own player's view (runtime/bots.py: answer_for).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor

PAIRINGS = [("search", "heuristic"), ("heuristic", "random")]


def one_game(task):
    from innoscript.runtime.bots import answer_for, make_bot
    from innoscript.runtime.game import Game
    edition, a, b, g, budget = task
    seats = [a, b] if g % 2 == 0 else [b, a]
    game = Game.new(edition=edition, players=2, seed=1000 + g, fast=True)
    bots = [make_bot(k, g * 7919 + p, **(budget if k == "search" else {})) for p, k in enumerate(seats)]
    times: list[float] = []
    while not game.over:
        p = game.decision["player"]
        t = time.perf_counter()
        answer = answer_for(game, bots[p], p)
        if seats[p] == "search":
            times.append(time.perf_counter() - t)
        game.apply(answer)
    w = game.result["winners"]
    outcome = "tie" if len(w) != 1 else ("win" if seats[w[0]] == a else "loss")
    return {"edition": edition, "pairing": f"{a}-{b}", "game": g, "outcome": outcome, "turns": game.state["turn"]["number"],
            "search_times": times}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="games per pairing per edition (default: 200)")
    ap.add_argument("--editions", nargs="+", default=["3e", "4e"])
    ap.add_argument("--pairings", nargs="+", default=[f"{a}-{b}" for a, b in PAIRINGS])
    ap.add_argument("--search-seconds", type=float, default=None, help="the search bot's time per decision")
    ap.add_argument("--search-iterations", type=int, default=None, help="or its iterations per decision (default: 300)")
    ap.add_argument("--search-option", action="append", default=[], metavar="NAME=VALUE",
                    help="another setting of the search bot, e.g. width=3 (repeatable)")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--json", help="write every game's record to this file")
    args = ap.parse_args(argv)
    budget = {}
    if args.search_seconds is not None:
        budget = {"seconds": args.search_seconds, "iterations": None}
    elif args.search_iterations is not None:
        budget = {"iterations": args.search_iterations}
    for opt in args.search_option:
        name, _, value = opt.partition("=")
        budget[name] = float(value) if "." in value else int(value)
    tasks = [(ed, *pair.split("-"), g, budget) for ed in args.editions for pair in args.pairings for g in range(args.games)]
    start = time.time()
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as ex:
            records = list(ex.map(one_game, tasks))
    else:
        records = [one_game(t) for t in tasks]
    print(f"| edition | pairing | games | wins | losses | ties | win rate | search s/decision (mean, max) |")
    print("|---|---|---|---|---|---|---|---|")
    for ed in args.editions:
        for pair in args.pairings:
            rs = [r for r in records if r["edition"] == ed and r["pairing"] == pair]
            n = {k: sum(r["outcome"] == k for r in rs) for k in ("win", "loss", "tie")}
            ts = [t for r in rs for t in r["search_times"]]
            timing = f"{sum(ts) / len(ts):.2f}, {max(ts):.2f}" if ts else "-"
            print(f"| {ed} | {pair} | {len(rs)} | {n['win']} | {n['loss']} | {n['tie']} | "
                  f"{n['win'] / max(len(rs), 1):.0%} | {timing} |")
    print(f"\n{len(records)} games in {time.time() - start:.0f} s", file=sys.stderr)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"args": vars(args), "games": records}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
