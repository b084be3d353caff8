"""Read sets: what a condition chunk can read, computed from its verified bytecode.

The engine re-tests a special achievement's condition only when something
in its read set changed, so the read set must be complete.  It is found by
an abstract interpretation of the operand stack over every path, like the
verifier's, where each value is one of

* ``("player", "you")`` -- exactly the candidate player (``PLAYER``);
* ``("player", "any")`` -- some other player or players;
* ``("cards", sources)`` -- cards taken from these sources, each a read
  such as ``"board:you"`` or ``"junk"`` (``None`` in sources: unknown);
* ``OTHER`` -- a number, colour, flag, ...

A read is ``"<zone>:you"`` (the candidate's own hand, score, board,
achievements, revealed cards or ``counters``: scored/tucked this turn),
``"<zone>:all"`` (every player's; ``zones`` is a player's set zones, the forecast), a shared zone (``junk``, ``available``,
``specials``, ``supply``, ``shared``: the sets' game-wide zones), ``players`` (who is still in the game, teams,
turn order), ``turn`` (the turn's number), ``action`` (the dogma action's variables) or ``*`` (anything:
always re-test).  Board reads include splays, so icon counts are covered.

Builtins are classified below by what they read besides their arguments;
one the table does not know reads ``*``, so a new builtin is never skipped
wrongly.
"""
from __future__ import annotations

from innoscript.core import opcodes as O

OTHER = ("other",)
UNKNOWN = ("unknown",)
EVERYTHING = "*"
PLAYER_ZONES = ("hand", "score", "board", "achievements", "revealed", "counters", "drawn", "zones")

# builtin -> what it reads: ("player", zone) reads that zone of its first argument's player;
# ("you", zone) of the candidate; "pure" nothing but its arguments; "position" the board
# positions of its card argument (which pile, top or not, splay); "owner" where its cards are.
_BUILTIN_READS = {
    "count": "pure", "count_player": "pure", "value": "pure", "highest": "pure", "lowest": "pure", "color": "pure", "colors": "pure",
    "values_of": "pure", "values": "pure", "first": "keep", "below": "keep", "last": "keep",
    "demand_effects": "pure", "has": "pure", "all_colors": "pure", "all_icons": "pure", "ages": "pure",
    "icons": "position", "top": "position", "owner": "position",
    "pile": ("player", "board"), "splay_of": ("player", "board"), "points": ("player", "score"),
    "scored_this_turn": ("player", "counters"), "tucked_this_turn": ("player", "counters"),
    "drawn_this_turn": ("player", "drawn"),     # left_of, right_of: not here, they read "*"
    # achievements are pooled in some games (teams): every player's may count
    "achievements": ("all", "achievements"),
    "splayed": ("you", "board"),
    "set": "pure", "cell_value": "pure", "splay_rank": "pure", "was_marked": "pure", "max": "pure", "min": "pure",
    "alphabetically_before": "pure", "sets": "pure", "home": "pure", "in_play": "pure", "same_icons": "pure",
    "cell_at": "pure", "icon_at": "pure", "cell_count": "position", "cell_printed": "pure",
    "visible_cards": ("player", "board"),
    "cell_values": "position", "cell_effects": "position", "highest_splay": ("player", "board"),
    "hex_position": "pure", "highest_value": "pure", "lowest_value": "pure", "featured_icon": "pure",
    "turn_number": "game:turn",      # the turn's number: a read of the game's own
    # cell_score runs a set's expression, which may read anything: it is not here, so it reads "*"
}
_ZONE_READ = {"hand": "hand", "score": "score", "board": "board", "top": "board", "achievements": "achievements",
              "revealed": "revealed"}
_GLOBAL_READ = {"junk": "junk", "available": "available", "available_special": "specials",
                "junk_special": "specials", "revealed_all": "revealed:all"}
_PURE_OPS = {"BINARY", "COMPARE", "NOT", "NEG", "IN", "HAS_ICON", "IS_COLOR", "DID", "SET_DID"}
_KEEP_OPS = {"FILTER_COLOR", "FILTER_VALUE", "FILTER_VALUES", "FILTER_NAME"}   # cards in -> fewer cards out


def _join(a, b):
    if a == b:
        return a
    if a[0] == b[0] == "player":
        return ("player", "any")
    if a[0] == b[0] == "cards":
        return ("cards", a[1] | b[1])
    return UNKNOWN


def _player_scope(v) -> str:
    return "you" if v == ("player", "you") else "all"


def _positions(v, reads: set) -> None:
    """A read of where these cards lie: their sources say which piles (anything, if unknown)."""
    if v[0] != "cards" or None in v[1]:
        reads.add(EVERYTHING)
    else:
        reads.update(v[1])


