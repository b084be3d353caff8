"""The edition diff compares meaning, not text."""
from innoscript.compiler.bundle import parse_card, vocabulary
from innoscript.compiler.tools.diff import diff_card
from innoscript.core.editions import load_edition

HEAD = 'card "Writing" {\n age 1\n color blue\n icons hex lightbulb lightbulb crown\n dogma lightbulb\n}\n'


def card(text):
    ed = load_edition("3e")
    return parse_card(text, "x.inno", vocabulary(ed.manifest, ed.card_names))[0]


def test_layout_and_comments_are_not_a_change():
    a = card(HEAD + "effect {\n    draw [2]\n}\n")
    b = card(HEAD + "# a comment\neffect { draw   [2] }\n")
    assert diff_card(a, b).status == "same"


def test_a_changed_value_and_an_added_effect():
    a = card(HEAD + "effect {\n    draw [2]\n}\n")
    b = card(HEAD + "effect {\n    draw [3]\n}\neffect {\n    draw [1]\n}\n")
    d = diff_card(a, b)
    assert d.status == "changed"
    assert [(e["index"], e["change"]) for e in d.effects] == [(1, "changed"), (2, "added")]
    assert d.effects[0]["old"] == "Draw a [2]." and d.effects[0]["new"] == "Draw a [3]."


def test_unscripted_card_is_not_reported_as_removed_effects():
    a = card(HEAD + "effect {\n    draw [2]\n}\n")
    b = card(HEAD)
    assert diff_card(a, b).status == "unscripted"


def test_reused_cards_are_the_same():
    from innoscript.cli import _edition_asts
    _, old = _edition_asts("3e")
    _, new = _edition_asts("4e")
    reused = load_edition("4e").manifest["reuse"]
    o = {c.name: c for c in old}
    n = {c.name: c for c in new}
    assert all(diff_card(o[name], n[name]).status == "same" for name in reused)
