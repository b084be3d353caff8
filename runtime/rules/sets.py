"""Sets in play: what each set's manifest adds to a game, read from the bundle.

A game is an edition plus any number of sets (expansions); the bundle holds
each set's compiled manifest under ``sets`` (docs/bundle.md), its cards in
the card table with their ``set``.  This module answers, for the rest of the
runtime, the questions whose answers are a set's data:

- which sets are in play (``names``: in name order, the order draw rules are
  tried in), and whether each is complete (``report``, ``warnings``);
- the achievements each set adds to the number needed to win
  (``extra_achievements``);
- when a special achievement is checked (its set's ``special_achievement_check``
  rule, else the edition's).

A set's InnoScript expressions (its ``draw_rule``, its cells' scores and zone limits)
are evaluated by runtime/machine/expressions.py.

Nothing here names a set: every set is handled by the same code.
"""
from __future__ import annotations


def names(cards) -> list[str]:
    return sorted(cards.bundle.get("sets", {}))


def manifest(cards, name: str) -> dict:
    return cards.bundle["sets"][name]["manifest"]


def report(cards) -> list[dict]:
    """Each set in play: its name, label, how many cards it has in the game and how many it should
    have (``cards_expected``); a set with fewer is incomplete, and every frontend says so. A card the set
    removes at set-up (``removed_at_setup``) is never in a game: not written, it is still accounted for. A
    card it carries of a set not in this game may be written as its face only (``face_only``: their names)."""
    out = []
    for n in names(cards):
        m = manifest(cards, n)
        face_only = sorted(c["name"] for c in cards.cards if c.get("face_only") and cards.carrier[c["id"]] == n)
        have = sum(1 for c in cards.cards if cards.carrier[c["id"]] == n and not c.get("token"))   # tokens are no cards
        out.append({"set": n, "label": m.get("label", n), "cards": have, "expected": m.get("cards_expected", have),
                    "complete": complete(have, m, cards.by_name)})
        if face_only:    # cards of a set not in this game, written as their face only: the tools say so
            out[-1]["face_only"] = face_only
        if m.get("removed_at_setup"):   # printed cards its games are played without: the tools say so
            out[-1]["removed"] = list(m["removed_at_setup"])
    return out


def complete(have: int, m: dict, written) -> bool:
    """Whether a set's written cards are all the game can meet: the printed count, less the cards it
    removes at set-up that have no file (``written``: the names that have one)."""
    absent = sum(1 for name in m.get("removed_at_setup", ()) if name not in written)
    return have + absent >= m.get("cards_expected", have)


def warnings(cards) -> list[str]:
    """One line per incomplete set in play."""
    return [f"set {r['set']} is incomplete: {r['cards']} of its {r['expected']} cards are written; the others "
            "are not in the game" for r in report(cards) if not r["complete"]]


def extra_achievements(cards) -> int:
    """What the sets in play add to the achievements needed to win (manifest ``extra_achievements_to_win``)."""
    return sum(manifest(cards, n).get("extra_achievements_to_win", 0) for n in names(cards))


def special_check(cards, name: str):
    """When a special achievement is checked ("immediately" or "end_of_action")."""
    own = cards.specials[name].get("set")
    if own and own in cards.bundle.get("sets", {}):
        when = manifest(cards, own).get("rules", {}).get("special_achievement_check")
        if when:
            return when
    return cards.manifest["rules"].get("special_achievement_check")
