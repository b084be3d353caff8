"""Stage 5: verify a chunk before anything runs it.

Like the WebAssembly validator, this is an abstract interpretation of the
operand stack over every path: each instruction's operands are of their kind
and in range (constants, locals, enum values, jump targets, 0/1 flags), calls
name a builtin of the builtin table with its argument count, a choice has 2
to 16 options, constants are small JSON values, the stack never goes below
zero, every path into an instruction arrives with the same depth, no path
falls off the end, and an effect ends with an empty stack (a condition with
exactly its one result).  It also computes the chunk's maximum stack depth.
"""
from __future__ import annotations

from innoscript.core import opcodes as O


class VerifyError(Exception):
    def __init__(self, pc: int, message: str):
        self.pc = pc
        super().__init__(f"pc {pc}: {message}")


KINDS = ("cell", "demand", "non_demand", "compel", "condition", "hook")
MAX_NUMBER = 10 ** 6        # the VM's bound (runtime/machine/vm.py)
MAX_STRING = 200
MAX_LOCALS = 256
MAX_ARGS = 16
MAX_OPTIONS = 16
# Constants that name something: an icon, a card, an action variable, a special achievement, a builtin.
_FLAGS = {"SELECT": (0, 1, 2, 3),     # SELECT's flags: 1 may decline, 2 unrevealed
          # DOGMA_WITH's: 1 counting its icons, 2 no cell effects, 4 those of other cards (never 2 and 4; never
          # none), 8 each effect twice (with any of those)
          "DOGMA_WITH": (1, 2, 3, 4, 5, 8, 9, 10, 11, 12, 13),
          # EXECUTE_WITH's: 1 every 'may' a 'must', 2 decided by a player (at least one)
          "EXECUTE_WITH": (1, 2, 3)}
_NAMED = {"HAS_ICON", "FILTER_ICON", "FILTER_NAME", "CLAIM", "LOAD_ACTION", "STORE_ACTION", "CALL", "MOVE_NAMED",
          "DECK_SET", "DRAW_NAMED"}
_NAMED_OR_NULL = {"DOGMA": 0, "DOGMA_WITH": 0, "DRAW_NAMED": 1}     # a const operand that is a name or null (its index)


def _scalar(v) -> bool:
    if v is None or isinstance(v, bool):
        return True
    if isinstance(v, int):
        return -MAX_NUMBER <= v <= MAX_NUMBER
    return isinstance(v, str) and len(v) <= MAX_STRING


