"""Hostile saved games: mutations of real saves (taken in every phase, frames and all; base, Echoes and team
games) either load as a consistent game or are refused with BadSave; no other exception escapes, and a game
that loads keeps the engine's invariants and plays on: it is never stuck at a decision no answer satisfies or
in an effect that cannot go on.

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


def _places(data):
    out, stack = [], [(data, None, None)]
    while stack:
        node, parent, key = stack.pop()
        if parent is not None:
            out.append((node, parent, key))
        if isinstance(node, dict):
            stack.extend((v, node, k) for k, v in node.items())
        elif isinstance(node, list):
            stack.extend((v, node, i) for i, v in enumerate(node))
    return out


KINDS = ["initial_meld", "action", "select_cards", "yes_no", "choose", "choose_option", "splay_color", "order"]


def _mutate_harder(rng, data):
    """Mutations that keep more of a save's shape: a value swapped for another of the save's own (a string for
    a string, a number for a number, a subtree for a subtree), cards moved between lists, the pending
    decision's fields confused, values far out of range."""
    for _ in range(rng.randint(1, 3)):
        ps = _places(data)
        node, parent, key = rng.choice(ps)
        r = rng.random()
        if r < 0.15:
            parent[key] = copy.deepcopy(rng.choice(JUNK + [10 ** 40, -(10 ** 40), 1e308, "x" * 5000, [[[[[[0]]]]]]]))
        elif r < 0.35 and isinstance(node, int) and not isinstance(node, bool):
            parent[key] = node + rng.choice([-3, -2, -1, 1, 2, 3, 40, 100])
        elif r < 0.45:
            same = [n for n, _, _ in ps if type(n) is type(node) and not isinstance(n, (dict, list))]
            if same:
                parent[key] = rng.choice(same)
        elif r < 0.55:
            parent[key] = copy.deepcopy(rng.choice(ps)[0])
        elif r < 0.65 and isinstance(parent, dict):
            del parent[key]
        elif r < 0.8:
            lists = [n for n, _, _ in ps if isinstance(n, list) and n]
            if len(lists) >= 2:
                a, b = rng.sample(lists, 2)
                i, j = rng.randrange(len(a)), rng.randrange(len(b))
                if rng.random() < 0.5:
                    a[i], b[j] = b[j], a[i]
                else:
                    b.insert(j, a.pop(i))
        elif r < 0.9 and isinstance(data.get("pending"), dict):
            data["pending"][rng.choice(["kind", "min", "max", "options", "sizes", "one_per_color", "optional",
                                        "unrevealed", "what", "player"])] = copy.deepcopy(rng.choice(
                KINDS + [0, 1, 2, 5, -1, [], [0], [1, 2], True, False, None, "color", [True, False], "x"]))
        elif isinstance(parent, list):
            parent.insert(key, copy.deepcopy(parent[key]))
        else:
            parent[rng.choice(["chunk", "answer", "pc", "card", "extra", "sizes", "unrevealed"])] = \
                copy.deepcopy(rng.choice(JUNK))


@pytest.fixture(scope="module")
def set_and_team_saves():
    """Saves of Echoes games (4th edition, 2-4 players) and of team games (random teams), every phase."""
    out = []
    for edition, sets, options, counts in (("4e", ["echoes"], None, [2, 3, 4]), ("3e", None, {"teams": "random"}, [4])):
        b = load_bundle(edition, sets=sets) if sets else load_bundle(edition)
        for seed in range(3):
            n = counts[seed % len(counts)]
            game = Game.new(edition, players=n, seed=seed, bundle=b, options=options)
            bots = [RandomBot(seed + p) for p in range(n)]
            steps = 0
            while not game.over and steps < 300:
                p = game.decision["player"]
                if steps % 9 == 0 or game.state["dogma"] is not None and steps % 3 == 0:
                    out.append((b, game.save()))
                game.apply(answer_for(game, bots[p], p))
                steps += 1
    return out


def _load_and_play(bundle, text, seed):
    """Load a mutated save: refused with BadSave, or loaded and played on for 30 answers with the invariants
    after each, never stuck. Returns 'refused' or 'loaded'; any other exception fails the test."""
    try:
        game = Game.load(text, bundle=bundle)
    except BadSave as err:
        assert "\n" not in str(err) and len(str(err)) < 400
        return "refused"
    assert violations(game.engine) == [], text[:300]
    bots = [RandomBot(seed + p) for p in range(len(game.state["players"]))]
    for _ in range(30):
        if game.over:
            break
        p = game.decision["player"]
        game.apply(answer_for(game, bots[p], p))     # neither IllegalAnswer nor RuntimeFault: it goes on
        assert violations(game.engine) == []
    return "loaded"


