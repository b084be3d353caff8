"""The corpus of bad card files: each reports its expected code at its expected position."""
import re
from pathlib import Path

import pytest

from innoscript.compiler.bundle import compile_card, vocabulary
from innoscript.core.diagnostics import CODES, CompileError
from innoscript.core.editions import load_edition

CORPUS = Path(__file__).parent / "corpus" / "bad"
FILES = sorted(CORPUS.glob("*.inno"))


@pytest.fixture(scope="module")
def vocab():
    ed = load_edition("3e")
    return vocabulary(ed.manifest, ed.card_names)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_bad_file_reports_code_and_position(path, vocab):
    text = path.read_text()
    m = re.match(r"# expect: (E\d{3}) (\d+):(\d+)", text)
    assert m, f"{path.name} lacks an '# expect: CODE line:col' header"
    code, line, col = m.group(1), int(m.group(2)), int(m.group(3))
    with pytest.raises(CompileError) as info:
        compile_card(text, path.name, vocab)
    first = info.value.diagnostics[0]
    assert (first.code, first.pos.line, first.pos.column) == (code, line, col), info.value.render()
    rendered = info.value.render()
    assert rendered.startswith(f"{path.name}:{line}:{col}: error[{code}]:")
    assert "^" in rendered  # the caret under the source line
    assert "Traceback" not in rendered


def test_corpus_covers_most_codes():
    used = {re.match(r"# expect: (E\d{3})", p.read_text()).group(1) for p in FILES}
    compile_codes = {c for c in CODES if c[0] == "E" and c[1] in "123"}   # W-codes: tests/test_author_mistakes.py
    missing = compile_codes - used - {"E103"}  # E103 (not UTF-8) is tested through the CLI
    assert not missing, f"codes without a corpus file: {sorted(missing)}"


def test_all_errors_in_one_run(vocab):
    text = ('card "X" {\n age 1\n color rde\n icons hex leaf leaf castel\n dogma leaf\n}\n'
            'effect {\n splay purpel left\n draw [valeu(1)]\n}\n')
    with pytest.raises(CompileError) as info:
        compile_card(text, "x.inno", vocab)
    codes = [d.code for d in info.value.diagnostics]
    assert codes == ["E200", "E201", "E200", "E205"]


def test_suggestions(vocab):
    text = 'card "X" {\n age 1\n color red\n icons castle castel hex castle\n dogma castle\n}\neffect {\n draw [1]\n}\n'
    with pytest.raises(CompileError) as info:
        compile_card(text, "x.inno", vocab)
    assert info.value.diagnostics[0].hint == "did you mean 'castle'?"


def test_misspelt_card_name_suggests(vocab):
    text = ('card "X" {\n age 1\n color red\n icons hex leaf leaf leaf\n dogma leaf\n}\n'
            'effect {\n return a top card other than "Masnory" from all players\' boards\n}\n')
    with pytest.raises(CompileError) as info:
        compile_card(text, "x.inno", vocab)
    assert info.value.diagnostics[0].hint == "did you mean 'Masonry'?"
