"""Dogma options (docs/engine-concepts.md, "Dogma options"): 'dogma X counting its icons', 'running no cell
effects', 'running the cell effects of CARDS', alone, together and with a mark. Each changes exactly what it
should (the counts in the dogma event and who shares or is demanded; which cell effects run, in what order);
a game saved inside such a Dogma loads and ends as the unsaved one; a tampered record or a bundle with bad
flags is refused; both tiers run them the same."""
import copy
import hashlib
import json
from pathlib import Path

import pytest

from innoscript.compiler.bundle import compile_card, edition_vocabulary, load_bundle
from innoscript.compiler.verifier import VerifyError, verify
from innoscript.core import opcodes as O
from innoscript.core.diagnostics import CompileError
from innoscript.core.editions import load_edition
from innoscript.runtime import BadSave, Game
from innoscript.runtime.machine import tier
from innoscript.runtime.tools import scenario

# the host: Clothing's header (green, leaves), its effects replaced by the test's
HOST = 'card "Clothing" {\n    age 1\n    color green\n    icons hex crown leaf leaf\n    dogma leaf\n}\n'
FROM_HAND = "effect {\n    choose a card from your hand as chosen\n    dogma chosen%s\n}\n"
TOP = "effect {\n    choose a top card other than this card from your board as chosen\n    dogma chosen%s\n}\n"


def _bundle(effects: str, edition="3e", sets=("echoes",)) -> dict:
    b = copy.deepcopy(load_bundle(edition, sets=list(sets)) if sets else load_bundle(edition))
    data = compile_card(HOST + effects, "t.inno", edition_vocabulary(load_edition(edition, sets=list(sets)))).data
    next(c for c in b["cards"] if c["name"] == "Clothing")["effects"] = data["effects"]
    return b


def _start(effects: str, setup: dict, edition="3e", sets=("echoes",)):
    """The engine after the host's Dogma action was taken (at its first decision, or done), and its events."""
    data = {"name": "t", "version": 2, "edition": edition, "players": len(setup["players"]), "setup": setup,
            "do": {"dogma": "Clothing"}, "expect": {}}
    if sets:
        data["sets"] = list(sets)
    bundle = _bundle(effects, edition, sets)
    e = scenario.build_state(data, bundle)
    e.advance()
    events = e.answer(scenario.action(e, data["do"], "t"))
    return e, bundle, events


def _names(e, ids):
    return [e.cards.name[c] for c in ids]


def _free(events):
    return [ev for ev in events if ev["type"] == "dogma" and ev.get("free")]


def _ran(e, events):
    """(card, effect, seat, echo) of each effect run, in order."""
    return [(e.cards.name[ev["card"]], ev["effect"], ev["player"], bool(ev.get("echo")))
            for ev in events if ev["type"] == "effect" and ev["card"] != e.cards.by_name["Clothing"]]


# ---------------------------------------------------------------- counting its icons
ARCHERY = {"players": [{"board": {"green": ["Clothing"], "yellow": ["Masonry"]}, "hand": ["Archery"]},   # 3 castles
                       {"board": {"red": ["Metalworking"]}}],                                            # 3 castles
           "supply": {"1": ["Oars"]}}


@pytest.mark.parametrize("option,counts,demanded", [("", [3, 3], False), (" counting its icons", [5, 3], True)])
def test_counting_its_icons_adds_the_cards_own_icons_to_the_launchers_count_only(option, counts, demanded):
    """Archery from the hand (two castles of its own): three castles against three, the opponent shares and is
    not demanded; counting its icons, five against three (the opponent's own count unchanged): demanded."""
    e, _, events = _start(FROM_HAND % option, ARCHERY, sets=())
    (ev,) = _free(events)
    assert ev["counts"] == counts and ev.get("own_icons", False) == demanded
    assert "cell_effects" not in ev
    assert (e.cards.by_name["Oars"] in e.state["players"][0]["hand"]) == demanded
    assert _ran(e, events) == ([("Archery", 0, 1, False)] if demanded else [])


