"""Simulation: the same seed gives the same records whatever the number of workers or the backend."""
import json
import subprocess
import sys

import pytest

from innoscript.runtime.tools import simulate as S


def test_same_results_for_any_number_of_jobs():
    one = S.run("3e", 3, 6, seed=100, jobs=1, bots=("greedy",))
    two = S.run("3e", 3, 6, seed=100, jobs=2, bots=("greedy",))
    assert one == two
    assert all(r["error"] is None for r in one)
    assert all(r["bots"] == ["greedy", "random", "random"] for r in one)


def test_ray_backend_gives_the_same_records():
    pytest.importorskip("ray")
    local = S.run("3e", 2, 4, seed=7, jobs=1)
    on_ray = S.run("3e", 2, 4, seed=7, jobs=2, backend="ray")
    assert on_ray == local


def test_summary_and_cli(tmp_path):
    out = tmp_path / "games.jsonl"
    r = subprocess.run([sys.executable, "-m", "innoscript.cli", "simulate", "--players", "2", "--games", "4",
                        "--seed", "3", "--jobs", "1", "--bots", "greedy,random", "--format", "json",
                        "--out", str(out), "--plots", str(tmp_path / "plots")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    summary = json.loads(r.stdout)
    assert summary["games"] == 4 and summary["errors"] == 0
    assert sum(summary["by_reason"].values()) == 4
    assert set(summary["win_rate_by_bot"]) == {"greedy", "random"}
    used = [c for c in summary["cards"].values() if c["users"]]
    assert used and all(0 <= c["user_win_rate"] <= 1 for c in used)
    assert len(out.read_text().splitlines()) == 4
    assert sorted(p.name for p in (tmp_path / "plots").iterdir()) == ["card-win-rates.png", "dogmas.png", "summary.png"]
