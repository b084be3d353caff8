"""Turn counters and neighbours (docs/engine-concepts.md, "Turn counters and neighbours"): how many cards left
a deck for each player this turn, the turn's number, the players to either side. A made-up card reads them."""
import copy

from innoscript.compiler.bundle import compile_card, edition_vocabulary, load_bundle
from innoscript.core.editions import load_edition
from innoscript.runtime.api.game import Game
from innoscript.runtime.machine import builtins as impl
from innoscript.runtime.tools import scenario

READER = """card "Agriculture" {
    age 1
    color yellow
    icons hex leaf leaf leaf
    dogma leaf
}

effect {
    draw [1]
    draw [1]
    if drawn_this_turn(you) == 2 and turn_number() == 3 {
        draw and score [1]
    }
    let neighbour = left_of(you)
    if count(neighbour's hand) == 0 {
        draw and score [1]
    }
}
"""


def _started(players: int) -> Game:
    g = Game.new("3e", players, seed=4)
    while g.decision["kind"] == "initial_meld":
        g.apply(g.decision["options"][0], g.decision["player"])
    return g


def test_draws_this_turn_are_counted_per_player_and_start_again_each_turn():
    g = _started(3)
    st, e = g.state, g.engine
    assert st["turn"]["number"] == 1 and st["turn"]["drawn"] == [0, 0, 0]    # the deal is no turn's
    g.apply({"type": "draw"})          # the first turn has one action
    p = st["turn"]["active"]
    assert st["turn"]["number"] == 2
    g.apply({"type": "draw"})
    assert impl.call(e, {"you": p}, "drawn_this_turn", [p]) == 1
    assert [impl.call(e, {"you": p}, "drawn_this_turn", [q]) for q in range(3) if q != p] == [0, 0]
    while st["turn"]["active"] == p:
        g.apply({"type": "draw"})
    assert st["turn"]["drawn"] == [0, 0, 0] and impl.call(e, {"you": p}, "turn_number", []) == 3
    saved = Game.load(g.save())
    assert saved.state["turn"]["drawn"] == [0, 0, 0]


def test_neighbours_follow_the_turn_order_past_an_eliminated_player():
    g = _started(4)
    e = g.engine
    assert [impl.call(e, {}, "left_of", [p]) for p in range(4)] == [1, 2, 3, 0]
    assert [impl.call(e, {}, "right_of", [p]) for p in range(4)] == [3, 0, 1, 2]
    g.state["players"][1]["eliminated"] = True
    assert impl.call(e, {}, "left_of", [0]) == 2 and impl.call(e, {}, "right_of", [2]) == 0


def test_a_card_reads_them():
    b = copy.deepcopy(load_bundle("3e"))
    data = compile_card(READER, "reader.inno", edition_vocabulary(load_edition("3e"))).data
    next(c for c in b["cards"] if c["name"] == "Agriculture")["effects"] = data["effects"]
    spec = {"name": "t", "version": 2, "edition": "3e", "players": 3, "turn": 3,
            "setup": {"players": [{"board": {"yellow": ["Agriculture"]}}, {"hand": ["Oars"]}, {}]},
            "do": {"dogma": "Agriculture"}, "expect": {}}
    engine = scenario.build_state(spec, b)
    engine.advance()
    engine.answer({"type": "dogma", "card": engine.cards.by_name["Agriculture"]})
    # two draws this turn (its first), so one card scored; the left neighbour (player 2) holds Oars: no second
    # (mutated: the neighbour with an empty hand scores a second; a third draw scores none)
    assert len(engine.state["players"][0]["score"]) == 1
