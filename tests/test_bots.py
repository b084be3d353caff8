"""The bots that look ahead: determinisation consistent with a view, answers from the view only, seeded,
the documented call for any bot, and the heuristic's rule against repeating a shared dogma."""
import json
import random

import pytest

from innoscript.runtime.bots import BOTS, RandomBot, answer_for, bot_answer
from innoscript.runtime.api.game import Game, card_places
from innoscript.runtime.bots.search import SearchBot, _cards_for, _engine_action, determinise, engine_from
from innoscript.runtime.api.views import view


def game_at_turn(turn, seed=5, edition="3e", sets=()):
    game = Game.new(edition=edition, players=2, seed=seed, fast=True, sets=list(sets))
    bots = [RandomBot(seed), RandomBot(seed + 1)]
    while not game.over and (game.state["turn"]["number"] < turn or game.decision["kind"] != "action"):
        p = game.decision["player"]
        game.apply(answer_for(game, bots[p], p))
    return game


@pytest.mark.parametrize("edition,sets", [("3e", ()), ("4e", ()), ("3e", ("echoes",)), ("4e", ("echoes",))])
def test_a_determinisation_agrees_with_the_view(edition, sets):
    """A sampled world shows its player the view it came from, the sets' supply piles too (filled with
    their own set's cards), and every action of the decision can be played in it."""
    game = game_at_turn(10, edition=edition, sets=sets)
    p = game.decision["player"]
    v = game.view(p)
    assert v["sets"] == list(sets)
    bundle, cards = _cards_for(edition, v["sets"])
    assert len(cards.cards) == len(game.engine.cards.cards)
    for seed in range(3):
        st = determinise(bundle, cards, v, random.Random(seed), keep_specials=True)
        places = card_places(st)
        assert sorted(places) == list(range(len(cards.cards)))        # every card exactly once
        sampled = view(cards, {**st, "secret": game.state["secret"]}, p)
        for name, piles in st.get("set_supply", {}).items():
            assert all(cards.set[c] == name for pile in piles.values() for c in pile)
        for o in game.decision["options"]:
            eng = engine_from(bundle, json.loads(json.dumps(st)))
            eng.answer(_engine_action(o))
        for key in ("players", "supply", "set_supply", "available", "junk"):
            a, b = sampled[key], v[key]
            if key == "players":
                for pa, pb in zip(a, b):
                    for k in ("board", "hand", "score", "achievements", "icons", "points"):
                        assert pa[k] == pb[k], (k, pa[k], pb[k])
            else:
                assert a == b, key


def test_answers_come_from_the_view_only():
    """Two games that look the same to the player (the opponent's hidden hand swapped for supply cards of
    the same ages) get the same answer from the search bot with the same seed."""
    game = game_at_turn(8, seed=9)
    p = game.decision["player"]
    q = 1 - p
    other = json.loads(game.save())
    hand = other["players"][q]["hand"]
    cards = game.cards
    for i, cid in enumerate(hand):
        pile = other["supply"][str(cards.age[cid])]
        if pile:
            hand[i], pile[0] = pile[0], cid
    assert other["players"][q]["hand"] != game.state["players"][q]["hand"]
    twin = Game.load(other)
    assert twin.view(p) == game.view(p)
    a = answer_for(game, SearchBot(4, iterations=30), p)
    b = answer_for(twin, SearchBot(4, iterations=30), p)
    assert a == b
    assert answer_for(game, SearchBot(4, iterations=30), p) == a        # seeded: the same answer again


@pytest.mark.parametrize("kind,sets", [(k, ()) for k in sorted(BOTS)] + [("heuristic", ("echoes",)),
                                                                    ("search", ("echoes",))])
def test_every_bot_answers_through_the_documented_call(kind, sets):
    game = game_at_turn(6, seed=3, sets=sets)
    options = {"iterations": 10} if kind == "search" else {}
    for _ in range(6):
        if game.over:
            break
        p = game.decision["player"]
        game.apply(bot_answer(game, p, kind, seed=1, **options))   # legal, or apply raises


def test_search_bot_keeps_to_a_time_budget():
    import time
    game = game_at_turn(8, seed=3)
    p = game.decision["player"]
    t = time.perf_counter()
    answer_for(game, SearchBot(1, seconds=0.3), p)
    assert time.perf_counter() - t < 1.5


