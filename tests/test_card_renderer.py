"""The card renderer's data: every card of every edition with its face and its effects' English, served by the
protocol's `cards` message; decisions carry their source effect and wording; dogma options a preview."""
import json

import jsonschema
import pytest

from innoscript.core.editions import schema
from innoscript.runtime.bots import RandomBot, answer_for
from innoscript.runtime.api.game import Game
from innoscript.runtime.serving.protocol import Hub
from innoscript.runtime.serving.store import Store
from innoscript.runtime.api.faces import card_catalog
from innoscript.runtime.api.wording import word

WEB = __import__("pathlib").Path(__file__).resolve().parent.parent / "runtime" / "serving" / "web"


@pytest.mark.parametrize("edition", ["3e", "4e"])
def test_catalog_has_every_card_with_english(edition):
    cat = card_catalog(edition)
    from innoscript.compiler.bundle import load_bundle
    bundle = load_bundle(edition)
    assert len(cat["cards"]) == len(bundle["cards"])
    for face, card in zip(cat["cards"], bundle["cards"]):
        assert face["name"] == card["name"] and face["icons"] == card["icons"]
        assert len(face["effects"]) == len(card["effects"])
        assert all(e["text"] and e["kind"] == c["kind"] for e, c in zip(face["effects"], card["effects"]))
    # every icon a card shows has a glyph in the shipped sprite
    sprite = (WEB / "icons.svg").read_text()
    for icon in set(cat["manifest"]["icons"]) | {cat["manifest"]["hex"]}:
        assert f'id="inno-icon-{icon}"' in sprite, icon


def test_cards_message_matches_the_schema():
    hub = Hub(Store(":memory:"))
    [(_, reply)] = hub.handle("c", json.dumps({"type": "cards", "edition": "3e", "id": 7}))
    assert reply["type"] == "cards" and reply["re"] == 7 and len(reply["cards"]) > 100
    v = jsonschema.Draft202012Validator(schema("protocol.schema.json"))
    assert not list(v.iter_errors({"server": reply}))
    [(_, err)] = hub.handle("c", json.dumps({"type": "cards", "edition": "nope"}))
    assert err["code"] == "bad_edition"


def test_decisions_are_worded_from_their_effect():
    game = Game.new(players=2, seed=4)
    bots = [RandomBot(1), RandomBot(2)]
    kinds = {}
    while not game.over and len(kinds) < 4 and game.state["decisions"] < 2000:
        p = game.decision["player"]
        d = game.view(p)["decision"]
        w = d["wording"]
        assert len(w["labels"]) == len(d["options"]) and w["title"]
        if d.get("source") and d["kind"] != "action":
            kinds.setdefault(d["kind"], (d, w))
            assert w["title"].startswith(d["source"]) and w["effect"]
        game.apply(answer_for(game, bots[p], p))
    assert "select_cards" in kinds
    d, w = kinds["select_cards"]
    assert w["confirm"] == d["purpose"].capitalize() and w["title"].split(": ", 1)[1].split()[-2:] != ["choose", "cards"]
    assert all(label.startswith(w["confirm"]) for label in w["labels"])


def test_dogma_preview_names_sharers_and_the_demanded():
    game = Game.new(players=2, seed=4)
    bots = [RandomBot(1), RandomBot(2)]
    while True:
        p = game.decision["player"]
        d = game.view(p)["decision"]
        dogmas = [o for o in d["options"] if isinstance(o, dict) and o.get("type") == "dogma"]
        if dogmas:
            break
        game.apply(answer_for(game, bots[p], p))
    o = dogmas[0]
    pv = o["preview"]
    counts = [game.view(q)["players"][q]["icons"][pv["icon"]] for q in range(2)]
    assert pv["counts"] == counts
    other = 1 - p
    assert (other in pv["shares"]) == (counts[other] >= counts[p] and
                                        any(e["kind"] == "non_demand" for e in game.cards.cards[o["card"]["id"]]["effects"]))
    from innoscript.runtime.api.views import resolve_answer
    assert pv["opponents_share"] == pv["shares"]          # two players: every sharer is an opponent
    game.apply(resolve_answer(game.cards, game.state, game.decision, o), p)   # sent back as it came: legal


