"""The sets' per-player zones (runtime/rules/zones.py), on the zone the Echoes manifests declare: limits from the
manifest expression at each move, card by card; visibility in views, events, options and the protocol; saves,
hostile saves and invariants."""
import json
import random

import pytest

from innoscript.compiler.bundle import load_bundle
from innoscript.runtime import BadSave, Game
from innoscript.runtime.rules import zones
from innoscript.runtime.bots import RandomBot, answer_for
from innoscript.runtime.rules.invariants import violations
from innoscript.runtime.serving.protocol import Hub
from innoscript.runtime.serving.store import Store
from innoscript.runtime.machine.faults import NeedDecision
from leaks import leaks
from protocol_client import check


@pytest.fixture(scope="module")
def b4():
    return load_bundle("4e", sets=["echoes"])


@pytest.fixture(scope="module")
def b3():
    return load_bundle("3e", sets=["echoes"])


def zone_name(game):
    (name,) = game.cards.zones      # the one zone the set declares
    return name


def verb(game):
    return game.cards.zones[zone_name(game)]["verb"]


def free_cards(game, n, age=None):
    """n cards from the supply piles (base first), for filling zones."""
    out = []
    for pile in game.state["supply"].values():
        out += pile
    return [c for c in out if age is None or game.cards.age[c] == age][:n]


def frame(p=0):
    return {"you": p, "me": p, "card": 0, "kind": "non_demand"}


def splay_one(game, p, direction):
    """Give player p a pile of two cards splayed that way."""
    st = game.state
    color = game.cards.colors[0]
    pile = [c for c in free_cards(game, 200) if game.cards.color[c] == color][:2]
    for c in pile:
        st["supply"][str(game.cards.age[c])].remove(c)
        st["players"][p]["board"][color]["cards"].append(c)
    st["players"][p]["board"][color]["splay"] = direction


@pytest.mark.parametrize("direction, limit", [("none", 5), ("left", 4), ("right", 3), ("up", 2), ("aslant", 1)])
def test_4e_limit_is_five_minus_the_highest_splay(b4, direction, limit):
    game = Game.new("4e", 2, 1, bundle=b4)
    if direction != "none":
        splay_one(game, 0, direction)
    assert zones.limit(game.cards, game.state, zone_name(game), 0) == limit
    assert zones.limit(game.cards, game.state, zone_name(game), 1) == 5


def test_3e_has_no_limit(b3):
    game = Game.new("3e", 2, 1, bundle=b3)
    cards = free_cards(game, 12)
    moved = game.engine.move(frame(), cards, verb(game))
    assert moved == cards and game.state["players"][0]["zones"][zone_name(game)] == cards
    assert game.view(0)["players"][0]["zones"][zone_name(game)]["limit"] is None
    assert violations(game.engine) == []


def test_a_move_into_a_full_zone_does_nothing_and_the_performer_chooses_what_fits(b4):
    game = Game.new("4e", 2, 1, bundle=b4)
    splay_one(game, 0, "up")                         # limit 2
    z, before = zone_name(game), len(free_cards(game, 1000))
    first, second, third = free_cards(game, 3)
    f = {**frame(), "card": -1}                      # a frame of no card: the decision names no source
    assert game.engine.move(f, [first], verb(game)) == [first] and f["did"]
    with pytest.raises(NeedDecision):                # room for one of the two: the performer chooses it
        game.engine.move(f, [second, third], verb(game))
    asked = game.state["pending"]
    assert (asked["player"], asked["options"], asked["min"], asked["max"]) == (0, [second, third], 1, 1)
    f["answer"] = [second]
    assert game.engine.move(f, [second, third], verb(game)) == [second]   # the other stays
    assert game.state["players"][0]["zones"][z] == [first, second]
    assert game.engine.move(f, [third], verb(game)) == [] and not f["did"]
    assert third in free_cards(game, 1000) and len(free_cards(game, 1000)) == before - 2
    assert violations(game.engine) == []


