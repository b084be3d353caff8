"""The general concepts a set or an edition configures (docs/engine-concepts.md), each checked on its own:
what the manifest says is what the engine does, whatever a card looks like."""
import copy
import json

import pytest

from innoscript.compiler.bundle import load_bundle
from innoscript.core.diagnostics import CompileError
from innoscript.core.editions import cards_root, load_manifest
from innoscript.runtime import Game
from innoscript.runtime.machine import expressions
from innoscript.runtime.state.cards import Cards


# ---------------------------------------------------------------- splay ranks

def _limit(bundle: dict, splay: str) -> int:
    """The 4th-edition forecast's limit (5 - the rank of the highest splay) with one pile splayed that way."""
    game = Game.new("4e", 2, 3, bundle=bundle)
    st = game.state
    pile = next(p for p in st["players"][0]["board"].values())
    pile["splay"] = splay
    chunk = bundle["sets"]["echoes"]["zones"]["forecast"]["limit"]
    return expressions.run_chunk(Cards.of(bundle), st, chunk, "test:limit", 0)


def test_a_splays_rank_is_its_place_in_the_editions_splay_order():
    bundle = load_bundle("4e", sets=("echoes",))
    assert Cards.of(bundle).splay_rank == {"none": 0, "left": 1, "right": 2, "up": 3, "aslant": 4}
    assert [_limit(bundle, d) for d in ("none", "left", "right", "up", "aslant")] == [5, 4, 3, 2, 1]
    # the rank is the list's, not how many positions a splay shows: reversed, left ranks highest
    other = copy.deepcopy(bundle)
    other["manifest"]["splay_order"] = ["aslant", "up", "right", "left"]
    assert Cards(other).splay_rank["left"] == 4
    assert [_limit(other, d) for d in ("left", "aslant")] == [1, 4]


def test_a_splay_order_must_rank_exactly_the_splays(tmp_path):
    manifest = json.loads((cards_root() / "3e" / "edition.json").read_text())
    manifest["splay_order"] = ["left", "right"]
    (tmp_path / "edition.json").write_text(json.dumps(manifest))
    with pytest.raises(CompileError) as err:
        load_manifest(tmp_path)
    assert "splay_order" in str(err.value) and "up" in str(err.value)


# ---------------------------------------------------------------- set overrides of edition rules

def _set(root, name: str, overrides: dict, card: str):
    folder = root / "sets" / name / "3e"
    (folder / "age1").mkdir(parents=True, exist_ok=True)
    (folder / "set.json").write_text(json.dumps({"set": name, "edition": "3e", "label": name.title(), "ages": [1], "cards_expected": 1,
                                                 "overrides": overrides}))
    (folder / "age1" / f"{card.lower()}.inno").write_text(
        f'card "{card}" {{\n    set {name}\n    age 1\n    color red\n    icons hex castle castle castle\n'
        '    dogma castle\n}\n\neffect {\n    draw [1]\n}\n')
    return root


def test_a_set_overrides_an_edition_rule_for_the_whole_game():
    plain, echoes = load_bundle("4e"), load_bundle("4e", sets=("echoes",))
    assert "execute_cell_effects" not in Cards.of(plain).rules and Cards.of(echoes).rules["execute_cell_effects"] == "pile"
    assert Cards.of(echoes).achieve_cost == "times_held_plus_one" and Cards.of(plain).achieve_cost == "times_value"
    # the 3rd edition has no elimination: a player losing in a game of three is a fault, unless a set turns it on
    from innoscript.runtime import RuntimeFault
    bundle = copy.deepcopy(load_bundle("3e", sets=("echoes",)))
    game = Game.new("3e", 3, 1, bundle=bundle)
    with pytest.raises(RuntimeFault):
        game.engine.lose(1)
    bundle = copy.deepcopy(bundle)         # a bundle of its own (card tables are kept per bundle)
    bundle["sets"]["echoes"]["manifest"]["overrides"]["elimination"] = True
    game = Game.new("3e", 3, 1, bundle=bundle)
    assert game.engine.rule("elimination") is True
    game.engine.lose(1)
    assert game.state["players"][1]["eliminated"] and game.state["phase"] != "over"


