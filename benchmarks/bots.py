"""Bot strength: seeded 2-player games per pairing per edition, seats alternating.

    python benchmarks/bots.py                                   # the documented run: 200 games per pairing
    python benchmarks/bots.py --games 10 --search-iterations 100 --json out.json   # a bounded sample
    python benchmarks/bots.py --first-game 100 --games 50 --json part3.json   # one part of a run in parts
    python benchmarks/bots.py --combine part*.json                            # the parts' table

Pairings: search against heuristic, heuristic against random (any two bots can be
paired, e.g. search-search with --opponent-option to compare two settings of the
search bot). Each game g of a
pairing uses seed 1000 + g; the first bot sits first in even games and second
in odd ones. Reports each pairing's wins, losses and ties, the first bot's win
rate with its 95% interval, and the search bot's time per decision (mean,
95th percentile, slowest, and how many took over 2 s), by the clock and in
CPU seconds of the process (which other work on the machine does not
inflate; games recorded before CPU times were kept have clock times only). A game still going
after 5,000 decisions is stopped and counted unfinished. Every bot answers
from its own player's view (runtime/bots/: answer_for).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor

PAIRINGS = [("search", "heuristic"), ("heuristic", "random")]
OUTCOMES = ("win", "loss", "tie", "unfinished")


MAX_DECISIONS = 5000   # a game this long is stopped and counted unfinished (random games end in a few hundred)
LIMIT_S = 2.0          # the search bot's time per decision, at most


def one_game(task):
    from innoscript.runtime import Game
    from innoscript.runtime.bots import answer_for, make_bot
    edition, a, b, g, budget, opponent = task
    first = 0 if g % 2 == 0 else 1          # the first bot's seat
    seats = [a, b] if first == 0 else [b, a]
    settings = [budget, opponent] if first == 0 else [opponent, budget]
    game = Game.new(edition=edition, players=2, seed=1000 + g, fast=True)
    bots = [make_bot(k, g * 7919 + p, **(settings[p] if k == "search" else {})) for p, k in enumerate(seats)]
    times: list[float] = []
    cpu: list[float] = []    # the same decisions in CPU seconds of this process: what other work on the machine does not inflate
    decisions = 0
    while not game.over:
        decisions += 1
        if decisions > MAX_DECISIONS:
            break
        p = game.decision["player"]
        t, c = time.perf_counter(), time.process_time()
        answer = answer_for(game, bots[p], p)
        if seats[p] == "search" and (p == first or a != "search"):   # the first bot's, when both search
            times.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
        game.apply(answer)
    if not game.over:
        outcome = "unfinished"
    else:
        w = game.result["winners"]
        outcome = "tie" if len(w) != 1 else ("win" if w[0] == first else "loss")
    return {"edition": edition, "pairing": f"{a}-{b}", "game": g, "outcome": outcome, "turns": game.state["turn"]["number"],
            "search_times": times, "search_cpu": cpu}


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% confidence interval of a win rate (Wilson's score interval: sound at 0 and n wins too)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, mid - half), min(1.0, mid + half)


def table(records: list[dict], editions: list[str], pairings: list[str]) -> str:
    lines = ["| edition | pairing | games | wins | losses | ties | unfinished | win rate (95% interval) | "
             f"search s/decision (mean, 95th percentile, max) | decisions over {LIMIT_S:g} s | "
             f"the same in CPU seconds (games timed so) | over {LIMIT_S:g} CPU s |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for ed in editions:
        for pair in pairings:
            rs = [r for r in records if r["edition"] == ed and r["pairing"] == pair]
            n = {k: sum(r["outcome"] == k for r in rs) for k in OUTCOMES}
            timing, over = _times([t for r in rs for t in r["search_times"]])
            cpu_rs = [r for r in rs if "search_cpu" in r]
            cpu, cpu_over = _times([t for r in cpu_rs for t in r["search_cpu"]])
            lo, hi = wilson(n["win"], len(rs))
            lines.append(f"| {ed} | {pair} | {len(rs)} | {n['win']} | {n['loss']} | {n['tie']} | {n['unfinished']} | "
                         f"{n['win'] / max(len(rs), 1):.0%} ({lo:.0%}-{hi:.0%}) | {timing} | {over} | "
                         f"{cpu} ({len(cpu_rs)}) | {cpu_over} |")
    return "\n".join(lines)


def _times(ts: list[float]) -> tuple[str, str]:
    """'mean, 95th percentile, max' of decision times, and how many exceed the limit."""
    if not ts:
        return "-", "-"
    ts = sorted(ts)
    return (f"{sum(ts) / len(ts):.2f}, {ts[int(0.95 * (len(ts) - 1))]:.2f}, {ts[-1]:.2f}",
            f"{sum(t > LIMIT_S for t in ts)} of {len(ts)}")


def bots_source() -> str:
    """A digest of the bots' code (every module of runtime/bots/): parts played by other code are other games."""
    from pathlib import Path
    from innoscript.runtime import bots
    h = hashlib.sha256()
    for path in sorted(Path(bots.__file__).parent.glob("*.py")):
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def combine(paths: list[str]) -> tuple[list[dict], list[str], list[str]]:
    """The games of several runs' --json files, which must share the search bot's settings; a game
    played in two files counts once (same seed and settings: the same game when budgeted by iterations)."""
    records: dict = {}
    settings = None
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
            these, games = data["budget"], data["games"]
            for r in games:   # each game's record as one_game writes it
                if not (isinstance(r["edition"], str) and isinstance(r["pairing"], str) and isinstance(r["game"], int)
                        and r["outcome"] in OUTCOMES
                        and all(isinstance(t, (int, float)) for t in r["search_times"])
                        and all(isinstance(t, (int, float)) for t in r.get("search_cpu", []))):
                    raise ValueError(f"a game's record is malformed: {str(r)[:80]}")
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise SystemExit(f"bots.py: {path}: not a --json file of this benchmark ({e})")
        if settings is None:
            settings = these
        elif these != settings:
            raise SystemExit(f"bots.py: {path}: the search bot's settings or the bots' code {these} differ "
                             f"from the first file's {settings}")
        for r in games:
            records[(r["edition"], r["pairing"], r["game"])] = r
    rs = [records[k] for k in sorted(records)]
    editions = sorted({r["edition"] for r in rs})
    pairings = list(dict.fromkeys(r["pairing"] for r in rs))
    return rs, editions, pairings


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="games per pairing per edition (default: 200)")
    ap.add_argument("--first-game", type=int, default=0, metavar="G",
                    help="play games G to G+games-1 (a run in parts; default: 0)")
    ap.add_argument("--editions", nargs="+", default=["3e", "4e"])
    ap.add_argument("--pairings", nargs="+", default=[f"{a}-{b}" for a, b in PAIRINGS])
    ap.add_argument("--search-seconds", type=float, default=None, help="the search bot's time per decision")
    ap.add_argument("--search-iterations", type=int, default=None, help="or its iterations per decision (default: 300)")
    ap.add_argument("--search-option", action="append", default=[], metavar="NAME=VALUE",
                    help="another setting of the search bot, e.g. prune=3 (repeatable)")
    ap.add_argument("--opponent-option", action="append", default=[], metavar="NAME=VALUE",
                    help="a setting of the second bot when it is the search bot too (pairing search-search): "
                         "it plays with the first's budget and settings but these, e.g. root=ucb (repeatable)")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--json", help="write every game's record to this file")
    ap.add_argument("--combine", nargs="+", metavar="FILE",
                    help="play nothing: the table of the games in these --json files (the parts of one run)")
    args = ap.parse_args(argv)
    if args.combine:
        records, editions, pairings = combine(args.combine)
        print(table(records, editions, pairings))
        return 0
    from innoscript.runtime.bots import BOTS
    for pair in args.pairings:
        if len(pair.split("-")) != 2 or not set(pair.split("-")) <= set(BOTS):
            ap.error(f"--pairings: {pair!r} is not two of {', '.join(BOTS)} joined by '-'")
    budget = {}
    if args.search_seconds is not None:
        budget = {"seconds": args.search_seconds, "iterations": None}
    elif args.search_iterations is not None:
        budget = {"iterations": args.search_iterations}
    opponent_options: dict = {}
    for flag, opts, into in (("--search-option", args.search_option, budget),
                             ("--opponent-option", args.opponent_option, opponent_options)):
        for opt in opts:
            name, _, value = opt.partition("=")
            if not name.isidentifier() or not value:
                ap.error(f"{flag}: {opt!r} is not NAME=VALUE")
            try:
                into[name] = float(value) if "." in value else int(value)
            except ValueError:
                into[name] = value     # a word, e.g. root=ucb
    if opponent_options and not any(p.split("-")[1] == "search" for p in args.pairings):
        ap.error("--opponent-option: no pairing has the search bot second (e.g. search-search)")
    opponent = {**budget, **opponent_options}
    games = range(args.first_game, args.first_game + args.games)
    tasks = [(ed, *pair.split("-"), g, budget, opponent) for ed in args.editions for pair in args.pairings
             for g in games]
    start = time.time()
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as ex:
            records = list(ex.map(one_game, tasks))
    else:
        records = [one_game(t) for t in tasks]
    print(table(records, args.editions, args.pairings))
    print(f"\n{len(records)} games in {time.time() - start:.0f} s", file=sys.stderr)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            settings = {**budget, "bots": bots_source()}
            if opponent_options:   # only then: parts without it keep the settings they always had
                settings["opponent"] = opponent_options
            json.dump({"args": vars(args), "budget": settings, "games": records}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
