"""docs/set-makers.md ("Making a set"): its worked example compiles, checks, renders and plays as the page
shows, every file the page prints is the file shipped under docs/examples/tiny-set/, and the page names every
field of the set manifest's schema, every edition rule a set may override and every hook point, so it cannot
fall behind them."""
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from innoscript.core.editions import schema
from innoscript.core.hook_points import HOOK_POINTS

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "set-makers.md"
EXAMPLE = ROOT / "docs" / "examples" / "tiny-set"
SET = EXAMPLE / "sets" / "harbors" / "3e"
SCENARIOS = EXAMPLE / "scenarios"

# The Echoes-only fields that the general 'cells' and 'extra_achievements_to_win' replaced: no longer in the schema
REPLACED = {"bonus", "echo_effects", "score", "achievements_to_win_bonus"}
# The general fields, with the builtins that read cells
NEW_FIELDS = ["cells", "effect", "value", "counts_as_icon", "score", "glyph", "extra_achievements_to_win",
              "cell_value(CELL, cards)", "cell_values(CELL, cards)", "cell_effects(CELL, cards)",
              "cell_score(CELL, player)", "max(a, b)", "min(a, b)"]


def page() -> str:
    return DOC.read_text(encoding="utf-8")


def named(word: str) -> bool:
    return f"`{word}`" in page()


def _properties(node: dict, path: str = "") -> list[tuple[str, str]]:
    """(path, name) of every property the schema declares, at any depth (zones' and cells' entries, special
    achievements' items, rules ...)."""
    found = []
    for name, sub in node.get("properties", {}).items():
        found.append((path, name))
        found += _properties(sub, f"{path}/{name}")
    for key in ("additionalProperties", "items"):
        if isinstance(node.get(key), dict):
            found += _properties(node[key], f"{path}/*")
    for key in ("oneOf", "anyOf"):
        for sub in node.get(key, []):
            found += _properties(sub, path)
    return found


def test_the_page_names_every_field_of_the_set_manifest():
    props = _properties(schema("set.schema.json"))
    assert {"set", "zones", "visibility", "claimed_by", "special_achievement_check", "as", "counts_as"} <= \
        {n for _, n in props}, props          # the walk reaches the zones, specials, rules, verbs and icons
    missing = [f"{p}/{n}" for p, n in props if not named(n)]
    assert not missing, f"set.schema.json fields not on docs/set-makers.md: {missing}"
    missing = [w for w in NEW_FIELDS if not named(w)]
    assert not missing, f"new fields not on docs/set-makers.md: {missing}"


def test_the_page_names_every_edition_rule_a_set_may_override():
    rules = schema("edition.schema.json")["properties"]["rules"]["properties"]
    missing = [r for r in rules if not named(r)]
    assert not missing, f"edition rules (a set's overrides) not on docs/set-makers.md: {missing}"
    for rule, spec in rules.items():        # and each value a rule takes
        for value in spec.get("enum", []):
            assert named(value), f"{rule}: value {value!r} not on docs/set-makers.md"


def test_the_page_names_every_hook_point_and_its_arguments():
    for name, point in HOOK_POINTS.items():
        assert named(name), f"hook point {name} not on docs/set-makers.md"
        row = next((line for line in page().splitlines() if line.startswith(f"| `{name}` |")), None)
        assert row is not None, f"hook point {name} has no row in the table of hook points"
        for arg, _type in point.params:
            assert f"`{arg}`" in row, f"hook point {name}: argument {arg} not in its row"


def test_the_page_links_every_concept_it_names_to_a_section_that_exists():
    concepts = (ROOT / "docs" / "engine-concepts.md").read_text(encoding="utf-8")
    anchors = {re.sub(r"[^a-z0-9 -]", "", h.lower()).strip().replace(" ", "-")
               for h in re.findall(r"^#+ (.+)$", concepts, re.M)}
    linked = set(re.findall(r"\(engine-concepts\.md#([a-z0-9-]+)\)", page()))
    assert linked and not linked - anchors, sorted(linked - anchors)


# ---------------------------------------------------------------- the worked example, as the page shows it

def _blocks() -> dict[str, str]:
    """title -> text of every fenced block with a title="docs/examples/..." on the page."""
    return dict(re.findall(r'```\w+ title="(docs/examples/[^"]+)"\n(.*?)\n```', page(), re.S))


def test_every_file_the_page_prints_is_the_shipped_file_and_every_shipped_file_is_named():
    blocks = _blocks()
    assert len(blocks) >= 7, sorted(blocks)
    for title, text in blocks.items():
        assert (ROOT / title).read_text(encoding="utf-8") == text + "\n", f"{title} differs from the page"
    for path in sorted(p for p in EXAMPLE.rglob("*") if p.is_file()):
        assert path.name in page(), f"{path.relative_to(ROOT)} is not named on the page"
    # every card file and the rules file is printed in full
    for path in sorted(SET.rglob("*.inno")):
        assert str(path.relative_to(ROOT)) in blocks, path


def test_the_replaced_fields_are_gone():
    """The schema no longer has Echoes' own fields, and the example uses none of them."""
    schema = json.loads((ROOT / "innoscript" / "core" / "schemas" / "set.schema.json").read_text())
    assert not set(schema["properties"]) & REPLACED
    manifest = json.loads((SET / "set.json").read_text())
    assert not set(manifest) & REPLACED, manifest


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    cache = tmp_path_factory.mktemp("set-makers-cache")
    return dict(os.environ, INNOSCRIPT_CARDS=str(EXAMPLE), INNOSCRIPT_CACHE=str(cache))


