"""Artifacts of History's rules as the set's data (cards/sets/artifacts/<edition>/set.json and rules/): the
3rd edition's elimination by the set's override (ruling 33), and digging (ruling 32), whose scenarios with the
set's cards are under tests/scenarios/artifacts-*/rules/. Here the pieces that need no card of the set."""
import copy

import pytest

from innoscript.compiler.bundle import compile_card, edition_vocabulary, load_bundle
from innoscript.core.editions import load_edition
from innoscript.runtime.machine import builtins as impl
from innoscript.runtime.tools import scenario

LOSER = """card "Agriculture" {
    age 1
    color yellow
    icons hex leaf leaf leaf
    dogma leaf
}

effect {
    you lose
}
"""


def _engine(edition: str, sets: list, players: int, bundle=None):
    data = {"name": "t", "version": 2, "edition": edition, "sets": sets, "players": players,
            "setup": {"players": [{"board": {"yellow": ["Agriculture"]}}] + [{}] * (players - 1)},
            "do": {"draw": True}, "expect": {}}
    return scenario.build_state(data, bundle or load_bundle(edition, sets=sets))


def _with_loser(edition: str, sets: list) -> dict:
    b = copy.deepcopy(load_bundle(edition, sets=sets))
    data = compile_card(LOSER, "loser.inno", edition_vocabulary(load_edition(edition, sets=sets))).data
    next(c for c in b["cards"] if c["name"] == "Agriculture")["effects"] = data["effects"]
    return b


@pytest.mark.parametrize("sets,eliminated", [(["artifacts"], True), ([], False)])
def test_a_loss_in_a_3rd_edition_game_of_three_eliminates_only_with_artifacts(sets, eliminated):
    """Exxon Valdez's "you lose" with three players: with Artifacts in play the player is out and the game
    goes on (the set overrides the edition's elimination); the 3rd edition alone has no elimination."""
    e = _engine("3e", sets, 3, _with_loser("3e", sets))
    assert bool(e.cards.rules.get("elimination")) == eliminated
    e.advance()
    if eliminated:
        e.answer({"type": "dogma", "card": e.cards.by_name["Agriculture"]})
        assert e.state["players"][0].get("eliminated") and not e.state.get("over")
        assert not any(p.get("eliminated") for p in e.state["players"][1:])
    else:
        with pytest.raises(Exception, match="lost in a game of more than two players"):
            e.answer({"type": "dogma", "card": e.cards.by_name["Agriculture"]})


def test_hex_position_and_draw_age():
    """The builtins the dig rule reads: where a card's hex is (1 = the edition's first icon position), and the
    age a draw of a value comes from, skipping empty base piles (0 past the last age)."""
    e = _engine("3e", ["artifacts"], 2)
    by = e.cards.by_name
    f = {"you": 0}
    assert impl.call(e, f, "hex_position", [[by["Agriculture"]]]) == 1          # hex top left
    assert impl.call(e, f, "hex_position", [[by["Archery"]]]) == 3              # hex bottom middle
    assert impl.call(e, f, "hex_position", [[]]) == 0
    assert impl.call(e, f, "draw_age", [3]) == 3
    e.state["supply"]["3"] = []
    e.state["supply"]["4"] = []
    assert impl.call(e, f, "draw_age", [3]) == 5
    for age in range(5, 11):
        e.state["supply"][str(age)] = []
    assert impl.call(e, f, "draw_age", [3]) == 0


def test_a_card_a_set_removes_at_set_up_is_never_dealt():
    """A set's removed_at_setup (the 4th edition's Martian Internet): the card starts the game removed, in no
    supply pile, and the game's invariants hold; a name of another set's card removes nothing."""
    from innoscript.runtime import Game
    from innoscript.runtime.rules import invariants
    b = copy.deepcopy(load_bundle("4e", sets=["echoes"]))
    b["sets"]["echoes"]["manifest"]["removed_at_setup"] = ["Bangle", "Agriculture"]
    for seed in range(5):
        g = Game.new("4e", 3, seed, bundle=b)
        bangle, agriculture = g.cards.by_name["Bangle"], g.cards.by_name["Agriculture"]
        assert g.state["removed"] == [bangle]
        assert all(bangle not in pile for pile in g.state["set_supply"]["echoes"].values())
        assert agriculture not in g.state["removed"]
        assert not invariants.violations(g.engine)
    assert load_bundle("4e", sets=["artifacts"])["sets"]["artifacts"]["manifest"]["removed_at_setup"] == \
        ["Martian Internet"]


