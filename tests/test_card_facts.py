"""The card facts the project keeps (tests/data/card-facts.json) are exactly the printed reference's facts.

Without the reference this skips; the metadata tests still run on the kept facts."""
import json

from card_facts import FACTS, dumps, extract, load
from conftest import EXPANSIONS, REFERENCE, needs_reference, regenerate


@needs_reference
def test_the_kept_facts_are_the_references():
    fresh = extract(json.loads(REFERENCE.read_text(encoding="utf-8")), json.loads(EXPANSIONS.read_text(encoding="utf-8")))
    if regenerate():
        FACTS.write_text(dumps(fresh), encoding="utf-8")
    assert load() == fresh, "the reference's card facts changed: INNOSCRIPT_REGEN=1 python -m pytest tests/test_card_facts.py"


def test_the_kept_facts_hold_no_printed_text():
    kept = load()
    keys = {k for e in kept["editions"].values() for c in e["cards"] for k in c}
    keys |= {k for e in kept["editions"].values() for s in e.get("sets", {}).values() for c in s["cards"] for k in c}
    assert keys == {"name", "age", "color", "icon_list", "dogma_icon", "effects"}
    words = {w for e in kept["editions"].values() for c in e["cards"] for w in c["effects"]}
    assert words <= {"echo", "demand", "compel", "non_demand"}
    assert len(kept["editions"]["3"]["cards"]) == 105 and len(kept["editions"]["4"]["cards"]) == 115
