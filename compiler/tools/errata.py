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
set brings its own printed texts in the same shape.  A set's cards are under
``editions.<edition>.sets.<set>.cards``, each with its cells' effects as
``<cell>_effect`` (``{"text": ...}`` or null; Echoes' ``echo_effect``): a card's
cell effect is compared with it as the effect named by the cell's word
(``echo``), its dogma effects as numbered.  Each check names its set, so
the report is also given per set.
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
    effect: int | str               # the dogma effect's number, or "echo"
    rendered: str
    printed: str
    similarity: float | None        # None: the reference has no text for this card
    diff: str
    set: str = "base"

    @property
    def status(self) -> str:
        if self.similarity is None:
            return "no reference"
        if self.similarity >= EXACT:
            return "exact"
        return "close" if self.similarity >= CLOSE else "different"

    def to_json(self) -> dict:
        return {"card": self.card, "effect": self.effect, "set": self.set, "status": self.status,
                "similarity": self.similarity, "rendered": self.rendered, "printed": self.printed, "diff": self.diff}


def _edition_entry(reference: dict, edition: str) -> dict:
    eds = reference.get("editions", {})
    key = edition if edition in eds else edition.rstrip("e")
    if key not in eds:
        raise KeyError(f"the reference has no edition {edition!r} (it has {', '.join(sorted(eds))})")
    return eds[key]


def reference_cards(reference: dict, edition: str, set_name: str | None = None) -> dict[str, dict]:
    """The printed cards of an edition (set_name None: its own cards), or of one of its sets (none: {})."""
    entry = _edition_entry(reference, edition)
    if set_name is not None:
        entry = entry.get("sets", {}).get(set_name, {})
    return {c["name"]: c for c in entry.get("cards", [])}


def _compare(card: str, effect, rendered: str, printed: str, set_name: str) -> EffectCheck:
    a, b = normalise(rendered), normalise(printed)
    sim = round(difflib.SequenceMatcher(None, a, b, autojunk=False).ratio(), 3) if (a or b) else 1.0
    return EffectCheck(card, effect, rendered, printed, sim, word_diff(a, b), set_name)


def carrier(card) -> str:
    """The set whose folder holds a card (cards/sets/<set>/...), else its header's set: a set's card of
    another type (a relic) is reported with the set that carries it."""
    m = re.search(r"(?:^|/)sets/([a-z][a-z0-9_]*)/", (getattr(card, "path", "") or "").replace("\\", "/"))
    return m.group(1) if m else (card.get("set") or "base")


def _carried_cards(reference: dict, edition: str) -> dict[str, dict]:
    """The printed cards each set of the edition lists besides its own ``cards`` (any other list of cards with
    effects in the reference's set entry): the cards a set carries of other types."""
    entry = _edition_entry(reference, edition)
    return {c["name"]: c for s in entry.get("sets", {}).values() for k, v in s.items() if k != "cards"
            and isinstance(v, list) for c in v if isinstance(c, dict) and "name" in c and "dogma_effects" in c}


def check(cards_ast: list, reference: dict, edition: str) -> list[EffectCheck]:
    _edition_entry(reference, edition)      # an edition the reference lacks is an error, not "no reference"
    refs: dict[str | None, dict] = {}
    carried = _carried_cards(reference, edition)
    out = []
    for card in sorted(cards_ast, key=lambda c: c.name):
        own = card.get("set")
        set_name = carrier(card)
        for key in {own, None}:
            if key not in refs:
                refs[key] = reference_cards(reference, edition, key)
        r = Renderer().card(card)
        rendered = r["effects"]
        # a set's card under its set; a card whose header names a set of the edition's own, among its cards
        ref = refs[own].get(card.name) or refs[None].get(card.name) or carried.get(card.name)
        if ref is None:
            out += [EffectCheck(card.name, ce["cell"], ce["text"], "", None, "", set_name)
                    for ce in r.get("cell_effects", [])]
            out += [EffectCheck(card.name, i + 1, t, "", None, "", set_name) for i, t in enumerate(rendered)]
            continue
        # a cell's effect ('echo') against the reference's '<cell>_effect' of the card
        mine = {ce["cell"]: ce["text"] for ce in r.get("cell_effects", [])}
        printed_cells = {k[:-len("_effect")]: (v or {}).get("text", "") for k, v in ref.items()
                         if k.endswith("_effect") and k != "dogma_effect" and isinstance(v, (dict, type(None)))}
        for cell in sorted(set(mine) | {c for c, t in printed_cells.items() if t}):
            out.append(_compare(card.name, cell, mine.get(cell, ""), printed_cells.get(cell, ""), set_name))
        printed = [e["text"] for e in ref.get("dogma_effects", [])]
        if card.no_effect and not printed:      # printed with no text at all (a city): nothing to compare
            continue
        for i in range(max(len(printed), len(rendered))):
            out.append(_compare(card.name, i + 1, rendered[i] if i < len(rendered) else "",
                                printed[i] if i < len(printed) else "", set_name))
    return out


def _order(c: EffectCheck) -> int:
    return 0 if isinstance(c.effect, str) else c.effect   # a cell's effect (echo) first, as printed on top


def by_set(checks: list[EffectCheck]) -> dict[str, dict]:
    """The summary of each set's effects (the edition's own cards are 'base')."""
    names = sorted({c.set for c in checks}, key=lambda n: (n != "base", n))
    return {n: summary([c for c in checks if c.set == n]) for n in names}


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


def merge(references: list[dict]) -> dict:
    """Several reference files as one (the base cards' file and a set's, say): per edition, the cards of
    each and the sets of each."""
    eds: dict[str, dict] = {}
    for ref in references:
        for key, entry in ref.get("editions", {}).items():
            into = eds.setdefault(key, {"cards": [], "sets": {}})
            into["cards"] += entry.get("cards", [])
            into["sets"].update(entry.get("sets", {}))
    return {"editions": eds}


def markdown_report(edition: str, checks: list[EffectCheck], set_name: str | None = None) -> str:
    t = summary(checks)
    if set_name is None:
        title, command = f"edition {edition}", f"--edition {edition} --reference innovation-base-cards.json"
    else:
        title = f"set {set_name}, edition {edition}"
        command = f"--edition {edition} --set {set_name} --reference innovation-expansion-cards.json"
    lines = [f"# Errata report: {title}", "",
             f"Made by `innoscript errata {command} --format markdown`.",
             "", "| effects | exact | close | different | mean similarity |", "|---|---|---|---|---|",
             f"| {t['effects']} | {t['exact']} | {t['close']} | {t['different']} | {t['mean_similarity']} |", "",
             "Each row compares the English rendered from the script (removed words `[-...-]`) with the printed",
             "text (added words `{+...+}`), after normalisation. *Close* and *different* rows are reviewed",
             "wording differences; the suite fails if any effect drifts below its reviewed similarity.", ""]
    if set_name is not None:
        lines += ["An effect named by a word is the card's effect of the cell of that word, compared with its printed text.",
                  ""]
    lines += ["| card | effect | status | similarity | word diff |", "|---|---|---|---|---|"]
    for c in sorted(checks, key=lambda c: (c.similarity if c.similarity is not None else -1, c.card, _order(c))):
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