def test_the_boards_a_card_has_been_on_this_action_are_saved_and_checked():
    """turn.boards (what Dancing Girl reads) travels with a saved game, and a tampered one is refused."""
    import json
    from innoscript.runtime import Game
    from innoscript.runtime.api.game import BadSave
    g = Game.new("3e", 2, 3, bundle=load_bundle("3e", sets=["artifacts"]))
    while g.decision["kind"] != "action":
        g.apply(g.decision["options"][0])
    g.apply({"type": "draw"})
    data = json.loads(g.save())
    state = data["state"] if "state" in data else data
    assert state["turn"]["boards"] == {}
    state["turn"]["boards"] = {"3": {"start": 0, "seen": [0, 1]}}
    Game.load(json.dumps(data), bundle=load_bundle("3e", sets=["artifacts"]))
    for bad in ({"3": {"start": 5, "seen": [5]}}, {"3": {"start": 0, "seen": [1, 0]}},
                {"99999": {"start": None, "seen": []}}, {"3": {"start": None, "seen": [1, 1]}}):
        state["turn"]["boards"] = bad
        with pytest.raises(BadSave):
            Game.load(json.dumps(data), bundle=load_bundle("3e", sets=["artifacts"]))


@pytest.mark.parametrize("end,which", [("top", 0), ("bottom", -1)])
def test_the_top_or_bottom_card_of_a_sets_deck_is_selected(end, which):
    """'junk the top card from deck artifacts [1]': a set's supply pile has ends like a base pile (the
    selection once found no card there)."""
    src = LOSER.replace("    you lose", f"    junk the {end} card from deck artifacts [1]")
    b = copy.deepcopy(load_bundle("3e", sets=["artifacts"]))
    data = compile_card(src, "t.inno", edition_vocabulary(load_edition("3e", sets=["artifacts"]))).data
    next(c for c in b["cards"] if c["name"] == "Agriculture")["effects"] = data["effects"]
    e = _engine("3e", ["artifacts"], 2, b)
    pile = e.state["set_supply"]["artifacts"]["1"]
    assert len(pile) > 2
    target = pile[which]
    e.advance()
    e.answer({"type": "dogma", "card": e.cards.by_name["Agriculture"]})
    assert target in e.state["junk"] and target not in pile


def test_a_museum_is_a_token_frontends_draw_by_name():
    """The 4th edition's museums are tokens: value 0, no colour, never dealt, in their supply zone at the start;
    a face says so, and a frontend names one without an age."""
    from innoscript.runtime import Game
    from innoscript.runtime.api.faces import card_face
    from innoscript.runtime.api.wording import card_name
    g = Game.new("4e", 2, 1, bundle=load_bundle("4e", sets=["artifacts"]))
    museums = [c for c in g.cards.cards if c.get("token")]
    assert [c["name"] for c in museums] == [f"Museum {i}" for i in range(1, 6)]
    assert g.state["zones"]["museum_supply"] == [c["id"] for c in museums]
    face = card_face(g.cards, museums[0]["id"])
    assert face["token"] and face["age"] == 0 and face["color"] is None and face["icons"] == []
    assert card_name(face) == "Museum 1"
    assert not any(c["id"] in pile for c in museums for piles in g.state["set_supply"].values() for pile in piles.values())


def test_a_set_missing_only_a_card_it_removes_at_set_up_is_complete():
    """The 4th edition's Artifacts has no file for Martian Internet, which every game removes at set-up: the set
    reports 114 of its 115 printed cards and is complete (no warning); a set missing another card is not."""
    from innoscript.runtime.rules import sets
    from innoscript.runtime.state.cards import Cards
    cards = Cards(load_bundle("4e", sets=["artifacts"]))
    [r] = sets.report(cards)
    assert (r["cards"], r["expected"], r["complete"]) == (114, 115, True) and not sets.warnings(cards)
    m = dict(sets.manifest(cards, "artifacts"), removed_at_setup=[])
    assert not sets.complete(114, m, cards.by_name)


def test_the_invariants_read_a_hooks_work_item_as_no_cards_effect():
    """A set's hook waiting in a Dogma's work list is no card's effect: the team invariant (no partner demanded)
    skips it (it once read a card's effect at the hook's index, out of range with several sets' hooks)."""
    from innoscript.runtime import Game
    from innoscript.runtime.machine.frames import HOOK
    from innoscript.runtime.rules.invariants import team_violations
    g = Game.new("4e", 2, 0, bundle=load_bundle("4e", sets=["artifacts", "echoes"]))
    hooks = len(g.cards.hooks)
    assert hooks >= 4
    g.state["dogma"] = {"stack": [{"work": [[HOOK, hooks - 1, 0, 0, False, []]]}]}
    assert team_violations(g.engine) == []
