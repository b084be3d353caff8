"""Budgets per action, bounded numbers and strict answer types."""
import pytest

from innoscript.compiler.bundle import load_bundle
from innoscript.runtime import Game, IllegalAnswer, RuntimeFault
from innoscript.runtime.rules import engine as E
from innoscript.runtime.rules.invariants import violations
from writing_game import game_with_writing


@pytest.fixture(scope="module")
def bundle():
    return load_bundle("3e")


def test_a_loop_that_asks_every_time_round_is_stopped_and_the_game_goes_on(bundle):
    game, wid = game_with_writing(bundle, "effect {\n  choose color from all_colors() as c\n  repeat\n}\n")
    p = game.state["turn"]["active"]
    events = game.apply({"type": "dogma", "card": wid})
    answers = 0
    while game.decision["kind"] == "choose":
        events = game.apply(game.decision["options"][0])
        answers += 1
        assert answers <= E.DECISION_BUDGET
    stopped = [e for e in events if e["type"] == "dogma_stopped"]
    assert len(stopped) == 1, events
    assert stopped[0]["source"] == "Writing" and stopped[0]["line"] == 8
    assert "Writing, line 8:" in stopped[0]["message"] and "decision budget" in stopped[0]["message"]
    # the action counted; the game is consistent, can be saved and loaded, and goes on
    assert game.decision["kind"] == "action" and game.state["dogma"] is None
    assert violations(game.engine) == []
    again = Game.load(game.save(), bundle=game.engine.cards.bundle)
    assert again.decision == game.decision
    assert (game.state["turn"]["active"], game.state["turn"]["actions_left"]) != (p, 2) or game.state["turn"]["number"] > 1


def test_the_step_budget_spans_the_answers_of_an_action(bundle):
    game, wid = game_with_writing(bundle, "effect {\n  each x in values(1, 2, 3) {\n   let y = x\n  }\n  "
                                  "choose color from all_colors() as c\n  repeat\n}\n")
    game.apply({"type": "dogma", "card": wid})
    game.apply(game.decision["options"][0])
    left = game.state["dogma"]["budget"]
    assert 0 < left < E.STEP_BUDGET
    # the remaining budget is part of the saved game
    again = Game.load(game.save(), bundle=game.engine.cards.bundle)
    assert again.state["dogma"]["budget"] == left


def test_a_pure_loop_refuses_the_action_and_leaves_the_game_as_it_was(bundle):
    game, wid = game_with_writing(bundle, "effect (v = 1) {\n  repeat with v = v + 1\n}\n")
    before = game.save()
    with pytest.raises(RuntimeFault, match=r"Writing, line 8:[0-9]+: step budget exhausted"):
        game.apply({"type": "dogma", "card": wid})
    assert game.save() == before


@pytest.fixture(params=["vm", "compiled"])
def each_tier(request, monkeypatch):
    """Both tiers, the compiled one from a chunk's first run."""
    from innoscript.runtime.machine import tier
    monkeypatch.setenv("INNOSCRIPT_TIER", request.param)
    monkeypatch.setattr(tier, "HOT", 0)
    monkeypatch.setattr(tier, "DISK", False)
    return request.param


def test_squaring_a_number_stops_with_card_and_line(bundle, each_tier):
    game, wid = game_with_writing(bundle, "effect (v = 2) {\n  repeat with v = v * v\n}\n")
    assert game.engine.tier == each_tier
    before = game.save()
    with pytest.raises(RuntimeFault, match=r"Writing, line 8:[0-9]+: number out of range"):
        game.apply({"type": "dogma", "card": wid})
    assert game.save() == before


@pytest.mark.parametrize("expr", ["0 - 1000000 - 1", "1000000 + 1", "1000 * 1001", "-(1000000 + 1)"])
def test_numbers_are_bounded(bundle, expr, each_tier):
    game, wid = game_with_writing(bundle, f"effect {{\n  let x = {expr}\n  draw [1]\n}}\n")
    assert game.engine.tier == each_tier
    with pytest.raises(RuntimeFault, match="number out of range"):
        game.apply({"type": "dogma", "card": wid})


def test_within_bounds_is_fine(bundle):
    game, wid = game_with_writing(bundle, "effect {\n  let x = 1000 * 1000 - 1000000 - 1000000 + 1000000\n  draw [1]\n}\n")
    game.apply({"type": "dogma", "card": wid})
    assert game.decision["kind"] == "action"


def _first_action_game():
    game = Game.new(players=2, seed=3)
    while game.decision["kind"] == "initial_meld":
        game.apply(game.decision["options"][0])
    return game


def test_answers_are_strictly_typed_through_the_game():
    game = Game.new(players=2, seed=3)
    real = game.decision["options"][0]
    before = game.save()
    for fake in (float(real), str(real), [real], {"card": real}):
        with pytest.raises(IllegalAnswer):
            game.apply(fake)
    assert game.save() == before


@pytest.mark.parametrize("kind,options,fake", [
    ("initial_meld", [0, 1, 5], True), ("initial_meld", [0, 1, 5], False), ("initial_meld", [0, 1, 5], 1.0),
    ("select_cards", [0, 1, 5], [True]), ("select_cards", [0, 1, 5], [1.0]), ("select_cards", [0, 1, 5], [1, True]),
    ("choose", [1, 2, 3], 1.0), ("choose", [1, 2, 3], True), ("choose_option", [0, 1], True),
    ("order", [0, 1], [True, False]), ("order", [0, 1], [1.0, 0]), ("yes_no", [True, False], 1),
    ("action", [{"type": "meld", "card": 1}], {"type": "meld", "card": True}),
    ("action", [{"type": "meld", "card": 1}], {"type": "meld", "card": 1.0}),
])
def test_validation_tells_bools_and_floats_from_ints(kind, options, fake):
    game = Game.new(players=2, seed=3)
    pending = {"kind": kind, "options": options, "min": 1, "max": 1 if kind != "select_cards" else 2, "optional": False}
    with pytest.raises(IllegalAnswer):
        game.engine.validate(pending, fake)


def test_a_bool_card_id_in_an_action_is_refused():
    game = _first_action_game()
    acts = game.decision["options"]
    meld = next(a for a in acts if a["type"] == "meld")
    before = game.save()
    for fake in ({**meld, "card": float(meld["card"])}, {**meld, "card": str(meld["card"])}):
        with pytest.raises(IllegalAnswer):
            game.apply(fake)
    # a card id of 0 or 1 written as a bool, where such a card is in hand
    for flag in (True, False):
        pretend = {"type": "meld", "card": flag}
        if {"type": "meld", "card": int(flag)} in acts:
            with pytest.raises(IllegalAnswer):
                game.apply(pretend)
    assert game.save() == before
    game.apply(meld)


def test_strict_keys():
    assert E._strict_in(1, [1]) and not E._strict_in(True, [1]) and not E._strict_in(1.0, [1])
    assert not E._strict_in(False, [0]) and E._strict_in(None, [None]) and not E._strict_in(0, [None])
    assert E._strict_in({"type": "meld", "card": 1}, [{"card": 1, "type": "meld"}])
    assert not E._strict_in({"type": "meld", "card": True}, [{"card": 1, "type": "meld"}])
    assert not E._strict_in({"type": "meld", "card": [1]}, [{"card": 1, "type": "meld"}])
    assert not E._strict_in([1], [[1]])
