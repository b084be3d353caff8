"""A "may" choice keeps the sizes and the colours its words give: "you may score two or three cards" is none, two or
three (never one); "you may return a card of each colour" is none or one of each colour (never two of one)."""
import copy

import pytest

from innoscript.compiler.bundle import compile_card, edition_vocabulary, load_bundle
from innoscript.core.editions import load_edition
from innoscript.runtime.rules.engine import IllegalAnswer
from innoscript.runtime.tools import scenario

CARD = """card "Agriculture" {{
    age 1
    color yellow
    icons hex leaf leaf leaf
    dogma leaf
}}

effect {{
    {body}
}}
"""


def _engine(body: str, hand: list[str]):
    b = copy.deepcopy(load_bundle("3e"))
    data = compile_card(CARD.format(body=body), "x.inno", edition_vocabulary(load_edition("3e"))).data
    next(c for c in b["cards"] if c["name"] == "Agriculture")["effects"] = data["effects"]
    spec = {"name": "t", "version": 2, "edition": "3e", "players": 2,
            "setup": {"players": [{"board": {"yellow": ["Agriculture"]}, "hand": hand}, {}]},
            "do": {"dogma": "Agriculture"}, "expect": {}}
    e = scenario.build_state(spec, b)
    e.advance()
    e.answer({"type": "dogma", "card": e.cards.by_name["Agriculture"]})
    return e


def test_a_may_of_two_or_three_cards_is_none_two_or_three():
    e = _engine("may score 2 or 3 cards from your hand", ["Oars", "Writing", "Sailing", "Tools"])
    ids = [e.cards.by_name[n] for n in ("Oars", "Writing", "Sailing")]
    with pytest.raises(IllegalAnswer, match="choose 0 or 2 or 3 cards, not 1"):
        e.answer(ids[:1])
    e.answer(ids[:2])
    assert sorted(e.state["players"][0]["score"]) == sorted(ids[:2])


def test_a_may_of_a_card_of_each_colour_is_none_or_one_of_each():
    e = _engine("may return a card of each color from your hand", ["Oars", "Archery", "Writing"])
    oars, archery, writing = (e.cards.by_name[n] for n in ("Oars", "Archery", "Writing"))
    with pytest.raises(IllegalAnswer, match="one card of each colour"):
        e.answer([oars, archery])          # two red cards
    e.answer([oars, writing])
    assert e.state["players"][0]["hand"] == [archery]


def test_declining_a_may_of_each_colour_returns_nothing():
    e = _engine("may return a card of each color from your hand", ["Oars", "Archery", "Writing"])
    e.answer([])
    assert len(e.state["players"][0]["hand"]) == 3
