"""The tutorial's files and commands, run as written in docs/tutorial.md."""
import os
import re
import subprocess
import sys
from pathlib import Path

DOC = Path(__file__).resolve().parent.parent / "docs" / "tutorial.md"


def blocks():
    """(title, text) of every fenced block with a title="path"."""
    return re.findall(r'```\w+ title="([^"]+)"\n(.*?)\n```', DOC.read_text(), re.S)


def cli(*args, env):
    return subprocess.run([sys.executable, "-m", "innoscript.cli", *args], capture_output=True, text=True, env=env)


def test_tutorial(tmp_path):
    for title, text in blocks():
        path = tmp_path / title
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text + "\n")
    env = dict(os.environ, INNOSCRIPT_CARDS=str(tmp_path / "my-cards"), INNOSCRIPT_CACHE=str(tmp_path / "cache"))
    card = tmp_path / "my-cards" / "lantern-set" / "age1" / "lantern.inno"

    r = cli("check", str(tmp_path / "my-cards" / "lantern-set"), env=env)
    assert r.returncode == 1
    assert "lantern.inno:13:21: error[E200]: unknown colour 'yelow'" in r.stderr
    assert "did you mean 'yellow'?" in r.stderr

    card.write_text(card.read_text().replace("yelow", "yellow"))
    r = cli("check", str(tmp_path / "my-cards" / "lantern-set"), env=env)
    assert r.returncode == 0 and "1 card file checked, no errors" in r.stdout

    r = cli("render", "Lantern", "--edition", "lantern-set", env=env)
    assert r.returncode == 0, r.stderr
    expected = re.search(r"\$ innoscript render Lantern --edition lantern-set\n(.*?)\n\$", DOC.read_text(), re.S).group(1)
    assert r.stdout.strip() == expected.strip()

    assert cli("dis", "Lantern", "--edition", "lantern-set", env=env).returncode == 0
    r = cli("scenario", str(tmp_path / "my-cards" / "tests"), env=env)
    assert r.returncode == 0 and "1 passed, 0 failed" in r.stdout, r.stdout + r.stderr
    r = cli("coverage", "Lantern", "--edition", "lantern-set", "--scenarios", str(tmp_path / "my-cards" / "tests"),
            env=dict(env, COLUMNS="100"))
    assert r.returncode == 0 and "Lantern" in r.stdout
    expected = re.search(r"\$ innoscript coverage Lantern --edition lantern-set --scenarios my-cards/tests\n(.*?)\n```",
                         DOC.read_text(), re.S).group(1)
    shown = [line.rstrip() for line in expected.splitlines() if line != "..."]    # the doc's lines, as printed
    assert all(line in [x.rstrip() for x in r.stdout.splitlines()] for line in shown), r.stdout
    r = cli("cards", "--edition", "lantern-set", "--format", "json", "--scenarios",
            str(tmp_path / "my-cards" / "tests"), env=env)
    import json
    rows = {c["name"]: c for c in json.loads(r.stdout)["cards"]}
    assert rows["Lantern"]["every_effect_has_scenario"] and len(rows) == 106

    # a set of one's own: an echo effect and a hook, data only
    r = cli("check", "--sets", "lanterns", str(tmp_path / "my-cards" / "sets" / "lanterns"), env=env)
    assert r.returncode == 0 and "2 card files checked, no errors" in r.stdout, r.stdout + r.stderr
    r = cli("render", "Paper Lantern", "--sets", "lanterns", env=env)
    expected = re.search(r'\$ innoscript render "Paper Lantern" --sets lanterns\n(.*?)\n\$', DOC.read_text(), re.S).group(1)
    assert r.returncode == 0 and r.stdout.strip() == expected.strip(), r.stdout + r.stderr
    assert cli("dis", "Paper Lantern", "--sets", "lanterns", env=env).returncode == 0
    r = cli("scenario", str(tmp_path / "my-cards" / "tests-lanterns"), env=env)
    assert r.returncode == 0 and "1 passed, 0 failed" in r.stdout, r.stdout + r.stderr
    scenario = tmp_path / "my-cards" / "tests-lanterns" / "lanterns-echo-and-hook.yaml"
    scenario.write_text(scenario.read_text().replace("hand: [Oars]", "hand: [Pottery]"))
    r = cli("scenario", str(tmp_path / "my-cards" / "tests-lanterns"), env=env)
    assert r.returncode == 1, "a wrong expectation about the hook's draw must fail"
