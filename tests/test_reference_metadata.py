"""Every card of each edition matches the reference facts: name, age, colour,
the four icon positions, the dogma icon, and (once scripted) its effects' kinds."""
import json

import pytest

from conftest import REFERENCE
from innoscript.compiler.bundle import compile_edition
from innoscript.core.editions import load_edition

EDITIONS = {"3e": "3", "4e": "4"}


@pytest.fixture(scope="module")
def reference():
    return json.loads(REFERENCE.read_text())


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_metadata_matches_reference(edition, reference):
    ref = {c["name"]: c for c in reference["editions"][EDITIONS[edition]]["cards"]}
    bundle = compile_edition(load_edition(edition))
    have = {c["name"]: c for c in bundle["cards"]}
    assert sorted(have) == sorted(ref), "the edition's cards are exactly the reference's"
    for name, card in have.items():
        r = ref[name]
        assert (card["age"], card["color"], card["icons"], card["dogma"]) == \
            (r["age"], r["color"], r["icon_list"], r["dogma_icon"]), name
        if card["effects"]:
            kinds = ["demand" if e["is_demand"] else "non_demand" for e in r["dogma_effects"]]
            assert [e["kind"] for e in card["effects"]] == kinds, name


def test_every_third_edition_card_is_scripted(bundle3e):
    assert all(c["effects"] for c in bundle3e["cards"])
