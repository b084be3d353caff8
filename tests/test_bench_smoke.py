"""The benchmark script runs and reports every figure (timings are not asserted: they are measured)."""
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_benchmarks_run(tmp_path):
    out = tmp_path / "bench.json"
    r = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench.py"), "--quick", "--json", str(out)],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    data = json.loads(out.read_text())
    for key in ("cold_compile_both_editions_s", "cold_compile_fresh_process_s", "warm_load_both_editions_s",
                "help_s", "vm_instructions_per_second", "games_per_second_3e", "games_per_second_4e"):
        assert data[key] > 0, key
    assert set(data["vm_vs_python"]) == {"Writing", "Metalworking", "Clothing", "Pottery", "Mysticism"}
