"""The 3rd edition's relics as a set of their own (cards/sets/relics/3e/; ruling 42) and the three general concepts
they stand on: sets played with other sets (``requires``), cards a set carries of another type (``carried_by``,
``card_types``, ``face only``) and event hooks (``hook after VERB(card)``). The relics' rules and cards are played
by the scenarios under tests/scenarios/artifacts-relics-3e/ and artifacts-echoes-relics-3e/; here the pieces
around them: loading, compiling, the bundle check, the reports."""
import copy
import subprocess
import sys

import pytest

from innoscript.compiler.bundle import check_bundle, compile_card, compile_hooks, edition_vocabulary, load_bundle
from innoscript.core.diagnostics import CompileError
from innoscript.core.editions import load_edition, with_required
from innoscript.runtime.api.faces import card_catalog
from innoscript.runtime.api.game import Game
from innoscript.runtime.rules.sets import report
from innoscript.runtime.state.cards import Cards

RELICS = ["Timbuktu", "Complex Numbers", "Newton-Wickins Telescope", "Ching Shih", "Safety Pin"]


@pytest.fixture(scope="module")
def bundle():
    return load_bundle("3e", sets=["artifacts", "relics"])


def test_the_relics_are_played_with_artifacts_only():
    with pytest.raises(CompileError) as info:
        load_edition("3e", sets=["relics"])
    assert "played with set 'artifacts'" in info.value.render() and "--sets artifacts,relics" in info.value.render()
    assert with_required(["relics"], "3e") == ["artifacts", "relics"]
    with pytest.raises(CompileError, match="unknown set 'relics' for edition 4e"):
        load_edition("4e", sets=["artifacts", "relics"])          # the 4th edition has none


def test_a_sets_own_files_are_checked_with_the_sets_they_need():
    r = subprocess.run([sys.executable, "-m", "innoscript.cli", "check", "cards/sets/relics"],
                       capture_output=True, text=True)
    assert r.returncode == 0 and "6 card files checked, no errors" in r.stdout, r.stdout + r.stderr


def test_each_relic_keeps_its_type_and_is_carried_by_the_set(bundle):
    by = {c["name"]: c for c in bundle["cards"]}
    assert {n: (by[n]["set"], by[n]["carried_by"], by[n].get("face_only", False)) for n in RELICS} == {
        "Timbuktu": ("cities", "relics", False), "Complex Numbers": ("base", "relics", False),
        "Newton-Wickins Telescope": ("artifacts", "relics", False), "Ching Shih": ("figures", "relics", True),
        "Safety Pin": ("echoes", "relics", False)}
    assert not any("carried_by" in c for c in bundle["cards"] if c["name"] not in RELICS)


def test_the_relics_start_beside_their_piles_and_are_never_dealt(bundle):
    g = Game.new("3e", 3, seed=5, bundle=bundle)
    st, cards = g.state, g.cards
    assert [cards.name[c] for c in st["zones"]["relics"]] == RELICS
    dealt = {c for piles in (st["supply"], *st["set_supply"].values()) for pile in piles.values() for c in pile}
    assert not dealt & set(st["zones"]["relics"])
    assert st["set_supply"]["relics"] == {}                      # a set with no piles of its own
    assert [r["set"] for r in report(cards)] == ["artifacts", "relics"]
    relics = report(cards)[1]
    assert relics["cards"] == relics["expected"] == 5 and relics["complete"]
    assert relics["face_only"] == ["Ching Shih"]


def test_a_set_without_piles_is_no_card_type_to_choose(bundle):
    from innoscript.runtime.machine.builtins import _sets
    g = Game.new("3e", 2, seed=1, bundle=bundle)
    assert _sets(g.engine, {}) == ["base", "artifacts"]


@pytest.mark.parametrize("tamper,words", [
    (lambda c: c["Complex Numbers"].update(face_only=True), "face only"),            # its type, base, is in play
    (lambda c: c["Ching Shih"].update(face_only="yes"), "face only"),
    (lambda c: c["Ching Shih"].update(set="dragons"), "card_types"),
    (lambda c: c["Safety Pin"].update(carried_by="unseen"), "not in play"),
])
def test_the_bundle_check_refuses_a_carried_card_out_of_its_rules(bundle, tamper, words):
    b = copy.deepcopy(bundle)
    tamper({c["name"]: c for c in b["cards"]})
    with pytest.raises(CompileError, match=words):
        check_bundle(b)


def test_face_only_is_for_a_card_with_no_effects():
    vocab = edition_vocabulary(load_edition("3e", sets=["artifacts", "relics"]))
    text = ('card "Ching Shih" {\n    set figures\n    face only\n    age 6\n    color red\n'
            '    icons clock clock hex leaf\n    dogma clock\n}\n\neffect {\n    draw [1]\n}\n')
    with pytest.raises(CompileError) as info:
        compile_card(text, "ching-shih.inno", vocab)
    d = info.value.diagnostics[0]
    assert (d.code, d.pos.line) == ("E209", 10) and "face only" in d.message
    ok = compile_card(text.split("\n\neffect")[0] + "\n", "ching-shih.inno", vocab).data
    assert ok["face_only"] is True and ok["effects"] == [] and ok["icons"] == ["clock", "clock", "hex", "leaf"]


def test_an_event_hook_names_a_zone_verb_of_a_set_in_play():
    vocab = edition_vocabulary(load_edition("3e", sets=["artifacts"]))
    [hook] = compile_hooks("hook after dig(card, place) order 3 {\n    draw [1]\n}\n", "x.inno", vocab)
    assert (hook["point"], hook["verb"], hook["params"], hook["order"]) == ("after", "dig", ["card", "place"], 3)
    with pytest.raises(CompileError) as info:
        compile_hooks("hook after dgi(card, place) {\n    draw [1]\n}\n", "x.inno", vocab)
    assert info.value.diagnostics[0].hint == "did you mean 'dig'?"


def test_the_catalog_and_the_table_say_what_a_face_only_card_is():
    cat = {c["name"]: c for c in card_catalog("3e", ["artifacts", "relics"])["cards"]}
    assert "face_only" not in cat["Timbuktu"] and cat["Ching Shih"]["face_only"] == "Figures in the Sand"
    assert cat["Timbuktu"]["icons"] == ["lightbulb", "crown", "crown", "crown", "hex", "plus"]
    assert "face_only" not in cat["Safety Pin"] and cat["Safety Pin"]["set"] == "echoes"


def test_seizing_happens_in_played_games(bundle):
    """Seeded random games reach the seize: relics leave their home for hands and achievements."""
    from innoscript.runtime.bots.simple import RandomBot
    moved = set()
    for seed in range(6):
        g = Game.new("3e", 3, seed=seed, bundle=bundle, fast=True)
        bot, relics = RandomBot(seed), set(g.cards.home)
        for _ in range(4000):
            if g.over:
                break
            for e in g.apply(bot.answer(g.decision)):
                if e.get("card") in relics and e["type"] == "transfer" and e.get("from") == "relics":
                    moved.add(e.get("zone") or "hand")
    assert moved, "no relic was seized in six seeded games"
