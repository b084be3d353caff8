"""Simulation: the same seed gives the same records whatever the number of workers."""
import json
import subprocess
import sys

from innoscript.runtime import simulate as S


def test_same_results_for_any_number_of_jobs():
    one = S.run("3e", 3, 6, seed=100, jobs=1)
    two = S.run("3e", 3, 6, seed=100, jobs=2)
    assert one == two
    assert all(r["error"] is None for r in one)


def test_cli_summary_json(tmp_path):
    out = tmp_path / "games.jsonl"
    r = subprocess.run([sys.executable, "-m", "innoscript.cli", "simulate", "--players", "2", "--games", "8",
                        "--seed", "3", "--jobs", "1", "--format", "json", "--out", str(out)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    summary = json.loads(r.stdout)
    assert summary["games"] == 8 and summary["errors"] == 0
    assert sum(summary["by_reason"].values()) == 8
    assert len(out.read_text().splitlines()) == 8
