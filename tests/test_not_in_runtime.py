"""Constructs the compiler accepts before the runtime has them stop the effect with a fault that names them, and
change nothing: a card's free Dogma."""
import json

import pytest

from innoscript.runtime import Game
from innoscript.runtime.vm import NotInRuntime


@pytest.mark.parametrize("call", [
    lambda e, f, c: e.free_dogma(f, c, True),
])
def test_named_fault_and_no_change(call):
    game = Game.new("4e", 2, 3)
    engine = game.engine
    cid = game.state["players"][0]["hand"][0]
    before = json.dumps(game.state, sort_keys=True)
    with pytest.raises(NotInRuntime, match="not implemented in the runtime yet"):
        call(engine, {"you": 0, "card": cid}, cid)
    assert json.dumps(game.state, sort_keys=True) == before
