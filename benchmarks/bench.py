"""InnoScript benchmarks, side by side with an older version of the code.

    python benchmarks/bench.py                    # against be9c4e2, the code before the design round of speed work
    python benchmarks/bench.py --baseline REF     # against any commit
    python benchmarks/bench.py --baseline none    # this tree only
    python benchmarks/bench.py --quick --json FILE
    python benchmarks/bench.py --compiled DIR     # and the compiled build in DIR (scripts/build-compiled)

The baseline is exported with ``git archive`` into a temporary folder and
imported from there (PYTHONPATH puts it before the installed package).  Every
figure is measured in its own subprocess, alternately on the baseline and on
this tree (same seeds, same games, each side with its own caches on disk, warmed first: the
bundles and the compiled tier's translations, as a second run of simulate has them),
several rounds; a side's figure is the median of its rounds and the ratio is
a speed-up: new/old for rates, old/new for times, so above 1 is faster now.
With --compiled, the compiled build of this tree is a third side, measured in the same alternation.
A figure the baseline cannot measure (a set or a tier it does not have) has
no ratio.  ``same_games`` says whether both sides played the same games (the
winners, reasons and turns of every seed): card fixes since the baseline may
change some.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_BASELINE = "be9c4e2"
sys.path.insert(0, str(ROOT / "scripts"))
from package_tree import lay_out  # noqa: E402  (the installed package's layout, from a checkout)


# ================================================================ measurements (run in a worker process)

def median_time(fn, runs):
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def _bundle(edition, sets=()):
    from innoscript.compiler.bundle import load_bundle
    return load_bundle(edition, sets=tuple(sets)) if sets else load_bundle(edition)


def _has_sets():
    import inspect
    from innoscript.compiler.bundle import load_bundle
    return "sets" in inspect.signature(load_bundle).parameters


def _layered() -> bool:
    """Whether the code being measured has the 0.2.0 layout (innoscript/core/). Read from its folder, not by
    trying an import: an editable install of this checkout would answer for a baseline missing the module."""
    import innoscript
    return os.path.isdir(os.path.join(os.path.dirname(innoscript.__file__), "core"))


def _load_edition():
    """load_edition, where the code being measured keeps it (innoscript.core.editions since 0.2.0)."""
    if _layered():
        from innoscript.core.editions import load_edition
    else:
        from innoscript.editions import load_edition
    return load_edition


def _machine():
    """(the module whose ``run`` runs a frame, new_frame, build_state), in the layout of the code being measured
    (before 0.2.0: all in runtime/vm.py and runtime/scenario.py)."""
    if _layered():
        from innoscript.runtime.machine import frames, tier
        from innoscript.runtime.tools.scenario import build_state
        return tier, frames.new_frame, build_state
    from innoscript.runtime import vm
    from innoscript.runtime.scenario import build_state
    return vm, vm.new_frame, build_state


def task_compile(runs):
    from innoscript.compiler.bundle import compile_edition
    load_edition = _load_edition()
    return {"cold_compile_both_editions_s": median_time(
        lambda: [compile_edition(load_edition(e)) for e in ("3e", "4e")], runs)}


def task_cold_process(runs):
    """A fresh process compiling both editions (imports, grammar tables from Lark's cache, all cards)."""
    code = ("from innoscript.compiler.bundle import compile_edition\n"
            "import innoscript, os\n"
            "if os.path.isdir(os.path.join(os.path.dirname(innoscript.__file__), 'core')):\n"
            "    from innoscript.core.editions import load_edition\n"
            "else:\n    from innoscript.editions import load_edition\n"
            "[compile_edition(load_edition(e)) for e in ('3e', '4e')]")
    return {"cold_compile_fresh_process_s": median_time(
        lambda: subprocess.run([sys.executable, "-c", code], check=True), runs)}


def task_warm_load(runs):
    from innoscript.compiler.bundle import load_bundle
    load_bundle("3e"), load_bundle("4e")
    return {"warm_load_both_editions_s": median_time(lambda: (load_bundle("3e"), load_bundle("4e")), runs)}


def task_help(runs):
    exe = [sys.executable, "-m", "innoscript.cli", "--help"]
    return {"help_s": median_time(lambda: subprocess.run(exe, capture_output=True), runs)}


def _one_game(edition, bundle, bot, seed, fast=True, players=2):
    """One game, a bot per seat, seeded as simulate seeds them: (the game, its decisions)."""
    from innoscript.runtime import Game
    from innoscript.runtime.bots import BOTS, play_bots
    g = Game.new(edition, players, seed, bundle=bundle, fast=fast)
    return g, play_bots(g, [BOTS[bot](seed * 7919 + p * 104729 + 2) for p in range(players)])


def task_games(edition, sets, bot, games, fast=True, players=2):
    """Complete games (2 players unless told) as `innoscript simulate` plays them (fast games, one bot per
    seat, seeded as simulate seeds them); the digest of every game's outcome shows whether both sides played
    the same. fast=False: as a server plays them, with the rollback snapshot and the undo record of every
    answer."""
    if sets and not _has_sets():
        return {}
    bundle = _bundle(edition, sets)

    def play(seed):
        g, n = _one_game(edition, bundle, bot, seed, fast, players)
        return g.state["result"]["winners"], g.state["result"]["reason"], g.state["turn"]["number"], n
    play(10 ** 6)   # warm-up
    t, cpu = time.perf_counter(), time.process_time()
    outcomes = [play(s) for s in range(games)]
    dt, dcpu = time.perf_counter() - t, time.process_time() - cpu
    if not games:
        return {}
    turns, decisions = sum(o[2] for o in outcomes), sum(o[3] for o in outcomes)
    # by the clock, and by the process's CPU time (what a shared machine's other work disturbs least)
    return {"games_per_s": games / dt, "ms_per_game": dt / games * 1000, "turns_per_game": turns / games,
            "decisions_per_s": decisions / dt, "turns_per_s": turns / dt,
            "cpu_games_per_s": games / dcpu, "cpu_turns_per_s": turns / dcpu,
            "digest": hashlib.sha256(json.dumps(outcomes).encode()).hexdigest()[:12]}


def task_instructions(seconds):
    """VM instructions per second on card effects, over random games (card effects only, on the VM)."""
    from innoscript.runtime import Game
    from innoscript.runtime.bots import play_random
    runner = _machine()[0]
    bundle = _bundle("3e")
    executed, spent, seed = 0, 0.0, 0
    real_run = runner.run

    def counting_run(engine, frame):
        nonlocal executed, spent
        engine.tier = "vm"
        before = engine.budget
        t = time.perf_counter()
        try:
            return real_run(engine, frame)
        finally:
            spent += time.perf_counter() - t
            executed += before - engine.budget
    runner.run = counting_run
    try:
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            play_random(Game.new(players=2, seed=seed, bundle=bundle, fast=True), seed)
            seed += 1
    finally:
        runner.run = real_run
    return {"vm_instructions_per_s": executed / spent if spent else 0}


def task_save_load(edition, runs):
    """Save and load of a game in progress (a served game's work per stored answer and per resume)."""
    from innoscript.runtime import Game
    from innoscript.runtime.bots import RandomBot, answer_for
    bundle = _bundle(edition)
    g = Game.new(edition, 2, 3, bundle=bundle)
    bot = RandomBot(3)
    for _ in range(120):
        if g.over:
            break
        g.apply(answer_for(g, bot, g.decision["player"]))
    text = g.save()
    Game.load(text, bundle=bundle)
    return {"save_ms": median_time(g.save, runs) * 1000,
            "load_ms": median_time(lambda: Game.load(text, bundle=bundle), runs) * 1000,
            "save_kb": len(text) / 1000}


# ---------------------------------------------------------------- VM, compiled tier and hand-written Python
# Five effects, each as a script (run by the VM and by the compiled tier) and as Python written against the
# same engine primitives. All start from the same position and make the same moves. With "checks": the
# special achievements are available (every move re-tests them, as in a game); without, they are not, which
# isolates the effect's own work.

POSITION = {"edition": "3e", "players": 2, "do": {"draw": True},
            "setup": {"players": [{"board": {"red": ["Metalworking"], "blue": ["Writing", "Pottery"],
                                             "green": ["Clothing"], "yellow": ["Agriculture"]},
                                   "hand": ["Sailing", "Tools"]},
                                  {"board": {"purple": ["Mysticism"]}, "hand": ["Calendar"]}]}}


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


def task_effects(reps, checks):
    runner, new_frame, build_state = _machine()
    bundle = _bundle("3e")
    base = build_state(POSITION, bundle)
    snapshot = json.dumps(base.state)
    has_tier = hasattr(base, "tier")

    def fresh(tier="vm"):
        e = build_state(POSITION, bundle)
        e.state = json.loads(snapshot)
        e.transactional = False
        if has_tier:
            e.tier = tier
        if not checks:
            e.state["available"]["special"] = []
        e.state["phase"] = "dogma"
        e.state["dogma"] = {"card": 0, "active": 0, "icon": "castle", "counts": [0, 0], "vars": {}, "changes": 0,
                            "shared_change": False, "stack": [], "prelude": [], "prelude_frame": {}, "excluded": [],
                            "built": True}
        return e

    def timed(engines, fn):
        t = time.perf_counter()
        for e in engines:
            fn(e)
        return (time.perf_counter() - t) / reps * 1e6

    out = {}
    for name, effect, hand in CASES:
        def script(e):
            runner.run(e, new_frame(e.cards, e.cards.by_name[name], effect, 0, 0))
        row = {"vm_us": timed([fresh() for _ in range(reps)], script),
               "python_us": timed([fresh() for _ in range(reps)], hand)}
        if has_tier:
            timed([fresh("compiled") for _ in range(3)], script)      # the tier's one-time translation
            row["tier_us"] = timed([fresh("compiled") for _ in range(reps)], script)
        out[name] = row
    return out


def task_server(clients, answers, think):
    """benchmarks/server.py: clients playing at once against one server (answers per second, round trips);
    nothing for a version whose protocol the client does not speak (the default baseline's)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "server.json")
        r = subprocess.run([sys.executable, str(Path(__file__).resolve().parent / "server.py"), "--clients",
                            str(clients), "--answers", str(answers), "--think", str(think), "--json", out],
                           capture_output=True)
        if not os.path.exists(out):
            return {"unavailable": "the server benchmark failed: " + r.stderr.decode(errors="replace")[-200:].strip()}
        with open(out) as f:
            d = json.load(f)
    if "unavailable" in d:
        return {"unavailable": d["unavailable"]}   # no figure: reported as '-' with the reason
    return {k: d[k] for k in ("answers_per_s", "p50_ms", "p99_ms", "max_ms")}


def task_play(edition, games, sets=()):
    """Play `games` random 2-player games as task_games does, timing nothing (run under callgrind). A
    warm-up game comes first, as in task_games, with no games too: the run of none that is subtracted
    then holds the imports and what the first game of a process pays once."""
    bundle = _bundle(edition, sets)
    _one_game(edition, bundle, "random", 10 ** 6)
    return {"turns": sum(_one_game(edition, bundle, "random", seed)[0].state["turn"]["number"]
                         for seed in range(games))}


def task_callgrind(edition, games, sets=()):
    """Instructions executed per game and per turn of random games, counted by valgrind's callgrind: the
    count does not depend on what else the machine is doing, so it compares sides on a busy machine
    too. A run of no games is subtracted (start-up, imports, the bundle load, a warm-up game), and the
    games are played once uncounted first, so the caches on disk are warm. No valgrind: no figure."""
    import re
    import shutil as _shutil
    if not _shutil.which("valgrind"):
        return {"unavailable": "valgrind is not installed"}
    counts, turns = [], 0
    worker = [sys.executable, str(Path(__file__).resolve()), "--worker"]
    # the same games once uncounted first: the caches on disk (bundle, compiled tier) as a second run has them
    if sets and not _has_sets():
        return {}
    subprocess.run(worker + [json.dumps({"task": "play", "args": [edition, games, list(sets)]})], capture_output=True,
                   check=True)
    for n in (0, games):
        spec = json.dumps({"task": "play", "args": [edition, n, list(sets)]})
        r = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + worker + [spec],
                           capture_output=True, text=True)
        found = re.search(r"Collected : (\d+)", r.stderr)
        if r.returncode != 0 or not found:
            return {"unavailable": f"callgrind failed: {r.stderr[-300:]}"}
        counts.append(int(found.group(1)))
        turns = json.loads(r.stdout.strip().splitlines()[-1])["turns"]
    played = counts[1] - counts[0]
    return {"minstr_per_game": played / games / 1e6, "minstr_per_turn": played / turns / 1e6,
            "turns_per_game": turns / games}


TASKS = {"play": task_play, "callgrind": task_callgrind, "compile": task_compile, "cold_process": task_cold_process,
         "warm_load": task_warm_load, "help": task_help, "games": task_games, "instructions": task_instructions, "save_load": task_save_load,
         "effects": task_effects, "server": task_server}


def worker(spec: str) -> None:
    task = json.loads(spec)
    print(json.dumps(TASKS[task["task"]](*task["args"])))


# ================================================================ the driver

class Side:
    """One version of the code: this tree (the installed package) or a baseline exported from git."""

    def __init__(self, name: str, pythonpath: str | None):
        self.name = name
        self.env = dict(os.environ, INNOSCRIPT_CACHE=tempfile.mkdtemp(prefix=f"bench-cache-{name}-"))
        self.env.pop("INNOSCRIPT_TIER", None)
        if pythonpath:
            self.env["PYTHONPATH"] = pythonpath + os.pathsep + self.env.get("PYTHONPATH", "")

    def run(self, task: str, *args):
        spec = json.dumps({"task": task, "args": list(args)})
        r = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--worker", spec], env=self.env,
                           capture_output=True, text=True, cwd=tempfile.gettempdir())
        if r.returncode != 0:
            raise RuntimeError(f"{self.name}: {task} failed:\n{r.stderr[-2000:]}")
        return json.loads(r.stdout.strip().splitlines()[-1])


def export_baseline(ref: str, into: str) -> str:
    """REF's files, laid out as the installed package (a folder to put on PYTHONPATH)."""
    src = os.path.join(into, "src")
    os.makedirs(src)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", ref], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", src], input=archive.stdout, check=True)
    return str(lay_out(Path(src), Path(into) / "path"))      # by REF's own pyproject.toml