def test_counting_its_icons_of_a_top_card_counts_it_twice_for_the_launcher():
    """The option adds the card's icons whether or not they are on the board already (the printed rule is for a
    card on display; on a board the card is counted once by the board and once more by the option)."""
    setup = {"players": [{"board": {"green": ["Clothing"], "red": ["Archery"]}},     # 2 castles
                         {"board": {"yellow": ["Masonry"]}}]}                       # 3 castles
    e, _, events = _start(TOP % " counting its icons", setup, sets=())
    assert _free(events)[0]["counts"] == [4, 3]


# ---------------------------------------------------------------- which cell effects run first
# my blue pile: Lever on Perfume, splayed right (Perfume's echo box, top left, shows); Ruler in hand or on top
PILE = {"players": [{"board": {"green": ["Clothing"], "blue": {"cards": ["Lever", "Perfume"], "splay": "right"}},
                     "hand": ["Ruler"]},
                    {"board": {"red": ["Metalworking"]}}],
        "supply": {"1": ["Archery"], "2": ["Calendar", "Mathematics"]}}


@pytest.mark.parametrize("option,ran,flag", [
    ("", [("Ruler", 0, 0, True)], None),                                          # a card in hand: its own echo
    (" running the cell effects of pile(you, color(chosen))",
     [("Perfume", 0, 0, True), ("Lever", 0, 0, True)], "given"),                  # the pile's, deepest first
    (" running the cell effects of pile(you, color(chosen)) where (it is blue)",  # a filter keeps the order
     [("Perfume", 0, 0, True), ("Lever", 0, 0, True)], "given"),
    (" running no cell effects", [], "none"),
    (" running the cell effects of your hand where (it is red)", [], "given"),    # no card given: no echo
])
def test_the_cell_effects_a_free_dogma_runs_first(option, ran, flag):
    e, _, events = _start(FROM_HAND % option, PILE)
    assert _free(events)[0].get("cell_effects") == flag
    assert _ran(e, events) == ran


def test_the_cell_effects_of_cards_follow_each_pile_deepest_first_whatever_the_order_given():
    """Cards named top first, bottom first or mixed with a card in hand: each pile's visible echoes deepest
    first (a covered card only where its splay shows the box), the piles and the other cards in the order the
    list first names them; a card not on a board brings all of its own."""
    e, _, _ = _start("effect {\n    draw [1]\n}\n", PILE)
    ids = e.cards.by_name
    lever, perfume, ruler = ids["Lever"], ids["Perfume"], ids["Ruler"]
    assert _names(e, [c for c, _ in e.cards_cell_effects([lever, perfume])]) == ["Perfume", "Lever"]
    assert _names(e, [c for c, _ in e.cards_cell_effects([perfume, lever])]) == ["Perfume", "Lever"]
    assert _names(e, [c for c, _ in e.cards_cell_effects([ruler, lever, perfume])]) == ["Ruler", "Perfume", "Lever"]
    assert _names(e, [c for c, _ in e.cards_cell_effects([lever, ruler, lever])]) == ["Lever", "Ruler"]
    e.state["players"][0]["board"]["blue"]["splay"] = "left"       # Perfume's box (top left) is covered now
    assert _names(e, [c for c, _ in e.cards_cell_effects([lever, perfume])]) == ["Lever"]


def test_running_no_cell_effects_on_a_top_card_skips_its_piles_echoes_and_keeps_its_effects():
    """Lever on top of my blue pile: its free Dogma runs Perfume's and Lever's echoes first; with the option, only
    Lever's own non-demand."""
    setup = copy.deepcopy(PILE)
    setup["players"][0]["hand"] = []
    e, _, events = _start(TOP % "", setup)
    assert [r[:2] for r in _ran(e, events)[:2]] == [("Perfume", 0), ("Lever", 0)]
    e, _, events = _start(TOP % " running no cell effects", setup)
    assert _ran(e, events) == [("Lever", 1, 0, False)]


def test_options_combine_with_each_other_and_with_a_mark():
    """4th edition, a mark of the set (foreseen), its icons counted and no echo: all three said by the event."""
    setup = {"players": [{"board": {"green": ["Clothing"], "yellow": ["Masonry"]}, "hand": ["Archery"]},
                         {"board": {"red": ["Metalworking"]}}],
             "supply": {"1": ["Oars"]}}
    e, _, events = _start(FROM_HAND % ", foreseen counting its icons and running no cell effects", setup,
                          edition="4e")
    (ev,) = _free(events)
    assert ev["mark"] == "foreseen" and ev["foreseen"] is True and ev["own_icons"] is True
    assert ev["cell_effects"] == "none"