@pytest.mark.parametrize("which", ["base", "echoes and teams"])
def test_harder_mutations_load_playable_games_or_are_refused(bundle, saves, set_and_team_saves, which):
    pool = [(bundle, s) for s in saves] if which == "base" else set_and_team_saves
    rng = random.Random(16 if which == "base" else 17)
    counts = {"refused": 0, "loaded": 0}
    for i in range(EXAMPLES):
        b, text = rng.choice(pool)
        data = json.loads(text)
        _mutate_harder(rng, data)
        counts[_load_and_play(b, json.dumps(data), i)] += 1
    print(f"\nharder mutations ({which}): {EXAMPLES} tried, {counts}")
    assert counts["refused"] > EXAMPLES // 3 and counts["loaded"] > 0


def test_a_save_stuck_at_its_decision_or_its_effect_is_refused(bundle, saves, set_and_team_saves):
    """Each of these loaded before into a game that could never move again (or raised on its first move)."""
    def first(pred, pool):
        return next(json.loads(s) for s in pool if pred(json.loads(s)))
    select = first(lambda d: (d["pending"] or {}).get("kind") == "select_cards" and len(d["pending"]["options"]) > 1,
                   saves)
    splay = first(lambda d: (d["pending"] or {}).get("kind") == "splay_color", saves)
    action = first(lambda d: (d["pending"] or {}).get("kind") == "action", saves)
    cases = [
        (select, lambda d: d["pending"].update(min=len(d["pending"]["options"]) + 1,
                                               max=len(d["pending"]["options"]) + 1), "to choose"),
        (select, lambda d: d["pending"].update(sizes="x"), "sizes"),
        (select, lambda d: d["pending"].update(sizes=[d["pending"]["max"] + 1]), "sizes"),
        (select, lambda d: d["pending"].update(one_per_color=1), "one_per_color"),
        (splay, lambda d: d["pending"].update(max=2), "chooses one option"),
        (splay, lambda d: d["pending"].update(options=[], optional=False), "no option"),
        (action, lambda d: d["pending"]["options"].append({"type": "dogma"}), "legal actions"),
        (action, lambda d: d["pending"]["options"].append({"type": "meld", "card": d["supply"]["1"][0]}),
         "legal actions"),
    ]
    for data, change, reason in cases:
        data = copy.deepcopy(data)
        change(data)
        try:
            Game.load(json.dumps(data), bundle=bundle)
        except BadSave as err:
            assert reason in str(err), (reason, str(err))
        else:
            raise AssertionError(f"loaded: {reason}")
    # a running effect's values of the wrong kind (a negative number, true, a text where a card or a count is):
    # refused when the copy played on faults, else loaded and playing on, never stuck
    refused = []
    for text in saves:
        if len(refused) >= 2:
            break
        for value in (-5, True, "x"):
            data = json.loads(text)
            frames = [f for f in (data["dogma"] or {}).get("stack", []) if "pc" in f and f["locals"]]
            if frames:
                frames[-1]["locals"] = [value] * len(frames[-1]["locals"])
                if _load_and_play(bundle, json.dumps(data), 0) == "refused":
                    refused.append(data)
    assert refused
    with pytest.raises(BadSave, match="cannot go on"):
        Game.load(json.dumps(refused[0]), bundle=bundle)


def test_a_team_save_whose_options_name_another_pairing_is_refused(set_and_team_saves):
    b, text = next((b, s) for b, s in set_and_team_saves if '"teams":[[' in s)
    data = json.loads(text)
    mate = next(t for t in data["teams"] if 0 in t)[1]
    other = {1: "1+3", 2: "1+4", 3: "1+2"}[mate]
    data["options"] = dict(data["options"], teams=other)
    with pytest.raises(BadSave, match="teams"):
        Game.load(json.dumps(data), bundle=b)
    data["options"]["teams"] = {1: "1+2", 2: "1+3", 3: "1+4"}[mate]     # the pairing it has: loads
    assert Game.load(json.dumps(data), bundle=b).state["teams"] == data["teams"]


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