def test_draw_into_a_full_zone_draws_and_keeps_the_card_in_hand(b4):
    game = Game.new("4e", 2, 1, bundle=b4)
    splay_one(game, 0, "aslant")                     # limit 1
    hand = list(game.state["players"][0]["hand"])
    before = len(game.state["supply"]["3"]) + len(game.state["set_supply"]["echoes"]["3"])
    f = frame()
    drawn = game.engine.draw_effect(f, 3, 3, verb(game))
    assert len(drawn) == 3 and game.state["players"][0]["zones"][zone_name(game)] == drawn[:1] and f["did"]
    assert game.state["players"][0]["hand"] == hand + drawn[1:]   # drawn, then the full forecast took nothing
    after = len(game.state["supply"]["3"]) + len(game.state["set_supply"]["echoes"]["3"])
    assert after == before - 3
    f = frame()
    assert len(game.engine.draw_effect(f, 1, 3, verb(game))) == 1 and not f["did"]   # nothing was foreshadowed


def test_transfer_to_another_players_zone_follows_their_limit(b4):
    game = Game.new("4e", 2, 1, bundle=b4)
    splay_one(game, 1, "aslant")                     # player 2: limit 1
    a, b = game.state["players"][0]["hand"]
    moved = game.engine.transfer(frame(), [a, b], 1, zone_name(game))   # in order, as many as fit
    assert moved == [a] and game.state["players"][1]["zones"][zone_name(game)] == [a]
    assert game.state["players"][0]["hand"] == [b]


def test_promote_melds_from_the_zone(b4):
    game = Game.new("4e", 2, 1, bundle=b4)
    (c,) = free_cards(game, 1)
    game.engine.move(frame(), [c], verb(game))
    game.engine.events.clear()
    assert game.engine.move(frame(), [c], "promote") == [c]
    assert game.state["players"][0]["zones"][zone_name(game)] == []
    assert game.state["players"][0]["board"][game.cards.color[c]]["cards"][0] == c
    (ev,) = [e for e in game.engine.events if e["type"] == "meld"]
    assert ev["from"] == zone_name(game) and ev["promoted"]


def test_a_shrinking_limit_keeps_the_cards_and_the_game_saves_and_loads(b4):
    game = Game.new("4e", 2, 1, bundle=b4)
    cards = free_cards(game, 5)
    assert game.engine.move(frame(), cards, verb(game)) == cards       # full at 5
    splay_one(game, 0, "up")                                           # now the limit is 2
    assert game.state["players"][0]["zones"][zone_name(game)] == cards
    assert violations(game.engine) == []
    loaded = Game.load(game.save(), bundle=b4)
    assert loaded.state["players"][0]["zones"][zone_name(game)] == cards
    assert loaded.engine.move(frame(), free_cards(loaded, 1), verb(game)) == []


def _save_with_zone(game, mutate):
    data = json.loads(game.save())
    mutate(data)
    return json.dumps(data)


@pytest.mark.parametrize("mutate, reason", [
    (lambda d, z: d["players"][0]["zones"][z].append(d["players"][0]["hand"][0]), "more than one place"),
    (lambda d, z: d["players"][0]["zones"].update(museum=[]), "zones"),
    (lambda d, z: d["players"][0].pop("zones"), "zones"),
    (lambda d, z: d["players"][1]["zones"][z].append(10 ** 6), "unknown card"),
    (lambda d, z: d["players"][1]["zones"][z].append("Wealth"), "not of type"),
])
def test_hostile_saves_with_zones_are_refused(b4, mutate, reason):
    game = Game.new("4e", 2, 1, bundle=b4)
    z = zone_name(game)
    with pytest.raises(BadSave, match=reason):
        Game.load(_save_with_zone(game, lambda d: mutate(d, z)), bundle=b4)


def test_a_game_without_sets_refuses_a_save_with_zones():
    game = Game.new("4e", 2, 1)
    data = json.loads(game.save())
    data["players"][0]["zones"] = {"forecast": []}
    with pytest.raises(BadSave, match="zones"):
        Game.load(json.dumps(data))


def test_views_show_the_zone_to_its_owner_and_its_size_to_the_others(b4):
    game = Game.new("4e", 3, 1, bundle=b4)
    z = zone_name(game)
    cards = free_cards(game, 2)
    game.engine.move(frame(), cards, verb(game))
    own = game.view(0)["players"][0]["zones"][z]
    assert [c["id"] for c in own["cards"]] == cards and own["count"] == 2 and own["limit"] == 5
    for viewer in (1, 2, None):
        other = game.view(viewer)["players"][0]["zones"][z]
        assert other == {"count": 2, "ages": sorted(game.cards.age[c] for c in cards), "limit": 5}


