"""Golden disassembly: the bytecode of every card is pinned; INNOSCRIPT_REGEN=1 rewrites the files."""
from pathlib import Path

import pytest

from conftest import regenerate
from innoscript.compiler.tools.disasm import disassemble_card
from innoscript.core.editions import cards_root

GOLDEN = Path(__file__).parent / "golden" / "dis"


def _cards(bundle):
    return bundle["cards"]


def test_golden_disassembly(bundle3e):
    _compare_with_golden(_cards(bundle3e), "3e")


def _compare_with_golden(cards, edition: str) -> None:
    """Each card's disassembly against its golden file (INNOSCRIPT_REGEN=1 rewrites them)."""
    failures = []
    for card in cards:
        text = disassemble_card(card, (cards_root() / card["source"]).read_text())
        path = GOLDEN / edition / (Path(card["source"]).stem + ".txt")
        if regenerate():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
            continue
        if not path.exists():
            failures.append(f"{path.name}: no golden file (run with INNOSCRIPT_REGEN=1)")
        elif path.read_text() != text:
            failures.append(f"{path.name}: disassembly changed")
    assert not failures, "\n".join(failures)


def test_golden_disassembly_of_constructs_only_other_editions_use():
    """A 4th-edition card is pinned too when it uses a construct no 3rd-edition card uses (a pile's
    top or bottom cards, 'directly under', ...), so every construct has a golden disassembly."""
    from innoscript.compiler.bundle import compile_edition, parse_card, vocabulary
    from innoscript.compiler.tools.constructs import constructs_of
    from innoscript.core.editions import load_edition

    def used(ed):
        vocab = vocabulary(ed.manifest, ed.card_names)
        return {s.relpath: constructs_of(parse_card(s.text, s.relpath, vocab)[0]) for s in ed.sources}

    ed3, ed4 = load_edition("3e"), load_edition("4e")
    seen3 = set().union(*used(ed3).values())
    pinned = {p for p, ids in used(ed4).items() if ids - seen3}
    assert pinned, "no 4th-edition card uses a construct of its own"
    _compare_with_golden([c for c in compile_edition(ed4)["cards"] if c["source"] in pinned], "4e")


def test_effects_are_numbered_as_printed_in_every_tool():
    """An echo effect is named by its cell and the dogma effects keep their printed numbers, in the
    disassembly, the renderer and the coverage report alike."""
    from innoscript.compiler.bundle import load_bundle
    from innoscript.compiler.tools.disasm import disassemble_card
    from innoscript.core.effects import effect_labels
    bundle = load_bundle("4e", sets=["echoes"])
    bangle = next(c for c in bundle["cards"] if c["name"] == "Bangle")
    assert effect_labels(bangle["effects"]) == ["echo", "1", "2"]
    text = disassemble_card(bangle)
    assert "== echo effect ==" in text and "== effect 1: non_demand ==" in text and "effect 3" not in text
