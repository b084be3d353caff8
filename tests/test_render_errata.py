"""The renderer covers every card; the errata check holds every effect at or above its reviewed
similarity to the printed text, and flags a script that drifts."""
import json
import re
from pathlib import Path

import pytest

from conftest import REFERENCE, regenerate
from innoscript.compiler import errata as E
from innoscript.compiler.bundle import parse_card, vocabulary
from innoscript.compiler.render import render_card, render_text
from innoscript.editions import load_edition

BASELINES = Path(__file__).parent / "errata"
DOCS = Path(__file__).resolve().parent.parent / "docs"
needs_reference = pytest.mark.skipif(not REFERENCE.exists(), reason="the reference file is not beside the project")


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


def test_normalisation():
    assert E.normalise("Draw a [1]! I DEMAND you return two cards.") == ["draw", "[1]", "i", "demand", "you",
                                                                         "return", "2", "cards"]
