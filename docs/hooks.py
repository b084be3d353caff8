"""mkdocs hook: fill generated tables from the single sources of truth.

Markers in the Markdown pages are replaced at build time, so the docs cannot
drift from the opcode table, the error codes, the builtins, the grammar or
the cards themselves.
"""
from __future__ import annotations

import functools
import re


def _md_escape(s: str) -> str:
    return s.replace("|", "\\|")


def opcode_table() -> str:
    from innoscript import opcodes as O
    rows = ["| # | opcode | operands | pops | pushes | what it does |", "|---|---|---|---|---|---|"]
    for op in O.OPCODES:
        operands = ", ".join(op.operands) or "-"
        rows.append(f"| {op.code} | `{op.name}` | {operands} | {op.pops} | {op.pushes} | {_md_escape(op.doc)} |")
    rows.append("")
    rows.append("Enumerations used by `enum:` operands:")
    rows.append("")
    rows.append("| enum | values (by index) |")
    rows.append("|---|---|")
    for name, values in O.ENUMS.items():
        rows.append(f"| `{name}` | {', '.join(f'{i}={_md_escape(v)}' for i, v in enumerate(values))} |")
    return "\n".join(rows)


def error_codes() -> str:
    from innoscript.diagnostics import CODES
    rows = ["| code | meaning |", "|---|---|"]
    rows += [f"| `{c}` | {_md_escape(m)} |" for c, m in CODES.items()]
    return "\n".join(rows)


def builtins_table() -> str:
    from innoscript.builtins import BUILTINS
    rows = ["| function | arguments | result | meaning |", "|---|---|---|---|"]
    for b in BUILTINS.values():
        args = ", ".join(b.args) + (", ..." if b.variadic else "")
        rows.append(f"| `{b.name}` | {args or '-'} | {b.result} | {_md_escape(b.doc)} |")
    return "\n".join(rows)


def grammar() -> str:
    from innoscript.compiler.parser import grammar_text
    return "```\n" + grammar_text() + "\n```"


@functools.cache
def usage() -> dict[str, list[str]]:
    """construct id -> ["Card (3e)", ...] over every edition's cards."""
    from innoscript.compiler.bundle import parse_card, vocabulary
    from innoscript.compiler.constructs import constructs_of
    from innoscript.editions import available_editions, load_edition
    out: dict[str, list[str]] = {}
    for ed_name in available_editions():
        ed = load_edition(ed_name)
        vocab = vocabulary(ed.manifest, ed.card_names)
        for src in sorted(ed.sources, key=lambda s: s.name or ""):
            try:
                card, _ = parse_card(src.text, src.relpath, vocab)
            except Exception:
                continue
            for cid in constructs_of(card):
                out.setdefault(cid, []).append(f"{card.name} ({ed_name})")
    return out


def uses(ids: str) -> str:
    names: list[str] = []
    for cid in ids.split(","):
        for n in usage().get(cid.strip(), []):
            if n not in names:
                names.append(n)
    if not names:
        return "*(none yet)*"
    shown = names[:12]
    more = f" and {len(names) - 12} more" if len(names) > 12 else ""
    return ", ".join(shown) + more


_MARKERS = {
    "opcode_table": opcode_table,
    "error_codes": error_codes,
    "builtins_table": builtins_table,
    "grammar": grammar,
}


def on_page_markdown(markdown: str, page, config, files) -> str:
    def sub(m):
        key = m.group(1).strip()
        if key.startswith("uses:"):
            return uses(key[5:])
        return _MARKERS[key]()
    return re.sub(r"\{\{\s*([a-z_]+(?::[a-z_,]+)?)\s*\}\}", sub, markdown)
