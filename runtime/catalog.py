"""The card listing: for each card of an edition, whether it compiles, how
many effects it has, which scenarios run it, and whether every effect has a
passing scenario.  A scenario counts for an effect only if it passed and the
engine really ran that effect (read from the scenario's events)."""
from __future__ import annotations

from pathlib import Path

from innoscript.compiler.bundle import compile_card, vocabulary
from innoscript.diagnostics import CompileError
from innoscript.editions import cards_root, load_edition
from .scenario import ScenarioError, run


def default_scenario_dir(edition: str) -> Path:
    return cards_root().parent / "tests" / "scenarios" / edition


def catalog(edition_name: str, scenario_dir: Path | None = None) -> dict:
    edition = load_edition(edition_name)
    vocab = vocabulary(edition.manifest, edition.card_names)
    rows: dict[str, dict] = {}
    for src in edition.sources:
        row = {"name": src.name, "source": src.relpath, "compiled": True, "implemented": False, "error": None,
               "age": None, "color": None, "effects": 0, "scenarios": 0, "effects_with_scenario": [],
               "every_effect_has_scenario": False}
        try:
            data = compile_card(src.text, src.relpath, vocab).data
            row.update(age=data["age"], color=data["color"], effects=len(data["effects"]),
                       implemented=bool(data["effects"]))
        except CompileError as err:
            row.update(compiled=False, error=err.diagnostics[0].render())
        rows[src.name or src.relpath] = row
    scenario_dir = scenario_dir or default_scenario_dir(edition.name)
    failing: list[str] = []
    if scenario_dir.exists():
        from innoscript.compiler.bundle import load_bundle
        bundle = load_bundle(edition.name)
        names = [c["name"] for c in bundle["cards"]]
        for path in sorted(scenario_dir.rglob("*.yaml")):
            try:
                out = run(path, bundle)
            except ScenarioError:
                failing.append(str(path))
                continue
            if not out.passed:
                failing.append(str(path))
                continue
            touched: set[str] = set()
            for cid, eff in out.effects_run():
                row = rows.get(names[cid])
                if row is None:
                    continue
                touched.add(names[cid])
                if eff + 1 not in row["effects_with_scenario"]:
                    row["effects_with_scenario"].append(eff + 1)
            for name in touched:
                rows[name]["scenarios"] += 1
    cards = sorted(rows.values(), key=lambda r: (r["age"] or 0, edition.manifest["colors"].index(r["color"])
                                                if r["color"] in edition.manifest["colors"] else 9, r["name"] or ""))
    for r in cards:
        r["effects_with_scenario"].sort()
        r["every_effect_has_scenario"] = r["implemented"] and len(r["effects_with_scenario"]) == r["effects"]
    totals = {
        "cards": len(cards),
        "compiled": sum(r["compiled"] for r in cards),
        "implemented": sum(r["implemented"] for r in cards),
        "not_implemented": [r["name"] for r in cards if not r["implemented"]],
        "effects": sum(r["effects"] for r in cards),
        "effects_with_scenario": sum(len(r["effects_with_scenario"]) for r in cards),
        "cards_fully_covered": sum(r["every_effect_has_scenario"] for r in cards),
        "failing_scenarios": len(failing),
    }
    return {"edition": edition.name, "cards": cards, "totals": totals, "failing_scenarios": failing}
