"""The mistakes new authors make, each with a precise message, its caret, and a hint that fixes it.

Each file in tests/corpus/mistakes says what it expects in its header:
``# expect: CODE line:col``, ``# message:`` and ``# hint:`` (parts of the text), and
``# fix: OLD => NEW`` (``\\n`` for a new line): following the hint must make the card compile.
Also: warnings (W-codes) that ``check`` reports and ``check --strict`` turns into errors.
"""
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from innoscript.compiler.bundle import compile_card, vocabulary
from innoscript.core.diagnostics import CompileError
from innoscript.core.editions import cards_root, load_edition

CORPUS = Path(__file__).parent / "corpus" / "mistakes"
FILES = sorted(CORPUS.glob("*.inno"))


def header(text: str, key: str) -> str:
    m = re.search(rf"^# {key}: (.*)$", text, re.M)
    assert m, f"no '# {key}:' line"
    return m.group(1)


@pytest.fixture(scope="module")
def vocab():
    ed = load_edition("3e")
    return vocabulary(ed.manifest, ed.card_names)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_mistake_is_explained_and_the_hint_fixes_it(path, vocab):
    text = path.read_text()
    code, line, col = re.match(r"(\w+) (\d+):(\d+)", header(text, "expect")).groups()
    with pytest.raises(CompileError) as info:
        compile_card(text, path.name, vocab)
    d = info.value.diagnostics[0]
    assert (d.code, d.pos.line, d.pos.column) == (code, int(line), int(col)), info.value.render()
    assert header(text, "message") in d.message, d.message
    assert header(text, "hint") in (d.hint or ""), d.hint
    rendered = info.value.render()
    assert f"{path.name}:{line}:{col}:" in rendered and "^" in rendered
    old, new = (s.replace("\\n", "\n") for s in header(text, "fix").split(" => "))
    body = text.split("\n", 4)[4]               # the card, without the header comments
    assert old in body, f"the fix's text {old!r} is not in the card"
    compile_card(body.replace(old, new, 1), path.name, vocab)


def check(*args):
    return subprocess.run([sys.executable, "-m", "innoscript", "check", *args], capture_output=True, text=True)


CARD = 'card "Lamp" {\n    age 1\n    color red\n    icons hex leaf leaf leaf\n    dogma %s\n}\neffect {\n    draw [1]\n}\n'


def test_dogma_icon_not_on_the_card_is_a_warning_and_strict_fails(tmp_path):
    f = tmp_path / "lamp.inno"
    f.write_text(CARD % "crown")
    r = check("--edition", "3e", str(f))
    assert r.returncode == 0 and "1 warning" in r.stdout
    assert f"{f}:5:11: warning[W200]: the dogma icon 'crown' is not among this card's icons" in r.stderr
    r = check("--strict", "--edition", "3e", str(f))
    assert r.returncode == 1 and "error[W200]" in r.stderr
    out = json.loads(check("--edition", "3e", "--format", "json", str(f)).stdout)
    assert out["ok"] is True and out["diagnostics"][0]["severity"] == "warning"
    f.write_text(CARD % "leaf")
    r = check("--strict", "--edition", "3e", str(f))
    assert r.returncode == 0 and "warning" not in r.stdout + r.stderr


def test_a_set_file_replacing_an_inherited_card_is_a_warning(tmp_path):
    ed = tmp_path / "lamp-set"
    ed.mkdir()
    (ed / "edition.json").write_text(json.dumps({"edition": "lamp-set", "label": "Lamp", "inherit": "3e",
                                                 "reuse": "all", "sets": ["base", "lamp"]}))
    src = (cards_root() / "3e" / "age1" / "writing.inno").read_text()
    (ed / "writing.inno").write_text(src.replace("draw [2]", "draw [3]"))
    (ed / "lamp.inno").write_text((CARD % "leaf").replace("age 1\n", "age 1\n    set lamp\n"))
    r = check(str(ed))
    assert r.returncode == 0, r.stderr
    assert "warning[W500]: this file replaces the card 'Writing' that lamp-set inherits from 3e" in r.stderr
    assert "lamp.inno" not in r.stderr
    assert check("--strict", str(ed)).returncode == 1


def test_errors_that_are_not_about_a_place_have_no_line_and_column(tmp_path):
    r = check(str(tmp_path / "missing.inno"))
    assert r.returncode == 1 and f"{tmp_path / 'missing.inno'}: error[E103]" in r.stderr and ":0:0:" not in r.stderr
    r = subprocess.run([sys.executable, "-m", "innoscript", "compile", "--edition", "9e"], capture_output=True, text=True)
    assert r.stderr.startswith("error[E500]: unknown edition '9e'"), r.stderr
