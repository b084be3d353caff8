"""Coverage from the VM's pc trace: it counts what really ran."""
import json
import shutil
import subprocess
import sys
from pathlib import Path

SCEN = Path(__file__).parent / "scenarios" / "3e" / "age1"


def run_cov(tmp_path, files, *extra):
    d = tmp_path / "scen"
    d.mkdir()
    for f in files:
        shutil.copy(SCEN / f, d / f)
    r = subprocess.run([sys.executable, "-m", "innoscript.cli", "coverage", "--edition", "3e", "--scenarios", str(d),
                        "--format", "json", *extra], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return {c["name"]: c for c in json.loads(r.stdout)["cards"]}


def test_branches_follow_what_ran(tmp_path):
    cov = run_cov(tmp_path, ["metalworking-repeat.yaml"], "--html", str(tmp_path / "cov.html"))
    eff = cov["Metalworking"]["effects"][0]
    assert eff["executed"] == eff["instructions"]          # castle twice (repeat), then a card kept
    assert eff["branches_taken"] == eff["branches"]
    assert cov["Oars"]["effects"][0]["executed"] == 0
    assert "Metalworking" in (tmp_path / "cov.html").read_text()


def test_an_untaken_branch_is_reported(tmp_path):
    cov = run_cov(tmp_path, ["archery-demand.yaml"])
    eff = cov["Archery"]["effects"][0]
    assert eff["executed"] == eff["instructions"]
    assert cov["Metalworking"]["effects"][0]["executed"] == 0
