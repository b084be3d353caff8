"""The card listing: for each card of an edition (and of the sets in play),
whether it compiles, how many effects it has (echo effects included), which
scenarios run it, and whether every effect has a passing scenario.  A
scenario counts for an effect only if it passed and the engine really ran that
effect (read from the scenario's events; runtime/scenario_results.py keeps
the answers by content).  With sets, each card says its set
and the totals are also given per set.

``card_catalog`` is the other listing: every card as the card renderer
(innoscript/web/cards.js) draws it, for the protocol's ``cards`` reply,
terminal play and the docs' gallery."""
from __future__ import annotations

from pathlib import Path

from innoscript.compiler.bundle import compile_card, edition_vocabulary
from innoscript.diagnostics import CompileError
from innoscript.editions import cards_root, load_edition
from .scenario_results import scenario_results


def default_scenario_dir(edition: str, sets=()) -> Path:
    """tests/scenarios/<edition>, or tests/scenarios/<set>-<edition> for a game with sets."""
    return cards_root().parent / "tests" / "scenarios" / "-".join([*sets, edition])


def set_of(edition, relpath: str) -> str:
    """The set a card source belongs to ('base' for the edition's own cards)."""
    for s in edition.sets:
        if relpath.startswith(f"sets/{s.name}/"):
            return s.name
    return "base"


def catalog(edition_name: str, scenario_dir: Path | None = None, sets=()) -> dict:
    edition = load_edition(edition_name, sets=sets)
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
        except CompileError as err:
            row.update(compiled=False, error=err.diagnostics[0].render())
        rows[src.name or src.relpath] = row
    scenario_dir = scenario_dir or default_scenario_dir(edition.name, edition.set_names)
    failing: list[str] = []
    if scenario_dir.exists():
        from innoscript.compiler.bundle import load_bundle
        bundle = load_bundle(edition.name, sets=edition.set_names)
        names = [c["name"] for c in bundle["cards"]]
        results = scenario_results(sorted(scenario_dir.rglob("*.yaml")), bundle)
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
        "not_implemented": [r["name"] for r in cards if not r["implemented"]],
        "effects": sum(r["effects"] for r in cards),
        "effects_with_scenario": sum(len(r["effects_with_scenario"]) for r in cards),
        "cards_fully_covered": sum(r["every_effect_has_scenario"] for r in cards),
    }


# ---------------------------------------------------------------- the card renderer's catalog

_CARD_CATALOGS: dict[tuple, dict] = {}     # (edition, sets) -> catalog, made once per process


def card_catalog(edition: str, sets=()) -> dict:
    """Every card of an edition with these sets in play as the card renderer (innoscript/web/cards.js) draws
    it, for the protocol's ``cards`` reply, terminal play and the docs' gallery: its face, its set, bonuses and
    echo effect, and every effect's English generated from the script, in the card's effect order (the index a
    decision's ``effect`` names)."""
    from innoscript.editions import normalise_sets
    key = (edition, tuple(normalise_sets(sets)))
    if key not in _CARD_CATALOGS:
        while len(_CARD_CATALOGS) >= 8:
            _CARD_CATALOGS.pop(next(iter(_CARD_CATALOGS)))
        _CARD_CATALOGS[key] = _card_catalog(*key)
    return _CARD_CATALOGS[key]


def _card_catalog(edition: str, sets: tuple) -> dict:
    from innoscript.compiler.bundle import edition_vocabulary, load_bundle, parse_card
    from .sets import report
    from .state import Cards
    from .views import card_face
    bundle = load_bundle(edition, sets=sets)
    ed = load_edition(edition, sets=sets)
    vocab = edition_vocabulary(ed)
    english = {}
    for src in ed.sources:
        ast = parse_card(src.text, src.relpath, vocab)[0]
        english[ast.name] = effect_texts(ast)
    cards = Cards(bundle)
    out = []
    for c in bundle["cards"]:
        face = card_face(cards, c["id"])
        texts = english.get(c["name"], [])
        face["effects"] = [{"kind": e["kind"], "text": t} for e, t in zip(c["effects"], texts)]
        face["set"] = c.get("set", "base")
        if any(b is not None for b in c.get("bonuses") or ()):
            face["bonuses"] = c["bonuses"]
        echo = next((e["text"] for e in face["effects"] if e["kind"] == "echo"), None)
        if echo is not None:
            face["echo"] = echo
        if c.get("no_effect"):
            face["no_effect"] = True      # printed with no dogma effect (not a card still to script)
        out.append(face)
    m = bundle["manifest"]
    manifest = {k: m[k] for k in ("colors", "icons", "hex", "icon_positions", "splays", "ages")}
    # icons the sets add (a music note counts as a hex); bonus and echo cells are not icons to count
    manifest["set_icons"] = {i: dict(v) for n in sorted(bundle.get("sets", {}))
                             for i, v in bundle["sets"][n]["manifest"].get("icons", {}).items()}
    return {"edition": bundle["edition"], "cards": out, "manifest": manifest,
            "special_achievements": [s["name"] for s in bundle["special_achievements"]],
            "sets": report(cards)}


def effect_texts(ast) -> list[str]:
    """Each effect's English, in the card's effect order (an echo effect where the card has it)."""
    from innoscript.compiler.render import Renderer
    r = Renderer()
    r.this = ast.name     # as the renderer names a card's own name
    return [r.effect(e) for e in ast.effects]


def editor_face(data: dict, ast) -> dict:
    """A card being written (compiled data and its AST) in the renderer's terms, like a catalog entry."""
    face = {"name": data["name"], "age": data["age"], "color": data["color"], "icons": data["icons"],
            "dogma": data["dogma"], "demand": any(e["kind"] == "demand" for e in data["effects"]),
            "implemented": bool(data["effects"]),
            "effects": [{"kind": e["kind"], "text": t} for e, t in zip(data["effects"], effect_texts(ast))]}
    if any(b is not None for b in data.get("bonuses") or ()):
        face["bonuses"] = data["bonuses"]
    echo = next((e["text"] for e in face["effects"] if e["kind"] == "echo"), None)
    if echo is not None:
        face["echo"] = echo
    return face
