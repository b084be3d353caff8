"""The opcode table: the single definition of every InnoScript instruction.

The code generator, the verifier, the VM, the disassembler and the docs all
read this table; nothing else lists opcodes.  Each entry gives

* ``operands`` -- the kinds of the inline operands, in order.  Kinds:
  ``const`` (index into the chunk's constants), ``slot`` (local variable),
  ``target`` (absolute pc), ``int`` (small literal), ``enum:<name>``
  (index into one of the ``ENUMS`` below);
* ``pops`` / ``pushes`` -- the stack effect; ``pops`` may name an operand
  (``"argc"``) whose value is the number of values popped;
* ``doc`` -- one line for the disassembler and the reference.

An instruction is encoded as a list ``[opcode_number, operand, ...]``; a
chunk's code is a list of instructions and a pc indexes that list.
"""
from __future__ import annotations

from dataclasses import dataclass

#: Bumped whenever an opcode, operand or enum changes meaning; bundles record it.
OPCODE_TABLE_VERSION = 12

ENUMS: dict[str, tuple[str, ...]] = {
    "binop": ("+", "-", "*", "//", "union", "difference"),
    "cmp": ("==", "!=", "<", "<=", ">", ">="),
    "who": ("you", "me"),
    "players": ("all", "opponents", "others"),
    "zone": ("hand", "score", "board", "top", "achievements", "revealed"),
    "global_zone": ("junk", "available", "available_special", "junk_special", "revealed_all"),
    "position": ("top", "bottom"),
    "verb": ("meld", "score", "tuck", "return", "junk", "reveal", "keep", "achieve", "remove", "take",
             "make_available", "place"),
    "draw": ("draw", "meld", "score", "tuck", "reveal", "junk", "achieve"),
    "select": ("count", "all", "all_but", "half_down", "half_up", "each_color", "all_or_none"),
    "order": ("any", "highest", "lowest"),
    "direction": ("left", "right", "up", "aslant"),
    "choice": ("color", "value", "player", "icon", "two_colors", "set"),
    "chooser": ("you", "me", "owner"),
    "extreme": ("most", "least"),
    "execute": ("execute", "self-execute", "super-execute", "fully-execute", "as-if"),
}

@dataclass(frozen=True)
class OpInfo:
    code: int
    name: str
    operands: tuple[str, ...]
    pops: int | str
    pushes: int
    doc: str
    jumps: bool = False       # has a target operand
    terminal: bool = False    # control never falls through


