"""'execute X as if on this card' (docs/engine-concepts.md, "Executing as if on this card"; expansion-rules §2
item 7): X's own echo effect, its demands of only the opponents vulnerable in the running Dogma (its featured
icon, the counts taken when it started), its non-demands for the performer alone; nothing shared; inside a free
Dogma, that Dogma's counts. A game saved inside loads and ends as the unsaved one."""
import copy
import json

import pytest

from innoscript.compiler.bundle import compile_card, edition_vocabulary, load_bundle
from innoscript.core.diagnostics import CompileError
from innoscript.core.editions import load_edition
from innoscript.runtime import BadSave, Game
from innoscript.runtime.tools import scenario

HEADERS = {   # hosts: base cards' headers, their effects replaced by the test's
    "Writing": 'card "Writing" {\n    age 1\n    color blue\n    icons hex lightbulb lightbulb crown\n    dogma lightbulb\n}\n',
    "Mysticism": 'card "Mysticism" {\n    age 1\n    color purple\n    icons hex castle castle castle\n    dogma castle\n}\n',
}
AS_IF = "effect {\n    choose a card from your hand as chosen\n    execute chosen as if on this card\n}\n"


def _start(hosts: dict, setup: dict, do="Writing", sets=()):
    b = copy.deepcopy(load_bundle("3e", sets=list(sets)) if sets else load_bundle("3e"))
    vocab = edition_vocabulary(load_edition("3e", sets=list(sets)))
    for name, effects in hosts.items():
        data = compile_card(HEADERS[name] + effects, "t.inno", vocab).data
        next(c for c in b["cards"] if c["name"] == name)["effects"] = data["effects"]
    data = {"name": "t", "version": 2, "edition": "3e", "players": len(setup["players"]), "setup": setup,
            "do": {"dogma": do}, "expect": {}}
    if sets:
        data["sets"] = list(sets)
    e = scenario.build_state(data, b)
    e.advance()
    events = e.answer(scenario.action(e, data["do"], "t"))
    return e, b, events


def _ran(e, events, skip=("Writing", "Mysticism")):
    return [(e.cards.name[ev["card"]], ev["effect"], ev["player"]) for ev in events
            if ev["type"] == "effect" and e.cards.name[ev["card"]] not in skip]


def _hand(e, p):
    return sorted(e.cards.name[c] for c in e.state["players"][p]["hand"])


def test_a_demand_executed_as_if_hits_only_the_opponents_vulnerable_in_the_running_dogma():
    """Writing's Dogma (lightbulbs): the player with no lightbulb is vulnerable though they have more castles than
    me; the one with as many lightbulbs shares Writing and is not demanded, though they have no castle at all."""
    setup = {"players": [{"board": {"blue": ["Writing"]}, "hand": ["Archery"]},
                         {"board": {"red": ["Metalworking"]}},
                         {"board": {"blue": ["Mathematics"]}}],
             "supply": {"1": ["Oars", "Pottery"]}}
    e, _, events = _start({"Writing": AS_IF}, setup)
    (ex,) = [ev for ev in events if ev["type"] == "execute"]
    assert ex["kind"] == "as-if" and ex["icon"] == "lightbulb" and ex["vulnerable"] == [1]
    assert _ran(e, events) == [("Archery", 0, 1)]
    assert _hand(e, 0) == ["Archery", "Oars"]


def test_nothing_executed_as_if_is_shared():
    """Sailing's non-demand (draw and meld a 1) runs for me alone, though the other player has more crowns than
    me; Ruler's echo (draw a 2) runs first, for me alone too."""
    setup = {"players": [{"board": {"blue": ["Writing"]}, "hand": ["Sailing", "Ruler"]},
                         {"board": {"blue": ["Mathematics"], "yellow": ["Domestication"]}}],
             "supply": {"1": ["Oars", "Pottery"], "2": ["Calendar"]}}
    hosts = {"Writing": "effect {\n    each c in your hand {\n        execute c as if on this card\n    }\n}\n"}
    e, _, events = _start(hosts, setup, sets=("echoes",))
    ran = _ran(e, events)
    assert ran == [("Sailing", 0, 0), ("Ruler", 0, 0)], ran
    assert not [ev for ev in events if ev["type"] == "sharing_bonus"]
    assert "Calendar" in _hand(e, 0)


def test_inside_a_free_dogma_it_uses_that_dogmas_icon_and_counts():
    """Writing takes a free Dogma of Mysticism (castles), whose effect executes Archery as if on it: the player
    with fewer castles than me is vulnerable (by the free Dogma's castles), though they have as many lightbulbs
    as me (they share Writing); the one with fewer lightbulbs but more castles is not."""
    hosts = {"Writing": "effect {\n    dogma top(your board, purple)\n}\n", "Mysticism": AS_IF}
    setup = {"players": [{"board": {"blue": ["Writing"], "purple": ["Mysticism"]}, "hand": ["Archery"]},  # 3 castles, 2 bulbs
                         {"board": {"blue": ["Mathematics"]}},                                          # 2 bulbs, 0 castles
                         {"board": {"red": ["Metalworking"], "yellow": ["Masonry"]}}],                     # 0 bulbs, 6 castles
             "supply": {"1": ["Oars", "Pottery"]}}
    e, _, events = _start(hosts, setup)
    (ex,) = [ev for ev in events if ev["type"] == "execute"]
    assert ex["icon"] == "castle" and ex["vulnerable"] == [1]
    assert _ran(e, events) == [("Archery", 0, 1)]


def test_outside_any_dogma_nobody_is_vulnerable():
    e, _, _ = _start({"Writing": "effect {\n    draw [1]\n}\n"},
                     {"players": [{"board": {"blue": ["Writing"]}}, {}]})
    e.state["dogma"] = dict(e.state["dogma"] or {}, hook="meld_action", icon=None, card=-1, stack=[])
    assert e.running_targets(0) == (None, [])


def test_a_game_saved_inside_an_execution_as_if_loads_and_finishes_identically():
    """Clothing (3rd edition: meld a card of a colour not on your board; ...) asks inside the execution."""
    setup = {"players": [{"board": {"blue": ["Writing"]}, "hand": ["Clothing", "Oars", "Archery"]},
                         {"board": {"red": ["Metalworking"]}}],
             "supply": {"1": ["Pottery", "Sailing"]}}
    hosts = {"Writing": "effect {\n    choose a card from your hand where (it is green) as chosen\n"
                        "    execute chosen as if on this card\n}\n"}
    e, bundle, _ = _start(hosts, setup)
    assert e.pending is not None and e.pending["player"] == 0, e.pending
    game = Game(e)
    loaded = Game.load(game.save(), bundle=bundle)
    for g in (game, loaded):
        while g.decision["kind"] != "action":
            g.apply(None if g.decision.get("optional") else g.decision["options"][:1])
    assert game.save() == loaded.save()


@pytest.mark.parametrize("kind", ["super-execute", "self-execute", "fully execute"])
def test_as_if_after_another_execution_is_a_compile_error(kind):
    with pytest.raises(CompileError) as info:
        compile_card(HEADERS["Writing"] + f"effect {{\n    draw [1] as d\n    {kind} d as if on this card\n}}\n",
                     "t.inno", edition_vocabulary(load_edition("3e")))
    assert info.value.diagnostics[0].code == "E314"


def test_the_enum_keeps_the_older_execution_kinds_numbers():
    from innoscript.core import opcodes as O
    assert O.ENUMS["execute"][:4] == ("execute", "self-execute", "super-execute", "fully-execute")
    assert O.ENUMS["execute"][4] == "as-if"
