"""Cities of Destiny's engine concepts beyond its scenarios (tests/scenarios/cities-*/): icon positions a set adds,
a set's own action (Endorse) through the views and a saved game, and the compile-time checks of each."""
import json

import pytest

from innoscript.compiler.bundle import compile_card, compile_hooks, edition_vocabulary, load_bundle
from innoscript.core.diagnostics import CompileError
from innoscript.core.editions import load_edition
from innoscript.runtime.api.game import Game
from innoscript.runtime.api.views import view
from innoscript.runtime.api.wording import action_label
from innoscript.runtime.state.cards import Cards
from innoscript.runtime.tools import scenario


@pytest.fixture(scope="module")
def bundle():
    return load_bundle("3e", sets=["cities"])


def test_the_game_has_the_sets_positions_and_a_left_splay_shows_the_top_right(bundle):
    cards = Cards(bundle)
    assert cards.positions == ["top_left", "bottom_left", "bottom_middle", "bottom_right", "top_right", "top_middle"]
    zurich, writing = cards.by_name["Zurich"], cards.by_name["Writing"]
    # a city under a left splay shows its bottom right and its top right (the hex); its top middle only on top
    assert cards.visible_positions(zurich, "left", False) == [3, 4]
    assert cards.visible_positions(zurich, "none", True) == [0, 1, 2, 3, 4, 5]
    assert cards.visible_positions(writing, "left", False) == [3]     # a base card has no top right
    assert "flag" not in cards.visible_icons(zurich, "left", False)


def _vocab():
    return edition_vocabulary(load_edition("3e", sets=["cities"]))


@pytest.mark.parametrize("icons,words", [
    ("castle castle hex castle castle", "prints 4 icon positions"),        # neither four nor six
    ("castle castle castle castle castle castle", "exactly one 'hex'"),
])
def test_a_header_gives_the_editions_positions_or_all(icons, words):
    text = f'card "X" {{\n    set cities\n    age 1\n    color red\n    icons {icons}\n    dogma castle\n}}\n\nno effect\n'
    with pytest.raises(CompileError, match=words):
        compile_card(text, "x.inno", _vocab())


def test_a_position_is_named_as_the_game_names_it():
    text = ('card "X" {\n    age 1\n    color red\n    icons castle castle hex castle\n    dogma castle\n}\n\n'
            'effect {\n    if cell_at(this card, "top_middl") == "plus" {\n        draw [1]\n    }\n}\n')
    with pytest.raises(CompileError) as info:
        compile_card(text, "x.inno", _vocab())
    d = info.value.diagnostics[0]
    assert d.code == "E300" and "top_middl" in d.message and d.hint == "did you mean 'top_middle'?"


def test_an_actions_hook_names_an_action_of_a_set_in_play():
    with pytest.raises(CompileError) as info:
        compile_hooks("hook action endorce(card) {\n    draw [1]\n}\n", "x.inno", _vocab())
    assert info.value.diagnostics[0].hint == "did you mean 'endorse'?"


def _endorse_game(bundle):
    data = {"name": "t", "version": 2, "edition": "3e", "sets": ["cities"], "players": 2,
            "setup": {"players": [{"board": {"purple": ["Code of Laws"], "blue": ["Troy"], "red": ["Archery"]},
                                   "hand": ["Oars", "Metalworking", "Clothing"]}, {}]},
            "do": {"draw": True}, "expect": {}}
    engine = scenario.build_state(data, bundle)
    engine.advance()
    return Game(engine)


def test_endorse_is_offered_worded_answered_as_seen_and_taken_once_a_turn(bundle):
    g = _endorse_game(bundle)
    v = view(g.cards, g.state, 0)
    offered = [o for o in v["decision"]["options"] if o["type"] == "set_action"]
    # crowns and castles on Troy: Troy itself shows its featured icon (a 3rd-edition city has one)
    assert {o["card"]["name"] for o in offered} == {"Code of Laws", "Archery", "Troy"}
    code = next(o for o in offered if o["card"]["name"] == "Code of Laws")
    assert code["label"] == "Endorse" and action_label(code, v, 0) == "Endorse Code of Laws"
    g.apply_as_seen(code, 0)                        # the option as the view shows it, label and face included
    while g.decision and g.decision["kind"] != "action":
        d = g.decision
        g.apply(d["options"][0] if d["kind"] != "select_cards" else d["options"][:d.get("min", 1) or 1])
    assert g.state["turn"]["set_actions"] == {"endorse": 1}
    assert not [o for o in g.decision["options"] if o["type"] == "set_action"]     # once a turn
    again = Game.load(g.save())                     # the turn's count is kept in a saved game
    assert again.state["turn"]["set_actions"] == {"endorse": 1}


def test_a_saved_turn_with_an_unknown_action_is_refused(bundle):
    g = _endorse_game(bundle)
    data = json.loads(g.save())
    data["turn"]["set_actions"] = {"enlist": 1}
    from innoscript.runtime.api.game import BadSave
    with pytest.raises(BadSave, match="set_actions"):
        Game.load(data)
