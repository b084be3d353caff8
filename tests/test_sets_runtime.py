"""Sets in the runtime, on a made-up set built from the base bundle: its own supply piles, the draw rule
(the deal included), the fall-back to a base card at an empty set pile, achievements to win, special
achievement timing, saves and the invariants over the set piles. The Echoes rules themselves are proved
by the scenarios in tests/scenarios/echoes-*/."""
import copy
import json

import pytest

from innoscript.compiler.bundle import compile_card, compile_condition, load_bundle, vocabulary
from innoscript.core.editions import load_edition
from innoscript.runtime import Game
from innoscript.runtime.bots import RandomBot, answer_for
from innoscript.runtime.api.game import BadSave
from innoscript.runtime.rules.invariants import violations

SET = "made_up"


def bundle_with_set(edition="3e", draw_rule="count(your hand) == 1", bonus=1, check=None, special=None):
    """The edition's bundle plus a set holding a copy of every base card (renamed), whose draw rule
    is draw_rule (None: no rule)."""
    base = load_bundle(edition)
    b = copy.deepcopy(base)
    ed = load_edition(edition)
    vocab = vocabulary(ed.manifest, ed.card_names)
    n = len(b["cards"])
    for c in base["cards"]:
        twin = copy.deepcopy(c)
        twin.update(id=c["id"] + n, name=c["name"] + " (set)", set=SET)
        b["cards"].append(twin)
    manifest = {"set": SET, "edition": edition, "label": "A made-up set", "ages": b["manifest"]["ages"],
                "cards_expected": n, "extra_achievements_to_win": bonus}
    if check:
        manifest["rules"] = {"special_achievement_check": check}
    b["sets"] = {SET: {"manifest": manifest, "zones": {}, "hooks": [], "cell_scores": {},
                       "draw_rule": compile_condition(draw_rule, "set.json#draw_rule", vocab) if draw_rule else None}}
    if special:
        name, condition = special
        b["special_achievements"].append({"name": name, "claimed_by": None, "set": SET, "reads": ["*"],
                                          "scope": "game", "condition": compile_condition(condition, name, vocab)})
    return b


def set_of(game, cid):
    return game.cards.set[cid]


@pytest.mark.parametrize("edition", ["3e", "4e"])
def test_each_set_has_its_own_piles_and_the_draw_rule_deals_the_second_card(edition):
    game = Game.new(players=3, seed=4, bundle=bundle_with_set(edition))
    st = game.state
    assert st["sets"] == [SET] and sorted(st["set_supply"]) == [SET]
    for age, pile in st["set_supply"][SET].items():
        assert pile and all(set_of(game, c) == SET and str(game.cards.age[c]) == age for c in pile)
    for age, pile in st["supply"].items():
        assert all(set_of(game, c) == "base" for c in pile)
    # "a hand of exactly one card" holds for the second card of the deal only
    for pl in st["players"]:
        assert [set_of(game, c) for c in pl["hand"]] == ["base", SET]
    assert all(set_of(game, c) == "base" for c in st["available"]["standard"])
    assert violations(game.engine) == []


def test_without_a_draw_rule_every_plain_draw_is_a_base_card():
    game = Game.new(players=2, seed=4, bundle=bundle_with_set(draw_rule=None))
    assert all(set_of(game, c) == "base" for pl in game.state["players"] for c in pl["hand"])


def test_sets_leave_the_base_cards_where_they_would_be():
    """The set's piles are shuffled after the base piles: the base cards lie as in a game without sets."""
    plain = Game.new("3e", players=2, seed=9).state
    with_set = Game.new(players=2, seed=9, bundle=bundle_with_set(draw_rule=None)).state
    assert plain["supply"] == with_set["supply"]
    assert plain["available"] == {**with_set["available"], "special": plain["available"]["special"]}


def _engine_at_action(bundle, seed=2):
    game = Game.new(players=2, seed=seed, bundle=bundle)
    while game.decision["kind"] == "initial_meld":
        game.apply(game.decision["options"][0])
    return game


