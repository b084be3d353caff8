"""Reliability: invariants (and that they can fail), a small soak, runaway effects, hostile input."""
import json

import pytest

from innoscript.compiler.bundle import compile_card, load_bundle, read_bundle_file, vocabulary
from innoscript.core.diagnostics import CompileError
from innoscript.core.editions import load_edition
from innoscript.runtime import Game, RuntimeFault
from innoscript.runtime.bots import RandomBot
from innoscript.runtime.rules.invariants import violations
from innoscript.runtime.tools.soak import soak


@pytest.fixture(scope="module")
def bundle():
    return load_bundle("3e")


@pytest.mark.parametrize("edition,players", [("3e", 2), ("3e", 4), ("4e", 3), ("4e", 5)])
def test_small_soak(edition, players):
    r = soak(edition, players, 6, seed=1000, jobs=1)
    assert r["games"] == 6 and r["decisions"] > 0
    assert r["violations"] == 0 and r["errors"] == 0, r["samples"]


def _midgame(bundle):
    game = Game.new(players=2, seed=3, bundle=bundle, fast=True)
    bot = RandomBot(3)
    for _ in range(60):
        game.apply(bot.answer(game.decision, game.cards))
    assert not violations(game._engine)
    return game


def test_invariants_catch_a_duplicated_card(bundle):
    game = _midgame(bundle)
    st = game.state
    some_card = next(c for pile in st["supply"].values() for c in pile)
    st["players"][0]["hand"].append(some_card)
    assert any("more than one place" in v for v in violations(game._engine))


def test_invariants_catch_a_lost_card_and_a_bad_splay(bundle):
    game = _midgame(bundle)
    st = game.state
    next(pile for pile in st["supply"].values() if pile).pop()
    pile = next(p for pl in st["players"] for p in pl["board"].values() if len(p["cards"]) <= 1)
    pile["splay"] = "left"
    found = violations(game._engine)
    assert any("no place" in v for v in found) and any("is splayed" in v for v in found)


def test_invariants_catch_a_stale_icon_cache(bundle):
    game = _midgame(bundle)
    st = game.state
    board = [c for pile in st["players"][0]["board"].values() for c in pile["cards"]]
    game._engine.icon_cache[(st["rev"], tuple(board))] = {i: 99 for i in game.cards.icons}
    for pile in st["players"][0]["board"].values():   # whole boards are counted from the piles' tables
        game.cards.pile_icons[(tuple(pile["cards"]), pile["splay"])] = {i: 99 for i in game.cards.icons}
    if "revs" in st:   # and a board's table is kept while its player's revision stands still
        game._engine.icon_cache[("board", 0, st["revs"][0])] = (board, {i: 99 for i in game.cards.icons})
    assert any("recount" in v for v in violations(game._engine))


def test_execute_nesting_limit_names_the_card(bundle):
    ed = load_edition("3e")
    text = ('card "Writing" {\n age 1\n color blue\n icons hex lightbulb lightbulb crown\n dogma lightbulb\n}\n'
            'effect {\n  let me_again = your top cards where ("Writing" in it)\n  execute me_again\n}\n')
    data = compile_card(text, "loop.inno", vocabulary(ed.manifest, ed.card_names)).data
    b = json.loads(json.dumps(bundle))
    wid = next(c["id"] for c in b["cards"] if c["name"] == "Writing")
    b["cards"][wid]["effects"] = data["effects"]
    from innoscript.runtime.tools.scenario import build_state
    e = build_state({"edition": "3e", "players": 2, "do": {"draw": True},
                     "setup": {"players": [{"board": {"blue": ["Writing"], "purple": ["Philosophy"]}}, {}]}}, b)
    e.advance()
    game = Game(e)
    before = game.save()
    with pytest.raises(RuntimeFault, match=r"Writing.*nested executions"):
        game.apply({"type": "dogma", "card": wid})
    assert game.save() == before


@pytest.mark.parametrize("attempt", [
    'import os',
    'effect { draw [__import__("os")] }',
    'effect { draw [open("/etc/passwd")] }',
    'effect { draw [eval("1")] }',
    'effect { draw [exec("print(1)")] }',
    'effect { let x = getattr(you, "__class__") }',
    'effect { draw [1] } ; os.system("true")',
])
def test_card_files_cannot_reach_outside_the_game(attempt, tmp_path):
    ed = load_edition("3e")
    marker = tmp_path / "touched"
    text = ('card "X" {\n age 1\n color red\n icons hex leaf leaf leaf\n dogma leaf\n}\n' + attempt + "\n"
            ).replace("/etc/passwd", str(marker))
    with pytest.raises(CompileError) as info:
        compile_card(text, "evil.inno", vocabulary(ed.manifest, ed.card_names))
    assert info.value.diagnostics[0].code.startswith("E")
    assert not marker.exists()


def test_a_bundle_whose_sources_changed_is_not_trusted(tmp_path, monkeypatch):
    from innoscript.compiler import bundle as B
    monkeypatch.setenv("INNOSCRIPT_CACHE", str(tmp_path))
    good = B.load_bundle("3e")
    cached = next(tmp_path.glob("3e-*.json"))
    tampered = json.loads(cached.read_text())
    tampered["cards"][0]["effects"][0]["consts"].append(99)   # altered bytecode, same file name
    tampered["source_hash"] = "0" * 64
    cached.write_text(json.dumps(tampered))
    assert B.load_bundle("3e") == good                        # the cache entry is rejected and rebuilt
    p = tmp_path / "other.json"
    p.write_text(json.dumps(tampered))
    with pytest.raises(CompileError) as info:
        read_bundle_file(str(p), check_sources=True)
    assert info.value.diagnostics[0].code == "E503"


def test_a_won_game_that_goes_on_counts_the_players_still_in_it():
    """After an elimination the achievements needed are the remaining players' number (4th edition, 4 players
    with one out: the 3-player 5), so 4 achievements between actions are no win yet and 5 are."""
    game = Game.new("4e", 4, 5, fast=True)
    bot = RandomBot(5)
    while game.decision["kind"] != "action" or game.state["turn"]["number"] < 3:
        game.apply(bot.answer(game.decision, game.cards))
    st = game.state
    st["players"][3]["eliminated"] = True
    gone_on = lambda: [v for v in violations(game._engine) if "the game goes on" in v]   # noqa: E731
    specials = st["available"]["special"]
    for _ in range(4):
        st["players"][0]["achievements"].append(specials.pop())
    assert game._engine.achievements_needed() == 5 and gone_on() == []
    st["players"][0]["achievements"].append(specials.pop())
    assert gone_on() and "needs 5" in gone_on()[0]
