"""The renderer covers every card; the errata check holds every effect at or above its reviewed
similarity to the printed text, and flags a script that drifts."""
import json
import re
from pathlib import Path

import pytest

from conftest import EXPANSIONS as EXPANSION, REFERENCE, needs_reference, regenerate
from innoscript.compiler.tools import errata as E
from innoscript.compiler.bundle import parse_card, vocabulary
from innoscript.compiler.tools.render import render_card, render_text
from innoscript.core.editions import load_edition

BASELINES = Path(__file__).parent / "errata"
DOCS = Path(__file__).resolve().parent.parent / "docs"


def asts(edition):
    ed = load_edition(edition)
    vocab = vocabulary(ed.manifest, ed.card_names)
    return [parse_card(s.text, s.relpath, vocab)[0] for s in ed.sources], vocab


@pytest.mark.parametrize("edition", ["3e", "4e"])
def test_every_card_renders(edition):
    cards, _ = asts(edition)
    for card in cards:
        r = render_card(card)
        assert len(r["effects"]) == len(card.effects)
        assert all(text and "{" not in text and "None" not in text for text in r["effects"]), card.name
        assert render_text(card).startswith(card.name)


@needs_reference
@pytest.mark.parametrize("edition", ["3e", "4e"])
def test_errata_baseline(edition):
    cards, _ = asts(edition)
    ref = json.loads(REFERENCE.read_text())
    checks = E.check([c for c in cards if c.effects], ref, edition)
    path = BASELINES / f"{edition}.json"
    report = DOCS / f"errata-{edition}.md"
    if regenerate():
        path.write_text(json.dumps(E.baseline_of(checks), indent=1, sort_keys=True) + "\n")
        report.write_text(E.markdown_report(edition, checks))
        return
    baseline = json.loads(path.read_text())
    problems = E.drift(checks, baseline)
    assert not problems, "\n".join(problems)
    assert report.read_text() == E.markdown_report(edition, checks), \
        f"docs/errata-{edition}.md is out of date (INNOSCRIPT_REGEN=1 rewrites it)"


@needs_reference
@pytest.mark.parametrize("mutation", [
    ("draw [1]", "draw [2]"),                            # a value
    ("if drawn has castle", "if drawn has crown"),      # an icon
    ("may return up to 3", "return up to 3"),           # "you may" dropped
])
def test_a_changed_detail_is_flagged(mutation):
    cards, vocab = asts("3e")
    ref = json.loads(REFERENCE.read_text())
    baseline = json.loads((BASELINES / "3e.json").read_text())
    old, new = mutation
    ed = load_edition("3e")
    src = next(s for s in ed.sources if old in s.text)
    mutated = parse_card(src.text.replace(old, new, 1), src.relpath, vocab)[0]
    checks = E.check([mutated], ref, "3e")
    assert E.drift(checks, baseline), f"changing {old!r} to {new!r} in {src.name} was not flagged"




def set_asts(edition, set_name):
    from innoscript.core.editions import with_required
    ed = load_edition(edition, sets=with_required([set_name], edition))
    from innoscript.compiler.bundle import edition_vocabulary
    vocab = edition_vocabulary(ed)
    return [parse_card(s.text, s.relpath, vocab)[0] for s in ed.sources if f"sets/{set_name}/" in s.relpath]


SETS = [(s, e) for e in ("3e", "4e") for s in ("artifacts", "echoes")] + [("relics", "3e"), ("unseen", "4e")]


