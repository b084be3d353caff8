"""Every scripted effect of a set's cards, cell effects (echo effects) included, has a passing scenario, except
the effects listed in tests/sets-uncovered.yaml (their scenarios wait for runtime or for a card file); the
listing reports per set on the command line too."""
import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from innoscript.core.editions import available_editions, available_sets
from innoscript.runtime.tools.catalog import catalog

UNCOVERED = Path(__file__).parent / "sets-uncovered.yaml"


def problems(data: dict, set_name: str, waiting: dict) -> list[str]:
    """The set's effects without a passing scenario that are not listed as waiting. (A listed effect that
    has one now is no problem: scenarios of the engine's rules may run it first; the list is pruned by hand.)"""
    out = []
    for r in data["cards"]:
        if r["set"] != set_name or not r["implemented"]:
            continue
        missing = set(range(1, r["effects"] + 1)) - set(r["effects_with_scenario"])
        unlisted = sorted(missing - set(waiting.get(r["name"], [])))
        if unlisted:
            out.append(f"{r['name']}: effects {unlisted} have no passing scenario (and are not listed as waiting)")
    return out


SETS = [(s, e) for e in available_editions() for s in available_sets(e)]


@pytest.mark.parametrize("set_name,edition", SETS, ids=[f"{s}-{e}" for s, e in SETS])
def test_every_scripted_effect_of_a_set_has_a_passing_scenario(set_name, edition):
    data = catalog(edition, sets=[set_name])
    assert data["failing_scenarios"] == []
    waiting = (yaml.safe_load(UNCOVERED.read_text(encoding="utf-8")).get(set_name) or {}).get(edition) or {}
    found = problems(data, set_name, waiting)
    assert not found, "\n".join(found)


def test_every_set_has_its_waiting_list():
    listed = yaml.safe_load(UNCOVERED.read_text(encoding="utf-8"))
    assert {(s, e) for s, eds in listed.items() for e in eds} == set(SETS)


def test_the_check_catches_an_effect_without_a_scenario(tmp_path):
    data = catalog("3e", tmp_path, sets=["echoes"])             # no scenarios at all
    assert data["totals_by_set"]["echoes"]["effects_with_scenario"] == 0
    waiting = yaml.safe_load(UNCOVERED.read_text(encoding="utf-8"))["echoes"]["3e"] or {}
    found = problems(data, "echoes", waiting)
    assert found and all("no passing scenario" in p for p in found)
    everything = {r["name"]: list(range(1, r["effects"] + 1)) for r in data["cards"] if r["set"] == "echoes"}
    assert problems(data, "echoes", everything) == []


def _cli(*args):
    r = subprocess.run([sys.executable, "-m", "innoscript.cli", *args], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_cards_and_coverage_report_per_set():
    data = json.loads(_cli("cards", "--edition", "4e", "--sets", "echoes", "--format", "json"))
    assert data["sets"] == ["echoes"] and set(data["totals_by_set"]) == {"base", "echoes"}
    by_set = data["totals_by_set"]
    assert by_set["base"]["cards"] + by_set["echoes"]["cards"] == data["totals"]["cards"]
    assert by_set["echoes"]["effects_with_scenario"] > 0
    cov = json.loads(_cli("coverage", "--edition", "4e", "--sets", "echoes", "--format", "json"))
    assert {c["set"] for c in cov["cards"]} == {"base", "echoes"}
    assert cov["totals_by_set"]["echoes"]["executed"] > 0
    assert sum(t["instructions"] for t in cov["totals_by_set"].values()) == cov["totals"]["instructions"]
    assert "set echoes:" in _cli("cards", "--edition", "3e", "--sets", "echoes")


def test_a_relic_of_another_set_is_covered_with_that_set_in_play():
    """Safety Pin (an Echoes card carried by the relics) leaves its home only with Echoes in play: its effects'
    scenarios are played with the three sets, and the waiting list's entry for it says so."""
    data = catalog("3e", sets=["artifacts", "echoes", "relics"])
    assert data["failing_scenarios"] == []
    waiting = yaml.safe_load(UNCOVERED.read_text(encoding="utf-8"))["relics"]["3e"]
    assert set(waiting) == {"Safety Pin"}
    row = next(r for r in data["cards"] if r["name"] == "Safety Pin")
    assert row["set"] == "relics" and row["effects_with_scenario"] == waiting["Safety Pin"] == [1, 2]


def test_face_only_cards_are_reported_as_such():
    data = catalog("3e", sets=["relics"])          # Artifacts comes with it: the relics require it
    assert data["sets"] == ["artifacts", "relics"]
    assert data["totals"]["face_only"] == ["Ching Shih (figures)"]
    assert not {"Timbuktu", "Ching Shih"} & set(data["totals"]["not_implemented"])
    assert "face only" in _cli("cards", "--edition", "3e", "--sets", "artifacts,relics")


def test_the_listing_with_a_set_counts_the_base_cards_scenarios_too():
    """'cards --sets echoes' lists the base cards beside the set's: their scenarios (played without the set) count
    for them, so they are not reported as uncovered."""
    data = catalog("4e", sets=["echoes"])
    base = data["totals_by_set"]["base"]
    assert base["cards"] > 100 and base["effects_with_scenario"] == base["effects"]