def cli(*args, env, stdin=""):
    return subprocess.run([sys.executable, "-m", "innoscript", *args], capture_output=True, text=True, env=env,
                          cwd=ROOT, input=stdin, timeout=600)


def _shown(command: str) -> str:
    """What the page shows a command printing: the lines after '$ command' up to the next '$' or the block's end."""
    m = re.search(re.escape(f"$ {command}") + r"\n(.*?)(?:\n\$|\n```)", page(), re.S)
    assert m, f"the page does not show '$ {command}'"
    return m.group(1).strip()


def test_the_example_checks_clean_and_a_typo_is_reported_as_shown(env, tmp_path):
    r = cli("check", "--strict", "--sets", "harbors", "docs/examples/tiny-set/sets/harbors", env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.strip() == _shown("innoscript check --sets harbors docs/examples/tiny-set/sets/harbors")
    # the mistake the page shows: a copy of the set with 'unlaod' for 'unload'
    import shutil
    copy = tmp_path / "own"
    shutil.copytree(EXAMPLE, copy)
    wharf = copy / "sets" / "harbors" / "3e" / "age1" / "wharf.inno"
    wharf.write_text(wharf.read_text().replace("may unload", "may unlaod"))
    r = cli("check", "--sets", "harbors", str(wharf), env=dict(env, INNOSCRIPT_CARDS=str(copy)))
    assert r.returncode == 1
    shown = re.search(r"```text\n(docs/examples/tiny-set/sets/harbors/3e/age1/wharf\.inno:10:9: .*?)\n```", page(),
                      re.S).group(1)
    got = r.stderr.replace(str(wharf), "docs/examples/tiny-set/sets/harbors/3e/age1/wharf.inno")
    assert shown in got, got


def test_the_example_compiles_to_a_bundle_with_the_set(env, tmp_path):
    out = tmp_path / "harbors.bundle.json"
    r = cli("compile", "--edition", "3e", "--sets", "harbors", "-o", str(out), env=env)
    assert r.returncode == 0, r.stderr
    bundle = json.loads(out.read_text())
    harbors = bundle["sets"]["harbors"]
    assert set(harbors["zones"]) == {"hold"} and harbors["zones"]["hold"]["verb"] == "stow"
    assert harbors["draw_rule"] and [h["point"] for h in harbors["hooks"]] == ["meld_action"]
    assert any(s["name"] == "Trade Route" and s.get("set") == "harbors" for s in bundle["special_achievements"])
    assert sorted(c["name"] for c in bundle["cards"] if c.get("set") == "harbors") == \
        ["Cargo Ship", "Customs House", "Dockyard", "Wharf"]


@pytest.mark.parametrize("card", ["Wharf", "Customs House"])
def test_the_example_renders_as_shown(env, card):
    command = f'innoscript render {card if " " not in card else chr(34) + card + chr(34)} --sets harbors'
    r = cli("render", card, "--sets", "harbors", env=env)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == _shown(command)


def test_the_examples_scenarios_pass_and_a_wrong_expectation_fails(env, tmp_path):
    r = cli("scenario", "docs/examples/tiny-set/scenarios", env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.strip().splitlines()[-1] == _shown("innoscript scenario docs/examples/tiny-set/scenarios")
    assert len(list(SCENARIOS.glob("*.yaml"))) == 6
    # the hook is what stows Tools: without the set's rules file the scenario fails
    import shutil
    copy = tmp_path / "own"
    shutil.copytree(EXAMPLE, copy)
    (copy / "sets" / "harbors" / "3e" / "rules" / "blue-meld.inno").unlink()
    r = cli("scenario", str(copy / "scenarios" / "blue-meld-hook-and-trade-route.yaml"),
            env=dict(env, INNOSCRIPT_CARDS=str(copy)))
    assert r.returncode == 1, r.stdout + r.stderr


def test_every_effect_of_the_example_has_a_passing_scenario(env):
    r = cli("cards", "--edition", "3e", "--sets", "harbors", "--scenarios", "docs/examples/tiny-set/scenarios",
            "--format", "json", env=env)
    assert r.returncode == 0, r.stderr
    totals = json.loads(r.stdout)["totals_by_set"]["harbors"]
    assert totals["cards"] == 4 and totals["effects"] == totals["effects_with_scenario"] == 6, totals
    line = next(x for x in _shown("innoscript cards --edition 3e --sets harbors --scenarios "
                                  "docs/examples/tiny-set/scenarios").splitlines() if x.startswith("set harbors"))
    r = cli("cards", "--edition", "3e", "--sets", "harbors", "--scenarios", "docs/examples/tiny-set/scenarios",
            env=env)
    assert line in " ".join(r.stdout.split()), r.stdout[-600:]


def test_the_example_plays(env):
    r = cli("play", "--sets", "harbors", "--bots", "human,random", env=env, stdin="quit\n")
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    shown = " ".join(r.stdout.split())
    assert "hold (0 card(s), at most 3)" in shown and "harbors supply" in shown and "Trade Route" in shown, \
        shown[:800]
    r = cli("soak", "--sets", "harbors", "--games", "5", "--players", "2,3", "--jobs", "1", "--format", "json",
            env=env)
    assert r.returncode == 0, r.stderr
    for row in json.loads(r.stdout):
        assert row["sets"] == ["harbors"] and row["games"] == 5 and row["violations"] == row["errors"] == 0, row
