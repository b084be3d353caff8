"""Echo effects in a Dogma action, on real Echoes cards: which cards' echoes a dogma runs (visibility by
position and splay, deepest first), who performs them, and when a top card without dogma effects may be
used (manifest ``dogma_without_dogma_effects``). The rules themselves are proved by the scenarios in
tests/scenarios/echoes-*/rules/; these tests pin the engine's pieces and a saved game inside an echo."""
import copy
from pathlib import Path

import pytest
import yaml

from innoscript.compiler.bundle import compile_card, edition_vocabulary, load_bundle
from innoscript.core.editions import load_edition
from innoscript.runtime import Game
from innoscript.runtime.tools import scenario
from innoscript.runtime.rules.engine import Engine


def _engine(edition: str, setup: dict, bundle=None) -> Engine:
    data = {"name": "t", "version": 2, "edition": edition, "sets": ["echoes"], "players": len(setup["players"]),
            "setup": setup,
            "do": {"draw": True}, "expect": {}}
    return scenario.build_state(data, bundle or load_bundle(edition, sets=["echoes"]))


def _names(engine, ids):
    return [engine.cards.name[c] for c in ids]


@pytest.mark.parametrize("splay,shown", [
    ("none", ["Magnifying Glass"]),
    ("left", ["Ruler", "Magnifying Glass"]),          # Ruler's echo box is bottom right
    ("right", ["Perfume", "Magnifying Glass"]),       # Perfume's is top left
    ("up", ["Ruler", "Lever", "Magnifying Glass"]),   # Lever's is bottom middle
])
def test_pile_echoes_follow_the_splay_deepest_first(splay, shown):
    e = _engine("3e", {"players": [{"board": {"blue": {"cards": ["Magnifying Glass", "Lever", "Perfume", "Ruler"],
                                                        "splay": splay}}}, {}]})
    mg = e.cards.by_name["Magnifying Glass"]
    assert _names(e, [c for c, _ in e.pile_cell_effects(mg)]) == shown
    # a covered card's own dogma runs no pile: only its own echo effect
    lever = e.cards.by_name["Lever"]
    assert e.pile_cell_effects(lever) == [(lever, 0)]


def test_the_effect_list_puts_echoes_first_and_shares_them_like_non_demands():
    e = _engine("3e", {"players": [{"board": {"blue": {"cards": ["Magnifying Glass", "Ruler"], "splay": "left"}}},
                                   {"board": {"blue": ["Writing"]}}]})
    mg = e.cards.by_name["Magnifying Glass"]
    items = e.effect_list(mg, 0, [1, 2], set(), e.pile_cell_effects(mg))
    assert [(_names(e, [c])[0], eff, you, sharer) for c, eff, you, _, sharer in items] == [
        ("Ruler", 0, 1, True), ("Ruler", 0, 0, False),
        ("Magnifying Glass", 0, 1, True), ("Magnifying Glass", 0, 0, False),
        ("Magnifying Glass", 1, 1, True), ("Magnifying Glass", 1, 0, False),
        ("Magnifying Glass", 2, 1, True), ("Magnifying Glass", 2, 0, False)]
    # a player left out (parley) performs no echo either
    assert all(you == 0 for _, _, you, _, _ in e.effect_list(mg, 0, [1, 2], {1}, e.pile_cell_effects(mg)))


def _only_echo(bundle, name):
    b = copy.deepcopy(bundle)
    card = next(c for c in b["cards"] if c["name"] == name)
    card["effects"] = card["effects"][:1]
    return b


@pytest.mark.parametrize("edition,offered", [("3e", True), ("4e", False)])
def test_a_top_card_with_only_an_echo_effect_is_offered_in_the_3rd_edition_only(edition, offered):
    bundle = _only_echo(load_bundle(edition, sets=["echoes"]), "Ruler")
    e = _engine(edition, {"players": [{"board": {"blue": ["Ruler"], "red": ["Archery"]}}, {}]}, bundle)
    ruler = e.cards.by_name["Ruler"]
    assert ({"type": "dogma", "card": ruler} in e.compute_legal_actions(0)) == offered
    assert {"type": "dogma", "card": e.cards.by_name["Archery"]} in e.compute_legal_actions(0)


def test_a_card_file_without_effects_is_never_offered():
    bundle = copy.deepcopy(load_bundle("3e", sets=["echoes"]))
    next(c for c in bundle["cards"] if c["name"] == "Ruler")["effects"] = []
    e = _engine("3e", {"players": [{"board": {"blue": ["Ruler"]}}, {}]}, bundle)
    assert {"type": "dogma", "card": e.cards.by_name["Ruler"]} not in e.compute_legal_actions(0)


@pytest.mark.parametrize("edition,splay,offered", [("3e", "right", True), ("3e", "none", True),
                                                   ("4e", "right", False)])