def forecast_cards_of_others(state, viewer):
    return {c for p, pl in enumerate(state["players"]) if p != viewer for ids in pl.get("zones", {}).values()
            for c in ids}


def leaked(obj, game, ids):
    return leaks(obj, [game.cards.name[c] for c in ids], ids)


@pytest.mark.parametrize("edition", ["3e", "4e"])
def test_no_other_seat_ever_sees_a_forecast_card(edition, b3, b4):
    """Random games where every player's forecast is filled at the start and cards keep moving in: no view,
    event or decision of another seat names a card while it is in someone else's forecast (unless an event
    showed it to everyone on its way there)."""
    bundle = b3 if edition == "3e" else b4
    for seed in range(2):
        game = Game.new(edition, 3, seed, bundle=bundle)
        for p in range(3):
            game.engine.move(frame(p), free_cards(game, 3), verb(game))
        bots = [RandomBot(seed * 7 + p) for p in range(3)]
        rng = random.Random(seed)
        steps = 0
        while not game.over and steps < 150:
            p = game.decision["player"]
            if rng.random() < 0.2:      # keep the forecasts moving
                game.engine.move(frame(p), free_cards(game, 1, age=rng.choice([1, 2, 3])), verb(game))
            events = game.apply(answer_for(game, bots[p], p))
            for viewer in (0, 1, 2, None):
                ids = forecast_cards_of_others(game.state, viewer)
                assert not leaked(game.view(viewer), game, ids), f"view of {viewer}"
                # in the events, except the cards shown to everyone on the way (revealed, melded, ...)
                shown = {e["card"] for e in events if isinstance(e.get("card"), int) and
                         (e["type"] in ("meld", "tuck", "reveal", "dogma", "effect", "execute")
                          or (e["type"] == "draw" and e.get("player") == viewer))}
                assert not leaked(game.events_for(events, viewer), game, ids - shown), f"events of {viewer}"
            steps += 1
        assert steps > 20


def test_the_protocol_shows_no_other_seat_a_forecast_card(tmp_path, b4):
    proto = Hub(Store(":memory:"), allow_seeds=True)
    conn = object()

    def ask(msg):
        return [check("server", m) for _, m in proto.handle(conn, json.dumps(msg))]
    created = ask({"type": "create", "edition": "4e", "sets": ["echoes"], "players": 2, "seed": 3})[0]
    assert created["type"] == "created", created
    game = proto.games[created["game"]]["game"]
    z = zone_name(game)
    mine = free_cards(game, 3)
    game.engine.move(frame(0), mine, verb(game))
    for seat in (1, None):
        msg = {"type": "view", "game": created["game"], "player": seat}
        if seat is not None:
            msg["token"] = created["seats"][seat]
        (reply,) = ask(msg)
        assert reply["type"] == "state", reply
        assert not leaked(reply["view"], game, set(mine))
        assert reply["view"]["players"][0]["zones"][z]["count"] == 3
    (reply,) = ask({"type": "view", "game": created["game"], "player": 0, "token": created["seats"][0]})
    assert [c["id"] for c in reply["view"]["players"][0]["zones"][z]["cards"]] == mine


@pytest.mark.parametrize("visibility, size, other", [
    ("all", "public", "cards"), ("owner", "owner", "limit only"), ("owner", "public", "count")])
def test_visibility_and_size_are_the_manifests(b4, visibility, size, other):
    """The same zone declared otherwise (as another set's zone might be): what the other seats see follows."""
    import copy
    bundle = copy.deepcopy(b4)
    (spec,) = bundle["sets"]["echoes"]["zones"].values()
    spec.update(visibility=visibility, size=size)
    game = Game.new("4e", 2, 1, bundle=bundle)
    cards = free_cards(game, 2)
    game.engine.move(frame(), cards, verb(game))
    seen = game.view(1)["players"][0]["zones"][zone_name(game)]
    if other == "cards":
        assert [c["id"] for c in seen["cards"]] == cards
    elif other == "count":
        assert seen == {"count": 2, "ages": sorted(game.cards.age[c] for c in cards), "limit": 5}
    else:
        assert seen == {"limit": 5}
        assert not leaked(game.view(1), game, set(cards))
