"""Read sets: computed from a condition's bytecode; a condition is re-tested exactly when what it
reads changed, and games are the same with the skipping turned off."""
import json

import pytest

from innoscript.core import opcodes as O
from innoscript.compiler.bundle import compile_condition, load_bundle, vocabulary
from innoscript.core.readsets import read_set
from innoscript.runtime import Game
from innoscript.runtime.bots import RandomBot
from innoscript.runtime.tools.scenario import build_state


@pytest.fixture(scope="module")
def bundle():
    return load_bundle("3e")


READS = [
    ("points(you) >= 5", ["score:you"]),
    ("count(your hand) > 3", ["hand:you"]),
    ("icons(crown, your hand) > 1", ["hand:you"]),
    ("icons(clock, your board) >= 12", ["board:you"]),
    ("count(your top cards) == 5 and tucked_this_turn(you) > 1", ["board:you", "counters:you"]),
    ("count(your revealed cards) > 0", ["revealed:you"]),
    ("count(opponents' boards) > 3", ["board:all", "players"]),
    ("any opponents have (points(them) > 3)", ["players", "score:all"]),
    ("count(available achievements) > 2", ["available"]),
    ("achievements(you) >= 2", ["achievements:all"]),   # pooled in team games
    ("highest_value(values_of(your hand)) > 3", ["hand:you"]),          # pure over its arguments
    ("turn_number() > 2 and drawn_this_turn(you) == 0", ["drawn:you", "turn"]),
]


@pytest.mark.parametrize("expr,reads", READS)
def test_read_set_from_bytecode(bundle, expr, reads):
    assert read_set(compile_condition(expr, "test", vocabulary(bundle["manifest"]))) == reads


def test_bundle_records_read_sets(bundle):
    reads = {s["name"]: s["reads"] for s in bundle["special_achievements"]}
    assert reads["Monument"] == ["counters:you"]
    assert all(r == ["board:you"] for n, r in reads.items() if n != "Monument")


def test_unknown_builtin_or_action_reads_everything():
    chunk = {"kind": "condition", "code": [[O.CALL, 0, 0], [O.RESULT]], "consts": ["a_future_builtin"],
             "locals": [], "lines": [[1, 1], [1, 1]]}
    assert read_set(chunk) == ["*"]
    chunk = {"kind": "condition", "code": [[O.CONST, 0], [O.MOVE, 0], [O.RESULT]], "consts": [None],
             "locals": [], "lines": [[1, 1]] * 3}
    assert read_set(chunk) == ["*"]


POSITION = {"edition": "3e", "players": 2, "do": {"draw": True},
            "setup": {"players": [{"board": {"red": ["Metalworking"], "green": ["Clothing"]},
                                   "hand": ["Sailing", "Tools"]},
                                  {"board": {"purple": ["Mysticism"]}, "hand": ["Calendar"]}]}}


def _tested(engine, monkeypatch):
    calls = []
    real = engine._condition

    def spy(name, p):
        calls.append((name, p))
        return real(name, p)
    monkeypatch.setattr(engine, "_condition", spy)
    return calls


def test_condition_retested_only_when_its_reads_change(bundle, monkeypatch):
    engine = build_state(POSITION, bundle)
    calls = _tested(engine, monkeypatch)
    engine.check_specials()
    assert ("World", 0) in calls and ("Monument", 0) in calls
    calls.clear()
    engine.check_specials()
    assert calls == []                          # nothing changed
    engine.draw_one(0, 1)                       # player 0's hand: nobody reads it
    engine.check_specials()
    assert calls == []
    st = engine.state
    engine._meld(0, st["players"][0]["hand"][-1])
    engine.check_specials()                     # player 0's board: the board conditions, for player 0 only
    assert sorted(set(calls)) == sorted((n, 0) for n in ("Empire", "World", "Wonder", "Universe"))
    calls.clear()
    st["turn"]["scored"][1] += 1                # player 1's counters: Monument, for player 1
    engine.check_specials()
    assert calls == [("Monument", 1)]
    calls.clear()
    engine.skip_unchanged_specials = False      # switched off: everything, every time
    engine.check_specials()
    assert len(calls) == 2 * len(st["available"]["special"])


