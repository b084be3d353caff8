"""Every card of each edition matches the reference facts: name, age, colour,
the four icon positions, the dogma icon, and (once scripted) its effects' kinds
(the facts as the project keeps them: tests/card_facts.py)."""
import pytest

from card_facts import load
from innoscript.compiler.bundle import compile_edition
from innoscript.core.editions import load_edition

EDITIONS = {"3e": "3", "4e": "4"}


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_metadata_matches_reference(edition):
    ref = {c["name"]: c for c in load()["editions"][EDITIONS[edition]]["cards"]}
    bundle = compile_edition(load_edition(edition))
    have = {c["name"]: c for c in bundle["cards"]}
    assert sorted(have) == sorted(ref), "the edition's cards are exactly the reference's"
    for name, card in have.items():
        r = ref[name]
        assert (card["age"], card["color"], card["icons"], card["dogma"]) == \
            (r["age"], r["color"], r["icon_list"], r["dogma_icon"]), name
        if card["effects"]:
            assert [e["kind"] for e in card["effects"]] == r["effects"], name


def test_every_third_edition_card_is_scripted(bundle3e):
    assert all(c["effects"] for c in bundle3e["cards"])