def speedup(key: str, new: float, old: float) -> float | None:
    if not old or not new or not key.endswith(("_per_s", "_s", "_ms", "_us", "_per_game", "_per_turn")) \
            or key == "turns_per_game":
        return None
    return new / old if key.endswith("_per_s") else old / new


def measure(sides: list[Side], task: str, args: list, rounds: int, log) -> dict:
    """Alternate the sides for `rounds` rounds (the first side alternates too); per side, each numeric
    figure's median over the rounds."""
    runs: dict = {s.name: [] for s in sides}
    for r in range(rounds):
        for s in (sides if r % 2 == 0 else sides[::-1]):
            runs[s.name].append(s.run(task, *args))
    out = {}
    for name, results in runs.items():
        out[name] = _median_of(results)
    log(f"  {task} {args}: " + "  ".join(f"{n}={_short(v)}" for n, v in out.items()))
    return out


def _median_of(results: list):
    first = results[0]
    if isinstance(first, dict):
        return {k: _median_of([r[k] for r in results if k in r]) for k in first}
    if isinstance(first, (int, float)):
        return round(statistics.median(results), 4)
    return first if all(r == first for r in results) else "varies"


def _short(v) -> str:
    return json.dumps(v)[:160]


# the sets measured against a base turn besides Echoes (set_turn_cost); the last is the 4th edition's alone
LATER_SETS = ("artifacts", "cities", "unseen")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="few games and one round (a smoke test)")
    ap.add_argument("--baseline", default=DEFAULT_BASELINE,
                    help=f"the commit to compare with (default: {DEFAULT_BASELINE}, the code before the design round of the speed "
                         "work); 'none' for this tree only")
    ap.add_argument("--compiled", metavar="DIR", help="also measure the compiled build in DIR (scripts/build-compiled)")
    ap.add_argument("--rounds", type=int, help="alternations per figure (default: 3, 1 with --quick)")
    ap.add_argument("--json", help="write the figures to this file")
    ap.add_argument("--only", metavar="NAME[,NAME]", help="only these figures (names as in the JSON's side_by_side)")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        return worker(args.worker)
    quick = args.quick
    rounds = args.rounds or (1 if quick else 3)
    runs = 2 if quick else 3
    games = {"base": 4 if quick else 50, "echoes": 2 if quick else 16, "greedy": 3 if quick else 20,
             "players": 3 if quick else 30, "sets": 2 if quick else 16}

    def log(msg):
        print(msg, file=sys.stderr, flush=True)

    here = Side("new", None)
    sides = [here]
    tmp = tempfile.mkdtemp(prefix="bench-baseline-")
    out: dict = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "python": sys.version.split()[0],
                 "cpu_count": os.cpu_count(), "rounds": rounds, "baseline": None}
    try:
        if args.baseline != "none":
            try:
                ref = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", args.baseline],
                                     capture_output=True, text=True, check=True).stdout.strip()
                sides.append(Side("old", export_baseline(ref, tmp)))
                out["baseline"] = {"ref": args.baseline, "commit": ref}
            except (subprocess.CalledProcessError, FileNotFoundError) as err:
                log(f"no baseline ({err}): this tree only")
        if args.compiled:
            sides.append(Side("compiled", str(Path(args.compiled).resolve())))
        for s in sides:
            # each side's caches on disk warm outside the timings, as a second run of simulate has them: the
            # bundles, and the compiled tier's translations of what the timed games run (the same games)
            log(f"{s.name}: preparing")
            s.run("warm_load", 1)
            for ed in ("3e", "4e"):
                s.run("games", ed, [], "random", games["base"])
            if _side_has_echoes(s):
                for ed in ("3e", "4e"):
                    s.run("games", ed, ["echoes"], "random", games["echoes"])
            for ed in ("3e", "4e"):
                for name in LATER_SETS[:2] + (LATER_SETS[2:] if ed == "4e" else ()):
                    if _side_has_set(s, ed, name):
                        s.run("games", ed, [name], "random", games["sets"])
        plan = [("cold_compile", "compile", [runs]), ("cold_process", "cold_process", [runs]),
                ("warm_load", "warm_load", [runs]), ("help", "help", [runs]),
                ("vm_instructions", "instructions", [1.0 if quick else 4.0])]
        for ed in ("3e", "4e"):
            plan.append((f"random_{ed}", "games", [ed, [], "random", games["base"]]))
        for ed in ("3e", "4e"):   # instruction counts: the same every run, so one round (not in --quick)
            if not quick or (args.only and f"instructions_{ed}" in args.only.split(",")):
                plan.append((f"instructions_{ed}", "callgrind", [ed, 2 if quick else 10]))
        for ed in ("3e", "4e"):
            plan.append((f"random_{ed}_echoes", "games", [ed, ["echoes"], "random", games["echoes"]]))
        for ed in ("3e", "4e"):   # what a turn with Echoes costs against a base turn, by instructions
            if not quick or (args.only and f"instructions_{ed}_echoes" in args.only.split(",")):
                plan.append((f"instructions_{ed}_echoes", "callgrind", [ed, 2 if quick else 6, ["echoes"]]))
        for ed in ("3e", "4e"):   # what a turn with each later set costs (on the sides that have the set)
            for name in LATER_SETS[:2] + (LATER_SETS[2:] if ed == "4e" else ()):
                plan.append((f"random_{ed}_{name}", "games", [ed, [name], "random", games["sets"]]))
        for ed in ("3e", "4e"):   # how the cost grows with the players
            for n in (3, 4):
                plan.append((f"random_{ed}_p{n}", "games", [ed, [], "random", games["players"], True, n]))
        plan += [("random_3e_rollback", "games", ["3e", [], "random", games["base"], False]),
                 ("greedy_3e", "games", ["3e", [], "greedy", games["greedy"]]),
                 ("greedy_4e", "games", ["4e", [], "greedy", games["greedy"]]),
                 ("save_load_3e", "save_load", ["3e", 20 if quick else 200]),
                 ("effects_checks", "effects", [30 if quick else 200, True]),
                 ("effects_no_checks", "effects", [30 if quick else 200, False])]
        # clients answering about every think seconds (the last figure): two rounds
        plan.append(("server", "server", [5, 3, 0.0] if quick else [50, 20, 1.0]))
        only = set(args.only.split(",")) if args.only else None
        figures: dict = {}
        for label, task, targs in plan:
            if only is None or label in only:
                n = 1 if task == "callgrind" else min(rounds, 2) if task == "server" else rounds
                # a set that a side does not have (the baseline predates it): measured on the others
                needs = [x for x in targs[1] if x != "echoes"] if task == "games" else []
                here_sides = [s for s in sides if all(_side_has_set(s, targs[0], x) for x in needs)]
                figures[label] = measure(here_sides, task, targs, n, log)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        for s in sides:
            shutil.rmtree(s.env["INNOSCRIPT_CACHE"], ignore_errors=True)

    # the figures of this tree at the top level (the keys a reader or a test looks up), then each
    # measure side by side with its speed-up
    new = {k: v["new"] for k, v in figures.items()}
    top = {"cold_compile_both_editions_s": ("cold_compile", "cold_compile_both_editions_s"),
           "cold_compile_fresh_process_s": ("cold_process", "cold_compile_fresh_process_s"),
           "warm_load_both_editions_s": ("warm_load", "warm_load_both_editions_s"), "help_s": ("help", "help_s")}
    out.update({k: new[label][fig] for k, (label, fig) in top.items() if label in new})
    if "vm_instructions" in new:
        out["vm_instructions_per_second"] = int(new["vm_instructions"]["vm_instructions_per_s"])
    if "effects_checks" in new:
        out["vm_vs_python"] = {name: {**row, "ratio": round(row["vm_us"] / row["python_us"], 2)}
                               for name, row in new["effects_checks"].items()}
    for k, v in new.items():
        if k.startswith(("random_", "greedy_")) and v:
            out[f"games_per_second_{k.removeprefix('random_')}"] = round(v["games_per_s"], 1)
    side_by_side = {}
    for label, fig in figures.items():
        row = dict(fig)
        if "old" in fig:
            row["speedup"] = _speedups(fig["new"], fig["old"])
            if isinstance(fig["new"], dict) and "digest" in fig["new"] and "digest" in fig["old"]:
                row["same_games"] = fig["new"]["digest"] == fig["old"]["digest"]
        if "compiled" in fig:
            if "old" in fig:
                row["speedup_compiled"] = _speedups(fig["compiled"], fig["old"])
            row["compiled_over_new"] = _speedups(fig["compiled"], fig["new"])
            if isinstance(fig["new"], dict) and "digest" in fig["new"]:
                row["compiled_same_games"] = fig["new"]["digest"] == fig["compiled"].get("digest")
        side_by_side[label] = row
    out["side_by_side"] = side_by_side
    # a turn with Echoes against a base turn, per side: by instructions (exact) and by the clock
    ratios: dict = {}
    for ed in ("3e", "4e"):
        for side in ("old", "new", "compiled"):
            base, echoes = figures.get(f"instructions_{ed}", {}).get(side), figures.get(f"instructions_{ed}_echoes", {}).get(side)
            if base and echoes and base.get("minstr_per_turn") and echoes.get("minstr_per_turn"):
                ratios.setdefault(ed, {})[f"{side}_by_instructions"] = round(echoes["minstr_per_turn"] / base["minstr_per_turn"], 2)
            base, echoes = figures.get(f"random_{ed}", {}).get(side), figures.get(f"random_{ed}_echoes", {}).get(side)
            if base and echoes and base.get("turns_per_s") and echoes.get("turns_per_s"):
                ratios.setdefault(ed, {})[f"{side}_by_clock"] = round(base["turns_per_s"] / echoes["turns_per_s"], 2)
    out["echoes_turn_cost"] = ratios
    # every set's turn against a base turn, by the clock, per side that has the set
    costs: dict = {}
    for label, fig in figures.items():    # random_<edition>_<set>
        parts = label.split("_")
        if len(parts) == 3 and parts[0] == "random" and parts[1] in ("3e", "4e") and parts[2] in ("echoes",) + LATER_SETS:
            for side, v in fig.items():
                base = figures.get(f"random_{parts[1]}", {}).get(side)
                if isinstance(v, dict) and base and base.get("turns_per_s") and v.get("turns_per_s"):
                    costs.setdefault(parts[1], {}).setdefault(parts[2], {})[side] = \
                        round(base["turns_per_s"] / v["turns_per_s"], 2)
    out["set_turn_cost"] = costs
    text = json.dumps(out, indent=2)
    print(text)
    if args.json:
        with open(args.json, "w") as f:
            f.write(text + "\n")