def read_set(chunk: dict) -> list[str]:
    """The sorted reads of a verified chunk (see the module docstring)."""
    code, consts = chunk["code"], chunk["consts"]
    reads: set[str] = set()
    slots = [None] * len(chunk["locals"])   # None: never stored yet
    changed = True
    while changed:                          # locals are joined flow-insensitively until nothing changes
        changed = False
        at: dict[int, list] = {0: []}
        work = [0]
        while work:
            pc = work.pop()
            stack = list(at[pc])
            ins = code[pc]
            info = O.OPCODES[ins[0]]
            name = info.name
            pops, pushes = O.stack_effect(info, ins[1:])
            args = stack[len(stack) - pops:] if pops else []
            del stack[len(stack) - pops:]
            out = [OTHER] * pushes
            if name == "CONST" or name == "LIST_NEW":
                out = [("cards", frozenset())] if name == "LIST_NEW" else [OTHER]
            elif name == "DUP":
                out = [args[0], args[0]]
            elif name == "LOAD":
                out = [slots[ins[1]] or UNKNOWN]
            elif name in ("STORE", "APPEND"):
                new = args[0] if slots[ins[1]] is None else _join(slots[ins[1]], args[0])
                if name == "APPEND" and slots[ins[1]] is None:
                    new = _join(("cards", frozenset()), args[0]) if args[0][0] == "cards" else args[0]
                if new != slots[ins[1]]:
                    slots[ins[1]], changed = new, True
            elif name == "PLAYER":
                out = [("player", "you")]
            elif name in ("PLAYERS", "PICK_SINGLE"):
                reads.add("players")
                out = [("player", "any")]
            elif name == "ZONE":
                read = f"{_ZONE_READ[O.ENUMS['zone'][ins[1]]]}:{_player_scope(args[0])}"
                reads.add(read)
                out = [("cards", frozenset([read]))]
            elif name == "ZONE_SET":              # a set's per-player zones (the forecast)
                read = f"zones:{_player_scope(args[0])}"
                reads.add(read)
                out = [("cards", frozenset([read]))]
            elif name == "ZONE_SHARED":           # a set's game-wide zones
                reads.add("shared")
                out = [("cards", frozenset(["shared"]))]
            elif name == "ZONE_GLOBAL":
                read = _GLOBAL_READ[O.ENUMS["global_zone"][ins[1]]]
                reads.add(read)
                out = [("cards", frozenset([read]))]
            elif name in ("DECK", "DECK_SET"):
                reads.add("supply")
                out = [("cards", frozenset(["supply"]))]
            elif name == "LOAD_ACTION":
                reads.add("action")
            elif name == "FILTER_POS":
                _positions(args[0], reads)
                out = [args[0]]
            elif name == "FILTER_ICON":
                reads.add("board:you")          # a list of colours: the candidate's piles showing the icon
                out = [args[0]]
            elif name in _KEEP_OPS:
                out = [args[0]]
            elif name == "FOR_NEXT":
                lst = slots[ins[1]] or UNKNOWN
                new = lst if slots[ins[3]] is None else _join(slots[ins[3]], lst)
                if new != slots[ins[3]]:
                    slots[ins[3]], changed = new, True
            elif name == "CALL":
                kind = _BUILTIN_READS.get(consts[ins[1]], EVERYTHING)
                if kind == EVERYTHING:
                    reads.add(EVERYTHING)
                    out = [UNKNOWN]
                elif isinstance(kind, str) and kind.startswith("game:"):
                    reads.add(kind[5:])
                elif kind == "keep":
                    out = [args[0] if args else UNKNOWN]
                elif kind == "position":
                    for a in args:
                        if a[0] == "cards" or a == UNKNOWN:
                            _positions(a, reads)
                    out = [("player", "any")] if consts[ins[1]] == "owner" else \
                        [args[0]] if consts[ins[1]] == "top" else [OTHER]
                elif isinstance(kind, tuple):
                    who, zone = kind
                    scope = "you" if who == "you" else "all" if who == "all" else _player_scope(args[0] if args else UNKNOWN)
                    reads.add(f"{zone}:{scope}")
            elif name in _PURE_OPS or name in ("POP", "JUMP", "JUMP_IF_FALSE", "JUMP_IF_TRUE", "RESULT", "RETURN"):
                if name == "BINARY" and all(a[0] == "cards" for a in args):
                    out = [_join(args[0], args[1])]
            else:                                # anything that acts or asks: no skipping
                reads.add(EVERYTHING)
            stack += out
            for nxt in O.successors(info, ins, pc):
                if nxt not in at:
                    at[nxt] = stack
                    work.append(nxt)
                else:
                    merged = [_join(a, b) for a, b in zip(at[nxt], stack)]
                    if merged != at[nxt]:
                        at[nxt] = merged
                        work.append(nxt)
    if EVERYTHING in reads:
        return [EVERYTHING]
    return sorted(reads)


def scope(reads: list[str]) -> str:
    """'you' when the condition reads only the candidate player's own things."""
    return "you" if all(r.endswith(":you") for r in reads) else "game"
