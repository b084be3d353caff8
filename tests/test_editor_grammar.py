"""The TextMate grammar shipped for editors is generated from the language grammar and matches every keyword."""
import json
import re
from importlib import resources

from conftest import regenerate

from innoscript.compiler.parser import all_keywords
from innoscript.highlight import textmate_json


def shipped():
    return resources.files("innoscript").joinpath("editors", "innoscript.tmLanguage.json")


def test_shipped_grammar_is_the_generated_one():
    fresh = textmate_json()
    if regenerate():
        with open(str(shipped()), "w", encoding="utf-8") as f:
            f.write(fresh)
    assert shipped().read_text(encoding="utf-8") == fresh, \
        "stale: INNOSCRIPT_REGEN=1 python -m pytest tests/test_editor_grammar.py"


def test_every_keyword_is_highlighted_and_names_are_not():
    g = json.loads(shipped().read_text(encoding="utf-8"))
    kw = [re.compile(p["match"]) for p in g["patterns"] if p["name"].startswith("keyword.") and "operator" not in p["name"]]
    for word in all_keywords():
        assert any(p.fullmatch(word) for p in kw), f"keyword {word!r} is not highlighted"
    for name in ("drawn", "castle", "drawing", "score_pile"):
        assert not any(p.fullmatch(name) for p in kw), name
    assert g["scopeName"] == "source.innoscript" and g["fileTypes"] == ["inno"]
