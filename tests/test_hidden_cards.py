"""Cards one player sees and the others do not, on real Echoes cards: a private look at a supply pile's top
card, and a choice made by another player among cards of your hand presented as backs (tests/leaks.py
finds a card's name or id in what a seat receives)."""
from pathlib import Path

import pytest
import yaml

from innoscript.compiler.bundle import load_bundle
from innoscript.runtime import Game
from innoscript.runtime.tools import scenario
from innoscript.runtime.api.views import reveals_hidden
from leaks import check_seat, hidden_from, leaks

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


# ---------------------------------------------------------------- an unrevealed choice
ROBOCAR = SCENARIOS / "echoes-4e/age11/robocar-my-turn-self-execute-and-repeat.yaml"


def test_an_unrevealed_choice_shows_the_chooser_backs_only():
    game = _after_action(ROBOCAR, "4e")
    d = game.decision
    assert d["player"] == 1 and d["kind"] == "select_cards" and d["unrevealed"]
    hand = game.state["players"][0]["hand"]
    names = [game.cards.name[c] for c in hand]
    for viewer in (1, None, 0):
        v = game.view(viewer)
        assert not leaks(v["decision"], names, set(hand)), viewer
    options = game.view(1)["decision"]["options"]
    assert [set(o) for o in options] == [{"hidden", "age", "set", "ref"}] * 2
    assert sorted((o["age"], o["set"]) for o in options) == [(1, "base"), (1, "base")]
    assert not leaks(game.view(1), names, set(hand))


@pytest.mark.parametrize("bot", ["random", "greedy", "search"])
def test_bots_answer_an_unrevealed_choice(bot):
    from innoscript.runtime.bots import bot_answer
    game = _after_action(ROBOCAR, "4e")
    answer = bot_answer(game, 1, bot, seed=3, **({"iterations": 5} if bot == "search" else {}))
    assert len(answer) == 1 and answer[0] in game.state["players"][0]["hand"]
    game.apply(answer)
    assert game.decision["kind"] == "action"


def test_the_protocol_takes_an_unrevealed_choice_by_handle_only(tmp_path):
    import json
    from innoscript.runtime.serving.protocol import Hub
    from innoscript.runtime.serving.store import Store
    hub = Hub(Store(tmp_path / "g.sqlite"))
    conn = object()
    saved = _after_action(ROBOCAR, "4e").save()
    saved = json.loads(saved) if isinstance(saved, str) else saved
    created = hub.handle(conn, json.dumps({"type": "load", "data": saved}))[0][1]
    gid, token = created["game"], created["seats"][1]
    view = hub.handle(conn, json.dumps({"type": "view", "game": gid, "player": 1, "token": token}))[0][1]["view"]
    d = view["decision"]
    names = ["City States", "Agriculture"]
    assert d["unrevealed"] and not leaks(view, names, set())
    by_id = hub.handle(conn, json.dumps({"type": "answer", "game": gid, "player": 1, "token": token,
                                         "decision": d["id"], "answer": [0]}))[0][1]
    assert by_id["type"] == "error" and "handles" in by_id["message"]
    reply = hub.handle(conn, json.dumps({"type": "answer", "game": gid, "player": 1, "token": token,
                                         "decision": d["id"], "answer": [d["options"][0]["ref"]]}))[0][1]
    assert reply["type"] == "update" and reply["view"]["players"][0]["hand"]["count"] == 0   # both melded


@pytest.mark.parametrize("edition", ["3e", "4e"])
def test_random_games_with_the_set_show_no_seat_a_hidden_card(edition):
    """Random Echoes games, the private look and the unrevealed choice among them when they come up: no view or
    event names a card to a seat that may not see it (events: unless it was shown to that seat on the way)."""
    from innoscript.runtime.bots import RandomBot, answer_for
    bundle = load_bundle(edition, sets=["echoes"])
    for seed in range(2):
        game = Game.new(edition, 3, seed, bundle=bundle)
        bots = [RandomBot(seed * 11 + p) for p in range(3)]
        before = {v: hidden_from(game.state, v) for v in (0, 1, 2, None)}
        for _ in range(120):
            if game.over:
                break
            p = game.decision["player"]
            events = game.apply(answer_for(game, bots[p], p))
            for viewer in (0, 1, 2, None):
                before[viewer] = check_seat(game, events, viewer, before[viewer])
