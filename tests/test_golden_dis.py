"""Golden disassembly: the bytecode of every card is pinned; INNOSCRIPT_REGEN=1 rewrites the files."""
from pathlib import Path

import pytest

from conftest import regenerate
from innoscript.compiler.disasm import disassemble_card
from innoscript.editions import cards_root

GOLDEN = Path(__file__).parent / "golden" / "dis"


def _cards(bundle):
    return bundle["cards"]


def test_golden_disassembly(bundle3e):
    failures = []
    for card in _cards(bundle3e):
        text = disassemble_card(card, (cards_root() / card["source"]).read_text())
        path = GOLDEN / "3e" / (Path(card["source"]).stem + ".txt")
        if regenerate():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
            continue
        if not path.exists():
            failures.append(f"{path.name}: no golden file (run with INNOSCRIPT_REGEN=1)")
        elif path.read_text() != text:
            failures.append(f"{path.name}: disassembly changed")
    assert not failures, "\n".join(failures)