_TABLE: list[tuple] = [
    # name, operands, pops, pushes, doc, flags
    ("CONST", ("const",), 0, 1, "push a constant", ""),
    ("POP", (), 1, 0, "discard the top of the stack", ""),
    ("DUP", (), 1, 2, "duplicate the top of the stack", ""),
    ("LOAD", ("slot",), 0, 1, "push a local (a binding made with 'as', 'let' or a loop)", ""),
    ("STORE", ("slot",), 1, 0, "pop into a local", ""),
    ("LOAD_ACTION", ("const",), 0, 1, "push a variable kept for the whole dogma action (0 if unset)", ""),
    ("STORE_ACTION", ("const",), 1, 0, "pop into a dogma-action variable ('record')", ""),
    ("JUMP", ("target",), 0, 0, "continue at target", "jump terminal"),
    ("JUMP_IF_FALSE", ("target",), 1, 0, "pop; continue at target if false", "jump"),
    ("JUMP_IF_TRUE", ("target",), 1, 0, "pop; continue at target if true", "jump"),
    ("BINARY", ("enum:binop",), 2, 1, "arithmetic or set operation on the two top values", ""),
    ("COMPARE", ("enum:cmp",), 2, 1, "compare two numbers", ""),
    ("NOT", (), 1, 1, "boolean negation", ""),
    ("NEG", (), 1, 1, "arithmetic negation", ""),
    ("IN", (), 2, 1, "pop collection, value: is the value (or the card so named) in the collection", ""),
    ("HAS_ICON", ("const",), 1, 1, "pop cards: does any of them show the icon", ""),
    ("IS_COLOR", (), 2, 1, "pop colours, cards: is every card (at least one) of one of those colours", ""),
    ("CALL", ("const", "int"), "argc", 1, "call a builtin function (name, argument count)", ""),
    ("PLAYER", ("enum:who",), 0, 1, "push the performing player (you) or the dogma's owner (me)", ""),
    ("PLAYERS", ("enum:players",), 0, 1, "push a list of players, seen from 'you', in turn order", ""),
    ("ZONE", ("enum:zone",), 1, 1, "pop a player or players; push the cards of that zone", ""),
    ("ZONE_GLOBAL", ("enum:global_zone",), 0, 1, "push the cards of a shared zone", ""),
    ("DECK", (), 1, 1, "pop an age; push the cards of that supply pile", ""),
    ("FILTER_POS", ("enum:position",), 1, 1, "keep the top (or bottom) cards of their piles", ""),
    ("FILTER_ICON", ("const", "int"), 1, 1, "keep cards that show (int=0) or lack (int=1) the icon", ""),
    ("FILTER_COLOR", ("int",), 2, 1, "pop colours, cards; keep cards of (int=0) or not of (int=1) those colours", ""),
    ("FILTER_VALUE", ("enum:cmp",), 2, 1, "pop a value, cards; keep cards whose value compares true", ""),
    ("FILTER_VALUES", (), 2, 1, "pop a list of values, cards; keep cards with one of those values", ""),
    ("FILTER_NAME", ("const",), 1, 1, "keep cards other than the named card", ""),
    ("SELECT", ("enum:select", "enum:order", "enum:chooser", "int"), 3, 1,
     "pop max, min, cards; push the chosen cards (asks the chooser if there is a choice; int: 1 may decline, 2 unrevealed)", ""),
    ("MOVE", ("enum:verb",), 1, 1, "pop cards; meld/score/tuck/... them for 'you' (asks the order of several cards onto one pile); push the cards moved; set 'did'", ""),
    ("TRANSFER", ("enum:zone",), 2, 1, "pop player, cards; move the cards to that player's zone; push the cards moved", ""),
    ("DRAW", ("enum:draw",), 2, 1, "pop age, count; draw (and meld/score/...) that many; push the cards drawn", ""),
    ("EXCHANGE", ("enum:zone", "enum:zone", "int"), 4, 0,
     "pop player B, cards B, player A, cards A; swap them between the two zones (int=1: 'you may', asked only if any card would move)", ""),
    ("SPLAY", ("enum:direction", "int"), 1, 0,
     "pop a colour or colours; 'you' splay that pile (a choice when several; int=1: may decline); set 'did'", ""),
    ("UNSPLAY", (), 1, 0, "pop a colour or colours; unsplay that pile", ""),
    ("REARRANGE", (), 1, 0, "pop a colour; the player reorders that pile", ""),
    ("ASK", (), 0, 1, "ask 'you' a yes/no question ('you may'); push the answer and set 'did' to it", ""),
    ("CHOOSE", ("enum:choice", "enum:chooser"), 1, 1, "pop the options; the chooser picks one; push it", ""),
    ("CHOOSE_OPTION", ("int",), 0, 1, "'you' picks one of int options ('either ... or'); push its index", ""),
    ("DID", (), 0, 1, "push whether the last action was done ('if you do')", ""),
    ("SET_DID", ("int",), 0, 0, "set the 'did' flag", ""),
    ("LIST_NEW", (), 0, 1, "push an empty list", ""),
    ("APPEND", ("slot",), 1, 0, "pop a value and add it to the list in a local (a card set is added card by card)", ""),
    ("FOR_NEXT", ("slot", "slot", "slot", "int", "target"), 0, 0,
     "next item of the list in slot 1 (index in slot 2) into slot 3 (int=1: as a one-card set), or continue at target", "jump"),
    ("PICK_SINGLE", ("enum:extreme",), 2, 1, "pop scores, players; push the single player with the most/least (or none on a tie)", ""),
    ("WIN", (), 1, 0, "pop a player (or none); that player wins the game", ""),
    ("LOSE", (), 1, 0, "pop a player; that player loses", ""),
    ("CLAIM", ("const",), 0, 0, "'you' claim the named special achievement if it is available; 'did' tells whether it was (or, claims at the end of the action, will be)", ""),
    ("EXECUTE", ("enum:execute",), 1, 0, "pop cards; 'you' execute the first one's effects (not shared)", ""),
    ("REPEAT", ("target",), 0, 0, "start this effect again at target (after its parameters are set)", "jump terminal"),
    ("END_DOGMA", (), 0, 0, "the dogma action is complete", "terminal"),
    ("RETURN", (), 0, 0, "end of the effect", "terminal"),
    ("RESULT", (), 1, 0, "pop the value of a condition chunk (special achievements) and end", "terminal"),
    ("ACT", ("slot", "target"), 1, 0,
     "pop a player; they are 'you' until ACT_END (the performer kept in the slot); none or out of the game: continue at target", "jump"),
    ("ACT_END", ("slot",), 0, 0, "the performer kept in the slot is 'you' again", ""),
    # sets (numbers after the base table's, so older bundles' numbers keep their meaning)
    ("DRAW_SET", ("enum:draw", "const"), 2, 1,
     "pop age, count; draw that many from the named set's supply piles (and meld/score/...); push the cards drawn", ""),
    ("ZONE_SET", ("const",), 1, 1, "pop a player or players; push the cards of the zone a set manifest names", ""),
    ("TRANSFER_SET", ("const",), 2, 1,
     "pop player, cards; move the cards to that player's zone named by a set manifest (not past its limit); push the cards moved", ""),
    ("DOGMA", ("const",), 1, 0,
     "pop cards; 'you' take a free Dogma of the first one (sharing, demands); const: its mark or null", ""),
    ("SPLAY_ON", ("enum:direction", "int"), 2, 0,
     "pop a player, a colour or colours; 'you' splay that pile of the player's board (int=1: may decline); set 'did'", ""),
    ("STORE_OWN", ("const",), 1, 0,
     "pop into the performer's own record of this card's execution ('record your NAME')", ""),
    ("LOAD_OWN", ("const", "enum:who", "int"), 0, 1,
     "push what 'you' or 'me' recorded ('your.NAME'); if nothing: 0 (int=0), no cards (int=1)", ""),
    ("LOOK", (), 0, 0,
     "'you' choose a supply pile with cards (any age, base or a set in play); only 'you' see its top card, which stays", ""),
    ("DECK_SET", ("const",), 1, 1, "pop an age; push that age's supply pile of the named set ('base': the base cards)", ""),
    ("MOVE_NAMED", ("const",), 1, 1,
     "like MOVE, by a verb a set declares (const): into the zone it fills, or as the verb it moves like", ""),
    ("DRAW_NAMED", ("const", "const"), 2, 1,
     "pop age, count; draw that many (from the second const's set; null: by the draw rules), do a set's verb to each", ""),
    ("ZONE_SHARED", ("const",), 0, 1, "push the cards of the game-wide zone a set manifest names (scope game)", ""),
    ("TRANSFER_SHARED", ("const",), 1, 1,
     "pop cards; move them to the game-wide zone a set manifest names (not past its limit for 'you'); push the cards moved", ""),
    ("DOGMA_WITH", ("const", "int"), 2, 0,
     "pop cell cards (or null), cards; a free Dogma of the first card (int: 1 own icons, 2 no cells, 4 cells of them, 8 each effect twice)", ""),
    ("DRAW_FROM", ("enum:draw",), 3, 1,
     "pop a set's name (null: by the draw rules), age, count; draw that many of that card type (and meld/...); push them", ""),
    ("EXECUTE_WITH", ("enum:execute", "int"), 2, 0,
     "pop decider (or null), cards; 'you' execute the first card (not shared); int: 1 may is must, 2 decided by", ""),
    ("FLIP", (), 0, 1, "'you' flip the game's seeded coin, seen by every player; push whether 'you' won", ""),
]