def test_an_override_is_an_edition_rule_with_a_value_it_allows(tmp_path, monkeypatch):
    from innoscript.core.editions import load_edition
    monkeypatch.setenv("INNOSCRIPT_CARDS", str(tmp_path))
    _set(tmp_path, "wrongvalue", {"elimination": "yes"}, "Pebble")
    _set(tmp_path, "unknownrule", {"free_lunch": True}, "Cobble")
    for name, words in (("wrongvalue", "overrides/elimination"), ("unknownrule", "free_lunch")):
        with pytest.raises(CompileError) as err:
            load_edition("3e", sets=[name])
        assert words in str(err.value), err.value


def test_two_sets_cannot_override_one_rule_differently(tmp_path, monkeypatch):
    from innoscript.core.editions import load_edition
    monkeypatch.setenv("INNOSCRIPT_CARDS", str(tmp_path))
    _set(tmp_path, "lenient", {"elimination": False}, "Pebble")
    _set(tmp_path, "strict", {"elimination": True}, "Cobble")
    _set(tmp_path, "alike", {"elimination": True}, "Gravel")
    with pytest.raises(CompileError) as err:
        load_edition("3e", sets=["lenient", "strict"])
    assert "'lenient' and 'strict' override the rule elimination differently" in str(err.value)
    assert [s.name for s in load_edition("3e", sets=["alike", "strict"]).sets] == ["alike", "strict"]


# ---------------------------------------------------------------- decks of a set, and the base deck

QUARRY_HEADER = '''card "Quarry" {
    set echoes
    age 1
    color red
    icons hex castle castle castle
    dogma castle
}
'''

QUARRY = QUARRY_HEADER + '''
effect {
    draw base [1] as first
    junk all cards from deck echoes [2]
    score the top card from deck base [3]
}
'''


def _played(source: str, edition: str = "3e", sets=("echoes",), setup=None):
    """A game whose first Echoes card of age 1 has this script's effects, and that card's first effect run
    for player 0 (as the editor's sandbox plays a card): the engine after it. ``setup(bundle)`` may change
    the bundle first and return {zone: card} to place for player 0 when the game starts."""
    from innoscript.compiler.bundle import compile_card, edition_vocabulary
    from innoscript.core.editions import load_edition
    from innoscript.runtime.machine import frames, tier
    from innoscript.runtime.state.positions import place, remove_from_anywhere
    data = compile_card(source, "quarry.inno", edition_vocabulary(load_edition(edition, sets=sets))).data
    bundle = copy.deepcopy(load_bundle(edition, sets=sets))
    host = next(c for c in bundle["cards"] if c.get("set") == "echoes" and c["age"] == 1)
    host["effects"] = data["effects"]
    where = setup(bundle) if setup else {}
    game = Game.new(edition, 2, 5, bundle=bundle)
    engine = game.engine
    for zone, cid in where.items():
        remove_from_anywhere(engine.state, cid)
        place(engine.cards, engine.state, cid, zone, 0)
    engine.state["dogma"] = {"card": host["id"], "active": 0, "icon": "castle", "counts": [0, 0], "vars": {},
                             "changes": 0, "shared_change": False, "stack": [], "prelude": [], "prelude_frame": {},
                             "excluded": [], "built": True}
    before = copy.deepcopy(engine.state)
    tier.run(engine, frames.new_frame(engine.cards, host["id"], 0, 0, 0))
    return before, engine


def test_a_deck_of_a_set_and_a_draw_of_a_base_card():
    before, engine = _played(QUARRY)
    st, cards = engine.state, engine.cards
    hand = [c for c in st["players"][0]["hand"] if c not in before["players"][0]["hand"]]
    # the 3rd-edition Echoes draw rule gives an Echoes card to a hand without one; 'draw base' takes a base card
    assert len(hand) == 1 and cards.set[hand[0]] == "base" and cards.age[hand[0]] == 1
    junked = before["set_supply"]["echoes"]["2"]
    assert junked and all(c in st["junk"] for c in junked) and not st["set_supply"]["echoes"]["2"]
    assert before["supply"]["3"][0] in st["players"][0]["score"]
    assert st["set_supply"]["echoes"]["3"] == before["set_supply"]["echoes"]["3"]


