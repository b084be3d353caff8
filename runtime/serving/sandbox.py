"""The card editor's compiler check and its sandbox, where a card typed by anyone is played once.

A trial runs in a child process (``python -m innoscript.runtime.serving.sandbox``)
that first limits its own CPU time and address space (``resource.setrlimit``)
and is killed when it outlives a wall-clock limit, so a card that loops
through decisions or grows a number without end costs only its own trial: the
server's process, its event loop and its games are never touched.  The child
reads one JSON request on stdin and writes one JSON result on stdout.  It runs
in a temporary folder made for the trial (its working directory and TMPDIR),
removed when the trial ends, keeps the compiled tier's translations in memory
only and writes no core file: a trial leaves no file behind.  It reads the
edition's compiled bundle from the cache folder, where the server put it.

The check (``check``) runs in a worker of a small pool instead
(runtime/serving/workers.py; ``--worker`` starts one), on a CPU and time budget.
"""
from __future__ import annotations

import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile

from innoscript.compiler.bundle import compile_card, load_bundle, parse_card, vocabulary
from innoscript.compiler.tools.disasm import disassemble_card
from innoscript.compiler.tools.render import render_text
from innoscript.core.diagnostics import CompileError, Diagnostic, Pos
from innoscript.core.editions import load_edition
from ..api.faces import editor_face
from ..api.game import Game
from ..bots import RandomBot, answer_for
from ..machine.faults import RuntimeFault
from ..tools.scenario import build_state
from .terminal import card_text
from .workers import serve_jobs

LIMITS = {
    "cpu_seconds": 5,          # CPU time of one trial
    "memory_bytes": 1 << 30,   # address space of one trial's process
    "wall_seconds": 15,        # a trial's whole life, start-up included
    "answers": 500,            # decisions answered in one trial
    "concurrent": 2,           # trials at once per server; one more is answered 'busy'
    "log_bytes": 1 << 18,
}


def compile_source(source: str, edition: str, sets=()):
    """(compiled card, its syntax tree, diagnostics as JSON), with the vocabulary of the edition and sets."""
    ed = load_edition(edition, sets=sets)
    vocab = vocabulary(ed.manifest, ed.card_names | set(re.findall(r'card\s+"([^"]+)"', source)), ed.sets)
    try:
        compiled = compile_card(source, "editor.inno", vocab)
        ast, _ = parse_card(source, "editor.inno", vocab)
        return compiled, ast, []
    except CompileError as err:
        return None, None, [d.to_json() for d in err.diagnostics]
    except RecursionError:
        d = Diagnostic("E306", "the card is nested too deeply to compile", "editor.inno", Pos(1, 1))
        return None, None, [d.to_json()]


def check(source: str, edition: str, sets=()):
    """The editor's live check: diagnostics, and the card's rendered text and disassembly."""
    compiled, ast, diagnostics = compile_source(source, edition, sets)
    card = None
    if compiled is not None:
        data = dict(compiled.data, id=0)
        card = {"name": data["name"], "rendered": render_text(ast), "disassembly": disassemble_card(data, source),
                "face": editor_face(data, ast)}
    return diagnostics, card


