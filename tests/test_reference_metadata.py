"""Every card file's metadata matches the reference facts of its edition."""
import json

import pytest

from conftest import REFERENCE


@pytest.fixture(scope="module")
def reference3():
    ref = json.loads(REFERENCE.read_text())
    return {c["name"]: c for c in ref["editions"]["3"]["cards"]}


def test_metadata_matches_reference(bundle3e, reference3):
    for card in bundle3e["cards"]:
        ref = reference3.get(card["name"])
        assert ref is not None, f"{card['name']} is not a 3rd-edition card"
        assert card["age"] == ref["age"], card["name"]
        assert card["color"] == ref["color"], card["name"]
        assert card["icons"] == ref["icon_list"], card["name"]
        assert card["dogma"] == ref["dogma_icon"], card["name"]
        assert len(card["effects"]) == len(ref["dogma_effects"]), card["name"]
        kinds = ["demand" if e["is_demand"] else "non_demand" for e in ref["dogma_effects"]]
        assert [e["kind"] for e in card["effects"]] == kinds, card["name"]


def test_all_age1_cards_present(bundle3e, reference3):
    have = {c["name"] for c in bundle3e["cards"]}
    want = {n for n, c in reference3.items() if c["age"] == 1}
    assert want <= have