def _play(bundle, seed, skip):
    game = Game.new(players=2, seed=seed, bundle=bundle, fast=True)
    game.engine.skip_unchanged_specials = skip
    bot, events = RandomBot(seed), []
    while not game.over:
        events += game.apply(bot.answer(game.decision, game.cards))
    return json.dumps(events), game.save()


@pytest.mark.parametrize("edition", ["3e", "4e"])
def test_games_identical_with_and_without_skipping(edition):
    bundle = load_bundle(edition)
    for seed in range(3):
        assert _play(bundle, seed, True) == _play(bundle, seed, False)


def test_a_condition_on_the_hand_is_retested_after_a_plain_draw(bundle):
    """A plain draw takes its card off a supply pile and moves no revision counter of the player's: a
    condition that reads the hand is tested again all the same."""
    engine = build_state(POSITION, bundle)
    chunk = compile_condition("count(your hand) >= 4", "test", vocabulary(bundle["manifest"]))
    assert read_set(chunk) == ["hand:you"]
    original = engine.cards.specials    # the bundle's games share their Cards: put it back afterwards
    try:
        engine.cards.specials = dict(original)
        engine.cards.specials["World"] = dict(original["World"], condition=chunk, reads=read_set(chunk))
        engine.check_specials()
        assert "World" in engine.state["available"]["special"]      # two cards in hand
        engine.draw_one(0, 1)
        engine.draw_one(0, 1)
        engine.check_specials()
        assert "World" in engine.state["players"][0]["achievements"]
    finally:
        engine.cards.specials = original


def test_the_revision_counter_moves_with_the_board_alone(bundle):
    """A player's revision counter stands for the board (and set zones) in fingerprints and icon tables:
    it must move with every change of them, and need not with a hand or a score."""
    engine = build_state(POSITION, bundle)
    revs = engine.state["revs"]
    hand = engine.state["players"][0]["hand"]
    before = list(revs)
    engine.draw_one(0, 1)
    engine._put(0, hand[0], "score")
    assert revs == before                       # hand and score: no board changed
    engine._put(0, hand[0], "meld")
    assert revs[0] != before[0] and revs[1] == before[1]
    moved = list(revs)
    engine._put(0, engine.state["players"][0]["board"]["red"]["cards"][0], "return")
    assert revs[0] != moved[0]                  # a card leaving the board


def test_every_sets_manifest_expression_is_kept():
    """Each manifest expression of every set (a cell's score or achievements, a draw rule, a zone's limit, a
    set action's cards) reads what can be compared, so its value is kept and not run at every reading (a
    set costs what it adds). A new expression that reads anything at all fails here until its builtins
    are classified."""
    from innoscript.runtime.state import fingerprints
    for edition, sets in (("3e", ["artifacts", "cities", "echoes"]), ("4e", ["artifacts", "cities", "echoes", "unseen"])):
        b = load_bundle(edition, sets=sets)
        chunks = []
        for name, s in b["sets"].items():
            chunks += [(f"{name} draw_rule", s["draw_rule"])] if s.get("draw_rule") else []
            for key in ("cell_scores", "cell_achievements"):
                chunks += [(f"{name} {key} {c}", ch) for c, ch in s.get(key, {}).items()]
            chunks += [(f"{name} action {a}", spec["cards"]) for a, spec in s.get("actions", {}).items()]
            chunks += [(f"{name} zone {z}", spec["limit"]) for z, spec in s.get("zones", {}).items()
                       if isinstance(spec, dict) and isinstance(spec.get("limit"), dict)]
        assert len(chunks) >= 5, edition
        unkept = [label for label, ch in chunks if not fingerprints.comparable(read_set(ch))]
        assert unkept == [], (edition, unkept)