def test_decks_render_and_disassemble_by_their_set():
    from innoscript.compiler.bundle import compile_card, edition_vocabulary, parse_card
    from innoscript.compiler.tools.disasm import disassemble_card
    from innoscript.compiler.tools.render import render_text
    from innoscript.core.editions import load_edition
    vocab = edition_vocabulary(load_edition("3e", sets=("echoes",)))
    text = render_text(parse_card(QUARRY, "quarry.inno", vocab)[0])
    assert "Draw a base [1]" in text and "the Echoes [2] deck" in text and "the base [3] deck" in text, text
    listing = disassemble_card(dict(compile_card(QUARRY, "quarry.inno", vocab).data, id=0), QUARRY)
    assert listing.count("DECK_SET") == 2 and '("echoes")' in listing and '("base")' in listing
    with pytest.raises(CompileError) as err:          # a deck of a set not in play
        compile_card(QUARRY.replace("    set echoes\n", ""), "quarry.inno", edition_vocabulary(load_edition("3e")))
    assert [(d.code, d.pos.line) for d in err.value.diagnostics] == [("E213", 10)], err.value


# ---------------------------------------------------------------- a card's value on a board

def test_a_value_on_a_board_is_the_cards_value_only_while_it_is_on_a_board():
    from innoscript.compiler.bundle import compile_card, compile_number, edition_vocabulary
    from innoscript.core.editions import load_edition
    from innoscript.runtime.state.positions import place, remove_from_anywhere
    vocab = edition_vocabulary(load_edition("3e"))
    header = 'card "Big Gun" {\n    age 8\n    color red\n    icons hex castle castle castle\n    dogma castle\n' \
             '    value on board 11\n}\n\neffect {\n    draw [1]\n}\n'
    assert compile_card(header, "big-gun.inno", vocab).data["board_value"] == 11
    with pytest.raises(CompileError):
        compile_card(header.replace("board 11", "board 0"), "big-gun.inno", vocab)
    bundle = copy.deepcopy(load_bundle("3e"))
    gun = next(c for c in bundle["cards"] if c["age"] == 8)
    gun["board_value"] = 11
    game = Game.new("3e", 2, 1, bundle=bundle)
    st, cards = game.state, game.cards

    def value(text: str, p: int = 0):
        return expressions.run_chunk(cards, st, compile_number(text, "test", vocab), "test:value", p)
    remove_from_anywhere(st, gun["id"])
    place(cards, st, gun["id"], "hand", 0)
    assert value("highest(your hand)") == 8 and value("count(your hand where (value(it) == 11))") == 0
    remove_from_anywhere(st, gun["id"])
    place(cards, st, gun["id"], "board", 0)            # on top of its pile
    mine = f"your top cards where (color(it) == {gun['color']})"
    assert value("highest(your top cards)") == 11 and value(f"value({mine})") == 11
    assert value("count(your board where (value(it) == 11))") == 1
    assert game.engine.compute_legal_actions(0) is not None
    from innoscript.runtime.state.board import highest_top_value
    assert highest_top_value(cards, st, 0) == 11
    # a card without one keeps its age everywhere, and a game without any reads the ages themselves
    assert not Cards.of(load_bundle("3e")).board_value


def test_a_selection_by_value_sees_the_value_on_a_board():
    """'all cards of value 11 from your board' and 'a [8] from your hand' (FILTER_VALUE, FILTER_VALUES) read a
    board card's value on the board and its age elsewhere."""
    script = QUARRY_HEADER + '''
effect {
    score all cards of value 11 from your board
    tuck all [8] or [9] cards from your hand
}
'''
    before, engine = _played(script, setup=lambda bundle: _big(bundle, 2))
    st = engine.state
    on_board, in_hand = _big.ids
    assert on_board in st["players"][0]["score"]            # taken from the board by its value there, 11
    assert in_hand in st["players"][0]["board"][engine.cards.color[in_hand]]["cards"]   # tucked by its age, 8