def verify(chunk, depths: dict | None = None) -> int:
    """Return the maximum stack depth; raise VerifyError on the first fault.
    ``depths``, if given, receives the stack depth before each reachable pc.

    Any JSON value may come in (a tampered bundle): every field is type-checked
    here before it is used."""
    from innoscript.core.builtins import BUILTINS
    if not isinstance(chunk, dict):
        raise VerifyError(0, "a chunk is an object")
    code = chunk.get("code")
    consts = chunk.get("consts")
    lines = chunk.get("lines")
    local_names = chunk.get("locals", [])
    if chunk.get("kind") not in KINDS:
        raise VerifyError(0, f"unknown chunk kind {str(chunk.get('kind'))[:40]!r}")
    if (chunk["kind"] == "cell") != ("cell" in chunk) or \
            "cell" in chunk and not (isinstance(chunk["cell"], str) and chunk["cell"].isidentifier()):
        raise VerifyError(0, "a cell effect's chunk names its cell by a word, and only a cell effect's does")
    if not isinstance(code, list) or not code:
        raise VerifyError(0, "a chunk needs at least one instruction")
    if not isinstance(consts, list) or not isinstance(lines, list) or len(lines) != len(code):
        raise VerifyError(0, "constants and the line map must be lists, one line entry per instruction")
    if not isinstance(local_names, list) or len(local_names) > MAX_LOCALS:
        raise VerifyError(0, f"locals must be a list of at most {MAX_LOCALS}")
    nlocals = len(local_names)
    for i, v in enumerate(consts):
        if not (_scalar(v) or isinstance(v, list) and len(v) <= MAX_OPTIONS and all(_scalar(x) for x in v)):
            raise VerifyError(0, f"constant {i} is not a number within ±{MAX_NUMBER:,}, a short string, "
                                 "true/false/null or a short list of them")
    for pc, ln in enumerate(lines):
        if not (isinstance(ln, list) and len(ln) == 2 and all(isinstance(x, int) and not isinstance(x, bool)
                                                             and 0 <= x < 10 ** 7 for x in ln)):
            raise VerifyError(pc, "a line entry is [line, column]")
    final_depth = 1 if chunk.get("kind") == "condition" else 0

    for pc, ins in enumerate(code):
        if not isinstance(ins, list) or not ins or not all(isinstance(x, int) and not isinstance(x, bool) for x in ins):
            raise VerifyError(pc, "an instruction is a list of integers")
        if not 0 <= ins[0] < len(O.OPCODES):
            raise VerifyError(pc, f"unknown opcode {ins[0]}")
        info = O.OPCODES[ins[0]]
        args = ins[1:]
        if len(args) != len(info.operands):
            raise VerifyError(pc, f"{info.name} takes {len(info.operands)} operands, has {len(args)}")
        for kind, arg in zip(info.operands, args):
            if kind == "const" and not 0 <= arg < len(consts):
                raise VerifyError(pc, f"{info.name}: constant index {arg} out of range")
            if kind == "slot" and not 0 <= arg < nlocals:
                raise VerifyError(pc, f"{info.name}: local slot {arg} out of range")
            if kind == "target" and not 0 <= arg < len(code):
                raise VerifyError(pc, f"{info.name}: jump target {arg} out of range")
            if kind.startswith("enum:") and not 0 <= arg < len(O.ENUMS[kind[5:]]):
                raise VerifyError(pc, f"{info.name}: {kind[5:]} value {arg} out of range")
            if kind == "int" and info.name not in ("CALL", "CHOOSE_OPTION") and arg not in _FLAGS.get(info.name, (0, 1)):
                allowed = [str(f) for f in _FLAGS.get(info.name, (0, 1))]
                raise VerifyError(pc, f"{info.name}: flag operand {arg} is not {', '.join(allowed[:-1])} or {allowed[-1]}")
        if info.name in _NAMED and not isinstance(consts[args[0]], str):
            raise VerifyError(pc, f"{info.name} names its {'builtin' if info.name == 'CALL' else 'operand'} "
                                  "with a string constant")
        if info.name in _NAMED_OR_NULL and not isinstance(consts[args[_NAMED_OR_NULL[info.name]]], (str, type(None))):
            raise VerifyError(pc, f"{info.name}: a name or null, not {consts[args[_NAMED_OR_NULL[info.name]]]!r:.40}")
        if info.name == "CALL":
            b = BUILTINS.get(consts[args[0]])
            if b is None:
                raise VerifyError(pc, f"CALL of unknown builtin {consts[args[0]][:40]!r}")
            argc = args[1]
            if not (1 <= argc <= MAX_ARGS if b.variadic else argc == len(b.args)):
                want = f"1 to {MAX_ARGS}" if b.variadic else str(len(b.args))
                raise VerifyError(pc, f"CALL {b.name} with {argc} argument(s); it takes {want}")
        if info.name == "CHOOSE_OPTION" and not 2 <= args[0] <= MAX_OPTIONS:
            raise VerifyError(pc, f"CHOOSE_OPTION with {args[0]} options (2 to {MAX_OPTIONS})")

    depth_at: dict[int, int] = {0: 0}
    work = [0]
    max_depth = 0
    while work:
        pc = work.pop()
        depth = depth_at[pc]
        ins = code[pc]
        info = O.OPCODES[ins[0]]
        pops, pushes = O.stack_effect(info, ins[1:])
        if depth < pops:
            raise VerifyError(pc, f"{info.name} needs {pops} value(s) on the stack, has {depth}")
        after = depth - pops + pushes
        max_depth = max(max_depth, after)
        if info.name == "REPEAT" and depth != 0:
            raise VerifyError(pc, f"REPEAT with {depth} value(s) left on the stack")
        if info.terminal and not info.jumps:
            succ = []
            want = final_depth if info.name in ("RETURN", "RESULT") else 0
            if info.name == "RESULT":
                if depth != 1:
                    raise VerifyError(pc, f"RESULT needs exactly one value, has {depth}")
            elif info.name == "RETURN" and final_depth == 1:
                raise VerifyError(pc, "a condition chunk ends with RESULT")
            elif depth != want:
                raise VerifyError(pc, f"{info.name} with {depth} value(s) left on the stack")
        else:
            succ = O.successors(info, ins, pc)
            if not info.terminal and pc + 1 >= len(code):
                raise VerifyError(pc, "control falls off the end of the chunk")
        for nxt in succ:
            if nxt in depth_at:
                if depth_at[nxt] != after:
                    raise VerifyError(nxt, f"stack depth {depth_at[nxt]} and {after} meet here")
            else:
                depth_at[nxt] = after
                work.append(nxt)
    if depths is not None:
        depths.update(depth_at)
    return max_depth
