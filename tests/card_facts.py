"""Card facts kept in the project, so a checkout without the printed reference tests itself.

The printed reference (README: "The printed reference") holds every card's facts and its printed
text.  The project keeps the facts alone in tests/data/card-facts.json: each card's name, age,
colour, icon cells, dogma icon and the kinds of its effects in printed order (no printed sentence),
and each set's special achievements by name.  The metadata tests read these; a test checks that
they are exactly the reference's whenever the reference is at hand, and ``INNOSCRIPT_REGEN=1``
writes them anew from it.
"""
from __future__ import annotations

import json
from pathlib import Path

FACTS = Path(__file__).resolve().parent / "data" / "card-facts.json"


def _kinds(card: dict, with_echo: bool) -> list[str]:
    out = ["echo"] if with_echo and card.get("echo_effect") else []
    for e in card["dogma_effects"]:
        if e["text"].strip() == "No effect.":
            continue
        out.append("compel" if e.get("is_compel") else "demand" if e["is_demand"] else "non_demand")
    return out


def _card(card: dict, with_echo: bool) -> dict:
    return {"name": card["name"], "age": card["age"], "color": card["color"], "icon_list": card["icon_list"],
            "dogma_icon": card["dogma_icon"], "effects": _kinds(card, with_echo)}


def extract(base: dict, expansions: dict) -> dict:
    """The facts of the two reference files (innovation-base-cards.json, innovation-expansion-cards.json)."""
    out: dict = {"about": "Card facts extracted from the printed reference by tests/card_facts.py: no printed "
                          "text. Regenerate with INNOSCRIPT_REGEN=1 python -m pytest tests/test_card_facts.py.",
                 "editions": {}}
    for ed, data in sorted(base["editions"].items()):
        entry = out["editions"].setdefault(ed, {})
        entry["cards"] = [_card(c, False) for c in data["cards"]]
        entry["special_achievements"] = [s["name"] for s in data.get("special_achievements", [])]
    for ed, data in sorted(expansions["editions"].items()):
        sets = out["editions"].setdefault(ed, {}).setdefault("sets", {})
        for name, s in sorted(data.get("sets", {}).items()):
            sets[name] = {"cards": [_card(c, True) for c in s.get("cards", [])],
                          "special_achievements": [a["name"] for a in s.get("special_achievements", [])]}
            # cards of other types the set's option brings (the 3rd edition's relics): any other list of cards
            carried = [_card(c, True) for k, v in sorted(s.items()) if k != "cards" and isinstance(v, list)
                       for c in v if isinstance(c, dict) and "icon_list" in c]
            if carried:
                sets[name]["carried"] = carried
    markup = expansions.get("conventions", {}).get("text_markup", "")
    import re
    m = re.search(r"music-note hex on ([^)]+)\)", markup)
    out["music_notes"] = sorted(n.strip() for n in m.group(1).split(",")) if m else []
    return out


def load() -> dict:
    return json.loads(FACTS.read_text(encoding="utf-8"))


def dumps(facts: dict) -> str:
    """One card per line, so a change in the reference shows as a change of its cards' lines."""
    marked = json.loads(json.dumps(facts))
    cards = {}
    for e in marked["editions"].values():
        for holder in [e, *e.get("sets", {}).values()]:
            for i, c in enumerate(holder.get("cards", [])):
                key = f"@@{len(cards)}@@"
                cards[key] = json.dumps(c, sort_keys=True, ensure_ascii=False)
                holder["cards"][i] = key
    text = json.dumps(marked, indent=1, sort_keys=True, ensure_ascii=False)
    for key, line in cards.items():
        text = text.replace(f'"{key}"', line, 1)
    return text + "\n"
