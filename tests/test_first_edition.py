"""The 1st edition as data: cards/1e inherits the 3rd edition and replaces the ten cards whose
1st-edition texts differ; it compiles deterministically, the diff shows what changed, each of the ten
has scenarios running every effect, and team games run on it."""
import json
import re
from pathlib import Path

import pytest

from conftest import EXPANSIONS, NO_REFERENCE, ROOT
from innoscript.compiler.bundle import compile_edition
from innoscript.compiler.tools.diff import diff_card
from innoscript.core.editions import load_edition
from innoscript.runtime.tools import scenario as S
from innoscript.runtime.tools.soak import soak

SCENARIOS = ROOT / "tests" / "scenarios" / "1e"


@pytest.fixture(scope="module")
def variants():
    if not EXPANSIONS.exists():
        pytest.skip(NO_REFERENCE)
    return json.loads(EXPANSIONS.read_text())["first_edition_variants"]["cards_with_first_keys"]


def test_the_edition_replaces_exactly_the_ten_cards(variants):
    ed = load_edition("1e")
    assert ed.manifest["inherit"] == "3e"
    assert "1st edition" in ed.manifest["label"] and "3rd-edition rules" in ed.manifest["label"]
    own = {s.name for s in ed.sources if s.relpath.startswith("1e/")}
    assert own == set(variants) and len(own) == 10
    assert len(ed.sources) == len(load_edition("3e").sources)


def test_compiles_deterministically_and_keeps_3rd_edition_facts():
    a, b = compile_edition(load_edition("1e")), compile_edition(load_edition("1e"))
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
    third = {c["name"]: c for c in compile_edition(load_edition("3e"))["cards"]}
    for c in a["cards"]:
        assert (c["age"], c["color"], c["icons"], c["dogma"]) == \
               (third[c["name"]]["age"], third[c["name"]]["color"], third[c["name"]]["icons"], third[c["name"]]["dogma"])


def test_the_diff_shows_the_changes(variants):
    from innoscript.cli import _edition_asts
    _, old = _edition_asts("3e")
    _, new = _edition_asts("1e")
    o, n = {c.name: c for c in old}, {c.name: c for c in new}
    changed = {name for name in n if diff_card(o[name], n[name]).status != "same"}
    # the one card whose 1st-edition text differs only in wording has the same script
    same_meaning = {name for name, v in variants.items()
                    if [e["kind"] for e in v["effects_1st_edition"]] == [e["kind"] for e in v["effects_3rd_edition"]]
                    and re.sub(r"\W|ed\b", "", " ".join(e["text"] for e in v["effects_1st_edition"])) ==
                    re.sub(r"\W|ed\b", "", " ".join(e["text"] for e in v["effects_3rd_edition"]))}
    assert changed == set(variants) - same_meaning and len(changed) == 9


def test_every_effect_of_the_ten_cards_runs_in_a_passing_scenario(variants):
    files = sorted(SCENARIOS.rglob("*.yaml"))
    ran, bundle = set(), None
    for f in files:
        out = S.run(f)
        assert out.passed, f"{f.name}: {out.failures}"
        bundle = out.engine.cards
        ran |= out.effects_run()
    for name in variants:
        cid = bundle.by_name[name]
        effects = {(cid, e) for e in range(len(bundle.cards[cid]["effects"]))}
        assert effects <= ran, f"{name}: an effect no scenario runs"


def test_no_printed_sentence_is_copied(variants):
    for name, v in variants.items():
        sentences = [" ".join(re.findall(r"[a-z]+", s.lower()))
                     for e in v["effects_1st_edition"] for s in re.split(r"[.!]", e["text"])]
        f = next((ROOT / "cards" / "1e").rglob(f"{name.lower().replace(' ', '-')}.inno"))
        text = " ".join(re.findall(r"[a-z]+", f.read_text().lower()))
        assert not [s for s in sentences if len(s.split()) >= 4 and s in text], name


@pytest.mark.parametrize("seating", ["random", "1+3"])
def test_team_games_run_on_the_first_edition(seating):
    r = soak("1e", 4, 2, seed=900, jobs=1, options={"teams": seating})
    assert r["violations"] == 0 and r["errors"] == 0, r["samples"]
