"""No name a script binds ever reaches the rendered English.

Every bound name of every card (as, let, record, choose, each, where-names,
effect parameters) is renamed to a marker that no English word contains; the
card must render without the marker anywhere.
"""
import re

import pytest

from innoscript.compiler import ast as A
from innoscript.compiler.bundle import parse_card, vocabulary
from innoscript.compiler.tools.render import render_card
from innoscript.core.editions import available_editions, load_edition


def bound_names(card):
    import dataclasses
    out = set()

    def walk(o):
        if isinstance(o, list):
            for x in o:
                walk(x)
        elif isinstance(o, A.Node):
            for attr in ("bind", "name"):
                v = getattr(o, attr, None)
                if isinstance(v, str) and isinstance(o, (A.Draw, A.Move, A.Transfer, A.Choose, A.ChooseCards, A.Let,
                                                         A.Record, A.ForEach, A.Where)):
                    out.add(v)
            for f in dataclasses.fields(o):
                walk(getattr(o, f.name))
    for eff in card.effects:
        walk(eff.params)
        walk(eff.body)
    return out


def cases():
    for ed_name in available_editions():
        ed = load_edition(ed_name)
        for src in sorted(ed.sources, key=lambda s: s.relpath):
            if src.relpath.startswith(ed_name + "/"):
                yield pytest.param(ed_name, src, id=f"{ed_name}-{src.name}")


@pytest.mark.parametrize("edition,src", list(cases()))
def test_no_bound_name_in_the_english(edition, src):
    ed = load_edition(edition)
    vocab = vocabulary(ed.manifest, ed.card_names)
    card, _ = parse_card(src.text, src.relpath, vocab)
    names = sorted(bound_names(card))
    if not names:
        return
    text = src.text
    for i, n in enumerate(names):
        # outside strings and comments only
        text = re.sub(rf'("[^"\n]*"|#[^\n]*)|(?<![\w-]){re.escape(n)}(?![\w-])',
                      lambda m: m.group(1) or f"qzx{i}q", text)
    marked, _ = parse_card(text, src.relpath, vocab)
    for effect in render_card(marked)["effects"]:
        assert "qzx" not in effect, f"{src.name}: a bound name reaches the English: {effect}"
