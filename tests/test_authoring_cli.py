"""Command-line tools aimed at card authors and rules checkers: output that survives pipes and keeps icons."""
import json
import subprocess
import sys


def run(*args):
    return subprocess.run([sys.executable, "-m", "innoscript", *args], capture_output=True, text=True)


def test_python_dash_m_runs_the_command_line():
    r = run("--version")
    assert r.returncode == 0 and r.stdout.startswith("innoscript ")


def test_diff_keeps_icons():
    r = run("diff", "Alchemy")
    assert r.returncode == 0, r.stderr
    assert "for every three [castle] on your board" in r.stdout
    assert "for every three  on" not in r.stdout


def test_cards_in_a_pipe_are_not_truncated():
    r = run("cards", "--edition", "3e")
    names = [c["name"] for c in json.loads(run("cards", "--edition", "3e", "--format", "json").stdout)["cards"]]
    longest = max(names, key=len)
    assert r.returncode == 0 and longest in r.stdout
    assert "…" not in r.stdout
