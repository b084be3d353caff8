"""The optional compiled build (scripts/build-compiled), where Cython and a C compiler are at hand: a
module compiled in a folder of its own is imported in place of its source and plays the same games."""
import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PLAY = """
import json, sys
import innoscript.runtime.state.fingerprints as r
from innoscript.runtime import Game
from innoscript.runtime.bots import GreedyBot, play_bots, play_random
out = []
for seed in range(3):
    g = Game.new("3e", 2, seed, fast=True, sets=["echoes"] if seed == 2 else None)
    play_random(g, seed)
    out.append(g.save())
g = Game.new("4e", 2, 5, fast=True)
play_bots(g, [GreedyBot(1), GreedyBot(2)])      # a bot whose view is no dict, though annotated so
out.append(g.save())
print(json.dumps({"module": r.__file__, "games": out}))
"""


def _play(env):
    r = subprocess.run([sys.executable, "-c", PLAY], env=env, capture_output=True, text=True, cwd=str(ROOT.parent),
                       timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    import json
    return json.loads(r.stdout)


@pytest.mark.skipif(importlib.util.find_spec("Cython") is None or shutil.which("gcc") is None,
                    reason="the compiled build needs Cython and a C compiler")
def test_a_compiled_module_plays_the_same_games(tmp_path):
    out = tmp_path / "compiled"
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "build-compiled"), str(out), "--modules", "state.fingerprints,bots.simple"],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    env = dict(os.environ, INNOSCRIPT_CACHE=str(tmp_path / "cache"))
    pure = _play(env)
    compiled = _play(dict(env, PYTHONPATH=str(out)))
    assert pure["module"].endswith(".py") and compiled["module"].endswith(".so")
    assert compiled["games"] == pure["games"]
    assert not list((ROOT / "runtime").rglob("*.so"))      # the working tree stays pure Python