def test_a_set_draw_at_an_empty_set_pile_takes_a_base_card_of_that_age():
    game = _engine_at_action(bundle_with_set(draw_rule="count(your hand) >= 0"))
    e, st = game.engine, game.state
    p = st["turn"]["active"]
    def empty(pile):
        st["junk"].extend(pile)
        pile.clear()
    empty(st["set_supply"][SET]["1"])
    cid = e.draw_one(p, 1)
    assert set_of(game, cid) == "base" and game.cards.age[cid] == 1
    # empty base ages are skipped first, then the set pile of the age reached is tried
    empty(st["supply"]["2"])
    cid = e.draw_one(p, 2)
    assert set_of(game, cid) == SET and game.cards.age[cid] == 3
    assert e.events[-1]["set"] == SET
    # a draw that names a set takes that set even when the draw rule would not
    cid = e.draw_one(p, 4, from_set="base")
    assert set_of(game, cid) == "base"
    assert violations(e) == []


def test_a_returned_set_card_goes_back_to_its_own_pile():
    game = _engine_at_action(bundle_with_set())
    e, st = game.engine, game.state
    p = st["turn"]["active"]
    cid = next(c for c in st["players"][p]["hand"] if set_of(game, c) == SET)
    e._put(p, cid, "return")
    assert st["set_supply"][SET][str(game.cards.age[cid])][-1] == cid
    assert violations(e) == []


@pytest.mark.parametrize("options,teams,extra", [({}, False, 0), ({"extra_achievement": True}, False, 1),
                                                  ({"teams": "1+3"}, True, 0),
                                                  ({"teams": "1+3", "extra_achievement": True}, True, 1)])
def test_each_set_adds_its_achievements_to_win(options, teams, extra):
    players = 4 if teams else 2
    plain = Game.new("3e", players=players, seed=1, options=options).engine.achievements_needed()
    two = bundle_with_set(bonus=2)
    game = Game.new(players=players, seed=1, bundle=two, options=options)
    assert game.engine.achievements_needed() == plain + 2
    base = load_bundle("3e")["manifest"]["achievements_to_win"]
    assert plain == base["2" if teams else str(players)] + extra


def test_a_sets_special_achievement_is_available_and_checked_when_its_set_says():
    # the edition checks its own at once (3rd edition); the set's is checked at the end of an action
    cond = "count(your hand) >= 1"
    game = _engine_at_action(bundle_with_set(check="end_of_action", special=("Made-up prize", cond)))
    st, e = game.state, game.engine
    assert "Made-up prize" in st["available"]["special"]
    p = st["turn"]["active"]
    e.after_change()
    assert "Made-up prize" in st["available"]["special"]      # not at once
    game.apply({"type": "draw"})
    assert "Made-up prize" in st["players"][p]["achievements"]


def test_saves_keep_the_set_piles_and_a_save_from_other_sets_is_refused():
    b = bundle_with_set()
    game = _engine_at_action(b)
    bots = [RandomBot(1), RandomBot(2)]
    for _ in range(30):
        if game.over:
            break
        p = game.decision["player"]
        game.apply(answer_for(game, bots[p], p))
    text = game.save()
    again = Game.load(text, bundle=b)
    assert again.save() == text
    data = json.loads(text)
    with pytest.raises(BadSave, match="sets"):
        Game.load({**data, "sets": []}, bundle=b)
    moved = json.loads(text)
    piles = moved["set_supply"][SET]
    a1 = next(a for a in piles if piles[a])
    other = str(int(a1) % 10 + 1)
    piles[other].append(piles[a1].pop())
    with pytest.raises(BadSave, match="another set or age"):
        Game.load(moved, bundle=b)


def test_a_game_with_a_set_plays_to_the_end_without_violations():
    b = bundle_with_set(draw_rule="count(your hand) < 3")
    for seed in range(3):
        game = Game.new(players=3, seed=seed, bundle=b, fast=True)
        bots = [RandomBot(seed * 10 + p) for p in range(3)]
        while not game.over:
            p = game.decision["player"]
            game.apply(answer_for(game, bots[p], p))
            assert violations(game.engine) == []
        in_piles = sum(len(pile) for pile in game.state["set_supply"][SET].values())
        assert game.result is not None and in_piles < sum(1 for c in game.cards.set if c == SET)


# ---------------------------------------------------------------- hook points

HEAD = 'card "Hook" {\n age 1\n color blue\n icons hex lightbulb lightbulb crown\n dogma lightbulb\n}\n'


