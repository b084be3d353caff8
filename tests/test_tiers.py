"""The compiled tier against the VM: every scenario (on the bundle with its sets) and a seeded batch of
games, with Echoes too, give the same events and the same final states on both; a game saved on one tier resumes on the other; the generated code
stops a runaway effect at the same instruction as the VM."""
import copy
import hashlib
import json
import random
from pathlib import Path

import pytest

from innoscript.compiler.bundle import load_bundle
from innoscript.runtime import Game, RuntimeFault
from innoscript.runtime.machine import frames, tier, vm
from innoscript.runtime.tools import scenario as S
from innoscript.runtime.bots import RandomBot

SCENARIOS = sorted((Path(__file__).parent / "scenarios").rglob("*.yaml"))


@pytest.fixture(autouse=True)
def _translate_at_once(monkeypatch):
    """Every chunk on the compiled tier from its first run (not only once hot), so that both tiers are
    compared on all of it."""
    monkeypatch.setattr(tier, "HOT", 0)
READ = S.read     # the reader itself: S.read is patched below


def _scenario(path, which, monkeypatch, bundles={}, parsed={}):
    monkeypatch.setenv("INNOSCRIPT_TIER", which)
    if path not in parsed:          # each file is parsed once for both runs
        parsed[path] = READ(path)
    monkeypatch.setattr(S, "read", lambda p: copy.deepcopy(parsed[path]))
    key = parsed[path]["edition"], tuple(sorted(parsed[path].get("sets") or ()))
    if key not in bundles:          # a scenario with sets runs on the bundle with them
        bundles[key] = load_bundle(key[0], sets=key[1]) if key[1] else load_bundle(key[0])
    out = S.run(path, bundles[key])
    assert out.engine.tier == which
    return hashlib.sha256(json.dumps([out.passed, out.failures, out.events, out.engine.state]).encode()).hexdigest()


def test_every_scenario_same_on_both_tiers(monkeypatch):
    assert len(SCENARIOS) > 100
    runs = {p: (_scenario(p, "vm", monkeypatch), _scenario(p, "compiled", monkeypatch)) for p in SCENARIOS}
    assert [str(p) for p, (vm_run, tier_run) in runs.items() if vm_run != tier_run] == []
    assert len({vm_run for vm_run, _ in runs.values()}) > len(SCENARIOS) // 2   # each file its own run
    assert any("sets" in READ(p) for p in runs)


def _game(edition, players, seed, which, resume_at=None, resume_tier=None, sets=()):
    bundle = load_bundle(edition, sets=sets) if sets else load_bundle(edition)
    game = Game.new(edition, players, seed, bundle=bundle, fast=True)
    game.engine.tier = which
    bots = [RandomBot(seed * 31 + p) for p in range(players)]
    events, n = [], 0
    while not game.over:
        if n == resume_at:     # save here and go on in a new engine on the other tier
            game = Game.load(game.save(), bundle=bundle)
            game.engine.transactional = False
            game.engine.tier = resume_tier
        p = game.decision["player"]
        events += game.apply(bots[p].answer(game.decision, game.cards))
        n += 1
    return json.dumps(events), game.save()


