"""Every scenario file under tests/scenarios passes; a wrong expectation fails."""
import copy
from pathlib import Path

import pytest
import yaml

from innoscript.runtime import scenario as S

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
