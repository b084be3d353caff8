"""How the tools name a card's effects to people, the same everywhere: a cell's effect by its cell's word
('echo'), printed in its own box; the dogma effects numbered 1, 2, ... in printed order, as the card and the
renderer number them (an echo effect does not shift the numbers)."""
from __future__ import annotations


def effect_labels(effects: list[dict]) -> list[str]:
    """One label per compiled effect, in the card's effect order: 'echo' for a cell's effect, else '1', '2'..."""
    out, n = [], 0
    for eff in effects:
        if eff.get("kind") == "cell":
            out.append(str(eff.get("cell") or "cell"))
        else:
            n += 1
            out.append(str(n))
    return out