def _big(bundle, n):
    """Give n age-8 cards of the bundle a value of 11 on a board; put the first on player 0's board when the
    game starts, the second in player 0's hand (see _played's place)."""
    ids = [c["id"] for c in bundle["cards"] if c["age"] == 8 and c.get("set", "base") == "base"][:n]
    for cid in ids:
        bundle["cards"][cid]["board_value"] = 11
    _big.ids = ids
    return {"board": ids[0], "hand": ids[1]}


# ---------------------------------------------------------------- hook order, and the checks after turn_start

def _hook_set(root, name: str, edition: str, files: dict[str, str], **manifest):
    folder = root / "sets" / name / edition
    (folder / "age1").mkdir(parents=True, exist_ok=True)
    (folder / "rules").mkdir(exist_ok=True)
    (folder / "set.json").write_text(json.dumps({"set": name, "edition": edition, "label": name.title(),
                                                 "ages": [1], "cards_expected": 1, **manifest}))
    (folder / "age1" / f"{name}-stone.inno").write_text(
        f'card "{name.title()} Stone" {{\n    set {name}\n    age 1\n    color red\n'
        '    icons hex castle castle castle\n    dogma castle\n}\n\neffect {\n    draw [1]\n}\n')
    for file, text in files.items():
        (folder / "rules" / file).write_text(text)


def _first_meld_events(sets, edition="3e"):
    game = Game.new(edition, 2, 4, sets=list(sets))
    while game.decision["kind"] == "initial_meld":
        game.apply(game.decision["options"][0])
    meld = next(o for o in game.decision["options"] if o["type"] == "meld")
    return game.apply(meld)


def test_hooks_run_in_their_declared_order_whatever_their_sets_names(tmp_path, monkeypatch):
    monkeypatch.setenv("INNOSCRIPT_CARDS", str(tmp_path))
    _hook_set(tmp_path, "alpha", "3e", {"late.inno": "hook meld_action(melded, covered) order 40 {\n    draw [2]\n}\n"})
    _hook_set(tmp_path, "beta", "3e", {"early.inno": "hook meld_action(melded, covered) order 10 {\n    draw [3]\n}\n"})
    _hook_set(tmp_path, "gamma", "3e", {"plain.inno": "hook meld_action(melded, covered) {\n    draw [4]\n}\n"})
    events = _first_meld_events(["alpha", "beta", "gamma"])
    drawn = [e["age"] for e in events if e["type"] == "draw"]
    assert drawn == [4, 3, 2], drawn        # gamma's (order 0), beta's (10), alpha's (40): not alpha, beta, gamma
    # without orders, set name order: alpha's before beta's
    _hook_set(tmp_path, "beta", "3e", {"early.inno": "hook meld_action(melded, covered) {\n    draw [3]\n}\n"})
    _hook_set(tmp_path, "alpha", "3e", {"late.inno": "hook meld_action(melded, covered) {\n    draw [2]\n}\n"})
    assert [e["age"] for e in _first_meld_events(["alpha", "beta"]) if e["type"] == "draw"] == [2, 3]


def test_the_checks_at_the_end_of_an_action_follow_the_turn_start_hooks(tmp_path, monkeypatch):
    """4th edition (special achievements checked at the end of an action): a turn_start hook that makes the
    active player eligible gets the achievement claimed before the turn's first action."""
    monkeypatch.setenv("INNOSCRIPT_CARDS", str(tmp_path))
    _hook_set(tmp_path, "omen", "4e", {"start.inno": "hook turn_start {\n    draw and score [1]\n}\n"},
              special_achievements=[{"name": "Omen", "condition": "count(your score pile) >= 1"}],
              rules={"special_achievement_check": "end_of_action"})
    game = Game.new("4e", 2, 4, sets=["omen"])
    events = []
    while game.decision["kind"] == "initial_meld":
        events += game.apply(game.decision["options"][0])
    assert game.decision["kind"] == "action" and game.state["turn"]["actions_left"] >= 1
    claims = [e for e in events if e["type"] == "special_achievement"]
    assert [(c["player"], c.get("name", c.get("achievement"))) for c in claims] == [(game.state["turn"]["active"], "Omen")], claims
    assert "Omen" in game.state["players"][game.state["turn"]["active"]]["achievements"]


