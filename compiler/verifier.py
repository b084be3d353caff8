"""Stage 5: verify a chunk before anything runs it.

Like the WebAssembly validator, this is an abstract interpretation of the
operand stack over every path: each instruction's operands are in range
(constants, locals, enum values, jump targets), the stack never goes below
zero, every path into an instruction arrives with the same depth, no path
falls off the end, and an effect ends with an empty stack (a condition with
exactly its one result).  It also computes the chunk's maximum stack depth.
"""
from __future__ import annotations

from innoscript import opcodes as O


class VerifyError(Exception):
    def __init__(self, pc: int, message: str):
        self.pc = pc
        super().__init__(f"pc {pc}: {message}")


def verify(chunk: dict) -> int:
    """Return the maximum stack depth; raise VerifyError on the first fault."""
    code = chunk.get("code")
    consts = chunk.get("consts")
    nlocals = len(chunk.get("locals", []))
    lines = chunk.get("lines")
    if not isinstance(code, list) or not code:
        raise VerifyError(0, "a chunk needs at least one instruction")
    if not isinstance(consts, list) or not isinstance(lines, list) or len(lines) != len(code):
        raise VerifyError(0, "constants and the line map must be lists, one line entry per instruction")
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
            if kind == "int" and arg < 0 and info.name != "CALL":
                raise VerifyError(pc, f"{info.name}: negative operand")
        if info.name == "CALL" and not isinstance(consts[args[0]], str):
            raise VerifyError(pc, "CALL names a builtin with a string constant")

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
        succ = []
        if info.name == "REPEAT" and depth != 0:
            raise VerifyError(pc, f"REPEAT with {depth} value(s) left on the stack")
        if info.terminal and not info.jumps:
            want = final_depth if info.name in ("RETURN", "RESULT") else 0
            if info.name == "RESULT":
                if depth != 1:
                    raise VerifyError(pc, f"RESULT needs exactly one value, has {depth}")
            elif info.name == "RETURN" and final_depth == 1:
                raise VerifyError(pc, "a condition chunk ends with RESULT")
            elif depth != want:
                raise VerifyError(pc, f"{info.name} with {depth} value(s) left on the stack")
        else:
            if info.jumps:
                succ.append(ins[1 + info.operands.index("target")])
            if not info.terminal:
                if pc + 1 >= len(code):
                    raise VerifyError(pc, "control falls off the end of the chunk")
                succ.append(pc + 1)
        for nxt in succ:
            if nxt in depth_at:
                if depth_at[nxt] != after:
                    raise VerifyError(nxt, f"stack depth {depth_at[nxt]} and {after} meet here")
            else:
                depth_at[nxt] = after
                work.append(nxt)
    return max_depth
