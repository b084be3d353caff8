"""The command line: exit codes, JSON output, no tracebacks."""
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

from innoscript.core.editions import cards_root


def run(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "innoscript.cli", *args], capture_output=True, text=True, cwd=cwd)


def test_check_clean():
    r = run("check")
    assert r.returncode == 0, r.stderr
    assert "no errors" in r.stdout


def test_check_reports_misspelt_icon_with_caret(tmp_path):
    src = (cards_root() / "3e" / "age1" / "metalworking.inno").read_text()
    ed = tmp_path / "3e"
    shutil.copytree(cards_root() / "3e", ed)
    bad = ed / "age1" / "metalworking.inno"
    bad.write_text(src.replace("icons castle castle hex castle", "icons castle castel hex castle"))
    r = run("check", str(bad))
    assert r.returncode == 1
    assert f"{bad}:4:18: error[E201]: unknown icon 'castel'" in r.stderr
    assert "^^^^^^" in r.stderr and "did you mean 'castle'?" in r.stderr
    assert "Traceback" not in r.stderr


def test_check_json(tmp_path):
    bad = tmp_path / "bad.inno"
    bad.write_text('card "X" {\n age 1\n color red\n icons hex leaf leaf leaf\n dogma leaf\n}\neffect {\n score drawm\n}\n')
    r = run("check", "--edition", "3e", "--format", "json", str(bad))
    assert r.returncode == 1
    out = json.loads(r.stdout)
    assert out["ok"] is False
    assert out["diagnostics"][0]["code"] == "E204"
    assert (out["diagnostics"][0]["line"], out["diagnostics"][0]["column"]) == (8, 8)


def test_check_bad_bytes_and_missing_files(tmp_path):
    bad = tmp_path / "bin.inno"
    bad.write_bytes(b"\xff\xfe\x00card")
    r = run("check", "--edition", "3e", str(bad), str(tmp_path / "nope.inno"))
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "E103" in r.stderr


def test_compile_to_file_is_deterministic(tmp_path):
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    assert run("compile", "--edition", "3e", "-o", str(a)).returncode == 0
    assert run("compile", "--edition", "3e", "-o", str(b)).returncode == 0
    assert a.read_bytes() == b.read_bytes()


def test_dis_and_unknown_card():
    r = run("dis", "Metalworking", "--edition", "3e")
    assert r.returncode == 0 and "HAS_ICON" in r.stdout and "| draw and reveal [1] as drawn" in r.stdout
    r = run("dis", "Metalwork", "--edition", "3e")
    assert r.returncode == 1 and "did you mean 'Metalworking'" in r.stderr


def test_unknown_edition():
    r = run("compile", "--edition", "9e")
    assert r.returncode == 2 and "unknown edition" in r.stderr and "Traceback" not in r.stderr
