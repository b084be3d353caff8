"""Another player acting ('P does { ... }'): test cards in tests/corpus/acting/ run their scenarios there.

Each card file reuses a 3rd-edition card's header; its compiled effects replace that card's in a copy of
the edition's bundle, so the scenarios beside it run the construct through the real engine."""
import copy
from pathlib import Path

import pytest

from conftest import regenerate
from innoscript.compiler.bundle import compile_card, vocabulary
from innoscript.compiler.tools.disasm import disassemble_card
from innoscript.core.editions import load_edition
from innoscript.runtime.tools import scenario

HERE = Path(__file__).parent / "corpus" / "acting"
GOLDEN = Path(__file__).parent / "golden" / "dis" / "acting"


@pytest.fixture(scope="module")
def bundle(bundle3e):
    ed = load_edition("3e")
    vocab = vocabulary(ed.manifest, ed.card_names)
    b = copy.deepcopy(bundle3e)
    for path in sorted(HERE.glob("*.inno")):
        compiled = compile_card(path.read_text(), path.name, vocab).data
        card = next(c for c in b["cards"] if c["name"] == compiled["name"])
        card["effects"] = compiled["effects"]
    return b


@pytest.mark.parametrize("path", sorted(HERE.glob("*.yaml")), ids=lambda p: p.stem)
def test_another_player_acting(path, bundle):
    out = scenario.run(path, bundle)
    assert out.passed, "\n".join(out.failures)


@pytest.mark.parametrize("path", sorted(HERE.glob("*.inno")), ids=lambda p: p.stem)
def test_golden_disassembly(path):
    ed = load_edition("3e")
    text = path.read_text()
    dis = disassemble_card(compile_card(text, path.name, vocabulary(ed.manifest, ed.card_names)).data, text)
    golden = GOLDEN / (path.stem + ".txt")
    if regenerate():
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(dis)
    assert golden.read_text() == dis, "disassembly changed (INNOSCRIPT_REGEN=1 rewrites it)"
    assert "ACT " in dis and "ACT_END" in dis