def test_a_card_printed_without_effects_is_offered_in_the_3rd_edition(edition, splay, offered):
    """A card file that says the card prints no effect (no_effect), on Perfume: offered in the 3rd edition,
    whether or not an echo effect shows (ruling puppet-dogma), where its Dogma runs the echo effects that
    show (Perfume's, when splayed right: its echo box shows); never in the 4th edition."""
    bundle = copy.deepcopy(load_bundle(edition, sets=["echoes"]))
    card = next(c for c in bundle["cards"] if c["name"] == "Lever")
    card.update(effects=[], no_effect=True)
    e = _engine(edition, {"players": [{"board": {"blue": {"cards": ["Lever", "Perfume"], "splay": splay}},
                                       "hand": ["Bangle"]}, {}]}, bundle)
    e.advance()
    lever = e.cards.by_name["Lever"]
    assert ({"type": "dogma", "card": lever} in e.compute_legal_actions(0)) == offered
    if offered:
        events = e.answer({"type": "dogma", "card": lever})
        assert [(ev["card"], ev.get("cell"), ev.get("echo")) for ev in events if ev["type"] == "effect"] == \
            ([(e.cards.by_name["Perfume"], "echo", True)] if splay == "right" else [])


def _after_action(path, bundle) -> Engine:
    """A scenario's set-up with its action taken: the engine waits at the action's first decision."""
    data = yaml.safe_load(Path(path).read_text())
    e = scenario.build_state(data, bundle)
    e.advance()
    e.answer(scenario.action(e, data["do"], str(path)))
    return e


def test_a_game_saved_inside_an_echo_effect_loads_and_goes_on(tmp_path):
    """Magnifying Glass's echo asks which card to return; saved there, the loaded game finishes the
    action exactly as the unsaved one."""
    path = "tests/scenarios/echoes-3e/rules/echo-order-deepest-first.yaml"
    bundle = load_bundle("3e", sets=["echoes"])
    e = _after_action(path, bundle)
    assert e.pending["kind"] == "select_cards" and e.state["dogma"]["stack"][-1]["kind"] == "cell"
    game = Game(e)
    loaded = Game.load(game.save(), bundle=bundle)
    calendar = e.cards.by_name["Calendar"]
    for g in (game, loaded):
        g.apply([calendar])
        while g.decision["kind"] != "action":
            g.apply(None if g.decision.get("optional") else g.decision["options"][:1])
    assert game.save() == loaded.save()


# ---------------------------------------------------------------- test cards: execution and free Dogma
CORPUS = Path(__file__).parent / "corpus" / "echo-runtime"
TEST_CARDS = sorted(CORPUS.glob("*/*.inno"))
TEST_SCENARIOS = sorted(CORPUS.glob("*/*.yaml"))


def _with_test_card(path: Path) -> dict:
    """The edition's bundle with Echoes, the test card's effects replacing those of the card whose header
    it reuses."""
    edition = path.parent.name
    b = copy.deepcopy(load_bundle(edition, sets=["echoes"]))
    compiled = compile_card(path.read_text(), path.name,
                            edition_vocabulary(load_edition(edition, sets=["echoes"]))).data
    card = next(c for c in b["cards"] if c["name"] == compiled["name"])
    assert card["icons"] == compiled["icons"], f"{path.name}: the header is not {compiled['name']}'s"
    card["effects"] = compiled["effects"]
    return b


