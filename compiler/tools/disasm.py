"""The disassembler: one line per instruction, beside its source line.

    pc  line:col  OPNAME  operands        ; resolved operands     | source
"""
from __future__ import annotations

from innoscript.core import opcodes as O
from innoscript.core.effects import effect_labels


def format_operands(chunk: dict, ins: list[int]) -> str:
    info = O.OPCODES[ins[0]]
    parts = []
    for kind, arg in zip(info.operands, ins[1:]):
        if kind == "const":
            parts.append(f"{arg} ({_short(chunk['consts'][arg])})")
        elif kind == "slot":
            parts.append(f"{arg} ({chunk['locals'][arg]})")
        elif kind == "target":
            parts.append(f"-> {arg}")
        elif kind.startswith("enum:"):
            parts.append(O.ENUMS[kind[5:]][arg])
        elif info.name == "DOGMA_WITH":     # its flags, in words
            words = [w for bit, w in ((1, "own icons"), (2, "no cell effects"), (4, "cell effects given")) if arg & bit]
            parts.append(f"{arg} ({', '.join(words)})")
        else:
            parts.append(str(arg))
    return " ".join(parts)


def _short(v) -> str:
    import json
    s = json.dumps(v)
    return s if len(s) <= 30 else s[:27] + "..."


def disassemble_chunk(chunk: dict, title: str, source_lines: list[str] | None = None) -> str:
    out = [f"== {title} =="]
    last_line = None
    for pc, ins in enumerate(chunk["code"]):
        line, col = chunk["lines"][pc]
        info = O.OPCODES[ins[0]]
        text = f"{pc:4d}  {line:3d}:{col:<3d} {info.name:<14s} {format_operands(chunk, ins)}"
        if source_lines and line != last_line and 0 < line <= len(source_lines):
            text = f"{text:<64s} | {source_lines[line - 1].strip()}"
        elif line == last_line:
            text = text.replace(f"{line:3d}:{col:<3d}", f"  |:{col:<3d}", 1)
        last_line = line
        out.append(text.rstrip())
    return "\n".join(out)


def disassemble_card(card: dict, source: str | None = None) -> str:
    lines = source.splitlines() if source else None
    parts = [f"card {card['name']!r} (age {card['age']}, {card['color']})"]
    for label, eff in zip(effect_labels(card["effects"]), card["effects"]):
        title = f"{label} effect" if eff["kind"] == "cell" else f"effect {label}: {eff['kind']}"
        parts.append(disassemble_chunk(eff, title, lines))
    return "\n\n".join(parts) + "\n"