def test_heuristic_never_repeats_a_shared_dogma_in_a_turn():
    game = Game.new(players=2, seed=21, fast=True)
    bots = [BOTS["heuristic"](1), RandomBot(2)]
    used: dict = {}
    while not game.over:
        p = game.decision["player"]
        events = game.apply(answer_for(game, bots[p], p))
        for e in events:
            if e["type"] == "dogma" and e["player"] == 0:
                shared = e["counts"][1] >= e["counts"][0]
                key = (game.state["turn"]["number"], e["card"])
                assert not (shared and used.get(key)), f"shared dogma {e['card']} used twice in a turn"
                used[key] = shared or used.get(key, False)
    assert used, "the heuristic bot never used a dogma"


def test_the_server_plays_the_search_bot_within_its_time_limit():
    from innoscript.runtime.serving.protocol import Hub
    from innoscript.runtime.serving.store import Store
    hub = Hub(Store(":memory:"), allow_seeds=True)
    [(_, created)] = hub.handle("c", json.dumps({"type": "create", "players": 2, "seed": 3, "bots": [None, "search"]}))
    assert created["type"] == "created", created
    gid, token = created["game"], created["seats"][0]
    for _ in range(6):
        [(_, state)] = hub.handle("c", json.dumps({"type": "view", "game": gid, "player": 0, "token": token}))
        d = state["view"]["decision"]
        o = d["options"][0]
        answer = o["id"] if d["kind"] == "initial_meld" else o
        out = hub.handle("c", json.dumps({"type": "answer", "game": gid, "player": 0, "token": token,
                                          "decision": d["id"], "answer": answer}))
        assert out[0][1]["type"] == "update", out[0][1]


def test_bots_look_ahead_in_team_games():
    game = Game.new(players=4, seed=2, fast=True, options={"teams": "1+3"})
    bots = [BOTS["search"](p, iterations=8) if p % 2 == 0 else BOTS["heuristic"](p) for p in range(4)]
    bundle, cards = _cards_for("3e")
    for _ in range(40):
        if game.over:
            break
        p = game.decision["player"]
        if game.decision["kind"] == "action":
            st = determinise(bundle, cards, game.view(p), random.Random(1), keep_specials=True)
            assert st["teams"] == game.state["teams"] and st["seating"] == game.state["seating"]
        game.apply(answer_for(game, bots[p], p))


def action_points(seed, count, edition="3e"):
    """Games at action decisions with a real choice (several options, none an achievement)."""
    game = game_at_turn(4, seed=seed, edition=edition)
    bot = RandomBot(seed)
    found = []
    while not game.over and len(found) < count:
        d = game.decision
        if d["kind"] == "action" and len(d["options"]) > 1 and not any(o["type"] == "achieve" for o in d["options"]):
            found.append(Game.load(json.loads(game.save())))
        p = d["player"]
        game.apply(answer_for(game, bot, p))
    return found


@pytest.mark.parametrize("edition", ["3e", "4e"])
@pytest.mark.parametrize("prune", [0, 3])
def test_search_at_no_iterations_is_the_heuristic_choice(edition, prune):
    from innoscript.runtime.bots.search import HeuristicBot
    for i, game in enumerate(action_points(11, 4, edition)):
        p = game.decision["player"]
        assert answer_for(game, SearchBot(i, iterations=0, prune=prune), p) == answer_for(game, HeuristicBot(i), p)


def test_a_pruned_search_is_seeded_and_keeps_to_the_heuristic_best():
    from innoscript.runtime.bots.search import HeuristicBot
    from innoscript.runtime.api.views import decision_view, resolve_answer
    for i, game in enumerate(action_points(13, 3)):
        p = game.decision["player"]
        eng = game.engine
        d, v = decision_view(eng.cards, eng.state, p), game.view(p)
        scored = HeuristicBot(i).scores(d, v)
        top = sorted(range(len(scored)), key=lambda j: -scored[j][1])[:2]
        answers = [answer_for(game, SearchBot(i, iterations=12, prune=2), p) for _ in range(2)]
        assert answers[0] == answers[1]
        assert answers[0] in [resolve_answer(eng.cards, eng.state, eng.pending, scored[j][0]) for j in top]


class _FullViewBot:
    """A bot as it was before the cheap paths: every decision with its previews, the view built whole."""

    def __init__(self, bot):
        self.bot, self.name, self.previews = bot, bot.name, True

    def answer(self, decision, view):
        return self.bot.answer(decision, lambda: dict(view()))


@pytest.mark.parametrize("kind,edition,sets", [("random", "3e", []), ("random", "4e", ["echoes"]),
                                               ("greedy", "3e", ["echoes"]), ("greedy", "4e", [])])
