"""The card listing: for each card of an edition (and of the sets in play),
whether it compiles, how many effects it has (echo effects included), which
scenarios run it, and whether every effect has a passing scenario.  A
scenario counts for an effect only if it passed and the engine really ran that
effect (read from the scenario's events; runtime/tools/scenario_results.py keeps
the answers by content).  With sets, each card says its set
and the totals are also given per set.

``card_catalog`` is the other listing: every card as the card renderer
(runtime/serving/web/cards.js) draws it, for the protocol's ``cards`` reply,
terminal play and the docs' gallery."""
from __future__ import annotations

from pathlib import Path

from innoscript.compiler.bundle import compile_card, edition_vocabulary, load_bundle
from innoscript.core.diagnostics import CompileError
from innoscript.core.editions import cards_root, load_edition, with_required
from .scenario_results import scenario_results


def default_scenario_dir(edition: str, sets=()) -> Path:
    """tests/scenarios/<edition>, or tests/scenarios/<set>-<edition> for a game with sets."""
    return cards_root().parent / "tests" / "scenarios" / "-".join([*sets, edition])


def scenario_runs(edition: str, sets=()) -> list[tuple[Path, list[str]]]:
    """The scenario folders that play the cards of an edition with these sets, each with the sets it is played
    with: tests/scenarios/<edition> (the base cards, no set), and each <set>[-<set>...]-<edition> whose sets are
    all among them (a set's cards, and its cards beside another set's)."""
    root = cards_root().parent / "tests" / "scenarios"
    out = []
    for folder in sorted(root.iterdir()) if root.is_dir() else ():
        *names, ed = folder.name.split("-")
        if folder.is_dir() and ed == edition and set(names) <= set(sets):
            out.append((folder, names))
    return out


def set_of(edition, relpath: str) -> str:
    """The set a card source belongs to ('base' for the edition's own cards)."""
    for s in edition.sets:
        if relpath.startswith(f"sets/{s.name}/"):
            return s.name
    return "base"


def catalog(edition_name: str, scenario_dir: Path | None = None, sets=()) -> dict:
    edition = load_edition(edition_name, sets=with_required(sets, edition_name) if sets else ())
    vocab = edition_vocabulary(edition)
    rows: dict[str, dict] = {}
    for src in edition.sources:
        row = {"name": src.name, "set": set_of(edition, src.relpath), "source": src.relpath, "compiled": True,
               "implemented": False, "error": None,
               "age": None, "color": None, "effects": 0, "scenarios": 0, "effects_with_scenario": [],
               "every_effect_has_scenario": False}
        try:
            data = compile_card(src.text, src.relpath, vocab).data
            row.update(age=data["age"], color=data["color"], effects=len(data["effects"]),
                       implemented=bool(data["effects"]) or bool(data.get("no_effect")))
            if data.get("face_only"):    # a card of a set this engine does not have: its face, and it says so
                row.update(face_only=True, set_of_card=data["set"])
        except CompileError as err:
            row.update(compiled=False, error=err.diagnostics[0].render())
        rows[src.name or src.relpath] = row
    runs = [(scenario_dir, edition.set_names)] if scenario_dir else scenario_runs(edition.name, edition.set_names)
    failing: list[str] = []
    for folder, run_sets in runs:
        if not folder.exists():
            continue
        bundle = load_bundle(edition.name, sets=run_sets)
        names = [c["name"] for c in bundle["cards"]]
        results = scenario_results(sorted(folder.rglob("*.yaml")), bundle)
        for path, out in results.items():
            if not out["passed"]:
                failing.append(str(path))
                continue
            touched: set[str] = set()
            for cid, eff in out["effects"]:
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
    totals = dict(_totals(cards), failing_scenarios=len(failing))
    out = {"edition": edition.name, "cards": cards, "totals": totals, "failing_scenarios": failing}
    removed = [name for gs in edition.sets for name in gs.manifest.get("removed_at_setup", ())]
    if removed:     # printed cards the sets' games are played without (their rulings): not written, and said so
        totals["removed_at_setup"] = removed
    if edition.sets:
        out["sets"] = edition.set_names
        out["totals_by_set"] = {name: _totals([r for r in cards if r["set"] == name])
                                for name in ["base", *edition.set_names]}
    return out


def _totals(cards: list[dict]) -> dict:
    return {
        "cards": len(cards),
        "compiled": sum(r["compiled"] for r in cards),
        "implemented": sum(r["implemented"] for r in cards),
        "not_implemented": [r["name"] for r in cards if not r["implemented"] and not r.get("face_only")],
        "face_only": [f"{r['name']} ({r['set_of_card']})" for r in cards if r.get("face_only")],
        "effects": sum(r["effects"] for r in cards),
        "effects_with_scenario": sum(len(r["effects_with_scenario"]) for r in cards),
        "cards_fully_covered": sum(r["every_effect_has_scenario"] for r in cards),
    }
