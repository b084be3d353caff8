"""The mistakes new authors make, each with a precise message, its caret, and a hint that fixes it.

Each file in tests/corpus/mistakes says what it expects in its header:
``# expect: CODE line:col``, ``# message:`` and ``# hint:`` (parts of the text), and
``# fix: OLD => NEW`` (``\\n`` for a new line): following the hint must make the card compile.
Also: warnings (W-codes) that ``check`` reports and ``check --strict`` turns into errors.
"""
import json
import os
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


def first_error(vocab, body: str, head: str = "effect {"):
    text = CARD.replace("effect {\n    draw [1]\n}\n", f"{head}\n    {body}\n}}\n") % "leaf"
    with pytest.raises(CompileError) as info:
        compile_card(text, "x.inno", vocab)
    d = info.value.diagnostics[0]
    return d.code, (d.pos.line, d.pos.column), d.message, d.hint


@pytest.mark.parametrize("body, col, fixed", [
    ("draw an [3] as drawn", 10, "draw [3]"),
    ("draw one [3]", 10, "draw [3]"),
    ("draw and score ten [value(1) + 2]", 20, "draw and score 10 [value(1) + 2]"),
    ("draw 2 a [3]", 12, "draw 2 [3]"),
    ("draw (1 + 1) two [3]", 18, "draw (1 + 1) [3]"),
])
def test_english_before_a_draws_age_is_explained_at_the_word(vocab, body, col, fixed):
    code, pos, message, hint = first_error(vocab, body)
    assert (code, pos) == ("E100", (8, col)) and f"'{fixed}'" in message and hint == f"write '{fixed}'"


def test_a_set_or_a_bound_card_type_before_a_draws_age_is_not_english(vocab):
    assert first_error(vocab, "draw echoes [1]")[::2] == ("E213", "'echoes' is not a set in play")
    compile_card(CARD.replace("draw [1]", "choose set as two\n    draw two [1]") % "leaf", "x.inno", vocab)


@pytest.mark.parametrize("body, pos", [
    ("draw [1] as drawn\n    score drwan", (9, 11)),
    ("draw [1] as drawn\n    if drawn has drwan {\n        score drawn\n    }", (9, 18)),
    ("choose icon as drawn\n    score all cards with drwan from your hand", (9, 26)),
    ("choose icon as drawn\n    if icons(drwan, your board) > 2 {\n        draw [2]\n    }", (9, 14)),
    ("choose icon as drawn\n    if count(your hand with drwan) > 2 {\n        draw [2]\n    }", (9, 29)),
    ("each drawn in your hand {\n        score drwan\n    }", (9, 15)),
])
def test_a_misspelt_binding_is_suggested_before_an_icon(vocab, body, pos):
    code, at, _, hint = first_error(vocab, body)
    assert (code, at, hint) == ("E204", pos, "did you mean 'drawn'?")


def test_a_misspelt_binding_is_suggested_before_a_colour_and_an_effect_parameter_too(vocab):
    assert first_error(vocab, "choose color as reds\n    splay redz left")[3] == "did you mean 'reds'?"
    assert first_error(vocab, "draw [levl]", "effect (level = 1) {")[3] == "did you mean 'level'?"
    code, _, message, hint = first_error(vocab, "draw [level]\n    repeat with levle = 2", "effect (level = 1) {")
    assert code == "E204" and "repeat with" in message and hint == "did you mean 'level'?"
    # an icon where a binding spelt like it was meant: the binding is the hint
    assert first_error(vocab, "draw [1] as leafs\n    score leaf")[::3] == ("E300", "did you mean 'leafs'?")
    # no binding close: the vocabulary, as before
    assert first_error(vocab, "draw [1] as drawn\n    splay rde left")[3] == "did you mean 'red'?"


BLANK = CARD.replace("icons hex leaf leaf leaf", "icons - hex leaf leaf")


def test_dogma_icon_not_on_a_card_with_an_empty_position_is_a_warning_everywhere(tmp_path):
    from innoscript.lsp import diagnostics_for
    ed = tmp_path / "lamp-set"
    ed.mkdir()
    (ed / "edition.json").write_text(json.dumps({"edition": "lamp-set", "label": "Lamp", "inherit": "3e",
                                                 "reuse": "all", "sets": ["base", "lamp"]}))
    f = ed / "lamp.inno"
    f.write_text((BLANK % "crown").replace("age 1\n", "age 1\n    set lamp\n"))
    said = "warning[W200]: the dogma icon 'crown' is not among this card's icons (- hex leaf leaf)"
    r = check(str(f))
    assert r.returncode == 0 and f"{f}:6:11: {said}" in r.stderr, r.stderr
    assert check("--strict", str(f)).returncode == 1
    r = subprocess.run([sys.executable, "-m", "innoscript", "compile", "--edition", "lamp-set", "-o",
                        str(tmp_path / "b.json")], capture_output=True, text=True,
                       env={**os.environ, "INNOSCRIPT_CARDS": str(tmp_path)})
    assert r.returncode == 0 and f"lamp-set/lamp.inno:6:11: {said}" in r.stderr, r.stderr
    (d,) = diagnostics_for(f.read_text(), f.as_uri())
    assert (d.code, d.severity, d.range.start.line, d.range.start.character) == ("W200", 2, 5, 10)


@pytest.mark.parametrize("icons, dogma, why", [
    ("music_note leaf leaf leaf", "music_note", "'music_note' counts as the hex"),
    ("hex leaf bonus 2 leaf", "bonus", "'bonus' is a cell, not an icon"),
])
def test_dogma_icon_that_is_a_sets_hex_or_cell_is_a_warning(tmp_path, icons, dogma, why):
    f = tmp_path / "lamp.inno"
    f.write_text(CARD.replace("hex leaf leaf leaf", icons) % dogma)
    r = check("--edition", "4e", "--sets", "echoes", str(f))
    assert r.returncode == 0 and f"{f}:5:11: warning[W200]: the dogma icon '{dogma}'" in r.stderr, r.stderr
    assert f"({icons}): {why}" in r.stderr
