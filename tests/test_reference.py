"""The language reference covers every construct of the grammar, and its examples compile."""
import json
from pathlib import Path

import pytest

from innoscript.compiler.bundle import compile_card, vocabulary
from innoscript.compiler.parser import lark_parser
from innoscript.core.diagnostics import CompileError
from innoscript.core.editions import available_sets, load_edition

NOTES = json.loads((Path(__file__).resolve().parent.parent / "compiler" / "tools" / "data" / "constructs.json").read_text())
HEADER = 'card "X" {\n age 1\n color red\n icons hex leaf leaf leaf\n dogma leaf\n}\n'
PREAMBLE = "    draw and reveal [1] as drawn\n    choose player from opponents as target\n"


def grammar_constructs():
    return {str(r.alias or r.origin.name) for r in lark_parser().rules if not str(r.alias or r.origin.name).startswith("_")}


def test_every_construct_is_documented():
    missing = grammar_constructs() - set(NOTES)
    assert not missing, f"undocumented constructs: {sorted(missing)}"
    stale = set(NOTES) - grammar_constructs()
    assert not stale, f"documented constructs the grammar no longer has: {sorted(stale)}"


# a made-up set with game-wide zones (the vault), for the constructs no shipped set uses yet
TEST_SETS = Path(__file__).resolve().parent / "corpus" / "shared-zones"


@pytest.mark.parametrize("name", sorted(n for n, v in NOTES.items() if v[2] in ("stmt", "effect")))
def test_examples_compile(name, monkeypatch):
    meaning, example, kind = NOTES[name]
    header = HEADER.replace("leaf leaf leaf", "leaf leaf echo") if example.startswith("echo") else HEADER
    text = header + (example if kind == "effect" else f"demand {{\n{PREAMBLE}    {example}\n}}\n")
    errors = []
    for edition in ("3e", "4e", "3e+test"):     # set constructs need their set in play, and a set's words its edition's
        if edition == "3e+test":
            monkeypatch.setenv("INNOSCRIPT_CARDS", str(TEST_SETS))
            edition = "3e"
        ed = load_edition(edition, sets=available_sets(edition))
        vocab = vocabulary(ed.manifest, ed.card_names, ed.sets)
        try:
            compile_card(text, f"{name}.inno", vocab)
            break
        except CompileError as err:
            errors.append(err.render())
    else:
        pytest.fail(f"{name}: " + "\n".join(errors))
    # the renderer covers every construct: each example renders to English
    from innoscript.compiler.bundle import parse_card
    from innoscript.compiler.tools.render import render_card
    card, _ = parse_card(text, f"{name}.inno", vocab)
    for effect_text in render_card(card)["effects"]:
        assert effect_text and "None" not in effect_text and "{" not in effect_text, (name, effect_text)
