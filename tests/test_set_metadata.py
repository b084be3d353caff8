"""Every card of each set matches the reference facts: age, colour, each icon position (echo box,
bonus values and music notes included), the dogma icon, and its effects' kinds in printed order
(the facts as the project keeps them: tests/card_facts.py)."""
import copy

import pytest

from card_facts import load
from innoscript.compiler.bundle import compile_edition
from innoscript.core.editions import available_sets, load_edition, with_required

EDITIONS = {"3e": "3", "4e": "4"}
CASES = [(e, s) for e in sorted(EDITIONS) for s in available_sets(e)]


@pytest.fixture(scope="module")
def reference():
    return load()


# the Cities cells whose word differs from the reference's (a language word, or a clearer one)
REFERENCE_WORDS = {"left_arrow": "splay_left", "right_arrow": "splay_right", "up_arrow": "splay_up",
                   "junk_sign": "junk", "unsplay_sign": "unsplay"}


def cells(card: dict, hex_like: set[str]) -> list[str]:
    """The card's icon row in the reference's words: 'bonus_N' for a bonus, the hex for a music note."""
    out = []
    for i, word in enumerate(card["icons"]):
        if word == "bonus":
            out.append(f"bonus_{card['cell_values'][i]}")
        else:
            out.append("hex" if word in hex_like else REFERENCE_WORDS.get(word, word))
    return out


def mismatches(card: dict, ref: dict, hex_like: set[str]) -> list[str]:
    out = []
    # a card written as its face only shows the edition's positions of the printed ones (a Cities relic's
    # top positions are Cities')
    printed = ref["icon_list"][:len(card["icons"])] if card.get("face_only") else ref["icon_list"]
    for what, have, want in (("age", card["age"], ref["age"]), ("colour", card["color"], ref["color"]),
                             ("icons", cells(card, hex_like), printed),
                             ("dogma icon", card["dogma"], ref["dogma_icon"])):
        if have != want:
            out.append(f"{what}: {have!r}, the reference says {want!r}")
    kinds = ref["effects"]
    have = [e.get("cell", e["kind"]) for e in card["effects"]]    # a cell effect by its cell's word ('echo')
    if have != kinds:
        out.append(f"effects {have}, the reference prints {kinds}")
    return out


def _set_cards(edition: str, set_name: str):
    bundle = compile_edition(load_edition(edition, sets=with_required([set_name], edition)))
    manifest = bundle["sets"][set_name]["manifest"]
    hex_like = {n for n, spec in manifest.get("icons", {}).items() if spec.get("counts_as") == "hex"}
    return [c for c in bundle["cards"] if c.get("carried_by", c["set"]) == set_name and not c.get("token")], hex_like


def _reference_cards(reference, edition: str, set_name: str) -> dict:
    """The set's own cards; for a set the reference has no entry of (the relics), the cards the reference's sets
    carry besides their own."""
    sets = reference["editions"][EDITIONS[edition]]["sets"]
    if set_name in sets:
        return {c["name"]: c for c in sets[set_name]["cards"]}
    return {c["name"]: c for s in sets.values() for c in s.get("carried", [])}


@pytest.mark.parametrize("edition,set_name", CASES)
def test_set_cards_match_the_reference(edition, set_name, reference):
    ref = _reference_cards(reference, edition, set_name)
    cards, hex_like = _set_cards(edition, set_name)
    if not cards:
        pytest.skip(f"the set {set_name} has no card file yet in {edition}: nothing to compare")
    unknown = [c["name"] for c in cards if c["name"] not in ref]
    assert not unknown, f"not cards of the set: {unknown}"
    problems = [f"{c['name']}: " + "; ".join(mismatches(c, ref[c["name"]], hex_like)) for c in cards
                if mismatches(c, ref[c["name"]], hex_like)]
    assert not problems, "\n".join(problems)


def test_the_comparison_catches_a_wrong_fact(reference):
    cards, hex_like = _set_cards("3e", "echoes")
    ref = {c["name"]: c for c in reference["editions"]["3"]["sets"]["echoes"]["cards"]}
    card = next(c for c in cards if any(w == "bonus" for w in c["icons"]))
    assert not mismatches(card, ref[card["name"]], hex_like)
    wrong = copy.deepcopy(card)
    wrong["cell_values"] = [b + 1 if b else b for b in wrong["cell_values"]]
    assert any(m.startswith("icons") for m in mismatches(wrong, ref[card["name"]], hex_like))
    moved = copy.deepcopy(card)
    moved["icons"] = moved["icons"][1:] + moved["icons"][:1]
    moved["cell_values"] = moved["cell_values"][1:] + moved["cell_values"][:1]
    assert mismatches(moved, ref[card["name"]], hex_like)
    no_echo = copy.deepcopy(next(c for c in cards if c["effects"] and c["effects"][0]["kind"] == "cell"))
    no_echo["effects"] = no_echo["effects"][1:]
    assert any(m.startswith("effects") for m in mismatches(no_echo, ref[no_echo["name"]], hex_like))


def test_the_music_notes_are_on_the_cards_the_reference_names(reference):
    # the reference's icon rows print a music note as a plain hex; its text markup names the cards that have one
    named = set(reference["music_notes"])
    assert named
    for edition in EDITIONS:
        cards, _ = _set_cards(edition, "echoes")
        have = {c["name"] for c in cards if "music_note" in c["icons"]}
        assert have == named & {c["name"] for c in cards}, edition