def trial(source: str, edition: str, seed: int, answers: int = LIMITS["answers"], sets=()):
    """Play the card's dogma once in a small position with random answers: (log lines, error or None)."""
    compiled, _, _ = compile_source(source, edition, sets)
    if compiled is None:
        return [], "the card does not compile"
    bundle = json.loads(json.dumps(load_bundle(edition, sets=tuple(sets))))
    data = compiled.data
    existing = next((c for c in bundle["cards"] if c["name"] == data["name"]), None)
    if existing is not None:
        existing.update({k: data[k] for k in ("age", "color", "icons", "dogma", "effects") if k in data})
        existing.pop("cell_values", None)     # the card as written now: its cells' numbers, if any
        existing.update({k: data[k] for k in ("set", "cell_values") if k in data})
    else:
        bundle["cards"].append(dict(data, id=len(bundle["cards"])))
    rng = random.Random(seed)
    others = [c for c in bundle["cards"] if c["name"] != data["name"] and c["age"] <= 2]
    rng.shuffle(others)
    setup = {"players": [{"board": {data["color"]: [data["name"]]}, "hand": [c["name"] for c in others[:3]]},
                         {"board": {others[3]["color"]: [others[3]["name"]]}, "hand": [c["name"] for c in others[4:6]]}]}
    engine = build_state({"edition": edition, "players": 2, "do": {"draw": True}, "setup": setup,
                          **({"sets": sorted(sets)} if sets else {})}, bundle)
    engine.advance()
    game = Game(engine, fast=True)
    bots = [RandomBot(seed + p) for p in range(2)]
    log = [f"position: you have {data['name']} on your board and {', '.join(setup['players'][0]['hand'])} in hand"]
    try:
        events = game.apply({"type": "dogma", "card": engine.cards.by_name[data["name"]]})
        n = 0
        while game.decision and game.decision["kind"] != "action":
            n += 1
            if n > answers:
                return log[:50], f"the card asked more than {answers} questions in one dogma; the trial was stopped"
            p = game.decision["player"]
            d = game.view(p)["decision"]
            log.append(f"player {p + 1} is asked: {d.get('prompt', d['kind'])}")
            events += game.apply(answer_for(game, bots[p], p))
    except RuntimeFault as err:
        return log, str(err)
    stopped = next((e["message"] for e in events if e["type"] == "dogma_stopped"), None)   # an engine budget
    for e in game.events_for(events, 0):   # as the player who used the card saw it
        who = f"player {e['player'] + 1}" if isinstance(e.get("player"), int) else ""
        if isinstance(e.get("card"), dict):
            log.append(f"{who} {e['type']} {card_text(e['card'])}".strip())
        elif e["type"] in ("splay", "special_achievement", "game_over"):
            log.append(f"{who} {e['type']} {e.get('color', '')} {e.get('direction', '')}{e.get('name', '')}".strip())
    return log, stopped


def check_job(source: str, edition: str, sets=()) -> dict:
    """The check as a worker's job (its reply is JSON)."""
    diagnostics, card = check(source, edition, tuple(sets))
    return {"diagnostics": diagnostics, "card": card}


WORKER = [sys.executable, "-m", "innoscript.runtime.serving.sandbox", "--worker"]   # a check worker's command


def run_in_child(source: str, edition: str, seed: int, limits: dict = LIMITS, sets=()):
    """A trial in a limited child process, in a folder of its own removed afterwards: (log lines, error or None).
    Never raises for the card's sake."""
    folder = tempfile.mkdtemp(prefix="innoscript-trial-")
    try:
        return _run_in_child(source, edition, seed, limits, sets, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _run_in_child(source: str, edition: str, seed: int, limits: dict, sets, folder: str):
    request = json.dumps({"source": source, "edition": edition, "seed": seed, "limits": limits, "sets": list(sets)})
    env = dict(os.environ, INNOSCRIPT_TIER_CACHE="0", TMPDIR=folder, PYTHONDONTWRITEBYTECODE="1")
    try:
        proc = subprocess.Popen([sys.executable, "-m", "innoscript.runtime.serving.sandbox"], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True,
                                cwd=folder, env=env)
    except OSError as err:
        return [], f"the sandbox could not start: {err.strerror}"
    try:
        out, _ = proc.communicate(request.encode(), timeout=limits["wall_seconds"])
    except subprocess.TimeoutExpired:
        _kill(proc)
        return [], f"the trial took longer than {limits['wall_seconds']} s and was stopped"
    if proc.returncode == -signal.SIGXCPU or proc.returncode == -signal.SIGKILL:
        return [], f"the trial used more than {limits['cpu_seconds']} s of CPU time and was stopped"
    try:
        result = json.loads(out[:limits["log_bytes"]].decode("utf-8"))
        return [str(x) for x in result["log"]], (None if result["error"] is None else str(result["error"]))
    except (ValueError, KeyError, TypeError):
        return [], f"the trial failed (exit status {proc.returncode})"


def _kill(proc) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except OSError:
        pass
    proc.wait()


def main() -> int:
    import resource
    if sys.argv[1:] == ["--worker"]:
        return serve_jobs({"check": check_job})
    request = json.loads(sys.stdin.read())
    limits = request["limits"]
    cpu = int(limits["cpu_seconds"])
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    resource.setrlimit(resource.RLIMIT_AS, (limits["memory_bytes"], limits["memory_bytes"]))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))     # a trial stopped by SIGXCPU leaves no core file
    try:
        log, error = trial(request["source"], request["edition"], request["seed"], limits["answers"],
                           request.get("sets", ()))
    except MemoryError:
        log, error = [], "the trial ran out of memory and was stopped"
    except RecursionError:
        log, error = [], "the trial nested too deeply and was stopped"
    except Exception as err:   # the card's trial failed; the server is not concerned
        log, error = [], f"the trial failed ({type(err).__name__})"
    sys.stdout.write(json.dumps({"log": log, "error": error}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
