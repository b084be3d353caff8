"""Hostile scenario files: every one is a ScenarioError naming the file (and the line and
column where the file says so), never a Python exception.

The long profile is `INNOSCRIPT_FUZZ_EXAMPLES=3000 python -m pytest tests/test_hostile_scenarios.py`.
"""
import copy
import os
import random
import re
from pathlib import Path

import pytest
import yaml

from innoscript.compiler.bundle import load_bundle
from innoscript.runtime.tools import scenario as S
from mutation import random_place

ROOT = Path(__file__).parent / "scenarios"
BASE = (ROOT / "3e" / "age1" / "archery-demand.yaml").read_text()
EXAMPLES = int(os.environ.get("INNOSCRIPT_FUZZ_EXAMPLES", "150"))
ALL = sorted(ROOT.rglob("*.yaml"))


def _edit(f):
    data = yaml.safe_load(BASE)
    f(data)
    return yaml.safe_dump(data, sort_keys=False)


# (name, file text, the message must match, a line:column is given)
CASES = [
    ("empty", "", r"\(top\)", False),
    ("a list", "- 1\n- 2\n", r"\(top\)", True),
    ("bad yaml", "edition: 3e\nplayers: [2\n", r":3:1: not valid YAML", True),
    ("tab", "edition: 3e\n\tplayers: 2\n", r"not valid YAML", True),
    ("alias bomb", "a: &a [1, 1, 1]\nb: &b [*a, *a, *a]\nc: [*b, *b, *b]\n", r"anchors", True),
    ("deep", "x: " + "[" * 300 + "]" * 300 + "\n", r"nested more than", False),
    ("deep json", None, r"nested more than", False),
    ("binary", "\x00\x01\x02", r"not valid YAML", False),
    ("huge", "name: " + "x" * (1 << 21) + "\n", r"larger than", False),
    ("players string", _edit(lambda d: d.update(players="two")), r":4:10: players", True),
    ("players 9", _edit(lambda d: d.update(players=8)), r"for 2-4 players, not 8", True),
    ("players 1", _edit(lambda d: d.update(players=1)), r"for 2-4 players, not 1", True),
    ("active 3", _edit(lambda d: d.update(active=3)), r"player 3 does not exist", True),
    ("active 0", _edit(lambda d: d.update(active=0)), r"active", True),
    ("unknown edition", _edit(lambda d: d.update(edition="5e")), r"unknown edition", True),
    ("edition path", _edit(lambda d: d.update(edition="../../etc")), r"edition", False),
    ("edition int", _edit(lambda d: d.update(edition=3)), r"edition", True),
    ("unknown card", _edit(lambda d: d["setup"]["players"][0].update(hand=["Archeri"])), r"did you mean 'Archery'", True),
    ("card int", _edit(lambda d: d["setup"]["players"][0].update(hand=[3])), r"hand/0", True),
    ("wrong colour pile", _edit(lambda d: d["setup"]["players"][0]["board"].update(red=["Writing"])), r"is blue, not red", True),
    ("unknown colour", _edit(lambda d: d["setup"]["players"][0]["board"].update(pink=["Writing"])), r"unknown colour 'pink'", True),
    ("unknown splay", _edit(lambda d: d["setup"]["players"][0]["board"].update(
        blue={"cards": ["Writing", "Tools"], "splay": "sideways"})), r"unknown splay", True),
    ("too many players", _edit(lambda d: d["setup"]["players"].extend([{}, {}])), r"more players", True),
    ("unknown age", _edit(lambda d: d["setup"].update(supply={"12": ["Archery"]})), r"no age 12", True),
    ("age text", _edit(lambda d: d["setup"].update(supply={"one": ["Archery"]})), r"supply", True),
    ("supply wrong age", _edit(lambda d: d["setup"].update(supply={"2": ["Archery"]})), r"is age 1, not 2", True),
    ("empty age 99", _edit(lambda d: d["setup"].update(empty_ages=[99])), r"no age 99", True),
    ("unknown special", _edit(lambda d: d["setup"].update(specials=["Moon"])), r"unknown special", True),
    ("junk unknown special", _edit(lambda d: d["setup"].update(junk_specials=["Moon"])), r"unknown special", True),
    ("special twice", _edit(lambda d: [pl.update(achievements=["Monument"]) for pl in d["setup"]["players"]]),
     r"more than one place", True),
    ("placed twice", _edit(lambda d: d["setup"]["players"][1].update(hand=["Archery"])), r"placed twice", True),
    ("expect too many", _edit(lambda d: d["expect"].update(players=[{}, {}, {}])), r"expectations for more", True),
    ("expect colour", _edit(lambda d: d["expect"].update(players=[{"board": {"pink": []}}])), r"unknown colour", True),
    ("expect age", _edit(lambda d: d["expect"].update(supply_top={"77": ["Archery"]})), r"no age 77", True),
    ("do nothing", _edit(lambda d: d.update(do={})), r"do", True),
    ("do unknown card", _edit(lambda d: d.update(do={"dogma": "Nothing"})), r"do/dogma: unknown card", True),
    ("do achieve 99", _edit(lambda d: d.update(do={"achieve": 99})), r".", False),
    ("answer dict", _edit(lambda d: d.update(answers=[{"a": {"b": 1}}])), r".", False),
    ("answer nested", _edit(lambda d: d.update(answers=[[[[1]]]])), r".", False),
    ("answer player text", _edit(lambda d: d.update(answers=["player x"])), r".", False),
    ("answer bool", _edit(lambda d: d.update(answers=[True])), r".", False),
    ("turn huge", _edit(lambda d: d.update(turn=10 ** 30)), r".", False),
    ("seed huge", _edit(lambda d: d.update(seed=10 ** 400)), r".", False),
    ("date", _edit(lambda d: d.update(name="x")).replace("name: x", "name: 2024-01-01"), r"name", True),
    ("int keys", BASE.replace('supply: {"3": [Alchemy]}', "supply: {3: [Alchemy]}") if '"3"' in BASE else
     _edit(lambda d: d["setup"].update(supply={3: ["Archery"]})), r".", False),
]


