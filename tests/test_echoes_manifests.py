"""The Echoes manifests' rules as data, where a scenario cannot show them: the deal follows the draw rules
(3rd edition: each second starting card is an Echoes 1; 4th: both are base cards), the set's rules are only
InnoScript in its files, and its special achievements are the reference's five."""
from pathlib import Path

import pytest

from card_facts import load
from innoscript.runtime import Game
from innoscript.runtime.machine import expressions
from innoscript.runtime.rules import sets

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("edition, want", [("3e", ["base", "echoes"]), ("4e", ["base", "base"])])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_deal_follows_the_draw_rule(edition, want, players):
    for seed in range(3):
        game = Game.new(edition, players, seed, sets=["echoes"])
        for pl in game.state["players"]:
            assert sorted(game.cards.set[c] for c in pl["hand"]) == want
            assert all(game.cards.age[c] == 1 for c in pl["hand"])


@pytest.mark.parametrize("edition", ["3e", "4e"])
def test_the_set_adds_its_five_special_achievements(edition):
    game = Game.new(edition, 2, 1, sets=["echoes"])
    mine = [s["name"] for s in game.cards.bundle["special_achievements"] if s.get("set")]
    assert mine == load()["editions"][edition[0]]["sets"]["echoes"]["special_achievements"]
    assert all(name in game.state["available"]["special"] for name in mine)
    when = sets.special_check(game.cards, mine[0])
    assert when == ("immediately" if edition == "3e" else "end_of_action")


@pytest.mark.parametrize("edition", ["3e", "4e"])
def test_the_score_adds_the_visible_bonuses(edition):
    game = Game.new(edition, 2, 1, sets=["echoes"])
    by = game.cards.by_name
    st = game.state
    for name, color in (("Almanac", "blue"), ("Crossbow", "red")):
        cid = by[name]
        game.engine.move({"you": 0, "me": 0, "card": cid, "kind": "non_demand"}, [cid], "meld")
    assert expressions.extra_points(game.cards, st, 0) == 4 + 1
    assert game.view(1)["players"][0]["points"] == 5 + sum(game.cards.age[c] for c in st["players"][0]["score"])