def test_wording_of_a_splay_and_a_yes_no():
    view = {"players": [{"name": "Ann", "board": {}}, {"name": "Bo", "board": {}}], "turn": {"actions_left": 1},
            "supply": {}}
    w = word({"kind": "splay_color", "player": 0, "options": ["red", "green"], "optional": True, "direction": "left",
              "source": "Machinery"}, view, "Score ... You may splay your red cards left.")
    assert w["title"] == "Machinery: you may splay one of your colours left"
    assert w["labels"] == ["Splay red left", "Splay green left"] and w["decline"] == "Don't splay"
    w = word({"kind": "yes_no", "player": 1, "options": [True, False], "purpose": "draw", "source": "Canning",
              "demanded_by": None}, view)
    assert w["title"] == "Canning: do you want to draw?" and w["labels"] == ["Draw", "Don't draw"]


@pytest.mark.parametrize("sizes,title", [([0, 1], "Pottery: you may return a card (or none)"),
                                         ([0, 3], "Pottery: you may return 3 cards (or none)"),
                                         ([0, 2, 3], "Pottery: you may return 2 or 3 cards (or none)")])
def test_a_choice_of_some_counts_only_says_them(sizes, title):
    view = {"players": [{"name": "Ann", "board": {}}], "turn": {"actions_left": 1}, "supply": {}}
    w = word({"kind": "select_cards", "player": 0, "options": [1, 2, 3], "min": 0, "max": 3, "optional": True,
              "sizes": sizes, "purpose": "return", "source": "Pottery"}, view)
    assert w["title"] == title


def test_hidden_options_of_one_age_are_told_apart_and_a_secret_is_named_to_its_owner():
    from innoscript.runtime.api.wording import action_label
    view = {"players": [{"name": "Ann", "board": {}}, {"name": "Bo", "board": {}}], "turn": {"actions_left": 1},
            "supply": {}}
    hidden = [{"hidden": True, "age": 2, "ref": "a"}, {"hidden": True, "age": 3, "ref": "b"},
              {"hidden": True, "age": 2, "ref": "c"}]
    w = word({"kind": "select_cards", "player": 0, "options": hidden, "purpose": "return", "source": "Rocketry"}, view)
    assert w["labels"] == ["Return a hidden [2] (1 of 2)", "Return a hidden [3]", "Return a hidden [2] (2 of 2)"]
    secret = {"type": "achieve", "age": 2, "from": "safe", "card": {"name": "Mapmaking", "age": 2}}
    assert action_label(secret, view, 0) == "Achieve Mapmaking (age 2) from your safe"
    assert action_label({"type": "achieve", "age": 2}, view, 0) == "Achieve age 2"


@pytest.mark.parametrize("edition", ["3e", "4e"])
def test_catalog_with_a_set_has_its_cards_bonuses_and_echo_effects(edition):
    from innoscript.compiler.bundle import load_bundle
    cat = card_catalog(edition, ["echoes"])
    bundle = load_bundle(edition, sets=("echoes",))
    assert [f["name"] for f in cat["cards"]] == [c["name"] for c in bundle["cards"]]
    assert cat["sets"][0]["set"] == "echoes" and cat["sets"][0]["cards"] == sum(c.get("set") == "echoes"
                                                                                for c in bundle["cards"])
    for face, card in zip(cat["cards"], bundle["cards"]):
        assert face["set"] == card.get("set", "base")
        # effects in the card's own order (the index a decision names), the echo effect among them
        assert [e["kind"] for e in face["effects"]] == [e["kind"] for e in card["effects"]]
        boxed = [{"cell": e["cell"], "text": e["text"]} for e in face["effects"] if e["kind"] == "cell"]
        assert face.get("cell_effects") == (boxed or None)
        assert face.get("cell_values") == (card["cell_values"] if any(b is not None for b in card.get("cell_values") or ())
                                           else None)
    with_echo = [f for f in cat["cards"] if "cell_effects" in f]
    assert len(with_echo) > 20 and all(f["cell_effects"][0]["cell"] == "echo" and f["cell_effects"][0]["text"]
                                       and "echo" in f["icons"] for f in with_echo)
    assert any(f.get("cell_values") for f in cat["cards"])
    assert cat["manifest"]["cells"]["echo"]["effect"] and cat["manifest"]["cells"]["bonus"]["value"]
    assert all("score" not in spec for spec in cat["manifest"]["cells"].values())
    # every cell a set card shows has a glyph in the shipped sprite
    sprite = (WEB / "icons.svg").read_text()
    for icon in {i for f in cat["cards"] for i in f["icons"]}:
        assert f'id="inno-icon-{icon}"' in sprite, icon
    assert cat["manifest"]["set_icons"]["music_note"]["counts_as"] == "hex"


