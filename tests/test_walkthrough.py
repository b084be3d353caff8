"""The new-author walk-through (docs/walkthrough.md), run as written.

Every block with a title="path" is written to that path (a later block with the same path replaces the file,
as the author edits it); every `$ innoscript ...` line of a console block is run, and its output must be the
text shown under it (an error's exit status is 1, otherwise 0).
"""
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

DOC = Path(__file__).resolve().parent.parent / "docs" / "walkthrough.md"
BLOCK = re.compile(r'```(\w+)(?: title="([^"]+)")?\n(.*?)\n```', re.S)


def steps():
    for lang, title, body in BLOCK.findall(DOC.read_text(encoding="utf-8")):
        if title:
            yield "file", title, body
        elif lang == "console":
            for cmd in re.split(r"^(?=\$ )", body, flags=re.M):
                if cmd.strip():
                    line, _, expected = cmd.partition("\n")
                    yield "run", line[2:], expected


def test_walkthrough_runs_as_written(tmp_path):
    env = dict(os.environ, INNOSCRIPT_CARDS=str(tmp_path / "my-cards"), INNOSCRIPT_CACHE=str(tmp_path / "cache"))
    ran = 0
    for kind, a, b in steps():
        if kind == "file":
            path = tmp_path / a
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(b + "\n", encoding="utf-8")
            continue
        argv = shlex.split(a)
        assert argv[0] == "innoscript", a
        r = subprocess.run([sys.executable, "-m", "innoscript", *argv[1:]], cwd=tmp_path, env=env,
                           capture_output=True, text=True)
        out = (r.stderr + r.stdout).strip()
        assert "Traceback" not in out, out
        if b.strip():
            assert out == b.strip(), f"$ {a}\n--- the page shows:\n{b.strip()}\n--- the command printed:\n{out}"
        assert r.returncode == (1 if "error[" in b else 0), f"$ {a}: exit status {r.returncode}\n{out}"
        ran += 1
    assert ran >= 8
