"""The language reference page: every alternative of the grammar, grouped by task, no parser artefacts; the crib compiles."""
import re
import sys
from pathlib import Path

import pytest

from innoscript.compiler.bundle import compile_card, vocabulary
from innoscript.compiler.parser import lark_parser
from innoscript.compiler.tools.reference import LAST_GROUP, anchor, crib, entries, groups
from innoscript.core.editions import load_edition

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "docs"))
import hooks  # noqa: E402

HEADER = 'card "X" {\n age 1\n color red\n icons hex leaf leaf leaf\n dogma leaf\n}\n'


@pytest.fixture(scope="module")
def page():
    return hooks.grammar_reference()


def rows(page):
    return {m.group(1): m.group(0) for m in re.finditer(r'^\| <a id="([a-z0-9-]+)"></a>.*$', page, re.M)}


def test_every_grammar_alternative_is_in_the_reference(page):
    by_anchor = rows(page)
    parser = lark_parser()
    from innoscript.compiler.parser import grammar_text
    named = set(re.findall(r"^([A-Z_]+)(?:\.\d+)?\s*:", grammar_text(), re.M)) | {"NAME", "INT", "STRING"}
    for rule in parser.rules:
        name = str(rule.alias or rule.origin.name)
        if name.startswith("_"):
            continue
        row = by_anchor.get(anchor(name))
        assert row, f"construct {name} is missing from the reference"
        for sym in rule.expansion:
            if sym.is_term:
                pat = parser.get_terminal(sym.name).pattern
                word = pat.value if pat.type == "str" and sym.name not in named else sym.name
                shown = word if sym.name in named else \
                    f"&quot;{word}&quot;".replace(">", "&gt;").replace("<", "&lt;").replace("'", "&#x27;")
                assert shown in row, f"{name}: the alternative with {word!r} is missing: {row[:200]}"


def test_no_parser_artefacts_and_every_construct_once(page):
    assert not re.search(r"_star_\d|_plus_\d|__anon|_opt_\d|\b__[a-z]", page), "a parser artefact in the reference"
    placed = [e.name for _, _, es in groups() for e in es]
    assert len(placed) == len(set(placed)) == len(entries())
    assert len(rows(page)) == len(entries())


def test_groups_are_by_task_and_entries_have_meaning_and_examples():
    titles = [t for t, _, _ in groups()]
    for want in ("Drawing cards", "Moving cards", "Choosing", "Conditions", "Card sets and filters", "Players",
                 "Numbers and values", "Control flow", LAST_GROUP):
        assert want in titles
    for e in entries().values():
        assert e.meaning, f"{e.name}: no meaning"
        assert e.example or e.real, f"{e.name}: no example"
    # a construct no group places (a new set's construct) still gets its entry, in the last group
    assert entries()["draw_stmt"].cards and entries()["draw_stmt"].real


def test_the_grammar_text_alternatives_are_all_shown():
    from innoscript.compiler.tools.reference import grammar_rules
    shown = {a for e in entries().values() for a in e.syntax}
    for rule, alts in grammar_rules():
        for alt in alts:
            assert re.sub(r"\s*->\s*\w+\s*$", "", alt) in shown, (rule, alt)
    assert len(entries()["compare_op"].syntax) == 6 and len(entries()["draw_verb"].syntax) == 6   # a set's verbs: draw_then_set


@pytest.mark.parametrize("item", crib(), ids=[c["printed"][:30] for c in crib()])
def test_crib_scripts_compile(item):
    ed = load_edition("3e")
    vocab = vocabulary(ed.manifest, ed.card_names)
    script = item["script"]
    if script.startswith("["):
        script = f"draw {script}"
    body = script if script.startswith(("demand", "effect")) else \
        "effect {\n    draw and reveal [1] as drawn\n    " + script.replace("\n", "\n    ") + "\n}\n"
    compile_card(HEADER + body + "\n", "crib.inno", vocab)
