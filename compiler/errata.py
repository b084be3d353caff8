"""The errata check: each effect's rendered English against the printed text.

Both texts are normalised the same way before comparison (documented in
docs/errata.md): lower case; "I DEMAND" kept as two words; punctuation
dropped except the brackets of "[N]" and "[icon]"; number words one..twelve
as digits; the articles a/an/the dropped; whitespace collapsed.  The
similarity is difflib's ratio over the word sequences: 1.0 is *exact*,
0.8 or more *close*, below that *different*.  A card the reference does not
have is *no reference*: it has no similarity and is left out of the mean.

The reference is JSON: ``{"editions": {"<edition>": {"cards": [{"name": ...,
"dogma_effects": [{"text": ...}, ...]}, ...]}}}`` (docs/errata.md), so a new
set brings its own printed texts in the same shape.
"""
from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass

from .render import NUMBERS, Renderer

EXACT, CLOSE = 1.0, 0.8
_WORD_NUMBERS = {w: str(i) for i, w in enumerate(NUMBERS)}
_DROP = {"a", "an", "the"}


def normalise(text: str) -> list[str]:
    text = text.lower().replace("’", "'")
    text = re.sub(r"[^a-z0-9\[\]' -]+", " ", text)
    words = []
    for w in text.split():
        w = w.strip("'")
        w = _WORD_NUMBERS.get(w, w)
        if w and w not in _DROP:
            words.append(w)
    return words


def word_diff(a: list[str], b: list[str]) -> str:
    """A compact word diff: [-removed-] {+added+} between the rendering (a) and the print (b)."""
    out = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            out.append(" ".join(a[i1:i2]))
        if op in ("delete", "replace"):
            out.append("[-" + " ".join(a[i1:i2]) + "-]")
        if op in ("insert", "replace"):
            out.append("{+" + " ".join(b[j1:j2]) + "+}")
    return " ".join(out)


@dataclass
class EffectCheck:
    card: str
    effect: int
    rendered: str
    printed: str
    similarity: float | None        # None: the reference has no text for this card
    diff: str

    @property
    def status(self) -> str:
        if self.similarity is None:
            return "no reference"
        if self.similarity >= EXACT:
            return "exact"
        return "close" if self.similarity >= CLOSE else "different"

    def to_json(self) -> dict:
        return {"card": self.card, "effect": self.effect, "status": self.status, "similarity": self.similarity,
                "rendered": self.rendered, "printed": self.printed, "diff": self.diff}


def reference_cards(reference: dict, edition: str) -> dict[str, dict]:
    eds = reference.get("editions", {})
    key = edition if edition in eds else edition.rstrip("e")
    if key not in eds:
        raise KeyError(f"the reference has no edition {edition!r} (it has {', '.join(sorted(eds))})")
    return {c["name"]: c for c in eds[key]["cards"]}


def check(cards_ast: list, reference: dict, edition: str) -> list[EffectCheck]:
    ref = reference_cards(reference, edition)
    out = []
    for card in sorted(cards_ast, key=lambda c: c.name):
        rendered = Renderer().card(card)["effects"]
        if card.name not in ref:
            out += [EffectCheck(card.name, i + 1, r, "", None, "") for i, r in enumerate(rendered)]
            continue
        printed = [e["text"] for e in ref[card.name].get("dogma_effects", [])]
        for i in range(max(len(printed), len(rendered))):
            r = rendered[i] if i < len(rendered) else ""
            p = printed[i] if i < len(printed) else ""
            a, b = normalise(r), normalise(p)
            sim = round(difflib.SequenceMatcher(None, a, b, autojunk=False).ratio(), 3) if (a or b) else 1.0
            out.append(EffectCheck(card.name, i + 1, r, p, sim, word_diff(a, b)))
    return out


def summary(checks: list[EffectCheck]) -> dict:
    n = len(checks)
    by = {s: sum(1 for c in checks if c.status == s) for s in ("exact", "close", "different")}
    compared = [c.similarity for c in checks if c.similarity is not None]
    mean = round(sum(compared) / len(compared), 3) if compared else None
    return {"effects": n, **by, "no_reference": n - len(compared), "mean_similarity": mean}


def summary_line(total: dict) -> str:
    line = f"{total['effects']} effects: {total['exact']} exact, {total['close']} close, {total['different']} different"
    if total["no_reference"]:
        line += f", {total['no_reference']} with no reference text"
    mean = total["mean_similarity"]
    return line + ("; mean similarity " + (f"{mean}" if mean is not None else "- (nothing to compare)"))


def baseline_of(checks: list[EffectCheck]) -> dict:
    return {f"{c.card}#{c.effect}": c.similarity for c in checks if c.similarity is not None}


def drift(checks: list[EffectCheck], baseline: dict, tolerance: float = 0.001) -> list[str]:
    """Effects whose similarity fell below the reviewed baseline (or that the baseline does not know)."""
    out = []
    for c in checks:
        key = f"{c.card}#{c.effect}"
        if c.similarity is None:
            continue
        if key not in baseline:
            out.append(f"{key}: not in the baseline (similarity {c.similarity})")
        elif c.similarity < baseline[key] - tolerance:
            out.append(f"{key}: similarity {c.similarity} fell below the reviewed {baseline[key]}: {c.diff}")
    return out


def load_json(path: str) -> dict:
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def markdown_report(edition: str, checks: list[EffectCheck]) -> str:
    t = summary(checks)
    lines = [f"# Errata report: edition {edition}", "",
             f"Made by `innoscript errata --edition {edition} --reference innovation-base-cards.json --format markdown`.",
             "", "| effects | exact | close | different | mean similarity |", "|---|---|---|---|---|",
             f"| {t['effects']} | {t['exact']} | {t['close']} | {t['different']} | {t['mean_similarity']} |", "",
             "Each row compares the English rendered from the script (removed words `[-...-]`) with the printed",
             "text (added words `{+...+}`), after normalisation. *Close* and *different* rows are reviewed",
             "wording differences; the suite fails if any effect drifts below its reviewed similarity.", "",
             "| card | effect | status | similarity | word diff |", "|---|---|---|---|---|"]
    for c in sorted(checks, key=lambda c: (c.similarity if c.similarity is not None else -1, c.card, c.effect)):
        if c.status == "exact":
            continue
        if c.similarity is None:
            lines.append(f"| {c.card} | {c.effect} | no reference text | - | - |")
            continue
        diff = c.diff.replace("|", "\\|")
        lines.append(f"| {c.card} | {c.effect} | {c.status} | {c.similarity:.3f} | {diff} |")
    exact = sorted({c.card for c in checks if c.status == "exact"})
    lines += ["", f"Exact matches: {t['exact']} effects.", ""]
    return "\n".join(lines) + "\n"
