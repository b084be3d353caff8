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
    assert "execute_echoes" not in Cards.of(plain).rules and Cards.of(echoes).rules["execute_echoes"] == "pile"
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
