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