# ---------------------------------------------------------------- saved games, tampering, hostile bundles
LINGUISTICS = {"players": [{"board": {"green": ["Clothing"], "blue": ["Linguistics"]}, "hand": ["Ruler"]},
                           {"board": {"red": ["Metalworking"]}}]}
CELLS_OF = FROM_HAND % " counting its icons and running the cell effects of pile(you, color(chosen))"


def _inside():
    """Waiting at Linguistics's echo (an 'either') run by the free Dogma of Ruler from the hand."""
    e, bundle, _ = _start(CELLS_OF, LINGUISTICS)
    assert e.pending["kind"] == "choose_option" and e.pending["source"] == "Linguistics"
    return e, bundle


def test_a_game_saved_inside_a_dogma_with_options_loads_and_finishes_identically():
    e, bundle = _inside()
    (free,) = [w["free"] for w in e.state["dogma"]["stack"] if "free" in w]
    ling = e.cards.by_name["Linguistics"]
    assert free["own_icons"] is True and free["cells"] == [[ling, 0]]
    game = Game(e)
    loaded = Game.load(game.save(), bundle=bundle)
    for g in (game, loaded):
        g.apply(0)
        while g.decision["kind"] != "action":
            g.apply(None if g.decision.get("optional") else g.decision["options"][:1])
    assert game.save() == loaded.save()


def test_a_free_dogma_without_options_keeps_no_option_in_its_record():
    e, _, _ = _start(TOP % "", {"players": [{"board": {"green": ["Clothing"], "blue": ["Linguistics"]}},
                                            {"board": {"red": ["Metalworking"]}}]})
    (free,) = [w["free"] for w in e.state["dogma"]["stack"] if "free" in w]
    assert set(free) == {"card", "active", "marks", "shared", "shared_change", "counts"}


@pytest.mark.parametrize("spoil", [
    lambda free, ids: free.update(own_icons=False),
    lambda free, ids: free.update(own_icons=1),
    lambda free, ids: free.update(cells="all"),
    lambda free, ids: free.update(cells=[[ids["Linguistics"]]]),
    lambda free, ids: free.update(cells=[[ids["Linguistics"], 9]]),
    lambda free, ids: free.update(cells=[[ids["Clothing"], 0]]),          # not a cell effect
    lambda free, ids: free.update(cells=[[10 ** 6, 0]]),
    lambda free, ids: free.update(cells=[[-1, 0]]),
    lambda free, ids: free.update(cells=[[ids["Linguistics"], 0]] * 65),
    lambda free, ids: free.update(counting=True),
])
def test_a_tampered_free_dogma_record_is_refused(spoil):
    e, bundle = _inside()
    data = json.loads(Game(e).save())
    st = data["state"] if "state" in data else data
    (free,) = [w["free"] for w in st["dogma"]["stack"] if "free" in w]
    spoil(free, e.cards.by_name)
    with pytest.raises(BadSave):
        Game.load(json.dumps(data), bundle=bundle)


def _chunk_with(flags: int, cells_const=None) -> dict:
    return {"kind": "non_demand", "consts": [None], "locals": [], "lines": [[1, 1]] * 4, "max_stack": 2,
            "code": [[O.CONST, 0], [O.CONST, 0], [O.DOGMA_WITH, 0, flags], [O.RETURN]]}


@pytest.mark.parametrize("flags", [0, 6, 7, 14, 15, 16, -1, 255])     # 8: doubling, alone or with the others
def test_bad_dogma_with_flags_are_refused_by_the_verifier(flags):
    with pytest.raises(VerifyError, match="DOGMA_WITH: flag operand"):
        verify(_chunk_with(flags))


@pytest.mark.parametrize("flags", [1, 2, 3, 4, 5])
def test_good_dogma_with_flags_verify(flags):
    assert verify(_chunk_with(flags)) == 2