OPCODES: list[OpInfo] = []
BY_NAME: dict[str, OpInfo] = {}
for _i, (_name, _ops, _pops, _pushes, _doc, _flags) in enumerate(_TABLE):
    _info = OpInfo(_i, _name, _ops, _pops, _pushes, _doc, "jump" in _flags, "terminal" in _flags)
    OPCODES.append(_info)
    BY_NAME[_name] = _info
    globals()[_name] = _i  # opcode numbers as module constants: opcodes.CONST, ...


def enum_index(kind: str, value: str) -> int:
    return ENUMS[kind].index(value)


def stack_effect(info: OpInfo, args: list[int]) -> tuple[int, int]:
    pops = info.pops if isinstance(info.pops, int) else args[1]  # CALL: argc is its second operand
    return pops, info.pushes


def jump_target(info: OpInfo, ins) -> int:
    """The pc a jump instruction ``ins`` may go to."""
    return ins[1 + info.operands.index("target")]


def successors(info: OpInfo, ins, pc: int) -> list[int]:
    """Where control goes after instruction ``ins`` at ``pc``: its jump target, then the next
    instruction unless it ends the chunk (an unconditional JUMP is terminal too)."""
    succ = [jump_target(info, ins)] if info.jumps else []
    if not info.terminal:
        succ.append(pc + 1)
    return succ
