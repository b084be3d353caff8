"""Sets in play: what each set's manifest adds to a game, read from the bundle.

A game is an edition plus any number of sets (expansions); the bundle holds
each set's compiled manifest under ``sets`` (docs/bundle.md), its cards in
the card table with their ``set``.  This module answers, for the rest of the
runtime, the questions whose answers are a set's data:

- which sets are in play (``names``: in name order, the order draw rules are
  tried in);
- a set's InnoScript expressions, evaluated for a player outside any effect
  (``evaluate``, ``run_chunk``): the ``draw_rule`` (does a plain draw take this
  set's card?), the ``score`` (points the set adds to the score pile's) and a
  zone's ``limit`` (runtime/zones.py);
- the achievements each set adds to the number needed to win
  (``achievements_bonus``);
- when a special achievement is checked (its set's ``special_achievement_check``
  rule, else the edition's).

Nothing here names a set: every set is handled by the same code.
"""
from __future__ import annotations

from . import readsets, vm

# An expression of a manifest is small; this bounds one that loops by mistake.
EXPRESSION_BUDGET = 20_000


def names(cards) -> list[str]:
    return sorted(cards.bundle.get("sets", {}))


def manifest(cards, name: str) -> dict:
    return cards.bundle["sets"][name]["manifest"]


def report(cards) -> list[dict]:
    """Each set in play: its name, label, how many cards it has in the game and how many it should
    have (``cards_expected``); a set with fewer is incomplete, and every frontend says so."""
    out = []
    for n in names(cards):
        m = manifest(cards, n)
        have = sum(1 for s in cards.set if s == n)
        out.append({"set": n, "label": m.get("label", n), "cards": have, "expected": m.get("cards_expected", have),
                    "complete": have >= m.get("cards_expected", have)})
    return out


def warnings(cards) -> list[str]:
    """One line per incomplete set in play."""
    return [f"set {r['set']} is incomplete: {r['cards']} of its {r['expected']} cards are written; the others "
            "are not in the game" for r in report(cards) if not r["complete"]]


def achievements_bonus(cards) -> int:
    """What the sets in play add to the achievements needed to win."""
    return sum(manifest(cards, n).get("achievements_to_win_bonus", 0) for n in names(cards))


def special_check(cards, name: str):
    """When a special achievement is checked ("immediately" or "end_of_action")."""
    own = cards.specials[name].get("set")
    if own and own in cards.bundle.get("sets", {}):
        when = manifest(cards, own).get("rules", {}).get("special_achievement_check")
        if when:
            return when
    return cards.manifest["rules"].get("special_achievement_check")


class _Reader:
    """What the VM needs to read the state, for an expression evaluated outside an action (a score
    read from a view or a bot): no decisions, its own small budget, its own icon cache."""

    trace = None
    tier = "vm"

    def __init__(self, cards, state):
        self.cards, self.state = cards, state
        self.budget = EXPRESSION_BUDGET
        self.icon_cache: dict = {}


def evaluate(cards, state: dict, set_name: str, what: str, p: int):
    """The value of a set's expression ``what`` (``draw_rule``, ``score``) for player p; None when
    the set has none. Run by the same VM as effects, with 'you' = p. Asked at every draw and every
    score read, so a value is kept with the contents of what the expression reads (its read set,
    found as the compiler finds a condition's) and computed again only when they differ."""
    chunk = cards.bundle["sets"][set_name].get(what)
    if chunk is None:
        return None
    return kept_value(cards, state, chunk, f"{set_name}:{what}", p)


def kept_value(cards, state: dict, chunk: dict, label: str, p: int):
    """A manifest expression's value for player p (``label`` names it: 'echoes:score',
    'echoes:zones/forecast/limit'), kept with the contents of its read set and run again only when
    they differ; an expression whose reads cannot be compared runs every time."""
    reads = _read_set(cards, label, chunk)
    if reads is None:
        return run_chunk(cards, state, chunk, label, p)
    key = (label, p, readsets.contents(state, reads, p))
    cache = cards.__dict__.setdefault("expression_values", {})
    if key not in cache:
        if len(cache) > 4096:
            cache.clear()
        cache[key] = run_chunk(cards, state, chunk, label, p)
    return cache[key]


def _read_set(cards, label: str, chunk: dict):
    """The expression's read set when its contents can be compared (runtime/readsets.py), else None."""
    known = cards.__dict__.setdefault("expression_reads", {})
    if label not in known:
        from innoscript.compiler.readsets import read_set
        reads = tuple(read_set(chunk))
        known[label] = reads if readsets.comparable(reads) else None
    return known[label]


def run_chunk(cards, state: dict, chunk: dict, label: str, p: int):
    """Any compiled manifest expression (a zone's limit too) for player p."""
    reader = _Reader(cards, state)
    frame = {"card": -1, "chunk": chunk, "label": label, "kind": "condition", "pc": 0,
             "stack": [], "locals": [None] * len(chunk["locals"]), "you": p, "me": p, "did": False}
    vm.run(reader, frame)
    return frame.get("result")


def extra_points(cards, state: dict, p: int) -> int:
    """The points the sets in play add to p's score pile (bonuses, for instance)."""
    total = 0
    for n in names(cards):
        v = evaluate(cards, state, n, "score", p)
        if v:
            total += int(v)
    return total


def draw_set(cards, state: dict, p: int) -> str:
    """The set a plain draw of p's takes its card from: the first set in play whose draw rule holds
    for p, else the base cards."""
    for n in names(cards):
        if evaluate(cards, state, n, "draw_rule", p):
            return n
    return "base"
