"""Control flow the compiler lays out: an `if` whose branch ends in a loop still jumps past its `else`.

A loop ends in a jump back to its head, so the branch's last instruction ends the flow, yet the loop's exit
comes to the end of the branch: the `else` must be jumped over there (an `each` loop ending the branch once
ran into the `else` block, so both branches ran)."""
import copy

import pytest

from innoscript.compiler.bundle import compile_card, edition_vocabulary, load_bundle
from innoscript.core import opcodes as O
from innoscript.core.editions import load_edition
from innoscript.runtime.tools import scenario

CARD = """card "Agriculture" {
    age 1
    color yellow
    icons hex leaf leaf leaf
    dogma leaf
}

effect {
    if count(your hand) > 1 {
        BRANCH
    } else {
        draw [3]
    }
}
"""
BRANCHES = {
    "each": "each c in your hand {\n            score c\n        }",
    "repeat-free": "score all cards from your hand",
}


def _bundle(branch: str) -> dict:
    b = copy.deepcopy(load_bundle("3e"))
    data = compile_card(CARD.replace("BRANCH", BRANCHES[branch]), "t.inno", edition_vocabulary(load_edition("3e"))).data
    next(c for c in b["cards"] if c["name"] == "Agriculture")["effects"] = data["effects"]
    return b


@pytest.mark.parametrize("branch", sorted(BRANCHES))
def test_a_branch_ending_in_a_loop_skips_the_else(branch):
    data = {"name": "t", "version": 2, "edition": "3e", "players": 2,
            "setup": {"players": [{"board": {"yellow": ["Agriculture"]}, "hand": ["Archery", "Oars"]}, {}]},
            "do": {"dogma": "Agriculture"}, "expect": {}}
    e = scenario.build_state(data, _bundle(branch))
    e.advance()
    e.answer({"type": "dogma", "card": e.cards.by_name["Agriculture"]})
    me = e.state["players"][0]
    assert sorted(e.cards.name[c] for c in me["score"]) == ["Archery", "Oars"]
    assert me["hand"] == [], "the else branch ran too: a card was drawn"


def test_the_loop_exit_is_followed_by_a_jump_past_the_else():
    chunk = next(c for c in _bundle("each")["cards"] if c["name"] == "Agriculture")["effects"][0]
    code = chunk["code"]
    exits = [O.jump_target(O.OPCODES[i[0]], i) for i in code if O.OPCODES[i[0]].name == "FOR_NEXT"]
    assert exits and all(O.OPCODES[code[t][0]].name == "JUMP" for t in exits)