def hook_chunk(edition: str, body: str) -> dict:
    """A hook's chunk, made from a card effect's (the hook syntax itself is compiled from a set's rules files)."""
    ed = load_edition(edition)
    return compile_card(HEAD + "effect {\n" + body + "\n}\n", "rules/test.inno",
                        vocabulary(ed.manifest, ed.card_names)).data["effects"][0]


def bundle_with_hooks(edition="3e", **bodies):
    b = bundle_with_set(edition, draw_rule=None)
    b["sets"][SET]["hooks"] = [{"point": point, "params": ["melded", "covered"] if point == "meld_action" else [],
                                "source": "sets/made_up/rules/test.inno", "chunk": hook_chunk(edition, body)}
                               for point, body in bodies.items()]
    return b


def play_checked(game, seed, decisions=400):
    bots = [RandomBot(seed * 10 + p) for p in range(len(game.state["players"]))]
    events = []
    for _ in range(decisions):
        if game.over:
            break
        p = game.decision["player"]
        events += game.apply(answer_for(game, bots[p], p))
        assert violations(game.engine) == []
    return events


@pytest.mark.parametrize("edition", ["3e", "4e"])
def test_the_meld_action_hook_runs_after_each_meld_action_and_nowhere_else(edition):
    b = bundle_with_hooks(edition, meld_action="draw [1]")
    for seed in range(2):
        game = Game.new(players=2, seed=seed, bundle=b)
        # a 3rd-edition special achievement is claimed at once, before the hook
        events = [e for e in play_checked(game, seed) if e["type"] != "special_achievement"]
        actions = [i for i, e in enumerate(events) if e["type"] == "action"]
        hooks = [i for i, e in enumerate(events) if e["type"] == "hook"]
        melds = [i for i in actions if events[i]["action"]["type"] == "meld" and events[i + 2]["type"] != "game_over"]
        assert melds and len(hooks) == len(melds)
        for i, h in zip(melds, hooks):
            # the action, the meld, then the hook and its draw, before anything else of the action
            assert [e["type"] for e in events[i:i + 3]] == ["action", "meld", "hook"] and h == i + 2
            assert events[i + 3]["type"] in ("draw", "draw_past_end")
            assert events[h]["point"] == "meld_action" and events[h]["set"] == SET


def test_the_turn_start_hook_runs_before_the_first_action_of_every_turn():
    game = Game.new(players=3, seed=5, bundle=bundle_with_hooks(turn_start="draw [1]"))
    events = play_checked(game, 5)
    turns = [i for i, e in enumerate(events) if e["type"] == "turn"]
    assert len(turns) > 5
    for i in turns:
        if i + 2 < len(events):
            assert [e["type"] for e in events[i:i + 3]] == ["turn", "hook", "draw"]
            assert events[i + 2]["player"] == events[i]["player"]
    # the hook is not an action: each turn still has its actions
    assert sum(1 for e in events if e["type"] == "action") >= 2 * (len(turns) - 2)


def test_a_hook_asks_decisions_is_saved_half_way_and_is_undone_with_its_action():
    b = bundle_with_hooks(meld_action="may { draw [1] }")
    game = _engine_at_action(b)
    p = game.decision["player"]
    before = game.save()
    hand = len(game.state["players"][p]["hand"])
    meld = next(a for a in game.legal_actions if a["type"] == "meld")
    game.apply(meld)
    d = game.decision
    assert d["kind"] == "yes_no" and d["player"] == p and d["source"] == "A made-up set"
    assert game.state["dogma"]["hook"] == "meld_action"
    again = Game.load(game.save(), bundle=b)        # saved mid-hook, loaded, resumed
    again.apply(True)
    assert len(again.state["players"][p]["hand"]) == hand      # one melded, one drawn
    assert again.decision["kind"] == "action" and again.state["dogma"] is None
    game.apply(False)
    assert game.undoable([p])          # a meld from the hand shows only the others a card
    game.undo([p])
    assert game.save() == before


def test_a_hook_that_never_ends_is_stopped_by_the_budget():
    b = bundle_with_hooks(meld_action="may { repeat }")
    game = _engine_at_action(b)
    game.apply(next(a for a in game.legal_actions if a["type"] == "meld"))
    events = []
    for _ in range(300):
        if game.decision["kind"] != "yes_no":
            break
        events += game.apply(True)
    assert any(e["type"] == "dogma_stopped" for e in events)
    assert game.decision["kind"] == "action" and violations(game.engine) == []


