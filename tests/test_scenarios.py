"""Every scenario file under tests/scenarios passes; a wrong expectation fails."""
import copy
from pathlib import Path

import pytest
import yaml

from innoscript.runtime.tools import scenario as S

ROOT = Path(__file__).parent / "scenarios"
FILES = sorted(ROOT.rglob("*.yaml"))


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_scenario(path):
    out = S.run(path)
    assert out.passed, "\n".join(out.failures)


def test_a_wrong_expectation_fails(tmp_path):
    data = yaml.safe_load((ROOT / "3e" / "age1" / "archery-demand.yaml").read_text())
    bad = copy.deepcopy(data)
    bad["expect"]["players"][0]["hand"] = ["Sailing"]
    p = tmp_path / "bad.yaml"
    p.write_text(yaml.safe_dump(bad))
    out = S.run(p)
    assert not out.passed and "player 1 hand" in out.failures[0]


def test_unanswered_and_leftover_answers_fail(tmp_path):
    data = yaml.safe_load((ROOT / "3e" / "age1" / "archery-demand.yaml").read_text())
    data["answers"] = ["Oars"]
    p = tmp_path / "extra.yaml"
    p.write_text(yaml.safe_dump(data))
    assert "left over" in S.run(p).failures[0]


@pytest.mark.parametrize("mutate,msg", [
    (lambda d: d.update(players="two"), "players"),
    (lambda d: d["setup"]["players"][0].update(hand=["Archeri"]), "did you mean 'Archery'"),
    (lambda d: d["setup"]["players"][0]["board"].update(red=["Writing"]), "is blue, not red"),
    (lambda d: d.update(do={"fly": True}), "do"),
])
def test_bad_scenarios_are_rejected_clearly(tmp_path, mutate, msg):
    data = yaml.safe_load((ROOT / "3e" / "age1" / "archery-demand.yaml").read_text())
    mutate(data)
    p = tmp_path / "bad.yaml"
    p.write_text(yaml.safe_dump(data))
    with pytest.raises(S.ScenarioError, match=msg):
        S.run(p)


def test_card_listing_counts_only_effects_really_run(tmp_path):
    import json
    import shutil
    import subprocess
    import sys
    shutil.copy(ROOT / "3e" / "age1" / "archery-demand.yaml", tmp_path / "a.yaml")
    shutil.copy(ROOT / "3e" / "age1" / "archery-immune.yaml", tmp_path / "b.yaml")  # runs no effect
    r = subprocess.run([sys.executable, "-m", "innoscript.cli", "cards", "--edition", "3e", "--format", "json",
                        "--scenarios", str(tmp_path)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    rows = {c["name"]: c for c in data["cards"]}
    assert rows["Archery"]["scenarios"] == 1 and rows["Archery"]["every_effect_has_scenario"]
    assert rows["Oars"]["scenarios"] == 0 and not rows["Oars"]["every_effect_has_scenario"]
    assert data["totals"]["cards"] == 105 and data["totals"]["compiled"] == 105


# ---------------------------------------------------------------- format version 2
MUST_FAIL = sorted((Path(__file__).parent / "scenarios_must_fail").glob("*.yaml"))
EXAMPLES = sorted(ROOT.glob("*/format/*.yaml"))


def _must(path: Path) -> str:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("# must fail: "), f"{path.name}: the first line says why it must fail"
    return first[len("# must fail: "):]


@pytest.mark.parametrize("path", MUST_FAIL, ids=[p.name for p in MUST_FAIL])
def test_failing_examples_fail_for_their_reason(path):
    why = _must(path)
    try:
        out = S.run(path)
    except S.ScenarioError as err:
        assert why in str(err)
        return
    assert not out.passed, f"{path.name} passed"
    assert any(why in f for f in out.failures), out.failures


def _features(data: dict) -> set[str]:
    """The version-2 keys a file uses."""
    found = {"version"} if "version" in data else set()
    for part, keys in S.V2_KEYS.items():
        found |= {f"{part}.{k}" for k in keys if k in data.get(part, {})}
    ex = data.get("expect", {})
    for spec in ex.get("players", []):
        for pile in spec.get("board", {}).values():
            if isinstance(pile, dict) and "top" in pile:
                found.add("board.top" + (".any_order" if isinstance(pile["top"], dict) else ""))
    for key in ("supply_top", "supply_bottom", "supply"):
        if any(isinstance(v, dict) for v in ex.get(key, {}).values()):
            found.add(f"expect.{key}.any_order")
    for a in data.get("answers", []):
        kind = S._typed(a)
        if kind:
            found |= {f"answer.{kind}"} | {f"answer.{m}" for m in ("by", "if_asked", "source") if m in a}
    return found


def test_every_version_2_key_has_an_example_and_a_failing_example():
    every = {"version", "board.top", "board.top.any_order", "expect.supply_top.any_order",
             "expect.supply_bottom.any_order", "expect.supply.any_order"}
    every |= {f"{part}.{k}" for part, keys in S.V2_KEYS.items() for k in keys}
    every |= {f"answer.{k}" for k in S.TYPED_ANSWERS} | {"answer.by", "answer.if_asked", "answer.source"}
    # the construct test cards' scenarios too: a typed answer no printed card asks yet ({set: ...}) runs there
    constructs = sorted((Path(__file__).parent / "corpus" / "constructs").glob("*.yaml"))
    passing = set().union(*(_features(yaml.safe_load(p.read_text())) for p in EXAMPLES + constructs))
    assert every - passing == set(), "no passing example"
    failing = set()
    for p in MUST_FAIL:
        failing |= _features(yaml.safe_load(p.read_text()))
    assert every - failing == set(), "no failing example"


def test_bare_and_typed_answers_agree():
    bare = yaml.safe_load((ROOT / "3e" / "age2" / "road-building-three-players.yaml").read_text())
    typed = yaml.safe_load((ROOT / "3e" / "format" / "answers-cards-yes-no-player.yaml").read_text())
    assert bare["setup"] == typed["setup"] and bare["expect"] == typed["expect"]


def test_scenario_json_and_junit(tmp_path):
    import json
    import subprocess
    import sys
    import xml.etree.ElementTree as ET
    junit = tmp_path / "r.xml"
    files = [str(ROOT / "3e" / "format" / "answers-option.yaml"), str(MUST_FAIL[-1])]
    r = subprocess.run([sys.executable, "-m", "innoscript.cli", "scenario", "--format", "json", "--junit", str(junit),
                        *files], capture_output=True, text=True)
    assert r.returncode == 1, r.stderr
    data = json.loads(r.stdout)
    assert [s["status"] for s in data["scenarios"]] == ["pass", "error"] and data["failed"] == 1, data
    suite = ET.parse(junit).getroot()
    assert suite.get("tests") == "2" and suite.get("errors") == "1"
    assert suite.findall("testcase")[1].find("error") is not None
