"""A failed answer leaves the game exactly as it was, with one copy of the state per action.

The engine keeps the state as it was at the start of the action and the answers given since; a
failure restores the copy and replays those answers (runtime/rules/engine.py). These tests fail an answer
after several others in the same action, with random draws between them, and compare everything.
"""
import json
import random

import pytest

from innoscript.compiler.bundle import load_bundle
from innoscript.runtime import Game, RuntimeFault
from innoscript.runtime.bots import RandomBot, answer_for
from innoscript.runtime.rules.invariants import violations
from writing_game import game_with_writing

# two choices with draws between and after them, then a number out of range
LATE_FAULT = ("effect {\n  draw [1]\n  choose color from all_colors() as a\n  draw [2]\n  draw [3]\n"
              "  choose color from all_colors() as b\n  draw [1]\n  let x = 1000 * 1001\n}\n")


def shape(x, seen=None, path="$") -> list:
    """Every leaf with its path and type, and every list or dict reached twice as an alias: equal
    shapes are the same state object for object (pickle's bytes also differ by which equal strings
    happen to be one object, which nothing can observe)."""
    seen = {} if seen is None else seen
    if isinstance(x, (list, dict)):
        if id(x) in seen:
            return [(path, "alias of " + seen[id(x)])]
        seen[id(x)] = path
        out = [(path, type(x).__name__, len(x))]
        for k, v in (x.items() if isinstance(x, dict) else enumerate(x)):
            out += shape(v, seen, f"{path}/{k!r}")
        return out
    return [(path, type(x).__name__, x)]


@pytest.fixture(scope="module")
def bundle():
    return load_bundle("3e")


def test_a_fault_after_answers_of_the_same_action_puts_everything_back(bundle):
    game, wid = game_with_writing(bundle, LATE_FAULT)
    game.apply({"type": "dogma", "card": wid})
    game.apply(game.decision["options"][0])          # the first choice: two draws follow
    assert game.decision["kind"] == "choose"
    before, objects = game.save(), shape(game.state)
    with pytest.raises(RuntimeFault, match="number out of range"):
        game.apply(game.decision["options"][1])
    assert game.save() == before
    assert shape(game.state) == objects      # the same objects too (key order, types, aliases)
    assert violations(game.engine) == []
    # and the game goes on from there as if nothing had been tried: the same fault, the same state
    with pytest.raises(RuntimeFault):
        game.apply(game.decision["options"][2])
    assert game.save() == before


def test_the_undo_record_is_the_transaction_copy_and_survives_a_store(bundle):
    game = Game.new("3e", 2, seed=11)
    bots = [RandomBot(1), RandomBot(2)]
    while game.decision["kind"] != "action" or game.state["turn"]["number"] < 4:
        game.apply(answer_for(game, bots[game.decision["player"]], game.decision["player"]))
    before = game.save()
    meld = next((o for o in game.decision["options"] if o["type"] == "meld"), None)
    if meld is None:
        pytest.skip("no meld at this decision")
    game.apply(meld)
    text, since = game.undo_record()
    assert json.loads(text) == json.loads(before) and since
    again = Game.load(game.save(), bundle=game.engine.cards.bundle)
    again.set_undo_record(text, since)
    assert again.undo_player() == game.undo_player() == json.loads(before)["turn"]["active"]
    game.undo(people=[])
    again.undo(people=[])
    assert game.save() == again.save() == before


@pytest.mark.parametrize("edition,seed", [("3e", 5), ("4e", 6)])
def test_faults_injected_anywhere_in_random_games_change_nothing(edition, seed):
    """At random answers (of any kind, deep in dogmas too) a fault is raised inside the rules after the
    state has begun to change; the state must be byte-for-byte what it was, and the game, played on,
    must be the game a twin without the faults plays."""
    game, twin = Game.new(edition, 2, seed), Game.new(edition, 2, seed, fast=True)
    engine = game.engine
    rng = random.Random(seed)
    real_emit = type(engine).emit
    bots, twin_bots = [RandomBot(seed + p) for p in range(2)], [RandomBot(seed + p) for p in range(2)]
    failed = 0
    for _ in range(2000):
        if game.over:
            break
        p = game.decision["player"]
        answer = answer_for(game, bots[p], p)
        if game.decision["kind"] != "action" and rng.random() < 0.3:
            before, objects = game.save(), shape(game.state)
            n = rng.randrange(1, 4)

            def emit(self, *a, **k):
                nonlocal n
                real_emit(self, *a, **k)
                n -= 1
                if n == 0:
                    raise RuntimeFault("injected", None)
            engine.emit = emit.__get__(engine)
            try:
                game.apply(answer)
            except RuntimeFault:
                failed += 1
                assert game.save() == before
                assert shape(game.state) == objects
            else:   # it asked or ended before the n-th event: it stands, and the twin follows
                twin.apply(answer_for(twin, twin_bots[p], p))
                continue
            finally:
                del engine.emit
        game.apply(answer)
        assert answer_for(twin, twin_bots[p], p) == answer
        twin.apply(answer)
    assert failed > 10
    assert game.save() == twin.save()
