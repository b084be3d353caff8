"""Cards one player sees and the others do not, on real Echoes cards: a private look at a supply pile's top
card, and a choice made by another player among cards of your hand presented as backs (tests/leaks.py
finds a card's name or id in what a seat receives)."""
from pathlib import Path

import pytest
import yaml

from innoscript.compiler.bundle import load_bundle
from innoscript.runtime import Game, scenario
from innoscript.runtime.views import reveals_hidden
from leaks import leaks

SCENARIOS = Path(__file__).parent / "scenarios"


def _after_action(path, edition):
    """A scenario's set-up with its action taken: the game waits at the action's first decision."""
    data = yaml.safe_load(Path(path).read_text())
    e = scenario.build_state(data, load_bundle(edition, sets=data["sets"]))
    e.advance()
    e.answer(scenario.action(e, data["do"], str(path)))
    return Game(e)


def test_a_look_shows_the_top_card_to_the_performer_only():
    game = _after_action(SCENARIOS / "echoes-3e/age5/tuning-fork-echo-look-at-a-set-deck.yaml", "3e")
    d = game.view(0)["decision"]
    assert d["kind"] == "choose" and d["what"] == "deck" and "echoes 5" in d["options"]
    assert "Deck echoes 5" in d["wording"]["labels"]
    coke = game.cards.by_name["Coke"]
    events = game.apply("echoes 5")
    mine = [e for e in game.events_for(events, 0) if e["type"] == "look"]
    assert mine and mine[0]["card"]["name"] == "Coke" and mine[0]["set"] == "echoes" and mine[0]["age"] == 5
    for viewer in (1, None):
        seen = game.events_for(events, viewer)
        assert [e["card"] for e in seen if e["type"] == "look"] == [{"hidden": True, "age": 5}]
        assert not leaks(seen, ["Coke"], {coke}), viewer
        assert not leaks(game.view(viewer), ["Coke"], {coke}), viewer
    # the card stays on top of its pile, and the look is what makes the turn not undoable for the performer
    assert game.state["set_supply"]["echoes"]["5"][0] == coke
    assert reveals_hidden(events, people=[0]) and not reveals_hidden(events, people=[1])


def test_no_deck_with_cards_means_no_look():
    game = _after_action(SCENARIOS / "echoes-3e/age5/tuning-fork-echo-look-at-a-set-deck.yaml", "3e")
    st = game.state
    for pile in list(st["supply"].values()) + [p for piles in st["set_supply"].values() for p in piles.values()]:
        pile.clear()
    st["pending"] = None
    frame = {"you": 0}
    game.engine.look(frame)
    assert frame["did"] is False and st["pending"] is None
