"""Fingerprints of what a condition reads, so the engine re-tests it only when that changed.

The compiler records each special achievement's read set (compiler/readsets.py),
e.g. ``["board:you"]``.  Here each read becomes a fingerprint of the state's
current contents for it -- a tuple of the piles and splays, the zone's card
ids, the counters -- and a condition is re-tested for a player only when
the tuple of its reads' fingerprints differs from the one it was last tested
with.  Comparing contents rather than counting changes keeps this exact
after loads, rollbacks and undo, and it needs no bookkeeping in the moves.
"""
from __future__ import annotations

_ALWAYS = ("*", "action")


def _player(state: dict, zone: str, p: int):
    pl = state["players"][p]
    if zone == "board":
        return tuple((tuple(pile["cards"]), pile["splay"]) for pile in pl["board"].values())
    if zone == "zones":   # the sets' per-player zones
        return tuple(tuple(ids) for ids in pl.get("zones", {}).values())
    if zone == "counters":
        turn = state["turn"]
        return turn["scored"][p], turn["tucked"][p]
    return tuple(pl[zone])


def fingerprint(state: dict, read: str, p: int, memo: dict, keep: dict):
    """The current contents behind one read, for candidate p (memo: within one check; keep: across
    checks, dropped with the engine's other derived caches)."""
    key = (read, p)
    fp = memo.get(key)
    if fp is not None:
        return fp
    zone, _, scope = read.partition(":")
    if scope == "you":
        revs = state.get("revs")
        if revs is not None and zone not in ("counters", "hand"):
            # p's revision counter moves whenever p's cards change (a plain draw into the hand
            # excepted: it takes the card off a supply pile only): while it stands still the
            # contents do too, and the fingerprint kept with it is reused without looking
            last = keep.get(key)
            if last is not None and last[0] == revs[p]:
                fp = last[1]
            else:
                fp = _player(state, zone, p)
                keep[key] = (revs[p], fp)
        else:
            fp = _player(state, zone, p)
    elif scope == "all":
        fp = tuple(_player(state, zone, q) for q in range(len(state["players"])))
    elif read == "junk":
        fp = tuple(state["junk"])
    elif read == "available":
        fp = tuple(state["available"]["standard"])
    elif read == "specials":
        fp = tuple(state["available"]["special"]), tuple(state["junk_special"])
    elif read == "supply":
        fp = tuple(tuple(pile) for pile in state["supply"].values())
    elif read == "players":
        fp = tuple(bool(pl.get("eliminated")) for pl in state["players"]), repr(state.get("teams"))
    else:   # the action's variables, or anything at all: never the same
        fp = object()
    memo[key] = fp
    return fp


def key(state: dict, reads: list[str], p: int, memo: dict, keep: dict) -> tuple:
    """The fingerprints of all of a condition's reads (conditions with the same reads share it)."""
    return tuple([fingerprint(state, r, p, memo, keep) for r in reads])


_SHARED = ("junk", "available", "specials", "supply", "players")


def comparable(reads) -> bool:
    """Whether every read has contents to compare (not the action's variables, nor anything at all)."""
    return all(r in _SHARED or r.partition(":")[2] in ("you", "all") for r in reads)


def contents(state: dict, reads, p: int) -> tuple:
    """The current contents behind comparable reads for p, looked at afresh (no revision counter)."""
    return tuple([fingerprint(state, r, p, {}, {}) for r in reads])