@needs_reference
@pytest.mark.parametrize("set_name,edition", SETS, ids=[f"{s}-{e}" for s, e in SETS])
def test_errata_baseline_of_a_set(set_name, edition):
    """Each set's errata report and its baseline: every card has its reference, and no effect's similarity
    drops below the reviewed one (cell effects, Echoes' echo effects, included)."""
    cards = [c for c in set_asts(edition, set_name) if c.effects]
    checks = E.check(cards, json.loads(EXPANSION.read_text()), edition)
    assert checks and all(c.set == set_name for c in checks)
    assert all(c.similarity is not None for c in checks)                       # every card its reference
    if set_name == "echoes":
        echoes = [c for c in checks if c.effect == "echo"]
        assert echoes and all(c.printed for c in echoes)       # every echo effect has its printed text
    path = BASELINES / f"{set_name}-{edition}.json"
    report = DOCS / f"errata-{set_name}-{edition}.md"
    if regenerate():
        path.write_text(json.dumps(E.baseline_of(checks), indent=1, sort_keys=True) + "\n")
        report.write_text(E.markdown_report(edition, checks, set_name))
        return
    problems = E.drift(checks, json.loads(path.read_text()))
    assert not problems, "\n".join(problems)
    assert report.read_text() == E.markdown_report(edition, checks, set_name), \
        f"docs/errata-{set_name}-{edition}.md is out of date (INNOSCRIPT_REGEN=1 rewrites it)"


@needs_reference
def test_a_changed_echo_effect_is_flagged():
    cards = set_asts("3e", "echoes")
    bangle = next(c for c in cards if c.name == "Bangle")
    ed = load_edition("3e", sets=["echoes"])
    src = next(s for s in ed.sources if s.name == "Bangle")
    from innoscript.compiler.bundle import edition_vocabulary
    mutated = parse_card(src.text.replace("tuck a red card", "tuck a blue card", 1), src.relpath,
                         edition_vocabulary(ed))[0]
    ref = json.loads(EXPANSION.read_text())
    baseline = json.loads((BASELINES / "echoes-3e.json").read_text())
    assert not E.drift(E.check([bangle], ref, "3e"), baseline)
    problems = E.drift(E.check([mutated], ref, "3e"), baseline)
    assert problems and problems[0].startswith("Bangle#echo:")


def test_references_merge_and_a_set_is_reported_apart():
    base = {"editions": {"3": {"cards": [{"name": "A", "dogma_effects": [{"text": "Draw a [1]."}]}]}}}
    own = {"editions": {"3": {"sets": {"s": {"cards": [{"name": "B", "echo_effect": {"text": "Score a card."},
                                                       "dogma_effects": [{"text": "Meld a card."}]}]}}}}}
    ref = E.merge([base, own])
    assert E.reference_cards(ref, "3e")["A"] and E.reference_cards(ref, "3e", "s")["B"]
    assert E.reference_cards(ref, "3e", "other") == {}


def test_normalisation():
    assert E.normalise("Draw a [1]! I DEMAND you return two cards.") == ["draw", "[1]", "i", "demand", "you",
                                                                         "return", "2", "cards"]


RENDERINGS = [   # (script, English): phrasings of the printed cards
    ("return all [2] cards from your hand", "Return all [2] from your hand."),
    ("score all cards of value 1 from your hand", "Score all [1] from your hand."),
    ("return all cards from your hand\n return all cards from your score pile",
     "Return all the cards from your hand and your score pile."),
    ("let pairs = values_of(your top cards) where x (count(your top cards where (value(it) == x)) >= 2)\n"
     " if count(pairs) > 0 {\n choose value from pairs as v\n return all cards from your hand of value at most v\n }",
     "Choose a value shared by two or more of your top cards and return all the cards from your hand of the chosen "
     "value or less."),
    ("if count(values_of(your hand)) > 0 {\n choose value from values_of(your hand) as v\n draw [v]\n }",
     "Choose a value from the different values in your hand and draw a card of the chosen value."),
    ("choose value from values(3, 4) as v\n draw [v]", "Draw a [3] or [4]."),
    ("choose player from opponents as p\n choose color as c\n if splay_of(p, c) == \"left\" {\n splay c left\n }",
     "Choose an opponent. Choose a color. If that player's cards of that color are splayed left, splay your cards "
     "of that color left."),
]


@pytest.mark.parametrize("script,english", RENDERINGS, ids=[r[1][:40] for r in RENDERINGS])
def test_printed_phrasings(script, english):
    _, vocab = asts("3e")
    src = f'card "Zz" {{\n age 1\n color red\n icons hex castle castle castle\n dogma castle\n}}\neffect {{\n {script}\n}}\n'
    assert render_card(parse_card(src, "zz.inno", vocab)[0])["effects"] == [english]
