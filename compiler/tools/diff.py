"""The edition diff: what a card *does* differently between two editions.

Cards are compared on their ASTs, which ignore source positions, comments
and layout, so only a change of meaning counts: an effect added, removed or
changed, or a change of the printed facts (age, colour, icons).  Each change
comes with both renderings.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .. import ast as A
from .render import Renderer

META = ("age", "color", "icons", "cell_values", "dogma")


def _texts(card: A.Card) -> list[str]:
    """Each effect's English in the card's effect order (a cell's effect included, where the renderer
    prints it apart)."""
    r = Renderer()
    r.this = card.name
    return [r.effect(e) for e in card.effects]


def effect_label(e: dict) -> str:
    """'echo effect' for a cell's effect (its cell's word), else 'effect'."""
    return f"{e['cell']} effect" if e.get("cell") else "effect"


@dataclass
class CardDiff:
    name: str
    status: str                     # same, changed, added, removed, unscripted
    meta: list[str] = field(default_factory=list)
    effects: list[dict] = field(default_factory=list)

    def summary(self) -> str:
        if self.status in ("added", "removed"):
            return f"only in the {'new' if self.status == 'added' else 'old'} edition"
        if self.status == "unscripted":
            return "not scripted yet in the new edition"
        parts = list(self.meta)
        for e in self.effects:
            parts.append(f"{effect_label(e)} {e['index']} {e['change']}")
        return "; ".join(parts) or "no change"

    def to_json(self) -> dict:
        return {"name": self.name, "status": self.status, "summary": self.summary(), "meta": self.meta,
                "effects": self.effects}


def diff_card(old: A.Card | None, new: A.Card | None) -> CardDiff:
    if old is None:
        return CardDiff(new.name, "added")
    if new is None:
        return CardDiff(old.name, "removed")
    if not new.effects and old.effects:
        return CardDiff(new.name, "unscripted")
    d = CardDiff(new.name, "same")
    for key in META:
        a, b = old.get(key), new.get(key)
        if a != b:
            d.meta.append(f"{key}: {a if not isinstance(a, list) else ' '.join(map(str, a))} -> "
                          f"{b if not isinstance(b, list) else ' '.join(map(str, b))}")
    ro, rn = _texts(old), _texts(new)
    for i in range(max(len(old.effects), len(new.effects))):
        eo = old.effects[i] if i < len(old.effects) else None
        en = new.effects[i] if i < len(new.effects) else None
        if eo is not None and en is not None and eo == en:
            continue
        change = "added" if eo is None else "removed" if en is None else (
            "kind changed" if eo.kind != en.kind else "changed")
        d.effects.append({"index": i + 1, "kind": (en or eo).kind, "change": change,
                          "old": ro[i] if eo is not None else None,
                          "new": rn[i] if en is not None else None,
                          **({"cell": (en or eo).cell} if (en or eo).cell else {})})
    if d.meta or d.effects:
        d.status = "changed"
    return d


def diff_editions(old_cards: list[A.Card], new_cards: list[A.Card]) -> list[CardDiff]:
    old = {c.name: c for c in old_cards}
    new = {c.name: c for c in new_cards}
    return [diff_card(old.get(n), new.get(n)) for n in sorted(set(old) | set(new))]