@pytest.mark.parametrize("name,text,msg,positioned", CASES, ids=[c[0] for c in CASES])
def test_hostile_scenario_is_a_clear_error(tmp_path, name, text, msg, positioned):
    if text is None:
        p = tmp_path / "bad.json"
        p.write_text("[" * 5000 + "]" * 5000)
    else:
        p = tmp_path / "bad.yaml"
        p.write_text(text, encoding="utf-8", errors="surrogateescape")
    outcome = _run(p)
    if isinstance(outcome, S.ScenarioError):
        text = str(outcome)
        assert text.startswith(str(p)), text
        assert re.search(msg, text), text
        assert "\n" not in text and len(text) < 600
        if positioned:
            assert re.match(re.escape(str(p)) + r":\d+:\d+: ", text), text
    else:
        assert msg == r".", f"{name} was accepted"


def _run(p):
    """A ScenarioError or an Outcome; anything else fails the test."""
    try:
        return S.run(p)
    except S.ScenarioError as err:
        return err


def _mutations(rng, data, bundle):
    names = [c["name"] for c in bundle["cards"]] + ["Nothing", "", "Player 1"]
    junk = [None, True, -1, 0, 10 ** 20, 1.5, "x", [], {}, [None], {"a": [1]}, "player 9", rng.choice(names),
            [rng.choice(names)], {"cards": [rng.choice(names)], "splay": "up"}]
    for _ in range(rng.randint(1, 4)):
        # pick a random place in the document and replace, delete or add there
        node, parent, key = random_place(rng, data, rng.randint(0, 5))
        if parent is None:
            continue
        op = rng.random()
        if op < 0.6:
            parent[key] = copy.deepcopy(rng.choice(junk))
        elif op < 0.8 and isinstance(parent, dict):
            del parent[key]
        elif isinstance(parent, list):
            parent.insert(key, copy.deepcopy(rng.choice(junk)))
        else:
            parent[rng.choice(["hand", "board", "supply", "players", "active", "turn", "junk", "specials"])] = \
                copy.deepcopy(rng.choice(junk))


def test_mutated_scenarios_fail_cleanly(tmp_path):
    bundle = load_bundle("3e")
    rng = random.Random(14)
    counts = {"error": 0, "ran": 0}
    for i in range(EXAMPLES):
        src = rng.choice(ALL)
        data = yaml.safe_load(src.read_text())
        _mutations(rng, data, bundle)
        p = tmp_path / f"m{i}.yaml"
        p.write_text(yaml.safe_dump(data))
        out = _run(p)
        counts["error" if isinstance(out, S.ScenarioError) else "ran"] += 1
        if isinstance(out, S.ScenarioError):
            assert str(out).startswith(str(p)) and "Traceback" not in str(out)
    assert counts["error"] > EXAMPLES // 4, counts   # the mutations do break files