def test_a_dogma_with_a_mark_that_is_not_a_name_is_refused():
    chunk = _chunk_with(1)
    chunk["consts"] = [None, 3]
    chunk["code"][2] = [O.DOGMA_WITH, 1, 1]
    with pytest.raises(VerifyError, match="DOGMA_WITH: a name or null"):
        verify(chunk)


def test_a_hostile_bundle_with_bad_flags_is_refused():
    from innoscript.compiler import bundle as B
    b = _bundle(CELLS_OF)
    chunk = next(c for c in b["cards"] if c["name"] == "Clothing")["effects"][0]
    pc = next(i for i, ins in enumerate(chunk["code"]) if ins[0] == O.DOGMA_WITH)
    chunk["code"][pc][2] = 6
    with pytest.raises(CompileError, match="flag operand 6"):
        B.check_bundle(b, "x.json")


def test_a_card_that_is_not_a_card_among_the_cells_is_a_runtime_fault_not_a_crash():
    from innoscript.runtime.machine.faults import RuntimeFault
    e, _, _ = _start("effect {\n    draw [1]\n}\n", PILE)
    with pytest.raises(RuntimeFault, match="not a card"):
        e.cards_cell_effects([10 ** 6])
    with pytest.raises(RuntimeFault, match="not a card"):
        e.cards_cell_effects(["red"])


@pytest.mark.parametrize("text,code", [
    ("dogma drawn running no cell effects and running the cell effects of drawn", "E313"),
    ("dogma drawn running the cell effects of drawn and running no cell effects", "E313"),
    ("dogma drawn running no cell effects and running no cell effects", "E313"),
    ("dogma drawn running the cell effects of red", "E300"),
    ("dogma drawn, counting its icons", "E214"),     # an option is no mark: no comma before it
    ("dogma drawn counting its icons, foreseen", "E1"),
])
def test_bad_option_combinations_are_compile_errors(text, code):
    with pytest.raises(CompileError) as info:
        compile_card(HOST + f"effect {{\n    draw [1] as drawn\n    {text}\n}}\n", "t.inno",
                     edition_vocabulary(load_edition("3e")))
    assert info.value.diagnostics[0].code.startswith(code), info.value.render()


# ---------------------------------------------------------------- both tiers
def _digest(which, monkeypatch, effects, setup, answers=()):
    monkeypatch.setattr(tier, "HOT", 0)
    e, _, events = _start(effects, setup)
    e.tier = which
    return e, events


@pytest.mark.parametrize("effects,setup", [
    (CELLS_OF, LINGUISTICS),
    (FROM_HAND % " running the cell effects of pile(you, color(chosen))", PILE),
    (TOP % " running no cell effects", {"players": [{"board": {"green": ["Clothing"], "blue": ["Lever"]}},
                                                    {"board": {"red": ["Metalworking"]}}]}),
])
def test_both_tiers_run_the_options_the_same(effects, setup, monkeypatch):
    monkeypatch.setattr(tier, "HOT", 0)
    runs = []
    for which in ("vm", "compiled"):
        monkeypatch.setenv("INNOSCRIPT_TIER", which)
        e, _, events = _start(effects, setup)
        assert e.tier == which
        game = Game(e)
        while game.decision["kind"] != "action":
            events += game.apply(None if game.decision.get("optional") else
                                 (0 if game.decision["kind"] == "choose_option" else game.decision["options"][:1]))
        runs.append(hashlib.sha256(json.dumps([events, e.state]).encode()).hexdigest())
    assert runs[0] == runs[1]


def test_the_language_server_offers_the_options_after_the_card_and_after_and():
    from innoscript import lsp
    HEAD = 'card "X" {\n age 1\n color red\n icons hex leaf leaf leaf\n dogma leaf\n}\neffect {\n'

    def labels_at(text):
        line = text.count("\n")
        return {i.label for i in lsp.completion_items("file:///x.inno", text + "\n}\n", line, len(text.split("\n")[-1]))}
    after = labels_at(HEAD + "    draw [1] as fresh\n    dogma fresh ")
    assert {"counting", "running"} <= after
    assert {"counting", "running"} <= labels_at(HEAD + "    draw [1] as fresh\n    dogma fresh counting its icons and ")
    assert labels_at(HEAD + "    draw [1] as fresh\n    dogma fresh running ") >= {"no", "the"}