@pytest.mark.parametrize("path", TEST_SCENARIOS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_test_card_scenario(path):
    card = path.parent / (path.stem.split("--")[0] + ".inno")
    out = scenario.run(path, _with_test_card(card))
    assert out.passed, "\n".join(out.failures)


@pytest.mark.parametrize("path", TEST_CARDS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_test_card_has_a_scenario(path):
    assert any(s.parent == path.parent and s.stem.split("--")[0] == path.stem for s in TEST_SCENARIOS)


def test_a_game_saved_inside_a_free_dogma_loads_and_goes_on():
    """Self Service's choice inside the foreseen free Dogma: the saved game holds the nested work list with
    its own record and flags, loads (the load checks accept it) and ends the action as the unsaved game."""
    path = CORPUS / "4e" / "deodorant-dogma-foreseen--executed-card.yaml"
    bundle = _with_test_card(CORPUS / "4e" / "deodorant-dogma-foreseen.inno")
    e = _after_action(path, bundle)
    e.answer([e.cards.by_name["Self Service"]])
    free = [w["free"] for w in e.state["dogma"]["stack"] if "free" in w]
    assert free == [{"card": e.cards.by_name["Self Service"], "active": 0, "marks": ["foreseen"],
                     "shared": False, "shared_change": False, "counts": free[0]["counts"]}]
    assert len(free[0]["counts"]) == len(e.state["players"])
    assert e.pending["source"] == "Self Service"
    game = Game(e)
    loaded = Game.load(game.save(), bundle=bundle)
    for g in (game, loaded):
        g.apply([e.cards.by_name["Dice"]])
        assert g.decision["kind"] == "action" and g.state["dogma"] is None
    assert game.save() == loaded.save()
    assert e.cards.by_name["Anatomy"] not in game.state["players"][0]["hand"]


def test_a_free_dogma_of_itself_without_end_is_stopped_and_the_game_goes_on():
    """A card whose effect takes a free Dogma of itself nests until the nesting limit stops it: a fault
    naming the card, never a hang or a traceback."""
    from innoscript.runtime.machine.faults import RuntimeFault
    text = (CORPUS / "3e" / "deodorant-free-dogma.inno").read_text().replace(
        "choose a top card other than this card from your board as chosen\n    dogma chosen", "dogma this card")
    b = copy.deepcopy(load_bundle("3e", sets=["echoes"]))
    compiled = compile_card(text, "loop.inno", edition_vocabulary(load_edition("3e", sets=["echoes"]))).data
    next(c for c in b["cards"] if c["name"] == "Deodorant")["effects"] = compiled["effects"]
    e = _engine("3e", {"players": [{"board": {"yellow": ["Deodorant"]}, "hand": ["Bangle"]}, {}]}, b)
    e.advance()
    with pytest.raises(RuntimeFault, match="nested executions"):
        e.answer({"type": "dogma", "card": e.cards.by_name["Deodorant"]})
    assert e.pending["kind"] == "action"


# ---------------------------------------------------------------- icon counts: bonuses, music notes, echo boxes
def _count(e, icon, p=0):
    from innoscript.runtime.machine import builtins as builtins_impl
    from innoscript.runtime.state.board import board_cards, board_icon_count, icon_count
    board = board_cards(e.state, p)
    counts = {board_icon_count(e.cards, e.state, p, icon), icon_count(e.cards, e.state, p, icon),
              builtins_impl.call(e, {"you": p}, "icons", [icon, board]),
              builtins_impl.call(e, {"you": p}, "icons", [icon, board[::-1]])}
    assert len(counts) == 1, f"{icon}: the ways of counting disagree: {counts}"
    return counts.pop()


@pytest.mark.parametrize("edition,bonuses", [("3e", 0), ("4e", 2)])
def test_a_bonus_counts_as_an_icon_only_where_the_set_says(edition, bonuses):
    """Flute (bonus top left, music note, echo box bottom right) on top of Bangle splayed up (echo box,
    bonus): 4th edition two bonus icons, 3rd none; an echo box is never an icon."""
    e = _engine(edition, {"players": [{"board": {"purple": {"cards": ["Flute", "Bell"], "splay": "up"},
                                                  "red": ["Bangle"]}}, {}]})
    assert _count(e, "bonus") == bonuses
    assert _count(e, "echo") == 0
    assert ("bonus" in e.cards.icons) == bool(bonuses)
    from innoscript.runtime.machine import builtins as builtins_impl
    assert ("bonus" in builtins_impl.call(e, {"you": 0}, "all_icons", [])) == bool(bonuses)


@pytest.mark.parametrize("edition", ["3e", "4e"])
def test_music_notes_count_by_name_and_as_hexes(edition):
    """Flute on Bell splayed up: Flute's note (top) and Bell's (bottom left, shown by the splay) are two
    music notes; counted as hexes with them: the hexes of the cards that have one."""
    e = _engine(edition, {"players": [{"board": {"purple": {"cards": ["Flute", "Bell"], "splay": "up"}}}, {}]})
    from innoscript.runtime.machine import builtins as builtins_impl
    board = [e.cards.by_name["Flute"], e.cards.by_name["Bell"]]
    assert builtins_impl.call(e, {"you": 0}, "icons", ["music_note", board]) == 2
    assert builtins_impl.call(e, {"you": 0}, "icons", ["music_note", board[:1]]) == 1


def _at_free_parley():
    path = CORPUS / "4e" / "deodorant-free-dogma--parley.yaml"
    bundle = _with_test_card(CORPUS / "4e" / "deodorant-free-dogma.inno")
    e = _after_action(path, bundle)
    e.answer([e.cards.by_name["Oars"]])
    assert e.pending["player"] == 2 and "parley" in e.state["dogma"]["stack"][-1]
    return e, bundle


def test_a_game_saved_at_a_free_dogmas_parley_choice_loads_and_goes_on():
    e, bundle = _at_free_parley()
    game = Game(e)
    loaded = Game.load(game.save(), bundle=bundle)
    for g in (game, loaded):
        g.apply([e.cards.by_name["Ruler"]])
        assert g.decision["kind"] == "action"
    assert game.save() == loaded.save()


@pytest.mark.parametrize("spoil", [
    lambda st: st["dogma"]["stack"][-1]["then"]["free"].update(card=10 ** 6),
    lambda st: st["dogma"]["stack"][-1]["then"]["free"].update(marks="yes"),
    lambda st: st["dogma"]["stack"][-1]["then"]["free"].update(marks=[3]),
    lambda st: st["dogma"]["stack"][-1]["then"]["free"].update(counts=[1]),
    lambda st: st["dogma"]["stack"][-1]["then"]["free"].update(counts=["a", 1, 1, 1]),
    lambda st: st["dogma"]["stack"][-1]["then"].update(work=[[0, 0, 0, 0, False]]),
    lambda st: st["dogma"]["stack"][-1].update(parley=[["fly", 1]]),
    lambda st: st["dogma"]["stack"][-1].update(counts=[1]),
    lambda st: st["dogma"]["stack"][-1].update(extra=1),
])
def test_a_saved_free_dogma_that_was_tampered_with_is_refused(spoil):
    import json
    from innoscript.runtime.api.game import BadSave
    e, bundle = _at_free_parley()
    data = json.loads(Game(e).save())
    spoil(data["state"] if "state" in data else data)
    with pytest.raises(BadSave):
        Game.load(json.dumps(data), bundle=bundle)


@pytest.mark.parametrize("kind,want", [
    ("self-execute", []),            # no non-demand effect: nothing runs, no echo either
    ("super-execute", [("Bangle", 0, 0, 0), ("Candles", 0, 0, 0), ("Candles", 1, 1, 0), ("Candles", 1, 2, 0)]),
])
def test_an_executed_card_runs_its_piles_echoes_only_with_its_own_effects(kind, want):
    """Candles (4th edition: an echo effect and a demand, no non-demand) on top of Bangle, splayed up (Bangle's
    echo box shows). A super-execute runs the pile's visible echo effects, deepest first, then the demand for
    each opponent; a self-execute, with no non-demand effect to run, runs nothing (ruling echo-execute)."""
    e = _engine("4e", {"players": [{"board": {"red": {"cards": ["Candles", "Bangle"], "splay": "up"}}}, {}, {}]})
    candles = e.cards.by_name["Candles"]
    e.state["dogma"] = {"stack": [], "records": []}
    e.execute({"you": 0, "card": candles, "depth": 0}, candles, kind)
    work = e.state["dogma"]["stack"][-1]["work"]
    assert [(e.cards.name[c], eff, you, me) for c, eff, you, me, _ in work] == want


@pytest.mark.parametrize("edition,want", [("3e", []), ("4e", ["Ruler", "Magnifying Glass"])])
def test_an_execution_runs_the_piles_echoes_in_the_4th_edition_and_none_in_the_3rd(edition, want):
    """Magnifying Glass on top of Ruler splayed left (Ruler's echo box shows), executed: the 4th edition
    runs the pile's visible echo effects, deepest first, as a Dogma would; the 3rd runs none (the set
    manifest's rule execute_echoes)."""
    e = _engine(edition, {"players": [{"board": {"blue": {"cards": ["Magnifying Glass", "Ruler"],
                                                           "splay": "left"}}}, {}]})
    mg = e.cards.by_name["Magnifying Glass"]
    e.state["dogma"] = {"stack": [], "records": []}
    e.execute({"you": 0, "card": mg, "depth": 0}, mg, "execute" if edition == "3e" else "self-execute")
    work = e.state["dogma"]["stack"][-1]["work"]
    assert [e.cards.name[c] for c, eff, *_ in work if e.cards.cards[c]["effects"][eff].get("cell") == "echo"] == want
    non_demands = [i for i, ch in enumerate(e.cards.cards[mg]["effects"]) if ch["kind"] == "non_demand"]
    assert [eff for c, eff, *_ in work if c == mg and eff > 0] == non_demands   # then its non-demands


def test_the_dogma_preview_counts_the_piles_echoes_as_shared():
    """Archery has only a demand; over Plumbing splayed right (its echo box shows) the Dogma also has an
    echo effect, so the player with as many castles is shown as sharing."""
    from innoscript.runtime.api.views import dogma_preview
    e = _engine("3e", {"players": [{"board": {"red": {"cards": ["Archery", "Plumbing"], "splay": "right"}}},
                                   {"board": {"yellow": ["Masonry"]}}]})
    archery = e.cards.by_name["Archery"]
    assert dogma_preview(e.cards, e.state, 0, archery)["shares"] == [1]
    e.state["players"][0]["board"]["red"]["splay"] = "none"
    assert dogma_preview(e.cards, e.state, 0, archery)["shares"] == []
