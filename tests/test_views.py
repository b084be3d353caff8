"""Per-player views never leak a hidden card; undo only where nothing hidden was shown."""
import json

import pytest

from innoscript.compiler.bundle import load_bundle
from innoscript.runtime import Game, IllegalAnswer
from innoscript.runtime.bots import RandomBot, answer_for
from innoscript.runtime.api.views import resolve_token
from leaks import check_seat, hidden_from, leaks


@pytest.fixture(scope="module")
def bundle():
    return load_bundle("3e")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_views_and_events_never_show_hidden_cards(bundle, players):
    game = Game.new(players=players, seed=players, bundle=bundle)
    bot = RandomBot(players)
    checked = 0
    while not game.over and checked < 400:
        before = {v: hidden_from(game.state, v) for v in list(range(players)) + [None]}
        events = game.apply(bot.answer(game.decision, game.cards))
        for viewer in list(range(players)) + [None]:
            check_seat(game, events, viewer, before[viewer])
        checked += 1
    assert checked > 50


def test_own_hand_in_full_others_as_counts(bundle):
    game = Game.new(players=2, seed=1, bundle=bundle)
    v0 = game.view(0)
    assert isinstance(v0["players"][0]["hand"], list) and v0["players"][0]["hand"][0]["name"]
    assert v0["players"][1]["hand"] == {"count": 2, "ages": [1, 1]}
    spectator = game.view(None)
    assert all(isinstance(p["hand"], dict) for p in spectator["players"])
    assert v0["decision"]["options"] and game.view(1)["decision"].get("options") is None or \
        game.decision["player"] == 1


def test_hidden_options_are_opaque_handles(bundle):
    game = Game.new(players=2, seed=5, bundle=bundle)
    bot = RandomBot(5)
    for _ in range(3000):
        d = game.decision
        if game.over:
            break
        if d["kind"] == "select_cards":
            v = game.view(d["player"])["decision"]
            for opt, raw in zip(v["options"], d["options"]):
                if opt.get("hidden"):
                    assert resolve_token(game.state, opt["ref"], len(game.cards.cards)) == raw
                    assert "name" not in opt
        game.apply(bot.answer(d, game.cards))


def test_undo_an_action_that_showed_nothing(bundle):
    game = Game.new(players=2, seed=2, bundle=bundle)
    bot = RandomBot(2)
    while game.decision["kind"] == "initial_meld":
        game.apply(bot.answer(game.decision, game.cards))
    before = game.save()
    draw = {"type": "draw"}
    game.apply(draw)
    assert not game.can_undo                  # a draw shows the drawer a hidden card
    with pytest.raises(IllegalAnswer):
        game.undo()
    # an achieve-free, reveal-free action: dogma of a card whose effect only splays, if any; else a bare meld check
    game2 = Game.load(before, bundle=bundle)
    meld = next(a for a in game2.legal_actions if a["type"] == "meld")
    game2.apply(meld)
    assert not game2.can_undo                 # melding from hand shows the card to the opponent


def test_undo_restores_the_state(bundle):
    from innoscript.runtime.tools.scenario import build_state
    data = {"edition": "3e", "players": 2, "do": {"draw": True},
            "setup": {"players": [{"board": {"purple": ["Philosophy"], "red": ["Oars", "Archery"]}}, {}]}}
    engine = build_state(data, bundle)
    engine.advance()
    game = Game(engine)
    before = game.save()
    game.apply({"type": "dogma", "card": game.cards.by_name["Philosophy"]})
    # effect 1: may splay a colour left (red is the only pile that can be splayed)
    assert game.decision["kind"] == "splay_color"
    game.apply("red")
    assert game.decision["kind"] == "action"          # effect 2 (score a card from an empty hand) asks nothing
    assert game.can_undo
    game.undo()
    assert game.save() == before


@pytest.mark.parametrize("sets", [[], ["echoes"]])
def test_a_lazy_view_reads_as_the_view(sets):
    """views.LazyView, part by part or whole, equals view() for every viewer at every decision."""
    from innoscript.runtime.api.views import LazyView, view
    game = Game.new("3e", 2, 5, fast=True, sets=sets)
    bot = RandomBot(1)
    for _ in range(120):
        if game.over:
            break
        for p in (0, 1, None):
            whole = view(game.cards, game.state, p)
            lazy = LazyView(game.cards, game.state, p)
            assert lazy["players"] == whole["players"] and lazy["turn"] == whole["turn"]
            assert list(lazy) == list(whole) and dict(lazy) == whole
            assert lazy.get("no such key") is None
        game.apply(answer_for(game, bot, game.decision["player"]))


def _played(path: str):
    """A scenario's set-up, its action taken; the game and the action's events."""
    from pathlib import Path
    import yaml
    from innoscript.runtime.tools import scenario
    data = yaml.safe_load(Path(path).read_text())
    e = scenario.build_state(data, load_bundle(data["edition"], sets=data.get("sets", [])))
    e.advance()
    game = Game(e)
    return game, game.apply(scenario.action(e, data["do"], path))


def test_the_log_names_a_card_to_those_who_saw_it_where_it_came_from():
    """Archery's demand: player 2 gives Calendar from their hand to player 1's hand. Player 2 knew the card
    (their own hand), player 1 holds it now; a spectator saw neither."""
    game, events = _played("tests/scenarios/4e/age1/archery-demand.yaml")
    calendar = game.cards.by_name["Calendar"]
    assert any(e["type"] == "transfer" and e["card"] == calendar for e in events)
    for viewer, named in ((0, True), (1, True), (None, False)):
        (moved,) = [e for e in game.events_for(events, viewer) if e["type"] == "transfer"]
        assert (moved["card"].get("name") == "Calendar") is named, viewer


def test_a_card_taken_off_a_board_is_named_to_everyone():
    """Monotheism's demand: a top card goes from the demanded player's board to my score pile: everyone saw it
    on the board, so the log names it to every seat and to spectators."""
    game, events = _played("tests/scenarios/4e/age2/monotheism-demand.yaml")
    assert [e for e in events if e["type"] == "transfer" and e.get("from") == "board" and e.get("zone") == "score"]
    for viewer in (0, 1, None):
        seen = [e for e in game.events_for(events, viewer) if e["type"] == "transfer" and e.get("from") == "board"]
        assert seen and all("name" in e["card"] for e in seen), viewer


def test_a_sets_rule_is_worded_as_a_cards_effect_is():
    """Promotion (an Echoes hook) asks a card: the decision reads as the rule's verb, with the rule's English."""
    game, _ = _played("tests/scenarios/echoes-4e/age10/gps-foreseen-choose-which-fit.yaml")
    w = game.view(game.decision["player"])["decision"]["wording"]
    assert w["title"] == "Echoes of the Past (4th edition): promote a card"
    assert w["effect"].startswith("After a Meld action") and "Promote a card from your forecast" in w["effect"]


def test_an_either_choice_is_worded_with_its_options():
    game, _ = _played("tests/scenarios/echoes-4e/age2/linguistics-foreseen-junks-achievements.yaml")
    bot = RandomBot(1)
    while game.decision["kind"] != "choose_option":
        game.apply(bot.answer(game.decision, game.cards))
    w = game.view(game.decision["player"])["decision"]["wording"]
    assert w["labels"] == ["Draw a [3]", "Draw and foreshadow a [4]"]