def test_a_save_with_a_hook_the_bundle_lacks_is_refused():
    b = bundle_with_hooks(meld_action="may { draw [1] }")
    game = _engine_at_action(b)
    game.apply(next(a for a in game.legal_actions if a["type"] == "meld"))
    data = json.loads(game.save())
    data["dogma"]["stack"][-1]["effect"] = 5
    with pytest.raises(BadSave, match="hook"):
        Game.load(data, bundle=b)
    data = json.loads(game.save())
    data["dogma"]["hook"] = "somewhere"
    with pytest.raises(BadSave, match="hook point"):
        Game.load(data, bundle=b)


# ---------------------------------------------------------------- scenario files with sets

SCENARIO = """name: a draw at an empty set age
version: 2
edition: 3e
sets: [made_up]
players: 2
setup:
  players:
    - board: {red: [Archery]}
      hand: [Oars]
  supply: {1: [Agriculture (set)], 2: [Calendar (set)]}
  empty_set_ages: {made_up: [1]}
do: {draw: true}
expect:
  players:
    - hand: [Oars, Agriculture (set)]
  set_supply: {made_up: {1: []}}
"""


def test_a_scenario_names_its_sets_puts_set_cards_on_their_own_piles_and_empties_a_set_age(tmp_path):
    from innoscript.runtime.tools import scenario as S
    b = bundle_with_set(draw_rule="count(your hand) >= 0")
    path = tmp_path / "set-draw.yaml"
    path.write_text(SCENARIO)
    out = S.run(path, bundle=b)
    assert out.passed, out.failures
    st = out.engine.state
    assert [game_name(out.engine, c) for c in st["set_supply"][SET]["2"][:1]] == ["Calendar (set)"]
    # with nothing left in the set's age-1 pile, the draw is a base card of that age
    path.write_text(SCENARIO.replace("1: [Agriculture (set)], ", "").replace("    - hand: [Oars, Agriculture (set)]\n", "    - {}\n"))
    out = S.run(path, bundle=b)
    assert out.passed, out.failures
    drawn = out.engine.state["players"][0]["hand"][-1]
    assert out.engine.cards.set[drawn] == "base" and out.engine.cards.age[drawn] == 1
    path.write_text(SCENARIO.replace("sets: [made_up]\n", ""))
    with pytest.raises(S.ScenarioError, match="sets"):
        S.run(path, bundle=b)


def game_name(engine, cid):
    return engine.cards.name[cid]


@pytest.mark.parametrize("edition", ["3e", "4e"])
def test_the_sets_expressions_kept_by_what_they_read_agree_with_running_them_afresh(edition):
    """The draw rule, the bonus cell's score and a zone's limit are kept with the contents of their read sets
    (runtime/machine/expressions.py): at every decision of a seeded Echoes game, each kept value is the value the
    expression computes now."""
    from innoscript.runtime.machine import expressions
    game = Game.new(edition, 2, 11, bundle=load_bundle(edition, sets=("echoes",)), fast=True)
    from innoscript.runtime.rules import zones
    cards, bots, checked, limits = game.cards, [RandomBot(3), RandomBot(4)], 0, set()
    while not game.over and checked < 600:
        for p in range(2):
            chunk = cards.bundle["sets"]["echoes"]["draw_rule"]
            fresh = expressions.run_chunk(cards, game.state, chunk, "echoes:draw_rule", p)
            assert expressions.evaluate(cards, game.state, "echoes", "draw_rule", p) == fresh
            chunk = cards.bundle["sets"]["echoes"]["cell_scores"]["bonus"]
            fresh = expressions.run_chunk(cards, game.state, chunk, "echoes:cells/bonus/score", p)
            assert expressions.cell_score(cards, game.state, "bonus", p) == fresh
            checked += 2
            limit = cards.zones["forecast"].get("limit")
            if limit is not None:   # the 4th edition's forecast limit, from the highest splay
                fresh = expressions.run_chunk(cards, game.state, limit, "echoes:zones/forecast/limit", p)
                assert zones.limit(cards, game.state, "forecast", p) == max(int(fresh or 0), 0)
                limits.add(fresh)
        p = game.decision["player"]
        game.apply(answer_for(game, bots[p], p))
    assert cards.expression_values, "the values were kept"
    assert edition == "3e" or len(limits) > 1, "the forecast limit changed during the game"
