"""4th-edition rule switches that no base card alone can show in a scenario:
super-execute, the chain achievement, elimination. Each test swaps the effects
of a card in a copy of the 4th-edition bundle for a small script."""
import json

import pytest

from innoscript.compiler.bundle import compile_card, load_bundle, vocabulary
from innoscript.core.editions import load_edition
from innoscript.runtime.rules.engine import Engine
from innoscript.runtime.tools.scenario import build_state


@pytest.fixture(scope="module")
def base():
    return load_bundle("4e")


def with_script(base, name, body):
    ed = load_edition("4e")
    card = next(c for c in base["cards"] if c["name"] == name)
    header = (f'card "{name}" {{\n age {card["age"]}\n color {card["color"]}\n icons {" ".join(card["icons"])}\n'
              f' dogma {card["dogma"]}\n}}\n')
    data = compile_card(header + body, "test.inno", vocabulary(ed.manifest, ed.card_names)).data
    b = json.loads(json.dumps(base))
    b["cards"][card["id"]]["effects"] = data["effects"]
    return b


def position(bundle, players, boards, hands=None, supply=None, do=None):
    data = {"edition": "4e", "players": players, "do": do or {"draw": True},
            "setup": {"players": [{"board": b, "hand": (hands or [[]] * players)[i]} for i, b in enumerate(boards)],
                      "supply": supply or {}}}
    engine = build_state(data, bundle)
    engine.advance()
    return engine


def act(engine, card):
    return engine.answer({"type": "dogma", "card": engine.cards.by_name[card]})


def test_super_execute_runs_demands_against_every_opponent(base):
    # Writing super-executes Archery: its demand hits both opponents whatever their icons.
    b = with_script(base, "Writing", 'effect {\n  let a = all players\' top cards where ("Construction" in it)\n'
                                     '  super-execute a\n}\n')
    e = position(b, 3, [{"blue": ["Writing"]}, {"red": ["Construction"], "green": ["The Wheel"]}, {"green": ["Sailing"]}],
                 hands=[[], ["Tools", "Calendar"], ["Pottery", "Oars"]])
    act(e, "Writing")
    while e.pending and e.pending["kind"] != "action":
        e.answer(e.pending["options"][:e.pending["max"]])
    hand0 = {e.cards.name[c] for c in e.state["players"][0]["hand"]}
    assert {"Tools", "Calendar", "Pottery", "Oars"} <= hand0  # both opponents gave two cards
    assert [ev for ev in e.events if ev["type"] == "execute" and ev["kind"] == "super-execute"]


def test_chain_achievement_draws_and_achieves_an_eleven(base):
    b = with_script(base, "Writing", 'effect {\n  let t = all players\' top cards where ("Tools" in it)\n  self-execute t\n}\n')
    b = with_script(b, "Tools", 'effect {\n  let s = all players\' top cards where ("Sailing" in it)\n  self-execute s\n}\n')
    # player 1 has more lightbulbs (Philosophy), so player 2 does not share
    e = position(b, 2, [{"blue": ["Writing"], "green": ["Sailing"], "purple": ["Philosophy"]}, {"blue": ["Tools"]}])
    act(e, "Writing")
    chain = [ev for ev in e.events if ev["type"] == "chain_achievement"]
    assert len(chain) == 1 and chain[0]["player"] == 0
    ach = e.state["players"][0]["achievements"]
    assert len(ach) == 1 and e.cards.age[ach[0]] == 11


def test_elimination_junks_the_players_cards_and_skips_them(base):
    b = with_script(base, "Writing", "effect {\n  you lose\n}\n")
    e = position(b, 3, [{"blue": ["Writing"]}, {"red": ["Oars"]}, {"green": ["Sailing"]}],
                 hands=[["Tools"], [], []])
    act(e, "Writing")  # only player 1 has lightbulbs: only player 1 performs it
    p1 = e.state["players"][0]
    assert p1["eliminated"] and not p1["hand"] and not any(pile["cards"] for pile in p1["board"].values())
    assert {e.cards.name[c] for c in e.state["junk"]} >= {"Writing", "Tools"}
    assert e.state["turn"]["active"] == 1 and not e.over
    assert 0 not in e.players_from(1, True)


def test_last_player_standing_wins(base):
    b = with_script(base, "Writing", "effect {\n  you lose\n}\n")
    e = position(b, 2, [{"blue": ["Writing"]}, {"red": ["Oars"]}])
    act(e, "Writing")
    assert e.over and e.state["result"]["winners"] == [1]


def test_special_achievements_wait_for_the_end_of_the_action(base):
    # 4th edition: a splay that shows a twelfth clock claims World only when the action ends.
    b = with_script(base, "Databases", "effect {\n  splay blue up\n  draw [1]\n}\n")
    e = position(b, 2, [{"blue": ["Quantum Theory", "Rocketry", "Computers", "Software"], "red": ["Fission"],
                         "green": ["Databases"]}, {"red": ["Oars"]}])
    from innoscript.runtime.state.board import icon_count
    act(e, "Databases")
    assert icon_count(e.cards, e.state, 0, "clock") >= 12
    kinds = [(ev["type"], ev.get("name")) for ev in e.events]
    assert ("special_achievement", "World") in kinds
    claim = kinds.index(("special_achievement", "World"))
    splay = next(i for i, k in enumerate(kinds) if k[0] == "splay")
    draw = next(i for i, k in enumerate(kinds) if k[0] == "draw")
    assert splay < draw < claim   # not at the splay: after the whole action


def test_a_claim_instructed_by_a_dogma_waits_for_the_end_of_the_action():
    from innoscript.runtime.tools import scenario as S
    from pathlib import Path
    out = S.run(Path(__file__).parent / "scenarios" / "4e" / "rules" / "dogma-claim-at-end-of-action.yaml")
    assert out.passed, out.failures
    kinds = [ev["type"] for ev in out.events]
    claim = kinds.index("special_achievement")
    assert kinds.index("claim_queued") < claim
    assert max(i for i, k in enumerate(kinds) if k == "effect") < claim   # after every effect
