"""The runtime: random games end, determinism, save/resume in a fresh process,
illegal answers and malformed saves change nothing, runaway effects stop."""
import json
import subprocess
import sys

import pytest

from innoscript.compiler.bundle import load_bundle
from innoscript.runtime import BadSave, Game, IllegalAnswer, RuntimeFault
from innoscript.runtime.bots import RandomBot
from innoscript.runtime.bots import play_random
from writing_game import game_with_writing


@pytest.fixture(scope="module")
def bundle():
    return load_bundle("3e")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_finish(bundle, players):
    for seed in range(4):
        game = Game.new(players=players, seed=seed, bundle=bundle)
        play_random(game, seed)
        result = game.result
        assert result["winners"] and result["reason"] in ("achievements", "score", "effect")


def test_same_seed_same_game(bundle):
    a, b = Game.new(players=3, seed=11, bundle=bundle), Game.new(players=3, seed=11, bundle=bundle)
    play_random(a, 5)
    play_random(b, 5)
    assert a.save() == b.save()


def _play_to(game, bot, n):
    for _ in range(n):
        if game.over:
            break
        game.apply(bot.answer(game.decision, game.cards))


RESUME = r"""
import json, sys
from innoscript.runtime import Game
from innoscript.runtime.bots import RandomBot
saved, bot_state = json.load(sys.stdin)
game = Game.load(saved)
bot = RandomBot()
bot.rng.setstate((bot_state[0], tuple(bot_state[1]), bot_state[2]))
while not game.over:
    game.apply(bot.answer(game.decision, game.cards))
print(game.save())
"""


@pytest.mark.parametrize("seed,stop", [(1, 7), (2, 40), (3, 120)])
def test_save_and_resume_in_a_fresh_process(bundle, seed, stop):
    game = Game.new(players=2, seed=seed, bundle=bundle)
    bot = RandomBot(seed)
    _play_to(game, bot, stop)
    saved, bot_state = game.save(), bot.rng.getstate()
    while not game.over:
        game.apply(bot.answer(game.decision, game.cards))
    r = subprocess.run([sys.executable, "-c", RESUME], input=json.dumps([saved, bot_state]),
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == game.save()


def test_resume_in_the_middle_of_a_dogma(bundle):
    """Find a decision inside a running dogma action (VM frames on the stack) and resume from it."""
    for seed in range(30):
        game = Game.new(players=2, seed=seed, bundle=bundle)
        bot = RandomBot(seed)
        while not game.over and not (game.state["phase"] == "dogma" and game.decision):
            game.apply(bot.answer(game.decision, game.cards))
        if not game.over:
            break
    assert game.state["dogma"]["stack"], "no dogma decision found"
    copy = Game.load(game.save())
    bot2 = RandomBot(99)
    bot3 = RandomBot(99)
    while not game.over:
        game.apply(bot2.answer(game.decision, game.cards))
        copy.apply(bot3.answer(copy.decision, copy.cards))
    assert game.save() == copy.save()


def test_illegal_answers_change_nothing(bundle):
    game = Game.new(players=2, seed=3, bundle=bundle)
    before = game.save()
    d = game.decision
    with pytest.raises(IllegalAnswer, match=f"is for player {d['player']}, not player {1 - d['player']}"):
        game.apply(d["options"][0], player=1 - d["player"])
    with pytest.raises(IllegalAnswer):
        game.apply(9999)
    with pytest.raises(IllegalAnswer):
        game.apply({"type": "fly"})
    assert game.save() == before
    # a card selection: wrong size, duplicates, not an option
    bot = RandomBot(4)
    for _ in range(2000):
        if game.over or game.decision["kind"] == "select_cards" and game.decision["max"] >= 1:
            break
        game.apply(bot.answer(game.decision, game.cards))
    d = game.decision
    if d and d["kind"] == "select_cards":
        before = game.save()
        for bad in ([-1], d["options"] * 2, "x", list(range(d["max"] + 5))):
            with pytest.raises(IllegalAnswer):
                game.apply(bad)
        assert game.save() == before


def test_malformed_saves_are_rejected(bundle):
    game = Game.new(players=2, seed=3, bundle=bundle)
    good = json.loads(game.save())
    cases = {
        "not json": "{",
        "schema": {**good, "phase": "lunch"},
        "hash": {**good, "bundle_hash": "0" * 64},
    }
    dup = json.loads(game.save())
    dup["players"][0]["hand"].append(dup["players"][1]["hand"][0])
    cases["card twice"] = dup
    lost = json.loads(game.save())
    lost["players"][0]["hand"].pop()
    cases["card missing"] = lost
    for name, data in cases.items():
        with pytest.raises(BadSave):
            Game.load(data if isinstance(data, str) else json.dumps(data), bundle=bundle)
    assert Game.load(json.dumps(good), bundle=bundle).save() == game.save()


def test_runaway_effect_stops_with_card_and_line(bundle):
    game, wid = game_with_writing(bundle, 'effect (v = 1) {\n  repeat with v = v + 1\n}\n')
    before = game.save()
    with pytest.raises(RuntimeFault, match=r"Writing, line 8:[0-9]+: step budget exhausted"):
        game.apply({"type": "dogma", "card": wid})
    assert game.save() == before


def test_unimplemented_card_is_playable_but_its_dogma_is_not_offered(bundle):
    game, wid = game_with_writing(bundle, "")
    p = game.state["turn"]["active"]
    acts = game.engine.compute_legal_actions(p)
    assert {"type": "dogma", "card": wid} not in acts
    assert any(a["type"] == "dogma" for a in acts)


def test_games_of_one_bundle_share_its_cards():
    """A bundle's Cards (its lookups and icon memos) is made once for all its games; a bundle whose cards'
    effects were replaced since, or another bundle, gets its own."""
    import copy
    from innoscript.runtime.state.cards import Cards
    b = load_bundle("3e")
    first, second = Game.new(seed=1, bundle=b), Game.new(seed=2, bundle=b)
    assert first.engine.cards is second.engine.cards is Cards.of(b)
    other = copy.deepcopy(b)
    assert Cards.of(other) is not first.engine.cards
    changed = Cards.of(other)
    writing = other["cards"][changed.by_name["Writing"]]
    writing["effects"] = []                       # as the tests that script a card do
    assert Cards.of(other) is not changed and Cards.of(other).may_dogma[writing["id"]] is False
