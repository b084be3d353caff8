"""Constructs no base card prints: test cards in tests/corpus/constructs/ run their scenarios there.

Each card file reuses a 3rd-edition card's header; its compiled effects replace that card's in a copy of
the edition's bundle, so the scenarios beside it (same stem, then '--' and the case) run the construct
through the real engine. A card file whose first line is '# sets: NAME' is compiled and run with that set
in play (its scenarios say 'sets: [NAME]'). Each test card's disassembly and English are pinned."""
import copy
from pathlib import Path

import pytest

from conftest import regenerate
from innoscript.compiler.bundle import compile_card, edition_vocabulary, load_bundle, parse_card
from innoscript.compiler.tools.disasm import disassemble_card
from innoscript.compiler.tools.render import render_text
from innoscript.core.editions import load_edition
from innoscript.runtime.tools import scenario

HERE = Path(__file__).parent / "corpus" / "constructs"
GOLDEN = Path(__file__).parent / "golden" / "dis" / "constructs"
CARDS = sorted(HERE.glob("*.inno"))


def _sets(path) -> list[str]:
    first = path.read_text().split("\n", 1)[0]
    return first.split(":", 1)[1].split() if first.startswith("# sets:") else []


def _vocab(path):
    return edition_vocabulary(load_edition("3e", sets=_sets(path)))


def _compile(path):
    return compile_card(path.read_text(), path.name, _vocab(path)).data


def _bundle_for(path, bundle3e):
    b = copy.deepcopy(load_bundle("3e", sets=_sets(path)) if _sets(path) else bundle3e)
    compiled = _compile(path)
    card = next(c for c in b["cards"] if c["name"] == compiled["name"])
    card["effects"] = compiled["effects"]
    # the header too (a test card of a printed form such as blank icons and no featured icon: 'no effect')
    card["icons"], card["dogma"] = compiled["icons"], compiled["dogma"]
    for key in ("no_effect", "board_value"):
        card.pop(key, None)
        if key in compiled:
            card[key] = compiled[key]
    return b


SCENARIOS = sorted(HERE.glob("*.yaml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_construct_scenario(path, bundle3e):
    card = HERE / (path.stem.split("--")[0] + ".inno")
    out = scenario.run(path, _bundle_for(card, bundle3e))
    assert out.passed, "\n".join(out.failures)


@pytest.mark.parametrize("path", CARDS, ids=lambda p: p.stem)
def test_every_test_card_has_a_scenario(path):
    assert any(s.stem.split("--")[0] == path.stem for s in SCENARIOS), f"no scenario runs {path.name}"


@pytest.mark.parametrize("path", CARDS, ids=lambda p: p.stem)
def test_golden_disassembly_and_english(path):
    text = path.read_text()
    data = _compile(path)
    out = disassemble_card(data, text) + "\n---- English\n" + render_text(parse_card(text, path.name, _vocab(path))[0]) + "\n"
    golden = GOLDEN / (path.stem + ".txt")
    if regenerate():
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(out)
    assert golden.read_text() == out, "disassembly or English changed (INNOSCRIPT_REGEN=1 rewrites it)"
