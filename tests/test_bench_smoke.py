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
    for ed in ("3e", "4e"):     # the player counts, and a turn with Echoes against a base turn
        assert data[f"games_per_second_{ed}_p3"] > 0 and data[f"games_per_second_{ed}_p4"] > 0
        assert data["echoes_turn_cost"][ed]["new_by_clock"] > 0
        assert data["set_turn_cost"][ed]["cities"]["new"] > 0 and data["set_turn_cost"][ed]["artifacts"]["new"] > 0
        assert "old" not in data["set_turn_cost"][ed]["cities"]     # the baseline predates Cities: this tree only
    assert data["set_turn_cost"]["4e"]["unseen"]["new"] > 0 and "unseen" not in data["set_turn_cost"]["3e"]


def test_instruction_counts_subtract_the_start_up(tmp_path, monkeypatch):
    """The callgrind figure: the count of a run of no games is subtracted from a run of N, per game and per
    turn. A stand-in valgrind (on PATH) runs the command and reports a count made of the games played."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("bench_mod", ROOT / "benchmarks" / "bench.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    fake = tmp_path / "valgrind"
    fake.write_text("#!/bin/sh\nshift 2\nout=$(\"$@\")\nn=$(printf '%s' \"$out\" | tr -dc 0-9 | cut -c1-3)\n"
                    "echo \"$out\"\necho \"==1== Collected : $((5000000 + ${n:-0} * 1000000))\" >&2\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}:{__import__('os').environ['PATH']}")
    got = bench.task_callgrind("3e", 1)
    turns = got["turns_per_game"]
    assert turns > 10 and got["minstr_per_game"] == turns and got["minstr_per_turn"] == 1.0
    fake.write_text("#!/bin/sh\nexit 1\n")
    assert "unavailable" in bench.task_callgrind("3e", 1)
