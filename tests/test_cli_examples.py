"""Every example in every subcommand's --help runs and succeeds, not only parses.

Each runs in a scratch folder that holds what the examples name (a card folder `mycards/`, a card `x.inno`, the
reference as `innovation-base-cards.json`/`REF.json` and the sets' as `innovation-expansion-cards.json`, a small
edition `myset` with its reference `mine.json`, a saved game); long runs are cut to one game on one worker, and commands that run scenarios run one age's (the whole
scenario suite is run by test_scenarios.py). Interactive commands (a terminal game, the servers, the
language server) are run by their own tests, listed here so a new interactive example must name its test."""
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import EXPANSIONS, NO_REFERENCE, REFERENCE, ROOT

INTERACTIVE = {   # example -> the test file that drives that command
    "innoscript play": "test_terminal.py",
    "innoscript serve": "test_protocol_browser.py",
    "innoscript lsp": "test_lsp.py",
}


def _examples() -> list[str]:
    import argparse
    from innoscript.cli import build_parser
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    out = []
    for cmd in sub.choices.values():
        for line in cmd.format_help().split("examples:", 1)[1].splitlines():
            if line.startswith("  innoscript"):
                out.append(re.split(r"\s{2,}", line.strip())[0])
    return out


EXAMPLES = _examples()


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    d = tmp_path_factory.mktemp("examples")
    for name in ("cards", "tests"):
        os.symlink(ROOT / name, d / name)
    (d / "mycards" / "age1").mkdir(parents=True)
    (d / "mycards" / "edition.json").write_text(json.dumps({"edition": "mycards", "label": "one's own cards",
                                                             "inherit": "3e", "reuse": "all", "sets": ["base", "mine"]}))
    if REFERENCE.exists() and EXPANSIONS.exists():
        for name in ("innovation-base-cards.json", "REF.json"):
            shutil.copy(REFERENCE, d / name)
        shutil.copy(EXPANSIONS, d / "innovation-expansion-cards.json")
    own = d / "own" / "myset"
    (own / "age1").mkdir(parents=True)
    (own / "edition.json").write_text(json.dumps({"edition": "myset", "label": "a set of one's own", "inherit": "3e",
                                                  "reuse": "all", "sets": ["base", "myset"]}))
    windmill = ('card "Windmill" {\n    age 1\n    color green\n    icons hex crown leaf crown\n    dogma crown\n'
                '    set SET\n}\n\neffect {\n    draw [2] as drawn\n    if drawn is green {\n        score drawn\n    }\n}\n')
    (own / "age1" / "windmill.inno").write_text(windmill.replace("SET", "myset"))
    (d / "mycards" / "age1" / "windmill.inno").write_text(windmill.replace("SET", "mine"))
    shutil.copy(ROOT / "cards" / "3e" / "age1" / "pottery.inno", d / "x.inno")
    (d / "mine.json").write_text(json.dumps({"editions": {"myset": {"cards": [
        {"name": "Windmill", "dogma_effects": [{"text": "Draw a [2]. If it is green, score it."}]}]}}}))
    from innoscript.runtime.api.game import Game
    game = Game.new("3e", 2, 1)
    (d / "saved.json").write_text(json.dumps(game.to_json()))
    return d


def _argv(example: str) -> tuple[list[str], str | None]:
    pipe = example.split("|")[0].split(">")[0]
    argv = shlex.split(pipe)[1:]
    if argv[0] in ("simulate", "soak"):   # the same command on one game, one worker
        if "--games" in argv:
            argv[argv.index("--games") + 1] = "1"
        else:
            argv += ["--games", "1"]
        if "--jobs" not in argv:
            argv += ["--jobs", "1"]
    if argv[0] in ("cards", "coverage") and "--scenarios" not in argv:
        edition = argv[argv.index("--edition") + 1] if "--edition" in argv else "3e"
        argv += ["--scenarios", f"tests/scenarios/{edition}/age1"]
    if argv[0] == "scenario":
        argv = [a + "/3e/age1" if a == "tests/scenarios" else a + "/age1" if re.fullmatch(r"tests/scenarios/\w+", a)
                else a for a in argv]
    redirect = example.split(">")[1].strip() if ">" in example else None
    return argv, redirect


def test_every_example_is_run_here_or_by_a_named_test():
    assert len(EXAMPLES) >= 30
    for ex in EXAMPLES:
        for prefix, test in INTERACTIVE.items():
            if ex.startswith(prefix):
                assert (ROOT / "tests" / test).exists(), f"{ex!r}: {test} does not exist"


@pytest.mark.parametrize("example", [e for e in EXAMPLES if not e.startswith(tuple(INTERACTIVE))])
def test_example_runs(example, folder):
    argv, redirect = _argv(example)
    printed = ("innovation-base-cards.json", "REF.json", "innovation-expansion-cards.json")
    if any(a in printed for a in argv) and not (folder / "REF.json").exists():
        pytest.skip(NO_REFERENCE)
    env = dict(os.environ, INNOSCRIPT_CARDS=str(folder / "own"))
    r = subprocess.run([sys.executable, "-m", "innoscript", *argv], cwd=folder, capture_output=True, text=True,
                       env=env, timeout=300)
    assert r.returncode == 0, f"{example}\n{r.stdout[-1500:]}\n{r.stderr[-1500:]}"
    assert r.stdout.strip() or "-o" in argv, f"{example}: no output"
    if redirect:   # a completion script: written to stdout, not installed here
        assert "innoscript" in r.stdout
    assert "Traceback" not in r.stderr
