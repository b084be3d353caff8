"""InnoScript benchmarks: python benchmarks/bench.py [--quick] [--json FILE]

Measures, on this machine, each as the median of several runs:
  cold compile of every card of both editions; warm load of a cached bundle;
  VM instructions per second on card effects; complete random 2-player games
  per second on one core for each edition; the VM's cost against hand-written
  Python for five effects on the same state model; `innoscript --help`.
Ratios compare two things measured in the same run (these machines are noisy).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

from innoscript.compiler.bundle import compile_edition, load_bundle
from innoscript.editions import load_edition
from innoscript.runtime import Game
from innoscript.runtime.bots import RandomBot, play_random
from innoscript.runtime.scenario import build_state
from innoscript.runtime import vm


def median_time(fn, runs):
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def bench_compile(runs):
    return {"cold_compile_both_editions_s": round(median_time(
        lambda: [compile_edition(load_edition(e)) for e in ("3e", "4e")], runs), 4)}


def bench_cold_process(runs):
    """A fresh process compiling both editions (imports, grammar tables from Lark's cache, all cards)."""
    code = ("from innoscript.compiler.bundle import compile_edition\n"
            "from innoscript.editions import load_edition\n"
            "[compile_edition(load_edition(e)) for e in ('3e', '4e')]")
    return {"cold_compile_fresh_process_s": round(median_time(
        lambda: subprocess.run([sys.executable, "-c", code], check=True), runs), 3)}


def bench_warm_load(runs):
    os.environ["INNOSCRIPT_CACHE"] = tempfile.mkdtemp()
    load_bundle("3e"), load_bundle("4e")
    return {"warm_load_both_editions_s": round(median_time(lambda: (load_bundle("3e"), load_bundle("4e")), runs), 4)}


def bench_games(edition, games):
    bundle = load_bundle(edition)
    t = time.perf_counter()
    steps = 0
    for seed in range(games):
        g = Game.new(players=2, seed=seed, bundle=bundle, fast=True)
        bot = RandomBot(seed)
        while not g.over:
            g.engine.budget = 10 ** 9
            g.apply(bot.answer(g.decision, g.cards))
    dt = time.perf_counter() - t
    return {f"games_per_second_{edition}": round(games / dt, 1)}


# ---------------------------------------------------------------- VM vs hand-written Python
# Five effects, each as a script (run by the VM) and as Python written against the same
# engine primitives. Both start from the same position and make the same moves.

POSITION = {"edition": "3e", "players": 2, "do": {"draw": True},
            "setup": {"players": [{"board": {"red": ["Metalworking"], "blue": ["Writing", "Pottery"],
                                             "green": ["Clothing"], "yellow": ["Agriculture"]},
                                   "hand": ["Sailing", "Tools"]},
                                  {"board": {"purple": ["Mysticism"]}, "hand": ["Calendar"]}]}}


def _frame(engine, name, effect, you=0, me=0):
    cid = engine.cards.by_name[name]
    return vm.new_frame(engine.cards, cid, effect, you, me)


def hand_writing(e):               # draw a [2]
    e.draw_effect({"you": 0, "kind": "non_demand"}, 1, 2, "draw")


def hand_metalworking(e):          # draw and reveal a [1]; if it has a castle, score it and repeat; otherwise keep it
    f = {"you": 0, "kind": "non_demand"}
    while True:
        c = e.draw_effect(f, 1, 1, "reveal")
        if c and "castle" in e.cards.printed[c[0]]:
            e.move(f, c, "score")
            continue
        e.move(f, c, "keep")
        break


def hand_clothing2(e):             # draw and score a [1] for each colour on your board not on any opponent's board
    st = e.state
    mine = {c for c, p in st["players"][0]["board"].items() if p["cards"]}
    theirs = {c for c, p in st["players"][1]["board"].items() if p["cards"]}
    e.draw_effect({"you": 0, "kind": "non_demand"}, len(mine - theirs), 1, "score")


def hand_pottery2(e):              # draw a [1]
    e.draw_effect({"you": 0, "kind": "non_demand"}, 1, 1, "draw")


def hand_mysticism(e):             # draw and reveal a [1]; if its colour is on your board, meld it and draw a [1]
    f = {"you": 0, "kind": "non_demand"}
    c = e.draw_effect(f, 1, 1, "reveal")
    colors = {col for col, p in e.state["players"][0]["board"].items() if p["cards"]}
    if c and e.cards.color[c[0]] in colors:
        e.move(f, c, "meld")
        e.draw_effect(f, 1, 1, "draw")
    else:
        e.move(f, c, "keep")


CASES = [("Writing", 0, hand_writing), ("Metalworking", 0, hand_metalworking), ("Clothing", 1, hand_clothing2),
         ("Pottery", 1, hand_pottery2), ("Mysticism", 0, hand_mysticism)]


def bench_vm_vs_python(reps):
    bundle = load_bundle("3e")
    base = build_state(POSITION, bundle)
    base.transactional = False
    snapshot = json.dumps(base.state)
    results = {}

    def fresh():
        e = build_state(POSITION, bundle)
        e.state = json.loads(snapshot)
        e.transactional = False
        e.state["phase"] = "dogma"
        e.state["dogma"] = {"card": 0, "active": 0, "icon": "castle", "counts": [0, 0], "vars": {}, "changes": 0,
                            "shared_change": False, "stack": [], "prelude": [], "prelude_frame": {}, "excluded": [],
                            "built": True}
        return e

    for name, effect, hand in CASES:
        engines = [fresh() for _ in range(reps)]
        t = time.perf_counter()
        for e in engines:
            vm.run(e, _frame(e, name, effect))
        vm_time = time.perf_counter() - t
        engines = [fresh() for _ in range(reps)]
        t = time.perf_counter()
        for e in engines:
            hand(e)
        py_time = time.perf_counter() - t
        results[name] = {"vm_us": round(vm_time / reps * 1e6, 1), "python_us": round(py_time / reps * 1e6, 1),
                         "ratio": round(vm_time / py_time, 2)}
    return {"vm_vs_python": results}


def bench_instructions(seconds=3.0):
    """VM instructions per second on card effects, over random games (card effects only)."""
    bundle = load_bundle("3e")
    executed, spent, seed = 0, 0.0, 0
    real_run = vm.run

    def counting_run(engine, frame):
        nonlocal executed, spent
        before = engine.budget
        t = time.perf_counter()
        try:
            return real_run(engine, frame)
        finally:
            spent += time.perf_counter() - t
            executed += before - engine.budget
    vm.run = counting_run
    try:
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            play_random(Game.new(players=2, seed=seed, bundle=bundle, fast=True), seed)
            seed += 1
    finally:
        vm.run = real_run
    return {"vm_instructions_per_second": int(executed / spent) if spent else 0, "vm_instructions_measured": executed}


def bench_help(runs):
    exe = [sys.executable, "-m", "innoscript.cli", "--help"]
    return {"help_s": round(median_time(lambda: subprocess.run(exe, capture_output=True), runs), 3)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="fewer runs (for a smoke test)")
    ap.add_argument("--json", help="write the figures to this file")
    args = ap.parse_args()
    runs = 2 if args.quick else 7
    games = 10 if args.quick else 200
    out = {"python": sys.version.split()[0], "cpu_count": os.cpu_count()}
    out.update(bench_compile(runs))
    out.update(bench_cold_process(runs))
    out.update(bench_warm_load(runs))
    out.update(bench_help(runs))
    out.update(bench_instructions(1.0 if args.quick else 5.0))
    for ed in ("3e", "4e"):
        out.update(bench_games(ed, games))
    out.update(bench_vm_vs_python(50 if args.quick else 400))
    text = json.dumps(out, indent=2)
    print(text)
    if args.json:
        with open(args.json, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