@pytest.mark.parametrize("edition", ["3e", "4e"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_seeded_games_same_on_both_tiers(edition, players):
    for seed in range(3):
        assert _game(edition, players, seed, "vm") == _game(edition, players, seed, "compiled"), seed


@pytest.mark.parametrize("edition", ["3e", "4e"])
@pytest.mark.parametrize("players", [2, 3])
def test_seeded_games_with_echoes_same_on_both_tiers(edition, players):
    for seed in range(2):
        assert _game(edition, players, seed, "vm", sets=("echoes",)) == \
            _game(edition, players, seed, "compiled", sets=("echoes",)), seed


@pytest.mark.parametrize("edition", ["3e", "4e"])
def test_saved_on_one_tier_resumes_on_the_other(edition):
    for seed in range(3):
        at = random.Random(seed).randint(5, 120)
        want = _game(edition, 2, seed, "vm")
        assert _game(edition, 2, seed, "compiled", at, "vm") == want
        assert _game(edition, 2, seed, "vm", at, "compiled") == want


def test_default_tier_from_the_environment(monkeypatch):
    monkeypatch.setenv("INNOSCRIPT_TIER", "vm")
    assert Game.new(seed=1).engine.tier == "vm"
    monkeypatch.setenv("INNOSCRIPT_TIER", "compiled")
    assert Game.new(seed=1).engine.tier == "compiled"
    monkeypatch.delenv("INNOSCRIPT_TIER")
    assert tier.default_tier() == "compiled"


def test_runaway_effect_stops_at_the_same_instruction():
    # a loop that never ends: the budget runs out inside a block of the generated code
    chunk = {"kind": "non_demand", "code": [[vm.O.CONST, 0], [vm.O.POP], [vm.O.CONST, 0], [vm.O.POP], [vm.O.JUMP, 0]],
             "consts": [1], "lines": [[1, 1], [2, 3], [3, 5], [4, 7], [5, 9]], "locals": [], "max_stack": 1}
    faults = []
    for which in ("vm", "compiled"):
        e = Game.new(seed=1, fast=True).engine
        e.budget = 1001
        frame = {"card": -1, "chunk": chunk, "label": "Spinner", "kind": "non_demand", "pc": 0, "stack": [],
                 "locals": [], "you": 0, "me": 0, "did": False}
        fn = tier.build(chunk, "Spinner") if which == "compiled" else vm.run_vm
        with pytest.raises(RuntimeFault) as err:
            fn(e, frame)
        faults.append((str(err.value), err.value.line, e.budget))
    assert faults[0] == faults[1] and faults[0][1] == 1


def test_generated_source_keeps_decisions_on_the_vm():
    """Instructions that always ask are handed to the VM; those that may ask (SELECT, SPLAY, MOVE) run the
    VM's implementation and end their block, and the function leaves the whole stack in the frame when
    one asks."""
    bundle = load_bundle("3e")
    may_ask = 0
    for card in bundle["cards"]:
        for i, chunk in enumerate(card["effects"]):
            src = tier.translate(chunk, f"{card['name']} {i}")
            compile(src, "<test>", "exec")
            for pc, ins in enumerate(chunk["code"]):
                called = f"_op{ins[0]}(engine, frame, CHUNK, INS[{pc}], {pc})"    # the VM's implementation
                if ins[0] in (vm.O.ASK, vm.O.CHOOSE):
                    assert called not in src
                if ins[0] in (vm.O.SELECT, vm.O.SPLAY, vm.O.MOVE) and called in src:
                    may_ask += 1
                    assert f"if blk == {pc + 1}:" in src        # the next instruction begins a block
                    assert "except vm.NeedDecision" in src
    assert may_ask > 100


@pytest.mark.parametrize("edition", ["3e", "4e"])
def test_every_decision_is_the_same_state_on_both_tiers(edition):
    """Saved at every decision (frames, stacks and budgets too), seeded games are the same on both tiers."""
    def saves(which, seed):
        bundle = load_bundle(edition)
        game = Game.new(edition, 2, seed, bundle=bundle, fast=True)
        game.engine.tier = which
        bots = [RandomBot(seed * 31 + p) for p in range(2)]
        out = []
        while not game.over:
            out.append(game.save())
            p = game.decision["player"]
            game.apply(bots[p].answer(game.decision, game.cards))
        return out
    for seed in range(2):
        vm_saves, tier_saves = saves("vm", seed), saves("compiled", seed)
        assert len(vm_saves) == len(tier_saves)
        assert [i for i, (a, b) in enumerate(zip(vm_saves, tier_saves)) if a != b] == []
        assert sum('"stack":[' in s and '"pc":' in s for s in vm_saves) > 10   # decisions inside effects




def test_a_chunk_is_translated_once_hot(monkeypatch):
    """Fresh frames of a chunk run on the VM until HOT of them have run in the process; then the
    translated function runs them."""
    monkeypatch.setattr(tier, "HOT", 3)
    monkeypatch.setattr(tier, "DISK", False)
    monkeypatch.setattr(tier, "_cache", {})
    monkeypatch.setattr(tier, "_runs", {})
    game = Game.new(seed=4)
    eng = game.engine
    card = eng.cards.by_name["Writing"]
    got = [tier.function_for(eng, frames.new_frame(eng.cards, card, 0, 0, 0)) for _ in range(5)]
    assert got[:3] == [None] * 3 and got[3] is not None and got[4] is got[3]


def _fresh_process(monkeypatch):
    """What a new process starts with: no translations in memory, no runs counted."""
    monkeypatch.setattr(tier, "_cache", {})
    monkeypatch.setattr(tier, "_runs", {})


def _tier_cache(monkeypatch, folder, disk: bool, hot: int):
    """The cache folder, the disk cache on or off and the hot threshold, in a fresh process."""
    monkeypatch.setenv("INNOSCRIPT_CACHE", str(folder))
    monkeypatch.setattr(tier, "DISK", disk)
    monkeypatch.setattr(tier, "HOT", hot)
    _fresh_process(monkeypatch)


def _writing(seed=4):
    eng = Game.new(seed=seed).engine
    return eng, frames.new_frame(eng.cards, eng.cards.by_name["Writing"], 0, 0, 0)


def test_a_translation_compiled_once_serves_later_processes(monkeypatch, tmp_path):
    """A hot chunk's compiled translation is kept in the cache folder; a later process loads it at the
    chunk's first run, without compiling, and it runs as the freshly compiled one does."""
    _tier_cache(monkeypatch, tmp_path, disk=True, hot=2)
    eng, frame = _writing()
    assert [tier.function_for(eng, frame) is None for _ in range(3)] == [True, True, False]
    files = list(tmp_path.glob("tier-*/*.code"))
    assert len(files) == 1

    _fresh_process(monkeypatch)
    monkeypatch.setattr(tier, "compile", lambda *a: pytest.fail("compiled again"), raising=False)
    eng, frame = _writing()
    fn = tier.function_for(eng, frame)
    assert fn is not None
    monkeypatch.delattr(tier, "compile")     # running it may translate other chunks (the conditions)
    assert fn(eng, frame) == "done" and eng.state["players"][0]["hand"]


def test_a_damaged_cached_translation_is_compiled_again(monkeypatch, tmp_path):
    _tier_cache(monkeypatch, tmp_path, disk=True, hot=0)
    eng, frame = _writing()
    tier.function_for(eng, frame)
    (path,) = tmp_path.glob("tier-*/*.code")
    good = path.read_bytes()
    for bad in (b"", good[: len(good) // 2], b"\xff" * 40, __import__("marshal").dumps(("not", "code"))):
        path.write_bytes(bad)
        _fresh_process(monkeypatch)
        eng, frame = _writing()
        assert tier.function_for(eng, frame)(eng, frame) == "done"
        assert path.read_bytes() == good     # compiled again, and kept again


def test_no_cached_translations_when_turned_off(monkeypatch, tmp_path):
    _tier_cache(monkeypatch, tmp_path, disk=False, hot=0)
    eng, frame = _writing()
    assert tier.function_for(eng, frame) is not None
    assert not list(tmp_path.glob("tier-*"))


def _states(edition, sets, seeds, every=5):
    """States along seeded random games with these sets, and their engine."""
    bundle = load_bundle(edition, sets=sets)
    out = []
    for seed in seeds:
        game = Game.new(edition, 3, seed, bundle=bundle, fast=True)
        bots = [RandomBot(seed * 7 + p) for p in range(3)]
        n = 0
        while not game.over:
            game.apply(bots[game.decision["player"]].answer(game.decision, game.cards))
            n += 1
            if n % every == 0:
                out.append(copy.deepcopy(game.engine.state))
    return game.engine, out


@pytest.mark.parametrize("edition", ["3e", "4e"])
def test_pile_and_board_summaries_read_as_the_builtins(edition):
    """What the compiled tier reads from a pile's or a board's summary (icons, cell effects, cell values of
    one pile, or of a board) is what the builtins count on the cards themselves."""
    from innoscript.runtime.machine import builtins as B
    sets = ("artifacts", "cities", "echoes") + (("unseen",) if edition == "4e" else ())
    engine, states = _states(edition, sets, range(3))
    cards = engine.cards
    cells = sorted(cards.cells)
    assert {"echo", "bonus"} <= set(cells)
    seen = {"icons": 0, "cell_effects": 0, "cell_values": 0}
    read = {"icons": B.pile_icons_of, "cell_effects": B.pile_cell_effects_of, "cell_values": B.pile_cell_values_of}
    for st in states:
        engine.state, engine.icon_cache = st, {}
        for p in range(len(st["players"])):
            frame = {"you": p, "me": p}
            for color in cards.colors:
                pile = B.IMPLEMENTATIONS["pile"](engine, frame, p, color)
                for fname, whats in (("icons", cards.icons + [cards.hex]), ("cell_effects", cells), ("cell_values", cells)):
                    for what in whats:
                        want = B.IMPLEMENTATIONS[fname](engine, frame, what, pile)
                        assert read[fname](engine, what, p, color) == want, (fname, what, color)
                        seen[fname] += bool(want)
            board = vm._zone(engine, p, "board")
            for fname in ("cell_effects", "cell_values"):
                for what in cells:
                    assert B.board_read_of(engine, fname, what, p) == B.IMPLEMENTATIONS[fname](engine, frame, what, board)
    assert all(seen.values()), seen     # each read found something to count
    assert B.pile_icons_of(engine, cards.hex, None, cards.colors[0]) is None    # not a player: the builtins
    assert B.pile_cell_values_of(engine, "bonus", 0, "mauve") is None            # no such pile: the builtins


def test_manifest_expressions_same_on_both_tiers(monkeypatch):
    """The sets' manifest expressions (Echoes' bonus score, the forecast's limit, the draw rule, Cities'
    derived achievements) give the same values on the compiled tier as on the VM."""
    from innoscript.runtime.machine import expressions as X
    engine, states = _states("4e", ("cities", "echoes"), range(2), every=3)
    cards = engine.cards
    chunks = [(f"{n}:cells/{cell}/score", chunk) for cell, (n, chunk) in cards.cell_scores.items()] + \
        [(f"{n}:cells/{cell}/achievements", chunk) for cell, (n, chunk) in cards.cell_achievements.items()] + \
        [(f"{n}:draw_rule", cards.bundle["sets"][n]["draw_rule"]) for n in cards.set_names
         if cards.bundle["sets"][n].get("draw_rule")]
    assert len(chunks) >= 3
    values = {}
    for which in ("vm", "compiled"):
        monkeypatch.setattr(X._Reader, "tier", which)
        values[which] = [X.run_chunk(cards, st, chunk, label, p)
                         for st in states for p in range(3) for label, chunk in chunks]
    assert values["vm"] == values["compiled"]
    assert len(set(map(str, values["vm"]))) > 2      # the expressions vary over the states
    assert any(fn is not None for _, fn in tier._expressions.values())


def _scan(state, cid):
    """Where a card is, found by looking through every place in locate's order: the reference for the index."""
    for p, pl in enumerate(state["players"]):
        for zone in ("hand", "score", "achievements"):
            if cid in pl[zone]:
                return (zone, p, None)
        for color, pile in pl["board"].items():
            if cid in pile["cards"]:
                return ("board", p, color)
        for name, zone in pl.get("zones", {}).items():
            if cid in zone:
                return (name, p, None)
    for age, pile in state["supply"].items():
        if cid in pile:
            return ("supply", None, age)
    for name, piles in state.get("set_supply", {}).items():
        for age, pile in piles.items():
            if cid in pile:
                return ("supply", None, (name, age))
    for name, zone in state.get("zones", {}).items():
        if cid in zone:
            return (name, None, None)
    for zone, cs in (("available", state["available"]["standard"]), ("junk", state["junk"]), ("removed", state["removed"])):
        if cid in cs:
            return (zone, None, None)
    return (None, None, None)


def test_card_location_index_answers_as_a_scan():
    """The card-location index (a hint kept by the move primitives, checked before use) gives every card's
    place as a scan of the whole position does, along games with every set, and across games whose
    positions it was not kept for; a wrong or foreign hint costs a scan, never a wrong answer."""
    from innoscript.runtime.state import board as Bd
    engine, states = _states("4e", ("artifacts", "cities", "echoes", "unseen"), range(2), every=7)
    _, other = _states("3e", (), range(1), every=11)
    n = len(engine.cards.cards)
    zones = set()
    for st in states + other:
        for cid in range(n):
            want = _scan(st, cid)
            assert Bd.locate(st, cid) == want and Bd.locate(st, cid) == want, cid
            zones.add(want[0])
    assert {"hand", "score", "board", "supply", "achievements"} <= zones
    Bd.note_location(0, ("board", 7, "mauve"))                   # a hint no position has
    assert Bd.locate(states[0], 0) == _scan(states[0], 0)
    Bd.note_location(0, ("hand", 1, None))                        # a hint naming the wrong list
    assert Bd.locate(states[-1], 0) == _scan(states[-1], 0)
    st = copy.deepcopy(states[-1])                                # a card taken out of every place
    cid, at = next(Bd.places(st))
    Bd.place_list(st, at).remove(cid)
    assert Bd.locate(st, cid) == (None, None, None) == _scan(st, cid)


def test_values_kept_by_revision_equal_a_fresh_run():
    """The sets' expressions kept in an engine's derived cache by revision counters (scores, draw rules,
    derived achievements, a set action's cards) equal a fresh run at every decision of games with every
    set, a team game too; a restore drops them."""
    from innoscript.runtime.machine import expressions as X
    checked = 0
    for edition, sets, players, options in (("4e", ("artifacts", "cities", "echoes", "unseen"), 3, None),
                                             ("3e", ("cities", "echoes"), 4, {"teams": "1+3"})):
        bundle = load_bundle(edition, sets=sets)
        for seed in range(2):
            game = Game.new(edition, players, seed, bundle=bundle, fast=True, **({"options": options} if options else {}))
            bots = [RandomBot(seed * 7 + p) for p in range(players)]
            eng, cards = game.engine, game.cards
            while not game.over:
                st = eng.state
                for p in range(players):
                    assert X.points(cards, st, p, eng.icon_cache) == X.points(cards, st, p), (seed, p)
                    assert X.held_achievements(cards, st, p, eng.icon_cache) == X.held_achievements(cards, st, p)
                    assert X.draw_set(cards, st, p, eng.icon_cache) == X.draw_set(cards, st, p)
                    for name, spec in cards.set_actions.items():
                        label = f"{spec['set']}:actions/{name}/cards"
                        assert X.kept_value(cards, st, spec["cards"], label, p, eng.icon_cache) == \
                            X.run_chunk(cards, st, spec["cards"], label, p)
                    checked += 1
                game.apply(bots[game.decision["player"]].answer(game.decision, game.cards))
    assert checked > 1000


def test_a_kept_flag_follows_an_opponents_board():
    """A derived achievement that reads every board (Cities' flag) is kept by every player's revision: the
    opponent's splay that outnumbers the flag's pile is seen at the next reading."""
    from innoscript.runtime.machine import expressions as X
    from innoscript.runtime.state import positions
    from innoscript.runtime.tools.scenario import build_state
    data = {"edition": "4e", "sets": ["cities"], "players": 2,
            "setup": {"players": [{"board": {"red": ["Algiers"]}},
                                  {"board": {"red": ["Archery", "Oars"]}, "hand": ["Metalworking"]}]}}
    engine = build_state(data, load_bundle("4e", sets=["cities"]))
    cards, st, keep = engine.cards, engine.state, engine.icon_cache
    assert X.derived_achievements(cards, st, 0, keep) == 1      # one visible red card against one
    metalworking = cards.by_name["Metalworking"]
    positions.remove_from_anywhere(st, metalworking)
    positions.place(cards, st, metalworking, "board", 1, bottom=True)
    st["players"][1]["board"]["red"]["splay"] = "left"
    assert X.derived_achievements(cards, st, 0, keep) == X.derived_achievements(cards, st, 0) == 0


def test_the_invariants_check_the_card_location_index(monkeypatch):
    """The invariants (checked on every load and in checked play) derive the index from the position and
    compare it with what locate answers; an index that answered wrong would be reported."""
    from innoscript.runtime.rules import invariants
    from innoscript.runtime.state import board as Bd
    game = Game.new("4e", 2, 5, fast=True, sets=["cities"])
    bot = RandomBot(5)
    for _ in range(40):
        game.apply(bot.answer(game.decision, game.cards))
    assert invariants.violations(game.engine) == []
    hand = game.state["players"][0]["hand"] or game.state["players"][1]["hand"]
    wrong = {hand[0]: ("junk", None, None)}
    monkeypatch.setattr(invariants, "locate", lambda st, c: wrong.get(c) or Bd.locate(st, c))
    found = invariants.violations(game.engine)
    assert any("card-location index" in v and game.cards.name[hand[0]] in v for v in found), found