def _side_has_set(side: Side, edition: str, name: str, _known: dict = {}) -> bool:
    """Whether the side's code has this set for the edition (a baseline may predate it)."""
    key = (side.name, edition, name)
    if key not in _known:
        code = f"from innoscript.compiler.bundle import load_bundle; load_bundle({edition!r}, sets=[{name!r}])"
        r = subprocess.run([sys.executable, "-c", code], env=side.env, capture_output=True, text=True,
                           cwd=tempfile.gettempdir())
        _known[key] = r.returncode == 0
    return _known[key]


def _side_has_echoes(side: Side) -> bool:
    code = "import inspect; from innoscript.compiler.bundle import load_bundle; " \
           "print('sets' in inspect.signature(load_bundle).parameters)"
    r = subprocess.run([sys.executable, "-c", code], env=side.env, capture_output=True, text=True,
                       cwd=tempfile.gettempdir())
    return r.stdout.strip() == "True"


def _speedups(new, old):
    """Per numeric figure (nested as the figures are), the speed-up of new over old."""
    if isinstance(new, dict):
        out = {}
        for k, v in new.items():
            if k in old:
                s = _speedups(v, old[k]) if isinstance(v, dict) else (
                    speedup(k, v, old[k]) if isinstance(v, (int, float)) and isinstance(old[k], (int, float))
                    else None)
                if s is not None and s != {}:
                    out[k] = round(s, 2) if isinstance(s, float) else s
        return out
    return None


if __name__ == "__main__":
    main()