def test_a_player_out_of_the_game_during_the_turn_start_hooks_takes_no_action(tmp_path, monkeypatch):
    """A turn_start hook in which the active player loses (the 4th edition eliminates): their turn ends at
    once and the next player still in the game has the action, not the eliminated one."""
    monkeypatch.setenv("INNOSCRIPT_CARDS", str(tmp_path))
    _hook_set(tmp_path, "doom", "4e", {"start.inno": "hook turn_start {\n    if count(your hand) > 5 {\n"
                                                     "        you lose\n    }\n}\n"})
    game = Game.new("4e", 3, 4, sets=["doom"])
    while game.decision["kind"] == "initial_meld":
        game.apply(game.decision["options"][0])
    active = game.state["turn"]["active"]
    nxt = (active + 1) % 3
    from innoscript.runtime.state.positions import place, remove_from_anywhere
    for cid in game.state["supply"]["2"][:6]:       # six cards in the next player's hand: they lose at once
        remove_from_anywhere(game.state, cid)
        place(game.cards, game.state, cid, "hand", nxt)
    while game.state["turn"]["active"] == active and not game.over:
        game.apply({"type": "draw"})
    assert game.state["players"][nxt]["eliminated"]
    assert not game.over and game.decision["kind"] == "action"
    assert game.decision["player"] == game.state["turn"]["active"] != nxt


# ---------------------------------------------------------------- actions that take their card from a set's zone

def _vault_game(tmp_path, monkeypatch, actions):
    """A 3rd-edition game with a set whose per-player zone 'vault' the given actions may take cards from;
    player 0's first action is next, with an age-1 card in their vault, 5 points and a top card of age 1."""
    from innoscript.runtime.state.positions import place, remove_from_anywhere
    monkeypatch.setenv("INNOSCRIPT_CARDS", str(tmp_path))
    _hook_set(tmp_path, "vaults", "3e", {}, zones={"vault": {"visibility": "owner", "size": "public", "limit": None,
                                                             "verb": None, "actions": actions}})
    game = Game.new("3e", 2, 4, sets=["vaults"])
    while game.decision["kind"] == "initial_meld":
        game.apply(game.decision["options"][0])
    st, cards = game.state, game.cards
    p = st["turn"]["active"]
    gem = next(c for c in st["supply"]["1"])
    remove_from_anywhere(st, gem)
    place(cards, st, gem, "vault", p)
    for c in [c for c in st["supply"]["5"]][:1]:
        remove_from_anywhere(st, c)
        place(cards, st, c, "score", p)
    st["pending"]["options"] = game.engine.compute_legal_actions(p)     # the action decision, posed anew
    return game, p, gem


def test_a_meld_action_may_take_its_card_from_a_zone_that_says_so(tmp_path, monkeypatch):
    game, p, gem = _vault_game(tmp_path, monkeypatch, ["meld"])
    meld = {"type": "meld", "card": gem, "from": "vault"}
    assert meld in game.decision["options"]
    assert not any(o["type"] == "achieve" and o.get("card") == gem for o in game.decision["options"])
    seen = game.view(p)["decision"]["options"]
    assert any(o.get("from") == "vault" and o["card"]["id"] == gem for o in seen)     # the owner sees the card
    assert any(label.endswith("from your vault") for label in game.view(p)["decision"]["wording"]["labels"])
    events = game.apply(meld)
    assert gem in game.state["players"][p]["board"][game.cards.color[gem]]["cards"]
    assert any(e["type"] == "meld" and e["card"] == gem and e["from"] == "vault" for e in events)


def test_an_achieve_action_may_claim_a_card_of_a_zone_that_says_so(tmp_path, monkeypatch):
    game, p, gem = _vault_game(tmp_path, monkeypatch, ["achieve"])
    claim = {"type": "achieve", "age": 1, "card": gem, "from": "vault"}
    assert claim in game.decision["options"] and {"type": "meld", "card": gem, "from": "vault"} not in game.decision["options"]
    events = game.apply(claim)
    assert gem in game.state["players"][p]["achievements"] and not game.state["players"][p]["zones"]["vault"]
    shown = [e for e in game.events_for(events, 1 - p) if e["type"] == "achieve"]
    assert shown == [{"type": "achieve", "player": p, "age": 1, "from": "vault"}]      # the card is not named