def test_bots_play_the_same_games_without_previews_and_with_a_lazy_view(kind, edition, sets):
    """A bot given the options alone (random), or its decision without previews and a view that it reads
    in part (greedy), answers as it would with the whole decision and view."""
    def play(wrap):
        game = Game.new(edition=edition, players=2, seed=11, fast=True, sets=sets)
        bots = [wrap(BOTS[kind](11 + p)) for p in range(2)]
        n = 0
        while not game.over and n < 400:
            p = game.decision["player"]
            game.apply(answer_for(game, bots[p], p))
            n += 1
        return game.save()
    assert BOTS[kind].previews is False and BOTS[kind].options_only is (kind == "random")
    assert play(lambda b: b) == play(_FullViewBot)


def _recording_search(monkeypatch, value_of):
    """A search bot whose play-outs are recorded (the world's seed, the action forced first) and scored
    by value_of(action key) instead of being played."""
    calls = []

    def fake(self, eng, root, me, cards, rng, first=None):
        calls.append((eng.state["seed"], first))
        return value_of(first)
    monkeypatch.setattr(SearchBot, "_iterate", fake)
    return calls


def test_halving_plays_every_action_in_the_same_worlds_and_keeps_the_better_half(monkeypatch):
    """Sequential halving at the root: in each round every action still in contention is played in the
    same sampled worlds; each round keeps the better half by mean score; the best action wins."""
    from innoscript.runtime.bots.search import _key
    game = next(g for g in action_points(18, 8) if len(g.decision["options"]) >= 7)
    p = game.decision["player"]
    keys = [_key(o) for o in game.decision["options"]]
    best = keys[len(keys) // 2]
    calls = _recording_search(monkeypatch, lambda k: 100.0 if k == best else float(keys.index(k)))
    answer = answer_for(game, SearchBot(4, iterations=200), p)
    assert _key(answer) == best
    alive, rounds, pos = len(keys), 0, 0
    total_rounds = (len(keys) - 1).bit_length()        # ceil(log2 n)
    while alive > 1:
        worlds = max(1, 200 // (total_rounds * alive))
        chunk = calls[pos:pos + worlds * alive]
        pos += worlds * alive
        by_world: dict = {}
        for seed, first in chunk:
            by_world.setdefault(seed, []).append(first)
        assert len(by_world) == worlds, "each world is sampled once per round and shared by every action"
        assert all(len(set(firsts)) == alive == len(firsts) for firsts in by_world.values())
        assert best in {f for _, f in chunk}, "the best action is never dropped"
        alive, rounds = (alive + 1) // 2, rounds + 1
    assert pos == len(calls) and rounds == total_rounds


def test_halving_is_seeded_and_its_worlds_are_paired():
    """The same seed gives the same answer (the worlds and the play-outs are drawn from the bot's seed)."""
    for i, game in enumerate(action_points(17, 3)):
        p = game.decision["player"]
        answers = [answer_for(game, SearchBot(i, iterations=40), p) for _ in range(2)]
        assert answers[0] == answers[1]


def test_search_root_setting_is_checked():
    with pytest.raises(ValueError):
        SearchBot(0, root="flat")


@pytest.mark.parametrize("first", ["innoscript.runtime.bots.search", "innoscript.runtime.bots"])
def test_every_bot_is_registered_whichever_module_is_imported_first(first):
    import subprocess
    import sys
    code = f"import {first}; from innoscript.runtime.bots import BOTS; print(sorted(BOTS))"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "['greedy', 'heuristic', 'random', 'search']"


def test_the_look_ahead_plans_with_the_answers_the_bots_give_inside_a_dogma():
    """Inside a dogma, a sampled world is played on with the greedy bot's answers wherever it has one (yes
    to a "may", the fewest lowest cards to part with, the most highest to keep), the answers the bots
    really give there, so a dogma that their own answers make do nothing does not look useful."""
    from innoscript.runtime.bots import GreedyBot
    from innoscript.runtime.bots.search import quick_answer
    from innoscript.runtime.api.views import decision_view, resolve_answer
    checked = set()
    for seed in range(6):
        game = Game.new(seed=seed, fast=True)
        bots = [RandomBot(seed), RandomBot(seed + 1)]
        while not game.over and len(checked) < 3:
            eng = game.engine
            d = eng.pending
            if d["kind"] in ("yes_no", "select_cards") and not d.get("one_per_color"):
                view_d = decision_view(eng.cards, eng.state, d["player"])
                greedy = resolve_answer(eng.cards, eng.state, d, GreedyBot(0).answer(view_d, lambda: game.view(d["player"])))
                assert quick_answer(eng, random.Random(0)) == greedy
                checked.add(d["kind"] + str(d.get("min")))
            p = d["player"]
            game.apply(answer_for(game, bots[p], p))
    assert len(checked) >= 2
