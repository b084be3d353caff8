"""Hostile saved games: mutations of real saves (taken in every phase, frames and all) either
load as a consistent game or are refused with BadSave; no other exception escapes, and a game
that loads keeps the engine's invariants and plays on.

The long profile is `INNOSCRIPT_FUZZ_EXAMPLES=3000 python -m pytest tests/test_hostile_saves.py -s`.
"""
import copy
import json
import os
import random

import pytest

from innoscript.compiler.bundle import load_bundle
from innoscript.runtime import BadSave, Game, IllegalAnswer, RuntimeFault
from innoscript.runtime.bots import RandomBot, answer_for
from innoscript.runtime.rules.invariants import violations
from mutation import random_place

EXAMPLES = int(os.environ.get("INNOSCRIPT_FUZZ_EXAMPLES", "300"))


@pytest.fixture(scope="module")
def bundle():
    return load_bundle("3e")


@pytest.fixture(scope="module")
def saves(bundle):
    """Saved games at decisions of every kind, with dogma frames among them."""
    out = []
    for seed in range(6):
        game = Game.new(players=2 + seed % 3, seed=seed, bundle=bundle)
        bots = [RandomBot(seed + p) for p in range(len(game.state["players"]))]
        steps = 0
        while not game.over and steps < 400:
            p = game.decision["player"]
            if steps % 7 == 0 or game.state["dogma"] is not None and steps % 2 == 0:
                out.append(game.save())
            game.apply(answer_for(game, bots[p], p))
            steps += 1
        out.append(game.save())
    assert any('"dogma":{' in s for s in out)
    return out


def test_real_saves_load(bundle, saves):
    for s in saves:
        assert Game.load(s, bundle=bundle).save() == s


JUNK = [None, True, False, -1, 0, 1, 2, 7, 10 ** 6, 10 ** 20, 1.5, "", "x", "red", "castle", [], {}, [0], [-1],
        [10 ** 9], {"a": 1}, "../../etc/passwd", [[0]], {"code": [[52]], "consts": [], "lines": [[1, 1]]}]


def _mutate(rng, data):
    for _ in range(rng.randint(1, 3)):
        node, parent, key = random_place(rng, data, rng.randint(1, 7))
        if parent is None:
            continue
        r = rng.random()
        if r < 0.5:
            parent[key] = copy.deepcopy(rng.choice(JUNK))
        elif r < 0.65 and isinstance(node, int) and not isinstance(node, bool):
            parent[key] = node + rng.choice([-2, -1, 1, 2, 40])
        elif r < 0.8 and isinstance(parent, dict):
            del parent[key]
        elif isinstance(parent, list):
            if rng.random() < 0.5:
                parent.insert(key, copy.deepcopy(parent[key]))    # a duplicate
            else:
                del parent[key]
        else:
            parent[rng.choice(["chunk", "answer", "pc", "card", "extra"])] = copy.deepcopy(rng.choice(JUNK))
    # a frame that carries its own code, or points outside the bundle
    d = data.get("dogma")
    if rng.random() < 0.1 and isinstance(d, dict) and isinstance(d.get("stack"), list) and d["stack"] \
            and isinstance(d["stack"][-1], dict):
        d["stack"][-1][rng.choice(["chunk", "card", "effect"])] = rng.choice([-1, -5, 10 ** 4, {"code": [[52]]}])


def test_mutated_saves_load_consistently_or_are_refused(bundle, saves):
    rng = random.Random(14)
    counts = {"refused": 0, "loaded": 0, "played": 0}
    for i in range(EXAMPLES):
        data = json.loads(rng.choice(saves))
        _mutate(rng, data)
        text = json.dumps(data)
        try:
            game = Game.load(text, bundle=bundle)
        except BadSave as err:
            counts["refused"] += 1
            assert "\n" not in str(err) and len(str(err)) < 400
            continue
        counts["loaded"] += 1
        assert violations(game.engine) == [], text[:300]
        bots = [RandomBot(i + p) for p in range(len(game.state["players"]))]
        for _ in range(30):
            if game.over:
                break
            p = game.decision["player"]
            try:
                game.apply(answer_for(game, bots[p], p))
            except (IllegalAnswer, RuntimeFault):
                break
            counts["played"] += 1
            assert violations(game.engine) == []
    print(f"\nmutated saved games: {EXAMPLES} tried, {counts}")
    assert counts["refused"] > EXAMPLES // 3


@pytest.mark.parametrize("change,reason", [
    (lambda d: d["dogma"]["stack"][-1].update(card=-1), "card"),
    (lambda d: d["dogma"]["stack"][-1].update(chunk={"code": [[52]], "consts": [], "lines": [[1, 1]]}), "cannot carry code"),
    (lambda d: d["dogma"]["stack"][-1].update(extra={"code": [[52]]}), "not a value"),
    (lambda d: d["dogma"]["stack"][-1].update(effect=99), "effect"),
    (lambda d: d["dogma"]["stack"][-1].update(pc=10 ** 5), "pc"),
    (lambda d: d["dogma"]["stack"][-1]["stack"].append(1), "stack of"),
    (lambda d: d["dogma"].update(card=10 ** 6), "dogma/card"),
    (lambda d: d["pending"].update(player=9), "pending/player"),
    (lambda d: d["turn"].update(active=-1), "turn/active"),
])
def test_frames_refer_only_to_compiled_effects(bundle, saves, change, reason):
    s = next(s for s in saves if '"dogma":{' in s and '"pc":' in s)
    data = json.loads(s)
    change(data)
    with pytest.raises(BadSave, match=reason):
        Game.load(json.dumps(data), bundle=bundle)


def test_a_true_card_id_is_refused_on_load(bundle, saves):
    data = json.loads(saves[3])
    hand = next(pl["hand"] for pl in data["players"] if pl["hand"])
    hand[0] = True
    with pytest.raises(BadSave):
        Game.load(json.dumps(data), bundle=bundle)


def test_the_fast_schema_check_agrees_with_jsonschema(saves):
    """A saved game passes the compiled schema check exactly when jsonschema finds nothing against it
    (the fast check only spares jsonschema's work on a conforming save)."""
    pytest.importorskip("fastjsonschema")
    from innoscript.runtime.api.game import _conforms_fast, _schema_error
    rng = random.Random(15)
    verdicts = set()
    for _ in range(EXAMPLES):
        data = json.loads(rng.choice(saves))
        _mutate(rng, data)
        fast = _conforms_fast(data)
        try:
            slow = _schema_error(data) is None
        except BadSave:
            slow = False
        assert fast == slow, json.dumps(data)[:300]
        verdicts.add(fast)
    assert verdicts == {True, False}
