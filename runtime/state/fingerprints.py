"""Fingerprints of what a condition reads, so the engine re-tests it only when that changed.

The compiler records each special achievement's read set (innoscript/core/readsets.py),
e.g. ``["board:you"]``.  Here each read becomes a fingerprint of the state's
current contents for it -- the zone's card ids, the counters, the shared
zones -- and a condition is re-tested for a player only when the tuple of
its reads' fingerprints differs from the one it was last tested with.  A
player's board and set zones, read most and the costliest to look at, are
fingerprinted by the player's revision counter, which every change of them
moves (runtime/state/positions.py's ``bump``); the engine drops what it has seen
whenever its state is replaced (a load, a rollback, an undo), where the
numbers may be reused, so this stays exact.  Everything else is compared by
its contents.
"""
from __future__ import annotations

from typing import Callable

_OWN = {"board:you", "zones:you", "counters:you"}


def _player(state: dict, zone: str, p: int):
    pl = state["players"][p]
    if zone == "board":
        return tuple((tuple(pile["cards"]), pile["splay"]) for pile in pl["board"].values())
    if zone == "zones":   # the sets' per-player zones
        return tuple(tuple(ids) for ids in pl.get("zones", {}).values())
    if zone == "counters":
        turn = state["turn"]
        return turn["scored"][p], turn["tucked"][p]
    if zone == "drawn":      # the cards that left a deck for p this turn: a read of its own (draws are many)
        drawn = state["turn"].get("drawn")
        return drawn[p] if drawn else 0
    return tuple(pl[zone])


def keyer(reads) -> Callable[[dict, int], tuple]:
    """A function (state, p) -> the fingerprints of these reads for candidate p, made once per read
    set so that a check pays one call per read set, not a parse per read."""
    reads = list(dict.fromkeys(reads))
    general = _parts_keyer(reads)
    if not reads or not set(reads) <= _OWN:
        return general
    # the common case (both editions' conditions and Echoes'): the candidate's own board, set zones or
    # counters alone, one flat tuple, p's revision counter standing for the board and the zones
    places = any(r != "counters:you" for r in reads)
    counters = "counters:you" in reads

    def own(state, p):
        revs = state.get("revs")
        if revs is None:
            return general(state, p)
        if not counters:
            return (revs[p],)
        turn = state["turn"]
        return (revs[p] if places else None, turn["scored"][p], turn["tucked"][p])
    return own


def _parts_keyer(reads: list[str]) -> Callable[[dict, int], tuple]:
    parts = [_part(r) for r in reads]
    if len(parts) == 1:
        one = parts[0]
        return lambda state, p: (one(state, p),)
    if len(parts) == 2:
        one, two = parts
        return lambda state, p: (one(state, p), two(state, p))
    return lambda state, p: tuple([f(state, p) for f in parts])


def _part(read: str) -> Callable[[dict, int], object]:
    zone, _, scope = read.partition(":")
    if scope in ("you", "all") and zone in ("board", "zones"):
        # p's revision counter moves with every change of p's board or set zones (runtime/state/positions.py's
        # bump), so it stands for their contents (every player's counters for every player's); the tables
        # keyed on it are dropped whenever the engine's state is replaced (Engine.restore), where the
        # numbers may be reused
        if scope == "you":
            def revision(state, p):
                revs = state.get("revs")
                return (zone, revs[p]) if revs is not None else _player(state, zone, p)
        else:
            def revision(state, p):
                revs = state.get("revs")
                return (zone, tuple(revs)) if revs is not None else _contents(state, read, p)
        return revision
    return lambda state, p: _contents(state, read, p)


def _contents(state: dict, read: str, p: int):
    zone, _, scope = read.partition(":")
    if scope == "you":
        return _player(state, zone, p)
    if scope == "all":
        return tuple(_player(state, zone, q) for q in range(len(state["players"])))
    if read == "junk":
        return tuple(state["junk"])
    if read == "available":
        return tuple(state["available"]["standard"])
    if read == "shared":   # the sets' game-wide zones
        return tuple(tuple(ids) for ids in state.get("zones", {}).values())
    if read == "specials":
        return tuple(state["available"]["special"]), tuple(state["junk_special"])
    if read == "supply":   # every supply pile, the sets' too
        return (tuple(tuple(pile) for pile in state["supply"].values()),
                tuple(tuple(pile) for piles in state.get("set_supply", {}).values() for pile in piles.values()))
    if read == "turn":
        return state["turn"]["number"]
    if read == "players":
        return tuple(bool(pl.get("eliminated")) for pl in state["players"]), repr(state.get("teams"))
    return object()   # the action's variables, or anything at all: never the same


_SHARED = ("junk", "available", "specials", "supply", "players", "turn")


def comparable(reads) -> bool:
    """Whether every read has contents to compare (not the action's variables, nor anything at all)."""
    return all(r in _SHARED or r.partition(":")[2] in ("you", "all") for r in reads)


def contents(state: dict, reads, p: int) -> tuple:
    """The current contents behind comparable reads for p, looked at afresh (no revision counter)."""
    return tuple([_contents(state, r, p) for r in reads])