def test_cards_message_with_sets_and_hello_offers_them():
    hub = Hub(Store(":memory:"))
    v = jsonschema.Draft202012Validator(schema("protocol.schema.json"))
    [(_, hello)] = hub.handle("c", json.dumps({"type": "hello"}))
    assert not list(v.iter_errors({"server": hello}))
    offered = {e["edition"]: [s["set"] for s in e["sets"]] for e in hello["editions"]}
    assert offered["3e"] == ["artifacts", "cities", "echoes", "relics"] and offered["4e"] == ["artifacts", "cities", "echoes", "unseen"]
    assert offered["1e"] == []
    relics = next(s for e in hello["editions"] for s in e["sets"] if s["set"] == "relics")
    assert relics["requires"] == ["artifacts"] and relics["complete"] and relics["cards"] == relics["expected"] == 5
    echoes = next(s for e in hello["editions"] for s in e["sets"] if s["set"] == "echoes")
    assert echoes["complete"] and echoes["cards"] == echoes["expected"] > 100
    partial = [s for e in hello["editions"] for s in e["sets"] if not s["complete"]]
    assert all(s["cards"] < s["expected"] for s in partial)      # offered, and said to be incomplete
    [(_, reply)] = hub.handle("c", json.dumps({"type": "cards", "edition": "4e", "sets": ["echoes"]}))
    assert not list(v.iter_errors({"server": reply}))
    assert reply["sets"][0]["set"] == "echoes" and any(c.get("cell_effects") for c in reply["cards"])
    [(_, err)] = hub.handle("c", json.dumps({"type": "cards", "edition": "1e", "sets": ["echoes"]}))
    assert err["code"] == "bad_edition" and "unknown set 'echoes' for edition 1e" in err["message"]
    [(_, err)] = hub.handle("c", json.dumps({"type": "cards", "edition": "3e", "sets": ["relics"]}))
    assert err["type"] == "error" and "played with set 'artifacts'" in err["message"]
    [(_, err)] = hub.handle("c", json.dumps({"type": "cards", "edition": "3e", "sets": ["../x"]}))
    assert err["type"] == "error"


def test_dogma_preview_shares_a_piles_visible_echo_effects():
    """A top card with only a demand, over a card whose echo box its splay shows: the echo effect runs first and
    is shared, so the preview names it and its sharers (the label says so too)."""
    from innoscript.runtime.state.board import locate
    from innoscript.runtime.api.views import dogma_preview, view
    game = Game.new(players=2, seed=1, sets=["echoes"])
    cards, st = game.cards, game.state
    demand, splay, under = next((d, s, c) for d in cards.cards
                                if cards.set[d["id"]] == "base" and {e["kind"] for e in d["effects"]} == {"demand"}
                                for c in cards.cards if cards.set[c["id"]] == "echoes" and c["color"] == d["color"]
                                and cards.effect_cells[c["id"]] for s in ("left", "right", "up")
                                if cards.effect_cells[c["id"]][0][2] in cards.visible_positions(c["id"], s, False))
    color = demand["color"]
    for cid in (demand["id"], under["id"]):    # take both from wherever the deal put them
        zone, owner, col = locate(st, cid)
        if zone == "board":
            st["players"][owner]["board"][col]["cards"].remove(cid)
        elif zone in ("hand", "score"):
            st["players"][owner][zone].remove(cid)
        else:
            for piles in [st["supply"], *st.get("set_supply", {}).values()]:
                for pile in piles.values():
                    if cid in pile:
                        pile.remove(cid)
    st["players"][0]["board"][color] = {"cards": [demand["id"], under["id"]], "splay": splay}
    pv = dogma_preview(cards, st, 0, demand["id"])
    assert pv["cell_effects"] == [{"card": under["name"], "cell": "echo", "label": "echo effect"}]
    assert pv["shares"] == [q for q in (1,) if pv["counts"][q] >= pv["counts"][0]]
    assert [x["card"] for x in dogma_preview(cards, st, 0, under["id"])["cell_effects"]] == [under["name"]]   # its own only
    from innoscript.runtime.api.wording import action_label
    label = action_label({"type": "dogma", "card": {"name": demand["name"]}, "preview": pv}, view(cards, st, 0), 0)
    assert f"echo effect of {under['name']} first" in label
